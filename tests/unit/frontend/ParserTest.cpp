#include "FrontendTestUtil.h"

#include <gtest/gtest.h>

namespace tessera::frontend::test {
namespace {

// Dumps the statements of `src`, which is placed inside a function body.
std::string body(const std::string& src) {
  std::string indented;
  size_t start = 0;
  while (start < src.size()) {
    size_t end = src.find('\n', start);
    if (end == std::string::npos) end = src.size();
    indented += "    " + src.substr(start, end - start) + "\n";
    start = end + 1;
  }
  Parsed p = parse("def f():\n" + indented);
  if (!p.errors.empty()) return "errors:\n" + p.errors;
  std::string d = p.dump;
  std::string prefix = "Module\n  FunctionDef f\n    Body\n";
  if (d.rfind(prefix, 0) != 0) return d;
  // Drop the wrapper and its six columns of indentation.
  std::string out;
  std::istringstream in(d.substr(prefix.size()));
  for (std::string line; std::getline(in, line);) out += line.substr(6) + "\n";
  return out;
}

TEST(ParserPrecedence, ArithmeticIsLeftAssociativeWithPythonPrecedence) {
  EXPECT_EQ(expr("1 + 2 * 3"), "(+ 1 (* 2 3))");
  EXPECT_EQ(expr("1 - 2 - 3"), "(- (- 1 2) 3)");
  EXPECT_EQ(expr("a * b @ c // d % e / f"), "(/ (% (// (@ (* a b) c) d) e) f)");
  EXPECT_EQ(expr("(a + b) * c"), "(* (+ a b) c)");
  EXPECT_EQ(expr("a | b ^ c & d << e + f * g"), "(| a (^ b (& c (<< d (+ e (* f g))))))");
  EXPECT_EQ(expr("a * b + c << d & e ^ f | g"), "(| (^ (& (<< (+ (* a b) c) d) e) f) g)");
  EXPECT_EQ(expr("a >> 1 << 2"), "(<< (>> a 1) 2)");
}

TEST(ParserPrecedence, PowerIsRightAssociativeAndBindsTighterThanUnaryOnItsLeft) {
  EXPECT_EQ(expr("2 ** 3 ** 2"), "(** 2 (** 3 2))");
  EXPECT_EQ(expr("-2 ** 2"), "(neg (** 2 2))");
  EXPECT_EQ(expr("2 ** -1"), "(** 2 (neg 1))");
  EXPECT_EQ(expr("-x ** -y ** z"), "(neg (** x (neg (** y z))))");
  EXPECT_EQ(expr("a.b ** c[0]"), "(** a.b (subscript c 0))");
}

TEST(ParserPrecedence, UnaryOperators) {
  EXPECT_EQ(expr("~a + -b"), "(+ (invert a) (neg b))");
  EXPECT_EQ(expr("- - +x"), "(neg (neg (pos x)))");
  EXPECT_EQ(expr("-x[0].y(1)"), "(neg (call (attr (subscript x 0) y) 1))");
  EXPECT_EQ(expr("not a == b"), "(not (compare a == b))");
  EXPECT_EQ(expr("not not a"), "(not (not a))");
}

TEST(ParserPrecedence, ComparisonsChainAndSitBelowBitwiseOperators) {
  EXPECT_EQ(expr("a < b < c"), "(compare a < b < c)");
  EXPECT_EQ(expr("a <= b >= c == d != e > f"), "(compare a <= b >= c == d != e > f)");
  EXPECT_EQ(expr("a not in b is not c in d is e"), "(compare a not in b is not c in d is e)");
  EXPECT_EQ(expr("a & b == c"), "(compare (& a b) == c)");
  EXPECT_EQ(expr("x + 1 < n - 1"), "(compare (+ x 1) < (- n 1))");
}

TEST(ParserPrecedence, BooleanOperatorsFlattenAndAndBindsTighterThanOr) {
  EXPECT_EQ(expr("a or b or c"), "(or a b c)");
  EXPECT_EQ(expr("a and b or c and not d"), "(or (and a b) (and c (not d)))");
  EXPECT_EQ(expr("a or b and c"), "(or a (and b c))");
  EXPECT_EQ(expr("(a or b) and c"), "(and (or a b) c)");
}

TEST(ParserPrecedence, ConditionalExpressionIsLowestAndRightNested) {
  EXPECT_EQ(expr("x if c else y"), "(ifexp c x y)");
  EXPECT_EQ(expr("x if c else y if d else z"), "(ifexp c x (ifexp d y z))");
  EXPECT_EQ(expr("a + 1 if b or c else -d"), "(ifexp (or b c) (+ a 1) (neg d))");
  EXPECT_EQ(expr("lambda a, b: a if a > b else b"), "(lambda (a b) (ifexp (compare a > b) a b))");
  EXPECT_EQ(expr("lambda: 0"), "(lambda () 0)");
}

TEST(ParserExpressions, LiteralsAndDisplays) {
  EXPECT_EQ(expr("1, 1.0, 1e-3, .5, 'x', True, False, None"),
            "(tuple 1 1.0 0.001 0.5 \"x\" True False None)");
  EXPECT_EQ(expr("'a' \"b\" '''c'''"), "\"abc\"");
  EXPECT_EQ(expr("'say \"hi\"\\n'"), "\"say \\\"hi\\\"\\n\"");
  EXPECT_EQ(expr("()"), "(tuple)");
  EXPECT_EQ(expr("(1,)"), "(tuple 1)");
  EXPECT_EQ(expr("(1, 2,)"), "(tuple 1 2)");
  EXPECT_EQ(expr("[BLOCK, 1]"), "(list BLOCK 1)");
  EXPECT_EQ(expr("[]"), "(list)");
  EXPECT_EQ(expr("{'a': 1, 'b': [2],}"), "(dict (\"a\" 1) (\"b\" (list 2)))");
  EXPECT_EQ(expr("{}"), "(dict)");
}

TEST(ParserExpressions, FStringsAreJoinedStrings) {
  EXPECT_EQ(expr("f'N is {N}'"), "(fstring \"N is \" (format N))");
  EXPECT_EQ(expr("'a' f'{x!r:>{w}}' \"b\" f'c'"), "(fstring \"a\" (format x !r (fstring \">\" (format w))) \"bc\")");
  EXPECT_EQ(expr("f'{x=}'"), "(fstring \"x=\" (format x !r))");
  EXPECT_EQ(expr("f'{a + b * 2:.3f}'"), "(fstring (format (+ a (* b 2)) (fstring \".3f\")))");
  EXPECT_EQ(expr("f'{f\"{x}\"}'"), "(fstring (format (fstring (format x))))");
  EXPECT_EQ(expr("f'{a, b}'"), "(fstring (format (tuple a b)))");
  EXPECT_EQ(expr("f''"), "(fstring)");
  EXPECT_EQ(expr("f'{x y}'"), "error: expected '}' after the f-string field's expression, found 'y'");
  EXPECT_EQ(expr("f'{x +}'"), "error: expected expression, found 'NEWLINE'");
}

TEST(ParserExpressions, FStringFieldsHaveTheirLocationsInTheFile) {
  Parsed p = parse("def f(a):\n    x = f'ab{a}' f'{\\\n  a+1:>{a}}'\n");
  ASSERT_EQ(p.errors, "");
  auto* assign = dynCast<AssignStmt>(p.function().body[0].get());
  ASSERT_NE(assign, nullptr);
  auto* s = dynCast<JoinedStrExpr>(assign->value.get());
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->parts.size(), 3u);
  EXPECT_EQ(s->parts[1].value->loc, (SourceLoc{s->loc.fileId, 2, 14}));
  EXPECT_EQ(s->parts[2].value->loc, (SourceLoc{s->loc.fileId, 3, 3}));
  EXPECT_EQ(s->parts[2].source, "a+1");
  auto* spec = dynCast<JoinedStrExpr>(s->parts[2].formatSpec.get());
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->loc, (SourceLoc{s->loc.fileId, 3, 7}));
  EXPECT_EQ(spec->parts[1].value->loc, (SourceLoc{s->loc.fileId, 3, 9}));
}

