#include "runtime/host/ThreadPool.h"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <pthread.h>
#include <unistd.h>

namespace tessera::runtime {

namespace {

int configuredThreads() {
  if (const char *env = std::getenv("TESSERA_NUM_THREADS"))
    if (int n = std::atoi(env); n > 0) return n;
  return std::max(1, int(std::thread::hardware_concurrency()));
}

// The process's pool, made on first use. Pools are never freed: a child of
// fork() abandons its parent's (whose workers it does not have: joining or
// destroying them would wait forever or crash), and exit() only stops the
// workers, so that a launch from a later atexit handler still finds a pool.
std::mutex poolMutex;
ThreadPool *current = nullptr;
ThreadPool *abandoned[64];  // the parents' pools, reachable (no leak reports)
int abandonedCount = 0;
bool exiting = false;

void atForkChild() {
  // fork() copied this one thread: the workers and any lock they (or other
  // threads) held stay behind. A new pool is made on the first launch.
  new (&poolMutex) std::mutex();
  if (current && abandonedCount < 64) abandoned[abandonedCount++] = current;
  current = nullptr;
}

// Destroyed when exit() runs static destructors: stops the workers (a
// process may not end with threads blocked in the library it unloads).
struct Reaper {
  ~Reaper() {
    std::lock_guard<std::mutex> lock(poolMutex);
    exiting = true;
    if (current) current->shutDown();
  }
};

} // namespace

ThreadPool &ThreadPool::instance() {
  static const bool registered = [] { return pthread_atfork(nullptr, nullptr, atForkChild) == 0; }();
  (void)registered;
  static Reaper reaper;
  std::lock_guard<std::mutex> lock(poolMutex);
  if (!current) {
    // During exit: a pool without workers (ranges run on the caller).
    current = new ThreadPool(exiting ? 1 : configuredThreads());
  }
  return *current;
}

void ThreadPool::shutDown() {
  std::lock_guard<std::mutex> call(callMutex_);  // no range is running
  {
    std::lock_guard<std::mutex> lock(m_);
    quit_ = true;
  }
  wake_.notify_all();
  for (std::thread &t : workers_) t.join();
  workers_.clear();
}

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() { shutDown(); }

void ThreadPool::runChunks() {
  for (;;) {
    if (stop_ && stop_->load(std::memory_order_relaxed)) return;
    int64_t first = next_.fetch_add(chunk_, std::memory_order_relaxed);
    if (first >= n_) return;
    (*body_)(first, std::min(n_, first + chunk_));
  }
}

void ThreadPool::workerLoop() {
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(m_);
  for (;;) {
    wake_.wait(lock, [&] { return quit_ || generation_ != seen; });
    if (quit_) return;
    seen = generation_;
    lock.unlock();
    runChunks();
    lock.lock();
    if (--busy_ == 0) done_.notify_one();
  }
}

void ThreadPool::parallelFor(int64_t n, const std::function<void(int64_t, int64_t)> &body,
                             const std::atomic<bool> *stop) {
  if (n <= 0) return;
  std::lock_guard<std::mutex> call(callMutex_);
  // Small ranges run on the caller alone: waking threads costs more.
  if (workers_.empty() || n == 1) {
    body_ = &body, stop_ = stop, n_ = n, chunk_ = 1;
    next_.store(0);
    runChunks();
    return;
  }
  {
    std::lock_guard<std::mutex> lock(m_);
    body_ = &body, stop_ = stop, n_ = n;
    // Several chunks per thread balance uneven programs; chunks of adjacent
    // ids keep each thread's memory accesses together.
    chunk_ = std::max<int64_t>(1, n / (int64_t(threads()) * 8));
    next_.store(0);
    busy_ = int(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
  runChunks();
  std::unique_lock<std::mutex> lock(m_);
  done_.wait(lock, [&] { return busy_ == 0; });
}

} // namespace tessera::runtime
