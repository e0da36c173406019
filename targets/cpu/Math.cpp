// Math functions on the host: exp/exp2 inline, the rest through libmvec and libm.
#include "targets/cpu/Lowering.h"

#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsX86.h"

#include <functional>

namespace tessera::targets::cpu {

using ir::ScalarKind;
using llvmgen::withScalar;

// The host has no faster approximation than its exp: `approx` changes nothing.
llvm::Value *Lowering::mathCall(const char *name, llvm::Value *v, ir::Type t, bool) { return vectorMath(name, v, t); }

// e^r for |r| <= ln2/2: 1 + r + c2 r^2 + ... + c5 r^5, minimax for the
// relative error (1.06e-7 with these f32 coefficients; the whole exp stays
// under 3 ulp, which tests/python/test_math_accuracy.py checks).
llvm::Value *Lowering::expPolynomial(llvm::Value *r) {
  llvm::Type *ft = r->getType();
  llvm::Value *p = llvm::ConstantFP::get(ft, 0.008312497287988663);
  for (double c : {0.041890330612659454, 0.16667115688323975, 0.499992311000824, 1.0, 1.0})
    p = b.CreateIntrinsic(llvm::Intrinsic::fma, {ft}, {p, r, llvm::ConstantFP::get(ft, c)});
  return p;
}

// Whether v = x - m where m is at least every element of x it is taken
// from: m is the max of x along an axis, broadcast back over that axis, or a
// maximum of such a max with anything. Then v <= 0 or NaN (a NaN in x is
// ignored by the max and stays NaN in v; inf - inf is NaN).
bool Lowering::belowItsMax(const ir::Value *v) {
  const ir::Operation *sub = v->definingOp();
  if (!sub || !sub->is(ir::OpCode::Sub) || !v->type().element().isFloat()) return false;
  const ir::Value *x = sub->operand(0);
  auto strip = [](const ir::Value *u) {
    while (const ir::Operation *d = u->definingOp()) {
      if (!d->is(ir::OpCode::ConvertLayout) && !d->is(ir::OpCode::Hint)) break;
      u = d->operand(0);
    }
    return u;
  };
  // The max's value reaches x's shape through a splat (a 1-D row reduced to a
  // scalar) or expand_dims + broadcast over the reduced axis.
  std::function<bool(const ir::Value *, int64_t)> bounds = [&](const ir::Value *m, int64_t axis) -> bool {
    m = strip(m);
    const ir::Operation *d = m->definingOp();
    if (!d) return false;
    if (d->is(ir::OpCode::Broadcast)) return bounds(d->operand(0), axis);
    if (d->is(ir::OpCode::Splat)) return x->type().rank() == 1 && bounds(d->operand(0), 0);
    if (d->is(ir::OpCode::ExpandDims)) return axis < 0 && bounds(d->operand(0), d->attr("axis")->getInt());
    if (d->is(ir::OpCode::Max)) return bounds(d->operand(0), axis) || bounds(d->operand(1), axis);
    if (!d->is(ir::OpCode::Reduce) || d->numOperands() != 1 || strip(d->operand(0)) != strip(x)) return false;
    const ir::Operation *mm = floatMinMax(d->region(0).block());
    return mm && mm->is(ir::OpCode::Max) && d->attr("axis")->getInt() == (x->type().rank() == 1 ? 0 : axis);
  };
  return bounds(sub->operand(1), -1);
}

// exp and exp2 in f32, inline: n = round(x log2 e), r = x - n ln 2 (in two
// parts), e^r by expPolynomial, times 2^n built in the exponent bits (in two
// steps, so that subnormal results and the overflow to inf come out right).
// No call, so it fuses into the surrounding loop; ~13 instructions per
// vector, 12 with AVX-512.
llvm::Value *Lowering::fastExp(llvm::Value *x, bool base2) {
  llvm::Type *ft = x->getType();
  llvm::Type *it = withScalar(ft, b.getInt32Ty());
  auto f = [&](double v) { return llvm::ConstantFP::get(ft, v); };
  auto i = [&](int32_t v) { return llvm::ConstantInt::get(it, uint64_t(uint32_t(v))); };
  auto fma = [&](llvm::Value *a, llvm::Value *bb, llvm::Value *c) {
    return b.CreateIntrinsic(llvm::Intrinsic::fma, {ft}, {a, bb, c});
  };
  // With AVX-512, vscalefps computes p * 2^n with correct overflow, subnormal
  // results and NaN propagation in one instruction: clamp far enough that it
  // saturates, with compare-selects that keep NaN (false compares pass x on).
  auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(ft);
  bool scalef = facts.vectorBits >= 512 && vt && vt->getNumElements() == 16 && vt->getElementType()->isFloatTy();
  if (scalef) {
    double lim = base2 ? 300.0 : 200.0;
    // (vrangeps would clamp in one instruction, but turns a quiet NaN into the
    // bound.) x - max(x) is <= 0 or NaN: no clamp from above.
    llvm::Value *xc = expArgNonPositive_ ? x : b.CreateSelect(b.CreateFCmpOGT(x, f(lim)), f(lim), x);
    xc = b.CreateSelect(b.CreateFCmpOLT(xc, f(-lim)), f(-lim), xc);
    llvm::Value *n = b.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, base2 ? xc : b.CreateFMul(xc, f(1.4426950408889634)));
    llvm::Value *r = base2 ? b.CreateFMul(b.CreateFSub(xc, n), f(0.6931471805599453))
                           : fma(n, f(-1.428606765330187e-06), fma(n, f(-0.693145751953125), xc));
    return b.CreateIntrinsic(llvm::Intrinsic::x86_avx512_mask_scalef_ps_512, {},
                             {expPolynomial(r), n, llvm::PoisonValue::get(ft), b.getInt16(0xFFFF), b.getInt32(4)});
  }
  // Clamp to where the result is between 0 and inf; NaN is restored at the end.
  llvm::Value *xc = b.CreateIntrinsic(llvm::Intrinsic::maxnum, {ft}, {x, f(base2 ? -151.0 : -104.0)});
  xc = b.CreateIntrinsic(llvm::Intrinsic::minnum, {ft}, {xc, f(base2 ? 129.0 : 89.0)});
  llvm::Value *n = b.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, base2 ? xc : b.CreateFMul(xc, f(1.4426950408889634)));
  llvm::Value *r;
  if (base2) {
    r = b.CreateFMul(b.CreateFSub(xc, n), f(0.6931471805599453));  // 2^(x-n) = e^((x-n) ln2)
  } else {
    r = fma(n, f(-0.693145751953125), xc);  // ln2 split: high part exact in f32
    r = fma(n, f(-1.428606765330187e-06), r);
  }
  llvm::Value *p = expPolynomial(r);
  llvm::Value *ni = b.CreateFPToSI(n, it);
  llvm::Value *n1 = b.CreateAShr(ni, i(1)), *n2 = b.CreateSub(ni, n1);
  auto pow2 = [&](llvm::Value *e) { return b.CreateBitCast(b.CreateShl(b.CreateAdd(e, i(127)), i(23)), ft); };
  llvm::Value *res = b.CreateFMul(b.CreateFMul(p, pow2(n1)), pow2(n2));
  return b.CreateSelect(b.CreateFCmpUNO(x, x), x, res);
}

