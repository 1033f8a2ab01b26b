"""The README's Python section runs as written (from the checkout's top)."""
import os
import re
import subprocess

import conftest


def test_readme_python_section(root, tmp_path):
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    section = readme.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
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


def test_readme_dask_section(root, tmp_path):
    import pytest
    pytest.importorskip("distributed", reason="python3-distributed is not installed")
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    section = readme.split("\n### On Dask\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    assert "-m winnow.dask" in block
    script = block.replace("/tmp/", str(tmp_path) + "/")
    if os.environ.get("WINNOW_CLI"):  # this build's tool (build-check under make check)
        # (the sanitized CLI carries its own ASan runtime: not the preloaded one)
        script = script.replace("build/winnow ", "env -u LD_PRELOAD " + os.environ["WINNOW_CLI"] + " ")
    env = dict(os.environ)
    if conftest.ASAN_PRELOAD:
        env["LD_PRELOAD"] = conftest.ASAN_PRELOAD
    p = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=root, env=env, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    assert "courier.example" in p.stdout and " 60 " in p.stdout
    assert p.stdout.splitlines()[-1].startswith('{"id":"shard1-00000"')
    assert "merged into" in p.stderr and "60 pages" in p.stderr
