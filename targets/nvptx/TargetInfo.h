// Private to targets/nvptx: the hooks of the shared GPU lowering, libdevice
// and the assembler.
#pragma once

#include "targets/llvm/TargetInfo.h"

#include <memory>
#include <string>
#include <vector>

namespace tessera::targets::nvptx {

// For sm_`sm` (what the architecture has: griddepcontrol from sm_90).
std::unique_ptr<llvmgen::TargetInfo> createNvptxTargetInfo(int sm);

// Links the libdevice functions `m` calls (__nv_*) into it. False with
// `error` set when libdevice is missing or does not link.
bool linkLibdevice(llvm::Module &m, std::string &error);

// PTX -> cubin with ptxas for `arch`. Returns false (and leaves `cubin`
// empty) when no ptxas is found; `error` is set when ptxas rejects the PTX.
// `messages`, when given, receives what ptxas printed (its advisories).
bool assemble(const std::string &ptx, const std::string &arch, std::vector<uint8_t> &cubin, std::string &error,
              std::string *messages = nullptr);
// The ptxas that assemble() runs, or "" when there is none.
std::string ptxasPath();

} // namespace tessera::targets::nvptx
