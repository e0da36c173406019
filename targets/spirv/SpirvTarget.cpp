#include "targets/spirv/SpirvTarget.h"

#include "targets/spirv/CooperativeMatrix.h"
#include "targets/spirv/Emitter.h"

#include <spirv-tools/libspirv.hpp>

#include <cstdlib>
#include <cstring>
#include <regex>

namespace tessera::targets::spirv {
namespace {

// The device facts a SPIR-V compile depends on, spelled as its arch:
// "sg<subgroup size>-<shared memory KiB>k" (Device::architecture() of a
// Vulkan device says the same, e.g. "sg8-32k" for lavapipe, "sg32-48k" for
// NVIDIA's driver).
// A Vulkan device with VK_KHR_cooperative_matrix adds its table of shapes
// and types: "-cm<entries>" (CooperativeMatrix.h); without it, dots take
// the SIMT path.
struct Arch {
  int subgroupSize = 32;
  int64_t sharedBytes = 48 * 1024;
  CooperativeMatrixTable cooperativeMatrices;
  bool valid = true;
  std::string error;  // why not valid, beyond the form
  std::string spelled() const {
    std::string s = "sg" + std::to_string(subgroupSize) + "-" + std::to_string(sharedBytes / 1024) + "k";
    if (!cooperativeMatrices.empty()) s += "-cm" + spellTable(cooperativeMatrices);
    return s;
  }
};

Arch parseArch(const TargetOptions &o) {
  std::string text = o.arch;
  if (text.empty())
    if (const char *env = std::getenv("TESSERA_SPIRV_ARCH")) text = env;
  Arch a;
  if (text.empty()) return a;
  static const std::regex form("sg(\\d+)(?:-(\\d+)k)?(?:-cm(.+))?");
  std::smatch m;
  if (!std::regex_match(text, m, form)) {
    a.valid = false;
    return a;
  }
  a.subgroupSize = std::atoi(m[1].str().c_str());
  if (m[2].matched) a.sharedBytes = int64_t(std::atoi(m[2].str().c_str())) * 1024;
  int s = a.subgroupSize;
  a.valid = s >= 4 && s <= 128 && (s & (s - 1)) == 0 && a.sharedBytes > 0;
  if (m[3].matched) {
    std::optional<CooperativeMatrixTable> table = parseTable(m[3].str(), a.error);
    if (table) a.cooperativeMatrices = *table;
    else a.valid = false;
  }
  return a;
}

std::string disassemble(const Words &words) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_5);
  std::string text;
  if (!tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_INDENT | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES))
    return "; (SPIRV-Tools could not disassemble the module)\n";
  return text;
}

class SpirvTarget final : public Target {
public:
  explicit SpirvTarget(Flavour flavour) : flavour_(flavour) { registerCooperativeMatrixLowering(); }

  std::string name() const override { return "spirv"; }

  TargetFacts facts(const TargetOptions &o) const override {
    Arch a = parseArch(o);
    TargetFacts f;
    f.warpSize = a.subgroupSize;
    f.vectorBits = 128;
    f.sharedMemoryBytes = a.sharedBytes;
    f.defaultStages = 1;
    f.asyncCopies = false;
    return f;
  }

  std::string architecture(const TargetOptions &o) const override {
    Arch a = parseArch(o);
    return a.valid ? a.spelled() : "";
  }

  std::string fingerprint(const TargetOptions &o) const override {
    return std::string("spirv;") + (flavour_ == Flavour::Vulkan ? "vulkan" : "opencl") + ";" + parseArch(o).spelled() +
           ";warps" + std::to_string(o.numWarps) + ";stages" + std::to_string(pipelineStages(*this, o));
  }

  std::vector<std::string> pipeline() const override {
    return {"inline", "lower-descriptor-loads", "check-bounds", "canonicalize", "cse", "licm", "dce", "canonicalize", "pipeline-loops", "dce",
            "unroll-loops", "assign-layouts", "dce", "sink-casts", "lower-to-threads", "allocate-shared", "insert-barriers"};
  }

