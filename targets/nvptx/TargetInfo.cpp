// The NVPTX hooks of the shared GPU lowering: special registers, bar.sync,
// shfl.sync, the shared address space (3) and libdevice math.
#include "targets/nvptx/TargetInfo.h"

#include "targets/llvm/Elementwise.h"
#include "targets/nvptx/Mma.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Metadata.h"

namespace tessera::targets::nvptx {

namespace {

class NvptxTargetInfo final : public llvmgen::TargetInfo {
public:
  explicit NvptxTargetInfo(int sm) : sm_(sm) {}
  std::string name() const override { return "nvptx"; }
  unsigned globalAddressSpace() const override { return 1; }
  unsigned sharedAddressSpace() const override { return 3; }

  llvm::Value *threadId(llvm::IRBuilder<> &b) const override {
    return b.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, {}, {});
  }
  llvm::Value *programId(llvm::IRBuilder<> &b, int axis) const override {
    static const llvm::Intrinsic::ID ids[] = {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                              llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                              llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
    return b.CreateIntrinsic(ids[axis], {}, {});
  }
  llvm::Value *numPrograms(llvm::IRBuilder<> &b, int axis) const override {
    static const llvm::Intrinsic::ID ids[] = {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
                                              llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                                              llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z};
    return b.CreateIntrinsic(ids[axis], {}, {});
  }
  void barrier(llvm::IRBuilder<> &b) const override { b.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {}); }
  // ptxas gives a kernel with setmaxnreg the most registers its threads may
  // have (65536 / threads, in 8s: 168 for 384); the producer keeps 40 and
  // the consumers share what it frees (232 for 256 of them), where that
  // is more than they started with.
  void rebalanceRegisters(llvm::IRBuilder<> &b, bool producer, int consumerThreads, int producerThreads) const override {
    constexpr int kRegisterFile = 65536, kProducer = 40, kMost = 256;
    // Up to 256 threads may have 255 registers each: no cap, and ptxas
    // ignores setmaxnreg (C7508).
    if (kRegisterFile / (consumerThreads + producerThreads) >= 255) return;
    int start = kRegisterFile / (consumerThreads + producerThreads) / 8 * 8;
    int consumer = std::min(kMost, start + producerThreads * (start - kProducer) / consumerThreads / 8 * 8);
    if (start <= kProducer || consumer <= start) return;
    std::string ptx = producer ? "setmaxnreg.dec.sync.aligned.u32 " + std::to_string(kProducer) + ";"
                               : "setmaxnreg.inc.sync.aligned.u32 " + std::to_string(consumer) + ";";
    auto *fnTy = llvm::FunctionType::get(b.getVoidTy(), false);
    b.CreateCall(fnTy, llvm::InlineAsm::get(fnTy, ptx, "~{memory}", true));
  }
  // Named barrier 1 (0 is every thread's).
  bool barrierOf(llvm::IRBuilder<> &b, int threads) const override {
    b.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier_sync_cnt, {}, {b.getInt32(1), b.getInt32(uint32_t(threads))});
    return true;
  }
  llvm::Value *shuffleXor(llvm::IRBuilder<> &b, llvm::Value *v, int laneMask) const override {
    return b.CreateIntrinsic(llvm::Intrinsic::nvvm_shfl_sync_bfly_i32, {},
                             {b.getInt32(0xFFFFFFFFu), v, b.getInt32(uint32_t(laneMask)), b.getInt32(0x1F)});
  }

  // libdevice: __nv_<name>f on f32 (f16/bf16 widen to f32), __nv_<name> on f64.
  // Approximate exp and exp2 (tl.exp, tl.exp2 below f64: Triton's contract)
  // are the hardware's ex2 (MUFU.EX2), 2 ulp, subnormal results flushed:
  // ex2.approx.ftz.f32, as Triton by default. Without .ftz ptxas wraps each
  // in a compare and two multiplies that keep subnormals (attention's
  // softmax: 204 more instructions per iteration at BLOCK_N 64).
  // enable_reflect_ftz is libdevice's alone.
  llvm::Value *math(llvm::IRBuilder<> &b, llvm::Module &m, const char *name, llvm::Value *v, ir::Type t,
                    bool approx) const override {
    bool f64 = t.scalarKind() == ir::ScalarKind::F64;
    std::string fn = name;
    if (approx && !f64 && (fn == "exp" || fn == "exp2")) {
      llvm::Value *x = v->getType()->isFloatTy() ? v : b.CreateFPExt(v, b.getFloatTy());
      if (fn == "exp") x = b.CreateFMul(x, llvm::ConstantFP::get(b.getFloatTy(), 1.4426950408889634));
      llvm::Value *r = b.CreateIntrinsic(llvm::Intrinsic::nvvm_ex2_approx_ftz_f, {}, {x});
      return v->getType()->isFloatTy() ? r : b.CreateFPTrunc(r, v->getType());
    }
    llvm::Type *ft = f64 ? b.getDoubleTy() : b.getFloatTy();
    std::string fname = std::string("__nv_") + name + (f64 ? "" : "f");
    llvm::FunctionCallee callee = m.getOrInsertFunction(fname, ft, ft);
    llvm::Value *x = v->getType() == ft ? v : b.CreateFPExt(v, ft);
    llvm::Value *r = b.CreateCall(callee, {x});
    return v->getType() == ft ? r : b.CreateFPTrunc(r, v->getType());
  }

