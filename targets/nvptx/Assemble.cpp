// PTX -> cubin with ptxas: $TESSERA_PTXAS (or "none" for driver JIT only),
// else ptxas on PATH, else the CUDA toolkit's.
#include "targets/nvptx/TargetInfo.h"
#include "targets/llvm/ScratchDir.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

namespace tessera::targets::nvptx {

std::string ptxasPath() {
  if (const char *env = std::getenv("TESSERA_PTXAS")) return std::string(env) == "none" ? "" : env;
  if (auto p = llvm::sys::findProgramByName("ptxas")) return *p;
  for (const char *p : {"/usr/local/cuda/bin/ptxas", "/opt/cuda/bin/ptxas"})
    if (llvm::sys::fs::can_execute(p)) return p;
  return "";
}

bool assemble(const std::string &ptx, const std::string &arch, std::vector<uint8_t> &cubin, std::string &error,
              std::string *messages) {
  std::string ptxas = ptxasPath();
  if (ptxas.empty()) return false;
  llvmgen::ScratchDir dir("tessera-ptxas");
  if (!dir.ok()) {
    error = dir.error();
    return false;
  }
  std::string in = dir.path("kernel.ptx"), out = dir.path("kernel.cubin"), log = dir.path("log");
  if (!dir.write("kernel.ptx", ptx, error)) return false;
  std::string archFlag = "-arch=" + arch;
  // -O3 rather than --Ofast-compile=min: on the H200 host min cut the bench
  // matmul's ptxas time from 200 to 142 ms at the same speed, but attention
  // ran 5-14% slower (session 26).
  llvm::SmallVector<llvm::StringRef, 8> args = {ptxas, archFlag, "-O3", in, "-o", out};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log), llvm::StringRef(log)};
  std::string execError, bin, logText, ignored;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0, &execError);
  dir.read("log", logText, ignored);
  if (rc != 0) {
    error = "ptxas (" + ptxas + " " + archFlag + ") failed" + (execError.empty() ? "" : ": " + execError) + ":\n" + logText;
    return false;
  }
  if (!dir.read("kernel.cubin", bin, error)) return false;
  cubin.assign(bin.begin(), bin.end());
  if (messages) *messages = logText;
  return true;
}

} // namespace tessera::targets::nvptx
