// Internal: semantic analysis and IR generation, fused in one walk over the
// AST (as Triton's code generator does): compile-time values are evaluated as
// they are met, runtime values become IR. Private to the frontend.
#pragma once

#include "frontend/AST.h"
#include "frontend/Compile.h"
#include "frontend/Values.h"
#include "ir/Builder.h"

#include <functional>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace tessera::frontend {

// Thrown on the first semantic error; the driver turns it into a diagnostic.
struct CompileError {
  SourceLoc loc;
  std::string message;
};

using Env = std::map<std::string, SValue>;

// Arguments of a builtin call, with Python's positional/keyword matching.
struct CallArgs {
  std::vector<SValue> positional;
  std::vector<std::pair<std::string, SValue>> keywords;
  std::vector<SourceLoc> positionalLocs;
  SourceLoc loc;
  std::string callee;
};

// How control left a statement list.
enum class Flow { Normal, Break, Continue, Return };

class CodeGen {
public:
  CodeGen(const SourceManager &sources, const SourceFile &file, ir::Module &out, bool inlineCalls);

  void addModuleScope(const Module &ast, const std::map<std::string, SValue> &globals);
  // The standard library written in the kernel language (frontend/prelude.py).
  void addPrelude(const Module &ast);
  void setLaunchShape(int numWarps, int warpSize) { numWarps_ = numWarps, warpSize_ = warpSize; }
  void setConstexprCall(decltype(CompileRequest::constexprCall) call) { constexprCall_ = std::move(call); }
  // A call of a constexpr function: its arguments must be compile-time values.
  SValue callConstexprFunction(const std::string &id, CallArgs &args, SourceLoc loc);
  // CompileRequest's target and deviceLibraryPrefixes.
  void setDeviceLibraries(std::string target, std::vector<std::string> prefixes) {
    target_ = std::move(target), deviceLibraryPrefixes_ = std::move(prefixes);
  }
  const std::string &target() const { return target_; }
  // A call of an extern function (Triton's @core.extern, a global given as
  // SValue::builtin("extern_function:<id>")): its body, run in Python, picks
  // the device-library functions to call (ExternCall.cpp).
  SValue callExternFunction(const std::string &id, CallArgs &args, SourceLoc loc);
  int numWarps() const { return numWarps_; }
  int warpSize() const { return warpSize_; }
  void requestNoLicm() { disableLicm_ = true; }
  // Local variables holding `from` hold `to` from now on.
  void rebindLocals(ir::Value *from, ir::Value *to) {
    for (auto &[name, value] : env_)
      if (value.isTensor() && value.v == from) value = SValue::tensor(to);
  }
  const FunctionDef *findFunction(const std::string &name) const;
  // Evaluates an expression that must be a compile-time value (no IR).
  SValue evalForConstant(const Expr &e) { return eval(e); }
  ir::Function *genKernel(const FunctionDef &fn, const std::map<std::string, ArgSpec> &args);

  // ---- used by the builtins (Builtins.cpp) and semantics (Semantics.cpp)
  [[noreturn]] void fail(SourceLoc loc, std::string message) const;
  ir::Builder &builder() { return b_; }
  ir::Loc irLoc(SourceLoc loc) const;

  // Python scalars to tensors, casts, broadcasting.
  ir::Type pyScalarType(const SValue &v, SourceLoc loc) const;
  ir::Value *toTensor(const SValue &v, SourceLoc loc, ir::Type elementType = {});
  ir::Value *cast(ir::Value *v, ir::Type elementType, SourceLoc loc, bool bitcast = false,
                  std::string rounding = "");
  ir::Value *splatTo(ir::Value *v, const std::vector<int64_t> &shape, SourceLoc loc);
  ir::Value *broadcastTo(ir::Value *v, const std::vector<int64_t> &shape, SourceLoc loc);
  // The shape all of `values` broadcast to; an error names two that clash, by their types.
  std::vector<int64_t> broadcastShapes(const std::vector<ir::Value *> &values, SourceLoc loc) const;
  // Checked on operands as written, before the casts to their common type,
  // so that an error names the types the user gave them.
  void checkBroadcastable(const SValue &a, const SValue &b, SourceLoc loc) const;
  void broadcastPair(ir::Value *&a, ir::Value *&b, SourceLoc loc);
  ir::Value *constant(double f, ir::Type type);
  ir::Value *constant(BigInt i, ir::Type type);
  ir::Value *constantLike(ir::Value *like, double f, BigInt i);

