// A persistent pool of worker threads, one per core, that runs a range of
// program ids in chunks. Threads are created once (on first use) because a
// launch is often shorter than creating threads would be.
//
// The pool belongs to a process: the child of fork() (which copies only the
// forking thread) gets a new one on its first launch, and once exit() has
// begun (static destructors; an atexit handler registered before the first
// launch runs after them) the workers are gone and ranges run on the caller.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tessera::runtime {

class ThreadPool {
public:
  // This process's pool. Threads: TESSERA_NUM_THREADS when set, else every
  // core. The caller of parallelFor works too, so the pool holds one thread
  // fewer. Never destroyed (exit stops its workers: see shutDown).
  static ThreadPool &instance();
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  int threads() const { return int(workers_.size()) + 1; }

  // Stops and joins the workers; later ranges run on the calling thread.
  void shutDown();

  // Calls body(first, last) on disjoint chunks covering [0, n) and returns
  // when all have run. Once `stop` becomes true no new chunk starts (a failed
  // assertion ends the launch early). Calls are serialized: one range at a time.
  void parallelFor(int64_t n, const std::function<void(int64_t, int64_t)> &body,
                   const std::atomic<bool> *stop = nullptr);

private:
  void workerLoop();
  void runChunks();

  std::vector<std::thread> workers_;
  std::mutex callMutex_;  // one parallelFor at a time
  std::mutex m_;
  std::condition_variable wake_, done_;
  uint64_t generation_ = 0;
  int busy_ = 0;          // workers still inside the current range
  bool quit_ = false;

  // The current range (valid while a parallelFor runs).
  const std::function<void(int64_t, int64_t)> *body_ = nullptr;
  const std::atomic<bool> *stop_ = nullptr;
  int64_t n_ = 0, chunk_ = 1;
  std::atomic<int64_t> next_{0};
};

} // namespace tessera::runtime
