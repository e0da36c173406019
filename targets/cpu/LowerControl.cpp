// Structured control flow, printing, assertions, and the kernel's entry point.
#include "targets/cpu/Lowering.h"

#include "ir/PrintFormat.h"

#include "llvm/IR/MDBuilder.h"

#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

namespace tessera::targets::cpu {

using ir::OpCode;

namespace {

// Where a value's storage lives across iterations: a phi for scalars, a
// dedicated buffer for tiles (so the body may reuse its own buffers).
struct Carried {
  bool tile;
  llvm::PHINode *phi = nullptr;
  llvm::Value *buf = nullptr;
};

std::vector<llvm::Value *> buffersOf(const std::vector<Carried> &carried) {
  std::vector<llvm::Value *> bufs;
  for (const Carried &c : carried) bufs.push_back(c.buf);
  return bufs;
}

} // namespace

// The next iteration's carried tiles, written straight into their buffers.
// A yield reads carried buffers (if at all) at the chunk it writes: lazy
// yields are elementwise chains, and a yield that is another carried buffer
// (a swap) is read at the same index. So the yields of one length are stored
// by one loop that computes a chunk of each before storing any: no
// temporaries, and nothing is read after it is overwritten (matmul's
// advancing pointer tiles, layer norm's accumulators, swaps).
void Lowering::storeYields(const ir::Operation &y, const std::vector<llvm::Value *> &bufs) {
  unsigned n = unsigned(bufs.size());
  std::vector<bool> done(n);
  for (unsigned k = 0; k < n; ++k) done[k] = !bufs[k] || get(y.operand(k)).buf == bufs[k];  // scalars; in place
  for (unsigned k = 0; k < n; ++k) {
    if (done[k]) continue;
    std::vector<unsigned> group;
    ir::Type widest = y.operand(k)->type();
    for (unsigned j = k; j < n; ++j)
      if (!done[j] && y.operand(j)->type().numElements() == widest.numElements()) {
        group.push_back(j);
        done[j] = true;
        if (y.operand(j)->type().bitWidth() > widest.bitWidth()) widest = y.operand(j)->type();
      }
    unsigned w = vectorWidth(widest);
    loop(i64(0), i64(widest.numElements()), w, [&](llvm::Value *i) {
      std::vector<llvm::Value *> chunks;
      for (unsigned j : group) chunks.push_back(loadChunk(y.operand(j), i, w));
      for (size_t g = 0; g < group.size(); ++g)
        storeChunk(bufs[group[g]], y.operand(group[g])->type().element(), i, chunks[g]);
    });
  }
}

void Lowering::lowerIf(const ir::Operation &op) {
  llvm::BasicBlock *thenBB = llvm::BasicBlock::Create(ctx, "then", fn), *elseBB = llvm::BasicBlock::Create(ctx, "else", fn);
  llvm::BasicBlock *merge = llvm::BasicBlock::Create(ctx, "endif", fn);
  b.CreateCondBr(get(op.operand(0)).scalar, thenBB, elseBB);
  std::vector<std::vector<llvm::Value *>> yielded(2);
  std::vector<llvm::BasicBlock *> ends(2);
  // Tile results are copied into one buffer per result in each branch.
  std::vector<llvm::Value *> bufs;
  for (unsigned i = 0; i < op.numResults(); ++i)
    bufs.push_back(op.result(i)->type().isTile() ? newBuffer(op.result(i)->type()) : nullptr);
  for (unsigned r = 0; r < 2; ++r) {
    b.SetInsertPoint(r == 0 ? thenBB : elseBB);
    const ir::Block &blk = op.region(r).block();
    lowerBlock(blk);
    const ir::Operation *y = blk.terminator();
    for (unsigned i = 0; i < op.numResults(); ++i) {
      if (bufs[i]) copyTile(bufs[i], y->operand(i));
      else yielded[r].push_back(get(y->operand(i)).scalar);
    }
    ends[r] = b.GetInsertBlock();
    b.CreateBr(merge);
  }
  b.SetInsertPoint(merge);
  unsigned s = 0;
  for (unsigned i = 0; i < op.numResults(); ++i) {
    if (bufs[i]) {
      set(op.result(i), {nullptr, bufs[i]});
      continue;
    }
    llvm::PHINode *phi = b.CreatePHI(yielded[0][s]->getType(), 2);
    phi->addIncoming(yielded[0][s], ends[0]);
    phi->addIncoming(yielded[1][s], ends[1]);
    set(op.result(i), {phi});
    ++s;
  }
}

void Lowering::lowerFor(const ir::Operation &op) {
  const ir::Block &body = op.region(0).block();
  ir::Type ivType = op.operand(0)->type();
  bool sgn = ivType.isSigned();
  llvm::Value *lb = get(op.operand(0)).scalar, *ub = get(op.operand(1)).scalar, *step = get(op.operand(2)).scalar;
  unsigned n = op.numResults();
  std::vector<Carried> carried(n);
  for (unsigned k = 0; k < n; ++k) {
    carried[k].tile = op.result(k)->type().isTile();
    if (carried[k].tile) {
      carried[k].buf = newBuffer(op.result(k)->type());
      copyTile(carried[k].buf, op.operand(3 + k));
    }
  }
  llvm::BasicBlock *pre = b.GetInsertBlock();
  llvm::BasicBlock *head = llvm::BasicBlock::Create(ctx, "for", fn), *bodyBB = llvm::BasicBlock::Create(ctx, "for.body", fn);
  llvm::BasicBlock *exit = llvm::BasicBlock::Create(ctx, "for.end", fn);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  llvm::PHINode *iv = b.CreatePHI(lb->getType(), 2);
  iv->addIncoming(lb, pre);
  for (unsigned k = 0; k < n; ++k)
    if (!carried[k].tile) {
      llvm::Value *init = get(op.operand(3 + k)).scalar;
      carried[k].phi = b.CreatePHI(init->getType(), 2);
      carried[k].phi->addIncoming(init, pre);
    }
  b.CreateCondBr(sgn ? b.CreateICmpSLT(iv, ub) : b.CreateICmpULT(iv, ub), bodyBB, exit);
  b.SetInsertPoint(bodyBB);
  set(body.argument(0), {iv});
  for (unsigned k = 0; k < n; ++k)
    set(body.argument(k + 1), carried[k].tile ? Lowered{nullptr, carried[k].buf} : Lowered{carried[k].phi});
  lowerBlock(body);
  const ir::Operation *y = body.terminator();
  storeYields(*y, buffersOf(carried));
  llvm::Value *next = b.CreateAdd(iv, step);
  llvm::BasicBlock *latch = b.GetInsertBlock();
  iv->addIncoming(next, latch);
  for (unsigned k = 0; k < n; ++k)
    if (!carried[k].tile) carried[k].phi->addIncoming(get(y->operand(k)).scalar, latch);
  llvmgen::annotateLoop(continueUnlessInterrupted(head), op);
  b.SetInsertPoint(exit);
  for (unsigned k = 0; k < n; ++k)
    set(op.result(k), carried[k].tile ? Lowered{nullptr, carried[k].buf} : Lowered{carried[k].phi});
}

void Lowering::lowerWhile(const ir::Operation &op) {
  const ir::Block &before = op.region(0).block(), &after = op.region(1).block();
  unsigned n = op.numOperands();
  std::vector<Carried> carried(n);
  for (unsigned k = 0; k < n; ++k) {
    carried[k].tile = op.operand(k)->type().isTile();
    if (carried[k].tile) {
      carried[k].buf = newBuffer(op.operand(k)->type());
      copyTile(carried[k].buf, op.operand(k));
    }
  }
  llvm::BasicBlock *pre = b.GetInsertBlock();
  llvm::BasicBlock *head = llvm::BasicBlock::Create(ctx, "while", fn), *bodyBB = llvm::BasicBlock::Create(ctx, "while.body", fn);
  llvm::BasicBlock *exit = llvm::BasicBlock::Create(ctx, "while.end", fn);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  for (unsigned k = 0; k < n; ++k)
    if (!carried[k].tile) {
      llvm::Value *init = get(op.operand(k)).scalar;
      carried[k].phi = b.CreatePHI(init->getType(), 2);
      carried[k].phi->addIncoming(init, pre);
    }
  for (unsigned k = 0; k < n; ++k)
    set(before.argument(k), carried[k].tile ? Lowered{nullptr, carried[k].buf} : Lowered{carried[k].phi});
  lowerBlock(before);
  const ir::Operation *cond = before.terminator();
  // Forwarded values live until the next evaluation of the condition.
  for (unsigned k = 0; k + 1 < cond->numOperands(); ++k) {
    Lowered l = get(cond->operand(k + 1));
    if (l.isTile()) {
      llvm::Value *keep = newBuffer(cond->operand(k + 1)->type());
      copyTile(keep, cond->operand(k + 1));
      l = {nullptr, keep};
    }
    set(after.argument(k), l);
    set(op.result(k), l);
  }
  b.CreateCondBr(get(cond->operand(0)).scalar, bodyBB, exit);
  b.SetInsertPoint(bodyBB);
  lowerBlock(after);
  const ir::Operation *y = after.terminator();
  storeYields(*y, buffersOf(carried));
  llvm::BasicBlock *latch = b.GetInsertBlock();
  for (unsigned k = 0; k < n; ++k)
    if (!carried[k].tile) carried[k].phi->addIncoming(get(y->operand(k)).scalar, latch);
  llvmgen::annotateLoop(continueUnlessInterrupted(head), op);
  b.SetInsertPoint(exit);
}

llvm::Instruction *Lowering::continueUnlessInterrupted(llvm::BasicBlock *head) {
  llvm::GlobalVariable *flag = m.getGlobalVariable("tessera_host_interrupted");
  if (!flag)
    flag = new llvm::GlobalVariable(m, b.getInt32Ty(), /*isConstant=*/false, llvm::GlobalValue::ExternalLinkage, nullptr,
                                    "tessera_host_interrupted");
  if (!interruptedExit_) {
    interruptedExit_ = llvm::BasicBlock::Create(ctx, "interrupted", fn);
    llvm::IRBuilder<>(interruptedExit_).CreateRetVoid();
  }
  llvm::LoadInst *seen = b.CreateLoad(b.getInt32Ty(), flag);
  seen->setVolatile(true);  // read again each iteration
  llvm::MDBuilder weights(ctx);
  return b.CreateCondBr(b.CreateICmpNE(seen, b.getInt32(0)), interruptedExit_, head, weights.createBranchWeights(1, 1 << 20));
}

// ---- printing and assertions

void Lowering::lowerPrint(const ir::Operation &op) {
  llvm::FunctionCallee dprintf = m.getOrInsertFunction(
      "dprintf", llvm::FunctionType::get(b.getInt32Ty(), {b.getInt32Ty(), b.getPtrTy()}, true));
  auto call = [&](const std::string &format, const std::vector<llvm::Value *> &rest) {
    std::vector<llvm::Value *> args = {b.getInt32(1), b.CreateGlobalStringPtr(format), pid[0], pid[1], pid[2]};
    args.insert(args.end(), rest.begin(), rest.end());
    b.CreateCall(dprintf, args);
  };
  if (op.numOperands() == 0) return call(ir::printBareFormat(op), {});
  bool hex = op.attrs().getBool("hex", false);
  for (size_t n = 0; n < op.numOperands(); ++n) {
    const ir::Value *v = op.operand(n);
    ir::Type e = v->type().element();
    std::string format = ir::printElementFormat(op, n);
    auto emitOne = [&](llvm::Value *x, std::vector<llvm::Value *> rest) {
      if (e.isFloat()) x = castValue(x, e, ir::printArgumentType(e, hex), "rtne", &op);
      else if (!e.isPointer() && e.bitWidth() < 32)
        x = e.isSigned() && !hex ? b.CreateSExt(x, b.getInt32Ty()) : b.CreateZExt(x, b.getInt32Ty());
      rest.push_back(x);
      call(format, rest);
    };
    if (!v->type().isTile()) {
      emitOne(get(v).scalar, {});
      continue;
    }
    const std::vector<int64_t> &shape = v->type().shape();
    loop(i64(0), i64(v->type().numElements()), 1, [&](llvm::Value *flat) {
      std::vector<llvm::Value *> index(shape.size());
      int64_t stride = 1;
      for (size_t d = shape.size(); d-- > 0;) {
        index[d] = b.CreateURem(b.CreateUDiv(flat, i64(stride)), i64(shape[d]));
        stride *= shape[d];
      }
      emitOne(loadElement(v, flat), index);
    });
  }
}

void Lowering::lowerAssert(const ir::Operation &op) {
  const ir::Value *c = op.operand(0);
  llvm::Value *ok;
  if (!c->type().isTile()) {
    ok = get(c).scalar;
  } else {
    llvm::Value *all = entryAlloca(b.getInt1Ty(), 1);
    b.CreateStore(b.getTrue(), all);
    loop(i64(0), i64(c->type().numElements()), 1, [&](llvm::Value *i) {
      b.CreateStore(b.CreateAnd(b.CreateLoad(b.getInt1Ty(), all), loadElement(c, i)), all);
    });
    ok = b.CreateLoad(b.getInt1Ty(), all);
  }
  emitAssertCheck(op, ok);
}

void Lowering::emitAssertCheck(const ir::Operation &op, llvm::Value *ok) {
  llvm::BasicBlock *failBB = llvm::BasicBlock::Create(ctx, "assert.fail", fn), *cont = llvm::BasicBlock::Create(ctx, "assert.ok", fn);
  b.CreateCondBr(ok, cont, failBB);
  b.SetInsertPoint(failBB);
  llvm::FunctionCallee report = m.getOrInsertFunction(
      "tessera_host_assert_fail", llvm::FunctionType::get(b.getVoidTy(), {b.getPtrTy(), b.getPtrTy(), b.getInt32Ty()}, false));
  b.CreateCall(report, {b.CreateGlobalStringPtr(op.attr("message")->getString()), b.CreateGlobalStringPtr(op.loc().file),
                        b.getInt32(op.loc().line)});
  b.CreateBr(cont);
  b.SetInsertPoint(cont);
}

void Lowering::lowerCheckFailed(const ir::Operation &op) {
  llvmgen::recordCheckFailure(b, op, get(op.operand(0)).scalar, get(op.operand(1)).scalar, get(op.operand(2)).scalar,
                              pid);
}

// ---- the kernel

void Lowering::lowerBody(const ir::Function &kernel, llvm::Function *f, llvm::Value *p[3], llvm::Value *g[3]) {
  fn = f;
  axis_ = std::make_unique<ir::AxisAnalysis>(kernel);
  for (int i = 0; i < 3; ++i) pid[i] = p[i], grid[i] = g[i];
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", fn));
  for (unsigned i = 0; i < kernel.numArguments(); ++i) set(kernel.argument(i), {fn->getArg(i)});
  lowerBlock(kernel.entry());
  b.CreateRetVoid();
  moveLargeFrameToScratch();
}

bool lowerKernel(const ir::Function &kernel, const std::string &symbol, const HostFacts &facts, llvm::Module &m,
                 std::vector<KernelParam> &params, std::string &error) {
  llvm::LLVMContext &ctx = m.getContext();
  Lowering L(m, facts);
  try {
    // The body: runtime parameters by value, then pid x/y/z and grid x/y/z.
    std::vector<llvm::Type *> argTys;
    for (unsigned i = 0; i < kernel.numArguments(); ++i) {
      ir::Type t = kernel.argument(i)->type();
      argTys.push_back(L.computeType(t));
      KernelParam p;
      p.name = kernel.argument(i)->nameHint();
      p.type = t;
      p.sizeBytes = t.isPointer() ? 8 : std::max(1, t.bitWidth() / 8);
      params.push_back(p);
    }
    for (int i = 0; i < 6; ++i) argTys.push_back(llvm::Type::getInt32Ty(ctx));
    argTys.push_back(llvm::PointerType::get(ctx, 0));  // the prefetch predictors' state
    auto *bodyTy = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), argTys, false);
    llvm::Function *body = llvm::Function::Create(bodyTy, llvm::GlobalValue::InternalLinkage, symbol + ".program", m);
    unsigned np = kernel.numArguments();
    llvm::Value *pid[3] = {body->getArg(np), body->getArg(np + 1), body->getArg(np + 2)};
    llvm::Value *grid[3] = {body->getArg(np + 3), body->getArg(np + 4), body->getArg(np + 5)};
    L.prefetchState = body->getArg(np + 6);
    L.lowerBody(kernel, body, pid, grid);

