#include "targets/nvptx/NvptxTarget.h"

#include "ir/Parser.h"
#include "ir/Printer.h"
#include "targets/llvm/GpuDriver.h"
#include "targets/nvptx/Lowerings.h"
#include "targets/nvptx/Mma.h"
#include "targets/nvptx/TargetInfo.h"

#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
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
// PTX ISA 8.4 (CUDA 12.4 drivers and ptxas): fp8 mma needs it; every
// arch we emit accepts it.
constexpr const char *kPtxFeatures = "+ptx84";

// Architectures we generate code for (a table, not branches): shared memory
// per program block (bytes) is what a launch may request; warpgroup MMA
// (wgmma, sm_90a) reads dot operands from shared memory in 128-byte atoms.
struct ArchInfo {
  const char *name;
  int64_t sharedMemoryBytes;
  bool warpgroupMma;
};
constexpr ArchInfo kArchs[] = {{"sm_80", 163 * 1024, false}, {"sm_86", 99 * 1024, false}, {"sm_89", 99 * 1024, false},
                               {"sm_90", 227 * 1024, false}, {"sm_90a", 227 * 1024, true}};

const llvm::Target *nvptx(std::string &error) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // Shared-memory pointers in 32 bits (the hardware's): a 64-bit one per
    // shared access doubles the registers its addresses take.
    auto &options = llvm::cl::getRegisteredOptions();
    if (auto it = options.find("nvptx-short-ptr"); it != options.end())
      static_cast<llvm::cl::opt<bool> *>(it->second)->setValue(true);
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

// NVPTX's steps of the shared GPU driver: libdevice, PTX, ptxas.
class NvptxToolchain final : public llvmgen::GpuToolchain {
public:
  explicit NvptxToolchain(ArchChoice choice) : choice_(std::move(choice)) {}

  std::unique_ptr<llvm::TargetMachine> targetMachine(std::string &error) const override {
    const llvm::Target *target = nvptx(error);
    if (!target) return nullptr;
    llvm::TargetOptions topts;
    std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
        kTriple, architecture(), kPtxFeatures, topts, std::nullopt, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
    if (!tm) error = "LLVM cannot create an NVPTX target machine for " + architecture();
    return tm;
  }
  std::unique_ptr<llvmgen::TargetInfo> targetInfo() const override {
    return createNvptxTargetInfo(smNumber(choice_.info->name));
  }
  int64_t sharedMemoryLimit() const override { return choice_.info->sharedMemoryBytes; }
  std::string architecture() const override { return choice_.info->name; }

  bool linkDeviceLibraries(llvm::Module &m, std::string &error) const override {
    if (!linkLibdevice(m, error)) return false;
    m.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(llvmgen::flushesSubnormals(m) ? 1 : 0));
    return true;
  }
  std::string deviceLibraries() const override { return "libdevice"; }
  // ptxas optimizes the PTX again: beyond LLVM's O1 (about two thirds of
  // O3's time) the benchmark kernels' SASS is byte for byte the same.
  int llvmOptLevel(int requested) const override { return std::min(requested, 1); }
  // LLVM's loop strength reduction rewrote a pipelined matmul's carried
  // pointers (one per 16-byte copy, each advancing by the same step) as
  // pointers plus a shared offset, which ptxas turned into chains of moves
  // and wide multiplies ahead of every cp.async; without it the loop's
  // addresses are ready before the copies. On the H200 the 4096^3 bf16
  // matmul went from 657 to 738 TFLOP/s (128x256x64, 8 warps; Triton 3.6
  // 692) and from 475 to 629 at 128x128x64, 4 warps; attention unchanged.
  bool strengthReducesLoops() const override { return false; }
  llvm::CodeGenFileType codegenOutput() const override { return llvm::CodeGenFileType::AssemblyFile; }

  // PTX -> cubin with ptxas; without ptxas (or for newer GPUs) the PTX,
  // which the driver's JIT assembles at load.
  bool finish(const std::string &ptx, const TargetOptions &options, CompiledKernel &out,
              std::string &error) const override {
    if (options.emitAssembly) out.assembly = ptx;
    std::vector<uint8_t> cubin;
    std::string asmError;
    PhaseTimer timer;
    std::string messages;
    bool assembled = !choice_.ptxOnly && assemble(ptx, architecture(), cubin, asmError, &messages);
    serializedWgmma_ = messages.find("(C7515)") != std::string::npos;
    if (!choice_.ptxOnly) timer.mark("ptxas");
    if (assembled) {
      out.format = "cubin";
      out.binary = std::move(cubin);
      return true;
    }
    if (!asmError.empty()) {
      error = asmError;
      return false;
    }
    out.format = "ptx";
    out.binary.assign(ptx.begin(), ptx.end());
    return true;
  }

  // Whether ptxas serialized the kernel's wgmma (its advisory C7515).
  bool serializedWgmma() const { return serializedWgmma_; }

