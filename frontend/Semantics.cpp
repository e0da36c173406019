// Triton's typing rules for operators, casts and broadcasting, and Python's
// rules for compile-time values.
#include "frontend/CodeGen.h"

#include "ir/Fold.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tessera::frontend {

using ir::OpCode;
using ir::ScalarKind;
using ir::Type;
using Kind = SValue::Kind;

namespace {

constexpr BigInt kI32Min = -(BigInt(1) << 31), kU32End = BigInt(1) << 32, kI64Min = -(BigInt(1) << 63),
                 kI64End = BigInt(1) << 63, kU64End = BigInt(1) << 64;

int kindRank(Type t) { return t.isBool() ? 0 : t.isInteger() ? 1 : 2; }  // bool < int < float

// Python's floor division and modulo on integers.
BigInt floorDiv(BigInt a, BigInt b) {
  BigInt q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
BigInt floorMod(BigInt a, BigInt b) { return a - floorDiv(a, b) * b; }

double asDouble(const SValue &v) {
  return v.is(Kind::Float) ? v.f : v.is(Kind::Bool) ? double(v.b) : double(v.i);
}
BigInt asInt(const SValue &v) { return v.is(Kind::Bool) ? BigInt(v.b) : v.i; }

} // namespace

// ---- constants, casts, broadcasting

ir::Type CodeGen::pyScalarType(const SValue &v, SourceLoc loc) const {
  switch (v.kind) {
  case Kind::Bool: return Type::i1();
  case Kind::Int:
    if (v.i >= kI32Min && v.i < -kI32Min) return Type::i32();
    if (v.i >= 0 && v.i < kU32End) return Type::scalar(ScalarKind::U32);
    if (v.i >= kI64Min && v.i < kI64End) return Type::i64();
    if (v.i >= 0 && v.i < kU64End) return Type::scalar(ScalarKind::U64);
    fail(loc, "integer " + bigIntToString(v.i) + " does not fit in 64 bits");
  case Kind::Float: {
    double a = std::fabs(v.f);
    bool fitsF32 = a == 0 || std::isnan(a) || std::isinf(a) ||
                   (a >= double(std::numeric_limits<float>::min()) && a <= double(std::numeric_limits<float>::max()));
    return fitsF32 ? Type::f32() : Type::scalar(ScalarKind::F64);
  }
  default: fail(loc, "expected a number or a tensor, found " + v.describe());
  }
}

ir::Value *CodeGen::constant(double f, ir::Type type) {
  return type.isFloat() ? b_.constantFloat(f, type) : b_.constantInt(ir::normalizeInt(int64_t(f), type), type);
}

ir::Value *CodeGen::constant(BigInt i, ir::Type type) {
  if (type.isFloat()) return b_.constantFloat(double(i), type);
  if (type.isBool()) return b_.constantInt(i != 0, type);
  return b_.constantInt(ir::normalizeInt(int64_t(i), type), type);
}

ir::Value *CodeGen::constantLike(ir::Value *like, double f, BigInt i) {
  Type t = like->type();
  return t.isFloat() ? constant(f, t) : constant(i, t);
}

ir::Value *CodeGen::toTensor(const SValue &v, SourceLoc loc, ir::Type elementType) {
  if (v.isTensor()) return elementType ? cast(v.v, elementType, loc) : v.v;
  Type t = elementType ? elementType : pyScalarType(v, loc);
  if (!v.isNumber()) fail(loc, "expected a number or a tensor, found " + v.describe());
  b_.setLoc(irLoc(loc));
  if (v.is(Kind::Float)) {
    if (t.isInteger()) return cast(b_.constantFloat(v.f, pyScalarType(v, loc)), t, loc);
    return b_.constantFloat(v.f, t);
  }
  return constant(asInt(v), t);
}

ir::Value *CodeGen::cast(ir::Value *v, ir::Type elem, SourceLoc loc, bool bitcast, std::string rounding) {
  Type from = v->type();
  if (from.element() == elem) return v;
  b_.setLoc(irLoc(loc));
  Type to = from.withElement(elem);
  if (bitcast) {
    if (from.bitWidth() != elem.bitWidth())
      fail(loc, "cannot bitcast " + dtypeName(from.element()) + " to " + dtypeName(elem) +
                    ": they have different bit widths");
    return b_.createValue(OpCode::Bitcast, {v}, to);
  }
  Type fe = from.element();
  if (fe.isPointer() && elem.isPointer()) return b_.createValue(OpCode::Bitcast, {v}, to);
  if (fe.isPointer() && elem.isBool())  // Triton: a pointer is true when not null (`if weight_ptr:`)
    return cast(cast(v, Type::i64(), loc), elem, loc);
  if ((fe.isPointer() && !(elem.isInteger() && elem.bitWidth() == 64)) ||
      (elem.isPointer() && !(fe.isInteger() && fe.bitWidth() == 64)))
    fail(loc, "cannot cast " + dtypeName(fe) + " to " + dtypeName(elem) +
                  " (pointers convert only to and from 64-bit integers)");
  if (elem.isBool() && !fe.isBool()) {  // Triton: x.to(int1) is x != 0
    ir::Value *zero = b_.splat(constant(BigInt(0), fe), from.shape());
    if (!from.isTile()) zero = constant(BigInt(0), fe);
    return b_.cmp("ne", v, zero);
  }
  ir::AttrDict attrs;
  if (!rounding.empty()) {
    if (!(fe.isFloat() && elem.isFloat() && elem.bitWidth() < fe.bitWidth()))
      fail(loc, "fp_downcast_rounding applies only to casts to a narrower float type");
    attrs.set("rounding", ir::Attribute(rounding));
  }
  return b_.createValue(OpCode::Cast, {v}, to, std::move(attrs));
}

ir::Value *CodeGen::splatTo(ir::Value *v, const std::vector<int64_t> &shape, SourceLoc loc) {
  if (shape.empty() || v->type().isTile()) return v;
  b_.setLoc(irLoc(loc));
  return b_.splat(v, shape);
}

namespace {

// numpy's rule: shapes align at their last dimension, and each pair of sizes
// must match or have a 1. False at the first pair that does not, with its
// dimension (numbered in the result).
bool broadcastShape(const std::vector<int64_t> &a, const std::vector<int64_t> &b, std::vector<int64_t> &out,
                    size_t &clash) {
  size_t n = std::max(a.size(), b.size());
  out.assign(n, 1);
  for (size_t i = 0; i < n; ++i) {
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1) return clash = i, false;
    out[i] = std::max(da, db);
  }
  return true;
}

// The size of dimension `dim` (numbered in a result of rank `rank`) of `shape`.
int64_t sizeAt(const std::vector<int64_t> &shape, size_t dim, size_t rank) {
  return dim < rank - shape.size() ? 1 : shape[dim - (rank - shape.size())];
}

} // namespace

