/* vector_add: compile Triton's tutorial vector-add kernel for the host CPU,
 * run it on buffers from the runtime and check it against a plain loop.
 * Uses only tessera.h: no Python anywhere.
 * Exit status: 0 OK, 1 failure, 77 the "cpu" target is not in this build. */
#include <tessera/tessera.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *kSource =
    "import tessera\n"
    "import tessera.language as tl\n"
    "\n"
    "@tessera.jit\n"
    "def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):\n"
    "    pid = tl.program_id(axis=0)\n"
    "    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n"
    "    mask = offsets < n_elements\n"
    "    x = tl.load(x_ptr + offsets, mask=mask)\n"
    "    y = tl.load(y_ptr + offsets, mask=mask)\n"
    "    tl.store(output_ptr + offsets, x + y, mask=mask)\n";

#define CHECK(call)                                                                           \
  do {                                                                                        \
    tessera_status s_ = (call);                                                               \
    if (s_ != TESSERA_SUCCESS) {                                                              \
      fprintf(stderr, "%s failed: %s: %s\n", #call, tessera_status_string(s_), tessera_last_error()); \
      return 1;                                                                               \
    }                                                                                         \
  } while (0)

int main(void) {
  enum { N = 98432, BLOCK = 1024 }; /* not a multiple of BLOCK: the mask matters */
  const char *signature[] = {"*fp32:16", "*fp32:16", "*fp32:16", "i32"};
  tessera_constexpr constexprs[] = {{"BLOCK_SIZE", "1024"}};
  tessera_compile_options options = {0};
  options.source = kSource;
  options.filename = "vector_add.py";
  options.entry = "add_kernel";
  options.signature = signature;
  options.num_signature = 4;
  options.constexprs = constexprs;
  options.num_constexprs = 1;
  options.target = "cpu";

  tessera_kernel kernel;
  tessera_status st = tessera_compile(&options, &kernel);
  if (st == TESSERA_ERROR_UNAVAILABLE) {
    printf("SKIPPED: %s\n", tessera_last_error());
    return 77;
  }
  CHECK(st);

  tessera_device device;
  CHECK(tessera_get_device("host", 0, &device));
  float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float)), *out = malloc(N * sizeof(float));
  srand(1);
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
  int32_t n = N;
  CHECK(tessera_buffer_device_ptr(bx, &px));
  CHECK(tessera_buffer_device_ptr(by, &py));
  CHECK(tessera_buffer_device_ptr(bout, &pout));
  void *args[] = {&px, &py, &pout, &n};
  uint32_t grid[3] = {(N + BLOCK - 1) / BLOCK, 1, 1};
  CHECK(tessera_kernel_launch(kernel, grid, args, NULL));
  CHECK(tessera_device_synchronize(device));
  CHECK(tessera_copy_device_to_host(out, bout, 0, N * sizeof(float), NULL));

  for (int i = 0; i < N; ++i) {
    if (out[i] != x[i] + y[i]) {
      fprintf(stderr, "mismatch at %d: got %g, expected %g\n", i, out[i], x[i] + y[i]);
      return 1;
    }
  }
  tessera_buffer_free(bx);
  tessera_buffer_free(by);
  tessera_buffer_free(bout);
  tessera_kernel_destroy(kernel);
  free(x), free(y), free(out);
  printf("OK\n");
  return 0;
}
