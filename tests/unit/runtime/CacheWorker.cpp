// A separate process for the cache concurrency test: compiles the vector-add
// kernel through the C API (with the fake target, whose compile is slowed to
// widen the race), runs it, and checks the result. Several run at once on one
// cache directory; each must always get a whole, working kernel.
//   runtime_cache_worker ABI_KERNELS_SO ROUNDS
#include "TestSupport.h"
#include "capi/CApiInternal.h"

#include <cstdio>
#include <cstdlib>

using namespace tessera;

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  std::vector<uint8_t> binary = test::readFile(argv[1]);
  int rounds = std::atoi(argv[2]);
  capi::setTargetFactoryForTesting([&](std::string_view, std::string *) {
    return std::make_unique<test::FakeTarget>(binary, nullptr, std::chrono::milliseconds(30));
  });
  const char *sig[] = {"*fp32:16", "*fp32:16", "*fp32:16", "i32"};
  tessera_constexpr cx[] = {{"BLOCK_SIZE", "64"}};
  tessera_compile_options o{};
  o.source = test::vectorAddSource();
  o.entry = "add_kernel";
  o.signature = sig, o.num_signature = 4, o.constexprs = cx, o.num_constexprs = 1;
  for (int r = 0; r < rounds; ++r) {
    tessera_kernel k = nullptr;
    if (tessera_compile(&o, &k) != TESSERA_SUCCESS) {
      std::fprintf(stderr, "compile failed: %s\n", tessera_last_error());
      return 1;
    }
    const int n = 1000;
    std::vector<float> x(n, 1.5f), y(n, 2.0f), out(n, 0.0f);
    void *px = x.data(), *py = y.data(), *po = out.data();
    int32_t nn = n;
    void *args[] = {&px, &py, &po, &nn};
    uint32_t grid[3] = {(n + 63) / 64, 1, 1};
    if (tessera_kernel_launch(k, grid, args, nullptr) != TESSERA_SUCCESS || out[n - 1] != 3.5f) {
      std::fprintf(stderr, "launch failed: %s\n", tessera_last_error());
      return 1;
    }
    tessera_kernel_destroy(k);
  }
  return 0;
}