std::vector<int64_t> CodeGen::broadcastShapes(const std::vector<ir::Value *> &values, SourceLoc loc) const {
  std::vector<int64_t> shape, next;
  size_t clash = 0;
  for (size_t j = 0; j < values.size(); ++j) {
    if (broadcastShape(shape, values[j]->type().shape(), next, clash)) {
      shape = next;
      continue;
    }
    // The size that clashes came from an earlier value: name the two, by
    // their own types (the error is about these operands, not a shape).
    const std::vector<int64_t> &b = values[j]->type().shape();
    for (size_t i = 0; i < j; ++i) {
      const std::vector<int64_t> &a = values[i]->type().shape();
      if (broadcastShape(a, b, next, clash))
        continue;
      size_t rank = next.size();
      fail(loc, "cannot broadcast shapes " + values[i]->type().str() + " and " + values[j]->type().str() +
                    ": dimension " + std::to_string(clash) + " is " + std::to_string(sizeAt(a, clash, rank)) +
                    " and " + std::to_string(sizeAt(b, clash, rank)));
    }
  }
  return shape;
}

ir::Value *CodeGen::broadcastTo(ir::Value *v, const std::vector<int64_t> &shape, SourceLoc loc) {
  Type t = v->type();
  if (t.shape() == shape) return v;
  b_.setLoc(irLoc(loc));
  if (!t.isTile()) return b_.splat(v, shape);
  if (size_t(t.rank()) > shape.size()) fail(loc, "cannot broadcast " + t.str() + " to fewer dimensions");
  std::vector<int64_t> result;
  size_t clash = 0;
  bool grows = broadcastShape(t.shape(), shape, result, clash);
  if (grows && result != shape)  // a dimension would have to shrink to the target's 1
    clash = size_t(std::mismatch(result.begin(), result.end(), shape.begin()).first - result.begin());
  if (!grows || result != shape)
    fail(loc, "cannot broadcast " + t.str() + " to " + Type::tile(shape, t.element()).str() + ": dimension " +
                  std::to_string(clash) + " is " + std::to_string(sizeAt(t.shape(), clash, shape.size())) + " and " +
                  std::to_string(shape[clash]));
  // Leading new dimensions first (numpy's rule), then the size-1 ones grow.
  for (size_t r = t.rank(); r < shape.size(); ++r) {
    ir::AttrDict a;
    a.set("axis", ir::Attribute(int64_t(0)));
    std::vector<int64_t> s = v->type().shape();
    s.insert(s.begin(), 1);
    v = b_.createValue(OpCode::ExpandDims, {v}, Type::tile(s, t.element()), std::move(a));
  }
  if (v->type().shape() != shape) v = b_.createValue(OpCode::Broadcast, {v}, Type::tile(shape, t.element()));
  return v;
}

