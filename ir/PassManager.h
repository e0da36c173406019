// Passes are functions over a Module, registered by name in
// ir/transforms/Passes.def. A pipeline is a list of pass names.
#pragma once

#include "ir/IR.h"

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace tessera::ir {

using PassFn = void (*)(Module &);

// Thrown by a pass for input it cannot handle (e.g. an op a lowering does
// not support); PassManager::run reports it as its error.
struct PassError {
  std::string message;
};

struct PassInfo {
  const char *name;
  PassFn run;
  const char *description;
};

std::vector<PassInfo> registeredPasses();  // a snapshot
const PassInfo *findPass(std::string_view name);
// Adds a pass defined above ir/ (e.g. the GPU targets' lower-to-threads) to
// the registry; a second registration of a name is ignored.
void registerPass(const PassInfo &pass);

struct PassOptions {
  bool dumpAfterEach = false;  // print the IR after each pass (TESSERA_DUMP_IR=1)
  bool timing = false;         // per-pass wall time (TESSERA_PASS_TIMING=1)
  bool verifyEach = false;     // verify after each pass (default in debug builds)
  std::ostream *log = nullptr; // where dumps and timings go (std::cerr if null)
  static PassOptions fromEnvironment();
};

class PassManager {
public:
  explicit PassManager(PassOptions opts = PassOptions::fromEnvironment()) : opts_(opts) {}
  // Adds a registered pass by name; returns false if there is none.
  bool add(std::string_view name);
  void add(const PassInfo &pass) { pipeline_.push_back(&pass); }
  const std::vector<const PassInfo *> &pipeline() const { return pipeline_; }

  // Runs the pipeline. Returns false (with `error` set) if a pass left the
  // module invalid when verification is on.
  bool run(Module &m, std::string *error = nullptr);

private:
  PassOptions opts_;
  std::vector<const PassInfo *> pipeline_;
};

} // namespace tessera::ir