TEST(ParserExpressions, AttributesCallsAndKeywords) {
  EXPECT_EQ(expr("tl.arange(0, BLOCK)"), "(call tl.arange 0 BLOCK)");
  EXPECT_EQ(expr("tl.program_id(axis=0)"), "(call tl.program_id axis=0)");
  EXPECT_EQ(expr("x.to(tl.float16)"), "(call x.to tl.float16)");
  EXPECT_EQ(expr("tl.math.exp2(qk)"), "(call tl.math.exp2 qk)");
  EXPECT_EQ(expr("f(a)(b)"), "(call (call f a) b)");
  EXPECT_EQ(expr("(a + b).to(tl.float32)"), "(call (attr (+ a b) to) tl.float32)");
  EXPECT_EQ(expr("-float('inf')"), "(neg (call float \"inf\"))");
  EXPECT_EQ(expr("f(\n  a,\n  b=1,\n)"), "(call f a b=1)");
  EXPECT_EQ(expr("tl.range(lo, hi, step, num_stages=3, loop_unroll_factor=2)"),
            "(call tl.range lo hi step num_stages=3 loop_unroll_factor=2)");
}

TEST(ParserExpressions, SubscriptsAndSlices) {
  EXPECT_EQ(expr("x[:, None]"), "(subscript x (tuple (slice _ _) None))");
  EXPECT_EQ(expr("x[None, :]"), "(subscript x (tuple None (slice _ _)))");
  EXPECT_EQ(expr("x[0]"), "(subscript x 0)");
  EXPECT_EQ(expr("x[1:]"), "(subscript x (slice 1 _))");
  EXPECT_EQ(expr("x[:n]"), "(subscript x (slice _ n))");
  EXPECT_EQ(expr("x[::2]"), "(subscript x (slice _ _ 2))");
  EXPECT_EQ(expr("x[a:b:c]"), "(subscript x (slice a b c))");
  EXPECT_EQ(expr("x[i, j]"), "(subscript x (tuple i j))");
  EXPECT_EQ(expr("x[i,]"), "(subscript x (tuple i))");
  EXPECT_EQ(expr("x[0][1]"), "(subscript (subscript x 0) 1)");
}

