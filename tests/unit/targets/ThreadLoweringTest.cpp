// The seams of the shared GPU lowering: a target's own op lowering, and
// errors for IR the lowering cannot handle.
#include "ir/Parser.h"
#include "ir/PassManager.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"
#include "ir/transforms/Passes.h"
#include "targets/gpu/ThreadLowering.h"

#include <gtest/gtest.h>

using namespace tessera;

namespace {

const char *kDot = R"(module {num_warps = 4, target = "fake", warp_size = 32}
kernel @mm(%p: ptr<f32> {divisibility = 16}) {
  %r = arange {end = 16, start = 0} : tile<16xi32>
  %c16 = constant {value = 16} : tile<16x1xi32>
  %rc = expand_dims %r {axis = 1} : tile<16x1xi32>
  %row = mul %rc, %c16 : tile<16x1xi32>
  %cc = expand_dims %r {axis = 0} : tile<1x16xi32>
  %rowb = broadcast %row : tile<16x16xi32>
  %colb = broadcast %cc : tile<16x16xi32>
  %offs = add %rowb, %colb : tile<16x16xi32>
  %ps = splat %p : tile<16x16xptr<f32>>
  %a = addptr %ps, %offs : tile<16x16xptr<f32>>
  %x = load %a : tile<16x16xf32>
  %z = constant {value = 0.0} : tile<16x16xf32>
  %d = dot %x, %x, %z : tile<16x16xf32>
  store %a, %d
  return
}
)";

// Runs `passes` over `text`; returns the printed module, or "error: ..." .
std::string run(const std::string &text, const std::vector<std::string> &passes) {
  targets::gpu::registerPasses();
  ir::ParseResult parsed = ir::parseModule(text, "t.tir");
  if (!parsed.module) return "parse error: " + parsed.error;
  ir::PassOptions opts;
  opts.verifyEach = true;
  ir::PassManager pm(opts);
  for (const std::string &p : passes)
    if (!pm.add(p)) return "unknown pass " + p;
  std::string error;
  if (!pm.run(*parsed.module, &error)) return "error: " + error;
  return ir::printModule(*parsed.module);
}

const std::vector<std::string> kPipeline = {"assign-layouts", "lower-to-threads", "allocate-shared", "insert-barriers"};

} // namespace

TEST(ThreadLowering, TargetLowersAnOpItselfBeforeTheSharedLowering) {
  int calls = 0;
  targets::gpu::registerOpLowering("fake", ir::OpCode::Dot, [&](const ir::Operation &op, targets::gpu::ThreadLowering &L) {
    ++calls;
    // A stand-in for an MMA instruction: every result register is 7.
    const targets::gpu::TileLayout &l = L.layoutOf(op.result()->type(), op);
    ir::Value *seven = L.b.constantFloat(7.0, ir::Type::f32());
    L.set(op.result(), targets::gpu::Regs(size_t(l.numRegs), seven));
    return true;
  });
  std::string out = run(kDot, kPipeline);
  targets::gpu::clearOpLoweringsForTesting("fake");
  EXPECT_EQ(calls, 1);
  EXPECT_NE(out.find("constant {value = 7.0} : f32"), std::string::npos) << out;
  // The SIMT dot's k-loop of fmas is gone.
  EXPECT_EQ(out.find("fma"), std::string::npos) << out;
  EXPECT_EQ(out.find(" for "), std::string::npos) << out;
}

TEST(ThreadLowering, HookThatDeclinesLeavesTheOpToTheSharedLowering) {
  int calls = 0;
  targets::gpu::registerOpLowering("fake", ir::OpCode::Dot, [&](const ir::Operation &, targets::gpu::ThreadLowering &) {
    ++calls;
    return false;
  });
  std::string out = run(kDot, kPipeline);
  targets::gpu::clearOpLoweringsForTesting("fake");
  EXPECT_EQ(calls, 1);
  EXPECT_NE(out.find(" for "), std::string::npos) << out;
  EXPECT_NE(out.find("fma"), std::string::npos) << out;
}

