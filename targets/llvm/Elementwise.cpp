// Types and elementwise semantics (see ir/IR.h).
#include "targets/llvm/Elementwise.h"

#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <unordered_map>

namespace tessera::targets::llvmgen {

using ir::OpCode;
using ir::ScalarKind;

void ElementwiseEmitter::fail(const ir::Operation &op, const std::string &msg) const {
  throw LoweringError{op.loc().str() + ": error: " + targetName_ + " target: '" + op.name() + "' " + msg};
}

bool isF8(ir::Type t) {
  return t.isScalar() && (t.scalarKind() == ScalarKind::F8E4M3 || t.scalarKind() == ScalarKind::F8E5M2 ||
                          t.scalarKind() == ScalarKind::F8E4B15);
}

void annotateLoop(llvm::Instruction *backEdge, const ir::Operation &loop) {
  if (!loop.attrs().getBool("disable_licm", false)) return;
  llvm::LLVMContext &ctx = backEdge->getContext();
  // A loop id is a distinct node whose first operand is itself.
  llvm::MDNode *licm = llvm::MDNode::get(ctx, {llvm::MDString::get(ctx, "llvm.licm.disable")});
  llvm::MDNode *id = llvm::MDNode::getDistinct(ctx, {nullptr, licm});
  id->replaceOperandWith(0, id);
  backEdge->setMetadata(llvm::LLVMContext::MD_loop, id);
}

llvm::AtomicRMWInst::BinOp atomicRmwOp(const std::string &kind, ir::Type elem) {
  bool f = elem.isFloat(), s = elem.isSigned();
  if (kind == "add") return f ? llvm::AtomicRMWInst::FAdd : llvm::AtomicRMWInst::Add;
  if (kind == "max") return f ? llvm::AtomicRMWInst::FMax : s ? llvm::AtomicRMWInst::Max : llvm::AtomicRMWInst::UMax;
  if (kind == "min") return f ? llvm::AtomicRMWInst::FMin : s ? llvm::AtomicRMWInst::Min : llvm::AtomicRMWInst::UMin;
  if (kind == "and") return llvm::AtomicRMWInst::And;
  if (kind == "or") return llvm::AtomicRMWInst::Or;
  if (kind == "xor") return llvm::AtomicRMWInst::Xor;
  return llvm::AtomicRMWInst::Xchg;
}

llvm::Type *withScalar(llvm::Type *like, llvm::Type *scalar) {
  if (auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(like)) return llvm::FixedVectorType::get(scalar, vt->getNumElements());
  return scalar;
}

// ---- types

llvm::Type *ElementwiseEmitter::computeType(ir::Type e) {
  e = e.element();
  if (e.isPointer()) return b.getPtrTy(e.addressSpace() == ir::AddressSpace::Shared ? sharedAS_ : globalAS_);
  switch (e.scalarKind()) {
  case ScalarKind::I1: return b.getInt1Ty();
  case ScalarKind::I8: case ScalarKind::U8: case ScalarKind::F8E4M3: case ScalarKind::F8E5M2:
  case ScalarKind::F8E4B15: return b.getInt8Ty();
  case ScalarKind::I16: case ScalarKind::U16: return b.getInt16Ty();
  case ScalarKind::I32: case ScalarKind::U32: return b.getInt32Ty();
  case ScalarKind::I64: case ScalarKind::U64: return b.getInt64Ty();
  case ScalarKind::F16: return b.getHalfTy();
  case ScalarKind::BF16: return b.getBFloatTy();
  case ScalarKind::F32: return b.getFloatTy();
  case ScalarKind::F64: return b.getDoubleTy();
  }
  return b.getInt8Ty();
}

// In memory a bool is a byte (as torch.bool and numpy's bool_ are).
llvm::Type *ElementwiseEmitter::storageType(ir::Type e) {
  e = e.element();
  return e.isBool() ? b.getInt8Ty() : computeType(e);
}

llvm::Value *ElementwiseEmitter::toStorage(llvm::Value *v, ir::Type elem) {
  return elem.element().isBool() ? b.CreateZExt(v, v->getType()->getWithNewBitWidth(8)) : v;
}

llvm::Value *ElementwiseEmitter::fromStorage(llvm::Value *v, ir::Type elem) {
  return elem.element().isBool() ? b.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType())) : v;
}

llvm::Value *ElementwiseEmitter::splatIfNeeded(llvm::Value *v, unsigned width) {
  if (width == 1 || v->getType()->isVectorTy()) return v;
  return b.CreateVectorSplat(width, v);
}

