#include "targets/Available.h"

#ifdef TESSERA_WITH_LLVM
#include "llvm/Config/llvm-config.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#endif

namespace tessera::targets {

#ifdef TESSERA_WITH_LLVM
extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeAMDGPUTargetInfo();
extern "C" void LLVMInitializeX86TargetInfo();

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
#else
static bool llvmHas(const char *) { return false; }
#endif

std::string llvmVersion() {
#ifdef TESSERA_WITH_LLVM
  return LLVM_VERSION_STRING;
#else
  return "";
#endif
}

std::vector<BackendStatus> availableBackends() {
  const char *pending = "tile IR lowering for this target is not implemented yet";
  return {
      {"cpu", "LLVM x86-64 + ORC JIT", llvmHas("x86-64"), pending},
      {"nvptx", "LLVM NVPTX -> ptxas", llvmHas("nvptx64"), pending},
      {"amdgpu", "LLVM AMDGPU -> lld", llvmHas("amdgcn"), pending},
      {"spirv", "Tessera's SPIR-V emitter (LLVM 19 has none)", false, pending},
  };
}

} // namespace tessera::targets
