#include "frontend/Lexer.h"

#include "frontend/Utf8.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace tessera::frontend {

namespace {

// Explicit ASCII tests: <cctype> is locale-dependent and undefined for the
// negative chars that non-ASCII bytes become.
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isIdentChar(char c) { return isAlpha(c) || isDigit(c); }

int digitValue(char c) {
  if (isDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

struct Spelling {
  std::string_view text;
  Tok kind;
};

constexpr Spelling kKeywords[] = {
#define TESSERA_KW(name, spelling) {spelling, Tok::Kw##name},
    TESSERA_KEYWORDS(TESSERA_KW)
#undef TESSERA_KW
};

constexpr Spelling kPunctuators[] = {
#define TESSERA_P(name, spelling) {spelling, Tok::name},
    TESSERA_PUNCTUATORS(TESSERA_P)
#undef TESSERA_P
};

bool isStringPrefix(std::string_view p) {
  static constexpr std::string_view kPrefixes[] = {"r", "u", "b", "f", "br", "rb", "fr", "rf"};
  if (p.size() > 2) return false;
  std::string lower;
  for (char c : p) lower += static_cast<char>(c | 0x20);
  for (std::string_view k : kPrefixes)
    if (lower == k) return true;
  return false;
}

bool hasPrefixChar(std::string_view prefix, char lower) {
  for (char c : prefix)
    if ((c | 0x20) == lower) return true;
  return false;
}

}  // namespace

std::string_view tokSpelling(Tok kind) {
  switch (kind) {
  case Tok::EndOfFile: return "end of file";
  case Tok::Newline: return "NEWLINE";
  case Tok::Indent: return "INDENT";
  case Tok::Dedent: return "DEDENT";
  case Tok::Name: return "identifier";
  case Tok::Int: return "integer literal";
  case Tok::Float: return "float literal";
  case Tok::String: return "string literal";
  case Tok::FString: return "f-string literal";
#define TESSERA_KW(name, spelling) case Tok::Kw##name: return spelling;
    TESSERA_KEYWORDS(TESSERA_KW)
#undef TESSERA_KW
#define TESSERA_P(name, spelling) case Tok::name: return spelling;
    TESSERA_PUNCTUATORS(TESSERA_P)
#undef TESSERA_P
  }
  return "?";
}

std::string Token::describe() const {
  if (kind == Tok::EndOfFile) return "end of file";
  std::string_view s = text.empty() ? tokSpelling(kind) : text;
  // A triple-quoted string may span lines; messages stay on one.
  size_t cut = std::min(s.find_first_of("\r\n"), size_t{24});
  std::string out = "'" + std::string(s.substr(0, cut));
  if (cut < s.size()) out += "...";
  return out + "'";
}

Token& Lexer::push(Tok kind, size_t start, size_t end) {
  Token t;
  t.kind = kind;
  t.loc = loc(start);
  t.text = src_.substr(start, end - start);
  toks_.push_back(std::move(t));
  return toks_.back();
}

std::vector<Token> Lexer::lexAll() {
  do lexLines();
  while (resyncAfterUnclosedBracket());
  pushNewlineAfterLastToken();
  for (size_t i = 1; i < indents_.size(); ++i) push(Tok::Dedent, pos_, pos_);
  push(Tok::EndOfFile, pos_, pos_);
  return std::move(toks_);
}

void Lexer::lexLines() {
  while (true) {
    if (atLineStart_ && brackets_.empty()) lexIndentation();
    atLineStart_ = false;
    while (peek() == ' ' || peek() == '\t' || peek() == '\f') ++pos_;
    if (atEnd()) return;
    char c = src_[pos_];
    if (c == '#') {
      while (!atEnd() && peek() != '\n' && peek() != '\r') ++pos_;
    } else if (c == '\n' || c == '\r') {
      size_t start = pos_;
      pos_ += (c == '\r' && peek(1) == '\n') ? 2 : 1;
      // Inside brackets lines join implicitly; blank lines end nothing.
      if (brackets_.empty()) {
        if (!toks_.empty() && !toks_.back().is(Tok::Newline)) push(Tok::Newline, start, start);
        atLineStart_ = true;
      } else {
        noteLineInsideBrackets();
      }
    } else if (c == '\\') {
      if (peek(1) == '\n' || peek(1) == '\r') {
        pos_ += (peek(1) == '\r' && peek(2) == '\n') ? 3 : 2;
      } else {
        diags_.error(loc(pos_), pos_ + 1 >= src_.size()
                                    ? "unexpected end of file after line continuation character"
                                    : "unexpected character after line continuation character");
        ++pos_;
      }
    } else {
      lexToken();
    }
  }
}

// Right after the last token, so that "expected ')' ..., found 'NEWLINE'" for
// a bracket left open points at the line that left it open.
void Lexer::pushNewlineAfterLastToken() {
  if (toks_.empty() || toks_.back().is(Tok::Newline)) return;
  const Token& last = toks_.back();
  size_t end = static_cast<size_t>(last.text.data() - src_.data()) + last.text.size();
  push(Tok::Newline, end, end);
}

void Lexer::noteLineInsideBrackets() {
  if (checkpoint_) return;
  std::string_view rest = src_.substr(pos_);
  size_t i = std::min(rest.find_first_not_of(" \t"), rest.size());
  bool blank = i == rest.size() || rest[i] == '\n' || rest[i] == '\r' || rest[i] == '#';
  if (!blank && i <= outerBracketIndent_) checkpoint_ = Checkpoint{pos_, toks_.size()};
}

// A bracket still open at the end of the file swallowed every later line
// into one statement. Ending that statement at the checkpoint instead makes
// the parser report the bracket at its own line and parse the rest normally.
// Bounded, because each restart lexes the rest of the file again.
bool Lexer::resyncAfterUnclosedBracket() {
  if (brackets_.empty() || !checkpoint_ || resyncs_ >= 25) return false;
  ++resyncs_;
  toks_.resize(checkpoint_->tokenCount);
  pushNewlineAfterLastToken();
  pos_ = checkpoint_->offset;
  checkpoint_.reset();
  brackets_.clear();
  atLineStart_ = true;
  return true;
}

void Lexer::lexIndentation() {
  uint32_t col = 0;
  for (;; ++pos_) {
    char c = peek();
    if (c == ' ') {
      ++col;
    } else if (c == '\t') {
      // Python's tab rules make indentation depend on an invisible setting;
      // kernels are indented with spaces, so a tab is a mistake worth naming.
      if (!reportedTab_) diags_.error(loc(pos_), "tab character in indentation; indent with spaces");
      reportedTab_ = true;
      col = (col / 8 + 1) * 8;
    } else if (c == '\f') {
      col = 0;
    } else {
      break;
    }
  }
  char c = peek();
  if (atEnd() || c == '#' || c == '\n' || c == '\r') return;  // blank line
  if (col > indents_.back()) {
    indents_.push_back(col);
    push(Tok::Indent, pos_, pos_);
    return;
  }
  while (col < indents_.back()) {
    if (col > indents_[indents_.size() - 2]) {
      // Keep the line in the inner block at its new width, so the lines after
      // it that share the width do not each produce another error.
      diags_.error(loc(pos_), "unindent does not match any outer indentation level");
      indents_.back() = col;
      break;
    }
    indents_.pop_back();
    push(Tok::Dedent, pos_, pos_);
  }
}

void Lexer::lexToken() {
  char c = src_[pos_];
  if (isAlpha(c)) return lexName();
  if (isDigit(c) || (c == '.' && isDigit(peek(1)))) return lexNumber();
  if (c == '"' || c == '\'') return lexString(pos_, {});
  lexPunctuator();
}

void Lexer::lexName() {
  size_t start = pos_;
  while (isIdentChar(peek())) ++pos_;
  std::string_view text = src_.substr(start, pos_ - start);
  if ((peek() == '"' || peek() == '\'') && isStringPrefix(text)) return lexString(start, text);
  for (const Spelling& kw : kKeywords) {
    if (kw.text == text) {
      push(kw.kind, start, pos_);
      return;
    }
  }
  push(Tok::Name, start, pos_);
}

bool Lexer::scanDigits(int base, bool leadingUnderscoreOk, std::string& digits) {
  bool ok = true;
  bool underscoreOk = leadingUnderscoreOk;
  while (true) {
    char c = peek();
    if (c == '_' && !atEnd()) {
      // Python allows one '_' between digits (and right after a base prefix).
      if (!underscoreOk || digitValue(peek(1)) >= base) ok = false;
      ++pos_;
      underscoreOk = false;
      continue;
    }
    if (atEnd() || digitValue(c) >= base) return ok;
    digits += c;
    ++pos_;
    underscoreOk = true;
  }
}

void Lexer::lexNumber() {
  size_t start = pos_;
  char prefix = static_cast<char>(peek(1) | 0x20);
  if (peek() == '0' && (prefix == 'x' || prefix == 'o' || prefix == 'b')) {
    int base = prefix == 'x' ? 16 : prefix == 'o' ? 8 : 2;
    const char* what = prefix == 'x' ? "hexadecimal" : prefix == 'o' ? "octal" : "binary";
    pos_ += 2;
    std::string digits;
    bool ok = scanDigits(base, true, digits) && !digits.empty();
    if (isIdentChar(peek())) {
      ok = false;
      while (isIdentChar(peek())) ++pos_;
    }
    uint64_t v = 0;
    bool overflow = false;
    for (char d : digits) {
      auto dv = static_cast<uint64_t>(digitValue(d));
      if (v > (std::numeric_limits<uint64_t>::max() - dv) / base) overflow = true;
      v = v * base + dv;
    }
    push(Tok::Int, start, pos_).intValue = v;
    if (!ok) diags_.error(loc(start), std::string("invalid ") + what + " literal");
    else if (overflow) diags_.error(loc(start), "integer literal is too large");
    return;
  }

  std::string text;  // underscores removed
  bool ok = scanDigits(10, false, text);
  bool isFloat = false;
  if (peek() == '.') {
    isFloat = true;
    text += '.';
    ++pos_;
    if (isDigit(peek())) ok &= scanDigits(10, false, text);
  }
  char e = peek();
  bool signedExp = (peek(1) == '+' || peek(1) == '-') && isDigit(peek(2));
  if ((e == 'e' || e == 'E') && (isDigit(peek(1)) || signedExp)) {
    isFloat = true;
    text += 'e';
    ++pos_;
    if (signedExp) text += src_[pos_++];
    ok &= scanDigits(10, false, text);
  }
  bool imaginary = peek() == 'j' || peek() == 'J';
  if (isIdentChar(peek())) {
    ok = false;
    while (isIdentChar(peek())) ++pos_;
  }
  Token& t = push(isFloat ? Tok::Float : Tok::Int, start, pos_);
  if (imaginary) {
    diags_.error(loc(start), "complex (imaginary) literals are not supported");
  } else if (!ok) {
    diags_.error(loc(start), "invalid decimal literal");
  } else if (isFloat) {
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), t.floatValue);
    // from_chars leaves the value alone when out of range; strtod gives the
    // IEEE result (inf or 0) that Python would produce.
    if (ec == std::errc::result_out_of_range) t.floatValue = std::strtod(text.c_str(), nullptr);
  } else if (text.size() > 1 && text[0] == '0' && text.find_first_not_of('0') != std::string::npos) {
    diags_.error(loc(start),
                 "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal");
  } else {
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), t.intValue);
    if (ec != std::errc()) diags_.error(loc(start), "integer literal is too large");
  }
}

