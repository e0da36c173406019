// Statements, structured control flow and functions. Python's function-wide
// variables become SSA values: a runtime `if`, `for` or `while` turns the
// variables it assigns into op results (as Triton does); compile-time
// conditions and tl.static_range are evaluated and unrolled here.
#include "frontend/CodeGen.h"

#include "ir/Fold.h"

#include <algorithm>
#include <set>

namespace tessera::frontend {

using ir::OpCode;
using ir::Type;
using Kind = SValue::Kind;

CodeGen::CodeGen(const SourceManager &sources, const SourceFile &file, ir::Module &out, bool inlineCalls)
    : sources_(sources), file_(file), module_(out), inlineCalls_(inlineCalls) {}

void CodeGen::fail(SourceLoc loc, std::string message) const { throw CompileError{loc, std::move(message)}; }

ir::Loc CodeGen::irLoc(SourceLoc loc) const {
  ir::Loc l;
  const SourceFile *f = sources_.file(loc.fileId);
  l.file = f ? f->name() : file_.name();
  l.line = loc.line;
  l.col = loc.col;
  return l;
}

// ---- module scope

namespace {

bool endsWith(const std::string &s, const std::string &tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// What `import X` / `from X import Y` binds, for the modules kernels use:
// the language and its submodules under either name (Triton's functions
// live in triton.language.core, .standard, .random...), tl.math, tl.extra
// and any libdevice.
std::optional<SValue> importedModule(const std::string &dotted) {
  if (dotted == "tessera" || dotted == "triton") return SValue::ns("tessera");
  if (endsWith(dotted, "libdevice")) return SValue::ns("libdevice");
  for (const char *root : {"tessera.language", "triton.language"}) {
    std::string r = root;
    if (dotted == r) return SValue::ns("tl");
    if (dotted.rfind(r + ".", 0) != 0) continue;
    std::string sub = dotted.substr(r.size() + 1);
    if (sub == "math") return SValue::ns("tl.math");
    if (sub == "extra" || sub == "extra.cuda") return SValue::ns("tl.extra");
    if (sub == "extra.hip") return SValue::ns("tl.extra.hip");
    for (const char *part : {"core", "standard", "random", "semantic"})  // where Triton defines the tl functions
      if (sub == part) return SValue::ns("tl");
  }
  return std::nullopt;
}

} // namespace

namespace {

bool containsTensor(const SValue &v) {
  if (v.isTensor() || v.is(SValue::Kind::BlockPtr)) return true;
  for (const SValue &e : v.elems)
    if (containsTensor(e)) return true;
  return false;
}

} // namespace

void CodeGen::fillScope(const Module &ast, Env &scope, bool prelude) {
  const Env *savedScope = scope_;
  scope_ = &scope;
  for (const StmtPtr &s : ast.body) {
    if (auto *imp = dynCast<ImportStmt>(s.get())) {
      for (const ImportAlias &a : imp->names) {
        std::string bound = a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname;
        auto mod = importedModule(a.asname.empty() ? bound : a.name);
        scope[bound] = mod ? *mod : SValue::ns("external:" + a.name);
      }
    } else if (auto *from = dynCast<ImportFromStmt>(s.get())) {
      for (const ImportAlias &a : from->names) {
        std::string bound = a.asname.empty() ? a.name : a.asname;
        auto mod = importedModule(from->module + "." + a.name);
        if (!mod) {
          auto parent = importedModule(from->module);
          mod = parent ? getAttribute(*parent, a.name, a.loc) : SValue::ns("external:" + from->module + "." + a.name);
        }
        scope[bound] = *mod;
      }
    } else if (auto *fn = dynCast<FunctionDef>(s.get())) {
      if (prelude) {
        prelude_[fn->name] = fn;
        preludeFns_.insert(fn);
      } else {
        functions_[fn->name] = fn;
      }
      scope[fn->name] = SValue::jit(fn);
    } else if (auto *as = dynCast<AssignStmt>(s.get())) {
      // Module-level constants; anything not evaluable at compile time is an
      // error only if a kernel uses it.
      for (const ExprPtr &t : as->targets) {
        auto *name = dynCast<NameExpr>(t.get());
        if (!name) continue;
        try {
          SValue v = evalDetached(*as->value);
          if (containsTensor(v)) throw CompileError{as->value->loc, "it is a runtime value"};
          scope[name->id] = v;
        } catch (const CompileError &e) {
          scope[name->id] = SValue::ns("unevaluable:" + name->id + ": " + e.message);
        }
      }
    }
  }
  scope_ = savedScope;
}

// Module-level assignments and parameter defaults are evaluated outside any
// function body: the IR they build (only runtime values, which are no
// constants there) goes to a scratch block that is dropped, instead of
// through a builder that points nowhere.
SValue CodeGen::evalDetached(const Expr &e) {
  ir::Region scratch;
  ir::Builder saved = b_;
  b_.setInsertionPointToEnd(&scratch.block());
  try {
    SValue v = eval(e);
    b_ = saved;
    return v;
  } catch (...) {
    b_ = saved;
    throw;
  }
}

void CodeGen::addModuleScope(const Module &ast, const std::map<std::string, SValue> &globals) {
  fillScope(ast, globals_, false);
  for (auto &[name, value] : globals) globals_[name] = value;
}

void CodeGen::addPrelude(const Module &ast) { fillScope(ast, preludeGlobals_, true); }

const FunctionDef *CodeGen::findFunction(const std::string &name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? nullptr : it->second;
}

namespace {

bool isConstAnnotation(const Expr *e) {
  if (auto *a = dynCast<AttributeExpr>(e)) return a->attr == "const";
  if (auto *n = dynCast<NameExpr>(e)) return n->id == "const";
  return false;
}

bool isConstexprAnnotation(const Expr *e) {
  if (auto *a = dynCast<AttributeExpr>(e)) return a->attr == "constexpr";
  if (auto *n = dynCast<NameExpr>(e)) return n->id == "constexpr";
  if (auto *s = dynCast<StrExpr>(e)) return s->value.find("constexpr") != std::string::npos;
  return false;
}

} // namespace

ir::Function *CodeGen::genKernel(const FunctionDef &fn, const std::map<std::string, ArgSpec> &args) {
  for (auto &[name, spec] : args) {
    bool found = false;
    std::string root = name.substr(0, name.find('.'));  // a tuple element's path ("values.1") names its parameter
    for (const Param &p : fn.params) found |= p.name == root;
    if (!found) fail(fn.loc, "kernel '" + fn.name + "' has no parameter named '" + root + "'");
  }
  // The runtime leaves: each runtime parameter, and each runtime element of
  // a tuple parameter (depth first), one IR argument each (a descriptor
  // takes its shape and strides after it).
  struct Leaf {
    const ArgSpec *spec;
    std::string path;  // "x", "values.1.0"
  };
  std::vector<Leaf> leaves;
  std::function<void(const ArgSpec &, const std::string &)> collect = [&](const ArgSpec &spec, const std::string &path) {
    if (!spec.isTuple) {
      leaves.push_back({&spec, path});
      return;
    }
    for (size_t i = 0; i < spec.elements.size(); ++i)
      if (!spec.elements[i].isConstexpr) collect(spec.elements[i], path + "." + std::to_string(i));
  };
  std::vector<Type> paramTypes;
  Env env;
  std::vector<const Param *> runtimeParams;
  for (const Param &p : fn.params) {
    auto it = args.find(p.name);
    bool wantsConstexpr = p.annotation && isConstexprAnnotation(p.annotation.get());
    if (it == args.end()) {
      if (!p.defaultValue) fail(p.loc, "no value or type given for kernel parameter '" + p.name + "'");
      SValue d = evalDetached(*p.defaultValue);
      if (!d.isConstexpr()) fail(p.loc, "the default of '" + p.name + "' is not a compile-time value");
      env[p.name] = d;
      continue;
    }
    const ArgSpec &spec = it->second;
    if (spec.isConstexpr) {
      env[p.name] = spec.path.empty() ? spec.value : resolvePath(spec.path, p.loc);
      continue;
    }
    if (wantsConstexpr)
      fail(p.loc, "parameter '" + p.name + "' is tl.constexpr but was given a runtime " +
                      (spec.isTuple ? std::string("tuple") : dtypeName(spec.type)));
    if (!spec.isTuple && p.annotation && isConstAnnotation(p.annotation.get()) && !spec.type.isPointer())
      fail(p.loc, "tl.const applies to pointer parameters; '" + p.name + "' is " + dtypeName(spec.type));
    runtimeParams.push_back(&p);
    collect(spec, p.name);
  }
  for (const Leaf &leaf : leaves) {
    paramTypes.push_back(leaf.spec->type);
    for (size_t d = 0; d < 2 * leaf.spec->descriptorBlock.size(); ++d) paramTypes.push_back(Type::i64());  // shape, strides
  }
  auto owned = std::make_unique<ir::Function>(fn.name, ir::FunctionKind::Kernel, paramTypes, std::vector<Type>{});
  ir::Function *f = module_.addFunction(std::move(owned));
  f->loc = irLoc(fn.loc);
  b_.setInsertionPointToEnd(&f->entry());
  b_.setLoc(irLoc(fn.loc));
  std::map<std::string, SValue> leafValues;
  unsigned next = 0;  // the IR argument of each leaf (a descriptor takes several)
  for (const Leaf &leaf : leaves) {
    unsigned at = next++;
    ir::Value *arg = f->argument(at);
    std::string hint = leaf.path;
    std::replace(hint.begin(), hint.end(), '.', '_');
    arg->setNameHint(hint);
    const ArgSpec &spec = *leaf.spec;
    if (!spec.descriptorBlock.empty()) {
      size_t rank = spec.descriptorBlock.size();
      std::vector<SValue> shape, strides, offsets, block;
      for (size_t d = 0; d < rank; ++d) {
        ir::Value *extent = f->argument(next + unsigned(d)), *stride = f->argument(next + unsigned(rank + d));
        extent->setNameHint(hint + "_shape" + std::to_string(d));
        stride->setNameHint(hint + "_stride" + std::to_string(d));
        shape.push_back(SValue::tensor(extent));
        // The last stride is 1 (TensorDescriptor requires it): known, the
        // rows' accesses are contiguous.
        strides.push_back(SValue::tensor(d + 1 == rank ? constant(BigInt(1), Type::i64()) : stride));
        if (spec.extentsDivisibleBy16) f->argAttrs(next + unsigned(d)).set("divisibility", ir::Attribute(int64_t(16)));
        if (spec.divisibleBy16 && d + 1 < rank)  // multiples of 16 bytes
          f->argAttrs(next + unsigned(rank + d))
              .set("divisibility", ir::Attribute(int64_t(std::max(1, 128 / std::max(8, spec.type.pointee().bitWidth())))));
        offsets.push_back(SValue::tensor(constant(BigInt(0), Type::i64())));
        block.push_back(SValue::integer(spec.descriptorBlock[d]));
      }
      next += unsigned(2 * rank);
      SValue desc = SValue::blockPtr({SValue::tensor(arg), SValue::tuple(shape), SValue::tuple(strides),
                                      SValue::tuple(offsets), SValue::tuple(block), SValue::tuple({})},
                                     true);
      // ":16": the host vouches for a tensor map's rules (ir/IR.h, `descriptor`).
      if (spec.divisibleBy16) {
        f->argAttrs(at).set("descriptor", ir::Attribute(int64_t(rank)));
        f->argAttrs(at).set("divisibility", ir::Attribute(int64_t(16)));
        desc.tensorMapReady = true;
      }
      leafValues[leaf.path] = desc;
      continue;
    }
    if (spec.divisibleBy16) f->argAttrs(at).set("divisibility", ir::Attribute(int64_t(16)));
    if (spec.pointerRange32) f->argAttrs(at).set("pointer_range", ir::Attribute(int64_t(32)));
    if (spec.equalsOne && spec.type.isInteger()) {
      f->argAttrs(at).set("equal_to_one", ir::Attribute(true));
      leafValues[leaf.path] = SValue::tensor(constant(BigInt(1), spec.type));
    } else {
      leafValues[leaf.path] = SValue::tensor(arg);
    }
  }
  // A tuple parameter's value: its leaves, and its constexpr elements by path.
  std::function<SValue(const ArgSpec &, const std::string &, SourceLoc)> assemble =
      [&](const ArgSpec &spec, const std::string &path, SourceLoc loc) {
        if (!spec.isTuple) return leafValues.at(path);
        std::vector<SValue> elements;
        for (size_t i = 0; i < spec.elements.size(); ++i) {
          std::string at = path + "." + std::to_string(i);
          const ArgSpec &e = spec.elements[i];
          if (!e.isConstexpr) {
            elements.push_back(assemble(e, at, loc));
            continue;
          }
          auto given = args.find(at);
          if (given == args.end() || !given->second.isConstexpr)
            fail(loc, "no compile-time value given for element " + at + " of tuple parameter '" + path.substr(0, path.find('.')) + "'");
          elements.push_back(given->second.path.empty() ? given->second.value : resolvePath(given->second.path, loc));
        }
        if (!spec.fieldNames.empty()) return SValue::namedTuple(spec.tupleName, spec.fieldNames, std::move(elements));
        return SValue::tuple(elements);
      };
  for (const Param *p : runtimeParams) {
    env[p->name] = assemble(args.at(p->name), p->name, p->loc);
    if (!args.at(p->name).isTuple && p->annotation && isConstAnnotation(p->annotation.get())) env[p->name].constPtr = true;
  }
  env_ = std::move(env);
  returnValue_.reset();
  genStmts(fn.body);
  if (returnValue_ && !returnValue_->is(Kind::None)) fail(fn.loc, "a kernel cannot return a value");
  b_.setLoc(irLoc(fn.loc));
  b_.create(OpCode::Return, {}, {});
  return f;
}

// ---- statements

Flow CodeGen::genStmts(const StmtList &stmts, size_t from) {
  for (size_t i = from; i < stmts.size(); ++i) {
    const Stmt &s = *stmts[i];
    if (auto *ifs = dynCast<IfStmt>(&s)) {
      // genIf may take the statements after it as its else branch.
      Flow f = genIf(*ifs, stmts, i + 1);
      if (f != Flow::Normal) return f;
      if (consumedRest_) {
        consumedRest_ = false;
        return Flow::Return;
      }
      continue;
    }
    Flow f = genStmt(s, stmts, i);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

Flow CodeGen::genStmt(const Stmt &s, const StmtList &, size_t) {
  b_.setLoc(irLoc(s.loc));
  switch (s.kind) {
  case StmtKind::Expr: eval(*static_cast<const ExprStmt &>(s).value); return Flow::Normal;
  case StmtKind::Assign: {
    auto &a = static_cast<const AssignStmt &>(s);
    SValue v = eval(*a.value);
    for (const ExprPtr &t : a.targets) assign(*t, v, t->loc);
    return Flow::Normal;
  }
  case StmtKind::AnnAssign: {
    auto &a = static_cast<const AnnAssignStmt &>(s);
    if (a.value) assign(*a.target, eval(*a.value), a.loc);
    return Flow::Normal;
  }
  case StmtKind::AugAssign: {
    auto &a = static_cast<const AugAssignStmt &>(s);
    auto *name = dynCast<NameExpr>(a.target.get());
    if (!name) fail(a.target->loc, "augmented assignment needs a plain variable name as its target");
    SValue current = evalName(*name);
    SValue rhs = eval(*a.value);
    assign(*a.target, binary(a.op, current, rhs, a.loc), a.loc);
    return Flow::Normal;
  }
  case StmtKind::For: return genFor(static_cast<const ForStmt &>(s));
  case StmtKind::While: return genWhile(static_cast<const WhileStmt &>(s));
  case StmtKind::Break: return Flow::Break;
  case StmtKind::Continue: return Flow::Continue;
  case StmtKind::Return: {
    auto &r = static_cast<const ReturnStmt &>(s);
    returnValue_ = r.value ? eval(*r.value) : SValue::none();
    return Flow::Return;
  }
  case StmtKind::Pass: return Flow::Normal;
  case StmtKind::Assert: genAssert(static_cast<const AssertStmt &>(s)); return Flow::Normal;
  case StmtKind::Raise:
    fail(s.loc, "a 'raise' statement is reached while compiling: kernels cannot raise exceptions (a branch that a "
                "compile-time condition skips may hold one)");
  case StmtKind::Import:
  case StmtKind::ImportFrom: fail(s.loc, "imports are allowed only at module level, not inside a kernel");
  case StmtKind::FunctionDef: fail(s.loc, "nested function definitions are not supported in kernels");
  case StmtKind::If: break;
  }
  fail(s.loc, "unsupported statement");
}

void CodeGen::assign(const Expr &target, SValue value, SourceLoc loc) {
  if (auto *n = dynCast<NameExpr>(&target)) {
    if (value.isTensor() && value.v->nameHint().empty() && n->id != "_") value.v->setNameHint(n->id);
    env_[n->id] = std::move(value);
    return;
  }
  const ExprList *elts = nullptr;
  if (auto *t = dynCast<TupleExpr>(&target)) elts = &t->elts;
  if (auto *l = dynCast<ListExpr>(&target)) elts = &l->elts;
  if (!elts) fail(loc, "cannot assign to this expression; kernels assign only to names and tuples of names");
  if (!value.is(Kind::Tuple))
    fail(loc, "cannot unpack " + value.describe() + " into " + std::to_string(elts->size()) + " names");
  if (value.elems.size() != elts->size())
    fail(loc, "cannot unpack a tuple of " + std::to_string(value.elems.size()) + " into " +
                  std::to_string(elts->size()) + " names");
  for (size_t i = 0; i < elts->size(); ++i) assign(*(*elts)[i], value.elems[i], (*elts)[i]->loc);
}

void CodeGen::genAssert(const AssertStmt &s) {
  SValue c = eval(*s.test);
  std::string msg;
  if (s.msg) {
    SValue m = eval(*s.msg);
    msg = m.is(Kind::Str) ? m.s : m.key();
  }
  if (c.isConstexpr()) {
    if (!c.truthy()) fail(s.loc, "assertion failed at compile time" + (msg.empty() ? "" : ": " + msg));
    return;
  }
  CallArgs args;
  args.positional = {c, SValue::str(msg)};
  args.positionalLocs = {s.test->loc, s.loc};
  args.loc = s.loc;
  callBuiltin("device_assert", args, s.loc);
}

// ---- structured control flow

namespace {

void collectAssigned(const Expr &target, std::set<std::string> &out) {
  if (auto *n = dynCast<NameExpr>(&target)) out.insert(n->id);
  if (auto *t = dynCast<TupleExpr>(&target))
    for (auto &e : t->elts) collectAssigned(*e, out);
  if (auto *l = dynCast<ListExpr>(&target))
    for (auto &e : l->elts) collectAssigned(*e, out);
}

void collectAssigned(const StmtList &body, std::set<std::string> &out) {
  for (const StmtPtr &s : body) {
    if (auto *a = dynCast<AssignStmt>(s.get()))
      for (auto &t : a->targets) collectAssigned(*t, out);
    if (auto *a = dynCast<AugAssignStmt>(s.get())) collectAssigned(*a->target, out);
    if (auto *a = dynCast<AnnAssignStmt>(s.get())) collectAssigned(*a->target, out);
    if (auto *i = dynCast<IfStmt>(s.get())) collectAssigned(i->body, out), collectAssigned(i->orelse, out);
    if (auto *f = dynCast<ForStmt>(s.get())) collectAssigned(*f->target, out), collectAssigned(f->body, out);
    if (auto *w = dynCast<WhileStmt>(s.get())) collectAssigned(w->body, out);
  }
}

bool sameValue(const SValue &a, const SValue &b) {
  if (a.kind != b.kind) return false;
  if (a.isTensor()) return a.v == b.v;
  if (a.is(Kind::Tuple) || a.is(Kind::BlockPtr)) {
    if (a.elems.size() != b.elems.size() || a.isDescriptor != b.isDescriptor) return false;
    for (size_t i = 0; i < a.elems.size(); ++i)
      if (!sameValue(a.elems[i], b.elems[i])) return false;
    return true;
  }
  if (a.isConstexpr()) return a.key() == b.key();
  return a.fn == b.fn && a.s == b.s;
}

// Block pointers carry their runtime parts (base, shape, strides, offsets);
// the block shape and order are compile-time and stay in the template.
constexpr size_t kBlockPtrRuntimeFields = 4;

} // namespace

std::vector<std::string> CodeGen::carriedNames(const StmtList &body) const {
  std::set<std::string> assigned;
  collectAssigned(body, assigned);
  std::vector<std::string> out;
  for (const std::string &n : assigned)
    if (env_.count(n)) out.push_back(n);
  return out;
}

// Runtime leaves of a value, in a fixed order; numbers become tensors.
void CodeGen::flatten(const SValue &v, std::vector<ir::Value *> &out, SourceLoc loc, const std::string &name,
                      bool numbers) {
  switch (v.kind) {
  case Kind::Tensor: out.push_back(v.v); return;
  case Kind::Int: case Kind::Float: case Kind::Bool:
    if (numbers) out.push_back(toTensor(v, loc));
    return;
  case Kind::Tuple:
    for (auto &e : v.elems) flatten(e, out, loc, name, numbers);
    return;
  case Kind::BlockPtr:
    for (size_t i = 0; i < kBlockPtrRuntimeFields; ++i) flatten(v.elems[i], out, loc, name, numbers);
    return;
  default: return;  // None, str, dtype, functions: compile-time, kept in the template
  }
}

SValue CodeGen::rebuild(const SValue &shape, const std::vector<ir::Value *> &vals, size_t &pos, bool numbers) const {
  switch (shape.kind) {
  case Kind::Tensor: {
    SValue r = SValue::tensor(vals[pos++]);
    r.constPtr = shape.constPtr;
    return r;
  }
  case Kind::Int: case Kind::Float: case Kind::Bool: return numbers ? SValue::tensor(vals[pos++]) : shape;
  case Kind::Tuple: {
    SValue t = shape;
    for (auto &e : t.elems) e = rebuild(e, vals, pos, numbers);
    return t;
  }
  case Kind::BlockPtr: {
    SValue t = shape;
    for (size_t i = 0; i < kBlockPtrRuntimeFields; ++i) t.elems[i] = rebuild(t.elems[i], vals, pos, numbers);
    return t;
  }
  default: return shape;
  }
}

// The rest of the function from `rest`[from]: that list's statements, then
// those after each enclosing compile-time if, innermost first (each with
// only the ones outside it as its own outer rest).
Flow CodeGen::genRest(const StmtList &rest, size_t from) {
  std::vector<std::pair<const StmtList *, size_t>> outer = outerRest_;
  Flow f = genStmts(rest, from);
  while (f == Flow::Normal && !outer.empty()) {
    auto [list, at] = outer.back();
    outer.pop_back();
    std::vector<std::pair<const StmtList *, size_t>> saved = outerRest_;
    outerRest_ = outer;
    f = genStmts(*list, at);
    outerRest_ = saved;
  }
  return f;
}

CodeGen::Branches CodeGen::genBranches(const IfStmt &s, const StmtList &rest, size_t restFrom, const Env &before,
                                       const std::function<void(int)> &enter, const char *noBreak) {
  Branches br;
  Flow flows[2];
  for (int r = 0; r < 2; ++r) {
    enter(r);
    env_ = before;
    returnValue_.reset();
    // A return nested in this branch takes the statements after this if too.
    outerRest_.push_back({&rest, restFrom});
    flows[r] = genStmts(r == 0 ? s.body : s.orelse);
    outerRest_.pop_back();
    if (flows[r] == Flow::Break || flows[r] == Flow::Continue) fail(s.loc, noBreak);
    br.env[r] = env_;
    br.ret[r] = returnValue_;
  }
  // One branch returns, the other goes on: the rest of the function (this
  // list's statements after the if, then those around it) continues the
  // other branch, so that both end the function.
  br.returns = flows[0] == Flow::Return || flows[1] == Flow::Return;
  if (br.returns && flows[0] != flows[1]) {
    int r = flows[0] == Flow::Return ? 1 : 0;
    enter(r);
    env_ = br.env[r];
    returnValue_ = br.ret[r];
    genRest(rest, restFrom);
    br.env[r] = env_;
    br.ret[r] = returnValue_;
    br.restInBranch = true;
  }
  return br;
}

Flow CodeGen::genPredicatedIf(const IfStmt &s, const StmtList &rest, size_t restFrom, const SValue &cond) {
  Env before = env_;
  Branches br = genBranches(s, rest, restFrom, before, [](int) {},
                            "break and continue are not supported in tl.map_elementwise's function");
  Env *branchEnv = br.env;
  std::optional<SValue> *branchRet = br.ret;
  bool returns = br.returns, restInBranch = br.restInBranch;
  std::function<SValue(const std::string &, const SValue &, const SValue &)> select =
      [&](const std::string &name, const SValue &a, const SValue &b) -> SValue {
    if (sameValue(a, b)) return a;
    if (a.is(Kind::Tuple) && b.is(Kind::Tuple) && a.elems.size() == b.elems.size()) {
      std::vector<SValue> e;
      for (size_t i = 0; i < a.elems.size(); ++i) e.push_back(select(name, a.elems[i], b.elems[i]));
      return SValue::tuple(std::move(e));
    }
    if (!(a.isTensor() || a.isNumber()) || !(b.isTensor() || b.isNumber()))
      fail(s.loc, "'" + name + "' is " + a.describe() + " on some elements and " + b.describe() +
                      " on others; only values can differ between elements");
    CallArgs w;
    w.positional = {cond, a, b};
    return callBuiltin("where", w, s.loc);
  };
  env_ = before;
  if (!returns)
    for (auto &[name, a] : branchEnv[0])
      if (auto it = branchEnv[1].find(name); it != branchEnv[1].end()) env_[name] = select(name, a, it->second);
  if (!returns) return Flow::Normal;
  returnValue_ = select("<return value>", branchRet[0].value_or(SValue::none()), branchRet[1].value_or(SValue::none()));
  consumedRest_ = restInBranch;
  return restInBranch ? Flow::Normal : Flow::Return;
}

Flow CodeGen::genIf(const IfStmt &s, const StmtList &rest, size_t restFrom) {
  SValue cond = eval(*s.test);
  if (cond.isConstexpr()) {
    outerRest_.push_back({&rest, restFrom});
    Flow f = genStmts(cond.truthy() ? s.body : s.orelse);
    outerRest_.pop_back();
    return f;
  }
  if (!cond.isTensor()) fail(s.test->loc, "the condition of an if must be a compile-time value or a scalar, found " + cond.describe());
  if (cond.v->type().isTile() && cond.v->type().numElements() > 1 && elementwiseDepth_ > 0)
    return genPredicatedIf(s, rest, restFrom, cond);
  if (cond.v->type().isTile() && cond.v->type().numElements() == 1)  // Triton's unsplat: a [1] tile is its element
    cond = SValue::tensor(extractElement(*this, cond.v, 0, s.test->loc));
  if (cond.v->type().isTile())
    fail(s.test->loc, "the condition of an if must be a scalar, found a tile of type " + cond.v->type().str());
  ir::Value *c = cond.v->type().isBool() ? cond.v : cast(cond.v, Type::i1(), s.test->loc);

  Env before = env_;
  std::optional<SValue> retBefore = returnValue_;
  b_.setLoc(irLoc(s.loc));
  ir::Operation *tmp = b_.create(OpCode::If, {c}, {});
  ir::Block *saved = b_.block();

  Branches br = genBranches(s, rest, restFrom, before, [&](int r) { b_.setInsertionPointToEnd(&tmp->region(r).block()); },
                            "break and continue are supported only in tl.static_range loops under compile-time conditions");
  Env *branchEnv = br.env;
  std::optional<SValue> *branchRet = br.ret;
  bool returns = br.returns, restInBranch = br.restInBranch;
  if (returns)
    for (int r = 0; r < 2; ++r)
      if (!branchRet[r]) branchRet[r] = SValue::none();

  // Values that differ between the branches become results of the if.
  struct Slot {
    std::string name;
    SValue shape;
    size_t first, count;
  };
  std::vector<Slot> slots;
  std::vector<ir::Value *> yields[2];
  auto merge = [&](const std::string &name, const SValue &a, const SValue &b, SourceLoc loc) {
    if (sameValue(a, b)) return a;
    std::vector<ir::Value *> va, vb;
    b_.setInsertionPointToEnd(&tmp->region(0).block());
    SValue shape = mergeBranches(name, a, b, va, vb, loc);
    slots.push_back({name, shape, yields[0].size(), va.size()});
    yields[0].insert(yields[0].end(), va.begin(), va.end());
    yields[1].insert(yields[1].end(), vb.begin(), vb.end());
    return SValue::none();
  };
  Env merged = before;
  // Variables matter after the if only when neither branch ended the function.
  for (auto &[name, a] : returns ? Env{} : branchEnv[0]) {
    auto it = branchEnv[1].find(name);
    if (it == branchEnv[1].end()) {
      merged.erase(name);  // defined on one path only: not visible after the if
      continue;
    }
    SValue m = merge(name, a, it->second, s.loc);
    if (slots.empty() || slots.back().name != name) merged[name] = m;
  }
  if (!returns)
    for (auto &[name, b] : branchEnv[1])
      if (!branchEnv[0].count(name)) merged.erase(name);
  std::optional<SValue> mergedRet;
  if (returns) {
    SValue m = merge("<return value>", *branchRet[0], *branchRet[1], s.loc);
    if (slots.empty() || slots.back().name != "<return value>") mergedRet = m;
  }

  ir::Operation *real = finishIf(tmp, yields[0], yields[1], s.loc);
  b_.setInsertionPointToEnd(saved);
  std::vector<ir::Value *> results = real->results();
  env_ = merged;
  returnValue_ = retBefore;
  for (const Slot &slot : slots) {
    size_t pos = slot.first;
    SValue v = rebuild(slot.shape, results, pos);
    if (slot.name == "<return value>") mergedRet = v;
    else env_[slot.name] = v;
  }
  if (returns) {
    returnValue_ = mergedRet;
    consumedRest_ = restInBranch;
    return restInBranch ? Flow::Normal : Flow::Return;
  }
  return Flow::Normal;
}

// The branches of `tmp` (an if op built without results, since they were
// unknown) move into a new if op with the yielded values as its results.
ir::Operation *CodeGen::finishIf(ir::Operation *tmp, const std::vector<ir::Value *> &thenYield,
                                 const std::vector<ir::Value *> &elseYield, SourceLoc loc) {
  std::vector<Type> types;
  for (ir::Value *v : thenYield) types.push_back(v->type());
  b_.setInsertionPoint(tmp);
  ir::Operation *real = b_.create(OpCode::If, {tmp->operand(0)}, types);
  for (int r = 0; r < 2; ++r) {
    ir::Block &src = tmp->region(r).block(), &dst = real->region(r).block();
    for (ir::Operation *op : src.opsVector()) dst.append(src.take(op));
    ir::Builder yb(&dst);
    yb.setLoc(irLoc(loc));
    yb.yield(r == 0 ? thenYield : elseYield);
  }
  tmp->erase();
  return real;
}

// Brings two branch values to one runtime shape; `a`'s leaves are emitted at
// the builder's block (the then-branch), `b`'s in the else-branch.
SValue CodeGen::mergeBranches(const std::string &name, const SValue &a, const SValue &b, std::vector<ir::Value *> &ta,
                              std::vector<ir::Value *> &tb, SourceLoc loc) {
  ir::Operation *ifOp = b_.block()->parentOp();
  auto structural = [&](const SValue &x) {
    return x.is(Kind::Tuple) || x.is(Kind::BlockPtr);
  };
  if (structural(a) || structural(b)) {
    if (a.kind != b.kind || a.elems.size() != b.elems.size())
      fail(loc, "'" + name + "' has a different structure in the two branches: " + a.describe() + " and " + b.describe());
    SValue shape = a;
    size_t n = a.is(Kind::BlockPtr) ? kBlockPtrRuntimeFields : a.elems.size();
    for (size_t i = 0; i < n; ++i) shape.elems[i] = mergeBranches(name, a.elems[i], b.elems[i], ta, tb, loc);
    return shape;
  }
  bool aRt = a.isTensor() || a.isNumber(), bRt = b.isTensor() || b.isNumber();
  if (!aRt || !bRt) {
    if (sameValue(a, b)) return a;
    fail(loc, "'" + name + "' is " + a.describe() + " in one branch and " + b.describe() +
                  " in the other; only runtime values can differ between branches");
  }
  // The type: a tensor side decides; two numbers use Python's scalar typing.
  Type ta0 = a.isTensor() ? a.v->type() : Type(), tb0 = b.isTensor() ? b.v->type() : Type();
  Type t = ta0 ? ta0 : tb0 ? tb0 : pyScalarType(a, loc);
  if (ta0 && tb0 && ta0 != tb0)
    fail(loc, "'" + name + "' has type " + ta0.str() + " in the then-branch but " + tb0.str() + " in the else-branch");
  if (a.constPtr != b.constPtr) {  // a const pointer type differs from a plain one (Triton's words per construct)
    auto kind = [](const SValue &v) { return std::string(v.constPtr ? "const " : "") + dtypeName(v.v->type().element()); };
    std::string both = kind(a) + " and " + kind(b);
    if (name == "conditional expression") fail(loc, "Ternary expression with dynamic condition has inconsistent type: " + both);
    if (name == "<return value>") fail(loc, "Inconsistent return types: " + both);
    fail(loc, "Mismatched type for " + name + " between then block (" + kind(a) + ") and else block (" + kind(b) + ")");
  }
  auto emit = [&](const SValue &v, int region) {
    b_.setInsertionPointToEnd(&ifOp->region(region).block());
    ir::Value *x = toTensor(v, loc, t.element());
    return splatTo(x, t.shape(), loc);
  };
  ta.push_back(emit(a, 0));
  tb.push_back(emit(b, 1));
  b_.setInsertionPointToEnd(&ifOp->region(0).block());
  SValue shape = SValue::tensor(nullptr);
  shape.constPtr = a.constPtr;
  return shape;
}

Flow CodeGen::genStaticFor(const ForStmt &s, std::vector<BigInt> values) {
  NoOuterRest bodyOnly(*this);
  for (BigInt v : values) {
    assign(*s.target, SValue::integer(v), s.target->loc);
    Flow f = genStmts(s.body);
    if (f == Flow::Break) break;
    if (f == Flow::Return) return f;
  }
  return Flow::Normal;
}

namespace {

struct RangeArgs {
  SValue lb, ub, step;
  int64_t numStages = -1, unroll = -1;
  bool disableLicm = false, warpSpecialize = false;
};

} // namespace

Flow CodeGen::genFor(const ForStmt &s) {
  auto *call = dynCast<CallExpr>(s.iter.get());
  SValue callee = call ? eval(*call->func) : SValue();
  std::string rangeKind = callee.is(Kind::Builtin) ? callee.s : "";
  if (rangeKind == "py.range") rangeKind = "range";
  if (rangeKind != "range" && rangeKind != "static_range")
    fail(s.iter->loc, "a kernel's for loop must iterate over range(...), tl.range(...) or tl.static_range(...)");
  CallArgs args = evalCallArgs(*call);
  args.callee = rangeKind;
  checkArgs(args, {"arg1", "arg2", "step", "num_stages", "loop_unroll_factor", "warp_specialize", "flatten",
                   "disallow_acc_multi_buffer", "disable_licm"});
  RangeArgs r;
  size_t n = args.positional.size();
  if (n == 0 || n > 3) fail(call->loc, "range expects 1 to 3 arguments, got " + std::to_string(n));
  r.lb = n == 1 ? SValue::integer(0) : args.positional[0];
  r.ub = n == 1 ? args.positional[0] : args.positional[1];
  r.step = n == 3 ? args.positional[2] : SValue::integer(1);
  if (n < 3)
    if (const SValue *st = findArg(args, 99, "step"); st && !st->is(Kind::None)) r.step = *st;  // range(0, n, step=...)
  if (const SValue *ns = findArg(args, 99, "num_stages"); ns && !ns->is(Kind::None)) r.numStages = int64_t(intArg(args, 99, "num_stages"));
  if (const SValue *u = findArg(args, 99, "loop_unroll_factor"); u && !u->is(Kind::None)) r.unroll = int64_t(intArg(args, 99, "loop_unroll_factor"));
  if (const SValue *d = findArg(args, 99, "disable_licm"); d && d->isConstexpr()) r.disableLicm = d->truthy();
  if (const SValue *w = findArg(args, 99, "warp_specialize"); w && w->isConstexpr()) r.warpSpecialize = w->truthy();

  if (rangeKind == "static_range") {
    for (const SValue *v : {&r.lb, &r.ub, &r.step})
      if (!v->is(Kind::Int)) fail(call->loc, "tl.static_range needs compile-time integer bounds, found " + v->describe());
    if (r.step.i == 0) fail(call->loc, "range step must not be zero");
    std::vector<BigInt> values;
    for (BigInt i = r.lb.i; r.step.i > 0 ? i < r.ub.i : i > r.ub.i; i += r.step.i) {
      values.push_back(i);
      if (values.size() > 4096) fail(call->loc, "tl.static_range unrolls at most 4096 iterations");
    }
    return genStaticFor(s, std::move(values));
  }
  auto *targetName = dynCast<NameExpr>(s.target.get());
  if (!targetName) fail(s.target->loc, "the target of a runtime for loop must be a single name");

  // Induction variable type: the promoted type of the bounds (i32 by default).
  Type ivType = Type::i32();
  for (const SValue *v : {&r.lb, &r.ub, &r.step}) {
    if (!v->isTensor() && !v->is(Kind::Int) && !v->is(Kind::Bool))
      fail(call->loc, "range bounds must be integers, found " + v->describe());
    Type t = v->isTensor() ? v->v->type() : pyScalarType(*v, call->loc);
    if (t.isTile()) fail(call->loc, "range bounds must be scalars, found " + t.str());
    if (!t.isInteger()) fail(call->loc, "range bounds must be integers, found " + dtypeName(t));
    ivType = integerPromote(ivType, t);
  }
  bool negative = r.step.is(Kind::Int) && r.step.i < 0;
  if (r.step.is(Kind::Int) && r.step.i == 0) fail(call->loc, "range step must not be zero");
  b_.setLoc(irLoc(call->loc));
  ir::Value *lb = toTensor(r.lb, call->loc, ivType), *ub = toTensor(r.ub, call->loc, ivType);
  ir::Value *step = toTensor(r.step, call->loc, ivType);
  ir::Value *origLb = lb, *origStep = step;
  if (negative) {
    // Count k = 0 .. ceil((lb - ub) / -step) and use i = lb + k * step.
    ir::Value *negStep = constant(-r.step.i, ivType);
    ir::Value *span = b_.sameType(OpCode::Sub, {lb, ub});
    ir::Value *num = b_.sameType(OpCode::Add, {span, b_.sameType(OpCode::Sub, {negStep, constant(BigInt(1), ivType)})});
    ub = b_.sameType(OpCode::Div, {num, negStep});
    lb = constant(BigInt(0), ivType);
    step = constant(BigInt(1), ivType);
  }

  std::vector<std::string> carried = carriedNames(s.body);
  carried.erase(std::remove(carried.begin(), carried.end(), targetName->id), carried.end());
  std::map<std::string, std::vector<Type>> forced;  // types learned from a first attempt
  for (int attempt = 0; attempt < 3; ++attempt) {
    Env before = env_;
    std::vector<ir::Value *> inits;
    std::vector<std::pair<std::string, size_t>> starts;
    std::vector<bool> fromConstexpr;
    for (const std::string &name : carried) {
      size_t first = inits.size();
      flatten(env_[name], inits, s.loc, name);
      starts.push_back({name, first});
      for (size_t k = first; k < inits.size(); ++k) {
        ir::Operation *d = inits[k]->definingOp();
        fromConstexpr.push_back(d && d->is(OpCode::Constant) && !before[name].isTensor());
        auto f = forced.find(name);
        if (f != forced.end() && k - first < f->second.size() && f->second[k - first] != inits[k]->type()) {
          Type want = f->second[k - first];
          inits[k] = splatTo(cast(inits[k], want.element(), s.loc), want.shape(), s.loc);
        }
      }
    }
    std::vector<Type> types;
    for (ir::Value *v : inits) types.push_back(v->type());
    std::vector<ir::Value *> operands = {lb, ub, step};
    operands.insert(operands.end(), inits.begin(), inits.end());
    ir::AttrDict attrs;
    if (r.numStages >= 0) attrs.set("num_stages", ir::Attribute(r.numStages));
    if (r.unroll >= 0) attrs.set("unroll", ir::Attribute(r.unroll));
    if (r.disableLicm) attrs.set("disable_licm", ir::Attribute(true));
    if (r.warpSpecialize) attrs.set("warp_specialize", ir::Attribute(true));
    b_.setLoc(irLoc(s.loc));
    ir::Operation *loop = b_.create(OpCode::For, operands, types, std::move(attrs));
    ir::Block &body = loop->region(0).block();
    ir::Value *iv = body.addArgument(ivType, targetName->id);
    std::vector<ir::Value *> args;
    for (Type t : types) args.push_back(body.addArgument(t));
    ir::Block *outer = b_.block();
    b_.setInsertionPointToEnd(&body);
    for (auto &[name, first] : starts) {
      size_t pos = first;
      env_[name] = rebuild(before[name], args, pos);
      if (before[name].isNumber()) env_[name] = SValue::tensor(args[first]);
      if (pos == first + 1 && args[first]->nameHint().empty()) args[first]->setNameHint(name);
    }
    ir::Value *ivValue = iv;
    if (negative) {
      b_.setLoc(irLoc(s.loc));
      ivValue = b_.sameType(OpCode::Add, {origLb, b_.sameType(OpCode::Mul, {iv, origStep})});
    }
    env_[targetName->id] = SValue::tensor(ivValue);
    Flow f = [&] {
      NoOuterRest bodyOnly(*this);
      return genStmts(s.body);
    }();
    if (f != Flow::Normal)
      fail(s.loc, "break, continue and return are not supported inside a runtime for loop (use tl.static_range, or "
                  "a while loop with a flag)");
    std::vector<ir::Value *> yielded;
    bool retry = false;
    for (size_t idx = 0; idx < starts.size(); ++idx) {
      const std::string &name = starts[idx].first;
      auto it = env_.find(name);
      if (it == env_.end()) fail(s.loc, "loop-carried variable '" + name + "' is not defined at the end of the loop body");
      size_t first = yielded.size();
      flatten(it->second, yielded, s.loc, name);
      size_t count = (idx + 1 < starts.size() ? starts[idx + 1].second : inits.size()) - starts[idx].second;
      if (yielded.size() - first != count)
        fail(s.loc, "loop-carried variable '" + name + "' changes structure in the loop body: " + before[name].describe() +
                        " becomes " + it->second.describe());
      for (size_t k = 0; k < count; ++k) {
        size_t slot = starts[idx].second + k;
        Type want = types[slot], got = yielded[first + k]->type();
        if (want == got) continue;
        if (fromConstexpr[slot] && attempt < 2) {
          auto &fv = forced[name];
          fv.resize(count);
          fv[k] = got;
          retry = true;
          continue;
        }
        fail(s.loc, "loop-carried variable '" + name + "' has type " + want.str() + " before the loop but " + got.str() +
                        " at the end of its body");
      }
    }
    if (retry) {
      b_.setInsertionPointToEnd(outer);
      loop->dropAllReferences();
      loop->erase();
      env_ = before;
      continue;
    }
    b_.setLoc(irLoc(s.loc));
    b_.yield(yielded);
    b_.setInsertionPointToEnd(outer);
    std::vector<ir::Value *> results = loop->results();
    env_ = before;
    for (auto &[name, first] : starts) {
      size_t pos = first;
      env_[name] = rebuild(before[name], results, pos);
      if (pos == first + 1) results[first]->setNameHint(name);
    }
    return Flow::Normal;
  }
  fail(s.loc, "could not settle the types of the loop-carried variables");
}

Flow CodeGen::genWhile(const WhileStmt &s) {
  std::vector<std::string> carried = carriedNames(s.body);
  Env before = env_;
  std::vector<ir::Value *> inits;
  std::vector<std::pair<std::string, size_t>> starts;
  for (const std::string &name : carried) {
    starts.push_back({name, inits.size()});
    flatten(env_[name], inits, s.loc, name);
  }
  std::vector<Type> types;
  for (ir::Value *v : inits) types.push_back(v->type());
  b_.setLoc(irLoc(s.loc));
  ir::Operation *loop = b_.create(OpCode::While, inits, types);
  ir::Block *outer = b_.block();
  auto bindArgs = [&](ir::Block &blk) {
    std::vector<ir::Value *> args;
    for (Type t : types) args.push_back(blk.addArgument(t));
    env_ = before;
    for (auto &[name, first] : starts) {
      size_t pos = first;
      env_[name] = rebuild(before[name], args, pos);
      if (before[name].isNumber()) env_[name] = SValue::tensor(args[first]);
    }
    return args;
  };
  // before-region: evaluate the condition and forward the values.
  ir::Block &beforeBlk = loop->region(0).block();
  std::vector<ir::Value *> beforeArgs = bindArgs(beforeBlk);
  b_.setInsertionPointToEnd(&beforeBlk);
  disableLicm_ = false;
  SValue cond = eval(*s.test);
  if (disableLicm_) loop->attrs().set("disable_licm", ir::Attribute(true));  // tl.condition(..., disable_licm=True)
  disableLicm_ = false;
  if (cond.isConstexpr()) fail(s.test->loc, "a while loop needs a runtime condition; compile-time loops use tl.static_range");
  if (!cond.isTensor() || cond.v->type().isTile())
    fail(s.test->loc, "the condition of a while loop must be a scalar, found " + cond.describe());
  ir::Value *c = cond.v->type().isBool() ? cond.v : cast(cond.v, Type::i1(), s.test->loc);
  std::vector<ir::Value *> condOperands = {c};
  condOperands.insert(condOperands.end(), beforeArgs.begin(), beforeArgs.end());
  b_.create(OpCode::Condition, condOperands, {});
  // after-region: the body.
  ir::Block &afterBlk = loop->region(1).block();
  bindArgs(afterBlk);
  b_.setInsertionPointToEnd(&afterBlk);
  Flow f = [&] {
    NoOuterRest bodyOnly(*this);
    return genStmts(s.body);
  }();
  if (f != Flow::Normal) fail(s.loc, "break, continue and return are not supported inside a while loop");
  std::vector<ir::Value *> yielded;
  for (size_t idx = 0; idx < starts.size(); ++idx) {
    const std::string &name = starts[idx].first;
    size_t n0 = yielded.size();
    flatten(env_[name], yielded, s.loc, name);
    size_t count = (idx + 1 < starts.size() ? starts[idx + 1].second : inits.size()) - starts[idx].second;
    if (yielded.size() - n0 != count)
      fail(s.loc, "while-loop variable '" + name + "' changes structure in the loop body: " + before[name].describe() +
                      " becomes " + env_[name].describe());
    for (size_t k = n0; k < yielded.size(); ++k)
      if (yielded[k]->type() != types[k])
        fail(s.loc, "while-loop variable '" + name + "' changes type in the loop body (from " + types[k].str() + " to " +
                        yielded[k]->type().str() + "); give it its final type before the loop");
  }
  b_.yield(yielded);
  b_.setInsertionPointToEnd(outer);
  env_ = before;
  std::vector<ir::Value *> results = loop->results();
  for (auto &[name, first] : starts) {
    size_t pos = first;
    env_[name] = rebuild(before[name], results, pos);
  }
  return Flow::Normal;
}

// ---- functions

SValue CodeGen::genFunctionBody(const FunctionDef &fn, Env env) {
  Env savedEnv = std::move(env_);
  std::optional<SValue> savedRet = returnValue_;
  env_ = std::move(env);
  returnValue_.reset();
  const Env *savedScope = scope_;
  scope_ = preludeFns_.count(&fn) ? &preludeGlobals_ : &globals_;
  if (++callDepth_ > 64) fail(fn.loc, "calls nest more than 64 deep (recursion is not supported)");
  Flow f;
  {
    NoOuterRest bodyOnly(*this);
    f = genStmts(fn.body);
  }
  --callDepth_;
  scope_ = savedScope;
  if (f == Flow::Break || f == Flow::Continue) fail(fn.loc, "break or continue outside a loop");
  SValue result = returnValue_.value_or(SValue::none());
  env_ = std::move(savedEnv);
  returnValue_ = savedRet;
  return result;
}

SValue CodeGen::resolvePath(const std::string &path, SourceLoc loc) {
  size_t dot = path.find('.');
  std::string root = path.substr(0, dot);
  SValue v = SValue::ns("tessera");
  if (root != "tessera" && root != "triton") {
    // A name of the kernel's module (a @jit function passed as a constexpr).
    auto g = globals_.find(root);
    if (g == globals_.end()) fail(loc, "constexpr '" + path + "' names nothing in the kernel's module");
    v = g->second;
  }
  while (dot != std::string::npos) {
    size_t next = path.find('.', dot + 1);
    v = getAttribute(v, path.substr(dot + 1, next == std::string::npos ? std::string::npos : next - dot - 1), loc);
    dot = next;
  }
  return v;
}

} // namespace tessera::frontend
