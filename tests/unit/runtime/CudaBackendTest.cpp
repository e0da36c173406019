// The CUDA backend where there is no GPU (as on the CI machines): a missing
// driver library, a driver without devices, the CUDA stub library and a
// driver lacking functions must all be clean "unavailable" errors naming the
// cause. The GPU itself is tested by tests/gpu on a machine that has one.
#include <cstring>
#include "runtime/Runtime.h"
#include "runtime/cuda/CudaBackend.h"
#include "TestSupport.h"
#include "tessera/tessera.h"

#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>

using namespace tessera::runtime;

namespace {

// Builds fake_libcuda.c with `defines`; "" when the compiler fails.
std::string fakeDriver(const std::string &name, const std::string &defines) {
  return tessera::test::buildFakeLibrary("cuda_" + name, defines, TESSERA_FAKE_LIBCUDA_SRC);
}

Status open(const std::string &path) {
  std::unique_ptr<Backend> b;
  Status st = openCudaBackend(path, b);
  EXPECT_EQ(b == nullptr, !st.isOk());
  return st;
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

} // namespace

TEST(CudaBackend, MissingLibraryIsUnavailable) {
  Status st = open("/nonexistent/libcuda.so.1");
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(st.message(), "could not be loaded")) << st.message();
  EXPECT_TRUE(contains(st.message(), "/nonexistent/libcuda.so.1")) << st.message();
}

TEST(CudaBackend, DriverWithoutDevicesIsUnavailable) {
  std::string lib = fakeDriver("nodevice", "-DINIT_RESULT=100");
  ASSERT_FALSE(lib.empty());
  Status st = open(lib);
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(st.message(), "cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)")) << st.message();

  std::string zero = fakeDriver("zerodevices", "-DINIT_RESULT=0 -DDEVICE_COUNT=0");
  ASSERT_FALSE(zero.empty());
  st = open(zero);
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(st.message(), "reports no devices")) << st.message();
}

TEST(CudaBackend, OldDriverLackingFunctionsIsUnavailable) {
  std::string lib = fakeDriver("old", "-DOMIT_LAUNCH");
  ASSERT_FALSE(lib.empty());
  Status st = open(lib);
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(st.message(), "cuLaunchKernel")) << st.message();
}

TEST(CudaBackend, StubLibraryIsUnavailable) {
  // The toolkit's link-time stub: every call returns CUDA_ERROR_STUB_LIBRARY.
  const char *stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  if (!std::filesystem::exists(stub)) GTEST_SKIP() << "no CUDA toolkit stub library at " << stub;
  Status st = open(stub);
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(st.message(), "cuInit failed")) << st.message();
}

TEST(CudaBackend, RegistryOmitsCudaWithoutADriver) {
  Status st;
  Backend *b = getBackend("cuda", &st);
  if (b) GTEST_SKIP() << "this machine has a CUDA device";
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(st.message(), "backend 'cuda' is not usable on this machine: ")) << st.message();
  for (const std::string &n : backendNames()) EXPECT_NE(n, "cuda");
  // Through the C API: a status and a message, never a crash.
  tessera_device d = nullptr;
  EXPECT_EQ(tessera_get_device("cuda", 0, &d), TESSERA_ERROR_UNAVAILABLE);
  EXPECT_TRUE(contains(tessera_last_error(), "cuda")) << tessera_last_error();
  int count = -1;
  EXPECT_EQ(tessera_device_count("cuda", &count), TESSERA_ERROR_UNAVAILABLE);
}

static tessera_compile_options vectorAddOptions(const char *target) {
  static const char *sig[] = {"*fp32:16", "*fp32:16", "*fp32:16", "i32:16"};
  static tessera_constexpr cx[] = {{"BLOCK_SIZE", "1024"}};
  tessera_compile_options o{};
  o.source = tessera::test::vectorAddSource();
  o.entry = "add_kernel";
  o.target = target;
  o.signature = sig;
  o.num_signature = 4;
  o.constexprs = cx;
  o.num_constexprs = 1;
  return o;
}

TEST(CudaBackend, CompilingForCudaWithoutADeviceSaysSo) {
  int count = 0;
  if (tessera_device_count("cuda", &count) == TESSERA_SUCCESS && count > 0) GTEST_SKIP() << "this machine has a CUDA device";
  tessera_compile_options o = vectorAddOptions("cuda");
  tessera_kernel k = nullptr;
  EXPECT_EQ(tessera_compile(&o, &k), TESSERA_ERROR_UNAVAILABLE);
  EXPECT_TRUE(contains(tessera_last_error(), "target 'cuda': no device to run it")) << tessera_last_error();
  // Source errors still come first.
  o.source = "def add_kernel(:\n";
  EXPECT_EQ(tessera_compile(&o, &k), TESSERA_ERROR_COMPILATION);
}

