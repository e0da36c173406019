#include "targets/llvm/ThreadEmitter.h"

#include "ir/analysis/NonNegative.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/Support/Error.h"

#include <cctype>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace tessera::targets::llvmgen {

using ir::OpCode;

namespace {

class ThreadEmitter : public ElementwiseEmitter {
public:
  ThreadEmitter(llvm::Module &module, const TargetInfo &ti, int lanes, bool fpFusion)
      : ElementwiseEmitter(module, ti.name()), info(ti), warpSize(lanes) {
    setGlobalAddressSpace(ti.globalAddressSpace());
    setSharedAddressSpace(ti.sharedAddressSpace());
    // A mul feeding an add may become an fma (ir/IR.h; Triton's default),
    // unless the user turned fusion off.
    llvm::FastMathFlags contract;
    contract.setAllowContract(fpFusion);
    b.setFastMathFlags(contract);
  }

  llvm::Value *mathCall(const char *name, llvm::Value *v, ir::Type t, bool approx) override {
    return info.math(b, m, name, v, t, approx);
  }
  llvm::Value *mathCall2(const char *name, llvm::Value *x, llvm::Value *y, ir::Type t) override {
    return info.math2(b, m, name, x, y, t);
  }
  llvm::Value *approxDivide(llvm::Value *x, llvm::Value *y) override { return info.approxDivide(b, x, y); }
  llvm::Value *approxRsqrt(llvm::Value *x) override { return info.approxRsqrt(b, m, x); }

  void emitKernel(const ir::Function &kernel, const std::string &symbol, int threads, int maxRegisters,
                  GpuKernelInfo &out) {
    std::vector<llvm::Type *> argTys;
    auto tensorMap = [&](unsigned i) { return kernel.argAttrs(i).find("tensor_map"); };
    for (unsigned i = 0; i < kernel.numArguments(); ++i) {
      ir::Type t = kernel.argument(i)->type();
      KernelParam p;
      p.name = kernel.argument(i)->nameHint();
      p.type = t;
      p.sizeBytes = int(memoryBytes(t));
      if (const ir::Attribute *map = tensorMap(i)) {
        p.sizeBytes = 128;
        p.tensorMap = map->getInts();
        p.tensorMapFields = ir::tensorMapFields(kernel, i);
      }
      argTys.push_back(tensorMap(i) ? b.getPtrTy() : storageType(t));
      out.params.push_back(p);
    }
    fn = llvm::Function::Create(llvm::FunctionType::get(b.getVoidTy(), argTys, false),
                                llvm::GlobalValue::ExternalLinkage, symbol, m);
    consumerThreads_ = threads;
    for (const auto &op : kernel.entry().ops())
      if (op->is(ir::OpCode::WarpSpecialize)) threads += warpSize * int(op->attr("producer_warps")->getInt());
    out.threads = threads;
    info.markKernel(fn, threads);
    if (maxRegisters > 0) info.capRegisters(fn, maxRegisters);
    for (unsigned i = 0; i < kernel.numArguments(); ++i)
      if (kernel.argument(i)->type().isPointer()) fn->addParamAttr(i, llvm::Attribute::NoUndef);
    b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", fn));
    tid_ = info.threadId(b);
    std::vector<unsigned> maps;
    for (unsigned i = 0; i < kernel.numArguments(); ++i) {
      if (tensorMap(i)) maps.push_back(i);
      values_[kernel.argument(i)] = tensorMap(i) ? fn->getArg(i) : fromStorage(fn->getArg(i), kernel.argument(i)->type());
    }
    if (!maps.empty() && !info.markTensorMapParameters(fn, maps))
      throw LoweringError{"kernel '" + symbol + "' copies through tensor maps, which " + info.name() + " does not have"};
    for (unsigned i = 0; i < kernel.numArguments(); ++i)
      if (kernel.argAttrs(i).getInt("pointer_range", 0) == 32) rangedArguments_.insert(kernel.argument(i));
    emitBlock(kernel.entry());
    b.CreateRetVoid();
    out.sharedMemoryBytes = kernel.attrs().getInt("shared_memory_bytes", 0);
    if (info.staticSharedMemory()) sizeSharedMemory(out.sharedMemoryBytes);
  }

private:
  llvm::Value *get(const ir::Value *v) {
    auto it = values_.find(v);
    if (it == values_.end()) throw LoweringError{"internal error: " + info.name() + " emitter used a value before defining it"};
    return it->second;
  }
  void set(const ir::Value *v, llvm::Value *x) { values_[v] = x; }
  std::vector<llvm::Value *> getAll(const std::vector<ir::Value *> &vs) {
    std::vector<llvm::Value *> out;
    for (ir::Value *v : vs) out.push_back(get(v));
    return out;
  }
  llvm::Value *i32(int64_t v) { return b.getInt32(uint32_t(v)); }

  void emitBlock(const ir::Block &block) {
    for (auto &op : block.ops()) emitOp(*op);
  }

