#include "ir/Clone.h"

namespace tessera::ir {

Operation *cloneOp(Builder &b, const Operation &op, ValueMap &map) {
  std::vector<Value *> operands;
  for (Value *v : op.operands()) operands.push_back(lookupOrSelf(map, v));
  std::vector<Type> types;
  for (Value *r : op.results()) types.push_back(r->type());
  Loc saved = b.loc();
  b.setLoc(op.loc());
  Operation *copy = b.create(op.code(), operands, types, op.attrs());
  b.setLoc(saved);
  for (unsigned i = 0; i < op.numResults(); ++i) {
    copy->result(i)->setNameHint(op.result(i)->nameHint());
    map[op.result(i)] = copy->result(i);
  }
  for (unsigned r = 0; r < op.numRegions(); ++r) {
    const Block &src = op.region(r).block();
    Block &dst = copy->region(r).block();
    for (Value *a : src.arguments()) map[a] = dst.addArgument(a->type(), a->nameHint());
    Builder inner(&dst);
    for (auto &child : src.ops()) cloneOp(inner, *child, map);
  }
  return copy;
}

std::vector<Value *> cloneBlockBody(Builder &b, const Block &src, ValueMap &map) {
  std::vector<Value *> out;
  for (auto &op : src.ops()) {
    if (op->hasTrait(kTerminator)) {
      for (Value *v : op->operands()) out.push_back(lookupOrSelf(map, v));
      break;
    }
    cloneOp(b, *op, map);
  }
  return out;
}

} // namespace tessera::ir
