#include "FrontendTestUtil.h"

#include <gtest/gtest.h>

namespace tessera::frontend::test {
namespace {

// The first error of `src`, formatted with its source line and caret.
std::string firstError(const std::string& src) {
  Parsed p = parse(src);
  for (const Diagnostic& d : p.diags->diagnostics())
    if (d.severity == Severity::Error) return p.diags->format(d);
  return "<no error>";
}

// Just "line:col: message" of the first error.
std::string firstMessage(const std::string& src) {
  Parsed p = parse(src);
  for (const Diagnostic& d : p.diags->diagnostics())
    if (d.severity == Severity::Error)
      return std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " + d.message;
  return "<no error>";
}

// Every diagnostic as "line:col: message".
std::vector<std::string> allMessages(const Parsed& p) {
  std::vector<std::string> out;
  for (const Diagnostic& d : p.diags->diagnostics())
    out.push_back(std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " + d.message);
  return out;
}

TEST(Diagnostics, FormatHasLocationSourceLineAndCaret) {
  SourceManager sources;
  const SourceFile& f = sources.addFile("kernel.py", "a\nb\n    x = foo(a, b\nlast");
  DiagnosticEngine diags(sources);
  diags.error({f.id(), 3, 9}, "expected ')' after call arguments, found 'NEWLINE'");
  EXPECT_TRUE(diags.hasErrors());
  EXPECT_EQ(diags.formatAll(),
            "kernel.py:3:9: error: expected ')' after call arguments, found 'NEWLINE'\n"
            "    x = foo(a, b\n"
            "        ^\n");
}

TEST(Diagnostics, CaretFollowsTabsAndCountsUtf8CharactersOnce) {
  SourceManager sources;
  const SourceFile& f = sources.addFile("k.py", "\tx = '\xc3\xa9\xc3\xa9' + $\n");
  DiagnosticEngine diags(sources);
  diags.error({f.id(), 1, 15}, "bad");
  EXPECT_EQ(diags.formatAll(), "k.py:1:15: error: bad\n\tx = '\xc3\xa9\xc3\xa9' + $\n\t           ^\n");
}

TEST(Diagnostics, LineTableHandlesAllLineEndings) {
  SourceManager sources;
  const SourceFile& f = sources.addFile("k.py", "a\r\nbb\rccc\n\ndd");
  EXPECT_EQ(f.lineCount(), 5u);
  EXPECT_EQ(f.lineText(1), "a");
  EXPECT_EQ(f.lineText(2), "bb");
  EXPECT_EQ(f.lineText(3), "ccc");
  EXPECT_EQ(f.lineText(4), "");
  EXPECT_EQ(f.lineText(5), "dd");
  EXPECT_EQ(f.lineText(6), "");
  EXPECT_EQ(f.locForOffset(4), (SourceLoc{f.id(), 2, 2}));
  EXPECT_EQ(f.locForOffset(100), (SourceLoc{f.id(), 5, 3}));
}

TEST(Diagnostics, ErrorLimitStopsCollection) {
  SourceManager sources;
  sources.addFile("k.py", "x\n");
  DiagnosticEngine diags(sources, 3);
  for (int i = 0; i < 10; ++i) {
    diags.error({0, 1, 1}, "e" + std::to_string(i));
    diags.note({0, 1, 1}, "n");
  }
  EXPECT_EQ(diags.errorCount(), 3u);
  EXPECT_TRUE(diags.limitReached());
  // e0 n e1 n e2 "too many errors" n; later errors and their notes are dropped.
  ASSERT_EQ(diags.diagnostics().size(), 7u);
  EXPECT_EQ(diags.diagnostics()[5].message, "too many errors; stopping here");
}

TEST(Diagnostics, UnclosedCallReportsFoundNewlineAndTheOpeningBracket) {
  Parsed p = parse("def f(x):\n    y = g(x, 1\n");
  EXPECT_EQ(p.errors,
            "kernel.py:2:15: error: expected ')' after call arguments, found 'NEWLINE'\n"
            "    y = g(x, 1\n"
            "              ^\n"
            "kernel.py:2:10: note: to match this '('\n"
            "    y = g(x, 1\n"
            "         ^\n");
}

TEST(Diagnostics, MissingCommaInCall) {
  EXPECT_EQ(firstError("x = f(a b)\n"),
            "kernel.py:1:9: error: expected ')' after call arguments, found 'b'\n"
            "x = f(a b)\n"
            "        ^\n");
}

TEST(Diagnostics, MissingColons) {
  EXPECT_EQ(firstError("def f(x)\n    pass\n"),
            "kernel.py:1:9: error: expected ':' after function signature, found 'NEWLINE'\n"
            "def f(x)\n"
            "        ^\n");
  EXPECT_EQ(firstMessage("def f(x):\n    if x\n        pass\n"),
            "2:9: expected ':' after if condition, found 'NEWLINE'");
  EXPECT_EQ(firstMessage("def f(x):\n    if x:\n        pass\n    elif y\n        pass\n"),
            "4:11: expected ':' after elif condition, found 'NEWLINE'");
  EXPECT_EQ(firstMessage("def f(x):\n    if x:\n        pass\n    else\n        pass\n"),
            "4:9: expected ':' after 'else', found 'NEWLINE'");
  EXPECT_EQ(firstMessage("def f(x):\n    for i in range(3)\n        pass\n"),
            "2:22: expected ':' after for-loop iterable, found 'NEWLINE'");
  EXPECT_EQ(firstMessage("def f(x):\n    while x pass\n"), "2:13: expected ':' after while condition, found 'pass'");
}

TEST(Diagnostics, BlockStructureErrors) {
  EXPECT_EQ(firstError("def f():\nreturn 1\n"),
            "kernel.py:2:1: error: expected an indented block after function definition, found 'return'\n"
            "return 1\n"
            "^\n");
  EXPECT_EQ(firstMessage("def f(x):\n    if x:\n    pass\n"),
            "3:5: expected an indented block after 'if' statement, found 'pass'");
  EXPECT_EQ(firstMessage("x = 1\n    y = 2\n"), "2:5: unexpected indent");
  EXPECT_EQ(firstMessage("def f(x):\n    else:\n        pass\n"), "2:5: 'else' without a matching 'if'");
  EXPECT_EQ(firstMessage("def f(x):\n\tpass\n"), "2:1: tab character in indentation; indent with spaces");
  EXPECT_EQ(firstMessage("def f(x):\n    if x:\n        a\n      b\n"),
            "4:7: unindent does not match any outer indentation level");
}

TEST(Diagnostics, ExpressionErrors) {
  EXPECT_EQ(firstMessage("x = \n"), "1:5: expected expression, found 'NEWLINE'");
  EXPECT_EQ(firstMessage("x = 1 2\n"), "1:7: expected newline after statement, found '2'");
  EXPECT_EQ(firstMessage("x = a[1\n"), "1:8: expected ']' after subscript, found 'NEWLINE'");
  EXPECT_EQ(firstMessage("x = [1, 2\n"), "1:10: expected ']' after list elements, found 'NEWLINE'");
  EXPECT_EQ(firstMessage("x = (a + b\n"), "1:11: expected ')' after parenthesized expression, found 'NEWLINE'");
  EXPECT_EQ(firstMessage("x = (a, b c)\n"), "1:11: expected ')' after tuple elements, found 'c'");
  EXPECT_EQ(firstMessage("x = {'a' 1}\n"), "1:10: expected ':' after dict key, found '1'");
  EXPECT_EQ(firstMessage("x = a if b\n"), "1:11: expected 'else' in conditional expression, found 'NEWLINE'");
  EXPECT_EQ(firstMessage("x = a.\n"), "1:7: expected attribute name after '.', found 'NEWLINE'");
  EXPECT_EQ(firstMessage("x = a.if\n"), "1:7: expected attribute name after '.', found 'if'");
  EXPECT_EQ(firstMessage("x = )\n"), "1:5: expected expression, found ')'");
  EXPECT_EQ(firstMessage("x = lambda 1: 2\n"), "1:12: expected lambda parameter name or ':', found '1'");
}

TEST(Diagnostics, UnsupportedConstructs) {
  EXPECT_EQ(firstMessage("x = f(a=1, *args)\n"), "1:12: '*' unpacking after keyword arguments is not supported in kernels");
  EXPECT_EQ(firstMessage("x = f(**kw)\n"), "1:7: '**kwargs' unpacking in calls is not supported in kernels");
  EXPECT_EQ(firstMessage("x = {i: i for i in y}\n"), "1:11: dict and set comprehensions are not supported in kernels");
  EXPECT_EQ(firstMessage("x = [i for i in y async for j in z]\n"), "1:19: asynchronous comprehensions are not supported in kernels");
  EXPECT_EQ(firstMessage("x = {1, 2}\n"), "1:6: set displays are not supported in kernels");
  EXPECT_EQ(firstMessage("x = a[...]\n"), "1:7: '...' (Ellipsis) is not supported in kernels");
  EXPECT_EQ(firstMessage("a, *b = c\n"), "1:4: starred expressions are not supported in kernels");
  EXPECT_EQ(firstMessage("def f():\n    (y := 1)\n"), "2:8: assignment expressions (':=') are not supported in kernels");
  EXPECT_EQ(firstMessage("def f():\n    y := 1\n"), "2:7: assignment expressions (':=') are not supported in kernels");
  EXPECT_EQ(firstMessage("class A:\n    pass\n"), "1:1: 'class' statements are not supported in kernels");
  EXPECT_EQ(firstMessage("def f():\n    with a:\n        pass\n"), "2:5: 'with' statements are not supported in kernels");
  EXPECT_EQ(firstMessage("def f():\n    try:\n        pass\n    except E:\n        pass\n"),
            "2:5: 'try' statements are not supported in kernels");
  EXPECT_EQ(firstMessage("def f():\n    del x\n"), "2:5: 'del' statements are not supported in kernels");
  EXPECT_EQ(firstMessage("def f():\n    x = yield 1\n"), "2:9: 'yield' is not supported in kernels");
  EXPECT_EQ(firstMessage("def f():\n    def g():\n        pass\n"),
            "2:5: nested function definitions are not supported in kernels");
  EXPECT_EQ(firstMessage("def f():\n    for i in x:\n        pass\n    else:\n        pass\n"),
            "4:5: 'else' clauses on loops are not supported in kernels");
  EXPECT_EQ(firstMessage("from a import *\n"), "1:15: wildcard imports ('*') are not supported");
  EXPECT_EQ(firstMessage("x = b'a'\n"), "1:5: bytes literals are not supported");
}

TEST(Diagnostics, DefinitionErrors) {
  EXPECT_EQ(firstMessage("def (x):\n    pass\n"), "1:5: expected function name after 'def', found '('");
  EXPECT_EQ(firstMessage("def f x:\n    pass\n"), "1:7: expected '(' after function name, found 'x'");
  EXPECT_EQ(firstMessage("def f(1):\n    pass\n"), "1:7: expected parameter name, found '1'");
  EXPECT_EQ(firstMessage("def f(a b):\n    pass\n"), "1:9: expected ')' after parameters, found 'b'");
  EXPECT_EQ(firstMessage("def f(*args):\n    pass\n"), "1:7: '*' parameters are not supported in kernels");
  EXPECT_EQ(firstMessage("def f(a, **kw):\n    pass\n"), "1:10: '**' parameters are not supported in kernels");
  EXPECT_EQ(firstMessage("def f(a=1, b):\n    pass\n"),
            "1:12: parameter without a default follows parameter with a default");
  EXPECT_EQ(firstMessage("def f(a, a):\n    pass\n"), "1:10: duplicate parameter 'a'");
  EXPECT_EQ(firstMessage("@tessera.jit\nx = 1\n"), "2:1: expected 'def' after decorators, found 'x'");
  EXPECT_EQ(firstMessage("@tessera.jit x\ndef f():\n    pass\n"),
            "1:14: expected newline after decorator, found 'x'");
  EXPECT_EQ(firstMessage("x = f(a=1, b)\n"), "1:12: positional argument follows keyword argument");
  EXPECT_EQ(firstMessage("x = f(a=1, a=2)\n"), "1:12: keyword argument repeated: 'a'");
}

TEST(Diagnostics, TargetErrors) {
  EXPECT_EQ(firstMessage("def f():\n    f(x) = 1\n"), "2:5: cannot assign to function call");
  EXPECT_EQ(firstMessage("def f():\n    1 = x\n"), "2:5: cannot assign to literal");
  EXPECT_EQ(firstMessage("def f():\n    a, None = x\n"), "2:8: cannot assign to None");
  EXPECT_EQ(firstMessage("def f():\n    a + 1 = x\n"), "2:5: cannot assign to expression");
  EXPECT_EQ(firstMessage("def f():\n    a, b += 1\n"), "2:5: 'tuple' is an illegal expression for augmented assignment");
  EXPECT_EQ(firstMessage("def f():\n    a, b: int = 1\n"), "2:5: only a single target (not a tuple) can be annotated");
  EXPECT_EQ(firstMessage("def f():\n    for f(i) in x:\n        pass\n"), "2:9: cannot assign to function call");
  EXPECT_EQ(firstMessage("def f():\n    for i range(3):\n        pass\n"),
            "2:11: expected 'in' after for-loop target, found 'range'");
}

TEST(Diagnostics, ContextErrors) {
  EXPECT_EQ(firstMessage("return 1\n"), "1:1: 'return' outside function");
  EXPECT_EQ(firstMessage("def f():\n    break\n"), "2:5: 'break' outside loop");
  EXPECT_EQ(firstMessage("def f():\n    continue\n"), "2:5: 'continue' outside loop");
  EXPECT_EQ(firstMessage("print(x)\n"),
            "1:1: only imports, assignments and function definitions are allowed at module level");
  EXPECT_EQ(firstMessage("import\n"), "1:7: expected module name, found 'NEWLINE'");
  EXPECT_EQ(firstMessage("from a import\n"), "1:14: expected name to import, found 'NEWLINE'");
  EXPECT_EQ(firstMessage("from a imp b\n"), "1:8: expected 'import' after module name, found 'imp'");
}

TEST(Diagnostics, DeepNestingIsAnErrorNotACrash) {
  std::string src = "x = " + std::string(300, '(') + "1" + std::string(300, ')') + "\n";
  EXPECT_EQ(firstMessage(src), "1:205: code is nested too deeply (more than 200 levels)");
  std::string chain = "x = 1";
  for (int i = 0; i < 5000; ++i) chain += " + 1";
  EXPECT_NE(firstMessage(chain + "\n").find("chain is too long (more than 1000 links)"), std::string::npos);
  std::string elifs = "def f(n):\n    if n == 0:\n        return 0\n";
  for (int i = 1; i < 1500; ++i) elifs += "    elif n == " + std::to_string(i) + ":\n        return 1\n";
  EXPECT_NE(firstMessage(elifs).find("chain is too long"), std::string::npos);
}

TEST(Diagnostics, RecoveryReportsIndependentErrorsAndKeepsGoodCode) {
  Parsed p = parse("def a(x):\n"
                   "    y = x +\n"
                   "    if x\n"
                   "        z = 1\n"
                   "        w = 2\n"
                   "    return y\n"
                   "\n"
                   "def b(x):\n"
                   "    return x * 2\n");
  EXPECT_EQ(allMessages(p), (std::vector<std::string>{
                          "2:12: expected expression, found 'NEWLINE'",
                          "3:9: expected ':' after if condition, found 'NEWLINE'",
                      }));
  EXPECT_NE(p.dump.find("FunctionDef b\n    Param x\n    Body\n      Return (* x 2)\n"), std::string::npos)
      << p.dump;
}

TEST(Diagnostics, LexerErrorsSilenceParserNoiseOnTheirLineAndAllAreSorted) {
  Parsed p = parse("def f(x):\n    return x $ 2\n    s = 'abc\n    t = (1 +* 2)\n    u = g(a ` b)\n");
  EXPECT_EQ(allMessages(p), (std::vector<std::string>{
                                "2:14: invalid character '$' (U+0024)",
                                "3:9: unterminated string literal",
                                "4:13: expected expression, found '*'",
                                "5:13: invalid character '`' (U+0060)",
                            }));
}

TEST(Diagnostics, BracketNeverClosedIsReportedAtItsLineAndLaterLinesStillParse) {
  Parsed p = parse("def a(x):\n"
                   "    y = f(x,\n"
                   "          z\n"
                   "    return y\n"
                   "\n"
                   "def b(x):\n"
                   "    return [x\n");
  EXPECT_EQ(p.errors,
            "kernel.py:3:12: error: expected ')' after call arguments, found 'NEWLINE'\n"
            "          z\n"
            "           ^\n"
            "kernel.py:2:10: note: to match this '('\n"
            "    y = f(x,\n"
            "         ^\n"
            "kernel.py:7:14: error: expected ']' after list elements, found 'NEWLINE'\n"
            "    return [x\n"
            "             ^\n"
            "kernel.py:7:12: note: to match this '['\n"
            "    return [x\n"
            "           ^\n");
  EXPECT_NE(p.dump.find("FunctionDef a\n    Param x\n    Body\n      Return y\n"), std::string::npos) << p.dump;
  EXPECT_NE(p.dump.find("FunctionDef b\n"), std::string::npos) << p.dump;
}

}  // namespace
}  // namespace tessera::frontend::test
