// Private to the host backend: what HostBackend.cpp and HostModule.cpp share.
#pragma once

#include "runtime/Runtime.h"

namespace tessera::runtime {

// Loads "elf-shared-object" bytes (docs/cpu-abi.md) for `device`.
Status loadHostModule(Device &device, const void *binary, size_t size, std::unique_ptr<Module> &out);

// True when `stream` is null or belongs to `device`.
bool streamBelongsTo(const Stream *stream, const Device &device);

} // namespace tessera::runtime
