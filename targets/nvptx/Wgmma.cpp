#include "targets/nvptx/Wgmma.h"

#include "ir/Fold.h"
#include "ir/Layouts.h"
#include "targets/gpu/ThreadLowering.h"

#include <algorithm>

namespace tessera::targets::nvptx {
namespace {

using ir::OpCode;

// Warpgroup MMA element types (PTX ISA, wgmma.mma_async), f32 or s32
// accumulators. Only 16-bit inputs may be m/n-major in shared memory: the
// others (tf32, fp8, 8-bit integers) must be k-major on both sides.
struct WgmmaType {
  ir::ScalarKind a, b, acc;
  int64_t k;
  const char *precision;  // f32 inputs: the input_precision wgmma serves
  bool anyMajor;
};
using K = ir::ScalarKind;
constexpr WgmmaType kWgmmaTypes[] = {
    {K::F16, K::F16, K::F32, 16, "", true},         {K::BF16, K::BF16, K::F32, 16, "", true},
    {K::F32, K::F32, K::F32, 8, "tf32", false},     {K::F8E4M3, K::F8E4M3, K::F32, 32, "", false},
    {K::F8E4M3, K::F8E5M2, K::F32, 32, "", false},  {K::F8E5M2, K::F8E4M3, K::F32, 32, "", false},
    {K::F8E5M2, K::F8E5M2, K::F32, 32, "", false},  {K::I8, K::I8, K::I32, 32, "", false},
    {K::U8, K::U8, K::I32, 32, "", false},
};
constexpr int64_t kAtomBytes = 128;

const WgmmaType *findWgmmaType(const ir::Operation &dot, ir::ScalarKind a, ir::ScalarKind b, ir::ScalarKind acc) {
  std::string precision = dot.attrs().getString("input_precision", "ieee");
  for (const WgmmaType &t : kWgmmaTypes)
    if (t.a == a && t.b == b && t.acc == acc && (a != K::F32 || precision == t.precision)) return &t;
  return nullptr;
}

bool hasWgmma(const ir::AttrDict &module) {
  std::string arch = module.getString("arch", "");
  return smNumber(arch) == 90 && !arch.empty() && arch.back() == 'a' && module.getInt("warp_size", 32) == 32 &&
         module.getInt("shared_atom_bytes", 0) == kAtomBytes;
}

// Operand `v` (which: A is m x k, B is k x n) read from its buffer in place.
std::optional<SharedOperand> sharedOperand(const ir::Value *v, gpu::Operand which) {
  const ir::Operation *load = v->definingOp();
  if (!load || !load->is(OpCode::LocalLoad)) return std::nullopt;
  ir::Type buffer = load->operand(0)->type();
  const std::vector<int64_t> &shape = buffer.shape();
  if (shape.size() != 2 || !buffer.layout()) return std::nullopt;
  int eb = buffer.element().bitWidth() / 8;
  int64_t fast = -1;
  for (int64_t d : {0, 1})
    if (buffer.layout() == ir::swizzledSharedLayout(shape, {d, 1 - d}, eb, 0, kAtomBytes)) fast = d;
  if (fast < 0) return std::nullopt;
  int64_t rowBytes = std::min<int64_t>(shape[size_t(fast)] * eb, kAtomBytes), atom = rowBytes / eb;
  if (rowBytes < 32 || shape[size_t(1 - fast)] % 8) return std::nullopt;
  std::optional<ir::LinearLayout> layout = ir::toSharedLayout(*buffer.layout(), shape);
  std::optional<ir::LinearLayout> inverse = layout ? layout->invert() : std::nullopt;
  if (!inverse) return std::nullopt;
  SharedOperand op{load, *inverse, {}};
  auto bytesAt = [&](int64_t d0, int64_t d1) {
    if (d0 >= shape[0] || d1 >= shape[1]) return int64_t(16);  // not walked: any multiple of 16
    return int64_t(inverse->apply({{"dim0", int32_t(d0)}, {"dim1", int32_t(d1)}})[0]) * eb;
  };
  int64_t mn = which == gpu::Operand::A ? 0 : 1;
  bool mnMajor = fast == mn;
  auto at = [&](int64_t along, int64_t v) { return along == 0 ? bytesAt(v, 0) : bytesAt(0, v); };
  // Leading: between atoms along the contiguous dimension (m/n-major) or
  // unused (k-major: one instruction's k, 32 bytes of every type, never
  // leaves a row of at least 32 bytes). Stride:
  // between groups of 8 rows.
  int64_t leading = mnMajor ? at(fast, atom) : 16, stride = at(1 - fast, 8);
  op.descriptor = {rowBytes, leading, stride, mnMajor ? 1 : 0};
  return op;
}

// The top-level op of `body` that holds `op` (op itself, or the op whose
// regions it is in).
const ir::Operation *topLevel(const ir::Operation *op, const ir::Block &body) {
  while (op && op->parentBlock() != &body) op = op->parentOp();
  return op;
}

// A dot of `body` before every use of `acc` (a block argument of it), so
// that `acc` may still be in flight until that dot's full wait: the first
// top-level dot of the body, when no use of `acc` comes before it.
const ir::Operation *waitingDotBefore(const ir::Value *acc, const ir::Block &body) {
  std::vector<ir::Operation *> ops = const_cast<ir::Block &>(body).opsVector();
  auto first = std::find_if(ops.begin(), ops.end(), [](const ir::Operation *op) { return op->is(OpCode::Dot); });
  if (first == ops.end()) return nullptr;
  for (const ir::Operation *u : acc->users()) {
    const ir::Operation *top = topLevel(u, body);
    if (!top || std::find(first + 1, ops.end(), top) == ops.end()) return nullptr;
  }
  return *first;
}

bool pendingAfter(const ir::Operation &dot, int numWarps, const ir::AttrDict &module);

// How many wgmma groups `dot` may leave in flight: 1 when its result only
// goes round its pipelined loop and no warpgroup can overwrite a stage
// another may still be reading (one warpgroup, whose next copies come after
// this wait, a spare stage, or a warp-specialized loop's release). Round the loop, the result is either the
// next iteration's accumulator of this dot (wgmma chains on registers in
// flight) or read only after the full wait of another dot that comes first
// in the body (attention's P V, rescaled after the next Q K^T: that wait
// passes it through, waitingDotBefore); the loop's drain waits for the last.
// With module attribute wgmma_register_waits (NvptxTarget's second compile
// of a kernel ptxas serialized), dots reading an operand from registers
// leave nothing in flight.
bool pendingAfter(const ir::Operation &dot, int numWarps, const ir::AttrDict &module) {
  if (module.getInt("wgmma_register_waits", 0)) {
    std::optional<WgmmaPlan> plan = planWgmma(dot, module);
    if (plan && (!plan->a.load || plan->swapped)) return false;
  }
  const ir::Operation *loop = dot.parentOp();
  // (A warp-specialized loop's producer waits for the consumers' release.)
  if (!loop || !loop->is(OpCode::For) ||
      (numWarps != 4 && loop->attrs().getInt("spare_stages", 0) < 1 && !loop->attrs().getBool("warp_specialize", false)))
    return false;
  const ir::Block &body = *dot.parentBlock();
  const ir::Operation *yield = body.terminator();
  for (const ir::Operation *u : dot.result()->users())
    if (u != yield) return false;
  for (unsigned k = 0; k < yield->numOperands(); ++k) {
    if (yield->operand(k) != dot.result()) continue;
    const ir::Value *acc = body.argument(k + 1);
    if (dot.operand(2) != acc) {
      const ir::Operation *first = waitingDotBefore(acc, body);
      if (!first || first == &dot || !planWgmma(*first, module) || pendingAfter(*first, numWarps, module)) return false;
    }
    const ir::Value *out = loop->result(k);
    if (!out->hasUses()) return false;
    for (const ir::Operation *u : out->users())
      if (!u->is(OpCode::AsyncWait)) return false;
  }
  return true;
}

// The accumulators that wgmma dots of `dot`'s loop leave in flight round it
// and that `dot`'s full wait passes through (pendingAfter's second form).
std::vector<const ir::Value *> passedThrough(const ir::Operation &dot, int numWarps, const ir::AttrDict &module) {
  std::vector<const ir::Value *> out;
  const ir::Operation *loop = dot.parentOp();
  if (!loop || !loop->is(OpCode::For)) return out;
  const ir::Block &body = *dot.parentBlock();
  const ir::Operation *yield = body.terminator();
  for (unsigned k = 0; k < yield->numOperands(); ++k) {
    const ir::Operation *d = yield->operand(k)->definingOp();
    const ir::Value *acc = body.argument(k + 1);
    if (d && d != &dot && d->is(OpCode::Dot) && d->parentBlock() == &body && d->operand(2) != acc &&
        waitingDotBefore(acc, body) == &dot && planWgmma(*d, module) && pendingAfter(*d, numWarps, module))
      out.push_back(acc);
  }
  return out;
}

// Whether `dot` is in a loop whose stages arrive by async copies or tensor
// maps (its body waits for them before the dot; the async copies' wait
// fences them for wgmma): the stages of the register-staged form are plain
// stores into one buffer, rewritten while a wgmma could still read it.
bool inAsyncPipeline(const ir::Operation &dot) {
  const ir::Operation *loop = dot.parentOp();
  if (!loop || !loop->is(OpCode::For)) return false;
  for (const ir::Operation *op : dot.parentBlock()->opsVector()) {
    if (op == &dot) return false;
    if (op->is(OpCode::AsyncWait) || op->is(OpCode::MbarrierWait)) return true;
  }
  return false;
}

// The hardware row r of a wgmma's A holds operand row rowOrder(r) (within
// each 64): row bits 0-5 go to bits 1, 2, 4, 0, 3, 5. Where A's registers
// come from an m/n-major stage of 32-bit elements, each thread's rows r and
// r + 8 are then adjacent in shared memory (one 8-byte load), and the
// loads of a warp, four rows of k apart in a 128-byte swizzled stage, fall
// in distinct banks. The accumulator's rows follow the same order.
constexpr int kRowOrder[] = {1, 2, 4, 0, 3, 5};

int32_t rowOrder(int32_t r) {
  int32_t out = r & ~63;
  for (int bit = 0; bit < 6; ++bit)
    if (r >> bit & 1) out |= 1 << kRowOrder[bit];
  return out;
}

// `l` with output dimension `dim` renumbered by rowOrder.
ir::LinearLayout reorderRows(const ir::LinearLayout &l, size_t dim) {
  std::vector<ir::LinearLayout::InDim> ins = l.inDims();
  for (ir::LinearLayout::InDim &in : ins)
    for (std::vector<int32_t> &basis : in.bases) basis[dim] = rowOrder(basis[dim]);
  return ir::LinearLayout(ins, l.outDims());
}

ir::LinearLayout transposed(const ir::LinearLayout &l) { return l.permuted({1, 0}).renamedDims(); }

} // namespace

std::optional<WgmmaPlan> planWgmma(const ir::Operation &dot, const ir::AttrDict &module) {
  if (!dot.is(OpCode::Dot) || !hasWgmma(module) || !inAsyncPipeline(dot)) return std::nullopt;
  ir::Type at = dot.operand(0)->type(), bt = dot.operand(1)->type(), rt = dot.result()->type();
  if (rt.rank() != 2 || !at.element().isScalar() || !rt.element().isScalar()) return std::nullopt;
  if (!bt.element().isScalar()) return std::nullopt;
  const WgmmaType *type = findWgmmaType(dot, at.element().scalarKind(), bt.element().scalarKind(), rt.element().scalarKind());
  if (!type) return std::nullopt;
  int numWarps = int(module.getInt("num_warps", 4));
  WgmmaPlan p;
  p.k = type->k;
  p.fragments = findMma(90, type->a, type->b, type->acc, type->precision);
  if (!p.fragments || p.fragments->k != type->k) return std::nullopt;
  // B is read in place; A too when it is a stage, else from registers
  // (attention's Q, loaded once, and P = softmax(Q K^T) of the dot before;
  // 16-bit or tf32 elements). The other types are read only k-major: an
  // m-major tf32 A from registers, and an n-major tf32 B as the A of
  // B^T A^T (swapped) when A is a k-major stage.
  std::optional<SharedOperand> a = sharedOperand(dot.operand(0), gpu::Operand::A),
                               b = sharedOperand(dot.operand(1), gpu::Operand::B);
  // rowOrder pays where the register operand is such a stage (tf32).
  bool registersFit = type->k == 16 || type->a == K::F32, rowOrdered = false;
  if (!type->anyMajor && a && a->descriptor[3]) {
    if (!registersFit) return std::nullopt;
    a.reset();
    rowOrdered = true;
  }
  if (!type->anyMajor && b && b->descriptor[3]) {
    if (!a || type->a != K::F32) return std::nullopt;
    p.swapped = true;
    b.reset();
    rowOrdered = true;
  }
  if ((!b && !p.swapped) || (!a && !registersFit)) return std::nullopt;
  if (a) p.a = *a;
  if (b) p.b = *b;
  // The instruction's m x n: the result's, or its transpose's when swapped.
  int64_t M = rt.shape()[0], N = rt.shape()[1], K = at.shape()[1];
  if (p.swapped) std::swap(M, N);
  if (numWarps % 4 || M % (16 * numWarps) || N % 8 || N > 256 || K % type->k) return std::nullopt;
  p.frags.tiling = {numWarps, 1};
  auto layout = [&](gpu::Operand which, std::vector<int64_t> shape, bool rows) -> std::optional<ir::LinearLayout> {
    std::optional<ir::LinearLayout> l = gpu::matrixLayout(*p.fragments, which, shape, p.frags.tiling, numWarps);
    if (l && rows && rowOrdered) l = reorderRows(*l, 0);
    return l;
  };
  std::vector<int64_t> as = at.shape(), bs = bt.shape(), rs = rt.shape();
  std::optional<ir::LinearLayout> la, lb, lc;
  if (p.swapped) {
    // B^T is the instruction's A and the result its transposed accumulator;
    // A, read in place, has any layout its load needs none of.
    lb = layout(gpu::Operand::A, {bs[1], bs[0]}, true);
    lc = layout(gpu::Operand::C, {rs[1], rs[0]}, true);
    la = ir::LinearLayout::blocked({int32_t(as[0]), int32_t(as[1])}, {1, 1}, {1, 32}, {numWarps, 1}, {1, 0});
    if (lb) lb = transposed(*lb);
    if (lc) lc = transposed(*lc);
  } else {
    la = layout(gpu::Operand::A, as, true);
    lb = layout(gpu::Operand::B, bs, false);
    lc = layout(gpu::Operand::C, rs, true);
  }
  if (!la || !lb || !lc) return std::nullopt;
  p.frags.a = *la, p.frags.b = *lb, p.frags.c = *lc;
  return p;
}

bool readInPlace(const ir::Operation &load, const ir::AttrDict &module) {
  if (!load.result()->hasUses()) return false;
  for (const ir::Operation *u : load.result()->users()) {
    std::optional<WgmmaPlan> p = planWgmma(*u, module);
    if (!p || (p->a.load != &load && p->b.load != &load)) return false;
  }
  return true;
}

std::vector<const ir::Operation *> usersThroughViews(const ir::Value *buffer) {
  std::vector<const ir::Operation *> users;
  std::vector<const ir::Value *> views = {buffer};
  for (size_t i = 0; i < views.size(); ++i)
    for (const ir::Operation *u : views[i]->users()) {
      if (u->is(OpCode::LocalView) || u->is(OpCode::LocalTrans)) views.push_back(u->result());
      else users.push_back(u);
    }
  return users;
}

bool usesWgmma(const ir::Function &kernel, const ir::AttrDict &module) {
  bool found = false;
  const_cast<ir::Function &>(kernel).walk([&](ir::Operation *op) { found |= !found && planWgmma(*op, module).has_value(); });
  return found;
}

bool lowerWgmmaDot(const ir::Operation &op, const WgmmaPlan &p, gpu::ThreadLowering &L) {
  if (L.layoutOf(op.operand(2)->type(), op).ll != p.frags.c)
    L.fail(op, "internal error: the accumulator of a wgmma dot is not in its fragment layout");
  // The instruction's A from registers (B^T's when swapped) or a stage; its
  // B a stage (A's when swapped).
  const ir::Value *aValue = p.swapped ? op.operand(1) : p.a.load ? nullptr : op.operand(0);
  const SharedOperand &aShared = p.a, &bShared = p.swapped ? p.a : p.b;
  if (aValue && L.layoutOf(aValue->type(), op).ll != (p.swapped ? p.frags.b : p.frags.a))
    L.fail(op, "internal error: the register operand of a wgmma dot is not in its fragment layout");
  ir::Type rt = op.result()->type();
  int64_t M = rt.shape()[0], N = rt.shape()[1], K = op.operand(0)->type().shape()[1];
  if (p.swapped) std::swap(M, N);
  int W = L.numWarps;
  auto offset = [](const SharedOperand &s, int64_t d0, int64_t d1) {
    return int64_t(s.toOffset.apply({{"dim0", int32_t(d0)}, {"dim1", int32_t(d1)}})[0]);
  };
  // The instruction's B at k step kk: the dot's B (k x n), or A (m x k).
  auto bOffset = [&](int64_t kk) { return p.swapped ? offset(bShared, 0, kk) : offset(bShared, kk, 0); };
  // The rows of this thread's warpgroup (warp id bits 2 and up; the low two
  // pick rows within an instruction) as an offset into A's buffer.
  ir::Value *groupOffset = aValue ? nullptr : L.inPrologue([&] {
    ir::Value *sum = L.i32(0);
    for (int bit = 2; (1 << bit) < W; ++bit) {
      ir::Value *set = L.bitAnd(L.shr(L.warp, bit), L.i32(1));
      sum = L.add(sum, L.mul(set, L.i32(offset(aShared, int64_t(16) << bit, 0))));
    }
    return sum;
  });
  ir::Value *aBase = aValue ? nullptr : L.scalar(aShared.load->operand(0)), *bBase = L.scalar(bShared.load->operand(0));
  const gpu::Regs *aRegs = aValue ? &L.get(aValue) : nullptr;
  int64_t aPerInstruction = int64_t(1) << p.fragments->fragA->reg.size(), kK = p.k, kTiles = K / kK;
  ir::Type acc = rt.element();
  int64_t perInstruction = N / 2, reps = M / (16 * W);
  ir::AttrDict attrs;
  attrs.set("shape", ir::Attribute(std::vector<int64_t>{64, N, kK}));
  attrs.set("a_desc", ir::Attribute(aValue ? std::vector<int64_t>{} : aShared.descriptor));
  attrs.set("b_desc", ir::Attribute(bShared.descriptor));
  gpu::Regs C = L.get(op.operand(2));
  // A zero accumulator (attention's Q·K^T) is wgmma's scale-d = 0 on the
  // first k step: no registers zeroed before each dot.
  bool zeroAcc = ir::isPositiveZero(op.operand(2));
  L.b.create(OpCode::WgmmaFence, {}, {});
  for (int64_t kk = 0; kk < K / kK; ++kk)
    for (int64_t r = 0; r < reps; ++r) {
      std::vector<ir::Value *> operands;
      if (aRegs) {
        int64_t first = aPerInstruction * (kk + kTiles * r);  // matrixLayout's order: k tiles, then m
        operands.assign(aRegs->begin() + first, aRegs->begin() + first + aPerInstruction);
      } else {
        operands.push_back(L.sharedAddress(aBase, L.add(groupOffset, L.i32(offset(aShared, r * 16 * W, kk * kK)))));
      }
      operands.push_back(L.sharedAddress(bBase, L.i32(bOffset(kk * kK))));
      operands.insert(operands.end(), C.begin() + r * perInstruction, C.begin() + (r + 1) * perInstruction);
      ir::AttrDict mmaAttrs = attrs;
      if (zeroAcc && kk == 0) mmaAttrs.set("zero_acc", ir::Attribute(true));
      ir::Operation *mma = L.b.create(OpCode::Wgmma, operands, std::vector<ir::Type>(size_t(perInstruction), acc), mmaAttrs);
      for (int64_t e = 0; e < perInstruction; ++e) C[size_t(r * perInstruction + e)] = mma->result(unsigned(e));
    }
  L.b.create(OpCode::WgmmaCommit, {}, {});
  ir::AttrDict wait;
  bool pending = pendingAfter(op, W, L.moduleAttrs);
  wait.set("pending", ir::Attribute(int64_t(pending)));
  // A wgmma in flight still reads its register operand, which the next
  // iteration's load of a stage into registers would overwrite (ptxas does
  // not wait for it: wrong sums on the H200, tf32 with B n-major). Two
  // copies of the body per iteration load into different registers.
  const ir::Operation *aDef = aValue ? aValue->definingOp() : nullptr;
  if (pending && aDef && aDef->hasTrait(ir::kReadsMemory) && aDef->parentBlock() == op.parentBlock())
    if (ir::Operation *loop = L.b.block()->parentOp(); loop && loop->is(OpCode::For))
      loop->attrs().set("unroll", ir::Attribute(int64_t(2)));
  // A full wait also finishes the accumulators in flight since the last
  // iteration, which are read only after it: their registers pass through.
  std::vector<const ir::Value *> through = pending ? std::vector<const ir::Value *>{} : passedThrough(op, W, L.moduleAttrs);
  gpu::Regs regs = C;
  for (const ir::Value *v : through) {
    const gpu::Regs &r = L.get(v);
    regs.insert(regs.end(), r.begin(), r.end());
  }
  std::vector<ir::Type> types;
  for (ir::Value *v : regs) types.push_back(v->type());
  ir::Operation *done = L.b.create(OpCode::WgmmaWait, regs, types, wait);
  unsigned next = 0;
  for (; next < C.size(); ++next) C[next] = done->result(next);
  L.set(op.result(), C);
  for (const ir::Value *v : through) {
    gpu::Regs r = L.get(v);
    for (ir::Value *&x : r) x = done->result(next++);
    L.set(v, r);
  }
  return true;
}

} // namespace tessera::targets::nvptx
