// Casts, fp8 conversions and libm calls; all lane-wise, so the same code
// serves scalars and vectors.
#include "targets/cpu/Lowering.h"

#include "llvm/IR/Intrinsics.h"

namespace tessera::targets::cpu {

using ir::ScalarKind;

namespace {

bool isF8(ir::Type t) {
  return t.isScalar() && (t.scalarKind() == ScalarKind::F8E4M3 || t.scalarKind() == ScalarKind::F8E5M2);
}

llvm::Type *withScalar(llvm::Type *like, llvm::Type *scalar) {
  if (auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(like)) return llvm::FixedVectorType::get(scalar, vt->getNumElements());
  return scalar;
}

} // namespace

// fp8 -> f32, exactly. e5m2 is the top byte of an f16; e4m3 (bias 7, no
// infinities, S.1111.111 is NaN) is rebuilt from its fields.
llvm::Value *Lowering::f8ToF32(llvm::Value *bits, ScalarKind kind) {
  llvm::Type *i32 = withScalar(bits->getType(), b.getInt32Ty());
  llvm::Type *f32 = withScalar(bits->getType(), b.getFloatTy());
  auto c = [&](uint32_t v) { return llvm::ConstantInt::get(i32, v); };
  llvm::Value *x = b.CreateZExt(bits, i32);
  if (kind == ScalarKind::F8E5M2) {
    llvm::Type *i16 = withScalar(bits->getType(), b.getInt16Ty());
    llvm::Value *h = b.CreateBitCast(b.CreateShl(b.CreateZExt(bits, i16), llvm::ConstantInt::get(i16, 8)),
                                     withScalar(bits->getType(), b.getHalfTy()));
    return b.CreateFPExt(h, f32);
  }
  llvm::Value *sign = b.CreateShl(b.CreateAnd(x, c(0x80)), c(24));
  llvm::Value *e = b.CreateAnd(b.CreateLShr(x, c(3)), c(0xF));
  llvm::Value *m = b.CreateAnd(x, c(7));
  llvm::Value *normal = b.CreateOr(b.CreateShl(b.CreateAdd(e, c(120)), c(23)), b.CreateShl(m, c(20)));
  llvm::Value *sub = b.CreateBitCast(b.CreateFMul(b.CreateUIToFP(m, f32), llvm::ConstantFP::get(f32, 1.0 / 512)), i32);
  llvm::Value *mag = b.CreateSelect(b.CreateICmpEQ(e, c(0)), sub, normal);
  llvm::Value *isNan = b.CreateICmpEQ(b.CreateAnd(x, c(0x7F)), c(0x7F));
  mag = b.CreateSelect(isNan, c(0x7FC00000), mag);
  return b.CreateBitCast(b.CreateOr(sign, mag), f32);
}

// Narrows a float rounding to odd: truncate, then set the last bit if
// anything was lost. Rounding that once more to nearest even, into a type at
// least two bits narrower, equals rounding the original once, so f64 -> bf16
// and -> fp8 (through f32) and f32 -> e5m2 (through f16) avoid the double
// rounding of two round-to-nearest steps.
llvm::Value *Lowering::truncToOdd(llvm::Value *f, llvm::Type *narrow) {
  llvm::Type *ty = withScalar(f->getType(), narrow);
  llvm::Type *bitsTy = withScalar(f->getType(), b.getIntNTy(narrow->getPrimitiveSizeInBits()));
  llvm::Value *t = b.CreateFPTrunc(f, ty);
  llvm::Value *back = b.CreateFPExt(t, f->getType());
  llvm::Value *inexact = b.CreateFCmpONE(back, f);
  llvm::Value *away = b.CreateFCmpOGT(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, back),
                                      b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, f));
  llvm::Value *bits = b.CreateBitCast(t, bitsTy);
  llvm::Value *one = llvm::ConstantInt::get(bitsTy, 1);
  bits = b.CreateSelect(b.CreateAnd(inexact, away), b.CreateSub(bits, one), bits);  // one ulp toward zero
  bits = b.CreateSelect(inexact, b.CreateOr(bits, one), bits);
  return b.CreateBitCast(bits, ty);
}

