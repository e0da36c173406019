#include "tools/tessera/OutputFile.h"
#include "runtime/WriteAll.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace tessera::tools {

bool writeOutputFile(const std::string &path, std::string_view bytes, std::string &error) {
  // writeAll refuses what would pass a file-size limit (ulimit -f); a write
  // that the limit cuts anyway fails with EFBIG only where SIGXFSZ is ignored.
  struct sigaction ignore {}, previous{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGXFSZ, &ignore, &previous);
  int err = 0;
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    err = errno;
  } else {
    err = writeAll(fd, bytes.data(), bytes.size());
    if (::close(fd) != 0 && !err) err = errno;
    if (err) ::unlink(path.c_str());
  }
  sigaction(SIGXFSZ, &previous, nullptr);
  if (err) error = "cannot write '" + path + "': " + std::strerror(err);
  return err == 0;
}

} // namespace tessera::tools
