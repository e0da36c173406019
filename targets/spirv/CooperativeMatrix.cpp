// coop_mma -> SPV_KHR_cooperative_matrix (Ops.def says what the op means):
// the subgroup loads its accumulator matrices from workgroup memory, then
// for each step of k its A and B matrices, multiply-adds, and stores the
// accumulators back. Loads and stores go through pointers to the shared
// word array, so strides count 32-bit words whatever the component type
// (the extension allows a pointee other than the component type). bf16
// components are SPV_KHR_bfloat16's float type; elsewhere the emitter keeps
// bf16 as bits, and only these matrices read them as numbers.
#include "targets/spirv/CooperativeMatrix.h"
#include "targets/spirv/Emitter.h"

namespace tessera::targets::spirv {

using spv::Op;

Id KernelEmitter::componentType(ir::Type element) {
  switch (element.scalarKind()) {
  case ir::ScalarKind::F16: return b.floatType(16);
  case ir::ScalarKind::BF16:
    b.extension("SPV_KHR_bfloat16");
    b.capability(spv::Capability(coop::kCapabilityBFloat16Type));
    b.capability(spv::Capability(coop::kCapabilityBFloat16CooperativeMatrix));
    return b.bfloat16Type();
  case ir::ScalarKind::F32: return f32();
  case ir::ScalarKind::I8: case ir::ScalarKind::U8: return b.intType(8);
  case ir::ScalarKind::I32: case ir::ScalarKind::U32: return u32();
  default: throw EmitError{"internal error: spirv: no cooperative-matrix component type for " + element.str()};
  }
}

void KernelEmitter::emitCoopMma(const ir::Operation &o) {
  if (opts.flavour != Flavour::Vulkan) fail(o, "needs the Vulkan flavour (SPV_KHR_cooperative_matrix)");
  b.extension("SPV_KHR_cooperative_matrix");
  b.capability(spv::Capability(coop::kCapabilityCooperativeMatrix));
  std::vector<int64_t> shape = o.attr("shape")->getInts(), tiles = o.attr("tiles")->getInts(),
                       strides = o.attr("strides")->getInts();
  ir::Type types[3] = {o.operand(0)->type().pointee(), o.operand(1)->type().pointee(), o.operand(2)->type().pointee()};
  uint32_t rows[3] = {uint32_t(shape[0]), uint32_t(shape[2]), uint32_t(shape[0])};
  uint32_t cols[3] = {uint32_t(shape[2]), uint32_t(shape[1]), uint32_t(shape[1])};
  uint32_t uses[3] = {coop::kUseA, coop::kUseB, coop::kUseAccumulator};
  Id matrix[3];
  for (int i = 0; i < 3; ++i)
    matrix[i] = b.cooperativeMatrixType(componentType(types[i]), c32(uint32_t(spv::Scope::Subgroup)), c32(rows[i]), c32(cols[i]),
                                        c32(uses[i]));
  int64_t bytes[3];
  for (int i = 0; i < 3; ++i) bytes[i] = std::max(1, types[i].bitWidth() / 8);
  Id base[3] = {get(o.operand(0)), get(o.operand(1)), get(o.operand(2))};
  // The pointer to the word at `offset` elements past operand i's base.
  auto at = [&](int i, int64_t offset) {
    Id byteOffset = offset ? op(Op::OpIAdd, u32(), {base[i], c32(uint32_t(offset * bytes[i]))}) : base[i];
    return sharedWord(op(Op::OpShiftRightLogical, u32(), {byteOffset, c32(2)}));
  };
  auto strideWords = [&](int i) { return c32(uint32_t(strides[size_t(i)] * bytes[i] / 4)); };
  Id rowMajor = c32(coop::kRowMajor);
  auto load = [&](int i, int64_t offset) {
    return op(Op(coop::kOpLoad), matrix[i], {at(i, offset), rowMajor, strideWords(i), coop::kNonPrivatePointer});
  };
  int64_t m = shape[0], n = shape[1], k = shape[2], tm = tiles[0], tn = tiles[1], steps = tiles[2];
  std::vector<Id> acc;
  for (int64_t i = 0; i < tm; ++i)
    for (int64_t j = 0; j < tn; ++j) acc.push_back(load(2, i * m * strides[2] + j * n));
  uint32_t operands = o.attrs().getBool("signed", false)
                          ? coop::kASigned | coop::kBSigned | coop::kCSigned | coop::kResultSigned
                          : 0;
  for (int64_t s = 0; s < steps; ++s) {
    std::vector<Id> a, bm;
    for (int64_t i = 0; i < tm; ++i) a.push_back(load(0, i * m * strides[0] + s * k));
    for (int64_t j = 0; j < tn; ++j) bm.push_back(load(1, s * k * strides[1] + j * n));
    for (int64_t i = 0; i < tm; ++i)
      for (int64_t j = 0; j < tn; ++j) {
        Id &c = acc[size_t(i * tn + j)];
        std::vector<uint32_t> args{a[size_t(i)], bm[size_t(j)], c};
        if (operands) args.push_back(operands);
        c = op(Op(coop::kOpMulAdd), matrix[2], args);
      }
  }
  for (int64_t i = 0; i < tm; ++i)
    for (int64_t j = 0; j < tn; ++j)
      b.opNoResult(Op(coop::kOpStore), {at(2, i * m * strides[2] + j * n), acc[size_t(i * tn + j)], rowMajor,
                                        strideWords(2), coop::kNonPrivatePointer});
}

} // namespace tessera::targets::spirv
