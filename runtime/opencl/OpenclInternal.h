// The OpenCL backend's objects, shared by its files (private to
// runtime/opencl/): OpenclBackend.cpp makes devices, memory, streams and
// events; OpenclModule.cpp builds programs and launches kernels.
//
// Memory is coarse-grained SVM (clSVMAlloc), not cl_mem buffers: Tessera's
// kernels take pointers as 64-bit addresses that the caller may offset
// (a view into an array, a pointer computed on the host), and an SVM
// allocation has one address on the host and the device, which
// clSetKernelArgSVMPointer accepts anywhere inside the allocation. A
// cl_mem would need a sub-buffer per offset, with alignment rules no
// Tessera pointer follows. Coarse-grained SVM is core OpenCL 2.0, so this
// asks nothing beyond what clCreateProgramWithIL (2.1) already does.
#pragma once

#include "runtime/BackendSupport.h"
#include "runtime/opencl/OpenclApi.h"

#include <string>
#include <vector>

namespace tessera::runtime {

class ClDevice;

// What clGetDeviceInfo says, read once.
struct ClDeviceFacts {
  std::string name, platform, version, ilVersion, extensions;
  bool isCpu = false;
  uint32_t computeUnits = 0, clockMhz = 0;
  size_t maxWorkGroupSize = 0;
  uint64_t localMemBytes = 0, globalMemBytes = 0;
  std::vector<size_t> subgroupSizes;  // cl_intel_subgroups' list; empty when the device does not say
  bool fp64 = false, fp16 = false, int64Atomics = false;
  uint64_t svm = 0;  // CL_DEVICE_SVM_CAPABILITIES
};

// The device's in-order command queue with profiling (events time
// markers); every stream of a device shares it (OpenclBackend.cpp says why).
class ClStream final : public Stream {
public:
  ClStream(ClDevice &device, cl::Queue queue, bool isDefault) : device_(device), queue_(queue), isDefault_(isDefault) {}
  ~ClStream() override;
  Device &device() const override;
  Status synchronize() override;
  Status record(Event &event) override;
  Status wait(Event &event) override;
  cl::Queue queue() const { return queue_; }

private:
  ClDevice &device_;
  cl::Queue queue_;
  bool isDefault_;
};

// A marker enqueued on a stream; re-recording replaces it.
class ClEvent final : public Event {
public:
  explicit ClEvent(ClDevice &device) : device_(device) {}
  ~ClEvent() override;
  Status synchronize() override;
  Status elapsedMs(const Event &start, double &ms) const override;
  Status recordOn(cl::Queue queue);
  cl::EventHandle handle() const { return event_; }

private:
  // Waits for the marker; LaunchFailed when the work before it failed.
  Status waitDone() const;
  Status endTime(uint64_t &ns) const;
  ClDevice &device_;
  cl::EventHandle event_ = nullptr;
};

class ClBuffer final : public Buffer {
public:
  ClBuffer(ClDevice &device, void *ptr, size_t size) : device_(device), ptr_(ptr), size_(size) {}
  ~ClBuffer() override;
  size_t size() const override { return size_; }
  void *devicePointer() const override { return ptr_; }
  Device &device() const override;

private:
  ClDevice &device_;
  void *ptr_;
  size_t size_;
};

class ClDevice final : public Device {
public:
  ClDevice(const ClApi &api, cl::Context context, cl::DeviceId device, ClDeviceFacts facts, int index)
      : api_(api), context_(context), device_(device), facts_(std::move(facts)), index_(index) {}
  ~ClDevice() override;
  Status init();

  // "<CL_DEVICE_NAME> (<platform>, CPU|GPU)".
  std::string name() const override;
  std::string backend() const override { return "opencl"; }
  int index() const override { return index_; }
  // "sg<subgroup size>-<local memory KiB>k" (the spirv target's arch).
  std::string architecture() const override;
  Status attribute(std::string_view name, int64_t &value) const override;

  Status allocate(size_t bytes, std::unique_ptr<Buffer> &out) override;
  Status copyToDevice(Buffer &dst, size_t offset, const void *src, size_t bytes, Stream *stream) override;
  Status copyToHost(void *dst, const Buffer &src, size_t offset, size_t bytes, Stream *stream) override;
  Status copyDeviceToDevice(Buffer &dst, size_t dstOffset, const Buffer &src, size_t srcOffset, size_t bytes,
                            Stream *stream) override;
  Status createStream(std::unique_ptr<Stream> &out) override;
  Status wrapNativeStream(void *, std::unique_ptr<Stream> &) override {
    return {StatusCode::Unsupported, "the OpenCL backend does not wrap native command queues"};
  }
  Stream &defaultStream() override { return *default_; }
  Status createEvent(std::unique_ptr<Event> &out) override;
  std::vector<std::string> moduleFormats() const override { return {"spirv"}; }
  Status loadModule(std::string_view format, const void *binary, size_t size, std::unique_ptr<Module> &out) override;
  Status synchronize() override;

  // The subgroup size kernels compile for: 16 where the device runs it
  // (Intel's CPU and GPU runtimes do), else the largest it lists.
  uint32_t subgroupSize() const;
  bool supportsSubgroupSize(uint32_t lanes) const;
  // A SPIR-V capability the device lacks is a clear refusal, not a build failure.
  Status checkCapabilities(const std::vector<uint32_t> &capabilities) const;
  // The stream of a call (null: the default one), or an error when it belongs to another device.
  Status streamOf(Stream *stream, ClStream *&out);
  const ClApi &api() const { return api_; }
  cl::Context context() const { return context_; }
  cl::DeviceId handle() const { return device_; }
  const ClDeviceFacts &facts() const { return facts_; }

private:
  Status newQueue(cl::Queue &queue);
  Status checkRange(const Buffer &b, size_t offset, size_t bytes, const char *what) const;
  Status copy(void *dst, const void *src, size_t bytes, Stream *stream, bool blocking, const char *what);

  const ClApi &api_;
  cl::Context context_;
  cl::DeviceId device_;
  ClDeviceFacts facts_;
  int index_;
  std::unique_ptr<ClStream> default_;  // owns the queue
};

} // namespace tessera::runtime
