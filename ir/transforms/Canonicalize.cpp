// canonicalize: folds constants and applies local simplifications, round
// after round until none applies (at most 16 rounds): algebraic identities (x + 0, x * 1, x & x, ...), no-op casts and
// shape ops, ops on constant tiles, select and if on a constant condition,
// for loops that run zero times, constants moved to the right of
// commutative ops, and x + dot(a, b, 0) as dot(a, b, x) (the matrix unit
// accumulates into x: one accumulator live instead of two; a dot's sums
// are in an order the target picks, ir/IR.h). Ops it leaves unused and
// pure are removed.
#include "ir/Builder.h"
#include "ir/Clone.h"
#include "ir/Fold.h"
#include "ir/analysis/Effects.h"
#include "ir/transforms/Passes.h"

namespace tessera::ir {
namespace {

constexpr int kMaxIterations = 16;

bool isConstantEqual(const Value *v, double f, int64_t i) {
  auto c = constantValue(v);
  if (!c) return false;
  return c->isFloat() ? c->getFloat() == f : c->getInt() == i;
}
bool isZero(const Value *v) { return isConstantEqual(v, 0.0, 0); }
bool isOne(const Value *v) { return isConstantEqual(v, 1.0, 1); }
bool isAllOnes(const Value *v) {
  auto c = constantValue(v);
  return c && c->isInt() && c->getInt() == normalizeInt(-1, v->type());
}

class Canonicalizer {
public:
  bool run(Block &b) {
    bool changed = false;
    for (Operation *op : b.opsVector()) {
      for (unsigned r = 0; r < op->numRegions(); ++r) changed |= run(op->region(r).block());
      changed |= simplify(op);
    }
    return changed;
  }

private:
  // Replaces op's results and erases it.
  bool replace(Operation *op, const std::vector<Value *> &values) {
    for (unsigned i = 0; i < op->numResults(); ++i) op->result(i)->replaceAllUsesWith(values[i]);
    op->erase();
    return true;
  }
  bool replace(Operation *op, Value *v) { return replace(op, std::vector<Value *>{v}); }

  Value *constant(Operation *before, const Attribute &value, Type type) {
    Builder b;
    b.setInsertionPoint(before);
    b.setLoc(before->loc());
    AttrDict attrs;
    attrs.set("value", value);
    return b.createValue(OpCode::Constant, {}, type, std::move(attrs));
  }

  bool simplify(Operation *op) {
    if (op->hasTrait(kPure) && op->numRegions() == 0) {
      bool used = false;
      for (unsigned i = 0; i < op->numResults(); ++i) used |= op->result(i)->hasUses();
      if (!used) {
        op->erase();
        return true;
      }
    }
    if (foldConstants(op)) return true;
    switch (op->code()) {
    case OpCode::Add:
    case OpCode::Or:
    case OpCode::Xor:
      if (op->numOperands() == 2 && isZero(op->operand(1)) && !op->result()->type().isFloat())
        return replace(op, op->operand(0));
      break;
    case OpCode::Sub:
    case OpCode::Shl:
    case OpCode::Shr:
      if (isZero(op->operand(1)) && !op->result()->type().isFloat()) return replace(op, op->operand(0));
      break;
    default: break;
    }
    if (op->is(OpCode::Add) && foldAddIntoDot(op)) return true;
    switch (op->code()) {
    case OpCode::Mul:
    case OpCode::Div:
      if (isOne(op->operand(1))) return replace(op, op->operand(0));
      if (op->is(OpCode::Mul) && op->result()->type().isInteger() && isZero(op->operand(1)))
        return replace(op, op->operand(1));
      break;
    case OpCode::And:
      if (isZero(op->operand(1))) return replace(op, op->operand(1));
      if (isAllOnes(op->operand(1)) || op->operand(0) == op->operand(1)) return replace(op, op->operand(0));
      break;
    case OpCode::Or:
    case OpCode::Min:
    case OpCode::Max:
      if (op->operand(0) == op->operand(1)) return replace(op, op->operand(0));
      break;
    case OpCode::Xor:
    case OpCode::Sub:
      if (op->operand(0) == op->operand(1) && op->result()->type().isInteger())
        return replace(op, constant(op, Attribute(int64_t(0)), op->result()->type()));
      break;
    case OpCode::Cast:
    case OpCode::Bitcast:
    case OpCode::Broadcast:
    case OpCode::Reshape:
      if (op->result()->type() == op->operand(0)->type()) return replace(op, op->operand(0));
      break;
    case OpCode::ConvertLayout: {
      if (op->result()->type() == op->operand(0)->type()) return replace(op, op->operand(0));
      // A conversion of a conversion converts the original once.
      Operation *inner = op->operand(0)->definingOp();
      if (inner && inner->is(OpCode::ConvertLayout)) {
        op->setOperand(0, inner->operand(0));
        return true;
      }
      break;
    }
    case OpCode::AddPtr:
      if (isZero(op->operand(1))) return replace(op, op->operand(0));
      break;
    case OpCode::Select:
      if (op->operand(1) == op->operand(2)) return replace(op, op->operand(1));
      if (auto c = constantValue(op->operand(0)))
        return replace(op, c->getInt() ? op->operand(1) : op->operand(2));
      break;
    case OpCode::If:
      if (auto c = constantValue(op->operand(0))) return inlineRegion(op, c->getInt() ? 0 : 1);
      break;
    case OpCode::For: return removeEmptyLoop(op) || dropInvariantIterArgs(op);
    default: break;
    }
    if (op->hasTrait(kCommutative) && op->numOperands() == 2 && constantValue(op->operand(0)) &&
        !constantValue(op->operand(1))) {
      Value *a = op->operand(0), *b = op->operand(1);
      op->setOperands({b, a});
      return true;
    }
    return false;
  }