void CodeGen::checkBroadcastable(const SValue &a, const SValue &b, SourceLoc loc) const {
  if (a.isTensor() && b.isTensor()) broadcastShapes({a.v, b.v}, loc);
}

void CodeGen::broadcastPair(ir::Value *&a, ir::Value *&b, SourceLoc loc) {
  if (a->type().shape() == b->type().shape()) return;
  std::vector<int64_t> shape = broadcastShapes({a, b}, loc);
  a = broadcastTo(a, shape, loc);
  b = broadcastTo(b, shape, loc);
}

// ---- typing

ir::Type CodeGen::integerPromote(ir::Type a, ir::Type b) const {
  // i1 is a 1-bit unsigned integer here, as in Triton (int1 is one of its UINT_TYPES).
  bool aSigned = a.isSigned(), bSigned = b.isSigned();
  int aw = a.bitWidth(), bw = b.bitWidth();
  if (aSigned == bSigned) return aw > bw ? a : b;
  if (!aSigned) return aw >= bw ? a : b;
  return bw >= aw ? b : a;
}

ir::Type CodeGen::computationType(ir::Type a, bool aScalar, ir::Type b, bool bScalar, bool divOrMod,
                                  SourceLoc loc) const {
  auto is = [](Type t, ScalarKind k) { return t.isScalar() && t.scalarKind() == k; };
  if (aScalar != bScalar) {  // a Python number of a lower or equal kind takes the tensor's type
    Type scalar = aScalar ? a : b, tensor = aScalar ? b : a;
    if (kindRank(scalar) <= kindRank(tensor)) {
      if (divOrMod && (is(tensor, ScalarKind::F16) || is(tensor, ScalarKind::BF16))) return Type::f32();
      return tensor;
    }
  }
  if (is(a, ScalarKind::F64) || is(b, ScalarKind::F64)) return Type::scalar(ScalarKind::F64);
  if (is(a, ScalarKind::F32) || is(b, ScalarKind::F32)) return Type::f32();
  if (is(a, ScalarKind::F16) || is(b, ScalarKind::F16)) return divOrMod ? Type::f32() : Type::scalar(ScalarKind::F16);
  if (is(a, ScalarKind::BF16) && is(b, ScalarKind::BF16)) return divOrMod ? Type::f32() : a;
  if (is(a, ScalarKind::BF16) || is(b, ScalarKind::BF16)) return Type::f32();
  if (a.isFloat() && b.isFloat()) return a == b ? a : Type::scalar(ScalarKind::F16);  // two fp8 kinds
  if (a.isFloat() || b.isFloat())  // fp8 with an integer: Triton has no rule for it
    fail(loc, "unsupported operand types " + dtypeName(a) + " and " + dtypeName(b) + "; cast one of them first");
  if (divOrMod && a.isSigned() != b.isSigned())
    fail(loc, "Cannot use /, //, or % with " + dtypeName(a) + " and " + dtypeName(b) +
                  " because they have different signedness; cast them to the same signedness");
  return integerPromote(a, b);
}

