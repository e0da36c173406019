// f-string literals: split into literal text and replacement fields, as
// Python 3.11's tokenizer and f-string parser do. The literal ends at its
// closing quote even inside a field (so a string nested in a field uses the
// other quotes, as before Python 3.12); a field's expression is kept as a
// source range that the parser lexes and parses on its own.
#include "frontend/Lexer.h"

#include <algorithm>

namespace tessera::frontend {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r'; }

char closerOf(char open) { return open == '(' ? ')' : open == '[' ? ']' : '}'; }

}  // namespace

bool Lexer::atClosingQuote(const Quote& quote) const {
  return peek() == quote.q && (!quote.triple || (peek(1) == quote.q && peek(2) == quote.q));
}

void Lexer::lexFString(size_t start, std::string_view prefix) {
  Quote quote{start, 0, false, false};
  for (char c : prefix) quote.raw |= (c | 0x20) == 'r';
  pos_ = start + prefix.size();
  quote.q = peek();
  quote.triple = peek(1) == quote.q && peek(2) == quote.q;
  pos_ += quote.triple ? 3 : 1;
  std::vector<FStringPiece> pieces;
  FStringEnd end = lexFStringText(quote, 0, pieces);
  if (end == FStringEnd::Error) {
    skipRestOfString(quote);
    pieces.clear();
  }
  push(Tok::FString, start, pos_).pieces = std::move(pieces);
}

// Literal text and fields up to the closing quote (specDepth 0) or up to the
// '}' that ends a format spec (specDepth > 0, left for the caller).
Lexer::FStringEnd Lexer::lexFStringText(const Quote& quote, int specDepth, std::vector<FStringPiece>& out) {
  std::string text;
  auto flush = [&] {
    if (text.empty()) return;
    FStringPiece p;
    p.literal = std::move(text);
    out.push_back(std::move(p));
    text.clear();
  };
  while (true) {
    if (atEnd() || (!quote.triple && (peek() == '\n' || peek() == '\r'))) {
      diags_.error(loc(quote.start), quote.triple ? "unterminated triple-quoted string literal"
                                                  : "unterminated string literal");
      return FStringEnd::Error;
    }
    if (atClosingQuote(quote)) {
      if (specDepth > 0) return FStringEnd::Quote;  // the field reports its missing '}'
      pos_ += quote.triple ? 3 : 1;
      flush();
      return FStringEnd::Quote;
    }
    char c = peek();
    if (c == '\\') {
      char next = peek(1);
      if (next == '{' || next == '}') {  // "\{" is a backslash, then a brace as usual
        text += c;
        ++pos_;
        continue;
      }
      if (!quote.raw && next == 'N' && peek(2) == '{') {
        diags_.error(loc(pos_), "named Unicode escapes (\\N{...}) are not supported in f-strings");
        return FStringEnd::Error;
      }
      if (!quote.raw) {
        lexEscape(text);
        continue;
      }
      // In a raw string a backslash still keeps the next quote from closing.
      text += c;
      ++pos_;
      c = peek();
      if (atEnd()) continue;
    }
    if (c == '{') {
      if (specDepth == 0 && peek(1) == '{') {
        text += '{';
        pos_ += 2;
        continue;
      }
      flush();
      if (!lexFStringField(quote, specDepth, out)) return FStringEnd::Error;
      continue;
    }
    if (c == '}') {
      if (specDepth > 0) {
        flush();
        return FStringEnd::Brace;
      }
      if (peek(1) == '}') {
        text += '}';
        pos_ += 2;
        continue;
      }
      diags_.error(loc(pos_), "f-string: single '}' is not allowed");
      return FStringEnd::Error;
    }
    if (c == '\r') {  // Python normalizes line ends inside strings
      c = '\n';
      if (peek(1) == '\n') ++pos_;
    }
    text += c;
    ++pos_;
  }
}

