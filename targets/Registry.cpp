#include "targets/Target.h"

#include "targets/cpu/CpuTarget.h"

namespace tessera::targets {

std::vector<std::string> targetNames() { return {"cpu"}; }

std::unique_ptr<Target> createTarget(std::string_view name, std::string *error) {
  if (name == "cpu") return cpu::createCpuTarget();
  if (error) {
    *error = "unknown target '" + std::string(name) + "' (available:";
    for (auto &n : targetNames()) *error += " " + n;
    *error += ")";
  }
  return nullptr;
}

} // namespace tessera::targets