// ---- operators

// Triton rejects a Python number that the operation's type cannot hold
// (binary_op_type_checking_impl), rather than wrapping it silently.
void CodeGen::checkScalarsFit(const SValue &a, const SValue &b, ir::Type ret, SourceLoc loc) const {
  for (const SValue *v : {&a, &b}) {
    if (v->isTensor() || !ret.isInteger()) continue;
    if (ret.isUnsigned() && !ret.isBool() && asDouble(*v) < 0)
      fail(loc, "cannot combine an unsigned tensor with the negative number " + v->key() + "; cast one of them");
    if (!v->is(Kind::Int)) continue;
    int w = ret.bitWidth();
    BigInt lo = ret.isSigned() ? -(BigInt(1) << (w - 1)) : 0;
    BigInt hi = ret.isSigned() ? (BigInt(1) << (w - 1)) - 1 : (BigInt(1) << w) - 1;
    if (v->i < lo || v->i > hi)
      fail(loc, "the number " + bigIntToString(v->i) + " is out of range for type " + dtypeName(ret) +
                    "; cast the tensor to a wider type");
  }
}

namespace {

SValue constBinary(CodeGen &cg, BinaryOp op, const SValue &a, const SValue &b, SourceLoc loc) {
  if (a.is(Kind::Tuple) && b.is(Kind::Tuple) && op == BinaryOp::Add) {
    std::vector<SValue> e = a.elems;
    e.insert(e.end(), b.elems.begin(), b.elems.end());
    return SValue::tuple(std::move(e));
  }
  if (a.is(Kind::Str) && b.is(Kind::Str) && op == BinaryOp::Add) return SValue::str(a.s + b.s);
  // Python's repetition: [2] * (RANK - 2), n * (0,)
  if (op == BinaryOp::Mul && (a.is(Kind::Tuple) || b.is(Kind::Tuple)) && (a.is(Kind::Int) || b.is(Kind::Int))) {
    const SValue &t = a.is(Kind::Tuple) ? a : b, &n = a.is(Kind::Int) ? a : b;
    if (n.i > 0 && BigInt(t.elems.size()) * n.i > 4096) cg.fail(loc, "a repeated tuple may have at most 4096 elements");
    std::vector<SValue> e;
    for (BigInt i = 0; i < n.i; ++i) e.insert(e.end(), t.elems.begin(), t.elems.end());
    return SValue::tuple(std::move(e));
  }
  if (!a.isNumber() || !b.isNumber())
    cg.fail(loc, "unsupported operand types for " + std::string(spelling(op)) + ": " + a.describe() + " and " +
                     b.describe());
  bool floats = a.is(Kind::Float) || b.is(Kind::Float);
  if (op == BinaryOp::Div) {
    if (asDouble(b) == 0) cg.fail(loc, "division by zero in a compile-time expression");
    return SValue::floating(asDouble(a) / asDouble(b));
  }
  if (floats) {
    double x = asDouble(a), y = asDouble(b);
    switch (op) {
    case BinaryOp::Add: return SValue::floating(x + y);
    case BinaryOp::Sub: return SValue::floating(x - y);
    case BinaryOp::Mul: return SValue::floating(x * y);
    case BinaryOp::Pow: return SValue::floating(std::pow(x, y));
    case BinaryOp::FloorDiv:
    case BinaryOp::Mod: {
      if (y == 0) cg.fail(loc, "division by zero in a compile-time expression");
      double q = std::floor(x / y);
      return SValue::floating(op == BinaryOp::FloorDiv ? q : x - q * y);
    }
    default:
      cg.fail(loc, "unsupported operand types for " + std::string(spelling(op)) + ": " + a.describe() + " and " +
                       b.describe());
    }
  }
  BigInt x = asInt(a), y = asInt(b);
  auto checked = [&](BigInt r) {
    if (r >= kU64End || r < kI64Min) cg.fail(loc, "compile-time integer overflow: " + bigIntToString(r));
    return SValue::integer(r);
  };
  switch (op) {
  case BinaryOp::Add: return checked(x + y);
  case BinaryOp::Sub: return checked(x - y);
  case BinaryOp::Mul: {
    BigInt r;
    if (__builtin_mul_overflow(x, y, &r))
      cg.fail(loc, "compile-time integer overflow in " + bigIntToString(x) + " * " + bigIntToString(y));
    return checked(r);
  }
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod:
    if (y == 0) cg.fail(loc, "division by zero in a compile-time expression");
    return SValue::integer(op == BinaryOp::FloorDiv ? floorDiv(x, y) : floorMod(x, y));
  case BinaryOp::Pow: {
    if (y < 0) return SValue::floating(std::pow(double(x), double(y)));
    // |x| <= 1 never overflows (and would take y steps); otherwise |r| at
    // least doubles each step, so the loop ends within 65 steps.
    if (x == 0 || x == 1) return SValue::integer(y == 0 ? 1 : x);
    if (x == -1) return SValue::integer(y % 2 == 0 ? 1 : -1);
    BigInt r = 1;
    for (BigInt k = 0; k < y; ++k)
      if (__builtin_mul_overflow(r, x, &r) || r >= kU64End || r < kI64Min)
        cg.fail(loc, "compile-time integer overflow in **");
    return SValue::integer(r);
  }
  case BinaryOp::LShift:
    if (y < 0 || y > 64) cg.fail(loc, "shift count out of range in a compile-time expression");
    return checked(x << int(y));
  case BinaryOp::RShift:
    if (y < 0) cg.fail(loc, "negative shift count");
    return SValue::integer(y > 127 ? (x < 0 ? -1 : 0) : x >> int(y));
  case BinaryOp::BitAnd: return a.is(Kind::Bool) && b.is(Kind::Bool) ? SValue::boolean(x & y) : SValue::integer(x & y);
  case BinaryOp::BitOr: return a.is(Kind::Bool) && b.is(Kind::Bool) ? SValue::boolean(x | y) : SValue::integer(x | y);
  case BinaryOp::BitXor: return a.is(Kind::Bool) && b.is(Kind::Bool) ? SValue::boolean(x ^ y) : SValue::integer(x ^ y);
  default: cg.fail(loc, "unsupported operator " + std::string(spelling(op)) + " on compile-time values");
  }
}

} // namespace

