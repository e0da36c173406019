// The backend registry. Backends are listed in a fixed table rather than
// registered by static constructors: the runtime is a static library, and a
// linker drops objects nothing references, constructors included.
#include "runtime/Runtime.h"
#include "runtime/hip/HipBackend.h"
#include "runtime/host/HostBackend.h"
#include "runtime/level_zero/LevelZeroBackend.h"
#include "runtime/opencl/OpenclBackend.h"
#include "runtime/vulkan/VulkanBackend.h"
#if TESSERA_HAVE_CUDA_BACKEND
#include "runtime/cuda/CudaBackend.h"
#endif

namespace tessera::runtime {

namespace {

struct Entry {
  const char *name;
  // Returns null when the backend cannot be used here (no driver, no device);
  // GPU backends dlopen their vendor library inside their probe.
  Backend *(*probe)();
  // Why probe() returned null (the driver call and its error); may be null.
  Status (*why)();
};

// Preference order: GPUs first, the host last.
const Entry kBackends[] = {
#if TESSERA_HAVE_CUDA_BACKEND
    {"cuda", &cudaBackend, &cudaBackendStatus},
#endif
    {"hip", &hipBackend, &hipBackendStatus},
    {"level_zero", &levelZeroBackend, &levelZeroBackendStatus},
    {"vulkan", &vulkanBackend, &vulkanBackendStatus},
    {"opencl", &openclBackend, &openclBackendStatus},
    {"host", &hostBackend, nullptr},
};

} // namespace

Status Device::attribute(std::string_view name, int64_t &) const {
  return {StatusCode::NotFound, "the " + backend() + " device has no attribute '" + std::string(name) +
                                    "' (CUDA devices know multiprocessor_count, max_shared_mem, max_num_regs, warpSize, "
                                    "sm_clock_rate, mem_clock_rate, mem_bus_width, max_threads_per_block, l2_cache_size)"};
}

std::vector<std::string> backendNames() {
  std::vector<std::string> names;
  for (const Entry &e : kBackends)
    if (e.probe()) names.push_back(e.name);
  return names;
}

Backend *getBackend(std::string_view name, Status *status) {
  for (const Entry &e : kBackends) {
    if (name != e.name) continue;
    Backend *b = e.probe();
    if (!b && status) {
      std::string reason = e.why ? e.why().message() : "";
      *status = Status(StatusCode::Unavailable, "backend '" + std::string(name) + "' is not usable on this machine" +
                                                    (reason.empty() ? "" : ": " + reason));
    }
    else if (status) *status = Status::ok();
    return b;
  }
  if (status) {
    std::string known;
    for (const std::string &n : backendNames()) known += (known.empty() ? "" : ", ") + n;
    *status = Status(StatusCode::NotFound, "no runtime backend named '" + std::string(name) + "' (usable here: " + known + ")");
  }
  return nullptr;
}

Status getDevice(std::string_view backend, int index, Device *&out) {
  out = nullptr;
  Status st;
  Backend *b = getBackend(backend, &st);
  if (!b) return st;
  return b->device(index, out);
}

} // namespace tessera::runtime
