// The C API (tessera.h): errors instead of aborts, memory, streams, loading
// binaries, and the compile path with its cache through a fake target that
// returns the hand-written kernels (the CPU target may not exist yet).
#include "TestSupport.h"
#include "capi/CApiInternal.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <thread>

using namespace tessera;
using test::TempDir;

namespace {

tessera_device host() {
  tessera_device d = nullptr;
  EXPECT_EQ(tessera_get_device("host", 0, &d), TESSERA_SUCCESS) << tessera_last_error();
  return d;
}

struct ScopedEnv {
  std::string name;
  ScopedEnv(const char *n, const char *v) : name(n) { ::setenv(n, v, 1); }
  ~ScopedEnv() { ::unsetenv(name.c_str()); }
};

// Options for the vector-add kernel of TestSupport.h.
struct VectorAddOptions {
  const char *sig[4] = {"*fp32:16", "*fp32:16", "*fp32:16", "i32"};
  tessera_constexpr cx[1] = {{"BLOCK_SIZE", "64"}};
  tessera_compile_options o{};
  VectorAddOptions() {
    o.source = test::vectorAddSource();
    o.filename = "vector_add.py";
    o.entry = "add_kernel";
    o.signature = sig, o.num_signature = 4, o.constexprs = cx, o.num_constexprs = 1;
  }
};

// Runs the loaded vector add on n elements; true when every element is right.
bool runVectorAdd(tessera_kernel k, int n, int block) {
  const size_t count = static_cast<size_t>(n);
  std::vector<float> x(count), y(count), out(count, NAN);
  for (int i = 0; i < n; ++i) x[size_t(i)] = float(i) / 3.0f, y[size_t(i)] = float(i % 17) - 8.0f;
  void *px = x.data(), *py = y.data(), *po = out.data();
  int32_t nn = n;
  void *args[] = {&px, &py, &po, &nn};
  uint32_t grid[3] = {uint32_t((n + block - 1) / block), 1, 1};
  if (tessera_kernel_launch(k, grid, args, nullptr) != TESSERA_SUCCESS) {
    ADD_FAILURE() << tessera_last_error();
    return false;
  }
  for (int i = 0; i < n; ++i)
    if (out[size_t(i)] != x[size_t(i)] + y[size_t(i)]) return false;
  return true;
}

// Installs the fake target for one test.
struct FakeTargetScope {
  int compiles = 0;
  FakeTargetScope() {
    std::vector<uint8_t> bin = test::abiKernelsBinary();
    capi::setTargetFactoryForTesting([this, bin](std::string_view, std::string *) {
      return std::make_unique<test::FakeTarget>(bin, &compiles);
    });
  }
  ~FakeTargetScope() { capi::setTargetFactoryForTesting({}); }
};

} // namespace

TEST(CApi, TensorMapsAreBuiltByTheBackendOrRefused) {
  // A compiled kernel whose last parameter is a tensor map: callers do not
  // pass it, and a backend that cannot build one (the host) refuses the
  // kernel when it loads, saying why.
  std::vector<uint8_t> bin = test::abiKernelsBinary();
  capi::setTargetFactoryForTesting([bin](std::string_view, std::string *) {
    auto t = std::make_unique<test::FakeTarget>(bin);
    t->tensorMap = {0, 64, 64, 128};
    t->tensorMapFields = {{{3, 3}, 2}, {{}, 64}, {{3}, 1}, {{}, 1}};  // a3*a3*2 64 a3 1, as a kernel-made descriptor's
    return t;
  });
  TempDir cache;
  ScopedEnv env("TESSERA_CACHE_DIR", cache.path.c_str());
  VectorAddOptions v;
  tessera_kernel k = nullptr;
  EXPECT_EQ(tessera_compile(&v.o, &k), TESSERA_ERROR_UNSUPPORTED);
  EXPECT_NE(std::string(tessera_last_error()).find("copies through tensor maps, which this backend cannot build"),
            std::string::npos)
      << tessera_last_error();
  // The cache entry says where the map's fields come from, with the
  // arguments' widths (n is an i32): what a CUDA launch evaluates.
  std::string entries;
  for (const auto &file : std::filesystem::recursive_directory_iterator(cache.path))
    if (file.is_regular_file()) {
      std::ifstream in(file.path(), std::ios::binary);
      entries += std::string(std::istreambuf_iterator<char>(in), {});
    }
  EXPECT_NE(entries.find("2*a3:4*a3:4 64 a3:4 1"), std::string::npos) << entries.substr(0, 2000);
  capi::setTargetFactoryForTesting({});
}