SValue CodeGen::binary(BinaryOp op, const SValue &a, const SValue &b, SourceLoc loc) {
  if (a.isConstexpr() && b.isConstexpr()) return constBinary(*this, op, a, b, loc);
  if (op == BinaryOp::Add && a.is(Kind::Tuple) && b.is(Kind::Tuple)) {  // concatenation, tensors inside too
    std::vector<SValue> joined = a.elems;
    joined.insert(joined.end(), b.elems.begin(), b.elems.end());
    return SValue::tuple(std::move(joined));
  }
  for (const SValue *v : {&a, &b})
    if (!v->isTensor() && !v->isNumber())
      fail(loc, "unsupported operand for " + std::string(spelling(op)) + ": " + v->describe());
  b_.setLoc(irLoc(loc));
  Type at = a.isTensor() ? a.v->type().element() : pyScalarType(a, loc);
  Type bt = b.isTensor() ? b.v->type().element() : pyScalarType(b, loc);

  if (at.isPointer() || bt.isPointer()) {
    bool ok = (op == BinaryOp::Add && (at.isPointer() != bt.isPointer())) ||
              (op == BinaryOp::Sub && at.isPointer() && bt.isInteger());
    const SValue &ptr = at.isPointer() ? a : b, &off = at.isPointer() ? b : a;
    Type offT = at.isPointer() ? bt : at;
    if (!ok || !offT.isInteger())
      fail(loc, "unsupported pointer arithmetic: " + std::string(spelling(op)) + " between " + dtypeName(at) +
                    " and " + dtypeName(bt) + " (pointers take + and - of integers)");
    checkBroadcastable(ptr, off, loc);
    ir::Value *p = toTensor(ptr, loc);
    ir::Value *o = toTensor(off, loc, offT.isBool() ? Type::i32() : Type());
    if (op == BinaryOp::Sub) o = b_.sameType(OpCode::Neg, {o});
    broadcastPair(p, o, loc);
    SValue r = SValue::tensor(b_.createValue(OpCode::AddPtr, {p, o}, p->type()));
    r.constPtr = ptr.constPtr;
    return r;
  }

  bool divOrMod = op == BinaryOp::Div || op == BinaryOp::FloorDiv || op == BinaryOp::Mod;
  bool bitwise = op == BinaryOp::BitAnd || op == BinaryOp::BitOr || op == BinaryOp::BitXor ||
                 op == BinaryOp::LShift || op == BinaryOp::RShift;
  if (op == BinaryOp::Pow) fail(loc, "** is not supported on tensors; use tl.math.pow or libdevice.pow");
  if (op == BinaryOp::MatMul) fail(loc, "@ is not supported on tensors; use tl.dot");
  // Bitwise operators go through the same arithmetic typing first (Triton's
  // bitwise_op_type_checking_impl does), so a Python int stays weak there too.
  if (bitwise && (!at.isInteger() || !bt.isInteger()))
    fail(loc, "invalid operands of type " + dtypeName(at) + " and " + dtypeName(bt) + " for bitwise operator " +
                  std::string(spelling(op)) + " (it needs integers)");
  Type ret = computationType(at, !a.isTensor(), bt, !b.isTensor(), divOrMod, loc);
  checkScalarsFit(a, b, ret, loc);
  if (op == BinaryOp::Div && ret.isInteger()) ret = Type::f32();  // int / int is a float division
  if (op == BinaryOp::FloorDiv && ret.isFloat())
    fail(loc, "// on floats is not supported on tensors; use tl.math.floor(x / y)");
  checkBroadcastable(a, b, loc);
  ir::Value *x = toTensor(a, loc, ret), *y = toTensor(b, loc, ret);
  broadcastPair(x, y, loc);
  OpCode code;
  switch (op) {
  case BinaryOp::Add: code = OpCode::Add; break;
  case BinaryOp::Sub: code = OpCode::Sub; break;
  case BinaryOp::Mul: code = OpCode::Mul; break;
  case BinaryOp::Div:
  case BinaryOp::FloorDiv: code = OpCode::Div; break;
  case BinaryOp::Mod: code = OpCode::Rem; break;
  case BinaryOp::LShift: code = OpCode::Shl; break;
  case BinaryOp::RShift: code = OpCode::Shr; break;
  case BinaryOp::BitAnd: code = OpCode::And; break;
  case BinaryOp::BitOr: code = OpCode::Or; break;
  default: code = OpCode::Xor; break;
  }
  ir::AttrDict attrs;
  if (op == BinaryOp::Div && ret == Type::f32()) attrs.set("approx", ir::Attribute(true));  // Triton's div.full
  // Triton picks the right shift by the left operand's own signedness, then
  // shifts the promoted bits: int32 >> uint32 is arithmetic on a uint32.
  if (op == BinaryOp::RShift && at.isSigned() && ret.isUnsigned()) {
    static const std::pair<ScalarKind, ScalarKind> kSigned[] = {{ScalarKind::U8, ScalarKind::I8}, {ScalarKind::U16, ScalarKind::I16},
                                                                {ScalarKind::U32, ScalarKind::I32}, {ScalarKind::U64, ScalarKind::I64}};
    for (auto [u, sgn] : kSigned)
      if (ret.element().scalarKind() == u) {
        auto as = [&](ir::Value *v, Type t) { return b_.createValue(OpCode::Bitcast, {v}, v->type().withElement(t)); };
        ir::Value *r = b_.sameType(OpCode::Shr, {as(x, Type::scalar(sgn)), as(y, Type::scalar(sgn))});
        return SValue::tensor(as(r, ret));
      }
  }
  return SValue::tensor(b_.sameType(code, {x, y}, std::move(attrs)));
}

