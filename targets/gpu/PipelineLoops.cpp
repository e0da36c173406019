// pipeline-loops: software pipelining of the global loads that feed dots in
// a `for` loop (Triton's num_stages), at the tile level, before layouts.
//
// A loop of S >= 2 stages (its `num_stages` attribute, else the module's)
// keeps S buffers per load in shared memory. Before the loop, the copies
// of iterations 0 .. S-2 are issued (async_copy, one group each); iteration
// i waits until its group has landed (async_wait: S-2 groups may still be
// in flight), reads its tiles back (local_load), runs the rest of the body,
// and issues the copies of iteration i + S-1 into the buffer iteration i-1
// used. The copies of iterations past the end are masked off (they
// read nothing), and all copies are waited for after the loop, by a wait
// that also takes the dot accumulators the loop carries out (a target's
// matrix unit may finish them in the background: Hopper's wgmma).
//
// Buffers are swizzled along the pointers' contiguous dimension, rows
// longer than the module's shared_atom_bytes cut into atoms (ir/Layouts.h).
// Operands the matrix unit reads only k-major (module attribute
// k_major_dot_bits: Hopper's tf32) whose pointers are contiguous along m
// or n: each iteration reads its stage into registers and stores it to
// entry i % 2 of a k-major buffer, which the dots read (a wgmma of
// iteration i - 1 may still read the other entry); where those buffers
// do not fit in shared_memory_limit, the stage itself is k-major instead,
// copied one element at a time. A matrix unit that reads one operand of
// such a dot from registers (k_major_dot_registers: Hopper's wgmma) needs
// no copy of A, nor of B when A is k-major (Target.h).
// With async_dots (dots that may still read a stage one iteration later)
// and more than four warps, each buffer has one spare entry if it fits in
// shared_memory_limit, and the loop says so (spare_stages): the copies of
// iteration i + S-1 then overwrite the entry of iteration i-2, not i-1.
// Where it does not fit and S >= 4, one of the S entries is the spare
// (copies S-2 iterations ahead). Module attribute no_spare_stages: none
// (the C API compiles a kernel again so when, with them, it needed more
// shared memory than the target has: a spare fits its loop's stages, not
// what the rest of the kernel holds beside them).
//
// Tensor maps (module attribute tensor_maps: NVIDIA's TMA): when every
// such load is a desc_load whose tensor map can be built from the kernel's
// arguments (a host descriptor, or one the kernel made: TensorMaps.h) and
// whose block a tensor map can copy in the buffer's own swizzle (rows of 32, 64 or 128 bytes, or
// 128-byte atoms; a multiple of 8 rows, at most 256), the copies are
// tma_copy into the stage, each completing on its own mbarrier (one per
// load and stage entry), and iteration i waits for that mbarrier's phase
// (i / entries) % 2 in place of async_wait, just before the first op that
// uses the load: attention's Q K^T and softmax need not wait for V. When
// every load is first used by one op (a matmul's dot), they share one
// mbarrier per entry, which counts an arrival from each: one wait per
// iteration; otherwise each load has its own. The
// loop adds a tensor_map argument per descriptor (ir/IR.h); the mbarriers
// are invalidated after it.
//
// Warp specialization (a loop with `warp_specialize`, tl.range's, copied by
// tensor maps, at the kernel's top level, with only register work before
// it): a producer warp issues every copy, in its own loop ahead of the
// others, waiting before it reuses an entry until each of the num_warps
// consumer warps has arrived on that entry's second mbarrier; those run
// the loop without copies or barriers, and arrive on the entry of
// iteration i-1 once iteration i's dots have been issued (a wgmma then
// leaves only iteration i's group in flight). No spare entry is needed.
// The producer's warps (a warpgroup: Hopper moves registers between
// warpgroups) join the kernel's (ir/Ops.def, warp_specialize). A
// persistent kernel's tile loop with `warp_specialize` grants it to the
// loop inside (specializeInTileLoop): the producer then runs its own tile
// loop, and iterations are numbered across tiles.
//
// A target without asynchronous copies (module attribute async_copy = 0:
// AMD GPUs; or TESSERA_PIPELINE_REGISTERS=1, to test this form anywhere)
// stages through registers instead, as Triton's AMD pipeliner does: one
// buffer per load; before the loop, iteration 0's tiles are loaded and
// stored to it; iteration i reads its tiles back, loads iteration i+1's
// into registers before its other work, and stores them to the buffer
// after it (insert-barriers orders the store after every read).
//
// To compute iteration i + S-1's pointers and masks early, the ops they
// depend on in the body (the "slice": pure, region-free ops of the
// induction variable, loop invariants and loop-carried values computed
// only by the slice itself, such as `ptrs += BLOCK_K`) are cloned: into the
// prologue once per early iteration, and into the body on values carried
// S-1 iterations ahead. A load qualifies when it is in the loop's body, all
// its users are dots (as an operand) or transposes of it that only dots use
// (`b.T`, read back through a local_trans view of the stage, so that the
// matrix unit sees the stage's true major order), its tile has rank 2 and
// its slice is as above; the step must be a positive constant.
#include "ir/Builder.h"
#include "ir/Clone.h"
#include "ir/Layouts.h"
#include "ir/analysis/AxisInfo.h"
#include "ir/transforms/Passes.h"
#include "targets/gpu/Passes.h"
#include "targets/gpu/TensorMaps.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace tessera::targets::gpu {
namespace {

using ir::OpCode;

bool isLoad(const ir::Operation *op) { return op->is(OpCode::Load) || op->is(OpCode::DescLoad); }

bool feedsDotsDirectly(const ir::Value *v) {
  if (!v->hasUses()) return false;
  for (const ir::Operation *u : v->users())
    if (!u->is(OpCode::Dot) || u->operand(2) == v) return false;
  return true;
}

bool isTranspose2d(const ir::Operation *op) {
  if (!op->is(OpCode::Trans) || op->result()->type().rank() != 2) return false;
  const ir::Attribute *order = op->attr("order");
  return order && order->isInts() && order->getInts() == std::vector<int64_t>{1, 0};
}

// Dot operands, directly or through a transpose (`b.T`), which then reads
// the stage through a transposed view.
bool feedsOnlyDots(const ir::Value *v) {
  if (!v->hasUses()) return false;
  for (const ir::Operation *u : v->users()) {
    if (isTranspose2d(u) && u->parentBlock() == v->definingOp()->parentBlock() && feedsDotsDirectly(u->result()))
      continue;
    if (!u->is(OpCode::Dot) || u->operand(2) == v) return false;
  }
  return true;
}

class Pipeliner {
public:
  struct Facts {
    bool throughRegisters = false;
    int64_t atomBytes = 0;        // shared_atom_bytes
    bool spareStage = false;      // async_dots with more than four warps
    int64_t sharedLimit = 0;      // shared_memory_limit (0: unknown)
    bool tensorMaps = false;      // tensor_maps
    bool asyncDots = false;       // async_dots
    int64_t kMajorDotBits = 0;    // k_major_dot_bits
    bool kMajorDotRegisters = false;  // k_major_dot_registers
    int64_t numWarps = 4;             // num_warps
  };
  // `specialize`: the loop asked for warp specialization (its attribute,
  // which the caller removed: a pipelined loop has it only if granted).
  Pipeliner(ir::Operation &loop, int stages, bool specialize, const Facts &facts, const ir::AxisAnalysis &axis)
      : loop_(loop), stages_(facts.throughRegisters ? 2 : stages), specialize_(specialize),
        registers_(facts.throughRegisters), atomBytes_(facts.atomBytes), facts_(facts), axis_(axis) {}

