// Expressions, names, attributes, subscripts and calls; the compile driver.
#include "frontend/CodeGen.h"

#include "frontend/Parser.h"
#include "frontend/PythonFormat.h"
#include "ir/Verifier.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace tessera::frontend {

using ir::OpCode;
using ir::Type;
using Kind = SValue::Kind;

// ---- names

namespace {

const char *const kPythonBuiltins[] = {"range", "min", "max", "len", "int", "float", "bool", "abs", "print",
                                       "isinstance", "tuple", "list", "enumerate", "zip", "getattr", "hasattr"};

} // namespace

SValue CodeGen::evalName(const NameExpr &e) {
  auto it = env_.find(e.id);
  if (it != env_.end()) return it->second;
  auto g = scope_->find(e.id);
  if (g != scope_->end()) {
    if (g->second.is(Kind::Namespace) && g->second.s.rfind("unevaluable:", 0) == 0)
      fail(e.loc, "global '" + e.id + "' is not a compile-time constant (" + g->second.s.substr(12 + e.id.size() + 2) +
                      "); pass it as a tl.constexpr argument instead");
    return g->second;
  }
  for (const char *b : kPythonBuiltins)
    if (e.id == b) return SValue::builtin(std::string("py.") + b);
  if (e.id == "breakpoint")
    fail(e.loc, "breakpoint() stops only in the interpreter: run with TESSERA_INTERPRET=1 (TRITON_INTERPRET=1 under "
                "tessera.compat), where kernels run as Python");
  fail(e.loc, "name '" + e.id + "' is not defined");
}

// ---- expressions

// Every tile an expression makes is checked against the size limit here
// (tl.arange, broadcasts, dots... not only the shape arguments).
SValue CodeGen::eval(const Expr &e) {
  SValue v = evalUnchecked(e);
  if (v.is(Kind::Tensor) && v.v && v.v->type().isTile() && v.v->type().numElements() > kMaxTileElements)
    fail(e.loc, "a tile may hold at most 2^20 elements, this one (" + v.v->type().str() + ") has " +
                    std::to_string(v.v->type().numElements()));
  return v;
}

SValue CodeGen::evalUnchecked(const Expr &e) {
  switch (e.kind) {
  case ExprKind::Name: return evalName(static_cast<const NameExpr &>(e));
  case ExprKind::Int: return SValue::integer(BigInt(static_cast<const IntExpr &>(e).value));
  case ExprKind::Float: return SValue::floating(static_cast<const FloatExpr &>(e).value);
  case ExprKind::Bool: return SValue::boolean(static_cast<const BoolExpr &>(e).value);
  case ExprKind::NoneLit: return SValue::none();
  case ExprKind::Str: return SValue::str(static_cast<const StrExpr &>(e).value);
  case ExprKind::Tuple:
  case ExprKind::List: {
    const ExprList &elts = e.kind == ExprKind::Tuple ? static_cast<const TupleExpr &>(e).elts
                                                      : static_cast<const ListExpr &>(e).elts;
    std::vector<SValue> out;
    for (auto &x : elts) out.push_back(eval(*x));
    return SValue::tuple(std::move(out));
  }
  case ExprKind::Attribute: {
    auto &a = static_cast<const AttributeExpr &>(e);
    return getAttribute(eval(*a.value), a.attr, a.loc);
  }
  case ExprKind::Call: return evalCall(static_cast<const CallExpr &>(e));
  case ExprKind::Subscript: return evalSubscript(static_cast<const SubscriptExpr &>(e));
  case ExprKind::Slice: {
    auto &s = static_cast<const SliceExpr &>(e);
    if (s.lower || s.upper || s.step) fail(e.loc, "slices with bounds are supported only on tuples");
    return SValue::slice();
  }
  case ExprKind::Unary: {
    auto &u = static_cast<const UnaryExpr &>(e);
    return unary(u.op, eval(*u.operand), u.loc);
  }
  case ExprKind::Binary: {
    auto &bx = static_cast<const BinaryExpr &>(e);
    SValue l = eval(*bx.lhs);
    SValue r = eval(*bx.rhs);
    return binary(bx.op, l, r, bx.loc);
  }
  case ExprKind::Compare: {
    auto &c = static_cast<const CompareExpr &>(e);
    SValue left = eval(*c.left);
    SValue result;
    for (size_t i = 0; i < c.ops.size(); ++i) {
      SValue right = eval(*c.comparators[i]);
      SValue r = compare(c.ops[i], left, right, c.loc);
      if (i == 0) result = r;
      else result = result.isConstexpr() && r.isConstexpr() ? SValue::boolean(result.truthy() && r.truthy())
                                                            : logical(BoolOpKind::And, result, r, c.loc);
      if (result.isConstexpr() && !result.truthy()) return result;  // Python short-circuits the chain
      left = right;
    }
    return result;
  }
  case ExprKind::BoolOp: {
    auto &bo = static_cast<const BoolOpExpr &>(e);
    SValue acc = eval(*bo.values[0]);
    for (size_t i = 1; i < bo.values.size(); ++i) {
      if (acc.isConstexpr()) {
        bool t = acc.truthy();
        if (bo.op == BoolOpKind::And ? !t : t) return acc;  // short-circuit as Python does
        acc = eval(*bo.values[i]);
        continue;
      }
      SValue next = eval(*bo.values[i]);
      if (next.isConstexpr()) {
        bool t = next.truthy();
        if (bo.op == BoolOpKind::And ? t : !t) continue;  // x and True == x
        acc = next;                                       // x and False == False
        continue;
      }
      acc = logical(bo.op, acc, next, bo.loc);
    }
    return acc;
  }
  case ExprKind::IfExp: {
    auto &ie = static_cast<const IfExpr &>(e);
    SValue c = eval(*ie.test);
    if (c.isConstexpr()) return eval(c.truthy() ? *ie.body : *ie.orelse);
    // A runtime condition: evaluate each side only on its path, as an if op.
    if (!c.isTensor() || c.v->type().isTile())
      fail(ie.test->loc, "the condition of a conditional expression must be a scalar; use tl.where for tiles");
    ir::Value *cv = c.v->type().isBool() ? c.v : cast(c.v, Type::i1(), ie.loc);
    ir::Operation *tmp = b_.create(OpCode::If, {cv}, {});
    ir::Block *outer = b_.block();
    SValue sides[2];
    for (int r = 0; r < 2; ++r) {
      b_.setInsertionPointToEnd(&tmp->region(r).block());
      sides[r] = eval(r == 0 ? *ie.body : *ie.orelse);
    }
    std::vector<ir::Value *> ya, yb;
    b_.setInsertionPointToEnd(&tmp->region(0).block());
    SValue shape = mergeBranches("conditional expression", sides[0], sides[1], ya, yb, ie.loc);
    ir::Operation *real = finishIf(tmp, ya, yb, ie.loc);
    b_.setInsertionPointToEnd(outer);
    size_t pos = 0;
    std::vector<ir::Value *> results = real->results();
    return rebuild(shape, results, pos);
  }
  case ExprKind::JoinedStr: return SValue::str(evalFString(static_cast<const JoinedStrExpr &>(e)));
  case ExprKind::Comprehension: return evalComprehension(static_cast<const ComprehensionExpr &>(e));
  case ExprKind::Lambda: fail(e.loc, "lambda expressions are not supported inside kernels");
  case ExprKind::Dict: fail(e.loc, "dict expressions are not supported inside kernels");
  }
  fail(e.loc, "unsupported expression");
}

