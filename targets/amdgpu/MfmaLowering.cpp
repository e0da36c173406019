// Matrix-core dots on AMD GPUs, through the GPU lowering's seams: a dot the
// table (Mfma.h) has an instruction for takes the instruction's fragment
// layouts for its operands and accumulator (assign-layouts converts the
// operands, through LDS, as for any layout change), and becomes one `mma`
// thread op per instruction tile. Anything else falls to the shared lowering.
#include "targets/amdgpu/Lowerings.h"

#include "ir/transforms/Passes.h"
#include "targets/amdgpu/Mfma.h"

namespace tessera::targets::amdgpu {
namespace {

using ir::OpCode;

struct DotPlan {
  const MatrixInstruction *inst = nullptr;
  gpu::DotFragments frags;
};

std::optional<DotPlan> planDot(const ir::Operation &dot, const ir::AttrDict &module) {
  ir::Type at = dot.operand(0)->type(), bt = dot.operand(1)->type(), rt = dot.result()->type();
  if (!at.element().isScalar() || !bt.element().isScalar() || !rt.element().isScalar()) return std::nullopt;
  int numWarps = int(module.getInt("num_warps", 4));
  size_t rank = size_t(rt.rank());
  int64_t m = rt.shape()[rank - 2], n = rt.shape()[rank - 1];
  DotPlan p;
  p.inst = findMatrixInstruction(module.getString("arch", ""), at.element().scalarKind(), bt.element().scalarKind(),
                                 rt.element().scalarKind(), dot.attrs().getString("input_precision", "ieee"), m, n,
                                 numWarps, gpu::inDotChain(dot));
  if (!p.inst) return std::nullopt;
  std::optional<gpu::DotFragments> f = gpu::dotFragments(dot, *p.inst, numWarps);
  if (!f) return std::nullopt;
  p.frags = *f;
  return p;
}

std::optional<ir::DotLayouts> dotLayouts(const ir::Operation &dot, const ir::AttrDict &module) {
  std::optional<DotPlan> p = planDot(dot, module);
  if (!p) return std::nullopt;
  return p->frags.attributes();
}

bool lowerDot(const ir::Operation &op, gpu::ThreadLowering &L) {
  std::optional<DotPlan> p = planDot(op, L.moduleAttrs);
  if (!p || !p->frags.holdFor(L, op)) return false;
  ir::Type acc = op.result()->type().element();
  const MatrixInstruction &inst = *p->inst;
  L.set(op.result(), gpu::lowerMatrixDot(L, op, inst, p->frags.tiling, [&](const gpu::Regs &a, const gpu::Regs &b,
                                                                      gpu::Regs &c, int64_t cBase) {
          gpu::issueMma(L, inst, acc, a, b, c, cBase);
        }));
  gpu::sinkOperandLoads(L, L.get(op.operand(0)), L.get(op.operand(1)));
  return true;
}

} // namespace

void registerLowerings() {
  static bool once = [] {
    ir::registerDotLayouts("amdgpu", dotLayouts);
    gpu::registerOpLowering("amdgpu", OpCode::Dot, lowerDot);
    return true;
  }();
  (void)once;
}

} // namespace tessera::targets::amdgpu