  void run() {
    ir::Block &body = loop_.region(0).block();
    const ir::Operation *stepDef = loop_.operand(2)->definingOp();
    if (!stepDef || !stepDef->is(OpCode::Constant) || !stepDef->attr("value")->isInt()) return;
    step_ = stepDef->attr("value")->getInt();
    if (step_ <= 0) return;
    for (ir::Operation *op : body.opsVector())
      if (isLoad(op) && op->result()->type().isTile() && op->result()->type().rank() == 2 &&
          feedsOnlyDots(op->result()))
        loads_.push_back(op);
    if (loads_.empty() || !computeSlice(body)) return;
    tma_ = !registers_ && facts_.tensorMaps;
    for (ir::Operation *ld : loads_) {
      std::optional<TensorMapShape> shape;
      if (ld->is(OpCode::DescLoad)) shape = tensorMapShape(*ld, atomBytes_);
      tma_ = tma_ && shape;
      if (shape) mapShapes_.push_back(*shape);
    }
    ws_ = tma_ && facts_.asyncDots && carried_.empty() &&
          ((specialize_ && onlyRegisterWorkBefore(loop_)) || specializeInTileLoop());
    rewrite(body);
  }

private:
  bool computeSlice(ir::Block &body) {
    std::vector<ir::Value *> work;
    for (ir::Operation *ld : loads_)
      for (ir::Value *v : ld->operands()) work.push_back(v);
    ir::Operation *yield = body.terminator();
    while (!work.empty()) {
      ir::Value *v = work.back();
      work.pop_back();
      if (v->isBlockArgument() && v->ownerBlock() == &body) {
        if (v->index() == 0 || !carried_.insert(v->index() - 1).second) continue;
        work.push_back(yield->operand(v->index() - 1));
        continue;
      }
      ir::Operation *def = v->definingOp();
      if (!def || def->parentBlock() != &body) continue;  // defined before the loop
      if (!slice_.insert(def).second) continue;
      if (!def->hasTrait(ir::kPure) || def->numRegions() || def->is(OpCode::Dot)) return false;
      for (ir::Value *o : def->operands()) work.push_back(o);
    }
    return true;
  }

  // Clones the slice for the iteration whose induction variable is `iv`
  // and whose carried values are `carried` (by index); returns the map.
  ir::ValueMap cloneSlice(ir::Builder &b, ir::Block &body, ir::Value *iv, const std::map<unsigned, ir::Value *> &carried,
                          const ir::ValueMap &outer = {}) {
    ir::ValueMap map = outer;
    map[body.argument(0)] = iv;
    for (auto [k, v] : carried) map[body.argument(k + 1)] = v;
    for (ir::Operation *op : body.opsVector())
      if (slice_.count(op)) ir::cloneOp(b, *op, map);
    return map;
  }

  // The operands of load `i` (pointers and mask from `map`), masked off
  // where `valid` (the iteration is before the loop's end) is false:
  // pointers, mask[, other].
  std::vector<ir::Value *> loadOperands(ir::Builder &b, const ir::ValueMap &map, ir::Value *valid, size_t i) {
    ir::Operation *ld = loads_[i];
    ir::Value *mask = b.splat(valid, ld->result()->type().shape());
    if (ld->numOperands() > 1) mask = b.sameType(OpCode::And, {ir::lookupOrSelf(map, ld->operand(1)), mask});
    std::vector<ir::Value *> operands = {ir::lookupOrSelf(map, ld->operand(0)), mask};
    if (ld->numOperands() > 2) operands.push_back(ir::lookupOrSelf(map, ld->operand(2)));
    return operands;
  }

  // Bytes of one stage entry of every buffer.
  static int64_t tileBytes(ir::Type t) { return t.numElements() * std::max(1, t.element().bitWidth() / 8); }

  int64_t stageBytes() const {
    int64_t bytes = 0;
    for (ir::Operation *ld : loads_) bytes += tileBytes(ld->result()->type());
    return bytes;
  }

  // Whether `loop` is at the kernel's top level with only work in
  // registers before it: a producer's extra warps run that code too, with
  // warp ids no layout has.
  static bool onlyRegisterWorkBefore(const ir::Operation &loop) {
    if (loop.parentOp()) return false;
    for (const auto &op : loop.parentBlock()->ops()) {
      if (op.get() == &loop) return true;
      switch (op->code()) {
      case OpCode::Constant: case OpCode::ProgramId: case OpCode::NumPrograms: case OpCode::Arange:
      case OpCode::Splat: case OpCode::Broadcast: case OpCode::ExpandDims: case OpCode::Hint: case OpCode::Assume:
        continue;
      case OpCode::LocalAlloc:
        if (op->numOperands()) return false;
        continue;
      default:
        if (!op->hasTrait(ir::kElementwise) || !op->hasTrait(ir::kPure)) return false;
      }
    }
    return false;
  }

