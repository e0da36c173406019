#include "ir/analysis/WrittenArguments.h"

#include <algorithm>
#include <unordered_set>

namespace tessera::ir {

namespace {

class Tracer {
public:
  explicit Tracer(const Function &f) : f_(f), written_(f.numArguments(), false) {}

  std::vector<bool> run() {
    visit(f_.entry());
    // A tensor map that a target's stores write through (ir/IR.h).
    for (unsigned i = 0; i < f_.numArguments(); ++i)
      if (int d = tensorMapTensor(f_, i); d >= 0) {
        const Attribute *stores = f_.argAttrs(i).find("stores");
        if (stores && stores->isBool() && stores->getBool()) written_[size_t(d)] = true;
      }
    return written_;
  }

  // The arguments `ptr` comes from; empty when part of it is not traced.
  std::vector<bool> originsOf(const Value *ptr) {
    origin(ptr);
    return untraced_ ? std::vector<bool>(written_.size(), false) : written_;
  }

private:
  void visit(const Block &b) {
    for (const auto &op : b.ops()) {
      bool writes = op->is(OpCode::Store) || op->is(OpCode::DescStore) || op->is(OpCode::AtomicRmw) || op->is(OpCode::AtomicCas) ||
                    op->is(OpCode::VStore);
      if (writes && op->numOperands() && op->operand(0)->type().element().isPointer()) origin(op->operand(0));
      for (unsigned r = 0; r < op->numRegions(); ++r) visit(op->region(r).block());
    }
  }

  void origin(const Value *v) {
    if (!v || !seen_.insert(v).second) return;
    if (const Operation *d = v->definingOp()) return fromOp(*d, v->index());
    const Block *owner = v->ownerBlock();
    const Operation *parent = owner ? owner->parentOp() : nullptr;
    if (!parent) {  // the function's own arguments
      if (owner == &f_.entry()) written_[v->index()] = true;
      return;
    }
    unsigned k = v->index();
    if (parent->is(OpCode::For)) {  // (iv, carried...) <- (lb, ub, step, inits...), body yields
      if (k == 0) return;
      origin(parent->operand(2 + k));
      yielded(parent->region(0).block(), k - 1);
    } else if (parent->is(OpCode::While)) {
      if (owner == &parent->region(0).block()) {  // before: inits, and what the body yields
        origin(parent->operand(k));
        yielded(parent->region(1).block(), k);
      } else {  // after: what the condition forwards
        yielded(parent->region(0).block(), k + 1);
      }
    } else {
      untraced_ = true;
    }
  }

  void fromOp(const Operation &d, unsigned result) {
    switch (d.code()) {
    case OpCode::AddPtr:
    case OpCode::Splat:
    case OpCode::Broadcast:
    case OpCode::ExpandDims:
    case OpCode::Reshape:
    case OpCode::Trans:
    case OpCode::ConvertLayout:
    case OpCode::Hint:
      return origin(d.operand(0));
    case OpCode::Select:
      origin(d.operand(1));
      return origin(d.operand(2));
    case OpCode::For:
      return yielded(d.region(0).block(), result);
    case OpCode::If:
      for (unsigned r = 0; r < d.numRegions(); ++r) yielded(d.region(r).block(), result);
      return;
    case OpCode::While:
      return yielded(d.region(0).block(), result + 1);  // the condition forwards the results
    default:
      untraced_ = true;  // loaded, computed from integers...: not traced
      return;
    }
  }

  void yielded(const Block &b, unsigned k) {
    const Operation *t = b.terminator();
    if (t && k < t->numOperands()) origin(t->operand(k));
  }

  const Function &f_;
  std::vector<bool> written_;
  bool untraced_ = false;
  std::unordered_set<const Value *> seen_;
};

} // namespace

std::vector<bool> writtenPointerArguments(const Function &f) { return Tracer(f).run(); }

namespace {

bool writesThrough(const Operation &op) {
  return op.is(OpCode::Store) || op.is(OpCode::DescStore) || op.is(OpCode::AtomicRmw) || op.is(OpCode::AtomicCas) ||
         op.is(OpCode::VStore) || op.is(OpCode::TmaStore);
}

class MayWrite {
public:
  // `calling`: the functions whose analysis is under way (a recursive call
  // marks everything: it cannot be answered from what is known yet).
  MayWrite(const Module &m, const Function &f, std::vector<const Function *> &calling)
      : m_(m), f_(f), calling_(calling), written_(f.numArguments(), false) {}

  std::vector<bool> run() {
    calling_.push_back(&f_);
    visit(f_.entry());
    calling_.pop_back();
    if (everything_)
      for (unsigned i = 0; i < f_.numArguments(); ++i) {
        if (!f_.argument(i)->type().isScalar() || tensorMapTensor(f_, i) >= 0) written_[i] = true;  // not a number
      }
    return written_;
  }

private:
  void visit(const Block &b) {
    for (const auto &op : b.ops()) {
      if (writesThrough(*op) && op->numOperands()) {
        through(op->operand(0));
      } else if (op->is(OpCode::Call)) {
        call(*op);
      } else if (op->is(OpCode::ExternElementwise) && !op->attrs().getBool("pure", false)) {
        for (const Value *v : op->operands())  // a device-library function sees only its operands
          if (v->type().element().isPointer()) through(v);
      } else if (op->is(OpCode::InlineAsm) && !op->attrs().getBool("pure", false)) {
        everything_ = true;
      }
      for (unsigned r = 0; r < op->numRegions(); ++r) visit(op->region(r).block());
    }
  }

  void call(const Operation &op) {
    const Attribute *name = op.attrs().find("callee");
    const Function *callee = name && name->isString() ? m_.lookup(name->getString()) : nullptr;
    if (!callee || callee->numArguments() != op.numOperands() ||
        std::find(calling_.begin(), calling_.end(), callee) != calling_.end()) {
      everything_ = true;
      return;
    }
    std::vector<bool> writes = MayWrite(m_, *callee, calling_).run();
    for (unsigned i = 0; i < op.numOperands(); ++i)
      if (writes[i]) through(op.operand(i));
  }

  void through(const Value *ptr) {
    std::vector<bool> origins = Tracer(f_).originsOf(ptr);
    bool any = false;
    for (size_t i = 0; i < origins.size(); ++i)
      if (origins[i]) written_[i] = any = true;
    if (!any) everything_ = true;  // not traced to an argument: it may be any of them
  }

  const Module &m_;
  const Function &f_;
  std::vector<const Function *> &calling_;
  std::vector<bool> written_;
  bool everything_ = false;
};

} // namespace

std::vector<bool> mayWriteArguments(const Module &m, const Function &f) {
  std::vector<const Function *> calling;
  return MayWrite(m, f, calling).run();
}

int pointerArgument(const Function &f, const Value *ptr) {
  std::vector<bool> origins = Tracer(f).originsOf(ptr);
  int found = -1;
  for (size_t i = 0; i < origins.size(); ++i)
    if (origins[i]) {
      if (found >= 0) return -1;
      found = int(i);
    }
  return found;
}

} // namespace tessera::ir