  // div.full.f32, as Triton divides f32 by default: full range, 2 ulp, a
  // reciprocal and a multiply. LLVM's fdiv (even with arcp) becomes div.rn or
  // rcp.rn, correctly rounded and several times longer (sigmoid's 1/(1+e^-x)
  // in Liger's SwiGLU). Pure asm: LLVM may still hoist and merge it.
  llvm::Value *approxDivide(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y) const override {
    if (!x->getType()->isFloatTy() || !y->getType()->isFloatTy()) return nullptr;
    auto *ty = llvm::FunctionType::get(b.getFloatTy(), {b.getFloatTy(), b.getFloatTy()}, false);
    return b.CreateCall(llvm::InlineAsm::get(ty, "div.full.f32 $0, $1, $2;", "=f,f,f", false), {x, y});
  }

  // libdevice's __nv_rsqrtf: rsqrt.approx.f32 (MUFU.RSQ, 2 ulp; .ftz under
  // enable_reflect_ftz), which Triton's tl.rsqrt and libdevice.rsqrt both
  // are. 1 / sqrt correctly rounded is sqrt.rn and rcp.rn, each a
  // subroutine in SASS: Liger's LayerNorm forward took 62 registers to
  // Triton's 48 (in part for this), one block fewer per SM.
  llvm::Value *approxRsqrt(llvm::IRBuilder<> &b, llvm::Module &m, llvm::Value *x) const override {
    llvm::Type *t = x->getType();
    if (!t->isFloatTy() && !t->isHalfTy() && !t->isBFloatTy()) return nullptr;
    return math(b, m, "rsqrt", x, ir::Type::f32(), false);  // f16/bf16 through f32, as math() widens them
  }

  llvm::Value *math2(llvm::IRBuilder<> &b, llvm::Module &m, const char *name, llvm::Value *x, llvm::Value *y,
                     ir::Type t) const override {
    bool f64 = t.scalarKind() == ir::ScalarKind::F64;
    llvm::Type *ft = f64 ? b.getDoubleTy() : b.getFloatTy();
    // jn / yn take an i32 order first.
    llvm::Type *first = x->getType()->isIntegerTy() ? x->getType() : ft;
    llvm::FunctionCallee callee = m.getOrInsertFunction(std::string("__nv_") + name + (f64 ? "" : "f"), ft, first, ft);
    auto wide = [&](llvm::Value *v) { return v->getType() == ft || v->getType()->isIntegerTy() ? v : b.CreateFPExt(v, ft); };
    llvm::Value *r = b.CreateCall(callee, {wide(x), wide(y)});
    return y->getType() == ft ? r : b.CreateFPTrunc(r, y->getType());
  }

  // vprintf(format, args): the arguments packed as a struct, each at its
  // natural alignment, in local memory.
  void print(llvm::IRBuilder<> &b, llvm::Module &m, const std::string &format,
             const std::vector<llvm::Value *> &args) const override {
    llvm::FunctionCallee vprintf =
        m.getOrInsertFunction("vprintf", b.getInt32Ty(), b.getPtrTy(), b.getPtrTy());
    llvm::Value *buffer = llvm::ConstantPointerNull::get(b.getPtrTy());
    if (!args.empty()) {
      std::vector<llvm::Type *> tys;
      for (llvm::Value *a : args) tys.push_back(a->getType());
      auto *st = llvm::StructType::get(b.getContext(), tys);
      llvm::Function *fn = b.GetInsertBlock()->getParent();
      llvm::IRBuilder<> entry(&fn->getEntryBlock(), fn->getEntryBlock().begin());
      llvm::Value *slot = entry.CreateAlloca(st);
      for (unsigned i = 0; i < args.size(); ++i) b.CreateStore(args[i], b.CreateStructGEP(st, slot, i));
      buffer = b.CreateAddrSpaceCast(slot, b.getPtrTy());
    }
    b.CreateCall(vprintf, {string(b, format), buffer});
  }

  void assertFail(llvm::IRBuilder<> &b, llvm::Module &m, const std::string &message, const std::string &file,
                  int line) const override {
    llvm::FunctionCallee fail = m.getOrInsertFunction("__assertfail", b.getVoidTy(), b.getPtrTy(), b.getPtrTy(),
                                                      b.getInt32Ty(), b.getPtrTy(), b.getInt64Ty());
    b.CreateCall(fail, {string(b, message), string(b, file), b.getInt32(uint32_t(line)), string(b, "kernel"),
                        b.getInt64(1)});
  }

  // As Triton does: registers preset to the fallback, then `@p ld.global`;
  // stores `@p st.global`. No branches, so ptxas schedules the accesses freely.
  // ld/st qualifiers: the cache operator (.ca, .cg...) or, without one, the
  // L1 eviction priority (PTX has no form with both).
  static std::string qualifiers(const CacheHints &h) {
    if (!h.cache.empty()) return "." + h.cache;
    if (!h.evict.empty()) return ".L1::evict_" + h.evict;
    return "";
  }

