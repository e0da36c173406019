// The HIP backend's probe, devices, memory, streams, events and modules.
// HIP keeps a current device per thread; every call that needs one sets it
// for its duration and restores the caller's (PyTorch's) afterwards. Streams
// wrapped from a caller (torch.cuda.current_stream() on ROCm's PyTorch is a
// hipStream_t) interoperate directly.
#include "runtime/hip/HipBackend.h"

#include "runtime/BackendSupport.h"
#include "runtime/Sha256.h"
#include "runtime/hip/HipApi.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

namespace tessera::runtime {

namespace {

class DeviceGuard {
public:
  DeviceGuard(const HipApi &api, int device) : api_(api) {
    if (api_.hipGetDevice(&previous_) != hip::kSuccess) previous_ = -1;
    status_ = previous_ == device ? Status::ok() : api_.check(api_.hipSetDevice(device), "hipSetDevice");
  }
  ~DeviceGuard() {
    if (previous_ >= 0) (void)api_.hipSetDevice(previous_);
  }
  const Status &status() const { return status_; }

private:
  const HipApi &api_;
  int previous_ = -1;
  Status status_;
};

class HipDevice;

class HipBuffer final : public Buffer {
public:
  HipBuffer(HipDevice &device, void *ptr, size_t size) : device_(device), ptr_(ptr), size_(size) {}
  ~HipBuffer() override;
  size_t size() const override { return size_; }
  void *devicePointer() const override { return ptr_; }
  Device &device() const override;

private:
  HipDevice &device_;
  void *ptr_;
  size_t size_;
};

class HipEvent final : public Event {
public:
  HipEvent(const HipApi &api, hip::Event event) : api_(api), event_(event) {}
  ~HipEvent() override { (void)api_.hipEventDestroy(event_); }
  Status synchronize() override {
    return api_.check(api_.hipEventSynchronize(event_), "hipEventSynchronize", StatusCode::LaunchFailed);
  }
  Status elapsedMs(const Event &start, double &ms) const override {
    auto *s = dynamic_cast<const HipEvent *>(&start);
    if (!s) return {StatusCode::InvalidArgument, "elapsedMs: the start event is not a HIP event"};
    float f = 0;
    if (Status st = api_.check(api_.hipEventElapsedTime(&f, s->event_, event_), "hipEventElapsedTime",
                               StatusCode::InvalidArgument);
        !st)
      return st;
    ms = f;
    return Status::ok();
  }
  hip::Event handle() const { return event_; }

private:
  const HipApi &api_;
  hip::Event event_;
};

class HipStream final : public Stream {
public:
  HipStream(Device &device, const HipApi &api, hip::Stream handle, bool owned)
      : device_(device), api_(api), handle_(handle), owned_(owned) {}
  ~HipStream() override {
    if (owned_) (void)api_.hipStreamDestroy(handle_);
  }
  Device &device() const override { return device_; }
  Status synchronize() override {
    return api_.check(api_.hipStreamSynchronize(handle_), "hipStreamSynchronize", StatusCode::LaunchFailed);
  }
  Status record(Event &event) override {
    auto *e = dynamic_cast<HipEvent *>(&event);
    if (!e) return {StatusCode::InvalidArgument, "record: the event is not a HIP event"};
    return api_.check(api_.hipEventRecord(e->handle(), handle_), "hipEventRecord");
  }
  Status wait(Event &event) override {
    auto *e = dynamic_cast<HipEvent *>(&event);
    if (!e) return {StatusCode::InvalidArgument, "wait: the event is not a HIP event"};
    return api_.check(api_.hipStreamWaitEvent(handle_, e->handle(), 0), "hipStreamWaitEvent");
  }
  hip::Stream handle() const { return handle_; }

private:
  Device &device_;
  const HipApi &api_;
  hip::Stream handle_;
  bool owned_;
};

// A loaded hipModule_t, shared by the Module object and its kernels and
// cached per device by the code object's hash.
struct LoadedHipModule {
  const HipApi *api = nullptr;
  hip::ModuleHandle module = nullptr;
  std::vector<unsigned char> image;  // the code object, for its kernels' descriptors
  ~LoadedHipModule() {
    if (module) (void)api->hipModuleUnload(module);
  }
};

class HipKernel final : public Kernel {
public:
  HipKernel(HipDevice &device, std::shared_ptr<LoadedHipModule> module, hip::Function fn, std::string name,
            size_t numArgs, KernelDescriptor descriptor)
      : device_(device), module_(std::move(module)), fn_(fn), name_(std::move(name)), numArgs_(numArgs),
        descriptor_(descriptor) {}
  const std::string &name() const override { return name_; }
  Status launch(const LaunchConfig &config, void **args, size_t numArgs, Stream *stream) override;

private:
  HipDevice &device_;
  std::shared_ptr<LoadedHipModule> module_;
  hip::Function fn_;
  std::string name_;
  size_t numArgs_;
  KernelDescriptor descriptor_;
};

class HipModule final : public Module {
public:
  HipModule(HipDevice &device, std::shared_ptr<LoadedHipModule> module) : device_(device), module_(std::move(module)) {}
  Status getKernel(const std::string &entry, size_t numArgs, std::unique_ptr<Kernel> &out) override;

private:
  HipDevice &device_;
  std::shared_ptr<LoadedHipModule> module_;
};


char *at(const Buffer &b, size_t offset) { return static_cast<char *>(b.devicePointer()) + offset; }

class HipDevice final : public Device {
public:
  HipDevice(const HipApi &api, int index) : api_(api), index_(index), defaultStream_(*this, api, nullptr, false) {
    char name[256] = {0};
    name_ = api_.hipDeviceGetName(name, sizeof name - 1, index) == hip::kSuccess ? name : "AMD GPU";
    architecture_ = api_.architecture(index);
    std::string gfx = architecture_.substr(0, architecture_.find(':'));
    if (!gfx.empty()) name_ += " (" + gfx + ")";
  }
  std::string name() const override { return name_; }
  std::string backend() const override { return "hip"; }
  int index() const override { return index_; }
  // The code generators' name: "gfx90a" (HIP's "gfx90a:sramecc+:xnack-" less its features).
  std::string architecture() const override { return architecture_.substr(0, architecture_.find(':')); }
  const HipApi &api() const { return api_; }

