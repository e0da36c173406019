#include "runtime/CompileCache.h"
#include "runtime/WriteAll.h"
#include "runtime/Sha256.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tessera::runtime {

namespace {

constexpr const char kMagic[] = "tessera-cache 1\n";

// Length-prefixed fields, so values may hold any bytes.
void putField(std::string &out, const std::string &s) {
  out += std::to_string(s.size());
  out += ':';
  out += s;
  out += '\n';
}

bool getField(const std::string &in, size_t &pos, std::string &out) {
  size_t colon = in.find(':', pos);
  if (colon == std::string::npos || colon == pos || colon - pos > 19) return false;
  size_t n = 0;
  for (size_t i = pos; i < colon; ++i) {
    if (in[i] < '0' || in[i] > '9') return false;
    n = n * 10 + size_t(in[i] - '0');
  }
  if (n > in.size() || colon + 1 + n >= in.size() || in[colon + 1 + n] != '\n') return false;
  out.assign(in, colon + 1, n);
  pos = colon + 2 + n;
  return true;
}

Status makeDirectories(const std::string &dir) {
  std::string cur;
  for (size_t i = 0; i <= dir.size(); ++i) {
    if (i == dir.size() || (dir[i] == '/' && i > 0)) {
      cur = dir.substr(0, i);
      if (::mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST)
        return {StatusCode::IoError, "cannot create cache directory '" + cur + "': " + std::strerror(errno)};
    }
  }
  return Status::ok();
}

} // namespace

CompileCache::CompileCache(std::string directory, bool enabled) : dir_(std::move(directory)), enabled_(enabled) {}

CompileCache CompileCache::fromEnvironment() {
  const char *always = std::getenv("TESSERA_ALWAYS_COMPILE");
  bool enabled = !(always && *always && std::string(always) != "0");
  std::string dir;
  if (const char *d = std::getenv("TESSERA_CACHE_DIR"); d && *d) dir = d;
  else if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x) dir = std::string(x) + "/tessera";
  else if (const char *h = std::getenv("HOME"); h && *h) dir = std::string(h) + "/.cache/tessera";
  else dir = "/tmp/tessera-cache-" + std::to_string(::getuid());
  return CompileCache(dir, enabled);
}

std::string CompileCache::pathFor(const std::string &key) const { return dir_ + "/" + key + ".tkc"; }

std::string CompileCache::serialize(const CacheEntry &entry) {
  std::string out = kMagic;
  putField(out, std::to_string(entry.metadata.size()));
  for (auto &[k, v] : entry.metadata) putField(out, k), putField(out, v);
  putField(out, std::string(entry.binary.begin(), entry.binary.end()));
  out += Sha256::hex(out);
  out += '\n';
  return out;
}

bool CompileCache::deserialize(const std::string &bytes, CacheEntry &out) {
  const size_t magic = sizeof kMagic - 1;
  if (bytes.size() < magic + 65 || bytes.compare(0, magic, kMagic) != 0 || bytes.back() != '\n') return false;
  size_t bodyEnd = bytes.size() - 65;
  if (Sha256::hex(std::string_view(bytes).substr(0, bodyEnd)) != bytes.substr(bodyEnd, 64)) return false;
  std::string body = bytes.substr(0, bodyEnd), count, k, v, bin;
  size_t pos = magic;
  if (!getField(body, pos, count)) return false;
  CacheEntry e;
  for (long n = std::strtol(count.c_str(), nullptr, 10); n > 0; --n) {
    if (!getField(body, pos, k) || !getField(body, pos, v)) return false;
    e.metadata[k] = v;
  }
  if (!getField(body, pos, bin) || pos != body.size()) return false;
  e.binary.assign(bin.begin(), bin.end());
  out = std::move(e);
  return true;
}

// The metadata field that records an entry's key.
static constexpr const char *kKeyField = "cache.key";

bool CompileCache::lookup(const std::string &key, CacheEntry &out) const {
  if (!enabled_) return false;
  // Regular files only (a FIFO in an entry's place would block the read),
  // opened without following a link to one.
  int fd = ::open(pathFor(key).c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  std::string bytes;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < (int64_t(1) << 32)) {
    bytes.resize(size_t(st.st_size));
    size_t got = 0;
    while (got < bytes.size()) {
      ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += size_t(n);
    }
    bytes.resize(got);
  }
  ::close(fd);
  CacheEntry e;
  // An entry answers only its own key: one copied over another key's file
  // (intact, checksum and all) is a miss, not another kernel.
  if (!deserialize(bytes, e)) return false;
  auto it = e.metadata.find(kKeyField);
  if (it == e.metadata.end() || it->second != key) return false;
  e.metadata.erase(it);
  out = std::move(e);
  return true;
}

Status CompileCache::store(const std::string &key, const CacheEntry &entry) const {
  if (!enabled_) return Status::ok();
  if (Status st = makeDirectories(dir_); !st) return st;
  // The temp file lives in the cache directory itself: rename() is only
  // atomic within one file system.
  std::string tmp = dir_ + "/." + key + ".tmp-XXXXXX";
  int fd = ::mkstemp(tmp.data());
  if (fd < 0) return {StatusCode::IoError, "cannot create a temp file in '" + dir_ + "': " + std::strerror(errno)};
  CacheEntry keyed = entry;
  keyed.metadata[kKeyField] = key;
  std::string bytes = serialize(keyed);
  int err = writeAll(fd, bytes.data(), bytes.size());
  // Readable by the user's other processes like any cache file (mkstemp makes 0600).
  ::fchmod(fd, 0644);
  if (::close(fd) != 0 && !err) err = errno;
  if (!err && ::rename(tmp.c_str(), pathFor(key).c_str()) != 0) err = errno;
  if (err) {
    ::unlink(tmp.c_str());
    return {StatusCode::IoError, "cannot write cache entry '" + pathFor(key) + "': " + std::strerror(err ? err : EIO)};
  }
  return Status::ok();
}

} // namespace tessera::runtime
