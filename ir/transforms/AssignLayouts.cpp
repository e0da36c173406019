// assign-layouts: gives every tile a layout (tile IR -> distributed IR).
//
// Target facts come from module attributes `num_warps` (default 4) and
// `warp_size` (default 32). Memory ops anchor the layouts: a load's or
// store's tile is coalesced (fastest dimension = the pointers' most contiguous
// one; up to 16 bytes per thread along it, as far as contiguity and alignment
// allow), except that a store of a dot's result keeps the dot's layout where
// that already gives each thread 8-byte runs. Other values take the layout
// seeded for them (pulled back from memory ops, pushed on from dots and loop
// accumulators; a loop's init is converted to it), else their first operand's
// that is not a splat, constant or arange; reductions slice it, expand_dims,
// trans and reshape transform it without moving data, scans keep it. A cheap operand
// (splats, constants, aranges through elementwise ops, broadcasts and
// expand_dims) is re-created in the wanted layout, any other converted
// (convert_layout). A dot takes the layouts its target's
// hook asks for (registerDotLayouts), if any. Run after inline (calls are
// not handled).
#include "ir/Builder.h"
#include "ir/Layouts.h"
#include "ir/analysis/AxisInfo.h"
#include "ir/transforms/Passes.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <unordered_map>

namespace tessera::ir {
namespace {

std::mutex dotHooksMutex;
std::map<std::string, DotLayoutHook> &dotHooks() {
  static std::map<std::string, DotLayoutHook> hooks;
  return hooks;
}

DotLayoutHook dotHookFor(const std::string &target) {
  std::lock_guard<std::mutex> lock(dotHooksMutex);
  auto it = dotHooks().find(target);
  return it == dotHooks().end() ? DotLayoutHook{} : it->second;
}

class Assigner {
public:
  Assigner(const AttrDict &module, const AxisAnalysis &axis, DotLayoutHook dotHook)
      : warps_(int(module.getInt("num_warps", 4))), lanes_(int(module.getInt("warp_size", 32))), module_(module),
        axis_(axis), dotHook_(std::move(dotHook)) {}

  void block(Block &b) {
    for (Operation *op : b.opsVector()) assign(op);
  }

  // First of all: a dot's result layout (the target's accumulator) carried
  // forward through the elementwise ops, reductions (sliced), expand_dims
  // and loop-carried values that consume it, so that what is computed from
  // a dot (attention's scores, their row max and sum, P) stays in its
  // layout instead of taking a mask's or a loop initializer's.
  void seedFromDots(Block &b) {
    for (Operation *op : b.opsVector()) {
      for (unsigned r = 0; r < op->numRegions(); ++r) seedFromDots(op->region(r).block());
      if (!op->is(OpCode::Dot)) continue;
      std::optional<DotLayouts> l = dotLayouts(*op);
      if (l && l->acc) forward(op->result(), l->acc);
    }
  }

  void forward(Value *v, const Layout *l, int depth = 0) {
    if (!v->type().isTile() || depth > 64 || !desired_.emplace(v, l).second) return;
    LinearLayout ll = *toLinearLayout(*l, v->type().shape());
    for (Operation *u : v->users()) {
      if (u->is(OpCode::Reduce) && u->operand(0) == v) {
        size_t axis = size_t(u->attr("axis")->getInt());
        for (Value *r : u->results()) forward(r, toLayoutAttribute(ll.sliced(axis)), depth + 1);
      } else if (u->is(OpCode::ExpandDims)) {
        forward(u->result(), toLayoutAttribute(ll.withInsertedDim(size_t(u->attr("axis")->getInt()))), depth + 1);
      } else if (u->is(OpCode::Yield) && u->parentOp() && u->parentOp()->is(OpCode::For)) {
        Operation *loop = u->parentOp();
        for (unsigned k = 0; k < u->numOperands(); ++k)
          if (u->operand(k) == v) {
            forward(loop->result(k), l, depth + 1);
            forward(loop->region(0).block().argument(k + 1), l, depth + 1);
            want(loop->operand(3 + k), l);
          }
      } else if (u->hasTrait(kElementwise) && u->hasTrait(kPure) && u->numResults() == 1 &&
                 u->result()->type().shape() == v->type().shape()) {
        forward(u->result(), l, depth + 1);
      }
    }
  }

