// libFuzzer entry over the whole frontend: lex, parse, then semantic analysis
// and IR generation (compileKernel, which also verifies the IR), with the
// specialization of FuzzRequest.h. Any crash, sanitizer report or hang is a
// bug; diagnostics are the expected outcome for garbage.
//   ci/fuzz.sh [seconds]   builds it in build-fuzz/ and runs it on the seeds
#include "frontend/fuzz/FuzzRequest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (auto req = tessera::frontend::fuzz::requestFor(data, size)) (void)tessera::frontend::compileKernel(*req);
  return 0;
}
