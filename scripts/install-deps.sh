#!/usr/bin/env bash
# Installs the Debian 12 packages winnow builds and tests with, only those
# that are missing. Needs root (or sudo) when something must be installed.
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
  valgrind           # memcheck over the release build in CI
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >/dev/null
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
