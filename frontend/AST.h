// The kernel-language AST: the Python subset kernels are written in. Nodes own
// their children; every node carries the location of its first token.
#pragma once

#include "frontend/Diagnostics.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tessera::frontend {

enum class ExprKind : uint8_t {
  Name, Int, Float, Bool, NoneLit, Str, Tuple, List, Dict, Attribute, Call,
  Subscript, Slice, Unary, Binary, Compare, BoolOp, IfExp, Lambda, JoinedStr, Comprehension,
};

enum class StmtKind : uint8_t {
  Expr, Assign, AugAssign, AnnAssign, If, For, While, Break, Continue, Return,
  Pass, Assert, Raise, Import, ImportFrom, FunctionDef,
};

enum class UnaryOp : uint8_t { Neg, Pos, Invert, Not };
enum class BinaryOp : uint8_t {
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, LShift, RShift, BitAnd, BitOr, BitXor,
};
enum class CmpOp : uint8_t { Lt, Gt, Le, Ge, Eq, Ne, In, NotIn, Is, IsNot };
enum class BoolOpKind : uint8_t { And, Or };

std::string_view spelling(UnaryOp op);    // "-", "+", "~", "not"
std::string_view spelling(BinaryOp op);   // "+", "//", "**", ...
std::string_view spelling(CmpOp op);      // "<", "not in", "is not", ...
std::string_view spelling(BoolOpKind op); // "and", "or"

struct Expr {
  const ExprKind kind;
  SourceLoc loc;
  virtual ~Expr() = default;

protected:
  Expr(ExprKind k, SourceLoc l) : kind(k), loc(l) {}
};
using ExprPtr = std::unique_ptr<Expr>;
using ExprList = std::vector<ExprPtr>;

template <ExprKind K>
struct ExprOf : Expr {
  static bool classof(const Expr* e) { return e->kind == K; }
  explicit ExprOf(SourceLoc l) : Expr(K, l) {}
};

struct NameExpr : ExprOf<ExprKind::Name> { using ExprOf::ExprOf; std::string id; };
struct IntExpr : ExprOf<ExprKind::Int> { using ExprOf::ExprOf; uint64_t value = 0; };
struct FloatExpr : ExprOf<ExprKind::Float> { using ExprOf::ExprOf; double value = 0; };
struct BoolExpr : ExprOf<ExprKind::Bool> { using ExprOf::ExprOf; bool value = false; };
struct NoneExpr : ExprOf<ExprKind::NoneLit> { using ExprOf::ExprOf; };
struct StrExpr : ExprOf<ExprKind::Str> { using ExprOf::ExprOf; std::string value; };
struct TupleExpr : ExprOf<ExprKind::Tuple> { using ExprOf::ExprOf; ExprList elts; };
struct ListExpr : ExprOf<ExprKind::List> { using ExprOf::ExprOf; ExprList elts; };
// Dicts appear in decorators, e.g. triton.Config({"BLOCK_M": 128}, ...).
struct DictExpr : ExprOf<ExprKind::Dict> { using ExprOf::ExprOf; ExprList keys, values; };
struct AttributeExpr : ExprOf<ExprKind::Attribute> {
  using ExprOf::ExprOf;
  ExprPtr value;
  std::string attr;
};

struct Keyword {
  std::string name;
  ExprPtr value;
  SourceLoc loc;
};
struct CallExpr : ExprOf<ExprKind::Call> {
  using ExprOf::ExprOf;
  ExprPtr func;
  ExprList args;
  std::vector<bool> starred;  // per argument: `*args`, a tuple spread into positional arguments
  std::vector<Keyword> keywords;
};
// x[a, b] has a TupleExpr index, as in Python's own AST.
struct SubscriptExpr : ExprOf<ExprKind::Subscript> {
  using ExprOf::ExprOf;
  ExprPtr value;
  ExprPtr index;
};
struct SliceExpr : ExprOf<ExprKind::Slice> {
  using ExprOf::ExprOf;
  ExprPtr lower, upper, step;  // each may be null
};
struct UnaryExpr : ExprOf<ExprKind::Unary> {
  using ExprOf::ExprOf;
  UnaryOp op = UnaryOp::Neg;
  ExprPtr operand;
};
struct BinaryExpr : ExprOf<ExprKind::Binary> {
  using ExprOf::ExprOf;
  BinaryOp op = BinaryOp::Add;
  ExprPtr lhs, rhs;
};
// a < b <= c: left = a, ops = {<, <=}, comparators = {b, c}.
struct CompareExpr : ExprOf<ExprKind::Compare> {
  using ExprOf::ExprOf;
  ExprPtr left;
  std::vector<CmpOp> ops;
  ExprList comparators;
};
struct BoolOpExpr : ExprOf<ExprKind::BoolOp> {
  using ExprOf::ExprOf;
  BoolOpKind op = BoolOpKind::And;
  ExprList values;  // two or more, flattened: a and b and c
};
struct IfExpr : ExprOf<ExprKind::IfExp> {
  using ExprOf::ExprOf;
  ExprPtr test, body, orelse;
};
// Lambdas appear in decorators, e.g. triton.heuristics({"EVEN": lambda args: ...}).
struct LambdaExpr : ExprOf<ExprKind::Lambda> {
  using ExprOf::ExprOf;
  std::vector<std::string> params;
  ExprPtr body;
};

// [elt for target in iter if cond ...] or (elt for ...): a list
// comprehension or a generator expression, its clauses outermost first.
struct ComprehensionExpr : ExprOf<ExprKind::Comprehension> {
  using ExprOf::ExprOf;
  struct Clause {
    ExprPtr target, iter;
    ExprList conditions;
  };
  ExprPtr elt;
  std::vector<Clause> clauses;
  bool list = true;  // [...]; false: a generator expression
};

