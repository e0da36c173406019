#include "targets/gpu/TensorMaps.h"

#include "ir/Layouts.h"

namespace tessera::targets::gpu {

using ir::OpCode;

namespace {

// The tile a desc_load reads or a desc_store writes.
ir::Type blockType(const ir::Operation &access) {
  return access.is(OpCode::DescStore) ? access.operand(1)->type() : access.result()->type();
}

// The kernel whose argument `v` is, or null.
const ir::Function *kernelOfArgument(const ir::Value *v) {
  const ir::Region *region = v->isBlockArgument() ? v->ownerBlock()->parentRegion() : nullptr;
  const ir::Function *f = region && !region->parentOp() ? region->parentFunction() : nullptr;
  return f && f->isKernel() ? f : nullptr;
}

// Where one extent or stride of a descriptor made in the kernel comes from
// (ir/IR.h, tensor_map_fields): an i32 or i64 argument of kernel `f`
// (through a widening cast) or a constant; strides (`strideBytes`: the
// element's bytes) must be multiples of 16 bytes by the argument's
// divisibility or the constant's value.
std::optional<int64_t> fieldSource(const ir::Function &f, const ir::Value *v, int64_t strideBytes) {
  const ir::Operation *def = v->definingOp();
  if (def && def->is(OpCode::Constant)) {
    const ir::Attribute *a = def->attr("value");
    if (!a || !a->isInt()) return std::nullopt;
    int64_t c = a->getInt();
    if (c < 1 || c > (int64_t(1) << 31) || (strideBytes && (c * strideBytes) % 16)) return std::nullopt;
    return -c;
  }
  if (def && def->is(OpCode::Cast) && def->operand(0)->type().isScalar() && def->operand(0)->type().isInteger() &&
      def->operand(0)->type().bitWidth() == 32 && def->operand(0)->type().isSigned())
    v = def->operand(0);
  if (kernelOfArgument(v) != &f || !v->type().isScalar() || !v->type().isSigned() ||
      (v->type().bitWidth() != 32 && v->type().bitWidth() != 64))
    return std::nullopt;
  int64_t div = f.argAttrs(v->index()).getInt("divisibility", 1);
  if (strideBytes && (div * strideBytes) % 16) return std::nullopt;
  return int64_t(v->index());
}

} // namespace

int descriptorArgument(const ir::Operation &access) {
  const ir::Value *base = access.operand(3);
  const ir::Function *f = kernelOfArgument(base);
  if (!f) return -1;
  unsigned a = base->index();
  int64_t rank = blockType(access).rank();
  if (f->argAttrs(a).getInt("descriptor", 0) != rank) return -1;
  for (unsigned i = 4; i < access.numOperands() - unsigned(rank); ++i)
    if (a + (i - 3) >= f->numArguments() || access.operand(i) != f->argument(a + (i - 3))) return -1;
  return int(a);
}

std::optional<TensorMapSource> tensorMapSource(const ir::Operation &access) {
  if (int d = descriptorArgument(access); d >= 0) return TensorMapSource{d, {}};
  const ir::Value *base = access.operand(3);
  const ir::Function *f = kernelOfArgument(base);
  if (!f || !base->type().isPointer() || f->argAttrs(base->index()).getInt("divisibility", 1) % 16) return std::nullopt;
  ir::Type t = blockType(access);
  int64_t rank = t.rank(), elemBytes = std::max(1, t.element().bitWidth() / 8);
  TensorMapSource source{int(base->index()), {}};
  for (int64_t i = 0; i < 2 * rank - 1; ++i) {
    std::optional<int64_t> field = fieldSource(*f, access.operand(unsigned(4 + i)), i < rank ? 0 : elemBytes);
    if (!field) return std::nullopt;
    source.fields.push_back(*field);
  }
  source.fields.push_back(-1);  // the last stride
  return source;
}

std::optional<TensorMapShape> tensorMapShape(const ir::Operation &access, int64_t atomBytes) {
  if (!tensorMapSource(access)) return std::nullopt;
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
  TensorMapSource source = *tensorMapSource(access);
  std::vector<int64_t> attr = {source.base};
  attr.insert(attr.end(), shape.box.begin(), shape.box.end());
  attr.push_back(shape.swizzle);
  for (unsigned i = 0; i < f.numArguments(); ++i) {
    const ir::Attribute *a = f.argAttrs(i).find("tensor_map"), *fields = f.argAttrs(i).find("tensor_map_fields");
    if (a && a->getInts() == attr && (fields ? fields->getInts() == source.fields : source.fields.empty())) return f.argument(i);
  }
  const ir::Value *base = f.argument(unsigned(attr[0]));
  ir::Value *arg = f.addArgument(ir::Type::pointer(ir::Type::scalar(ir::ScalarKind::I8)), base->nameHint() + "_tensor_map");
  f.argAttrs(arg->index()).set("tensor_map", ir::Attribute(attr));
  if (!source.fields.empty()) f.argAttrs(arg->index()).set("tensor_map_fields", ir::Attribute(source.fields));
  return arg;
}

ir::Type tensorMapBuffer(ir::Type tile, int64_t atomBytes) {
  int elemBytes = std::max(1, tile.element().bitWidth() / 8);
  return ir::Type::buffer(tile.shape(), tile.element(), ir::swizzledSharedLayout(tile.shape(), {1, 0}, elemBytes, 0, atomBytes));
}

} // namespace tessera::targets::gpu