  void emitOp(const ir::Operation &op) {
    if (op.hasTrait(ir::kElementwise)) {
      std::vector<llvm::Value *> in = getAll(op.operands());
      return set(op.result(), elementwise(op, in));
    }
    switch (op.code()) {
    case OpCode::ProgramId: return set(op.result(), info.programId(b, int(op.attr("axis")->getInt())));
    case OpCode::NumPrograms: return set(op.result(), info.numPrograms(b, int(op.attr("axis")->getInt())));
    case OpCode::ThreadId: return set(op.result(), tid_);
    case OpCode::LaneId: return set(op.result(), b.CreateURem(tid_, i32(warpSize)));
    case OpCode::WarpId: return set(op.result(), b.CreateUDiv(tid_, i32(warpSize)));
    case OpCode::SharedPtr: return set(op.result(), sharedBase(op.attr("offset")->getInt()));
    case OpCode::SharedAlloc: fail(op, "has no offset yet (run allocate-shared first)");
    case OpCode::VLoad: return emitLoad(op);
    case OpCode::VStore: return emitStore(op);
    case OpCode::AtomicRmw:
    case OpCode::AtomicCas: return emitAtomic(op);
    case OpCode::ShuffleXor: return set(op.result(), shuffleXor(get(op.operand(0)), int(op.attr("mask")->getInt())));
    case OpCode::CastPair: return emitCastPair(op);
    case OpCode::Mma: return emitMma(op);
    case OpCode::LdMatrix: return emitLdMatrix(op);
    case OpCode::CpAsync:
      if (!info.asyncCopy(b, get(op.operand(0)), get(op.operand(1)), int(op.attr("bytes")->getInt()),
                          op.numOperands() > 2 ? get(op.operand(2)) : nullptr))
        fail(op, "has no " + info.name() + " instruction");
      return;
    case OpCode::CpAsyncCommit:
      if (!info.asyncCommit(b)) fail(op, "has no " + info.name() + " instruction");
      return;
    case OpCode::CpAsyncWait:
      if (!info.asyncWait(b, int(op.attr("pending")->getInt()))) fail(op, "has no " + info.name() + " instruction");
      return;
    case OpCode::Wgmma: return emitWgmma(op);
    case OpCode::WgmmaFence: return warpgroupSync(op, TargetInfo::WarpgroupSync::Fence);
    case OpCode::WgmmaCommit: return warpgroupSync(op, TargetInfo::WarpgroupSync::Commit);
    case OpCode::FenceAsyncShared: return warpgroupSync(op, TargetInfo::WarpgroupSync::SharedFence);
    case OpCode::WgmmaWait: {
      std::vector<llvm::Value *> in;
      for (ir::Value *v : op.operands()) in.push_back(get(v));
      std::vector<llvm::Value *> outs = info.warpgroupWait(b, int(op.attr("pending")->getInt()), in);
      if (outs.size() != in.size()) fail(op, "has no " + info.name() + " instruction");
      for (unsigned i = 0; i < op.numResults(); ++i) set(op.result(i), outs[i]);
      return;
    }
    case OpCode::Barrier:
      if (!barrierThreads_) return info.barrier(b);
      if (!info.barrierOf(b, barrierThreads_)) fail(op, "among some threads has no " + info.name() + " instruction");
      return;
    case OpCode::WarpSpecialize: return emitWarpSpecialize(op);
    case OpCode::InlineAsm: return emitInlineAsm(op);
    case OpCode::HardwareRegister:
      if (llvm::Value *v = info.hardwareRegister(b, op.attr("name")->getString())) return set(op.result(), v);
      fail(op, "'" + op.attr("name")->getString() + "' is not available on the " + info.name() + " target");
    case OpCode::GridDependency: return info.gridDependency(b, op.attr("action")->getString() == "wait");
    case OpCode::Printf: return emitPrintf(op);
    case OpCode::Assert:
      return when(b.CreateNot(get(op.operand(0))), [&] {
        info.assertFail(b, m, op.attr("message")->getString(), op.loc().file, int(op.loc().line));
      });
    case OpCode::CheckFailed: return emitCheckFailed(op);
    case OpCode::Assume: return;
    case OpCode::For: return emitFor(op);
    case OpCode::If: return emitIf(op);
    case OpCode::While: return emitWhile(op);
    case OpCode::Yield:
    case OpCode::Condition:
    case OpCode::Return:
      return;  // handled by the parent
    default:
      fail(op, "cannot be emitted at the thread level (run lower-to-threads first)");
    }
  }

  // ---- memory

  llvm::Value *sharedBase(int64_t offset) {
    const char *name = "tessera_shared";
    llvm::GlobalVariable *g = m.getNamedGlobal(name);
    if (!g) {
      g = new llvm::GlobalVariable(m, llvm::ArrayType::get(b.getInt8Ty(), 0), false, llvm::GlobalValue::ExternalLinkage,
                                   nullptr, name, nullptr, llvm::GlobalValue::NotThreadLocal, info.sharedAddressSpace());
      g->setAlignment(llvm::Align(1024));  // buffers may ask for up to 1024 (allocate-shared)
    }
    return b.CreateConstGEP1_64(b.getInt8Ty(), g, uint64_t(offset));
  }

  // The shared-memory global, given its size.
  void sizeSharedMemory(int64_t bytes) {
    llvm::GlobalVariable *g = m.getNamedGlobal("tessera_shared");
    if (!g) return;
    auto *sized = new llvm::GlobalVariable(m, llvm::ArrayType::get(b.getInt8Ty(), uint64_t(bytes)), false,
                                           llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(llvm::ArrayType::get(b.getInt8Ty(), uint64_t(bytes))),
                                           "", nullptr, llvm::GlobalValue::NotThreadLocal, info.sharedAddressSpace());
    sized->setAlignment(llvm::Align(16));
    g->replaceAllUsesWith(sized);
    g->eraseFromParent();
    sized->setName("tessera_shared");
  }

