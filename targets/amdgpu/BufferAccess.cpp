// Buffer loads and stores: global accesses as a 32-bit byte offset from a
// buffer resource (base address, size, format word) held in scalar
// registers, as Triton's AMD backend makes them for pointers into
// allocations under 2 GiB. An offset at or past the resource's size reads
// zero and writes nothing, so a masked-off lane is sent to 2^31 instead of
// being branched around, and each lane needs one VGPR of address, not two.
#include "targets/amdgpu/TargetInfo.h"

#include "llvm/IR/IntrinsicsAMDGPU.h"

namespace tessera::targets::amdgpu {

namespace {

// The size every resource states: the largest allocation pointer_range = 32
// admits (ir/IR.h), so that no access the program makes is out of range.
constexpr uint32_t kRecords = 0x7ffffffe;
constexpr uint32_t kMaskedOff = 0x80000000u;

// The integer type the buffer intrinsics move a `t` as, or null (pointers
// and sizes they have no form for).
llvm::Type *transferType(llvm::IRBuilder<> &b, llvm::Type *t) {
  if (t->getScalarType()->isPointerTy()) return nullptr;
  uint64_t bytes = b.GetInsertBlock()->getModule()->getDataLayout().getTypeStoreSize(t).getFixedValue();
  switch (bytes) {
  case 1: return b.getInt8Ty();
  case 2: return b.getInt16Ty();
  case 4: return b.getInt32Ty();
  case 8:
  case 12:
  case 16: return llvm::FixedVectorType::get(b.getInt32Ty(), unsigned(bytes / 4));
  default: return nullptr;
  }
}

llvm::Value *resource(llvm::IRBuilder<> &b, uint32_t format, llvm::Value *base) {
  return b.CreateIntrinsic(llvm::Intrinsic::amdgcn_make_buffer_rsrc, {base->getType()},
                           {base, b.getInt16(0), b.getInt32(kRecords), b.getInt32(format)});
}

llvm::Value *laneOffset(llvm::IRBuilder<> &b, llvm::Value *byteOffset, llvm::Value *pred) {
  return pred ? b.CreateSelect(pred, byteOffset, b.getInt32(kMaskedOff)) : byteOffset;
}

} // namespace

llvm::Value *bufferLoad(llvm::IRBuilder<> &b, uint32_t format, llvm::Value *base, llvm::Value *byteOffset,
                        llvm::Type *vecTy, llvm::Value *pred, llvm::Value *fallback) {
  llvm::Type *moved = transferType(b, vecTy);
  if (!moved) return nullptr;
  llvm::Value *raw = b.CreateIntrinsic(llvm::Intrinsic::amdgcn_raw_ptr_buffer_load, {moved},
                                       {resource(b, format, base), laneOffset(b, byteOffset, pred), b.getInt32(0),
                                        b.getInt32(0)});
  llvm::Value *v = b.CreateBitCast(raw, vecTy);
  // Out-of-range lanes already read zero bits.
  bool zeroFallback = llvm::isa<llvm::Constant>(fallback) && llvm::cast<llvm::Constant>(fallback)->isNullValue();
  return pred && !zeroFallback ? b.CreateSelect(pred, v, fallback) : v;
}

bool bufferStore(llvm::IRBuilder<> &b, uint32_t format, llvm::Value *base, llvm::Value *byteOffset,
                 llvm::Value *value, llvm::Value *pred) {
  llvm::Type *moved = transferType(b, value->getType());
  if (!moved) return false;
  b.CreateIntrinsic(llvm::Intrinsic::amdgcn_raw_ptr_buffer_store, {moved},
                    {b.CreateBitCast(value, moved), resource(b, format, base), laneOffset(b, byteOffset, pred),
                     b.getInt32(0), b.getInt32(0)});
  return true;
}

} // namespace tessera::targets::amdgpu
