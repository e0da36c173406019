// The AMDGPU hooks of the shared GPU lowering: work-item and work-group ids,
// s_barrier with workgroup fences, ds_bpermute for shuffles, LDS (address
// space 3), ocml math and ockl's hostcall printf.
#include "targets/amdgpu/TargetInfo.h"

#include "targets/amdgpu/Mfma.h"

#include "llvm/IR/IntrinsicsAMDGPU.h"

namespace tessera::targets::amdgpu {

namespace {

class AmdgpuTargetInfo final : public llvmgen::TargetInfo {
public:
  AmdgpuTargetInfo(std::string arch, int waveSize, bool unifiedRegisters, uint32_t bufferFormat)
      : arch_(std::move(arch)), waveSize_(waveSize), unifiedRegisters_(unifiedRegisters), bufferFormat_(bufferFormat) {}

  std::string name() const override { return "amdgpu"; }
  unsigned globalAddressSpace() const override { return 1; }
  unsigned sharedAddressSpace() const override { return 3; }

  llvm::Value *threadId(llvm::IRBuilder<> &b) const override {
    return b.CreateIntrinsic(llvm::Intrinsic::amdgcn_workitem_id_x, {}, {});
  }
  llvm::Value *programId(llvm::IRBuilder<> &b, int axis) const override {
    static const llvm::Intrinsic::ID ids[] = {llvm::Intrinsic::amdgcn_workgroup_id_x,
                                              llvm::Intrinsic::amdgcn_workgroup_id_y,
                                              llvm::Intrinsic::amdgcn_workgroup_id_z};
    return b.CreateIntrinsic(ids[axis], {}, {});
  }
  // Code object v5's hidden_block_count_{x,y,z}: the first three words of
  // the implicit kernel arguments.
  llvm::Value *numPrograms(llvm::IRBuilder<> &b, int axis) const override {
    llvm::Value *implicit = b.CreateIntrinsic(llvm::Intrinsic::amdgcn_implicitarg_ptr, {}, {});
    llvm::Value *slot = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), implicit, uint64_t(4 * axis));
    llvm::LoadInst *count = b.CreateAlignedLoad(b.getInt32Ty(), slot, llvm::Align(4));
    count->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(b.getContext(), {}));
    return count;
  }
  void barrier(llvm::IRBuilder<> &b) const override {
    llvm::SyncScope::ID workgroup = b.getContext().getOrInsertSyncScopeID("workgroup");
    b.CreateFence(llvm::AtomicOrdering::Release, workgroup);
    b.CreateIntrinsic(llvm::Intrinsic::amdgcn_s_barrier, {}, {});
    b.CreateFence(llvm::AtomicOrdering::Acquire, workgroup);
  }
  // ds_bpermute reads the lane whose byte address (lane * 4) it is given.
  llvm::Value *shuffleXor(llvm::IRBuilder<> &b, llvm::Value *v, int laneMask) const override {
    llvm::Value *lane = b.CreateAnd(threadId(b), b.getInt32(uint32_t(waveSize_ - 1)));
    llvm::Value *source = b.CreateShl(b.CreateXor(lane, b.getInt32(uint32_t(laneMask))), 2);
    return b.CreateIntrinsic(llvm::Intrinsic::amdgcn_ds_bpermute, {}, {source, v});
  }

  // ocml's __ocml_<name>_f32 / _f64 (f16 and bf16 widen to f32). Approximate
  // exp and exp2 below f64 are v_exp_f32 (1 ulp, subnormal results flushed).
  llvm::Value *math(llvm::IRBuilder<> &b, llvm::Module &m, const char *name, llvm::Value *v, ir::Type t,
                    bool approx) const override {
    bool f64 = t.scalarKind() == ir::ScalarKind::F64;
    std::string fn = name;
    llvm::Type *ft = f64 ? b.getDoubleTy() : b.getFloatTy();
    llvm::Value *x = v->getType() == ft ? v : b.CreateFPExt(v, ft);
    llvm::Value *r;
    if (approx && !f64 && (fn == "exp" || fn == "exp2")) {
      if (fn == "exp") x = b.CreateFMul(x, llvm::ConstantFP::get(ft, 1.4426950408889634));
      r = b.CreateIntrinsic(llvm::Intrinsic::amdgcn_exp2, {ft}, {x});
    } else {
      llvm::FunctionCallee callee = m.getOrInsertFunction("__ocml_" + fn + (f64 ? "_f64" : "_f32"), ft, ft);
      r = b.CreateCall(callee, {x});
    }
    return v->getType() == ft ? r : b.CreateFPTrunc(r, v->getType());
  }

  llvm::Value *math2(llvm::IRBuilder<> &b, llvm::Module &m, const char *name, llvm::Value *x, llvm::Value *y,
                     ir::Type t) const override {
    bool f64 = t.scalarKind() == ir::ScalarKind::F64;
    if (x->getType()->isIntegerTy()) return nullptr;  // ocml has no jn / yn
    llvm::Type *ft = f64 ? b.getDoubleTy() : b.getFloatTy();
    llvm::FunctionCallee callee =
        m.getOrInsertFunction(std::string("__ocml_") + name + (f64 ? "_f64" : "_f32"), ft, ft, ft);
    auto wide = [&](llvm::Value *v) { return v->getType() == ft ? v : b.CreateFPExt(v, ft); };
    llvm::Value *r = b.CreateCall(callee, {wide(x), wide(y)});
    return x->getType() == ft ? r : b.CreateFPTrunc(r, x->getType());
  }

  // ockl's printf over the hostcall buffer: the format as a string, then
  // the arguments seven at a time, each as 64 bits (doubles by their bits).
  void print(llvm::IRBuilder<> &b, llvm::Module &m, const std::string &format,
             const std::vector<llvm::Value *> &args) const override {
    llvm::Type *i64 = b.getInt64Ty(), *i32 = b.getInt32Ty();
    llvm::FunctionCallee begin = m.getOrInsertFunction("__ockl_printf_begin", i64, i64);
    llvm::FunctionCallee appendString =
        m.getOrInsertFunction("__ockl_printf_append_string_n", i64, i64, b.getPtrTy(), i64, i32);
    llvm::FunctionCallee appendArgs =
        m.getOrInsertFunction("__ockl_printf_append_args", i64, i64, i32, i64, i64, i64, i64, i64, i64, i64, i32);
    llvm::Value *desc = b.CreateCall(begin, {b.getInt64(0)});
    desc = b.CreateCall(appendString, {desc, string(b, format), b.getInt64(format.size() + 1),
                                       b.getInt32(args.empty() ? 1 : 0)});
    for (size_t first = 0; first < args.size(); first += 7) {
      size_t n = std::min<size_t>(7, args.size() - first);
      std::vector<llvm::Value *> call = {desc, b.getInt32(uint32_t(n))};
      for (size_t i = 0; i < 7; ++i) call.push_back(i < n ? asWord(b, args[first + i]) : b.getInt64(0));
      call.push_back(b.getInt32(first + n == args.size() ? 1 : 0));
      desc = b.CreateCall(appendArgs, call);
    }
  }

  void assertFail(llvm::IRBuilder<> &b, llvm::Module &m, const std::string &message, const std::string &file,
                  int line) const override {
    print(b, m, file + ":" + std::to_string(line) + ": device-side assertion `" + message + "' failed.\n", {});
    b.CreateIntrinsic(llvm::Intrinsic::trap, {}, {});
  }

  // MFMA or WMMA from the table (Mfma.h): each operand's elements packed
  // into the intrinsic's vector (or scalar) type, in fragment order.
  std::vector<llvm::Value *> mma(llvm::IRBuilder<> &b, const std::vector<int64_t> &shape, ir::Type a, ir::Type bt,
                                 ir::Type acc, const std::vector<llvm::Value *> &operands) const override {
    if (shape.size() != 3) return {};
    const MatrixInstruction *inst =
        findMatrixInstruction(arch_, shape[0], shape[1], shape[2], a.scalarKind(), bt.scalarKind(), acc.scalarKind());
    if (!inst) return {};
    size_t nA = size_t(1) << inst->fragA->reg.size(), nB = size_t(1) << inst->fragB->reg.size(),
           nC = size_t(1) << inst->fragC->reg.size();
    if (operands.size() != nA + nB + nC) return {};
    auto pack = [&](size_t first, size_t count) -> llvm::Value * {
      if (count == 1) return operands[first];
      llvm::Value *v = llvm::PoisonValue::get(llvm::FixedVectorType::get(operands[first]->getType(), unsigned(count)));
      for (size_t i = 0; i < count; ++i) v = b.CreateInsertElement(v, operands[first + i], uint64_t(i));
      return v;
    };
    llvm::Value *av = pack(0, nA), *bv = pack(nA, nB), *cv = pack(nA + nB, nC);
    llvm::Module *m = b.GetInsertBlock()->getModule();
    llvm::Intrinsic::ID id = llvm::Function::lookupIntrinsicID(inst->intrinsic);
    if (id == llvm::Intrinsic::not_intrinsic) return {};
    // WMMA's intrinsics are overloaded on the accumulator's and the inputs' types.
    llvm::Function *fn = llvm::Intrinsic::isOverloaded(id)
                             ? llvm::Intrinsic::getDeclaration(m, id, {cv->getType(), intType(b, av)})
                             : llvm::Intrinsic::getDeclaration(m, id);
    llvm::FunctionType *ft = fn->getFunctionType();
    auto as = [&](llvm::Value *v, unsigned param) {
      llvm::Type *t = ft->getParamType(param);
      return v->getType() == t ? v : b.CreateBitCast(v, t);
    };
    std::vector<llvm::Value *> args;
    switch (inst->call) {
    case MatrixCall::Mfma: args = {as(bv, 0), as(av, 1), cv, b.getInt32(0), b.getInt32(0), b.getInt32(0)}; break;
    case MatrixCall::Wmma: args = {as(av, 0), as(bv, 1), cv}; break;
    case MatrixCall::WmmaInt8: args = {b.getTrue(), as(av, 1), b.getTrue(), as(bv, 3), cv, b.getFalse()}; break;
    }
    llvm::Value *d = b.CreateCall(fn, args);
    std::vector<llvm::Value *> out;
    for (size_t i = 0; i < nC; ++i) out.push_back(nC == 1 ? d : b.CreateExtractElement(d, uint64_t(i)));
    return out;
  }

  llvm::Value *rangedLoad(llvm::IRBuilder<> &b, llvm::Value *base, llvm::Value *byteOffset, llvm::Type *vecTy,
                          llvm::Value *pred, llvm::Value *fallback) const override {
    return bufferLoad(b, bufferFormat_, base, byteOffset, vecTy, pred, fallback);
  }
  bool rangedStore(llvm::IRBuilder<> &b, llvm::Value *base, llvm::Value *byteOffset, llvm::Value *value,
                   llvm::Value *pred) const override {
    return bufferStore(b, bufferFormat_, base, byteOffset, value, pred);
  }

  // s_memrealtime: the 64-bit real-time counter (100 MHz on CDNA), uncached and unordered by the clock's readers.
  llvm::Value *hardwareRegister(llvm::IRBuilder<> &b, const std::string &name) const override {
    if (name == "memrealtime") return b.CreateIntrinsic(llvm::Intrinsic::amdgcn_s_memrealtime, {}, {});
    return nullptr;
  }

  bool staticSharedMemory() const override { return true; }

  void markKernel(llvm::Function *fn, int threads) const override {
    fn->setCallingConv(llvm::CallingConv::AMDGPU_KERNEL);
    std::string size = std::to_string(threads);
    fn->addFnAttr("amdgpu-flat-work-group-size", size + "," + size);
    fn->addFnAttr("uniform-work-group-size", "true");
    // MFMA accumulators in VGPRs, as Triton keeps them: where VGPRs and
    // AGPRs share one file, LLVM 19 selects MFMA's VGPR form only for a
    // kernel held to 256 registers per lane (at least two waves per SIMD);
    // otherwise the accumulators live in AGPRs and are copied to and from
    // VGPRs around every loop iteration.
    if (unifiedRegisters_) fn->addFnAttr("amdgpu-waves-per-eu", "2");
  }

