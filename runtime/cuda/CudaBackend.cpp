// The CUDA backend's probe, devices, memory, streams and events. Each device
// uses its PRIMARY context, the one the CUDA runtime (and so PyTorch) uses,
// so pointers and streams pass freely between Tessera and PyTorch.
#include "runtime/cuda/CudaBackend.h"
#include "runtime/cuda/CudaInternal.h"
#include "runtime/BackendSupport.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <unistd.h>

namespace tessera::runtime {

namespace {

class CudaBuffer final : public Buffer {
public:
  CudaBuffer(CudaDevice &device, CUdeviceptr ptr, size_t size) : device_(device), ptr_(ptr), size_(size) {}
  ~CudaBuffer() override {
    if (!cudaUsableHere()) return;  // a forked child: the parent's, and CUDA is unusable here
    ContextGuard guard(device_.driver(), device_.context());
    (void)device_.driver().cuMemFree(ptr_);  // fails only at driver teardown, when nothing is left to free
  }
  size_t size() const override { return size_; }
  void *devicePointer() const override { return reinterpret_cast<void *>(ptr_); }
  Device &device() const override { return device_; }
  CUdeviceptr ptr() const { return ptr_; }

private:
  CudaDevice &device_;
  CUdeviceptr ptr_;
  size_t size_;
};

class CudaEvent final : public Event {
public:
  CudaEvent(const CudaDriver &driver, CUcontext context, CUevent event) : driver_(driver), context_(context), event_(event) {}
  ~CudaEvent() override {
    if (!cudaUsableHere()) return;  // a forked child: the parent's, and CUDA is unusable here
    ContextGuard guard(driver_, context_);
    (void)driver_.cuEventDestroy(event_);
  }
  Status synchronize() override { return driver_.check(driver_.cuEventSynchronize(event_), "cuEventSynchronize", StatusCode::LaunchFailed); }
  Status elapsedMs(const Event &start, double &ms) const override {
    auto *s = dynamic_cast<const CudaEvent *>(&start);
    if (!s) return {StatusCode::InvalidArgument, "elapsedMs: the start event is not a CUDA event"};
    float f = 0;
    if (Status st = driver_.check(driver_.cuEventElapsedTime(&f, s->event_, event_), "cuEventElapsedTime", StatusCode::InvalidArgument); !st)
      return st;
    ms = f;
    return Status::ok();
  }
  CUevent handle() const { return event_; }

private:
  const CudaDriver &driver_;
  CUcontext context_;
  CUevent event_;
};


CUdeviceptr at(const Buffer &b, size_t offset) { return reinterpret_cast<CUdeviceptr>(b.devicePointer()) + offset; }

class CudaBackendImpl final : public Backend {
public:
  CudaBackendImpl(std::unique_ptr<CudaDriver> driver, int count) : driver_(std::move(driver)), devices_(size_t(count)) {}
  std::string name() const override { return "cuda"; }
  int deviceCount() const override { return int(devices_.size()); }

