// AMDGPU's parts of the shared GPU driver, private to this folder.
#pragma once

#include "targets/llvm/TargetInfo.h"

#include "llvm/MC/TargetRegistry.h"

#include <memory>
#include <string>
#include <vector>

namespace tessera::targets::amdgpu {

// The hooks of the thread emitter for `arch`, with `waveSize` lanes per wave;
// `unifiedRegisters`: VGPRs and AGPRs share one register file (gfx90a on);
// `bufferFormat`: the last word of the architecture's buffer resources.
std::unique_ptr<llvmgen::TargetInfo> createAmdgpuTargetInfo(const std::string &arch, int waveSize,
                                                            bool unifiedRegisters, uint32_t bufferFormat);

// TargetInfo::rangedLoad / rangedStore as buffer instructions (BufferAccess.cpp).
llvm::Value *bufferLoad(llvm::IRBuilder<> &b, uint32_t format, llvm::Value *base, llvm::Value *byteOffset,
                        llvm::Type *vecTy, llvm::Value *pred, llvm::Value *fallback);
bool bufferStore(llvm::IRBuilder<> &b, uint32_t format, llvm::Value *base, llvm::Value *byteOffset,
                 llvm::Value *value, llvm::Value *pred);

// Links the functions of ROCm's device libraries (ocml: math, ockl:
// printf) the module calls, with their control constants (`isaVersion`:
// ocml's __oclc_ISA_version of the architecture).
bool linkDeviceLibraries(llvm::Module &m, int isaVersion, int waveSize, std::string &error);
// Where those libraries are: $TESSERA_ROCM_DEVICE_LIBS, or Debian's path.
std::string deviceLibraryDirectory();

// AMDGPU assembly `text` -> an object file, with LLVM's assembler;
// false with `error` holding its diagnostics.
bool assemble(const llvm::Target &target, const std::string &triple, const std::string &cpu,
              const std::string &features, const std::string &text, std::string &object, std::string &error);

// An object file -> an HSA code object (a shared object, linked by lld),
// checked: a kernel descriptor for `entry`, its LDS within `ldsLimit`
// bytes and its wave size `waveSize`.
bool linkCodeObject(const std::string &object, const std::string &entry, int64_t ldsLimit, int waveSize,
                    std::vector<uint8_t> &hsaco, std::string &error);

} // namespace tessera::targets::amdgpu
