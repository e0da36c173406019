#include "targets/Target.h"

#include "targets/cpu/CpuTarget.h"
#include "targets/nvptx/NvptxTarget.h"

namespace tessera::targets {

std::vector<std::string> targetNames() { return {"cpu", "nvptx"}; }

std::unique_ptr<Target> createTarget(std::string_view name, std::string *error) {
  if (name == "cpu") return cpu::createCpuTarget();
  // "cuda" names the runtime backend; its code generator is nvptx.
  if (name == "nvptx" || name == "cuda") return nvptx::createNvptxTarget();
  if (error) {
    *error = "unknown target '" + std::string(name) + "' (available:";
    for (auto &n : targetNames()) *error += " " + n;
    *error += ")";
  }
  return nullptr;
}

} // namespace tessera::targets
