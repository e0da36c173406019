#include "tools/tessera/OutputFile.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace tessera::tools {

bool writeOutputFile(const std::string &path, std::string_view bytes, std::string &error) {
  // Past a file-size limit (ulimit -f) write() fails with EFBIG only where
  // SIGXFSZ is ignored; by default the signal ends the process.
  struct sigaction ignore {}, previous{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGXFSZ, &ignore, &previous);
  int err = 0;
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    err = errno;
  } else {
    for (size_t done = 0; done < bytes.size() && !err;) {
      ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) err = n < 0 ? errno : ENOSPC;
      else done += size_t(n);
    }
    if (::close(fd) != 0 && !err) err = errno;
    if (err) ::unlink(path.c_str());
  }
  sigaction(SIGXFSZ, &previous, nullptr);
  if (err) error = "cannot write '" + path + "': " + std::strerror(err);
  return err == 0;
}

} // namespace tessera::tools