// Vector math through glibc's libmvec (_ZGV<isa>N<lanes>v_<name>[f]) at the
// widths the host has; other widths split or fall back to scalar libm.
llvm::Value *Lowering::vectorMath(const char *name, llvm::Value *v, ir::Type t) {
  auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(v->getType());
  ir::ScalarKind k = t.scalarKind();
  bool f64 = k == ir::ScalarKind::F64;
  if (!f64 && (std::string(name) == "exp" || std::string(name) == "exp2")) {
    llvm::Type *f32 = withScalar(v->getType(), b.getFloatTy());
    llvm::Value *x = v->getType() == f32 ? v : b.CreateFPExt(v, f32);
    llvm::Value *r = fastExp(x, std::string(name) == "exp2");
    return r->getType() == v->getType() ? r : b.CreateFPTrunc(r, v->getType());
  }
  // glibc's libmvec (2.35 on) has these; the rest (lgamma, tgamma) go lane
  // by lane through libm.
  static const char *const kVectorized[] = {"log",  "log2",  "sin",   "cos",   "erf",   "erfc",  "tanh", "sinh",
                                            "cosh", "tan",   "asin",  "acos",  "atan",  "asinh", "acosh", "atanh",
                                            "exp10", "expm1", "log10", "log1p", "cbrt"};
  bool vectorized = false;
  for (const char *n : kVectorized) vectorized |= std::string(name) == n;
  if (!vt || !vectorized) return libmUnary(name, v, t);
  unsigned n = vt->getNumElements();
  llvm::Type *et = f64 ? b.getDoubleTy() : b.getFloatTy();
  llvm::Value *x = vt->getElementType() == et ? v : b.CreateFPExt(v, llvm::FixedVectorType::get(et, n));
  unsigned bits = n * (f64 ? 64 : 32);
  char isa = bits == 512 && facts.vectorBits >= 512 ? 'e' : bits == 256 && facts.vectorBits >= 256 ? 'd' : bits == 128 ? 'b' : 0;
  llvm::Value *r;
  if (isa) {
    std::string fname = std::string("_ZGV") + isa + "N" + std::to_string(n) + "v_" + name + (f64 ? "" : "f");
    llvm::Type *xt = x->getType();
    r = b.CreateCall(m.getOrInsertFunction(fname, xt, xt), {x});
  } else if (n > 1 && bits > 128) {
    std::vector<int> lo, hi, all;
    for (unsigned j = 0; j < n / 2; ++j) lo.push_back(int(j)), hi.push_back(int(j + n / 2));
    for (unsigned j = 0; j < n; ++j) all.push_back(int(j));
    ir::Type wide = f64 ? ir::Type::scalar(ir::ScalarKind::F64) : ir::Type::f32();
    llvm::Value *a = vectorMath(name, b.CreateShuffleVector(x, lo), wide);
    llvm::Value *c = vectorMath(name, b.CreateShuffleVector(x, hi), wide);
    r = b.CreateShuffleVector(a, c, all);
  } else {
    r = libmUnary(name, x, f64 ? ir::Type::scalar(ir::ScalarKind::F64) : ir::Type::f32());
  }
  return r->getType() == v->getType() ? r : b.CreateFPTrunc(r, v->getType());
}

