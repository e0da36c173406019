// dot on the SIMT lanes (CUDA cores): the operands go to shared memory and
// each thread accumulates its result registers over k, loading each row of
// a and column of b it needs once per step. Floats accumulate in f32 (f64
// for f64), integers in i32 (i64 for 64-bit), whatever the result type;
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
  ir::Value *sa = allocShared(at.element(), at.numElements()), *sb = allocShared(bt.element(), bt.numElements());
  storeTileShared(get(op.operand(0)), layoutOf(at, op), sa);
  storeTileShared(get(op.operand(1)), layoutOf(bt, op), sb);

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
  // a[batch][m][k] at (batch * M + m) * K + k; b[batch][k][n] at batch * K * N + k * N + n.
  std::vector<ir::Value *> rowBase, colBase;
  for (int r : rowRep) {
    ir::Value *row = coord(l, r, batched);
    if (batched) row = add(row, mul(coord(l, r, 0), i32(M)));
    rowBase.push_back(mul(row, i32(K)));
  }
  for (int r : colRep) {
    ir::Value *col = coord(l, r, batched + 1);
    if (batched) col = add(col, mul(coord(l, r, 0), i32(K * N)));
    colBase.push_back(col);
  }
  Regs init;
  for (int r = 0; r < l.numRegs; ++r) init.push_back(cast(c[size_t(r)], accT));
  bool fp = accT.isFloat();
  Regs acc = loop(i32(K), init, [&](ir::Value *k, const Regs &sum) {
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
  });
  Regs out;
  for (int r = 0; r < l.numRegs; ++r) out.push_back(cast(acc[size_t(r)], re));
  set(op.result(), out);
}

} // namespace tessera::targets::gpu