  // A persistent kernel's tile loop that asked for warp specialization
  // (tutorial 09's `tl.range(..., warp_specialize=True)` over tiles), at
  // the kernel's top level with only register work before it, holding this
  // loop directly as its only loop, with bounds from before it: the
  // producer runs the tile loop too, recomputing from its induction
  // variable the values its copies need (pure ops of the tile loop's body,
  // `tileSlice_`), and iterations are numbered across tiles so the stages
  // and mbarrier phases carry on from one tile to the next. The consumers'
  // epilogue then overlaps the next tile's copies.
  bool specializeInTileLoop() {
    ir::Operation *outer = loop_.parentOp();
    if (!outer || !outer->is(OpCode::For) || !outer->attrs().getBool("warp_specialize", false) ||
        !onlyRegisterWorkBefore(*outer))
      return false;
    ir::Block &tileBody = outer->region(0).block();
    for (ir::Operation *op : tileBody.opsVector()) {
      if (op == &loop_) continue;
      bool loop = op->is(OpCode::For) || op->is(OpCode::While);
      auto visit = [&](ir::Operation *o) { loop = loop || o->is(OpCode::For) || o->is(OpCode::While); };
      for (unsigned r = 0; r < op->numRegions(); ++r) ir::Function::walkBlock(op->region(r).block(), visit);
      if (loop) return false;
    }
    for (unsigned i = 0; i < 3; ++i)
      if (within(loop_.operand(i), *outer)) return false;
    // The stages stay live through the epilogue, beside the buffer of
    // each tensor-map store it may make: all must fit.
    int64_t bytes = stageBytes() * stages_;
    for (ir::Operation *op : tileBody.opsVector())
      if (op->is(OpCode::DescStore)) bytes += tileBytes(op->operand(1)->type());
    if (facts_.sharedLimit > 0 && bytes > facts_.sharedLimit) return false;
    std::vector<const ir::Value *> work;
    for (const ir::Operation *op : slice_)
      for (const ir::Value *v : op->operands()) work.push_back(v);
    for (const ir::Operation *ld : loads_)
      for (const ir::Value *v : ld->operands()) work.push_back(v);
    std::set<const ir::Value *> seen;
    while (!work.empty()) {
      const ir::Value *v = work.back();
      work.pop_back();
      if (!seen.insert(v).second || !within(v, *outer) || within(v, loop_)) continue;
      if (v->isBlockArgument()) {
        if (v->ownerBlock() != &tileBody || v->index() != 0) return false;  // only the tile's induction variable
        continue;
      }
      ir::Operation *def = v->definingOp();
      if (def->parentBlock() != &tileBody || !def->hasTrait(ir::kPure) || def->numRegions()) return false;
      tileSlice_.insert(def);
      for (const ir::Value *o : def->operands()) work.push_back(o);
    }
    outer_ = outer;
    return true;
  }

  // Whether `v` is defined inside `op`'s regions.
  static bool within(const ir::Value *v, const ir::Operation &op) {
    const ir::Operation *at = v->isBlockArgument() ? v->ownerBlock()->parentOp() : v->definingOp();
    return at && (at == &op || op.isAncestorOf(at));
  }

  // The number (i32) of this loop's iterations before tile iteration
  // `tileIv` (trips_ per tile).
  ir::Value *iterationsBefore(ir::Builder &in, ir::Value *tileIv) {
    ir::Value *index = in.sameType(OpCode::Sub, {tileIv, outer_->operand(0)});
    index = in.sameType(OpCode::Div, {index, outer_->operand(2)});
    if (index->type() != ir::Type::i32()) index = in.cast(index, ir::Type::i32());
    return in.sameType(OpCode::Mul, {index, trips_});
  }

  // This loop's trip count (i32, at least 0), from its bounds.
  ir::Value *tripCount(ir::Builder &b) {
    ir::Value *lb = loop_.operand(0), *ub = loop_.operand(1), *step = loop_.operand(2);
    ir::Type t = lb->type();
    ir::Value *span = b.sameType(OpCode::Add, {b.sameType(OpCode::Sub, {ub, lb}), b.constantInt(step_ - 1, t)});
    ir::Value *trips = b.sameType(OpCode::Max, {b.sameType(OpCode::Div, {span, step}), b.constantInt(0, t)});
    return t != ir::Type::i32() ? b.cast(trips, ir::Type::i32()) : trips;
  }

  // The number (i32) of the iteration whose induction variable is `iv`,
  // counted from `before` (in a tile loop: the tiles' iterations before).
  ir::Value *iterationIndex(ir::Builder &in, ir::Value *iv, ir::Value *before = nullptr) {
    ir::Type ivT = iv->type(), i32 = ir::Type::i32();
    ir::Value *index = in.sameType(OpCode::Sub, {iv, loop_.operand(0)});
    if (step_ != 1) index = in.sameType(OpCode::Div, {index, in.constantInt(step_, ivT)});
    if (ivT != i32) index = in.cast(index, i32);
    return before ? in.sameType(OpCode::Add, {before, index}) : index;
  }

  // The producer (ws_): its own loop over the iterations, each waiting
  // until the consumers have released the entry it copies into (parity
  // 1 on an entry's first use passes at once), then issuing the copies.
  void produce(ir::Builder &b, ir::Block &body) {
    ir::AttrDict warps;
    warps.set("producer_warps", ir::Attribute(int64_t(4)));
    ir::Operation *ws = b.create(OpCode::WarpSpecialize, {}, {}, warps);
    ir::Builder pb(&ws->region(0).block());
    pb.setLoc(loop_.loc());
    // In a tile loop, the producer's own: the values its copies need,
    // then this loop's copies for the tile.
    ir::ValueMap tileMap;
    ir::Value *before = nullptr;
    ir::Builder tb = pb;
    if (outer_) {
      ir::Block &tileBody = outer_->region(0).block();
      ir::Operation *tiles = pb.create(OpCode::For, {outer_->operand(0), outer_->operand(1), outer_->operand(2)}, {});
      ir::Block &tiled = tiles->region(0).block();
      tileMap[tileBody.argument(0)] = tiled.addArgument(tileBody.argument(0)->type(), tileBody.argument(0)->nameHint());
      tb = ir::Builder(&tiled);
      tb.setLoc(outer_->loc());
      for (ir::Operation *op : tileBody.opsVector())
        if (tileSlice_.count(op)) ir::cloneOp(tb, *op, tileMap);
      before = iterationsBefore(tb, tileMap[tileBody.argument(0)]);
    }
    ir::Value *lb = loop_.operand(0);
    ir::Type ivT = lb->type(), i32 = ir::Type::i32();
    ir::Operation *producer = tb.create(OpCode::For, {lb, loop_.operand(1), loop_.operand(2)}, {});
    ir::Block &pbody = producer->region(0).block();
    ir::Value *iv = pbody.addArgument(ivT, body.argument(0)->nameHint());
    ir::Builder in(&pbody);
    in.setLoc(loop_.loc());
    ir::Value *index = iterationIndex(in, iv, before);
    ir::Value *slot = in.sameType(OpCode::Rem, {index, in.constantInt(entries_, i32)});
    ir::Value *use = in.sameType(OpCode::Div, {index, in.constantInt(entries_, i32)});
    ir::Value *parity = in.sameType(OpCode::And, {in.sameType(OpCode::Add, {use, in.constantInt(1, i32)}), in.constantInt(1, i32)});
    ir::AttrDict noBarrier;
    noBarrier.set("barrier", ir::Attribute(false));
    in.create(OpCode::MbarrierWait, {released_, slot, parity}, {}, noBarrier);
    issue(in, cloneSlice(in, body, iv, {}, tileMap), iv, slot);
    // The slice's tiles (a desc_load's pointers and masks) serve no copy.
    ir::eliminateDeadCode(pbody);
    in.yield({});
    if (outer_) {
      tb.yield({});
      ir::eliminateDeadCode(producer->parentOp()->region(0).block());
    }
    pb.yield({});
  }

