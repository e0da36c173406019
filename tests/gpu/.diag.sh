set -u
export PATH=$PATH:/usr/local/cuda/bin
B=build/bundle/tessera-bundle.tar.xz
W=$(mktemp -d); tar -xJf $B -C $W; export PYTHONPATH=$W/tessera/python TESSERA_CACHE_DIR=$(mktemp -d)
for w in tessera triton; do
  echo "=== $w"
  timeout 200 ncu --section SpeedOfLight --section WarpStateStats --section SchedulerStats --metrics smsp__inst_executed.sum,sm__inst_executed_pipe_uniform.sum,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_dispatch_stall.ratio -k regex:matmul -s 2 -c 1 python3 tests/gpu/.probe.py $w 2>&1 | grep -vE "^\s*$|^==PROF==|----|OPT |INF |^\s+[A-Z][a-z].*\.$" | grep -E 'inst|stall|Duration|Elapsed|Issued|Eligible|Throughput|Cycles Per|barrier|dispatch|ratio' | head -30
done