namespace {

// Python's == on compile-time values: numbers by value (1 == 1.0 == True),
// tuples element by element (a namedtuple equals a plain tuple).
bool equalAsPython(const SValue &a, const SValue &b) {
  if (a.isNumber() && b.isNumber()) {
    if (a.is(Kind::Float) || b.is(Kind::Float)) return asDouble(a) == asDouble(b);
    return asInt(a) == asInt(b);
  }
  if (a.is(Kind::Tuple) && b.is(Kind::Tuple)) {
    if (a.elems.size() != b.elems.size()) return false;
    for (size_t i = 0; i < a.elems.size(); ++i)
      if (!equalAsPython(a.elems[i], b.elems[i])) return false;
    return true;
  }
  return a.kind == b.kind && a.key() == b.key();
}

} // namespace

SValue CodeGen::compare(CmpOp op, const SValue &a, const SValue &b, SourceLoc loc) {
  if (op == CmpOp::Is || op == CmpOp::IsNot) {
    // A runtime value (a tensor or pointer argument) is not None: `ptr is not
    // None` is a compile-time True, as in Triton, where `is` runs in Python.
    if (a.is(Kind::None) != b.is(Kind::None) && (!a.isConstexpr() || !b.isConstexpr()))
      return SValue::boolean(op == CmpOp::IsNot);
    if (!a.isConstexpr() || !b.isConstexpr()) fail(loc, "'is' compares only compile-time values (such as None)");
    bool same = a.kind == b.kind && a.key() == b.key();
    return SValue::boolean(op == CmpOp::Is ? same : !same);
  }
  if (op == CmpOp::In || op == CmpOp::NotIn) {
    if (!b.is(Kind::Tuple) || !a.isConstexpr()) fail(loc, "'in' needs a compile-time value and a tuple");
    bool found = false;
    for (auto &e : b.elems) found |= e.isConstexpr() && e.key() == a.key();
    return SValue::boolean(op == CmpOp::In ? found : !found);
  }
  if (a.isConstexpr() && b.isConstexpr()) {
    if (a.isNumber() && b.isNumber()) {
      bool floats = a.is(Kind::Float) || b.is(Kind::Float);
      int c = floats ? (asDouble(a) < asDouble(b) ? -1 : asDouble(a) > asDouble(b) ? 1 : 0)
                     : (asInt(a) < asInt(b) ? -1 : asInt(a) > asInt(b) ? 1 : 0);
      bool unordered = floats && (std::isnan(asDouble(a)) || std::isnan(asDouble(b)));
      switch (op) {
      case CmpOp::Lt: return SValue::boolean(!unordered && c < 0);
      case CmpOp::Le: return SValue::boolean(!unordered && c <= 0);
      case CmpOp::Gt: return SValue::boolean(!unordered && c > 0);
      case CmpOp::Ge: return SValue::boolean(!unordered && c >= 0);
      case CmpOp::Eq: return SValue::boolean(!unordered && c == 0);
      default: return SValue::boolean(unordered || c != 0);
      }
    }
    if (op == CmpOp::Eq || op == CmpOp::Ne) {
      bool eq = equalAsPython(a, b);
      return SValue::boolean(op == CmpOp::Eq ? eq : !eq);
    }
    fail(loc, "cannot order " + a.describe() + " and " + b.describe());
  }
  for (const SValue *v : {&a, &b})
    if (!v->isTensor() && !v->isNumber()) fail(loc, "cannot compare a tensor with " + v->describe());
  Type at = a.isTensor() ? a.v->type().element() : pyScalarType(a, loc);
  Type bt = b.isTensor() ? b.v->type().element() : pyScalarType(b, loc);
  if (at.isPointer() != bt.isPointer()) fail(loc, "cannot compare " + dtypeName(at) + " with " + dtypeName(bt));
  Type ret = at.isPointer() && bt.isPointer() ? at : computationType(at, !a.isTensor(), bt, !b.isTensor(), false, loc);
  if (!ret.isPointer()) checkScalarsFit(a, b, ret, loc);
  checkBroadcastable(a, b, loc);
  ir::Value *x = toTensor(a, loc, ret), *y = toTensor(b, loc, ret);
  broadcastPair(x, y, loc);
  const char *pred = op == CmpOp::Lt ? "lt" : op == CmpOp::Le ? "le" : op == CmpOp::Gt ? "gt"
                   : op == CmpOp::Ge ? "ge" : op == CmpOp::Eq ? "eq" : "ne";
  b_.setLoc(irLoc(loc));
  return SValue::tensor(b_.cmp(pred, x, y));
}

