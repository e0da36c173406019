set -u
B=build/bundle/tessera-bundle.tar.xz
W=$(mktemp -d); tar -xJf $B -C $W; export PYTHONPATH=$W/tessera/python
T="$W/tessera/tests/gpu/test_nvptx_mma.py $W/tessera/tests/python/test_attention.py $W/tessera/tests/python/test_conformance.py"
for v in "" "TESSERA_DIAG_NO_STAGING=1" "TESSERA_DIAG_NO_K_FAST=1"; do
  echo "=== registers $v"
  env $v TESSERA_CACHE_DIR=$(mktemp -d) TESSERA_PIPELINE_REGISTERS=1 TESSERA_TEST_TARGET=nvptx timeout 100 python3 -m pytest -q -p no:cacheprovider -n 8 $T -k "dot or mma or matmul or attention" 2>&1 | grep -E "^FAILED|passed|failed" | head -12
done