std::string CodeGen::evalFString(const JoinedStrExpr &e) {
  std::string out;
  for (const FStringPart &p : e.parts) {
    if (!p.value) {
      out += p.literal;
      continue;
    }
    SValue v = eval(*p.value);
    if (!v.isConstexpr()) {
      // The runtime value, also inside a tuple.
      auto runtime = [](const SValue &x, auto &self) -> const SValue * {
        if (x.isTensor()) return &x;
        if (x.is(SValue::Kind::Tuple))
          for (const SValue &el : x.elems)
            if (const SValue *r = self(el, self)) return r;
        return nullptr;
      };
      if (const SValue *r = runtime(v, runtime))
        fail(p.value->loc, "f-string value '" + p.source + "' is not a compile-time constant (it is a " +
                               (r == &v ? "" : "tuple holding a ") + r->describe() +
                               "): f-strings in kernels format only constexprs (tl.constexpr parameters, globals, "
                               "literals), as in Triton; formatting runtime values is not supported (tl.device_print "
                               "prints them)");
      fail(p.value->loc, "f-string value '" + p.source + "' cannot be formatted: it is a " + v.describe() +
                             " (f-strings format numbers, strings, None, dtypes and tuples of them)");
    }
    std::string error;
    std::optional<std::string> text;
    SValue shown = v;
    if (p.conversion) {
      text = p.conversion == 'r' ? pythonRepr(v, error) : p.conversion == 'a' ? pythonAscii(v, error) : pythonStr(v, error);
      if (!text) fail(p.value->loc, "f-string value '" + p.source + "' cannot be formatted: " + error);
      shown = SValue::str(*text);
    }
    std::string spec = p.formatSpec ? evalFString(static_cast<const JoinedStrExpr &>(*p.formatSpec)) : "";
    if (!(text = pythonFormat(shown, spec, error))) {
      if (spec.empty()) fail(p.value->loc, "f-string value '" + p.source + "' cannot be formatted: " + error);
      std::string field = "{" + p.source + (p.conversion ? std::string("!") + p.conversion : "") + ":" + spec + "}";
      fail(p.formatSpec->loc, "f-string field " + field + " cannot be formatted: " + error);
    }
    out += *text;
  }
  return out;
}

SValue CodeGen::evalSubscript(const SubscriptExpr &e) {
  SValue base = eval(*e.value);
  if (base.is(Kind::Tuple)) {
    if (auto *t = dynCast<TupleExpr>(e.index.get()))
      fail(e.index->loc, "a tuple takes one index or slice, found " + std::to_string(t->elts.size()) + " indices");
    if (auto *sl = dynCast<SliceExpr>(e.index.get())) {
      auto bound = [&](const ExprPtr &x, BigInt dflt) -> BigInt {
        if (!x) return dflt;
        SValue v = eval(*x);
        if (!v.is(Kind::Int)) fail(x->loc, "tuple slice bounds must be compile-time integers");
        BigInt n = BigInt(base.elems.size());
        return std::clamp<BigInt>(v.i < 0 ? v.i + n : v.i, 0, n);
      };
      if (sl->step) fail(sl->loc, "tuple slices with a step are not supported");
      BigInt lo = bound(sl->lower, 0), hi = bound(sl->upper, BigInt(base.elems.size()));
      std::vector<SValue> out;
      for (BigInt i = lo; i < hi; ++i) out.push_back(base.elems[size_t(i)]);
      return SValue::tuple(std::move(out));
    }
    SValue idx = eval(*e.index);
    if (!idx.is(Kind::Int)) fail(e.index->loc, "tuple indices must be compile-time integers, found " + idx.describe());
    BigInt n = BigInt(base.elems.size()), i = idx.i < 0 ? idx.i + n : idx.i;
    if (i < 0 || i >= n) fail(e.index->loc, "tuple index " + bigIntToString(idx.i) + " out of range for a tuple of " +
                                                std::to_string(base.elems.size()));
    return base.elems[size_t(i)];
  }
  if (!base.isTensor()) fail(e.loc, base.describe() + " cannot be subscripted");
  std::vector<const Expr *> items;
  if (auto *t = dynCast<TupleExpr>(e.index.get()))
    for (auto &x : t->elts) items.push_back(x.get());
  else
    items.push_back(e.index.get());
  ir::Value *v = base.v;
  int64_t outDim = 0;
  for (const Expr *item : items) {
    if (isa<NoneExpr>(item)) {
      // A scalar becomes a 1-element tile wherever the None stands (Triton's
      // expand_dims of a scalar: `pid_n[:, None]` is a tile of shape [1]).
      if (v->type().rank() == 0) outDim = 0;
      if (outDim > v->type().rank())
        fail(item->loc, "None at position " + std::to_string(outDim) + " of a subscript of " + v->type().str() +
                            ": a new dimension goes at positions 0 to " + std::to_string(v->type().rank()));
      ir::AttrDict a;
      a.set("axis", ir::Attribute(outDim));
      std::vector<int64_t> shape = v->type().shape();
      shape.insert(shape.begin() + outDim, 1);
      b_.setLoc(irLoc(item->loc));
      v = b_.createValue(OpCode::ExpandDims, {v}, Type::tile(shape, v->type().element()), std::move(a));
      ++outDim;
      continue;
    }
    auto *sl = dynCast<SliceExpr>(item);
    auto bound = [](const ExprPtr &e) { return e && !isa<NoneExpr>(e.get()); };  // x[None:] is x[:]
    if (!sl || bound(sl->lower) || bound(sl->upper) || bound(sl->step))
      fail(item->loc, "unsupported tensor index: tensors can be indexed only with ':' and None (as in x[:, None]); use masks, tl.split or "
                      "tl.reshape to select elements");
    // As Triton's: ':' keeps whatever is there (a scalar too) and only
    // moves on, so x[None, None, :] of a scalar is a 1x1 tile.
    ++outDim;
  }
  SValue r = SValue::tensor(v);
  r.constPtr = base.constPtr;
  return r;
}

// ---- attributes

