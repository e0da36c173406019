// AMDGPU assembly -> an object file, with LLVM's assembler as a library.
// Code generation writes text rather than an object so that inline assembly
// (tl.inline_asm_elementwise) is parsed here, where a mistake in it is an
// error message, and not inside the code generator, where it ends the
// process.
#include "targets/amdgpu/TargetInfo.h"

#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace tessera::targets::amdgpu {

bool assemble(const llvm::Target &target, const std::string &triple, const std::string &cpu, const std::string &features,
              const std::string &text, std::string &object, std::string &error) {
  llvm::Triple theTriple(triple);
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(text, "kernel.s"), llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream diag(diagnostics);
  sources.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *out) { d.print(nullptr, *static_cast<llvm::raw_string_ostream *>(out), false); },
      &diag);
  llvm::MCTargetOptions mcOptions;
  std::unique_ptr<llvm::MCRegisterInfo> registers(target.createMCRegInfo(triple));
  std::unique_ptr<llvm::MCAsmInfo> asmInfo(target.createMCAsmInfo(*registers, triple, mcOptions));
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(target.createMCSubtargetInfo(triple, cpu, features));
  std::unique_ptr<llvm::MCInstrInfo> instructions(target.createMCInstrInfo());
  if (!registers || !asmInfo || !subtarget || !instructions) {
    error = "LLVM's AMDGPU assembler is not available for " + cpu;
    return false;
  }
  llvm::MCContext context(theTriple, asmInfo.get(), registers.get(), subtarget.get(), &sources, &mcOptions);
  std::unique_ptr<llvm::MCObjectFileInfo> fileInfo(target.createMCObjectFileInfo(context, /*PIC=*/true));
  context.setObjectFileInfo(fileInfo.get());
  llvm::SmallString<0> bytes;
  llvm::raw_svector_ostream os(bytes);
  std::unique_ptr<llvm::MCAsmBackend> backend(target.createMCAsmBackend(*subtarget, *registers, mcOptions));
  std::unique_ptr<llvm::MCCodeEmitter> emitter(target.createMCCodeEmitter(*instructions, context));
  if (!backend || !emitter) {
    error = "LLVM's AMDGPU assembler is not available for " + cpu;
    return false;
  }
  std::unique_ptr<llvm::MCObjectWriter> writer = backend->createObjectWriter(os);
  std::unique_ptr<llvm::MCStreamer> streamer(target.createMCObjectStreamer(
      theTriple, context, std::move(backend), std::move(writer), std::move(emitter), *subtarget));
  std::unique_ptr<llvm::MCAsmParser> parser(llvm::createMCAsmParser(sources, context, *streamer, *asmInfo));
  std::unique_ptr<llvm::MCTargetAsmParser> targetParser(
      target.createMCAsmParser(*subtarget, *parser, *instructions, mcOptions));
  if (!targetParser) {
    error = "LLVM's AMDGPU assembly parser is not linked";
    return false;
  }
  parser->setTargetParser(*targetParser);
  if (parser->Run(/*NoInitialTextSection=*/false) || context.hadError()) {
    error = "the AMDGPU assembler rejected the kernel (inline assembly?):\n" + diag.str();
    return false;
  }
  streamer.reset();
  object.assign(bytes.begin(), bytes.end());
  return true;
}

} // namespace tessera::targets::amdgpu