TEST(ParserStatements, Assignments) {
  EXPECT_EQ(body("a = 1"), "Assign a = 1\n");
  EXPECT_EQ(body("a = b = c"), "Assign a = b = c\n");
  EXPECT_EQ(body("a, b = x, y"), "Assign (tuple a b) = (tuple x y)\n");
  EXPECT_EQ(body("(a, [b, c]) = t"), "Assign (tuple a (list b c)) = t\n");
  EXPECT_EQ(body("x.y = 1; x[0] = 2"), "Assign x.y = 1\nAssign (subscript x 0) = 2\n");
  EXPECT_EQ(body("acc += tl.dot(a, b)"), "AugAssign acc += (call tl.dot a b)\n");
  EXPECT_EQ(body("a -= 1\na *= 1\na /= 1\na //= 1\na %= 1\na **= 1\na @= b\n"
                 "a &= 1\na |= 1\na ^= 1\na <<= 1\na >>= 1"),
            "AugAssign a -= 1\nAugAssign a *= 1\nAugAssign a /= 1\nAugAssign a //= 1\n"
            "AugAssign a %= 1\nAugAssign a **= 1\nAugAssign a @= b\nAugAssign a &= 1\n"
            "AugAssign a |= 1\nAugAssign a ^= 1\nAugAssign a <<= 1\nAugAssign a >>= 1\n");
  EXPECT_EQ(body("x: tl.int32 = 0\ny: tl.float32"), "AnnAssign x: tl.int32 = 0\nAnnAssign y: tl.float32\n");
  EXPECT_EQ(body("tl.store(p, x)"), "Expr (call tl.store p x)\n");
}

