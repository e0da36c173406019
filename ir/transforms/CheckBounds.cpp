// check-bounds: the checked mode (module attribute `checked`; nothing
// happens without it). Every load, store and atomic whose pointer traces
// back to one pointer argument (ir/analysis/WrittenArguments.h) checks each
// element's byte offset from that argument against the size of the buffer
// it was given. Elements out of bounds are masked off, so the access cannot
// fault, and the first failure of the launch is written to a report.
//
// The kernel gains arguments after its own: one i64 per pointer argument,
// the byte size of its buffer (negative: not checked), then a pointer to the
// report, 10 zeroed i64 (TESSERA_CHECK_REPORT_SLOTS): [0] the number of
// failed accesses (an atomic add by each program with one), and from the
// first of them [1] what failed (1 load, 2 store, 3 atomic), [2] the
// argument's index, [3] line, [4] column, [5] the byte offset, [6..8] the
// program id; [9] is scratch for compare-and-swaps out of bounds.
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
    std::vector<Operation *> accesses;
    f_.walk([&](Operation *op) {
      bool access = op->is(OpCode::Load) || op->is(OpCode::Store) || op->is(OpCode::AtomicRmw) ||
                    op->is(OpCode::AtomicCas);
      if (access && op->operand(0)->type().element().isPointer()) accesses.push_back(op);
    });
    unsigned own = f_.numArguments();
    sizes_.assign(own, nullptr);
    for (unsigned i = 0; i < own; ++i)
      if (f_.argument(i)->type().isPointer())
        sizes_[i] = f_.addArgument(Type::i64(), "size_of_" + f_.argument(i)->nameHint());
    report_ = f_.addArgument(Type::pointer(Type::i64()), "check_report");
    for (Operation *op : accesses) check(op);
  }

private:
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
    int64_t kind = op->is(OpCode::Load) ? 1 : op->is(OpCode::Store) ? 2 : 3;
    if (op->is(OpCode::AtomicCas)) {
      redirectUnmasked(op, b, ok);
    } else {
      unsigned maskIndex = op->is(OpCode::Load) ? 1 : 2;
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

  // If any element is bad: claim the report, then fill it in.
  void report(Builder &b, Operation *op, int64_t kind, int arg, Value *bad, Value *offset) {
    Value *anyBad = bad, *first = offset;
    if (bad->type().isTile()) {  // one reduction: the least bad offset, or "none" if none is bad
      Value *none = b.constantInt(std::numeric_limits<int64_t>::max(), Type::i64());
      first = reduceAll(b, b.select(bad, offset, b.splat(none, offset->type().shape())), OpCode::Min);
      anyBad = b.cmp("ne", first, none);
    }
    // No branches: a program claims the report with an atomic add masked by
    // anyBad (a masked-off atomic touches no memory), and the first claimant
    // writes the rest with stores masked likewise. (A branch on the add's
    // result would need it broadcast to a GPU program's threads inside
    // control flow.)
    AttrDict sem;
    sem.set("kind", Attribute(std::string("add")));
    sem.set("sem", Attribute(std::string("acq_rel")));
    sem.set("scope", Attribute(std::string("gpu")));
    Value *zero = b.constantInt(0, Type::i64());
    Value *previous = b.createValue(OpCode::AtomicRmw, {report_, b.constantInt(1, Type::i64()), anyBad}, Type::i64(),
                                    sem);
    Value *first_ = b.sameType(OpCode::And, {anyBad, b.cmp("eq", previous, zero)});
    int64_t slot = 1;
    auto write = [&](Value *v) {
      Value *at = b.createValue(OpCode::AddPtr, {report_, b.constantInt(slot++, Type::i32())}, report_->type());
      b.create(OpCode::Store, {at, v, first_}, {});
    };
    write(b.constantInt(kind, Type::i64()));
    write(b.constantInt(arg, Type::i64()));
    write(b.constantInt(int64_t(op->loc().line), Type::i64()));
    write(b.constantInt(int64_t(op->loc().col), Type::i64()));
    write(first);
    for (int64_t axis = 0; axis < 3; ++axis) {
      AttrDict a;
      a.set("axis", Attribute(axis));
      write(b.cast(b.createValue(OpCode::ProgramId, {}, Type::i32(), std::move(a)), Type::i64()));
    }
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
