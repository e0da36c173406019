// The Level Zero backend's probe, devices, memory, streams, events and
// modules. One context per driver; a stream is an immediate command list
// (in order, asynchronous); events are host-visible Level Zero events that
// also write a global timestamp, for timing.
#include "runtime/level_zero/LevelZeroBackend.h"

#include "runtime/BackendSupport.h"
#include "runtime/level_zero/LevelZeroApi.h"
#include "runtime/OpenClSpirv.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <vector>

namespace tessera::runtime {

namespace {

class ZeDevice;

// A host-visible event in a pool of its own.
struct HostEvent {
  const ZeApi *api = nullptr;
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t event = nullptr;
  ~HostEvent() {
    if (event) api->zeEventDestroy(event);
    if (pool) api->zeEventPoolDestroy(pool);
  }
  Status create(const ZeApi &zeApi, ze_context_handle_t context, ze_device_handle_t device) {
    api = &zeApi;
    ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    if (Status st = api->check(api->zeEventPoolCreate(context, &pd, 1, &device, &pool), "zeEventPoolCreate"); !st) {
      pool = nullptr;
      return st;
    }
    ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    if (Status st = api->check(api->zeEventCreate(pool, &ed, &event), "zeEventCreate"); !st) {
      event = nullptr;
      return st;
    }
    return Status::ok();
  }
  Status wait() const { return api->check(api->zeEventHostSynchronize(event, UINT64_MAX), "zeEventHostSynchronize", StatusCode::LaunchFailed); }
};

class ZeStream final : public Stream {
public:
  ZeStream(ZeDevice &device, ze_command_list_handle_t list, bool isDefault)
      : device_(device), list_(list), isDefault_(isDefault) {}
  ~ZeStream() override;
  Device &device() const override;
  Status init();
  Status synchronize() override;
  Status record(Event &event) override;
  Status wait(Event &event) override;
  ze_command_list_handle_t list() const { return list_; }

private:
  ZeDevice &device_;
  ze_command_list_handle_t list_;
  bool isDefault_;
  HostEvent done_;  // signalled by the barrier synchronize() appends
  std::mutex mutex_;
};

class ZeEvent final : public Event {
public:
  explicit ZeEvent(ZeDevice &device) : device_(device) {}
  ~ZeEvent() override;
  Status init();
  Status synchronize() override { return recorded_ ? host_.wait() : Status::ok(); }
  Status elapsedMs(const Event &start, double &ms) const override;
  Status recordOn(ze_command_list_handle_t list);
  ze_event_handle_t handle() const { return host_.event; }

private:
  ZeDevice &device_;
  HostEvent host_;
  uint64_t *stamp_ = nullptr;  // host memory the device writes its timestamp to
  bool recorded_ = false;
};

class ZeBuffer final : public Buffer {
public:
  ZeBuffer(ZeDevice &device, void *ptr, size_t size) : device_(device), ptr_(ptr), size_(size) {}
  ~ZeBuffer() override;
  size_t size() const override { return size_; }
  void *devicePointer() const override { return ptr_; }
  Device &device() const override;

private:
  ZeDevice &device_;
  void *ptr_;
  size_t size_;
};

struct LoadedZeModule {
  const ZeApi *api = nullptr;
  ze_module_handle_t module = nullptr;
  SpirvModuleInfo info;
  ~LoadedZeModule() {
    if (module) api->zeModuleDestroy(module);
  }
};

class ZeKernel final : public Kernel {
public:
  ZeKernel(ZeDevice &device, std::shared_ptr<LoadedZeModule> module, ze_kernel_handle_t kernel, std::string name,
           SpirvKernelInfo info, std::unique_ptr<Buffer> record)
      : device_(device), module_(std::move(module)), kernel_(kernel), name_(std::move(name)), info_(std::move(info)),
        record_(std::move(record)) {}
  ~ZeKernel() override { module_->api->zeKernelDestroy(kernel_); }
  const std::string &name() const override { return name_; }
  Status launch(const LaunchConfig &config, void **args, size_t numArgs, Stream *stream) override;

private:
  ZeDevice &device_;
  std::shared_ptr<LoadedZeModule> module_;
  ze_kernel_handle_t kernel_;
  std::string name_;
  SpirvKernelInfo info_;
  std::unique_ptr<Buffer> record_;  // the device-assertion record, for kernels with assertions
  std::mutex mutex_;  // arguments are kernel state until the launch is appended
};

class ZeModule final : public Module {
public:
  ZeModule(ZeDevice &device, std::shared_ptr<LoadedZeModule> module) : device_(device), module_(std::move(module)) {}
  Status getKernel(const std::string &entry, size_t numArgs, std::unique_ptr<Kernel> &out) override;

private:
  ZeDevice &device_;
  std::shared_ptr<LoadedZeModule> module_;
};

class ZeDevice final : public Device {
public:
  ZeDevice(const ZeApi &api, ze_context_handle_t context, ze_device_handle_t device, int index)
      : api_(api), context_(context), device_(device), index_(index) {
    props_.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
    compute_.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
    modules_.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
  }
  Status init() {
    if (Status st = api_.check(api_.zeDeviceGetProperties(device_, &props_), "zeDeviceGetProperties"); !st) return st;
    if (Status st = api_.check(api_.zeDeviceGetComputeProperties(device_, &compute_), "zeDeviceGetComputeProperties"); !st)
      return st;
    if (Status st = api_.check(api_.zeDeviceGetModuleProperties(device_, &modules_), "zeDeviceGetModuleProperties"); !st)
      return st;
    ze_command_list_handle_t list = nullptr;
    if (Status st = newList(list); !st) return st;
    default_ = std::make_unique<ZeStream>(*this, list, true);
    return default_->init();
  }

