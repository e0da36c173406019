// The target interface: a factory plus a narrow interface. A target takes a
// module of tile IR (after the frontend) and a kernel name, runs its pass
// pipeline, and returns the binary plus what the runtime needs to launch it.
#pragma once

#include "ir/IR.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::targets {

struct TargetOptions {
  std::string arch;        // "" = the target's default (the host CPU, sm_90a, ...)
  int numWarps = 4;        // GPU: warps per program
  int numStages = 0;       // GPU: software-pipelining depth; 0 = the target's default
  int optLevel = 3;
  bool dumpIR = false;     // print the IR after each pass (also TESSERA_DUMP_IR=1)
  bool emitAssembly = false; // fill CompiledKernel::assembly (LLVM IR, PTX, ...)
  bool checked = false;    // bounds-check memory accesses (the check-bounds pass; tessera.h)
  bool fpFusion = true;    // a mul feeding an add may become an fma (ir/IR.h)
  int maxRegisters = 0;    // GPU: registers per thread at most (0: the compiler chooses)
  bool flushSubnormals = false;  // nvptx: libdevice in FTZ mode (Triton's enable_reflect_ftz)
  // GPU: pipelined loops may keep a spare stage entry (TargetFacts::spareStage);
  // off for a second compile of a kernel that ran out of shared memory with them.
  bool spareStages = true;
  // Stop once the target's own lowering is done and verified (LLVM IR), before
  // LLVM's optimizer, code generation and assembly: the lowering fuzzer.
  bool lowerOnly = false;
};

// Facts the shared passes read; hardware facts are data, not branches.
// runPipeline hands them to the passes as module attributes (target,
// warp_size, num_warps), the only way a target's facts reach them.
struct TargetFacts {
  int warpSize = 1;            // lanes per warp (1 on the CPU: no warp_size attribute)
  int vectorBits = 128;        // native vector register width
  int64_t sharedMemoryBytes = 0;
  int defaultStages = 3;       // num_stages when the user gives none (Triton's per backend)
  bool asyncCopies = true;     // global -> shared copies that run in the background (cp.async)
  // Rows of pipelined dot-operand buffers longer than this are cut into
  // atoms of this many bytes (0: never): Hopper's wgmma reads its operands
  // from shared memory in such atoms (ir/Layouts.h, #shared `atom`).
  int64_t sharedAtomBytes = 0;
  // A dot reading pipelined buffers may go on reading one iteration later
  // (wgmma in the background): loops keep one more stage buffer when more
  // than one group of four warps shares them.
  bool asyncDots = false;
  // Blocks of host tensor descriptors can be copied into shared memory by
  // tensor maps (NVIDIA's TMA), completing on mbarriers (ir/IR.h).
  bool tensorMaps = false;
  // Element width (bits) of dot operands that the matrix unit reads from
  // shared memory only k-major (0: none): pipelined loops give such
  // operands k-major buffers whatever their order in global memory
  // (Hopper's wgmma takes m/n-major operands only of 16-bit types; of the
  // others, 32-bit tf32 is the one whose single elements cp.async can copy,
  // 4 bytes or more, where the k-major copy through registers does not fit).
  int kMajorDotBits = 0;
  // Of such a dot, the matrix unit reads one operand from registers in any
  // order instead, so that operand keeps its stage's order: A, or B (by
  // multiplying B^T A^T) when A is k-major with m at most 256, where that
  // operand's rows (m, or n for B) split over the warps in 16s (Hopper's
  // wgmma: a warpgroup's instruction spans 64 rows, 16 per warp, and n up
  // to 256).
  bool kMajorDotRegisters = false;
  // Name prefixes of the device-library functions its kernels are linked
  // with (libdevice's "__nv_", ocml's "__ocml_"): the frontend leaves calls
  // of such functions (Triton's extern_elementwise) to the library and gives
  // others Tessera's own version of the function (frontend/ExternCall.cpp).
  std::vector<std::string> deviceLibraryPrefixes;
};