    // The entry of docs/cpu-abi.md: unpack the arguments, run programs [first, last).
    llvm::IRBuilder<> b(ctx);
    auto *i32 = b.getInt32Ty(), *i64 = b.getInt64Ty();
    auto *entryTy = llvm::FunctionType::get(b.getVoidTy(), {b.getPtrTy(), i32, i32, i32, i64, i64}, false);
    llvm::Function *entry = llvm::Function::Create(entryTy, llvm::GlobalValue::ExternalLinkage, symbol, m);
    entry->setVisibility(llvm::GlobalValue::DefaultVisibility);
    llvm::BasicBlock *bb = llvm::BasicBlock::Create(ctx, "entry", entry);
    b.SetInsertPoint(bb);
    std::vector<llvm::Value *> args;
    for (unsigned i = 0; i < np; ++i) {
      llvm::Value *slot = b.CreateLoad(b.getPtrTy(), b.CreateGEP(b.getPtrTy(), entry->getArg(0), b.getInt64(i)));
      ir::Type t = kernel.argument(i)->type();
      llvm::Value *v = b.CreateLoad(L.storageType(t), slot);
      if (t.isBool()) v = b.CreateICmpNE(v, b.getInt8(0));
      args.push_back(v);
    }
    llvm::Value *state = b.CreateAlloca(i64, b.getInt64(std::max(1u, 2 * L.prefetchSlots)));
    for (unsigned i = 0; i < 2 * L.prefetchSlots; ++i) b.CreateStore(b.getInt64(0), b.CreateGEP(i64, state, b.getInt64(i)));
    llvm::Value *gx = entry->getArg(1), *gy = entry->getArg(2), *gz = entry->getArg(3);
    llvm::Value *first = entry->getArg(4), *last = entry->getArg(5);
    llvm::BasicBlock *loopBB = llvm::BasicBlock::Create(ctx, "program", entry), *done = llvm::BasicBlock::Create(ctx, "done", entry);
    b.CreateCondBr(b.CreateICmpSLT(first, last), loopBB, done);
    b.SetInsertPoint(loopBB);
    llvm::PHINode *lin = b.CreatePHI(i64, 2);
    lin->addIncoming(first, bb);
    llvm::Value *gx64 = b.CreateSExt(gx, i64), *gxy = b.CreateMul(gx64, b.CreateSExt(gy, i64));
    llvm::Value *px = b.CreateTrunc(b.CreateSRem(lin, gx64), i32);
    llvm::Value *py = b.CreateTrunc(b.CreateSDiv(b.CreateSRem(lin, gxy), gx64), i32);
    llvm::Value *pz = b.CreateTrunc(b.CreateSDiv(lin, gxy), i32);
    std::vector<llvm::Value *> callArgs = args;
    for (llvm::Value *v : {px, py, pz, gx, gy, gz, state}) callArgs.push_back(v);
    b.CreateCall(body, callArgs);
    llvm::Value *next = b.CreateAdd(lin, b.getInt64(1));
    lin->addIncoming(next, loopBB);
    // SIGINT ends the range between programs too: a grid of 2^60 programs
    // without loops would otherwise run on for hours after Ctrl-C.
    auto *flag = llvm::cast<llvm::GlobalVariable>(m.getOrInsertGlobal("tessera_host_interrupted", i32));
    llvm::LoadInst *interrupted = b.CreateLoad(i32, flag);
    interrupted->setVolatile(true);
    llvm::Value *more = b.CreateAnd(b.CreateICmpSLT(next, last), b.CreateICmpEQ(interrupted, b.getInt32(0)));
    b.CreateCondBr(more, loopBB, done);
    b.SetInsertPoint(done);
    // Non-temporal stores are weakly ordered: fence them before the runtime
    // reports the programs finished.
    b.CreateIntrinsic(llvm::Intrinsic::x86_sse_sfence, {}, {});
    b.CreateRetVoid();
  } catch (const LoweringError &e) {
    error = e.message;
    return false;
  }
  return llvmgen::verifyLowered(m, "CPU", error);
}

} // namespace tessera::targets::cpu
