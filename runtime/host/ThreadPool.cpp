#include "runtime/host/ThreadPool.h"

#include <algorithm>
#include <cstdlib>

namespace tessera::runtime {

ThreadPool &ThreadPool::instance() {
  static ThreadPool pool([] {
    if (const char *env = std::getenv("TESSERA_NUM_THREADS"))
      if (int n = std::atoi(env); n > 0) return n;
    return std::max(1, int(std::thread::hardware_concurrency()));
  }());
  return pool;
}

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(m_);
    quit_ = true;
  }
  wake_.notify_all();
  for (std::thread &t : workers_) t.join();
}

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
