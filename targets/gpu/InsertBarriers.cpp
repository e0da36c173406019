// insert-barriers: a barrier before each shared-memory access that may race
// with an access made since the last barrier (after allocate-shared).
//
// Accesses are tracked by byte range: the buffer a pointer addresses
// (shared_ptr through addptr), or all of shared memory when unknown. Which
// thread touches which element is not modelled, so any overlap counts,
// with two exceptions for accesses to one buffer that the lowering
// guarantees: two writes do not race (an element is written by its owner,
// or by copies holding the same value), and two `exclusive` accesses do not
// race (each thread works on elements no other thread touches until the
// next barrier). Writes to different buffers that share bytes (allocate-
// shared reuses memory) do race, even when both span the same bytes. A cp_async does not race with earlier
// reads: its destination is read only after a wait for it, and written
// only after the barrier that follows the wait after its last read.
//
// Every thread must reach a barrier, so none goes inside control flow that
// may differ between threads (an if on a thread-dependent condition, a loop
// with thread-dependent bounds): a hazard found there puts the barrier
// before the divergent op instead. Loops are walked until the accesses
// carried around the back edge stop changing.
#include "targets/gpu/Passes.h"

#include "ir/Builder.h"
#include "ir/PassManager.h"

#include <limits>
#include <unordered_set>

namespace tessera::targets::gpu {

using ir::OpCode;

namespace {

struct Access {
  int64_t lo, hi;
  bool write, exclusive;
  bool async = false;                      // a cp_async: its destination's readers finished before the last wait
  const ir::Operation *buffer = nullptr;  // its shared_ptr; null: unknown
  bool operator==(const Access &o) const {
    return lo == o.lo && hi == o.hi && write == o.write && exclusive == o.exclusive && async == o.async &&
           buffer == o.buffer;
  }
};

using State = std::vector<Access>;

// Whether `b` races with the earlier `a`.
bool races(const Access &a, const Access &b) {
  if (a.hi <= b.lo || b.hi <= a.lo) return false;
  if (!a.write && !b.write) return false;
  if (!a.buffer || a.buffer != b.buffer) return true;  // another buffer in the same bytes
  if (b.async && !a.write) return false;  // ordered by the wait's barrier (Ops.def, cp_async)
  return a.write != b.write && !(a.exclusive && b.exclusive);
}

void merge(State &into, const State &from) {
  for (const Access &a : from)
    if (std::find(into.begin(), into.end(), a) == into.end()) into.push_back(a);
}

// Values that may differ between the threads of a program.
class Divergence {
public:
  explicit Divergence(ir::Function &f) {
    for (bool changed = true; changed;) {
      size_t before = varying_.size();
      visit(f.entry(), false);
      changed = varying_.size() != before;
    }
  }
  bool varies(const ir::Value *v) const { return v && varying_.count(v) != 0; }

private:
  void mark(const ir::Value *v) { varying_.insert(v); }

