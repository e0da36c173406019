#include "targets/Available.h"

#include "targets/Target.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/MC/TargetRegistry.h"

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeAMDGPUTargetInfo();
extern "C" void LLVMInitializeX86TargetInfo();

namespace tessera::targets {

static bool llvmHas(const char *name) {
  static bool initialized = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeX86TargetInfo();
    return true;
  }();
  (void)initialized;
  for (const llvm::Target &t : llvm::TargetRegistry::targets())
    if (std::string(t.getName()) == name) return true;
  return false;
}

std::string llvmVersion() { return LLVM_VERSION_STRING; }

std::vector<BackendStatus> availableBackends() {
  const char *pending = "tile IR lowering for this target is not implemented yet";
  auto registered = [](const char *n) {
    for (auto &t : targetNames())
      if (t == n) return true;
    return false;
  };
  // amdgpu: LLVM's target description is linked (so the name resolves), its
  // code generator is not yet.
  return {
      {"cpu", "LLVM x86-64 -> shared object (lld)", llvmHas("x86-64") && registered("cpu"),
       registered("cpu") ? "compiles kernels (tessera compile --target cpu)" : pending},
      {"nvptx", "LLVM NVPTX -> PTX -> ptxas or driver JIT", llvmHas("nvptx64") && registered("nvptx"),
       registered("nvptx") ? "compiles kernels for sm_80, sm_86, sm_89, sm_90, sm_90a (tessera compile --target nvptx)"
                           : pending},
      {"amdgpu", "LLVM AMDGPU -> lld", false, pending},
      {"spirv", "Tessera's SPIR-V emitter (LLVM 19 has none)", false, pending},
  };
}

} // namespace tessera::targets
