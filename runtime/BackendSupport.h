// Small pieces every backend's implementation uses (not part of the
// runtime's interface, Runtime.h).
#pragma once

#include "runtime/Runtime.h"

#include <cstddef>
#include <memory>
#include <string>

namespace tessera::runtime {

// [offset, offset + bytes) lies within `size` bytes (without overflowing).
inline bool inRange(size_t offset, size_t bytes, size_t size) { return offset <= size && bytes <= size - offset; }

// A backend probed once per process: the backend, or why there is none.
struct ProbedBackend {
  std::unique_ptr<Backend> backend;
  Status status;
};

// NotFound for device `index` of a backend with `count` devices ("HIP", "Level Zero").
inline Status noSuchDevice(const char *backend, int index, size_t count) {
  return {StatusCode::NotFound, std::string("no ") + backend + " device " + std::to_string(index) + " (this machine has " +
                                    std::to_string(count) + ")"};
}

} // namespace tessera::runtime
