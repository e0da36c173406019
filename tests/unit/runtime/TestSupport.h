// Helpers for the runtime and C API tests: build the hand-written ABI kernels
// (abi_kernels.c) with the system C compiler, temp directories, and a fake
// compile target that returns those kernels, so the whole compile path
// (frontend -> target -> cache -> runtime) runs before the CPU target exists.
#pragma once

#include "targets/Target.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace tessera::test {

inline std::vector<uint8_t> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  return {s.begin(), s.end()};
}

// A fresh directory under the system temp dir, removed by the destructor.
struct TempDir {
  std::string path;
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "tessera-test-XXXXXX").string();
    path = mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

// Compiles abi_kernels.c once per process into a shared object; returns its
// path ("" when the compiler fails, with the reason in `error`).
inline std::string abiKernelsPath(std::string *error = nullptr) {
  static TempDir dir;
  static std::string path, failure;
  static bool built = false;
  if (!built) {
    built = true;
    std::string out = dir.path + "/abi_kernels.so";
    std::string cmd = std::string(TESSERA_TEST_CC) + " -O2 -shared -fPIC -o " + out + " " + TESSERA_ABI_KERNELS_SRC + " 2>&1";
    if (std::system(cmd.c_str()) == 0) path = out;
    else failure = "the system C compiler failed: " + cmd;
  }
  if (error) *error = failure;
  return path;
}

inline std::vector<uint8_t> abiKernelsBinary() { return readFile(abiKernelsPath()); }

// Builds a fake vendor library (fake_libcuda.c, fake_libamdhip64.c,
// fake_libze_loader.c) with `defines` as <name>.so; "" when the compiler fails.
inline std::string buildFakeLibrary(const std::string &name, const std::string &defines, const std::string &source) {
  static TempDir dir;
  std::string out = dir.path + "/" + name + ".so";
  std::string cmd = std::string(TESSERA_TEST_CC) + " -shared -fPIC " + defines + " -o " + out + " " + source;
  return std::system(cmd.c_str()) == 0 ? out : "";
}

// A target whose "code generator" returns abi_kernels.so. The kernel's
// runtime parameters come from the IR the frontend produced, as a real
// target's would; `delay` widens race windows in the concurrency tests.
class FakeTarget : public targets::Target {
public:
  explicit FakeTarget(std::vector<uint8_t> binary, int *compiles = nullptr, std::chrono::milliseconds delay = {})
      : binary_(std::move(binary)), compiles_(compiles), delay_(delay) {}
  std::string name() const override { return "fake"; }
  targets::TargetFacts facts(const targets::TargetOptions &) const override { return {}; }
  std::vector<std::string> pipeline() const override { return {}; }
  std::string fingerprint(const targets::TargetOptions &) const override { return "fake-target-v1"; }
  bool compile(ir::Module &module, const std::string &entry, const targets::TargetOptions &, targets::CompiledKernel &out,
               std::string &error) override {
    ir::Function *f = module.lookup(entry);
    if (!f) {
      error = "no kernel '" + entry + "' in the module";
      return false;
    }
    if (compiles_) ++*compiles_;
    std::this_thread::sleep_for(delay_);
    out.target = "cpu";
    out.entry = entry;
    out.format = "elf-shared-object";
    out.binary = binary_;
    for (unsigned i = 0; i < f->numArguments(); ++i) {
      targets::KernelParam p;
      p.name = "arg" + std::to_string(i);
      p.type = f->argument(i)->type();
      p.sizeBytes = 8;
      out.params.push_back(p);
    }
    if (!tensorMap.empty()) {  // as a target copying with TMA adds one (ir/IR.h, tensor_map)
      targets::KernelParam p;
      p.name = "tensor_map";
      p.type = ir::Type::pointer(ir::Type::scalar(ir::ScalarKind::I8));
      p.sizeBytes = 128;
      p.tensorMap = tensorMap;
      p.tensorMapFields = tensorMapFields;
      out.params.push_back(p);
    }
    return true;
  }

  std::vector<int64_t> tensorMap;  // non-empty: a last, tensor-map parameter
  std::vector<tessera::ir::TensorMapField> tensorMapFields;  // its fields (ir::tensorMapFields)

private:
  std::vector<uint8_t> binary_;
  int *compiles_;
  std::chrono::milliseconds delay_;
};

// The tutorial's vector add; with BLOCK_SIZE = 64 it matches add_kernel in
// abi_kernels.c.
inline const char *vectorAddSource() {
  return "import tessera\n"
         "import tessera.language as tl\n"
         "\n"
         "@tessera.jit\n"
         "def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):\n"
         "    pid = tl.program_id(axis=0)\n"
         "    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n"
         "    mask = offsets < n_elements\n"
         "    x = tl.load(x_ptr + offsets, mask=mask)\n"
         "    y = tl.load(y_ptr + offsets, mask=mask)\n"
         "    tl.store(output_ptr + offsets, x + y, mask=mask)\n";
}

} // namespace tessera::test
