#include "ir/Builder.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

using namespace tessera::ir;

namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const std::string kRoundTripFile = std::string(TESSERA_SOURCE_DIR) + "/tests/ir/roundtrip.tir";

std::string parseError(const std::string &text) {
  ParseResult r = parseModule(text, "t.tir");
  EXPECT_FALSE(r.module) << "expected an error for:\n" << text;
  return r.error;
}

} // namespace

TEST(Parser, RoundTripFileCoversEveryOp) {
  std::string text = readFile(kRoundTripFile);
  ASSERT_FALSE(text.empty());
  ParseResult r = parseModule(text, kRoundTripFile);
  ASSERT_TRUE(r.module) << r.error;
  std::vector<std::string> errors;
  EXPECT_TRUE(verifyModule(*r.module, &errors)) << joinErrors(errors);
  std::set<OpCode> seen;
  for (auto &f : r.module->functions()) f->walk([&](Operation *op) { seen.insert(op->code()); });
  for (const OpInfo &info : allOps()) EXPECT_TRUE(seen.count(info.code)) << "roundtrip.tir lacks op '" << info.name << "'";
}

TEST(Parser, PrintParsePrintIsIdentity) {
  ParseResult r = parseModule(readFile(kRoundTripFile), "roundtrip.tir");
  ASSERT_TRUE(r.module) << r.error;
  for (bool locs : {false, true}) {
    std::string once = printModule(*r.module, {locs});
    ParseResult again = parseModule(once, "printed.tir");
    ASSERT_TRUE(again.module) << again.error;
    EXPECT_EQ(printModule(*again.module, {locs}), once);
  }
}

TEST(Parser, EveryPrefixFailsCleanly) {
  // Truncated input must give an error or a module, never a crash.
  std::string text = readFile(kRoundTripFile);
  for (size_t n = 0; n < text.size(); n += 7) {
    ParseResult r = parseModule(text.substr(0, n), "prefix.tir");
    if (!r.module) EXPECT_NE(r.error.find("error:"), std::string::npos);
    else verifyModule(*r.module);
  }
}

TEST(Parser, ErrorsAreLocatedWithCaret) {
  std::string e = parseError("func @f() {\n  %a = frobnicate : i32\n  return\n}\n");
  EXPECT_EQ(e, "t.tir:2:8: error: unknown op 'frobnicate'\n  %a = frobnicate : i32\n       ^");
}

TEST(Parser, UndefinedAndRedefinedValues) {
  EXPECT_NE(parseError("func @f() {\n  %a = neg %b : i32\n  return\n}\n").find("t.tir:2:12: error: use of undefined value %b"),
            std::string::npos);
  EXPECT_NE(parseError("func @f(%x: i32) {\n  %x = neg %x : i32\n  return\n}\n").find("2:3: error: redefinition of value %x"),
            std::string::npos);
}

TEST(Parser, RegionValuesDoNotLeak) {
  std::string text = "func @f(%c: i1) {\n  if %c {\n    %v = constant {value = 1} : i32\n    yield\n  } {\n    yield\n  }\n"
                     "  %w = neg %v : i32\n  return\n}\n";
  EXPECT_NE(parseError(text).find("8:12: error: use of undefined value %v"), std::string::npos);
}

TEST(Parser, MalformedPieces) {
  struct Case {
    const char *text, *message;
  } cases[] = {
      {"kernel @k(%a i32) {\n  return\n}\n", "expected ':' after the parameter name, found 'i32'"},
      {"kernel @k() {\n  %a, %b = constant {value = 1} : i32\n  return\n}\n", "has 2 result name(s) but 1 result type(s)"},
      {"kernel @k() {\n  %a = constant {value = 1, value = 2} : i32\n  return\n}\n", "duplicate attribute 'value'"},
      {"kernel @k() {\n  %a = constant {value = \"x} : i32\n}\n", "unterminated string"},
      {"kernel @k() {\n  %a = constant {value = 99999999999999999999} : i64\n}\n", "does not fit in 64 bits"},
      {"kernel @k() {\n  return\n", "expected '}' to close the block, found end of input"},
      {"kernel @k() {\n  return\n}\nkernel @k() {\n  return\n}\n", "redefinition of function @k"},
      {"module {\n", "expected an attribute name, found end of input"},
      {"function @k() {}", "expected 'kernel' or 'func', found 'function'"},
      {"kernel @k() {\n  %r = if %c : i32 {\n", "use of undefined value %c"},
      {"func @f(%c: i1) {\n  if %c {\n    yield\n  }\n  return\n}\n", "expected '{' to start region #1 of 'if'"},
      {"func @f() {\n^bb(%a: i32):\n  return\n}\n", "function bodies take no block arguments"},
      {"func @f() {\n  %a = constant {value = [1, x]} : i32\n}\n", "expected an integer, found 'x'"},
  };
  for (auto &c : cases) EXPECT_NE(parseError(c.text).find(c.message), std::string::npos) << parseError(c.text);
}

TEST(Parser, GarbageNeverCrashes) {
  const char *junk[] = {"%", "@", "}}}", "kernel", "kernel @", "kernel @k(", "kernel @k() -> (", "func @f() {\n  %a =",
                        "func @f() {\n  %a = constant {", "func @f() {\n  %a = constant {value = -", "\xff\xfe\x00",
                        "func @f() {\n  %a = constant {value = 1} : tile<", "func @f() {\n  %a = constant {value = 1} : tile<4x"};
  for (const char *j : junk) {
    ParseResult r = parseModule(j, "junk.tir");
    EXPECT_FALSE(r.module) << j;
  }
}

TEST(Printer, RepeatedNameHintsTakeTheNextFreeSuffix) {
  Module m;
  Function *f = m.addFunction(std::make_unique<Function>("f", FunctionKind::Device, std::vector<Type>{}, std::vector<Type>{}));
  Builder b(&f->entry());
  std::vector<std::string> hints = {"x_2", "x", "x", "x", "x", "y", "x_1"};
  std::string expected;
  std::vector<std::string> names = {"%x_2", "%x", "%x_1", "%x_3", "%x_4", "%y", "%x_1_1"};
  for (size_t i = 0; i < hints.size(); ++i) {
    b.constantInt(int64_t(i), Type::i32())->setNameHint(hints[i]);
    expected += "  " + names[i] + " = constant {value = " + std::to_string(i) + "} : i32\n";
  }
  b.create(OpCode::Return, {}, {});
  std::string text = printModule(m);
  EXPECT_NE(text.find(expected), std::string::npos) << text;
  ParseResult again = parseModule(text, "printed.tir");
  ASSERT_TRUE(again.module) << again.error;
  EXPECT_EQ(printModule(*again.module), text);
}
