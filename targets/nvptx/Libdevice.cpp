// libdevice (NVIDIA's math library as LLVM bitcode), embedded in the
// library at build time so that compiling needs no CUDA installation.
#include "targets/nvptx/TargetInfo.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"

#ifdef TESSERA_HAVE_LIBDEVICE
extern "C" const char tessera_libdevice_begin[];
extern "C" const char tessera_libdevice_end[];
#endif

namespace tessera::targets::nvptx {

bool linkLibdevice(llvm::Module &m, std::string &error) {
  bool needed = false;
  for (llvm::Function &f : m)
    needed |= f.isDeclaration() && f.getName().starts_with("__nv_");
  if (!needed) return true;
#ifdef TESSERA_HAVE_LIBDEVICE
  llvm::StringRef bytes(tessera_libdevice_begin, size_t(tessera_libdevice_end - tessera_libdevice_begin));
  auto lib = llvm::parseBitcodeFile(llvm::MemoryBufferRef(bytes, "libdevice.10.bc"), m.getContext());
  if (!lib) {
    error = "cannot read the embedded libdevice: " + llvm::toString(lib.takeError());
    return false;
  }
  (*lib)->setTargetTriple(m.getTargetTriple());
  (*lib)->setDataLayout(m.getDataLayout());
  if (llvm::Linker::linkModules(m, std::move(*lib), llvm::Linker::LinkOnlyNeeded)) {
    error = "linking libdevice failed";
    return false;
  }
  // Only the kernel stays visible; the math functions inline into it.
  for (llvm::Function &f : m)
    if (!f.isDeclaration() && f.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  return true;
#else
  error = "math functions need libdevice, which this build did not find (configure with -DTESSERA_LIBDEVICE=<path>)";
  return false;
#endif
}

} // namespace tessera::targets::nvptx
