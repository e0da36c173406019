#include "ir/Parser.h"
#include "ir/PassManager.h"
#include "ir/Printer.h"
#include "ir/transforms/Passes.h"

#include <gtest/gtest.h>

using namespace tessera::ir;

namespace {

// Folds `op` applied to constants a and b of `type`; returns the printed value.
std::string foldBinary(const std::string &op, const std::string &type, const std::string &a, const std::string &b,
                       const std::string &attrs = "") {
  std::string text = "func @f() -> (" + type + ") {\n  %a = constant {value = " + a + "} : " + type +
                     "\n  %b = constant {value = " + b + "} : " + type + "\n  %r = " + op + " %a, %b " + attrs +
                     " : " + type + "\n  return %r\n}\n";
  auto parsed = parseModule(text);
  EXPECT_TRUE(parsed.module) << parsed.error;
  if (!parsed.module) return "";
  canonicalize(*parsed.module);
  const Block &body = parsed.module->functions()[0]->entry();
  const Operation *ret = body.terminator();
  const Operation *def = ret->operand(0)->definingOp();
  if (!def || !def->is(OpCode::Constant)) return "not folded";
  return def->attr("value")->str();
}

} // namespace

TEST(Fold, IntegersWrapAtTheirWidth) {
  EXPECT_EQ(foldBinary("add", "i8", "127", "1"), "-128");
  EXPECT_EQ(foldBinary("add", "u8", "255", "1"), "0");
  EXPECT_EQ(foldBinary("mul", "i32", "65536", "65536"), "0");
  EXPECT_EQ(foldBinary("sub", "u32", "0", "1"), "4294967295");
}

TEST(Fold, SignednessComesFromTheType) {
  EXPECT_EQ(foldBinary("div", "i32", "-7", "2"), "-3");
  EXPECT_EQ(foldBinary("rem", "i32", "-7", "2"), "-1");
  EXPECT_EQ(foldBinary("div", "u32", "4294967289", "2"), "2147483644");
  EXPECT_EQ(foldBinary("shr", "i8", "-128", "1"), "-64");
  EXPECT_EQ(foldBinary("shr", "u8", "128", "1"), "64");
  EXPECT_EQ(foldBinary("min", "u32", "4294967295", "1"), "1");
  EXPECT_EQ(foldBinary("min", "i32", "-1", "1"), "-1");
  EXPECT_EQ(foldBinary("mulhi", "u32", "4294967295", "4294967295"), "4294967294");
  EXPECT_EQ(foldBinary("mulhi", "i32", "-2", "3"), "-1");
}

TEST(Fold, UndefinedCasesAreLeftAlone) {
  EXPECT_EQ(foldBinary("div", "i32", "5", "0"), "not folded");
  EXPECT_EQ(foldBinary("rem", "i32", "5", "0"), "not folded");
  EXPECT_EQ(foldBinary("div", "i32", "-2147483648", "-1"), "not folded");
  EXPECT_EQ(foldBinary("shl", "i32", "1", "32"), "not folded");
}

TEST(Fold, FloatsRoundToTheirType) {
  // 0.1 + 0.2 in f32 is 0.300000012 (not the f64 0.30000000000000004).
  EXPECT_EQ(foldBinary("add", "f32", "0.1", "0.2"), "0.30000001192092896");
  EXPECT_EQ(foldBinary("add", "f64", "0.1", "0.2"), "0.30000000000000004");
  EXPECT_EQ(foldBinary("div", "f32", "1.0", "0.0"), "inf");
  EXPECT_EQ(foldBinary("min", "f32", "nan", "2.0"), "2.0");
  EXPECT_EQ(foldBinary("min", "f32", "nan", "2.0", "{propagate_nan = true}"), "nan");
  EXPECT_EQ(foldBinary("add", "f16", "1.0", "2.0"), "not folded");
  EXPECT_EQ(foldBinary("div", "f32", "1.0", "3.0", "{approx = true}"), "not folded");
}

TEST(Fold, ComparisonsFollowPython) {
  auto cmp = [](const std::string &pred, const std::string &type, const std::string &a, const std::string &b) {
    std::string text = "func @f() -> (i1) {\n  %a = constant {value = " + a + "} : " + type +
                       "\n  %b = constant {value = " + b + "} : " + type + "\n  %r = cmp %a, %b {pred = \"" + pred +
                       "\"} : i1\n  return %r\n}\n";
    auto parsed = parseModule(text);
    canonicalize(*parsed.module);
    auto *def = parsed.module->functions()[0]->entry().terminator()->operand(0)->definingOp();
    return def->is(OpCode::Constant) ? def->attr("value")->getInt() : -1;
  };
  EXPECT_EQ(cmp("ne", "f32", "nan", "nan"), 1);
  EXPECT_EQ(cmp("eq", "f32", "nan", "nan"), 0);
  EXPECT_EQ(cmp("lt", "f32", "nan", "1.0"), 0);
  EXPECT_EQ(cmp("lt", "u32", "4294967295", "0"), 0);
  EXPECT_EQ(cmp("lt", "i32", "-1", "0"), 1);
}

TEST(Fold, Casts) {
  auto cast = [](const std::string &from, const std::string &to, const std::string &v) {
    std::string text = "func @f() -> (" + to + ") {\n  %a = constant {value = " + v + "} : " + from +
                       "\n  %r = cast %a : " + to + "\n  return %r\n}\n";
    auto parsed = parseModule(text);
    EXPECT_TRUE(parsed.module) << parsed.error;
    canonicalize(*parsed.module);
    auto *def = parsed.module->functions()[0]->entry().terminator()->operand(0)->definingOp();
    return def->is(OpCode::Constant) ? def->attr("value")->str() : std::string("not folded");
  };
  EXPECT_EQ(cast("i32", "i8", "300"), "44");
  EXPECT_EQ(cast("i8", "u32", "-1"), "4294967295");
  EXPECT_EQ(cast("u8", "i32", "255"), "255");
  EXPECT_EQ(cast("f32", "i32", "-2.75"), "-2");
  EXPECT_EQ(cast("f32", "i8", "1000.0"), "127");
  EXPECT_EQ(cast("f32", "u8", "-5.0"), "0");
  EXPECT_EQ(cast("f32", "i32", "nan"), "0");
  EXPECT_EQ(cast("i32", "i1", "2"), "1");
  EXPECT_EQ(cast("i64", "f32", "16777217"), "16777216.0");
  EXPECT_EQ(cast("f64", "f32", "0.1"), "0.10000000149011612");
  EXPECT_EQ(cast("f32", "bf16", "1.0"), "not folded");
}