// f32 -> fp8, rounding to nearest even. e4m3 saturates to +-448 (NaN stays
// NaN); e5m2 rounds through f16 and keeps infinities.
llvm::Value *Lowering::f32ToF8(llvm::Value *f, ScalarKind kind) {
  llvm::Type *i8 = withScalar(f->getType(), b.getInt8Ty());
  if (kind == ScalarKind::F8E5M2) {
    llvm::Type *i16 = withScalar(f->getType(), b.getInt16Ty());
    auto c = [&](uint32_t v) { return llvm::ConstantInt::get(i16, v); };
    llvm::Value *h = b.CreateBitCast(truncToOdd(f, b.getHalfTy()), i16);
    llvm::Value *rounded = b.CreateLShr(b.CreateAdd(h, b.CreateAdd(c(0x7F), b.CreateAnd(b.CreateLShr(h, c(8)), c(1)))), c(8));
    llvm::Value *isNan = b.CreateICmpUGT(b.CreateAnd(h, c(0x7FFF)), c(0x7C00));
    rounded = b.CreateSelect(isNan, b.CreateOr(b.CreateLShr(h, c(8)), c(0x02)), rounded);
    return b.CreateTrunc(rounded, i8);
  }
  llvm::Type *i32 = withScalar(f->getType(), b.getInt32Ty());
  auto c = [&](uint32_t v) { return llvm::ConstantInt::get(i32, v); };
  llvm::Value *bits = b.CreateBitCast(f, i32);
  llvm::Value *sign = b.CreateTrunc(b.CreateLShr(bits, c(24)), i8);
  sign = b.CreateAnd(sign, llvm::ConstantInt::get(i8, 0x80));
  llvm::Value *absBits = b.CreateAnd(bits, c(0x7FFFFFFF));
  llvm::Value *absF = b.CreateBitCast(absBits, f->getType());
  // Normal range: round the f32 mantissa to 3 bits (the carry may bump the exponent).
  llvm::Value *r = b.CreateAdd(absBits, b.CreateAdd(c(0x7FFFF), b.CreateAnd(b.CreateLShr(absBits, c(20)), c(1))));
  llvm::Value *e = b.CreateSub(b.CreateLShr(r, c(23)), c(120));
  llvm::Value *m = b.CreateAnd(b.CreateLShr(r, c(20)), c(7));
  llvm::Value *normal = b.CreateOr(b.CreateShl(e, c(3)), m);
  // Subnormal range (< 2^-6): multiples of 2^-9; 8 * 2^-9 is the smallest normal.
  llvm::Value *scaled = b.CreateFMul(absF, llvm::ConstantFP::get(f->getType(), 512.0));
  llvm::Value *sub = b.CreateFPToUI(b.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, scaled), i32);
  llvm::Value *isSub = b.CreateFCmpOLT(absF, llvm::ConstantFP::get(f->getType(), 1.0 / 64));
  llvm::Value *mag = b.CreateSelect(isSub, sub, normal);
  llvm::Value *tooBig = b.CreateFCmpOGT(absF, llvm::ConstantFP::get(f->getType(), 448.0));
  mag = b.CreateSelect(tooBig, c(0x7E), mag);
  mag = b.CreateSelect(b.CreateFCmpUNO(f, f), c(0x7F), mag);
  return b.CreateOr(sign, b.CreateTrunc(mag, i8));
}

