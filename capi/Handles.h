// Private to the C API: every object a handle names lives in a table of its
// type, and a handle is the pair (generation, slot) packed into the opaque
// pointer, never the object's address. A destroyed handle, a second
// destroy or a garbage value then finds no live object and is an error
// (TESSERA_ERROR_INVALID_ARGUMENT), instead of a use after free.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
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
      slot = uint32_t(slots_.size());
      slots_.emplace_back();
    }
    slots_[slot].object = std::move(object);
    return encode(slot, slots_[slot].generation);
  }

  // The live object of `handle`, or null.
  T *get(const T *handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    Slot *s = find(handle);
    return s ? s->object.get() : nullptr;
  }

  // Takes the live object of `handle` out of the table (the handle is dead
  // from now on), or null.
  std::unique_ptr<T> remove(const T *handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    Slot *s = find(handle);
    if (!s) return nullptr;
    std::unique_ptr<T> object = std::move(s->object);
    ++s->generation;
    free_.push_back(uint32_t(s - slots_.data()));
    return object;
  }

private:
  struct Slot {
    std::unique_ptr<T> object;
    uint32_t generation = 1;
  };

  // Slot + 1 in the low half (so no handle is null), the generation in the
  // high half.
  static T *encode(uint32_t slot, uint32_t generation) {
    return reinterpret_cast<T *>(uintptr_t((uint64_t(generation) << 32) | (uint64_t(slot) + 1)));
  }

  Slot *find(const T *handle) {
    uint64_t bits = uint64_t(reinterpret_cast<uintptr_t>(handle));
    uint64_t slot = (bits & 0xffffffffu) - 1;
    uint32_t generation = uint32_t(bits >> 32);
    if (!handle || slot >= slots_.size()) return nullptr;
    Slot &s = slots_[slot];
    return s.object && s.generation == generation ? &s : nullptr;
  }

  std::mutex mutex_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;
};

// The table of each handle type, alive for the process.
template <typename T>
HandleTable<T> &handles() {
  static HandleTable<T> *table = new HandleTable<T>();  // never destroyed: handles may outlive static teardown
  return *table;
}

} // namespace tessera::capi