// One runtime parameter of a compiled kernel, in launch order. Compile-time
// (constexpr) parameters are not runtime parameters.
struct KernelParam {
  std::string name;
  ir::Type type;     // a scalar (i32, f32, ...) or a pointer
  int sizeBytes = 0; // bytes the launch copies from the argument's address
  bool written = false;  // a pointer the kernel may store through (ir::writtenPointerArguments)
  // A tensor map the launch builds (ir/IR.h, tensor_map): [descriptor
  // argument, box..., swizzle]; empty for the parameters callers pass.
  std::vector<int64_t> tensorMap;
  // Its extents then strides (ir::tensorMapFields).
  std::vector<ir::TensorMapField> tensorMapFields;
};

// Bytes one element of `t` takes in memory (a bool is a byte, a pointer 8):
// a parameter's size, a vector access's alignment.
inline int memoryBytes(ir::Type t) { return t.isPointer() ? 8 : std::max(1, t.bitWidth() / 8); }

// Sets KernelParam::written for a kernel whose params follow its arguments.
void markWrittenParams(const ir::Function &kernel, std::vector<KernelParam> &params);

struct CompiledKernel {
  std::string target;     // "cpu", "nvptx", ...
  std::string entry;      // symbol to look up in the binary
  std::string format;     // "elf-shared-object", "ptx", "cubin", "hsaco", "spirv"
  std::vector<uint8_t> binary;
  std::vector<KernelParam> params;
  int threadsPerProgram = 1;
  int64_t sharedMemoryBytes = 0;
  std::string assembly;   // readable form for --dump (LLVM IR, PTX, ...)
  // Set with a failed compile when the kernel needs more of a resource
  // (shared memory) than the target has: the source is fine and smaller
  // blocks may fit, so autotuners skip the configuration (Triton's
  // OutOfResources) instead of failing.
  bool outOfResources = false;
};

class Target {
public:
  virtual ~Target() = default;
  virtual std::string name() const = 0;
  // Its facts for `options` (the wave size of an AMD GPU depends on its arch).
  virtual TargetFacts facts(const TargetOptions &options) const = 0;
  // The architecture `options` select ("sm_90a", "gfx942"), empty where the
  // target has one; the passes see it as the module attribute `arch`.
  virtual std::string architecture(const TargetOptions &options) const {
    (void)options;
    return "";
  }
  // The pass pipeline run on tile IR before code generation, in order.
  virtual std::vector<std::string> pipeline() const = 0;
  // Identifies the code this target would generate for `options` (the
  // resolved arch and features), for compile-cache keys.
  virtual std::string fingerprint(const TargetOptions &options) const = 0;
  // Compiles kernel `entry` of `module` (which the pipeline may rewrite).
  // Returns false with `error` set on failure; never aborts.
  virtual bool compile(ir::Module &module, const std::string &entry, const TargetOptions &options,
                       CompiledKernel &out, std::string &error) = 0;
};

// The software-pipelining depth a compile with `options` uses.
int pipelineStages(const Target &target, const TargetOptions &options);

// Runs `target`'s pipeline on `module` (per-pass dumps with options.dumpIR or
// TESSERA_DUMP_IR) and returns kernel `entry`, or null with `error` set.
const ir::Function *runPipeline(const Target &target, ir::Module &module, const std::string &entry,
                                const TargetOptions &options, std::string &error);

// Wall time of a target's phases after the pipeline (lowering, LLVM's
// optimizer, code generation, assembling or linking), printed to stderr like
// the passes' with TESSERA_PASS_TIMING=1.
class PhaseTimer {
public:
  PhaseTimer();
  // Ends the phase begun at the previous mark (or at construction).
  void mark(const char *phase);

private:
  bool on_;
  double start_;
};

// ---- The target registry (Registry.cpp): one row per target. Everything
// outside targets/ that needs a fact about a target (the names users give
// it, the runtime backend that runs its code, its binary formats, whose
// tensors it takes) reads these rows rather than switching on names, so a
// new target is one new row.

