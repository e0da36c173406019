#include "targets/llvm/Codegen.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <mutex>

namespace tessera::targets::llvmgen {

bool generateCode(llvm::Module &m, llvm::TargetMachine &tm, llvm::CodeGenFileType type, bool strengthReduceLoops,
                  std::string &out) {
  llvm::SmallString<0> buf;
  llvm::raw_svector_ostream os(buf);
  llvm::legacy::PassManager cg;
  {
    // TargetPassConfig reads -disable-lsr while it adds the passes.
    static std::mutex building;
    std::lock_guard<std::mutex> lock(building);
    auto &options = llvm::cl::getRegisteredOptions();
    auto it = options.find("disable-lsr");
    auto *disable = it == options.end() ? nullptr : static_cast<llvm::cl::opt<bool> *>(it->second);
    bool was = disable && disable->getValue();
    if (disable) disable->setValue(!strengthReduceLoops);
    bool failed = tm.addPassesToEmitFile(cg, os, nullptr, type);
    if (disable) disable->setValue(was);
    if (failed) return false;
  }
  cg.run(m);
  out = buf.str().str();
  return true;
}

} // namespace tessera::targets::llvmgen
