// Tile ops: dispatch, elementwise loops (fused or deferred to their users),
// and memory: loads, stores and atomics. Reductions, scans, dot and shape ops
// are in LowerAlgebra.cpp; control flow, printing and assertions in LowerControl.cpp.
#include "targets/cpu/Lowering.h"

#include "ir/Fold.h"

#include "llvm/IR/Intrinsics.h"

namespace tessera::targets::cpu {

using ir::OpCode;

namespace {

int64_t rowLength(ir::Type t) { return t.isTile() ? t.shape().back() : 1; }

llvm::AtomicOrdering ordering(const std::string &sem) {
  if (sem == "relaxed") return llvm::AtomicOrdering::Monotonic;
  if (sem == "acquire") return llvm::AtomicOrdering::Acquire;
  if (sem == "release") return llvm::AtomicOrdering::Release;
  return llvm::AtomicOrdering::AcquireRelease;
}

} // namespace

void Lowering::lowerBlock(const ir::Block &block) {
  blocks_.push_back(&block);
  for (auto &op : block.ops())
    if (!op->hasTrait(ir::kTerminator)) lowerOp(*op);
  finishPrefetches(block);
  blocks_.pop_back();
}

void Lowering::lowerOp(const ir::Operation &op) {
  lowerOpOnly(op);
  finishPending(op);
}

void Lowering::lowerOpOnly(const ir::Operation &op) {
  switch (op.code()) {
  case OpCode::ProgramId: set(op.result(), {pid[op.attr("axis")->getInt()]}); return;
  case OpCode::NumPrograms: set(op.result(), {grid[op.attr("axis")->getInt()]}); return;
  case OpCode::Arange: {
    int64_t start = op.attr("start")->getInt();
    ChunkGen gen = [this, start](llvm::Value *i, unsigned w) -> llvm::Value * {
      llvm::Value *base = b.CreateTrunc(b.CreateAdd(i, i64(start)), b.getInt32Ty());
      if (w == 1) return base;
      std::vector<llvm::Constant *> steps;
      for (unsigned k = 0; k < w; ++k) steps.push_back(b.getInt32(k));
      return b.CreateAdd(splatIfNeeded(base, w), llvm::ConstantVector::get(steps));
    };
    defineTile(op, gen);
    return;
  }
  case OpCode::Splat: set(op.result(), {get(op.operand(0)).scalar}); return;
  case OpCode::Reshape:
    if (!op.result()->type().isTile()) {  // a one-element tile's element (item(), unsplat)
      set(op.result(), {loadChunk(op.operand(0), i64(0), 1)});
      return;
    }
    [[fallthrough]];
  case OpCode::Hint:
  case OpCode::ConvertLayout:  // layouts do not change a tile's meaning
  case OpCode::ExpandDims: set(op.result(), get(op.operand(0))); return;  // same row-major storage
  case OpCode::Broadcast:
  case OpCode::Trans:
  case OpCode::Join:
  case OpCode::Split:
  case OpCode::Cat:
  case OpCode::Gather: lowerShapeOp(op); return;
  case OpCode::Load: lowerLoad(op); return;
  case OpCode::Store: lowerStore(op); return;
  case OpCode::AtomicRmw:
  case OpCode::AtomicCas: lowerAtomic(op); return;
  case OpCode::Dot: lowerDot(op); return;
  case OpCode::Reduce: lowerReduce(op); return;
  case OpCode::Scan: lowerScan(op); return;
  case OpCode::Print: lowerPrint(op); return;
  case OpCode::Assert: lowerAssert(op); return;
  case OpCode::CheckFailed: lowerCheckFailed(op); return;
  case OpCode::Assume:
  case OpCode::Barrier: return;  // one thread runs a program: nothing to synchronize
  case OpCode::GridDependency: return;  // host launches run in stream order
  case OpCode::InlineAsm: fail(op, "holds GPU assembly (tl.inline_asm_elementwise), which the cpu target cannot run");
  case OpCode::ExternElementwise:
    fail(op, "calls " + op.attr("symbol")->getString() +
                 " of a GPU device library (tl.extern_elementwise), which the cpu target does not link");
  case OpCode::HardwareRegister: {
    // The host's real-time clock in nanoseconds, or the core running the program.
    bool timer = op.attr("name")->getString() != "smid";
    llvm::FunctionCallee fn = m.getOrInsertFunction(timer ? "tessera_host_globaltimer" : "tessera_host_smid",
                                                    timer ? b.getInt64Ty() : b.getInt32Ty());
    set(op.result(), {b.CreateCall(fn)});
    return;
  }
  case OpCode::For: lowerFor(op); return;
  case OpCode::If: lowerIf(op); return;
  case OpCode::While: lowerWhile(op); return;
  case OpCode::Call: fail(op, "is not supported: run the inline pass first, or remove noinline");
  default: break;
  }
  if (op.hasTrait(ir::kPure) && op.numResults() == 1) {
    lowerElementwiseTile(op);
    return;
  }
  fail(op, "is not supported by the CPU target");
}

// Uniform operands give a uniform result; otherwise a loop over vector chunks.
void Lowering::lowerElementwiseTile(const ir::Operation &op) {
  bool uniform = true;
  for (ir::Value *v : op.operands()) uniform &= !get(v).isTile();
  if (uniform) {
    std::vector<llvm::Value *> in;
    for (ir::Value *v : op.operands()) in.push_back(get(v).scalar);
    set(op.result(), {elementwise(op, in)});
    return;
  }
  const ir::Operation *opp = &op;
  bool nonPositive = (op.is(OpCode::Exp) || op.is(OpCode::Exp2)) && belowItsMax(op.operand(0));
  defineTile(op, [this, opp, nonPositive](llvm::Value *i, unsigned w) {
    std::vector<llvm::Value *> in;
    for (ir::Value *v : opp->operands()) in.push_back(loadChunk(v, i, w));
    expArgNonPositive_ = nonPositive;
    llvm::Value *r = elementwise(*opp, in);
    expArgNonPositive_ = false;
    return r;
  });
}

// Recomputing a cheap expression beats a trip through memory; expensive
// ones (division, math functions, gathers) are computed once.
int Lowering::recomputeCost(const ir::Operation &op) {
  switch (op.code()) {
  case OpCode::Div: case OpCode::Rem: case OpCode::Exp: case OpCode::Exp2: case OpCode::Log: case OpCode::Log2:
  case OpCode::Sqrt: case OpCode::Rsqrt: case OpCode::Sin: case OpCode::Cos: case OpCode::Erf: case OpCode::MathFn: case OpCode::MathFn2:
    return 100;
  case OpCode::Load:
    // Loading consecutive elements again costs what reading a buffer does,
    // and saves writing one.
    return contiguousLastDim(op.operand(0)) && !op.attrs().getBool("volatile", false) ? 2 : 100;
  default: break;
  }
  int cost = 1;
  for (ir::Value *v : op.operands())
    if (Lowered &l = get(v); l.gen) cost += v->definingOp() ? recomputeCost(*v->definingOp()) : 100;
  return cost;
}

// A single-use tile stays lazy (fused into its user), as does a cheap one;
// others are computed once into a buffer.
std::vector<const ir::Value *> Lowering::readsOf(const ir::Operation &op) {
  std::vector<const ir::Value *> reads;
  for (ir::Value *v : op.operands()) {
    const Lowered &l = get(v);
    if (l.gen) reads.insert(reads.end(), l.reads.begin(), l.reads.end());
  }
  return reads;
}

void Lowering::defineTile(const ir::Operation &op, ChunkGen gen) {
  ir::Type rt = op.result()->type();
  std::vector<const ir::Value *> reads = readsOf(op);
  // A lazy tile that loads runs its loads where it is used: only if nothing
  // can write memory in between.
  unsigned fused = fusedCost(op);
  bool withinBudget = fused <= kFusionBudget;
  bool cheap = op.result()->users().size() == 1 || recomputeCost(op) <= 4;
  bool lazyOk = withinBudget && cheap && (reads.empty() || noWritesBeforeUse(op));
  if (lazyOk) {
    Lowered l{nullptr, nullptr, std::move(gen)};
    l.reads = std::move(reads);
    l.fused = fused;
    set(op.result(), l);
    return;
  }
  if (withinBudget && deferToFirstUser(op, gen, readsOf(op), fused)) return;
  llvm::Value *buf = newBuffer(rt);
  ir::Type widest = rt;
  for (ir::Value *v : op.operands())
    if (v->type().isTile() && v->type().bitWidth() > widest.bitWidth()) widest = v->type();
  unsigned w = vectorWidth(widest);
  loop(i64(0), i64(rt.numElements()), w, [&](llvm::Value *i) { storeChunk(buf, rt.element(), i, gen(i, w)); });
  set(op.result(), {nullptr, buf});
}

// ---- memory

std::optional<int64_t> Lowering::lastDimStride(const ir::Value *v, int depth) {
  auto it = strides_.find(v);
  if (it != strides_.end()) return it->second;
  if (depth > 64) return std::nullopt;
  std::optional<int64_t> s;
  const ir::Operation *d = v->definingOp();
  auto st = [&](unsigned i) { return lastDimStride(d->operand(i), depth + 1); };
  if (!v->type().isTile()) {
    s = 0;
  } else if (!d) {
    // A loop-carried tile: contiguous if the init is and every step moves all elements together.
    const ir::Block *blk = v->ownerBlock();
    const ir::Operation *loop = blk->parentOp();
    if (loop && loop->is(OpCode::For) && v->index() > 0) {
      unsigned k = v->index() - 1;
      const ir::Operation *y = blk->terminator();
      const ir::Operation *next = y ? y->operand(k)->definingOp() : nullptr;
      strides_[v] = std::nullopt;  // break cycles pessimistically
      if (next && next->is(OpCode::AddPtr) && next->operand(0) == v && lastDimStride(next->operand(1), depth + 1) == 0)
        s = lastDimStride(loop->operand(3 + k), depth + 1);
    }
  } else {
    switch (d->code()) {
    case OpCode::Constant:
    case OpCode::Splat: s = 0; break;
    case OpCode::Arange: s = 1; break;
    case OpCode::Add:
    case OpCode::AddPtr:
      if (auto a = st(0), c = st(1); a && c) s = *a + *c;
      break;
    case OpCode::Sub:
      if (auto a = st(0), c = st(1); a && c) s = *a - *c;
      break;
    case OpCode::Mul:
      for (unsigned i = 0; i < 2 && !s; ++i) {
        auto k = ir::constantValue(d->operand(1 - i));
        auto a = st(i);
        if (a && *a == 0 && st(1 - i) == 0) s = 0;
        else if (a && k && k->isInt()) s = *a * k->getInt();
      }
      break;
    case OpCode::Shl:
      if (auto k = ir::constantValue(d->operand(1)); k && k->isInt() && k->getInt() < 62)
        if (auto a = st(0)) s = *a << k->getInt();
      break;
    case OpCode::Cast:
      if (d->operand(0)->type().isInteger() && v->type().isInteger() &&
          v->type().bitWidth() >= d->operand(0)->type().bitWidth())
        s = st(0);
      break;
    case OpCode::Hint:
      if (const ir::Attribute *c = d->attr("contiguity"); c && c->getInts().back() >= vectorWidth(v->type(), true)) s = 1;
      else s = st(0);
      break;
    case OpCode::ExpandDims:
      s = d->attr("axis")->getInt() == v->type().rank() - 1 ? std::optional<int64_t>(0) : st(0);
      break;
    case OpCode::Broadcast: s = rowLength(d->operand(0)->type()) == 1 ? std::optional<int64_t>(0) : st(0); break;
    default: break;
    }
  }
  strides_[v] = s;
  return s;
}

bool Lowering::contiguousLastDim(const ir::Value *ptrs) { return lastDimStride(ptrs) == 1; }

// Whether `v`'s buffer may be overwritten by its only user: nothing else
// reads it, through `v` or through the values that share its storage
// (reshapes, expand_dims, hints, layout conversions) up to its owner, and the
// user runs once per definition (same block).
bool Lowering::ownsBuffer(const ir::Value *v) {
  const Lowered &l = get(v);
  if (!l.buf || l.gen || l.pending) return false;
  for (;;) {
    // A user in a nested region runs again and again over the same buffer.
    if (v->users().size() != 1 || v->users().front()->parentBlock() != v->ownerBlock()) return false;
    const ir::Operation *d = v->definingOp();
    if (!d || !(d->is(OpCode::Reshape) || d->is(OpCode::ExpandDims) || d->is(OpCode::Hint) || d->is(OpCode::ConvertLayout)))
      return true;
    v = d->operand(0);
  }
}

// Pointers are consecutive in aligned runs of this many along the last
// dimension: the whole row when the stride is 1, else the axis analysis'
// contiguity (Triton's `offs % N` with N a multiple of 16 gives runs of 16).
int64_t Lowering::contiguousRun(const ir::Value *ptrs) {
  if (!ptrs->type().isTile()) return 1;
  int64_t row = rowLength(ptrs->type());
  if (contiguousLastDim(ptrs)) return row;
  int64_t c = axis_ ? std::min(axis_->get(ptrs).contiguity.back(), row) : 1;
  return c > 1 && row % c == 0 ? c : 1;
}

// The chunk width of a loop over `t` whose pointers run `run` long.
unsigned Lowering::chunkWidth(ir::Type t, int64_t run) {
  unsigned w = vectorWidth(t, run > 1);
  while (w > 1 && (w > run || run % w != 0)) w /= 2;
  return w;
}

// A load (or a lazy tile that loads) may run where its users are, once per
// user, if they are all in its block (a user in a nested region would repeat
// it) and nothing from it up to its last user can write memory, except that
// last user itself.
const Lowering::BlockOrder &Lowering::orderOf(const ir::Block *block) {
  auto [it, made] = orders_.try_emplace(block);
  BlockOrder &o = it->second;
  if (!made) return o;
  std::vector<const ir::Operation *> ops;
  for (const auto &op : block->ops()) o.position[op.get()] = ops.size(), ops.push_back(op.get());
  o.nextWrite.assign(ops.size() + 1, ops.size());
  for (size_t i = ops.size(); i-- > 0;) o.nextWrite[i] = isReadOnly(*ops[i]) ? o.nextWrite[i + 1] : i;
  return o;
}

unsigned Lowering::fusedCost(const ir::Operation &op) {
  unsigned cost = 1;
  for (const ir::Value *v : op.operands())
    if (const Lowered &l = get(v); l.gen) cost += l.fused;
  return cost;
}

// Whether nothing between `load` and its last user may write memory (the
// users all in its block): a lazy load then reads what it would have read.
bool Lowering::noWritesBeforeUse(const ir::Operation &load) {
  const ir::Block *block = load.parentBlock();
  if (load.result()->users().empty()) return false;
  const BlockOrder &o = orderOf(block);
  size_t last = 0;
  for (const ir::Operation *u : load.result()->users()) {
    if (u->parentBlock() != block) return false;
    last = std::max(last, o.position.at(u));
  }
  return o.nextWrite[o.position.at(&load) + 1] >= last;
}

bool Lowering::isReadOnly(const ir::Operation &op) {
  if (op.hasTrait(ir::kPure) && op.numRegions() == 0) return true;
  if (op.is(OpCode::Load)) return true;
  if (op.is(OpCode::Store) || op.is(OpCode::AtomicRmw) || op.is(OpCode::AtomicCas) || op.is(OpCode::Call) ||
      op.is(OpCode::Barrier) || op.is(OpCode::Print) || op.is(OpCode::Assert) || op.is(OpCode::CheckFailed))
    return false;
  for (unsigned r = 0; r < op.numRegions(); ++r)
    for (auto &inner : op.region(r).block().ops())
      if (!inner->hasTrait(ir::kTerminator) && !isReadOnly(*inner)) return false;
  return true;
}

bool Lowering::deferToFirstUser(const ir::Operation &def, ChunkGen gen, std::vector<const ir::Value *> reads,
                                unsigned fused) {
  bool isLoad = !reads.empty();
  const ir::Value *v = def.result();
  const ir::Block *block = def.parentBlock();
  const BlockOrder &o = orderOf(block);
  // The first user, as the operation of this block that holds it.
  const ir::Operation *first = nullptr;
  size_t firstAt = SIZE_MAX;
  bool nested = false;
  for (const ir::Operation *u : v->users()) {
    const ir::Operation *holder = u;
    while (holder && holder->parentBlock() != block) holder = holder->parentOp();
    if (!holder) return false;
    size_t at = o.position.at(holder);
    if (at < firstAt) first = holder, firstAt = at, nested = false;
    if (at == firstAt) nested |= holder != u;
  }
  bool controlFlow = first && (first->is(OpCode::For) || first->is(OpCode::If) || first->is(OpCode::While));
  if (!first || nested || controlFlow) return false;
  // A load must read before anything writes memory.
  if (isLoad && o.nextWrite[o.position.at(&def) + 1] < firstAt) return false;
  Lowered l{nullptr, newBuffer(v->type()), std::move(gen), true};
  l.reads = std::move(reads);
  l.fused = fused;
  set(v, l);
  pendingByUser_[first].push_back(v);
  return true;
}

// After the first user: if its loop did not run over the tile (it made a lazy
// value instead), fill the buffer now, still before any later use.
void Lowering::finishPending(const ir::Operation &user) {
  auto it = pendingByUser_.find(&user);
  if (it == pendingByUser_.end()) return;
  for (const ir::Value *v : it->second) {
    Lowered &l = get(v);
    bool filled = filled_.count(v) != 0;
    ChunkGen gen = l.gen;
    llvm::Value *buf = l.buf;
    set(v, {nullptr, buf});
    if (!filled) {
      unsigned w = vectorWidth(v->type());
      loop(i64(0), i64(v->type().numElements()), w, [&](llvm::Value *i) { storeChunk(buf, v->type().element(), i, gen(i, w)); });
    }
  }
  pendingByUser_.erase(it);
}

// Masked vector memory ops are slower than plain ones on some CPUs (AMD's
// among them), and most chunks of a masked tile are fully inside: loads and
// stores branch to the plain op when every lane of the mask is on.
//
// Whether every lane of chunk [i, i + w) of `mask` is on, as the vector
// reduction of `m` or, for the bounds masks kernels use (`offs < n` with
// offs stepping by 1 along the row), from the chunk's first and last
// offsets alone: first < n, last < n, and first <= last (no wrap between).
llvm::Value *Lowering::chunkAllTrue(const ir::Value *mask, llvm::Value *i, unsigned w, llvm::Value *m) {
  if (llvm::Value *inside = boundsAllTrue(mask, i, w)) return inside;
  return b.CreateIntrinsic(llvm::Intrinsic::vector_reduce_and, {m->getType()}, {m});
}

// The bounds-mask half of chunkAllTrue: null when `mask` is not of that form.
llvm::Value *Lowering::boundsAllTrue(const ir::Value *mask, llvm::Value *i, unsigned w) {
  const ir::Operation *cmp = mask->definingOp();
  if (!cmp || !cmp->is(ir::OpCode::Cmp)) return nullptr;
  const std::string &pred = cmp->attr("pred")->getString();
  const ir::Value *offs = cmp->operand(0), *bound = cmp->operand(1);
  if ((pred != "lt" && pred != "le") || !offs->type().element().isInteger() || lastDimStride(offs) != 1) return nullptr;
  Lowered &lo = get(offs), &lb = get(bound);
  if (lo.pending || !lo.isTile() || lb.isTile()) return nullptr;
  bool sgn = offs->type().element().isSigned();
  llvm::Value *first = loadElement(offs, i), *last = loadElement(offs, b.CreateAdd(i, i64(w - 1)));
  auto inside = [&](llvm::Value *x) {
    return pred == "lt" ? (sgn ? b.CreateICmpSLT(x, lb.scalar) : b.CreateICmpULT(x, lb.scalar))
                        : (sgn ? b.CreateICmpSLE(x, lb.scalar) : b.CreateICmpULE(x, lb.scalar));
  };
  llvm::Value *ordered = sgn ? b.CreateICmpSLE(first, last) : b.CreateICmpULE(first, last);
  return b.CreateAnd(b.CreateAnd(inside(first), inside(last)), ordered);
}

// `cond ? then() : otherwise()` as control flow; the result is a phi of the
// two arms' values, or null when they produce none (stores).
llvm::Value *Lowering::branch(llvm::Value *cond, const std::function<llvm::Value *()> &then,
                              const std::function<llvm::Value *()> &otherwise) {
  llvm::BasicBlock *yes = llvm::BasicBlock::Create(ctx, "then", fn), *no = llvm::BasicBlock::Create(ctx, "else", fn);
  llvm::BasicBlock *join = llvm::BasicBlock::Create(ctx, "join", fn);
  b.CreateCondBr(cond, yes, no);
  b.SetInsertPoint(yes);
  llvm::Value *a = then();
  llvm::BasicBlock *yesEnd = b.GetInsertBlock();
  b.CreateBr(join);
  b.SetInsertPoint(no);
  llvm::Value *c = otherwise();
  llvm::BasicBlock *noEnd = b.GetInsertBlock();
  b.CreateBr(join);
  b.SetInsertPoint(join);
  if (!a || !c || a->getType()->isVoidTy()) return nullptr;
  llvm::PHINode *phi = b.CreatePHI(a->getType(), 2);
  phi->addIncoming(a, yesEnd);
  phi->addIncoming(c, noEnd);
  return phi;
}

// Null when a chunk-by-chunk store cannot overwrite memory that its fused
// loads read later (no loads, or each load reads exactly the stored
// addresses); otherwise an i1 that is true when the address ranges overlap
// (for 1-D contiguous tiles, from their first pointers), or constant true.
llvm::Value *Lowering::storeMayClobberReads(const ir::Value *ptrs, const std::vector<const ir::Value *> &reads) {
  bool same = true;
  for (const ir::Value *r : reads) same &= r == ptrs;
  if (same) return nullptr;
  auto range = [&](const ir::Value *p) -> std::pair<llvm::Value *, llvm::Value *> {
    llvm::Value *first = b.CreatePtrToInt(loadElement(p, i64(0)), b.getInt64Ty());
    int64_t bytes = p->type().numElements() * int64_t(std::max<unsigned>(1, storageType(p->type().pointee())->getPrimitiveSizeInBits() / 8));
    return {first, b.CreateAdd(first, i64(bytes))};
  };
  bool provable = ptrs->type().rank() == 1 && contiguousLastDim(ptrs);
  for (const ir::Value *r : reads) provable &= r->type().rank() == 1 && contiguousLastDim(r);
  if (!provable) return b.getTrue();
  auto [s0, s1] = range(ptrs);
  llvm::Value *clobber = b.getFalse();
  for (const ir::Value *r : reads) {
    if (r == ptrs) continue;
    auto [l0, l1] = range(r);
    // Overlap unless identical (element i reads what element i writes) or disjoint.
    llvm::Value *overlap = b.CreateAnd(b.CreateICmpULT(s0, l1), b.CreateICmpULT(l0, s1));
    llvm::Value *identical = b.CreateAnd(b.CreateICmpEQ(s0, l0), b.CreateICmpEQ(s1, l1));
    clobber = b.CreateOr(clobber, b.CreateAnd(overlap, b.CreateNot(identical)));
  }
  return clobber;
}

// A valid address to load from in lanes whose mask is off.
llvm::Value *Lowering::safeAddress(llvm::Type *t) {
  if (!scratch_) scratch_ = entryAlloca(b.getInt64Ty(), 8);
  (void)t;
  return scratch_;
}

// The first pointer of a contiguous chunk, as a scalar computation when the
// pointer tile is computed lazily (so address arithmetic stays scalar and a
// vector of pointers is never built just to take its first lane).
llvm::Value *Lowering::chunkBase(const ir::Value *ptrs, llvm::Value *i, llvm::Value *vectorOfPtrs) {
  Lowered &l = get(ptrs);
  if (l.pending || !l.isTile()) return b.CreateExtractElement(vectorOfPtrs, uint64_t(0));
  return loadChunk(ptrs, i, 1);
}

void Lowering::lowerLoad(const ir::Operation &op) {
  const ir::Value *ptrs = op.operand(0);
  ir::Type rt = op.result()->type(), elem = rt.element();
  llvm::Type *st = storageType(elem);
  llvm::Align align(std::max<unsigned>(1, st->getScalarSizeInBits() / 8));
  bool isVolatile = op.attrs().getBool("volatile", false);
  const ir::Value *mask = op.numOperands() > 1 ? op.operand(1) : nullptr;
  const ir::Value *other = op.numOperands() > 2 ? op.operand(2) : nullptr;
  if (!rt.isTile()) {
    llvm::Value *p = get(ptrs).scalar;
    auto load = [&]() {
      llvm::LoadInst *l = b.CreateAlignedLoad(st, p, align);
      l->setVolatile(isVolatile);
      return fromStorage(l, elem);
    };
    if (!mask) {
      set(op.result(), {load()});
      return;
    }
    llvm::Value *dflt = other ? get(other).scalar : llvm::Constant::getNullValue(computeType(elem));
    set(op.result(), {branch(get(mask).scalar, load, [&] { return dflt; })});
    return;
  }
  int64_t run = isVolatile ? 1 : contiguousRun(ptrs);
  bool contiguous = run > 1;
  predictNextLoad(op);
  // The loaded chunk at i: a masked vector load where the pointers are
  // consecutive (a chunk lies within a run), a gather otherwise.
  auto gen = [this, ptrs, mask, other, elem, st, align, contiguous, run](llvm::Value *i, unsigned w) -> llvm::Value * {
    llvm::Type *vt = w == 1 ? st : llvm::FixedVectorType::get(st, w);
    llvm::Value *p = loadChunk(ptrs, i, w);
    llvm::Value *m = mask ? loadChunk(mask, i, w) : nullptr;
    llvm::Value *pass = other ? toStorage(loadChunk(other, i, w), elem) : llvm::Constant::getNullValue(vt);
    if (w == 1) {
      if (!m) return fromStorage(b.CreateAlignedLoad(st, p, align), elem);
      return fromStorage(b.CreateSelect(m, b.CreateAlignedLoad(st, b.CreateSelect(m, p, safeAddress(st)), align), pass), elem);
    }
    if (contiguous && int64_t(w) <= run && run % w == 0) {
      llvm::Value *base = chunkBase(ptrs, i, p);
      if (!m) return fromStorage(b.CreateAlignedLoad(vt, base, align), elem);
      return fromStorage(branch(chunkAllTrue(mask, i, w, m), [&] { return (llvm::Value *)b.CreateAlignedLoad(vt, base, align); },
                                [&] { return (llvm::Value *)b.CreateMaskedLoad(vt, base, align, m, pass); }),
                         elem);
    }
    llvm::Value *all = llvm::Constant::getAllOnesValue(llvm::FixedVectorType::get(b.getInt1Ty(), w));
    llvm::Value *first = b.CreateExtractElement(p, uint64_t(0));
    return fromStorage(branch(consecutiveLanes(p, m, st), [&]() -> llvm::Value * {
      if (m) return b.CreateMaskedLoad(vt, first, align, m, pass);
      return b.CreateAlignedLoad(vt, first, align);
    }, [&]() -> llvm::Value * { return b.CreateMaskedGather(vt, p, align, m ? m : all, pass); }), elem);
  };
  std::vector<const ir::Value *> reads = readsOf(op);
  reads.push_back(ptrs);
  unsigned fused = fusedCost(op);
  bool withinBudget = fused <= kFusionBudget;
  if (!isVolatile && withinBudget && (op.result()->users().size() == 1 || recomputeCost(op) <= 4) &&
      noWritesBeforeUse(op)) {
    Lowered l{nullptr, nullptr, gen};
    l.reads = reads;
    l.fused = fused;
    set(op.result(), l);
    return;
  }
  if (!isVolatile && withinBudget && deferToFirstUser(op, gen, reads, fused)) return;
  llvm::Value *buf = newBuffer(rt);
  unsigned w = chunkWidth(rt, run);
  if (isVolatile) w = 1;
  llvm::Type *vt = w == 1 ? st : llvm::FixedVectorType::get(st, w);
  if (!isVolatile) {
    loop(i64(0), i64(rt.numElements()), w, [&](llvm::Value *i) { storeChunk(buf, elem, i, gen(i, w)); });
    set(op.result(), {nullptr, buf});
    return;
  }
  loop(i64(0), i64(rt.numElements()), w, [&](llvm::Value *i) {
    llvm::Value *p = loadChunk(ptrs, i, w);
    llvm::Value *m = mask ? loadChunk(mask, i, w) : nullptr;
    llvm::Value *pass = other ? toStorage(loadChunk(other, i, w), elem) : llvm::Constant::getNullValue(vt);
    llvm::Value *v;
    if (w == 1) {
      llvm::LoadInst *l = nullptr;
      if (!m) {
        l = b.CreateAlignedLoad(st, p, align);
        l->setVolatile(isVolatile);
        v = l;
      } else {
        v = branch(m, [&]() -> llvm::Value * {
          llvm::LoadInst *ld = b.CreateAlignedLoad(st, p, align);
          ld->setVolatile(isVolatile);
          return ld;
        }, [&] { return pass; });
      }
    } else if (contiguous) {
      llvm::Value *base = chunkBase(ptrs, i, p);
      v = m ? (llvm::Value *)b.CreateMaskedLoad(vt, base, align, m, pass) : b.CreateAlignedLoad(vt, base, align);
    } else {
      v = b.CreateMaskedGather(vt, p, align, m ? m : llvm::Constant::getAllOnesValue(llvm::FixedVectorType::get(b.getInt1Ty(), w)), pass);
    }
    storeChunk(buf, elem, i, fromStorage(v, elem));
  });
  set(op.result(), {nullptr, buf});
}

void Lowering::lowerStore(const ir::Operation &op) {
  const ir::Value *ptrs = op.operand(0), *val = op.operand(1);
  const ir::Value *mask = op.numOperands() > 2 ? op.operand(2) : nullptr;
  ir::Type elem = val->type().element();
  llvm::Type *st = storageType(elem);
  llvm::Align align(std::max<unsigned>(1, st->getScalarSizeInBits() / 8));
  if (!val->type().isTile()) {
    auto store = [&]() -> llvm::Value * {
      b.CreateAlignedStore(toStorage(get(val).scalar, elem), get(ptrs).scalar, align);
      return nullptr;
    };
    if (!mask) store();
    else branch(get(mask).scalar, store, [] { return nullptr; });
    return;
  }
  // Loads computed inside this loop must not see what earlier chunks stored.
  std::vector<const ir::Value *> reads;
  for (const ir::Value *v : {ptrs, val, mask})
    if (v && get(v).gen) reads.insert(reads.end(), get(v).reads.begin(), get(v).reads.end());
  if (llvm::Value *clobber = storeMayClobberReads(ptrs, reads)) {
    // Compute the operands into buffers first when the ranges overlap.
    branch(clobber, [&] { return rarely([&]() -> llvm::Value * {
      // A rare path: plain stores keep its code small.
      bool streaming = streamingStores_;
      streamingStores_ = false;
      std::vector<std::pair<const ir::Value *, Lowered>> saved;
      for (const ir::Value *v : {ptrs, val, mask})
        if (v && get(v).gen) {
          saved.push_back({v, get(v)});
          llvm::Value *buf = newBuffer(v->type());
          copyTile(buf, v);
          set(v, {nullptr, buf});
        }
      storeLoop(op);
      for (auto &[v, l] : saved) set(v, l);
      streamingStores_ = streaming;
      return nullptr;
    }); }, [&]() -> llvm::Value * {
      storeLoop(op);
      return nullptr;
    });
    return;
  }
  storeLoop(op);
}

void Lowering::storeLoop(const ir::Operation &op) {
  const ir::Value *ptrs = op.operand(0), *val = op.operand(1);
  const ir::Value *mask = op.numOperands() > 2 ? op.operand(2) : nullptr;
  ir::Type elem = val->type().element();
  llvm::Type *st = storageType(elem);
  llvm::Align align(std::max<unsigned>(1, st->getScalarSizeInBits() / 8));
  int64_t run = contiguousRun(ptrs);
  bool contiguous = run > 1;
  unsigned w = chunkWidth(val->type(), run);
  // A 1-D contiguous tile stored in whole cache lines streams past the caches.
  StreamPlan plan;
  if (contiguousLastDim(ptrs) && val->type().rank() == 1 && w * st->getScalarSizeInBits() / 8 == 64 && !get(ptrs).pending &&
      get(ptrs).isTile())
    plan = planStreaming(ptrs, mask, st, w, val->type().numElements());
  loop(i64(0), i64(val->type().numElements()), w, [&](llvm::Value *i) {
    llvm::Value *p = loadChunk(ptrs, i, w);
    llvm::Value *v = toStorage(loadChunk(val, i, w), elem);
    llvm::Value *m = mask ? loadChunk(mask, i, w) : nullptr;
    if (w == 1) {
      if (!m) {
        b.CreateAlignedStore(v, p, align);
        return;
      }
      branch(m, [&]() -> llvm::Value * {
        b.CreateAlignedStore(v, p, align);
        return nullptr;
      }, [] { return nullptr; });
    } else if (contiguous) {
      llvm::Value *base = chunkBase(ptrs, i, p);
      auto chunk = [&]() -> llvm::Value * {
        if (!m) return streamingStore(v, base, align, plan.aligned);
        return branch(chunkAllTrue(mask, i, w, m), [&] { return streamingStore(v, base, align, plan.aligned); },
                      [&] { return (llvm::Value *)b.CreateMaskedStore(v, base, align, m); });
      };
      if (!plan.realign) {
        chunk();
        return;
      }
      branch(plan.realign, [&] {
        realignedStore(plan, v, base, i);
        return (llvm::Value *)nullptr;
      }, chunk);
    } else {
      llvm::Value *all = llvm::Constant::getAllOnesValue(llvm::FixedVectorType::get(b.getInt1Ty(), w));
      llvm::Value *first = b.CreateExtractElement(p, uint64_t(0));
      branch(consecutiveLanes(p, m, st), [&]() -> llvm::Value * {
        b.CreateMaskedStore(v, first, align, m ? m : all);
        return nullptr;
      }, [&]() -> llvm::Value * {
        b.CreateMaskedScatter(v, p, align, m ? m : all);
        return nullptr;
      });
    }
  });
  if (plan.realign) finishRealigned(plan);
}

// Whether the active lanes of a vector of pointers address consecutive
// elements from lane 0's, tested at run time: pointers the analyses cannot
// prove consecutive often are (Triton's `(pid * B + arange(B)) % N` columns),
// and one vector access beats a gather or scatter by far. Inactive lanes are
// not compared (a masked access ignores them).
llvm::Value *Lowering::consecutiveLanes(llvm::Value *p, llvm::Value *m, llvm::Type *elem) {
  unsigned w = unsigned(llvm::cast<llvm::FixedVectorType>(p->getType())->getNumElements());
  std::vector<llvm::Constant *> iota;
  for (unsigned j = 0; j < w; ++j) iota.push_back(b.getInt64(j));
  llvm::Value *expected = b.CreateGEP(elem, b.CreateExtractElement(p, uint64_t(0)), llvm::ConstantVector::get(iota));
  llvm::Value *same = b.CreateICmpEQ(p, expected);
  if (m) same = b.CreateOr(same, b.CreateNot(m));
  return b.CreateIntrinsic(llvm::Intrinsic::vector_reduce_and, {same->getType()}, {same});
}

// One element at a time: atomics are rare and must not be merged.
void Lowering::lowerAtomic(const ir::Operation &op) {
  bool cas = op.is(OpCode::AtomicCas);
  // Operands that load memory are computed first: the atomics below write.
  for (ir::Value *v : op.operands())
    if (Lowered &l = get(v); l.gen && !l.reads.empty()) {
      llvm::Value *buf = newBuffer(v->type());
      copyTile(buf, v);
      set(v, {nullptr, buf});
    }
  const ir::Value *ptrs = op.operand(0);
  const ir::Value *val = cas ? op.operand(2) : op.operand(1);
  const ir::Value *cmp = cas ? op.operand(1) : nullptr;
  const ir::Value *mask = !cas && op.numOperands() > 2 ? op.operand(2) : nullptr;
  ir::Type elem = val->type().element();
  llvm::AtomicOrdering ord = ordering(op.attr("sem")->getString());
  llvm::Type *st = storageType(elem);
  auto one = [&](llvm::Value *p, llvm::Value *v, llvm::Value *c) -> llvm::Value * {
    v = toStorage(v, elem);
    if (cas) {
      llvm::Type *it = b.getIntNTy(st->getPrimitiveSizeInBits());
      llvm::Value *ci = b.CreateBitCast(toStorage(c, elem), it), *vi = b.CreateBitCast(v, it);
      llvm::Value *pair = b.CreateAtomicCmpXchg(p, ci, vi, llvm::MaybeAlign(), ord,
                                                ord == llvm::AtomicOrdering::AcquireRelease ? llvm::AtomicOrdering::Acquire
                                                : ord == llvm::AtomicOrdering::Release ? llvm::AtomicOrdering::Monotonic : ord);
      return fromStorage(b.CreateBitCast(b.CreateExtractValue(pair, 0), st), elem);
    }
    llvm::AtomicRMWInst::BinOp bop = llvmgen::atomicRmwOp(op.attr("kind")->getString(), elem);
    return fromStorage(b.CreateAtomicRMW(bop, p, v, llvm::MaybeAlign(), ord), elem);
  };
  auto guarded = [&](llvm::Value *m, const std::function<llvm::Value *()> &body) -> llvm::Value * {
    if (!m) return body();
    return branch(m, body, [&]() -> llvm::Value * { return llvm::Constant::getNullValue(computeType(elem)); });
  };
  if (!val->type().isTile()) {
    llvm::Value *r = guarded(mask ? get(mask).scalar : nullptr, [&] {
      return one(get(ptrs).scalar, get(val).scalar, cmp ? get(cmp).scalar : nullptr);
    });
    set(op.result(), {r});
    return;
  }
  llvm::Value *buf = newBuffer(op.result()->type());
  loop(i64(0), i64(val->type().numElements()), 1, [&](llvm::Value *i) {
    llvm::Value *r = guarded(mask ? loadElement(mask, i) : nullptr, [&] {
      return one(loadElement(ptrs, i), loadElement(val, i), cmp ? loadElement(cmp, i) : nullptr);
    });
    storeChunk(buf, elem, i, r);
  });
  set(op.result(), {nullptr, buf});
}

} // namespace tessera::targets::cpu