TEST(ParserStatements, IfElifElse) {
  EXPECT_EQ(body("if a:\n    x = 1\nelif b:\n    x = 2\nelif c:\n    pass\nelse:\n    x = 3"),
            "If a\n"
            "  Then\n"
            "    Assign x = 1\n"
            "  Else\n"
            "    If b\n"
            "      Then\n"
            "        Assign x = 2\n"
            "      Else\n"
            "        If c\n"
            "          Then\n"
            "            Pass\n"
            "          Else\n"
            "            Assign x = 3\n");
  EXPECT_EQ(body("if a: return 1\nelse: return 2"),
            "If a\n  Then\n    Return 1\n  Else\n    Return 2\n");
}

TEST(ParserStatements, LoopsAndJumps) {
  EXPECT_EQ(body("for i in range(0, n, 2):\n    if i == 3:\n        continue\n    break"),
            "For i in (call range 0 n 2)\n"
            "  If (compare i == 3)\n"
            "    Then\n"
            "      Continue\n"
            "  Break\n");
  EXPECT_EQ(body("for i, (a, b) in t:\n    pass"), "For (tuple i (tuple a b)) in t\n  Pass\n");
  EXPECT_EQ(body("for k in tl.static_range(4):\n    pass"), "For k in (call tl.static_range 4)\n  Pass\n");
  EXPECT_EQ(body("for k in tl.range(lo, hi, 1, num_stages=3, loop_unroll_factor=2):\n    pass"),
            "For k in (call tl.range lo hi 1 num_stages=3 loop_unroll_factor=2)\n  Pass\n");
  EXPECT_EQ(body("while i < n and not done:\n    i += 1"),
            "While (and (compare i < n) (not done))\n  AugAssign i += 1\n");
}

TEST(ParserStatements, ReturnAssertPass) {
  EXPECT_EQ(body("return"), "Return\n");
  EXPECT_EQ(body("return acc, l_i, m_i"), "Return (tuple acc l_i m_i)\n");
  EXPECT_EQ(body("assert n > 0"), "Assert (compare n > 0)\n");
  EXPECT_EQ(body("assert n > 0, 'n must be positive'"), "Assert (compare n > 0), \"n must be positive\"\n");
  EXPECT_EQ(body("pass"), "Pass\n");
}

TEST(ParserStatements, ImportsAreRecorded) {
  Parsed p = parse("import tessera\n"
                   "import tessera.language as tl, numpy\n"
                   "from tessera import language as tl2, jit\n"
                   "from triton.language import (core,\n    math as m,)\n"
                   "from . import helpers\n"
                   "from ..lib.x import y\n");
  EXPECT_EQ(p.errors, "");
  EXPECT_EQ(p.dump,
            "Module\n"
            "  Import tessera\n"
            "  Import tessera.language as tl, numpy\n"
            "  ImportFrom tessera import language as tl2, jit\n"
            "  ImportFrom triton.language import core, math as m\n"
            "  ImportFrom . import helpers\n"
            "  ImportFrom ..lib.x import y\n");
  auto* imp = dynCast<ImportStmt>(p.module->body[1].get());
  ASSERT_NE(imp, nullptr);
  EXPECT_EQ(imp->names[0].name, "tessera.language");
  EXPECT_EQ(imp->names[0].asname, "tl");
  EXPECT_EQ(imp->names[1].loc.col, 32u);
}

