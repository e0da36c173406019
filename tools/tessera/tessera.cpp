// tessera: the command-line executable. The commands are libtessera's
// (tessera_cli_main, tools/tessera/Cli.cpp); `tessera bench` and
// `tessera conformance` are the Python package's programs, run here with
// an interpreter that imports it.
#include "tessera/tessera.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

static std::string environment(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

// Whether `python -c "import tessera"` succeeds with PYTHONPATH as it is now.
static bool importsTessera(const std::string &python) {
  pid_t pid = fork();
  if (pid == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    execlp(python.c_str(), python.c_str(), "-c", "import tessera", (char *)nullptr);
    _exit(127);
  }
  int status = 0;
  return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// Finds the package: $TESSERA_PYTHONPATH, else a source tree this executable
// was built or installed in (its python/ folder, and its .venv's
// interpreter), else whatever $TESSERA_PYTHON (default python3) imports.
static int runPython(const char *module, int argc, char **argv) {
  std::error_code ec;
  fs::path exe = fs::canonical("/proc/self/exe", ec);
  std::vector<fs::path> roots = {exe.parent_path().parent_path(), exe.parent_path().parent_path().parent_path().parent_path()};
  std::string pkg = environment("TESSERA_PYTHONPATH"), python = environment("TESSERA_PYTHON");
  for (const fs::path &root : roots) {
    if (pkg.empty() && fs::exists(root / "python" / "tessera" / "__init__.py")) pkg = (root / "python").string();
    if (python.empty() && fs::exists(root / ".venv" / "bin" / "python")) python = (root / ".venv" / "bin" / "python").string();
  }
  if (python.empty()) python = "python3";
  if (!pkg.empty()) {
    std::string old = environment("PYTHONPATH");
    setenv("PYTHONPATH", (pkg + (old.empty() ? "" : ":" + old)).c_str(), 1);
  } else if (!importsTessera(python)) {
    std::fprintf(stderr,
                 "tessera: '%s' is a program of tessera's Python package, which %s cannot import: install it "
                 "(pip install tessera, or pip install SOURCE-TREE), or set TESSERA_PYTHONPATH to a source tree's "
                 "python/ folder and TESSERA_PYTHON to an interpreter with numpy\n",
                 argv[1], python.c_str());
    return 2;
  }
  std::vector<char *> args = {const_cast<char *>(python.c_str()), const_cast<char *>("-m"), const_cast<char *>(module)};
  for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  execvp(args[0], args.data());
  std::fprintf(stderr, "tessera: cannot run %s: %s\n", python.c_str(), std::strerror(errno));
  return 2;
}

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "bench") == 0) return runPython("tessera.bench", argc, argv);
  if (argc > 1 && std::strcmp(argv[1], "conformance") == 0) return runPython("tessera.conformance", argc, argv);
  return tessera_cli_main(argc, const_cast<const char **>(argv));
}
