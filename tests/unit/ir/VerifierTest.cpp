#include "ir/Builder.h"
#include "ir/Parser.h"
#include "ir/Verifier.h"

#include <gtest/gtest.h>

using namespace tessera::ir;

namespace {

// Parses `body` as the body of `func @f(args)` and returns the verifier's messages.
std::string verifyBody(const std::string &args, const std::string &body) {
  std::string text = "func @f(" + args + ") {\n" + body + "  return\n}\n";
  ParseResult r = parseModule(text, "v.tir");
  EXPECT_TRUE(r.module) << r.error;
  if (!r.module) return r.error;
  std::vector<std::string> errors;
  verifyModule(*r.module, &errors);
  return joinErrors(errors);
}

} // namespace

TEST(Verifier, AcceptsValidCode) {
  EXPECT_EQ(verifyBody("%p: ptr<f32>, %n: i32",
                       "  %r = arange {end = 16, start = 0} : tile<16xi32>\n"
                       "  %ps = splat %p : tile<16xptr<f32>>\n"
                       "  %q = addptr %ps, %r : tile<16xptr<f32>>\n"
                       "  %ns = splat %n : tile<16xi32>\n"
                       "  %m = cmp %r, %ns {pred = \"lt\"} : tile<16xi1>\n"
                       "  %v = load %q, %m : tile<16xf32>\n"
                       "  store %q, %v, %m\n"),
            "");
}

TEST(Verifier, NamesTheOpTheOperandAndTheExpectation) {
  EXPECT_EQ(verifyBody("%p: tile<16xptr<f32>>, %m: tile<16xi32>", "  %v = load %p, %m : tile<16xf32>\n"),
            "v.tir:2:3: error: 'load' op operand #1 (mask): expected i1 elements, got tile<16xi32>\n");
  EXPECT_EQ(verifyBody("%a: i32, %b: i64", "  %c = add %a, %b : i32\n"),
            "v.tir:2:3: error: 'add' op operand #1: expected i32, got i64\n");
  EXPECT_EQ(verifyBody("%a: f32", "  %c = and %a, %a : f32\n"),
            "v.tir:2:3: error: 'and' op operand #0: expected integer elements, got f32\n");
}

TEST(Verifier, Attributes) {
  EXPECT_EQ(verifyBody("", "  %c = program_id : i32\n"),
            "v.tir:2:3: error: 'program_id' op needs attribute 'axis' (a int)\n");
  EXPECT_EQ(verifyBody("%a: i32", "  %c = cmp %a, %a {pred = \"slt\"} : i1\n"),
            "v.tir:2:3: error: 'cmp' op attribute 'pred': expected one of \"eq\", \"ne\", \"lt\", \"le\", \"gt\", \"ge\", got \"slt\"\n");
  EXPECT_EQ(verifyBody("%a: i32", "  %c = neg %a {bogus = 1} : i32\n"),
            "v.tir:2:3: error: 'neg' op has unknown attribute 'bogus'\n");
  EXPECT_EQ(verifyBody("%a: i32", "  %c = neg %a {tessera.note = 1} : i32\n"), "");
}

TEST(Verifier, Shapes) {
  EXPECT_EQ(verifyBody("%a: tile<4x8xf32>", "  %b = trans %a {order = [0, 0]} : tile<8x4xf32>\n"),
            "v.tir:2:3: error: 'trans' op attribute 'order': expected a permutation of the 2 dimensions of tile<4x8xf32>\n");
  EXPECT_EQ(verifyBody("%a: tile<4x1xf32>", "  %b = broadcast %a : tile<4x8xf32>\n"), "");
  EXPECT_EQ(verifyBody("%a: tile<4x2xf32>", "  %b = broadcast %a : tile<4x8xf32>\n"),
            "v.tir:2:3: error: 'broadcast' op cannot broadcast dimension 1 of tile<4x2xf32> to tile<4x8xf32>\n");
  EXPECT_EQ(verifyBody("%a: tile<16x8xf16>, %b: tile<16x8xf16>, %c: tile<16x8xf32>", "  %d = dot %a, %b, %c : tile<16x8xf32>\n"),
            "v.tir:2:3: error: 'dot' op inner dimensions differ: tile<16x8xf16> and tile<16x8xf16>\n");
}

TEST(Verifier, RegionsAndTerminators) {
  EXPECT_EQ(verifyBody("%n: i32, %x: f32",
                       "  %r = for %n, %n, %n, %x : f32 {\n  ^bb(%i: i32, %acc: f32):\n    yield %i\n  }\n"),
            "v.tir:2:3: error: 'for' op region #0 terminator operand #0: expected f32, got i32\n");
  EXPECT_EQ(verifyBody("%c: i1", "  if %c {\n    return\n  } {\n    yield\n  }\n"),
            "v.tir:3:5: error: 'return' op cannot end a region of 'if'; expected 'yield'\n");
  EXPECT_EQ(verifyBody("%c: i1", "  if %c {\n  } {\n    yield\n  }\n"),
            "v.tir:2:3: error: a region of 'if' must end with a terminator\n");
  EXPECT_EQ(verifyBody("%a: i32", "  yield\n  %b = neg %a : i32\n"),
            "v.tir:2:3: error: 'yield' op must be the last op of its block\n");
}

TEST(Verifier, CallsAreChecked) {
  ParseResult r = parseModule("func @g(%a: i32) -> (i32) {\n  return %a\n}\n"
                              "kernel @k(%x: f32) {\n  %y = call %x {callee = \"g\"} : i32\n  %z = call {callee = \"h\"} : i32\n  return\n}\n",
                              "c.tir");
  ASSERT_TRUE(r.module) << r.error;
  std::vector<std::string> errors;
  EXPECT_FALSE(verifyModule(*r.module, &errors));
  EXPECT_EQ(joinErrors(errors), "c.tir:5:3: error: 'call' op argument #0: expected i32, got f32\n"
                                "c.tir:6:3: error: 'call' op calls unknown function @h\n");
}

TEST(Verifier, UseBeforeDefinitionBuiltByHand) {
  Module m;
  Function *f = m.addFunction(std::make_unique<Function>("f", FunctionKind::Device, std::vector<Type>{}, std::vector<Type>{}));
  Builder b(&f->entry());
  Value *one = b.constantInt(1, Type::i32());
  Operation *neg = b.create(OpCode::Neg, {one}, {Type::i32()});
  b.create(OpCode::Return, {}, {});
  one->definingOp()->moveBefore(f->entry().back());  // now defined after its use
  (void)neg;
  std::vector<std::string> errors;
  EXPECT_FALSE(verifyModule(m, &errors));
  EXPECT_NE(joinErrors(errors).find("'neg' op operand #0 is not defined before its use here"), std::string::npos);
}

TEST(Verifier, PointerRangeIsAFactAboutPointers) {
  EXPECT_EQ(verifyBody("%p: ptr<f32> {pointer_range = 32}", ""), "");
  EXPECT_EQ(verifyBody("%n: i32 {pointer_range = 32}", ""),
            "v.tir:1:1: error: @f argument #0: pointer_range applies to pointers, not i32\n");
  EXPECT_EQ(verifyBody("%p: ptr<f32> {pointer_range = 64}", ""),
            "v.tir:1:1: error: @f argument #0: pointer_range must be 32, got 64\n");
}
