#include "targets/gpu/MatrixUnit.h"

#include "ir/Layouts.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace tessera::targets::gpu {

using ir::OpCode;

int log2Exact(int64_t v) {
  int bits = 0;
  while ((int64_t(1) << bits) < v) ++bits;
  return (int64_t(1) << bits) == v ? bits : -1;
}

WarpTiling chooseWarpTiling(const MatrixTile &tile, int64_t m, int64_t n, int numWarps, int64_t unit) {
  WarpTiling t;
  while (t.warpsM * t.warpsN < numWarps) {
    bool roomM = m / (int64_t(tile.m) * t.warpsM) >= 2, roomN = n / (int64_t(tile.n) * t.warpsN) >= 2;
    if (!roomM && !roomN) break;
    bool preferM = m / unit / t.warpsM >= n / unit / t.warpsN;
    if (roomM && (preferM || !roomN)) t.warpsM *= 2;
    else t.warpsN *= 2;
  }
  return t;
}

namespace {

// Whether `v` comes from a dot through elementwise ops, or feeds one's
// first operand.
bool fromDot(const ir::Value *v, int depth = 0) {
  const ir::Operation *d = v->definingOp();
  if (!d || depth > 16) return false;
  if (d->is(OpCode::Dot)) return true;
  if (!d->hasTrait(ir::kElementwise) && !d->is(OpCode::ConvertLayout)) return false;
  for (const ir::Value *o : d->operands())
    if (o->type().isTile() && o->type().shape() == v->type().shape() && fromDot(o, depth + 1)) return true;
  return false;
}

bool feedsDotA(const ir::Value *v, int depth = 0) {
  if (depth > 16) return false;
  for (const ir::Operation *u : v->users()) {
    if (u->is(OpCode::Dot) && u->operand(0) == v) return true;
    if ((u->hasTrait(ir::kElementwise) || u->is(OpCode::ConvertLayout)) && u->numResults() == 1 &&
        u->result()->type().shape() == v->type().shape() && feedsDotA(u->result(), depth + 1))
      return true;
  }
  return false;
}

} // namespace

bool inDotChain(const ir::Operation &dot) { return fromDot(dot.operand(0)) || feedsDotA(dot.result()); }

WarpTiling dotWarpTiling(const ir::Operation &dot, const MatrixTile &tile, int64_t m, int64_t n, int numWarps) {
  if (!inDotChain(dot)) return chooseWarpTiling(tile, m, n, numWarps);
  WarpTiling t;
  while (t.warpsM < numWarps && m / (int64_t(tile.m) * t.warpsM) >= 2) t.warpsM *= 2;
  return t;
}

