#include "targets/cpu/CpuTarget.h"

#include "targets/cpu/Lowering.h"
#include "targets/cpu/StackFrames.h"
#include "targets/llvm/Codegen.h"
#include "targets/llvm/Lld.h"

#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"


namespace tessera::targets::cpu {
namespace {

struct HostMachine {
  std::string triple, cpu, features;
  int vectorBits = 128;
  bool avx512bw = false;
  const llvm::Target *target = nullptr;
};

const HostMachine &host() {
  static HostMachine h = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    HostMachine m;
    m.triple = llvm::sys::getProcessTriple();
    m.cpu = llvm::sys::getHostCPUName().str();
    bool avx512 = false, avx2 = false;
    for (auto &f : llvm::sys::getHostCPUFeatures()) {
      if (!m.features.empty()) m.features += ",";
      m.features += (f.second ? "+" : "-") + f.first().str();
      avx512 |= f.first() == "avx512f" && f.second;
      avx2 |= f.first() == "avx2" && f.second;
      m.avx512bw |= f.first() == "avx512bw" && f.second;
    }
    m.vectorBits = avx512 ? 512 : avx2 ? 256 : 128;
    std::string err;
    m.target = llvm::TargetRegistry::lookupTarget(m.triple, err);
    return m;
  }();
  return h;
}

std::unique_ptr<llvm::TargetMachine> makeMachine(int optLevel) {
  const HostMachine &h = host();
  llvm::TargetOptions opts;
  // The frames' sizes: a kernel's shared memory on the host (StackFrames.h).
  opts.EmitStackSizeSection = true;
  auto level = optLevel >= 3 ? llvm::CodeGenOptLevel::Aggressive
               : optLevel == 2 ? llvm::CodeGenOptLevel::Default
               : optLevel == 1 ? llvm::CodeGenOptLevel::Less : llvm::CodeGenOptLevel::None;
  return std::unique_ptr<llvm::TargetMachine>(
      h.target->createTargetMachine(h.triple, h.cpu, h.features, opts, llvm::Reloc::PIC_, std::nullopt, level));
}

class CpuTarget final : public Target {
public:
  std::string name() const override { return "cpu"; }

  TargetFacts facts(const TargetOptions &) const override {
    TargetFacts f;
    f.warpSize = 1;
    f.vectorBits = host().vectorBits;
    return f;
  }

  std::string fingerprint(const TargetOptions &options) const override {
    const HostMachine &h = host();
    return "cpu;" + h.triple + ";" + h.cpu + ";" + h.features + ";O" + std::to_string(options.optLevel);
  }

  std::vector<std::string> pipeline() const override {
    return {"inline", "lower-descriptor-loads", "check-bounds", "canonicalize", "cse", "licm", "dce", "canonicalize",
            "unroll-loops"};
  }

  bool compile(ir::Module &module, const std::string &entry, const TargetOptions &options, CompiledKernel &out,
               std::string &error) override {
    const ir::Function *kernel = runPipeline(*this, module, entry, options, error);
    if (!kernel) return false;
    const HostMachine &h = host();
    if (!h.target) {
      error = "LLVM has no code generator for this host (" + h.triple + ")";
      return false;
    }
    std::unique_ptr<llvm::TargetMachine> tm = makeMachine(options.optLevel);
    llvm::LLVMContext ctx;
    llvm::Module m("tessera." + entry, ctx);
    m.setTargetTriple(h.triple);
    m.setDataLayout(tm->createDataLayout());
    HostFacts facts;
    facts.vectorBits = h.vectorBits;
    facts.avx512bw = h.avx512bw;
    std::string symbol = "tessera_kernel_" + entry;
    PhaseTimer timer;
    if (!lowerKernel(*kernel, symbol, facts, m, out.params, error)) return false;
    markWrittenParams(*kernel, out.params);
    timer.mark("lower");
    if (options.lowerOnly) return true;
    llvmgen::optimizeModule(m, *tm, options.optLevel);
    timer.mark("optimize");
    if (options.emitAssembly) {
      llvm::raw_string_ostream os(out.assembly);
      m.print(os, nullptr);
    }
    std::string object;
    if (!llvmgen::generateCode(m, *tm, llvm::CodeGenFileType::ObjectFile, true, object)) {
      error = "LLVM cannot emit object files for " + h.triple;
      return false;
    }
    timer.mark("codegen");
    // A program's tiles live in its thread's stack frame: what Triton's
    // occupancy arithmetic reads as the kernel's shared memory.
    out.sharedMemoryBytes = largestStackFrame(object);
    // libmvec and libm provide the vector and scalar math functions.
    bool ok = llvmgen::linkSharedObject(object, {"--as-needed", "-L/usr/lib/x86_64-linux-gnu",
                                                       "-L/lib/x86_64-linux-gnu", "-lmvec", "-lm"},
                                        out.binary, error);
    timer.mark("link");
    if (!ok) return false;
    out.target = "cpu";
    out.entry = symbol;
    out.format = "elf-shared-object";
    out.threadsPerProgram = 1;
    return true;
  }
};

} // namespace

std::unique_ptr<Target> createCpuTarget() { return std::make_unique<CpuTarget>(); }

} // namespace tessera::targets::cpu
