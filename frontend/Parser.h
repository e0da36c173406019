// Recursive-descent parser from kernel source to the AST. A statement with a
// syntax error is reported, skipped (with any block it opens), and parsing goes
// on, so one run reports the independent mistakes of a file.
#pragma once

#include "frontend/AST.h"
#include "frontend/Diagnostics.h"
#include "frontend/Lexer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace tessera::frontend {

class Parser {
public:
  Parser(const SourceFile& file, DiagnosticEngine& diags);

  // Always returns a module; with errors it holds the statements that parsed.
  std::unique_ptr<Module> parseModule();
  // The whole input as one expression (a bare tuple allowed); null on error.
  ExprPtr parseStandaloneExpression();

  // Bounds recursion (and so stack use) on adversarial input such as
  // "((((...": counts open brackets, unary chains, blocks.
  static constexpr int kMaxNesting = 200;
  // Flat chains (a + b + c..., if/elif/elif...) make left-deep trees whose
  // depth costs one frame per link downstream, far less than a bracket's
  // trip through the whole expression grammar: they have their own bound.
  static constexpr int kMaxChain = 1000;

private:
  // Leaves the nesting level as it found it; `ok` is false past the limit.
  struct NestingGuard {
    explicit NestingGuard(Parser& p) : p(p), ok(p.enterNesting()) {}
    ~NestingGuard() { --p.nesting_; }
    NestingGuard(const NestingGuard&) = delete;
    NestingGuard& operator=(const NestingGuard&) = delete;
    Parser& p;
    bool ok;
  };

  // Tokens.
  const Token& cur() const { return toks_[pos_]; }
  const Token& peekTok(size_t n = 1) const;
  bool at(Tok k) const { return cur().kind == k; }
  const Token& advance();
  bool accept(Tok k);
  // Dropped on a line where the lexer already reported an error: that error
  // is the cause, and what the parser then trips over only adds noise.
  void error(SourceLoc loc, std::string message);
  void note(SourceLoc loc, std::string message);
  // "expected <what>, found <current token>"
  void errorExpected(std::string_view what);
  bool expect(Tok k, std::string_view context);
  bool expectClose(Tok close, const Token& open, std::string_view context);
  bool enterNesting();

  // Statements.
  void parseStatementsUntilDedent(StmtList& out);
  bool parseStatement(StmtList& out);
  bool parseSimpleStatements(StmtList& out);
  StmtPtr parseSmallStatement();
  StmtPtr parseExprStatement();
  StmtPtr parseIf();
  StmtPtr parseFor();
  StmtPtr parseWhile();
  bool parseLoopBody(std::string_view owner, StmtList& out);
  StmtPtr parseFunctionDef();
  bool parseParameters(FunctionDef& fn);
  StmtPtr parseImport();
  StmtPtr parseFromImport();
  bool parseImportAlias(std::vector<ImportAlias>& out, bool dotted);
  std::optional<StmtList> parseBlock(std::string_view owner);
  void synchronize();
  void skipBlock();
  bool checkTarget(const Expr* e, StmtKind kind);

  // Expressions, lowest precedence first.
  ExprPtr parseTestList();
  ExprPtr parseTargetList();
  ExprPtr parseTest();
  ExprPtr parseLambda();
  ExprPtr parseOr();
  ExprPtr parseAnd();
  ExprPtr parseNot();
  ExprPtr parseComparison();
  ExprPtr parseBinary(int minPrec);
  ExprPtr parseFactor();
  ExprPtr parsePower();
  ExprPtr parsePrimary();
  ExprPtr parseCall(ExprPtr func);
  ExprPtr parseSubscript(ExprPtr value);
  ExprPtr parseSliceItem();
  ExprPtr parseAtom();
  ExprPtr parseParenthesized();
  ExprPtr parseListDisplay();
  ExprPtr parseDictDisplay();
  // f-strings (ParserFString.cpp).
  ExprPtr parseStringLiterals();
  bool appendFStringPieces(JoinedStrExpr& out, const std::vector<FStringPiece>& pieces);
  ExprPtr parseFieldExpression(const FStringPiece& field);
  bool rejectComprehension();
  // The `for ... in ... if ...` clauses after a comprehension's element.
  ExprPtr parseComprehension(ExprPtr elt, SourceLoc loc, bool list);
  bool startsElement() const;

  const SourceFile& file_;
  DiagnosticEngine& diags_;
  std::vector<Token> toks_;
  std::vector<uint32_t> lexErrorLines_;  // sorted
  bool lastErrorDropped_ = false;
  size_t pos_ = 0;
  int nesting_ = 0;
  int chain_ = 0;
  bool enterChain();
  bool inFunction_ = false;
  int loopDepth_ = 0;
};

// Lexes and parses one file of `sources`; any error (lexical or syntactic)
// turns the result into a FrontendError holding every diagnostic.
FrontendResult<std::unique_ptr<Module>> parseFile(const SourceManager& sources, uint32_t fileId);

}  // namespace tessera::frontend
