// The on-disk compile cache: compiled kernels (binary + metadata) by key.
//
// Where: $TESSERA_CACHE_DIR, else $XDG_CACHE_HOME/tessera, else
// ~/.cache/tessera. TESSERA_ALWAYS_COMPILE=1 turns lookups and stores off.
// The key is chosen by the caller (the C API hashes the source, entry,
// signature, constexprs, target, options and compiler version with SHA-256);
// this class only stores and finds bytes under it.
//
// Concurrency: an entry is one file, <key>.tkc, written to a temp file in the
// same directory and then rename()d over the final name. rename is atomic on
// POSIX file systems, so a reader sees either no entry or a whole one, however
// many processes compile the same kernel at once (the last writer wins; all
// writers write equal content). Each file also ends with a SHA-256 of its
// contents: a damaged entry reads as a miss, never as a wrong kernel.
#pragma once

#include "runtime/Status.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessera::runtime {

struct CacheEntry {
  std::map<std::string, std::string> metadata;  // any text, newlines included
  std::vector<uint8_t> binary;
};

class CompileCache {
public:
  CompileCache(std::string directory, bool enabled);
  // The directory and switch from the environment (see above).
  static CompileCache fromEnvironment();

  bool enabled() const { return enabled_; }
  const std::string &directory() const { return dir_; }
  std::string pathFor(const std::string &key) const;

  // True with `out` filled when a whole, intact entry exists.
  bool lookup(const std::string &key, CacheEntry &out) const;
  // Creates the directory when needed. A failure leaves no partial entry.
  Status store(const std::string &key, const CacheEntry &entry) const;

  // The file format, exposed for tests.
  static std::string serialize(const CacheEntry &entry);
  static bool deserialize(const std::string &bytes, CacheEntry &out);

private:
  std::string dir_;
  bool enabled_;
};

} // namespace tessera::runtime