namespace {

struct DTypeName {
  const char *name;
  ir::ScalarKind kind;
};
const DTypeName kDTypes[] = {
    {"int1", ir::ScalarKind::I1},         {"int8", ir::ScalarKind::I8},         {"int16", ir::ScalarKind::I16},
    {"int32", ir::ScalarKind::I32},       {"int64", ir::ScalarKind::I64},       {"uint8", ir::ScalarKind::U8},
    {"uint16", ir::ScalarKind::U16},      {"uint32", ir::ScalarKind::U32},      {"uint64", ir::ScalarKind::U64},
    {"float8e4nv", ir::ScalarKind::F8E4M3}, {"float8e4m3fn", ir::ScalarKind::F8E4M3}, {"float8e5", ir::ScalarKind::F8E5M2},
    {"float8e5m2", ir::ScalarKind::F8E5M2}, {"float16", ir::ScalarKind::F16},   {"bfloat16", ir::ScalarKind::BF16},
    {"float32", ir::ScalarKind::F32},     {"float64", ir::ScalarKind::F64},     {"fp8e4nv", ir::ScalarKind::F8E4M3},
    {"fp8e5", ir::ScalarKind::F8E5M2},    {"fp16", ir::ScalarKind::F16},        {"bf16", ir::ScalarKind::BF16},
    {"fp32", ir::ScalarKind::F32},        {"fp64", ir::ScalarKind::F64},        {"i1", ir::ScalarKind::I1},
    {"i8", ir::ScalarKind::I8},           {"i16", ir::ScalarKind::I16},         {"i32", ir::ScalarKind::I32},
    {"i64", ir::ScalarKind::I64},         {"u8", ir::ScalarKind::U8},           {"u16", ir::ScalarKind::U16},
    {"u32", ir::ScalarKind::U32},         {"u64", ir::ScalarKind::U64},         {"f16", ir::ScalarKind::F16},
    {"f32", ir::ScalarKind::F32},         {"f64", ir::ScalarKind::F64},         {"f8e4m3", ir::ScalarKind::F8E4M3},
    {"f8e5m2", ir::ScalarKind::F8E5M2},   {"float8e4b15", ir::ScalarKind::F8E4B15}, {"fp8e4b15", ir::ScalarKind::F8E4B15},
    {"f8e4b15", ir::ScalarKind::F8E4B15},
};

} // namespace

std::optional<ir::Type> dtypeFromName(std::string_view name) {
  for (const DTypeName &d : kDTypes)
    if (name == d.name) return Type::scalar(d.kind);
  return std::nullopt;
}

bool isBuiltinName(const std::string &name);  // Builtins.cpp
bool isMathName(const std::string &name);      // Builtins.cpp