private:
  ArchChoice choice_;
  mutable bool serializedWgmma_ = false;
};

class NvptxTarget final : public Target {
public:
  std::string name() const override { return "nvptx"; }

  TargetFacts facts(const TargetOptions &o) const override {
    ArchChoice c = chooseArch(requestedArch(o));
    TargetFacts f;
    f.warpSize = 32;
    f.vectorBits = 128;
    f.sharedMemoryBytes = c.info ? c.info->sharedMemoryBytes : 227 * 1024;
    f.sharedAtomBytes = c.info && c.info->warpgroupMma && !c.ptxOnly ? 128 : 0;
    f.asyncDots = f.sharedAtomBytes > 0;
    f.tensorMaps = f.sharedAtomBytes > 0;
    f.kMajorDotBits = f.sharedAtomBytes > 0 ? 32 : 0;  // wgmma's tf32
    f.kMajorDotRegisters = f.kMajorDotBits > 0;       // wgmma's A from registers (Wgmma.h)
    f.deviceLibraryPrefixes = {"__nv_"};               // libdevice (Libdevice.cpp)
    return f;
  }

  std::string architecture(const TargetOptions &o) const override {
    ArchChoice c = chooseArch(requestedArch(o));
    return c.info ? c.info->name : "";
  }

  std::string fingerprint(const TargetOptions &o) const override {
    return std::string("nvptx;") + kTriple + ";" + resolveArch(o) + ";" + kPtxFeatures + ";warps" +
           std::to_string(o.numWarps) + ";stages" + std::to_string(pipelineStages(*this, o)) + ";ptxas=" + ptxasPath();
  }

  std::vector<std::string> pipeline() const override {
    return {"inline", "check-bounds", "canonicalize", "cse", "licm", "dce", "canonicalize", "pipeline-loops", "tensor-map-stores", "lower-descriptor-loads", "dce", "assign-layouts",
            "dce", "sink-casts", "lower-to-threads", "allocate-shared", "insert-barriers"};
  }

  bool compile(ir::Module &module, const std::string &entry, const TargetOptions &options, CompiledKernel &out,
               std::string &error) override {
    ArchChoice choice = chooseArch(requestedArch(options));
    if (!choice.info) {
      error = choice.error;
      return false;
    }
    // ptxas serializes every wgmma of a kernel (C7515) when it cannot keep
    // the registers a wgmma reads in flight apart from the next ones it
    // writes: attention's P, read by a P V left in flight round the loop
    // while the next Q K^T fills its accumulator, under register pressure
    // (causal tutorial 06 at 128x64, 4 warps: its second loop). The kernel
    // is then compiled again with those dots waited for within their
    // iteration (wgmma_register_waits), and that version kept if ptxas runs
    // its wgmma asynchronously.
    bool retry = choice.info->warpgroupMma && !choice.ptxOnly;
    std::string original = retry ? ir::printModule(module, ir::PrintOptions{true}) : std::string();
    NvptxToolchain first(choice);
    if (!llvmgen::compileGpuKernel(*this, first, module, entry, options, out, error)) return false;
    if (!retry || !first.serializedWgmma()) return true;
    ir::ParseResult again = ir::parseModule(original);
    if (!again.module) return true;
    again.module->attrs().set("wgmma_register_waits", ir::Attribute(int64_t(1)));
    NvptxToolchain second(choice);
    CompiledKernel waited;
    std::string ignored;
    if (llvmgen::compileGpuKernel(*this, second, *again.module, entry, options, waited, ignored) &&
        !second.serializedWgmma())
      out = std::move(waited);
    return true;
  }
};

} // namespace

std::unique_ptr<Target> createNvptxTarget() {
  registerLowerings();
  return std::make_unique<NvptxTarget>();
}

} // namespace tessera::targets::nvptx