// ---- elementwise semantics (see ir/IR.h)

namespace {

bool isSigned(ir::Type t) { return t.isSigned(); }


} // namespace

// fp8 has no arithmetic of its own: compute in f32 and round back.
llvm::Value *ElementwiseEmitter::elementwise(const ir::Operation &op, std::vector<llvm::Value *> in) {
  unsigned width = 1;
  for (llvm::Value *v : in)
    if (auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(v->getType())) width = vt->getNumElements();
  for (llvm::Value *&v : in) v = splatIfNeeded(v, width);
  ir::Type t = op.numOperands() ? op.operand(0)->type().element() : op.result()->type().element();
  ir::Type rt = op.numResults() ? op.result()->type().element() : t;
  // (A device-library function takes fp8 as the bits its declaration says.)
  bool promote = isF8(t) && !op.is(OpCode::Cast) && !op.is(OpCode::Bitcast) && !op.is(OpCode::Select) &&
                 !op.is(OpCode::Constant) && !op.is(OpCode::ExternElementwise);
  if (!promote) return elementwiseIn(op, in, t, rt, width);
  // |x| clears the sign bit: exact in every fp8 format (fp8e4b15's 1.875 would not survive the round trip).
  if (op.is(OpCode::Abs)) return b.CreateAnd(in[0], llvm::ConstantInt::get(in[0]->getType(), 0x7F));
  for (llvm::Value *&v : in) v = f8ToF32(v, t.scalarKind());
  llvm::Value *r = elementwiseIn(op, in, ir::Type::f32(), isF8(rt) ? ir::Type::f32() : rt, width);
  return isF8(rt) ? f32ToF8(r, rt.scalarKind()) : r;
}