  // Then: a loop accumulator that starts as a splat or constant (`acc =
  // tl.zeros(...)`, then `acc += f(tl.load(...))` each iteration) takes the
  // layout of a load it accumulates, so that the conversion to what a store
  // after the loop wants happens once there, not once per iteration (Liger's
  // layer-norm backward: bf16 rows loaded 8 per thread, summed into fp32
  // accumulators stored 4 per thread).
  void seedFromLoopAccumulators(Block &b) {
    for (Operation *op : b.opsVector()) {
      for (unsigned r = 0; r < op->numRegions(); ++r) seedFromLoopAccumulators(op->region(r).block());
      if (!op->is(OpCode::For)) continue;
      Operation *yield = op->region(0).block().terminator();
      for (unsigned k = 0; k < op->numResults(); ++k) {
        Operation *init = op->operand(3 + k)->definingOp();
        if (!op->result(k)->type().isTile() || !init || !(init->is(OpCode::Splat) || init->is(OpCode::Constant)))
          continue;
        if (Operation *load = accumulatedLoad(yield->operand(k), op->region(0).block(), 0))
          forward(load->result(), memoryLayout(load));
      }
    }
  }

  // A load in `body` of `v`'s shape that `v` is computed from through
  // elementwise ops of that shape, if any.
  Operation *accumulatedLoad(Value *v, const Block &body, int depth) {
    Operation *d = v->definingOp();
    if (!d || d->parentBlock() != &body || depth > 8) return nullptr;
    if (d->is(OpCode::Load)) return d->operand(0)->type().isTile() ? d : nullptr;
    if (!d->hasTrait(kElementwise) || !d->hasTrait(kPure)) return nullptr;
    for (Value *o : d->operands())
      if (o->type().isTile() && o->type().shape() == v->type().shape())
        if (Operation *l = accumulatedLoad(o, body, depth + 1)) return l;
    return nullptr;
  }

  // Before assigning: the layouts memory ops want, pushed back through the
  // elementwise ops that compute their operands (pointers, masks, values), so
  // that address arithmetic happens in the coalesced layout (as Triton's
  // layout propagation does) instead of being converted at the load.
  void seedFromAnchors(Block &b) {
    for (Operation *op : b.opsVector()) {
      for (unsigned r = 0; r < op->numRegions(); ++r) seedFromAnchors(op->region(r).block());
      bool anchor = op->is(OpCode::Load) || op->is(OpCode::Store) || op->is(OpCode::AtomicRmw) || op->is(OpCode::AtomicCas);
      if (op->is(OpCode::Dot)) {  // the accumulator stays in the target's layout across a loop
        std::optional<DotLayouts> l = dotLayouts(*op);
        if (l && l->acc) want(op->operand(2), l->acc), want(op->result(), l->acc);
        // Operands read from shared memory are read in the layout the dot wants.
        for (unsigned i = 0; i < 2; ++i) {
          const Layout *w = i ? (l ? l->b : nullptr) : (l ? l->a : nullptr);
          Operation *def = op->operand(i)->definingOp();
          if (w && def && def->is(OpCode::LocalLoad)) want(op->operand(i), w);
        }
        continue;
      }
      if (op->is(OpCode::LocalStore)) {
        if (const Layout *l = bufferTransposeLayout(op)) want(op->operand(1), l);
        continue;
      }
      if (op->is(OpCode::AsyncCopy)) {  // its pointers are operand 1
        const Layout *l = asyncCopyLayout(op);
        for (unsigned i = 1; i < op->numOperands(); ++i) want(op->operand(i), l);
        continue;
      }
      if (!anchor || !op->operand(0)->type().isTile()) continue;
      const Layout *l = memoryLayout(op);
      for (Value *v : op->operands()) want(v, l);
      for (Value *r : op->results()) desired_.emplace(r, l);
    }
  }

private:
  // The layout a broadcast's operand must have for the result to be in `l`:
  // `l` with the broadcast dimensions collapsed to size 1.
  const Layout *collapsed(const Layout *l, Type from, Type to) {
    LinearLayout ll = *toLinearLayout(*l, to.shape());
    for (size_t d = 0; d < from.shape().size(); ++d)
      if (from.shape()[d] == 1 && to.shape()[d] != 1) ll = ll.sliced(d).withInsertedDim(d);
    return toLayoutAttribute(ll);
  }