TEST(CApi, NullsAndBadArgumentsReturnErrors) {
  tessera_kernel k = nullptr;
  EXPECT_EQ(tessera_compile(nullptr, &k), TESSERA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tessera_last_error()).find("tessera_compile"), std::string::npos);
  tessera_compile_options o{};
  EXPECT_EQ(tessera_compile(&o, &k), TESSERA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tessera_buffer_alloc(nullptr, 4, nullptr), TESSERA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tessera_kernel_launch(nullptr, nullptr, nullptr, nullptr), TESSERA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tessera_copy_host_to_device(nullptr, 0, nullptr, 0, nullptr), TESSERA_ERROR_INVALID_ARGUMENT);
  tessera_device d = nullptr;
  EXPECT_EQ(tessera_get_device("metal", 0, &d), TESSERA_ERROR_NOT_FOUND);
  EXPECT_EQ(tessera_get_device("level_zero", 0, &d), TESSERA_ERROR_UNAVAILABLE);
  EXPECT_EQ(tessera_get_device("host", 3, &d), TESSERA_ERROR_NOT_FOUND);
  EXPECT_EQ(tessera_buffer_free(nullptr), TESSERA_SUCCESS);
  EXPECT_STREQ(tessera_status_string(TESSERA_ERROR_ASSERT), "device assertion failed");
  EXPECT_STREQ(tessera_status_string(TESSERA_ERROR_OUT_OF_RESOURCES), "out of resources");
  int last = 0;  // GPU backends (and Vulkan, lavapipe too) come first; the host is always last
  while (tessera_backend_name(last + 1)) ++last;
  EXPECT_STREQ(tessera_backend_name(last), "host");
  EXPECT_EQ(tessera_backend_name(99), nullptr);
  EXPECT_NE(std::string(tessera_version()).find("tessera "), std::string::npos);
}

TEST(CApi, DeviceAttributes) {
  int64_t v = -1;
  ASSERT_EQ(tessera_device_attribute(host(), "multiprocessor_count", &v), TESSERA_SUCCESS);
  EXPECT_GE(v, 1);
  ASSERT_EQ(tessera_device_attribute(host(), "warpSize", &v), TESSERA_SUCCESS);
  EXPECT_EQ(v, 1);
  ASSERT_EQ(tessera_device_attribute(host(), "max_shared_mem", &v), TESSERA_SUCCESS);
  EXPECT_GE(v, int64_t(64) << 20);  // memory over the hardware threads
  // A core's vector registers in 32-bit lanes (SSE, AVX, AVX-512; NEON).
  ASSERT_EQ(tessera_device_attribute(host(), "max_num_regs", &v), TESSERA_SUCCESS);
  EXPECT_TRUE(v == 64 || v == 128 || v == 512) << v;
  EXPECT_EQ(tessera_device_attribute(host(), "sm_clock_rate", &v), TESSERA_ERROR_NOT_FOUND);
  EXPECT_NE(std::string(tessera_last_error()).find("no attribute 'sm_clock_rate'"), std::string::npos);
  EXPECT_EQ(tessera_device_attribute(host(), nullptr, &v), TESSERA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tessera_device_attribute(host(), "warpSize", nullptr), TESSERA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tessera_device_attribute(nullptr, "warpSize", &v), TESSERA_ERROR_INVALID_ARGUMENT);
}