  llvm::Value *predicatedLoad(llvm::IRBuilder<> &b, llvm::Value *ptr, llvm::Type *vecTy, llvm::Value *pred,
                              llvm::Value *fallback, const CacheHints &hints) const override {
    Access a = access(b, vecTy);
    if (!a.words) return nullptr;
    std::string text, constraints;
    std::vector<llvm::Value *> args = {b.CreatePtrToInt(ptr, b.getInt64Ty()), pred};
    llvm::Value *fb = b.CreateBitCast(fallback, a.packed);
    for (unsigned i = 0; i < a.words; ++i) {
      text += "mov.b" + std::to_string(a.bits) + " $" + std::to_string(i) + ", $" + std::to_string(a.words + 2 + i) + ";\n\t";
      constraints += std::string(i ? "," : "") + "=" + a.reg;
      args.push_back(a.words == 1 ? fb : b.CreateExtractElement(fb, uint64_t(i)));
    }
    text += "@$" + std::to_string(a.words + 1) + " ld.global" + qualifiers(hints) + a.vec + ".b" + std::to_string(a.bits) + " " + list(0, a.words) +
            ", [$" + std::to_string(a.words) + "];";
    constraints += ",l,b";
    for (unsigned i = 0; i < a.words; ++i) constraints += std::string(",") + a.reg;
    std::vector<llvm::Type *> outs(a.words, a.word);
    llvm::Type *ret = a.words == 1 ? a.word : llvm::StructType::get(b.getContext(), outs);
    std::vector<llvm::Type *> argTys;
    for (llvm::Value *v : args) argTys.push_back(v->getType());
    auto *asmFn = llvm::InlineAsm::get(llvm::FunctionType::get(ret, argTys, false), text, constraints, true);
    llvm::Value *r = b.CreateCall(asmFn, args);
    llvm::Value *packed = r;
    if (a.words > 1) {
      packed = llvm::PoisonValue::get(a.packed);
      for (unsigned i = 0; i < a.words; ++i) packed = b.CreateInsertElement(packed, b.CreateExtractValue(r, i), uint64_t(i));
    }
    return b.CreateBitCast(packed, vecTy);
  }

  bool predicatedStore(llvm::IRBuilder<> &b, llvm::Value *ptr, llvm::Value *value, llvm::Value *pred,
                       const CacheHints &hints) const override {
    Access a = access(b, value->getType());
    if (!a.words) return false;
    llvm::Value *packed = b.CreateBitCast(value, a.packed);
    std::vector<llvm::Value *> args = {pred, b.CreatePtrToInt(ptr, b.getInt64Ty())};
    std::string constraints = "b,l";
    for (unsigned i = 0; i < a.words; ++i) {
      args.push_back(a.words == 1 ? packed : b.CreateExtractElement(packed, uint64_t(i)));
      constraints += std::string(",") + a.reg;
    }
    std::string text = "@$0 st.global" + qualifiers(hints) + a.vec + ".b" + std::to_string(a.bits) + " [$1], " + list(2, a.words) + ";";
    std::vector<llvm::Type *> argTys;
    for (llvm::Value *v : args) argTys.push_back(v->getType());
    auto *asmFn = llvm::InlineAsm::get(llvm::FunctionType::get(b.getVoidTy(), argTys, false), text, constraints, true);
    b.CreateCall(asmFn, args);
    return true;
  }

  // cvt.rn.{bf16x2,f16x2}.f32 d, a, b puts a in the upper half: element 1.
  llvm::Value *narrowPair(llvm::IRBuilder<> &b, llvm::Value *first, llvm::Value *second,
                          llvm::Type *elem) const override {
    if (elem->isBFloatTy()) return b.CreateIntrinsic(llvm::Intrinsic::nvvm_ff2bf16x2_rn, {}, {second, first});
    if (elem->isHalfTy()) return b.CreateIntrinsic(llvm::Intrinsic::nvvm_ff2f16x2_rn, {}, {second, first});
    return nullptr;
  }

  // LLVM 19's NVPTX back end drops the orderings of atomics (every atom is
  // relaxed, with no fence), so from sm_70 (PTX's memory model) atomics are
  // written here: one atom with its .sem and .scope where PTX has the
  // operation for the type (as Triton writes them: atom.global.gpu.acq_rel.add,
  // atom.global.acq_rel.gpu.cas), else LLVM's relaxed atomic between fences.
  bool ownsAtomics() const override { return sm_ >= 70; }

