// Faults inside kernel code on the host (an unmasked out-of-bounds access,
// an integer division by zero) end the launch with an error instead of
// the process. While a launch runs, SIGSEGV, SIGBUS and SIGFPE go to a
// handler that jumps out of the kernel when the faulting thread is running
// one (runGuarded); a fault anywhere else goes to the handler that was
// there before, as if nothing had been installed.
#pragma once

#include <cstdint>
#include <functional>
#include <signal.h>
#include <string>

namespace tessera::runtime {

class FaultScope {
public:
  FaultScope();
  ~FaultScope();
  FaultScope(const FaultScope &) = delete;
  FaultScope &operator=(const FaultScope &) = delete;
};

// Runs `kernel` on this thread; a fault inside it returns false with what
// happened ("SIGSEGV at address 0x..."). Only inside a FaultScope.
bool runGuarded(const std::function<void()> &kernel, std::string &fault);

} // namespace tessera::runtime