TEST(CApi, LastErrorBelongsToTheThread) {
  tessera_device d = nullptr;
  EXPECT_EQ(tessera_get_device("nope", 0, &d), TESSERA_ERROR_NOT_FOUND);
  std::string other;
  std::thread([&] {
    EXPECT_EQ(tessera_buffer_alloc(nullptr, 1, nullptr), TESSERA_ERROR_INVALID_ARGUMENT);
    other = tessera_last_error();
  }).join();
  EXPECT_NE(std::string(tessera_last_error()).find("nope"), std::string::npos);
  EXPECT_NE(other.find("tessera_buffer_alloc"), std::string::npos) << other;
}

TEST(CApi, BuffersStreamsEvents) {
  tessera_device d = host();
  EXPECT_STREQ(tessera_device_backend(d), "host");
  int count = 0;
  ASSERT_EQ(tessera_device_count("host", &count), TESSERA_SUCCESS);
  EXPECT_EQ(count, 1);
  tessera_buffer b;
  ASSERT_EQ(tessera_buffer_alloc(d, 64, &b), TESSERA_SUCCESS);
  size_t size = 0;
  void *ptr = nullptr;
  ASSERT_EQ(tessera_buffer_size(b, &size), TESSERA_SUCCESS);
  ASSERT_EQ(tessera_buffer_device_ptr(b, &ptr), TESSERA_SUCCESS);
  EXPECT_EQ(size, 64u);
  EXPECT_NE(ptr, nullptr);
  tessera_stream s;
  tessera_event e0, e1;
  ASSERT_EQ(tessera_stream_create(d, &s), TESSERA_SUCCESS);
  ASSERT_EQ(tessera_event_create(d, &e0), TESSERA_SUCCESS);
  ASSERT_EQ(tessera_event_create(d, &e1), TESSERA_SUCCESS);
  char in[64], out[64] = {};
  for (int i = 0; i < 64; ++i) in[i] = char(i);
  ASSERT_EQ(tessera_event_record(e0, s), TESSERA_SUCCESS);
  ASSERT_EQ(tessera_copy_host_to_device(b, 0, in, 64, s), TESSERA_SUCCESS);
  ASSERT_EQ(tessera_copy_device_to_host(out, b, 0, 64, s), TESSERA_SUCCESS);
  ASSERT_EQ(tessera_event_record(e1, s), TESSERA_SUCCESS);
  ASSERT_EQ(tessera_stream_synchronize(s), TESSERA_SUCCESS);
  double ms = -1;
  ASSERT_EQ(tessera_event_elapsed_ms(e0, e1, &ms), TESSERA_SUCCESS);
  EXPECT_GE(ms, 0);
  EXPECT_EQ(std::memcmp(in, out, 64), 0);
  EXPECT_EQ(tessera_copy_host_to_device(b, 60, in, 8, nullptr), TESSERA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tessera_last_error()).find("past the end"), std::string::npos);
  tessera_event_destroy(e0);
  tessera_event_destroy(e1);
  tessera_stream_destroy(s);
  tessera_buffer_free(b);
}

// The handle table grows in chunks that never move (lookups take no
// lock): handles across several chunks stay live and exact, freed ones
// die, and slots are reused without reviving old handles.
TEST(CApi, HandlesAcrossTableChunks) {
  tessera_device d = host();
  std::vector<tessera_buffer> live;
  for (size_t i = 0; i < 1000; ++i) {
    tessera_buffer b;
    ASSERT_EQ(tessera_buffer_alloc(d, 8 + i, &b), TESSERA_SUCCESS);
    live.push_back(b);
  }
  std::vector<tessera_buffer> dead;
  for (size_t i = 0; i < live.size(); i += 3) {
    ASSERT_EQ(tessera_buffer_free(live[i]), TESSERA_SUCCESS);
    dead.push_back(live[i]);
  }
  std::vector<tessera_buffer> reused;
  for (size_t i = 0; i < dead.size(); ++i) {
    tessera_buffer b;
    ASSERT_EQ(tessera_buffer_alloc(d, 4096 + i, &b), TESSERA_SUCCESS);
    reused.push_back(b);
  }
  size_t size = 0;
  for (size_t i = 0; i < live.size(); ++i) {
    if (i % 3 == 0) {
      EXPECT_EQ(tessera_buffer_size(live[i], &size), TESSERA_ERROR_INVALID_ARGUMENT) << i;
      continue;
    }
    ASSERT_EQ(tessera_buffer_size(live[i], &size), TESSERA_SUCCESS) << i;
    EXPECT_EQ(size, 8 + i);
  }
  for (size_t i = 0; i < reused.size(); ++i) {
    ASSERT_EQ(tessera_buffer_size(reused[i], &size), TESSERA_SUCCESS) << i;
    EXPECT_EQ(size, 4096 + i);
  }
  for (size_t i = 0; i < live.size(); ++i)
    if (i % 3) EXPECT_EQ(tessera_buffer_free(live[i]), TESSERA_SUCCESS);
  for (tessera_buffer b : reused) EXPECT_EQ(tessera_buffer_free(b), TESSERA_SUCCESS);
}