// pow, atan2, hypot through libmvec's two-argument versions (vv) at the
// host's widths, fmod and other widths lane by lane through libm.
// f32 -> bf16 to nearest even on the bits: x86's VCVTNEPS2BF16 (AVX512-BF16,
// AVX-NE-CONVERT), which LLVM picks for fptrunc where the host has it, reads
// subnormal inputs as zero; these integer ops keep them, and vectorize.
llvm::Value *Lowering::f32ToBf16(llvm::Value *v) {
  llvm::Type *i32 = withScalar(v->getType(), b.getInt32Ty());
  llvm::Type *i16 = withScalar(v->getType(), b.getInt16Ty());
  auto c = [&](uint32_t x) { return llvm::ConstantInt::get(i32, x); };
  llvm::Value *bits = b.CreateBitCast(v, i32);
  llvm::Value *lsb = b.CreateAnd(b.CreateLShr(bits, c(16)), c(1));
  llvm::Value *rounded = b.CreateLShr(b.CreateAdd(bits, b.CreateAdd(c(0x7FFF), lsb)), c(16));
  llvm::Value *quietNan = b.CreateOr(b.CreateLShr(bits, c(16)), c(0x40));
  llvm::Value *out = b.CreateSelect(b.CreateFCmpUNO(v, v), quietNan, rounded);
  return b.CreateBitCast(b.CreateTrunc(out, i16), withScalar(v->getType(), b.getBFloatTy()));
}

