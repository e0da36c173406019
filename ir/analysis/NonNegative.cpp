#include "ir/analysis/NonNegative.h"

namespace tessera::ir {

bool NonNegative::proves(const Value *v) {
  if (auto it = known_.find(v); it != known_.end()) return it->second;
  known_[v] = false;  // a cycle (none in structured IR) proves nothing
  bool result = compute(v);
  known_[v] = result;
  return result;
}

bool NonNegative::compute(const Value *v) {
  Type t = v->type();
  if (!t.isScalar() || !t.isInteger()) return false;
  if (t.isUnsigned()) return true;
  const Operation *op = v->definingOp();
  if (!op) {
    // A for body's first argument, the induction variable, starts at the
    // lower bound and only grows (step > 0).
    const Operation *owner = v->ownerBlock()->parentOp();
    return owner && owner->is(OpCode::For) && v->index() == 0 && proves(owner->operand(0));
  }
  auto operands = [&](unsigned from, unsigned to) {
    for (unsigned i = from; i < to; ++i)
      if (!proves(op->operand(i))) return false;
    return true;
  };
  switch (op->code()) {
  case OpCode::Constant: {
    const Attribute *value = op->attr("value");
    return value && value->isInt() && value->getInt() >= 0;
  }
  case OpCode::ProgramId:
  case OpCode::NumPrograms:
  case OpCode::ThreadId:
  case OpCode::LaneId:
  case OpCode::WarpId:
    return true;
  case OpCode::Add:
  case OpCode::Mul:
  case OpCode::Shl:
  case OpCode::Div:
  case OpCode::Min:
  case OpCode::Or:
  case OpCode::Xor:
    return operands(0, 2);
  case OpCode::Rem:  // the dividend's sign
  case OpCode::Shr:  // arithmetic on signed types
  case OpCode::Hint:
    return proves(op->operand(0));
  case OpCode::Max:
  case OpCode::And:
    return proves(op->operand(0)) || proves(op->operand(1));
  case OpCode::Select:
    return operands(1, 3);
  case OpCode::Cast: {
    Type from = op->operand(0)->type();
    if (!from.isInteger()) return false;  // float to int may be negative
    if (from.isUnsigned()) return from.bitWidth() < t.bitWidth();
    return proves(op->operand(0));
  }
  default:
    return false;
  }
}

} // namespace tessera::ir
