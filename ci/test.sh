#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, and runs the unit
# tests (GoogleTest via ctest), the textual-IR golden tests (lit + FileCheck),
# the Python tests (pytest), the unit and golden tests again in a Debug
# build with AddressSanitizer and UndefinedBehaviorSanitizer, the reliability
# suite (plain and with that build), and bounded fuzzing runs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash ci/bootstrap.sh
py="$root/.venv/bin/python"
results="$root/build/test-results"
rm -rf "$results" && mkdir -p "$results"
status=0

step() { echo; echo "=== $*"; }

step "build (RelWithDebInfo)"
bash ci/build.sh "$root/build"

step "unit tests"
ctest --test-dir "$root/build" --output-on-failure -j"$(nproc)" --output-junit "$results/unit.xml" || status=1

step "IR golden tests"
"$root/.venv/bin/lit" -q --xunit-xml-output "$results/ir.xml" "$root/build/tests/ir" || status=1

if [ -n "$(find tests/python -name 'test_*.py' 2>/dev/null)" ]; then
  step "Python tests"
  # tests/gpu skips here (no GPU), printing why; DEVELOPERS.md runs it on a GPU.
  "$py" -m pytest -q -rs -n "$(nproc)" tests/python tests/gpu --junitxml "$results/python.xml" || status=1
fi

step "packages (a wheel in a fresh venv; cmake --install and find_package)"
bash ci/packages.sh "$root/build" || status=1

step "conformance matrix (every target present; its cases also ran above as pytest tests)"
mkdir -p "$root/build/conformance"
if PYTHONPATH="$root/python" "$py" -m tessera.conformance --json "$root/build/conformance/matrix.json" \
    --junit "$root/build/conformance/matrix.xml" >"$root/build/conformance/matrix.txt" 2>&1; then
  tail -n 5 "$root/build/conformance/matrix.txt"
else
  status=1
  grep -v -E "\s(pass|skip)(\s|$)" "$root/build/conformance/matrix.txt" | tail -n 80
fi

step "sanitizers (Debug, ASan + UBSan)"
# use_sigaltstack=0: LLVM's signal handlers install their own alternate
# signal stack (64 KiB + MINSIGSTKSZ, heap) on the first thread that
# registers them when ASan's is smaller, as on AVX-512 machines; ASan then
# munmaps that heap buffer as its own at the thread's exit and dies
# ("failed to deallocate", tessera compile --aot in a worker thread).
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:use_sigaltstack=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$root/ci/lsan.supp
bash ci/build.sh "$root/build-asan" -DCMAKE_BUILD_TYPE=Debug -DTESSERA_SANITIZE=ON
ctest --test-dir "$root/build-asan" --output-on-failure -j"$(nproc)" --output-junit "$results/unit-asan.xml" || status=1
"$root/.venv/bin/lit" -q --xunit-xml-output "$results/ir-asan.xml" "$root/build-asan/tests/ir" || status=1

step "reliability suite (misuse cases, each in its own process)"
"$py" tests/reliability/run.py || status=1
step "reliability suite with the ASan + UBSan build's libtessera"
"$py" tests/reliability/run.py --asan "$root/build-asan" || status=1

step "fuzzing the frontend (bounded)"
bash ci/fuzz.sh "${TESSERA_FUZZ_SECONDS:-60}" compile || status=1
step "fuzzing the lowerings to CPU and GPU code (bounded)"
bash ci/fuzz.sh "${TESSERA_FUZZ_SECONDS:-60}" lower || status=1

step "summary"
"$py" ci/summarize.py "$results"/*.xml || status=1
exit $status
