// The Vulkan backend: compute on any Vulkan 1.2+ device with buffer device
// addresses (Mesa's lavapipe on the CPU, NVIDIA's driver, ...), through the
// loader, dlopen'ed on first use. Only the factories are public.
#pragma once

#include "runtime/Runtime.h"

#include <memory>
#include <string>

namespace tessera::runtime {

// The process-wide Vulkan backend, or null when the loader does not load,
// no instance can be made, or no device can run Tessera's kernels.
Backend *vulkanBackend();
Status vulkanBackendStatus();

} // namespace tessera::runtime
