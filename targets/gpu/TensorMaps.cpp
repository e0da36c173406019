#include "targets/gpu/TensorMaps.h"

#include "ir/Layouts.h"

namespace tessera::targets::gpu {

using ir::OpCode;

namespace {

// The tile a desc_load reads or a desc_store writes.
ir::Type blockType(const ir::Operation &access) {
  return access.is(OpCode::DescStore) ? access.operand(1)->type() : access.result()->type();
}

} // namespace

int descriptorArgument(const ir::Operation &access) {
  const ir::Value *base = access.operand(3);
  const ir::Region *region = base->isBlockArgument() ? base->ownerBlock()->parentRegion() : nullptr;
  const ir::Function *f = region && !region->parentOp() ? region->parentFunction() : nullptr;
  if (!f || !f->isKernel()) return -1;
  unsigned a = base->index();
  int64_t rank = blockType(access).rank();
  if (f->argAttrs(a).getInt("descriptor", 0) != rank) return -1;
  for (unsigned i = 4; i < access.numOperands() - unsigned(rank); ++i)
    if (a + (i - 3) >= f->numArguments() || access.operand(i) != f->argument(a + (i - 3))) return -1;
  return int(a);
}

std::optional<TensorMapShape> tensorMapShape(const ir::Operation &access, int64_t atomBytes) {
  if (descriptorArgument(access) < 0) return std::nullopt;
  ir::Type t = blockType(access);
  if (t.rank() != 2 || t.element().bitWidth() % 8) return std::nullopt;
  int64_t elemBytes = t.element().bitWidth() / 8, rows = t.shape()[0], cols = t.shape()[1];
  if ((elemBytes != 1 && elemBytes != 2 && elemBytes != 4) || rows % 8 || rows > 256) return std::nullopt;
  int64_t rowBytes = cols * elemBytes;
  if (rowBytes > 128) {
    if (atomBytes != 128) return std::nullopt;
    return TensorMapShape{{rows, 128 / elemBytes}, 128};
  }
  if (rowBytes != 32 && rowBytes != 64 && rowBytes != 128) return std::nullopt;
  return TensorMapShape{{rows, cols}, rowBytes};
}

ir::Value *tensorMapArgument(const ir::Operation &access, const TensorMapShape &shape) {
  ir::Function &f = *access.parentFunction();
  std::vector<int64_t> attr = {descriptorArgument(access)};
  attr.insert(attr.end(), shape.box.begin(), shape.box.end());
  attr.push_back(shape.swizzle);
  for (unsigned i = 0; i < f.numArguments(); ++i)
    if (const ir::Attribute *a = f.argAttrs(i).find("tensor_map"); a && a->getInts() == attr) return f.argument(i);
  const ir::Value *base = f.argument(unsigned(attr[0]));
  ir::Value *arg = f.addArgument(ir::Type::pointer(ir::Type::scalar(ir::ScalarKind::I8)), base->nameHint() + "_tensor_map");
  f.argAttrs(arg->index()).set("tensor_map", ir::Attribute(attr));
  return arg;
}

ir::Type tensorMapBuffer(ir::Type tile, int64_t atomBytes) {
  int elemBytes = std::max(1, tile.element().bitWidth() / 8);
  return ir::Type::buffer(tile.shape(), tile.element(), ir::swizzledSharedLayout(tile.shape(), {1, 0}, elemBytes, 0, atomBytes));
}

} // namespace tessera::targets::gpu
