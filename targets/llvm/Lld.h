// lld's ELF linker as a library, for every target whose last step is a link
// (cpu: a shared object for the host; amdgpu: an HSA code object).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::targets::llvmgen {

// Links `object` (an object file's bytes) into a shared object with
// `ld.lld -shared -o OUT OBJECT args...`, in memory (no file on disk); false
// with `error` set. lld is not reentrant: links run one at
// a time per process.
bool linkSharedObject(std::string_view object, const std::vector<std::string> &args, std::vector<uint8_t> &linked,
                      std::string &error);

} // namespace tessera::targets::llvmgen
