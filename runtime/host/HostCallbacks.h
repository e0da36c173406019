// The functions compiled CPU kernels call back into (docs/cpu-abi.md), and the
// per-launch state they write. A launch resets the state, runs, and turns a
// recorded assertion failure into an AssertFailed status.
#pragma once

#include <atomic>
#include <csignal>
#include <cstdint>
#include <mutex>
#include <string>

extern "C" {
// Exported with default visibility: a kernel's shared object is loaded with
// RTLD_LOCAL and resolves these against the process's global scope.
__attribute__((visibility("default"))) void tessera_host_print(const char *text);
__attribute__((visibility("default"))) void tessera_host_assert_fail(const char *message, const char *file,
                                                                     int32_t line);
// tl.extra.cuda.globaltimer and smid on the host: CLOCK_REALTIME in
// nanoseconds, and the CPU the calling thread runs on (0 if unknown).
__attribute__((visibility("default"))) int64_t tessera_host_globaltimer(void);
__attribute__((visibility("default"))) int32_t tessera_host_smid(void);
// The calling thread's scratch area of at least `bytes` (64-byte aligned,
// kept for the thread's next kernels): where a kernel whose tiles would not
// fit a thread's stack keeps them. Null when it cannot be allocated (the
// launch then fails with OutOfMemory).
__attribute__((visibility("default"))) void *tessera_host_scratch(uint64_t bytes);
// Non-zero once SIGINT arrives during a host launch: kernels read it at each
// iteration of their loops and return (docs/cpu-abi.md).
__attribute__((visibility("default"))) extern volatile int32_t tessera_host_interrupted;
}

namespace tessera::runtime {

// Launches are serialized (one grid runs at a time on the pool), so one
// process-wide record is enough.
struct HostLaunchFailure {
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::string message;  // the first failure: "file:line: message"
  bool outOfMemory = false;  // a scratch area could not be allocated (else an assertion)
  bool fault = false;        // a program faulted (SIGSEGV, SIGBUS, SIGFPE): this message wins

  void reset() {
    std::lock_guard<std::mutex> lock(mutex);
    failed.store(false);
    message.clear();
    outOfMemory = false;
    fault = false;
  }
};

HostLaunchFailure &hostLaunchFailure();

// Catches SIGINT for the lifetime of a launch (unless the process ignores
// it): the handler raises tessera_host_interrupted and stops the pool from
// starting programs. On destruction the previous handler returns, and a
// default-handled SIGINT is raised again so that a C program still ends.
class InterruptScope {
public:
  InterruptScope();
  ~InterruptScope();
  bool interrupted() const;

private:
  bool installed_ = false;
  struct sigaction previous_ {};
};

// Makes the object that defines the callbacks part of the global symbol scope,
// so kernels loaded with RTLD_LOCAL resolve them even when this library itself
// was opened with RTLD_LOCAL (Python's ctypes does that by default).
void exposeHostCallbacks();

} // namespace tessera::runtime
