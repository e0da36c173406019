// CUDA modules and kernels: PTX (JIT-compiled by the driver) or cubin,
// loaded once per (binary, context) and shared by every Module that asks for
// the same bytes; launches go through cuLaunchKernel's kernelParams array,
// which is exactly the runtime's args[] convention.
#include "runtime/Sha256.h"
#include "runtime/cuda/CudaInternal.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

namespace tessera::runtime {

namespace {

// Above this, dynamic shared memory must be opted into per function.
constexpr int64_t kDefaultDynamicSharedLimit = 48 * 1024;

class CudaKernel final : public Kernel {
public:
  CudaKernel(CudaDevice &device, std::shared_ptr<LoadedCudaModule> module, std::string name, CUfunction fn, size_t numArgs)
      : device_(device), module_(std::move(module)), name_(std::move(name)), fn_(fn), numArgs_(numArgs) {}
  const std::string &name() const override { return name_; }

  Status setTensorMaps(std::vector<TensorMapParam> maps) override {
    for (const TensorMapParam &m : maps) {
      size_t rank = m.box.size();
      bool ok = rank >= 1 && rank <= 5 && m.base < numArgs_ && m.fields.size() == 2 * rank &&
                (m.elementBytes == 1 || m.elementBytes == 2 || m.elementBytes == 4 || m.elementBytes == 8);
      for (const TensorMapField &f : m.fields) {
        ok = ok && f.constant >= 1;
        for (auto [arg, bytes] : f.args) ok = ok && arg >= 0 && size_t(arg) < numArgs_ && (bytes == 4 || bytes == 8);
      }
      if (!ok) return {StatusCode::InvalidArgument, "kernel '" + name_ + "': a malformed tensor map parameter"};
    }
    if (!maps.empty() && !device_.driver().cuTensorMapEncodeTiled)
      return {StatusCode::Unsupported, "kernel '" + name_ + "' copies through tensor maps, and this CUDA driver (" +
                                           device_.driver().path + ") has no cuTensorMapEncodeTiled (CUDA 12 or newer has)"};
    if (!maps.empty()) {
      static const uint8_t zeros[kEmptyScratchBytes] = {};
      if (Status st = device_.allocate(kEmptyScratchBytes, emptyScratch_); !st) return st;
      if (Status st = device_.copyToDevice(*emptyScratch_, 0, zeros, kEmptyScratchBytes, nullptr); !st) return st;
    }
    maps_ = std::move(maps);
    return Status::ok();
  }

  Status launch(const LaunchConfig &config, void **args, size_t numArgs, Stream *stream) override {
    if (Status st = checkArgs(args, numArgs, numArgs_); !st) return st;
    CUstream s;
    if (Status st = device_.streamHandle(stream, s); !st) return {st.code(), "launch: " + st.message()};
    if (config.threadsPerProgram < 1)
      return {StatusCode::InvalidArgument, "launch of '" + name_ + "': threads per program must be positive"};
    if (config.sharedMemoryBytes < 0 || config.sharedMemoryBytes > INT32_MAX)
      return {StatusCode::InvalidArgument, "launch of '" + name_ + "': bad dynamic shared memory size " +
                                               std::to_string(config.sharedMemoryBytes)};
    if (config.grid[0] == 0 || config.grid[1] == 0 || config.grid[2] == 0) return Status::ok();  // nothing to run
    // Current before the tensor maps too: cuTensorMapEncodeTiled fails with
    // CUDA_ERROR_INVALID_CONTEXT on a thread with no current context (a
    // process without torch, which would have made one current).
    const CudaDriver &d = device_.driver();
    ContextGuard guard(d, device_.context());
    if (!guard.status()) return guard.status();
    // The caller's arguments, then the tensor maps built from them.
    std::vector<void *> all;
    std::vector<CUtensorMap> maps(maps_.size());  // CUtensorMap is 64-byte aligned, as the driver requires
    if (!maps_.empty()) {
      all.assign(args, args + numArgs);
      for (size_t i = 0; i < maps_.size(); ++i) {
        if (Status st = encodeTensorMap(maps_[i], args, maps[i]); !st) return st;
        all.push_back(&maps[i]);
      }
      args = all.data();
    }
    if (Status st = reserveSharedMemory(config.sharedMemoryBytes); !st) return st;
    CUresult r = d.cuLaunchKernel(fn_, config.grid[0], config.grid[1], config.grid[2], unsigned(config.threadsPerProgram), 1, 1,
                                  unsigned(config.sharedMemoryBytes), s, args, nullptr);
    if (r == CUDA_SUCCESS) return Status::ok();
    return {StatusCode::LaunchFailed, "cuLaunchKernel of '" + name_ + "' (grid " + std::to_string(config.grid[0]) + "x" +
                                          std::to_string(config.grid[1]) + "x" + std::to_string(config.grid[2]) + ", " +
                                          std::to_string(config.threadsPerProgram) + " threads, " +
                                          std::to_string(config.sharedMemoryBytes) + " bytes of dynamic shared memory) failed: " +
                                          d.describe(r)};
  }

