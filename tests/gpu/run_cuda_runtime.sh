#!/usr/bin/env bash
# Runs the CUDA runtime suite (tests/gpu) on a machine with an NVIDIA GPU,
# from the relocatable bundle of ci/bundle.sh: nothing is built here, only
# kernels.cu with nvcc. DEVELOPERS.md has the device-tool command.
#   tests/gpu/run_cuda_runtime.sh [bundle.tar.xz] [extra pytest args...]
# Environment: TESSERA_ALL_SUITES=1 also runs tests/python (CPU target);
# $OUT, when set, receives the JUnit XML and the log.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bundle="${1:-$root/build/bundle/tessera-bundle.tar.xz}"
shift || true
out="${OUT:-$(mktemp -d)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

tar -xJf "$bundle" -C "$work" || { echo "cannot unpack $bundle" >&2; exit 2; }
cat "$work/tessera/BUNDLE.txt"
nvidia-smi -L || echo "nvidia-smi: no GPU listed"
export PYTHONPATH="$work/tessera/python${PYTHONPATH:+:$PYTHONPATH}"
export PATH="$PATH:/usr/local/cuda/bin"
py="${PYTHON:-python3}"
"$py" -c 'import tessera, tessera._C as C; print("tessera", C.version(), "backends:", C.backend_names())'

suites=("$work/tessera/tests/gpu")
[ "${TESSERA_ALL_SUITES:-0}" = 1 ] && suites+=("$work/tessera/tests/python")
"$py" -m pytest -v -rs -p no:cacheprovider "${suites[@]}" --junitxml "$out/cuda-runtime.xml" "$@" 2>&1 | tee "$out/cuda-runtime.log"
exit "${PIPESTATUS[0]}"
