// libFuzzer entry past the frontend: each input that compiles to tile IR
// (FuzzRequest.h) goes through the CPU target's passes and its lowering to
// LLVM IR, through the nvptx target's passes and thread-level emitter, and
// through the spirv target's (Vulkan or OpenCL flavour, by the input's size)
// to a module SPIRV-Tools validates, with the IR verified after every pass
// (TargetOptions::lowerOnly: LLVM's optimizer and code generators, not ours,
// are left out). Half the inputs
// run in the checked mode. An error message is a fine outcome; a crash, sanitizer
// report, hang, or an "internal error" (invalid IR) is a bug.
//   ci/fuzz.sh [seconds] lower
#include "frontend/fuzz/FuzzRequest.h"
#include "targets/Target.h"

#include <cstdio>
#include <cstdlib>

namespace {

using namespace tessera;

// Each target changes the module it compiles: each gets its own.
void lower(targets::Target *t, const frontend::CompileRequest &req, bool checked) {
  if (!t) return;  // not in this build
  targets::TargetOptions o;
  o.lowerOnly = true;
  o.checked = checked;
  frontend::CompileResult r = frontend::compileKernel(req);
  if (!r.module) return;
  targets::CompiledKernel k;
  std::string error;
  if (!t->compile(*r.module, req.entry, o, k, error) && error.find("internal error") != std::string::npos) {
    std::fprintf(stderr, "%s: %s\n", t->name().c_str(), error.c_str());
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  setenv("TESSERA_VERIFY_EACH", "1", 1);  // every pass leaves valid IR
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto req = frontend::fuzz::requestFor(data, size);
  if (!req) return 0;
  static const std::unique_ptr<targets::Target> cpu = targets::createTarget("cpu"), nvptx = targets::createTarget("nvptx"),
                                                vulkan = targets::createTarget("vulkan"),
                                                opencl = targets::createTarget("spirv:opencl");
  bool checked = size % 4 >= 2;
  lower(cpu.get(), *req, checked);
  lower(nvptx.get(), *req, checked);
  lower((size % 2 ? vulkan : opencl).get(), *req, checked);
  return 0;
}