  std::string name() const override { return props_.name[0] ? std::string(props_.name) : "Level Zero device"; }
  std::string backend() const override { return "level_zero"; }
  int index() const override { return index_; }
  // "sg<subgroup size>-<shared KiB>k" (the spirv target's arch): 16 lanes
  // where the device has them (Intel GPUs run 8, 16 and 32), else its largest.
  std::string architecture() const override {
    return "sg" + std::to_string(subgroupSize()) + "-" + std::to_string(compute_.maxSharedLocalMemory / 1024) + "k";
  }
  Status attribute(std::string_view name, int64_t &value) const override {
    if (name == "warpSize") value = subgroupSize();
    else if (name == "max_shared_mem") value = compute_.maxSharedLocalMemory;
    else if (name == "max_threads_per_block") value = compute_.maxTotalGroupSize;
    else return Device::attribute(name, value);
    return Status::ok();
  }
  uint32_t subgroupSize() const {
    uint32_t best = 0;
    for (uint32_t i = 0; i < std::min<uint32_t>(compute_.numSubGroupSizes, ZE_SUBGROUPSIZE_COUNT); ++i) {
      if (compute_.subGroupSizes[i] == 16) return 16;
      best = std::max(best, compute_.subGroupSizes[i]);
    }
    return best ? best : 16;
  }
  bool supportsSubgroupSize(uint32_t sg) const {
    for (uint32_t i = 0; i < std::min<uint32_t>(compute_.numSubGroupSizes, ZE_SUBGROUPSIZE_COUNT); ++i)
      if (compute_.subGroupSizes[i] == sg) return true;
    return false;
  }
  const ze_device_compute_properties_t &compute() const { return compute_; }
  // A capability the device lacks is a clear refusal, not the driver's failure.
  Status checkCapabilities(const std::vector<uint32_t> &capabilities) const {
    // SPIR-V capabilities (Float16, Float64, Int64Atomics) and the module
    // property flags that grant them.
    static constexpr struct {
      uint32_t capability;
      ze_device_module_flags_t flag;
      const char *name;
    } kNeeds[] = {{9, ZE_DEVICE_MODULE_FLAG_FP16, "ZE_DEVICE_MODULE_FLAG_FP16"},
                  {10, ZE_DEVICE_MODULE_FLAG_FP64, "ZE_DEVICE_MODULE_FLAG_FP64"},
                  {12, ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS, "ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS"}};
    for (uint32_t capability : capabilities)
      for (const auto &need : kNeeds)
        if (need.capability == capability && !(modules_.flags & need.flag))
          return {StatusCode::Unsupported, "the kernel needs SPIR-V capability " + std::to_string(capability) +
                                               " (Level Zero's " + need.name + "), which " + name() + " does not have"};
    return Status::ok();
  }
  // Nanoseconds per timestamp tick, and the ticks' valid bits.
  double nsPerTick() const { return props_.timerResolution ? double(props_.timerResolution) : 1.0; }
  uint64_t tickMask() const {
    uint32_t bits = props_.timestampValidBits;
    return bits == 0 || bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  }
  const ZeApi &api() const { return api_; }
  ze_context_handle_t context() const { return context_; }
  ze_device_handle_t handle() const { return device_; }

