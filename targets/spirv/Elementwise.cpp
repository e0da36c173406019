// The elementwise semantics of ir/IR.h in SPIR-V: arithmetic, comparisons,
// casts (bf16 and fp8 through f32, as bits) and math (GLSL.std.450).
#include "targets/spirv/Emitter.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/OpenCL.std.h>

#include <cmath>

namespace tessera::targets::spirv {

using ir::OpCode;
using ir::ScalarKind;
using spv::Op;

namespace {

bool isBf16(ir::Type t) { return t.scalarKind() == ScalarKind::BF16; }

} // namespace

Id KernelEmitter::bf16ToF32(Id bits) {
  Id w = op(Op::OpUConvert, u32(), {bits});
  return op(Op::OpBitcast, f32(), {op(Op::OpShiftLeftLogical, u32(), {w, c32(16)})});
}

// Round to nearest even (or toward zero); NaNs stay quiet NaNs.
Id KernelEmitter::f32ToBf16(Id f, bool towardZero) {
  Id bits = op(Op::OpBitcast, u32(), {f});
  Id rounded = bits;
  if (!towardZero) {
    Id lsb = op(Op::OpBitwiseAnd, u32(), {op(Op::OpShiftRightLogical, u32(), {bits, c32(16)}), c32(1)});
    rounded = op(Op::OpIAdd, u32(), {bits, op(Op::OpIAdd, u32(), {c32(0x7FFF), lsb})});
  }
  Id hi = op(Op::OpShiftRightLogical, u32(), {rounded, c32(16)});
  Id nan = op(Op::OpIsNan, boolTy(), {f});
  Id quiet = op(Op::OpBitwiseOr, u32(), {op(Op::OpShiftRightLogical, u32(), {bits, c32(16)}), c32(0x40)});
  return op(Op::OpUConvert, b.intType(16), {select(nan, quiet, hi)});
}

// A float of `e` exponent and `m` mantissa bits with infinities and NaNs
// (IEEE's f16, e5m2) as f32, exactly.
Id KernelEmitter::smallFloatToF32(Id bits, int e, int m) {
  uint32_t bias = (1u << (e - 1)) - 1, emax = (1u << e) - 1;
  Id x = op(Op::OpUConvert, u32(), {bits});
  auto And = [&](Id a, uint32_t k) { return op(Op::OpBitwiseAnd, u32(), {a, c32(k)}); };
  Id sign = op(Op::OpShiftLeftLogical, u32(), {And(op(Op::OpShiftRightLogical, u32(), {x, c32(uint32_t(e + m))}), 1), c32(31)});
  Id ex = And(op(Op::OpShiftRightLogical, u32(), {x, c32(uint32_t(m))}), emax);
  Id mant = And(x, (1u << m) - 1);
  Id mantBits = op(Op::OpShiftLeftLogical, u32(), {mant, c32(uint32_t(23 - m))});
  Id normal = op(Op::OpBitwiseOr, u32(), {op(Op::OpShiftLeftLogical, u32(), {op(Op::OpIAdd, u32(), {ex, c32(127 - bias)}), c32(23)}), mantBits});
  Id sub = op(Op::OpBitcast, u32(), {op(Op::OpFMul, f32(), {op(Op::OpConvertUToF, f32(), {mant}),
                                                             fconst(f32(), std::ldexp(1.0, 1 - int(bias) - m))})});
  Id special = op(Op::OpBitwiseOr, u32(), {c32(0x7F800000u), mantBits});
  Id mag = select(op(Op::OpIEqual, boolTy(), {ex, c32(0)}), sub, normal);
  mag = select(op(Op::OpIEqual, boolTy(), {ex, c32(emax)}), special, mag);
  return op(Op::OpBitcast, f32(), {op(Op::OpBitwiseOr, u32(), {sign, mag})});
}

Id KernelEmitter::f8ToF32(Id bits, ScalarKind kind) {
  if (kind == ScalarKind::F8E5M2) return smallFloatToF32(bits, 5, 2);
  if (kind == ScalarKind::F8E4B15) {  // S.eeee.mmm is the f16 S.0eeee.mmm0000000 (the same bias; ir/IR.h)
    Id x = op(Op::OpUConvert, u32(), {bits});
    Id sign = op(Op::OpShiftLeftLogical, u32(), {op(Op::OpBitwiseAnd, u32(), {x, c32(0x80)}), c32(8)});
    Id mag = op(Op::OpShiftLeftLogical, u32(), {op(Op::OpBitwiseAnd, u32(), {x, c32(0x7F)}), c32(7)});
    return smallFloatToF32(op(Op::OpUConvert, b.intType(16), {op(Op::OpBitwiseOr, u32(), {sign, mag})}), 5, 10);
  }
  Id x = op(Op::OpUConvert, u32(), {bits});
  auto And = [&](Id a, uint32_t m) { return op(Op::OpBitwiseAnd, u32(), {a, c32(m)}); };
  Id sign = op(Op::OpShiftLeftLogical, u32(), {And(x, 0x80), c32(24)});
  Id e = And(op(Op::OpShiftRightLogical, u32(), {x, c32(3)}), 0xF);
  Id m = And(x, 7);
  Id normal = op(Op::OpBitwiseOr, u32(), {op(Op::OpShiftLeftLogical, u32(), {op(Op::OpIAdd, u32(), {e, c32(120)}), c32(23)}),
                                           op(Op::OpShiftLeftLogical, u32(), {m, c32(20)})});
  Id sub = op(Op::OpBitcast, u32(), {op(Op::OpFMul, f32(), {op(Op::OpConvertUToF, f32(), {m}), fconst(f32(), 1.0 / 512)})});
  Id mag = select(op(Op::OpIEqual, boolTy(), {e, c32(0)}), sub, normal);
  Id isNan = op(Op::OpIEqual, boolTy(), {And(x, 0x7F), c32(0x7F)});
  mag = select(isNan, c32(0x7FC00000), mag);
  return op(Op::OpBitcast, f32(), {op(Op::OpBitwiseOr, u32(), {sign, mag})});
}

// Narrows f64 (or f32) `f` to `narrow` rounding to odd, so that rounding the
// result once more to nearest even equals one rounding of `f` (see the LLVM
// emitter's truncToOdd).
Id KernelEmitter::truncToOdd(Id f, Id narrow) {
  Id wide = b.typeOfValue(f);
  int bits = b.widthOf(narrow);
  Id bitsTy = b.intType(bits);
  Id t = op(Op::OpFConvert, narrow, {f});
  Id back = op(Op::OpFConvert, wide, {t});
  Id inexact = op(Op::OpFOrdNotEqual, boolTy(), {back, f});
  Id away = op(Op::OpFOrdGreaterThan, boolTy(), {glsl(wide, GLSLstd450FAbs, {back}), glsl(wide, GLSLstd450FAbs, {f})});
  Id tb = op(Op::OpBitcast, bitsTy, {t});
  Id one = uconst(bitsTy, 1);
  tb = select(op(Op::OpLogicalAnd, boolTy(), {inexact, away}), op(Op::OpISub, bitsTy, {tb, one}), tb);
  tb = select(inexact, op(Op::OpBitwiseOr, bitsTy, {tb, one}), tb);
  return op(Op::OpBitcast, narrow, {tb});
}

// f32 -> a float of `e` exponent and `m` mantissa bits (f16, e5m2 with
// infinities; e4m3 with `saturate`: +-448 and one NaN), rounding to nearest
// even, from the f32's bits; the result's bits in a u32. (No f16 on the way:
// NVIDIA's driver rounded f32 -> e5m2 through f16 wrongly, and OpenCL has no
// f16 arithmetic without an extension.)
Id KernelEmitter::f32ToSmallFloat(Id f, int e, int m, bool saturate) {
  uint32_t bias = (1u << (e - 1)) - 1;
  uint32_t drop = 23 - uint32_t(m);  // f32 mantissa bits rounded away
  Id bits = op(Op::OpBitcast, u32(), {f});
  Id sign = op(Op::OpShiftLeftLogical, u32(), {op(Op::OpShiftRightLogical, u32(), {bits, c32(31)}), c32(uint32_t(e + m))});
  Id absBits = op(Op::OpBitwiseAnd, u32(), {bits, c32(0x7FFFFFFF)});
  Id absF = op(Op::OpBitcast, f32(), {absBits});
  // Normal range: round the mantissa (the carry may bump the exponent).
  Id lsb = op(Op::OpBitwiseAnd, u32(), {op(Op::OpShiftRightLogical, u32(), {absBits, c32(drop)}), c32(1)});
  Id r = op(Op::OpIAdd, u32(), {absBits, op(Op::OpIAdd, u32(), {c32((1u << (drop - 1)) - 1), lsb})});
  Id ex = op(Op::OpISub, u32(), {op(Op::OpShiftRightLogical, u32(), {r, c32(23)}), c32(127 - bias)});
  Id mant = op(Op::OpBitwiseAnd, u32(), {op(Op::OpShiftRightLogical, u32(), {r, c32(drop)}), c32((1u << m) - 1)});
  Id normal = op(Op::OpBitwiseOr, u32(), {op(Op::OpShiftLeftLogical, u32(), {ex, c32(uint32_t(m))}), mant});
  // Subnormal range (below 2^(1-bias)): multiples of 2^(1-bias-m).
  Id scaled = op(Op::OpFMul, f32(), {absF, fconst(f32(), std::ldexp(1.0, int(bias) + m - 1))});
  Id sub = op(Op::OpConvertFToU, u32(), {glsl(f32(), GLSLstd450RoundEven, {scaled})});
  Id isSub = op(Op::OpFOrdLessThan, boolTy(), {absF, fconst(f32(), std::ldexp(1.0, 1 - int(bias)))});
  Id mag = select(isSub, sub, normal);
  Id isNan = op(Op::OpIsNan, boolTy(), {f});
  if (saturate) {
    // e4m3: no infinities; S.1111.111 is NaN, 448 the largest finite.
    mag = select(op(Op::OpFOrdGreaterThan, boolTy(), {absF, fconst(f32(), 448.0)}), c32(0x7E), mag);
    return op(Op::OpBitwiseOr, u32(), {sign, select(isNan, c32(0x7F), mag)});
  }
  // At or above the largest finite plus half an ulp: infinity; NaN stays a quiet NaN.
  uint32_t emax = (1u << e) - 2 - bias;
  double overflow = (2.0 - std::ldexp(1.0, -(m + 1))) * std::ldexp(1.0, int(emax));
  uint32_t inf = ((1u << e) - 1) << m;
  mag = select(op(Op::OpFOrdGreaterThanEqual, boolTy(), {absF, fconst(f32(), overflow)}), c32(inf), mag);
  return op(Op::OpBitwiseOr, u32(), {sign, select(isNan, c32(inf | (1u << (m - 1))), mag)});
}

Id KernelEmitter::f32ToF8(Id f, ScalarKind kind) {
  if (kind == ScalarKind::F8E4B15) {
    // f32 -> f16 toward zero (to nearest, then one step back where that grew
    // the magnitude), the magnitude clamped to 1.75 (NaN and infinities too),
    // its top bits rounded half away from zero (ir/IR.h).
    Id h = f32ToSmallFloat(f, 5, 10, false);
    Id h16 = op(Op::OpUConvert, b.intType(16), {h});
    Id grew = op(Op::OpFOrdGreaterThan, boolTy(), {glsl(f32(), GLSLstd450FAbs, {smallFloatToF32(h16, 5, 10)}),
                                                   glsl(f32(), GLSLstd450FAbs, {f})});
    h = select(grew, op(Op::OpISub, u32(), {h, c32(1)}), h);
    Id mag = op(Op::OpBitwiseAnd, u32(), {h, c32(0x7FFF)});
    mag = select(op(Op::OpUGreaterThan, boolTy(), {mag, c32(0x3F00)}), c32(0x3F00), mag);
    Id rounded = op(Op::OpShiftRightLogical, u32(), {op(Op::OpIAdd, u32(), {mag, c32(0x40)}), c32(7)});
    Id sign = op(Op::OpBitwiseAnd, u32(), {op(Op::OpShiftRightLogical, u32(), {h, c32(8)}), c32(0x80)});
    return op(Op::OpUConvert, b.intType(8), {op(Op::OpBitwiseOr, u32(), {sign, rounded})});
  }
  bool e5 = kind == ScalarKind::F8E5M2;
  return op(Op::OpUConvert, b.intType(8), {f32ToSmallFloat(f, e5 ? 5 : 4, e5 ? 2 : 3, !e5)});
}

// Floats kept as bits (bf16, fp8, and f16 where the flavour has no f16
// arithmetic) to and from f32.
bool KernelEmitter::bitsFloat(ir::Type t) const {
  if (!t.isScalar() || !t.isFloat()) return false;
  ScalarKind k = t.scalarKind();
  return k == ScalarKind::BF16 || k == ScalarKind::F8E4M3 || k == ScalarKind::F8E5M2 || k == ScalarKind::F8E4B15 ||
         (k == ScalarKind::F16 && opts.flavour == Flavour::OpenCL);
}

Id KernelEmitter::bitsToF32(Id v, ScalarKind k) {
  if (k == ScalarKind::BF16) return bf16ToF32(v);
  if (k == ScalarKind::F16) return smallFloatToF32(v, 5, 10);
  return f8ToF32(v, k);
}

Id KernelEmitter::f32ToBits(Id f, ScalarKind k, bool towardZero) {
  if (k == ScalarKind::BF16) return f32ToBf16(f, towardZero);
  if (k == ScalarKind::F16) return op(Op::OpUConvert, b.intType(16), {f32ToSmallFloat(f, 5, 10, false)});
  return f32ToF8(f, k);
}

Id KernelEmitter::castValue(Id v, ir::Type from, ir::Type to, const std::string &rounding, const ir::Operation &where) {
  if (from == to) return v;
  Id toTy = typeOf(to);
  if (to.isBool()) {
    if (from.isFloat()) {
      Id f = bitsFloat(from) ? bitsToF32(v, from.scalarKind()) : v;
      return op(Op::OpFUnordNotEqual, boolTy(), {f, fconst(b.typeOfValue(f), 0.0)});
    }
    return op(Op::OpINotEqual, boolTy(), {v, uconst(b.typeOfValue(v), 0)});
  }
  if (from.isBool()) {
    if (to.isInteger() || to.isPointer()) return select(v, uconst(toTy, 1), uconst(toTy, 0));
    return castValue(select(v, fconst(f32(), 1.0), fconst(f32(), 0.0)), ir::Type::f32(), to, rounding, where);
  }
  if (from.isPointer() || to.isPointer()) {
    if (b.typeOfValue(v) == toTy) return v;
    if (from.isPointer()) return op(Op::OpUConvert, toTy, {v});
    return op(from.isSigned() ? Op::OpSConvert : Op::OpUConvert, toTy, {v});
  }
  if (to.scalarKind() == ScalarKind::F8E4B15) {  // whatever `rounding` says (ir/IR.h)
    Id f = from.scalarKind() == ScalarKind::F64 ? truncToOdd(v, f32()) : castValue(v, from, ir::Type::f32(), "rtne", where);
    return f32ToF8(f, ScalarKind::F8E4B15);
  }
  if (rounding == "rtz" && from.isFloat() && to.isFloat() && to.bitWidth() < from.bitWidth() &&
      !(isBf16(to) && from.scalarKind() == ScalarKind::F32)) {
    // Toward zero (f32 -> bf16 truncates its bits in f32ToBf16): to nearest,
    // then one ulp back toward zero where that grew the magnitude, comparing
    // in a type that holds both exactly (an overflow to inf becomes the
    // largest finite value; NaN compares false and stays NaN).
    Id r = castValue(v, from, to, "rtne", where);
    ir::Type wide = from.bitWidth() >= 32 ? from : ir::Type::f32();
    Id wideTy = typeOf(wide);
    auto abs = [&](Id x) { return glsl(wideTy, GLSLstd450FAbs, {x}); };
    Id grew = op(Op::OpFOrdGreaterThan, boolTy(), {abs(castValue(r, to, wide, "rtne", where)),
                                                   abs(castValue(v, from, wide, "rtne", where))});
    Id bitsTy = b.intType(to.bitWidth());
    Id bits = bitsFloat(to) ? r : op(Op::OpBitcast, bitsTy, {r});
    Id back = op(Op::OpISub, bitsTy, {bits, uconst(bitsTy, 1)});
    return select(grew, bitsFloat(to) ? back : op(Op::OpBitcast, typeOf(to), {back}), r);
  }
  if (bitsFloat(from)) return castValue(bitsToF32(v, from.scalarKind()), ir::Type::f32(), to, rounding, where);
  if (bitsFloat(to)) {
    bool rtz = rounding == "rtz";  // f32 -> bf16 (the others are above)
    Id f = from.scalarKind() == ScalarKind::F64 ? truncToOdd(v, f32()) : castValue(v, from, ir::Type::f32(), "rtne", where);
    return f32ToBits(f, to.scalarKind(), rtz);
  }
  if (from.isInteger() && to.isInteger()) {
    if (from.bitWidth() == to.bitWidth()) return v;
    if (to.bitWidth() < from.bitWidth()) return op(Op::OpUConvert, toTy, {v});
    return op(from.isSigned() ? Op::OpSConvert : Op::OpUConvert, toTy, {v});
  }
  if (from.isInteger()) return op(from.isSigned() ? Op::OpConvertSToF : Op::OpConvertUToF, toTy, {v});
  if (to.isInteger()) {
    // Saturating, NaN -> 0 (IR.h): Vulkan leaves out-of-range conversions undefined.
    if (from.bitWidth() < 32) v = op(Op::OpFConvert, f32(), {v}), from = ir::Type::f32();
    Id ft = b.typeOfValue(v);
    int w = to.bitWidth();
    double lo = to.isSigned() ? -std::ldexp(1.0, w - 1) : 0.0;
    double hi = std::ldexp(1.0, to.isSigned() ? w - 1 : w);
    Id geLo = op(Op::OpFOrdGreaterThanEqual, boolTy(), {v, fconst(ft, lo)});
    Id ltHi = op(Op::OpFOrdLessThan, boolTy(), {v, fconst(ft, hi)});
    Id inRange = op(Op::OpLogicalAnd, boolTy(), {geLo, ltHi});
    Id safe = select(inRange, v, fconst(ft, 0.0));
    Id conv = op(to.isSigned() ? Op::OpConvertFToS : Op::OpConvertFToU, toTy, {safe});
    uint64_t maxV = to.isSigned() ? (uint64_t(1) << (w - 1)) - 1 : (w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1);
    uint64_t minV = to.isSigned() ? uint64_t(1) << (w - 1) : 0;
    Id big = op(Op::OpFOrdGreaterThanEqual, boolTy(), {v, fconst(ft, hi)});
    Id small = op(Op::OpFOrdLessThan, boolTy(), {v, fconst(ft, lo)});
    Id out = select(big, uconst(toTy, maxV), select(small, uconst(toTy, minV), uconst(toTy, 0)));
    return select(inRange, conv, out);
  }
  // f64 -> f16 in one rounding (drivers may round through f32 twice).
  if (from.scalarKind() == ScalarKind::F64 && to.scalarKind() == ScalarKind::F16) v = truncToOdd(v, f32());
  return op(Op::OpFConvert, toTy, {v});
}

Id KernelEmitter::elementwise(const ir::Operation &o, std::vector<Id> in) {
  ir::Type t = o.numOperands() ? o.operand(0)->type().element() : o.result()->type().element();
  ir::Type rt = o.numResults() ? o.result()->type().element() : t;
  bool promote = bitsFloat(t) && !o.is(OpCode::Cast) && !o.is(OpCode::Bitcast) && !o.is(OpCode::Select) &&
                 !o.is(OpCode::Constant);
  if (o.is(OpCode::Constant) && bitsFloat(rt)) return f32ToBits(fconst(f32(), o.attr("value")->getFloat()), rt.scalarKind(), false);
  if (!promote) return elementwiseIn(o, in, t, rt);
  // |x| of an fp8 clears the sign bit: exact in every format (fp8e4b15's 1.875 would not survive f32 and back).
  if (o.is(OpCode::Abs) && t.bitWidth() == 8) return op(Op::OpBitwiseAnd, b.intType(8), {in[0], uconst(b.intType(8), 0x7F)});
  for (Id &v : in) v = bitsToF32(v, t.scalarKind());
  Id r = elementwiseIn(o, in, ir::Type::f32(), bitsFloat(rt) ? ir::Type::f32() : rt);
  return bitsFloat(rt) ? f32ToBits(r, rt.scalarKind(), false) : r;
}

// `fn` on f32 (f16 widens to f32 and rounds back); f64 has no GLSL.std.450
// transcendental functions.
Id KernelEmitter::mathF32(const ir::Operation &o, ir::Type t, const std::vector<Id> &in,
                          const std::function<Id(const std::vector<Id> &)> &fn) {
  if (t.scalarKind() == ScalarKind::F64) {
    if (in.size() == 1)
      if (Id v = mathF64(o.is(OpCode::MathFn) ? o.attr("fn")->getString() : std::string(o.name()), in[0])) return v;
    fail(o, "on f64 has no Vulkan instruction (GLSL.std.450 is f32 only)");
  }
  if (t.scalarKind() == ScalarKind::F32) return fn(in);
  std::vector<Id> wide;
  for (Id v : in) wide.push_back(op(Op::OpFConvert, f32(), {v}));
  return op(Op::OpFConvert, typeOf(t), {fn(wide)});
}

Id KernelEmitter::elementwiseIn(const ir::Operation &o, std::vector<Id> in, ir::Type t, ir::Type rt) {
  bool fp = t.isFloat(), boolean = t.isBool();
  Id ty = typeOf(t), rty = typeOf(rt);
  auto bin = [&](Op f, Op i) { return op(fp ? f : i, ty, {in[0], in[1]}); };
  auto ext = [&](uint32_t inst) { return glsl(ty, inst, in); };
  auto f32math = [&](uint32_t inst) {
    return mathF32(o, t, in, [&](const std::vector<Id> &x) { return glsl(f32(), inst, x); });
  };
  switch (o.code()) {
  case OpCode::Constant: {
    const ir::Attribute &a = *o.attr("value");
    if (rt.isBool()) return b.constantBool(a.getInt() != 0);
    if (rt.isFloat()) return fconst(rty, a.getFloat());
    return uconst(rty, uint64_t(a.getInt()));
  }
  case OpCode::Add:
  case OpCode::Sub:
    if (boolean) return op(Op::OpLogicalNotEqual, ty, {in[0], in[1]});
    return o.is(OpCode::Add) ? bin(Op::OpFAdd, Op::OpIAdd) : bin(Op::OpFSub, Op::OpISub);
  case OpCode::Mul:
    if (boolean) return op(Op::OpLogicalAnd, ty, {in[0], in[1]});
    if (fp && !opts.fpFusion) {
      Id product = bin(Op::OpFMul, Op::OpIMul);
      b.decorate(product, spv::Decoration::NoContraction);
      return product;
    }
    return bin(Op::OpFMul, Op::OpIMul);
  case OpCode::Neg:
    if (boolean) return in[0];
    return op(fp ? Op::OpFNegate : Op::OpSNegate, ty, {in[0]});
  case OpCode::Div:
  case OpCode::Rem: {
    bool div = o.is(OpCode::Div);
    if (fp) return div ? op(Op::OpFDiv, ty, {in[0], in[1]}) : fmod(ty, in[0], in[1]);
    if (boolean) fail(o, "on i1 is not supported");
    // No traps: x / 0 and INT_MIN / -1 give an unspecified value (IR.h).
    Id zero = uconst(ty, 0), one = uconst(ty, 1);
    Id d = select(op(Op::OpIEqual, boolTy(), {in[1], zero}), one, in[1]);
    if (!t.isSigned()) return op(div ? Op::OpUDiv : Op::OpUMod, ty, {in[0], d});
    Id minusOne = op(Op::OpIEqual, boolTy(), {d, uconst(ty, ~uint64_t(0))});
    d = select(minusOne, one, d);
    // x - (x / d) * d: NVIDIA's Vulkan driver gave OpSRem the divisor's sign.
    Id q = op(Op::OpSDiv, ty, {in[0], d});
    if (!div) q = op(Op::OpISub, ty, {in[0], op(Op::OpIMul, ty, {q, d})});
    return select(minusOne, div ? op(Op::OpSNegate, ty, {in[0]}) : zero, q);
  }
  case OpCode::Min:
  case OpCode::Max: {
    bool isMin = o.is(OpCode::Min);
    if (boolean) return op(isMin ? Op::OpLogicalAnd : Op::OpLogicalOr, ty, {in[0], in[1]});
    if (fp) {
      Id r = ext(isMin ? GLSLstd450NMin : GLSLstd450NMax);
      if (!o.attrs().getBool("propagate_nan", false)) return r;
      Id nan = op(Op::OpFUnordNotEqual, boolTy(), {in[0], in[0]});
      nan = op(Op::OpLogicalOr, boolTy(), {nan, op(Op::OpFUnordNotEqual, boolTy(), {in[1], in[1]})});
      return select(nan, op(Op::OpFAdd, ty, {in[0], in[1]}), r);
    }
    Id lt = op(t.isSigned() ? Op::OpSLessThan : Op::OpULessThan, boolTy(), {in[0], in[1]});
    return isMin ? select(lt, in[0], in[1]) : select(lt, in[1], in[0]);
  }
  case OpCode::And: return op(boolean ? Op::OpLogicalAnd : Op::OpBitwiseAnd, ty, {in[0], in[1]});
  case OpCode::Or: return op(boolean ? Op::OpLogicalOr : Op::OpBitwiseOr, ty, {in[0], in[1]});
  case OpCode::Xor: return op(boolean ? Op::OpLogicalNotEqual : Op::OpBitwiseXor, ty, {in[0], in[1]});
  case OpCode::Not: return op(boolean ? Op::OpLogicalNot : Op::OpNot, ty, {in[0]});
  case OpCode::Shl:
  case OpCode::Shr: {
    if (boolean) return o.is(OpCode::Shl) ? op(Op::OpLogicalAnd, ty, {in[0], op(Op::OpLogicalNot, ty, {in[1]})}) : in[0];
    Id amt = op(Op::OpBitwiseAnd, ty, {in[1], uconst(ty, uint64_t(t.bitWidth() - 1))});
    if (o.is(OpCode::Shl)) return op(Op::OpShiftLeftLogical, ty, {in[0], amt});
    return op(t.isSigned() ? Op::OpShiftRightArithmetic : Op::OpShiftRightLogical, ty, {in[0], amt});
  }
  case OpCode::MulHi: {
    if (boolean) return op(Op::OpLogicalAnd, ty, {in[0], in[1]});
    // OpenCL.std's mul_hi: Intel's OpenCL runtimes have no OpUMulExtended
    // for scalars (a build fails on the missing __spirv_UMulExtendedii).
    if (opts.flavour == Flavour::OpenCL)
      return b.extInst(ty, b.extInstSet("OpenCL.std"), t.isSigned() ? OpenCLLIB::SMul_hi : OpenCLLIB::UMul_hi,
                       {in[0], in[1]});
    Id pair = b.structType({ty, ty});
    Id r = op(t.isSigned() ? Op::OpSMulExtended : Op::OpUMulExtended, pair, {in[0], in[1]});
    return op(Op::OpCompositeExtract, ty, {r, 1});
  }
  case OpCode::Fma: return fma(t, in[0], in[1], in[2]);
  case OpCode::Cmp: {
    const std::string &p = o.attr("pred")->getString();
    Op code;
    if (fp) {
      code = p == "eq" ? Op::OpFOrdEqual : p == "ne" ? Op::OpFUnordNotEqual : p == "lt" ? Op::OpFOrdLessThan
           : p == "le" ? Op::OpFOrdLessThanEqual : p == "gt" ? Op::OpFOrdGreaterThan : Op::OpFOrdGreaterThanEqual;
    } else if (boolean) {
      // false < true, as unsigned bits.
      if (p == "eq" || p == "ne") return op(p == "eq" ? Op::OpLogicalEqual : Op::OpLogicalNotEqual, boolTy(), in);
      Id a = select(in[0], c32(1), c32(0)), c = select(in[1], c32(1), c32(0));
      code = p == "lt" ? Op::OpULessThan : p == "le" ? Op::OpULessThanEqual : p == "gt" ? Op::OpUGreaterThan
                                                                                         : Op::OpUGreaterThanEqual;
      return op(code, boolTy(), {a, c});
    } else {
      bool s = t.isSigned();
      code = p == "eq" ? Op::OpIEqual : p == "ne" ? Op::OpINotEqual
           : p == "lt" ? (s ? Op::OpSLessThan : Op::OpULessThan) : p == "le" ? (s ? Op::OpSLessThanEqual : Op::OpULessThanEqual)
           : p == "gt" ? (s ? Op::OpSGreaterThan : Op::OpUGreaterThan) : (s ? Op::OpSGreaterThanEqual : Op::OpUGreaterThanEqual);
    }
    return op(code, boolTy(), {in[0], in[1]});
  }
  case OpCode::Select: return select(in[0], in[1], in[2]);
  case OpCode::Cast: return castValue(in[0], t, rt, o.attrs().getString("rounding", "rtne"), o);
  case OpCode::Bitcast: return b.typeOfValue(in[0]) == rty ? in[0] : op(Op::OpBitcast, rty, {in[0]});
  case OpCode::AddPtr: {
    ir::Type ptr = o.operand(0)->type().element();
    bool shared = ptr.addressSpace() == ir::AddressSpace::Shared;
    Id addrTy = shared ? u32() : u64();
    ir::Type offT = o.operand(1)->type().element();
    Id off = in[1];
    if (b.typeOfValue(off) != addrTy)
      off = op(offT.isSigned() && !shared ? Op::OpSConvert : Op::OpUConvert, addrTy, {off});
    Id bytes = op(Op::OpIMul, addrTy, {off, uconst(addrTy, uint64_t(memoryBytes(ptr.pointee())))});
    return op(Op::OpIAdd, addrTy, {in[0], bytes});
  }
  case OpCode::Exp: return f32math(GLSLstd450Exp);
  case OpCode::Exp2: return f32math(GLSLstd450Exp2);
  case OpCode::Log: return f32math(GLSLstd450Log);
  case OpCode::Log2: return f32math(GLSLstd450Log2);
  case OpCode::Sin:
  case OpCode::Cos:
    return mathF32(o, t, in, [&](const std::vector<Id> &x) { return sinCosF32(x[0], o.is(OpCode::Cos)); });
  case OpCode::Sqrt: return ext(GLSLstd450Sqrt);
  case OpCode::Rsqrt: return op(Op::OpFDiv, ty, {fconst(ty, 1.0), ext(GLSLstd450Sqrt)});
  case OpCode::Floor: return ext(GLSLstd450Floor);
  case OpCode::Ceil: return ext(GLSLstd450Ceil);
  case OpCode::Abs:
    if (fp) return ext(GLSLstd450FAbs);
    if (!t.isSigned()) return in[0];
    return ext(GLSLstd450SAbs);
  case OpCode::Erf: return mathF32(o, t, in, [&](const std::vector<Id> &x) { return erfF32(x[0]); });
  case OpCode::MathFn: {
    const std::string &fn = o.attr("fn")->getString();
    if (fn == "trunc") return ext(GLSLstd450Trunc);
    if (fn == "rint") return ext(GLSLstd450RoundEven);
    if (fn == "round") {
      // Halfway cases away from zero, as C's round (GLSL's Round may go either way).
      Id tr = ext(GLSLstd450Trunc);
      Id frac = glsl(ty, GLSLstd450FAbs, {op(Op::OpFSub, ty, {in[0], tr})});
      Id up = op(Op::OpFOrdGreaterThanEqual, boolTy(), {frac, fconst(ty, 0.5)});
      return select(up, op(Op::OpFAdd, ty, {tr, glsl(ty, GLSLstd450FSign, {in[0]})}), tr);
    }
    static const std::pair<const char *, uint32_t> kDirect[] = {
        {"tanh", GLSLstd450Tanh}, {"sinh", GLSLstd450Sinh}, {"cosh", GLSLstd450Cosh}, {"tan", GLSLstd450Tan},
        {"asin", GLSLstd450Asin}, {"acos", GLSLstd450Acos}, {"atan", GLSLstd450Atan}, {"asinh", GLSLstd450Asinh},
        {"acosh", GLSLstd450Acosh}, {"atanh", GLSLstd450Atanh}};
    for (auto [name, inst] : kDirect)
      if (fn == name) return f32math(inst);
    return mathF32(o, t, in, [&](const std::vector<Id> &x) { return mathFnF32(o, fn, x[0]); });
  }
  case OpCode::MathFn2: {
    const std::string &fn = o.attr("fn")->getString();
    if (fn == "copysign") {
      Id it = b.intType(t.bitWidth());
      uint64_t signBit = uint64_t(1) << (t.bitWidth() - 1);
      Id mag = op(Op::OpBitwiseAnd, it, {op(Op::OpBitcast, it, {in[0]}), uconst(it, signBit - 1)});
      Id sign = op(Op::OpBitwiseAnd, it, {op(Op::OpBitcast, it, {in[1]}), uconst(it, signBit)});
      return op(Op::OpBitcast, ty, {op(Op::OpBitwiseOr, it, {mag, sign})});
    }
    if (fn == "fmod") return fmod(ty, in[0], in[1]);
    if (fn == "pow") return f32math(GLSLstd450Pow);
    if (fn == "atan2") return f32math(GLSLstd450Atan2);
    if (fn == "hypot")
      return mathF32(o, t, in, [&](const std::vector<Id> &x) {
        // Scaled by the larger magnitude so that squares neither overflow nor underflow.
        Id ax = glsl(f32(), GLSLstd450FAbs, {x[0]}), ay = glsl(f32(), GLSLstd450FAbs, {x[1]});
        Id hi = glsl(f32(), GLSLstd450NMax, {ax, ay}), lo = glsl(f32(), GLSLstd450NMin, {ax, ay});
        Id zero = op(Op::OpFOrdEqual, boolTy(), {hi, fconst(f32(), 0.0)});
        Id r = op(Op::OpFDiv, f32(), {lo, select(zero, fconst(f32(), 1.0), hi)});
        Id h = op(Op::OpFMul, f32(), {hi, glsl(f32(), GLSLstd450Sqrt, {glsl(f32(), GLSLstd450Fma, {r, r, fconst(f32(), 1.0)})})});
        Id inf = op(Op::OpLogicalOr, boolTy(), {op(Op::OpIsInf, boolTy(), {x[0]}), op(Op::OpIsInf, boolTy(), {x[1]})});
        return select(inf, fconst(f32(), INFINITY), h);
      });
    fail(o, "function '" + fn + "' is not supported");
  }
  default: fail(o, "is not an elementwise op");
  }
}

// a * b + c rounded once. Vulkan's Fma may round twice (its precision is
// that of a multiply and an add), so f16 and f32 compute in the next wider
// type, where the product is exact, and the sum is rounded to odd (TwoSum's
// error term says which way) before the one rounding to the result type.
// f64 (and f32 on devices without f64) use GLSL's Fma.
Id KernelEmitter::fma(ir::Type t, Id a, Id bv, Id c) {
  Id ty = typeOf(t);
  if (t.scalarKind() == ScalarKind::F64) return glsl(ty, GLSLstd450Fma, {a, bv, c});
  Id wide = b.floatType(t.scalarKind() == ScalarKind::F16 ? 32 : 64);
  Id wi = b.intType(b.widthOf(wide));
  auto W = [&](Id x) { return op(Op::OpFConvert, wide, {x}); };
  Id p = op(Op::OpFMul, wide, {W(a), W(bv)});
  Id cw = W(c);
  Id s = op(Op::OpFAdd, wide, {p, cw});
  Id bb = op(Op::OpFSub, wide, {s, p});
  Id err = op(Op::OpFAdd, wide, {op(Op::OpFSub, wide, {p, op(Op::OpFSub, wide, {s, bb})}), op(Op::OpFSub, wide, {cw, bb})});
  Id bits = op(Op::OpBitcast, wi, {s});
  Id even = op(Op::OpIEqual, boolTy(), {op(Op::OpBitwiseAnd, wi, {bits, uconst(wi, 1)}), uconst(wi, 0)});
  Id inexact = op(Op::OpFOrdNotEqual, boolTy(), {err, fconst(wide, 0.0)});
  Id finite = op(Op::OpLogicalNot, boolTy(), {op(Op::OpLogicalOr, boolTy(), {op(Op::OpIsInf, boolTy(), {s}), op(Op::OpIsNan, boolTy(), {s})})});
  // Moving the bits by one moves |s| up when err has s's sign, else down.
  Id sameSign = op(Op::OpLogicalEqual, boolTy(), {op(Op::OpFOrdLessThan, boolTy(), {s, fconst(wide, 0.0)}),
                                                  op(Op::OpFOrdLessThan, boolTy(), {err, fconst(wide, 0.0)})});
  Id nudged = op(Op::OpIAdd, wi, {bits, select(sameSign, uconst(wi, 1), uconst(wi, ~uint64_t(0)))});
  Id odd = op(Op::OpLogicalAnd, boolTy(), {op(Op::OpLogicalAnd, boolTy(), {even, inexact}), finite});
  Id sum = op(Op::OpBitcast, wide, {select(odd, nudged, bits)});
  return op(Op::OpFConvert, ty, {sum});
}

// sin or cos in f32 to about an ulp: Cody and Waite's reduction by pi/4 in
// three parts and Cephes' sinf/cosf polynomials (Vulkan's Sin and Cos are
// only accurate to 2^-11 absolute, and NVIDIA's are that rough), for |x|
// below 8192, beyond which the reduction loses bits and GLSL's functions
// are used.
Id KernelEmitter::sinCosF32(Id x, bool cosine) {
  Id ax = glsl(f32(), GLSLstd450FAbs, {x});
  // j = the even octant at or above |x| * 4/pi; y = j as a float.
  Id j = op(Op::OpConvertFToU, u32(), {op(Op::OpFMul, f32(), {ax, fconst(f32(), 1.2732395447351628)})});
  j = op(Op::OpBitwiseAnd, u32(), {op(Op::OpIAdd, u32(), {j, c32(1)}), c32(~1u)});
  Id y = op(Op::OpConvertUToF, f32(), {j});
  // Cephes' parts of pi/4: y times the first two is exact for y < 8192.
  Id r = ax;
  for (double part : {0.78515625, 2.4187564849853515625e-4, 3.77489497744594108e-8})
    r = op(Op::OpFSub, f32(), {r, op(Op::OpFMul, f32(), {y, fconst(f32(), part)})});
  Id z = op(Op::OpFMul, f32(), {r, r});
  auto poly = [&](std::initializer_list<double> c) {
    Id p = 0;
    for (double k : c) p = p ? glsl(f32(), GLSLstd450Fma, {p, z, fconst(f32(), k)}) : fconst(f32(), k);
    return p;
  };
  // sin r = r + r z (s3 z^2 + s2 z + s1); cos r = 1 - z/2 + z^2 (c3 z^2 + c2 z + c1).
  Id sinR = glsl(f32(), GLSLstd450Fma, {op(Op::OpFMul, f32(), {r, z}), poly({-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1}), r});
  Id cosR = op(Op::OpFAdd, f32(), {op(Op::OpFSub, f32(), {fconst(f32(), 1.0), op(Op::OpFMul, f32(), {z, fconst(f32(), 0.5)})}),
                                   op(Op::OpFMul, f32(), {op(Op::OpFMul, f32(), {z, z}), poly({2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2})})});
  // Octant j (mod 8): j/2 mod 4 picks sin or cos of r and the sign.
  Id quadrant = op(Op::OpBitwiseAnd, u32(), {op(Op::OpShiftRightLogical, u32(), {j, c32(1)}), c32(3)});
  if (cosine) quadrant = op(Op::OpBitwiseAnd, u32(), {op(Op::OpIAdd, u32(), {quadrant, c32(1)}), c32(3)});
  Id useCos = op(Op::OpIEqual, boolTy(), {op(Op::OpBitwiseAnd, u32(), {quadrant, c32(1)}), c32(1)});
  Id v = select(useCos, cosR, sinR);
  Id negate = op(Op::OpIEqual, boolTy(), {op(Op::OpBitwiseAnd, u32(), {quadrant, c32(2)}), c32(2)});
  v = select(negate, op(Op::OpFNegate, f32(), {v}), v);
  // sin is odd: the sign of x; cos is even.
  if (!cosine) {
    Id signBit = op(Op::OpBitwiseAnd, u32(), {op(Op::OpBitcast, u32(), {x}), c32(0x80000000u)});
    v = op(Op::OpBitcast, f32(), {op(Op::OpBitwiseXor, u32(), {op(Op::OpBitcast, u32(), {v}), signBit})});
  }
  Id small = op(Op::OpFOrdLessThan, boolTy(), {ax, fconst(f32(), 8192.0)});
  return select(small, v, glsl(f32(), cosine ? GLSLstd450Cos : GLSLstd450Sin, {x}));
}

// erf(x) in f32: its Maclaurin series below 1 (relative accuracy near 0),
// else 1 - erfc with erfc from Abramowitz and Stegun 7.1.26's form refined
// by exp(-x^2) (absolute error ~1e-7, below f32's ulp of 1).
Id KernelEmitter::erfF32(Id x) {
  Id ax = glsl(f32(), GLSLstd450FAbs, {x});
  Id x2 = op(Op::OpFMul, f32(), {x, x});
  // sum_{n} (-1)^n x^(2n+1) / (n! (2n+1)), times 2/sqrt(pi): 12 terms reach 1e-9 at |x| = 1.
  Id sum = x;
  double fact = 1;
  Id power = x;
  for (int n = 1; n <= 12; ++n) {
    fact *= n;
    power = op(Op::OpFMul, f32(), {power, x2});
    double c = (n % 2 ? -1.0 : 1.0) / (fact * (2 * n + 1));
    sum = glsl(f32(), GLSLstd450Fma, {power, fconst(f32(), c), sum});
  }
  Id small = op(Op::OpFMul, f32(), {sum, fconst(f32(), 1.1283791670955126)});
  Id t = op(Op::OpFDiv, f32(), {fconst(f32(), 1.0), glsl(f32(), GLSLstd450Fma, {ax, fconst(f32(), 0.3275911), fconst(f32(), 1.0)})});
  static const double a[] = {0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429};
  Id poly = fconst(f32(), a[4]);
  for (int i = 3; i >= 0; --i) poly = glsl(f32(), GLSLstd450Fma, {poly, t, fconst(f32(), a[i])});
  poly = op(Op::OpFMul, f32(), {poly, t});
  Id erfc = op(Op::OpFMul, f32(), {poly, glsl(f32(), GLSLstd450Exp, {op(Op::OpFNegate, f32(), {x2})})});
  Id large = glsl(f32(), GLSLstd450FSign, {x});
  large = op(Op::OpFMul, f32(), {large, op(Op::OpFSub, f32(), {fconst(f32(), 1.0), erfc})});
  return select(op(Op::OpFOrdLessThan, boolTy(), {ax, fconst(f32(), 1.0)}), small, large);
}

// The <math.h> functions GLSL.std.450 lacks, in f32 from those it has.
Id KernelEmitter::mathFnF32(const ir::Operation &o, const std::string &fn, Id x) {
  Id one = fconst(f32(), 1.0);
  if (fn == "exp10") return glsl(f32(), GLSLstd450Exp2, {op(Op::OpFMul, f32(), {x, fconst(f32(), 3.321928094887362)})});
  if (fn == "log10") return op(Op::OpFMul, f32(), {glsl(f32(), GLSLstd450Log2, {x}), fconst(f32(), 0.30102999566398120)});
  if (fn == "expm1") {
    // exp(x) - 1 loses everything near 0: Kahan's (u - 1) * x / log(u).
    Id u = glsl(f32(), GLSLstd450Exp, {x});
    Id um1 = op(Op::OpFSub, f32(), {u, one});
    Id corrected = op(Op::OpFMul, f32(), {um1, op(Op::OpFDiv, f32(), {x, glsl(f32(), GLSLstd450Log, {u})})});
    Id plain = op(Op::OpLogicalOr, boolTy(), {op(Op::OpIsInf, boolTy(), {u}),
                                              op(Op::OpFOrdEqual, boolTy(), {um1, fconst(f32(), -1.0)})});
    return select(op(Op::OpFOrdEqual, boolTy(), {u, one}), x, select(plain, um1, corrected));
  }
  if (fn == "log1p") {
    // log(1 + x) corrected by x / ((1 + x) - 1) (Goldberg).
    Id u = op(Op::OpFAdd, f32(), {x, one});
    Id d = op(Op::OpFSub, f32(), {u, one});
    Id lu = glsl(f32(), GLSLstd450Log, {u});
    Id corrected = op(Op::OpFMul, f32(), {lu, op(Op::OpFDiv, f32(), {x, d})});
    Id plain = op(Op::OpLogicalOr, boolTy(), {op(Op::OpIsInf, boolTy(), {u}),
                                              op(Op::OpFOrdLessThanEqual, boolTy(), {u, fconst(f32(), 0.0)})});
    return select(op(Op::OpFOrdEqual, boolTy(), {d, fconst(f32(), 0.0)}), x, select(plain, lu, corrected));
  }
  if (fn == "cbrt") {
    Id ax = glsl(f32(), GLSLstd450FAbs, {x});
    Id y = glsl(f32(), GLSLstd450Exp2, {op(Op::OpFMul, f32(), {glsl(f32(), GLSLstd450Log2, {ax}), fconst(f32(), 1.0 / 3)})});
    // One Newton step: y -= (y^3 - a) / (3 y^2).
    Id y2 = op(Op::OpFMul, f32(), {y, y});
    Id step = op(Op::OpFDiv, f32(), {op(Op::OpFSub, f32(), {op(Op::OpFMul, f32(), {y2, y}), ax}),
                                     op(Op::OpFMul, f32(), {y2, fconst(f32(), 3.0)})});
    Id finite = op(Op::OpLogicalAnd, boolTy(), {op(Op::OpFOrdGreaterThan, boolTy(), {ax, fconst(f32(), 0.0)}),
                                                op(Op::OpLogicalNot, boolTy(), {op(Op::OpIsInf, boolTy(), {ax})})});
    Id r = select(finite, op(Op::OpFSub, f32(), {y, step}), ax);
    return select(op(Op::OpFOrdLessThan, boolTy(), {x, fconst(f32(), 0.0)}), op(Op::OpFNegate, f32(), {r}), r);
  }
  fail(o, "function '" + fn + "' is not supported on the spirv target yet");
}

// C's fmod, whose result is always representable. OpFRem is x - y *
// trunc(x / y) in the operands' type on NVIDIA's driver and lavapipe, which
// loses the low bits (fmod(3y, y) gave y): f16 and f32 are computed in the
// type twice as wide, where the product of the quotient and y is exact
// while the quotient stays below 2^29 (f32) / 2^11 (f16), then brought back
// into (-|y|, |y|) with the sign of x. f64 gets the correction only.
Id KernelEmitter::fmod(Id ty, Id x, Id y) {
  int bits = b.widthOf(ty);
  Id wide = bits == 64 ? ty : b.floatType(bits * 2);
  auto W = [&](Id v) { return wide == ty ? v : op(Op::OpFConvert, wide, {v}); };
  Id xw = W(x), yw = W(y);
  Id q = glsl(wide, GLSLstd450Trunc, {op(Op::OpFDiv, wide, {xw, yw})});
  Id r = wide == ty ? op(Op::OpFRem, ty, {x, y}) : op(Op::OpFSub, wide, {xw, op(Op::OpFMul, wide, {q, yw})});
  Id zero = b.constant(wide, 0);
  Id ay = glsl(wide, GLSLstd450FAbs, {yw});
  Id usable = op(Op::OpLogicalAnd, boolTy(), {op(Op::OpFOrdGreaterThan, boolTy(), {ay, zero}),
                                              op(Op::OpLogicalNot, boolTy(), {op(Op::OpIsInf, boolTy(), {yw})})});
  Id tooBig = op(Op::OpLogicalAnd, boolTy(), {usable, op(Op::OpFOrdGreaterThanEqual, boolTy(), {glsl(wide, GLSLstd450FAbs, {r}), ay})});
  r = select(tooBig, op(Op::OpFSub, wide, {r, op(Op::OpFMul, wide, {glsl(wide, GLSLstd450FSign, {r}), ay})}), r);
  Id signX = glsl(wide, GLSLstd450FSign, {xw});
  Id opposite = op(Op::OpFOrdLessThan, boolTy(), {op(Op::OpFMul, wide, {glsl(wide, GLSLstd450FSign, {r}), signX}), zero});
  r = select(op(Op::OpLogicalAnd, boolTy(), {usable, opposite}), op(Op::OpFAdd, wide, {r, op(Op::OpFMul, wide, {signX, ay})}), r);
  // fmod(x, y) has x's sign even when zero; fmod(finite x, inf) is x.
  r = select(op(Op::OpFOrdEqual, boolTy(), {r, zero}), op(Op::OpFMul, wide, {signX, zero}), r);
  if (wide != ty) r = op(Op::OpFConvert, ty, {r});
  Id xFinite = op(Op::OpLogicalNot, boolTy(), {op(Op::OpLogicalOr, boolTy(), {op(Op::OpIsInf, boolTy(), {x}),
                                                                              op(Op::OpIsNan, boolTy(), {x})})});
  return select(op(Op::OpLogicalAnd, boolTy(), {xFinite, op(Op::OpIsInf, boolTy(), {y})}), x, r);
}

} // namespace tessera::targets::spirv
