// The OpenCL backend: its error names and codes, the probe's messages when
// the loader or a driver is missing, and (where an OpenCL device is here,
// as on CI machines with Intel's OpenCL CPU runtime: ci/test.sh exports
// OCL_ICD_VENDORS) memory, events and a kernel compiled for the spirv
// target's OpenCL flavour, launched and checked.
#include "runtime/Runtime.h"
#include "runtime/opencl/OpenclApi.h"
#include "runtime/opencl/OpenclBackend.h"
#include "tessera/tessera.h"

#include <cstring>
#include <gtest/gtest.h>
#include <numeric>
#include <vector>

using namespace tessera::runtime;

namespace {

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// The process-wide device, or null (the test then skips, saying why).
Device *openclDevice(std::string &why) {
  Device *d = nullptr;
  Status st = getDevice("opencl", 0, d);
  why = st.message();
  return st ? d : nullptr;
}

// A kernel compiled through the C API for the device's arch: out[i] = x[i] * 2 + i for i < n.
std::vector<uint32_t> compiledKernel(Device &device, int &threads) {
  static const char *signature[] = {"*fp32:16", "*fp32:16", "i32"};
  tessera_compile_options o{};
  o.source = "import tessera.language as tl\n\n"
             "def k(x, out, n):\n"
             "    offs = tl.program_id(0) * 64 + tl.arange(0, 64)\n"
             "    m = offs < n\n"
             "    tl.store(out + offs, tl.load(x + offs, mask=m) * 2.0 + offs.to(tl.float32), mask=m)\n";
  o.entry = "k";
  o.signature = signature, o.num_signature = 3;
  o.target = "opencl";
  std::string arch = device.architecture();
  o.arch = arch.c_str();
  tessera_binary bin = nullptr;
  if (tessera_compile_binary(&o, &bin) != TESSERA_SUCCESS) return {};
  size_t size = 0;
  const auto *data = static_cast<const uint32_t *>(tessera_binary_data(bin, &size));
  std::vector<uint32_t> words(data, data + size / 4);
  threads = tessera_binary_threads_per_program(bin);
  tessera_binary_destroy(bin);
  return words;
}

} // namespace

TEST(OpenclApi, EveryErrorHasItsNameAndAStatusCode) {
  EXPECT_EQ(clErrorText(-11), "CL_BUILD_PROGRAM_FAILURE (-11)");
  EXPECT_EQ(clErrorText(-1001), "CL_PLATFORM_NOT_FOUND_KHR (-1001)");
  EXPECT_EQ(clErrorText(-72), "CL_MAX_SIZE_RESTRICTION_EXCEEDED (-72)");
  EXPECT_EQ(clErrorText(-9999), "OpenCL error -9999");
  for (int code = -1; code >= -72; --code)
    if (code > -20 || code <= -30) EXPECT_TRUE(contains(clErrorText(code), "CL_")) << code;
  EXPECT_EQ(clStatusCode(-4, StatusCode::Internal), StatusCode::OutOfMemory);
  EXPECT_EQ(clStatusCode(-5, StatusCode::Internal), StatusCode::OutOfMemory);
  EXPECT_EQ(clStatusCode(-11, StatusCode::Internal), StatusCode::LoadFailed);
  EXPECT_EQ(clStatusCode(-46, StatusCode::Internal), StatusCode::NotFound);
  EXPECT_EQ(clStatusCode(-1001, StatusCode::Internal), StatusCode::Unavailable);
  EXPECT_EQ(clStatusCode(-51, StatusCode::Internal), StatusCode::InvalidArgument);
  EXPECT_EQ(clStatusCode(-54, StatusCode::Internal), StatusCode::LaunchFailed);
  EXPECT_EQ(clStatusCode(-12, StatusCode::IoError), StatusCode::IoError);  // nothing more specific: the caller's
  ClApi api;
  Status st = api.check(-11, "clBuildProgram");
  EXPECT_EQ(st.code(), StatusCode::LoadFailed);
  EXPECT_EQ(st.message(), "clBuildProgram: CL_BUILD_PROGRAM_FAILURE (-11)");
  EXPECT_TRUE(api.check(0, "clFinish").isOk());
}