  // `ptr` as a base argument with pointer_range = 32 plus a non-negative
  // byte offset (i32), for TargetInfo::rangedLoad / rangedStore.
  struct RangedAddress {
    llvm::Value *base, *byteOffset;
  };
  std::optional<RangedAddress> rangedAddress(const ir::Value *ptr) {
    if (rangedArguments_.empty()) return std::nullopt;
    const ir::Value *base = ptr, *offset = nullptr;
    if (const ir::Operation *def = ptr->definingOp(); def && def->is(OpCode::AddPtr))
      base = def->operand(0), offset = def->operand(1);
    if (!rangedArguments_.count(base)) return std::nullopt;
    // addptr sign-extends its offset: a wide unsigned one may read as negative.
    if (offset && (!nonNegative_.proves(offset) || (offset->type().isUnsigned() && offset->type().bitWidth() >= 32)))
      return std::nullopt;
    if (!offset) return RangedAddress{get(base), i32(0)};
    // Exact for every access the program makes: those offsets are below 2^31 bytes.
    llvm::Value *elements = b.CreateSExtOrTrunc(get(offset), b.getInt32Ty());
    return RangedAddress{get(base), b.CreateMul(elements, i32(int64_t(memoryBytes(base->type().pointee()))))};
  }

  void emitLoad(const ir::Operation &op) {
    ir::Type elem = op.result(0)->type();
    llvm::Type *st = storageType(elem);
    unsigned w = op.numResults();
    llvm::Type *vt = w == 1 ? st : llvm::FixedVectorType::get(st, w);
    bool isVolatile = op.attrs().getBool("volatile", false);
    llvm::Value *ptr = get(op.operand(0));
    auto load = [&]() -> llvm::Value * {
      llvm::LoadInst *ld = b.CreateAlignedLoad(vt, ptr, llvm::Align(uint64_t(w * memoryBytes(elem))));
      ld->setVolatile(isVolatile);
      return ld;
    };
    TargetInfo::CacheHints hints{op.attrs().getString("cache", ""), op.attrs().getString("evict", "")};
    bool global = op.operand(0)->type().addressSpace() != ir::AddressSpace::Shared;
    llvm::Value *v = nullptr;
    std::optional<RangedAddress> ranged = global && !isVolatile ? rangedAddress(op.operand(0)) : std::nullopt;
    if (op.numOperands() == 1) {
      if (ranged) v = info.rangedLoad(b, ranged->base, ranged->byteOffset, vt, nullptr, llvm::PoisonValue::get(vt));
      if (!v && hints.any() && global && !isVolatile) v = info.predicatedLoad(b, ptr, vt, b.getTrue(), llvm::PoisonValue::get(vt), hints);
      if (!v) v = load();
    } else {
      llvm::Value *fallback = llvm::PoisonValue::get(vt);
      for (unsigned i = 0; i < w; ++i) {
        llvm::Value *o = toStorage(get(op.operand(2 + i)), elem);
        fallback = w == 1 ? o : b.CreateInsertElement(fallback, o, uint64_t(i));
      }
      llvm::Value *pred = get(op.operand(1));
      if (ranged) v = info.rangedLoad(b, ranged->base, ranged->byteOffset, vt, pred, fallback);
      if (!v && !isVolatile && global) v = info.predicatedLoad(b, ptr, vt, pred, fallback, hints);
      if (!v) v = whenElse(pred, load, fallback);
    }
    for (unsigned i = 0; i < w; ++i)
      set(op.result(i), fromStorage(w == 1 ? v : b.CreateExtractElement(v, uint64_t(i)), elem));
  }

  void emitStore(const ir::Operation &op) {
    bool masked = op.attrs().getBool("masked", false);
    unsigned w = op.numOperands() - 1 - (masked ? 1 : 0);
    ir::Type elem = op.operand(1)->type();
    llvm::Type *st = storageType(elem);
    llvm::Type *vecTy = w == 1 ? st : llvm::FixedVectorType::get(st, w);
    llvm::Value *v = llvm::PoisonValue::get(vecTy);
    for (unsigned i = 0; i < w; ++i) {
      llvm::Value *e = toStorage(get(op.operand(1 + i)), elem);
      v = w == 1 ? e : b.CreateInsertElement(v, e, uint64_t(i));
    }
    llvm::Value *ptr = get(op.operand(0));
    auto store = [&] { b.CreateAlignedStore(v, ptr, llvm::Align(uint64_t(w * memoryBytes(elem)))); };
    TargetInfo::CacheHints hints{op.attrs().getString("cache", ""), op.attrs().getString("evict", "")};
    bool global = op.operand(0)->type().addressSpace() != ir::AddressSpace::Shared;
    llvm::Value *pred = masked ? get(op.operands().back()) : nullptr;
    if (global)
      if (std::optional<RangedAddress> ranged = rangedAddress(op.operand(0)))
        if (info.rangedStore(b, ranged->base, ranged->byteOffset, v, pred)) return;
    if (!masked) {
      if (!(hints.any() && global && info.predicatedStore(b, ptr, v, b.getTrue(), hints))) store();
      return;
    }
    if (!global || !info.predicatedStore(b, ptr, v, pred, hints)) when(pred, store);
  }

