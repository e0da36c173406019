#include "runtime/host/HostCallbacks.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <sched.h>
#include <dlfcn.h>
#include <csignal>
#include <memory>
#include <new>
#include <pthread.h>

namespace tessera::runtime {

namespace {
// Never destroyed: a launch from an atexit handler that runs after static
// destructors still has it.
HostLaunchFailure *failureState = new HostLaunchFailure();
std::mutex *printMutex = new std::mutex();

// A child of fork() has only the forking thread: a lock another thread held
// (a launch, a kernel printing) would stay locked forever.
void resetLocksInForkChild() {
  new (&failureState->mutex) std::mutex();
  new (printMutex) std::mutex();
}
const bool forkHandlerRegistered = pthread_atfork(nullptr, nullptr, resetLocksInForkChild) == 0;
} // namespace

HostLaunchFailure &hostLaunchFailure() { return *failureState; }

void exposeHostCallbacks() {
  static const bool done = [] {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void *>(&tessera_host_print), &info) && info.dli_fname) {
      // RTLD_NOLOAD: only re-flags the already loaded object. Fails harmlessly
      // when the callbacks live in the main executable (already global).
      if (void *h = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL)) (void)h;  // kept open on purpose
    }
    return true;
  }();
  (void)done;
}

} // namespace tessera::runtime

using tessera::runtime::hostLaunchFailure;

extern "C" volatile int32_t tessera_host_interrupted = 0;

namespace tessera::runtime {

namespace {
extern "C" void onInterrupt(int) {
  tessera_host_interrupted = 1;
  hostLaunchFailure().failed.store(true);  // lock-free: safe in a handler
}
} // namespace

InterruptScope::InterruptScope() {
  tessera_host_interrupted = 0;
  struct sigaction current {};
  if (sigaction(SIGINT, nullptr, &current) != 0 || current.sa_handler == SIG_IGN) return;
  struct sigaction act {};
  act.sa_handler = onInterrupt;
  sigemptyset(&act.sa_mask);
  installed_ = sigaction(SIGINT, &act, &previous_) == 0;
}

InterruptScope::~InterruptScope() {
  if (!installed_) return;
  sigaction(SIGINT, &previous_, nullptr);
  if (interrupted() && previous_.sa_handler == SIG_DFL) std::raise(SIGINT);
}

bool InterruptScope::interrupted() const { return tessera_host_interrupted != 0; }

} // namespace tessera::runtime

extern "C" void tessera_host_print(const char *text) {
  // One line at a time from many threads: a lock keeps lines whole.
  std::lock_guard<std::mutex> lock(*tessera::runtime::printMutex);
  const char *t = text ? text : "";
  std::fputs(t, stdout);
  size_t n = std::strlen(t);
  if (n == 0 || t[n - 1] != '\n') std::fputc('\n', stdout);
  std::fflush(stdout);
}

extern "C" void tessera_host_assert_fail(const char *message, const char *file, int32_t line) {
  auto &state = hostLaunchFailure();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (state.failed.load()) return;  // keep the first failure only
  state.message = std::string(file ? file : "<unknown>") + ":" + std::to_string(line) + ": device assertion failed: " +
                  (message ? message : "");
  state.failed.store(true);
}

extern "C" int64_t tessera_host_globaltimer(void) {
  timespec t{};
  clock_gettime(CLOCK_REALTIME, &t);
  return int64_t(t.tv_sec) * 1000000000 + t.tv_nsec;
}

extern "C" int32_t tessera_host_smid(void) {
  int cpu = sched_getcpu();
  return cpu < 0 ? 0 : cpu;
}

extern "C" void *tessera_host_scratch(uint64_t bytes) {
  struct Area {
    void *data = nullptr;
    uint64_t size = 0;
    ~Area() { std::free(data); }
  };
  thread_local Area area;
  if (bytes <= area.size) return area.data;
  std::free(area.data);
  uint64_t rounded = (bytes + 63) / 64 * 64;
  area.data = std::aligned_alloc(64, rounded);
  area.size = area.data ? rounded : 0;
  if (!area.data) {
    auto &state = hostLaunchFailure();
    std::lock_guard<std::mutex> lock(state.mutex);
    if (!state.failed.load()) {
      state.message = "cannot allocate " + std::to_string(bytes) + " bytes for its tiles";
      state.outOfMemory = true;
      state.failed.store(true);
    }
  }
  return area.data;
}