llvm::Value *ElementwiseEmitter::elementwiseIn(const ir::Operation &op, std::vector<llvm::Value *> in, ir::Type t, ir::Type rt,
                                     unsigned width) {
  bool fp = t.isFloat();
  auto intr = [&](llvm::Intrinsic::ID id) { return b.CreateIntrinsic(id, {in[0]->getType()}, in); };
  switch (op.code()) {
  case OpCode::Constant: {
    const ir::Attribute &a = *op.attr("value");
    if (isF8(rt)) return f32ToF8(llvm::ConstantFP::get(b.getFloatTy(), a.getFloat()), rt.scalarKind());
    llvm::Type *ct = computeType(rt);
    llvm::Value *c = rt.isFloat() ? llvm::ConstantFP::get(ct, a.getFloat())
                                  : llvm::ConstantInt::get(ct, uint64_t(a.getInt()), isSigned(rt));
    return c;
  }
  case OpCode::Add: return fp ? b.CreateFAdd(in[0], in[1]) : b.CreateAdd(in[0], in[1]);
  case OpCode::Sub: return fp ? b.CreateFSub(in[0], in[1]) : b.CreateSub(in[0], in[1]);
  case OpCode::Mul: return fp ? b.CreateFMul(in[0], in[1]) : b.CreateMul(in[0], in[1]);
  case OpCode::Neg: return fp ? b.CreateFNeg(in[0]) : b.CreateNeg(in[0]);
  case OpCode::Div:
  case OpCode::Rem: {
    bool div = op.is(OpCode::Div);
    if (fp && div && op.attrs().getBool("approx", false)) {
      if (llvm::Value *q = approxDivide(in[0], in[1])) return q;
      // Approximate division may multiply by the reciprocal (hoisted out of
      // loops for a uniform divisor).
      llvm::Value *q = b.CreateFDiv(in[0], in[1]);
      llvm::FastMathFlags fmf;
      fmf.setAllowReciprocal();
      llvm::cast<llvm::Instruction>(q)->setFastMathFlags(fmf);
      return q;
    }
    if (fp) return div ? b.CreateFDiv(in[0], in[1]) : b.CreateFRem(in[0], in[1]);
    // No traps: x / 0 and INT_MIN / -1 give an unspecified value (IR.h).
    llvm::Type *ty = in[0]->getType();
    llvm::Value *zero = llvm::Constant::getNullValue(ty), *one = llvm::ConstantInt::get(ty, 1);
    llvm::Value *d = b.CreateSelect(b.CreateICmpEQ(in[1], zero), one, in[1]);
    if (!isSigned(t)) return div ? b.CreateUDiv(in[0], d) : b.CreateURem(in[0], d);
    llvm::Value *minusOne = b.CreateICmpEQ(d, llvm::Constant::getAllOnesValue(ty));
    d = b.CreateSelect(minusOne, one, d);
    llvm::Value *q = div ? b.CreateSDiv(in[0], d) : b.CreateSRem(in[0], d);
    return b.CreateSelect(minusOne, div ? b.CreateNeg(in[0]) : zero, q);
  }
  case OpCode::Min:
  case OpCode::Max: {
    bool isMin = op.is(OpCode::Min);
    if (fp) {
      bool nan = op.attrs().getBool("propagate_nan", false);
      return intr(isMin ? (nan ? llvm::Intrinsic::minimum : llvm::Intrinsic::minnum)
                        : (nan ? llvm::Intrinsic::maximum : llvm::Intrinsic::maxnum));
    }
    llvm::Value *lt = isSigned(t) ? b.CreateICmpSLT(in[0], in[1]) : b.CreateICmpULT(in[0], in[1]);
    return isMin ? b.CreateSelect(lt, in[0], in[1]) : b.CreateSelect(lt, in[1], in[0]);
  }
  case OpCode::And: return b.CreateAnd(in[0], in[1]);
  case OpCode::Or: return b.CreateOr(in[0], in[1]);
  case OpCode::Xor: return b.CreateXor(in[0], in[1]);
  case OpCode::Not: return b.CreateNot(in[0]);
  case OpCode::Shl:
  case OpCode::Shr: {
    // Shifts by the width or more are unspecified (IR.h): mask the amount.
    llvm::Value *amt = b.CreateAnd(in[1], llvm::ConstantInt::get(in[1]->getType(), t.bitWidth() - 1));
    if (op.is(OpCode::Shl)) return b.CreateShl(in[0], amt);
    return isSigned(t) ? b.CreateAShr(in[0], amt) : b.CreateLShr(in[0], amt);
  }
  case OpCode::MulHi: {
    unsigned w = unsigned(t.bitWidth());
    llvm::Type *wide = in[0]->getType()->getWithNewBitWidth(2 * w);
    auto ext = [&](llvm::Value *x) { return isSigned(t) ? b.CreateSExt(x, wide) : b.CreateZExt(x, wide); };
    llvm::Value *p = b.CreateMul(ext(in[0]), ext(in[1]));
    return b.CreateTrunc(b.CreateLShr(p, llvm::ConstantInt::get(wide, w)), in[0]->getType());
  }
  case OpCode::Fma: return b.CreateIntrinsic(llvm::Intrinsic::fma, {in[0]->getType()}, in);
  case OpCode::Cmp: {
    const std::string &p = op.attr("pred")->getString();
    if (fp) {
      auto pred = p == "eq" ? llvm::CmpInst::FCMP_OEQ : p == "ne" ? llvm::CmpInst::FCMP_UNE
                : p == "lt" ? llvm::CmpInst::FCMP_OLT : p == "le" ? llvm::CmpInst::FCMP_OLE
                : p == "gt" ? llvm::CmpInst::FCMP_OGT : llvm::CmpInst::FCMP_OGE;
      return b.CreateFCmp(pred, in[0], in[1]);
    }
    bool s = isSigned(t);
    auto pred = p == "eq" ? llvm::CmpInst::ICMP_EQ : p == "ne" ? llvm::CmpInst::ICMP_NE
              : p == "lt" ? (s ? llvm::CmpInst::ICMP_SLT : llvm::CmpInst::ICMP_ULT)
              : p == "le" ? (s ? llvm::CmpInst::ICMP_SLE : llvm::CmpInst::ICMP_ULE)
              : p == "gt" ? (s ? llvm::CmpInst::ICMP_SGT : llvm::CmpInst::ICMP_UGT)
                          : (s ? llvm::CmpInst::ICMP_SGE : llvm::CmpInst::ICMP_UGE);
    return b.CreateICmp(pred, in[0], in[1]);
  }
  case OpCode::Select: return b.CreateSelect(in[0], in[1], in[2]);
  case OpCode::Cast: return castValue(in[0], t, rt, op.attrs().getString("rounding", "rtne"), &op);
  case OpCode::Bitcast: {
    llvm::Type *to = computeType(rt);
    if (width > 1) to = llvm::FixedVectorType::get(to, width);
    if (t.isPointer() || rt.isPointer()) return in[0];
    return b.CreateBitCast(in[0], to);
  }
  case OpCode::AddPtr: {
    ir::Type pointee = op.operand(0)->type().pointee();
    return b.CreateGEP(storageType(pointee), in[0], in[1]);
  }
  case OpCode::Exp: return mathCall("exp", in[0], t, op.attrs().getBool("approx", false));
  case OpCode::Exp2: return mathCall("exp2", in[0], t, op.attrs().getBool("approx", false));
  case OpCode::Log: return mathCall("log", in[0], t);
  case OpCode::Log2: return mathCall("log2", in[0], t);
  case OpCode::Sqrt: return intr(llvm::Intrinsic::sqrt);
  case OpCode::Rsqrt:
    if (op.attrs().getBool("approx", false))
      if (llvm::Value *r = approxRsqrt(in[0])) return r;
    return b.CreateFDiv(llvm::ConstantFP::get(in[0]->getType(), 1.0), intr(llvm::Intrinsic::sqrt));
  case OpCode::Sin: return mathCall("sin", in[0], t);
  case OpCode::Cos: return mathCall("cos", in[0], t);
  case OpCode::Floor: return intr(llvm::Intrinsic::floor);
  case OpCode::Ceil: return intr(llvm::Intrinsic::ceil);
  case OpCode::Abs:
    if (fp) return intr(llvm::Intrinsic::fabs);
    if (!isSigned(t)) return in[0];
    return b.CreateIntrinsic(llvm::Intrinsic::abs, {in[0]->getType()}, {in[0], b.getFalse()});
  case OpCode::Erf: return mathCall("erf", in[0], t);
  case OpCode::MathFn: {
    const std::string &fn = op.attr("fn")->getString();
    if (fn == "trunc") return intr(llvm::Intrinsic::trunc);
    if (fn == "round") return intr(llvm::Intrinsic::round);  // halfway cases away from zero, as C's round
    if (fn == "rint") return intr(llvm::Intrinsic::rint);
    return mathCall(fn.c_str(), in[0], t);
  }
  case OpCode::MathFn2: {
    const std::string &fn = op.attr("fn")->getString();
    if (fn == "copysign") return b.CreateIntrinsic(llvm::Intrinsic::copysign, {in[0]->getType()}, in);
    if (fn == "jn" || fn == "yn") {
      // The order travels as a float (Ops.def); the libraries take an int.
      llvm::Value *order = b.CreateFPToSI(in[0], withScalar(in[0]->getType(), b.getInt32Ty()));
      if (llvm::Value *r = mathCall2(fn.c_str(), order, in[1], t)) return r;
      fail(op, "function '" + fn + "' is not available on this target");
    }
    return mathCall2(fn.c_str(), in[0], in[1], t);
  }
  case OpCode::ExternElementwise: return externCall(op, in, width);
  default: fail(op, "is not an elementwise op");
  }
}