  llvm::Value *atomic(llvm::IRBuilder<> &b, const AtomicRequest &r) const override {
    ir::Type t = r.elem;
    int bits = t.bitWidth();
    bool f = t.isFloat();
    std::string op, type;
    if (r.kind == "cas" || r.kind == "xchg" || r.kind == "and" || r.kind == "or" || r.kind == "xor") {
      if (bits == 32 || bits == 64 || (bits == 16 && r.kind == "cas")) {
        op = r.kind == "xchg" ? "exch" : r.kind;
        type = "b" + std::to_string(bits);
      }
    } else if (r.kind == "add") {
      if (f && bits == 16 && (t.scalarKind() == ir::ScalarKind::F16 || sm_ >= 90))
        op = "add.noftz", type = t.scalarKind() == ir::ScalarKind::F16 ? "f16" : "bf16";
      else if (bits == 32 || bits == 64)
        op = "add", type = (f ? "f" : "u") + std::to_string(bits);
    } else if ((r.kind == "max" || r.kind == "min") && !f && (bits == 32 || bits == 64)) {
      op = r.kind, type = (t.isSigned() ? "s" : "u") + std::to_string(bits);
    }
    std::string scope = r.scope == "cta" || r.scope == "sys" ? r.scope : "gpu";
    if (op.empty() && f && (bits == 32 || bits == 64) && (r.kind == "max" || r.kind == "min"))
      return floatMinMax(b, r, scope);
    if (op.empty()) return fencedAtomic(b, r, scope);
    llvm::Type *reg = bits == 16 ? b.getInt16Ty()
                      : f && type[0] == 'f' ? (bits == 32 ? b.getFloatTy() : b.getDoubleTy())
                                            : b.getIntNTy(unsigned(bits));
    char letter = bits == 16 ? 'h' : reg->isFloatTy() ? 'f' : reg->isDoubleTy() ? 'd' : bits == 32 ? 'r' : 'l';
    auto in = [&](llvm::Value *v) { return v->getType() == reg ? v : b.CreateBitCast(v, reg); };
    std::string c(1, letter);
    std::string text, constraints;
    std::vector<llvm::Value *> args{r.ptr, in(r.value)};
    if (r.kind == "cas") {
      text = "atom.global." + r.sem + "." + scope + ".cas." + type + " $0, [$1], $2, $3;";
      constraints = "=" + c + ",l," + c + "," + c + ",~{memory}";
      args = {r.ptr, in(r.value), in(r.cmp)};
    } else {
      text = "atom.global." + scope + "." + r.sem + "." + op + "." + type + " $0, [$1], $2;";
      constraints = "=" + c + ",l," + c + ",~{memory}";
    }
    std::vector<llvm::Type *> argTys;
    for (llvm::Value *v : args) argTys.push_back(v->getType());
    llvm::Value *old = b.CreateCall(llvm::InlineAsm::get(llvm::FunctionType::get(reg, argTys, false), text, constraints, true),
                                    args);
    llvm::Type *want = r.value->getType();
    return old->getType() == want ? old : b.CreateBitCast(old, want);
  }

  // %globaltimer (ns) and %smid; memrealtime is %globaltimer: NVIDIA's constant-rate clock.
  llvm::Value *hardwareRegister(llvm::IRBuilder<> &b, const std::string &name) const override {
    if (name == "globaltimer" || name == "memrealtime")
      return b.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_globaltimer, {}, {});
    if (name == "smid") return b.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_smid, {}, {});
    return nullptr;
  }

  // griddepcontrol (sm_90+; a no-op without a programmatic dependent launch).
  // Its memory clobber keeps loads after a wait and stores before a launch.
  void gridDependency(llvm::IRBuilder<> &b, bool wait) const override {
    if (sm_ < 90) return;
    auto *ty = llvm::FunctionType::get(b.getVoidTy(), false);
    b.CreateCall(llvm::InlineAsm::get(ty, wait ? "griddepcontrol.wait;" : "griddepcontrol.launch_dependents;",
                                      "~{memory}", true));
  }

  void markKernel(llvm::Function *fn, int threads) const override {
    fn->setCallingConv(llvm::CallingConv::PTX_Kernel);
    annotate(fn, "kernel", 1);
    annotate(fn, "maxntidx", threads);
  }

  void capRegisters(llvm::Function *fn, int registers) const override { annotate(fn, "maxnreg", registers); }

  // byval in the param space, addressed directly (grid_constant: cvta.param,
  // not a copy to local memory), as cp.async.bulk.tensor wants them. One
  // grid_constant entry lists them all: LLVM reads only one per kernel.
  bool markTensorMapParameters(llvm::Function *fn, const std::vector<unsigned> &args) const override {
    llvm::LLVMContext &ctx = fn->getContext();
    std::vector<llvm::Metadata *> indices;
    for (unsigned arg : args) {
      fn->addParamAttr(arg, llvm::Attribute::getWithByValType(ctx, llvm::ArrayType::get(llvm::Type::getInt8Ty(ctx), 128)));
      fn->addParamAttr(arg, llvm::Attribute::getWithAlignment(ctx, llvm::Align(64)));
      indices.push_back(llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), arg + 1)));
    }
    if (!args.empty())
      fn->getParent()->getOrInsertNamedMetadata("nvvm.annotations")->addOperand(
          llvm::MDNode::get(ctx, {llvm::ConstantAsMetadata::get(fn), llvm::MDString::get(ctx, "grid_constant"),
                                  llvm::MDNode::get(ctx, indices)}));
    return true;
  }