// A variant of a target whose code runs on another runtime (spirv: vulkan,
// opencl). A target with one flavour has one unnamed flavour.
struct TargetFlavour {
  const char *name;                // "" for a target's only flavour
  const char *backend;             // the runtime backend that loads and runs its code
  const char *torchDevice;         // PyTorch's device type of its memory ("cpu", "cuda", "xpu"); "" = none
  const char *torchBuild;          // "" = any PyTorch; else the torch.version attribute ("cuda", "hip")
                                   // a PyTorch build sets when its torchDevice means this flavour
                                   // (ROCm's PyTorch calls AMD GPUs "cuda" too, and sets .hip)
  std::vector<int> dlpackDevices;  // DLPack DLDeviceType values of its memory
  const char *deviceName;          // how Python names its devices: "cpu" (the host's), else the backend's name
  // A launch picks this flavour's device only when asked by name (a backend
  // that is present wherever a CPU emulates it, such as Vulkan on lavapipe).
  bool explicitOnly = false;
  // numpy arrays passed to its kernels are copied to the device before the
  // launch and back after it (the host's memory is not the device's and its
  // runtime cannot map it).
  bool stagesHostArrays = false;
  // How benchmarks and do_bench time its kernels: "host_clock" (the host's
  // clock: kernels run in the caller's thread), "torch_events" (PyTorch's
  // events on torchDevice), "device_timestamps" (Tessera's own events, the
  // device's timestamps), "host_clock_synchronized" (the host's clock around
  // a device synchronization).
  const char *timer;
  const char *tritonBackend;       // Triton's GPUTarget.backend for its devices ("cuda", "hip", "cpu")
};

// Another name users may give a target, and the flavour it selects.
struct TargetAlias {
  const char *name;     // "cuda", "host", "vulkan", ...
  const char *flavour;  // "" = the target's first flavour
};

struct TargetRow {
  const char *name;                     // "cpu", "nvptx", "amdgpu", "spirv"
  std::vector<TargetAlias> aliases;
  std::vector<TargetFlavour> flavours;  // at least one; the first is the default
  std::vector<const char *> formats;    // binary formats; the first is what a complete toolchain produces
  const char *generator;                // what produces its code
  const char *llvmTarget;               // the LLVM backend it needs ("" = none)
  // Uses pointer_range = 32 (ir/IR.h): launches mark pointers into
  // allocations under 2 GiB with ":r32".
  bool specializesPointerRange = false;
  // What turns Triton's numeric architecture (GPUTarget("cuda", 90, 32)'s
  // 90) into this target's name for it ("sm_" + "90"); "" = its
  // architectures have names only (gfx942).
  const char *archPrefix = "";
  // Makes its code generator for a flavour's name; null: none in this build yet.
  std::unique_ptr<Target> (*create)(std::string_view flavour);

  bool present() const { return create != nullptr; }
};

// A row and the flavour that a name of it selects.
struct TargetRef {
  const TargetRow *row = nullptr;
  const TargetFlavour *flavour = nullptr;
  explicit operator bool() const { return row != nullptr; }
  // "nvptx", "spirv:vulkan": one spelling per (row, flavour), for cache keys.
  std::string canonicalName() const;
};

const std::vector<TargetRow> &targetRows();
// The row of a target's name or alias; empty when there is none.
TargetRef findTarget(std::string_view name);
// "unknown target 'x' (known targets: cpu, nvptx, ...; aliases: host, cuda, ...)".
std::string unknownTargetMessage(std::string_view name);
// The code generator of a target name or alias, or null with `error` set
// (unknown name, or a row whose code generator is not in this build).
std::unique_ptr<Target> createTarget(std::string_view name, std::string *error = nullptr);
// Every row's name in table order, with or without a code generator.
std::vector<std::string> targetNames();

} // namespace tessera::targets
