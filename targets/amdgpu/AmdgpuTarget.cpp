#include "targets/amdgpu/AmdgpuTarget.h"

#include "targets/amdgpu/Lowerings.h"
#include "targets/amdgpu/TargetInfo.h"
#include "targets/llvm/GpuDriver.h"

#include "llvm/MC/TargetRegistry.h"
#include "llvm/Target/TargetMachine.h"

#include <cstdlib>
#include <mutex>

extern "C" void LLVMInitializeAMDGPUTargetInfo();
extern "C" void LLVMInitializeAMDGPUTarget();
extern "C" void LLVMInitializeAMDGPUTargetMC();
extern "C" void LLVMInitializeAMDGPUAsmPrinter();
extern "C" void LLVMInitializeAMDGPUAsmParser();

namespace tessera::targets::amdgpu {
namespace {

constexpr const char *kTriple = "amdgcn-amd-amdhsa";

// The architectures we generate code for, as data: lanes per wave, LDS a
// work-group may use, the features that fix the wave size, ocml's
// __oclc_ISA_version for it, whether VGPRs and AGPRs share one file, and
// the last word of a raw buffer resource (BufferAccess.cpp): on CDNA,
// data format 32 (4 << 15) and number format float (7 << 12); on RDNA3,
// format 0x27 in bits 12-18, bit 24 (which gfx10 on require) and range
// checks on the offset alone (OOB_SELECT 3 << 28), as LLVM's MLIR AMDGPU
// lowering writes them.
struct ArchInfo {
  const char *name;
  int waveSize;
  int64_t ldsBytes;
  const char *features;
  int isaVersion;
  bool unifiedRegisters;
  uint32_t bufferFormat;
};
constexpr ArchInfo kArchs[] = {
    {"gfx90a", 64, 64 * 1024, "+wavefrontsize64", 9010, true, 0x00027000},
    {"gfx942", 64, 64 * 1024, "+wavefrontsize64", 9402, true, 0x00027000},
    {"gfx1100", 32, 64 * 1024, "+wavefrontsize32", 11000, false, 0x31027000},
};

const llvm::Target *amdgpu(std::string &error) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMInitializeAMDGPUAsmParser();
  });
  return llvm::TargetRegistry::lookupTarget(kTriple, error);
}

std::string requestedArch(const TargetOptions &o) {
  std::string arch = o.arch;
  if (arch.empty())
    if (const char *env = std::getenv("TESSERA_AMDGPU_ARCH")) arch = env;
  if (arch.empty()) arch = "gfx942";
  // "gfx90a:sramecc+:xnack-" (HIP's gcnArchName): the processor is the first part.
  return arch.substr(0, arch.find(':'));
}

const ArchInfo *findArch(const std::string &name) {
  for (const ArchInfo &a : kArchs)
    if (name == a.name) return &a;
  return nullptr;
}

std::string unsupported(const std::string &arch) {
  std::string names;
  for (const ArchInfo &a : kArchs) names += (names.empty() ? "" : ", ") + std::string(a.name);
  return "unsupported AMD GPU architecture '" + arch + "' (supported: " + names + ")";
}

class AmdgpuToolchain final : public llvmgen::GpuToolchain {
public:
  AmdgpuToolchain(const ArchInfo &arch, std::string entry) : arch_(arch), entry_(std::move(entry)) {}

