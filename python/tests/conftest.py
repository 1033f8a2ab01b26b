"""Fixtures of the Python package's tests.

Run from the checkout: ``PYTHONPATH=python /usr/bin/python3 -m pytest python/tests``
(the library is found in build/ after ``make``), or through ``ctest`` /
``make check``, which point ``WINNOW_LIBRARY`` at the build's libwinnow.so and
``WINNOW_CLI`` at its winnow tool (tests/CMakeLists.txt).
"""
import os
import shutil
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))

import winnow  # noqa: E402

# Under make check the sanitized library is loaded with the AddressSanitizer
# runtime preloaded (tests/CMakeLists.txt). It is in this process now; the
# tools the tests run (the sanitized winnow CLI carries its own runtime, and
# a second one refuses to start) must not inherit it.
# ASAN_PRELOAD keeps it for the tests that run Python over the library again.
ASAN_PRELOAD = None
if "asan" in os.environ.get("LD_PRELOAD", ""):
    ASAN_PRELOAD = os.environ.pop("LD_PRELOAD")

SHARED = os.environ.get("WINNOW_SHARED", os.path.join(os.path.dirname(ROOT), "shared"))
if not os.path.isdir(SHARED):
    SHARED = "/work/shared"


def _cli():
    env = os.environ.get("WINNOW_CLI")
    if env:
        return env
    cand = os.path.join(os.path.dirname(winnow.library_path), "winnow")
    if os.path.isfile(cand):
        return cand
    return shutil.which("winnow")


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def cli():
    path = _cli()
    if not path:
        pytest.skip("no winnow tool (set WINNOW_CLI)")
    return path


def _page(rel):
    with open(os.path.join(ROOT, rel), "rb") as f:
        return f.read()


@pytest.fixture(scope="session")
def sample_paths():
    d = os.path.join(ROOT, "samples")
    return sorted(os.path.join(d, n) for n in os.listdir(d) if n.endswith(".html"))


@pytest.fixture(scope="session")
def git_am():
    return _page("samples/git-am.html")


@pytest.fixture(scope="session")
def forum():
    """A story with reader comments (found by their structure)."""
    return _page("tests/data/pages/synthetic-story-comments.html")


@pytest.fixture(scope="session")
def small_warc():
    """A small WARC of the corpus (40 pages of one site), or a skip."""
    p = os.path.join(SHARED, "corpus", "sites", "arstechnica.com.warc.gz")
    if not os.path.exists(p):
        pytest.skip("no corpus WARC at %s" % p)
    return p


@pytest.fixture(scope="session")
def aeb_dir():
    p = os.path.join(SHARED, "bench", "aeb", "html")
    if not os.path.isdir(p):
        pytest.skip("no aeb pages at %s" % p)
    return p
