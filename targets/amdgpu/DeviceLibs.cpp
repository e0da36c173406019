// ROCm's device libraries (Debian's rocm-device-libs: ocml for math, ockl
// for printf), embedded at build time and linked on demand as libdevice is
// for nvptx; $TESSERA_ROCM_DEVICE_LIBS names a directory to read instead. Their behaviour
// is set by __oclc_* constants, which the kernel module defines here
// rather than linking one control library per setting and architecture.
#include "targets/amdgpu/TargetInfo.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdlib>
#include <map>
#include <optional>
#include <mutex>

#ifdef TESSERA_HAVE_ROCM_DEVICE_LIBS
extern "C" const char tessera_ocml_begin[], tessera_ocml_end[], tessera_ockl_begin[], tessera_ockl_end[];
#endif

namespace tessera::targets::amdgpu {

std::string deviceLibraryDirectory() {
  if (const char *env = std::getenv("TESSERA_ROCM_DEVICE_LIBS"); env && *env) return env;
#ifdef TESSERA_HAVE_ROCM_DEVICE_LIBS
  return "(embedded)";
#else
  return "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode";
#endif
}

namespace {

// The embedded copy of `file` ("ocml.bc"), if this build has one.
std::optional<llvm::MemoryBufferRef> embedded(const std::string &file) {
#ifdef TESSERA_HAVE_ROCM_DEVICE_LIBS
  if (file == "ocml.bc")
    return llvm::MemoryBufferRef(llvm::StringRef(tessera_ocml_begin, size_t(tessera_ocml_end - tessera_ocml_begin)), file);
  if (file == "ockl.bc")
    return llvm::MemoryBufferRef(llvm::StringRef(tessera_ockl_begin, size_t(tessera_ockl_end - tessera_ockl_begin)), file);
#endif
  (void)file;
  return std::nullopt;
}

// A library's bytes, read once per process.
const llvm::MemoryBuffer *libraryBytes(const std::string &path, std::string &error) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> loaded;
  std::lock_guard<std::mutex> lock(mu);
  auto it = loaded.find(path);
  if (it != loaded.end()) return it->second.get();
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf) {
    error = "cannot read " + path + " (" + buf.getError().message() +
            "): math and printing on amdgpu need ROCm's device libraries (Debian: apt install rocm-device-libs; "
            "elsewhere set TESSERA_ROCM_DEVICE_LIBS to their bitcode directory)";
    return nullptr;
  }
  return (loaded[path] = std::move(*buf)).get();
}

bool linkLibrary(llvm::Module &m, const std::string &file, std::string &error) {
  std::optional<llvm::MemoryBufferRef> bytes;
  const char *env = std::getenv("TESSERA_ROCM_DEVICE_LIBS");
  if (!(env && *env)) bytes = embedded(file);
  if (!bytes) {
    const llvm::MemoryBuffer *read = libraryBytes(deviceLibraryDirectory() + "/" + file, error);
    if (!read) return false;
    bytes = read->getMemBufferRef();
  }
  auto lib = llvm::parseBitcodeFile(*bytes, m.getContext());
  if (!lib) {
    error = "cannot read " + file + ": " + llvm::toString(lib.takeError());
    return false;
  }
  (*lib)->setTargetTriple(m.getTargetTriple());
  (*lib)->setDataLayout(m.getDataLayout());
  if (llvm::Linker::linkModules(m, std::move(*lib), llvm::Linker::LinkOnlyNeeded)) {
    error = "linking " + file + " failed";
    return false;
  }
  return true;
}

bool calls(const llvm::Module &m, llvm::StringRef prefix) {
  for (const llvm::Function &f : m)
    if (f.isDeclaration() && f.getName().starts_with(prefix)) return true;
  return false;
}

} // namespace

bool linkDeviceLibraries(llvm::Module &m, int isaVersion, int waveSize, std::string &error) {
  bool ocml = calls(m, "__ocml_"), ockl = calls(m, "__ockl_");
  if (ocml && !linkLibrary(m, "ocml.bc", error)) return false;
  if (ockl && !linkLibrary(m, "ockl.bc", error)) return false;
  // IEEE behaviour (no finite-only or unsafe shortcuts, subnormals kept,
  // sqrt correctly rounded), as the other targets' math.
  const std::pair<const char *, int> controls[] = {
      {"__oclc_finite_only_opt", 0},         {"__oclc_unsafe_math_opt", 0}, {"__oclc_daz_opt", 0},
      {"__oclc_correctly_rounded_sqrt32", 1}, {"__oclc_wavefrontsize64", waveSize == 64}, {"__oclc_ISA_version", isaVersion},
      {"__oclc_ABI_version", 500}};
  for (auto [name, value] : controls) {
    llvm::GlobalVariable *g = m.getNamedGlobal(name);
    if (!g || !g->isDeclaration()) continue;
    g->setInitializer(llvm::ConstantInt::get(g->getValueType(), uint64_t(value)));
    g->setConstant(true);
    g->setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  // Only the kernel stays visible; the library functions inline into it.
  for (llvm::Function &f : m)
    if (!f.isDeclaration() && f.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  return true;
}

} // namespace tessera::targets::amdgpu