SValue CodeGen::unary(UnaryOp op, const SValue &a, SourceLoc loc) {
  if (a.isConstexpr()) {
    if (op == UnaryOp::Not) return SValue::boolean(!a.truthy());
    if (!a.isNumber()) fail(loc, "bad operand for unary " + std::string(spelling(op)) + ": " + a.describe());
    if (op == UnaryOp::Pos) return a.is(Kind::Bool) ? SValue::integer(a.b) : a;
    if (op == UnaryOp::Neg) return a.is(Kind::Float) ? SValue::floating(-a.f) : SValue::integer(-asInt(a));
    if (a.is(Kind::Float)) fail(loc, "bad operand for unary ~: float");
    return SValue::integer(~asInt(a));
  }
  if (!a.isTensor()) fail(loc, "bad operand for unary " + std::string(spelling(op)) + ": " + a.describe());
  ir::Value *v = a.v;
  Type t = v->type();
  b_.setLoc(irLoc(loc));
  switch (op) {
  case UnaryOp::Pos: return a;
  case UnaryOp::Neg:
    if (t.element().isPointer()) fail(loc, "cannot negate a pointer");
    return SValue::tensor(b_.sameType(OpCode::Neg, {v}));
  case UnaryOp::Invert:
    if (!t.isInteger()) fail(loc, "invalid operands of type " + dtypeName(t.element()) + " for ~ (it needs integers)");
    return SValue::tensor(b_.sameType(OpCode::Not, {v}));
  case UnaryOp::Not: {  // Triton: `not x` on a tensor is x == 0
    ir::Value *zero = t.isFloat() ? constant(0.0, t.element()) : constant(BigInt(0), t.element());
    return SValue::tensor(b_.cmp("eq", v, splatTo(zero, t.shape(), loc)));
  }
  }
  return a;
}

