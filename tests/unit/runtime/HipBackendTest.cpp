// The HIP backend where there is no AMD GPU (as on the CI machines): a
// missing library, a runtime without devices and one lacking functions are
// clean "unavailable" errors naming the cause; a fake runtime with one
// device (fake_libamdhip64.c: host memory, launches that fail) exercises
// memory, code-object checks, kernel lookup and launch errors.
#include "runtime/Runtime.h"
#include "runtime/hip/HipApi.h"
#include "runtime/hip/HipBackend.h"
#include "TestSupport.h"
#include "tessera/tessera.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <gtest/gtest.h>

using namespace tessera::runtime;

namespace {

std::string fakeRuntime(const std::string &name, const std::string &defines) {
  return tessera::test::buildFakeLibrary("hip_" + name, defines, TESSERA_FAKE_LIBAMDHIP64_SRC);
}

Status open(const std::string &path, std::unique_ptr<Backend> *keep = nullptr) {
  std::unique_ptr<Backend> b;
  Status st = openHipBackend(path, b);
  EXPECT_EQ(b == nullptr, !st.isOk());
  if (keep) *keep = std::move(b);
  return st;
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// A real code object: a kernel compiled for gfx942 through the C API.
std::vector<unsigned char> compiledCodeObject(int &threads) {
  static const char *signature[] = {"*fp32:16"};
  tessera_compile_options o{};
  o.source = "import tessera.language as tl\n\ndef k(p):\n    tl.store(p + tl.arange(0, 256), 1.0)\n";
  o.entry = "k";
  o.signature = signature, o.num_signature = 1;
  o.target = "amdgpu";
  o.arch = "gfx942";
  tessera_binary bin = nullptr;
  if (tessera_compile_binary(&o, &bin) != TESSERA_SUCCESS) return {};
  size_t size = 0;
  const auto *data = static_cast<const unsigned char *>(tessera_binary_data(bin, &size));
  std::vector<unsigned char> out(data, data + size);
  threads = tessera_binary_threads_per_program(bin);
  tessera_binary_destroy(bin);
  return out;
}

// The first 64 bytes of an ELF code object: AMDGPU, HSA OS ABI, `mach` in e_flags.
std::vector<unsigned char> codeObjectHeader(unsigned mach, unsigned machine = 224) {
  std::vector<unsigned char> h(64, 0);
  std::memcpy(h.data(), "\x7f" "ELF", 4);
  h[4] = 2, h[5] = 1, h[6] = 1, h[7] = 64;
  h[18] = machine & 0xff, h[19] = machine >> 8;
  h[48] = mach & 0xff;
  return h;
}

} // namespace

TEST(HipBackend, MissingLibraryIsUnavailable) {
  Status st = open("/nonexistent/libamdhip64.so");
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(st.message(), "could not be loaded")) << st.message();
  EXPECT_TRUE(contains(st.message(), "/nonexistent/libamdhip64.so")) << st.message();
}

TEST(HipBackend, RuntimeWithoutDevicesIsUnavailable) {
  std::string lib = fakeRuntime("nodevice", "-DINIT_RESULT=100");
  ASSERT_FALSE(lib.empty());
  Status st = open(lib);
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(st.message(), "hipInit failed: hipErrorNoDevice (no ROCm-capable device is detected)"))
      << st.message();

  std::string zero = fakeRuntime("zerodevices", "-DINIT_RESULT=0 -DDEVICE_COUNT=0");
  ASSERT_FALSE(zero.empty());
  st = open(zero);
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(st.message(), "reports no devices")) << st.message();
}

TEST(HipBackend, RuntimeLackingFunctionsIsUnavailable) {
  std::string lib = fakeRuntime("old", "-DOMIT_LAUNCH");
  ASSERT_FALSE(lib.empty());
  Status st = open(lib);
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(st.message(), "hipModuleLaunchKernel")) << st.message();
}

TEST(HipBackend, RealRuntimeWithoutAGpuIsUnavailable) {
  // Debian's libamdhip64 (ci/bootstrap.sh installs it): hipInit finds no GPU.
  void *probe = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_LOCAL);
  if (!probe) GTEST_SKIP() << "no libamdhip64.so.5 on this machine";
  dlclose(probe);
  std::unique_ptr<Backend> b;
  Status st = openHipBackend("libamdhip64.so.5", b);
  if (st) GTEST_SKIP() << "this machine has an AMD GPU";
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(st.message(), "hipInit failed")) << st.message();
}

TEST(HipBackend, RegistryOmitsHipWithoutADevice) {
  Status st;
  Backend *b = getBackend("hip", &st);
  if (b) GTEST_SKIP() << "this machine has an AMD GPU";
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(st.message(), "backend 'hip' is not usable on this machine")) << st.message();
}

TEST(HipBackend, KernelDescriptorsOfTruncatedOrDamagedCodeObjects) {
  int threads = 0;
  std::vector<unsigned char> image = compiledCodeObject(threads);
  ASSERT_FALSE(image.empty()) << tessera_last_error();
  KernelDescriptor d;
  ASSERT_TRUE(readKernelDescriptor(image.data(), image.size(), "k", d).isOk());
  EXPECT_EQ(d.waveSize, 64);
  EXPECT_EQ(d.kernargBytes, 8u);  // one pointer; it uses none of the implicit arguments
  EXPECT_EQ(d.ldsBytes, 0u);
  // Every truncation, and bytes flipped all over, end in a status (ASan
  // builds check that nothing reads outside the image).
  for (size_t n = 0; n < image.size(); n += 7) (void)readKernelDescriptor(image.data(), n, "k", d);
  for (size_t i = 0; i < image.size(); i += 13) {
    std::vector<unsigned char> damaged = image;
    damaged[i] ^= 0xff;
    (void)readKernelDescriptor(damaged.data(), damaged.size(), "k", d);
  }
}