std::optional<ir::LinearLayout> matrixLayout(const MatrixTile &tile, Operand which, const std::vector<int64_t> &shape,
                                             WarpTiling tiling, int numWarps) {
  size_t rank = shape.size();
  if (rank != 2 && rank != 3) return std::nullopt;
  bool batched = rank == 3;
  int64_t rows = shape[rank - 2], cols = shape[rank - 1];
  // Instruction tile, warps and repeats along rows and columns of this operand.
  int64_t instRows = which == Operand::B ? tile.k : tile.m, instCols = which == Operand::A ? tile.k : tile.n;
  int warpsRows = which == Operand::B ? 1 : tiling.warpsM, warpsCols = which == Operand::A ? 1 : tiling.warpsN;
  const Fragment &f = which == Operand::A ? *tile.fragA : which == Operand::B ? *tile.fragB : *tile.fragC;
  if (rows % (instRows * warpsRows) || cols % (instCols * warpsCols)) return std::nullopt;
  int repRows = log2Exact(rows / (instRows * warpsRows)), repCols = log2Exact(cols / (instCols * warpsCols));
  int batchBits = batched ? log2Exact(shape[0]) : 0;
  int warpBits = log2Exact(numWarps), wn = log2Exact(tiling.warpsN), wm = log2Exact(tiling.warpsM);
  if (repRows < 0 || repCols < 0 || batchBits < 0 || warpBits < 0 || wn < 0 || wm < 0 || wn + wm > warpBits)
    return std::nullopt;
  auto at = [&](int64_t r, int64_t c) {
    std::vector<int32_t> v;
    if (batched) v.push_back(0);
    v.push_back(int32_t(r)), v.push_back(int32_t(c));
    return v;
  };
  ir::LinearLayout::Bases reg, lane, warp;
  for (const auto &b : f.reg) reg.push_back(at(b[0], b[1]));
  for (const auto &b : f.lane) lane.push_back(at(b[0], b[1]));
  // Repeats: A walks k (its columns) before m, B k (its rows) before n, C n before m.
  auto repeatRows = [&] { for (int i = 0; i < repRows; ++i) reg.push_back(at(instRows * warpsRows << i, 0)); };
  auto repeatCols = [&] { for (int i = 0; i < repCols; ++i) reg.push_back(at(0, instCols * warpsCols << i)); };
  if (which == Operand::B) repeatRows(), repeatCols();
  else repeatCols(), repeatRows();
  for (int i = 0; i < batchBits; ++i) {
    std::vector<int32_t> v(rank, 0);
    v[0] = 1 << i;
    reg.push_back(v);
  }
  // Warp ids: the low bits along n, the next along m; A ignores the n bits
  // and B the m bits (those warps share the operand).
  for (int i = 0; i < wn; ++i) warp.push_back(which == Operand::A ? at(0, 0) : at(0, tile.n << i));
  for (int i = 0; i < wm; ++i) warp.push_back(which == Operand::B ? at(0, 0) : at(tile.m << i, 0));
  for (int i = wn + wm; i < warpBits; ++i) warp.push_back(at(0, 0));
  std::vector<ir::LinearLayout::OutDim> outs;
  for (size_t d = 0; d < rank; ++d) outs.push_back({"dim" + std::to_string(d), int32_t(shape[d])});
  return ir::LinearLayout({{"register", reg}, {"lane", lane}, {"warp", warp}}, outs);
}

std::optional<DotFragments> dotFragments(const ir::Operation &dot, const MatrixTile &tile, int numWarps) {
  const std::vector<int64_t> &rs = dot.result()->type().shape();
  DotFragments f;
  f.tiling = dotWarpTiling(dot, tile, rs[rs.size() - 2], rs.back(), numWarps);
  auto a = matrixLayout(tile, Operand::A, dot.operand(0)->type().shape(), f.tiling, numWarps);
  auto b = matrixLayout(tile, Operand::B, dot.operand(1)->type().shape(), f.tiling, numWarps);
  auto c = matrixLayout(tile, Operand::C, rs, f.tiling, numWarps);
  if (!a || !b || !c) return std::nullopt;
  f.a = *a, f.b = *b, f.c = *c;
  return f;
}

ir::DotLayouts DotFragments::attributes() const {
  return ir::DotLayouts{ir::toLayoutAttribute(a), ir::toLayoutAttribute(b), ir::toLayoutAttribute(c)};
}

bool DotFragments::holdFor(ThreadLowering &L, const ir::Operation &dot) const {
  return L.layoutOf(dot.operand(0)->type(), dot).ll == a && L.layoutOf(dot.operand(1)->type(), dot).ll == b &&
         L.layoutOf(dot.operand(2)->type(), dot).ll == c;
}

