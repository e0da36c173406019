// String literals in expressions: adjacent ones concatenate, and with an
// f-string among them they make a JoinedStrExpr, whose fields are parsed here
// from the source ranges the lexer found (LexerFString.cpp).
#include "frontend/Parser.h"

#include <algorithm>
#include <utility>

namespace tessera::frontend {

namespace {

void appendLiteral(JoinedStrExpr& out, const std::string& text) {
  if (text.empty()) return;
  if (!out.parts.empty() && !out.parts.back().value) {
    out.parts.back().literal += text;
    return;
  }
  FStringPart p;
  p.literal = text;
  out.parts.push_back(std::move(p));
}

// The field's expression for messages: on one line (line continuations and
// line ends become spaces), without the spaces around it.
std::string fieldSource(std::string_view text) {
  std::string s;
  for (size_t i = 0; i < text.size(); ++i) {
    bool continuation = text[i] == '\\' && i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == '\r');
    if (continuation) ++i;
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
    s += continuation || text[i] == '\n' || text[i] == '\r' ? ' ' : text[i];
  }
  size_t first = s.find_first_not_of(" \t\f"), last = s.find_last_not_of(" \t\f");
  return first == std::string::npos ? "" : s.substr(first, last - first + 1);
}

}  // namespace

ExprPtr Parser::parseStringLiterals() {
  SourceLoc loc = cur().loc;
  bool anyFString = false;
  for (size_t i = pos_; toks_[i].is(Tok::String) || toks_[i].is(Tok::FString); ++i)  // EndOfFile stops it
    anyFString |= toks_[i].is(Tok::FString);
  if (!anyFString) {
    auto s = std::make_unique<StrExpr>(loc);
    while (at(Tok::String)) s->value += advance().str;  // "a" "b" concatenates
    return s;
  }
  auto j = std::make_unique<JoinedStrExpr>(loc);
  while (at(Tok::String) || at(Tok::FString)) {
    const Token& t = advance();
    if (t.is(Tok::String)) appendLiteral(*j, t.str);
    else if (!appendFStringPieces(*j, t.pieces)) return nullptr;
  }
  return j;
}

bool Parser::appendFStringPieces(JoinedStrExpr& out, const std::vector<FStringPiece>& pieces) {
  for (const FStringPiece& p : pieces) {
    if (!p.isField) {
      appendLiteral(out, p.literal);
      continue;
    }
    appendLiteral(out, p.debugText);  // {x=} shows "x=" first
    FStringPart part;
    if (!(part.value = parseFieldExpression(p))) return false;
    part.conversion = p.conversion;
    part.source = fieldSource(file_.text().substr(p.exprBegin, p.exprEnd - p.exprBegin));
    if (p.hasSpec) {
      auto spec = std::make_unique<JoinedStrExpr>(file_.locForOffset(p.specBegin));
      if (!appendFStringPieces(*spec, p.spec)) return false;
      part.formatSpec = std::move(spec);
    }
    out.parts.push_back(std::move(part));
  }
  return true;
}

// The field's tokens take the place of the file's while it is parsed; its
// locations are the file's, so errors point into the f-string.
ExprPtr Parser::parseFieldExpression(const FStringPiece& field) {
  size_t before = diags_.diagnostics().size();
  std::vector<Token> toks = Lexer::lexFieldExpression(file_, diags_, field.exprBegin, field.exprEnd);
  if (diags_.diagnostics().size() != before) {
    for (size_t i = before; i < diags_.diagnostics().size(); ++i) {
      uint32_t line = diags_.diagnostics()[i].loc.line;
      lexErrorLines_.insert(std::upper_bound(lexErrorLines_.begin(), lexErrorLines_.end(), line), line);
    }
    return nullptr;
  }
  std::vector<Token> outer = std::exchange(toks_, std::move(toks));
  size_t outerPos = std::exchange(pos_, 0);
  ExprPtr e = parseTestList();
  if (e && !at(Tok::Newline)) {
    errorExpected("'}' after the f-string field's expression");
    e = nullptr;
  }
  toks_ = std::move(outer);
  pos_ = outerPos;
  return e;
}

}  // namespace tessera::frontend
