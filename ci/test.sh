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
# Intel's OpenCL CPU runtime (ci/requirements.txt; bootstrap points its .icd
# files at the venv): the OpenCL backend's device for ctest, pytest and the
# conformance matrix's spirv:opencl column.
export OCL_ICD_VENDORS="${OCL_ICD_VENDORS:-$root/.venv/etc/OpenCL/vendors}"
results="$root/build/test-results"
rm -rf "$results" && mkdir -p "$results"
failed_steps=()

step() { echo; echo "=== $*"; current="$*"; }
# Records the step that failed; the summary names them last, where a
# truncated log still shows them.
failed() { failed_steps+=("$current${1:+ ($1)}"); }

step "build (RelWithDebInfo)"
bash ci/build.sh "$root/build"

step "unit tests"
ctest --test-dir "$root/build" --output-on-failure -j"$(nproc)" --output-junit "$results/unit.xml" || failed

step "IR golden tests"
"$root/.venv/bin/lit" -q --xunit-xml-output "$results/ir.xml" "$root/build/tests/ir" || failed

if [ -n "$(find tests/python -name 'test_*.py' 2>/dev/null)" ]; then
  step "Python tests"
  # tests/gpu skips here (no GPU), printing why; DEVELOPERS.md runs it on a GPU.
  "$py" -m pytest -q -rs -n "$(nproc)" tests/python tests/gpu --junitxml "$results/python.xml" || failed
fi

step "packages (a wheel in a fresh venv; cmake --install and find_package)"
bash ci/packages.sh "$root/build" || failed

step "conformance matrix (every target present, spirv:opencl on Intel's OpenCL CPU runtime; the cpu column's cases also ran above as pytest tests)"
mkdir -p "$root/build/conformance"
if PYTHONPATH="$root/python" "$py" -m tessera.conformance --json "$root/build/conformance/matrix.json" \
    --junit "$root/build/conformance/matrix.xml" >"$root/build/conformance/matrix.txt" 2>&1; then
  tail -n 5 "$root/build/conformance/matrix.txt"
else
  grep -v -E "\s(pass|skip)(\s|$)" "$root/build/conformance/matrix.txt" | tail -n 80
  failed "$(sed -n '/^failures:/,/^$/p' "$root/build/conformance/matrix.txt" | sed -n 2,4p | tr -s ' ' | paste -sd ';')"
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
ctest --test-dir "$root/build-asan" --output-on-failure -j"$(nproc)" --output-junit "$results/unit-asan.xml" || failed ctest
"$root/.venv/bin/lit" -q --xunit-xml-output "$results/ir-asan.xml" "$root/build-asan/tests/ir" || failed lit

step "reliability suite (misuse cases, each in its own process)"
"$py" tests/reliability/run.py || failed
step "reliability suite with the ASan + UBSan build's libtessera"
"$py" tests/reliability/run.py --asan "$root/build-asan" || failed

step "fuzzing the frontend (bounded)"
bash ci/fuzz.sh "${TESSERA_FUZZ_SECONDS:-60}" compile || failed
step "fuzzing the lowerings to CPU and GPU code (bounded)"
bash ci/fuzz.sh "${TESSERA_FUZZ_SECONDS:-60}" lower || failed

step "summary"
"$py" ci/summarize.py "$results"/*.xml || failed
if [ ${#failed_steps[@]} -gt 0 ]; then
  printf 'failed step: %s\n' "${failed_steps[@]}"
  exit 1
fi
