// The compile driver every GPU target that emits LLVM shares: its pass
// pipeline (ending at thread IR), the thread emitter, the target's device
// libraries, LLVM's optimizer, code generation, and the target's last step
// to a binary. A target supplies a GpuToolchain; the order of the steps and
// their errors and timings are written once here.
#pragma once

#include "targets/Target.h"
#include "targets/llvm/TargetInfo.h"

#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>

namespace tessera::targets::llvmgen {

class GpuToolchain {
public:
  virtual ~GpuToolchain() = default;
  // The LLVM target machine for this compile (triple, cpu, features).
  virtual std::unique_ptr<llvm::TargetMachine> targetMachine(std::string &error) const = 0;
  virtual std::unique_ptr<TargetInfo> targetInfo() const = 0;
  // Shared memory one program may use on this architecture, in bytes.
  virtual int64_t sharedMemoryLimit() const = 0;
  virtual std::string architecture() const = 0;  // for messages: "sm_90a", "gfx942"
  // Links the device libraries the module calls (libdevice, ocml...).
  virtual bool linkDeviceLibraries(llvm::Module &m, std::string &error) const = 0;
  // Their names, for messages ("libdevice").
  virtual std::string deviceLibraries() const = 0;
  // The level of LLVM's optimizer for a requested one (0-3). A target
  // whose assembler optimizes the code again (ptxas) may need less of it.
  virtual int llvmOptLevel(int requested) const { return requested; }
  // Whether LLVM's loop strength reduction runs in code generation.
  virtual bool strengthReducesLoops() const { return true; }
  // What code generation writes: assembly (PTX) or an object file.
  virtual llvm::CodeGenFileType codegenOutput() const = 0;
  // Code generation's output -> the binary, its format and readable form.
  virtual bool finish(const std::string &codegen, const TargetOptions &options, CompiledKernel &out,
                      std::string &error) const = 0;
};

// Compiles kernel `entry` of `module` for `target` with `toolchain`.
bool compileGpuKernel(const Target &target, const GpuToolchain &toolchain, ir::Module &module, const std::string &entry,
                      const TargetOptions &options, CompiledKernel &out, std::string &error);

} // namespace tessera::targets::llvmgen
