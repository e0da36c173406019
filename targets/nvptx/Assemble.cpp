// PTX -> cubin with ptxas: $TESSERA_PTXAS (or "none" for driver JIT only),
// else ptxas on PATH, else the CUDA toolkit's.
#include "targets/nvptx/TargetInfo.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace tessera::targets::nvptx {

std::string ptxasPath() {
  if (const char *env = std::getenv("TESSERA_PTXAS")) return std::string(env) == "none" ? "" : env;
  if (auto p = llvm::sys::findProgramByName("ptxas")) return *p;
  for (const char *p : {"/usr/local/cuda/bin/ptxas", "/opt/cuda/bin/ptxas"})
    if (llvm::sys::fs::can_execute(p)) return p;
  return "";
}

namespace {

std::string readAll(const std::string &path) {
  auto buf = llvm::MemoryBuffer::getFile(path);
  return buf ? (*buf)->getBuffer().str() : std::string();
}

} // namespace

bool assemble(const std::string &ptx, const std::string &arch, std::vector<uint8_t> &cubin, std::string &error,
              std::string *messages) {
  std::string ptxas = ptxasPath();
  if (ptxas.empty()) return false;
  llvm::SmallString<128> dir;
  if (auto ec = llvm::sys::fs::createUniqueDirectory("tessera-ptxas", dir)) {
    error = "cannot create a temporary directory: " + ec.message();
    return false;
  }
  std::string in = (dir + "/kernel.ptx").str(), out = (dir + "/kernel.cubin").str(), log = (dir + "/log").str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream f(in, ec);
    f << ptx;
  }
  std::string archFlag = "-arch=" + arch;
  // -O3 rather than --Ofast-compile=min: on the H200 host min cut the bench
  // matmul's ptxas time from 200 to 142 ms at the same speed, but attention
  // ran 5-14% slower (session 26).
  llvm::SmallVector<llvm::StringRef, 8> args = {ptxas, archFlag, "-O3", in, "-o", out};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log), llvm::StringRef(log)};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0, &execError);
  bool ok = rc == 0;
  if (ok) {
    std::string bin = readAll(out);
    cubin.assign(bin.begin(), bin.end());
    ok = !cubin.empty();
  }
  if (ok && messages) *messages = readAll(log);
  if (!ok) error = "ptxas (" + ptxas + " " + archFlag + ") failed" + (execError.empty() ? "" : ": " + execError) + ":\n" + readAll(log);
  for (const std::string &p : {in, out, log}) llvm::sys::fs::remove(p);
  llvm::sys::fs::remove(dir);
  return ok;
}

} // namespace tessera::targets::nvptx
