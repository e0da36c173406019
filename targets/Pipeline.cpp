#include "targets/Target.h"

#include "ir/PassManager.h"

namespace tessera::targets {

const ir::Function *runPipeline(const Target &target, ir::Module &module, const std::string &entry,
                                const TargetOptions &options, std::string &error) {
  ir::PassOptions popts = ir::PassOptions::fromEnvironment();
  popts.dumpAfterEach |= options.dumpIR;
  ir::PassManager pm(popts);
  for (const std::string &p : target.pipeline()) pm.add(p);
  if (!pm.run(module, &error)) return nullptr;
  const ir::Function *kernel = module.lookup(entry);
  if (!kernel || !kernel->isKernel()) {
    error = "no kernel named '" + entry + "' in the module";
    return nullptr;
  }
  return kernel;
}

} // namespace tessera::targets
