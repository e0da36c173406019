// The target interface: a factory plus a narrow interface. A target takes a
// module of tile IR (after the frontend) and a kernel name, runs its pass
// pipeline, and returns the binary plus what the runtime needs to launch it.
#pragma once

#include "ir/IR.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::targets {

struct TargetOptions {
  std::string arch;        // "" = the target's default (the host CPU, sm_90a, ...)
  int numWarps = 4;        // GPU: warps per program
  int numStages = 3;       // GPU: software-pipelining depth
  int optLevel = 3;
  bool dumpIR = false;     // print the IR after each pass (also TESSERA_DUMP_IR=1)
  bool emitAssembly = false; // fill CompiledKernel::assembly (LLVM IR, PTX, ...)
};

// Facts the shared passes read; hardware facts are data, not branches.
// runPipeline hands them to the passes as module attributes (target,
// warp_size, num_warps), the only way a target's facts reach them.
struct TargetFacts {
  int warpSize = 1;            // lanes per warp (1 on the CPU: no warp_size attribute)
  int vectorBits = 128;        // native vector register width
  int64_t sharedMemoryBytes = 0;
};

// One runtime parameter of a compiled kernel, in launch order. Compile-time
// (constexpr) parameters are not runtime parameters.
struct KernelParam {
  std::string name;
  ir::Type type;     // a scalar (i32, f32, ...) or a pointer
  int sizeBytes = 0; // bytes the launch copies from the argument's address
};

struct CompiledKernel {
  std::string target;     // "cpu", "nvptx", ...
  std::string entry;      // symbol to look up in the binary
  std::string format;     // "elf-shared-object", "ptx", "cubin", "hsaco", "spirv"
  std::vector<uint8_t> binary;
  std::vector<KernelParam> params;
  int threadsPerProgram = 1;
  int64_t sharedMemoryBytes = 0;
  std::string assembly;   // readable form for --dump (LLVM IR, PTX, ...)
};

class Target {
public:
  virtual ~Target() = default;
  virtual std::string name() const = 0;
  virtual TargetFacts facts() const = 0;
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

// The registry: "cpu" and "nvptx" today; "amdgpu", "spirv" as they land.
std::unique_ptr<Target> createTarget(std::string_view name, std::string *error = nullptr);
std::vector<std::string> targetNames();

} // namespace tessera::targets