SValue CodeGen::getAttribute(const SValue &base, const std::string &attr, SourceLoc loc) {
  // Triton hands a called function its non-tensor arguments as tl.constexpr
  // objects, whose `.value` is the value (`dtype.value.is_floating()` in
  // FlagGems' get_dtype_min); Tessera's compile-time values are unwrapped.
  if (attr == "value" && base.is(Kind::ConstexprType)) return base.elems[0];
  if (attr == "value" && base.isConstexpr()) return base;
  switch (base.kind) {
  case Kind::Namespace: {
    const std::string &ns = base.s;
    if (ns == "tessera") {
      if (attr == "language") return SValue::ns("tl");
      return SValue::builtin(attr == "cdiv" || attr == "next_power_of_2" ? attr : "tessera." + attr);
    }
    if (ns == "tl") {
      if (auto t = dtypeFromName(attr)) return SValue::dtype(*t);
      if (auto p = prelude_.find(attr); p != prelude_.end() && attr.rfind("libdevice_", 0) != 0 &&
                                        attr.rfind("_ld_", 0) != 0 && attr.rfind("tensor_", 0) != 0)
        return SValue::jit(p->second);
      if (attr == "math") return SValue::ns("tl.math");
      // Where Triton defines the tl functions (tl.random.uint_to_uniform_float): the language itself here.
      if (attr == "core" || attr == "standard" || attr == "random" || attr == "semantic") return SValue::ns("tl");
      if (attr == "extra") return SValue::ns("tl.extra");
      if (attr == "PropagateNan") return SValue::ns("tl.PropagateNan");
      if (attr == "pi32_t") return SValue::dtype(Type::pointer(Type::i32()));
      if (attr == "tuple") return SValue::builtin("py.tuple");  // Triton's tl.tuple: a Python tuple here
      if (attr == "TRITON_MAX_TENSOR_NUMEL") return SValue::integer(kMaxTileElements);
      if (isBuiltinName(attr)) return SValue::builtin(attr);
      fail(loc, "tessera.language has no attribute '" + attr + "'");
    }
    if (ns == "tl.PropagateNan") {
      if (attr == "NONE") return SValue::integer(0);
      if (attr == "ALL") return SValue::integer(0xFFFF);
      fail(loc, "PropagateNan has no member '" + attr + "' (expected NONE or ALL)");
    }
    if (ns == "tl.extra") {
      if (attr == "cuda" || attr == "libdevice") return SValue::ns(attr == "cuda" ? "tl.extra" : "libdevice");
      if (attr == "hip") return SValue::ns("tl.extra.hip");
      if (isBuiltinName("extra.cuda." + attr)) return SValue::builtin("extra.cuda." + attr);
      fail(loc, "tl.extra has no attribute '" + attr + "'");
    }
    if (ns == "tl.extra.hip") {  // Triton's AMD extras: its libdevice is every target's
      if (attr == "libdevice") return SValue::ns("libdevice");
      if (isBuiltinName("extra.hip." + attr)) return SValue::builtin("extra.hip." + attr);
      fail(loc, "tl.extra.hip has no attribute '" + attr + "' in Tessera (it has libdevice and memrealtime)");
    }
    if (ns == "tl.math" || ns == "libdevice") {
      if (ns == "libdevice" && isBuiltinName("libdevice." + attr)) return SValue::builtin("libdevice." + attr);
      // The rest of libdevice is written in the language (frontend/libdevice.py).
      if (ns == "libdevice")
        if (auto p = prelude_.find("libdevice_" + attr); p != prelude_.end()) return SValue::jit(p->second);
      // libdevice's max and min are C's fmax and fmin (elementwise), not tl's reductions.
      if (ns == "libdevice" && (attr == "max" || attr == "min")) return SValue::builtin(attr == "max" ? "maximum" : "minimum");
      if (isMathName(attr)) return SValue::builtin(attr);
      fail(loc, (ns == "libdevice" ? "libdevice" : "tl.math") + std::string(" has no function '") + attr +
                    "' in Tessera");
    }
    fail(loc, "module '" + ns.substr(ns.find(':') + 1) + "' is not available inside kernels");
  }
  case Kind::Tensor: {
    Type t = base.v->type();
    if (attr == "dtype" || attr == "type") return SValue::dtype(t.element());
    if (attr == "shape") {
      std::vector<SValue> dims;
      for (int64_t d : t.shape()) dims.push_back(SValue::integer(d));
      return SValue::tuple(std::move(dims));
    }
    if (attr == "numel") return SValue::integer(t.numElements());
    if (attr == "T") {
      CallArgs a;
      a.positional = {base};
      a.loc = loc;
      return callBuiltin("trans", a, loc);
    }
    if (isBuiltinName(attr) || isMathName(attr)) return SValue::method(base, attr);
    if (prelude_.count("tensor_" + attr)) return SValue::method(base, "tensor_" + attr);
    fail(loc, "a tensor has no attribute '" + attr + "'");
  }
  case Kind::DType: {
    Type t = base.type;
    if (attr == "element_ty") {
      if (!t.isPointer()) fail(loc, "element_ty applies to pointer dtypes, not " + dtypeName(t));
      return SValue::dtype(t.pointee());
    }
    if (attr == "primitive_bitwidth") return SValue::integer(t.bitWidth());
    if (attr == "name") return SValue::str(dtypeName(t));  // Triton's dtype.name: "int32", "fp16", "pointer<fp32>"
    if (attr == "scalar") return base;  // Triton's dtype.scalar: a scalar (or pointer) type is its own
    if (attr == "int_bitwidth") {
      if (!t.isInteger()) fail(loc, "int_bitwidth applies to integer dtypes, not " + dtypeName(t));
      return SValue::integer(t.bitWidth());
    }
    if (attr == "fp_mantissa_width" || attr == "exponent_bias") {
      // (mantissa bits, exponent bias) of each float format, as Triton's dtype gives them.
      static const std::pair<ir::ScalarKind, std::pair<int, int>> kFormats[] = {
          {ir::ScalarKind::F8E4M3, {3, 7}},  {ir::ScalarKind::F8E5M2, {2, 15}}, {ir::ScalarKind::F8E4B15, {3, 15}},
          {ir::ScalarKind::F16, {10, 15}},
          {ir::ScalarKind::BF16, {7, 127}}, {ir::ScalarKind::F32, {23, 127}},  {ir::ScalarKind::F64, {52, 1023}}};
      for (const auto &[kind, f] : kFormats)
        if (t.isScalar() && t.scalarKind() == kind) return SValue::integer(attr == "exponent_bias" ? f.second : f.first);
      fail(loc, attr + " applies to floating-point dtypes, not " + dtypeName(t));
    }
    if (!isBuiltinName("dtype." + attr)) fail(loc, "dtype " + dtypeName(t) + " has no attribute '" + attr + "'");
    return SValue::method(base, "dtype." + attr);
  }
  case Kind::Bool:
  case Kind::Int:
  case Kind::Float: {
    // A number's attributes are those of the scalar Triton makes of it
    // (`acc = 0; acc.to(tl.int64)`, `value.dtype`); the number itself stays
    // a compile-time value everywhere else.
    // `.type` is Triton's constexpr_type; `.dtype` the scalar's dtype (a Tessera extension).
    if (attr == "type") return SValue::constexprType(base);
    if (attr == "dtype") return SValue::dtype(pyScalarType(base, loc));
    if (isBuiltinName(attr) || isMathName(attr)) return SValue::method(SValue::tensor(toTensor(base, loc)), attr);
    fail(loc, base.describe() + " has no attribute '" + attr + "'");
  }
  case Kind::BlockPtr:
    // load and store on block pointers too; atomic_*, gather and scatter on descriptors only.
    if (isBuiltinName("desc." + attr) && (base.isDescriptor || attr == "load" || attr == "store"))
      return SValue::method(base, "desc." + attr);
    if (attr == "block_shape") return base.elems[4];
    if (attr == "dtype" && base.isDescriptor) return SValue::dtype(base.elems[0].v->type().pointee());
    // Triton's block pointer is a pointer to a block: `p.type.element_ty` is
    // what its elements convert to (`x.to(p.type.element_ty)`); Tessera's
    // type of it is the base pointer's, whose element_ty is that dtype.
    if ((attr == "type" || attr == "dtype") && !base.isDescriptor) return SValue::dtype(base.elems[0].v->type());
    if (attr == "shape") return base.elems[1];
    if (attr == "strides") return base.elems[2];
    fail(loc, base.describe() + " has no attribute '" + attr + "'");
  case Kind::Tuple: {
    for (size_t n = 0; n < base.fields.size(); ++n)
      if (base.fields[n] == attr) return base.elems[n];
    if (attr == "_fields") {
      std::vector<SValue> names;
      for (const std::string &f : base.fields) names.push_back(SValue::str(f));
      return SValue::tuple(std::move(names));
    }
    std::string known;
    for (const std::string &f : base.fields) known += (known.empty() ? "" : ", ") + f;
    fail(loc, base.describe() + " has no attribute '" + attr + "'" + (known.empty() ? "" : " (its fields: " + known + ")"));
  }
  default:
    fail(loc, base.describe() + " has no attribute '" + attr + "'");
  }
}

// A comprehension unrolls while compiling, as a tl.static_range loop does:
// it iterates over a tuple or a range with compile-time bounds, filters on
// compile-time conditions, and makes a tuple (a list in Python; the
// language's lists are tuples). Its targets are its own, as in Python 3.
SValue CodeGen::evalComprehension(const ComprehensionExpr &c) {
  Env outer = env_;
  std::vector<SValue> out;
  std::function<void(size_t)> run = [&](size_t k) {
    if (k == c.clauses.size()) {
      out.push_back(eval(*c.elt));
      if (out.size() > 4096) fail(c.loc, "a comprehension unrolls at most 4096 elements");
      return;
    }
    const ComprehensionExpr::Clause &clause = c.clauses[k];
    for (const SValue &item : comprehensionItems(*clause.iter)) {
      assign(*clause.target, item, clause.target->loc);
      bool keep = true;
      for (const ExprPtr &cond : clause.conditions) {
        SValue v = eval(*cond);
        if (!v.isConstexpr())
          fail(cond->loc, "a comprehension's condition must be known while compiling, this one is " + v.describe());
        if (!(keep = v.truthy())) break;
      }
      if (keep) run(k + 1);
    }
  };
  run(0);
  env_ = std::move(outer);
  return SValue::tuple(std::move(out));
}

