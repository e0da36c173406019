#include "targets/llvm/ScratchDir.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace tessera::targets::llvmgen {

ScratchDir::ScratchDir(const std::string &prefix) {
  llvm::SmallString<128> dir;
  if (auto ec = llvm::sys::fs::createUniqueDirectory(prefix, dir))
    error_ = "cannot create a temporary directory: " + ec.message();
  else
    dir_ = dir.str().str();
}

ScratchDir::~ScratchDir() {
  if (dir_.empty()) return;
  for (const std::string &f : files_) llvm::sys::fs::remove(f);
  llvm::sys::fs::remove(dir_);
}

std::string ScratchDir::path(const std::string &name) {
  std::string p = dir_ + "/" + name;
  if (std::find(files_.begin(), files_.end(), p) == files_.end()) files_.push_back(p);
  return p;
}

bool ScratchDir::write(const std::string &name, std::string_view bytes, std::string &error) {
  std::string p = path(name);
  std::error_code ec;
  llvm::raw_fd_ostream f(p, ec);
  if (!ec) {
    f << bytes;
    f.close();
    ec = f.error();
    // An unchecked stream error is fatal in its destructor (LLVM ERROR: IO
    // failure): it is reported here instead.
    f.clear_error();
  }
  if (ec) error = "cannot write " + p + ": " + ec.message();
  return !ec;
}

bool ScratchDir::read(const std::string &name, std::string &bytes, std::string &error) {
  std::string p = path(name);
  auto buf = llvm::MemoryBuffer::getFile(p);
  if (!buf) {
    error = "cannot read " + p + ": " + buf.getError().message();
    return false;
  }
  bytes = (*buf)->getBuffer().str();
  return true;
}

} // namespace tessera::targets::llvmgen
