// The OpenCL backend's probe, devices, memory, streams and events. One
// context and one in-order command queue (with profiling) per device,
// which every stream of the device shares, as the Vulkan backend's streams
// share its queue: work is ordered device-wide, so an event recorded on
// any stream follows every launch before it (Python launches on the
// default stream; `tessera bench` times them with events on a stream of
// its own), at the cost of running no two streams' work concurrently. An
// event is a marker, timed by its end timestamp.
#include "runtime/opencl/OpenclBackend.h"

#include "runtime/opencl/OpenclInternal.h"
#include "runtime/opencl/OpenclModule.h"

#include <algorithm>
#include <cstdlib>

namespace tessera::runtime {

// ---- streams and events

ClStream::~ClStream() {
  (void)synchronize();
  if (isDefault_) device_.api().clReleaseCommandQueue(queue_);  // the device's queue: the others share it
}
Device &ClStream::device() const { return device_; }

Status ClStream::synchronize() {
  return device_.api().check(device_.api().clFinish(queue_), "clFinish", StatusCode::LaunchFailed);
}

Status ClStream::record(Event &event) {
  auto *e = dynamic_cast<ClEvent *>(&event);
  if (!e) return {StatusCode::InvalidArgument, "record: the event is not an OpenCL event"};
  return e->recordOn(queue_);
}

Status ClStream::wait(Event &event) {
  auto *e = dynamic_cast<ClEvent *>(&event);
  if (!e) return {StatusCode::InvalidArgument, "wait: the event is not an OpenCL event"};
  cl::EventHandle h = e->handle();
  if (!h) return Status::ok();  // never recorded: nothing to wait for
  return device_.api().check(device_.api().clEnqueueBarrierWithWaitList(queue_, 1, &h, nullptr),
                             "clEnqueueBarrierWithWaitList");
}

ClEvent::~ClEvent() {
  if (event_) {
    (void)synchronize();
    device_.api().clReleaseEvent(event_);
  }
}

Status ClEvent::recordOn(cl::Queue queue) {
  const ClApi &api = device_.api();
  cl::EventHandle fresh = nullptr;
  if (Status st = api.check(api.clEnqueueMarkerWithWaitList(queue, 0, nullptr, &fresh), "clEnqueueMarkerWithWaitList");
      !st)
    return st;
  // Markers don't block others on an in-order queue: the queue must start
  // them, or a host waiting on the event would wait forever.
  api.clFlush(queue);
  if (event_) api.clReleaseEvent(event_);
  event_ = fresh;
  return Status::ok();
}

Status ClEvent::synchronize() { return waitDone(); }

Status ClEvent::waitDone() const {
  if (!event_) return Status::ok();
  const ClApi &api = device_.api();
  if (Status st = api.check(api.clWaitForEvents(1, &event_), "clWaitForEvents", StatusCode::LaunchFailed); !st)
    return st;
  cl::Int state = 0;
  if (Status st = api.check(api.clGetEventInfo(event_, cl::kEventCommandExecutionStatus, sizeof state, &state, nullptr),
                            "clGetEventInfo");
      !st)
    return st;
  // A negative execution status is the error of the work before the marker.
  return state < 0 ? Status(StatusCode::LaunchFailed, "work before the event failed: " + clErrorText(state)) : Status::ok();
}

Status ClEvent::endTime(uint64_t &ns) const {
  const ClApi &api = device_.api();
  return api.check(api.clGetEventProfilingInfo(event_, cl::kProfilingCommandEnd, sizeof ns, &ns, nullptr),
                   "clGetEventProfilingInfo(CL_PROFILING_COMMAND_END)");
}

Status ClEvent::elapsedMs(const Event &start, double &ms) const {
  auto *s = dynamic_cast<const ClEvent *>(&start);
  if (!s) return {StatusCode::InvalidArgument, "elapsedMs: the start event is not an OpenCL event"};
  if (!event_ || !s->event_) return {StatusCode::InvalidArgument, "elapsedMs: an event was never recorded"};
  if (Status st = s->waitDone(); !st) return st;
  if (Status st = waitDone(); !st) return st;
  uint64_t t0 = 0, t1 = 0;
  if (Status st = s->endTime(t0); !st) return st;
  if (Status st = endTime(t1); !st) return st;
  ms = (double(t1) - double(t0)) / 1e6;
  return Status::ok();
}

ClBuffer::~ClBuffer() {
  // clSVMFree does not wait for queued work that uses the memory.
  (void)device_.synchronize();
  device_.api().clSVMFree(device_.context(), ptr_);
}
Device &ClBuffer::device() const { return device_; }

// ---- devices

ClDevice::~ClDevice() {
  default_.reset();
  api_.clReleaseContext(context_);
}

Status ClDevice::init() {
  cl::Queue queue = nullptr;
  if (Status st = newQueue(queue); !st) return st;
  default_ = std::make_unique<ClStream>(*this, queue, true);
  return Status::ok();
}

std::string ClDevice::name() const {
  return facts_.name + " (" + facts_.platform + ", " + (facts_.isCpu ? "CPU" : "GPU") + ")";
}

std::string ClDevice::architecture() const {
  return "sg" + std::to_string(subgroupSize()) + "-" + std::to_string(facts_.localMemBytes / 1024) + "k";
}

Status ClDevice::attribute(std::string_view name, int64_t &value) const {
  if (name == "warpSize") value = subgroupSize();
  else if (name == "max_shared_mem") value = int64_t(facts_.localMemBytes);
  else if (name == "max_threads_per_block") value = int64_t(facts_.maxWorkGroupSize);
  else if (name == "multiprocessor_count") value = facts_.computeUnits;
  else if (name == "sm_clock_rate") value = int64_t(facts_.clockMhz) * 1000;
  else return Device::attribute(name, value);
  return Status::ok();
}

uint32_t ClDevice::subgroupSize() const {
  if (supportsSubgroupSize(16) || facts_.subgroupSizes.empty()) return 16;
  return uint32_t(*std::max_element(facts_.subgroupSizes.begin(), facts_.subgroupSizes.end()));
}

bool ClDevice::supportsSubgroupSize(uint32_t lanes) const {
  return std::find(facts_.subgroupSizes.begin(), facts_.subgroupSizes.end(), size_t(lanes)) != facts_.subgroupSizes.end();
}

Status ClDevice::checkCapabilities(const std::vector<uint32_t> &capabilities) const {
  // SPIR-V capabilities (Float16, Float64, Int64Atomics) and what grants them.
  struct Need {
    uint32_t capability;
    bool has;
    const char *extension;
  };
  const Need needs[] = {{9, facts_.fp16, "cl_khr_fp16"}, {10, facts_.fp64, "cl_khr_fp64"},
                        {12, facts_.int64Atomics, "cl_khr_int64_base_atomics"}};
  for (uint32_t capability : capabilities)
    for (const Need &need : needs)
      if (need.capability == capability && !need.has)
        return {StatusCode::Unsupported, "the kernel needs SPIR-V capability " + std::to_string(capability) +
                                             " (OpenCL's " + need.extension + "), which " + name() + " does not have"};
  return Status::ok();
}

Status ClDevice::newQueue(cl::Queue &queue) {
  const cl::Ulong properties[] = {cl::kQueueProperties, cl::kQueueProfilingEnable, 0};
  cl::Int err = cl::kSuccess;
  queue = api_.clCreateCommandQueueWithProperties(context_, device_, properties, &err);
  if (!queue && err == cl::kSuccess) err = -6;  // a driver that returns null without saying why
  return api_.check(err, "clCreateCommandQueueWithProperties");
}

Status ClDevice::allocate(size_t bytes, std::unique_ptr<Buffer> &out) {
  // A zero-byte buffer still gets a distinct address.
  void *ptr = api_.clSVMAlloc(context_, cl::kMemReadWrite, bytes ? bytes : 1, 0);
  if (!ptr)
    return {StatusCode::OutOfMemory, "clSVMAlloc: no " + std::to_string(bytes) + "-byte allocation on " + name() +
                                         " (it has " + std::to_string(facts_.globalMemBytes >> 20) + " MiB)"};
  out = std::make_unique<ClBuffer>(*this, ptr, bytes);
  return Status::ok();
}

Status ClDevice::checkRange(const Buffer &b, size_t offset, size_t bytes, const char *what) const {
  if (&b.device() != this || !inRange(offset, bytes, b.size()))
    return {StatusCode::InvalidArgument, std::string(what) + ": the range is not in a buffer of this device"};
  return Status::ok();
}

// Copies with the host are complete when the call returns, as on every backend.
Status ClDevice::copy(void *dst, const void *src, size_t bytes, Stream *stream, bool blocking, const char *what) {
  if (bytes == 0) return Status::ok();
  ClStream *s = nullptr;
  if (Status st = streamOf(stream, s); !st) return st;
  if (Status st = api_.check(api_.clEnqueueSVMMemcpy(s->queue(), blocking ? cl::kTrue : cl::kFalse, dst, src, bytes, 0,
                                                     nullptr, nullptr),
                             std::string("clEnqueueSVMMemcpy (") + what + ")", StatusCode::LaunchFailed);
      !st)
    return st;
  // A blocking copy returns once it is done, not once earlier failed work
  // is known: clFinish reports that (a kernel's fault, say).
  return blocking ? s->synchronize() : Status::ok();
}

Status ClDevice::copyToDevice(Buffer &dst, size_t offset, const void *src, size_t bytes, Stream *stream) {
  if (Status st = checkRange(dst, offset, bytes, "copyToDevice"); !st) return st;
  return copy(static_cast<char *>(dst.devicePointer()) + offset, src, bytes, stream, true, "to the device");
}

Status ClDevice::copyToHost(void *dst, const Buffer &src, size_t offset, size_t bytes, Stream *stream) {
  if (Status st = checkRange(src, offset, bytes, "copyToHost"); !st) return st;
  return copy(dst, static_cast<const char *>(src.devicePointer()) + offset, bytes, stream, true, "to the host");
}

Status ClDevice::copyDeviceToDevice(Buffer &dst, size_t dstOffset, const Buffer &src, size_t srcOffset, size_t bytes,
                                    Stream *stream) {
  if (Status st = checkRange(dst, dstOffset, bytes, "copyDeviceToDevice"); !st) return st;
  if (Status st = checkRange(src, srcOffset, bytes, "copyDeviceToDevice"); !st) return st;
  return copy(static_cast<char *>(dst.devicePointer()) + dstOffset,
              static_cast<const char *>(src.devicePointer()) + srcOffset, bytes, stream, false, "on the device");
}

Status ClDevice::createStream(std::unique_ptr<Stream> &out) {
  out = std::make_unique<ClStream>(*this, default_->queue(), false);
  return Status::ok();
}

Status ClDevice::createEvent(std::unique_ptr<Event> &out) {
  out = std::make_unique<ClEvent>(*this);
  return Status::ok();
}

Status ClDevice::loadModule(std::string_view format, const void *binary, size_t size, std::unique_ptr<Module> &out) {
  return loadOpenclModule(*this, format, binary, size, out);
}

Status ClDevice::synchronize() { return default_->synchronize(); }

Status ClDevice::streamOf(Stream *stream, ClStream *&out) {
  out = stream ? dynamic_cast<ClStream *>(stream) : default_.get();
  if (!out || &out->device() != this) return {StatusCode::InvalidArgument, "the stream does not belong to this OpenCL device"};
  return Status::ok();
}


// ---- the probe

namespace {

class ClBackend final : public Backend {
public:
  explicit ClBackend(std::unique_ptr<ClApi> api) : api_(std::move(api)) {}
  ~ClBackend() override { devices_.clear(); }
  std::string name() const override { return "opencl"; }
  int deviceCount() const override { return int(devices_.size()); }
  Status device(int index, Device *&out) override {
    out = nullptr;
    if (index < 0 || index >= int(devices_.size())) return noSuchDevice("OpenCL", index, devices_.size());
    out = devices_[size_t(index)].get();
    return Status::ok();
  }
  const ClApi &api() const { return *api_; }
  void add(std::unique_ptr<ClDevice> d) { devices_.push_back(std::move(d)); }

private:
  std::unique_ptr<ClApi> api_;
  std::vector<std::unique_ptr<ClDevice>> devices_;
};

std::string platformText(const ClApi &api, cl::Platform p, cl::Uint what) {
  size_t n = 0;
  if (api.clGetPlatformInfo(p, what, 0, nullptr, &n) != cl::kSuccess || n == 0) return "";
  std::string s(n, '\0');
  if (api.clGetPlatformInfo(p, what, n, s.data(), nullptr) != cl::kSuccess) return "";
  return s.substr(0, s.find('\0'));
}

std::string deviceText(const ClApi &api, cl::DeviceId d, cl::Uint what) {
  size_t n = 0;
  if (api.clGetDeviceInfo(d, what, 0, nullptr, &n) != cl::kSuccess || n == 0) return "";
  std::string s(n, '\0');
  if (api.clGetDeviceInfo(d, what, n, s.data(), nullptr) != cl::kSuccess) return "";
  return s.substr(0, s.find('\0'));
}

template <typename T> T deviceValue(const ClApi &api, cl::DeviceId d, cl::Uint what) {
  T value{};
  if (api.clGetDeviceInfo(d, what, sizeof value, &value, nullptr) != cl::kSuccess) return T{};
  return value;
}

bool hasExtension(const std::string &list, const std::string &name) {
  return (" " + list + " ").find(" " + name + " ") != std::string::npos;
}

ClDeviceFacts readFacts(const ClApi &api, cl::Platform platform, cl::DeviceId d) {
  ClDeviceFacts f;
  f.name = deviceText(api, d, cl::kDeviceName);
  f.platform = platformText(api, platform, cl::kPlatformName);
  f.version = deviceText(api, d, cl::kDeviceVersion);
  f.ilVersion = deviceText(api, d, cl::kDeviceIlVersion);
  f.extensions = deviceText(api, d, cl::kDeviceExtensions);
  f.isCpu = (deviceValue<cl::Ulong>(api, d, cl::kDeviceType) & cl::kDeviceTypeCpu) != 0;
  f.computeUnits = deviceValue<cl::Uint>(api, d, cl::kDeviceMaxComputeUnits);
  f.clockMhz = deviceValue<cl::Uint>(api, d, cl::kDeviceMaxClockFrequency);
  f.maxWorkGroupSize = deviceValue<size_t>(api, d, cl::kDeviceMaxWorkGroupSize);
  f.localMemBytes = deviceValue<cl::Ulong>(api, d, cl::kDeviceLocalMemSize);
  f.globalMemBytes = deviceValue<cl::Ulong>(api, d, cl::kDeviceGlobalMemSize);
  f.svm = deviceValue<cl::Ulong>(api, d, cl::kDeviceSvmCapabilities);
  f.fp64 = deviceValue<cl::Ulong>(api, d, cl::kDeviceDoubleFpConfig) != 0 || hasExtension(f.extensions, "cl_khr_fp64");
  f.fp16 = hasExtension(f.extensions, "cl_khr_fp16");
  f.int64Atomics = hasExtension(f.extensions, "cl_khr_int64_base_atomics");
  size_t n = 0;
  if (api.clGetDeviceInfo(d, cl::kDeviceSubGroupSizesIntel, 0, nullptr, &n) == cl::kSuccess && n >= sizeof(size_t)) {
    f.subgroupSizes.resize(n / sizeof(size_t));
    if (api.clGetDeviceInfo(d, cl::kDeviceSubGroupSizesIntel, n, f.subgroupSizes.data(), nullptr) != cl::kSuccess)
      f.subgroupSizes.clear();
  }
  return f;
}

// Why a device cannot run Tessera's kernels, or "" when it can.
std::string unusable(const ClDeviceFacts &f) {
  if (f.ilVersion.find("SPIR-V") == std::string::npos)
    return f.name + " takes no SPIR-V (CL_DEVICE_IL_VERSION is '" + f.ilVersion + "')";
  if (!(f.svm & cl::kSvmCoarseGrainBuffer)) return f.name + " has no coarse-grained SVM";
  return "";
}

ProbedBackend &processProbe() {
  static ProbedBackend probe = [] {
    ProbedBackend p;
    const char *env = std::getenv("TESSERA_LIBOPENCL");
    p.status = openOpenclBackend(env && *env ? env : "libOpenCL.so.1", p.backend);
    return p;
  }();
  return probe;
}

} // namespace

Status openOpenclBackend(const std::string &path, std::unique_ptr<Backend> &out) {
  out.reset();
  std::unique_ptr<ClApi> api;
  if (Status st = openClApi(path, api); !st) return st;
  cl::Uint count = 0;
  cl::Int r = api->clGetPlatformIDs(0, nullptr, &count);
  if (r != cl::kSuccess || count == 0) {
    const char *vendors = std::getenv("OCL_ICD_VENDORS");
    return {StatusCode::Unavailable,
            "no OpenCL platform on this machine (clGetPlatformIDs: " + (r ? clErrorText(r) : std::string("0 platforms")) +
                "; OCL_ICD_VENDORS is " + (vendors ? "'" + std::string(vendors) + "'" : std::string("unset")) +
                "). Install a driver: e.g. Intel's CPU runtime, pip install intel-opencl-rt (the tessera Python "
                "package finds it in its own environment; elsewhere set OCL_ICD_VENDORS to its libintelocl.so or to "
                "a folder of .icd files naming it)"};
  }
  std::vector<cl::Platform> platforms(count);
  if (Status st = api->check(api->clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs",
                             StatusCode::Unavailable);
      !st)
    return st;
  auto backend = std::make_unique<ClBackend>(std::move(api));
  const ClApi &a = backend->api();
  std::string skipped;
  for (cl::Platform platform : platforms) {
    cl::Uint n = 0;
    if (a.clGetDeviceIDs(platform, cl::kDeviceTypeAll, 0, nullptr, &n) != cl::kSuccess || n == 0) continue;
    std::vector<cl::DeviceId> devices(n);
    if (a.clGetDeviceIDs(platform, cl::kDeviceTypeAll, n, devices.data(), nullptr) != cl::kSuccess) continue;
    for (cl::DeviceId d : devices) {
      ClDeviceFacts facts = readFacts(a, platform, d);
      if (std::string why = unusable(facts); !why.empty()) {
        skipped += (skipped.empty() ? "" : "; ") + why;
        continue;
      }
      cl::Int err = cl::kSuccess;
      cl::Context context = a.clCreateContext(nullptr, 1, &d, nullptr, nullptr, &err);
      if (!context) return a.check(err ? err : -6, "clCreateContext(" + facts.name + ")", StatusCode::Unavailable);
      auto device = std::make_unique<ClDevice>(a, context, d, std::move(facts), backend->deviceCount());
      if (Status st = device->init(); !st) return st;
      backend->add(std::move(device));
    }
  }
  if (backend->deviceCount() == 0)
    return {StatusCode::Unavailable,
            "the OpenCL platforms here have no device that runs SPIR-V kernels" + (skipped.empty() ? "" : ": " + skipped)};
  out = std::move(backend);
  return Status::ok();
}

Backend *openclBackend() { return processProbe().backend.get(); }
Status openclBackendStatus() { return processProbe().status; }

} // namespace tessera::runtime