std::vector<SValue> CodeGen::comprehensionItems(const Expr &iter) {
  auto *call = dynCast<CallExpr>(&iter);
  SValue callee = call ? eval(*call->func) : SValue();
  if (callee.is(Kind::Builtin) && (callee.s == "py.range" || callee.s == "range" || callee.s == "static_range")) {
    CallArgs args = evalCallArgs(*call);
    size_t n = args.positional.size();
    if (n == 0 || n > 3 || !args.keywords.empty())
      fail(call->loc, "range in a comprehension takes 1 to 3 positional arguments");
    for (const SValue &v : args.positional)
      if (!v.is(Kind::Int)) fail(call->loc, "a comprehension's range needs compile-time integer bounds, found " + v.describe());
    BigInt lb = n == 1 ? 0 : args.positional[0].i, ub = n == 1 ? args.positional[0].i : args.positional[1].i;
    BigInt step = n == 3 ? args.positional[2].i : 1;
    if (step == 0) fail(call->loc, "range step must not be zero");
    std::vector<SValue> items;
    for (BigInt i = lb; step > 0 ? i < ub : i > ub; i += step) {
      items.push_back(SValue::integer(i));
      if (items.size() > 4096) fail(call->loc, "a comprehension unrolls at most 4096 elements");
    }
    return items;
  }
  SValue v;
  if (call) {
    CallArgs args = evalCallArgs(*call);
    v = this->call(callee, args, call->loc);
  } else {
    v = eval(iter);
  }
  if (!v.is(Kind::Tuple))
    fail(iter.loc, "a comprehension in a kernel iterates over a tuple or a range with compile-time bounds, not " +
                       v.describe());
  return v.elems;
}

// ---- calls

SValue CodeGen::evalCall(const CallExpr &e) {
  SValue callee = eval(*e.func);
  CallArgs args = evalCallArgs(e);
  return call(callee, args, e.loc);
}

CallArgs CodeGen::evalCallArgs(const CallExpr &e) {
  CallArgs args;
  args.loc = e.loc;
  for (size_t i = 0; i < e.args.size(); ++i) {
    const Expr &a = *e.args[i];
    SValue value = eval(a);
    if (i < e.starred.size() && e.starred[i]) {  // f(*t): the tuple's elements
      if (!value.is(Kind::Tuple)) fail(a.loc, "'*' unpacking in a call takes a tuple, not " + value.describe());
      for (const SValue &element : value.elems) {
        args.positional.push_back(element);
        args.positionalLocs.push_back(a.loc);
      }
      continue;
    }
    args.positional.push_back(value);
    args.positionalLocs.push_back(a.loc);
  }
  for (auto &k : e.keywords) args.keywords.push_back({k.name, eval(*k.value)});
  return args;
}

SValue CodeGen::call(const SValue &callee, CallArgs &args, SourceLoc loc) {
  b_.setLoc(irLoc(loc));
  switch (callee.kind) {
  case Kind::JitFunction: return callJit(*callee.fn, args, loc, false);
  case Kind::Builtin: args.callee = callee.s; return callBuiltin(callee.s, args, loc);
  case Kind::NamedTupleClass: return makeNamedTuple(callee, args, loc);
  case Kind::Method:
    args.positional.insert(args.positional.begin(), callee.elems[0]);
    args.positionalLocs.insert(args.positionalLocs.begin(), loc);
    args.callee = callee.s;
    return callBuiltin(callee.s, args, loc);
  default: fail(loc, callee.describe() + " is not callable");
  }
}

// `Point(x, y=2)`: the fields from positional then keyword arguments, the
// class's defaults for the last ones left, as Python's namedtuple binds them.
SValue CodeGen::makeNamedTuple(const SValue &cls, const CallArgs &args, SourceLoc loc) {
  const std::vector<std::string> &fields = cls.fields;
  if (args.positional.size() > fields.size())
    fail(loc, cls.s + "() takes " + std::to_string(fields.size()) + " fields, " +
                  std::to_string(args.positional.size()) + " were given");
  std::vector<std::optional<SValue>> values(fields.size());
  for (size_t n = 0; n < args.positional.size(); ++n) values[n] = args.positional[n];
  for (const auto &[name, value] : args.keywords) {
    auto at = std::find(fields.begin(), fields.end(), name);
    if (at == fields.end()) fail(loc, cls.s + "() has no field '" + name + "'");
    std::optional<SValue> &slot = values[size_t(at - fields.begin())];
    if (slot) fail(loc, cls.s + "() got field '" + name + "' twice");
    slot = value;
  }
  std::vector<SValue> elements;
  size_t firstDefault = fields.size() - cls.elems.size();
  for (size_t n = 0; n < fields.size(); ++n) {
    if (!values[n] && n < firstDefault) fail(loc, cls.s + "() is missing field '" + fields[n] + "'");
    elements.push_back(values[n] ? *values[n] : cls.elems[n - firstDefault]);
  }
  return SValue::namedTuple(cls.s, fields, std::move(elements));
}

SValue CodeGen::callJit(const FunctionDef &fn, CallArgs &args, SourceLoc loc, bool forceInline) {
  if (!preludeFns_.count(&fn) || loc.fileId != file_.id()) return callJitImpl(fn, args, loc, forceInline);
  // An error inside a tl function written in the prelude is reported at the
  // user's call, not at a line of a file the user has never seen.
  try {
    return callJitImpl(fn, args, loc, forceInline);
  } catch (CompileError &e) {
    if (e.loc.fileId != file_.id()) {
      e.loc = loc;
      e.message += " (in " + shownName(fn) + ")";
    }
    throw;
  }
}

// How the user calls a function: prelude functions as tl.<name> or
// libdevice.<name> (frontend/libdevice.py's libdevice_<name>).
std::string CodeGen::shownName(const FunctionDef &fn) const {
  if (!preludeFns_.count(&fn)) return fn.name;
  const std::string prefix = "libdevice_";
  if (fn.name.rfind(prefix, 0) == 0) return "libdevice." + fn.name.substr(prefix.size());
  return "tl." + fn.name;
}