TEST(HipBackend, FakeDeviceMemoryCodeObjectsAndLaunchErrors) {
  std::string lib = fakeRuntime("onedevice", "-DINIT_RESULT=0 -DDEVICE_COUNT=1");
  ASSERT_FALSE(lib.empty());
  std::unique_ptr<Backend> backend;
  ASSERT_TRUE(open(lib, &backend).isOk());
  Device *device = nullptr;
  ASSERT_TRUE(backend->device(0, device).isOk());
  EXPECT_EQ(device->architecture(), "gfx942");
  EXPECT_TRUE(contains(device->name(), "gfx942")) << device->name();
  EXPECT_EQ(backend->device(1, device).code(), StatusCode::NotFound);
  ASSERT_TRUE(backend->device(0, device).isOk());

  // Memory round trip, and ranges outside the buffer refused.
  std::unique_ptr<Buffer> buf;
  ASSERT_TRUE(device->allocate(64, buf).isOk());
  float in[16], out[16];
  for (int i = 0; i < 16; ++i) in[i] = float(i) * 1.5f, out[i] = -1;
  ASSERT_TRUE(device->copyToDevice(*buf, 0, in, sizeof in, nullptr).isOk());
  ASSERT_TRUE(device->copyToHost(out, *buf, 0, sizeof out, nullptr).isOk());
  EXPECT_EQ(std::memcmp(in, out, sizeof in), 0);
  EXPECT_EQ(device->copyToHost(out, *buf, 8, sizeof out, nullptr).code(), StatusCode::InvalidArgument);

  // Code objects: garbage, another machine, another AMD GPU, then a right one.
  std::unique_ptr<Module> module;
  const char junk[80] = "not an ELF file";
  Status st = device->loadModule("hsaco", junk, sizeof junk, module);
  EXPECT_EQ(st.code(), StatusCode::InvalidArgument);
  EXPECT_TRUE(contains(st.message(), "not an HSA code object")) << st.message();
  std::vector<unsigned char> x86 = codeObjectHeader(0, 62);
  st = device->loadModule("hsaco", x86.data(), x86.size(), module);
  EXPECT_TRUE(contains(st.message(), "ELF machine 62")) << st.message();
  std::vector<unsigned char> gfx90a = codeObjectHeader(0x3f);
  st = device->loadModule("hsaco", gfx90a.data(), gfx90a.size(), module);
  EXPECT_EQ(st.code(), StatusCode::InvalidArgument);
  EXPECT_TRUE(contains(st.message(), "the code object is for gfx90a; this device is gfx942")) << st.message();
  st = device->loadModule("cubin", gfx90a.data(), gfx90a.size(), module);
  EXPECT_TRUE(contains(st.message(), "not \"cubin\"")) << st.message();
  // A header alone passes the check but has no kernel descriptors.
  std::vector<unsigned char> header = codeObjectHeader(0x4c);
  ASSERT_TRUE(device->loadModule("hsaco", header.data(), header.size(), module).isOk());
  std::unique_ptr<Kernel> kernel;
  EXPECT_EQ(module->getKernel("k", 1, kernel).code(), StatusCode::InvalidArgument);

  // A real one: the kernel's descriptor is read from it.
  int threads = 0;
  std::vector<unsigned char> image = compiledCodeObject(threads);
  ASSERT_FALSE(image.empty()) << tessera_last_error();
  EXPECT_EQ(threads, 256);
  ASSERT_TRUE(device->loadModule("hsaco", image.data(), image.size(), module).isOk());
  st = module->getKernel("missing", 1, kernel);
  EXPECT_EQ(st.code(), StatusCode::NotFound);
  EXPECT_TRUE(contains(st.message(), "no descriptor missing.kd")) << st.message();
  ASSERT_TRUE(module->getKernel("k", 1, kernel).isOk());
  void *ptr = buf->devicePointer();
  void *args[] = {&ptr};
  LaunchConfig config;
  config.threadsPerProgram = threads;
  st = kernel->launch(config, args, 1, nullptr);
  EXPECT_EQ(st.code(), StatusCode::LaunchFailed);
  EXPECT_TRUE(contains(st.message(), "hipErrorLaunchFailure")) << st.message();
  EXPECT_FALSE(kernel->launch(config, args, 2, nullptr).isOk());
  config.threadsPerProgram = 2048;
  EXPECT_EQ(kernel->launch(config, args, 1, nullptr).code(), StatusCode::InvalidArgument);
  config.threadsPerProgram = 96;  // one and a half waves of 64
  st = kernel->launch(config, args, 1, nullptr);
  EXPECT_TRUE(contains(st.message(), "not a whole number of its waves of 64")) << st.message();
  config.threadsPerProgram = threads;
  config.sharedMemoryBytes = 70000;
  st = kernel->launch(config, args, 1, nullptr);
  EXPECT_TRUE(contains(st.message(), "64 KiB per work-group")) << st.message();

  // Streams and events.
  std::unique_ptr<Stream> stream;
  std::unique_ptr<Event> start, stop;
  ASSERT_TRUE(device->createStream(stream).isOk());
  ASSERT_TRUE(device->createEvent(start).isOk() && device->createEvent(stop).isOk());
  ASSERT_TRUE(stream->record(*start).isOk() && stream->record(*stop).isOk());
  double ms = 0;
  ASSERT_TRUE(stop->elapsedMs(*start, ms).isOk());
  EXPECT_DOUBLE_EQ(ms, 0.5);
}
