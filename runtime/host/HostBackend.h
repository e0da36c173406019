// The host backend: kernels compiled by the CPU target run on this machine's
// cores. Only the factory is public; the classes live in the .cpp files.
#pragma once

#include "runtime/Runtime.h"

namespace tessera::runtime {

// The process-wide host backend (one device: the machine). Never null.
Backend *hostBackend();

} // namespace tessera::runtime
