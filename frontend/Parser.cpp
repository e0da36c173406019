#include "frontend/Parser.h"

#include <algorithm>
#include <string>

namespace tessera::frontend {

// Statement parsing lives in this file; expressions in ParserExpr.cpp.

Parser::Parser(const SourceFile& file, DiagnosticEngine& diags) : file_(file), diags_(diags) {
  size_t before = diags.diagnostics().size();
  toks_ = Lexer(file, diags).lexAll();
  for (size_t i = before; i < diags.diagnostics().size(); ++i)
    lexErrorLines_.push_back(diags.diagnostics()[i].loc.line);
  std::sort(lexErrorLines_.begin(), lexErrorLines_.end());
}

const Token& Parser::peekTok(size_t n) const { return toks_[std::min(pos_ + n, toks_.size() - 1)]; }

const Token& Parser::advance() {
  const Token& t = toks_[pos_];
  if (pos_ + 1 < toks_.size()) ++pos_;
  return t;
}

bool Parser::accept(Tok k) {
  if (!at(k)) return false;
  advance();
  return true;
}

void Parser::error(SourceLoc loc, std::string message) {
  lastErrorDropped_ = std::binary_search(lexErrorLines_.begin(), lexErrorLines_.end(), loc.line);
  if (!lastErrorDropped_) diags_.error(loc, std::move(message));
}

void Parser::note(SourceLoc loc, std::string message) {
  if (!lastErrorDropped_) diags_.note(loc, std::move(message));
}

void Parser::errorExpected(std::string_view what) {
  // `(y := 1)` is valid Python; say what is unsupported, not what was expected.
  if (at(Tok::ColonEqual)) return error(cur().loc, "assignment expressions (':=') are not supported in kernels");
  error(cur().loc, "expected " + std::string(what) + ", found " + cur().describe());
}

bool Parser::expect(Tok k, std::string_view context) {
  if (accept(k)) return true;
  errorExpected("'" + std::string(tokSpelling(k)) + "' " + std::string(context));
  return false;
}

bool Parser::expectClose(Tok close, const Token& open, std::string_view context) {
  if (accept(close)) return true;
  bool walrus = at(Tok::ColonEqual);
  expect(close, context);
  if (!walrus) note(open.loc, "to match this '" + std::string(tokSpelling(open.kind)) + "'");
  return false;
}

bool Parser::enterChain() {
  if (++chain_ <= kMaxChain) return true;
  error(cur().loc, "an expression or if/elif chain is too long (more than " + std::to_string(kMaxChain) + " links)");
  return false;
}

bool Parser::enterNesting() {
  if (++nesting_ <= kMaxNesting) return true;
  error(cur().loc, "code is nested too deeply (more than " + std::to_string(kMaxNesting) + " levels)");
  return false;
}

namespace {

std::optional<std::string> takeDocstring(StmtList& body) {
  if (body.empty()) return std::nullopt;
  auto* e = dynCast<ExprStmt>(body.front().get());
  auto* s = e ? dynCast<StrExpr>(e->value.get()) : nullptr;
  if (!s) return std::nullopt;
  std::string doc = std::move(s->value);
  body.erase(body.begin());
  return doc;
}

bool allowedAtModuleLevel(const Stmt& s) {
  switch (s.kind) {
  case StmtKind::Import:
  case StmtKind::ImportFrom:
  case StmtKind::Assign:
  case StmtKind::AnnAssign:
  case StmtKind::FunctionDef:
    return true;
  case StmtKind::Expr:  // a docstring, or a string used as a comment
    return isa<StrExpr>(static_cast<const ExprStmt&>(s).value.get());
  default:
    return false;
  }
}

std::string_view unsupportedStatement(Tok k) {
  switch (k) {
  case Tok::KwClass: return "class";
  case Tok::KwTry: case Tok::KwExcept: case Tok::KwFinally: return "try";
  case Tok::KwWith: return "with";
  case Tok::KwAsync: return "async";
  case Tok::KwDel: return "del";
  case Tok::KwGlobal: return "global";
  case Tok::KwNonlocal: return "nonlocal";
  case Tok::KwYield: return "yield";
  case Tok::KwAwait: return "await";
  default: return {};
  }
}

}  // namespace

std::unique_ptr<Module> Parser::parseModule() {
  auto m = std::make_unique<Module>();
  m->fileId = file_.id();
  while (!at(Tok::EndOfFile) && !diags_.limitReached()) {
    if (accept(Tok::Dedent)) continue;  // unreachable with a balanced lexer; keeps progress
    size_t before = pos_;
    size_t first = m->body.size();
    if (!parseStatement(m->body)) {
      synchronize();
      if (pos_ == before) advance();
      continue;
    }
    for (size_t i = first; i < m->body.size();) {
      if (allowedAtModuleLevel(*m->body[i])) {
        ++i;
        continue;
      }
      // return/break/continue were already reported as being outside a function or loop.
      StmtKind k = m->body[i]->kind;
      if (k != StmtKind::Return && k != StmtKind::Break && k != StmtKind::Continue)
        error(m->body[i]->loc, "only imports, assignments and function definitions are allowed at module level");
      m->body.erase(m->body.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  m->docstring = takeDocstring(m->body);
  diags_.sortByLocation();  // lexer errors were all reported before the parser's
  return m;
}

ExprPtr Parser::parseStandaloneExpression() {
  ExprPtr e = parseTestList();
  if (!e) return nullptr;
  accept(Tok::Newline);
  if (at(Tok::EndOfFile)) return e;
  errorExpected("end of expression");
  return nullptr;
}

FrontendResult<std::unique_ptr<Module>> parseFile(const SourceManager& sources, uint32_t fileId) {
  DiagnosticEngine diags(sources);
  const SourceFile* file = sources.file(fileId);
  if (!file) {
    diags.error({}, "no source file with id " + std::to_string(fileId));
    return makeFrontendError(diags);
  }
  auto module = Parser(*file, diags).parseModule();
  if (diags.hasErrors()) return makeFrontendError(diags);
  return module;
}

// Skips the rest of the broken statement and any block it opened (and the
// elif/else clauses hanging off that block), so one mistake yields one error.
void Parser::synchronize() {
  while (true) {
    while (!at(Tok::EndOfFile) && !at(Tok::Newline) && !at(Tok::Indent) && !at(Tok::Dedent)) advance();
    accept(Tok::Newline);
    if (at(Tok::Indent)) skipBlock();
    if (!at(Tok::KwElif) && !at(Tok::KwElse)) return;
  }
}

void Parser::skipBlock() {
  int depth = 0;
  do {
    if (at(Tok::Indent)) ++depth;
    else if (at(Tok::Dedent)) --depth;
    advance();
  } while (depth > 0 && !at(Tok::EndOfFile));
}

void Parser::parseStatementsUntilDedent(StmtList& out) {
  while (!at(Tok::Dedent) && !at(Tok::EndOfFile) && !diags_.limitReached()) {
    size_t before = pos_;
    if (parseStatement(out)) continue;
    synchronize();
    if (pos_ == before && !at(Tok::Dedent)) advance();
  }
}

bool Parser::parseStatement(StmtList& out) {
  StmtPtr s;
  switch (cur().kind) {
  case Tok::Indent:
    error(cur().loc, "unexpected indent");
    return false;
  case Tok::KwIf: s = parseIf(); break;
  case Tok::KwFor: s = parseFor(); break;
  case Tok::KwWhile: s = parseWhile(); break;
  case Tok::KwDef:
  case Tok::At: s = parseFunctionDef(); break;
  case Tok::KwElif:
  case Tok::KwElse:
    error(cur().loc, "'" + std::string(cur().text) + "' without a matching 'if'");
    return false;
  default: {
    std::string_view what = unsupportedStatement(cur().kind);
    if (what.empty()) return parseSimpleStatements(out);
    error(cur().loc, "'" + std::string(what) + "' statements are not supported in kernels");
    return false;
  }
  }
  if (!s) return false;
  out.push_back(std::move(s));
  return true;
}

bool Parser::parseSimpleStatements(StmtList& out) {
  do {
    StmtPtr s = parseSmallStatement();
    if (!s) return false;
    out.push_back(std::move(s));
  } while (accept(Tok::Semi) && !at(Tok::Newline));
  if (accept(Tok::Newline)) return true;
  errorExpected("newline after statement");
  return false;
}

StmtPtr Parser::parseSmallStatement() {
  const Token& t = cur();
  SourceLoc loc = t.loc;
  switch (t.kind) {
  case Tok::KwPass: advance(); return std::make_unique<PassStmt>(loc);
  case Tok::KwBreak:
  case Tok::KwContinue: {
    // Python rejects these outside a loop at compile time; so do we.
    bool isBreak = t.is(Tok::KwBreak);
    if (loopDepth_ == 0) error(loc, std::string(isBreak ? "'break'" : "'continue'") + " outside loop");
    advance();
    if (isBreak) return std::make_unique<BreakStmt>(loc);
    return std::make_unique<ContinueStmt>(loc);
  }
  case Tok::KwReturn: {
    if (!inFunction_) error(loc, "'return' outside function");
    advance();
    auto r = std::make_unique<ReturnStmt>(loc);
    if (!at(Tok::Newline) && !at(Tok::Semi) && !(r->value = parseTestList())) return nullptr;
    return r;
  }
  case Tok::KwAssert: {
    advance();
    auto a = std::make_unique<AssertStmt>(loc);
    if (!(a->test = parseTest())) return nullptr;
    if (accept(Tok::Comma) && !(a->msg = parseTest())) return nullptr;
    return a;
  }
  case Tok::KwRaise: {
    advance();
    auto r = std::make_unique<RaiseStmt>(loc);
    if (!at(Tok::Newline) && !at(Tok::Semi)) {
      if (!(r->exc = parseTest())) return nullptr;
      if (accept(Tok::KwFrom) && !(r->cause = parseTest())) return nullptr;
    }
    return r;
  }
  case Tok::KwImport: return parseImport();
  case Tok::KwFrom: return parseFromImport();
  default: {
    std::string_view what = unsupportedStatement(t.kind);
    if (what.empty()) return parseExprStatement();
    error(loc, "'" + std::string(what) + "' statements are not supported in kernels");
    return nullptr;
  }
  }
}

namespace {

std::optional<BinaryOp> augmentedOp(Tok k) {
  switch (k) {
  case Tok::PlusEqual: return BinaryOp::Add;
  case Tok::MinusEqual: return BinaryOp::Sub;
  case Tok::StarEqual: return BinaryOp::Mul;
  case Tok::SlashEqual: return BinaryOp::Div;
  case Tok::SlashSlashEqual: return BinaryOp::FloorDiv;
  case Tok::PercentEqual: return BinaryOp::Mod;
  case Tok::StarStarEqual: return BinaryOp::Pow;
  case Tok::AtEqual: return BinaryOp::MatMul;
  case Tok::LessLessEqual: return BinaryOp::LShift;
  case Tok::GreaterGreaterEqual: return BinaryOp::RShift;
  case Tok::AmpEqual: return BinaryOp::BitAnd;
  case Tok::PipeEqual: return BinaryOp::BitOr;
  case Tok::CaretEqual: return BinaryOp::BitXor;
  default: return std::nullopt;
  }
}

// Names Python uses in "cannot assign to ..." messages.
std::string_view exprDescription(const Expr& e) {
  switch (e.kind) {
  case ExprKind::Call: return "function call";
  case ExprKind::Int: case ExprKind::Float: case ExprKind::Str: return "literal";
  case ExprKind::Bool: return static_cast<const BoolExpr&>(e).value ? "True" : "False";
  case ExprKind::NoneLit: return "None";
  case ExprKind::Tuple: return "tuple";
  case ExprKind::List: return "list";
  case ExprKind::Dict: return "dict literal";
  case ExprKind::Compare: return "comparison";
  case ExprKind::IfExp: return "conditional expression";
  case ExprKind::Lambda: return "lambda";
  case ExprKind::Comprehension: return "comprehension";
  case ExprKind::Slice: return "slice";
  case ExprKind::JoinedStr: return "f-string expression";
  default: return "expression";
  }
}

}  // namespace

// Targets are names, attributes and subscripts; plain assignment and for loops
// also unpack into (nested) tuples and lists of them.
bool Parser::checkTarget(const Expr* e, StmtKind kind) {
  if (isa<NameExpr>(e) || isa<AttributeExpr>(e) || isa<SubscriptExpr>(e)) return true;
  bool sequence = isa<TupleExpr>(e) || isa<ListExpr>(e);
  if (sequence && (kind == StmtKind::Assign || kind == StmtKind::For)) {
    const ExprList& elts = isa<TupleExpr>(e) ? static_cast<const TupleExpr*>(e)->elts
                                             : static_cast<const ListExpr*>(e)->elts;
    for (const ExprPtr& x : elts)
      if (!checkTarget(x.get(), kind)) return false;
    return true;
  }
  std::string what(exprDescription(*e));
  if (kind == StmtKind::AugAssign)
    error(e->loc, "'" + what + "' is an illegal expression for augmented assignment");
  else if (kind == StmtKind::AnnAssign && sequence)
    error(e->loc, "only a single target (not a " + what + ") can be annotated");
  else
    error(e->loc, "cannot assign to " + what);
  return false;
}

StmtPtr Parser::parseExprStatement() {
  SourceLoc loc = cur().loc;
  ExprPtr first = parseTestList();
  if (!first) return nullptr;

  if (accept(Tok::Colon)) {
    if (!checkTarget(first.get(), StmtKind::AnnAssign)) return nullptr;
    auto a = std::make_unique<AnnAssignStmt>(loc);
    a->target = std::move(first);
    if (!(a->annotation = parseTest())) return nullptr;
    if (accept(Tok::Equal) && !(a->value = parseTestList())) return nullptr;
    return a;
  }
  if (auto op = augmentedOp(cur().kind)) {
    if (!checkTarget(first.get(), StmtKind::AugAssign)) return nullptr;
    advance();
    auto a = std::make_unique<AugAssignStmt>(loc);
    a->target = std::move(first);
    a->op = *op;
    if (!(a->value = parseTestList())) return nullptr;
    return a;
  }
  if (at(Tok::Equal)) {
    auto a = std::make_unique<AssignStmt>(loc);
    a->targets.push_back(std::move(first));
    while (accept(Tok::Equal)) {
      ExprPtr next = parseTestList();
      if (!next) return nullptr;
      a->targets.push_back(std::move(next));
    }
    a->value = std::move(a->targets.back());
    a->targets.pop_back();
    for (const ExprPtr& t : a->targets)
      if (!checkTarget(t.get(), StmtKind::Assign)) return nullptr;
    return a;
  }
  if (at(Tok::ColonEqual)) {
    error(cur().loc, "assignment expressions (':=') are not supported in kernels");
    return nullptr;
  }
  auto s = std::make_unique<ExprStmt>(loc);
  s->value = std::move(first);
  return s;
}

std::optional<StmtList> Parser::parseBlock(std::string_view owner) {
  NestingGuard guard(*this);
  if (!guard.ok) return std::nullopt;
  StmtList body;
  if (!at(Tok::Newline)) {  // "if x: return" keeps its body on the header line
    if (!parseSimpleStatements(body)) return std::nullopt;
    return body;
  }
  advance();
  if (!accept(Tok::Indent)) {
    errorExpected("an indented block after " + std::string(owner));
    return std::nullopt;
  }
  parseStatementsUntilDedent(body);
  accept(Tok::Dedent);
  return body;
}

StmtPtr Parser::parseIf() {
  bool isElif = at(Tok::KwElif);
  int outerChain = chain_;  // elif chains recurse
  struct Restore {
    int &chain, value;
    ~Restore() { chain = value; }
  } restore{chain_, outerChain};
  if (isElif && !enterChain()) return nullptr;
  auto s = std::make_unique<IfStmt>(advance().loc);
  std::string_view owner = isElif ? "'elif' statement" : "'if' statement";
  if (!(s->test = parseTest())) return nullptr;
  if (!expect(Tok::Colon, isElif ? "after elif condition" : "after if condition")) return nullptr;
  auto body = parseBlock(owner);
  if (!body) return nullptr;
  s->body = std::move(*body);
  if (at(Tok::KwElif)) {
    StmtPtr elif = parseIf();
    if (!elif) return nullptr;
    s->orelse.push_back(std::move(elif));
  } else if (accept(Tok::KwElse)) {
    if (!expect(Tok::Colon, "after 'else'")) return nullptr;
    auto orelse = parseBlock("'else' clause");
    if (!orelse) return nullptr;
    s->orelse = std::move(*orelse);
  }
  return s;
}

bool Parser::parseLoopBody(std::string_view owner, StmtList &out) {
  ++loopDepth_;
  auto body = parseBlock(owner);
  --loopDepth_;
  if (!body) return false;
  out = std::move(*body);
  if (at(Tok::KwElse)) {
    error(cur().loc, "'else' clauses on loops are not supported in kernels");
    synchronize();
  }
  return true;
}

StmtPtr Parser::parseFor() {
  auto s = std::make_unique<ForStmt>(advance().loc);
  if (!(s->target = parseTargetList()) || !checkTarget(s->target.get(), StmtKind::For)) return nullptr;
  if (!expect(Tok::KwIn, "after for-loop target")) return nullptr;
  if (!(s->iter = parseTestList())) return nullptr;
  if (!expect(Tok::Colon, "after for-loop iterable")) return nullptr;
  if (!parseLoopBody("'for' statement", s->body)) return nullptr;
  return s;
}

StmtPtr Parser::parseWhile() {
  auto s = std::make_unique<WhileStmt>(advance().loc);
  if (!(s->test = parseTest())) return nullptr;
  if (!expect(Tok::Colon, "after while condition")) return nullptr;
  if (!parseLoopBody("'while' statement", s->body)) return nullptr;
  return s;
}

StmtPtr Parser::parseFunctionDef() {
  ExprList decorators;
  while (at(Tok::At)) {
    advance();
    ExprPtr d = parseTest();
    if (!d) return nullptr;
    if (!accept(Tok::Newline)) {
      errorExpected("newline after decorator");
      return nullptr;
    }
    decorators.push_back(std::move(d));
  }
  if (!at(Tok::KwDef)) {
    if (at(Tok::KwClass)) error(cur().loc, "'class' statements are not supported in kernels");
    else errorExpected("'def' after decorators");
    return nullptr;
  }
  if (inFunction_) {
    error(cur().loc, "nested function definitions are not supported in kernels");
    return nullptr;
  }
  auto fn = std::make_unique<FunctionDef>(advance().loc);
  fn->decorators = std::move(decorators);
  if (!at(Tok::Name)) {
    errorExpected("function name after 'def'");
    return nullptr;
  }
  fn->name = std::string(advance().text);
  if (!parseParameters(*fn)) return nullptr;
  if (accept(Tok::Arrow) && !(fn->returns = parseTest())) return nullptr;
  if (!expect(Tok::Colon, "after function signature")) return nullptr;
  inFunction_ = true;
  int outerLoops = std::exchange(loopDepth_, 0);
  auto body = parseBlock("function definition");
  inFunction_ = false;
  loopDepth_ = outerLoops;
  if (!body) return nullptr;
  fn->body = std::move(*body);
  fn->docstring = takeDocstring(fn->body);
  return fn;
}

bool Parser::parseParameters(FunctionDef& fn) {
  const Token& open = cur();
  if (!expect(Tok::LParen, "after function name")) return false;
  bool sawDefault = false;
  while (!at(Tok::RParen)) {
    if (at(Tok::Star) || at(Tok::StarStar) || at(Tok::Slash)) {
      error(cur().loc, "'" + std::string(cur().text) + "' parameters are not supported in kernels");
      return false;
    }
    if (!at(Tok::Name)) {
      errorExpected("parameter name");
      return false;
    }
    Param p;
    p.loc = cur().loc;
    p.name = std::string(advance().text);
    for (const Param& q : fn.params)
      if (q.name == p.name) error(p.loc, "duplicate parameter '" + p.name + "'");
    if (accept(Tok::Colon) && !(p.annotation = parseTest())) return false;
    if (accept(Tok::Equal)) {
      if (!(p.defaultValue = parseTest())) return false;
      sawDefault = true;
    } else if (sawDefault) {
      error(p.loc, "parameter without a default follows parameter with a default");
    }
    fn.params.push_back(std::move(p));
    if (!accept(Tok::Comma)) break;
  }
  return expectClose(Tok::RParen, open, "after parameters");
}

bool Parser::parseImportAlias(std::vector<ImportAlias>& out, bool dotted) {
  ImportAlias a;
  a.loc = cur().loc;
  do {
    if (!at(Tok::Name)) {
      errorExpected(dotted ? "module name" : "name to import");
      return false;
    }
    if (!a.name.empty()) a.name += '.';
    a.name += advance().text;
  } while (dotted && accept(Tok::Dot));
  if (accept(Tok::KwAs)) {
    if (!at(Tok::Name)) {
      errorExpected("name after 'as'");
      return false;
    }
    a.asname = std::string(advance().text);
  }
  out.push_back(std::move(a));
  return true;
}

StmtPtr Parser::parseImport() {
  auto s = std::make_unique<ImportStmt>(advance().loc);
  do {
    if (!parseImportAlias(s->names, true)) return nullptr;
  } while (accept(Tok::Comma));
  return s;
}

StmtPtr Parser::parseFromImport() {
  auto s = std::make_unique<ImportFromStmt>(advance().loc);
  for (;; advance()) {
    if (at(Tok::Dot)) s->level += 1;
    else if (at(Tok::Ellipsis)) s->level += 3;
    else break;
  }
  if (s->level == 0 || at(Tok::Name)) {
    std::vector<ImportAlias> module;
    if (!parseImportAlias(module, true)) return nullptr;
    if (!module[0].asname.empty()) {
      error(module[0].loc, "expected 'import' after module name, found 'as'");
      return nullptr;
    }
    s->module = module[0].name;
  }
  if (!expect(Tok::KwImport, "after module name")) return nullptr;
  if (at(Tok::Star)) {
    error(cur().loc, "wildcard imports ('*') are not supported");
    return nullptr;
  }
  const Token& open = cur();
  bool paren = accept(Tok::LParen);
  do {
    if (paren && at(Tok::RParen)) break;  // trailing comma
    if (!parseImportAlias(s->names, false)) return nullptr;
  } while (accept(Tok::Comma));
  if (paren && !expectClose(Tok::RParen, open, "after imported names")) return nullptr;
  return s;
}

}  // namespace tessera::frontend
