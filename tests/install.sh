#!/usr/bin/env bash
# The installed tree, used as a library user would use it.
#
#   install.sh BUILD_DIR SOURCE_DIR CC "EXTRA_FLAGS"
#
# cmake --install into a temporary prefix (and once staged with DESTDIR);
# the files, the soname links and winnow.pc; the installed winnow runs
# without LD_LIBRARY_PATH; tests/install/app.c built with pkg-config, with
# each 'cc app.c' line of docs/api.md as written (shared, shared with a
# runpath, static) and with find_package(winnow) in a CMake project, each run
# without LD_LIBRARY_PATH. EXTRA_FLAGS go to every compile and link of
# app.c: the sanitizer build passes -fsanitize=... there, which a program
# linking an instrumented libwinnow needs too.
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) cc_prog=$3 extra=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }
unset LD_LIBRARY_PATH
cmake=${CMAKE_COMMAND:-cmake}
for tool in "$cmake" pkg-config readelf; do
  command -v "$tool" >/dev/null || { bad "$tool not found (install-deps.sh installs it)"; finish; }
done

# ---- the tree ----
prefix=$tmp/prefix
if "$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1; then ok
else bad "cmake --install failed: $(tail -3 "$tmp/install.log")"; finish; fi
pc=$(find "$prefix" -name winnow.pc -path '*/pkgconfig/*' | head -1)
[ -n "$pc" ] || { bad "no pkgconfig/winnow.pc installed: $(cd "$prefix" && find . -type f | tr '\n' ' ')"; finish; }
libdir=$(dirname "$(dirname "$pc")")
for f in bin/winnow include/winnow.h share/man/man1/winnow.1; do
  if [ -f "$prefix/$f" ]; then ok; else bad "$f not installed"; fi
done
for f in libwinnow.a libwinnow.so cmake/winnow/winnowConfig.cmake cmake/winnow/winnowConfigVersion.cmake \
         cmake/winnow/winnowTargets.cmake; do
  if [ -e "$libdir/$f" ]; then ok; else bad "${libdir#$prefix/}/$f not installed"; fi
done
# libwinnow.so -> libwinnow.so.0 -> libwinnow.so.0.MINOR.PATCH, soname libwinnow.so.0
real=$(readlink "$libdir/libwinnow.so.0")
if [ "$(readlink "$libdir/libwinnow.so")" = libwinnow.so.0 ] && [[ "$real" =~ ^libwinnow\.so\.0\.[0-9]+\.[0-9]+$ ]] \
   && [ -f "$libdir/$real" ]; then ok
