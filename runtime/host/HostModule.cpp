// Host modules and kernels (docs/cpu-abi.md). dlopen needs a file, so the
// bytes go to a private temp file that is unlinked as soon as it is mapped.
// A launch splits the grid's linear program ids over the thread pool.
#include "runtime/WriteAll.h"
#include "runtime/host/HostCallbacks.h"
#include "runtime/host/HostFaults.h"
#include "runtime/host/HostInternal.h"
#include "runtime/host/ThreadPool.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <mutex>
#include <new>
#include <pthread.h>
#include <unistd.h>

namespace tessera::runtime {

namespace {

// One grid at a time: the pool runs one range, and the assertion record
// belongs to the launch. Re-made in a child of fork(), where a launch another
// thread of the parent was running when it forked would hold it forever.
std::mutex launchMutex;
const bool launchMutexForkHandler =
    pthread_atfork(nullptr, nullptr, [] { new (&launchMutex) std::mutex(); }) == 0;

using EntryFn = void (*)(void **args, int32_t gx, int32_t gy, int32_t gz, int64_t first, int64_t last);

// Closes the shared object when the module and every kernel from it are gone.
struct DlHandle {
  void *handle = nullptr;
  ~DlHandle() {
    if (handle) dlclose(handle);
  }
};

class HostKernel final : public Kernel {
public:
  HostKernel(Device &device, std::shared_ptr<DlHandle> lib, std::string name, EntryFn fn, size_t numArgs)
      : device_(device), lib_(std::move(lib)), name_(std::move(name)), fn_(fn), numArgs_(numArgs) {
    // Messages name the kernel as its source does, not by the CPU target's symbol.
    const std::string prefix = "tessera_kernel_";
    shown_ = name_.rfind(prefix, 0) == 0 ? name_.substr(prefix.size()) : name_;
  }
  const std::string &name() const override { return name_; }

