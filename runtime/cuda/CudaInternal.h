// Private to the CUDA backend: the device class (its methods are split
// between CudaBackend.cpp and CudaModule.cpp by concern) and the helpers
// both files use.
#pragma once

#include "runtime/Runtime.h"
#include "runtime/cuda/CudaDriver.h"

#include <map>
#include <memory>
#include <mutex>

namespace tessera::runtime {

// An error once this process is a child of fork() whose parent initialized
// CUDA (cuInit): CUDA is not usable there (its rule), so every CUDA call
// fails with this message instead of hanging or crashing; else Ok.
Status cudaUsableHere();

// Makes `context` current on this thread for the guard's lifetime and then
// restores the previous one, so a caller's (PyTorch's) notion of the current
// device is left as it was. Its status is cudaUsableHere()'s first.
class ContextGuard {
public:
  ContextGuard(const CudaDriver &driver, CUcontext context);
  ~ContextGuard();
  const Status &status() const { return status_; }

private:
  const CudaDriver &driver_;
  CUcontext previous_ = nullptr;
  bool switched_ = false;
  Status status_;
};

class CudaStream final : public Stream {
public:
  // `owned` streams are destroyed with the object; wrapped ones (the caller's,
  // or the legacy default stream 0) are not.
  CudaStream(Device &device, const CudaDriver &driver, CUcontext context, CUstream handle, bool owned)
      : device_(device), driver_(driver), context_(context), handle_(handle), owned_(owned) {}
  ~CudaStream() override;
  Device &device() const override { return device_; }
  Status synchronize() override;
  Status record(Event &event) override;
  Status wait(Event &event) override;
  CUstream handle() const { return handle_; }

private:
  Device &device_;
  const CudaDriver &driver_;
  CUcontext context_;
  CUstream handle_;
  bool owned_;
};

// A loaded CUmodule, shared by the Module object and its kernels and cached
// per device (= per primary context) by the binary's hash.
struct LoadedCudaModule {
  const CudaDriver *driver = nullptr;
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  ~LoadedCudaModule();
};

class CudaDevice final : public Device {
public:
  CudaDevice(const CudaDriver &driver, int index, CUdevice device, CUcontext context);
  std::string name() const override { return name_; }
  std::string backend() const override { return "cuda"; }
  int index() const override { return index_; }
  std::string architecture() const override { return architecture_; }
  Status attribute(std::string_view name, int64_t &value) const override;

  Status allocate(size_t bytes, std::unique_ptr<Buffer> &out) override;
  Status copyToDevice(Buffer &dst, size_t offset, const void *src, size_t bytes, Stream *stream) override;
  Status copyToHost(void *dst, const Buffer &src, size_t offset, size_t bytes, Stream *stream) override;
  Status copyDeviceToDevice(Buffer &dst, size_t dstOffset, const Buffer &src, size_t srcOffset, size_t bytes,
                            Stream *stream) override;
  Status createStream(std::unique_ptr<Stream> &out) override;
  Status wrapNativeStream(void *handle, std::unique_ptr<Stream> &out) override;
  Stream &defaultStream() override { return defaultStream_; }
  Status createEvent(std::unique_ptr<Event> &out) override;
  std::vector<std::string> moduleFormats() const override { return {"ptx", "cubin"}; }
  Status loadModule(std::string_view format, const void *binary, size_t size, std::unique_ptr<Module> &out) override;
  Status synchronize() override;

  const CudaDriver &driver() const { return driver_; }
  CUcontext context() const { return context_; }
  // The CUstream for `stream` (null = the legacy default stream, 0), or an
  // error when it belongs to another device.
  Status streamHandle(Stream *stream, CUstream &out) const;

private:
  Status checkCopy(const Buffer &buf, size_t offset, size_t bytes) const;

  const CudaDriver &driver_;
  std::string architecture_;  // "sm_<major><minor>"
  int index_;
  CUdevice device_;
  CUcontext context_;
  std::string name_;
  CudaStream defaultStream_;
  std::mutex cacheMutex_;
  std::map<std::string, std::weak_ptr<LoadedCudaModule>> moduleCache_;  // key: format + SHA-256 of the binary
};

} // namespace tessera::runtime