  Status allocate(size_t bytes, std::unique_ptr<Buffer> &out) override {
    ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
    void *ptr = nullptr;
    // A zero-byte buffer still gets a distinct address.
    if (Status st = api_.check(api_.zeMemAllocDevice(context_, &desc, bytes ? bytes : 1, 64, device_, &ptr),
                               "zeMemAllocDevice", StatusCode::OutOfMemory);
        !st)
      return st;
    out = std::make_unique<ZeBuffer>(*this, ptr, bytes);
    return Status::ok();
  }
  Status copyToDevice(Buffer &dst, size_t offset, const void *src, size_t bytes, Stream *stream) override {
    if (Status st = checkBuffer(dst, offset, bytes, "copyToDevice"); !st) return st;
    return copy(static_cast<char *>(dst.devicePointer()) + offset, src, bytes, stream, true);
  }
  Status copyToHost(void *dst, const Buffer &src, size_t offset, size_t bytes, Stream *stream) override {
    if (Status st = checkBuffer(src, offset, bytes, "copyToHost"); !st) return st;
    return copy(dst, static_cast<const char *>(src.devicePointer()) + offset, bytes, stream, true);
  }
  Status copyDeviceToDevice(Buffer &dst, size_t dstOffset, const Buffer &src, size_t srcOffset, size_t bytes,
                            Stream *stream) override {
    if (Status st = checkBuffer(dst, dstOffset, bytes, "copyDeviceToDevice"); !st) return st;
    if (Status st = checkBuffer(src, srcOffset, bytes, "copyDeviceToDevice"); !st) return st;
    return copy(static_cast<char *>(dst.devicePointer()) + dstOffset,
                static_cast<const char *>(src.devicePointer()) + srcOffset, bytes, stream, false);
  }
  Status createStream(std::unique_ptr<Stream> &out) override {
    ze_command_list_handle_t list = nullptr;
    if (Status st = newList(list); !st) return st;
    auto s = std::make_unique<ZeStream>(*this, list, false);
    if (Status st = s->init(); !st) return st;
    std::lock_guard<std::mutex> lock(streamsMutex_);
    streams_.insert(s.get());
    out = std::move(s);
    return Status::ok();
  }
  Status wrapNativeStream(void *, std::unique_ptr<Stream> &) override {
    return {StatusCode::Unsupported, "the Level Zero backend does not wrap native command lists"};
  }
  Stream &defaultStream() override { return *default_; }
  Status createEvent(std::unique_ptr<Event> &out) override {
    auto e = std::make_unique<ZeEvent>(*this);
    if (Status st = e->init(); !st) return st;
    out = std::move(e);
    return Status::ok();
  }
  std::vector<std::string> moduleFormats() const override { return {"spirv"}; }
  Status loadModule(std::string_view format, const void *binary, size_t size, std::unique_ptr<Module> &out) override;
  Status synchronize() override {
    if (Status st = default_->synchronize(); !st) return st;
    std::lock_guard<std::mutex> lock(streamsMutex_);
    for (ZeStream *s : streams_)
      if (Status st = s->synchronize(); !st) return st;
    return Status::ok();
  }
  void forget(ZeStream *s) {
    std::lock_guard<std::mutex> lock(streamsMutex_);
    streams_.erase(s);
  }