TEST(ParserStatements, FunctionDefinitionParts) {
  Parsed p = parse("BLOCK = 128\n"
                   "@tessera.jit\n"
                   "@triton.jit(do_not_specialize=[\"n\"])\n"
                   "@tl.constexpr_function\n"
                   "def k(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr = True, eps=1e-5) -> None:\n"
                   "    '''Docs.'''\n"
                   "    pass\n");
  EXPECT_EQ(p.errors, "");
  EXPECT_EQ(p.dump,
            "Module\n"
            "  Assign BLOCK = 128\n"
            "  FunctionDef k\n"
            "    Decorator tessera.jit\n"
            "    Decorator (call triton.jit do_not_specialize=(list \"n\"))\n"
            "    Decorator tl.constexpr_function\n"
            "    Param x_ptr\n"
            "    Param n\n"
            "    Param BLOCK: tl.constexpr\n"
            "    Param EVEN: tl.constexpr = True\n"
            "    Param eps = 1e-05\n"
            "    Returns None\n"
            "    Docstring \"Docs.\"\n"
            "    Body\n"
            "      Pass\n");
  const FunctionDef& f = p.function();
  EXPECT_EQ(f.loc.line, 5u);  // the 'def', as in Python's AST
  EXPECT_EQ(f.params[2].loc.col, 17u);
  EXPECT_EQ(f.docstring, "Docs.");
}

TEST(ParserStatements, ModuleDocstringAndHeuristicsDecoratorWithLambda) {
  Parsed p = parse("\"\"\"Kernels.\"\"\"\n"
                   "@triton.heuristics({'EVEN_K': lambda args: args['K'] % args['BLOCK_K'] == 0})\n"
                   "@triton.jit\n"
                   "def k(K, BLOCK_K: tl.constexpr, EVEN_K: tl.constexpr):\n"
                   "    pass\n");
  EXPECT_EQ(p.errors, "");
  EXPECT_EQ(p.module->docstring, "Kernels.");
  EXPECT_NE(p.dump.find("Decorator (call triton.heuristics (dict (\"EVEN_K\" (lambda (args) (compare (% "
                        "(subscript args \"K\") (subscript args \"BLOCK_K\")) == 0)))))"),
            std::string::npos)
      << p.dump;
}

TEST(ParserStatements, LocationsAreRecordedOnEveryNode) {
  Parsed p = parse("def f(a):\n    x = a[:, None] + 1\n    if x:\n        return -x\n",
                   ASTPrinter::Options{.locations = true});
  EXPECT_EQ(p.dump,
            "Module\n"
            "  FunctionDef f @1:1\n"
            "    Param a @1:7\n"
            "    Body\n"
            "      Assign x = (+ (subscript a (tuple (slice _ _) None)) 1) @2:5\n"
            "      If x @3:5\n"
            "        Then\n"
            "          Return (neg x) @4:9\n");
  auto* assign = dynCast<AssignStmt>(p.function().body[0].get());
  ASSERT_NE(assign, nullptr);
  auto* add = dynCast<BinaryExpr>(assign->value.get());
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->loc.col, 9u);
  EXPECT_EQ(add->rhs->loc.col, 22u);
  auto* sub = dynCast<SubscriptExpr>(add->lhs.get());
  ASSERT_NE(sub, nullptr);
  auto* index = dynCast<TupleExpr>(sub->index.get());
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(index->elts[0]->loc.col, 11u);
  EXPECT_EQ(index->elts[1]->loc.col, 14u);
}

TEST(ParserApi, ParseFileReturnsModuleOrFrontendError) {
  SourceManager sources;
  const SourceFile& good = sources.addFile("good.py", "def f():\n    pass\n");
  const SourceFile& bad = sources.addFile("bad.py", "def f(:\n    pass\n");
  auto ok = parseFile(sources, good.id());
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok.value()->body.size(), 1u);
  auto err = parseFile(sources, bad.id());
  ASSERT_FALSE(err.ok());
  ASSERT_EQ(err.error().diagnostics.size(), 1u);
  EXPECT_EQ(err.error().message(),
            "bad.py:1:7: error: expected parameter name, found ':'\n"
            "def f(:\n"
            "      ^\n");
  EXPECT_FALSE(parseFile(sources, 99).ok());
}

}  // namespace
}  // namespace tessera::frontend::test
