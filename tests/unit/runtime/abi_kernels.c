/* Hand-written kernels implementing docs/cpu-abi.md, standing in for the CPU
 * target's output until it exists. The tests compile this file with the
 * system C compiler into a shared object and load its bytes. */
#include <stdint.h>
#include <stdio.h>

void tessera_host_print(const char *text);
void tessera_host_assert_fail(const char *message, const char *file, int32_t line);

#define BLOCK 64

/* add_kernel(x_ptr, y_ptr, output_ptr, n_elements) with BLOCK_SIZE = 64:
 * the vector-add tutorial, one block of elements per program. */
void add_kernel(void **args, int32_t gx, int32_t gy, int32_t gz, int64_t first, int64_t last) {
  const float *x = *(float **)args[0], *y = *(float **)args[1];
  float *out = *(float **)args[2];
  int32_t n = *(int32_t *)args[3];
  for (int64_t pid = first; pid < last; ++pid)
    for (int64_t i = pid * BLOCK; i < pid * BLOCK + BLOCK && i < n; ++i) out[i] = x[i] + y[i];
}

/* count_programs(counts): counts[linear id] += 1 and records (x, y, z). */
void count_programs(void **args, int32_t gx, int32_t gy, int32_t gz, int64_t first, int64_t last) {
  int32_t *counts = *(int32_t **)args[0];
  int32_t *coords = *(int32_t **)args[1];
  for (int64_t pid = first; pid < last; ++pid) {
    counts[pid] += 1;
    coords[3 * pid + 0] = (int32_t)(pid % gx);
    coords[3 * pid + 1] = (int32_t)((pid / gx) % gy);
    coords[3 * pid + 2] = (int32_t)(pid / ((int64_t)gx * gy));
  }
}

/* assert_kernel(bad_pid): fails its assertion in program `bad_pid` and
 * prints from program 0. */
void assert_kernel(void **args, int32_t gx, int32_t gy, int32_t gz, int64_t first, int64_t last) {
  int32_t bad = *(int32_t *)args[0];
  for (int64_t pid = first; pid < last; ++pid) {
    if (pid == 0) tessera_host_print("pid (0, 0, 0) hello from the kernel\n");
    if (pid == bad) {
      char msg[64];
      snprintf(msg, sizeof msg, "x < 10 (pid %lld)", (long long)pid);
      tessera_host_assert_fail(msg, "kernel.py", 42);
    }
  }
}
