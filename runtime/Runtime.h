// The runtime: one abstraction over every place a compiled kernel can run.
//
//   Backend   a driver (host, cuda, hip, level_zero, opencl, vulkan); lists devices
//   Device    allocates buffers, creates streams and events, loads modules
//   Buffer    device memory of a fixed size
//   Stream    an in-order queue of copies and launches
//   Event     a point in a stream, for waiting and timing
//   Module    a loaded binary of a given format ("elf-shared-object", "cubin"...)
//   Kernel    one entry point of a module; launch(grid, args, stream)
//
// Objects are owned by the caller through unique_ptr; a Buffer, Stream, Module
// or Kernel must not outlive its Device (devices live as long as the process).
// A Kernel may outlive its Module: it keeps the loaded binary alive itself.
// Every operation returns a Status and never aborts. The runtime depends on
// nothing else in the project (no IR, no LLVM): it only moves bytes.
#pragma once

#include "runtime/Status.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::runtime {

class Device;
class Stream;

class Buffer {
public:
  virtual ~Buffer() = default;
  virtual size_t size() const = 0;
  // The address kernels see (on the host, an ordinary pointer).
  virtual void *devicePointer() const = 0;
  virtual Device &device() const = 0;
};

class Event {
public:
  virtual ~Event() = default;
  // Blocks until the work recorded before the event has finished.
  virtual Status synchronize() = 0;
  // Milliseconds between `start` and this event (both recorded and finished).
  virtual Status elapsedMs(const Event &start, double &ms) const = 0;
};

class Stream {
public:
  virtual ~Stream() = default;
  virtual Device &device() const = 0;
  virtual Status synchronize() = 0;
  virtual Status record(Event &event) = 0;
  // Later work on this stream waits for `event` (recorded on any stream).
  virtual Status wait(Event &event) = 0;
};

// What a launch needs besides the arguments. GPU backends read the block size
// and dynamic shared memory from the compiled kernel's metadata.
struct LaunchConfig {
  std::array<uint32_t, 3> grid{1, 1, 1};
  int threadsPerProgram = 1;
  int64_t sharedMemoryBytes = 0;
};

// A parameter the launch builds itself (ir/IR.h, tensor_map): placed after
// the caller's arguments, in order, the tensor map of a tensor whose base
// pointer is the caller's argument `base` and whose extents and strides
// (elements; the last stride is 1) are `fields`: each a constant times
// the values of integer arguments.
struct TensorMapField {
  std::vector<std::pair<int, int>> args;  // (argument, its width: 4 or 8 bytes, signed)
  int64_t constant = 1;
  // Its value for a launch's arguments; a product past 2^62 in magnitude
  // saturates there (no tensor map holds it).
  int64_t value(void *const *launchArgs) const;
};
// Fields as the compile cache's metadata writes them: by spaces, each a
// product ('*') of "aN:B" (argument N, B bytes) and constants. Text that
// is not such a list parses to fields with constant 0, which backends
// refuse as malformed.
std::string formatTensorMapFields(const std::vector<TensorMapField> &fields);
std::vector<TensorMapField> parseTensorMapFields(const std::string &text);
struct TensorMapParam {
  size_t base = 0;
  int elementBytes = 0;
  std::vector<int64_t> box;  // elements per dimension, the descriptor's order
  int swizzleBytes = 0;      // 0, 32, 64 or 128
  std::vector<TensorMapField> fields;  // rank extents, then rank strides
  bool stores = false;                 // the kernel also writes through it
};

class Kernel {
public:
  virtual ~Kernel() = default;
  virtual const std::string &name() const = 0;
  // args[i] points to the i-th runtime argument's value (for a pointer
  // parameter, to a variable holding the device address); `numArgs` is checked
  // against what the caller declared when it looked the kernel up.
  // Null stream = the device's default stream.
  virtual Status launch(const LaunchConfig &config, void **args, size_t numArgs, Stream *stream) = 0;
  // What the driver knows of the loaded code: "num_regs" (registers per
  // thread) and "local_bytes" (local memory per thread); backends without
  // such budgets (the host) report 0.
  virtual Status attribute(const std::string &name, int64_t &value) const {
    (void)name;
    value = 0;
    return Status::ok();
  }

