// The host backend's device, memory, streams and events. The host's memory is
// the device's memory, so buffers are aligned malloc and copies are memcpy;
// streams run work as it is submitted, which keeps it in order trivially.
#include "runtime/host/HostBackend.h"
#include "runtime/host/HostInternal.h"
#include "runtime/BackendSupport.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <thread>
#include <unistd.h>

namespace tessera::runtime {

namespace {

// 64 bytes: a cache line, and more than the 16 the ":16" specialization needs.
constexpr size_t kAlignment = 64;

class HostDevice;

class HostBuffer final : public Buffer {
public:
  HostBuffer(Device &device, void *data, size_t size) : device_(device), data_(data), size_(size) {}
  ~HostBuffer() override { std::free(data_); }
  size_t size() const override { return size_; }
  void *devicePointer() const override { return data_; }
  Device &device() const override { return device_; }

private:
  Device &device_;
  void *data_;
  size_t size_;
};

class HostEvent final : public Event {
public:
  void record() { time_ = std::chrono::steady_clock::now(), recorded_ = true; }
  Status synchronize() override { return Status::ok(); }  // recorded work has already run
  Status elapsedMs(const Event &start, double &ms) const override {
    auto *s = dynamic_cast<const HostEvent *>(&start);
    if (!s) return {StatusCode::InvalidArgument, "elapsedMs: the start event is not a host event"};
    if (!recorded_ || !s->recorded_) return {StatusCode::InvalidArgument, "elapsedMs: an event was never recorded"};
    ms = std::chrono::duration<double, std::milli>(time_ - s->time_).count();
    return Status::ok();
  }

private:
  std::chrono::steady_clock::time_point time_{};
  bool recorded_ = false;
};

class HostStream final : public Stream {
public:
  explicit HostStream(Device &device) : device_(device) {}
  Device &device() const override { return device_; }
  Status synchronize() override { return Status::ok(); }
  Status record(Event &event) override {
    auto *e = dynamic_cast<HostEvent *>(&event);
    if (!e) return {StatusCode::InvalidArgument, "record: not a host event"};
    e->record();
    return Status::ok();
  }
  Status wait(Event &event) override {
    if (!dynamic_cast<HostEvent *>(&event)) return {StatusCode::InvalidArgument, "wait: not a host event"};
    return Status::ok();
  }

private:
  Device &device_;
};

std::string cpuModelName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0)
      if (size_t colon = line.find(':'); colon != std::string::npos) return line.substr(colon + 2);
  return "unknown CPU";
}

// [offset, offset + bytes) inside a buffer of `size`, without overflow.

int64_t vectorRegisterLanes() {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f")) return 32 * 16;
  if (__builtin_cpu_supports("avx")) return 16 * 8;
  return 16 * 4;
#else
  return 32 * 4;  // AArch64's 32 NEON registers
#endif
}

class HostDevice final : public Device {
public:
  HostDevice() : defaultStream_(*this) {}
  std::string name() const override {
    return "host: " + std::to_string(std::thread::hardware_concurrency()) + " x " + cpuModelName();
  }
  std::string backend() const override { return "host"; }
  int index() const override { return 0; }
  // Programs run one per hardware thread, each alone (a "warp" of one).
  Status attribute(std::string_view name, int64_t &value) const override {
    if (name == "multiprocessor_count") value = std::max(1u, std::thread::hardware_concurrency());
    else if (name == "warpSize") value = 1;
    // A core's vector registers in 32-bit lanes: with a program's warps
    // sharing them (tessera.Kernel.n_regs on the host), Triton's occupancy
    // arithmetic (registers per SM / registers per program) counts one
    // program per core, as the host runs them.
    else if (name == "max_num_regs") value = vectorRegisterLanes();
    // A program's tiles live on its thread's stack, or past a budget in a
    // per-thread heap area: what bounds them is memory, shared by the threads.
    else if (name == "max_shared_mem")
      value = int64_t(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE) / std::max(1u, std::thread::hardware_concurrency());
    else return Device::attribute(name, value);
    return Status::ok();
  }