  // The command list of `stream` (null: the default stream), or an error
  // when it belongs to another device.
  Status streamOf(Stream *stream, ZeStream *&out) {
    out = stream ? dynamic_cast<ZeStream *>(stream) : default_.get();
    if (!out || &out->device() != this) return {StatusCode::InvalidArgument, "the stream does not belong to this Level Zero device"};
    return Status::ok();
  }

private:
  Status newList(ze_command_list_handle_t &list) {
    ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                 ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    return api_.check(api_.zeCommandListCreateImmediate(context_, device_, &desc, &list), "zeCommandListCreateImmediate");
  }
  Status checkBuffer(const Buffer &b, size_t offset, size_t bytes, const char *what) const {
    if (&b.device() != this || !inRange(offset, bytes, b.size()))
      return {StatusCode::InvalidArgument, std::string(what) + ": the range is not in a buffer of this device"};
    return Status::ok();
  }
  // Host copies are complete when the call returns, as on every backend.
  Status copy(void *dst, const void *src, size_t bytes, Stream *stream, bool withHost) {
    if (bytes == 0) return Status::ok();
    ZeStream *s = nullptr;
    if (Status st = streamOf(stream, s); !st) return st;
    if (Status st = api_.check(api_.zeCommandListAppendMemoryCopy(s->list(), dst, src, bytes, nullptr, 0, nullptr),
                               "zeCommandListAppendMemoryCopy");
        !st)
      return st;
    return withHost ? s->synchronize() : Status::ok();
  }

