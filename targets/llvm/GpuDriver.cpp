#include "targets/llvm/GpuDriver.h"

#include "targets/llvm/Codegen.h"
#include "targets/llvm/Elementwise.h"
#include "targets/llvm/ExternCalls.h"
#include "targets/llvm/ThreadEmitter.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

namespace tessera::targets::llvmgen {

bool compileGpuKernel(const Target &target, const GpuToolchain &toolchain, ir::Module &module, const std::string &entry,
                      const TargetOptions &options, CompiledKernel &out, std::string &error) {
  if (int n = options.numWarps; n < 1 || n > 32 || (n & (n - 1))) {
    error = "num_warps must be a power of two from 1 to 32, not " + std::to_string(n);
    return false;
  }
  const ir::Function *kernel = runPipeline(target, module, entry, options, error);
  if (!kernel) return false;
  std::unique_ptr<llvm::TargetMachine> tm = toolchain.targetMachine(error);
  if (!tm) return false;
  llvm::LLVMContext ctx;
  llvm::Module m("tessera." + entry, ctx);
  m.setTargetTriple(tm->getTargetTriple().str());
  m.setDataLayout(tm->createDataLayout());
  std::unique_ptr<TargetInfo> info = toolchain.targetInfo();
  GpuKernelInfo ki;
  PhaseTimer timer;
  // For the target's math and device libraries (llvmgen::flushesSubnormals).
  if (options.flushSubnormals) m.addModuleFlag(llvm::Module::Override, kFlushSubnormalsFlag, uint32_t(1));
  if (!emitThreadKernel(module, *kernel, entry, *info, options, m, ki, error)) return false;
  timer.mark("lower");
  if (ki.sharedMemoryBytes > toolchain.sharedMemoryLimit()) {
    error = "kernel '" + entry + "' needs " + std::to_string(ki.sharedMemoryBytes) + " bytes of shared memory; " +
            toolchain.architecture() + " has " + std::to_string(toolchain.sharedMemoryLimit()) + " (use smaller blocks)";
    out.outOfResources = true;
    return false;
  }
  if (options.lowerOnly) return true;
  std::vector<ExternCallSite> externCalls = externCallSites(module, m);
  if (!toolchain.linkDeviceLibraries(m, error)) return false;
  if (!checkExternCalls(externCalls, m, target.name(), toolchain.deviceLibraries(), error)) return false;
  timer.mark("libraries");
  optimizeModule(m, *tm, toolchain.llvmOptLevel(options.optLevel));
  timer.mark("optimize");
  auto generate = [&](llvm::Module &input, llvm::CodeGenFileType type, std::string &result) {
    if (generateCode(input, *tm, type, toolchain.strengthReducesLoops(), result)) return true;
    error = "LLVM cannot generate code for " + target.name() + " " + toolchain.architecture();
    return false;
  };
  // A toolchain that generates objects shows their assembly when asked
  // (code generation changes the module, so it runs on a copy).
  if (options.emitAssembly && toolchain.codegenOutput() == llvm::CodeGenFileType::ObjectFile) {
    std::unique_ptr<llvm::Module> copy = llvm::CloneModule(m);
    if (!generate(*copy, llvm::CodeGenFileType::AssemblyFile, out.assembly)) return false;
  }
  std::string codegen;
  if (!generate(m, toolchain.codegenOutput(), codegen)) return false;
  timer.mark("codegen");
  if (!toolchain.finish(codegen, options, out, error)) return false;
  out.target = target.name();
  out.entry = entry;
  out.params = ki.params;
  markWrittenParams(*kernel, out.params);
  out.threadsPerProgram = ki.threads;
  out.sharedMemoryBytes = ki.sharedMemoryBytes;
  return true;
}

} // namespace tessera::targets::llvmgen
