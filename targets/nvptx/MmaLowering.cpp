// Tensor-core dots on NVIDIA (sm_80 on), through the GPU lowering's seams:
//  - Hopper (sm_90a): a dot whose operands are pipelined stages in shared
//    memory reads them there with wgmma (Wgmma.h); the rest as below.
//  - dot layouts: the operands and the accumulator of a dot the table
//    (Mma.h) has an instruction for take its fragment layouts, so the
//    accumulator stays in registers across a loop;
//  - dot: one `mma` per instruction tile of the result and of k, on the
//    operands' registers as they are (tf32x3: three products of the
//    operands' high and low tf32 parts);
//  - convert_layout to a 16-bit dot operand: the tile goes to shared memory
//    in a swizzled layout whose 16-byte rows land in eight different bank
//    groups, and comes back with `ldmatrix` (transposed when the tile's
//    contiguous dimension is not k); local_load of one from a buffer whose
//    layout keeps ldmatrix's rows whole (pipelined stages) likewise. Each
//    ldmatrix then moves down to its first mma.
// A dot or a conversion none of these fits falls to the shared lowering.
#include "targets/nvptx/Lowerings.h"

#include "ir/Layouts.h"
#include "ir/transforms/Passes.h"
#include "targets/gpu/ThreadLowering.h"
#include "targets/nvptx/Mma.h"
#include "targets/nvptx/Wgmma.h"


