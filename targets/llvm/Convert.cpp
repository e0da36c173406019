// Casts and fp8 conversions; all lane-wise, so the same code serves scalars
// and vectors.
#include "targets/llvm/Elementwise.h"

#include "llvm/IR/Intrinsics.h"

namespace tessera::targets::llvmgen {

using ir::ScalarKind;

// fp8 -> f32, exactly. e5m2 is the top byte of an f16; e4m3 (bias 7, no
// infinities, S.1111.111 is NaN) is rebuilt from its fields.
llvm::Value *ElementwiseEmitter::f8ToF32(llvm::Value *bits, ScalarKind kind) {
  llvm::Type *i32 = withScalar(bits->getType(), b.getInt32Ty());
  llvm::Type *f32 = withScalar(bits->getType(), b.getFloatTy());
  auto c = [&](uint32_t v) { return llvm::ConstantInt::get(i32, v); };
  llvm::Value *x = b.CreateZExt(bits, i32);
  if (kind == ScalarKind::F8E4B15) {  // S.eeee.mmm -> the f16 S.0eeee.mmm0000000 (the same bias)
    llvm::Type *i16 = withScalar(bits->getType(), b.getInt16Ty());
    auto c16 = [&](uint32_t v) { return llvm::ConstantInt::get(i16, v); };
    llvm::Value *w = b.CreateZExt(bits, i16);
    llvm::Value *h = b.CreateOr(b.CreateShl(b.CreateAnd(w, c16(0x80)), c16(8)), b.CreateShl(b.CreateAnd(w, c16(0x7F)), c16(7)));
    return b.CreateFPExt(b.CreateBitCast(h, withScalar(bits->getType(), b.getHalfTy())), f32);
  }
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
llvm::Value *ElementwiseEmitter::truncToOdd(llvm::Value *f, llvm::Type *narrow) {
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

llvm::Value *ElementwiseEmitter::f32ToBf16(llvm::Value *v) {
  return b.CreateFPTrunc(v, withScalar(v->getType(), b.getBFloatTy()));
}

// f32 -> fp8, rounding to nearest even. e4m3 saturates to +-448 (NaN stays
// NaN); e5m2 rounds through f16 and keeps infinities.
llvm::Value *ElementwiseEmitter::f32ToF8(llvm::Value *f, ScalarKind kind) {
  if (kind == ScalarKind::F8E4B15)
    return f16ToF8E4B15(castValue(f, ir::Type::f32(), ir::Type::scalar(ScalarKind::F16), "rtz", nullptr));
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

// f16 -> f8e4b15 as Triton's convert_float16_to_fp8e4b15: the magnitude
// clamped to 1.75 (0x3F00; NaN and infinities too), then its top bits
// rounded half away from zero.
llvm::Value *ElementwiseEmitter::f16ToF8E4B15(llvm::Value *h) {
  llvm::Type *i16 = withScalar(h->getType(), b.getInt16Ty());
  auto c = [&](uint32_t v) { return llvm::ConstantInt::get(i16, v); };
  llvm::Value *bits = b.CreateBitCast(h, i16);
  llvm::Value *mag = b.CreateAnd(bits, c(0x7FFF));
  mag = b.CreateSelect(b.CreateICmpUGT(mag, c(0x3F00)), c(0x3F00), mag);
  llvm::Value *rounded = b.CreateLShr(b.CreateAdd(mag, c(0x40)), c(7));
  llvm::Value *sign = b.CreateAnd(b.CreateLShr(bits, c(8)), c(0x80));
  return b.CreateTrunc(b.CreateOr(sign, rounded), withScalar(h->getType(), b.getInt8Ty()));
}

llvm::Value *ElementwiseEmitter::castValue(llvm::Value *v, ir::Type from, ir::Type to, const std::string &rounding,
                                 const ir::Operation *where) {
  if (from == to) return v;
  if (to.isScalar() && to.scalarKind() == ScalarKind::F8E4B15 && !from.isBool() && !from.isPointer()) {
    // Through f16 (toward zero from wider floats), whatever `rounding` says (ir/IR.h).
    ir::Type f16 = ir::Type::scalar(ScalarKind::F16);
    if (from != f16) {  // f64 rounds to odd first: toward zero twice is then once
      llvm::Value *f = from.scalarKind() == ScalarKind::F64 ? truncToOdd(v, b.getFloatTy())
                                                            : castValue(v, from, ir::Type::f32(), "rtne", where);
      v = castValue(f, ir::Type::f32(), f16, "rtz", where);
    }
    return f16ToF8E4B15(v);
  }
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
  if (rounding == "rtz" && from.isFloat() && to.isFloat() && to.bitWidth() < from.bitWidth() &&
      !(to.scalarKind() == ScalarKind::BF16 && from.scalarKind() == ScalarKind::F32)) {
    // Toward zero (f32 -> bf16 truncates its bits below): to nearest, then
    // one ulp back toward zero where that grew the magnitude, comparing in
    // a type that holds both exactly. An overflow to inf becomes the largest
    // finite value; NaN compares false and stays NaN. f64 -> bf16 truncates
    // to f32 first (toward zero twice is once: f32 holds every bf16), as
    // LLVM's f32 -> bf16 may flush subnormals (x86's vcvtneps2bf16).
    if (to.scalarKind() == ScalarKind::BF16)
      return castValue(castValue(v, from, ir::Type::f32(), "rtz", where), ir::Type::f32(), to, "rtz", where);
    llvm::Value *r = castValue(v, from, to, "rtne", where);
    ir::Type wide = from.bitWidth() >= 32 ? from : ir::Type::f32();
    auto abs = [&](llvm::Value *x) { return b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x); };
    llvm::Value *grew = b.CreateFCmpOGT(abs(castValue(r, to, wide, "rtne", where)), abs(castValue(v, from, wide, "rtne", where)));
    llvm::Type *bitsTy = withScalar(r->getType(), b.getIntNTy(unsigned(to.bitWidth())));
    llvm::Value *bits = b.CreateBitCast(r, bitsTy);
    llvm::Value *back = b.CreateBitCast(b.CreateSub(bits, llvm::ConstantInt::get(bitsTy, 1)), r->getType());
    return b.CreateSelect(grew, back, r);
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
  if (to.bitWidth() == from.bitWidth()) {  // f16 <-> bf16, through f32
    llvm::Value *wide = b.CreateFPExt(v, f32);
    return to.scalarKind() == ScalarKind::BF16 ? f32ToBf16(wide) : b.CreateFPTrunc(wide, toTy);
  }
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
  }
  // LLVM lowers f64 -> bf16 to __truncdfbf2, which nothing links here.
  if (to.scalarKind() == ScalarKind::BF16 && from.scalarKind() == ScalarKind::F64) return f32ToBf16(truncToOdd(v, b.getFloatTy()));
  if (to.scalarKind() == ScalarKind::BF16) return f32ToBf16(v);
  return b.CreateFPTrunc(v, toTy);
}

} // namespace tessera::targets::llvmgen
