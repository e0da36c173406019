// f64 exp, exp2, log, log2, sin, cos and erf from f64 arithmetic, since
// Vulkan's GLSL.std.450 has no 64-bit transcendental functions: range
// reduction, then Taylor series long enough for double precision (errors of
// a few ulp; the conformance corpus asks for 1e-13 relative).
#include "targets/spirv/Emitter.h"

#include <spirv/unified1/GLSL.std.450.h>

#include <cmath>

namespace tessera::targets::spirv {

using spv::Op;

namespace {

constexpr double kLn2Hi = 6.93147180369123816490e-01, kLn2Lo = 1.90821492927058770002e-10;

} // namespace

Id KernelEmitter::f64Const(double v) { return fconst(b.floatType(64), v); }

Id KernelEmitter::mathF64(const std::string &fn, Id x) {
  if (fn == "exp" || fn == "exp2") return expF64(x, fn == "exp2");
  if (fn == "log" || fn == "log2") return logF64(x, fn == "log2");
  if (fn == "sin" || fn == "cos") return sinCosF64(x, fn == "cos");
  if (fn == "erf") return erfF64(x);
  return 0;
}

// 2^k for an integral f64 k in [-1080, 1030] as two factors (each a normal
// power of two) whose product the caller applies one at a time.
std::pair<Id, Id> KernelEmitter::powersOfTwoF64(Id k) {
  Id f64 = b.floatType(64), i64 = u64();
  Id ki = op(Op::OpConvertFToS, i64, {k});
  Id half = op(Op::OpShiftRightArithmetic, i64, {ki, uconst(i64, 1)});
  Id rest = op(Op::OpISub, i64, {ki, half});
  auto pow2 = [&](Id e) {
    return op(Op::OpBitcast, f64, {op(Op::OpShiftLeftLogical, i64, {op(Op::OpIAdd, i64, {e, uconst(i64, 1023)}), uconst(i64, 52)})});
  };
  return {pow2(half), pow2(rest)};
}

// e^r for |r| <= ln2/2 (Taylor to r^13: the next term is below 2^-60).
Id KernelEmitter::expReducedF64(Id r) {
  Id f64 = b.floatType(64);
  double c = 1;
  std::vector<double> coeffs;
  for (int n = 0; n <= 13; ++n) {
    if (n) c /= n;
    coeffs.push_back(c);
  }
  Id p = f64Const(coeffs.back());
  for (int n = 12; n >= 0; --n) p = glsl(f64, GLSLstd450Fma, {p, r, f64Const(coeffs[size_t(n)])});
  return p;
}

Id KernelEmitter::expF64(Id x, bool base2) {
  Id f64 = b.floatType(64);
  Id k, r;
  if (base2) {
    k = glsl(f64, GLSLstd450RoundEven, {x});
    Id frac = op(Op::OpFSub, f64, {x, k});
    r = glsl(f64, GLSLstd450Fma, {frac, f64Const(kLn2Hi), op(Op::OpFMul, f64, {frac, f64Const(kLn2Lo)})});
  } else {
    k = glsl(f64, GLSLstd450RoundEven, {op(Op::OpFMul, f64, {x, f64Const(1.4426950408889634)})});
    // ln2's high part has 32 bits: k times it is exact (no fused multiply-add needed).
    r = op(Op::OpFSub, f64, {x, op(Op::OpFMul, f64, {k, f64Const(kLn2Hi)})});
    r = op(Op::OpFSub, f64, {r, op(Op::OpFMul, f64, {k, f64Const(kLn2Lo)})});
  }
  // Past the range (infinity or zero below) k is clamped so that both
  // halves of 2^k stay normal powers of two; within it k may reach 1024.
  Id kc = glsl(f64, GLSLstd450FClamp, {k, f64Const(-1080), f64Const(1030)});
  auto [s1, s2] = powersOfTwoF64(kc);
  Id v = op(Op::OpFMul, f64, {op(Op::OpFMul, f64, {expReducedF64(r), s1}), s2});
  double hi = base2 ? 1024.0 : 709.782712893384, lo = base2 ? -1075.0 : -745.1332191019412;
  v = select(op(Op::OpFOrdGreaterThanEqual, boolTy(), {x, f64Const(hi)}), f64Const(INFINITY), v);
  v = select(op(Op::OpFOrdLessThan, boolTy(), {x, f64Const(lo)}), f64Const(0.0), v);
  return select(op(Op::OpIsNan, boolTy(), {x}), x, v);
}

// log(x) = e ln2 + log(m), m in [sqrt(1/2), sqrt(2)), log(m) = 2 atanh(s)
// with s = (m - 1) / (m + 1), |s| <= 0.172 (series to s^23). base2: e +
// log(m) log2(e), so powers of two come out exact.
Id KernelEmitter::logF64(Id x, bool base2) {
  Id f64 = b.floatType(64), i64 = u64();
  // Subnormals: scale into the normal range first.
  Id tiny = op(Op::OpFOrdLessThan, boolTy(), {x, f64Const(std::ldexp(1.0, -1022))});
  Id xs = select(tiny, op(Op::OpFMul, f64, {x, f64Const(std::ldexp(1.0, 54))}), x);
  Id bits = op(Op::OpBitcast, i64, {xs});
  Id e = op(Op::OpISub, i64, {op(Op::OpBitwiseAnd, i64, {op(Op::OpShiftRightLogical, i64, {bits, uconst(i64, 52)}), uconst(i64, 0x7FF)}),
                              uconst(i64, 1023)});
  Id mbits = op(Op::OpBitwiseOr, i64, {op(Op::OpBitwiseAnd, i64, {bits, uconst(i64, (uint64_t(1) << 52) - 1)}),
                                       uconst(i64, uint64_t(1023) << 52)});
  Id m = op(Op::OpBitcast, f64, {mbits});
  Id big = op(Op::OpFOrdGreaterThan, boolTy(), {m, f64Const(1.4142135623730951)});
  m = select(big, op(Op::OpFMul, f64, {m, f64Const(0.5)}), m);
  e = select(big, op(Op::OpIAdd, i64, {e, uconst(i64, 1)}), e);
  Id ef = op(Op::OpFSub, f64, {op(Op::OpConvertSToF, f64, {e}), select(tiny, f64Const(54.0), f64Const(0.0))});
  Id f = op(Op::OpFSub, f64, {m, f64Const(1.0)});
  Id s = op(Op::OpFDiv, f64, {f, op(Op::OpFAdd, f64, {m, f64Const(1.0)})});
  Id z = op(Op::OpFMul, f64, {s, s});
  Id p = f64Const(1.0 / 23);
  for (int n = 21; n >= 1; n -= 2) p = glsl(f64, GLSLstd450Fma, {p, z, f64Const(1.0 / n)});
  Id logm = op(Op::OpFMul, f64, {op(Op::OpFMul, f64, {s, f64Const(2.0)}), p});
  Id v;
  if (base2) v = glsl(f64, GLSLstd450Fma, {logm, f64Const(1.4426950408889634), ef});
  else v = op(Op::OpFAdd, f64, {op(Op::OpFMul, f64, {ef, f64Const(kLn2Hi)}), glsl(f64, GLSLstd450Fma, {ef, f64Const(kLn2Lo), logm})});
  v = select(op(Op::OpFOrdEqual, boolTy(), {x, f64Const(0.0)}), f64Const(-INFINITY), v);
  v = select(op(Op::OpFOrdLessThan, boolTy(), {x, f64Const(0.0)}), f64Const(NAN), v);
  v = select(op(Op::OpIsInf, boolTy(), {x}), x, v);
  return select(op(Op::OpIsNan, boolTy(), {x}), x, v);
}

// sin/cos: x - k pi/2 with pi/2 in three parts (fma keeps each product
// exact), then Taylor series on |r| <= ~pi/4 and the quadrant k mod 4.
Id KernelEmitter::sinCosF64(Id x, bool cosine) {
  Id f64 = b.floatType(64), i64 = u64();
  Id k = glsl(f64, GLSLstd450RoundEven, {op(Op::OpFMul, f64, {x, f64Const(0.63661977236758138)})});
  // fdlibm's parts of pi/2: the first three have 33 bits, so k times each
  // is exact for |k| < 2^20 without relying on a fused multiply-add (Vulkan
  // does not promise one); past |x| ~ 1.6e6 the reduction loses accuracy.
  Id r = x;
  for (double part : {1.57079632673412561417e+00, 6.07710050630396597660e-11, 2.02226624871116645580e-21,
                      8.47842766036889956997e-32})
    r = op(Op::OpFSub, f64, {r, op(Op::OpFMul, f64, {k, f64Const(part)})});
  Id z = op(Op::OpFMul, f64, {r, r});
  // sin r = r (1 - z/3! + z^2/5! ...), cos r = 1 - z/2! + z^2/4! ... (to r^23 / r^22).
  auto series = [&](int first) {
    std::vector<double> c;
    double f = 1;
    for (int n = first, sign = 1; n <= first + 22; n += 2, sign = -sign) {
      f = 1;
      for (int i = 2; i <= n; ++i) f *= i;
      c.push_back(sign / f);
    }
    Id p = f64Const(c.back());
    for (int i = int(c.size()) - 2; i >= 0; --i) p = glsl(f64, GLSLstd450Fma, {p, z, f64Const(c[size_t(i)])});
    return p;
  };
  Id sinR = op(Op::OpFMul, f64, {r, series(1)});
  Id cosR = series(0);
  Id q = op(Op::OpBitwiseAnd, i64, {op(Op::OpConvertFToS, i64, {k}), uconst(i64, 3)});
  if (cosine) q = op(Op::OpBitwiseAnd, i64, {op(Op::OpIAdd, i64, {q, uconst(i64, 1)}), uconst(i64, 3)});
  Id v = select(op(Op::OpIEqual, boolTy(), {op(Op::OpBitwiseAnd, i64, {q, uconst(i64, 1)}), uconst(i64, 1)}), cosR, sinR);
  v = select(op(Op::OpIEqual, boolTy(), {op(Op::OpBitwiseAnd, i64, {q, uconst(i64, 2)}), uconst(i64, 2)}),
             op(Op::OpFNegate, f64, {v}), v);
  // Infinities and NaN give NaN.
  Id bad = op(Op::OpLogicalOr, boolTy(), {op(Op::OpIsInf, boolTy(), {x}), op(Op::OpIsNan, boolTy(), {x})});
  return select(bad, f64Const(NAN), v);
}

// erf(x) = 2/sqrt(pi) e^(-x^2) sum 2^n x^(2n+1) / (1 3 5 ... (2n+1)): every
// term positive, so no cancellation; 140 terms reach 2^-60 up to |x| = 6,
// past which erf is +-1 in f64.
Id KernelEmitter::erfF64(Id x) {
  Id f64 = b.floatType(64);
  Id ax = glsl(f64, GLSLstd450FMin, {glsl(f64, GLSLstd450FAbs, {x}), f64Const(6.0)});
  Id twoX2 = op(Op::OpFMul, f64, {op(Op::OpFMul, f64, {ax, ax}), f64Const(2.0)});
  Id term = ax, sum = ax;
  for (int n = 1; n <= 140; ++n) {
    term = op(Op::OpFMul, f64, {op(Op::OpFMul, f64, {term, twoX2}), f64Const(1.0 / (2 * n + 1))});
    sum = op(Op::OpFAdd, f64, {sum, term});
  }
  Id e = expF64(op(Op::OpFNegate, f64, {op(Op::OpFMul, f64, {ax, ax})}), false);
  Id v = op(Op::OpFMul, f64, {op(Op::OpFMul, f64, {sum, e}), f64Const(1.1283791670955126)});
  v = glsl(f64, GLSLstd450FMin, {v, f64Const(1.0)});
  v = select(op(Op::OpFOrdGreaterThanEqual, boolTy(), {glsl(f64, GLSLstd450FAbs, {x}), f64Const(6.0)}), f64Const(1.0), v);
  Id signBit = op(Op::OpBitwiseAnd, u64(), {op(Op::OpBitcast, u64(), {x}), uconst(u64(), uint64_t(1) << 63)});
  v = op(Op::OpBitcast, f64, {op(Op::OpBitwiseOr, u64(), {op(Op::OpBitcast, u64(), {v}), signBit})});
  return select(op(Op::OpIsNan, boolTy(), {x}), x, v);
}

} // namespace tessera::targets::spirv
