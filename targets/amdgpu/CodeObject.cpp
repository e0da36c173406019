// An AMDGPU object file -> an HSA code object: lld links it into a shared
// object (what HIP's module loader and the HSA runtime take), and the
// result is checked before anyone loads it: the kernel's descriptor
// (`<entry>.kd`) is there, its LDS fits the architecture and its wave size
// is the one the lowering assumed.
#include "targets/amdgpu/TargetInfo.h"

#include "targets/llvm/Lld.h"

#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/AMDHSAKernelDescriptor.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace tessera::targets::amdgpu {
namespace {

bool checkDescriptor(const std::vector<uint8_t> &hsaco, const std::string &entry, int64_t ldsLimit, int waveSize,
                     std::string &error) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(hsaco.data()), hsaco.size());
  auto object = llvm::object::ObjectFile::createObjectFile(llvm::MemoryBufferRef(bytes, entry + ".hsaco"));
  if (!object) {
    error = "the linked code object is not an ELF file: " + llvm::toString(object.takeError());
    return false;
  }
  std::string name = entry + ".kd";
  for (const llvm::object::SymbolRef &sym : (*object)->symbols()) {
    auto symName = sym.getName();
    auto section = sym.getSection();
    auto address = sym.getAddress();
    if (!symName || *symName != name || !section || !address || *section == (*object)->section_end()) {
      if (!symName) llvm::consumeError(symName.takeError());
      if (!section) llvm::consumeError(section.takeError());
      if (!address) llvm::consumeError(address.takeError());
      continue;
    }
    auto contents = (*section)->getContents();
    uint64_t offset = *address - (*section)->getAddress();
    if (!contents || offset + sizeof(llvm::amdhsa::kernel_descriptor_t) > contents->size()) {
      if (!contents) llvm::consumeError(contents.takeError());
      error = "the kernel descriptor " + name + " lies outside its section";
      return false;
    }
    const char *kd = contents->data() + offset;
    using namespace llvm::support;
    uint32_t lds = endian::read32le(kd + llvm::amdhsa::GROUP_SEGMENT_FIXED_SIZE_OFFSET);
    uint16_t properties = endian::read16le(kd + llvm::amdhsa::KERNEL_CODE_PROPERTIES_OFFSET);
    bool wave32 = properties & llvm::amdhsa::KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32;
    if (int64_t(lds) > ldsLimit) {
      error = "kernel '" + entry + "' needs " + std::to_string(lds) + " bytes of LDS; the GPU has " +
              std::to_string(ldsLimit) + " (use smaller blocks)";
      return false;
    }
    if ((wave32 ? 32 : 64) != waveSize) {
      error = "internal error: the code object of '" + entry + "' runs waves of " + std::to_string(wave32 ? 32 : 64) +
              " lanes; its lowering assumed " + std::to_string(waveSize);
      return false;
    }
    return true;
  }
  error = "internal error: the code object has no kernel descriptor " + name;
  return false;
}

} // namespace

bool linkCodeObject(const std::string &object, const std::string &entry, int64_t ldsLimit, int waveSize,
                    std::vector<uint8_t> &hsaco, std::string &error) {
  llvm::SmallString<128> dir;
  if (auto ec = llvm::sys::fs::createUniqueDirectory("tessera-hsaco", dir)) {
    error = "cannot create a temporary directory: " + ec.message();
    return false;
  }
  std::string in = (dir + "/kernel.o").str(), out = (dir + "/kernel.hsaco").str();
  bool ok = false;
  {
    std::error_code ec;
    llvm::raw_fd_ostream f(in, ec);
    f << object;
    f.close();
    if (ec || f.has_error()) error = "cannot write " + in + ": " + (ec ? ec.message() : f.error().message());
    else ok = true;
  }
  std::string lldError;
  if (ok && !llvmgen::linkWithLld({"-shared", "--no-undefined", "-o", out, in}, lldError)) {
    error = "linking the code object failed: " + lldError;
    ok = false;
  }
  if (ok) {
    auto buf = llvm::MemoryBuffer::getFile(out);
    if (!buf) {
      error = "cannot read the linked code object: " + buf.getError().message();
      ok = false;
    } else {
      hsaco.assign((*buf)->getBufferStart(), (*buf)->getBufferEnd());
      ok = checkDescriptor(hsaco, entry, ldsLimit, waveSize, error);
    }
  }
  for (const std::string &p : {in, out}) llvm::sys::fs::remove(p);
  llvm::sys::fs::remove(dir);
  return ok;
}

} // namespace tessera::targets::amdgpu
