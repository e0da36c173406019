// CUDA C kernels for the CUDA runtime suite (test_cuda_runtime.py), built
// with `nvcc -ptx` / `-cubin` on the GPU machine: until the nvptx target
// exists, these stand in for compiled Tessera kernels. extern "C" keeps the
// entry names unmangled, and every parameter is a pointer or an int, passed
// through kernelParams exactly as Tessera's launches pass them.

extern "C" __global__ void vadd(const float *x, const float *y, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] + y[i];
}

// Reverses each row of `rows x n` floats through dynamic shared memory: with
// n = 16384 a block needs 64 KB, above the 48 KB default.
extern "C" __global__ void reverse_rows(const float *x, float *out, int n) {
  extern __shared__ float row[];
  const float *src = x + (long long)blockIdx.x * n;
  for (int i = threadIdx.x; i < n; i += blockDim.x) row[i] = src[i];
  __syncthreads();
  float *dst = out + (long long)blockIdx.x * n;
  for (int i = threadIdx.x; i < n; i += blockDim.x) dst[i] = row[n - 1 - i];
}

// out[linear program id] = linear id + 1, from a 3-D grid: checks the grid's
// y and z reach the kernel.
extern "C" __global__ void grid_ids(int *out) {
  if (threadIdx.x != 0) return;
  int id = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  out[id] = id + 1;
}

// Writes through whatever pointer it gets (a null one makes a launch fault).
extern "C" __global__ void store_one(int *p) { *p = 1; }
