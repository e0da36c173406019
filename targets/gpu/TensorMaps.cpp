#include "targets/gpu/TensorMaps.h"

#include "ir/Layouts.h"

#include <algorithm>

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

// The factors of one extent or stride of a descriptor made in the kernel
// (ir/IR.h, tensor_map_fields): i32 or i64 arguments of kernel `f` ("aN",
// through widening casts) and positive constants, multiplied (tutorial
// 06's Z * H * N_CTX rows); `divisor` gets a divisor of the product (the
// arguments' divisibility, the constants). False for anything else.
bool factorsOf(const ir::Function &f, const ir::Value *v, std::vector<std::string> &factors, int64_t &divisor) {
  const ir::Operation *def = v->definingOp();
  auto times = [&](int64_t d) { divisor = std::min(divisor * std::max<int64_t>(d, 1), int64_t(1) << 32); };
  if (def && def->is(OpCode::Constant)) {
    const ir::Attribute *a = def->attr("value");
    if (!a || !a->isInt() || a->getInt() < 1) return false;
    factors.push_back(std::to_string(a->getInt()));
    times(a->getInt());
    return true;
  }
  if (def && def->is(OpCode::Cast) && def->operand(0)->type().isScalar() && def->operand(0)->type().isSigned() &&
      def->operand(0)->type().bitWidth() == 32)
    return factorsOf(f, def->operand(0), factors, divisor);
  if (def && def->is(OpCode::Mul) && v->type().isScalar() && v->type().isSigned())
    return factorsOf(f, def->operand(0), factors, divisor) && factorsOf(f, def->operand(1), factors, divisor);
  if (kernelOfArgument(v) != &f || !v->type().isScalar() || !v->type().isSigned() ||
      (v->type().bitWidth() != 32 && v->type().bitWidth() != 64))
    return false;
  factors.push_back("a" + std::to_string(v->index()));
  times(f.argAttrs(v->index()).getInt("divisibility", 1));
  return true;
}

// Field `v` as tensor_map_fields writes it, or nullopt; a stride
// (`strideBytes`: the element's bytes) must be a multiple of 16 bytes by
// its factors' divisibility.
std::optional<std::string> fieldSource(const ir::Function &f, const ir::Value *v, int64_t strideBytes) {
  std::vector<std::string> factors;
  int64_t divisor = 1;
  if (!factorsOf(f, v, factors, divisor) || (strideBytes && (divisor * strideBytes) % 16)) return std::nullopt;
  std::string field;
  for (const std::string &x : factors) field += (field.empty() ? "" : "*") + x;
  return field;
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
  TensorMapSource source{int(base->index()), ""};
  for (int64_t i = 0; i < 2 * rank - 1; ++i) {
    std::optional<std::string> field = fieldSource(*f, access.operand(unsigned(4 + i)), i < rank ? 0 : elemBytes);
    if (!field) return std::nullopt;
    source.fields += *field + " ";
  }
  source.fields += "1";  // the last stride
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
    if (a && a->getInts() == attr && (fields ? fields->isString() && fields->getString() == source.fields : source.fields.empty()))
      return f.argument(i);
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
