#!/usr/bin/env bash
# Builds a fuzzer with libFuzzer and AddressSanitizer in build-fuzz/ and runs
# it for a bounded time on a scratch copy of the seed corpus
# (frontend/fuzz/corpus: Triton's tutorial kernels), inputs up to 64 KB.
# Prints the number of inputs executed; fails on any crash.
#   ci/fuzz.sh [seconds=60] [compile|lower]
#     compile: the frontend (lexer, parser, sema, IR generation)
#     lower:   the frontend, then the CPU and nvptx targets' passes and
#              lowerings to LLVM IR (targets/fuzz/FuzzLower.cpp)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
kind="${2:-compile}"
case "$kind" in
  compile) fuzzer=tessera_fuzz_compile; dir=frontend ;;
  lower) fuzzer=tessera_fuzz_lower; dir=targets ;;
  *) echo "fuzz: unknown fuzzer '$kind' (compile or lower)" >&2; exit 2 ;;
esac
build="$root/build-fuzz"
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
# Paths relative to the checkout, so that fresh clones (CI) hit the cache.
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DCMAKE_C_FLAGS="-fsanitize=fuzzer-no-link,address" -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address" \
    -DCMAKE_EXE_LINKER_FLAGS="-fuse-ld=lld -fsanitize=address" \
    -DTESSERA_FUZZ=ON >/dev/null
fi
cmake --build "$build" --target "$fuzzer" -- -j"$(nproc)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$root/frontend/fuzz/corpus" "$work/corpus"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:use_sigaltstack=0  # see ci/test.sh
status=0
"$build/$dir/$fuzzer" "$work/corpus" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
  -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$build/" 2>"$work/log" || status=$?
grep -E "^(stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)" "$work/log" || true
if [ "$status" -ne 0 ]; then
  tail -n 60 "$work/log"
  echo "fuzz ($kind): FAILED (crash input saved under $build/)"
  exit "$status"
fi
echo "fuzz ($kind): executed $(grep -oE 'number_of_executed_units: [0-9]+' "$work/log" | grep -oE '[0-9]+$') inputs in ${seconds}s, no crash"