  void emitAtomic(const ir::Operation &op) {
    bool cas = op.is(OpCode::AtomicCas);
    ir::Type elem = op.result()->type();
    const std::string &sem = op.attr("sem")->getString();
    auto ordering = sem == "relaxed" ? llvm::AtomicOrdering::Monotonic
                    : sem == "acquire" ? llvm::AtomicOrdering::Acquire
                    : sem == "release" ? llvm::AtomicOrdering::Release : llvm::AtomicOrdering::AcquireRelease;
    auto failureOrdering = sem == "acquire" || sem == "acq_rel" ? llvm::AtomicOrdering::Acquire : llvm::AtomicOrdering::Monotonic;
    if (elem.isBool()) fail(op, "on i1 is not supported");
    llvm::Align align(uint64_t(memoryBytes(elem)));
    llvm::Value *ptr = get(op.operand(0)), *a = get(op.operand(1));
    TargetInfo::AtomicRequest request{cas ? "cas" : op.attr("kind")->getString(), sem,
                                      op.attrs().getString("scope", "gpu"), elem, ptr, a,
                                      cas ? get(op.operand(2)) : nullptr};
    if (info.ownsAtomics()) {
      auto targetAtomic = [&]() { return info.atomic(b, request); };
      if (cas || op.numOperands() < 3) return set(op.result(), targetAtomic());
      // Masked off: no access; the result is zero.
      return set(op.result(), whenElse(get(op.operand(2)), targetAtomic, llvm::Constant::getNullValue(computeType(elem))));
    }
    if (cas) {
      llvm::Type *it = b.getIntNTy(unsigned(elem.bitWidth()));
      llvm::Value *c = get(op.operand(2));
      auto *x = b.CreateAtomicCmpXchg(ptr, b.CreateBitCast(a, it), b.CreateBitCast(c, it), llvm::MaybeAlign(align),
                                      ordering, failureOrdering);
      return set(op.result(), b.CreateBitCast(b.CreateExtractValue(x, 0), computeType(elem)));
    }
    llvm::AtomicRMWInst::BinOp kind = atomicRmwOp(op.attr("kind")->getString(), elem);
    auto rmw = [&]() -> llvm::Value * { return b.CreateAtomicRMW(kind, ptr, a, llvm::MaybeAlign(align), ordering); };
    if (op.numOperands() < 3) return set(op.result(), rmw());
    // Masked off: no access; the result is zero.
    set(op.result(), whenElse(get(op.operand(2)), rmw, llvm::Constant::getNullValue(computeType(elem))));
  }

  // The value of `v` in lane (lane ^ laneMask): the target shuffles 32-bit
  // words, so narrower values widen and 64-bit ones go in two halves.
  llvm::Value *shuffleXor(llvm::Value *v, int laneMask) {
    llvm::Type *t = v->getType();
    if (t->isPointerTy()) return b.CreateIntToPtr(shuffleXor(b.CreatePtrToInt(v, b.getInt64Ty()), laneMask), t);
    unsigned bits = unsigned(t->getPrimitiveSizeInBits());
    llvm::Value *asInt = t->isIntegerTy() ? v : b.CreateBitCast(v, b.getIntNTy(bits));
    if (bits == 64) {
      llvm::Value *lo = b.CreateTrunc(asInt, b.getInt32Ty());
      llvm::Value *hi = b.CreateTrunc(b.CreateLShr(asInt, 32), b.getInt32Ty());
      lo = info.shuffleXor(b, lo, laneMask), hi = info.shuffleXor(b, hi, laneMask);
      llvm::Value *r = b.CreateOr(b.CreateZExt(lo, b.getInt64Ty()), b.CreateShl(b.CreateZExt(hi, b.getInt64Ty()), 32));
      return t->isIntegerTy() ? r : b.CreateBitCast(r, t);
    }
    llvm::Value *w = bits == 32 ? asInt : b.CreateZExt(asInt, b.getInt32Ty());
    llvm::Value *r = info.shuffleXor(b, w, laneMask);
    if (bits != 32) r = b.CreateTrunc(r, b.getIntNTy(bits));
    return t->isIntegerTy() ? r : b.CreateBitCast(r, t);
  }

  void emitCastPair(const ir::Operation &op) {
    ir::Type to = op.result(0)->type();
    llvm::Value *x = get(op.operand(0)), *y = get(op.operand(1));
    if (llvm::Value *pair = info.narrowPair(b, x, y, computeType(to))) {
      set(op.result(0), b.CreateExtractElement(pair, uint64_t(0)));
      set(op.result(1), b.CreateExtractElement(pair, uint64_t(1)));
      return;
    }
    set(op.result(0), castValue(x, ir::Type::f32(), to, "rtne", &op));
    set(op.result(1), castValue(y, ir::Type::f32(), to, "rtne", &op));
  }

  void emitMma(const ir::Operation &op) {
    std::vector<llvm::Value *> operands;
    for (ir::Value *v : op.operands()) operands.push_back(get(v));
    ir::Type a = op.operand(0)->type();
    std::vector<int64_t> shape = op.attr("shape")->getInts();
    int64_t lanes = shape[0] * shape[1] / int64_t(op.numResults());
    ir::Type bt = op.operand(unsigned(shape[0] * shape[2] / lanes))->type();
    std::vector<llvm::Value *> d = info.mma(b, shape, a, bt, op.result(0)->type(), operands);
    if (d.size() != op.numResults())
      fail(op, "has no " + info.name() + " instruction for this shape and these element types");
    for (unsigned i = 0; i < op.numResults(); ++i) set(op.result(i), d[i]);
  }