// A part of an f-string: literal text, or a replacement field
// {value!conversion:formatSpec} when value is set.
struct FStringPart {
  std::string literal;
  ExprPtr value;
  char conversion = 0;  // 's', 'r', 'a', or 0 for none
  ExprPtr formatSpec;   // a JoinedStrExpr (its own fields nest), or null
  std::string source;   // the field's expression as written, for messages
};
// An f-string, with any string literals next to it ("a" f"{x}"), as Python's
// JoinedStr: the parts in order, adjacent literals merged.
struct JoinedStrExpr : ExprOf<ExprKind::JoinedStr> {
  using ExprOf::ExprOf;
  std::vector<FStringPart> parts;
};

struct Stmt {
  const StmtKind kind;
  SourceLoc loc;
  virtual ~Stmt() = default;

protected:
  Stmt(StmtKind k, SourceLoc l) : kind(k), loc(l) {}
};
using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

template <StmtKind K>
struct StmtOf : Stmt {
  static bool classof(const Stmt* s) { return s->kind == K; }
  explicit StmtOf(SourceLoc l) : Stmt(K, l) {}
};

struct ExprStmt : StmtOf<StmtKind::Expr> { using StmtOf::StmtOf; ExprPtr value; };
// a = b = f(): targets = {a, b}; tuple targets are TupleExprs.
struct AssignStmt : StmtOf<StmtKind::Assign> {
  using StmtOf::StmtOf;
  ExprList targets;
  ExprPtr value;
};
struct AugAssignStmt : StmtOf<StmtKind::AugAssign> {
  using StmtOf::StmtOf;
  ExprPtr target;
  BinaryOp op = BinaryOp::Add;
  ExprPtr value;
};
struct AnnAssignStmt : StmtOf<StmtKind::AnnAssign> {
  using StmtOf::StmtOf;
  ExprPtr target, annotation;
  ExprPtr value;  // may be null
};
// elif chains nest: the orelse of an if holds the single elif's IfStmt.
struct IfStmt : StmtOf<StmtKind::If> {
  using StmtOf::StmtOf;
  ExprPtr test;
  StmtList body, orelse;
};
struct ForStmt : StmtOf<StmtKind::For> {
  using StmtOf::StmtOf;
  ExprPtr target, iter;
  StmtList body;
};
struct WhileStmt : StmtOf<StmtKind::While> {
  using StmtOf::StmtOf;
  ExprPtr test;
  StmtList body;
};
struct BreakStmt : StmtOf<StmtKind::Break> { using StmtOf::StmtOf; };
struct ContinueStmt : StmtOf<StmtKind::Continue> { using StmtOf::StmtOf; };
struct PassStmt : StmtOf<StmtKind::Pass> { using StmtOf::StmtOf; };
struct ReturnStmt : StmtOf<StmtKind::Return> { using StmtOf::StmtOf; ExprPtr value; /* may be null */ };
struct AssertStmt : StmtOf<StmtKind::Assert> { using StmtOf::StmtOf; ExprPtr test, msg; };
// Parsed so that a branch a compile-time condition skips may hold one (as
// Triton allows); compiling one is an error.
struct RaiseStmt : StmtOf<StmtKind::Raise> { using StmtOf::StmtOf; ExprPtr exc, cause; /* both may be null */ };

struct ImportAlias {
  std::string name;    // dotted: "tessera.language"
  std::string asname;  // empty when there is no "as"
  SourceLoc loc;
};
struct ImportStmt : StmtOf<StmtKind::Import> {
  using StmtOf::StmtOf;
  std::vector<ImportAlias> names;
};
struct ImportFromStmt : StmtOf<StmtKind::ImportFrom> {
  using StmtOf::StmtOf;
  std::string module;  // may be empty for "from . import x"
  uint32_t level = 0;  // leading dots
  std::vector<ImportAlias> names;
};

struct Param {
  std::string name;
  ExprPtr annotation;    // may be null
  ExprPtr defaultValue;  // may be null
  SourceLoc loc;
};
struct FunctionDef : StmtOf<StmtKind::FunctionDef> {
  using StmtOf::StmtOf;
  std::string name;
  ExprList decorators;
  std::vector<Param> params;
  ExprPtr returns;  // may be null
  std::optional<std::string> docstring;
  StmtList body;  // without the docstring
};

struct Module {
  uint32_t fileId = 0;
  std::optional<std::string> docstring;
  StmtList body;
};

template <typename T, typename B>
bool isa(const B* p) {
  return p && T::classof(p);
}
template <typename T, typename B>
auto dynCast(B* p) -> std::conditional_t<std::is_const_v<B>, const T*, T*> {
  using R = std::conditional_t<std::is_const_v<B>, const T*, T*>;
  return isa<T>(p) ? static_cast<R>(p) : nullptr;
}

// A stable text dump for tests and --dump-ast: statements one per line,
// indented by two spaces per level; expressions as one-line s-expressions.
class ASTPrinter {
public:
  struct Options {
    bool locations = false;  // append " @line:col" to statement lines
  };
  ASTPrinter() = default;
  explicit ASTPrinter(Options options) : options_(options) {}

  std::string print(const Module& m) const;
  std::string print(const Stmt& s, int indent = 0) const;
  static std::string print(const Expr& e);

private:
  void printStmt(std::string& out, const Stmt& s, int indent) const;
  void printBlock(std::string& out, const StmtList& body, int indent) const;
  void line(std::string& out, int indent, std::string_view text, SourceLoc loc) const;

  Options options_;
};

}  // namespace tessera::frontend
