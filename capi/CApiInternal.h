// Private to the C API: what its handles hold, error reporting, and the hooks
// its tests use. The handles name C++ runtime objects one to one, through
// the tables of Handles.h (a handle is never an object's address).
#pragma once

#include "runtime/Runtime.h"
#include "targets/Target.h"
#include "tessera/tessera.h"

#include <functional>
#include <memory>
#include <string>

struct tessera_device_t {
  tessera::runtime::Device *device = nullptr;
  std::string name, backend, architecture;  // kept so the C strings outlive the call
};
struct tessera_buffer_t {
  std::unique_ptr<tessera::runtime::Buffer> buffer;
};
struct tessera_stream_t {
  std::unique_ptr<tessera::runtime::Stream> stream;
};
struct tessera_event_t {
  std::unique_ptr<tessera::runtime::Event> event;
};
struct tessera_kernel_t {
  std::unique_ptr<tessera::runtime::Module> module;  // declared first: destroyed after the kernel
  std::unique_ptr<tessera::runtime::Kernel> kernel;
  tessera_device device = nullptr;  // where it was loaded
  size_t numParams = 0;
  std::vector<bool> written;  // per parameter: may the kernel store through it (compiled kernels only)
  int threadsPerProgram = 1;
  int64_t sharedMemoryBytes = 0;
  bool fromCache = false;
};

namespace tessera::capi {

// Records `message` as the thread's last error and returns `status`.
tessera_status fail(tessera_status status, std::string message);
tessera_status fromStatus(const runtime::Status &status);
// One handle per runtime device, alive for the process; liveDevice gives
// a handle's wrapper, or null for a garbage handle.
tessera_device wrapDevice(runtime::Device *device);
tessera_device_t *liveDevice(tessera_device handle);

// Runs `body`, turning any C++ exception into a status: nothing may unwind
// through the C interface.
template <typename F>
tessera_status guarded(F &&body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return fail(TESSERA_ERROR_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception &e) {
    return fail(TESSERA_ERROR_INTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    return fail(TESSERA_ERROR_INTERNAL, "internal error: unknown exception");
  }
}

// The compiler identity mixed into every cache key: the version and the
// build id of the binary that holds this code, so a rebuilt compiler never
// reuses another build's kernels.
const std::string &compilerVersion();

// The runtime backend whose devices run code of a compile target.
std::string backendForTarget(const std::string &target);
// The error for a target with no code generator in this build.
std::string noTargetMessage(const std::string &target, const std::string &error);

// Tests replace the target registry (e.g. with a target that returns a
// hand-written shared object) to exercise the compile path and the cache
// before a code generator exists. An empty function restores the registry.
using TargetFactory = std::function<std::unique_ptr<targets::Target>(std::string_view name, std::string *error)>;
void setTargetFactoryForTesting(TargetFactory factory);
std::unique_ptr<targets::Target> makeTarget(std::string_view name, std::string *error);

} // namespace tessera::capi