  std::unique_ptr<llvm::TargetMachine> targetMachine(std::string &error) const override {
    const llvm::Target *target = amdgpu(error);
    if (!target) return nullptr;
    llvm::TargetOptions topts;
    std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(kTriple, arch_.name, arch_.features, topts,
                                                                        llvm::Reloc::PIC_, std::nullopt,
                                                                        llvm::CodeGenOptLevel::Aggressive));
    if (!tm) error = std::string("LLVM cannot create an AMDGPU target machine for ") + arch_.name;
    return tm;
  }
  std::unique_ptr<llvmgen::TargetInfo> targetInfo() const override { return createAmdgpuTargetInfo(arch_.name, arch_.waveSize, arch_.unifiedRegisters, arch_.bufferFormat); }
  int64_t sharedMemoryLimit() const override { return arch_.ldsBytes; }
  std::string architecture() const override { return arch_.name; }

  bool linkDeviceLibraries(llvm::Module &m, std::string &error) const override {
    m.addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version", uint32_t(500));
    return amdgpu::linkDeviceLibraries(m, arch_.isaVersion, arch_.waveSize, error);
  }
  std::string deviceLibraries() const override { return "ROCm's device libraries (ocml, ockl)"; }
  // Assembly, which Assemble.cpp turns into an object (see there why).
  llvm::CodeGenFileType codegenOutput() const override { return llvm::CodeGenFileType::AssemblyFile; }

  bool finish(const std::string &text, const TargetOptions &options, CompiledKernel &out,
              std::string &error) const override {
    if (options.emitAssembly) out.assembly = text;
    PhaseTimer timer;
    const llvm::Target *target = amdgpu(error);
    std::string object;
    if (!target || !assemble(*target, kTriple, arch_.name, arch_.features, text, object, error)) return false;
    timer.mark("assemble");
    std::vector<uint8_t> hsaco;
    if (!linkCodeObject(object, entry_, arch_.ldsBytes, arch_.waveSize, hsaco, error)) return false;
    timer.mark("link");
    out.format = "hsaco";
    out.binary = std::move(hsaco);
    return true;
  }

private:
  const ArchInfo &arch_;
  std::string entry_;
};

class AmdgpuTarget final : public Target {
public:
  std::string name() const override { return "amdgpu"; }

  TargetFacts facts(const TargetOptions &o) const override {
    const ArchInfo *arch = findArch(requestedArch(o));
    TargetFacts f;
    f.warpSize = arch ? arch->waveSize : 64;
    f.vectorBits = 128;
    f.sharedMemoryBytes = arch ? arch->ldsBytes : 64 * 1024;
    // Triton's AMD default: with no asynchronous copies, a second stage
    // (staged through registers) already overlaps the next tile's loads
    // with this one's MFMAs.
    f.defaultStages = 2;
    f.asyncCopies = false;
    f.deviceLibraryPrefixes = {"__ocml_"};  // ocml (DeviceLibs.cpp)
    return f;
  }

  std::string architecture(const TargetOptions &o) const override {
    const ArchInfo *arch = findArch(requestedArch(o));
    return arch ? arch->name : "";
  }

  std::string fingerprint(const TargetOptions &o) const override {
    const ArchInfo *arch = findArch(requestedArch(o));
    return std::string("amdgpu;") + kTriple + ";" + requestedArch(o) + ";" + (arch ? arch->features : "") +
           ";cov5;warps" + std::to_string(o.numWarps) + ";stages" + std::to_string(pipelineStages(*this, o)) +
           ";devlibs=" + deviceLibraryDirectory();
  }

  std::vector<std::string> pipeline() const override {
    return {"inline", "lower-descriptor-loads", "check-bounds", "canonicalize", "cse", "licm", "dce", "canonicalize", "pipeline-loops", "dce", "assign-layouts",
            "dce", "sink-casts", "lower-to-threads", "allocate-shared", "insert-barriers"};
  }

  bool compile(ir::Module &module, const std::string &entry, const TargetOptions &options, CompiledKernel &out,
               std::string &error) override {
    const ArchInfo *arch = findArch(requestedArch(options));
    if (!arch) {
      error = unsupported(requestedArch(options));
      return false;
    }
    return llvmgen::compileGpuKernel(*this, AmdgpuToolchain(*arch, entry), module, entry, options, out, error);
  }
};

} // namespace

std::unique_ptr<Target> createAmdgpuTarget() {
  registerLowerings();
  return std::make_unique<AmdgpuTarget>();
}

} // namespace tessera::targets::amdgpu