  // Operators with Triton's typing rules (and Python's, on compile-time values).
  SValue binary(BinaryOp op, const SValue &a, const SValue &b, SourceLoc loc);
  SValue compare(CmpOp op, const SValue &a, const SValue &b, SourceLoc loc);
  SValue unary(UnaryOp op, const SValue &a, SourceLoc loc);
  SValue logical(BoolOpKind op, const SValue &a, const SValue &b, SourceLoc loc);
  ir::Type computationType(ir::Type a, bool aScalar, ir::Type b, bool bScalar, bool divOrMod,
                           SourceLoc loc) const;
  ir::Type integerPromote(ir::Type a, ir::Type b) const;
  // Python numbers combined with a tensor must fit the operation's integer type.
  void checkScalarsFit(const SValue &a, const SValue &b, ir::Type ret, SourceLoc loc) const;
  ir::Value *minMax(bool isMin, ir::Value *a, ir::Value *b, bool propagateNan, SourceLoc loc);

  // Calls.
  SValue call(const SValue &callee, CallArgs &args, SourceLoc loc);
  SValue makeNamedTuple(const SValue &cls, const CallArgs &args, SourceLoc loc);
  SValue callJit(const FunctionDef &fn, CallArgs &args, SourceLoc loc, bool forceInline);
  SValue callJitImpl(const FunctionDef &fn, CallArgs &args, SourceLoc loc, bool forceInline);
  SValue callBuiltin(const std::string &name, CallArgs &args, SourceLoc loc);
  SValue getAttribute(const SValue &base, const std::string &attr, SourceLoc loc);
  // Generates a combine function's body into `block` over scalar arguments.
  std::vector<ir::Value *> genCombine(const SValue &fn, ir::Block *block, SourceLoc loc, size_t numInputs);

  // Helpers for builtin argument handling.
  const SValue *findArg(CallArgs &a, size_t index, const char *name) const;
  SValue argOr(CallArgs &a, size_t index, const char *name, SValue dflt) const;
  SValue requireArg(CallArgs &a, size_t index, const char *name) const;
  void checkArgs(CallArgs &a, std::initializer_list<const char *> names) const;
  ir::Value *tensorArg(CallArgs &a, size_t index, const char *name);
  BigInt intArg(CallArgs &a, size_t index, const char *name, std::optional<BigInt> dflt = std::nullopt) const;
  std::vector<int64_t> shapeArg(const SValue &v, SourceLoc loc) const;
  ir::Type dtypeArg(const SValue &v, SourceLoc loc) const;

private:

  void fillScope(const Module &ast, Env &scope, bool prelude);
  std::string shownName(const FunctionDef &fn) const;
  // A value named by a module path ("tessera.language.sigmoid").
  SValue resolvePath(const std::string &path, SourceLoc loc);
  // A call's arguments, evaluated; `*t` spreads the tuple t.
  CallArgs evalCallArgs(const CallExpr &e);

  // Statements.
  Flow genStmts(const StmtList &stmts, size_t from = 0);
  Flow genStmt(const Stmt &s, const StmtList &list, size_t index);
  void assign(const Expr &target, SValue value, SourceLoc loc);
  Flow genIf(const IfStmt &s, const StmtList &rest, size_t restFrom);
  Flow genRest(const StmtList &rest, size_t from);
  // Both branches of an if from `before` (enter(r) puts the insertion point
  // in branch r); when one returns and the other goes on, the other
  // continues with the rest of the function.
  struct Branches {
    Env env[2];
    std::optional<SValue> ret[2];
    bool returns = false, restInBranch = false;
  };
  Branches genBranches(const IfStmt &s, const StmtList &rest, size_t restFrom, const Env &before,
                       const std::function<void(int)> &enter, const char *noBreak);
  // An if on a tile condition inside tl.map_elementwise's function: both
  // branches run on every element and their values merge with where.
  Flow genPredicatedIf(const IfStmt &s, const StmtList &rest, size_t restFrom, const SValue &cond);
  Flow genFor(const ForStmt &s);
  Flow genStaticFor(const ForStmt &s, std::vector<BigInt> values);
  Flow genWhile(const WhileStmt &s);
  void genAssert(const AssertStmt &s);