  void emitWgmma(const ir::Operation &op) {
    std::vector<int64_t> aDesc = op.attr("a_desc")->getInts();
    unsigned aOperands = ir::wgmmaAOperands(op);
    std::vector<llvm::Value *> a, acc;
    for (unsigned i = 0; i < aOperands; ++i) a.push_back(get(op.operand(i)));
    bool accumulate = !op.attrs().getBool("zero_acc", false);
    for (unsigned i = aOperands + 1; i < op.numOperands(); ++i)  // unread without accumulate: no moves to fill them
      acc.push_back(accumulate ? get(op.operand(i)) : llvm::UndefValue::get(get(op.operand(i))->getType()));
    ir::Type aType = aDesc.empty() ? op.operand(0)->type() : op.operand(0)->type().pointee();
    std::vector<llvm::Value *> d =
        info.warpgroupMma(b, op.attr("shape")->getInts(), aType, op.operand(aOperands)->type().pointee(), a,
                          get(op.operand(aOperands)), aDesc, op.attr("b_desc")->getInts(), acc, accumulate);
    if (d.size() != op.numResults())
      fail(op, "has no " + info.name() + " instruction for this shape and these element types");
    for (unsigned i = 0; i < op.numResults(); ++i) set(op.result(i), d[i]);
  }

  void warpgroupSync(const ir::Operation &op, TargetInfo::WarpgroupSync kind) {
    if (!info.warpgroupSync(b, kind)) fail(op, "has no " + info.name() + " instruction");
  }

  void emitLdMatrix(const ir::Operation &op) {
    int matrices = int(op.numResults() / 2);
    std::vector<llvm::Value *> words = info.loadMatrices(b, get(op.operand(0)), matrices, op.attrs().getBool("trans", false));
    if (words.size() != size_t(matrices)) fail(op, "has no " + info.name() + " instruction");
    llvm::Type *elem = computeType(op.result(0)->type());
    for (int i = 0; i < matrices; ++i) {
      llvm::Value *pair = b.CreateBitCast(words[size_t(i)], llvm::FixedVectorType::get(elem, 2));
      set(op.result(unsigned(2 * i)), b.CreateExtractElement(pair, uint64_t(0)));
      set(op.result(unsigned(2 * i + 1)), b.CreateExtractElement(pair, uint64_t(1)));
    }
  }

  // The user's assembly as LLVM inline asm. Each operand and result goes in
  // the register its constraint names (h: 16, r: 32, l: 64 bits; f, d: f32,
  // f64), converted from its value by bitcast, or zero-extension and
  // truncation for a narrower integer.
  void emitInlineAsm(const ir::Operation &op) {
    std::string constraints;
    for (char c : op.attr("constraints")->getString())
      if (!std::isspace(static_cast<unsigned char>(c))) constraints += c;
    std::vector<std::string> outputs, inputs;
    std::istringstream list(constraints);
    for (std::string c; std::getline(list, c, ',');) {
      if (!c.empty() && c[0] == '=') outputs.push_back(c.substr(1));
      else if (!c.empty() && c[0] != '~') inputs.push_back(c);
    }
    if (outputs.size() != op.numResults() || inputs.size() != op.numOperands())
      fail(op, "has constraints for " + std::to_string(outputs.size()) + " outputs and " + std::to_string(inputs.size()) +
                   " inputs, but its registers are " + std::to_string(op.numResults()) + " outputs and " +
                   std::to_string(op.numOperands()) + " inputs (with pack, narrow elements share 32-bit registers)");
    auto regType = [&](const std::string &c, llvm::Type *value) -> llvm::Type * {
      char k = c.empty() ? ' ' : c[0];
      if (k == 'h') return b.getInt16Ty();
      if (k == 'r') return b.getInt32Ty();
      if (k == 'l') return b.getInt64Ty();
      if (k == 'f') return b.getFloatTy();
      if (k == 'd') return b.getDoubleTy();
      return value;
    };
    auto convert = [&](llvm::Value *v, llvm::Type *to) -> llvm::Value * {
      llvm::Type *from = v->getType();
      if (from == to) return v;
      if (from->isPointerTy()) return b.CreatePtrToInt(v, to);
      unsigned fw = from->getPrimitiveSizeInBits(), tw = to->getPrimitiveSizeInBits();
      if (fw == tw) return b.CreateBitCast(v, to);
      if (!from->isIntegerTy()) v = b.CreateBitCast(v, b.getIntNTy(fw));
      if (!to->isIntegerTy()) {
        v = b.CreateZExtOrTrunc(v, b.getIntNTy(tw));
        return b.CreateBitCast(v, to);
      }
      return b.CreateZExtOrTrunc(v, to);
    };
    std::vector<llvm::Value *> args;
    std::vector<llvm::Type *> argTys, resultTys;
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      llvm::Value *v = get(op.operand(i));
      llvm::Value *r = convert(v, regType(inputs[i], v->getType()));
      args.push_back(r);
      argTys.push_back(r->getType());
    }
    for (unsigned i = 0; i < op.numResults(); ++i) resultTys.push_back(regType(outputs[i], storageType(op.result(i)->type())));
    llvm::Type *ret = resultTys.empty()       ? b.getVoidTy()
                      : resultTys.size() == 1 ? resultTys[0]
                                              : llvm::StructType::get(ctx, resultTys);
    auto *fty = llvm::FunctionType::get(ret, argTys, false);
    if (llvm::Error e = llvm::InlineAsm::verify(fty, constraints))
      fail(op, "has constraints LLVM rejects ('" + constraints + "'): " + llvm::toString(std::move(e)));
    llvm::Value *call = b.CreateCall(
        llvm::InlineAsm::get(fty, op.attr("asm")->getString(), constraints, !op.attr("pure")->getBool()), args);
    for (unsigned i = 0; i < op.numResults(); ++i) {
      llvm::Value *r = resultTys.size() == 1 ? call : b.CreateExtractValue(call, {i});
      set(op.result(i), convert(r, storageType(op.result(i)->type())));
    }
  }

