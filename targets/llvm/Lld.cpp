#include "targets/llvm/Lld.h"

#include "lld/Common/Driver.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

LLD_HAS_DRIVER(elf)

namespace tessera::targets::llvmgen {

bool linkWithLld(const std::vector<std::string> &args, std::string &error) {
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  std::vector<const char *> argv = {"ld.lld"};
  for (const std::string &a : args) argv.push_back(a.c_str());
  std::string out, err;
  llvm::raw_string_ostream outS(out), errS(err);
  lld::Result r = lld::lldMain(argv, outS, errS, {{lld::Gnu, &lld::elf::link}});
  if (r.retCode == 0) return true;
  error = errS.str().empty() ? "lld failed (exit " + std::to_string(r.retCode) + ")" : errS.str();
  while (!error.empty() && error.back() == '\n') error.pop_back();
  return false;
}

} // namespace tessera::targets::llvmgen
