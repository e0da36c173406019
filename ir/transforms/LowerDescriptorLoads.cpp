// lower-descriptor-loads: every desc_load becomes the load it stands for
// (its pointers, mask and other), and every desc_store the store (pointers,
// value, mask); the coordinates go unused. Targets run it first, or
// (NVIDIA) after pipeline-loops and tensor-map-stores have moved the blocks
// they could with tensor maps.
#include "ir/Builder.h"
#include "ir/transforms/Passes.h"

namespace tessera::ir {

void lowerDescriptorLoads(Module &m) {
  for (auto &f : m.functions()) {
    std::vector<Operation *> loads;
    f->walk([&](Operation *op) {
      if (op->is(OpCode::DescLoad) || op->is(OpCode::DescStore)) loads.push_back(op);
    });
    for (Operation *op : loads) {
      Builder b;
      b.setInsertionPoint(op);
      b.setLoc(op->loc());
      if (op->is(OpCode::DescStore)) {
        b.create(OpCode::Store, {op->operand(0), op->operand(1), op->operand(2)}, {});
        op->erase();
        continue;
      }
      Value *load = b.createValue(OpCode::Load, {op->operand(0), op->operand(1), op->operand(2)}, op->result()->type());
      op->result()->replaceAllUsesWith(load);
      op->erase();
    }
  }
}

} // namespace tessera::ir