namespace tessera::targets::nvptx {
namespace {

using ir::OpCode;
using gpu::Regs;
using gpu::ThreadLowering;

struct DotPlan {
  const MmaInstruction *mma = nullptr;
  gpu::DotFragments frags;
};

std::optional<DotPlan> planDot(const ir::Operation &dot, const ir::AttrDict &module) {
  if (module.getInt("warp_size", 32) != 32) return std::nullopt;
  ir::Type at = dot.operand(0)->type(), bt = dot.operand(1)->type(), rt = dot.result()->type();
  if (!at.element().isScalar() || !rt.element().isScalar()) return std::nullopt;
  std::string precision = dot.attrs().getString("input_precision", "ieee");
  DotPlan p;
  p.mma = findMma(smNumber(module.getString("arch", "")), at.element().scalarKind(), bt.element().scalarKind(),
                  rt.element().scalarKind(), precision);
  if (!p.mma) return std::nullopt;
  std::optional<gpu::DotFragments> f = gpu::dotFragments(dot, *p.mma, int(module.getInt("num_warps", 4)));
  if (!f) return std::nullopt;
  p.frags = *f;
  return p;
}

std::optional<ir::DotLayouts> dotLayouts(const ir::Operation &dot, const ir::AttrDict &module) {
  if (std::optional<WgmmaPlan> w = planWgmma(dot, module)) return w->frags.attributes();
  std::optional<DotPlan> p = planDot(dot, module);
  if (!p) return std::nullopt;
  return p->frags.attributes();
}

// f32 split into a tf32 high part (low 13 mantissa bits cleared) and the rest.
std::pair<ir::Value *, ir::Value *> splitTf32(ThreadLowering &L, ir::Value *x) {
  ir::Value *bits = L.emit(OpCode::Bitcast, {x}, ir::Type::i32());
  ir::Value *high = L.emit(OpCode::Bitcast, {L.bitAnd(bits, L.i32(int32_t(0xffffe000u)))}, ir::Type::f32());
  return {high, L.emit(OpCode::Sub, {x, high}, ir::Type::f32())};
}

bool lowerDot(const ir::Operation &op, ThreadLowering &L) {
  if (std::optional<WgmmaPlan> w = planWgmma(op, L.moduleAttrs)) return lowerWgmmaDot(op, *w, L);
  std::optional<DotPlan> p = planDot(op, L.moduleAttrs);
  if (!p || !p->frags.holdFor(L, op)) return false;
  const MmaInstruction &mma = *p->mma;
  ir::Type acc = op.result()->type().element();
  bool threeProducts = std::string(mma.precision) == "tf32x3";
  Regs C = gpu::lowerMatrixDot(L, op, mma, p->frags.tiling, [&](const Regs &a, const Regs &b, Regs &c, int64_t cBase) {
    if (!threeProducts) return gpu::issueMma(L, mma, acc, a, b, c, cBase);
    Regs aHigh, aLow, bHigh, bLow;
    for (ir::Value *x : a) {
      auto [h, l] = splitTf32(L, x);
      aHigh.push_back(h), aLow.push_back(l);
    }
    for (ir::Value *x : b) {
      auto [h, l] = splitTf32(L, x);
      bHigh.push_back(h), bLow.push_back(l);
    }
    gpu::issueMma(L, mma, acc, aLow, bHigh, c, cBase);
    gpu::issueMma(L, mma, acc, aHigh, bLow, c, cBase);
    gpu::issueMma(L, mma, acc, aHigh, bHigh, c, cBase);
  });
  L.set(op.result(), C);
  gpu::sinkOperandLoads(L, L.get(op.operand(0)), L.get(op.operand(1)));
  return true;
}

// ---- ldmatrix

// Which operand layout of a 16-bit m16n8k16 dot `l` is, for some warp tiling.
struct OperandMatch {
  const MmaInstruction *mma = nullptr;
  Operand which = Operand::A;
  WarpTiling tiling;
};

std::optional<OperandMatch> matchOperand(const gpu::TileLayout &l, ir::Type elem, int numWarps, int sm) {
  if (l.shape.size() != 2) return std::nullopt;
  const MmaInstruction *mma = findMma(sm, elem.scalarKind(), elem.scalarKind(), ir::ScalarKind::F32, "");
  if (!mma || mma->k != 16) return std::nullopt;
  for (Operand which : {Operand::A, Operand::B})
    for (int wm = 1; wm <= numWarps; wm *= 2)
      for (int wn = 1; wm * wn <= numWarps; wn *= 2) {
        WarpTiling t{wm, wn};
        std::optional<ir::LinearLayout> want = gpu::matrixLayout(*mma, which, l.shape, t, numWarps);
        if (want && *want == l.ll) return OperandMatch{mma, which, t};
      }
  return std::nullopt;
}

// The dimension along which the tile's threads hold consecutive elements
// (the one its loads were coalesced along): lane 0's step, or register 0's
// when lanes broadcast; -1 if neither.
int64_t contiguousDim(const gpu::TileLayout &l) {
  for (const char *dim : {"lane", "register"}) {
    const auto &bases = l.bases(dim);
    if (bases.empty()) continue;
    for (size_t d = 0; d < bases[0].size(); ++d)
      if (bases[0][d] != 0) return int64_t(d);
  }
  return -1;
}

// The row addresses of every ldmatrix of operand `m` as a linear map from
// (instruction, lane, warp) to the element each lane points at. Matrices of
// one x4 load: A: bit 0 = m + 8, bit 1 = k + 8 (a0..a7 of one instruction);
// B: bit 0 = k + 8, bit 1 = the next n repeat (b0..b3 of two). `rowsAlong`:
// the dimension lane % 8 walks (the one that is not contiguous in memory).
ir::LinearLayout rowAddresses(const OperandMatch &m, const std::vector<int64_t> &shape, int64_t rowsAlong,
                              int numWarps, int &matrices) {
  const MmaInstruction &mma = *m.mma;
  bool isA = m.which == Operand::A;
  auto at = [](int64_t r, int64_t c) { return std::vector<int32_t>{int32_t(r), int32_t(c)}; };
  auto unit = [&](int64_t dim, int64_t v) { return dim == 0 ? at(v, 0) : at(0, v); };
  ir::LinearLayout::Bases reg, lane, warp;
  for (int b = 0; b < 3; ++b) lane.push_back(unit(rowsAlong, 1 << b));
  int64_t kDim = isA ? 1 : 0;
  int64_t reps = isA ? shape[0] / (mma.m * m.tiling.warpsM) : shape[1] / (mma.n * m.tiling.warpsN);
  if (isA) {
    lane.push_back(at(8, 0));
    lane.push_back(at(0, 8));
  } else {
    lane.push_back(at(8, 0));
    lane.push_back(reps > 1 ? at(0, 8 * m.tiling.warpsN) : at(0, 0));
  }
  matrices = isA || reps > 1 ? 4 : 2;
  for (int b = 0; b < log2Exact(shape[size_t(kDim)] / mma.k); ++b) reg.push_back(unit(kDim, mma.k << b));
  if (isA)
    for (int b = 0; b < log2Exact(reps); ++b) reg.push_back(at(mma.m * m.tiling.warpsM << b, 0));
  else
    for (int b = 1; b < log2Exact(reps); ++b) reg.push_back(at(0, mma.n * m.tiling.warpsN << b));
  int wn = log2Exact(m.tiling.warpsN), wm = log2Exact(m.tiling.warpsM);
  for (int b = 0; b < wn; ++b) warp.push_back(isA ? at(0, 0) : at(0, mma.n << b));
  for (int b = 0; b < wm; ++b) warp.push_back(isA ? at(mma.m << b, 0) : at(0, 0));
  for (int b = wn + wm; b < log2Exact(numWarps); ++b) warp.push_back(at(0, 0));
  return ir::LinearLayout({{"register", reg}, {"lane", lane}, {"warp", warp}},
                          {{"dim0", int32_t(shape[0])}, {"dim1", int32_t(shape[1])}});
}

// Reads a 16-bit dot operand in layout `dst` (matched as `m`) from `base`,
// a buffer of type `buffer`, with ldmatrix; null when the buffer's layout
// does not keep the rows ldmatrix reads whole.
std::optional<Regs> loadWithLdmatrix(ThreadLowering &L, const ir::Operation &op, const OperandMatch &m,
                                     const gpu::TileLayout &dst, ir::Value *base, ir::Type buffer) {
  std::optional<ir::LinearLayout> shared = ir::toSharedLayout(*buffer.layout(), buffer.shape());
  if (!shared) return std::nullopt;
  std::optional<ir::LinearLayout> inverse = shared->invert();
  if (!inverse) return std::nullopt;
  // The contiguous dimension: offsets 1, 2, 4 step along it.
  const auto &ob = shared->bases("offset");
  if (ob.size() < 3) return std::nullopt;
  int64_t fast = ob[0][0] == 1 ? 0 : 1;
  for (int b = 0; b < 3; ++b)
    if (ob[size_t(b)][size_t(fast)] != (1 << b) || ob[size_t(b)][size_t(1 - fast)] != 0) return std::nullopt;
  int64_t kDim = m.which == Operand::A ? 1 : 0;
  bool trans = fast != kDim;
  int matrices = 0;
  ir::LinearLayout rows = rowAddresses(m, dst.shape, 1 - fast, L.numWarps, matrices);
  ir::LinearLayout toOffset = inverse->compose(rows);
  // Every row start must be 16-byte aligned: the swizzle moves whole groups of 8.
  for (const char *dim : {"register", "lane", "warp"})
    for (const auto &basis : toOffset.bases(dim))
      if (basis[0] % 8) return std::nullopt;
  ir::Value *laneWarp = L.laneWarpPart(toOffset)[0];
  int32_t laneWarpBits = ThreadLowering::laneWarpBits(toOffset);
  ir::Type elem = buffer.element();
  ir::AttrDict attrs;
  if (trans) attrs.set("trans", ir::Attribute(true));
  int64_t loads = toOffset.inDimSize("register");
  int64_t kTiles = dst.shape[size_t(kDim)] / m.mma->k;
  Regs out(size_t(dst.numRegs), nullptr);
  for (int64_t i = 0; i < loads; ++i) {
    ir::Value *addr = L.swizzledAddress(base, laneWarp, laneWarpBits, toOffset.apply({{"register", int32_t(i)}})[0]);
    ir::Operation *ld = L.b.create(OpCode::LdMatrix, {addr}, std::vector<ir::Type>(size_t(matrices * 2), elem), attrs);
    int64_t kk = i % kTiles, rep = i / kTiles;
    for (int e = 0; e < matrices * 2; ++e) {
      // A: element e of instruction (kk, rep); B: element e % 4 of n repeats 2 rep and 2 rep + 1.
      int64_t r = m.which == Operand::A ? e + 8 * (kk + kTiles * rep) : e % 4 + 4 * (kk + kTiles * (2 * rep + e / 4));
      out[size_t(r)] = ld->result(unsigned(e));
    }
  }
  for (ir::Value *v : out)
    if (!v) L.fail(op, "internal error: ldmatrix left a register of a dot operand unset");
  return out;
}

bool lowerOperandConversion(const ir::Operation &op, ThreadLowering &L) {
  ir::Type in = op.operand(0)->type(), outT = op.result()->type();
  if (in.element().bitWidth() != 16 || in.rank() != 2) return false;
  const gpu::TileLayout &dst = L.layoutOf(outT, op), &src = L.layoutOf(in, op);
  if (src.bases("lane") == dst.bases("lane") && src.bases("warp") == dst.bases("warp")) return false;  // registers only
  std::optional<OperandMatch> m = matchOperand(dst, in.element(), L.numWarps, smNumber(L.moduleAttrs.getString("arch", "")));
  if (!m) return false;
  int64_t fast = contiguousDim(src);
  if (fast < 0) fast = m->which == Operand::A ? 1 : 0;
  ir::Type buffer = ir::Type::buffer(in.shape(), in.element(), ir::swizzledSharedLayout(in.shape(), {fast, 1 - fast}, 2));
  ir::Value *base = L.allocShared(in.element(), in.numElements());
  L.storeToBuffer(op, base, buffer, op.operand(0));
  std::optional<Regs> regs = loadWithLdmatrix(L, op, *m, dst, base, buffer);
  if (!regs) L.fail(op, "internal error: the swizzled operand buffer does not suit ldmatrix");
  L.set(op.result(), *regs);
  return true;
}

// local_load of a 16-bit dot operand from a buffer whose layout keeps
// ldmatrix's rows whole (the pipelined loops' stages).
bool lowerOperandLocalLoad(const ir::Operation &op, ThreadLowering &L) {
  if (readInPlace(op, L.moduleAttrs)) {
    L.set(op.result(), {});  // its dots read the buffer itself (Wgmma.h)
    return true;
  }
  ir::Type buffer = op.operand(0)->type(), outT = op.result()->type();
  if (buffer.element().bitWidth() != 16 || outT.rank() != 2) return false;
  const gpu::TileLayout &dst = L.layoutOf(outT, op);
  std::optional<OperandMatch> m =
      matchOperand(dst, buffer.element(), L.numWarps, smNumber(L.moduleAttrs.getString("arch", "")));
  if (!m) return false;
  std::optional<Regs> regs = loadWithLdmatrix(L, op, *m, dst, L.scalar(op.operand(0)), buffer);
  if (!regs) return false;
  L.set(op.result(), *regs);
  return true;
}

} // namespace

void registerMmaLowerings() {
  ir::registerDotLayouts("nvptx", dotLayouts);
  gpu::registerOpLowering("nvptx", OpCode::Dot, lowerDot);
  gpu::registerOpLowering("nvptx", OpCode::ConvertLayout, lowerOperandConversion);
  gpu::registerOpLowering("nvptx", OpCode::LocalLoad, lowerOperandLocalLoad);
}

void registerLowerings() {
  static bool once = [] {
    registerMmaLowerings();
    registerAsyncCopyLowerings();
    registerTmaLowerings();
    return true;
  }();
  (void)once;
}

} // namespace tessera::targets::nvptx
