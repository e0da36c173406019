// The runtime's host backend: registry, memory, streams and events, module
// loading, and launches of the hand-written ABI kernels (abi_kernels.c).
#include "runtime/Runtime.h"
#include "runtime/DevicePrint.h"
#include "TestSupport.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>

using namespace tessera::runtime;
using tessera::test::abiKernelsBinary;
using tessera::test::abiKernelsPath;

namespace {

Device &host() {
  Device *d = nullptr;
  Status st = getDevice("host", 0, d);
  EXPECT_TRUE(st.isOk()) << st.toString();
  return *d;
}

std::unique_ptr<Module> loadAbiKernels() {
  std::string error;
  if (abiKernelsPath(&error).empty()) ADD_FAILURE() << error;
  std::vector<uint8_t> bin = abiKernelsBinary();
  std::unique_ptr<Module> m;
  Status st = host().loadModule("elf-shared-object", bin.data(), bin.size(), m);
  EXPECT_TRUE(st.isOk()) << st.toString();
  return m;
}

} // namespace

TEST(Registry, ListsHostAndOnlyUsableBackends) {
  std::vector<std::string> names = backendNames();
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names.back(), "host");
  Status st;
  EXPECT_EQ(getBackend("metal", &st), nullptr);  // no such backend: not found, naming the usable ones
  EXPECT_EQ(st.code(), StatusCode::NotFound);
  EXPECT_NE(st.message().find("host"), std::string::npos) << st.message();
  // Level Zero: its probe says why it cannot run here (no loader, no driver, or not built yet).
  EXPECT_EQ(getBackend("level_zero", &st), nullptr);
  EXPECT_EQ(st.code(), StatusCode::Unavailable);
  EXPECT_NE(st.message().find("Level Zero"), std::string::npos) << st.message();
  Backend *b = getBackend("host", &st);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->deviceCount(), 1);
  Device *d = nullptr;
  EXPECT_EQ(b->device(1, d).code(), StatusCode::NotFound);
  EXPECT_EQ(d, nullptr);
  EXPECT_EQ(host().backend(), "host");
  EXPECT_NE(host().name().find("host"), std::string::npos);
}

TEST(HostMemory, AllocateCopyAndBounds) {
  Device &d = host();
  std::unique_ptr<Buffer> buf;
  ASSERT_TRUE(d.allocate(100, buf).isOk());
  EXPECT_EQ(buf->size(), 100u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(buf->devicePointer()) % 64, 0u);  // ":16" specialization applies
  std::vector<uint8_t> in(100), out(100, 0);
  for (int i = 0; i < 100; ++i) in[size_t(i)] = uint8_t(i * 7);
  ASSERT_TRUE(d.copyToDevice(*buf, 0, in.data(), 100, nullptr).isOk());
  ASSERT_TRUE(d.copyToHost(out.data(), *buf, 0, 100, &d.defaultStream()).isOk());
  EXPECT_EQ(in, out);
  ASSERT_TRUE(d.copyToHost(out.data(), *buf, 90, 10, nullptr).isOk());
  EXPECT_EQ(out[0], in[90]);
  EXPECT_EQ(d.copyToDevice(*buf, 91, in.data(), 10, nullptr).code(), StatusCode::InvalidArgument);
  EXPECT_EQ(d.copyToHost(out.data(), *buf, SIZE_MAX, 2, nullptr).code(), StatusCode::InvalidArgument);
  EXPECT_EQ(d.copyToDevice(*buf, 0, nullptr, 4, nullptr).code(), StatusCode::InvalidArgument);
  std::unique_ptr<Buffer> empty, huge;
  EXPECT_TRUE(d.allocate(0, empty).isOk());
  EXPECT_EQ(d.allocate(SIZE_MAX - 8, huge).code(), StatusCode::OutOfMemory);
}

TEST(HostStreams, EventsTimeInOrder) {
  Device &d = host();
  std::unique_ptr<Stream> s;
  std::unique_ptr<Event> a, b;
  ASSERT_TRUE(d.createStream(s).isOk());
  ASSERT_TRUE(d.createEvent(a).isOk());
  ASSERT_TRUE(d.createEvent(b).isOk());
  double ms = -1;
  EXPECT_EQ(b->elapsedMs(*a, ms).code(), StatusCode::InvalidArgument);  // never recorded
  ASSERT_TRUE(s->record(*a).isOk());
  ASSERT_TRUE(s->record(*b).isOk());
  ASSERT_TRUE(s->wait(*a).isOk());
  ASSERT_TRUE(b->synchronize().isOk());
  ASSERT_TRUE(b->elapsedMs(*a, ms).isOk());
  EXPECT_GE(ms, 0.0);
  EXPECT_TRUE(s->synchronize().isOk());
  EXPECT_TRUE(d.synchronize().isOk());
}

