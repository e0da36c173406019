import sys, os, torch, tessera
from tessera.bench import workloads as W
from tessera.bench.cuda import triton_port
import tessera.language as tsl, triton.language as ttl
out = os.environ["OUT"]
m = n = k = 4096
a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16); b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
BM, BN, BK, NW, NS = 128, 256, 64, 8, 3
grid = (tessera.cdiv(m, BM) * tessera.cdiv(n, BN),)
args = (a, b, c, m, n, k, k, 1, n, 1, n, 1)
ck = W._matmul_kernel.compile_only("nvptx", *args, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, GROUP_M=8, ACC=tsl.float32, num_warps=NW, num_stages=NS)
open(out + "/ours.cubin", "wb").write(ck.data); open(out + "/ours.ptx", "w").write(ck.assembly)
print(ck.format)
tk = triton_port(W._matmul_kernel)
h = tk[grid](*args, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, GROUP_M=8, ACC=ttl.float32, num_warps=NW, num_stages=NS)
open(out + "/tri.cubin", "wb").write(h.asm["cubin"])
open(out + "/tri.ptx", "w").write(h.asm["ptx"])