  const ZeApi &api_;
  ze_context_handle_t context_;
  ze_device_handle_t device_;
  int index_;
  ze_device_properties_t props_{};
  ze_device_compute_properties_t compute_{};
  ze_device_module_properties_t modules_{};
  std::unique_ptr<ZeStream> default_;
  std::mutex streamsMutex_;
  std::set<ZeStream *> streams_;
};

// ---- streams and events

ZeStream::~ZeStream() {
  (void)synchronize();
  if (!isDefault_) device_.forget(this);
  device_.api().zeCommandListDestroy(list_);
}
Device &ZeStream::device() const { return device_; }
Status ZeStream::init() { return done_.create(device_.api(), device_.context(), device_.handle()); }

Status ZeStream::synchronize() {
  std::lock_guard<std::mutex> lock(mutex_);
  const ZeApi &api = device_.api();
  if (Status st = api.check(api.zeEventHostReset(done_.event), "zeEventHostReset"); !st) return st;
  if (Status st = api.check(api.zeCommandListAppendBarrier(list_, done_.event, 0, nullptr), "zeCommandListAppendBarrier");
      !st)
    return st;
  return done_.wait();
}

Status ZeStream::record(Event &event) {
  auto *e = dynamic_cast<ZeEvent *>(&event);
  if (!e) return {StatusCode::InvalidArgument, "record: the event is not a Level Zero event"};
  return e->recordOn(list_);
}

Status ZeStream::wait(Event &event) {
  auto *e = dynamic_cast<ZeEvent *>(&event);
  if (!e) return {StatusCode::InvalidArgument, "wait: the event is not a Level Zero event"};
  ze_event_handle_t h = e->handle();
  return device_.api().check(device_.api().zeCommandListAppendBarrier(list_, nullptr, 1, &h), "zeCommandListAppendBarrier");
}

ZeEvent::~ZeEvent() {
  (void)synchronize();
  if (stamp_) device_.api().zeMemFree(device_.context(), stamp_);
}

Status ZeEvent::init() {
  const ZeApi &api = device_.api();
  if (Status st = host_.create(api, device_.context(), device_.handle()); !st) return st;
  ze_host_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  void *p = nullptr;
  if (Status st = api.check(api.zeMemAllocHost(device_.context(), &desc, sizeof(uint64_t), 8, &p), "zeMemAllocHost",
                            StatusCode::OutOfMemory);
      !st)
    return st;
  stamp_ = static_cast<uint64_t *>(p);
  *stamp_ = 0;
  return Status::ok();
}

Status ZeEvent::recordOn(ze_command_list_handle_t list) {
  const ZeApi &api = device_.api();
  // Recorded again: the earlier timestamp must land before the event is reset.
  if (recorded_)
    if (Status st = host_.wait(); !st) return st;
  if (Status st = api.check(api.zeEventHostReset(host_.event), "zeEventHostReset"); !st) return st;
  if (Status st = api.check(api.zeCommandListAppendWriteGlobalTimestamp(list, stamp_, host_.event, 0, nullptr),
                            "zeCommandListAppendWriteGlobalTimestamp");
      !st)
    return st;
  recorded_ = true;
  return Status::ok();
}

Status ZeEvent::elapsedMs(const Event &start, double &ms) const {
  auto *s = dynamic_cast<const ZeEvent *>(&start);
  if (!s) return {StatusCode::InvalidArgument, "elapsedMs: the start event is not a Level Zero event"};
  if (!recorded_ || !s->recorded_) return {StatusCode::InvalidArgument, "elapsedMs: an event was never recorded"};
  if (Status st = s->host_.wait(); !st) return st;
  if (Status st = host_.wait(); !st) return st;
  uint64_t ticks = (*stamp_ - *s->stamp_) & device_.tickMask();
  ms = double(ticks) * device_.nsPerTick() / 1e6;
  return Status::ok();
}

ZeBuffer::~ZeBuffer() { device_.api().zeMemFree(device_.context(), ptr_); }
Device &ZeBuffer::device() const { return device_; }

// ---- modules and kernels

Status ZeDevice::loadModule(std::string_view format, const void *binary, size_t size, std::unique_ptr<Module> &out) {
  if (format != "spirv")
    return {StatusCode::Unsupported, "the Level Zero backend loads SPIR-V modules, not '" + std::string(format) + "'"};
  if (!binary || size % 4 || size < 20) return {StatusCode::LoadFailed, "a SPIR-V module is a whole number of words"};
  auto m = std::make_shared<LoadedZeModule>();
  m->api = &api_;
  if (Status st = reflectOpenClSpirv(static_cast<const uint32_t *>(binary), size / 4, m->info); !st) return st;
  if (Status st = checkCapabilities(m->info.capabilities); !st) return st;
  uint32_t sg = m->info.subgroupSize;
  if (sg && !supportsSubgroupSize(sg))
    return {StatusCode::LoadFailed, "the module was compiled for subgroups of " + std::to_string(sg) + " lanes, which " +
                                        name() + " does not run (compile with its arch, " + architecture() + ")"};
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV, size,
                        static_cast<const uint8_t *>(binary), "", nullptr};
  ze_module_build_log_handle_t log = nullptr;
  ze_result_t r = api_.zeModuleCreate(context_, device_, &desc, &m->module, &log);
  std::string logText;
  if (log) {
    size_t n = 0;
    if (api_.zeModuleBuildLogGetString(log, &n, nullptr) == ZE_RESULT_SUCCESS && n > 1) {
      std::vector<char> text(n, 0);
      if (api_.zeModuleBuildLogGetString(log, &n, text.data()) == ZE_RESULT_SUCCESS) logText.assign(text.data());
    }
    api_.zeModuleBuildLogDestroy(log);
  }
  if (r != ZE_RESULT_SUCCESS) {
    m->module = nullptr;
    return {StatusCode::LoadFailed,
            "zeModuleCreate failed: " + zeResultText(r) + (logText.empty() ? "" : "; the driver's build log:\n" + logText)};
  }
  out = std::make_unique<ZeModule>(*this, m);
  return Status::ok();
}

Status ZeModule::getKernel(const std::string &entry, size_t numArgs, std::unique_ptr<Kernel> &out) {
  auto it = module_->info.kernels.find(entry);
  if (it == module_->info.kernels.end()) return {StatusCode::NotFound, "the SPIR-V module has no kernel '" + entry + "'"};
  const SpirvKernelInfo &info = it->second;
  if (numArgs != info.paramBytes.size())
    return {StatusCode::InvalidArgument, "kernel '" + entry + "' takes " + std::to_string(info.paramBytes.size()) +
                                             " arguments, not " + std::to_string(numArgs)};
  if (info.localSize[0] == 0) return {StatusCode::LoadFailed, "kernel '" + entry + "' has no LocalSize"};
  const ZeApi &api = device_.api();
  ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, entry.c_str()};
  ze_kernel_handle_t kernel = nullptr;
  if (Status st = api.check(api.zeKernelCreate(module_->module, &desc, &kernel), ("zeKernelCreate(\"" + entry + "\")").c_str(),
                            StatusCode::NotFound);
      !st)
    return st;
  if (Status st = api.check(api.zeKernelSetGroupSize(kernel, info.localSize[0], info.localSize[1], info.localSize[2]),
                            "zeKernelSetGroupSize", StatusCode::LoadFailed);
      !st) {
    api.zeKernelDestroy(kernel);
    return st;
  }
  std::unique_ptr<Buffer> record;
  if (info.assertRecord)
    if (Status st = device_.allocate(4, record); !st) {
      api.zeKernelDestroy(kernel);
      return st;
    }
  out = std::make_unique<ZeKernel>(device_, module_, kernel, entry, info, std::move(record));
  return Status::ok();
}