  // add(x, dot(a, b, 0)) (either order) -> dot(a, b, x) when the add is
  // the dot's only user.
  bool foldAddIntoDot(Operation *add) {
    for (unsigned i = 0; i < 2; ++i) {
      Value *product = add->operand(i), *other = add->operand(1 - i);
      Operation *dot = product->definingOp();
      if (!dot || !dot->is(OpCode::Dot) || !isZero(dot->operand(2)) || product->users().size() != 1 ||
          other->type() != add->result()->type() || product->type() != add->result()->type())
        continue;
      Builder b;
      b.setInsertionPoint(add);
      b.setLoc(dot->loc());
      return replace(add, b.createValue(OpCode::Dot, {dot->operand(0), dot->operand(1), other}, product->type(),
                                        dot->attrs()));
    }
    return false;
  }

  // Elementwise ops on constants, and shape ops that only re-shape a splat.
  bool foldConstants(Operation *op) {
    if (op->numResults() != 1 || op->numRegions() || !op->hasTrait(kPure) || op->numOperands() == 0) return false;
    std::vector<Attribute> values;
    for (Value *v : op->operands()) {
      auto c = constantValue(v);
      if (!c) return false;
      values.push_back(*c);
    }
    switch (op->code()) {
    case OpCode::Splat:
    case OpCode::Broadcast:
    case OpCode::ExpandDims:
    case OpCode::Reshape:
    case OpCode::Trans:
      return replace(op, constant(op, values[0], op->result()->type()));
    default: break;
    }
    auto folded = foldElementwise(*op, values);
    if (!folded) return false;
    return replace(op, constant(op, *folded, op->result()->type()));
  }

  // Moves one region of `op` in front of it and forwards its yielded values.
  bool inlineRegion(Operation *op, unsigned region) {
    Block &body = op->region(region).block();
    Operation *yield = body.terminator();
    std::vector<Value *> yielded = yield ? yield->operands() : std::vector<Value *>{};
    for (Operation *inner : body.opsVector())
      if (inner != yield) inner->moveBefore(op);
    return replace(op, yielded);
  }

  // An iter value that the body yields back unchanged is its init throughout.
  bool dropInvariantIterArgs(Operation *loop) {
    Block &body = loop->region(0).block();
    Operation *yield = body.terminator();
    if (!yield || yield->numOperands() != loop->numResults()) return false;
    std::vector<unsigned> keep;
    for (unsigned i = 0; i < loop->numResults(); ++i) {
      Value *y = yield->operand(i), *arg = body.argument(i + 1), *init = loop->operand(3 + i);
      if (y == arg || y == init) {
        arg->replaceAllUsesWith(init);
        loop->result(i)->replaceAllUsesWith(init);
      } else {
        keep.push_back(i);
      }
    }
    if (keep.size() == loop->numResults()) return false;
    std::vector<Value *> operands(loop->operands().begin(), loop->operands().begin() + 3);
    std::vector<Type> types;
    for (unsigned i : keep) operands.push_back(loop->operand(3 + i)), types.push_back(loop->result(i)->type());
    Builder b;
    b.setInsertionPoint(loop);
    b.setLoc(loop->loc());
    Operation *fresh = b.create(OpCode::For, operands, types, loop->attrs());
    Block &nb = fresh->region(0).block();
    body.argument(0)->replaceAllUsesWith(nb.addArgument(body.argument(0)->type(), body.argument(0)->nameHint()));
    for (unsigned k = 0; k < keep.size(); ++k) {
      Value *old = body.argument(keep[k] + 1);
      old->replaceAllUsesWith(nb.addArgument(old->type(), old->nameHint()));
      loop->result(keep[k])->replaceAllUsesWith(fresh->result(k));
      fresh->result(k)->setNameHint(loop->result(keep[k])->nameHint());
    }
    std::vector<Value *> yielded;
    for (unsigned i : keep) yielded.push_back(yield->operand(i));
    yield->setOperands(yielded);
    for (Operation *inner : body.opsVector()) nb.append(body.take(inner));
    loop->erase();
    return true;
  }

  bool removeEmptyLoop(Operation *op) {
    auto lb = constantValue(op->operand(0)), ub = constantValue(op->operand(1));
    if (!lb || !ub) return false;
    Type t = op->operand(0)->type();
    bool empty = t.isSigned() ? lb->getInt() >= ub->getInt() : uint64_t(lb->getInt()) >= uint64_t(ub->getInt());
    if (!empty) return false;
    std::vector<Value *> inits(op->operands().begin() + 3, op->operands().end());
    return replace(op, inits);
  }
};

} // namespace

void canonicalize(Module &m) {
  for (auto &f : m.functions())
    for (int i = 0; i < kMaxIterations && Canonicalizer().run(f->entry()); ++i) {
    }
}

} // namespace tessera::ir
