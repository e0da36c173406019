// The device-library functions a kernel's extern_elementwise ops call
// (Triton's extern_elementwise: libdevice's __nv_*, ocml's __ocml_*). The
// frontend leaves only such calls to a target that links the library; whether
// the library has the function, and with those types, is known once it is
// linked. A function it lacks is then a compile error naming the function,
// the target and the call, rather than an undefined symbol in the assembler;
// one with other types, rather than a call through the wrong type.
#pragma once

#include "ir/IR.h"

#include "llvm/IR/Module.h"

#include <string>
#include <vector>

namespace tessera::targets::llvmgen {

struct ExternCallSite {
  std::string symbol;
  ir::Loc loc;                 // the first call's
  llvm::FunctionType *type;    // as the lowered module declares it
};

// Before linking: one site per function called, from the thread IR `module`
// and its lowered `m`.
std::vector<ExternCallSite> externCallSites(const ir::Module &module, const llvm::Module &m);

// After linking: false with `error` set when a function is not defined in
// `m`, or is with other types. `target` and `libraries` ("libdevice") name
// them in the message.
bool checkExternCalls(const std::vector<ExternCallSite> &sites, const llvm::Module &m, const std::string &target,
                      const std::string &libraries, std::string &error);

} // namespace tessera::targets::llvmgen