Status ZeKernel::launch(const LaunchConfig &config, void **args, size_t numArgs, Stream *stream) {
  if (Status st = checkArgs(args, numArgs, info_.paramBytes.size()); !st) return st;
  uint32_t threads = info_.localSize[0] * info_.localSize[1] * info_.localSize[2];
  if (config.threadsPerProgram != int(threads))
    return {StatusCode::InvalidArgument, "launch of '" + name_ + "' with " + std::to_string(config.threadsPerProgram) +
                                             " threads per program; its module says " + std::to_string(threads)};
  const ze_device_compute_properties_t &c = device_.compute();
  const uint32_t limits[3] = {c.maxGroupCountX, c.maxGroupCountY, c.maxGroupCountZ};
  for (int a = 0; a < 3; ++a) {
    if (config.grid[size_t(a)] == 0) return Status::ok();
    if (limits[a] && config.grid[size_t(a)] > limits[a])
      return {StatusCode::InvalidArgument, "launch of '" + name_ + "': grid dimension " + std::to_string(a) + " is " +
                                               std::to_string(config.grid[size_t(a)]) + "; " + device_.name() +
                                               " allows " + std::to_string(limits[a])};
  }
  ZeStream *s = nullptr;
  if (Status st = device_.streamOf(stream, s); !st) return st;
  const ZeApi &api = device_.api();
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < numArgs; ++i)
    if (Status st = api.check(api.zeKernelSetArgumentValue(kernel_, uint32_t(i), info_.paramBytes[i], args[i]),
                              "zeKernelSetArgumentValue", StatusCode::InvalidArgument);
        !st)
      return st;
  // A kernel with assertions: the record zeroed first, passed last, read
  // after the launch (which therefore waits), the first failure reported.
  void *record = record_ ? record_->devicePointer() : nullptr;
  if (record) {
    static const uint32_t zero = 0;
    if (Status st = device_.copyToDevice(*record_, 0, &zero, sizeof zero, s); !st) return st;
    if (Status st = api.check(api.zeKernelSetArgumentValue(kernel_, uint32_t(numArgs), sizeof(void *), &record),
                              "zeKernelSetArgumentValue", StatusCode::InvalidArgument);
        !st)
      return st;
  }
  ze_group_count_t groups{config.grid[0], config.grid[1], config.grid[2]};
  if (Status st = api.check(api.zeCommandListAppendLaunchKernel(s->list(), kernel_, &groups, nullptr, 0, nullptr),
                            ("zeCommandListAppendLaunchKernel(\"" + name_ + "\")").c_str(), StatusCode::LaunchFailed);
      !st || !record)
    return st;
  uint32_t failed = 0;
  if (Status st = device_.copyToHost(&failed, *record_, 0, sizeof failed, s); !st) return st;
  if (!failed) return Status::ok();
  auto message = module_->info.assertMessages.find(failed);
  return {StatusCode::AssertFailed, message != module_->info.assertMessages.end()
                                        ? message->second
                                        : "device assertion " + std::to_string(failed) + " failed"};
}

// ---- the backend

