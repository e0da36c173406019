#include "runtime/host/HostFaults.h"

#include <csetjmp>
#include <cstdio>

namespace tessera::runtime {

namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE};
struct sigaction previous[3];

thread_local sigjmp_buf *kernelJump = nullptr;  // set while this thread runs kernel code
thread_local int faultSignal = 0;
thread_local void *faultAddress = nullptr;

int slot(int sig) {
  for (int i = 0; i < 3; ++i)
    if (kSignals[i] == sig) return i;
  return 0;
}

extern "C" void onFault(int sig, siginfo_t *info, void *) {
  if (sigjmp_buf *jump = kernelJump) {
    kernelJump = nullptr;
    faultSignal = sig;
    faultAddress = info ? info->si_addr : nullptr;
    siglongjmp(*jump, 1);
  }
  // Not ours: the previous handler takes the fault when the instruction
  // runs again.
  sigaction(sig, &previous[slot(sig)], nullptr);
}

} // namespace

FaultScope::FaultScope() {
  struct sigaction act {};
  act.sa_sigaction = onFault;
  act.sa_flags = SA_SIGINFO | SA_NODEFER;  // no mask to restore after the jump
  sigemptyset(&act.sa_mask);
  for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &act, &previous[i]);
}

FaultScope::~FaultScope() {
  for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &previous[i], nullptr);
}

bool runGuarded(const std::function<void()> &kernel, std::string &fault) {
  sigjmp_buf jump;
  if (sigsetjmp(jump, 0) == 0) {
    kernelJump = &jump;
    kernel();
    kernelJump = nullptr;
    return true;
  }
  const char *name = faultSignal == SIGSEGV ? "SIGSEGV" : faultSignal == SIGBUS ? "SIGBUS" : "SIGFPE";
  char buf[160];
  if (faultSignal == SIGFPE)
    std::snprintf(buf, sizeof buf, "%s (an integer division by zero or overflow)", name);
  else
    std::snprintf(buf, sizeof buf, "%s at address %p (an access outside the memory it was given)", name, faultAddress);
  fault = buf;
  return false;
}

} // namespace tessera::runtime