  bool insideLoop(const ir::Operation *op) const {
    for (; op; op = op->parentOp())
      if (op == &loop_) return true;
    return false;
  }

  // Dots' A operands defined before the loop (attention's Q), where the
  // matrix unit reads operands from shared memory in the background
  // (async_dots: wgmma): kept there, in the form a stage has, instead of in
  // registers throughout the loop (Q of 128 x 128 f16 is 64 registers of
  // each of 128 threads). 16-bit elements, used in the loop only as A, and
  // only if it fits beside the stages. Returns (value, buffer) pairs.
  std::vector<std::pair<ir::Value *, ir::Value *>> keepInvariantOperands(ir::Builder &b, ir::Block &body) {
    std::vector<std::pair<ir::Value *, ir::Value *>> out;
    if (!facts_.asyncDots || registers_ || ws_) return out;
    int64_t bytes = stageBytes() * entries_;
    for (ir::Operation *op : body.opsVector()) {
      if (!op->is(OpCode::Dot)) continue;
      ir::Value *a = op->operand(0);
      ir::Type t = a->type();
      bool before = a->isBlockArgument() ? !insideLoop(a->ownerBlock()->parentRegion()->parentOp())
                                         : !insideLoop(a->definingOp());
      if (!before || !t.isTile() || t.rank() != 2 || t.element().bitWidth() != 16 || !t.element().isFloat()) continue;
      bool onlyA = true;
      for (const ir::Operation *u : a->users())
        if (insideLoop(u)) onlyA = onlyA && u->is(OpCode::Dot) && u->parentBlock() == &body && u->operand(0) == a &&
                                  u->operand(1) != a && u->operand(2) != a;
      bool seen = false;
      for (auto &kept : out) seen = seen || kept.first == a;
      int64_t size = t.numElements() * 2;
      if (!onlyA || seen || (facts_.sharedLimit > 0 && bytes + size > facts_.sharedLimit)) continue;
      bytes += size;
      ir::Type buffer = ir::Type::buffer(t.shape(), t.element(), ir::swizzledSharedLayout(t.shape(), {1, 0}, 2, 0, atomBytes_));
      ir::Value *kept = earlierCopy(a, buffer);
      out.push_back({a, kept ? kept : b.createValue(OpCode::LocalAlloc, {a}, buffer)});
    }
    return out;
  }

  // A shared copy of `a` that an earlier pipelined loop of the same block
  // made (attention's causal second loop reads the first one's Q): reusing
  // it keeps `a` out of registers through that loop.
  ir::Value *earlierCopy(ir::Value *a, ir::Type buffer) {
    for (ir::Operation *u : a->users()) {
      if (!u->is(OpCode::LocalAlloc) || u->result()->type() != buffer || u->parentBlock() != loop_.parentBlock())
        continue;
      for (const auto &op : loop_.parentBlock()->ops()) {
        if (op.get() == u) return u->result();
        if (op.get() == &loop_) break;
      }
    }
    return nullptr;
  }

  // Copies of iteration `iv`'s loads into stage `slot` of each buffer,
  // masked off past the loop's end, as one group (or by tensor maps,
  // completing on the stage's mbarrier).
  void issue(ir::Builder &b, const ir::ValueMap &map, ir::Value *iv, ir::Value *slot) {
    ir::Value *valid = b.cmp("lt", iv, loop_.operand(1));
    if (tma_) {
      for (size_t i = 0; i < loads_.size(); ++i) {
        std::vector<ir::Value *> operands = {b.createValue(OpCode::LocalView, {buffers_[i], slot}, views_[i]), maps_[i],
                                             barriers_, barrierEntry(b, i, slot), valid};
        int64_t rank = loads_[i]->result()->type().rank();
        for (unsigned c = loads_[i]->numOperands() - unsigned(rank); c < loads_[i]->numOperands(); ++c)
          operands.push_back(b.cast(ir::lookupOrSelf(map, loads_[i]->operand(c)), ir::Type::i32()));
        b.create(OpCode::TmaCopy, operands, {});
      }
      return;
    }
    for (size_t i = 0; i < loads_.size(); ++i) {
      std::vector<ir::Value *> operands = loadOperands(b, map, valid, i);
      operands.insert(operands.begin(), b.createValue(OpCode::LocalView, {buffers_[i], slot}, views_[i]));
      b.create(OpCode::AsyncCopy, operands, {});
    }
    b.create(OpCode::AsyncCommitGroup, {}, {});
  }

  // The dimension of load `ld`'s tile along k in every dot it feeds, when
  // the matrix unit reads such operands only k-major (module attribute
  // k_major_dot_bits) and the dots are its own: of floats, those of tf32
  // precision (ieee has no matrix instruction; tf32x3 is three mma.sync).
  std::optional<int64_t> kMajorDimension(const ir::Operation &ld) const {
    ir::Type elem = ld.result()->type().element();
    if (facts_.kMajorDotBits <= 0 || elem.bitWidth() != facts_.kMajorDotBits) return std::nullopt;
    std::optional<int64_t> k;
    bool agree = true;
    for (const ir::Value *v : tilesOf(ld))
      for (const ir::Operation *dot : v->users()) {
        if (!dot->is(OpCode::Dot)) continue;
        if (elem.isFloat() && dot->attrs().getString("input_precision", "ieee") != "tf32") agree = false;
        bool transposed = v != ld.result();
        int64_t dim = (dot->operand(0) == v ? 1 : 0) ^ (transposed ? 1 : 0);  // A is m x k, B is k x n
        if (dot->operand(0) == v && dot->operand(1) == v) agree = false;
        agree = agree && (!k || *k == dim);
        k = dim;
      }
    return agree ? k : std::nullopt;
  }

  // Load `ld`'s tile and its transposes (`b.T`): what the dots it feeds take.
  static std::vector<const ir::Value *> tilesOf(const ir::Operation &ld) {
    std::vector<const ir::Value *> tiles = {ld.result()};
    for (const ir::Operation *u : ld.result()->users())
      if (u->is(OpCode::Trans)) tiles.push_back(u->result());
    return tiles;
  }

  // The index in loads_ of the load whose tile is `v`, or a transpose of it.
  std::optional<size_t> loadOf(const ir::Value *v) const {
    const ir::Operation *def = v->definingOp();
    if (def && def->is(OpCode::Trans)) def = def->operand(0)->definingOp();
    auto it = std::find(loads_.begin(), loads_.end(), def);
    if (it == loads_.end()) return std::nullopt;
    return size_t(it - loads_.begin());
  }