  void emitPrintf(const ir::Operation &op) {
    std::vector<llvm::Value *> args;
    for (ir::Value *v : op.operands()) {
      llvm::Value *x = get(v);
      args.push_back(v->type().isPointer() ? b.CreateAddrSpaceCast(x, b.getPtrTy()) : x);
    }
    info.print(b, m, op.attr("format")->getString(), args);
  }

  // The program's first thread reports for it (ir/Ops.def, check_failed).
  void emitCheckFailed(const ir::Operation &op) {
    llvm::Value *tid = info.threadId(b);
    llvm::Value *first = b.CreateICmpEQ(tid, llvm::ConstantInt::get(tid->getType(), 0));
    llvm::Value *pids[3] = {info.programId(b, 0), info.programId(b, 1), info.programId(b, 2)};
    recordCheckFailure(b, op, get(op.operand(0)), b.CreateAnd(get(op.operand(1)), first), get(op.operand(2)), pids);
  }

  // ---- control flow

  void when(llvm::Value *cond, const std::function<void()> &then) {
    llvm::BasicBlock *thenBB = llvm::BasicBlock::Create(ctx, "when", fn), *done = llvm::BasicBlock::Create(ctx, "when.end", fn);
    b.CreateCondBr(cond, thenBB, done);
    b.SetInsertPoint(thenBB);
    then();
    b.CreateBr(done);
    b.SetInsertPoint(done);
  }

  llvm::Value *whenElse(llvm::Value *cond, const std::function<llvm::Value *()> &then, llvm::Value *otherwise) {
    llvm::BasicBlock *pre = b.GetInsertBlock(), *end = nullptr;
    llvm::Value *v = nullptr;
    when(cond, [&] {
      v = then();
      end = b.GetInsertBlock();
    });
    llvm::PHINode *phi = b.CreatePHI(v->getType(), 2);
    phi->addIncoming(v, end);
    phi->addIncoming(otherwise, pre);
    return phi;
  }

  std::vector<llvm::PHINode *> phis(const std::vector<llvm::Value *> &inits, llvm::BasicBlock *from) {
    std::vector<llvm::PHINode *> out;
    for (llvm::Value *v : inits) {
      llvm::PHINode *p = b.CreatePHI(v->getType(), 2);
      p->addIncoming(v, from);
      out.push_back(p);
    }
    return out;
  }

  void bind(const std::vector<ir::Value *> &targets, const std::vector<llvm::Value *> &values) {
    for (size_t k = 0; k < targets.size(); ++k) set(targets[k], values[k]);
  }
  template <typename T> static std::vector<llvm::Value *> asValues(const std::vector<T *> &v) {
    return std::vector<llvm::Value *>(v.begin(), v.end());
  }

  // The producer's warps branch off: the first runs the region, then all
  // return; the code after it runs on the consumers alone, whose barriers
  // then count only them (ir/Ops.def).
  void emitWarpSpecialize(const ir::Operation &op) {
    llvm::BasicBlock *producer = llvm::BasicBlock::Create(ctx, "producer", fn);
    llvm::BasicBlock *issuer = llvm::BasicBlock::Create(ctx, "producer.issuer", fn);
    llvm::BasicBlock *exit = llvm::BasicBlock::Create(ctx, "producer.exit", fn);
    llvm::BasicBlock *consumers = llvm::BasicBlock::Create(ctx, "consumers", fn);
    b.CreateCondBr(b.CreateICmpULT(tid_, i32(consumerThreads_)), consumers, producer);
    int producerThreads = warpSize * int(op.attr("producer_warps")->getInt());
    b.SetInsertPoint(producer);
    info.rebalanceRegisters(b, true, consumerThreads_, producerThreads);
    b.CreateCondBr(b.CreateICmpULT(tid_, i32(consumerThreads_ + warpSize)), issuer, exit);
    b.SetInsertPoint(issuer);
    emitBlock(op.region(0).block());
    b.CreateBr(exit);
    b.SetInsertPoint(exit);
    b.CreateRetVoid();
    b.SetInsertPoint(consumers);
    info.rebalanceRegisters(b, false, consumerThreads_, producerThreads);
    barrierThreads_ = consumerThreads_;
  }

  void emitIf(const ir::Operation &op) {
    llvm::BasicBlock *thenBB = llvm::BasicBlock::Create(ctx, "then", fn), *elseBB = llvm::BasicBlock::Create(ctx, "else", fn);
    llvm::BasicBlock *merge = llvm::BasicBlock::Create(ctx, "endif", fn);
    b.CreateCondBr(get(op.operand(0)), thenBB, elseBB);
    std::vector<llvm::Value *> yielded[2];
    llvm::BasicBlock *ends[2];
    for (unsigned r = 0; r < 2; ++r) {
      b.SetInsertPoint(r == 0 ? thenBB : elseBB);
      const ir::Block &blk = op.region(r).block();
      emitBlock(blk);
      yielded[r] = getAll(blk.terminator()->operands());
      ends[r] = b.GetInsertBlock();
      b.CreateBr(merge);
    }
    b.SetInsertPoint(merge);
    for (unsigned k = 0; k < op.numResults(); ++k) {
      llvm::PHINode *p = b.CreatePHI(yielded[0][k]->getType(), 2);
      p->addIncoming(yielded[0][k], ends[0]);
      p->addIncoming(yielded[1][k], ends[1]);
      set(op.result(k), p);
    }
  }

  // The body at induction variable `iv` with `carried`: what it yields.
  std::vector<llvm::Value *> emitIteration(const ir::Block &body, llvm::Value *iv, const std::vector<llvm::Value *> &carried) {
    set(body.argument(0), iv);
    for (unsigned k = 1; k < body.numArguments(); ++k) set(body.argument(k), carried[k - 1]);
    emitBlock(body);
    return getAll(body.terminator()->operands());
  }