llvm::Value *Lowering::castValue(llvm::Value *v, ir::Type from, ir::Type to, const std::string &rounding,
                                 const ir::Operation *where) {
  if (from == to) return v;
  llvm::Type *toTy = withScalar(v->getType(), computeType(to));
  if (to.isBool()) {
    if (from.isFloat()) {
      llvm::Value *f = isF8(from) ? f8ToF32(v, from.scalarKind()) : v;
      return b.CreateFCmpUNE(f, llvm::Constant::getNullValue(f->getType()));
    }
    if (from.isPointer()) v = b.CreatePtrToInt(v, withScalar(v->getType(), b.getInt64Ty()));
    return b.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
  }
  if (from.isPointer() || to.isPointer()) {
    if (from.isPointer() && to.isPointer()) return v;
    return from.isPointer() ? b.CreatePtrToInt(v, toTy) : b.CreateIntToPtr(v, toTy);
  }
  if (isF8(from)) return castValue(f8ToF32(v, from.scalarKind()), ir::Type::f32(), to, rounding, where);
  if (isF8(to)) {
    llvm::Value *f = from.scalarKind() == ScalarKind::F64 ? truncToOdd(v, b.getFloatTy())
                                                          : castValue(v, from, ir::Type::f32(), "rtne", where);
    return f32ToF8(f, to.scalarKind());
  }
  if (from.isInteger() && to.isInteger()) {
    unsigned fw = unsigned(from.bitWidth()), tw = unsigned(to.bitWidth());
    if (tw < fw) return b.CreateTrunc(v, toTy);
    if (tw == fw) return v;
    return from.isSigned() ? b.CreateSExt(v, toTy) : b.CreateZExt(v, toTy);
  }
  if (from.isInteger()) return from.isSigned() ? b.CreateSIToFP(v, toTy) : b.CreateUIToFP(v, toTy);
  if (to.isInteger()) {
    // Saturating, NaN -> 0 (IR.h) is exactly LLVM's fptosi.sat/fptoui.sat.
    // From half types, widen first: with AVX512-FP16 (Intel), LLVM 19's
    // direct half conversion returned 0x8000 for some inputs that must give 0.
    if (from.bitWidth() < 32) {
      v = b.CreateFPExt(v, withScalar(v->getType(), b.getFloatTy()));
    }
    auto id = to.isSigned() ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
    return b.CreateIntrinsic(id, {toTy, v->getType()}, {v});
  }
  llvm::Type *f32 = withScalar(v->getType(), b.getFloatTy());
  if (to.bitWidth() > from.bitWidth()) return b.CreateFPExt(v, toTy);
  if (to.bitWidth() == from.bitWidth()) return b.CreateFPTrunc(b.CreateFPExt(v, f32), toTy);  // f16 <-> bf16
  if (rounding == "rtz") {
    if (to.scalarKind() == ScalarKind::BF16 && from.scalarKind() == ScalarKind::F32) {
      // Truncating the low 16 bits rounds toward zero; NaNs stay NaN.
      llvm::Type *i32 = withScalar(v->getType(), b.getInt32Ty());
      llvm::Type *i16 = withScalar(v->getType(), b.getInt16Ty());
      llvm::Value *hi = b.CreateTrunc(b.CreateLShr(b.CreateBitCast(v, i32), llvm::ConstantInt::get(i32, 16)), i16);
      llvm::Value *nan = b.CreateFCmpUNO(v, v);
      hi = b.CreateSelect(nan, b.CreateOr(hi, llvm::ConstantInt::get(i16, 0x40)), hi);
      return b.CreateBitCast(hi, toTy);
    }
    throw LoweringError{(where ? where->loc().str() + ": " : std::string()) +
                        "error: cpu target: rounding toward zero is supported only for f32 to bf16"};
  }
  // LLVM lowers f64 -> bf16 to __truncdfbf2, which nothing links here.
  if (to.scalarKind() == ScalarKind::BF16 && from.scalarKind() == ScalarKind::F64)
    return b.CreateFPTrunc(truncToOdd(v, b.getFloatTy()), toTy);
  return b.CreateFPTrunc(v, toTy);
}

// exp and exp2 in f32, inline: n = round(x log2 e), r = x - n ln 2 (in two
// parts), e^r by its degree-6 Taylor polynomial (|r| <= ln2/2: under 2 ulp),
// times 2^n built in the exponent bits (in two steps, so that subnormal
// results and the overflow to inf come out right). No call, so it fuses into
// the surrounding loop; ~15 instructions per vector.
llvm::Value *Lowering::fastExp(llvm::Value *x, bool base2) {
  llvm::Type *ft = x->getType();
  llvm::Type *it = withScalar(ft, b.getInt32Ty());
  auto f = [&](double v) { return llvm::ConstantFP::get(ft, v); };
  auto i = [&](int32_t v) { return llvm::ConstantInt::get(it, uint64_t(uint32_t(v))); };
  auto fma = [&](llvm::Value *a, llvm::Value *bb, llvm::Value *c) {
    return b.CreateIntrinsic(llvm::Intrinsic::fma, {ft}, {a, bb, c});
  };
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
  llvm::Value *p = f(1.0 / 720);
  for (double c : {1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5, 1.0, 1.0}) p = fma(p, r, f(c));
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
  if (!vt) return libmUnary(name, v, t);
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