  void want(Value *v, const Layout *l) {
    if (!v->type().isTile() || !desired_.emplace(v, l).second) return;
    Operation *def = v->definingOp();
    if (!def) {  // a loop-carried value: its initial value, the loop's result and what the body yields
      Operation *loop = v->ownerBlock()->parentOp();
      if (loop && loop->is(OpCode::For) && v->index() >= 1) {
        unsigned k = v->index() - 1;
        want(loop->result(k), l);
        want(loop->operand(3 + k), l);
        if (Operation *y = v->ownerBlock()->terminator()) want(y->operand(k), l);
      }
      return;
    }
    if (!def || def->numRegions() || def->numResults() != 1 || !def->hasTrait(kPure)) return;
    if (def->is(OpCode::Broadcast)) return want(def->operand(0), collapsed(l, def->operand(0)->type(), v->type()));
    if (def->is(OpCode::ExpandDims)) {
      size_t axis = size_t(def->attr("axis")->getInt());
      return want(def->operand(0), toLayoutAttribute(toLinearLayout(*l, v->type().shape())->sliced(axis)));
    }
    if (def->is(OpCode::Trans) || def->is(OpCode::Reshape) || def->is(OpCode::Join) || def->is(OpCode::Split) ||
        def->is(OpCode::Cat) || def->is(OpCode::Dot))
      return;
    for (Value *operand : def->operands())
      if (operand->type().isTile() && operand->type().shape() == v->type().shape()) want(operand, l);
  }

  std::unordered_map<const Value *, const Layout *> desired_;
  // How many ops a value may take to be re-created in another layout
  // (a tree: shared operands count once per use), rather than converted.
  static constexpr int kCheapOps = 24;
  std::map<std::pair<Value *, const Layout *>, Value *> outside_;  // outsideInLayout's values

  // The target's answer for a dot, asked once.
  std::optional<DotLayouts> dotLayouts(const Operation &dot) {
    auto it = dotAnswers_.find(&dot);
    if (it == dotAnswers_.end())
      it = dotAnswers_.emplace(&dot, dotHook_ ? dotHook_(dot, module_) : std::nullopt).first;
    return it->second;
  }
  std::unordered_map<const Operation *, std::optional<DotLayouts>> dotAnswers_;

  // Triton's blocked layout with `perThread` elements along order[0], lanes
  // and then warps spread over the dimensions fastest first; what is left over
  // wraps (broadcasts) along the fastest dimension.
  const Layout *blocked(const std::vector<int64_t> &shape, std::vector<int64_t> order, int64_t perThread,
                        int64_t firstLanes = 0) {
    return distributed(shape, order[0], perThread, order, firstLanes, order);
  }

  // A blocked layout of `perThread` elements along dimension `vector`,
  // lanes spread over the dimensions in `order` (at most `firstLanes` on
  // the first, 0: no limit) and warps in `warpOrder`; what is left over
  // wraps along order[0], the layout's fastest dimension.
  const Layout *distributed(const std::vector<int64_t> &shape, int64_t vector, int64_t perThread,
                            const std::vector<int64_t> &order, int64_t firstLanes,
                            const std::vector<int64_t> &warpOrder) {
    size_t r = shape.size();
    std::vector<int64_t> spt(r, 1), tpw(r, 1), wpc(r, 1), left = shape;
    spt[size_t(vector)] = std::min(perThread, shape[size_t(vector)]);
    left[size_t(vector)] /= spt[size_t(vector)];
    int64_t lanes = lanes_, warps = warps_;
    for (int64_t d : order) {
      int64_t t = std::min(lanes, left[size_t(d)]);
      if (d == order[0] && firstLanes > 0) t = std::min(t, firstLanes);
      tpw[size_t(d)] = t, lanes /= t, left[size_t(d)] /= t;
    }
    tpw[size_t(order[0])] *= lanes;
    for (int64_t d : warpOrder) {
      int64_t w = std::min(warps, left[size_t(d)]);
      wpc[size_t(d)] = w, warps /= w, left[size_t(d)] /= w;
    }
    wpc[size_t(order[0])] *= warps;
    return Layout::get("blocked", {{"size_per_thread", spt}, {"threads_per_warp", tpw}, {"warps_per_cta", wpc},
                                   {"order", order}});
  }