// Triton's extern_elementwise: the device library's function called on each
// element (the libraries have no vector forms), declared with the operands'
// and the result's types. Two calls of one function with different types are
// an error here; a library whose definition has other types is one after
// linking (ExternCalls.h).
llvm::Value *ElementwiseEmitter::externCall(const ir::Operation &op, const std::vector<llvm::Value *> &in,
                                            unsigned width) {
  const std::string &symbol = op.attr("symbol")->getString();
  std::vector<llvm::Type *> params;
  for (const ir::Value *v : op.operands()) params.push_back(computeType(v->type().element()));
  auto *type = llvm::FunctionType::get(computeType(op.result()->type().element()), params, false);
  llvm::Function *fn = m.getFunction(symbol);
  if (fn && fn->getFunctionType() != type)
    fail(op, "calls " + symbol + " as " + typeText(type) + ", but the kernel also calls it as " +
                 typeText(fn->getFunctionType()));
  if (!fn) fn = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, symbol, m);
  bool pure = op.attr("pure")->getBool();
  auto call = [&](const std::vector<llvm::Value *> &args) -> llvm::Value * {
    llvm::CallInst *c = b.CreateCall(fn, args);
    if (pure) {  // LLVM may then merge, hoist or drop it, as the IR's pure ops
      c->setDoesNotAccessMemory();
      c->setDoesNotThrow();
      c->addFnAttr(llvm::Attribute::WillReturn);
    }
    return c;
  };
  if (width == 1) return call(in);
  llvm::Value *out = llvm::PoisonValue::get(llvm::FixedVectorType::get(type->getReturnType(), width));
  for (unsigned lane = 0; lane < width; ++lane) {
    std::vector<llvm::Value *> args;
    for (llvm::Value *v : in) args.push_back(v->getType()->isVectorTy() ? b.CreateExtractElement(v, uint64_t(lane)) : v);
    out = b.CreateInsertElement(out, call(args), uint64_t(lane));
  }
  return out;
}

