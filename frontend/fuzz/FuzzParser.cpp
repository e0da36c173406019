// libFuzzer entry: lex, parse and print arbitrary bytes. Any crash, sanitizer
// report or hang is a bug; diagnostics are the expected outcome for garbage.
// Build with -DTESSERA_FUZZ=ON (clang), ideally with -DTESSERA_SANITIZE=ON, then
// run on a scratch copy of the seeds (libFuzzer writes into its corpus dir):
//   cp -r frontend/fuzz/corpus /tmp/fz && tessera_fuzz_parser /tmp/fz -max_len=4096
#include "frontend/AST.h"
#include "frontend/Diagnostics.h"
#include "frontend/Parser.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace tessera::frontend;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  SourceManager sources;
  const SourceFile& file = sources.addFile("fuzz.py", std::string(reinterpret_cast<const char*>(data), size));
  DiagnosticEngine diags(sources);
  auto module = Parser(file, diags).parseModule();
  // Printing walks every node and every diagnostic's location and caret.
  std::string dump = ASTPrinter().print(*module);
  std::string text = diags.formatAll();
  (void)dump;
  (void)text;
  return 0;
}
