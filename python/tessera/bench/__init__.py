"""tessera.bench: the cross-vendor benchmark (`tessera bench`, `python -m tessera.bench`).

Workloads (vector add, softmax, layernorm, matmul per dtype, attention and
causal attention) run on the targets named with --target (default:
tessera.default_target()). Each row gives the median time, the throughput, the fraction
of the machine's ceiling measured in the same run (a memory copy for
bandwidth-bound work, the vendor BLAS for matmul), and the peers measured in
the same run (numpy on the host; torch and Triton on GPUs, where installed).

Layer 4, api (python/tessera/__init__.py lists the layers).
"""
