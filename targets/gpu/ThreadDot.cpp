// dot on the SIMT lanes (CUDA cores): the operands go to shared memory and
// each thread accumulates its result registers over k, loading each row of
// a and column of b it needs once per step. Floats accumulate in f32 (f64
// for f64), integers in i32 or u32 by their signedness (64 bits for 64-bit),
// whatever the result type;
// targets with tensor cores lower dot themselves (registerOpLowering).
#include "targets/gpu/ThreadLowering.h"

#include <algorithm>

namespace tessera::targets::gpu {

void ThreadLowering::lowerDot(const ir::Operation &op) {
  ir::Type at = op.operand(0)->type(), bt = op.operand(1)->type(), rt = op.result()->type();
  // [M, K] x [K, N], or batched: [B, M, K] x [B, K, N].
  size_t rank = size_t(at.rank()), batched = rank == 3 ? 1 : 0;
  if (rank != 2 && rank != 3) fail(op, "on tiles of rank " + std::to_string(rank) + " is not supported");
  int64_t M = at.shape()[batched], K = at.shape()[batched + 1], N = bt.shape()[batched + 1];
  ir::Type re = rt.element();
  ir::Type accT = re.isFloat() ? (re.bitWidth() > 32 ? ir::Type::scalar(ir::ScalarKind::F64) : ir::Type::f32())
                               : ir::Type::scalar(re.bitWidth() > 32 ? ir::ScalarKind::I64 : ir::ScalarKind::I32);
  if (!re.isFloat() && !re.isSigned()) accT = ir::Type::scalar(re.bitWidth() > 32 ? ir::ScalarKind::U64 : ir::ScalarKind::U32);
  int64_t batches = batched ? at.shape()[0] : 1;
  // Operands larger together than the target's shared memory go through
  // it in slices of k (lavapipe has 32 KiB: a 64x128 by 128x16 f32 dot
  // needs 40): each slice's elements are stored, the others go to one
  // spare slot, and the loop runs over the slice.
  int64_t bytes = at.numElements() * storageBytes(at.element()) + bt.numElements() * storageBytes(bt.element());
  int64_t limit = moduleAttrs.getInt("shared_memory_limit", 0), slices = 1;
  while (limit > 0 && bytes / slices > limit && K % (slices * 2) == 0) slices *= 2;
  int64_t KS = K / slices;
  ir::Value *sa = allocShared(at.element(), batches * M * KS + (slices > 1)),
            *sb = allocShared(bt.element(), batches * KS * N + (slices > 1));
  // Stores slice `s` of operand `v` (k is dimension `kDim` of its layout).
  auto storeSlice = [&](const ir::Value *v, ir::Type t, ir::Value *buffer, size_t kDim, int64_t s) {
    const TileLayout &lo = layoutOf(t, op);
    if (slices == 1) return storeTileShared(get(v), lo, buffer);
    std::vector<int64_t> shape = t.shape();
    shape[kDim] = KS;
    ir::Value *spare = i32(batches * shape[batched] * shape[batched + 1]), *first = i32(s * KS);
    for (int r = 0; r < lo.numRegs; ++r) {
      if (lo.isCopy(r)) continue;
      std::vector<ir::Value *> c;
      for (size_t d = 0; d < size_t(t.rank()); ++d) c.push_back(coord(lo, r, d));
      ir::Value *k = sub(c[kDim], first);
      ir::Value *inside = bitAnd(cmp("ge", c[kDim], first), cmp("lt", k, i32(KS)));
      c[kDim] = k;
      storeShared(buffer, select(inside, rowMajorIndex(c, shape), spare), get(v)[size_t(r)]);
    }
  };

  const TileLayout &l = layoutOf(rt, op);
  if (op.operand(2)->type().layout() != rt.layout()) fail(op, "has an accumulator in another layout than its result");
  const Regs &c = get(op.operand(2));
  // Distinct rows (batch, m) and columns (batch, n) among this thread's registers.
  using Key = std::pair<int32_t, int32_t>;
  std::vector<Key> rowKeys, colKeys;
  std::vector<int> rowRep, colRep, regRow, regCol;
  for (int r = 0; r < l.numRegs; ++r) {
    const auto &rc = l.regCoord[size_t(r)];
    Key rk{batched ? rc[0] : 0, rc[batched]}, ck{batched ? rc[0] : 0, rc[batched + 1]};
    auto ri = std::find(rowKeys.begin(), rowKeys.end(), rk);
    if (ri == rowKeys.end()) rowKeys.push_back(rk), rowRep.push_back(r), ri = rowKeys.end() - 1;
    auto ci = std::find(colKeys.begin(), colKeys.end(), ck);
    if (ci == colKeys.end()) colKeys.push_back(ck), colRep.push_back(r), ci = colKeys.end() - 1;
    regRow.push_back(int(ri - rowKeys.begin()));
    regCol.push_back(int(ci - colKeys.begin()));
  }
  // a[batch][m][k] at (batch * M + m) * KS + k; b[batch][k][n] at batch * KS * N + k * N + n (k within the slice).
  std::vector<ir::Value *> rowBase, colBase;
  for (int r : rowRep) {
    ir::Value *row = coord(l, r, batched);
    if (batched) row = add(row, mul(coord(l, r, 0), i32(M)));
    rowBase.push_back(mul(row, i32(KS)));
  }
  for (int r : colRep) {
    ir::Value *col = coord(l, r, batched + 1);
    if (batched) col = add(col, mul(coord(l, r, 0), i32(KS * N)));
    colBase.push_back(col);
  }
  Regs acc;
  for (int r = 0; r < l.numRegs; ++r) acc.push_back(cast(c[size_t(r)], accT));
  bool fp = accT.isFloat();
  auto step = [&](ir::Value *k, const Regs &sum) {
    std::vector<ir::Value *> av, bv;
    for (ir::Value *base : rowBase) av.push_back(cast(loadShared(sa, add(base, k)), accT));
    ir::Value *kRow = mul(k, i32(N));
    for (ir::Value *cc : colBase) bv.push_back(cast(loadShared(sb, add(kRow, cc)), accT));
    Regs next;
    for (int r = 0; r < l.numRegs; ++r) {
      ir::Value *x = av[size_t(regRow[size_t(r)])], *y = bv[size_t(regCol[size_t(r)])];
      next.push_back(fp ? b.sameType(ir::OpCode::Fma, {x, y, sum[size_t(r)]})
                        : b.sameType(ir::OpCode::Add, {b.sameType(ir::OpCode::Mul, {x, y}), sum[size_t(r)]}));
    }
    return next;
  };
  for (int64_t s = 0; s < slices; ++s) {
    storeSlice(op.operand(0), at, sa, batched + 1, s);
    storeSlice(op.operand(1), bt, sb, batched, s);
    acc = loop(i32(KS), acc, step);
  }
  Regs out;
  for (int r = 0; r < l.numRegs; ++r) out.push_back(cast(acc[size_t(r)], re));
  set(op.result(), out);
}

} // namespace tessera::targets::gpu