else bad "soname links: libwinnow.so -> $(readlink "$libdir/libwinnow.so"), libwinnow.so.0 -> $real"; fi
soname=$(readelf -d "$libdir/libwinnow.so.0" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$soname" = libwinnow.so.0 ]; then ok; else bad "SONAME is '$soname', not libwinnow.so.0"; fi

export PKG_CONFIG_PATH="$libdir/pkgconfig"
if [ "$(pkg-config --variable=prefix winnow)" = "$prefix" ] && [ "$(pkg-config --variable=libdir winnow)" = "$libdir" ] \
   && [ "$(pkg-config --modversion winnow)" = "$("$prefix/bin/winnow" --version | awk '{print $2}')" ]; then ok
else bad "winnow.pc: prefix $(pkg-config --variable=prefix winnow), libdir $(pkg-config --variable=libdir winnow), version $(pkg-config --modversion winnow)"; fi

# staged: DESTDIR holds the files, winnow.pc names the real prefix
stage=$tmp/stage
if DESTDIR="$stage" "$cmake" --install "$build" --prefix /opt/winnow-staged >"$tmp/stage.log" 2>&1 \
   && [ -x "$stage/opt/winnow-staged/bin/winnow" ] \
   && grep -qx 'prefix=/opt/winnow-staged' "$(find "$stage" -name winnow.pc | head -1)"; then ok
else bad "DESTDIR install: $(tail -3 "$tmp/stage.log"); $(cd "$stage" 2>/dev/null && find . -name winnow.pc)"; fi

# ---- the installed winnow, without LD_LIBRARY_PATH ----
page=$src/samples/git-am.html
out=$("$prefix/bin/winnow" extract "$page" 2>"$tmp/winnow.err")
if [ $? -eq 0 ] && grep -q 'git am' <<<"$out"; then ok
else bad "installed winnow extract: $(head -3 "$tmp/winnow.err")"; fi
# winnow train runs the installed winnow-train beside it
help=$("$prefix/bin/winnow" train --help 2>"$tmp/train.err")
if grep -q 'usage: winnow train' <<<"$help"; then ok
else bad "installed winnow train: $(head -3 "$tmp/train.err")"; fi
if ldd "$prefix/bin/winnow" 2>&1 | grep -q 'not found'; then
  bad "installed winnow has unresolved libraries: $(ldd "$prefix/bin/winnow" | grep 'not found' | tr '\n' ' ')"
else ok; fi

# ---- programs of a library user ----
cp "$src/tests/install/app.c" "$tmp/app.c"
# check_app NAME BINARY [shared|static]: it ran and printed the article, not the footer
check_app() {
  local name=$1 bin=$2 kind=$3 out
  out=$("$bin" 2>"$tmp/$name.err")
  if [ $? -ne 0 ] || ! grep -q 'installed library extracts this paragraph' <<<"$out" || grep -q Copyright <<<"$out"; then
    bad "$name: run without LD_LIBRARY_PATH: $(head -3 "$tmp/$name.err") $(head -3 <<<"$out")"
    return
  fi
  local needed
  needed=$(readelf -d "$bin" | grep NEEDED)
  if [ "$kind" = shared ] && ! grep -q 'libwinnow\.so\.0' <<<"$needed"; then bad "$name: not linked to libwinnow.so.0"; return; fi
  if [ "$kind" = static ] && grep -q 'libwinnow' <<<"$needed"; then bad "$name: linked to libwinnow.so, not libwinnow.a"; return; fi
  ok
}

cd "$tmp" || finish
# pkg-config by hand
# shellcheck disable=SC2046,SC2086
if "$cc_prog" $extra app.c -o app-pc $(pkg-config --cflags --libs winnow) -Wl,-rpath,"$libdir" 2>"$tmp/pc.err"; then
  check_app pkg-config "$tmp/app-pc" shared
else bad "pkg-config build: $(head -5 "$tmp/pc.err")"; fi

# docs/api.md's link lines, as written, with 'cc' as this build's compiler
cc() { command "$cc_prog" $extra "$@"; }
mapfile -t lines < <(awk '/^cc app\.c/ {print}' "$src/docs/api.md")
if [ "${#lines[@]}" -eq 3 ]; then ok; else bad "docs/api.md has ${#lines[@]} 'cc app.c' lines, not 3 (shared, shared with runpath, static)"; fi
for line in "${lines[@]}"; do
  rm -f app
  if ! (eval "$line") 2>"$tmp/readme.err"; then bad "docs/api.md line failed: $line: $(head -5 "$tmp/readme.err")"; continue; fi
  case $line in
    *-Bstatic*) check_app "api.md static line" "$tmp/app" static ;;
    *-rpath*) check_app "api.md runpath line" "$tmp/app" shared ;;
    *)
      # the line for a standard prefix, where ldconfig makes the loader find
      # libwinnow.so.0; LD_LIBRARY_PATH stands in for that here
      LD_LIBRARY_PATH=$libdir check_app "api.md shared line (the loader told where ldconfig would)" "$tmp/app" shared
      ;;
  esac
done
unset -f cc

# find_package(winnow) in a CMake project
cmake_flags=(-DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc_prog" -DCMAKE_BUILD_TYPE=Debug)
[ -z "$extra" ] || cmake_flags+=(-DCMAKE_C_FLAGS="$extra" -DCMAKE_EXE_LINKER_FLAGS="$extra")
if "$cmake" -S "$src/tests/install" -B "$tmp/consumer" "${cmake_flags[@]}" >"$tmp/consumer.log" 2>&1 \
   && "$cmake" --build "$tmp/consumer" >>"$tmp/consumer.log" 2>&1; then
  check_app "find_package winnow::winnow" "$tmp/consumer/app_shared" shared
  check_app "find_package winnow::winnow_static" "$tmp/consumer/app_static" static
else bad "CMake project with find_package(winnow): $(grep -E 'Error|error' -A3 "$tmp/consumer.log" | head -12)"; fi

finish