  const Layout *defaultLayout(Type t) {
    std::vector<int64_t> order;
    for (int64_t d = t.rank() - 1; d >= 0; --d) order.push_back(d);
    return blocked(t.shape(), order, 1);
  }

  // Coalesced for a tile of pointers: the most contiguous dimension first.
  const Layout *coalesced(const Value *ptrs) {
    Type t = ptrs->type();
    const AxisInfo &info = axis_.get(ptrs);
    std::vector<int64_t> order;
    for (int64_t d = t.rank() - 1; d >= 0; --d) order.push_back(d);
    std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {  // ties: the later dimension first
      int64_t ca = info.contiguity[size_t(a)], cb = info.contiguity[size_t(b)];
      return ca != cb ? ca > cb : a > b;
    });
    int64_t bytes = std::max<int64_t>(1, t.pointee().bitWidth() / 8);
    int64_t d0 = order[0];
    int64_t aligned = std::max<int64_t>(1, std::min(info.divisibility[size_t(d0)], AxisInfo::kMaxDivisor) / bytes);
    int64_t limit = std::min(std::min(info.contiguity[size_t(d0)], aligned), std::max<int64_t>(1, 16 / bytes));
    int64_t perThread = 1;
    while (perThread * 2 <= limit) perThread *= 2;
    return blocked(t.shape(), order, std::max<int64_t>(1, perThread));
  }

  // A copy into a buffer contiguous along another dimension than its
  // pointers (a 2-d stage pipeline-loops keeps k-major for the matrix
  // unit) moves one element per thread, 8 lanes along the pointers'
  // contiguous dimension and 4 along the buffer's: each warp reads whole
  // 32-byte sectors of 4-byte elements, and writes 8 rows of the swizzled
  // buffer (8 phases of 128-byte rows, or 4 of two 64-byte rows) at 4
  // consecutive elements each, 32 different banks. Coalesced as usual, its
  // lanes would all write one column: 16 rows to a bank.
  const Layout *asyncCopyLayout(const Operation *copy) {
    const Layout *l = coalesced(copy->operand(1));
    int64_t to = bufferFast(copy->operand(0)->type());
    const std::vector<int64_t> *ptrOrder = l->param("order");
    if (to < 0 || !ptrOrder || (*ptrOrder)[0] == to) return l;
    return blocked(copy->operand(1)->type().shape(), {1 - to, to}, 1, 8);
  }

  // The fast (contiguous) dimension of a rank-2 shared buffer, or -1.
  static int64_t bufferFast(Type buffer) {
    const std::vector<int64_t> *order = buffer.layout() ? buffer.layout()->param("order") : nullptr;
    return buffer.rank() == 2 && order && order->size() == 2 ? (*order)[0] : -1;
  }

  // A tile read from one buffer and stored to another contiguous along the
  // other dimension (a stage pipeline-loops copies k-major for the matrix
  // unit): 16 bytes per thread along the destination's contiguous
  // dimension, so that each thread stores whole 16-byte vectors, and 8
  // lanes along the source's, each phase of 8 lanes storing to 8 rows of
  // the swizzled destination at 8 different phases (no bank conflicts);
  // the reads are single elements, two lanes to a bank.
  const Layout *bufferTransposeLayout(const Operation *store) {
    const Operation *load = store->operand(1)->definingOp();
    if (!load || !load->is(OpCode::LocalLoad)) return nullptr;
    Type tile = store->operand(1)->type();
    int64_t from = bufferFast(load->operand(0)->type()), to = bufferFast(store->operand(0)->type());
    if (from < 0 || to < 0 || from == to) return nullptr;
    int64_t perThread = std::max<int64_t>(1, 16 / std::max(1, tile.element().bitWidth() / 8));
    return distributed(tile.shape(), to, perThread, {from, to}, 8, {to, from});
  }

  // The layout of a load's, store's or atomic's tiles.
  const Layout *memoryLayout(const Operation *op) {
    const Layout *l = op->is(OpCode::Store) ? storeInDotLayout(op) : nullptr;
    return l ? l : coalesced(op->operand(0));
  }

