#!/usr/bin/env bash
# Installs the Debian 12 packages winnow builds and tests with, only those
# that are missing. Installing needs root: run as root (no sudo needed, as on
# a bare Debian), or as a user who has sudo.
set -euo pipefail
packages=(
  build-essential cmake pkg-config python3   # toolchain, test drivers
  libmodest-dev      # myhtml: HTML5 tree construction
  libuchardet-dev    # charset detection
  libutf8proc-dev    # Unicode classes and case folding
  libxxhash-dev      # block fingerprints
  libsqlite3-dev     # site model database
  liblinear-dev      # logistic regression for the node classifier (training)
  libxgboost-dev     # random forest and boosted trees for the node classifier (training)
  zlib1g-dev         # gzip-compressed WARC and JSONL input
  clang libclang-rt-14-dev   # libFuzzer and sanitizer runtimes for `make check`
  clang-format       # the style check of `make check` (scripts/checksrc.sh, .clang-format)
  valgrind           # memcheck over the release build in CI
  groff-base         # renders man/winnow.1 in the man page test
  python3-cffi       # the Python package (python/winnow): loads libwinnow.so, ABI mode
  python3-pytest     # its tests (python/tests), run by `make check`
  cmark-gfm          # CommonMark + GFM reference renderer: checks winnow's Markdown (tests/markdown_check.py)
  python3-distributed  # Dask distributed: python3 -m winnow.dask and its LocalCluster test
  python3-venv       # the documented venv install (venv + ensurepip's offline pip), tested by install.python
  python3-setuptools python3-wheel  # pip install --no-build-isolation ./python offline in that venv (install.python)
  python3-pandas     # Dask dataframes with a pickled winnow.Extractor (python/tests/test_processes.py; skipped without)
  # headless browser for the report test (tests/report_check.py browser): winnow
  # annotate's HTML rendered, screenshot and DOM checked. Large (~350 MB with its
  # libraries); without it that test prints SKIP. DejaVu: the fonts it renders with.
  chromium fonts-dejavu-core
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "install-deps.sh: missing Debian packages: ${missing[*]}" >&2
    echo "install-deps.sh: installing them needs root, and sudo is not installed: run this script as root" >&2
    exit 1
  fi
  sudo=(sudo)
fi
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q >/dev/null
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