  void emitFor(const ir::Operation &op) {
    if (const ir::Attribute *u = op.attr("unroll"); u && u->isInt() && u->getInt() >= 2) {
      emitUnrolledFor(op, u->getInt());
      return;
    }
    const ir::Block &body = op.region(0).block();
    bool sgn = op.operand(0)->type().isSigned();
    llvm::Value *lb = get(op.operand(0)), *ub = get(op.operand(1)), *step = get(op.operand(2));
    std::vector<llvm::Value *> inits = getAll({op.operands().begin() + 3, op.operands().end()});
    auto less = [&](llvm::Value *x) { return sgn ? b.CreateICmpSLT(x, ub) : b.CreateICmpULT(x, ub); };
    llvm::BasicBlock *pre = b.GetInsertBlock();
    // A loop known to run (pipeline-loops' guarded drain) is emitted tested
    // at its bottom: no path that skips it, as LLVM's loop rotation would add.
    bool nonempty = op.attr("nonempty") && op.attr("nonempty")->getBool();
    llvm::BasicBlock *head = llvm::BasicBlock::Create(ctx, "for", fn);
    llvm::BasicBlock *bodyBB = nonempty ? head : llvm::BasicBlock::Create(ctx, "for.body", fn);
    llvm::BasicBlock *exit = llvm::BasicBlock::Create(ctx, "for.end", fn);
    b.CreateBr(head);
    b.SetInsertPoint(head);
    llvm::PHINode *iv = b.CreatePHI(lb->getType(), 2);
    iv->addIncoming(lb, pre);
    std::vector<llvm::PHINode *> carried = phis(inits, pre);
    if (!nonempty) b.CreateCondBr(less(iv), bodyBB, exit);
    b.SetInsertPoint(bodyBB);
    std::vector<llvm::Value *> next = emitIteration(body, iv, asValues(carried));
    llvm::BasicBlock *latch = b.GetInsertBlock();
    llvm::Value *ivNext = b.CreateAdd(iv, step);
    iv->addIncoming(ivNext, latch);
    for (size_t k = 0; k < carried.size(); ++k) carried[k]->addIncoming(next[k], latch);
    annotateLoop(nonempty ? b.CreateCondBr(less(ivNext), head, exit) : b.CreateBr(head), op);
    b.SetInsertPoint(exit);
    bind(op.results(), nonempty ? next : asValues(carried));
  }

  // A loop's induction variable and carried values at the top of a block.
  struct LoopPhis {
    llvm::PHINode *iv;
    std::vector<llvm::PHINode *> carried;
    void add(llvm::Value *ivIn, const std::vector<llvm::Value *> &values, llvm::BasicBlock *from) {
      iv->addIncoming(ivIn, from);
      for (size_t k = 0; k < carried.size(); ++k) carried[k]->addIncoming(values[k], from);
    }
    std::vector<llvm::Value *> values() const { return asValues(carried); }
  };

  LoopPhis loopPhis(llvm::Type *ivType, const std::vector<llvm::Value *> &like) {
    LoopPhis p{b.CreatePHI(ivType, 3), {}};
    for (llvm::Value *v : like) p.carried.push_back(b.CreatePHI(v->getType(), 3));
    return p;
  }

  // unroll = n: a loop of n copies of the body while n iterations remain,
  // then a loop of one copy for the rest, both tested at their bottom.
  // Consecutive iterations then run different copies, whose registers are
  // apart (a wgmma in flight still reads the last one's; see Wgmma.cpp). A
  // nonempty loop keeps every path through a copy: with fewer than n
  // iterations it goes straight to the second loop.
  void emitUnrolledFor(const ir::Operation &op, int64_t n) {
    const ir::Block &body = op.region(0).block();
    bool sgn = op.operand(0)->type().isSigned();
    llvm::Value *lb = get(op.operand(0)), *ub = get(op.operand(1)), *step = get(op.operand(2));
    std::vector<llvm::Value *> inits = getAll({op.operands().begin() + 3, op.operands().end()});
    bool nonempty = op.attr("nonempty") && op.attr("nonempty")->getBool();
    auto less = [&](llvm::Value *x) { return sgn ? b.CreateICmpSLT(x, ub) : b.CreateICmpULT(x, ub); };
    // Whether iterations iv .. iv + (n-1) step all run, in 64 bits (no
    // wrap for 32-bit bounds).
    auto groupFits = [&](llvm::Value *iv) {
      llvm::Type *i64 = b.getInt64Ty();
      auto wide = [&](llvm::Value *v) { return sgn ? b.CreateSExtOrTrunc(v, i64) : b.CreateZExtOrTrunc(v, i64); };
      llvm::Value *last = b.CreateAdd(wide(iv), b.CreateMul(wide(step), llvm::ConstantInt::get(i64, n - 1)));
      return sgn || lb->getType()->getIntegerBitWidth() < 64 ? b.CreateICmpSLT(last, wide(ub)) : b.CreateICmpULT(last, wide(ub));
    };
    llvm::BasicBlock *pre = b.GetInsertBlock();
    llvm::BasicBlock *group = llvm::BasicBlock::Create(ctx, "for.unrolled", fn);
    llvm::BasicBlock *rest = llvm::BasicBlock::Create(ctx, "for.rest.test", fn);
    llvm::BasicBlock *single = llvm::BasicBlock::Create(ctx, "for.rest", fn);
    llvm::BasicBlock *exit = llvm::BasicBlock::Create(ctx, "for.end", fn);
    b.CreateCondBr(groupFits(lb), group, nonempty ? single : rest);
    // n copies per iteration.
    b.SetInsertPoint(group);
    LoopPhis g = loopPhis(lb->getType(), inits);
    g.add(lb, inits, pre);
    std::vector<llvm::Value *> values = g.values();
    llvm::Value *iv = g.iv;
    for (int64_t c = 0; c < n; ++c) {
      values = emitIteration(body, iv, values);
      iv = b.CreateAdd(iv, step);
    }
    llvm::BasicBlock *gLatch = b.GetInsertBlock();
    g.add(iv, values, gLatch);
    annotateLoop(b.CreateCondBr(groupFits(iv), group, rest), op);
    // What is left: any iterations at all?
    b.SetInsertPoint(rest);
    LoopPhis r = loopPhis(lb->getType(), inits);
    r.add(iv, values, gLatch);
    if (!nonempty) r.add(lb, inits, pre);
    b.CreateCondBr(less(r.iv), single, exit);
    // One copy per iteration.
    b.SetInsertPoint(single);
    LoopPhis one = loopPhis(lb->getType(), inits);
    one.add(r.iv, r.values(), rest);
    if (nonempty) one.add(lb, inits, pre);
    std::vector<llvm::Value *> next = emitIteration(body, one.iv, one.values());
    llvm::BasicBlock *sLatch = b.GetInsertBlock();
    llvm::Value *sNext = b.CreateAdd(one.iv, step);
    one.add(sNext, next, sLatch);
    annotateLoop(b.CreateCondBr(less(sNext), single, exit), op);
    b.SetInsertPoint(exit);
    std::vector<llvm::Value *> results;
    for (size_t k = 0; k < next.size(); ++k) {
      llvm::PHINode *p = b.CreatePHI(next[k]->getType(), 2);
      p->addIncoming(r.carried[k], rest);
      p->addIncoming(next[k], sLatch);
      results.push_back(p);
    }
    bind(op.results(), results);
  }

