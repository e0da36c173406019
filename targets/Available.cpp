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
  std::vector<BackendStatus> out;
  for (const TargetRow &row : targetRows()) {
    // A row's generator is usable when it is linked and so is the LLVM
    // backend it drives (amdgpu: LLVM's target description is linked, its
    // code generator is not yet).
    bool present = row.present() && (!*row.llvmTarget || llvmHas(row.llvmTarget));
    out.push_back({row.name, row.generator, present,
                   present ? std::string("compiles kernels (tessera compile --target ") + row.name + ")"
                           : "tile IR lowering for this target is not implemented yet",
                   &row});
  }
  return out;
}

} // namespace tessera::targets
