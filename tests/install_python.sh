#!/usr/bin/env bash
# The Python package installed as docs/python.md says, run as a user would.
#
#   install_python.sh BUILD_DIR SOURCE_DIR [ASAN_RUNTIME]
#
# docs/python.md's "Installing" blocks run as written, in a temporary HOME,
# with `make install PREFIX=P` standing for what it runs after building,
# `cmake --install BUILD_DIR --prefix P` (this build; its release twin is
# the same install): the package under a prefix off the loader's path with
# /usr/bin/python3 (PYTHONPATH), a fresh venv made with
# --system-site-packages and the wheel pip-installed offline into it, and
# PREFIX=$HOME/.local with no PYTHONPATH; each loads the installed
# libwinnow.so.0 by the libdir the install recorded, with no
# LD_LIBRARY_PATH and no WINNOW_LIBRARY, and extracts a sample page. Then:
# the package a staged install (DESTDIR) for /usr/local and /usr puts where
# /usr/bin/python3 reads; the wheel the same bytes when installed again;
# `pip install --no-build-isolation --no-index` of the checkout's python/
# offline with Debian's setuptools, which records no library: it loads
# libwinnow.so.0 from the loader's path, and says which wheel to install
# when it is not there.
# ASAN_RUNTIME (the sanitizer build): preloaded into every python, which
# loads the instrumented library, not into cmake.
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) asan=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }
unset LD_LIBRARY_PATH WINNOW_LIBRARY PYTHONPATH PYTHONUSERBASE VIRTUAL_ENV
# pip as on a bare machine: no site configuration (find-links, an index)
for v in $(env | sed -n 's/^\(PIP_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
export PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
[ -x /usr/bin/python3 ] || { bad "no /usr/bin/python3"; finish; }
/usr/bin/python3 -c 'import venv, ensurepip' 2>/dev/null || { bad "no venv/ensurepip: install python3-venv (scripts/install-deps.sh)"; finish; }
cmake=${CMAKE_COMMAND:-cmake}
if [ -n "$asan" ]; then export LD_PRELOAD=$asan ASAN_OPTIONS=detect_leaks=0; fi
# `make install PREFIX=P [DESTDIR=D]` of the docs
make() {
  local prefix=/usr/local destdir= a
  for a in "$@"; do
    case $a in
      install) ;;
      PREFIX=*) prefix=${a#PREFIX=} ;;
      DESTDIR=*) destdir=${a#DESTDIR=} ;;
      *) echo "install_python.sh: make $*: not a make install line" >&2; return 2 ;;
    esac
  done
  DESTDIR=$destdir env -u LD_PRELOAD "$cmake" --install "$build" --prefix "$prefix" >&2
}
export -f make
export cmake build