  Status attribute(const std::string &name, int64_t &value) const override {
    CUfunction_attribute which = name == "num_regs" ? CU_FUNC_ATTRIBUTE_NUM_REGS : CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES;
    const CudaDriver &d = device_.driver();
    ContextGuard guard(d, device_.context());
    if (!guard.status()) return guard.status();
    int v = 0;
    CUresult r = d.cuFuncGetAttribute(&v, which, fn_);
    if (r != CUDA_SUCCESS)
      return {StatusCode::LaunchFailed, "cuFuncGetAttribute(" + name + ") for '" + name_ + "' failed: " + d.describe(r)};
    value = v;
    return Status::ok();
  }

private:
  // The map of `m` from its base, extents and strides among `args` (TMA's
  // dimension order is the reverse of the descriptor's).
  Status encodeTensorMap(const TensorMapParam &m, void **args, CUtensorMap &out) const {
    size_t rank = m.box.size();
    uint64_t base = *static_cast<const uint64_t *>(args[m.base]);
    cuuint64_t dims[5], strides[4];
    cuuint32_t box[5], elementStrides[5];
    int64_t extents[5];
    bool empty = false;  // its strides then do not matter (K = 0 makes a stride of 0)
    for (size_t d = 0; d < rank; ++d) {
      extents[d] = m.fields[d].value(args);
      empty = empty || extents[d] < 1;
    }
    for (size_t k = 0; k < rank && !empty; ++k) {
      size_t d = rank - 1 - k;
      int64_t extent = extents[d];
      int64_t stride = m.fields[rank + d].value(args);
      if (extent > (int64_t(1) << 31) || (k == 0 && stride != 1) ||
          (k > 0 && (stride < 1 || (stride * m.elementBytes) % 16 || stride * m.elementBytes >= (int64_t(1) << 40))))
        return {StatusCode::InvalidArgument, "launch of '" + name_ + "': a tensor descriptor with shape dimension " +
                                                 std::to_string(extent) + " and stride " + std::to_string(stride) +
                                                 " cannot be copied by a tensor map (it was compiled for one that can; "
                                                 "a tensor map holds extents up to 2^31)"};
      dims[k] = cuuint64_t(extent);
      if (k > 0) strides[k - 1] = cuuint64_t(stride * m.elementBytes);
      box[k] = cuuint32_t(m.box[d]);
      elementStrides[k] = 1;
    }
    // A tensor without elements, where a masked load reads only padding: a
    // map of one element of zeros (its own, or a sink for stores), every
    // other coordinate out of bounds.
    if (empty) {
      base = reinterpret_cast<uint64_t>(emptyScratch_->devicePointer()) + (m.stores ? kEmptyScratchBytes / 2 : 0);
      for (size_t k = 0; k < rank; ++k) {
        dims[k] = 1;
        if (k > 0) strides[k - 1] = 16;
        box[k] = cuuint32_t(m.box[rank - 1 - k]);
        elementStrides[k] = 1;
      }
    }
    if (base % 16)
      return {StatusCode::InvalidArgument, "launch of '" + name_ + "': a tensor descriptor's base address is not 16-byte aligned"};
    static constexpr CUtensorMapDataType kTypes[] = {CU_TENSOR_MAP_DATA_TYPE_UINT8, CU_TENSOR_MAP_DATA_TYPE_UINT16,
                                                     CU_TENSOR_MAP_DATA_TYPE_UINT32, CU_TENSOR_MAP_DATA_TYPE_UINT64};
    CUtensorMapDataType type = kTypes[m.elementBytes == 1 ? 0 : m.elementBytes == 2 ? 1 : m.elementBytes == 4 ? 2 : 3];
    CUtensorMapSwizzle swizzle = m.swizzleBytes == 128 ? CU_TENSOR_MAP_SWIZZLE_128B
                                 : m.swizzleBytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                 : m.swizzleBytes == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                                        : CU_TENSOR_MAP_SWIZZLE_NONE;
    const CudaDriver &d = device_.driver();
    CUresult r = d.cuTensorMapEncodeTiled(&out, type, cuuint32_t(rank), reinterpret_cast<void *>(base), dims, strides, box,
                                          elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                                          CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
      return {StatusCode::InvalidArgument, "launch of '" + name_ + "': cuTensorMapEncodeTiled failed: " + d.describe(r)};
    return Status::ok();
  }

  // Raises the function's dynamic shared memory limit when a launch needs
  // more than the default 48 KB; only ever grows, so a launch of a smaller
  // size never pays for the call.
  Status reserveSharedMemory(int64_t bytes) {
    if (bytes <= kDefaultDynamicSharedLimit || bytes <= reserved_.load()) return Status::ok();
    const CudaDriver &d = device_.driver();
    CUresult r = d.cuFuncSetAttribute(fn_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(bytes));
    if (r != CUDA_SUCCESS)
      return {StatusCode::LaunchFailed, "cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, " + std::to_string(bytes) +
                                            ") for '" + name_ + "' failed: " + d.describe(r)};
    int64_t seen = reserved_.load();
    while (seen < bytes && !reserved_.compare_exchange_weak(seen, bytes)) {
    }
    return Status::ok();
  }

  CudaDevice &device_;
  std::shared_ptr<LoadedCudaModule> module_;  // keeps the CUmodule alive
  std::string name_;
  CUfunction fn_;
  size_t numArgs_;
  std::vector<TensorMapParam> maps_;
  // Zeros for the maps of empty tensors, and past half of it a sink for
  // those the kernel writes through (encodeTensorMap).
  static constexpr size_t kEmptyScratchBytes = 64;
  std::unique_ptr<Buffer> emptyScratch_;
  std::atomic<int64_t> reserved_{kDefaultDynamicSharedLimit};
};

class CudaModule final : public Module {
public:
  CudaModule(CudaDevice &device, std::shared_ptr<LoadedCudaModule> module) : device_(device), module_(std::move(module)) {}
  Status getKernel(const std::string &entry, size_t numArgs, std::unique_ptr<Kernel> &out) override {
    const CudaDriver &d = device_.driver();
    ContextGuard guard(d, device_.context());
    if (!guard.status()) return guard.status();
    CUfunction fn = nullptr;
    CUresult r = d.cuModuleGetFunction(&fn, module_->module, entry.c_str());
    if (r != CUDA_SUCCESS)
      return {r == CUDA_ERROR_NOT_FOUND ? StatusCode::NotFound : StatusCode::LoadFailed,
              "no kernel entry '" + entry + "' in the module: cuModuleGetFunction failed: " + d.describe(r)};
    out = std::make_unique<CudaKernel>(device_, module_, entry, fn, numArgs);
    return Status::ok();
  }

private:
  CudaDevice &device_;
  std::shared_ptr<LoadedCudaModule> module_;
};

// The log buffers are fixed-size: the driver truncates longer logs.
constexpr size_t kLogBytes = 16 * 1024;

Status loadImage(const CudaDriver &d, std::string_view format, const void *image, CUmodule &out) {
  if (format == "cubin") return d.check(d.cuModuleLoadDataEx(&out, image, 0, nullptr, nullptr), "cuModuleLoadDataEx (cubin)", StatusCode::LoadFailed);
  // PTX is compiled by the driver's JIT: ask for its error log, which names
  // the PTX line at fault.
  std::string errorLog(kLogBytes, '\0');
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog.data(), reinterpret_cast<void *>(uintptr_t(kLogBytes))};
  CUresult r = d.cuModuleLoadDataEx(&out, image, 2, options, values);
  if (r == CUDA_SUCCESS) return Status::ok();
  errorLog.resize(std::strlen(errorLog.c_str()));
  std::string message = "cuModuleLoadDataEx (ptx) failed: " + d.describe(r);
  if (!errorLog.empty()) message += "\nptxas/JIT log:\n" + errorLog;
  return {r == CUDA_ERROR_OUT_OF_MEMORY ? StatusCode::OutOfMemory : StatusCode::LoadFailed, message};
}

} // namespace

LoadedCudaModule::~LoadedCudaModule() {
  if (!cudaUsableHere()) return;  // a forked child: the parent's, and CUDA is unusable here
  ContextGuard guard(*driver, context);
  (void)driver->cuModuleUnload(module);  // fails only after driver teardown at exit
}

Status CudaDevice::loadModule(std::string_view format, const void *binary, size_t size, std::unique_ptr<Module> &out) {
  if (format != "ptx" && format != "cubin")
    return {StatusCode::Unsupported, "the cuda backend loads 'ptx' and 'cubin' binaries, not '" + std::string(format) + "'"};
  if (!binary || size == 0) return {StatusCode::LoadFailed, "an empty " + std::string(format) + " binary"};
  // The driver reads PTX as a NUL-terminated string; the caller's bytes need not be.
  std::string image(static_cast<const char *>(binary), size);
  if (format == "cubin" && (size < 4 || std::memcmp(binary, "\x7f" "ELF", 4) != 0))
    return {StatusCode::LoadFailed, "the cubin binary is not an ELF file (was PTX passed as format 'cubin'?)"};

  Sha256 h;
  h.update(format);
  h.update(image);
  std::string key = h.hexDigest();
  std::lock_guard<std::mutex> lock(cacheMutex_);
  std::shared_ptr<LoadedCudaModule> loaded = moduleCache_[key].lock();
  if (!loaded) {
    ContextGuard guard(driver_, context_);
    if (!guard.status()) return guard.status();
    CUmodule m = nullptr;
    if (Status st = loadImage(driver_, format, image.data(), m); !st) return st;
    loaded = std::make_shared<LoadedCudaModule>();
    loaded->driver = &driver_, loaded->context = context_, loaded->module = m;
    moduleCache_[key] = loaded;
    // Forget entries whose modules are gone, so the map does not grow forever.
    std::erase_if(moduleCache_, [](const auto &kv) { return kv.second.expired(); });
  }
  out = std::make_unique<CudaModule>(*this, std::move(loaded));
  return Status::ok();
}

} // namespace tessera::runtime