SValue CodeGen::logical(BoolOpKind op, const SValue &a, const SValue &b, SourceLoc loc) {
  auto toBool = [&](const SValue &v) {
    ir::Value *t = toTensor(v, loc);
    return t->type().isBool() ? t : cast(t, Type::i1(), loc);
  };
  checkBroadcastable(a, b, loc);
  ir::Value *x = toBool(a), *y = toBool(b);
  broadcastPair(x, y, loc);
  b_.setLoc(irLoc(loc));
  return SValue::tensor(b_.sameType(op == BoolOpKind::And ? OpCode::And : OpCode::Or, {x, y}));
}

ir::Value *CodeGen::minMax(bool isMin, ir::Value *a, ir::Value *b, bool propagateNan, SourceLoc loc) {
  Type t = computationType(a->type().element(), false, b->type().element(), false, false, loc);
  broadcastShapes({a, b}, loc);
  a = cast(a, t, loc);
  b = cast(b, t, loc);
  broadcastPair(a, b, loc);
  ir::AttrDict attrs;
  if (propagateNan && t.isFloat()) attrs.set("propagate_nan", ir::Attribute(true));
  b_.setLoc(irLoc(loc));
  return b_.sameType(isMin ? OpCode::Min : OpCode::Max, {a, b}, std::move(attrs));
}

} // namespace tessera::frontend