  // The dot whose result `v` is, through elementwise ops of its shape and
  // the loops that carry it, if any.
  const Operation *sourceDot(const Value *v, int depth = 0) {
    const Operation *d = v->definingOp();
    if (!d || depth > 16) return nullptr;
    if (d->is(OpCode::Dot)) return d;
    if (d->is(OpCode::For)) return sourceDot(d->region(0).block().terminator()->operand(v->index()), depth + 1);
    if (!d->hasTrait(kElementwise) && !d->is(OpCode::ConvertLayout)) return nullptr;
    for (const Value *o : d->operands())
      if (o->type().isTile() && o->type().shape() == v->type().shape())
        if (const Operation *dot = sourceDot(o, depth + 1)) return dot;
    return nullptr;
  }

  // A store of a dot's result keeps the dot's layout where that gives each
  // thread runs of at least 4 elements and 8 bytes along the pointers'
  // contiguous dimension (AMD's transposed MFMA accumulators): the tile goes
  // out as it is, as Triton stores it, without a trip through shared memory.
  const Layout *storeInDotLayout(const Operation *store) {
    const Value *v = store->operand(1);
    if (v->type().rank() != 2) return nullptr;
    const Operation *dot = sourceDot(v);
    std::optional<DotLayouts> dl = dot ? dotLayouts(*dot) : std::nullopt;
    if (!dl || !dl->acc) return nullptr;
    const std::vector<int64_t> *order = coalesced(store->operand(0))->param("order");
    std::optional<LinearLayout> acc = toLinearLayout(*dl->acc, v->type().shape());
    if (!order || !acc) return nullptr;
    size_t fast = size_t((*order)[0]);
    int64_t run = 1;
    for (const auto &basis : acc->bases("register")) {
      bool along = basis[fast] == run;
      for (size_t d = 0; d < basis.size(); ++d) along &= d == fast || basis[d] == 0;
      if (!along) break;
      run *= 2;
    }
    int64_t bytes = std::max(1, v->type().element().bitWidth() / 8);
    return run >= 4 && run * bytes >= 8 ? dl->acc : nullptr;
  }

  static Type withLayout(Type t, const Layout *l) { return Type::tile(t.shape(), t.element(), l); }

  void setLayout(Value *v, const Layout *l) {
    if (v->type().isTile()) v->setType(withLayout(v->type(), l));
  }

  // Makes operand i of `op` have layout `l`: a cheap computation (of
  // constants, splats, aranges and scalars, through elementwise ops,
  // expand_dims and broadcasts) is re-created in `l`, a broadcast from its
  // operand, anything else converted.
  void convertOperand(Operation *op, unsigned i, const Layout *l) {
    Value *v = op->operand(i);
    if (!v->type().isTile() || v->type().layout() == l) return;
    Builder b;
    b.setInsertionPoint(op);
    b.setLoc(op->loc());
    if (Value *x = rebuilt(v, l, b, op->parentBlock())) {
      op->setOperand(i, x);
      return;
    }
    Operation *def = v->definingOp();
    // A broadcast is re-created in `l` from its (smaller) operand, converted
    // to the matching collapsed layout if it is not in it already.
    if (def && def->is(OpCode::Broadcast) && def->parentBlock() == op->parentBlock()) {
      Value *source = def->operand(0);
      if (Operation *c = source->definingOp(); c && c->is(OpCode::ConvertLayout)) source = c->operand(0);
      Value *copy = b.createValue(OpCode::Broadcast, {source}, withLayout(v->type(), l), def->attrs());
      convertOperand(copy->definingOp(), 0, collapsed(l, def->operand(0)->type(), v->type()));
      op->setOperand(i, copy);
      return;
    }
    // A value from outside a loop is re-created (if cheap) or converted
    // once, where it is defined.
    if (def && def->parentBlock() != op->parentBlock()) {
      op->setOperand(i, outsideInLayout(v, l));
      return;
    }
    op->setOperand(i, b.createValue(OpCode::ConvertLayout, {v}, withLayout(v->type(), l)));
  }

  // `v` computed again in layout `l` at the builder when that is cheap
  // (rematerialize's check, then its build), else null.
  Value *rebuilt(Value *v, const Layout *l, Builder &b, Block *blk) {
    int budget = kCheapOps;
    if (!rematerialize(v, l, b, blk, budget, /*build=*/false)) return nullptr;
    budget = kCheapOps;
    return rematerialize(v, l, b, blk, budget, /*build=*/true);
  }

