// Ahead-of-time kernels (`tessera compile --aot PREFIX`): PREFIX.h and
// PREFIX.c embed a kernel's binaries for several targets, with
// `<kernel>_load(device, &kernel)`, which picks the binary for the device's
// backend and architecture, and a typed `<kernel>_launch(kernel, stream,
// grid..., arguments...)`. They need only the runtime's C API
// (libtessera_rt.so), no compiler.
#pragma once

#include "targets/Target.h"

#include <string>
#include <vector>

namespace tessera::tools {

struct AotBinary {
  std::string label;    // "nvptx sm_90a" (for messages and comments)
  std::string backend;  // the runtime backend that loads it ("host", "cuda")
  std::string arch;     // the device architecture it is for ("" = any device of the backend)
  targets::CompiledKernel kernel;
};

// Writes PREFIX.h and PREFIX.c for `kernel` (the name its functions take);
// false with `error` when the binaries'
// parameters disagree, a parameter has no C type, or a file cannot be written.
bool writeAot(const std::string &prefix, const std::string &kernel, const std::string &source,
              const std::vector<AotBinary> &binaries, std::string &error);

} // namespace tessera::tools
