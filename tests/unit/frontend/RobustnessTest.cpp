// Bad input must never crash, hang or blow the stack: every stage returns
// with diagnostics. (frontend/fuzz/FuzzParser.cpp explores this further.)
#include "FrontendTestUtil.h"

#include <gtest/gtest.h>

#include <random>

namespace tessera::frontend::test {
namespace {

const char* const kKernels[] = {"vector_add.py", "fused_softmax.py", "matmul.py", "dropout.py",
                                "layernorm.py",  "attention.py",     "fstrings.py"};

// Every step a caller would take on a result: parse, dump, format errors.
void exercise(const std::string& src) {
  Parsed p = parse(src);
  ASSERT_NE(p.module, nullptr);
  ASSERT_FALSE(p.dump.empty());
  // Each error is located inside the file (line 0 would mean "unknown").
  for (const Diagnostic& d : p.diags->diagnostics()) {
    ASSERT_TRUE(d.loc.valid()) << d.message;
    ASSERT_LE(d.loc.line, p.sources->file(0)->lineCount() + 1) << d.message;
  }
}

TEST(Robustness, EveryTruncationOfEveryTutorialKernel) {
  for (const char* name : kKernels) {
    std::string src = corpusFile(name);
    ASSERT_FALSE(src.empty()) << name;
    for (size_t n = 0; n <= src.size(); ++n) {
      SCOPED_TRACE(std::string(name) + " truncated to " + std::to_string(n) + " bytes");
      exercise(src.substr(0, n));
      if (HasFatalFailure()) return;
    }
  }
}

TEST(Robustness, RandomByteMutationsOfKernels) {
  std::mt19937 rng(1234);
  const std::string alphabet = "()[]{}:,.;=+-*/%@<>!&|^~#'\"\\\t\n \r0123456789abcxyz_\xff\xc3";
  for (const char* name : kKernels) {
    std::string src = corpusFile(name);
    for (int iter = 0; iter < 200; ++iter) {
      std::string m = src;
      int edits = 1 + static_cast<int>(rng() % 8);
      for (int e = 0; e < edits && !m.empty(); ++e) {
        size_t at = rng() % m.size();
        switch (rng() % 3) {
        case 0: m[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: m.erase(at, 1 + rng() % 16); break;
        default: m.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
        }
      }
      SCOPED_TRACE(std::string(name) + " mutation " + std::to_string(iter));
      exercise(m);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(Robustness, RandomGarbage) {
  std::mt19937 rng(99);
  const char* const pieces[] = {"def", "if", "else", "elif", "for", "in", "while", "return", "lambda",
                                "(", ")", "[", "]", "{", "}", ":", ",", "\n", "    ", "\t", "x", "1",
                                "1.5e", "'", "\"\"\"", "**", "-", "not", "and", "@", "=", "+=", "\\",
                                ".", "None", "#", "0x", "_", "\r", "...", ":=", "*", "\x80"};
  for (int iter = 0; iter < 3000; ++iter) {
    std::string src;
    int n = static_cast<int>(rng() % 64);
    for (int i = 0; i < n; ++i) {
      if (rng() % 5 == 0) src += static_cast<char>(rng() % 256);
      else src += pieces[rng() % std::size(pieces)];
      if (rng() % 3 == 0) src += ' ';
    }
    SCOPED_TRACE("garbage #" + std::to_string(iter));
    exercise(src);
    if (HasFatalFailure()) return;
  }
}

TEST(Robustness, PathologicalShapes) {
  const std::vector<std::string> inputs = {
      std::string(100000, '('),
      std::string(100000, '['),
      "x = " + std::string(100000, '-') + "1\n",
      "x = " + std::string(50000, '~') + "1\n",
      [] { std::string s = "x = 1"; for (int i = 0; i < 50000; ++i) s += "**1"; return s + "\n"; }(),
      [] { std::string s = "x = a"; for (int i = 0; i < 50000; ++i) s += ".b"; return s + "\n"; }(),
      [] { std::string s = "x = a"; for (int i = 0; i < 50000; ++i) s += "[0]"; return s + "\n"; }(),
      [] { std::string s = "x = a"; for (int i = 0; i < 50000; ++i) s += " if a else a"; return s; }(),
      [] { std::string s = "x = "; for (int i = 0; i < 50000; ++i) s += "not "; return s + "a"; }(),
      [] { std::string s = "x = "; for (int i = 0; i < 50000; ++i) s += "lambda: "; return s + "a"; }(),
      [] {
        std::string s = "def f():\n";
        for (int i = 1; i < 2000; ++i) s += std::string(i, ' ') + "if x:\n";
        return s + std::string(2000, ' ') + "pass\n";
      }(),
      [] {
        std::string s = "def f():\n    if a:\n        pass\n";
        for (int i = 0; i < 5000; ++i) s += "    elif a:\n        pass\n";
        return s;
      }(),
      [] { std::string s; for (int i = 0; i < 20000; ++i) s += "x = (\n"; return s; }(),
      [] { std::string s; for (int i = 0; i < 20000; ++i) s += ")]}\n"; return s; }(),
      std::string(20000, '\n') + "    x",
      "'''" + std::string(100000, 'a'),
      "x = f'{" + std::string(100000, '(') + "a'\n",
      "x = f'{" + std::string(100000, '(') + "a" + std::string(100000, ')') + "}'\n",
      "x = f'" + std::string(100001, '{') + "'\n",
      [] { std::string s = "x = f'"; for (int i = 0; i < 20000; ++i) s += "{a:{b}}"; return s + "}'\n"; }(),
  };
  for (size_t i = 0; i < inputs.size(); ++i) {
    SCOPED_TRACE("pathological input #" + std::to_string(i));
    Parsed p = parse(inputs[i]);
    EXPECT_TRUE(p.diags->hasErrors());
    // The error limit bounds the report however bad the input.
    EXPECT_LE(p.diags->errorCount(), 25u);
  }
}

}  // namespace
}  // namespace tessera::frontend::test
