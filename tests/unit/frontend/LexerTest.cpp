#include "FrontendTestUtil.h"

#include <gtest/gtest.h>

namespace tessera::frontend::test {
namespace {

struct Lexed {
  std::string tokens;  // space-separated rendering of every token
  std::string errors;  // "line:col: message" per error
  std::unique_ptr<SourceManager> sources = std::make_unique<SourceManager>();
  std::vector<Token> toks;  // their text views the source kept alive above
};

// An f-string's pieces: literal text as it is, a field as {debug<expression
// source>!conversion:spec}.
std::string showPieces(const std::string& src, const std::vector<FStringPiece>& pieces) {
  std::string s;
  for (const FStringPiece& p : pieces) {
    if (!p.isField) {
      s += p.literal;
      continue;
    }
    s += "{" + p.debugText + "<" + src.substr(p.exprBegin, p.exprEnd - p.exprBegin) + ">";
    if (p.conversion) s += std::string("!") + p.conversion;
    if (p.hasSpec) s += ":" + showPieces(src, p.spec);
    s += "}";
  }
  return s;
}

// Names and keywords print as spelled; literals with their decoded values.
Lexed lex(const std::string& src) {
  Lexed out;
  DiagnosticEngine diags(*out.sources);
  const SourceFile& f = out.sources->addFile("lex.py", src);
  out.toks = Lexer(f, diags).lexAll();
  for (const Token& t : out.toks) {
    if (!out.tokens.empty()) out.tokens += ' ';
    switch (t.kind) {
    case Tok::EndOfFile: out.tokens += "EOF"; break;
    case Tok::Newline: out.tokens += "NL"; break;
    case Tok::Indent: out.tokens += "INDENT"; break;
    case Tok::Dedent: out.tokens += "DEDENT"; break;
    case Tok::Int: out.tokens += "INT(" + std::to_string(t.intValue) + ")"; break;
    case Tok::Float: {
      std::ostringstream ss;
      ss << t.floatValue;
      out.tokens += "FLOAT(" + ss.str() + ")";
      break;
    }
    case Tok::String: out.tokens += "STR(" + t.str + ")"; break;
    case Tok::FString: out.tokens += "FSTR(" + showPieces(src, t.pieces) + ")"; break;
    default: out.tokens += std::string(t.text); break;
    }
  }
  for (const Diagnostic& d : diags.diagnostics())
    if (d.severity == Severity::Error)
      out.errors += std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " + d.message + "\n";
  return out;
}

TEST(Lexer, EmptyInputIsJustEndOfFile) {
  EXPECT_EQ(lex("").tokens, "EOF");
  EXPECT_EQ(lex("\n\n  \n# only a comment\n").tokens, "EOF");
}

TEST(Lexer, AllOperatorsLongestMatchFirst) {
  Lexed l = lex("+ - * / // % ** @ << >> & | ^ ~ < > <= >= == != = += -= *= /= //= %= **= &= |= ^= "
                "<<= >>= -> : , . ; ( ) [ ] { } @= :=\n");
  EXPECT_EQ(l.tokens,
            "+ - * / // % ** @ << >> & | ^ ~ < > <= >= == != = += -= *= /= //= %= **= &= |= ^= "
            "<<= >>= -> : , . ; ( ) [ ] { } @= := NL EOF");
  EXPECT_EQ(l.errors, "");
  EXPECT_EQ(lex("a**=b//c<<=d>=e->f\n").tokens, "a **= b // c <<= d >= e -> f NL EOF");
  EXPECT_EQ(lex("x=-1\n").tokens, "x = - INT(1) NL EOF");
}

TEST(Lexer, KeywordsAreTokensAndSoftKeywordsAreNames) {
  Lexed l = lex("def if elif else for in while not and or is None True False lambda match type\n");
  EXPECT_EQ(l.toks[0].kind, Tok::KwDef);
  EXPECT_EQ(l.toks[5].kind, Tok::KwIn);
  EXPECT_EQ(l.toks[11].kind, Tok::KwNone);
  EXPECT_EQ(l.toks[14].kind, Tok::KwLambda);
  EXPECT_EQ(l.toks[15].kind, Tok::Name);
  EXPECT_EQ(l.toks[16].kind, Tok::Name);
}

TEST(Lexer, IndentationProducesIndentAndDedent) {
  Lexed l = lex("def f():\n"
                "    if x:\n"
                "        pass\n"
                "\n"
                "      # a comment at an odd width is not a line\n"
                "    return\n"
                "y\n");
  EXPECT_EQ(l.tokens,
            "def f ( ) : NL INDENT if x : NL INDENT pass NL DEDENT return NL DEDENT y NL EOF");
  EXPECT_EQ(l.errors, "");
}

TEST(Lexer, DedentsAndNewlineAreAddedAtEndOfFile) {
  EXPECT_EQ(lex("if a:\n  if b:\n    c").tokens, "if a : NL INDENT if b : NL INDENT c NL DEDENT DEDENT EOF");
}

TEST(Lexer, BracketsJoinLinesImplicitly) {
  Lexed l = lex("x = f(a,\n"
                "          b,   # comment\n"
                "\n"
                "  [1,\n"
                "2])\n"
                "y\n");
  EXPECT_EQ(l.tokens, "x = f ( a , b , [ INT(1) , INT(2) ] ) NL y NL EOF");
}

TEST(Lexer, BackslashJoinsLinesExplicitly) {
  EXPECT_EQ(lex("x = a + \\\n    b\ny\n").tokens, "x = a + b NL y NL EOF");
  EXPECT_EQ(lex("x = a + \\\r\n    b\r\n").tokens, "x = a + b NL EOF");
}

TEST(Lexer, CrLfLineEndings) {
  Lexed l = lex("if a:\r\n    b\r\n");
  EXPECT_EQ(l.tokens, "if a : NL INDENT b NL DEDENT EOF");
  EXPECT_EQ(l.toks[5].loc.line, 2u);
  EXPECT_EQ(l.toks[5].loc.col, 5u);
}

TEST(Lexer, IntegerLiterals) {
  Lexed l = lex("0 7 1_000_000 0x1F 0XfF 0o17 0O7 0b1010 0B_1 0x_ff 00 0_0 18446744073709551615\n");
  EXPECT_EQ(l.tokens,
            "INT(0) INT(7) INT(1000000) INT(31) INT(255) INT(15) INT(7) INT(10) INT(1) INT(255) "
            "INT(0) INT(0) INT(18446744073709551615) NL EOF");
  EXPECT_EQ(l.errors, "");
}

TEST(Lexer, FloatLiterals) {
  Lexed l = lex("1.0 1e-3 .5 1_000.0 1. 2E+2 0e0 01.5 1.5e3 3.14_15\n");
  EXPECT_EQ(l.tokens,
            "FLOAT(1) FLOAT(0.001) FLOAT(0.5) FLOAT(1000) FLOAT(1) FLOAT(200) FLOAT(0) FLOAT(1.5) "
            "FLOAT(1500) FLOAT(3.1415) NL EOF");
  EXPECT_EQ(l.errors, "");
  EXPECT_EQ(l.toks[0].kind, Tok::Float);
  EXPECT_EQ(lex("1e999\n").toks[0].floatValue, std::numeric_limits<double>::infinity());
}

TEST(Lexer, BadNumberLiteralsAreLocatedErrors) {
  EXPECT_EQ(lex("x = 1__0\n").errors, "1:5: invalid decimal literal\n");
  EXPECT_EQ(lex("x = 1_\n").errors, "1:5: invalid decimal literal\n");
  EXPECT_EQ(lex("x = 12abc\n").errors, "1:5: invalid decimal literal\n");
  EXPECT_EQ(lex("x = 0x\n").errors, "1:5: invalid hexadecimal literal\n");
  EXPECT_EQ(lex("x = 0b102\n").errors, "1:5: invalid binary literal\n");
  EXPECT_EQ(lex("x = 0o8\n").errors, "1:5: invalid octal literal\n");
  EXPECT_EQ(lex("x = 012\n").errors,
            "1:5: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal\n");
  EXPECT_EQ(lex("x = 3j\n").errors, "1:5: complex (imaginary) literals are not supported\n");
  EXPECT_EQ(lex("x = 18446744073709551616\n").errors, "1:5: integer literal is too large\n");
  EXPECT_EQ(lex("x = 0x1_0000_0000_0000_0000\n").errors, "1:5: integer literal is too large\n");
  // The bad literal is still one token, so parsing goes on after it.
  EXPECT_EQ(lex("x = 1__0 + y\n").tokens, "x = INT(0) + y NL EOF");
}

TEST(Lexer, StringLiterals) {
  Lexed l = lex(R"(a = 'single' "double" r'\n raw' 'esc\t\x41\u00e9\\\'' u'x')" "\n");
  EXPECT_EQ(l.tokens, "a = STR(single) STR(double) STR(\\n raw) STR(esc\tA\xc3\xa9\\') STR(x) NL EOF");
  EXPECT_EQ(l.errors, "");
}

TEST(Lexer, TripleQuotedStringsSpanLines) {
  Lexed l = lex("def f():\n    \"\"\"Doc\n    with 'quotes' and \"\"\n    \"\"\"\n    pass\n");
  ASSERT_GT(l.toks.size(), 8u);
  EXPECT_EQ(l.toks[7].kind, Tok::String);
  EXPECT_EQ(l.toks[7].str, "Doc\n    with 'quotes' and \"\"\n    ");
  EXPECT_EQ(l.toks[8].kind, Tok::Newline);
  EXPECT_EQ(l.toks[9].kind, Tok::KwPass);
  EXPECT_EQ(l.toks[9].loc.line, 5u);
}

TEST(Lexer, StringErrorsAreLocatedAtTheLiteral) {
  EXPECT_EQ(lex("x = b'abc'\n").errors, "1:5: bytes literals are not supported\n");
  EXPECT_EQ(lex("x = 'abc\ny = 1\n").errors, "1:5: unterminated string literal\n");
  EXPECT_EQ(lex("x = '''abc\ny = 1\n").errors, "1:5: unterminated triple-quoted string literal\n");
  EXPECT_EQ(lex("x = '\\x4'\n").errors, "1:6: invalid \\x escape in string literal\n");
  // Recovery: the line after an unterminated string still lexes.
  EXPECT_EQ(lex("x = 'abc\ny = 1\n").tokens, "x = STR(abc) NL y = INT(1) NL EOF");
}

TEST(Lexer, FStringsSplitIntoLiteralTextAndFields) {
  EXPECT_EQ(lex("f'a{x}b'\n").tokens, "FSTR(a{<x>}b) NL EOF");
  EXPECT_EQ(lex("f'{x!r:>{w}.3}{{}}'\n").tokens, "FSTR({<x>!r:>{<w>}.3}{}) NL EOF");
  EXPECT_EQ(lex("f'{ a + b = }{c=:5}{d=!s}'\n").tokens, "FSTR({ a + b = < a + b >!r}{c=<c>:5}{d=<d>!s}) NL EOF");
  EXPECT_EQ(lex("f'{a != b}{a<=b}{(lambda: 1)()}{x[1:2]}{\"}\"}'\n").tokens,
            "FSTR({<a != b>}{<a<=b>}{<(lambda: 1)()>}{<x[1:2]>}{<\"}\">}) NL EOF");
  EXPECT_EQ(lex("rf'\\d{x}\\n' F\"\\t{y}\"\n").tokens, "FSTR(\\d{<x>}\\n) FSTR(\t{<y>}) NL EOF");
  EXPECT_EQ(lex("f'''a\n{\n x\n}'''\n").tokens, "FSTR(a\n{<\n x\n>}) NL EOF");
  EXPECT_EQ(lex("f'\\{x}'\n").tokens, "FSTR(\\{<x>}) NL EOF");
}

TEST(Lexer, FStringErrorsAreLocatedAndLexingGoesOn) {
  EXPECT_EQ(lex("x = f'{y'\n").errors, "1:7: f-string: expecting '}'\n");
  EXPECT_EQ(lex("x = f'{y' + 1\n").tokens, "x = FSTR() + INT(1) NL EOF");
  EXPECT_EQ(lex("x = f'a}'\n").errors, "1:8: f-string: single '}' is not allowed\n");
  EXPECT_EQ(lex("x = f'{ }'\n").errors, "1:7: f-string: empty expression not allowed\n");
  EXPECT_EQ(lex("x = f'{y!z}'\n").errors, "1:10: f-string: invalid conversion character 'z': expected 's', 'r', or 'a'\n");
  EXPECT_EQ(lex("x = f'{y!}'\n").errors, "1:10: f-string: missing conversion character after '!'\n");
  EXPECT_EQ(lex("x = f'{y:{a:{b}}}'\n").errors, "1:13: f-string: expressions nested too deeply\n");
  EXPECT_EQ(lex("x = f'{y#}'\n").errors, "1:9: f-string expression part cannot include '#'\n");
  EXPECT_EQ(lex("x = f'{y)}'\n").errors, "1:9: f-string: unmatched ')'\n");
  EXPECT_EQ(lex("x = f'{(y]}'\n").errors,
            "1:10: f-string: closing parenthesis ']' does not match opening parenthesis '('\n");
  EXPECT_EQ(lex("x = f'{d['k']}'\n").errors,
            "1:7: f-string: expecting '}' (a string inside a field must use other quotes than the f-string's own, as "
            "before Python 3.12)\n");
  EXPECT_EQ(lex("x = f'{y\nz = 1\n").errors, "1:7: f-string: expecting '}'\n");
  EXPECT_EQ(lex("x = f'\\N{DASH}'\n").errors, "1:7: named Unicode escapes (\\N{...}) are not supported in f-strings\n");
}

TEST(Lexer, InvalidCharactersAreReportedAndSkipped) {
  Lexed l = lex("x = a $ b ? c\n");
  EXPECT_EQ(l.errors, "1:7: invalid character '$' (U+0024)\n1:11: invalid character '?' (U+003F)\n");
  EXPECT_EQ(l.tokens, "x = a b c NL EOF");
  EXPECT_EQ(lex("\xce\xb1 = 1\n").errors, "1:1: invalid character '\xce\xb1' (U+03B1)\n");
  EXPECT_EQ(lex("x = \xff\n").errors, "1:5: invalid UTF-8 byte 0xFF in source\n");
  EXPECT_EQ(lex(std::string("x = \0 1\n", 8)).errors, "1:5: invalid character (U+0000)\n");
}

TEST(Lexer, TabsInIndentationAreAnError) {
  Lexed l = lex("if a:\n\tb\n\tc\n");
  EXPECT_EQ(l.errors, "2:1: tab character in indentation; indent with spaces\n");
  EXPECT_EQ(l.tokens, "if a : NL INDENT b NL c NL DEDENT EOF");
  EXPECT_EQ(lex("x = a\t+ b\n").errors, "");  // tabs between tokens are fine
}

TEST(Lexer, InconsistentDedentIsAnError) {
  Lexed l = lex("if a:\n    b\n  c\n  d\ne\n");
  EXPECT_EQ(l.errors, "3:3: unindent does not match any outer indentation level\n");
  // The odd line stays in the block; the following one at its width is fine.
  EXPECT_EQ(l.tokens, "if a : NL INDENT b NL c NL d NL DEDENT e NL EOF");
}

TEST(Lexer, BackslashNotAtLineEndIsAnError) {
  EXPECT_EQ(lex("x = a \\ b\n").errors, "1:7: unexpected character after line continuation character\n");
  EXPECT_EQ(lex("x = a \\").errors, "1:7: unexpected end of file after line continuation character\n");
}

TEST(Lexer, TokenLocationsAreOneBased) {
  Lexed l = lex("def f(x):\n    return x ** 2\n");
  const Token& ret = l.toks[8];
  ASSERT_EQ(ret.kind, Tok::KwReturn);
  EXPECT_EQ(ret.loc.line, 2u);
  EXPECT_EQ(ret.loc.col, 5u);
  EXPECT_EQ(l.toks[10].kind, Tok::StarStar);
  EXPECT_EQ(l.toks[10].loc.col, 14u);
  EXPECT_EQ(l.toks[6].kind, Tok::Newline);  // located at the line's end
  EXPECT_EQ(l.toks[6].loc.line, 1u);
  EXPECT_EQ(l.toks[6].loc.col, 10u);
}

TEST(Lexer, DescribeNamesTokensForMessages) {
  Lexed l = lex("foo '''a\nb'''\n");
  EXPECT_EQ(l.toks[0].describe(), "'foo'");
  EXPECT_EQ(l.toks[1].describe(), "''''a...'");
  EXPECT_EQ(l.toks[2].describe(), "'NEWLINE'");
  EXPECT_EQ(l.toks.back().describe(), "end of file");
}

}  // namespace
}  // namespace tessera::frontend::test
