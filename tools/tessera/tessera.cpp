// tessera: the command-line driver. Subcommands grow with the project.
//   tessera targets     which code generators this build contains
//   tessera version
#include "targets/Available.h"

#include <cstdio>
#include <string>

static int usage() {
  std::fprintf(stderr, "usage: tessera <targets|version>\n");
  return 2;
}

int main(int argc, char **argv) {
  std::string cmd = argc > 1 ? argv[1] : "targets";
  if (cmd == "version") {
    std::printf("tessera 0.1.0 (LLVM %s)\n", tessera::targets::llvmVersion().c_str());
    return 0;
  }
  if (cmd != "targets") return usage();
  std::printf("Tessera 0.1.0, LLVM %s\n", tessera::targets::llvmVersion().c_str());
  std::printf("%-8s %-46s %-9s %s\n", "target", "code generator", "linked", "status");
  for (auto &b : tessera::targets::availableBackends())
    std::printf("%-8s %-46s %-9s %s\n", b.name.c_str(), b.generator.c_str(), b.present ? "yes" : "no",
                b.note.c_str());
  return 0;
}