  Status device(int index, Device *&out) override {
    out = nullptr;
    if (index < 0 || size_t(index) >= devices_.size())
      return {StatusCode::NotFound, "the cuda backend has " + std::to_string(devices_.size()) + " device(s); there is no device " +
                                        std::to_string(index)};
    std::lock_guard<std::mutex> lock(mutex_);
    auto &slot = devices_[size_t(index)];
    if (!slot) {
      const CudaDriver &d = *driver_;
      CUdevice dev = 0;
      if (Status st = d.check(d.cuDeviceGet(&dev, index), "cuDeviceGet"); !st) return st;
      // Retained for the life of the process: devices are never destroyed, and
      // releasing at exit would race the driver's own teardown.
      CUcontext ctx = nullptr;
      if (Status st = d.check(d.cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain", StatusCode::Unavailable); !st)
        return st;
      slot = std::make_unique<CudaDevice>(d, index, dev, ctx);
    }
    out = slot.get();
    return Status::ok();
  }

private:
  std::unique_ptr<CudaDriver> driver_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<CudaDevice>> devices_;
};

// The process that called cuInit (0: none yet): its children by fork() cannot use CUDA.
std::atomic<pid_t> initializedIn{0};

// The whole probe: library, cuInit, at least one device.
Status probe(const std::string &path, std::unique_ptr<Backend> &out) {
  out.reset();
  if (Status st = cudaUsableHere(); !st) return st;
  std::unique_ptr<CudaDriver> drv;
  if (Status st = openCudaDriver(path, drv); !st) return st;
  CUresult init = drv->cuInit(0);
  initializedIn.store(getpid());  // even when it failed: the driver's state is the parent's now
  if (Status st = drv->check(init, "cuInit", StatusCode::Unavailable); !st)
    return {StatusCode::Unavailable, "no usable CUDA device: " + st.message()};
  int count = 0;
  if (Status st = drv->check(drv->cuDeviceGetCount(&count), "cuDeviceGetCount", StatusCode::Unavailable); !st)
    return {StatusCode::Unavailable, "no usable CUDA device: " + st.message()};
  if (count <= 0) return {StatusCode::Unavailable, "no usable CUDA device: the driver reports no devices"};
  out = std::make_unique<CudaBackendImpl>(std::move(drv), count);
  return Status::ok();
}

ProbedBackend &processBackend() {
  static ProbedBackend pb = [] {
    ProbedBackend r;
    const char *env = std::getenv("TESSERA_LIBCUDA");
    r.status = probe(env && *env ? env : "libcuda.so.1", r.backend);
    return r;
  }();
  return pb;
}

} // namespace

Status cudaUsableHere() {
  pid_t parent = initializedIn.load();
  if (parent == 0 || parent == getpid()) return Status::ok();
  return {StatusCode::Unavailable,
          "CUDA cannot be used in this process: it is a child of fork() (process " + std::to_string(getpid()) +
              "), and its parent (process " + std::to_string(parent) +
              ") had initialized CUDA; CUDA does not survive fork. Start workers with the 'spawn' or 'forkserver' "
              "method (multiprocessing.set_start_method('spawn'), DataLoader(multiprocessing_context='spawn')), or "
              "use CUDA only in the children; the host (\"cpu\") target works in a forked child"};
}

ContextGuard::ContextGuard(const CudaDriver &driver, CUcontext context) : driver_(driver) {
  status_ = cudaUsableHere();
  if (!status_) return;
  status_ = driver.check(driver.cuCtxGetCurrent(&previous_), "cuCtxGetCurrent");
  if (status_ && previous_ != context) {
    status_ = driver.check(driver.cuCtxSetCurrent(context), "cuCtxSetCurrent");
    switched_ = status_.isOk();
  }
}

ContextGuard::~ContextGuard() {
  if (switched_) (void)driver_.cuCtxSetCurrent(previous_);
}

CudaStream::~CudaStream() {
  if (!owned_) return;
  if (!cudaUsableHere()) return;  // a forked child: the parent's, and CUDA is unusable here
  ContextGuard guard(driver_, context_);
  (void)driver_.cuStreamDestroy(handle_);
}

Status CudaStream::synchronize() {
  ContextGuard guard(driver_, context_);
  if (!guard.status()) return guard.status();
  return driver_.check(driver_.cuStreamSynchronize(handle_), "cuStreamSynchronize", StatusCode::LaunchFailed);
}

Status CudaStream::record(Event &event) {
  auto *e = dynamic_cast<CudaEvent *>(&event);
  if (!e) return {StatusCode::InvalidArgument, "record: not a CUDA event"};
  ContextGuard guard(driver_, context_);
  if (!guard.status()) return guard.status();
  return driver_.check(driver_.cuEventRecord(e->handle(), handle_), "cuEventRecord", StatusCode::InvalidArgument);
}

Status CudaStream::wait(Event &event) {
  auto *e = dynamic_cast<CudaEvent *>(&event);
  if (!e) return {StatusCode::InvalidArgument, "wait: not a CUDA event"};
  ContextGuard guard(driver_, context_);
  if (!guard.status()) return guard.status();
  return driver_.check(driver_.cuStreamWaitEvent(handle_, e->handle(), 0), "cuStreamWaitEvent", StatusCode::InvalidArgument);
}

CudaDevice::CudaDevice(const CudaDriver &driver, int index, CUdevice device, CUcontext context)
    : driver_(driver), index_(index), device_(device), context_(context),
      defaultStream_(*this, driver, context, nullptr, /*owned=*/false) {
  char buf[256] = {};
  name_ = driver.cuDeviceGetName(buf, sizeof buf - 1, device) == CUDA_SUCCESS ? buf : "CUDA device " + std::to_string(index);
  int major = 0, minor = 0;
  if (driver.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) == CUDA_SUCCESS &&
      driver.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device) == CUDA_SUCCESS)
  {
    architecture_ = "sm_" + std::to_string(major) + std::to_string(minor);
    name_ += " (" + architecture_ + ")";
  }
}

Status CudaDevice::attribute(std::string_view name, int64_t &value) const {
  static const std::pair<const char *, CUdevice_attribute> kAttributes[] = {
      {"multiprocessor_count", CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
      {"max_shared_mem", CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN},
      {"max_num_regs", CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK},
      {"warpSize", CU_DEVICE_ATTRIBUTE_WARP_SIZE},
      {"sm_clock_rate", CU_DEVICE_ATTRIBUTE_CLOCK_RATE},
      {"mem_clock_rate", CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE},
      {"mem_bus_width", CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH},
      {"max_threads_per_block", CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
      {"l2_cache_size", CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE},
  };
  for (const auto &[known, attr] : kAttributes)
    if (name == known) {
      int v = 0;
      if (Status st = driver_.check(driver_.cuDeviceGetAttribute(&v, attr, device_), "cuDeviceGetAttribute",
                                    StatusCode::Unavailable); !st)
        return st;
      value = v;
      return Status::ok();
    }
  return Device::attribute(name, value);
}

Status CudaDevice::streamHandle(Stream *stream, CUstream &out) const {
  out = nullptr;
  if (!stream) return Status::ok();
  auto *s = dynamic_cast<CudaStream *>(stream);
  if (!s || &s->device() != this) return {StatusCode::InvalidArgument, "the stream belongs to another device"};
  out = s->handle();
  return Status::ok();
}

Status CudaDevice::allocate(size_t bytes, std::unique_ptr<Buffer> &out) {
  ContextGuard guard(driver_, context_);
  if (!guard.status()) return guard.status();
  CUdeviceptr p = 0;
  // cuMemAlloc rejects 0 bytes; a zero-size buffer still gets an address.
  if (Status st = driver_.check(driver_.cuMemAlloc(&p, bytes ? bytes : 1), "cuMemAlloc", StatusCode::OutOfMemory); !st)
    return {st.code(), st.message() + " (allocating " + std::to_string(bytes) + " bytes on " + name_ + ")"};
  out = std::make_unique<CudaBuffer>(*this, p, bytes);
  return Status::ok();
}

Status CudaDevice::checkCopy(const Buffer &buf, size_t offset, size_t bytes) const {
  if (&buf.device() != this) return {StatusCode::InvalidArgument, "copy: the buffer belongs to another device"};
  if (!inRange(offset, bytes, buf.size()))
    return {StatusCode::InvalidArgument, "copy of " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
                                             " runs past the end of a " + std::to_string(buf.size()) + "-byte buffer"};
  return Status::ok();
}

// Copies that touch host memory are complete when they return (the stream is
// synchronized after an asynchronous copy): the caller may free or read its
// host memory at once, as on the host backend. Device-to-device copies stay
// asynchronous in stream order.
Status CudaDevice::copyToDevice(Buffer &dst, size_t offset, const void *src, size_t bytes, Stream *stream) {
  if (Status st = checkCopy(dst, offset, bytes); !st) return st;
  if (bytes && !src) return {StatusCode::InvalidArgument, "copy: null host pointer"};
  CUstream s;
  if (Status st = streamHandle(stream, s); !st) return st;
  if (!bytes) return Status::ok();
  ContextGuard guard(driver_, context_);
  if (!guard.status()) return guard.status();
  if (!s) return driver_.check(driver_.cuMemcpyHtoD(at(dst, offset), src, bytes), "cuMemcpyHtoD");
  if (Status st = driver_.check(driver_.cuMemcpyHtoDAsync(at(dst, offset), src, bytes, s), "cuMemcpyHtoDAsync"); !st) return st;
  return driver_.check(driver_.cuStreamSynchronize(s), "cuStreamSynchronize", StatusCode::LaunchFailed);
}

Status CudaDevice::copyToHost(void *dst, const Buffer &src, size_t offset, size_t bytes, Stream *stream) {
  if (Status st = checkCopy(src, offset, bytes); !st) return st;
  if (bytes && !dst) return {StatusCode::InvalidArgument, "copy: null host pointer"};
  CUstream s;
  if (Status st = streamHandle(stream, s); !st) return st;
  if (!bytes) return Status::ok();
  ContextGuard guard(driver_, context_);
  if (!guard.status()) return guard.status();
  if (!s) return driver_.check(driver_.cuMemcpyDtoH(dst, at(src, offset), bytes), "cuMemcpyDtoH");
  if (Status st = driver_.check(driver_.cuMemcpyDtoHAsync(dst, at(src, offset), bytes, s), "cuMemcpyDtoHAsync"); !st) return st;
  return driver_.check(driver_.cuStreamSynchronize(s), "cuStreamSynchronize", StatusCode::LaunchFailed);
}

Status CudaDevice::copyDeviceToDevice(Buffer &dst, size_t dstOffset, const Buffer &src, size_t srcOffset, size_t bytes,
                                      Stream *stream) {
  if (Status st = checkCopy(dst, dstOffset, bytes); !st) return st;
  if (Status st = checkCopy(src, srcOffset, bytes); !st) return st;
  CUstream s;
  if (Status st = streamHandle(stream, s); !st) return st;
  if (!bytes) return Status::ok();
  ContextGuard guard(driver_, context_);
  if (!guard.status()) return guard.status();
  return driver_.check(driver_.cuMemcpyDtoDAsync(at(dst, dstOffset), at(src, srcOffset), bytes, s), "cuMemcpyDtoDAsync");
}

Status CudaDevice::createStream(std::unique_ptr<Stream> &out) {
  ContextGuard guard(driver_, context_);
  if (!guard.status()) return guard.status();
  CUstream s = nullptr;
  if (Status st = driver_.check(driver_.cuStreamCreate(&s, CU_STREAM_DEFAULT), "cuStreamCreate"); !st) return st;
  out = std::make_unique<CudaStream>(*this, driver_, context_, s, /*owned=*/true);
  return Status::ok();
}

Status CudaDevice::wrapNativeStream(void *handle, std::unique_ptr<Stream> &out) {
  // The handle is the caller's CUstream (torch.cuda.current_stream().cuda_stream);
  // it must belong to this device's primary context, which only the driver
  // can tell when work is submitted.
  out = std::make_unique<CudaStream>(*this, driver_, context_, static_cast<CUstream>(handle), /*owned=*/false);
  return Status::ok();
}

Status CudaDevice::createEvent(std::unique_ptr<Event> &out) {
  ContextGuard guard(driver_, context_);
  if (!guard.status()) return guard.status();
  CUevent e = nullptr;
  if (Status st = driver_.check(driver_.cuEventCreate(&e, CU_EVENT_DEFAULT), "cuEventCreate"); !st) return st;
  out = std::make_unique<CudaEvent>(driver_, context_, e);
  return Status::ok();
}

Status CudaDevice::synchronize() {
  ContextGuard guard(driver_, context_);
  if (!guard.status()) return guard.status();
  return driver_.check(driver_.cuCtxSynchronize(), "cuCtxSynchronize", StatusCode::LaunchFailed);
}

Backend *cudaBackend() { return cudaUsableHere() ? processBackend().backend.get() : nullptr; }

Status cudaBackendStatus() {
  if (Status st = cudaUsableHere(); !st) return st;
  return processBackend().status;
}

Status openCudaBackend(const std::string &path, std::unique_ptr<Backend> &out) { return probe(path, out); }

} // namespace tessera::runtime
