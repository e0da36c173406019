// Thread IR (ir/IR.h, "Levels") -> LLVM IR, shared by every GPU target that
// emits LLVM (nvptx; amdgpu). One LLVM value per thread-IR value; the
// elementwise semantics come from ElementwiseEmitter, the hardware from the
// target's TargetInfo hooks; structured control flow becomes blocks and phis.
#pragma once

#include "targets/Target.h"
#include "targets/llvm/Elementwise.h"
#include "targets/llvm/TargetInfo.h"

namespace tessera::targets::llvmgen {

struct GpuKernelInfo {
  std::vector<KernelParam> params;
  int threads = 0;
  int64_t sharedMemoryBytes = 0;
};

// Emits thread-level kernel `kernel` of `source` into `module` as entry
// point `symbol`, run by as many warps of as many threads per program as
// lower-to-threads used (`source`'s attributes num_warps and warp_size).
// Returns false with `error` set for IR it cannot emit. From `options`:
// whether a mul may be contracted with an add into an fma (fpFusion), and a
// cap on registers per thread (maxRegisters).
bool emitThreadKernel(const ir::Module &source, const ir::Function &kernel, const std::string &symbol,
                      const TargetInfo &info, const TargetOptions &options, llvm::Module &module, GpuKernelInfo &out,
                      std::string &error);

} // namespace tessera::targets::llvmgen