SValue CodeGen::callJitImpl(const FunctionDef &fn, CallArgs &args, SourceLoc loc, bool forceInline) {
  // Bind arguments to parameters as Python does.
  std::vector<std::optional<SValue>> bound(fn.params.size());
  const std::string name = shownName(fn);
  if (args.positional.size() > fn.params.size())
    fail(loc, name + "() takes " + std::to_string(fn.params.size()) + " arguments but " +
                  std::to_string(args.positional.size()) + " were given");
  for (size_t i = 0; i < args.positional.size(); ++i) bound[i] = args.positional[i];
  for (auto &[name, value] : args.keywords) {
    size_t i = 0;
    while (i < fn.params.size() && fn.params[i].name != name) ++i;
    if (i == fn.params.size()) fail(loc, shownName(fn) + "() has no parameter named '" + name + "'");
    if (bound[i]) fail(loc, shownName(fn) + "() got multiple values for argument '" + name + "'");
    bound[i] = value;
  }
  std::vector<SValue> values;
  for (size_t i = 0; i < fn.params.size(); ++i) {
    if (!bound[i]) {
      if (!fn.params[i].defaultValue) fail(loc, name + "() missing argument '" + fn.params[i].name + "'");
      // Defaults are evaluated in the callee's module scope, as Python does.
      Env saved = std::move(env_);
      const Env *savedScope = scope_;
      env_.clear();
      scope_ = preludeFns_.count(&fn) ? &preludeGlobals_ : &globals_;
      bound[i] = eval(*fn.params[i].defaultValue);
      env_ = std::move(saved);
      scope_ = savedScope;
    }
    // Like Triton, a tl.constexpr annotation on a called function's parameter
    // does not reject a runtime argument (the fused-attention tutorial relies on it).
    values.push_back(*bound[i]);
  }
  if (forceInline || inlineCalls_ || preludeFns_.count(&fn)) {
    Env env;
    for (size_t i = 0; i < fn.params.size(); ++i) env[fn.params[i].name] = values[i];
    return genFunctionBody(fn, std::move(env));
  }
  SValue resultShape;
  ir::Function *f = deviceFunction(fn, values, resultShape, loc);
  std::vector<ir::Value *> operands;
  for (const SValue &v : values) flatten(v, operands, loc, fn.name, /*numbers=*/false);
  ir::AttrDict attrs;
  attrs.set("callee", ir::Attribute(f->name()));
  b_.setLoc(irLoc(loc));
  ir::Operation *callOp = b_.create(OpCode::Call, operands, f->resultTypes(), std::move(attrs));
  size_t pos = 0;
  std::vector<ir::Value *> results = callOp->results();
  return rebuild(resultShape, results, pos, /*numbers=*/false);
}

ir::Function *CodeGen::deviceFunction(const FunctionDef &fn, const std::vector<SValue> &args, SValue &resultShape,
                                      SourceLoc loc) {
  std::string key = fn.name + "(";
  std::vector<ir::Value *> leaves;
  for (const SValue &v : args) {
    std::vector<ir::Value *> l;
    flatten(v, l, loc, fn.name, false);
    key += v.specializationKey();
    for (ir::Value *x : l) key += "|" + x->type().str(), leaves.push_back(x);
    key += ",";
  }
  key += ")";
  auto it = deviceFns_.find(key);
  if (it != deviceFns_.end()) {
    resultShape = it->second.resultShape;
    return it->second.fn;
  }
  std::vector<Type> types;
  for (ir::Value *x : leaves) types.push_back(x->type());
  std::string name = fn.name;
  for (int k = 1; module_.lookup(name); ++k) name = fn.name + "_" + std::to_string(k);
  ir::Function *f = module_.addFunction(std::make_unique<ir::Function>(name, ir::FunctionKind::Device, types, std::vector<Type>{}));
  f->loc = irLoc(fn.loc);
  ir::Builder saved = b_;
  b_ = ir::Builder(&f->entry());
  b_.setLoc(irLoc(fn.loc));
  std::vector<ir::Value *> params = f->entry().arguments();
  Env env;
  size_t pos = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    env[fn.params[i].name] = rebuild(args[i], params, pos, false);
    if (args[i].isTensor()) params[pos - 1]->setNameHint(fn.params[i].name);
  }
  SValue result = genFunctionBody(fn, std::move(env));
  std::vector<ir::Value *> returned;
  flatten(result, returned, fn.loc, fn.name, false);
  b_.setLoc(irLoc(fn.loc));
  b_.create(OpCode::Return, returned, {});
  std::vector<Type> resultTypes;
  for (ir::Value *v : returned) resultTypes.push_back(v->type());
  f->setResultTypes(resultTypes);
  b_ = saved;
  resultShape = result;
  deviceFns_[key] = {f, result};
  return f;
}

std::vector<ir::Value *> CodeGen::genCombine(const SValue &fn, ir::Block *block, SourceLoc loc, size_t numInputs) {
  ir::Builder saved = b_;
  b_ = ir::Builder(block);
  b_.setLoc(irLoc(loc));
  std::vector<ir::Value *> args = block->arguments();
  CallArgs ca;
  ca.loc = loc;
  for (ir::Value *a : args) ca.positional.push_back(SValue::tensor(a)), ca.positionalLocs.push_back(loc);
  SValue r;
  if (fn.is(Kind::JitFunction)) {
    if (fn.fn->params.size() != args.size())
      fail(loc, "the combine function " + fn.fn->name + " must take " + std::to_string(args.size()) + " arguments (" +
                    std::to_string(numInputs) + " pairs), it takes " + std::to_string(fn.fn->params.size()));
    r = callJit(*fn.fn, ca, loc, /*forceInline=*/true);
  } else if (fn.is(Kind::Builtin)) {
    r = callBuiltin(fn.s, ca, loc);
  } else {
    fail(loc, "the combine function must be a jit function, found " + fn.describe());
  }
  std::vector<ir::Value *> out;
  flatten(r, out, loc, "combine result");
  if (out.size() != numInputs)
    fail(loc, "the combine function must return " + std::to_string(numInputs) + " value(s), it returns " +
                  std::to_string(out.size()));
  for (size_t i = 0; i < out.size(); ++i) {
    Type want = args[i]->type();
    if (out[i]->type().isTile()) fail(loc, "the combine function must return scalars, it returns " + out[i]->type().str());
    out[i] = cast(out[i], want, loc);
  }
  b_ = saved;
  return out;
}

// ---- argument helpers

const SValue *CodeGen::findArg(CallArgs &a, size_t index, const char *name) const {
  for (auto &[k, v] : a.keywords)
    if (k == name) return &v;
  if (index < a.positional.size()) return &a.positional[index];
  return nullptr;
}

SValue CodeGen::argOr(CallArgs &a, size_t index, const char *name, SValue dflt) const {
  const SValue *v = findArg(a, index, name);
  return v ? *v : dflt;
}

SValue CodeGen::requireArg(CallArgs &a, size_t index, const char *name) const {
  const SValue *v = findArg(a, index, name);
  if (!v) fail(a.loc, a.callee + "() is missing its argument '" + name + "'");
  return *v;
}

void CodeGen::checkArgs(CallArgs &a, std::initializer_list<const char *> names) const {
  if (a.positional.size() > names.size())
    fail(a.loc, a.callee + "() takes at most " + std::to_string(names.size()) + " arguments, got " +
                    std::to_string(a.positional.size()));
  for (auto &[k, v] : a.keywords) {
    bool known = false;
    for (const char *n : names) known |= k == n;
    if (!known) {
      std::string list;
      for (const char *n : names) list += (list.empty() ? "" : ", ") + std::string(n);
      fail(a.loc, a.callee + "() got an unexpected keyword argument '" + k + "' (" +
                      (list.empty() ? std::string("it takes no arguments") : "its parameters: " + list) + ")");
    }
  }
}

