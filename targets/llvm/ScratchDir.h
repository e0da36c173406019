// A private temporary directory for one external tool's run (lld, ptxas):
// files are written with their errors reported (a full disk, a quota,
// ulimit -f), and the directory and everything in it go when it does.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tessera::targets::llvmgen {

class ScratchDir {
public:
  // `prefix` names the directory under $TMPDIR (tessera-link-XXXXXX).
  explicit ScratchDir(const std::string &prefix);
  ~ScratchDir();
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;

  // Empty when the directory could not be made; then error() says why.
  bool ok() const { return !dir_.empty(); }
  const std::string &error() const { return error_; }

  // The path of `name` in the directory; it is removed with the directory.
  std::string path(const std::string &name);
  // Writes `bytes` to path(name); false with `error` naming the file and the
  // reason when any write fails.
  bool write(const std::string &name, std::string_view bytes, std::string &error);
  // The whole of path(name), or false with `error` saying why not.
  bool read(const std::string &name, std::string &bytes, std::string &error);

private:
  std::string dir_, error_;
  std::vector<std::string> files_;
};

} // namespace tessera::targets::llvmgen