  // `inside`: the block runs under a thread-dependent condition, so what it
  // yields varies.
  void visit(ir::Block &blk, bool inside) {
    for (auto &opPtr : blk.ops()) {
      ir::Operation &op = *opPtr;
      bool any = inside;
      for (ir::Value *v : op.operands()) any |= varies(v);
      switch (op.code()) {
      case OpCode::ThreadId: case OpCode::LaneId: case OpCode::WarpId: case OpCode::ShuffleXor:
      case OpCode::AtomicRmw: case OpCode::AtomicCas:
        any = true;
        break;
      case OpCode::If: {
        bool cond = inside || varies(op.operand(0));
        for (unsigned r = 0; r < 2; ++r) visit(op.region(r).block(), cond);
        any = cond || yieldsVary(op, 0) || yieldsVary(op, 1);
        break;
      }
      case OpCode::For: {
        ir::Block &body = op.region(0).block();
        bool bounds = inside || varies(op.operand(0)) || varies(op.operand(1)) || varies(op.operand(2));
        if (bounds) mark(body.argument(0));
        for (unsigned k = 1; k < body.numArguments(); ++k)
          if (bounds || varies(op.operand(2 + k)) || varies(body.terminator() ? body.terminator()->operand(k - 1) : nullptr))
            mark(body.argument(k));
        visit(body, bounds);
        for (unsigned k = 0; k < op.numResults(); ++k)
          if (varies(body.argument(k + 1))) mark(op.result(k));
        continue;
      }
      case OpCode::While: {
        ir::Block &before = op.region(0).block(), &after = op.region(1).block();
        ir::Operation *cond = before.terminator(), *yield = after.terminator();
        bool loopVaries = inside || (cond && varies(cond->operand(0)));
        for (unsigned k = 0; k < before.numArguments(); ++k)
          if (loopVaries || varies(op.operand(k)) || (yield && varies(yield->operand(k)))) mark(before.argument(k));
        visit(before, inside);
        for (unsigned k = 0; k < after.numArguments(); ++k)
          if (loopVaries || (cond && varies(cond->operand(k + 1)))) mark(after.argument(k)), mark(op.result(k));
        visit(after, loopVaries);
        continue;
      }
      default:
        break;
      }
      if (any)
        for (unsigned i = 0; i < op.numResults(); ++i) mark(op.result(i));
    }
  }

  bool yieldsVary(ir::Operation &op, unsigned region) {
    ir::Operation *t = op.region(region).block().terminator();
    if (!t) return false;
    for (ir::Value *v : t->operands())
      if (varies(v)) return true;
    return false;
  }

  std::unordered_set<const ir::Value *> varying_;
};

class BarrierPlacer {
public:
  explicit BarrierPlacer(ir::Function &f) : f_(f), div_(f) {}

  void run() {
    State s;
    walkBlock(f_.entry(), s, true);
  }

private:
  // The buffer `ptr` addresses (its shared_ptr), null if unknown.
  static const ir::Operation *bufferOf(const ir::Value *ptr) {
    while (const ir::Operation *d = ptr->definingOp()) {
      if (d->is(OpCode::AddPtr)) {
        ptr = d->operand(0);
        continue;
      }
      return d->is(OpCode::SharedPtr) ? d : nullptr;
    }
    return nullptr;
  }

  // The shared-memory accesses of `op`: one per pointer operand it reads
  // or writes through (a wgmma reads two, or only B, after A's registers
  // when A comes from registers: Ops.def).
  static std::vector<Access> sharedAccesses(const ir::Operation &op) {
    bool load = op.is(OpCode::VLoad) || op.is(OpCode::LdMatrix), store = op.is(OpCode::VStore) || op.is(OpCode::CpAsync);
    bool atomic = op.is(OpCode::AtomicRmw) || op.is(OpCode::AtomicCas);
    std::vector<unsigned> pointers;
    if (op.is(OpCode::Wgmma))
      pointers = op.attr("a_desc")->getInts().empty() ? std::vector<unsigned>{ir::wgmmaAOperands(op)} : std::vector<unsigned>{0, 1};
    else if (load || store || atomic) pointers = {0};
    load |= op.is(OpCode::Wgmma);
    std::vector<Access> out;
    // A coop_mma reads A, B and its accumulators, then writes the latter.
    if (op.is(OpCode::CoopMma)) {
      for (unsigned i : {0u, 1u, 2u}) out.push_back(accessThrough(op.operand(i), false));
      out.push_back(accessThrough(op.operand(2), true));
      return out;
    }
    for (unsigned i : pointers) {
      if (!op.operand(i)->type().isPointer() || op.operand(i)->type().addressSpace() != ir::AddressSpace::Shared) continue;
      const ir::Operation *buffer = bufferOf(op.operand(i));
      int64_t lo = buffer ? buffer->attr("offset")->getInt() : 0;
      int64_t hi = buffer ? lo + buffer->attr("bytes")->getInt() : std::numeric_limits<int64_t>::max();
      out.push_back({lo, hi, !load, op.attrs().getBool("exclusive", false), op.is(OpCode::CpAsync), buffer});
    }
    return out;
  }