void Lexer::lexString(size_t start, std::string_view prefix) {
  if (hasPrefixChar(prefix, 'f')) return lexFString(start, prefix);
  if (hasPrefixChar(prefix, 'b'))
    diags_.error(loc(start), "bytes literals are not supported");
  bool raw = hasPrefixChar(prefix, 'r');
  pos_ = start + prefix.size();
  char q = peek();
  bool triple = peek(1) == q && peek(2) == q;
  pos_ += triple ? 3 : 1;
  std::string value;
  while (true) {
    if (atEnd()) {
      diags_.error(loc(start), triple ? "unterminated triple-quoted string literal"
                                      : "unterminated string literal");
      break;
    }
    char c = src_[pos_];
    if (!triple && (c == '\n' || c == '\r')) {
      diags_.error(loc(start), "unterminated string literal");
      break;
    }
    if (c == q && (!triple || (peek(1) == q && peek(2) == q))) {
      pos_ += triple ? 3 : 1;
      break;
    }
    if (c == '\\' && !raw) {
      lexEscape(value);
      continue;
    }
    if (c == '\\' && pos_ + 1 < src_.size()) {
      // In a raw string a backslash still keeps the next quote from closing.
      value += c;
      ++pos_;
      c = src_[pos_];
    }
    if (c == '\r') {  // Python normalizes line ends inside strings
      c = '\n';
      if (peek(1) == '\n') ++pos_;
    }
    value += c;
    ++pos_;
  }
  push(Tok::String, start, pos_).str = std::move(value);
}

