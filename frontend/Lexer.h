// Python tokenizer for kernel source: produces the whole token stream at once,
// including the NEWLINE/INDENT/DEDENT tokens that carry Python's block
// structure. Errors are reported and lexing continues.
#pragma once

#include "frontend/Diagnostics.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::frontend {

// Every Python keyword is a token, so that unsupported statements get a
// precise "not supported" error instead of a confusing one about a name.
#define TESSERA_KEYWORDS(K)                                                   \
  K(False, "False") K(None, "None") K(True, "True") K(And, "and")             \
  K(As, "as") K(Assert, "assert") K(Async, "async") K(Await, "await")         \
  K(Break, "break") K(Class, "class") K(Continue, "continue") K(Def, "def")   \
  K(Del, "del") K(Elif, "elif") K(Else, "else") K(Except, "except")           \
  K(Finally, "finally") K(For, "for") K(From, "from") K(Global, "global")     \
  K(If, "if") K(Import, "import") K(In, "in") K(Is, "is")                     \
  K(Lambda, "lambda") K(Nonlocal, "nonlocal") K(Not, "not") K(Or, "or")       \
  K(Pass, "pass") K(Raise, "raise") K(Return, "return") K(Try, "try")         \
  K(While, "while") K(With, "with") K(Yield, "yield")

// Longest spellings first: the lexer takes the first entry that matches.
#define TESSERA_PUNCTUATORS(P)                                                \
  P(StarStarEqual, "**=") P(SlashSlashEqual, "//=") P(LessLessEqual, "<<=")   \
  P(GreaterGreaterEqual, ">>=") P(Ellipsis, "...")                            \
  P(StarStar, "**") P(SlashSlash, "//") P(LessLess, "<<")                     \
  P(GreaterGreater, ">>") P(LessEqual, "<=") P(GreaterEqual, ">=")            \
  P(EqualEqual, "==") P(NotEqual, "!=") P(Arrow, "->") P(PlusEqual, "+=")     \
  P(MinusEqual, "-=") P(StarEqual, "*=") P(SlashEqual, "/=")                  \
  P(PercentEqual, "%=") P(AmpEqual, "&=") P(PipeEqual, "|=")                  \
  P(CaretEqual, "^=") P(AtEqual, "@=") P(ColonEqual, ":=")                    \
  P(Plus, "+") P(Minus, "-") P(Star, "*") P(Slash, "/") P(Percent, "%")       \
  P(At, "@") P(Amp, "&") P(Pipe, "|") P(Caret, "^") P(Tilde, "~")             \
  P(Less, "<") P(Greater, ">") P(Equal, "=") P(Colon, ":") P(Comma, ",")      \
  P(Dot, ".") P(Semi, ";") P(LParen, "(") P(RParen, ")") P(LBracket, "[")     \
  P(RBracket, "]") P(LBrace, "{") P(RBrace, "}")

enum class Tok : uint8_t {
  EndOfFile, Newline, Indent, Dedent, Name, Int, Float, String, FString,
#define TESSERA_KW(name, spelling) Kw##name,
  TESSERA_KEYWORDS(TESSERA_KW)
#undef TESSERA_KW
#define TESSERA_P(name, spelling) name,
  TESSERA_PUNCTUATORS(TESSERA_P)
#undef TESSERA_P
};

// The spelling used in messages: "NEWLINE", "end of file", "def", "**=".
std::string_view tokSpelling(Tok kind);

// A piece of an f-string as the lexer splits it: literal text, or a
// replacement field {expr=!c:spec}. The parser makes the field's source range
// an expression (lexed again there, so that nested strings and brackets need
// no tokens here).
struct FStringPiece {
  std::string literal;  // escapes decoded, {{ and }} undoubled
  bool isField = false;
  size_t exprBegin = 0, exprEnd = 0;  // the field's expression: bytes of the file
  std::string debugText;              // {expr=}: "expr=" as written, shown before the value
  char conversion = 0;                // after '!': 's', 'r' or 'a'
  bool hasSpec = false;
  size_t specBegin = 0;               // the spec's first byte (after ':')
  std::vector<FStringPiece> spec;     // literal text and nested fields
};

struct Token {
  Tok kind = Tok::EndOfFile;
  SourceLoc loc;
  std::string_view text;  // the source spelling; empty for synthetic tokens
  std::string str;        // String: the decoded value
  std::vector<FStringPiece> pieces;  // FString: its literal text and fields
  uint64_t intValue = 0;
  double floatValue = 0;

  bool is(Tok k) const { return kind == k; }
  // How the token appears in "found ..." messages: 'x', 'NEWLINE', end of file.
  std::string describe() const;
};

class Lexer {
public:
  Lexer(const SourceFile& file, DiagnosticEngine& diags) : file_(file), src_(file.text()), diags_(diags) {}
  // Always ends with NEWLINE (when the last line had tokens), the DEDENTs
  // that close open blocks, and EndOfFile.
  std::vector<Token> lexAll();
  // An f-string field's expression, bytes [begin, end) of the file: lexed
  // as if inside parentheses (its lines join), then NEWLINE and EndOfFile.
  static std::vector<Token> lexFieldExpression(const SourceFile& file, DiagnosticEngine& diags, size_t begin,
                                               size_t end);

private:
  void lexLines();
  void pushNewlineAfterLastToken();
  void noteLineInsideBrackets();
  bool resyncAfterUnclosedBracket();
  void lexIndentation();
  void lexToken();
  void lexName();
  void lexNumber();
  void lexString(size_t start, std::string_view prefix);
  bool lexEscape(std::string& out);
  // f-strings (LexerFString.cpp).
  struct Quote {
    size_t start;  // the literal's first byte (its prefix)
    char q;
    bool triple, raw;
  };
  enum class FStringEnd { Quote, Brace, Error };
  void lexFString(size_t start, std::string_view prefix);
  FStringEnd lexFStringText(const Quote& quote, int specDepth, std::vector<FStringPiece>& out);
  bool lexFStringField(const Quote& quote, int specDepth, std::vector<FStringPiece>& out);
  bool skipStringInField(const Quote& quote, size_t fieldStart);
  bool expectingBrace(const Quote& quote, size_t fieldStart);
  void skipRestOfString(const Quote& quote);
  bool atClosingQuote(const Quote& quote) const;
  bool scanDigits(int base, bool leadingUnderscoreOk, std::string& digits);
  void lexPunctuator();
  void skipInvalidCharacter();

  Token& push(Tok kind, size_t start, size_t end);
  SourceLoc loc(size_t offset) const { return file_.locForOffset(offset); }
  char peek(size_t ahead = 0) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
  }
  bool atEnd() const { return pos_ >= src_.size(); }

  const SourceFile& file_;
  std::string_view src_;
  DiagnosticEngine& diags_;
  size_t pos_ = 0;
  bool atLineStart_ = true;
  bool reportedTab_ = false;
  std::vector<uint32_t> indents_{0};
  std::vector<char> brackets_;
  // Recovery from a bracket never closed: the first later line indented no
  // deeper than the bracket's own line, where lexing restarts at end of file.
  struct Checkpoint {
    size_t offset;
    size_t tokenCount;
  };
  uint32_t outerBracketIndent_ = 0;
  std::optional<Checkpoint> checkpoint_;
  int resyncs_ = 0;
  std::vector<Token> toks_;
};

}  // namespace tessera::frontend