  Status allocate(size_t bytes, std::unique_ptr<Buffer> &out) override {
    DeviceGuard guard(api_, index_);
    if (!guard.status()) return guard.status();
    void *ptr = nullptr;
    // A zero-byte buffer still gets a distinct address.
    if (Status st = api_.check(api_.hipMalloc(&ptr, bytes ? bytes : 1), "hipMalloc", StatusCode::OutOfMemory); !st)
      return st;
    out = std::make_unique<HipBuffer>(*this, ptr, bytes);
    return Status::ok();
  }
  Status copyToDevice(Buffer &dst, size_t offset, const void *src, size_t bytes, Stream *stream) override {
    return copy(at(dst, offset), src, bytes, hip::kHostToDevice, stream, &dst, offset, "copyToDevice");
  }
  Status copyToHost(void *dst, const Buffer &src, size_t offset, size_t bytes, Stream *stream) override {
    return copy(dst, at(src, offset), bytes, hip::kDeviceToHost, stream, &src, offset, "copyToHost");
  }
  Status copyDeviceToDevice(Buffer &dst, size_t dstOffset, const Buffer &src, size_t srcOffset, size_t bytes,
                            Stream *stream) override {
    if (&src.device() != this || !inRange(srcOffset, bytes, src.size()))
      return {StatusCode::InvalidArgument, "copyDeviceToDevice: the source range is not in a buffer of this device"};
    return copy(at(dst, dstOffset), at(src, srcOffset), bytes, hip::kDeviceToDevice, stream, &dst, dstOffset,
                "copyDeviceToDevice");
  }
  Status createStream(std::unique_ptr<Stream> &out) override {
    DeviceGuard guard(api_, index_);
    if (!guard.status()) return guard.status();
    hip::Stream s = nullptr;
    if (Status st = api_.check(api_.hipStreamCreate(&s), "hipStreamCreate"); !st) return st;
    out = std::make_unique<HipStream>(*this, api_, s, true);
    return Status::ok();
  }
  Status wrapNativeStream(void *handle, std::unique_ptr<Stream> &out) override {
    out = std::make_unique<HipStream>(*this, api_, static_cast<hip::Stream>(handle), false);
    return Status::ok();
  }
  Stream &defaultStream() override { return defaultStream_; }
  Status createEvent(std::unique_ptr<Event> &out) override {
    DeviceGuard guard(api_, index_);
    if (!guard.status()) return guard.status();
    hip::Event e = nullptr;
    if (Status st = api_.check(api_.hipEventCreate(&e), "hipEventCreate"); !st) return st;
    out = std::make_unique<HipEvent>(api_, e);
    return Status::ok();
  }
  std::vector<std::string> moduleFormats() const override { return {"hsaco"}; }