  bool compile(ir::Module &module, const std::string &entry, const TargetOptions &options, CompiledKernel &out,
               std::string &error) override {
    Arch arch = parseArch(options);
    if (!arch.valid) {
      error = "unsupported SPIR-V architecture '" + options.arch +
              "' (expected sg<subgroup size>[-<shared memory KiB>k][-cm<cooperative matrices>], e.g. sg32-48k)" +
              (arch.error.empty() ? "" : ": " + arch.error);
      return false;
    }
    if (flavour_ == Flavour::OpenCL && !arch.cooperativeMatrices.empty()) {
      error = "cooperative matrices (-cm in the arch) need the vulkan flavour; OpenCL kernels have no SPV_KHR_cooperative_matrix here";
      return false;
    }
    if (int n = options.numWarps; n < 1 || n > 32 || (n & (n - 1))) {
      error = "num_warps must be a power of two from 1 to 32, not " + std::to_string(n);
      return false;
    }
    if (flavour_ == Flavour::Vulkan && arch.subgroupSize * options.numWarps > 1024) {
      error = "num_warps " + std::to_string(options.numWarps) + " x subgroup size " + std::to_string(arch.subgroupSize) +
              " exceeds Vulkan's 1024 invocations per workgroup";
      return false;
    }
    const ir::Function *kernel = runPipeline(*this, module, entry, options, error);
    if (!kernel) return false;
    PhaseTimer timer;
    EmitOptions eo;
    eo.flavour = flavour_;
    eo.warpSize = int(module.attrs().getInt("warp_size", arch.subgroupSize));
    eo.numWarps = int(module.attrs().getInt("num_warps", options.numWarps));
    eo.fpFusion = options.fpFusion;
    EmittedKernel k;
    if (!emitKernel(*kernel, entry, eo, k, error)) return false;
    timer.mark("lower");
    if (k.sharedMemoryBytes > arch.sharedBytes) {
      error = "kernel '" + entry + "' needs " + std::to_string(k.sharedMemoryBytes) + " bytes of shared memory; " +
              arch.spelled() + " has " + std::to_string(arch.sharedBytes) + " (use smaller blocks)";
      out.outOfResources = true;
      return false;
    }
    // The validator is this target's verifier: it runs in lowerOnly compiles too.
    spvtools::SpirvTools tools(validationEnvironment(k));
    std::string messages;
    tools.SetMessageConsumer([&](spv_message_level_t, const char *, const spv_position_t &pos, const char *msg) {
      messages += "  word " + std::to_string(pos.index) + ": " + msg + "\n";
    });
    if (!tools.Validate(k.words)) {
      error = "internal error: the spirv emitter produced a module spirv-val rejects (kernel '" + entry + "'):\n" +
              messages + disassemble(k.words);
      return false;
    }
    timer.mark("validate");
    if (options.lowerOnly) return true;
    out.target = "spirv";
    out.entry = entry;
    out.format = "spirv";
    out.binary.resize(k.words.size() * 4);
    std::memcpy(out.binary.data(), k.words.data(), out.binary.size());
    out.params = std::move(k.params);
    markWrittenParams(*kernel, out.params);
    out.threadsPerProgram = k.threads;
    out.sharedMemoryBytes = k.sharedMemoryBytes;
    if (options.emitAssembly) out.assembly = disassemble(k.words);
    return true;
  }

private:
  // Vulkan 1.2's (1.3's with cooperative matrices), or OpenCL 2.2's: SPIRV-Tools' OpenCL environment lists no
  // Int64Atomics, which OpenCL allows with cl_khr_int64_base_atomics (the
  // Level Zero runtime refuses such a module on a device without 64-bit
  // atomics), so a module declaring it is held to SPIR-V 1.2's own rules.
  // Modules with cooperative matrices are held to Vulkan 1.3's (the
  // extension's devices are 1.3 ones; NVIDIA's driver is).
  spv_target_env validationEnvironment(const EmittedKernel &k) const {
    if (flavour_ == Flavour::Vulkan) return k.cooperativeMatrices ? SPV_ENV_VULKAN_1_3 : SPV_ENV_VULKAN_1_2;
    return k.int64Atomics ? SPV_ENV_UNIVERSAL_1_2 : SPV_ENV_OPENCL_2_2;
  }

  Flavour flavour_;
};

} // namespace

// Level Zero runs the OpenCL flavour's kernels: the same code, another runtime.
std::unique_ptr<Target> createSpirvTarget(std::string_view flavour) {
  bool opencl = flavour == "opencl" || flavour == "level_zero";
  return std::make_unique<SpirvTarget>(opencl ? Flavour::OpenCL : Flavour::Vulkan);
}

} // namespace tessera::targets::spirv
