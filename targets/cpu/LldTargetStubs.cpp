// lld's ELF driver initializes every LLVM target (for LTO, which Tessera
// never uses: it links ordinary objects). Targets this build does not link
// get empty initializers, so the library need not carry every backend.
// When a target's code generator is linked for real, drop it from this list.

#define TESSERA_STUB_CODEGEN(T)                                                                         \
  extern "C" __attribute__((weak)) void LLVMInitialize##T##Target() {}                                   \
  extern "C" __attribute__((weak)) void LLVMInitialize##T##TargetMC() {}                                 \
  extern "C" __attribute__((weak)) void LLVMInitialize##T##AsmPrinter() {}                               \
  extern "C" __attribute__((weak)) void LLVMInitialize##T##AsmParser() {}                                \
  extern "C" __attribute__((weak)) void LLVMInitialize##T##Disassembler() {}

#define TESSERA_STUB_TARGET(T)                                                                          \
  TESSERA_STUB_CODEGEN(T)                                                                               \
  extern "C" __attribute__((weak)) void LLVMInitialize##T##TargetInfo() {}

TESSERA_STUB_TARGET(AArch64)
TESSERA_STUB_TARGET(ARM)
TESSERA_STUB_TARGET(AVR)
TESSERA_STUB_TARGET(BPF)
TESSERA_STUB_TARGET(Hexagon)
TESSERA_STUB_TARGET(Lanai)
TESSERA_STUB_TARGET(LoongArch)
TESSERA_STUB_TARGET(M68k)
TESSERA_STUB_TARGET(MSP430)
TESSERA_STUB_TARGET(Mips)
TESSERA_STUB_TARGET(PowerPC)
TESSERA_STUB_TARGET(RISCV)
TESSERA_STUB_TARGET(Sparc)
TESSERA_STUB_TARGET(SystemZ)
TESSERA_STUB_TARGET(VE)
TESSERA_STUB_TARGET(WebAssembly)
TESSERA_STUB_TARGET(XCore)
TESSERA_STUB_TARGET(Xtensa)

// NVPTX's and AMDGPU's code generators are linked (their targets), and
// AMDGPU's assembler; lld finds no disassembler for either, nor NVPTX's
// (nonexistent) assembly parser.
extern "C" __attribute__((weak)) void LLVMInitializeNVPTXAsmParser() {}
extern "C" __attribute__((weak)) void LLVMInitializeNVPTXDisassembler() {}
extern "C" __attribute__((weak)) void LLVMInitializeAMDGPUDisassembler() {}
