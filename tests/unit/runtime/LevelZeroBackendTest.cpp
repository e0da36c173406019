// The Level Zero backend where there is no Intel GPU (every CI machine): a
// missing loader, no driver and a loader lacking functions are clean
// "unavailable" errors; a fake loader with devices (fake_libze_loader.c:
// host memory, launches recorded, not run) exercises memory, events,
// module builds from the spirv target's OpenCL SPIR-V, kernel arguments and
// launch errors.
#include "runtime/Runtime.h"
#include "runtime/level_zero/LevelZeroBackend.h"
#include "TestSupport.h"
#include "tessera/tessera.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <gtest/gtest.h>

using namespace tessera::runtime;

namespace {

std::string fakeLoader(const std::string &name, const std::string &defines) {
  return tessera::test::buildFakeLibrary("ze_" + name, defines, TESSERA_FAKE_LIBZE_LOADER_SRC);
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// A kernel compiled through the C API for the OpenCL flavour: a pointer, an
// i32 and an f32 argument (by default).
std::vector<unsigned char> compiledSpirv(int &threads, const char *arch = "sg16-64k", const char *source = nullptr,
                                         std::vector<const char *> signature = {"*fp32:16", "i32", "fp32"}) {
  tessera_compile_options o{};
  o.source = source ? source
                    : "import tessera.language as tl\n\ndef scale(p, n, a):\n    offs = tl.arange(0, 128)\n"
                      "    tl.store(p + offs, tl.load(p + offs, mask=offs < n) * a, mask=offs < n)\n";
  o.entry = source ? "k" : "scale";
  o.signature = signature.data(), o.num_signature = signature.size();
  o.target = "level_zero";
  o.arch = arch;
  tessera_binary bin = nullptr;
  if (tessera_compile_binary(&o, &bin) != TESSERA_SUCCESS) return {};
  size_t size = 0;
  const auto *data = static_cast<const unsigned char *>(tessera_binary_data(bin, &size));
  std::vector<unsigned char> out(data, data + size);
  threads = tessera_binary_threads_per_program(bin);
  tessera_binary_destroy(bin);
  return out;
}

using LastLaunch = int (*)(unsigned *, unsigned *, unsigned *, size_t *, unsigned char (*)[8]);

} // namespace

TEST(LevelZeroBackend, MissingLoaderIsUnavailable) {
  std::unique_ptr<Backend> b;
  Status st = openLevelZeroBackend("/nonexistent/libze_loader.so.1", b);
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(st.message(), "cannot load the Level Zero loader /nonexistent/libze_loader.so.1")) << st.message();
}

TEST(LevelZeroBackend, NoDriverOrNoDeviceIsUnavailable) {
  std::unique_ptr<Backend> b;
  std::string lib = fakeLoader("nodriver", "");
  ASSERT_FALSE(lib.empty());
  Status st = openLevelZeroBackend(lib, b);
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_EQ(st.message(), "no Level Zero driver on this machine (zeInit: ZE_RESULT_ERROR_UNINITIALIZED (0x78000001))");
  std::string none = fakeLoader("nodevice", "-DINIT_RESULT=0 -DDEVICE_COUNT=0");
  ASSERT_FALSE(none.empty());
  st = openLevelZeroBackend(none, b);
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(st.message(), "report no GPU")) << st.message();
}

TEST(LevelZeroBackend, LoaderLackingFunctionsIsUnavailable) {
  std::unique_ptr<Backend> b;
  std::string lib = fakeLoader("old", "-DINIT_RESULT=0 -DDEVICE_COUNT=1 -DOMIT_LAUNCH");
  ASSERT_FALSE(lib.empty());
  Status st = openLevelZeroBackend(lib, b);
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(st.message(), "lacks Level Zero functions Tessera needs: zeCommandListAppendLaunchKernel"))
      << st.message();
}

TEST(LevelZeroBackend, MachineLoaderWithoutADriverIsUnavailable) {
  // Debian's libze1 (ci/bootstrap.sh installs it) with no GPU driver.
  Status st;
  Backend *b = getBackend("level_zero", &st);
  if (b) GTEST_SKIP() << "this machine has a Level Zero device";
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(st.message(), "Level Zero")) << st.message();
}