ir::Value *CodeGen::tensorArg(CallArgs &a, size_t index, const char *name) {
  SValue v = requireArg(a, index, name);
  if (!v.isTensor() && !v.isNumber())
    fail(a.loc, "argument '" + std::string(name) + "' of " + a.callee + "() must be a tensor or a number, found " + v.describe());
  return toTensor(v, a.loc);
}

BigInt CodeGen::intArg(CallArgs &a, size_t index, const char *name, std::optional<BigInt> dflt) const {
  const SValue *v = findArg(a, index, name);
  if (!v || v->is(Kind::None)) {
    if (dflt) return *dflt;
    fail(a.loc, a.callee + "() is missing its argument '" + name + "'");
  }
  if (v->is(Kind::Bool)) return v->b;
  if (!v->is(Kind::Int))
    fail(a.loc, "argument '" + std::string(name) + "' of " + a.callee + "() must be a compile-time integer, found " +
                    v->describe());
  return v->i;
}

std::vector<int64_t> CodeGen::shapeArg(const SValue &v, SourceLoc loc) const {
  std::vector<int64_t> shape;
  auto add = [&](const SValue &d) {
    if (!d.is(Kind::Int)) fail(loc, "shape dimensions must be compile-time integers, found " + d.describe());
    if (d.i <= 0) fail(loc, "shape dimensions must be positive, found " + bigIntToString(d.i));
    if ((d.i & (d.i - 1)) != 0) fail(loc, "shape dimensions must be powers of two, found " + bigIntToString(d.i));
    shape.push_back(int64_t(d.i));
  };
  if (v.is(Kind::Tuple))
    for (auto &d : v.elems) add(d);
  else
    add(v);
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  if (n > kMaxTileElements) fail(loc, "a tile may hold at most 2^20 elements, this one has " + std::to_string(n));
  return shape;
}

ir::Type CodeGen::dtypeArg(const SValue &v, SourceLoc loc) const {
  if (v.is(Kind::DType)) return v.type;
  if (v.is(Kind::Str))
    if (auto t = dtypeFromName(v.s)) return *t;
  fail(loc, "expected a dtype such as tl.float32, found " + v.describe());
}

// ---- driver and signature parsing

static const char kPrelude[] =
#include "Prelude.inc"
    ;

const char *preludeSource() { return kPrelude; }

CompileResult compileKernel(const CompileRequest &req) {
  if (req.source.size() > kMaxSourceBytes) {
    CompileResult tooLarge;
    tooLarge.errors = req.filename + ": error: the source is " + std::to_string(req.source.size()) +
                      " bytes, over the " + std::to_string(kMaxSourceBytes >> 20) + " MiB a kernel's source may be";
    return tooLarge;
  }
  SourceManager sources;
  const SourceFile &file = sources.addFile(req.filename, req.source);
  const SourceFile &preludeFile = sources.addFile("<tessera prelude>", kPrelude);
  DiagnosticEngine diags(sources);
  Parser parser(file, diags);
  std::unique_ptr<Module> ast = parser.parseModule();
  CompileResult result;
  if (diags.hasErrors()) {
    result.errors = diags.formatAll();
    return result;
  }
  Parser preludeParser(preludeFile, diags);
  std::unique_ptr<Module> preludeAst = preludeParser.parseModule();
  if (diags.hasErrors()) {
    result.errors = "internal error: the prelude does not parse:\n" + diags.formatAll();
    return result;
  }
  auto m = std::make_unique<ir::Module>();
  CodeGen cg(sources, file, *m, req.inlineCalls);
  try {
    cg.addPrelude(*preludeAst);
    cg.setLaunchShape(req.numWarps, req.warpSize);
    cg.setConstexprCall(req.constexprCall);
    cg.setDeviceLibraries(req.target, req.deviceLibraryPrefixes);
    cg.addModuleScope(*ast, req.globals);
    const FunctionDef *fn = cg.findFunction(req.entry);
    if (!fn) {
      std::string known;
      for (const StmtPtr &s : ast->body)
        if (auto *f = dynCast<FunctionDef>(s.get())) known += (known.empty() ? "" : ", ") + f->name;
      result.errors = req.filename + ": error: no function named '" + req.entry + "' (found: " +
                      (known.empty() ? std::string("none") : known) + ")\n";
      return result;
    }
    cg.genKernel(*fn, req.args);
  } catch (const CompileError &e) {
    diags.error(e.loc, e.message);
    result.errors = diags.formatAll();
    return result;
  }
  std::vector<std::string> errors;
  if (!ir::verifyModule(*m, &errors)) {
    result.errors = req.filename + ": internal error: the frontend produced invalid IR:\n" + ir::joinErrors(errors);
    return result;
  }
  result.module = std::move(m);
  return result;
}