TEST(HostModules, RejectsBadBinariesWithoutCrashing) {
  Device &d = host();
  std::unique_ptr<Module> m;
  const char junk[] = "not an ELF file at all";
  EXPECT_EQ(d.loadModule("elf-shared-object", junk, sizeof junk, m).code(), StatusCode::LoadFailed);
  EXPECT_EQ(d.loadModule("elf-shared-object", nullptr, 0, m).code(), StatusCode::LoadFailed);
  const char truncatedElf[] = "\x7f" "ELF\x02\x01\x01";
  Status st = d.loadModule("elf-shared-object", truncatedElf, sizeof truncatedElf, m);
  EXPECT_EQ(st.code(), StatusCode::LoadFailed) << st.toString();
  EXPECT_EQ(d.loadModule("cubin", junk, sizeof junk, m).code(), StatusCode::Unsupported);
  // A real shared object cut short anywhere past its header (a damaged cache
  // entry) is refused before dlopen, which would read past the end.
  std::vector<uint8_t> bin = abiKernelsBinary();
  ASSERT_GT(bin.size(), 4096u);
  for (size_t keep : {size_t(64), size_t(200), bin.size() / 2, bin.size() - 1}) {
    st = d.loadModule("elf-shared-object", bin.data(), keep, m);
    EXPECT_EQ(st.code(), StatusCode::LoadFailed) << keep << " bytes: " << st.toString();
    EXPECT_NE(st.message().find("truncated"), std::string::npos) << st.toString();
  }
  auto good = loadAbiKernels();
  ASSERT_TRUE(good);
  std::unique_ptr<Kernel> k;
  st = good->getKernel("no_such_kernel", 0, k);
  EXPECT_EQ(st.code(), StatusCode::NotFound);
  EXPECT_NE(st.message().find("no_such_kernel"), std::string::npos);
}

TEST(HostLaunch, VectorAdd) {
  auto m = loadAbiKernels();
  ASSERT_TRUE(m);
  std::unique_ptr<Kernel> k;
  ASSERT_TRUE(m->getKernel("add_kernel", 4, k).isOk());
  m.reset();  // the kernel keeps the loaded object alive
  const int n = 10000;
  std::vector<float> x(n), y(n), out(n, NAN);
  for (int i = 0; i < n; ++i) x[size_t(i)] = float(i) * 0.5f, y[size_t(i)] = float(n - i);
  void *px = x.data(), *py = y.data(), *po = out.data();
  int32_t nn = n;
  void *args[] = {&px, &py, &po, &nn};
  LaunchConfig c;
  c.grid = {uint32_t((n + 63) / 64), 1, 1};
  Status st = k->launch(c, args, 4, nullptr);
  ASSERT_TRUE(st.isOk()) << st.toString();
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[size_t(i)], x[size_t(i)] + y[size_t(i)]) << i;
  EXPECT_EQ(k->launch(c, args, 3, nullptr).code(), StatusCode::InvalidArgument);
  void *nullArgs[] = {&px, nullptr, &po, &nn};
  EXPECT_EQ(k->launch(c, nullArgs, 4, nullptr).code(), StatusCode::InvalidArgument);
}

TEST(HostLaunch, EveryProgramRunsOnceWithItsCoordinates) {
  auto m = loadAbiKernels();
  ASSERT_TRUE(m);
  std::unique_ptr<Kernel> k;
  ASSERT_TRUE(m->getKernel("count_programs", 2, k).isOk());
  for (std::array<uint32_t, 3> g : {std::array<uint32_t, 3>{1, 1, 1}, {100003, 1, 1}, {7, 5, 3}, {1, 1, 1000}}) {
    size_t total = size_t(g[0]) * g[1] * g[2];
    std::vector<int32_t> counts(total, 0), coords(3 * total, -1);
    void *pc = counts.data(), *pk = coords.data();
    void *args[] = {&pc, &pk};
    LaunchConfig c;
    c.grid = g;
    ASSERT_TRUE(k->launch(c, args, 2, nullptr).isOk());
    for (size_t i = 0; i < total; ++i) {
      ASSERT_EQ(counts[i], 1) << "program " << i;
      ASSERT_EQ(size_t(coords[3 * i]) + g[0] * (size_t(coords[3 * i + 1]) + g[1] * size_t(coords[3 * i + 2])), i);
    }
  }
  std::vector<int32_t> counts(1, 0), coords(3, 0);
  void *pc = counts.data(), *pk = coords.data();
  void *args[] = {&pc, &pk};
  LaunchConfig empty;
  empty.grid = {0, 4, 4};
  EXPECT_TRUE(k->launch(empty, args, 2, nullptr).isOk());
  EXPECT_EQ(counts[0], 0);
  LaunchConfig tooBig;
  tooBig.grid = {0x80000000u, 1, 1};
  EXPECT_EQ(k->launch(tooBig, args, 2, nullptr).code(), StatusCode::InvalidArgument);
  // (2^20)^3 programs would run for years: y and z stop at 65535, as on CUDA.
  for (std::array<uint32_t, 3> g : {std::array<uint32_t, 3>{1u << 20, 1u << 20, 1u << 20}, {1, 65536, 1}, {1, 1, 65536}}) {
    LaunchConfig huge;
    huge.grid = g;
    Status st = k->launch(huge, args, 2, nullptr);
    EXPECT_EQ(st.code(), StatusCode::InvalidArgument);
    EXPECT_NE(st.message().find("65535"), std::string::npos) << st.message();
  }
  EXPECT_EQ(counts[0], 0);
}