// A field from its '{' to its '}': the expression's extent (brackets and
// nested strings skipped), then '=', '!conversion' and ':spec'.
bool Lexer::lexFStringField(const Quote& quote, int specDepth, std::vector<FStringPiece>& out) {
  size_t open = pos_++;
  // As Python: a spec may hold fields ({x:{width}}), but their specs may not.
  if (specDepth >= 2) {
    diags_.error(loc(open), "f-string: expressions nested too deeply");
    return false;
  }
  auto expecting = [&] { return expectingBrace(quote, open); };
  FStringPiece field;
  field.isField = true;
  field.exprBegin = pos_;
  std::vector<char> brackets;
  while (true) {
    if (atEnd() || atClosingQuote(quote) || (!quote.triple && (peek() == '\n' || peek() == '\r'))) return expecting();
    char c = peek();
    if (c == '\\') {  // the expression's lexer reports what it makes of it
      pos_ = std::min(pos_ + 2, src_.size());
      continue;
    }
    if (c == '#') {
      diags_.error(loc(pos_), "f-string expression part cannot include '#'");
      return false;
    }
    if (c == '\'' || c == '"') {
      if (!skipStringInField(quote, open)) return false;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      brackets.push_back(c);
      ++pos_;
      continue;
    }
    if ((c == ')' || c == ']' || c == '}') && !brackets.empty()) {
      if (c != closerOf(brackets.back())) {
        diags_.error(loc(pos_), std::string("f-string: closing parenthesis '") + c +
                                    "' does not match opening parenthesis '" + brackets.back() + "'");
        return false;
      }
      brackets.pop_back();
      ++pos_;
      continue;
    }
    if (brackets.empty()) {
      if (c == ')' || c == ']') {
        diags_.error(loc(pos_), std::string("f-string: unmatched '") + c + "'");
        return false;
      }
      if (c == '}' || c == ':') break;
      // '!=', '==', '<=' and '>=' are operators; a lone '!' or '=' ends the expression.
      if ((c == '!' || c == '=' || c == '<' || c == '>') && peek(1) == '=') {
        pos_ += 2;
        continue;
      }
      if (c == '!' || c == '=') break;
    }
    ++pos_;
  }
  field.exprEnd = pos_;
  std::string_view expr = src_.substr(field.exprBegin, field.exprEnd - field.exprBegin);
  if (std::all_of(expr.begin(), expr.end(), isSpace)) {
    diags_.error(loc(open), "f-string: empty expression not allowed");
    return false;
  }
  if (peek() == '=') {
    ++pos_;
    while (isSpace(peek()) && (quote.triple || (peek() != '\n' && peek() != '\r'))) ++pos_;
    field.debugText = std::string(src_.substr(field.exprBegin, pos_ - field.exprBegin));
  }
  if (peek() == '!') {
    ++pos_;
    char conversion = peek();
    if (conversion != 's' && conversion != 'r' && conversion != 'a') {
      bool missing = atEnd() || conversion == '}' || conversion == ':' || isSpace(conversion) || atClosingQuote(quote);
      diags_.error(loc(pos_), missing ? std::string("f-string: missing conversion character after '!'")
                                      : std::string("f-string: invalid conversion character '") + conversion +
                                            "': expected 's', 'r', or 'a'");
      return false;
    }
    field.conversion = conversion;
    ++pos_;
  }
  if (peek() == ':') {
    field.hasSpec = true;
    field.specBegin = ++pos_;
    FStringEnd end = lexFStringText(quote, specDepth + 1, field.spec);
    if (end == FStringEnd::Error) return false;
    if (end == FStringEnd::Quote) return expecting();
  }
  if (peek() != '}') return expecting();
  ++pos_;
  // {x=} shows repr(x) unless a conversion or a spec says otherwise.
  if (!field.debugText.empty() && !field.conversion && !field.hasSpec) field.conversion = 'r';
  out.push_back(std::move(field));
  return true;
}

// A field's '}' is missing. When the f-string ended at a quote with a '}'
// later on its line, the quote was likely meant to open a string inside the
// field, which Python allows only from 3.12.
bool Lexer::expectingBrace(const Quote& quote, size_t fieldStart) {
  bool quoteInField = false;
  if (!atEnd() && atClosingQuote(quote)) {
    std::string_view rest = src_.substr(pos_ + (quote.triple ? 3 : 1));
    quoteInField = rest.substr(0, rest.find_first_of("\r\n")).find('}') != std::string_view::npos;
  }
  diags_.error(loc(fieldStart), quoteInField ? "f-string: expecting '}' (a string inside a field must use other quotes "
                                               "than the f-string's own, as before Python 3.12)"
                                             : "f-string: expecting '}'");
  return false;
}

// A string literal inside a field's expression (its own lexing comes later).
bool Lexer::skipStringInField(const Quote& quote, size_t fieldStart) {
  char q = peek();
  bool triple = peek(1) == q && peek(2) == q;
  pos_ += triple ? 3 : 1;
  while (true) {
    if (atEnd() || atClosingQuote(quote) || (!triple && (peek() == '\n' || peek() == '\r')))
      return expectingBrace(quote, fieldStart);
    if (peek() == '\\') {
      pos_ = std::min(pos_ + 2, src_.size());
      continue;
    }
    if (peek() == q && (!triple || (peek(1) == q && peek(2) == q))) {
      pos_ += triple ? 3 : 1;
      return true;
    }
    ++pos_;
  }
}

// Recovery after an error inside an f-string: the rest of the literal, so
// that lexing goes on after it.
void Lexer::skipRestOfString(const Quote& quote) {
  while (!atEnd()) {
    if (!quote.triple && (peek() == '\n' || peek() == '\r')) return;
    if (atClosingQuote(quote)) {
      pos_ += quote.triple ? 3 : 1;
      return;
    }
    pos_ = std::min(pos_ + (peek() == '\\' ? 2 : 1), src_.size());
  }
}

std::vector<Token> Lexer::lexFieldExpression(const SourceFile& file, DiagnosticEngine& diags, size_t begin,
                                             size_t end) {
  Lexer lexer(file, diags);
  lexer.src_ = lexer.src_.substr(0, end);
  lexer.pos_ = begin;
  lexer.atLineStart_ = false;
  lexer.brackets_.push_back('(');  // Python parses the expression parenthesized
  lexer.lexLines();
  lexer.pushNewlineAfterLastToken();
  lexer.push(Tok::EndOfFile, lexer.pos_, lexer.pos_);
  return std::move(lexer.toks_);
}

}  // namespace tessera::frontend