TEST(CudaBackend, CompileBinaryForNvptxNeedsNoDevice) {
  tessera_compile_options o = vectorAddOptions("nvptx");
  tessera_binary bin = nullptr;
  ASSERT_EQ(tessera_compile_binary(&o, &bin), TESSERA_SUCCESS) << tessera_last_error();
  std::string format = tessera_binary_format(bin), ptx = tessera_binary_assembly(bin);
  size_t size = 0;
  const void *data = tessera_binary_data(bin, &size);
  EXPECT_TRUE(format == "cubin" || format == "ptx") << format;
  if (format == "cubin") EXPECT_EQ(std::memcmp(data, "\x7f" "ELF", 4), 0);
  EXPECT_GT(size, 100u);
  EXPECT_TRUE(contains(ptx.c_str(), ".entry add_kernel")) << ptx;
  // 1024 elements over 128 threads, 16-byte aligned and n % 16 == 0: 128-bit accesses.
  EXPECT_TRUE(contains(ptx.c_str(), "ld.global.v4.b32")) << ptx;
  EXPECT_TRUE(contains(ptx.c_str(), "st.global.v4.b32")) << ptx;
  EXPECT_EQ(tessera_binary_threads_per_program(bin), 128);
  tessera_binary_destroy(bin);
  o.num_warps = 3;
  EXPECT_EQ(tessera_compile_binary(&o, &bin), TESSERA_ERROR_COMPILATION);
  EXPECT_TRUE(contains(tessera_last_error(), "num_warps must be a power of two")) << tessera_last_error();
}

TEST(CudaBackend, ArchitecturesOutsideTheTable) {
  tessera_compile_options o = vectorAddOptions("nvptx");
  tessera_binary bin = nullptr;
  // Newer than the table: sm_90 PTX (no arch-specific features) for the driver to compile.
  o.arch = "sm_120";
  ASSERT_EQ(tessera_compile_binary(&o, &bin), TESSERA_SUCCESS) << tessera_last_error();
  EXPECT_STREQ(tessera_binary_format(bin), "ptx");
  EXPECT_TRUE(contains(tessera_binary_assembly(bin), ".target sm_90\n")) << tessera_binary_assembly(bin);
  tessera_binary_destroy(bin);
  // A device that reports sm_90 gets Hopper's arch-specific target.
  o.arch = "sm_90";
  ASSERT_EQ(tessera_compile_binary(&o, &bin), TESSERA_SUCCESS) << tessera_last_error();
  EXPECT_TRUE(contains(tessera_binary_assembly(bin), ".target sm_90a")) << tessera_binary_assembly(bin);
  tessera_binary_destroy(bin);
  o.arch = "sm_75";
  EXPECT_EQ(tessera_compile_binary(&o, &bin), TESSERA_ERROR_COMPILATION);
  EXPECT_TRUE(contains(tessera_last_error(), "unsupported NVIDIA architecture 'sm_75'")) << tessera_last_error();
}

TEST(CudaBackend, HostHasNoNativeStreamsAndCopiesWithinADevice) {
  Device *host = nullptr;
  ASSERT_TRUE(getDevice("host", 0, host).isOk());
  std::unique_ptr<Stream> s;
  EXPECT_EQ(host->wrapNativeStream(nullptr, s).code(), StatusCode::Unsupported);
  std::unique_ptr<Buffer> a, b;
  ASSERT_TRUE(host->allocate(16, a).isOk());
  ASSERT_TRUE(host->allocate(16, b).isOk());
  const char text[] = "0123456789abcdef";
  ASSERT_TRUE(host->copyToDevice(*a, 0, text, 16, nullptr).isOk());
  ASSERT_TRUE(host->copyDeviceToDevice(*b, 4, *a, 0, 12, nullptr).isOk());
  char out[17] = {};
  ASSERT_TRUE(host->copyToHost(out, *b, 4, 12, nullptr).isOk());
  EXPECT_EQ(std::string(out), "0123456789ab");
  EXPECT_EQ(host->copyDeviceToDevice(*b, 8, *a, 0, 12, nullptr).code(), StatusCode::InvalidArgument);
}