  // Whether every dot load `i` feeds may read it from registers in place of
  // a k-major copy: as A, or as B when A is a k-major stage of at most 256
  // rows, where its rows (m, or n for B) split over the warps in 16s
  // (Target.h).
  bool readFromRegisters(size_t i, const std::vector<int64_t> &fastDims,
                         const std::vector<std::optional<int64_t>> &kDims) const {
    for (const ir::Value *t : tilesOf(*loads_[i]))
      for (const ir::Operation *dot : t->users()) {
        if (!dot->is(OpCode::Dot)) continue;
        bool isA = dot->operand(0) == t;
        const std::vector<int64_t> &result = dot->result()->type().shape();
        if (result.size() != 2 || result[isA ? 0 : 1] % (16 * facts_.numWarps)) return false;
        if (isA) continue;
        if (result[0] > 256) return false;  // B^T A^T: m is the instruction's n
        std::optional<size_t> a = loadOf(dot->operand(0));
        if (!a || *a == i || !kDims[*a] || fastDims[*a] != *kDims[*a]) return false;
      }
    return true;
  }

  // The mbarrier of load `i`'s stage `slot`.
  ir::Value *barrierEntry(ir::Builder &b, size_t i, ir::Value *slot) {
    if (sharedBarrier_) return slot;
    return i ? b.sameType(OpCode::Add, {slot, b.constantInt(int64_t(i) * barriersPerLoad_, slot->type())}) : slot;
  }

  // The first op of the body (at its top level) that uses load `i`'s tile
  // or a transpose of it.
  const ir::Operation *firstUser(ir::Block &body, size_t i) const {
    std::vector<const ir::Value *> tiles = tilesOf(*loads_[i]);
    for (ir::Operation *op : body.opsVector()) {
      if (std::find(loads_.begin(), loads_.end(), op) != loads_.end() || op->is(OpCode::Trans)) continue;
      for (const ir::Value *t : tiles)
        if (uses(*op, t)) return op;
    }
    return nullptr;
  }

  // Whether `op`, or an op in its regions, uses `v`.
  static bool uses(ir::Operation &op, const ir::Value *v) {
    bool found = false;
    auto visit = [&](ir::Operation *o) {
      for (const ir::Value *x : o->operands()) found = found || x == v;
    };
    visit(&op);
    for (unsigned r = 0; r < op.numRegions(); ++r) ir::Function::walkBlock(op.region(r).block(), visit);
    return found;
  }

  // Iteration `iv`'s tiles, loaded into registers (masked off past the end).
  std::vector<ir::Value *> loadAhead(ir::Builder &b, const ir::ValueMap &map, ir::Value *iv) {
    std::vector<ir::Value *> tiles;
    ir::Value *valid = b.cmp("lt", iv, loop_.operand(1));
    for (size_t i = 0; i < loads_.size(); ++i)
      tiles.push_back(b.createValue(OpCode::Load, loadOperands(b, map, valid, i), loads_[i]->result()->type(),
                                    loads_[i]->is(OpCode::Load) ? loads_[i]->attrs() : ir::AttrDict()));
    return tiles;
  }
  void storeStage(ir::Builder &b, const std::vector<ir::Value *> &tiles, ir::Value *slot) {
    for (size_t i = 0; i < loads_.size(); ++i)
      b.create(OpCode::LocalStore, {b.createValue(OpCode::LocalView, {buffers_[i], slot}, views_[i]), tiles[i]}, {});
  }

