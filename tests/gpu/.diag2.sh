set -u
export PATH=$PATH:/usr/local/cuda/bin
B=build/bundle/tessera-bundle.tar.xz
W=$(mktemp -d); tar -xJf $B -C $W; export PYTHONPATH=$W/tessera/python TESSERA_CACHE_DIR=$(mktemp -d)
python3 tests/gpu/.probe2.py 2>&1 | tail -5
for f in ours tri; do [ -f $OUT/$f.cubin ] && cuobjdump -sass $OUT/$f.cubin > $OUT/$f.sass; done
ls -la $OUT