bool Lexer::lexEscape(std::string& out) {
  size_t escStart = pos_;
  if (pos_ + 1 >= src_.size()) {
    ++pos_;  // the unterminated-string error follows
    return false;
  }
  char e = src_[pos_ + 1];
  pos_ += 2;
  auto hexEscape = [&](int n, const char* what) {
    uint32_t cp = 0;
    for (int i = 0; i < n; ++i) {
      int d = digitValue(peek());
      if (d >= 16) {
        diags_.error(loc(escStart), std::string("invalid ") + what + " escape in string literal");
        return false;
      }
      cp = cp * 16 + static_cast<uint32_t>(d);
      ++pos_;
    }
    if (cp > 0x10FFFF) {
      diags_.error(loc(escStart), "escape names a character beyond U+10FFFF");
      return false;
    }
    appendUtf8(out, cp);
    return true;
  };
  switch (e) {
  case '\r':
    if (peek() == '\n') ++pos_;
    return true;
  case '\n': return true;  // backslash-newline continues the string
  case '\\': case '\'': case '"': out += e; return true;
  case 'a': out += '\a'; return true;
  case 'b': out += '\b'; return true;
  case 'f': out += '\f'; return true;
  case 'n': out += '\n'; return true;
  case 'r': out += '\r'; return true;
  case 't': out += '\t'; return true;
  case 'v': out += '\v'; return true;
  case 'x': return hexEscape(2, "\\x");
  case 'u': return hexEscape(4, "\\u");
  case 'U': return hexEscape(8, "\\U");
  default: break;
  }
  if (e >= '0' && e <= '7') {
    uint32_t cp = static_cast<uint32_t>(e - '0');
    for (int i = 0; i < 2 && peek() >= '0' && peek() <= '7' && !atEnd(); ++i) cp = cp * 8 + (src_[pos_++] - '0');
    appendUtf8(out, cp);
    return true;
  }
  // Python keeps unknown escapes verbatim.
  out += '\\';
  out += e;
  return true;
}