TEST(LevelZeroBackend, FakeDeviceMemoryEventsModulesAndLaunches) {
  std::string lib = fakeLoader("twodevices", "-DINIT_RESULT=0 -DDEVICE_COUNT=2");
  ASSERT_FALSE(lib.empty());
  std::unique_ptr<Backend> backend;
  Status opened = openLevelZeroBackend(lib, backend);
  ASSERT_TRUE(opened.isOk()) << opened.message();
  EXPECT_EQ(backend->name(), "level_zero");
  EXPECT_EQ(backend->deviceCount(), 2);
  Device *device = nullptr;
  EXPECT_EQ(backend->device(2, device).code(), StatusCode::NotFound);
  ASSERT_TRUE(backend->device(0, device).isOk());
  EXPECT_EQ(device->name(), "Fake Intel GPU");
  EXPECT_EQ(device->backend(), "level_zero");
  EXPECT_EQ(device->architecture(), "sg16-64k");
  int64_t warp = 0;
  ASSERT_TRUE(device->attribute("warpSize", warp).isOk());
  EXPECT_EQ(warp, 16);

  // Memory: round trip, device-to-device, ranges outside a buffer refused.
  std::unique_ptr<Buffer> a, b;
  ASSERT_TRUE(device->allocate(64, a).isOk());
  ASSERT_TRUE(device->allocate(64, b).isOk());
  float in[16], out[16];
  for (int i = 0; i < 16; ++i) in[i] = float(i) * 0.25f - 1, out[i] = 7;
  ASSERT_TRUE(device->copyToDevice(*a, 0, in, sizeof in, nullptr).isOk());
  ASSERT_TRUE(device->copyDeviceToDevice(*b, 0, *a, 0, sizeof in, nullptr).isOk());
  ASSERT_TRUE(device->copyToHost(out, *b, 0, sizeof out, nullptr).isOk());
  EXPECT_EQ(std::memcmp(in, out, sizeof in), 0);
  EXPECT_EQ(device->copyToHost(out, *b, 8, sizeof out, nullptr).code(), StatusCode::InvalidArgument);

  // Streams and events: timestamps of 2 ns ticks, 1000 apart per record.
  std::unique_ptr<Stream> stream;
  ASSERT_TRUE(device->createStream(stream).isOk());
  std::unique_ptr<Event> start, end;
  ASSERT_TRUE(device->createEvent(start).isOk());
  ASSERT_TRUE(device->createEvent(end).isOk());
  double ms = 0;
  EXPECT_EQ(end->elapsedMs(*start, ms).code(), StatusCode::InvalidArgument);  // never recorded
  ASSERT_TRUE(stream->record(*start).isOk());
  ASSERT_TRUE(stream->record(*end).isOk());
  ASSERT_TRUE(stream->wait(*end).isOk());
  ASSERT_TRUE(end->synchronize().isOk());
  ASSERT_TRUE(end->elapsedMs(*start, ms).isOk());
  EXPECT_DOUBLE_EQ(ms, 0.002);
  ASSERT_TRUE(device->synchronize().isOk());
  std::unique_ptr<Stream> native;
  EXPECT_EQ(device->wrapNativeStream(nullptr, native).code(), StatusCode::Unsupported);

  // Modules: wrong format, not SPIR-V, a subgroup size the device lacks, a
  // module the driver does not build (its log in the message), then a real one.
  int threads = 0;
  std::vector<unsigned char> spirv = compiledSpirv(threads);
  ASSERT_FALSE(spirv.empty()) << tessera_last_error();
  EXPECT_EQ(threads, 64);  // 4 subgroups of 16
  std::unique_ptr<Module> module;
  EXPECT_EQ(device->loadModule("cubin", spirv.data(), spirv.size(), module).code(), StatusCode::Unsupported);
  const uint32_t junk[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  Status st = device->loadModule("spirv", junk, sizeof junk, module);
  EXPECT_EQ(st.code(), StatusCode::LoadFailed);
  EXPECT_TRUE(contains(st.message(), "bad magic number")) << st.message();
  int t64 = 0;
  std::vector<unsigned char> sg64 = compiledSpirv(t64, "sg64-64k");
  ASSERT_FALSE(sg64.empty()) << tessera_last_error();
  st = device->loadModule("spirv", sg64.data(), sg64.size(), module);
  EXPECT_EQ(st.code(), StatusCode::LoadFailed);
  EXPECT_TRUE(contains(st.message(), "subgroups of 64 lanes")) << st.message();
  EXPECT_TRUE(contains(st.message(), "sg16-64k")) << st.message();
  // One more instruction (OpSourceExtension "fail_build") the fake reads as "does not build".
  std::vector<unsigned char> failing = spirv;
  const uint32_t header = (4u << 16) | 4u;
  const char marker[12] = "fail_build";
  failing.insert(failing.end(), reinterpret_cast<const unsigned char *>(&header),
                 reinterpret_cast<const unsigned char *>(&header) + 4);
  failing.insert(failing.end(), marker, marker + 12);
  st = device->loadModule("spirv", failing.data(), failing.size(), module);
  EXPECT_EQ(st.code(), StatusCode::LoadFailed);
  EXPECT_TRUE(contains(st.message(), "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE")) << st.message();
  EXPECT_TRUE(contains(st.message(), "fake: error: the kernel does not build")) << st.message();
  ASSERT_TRUE(device->loadModule("spirv", spirv.data(), spirv.size(), module).isOk());

  std::unique_ptr<Kernel> kernel;
  EXPECT_EQ(module->getKernel("missing", 3, kernel).code(), StatusCode::NotFound);
  st = module->getKernel("scale", 2, kernel);
  EXPECT_EQ(st.code(), StatusCode::InvalidArgument);
  EXPECT_TRUE(contains(st.message(), "takes 3 arguments, not 2")) << st.message();
  ASSERT_TRUE(module->getKernel("scale", 3, kernel).isOk());

  // A launch sets each argument with its size from the module and the group
  // size from its LocalSize.
  void *address = a->devicePointer();
  int32_t n = 37;
  float scale = 2.5f;
  void *args[] = {&address, &n, &scale};
  LaunchConfig config;
  config.grid = {5, 1, 1};
  config.threadsPerProgram = threads;
  ASSERT_TRUE(kernel->launch(config, args, 3, stream.get()).isOk());
  void *handle = dlopen(lib.c_str(), RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(handle, nullptr);
  auto lastLaunch = reinterpret_cast<LastLaunch>(dlsym(handle, "fake_ze_last_launch"));
  ASSERT_NE(lastLaunch, nullptr);
  unsigned group[3], count[3], numArgs = 0;
  size_t argSize[16];
  unsigned char arg[16][8];
  EXPECT_EQ(lastLaunch(group, count, &numArgs, argSize, arg), 1);
  EXPECT_EQ(group[0], 64u);
  EXPECT_EQ(group[1] * group[2], 1u);
  EXPECT_EQ(count[0], 5u);
  ASSERT_EQ(numArgs, 3u);
  EXPECT_EQ(argSize[0], 8u);
  EXPECT_EQ(argSize[1], 4u);
  EXPECT_EQ(argSize[2], 4u);
  EXPECT_EQ(std::memcmp(arg[0], &address, 8), 0);
  EXPECT_EQ(std::memcmp(arg[1], &n, 4), 0);
  EXPECT_EQ(std::memcmp(arg[2], &scale, 4), 0);

  // Launch errors: the wrong block size, a grid beyond the device's, and an
  // empty grid that launches nothing.
  config.threadsPerProgram = 128;
  st = kernel->launch(config, args, 3, nullptr);
  EXPECT_EQ(st.code(), StatusCode::InvalidArgument);
  EXPECT_TRUE(contains(st.message(), "its module says 64")) << st.message();
  config.threadsPerProgram = threads;
  config.grid = {70000, 1, 1};
  st = kernel->launch(config, args, 3, nullptr);
  EXPECT_TRUE(contains(st.message(), "allows 65535")) << st.message();
  config.grid = {0, 1, 1};
  EXPECT_TRUE(kernel->launch(config, args, 3, nullptr).isOk());
  EXPECT_EQ(lastLaunch(group, count, &numArgs, argSize, arg), 1);  // none of these reached the driver
  dlclose(handle);
}

TEST(LevelZeroBackend, DeviceAssertionsPassTheirRecordAndReportTheFirstFailure) {
  std::string lib = fakeLoader("asserts", "-DINIT_RESULT=0 -DDEVICE_COUNT=1");
  ASSERT_FALSE(lib.empty());
  std::unique_ptr<Backend> backend;
  ASSERT_TRUE(openLevelZeroBackend(lib, backend).isOk());
  Device *device = nullptr;
  ASSERT_TRUE(backend->device(0, device).isOk());
  static const char *signature[] = {"*i32:16", "i32"};
  tessera_compile_options o{};
  o.source = "import tessera.language as tl\n\ndef check(x_ptr, n):\n    offs = tl.arange(0, 64)\n"
             "    x = tl.load(x_ptr + offs, mask=offs < n, other=1)\n    tl.device_assert(x > 0, \"x must be positive\")\n";
  o.filename = "check.py";
  o.entry = "check";
  o.signature = signature, o.num_signature = 2;
  o.target = "level_zero";
  o.arch = "sg16-64k";
  tessera_binary bin = nullptr;
  ASSERT_EQ(tessera_compile_binary(&o, &bin), TESSERA_SUCCESS) << tessera_last_error();
  size_t size = 0;
  const void *data = tessera_binary_data(bin, &size);
  std::unique_ptr<Module> module;
  Status loaded = device->loadModule("spirv", data, size, module);
  int threads = tessera_binary_threads_per_program(bin);
  tessera_binary_destroy(bin);
  ASSERT_TRUE(loaded.isOk()) << loaded.message();
  std::unique_ptr<Kernel> kernel;
  ASSERT_TRUE(module->getKernel("check", 2, kernel).isOk());  // the record is not the caller's argument
  std::unique_ptr<Buffer> x;
  ASSERT_TRUE(device->allocate(256, x).isOk());
  void *address = x->devicePointer();
  int32_t n = 64;
  void *args[] = {&address, &n};
  LaunchConfig config;
  config.threadsPerProgram = threads;
  ASSERT_TRUE(kernel->launch(config, args, 2, nullptr).isOk());
  void *handle = dlopen(lib.c_str(), RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(handle, nullptr);
  auto lastLaunch = reinterpret_cast<LastLaunch>(dlsym(handle, "fake_ze_last_launch"));
  unsigned group[3], count[3], numArgs = 0;
  size_t argSize[16];
  unsigned char arg[16][8];
  EXPECT_EQ(lastLaunch(group, count, &numArgs, argSize, arg), 1);
  ASSERT_EQ(numArgs, 3u);  // the record's address last
  EXPECT_EQ(argSize[2], 8u);
  void *record = nullptr;
  std::memcpy(&record, arg[2], sizeof record);
  EXPECT_NE(record, nullptr);
  EXPECT_NE(record, address);

  // A failing assertion (the fake stores its number in the record): the
  // launch fails with the message at the user's line; the next one passes.
  setenv("FAKE_ZE_ASSERT", "1", 1);
  Status st = kernel->launch(config, args, 2, nullptr);
  unsetenv("FAKE_ZE_ASSERT");
  EXPECT_EQ(st.code(), StatusCode::AssertFailed);
  EXPECT_EQ(st.message(), "check.py:6: device assertion failed: x must be positive");
  EXPECT_TRUE(kernel->launch(config, args, 2, nullptr).isOk());
  dlclose(handle);
}

TEST(LevelZeroBackend, ModulesNeedingWhatTheDeviceLacksAreRefusedByName) {
  // 64-bit atomics (cl_khr_int64_base_atomics) and fp64, each checked against
  // the device's module flags before the driver sees the module.
  const char *atomics = "import tessera.language as tl\n\ndef k(p, v):\n    tl.atomic_add(p, v)\n";
  const char *doubles = "import tessera.language as tl\n\ndef k(p, v):\n    tl.store(p, tl.load(p) * v)\n";
  int threads = 0;
  std::vector<unsigned char> i64 = compiledSpirv(threads, "sg16-64k", atomics, {"*i64", "i64"});
  ASSERT_FALSE(i64.empty()) << tessera_last_error();
  std::vector<unsigned char> f64 = compiledSpirv(threads, "sg16-64k", doubles, {"*fp64", "fp64"});
  ASSERT_FALSE(f64.empty()) << tessera_last_error();
  for (const char *flags : {"0", "ZE_DEVICE_MODULE_FLAG_FP64", "ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS"}) {
    SCOPED_TRACE(flags);
    std::string lib = fakeLoader(std::string("flags") + (flags[0] == '0' ? "none" : flags + 24),
                                 std::string("-DINIT_RESULT=0 -DDEVICE_COUNT=1 -DMODULE_FLAGS=") + flags);
    ASSERT_FALSE(lib.empty());
    std::unique_ptr<Backend> backend;
    ASSERT_TRUE(openLevelZeroBackend(lib, backend).isOk());
    Device *device = nullptr;
    ASSERT_TRUE(backend->device(0, device).isOk());
    std::unique_ptr<Module> module;
    Status st = device->loadModule("spirv", i64.data(), i64.size(), module);
    if (std::string(flags) == "ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS") {
      EXPECT_TRUE(st.isOk()) << st.message();
    } else {
      EXPECT_EQ(st.code(), StatusCode::Unsupported);
      EXPECT_EQ(st.message(), "the kernel needs SPIR-V capability 12 (Level Zero's ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS), "
                              "which Fake Intel GPU does not have");
    }
    st = device->loadModule("spirv", f64.data(), f64.size(), module);
    if (std::string(flags) == "ZE_DEVICE_MODULE_FLAG_FP64") {
      EXPECT_TRUE(st.isOk()) << st.message();
    } else {
      EXPECT_EQ(st.code(), StatusCode::Unsupported);
      EXPECT_TRUE(contains(st.message(), "(Level Zero's ZE_DEVICE_MODULE_FLAG_FP64)")) << st.message();
    }
  }
}