  Status launch(const LaunchConfig &config, void **args, size_t numArgs, Stream *stream) override {
    if (Status st = checkArgs(args, numArgs, numArgs_); !st) return st;
    if (!streamBelongsTo(stream, device_)) return {StatusCode::InvalidArgument, "launch: the stream belongs to another device"};
    // CUDA's limits (x < 2^31, y and z <= 65535) on every target: a launch
    // that runs here runs on a GPU, and a grid of 2^60 programs is refused
    // rather than run for years.
    int64_t total = 1;
    for (size_t d = 0; d < 3; ++d) {
      uint32_t g = config.grid[d], limit = d == 0 ? uint32_t(INT32_MAX) : 65535u;
      if (g > limit)
        return {StatusCode::InvalidArgument, std::string("grid dimension ") + "xyz"[d] + " = " + std::to_string(g) +
                                                 " exceeds " + (d == 0 ? "2^31-1" : "65535") + " (CUDA's limit, kept on every target)"};
      total *= int64_t(g);
    }
    if (total == 0) return Status::ok();  // an empty grid runs nothing, as on GPUs

    auto &failure = hostLaunchFailure();
    std::lock_guard<std::mutex> lock(launchMutex);
    failure.reset();
    InterruptScope interrupt;
    FaultScope faults;
    const int32_t gx = int32_t(config.grid[0]), gy = int32_t(config.grid[1]), gz = int32_t(config.grid[2]);
    EntryFn fn = fn_;
    std::function<void(int64_t, int64_t)> body = [&](int64_t first, int64_t last) {
      std::string fault;
      if (runGuarded([&] { fn(args, gx, gy, gz, first, last); }, fault)) return;
      std::lock_guard<std::mutex> m(failure.mutex);
      if (failure.message.empty() || !failure.fault)
        failure.message = "a program in " + std::to_string(first) + ".." + std::to_string(last - 1) + " (linear ids) faulted: " +
                          fault + "; the process goes on, but memory the kernel wrote may be corrupted";
      failure.fault = true;
      failure.failed.store(true);
    };
    ThreadPool::instance().parallelFor(total, body, &failure.failed);
    if (interrupt.interrupted())
      return {StatusCode::Interrupted, "kernel '" + shown_ + "': interrupted (SIGINT); programs not yet started were skipped "
                                       "and running ones stopped at their next loop iteration, so its outputs are incomplete"};
    if (failure.failed.load()) {
      std::lock_guard<std::mutex> m(failure.mutex);
      StatusCode code = failure.fault ? StatusCode::LaunchFailed
                        : failure.outOfMemory ? StatusCode::OutOfMemory : StatusCode::AssertFailed;
      return {code, "kernel '" + shown_ + "': " + failure.message};
    }
    return Status::ok();
  }

private:
  Device &device_;
  std::shared_ptr<DlHandle> lib_;
  std::string name_, shown_;
  EntryFn fn_;
  size_t numArgs_;
};

class HostModule final : public Module {
public:
  HostModule(Device &device, std::shared_ptr<DlHandle> lib) : device_(device), lib_(std::move(lib)) {}
  Status getKernel(const std::string &entry, size_t numArgs, std::unique_ptr<Kernel> &out) override {
    dlerror();
    void *sym = dlsym(lib_->handle, entry.c_str());
    if (!sym) {
      const char *err = dlerror();
      return {StatusCode::NotFound, "no kernel entry '" + entry + "' in the module" + (err ? std::string(": ") + err : "")};
    }
    out = std::make_unique<HostKernel>(device_, lib_, entry, reinterpret_cast<EntryFn>(sym), numArgs);
    return Status::ok();
  }

private:
  Device &device_;
  std::shared_ptr<DlHandle> lib_;
};

// Why `data` is not a whole 64-bit little-endian ELF shared object for this
// machine, or empty. dlopen trusts the file: a truncated one (a damaged
// cache entry, a short read) makes it read past the end and crash.
std::string elfProblem(const uint8_t *data, size_t size) {
  if (!data || size < sizeof(Elf64_Ehdr) || std::memcmp(data, ELFMAG, SELFMAG) != 0) return "not an ELF file";
  Elf64_Ehdr h;
  std::memcpy(&h, data, sizeof h);
  if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_ident[EI_DATA] != ELFDATA2LSB) return "not a 64-bit little-endian ELF file";
  if (h.e_type != ET_DYN) return "not a shared object";
#if defined(__x86_64__)
  if (h.e_machine != EM_X86_64) return "built for another machine (e_machine " + std::to_string(h.e_machine) + ")";
#elif defined(__aarch64__)
  if (h.e_machine != EM_AARCH64) return "built for another machine (e_machine " + std::to_string(h.e_machine) + ")";
#endif
  auto within = [&](uint64_t offset, uint64_t count, uint64_t each) {
    return offset <= size && each != 0 && count <= (size - offset) / each;
  };
  if (h.e_phnum == 0 || h.e_phentsize < sizeof(Elf64_Phdr) || !within(h.e_phoff, h.e_phnum, h.e_phentsize))
    return "truncated (program headers)";
  if (h.e_shnum && (h.e_shentsize < sizeof(Elf64_Shdr) || !within(h.e_shoff, h.e_shnum, h.e_shentsize)))
    return "truncated (section headers)";
  for (uint16_t i = 0; i < h.e_phnum; ++i) {
    Elf64_Phdr ph;
    std::memcpy(&ph, data + h.e_phoff + uint64_t(i) * h.e_phentsize, sizeof ph);
    if ((ph.p_type == PT_LOAD || ph.p_type == PT_DYNAMIC) && (ph.p_offset > size || ph.p_filesz > size - ph.p_offset))
      return "truncated (segment " + std::to_string(i) + " ends past the file)";
  }
  return "";
}

} // namespace

Status loadHostModule(Device &device, const void *binary, size_t size, std::unique_ptr<Module> &out) {
  if (std::string problem = elfProblem(static_cast<const uint8_t *>(binary), size); !problem.empty())
    return {StatusCode::LoadFailed, "the binary is not a loadable ELF shared object: " + problem};
  exposeHostCallbacks();
  const char *tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/tessera-kernel-XXXXXX.so";
  int fd = mkstemps(path.data(), 3);
  if (fd < 0) return {StatusCode::IoError, "cannot create a temp file for the kernel (" + path + "): " + std::strerror(errno)};
  int writeError = writeAll(fd, binary, size);
  if (::close(fd) != 0 && !writeError) writeError = errno;
  if (writeError) {
    ::unlink(path.c_str());
    return {StatusCode::IoError, "cannot write the kernel's temp file " + path + ": " + std::strerror(writeError)};
  }
  auto lib = std::make_shared<DlHandle>();
  lib->handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  std::string err = lib->handle ? "" : dlerror();
  ::unlink(path.c_str());  // the mapping stays valid; nothing is left behind
  if (!lib->handle) return {StatusCode::LoadFailed, "dlopen of the kernel failed: " + err};
  out = std::make_unique<HostModule>(device, std::move(lib));
  return Status::ok();
}

} // namespace tessera::runtime
