// Dots on cooperative matrices (Vulkan, SPV_KHR_cooperative_matrix), through
// the GPU lowering's op hook: a dot whose types and tile the arch's table
// (CooperativeMatrix.h) has a row for becomes one `coop_mma` thread op per
// subgroup. Which lane holds which element of a cooperative matrix is the
// device's business, so the operands travel through workgroup memory: each
// thread stores its registers of A, B and the accumulator there (row-major,
// rows padded by 16 bytes so that a subgroup's row loads do not all fall in
// one bank), every subgroup loads its matrices from there, multiplies and
// stores its results back, and each thread reads its result registers in
// the dot's layout. Anything else (no table, other types, a tile the shapes
// do not divide, a batched dot, more workgroup memory than the arch has)
// keeps the shared SIMT lowering, which also covers lavapipe.
#include "targets/spirv/CooperativeMatrix.h"

#include "targets/gpu/ThreadLowering.h"

namespace tessera::targets::spirv {
namespace {

using ir::OpCode;

// How the subgroups of a program split the result's M/m x N/n matrices:
// doubling along whichever dimension has more matrices left per subgroup.
struct SubgroupTiling {
  int64_t subgroupsM = 1, subgroupsN = 1;
};
SubgroupTiling tileSubgroups(int64_t tilesM, int64_t tilesN, int numWarps) {
  SubgroupTiling t;
  while (t.subgroupsM * t.subgroupsN < numWarps) {
    bool canM = tilesM % (t.subgroupsM * 2) == 0, canN = tilesN % (t.subgroupsN * 2) == 0;
    if (canM && (!canN || tilesM / t.subgroupsM >= tilesN / t.subgroupsN)) t.subgroupsM *= 2;
    else if (canN) t.subgroupsN *= 2;
    else break;
  }
  return t;
}

// Row stride (elements) of a row of `elements` of `bytes` each: whole 16-byte
// units plus one, so consecutive rows start in different banks.
int64_t paddedStride(int64_t elements, int64_t bytes) {
  int64_t rowBytes = (elements * bytes + 15) / 16 * 16 + 16;
  return rowBytes / bytes;
}

bool lowerDot(const ir::Operation &op, gpu::ThreadLowering &L) {
  CooperativeMatrixTable table = tableOfArch(L.moduleAttrs.getString("arch", ""));
  if (table.empty()) return false;
  ir::Type at = op.operand(0)->type(), bt = op.operand(1)->type(), rt = op.result()->type();
  if (at.rank() != 2 || !at.element().isScalar() || !bt.element().isScalar() || !rt.element().isScalar()) return false;
  if (op.operand(2)->type().layout() != rt.layout()) return false;
  // f32 and i32 accumulators (a table's f16 ones are left to the SIMT path).
  if (rt.element().bitWidth() != 32) return false;
  int64_t M = at.shape()[0], K = at.shape()[1], N = bt.shape()[1];
  const CooperativeMatrixShape *shape = pickShape(table, at.element().scalarKind(), bt.element().scalarKind(),
                                                  rt.element().scalarKind(), M, N, K);
  if (!shape) return false;
  int64_t aBytes = gpu::storageBytes(at.element()), bBytes = gpu::storageBytes(bt.element()), cBytes = 4;
  int64_t lda = paddedStride(K, aBytes), ldb = paddedStride(N, bBytes), ldc = paddedStride(N, cBytes);
  int64_t bytes = M * lda * aBytes + K * ldb * bBytes + M * ldc * cBytes;
  if (int64_t limit = L.moduleAttrs.getInt("shared_memory_limit", 0); limit > 0 && bytes > limit) return false;

  int64_t tilesM = M / shape->m, tilesN = N / shape->n, steps = K / shape->k;
  SubgroupTiling tiling = tileSubgroups(tilesM, tilesN, L.numWarps);
  int64_t mPer = tilesM / tiling.subgroupsM, nPer = tilesN / tiling.subgroupsN;

  ir::Value *sa = L.allocShared(at.element(), M * lda), *sb = L.allocShared(bt.element(), K * ldb),
            *sc = L.allocShared(rt.element(), M * ldc);
  // Each thread's registers at (row, column) of a padded row-major copy.
  auto placed = [&](const gpu::TileLayout &l, int r, int64_t stride) {
    return L.add(L.mul(L.coord(l, r, 0), L.i32(stride)), L.coord(l, r, 1));
  };
  auto store = [&](const ir::Value *v, ir::Type t, ir::Value *buffer, int64_t stride) {
    const gpu::TileLayout &l = L.layoutOf(t, op);
    const gpu::Regs &regs = L.get(v);
    for (int r = 0; r < l.numRegs; ++r)
      if (!l.isCopy(r)) L.storeShared(buffer, placed(l, r, stride), regs[size_t(r)]);
  };
  store(op.operand(0), at, sa, lda);
  store(op.operand(1), bt, sb, ldb);
  store(op.operand(2), rt, sc, ldc);

  // Subgroup w takes block (w / subgroupsN, w % subgroupsN); subgroups
  // beyond the blocks (a small dot) skip, a subgroup-uniform branch.
  int64_t used = tiling.subgroupsM * tiling.subgroupsN;
  auto multiply = [&] {
    ir::Value *row = L.mul(L.div(L.warp, L.i32(tiling.subgroupsN)), L.i32(mPer * shape->m));
    ir::Value *col = L.mul(L.rem(L.warp, L.i32(tiling.subgroupsN)), L.i32(nPer * shape->n));
    ir::AttrDict attrs;
    attrs.set("shape", ir::Attribute(std::vector<int64_t>{shape->m, shape->n, shape->k}));
    attrs.set("tiles", ir::Attribute(std::vector<int64_t>{mPer, nPer, steps}));
    attrs.set("strides", ir::Attribute(std::vector<int64_t>{lda, ldb, ldc}));
    if (at.element().isInteger() && at.element().isSigned()) attrs.set("signed", ir::Attribute(true));
    L.b.create(OpCode::CoopMma,
               {L.sharedAddress(sa, L.mul(row, L.i32(lda))), L.sharedAddress(sb, col),
                L.sharedAddress(sc, L.add(L.mul(row, L.i32(ldc)), col))},
               {}, attrs);
  };
  if (used < L.numWarps) L.when(L.cmp("lt", L.warp, L.i32(used)), multiply);
  else multiply();

  const gpu::TileLayout &l = L.layoutOf(rt, op);
  gpu::Regs out(size_t(l.numRegs), nullptr);
  for (int r = 0; r < l.numRegs; ++r)
    out[size_t(r)] = l.isCopy(r) ? out[size_t(l.holder[size_t(r)])] : L.loadShared(sc, placed(l, r, ldc));
  L.set(op.result(), out);
  return true;
}

} // namespace

void registerCooperativeMatrixLowering() {
  static bool once = [] {
    gpu::registerOpLowering("spirv", OpCode::Dot, lowerDot);
    return true;
  }();
  (void)once;
}

} // namespace tessera::targets::spirv
