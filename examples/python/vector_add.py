"""Vector addition, as in Triton's first tutorial (imports changed)."""
import numpy as np

import tessera
import tessera.language as tl


@tessera.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


def add(x, y, output=None):
    output = np.empty_like(x) if output is None else output
    n_elements = output.size
    grid = lambda meta: (tessera.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output


def run(rng, bench, speed):
    size = 98432
    x = rng.random(size, dtype=np.float32)
    y = rng.random(size, dtype=np.float32)
    ok = np.array_equal(add(x, y), x + y)
    n = 1 << 24
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    out = np.empty_like(x)
    ms, ms_new = bench(lambda: add(x, y, out)), bench(lambda: add(x, y))
    return ok, speed(3 * x.nbytes, ms, ms_new, "n=2^24")