TEST(HostLaunch, DeviceAssertBecomesAStatusAndPrintsReachStdout) {
  auto m = loadAbiKernels();
  ASSERT_TRUE(m);
  std::unique_ptr<Kernel> k;
  ASSERT_TRUE(m->getKernel("assert_kernel", 1, k).isOk());
  int32_t bad = 777;
  void *args[] = {&bad};
  LaunchConfig c;
  c.grid = {1000, 1, 1};
  testing::internal::CaptureStdout();
  Status st = k->launch(c, args, 1, nullptr);
  std::string printed = testing::internal::GetCapturedStdout();
  EXPECT_EQ(st.code(), StatusCode::AssertFailed);
  EXPECT_NE(st.message().find("kernel.py:42"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("x < 10 (pid 777)"), std::string::npos) << st.message();
  EXPECT_NE(printed.find("hello from the kernel"), std::string::npos) << printed;
  // The next launch starts clean.
  bad = -1;
  EXPECT_TRUE(k->launch(c, args, 1, nullptr).isOk());
}

TEST(HostLaunch, ConcurrentLaunchesFromManyThreads) {
  auto m = loadAbiKernels();
  ASSERT_TRUE(m);
  std::unique_ptr<Kernel> k;
  ASSERT_TRUE(m->getKernel("add_kernel", 4, k).isOk());
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      const int n = 5000 + t;
      std::vector<float> x(static_cast<size_t>(n), static_cast<float>(t)), y(static_cast<size_t>(n), 1.0f),
          out(static_cast<size_t>(n), 0.0f);
      void *px = x.data(), *py = y.data(), *po = out.data();
      int32_t nn = n;
      void *args[] = {&px, &py, &po, &nn};
      LaunchConfig c;
      c.grid = {uint32_t((n + 63) / 64), 1, 1};
      for (int rep = 0; rep < 20; ++rep)
        if (!k->launch(c, args, 4, nullptr).isOk() || out[size_t(n - 1)] != float(t) + 1.0f) ++failures;
    });
  for (auto &th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

// Device print records (Vulkan) become the text printf would print.
TEST(DevicePrint, FormatsRecordsAsPrintfWould) {
  using tessera::runtime::formatDevicePrint;
  double half = 0.5;
  uint64_t halfBits;
  std::memcpy(&halfBits, &half, sizeof half);
  EXPECT_EQ(formatDevicePrint("pid (%d, %d, %d) idx (%lld) x: %d\n", {0, 1, 2, 40, uint64_t(-7)}),
            "pid (0, 1, 2) idx (40) x: -7\n");
  // 32-bit conversions take the low half; %lld and %llu all 64 bits.
  EXPECT_EQ(formatDevicePrint("%u %d %lld %llu", {0xFFFFFFFFull, 0x1FFFFFFFFull, uint64_t(-2), uint64_t(-2)}),
            "4294967295 -1 -2 18446744073709551614");
  EXPECT_EQ(formatDevicePrint("0x%x 0x%llx %f %a 100%%", {0xABCDEF12345ull, 0xABCDEF12345ull, halfBits, halfBits}),
            "0xdef12345 0xabcdef12345 0.500000 0x1p-1 100%");
  EXPECT_EQ(formatDevicePrint("%5d|%-4u|%.2f", {3, 4, halfBits}), "    3|4   |0.50");
  EXPECT_EQ(formatDevicePrint("%d and %d", {1}), "1 and <missing>");
  EXPECT_EQ(formatDevicePrint("%p", {0x1000}), "0x1000");
  EXPECT_EQ(formatDevicePrint("trailing %", {}), "trailing %");
}