  Status loadModule(std::string_view format, const void *binary, size_t size, std::unique_ptr<Module> &out) override {
    if (format != "hsaco")
      return {StatusCode::InvalidArgument, "the HIP backend loads HSA code objects (\"hsaco\"), not \"" + std::string(format) + "\""};
    if (Status st = checkCodeObject(binary, size, architecture()); !st) return st;
    Sha256 h;
    h.update(binary, size);
    std::string key = h.hexDigest();
    std::lock_guard<std::mutex> lock(cacheMutex_);
    std::shared_ptr<LoadedHipModule> loaded = cache_[key].lock();
    if (!loaded) {
      DeviceGuard guard(api_, index_);
      if (!guard.status()) return guard.status();
      loaded = std::make_shared<LoadedHipModule>();
      loaded->api = &api_;
      loaded->image.assign(static_cast<const unsigned char *>(binary), static_cast<const unsigned char *>(binary) + size);
      if (Status st = api_.check(api_.hipModuleLoadData(&loaded->module, binary), "hipModuleLoadData",
                                 StatusCode::InvalidArgument);
          !st) {
        loaded->module = nullptr;
        return st;
      }
      cache_[key] = loaded;
    }
    out = std::make_unique<HipModule>(*this, loaded);
    return Status::ok();
  }
  Status synchronize() override {
    DeviceGuard guard(api_, index_);
    if (!guard.status()) return guard.status();
    return api_.check(api_.hipDeviceSynchronize(), "hipDeviceSynchronize", StatusCode::LaunchFailed);
  }

  // The hipStream_t for `stream` (null = the default stream), or an error
  // when it belongs to another device.
  Status streamHandle(Stream *stream, hip::Stream &out) const {
    out = nullptr;
    if (!stream) return Status::ok();
    auto *s = dynamic_cast<HipStream *>(stream);
    if (!s || &s->device() != this) return {StatusCode::InvalidArgument, "the stream does not belong to this HIP device"};
    out = s->handle();
    return Status::ok();
  }

private:
  Status copy(void *dst, const void *src, size_t bytes, hip::MemcpyKind kind, Stream *stream, const Buffer *buffer,
              size_t offset, const char *what) {
    if (&buffer->device() != this || !inRange(offset, bytes, buffer->size()))
      return {StatusCode::InvalidArgument, std::string(what) + ": the range is not in a buffer of this device"};
    if (bytes == 0) return Status::ok();
    hip::Stream s = nullptr;
    if (Status st = streamHandle(stream, s); !st) return st;
    DeviceGuard guard(api_, index_);
    if (!guard.status()) return guard.status();
    if (Status st = api_.check(api_.hipMemcpyAsync(dst, src, bytes, kind, s), "hipMemcpyAsync"); !st) return st;
    // Host copies complete before returning, as on every backend.
    if (kind != hip::kDeviceToDevice)
      return api_.check(api_.hipStreamSynchronize(s), "hipStreamSynchronize", StatusCode::LaunchFailed);
    return Status::ok();
  }