TEST(ThreadLowering, HooksOfOtherTargetsAreNotUsed) {
  int calls = 0;
  targets::gpu::registerOpLowering("other", ir::OpCode::Dot, [&](const ir::Operation &, targets::gpu::ThreadLowering &) {
    ++calls;
    return false;
  });
  std::string out = run(kDot, kPipeline);
  targets::gpu::clearOpLoweringsForTesting("other");
  EXPECT_EQ(calls, 0);
  EXPECT_NE(out.find("level = \"thread\""), std::string::npos) << out;
}

TEST(ThreadLowering, UnlayoutedTilesAreAnErrorWithALocation) {
  std::string out = run(kDot, {"lower-to-threads"});
  EXPECT_EQ(out.rfind("error: t.tir:3:3: error: fake target: 'arange' has a tile without a layout", 0), 0u) << out;
}

TEST(ThreadLowering, CallsMustBeInlinedFirst) {
  std::string out = run(R"(module {num_warps = 1, warp_size = 32}
func @f(%a: i32) -> (i32) attributes {noinline = true} {
  return %a
}
kernel @k(%p: ptr<i32>, %n: i32) {
  %v = call %n {callee = "f"} : i32
  store %p, %v
  return
}
)", {"lower-to-threads"});
  EXPECT_NE(out.find("device function @f was not inlined (run inline first)"), std::string::npos) << out;
}

TEST(ThreadLowering, LayoutsForAnotherWarpCountAreRejected) {
  std::string out = run(R"(module {num_warps = 4, warp_size = 32}
kernel @k(%p: ptr<f32>) {
  %r = arange {end = 64, start = 0} : tile<64xi32, #blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [2], order = [0]>>
  return
}
)", {"lower-to-threads"});
  EXPECT_NE(out.find("has a layout for 32 lanes x 2 warps; this kernel runs 32 x 4"), std::string::npos) << out;
}

TEST(AssignLayouts, TargetChoosesTheLayoutsOfADot) {
  const ir::Layout *acc = ir::Layout::get(
      "blocked", {{"size_per_thread", {2, 1}}, {"threads_per_warp", {4, 8}}, {"warps_per_cta", {2, 2}}, {"order", {0, 1}}});
  const ir::Layout *a = ir::Layout::get(
      "blocked", {{"size_per_thread", {1, 2}}, {"threads_per_warp", {16, 2}}, {"warps_per_cta", {1, 4}}, {"order", {1, 0}}});
  int calls = 0;
  ir::registerDotLayouts("fake", [&](const ir::Operation &dot, const ir::AttrDict &module) {
    ++calls;
    EXPECT_TRUE(dot.is(ir::OpCode::Dot));
    EXPECT_EQ(module.getInt("num_warps", 0), 4);
    EXPECT_EQ(module.getInt("warp_size", 0), 32);
    return std::optional<ir::DotLayouts>(ir::DotLayouts{a, nullptr, acc});
  });
  std::string distributed = run(kDot, {"assign-layouts"});
  std::string lowered = run(kDot, kPipeline);
  ir::clearDotLayoutsForTesting("fake");
  EXPECT_EQ(calls, 2);
  // The result and the accumulator in the target's layout, operand a
  // converted to its layout, b left to the pass.
  size_t at = distributed.find("%d = dot ");
  ASSERT_NE(at, std::string::npos) << distributed;
  std::string dotLine = distributed.substr(at, distributed.find('\n', at) - at);
  EXPECT_NE(dotLine.find(": tile<16x16xf32, " + acc->str() + ">"), std::string::npos) << dotLine;
  EXPECT_NE(distributed.find("convert_layout %x : tile<16x16xf32, " + a->str() + ">"), std::string::npos) << distributed;
  // The shared lowering lowers the dot in those layouts.
  EXPECT_NE(lowered.find("level = \"thread\""), std::string::npos) << lowered;
  EXPECT_NE(lowered.find("fma"), std::string::npos) << lowered;
}

TEST(AssignLayouts, WithoutAHookADotFollowsItsOperands) {
  std::string distributed = run(kDot, {"assign-layouts"});
  EXPECT_EQ(distributed.find("order = [0, 1]"), std::string::npos) << distributed;
  EXPECT_NE(distributed.find("%d = dot"), std::string::npos) << distributed;
}
