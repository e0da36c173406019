// check-bounds: the checked mode (module attribute `checked`; nothing
// happens without it). Every load, store and atomic whose pointer traces
// back to one pointer argument (ir/analysis/WrittenArguments.h) checks each
// element's byte offset from that argument against the size of the buffer
// it was given. Elements out of bounds are masked off, so the access cannot
// fault, and the first failure of the launch is written to a report.
//
// The kernel gains arguments after its own: one i64 per pointer argument,
// the byte size of its buffer (negative: not checked), then a pointer to
// 8 zeroed i64 (TESSERA_CHECK_REPORT_SLOTS), the report: [0] what failed (1 load, 2 store,
// 3 atomic), [1] the argument's index, [2] line, [3] column, [4] the byte
// offset, [5..7] the program id. The first program to fail claims [0] with
// a compare-and-swap and writes the rest.
#include "ir/Builder.h"
#include "ir/analysis/WrittenArguments.h"
#include "ir/transforms/Passes.h"

#include <limits>

namespace tessera::ir {
namespace {

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
      guardUnmasked(op, b, ok);
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

  // An access without a mask (compare-and-swap) runs only when every
  // element is in bounds; its result is zero otherwise.
  void guardUnmasked(Operation *op, Builder &b, Value *ok) {
    Value *all = ok;
    if (ok->type().isTile()) all = b.cmp("eq", reduceAll(b, b.cast(ok, Type::i32()), OpCode::Min), b.constantInt(1, Type::i32()));
    Operation *guard = b.create(OpCode::If, {all}, {op->result()->type()});
    Value *result = op->result();
    Builder then(&guard->region(0).block()), otherwise(&guard->region(1).block());
    then.setLoc(op->loc());
    otherwise.setLoc(op->loc());
    Operation *yield = then.yield({result});
    Type t = result->type();
    Value *zero = otherwise.constantInt(0, Type::i64());
    zero = t.element().isFloat() ? otherwise.constantFloat(0, t.element()) : otherwise.cast(zero, t.element());
    otherwise.yield({t.isTile() ? otherwise.splat(zero, t.shape()) : zero});
    replaceUsesOutside(result, guard->result(), guard);
    op->moveBefore(yield);
  }

  void replaceUsesOutside(Value *from, Value *to, Operation *except) {
    f_.walk([&](Operation *user) {
      if (user == except || except->isAncestorOf(user)) return;
      for (unsigned i = 0; i < user->numOperands(); ++i)
        if (user->operand(i) == from) user->setOperand(i, to);
    });
  }

  // if any element is bad: claim the report, then fill it in.
  void report(Builder &b, Operation *op, int64_t kind, int arg, Value *bad, Value *offset) {
    Value *anyBad = bad, *first = offset;
    if (bad->type().isTile()) {  // one reduction: the least bad offset, or "none" if none is bad
      Value *none = b.constantInt(std::numeric_limits<int64_t>::max(), Type::i64());
      first = reduceAll(b, b.select(bad, offset, b.splat(none, offset->type().shape())), OpCode::Min);
      anyBad = b.cmp("ne", first, none);
    }
    Operation *failed = b.create(OpCode::If, {anyBad}, {});
    Builder fb(&failed->region(0).block());
    fb.setLoc(op->loc());
    AttrDict sem;
    sem.set("sem", Attribute(std::string("acq_rel")));
    sem.set("scope", Attribute(std::string("gpu")));
    Value *previous = fb.createValue(OpCode::AtomicCas, {report_, fb.constantInt(0, Type::i64()),
                                                          fb.constantInt(kind, Type::i64())}, Type::i64(), sem);
    Operation *claimed = fb.create(OpCode::If, {fb.cmp("eq", previous, fb.constantInt(0, Type::i64()))}, {});
    fb.yield({});
    Builder(&failed->region(1).block()).yield({});
    Builder cb(&claimed->region(0).block());
    cb.setLoc(op->loc());
    int64_t slot = 1;
    auto write = [&](Value *v) {
      Value *at = cb.createValue(OpCode::AddPtr, {report_, cb.constantInt(slot++, Type::i32())}, report_->type());
      cb.create(OpCode::Store, {at, v}, {});
    };
    write(cb.constantInt(arg, Type::i64()));
    write(cb.constantInt(int64_t(op->loc().line), Type::i64()));
    write(cb.constantInt(int64_t(op->loc().col), Type::i64()));
    write(first);
    for (int64_t axis = 0; axis < 3; ++axis) {
      AttrDict a;
      a.set("axis", Attribute(axis));
      write(cb.cast(cb.createValue(OpCode::ProgramId, {}, Type::i32(), std::move(a)), Type::i64()));
    }
    cb.yield({});
    Builder(&claimed->region(1).block()).yield({});
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