namespace {

// "(a, (b, c),)" -> its top-level elements, spaces trimmed ("()" has
// none; only the last may be followed by a comma); false when malformed.
bool splitTupleSpec(std::string_view text, std::vector<std::string_view> &out) {
  auto trim = [](std::string_view v) {
    while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
    while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
    return v;
  };
  text = trim(text.substr(1, text.size() - 2));
  if (text.empty()) return true;
  std::vector<std::string_view> pieces;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '(' || c == '<' || c == '[') ++depth;
    else if ((c == ')' || c == '>' || c == ']') && --depth < 0) return false;
    else if (c == ',' && depth == 0) {
      pieces.push_back(trim(text.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (depth) return false;
  std::string_view last = trim(text.substr(start));
  if (!last.empty()) pieces.push_back(last);
  for (std::string_view piece : pieces)
    if (piece.empty()) return false;
  out = std::move(pieces);
  return true;
}

} // namespace

bool isTupleElementPath(const std::string &name, const std::vector<std::string> &params) {
  size_t dot = name.find('.');
  if (dot == std::string::npos || dot + 1 == name.size()) return false;
  for (size_t i = dot + 1; i < name.size(); ++i)
    if (!(std::isdigit(static_cast<unsigned char>(name[i])) || (name[i] == '.' && name[i - 1] != '.' && i + 1 < name.size())))
      return false;
  return std::find(params.begin(), params.end(), name.substr(0, dot)) != params.end();
}

std::optional<ArgSpec> parseArgSpec(std::string_view text, std::string *error) {
  ArgSpec spec;
  size_t open = 0;  // a namedtuple's class name ends at its '('
  while (open < text.size() && (std::isalnum(static_cast<unsigned char>(text[open])) || text[open] == '_')) ++open;
  bool named = open > 0 && open < text.size() && text[open] == '(' && !std::isdigit(static_cast<unsigned char>(text[0]));
  if (named || (!text.empty() && text.front() == '(')) {
    std::vector<std::string_view> elements;
    if (text.back() != ')' || !splitTupleSpec(text.substr(open), elements)) {
      if (error) *error = "bad tuple type '" + std::string(text) + "' (expected e.g. (*fp32, (i32, constexpr)) or Point(x=i32, y=constexpr))";
      return std::nullopt;
    }
    spec.isTuple = true;
    if (named) spec.tupleName = std::string(text.substr(0, open));
    for (std::string_view element : elements) {
      if (named) {
        size_t eq = element.find('=');
        std::string_view field = element.substr(0, eq);
        while (!field.empty() && field.back() == ' ') field.remove_suffix(1);
        if (eq == std::string_view::npos || field.empty() || !isFunctionPath(field) || field.find('.') != std::string_view::npos) {
          if (error) *error = "bad namedtuple field '" + std::string(element) + "' in '" + std::string(text) + "' (expected name=type)";
          return std::nullopt;
        }
        spec.fieldNames.push_back(std::string(field));
        element.remove_prefix(eq + 1);
        while (!element.empty() && element.front() == ' ') element.remove_prefix(1);
      }
      if (element == "constexpr") {
        ArgSpec given;
        given.isConstexpr = true;
        spec.elements.push_back(given);
        continue;
      }
      auto inner = parseArgSpec(element, error);
      if (!inner) return std::nullopt;
      spec.elements.push_back(*inner);
    }
    return spec;
  }
  if (text.rfind("tensordesc<", 0) == 0) {
    // tensordesc<fp16[64, 64]>
    auto bad = [&](const std::string &why) {
      if (error) *error = "bad tensor descriptor type '" + std::string(text) + "': " + why + " (expected e.g. tensordesc<fp16[64,64]>)";
      return std::nullopt;
    };
    // Hints after it: ":16" (base and leading strides multiples of 16
    // bytes), ":e16" (extents multiples of 16).
    for (size_t colon; (colon = text.rfind(':')) != std::string_view::npos && colon > text.rfind('>');) {
      std::string_view hint = text.substr(colon + 1);
      if (hint == "16") spec.divisibleBy16 = true;
      else if (hint == "e16") spec.extentsDivisibleBy16 = true;
      else {
        if (error) *error = "unknown specialization ':" + std::string(hint) + "' in '" + std::string(text) + "' (use :16 or :e16)";
        return std::nullopt;
      }
      text.remove_suffix(text.size() - colon);
    }
    size_t open = text.find('['), close = text.find(']');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open || text.back() != '>')
      return bad("no [block shape]");
    auto elem = dtypeFromName(text.substr(11, open - 11));
    if (!elem) return bad("unknown element type");
    std::string dims(text.substr(open + 1, close - open - 1));
    for (size_t at = 0; at <= dims.size();) {
      size_t comma = dims.find(',', at);
      std::string d = dims.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
      d.erase(std::remove(d.begin(), d.end(), ' '), d.end());
      char *end = nullptr;
      long long v = std::strtoll(d.c_str(), &end, 10);
      if (d.empty() || *end || v <= 0) return bad("block dimensions must be positive integers");
      spec.descriptorBlock.push_back(v);
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
    spec.type = Type::pointer(*elem);
    return spec;
  }
  std::string_view body = text;
  size_t colon = text.find(':');
  if (colon != std::string_view::npos) {
    body = text.substr(0, colon);
    for (std::string_view hints = text.substr(colon + 1);;) {
      size_t next = hints.find(':');
      std::string_view hint = hints.substr(0, next);
      if (hint == "16") spec.divisibleBy16 = true;
      else if (hint == "1") spec.equalsOne = true;
      else if (hint == "r32") spec.pointerRange32 = true;
      else {
        if (error)
          *error = "unknown specialization ':" + std::string(hint) + "' in '" + std::string(text) + "' (use :16, :1 or :r32)";
        return std::nullopt;
      }
      if (next == std::string_view::npos) break;
      hints.remove_prefix(next + 1);
    }
  }
  bool pointer = !body.empty() && body[0] == '*';
  if (pointer) body.remove_prefix(1);
  auto t = dtypeFromName(body);
  if (!t) {
    if (error) *error = "unknown argument type '" + std::string(text) + "' (expected e.g. *fp32, i32, fp16)";
    return std::nullopt;
  }
  spec.type = pointer ? Type::pointer(*t) : *t;
  if (spec.equalsOne && !spec.type.isInteger()) {
    if (error) *error = "':1' applies only to integer arguments, not '" + std::string(text) + "'";
    return std::nullopt;
  }
  if (spec.pointerRange32 && !spec.type.isPointer()) {
    if (error) *error = "':r32' applies only to pointer arguments, not '" + std::string(text) + "'";
    return std::nullopt;
  }
  return spec;
}

bool isFunctionPath(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0])) || text.back() == '.') return false;
  for (char c : text)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return false;
  return true;
}

std::optional<SValue> parseConstexpr(std::string_view text) {
  // A constexpr function, called through CompileRequest::constexprCall.
  if (text.rfind("constexpr_function:", 0) == 0 || text.rfind("extern_function:", 0) == 0)
    return SValue::builtin(std::string(text));
  // A namedtuple class, "namedtuple_class:Point(x, y, z=0)" (its fields,
  // defaults for the last ones). A namedtuple value is a call of
  // __namedtuple__ (the builtin "internal.namedtuple"), which may nest.
  bool namedClass = text.rfind("namedtuple_class:", 0) == 0;
  if (namedClass) text.remove_prefix(text.find(':') + 1);
  SourceManager sources;
  const SourceFile &file = sources.addFile("<constexpr>", std::string(text));
  DiagnosticEngine diags(sources);
  Parser parser(file, diags);
  ExprPtr e = parser.parseStandaloneExpression();
  if (!e || diags.hasErrors()) return std::nullopt;
  ir::Module scratch;
  CodeGen cg(sources, file, scratch, true);
  try {
    Module empty;
    cg.addModuleScope(empty, {{"tl", SValue::ns("tl")}, {"__namedtuple__", SValue::builtin("internal.namedtuple")}});
    if (namedClass) {
      auto *c = dynCast<CallExpr>(e.get());
      auto *name = c ? dynCast<NameExpr>(c->func.get()) : nullptr;
      if (!name) return std::nullopt;
      std::vector<std::string> fields;
      std::vector<SValue> values;
      for (const ExprPtr &a : c->args) {
        auto *field = dynCast<NameExpr>(a.get());
        if (!field) return std::nullopt;
        fields.push_back(field->id);
      }
      for (const auto &k : c->keywords) {
        fields.push_back(k.name);
        values.push_back(cg.evalForConstant(*k.value));
      }
      return SValue::namedTupleClass(name->id, std::move(fields), std::move(values));
    }
    SValue v = cg.evalForConstant(*e);
    if (!v.isConstexpr()) return std::nullopt;
    return v;
  } catch (const CompileError &) {
    if (auto t = dtypeFromName(text)) return SValue::dtype(*t);
    return std::nullopt;
  }
}

} // namespace tessera::frontend
