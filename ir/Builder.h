// Builder: creates ops at an insertion point. `create` is generic over the op
// table; the helpers below infer result types for the common ops.
#pragma once

#include "ir/IR.h"

namespace tessera::ir {

class Builder {
public:
  Builder() = default;
  explicit Builder(Block *block) { setInsertionPointToEnd(block); }

  void setInsertionPointToEnd(Block *block) { block_ = block, before_ = nullptr; }
  void setInsertionPoint(Operation *before) { block_ = before->parentBlock(), before_ = before; }
  Block *block() const { return block_; }
  void setLoc(Loc loc) { loc_ = std::move(loc); }
  const Loc &loc() const { return loc_; }

  // Creates an op with the table's number of (empty) regions.
  Operation *create(OpCode code, std::vector<Value *> operands, std::vector<Type> resultTypes,
                    AttrDict attrs = {});
  // Single-result shorthand.
  Value *createValue(OpCode code, std::vector<Value *> operands, Type resultType, AttrDict attrs = {}) {
    return create(code, std::move(operands), {resultType}, std::move(attrs))->result();
  }

  Value *constantInt(int64_t v, Type type);
  Value *constantFloat(double v, Type type);
  // Ops whose result type is their first operand's (kSameType ops, hint).
  Value *sameType(OpCode code, std::vector<Value *> operands, AttrDict attrs = {});
  Value *cmp(std::string_view pred, Value *a, Value *b);
  Value *select(Value *cond, Value *a, Value *b);
  Value *cast(Value *v, Type elementType);
  Value *splat(Value *scalar, std::vector<int64_t> shape);
  Value *arange(int64_t start, int64_t end);
  Operation *yield(std::vector<Value *> values);

private:
  Block *block_ = nullptr;
  Operation *before_ = nullptr;
  Loc loc_;
};

} // namespace tessera::ir
