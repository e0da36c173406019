// LLVM code generation of an optimized module, shared by the targets.
#pragma once

#include "llvm/Support/CodeGen.h"

#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace tessera::targets::llvmgen {

// `m` as an object or assembly file of `tm` into `out`; false if LLVM cannot
// emit that file type. `strengthReduceLoops`: whether LLVM's loop strength
// reduction runs (a process-wide LLVM option, so every target builds its
// pipeline here, one at a time, with the option set as it asks).
bool generateCode(llvm::Module &m, llvm::TargetMachine &tm, llvm::CodeGenFileType type, bool strengthReduceLoops,
                  std::string &out);

} // namespace tessera::targets::llvmgen
