// check-bounds: the checked mode (module attribute `checked`; nothing
// happens without it). Every load, store and atomic whose pointer traces
// back to one pointer argument (ir/analysis/WrittenArguments.h) checks each
// element's byte offset from that argument against the size of the buffer
// it was given. Elements out of bounds are masked off, so the access cannot
// fault, and the first failure of the launch is written to a report.
//
// The kernel gains arguments after its own: one i64 per pointer argument,
// the byte size of its buffer (negative: not checked), then a pointer to the
// report, 10 zeroed i64 (TESSERA_CHECK_REPORT_SLOTS), which `check_failed`
// ops fill in (ir/Ops.def): [0] the number of failed checks, and from the
// first of them [1] what failed (1 load, 2 store, 3 atomic), [2] the
// argument's index, [3] line, [4] column, [5] the byte offset, [6..8] the
// program id; [9] is scratch for compare-and-swaps out of bounds.
//
// Signed integer add, sub and mul narrower than 64 bits are checked for
// overflow too, as Triton's debug mode does: kind 4, in [2] minus the
// type's bits, in [5] the exact result that does not fit.
#include "ir/Builder.h"
#include "ir/analysis/WrittenArguments.h"
#include "ir/transforms/Passes.h"

#include <limits>

namespace tessera::ir {
namespace {

constexpr int64_t kScratchSlot = 9;  // TESSERA_CHECK_REPORT_SLOTS - 1

class BoundsChecker {
public:
  explicit BoundsChecker(Function &f) : f_(f) {}

  void run() {
    std::vector<Operation *> accesses, arithmetic;
    f_.walk([&](Operation *op) {
      bool access = op->is(OpCode::Load) || op->is(OpCode::DescLoad) || op->is(OpCode::Store) || op->is(OpCode::DescStore) ||
                    op->is(OpCode::AtomicRmw) || op->is(OpCode::AtomicCas);
      if (access && op->operand(0)->type().element().isPointer()) accesses.push_back(op);
      bool wraps = op->is(OpCode::Add) || op->is(OpCode::Sub) || op->is(OpCode::Mul);
      Type e = op->numResults() ? op->result()->type().element() : Type();
      if (wraps && e.isSigned() && e.bitWidth() < 64 && !inCombineRegion(op)) arithmetic.push_back(op);
    });
    unsigned own = f_.numArguments();
    sizes_.assign(own, nullptr);
    for (unsigned i = 0; i < own; ++i)
      if (f_.argument(i)->type().isPointer())
        sizes_[i] = f_.addArgument(Type::i64(), "size_of_" + f_.argument(i)->nameHint());
    report_ = f_.addArgument(Type::pointer(Type::i64()), "check_report");
    for (Operation *op : accesses) check(op);
    for (Operation *op : arithmetic) checkOverflow(op);
  }

private:
  // A reduce's or scan's combine region holds scalar code only (as in
  // Triton, its arithmetic is not checked).
  static bool inCombineRegion(const Operation *op) {
    for (const Operation *p = op->parentOp(); p; p = p->parentOp())
      if (p->is(OpCode::Reduce) || p->is(OpCode::Scan)) return true;
    return false;
  }

  void check(Operation *op) {
    Value *ptr = op->operand(0);
    int arg = pointerArgument(f_, ptr);
    if (arg < 0 || !sizes_[arg]) return;  // not traced to one argument: unchecked
    Builder b;
    b.setInsertionPoint(op);
    b.setLoc(op->loc());
    Type type = ptr->type();
    auto full = [&](Value *scalar) { return type.isTile() ? b.splat(scalar, type.shape()) : scalar; };
    Value *offset = b.sameType(OpCode::Sub, {b.cast(ptr, Type::i64()), full(b.cast(f_.argument(arg), Type::i64()))});
    int64_t bytes = std::max(1, type.pointee().bitWidth() / 8);
    Value *size = sizes_[arg];
    Value *last = b.sameType(OpCode::Sub, {size, b.constantInt(bytes, Type::i64())});
    Value *inside = b.sameType(OpCode::And, {b.cmp("ge", offset, full(b.constantInt(0, Type::i64()))),
                                             b.cmp("le", offset, full(last))});
    Value *ok = b.sameType(OpCode::Or, {inside, full(b.cmp("lt", size, b.constantInt(0, Type::i64())))});
    Value *bad = b.sameType(OpCode::Not, {ok});
    bool load = op->is(OpCode::Load) || op->is(OpCode::DescLoad);
    int64_t kind = load ? 1 : op->is(OpCode::Store) || op->is(OpCode::DescStore) ? 2 : 3;
    if (op->is(OpCode::AtomicCas)) {
      redirectUnmasked(op, b, ok);
    } else {
      unsigned maskIndex = load ? 1 : 2;
      if (op->numOperands() > maskIndex) {
        Value *mask = op->operand(maskIndex);
        if (mask->type().element() != Type::i1()) mask = b.cmp("ne", mask, b.constantInt(0, mask->type().element()));
        bad = b.sameType(OpCode::And, {bad, mask});
        op->setOperand(maskIndex, b.sameType(OpCode::And, {mask, ok}));
      } else {
        std::vector<Value *> operands = op->operands();
        operands.push_back(ok);
        op->setOperands(operands);
      }
    }
    report(b, op, kind, arg, bad, offset);
  }

