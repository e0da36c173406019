// Writing a whole buffer to a file descriptor, for every file the library
// writes (cache entries, kernels to load, objects to link). Header-only: the
// compiler's targets use it too, without linking the runtime.
#pragma once

#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

namespace tessera {

// Writes all `size` bytes at the file's current offset; 0, or the errno of
// the failure. A file-size limit (ulimit -f) that `size` would pass is EFBIG
// before anything is written: past the limit the kernel sends SIGXFSZ, which
// ends a process that does not ignore it (C programs by default).
inline int writeAll(int fd, const void *data, size_t size) {
  rlimit limit{};
  off_t at = ::lseek(fd, 0, SEEK_CUR);
  if (getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
      uint64_t(at > 0 ? at : 0) + size > uint64_t(limit.rlim_cur))
    return EFBIG;
  const char *p = static_cast<const char *>(data);
  while (size) {
    ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return ENOSPC;
    p += n, size -= size_t(n);
  }
  return 0;
}

} // namespace tessera
