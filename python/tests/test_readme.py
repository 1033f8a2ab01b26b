"""The documentation's shell blocks run as written (from the checkout's top):
the README's tour, and docs/python.md's tour and Dask run."""
import os
import re
import subprocess

import conftest


def section_of(root, path, heading):
    """The text of the section under heading (a line "## ..."), up to the next "## "."""
    with open(os.path.join(root, path), encoding="utf-8") as f:
        text = f.read()
    return text.split("\n" + heading + "\n", 1)[1].split("\n## ", 1)[0]


def cli_script(script, tmp_path):
    """script with its files in the test's own folder instead of /tmp, and this
    build's tool (build-check under make check) for build/winnow."""
    script = script.replace("/tmp/", str(tmp_path) + "/")
    if os.environ.get("WINNOW_CLI"):
        # (the sanitized CLI carries its own ASan runtime: not the preloaded one)
        script = script.replace("build/winnow ", "env -u LD_PRELOAD " + os.environ["WINNOW_CLI"] + " ")
    return script


def test_readme_tour(root, tmp_path):
    section = section_of(root, "README.md", "## A five-minute tour")
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    assert len(blocks) >= 4
    env = dict(os.environ)
    if conftest.ASAN_PRELOAD:
        env["LD_PRELOAD"] = conftest.ASAN_PRELOAD
    # no pipefail: the tour cuts outputs short with head
    p = subprocess.run(["bash", "-eu", "-c", cli_script("\n".join(blocks), tmp_path)], cwd=root, env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    out = p.stdout
    assert out.startswith("poplib")
    assert "python-poplib.txt\tsamples/python-poplib.html\tWINNOW_OK" in out
    assert "\n30\n" in out  # every page of the made-up site by its site model
    assert "WINNOW_OK poplib" in out
    assert "LearnStats 30 pages: 30 counted" in out


def test_docs_python_tour(root, tmp_path):
    section = section_of(root, "docs/python.md", "## A tour")
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    assert "PYTHONPATH=python /usr/bin/python3" in block
    # its files go to a folder of the test's own instead of /tmp
    script = block.replace("/tmp/", str(tmp_path) + "/")
    env = dict(os.environ)
    if conftest.ASAN_PRELOAD:  # the sanitized library: python3 needs the runtime preloaded
        env["LD_PRELOAD"] = conftest.ASAN_PRELOAD
    p = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=root, env=env, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    out = p.stdout
    assert out.startswith("WINNOW_OK poplib")
    assert "WINNOW_E_BINARY - input is not HTML" in out
    assert "LearnStats 30 pages: 30 counted" in out
    assert "site-model" in out


def test_docs_dask_section(root, tmp_path):
    import pytest
    pytest.importorskip("distributed", reason="python3-distributed is not installed")
    section = section_of(root, "docs/python.md", "## On Dask")
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    assert "-m winnow.dask" in block
    script = cli_script(block, tmp_path)
    env = dict(os.environ)
    if conftest.ASAN_PRELOAD:
        env["LD_PRELOAD"] = conftest.ASAN_PRELOAD
    p = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=root, env=env, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    assert "courier.example" in p.stdout and " 60 " in p.stdout
    assert p.stdout.splitlines()[-1].startswith('{"id":"shard1-00000"')
    assert "merged into" in p.stderr and "60 pages" in p.stderr