// Handles are checked: a destroyed one (used again or destroyed twice) and
// a garbage value are errors naming the handle type, never a crash.
TEST(CApi, DeadAndGarbageHandlesAreErrors) {
  tessera_device d = host();
  auto expectDead = [](tessera_status st, const char *type) {
    EXPECT_EQ(st, TESSERA_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(tessera_last_error()).find(std::string("not a live ") + type), std::string::npos)
        << tessera_last_error();
  };
  tessera_buffer b;
  ASSERT_EQ(tessera_buffer_alloc(d, 64, &b), TESSERA_SUCCESS);
  ASSERT_EQ(tessera_buffer_free(b), TESSERA_SUCCESS);
  size_t size = 0;
  expectDead(tessera_buffer_size(b, &size), "tessera_buffer");
  expectDead(tessera_buffer_free(b), "tessera_buffer");  // double free
  char host[8] = {};
  expectDead(tessera_copy_host_to_device(b, 0, host, 8, nullptr), "tessera_buffer");
  // A new buffer may take the dead one's slot: the old handle stays dead.
  tessera_buffer b2;
  ASSERT_EQ(tessera_buffer_alloc(d, 64, &b2), TESSERA_SUCCESS);
  expectDead(tessera_buffer_size(b, &size), "tessera_buffer");
  ASSERT_EQ(tessera_buffer_size(b2, &size), TESSERA_SUCCESS);
  EXPECT_EQ(size, 64u);
  expectDead(tessera_buffer_size(reinterpret_cast<tessera_buffer>(uintptr_t(0xdeadbeef)), &size), "tessera_buffer");

  tessera_stream s;
  tessera_event e;
  ASSERT_EQ(tessera_stream_create(d, &s), TESSERA_SUCCESS);
  ASSERT_EQ(tessera_event_create(d, &e), TESSERA_SUCCESS);
  ASSERT_EQ(tessera_stream_destroy(s), TESSERA_SUCCESS);
  expectDead(tessera_stream_destroy(s), "tessera_stream");
  expectDead(tessera_stream_synchronize(s), "tessera_stream");
  expectDead(tessera_event_record(e, s), "tessera_stream");
  expectDead(tessera_copy_device_to_host(host, b2, 0, 8, s), "tessera_stream");
  ASSERT_EQ(tessera_event_destroy(e), TESSERA_SUCCESS);
  expectDead(tessera_event_synchronize(e), "tessera_event");
  expectDead(tessera_event_destroy(e), "tessera_event");

  tessera_device garbage = reinterpret_cast<tessera_device>(uintptr_t(0x1234));
  expectDead(tessera_device_synchronize(garbage), "tessera_device");
  expectDead(tessera_buffer_alloc(garbage, 8, &b), "tessera_device");
  EXPECT_STREQ(tessera_device_name(garbage), "");

  std::vector<uint8_t> bin = test::abiKernelsBinary();
  tessera_kernel k;
  ASSERT_EQ(tessera_kernel_load(d, "elf-shared-object", bin.data(), bin.size(), "add_kernel", 4, &k), TESSERA_SUCCESS);
  ASSERT_EQ(tessera_kernel_destroy(k), TESSERA_SUCCESS);
  uint32_t grid[3] = {1, 1, 1};
  int32_t n = 0;
  void *args[] = {&n, &n, &n, &n};
  expectDead(tessera_kernel_launch(k, grid, args, nullptr), "tessera_kernel");
  expectDead(tessera_kernel_destroy(k), "tessera_kernel");
  size_t params = 0;
  expectDead(tessera_kernel_num_params(k, &params), "tessera_kernel");

  tessera_binary_destroy(reinterpret_cast<tessera_binary>(uintptr_t(0x77)));  // ignored, reported
  EXPECT_NE(std::string(tessera_last_error()).find("not a live tessera_binary"), std::string::npos);
  EXPECT_STREQ(tessera_binary_format(reinterpret_cast<tessera_binary>(uintptr_t(0x77))), "");
  tessera_buffer_free(b2);
}