  void rewrite(ir::Block &body) {
    ir::Builder b;
    b.setInsertionPoint(&loop_);
    b.setLoc(loop_.loc());
    // Warp-specialized in a tile loop: the buffers, mbarriers and producer
    // go before the tile loop, at the kernel's top level.
    ir::Builder top;
    top.setInsertionPoint(outer_ ? outer_ : &loop_);
    top.setLoc(loop_.loc());
    ir::Builder &setup = outer_ ? top : b;
    ir::Type ivT = body.argument(0)->type(), i32 = ir::Type::i32();
    ir::Value *lb = loop_.operand(0);
    // One buffer of `stages` entries per load (one entry through registers),
    // and a spare entry where a dot may still read the stage before last
    // while the copies into the next one are issued, if it fits.
    int64_t entries = registers_ ? 1 : stages_;
    // Per load: the dimension its stage is contiguous along, and whether a
    // k-major copy of it is made through registers.
    std::vector<int64_t> fastDims;
    std::vector<std::optional<int64_t>> kDims;
    std::vector<bool> viaRegisters;
    int64_t kCopyBytes = 0;
    for (ir::Operation *ld : loads_) {
      const ir::AxisInfo &info = axis_.get(ld->operand(0));
      fastDims.push_back(tma_ || info.contiguity[0] <= info.contiguity[1] ? 1 : 0);  // a tensor map's rows are dimension 1
      kDims.push_back(tma_ || registers_ ? std::nullopt : kMajorDimension(*ld));
      viaRegisters.push_back(kDims.back() && *kDims.back() != fastDims.back());
      if (viaRegisters.back()) kCopyBytes += 2 * tileBytes(ld->result()->type());
    }
    // A matrix unit that reads one operand of such a dot from registers
    // (k_major_dot_registers) needs no copy of it: of A; of B when A's stage
    // is k-major already (the target multiplies B^T A^T).
    if (facts_.kMajorDotRegisters)
      for (size_t i = 0; i < loads_.size(); ++i)
        if (viaRegisters[i] && readFromRegisters(i, fastDims, kDims)) {
          viaRegisters[i] = false;
          kDims[i] = std::nullopt;
          kCopyBytes -= 2 * tileBytes(loads_[i]->result()->type());
        }
    // Without room for the k-major copies, such stages are k-major
    // themselves, copied element by element.
    bool roomForCopies = facts_.sharedLimit <= 0 || stageBytes() * entries + kCopyBytes <= facts_.sharedLimit;
    for (size_t i = 0; i < loads_.size(); ++i) {
      if (!kDims[i] || (viaRegisters[i] && roomForCopies)) continue;
      fastDims[i] = *kDims[i];
      viaRegisters[i] = false;
    }
    if (!roomForCopies) kCopyBytes = 0;
    if (!registers_ && facts_.spareStage && !ws_) {
      if (facts_.sharedLimit <= 0 || stageBytes() * (entries + 1) + kCopyBytes <= facts_.sharedLimit) ++entries;
      // Without room for one, one of four or more entries is the spare:
      // copies run S-2 iterations ahead, not S-1, and the dots overlap
      // (a wgmma waited for every iteration cost tf32 a third).
      else if (stages_ >= 4) --stages_;
    }
    entries_ = entries;
    // Before the stages: a small buffer is placed first-fit for the whole
    // kernel (allocate-shared), and below them it splits no larger one.
    // (A power of two of them: a shared layout's dimensions are; the rest are spare.)
    barriersPerLoad_ = 1;
    while (barriersPerLoad_ < entries) barriersPerLoad_ *= 2;
    // Loads first used by the same op (a matmul's A and B) share their
    // stage entry's mbarrier, which then expects an arrival from each: one
    // wait per iteration. Otherwise each has its own, waited for just
    // before its first use (attention's V after Q K^T and softmax).
    sharedBarrier_ = tma_ && loads_.size() > 1;
    const ir::Operation *first = sharedBarrier_ ? firstUser(body, 0) : nullptr;
    for (size_t i = 1; i < loads_.size() && sharedBarrier_; ++i) sharedBarrier_ = first && firstUser(body, i) == first;
    int64_t barriers = 1;
    while (barriers < barriersPerLoad_ * int64_t(sharedBarrier_ ? 1 : loads_.size())) barriers *= 2;
    if (tma_) barriers_ = setup.createValue(OpCode::LocalAlloc, {}, ir::Type::buffer({barriers}, ir::Type::i64(), barrierLayout()));
    for (size_t i = 0; i < loads_.size(); ++i) {
      ir::Type t = loads_[i]->result()->type();
      int64_t fast = fastDims[i];
      int elemBytes = std::max(1, t.element().bitWidth() / 8);
      if (viaRegisters[i]) {
        // Two entries: iteration i writes one while wgmma groups of i - 1
        // may still read the other.
        std::vector<int64_t> two = {2, t.shape()[0], t.shape()[1]}, kOrder = {1 - fast, fast};  // along k
        kBuffers_.push_back(b.createValue(
            OpCode::LocalAlloc, {},
            ir::Type::buffer(two, t.element(), ir::swizzledSharedLayout(two, kOrder, elemBytes, 1, atomBytes_))));
        kViews_.push_back(
            ir::Type::buffer(t.shape(), t.element(), ir::swizzledSharedLayout(t.shape(), kOrder, elemBytes, 0, atomBytes_)));
      } else {
        kBuffers_.push_back(nullptr);
        kViews_.push_back(ir::Type());
      }
      std::vector<int64_t> stacked = {entries, t.shape()[0], t.shape()[1]}, order = {fast, 1 - fast};
      buffers_.push_back(setup.createValue(
          OpCode::LocalAlloc, {},
          ir::Type::buffer(stacked, t.element(), ir::swizzledSharedLayout(stacked, order, elemBytes, 1, atomBytes_))));
      views_.push_back(
          ir::Type::buffer(t.shape(), t.element(), ir::swizzledSharedLayout(t.shape(), order, elemBytes, 0, atomBytes_)));
    }
    // Before mbarrier_init, whose barrier (and proxy fence) orders their
    // stores before the loop's first dot.
    std::vector<std::pair<ir::Value *, ir::Value *>> invariants = keepInvariantOperands(b, body);
    if (tma_) {
      for (size_t i = 0; i < loads_.size(); ++i) maps_.push_back(tensorMapArgument(*loads_[i], mapShapes_[i]));
      ir::AttrDict count;
      count.set("count", ir::Attribute(int64_t(sharedBarrier_ ? loads_.size() : 1)));
      setup.create(OpCode::MbarrierInit, {barriers_}, {}, count);
    }
    if (ws_) {
      released_ = setup.createValue(OpCode::LocalAlloc, {}, ir::Type::buffer({barriersPerLoad_}, ir::Type::i64(), barrierLayout()));
      ir::AttrDict consumers;
      consumers.set("count", ir::Attribute(facts_.numWarps));
      setup.create(OpCode::MbarrierInit, {released_}, {}, consumers);
      if (outer_) {
        trips_ = tripCount(setup);
        before_ = iterationsBefore(b, outer_->region(0).block().argument(0));
      }
      produce(setup, body);
    }
    // Prologue: iterations 0 .. S-2 (the producer's, when warp-specialized).
    std::map<unsigned, ir::Value *> ahead;
    for (unsigned k : carried_) ahead[k] = loop_.operand(3 + k);
    for (int j = 0; j + 1 < stages_ && !ws_; ++j) {
      ir::Value *iv = j ? b.sameType(OpCode::Add, {lb, b.constantInt(j * step_, ivT)}) : lb;
      ir::ValueMap map = cloneSlice(b, body, iv, ahead);
      if (registers_) storeStage(b, loadAhead(b, map, iv), b.constantInt(0, i32));
      else issue(b, map, iv, b.constantInt(j, i32));
      for (unsigned k : carried_) ahead[k] = ir::lookupOrSelf(map, body.terminator()->operand(k));
    }
    // The loop, carrying the slice's values S-1 iterations ahead too.
    std::vector<ir::Value *> operands(loop_.operands().begin(), loop_.operands().end());
    std::vector<ir::Type> types;
    for (ir::Value *r : loop_.results()) types.push_back(r->type());
    for (unsigned k : carried_) operands.push_back(ahead[k]), types.push_back(ahead[k]->type());
    ir::AttrDict loopAttrs = loop_.attrs();
    if (ws_) loopAttrs.set("warp_specialize", ir::Attribute(true));
    ir::Operation *next = b.create(OpCode::For, operands, types, loopAttrs);
    ir::Block &nb = next->region(0).block();
    ir::ValueMap map;
    map[body.argument(0)] = nb.addArgument(ivT, body.argument(0)->nameHint());
    for (unsigned k = 1; k < body.numArguments(); ++k)
      map[body.argument(k)] = nb.addArgument(body.argument(k)->type(), body.argument(k)->nameHint());
    std::map<unsigned, ir::Value *> aheadArgs;
    for (unsigned k : carried_) aheadArgs[k] = nb.addArgument(ahead[k]->type());
    ir::Builder in(&nb);
    in.setLoc(loop_.loc());
    ir::AttrDict wait;
    wait.set("pending", ir::Attribute(int64_t(stages_ - 2)));
    if (!registers_ && !tma_) in.create(OpCode::AsyncWait, {}, {}, wait);
    ir::Value *iv = map[body.argument(0)];
    ir::Value *readSlot = nullptr, *writeSlot = nullptr, *parity = nullptr;
    if (registers_) {
      readSlot = writeSlot = in.constantInt(0, i32);
    } else {
      ir::Value *index = iterationIndex(in, iv, before_);
      iteration_ = index;
      readSlot = in.sameType(OpCode::Rem, {index, in.constantInt(entries_, i32)});
      writeSlot = in.sameType(
          OpCode::Rem, {in.sameType(OpCode::Add, {index, in.constantInt(stages_ - 1, i32)}), in.constantInt(entries_, i32)});
      if (tma_) {
        // Iteration `index` is the (index / entries)-th use of its entry.
        ir::Value *use = in.sameType(OpCode::Div, {index, in.constantInt(entries_, i32)});
        parity = in.sameType(OpCode::And, {use, in.constantInt(1, i32)});
      }
    }
    for (auto [value, buffer] : invariants) map[value] = in.createValue(OpCode::LocalLoad, {buffer}, value->type());
    // Load i's tiles read back from the stage (waiting for its mbarrier
    // first), and the values standing for them: its result or transposes.
    std::set<const ir::Operation *> transposes;  // read through transposed views instead
    std::vector<std::vector<const ir::Value *>> standIns(loads_.size());
    for (size_t i = 0; i < loads_.size(); ++i) {
      standIns[i].push_back(loads_[i]->result());
      for (ir::Operation *u : loads_[i]->result()->users())
        if (u->is(OpCode::Trans)) standIns[i].push_back(u->result()), transposes.insert(u);
    }
    std::vector<ir::Operation *> waits;
    auto readStage = [&](size_t i) {
      if (tma_ && !(sharedBarrier_ && !waits.empty()))
        waits.push_back(in.create(OpCode::MbarrierWait, {barriers_, barrierEntry(in, i, readSlot), parity}, {}));
      ir::Value *view = in.createValue(OpCode::LocalView, {buffers_[i], readSlot}, views_[i]);
      ir::Type viewType = views_[i];
      if (kBuffers_[i]) {
        ir::Value *tile = in.createValue(OpCode::LocalLoad, {view}, loads_[i]->result()->type());
        ir::Value *entry = in.sameType(OpCode::Rem, {iteration_, in.constantInt(2, iteration_->type())});
        view = in.createValue(OpCode::LocalView, {kBuffers_[i], entry}, kViews_[i]);
        in.create(OpCode::LocalStore, {view, tile}, {});
        viewType = kViews_[i];
      }
      bool direct = false;
      for (ir::Operation *u : loads_[i]->result()->users()) {
        if (!u->is(OpCode::Trans)) {
          direct = true;
          continue;
        }
        ir::Value *swapped = in.createValue(OpCode::LocalTrans, {view}, ir::transposedSharedBuffer(viewType));
        map[u->result()] = in.createValue(OpCode::LocalLoad, {swapped}, u->result()->type());
      }
      if (direct) map[loads_[i]->result()] = in.createValue(OpCode::LocalLoad, {view}, loads_[i]->result()->type());
    };
    std::vector<bool> read(loads_.size(), !tma_);
    if (!tma_)
      for (size_t i = 0; i < loads_.size(); ++i) readStage(i);
    auto aheadIv = [&] { return in.sameType(OpCode::Add, {iv, in.constantInt((stages_ - 1) * step_, ivT)}); };
    ir::ValueMap pre;
    std::vector<ir::Value *> nextTiles;
    if (registers_) {
      // The next iteration's global loads first, to overlap the work below.
      ir::Value *nextIv = aheadIv();
      pre = cloneSlice(in, body, nextIv, aheadArgs);
      nextTiles = loadAhead(in, pre, nextIv);
    }
    for (ir::Operation *op : body.opsVector()) {
      if (op == body.terminator() || std::find(loads_.begin(), loads_.end(), op) != loads_.end() || transposes.count(op))
        continue;
      for (size_t i = 0; i < loads_.size(); ++i)
        for (const ir::Value *v : standIns[i])
          if (!read[i] && uses(*op, v)) read[i] = true, readStage(i);
      ir::cloneOp(in, *op, map);
    }
    // One barrier per iteration, the last wait's, which every thread
    // reaches after reading the stages the copies below overwrite (from
    // iterations before, or by wgmma groups the body's first dot's full
    // wait retired before it) and after it is done with the other waits.
    for (size_t w = 0; w + (ws_ ? 0 : 1) < waits.size(); ++w) waits[w]->attrs().set("barrier", ir::Attribute(false));
    if (registers_) {
      storeStage(in, nextTiles, writeSlot);
    } else if (ws_) {
      // The entry of iteration i - 1, whose dots have finished reading it
      // (the wait at the end of this iteration's dots).
      ir::Value *previous = in.sameType(
          OpCode::Rem, {in.sameType(OpCode::Add, {iteration_, in.constantInt(entries_ - 1, i32)}), in.constantInt(entries_, i32)});
      in.create(OpCode::MbarrierArrive, {released_, previous, in.cmp("gt", iteration_, in.constantInt(0, i32))}, {});
    } else {
      // Last, so that the body's reads of the current stage come before any
      // copy (into another stage) in program order.
      ir::Value *nextIv = aheadIv();
      pre = cloneSlice(in, body, nextIv, aheadArgs);
      issue(in, pre, nextIv, writeSlot);
    }
    std::vector<ir::Value *> yields;
    for (ir::Value *v : body.terminator()->operands()) yields.push_back(ir::lookupOrSelf(map, v));
    for (unsigned k : carried_) yields.push_back(ir::lookupOrSelf(pre, body.terminator()->operand(k)));
    in.yield(yields);
    if (entries_ > stages_) next->attrs().set("spare_stages", ir::Attribute(entries_ - stages_));
    for (unsigned k = 0; k < loop_.numResults(); ++k) loop_.result(k)->replaceAllUsesWith(next->result(k));
    // Drain: copies of iterations past the end are still in flight, and so
    // may be the dots whose accumulators the loop carries out.
    ir::AttrDict drain;
    drain.set("pending", ir::Attribute(int64_t(0)));
    if (!registers_) {
      std::vector<unsigned> accumulators;
      for (unsigned k = 0; k < loop_.numResults(); ++k) {
        const ir::Operation *d = body.terminator()->operand(k)->definingOp();
        if (d && d->is(OpCode::Dot) && d->parentBlock() == &body) accumulators.push_back(k);
      }
      if (facts_.asyncDots && !accumulators.empty()) {
        drainOnExit(b, *next, accumulators, drain);
      } else {
        std::vector<ir::Value *> values;
        std::vector<ir::Type> types;
        for (unsigned k : accumulators) values.push_back(next->result(k)), types.push_back(next->result(k)->type());
        ir::Operation *wait = b.create(OpCode::AsyncWait, values, types, drain);
        for (unsigned i = 0; i < values.size(); ++i) replaceUsesExcept(values[i], wait->result(i), wait);
      }
      // Every copy issued was waited for in the loop (those past its end
      // were never issued).
      // (In a tile loop, after it.)
      ir::Builder after = b;
      if (outer_) {
        std::vector<ir::Operation *> ops = outer_->parentBlock()->opsVector();
        after.setInsertionPoint(*(std::find(ops.begin(), ops.end(), outer_) + 1));
      }
      if (tma_) after.create(OpCode::MbarrierInval, {barriers_}, {});
      if (ws_) after.create(OpCode::MbarrierInval, {released_}, {});
    }
    loop_.erase();
  }