  // Signed add, sub and mul narrower than 64 bits, as Triton's debug mode
  // checks them: the exact result (in 64 bits) must fit the type. The
  // report gets kind 4, minus the type's bits in place of the argument and
  // the least exact result that does not fit in place of the offset.
  void checkOverflow(Operation *op) {
    Builder b;
    b.setInsertionPoint(op);
    b.setLoc(op->loc());
    Type type = op->result()->type();
    int bits = type.element().bitWidth();
    auto full = [&](Value *scalar) { return type.isTile() ? b.splat(scalar, type.shape()) : scalar; };
    Value *exact = b.sameType(op->code(), {b.cast(op->operand(0), Type::i64()), b.cast(op->operand(1), Type::i64())});
    Value *lo = full(b.constantInt(-(int64_t(1) << (bits - 1)), Type::i64()));
    Value *hi = full(b.constantInt((int64_t(1) << (bits - 1)) - 1, Type::i64()));
    Value *bad = b.sameType(OpCode::Or, {b.cmp("lt", exact, lo), b.cmp("gt", exact, hi)});
    report(b, op, 4, -bits, bad, exact);
  }

  // An access without a mask (compare-and-swap): the elements out of
  // bounds go to the report's scratch slot instead (their results are
  // meaningless, and reported).
  void redirectUnmasked(Operation *op, Builder &b, Value *ok) {
    Type type = op->operand(0)->type();
    Value *scratch = b.createValue(OpCode::AddPtr, {report_, b.constantInt(kScratchSlot, Type::i32())}, report_->type());
    scratch = b.cast(scratch, type.element());
    if (type.isTile()) scratch = b.splat(scratch, type.shape());
    op->setOperand(0, b.select(ok, op->operand(0), scratch));
  }

  // Any element bad: the program's check_failed fills in the report (the
  // first failure) with the least bad value of the tile.
  void report(Builder &b, Operation *op, int64_t kind, int arg, Value *bad, Value *offset) {
    Value *anyBad = bad, *first = offset;
    if (bad->type().isTile()) {  // one reduction: the least bad value, or "none" if none is bad
      Value *none = b.constantInt(std::numeric_limits<int64_t>::max(), Type::i64());
      first = reduceAll(b, b.select(bad, offset, b.splat(none, offset->type().shape())), OpCode::Min);
      anyBad = b.cmp("ne", first, none);
    }
    AttrDict a;
    a.set("kind", Attribute(kind));
    a.set("arg", Attribute(int64_t(arg)));
    a.set("line", Attribute(int64_t(op->loc().line)));
    a.set("col", Attribute(int64_t(op->loc().col)));
    b.create(OpCode::CheckFailed, {report_, anyBad, first}, {}, std::move(a));
  }

  // The tile reduced to a scalar with min or max.
  static Value *reduceAll(Builder &b, Value *tile, OpCode combine) {
    Type t = tile->type();
    int64_t n = t.numElements();
    if (t.rank() != 1) tile = b.createValue(OpCode::Reshape, {tile}, Type::tile({n}, t.element()));
    AttrDict a;
    a.set("axis", Attribute(int64_t(0)));
    Operation *reduce = b.create(OpCode::Reduce, {tile}, {t.element()}, std::move(a));
    Block &body = reduce->region(0).block();
    Value *x = body.addArgument(t.element()), *y = body.addArgument(t.element());
    Builder rb(&body);
    rb.setLoc(b.loc());
    rb.yield({rb.sameType(combine, {x, y})});
    return reduce->result();
  }

  Function &f_;
  std::vector<Value *> sizes_;  // per argument of the kernel's own: its buffer's byte size
  Value *report_ = nullptr;
};

} // namespace

void checkBounds(Module &m) {
  if (!m.attrs().getInt("checked", 0)) return;
  for (auto &f : m.functions())
    if (f->isKernel()) BoundsChecker(*f).run();
}

} // namespace tessera::ir