llvm::Value *Lowering::mathCall2(const char *name, llvm::Value *x, llvm::Value *y, ir::Type t) {
  bool f64 = t.scalarKind() == ScalarKind::F64;
  if (x->getType()->isIntOrIntVectorTy()) return besselN(name, x, y, f64);
  llvm::Type *et = f64 ? b.getDoubleTy() : b.getFloatTy();
  auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(x->getType());
  unsigned n = vt ? vt->getNumElements() : 1;
  llvm::Type *wt = vt ? static_cast<llvm::Type *>(llvm::FixedVectorType::get(et, n)) : et;
  auto wide = [&](llvm::Value *v) { return v->getType() == wt ? v : b.CreateFPExt(v, wt); };
  llvm::Value *xa = wide(x), *ya = wide(y), *r = nullptr;
  unsigned bits = n * (f64 ? 64 : 32);
  char isa = bits == 512 && facts.vectorBits >= 512 ? 'e' : bits == 256 && facts.vectorBits >= 256 ? 'd' : bits == 128 ? 'b' : 0;
  std::string fn = name;
  if (vt && isa && (fn == "pow" || fn == "atan2" || fn == "hypot")) {
    std::string vname = std::string("_ZGV") + isa + "N" + std::to_string(n) + "vv_" + fn + (f64 ? "" : "f");
    r = b.CreateCall(m.getOrInsertFunction(vname, wt, wt, wt), {xa, ya});
  } else {
    llvm::FunctionCallee callee = m.getOrInsertFunction(f64 ? fn : fn + "f", et, et, et);
    if (!vt) {
      r = b.CreateCall(callee, {xa, ya});
    } else {
      r = llvm::PoisonValue::get(wt);
      for (unsigned i = 0; i < n; ++i)
        r = b.CreateInsertElement(
            r, b.CreateCall(callee, {b.CreateExtractElement(xa, uint64_t(i)), b.CreateExtractElement(ya, uint64_t(i))}),
            uint64_t(i));
    }
  }
  return r->getType() == x->getType() ? r : b.CreateFPTrunc(r, x->getType());
}

// jn / yn (glibc's jnf, jn...): an i32 order, lane by lane.
llvm::Value *Lowering::besselN(const char *name, llvm::Value *order, llvm::Value *x, bool f64) {
  llvm::Type *et = f64 ? b.getDoubleTy() : b.getFloatTy();
  llvm::FunctionCallee callee =
      m.getOrInsertFunction(f64 ? std::string(name) : std::string(name) + "f", et, b.getInt32Ty(), et);
  auto one = [&](llvm::Value *n, llvm::Value *v) {
    llvm::Value *r = b.CreateCall(callee, {n, v->getType() == et ? v : b.CreateFPExt(v, et)});
    return v->getType() == et ? r : b.CreateFPTrunc(r, v->getType());
  };
  auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(x->getType());
  if (!vt) return one(order, x);
  llvm::Value *out = llvm::PoisonValue::get(vt);
  for (unsigned i = 0; i < vt->getNumElements(); ++i)
    out = b.CreateInsertElement(
        out, one(b.CreateExtractElement(order, uint64_t(i)), b.CreateExtractElement(x, uint64_t(i))), uint64_t(i));
  return out;
}

llvm::Value *Lowering::libmUnary(const char *name, llvm::Value *v, ir::Type t) {
  bool f64 = t.scalarKind() == ScalarKind::F64;
  llvm::Type *ft = f64 ? b.getDoubleTy() : b.getFloatTy();
  llvm::FunctionCallee callee = m.getOrInsertFunction(f64 ? std::string(name) : std::string(name) + "f", ft, ft);
  auto one = [&](llvm::Value *x) {
    llvm::Value *wide = x->getType() == ft ? x : b.CreateFPExt(x, ft);
    llvm::Value *r = b.CreateCall(callee, {wide});
    return x->getType() == ft ? r : b.CreateFPTrunc(r, x->getType());
  };
  auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(v->getType());
  if (!vt) return one(v);
  llvm::Value *out = llvm::PoisonValue::get(vt);
  for (unsigned i = 0; i < vt->getNumElements(); ++i)
    out = b.CreateInsertElement(out, one(b.CreateExtractElement(v, uint64_t(i))), uint64_t(i));
  return out;
}

} // namespace tessera::targets::cpu