void Lexer::lexPunctuator() {
  std::string_view rest = src_.substr(pos_);
  for (const Spelling& p : kPunctuators) {
    if (rest.substr(0, p.text.size()) != p.text) continue;
    push(p.kind, pos_, pos_ + p.text.size());
    pos_ += p.text.size();
    char c = p.text[0];
    // Only the depth matters here (for line joining); the parser reports
    // mismatched brackets, with both ends located.
    if (c == '(' || c == '[' || c == '{') {
      if (brackets_.empty()) {
        std::string_view line = file_.lineText(loc(pos_ - 1).line);
        outerBracketIndent_ = static_cast<uint32_t>(std::min(line.find_first_not_of(" \t"), line.size()));
        checkpoint_.reset();
      }
      brackets_.push_back(c);
    } else if ((c == ')' || c == ']' || c == '}') && !brackets_.empty()) {
      brackets_.pop_back();
    }
    return;
  }
  skipInvalidCharacter();
}

void Lexer::skipInvalidCharacter() {
  size_t start = pos_;
  auto lead = static_cast<unsigned char>(src_[pos_]);
  size_t len = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
  bool valid = len != 0 && start + len <= src_.size();
  uint32_t cp = len == 1 ? lead : len == 2 ? (lead & 0x1F) : len == 3 ? (lead & 0x0F) : (lead & 0x07);
  for (size_t i = 1; valid && i < len; ++i) {
    auto b = static_cast<unsigned char>(src_[start + i]);
    valid = (b & 0xC0) == 0x80;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (!valid) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "invalid UTF-8 byte 0x%02X in source", lead);
    diags_.error(loc(start), buf);
    ++pos_;
    return;
  }
  pos_ += len;
  char code[16];
  std::snprintf(code, sizeof code, "U+%04X", cp);
  bool printable = cp >= 0x20 && cp != 0x7F;
  std::string shown = printable ? "'" + std::string(src_.substr(start, len)) + "' " : "";
  diags_.error(loc(start), "invalid character " + shown + "(" + code + ")");
}

}  // namespace tessera::frontend
