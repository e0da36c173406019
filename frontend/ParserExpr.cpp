// Expression parsing: one function per Python precedence level, except the
// six left-associative binary levels, which share a precedence-climbing loop.
#include "frontend/Parser.h"

#include <string>

namespace tessera::frontend {

namespace {

bool startsExpression(Tok k) {
  switch (k) {
  case Tok::Name: case Tok::Int: case Tok::Float: case Tok::String: case Tok::FString:
  case Tok::KwTrue: case Tok::KwFalse: case Tok::KwNone: case Tok::KwNot: case Tok::KwLambda:
  case Tok::LParen: case Tok::LBracket: case Tok::LBrace:
  case Tok::Minus: case Tok::Plus: case Tok::Tilde: case Tok::Star: case Tok::Ellipsis:
    return true;
  default:
    return false;
  }
}

struct BinaryLevel {
  int prec = 0;  // 0: not a binary operator
  BinaryOp op = BinaryOp::Add;
};

BinaryLevel binaryLevel(Tok k) {
  switch (k) {
  case Tok::Pipe: return {1, BinaryOp::BitOr};
  case Tok::Caret: return {2, BinaryOp::BitXor};
  case Tok::Amp: return {3, BinaryOp::BitAnd};
  case Tok::LessLess: return {4, BinaryOp::LShift};
  case Tok::GreaterGreater: return {4, BinaryOp::RShift};
  case Tok::Plus: return {5, BinaryOp::Add};
  case Tok::Minus: return {5, BinaryOp::Sub};
  case Tok::Star: return {6, BinaryOp::Mul};
  case Tok::Slash: return {6, BinaryOp::Div};
  case Tok::SlashSlash: return {6, BinaryOp::FloorDiv};
  case Tok::Percent: return {6, BinaryOp::Mod};
  case Tok::At: return {6, BinaryOp::MatMul};
  default: return {};
  }
}

template <typename T>
std::unique_ptr<T> node(SourceLoc loc) {
  return std::make_unique<T>(loc);
}

}  // namespace

ExprPtr Parser::parseTestList() {
  ExprPtr first = parseTest();
  if (!first || !at(Tok::Comma)) return first;
  auto t = node<TupleExpr>(first->loc);
  t->elts.push_back(std::move(first));
  while (accept(Tok::Comma) && startsExpression(cur().kind)) {
    ExprPtr e = parseTest();
    if (!e) return nullptr;
    t->elts.push_back(std::move(e));
  }
  return t;
}

// A for-loop target stops below comparisons, so that its 'in' is not taken
// for the membership operator.
ExprPtr Parser::parseTargetList() {
  ExprPtr first = parseBinary(1);
  if (!first || !at(Tok::Comma)) return first;
  auto t = node<TupleExpr>(first->loc);
  t->elts.push_back(std::move(first));
  while (accept(Tok::Comma) && !at(Tok::KwIn)) {
    ExprPtr e = parseBinary(1);
    if (!e) return nullptr;
    t->elts.push_back(std::move(e));
  }
  return t;
}

ExprPtr Parser::parseTest() {
  NestingGuard guard(*this);
  if (!guard.ok) return nullptr;
  if (at(Tok::KwLambda)) return parseLambda();
  ExprPtr body = parseOr();
  if (!body || !accept(Tok::KwIf)) return body;
  auto e = node<IfExpr>(body->loc);
  e->body = std::move(body);
  if (!(e->test = parseOr())) return nullptr;
  if (!expect(Tok::KwElse, "in conditional expression")) return nullptr;
  if (!(e->orelse = parseTest())) return nullptr;
  return e;
}

ExprPtr Parser::parseLambda() {
  auto l = node<LambdaExpr>(advance().loc);
  while (!at(Tok::Colon)) {
    if (!at(Tok::Name)) {
      errorExpected("lambda parameter name or ':'");
      return nullptr;
    }
    l->params.emplace_back(advance().text);
    if (!accept(Tok::Comma)) break;
  }
  if (!expect(Tok::Colon, "after lambda parameters")) return nullptr;
  if (!(l->body = parseTest())) return nullptr;
  return l;
}

ExprPtr Parser::parseOr() {
  ExprPtr first = parseAnd();
  if (!first || !at(Tok::KwOr)) return first;
  auto b = node<BoolOpExpr>(first->loc);
  b->op = BoolOpKind::Or;
  b->values.push_back(std::move(first));
  while (accept(Tok::KwOr)) {
    ExprPtr e = parseAnd();
    if (!e) return nullptr;
    b->values.push_back(std::move(e));
  }
  return b;
}

ExprPtr Parser::parseAnd() {
  ExprPtr first = parseNot();
  if (!first || !at(Tok::KwAnd)) return first;
  auto b = node<BoolOpExpr>(first->loc);
  b->op = BoolOpKind::And;
  b->values.push_back(std::move(first));
  while (accept(Tok::KwAnd)) {
    ExprPtr e = parseNot();
    if (!e) return nullptr;
    b->values.push_back(std::move(e));
  }
  return b;
}

ExprPtr Parser::parseNot() {
  if (!at(Tok::KwNot)) return parseComparison();
  NestingGuard guard(*this);
  if (!guard.ok) return nullptr;
  auto u = node<UnaryExpr>(advance().loc);
  u->op = UnaryOp::Not;
  if (!(u->operand = parseNot())) return nullptr;
  return u;
}

ExprPtr Parser::parseComparison() {
  ExprPtr left = parseBinary(1);
  if (!left) return nullptr;
  std::unique_ptr<CompareExpr> c;
  while (true) {
    CmpOp op;
    switch (cur().kind) {
    case Tok::Less: op = CmpOp::Lt; break;
    case Tok::Greater: op = CmpOp::Gt; break;
    case Tok::LessEqual: op = CmpOp::Le; break;
    case Tok::GreaterEqual: op = CmpOp::Ge; break;
    case Tok::EqualEqual: op = CmpOp::Eq; break;
    case Tok::NotEqual: op = CmpOp::Ne; break;
    case Tok::KwIn: op = CmpOp::In; break;
    case Tok::KwIs: op = peekTok().is(Tok::KwNot) ? CmpOp::IsNot : CmpOp::Is; break;
    case Tok::KwNot:
      if (!peekTok().is(Tok::KwIn)) return c ? ExprPtr(std::move(c)) : std::move(left);
      op = CmpOp::NotIn;
      break;
    default: return c ? ExprPtr(std::move(c)) : std::move(left);
    }
    advance();
    if (op == CmpOp::IsNot || op == CmpOp::NotIn) advance();
    if (!c) {
      c = node<CompareExpr>(left->loc);
      c->left = std::move(left);
    }
    ExprPtr rhs = parseBinary(1);
    if (!rhs) return nullptr;
    c->ops.push_back(op);
    c->comparators.push_back(std::move(rhs));
  }
}

// Each loop turn deepens the left spine of the tree, which the printer and
// destructors walk recursively, so it counts against the nesting limit.
ExprPtr Parser::parseBinary(int minPrec) {
  ExprPtr lhs = parseFactor();
  if (!lhs) return nullptr;
  int outer = chain_;
  while (true) {
    BinaryLevel level = binaryLevel(cur().kind);
    if (level.prec == 0 || level.prec < minPrec) break;
    if (!enterChain()) {
      chain_ = outer;
      return nullptr;
    }
    advance();
    ExprPtr rhs = parseBinary(level.prec + 1);
    if (!rhs) {
      chain_ = outer;
      return nullptr;
    }
    auto b = node<BinaryExpr>(lhs->loc);
    b->op = level.op;
    b->lhs = std::move(lhs);
    b->rhs = std::move(rhs);
    lhs = std::move(b);
  }
  chain_ = outer;
  return lhs;
}

ExprPtr Parser::parseFactor() {
  UnaryOp op;
  switch (cur().kind) {
  case Tok::Minus: op = UnaryOp::Neg; break;
  case Tok::Plus: op = UnaryOp::Pos; break;
  case Tok::Tilde: op = UnaryOp::Invert; break;
  default: return parsePower();
  }
  NestingGuard guard(*this);
  if (!guard.ok) return nullptr;
  auto u = node<UnaryExpr>(advance().loc);
  u->op = op;
  if (!(u->operand = parseFactor())) return nullptr;
  return u;
}

// '**' binds tighter than a unary operator on its left (-2**2 is -(2**2)) but
// its right operand is a factor (2**-1), which also makes it right-associative.
ExprPtr Parser::parsePower() {
  ExprPtr base = parsePrimary();
  if (!base || !at(Tok::StarStar)) return base;
  NestingGuard guard(*this);
  if (!guard.ok) return nullptr;
  advance();
  auto b = node<BinaryExpr>(base->loc);
  b->op = BinaryOp::Pow;
  b->lhs = std::move(base);
  if (!(b->rhs = parseFactor())) return nullptr;
  return b;
}

ExprPtr Parser::parsePrimary() {
  ExprPtr e = parseAtom();
  int outer = nesting_;
  while (e && (at(Tok::Dot) || at(Tok::LParen) || at(Tok::LBracket))) {
    if (!enterNesting()) {
      e = nullptr;
      break;
    }
    if (at(Tok::LParen)) {
      e = parseCall(std::move(e));
    } else if (at(Tok::LBracket)) {
      e = parseSubscript(std::move(e));
    } else {
      advance();
      if (!at(Tok::Name)) {
        errorExpected("attribute name after '.'");
        e = nullptr;
        break;
      }
      auto a = node<AttributeExpr>(e->loc);
      a->value = std::move(e);
      a->attr = std::string(advance().text);
      e = std::move(a);
    }
  }
  nesting_ = outer;
  return e;
}

// Whether the current token begins an element of a list, tuple or target,
// where `*x` would be Python's unpacking rather than a stray operator.
bool Parser::startsElement() const {
  if (pos_ == 0) return true;
  switch (toks_[pos_ - 1].kind) {
  case Tok::Comma: case Tok::LParen: case Tok::LBracket: case Tok::LBrace: case Tok::Equal:
  case Tok::Newline: case Tok::Indent: case Tok::Dedent: case Tok::Semi: case Tok::KwFor:
  case Tok::KwReturn: case Tok::KwIn:
    return true;
  default:
    return false;
  }
}

bool Parser::rejectComprehension() {
  if (!at(Tok::KwFor) && !at(Tok::KwAsync)) return false;
  error(cur().loc, "dict and set comprehensions are not supported in kernels");
  return true;
}

ExprPtr Parser::parseComprehension(ExprPtr elt, SourceLoc loc, bool list) {
  auto c = node<ComprehensionExpr>(loc);
  c->elt = std::move(elt);
  c->list = list;
  while (at(Tok::KwFor) || at(Tok::KwAsync)) {
    if (at(Tok::KwAsync)) {
      error(cur().loc, "asynchronous comprehensions are not supported in kernels");
      return nullptr;
    }
    advance();
    ComprehensionExpr::Clause clause;
    if (!(clause.target = parseTargetList()) || !checkTarget(clause.target.get(), StmtKind::For) ||
        !expect(Tok::KwIn, "after comprehension target") || !(clause.iter = parseOr()))
      return nullptr;
    while (accept(Tok::KwIf)) {
      ExprPtr cond = parseOr();
      if (!cond) return nullptr;
      clause.conditions.push_back(std::move(cond));
    }
    c->clauses.push_back(std::move(clause));
  }
  return c;
}

ExprPtr Parser::parseCall(ExprPtr func) {
  const Token& open = advance();
  auto c = node<CallExpr>(func->loc);
  c->func = std::move(func);
  while (!at(Tok::RParen)) {
    if (at(Tok::StarStar)) {
      error(cur().loc, "'**kwargs' unpacking in calls is not supported in kernels");
      return nullptr;
    }
    if (at(Tok::Star)) {  // f(*args): a tuple spread into positional arguments
      const Token &star = advance();
      if (!c->keywords.empty()) error(star.loc, "'*' unpacking after keyword arguments is not supported in kernels");
      ExprPtr arg = parseTest();
      if (!arg) return nullptr;
      c->args.push_back(std::move(arg));
      c->starred.resize(c->args.size(), false);
      c->starred.back() = true;
    } else if (at(Tok::Name) && peekTok().is(Tok::Equal)) {
      Keyword k;
      k.loc = cur().loc;
      k.name = std::string(advance().text);
      advance();
      if (!(k.value = parseTest())) return nullptr;
      for (const Keyword& other : c->keywords)
        if (other.name == k.name) error(k.loc, "keyword argument repeated: '" + k.name + "'");
      c->keywords.push_back(std::move(k));
    } else {
      ExprPtr arg = parseTest();
      if (!arg) return nullptr;
      if (at(Tok::KwFor) || at(Tok::KwAsync)) {  // f(x for x in t): a generator expression
        SourceLoc loc = arg->loc;
        if (!(arg = parseComprehension(std::move(arg), loc, false))) return nullptr;
      }
      if (!c->keywords.empty()) error(arg->loc, "positional argument follows keyword argument");
      c->args.push_back(std::move(arg));
    }
    if (!accept(Tok::Comma)) break;
  }
  if (!expectClose(Tok::RParen, open, "after call arguments")) return nullptr;
  return c;
}

ExprPtr Parser::parseSubscript(ExprPtr value) {
  const Token& open = advance();
  auto s = node<SubscriptExpr>(value->loc);
  s->value = std::move(value);
  ExprPtr first = parseSliceItem();
  if (!first) return nullptr;
  if (at(Tok::Comma)) {
    auto t = node<TupleExpr>(first->loc);
    t->elts.push_back(std::move(first));
    while (accept(Tok::Comma) && !at(Tok::RBracket)) {
      ExprPtr e = parseSliceItem();
      if (!e) return nullptr;
      t->elts.push_back(std::move(e));
    }
    first = std::move(t);
  }
  s->index = std::move(first);
  if (!expectClose(Tok::RBracket, open, "after subscript")) return nullptr;
  return s;
}

ExprPtr Parser::parseSliceItem() {
  ExprPtr lower;
  if (!at(Tok::Colon) && !(lower = parseTest())) return nullptr;
  if (!at(Tok::Colon)) return lower;
  auto s = node<SliceExpr>(lower ? lower->loc : cur().loc);
  s->lower = std::move(lower);
  advance();
  auto endsPart = [&] { return at(Tok::Colon) || at(Tok::Comma) || at(Tok::RBracket); };
  if (!endsPart() && !(s->upper = parseTest())) return nullptr;
  if (accept(Tok::Colon) && !at(Tok::Comma) && !at(Tok::RBracket) && !(s->step = parseTest()))
    return nullptr;
  return s;
}

ExprPtr Parser::parseAtom() {
  const Token& t = cur();
  switch (t.kind) {
  case Tok::Name: {
    auto n = node<NameExpr>(t.loc);
    n->id = std::string(advance().text);
    return n;
  }
  case Tok::Int: {
    auto n = node<IntExpr>(t.loc);
    n->value = advance().intValue;
    return n;
  }
  case Tok::Float: {
    auto n = node<FloatExpr>(t.loc);
    n->value = advance().floatValue;
    return n;
  }
  case Tok::String:
  case Tok::FString: return parseStringLiterals();
  case Tok::KwTrue:
  case Tok::KwFalse: {
    auto n = node<BoolExpr>(t.loc);
    n->value = advance().is(Tok::KwTrue);
    return n;
  }
  case Tok::KwNone: advance(); return node<NoneExpr>(t.loc);
  case Tok::LParen: return parseParenthesized();
  case Tok::LBracket: return parseListDisplay();
  case Tok::LBrace: return parseDictDisplay();
  case Tok::Star:
    if (startsElement()) {
      error(t.loc, "starred expressions are not supported in kernels");
      return nullptr;
    }
    errorExpected("expression");
    return nullptr;
  case Tok::Ellipsis:
    error(t.loc, "'...' (Ellipsis) is not supported in kernels");
    return nullptr;
  case Tok::KwYield:
  case Tok::KwAwait:
    error(t.loc, "'" + std::string(t.text) + "' is not supported in kernels");
    return nullptr;
  default:
    errorExpected("expression");
    return nullptr;
  }
}

ExprPtr Parser::parseParenthesized() {
  const Token& open = advance();
  if (accept(Tok::RParen)) return node<TupleExpr>(open.loc);
  ExprPtr first = parseTest();
  if (!first) return nullptr;
  if (at(Tok::KwFor) || at(Tok::KwAsync)) {
    ExprPtr g = parseComprehension(std::move(first), open.loc, false);
    if (!g || !expectClose(Tok::RParen, open, "after generator expression")) return nullptr;
    return g;
  }
  if (!at(Tok::Comma)) {
    // The inner node keeps its own location, as in Python's AST.
    if (!expectClose(Tok::RParen, open, "after parenthesized expression")) return nullptr;
    return first;
  }
  auto t = node<TupleExpr>(open.loc);
  t->elts.push_back(std::move(first));
  while (accept(Tok::Comma) && !at(Tok::RParen)) {
    ExprPtr e = parseTest();
    if (!e) return nullptr;
    t->elts.push_back(std::move(e));
  }
  if (!expectClose(Tok::RParen, open, "after tuple elements")) return nullptr;
  return t;
}

ExprPtr Parser::parseListDisplay() {
  const Token& open = advance();
  auto l = node<ListExpr>(open.loc);
  while (!at(Tok::RBracket)) {
    ExprPtr e = parseTest();
    if (!e) return nullptr;
    if (l->elts.empty() && (at(Tok::KwFor) || at(Tok::KwAsync))) {
      ExprPtr c = parseComprehension(std::move(e), open.loc, true);
      if (!c || !expectClose(Tok::RBracket, open, "after list comprehension")) return nullptr;
      return c;
    }
    if (rejectComprehension()) return nullptr;
    l->elts.push_back(std::move(e));
    if (!accept(Tok::Comma)) break;
  }
  if (!expectClose(Tok::RBracket, open, "after list elements")) return nullptr;
  return l;
}

ExprPtr Parser::parseDictDisplay() {
  const Token& open = advance();
  auto d = node<DictExpr>(open.loc);
  while (!at(Tok::RBrace)) {
    if (at(Tok::StarStar)) {
      error(cur().loc, "'**' unpacking in dict displays is not supported in kernels");
      return nullptr;
    }
    ExprPtr key = parseTest();
    if (!key) return nullptr;
    if (!at(Tok::Colon)) {
      if (d->keys.empty() && (at(Tok::Comma) || at(Tok::RBrace)))
        error(key->loc, "set displays are not supported in kernels");
      else if (!rejectComprehension())
        errorExpected("':' after dict key");
      return nullptr;
    }
    advance();
    ExprPtr value = parseTest();
    if (!value || rejectComprehension()) return nullptr;
    d->keys.push_back(std::move(key));
    d->values.push_back(std::move(value));
    if (!accept(Tok::Comma)) break;
  }
  if (!expectClose(Tok::RBrace, open, "after dict entries")) return nullptr;
  return d;
}

}  // namespace tessera::frontend