  void emitWhile(const ir::Operation &op) {
    const ir::Block &before = op.region(0).block(), &after = op.region(1).block();
    std::vector<llvm::Value *> inits = getAll(op.operands());
    llvm::BasicBlock *pre = b.GetInsertBlock();
    llvm::BasicBlock *head = llvm::BasicBlock::Create(ctx, "while", fn), *bodyBB = llvm::BasicBlock::Create(ctx, "while.body", fn);
    llvm::BasicBlock *exit = llvm::BasicBlock::Create(ctx, "while.end", fn);
    b.CreateBr(head);
    b.SetInsertPoint(head);
    std::vector<llvm::PHINode *> carried = phis(inits, pre);
    bind(before.arguments(), asValues(carried));
    emitBlock(before);
    const ir::Operation *cond = before.terminator();
    std::vector<llvm::Value *> passed = getAll({cond->operands().begin() + 1, cond->operands().end()});
    llvm::BasicBlock *condEnd = b.GetInsertBlock();
    b.CreateCondBr(get(cond->operand(0)), bodyBB, exit);
    b.SetInsertPoint(bodyBB);
    bind(after.arguments(), passed);
    emitBlock(after);
    std::vector<llvm::Value *> next = getAll(after.terminator()->operands());
    llvm::BasicBlock *latch = b.GetInsertBlock();
    for (size_t k = 0; k < carried.size(); ++k) carried[k]->addIncoming(next[k], latch);
    annotateLoop(b.CreateBr(head), op);
    b.SetInsertPoint(exit);
    // The results are what the condition passed on its last evaluation.
    for (unsigned k = 0; k < op.numResults(); ++k) {
      llvm::PHINode *p = b.CreatePHI(passed[k]->getType(), 1);
      p->addIncoming(passed[k], condEnd);
      set(op.result(k), p);
    }
  }

  const TargetInfo &info;
  int warpSize;
  int consumerThreads_ = 0;  // threads of num_warps warps
  int barrierThreads_ = 0;   // after a warp_specialize: the threads its barriers meet
  llvm::Function *fn = nullptr;
  llvm::Value *tid_ = nullptr;
  std::unordered_map<const ir::Value *, llvm::Value *> values_;
  std::unordered_set<const ir::Value *> rangedArguments_;  // pointer_range = 32
  ir::NonNegative nonNegative_;
};

} // namespace

bool emitThreadKernel(const ir::Module &source, const ir::Function &kernel, const std::string &symbol,
                      const TargetInfo &info, const TargetOptions &options, llvm::Module &m, GpuKernelInfo &out,
                      std::string &error) {
  int warpSize = int(source.attrs().getInt("warp_size", 0)), numWarps = int(source.attrs().getInt("num_warps", 0));
  if (warpSize < 1 || numWarps < 1) {
    error = "internal error: " + info.name() + ": no warp size or warp count for @" + kernel.name() +
            " (module attributes warp_size, num_warps)";
    return false;
  }
  if (!kernel.isThreadLevel()) {
    error = "internal error: " + info.name() + ": kernel @" + kernel.name() + " is not at the thread level";
    return false;
  }
  ThreadEmitter emitter(m, info, warpSize, options.fpFusion);
  try {
    emitter.emitKernel(kernel, symbol, warpSize * numWarps, options.maxRegisters, out);
  } catch (const LoweringError &e) {
    error = e.message;
    return false;
  }
  return verifyLowered(m, info.name(), error);
}

} // namespace tessera::targets::llvmgen
