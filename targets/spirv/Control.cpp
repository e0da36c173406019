// Thread IR ops in order, and structured control flow: if -> a selection
// construct, for/while -> loop constructs (header, merge and continue
// blocks), loop-carried values -> phis in the header.
#include "targets/spirv/Emitter.h"

namespace tessera::targets::spirv {

using ir::OpCode;
using spv::Op;

void KernelEmitter::emitBlock(const ir::Block &block) {
  for (auto &o : block.ops()) emitOp(*o);
}

void KernelEmitter::emitOp(const ir::Operation &o) {
  if (o.is(OpCode::ExternElementwise))
    fail(o, "calls " + o.attr("symbol")->getString() +
                " of a GPU device library (tl.extern_elementwise), which the spirv target does not link");
  if (o.hasTrait(ir::kElementwise)) {
    std::vector<Id> in;
    for (ir::Value *v : o.operands()) in.push_back(get(v));
    return set(o.result(), elementwise(o, in));
  }
  auto idComponent = [&](Id var) { return builtinComponent(var, uint32_t(o.attr("axis")->getInt())); };
  switch (o.code()) {
  case OpCode::ProgramId: return set(o.result(), idComponent(workgroupId));
  case OpCode::NumPrograms: return set(o.result(), idComponent(numWorkgroups));
  case OpCode::ThreadId: return set(o.result(), threadId);
  case OpCode::LaneId: return set(o.result(), laneId);
  case OpCode::WarpId: return set(o.result(), warpId);
  case OpCode::SharedPtr: return set(o.result(), c32(uint32_t(o.attr("offset")->getInt())));
  case OpCode::SharedAlloc: fail(o, "has no offset yet (run allocate-shared first)");
  case OpCode::VLoad: return emitLoad(o);
  case OpCode::VStore: return emitStore(o);
  case OpCode::AtomicRmw:
  case OpCode::AtomicCas: return emitAtomic(o);
  case OpCode::ShuffleXor:
    return set(o.result(), shuffleXor(get(o.operand(0)), o.operand(0)->type(), int(o.attr("mask")->getInt())));
  case OpCode::CastPair:
    for (unsigned i = 0; i < 2; ++i)
      set(o.result(i), castValue(get(o.operand(i)), ir::Type::f32(), o.result(i)->type(), "rtne", o));
    return;
  case OpCode::Barrier:
    // Workgroup execution and memory: AcquireRelease | WorkgroupMemory.
    b.opNoResult(Op::OpControlBarrier, {c32(2), c32(2), c32(0x8 | 0x100)});
    return;
  case OpCode::CheckFailed: return emitCheckFailed(o);
  case OpCode::Assume: return;
  case OpCode::GridDependency: return;  // no dependent launches on Vulkan or Level Zero
  case OpCode::InlineAsm: fail(o, "holds GPU assembly (tl.inline_asm_elementwise), which SPIR-V cannot express");
  case OpCode::HardwareRegister: fail(o, "'" + o.attr("name")->getString() + "' is not available on the spirv target");
  case OpCode::For: return emitFor(o);
  case OpCode::If: return emitIf(o);
  case OpCode::While: return emitWhile(o);
  case OpCode::Yield:
  case OpCode::Condition:
  case OpCode::Return: return;  // handled by the parent
  case OpCode::Printf: return emitPrintf(o);
  case OpCode::Assert: return emitAssert(o);
  case OpCode::CoopMma: return emitCoopMma(o);
  case OpCode::Mma:
  case OpCode::LdMatrix:
  case OpCode::CpAsync:
  case OpCode::CpAsyncCommit:
  case OpCode::CpAsyncWait:
  case OpCode::Wgmma:
  case OpCode::WgmmaFence:
  case OpCode::WgmmaCommit:
  case OpCode::WgmmaWait:
  case OpCode::FenceAsyncShared: fail(o, "has no SPIR-V instruction (an NVIDIA target op)");
  default: fail(o, "cannot be emitted at the thread level (run lower-to-threads first)");
  }
}

std::vector<Id> KernelEmitter::when(Id cond, const std::function<std::vector<Id>()> &then,
                                    const std::vector<Id> &otherwise) {
  Id thenBB = b.newId(), merge = b.newId(), pre = b.currentBlock();
  b.opNoResult(Op::OpSelectionMerge, {merge, 0});
  b.opNoResult(Op::OpBranchConditional, {cond, thenBB, merge});
  b.label(thenBB);
  std::vector<Id> values = then();
  Id thenEnd = b.currentBlock();
  b.opNoResult(Op::OpBranch, {merge});
  b.label(merge);
  std::vector<Id> out;
  for (size_t i = 0; i < values.size(); ++i)
    out.push_back(b.phi(b.typeOfValue(values[i]), {{values[i], thenEnd}, {otherwise[i], pre}}));
  return out;
}

void KernelEmitter::emitIf(const ir::Operation &o) {
  Id thenBB = b.newId(), elseBB = b.newId(), merge = b.newId();
  b.opNoResult(Op::OpSelectionMerge, {merge, 0});
  b.opNoResult(Op::OpBranchConditional, {get(o.operand(0)), thenBB, elseBB});
  std::vector<Id> yielded[2];
  Id ends[2];
  for (unsigned r = 0; r < 2; ++r) {
    b.label(r == 0 ? thenBB : elseBB);
    const ir::Block &blk = o.region(r).block();
    emitBlock(blk);
    for (ir::Value *v : blk.terminator()->operands()) yielded[r].push_back(get(v));
    ends[r] = b.currentBlock();
    b.opNoResult(Op::OpBranch, {merge});
  }
  b.label(merge);
  for (unsigned k = 0; k < o.numResults(); ++k)
    set(o.result(k), b.phi(b.typeOfValue(yielded[0][k]), {{yielded[0][k], ends[0]}, {yielded[1][k], ends[1]}}));
}

// header: phis, the test, OpLoopMerge, branch to body or exit; the body
// branches to the continue block, which steps the induction variable.
void KernelEmitter::emitFor(const ir::Operation &o) {
  const ir::Block &body = o.region(0).block();
  bool sgn = o.operand(0)->type().isSigned();
  Id lb = get(o.operand(0)), ub = get(o.operand(1)), step = get(o.operand(2));
  Id ivTy = b.typeOfValue(lb);
  std::vector<Id> inits;
  for (unsigned i = 3; i < o.numOperands(); ++i) inits.push_back(get(o.operand(i)));
  Id pre = b.currentBlock(), header = b.newId(), bodyBB = b.newId(), cont = b.newId(), exit = b.newId();
  b.opNoResult(Op::OpBranch, {header});
  b.label(header);
  size_t ivAt;
  Id iv = b.openPhi(ivTy, 2, ivAt);
  b.setPhiIncoming(ivAt, 0, lb, pre);
  std::vector<size_t> carriedAt(inits.size());
  std::vector<Id> carried;
  for (size_t k = 0; k < inits.size(); ++k) {
    carried.push_back(b.openPhi(b.typeOfValue(inits[k]), 2, carriedAt[k]));
    b.setPhiIncoming(carriedAt[k], 0, inits[k], pre);
  }
  Id cond = op(sgn ? Op::OpSLessThan : Op::OpULessThan, boolTy(), {iv, ub});
  b.opNoResult(Op::OpLoopMerge, {exit, cont, 0});
  b.opNoResult(Op::OpBranchConditional, {cond, bodyBB, exit});
  b.label(bodyBB);
  set(body.argument(0), iv);
  for (unsigned k = 1; k < body.numArguments(); ++k) set(body.argument(k), carried[k - 1]);
  emitBlock(body);
  std::vector<Id> next;
  for (ir::Value *v : body.terminator()->operands()) next.push_back(get(v));
  b.opNoResult(Op::OpBranch, {cont});
  b.label(cont);
  Id ivNext = op(Op::OpIAdd, ivTy, {iv, step});
  b.setPhiIncoming(ivAt, 1, ivNext, cont);
  for (size_t k = 0; k < carried.size(); ++k) b.setPhiIncoming(carriedAt[k], 1, next[k], cont);
  b.opNoResult(Op::OpBranch, {header});
  b.label(exit);
  for (unsigned k = 0; k < o.numResults(); ++k) set(o.result(k), carried[k]);
}

// header: phis, OpLoopMerge, branch to the condition's blocks; the
// condition breaks to the exit or goes on to the body, which branches to
// the continue block and back.
void KernelEmitter::emitWhile(const ir::Operation &o) {
  const ir::Block &before = o.region(0).block(), &after = o.region(1).block();
  std::vector<Id> inits;
  for (ir::Value *v : o.operands()) inits.push_back(get(v));
  Id pre = b.currentBlock(), header = b.newId(), condBB = b.newId(), bodyBB = b.newId(), cont = b.newId(),
     exit = b.newId();
  b.opNoResult(Op::OpBranch, {header});
  b.label(header);
  std::vector<size_t> carriedAt(inits.size());
  std::vector<Id> carried;
  for (size_t k = 0; k < inits.size(); ++k) {
    carried.push_back(b.openPhi(b.typeOfValue(inits[k]), 2, carriedAt[k]));
    b.setPhiIncoming(carriedAt[k], 0, inits[k], pre);
  }
  b.opNoResult(Op::OpLoopMerge, {exit, cont, 0});
  b.opNoResult(Op::OpBranch, {condBB});
  b.label(condBB);
  for (unsigned k = 0; k < before.numArguments(); ++k) set(before.argument(k), carried[k]);
  emitBlock(before);
  const ir::Operation *cond = before.terminator();
  std::vector<Id> passed;
  for (unsigned i = 1; i < cond->numOperands(); ++i) passed.push_back(get(cond->operand(i)));
  Id condEnd = b.currentBlock();
  b.opNoResult(Op::OpBranchConditional, {get(cond->operand(0)), bodyBB, exit});
  b.label(bodyBB);
  for (unsigned k = 0; k < after.numArguments(); ++k) set(after.argument(k), passed[k]);
  emitBlock(after);
  std::vector<Id> next;
  for (ir::Value *v : after.terminator()->operands()) next.push_back(get(v));
  b.opNoResult(Op::OpBranch, {cont});
  b.label(cont);
  for (size_t k = 0; k < carried.size(); ++k) b.setPhiIncoming(carriedAt[k], 1, next[k], cont);
  b.opNoResult(Op::OpBranch, {header});
  b.label(exit);
  // The results are what the condition passed on its last evaluation.
  for (unsigned k = 0; k < o.numResults(); ++k)
    set(o.result(k), b.phi(b.typeOfValue(passed[k]), {{passed[k], condEnd}}));
}

} // namespace tessera::targets::spirv