  static Access accessThrough(const ir::Value *ptr, bool write) {
    const ir::Operation *buffer = bufferOf(ptr);
    int64_t lo = buffer ? buffer->attr("offset")->getInt() : 0;
    int64_t hi = buffer ? lo + buffer->attr("bytes")->getInt() : std::numeric_limits<int64_t>::max();
    return {lo, hi, write, false, false, buffer};
  }

  static void barrierBefore(ir::Operation *op) {
    ir::Builder b;
    b.setInsertionPoint(op);
    b.setLoc(op->loc());
    b.create(OpCode::Barrier, {}, {});
  }

  // Walks `blk` from state `s`. `uniform`: every thread runs this block
  // together, so a barrier may go here. Returns false when a hazard needs a
  // barrier the block cannot hold (the caller puts one before its op).
  bool walkBlock(ir::Block &blk, State &s, bool uniform) {
    for (ir::Operation *op : blk.opsVector()) {
      if (!walkOp(*op, s, uniform)) {
        if (!uniform) return false;
        barrierBefore(op);
        s.clear();
        if (!walkOp(*op, s, uniform))
          throw ir::PassError{op->loc().str() + ": error: internal error: insert-barriers: a shared-memory race inside "
                              "thread-dependent control flow that no barrier can order"};
      }
    }
    return true;
  }

  bool walkOp(ir::Operation &op, State &s, bool uniform) {
    if (op.is(OpCode::Barrier)) {
      if (uniform) s.clear();
      return true;
    }
    if (std::vector<Access> accesses = sharedAccesses(op); !accesses.empty()) {
      bool race = false;
      for (const Access &a : accesses)
        for (const Access &p : s) race |= races(p, a);
      if (race) {
        if (!uniform) return false;
        barrierBefore(&op);
        s.clear();
      }
      s.insert(s.end(), accesses.begin(), accesses.end());
      return true;
    }
    if (op.is(OpCode::If)) {
      bool inner = uniform && !div_.varies(op.operand(0));
      State t = s, e = s;
      if (!walkBlock(op.region(0).block(), t, inner) || !walkBlock(op.region(1).block(), e, inner)) return false;
      s = t;
      merge(s, e);
      return true;
    }
    if (op.is(OpCode::For) || op.is(OpCode::While)) {
      bool inner = uniform;
      if (op.is(OpCode::For))
        for (unsigned i = 0; i < 3; ++i) inner = inner && !div_.varies(op.operand(i));
      else
        inner = inner && !div_.varies(op.region(0).block().terminator()->operand(0));
      // An access in the loop that races with one from before it: one
      // barrier before the loop rather than one per iteration.
      if (racesWithin(op, s)) {
        if (!uniform) return false;
        barrierBefore(&op);
        s.clear();
      }
      State entry = s;
      for (int round = 0;; ++round) {
        State cur = entry;
        for (unsigned r = 0; r < op.numRegions(); ++r)
          if (!walkBlock(op.region(r).block(), cur, inner)) return false;
        State next = entry;
        merge(next, cur);
        if (next.size() == entry.size()) {
          s = next;  // zero or more iterations
          return true;
        }
        entry = next;
        if (round > 64) throw ir::PassError{"internal error: insert-barriers does not converge"};
      }
    }
    return true;
  }

  static bool racesWithin(ir::Operation &loop, const State &s) {
    bool found = false;
    auto visit = [&](ir::Operation *op) {
      if (found) return;
      for (const Access &a : sharedAccesses(*op))
        for (const Access &p : s) found |= races(p, a);
    };
    for (unsigned r = 0; r < loop.numRegions(); ++r) ir::Function::walkBlock(loop.region(r).block(), visit);
    return found;
  }

  ir::Function &f_;
  Divergence div_;
};

} // namespace

void insertBarriers(ir::Module &m) {
  for (auto &f : m.functions())
    if (f->isThreadLevel()) BarrierPlacer(*f).run();
}

} // namespace tessera::targets::gpu
