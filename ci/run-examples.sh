#!/usr/bin/env bash
# The README's main job: set up, build, and run examples/python (vector add,
# fused softmax, layer norm, matmul, written as Triton users write them) on
# the best available target, checking each against numpy and printing speed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash ci/bootstrap.sh
bash ci/build.sh "$root/build"
echo
"$root/build/tools/tessera/tessera" targets
echo
PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}" "$root/.venv/bin/python" "$root/examples/python/run_all.py"