class ZeBackend final : public Backend {
public:
  ZeBackend(std::unique_ptr<ZeApi> api, std::vector<ze_context_handle_t> contexts)
      : api_(std::move(api)), contexts_(std::move(contexts)) {}
  ~ZeBackend() override {
    devices_.clear();
    for (ze_context_handle_t c : contexts_) api_->zeContextDestroy(c);
  }
  std::string name() const override { return "level_zero"; }
  int deviceCount() const override { return int(devices_.size()); }
  Status device(int index, Device *&out) override {
    out = nullptr;
    if (index < 0 || index >= int(devices_.size()))
      return noSuchDevice("Level Zero", index, devices_.size());
    out = devices_[size_t(index)].get();
    return Status::ok();
  }
  const ZeApi &api() const { return *api_; }
  void add(std::unique_ptr<ZeDevice> d) { devices_.push_back(std::move(d)); }

private:
  std::unique_ptr<ZeApi> api_;
  std::vector<ze_context_handle_t> contexts_;
  std::vector<std::unique_ptr<ZeDevice>> devices_;
};

ProbedBackend &processProbe() {
  static ProbedBackend probe = [] {
    ProbedBackend p;
    const char *env = std::getenv("TESSERA_LIBZE_LOADER");
    p.status = openLevelZeroBackend(env && *env ? env : "libze_loader.so.1", p.backend);
    return p;
  }();
  return probe;
}

} // namespace

Status openLevelZeroBackend(const std::string &path, std::unique_ptr<Backend> &out) {
  out.reset();
  std::unique_ptr<ZeApi> api;
  if (Status st = openZeApi(path, api); !st) return st;
  if (ze_result_t r = api->zeInit(ZE_INIT_FLAG_GPU_ONLY); r != ZE_RESULT_SUCCESS)
    return {StatusCode::Unavailable, "no Level Zero driver on this machine (zeInit: " + zeResultText(r) + ")"};
  uint32_t count = 0;
  if (ze_result_t r = api->zeDriverGet(&count, nullptr); r != ZE_RESULT_SUCCESS || count == 0)
    return {StatusCode::Unavailable, "no Level Zero driver on this machine (zeDriverGet: " +
                                         (r ? zeResultText(r) : std::string("0 drivers")) + ")"};
  std::vector<ze_driver_handle_t> drivers(count);
  if (Status st = api->check(api->zeDriverGet(&count, drivers.data()), "zeDriverGet", StatusCode::Unavailable); !st) return st;
  ZeApi &a = *api;
  std::vector<ze_context_handle_t> contexts;
  std::vector<std::pair<ze_context_handle_t, ze_device_handle_t>> found;
  for (ze_driver_handle_t driver : drivers) {
    uint32_t n = 0;
    if (a.zeDeviceGet(driver, &n, nullptr) != ZE_RESULT_SUCCESS || n == 0) continue;
    std::vector<ze_device_handle_t> devices(n);
    if (a.zeDeviceGet(driver, &n, devices.data()) != ZE_RESULT_SUCCESS) continue;
    ze_context_desc_t cd{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    ze_context_handle_t context = nullptr;
    if (Status st = a.check(a.zeContextCreate(driver, &cd, &context), "zeContextCreate", StatusCode::Unavailable); !st) {
      for (ze_context_handle_t c : contexts) a.zeContextDestroy(c);
      return st;
    }
    contexts.push_back(context);
    for (ze_device_handle_t d : devices) found.emplace_back(context, d);
  }
  if (found.empty()) {
    for (ze_context_handle_t c : contexts) a.zeContextDestroy(c);
    return {StatusCode::Unavailable, "the Level Zero drivers here report no GPU"};
  }
  auto backend = std::make_unique<ZeBackend>(std::move(api), std::move(contexts));
  for (size_t i = 0; i < found.size(); ++i) {
    auto d = std::make_unique<ZeDevice>(backend->api(), found[i].first, found[i].second, int(i));
    if (Status st = d->init(); !st) return st;
    backend->add(std::move(d));
  }
  out = std::move(backend);
  return Status::ok();
}

Backend *levelZeroBackend() { return processProbe().backend.get(); }
Status levelZeroBackendStatus() { return processProbe().status; }

} // namespace tessera::runtime
