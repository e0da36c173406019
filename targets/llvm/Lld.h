// lld's ELF linker as a library, for every target whose last step is a link
// (cpu: a shared object for the host; amdgpu: an HSA code object).
#pragma once

#include <string>
#include <vector>

namespace tessera::targets::llvmgen {

// Runs `ld.lld args...`; false with `error` holding lld's messages. lld is
// not reentrant: links run one at a time per process.
bool linkWithLld(const std::vector<std::string> &args, std::string &error);

} // namespace tessera::targets::llvmgen