private:
  // An nvvm.annotations entry (kernel, maxntidx, maxnreg: the entry's directives).
  static void annotate(llvm::Function *fn, const char *name, int value) {
    llvm::LLVMContext &ctx = fn->getContext();
    auto *v = llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), value));
    fn->getParent()->getOrInsertNamedMetadata("nvvm.annotations")->addOperand(
        llvm::MDNode::get(ctx, {llvm::ConstantAsMetadata::get(fn), llvm::MDString::get(ctx, name), v}));
  }

  // Float max/min as integer atomics on the bits (Triton's way): for a
  // value with the sign bit clear, signed integer order is float order
  // (max.s / min.s); with it set, unsigned order is reversed float order
  // (min.u / max.u). Both predicated, one runs.
  llvm::Value *floatMinMax(llvm::IRBuilder<> &b, const AtomicRequest &r, const std::string &scope) const {
    int bits = r.elem.bitWidth();
    llvm::Type *it = b.getIntNTy(unsigned(bits));
    llvm::Value *v = b.CreateBitCast(r.value, it);
    llvm::Value *negative = b.CreateICmpSLT(v, llvm::ConstantInt::get(it, 0));
    bool max = r.kind == "max";
    std::string w = std::to_string(bits), c = bits == 32 ? "r" : "l";
    auto atom = [&](llvm::Value *pred, const std::string &op) {
      std::string text = "@$3 atom.global." + scope + "." + r.sem + "." + op + " $0, [$1], $2;";
      auto *fty = llvm::FunctionType::get(it, {r.ptr->getType(), it, b.getInt1Ty()}, false);
      return b.CreateCall(llvm::InlineAsm::get(fty, text, "=" + c + ",l," + c + ",b,~{memory}", true), {r.ptr, v, pred});
    };
    llvm::Value *whenPositive = atom(b.CreateNot(negative), (max ? "max.s" : "min.s") + w);
    llvm::Value *whenNegative = atom(negative, (max ? "min.u" : "max.u") + w);
    return b.CreateBitCast(b.CreateSelect(negative, whenNegative, whenPositive), r.value->getType());
  }

  // An LLVM atomic (relaxed: what the back end emits) ordered by fences.
  llvm::Value *fencedAtomic(llvm::IRBuilder<> &b, const AtomicRequest &r, const std::string &scope) const {
    auto fence = [&] {
      auto *ty = llvm::FunctionType::get(b.getVoidTy(), false);
      b.CreateCall(llvm::InlineAsm::get(ty, "fence.acq_rel." + scope + ";", "~{memory}", true));
    };
    if (r.sem == "release" || r.sem == "acq_rel") fence();
    llvm::Align align(uint64_t(std::max(1, r.elem.bitWidth() / 8)));
    llvm::Value *old;
    if (r.kind == "cas") {
      llvm::Type *it = b.getIntNTy(unsigned(r.elem.bitWidth()));
      auto *x = b.CreateAtomicCmpXchg(r.ptr, b.CreateBitCast(r.value, it), b.CreateBitCast(r.cmp, it), llvm::MaybeAlign(align),
                                      llvm::AtomicOrdering::Monotonic, llvm::AtomicOrdering::Monotonic);
      old = b.CreateBitCast(b.CreateExtractValue(x, 0), r.value->getType());
    } else {
      llvm::AtomicRMWInst::BinOp kind = llvmgen::atomicRmwOp(r.kind, r.elem);
      old = b.CreateAtomicRMW(kind, r.ptr, r.value, llvm::MaybeAlign(align), llvm::AtomicOrdering::Monotonic);
    }
    if (r.sem == "acquire" || r.sem == "acq_rel") fence();
    return old;
  }

  int sm_;
  // How an access of `t` splits into 1, 2 or 4 words of 16, 32 or 64 bits.
  struct Access {
    unsigned words = 0, bits = 0;
    llvm::Type *word = nullptr, *packed = nullptr;
    const char *reg = "r";
    std::string vec;
  };
  static Access access(llvm::IRBuilder<> &b, llvm::Type *t) {
    Access a;
    unsigned total = unsigned(t->getPrimitiveSizeInBits());
    if (t->isPtrOrPtrVectorTy() || total < 16 || total > 128 || total % 16) return a;
    a.bits = total >= 32 ? 32 : 16;
    if (total == 64 && !t->isVectorTy()) a.bits = 64;
    a.words = total / a.bits;
    a.word = b.getIntNTy(a.bits);
    a.reg = a.bits == 16 ? "h" : a.bits == 64 ? "l" : "r";
    a.packed = a.words == 1 ? a.word : llvm::FixedVectorType::get(a.word, a.words);
    a.vec = a.words == 1 ? "" : ".v" + std::to_string(a.words);
    return a;
  }
  // mma.sync from the table (Mma.h): A and B packed into 32-bit registers,
  // f32 accumulators one per register, f16 ones two per register.
  std::vector<llvm::Value *> mma(llvm::IRBuilder<> &b, const std::vector<int64_t> &shape, ir::Type a, ir::Type bt,
                                 ir::Type acc, const std::vector<llvm::Value *> &operands) const override {
    const MmaInstruction *inst = findMma(1000, a.scalarKind(), bt.scalarKind(), acc.scalarKind(), "tf32");
    if (!inst || shape != std::vector<int64_t>{inst->m, inst->n, inst->k}) return {};
    size_t nA = size_t(inst->m * inst->k / 32), nB = size_t(inst->k * inst->n / 32), nC = size_t(inst->m * inst->n / 32);
    if (operands.size() != nA + nB + nC) return {};
    std::vector<llvm::Value *> ins;
    auto pack = [&](size_t first, size_t count, unsigned bits) {
      for (size_t i = first; i < first + count; i += 32 / bits) {
        llvm::Type *t = operands[i]->getType();
        llvm::Value *word;
        if (bits == 32) {
          // f32 inputs round to tf32 (to nearest, ties away), as cuBLAS and Triton do.
          word = t->isFloatTy() ? b.CreateIntrinsic(llvm::Intrinsic::nvvm_f2tf32_rna, {}, {operands[i]})
                                : b.CreateBitCast(operands[i], b.getInt32Ty());
        } else {
          word = llvm::PoisonValue::get(llvm::FixedVectorType::get(t, 32 / bits));
          for (unsigned j = 0; j < 32 / bits; ++j) word = b.CreateInsertElement(word, operands[i + j], uint64_t(j));
          word = b.CreateBitCast(word, b.getInt32Ty());
        }
        ins.push_back(word);
      }
    };
    unsigned abits = unsigned(a.bitWidth()), cbits = unsigned(acc.bitWidth());
    pack(0, nA, abits);
    pack(nA, nB, abits);
    size_t inWords = ins.size();
    bool cPacked = cbits == 16;
    llvm::Type *cword = cPacked || acc.isInteger() ? b.getInt32Ty() : b.getFloatTy();
    const char *creg = cPacked || acc.isInteger() ? "r" : "f";
    if (cPacked) pack(nA + nB, nC, 16);
    else for (size_t i = nA + nB; i < operands.size(); ++i) ins.push_back(operands[i]);
    unsigned dWords = unsigned(ins.size() - inWords), aWords = unsigned(nA * abits / 32), bWords = unsigned(nB * abits / 32);
    std::string text = std::string(inst->ptx) + " " + list(0, dWords) + ", " + list(dWords, aWords) + ", " +
                       list(dWords + aWords, bWords) + ", " + list(dWords + aWords + bWords, dWords) + ";";
    std::string constraints;
    for (unsigned i = 0; i < dWords; ++i) constraints += std::string(i ? "," : "") + "=" + creg;
    for (unsigned i = 0; i < aWords + bWords; ++i) constraints += ",r";
    for (unsigned i = 0; i < dWords; ++i) constraints += std::string(",") + creg;
    std::vector<llvm::Type *> outTys(dWords, cword), inTys;
    for (llvm::Value *v : ins) inTys.push_back(v->getType());
    auto *fty = llvm::FunctionType::get(llvm::StructType::get(b.getContext(), outTys), inTys, false);
    llvm::CallInst *call = b.CreateCall(llvm::InlineAsm::get(fty, text, constraints, /*hasSideEffects=*/false), ins);
    call->addFnAttr(llvm::Attribute::Convergent);
    call->addFnAttr(llvm::Attribute::NoUnwind);
    call->setDoesNotAccessMemory();
    std::vector<llvm::Value *> d;
    for (unsigned i = 0; i < dWords; ++i) {
      llvm::Value *w = b.CreateExtractValue(call, {i});
      if (!cPacked) {
        d.push_back(w);
        continue;
      }
      llvm::Value *pair = b.CreateBitCast(w, llvm::FixedVectorType::get(b.getHalfTy(), 2));
      d.push_back(b.CreateExtractElement(pair, uint64_t(0)));
      d.push_back(b.CreateExtractElement(pair, uint64_t(1)));
    }
    return d;
  }

  std::vector<llvm::Value *> loadMatrices(llvm::IRBuilder<> &b, llvm::Value *ptr, int matrices,
                                          bool trans) const override {
    using llvm::Intrinsic::ID;
    static const ID plain[] = {llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x1_b16,
                               llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x2_b16,
                               llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x4_b16};
    static const ID transposed[] = {llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x1_trans_b16,
                                    llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x2_trans_b16,
                                    llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x4_trans_b16};
    int index = matrices == 1 ? 0 : matrices == 2 ? 1 : matrices == 4 ? 2 : -1;
    if (index < 0) return {};
    llvm::Value *r = b.CreateIntrinsic(trans ? transposed[index] : plain[index], {ptr->getType()}, {ptr});
    if (matrices == 1) return {r};
    std::vector<llvm::Value *> words;
    for (int i = 0; i < matrices; ++i) words.push_back(b.CreateExtractValue(r, {unsigned(i)}));
    return words;
  }

  // cp.async with a source size: 0 bytes read where `pred` is false, the
  // rest of the destination zero-filled (.cg, bypassing L1, for 16 bytes).
  // Inline PTX: LLVM 19 selects the intrinsic only for 64-bit shared
  // addresses, and ours are 32-bit.
  bool asyncCopy(llvm::IRBuilder<> &b, llvm::Value *dst, llvm::Value *src, int bytes, llvm::Value *pred) const override {
    if (bytes != 16 && bytes != 8 && bytes != 4) return false;
    llvm::Value *size = pred ? b.CreateSelect(pred, b.getInt32(uint32_t(bytes)), b.getInt32(0)) : b.getInt32(uint32_t(bytes));
    std::string text = std::string(bytes == 16 ? "cp.async.cg" : "cp.async.ca") + ".shared.global [$0], [$1], " +
                       std::to_string(bytes) + ", $2;";
    const llvm::DataLayout &layout = b.GetInsertBlock()->getModule()->getDataLayout();
    unsigned bits = layout.getPointerSizeInBits(dst->getType()->getPointerAddressSpace());
    llvm::Value *dstWord = b.CreatePtrToInt(dst, b.getIntNTy(bits));
    std::vector<llvm::Value *> args = {dstWord, src, size};
    std::vector<llvm::Type *> types = {dstWord->getType(), src->getType(), size->getType()};
    std::string constraints = std::string(bits == 32 ? "r" : "l") + ",l,r,~{memory}";
    auto *fty = llvm::FunctionType::get(b.getVoidTy(), types, false);
    b.CreateCall(llvm::InlineAsm::get(fty, text, constraints, /*hasSideEffects=*/true), args);
    return true;
  }
  bool asyncCommit(llvm::IRBuilder<> &b) const override {
    b.CreateIntrinsic(llvm::Intrinsic::nvvm_cp_async_commit_group, {}, {});
    return true;
  }
  bool asyncWait(llvm::IRBuilder<> &b, int pending) const override {
    b.CreateIntrinsic(llvm::Intrinsic::nvvm_cp_async_wait_group, {}, {b.getInt32(uint32_t(pending))});
    return true;
  }

  // wgmma.mma_async (sm_90a), A and B through matrix descriptors (PTX ISA,
  // "Matrix Descriptor Format"): start address, the leading and stride byte
  // offsets (all in 16-byte units) and the swizzle mode. f32 inputs are
  // multiplied as tf32 (the only f32 wgmma). The call is volatile: it reads
  // shared memory in the background, so it stays between the fence, commit
  // and wait around it.
  std::vector<llvm::Value *> warpgroupMma(llvm::IRBuilder<> &b, const std::vector<int64_t> &shape, ir::Type a,
                                          ir::Type bt, const std::vector<llvm::Value *> &aOperands, llvm::Value *bPtr,
                                          const std::vector<int64_t> &aDesc, const std::vector<int64_t> &bDesc,
                                          const std::vector<llvm::Value *> &acc, bool accumulate) const override {
    const char *aName = wgmmaTypeName(a.scalarKind()), *bName = wgmmaTypeName(bt.scalarKind());
    bool sixteenBit = a.bitWidth() == 16, integer = a.isInteger();
    if (!aName || !bName || integer != bt.isInteger() || (sixteenBit && a != bt) || shape.size() != 3 ||
        shape[0] != 64 || shape[2] * a.bitWidth() != 256 || bt.bitWidth() != a.bitWidth())
      return {};
    unsigned n = unsigned(acc.size());
    if (int64_t(n) != shape[1] / 2) return {};
    for (llvm::Value *v : acc)
      if (integer ? !v->getType()->isIntegerTy(32) : !v->getType()->isFloatTy()) return {};
    std::vector<llvm::Value *> ins(acc);
    std::string aText, aConstraints;
    if (aDesc.empty()) {
      // A from registers: its k / 2 elements packed into four 32-bit
      // registers (mma.sync's A fragment).
      unsigned perRegister = 32 / a.bitWidth();
      if (aOperands.size() != 4 * perRegister) return {};
      for (unsigned i = 0; i < aOperands.size(); i += perRegister) {
        llvm::Value *word = aOperands[i];
        if (perRegister > 1) {
          word = llvm::PoisonValue::get(llvm::FixedVectorType::get(aOperands[i]->getType(), perRegister));
          for (unsigned e = 0; e < perRegister; ++e) word = b.CreateInsertElement(word, aOperands[i + e], uint64_t(e));
        }
        ins.push_back(b.CreateBitCast(word, b.getInt32Ty()));
      }
      aText = list(2 * n, 4);
      aConstraints = ",r,r,r,r";
    } else {
      ins.push_back(descriptor(b, aOperands[0], aDesc));
      aText = "$" + std::to_string(2 * n);
      aConstraints = ",l";
    }
    unsigned bIndex = unsigned(ins.size()) + n;
    ins.push_back(descriptor(b, bPtr, bDesc));
    // scale-d (accumulate), then for floats the input scales (1: not
    // negated), then for 16-bit inputs the transposes (the others are k-major).
    std::string immediates = std::string(accumulate ? "1" : "0") + (integer ? "" : ", 1, 1");
    if (sixteenBit)
      immediates += ", " + (aDesc.empty() ? std::to_string(bDesc[3]) : std::to_string(aDesc[3]) + ", " + std::to_string(bDesc[3]));
    else if ((!aDesc.empty() && aDesc[3]) || bDesc[3])
      return {};
    std::string text = "wgmma.mma_async.sync.aligned.m64n" + std::to_string(shape[1]) + "k" + std::to_string(shape[2]) +
                       (integer ? ".satfinite.s32." : ".f32.") + aName + "." + bName + " " + list(0, n) + ", " + aText +
                       ", $" + std::to_string(bIndex) + ", " + immediates + ";";
    std::string constraints;
    for (unsigned i = 0; i < n; ++i) constraints += std::string(i ? "," : "") + (integer ? "=r" : "=f");
    for (unsigned i = 0; i < n; ++i) constraints += "," + std::to_string(i);
    constraints += aConstraints + ",l,~{memory}";
    return asmValues(b, text, constraints, ins, n);
  }
  // wgmma's name of an input element type (f32: tf32), or null.
  static const char *wgmmaTypeName(ir::ScalarKind k) {
    switch (k) {
    case ir::ScalarKind::F16: return "f16";
    case ir::ScalarKind::BF16: return "bf16";
    case ir::ScalarKind::F32: return "tf32";
    case ir::ScalarKind::F8E4M3: return "e4m3";
    case ir::ScalarKind::F8E5M2: return "e5m2";
    case ir::ScalarKind::I8: return "s8";
    case ir::ScalarKind::U8: return "u8";
    default: return nullptr;
    }
  }
  bool warpgroupSync(llvm::IRBuilder<> &b, WarpgroupSync kind) const override {
    const char *text = kind == WarpgroupSync::Fence    ? "wgmma.fence.sync.aligned;"
                       : kind == WarpgroupSync::Commit ? "wgmma.commit_group.sync.aligned;"
                                                       : "fence.proxy.async.shared::cta;";
    auto *fty = llvm::FunctionType::get(b.getVoidTy(), false);
    llvm::CallInst *call = b.CreateCall(llvm::InlineAsm::get(fty, text, "~{memory}", /*hasSideEffects=*/true));
    call->addFnAttr(llvm::Attribute::Convergent);
    return true;
  }
  std::vector<llvm::Value *> warpgroupWait(llvm::IRBuilder<> &b, int pending,
                                           const std::vector<llvm::Value *> &values) const override {
    unsigned n = unsigned(values.size());
    std::string constraints;
    for (unsigned i = 0; i < n; ++i) constraints += std::string(i ? "," : "") + "=" + regClass(values[i]);
    for (unsigned i = 0; i < n; ++i) constraints += "," + std::to_string(i);
    constraints += std::string(n ? "," : "") + "~{memory}";
    return asmValues(b, "wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";", constraints, values, n);
  }

  static const char *regClass(llvm::Value *v) {
    llvm::Type *t = v->getType();
    return t->isFloatTy() ? "f" : t->isDoubleTy() ? "d" : t->isIntegerTy(64) ? "l" : t->isIntegerTy(16) || t->isHalfTy() || t->isBFloatTy() ? "h" : "r";
  }

  // A volatile, convergent inline-asm call returning `outs` values of the
  // first `outs` inputs' types.
  static std::vector<llvm::Value *> asmValues(llvm::IRBuilder<> &b, const std::string &text, const std::string &constraints,
                                              const std::vector<llvm::Value *> &ins, unsigned outs) {
    std::vector<llvm::Type *> inTys, outTys;
    for (llvm::Value *v : ins) inTys.push_back(v->getType());
    for (unsigned i = 0; i < outs; ++i) outTys.push_back(inTys[i]);
    llvm::Type *ret = outs == 0 ? b.getVoidTy() : outs == 1 ? outTys[0] : llvm::StructType::get(b.getContext(), outTys);
    auto *fty = llvm::FunctionType::get(ret, inTys, false);
    llvm::CallInst *call = b.CreateCall(llvm::InlineAsm::get(fty, text, constraints, /*hasSideEffects=*/true), ins);
    call->addFnAttr(llvm::Attribute::Convergent);
    call->addFnAttr(llvm::Attribute::NoUnwind);
    std::vector<llvm::Value *> out;
    for (unsigned i = 0; i < outs; ++i) out.push_back(outs == 1 ? call : b.CreateExtractValue(call, {i}));
    return out;
  }

  // The 64-bit matrix descriptor of the operand at shared pointer `ptr`.
  // Where `ptr` is gep(base, x + C) or gep(base, C), it is the descriptor of
  // gep(base, x) plus C's bytes / 16: the start address field is address / 16
  // (exact for a multiple of 16 added, and no carry leaves its 14 bits below
  // 256 KiB, more than any shared memory), so the operands of one stage
  // share one descriptor and each wgmma adds a constant to it, as Triton's
  // do, instead of shifting, masking and or-ing an address of its own.
  static llvm::Value *descriptor(llvm::IRBuilder<> &b, llvm::Value *ptr, const std::vector<int64_t> &d) {
    if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(ptr); gep && gep->getNumIndices() == 1) {
      llvm::Value *index = gep->getOperand(1), *rest = nullptr;
      llvm::ConstantInt *c = llvm::dyn_cast<llvm::ConstantInt>(index);
      if (auto *add = llvm::dyn_cast<llvm::BinaryOperator>(index); add && add->getOpcode() == llvm::Instruction::Add)
        if ((c = llvm::dyn_cast<llvm::ConstantInt>(add->getOperand(1)))) rest = add->getOperand(0);
      const llvm::DataLayout &layout = b.GetInsertBlock()->getModule()->getDataLayout();
      int64_t bytes = c ? c->getSExtValue() * int64_t(layout.getTypeAllocSize(gep->getSourceElementType())) : -1;
      if (bytes > 0 && bytes % 16 == 0 && bytes < (int64_t(1) << 18)) {
        llvm::Value *base = gep->getPointerOperand();
        if (rest) base = b.CreateGEP(gep->getSourceElementType(), base, rest);
        return b.CreateAdd(addressDescriptor(b, base, d), b.getInt64(uint64_t(bytes) >> 4));
      }
    }
    return addressDescriptor(b, ptr, d);
  }
  static llvm::Value *addressDescriptor(llvm::IRBuilder<> &b, llvm::Value *ptr, const std::vector<int64_t> &d) {
    uint64_t mode = d[0] == 128 ? 1 : d[0] == 64 ? 2 : d[0] == 32 ? 3 : 0;
    uint64_t fixed = (uint64_t((d[1] >> 4) & 0x3fff) << 16) | (uint64_t((d[2] >> 4) & 0x3fff) << 32) | (mode << 62);
    llvm::Value *addr = b.CreatePtrToInt(ptr, b.getInt32Ty());
    llvm::Value *start = b.CreateAnd(b.CreateLShr(addr, b.getInt32(4)), b.getInt32(0x3fff));
    return b.CreateOr(b.CreateZExt(start, b.getInt64Ty()), b.getInt64(fixed));
  }

  // "{$first, ..., $(first+n-1)}" or "$first".
  static std::string list(unsigned first, unsigned n) {
    if (n == 1) return "$" + std::to_string(first);
    std::string s = "{";
    for (unsigned i = 0; i < n; ++i) s += (i ? ", $" : "$") + std::to_string(first + i);
    return s + "}";
  }

  // A generic pointer to a constant string in global memory.
  static llvm::Value *string(llvm::IRBuilder<> &b, const std::string &text) {
    llvm::GlobalVariable *g = b.CreateGlobalString(text, "str", 1);
    return b.CreateAddrSpaceCast(g, b.getPtrTy());
  }
};

} // namespace

std::unique_ptr<llvmgen::TargetInfo> createNvptxTargetInfo(int sm) { return std::make_unique<NvptxTargetInfo>(sm); }

} // namespace tessera::targets::nvptx