std::string typeText(const llvm::Type *type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type->print(os);
  return text;
}

std::vector<llvm::Value *> ElementwiseEmitter::combineRegion(
    const ir::Block &region, std::vector<llvm::Value *> args, const std::function<llvm::Value *(const ir::Value *)> &outside,
    const AssertHook &check) {
  std::unordered_map<const ir::Value *, llvm::Value *> local;
  for (unsigned i = 0; i < region.numArguments(); ++i) local[region.argument(i)] = args[i];
  auto lookup = [&](const ir::Value *v) -> llvm::Value * {
    auto it = local.find(v);
    if (it != local.end()) return it->second;
    if (v->type().isTile()) throw LoweringError{"combine regions may use only scalars from outside"};
    return outside(v);
  };
  for (auto &opPtr : region.ops()) {
    const ir::Operation &op = *opPtr;
    if (op.is(OpCode::Yield)) {
      std::vector<llvm::Value *> out;
      for (ir::Value *v : op.operands()) out.push_back(lookup(v));
      return out;
    }
    if (op.is(OpCode::Assert) && check) {  // a side effect Triton allows there (its sanitizers)
      llvm::Value *ok = lookup(op.operand(0));
      if (ok->getType()->isVectorTy()) ok = b.CreateAndReduce(ok);
      check(op, ok);
      continue;
    }
    if (op.numRegions() || op.numResults() != 1 || !op.hasTrait(ir::kPure) || op.is(OpCode::Load))
      fail(op, "is not supported inside a reduce or scan combine region");
    std::vector<llvm::Value *> in;
    for (ir::Value *v : op.operands()) in.push_back(lookup(v));
    local[op.result()] = elementwise(op, in);
  }
  throw LoweringError{"combine region without a yield"};
}

void recordCheckFailure(llvm::IRBuilder<> &b, const ir::Operation &op, llvm::Value *report, llvm::Value *failed,
                        llvm::Value *value, llvm::Value *const programIds[3]) {
  llvm::Function *fn = b.GetInsertBlock()->getParent();
  llvm::BasicBlock *failedBB = llvm::BasicBlock::Create(b.getContext(), "check.failed", fn);
  llvm::BasicBlock *firstBB = llvm::BasicBlock::Create(b.getContext(), "check.first", fn);
  llvm::BasicBlock *done = llvm::BasicBlock::Create(b.getContext(), "check.done", fn);
  b.CreateCondBr(failed, failedBB, done);
  b.SetInsertPoint(failedBB);
  llvm::Value *previous = b.CreateAtomicRMW(llvm::AtomicRMWInst::Add, report, b.getInt64(1), llvm::MaybeAlign(8),
                                            llvm::AtomicOrdering::Monotonic);
  b.CreateCondBr(b.CreateICmpEQ(previous, b.getInt64(0)), firstBB, done);
  b.SetInsertPoint(firstBB);
  std::vector<llvm::Value *> fields;
  for (const char *name : {"kind", "arg", "line", "col"}) fields.push_back(b.getInt64(uint64_t(op.attr(name)->getInt())));
  fields.push_back(value);
  for (int axis = 0; axis < 3; ++axis) fields.push_back(b.CreateZExt(programIds[axis], b.getInt64Ty()));
  for (size_t i = 0; i < fields.size(); ++i)
    b.CreateAlignedStore(fields[i], b.CreateConstGEP1_64(b.getInt64Ty(), report, i + 1), llvm::MaybeAlign(8));
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

bool verifyLowered(llvm::Module &m, const std::string &target, std::string &error) {
  std::string message;
  llvm::raw_string_ostream os(message);
  if (!llvm::verifyModule(m, &os)) return true;
  error = "internal error: the " + target + " lowering produced invalid LLVM IR: " + os.str();
  return false;
}

void optimizeModule(llvm::Module &m, llvm::TargetMachine &tm, int optLevel) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cam, mam);
  llvm::OptimizationLevel level = optLevel >= 3 ? llvm::OptimizationLevel::O3
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                  : optLevel == 1 ? llvm::OptimizationLevel::O1 : llvm::OptimizationLevel::O0;
  llvm::ModulePassManager mpm = level == llvm::OptimizationLevel::O0 ? pb.buildO0DefaultPipeline(level)
                                                                      : pb.buildPerModuleDefaultPipeline(level);
  mpm.run(m, mam);
}

} // namespace tessera::targets::llvmgen