TEST(CApi, LoadsAndLaunchesABinary) {
  std::vector<uint8_t> bin = test::abiKernelsBinary();
  ASSERT_FALSE(bin.empty());
  tessera_kernel k;
  ASSERT_EQ(tessera_kernel_load(host(), "elf-shared-object", bin.data(), bin.size(), "add_kernel", 4, &k), TESSERA_SUCCESS)
      << tessera_last_error();
  EXPECT_TRUE(runVectorAdd(k, 1000, 64));
  // The kernel's facts: set by tessera_kernel_set_launch_params for a loaded
  // binary; the host has no register or local-memory budget to report.
  ASSERT_EQ(tessera_kernel_set_launch_params(k, 1, 256), TESSERA_SUCCESS);
  int64_t v = -1;
  EXPECT_EQ(tessera_kernel_attribute(k, "shared_bytes", &v), TESSERA_SUCCESS);
  EXPECT_EQ(v, 256);
  EXPECT_EQ(tessera_kernel_attribute(k, "threads", &v), TESSERA_SUCCESS);
  EXPECT_EQ(v, 1);
  for (const char *name : {"num_regs", "local_bytes"}) {
    v = -1;
    EXPECT_EQ(tessera_kernel_attribute(k, name, &v), TESSERA_SUCCESS) << name;
    EXPECT_EQ(v, 0) << name;
  }
  EXPECT_EQ(tessera_kernel_attribute(k, "regs", &v), TESSERA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tessera_last_error()).find("known: threads"), std::string::npos) << tessera_last_error();
  EXPECT_EQ(tessera_kernel_attribute(k, nullptr, &v), TESSERA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tessera_kernel_attribute(nullptr, "threads", &v), TESSERA_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(tessera_kernel_set_launch_params(k, 1, 0), TESSERA_SUCCESS);
  void *one[] = {nullptr};
  uint32_t grid[3] = {1, 1, 1};
  EXPECT_EQ(tessera_kernel_launch(k, grid, one, nullptr), TESSERA_ERROR_INVALID_ARGUMENT);  // null argument
  tessera_kernel_destroy(k);

  ASSERT_EQ(tessera_kernel_load(host(), "elf-shared-object", bin.data(), bin.size(), "assert_kernel", 1, &k), TESSERA_SUCCESS);
  int32_t bad = 3;
  void *args[] = {&bad};
  uint32_t g[3] = {2, 2, 2};
  testing::internal::CaptureStdout();
  EXPECT_EQ(tessera_kernel_launch(k, g, args, nullptr), TESSERA_ERROR_ASSERT);
  testing::internal::GetCapturedStdout();
  EXPECT_NE(std::string(tessera_last_error()).find("kernel.py:42"), std::string::npos) << tessera_last_error();
  tessera_kernel_destroy(k);
  EXPECT_EQ(tessera_kernel_load(host(), "elf-shared-object", bin.data(), bin.size(), "missing", 0, &k), TESSERA_ERROR_NOT_FOUND);
  EXPECT_EQ(tessera_kernel_load(host(), "spirv", bin.data(), bin.size(), "add_kernel", 4, &k), TESSERA_ERROR_UNSUPPORTED);
}