  // Structured control flow helpers.
  std::vector<std::string> carriedNames(const StmtList &body) const;
  // Runtime leaves of a value in a fixed order. With `numbers`, compile-time
  // numbers count as leaves too (and are materialized as constants).
  void flatten(const SValue &v, std::vector<ir::Value *> &out, SourceLoc loc, const std::string &name,
               bool numbers = true);
  SValue rebuild(const SValue &shape, const std::vector<ir::Value *> &vals, size_t &pos, bool numbers = true) const;
  ir::Operation *finishIf(ir::Operation *tmp, const std::vector<ir::Value *> &thenYield,
                          const std::vector<ir::Value *> &elseYield, SourceLoc loc);
  SValue mergeBranches(const std::string &name, const SValue &a, const SValue &b, std::vector<ir::Value *> &ta,
                       std::vector<ir::Value *> &tb, SourceLoc loc);

  // Expressions.
  SValue eval(const Expr &e);
  SValue evalUnchecked(const Expr &e);
  static constexpr int64_t kMaxTileElements = int64_t(1) << 20;
  // eval() outside a function body; any IR it builds is discarded.
  SValue evalDetached(const Expr &e);
  SValue evalName(const NameExpr &e);
  SValue evalCall(const CallExpr &e);
  SValue evalComprehension(const ComprehensionExpr &c);
  std::vector<SValue> comprehensionItems(const Expr &iter);
  SValue evalSubscript(const SubscriptExpr &e);
  // An f-string's text: its fields must be compile-time values (as Triton's).
  std::string evalFString(const JoinedStrExpr &e);

  // Functions.
  SValue genFunctionBody(const FunctionDef &fn, Env env);
  ir::Function *deviceFunction(const FunctionDef &fn, const std::vector<SValue> &args, SValue &resultShape,
                               SourceLoc loc);

  const SourceManager &sources_;
  const SourceFile &file_;
  ir::Module &module_;
  bool inlineCalls_;
  int numWarps_ = 4, warpSize_ = 32;  // CompileRequest's
  decltype(CompileRequest::constexprCall) constexprCall_;
  std::string target_ = "cpu";                    // CompileRequest's
  std::vector<std::string> deviceLibraryPrefixes_;  // CompileRequest's
  bool disableLicm_ = false;           // set by tl.condition(..., disable_licm=True) in a while's test
  ir::Builder b_;
  Env globals_;          // the kernel file's module scope
  Env preludeGlobals_;   // the prelude's module scope
  const Env *scope_ = &globals_;  // module scope of the function being generated
  std::unordered_map<std::string, const FunctionDef *> prelude_;
  std::unordered_set<const FunctionDef *> preludeFns_;  // tl functions written in the language
  std::unordered_map<std::string, const FunctionDef *> functions_;
  Env env_;
  std::optional<SValue> returnValue_;
  bool consumedRest_ = false;  // genIf took the statements after it into a branch
  // The statements after each enclosing if (innermost last): a branch that
  // goes on beside one that returns takes them, after its own list's rest.
  // Loop and function bodies start with none.
  std::vector<std::pair<const StmtList *, size_t>> outerRest_;
  struct NoOuterRest {
    explicit NoOuterRest(CodeGen &cg) : cg(cg), saved(std::move(cg.outerRest_)) { cg.outerRest_.clear(); }
    ~NoOuterRest() { cg.outerRest_ = std::move(saved); }
    CodeGen &cg;
    std::vector<std::pair<const StmtList *, size_t>> saved;
  };
  int callDepth_ = 0;
 public:
  int elementwiseDepth_ = 0;  // inside tl.map_elementwise's function (no side effects there)
 private:
  struct DeviceFn {
    ir::Function *fn;
    SValue resultShape;
  };
  std::unordered_map<std::string, DeviceFn> deviceFns_;
};

// Appends a compile-time value as a Python literal (dtypes as
// tl.str_to_ty("fp32")) for a Python function's arguments; false for values
// Python cannot be given (tensors, functions, pointer types). Builtins.cpp.
bool pythonLiteral(const SValue &v, std::string &out);

// A call's arguments as the Python text "((positional, ...), {keyword: ...})"
// that a compile-time callback reads; `appendArgument(value, what)` appends
// one value ("argument 2", "argument 'k'" name it in errors). Builtins.cpp.
std::string pythonCallArguments(const CallArgs &args,
                                const std::function<void(const SValue &, const std::string &, std::string &)> &appendArgument);

// Element `index` of a tile as a scalar (Builtins.cpp).
ir::Value *extractElement(CodeGen &cg, ir::Value *v, int64_t index, SourceLoc loc);

} // namespace tessera::frontend