section=$(awk '/^## Installing$/ {on = 1; next} /^## / {on = 0} on' "$src/docs/python.md")
mapfile -t blocks < <(awk '/^```sh$/ {on = 1; b = ""; next} /^```$/ && on {on = 0; gsub(/\n/, "\\n", b); print b; next}
                            on {b = b $0 "\n"}' <<<"$section")
if [ "${#blocks[@]}" -eq 2 ]; then ok; else bad "docs/python.md, Installing: ${#blocks[@]} sh blocks, not 2"; finish; fi
home=$tmp/home
run_block() {  # run_block N: block N as written, from the checkout's top, HOME=$home
  mkdir -p "$home"
  (cd "$src" && HOME=$home bash -euo pipefail -c "$(printf '%b' "${blocks[$1]}")") >"$tmp/block$1.out" 2>"$tmp/block$1.err"
}

# ---- block 0: a prefix of one's own; /usr/bin/python3 with PYTHONPATH; a venv and the wheel ----
if run_block 0; then ok; else bad "Installing, block 1 failed: $(tail -5 "$tmp/block0.err")"; finish; fi
prefix=$home/winnow
lib=$prefix/lib/libwinnow.so.0
mapfile -t out <"$tmp/block0.out"
# the system python, the venv: each loaded the installed library by its soname and extracted git-am.html
if [ "${out[0]:-}" = "$lib" ]; then ok; else bad "system python loaded '${out[0]:-}', not $lib"; fi
if [ "${out[1]:-}" = "$lib git-am(1)" ]; then ok; else bad "venv python: '${out[1]:-}', not '$lib git-am(1)'"; fi
if [ -f "$prefix/lib/python3/site-packages/winnow/_installed.py" ] \
   && grep -qx "LIBDIR = '$prefix/lib'" "$prefix/lib/python3/site-packages/winnow/_installed.py"; then ok
else bad "the installed package records no LIBDIR = '$prefix/lib'"; fi
if grep -q "PYTHONPATH=$prefix/lib/python3/site-packages" "$tmp/block0.out" "$tmp/block0.err"; then ok
else bad "make install did not say to use PYTHONPATH for a prefix /usr/bin/python3 does not read"; fi
venv=$home/winnow-venv
where=$(cd / && "$venv/bin/python" -c 'import winnow, cffi; print(winnow.__file__); print(cffi.__file__)' 2>&1)
if [[ "$where" == "$venv/lib/python3."*"/site-packages/winnow/__init__.py"$'\n'/usr/lib/python3/dist-packages/cffi/* ]]; then ok
else bad "venv: winnow and cffi from: $where"; fi
# the wheel: what make install writes is the same file again
whl=$(ls "$prefix"/share/winnow/python/winnow-*-py3-none-any.whl)
sum1=$(sha256sum <"$whl")
make install PREFIX="$prefix" >/dev/null 2>&1
if [ "$(sha256sum <"$whl")" = "$sum1" ]; then ok; else bad "the wheel differs when installed again"; fi
# no engine options crossed by accident: pickles and extract_many in the venv
res=$(cd / && "$venv/bin/python" - "$src/samples" 2>&1 <<'PY'
import os, pickle, sys, winnow
pages = [open(os.path.join(sys.argv[1], n), "rb").read() for n in sorted(os.listdir(sys.argv[1])) if n.endswith(".html")]
ex = pickle.loads(pickle.dumps(winnow.Extractor()))
print(sum(r.ok for r in winnow.extract_many(pages, jobs=2)) == len(pages) == 4, ex.extract(pages[0]).ok)
PY
)
if [ "$res" = "True True" ]; then ok; else bad "venv: extract_many/pickle: $res"; fi

# ---- block 1: PREFIX=$HOME/.local, no PYTHONPATH ----
if run_block 1; then ok; else bad "Installing, block 2 failed: $(tail -5 "$tmp/block1.err")"; fi
ver=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
if [ "$(tail -1 "$tmp/block1.out")" = "$home/.local/lib/libwinnow.so.0 $home/.local/lib/python$ver/site-packages/winnow/__init__.py" ]; then ok
else bad "PREFIX=\$HOME/.local: $(tail -1 "$tmp/block1.out")"; fi

# ---- staged installs: the package where /usr/bin/python3 reads under /usr/local and /usr ----
for p in /usr/local /usr; do
  stage=$tmp/stage${p//\//-}
  make install PREFIX="$p" DESTDIR="$stage" >"$tmp/stage.log" 2>&1 || { bad "DESTDIR install for $p: $(tail -3 "$tmp/stage.log")"; continue; }
  pkg=$(cd "$stage" && find . -path '*/winnow/_installed.py' | sed 's|^\.||; s|/_installed.py$||')
  reads=$(/usr/bin/python3 -c 'import site; print("\n".join(site.getsitepackages()))')
  if [ -n "$pkg" ] && grep -qx "$(dirname "$pkg")" <<<"$reads" && [[ "$(dirname "$pkg")" == "$p"/lib/* ]] \
     && grep -q "^LIBDIR = '$p/lib" "$stage$pkg/_installed.py"; then ok
  else bad "PREFIX=$p: the package went to '$pkg' (/usr/bin/python3 reads: $(tr '\n' ' ' <<<"$reads"))"; fi
done

# ---- the checkout's python/ with pip, offline: the loader's path, or a message naming the wheel ----
cp -r "$src/python" "$tmp/python-src"
rm -rf "$tmp/python-src/tests"
if "$venv/bin/pip" install -q --no-build-isolation --no-index "$tmp/python-src" >"$tmp/pip.log" 2>&1; then ok
else bad "pip install --no-build-isolation --no-index python/: $(tail -5 "$tmp/pip.log")"; fi
# LD_LIBRARY_PATH standing for the ldconfig cache of a standard prefix
got=$(cd / && LD_LIBRARY_PATH=$prefix/lib "$venv/bin/python" -c 'import winnow; print(winnow.library_path)' 2>&1)
if [ "$got" = libwinnow.so.0 ]; then ok; else bad "python/ installed by pip, library on the loader's path: $got"; fi
err=$(cd / && "$venv/bin/python" -c 'import winnow' 2>&1)
if grep -q 'share/winnow/python/winnow-\*.whl' <<<"$err"; then ok; else bad "no library found, the message: $(tail -2 <<<"$err")"; fi

finish
