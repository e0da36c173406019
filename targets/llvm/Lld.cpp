#include "targets/llvm/Lld.h"
#include "runtime/WriteAll.h"

#include "lld/Common/Driver.h"
#include "llvm/Support/raw_ostream.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

LLD_HAS_DRIVER(elf)

namespace tessera::targets::llvmgen {

namespace {

// An anonymous file in memory that lld opens by its /proc/self/fd path.
class MemoryFile {
public:
  explicit MemoryFile(const char *name) : fd_(memfd_create(name, MFD_CLOEXEC)), errno_(fd_ < 0 ? errno : 0) {}
  ~MemoryFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  MemoryFile(const MemoryFile &) = delete;
  MemoryFile &operator=(const MemoryFile &) = delete;

  bool ok() const { return fd_ >= 0; }
  int errorNumber() const { return errno_; }
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

  bool write(std::string_view bytes, std::string &error) {
    int err = writeAll(fd_, bytes.data(), bytes.size());
    if (err) error = std::string("cannot write the kernel's object for linking: ") + std::strerror(err);
    return err == 0;
  }

private:
  int fd_, errno_;
};

// A pipe that lld writes by its /proc/self/fd path while a thread of ours
// drains it (a pipe holds only 64 KiB).
class OutputPipe {
public:
  OutputPipe() {
    if (::pipe2(fds_, O_CLOEXEC) != 0) {
      errno_ = errno, fds_[0] = fds_[1] = -1;
      return;
    }
    reader_ = std::thread([this] {
      char chunk[65536];
      for (;;) {
        ssize_t n = ::read(fds_[0], chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) readErrno_ = errno;
        if (n <= 0) return;
        bytes_.insert(bytes_.end(), chunk, chunk + n);
      }
    });
  }
  ~OutputPipe() {
    std::vector<uint8_t> ignored;
    std::string error;
    finish(ignored, error);
  }
  OutputPipe(const OutputPipe &) = delete;
  OutputPipe &operator=(const OutputPipe &) = delete;

  bool ok() const { return fds_[0] >= 0; }
  int errorNumber() const { return errno_; }
  std::string path() const { return "/proc/self/fd/" + std::to_string(fds_[1]); }

  // Closes the writing end, waits for the reader and hands over what came.
  bool finish(std::vector<uint8_t> &bytes, std::string &error) {
    if (fds_[1] >= 0) ::close(fds_[1]), fds_[1] = -1;
    if (reader_.joinable()) reader_.join();
    if (fds_[0] >= 0) ::close(fds_[0]), fds_[0] = -1;
    bytes = std::move(bytes_);
    if (readErrno_) error = std::string("cannot read the linked kernel: ") + std::strerror(readErrno_);
    else if (bytes.empty()) error = "lld wrote an empty shared object";
    return readErrno_ == 0 && !bytes.empty();
  }

private:
  int fds_[2] = {-1, -1};
  int errno_ = 0, readErrno_ = 0;
  std::thread reader_;
  std::vector<uint8_t> bytes_;
};

// Runs `ld.lld args...`; false with `error` holding lld's messages.
bool linkWithLld(const std::vector<std::string> &args, std::string &error) {
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  std::vector<const char *> argv = {"ld.lld"};
  for (const std::string &a : args) argv.push_back(a.c_str());
  std::string out, err;
  llvm::raw_string_ostream outS(out), errS(err);
  // lld keeps what it makes with makeThreadLocal (input sections...) in
  // thread_local allocators until their thread ends: one thread of its own
  // per link (and no worker threads, --threads=1) gives that memory back.
  // Linked in the caller's thread, a process grew by ~2 KB per compile.
  lld::Result r;
  std::thread([&] { r = lld::lldMain(argv, outS, errS, {{lld::Gnu, &lld::elf::link}}); }).join();
  if (r.retCode == 0) return true;
  error = errS.str().empty() ? "lld failed (exit " + std::to_string(r.retCode) + ")" : errS.str();
  while (!error.empty() && error.back() == '\n') error.pop_back();
  return false;
}

} // namespace

bool linkSharedObject(std::string_view object, const std::vector<std::string> &args, std::vector<uint8_t> &linked,
                      std::string &error) {
  // lld reads the object from a file in memory (memfd) and writes the
  // shared object into a pipe: a link touches no disk, so a full or
  // read-only $TMPDIR, or a file-size limit, cannot fail it (lld maps its
  // output, and dies of SIGBUS on a full disk, or ignores a failed write and
  // exits), and nothing is left behind. A pipe is no regular file: lld
  // writes it with write(2) instead of renaming a temporary file over it.
  MemoryFile in("tessera-kernel.o");
  OutputPipe out;
  if (!in.ok() || !out.ok()) {
    error = std::string("cannot create an in-memory file or a pipe for linking: ") +
            std::strerror(in.ok() ? out.errorNumber() : in.errorNumber());
    return false;
  }
  if (!in.write(object, error)) return false;
  std::vector<std::string> lldArgs = {"-shared", "--threads=1", "-o", out.path(), in.path()};
  lldArgs.insert(lldArgs.end(), args.begin(), args.end());
  std::string lldError;
  bool linkedOk = linkWithLld(lldArgs, lldError);
  std::string readError;
  bool readOk = out.finish(linked, readError);
  if (!linkedOk) {
    error = "linking the kernel failed: " + lldError;
    return false;
  }
  if (!readOk) error = readError;
  return readOk;
}

} // namespace tessera::targets::llvmgen
