#include "targets/llvm/Lld.h"

#include "lld/Common/Driver.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <thread>

LLD_HAS_DRIVER(elf)

namespace tessera::targets::llvmgen {

namespace {

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
  llvm::SmallString<128> dir;
  if (auto ec = llvm::sys::fs::createUniqueDirectory("tessera-link", dir)) {
    error = "cannot create a temporary directory: " + ec.message();
    return false;
  }
  std::string in = (dir + "/kernel.o").str(), out = (dir + "/kernel.so").str();
  bool ok = false;
  {
    std::error_code ec;
    llvm::raw_fd_ostream f(in, ec);
    if (!ec) f << object, f.close();
    if (ec || f.has_error()) error = "cannot write " + in + ": " + (ec ? ec.message() : f.error().message());
    else ok = true;
  }
  std::vector<std::string> lldArgs = {"-shared", "--threads=1", "-o", out, in};
  lldArgs.insert(lldArgs.end(), args.begin(), args.end());
  std::string lldError;
  if (ok && !linkWithLld(lldArgs, lldError)) {
    error = "linking the kernel failed: " + lldError;
    ok = false;
  }
  if (ok) {
    auto buf = llvm::MemoryBuffer::getFile(out);
    if (!buf) {
      error = "cannot read the linked kernel: " + buf.getError().message();
      ok = false;
    } else {
      linked.assign((*buf)->getBufferStart(), (*buf)->getBufferEnd());
    }
  }
  for (const std::string &p : {in, out}) llvm::sys::fs::remove(p);
  llvm::sys::fs::remove(dir);
  return ok;
}

} // namespace tessera::targets::llvmgen
