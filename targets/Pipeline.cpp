#include "targets/Target.h"

#include "ir/PassManager.h"
#include "ir/analysis/WrittenArguments.h"
#include "targets/gpu/Passes.h"

#include <chrono>
#include <cstdio>

namespace tessera::targets {

const ir::Function *runPipeline(const Target &target, ir::Module &module, const std::string &entry,
                                const TargetOptions &options, std::string &error) {
  ir::PassOptions popts = ir::PassOptions::fromEnvironment();
  popts.dumpAfterEach |= options.dumpIR;
  ir::PassManager pm(popts);
  gpu::registerPasses();
  // The one channel from a target to the shared passes: its facts and the
  // launch options they need, as module attributes.
  TargetFacts facts = target.facts(options);
  module.attrs().set("target", ir::Attribute(target.name()));
  if (options.checked) module.attrs().set("checked", ir::Attribute(int64_t(1)));
  if (!options.fpFusion) module.attrs().set("fp_fusion", ir::Attribute(int64_t(0)));
  if (std::string arch = target.architecture(options); !arch.empty())
    module.attrs().set("arch", ir::Attribute(arch));
  if (facts.warpSize > 1) {
    module.attrs().set("warp_size", ir::Attribute(int64_t(facts.warpSize)));
    module.attrs().set("num_warps", ir::Attribute(int64_t(options.numWarps)));
    module.attrs().set("num_stages", ir::Attribute(int64_t(pipelineStages(target, options))));
    if (!facts.asyncCopies) module.attrs().set("async_copy", ir::Attribute(int64_t(0)));
    if (facts.asyncDots) module.attrs().set("async_dots", ir::Attribute(int64_t(1)));
    if (!options.spareStages) module.attrs().set("no_spare_stages", ir::Attribute(int64_t(1)));
    if (facts.tensorMaps && !options.checked) module.attrs().set("tensor_maps", ir::Attribute(int64_t(1)));
    if (facts.kMajorDotBits > 0)
      module.attrs().set("k_major_dot_bits", ir::Attribute(int64_t(facts.kMajorDotBits)));
    if (facts.kMajorDotRegisters) module.attrs().set("k_major_dot_registers", ir::Attribute(int64_t(1)));
    if (facts.sharedAtomBytes > 0)
      module.attrs().set("shared_atom_bytes", ir::Attribute(int64_t(facts.sharedAtomBytes)));
    if (facts.sharedMemoryBytes > 0)
      module.attrs().set("shared_memory_limit", ir::Attribute(int64_t(facts.sharedMemoryBytes)));
  }
  for (const std::string &p : target.pipeline())
    if (!pm.add(p)) {
      error = "internal error: target " + target.name() + " names an unknown pass '" + p + "'";
      return nullptr;
    }
  if (!pm.run(module, &error)) return nullptr;
  const ir::Function *kernel = module.lookup(entry);
  if (!kernel || !kernel->isKernel()) {
    error = "no kernel named '" + entry + "' in the module";
    return nullptr;
  }
  return kernel;
}

int pipelineStages(const Target &target, const TargetOptions &options) {
  return options.numStages ? options.numStages : target.facts(options).defaultStages;
}

void markWrittenParams(const ir::Function &kernel, std::vector<KernelParam> &params) {
  std::vector<bool> written = ir::writtenPointerArguments(kernel);
  for (size_t i = 0; i < params.size() && i < written.size(); ++i) {
    const ir::Attribute *stores = i < kernel.numArguments() ? kernel.argAttrs(unsigned(i)).find("stores") : nullptr;
    params[i].written = written[i] || (stores && stores->isBool() && stores->getBool());  // a tensor map stored through
  }
}

namespace {

double nowMs() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace

PhaseTimer::PhaseTimer() : on_(ir::PassOptions::fromEnvironment().timing), start_(nowMs()) {}

void PhaseTimer::mark(const char *phase) {
  double now = nowMs();
  if (on_) std::fprintf(stderr, "// phase %-15s %9.3f ms\n", phase, now - start_);
  start_ = now;
}

} // namespace tessera::targets