  // `v` in layout `l` where it is defined: re-created if cheap, else
  // converted (once for every user that asks).
  Value *outsideInLayout(Value *v, const Layout *l) {
    auto key = std::make_pair(v, l);
    if (auto it = outside_.find(key); it != outside_.end()) return it->second;
    Operation *def = v->definingOp();
    std::vector<Operation *> ops = def->parentBlock()->opsVector();
    Builder b;
    b.setInsertionPoint(*(std::find(ops.begin(), ops.end(), def) + 1));
    b.setLoc(def->loc());
    Value *made = rebuilt(v, l, b, def->parentBlock());
    if (!made) made = b.createValue(OpCode::ConvertLayout, {v}, withLayout(v->type(), l));
    return outside_[key] = made;
  }

  // `v` computed again in layout `l` at the builder (null if it is not
  // cheap); with build = false, only whether it can be.
  Value *rematerialize(Value *v, const Layout *l, Builder &b, Block *blk, int &budget, bool build) {
    Operation *def = v->definingOp();
    if (!def || def->numResults() != 1 || def->numRegions() || --budget < 0) return nullptr;
    Type want = withLayout(v->type(), l);
    if (def->is(OpCode::Splat) || def->is(OpCode::Constant) || def->is(OpCode::Arange))
      return build ? b.create(def->code(), def->operands(), {want}, def->attrs())->result() : v;
    // Defined in an enclosing block (outside a loop): made once there.
    if (def->parentBlock() != blk) return build ? outsideInLayout(v, l) : v;
    std::vector<Value *> operands;
    if (def->is(OpCode::Broadcast)) {
      Value *x = rematerialize(def->operand(0), collapsed(l, def->operand(0)->type(), v->type()), b, blk, budget, build);
      if (!x) return nullptr;
      operands.push_back(x);
    } else if (def->is(OpCode::ExpandDims)) {
      size_t axis = size_t(def->attr("axis")->getInt());
      const Layout *inner = toLayoutAttribute(toLinearLayout(*l, v->type().shape())->sliced(axis));
      Value *x = rematerialize(def->operand(0), inner, b, blk, budget, build);
      if (!x) return nullptr;
      operands.push_back(x);
    } else if (def->hasTrait(kElementwise) && def->hasTrait(kPure)) {
      for (Value *o : def->operands()) {
        Value *x = o->type().isTile() ? rematerialize(o, l, b, blk, budget, build) : o;
        if (!x) return nullptr;
        operands.push_back(x);
      }
    } else {
      return nullptr;
    }
    return build ? b.create(def->code(), operands, {want}, def->attrs())->result() : v;
  }

  const Layout *layoutOf(const Value *v) { return v->type().layout(); }

  LinearLayout linear(const Value *v) { return *toLinearLayout(*v->type().layout(), v->type().shape()); }

