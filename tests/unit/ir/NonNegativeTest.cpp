// Which integer values are proven non-negative, the premise of amdgpu's
// 32-bit buffer offsets.
#include "ir/analysis/NonNegative.h"
#include "ir/Parser.h"
#include "ir/Verifier.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>

using namespace tessera::ir;

namespace {

// Parses a thread-level kernel and proves each value named in it.
std::map<std::string, bool> provenNonNegative(const std::string &text) {
  ParseResult r = parseModule(text);
  EXPECT_TRUE(r.module) << r.error;
  std::map<std::string, bool> out;
  if (!r.module) return out;
  std::vector<std::string> errs;
  EXPECT_TRUE(verifyModule(*r.module, &errs)) << (errs.empty() ? "" : errs[0]);
  NonNegative proof;
  std::function<void(const Block &)> visit = [&](const Block &b) {
    for (Value *a : b.arguments()) out[a->nameHint()] = proof.proves(a);
    for (auto &op : b.ops()) {
      for (unsigned i = 0; i < op->numResults(); ++i) out[op->result(i)->nameHint()] = proof.proves(op->result(i));
      for (unsigned i = 0; i < op->numRegions(); ++i) visit(op->region(i).block());
    }
  };
  visit(r.module->functions().front()->entry());
  return out;
}

} // namespace

TEST(NonNegative, IdsConstantsAndArithmeticOnThem) {
  auto p = provenNonNegative(R"(
kernel @k(%n: i32, %u: u32) attributes {level = "thread"} {
  %pid = program_id {axis = 0} : i32
  %lane = lane_id : i32
  %c = constant {value = 1024} : i32
  %m1 = constant {value = -1} : i32
  %five = constant {value = 5} : i32
  %base = mul %pid, %c : i32
  %off = add %base, %lane : i32
  %low = and %n, %c : i32
  %sh = shr %off, %five : i32
  %bad = add %off, %m1 : i32
  %arg = add %off, %n : i32
  %big = max %n, %off : i32
  %small = min %n, %off : i32
  %rem = rem %off, %n : i32
  %wide = cast %u : i64
  %same = cast %u : i32
  return
}
)");
  EXPECT_TRUE(p["pid"] && p["lane"] && p["c"] && p["base"] && p["off"] && p["sh"] && p["rem"]);
  EXPECT_TRUE(p["low"]) << "and with a non-negative value clears the sign bit";
  EXPECT_TRUE(p["big"]) << "max with a non-negative value";
  EXPECT_TRUE(p["u"] && p["wide"]) << "unsigned values, and widened ones";
  EXPECT_FALSE(p["m1"] || p["bad"]);
  EXPECT_FALSE(p["n"] || p["arg"] || p["small"]) << "arguments may be negative";
  EXPECT_FALSE(p["same"]) << "u32 above 2^31 reads as a negative i32";
}

TEST(NonNegative, LoopInductionVariablesFromTheirLowerBound) {
  auto p = provenNonNegative(R"(
kernel @k(%n: i32) {
  %z = constant {value = 0} : i32
  %s = constant {value = 64} : i32
  %r = for %z, %n, %s, %z : i32 {
  ^bb(%iv: i32, %acc: i32):
    %next = add %acc, %iv : i32
    yield %next
  }
  %r2 = for %n, %s, %s, %z : i32 {
  ^bb(%iv2: i32, %acc2: i32):
    yield %acc2
  }
  return
}
)");
  EXPECT_TRUE(p["iv"]);
  EXPECT_FALSE(p["iv2"]) << "a lower bound that may be negative";
  EXPECT_FALSE(p["acc"]) << "loop-carried values are not traced";
}