  const HipApi &api_;
  int index_;
  std::string name_, architecture_;
  HipStream defaultStream_;
  std::mutex cacheMutex_;
  std::map<std::string, std::weak_ptr<LoadedHipModule>> cache_;
};

HipBuffer::~HipBuffer() {
  DeviceGuard guard(device_.api(), device_.index());
  (void)device_.api().hipFree(ptr_);
}
Device &HipBuffer::device() const { return device_; }

Status HipModule::getKernel(const std::string &entry, size_t numArgs, std::unique_ptr<Kernel> &out) {
  KernelDescriptor descriptor;
  if (Status st = readKernelDescriptor(module_->image.data(), module_->image.size(), entry, descriptor); !st) return st;
  DeviceGuard guard(device_.api(), device_.index());
  if (!guard.status()) return guard.status();
  hip::Function fn = nullptr;
  if (Status st = device_.api().check(device_.api().hipModuleGetFunction(&fn, module_->module, entry.c_str()),
                                      ("hipModuleGetFunction(\"" + entry + "\")").c_str(), StatusCode::NotFound);
      !st)
    return st;
  out = std::make_unique<HipKernel>(device_, module_, fn, entry, numArgs, descriptor);
  return Status::ok();
}

Status HipKernel::launch(const LaunchConfig &config, void **args, size_t numArgs, Stream *stream) {
  if (Status st = checkArgs(args, numArgs, numArgs_); !st) return st;
  if (config.threadsPerProgram < 1 || config.threadsPerProgram > 1024)
    return {StatusCode::InvalidArgument, "kernel '" + name_ + "': " + std::to_string(config.threadsPerProgram) +
                                             " threads per program (HIP allows 1 to 1024)"};
  // The code object states its LDS (a sized group segment); any more is
  // requested at launch.
  int64_t dynamicLds = std::max<int64_t>(0, config.sharedMemoryBytes - descriptor_.ldsBytes);
  if (config.sharedMemoryBytes < 0 || descriptor_.ldsBytes + dynamicLds > 64 * 1024)
    return {StatusCode::InvalidArgument, "kernel '" + name_ + "': " + std::to_string(descriptor_.ldsBytes) +
                                             " bytes of LDS in its code object and " + std::to_string(dynamicLds) +
                                             " more at launch (AMD GPUs have 64 KiB per work-group)"};
  if (config.threadsPerProgram % descriptor_.waveSize && config.threadsPerProgram > descriptor_.waveSize)
    return {StatusCode::InvalidArgument, "kernel '" + name_ + "': " + std::to_string(config.threadsPerProgram) +
                                             " threads per program is not a whole number of its waves of " +
                                             std::to_string(descriptor_.waveSize)};
  hip::Stream s = nullptr;
  if (Status st = device_.streamHandle(stream, s); !st) return st;
  DeviceGuard guard(device_.api(), device_.index());
  if (!guard.status()) return guard.status();
  return device_.api().check(device_.api().hipModuleLaunchKernel(fn_, config.grid[0], config.grid[1], config.grid[2],
                                                                 unsigned(config.threadsPerProgram), 1, 1,
                                                                 unsigned(dynamicLds), s, args, nullptr),
                             ("hipModuleLaunchKernel(\"" + name_ + "\")").c_str(), StatusCode::LaunchFailed);
}

class HipBackendImpl final : public Backend {
public:
  HipBackendImpl(std::unique_ptr<HipApi> api, int count) : api_(std::move(api)) {
    for (int i = 0; i < count; ++i) devices_.push_back(std::make_unique<HipDevice>(*api_, i));
  }
  std::string name() const override { return "hip"; }
  int deviceCount() const override { return int(devices_.size()); }
  Status device(int index, Device *&out) override {
    out = nullptr;
    if (index < 0 || index >= int(devices_.size()))
      return noSuchDevice("HIP", index, devices_.size());
    out = devices_[size_t(index)].get();
    return Status::ok();
  }

private:
  std::unique_ptr<HipApi> api_;
  std::vector<std::unique_ptr<HipDevice>> devices_;
};

ProbedBackend &processProbe() {
  static ProbedBackend probe = [] {
    ProbedBackend p;
    const char *env = std::getenv("TESSERA_LIBAMDHIP64");
    p.status = openHipBackend(env && *env ? env : "libamdhip64.so", p.backend);
    if (!p.status && !(env && *env)) {
      // Debian and Ubuntu ship only the versioned name without the -dev package.
      std::unique_ptr<Backend> versioned;
      Status st = openHipBackend("libamdhip64.so.5", versioned);
      if (st || st.message().find("could not be loaded") == std::string::npos) p.status = st, p.backend = std::move(versioned);
    }
    return p;
  }();
  return probe;
}

} // namespace

Status openHipBackend(const std::string &path, std::unique_ptr<Backend> &out) {
  out.reset();
  std::unique_ptr<HipApi> api;
  if (Status st = openHipApi(path, api); !st) return st;
  if (Status st = api->check(api->hipInit(0), "hipInit", StatusCode::Unavailable); !st)
    return {StatusCode::Unavailable, st.message() + " (no ROCm device here?)"};
  int count = 0;
  if (Status st = api->check(api->hipGetDeviceCount(&count), "hipGetDeviceCount", StatusCode::Unavailable); !st)
    return st;
  if (count <= 0) return {StatusCode::Unavailable, path + " reports no devices (no ROCm device here)"};
  out = std::make_unique<HipBackendImpl>(std::move(api), count);
  return Status::ok();
}

Backend *hipBackend() { return processProbe().backend.get(); }
Status hipBackendStatus() { return processProbe().status; }

} // namespace tessera::runtime