  static void replaceUsesExcept(ir::Value *from, ir::Value *to, const ir::Operation *except) {
    std::vector<ir::Operation *> users = from->users();
    for (ir::Operation *user : users)
      for (unsigned o = 0; user != except && o < user->numOperands(); ++o)
        if (user->operand(o) == from) user->setOperand(o, to);
  }

  // The drain of a loop whose wgmma accumulators may be in flight at its
  // exit, on the loop's own exit path: `if (lb < ub) { loop (nonempty);
  // wait } else { wait }`. After a plain loop, the path that skips it
  // reaches the drain too, and sets the accumulator registers (its initial
  // values) on the way; ptxas then assumes those writes may race the wgmmas
  // in flight and serializes every wgmma of the kernel (C7515).
  static void drainOnExit(ir::Builder &b, ir::Operation &loop, const std::vector<unsigned> &accumulators,
                          const ir::AttrDict &drain) {
    std::vector<ir::Type> types;
    for (ir::Value *r : loop.results()) types.push_back(r->type());
    ir::Operation *guard = b.create(OpCode::If, {b.cmp("lt", loop.operand(0), loop.operand(1))}, types);
    for (unsigned k = 0; k < loop.numResults(); ++k) loop.result(k)->replaceAllUsesWith(guard->result(k));
    auto waitAndYield = [&](ir::Block &blk, const std::function<ir::Value *(unsigned)> &value) {
      ir::Builder in(&blk);
      in.setLoc(loop.loc());
      std::vector<ir::Value *> waited, yields;
      std::vector<ir::Type> waitedTypes;
      for (unsigned k : accumulators) waited.push_back(value(k)), waitedTypes.push_back(types[k]);
      ir::Operation *wait = in.create(OpCode::AsyncWait, waited, waitedTypes, drain);
      for (unsigned k = 0; k < loop.numResults(); ++k) {
        auto at = std::find(accumulators.begin(), accumulators.end(), k);
        yields.push_back(at == accumulators.end() ? value(k) : wait->result(unsigned(at - accumulators.begin())));
      }
      in.yield(yields);
      return wait;
    };
    ir::Operation *wait = waitAndYield(guard->region(0).block(), [&](unsigned k) { return loop.result(k); });
    loop.moveBefore(wait);
    loop.attrs().set("nonempty", ir::Attribute(true));
    waitAndYield(guard->region(1).block(), [&](unsigned k) { return loop.operand(3 + k); });
  }