  void assign(Operation *op) {
    switch (op->code()) {
    case OpCode::Load:
    case OpCode::Store:
    case OpCode::AtomicRmw:
    case OpCode::AtomicCas: {
      if (!op->operand(0)->type().isTile()) return;
      const Layout *l = memoryLayout(op);
      for (unsigned i = 0; i < op->numOperands(); ++i) convertOperand(op, i, l);
      for (Value *r : op->results()) setLayout(r, l);
      return;
    }
    case OpCode::AsyncCopy: {
      const Layout *l = asyncCopyLayout(op);
      for (unsigned i = 1; i < op->numOperands(); ++i) convertOperand(op, i, l);
      return;
    }
    case OpCode::Reduce:
    case OpCode::Scan: {
      const Layout *l = layoutOf(op->operand(0)) ? layoutOf(op->operand(0)) : defaultLayout(op->operand(0)->type());
      for (unsigned i = 0; i < op->numOperands(); ++i) convertOperand(op, i, l);
      int64_t axis = op->attr("axis")->getInt();
      for (Value *r : op->results()) {
        if (!r->type().isTile()) continue;
        setLayout(r, op->is(OpCode::Scan) ? l : toLayoutAttribute(linear(op->operand(0)).sliced(size_t(axis))));
      }
      return;
    }
    case OpCode::ExpandDims:
      if (layoutOf(op->operand(0)))
        return setLayout(op->result(), toLayoutAttribute(linear(op->operand(0)).withInsertedDim(size_t(op->attr("axis")->getInt()))));
      break;
    case OpCode::Trans:
      if (layoutOf(op->operand(0)))
        return setLayout(op->result(), toLayoutAttribute(linear(op->operand(0)).permuted(op->attr("order")->getInts())));
      break;
    case OpCode::Reshape:  // each thread keeps its elements (a full reduction's flattening moves nothing)
      if (layoutOf(op->operand(0)) && op->result()->type().isTile())
        if (auto r = linear(op->operand(0)).reshaped(op->result()->type().shape()))
          return setLayout(op->result(), toLayoutAttribute(*r));
      break;
    case OpCode::Broadcast: {
      // The operand must hold, in each thread, what the result broadcasts:
      // the result's layout with the broadcast dimensions collapsed.
      auto d = desired_.find(op->result());
      const Layout *l = d != desired_.end() ? d->second : defaultLayout(op->result()->type());
      setLayout(op->result(), l);
      convertOperand(op, 0, collapsed(l, op->operand(0)->type(), op->result()->type()));
      return;
    }
    case OpCode::For: {
      Block &body = op->region(0).block();
      for (unsigned k = 0; k < op->numResults(); ++k) {
        Value *init = op->operand(3 + k);
        if (!init->type().isTile()) continue;
        auto d = desired_.find(body.argument(k + 1));
        if (d != desired_.end()) convertOperand(op, 3 + k, d->second);
        else if (!init->type().layout()) convertOperand(op, 3 + k, defaultLayout(init->type()));
        setLayout(body.argument(k + 1), layoutOf(op->operand(3 + k)));
        setLayout(op->result(k), layoutOf(op->operand(3 + k)));
      }
      block(body);
      Operation *y = body.terminator();
      for (unsigned k = 0; k < op->numResults(); ++k)
        if (op->result(k)->type().isTile()) convertOperand(y, k, layoutOf(op->result(k)));
      return;
    }
    case OpCode::If: {
      block(op->region(0).block());
      block(op->region(1).block());
      Operation *yt = op->region(0).block().terminator(), *ye = op->region(1).block().terminator();
      for (unsigned k = 0; k < op->numResults(); ++k) {
        if (!op->result(k)->type().isTile()) continue;
        const Layout *l = layoutOf(yt->operand(k)) ? layoutOf(yt->operand(k)) : defaultLayout(op->result(k)->type());
        convertOperand(yt, k, l);
        convertOperand(ye, k, l);
        setLayout(op->result(k), l);
      }
      return;
    }
    case OpCode::While: {
      Block &before = op->region(0).block(), &after = op->region(1).block();
      for (unsigned k = 0; k < op->numOperands(); ++k) {
        if (!op->operand(k)->type().isTile()) continue;
        if (!layoutOf(op->operand(k))) convertOperand(op, k, defaultLayout(op->operand(k)->type()));
        setLayout(before.argument(k), layoutOf(op->operand(k)));
      }
      block(before);
      Operation *cond = before.terminator();
      for (unsigned k = 0; k + 1 < cond->numOperands(); ++k) {
        Value *v = cond->operand(k + 1);
        if (!v->type().isTile()) continue;
        if (!layoutOf(v)) convertOperand(cond, k + 1, defaultLayout(v->type()));
        setLayout(after.argument(k), layoutOf(cond->operand(k + 1)));
        setLayout(op->result(k), layoutOf(cond->operand(k + 1)));
      }
      block(after);
      Operation *y = after.terminator();
      for (unsigned k = 0; k < op->numOperands(); ++k)
        if (op->operand(k)->type().isTile()) convertOperand(y, k, layoutOf(before.argument(k)));
      return;
    }
    case OpCode::Dot: {
      std::optional<DotLayouts> want = dotLayouts(*op);
      if (!want) break;
      const Layout *acc = want->acc ? want->acc : layoutOf(op->operand(2)) ? layoutOf(op->operand(2))
                                                                          : defaultLayout(op->result()->type());
      const Layout *operandLayouts[3] = {want->a, want->b, acc};
      for (unsigned i = 0; i < 3; ++i) {
        const Layout *l = operandLayouts[i];
        convertOperand(op, i, l ? l : layoutOf(op->operand(i)) ? layoutOf(op->operand(i)) : defaultLayout(op->operand(i)->type()));
      }
      return setLayout(op->result(), acc);
    }
    case OpCode::AsyncWait:
      // The values it makes final pass through as they are (the registers
      // an asynchronous dot still writes must be waited for, not moved).
      for (unsigned i = 0; i < op->numOperands(); ++i) {
        if (!op->operand(i)->type().isTile()) continue;
        if (!layoutOf(op->operand(i))) convertOperand(op, i, defaultLayout(op->operand(i)->type()));
        setLayout(op->result(i), layoutOf(op->operand(i)));
      }
      return;
    case OpCode::Yield:
    case OpCode::Condition:
    case OpCode::Return:
      return;  // their parents decide
    default:
      break;
    }
    // Everything else: results in the first tile operand's layout when the
    // shapes agree (elementwise ops), else in the default layout; operands follow.
    const Layout *l = nullptr;
    // A layout already present wins (running the pass again changes nothing).
    if (op->numResults() >= 1 && op->result(0)->type().isTile()) l = op->result(0)->type().layout();
    // A narrowing cast stays in its operand's layout: a conversion after it moves fewer bytes.
    if (!l && op->is(OpCode::Cast) && op->operand(0)->type().isTile() && layoutOf(op->operand(0)) &&
        op->result()->type().element().bitWidth() < op->operand(0)->type().element().bitWidth()) {
      l = layoutOf(op->operand(0));
      desired_.erase(op->result());  // its users convert it instead
    }
    if (!l && op->numResults() == 1 && desired_.count(op->result())) l = desired_[op->result()];
    // A splat, constant or arange operand is made again in any layout for
    // free, so an operand computed otherwise decides first (`s * x` with a
    // scalar `s`: x's layout, not the splat's default one).
    auto remade = [](const Value *v) {
      const Operation *d = v->definingOp();
      return d && (d->is(OpCode::Splat) || d->is(OpCode::Constant) || d->is(OpCode::Arange));
    };
    for (int pass = 0; pass < 2 && !l; ++pass)
      for (Value *v : op->operands())
        if (v->type().isTile() && op->numResults() && v->type().shape() == op->result(0)->type().shape() &&
            layoutOf(v) && (pass == 1 || !remade(v))) {
          l = layoutOf(v);
          break;
        }
    for (unsigned i = 0; i < op->numOperands(); ++i) {
      Value *v = op->operand(i);
      if (!v->type().isTile()) continue;
      const Layout *want = (l && v->type().shape() == op->result(0)->type().shape()) ? l
                           : layoutOf(v) ? layoutOf(v) : defaultLayout(v->type());
      convertOperand(op, i, want);
    }
    // Inline assembly's results are its operands' elements: their layout, always.
    bool elementwise = op->is(OpCode::InlineAsm) && l;
    for (Value *r : op->results())
      if (r->type().isTile() && !r->type().layout()) {
        auto d = desired_.find(r);
        setLayout(r, d != desired_.end() && !elementwise ? d->second
                     : l && r->type().shape() == op->result(0)->type().shape() ? l : defaultLayout(r->type()));
      }
  }

  int warps_, lanes_;
  const AttrDict &module_;
  const AxisAnalysis &axis_;
  DotLayoutHook dotHook_;
};

} // namespace

void registerDotLayouts(const std::string &target, DotLayoutHook hook) {
  std::lock_guard<std::mutex> lock(dotHooksMutex);
  dotHooks()[target] = std::move(hook);
}

void clearDotLayoutsForTesting(const std::string &target) {
  std::lock_guard<std::mutex> lock(dotHooksMutex);
  dotHooks().erase(target);
}

void assignLayouts(Module &m) {
  for (auto &f : m.functions()) {
    AxisAnalysis axis(*f);  // computed on the tile IR, before any type changes
    Assigner assigner(m.attrs(), axis, dotHookFor(m.attrs().getString("target", "")));
    assigner.seedFromDots(f->entry());
    assigner.seedFromLoopAccumulators(f->entry());
    assigner.seedFromAnchors(f->entry());
    assigner.block(f->entry());
  }
}

} // namespace tessera::ir
