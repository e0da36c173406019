#include "ir/Builder.h"

#include <cassert>

namespace tessera::ir {

Operation *Builder::create(OpCode code, std::vector<Value *> operands, std::vector<Type> resultTypes,
                           AttrDict attrs) {
  assert(block_ && "builder has no insertion point");
  auto op = std::make_unique<Operation>(code, std::move(operands), resultTypes, std::move(attrs), loc_);
  return before_ ? block_->insertBefore(before_, std::move(op)) : block_->append(std::move(op));
}

Value *Builder::constantInt(int64_t v, Type type) {
  AttrDict a;
  a.set("value", Attribute(v));
  return createValue(OpCode::Constant, {}, type, std::move(a));
}

Value *Builder::constantFloat(double v, Type type) {
  AttrDict a;
  a.set("value", Attribute(v));
  return createValue(OpCode::Constant, {}, type, std::move(a));
}

Value *Builder::sameType(OpCode code, std::vector<Value *> operands, AttrDict attrs) {
  Type t = operands.at(0)->type();
  return createValue(code, std::move(operands), t, std::move(attrs));
}

Value *Builder::cmp(std::string_view pred, Value *a, Value *b) {
  AttrDict attrs;
  attrs.set("pred", Attribute(std::string(pred)));
  return createValue(OpCode::Cmp, {a, b}, a->type().withElement(Type::i1()), std::move(attrs));
}

Value *Builder::select(Value *cond, Value *a, Value *b) {
  return createValue(OpCode::Select, {cond, a, b}, a->type());
}

Value *Builder::cast(Value *v, Type elementType) {
  return createValue(OpCode::Cast, {v}, v->type().withElement(elementType));
}

Value *Builder::splat(Value *scalar, std::vector<int64_t> shape) {
  return createValue(OpCode::Splat, {scalar}, Type::tile(std::move(shape), scalar->type()));
}

Value *Builder::arange(int64_t start, int64_t end) {
  AttrDict a;
  a.set("start", Attribute(start));
  a.set("end", Attribute(end));
  return createValue(OpCode::Arange, {}, Type::tile({end - start}, Type::i32()), std::move(a));
}

Operation *Builder::yield(std::vector<Value *> values) {
  return create(OpCode::Yield, std::move(values), {});
}

} // namespace tessera::ir
