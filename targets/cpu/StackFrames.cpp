#include "targets/cpu/StackFrames.h"

#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/DataExtractor.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

namespace tessera::targets::cpu {

// .stack_sizes holds, per function, its address (8 bytes, relocated) and its
// static frame size (ULEB128).
int64_t largestStackFrame(const std::string &object) {
  auto file = llvm::object::ObjectFile::createObjectFile(llvm::MemoryBufferRef(object, "kernel.o"));
  if (!file) {
    llvm::consumeError(file.takeError());
    return 0;
  }
  int64_t largest = 0;
  for (const llvm::object::SectionRef &section : (*file)->sections()) {
    llvm::Expected<llvm::StringRef> name = section.getName();
    if (!name || *name != ".stack_sizes") {
      if (!name) llvm::consumeError(name.takeError());
      continue;
    }
    llvm::Expected<llvm::StringRef> contents = section.getContents();
    if (!contents) {
      llvm::consumeError(contents.takeError());
      continue;
    }
    llvm::DataExtractor data(*contents, (*file)->isLittleEndian(), 8);
    llvm::DataExtractor::Cursor at(0);
    while (at && at.tell() < contents->size()) {
      data.getAddress(at);
      uint64_t size = data.getULEB128(at);
      if (at) largest = std::max(largest, int64_t(size));
    }
    llvm::consumeError(at.takeError());
  }
  return largest;
}

} // namespace tessera::targets::cpu
