// Private to the C API: every object a handle names lives in a table of its
// type, and a handle is the pair (generation, slot) packed into the opaque
// pointer, never the object's address. A destroyed handle, a second
// destroy or a garbage value then finds no live object and is an error
// (TESSERA_ERROR_INVALID_ARGUMENT), instead of a use after free.
//
// Lookups take no lock (every launch makes two): slots live in chunks that
// never move, and a slot's object and generation are atomics. Adding and
// removing lock. As before, a lookup says what was live when it looked: an
// object another thread destroys afterwards is that caller's race.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

namespace tessera::capi {

template <typename T>
class HandleTable {
public:
  // Stores `object`; its handle.
  T *add(std::unique_ptr<T> object) {
    std::lock_guard<std::mutex> lock(mutex_);
    uint32_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
    } else {
      slot = size_.load(std::memory_order_relaxed);
      grow(slot);
    }
    Slot &s = *at(slot);
    s.object.store(object.release(), std::memory_order_release);
    T *handle = encode(slot, s.generation.load(std::memory_order_relaxed));
    if (slot == size_.load(std::memory_order_relaxed)) size_.store(slot + 1, std::memory_order_release);
    return handle;
  }

  // The live object of `handle`, or null.
  T *get(const T *handle) const {
    uint32_t slot, generation;
    if (!decode(handle, slot, generation)) return nullptr;
    const Slot &s = *at(slot);
    T *object = s.object.load(std::memory_order_acquire);
    return object && s.generation.load(std::memory_order_acquire) == generation ? object : nullptr;
  }

  // Takes the live object of `handle` out of the table (the handle is dead
  // from now on), or null.
  std::unique_ptr<T> remove(const T *handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    uint32_t slot, generation;
    if (!decode(handle, slot, generation)) return nullptr;
    Slot &s = *at(slot);
    if (!s.object.load(std::memory_order_relaxed) || s.generation.load(std::memory_order_relaxed) != generation)
      return nullptr;
    s.generation.fetch_add(1, std::memory_order_acq_rel);
    std::unique_ptr<T> object(s.object.exchange(nullptr, std::memory_order_acq_rel));
    free_.push_back(slot);
    return object;
  }

private:
  struct Slot {
    std::atomic<T *> object{nullptr};
    std::atomic<uint32_t> generation{1};
  };
  // Chunk c holds kFirstChunk << c slots: slot i is in chunk
  // floor(log2(i / kFirstChunk + 1)).
  static constexpr uint32_t kFirstChunk = 64;
  static constexpr int kChunks = 26;  // 64 * (2^26 - 1) slots: beyond any process's handles

  static void place(uint32_t slot, int &chunk, uint32_t &offset) {
    uint64_t units = uint64_t(slot) / kFirstChunk + 1;
    chunk = 63 - __builtin_clzll(units);
    offset = uint32_t(slot - kFirstChunk * ((uint64_t(1) << chunk) - 1));
  }
  Slot *at(uint32_t slot) const {
    int chunk;
    uint32_t offset;
    place(slot, chunk, offset);
    return chunks_[chunk].load(std::memory_order_acquire) + offset;
  }
  void grow(uint32_t slot) {
    int chunk;
    uint32_t offset;
    place(slot, chunk, offset);
    if (chunk >= kChunks) throw std::bad_alloc();
    if (!chunks_[chunk].load(std::memory_order_relaxed))
      chunks_[chunk].store(new Slot[size_t(kFirstChunk) << chunk], std::memory_order_release);
  }

  // Slot + 1 in the low half (so no handle is null), the generation in the
  // high half.
  static T *encode(uint32_t slot, uint32_t generation) {
    return reinterpret_cast<T *>(uintptr_t((uint64_t(generation) << 32) | (uint64_t(slot) + 1)));
  }
  bool decode(const T *handle, uint32_t &slot, uint32_t &generation) const {
    uint64_t bits = uint64_t(reinterpret_cast<uintptr_t>(handle));
    uint64_t s = (bits & 0xffffffffu) - 1;
    if (!handle || s >= size_.load(std::memory_order_acquire)) return false;
    slot = uint32_t(s);
    generation = uint32_t(bits >> 32);
    return true;
  }

  std::mutex mutex_;
  std::atomic<Slot *> chunks_[kChunks] = {};
  std::atomic<uint32_t> size_{0};
  std::vector<uint32_t> free_;
};

// The table of each handle type, alive for the process.
template <typename T>
HandleTable<T> &handles() {
  static HandleTable<T> *table = new HandleTable<T>();  // never destroyed: handles may outlive static teardown
  return *table;
}

} // namespace tessera::capi