  // The tensor maps its launches build (after getKernel, before any launch);
  // backends without tensor maps refuse any.
  virtual Status setTensorMaps(std::vector<TensorMapParam> maps) {
    if (maps.empty()) return Status::ok();
    return {StatusCode::Unsupported, "kernel '" + name() + "' copies through tensor maps, which this backend cannot build"};
  }

protected:
  // What every backend checks first: the argument count and no null slot.
  Status checkArgs(void **args, size_t numArgs, size_t expected) const;
};

class Module {
public:
  virtual ~Module() = default;
  // `numArgs` is the number of runtime parameters the entry takes.
  virtual Status getKernel(const std::string &entry, size_t numArgs, std::unique_ptr<Kernel> &out) = 0;
};

class Device {
public:
  virtual ~Device() = default;
  virtual std::string name() const = 0;     // "host: 16 x AMD EPYC ..." / "NVIDIA H200"
  virtual std::string backend() const = 0;  // "host", "cuda", ...
  virtual int index() const = 0;
  // The code generators' name for this device's instruction set ("sm_90"
  // on CUDA); "" when it does not matter (the host) or is unknown.
  virtual std::string architecture() const { return ""; }
  // A fact of the device by the name Triton's get_device_properties gives
  // it: "multiprocessor_count", "max_shared_mem" (bytes a block may opt
  // into), "max_num_regs" (per block), "warpSize", "sm_clock_rate" and
  // "mem_clock_rate" (kHz), "mem_bus_width" (bits); NotFound for a name
  // this backend does not know.
  virtual Status attribute(std::string_view name, int64_t &value) const;

  virtual Status allocate(size_t bytes, std::unique_ptr<Buffer> &out) = 0;
  // Copies run in `stream` order (null = the default stream) and are complete
  // when the call returns on backends without asynchronous copies (the host).
  virtual Status copyToDevice(Buffer &dst, size_t offset, const void *src, size_t bytes, Stream *stream) = 0;
  virtual Status copyToHost(void *dst, const Buffer &src, size_t offset, size_t bytes, Stream *stream) = 0;
  // Within one device; asynchronous in stream order on GPU backends.
  virtual Status copyDeviceToDevice(Buffer &dst, size_t dstOffset, const Buffer &src, size_t srcOffset, size_t bytes,
                                    Stream *stream) = 0;
  virtual Status createStream(std::unique_ptr<Stream> &out) = 0;
  // A Stream over a native queue the caller owns and keeps alive (a CUstream
  // such as torch.cuda.current_stream().cuda_stream); destroying the wrapper
  // leaves the native queue alone. Unsupported where there is no such thing.
  virtual Status wrapNativeStream(void *handle, std::unique_ptr<Stream> &out) = 0;
  virtual Stream &defaultStream() = 0;
  virtual Status createEvent(std::unique_ptr<Event> &out) = 0;
  // Binary formats this device loads: "elf-shared-object" on the host,
  // "ptx" and "cubin" on CUDA.
  virtual std::vector<std::string> moduleFormats() const = 0;
  virtual Status loadModule(std::string_view format, const void *binary, size_t size,
                            std::unique_ptr<Module> &out) = 0;
  // Waits for all work on all of this device's streams.
  virtual Status synchronize() = 0;
};

class Backend {
public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  virtual int deviceCount() const = 0;
  // The device stays owned by the backend (for the life of the process).
  virtual Status device(int index, Device *&out) = 0;
};

// The registry: backends usable on this machine, in preference order. A GPU
// backend appears only when its vendor library loads and reports a device, so
// "host" is always listed and the rest depend on the machine.
std::vector<std::string> backendNames();
// Null with a NotFound/Unavailable status when `name` is not usable here.
Backend *getBackend(std::string_view name, Status *status = nullptr);
// Shorthand: device `index` of backend `name`.
Status getDevice(std::string_view backend, int index, Device *&out);

} // namespace tessera::runtime
