#include "ir/Fold.h"

#include <cmath>
#include <limits>

namespace tessera::ir {
namespace {

bool foldableFloat(Type t) {
  return t.isFloat() && (t.scalarKind() == ScalarKind::F32 || t.scalarKind() == ScalarKind::F64);
}

// Rounds to the type's precision (f32 or f64).
double roundTo(double v, Type t) { return t.scalarKind() == ScalarKind::F32 ? double(float(v)) : v; }

bool lessThan(int64_t a, int64_t b, Type t) { return t.isSigned() ? a < b : uint64_t(a) < uint64_t(b); }

std::optional<Attribute> foldCmp(const std::string &pred, const Attribute &a, const Attribute &b, Type t) {
  bool r;
  if (t.isFloat()) {
    double x = a.getFloat(), y = b.getFloat();
    if (pred == "eq") r = x == y;
    else if (pred == "ne") r = !(x == y);  // true on NaN
    else if (pred == "lt") r = x < y;
    else if (pred == "le") r = x <= y;
    else if (pred == "gt") r = x > y;
    else r = x >= y;
  } else {
    int64_t x = a.getInt(), y = b.getInt();
    if (pred == "eq") r = x == y;
    else if (pred == "ne") r = x != y;
    else if (pred == "lt") r = lessThan(x, y, t);
    else if (pred == "le") r = !lessThan(y, x, t);
    else if (pred == "gt") r = lessThan(y, x, t);
    else r = !lessThan(x, y, t);
  }
  return Attribute(int64_t(r));
}

std::optional<Attribute> foldCast(const Attribute &v, Type from, Type to, const Operation &op) {
  if (from.isPointer() || to.isPointer()) return std::nullopt;
  if (to.isBool()) {  // casting to i1 tests for non-zero, as Triton does
    if (from.isFloat()) return foldableFloat(from) ? std::optional(Attribute(int64_t(v.getFloat() != 0.0))) : std::nullopt;
    return Attribute(int64_t(v.getInt() != 0));
  }
  if (from.isInteger() && to.isInteger()) return Attribute(normalizeInt(v.getInt(), to));
  if (from.isInteger() && foldableFloat(to)) {
    int64_t i = v.getInt();
    bool f32 = to.scalarKind() == ScalarKind::F32;
    // Convert once, straight to the target width, to avoid double rounding.
    if (from.isSigned()) return Attribute(f32 ? double(float(i)) : double(i));
    uint64_t u = uint64_t(i);
    return Attribute(f32 ? double(float(u)) : double(u));
  }
  if (foldableFloat(from) && to.isInteger()) {
    double d = v.getFloat();
    if (std::isnan(d)) return Attribute(int64_t(0));
    d = std::trunc(d);
    int w = to.bitWidth();
    if (to.isSigned()) {
      double lo = -std::ldexp(1.0, w - 1), hi = std::ldexp(1.0, w - 1);
      if (d < lo) return Attribute(normalizeInt(int64_t(lo), to));
      if (d >= hi) return Attribute(w == 64 ? std::numeric_limits<int64_t>::max() : int64_t(hi) - 1);
      return Attribute(int64_t(d));
    }
    double hi = std::ldexp(1.0, w);
    if (d <= 0) return Attribute(int64_t(0));
    if (d >= hi) return Attribute(normalizeInt(-1, to));
    return Attribute(normalizeInt(int64_t(uint64_t(d)), to));
  }
  if (foldableFloat(from) && foldableFloat(to) && !op.attr("rounding"))
    return Attribute(roundTo(v.getFloat(), to));
  return std::nullopt;
}

std::optional<Attribute> foldInt(OpCode code, const std::vector<Attribute> &in, Type t) {
  int64_t a = in[0].getInt(), b = in.size() > 1 ? in[1].getInt() : 0;
  uint64_t ua = uint64_t(a), ub = uint64_t(b);
  int w = t.bitWidth();
  auto out = [&](int64_t v) { return std::optional(Attribute(normalizeInt(v, t))); };
  switch (code) {
  case OpCode::Add: return out(int64_t(ua + ub));
  case OpCode::Sub: return out(int64_t(ua - ub));
  case OpCode::Mul: return out(int64_t(ua * ub));
  case OpCode::Neg: return out(int64_t(0 - ua));
  case OpCode::And: return out(a & b);
  case OpCode::Or: return out(a | b);
  case OpCode::Xor: return out(a ^ b);
  case OpCode::Not: return out(~a);
  case OpCode::Min: return out(lessThan(b, a, t) ? b : a);
  case OpCode::Max: return out(lessThan(a, b, t) ? b : a);
  case OpCode::Abs: return out(t.isSigned() && a < 0 ? int64_t(0 - ua) : a);
  case OpCode::Div:
  case OpCode::Rem: {
    if (b == 0) return std::nullopt;
    if (t.isSigned()) {
      if (b == -1 && a == normalizeInt(int64_t(1) << (w - 1), t)) return std::nullopt;  // INT_MIN / -1
      return out(code == OpCode::Div ? a / b : a % b);
    }
    return out(int64_t(code == OpCode::Div ? ua / ub : ua % ub));
  }
  case OpCode::Shl:
  case OpCode::Shr: {
    if (ub >= uint64_t(w)) return std::nullopt;
    if (code == OpCode::Shl) return out(int64_t(ua << ub));
    return out(t.isSigned() ? a >> b : int64_t(ua >> ub));  // values are already normalized
  }
  case OpCode::MulHi: {
    if (t.isSigned()) {
      __int128 p = __int128(a) * __int128(b);
      return out(int64_t(p >> w));
    }
    unsigned __int128 p = (unsigned __int128)ua * ub;
    return out(int64_t(uint64_t(p >> w)));
  }
  default: return std::nullopt;
  }
}

std::optional<Attribute> foldFloat(const Operation &op, const std::vector<Attribute> &in, Type t) {
  if (!foldableFloat(t)) return std::nullopt;
  double a = in[0].getFloat(), b = in.size() > 1 ? in[1].getFloat() : 0.0;
  bool f32 = t.scalarKind() == ScalarKind::F32;
  auto out = [&](double v) { return std::optional(Attribute(roundTo(v, t))); };
  // In f32, compute in float so the single rounding is the type's.
  switch (op.code()) {
  case OpCode::Add: return out(f32 ? double(float(a) + float(b)) : a + b);
  case OpCode::Sub: return out(f32 ? double(float(a) - float(b)) : a - b);
  case OpCode::Mul: return out(f32 ? double(float(a) * float(b)) : a * b);
  case OpCode::Div:
    if (op.attrs().getBool("approx", false)) return std::nullopt;
    return out(f32 ? double(float(a) / float(b)) : a / b);
  case OpCode::Neg: return out(-a);
  case OpCode::Abs: return out(std::fabs(a));
  case OpCode::Min:
  case OpCode::Max: {
    if (std::isnan(a) || std::isnan(b)) {
      if (op.attrs().getBool("propagate_nan", false)) return out(std::nan(""));
      return out(std::isnan(a) ? b : a);
    }
    if (a == b) return std::nullopt;  // +0 and -0: leave the choice to the target
    return out(op.is(OpCode::Min) ? std::min(a, b) : std::max(a, b));
  }
  default: return std::nullopt;
  }
}

} // namespace

int64_t normalizeInt(int64_t v, Type type) {
  int w = type.bitWidth();
  if (w >= 64) return v;
  uint64_t mask = (uint64_t(1) << w) - 1;
  uint64_t u = uint64_t(v) & mask;
  if (type.isSigned() && ((u >> (w - 1)) & 1)) u |= ~mask;
  return int64_t(u);
}

std::optional<Attribute> constantValue(const Value *v) {
  const Operation *def = v->definingOp();
  if (!def || !def->is(OpCode::Constant)) return std::nullopt;
  return *def->attr("value");
}

bool isPositiveZero(const Value *v) {
  const Operation *d = v->definingOp();
  while (d && (d->is(OpCode::Splat) || d->is(OpCode::ConvertLayout))) d = d->operand(0)->definingOp();
  if (!d || !d->is(OpCode::Constant)) return false;
  const Attribute *value = d->attr("value");
  return value->isInt() ? value->getInt() == 0 : value->getFloat() == 0.0 && !std::signbit(value->getFloat());
}

std::optional<Attribute> foldElementwise(const Operation &op, const std::vector<Attribute> &in) {
  switch (op.code()) {
  case OpCode::Cmp:
    if (op.operand(0)->type().isFloat() && !foldableFloat(op.operand(0)->type())) return std::nullopt;
    return foldCmp(op.attr("pred")->getString(), in[0], in[1], op.operand(0)->type());
  case OpCode::Select: return in[0].getInt() ? in[1] : in[2];
  case OpCode::Cast: return foldCast(in[0], op.operand(0)->type(), op.result()->type(), op);
  default: break;
  }
  if (op.numResults() != 1 || !op.hasTrait(kSameType)) return std::nullopt;
  Type t = op.result()->type();
  if (t.isInteger()) return foldInt(op.code(), in, t);
  return foldFloat(op, in, t);
}

} // namespace tessera::ir
