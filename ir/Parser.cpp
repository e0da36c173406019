#include "ir/Parser.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <unordered_map>
#include <unordered_set>

namespace tessera::ir {
namespace {

struct ParseFailure {
  size_t pos;
  std::string message;
};

class Parser {
public:
  Parser(std::string_view text, std::string filename) : text_(text), file_(std::move(filename)) {}

  std::unique_ptr<Module> parseModule() {
    auto m = std::make_unique<Module>();
    skipSpace();
    if (acceptKeyword("module")) m->attrs() = parseAttrDict();
    while (skipSpace(), !atEnd()) parseFunction(*m);
    return m;
  }

  Type parseTypeOnly() {
    Type t = parseType();
    skipSpace();
    if (!atEnd()) fail("unexpected text after type");
    return t;
  }

  std::string format(const ParseFailure &f) const {
    size_t lineStart = text_.rfind('\n', f.pos == 0 ? 0 : f.pos - 1);
    lineStart = (lineStart == std::string_view::npos || f.pos == 0) ? 0 : lineStart + 1;
    if (f.pos > 0 && text_[f.pos - 1] == '\n') lineStart = f.pos;
    size_t lineEnd = text_.find('\n', lineStart);
    if (lineEnd == std::string_view::npos) lineEnd = text_.size();
    unsigned line = 1;
    for (size_t i = 0; i < lineStart; ++i) line += text_[i] == '\n';
    size_t col = f.pos - lineStart + 1;
    std::string out = file_ + ":" + std::to_string(line) + ":" + std::to_string(col) + ": error: " +
                      f.message + "\n" + std::string(text_.substr(lineStart, lineEnd - lineStart)) + "\n" +
                      std::string(col - 1, ' ') + "^";
    return out;
  }

private:
  // ---- characters

  bool atEnd() const { return pos_ >= text_.size(); }
  char peek(size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }

  void skipSpace() {
    while (!atEnd()) {
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++pos_;
      } else if (c == '/' && peek(1) == '/') {
        while (!atEnd() && peek() != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  [[noreturn]] void fail(std::string msg) const { throw ParseFailure{pos_, std::move(msg)}; }
  [[noreturn]] void failAt(size_t pos, std::string msg) const { throw ParseFailure{pos, std::move(msg)}; }

  std::string describeNext() {
    skipSpace();
    if (atEnd()) return "end of input";
    size_t end = pos_;
    if (std::isalnum((unsigned char)peek()) || peek() == '_' || peek() == '%' || peek() == '@') {
      ++end;
      while (end < text_.size() && (std::isalnum((unsigned char)text_[end]) || text_[end] == '_' || text_[end] == '.'))
        ++end;
    } else {
      ++end;
    }
    return "'" + std::string(text_.substr(pos_, end - pos_)) + "'";
  }

  void expect(char c, const char *context) {
    skipSpace();
    if (peek() != c) fail(std::string("expected '") + c + "' " + context + ", found " + describeNext());
    ++pos_;
  }
  bool accept(char c) {
    skipSpace();
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  bool acceptArrow() {
    skipSpace();
    if (peek() == '-' && peek(1) == '>') {
      pos_ += 2;
      return true;
    }
    return false;
  }

  static bool identChar(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '.'; }

  std::string_view peekIdent() {
    skipSpace();
    size_t end = pos_;
    if (end < text_.size() && (std::isalpha((unsigned char)text_[end]) || text_[end] == '_'))
      while (end < text_.size() && identChar(text_[end])) ++end;
    return text_.substr(pos_, end - pos_);
  }
  std::string parseIdent(const char *what) {
    std::string_view id = peekIdent();
    if (id.empty()) fail(std::string("expected ") + what + ", found " + describeNext());
    pos_ += id.size();
    return std::string(id);
  }
  bool acceptKeyword(std::string_view kw) {
    if (peekIdent() != kw) return false;
    pos_ += kw.size();
    return true;
  }

  int64_t parseInt(const char *what) {
    skipSpace();
    size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (!std::isdigit((unsigned char)peek())) failAt(start, std::string("expected ") + what + ", found " + describeNext());
    while (std::isdigit((unsigned char)peek())) ++pos_;
    std::string digits(text_.substr(start, pos_ - start));
    errno = 0;
    long long v = std::strtoll(digits.c_str(), nullptr, 10);
    if (errno == ERANGE && digits[0] != '-') {
      // u64 constants above INT64_MAX are kept as their bit pattern.
      errno = 0;
      unsigned long long u = std::strtoull(digits.c_str(), nullptr, 10);
      if (errno != ERANGE) return int64_t(u);
    }
    if (errno == ERANGE) failAt(start, "integer " + digits + " does not fit in 64 bits");
    return v;
  }

  std::string parseString() {
    skipSpace();
    if (peek() != '"') fail("expected a string, found " + describeNext());
    ++pos_;
    std::string out;
    while (true) {
      if (atEnd() || peek() == '\n') fail("unterminated string");
      char c = text_[pos_++];
      if (c == '"') break;
      if (c != '\\') {
        out += c;
        continue;
      }
      char e = peek();
      ++pos_;
      if (e == 'n') out += '\n';
      else if (e == 't') out += '\t';
      else if (e == '"' || e == '\\') out += e;
      else if (std::isxdigit((unsigned char)e) && std::isxdigit((unsigned char)peek())) {
        out += char(std::stoi(std::string(text_.substr(pos_ - 1, 2)), nullptr, 16));
        ++pos_;
      } else {
        failAt(pos_ - 2, "unknown escape in string");
      }
    }
    return out;
  }

  // ---- types and attributes

  Type parseType() {
    size_t start = (skipSpace(), pos_);
    std::string id = parseIdent("a type");
    ScalarKind sk;
    if (scalarKindFromName(id, sk)) return Type::scalar(sk);
    if (id == "ptr") {
      expect('<', "after 'ptr'");
      Type pointee = parseType();
      AddressSpace space = AddressSpace::Global;
      if (accept(',')) {
        size_t at = (skipSpace(), pos_);
        std::string s = parseIdent("an address space");
        if (s == "shared") space = AddressSpace::Shared;
        else if (s == "constant") space = AddressSpace::Constant;
        else if (s == "generic") space = AddressSpace::Generic;
        else if (s == "global") space = AddressSpace::Global;
        else failAt(at, "unknown address space '" + s + "' (expected global, shared, constant or generic)");
      }
      expect('>', "to close the pointer type");
      return Type::pointer(pointee, space);
    }
    if (id == "tile" || id == "smem") {
      bool buffer = id == "smem";
      expect('<', buffer ? "after 'smem'" : "after 'tile'");
      std::vector<int64_t> shape;
      skipSpace();
      while (std::isdigit((unsigned char)peek())) {
        size_t at = pos_;
        int64_t d = parseInt("a dimension");
        if (d <= 0) failAt(at, "tile dimensions must be positive");
        shape.push_back(d);
        if (peek() != 'x') fail("expected 'x' after a tile dimension, found " + describeNext());
        ++pos_;
      }
      if (shape.empty()) fail("expected the tile's dimensions, found " + describeNext());
      size_t at = pos_;
      Type elem = parseType();
      if (elem.isTile() || elem.isBuffer()) failAt(at, "the element of a tile must be a scalar or a pointer");
      const Layout *layout = nullptr;
      if (buffer) {
        if (!elem.isScalar()) failAt(at, "the element of a shared buffer must be a scalar");
        expect(',', "and a shared layout after the buffer's element type");
        layout = parseLayout();
        expect('>', "to close the buffer type");
        return Type::buffer(std::move(shape), elem, layout);
      }
      if (accept(',')) layout = parseLayout();
      expect('>', "to close the tile type");
      return Type::tile(std::move(shape), elem, layout);
    }
    failAt(start, "unknown type '" + id + "'");
  }

  const Layout *parseLayout() {
    expect('#', "to start a layout");
    std::string kind = parseIdent("a layout kind");
    expect('<', "after the layout kind");
    std::vector<Layout::Param> params;
    if (!accept('>')) {
      do {
        std::string name = parseIdent("a layout parameter");
        expect('=', "after the layout parameter name");
        params.push_back({name, parseIntList()});
      } while (accept(','));
      expect('>', "to close the layout");
    }
    return Layout::get(kind, std::move(params));
  }

  std::vector<int64_t> parseIntList() {
    expect('[', "to start an integer list");
    std::vector<int64_t> v;
    if (accept(']')) return v;
    do v.push_back(parseInt("an integer")); while (accept(','));
    expect(']', "to close the integer list");
    return v;
  }

  Attribute parseAttrValue() {
    skipSpace();
    char c = peek();
    if (c == '"') return Attribute(parseString());
    if (c == '[') return Attribute(parseIntList());
    if (c == '-' || std::isdigit((unsigned char)c)) {
      if (c == '-' && text_.substr(pos_, 4) == "-inf") {
        pos_ += 4;
        return Attribute(-HUGE_VAL);
      }
      size_t end = pos_ + 1;
      bool isFloat = false;
      while (end < text_.size() && (std::isalnum((unsigned char)text_[end]) || text_[end] == '.' ||
                                    ((text_[end] == '-' || text_[end] == '+') &&
                                     (text_[end - 1] == 'e' || text_[end - 1] == 'E')))) {
        isFloat |= text_[end] == '.' || text_[end] == 'e' || text_[end] == 'E';
        ++end;
      }
      if (!isFloat) return Attribute(parseInt("an integer"));
      std::string num(text_.substr(pos_, end - pos_));
      char *stop = nullptr;
      double v = std::strtod(num.c_str(), &stop);
      if (*stop) fail("malformed number '" + num + "'");
      pos_ = end;
      return Attribute(v);
    }
    std::string_view id = peekIdent();
    if (id == "true" || id == "false") {
      pos_ += id.size();
      return Attribute(id == "true");
    }
    if (id == "inf" || id == "nan") {
      pos_ += id.size();
      return Attribute(id == "inf" ? HUGE_VAL : std::nan(""));
    }
    if (!id.empty()) return Attribute(parseType());
    fail("expected an attribute value, found " + describeNext());
  }

  AttrDict parseAttrDict() {
    expect('{', "to start attributes");
    AttrDict d;
    if (accept('}')) return d;
    do {
      size_t at = (skipSpace(), pos_);
      std::string name = parseIdent("an attribute name");
      if (d.find(name)) failAt(at, "duplicate attribute '" + name + "'");
      expect('=', "after the attribute name");
      d.set(name, parseAttrValue());
    } while (accept(','));
    expect('}', "to close the attributes");
    return d;
  }

  // `{ name =` starts an attribute dictionary; any other `{` starts a region.
  bool atAttrDict() {
    skipSpace();
    if (peek() != '{') return false;
    size_t save = pos_;
    ++pos_;
    std::string_view id = peekIdent();
    bool result = false;
    if (!id.empty()) {
      pos_ += id.size();
      skipSpace();
      result = peek() == '=';
    }
    pos_ = save;
    return result;
  }

  bool parseLoc(Loc &loc) {
    if (peekIdent() != "loc") return false;
    pos_ += 3;
    expect('(', "after 'loc'");
    loc.file = parseString();
    expect(':', "after the location's file");
    loc.line = uint32_t(parseInt("a line number"));
    expect(':', "after the location's line");
    loc.col = uint32_t(parseInt("a column number"));
    expect(')', "to close the location");
    return true;
  }

  Loc here() {
    skipSpace();
    Loc l;
    l.file = file_;
    // Positions only move forward between calls, so count lines incrementally.
    if (pos_ < linePos_) linePos_ = 0, line_ = 1, lineStart_ = 0;
    for (; linePos_ < pos_; ++linePos_)
      if (text_[linePos_] == '\n') ++line_, lineStart_ = linePos_ + 1;
    l.line = line_;
    l.col = uint32_t(pos_ - lineStart_ + 1);
    return l;
  }

  // ---- values

  std::string parseValueName() {
    skipSpace();
    if (peek() != '%') fail("expected a value name starting with '%', found " + describeNext());
    size_t start = ++pos_;
    while (!atEnd() && identChar(peek())) ++pos_;
    if (pos_ == start) fail("expected a value name after '%'");
    return std::string(text_.substr(start, pos_ - start));
  }

  void define(const std::string &name, Value *v, size_t at) {
    if (!definedInFunction_.insert(name).second) failAt(at, "redefinition of value %" + name);
    scopes_.back()[name] = v;
    if (!std::isdigit((unsigned char)name[0])) v->setNameHint(name);
  }

  Value *lookup(const std::string &name, size_t at) {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      auto found = it->find(name);
      if (found != it->end()) return found->second;
    }
    failAt(at, "use of undefined value %" + name);
  }

  // ---- structure

  void parseFunction(Module &m) {
    size_t at = (skipSpace(), pos_);
    Loc loc = here();
    std::string kw = parseIdent("'kernel' or 'func'");
    if (kw != "kernel" && kw != "func") failAt(at, "expected 'kernel' or 'func', found '" + kw + "'");
    expect('@', "before the function name");
    size_t nameAt = pos_;
    std::string name = parseIdent("a function name");
    if (m.lookup(name)) failAt(nameAt, "redefinition of function @" + name);
    expect('(', "to start the parameter list");
    std::vector<std::pair<std::string, size_t>> argNames;
    std::vector<Type> argTypes;
    std::vector<AttrDict> argAttrs;
    if (!accept(')')) {
      do {
        size_t argAt = (skipSpace(), pos_);
        argNames.push_back({parseValueName(), argAt});
        expect(':', "after the parameter name");
        argTypes.push_back(parseType());
        argAttrs.push_back(atAttrDict() ? parseAttrDict() : AttrDict());
      } while (accept(','));
      expect(')', "to close the parameter list");
    }
    std::vector<Type> results;
    if (acceptArrow()) {
      expect('(', "to start the result types");
      if (!accept(')')) {
        do results.push_back(parseType()); while (accept(','));
        expect(')', "to close the result types");
      }
    }
    auto f = std::make_unique<Function>(name, kw == "kernel" ? FunctionKind::Kernel : FunctionKind::Device,
                                        argTypes, results);
    f->loc = loc;
    if (acceptKeyword("attributes")) f->attrs() = parseAttrDict();
    parseLoc(f->loc);
    definedInFunction_.clear();
    scopes_.assign(1, {});
    for (size_t i = 0; i < argNames.size(); ++i) {
      define(argNames[i].first, f->argument(unsigned(i)), argNames[i].second);
      f->argAttrs(unsigned(i)) = argAttrs[i];
    }
    expect('{', "to start the function body");
    parseBlockBody(f->entry(), /*allowArgs=*/false);
    m.addFunction(std::move(f));
  }

  // Parses up to and including the closing '}'.
  void parseBlockBody(Block &block, bool allowArgs) {
    skipSpace();
    if (peek() == '^') {
      if (!allowArgs) fail("function bodies take no block arguments");
      ++pos_;
      parseIdent("a block label");
      expect('(', "to start the block arguments");
      if (!accept(')')) {
        do {
          size_t at = (skipSpace(), pos_);
          std::string name = parseValueName();
          expect(':', "after the block argument name");
          define(name, block.addArgument(parseType()), at);
        } while (accept(','));
        expect(')', "to close the block arguments");
      }
      expect(':', "after the block arguments");
    }
    while (!accept('}')) {
      if (atEnd()) fail("expected '}' to close the block, found end of input");
      parseOperation(block);
    }
  }

  void parseOperation(Block &block) {
    Loc loc = here();
    std::vector<std::pair<std::string, size_t>> resultNames;
    skipSpace();
    if (peek() == '%') {
      do {
        size_t at = (skipSpace(), pos_);
        resultNames.push_back({parseValueName(), at});
      } while (accept(','));
      expect('=', "after the result names");
    }
    size_t nameAt = (skipSpace(), pos_);
    std::string opName = parseIdent("an op name");
    OpCode code;
    if (!opCodeFromName(opName, code)) failAt(nameAt, "unknown op '" + opName + "'");
    const OpInfo &info = opInfo(code);

    std::vector<Value *> operands;
    // Operands start on the op's line: a '%' on the next line begins the next op.
    while (peek() == ' ' || peek() == '\t') ++pos_;
    if (peek() == '%') {
      do {
        size_t at = (skipSpace(), pos_);
        operands.push_back(lookup(parseValueName(), at));
      } while (accept(','));
    }
    AttrDict attrs = atAttrDict() ? parseAttrDict() : AttrDict();
    std::vector<Type> types;
    size_t typesAt = (skipSpace(), pos_);
    if (accept(':')) {
      do types.push_back(parseType()); while (accept(','));
    }
    if (types.size() != resultNames.size())
      failAt(types.empty() ? nameAt : typesAt, "'" + opName + "' has " + std::to_string(resultNames.size()) +
                                                   " result name(s) but " + std::to_string(types.size()) +
                                                   " result type(s)");
    parseLoc(loc);
    auto owned = std::make_unique<Operation>(code, std::move(operands), types, std::move(attrs), loc);
    Operation *op = block.append(std::move(owned));
    for (int r = 0; r < info.numRegions; ++r) {
      expect('{', ("to start region #" + std::to_string(r) + " of '" + opName + "'").c_str());
      scopes_.emplace_back();
      parseBlockBody(op->region(unsigned(r)).block(), /*allowArgs=*/true);
      scopes_.pop_back();
    }
    for (size_t i = 0; i < resultNames.size(); ++i)
      define(resultNames[i].first, op->result(unsigned(i)), resultNames[i].second);
  }

  std::string_view text_;
  std::string file_;
  size_t pos_ = 0;
  size_t linePos_ = 0, lineStart_ = 0;
  uint32_t line_ = 1;
  std::vector<std::unordered_map<std::string, Value *>> scopes_;
  std::unordered_set<std::string> definedInFunction_;
};

} // namespace

ParseResult parseModule(std::string_view text, std::string filename) {
  Parser p(text, std::move(filename));
  ParseResult r;
  try {
    r.module = p.parseModule();
  } catch (const ParseFailure &f) {
    r.module.reset();
    r.error = p.format(f);
  }
  return r;
}

Type parseType(std::string_view text, std::string *error) {
  Parser p(text, "<type>");
  try {
    return p.parseTypeOnly();
  } catch (const ParseFailure &f) {
    if (error) *error = p.format(f);
    return Type();
  }
}

} // namespace tessera::ir