private:
  // The integer type of `v`'s size (bf16 and i8 operands travel as integers),
  // or its own type for f16 and f32.
  static llvm::Type *intType(llvm::IRBuilder<> &b, llvm::Value *v) {
    llvm::Type *t = v->getType();
    llvm::Type *elem = t->getScalarType();
    if (elem->isHalfTy() || elem->isFloatTy()) return t;
    unsigned bits = unsigned(t->getPrimitiveSizeInBits().getFixedValue());
    if (elem->isIntegerTy(8)) return llvm::FixedVectorType::get(b.getInt32Ty(), bits / 32);
    return llvm::FixedVectorType::get(b.getInt16Ty(), bits / 16);
  }
  static llvm::Value *asWord(llvm::IRBuilder<> &b, llvm::Value *v) {
    llvm::Type *t = v->getType();
    if (t->isPointerTy()) return b.CreatePtrToInt(v, b.getInt64Ty());
    if (t->isDoubleTy()) return b.CreateBitCast(v, b.getInt64Ty());
    if (t->isFloatingPointTy()) return b.CreateBitCast(b.CreateFPExt(v, b.getDoubleTy()), b.getInt64Ty());
    return b.CreateZExtOrTrunc(v, b.getInt64Ty());
  }
  // A generic pointer to a constant string (in the code object's read-only data).
  static llvm::Value *string(llvm::IRBuilder<> &b, const std::string &text) {
    llvm::GlobalVariable *g = b.CreateGlobalString(text, "str", 4);
    return b.CreateAddrSpaceCast(g, b.getPtrTy());
  }

  std::string arch_;
  int waveSize_;
  bool unifiedRegisters_;
  uint32_t bufferFormat_;
};

} // namespace

std::unique_ptr<llvmgen::TargetInfo> createAmdgpuTargetInfo(const std::string &arch, int waveSize,
                                                            bool unifiedRegisters, uint32_t bufferFormat) {
  return std::make_unique<AmdgpuTargetInfo>(arch, waveSize, unifiedRegisters, bufferFormat);
}

} // namespace tessera::targets::amdgpu