TEST(CApiCompile, FrontendErrorsShowFileLineAndCaret) {
  TempDir cache;
  ScopedEnv env("TESSERA_CACHE_DIR", cache.path.c_str());
  const char *src = "import tessera.language as tl\n"
                    "def k(x_ptr, N: tl.constexpr):\n"
                    "    y = undefined_name + 1\n";
  const char *sig[] = {"*fp32"};
  tessera_constexpr cx[] = {{"N", "16"}};
  tessera_compile_options o{};
  o.source = src, o.filename = "bad.py", o.entry = "k", o.signature = sig, o.num_signature = 1;
  o.constexprs = cx, o.num_constexprs = 1;
  tessera_kernel k;
  ASSERT_EQ(tessera_compile(&o, &k), TESSERA_ERROR_COMPILATION);
  std::string msg = tessera_last_error();
  EXPECT_NE(msg.find("bad.py:3:9: error: name 'undefined_name' is not defined"), std::string::npos) << msg;
  EXPECT_NE(msg.find("        ^"), std::string::npos) << msg;
  o.entry = "nope";
  EXPECT_EQ(tessera_compile(&o, &k), TESSERA_ERROR_COMPILATION);
  EXPECT_NE(std::string(tessera_last_error()).find("no function named 'nope'"), std::string::npos);
}

// The vector add writes its output only; the frontend alone answers (no
// target needed), and a short buffer still reports the argument count.
TEST(CApiCompile, KernelWritesNamesTheWrittenArguments) {
  VectorAddOptions v;
  v.o.target = nullptr;
  int written[4] = {-1, -1, -1, -1};
  size_t count = 0;
  ASSERT_EQ(tessera_kernel_writes(&v.o, written, 4, &count), TESSERA_SUCCESS) << tessera_last_error();
  EXPECT_EQ(count, 4u);
  EXPECT_EQ(std::vector<int>(written, written + 4), (std::vector<int>{0, 0, 1, 0}));
  int first = -1;
  ASSERT_EQ(tessera_kernel_writes(&v.o, &first, 1, &count), TESSERA_SUCCESS);
  EXPECT_EQ(first, 0);
  EXPECT_EQ(count, 4u);
  EXPECT_EQ(tessera_kernel_writes(&v.o, nullptr, 4, &count), TESSERA_ERROR_INVALID_ARGUMENT);
  v.o.entry = "nope";
  EXPECT_EQ(tessera_kernel_writes(&v.o, written, 4, &count), TESSERA_ERROR_COMPILATION);
}

TEST(CApiCompile, BadSignaturesAndConstexprs) {
  VectorAddOptions v;
  tessera_kernel k;
  v.sig[1] = "*fp33";
  EXPECT_EQ(tessera_compile(&v.o, &k), TESSERA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tessera_last_error()).find("y_ptr"), std::string::npos) << tessera_last_error();
  VectorAddOptions w;
  const char *five[] = {"*fp32", "*fp32", "*fp32", "i32", "i32"};
  w.o.signature = five, w.o.num_signature = 5;
  EXPECT_EQ(tessera_compile(&w.o, &k), TESSERA_ERROR_INVALID_ARGUMENT);
  VectorAddOptions c;
  c.cx[0].value = "1 +";
  EXPECT_EQ(tessera_compile(&c.o, &k), TESSERA_ERROR_INVALID_ARGUMENT);
}

TEST(CApiCompile, MissingTargetIsUnavailable) {
  if (tessera_target_available("cpu")) GTEST_SKIP() << "the cpu target exists in this build";
  TempDir cache;
  ScopedEnv env("TESSERA_CACHE_DIR", cache.path.c_str());
  VectorAddOptions v;
  tessera_kernel k;
  EXPECT_EQ(tessera_compile(&v.o, &k), TESSERA_ERROR_UNAVAILABLE);
  EXPECT_NE(std::string(tessera_last_error()).find("cpu"), std::string::npos);
  v.o.target = "no-such-target";
  EXPECT_EQ(tessera_compile(&v.o, &k), TESSERA_ERROR_UNAVAILABLE);
}