TEST(OpenclBackend, MissingLoaderSaysWhatToInstall) {
  std::unique_ptr<Backend> b;
  Status st = openOpenclBackend("/nonexistent/libOpenCL.so.1", b);
  EXPECT_EQ(b, nullptr);
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(st.message(), "cannot load the OpenCL ICD loader /nonexistent/libOpenCL.so.1")) << st.message();
  EXPECT_TRUE(contains(st.message(), "ocl-icd-libopencl1")) << st.message();
}

TEST(OpenclBackend, ALibraryWithoutOpenclFunctionsIsUnavailable) {
  std::unique_ptr<Backend> b;
  Status st = openOpenclBackend("libm.so.6", b);
  EXPECT_EQ(b, nullptr);
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(st.message(), "lacks OpenCL 2.1 functions Tessera needs: clGetPlatformIDs")) << st.message();
}

TEST(OpenclBackend, MemoryEventsAndALaunch) {
  std::string why;
  Device *d = openclDevice(why);
  if (!d) GTEST_SKIP() << "no OpenCL device: " << why;
  EXPECT_EQ(d->backend(), "opencl");
  EXPECT_TRUE(d->architecture().rfind("sg", 0) == 0) << d->architecture();
  int64_t warp = 0;
  ASSERT_TRUE(d->attribute("warpSize", warp));
  EXPECT_GE(warp, 4);

  const int n = 1000;
  std::vector<float> x(n), out(n, -1.0f);
  std::iota(x.begin(), x.end(), 0.5f);
  std::unique_ptr<Buffer> bx, bout;
  ASSERT_TRUE(d->allocate(n * sizeof(float), bx));
  ASSERT_TRUE(d->allocate(n * sizeof(float), bout));
  ASSERT_TRUE(d->copyToDevice(*bx, 0, x.data(), n * sizeof(float), nullptr));
  EXPECT_EQ(d->copyToDevice(*bx, 8, x.data(), n * sizeof(float), nullptr).code(), StatusCode::InvalidArgument);

  int threads = 0;
  std::vector<uint32_t> words = compiledKernel(*d, threads);
  ASSERT_FALSE(words.empty());
  std::unique_ptr<Module> m;
  ASSERT_TRUE(d->loadModule("spirv", words.data(), words.size() * 4, m));
  std::unique_ptr<Kernel> k;
  Status wrong = m->getKernel("k", 2, k);
  EXPECT_EQ(wrong.code(), StatusCode::InvalidArgument);
  EXPECT_TRUE(contains(wrong.message(), "takes 3 arguments, not 2")) << wrong.message();
  EXPECT_EQ(m->getKernel("nope", 3, k).code(), StatusCode::NotFound);
  ASSERT_TRUE(m->getKernel("k", 3, k));

  std::unique_ptr<Stream> s;
  std::unique_ptr<Event> start, end;
  ASSERT_TRUE(d->createStream(s));
  ASSERT_TRUE(d->createEvent(start));
  ASSERT_TRUE(d->createEvent(end));
  void *px = bx->devicePointer(), *pout = bout->devicePointer();
  int32_t count = n;
  void *args[] = {&px, &pout, &count};
  LaunchConfig config;
  config.grid = {uint32_t((n + 63) / 64), 1, 1};
  config.threadsPerProgram = threads;
  ASSERT_TRUE(s->record(*start));
  ASSERT_TRUE(k->launch(config, args, 3, s.get()));
  ASSERT_TRUE(s->record(*end));
  ASSERT_TRUE(end->synchronize());
  double ms = -1;
  ASSERT_TRUE(end->elapsedMs(*start, ms));
  EXPECT_GE(ms, 0.0);
  ASSERT_TRUE(d->copyToHost(out.data(), *bout, 0, n * sizeof(float), s.get()));
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[size_t(i)], x[size_t(i)] * 2.0f + float(i)) << i;

  config.threadsPerProgram = threads * 2;
  Status mismatch = k->launch(config, args, 3, s.get());
  EXPECT_EQ(mismatch.code(), StatusCode::InvalidArgument);
  EXPECT_TRUE(contains(mismatch.message(), "threads per program")) << mismatch.message();
  EXPECT_EQ(d->loadModule("cubin", words.data(), words.size() * 4, m).code(), StatusCode::Unsupported);
}
