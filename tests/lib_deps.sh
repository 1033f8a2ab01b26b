#!/usr/bin/env bash
# libwinnow does not link the training libraries: liblinear and XGBoost are
# the training layer's (src/train/, linked by winnow-train only). Nor does
# the winnow program: `winnow train` runs winnow-train, so no other command
# loads them (they cost more to load than a page costs to extract).
#
#   lib_deps.sh LIBWINNOW_SO LIBWINNOW_A LIBLINEAR XGBOOST WINNOW WINNOW_TRAIN
#
# Checks the shared library's NEEDED entries (readelf -d) and what the loader
# pulls in (ldd), and that neither library leaves a symbol undefined that
# liblinear or XGBoost define (nm). Skips when binutils are missing.
set -uo pipefail
so=$1 a=$2 linear=$3 xgboost=$4 cli=$5 cli_train=$6
for tool in readelf nm ldd; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: $tool not found (binutils, libc-bin)"
    exit 0
  fi
done
passed=0 fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { passed=$((passed + 1)); }

needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
if [ -n "$needed" ]; then pass; else fail "readelf found no NEEDED entries in $so"; fi
echo "NEEDED of $(basename "$so"): $(echo $needed)"
if grep -Eiq 'linear|xgboost' <<<"$needed"; then
  fail "libwinnow.so needs a training library: $(grep -Ei 'linear|xgboost' <<<"$needed" | tr '\n' ' ')"
else
  pass
fi
if ldd "$so" | grep -Eiq 'liblinear|libxgboost'; then
  fail "the loader pulls a training library into libwinnow.so: $(ldd "$so" | grep -Ei 'liblinear|libxgboost' | tr '\n' ' ')"
else
  pass
fi

# symbols the training libraries define (dynamic symbol tables)
training_syms=$(for lib in "$linear" "$xgboost"; do nm -D --defined-only "$lib" | awk 'NF >= 3 {print $3}'; done | sort -u)
if [ -n "$training_syms" ]; then pass; else fail "no symbols read from $linear and $xgboost"; fi
undefined_so=$(nm -D --undefined-only "$so" | awk '{print $NF}' | sed 's/@.*//' | sort -u)
# the archive: symbols its members use that none of them defines
undefined_a=$(comm -23 <(nm --undefined-only "$a" 2>/dev/null | awk 'NF >= 2 {print $NF}' | sort -u) \
                       <(nm --defined-only "$a" 2>/dev/null | awk 'NF >= 3 {print $3}' | sort -u))
for which in so a; do
  if [ "$which" = so ]; then list=$undefined_so; file=$so; else list=$undefined_a; file=$a; fi
  hits=$(comm -12 <(echo "$list") <(echo "$training_syms") | grep -v '^$' | head -5 | tr '\n' ' ')
  if [ -z "$hits" ]; then pass; else fail "$(basename "$file") uses symbols of liblinear/XGBoost: $hits"; fi
done

# the programs: winnow loads no training library, winnow-train does, and
# `winnow train` reaches it
# (ldd's output read whole first: grep -q stopping early would kill ldd with
# SIGPIPE, which pipefail counts as a failure)
cli_libs=$(ldd "$cli" 2>&1)
train_libs=$(ldd "$cli_train" 2>&1)
if grep -Eiq 'liblinear|libxgboost' <<<"$cli_libs"; then
  fail "winnow loads a training library: $(grep -Ei 'liblinear|libxgboost' <<<"$cli_libs" | tr '\n' ' ')"
else
  pass
fi
if grep -q 'libxgboost' <<<"$train_libs" && grep -q 'liblinear' <<<"$train_libs"; then pass
else fail "winnow-train does not load liblinear and XGBoost: $(tr '\n' ' ' <<<"$train_libs")"; fi
help=$("$cli" train --help 2>&1)
if grep -q 'usage: winnow train' <<<"$help"; then pass; else fail "winnow train --help does not reach winnow-train: $help"; fi
out=$("$cli" train --kind nope x -o /dev/null 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "unknown model kind 'nope'" <<<"$out"; then pass
else fail "winnow train's own errors and status do not come back through winnow (status $rc: $out)"; fi

echo "$passed passed, $fails failed"
[ "$fails" -eq 0 ]