TEST(CApiCompile, FakeTargetThroughTheCache) {
  FakeTargetScope fake;
  TempDir cache;
  ScopedEnv env("TESSERA_CACHE_DIR", cache.path.c_str());
  VectorAddOptions v;
  tessera_kernel k;
  int fromCache = -1;
  ASSERT_EQ(tessera_compile(&v.o, &k), TESSERA_SUCCESS) << tessera_last_error();
  size_t params = 0;
  ASSERT_EQ(tessera_kernel_num_params(k, &params), TESSERA_SUCCESS);
  EXPECT_EQ(params, 4u);  // BLOCK_SIZE is a constexpr, not a runtime parameter
  ASSERT_EQ(tessera_kernel_from_cache(k, &fromCache), TESSERA_SUCCESS);
  EXPECT_EQ(fromCache, 0);
  EXPECT_TRUE(runVectorAdd(k, 5000, 64));
  tessera_kernel_destroy(k);
  EXPECT_EQ(fake.compiles, 1);

  // Same inputs: answered by the cache, no compile.
  ASSERT_EQ(tessera_compile(&v.o, &k), TESSERA_SUCCESS);
  tessera_kernel_from_cache(k, &fromCache);
  EXPECT_EQ(fromCache, 1);
  EXPECT_TRUE(runVectorAdd(k, 777, 64));
  tessera_kernel_destroy(k);
  EXPECT_EQ(fake.compiles, 1);

  // Anything that changes the binary changes the key.
  VectorAddOptions other;
  other.sig[3] = "i32:16";
  ASSERT_EQ(tessera_compile(&other.o, &k), TESSERA_SUCCESS);
  tessera_kernel_destroy(k);
  other.o.num_warps = 8;
  ASSERT_EQ(tessera_compile(&other.o, &k), TESSERA_SUCCESS);
  tessera_kernel_destroy(k);
  EXPECT_EQ(fake.compiles, 3);

  // TESSERA_ALWAYS_COMPILE=1 bypasses the cache.
  {
    ScopedEnv always("TESSERA_ALWAYS_COMPILE", "1");
    ASSERT_EQ(tessera_compile(&v.o, &k), TESSERA_SUCCESS);
    tessera_kernel_from_cache(k, &fromCache);
    EXPECT_EQ(fromCache, 0);
    tessera_kernel_destroy(k);
  }
  EXPECT_EQ(fake.compiles, 4);
}

TEST(CApiCompile, AliasesShareCacheEntries) {
  // "host" and "cpu" name one registry row, so one compile serves both.
  FakeTargetScope fake;
  TempDir cache;
  ScopedEnv env("TESSERA_CACHE_DIR", cache.path.c_str());
  VectorAddOptions v;
  tessera_kernel k;
  int fromCache = -1;
  v.o.target = "host";
  ASSERT_EQ(tessera_compile(&v.o, &k), TESSERA_SUCCESS) << tessera_last_error();
  tessera_kernel_destroy(k);
  v.o.target = "cpu";
  ASSERT_EQ(tessera_compile(&v.o, &k), TESSERA_SUCCESS) << tessera_last_error();
  ASSERT_EQ(tessera_kernel_from_cache(k, &fromCache), TESSERA_SUCCESS);
  EXPECT_EQ(fromCache, 1);
  tessera_kernel_destroy(k);
  EXPECT_EQ(fake.compiles, 1);
}

TEST(CpuTarget, VectorAddEndToEnd) {
  if (!tessera_target_available("cpu")) GTEST_SKIP() << "createTarget(\"cpu\") returns null: the CPU code generator is not in this build";
  TempDir cache;
  ScopedEnv env("TESSERA_CACHE_DIR", cache.path.c_str());
  VectorAddOptions v;
  v.cx[0].value = "1024";
  tessera_kernel k;
  ASSERT_EQ(tessera_compile(&v.o, &k), TESSERA_SUCCESS) << tessera_last_error();
  EXPECT_TRUE(runVectorAdd(k, 98432, 1024));
  tessera_kernel_destroy(k);
}