  Status allocate(size_t bytes, std::unique_ptr<Buffer> &out) override {
    size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    if (rounded < bytes) return {StatusCode::OutOfMemory, "allocation of " + std::to_string(bytes) + " bytes overflows"};
    if (rounded == 0) rounded = kAlignment;  // a zero-byte buffer still has a distinct address
    void *p = std::aligned_alloc(kAlignment, rounded);
    if (!p) return {StatusCode::OutOfMemory, "cannot allocate " + std::to_string(bytes) + " bytes of host memory"};
    out = std::make_unique<HostBuffer>(*this, p, bytes);
    return Status::ok();
  }

  Status copyToDevice(Buffer &dst, size_t offset, const void *src, size_t bytes, Stream *stream) override {
    if (Status st = checkCopy(dst, offset, bytes, stream, src); !st) return st;
    if (bytes) std::memcpy(static_cast<char *>(dst.devicePointer()) + offset, src, bytes);
    return Status::ok();
  }

  Status copyToHost(void *dst, const Buffer &src, size_t offset, size_t bytes, Stream *stream) override {
    if (Status st = checkCopy(src, offset, bytes, stream, dst); !st) return st;
    if (bytes) std::memcpy(dst, static_cast<const char *>(src.devicePointer()) + offset, bytes);
    return Status::ok();
  }

  Status copyDeviceToDevice(Buffer &dst, size_t dstOffset, const Buffer &src, size_t srcOffset, size_t bytes,
                            Stream *stream) override {
    if (Status st = checkCopy(dst, dstOffset, bytes, stream, &dst); !st) return st;
    if (Status st = checkCopy(src, srcOffset, bytes, stream, &src); !st) return st;
    // memmove: the two ranges may be the same buffer.
    if (bytes) std::memmove(static_cast<char *>(dst.devicePointer()) + dstOffset, static_cast<const char *>(src.devicePointer()) + srcOffset, bytes);
    return Status::ok();
  }

  Status createStream(std::unique_ptr<Stream> &out) override {
    out = std::make_unique<HostStream>(*this);
    return Status::ok();
  }
  Status wrapNativeStream(void *, std::unique_ptr<Stream> &) override {
    return {StatusCode::Unsupported, "the host backend has no native streams to wrap"};
  }
  Stream &defaultStream() override { return defaultStream_; }
  Status createEvent(std::unique_ptr<Event> &out) override {
    out = std::make_unique<HostEvent>();
    return Status::ok();
  }
  std::vector<std::string> moduleFormats() const override { return {"elf-shared-object"}; }
  Status loadModule(std::string_view format, const void *binary, size_t size, std::unique_ptr<Module> &out) override {
    if (format != "elf-shared-object")
      return {StatusCode::Unsupported, "the host backend loads 'elf-shared-object' binaries, not '" + std::string(format) + "'"};
    return loadHostModule(*this, binary, size, out);
  }
  Status synchronize() override { return Status::ok(); }

private:
  Status checkCopy(const Buffer &buf, size_t offset, size_t bytes, Stream *stream, const void *host) {
    if (&buf.device() != this) return {StatusCode::InvalidArgument, "copy: the buffer belongs to another device"};
    if (!streamBelongsTo(stream, *this)) return {StatusCode::InvalidArgument, "copy: the stream belongs to another device"};
    if (!inRange(offset, bytes, buf.size()))
      return {StatusCode::InvalidArgument, "copy of " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
                                               " runs past the end of a " + std::to_string(buf.size()) + "-byte buffer"};
    if (bytes && !host) return {StatusCode::InvalidArgument, "copy: null host pointer"};
    return Status::ok();
  }

  HostStream defaultStream_;
};

class HostBackendImpl final : public Backend {
public:
  std::string name() const override { return "host"; }
  int deviceCount() const override { return 1; }
  Status device(int index, Device *&out) override {
    out = nullptr;
    if (index != 0) return {StatusCode::NotFound, "the host backend has one device (index 0), not " + std::to_string(index)};
    out = &device_;
    return Status::ok();
  }

private:
  HostDevice device_;
};

} // namespace

bool streamBelongsTo(const Stream *stream, const Device &device) { return !stream || &stream->device() == &device; }

Backend *hostBackend() {
  static HostBackendImpl backend;
  return &backend;
}

} // namespace tessera::runtime
