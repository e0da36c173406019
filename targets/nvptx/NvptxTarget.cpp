#include "targets/nvptx/NvptxTarget.h"

#include "targets/llvm/ThreadEmitter.h"
#include "targets/nvptx/TargetInfo.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <cctype>
#include <cstdlib>
#include <mutex>

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTarget();
extern "C" void LLVMInitializeNVPTXTargetMC();
extern "C" void LLVMInitializeNVPTXAsmPrinter();

namespace tessera::targets::nvptx {
namespace {

constexpr const char *kTriple = "nvptx64-nvidia-cuda";
// PTX ISA 8.0: the oldest that has sm_90a; every arch we emit accepts it.
constexpr const char *kPtxFeatures = "+ptx80";

// Architectures we generate code for (a table, not branches): shared memory
// per program block (bytes) is what a launch may request.
struct ArchInfo {
  const char *name;
  int64_t sharedMemoryBytes;
};
constexpr ArchInfo kArchs[] = {{"sm_80", 163 * 1024}, {"sm_86", 99 * 1024}, {"sm_89", 99 * 1024},
                               {"sm_90", 227 * 1024}, {"sm_90a", 227 * 1024}};

const llvm::Target *nvptx(std::string &error) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
  return llvm::TargetRegistry::lookupTarget(kTriple, error);
}

// What to compile for, given the requested architecture: the table's
// entry, with Hopper's arch-specific features on sm_90 itself; for GPUs
// newer than the table, PTX of the newest entry without arch-specific
// features, which their driver JIT-compiles (a cubin would not run there).
struct ArchChoice {
  const ArchInfo *info = nullptr;
  bool ptxOnly = false;
  std::string error;
};

std::string requestedArch(const TargetOptions &o) {
  if (!o.arch.empty()) return o.arch;
  if (const char *env = std::getenv("TESSERA_NVPTX_ARCH")) return env;
  return "sm_90a";
}

ArchChoice chooseArch(const std::string &requested) {
  ArchChoice c;
  std::string arch = requested == "sm_90" ? "sm_90a" : requested;
  for (const ArchInfo &a : kArchs)
    if (arch == a.name) c.info = &a;
  if (c.info) return c;
  int number = 0;
  if (arch.rfind("sm_", 0) == 0) {
    size_t digits = 3;
    while (digits < arch.size() && std::isdigit(static_cast<unsigned char>(arch[digits]))) ++digits;
    if (digits > 3) number = std::atoi(arch.substr(3, digits - 3).c_str());
  }
  if (number > 90) {
    c.info = &kArchs[3];  // sm_90
    c.ptxOnly = true;
    return c;
  }
  c.error = "unsupported NVIDIA architecture '" + requested +
            "' (supported: sm_80, sm_86, sm_89, sm_90, sm_90a; newer GPUs get sm_90 PTX for the driver to compile)";
  return c;
}

std::string resolveArch(const TargetOptions &o) {
  ArchChoice c = chooseArch(requestedArch(o));
  return c.info ? std::string(c.info->name) + (c.ptxOnly ? "+ptx" : "") : requestedArch(o);
}

class NvptxTarget final : public Target {
public:
  std::string name() const override { return "nvptx"; }

  TargetFacts facts() const override {
    TargetFacts f;
    f.warpSize = 32;
    f.vectorBits = 128;
    f.sharedMemoryBytes = 227 * 1024;
    return f;
  }

  std::string fingerprint(const TargetOptions &o) const override {
    return std::string("nvptx;") + kTriple + ";" + resolveArch(o) + ";" + kPtxFeatures + ";warps" +
           std::to_string(o.numWarps) + ";ptxas=" + ptxasPath();
  }

  std::vector<std::string> pipeline() const override {
    return {"inline", "canonicalize", "cse", "licm", "dce", "canonicalize", "assign-layouts", "lower-to-threads",
            "allocate-shared", "insert-barriers"};
  }

  bool compile(ir::Module &module, const std::string &entry, const TargetOptions &options, CompiledKernel &out,
               std::string &error) override {
    ArchChoice choice = chooseArch(requestedArch(options));
    if (!choice.info) {
      error = choice.error;
      return false;
    }
    const ArchInfo *ai = choice.info;
    std::string arch = ai->name;
    int numWarps = options.numWarps;
    if (numWarps < 1 || numWarps > 32 || (numWarps & (numWarps - 1))) {
      error = "num_warps must be a power of two from 1 to 32, not " + std::to_string(numWarps);
      return false;
    }
    const ir::Function *kernel = runPipeline(*this, module, entry, options, error);
    if (!kernel) return false;
    const llvm::Target *target = nvptx(error);
    if (!target) return false;
    llvm::TargetOptions topts;
    std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
        kTriple, arch, kPtxFeatures, topts, std::nullopt, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
    if (!tm) {
      error = "LLVM cannot create an NVPTX target machine for " + arch;
      return false;
    }
    llvm::LLVMContext ctx;
    llvm::Module m("tessera." + entry, ctx);
    m.setTargetTriple(kTriple);
    m.setDataLayout(tm->createDataLayout());
    std::unique_ptr<llvmgen::TargetInfo> info = createNvptxTargetInfo();
    llvmgen::GpuKernelInfo ki;
    PhaseTimer timer;
    if (!llvmgen::emitThreadKernel(*kernel, entry, *info, facts().warpSize, numWarps, m, ki, error)) return false;
    timer.mark("lower");
    if (ki.sharedMemoryBytes > ai->sharedMemoryBytes) {
      error = "kernel '" + entry + "' needs " + std::to_string(ki.sharedMemoryBytes) + " bytes of shared memory; " + arch +
              " has " + std::to_string(ai->sharedMemoryBytes) + " (use smaller blocks)";
      return false;
    }
    if (!linkLibdevice(m, error)) return false;
    m.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(0));
    timer.mark("libdevice");
    llvmgen::optimizeModule(m, *tm, options.optLevel);
    timer.mark("optimize");
    std::string ptx;
    {
      llvm::SmallString<0> buf;
      llvm::raw_svector_ostream os(buf);
      llvm::legacy::PassManager cg;
      if (tm->addPassesToEmitFile(cg, os, nullptr, llvm::CodeGenFileType::AssemblyFile)) {
        error = "LLVM cannot emit PTX";
        return false;
      }
      cg.run(m);
      ptx = buf.str().str();
    }
    timer.mark("codegen");
    if (options.emitAssembly) out.assembly = ptx;
    std::vector<uint8_t> cubin;
    std::string asmError;
    bool assembled = !choice.ptxOnly && assemble(ptx, arch, cubin, asmError);
    if (!choice.ptxOnly) timer.mark("ptxas");
    if (assembled) {
      out.format = "cubin";
      out.binary = std::move(cubin);
    } else if (!asmError.empty()) {
      error = asmError;
      return false;
    } else {
      out.format = "ptx";  // no ptxas here: the driver's JIT assembles it
      out.binary.assign(ptx.begin(), ptx.end());
    }
    out.target = "nvptx";
    out.entry = entry;
    out.params = ki.params;
    out.threadsPerProgram = ki.threads;
    out.sharedMemoryBytes = ki.sharedMemoryBytes;
    return true;
  }
};

} // namespace

std::unique_ptr<Target> createNvptxTarget() { return std::make_unique<NvptxTarget>(); }

} // namespace tessera::targets::nvptx
