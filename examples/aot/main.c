/* An ahead-of-time kernel from C: add_kernel_aot.{h,c} were written at build
 * time by `tessera compile --aot` (examples/aot/CMakeLists.txt); this program
 * links only libtessera_rt (the runtime, no compiler, no LLVM). It runs the
 * kernel on the first device it has a binary for (a GPU when there is one,
 * else the host) and checks it against a plain loop. Exit 0 OK, 1 failure. */
#include "add_kernel_aot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                                 \
  do {                                                                                              \
    tessera_status s_ = (call);                                                                     \
    if (s_ != TESSERA_SUCCESS) {                                                                    \
      fprintf(stderr, "%s failed: %s: %s\n", #call, tessera_status_string(s_), tessera_last_error()); \
      return 1;                                                                                     \
    }                                                                                               \
  } while (0)

int main(void) {
  enum { N = 98432, BLOCK = 1024 }; /* BLOCK_SIZE as compiled; N is not a multiple of it */
  tessera_device device = NULL;
  tessera_kernel kernel = NULL;
  /* The backends in the runtime's order of preference; the last is the host. */
  for (int i = 0; tessera_backend_name(i) && !kernel; ++i) {
    if (tessera_get_device(tessera_backend_name(i), 0, &device) != TESSERA_SUCCESS) continue;
    if (add_kernel_load(device, &kernel) != TESSERA_SUCCESS) kernel = NULL;
  }
  if (!kernel) {
    fprintf(stderr, "no device here runs one of the embedded binaries\n");
    return 1;
  }
  printf("running on %s (%s)\n", tessera_device_name(device), tessera_device_backend(device));
  float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float)), *out = malloc(N * sizeof(float));
  srand(3);
  for (int i = 0; i < N; ++i) {
    x[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    y[i] = (float)rand() / (float)RAND_MAX * 4.0f;
    out[i] = NAN; /* poison: an element the kernel skips shows up */
  }
  tessera_buffer bx, by, bout;
  CHECK(tessera_buffer_alloc(device, N * sizeof(float), &bx));
  CHECK(tessera_buffer_alloc(device, N * sizeof(float), &by));
  CHECK(tessera_buffer_alloc(device, N * sizeof(float), &bout));
  CHECK(tessera_copy_host_to_device(bx, 0, x, N * sizeof(float), NULL));
  CHECK(tessera_copy_host_to_device(by, 0, y, N * sizeof(float), NULL));
  CHECK(tessera_copy_host_to_device(bout, 0, out, N * sizeof(float), NULL));
  void *px, *py, *pout;
  CHECK(tessera_buffer_device_ptr(bx, &px));
  CHECK(tessera_buffer_device_ptr(by, &py));
  CHECK(tessera_buffer_device_ptr(bout, &pout));
  CHECK(add_kernel_launch(kernel, NULL, (N + BLOCK - 1) / BLOCK, 1, 1, px, py, pout, N));
  CHECK(tessera_device_synchronize(device));
  CHECK(tessera_copy_device_to_host(out, bout, 0, N * sizeof(float), NULL));
  for (int i = 0; i < N; ++i)
    if (out[i] != x[i] + y[i]) {
      fprintf(stderr, "mismatch at %d: got %g, expected %g\n", i, out[i], x[i] + y[i]);
      return 1;
    }
  tessera_buffer_free(bx), tessera_buffer_free(by), tessera_buffer_free(bout);
  tessera_kernel_destroy(kernel);
  free(x), free(y), free(out);
  printf("OK\n");
  return 0;
}