  static const ir::Layout *barrierLayout() {
    return ir::Layout::get("shared", {{"vec", {1}}, {"per_phase", {1}}, {"max_phase", {1}}, {"order", {0}}});
  }

  ir::Operation &loop_;
  int stages_;
  bool specialize_;
  bool tma_ = false;  // copies by tensor maps, completing on mbarriers
  bool ws_ = false;   // warp-specialized: a producer warp issues the copies
  ir::Value *released_ = nullptr;  // ws_: per stage entry, the consumers' mbarrier
  ir::Operation *outer_ = nullptr;  // ws_ in a tile loop: that loop
  std::set<ir::Operation *> tileSlice_;  // its body's ops the producer recomputes
  ir::Value *trips_ = nullptr;   // outer_: this loop's trip count (i32, top level)
  ir::Value *before_ = nullptr;  // outer_: iterations of the tiles before this one (i32)
  std::vector<TensorMapShape> mapShapes_;  // per load, when tma_
  std::vector<ir::Value *> maps_;          // per load: its tensor_map argument
  ir::Value *barriers_ = nullptr;          // per load, one mbarrier per stage entry
  int64_t barriersPerLoad_ = 1;            // entries rounded up to a power of two
  bool sharedBarrier_ = false;             // one mbarrier per stage entry for every load
  bool registers_;  // stage through registers into one buffer (no async copies)
  int64_t atomBytes_;  // the target's shared_atom_bytes (0: whole rows)
  Facts facts_;
  int64_t entries_ = 0;  // stage buffers per load
  const ir::AxisAnalysis &axis_;
  int64_t step_ = 1;
  std::vector<ir::Operation *> loads_;
  std::set<ir::Operation *> slice_;
  std::set<unsigned> carried_;  // indices of loop-carried values the slice updates
  std::vector<ir::Value *> buffers_;
  std::vector<ir::Type> views_;
  // Per load: its k-major copy (2 entries) when the stage is read through
  // registers into one, else null.
  std::vector<ir::Value *> kBuffers_;
  std::vector<ir::Type> kViews_;
  ir::Value *iteration_ = nullptr;  // the loop's iteration index (i32), in the new body
};

void collectLoops(ir::Block &b, std::vector<ir::Operation *> &out) {
  for (ir::Operation *op : b.opsVector()) {
    for (unsigned r = 0; r < op->numRegions(); ++r) collectLoops(op->region(r).block(), out);
    if (op->is(OpCode::For)) out.push_back(op);
  }
}

} // namespace

void pipelineLoops(ir::Module &m) {
  int64_t moduleStages = m.attrs().getInt("num_stages", 1);
  const char *env = std::getenv("TESSERA_PIPELINE_REGISTERS");
  bool throughRegisters = !m.attrs().getInt("async_copy", 1) || (env && std::string(env) == "1");
  Pipeliner::Facts facts;
  facts.throughRegisters = throughRegisters;
  facts.atomBytes = m.attrs().getInt("shared_atom_bytes", 0);
  facts.spareStage = m.attrs().getInt("async_dots", 0) && m.attrs().getInt("num_warps", 4) > 4 &&
                     !m.attrs().getInt("no_spare_stages", 0);
  facts.sharedLimit = m.attrs().getInt("shared_memory_limit", 0);
  facts.tensorMaps = m.attrs().getInt("tensor_maps", 0) && !m.attrs().getInt("checked", 0);
  facts.asyncDots = m.attrs().getInt("async_dots", 0) != 0;
  facts.kMajorDotBits = m.attrs().getInt("k_major_dot_bits", 0);
  facts.kMajorDotRegisters = m.attrs().getInt("k_major_dot_registers", 0) != 0;
  facts.numWarps = m.attrs().getInt("num_warps", 4);
  for (auto &f : m.functions()) {
    if (f->isThreadLevel()) continue;
    std::vector<ir::Operation *> loops;
    collectLoops(f->entry(), loops);
    if (loops.empty()) continue;
    ir::AxisAnalysis axis(*f);
    for (ir::Operation *loop : loops) {
      int64_t stages = loop->attrs().getInt("num_stages", moduleStages);
      bool specialize = loop->attrs().getBool("warp_specialize", false);
      loop->attrs().erase("warp_specialize");
      if (stages >= 2) Pipeliner(*loop, int(stages), specialize, facts, axis).run();
    }
  }
}

} // namespace tessera::targets::gpu