Regs lowerMatrixDot(ThreadLowering &L, const ir::Operation &op, const MatrixTile &tile, WarpTiling tiling,
                    const IssueTile &issue) {
  ir::Type rt = op.result()->type();
  size_t rank = size_t(rt.rank());
  int64_t batch = rank == 3 ? rt.shape()[0] : 1, M = rt.shape()[rank - 2], N = rt.shape()[rank - 1];
  int64_t K = op.operand(0)->type().shape()[rank - 1];
  int64_t MT = M / (tile.m * tiling.warpsM), NT = N / (tile.n * tiling.warpsN), KT = K / tile.k;
  int64_t nA = int64_t(1) << tile.fragA->reg.size(), nB = int64_t(1) << tile.fragB->reg.size(),
          nC = int64_t(1) << tile.fragC->reg.size();
  const Regs &A = L.get(op.operand(0)), &B = L.get(op.operand(1));
  Regs C = L.get(op.operand(2));
  for (int64_t bt = 0; bt < batch; ++bt)
    for (int64_t kk = 0; kk < KT; ++kk)
      for (int64_t i = 0; i < MT; ++i)
        for (int64_t j = 0; j < NT; ++j) {
          int64_t aBase = nA * (kk + KT * (i + MT * bt)), bBase = nB * (kk + KT * (j + NT * bt));
          int64_t cBase = nC * (j + NT * (i + MT * bt));
          std::vector<ir::Value *> a(A.begin() + aBase, A.begin() + aBase + nA), b(B.begin() + bBase, B.begin() + bBase + nB);
          issue(a, b, C, cBase);
        }
  return C;
}

namespace {

bool writesSharedOrNests(const ir::Operation &op) {
  if (op.numRegions() || op.is(OpCode::Barrier) || op.is(OpCode::CpAsync)) return true;
  bool writes = op.is(OpCode::VStore) || op.is(OpCode::AtomicRmw) || op.is(OpCode::AtomicCas);
  return writes && op.operand(0)->type().addressSpace() != ir::AddressSpace::Global;
}

bool sinkableLoad(const ir::Operation &op) {
  if (op.is(OpCode::LdMatrix)) return true;
  return op.is(OpCode::VLoad) && op.numOperands() == 1 && op.operand(0)->type().addressSpace() == ir::AddressSpace::Shared;
}

} // namespace

void sinkOperandLoads(ThreadLowering &L, const Regs &a, const Regs &b) {
  ir::Block *block = L.b.block();
  std::vector<ir::Operation *> ops = block->opsVector();
  std::unordered_map<const ir::Operation *, size_t> position;
  for (size_t i = 0; i < ops.size(); ++i) position[ops[i]] = i;
  std::set<ir::Operation *> found;
  for (const Regs *regs : {&a, &b})
    for (ir::Value *v : *regs)
      if (ir::Operation *d = v->definingOp(); d && sinkableLoad(*d) && d->parentBlock() == block) found.insert(d);
  // In program order, not by address: loads that share a first user then
  // keep their order, and the code is the same from run to run.
  std::vector<ir::Operation *> loads(found.begin(), found.end());
  std::sort(loads.begin(), loads.end(), [&](ir::Operation *x, ir::Operation *y) { return position[x] < position[y]; });
  for (ir::Operation *ld : loads) {
    ir::Operation *first = nullptr;
    bool local = true;
    for (ir::Value *r : ld->results())
      for (ir::Operation *u : r->users()) {
        if (u->parentBlock() != block) local = false;
        else if (!first || position[u] < position[first]) first = u;
      }
    if (!local || !first) continue;
    size_t to = position[first];
    for (size_t i = position[ld] + 1; i < to; ++i)
      if (writesSharedOrNests(*ops[i])) to = i;
    if (to > position[ld] + 1) ld->moveBefore(ops[to]);
  }
}

void issueMma(ThreadLowering &L, const MatrixTile &tile, ir::Type acc, const std::vector<ir::Value *> &a,
              const std::vector<ir::Value *> &b, Regs &c, int64_t cBase) {
  int64_t nC = int64_t(1) << tile.fragC->reg.size();
  ir::AttrDict attrs;
  attrs.set("shape", ir::Attribute(std::vector<int64_t>{tile.m, tile.n, tile.k}));
  std::vector<ir::Value *> operands = a;
  operands.insert(operands.end(), b.begin(), b.end());
  for (int64_t e = 0; e < nC; ++e) operands.push_back(c[size_t(cBase + e)]);
  ir::Operation *d = L.b.create(OpCode::Mma, operands, std::vector<ir::Type>(size_t(nC), acc), attrs);
  for (int64_t e = 0; e < nC; ++e) c[size_t(cBase + e)] = d->result(unsigned(e));
}

} // namespace tessera::targets::gpu
