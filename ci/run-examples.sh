#!/usr/bin/env bash
# The README's main job: set up, build, and run what this build can run.
# Until a code generator lands this shows the available targets and takes a
# kernel's IR through the shared passes.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash ci/bootstrap.sh
bash ci/build.sh "$root/build"
echo
"$root/build/tools/tessera/tessera" targets
echo
echo "A vector-add kernel's tile IR after inline, canonicalize, cse, licm and dce:"
"$root/build/tools/tessera-opt/tessera-opt" examples/ir/vector_add.tir --inline --canonicalize --cse --licm --dce --timing
