// The builtins of the language (tl.* and the Python builtins kernels use),
// with Triton's names, defaults and typing. Functions Triton itself writes in
// the language (rand, sigmoid, softmax, ...) live in prelude.py instead.
#include "frontend/CodeGen.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <set>
#include <unordered_map>

namespace tessera::frontend {

using ir::OpCode;
using ir::Type;
using Kind = SValue::Kind;
using Handler = std::function<SValue(CodeGen &, CallArgs &)>;

namespace {

SValue tensorValue(ir::Value *v) { return SValue::tensor(v); }

std::string stringArg(CodeGen &cg, CallArgs &a, size_t i, const char *name, std::string dflt) {
  SValue v = cg.argOr(a, i, name, SValue::str(dflt));
  if (v.is(Kind::None)) return dflt;
  if (!v.is(Kind::Str)) cg.fail(a.loc, "argument '" + std::string(name) + "' of " + a.callee + "() must be a string");
  return v.s;
}

bool boolArg(CodeGen &cg, CallArgs &a, size_t i, const char *name, bool dflt) {
  SValue v = cg.argOr(a, i, name, SValue::boolean(dflt));
  if (v.is(Kind::None)) return dflt;
  if (!v.isConstexpr()) cg.fail(a.loc, "argument '" + std::string(name) + "' of " + a.callee + "() must be a compile-time bool");
  return v.truthy();
}

// Shape given as *args or as one tuple/list: f(x, 4, 8) or f(x, (4, 8)).
std::vector<int64_t> varShape(CodeGen &cg, CallArgs &a, size_t from, const char *name) {
  if (const SValue *kw = cg.findArg(a, 1000, name)) return cg.shapeArg(*kw, a.loc);
  if (a.positional.size() == from + 1 && a.positional[from].is(Kind::Tuple)) return cg.shapeArg(a.positional[from], a.loc);
  std::vector<SValue> dims(a.positional.begin() + std::min(from, a.positional.size()), a.positional.end());
  return cg.shapeArg(SValue::tuple(dims), a.loc);
}

std::vector<int64_t> varInts(CodeGen &cg, CallArgs &a, size_t from, const char *name) {
  std::vector<SValue> items;
  if (const SValue *kw = cg.findArg(a, 1000, name)) items = kw->is(Kind::Tuple) ? kw->elems : std::vector<SValue>{*kw};
  else if (a.positional.size() == from + 1 && a.positional[from].is(Kind::Tuple)) items = a.positional[from].elems;
  else items.assign(a.positional.begin() + std::min(from, a.positional.size()), a.positional.end());
  std::vector<int64_t> out;
  for (auto &v : items) {
    if (!v.is(Kind::Int)) cg.fail(a.loc, a.callee + "() expects compile-time integers, found " + v.describe());
    out.push_back(int64_t(v.i));
  }
  return out;
}

int64_t normAxis(CodeGen &cg, BigInt axis, int64_t rank, SourceLoc loc) {
  BigInt a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank)  // Triton's words
    cg.fail(loc, "invalid axis " + bigIntToString(axis) + ": expected " + std::to_string(-rank) + " <= axis < " +
                     std::to_string(rank));
  return int64_t(a);
}

ir::Value *reshape(CodeGen &cg, ir::Value *v, std::vector<int64_t> shape, bool canReorder, SourceLoc loc) {
  Type t = v->type();
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  if (n != t.numElements())
    cg.fail(loc, "cannot reshape " + t.str() + " (" + std::to_string(t.numElements()) + " elements) to " +
                     std::to_string(n) + " elements");
  if (!t.isTile()) return cg.builder().splat(v, shape);
  if (t.shape() == shape) return v;
  ir::AttrDict attrs;
  if (canReorder) attrs.set("can_reorder", ir::Attribute(true));
  return cg.builder().createValue(OpCode::Reshape, {v}, Type::tile(shape, t.element()), std::move(attrs));
}

ir::Value *expandDims(CodeGen &cg, ir::Value *v, int64_t axis) {
  std::vector<int64_t> shape = v->type().shape();
  shape.insert(shape.begin() + axis, 1);
  ir::AttrDict a;
  a.set("axis", ir::Attribute(axis));
  return cg.builder().createValue(OpCode::ExpandDims, {v}, Type::tile(shape, v->type().element()), std::move(a));
}

ir::Value *trans(CodeGen &cg, ir::Value *v, std::vector<int64_t> order, SourceLoc loc) {
  Type t = v->type();
  if (int64_t(order.size()) != t.rank()) cg.fail(loc, "the permutation must list all " + std::to_string(t.rank()) + " dimensions");
  std::vector<int64_t> shape;
  std::vector<bool> seen(size_t(t.rank()), false);
  for (int64_t d : order) {
    if (d < 0 || d >= t.rank()) cg.fail(loc, "bad dimension " + std::to_string(d) + " in permutation");
    // A repeated dimension would pass the count check but is no permutation.
    if (seen[size_t(d)]) cg.fail(loc, "dimension " + std::to_string(d) + " appears twice in the permutation");
    seen[size_t(d)] = true;
    shape.push_back(t.shape()[d]);
  }
  ir::AttrDict a;
  a.set("order", ir::Attribute(order));
  return cg.builder().createValue(OpCode::Trans, {v}, Type::tile(shape, t.element()), std::move(a));
}

// A reduce or scan op; `fill` builds its combine region (whose arguments are
// the first element of every input, then the second) and returns the values
// to yield.
using RegionFill = std::function<std::vector<ir::Value *>(ir::Block &)>;

std::vector<ir::Value *> reduceOrScan(CodeGen &cg, bool scan, std::vector<ir::Value *> inputs, int64_t axis, bool reverse,
                                      const RegionFill &fill, SourceLoc loc) {
  Type t = inputs[0]->type();
  std::vector<Type> resultTypes;
  std::vector<int64_t> reduced = t.shape();
  reduced.erase(reduced.begin() + axis);
  for (ir::Value *in : inputs) {
    if (in->type().shape() != t.shape()) cg.fail(loc, "all inputs must have the same shape");
    resultTypes.push_back(scan ? in->type() : in->type().withShape(reduced));
  }
  ir::AttrDict attrs;
  attrs.set("axis", ir::Attribute(axis));
  if (scan) attrs.set("reverse", ir::Attribute(reverse));
  ir::Operation *op = cg.builder().create(scan ? OpCode::Scan : OpCode::Reduce, inputs, resultTypes, std::move(attrs));
  ir::Block &body = op->region(0).block();
  for (int side = 0; side < 2; ++side)
    for (ir::Value *in : inputs) body.addArgument(in->type().element());
  std::vector<ir::Value *> out = fill(body);
  ir::Builder rb(&body);
  rb.setLoc(cg.builder().loc());
  rb.yield(out);
  return op->results();
}

// The common case: the region is a few scalar ops built with a Builder.
RegionFill scalarCombine(CodeGen &cg, std::function<std::vector<ir::Value *>(ir::Builder &, std::vector<ir::Value *>)> f) {
  return [&cg, f](ir::Block &body) {
    ir::Builder rb(&body);
    rb.setLoc(cg.builder().loc());
    return f(rb, body.arguments());
  };
}

// Reduces a tile over `axis`, or over everything when axis is None.
struct ReduceSetup {
  std::vector<ir::Value *> inputs;
  int64_t axis;
  bool all;
  std::vector<int64_t> keptShape;  // the shape with the axis as 1, for keep_dims
};

ReduceSetup setupReduce(CodeGen &cg, std::vector<ir::Value *> inputs, const SValue &axisV, SourceLoc loc) {
  ReduceSetup s;
  Type t = inputs[0]->type();
  if (!t.isTile()) cg.fail(loc, "reductions need a tile, found a scalar of type " + t.str());
  s.all = axisV.is(Kind::None);
  if (s.all) {
    for (ir::Value *&in : inputs) in = reshape(cg, in, {in->type().numElements()}, true, loc);
    s.axis = 0;
    s.keptShape = std::vector<int64_t>(size_t(t.rank()), 1);
  } else {
    if (!axisV.is(Kind::Int)) cg.fail(loc, "axis must be a compile-time integer or None, found " + axisV.describe());
    s.axis = normAxis(cg, axisV.i, t.rank(), loc);
    s.keptShape = t.shape();
    s.keptShape[size_t(s.axis)] = 1;
  }
  s.inputs = std::move(inputs);
  return s;
}

ir::Value *keepDims(CodeGen &cg, ir::Value *v, const ReduceSetup &s, bool keep, SourceLoc loc) {
  if (!keep) return v;
  return reshape(cg, v, s.keptShape, false, loc);
}

// Triton's sum/cumsum result type: narrow integers widen to 32 bits, keeping
// their signedness (int1 is unsigned, so it sums as uint32).
Type accumulationType(Type t) {
  if (t.isInteger() && t.bitWidth() < 32) return t.isSigned() ? Type::i32() : Type::scalar(ir::ScalarKind::U32);
  return t;
}

ir::Value *binaryScalar(ir::Builder &b, OpCode code, ir::Value *x, ir::Value *y) { return b.sameType(code, {x, y}); }

const char *cacheName(CodeGen &cg, CallArgs &a, const std::string &v, bool store) {
  if (v.empty()) return nullptr;
  if (!store && (v == ".ca" || v == "ca")) return "ca";
  if (v == ".cg" || v == "cg") return "cg";
  if (!store && (v == ".cv" || v == "cv")) return "cv";
  if (store && (v == ".wb" || v == "wb")) return "wb";
  if (store && (v == ".cs" || v == "cs")) return "cs";
  if (store && (v == ".wt" || v == "wt")) return "wt";
  cg.fail(a.loc, "unknown cache_modifier '" + v + "' (" + (store ? ".wb, .cg, .cs, .wt" : ".ca, .cg, .cv") + ")");
}

const char *evictName(CodeGen &cg, CallArgs &a, const std::string &v) {
  if (v.empty()) return nullptr;
  if (v == "evict_normal") return "normal";
  if (v == "evict_first") return "first";
  if (v == "evict_last") return "last";
  cg.fail(a.loc, "unknown eviction_policy '" + v + "' (evict_normal, evict_first or evict_last)");
}

// Pointers and masks for a block-pointer or tensor-descriptor access.
struct BlockAccess {
  ir::Value *ptrs;
  ir::Value *mask;  // may be null
};

BlockAccess blockAccess(CodeGen &cg, const SValue &bp, const std::vector<SValue> &offsets, std::vector<int64_t> checked,
                        SourceLoc loc) {
  ir::Builder &b = cg.builder();
  const SValue &base = bp.elems[0];
  const std::vector<SValue> &shape = bp.elems[1].elems, &strides = bp.elems[2].elems, &blockShape = bp.elems[4].elems;
  size_t rank = blockShape.size();
  std::vector<int64_t> tileShape;
  for (auto &d : blockShape) tileShape.push_back(int64_t(d.i));
  Type idx = Type::i64();
  ir::Value *ptrs = cg.splatTo(cg.toTensor(base, loc), tileShape, loc);
  ir::Value *mask = nullptr;
  for (size_t d = 0; d < rank; ++d) {
    ir::Value *range = b.cast(b.arange(0, tileShape[d]), idx);
    ir::Value *off = cg.toTensor(offsets[d], loc, idx);
    ir::Value *pos = b.sameType(OpCode::Add, {b.splat(off, {tileShape[d]}), range});
    // Make the index vary along dimension d only.
    ir::Value *full = pos;
    for (size_t k = 0; k < rank; ++k)
      if (k != d) full = expandDims(cg, full, int64_t(k < d ? k : full->type().rank()));
    full = cg.broadcastTo(full, tileShape, loc);
    ir::Value *stride = cg.toTensor(strides[d], loc, idx);
    ptrs = b.createValue(OpCode::AddPtr, {ptrs, b.sameType(OpCode::Mul, {full, cg.splatTo(stride, tileShape, loc)})},
                         ptrs->type());
    if (std::find(checked.begin(), checked.end(), int64_t(d)) != checked.end()) {
      ir::Value *lim = cg.splatTo(cg.toTensor(shape[d], loc, idx), tileShape, loc);
      ir::Value *zero = cg.splatTo(cg.constant(BigInt(0), idx), tileShape, loc);
      ir::Value *in = b.sameType(OpCode::And, {b.cmp("ge", full, zero), b.cmp("lt", full, lim)});
      mask = mask ? b.sameType(OpCode::And, {mask, in}) : in;
    }
  }
  return {ptrs, mask};
}

std::vector<int64_t> boundaryCheck(CodeGen &cg, CallArgs &a, size_t i, size_t rank) {
  SValue v = cg.argOr(a, i, "boundary_check", SValue::tuple({}));
  std::vector<SValue> items = v.is(Kind::Tuple) ? v.elems : std::vector<SValue>{v};
  std::vector<int64_t> out;
  for (auto &x : items) {
    if (!x.is(Kind::Int) || x.i < 0 || x.i >= BigInt(rank))
      cg.fail(a.loc, "boundary_check must list dimensions of the block, found " + x.describe());
    out.push_back(int64_t(x.i));
  }
  return out;
}

// The pointer decides a load's or store's shape: the mask, `other` and the
// value broadcast to it, never the other way (Triton rejects a tile through a
// scalar pointer, which would race on one address).
ir::Value *toPointerShape(CodeGen &cg, ir::Value *v, ir::Value *ptr, const char *what, SourceLoc loc,
                          Type written = {}) {
  if (!ptr->type().isTile() && v->type().isTile())
    cg.fail(loc, std::string("the ") + what + " is a " + v->type().str() +
                     " but the pointer is a scalar; use a tile of pointers");
  // As Triton: a tile broadcasts to the pointers' shape only from the same
  // rank (a [32] value into [32, 32] pointers is an error, not a guess).
  if (v->type().isTile() && v->type().rank() != ptr->type().rank()) {
    auto shape = [](const std::vector<int64_t> &s) {
      std::string out = "[";
      for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
      return out + "]";
    };
    cg.fail(loc, std::string("Cannot broadcast, rank mismatch: the ") + what + " has shape " + shape(v->type().shape()) +
                     " and the pointers " + shape(ptr->type().shape()) + "; expand_dims or reshape it first");
  }
  // Named as written (a stored value is cast to the pointee first).
  const std::vector<int64_t> &from = v->type().shape(), &to = ptr->type().shape();
  for (size_t d = 0; d < from.size() && v->type().isTile(); ++d)
    if (from[d] != to[d] && from[d] != 1)
      cg.fail(loc, std::string("cannot broadcast the ") + what + " (" +
                       (written ? written : v->type()).str() + ") to the pointers' shape " +
                       ptr->type().str() + ": dimension " + std::to_string(d) + " is " + std::to_string(from[d]) +
                       " and " + std::to_string(to[d]));
  return cg.broadcastTo(v, ptr->type().shape(), loc);
}

// Whether a tensor map the runtime builds may copy `d`'s blocks: a ":16"
// descriptor parameter, a descriptor the kernel made with a last stride of
// 1 and zero padding, or such a block pointer (makeBlockPtr); a target
// checks that its base, extents and strides are still the kernel's
// arguments or constants.
bool tensorMapMayCopy(const SValue &d) {
  if (!d.tensorMapReady || !d.elems[0].isTensor()) return false;
  for (size_t field : {size_t(1), size_t(2)})
    for (const SValue &v : d.elems[field].elems)
      if (!v.isTensor()) return false;
  return true;
}

// Whether a block-pointer access checked along dimensions `checked`, with
// access attributes `attrs`, may be a descriptor's: checked along every
// dimension (unchecked, a block may reach past the shape it names, which a
// map would not), no cache or eviction hints, and a map may copy it.
bool blockAccessMayUseMap(const SValue &p, const std::vector<int64_t> &checked, const ir::AttrDict &attrs) {
  std::set<int64_t> dims(checked.begin(), checked.end());
  return dims.size() == p.elems[4].elems.size() && attrs.empty() && tensorMapMayCopy(p);
}

// A desc_load's or desc_store's operands after the access's own: where
// its block is in the tensor (base, extents, strides but the last, block
// offsets), for a target that copies it with a tensor map (ir/Ops.def).
std::vector<ir::Value *> blockOperands(CodeGen &cg, const SValue &d, const std::vector<SValue> &offsets,
                                       std::vector<ir::Value *> ops, SourceLoc loc) {
  ops.push_back(d.elems[0].v);
  for (const SValue &e : d.elems[1].elems) ops.push_back(e.v);
  for (size_t i = 0; i + 1 < d.elems[2].elems.size(); ++i) ops.push_back(d.elems[2].elems[i].v);
  for (const SValue &o : offsets) ops.push_back(cg.toTensor(o, loc, Type::i64()));
  return ops;
}

SValue doLoad(CodeGen &cg, CallArgs &a) {
  cg.checkArgs(a, {"pointer", "mask", "other", "boundary_check", "padding_option", "cache_modifier", "eviction_policy",
                   "volatile"});
  ir::Builder &b = cg.builder();
  SValue p = cg.requireArg(a, 0, "pointer");
  ir::AttrDict attrs;
  if (const char *c = cacheName(cg, a, stringArg(cg, a, 5, "cache_modifier", ""), false)) attrs.set("cache", ir::Attribute(c));
  if (const char *e = evictName(cg, a, stringArg(cg, a, 6, "eviction_policy", ""))) attrs.set("evict", ir::Attribute(e));
  if (boolArg(cg, a, 7, "volatile", false)) attrs.set("volatile", ir::Attribute(true));
  if (p.is(Kind::BlockPtr)) {
    if (p.isDescriptor) cg.fail(a.loc, "load a tensor descriptor with desc.load(offsets)");
    std::string padding = stringArg(cg, a, 4, "padding_option", "");
    if (!padding.empty() && padding != "zero" && padding != "nan")
      cg.fail(a.loc, "padding_option must be \"zero\" or \"nan\", found \"" + padding + "\"");
    if (cg.findArg(a, 1, "mask") && !cg.findArg(a, 1, "mask")->is(Kind::None))
      cg.fail(a.loc, "a block-pointer load takes boundary_check, not a mask");
    std::vector<int64_t> checked = boundaryCheck(cg, a, 3, p.elems[4].elems.size());
    BlockAccess acc = blockAccess(cg, p, p.elems[3].elems, checked, a.loc);
    Type elem = acc.ptrs->type().pointee();
    std::vector<ir::Value *> ops = {acc.ptrs};
    if (acc.mask) {
      ops.push_back(acc.mask);
      double pad = padding == "nan" ? std::nan("") : 0.0;
      if (padding == "nan" && !elem.isFloat()) cg.fail(a.loc, "padding_option \"nan\" needs a float block");
      ops.push_back(cg.splatTo(elem.isFloat() ? cg.constant(pad, elem) : cg.constant(BigInt(0), elem), acc.ptrs->type().shape(), a.loc));
    }
    // A tensor map fills what lies outside with zeros, the padding.
    if (acc.mask && padding != "nan" && blockAccessMayUseMap(p, checked, attrs))
      return tensorValue(b.createValue(OpCode::DescLoad, blockOperands(cg, p, p.elems[3].elems, ops, a.loc),
                                       acc.ptrs->type().withElement(elem)));
    return tensorValue(b.createValue(OpCode::Load, ops, acc.ptrs->type().withElement(elem), std::move(attrs)));
  }
  if (!p.isTensor() || !p.v->type().element().isPointer())
    cg.fail(a.loc, "tl.load needs a pointer or a tile of pointers, found " + p.describe());
  ir::Value *ptr = p.v;
  Type elem = ptr->type().pointee();
  SValue maskV = cg.argOr(a, 1, "mask", SValue::none());
  SValue otherV = cg.argOr(a, 2, "other", SValue::none());
  ir::Value *mask = nullptr;
  if (maskV.isConstexpr()) {
    // False reads nothing: every element is `other` (unspecified without
    // it), as Triton's; an all-false mask says so to every target.
    if (!maskV.is(Kind::None) && !maskV.truthy())
      mask = toPointerShape(cg, cg.constant(BigInt(0), Type::i1()), ptr, "mask", a.loc);
  } else {
    mask = toPointerShape(cg, cg.toTensor(maskV, a.loc), ptr, "mask", a.loc);
    if (!mask->type().isBool()) mask = cg.cast(mask, Type::i1(), a.loc);
  }
  std::vector<ir::Value *> ops = {ptr};
  if (mask) {
    ops.push_back(mask);
    if (!otherV.is(Kind::None)) {
      Type written = otherV.isTensor() ? otherV.v->type() : Type();
      ir::Value *other = cg.toTensor(otherV, a.loc, elem);
      ops.push_back(toPointerShape(cg, other, ptr, "other", a.loc, written));
    }
  }
  return tensorValue(b.createValue(OpCode::Load, ops, ptr->type().withElement(elem), std::move(attrs)));
}

SValue doStore(CodeGen &cg, CallArgs &a) {
  cg.checkArgs(a, {"pointer", "value", "mask", "boundary_check", "cache_modifier", "eviction_policy"});
  ir::Builder &b = cg.builder();
  SValue p = cg.requireArg(a, 0, "pointer");
  SValue valV = cg.requireArg(a, 1, "value");
  ir::AttrDict attrs;
  if (const char *c = cacheName(cg, a, stringArg(cg, a, 4, "cache_modifier", ""), true)) attrs.set("cache", ir::Attribute(c));
  if (const char *e = evictName(cg, a, stringArg(cg, a, 5, "eviction_policy", ""))) attrs.set("evict", ir::Attribute(e));
  if (p.is(Kind::BlockPtr)) {
    if (p.isDescriptor) cg.fail(a.loc, "store to a tensor descriptor with desc.store(offsets, value)");
    std::vector<int64_t> checked = boundaryCheck(cg, a, 3, p.elems[4].elems.size());
    BlockAccess acc = blockAccess(cg, p, p.elems[3].elems, checked, a.loc);
    ir::Value *v = cg.broadcastTo(cg.toTensor(valV, a.loc, acc.ptrs->type().pointee()), acc.ptrs->type().shape(), a.loc);
    std::vector<ir::Value *> ops = {acc.ptrs, v};
    if (acc.mask) ops.push_back(acc.mask);
    // A tensor map writes exactly what the mask lets through.
    if (acc.mask && blockAccessMayUseMap(p, checked, attrs))
      b.create(OpCode::DescStore, blockOperands(cg, p, p.elems[3].elems, ops, a.loc), {});
    else
      b.create(OpCode::Store, ops, {}, std::move(attrs));
    return SValue::none();
  }
  if (!p.isTensor() || !p.v->type().element().isPointer())
    cg.fail(a.loc, "tl.store needs a pointer or a tile of pointers, found " + p.describe());
  if (p.constPtr) cg.fail(a.loc, "Cannot store to a constant pointer (a tl.const parameter)");
  if (cg.elementwiseDepth_ > 0) cg.fail(a.loc, "tl.map_elementwise's function cannot store (it runs on every element)");
  ir::Value *ptr = p.v;
  Type elem = ptr->type().pointee();
  ir::Value *val = cg.toTensor(valV, a.loc);
  // Pointers store as themselves or as 64-bit integers (their addresses, as Triton's cast does).
  bool address = val->type().element().isPointer() && elem.isInteger() && elem.bitWidth() == 64;
  if (val->type().element().isPointer() != elem.isPointer() && !address)
    cg.fail(a.loc, "cannot store " + dtypeName(val->type().element()) + " through a pointer to " + dtypeName(elem));
  Type written = val->type();
  val = cg.cast(val, elem, a.loc);
  SValue maskV = cg.argOr(a, 2, "mask", SValue::none());
  std::vector<ir::Value *> ops = {ptr, toPointerShape(cg, val, ptr, "value", a.loc, written)};
  if (maskV.isConstexpr() && !maskV.is(Kind::None) && !maskV.truthy()) return SValue::none();  // mask=False stores nothing
  if (!maskV.isConstexpr()) {
    ir::Value *mask = toPointerShape(cg, cg.toTensor(maskV, a.loc), ptr, "mask", a.loc);
    ops.push_back(mask->type().isBool() ? mask : cg.cast(mask, Type::i1(), a.loc));
  }
  b.create(OpCode::Store, ops, {}, std::move(attrs));
  return SValue::none();
}

SValue doAtomic(CodeGen &cg, CallArgs &a, const std::string &kind) {
  bool cas = kind == "cas";
  if (cas) cg.checkArgs(a, {"pointer", "cmp", "val", "sem", "scope"});
  else cg.checkArgs(a, {"pointer", "val", "mask", "sem", "scope"});
  ir::Builder &b = cg.builder();
  SValue p = cg.requireArg(a, 0, "pointer");
  if (!p.isTensor() || !p.v->type().element().isPointer())
    cg.fail(a.loc, a.callee + "() needs a pointer or a tile of pointers, found " + p.describe());
  if (p.constPtr) cg.fail(a.loc, "Cannot store to a constant pointer (a tl.const parameter): " + a.callee + "() writes");
  if (cg.elementwiseDepth_ > 0)
    cg.fail(a.loc, "tl.map_elementwise's function cannot use " + a.callee + "() (it runs on every element)");
  ir::Value *ptr = p.v;
  Type elem = ptr->type().pointee();
  std::string sem = stringArg(cg, a, cas ? 3 : 3, "sem", "acq_rel");
  std::string scope = stringArg(cg, a, 4, "scope", "gpu");
  if (sem != "relaxed" && sem != "acquire" && sem != "release" && sem != "acq_rel")
    cg.fail(a.loc, "sem must be \"relaxed\", \"acquire\", \"release\" or \"acq_rel\", found \"" + sem + "\"");
  if (scope != "cta" && scope != "gpu" && scope != "sys")
    cg.fail(a.loc, "scope must be \"cta\", \"gpu\" or \"sys\", found \"" + scope + "\"");
  ir::AttrDict attrs;
  attrs.set("sem", ir::Attribute(sem));
  attrs.set("scope", ir::Attribute(scope));
  if (cas) {
    ir::Value *cmp = cg.toTensor(cg.requireArg(a, 1, "cmp"), a.loc, elem);
    ir::Value *val = cg.toTensor(cg.requireArg(a, 2, "val"), a.loc, elem);
    std::vector<int64_t> shape = cg.broadcastShapes({ptr, cmp, val}, a.loc);
    ptr = cg.broadcastTo(ptr, shape, a.loc);
    cmp = cg.broadcastTo(cmp, shape, a.loc);
    val = cg.broadcastTo(val, shape, a.loc);
    return tensorValue(b.createValue(OpCode::AtomicCas, {ptr, cmp, val}, val->type(), std::move(attrs)));
  }
  if ((kind == "and" || kind == "or" || kind == "xor") && !elem.isInteger())
    cg.fail(a.loc, a.callee + "() needs integer elements, the pointer is to " + dtypeName(elem));
  bool fp8 = elem == Type::scalar(ir::ScalarKind::F8E4M3) || elem == Type::scalar(ir::ScalarKind::F8E5M2) ||
             elem == Type::scalar(ir::ScalarKind::F8E4B15);
  if (fp8 && kind != "xchg")  // Triton's words; no target has fp8 arithmetic atomics
    cg.fail(a.loc, a.callee + " does not support " + dtypeName(elem));
  attrs.set("kind", ir::Attribute(kind));
  ir::Value *val = cg.toTensor(cg.requireArg(a, 1, "val"), a.loc, elem);
  SValue maskV = cg.argOr(a, 2, "mask", SValue::none());
  if (maskV.isConstexpr() && !maskV.is(Kind::None) && !maskV.truthy())
    cg.fail(a.loc, "a mask of False makes " + a.callee + "() do nothing; remove it");
  ir::Value *mask = maskV.isConstexpr() ? nullptr : cg.toTensor(maskV, a.loc);
  if (mask && !mask->type().isBool()) mask = cg.cast(mask, Type::i1(), a.loc);
  std::vector<int64_t> shape = mask ? cg.broadcastShapes({ptr, val, mask}, a.loc) : cg.broadcastShapes({ptr, val}, a.loc);
  ptr = cg.broadcastTo(ptr, shape, a.loc);
  val = cg.broadcastTo(val, shape, a.loc);
  std::vector<ir::Value *> ops = {ptr, val};
  if (mask) ops.push_back(cg.broadcastTo(mask, shape, a.loc));
  return tensorValue(b.createValue(OpCode::AtomicRmw, ops, val->type(), std::move(attrs)));
}

// A float math function: ints are an error; compile-time floats become f32.
SValue mathUnary(CodeGen &cg, CallArgs &a, OpCode code, bool approx = false, bool intsToo = false,
                 ir::AttrDict attrs = {}) {
  cg.checkArgs(a, {"x"});
  SValue x = cg.requireArg(a, 0, "x");
  if (x.isConstexpr() && !x.isNumber()) cg.fail(a.loc, a.callee + "() needs a number or a tensor, found " + x.describe());
  ir::Value *v = cg.toTensor(x.is(Kind::Int) && !intsToo ? SValue::floating(double(x.i)) : x, a.loc);
  if (!v->type().isFloat() && !(intsToo && v->type().isInteger()))
    cg.fail(a.loc, a.callee + "() needs floating-point input, found " + dtypeName(v->type().element()) +
                       "; cast it first with .to(tl.float32)");
  bool below64 = v->type().element().bitWidth() < 64;
  // Triton: approximate below f64, f16/bf16 through f32.
  bool below64Too = code == OpCode::Exp || code == OpCode::Exp2 || code == OpCode::Rsqrt;
  if (approx && (below64Too ? below64 : v->type().element() == Type::f32())) attrs.set("approx", ir::Attribute(true));
  return tensorValue(cg.builder().sameType(code, {v}, std::move(attrs)));
}

// Two operands brought to one type and shape with Triton's binary typing.
std::pair<ir::Value *, ir::Value *> typedPair(CodeGen &cg, const SValue &x, const SValue &y, SourceLoc loc, bool floats) {
  Type xt = x.isTensor() ? x.v->type().element() : cg.pyScalarType(x, loc);
  Type yt = y.isTensor() ? y.v->type().element() : cg.pyScalarType(y, loc);
  Type t = cg.computationType(xt, !x.isTensor(), yt, !y.isTensor(), false, loc);
  if (floats && !t.isFloat()) cg.fail(loc, "expected floating-point operands, found " + dtypeName(xt) + " and " + dtypeName(yt));
  cg.checkScalarsFit(x, y, t, loc);
  cg.checkBroadcastable(x, y, loc);
  ir::Value *a = cg.toTensor(x, loc, t), *b = cg.toTensor(y, loc, t);
  cg.broadcastPair(a, b, loc);
  return {a, b};
}

SValue fdiv(CodeGen &cg, CallArgs &a, bool precise) {
  auto [x, y] = typedPair(cg, cg.requireArg(a, 0, "x"), cg.requireArg(a, 1, "y"), a.loc, true);
  ir::AttrDict attrs;
  if (!precise) attrs.set("approx", ir::Attribute(true));
  return tensorValue(cg.builder().sameType(OpCode::Div, {x, y}, std::move(attrs)));
}

bool propagateNanArg(CodeGen &cg, CallArgs &a, size_t i) {
  SValue v = cg.argOr(a, i, "propagate_nan", SValue::integer(0));
  if (v.is(Kind::Int)) return v.i != 0;
  if (v.is(Kind::Bool)) return v.b;
  cg.fail(a.loc, "propagate_nan must be tl.PropagateNan.NONE or ALL");
}

SValue reduceBuiltin(CodeGen &cg, CallArgs &a, const std::string &name) {
  ir::Builder &b = cg.builder();
  if (name == "sum" || name == "xor_sum") {
    cg.checkArgs(a, {"input", "axis", "keep_dims", "dtype"});
    ir::Value *in = cg.tensorArg(a, 0, "input");
    Type acc = accumulationType(in->type().element());
    SValue dt = cg.argOr(a, 3, "dtype", SValue::none());
    if (!dt.is(Kind::None)) acc = cg.dtypeArg(dt, a.loc);
    if (name == "xor_sum" && !in->type().isInteger()) cg.fail(a.loc, "xor_sum needs integers");
    in = cg.cast(in, acc, a.loc);
    ReduceSetup s = setupReduce(cg, {in}, cg.argOr(a, 1, "axis", SValue::none()), a.loc);
    OpCode code = name == "sum" ? OpCode::Add : OpCode::Xor;
    ir::Value *r = reduceOrScan(cg, false, s.inputs, s.axis, false, scalarCombine(cg, [&](ir::Builder &rb, std::vector<ir::Value *> x) {
                                  return std::vector<ir::Value *>{binaryScalar(rb, code, x[0], x[1])};
                                }), a.loc)[0];
    return tensorValue(keepDims(cg, r, s, boolArg(cg, a, 2, "keep_dims", false), a.loc));
  }
  if (name == "reduce_or") {
    // Triton 3.9's bitwise-or reduction: integers, in their own type.
    cg.checkArgs(a, {"input", "axis", "keep_dims"});
    ir::Value *in = cg.tensorArg(a, 0, "input");
    if (!in->type().isInteger()) cg.fail(a.loc, "reduce_or needs integers");
    ReduceSetup s = setupReduce(cg, {in}, cg.argOr(a, 1, "axis", SValue::none()), a.loc);
    ir::Value *r = reduceOrScan(cg, false, s.inputs, s.axis, false, scalarCombine(cg, [&](ir::Builder &rb, std::vector<ir::Value *> x) {
                                  return std::vector<ir::Value *>{binaryScalar(rb, OpCode::Or, x[0], x[1])};
                                }), a.loc)[0];
    return tensorValue(keepDims(cg, r, s, boolArg(cg, a, 2, "keep_dims", false), a.loc));
  }
  bool isMax = name == "max" || name == "argmax";
  bool arg = name == "argmax" || name == "argmin";
  if (arg) cg.checkArgs(a, {"input", "axis", "tie_break_left", "keep_dims"});
  else cg.checkArgs(a, {"input", "axis", "return_indices", "return_indices_tie_break_left", "keep_dims"});
  ir::Value *in = cg.tensorArg(a, 0, "input");
  bool withIndices = arg || boolArg(cg, a, 2, "return_indices", false);
  bool tieLeft = arg ? boolArg(cg, a, 2, "tie_break_left", true) : boolArg(cg, a, 3, "return_indices_tie_break_left", true);
  bool keep = boolArg(cg, a, arg ? 3 : 4, "keep_dims", false);
  SValue axisV = cg.argOr(a, 1, "axis", SValue::none());
  if (arg && axisV.is(Kind::None) && !cg.findArg(a, 1, "axis")) cg.fail(a.loc, name + "() needs an axis");
  // As Triton's max/min: bf16 reduces in f32; without indices every type
  // narrower than 32 bits does (floats in f32, integers in int32).
  Type et = in->type().element();
  if (et == Type::scalar(ir::ScalarKind::BF16)) in = cg.cast(in, Type::f32(), a.loc);
  if (!withIndices && et.bitWidth() < 32) in = cg.cast(in, et.isFloat() ? Type::f32() : Type::i32(), a.loc);
  if (!withIndices) {
    ReduceSetup s = setupReduce(cg, {in}, axisV, a.loc);
    ir::Value *r = reduceOrScan(cg, false, s.inputs, s.axis, false, scalarCombine(cg, [&](ir::Builder &rb, std::vector<ir::Value *> x) {
                                  return std::vector<ir::Value *>{rb.sameType(isMax ? OpCode::Max : OpCode::Min, {x[0], x[1]})};
                                }), a.loc)[0];
    return tensorValue(keepDims(cg, r, s, keep, a.loc));
  }
  // (value, index) pairs; ties go to the smaller index when tie_break_left.
  Type t = in->type();
  if (!t.isTile()) cg.fail(a.loc, name + "() needs a tile");
  ReduceSetup s = setupReduce(cg, {in}, axisV, a.loc);
  ir::Value *vals = s.inputs[0];
  int64_t axis = s.axis;
  ir::Value *idx = b.arange(0, vals->type().shape()[size_t(axis)]);
  for (int64_t k = 0; k < vals->type().rank(); ++k)
    if (k != axis) idx = expandDims(cg, idx, k);
  idx = cg.broadcastTo(idx, vals->type().shape(), a.loc);
  std::vector<ir::Value *> rs = reduceOrScan(
      cg, false, {vals, idx}, axis, false, scalarCombine(cg,
      [&](ir::Builder &rb, std::vector<ir::Value *> x) {
        ir::Value *better = rb.cmp(isMax ? "gt" : "lt", x[0], x[2]);
        if (tieLeft) {
          ir::Value *tie = rb.sameType(OpCode::And, {rb.cmp("eq", x[0], x[2]), rb.cmp("lt", x[1], x[3])});
          better = rb.sameType(OpCode::Or, {better, tie});
        }
        return std::vector<ir::Value *>{rb.select(better, x[0], x[2]), rb.select(better, x[1], x[3])};
      }), a.loc);
  ir::Value *v = keepDims(cg, rs[0], s, keep, a.loc), *i = keepDims(cg, rs[1], s, keep, a.loc);
  if (arg) return tensorValue(i);
  return SValue::tuple({tensorValue(v), tensorValue(i)});
}

SValue scanBuiltin(CodeGen &cg, CallArgs &a, OpCode code) {
  cg.checkArgs(a, {"input", "axis", "reverse", "dtype"});
  ir::Value *in = cg.tensorArg(a, 0, "input");
  if (!in->type().isTile()) cg.fail(a.loc, a.callee + "() needs a tile");
  // Triton's: bf16 scans in f32; cumsum widens narrow integers, cumprod does not.
  Type acc = in->type().element();
  if (acc == Type::scalar(ir::ScalarKind::BF16)) acc = Type::f32();
  if (code == OpCode::Add) acc = accumulationType(acc);
  SValue dt = cg.argOr(a, 3, "dtype", SValue::none());
  if (!dt.is(Kind::None)) acc = cg.dtypeArg(dt, a.loc);
  in = cg.cast(in, acc, a.loc);
  int64_t axis = normAxis(cg, cg.intArg(a, 1, "axis", 0), in->type().rank(), a.loc);
  bool reverse = boolArg(cg, a, 2, "reverse", false);
  return tensorValue(reduceOrScan(cg, true, {in}, axis, reverse, scalarCombine(cg, [&](ir::Builder &rb, std::vector<ir::Value *> x) {
                                    return std::vector<ir::Value *>{rb.sameType(code, {x[0], x[1]})};
                                  }), a.loc)[0]);
}

SValue userCombine(CodeGen &cg, CallArgs &a, bool scan) {
  if (scan) cg.checkArgs(a, {"input", "axis", "combine_fn", "reverse"});
  else cg.checkArgs(a, {"input", "axis", "combine_fn", "keep_dims"});
  SValue input = cg.requireArg(a, 0, "input");
  std::vector<ir::Value *> ins;
  bool tuple = input.is(Kind::Tuple);
  for (auto &e : tuple ? input.elems : std::vector<SValue>{input}) ins.push_back(cg.toTensor(e, a.loc));
  SValue fn = cg.requireArg(a, 2, "combine_fn");
  SValue axisV = cg.requireArg(a, 1, "axis");
  int64_t axis;
  ReduceSetup s;
  if (scan) {
    if (!ins[0]->type().isTile()) cg.fail(a.loc, "associative_scan needs tiles");
    axis = normAxis(cg, cg.intArg(a, 1, "axis"), ins[0]->type().rank(), a.loc);
  } else {
    s = setupReduce(cg, ins, axisV, a.loc);
    ins = s.inputs;
    axis = s.axis;
  }
  size_t n = ins.size();
  std::vector<ir::Value *> results = reduceOrScan(
      cg, scan, ins, axis, scan && boolArg(cg, a, 3, "reverse", false),
      [&](ir::Block &body) { return cg.genCombine(fn, &body, a.loc, n); }, a.loc);
  std::vector<SValue> out;
  for (ir::Value *r : results)
    out.push_back(tensorValue(scan ? r : keepDims(cg, r, s, boolArg(cg, a, 3, "keep_dims", false), a.loc)));
  return tuple ? SValue::tuple(out) : out[0];
}

// An f32 dot as bf16 dots (input_precision bf16x3 / bf16x6, as Triton's):
// each operand is split into `parts` bf16 terms (x = hi + mid + lo, each the
// bf16 rounding of what the previous ones leave), and the products whose
// terms' ranks sum to less than `parts` are accumulated smallest first:
// three products for two parts, six for three.
ir::Value *splitBf16Dot(CodeGen &cg, ir::Value *x, ir::Value *y, ir::Value *acc, int parts, SourceLoc loc) {
  auto split = [&](ir::Value *v) {
    std::vector<ir::Value *> terms;
    for (int i = 0; i < parts; ++i) {
      ir::Value *term = cg.cast(v, Type::scalar(ir::ScalarKind::BF16), loc);
      terms.push_back(term);
      if (i + 1 < parts) v = cg.builder().sameType(OpCode::Sub, {v, cg.cast(term, Type::f32(), loc)});
    }
    return terms;
  };
  std::vector<ir::Value *> xs = split(x), ys = split(y);
  for (int rank = parts - 1; rank >= 0; --rank)
    for (int i = rank; i >= 0; --i)
      acc = cg.builder().createValue(OpCode::Dot, {xs[size_t(i)], ys[size_t(rank - i)], acc}, acc->type(), {});
  return acc;
}

SValue dot(CodeGen &cg, CallArgs &a);

// tl.map_elementwise(fn, *tiles, pack=1): fn on every element (or on `pack`
// consecutive elements of each operand at once). The tiles go through fn
// whole: its arithmetic is elementwise already, and an if on a tile
// condition there runs both branches and merges them with where
// (CodeGen::genPredicatedIf), so nothing in fn may have side effects.
SValue mapElementwise(CodeGen &cg, CallArgs &a) {
  SValue fn = cg.requireArg(a, 0, "scalar_fn");
  if (!fn.is(Kind::JitFunction)) cg.fail(a.loc, "map_elementwise needs a @jit function first, found " + fn.describe());
  int64_t pack = 1;
  std::vector<ir::Value *> ins;
  for (size_t i = 1; i < a.positional.size(); ++i) ins.push_back(cg.toTensor(a.positional[i], a.loc));
  for (auto &[k, v] : a.keywords) {
    if (k != "pack") cg.fail(a.loc, "map_elementwise() got an unexpected keyword argument '" + k + "'");
    if (!v.is(Kind::Int) || v.i < 1 || (v.i & (v.i - 1)) != 0 || v.i > 16)
      cg.fail(a.loc, "map_elementwise's pack must be a power of two from 1 to 16, found " + v.describe());
    pack = int64_t(v.i);
  }
  if (ins.empty()) cg.fail(a.loc, "map_elementwise needs at least one tile");
  std::vector<int64_t> shape = cg.broadcastShapes(ins, a.loc);
  for (ir::Value *&v : ins) v = cg.broadcastTo(v, shape, a.loc);
  if (pack > 1 && (shape.empty() || shape.back() % pack != 0))
    cg.fail(a.loc, "map_elementwise's pack (" + std::to_string(pack) + ") must divide the last dimension of " +
                       Type::tile(shape, ins[0]->type().element()).str());
  auto call = [&](const char *name, std::vector<SValue> args) {
    CallArgs c;
    c.positional = std::move(args);
    return cg.callBuiltin(name, c, a.loc);
  };
  // Element k of each group of `pack` along the last dimension, as its own tile
  // (split takes the lowest index bit first).
  std::function<std::vector<ir::Value *>(ir::Value *, int64_t)> unpack = [&](ir::Value *v, int64_t p) {
    if (p == 1) return std::vector<ir::Value *>{v};
    std::vector<int64_t> s = v->type().shape();
    s.back() /= 2;
    s.push_back(2);
    SValue halves = call("split", {tensorValue(reshape(cg, v, s, false, a.loc))});
    std::vector<ir::Value *> even = unpack(halves.elems[0].v, p / 2), odd = unpack(halves.elems[1].v, p / 2), out;
    for (size_t k = 0; k < even.size(); ++k) out.push_back(even[k]), out.push_back(odd[k]);
    return out;
  };
  std::function<ir::Value *(std::vector<ir::Value *>)> repack = [&](std::vector<ir::Value *> parts) -> ir::Value * {
    if (parts.size() == 1) return parts[0];
    std::vector<ir::Value *> even, odd;
    for (size_t k = 0; k < parts.size(); ++k) (k % 2 ? odd : even).push_back(parts[k]);
    ir::Value *j = call("join", {tensorValue(repack(even)), tensorValue(repack(odd))}).v;
    std::vector<int64_t> s = j->type().shape();
    s.pop_back();
    s.back() *= 2;
    return reshape(cg, j, s, false, a.loc);
  };
  CallArgs args;
  std::vector<int64_t> packed = shape;
  if (pack > 1) packed.back() /= pack;
  for (ir::Value *v : ins)
    for (ir::Value *part : unpack(v, pack)) args.positional.push_back(tensorValue(part));
  ++cg.elementwiseDepth_;
  SValue r;
  try {
    r = cg.callJit(*fn.fn, args, a.loc, true);
  } catch (...) {
    --cg.elementwiseDepth_;
    throw;
  }
  --cg.elementwiseDepth_;
  std::vector<SValue> outs = r.is(Kind::Tuple) ? r.elems : std::vector<SValue>{r};
  if (outs.size() % size_t(pack) != 0)
    cg.fail(a.loc, "map_elementwise's function returned " + std::to_string(outs.size()) + " values, not a multiple of pack " +
                       std::to_string(pack));
  std::vector<SValue> results;
  for (size_t i = 0; i < outs.size(); i += size_t(pack)) {
    std::vector<ir::Value *> parts;
    for (int64_t k = 0; k < pack; ++k) {
      const SValue &o = outs[i + size_t(k)];
      if (!o.isTensor() && !o.isNumber()) cg.fail(a.loc, "map_elementwise's function must return values, found " + o.describe());
      parts.push_back(cg.broadcastTo(cg.toTensor(o, a.loc), packed, a.loc));
    }
    results.push_back(tensorValue(repack(parts)));
  }
  return results.size() == 1 ? results[0] : SValue::tuple(results);
}

// A dot with several batch dimensions as one with their product (Triton
// takes any number of them).
SValue dotOverBatches(CodeGen &cg, CallArgs &a, ir::Value *x, ir::Value *y) {
  std::vector<int64_t> xs = x->type().shape(), ys = y->type().shape();
  std::vector<int64_t> batch(xs.begin(), xs.end() - 2);
  if (ys.size() != xs.size() || !std::equal(batch.begin(), batch.end(), ys.begin()))
    cg.fail(a.loc, "tl.dot operands must have the same batch dimensions, found " + x->type().str() + " and " +
                       y->type().str());
  int64_t n = 1;
  for (int64_t d : batch) n *= d;
  auto flat = [&](ir::Value *v) {
    std::vector<int64_t> s = v->type().shape();
    return reshape(cg, v, {n, s[s.size() - 2], s.back()}, false, a.loc);
  };
  CallArgs inner = a;
  // The operands (and a batched accumulator) flattened, where they were passed.
  auto flatten = [&](size_t index, const char *name) {
    auto apply = [&](SValue &v) {
      if (v.isTensor() && v.v->type().rank() == int64_t(xs.size())) v = tensorValue(flat(v.v));
    };
    if (index < inner.positional.size()) apply(inner.positional[index]);
    for (auto &[k, v] : inner.keywords)
      if (k == name) apply(v);
  };
  flatten(0, "input");
  flatten(1, "other");
  flatten(2, "acc");
  ir::Value *r = dot(cg, inner).v;
  std::vector<int64_t> shape = batch;
  shape.push_back(xs[xs.size() - 2]);
  shape.push_back(ys.back());
  return tensorValue(reshape(cg, r, shape, false, a.loc));
}

// A dtype as tl spells it (tl.float32), for messages that suggest code.
std::string tlDtypeName(Type t) {
  if (t.isFloat() && t.isScalar()) {
    switch (t.scalarKind()) {
    case ir::ScalarKind::F16: return "tl.float16";
    case ir::ScalarKind::BF16: return "tl.bfloat16";
    case ir::ScalarKind::F32: return "tl.float32";
    case ir::ScalarKind::F64: return "tl.float64";
    default: break;
    }
  }
  return "tl." + dtypeName(t);
}

SValue dot(CodeGen &cg, CallArgs &a) {
  cg.checkArgs(a, {"input", "other", "acc", "input_precision", "allow_tf32", "max_num_imprecise_acc", "out_dtype"});
  ir::Value *x = cg.tensorArg(a, 0, "input"), *y = cg.tensorArg(a, 1, "other");
  if (x->type().rank() > 3) return dotOverBatches(cg, a, x, y);
  // fp8e4b15 has no matrix unit: both operands go to f16, as in Triton's semantic.dot.
  Type e4b15 = Type::scalar(ir::ScalarKind::F8E4B15), f16 = Type::scalar(ir::ScalarKind::F16);
  if (x->type().element() == e4b15 || y->type().element() == e4b15) {
    x = cg.cast(x, f16, a.loc);
    y = cg.cast(y, f16, a.loc);
  }
  Type xt = x->type(), yt = y->type();
  if ((xt.rank() != 2 && xt.rank() != 3) || yt.rank() != xt.rank())
    cg.fail(a.loc, "tl.dot needs two tiles of rank 2 (or 3 with a batch), found " + xt.str() + " and " + yt.str());
  auto dim = [](Type t, int i) { return t.shape()[size_t(t.rank() - 2 + i)]; };
  if (dim(xt, 1) != dim(yt, 0))
    cg.fail(a.loc, "tl.dot inner dimensions differ: " + xt.str() + " and " + yt.str());
  auto fp8 = [](Type t) { return t == Type::scalar(ir::ScalarKind::F8E4M3) || t == Type::scalar(ir::ScalarKind::F8E5M2); };
  if (xt.element() != yt.element() && !(fp8(xt.element()) && fp8(yt.element()))) {
    // Triton allows mixing only through an explicit cast (or of two fp8 types).
    cg.fail(a.loc, "tl.dot operands must have the same dtype, found " + dtypeName(xt.element()) + " and " +
                       dtypeName(yt.element()));
  }
  Type in = xt.element();
  SValue outDt = cg.argOr(a, 6, "out_dtype", SValue::dtype(Type::f32()));
  Type outArg = cg.dtypeArg(outDt, a.loc);
  // The result type, as Triton's semantic.dot picks it: int32 for integers,
  // fp32 for fp32 and bf16 operands and fp64 for fp64 (whatever out_dtype
  // says), out_dtype (fp16 or fp32) for fp16 and fp8.
  Type out = outArg;
  bool fixedResult = in.isInteger() || in == Type::f32() || in == Type::scalar(ir::ScalarKind::BF16) ||
                     in == Type::scalar(ir::ScalarKind::F64);
  if (in.isInteger()) {
    out = Type::i32();
  } else {
    if (outArg == Type::scalar(ir::ScalarKind::BF16))
      cg.fail(a.loc, "tl.dot: out_dtype=bfloat16 is unsupported (as in Triton): use out_dtype=tl.float32 or tl.float16 "
                     "and cast with .to(tl.bfloat16)");
    if (in == Type::f32() || in == Type::scalar(ir::ScalarKind::BF16)) out = Type::f32();
    else if (in == Type::scalar(ir::ScalarKind::F64)) out = in;
    else if (outArg != Type::f32() && outArg != Type::scalar(ir::ScalarKind::F16))
      cg.fail(a.loc, "tl.dot of " + dtypeName(in) + " operands: out_dtype must be float32 or float16, found " +
                         dtypeName(outArg));
  }
  std::vector<int64_t> shape = xt.shape();
  shape[shape.size() - 1] = dim(yt, 1);
  SValue accV = cg.argOr(a, 2, "acc", SValue::none());
  ir::Value *acc;
  if (accV.is(Kind::None)) {
    acc = cg.splatTo(out.isFloat() ? cg.constant(0.0, out) : cg.constant(BigInt(0), out), shape, a.loc);
  } else {
    acc = cg.toTensor(accV, a.loc);
    if (acc->type().shape() != shape)
      cg.fail(a.loc, "the accumulator of tl.dot must have shape " + Type::tile(shape, out).str() + ", found " + acc->type().str());
    // Triton asserts acc's dtype is out_dtype; the result is `out` whatever acc is, so acc must be that too.
    Type ae = acc->type().element();
    if (ae != out)
      cg.fail(a.loc, "tl.dot of " + dtypeName(in) + " operands gives " + dtypeName(out) +
                         (fixedResult ? " whatever out_dtype is" : " with out_dtype=" + dtypeName(outArg)) +
                         "; its accumulator must be " + dtypeName(out) + ", found " + dtypeName(ae));
    if (ae != outArg)
      cg.fail(a.loc, "tl.dot: the accumulator's dtype " + dtypeName(ae) + " must be out_dtype, which is " +
                         dtypeName(outArg) + " (as Triton asserts): pass out_dtype=" + tlDtypeName(ae));
  }
  ir::AttrDict attrs;
  std::string prec;
  std::string pv = stringArg(cg, a, 3, "input_precision", "");
  SValue tf32 = cg.argOr(a, 4, "allow_tf32", SValue::none());
  if (!pv.empty()) prec = pv;
  else if (!tf32.is(Kind::None)) prec = boolArg(cg, a, 4, "allow_tf32", true) ? "tf32" : "ieee";
  else if (in == Type::f32()) prec = "tf32";  // Triton's default
  if (!prec.empty()) {
    if (prec != "ieee" && prec != "tf32" && prec != "tf32x3" && prec != "bf16x3" && prec != "bf16x6")
      cg.fail(a.loc, "input_precision must be \"ieee\", \"tf32\", \"tf32x3\", \"bf16x3\" or \"bf16x6\", found \"" +
                         prec + "\"");
    if (in == Type::f32() && (prec == "bf16x3" || prec == "bf16x6"))
      return tensorValue(splitBf16Dot(cg, x, y, acc, prec == "bf16x6" ? 3 : 2, a.loc));
    if (in == Type::f32()) attrs.set("input_precision", ir::Attribute(prec));
  }
  SValue imprecise = cg.argOr(a, 5, "max_num_imprecise_acc", SValue::none());
  if (imprecise.is(Kind::Int) && fp8(in) && imprecise.i > dim(xt, 1))  // Triton's check: fp8 operands only
    cg.fail(a.loc, "max_num_imprecise_acc (" + bigIntToString(imprecise.i) + ") must be <= K (" +
                       std::to_string(dim(xt, 1)) + ")");
  if (imprecise.is(Kind::Int)) attrs.set("max_num_imprecise_acc", ir::Attribute(int64_t(imprecise.i)));
  return tensorValue(cg.builder().createValue(OpCode::Dot, {x, y, acc}, acc->type(), std::move(attrs)));
}

SValue hint(CodeGen &cg, CallArgs &a, const char *kind) {
  cg.checkArgs(a, {"input", "values"});
  ir::Value *v = cg.tensorArg(a, 0, "input");
  SValue vals = cg.requireArg(a, 1, "values");
  std::vector<int64_t> list;
  for (auto &e : vals.is(Kind::Tuple) ? vals.elems : std::vector<SValue>{vals}) {
    if (!e.is(Kind::Int) || e.i <= 0) cg.fail(a.loc, a.callee + "() values must be positive compile-time integers");
    list.push_back(int64_t(e.i));
  }
  size_t rank = std::max<size_t>(1, v->type().shape().size());
  if (list.size() != rank) cg.fail(a.loc, a.callee + "() needs " + std::to_string(rank) + " value(s), one per dimension");
  ir::AttrDict attrs;
  attrs.set(kind, ir::Attribute(list));
  ir::Value *hinted = cg.builder().createValue(OpCode::Hint, {v}, v->type(), std::move(attrs));
  // Triton's hints mark the value itself (its defining op): variables that
  // hold it see the hint even when the call's result is dropped.
  cg.rebindLocals(v, hinted);
  return tensorValue(hinted);
}

SValue makeBlockPtr(CodeGen &cg, CallArgs &a, bool descriptor) {
  if (descriptor) cg.checkArgs(a, {"base", "shape", "strides", "block_shape", "padding_option"});
  else cg.checkArgs(a, {"base", "shape", "strides", "offsets", "block_shape", "order"});
  SValue base = cg.requireArg(a, 0, "base");
  if (!base.isTensor() || base.v->type().isTile() || !base.v->type().isPointer())
    cg.fail(a.loc, a.callee + "() needs a scalar pointer as its base, found " + base.describe());
  auto tupleArg = [&](size_t i, const char *name) {
    SValue v = cg.requireArg(a, i, name);
    if (!v.is(Kind::Tuple)) v = SValue::tuple({v});
    return v;
  };
  SValue shape = tupleArg(1, "shape"), strides = tupleArg(2, "strides");
  SValue offsets = descriptor ? SValue::tuple({}) : tupleArg(3, "offsets");
  SValue block = tupleArg(descriptor ? 3 : 4, "block_shape");
  SValue order = descriptor ? SValue::tuple({}) : tupleArg(5, "order");
  size_t rank = block.elems.size();
  if (rank == 0) cg.fail(a.loc, a.callee + "() needs a block_shape of at least one dimension");
  std::vector<int64_t> blockShape = cg.shapeArg(block, a.loc);
  if (descriptor) {
    // Triton's rule (TMA's): rows of at least 16 bytes.
    int64_t bytes = blockShape.back() * std::max(1, base.v->type().pointee().bitWidth() / 8);
    if (bytes < 16)
      cg.fail(a.loc, "Descriptor block shape must have at least 16 bytes in the last dimension, but got " +
                         std::to_string(bytes) + " = " + std::to_string(blockShape.back()) + " * " +
                         std::to_string(bytes / blockShape.back()) + " bytes");
  }
  if (shape.elems.size() != rank || strides.elems.size() != rank || (!descriptor && offsets.elems.size() != rank))
    cg.fail(a.loc, a.callee + "(): shape, strides" + std::string(descriptor ? "" : ", offsets") +
                       " and block_shape must have the same length");
  // 1 written out, or a parameter specialized as 1 (a constant).
  const SValue &last = strides.elems.back();
  const ir::Operation *lastDef = last.isTensor() ? last.v->definingOp() : nullptr;
  bool unitLastStride = (last.is(Kind::Int) && last.i == 1) ||
                        (lastDef && lastDef->is(OpCode::Constant) && lastDef->attr("value")->isInt() &&
                         lastDef->attr("value")->getInt() == 1);
  if (descriptor) {
    offsets.elems.assign(rank, SValue::integer(0));
    std::string padding = stringArg(cg, a, 4, "padding_option", "zero");
    if (padding != "zero" && padding != "nan")
      cg.fail(a.loc, "padding_option must be \"zero\" or \"nan\", found \"" + padding + "\"");
    if (padding == "nan" && !base.v->type().pointee().isFloat()) cg.fail(a.loc, "padding_option \"nan\" needs a float tensor");
    order = SValue::str(padding);
  }
  for (auto &e : shape.elems) e = SValue::tensor(cg.toTensor(e, a.loc, Type::i64()));
  for (auto &e : strides.elems) e = SValue::tensor(cg.toTensor(e, a.loc, Type::i64()));
  for (auto &e : offsets.elems) e = SValue::tensor(cg.toTensor(e, a.loc, Type::i64()));
  SValue r = SValue::blockPtr({base, shape, strides, offsets, block, order}, descriptor);
  // A target may copy its blocks with a tensor map when its base, extents
  // and strides turn out to be kernel arguments or constants (ir/IR.h). A
  // block pointer's too, where its rows are a map's (16 bytes or more, at
  // most 5 dimensions) and its loads check every dimension (doLoad).
  int64_t rowBytes = blockShape.back() * std::max(1, base.v->type().pointee().bitWidth() / 8);
  r.tensorMapReady = unitLastStride && (descriptor ? order.s == "zero" : rowBytes >= 16 && rank <= 5);
  return r;
}

SValue advance(CodeGen &cg, CallArgs &a) {
  cg.checkArgs(a, {"base", "offsets"});
  SValue bp = cg.requireArg(a, 0, "base");
  SValue offs = cg.requireArg(a, 1, "offsets");
  if (!bp.is(Kind::BlockPtr) || bp.isDescriptor) cg.fail(a.loc, "tl.advance needs a block pointer, found " + bp.describe());
  if (!offs.is(Kind::Tuple) || offs.elems.size() != bp.elems[3].elems.size())
    cg.fail(a.loc, "tl.advance needs one offset per dimension of the block pointer");
  for (size_t i = 0; i < offs.elems.size(); ++i) {
    SValue sum = cg.binary(BinaryOp::Add, bp.elems[3].elems[i], offs.elems[i], a.loc);
    bp.elems[3].elems[i] = SValue::tensor(cg.toTensor(sum, a.loc, Type::i64()));
  }
  return bp;
}

// desc.<method>(offsets, ...)'s offsets (one per dimension) and the block
// they select, bounds-checked in every dimension.
BlockAccess descriptorBlock(CodeGen &cg, CallArgs &a, const SValue &d, SValue &offs) {
  offs = cg.requireArg(a, 1, "offsets");
  if (!offs.is(Kind::Tuple)) offs = SValue::tuple({offs});
  size_t rank = d.elems[4].elems.size();
  if (offs.elems.size() != rank) cg.fail(a.loc, "the descriptor has " + std::to_string(rank) + " dimensions; give one offset each");
  std::vector<int64_t> all;
  for (size_t i = 0; i < rank; ++i) all.push_back(int64_t(i));
  return blockAccess(cg, d, offs.elems, all, a.loc);
}

SValue descriptorAccess(CodeGen &cg, CallArgs &a, bool store) {
  if (store) cg.checkArgs(a, {"self", "offsets", "value"});
  else cg.checkArgs(a, {"self", "offsets"});
  SValue d = a.positional[0], offs;
  BlockAccess acc = descriptorBlock(cg, a, d, offs);
  ir::Builder &b = cg.builder();
  Type elem = acc.ptrs->type().pointee();
  auto withBlock = [&](std::vector<ir::Value *> ops) { return blockOperands(cg, d, offs.elems, std::move(ops), a.loc); };
  if (store) {
    ir::Value *v = cg.broadcastTo(cg.toTensor(cg.requireArg(a, 2, "value"), a.loc, elem), acc.ptrs->type().shape(), a.loc);
    if (tensorMapMayCopy(d)) b.create(OpCode::DescStore, withBlock({acc.ptrs, v, acc.mask}), {});
    else b.create(OpCode::Store, {acc.ptrs, v, acc.mask}, {});
    return SValue::none();
  }
  double pad = d.elems[5].is(Kind::Str) && d.elems[5].s == "nan" ? std::nan("") : 0.0;
  ir::Value *zero = cg.splatTo(elem.isFloat() ? cg.constant(pad, elem) : cg.constant(BigInt(0), elem), acc.ptrs->type().shape(), a.loc);
  Type result = acc.ptrs->type().withElement(elem);
  if (tensorMapMayCopy(d)) return tensorValue(b.createValue(OpCode::DescLoad, withBlock({acc.ptrs, acc.mask, zero}), result));
  return tensorValue(b.createValue(OpCode::Load, {acc.ptrs, acc.mask, zero}, result));
}

// desc.atomic_add(offsets, value) and the other reductions into a block
// (Triton's descriptor reduce): the elementwise atomic on the block's
// in-bounds elements, returning nothing. The dtypes are Triton's; 16-bit
// float min/max need Hopper's TMA in Triton, so only nvptx takes them.
SValue descriptorAtomic(CodeGen &cg, CallArgs &a, const std::string &kind) {
  cg.checkArgs(a, {"self", "offsets", "value"});
  SValue d = a.positional[0], offs;
  BlockAccess acc = descriptorBlock(cg, a, d, offs);
  Type elem = acc.ptrs->type().pointee();
  bool floats16 = elem.isFloat() && elem.bitWidth() == 16;
  bool ok = kind == "add" ? (elem.isInteger() ? elem.bitWidth() == 32 || (elem.bitWidth() == 64 && !elem.isSigned())
                                              : elem.bitWidth() <= 32)
            : kind == "min" || kind == "max" ? (elem.isInteger() ? elem.bitWidth() >= 32 : floats16 && cg.target() == "nvptx")
                                             : elem.isInteger() && elem.bitWidth() >= 32;
  if (!ok)
    cg.fail(a.loc, "descriptor atomic_" + kind + " does not take " + dtypeName(elem) + " elements" +
                       (floats16 && (kind == "min" || kind == "max")
                            ? " on " + cg.target() + " (Triton's 16-bit float min and max need Hopper's TMA)" : ""));
  SValue value = cg.requireArg(a, 2, "value");
  if (!value.isTensor() || value.v->type().shape() != acc.ptrs->type().shape())
    cg.fail(a.loc, "descriptor atomic_" + kind + "'s value must have the block's shape " + acc.ptrs->type().str() +
                       ", found " + value.describe());
  CallArgs rmw;
  rmw.loc = a.loc;
  rmw.callee = "atomic_" + kind;
  rmw.positional = {SValue::tensor(acc.ptrs), SValue::tensor(cg.toTensor(value, a.loc, elem))};
  rmw.positionalLocs = {a.loc, a.loc};
  if (acc.mask) rmw.keywords.push_back({"mask", SValue::tensor(acc.mask)});
  rmw.keywords.push_back({"sem", SValue::str("relaxed")});
  cg.callBuiltin("atomic_" + kind, rmw, a.loc);
  return SValue::none();
}

// desc.gather(rows, column) / desc.scatter(value, rows, column) (Triton's,
// for 2-D descriptors with a one-row block): the block's row at each index
// of `rows` (a 1-D tile), from `column` on; out-of-bounds elements read as
// zero and are not written.
SValue descriptorRows(CodeGen &cg, CallArgs &a, bool scatter) {
  if (scatter) cg.checkArgs(a, {"self", "value", "x_offsets", "y_offset"});
  else cg.checkArgs(a, {"self", "x_offsets", "y_offset"});
  const char *what = scatter ? "descriptor scatter" : "descriptor gather";
  SValue d = a.positional[0];
  const std::vector<SValue> &block = d.elems[4].elems;
  if (block.size() != 2 || block[0].i != 1) {
    std::string shape;
    for (const SValue &dim : block) shape += (shape.empty() ? "" : ", ") + std::to_string(int64_t(dim.i));
    cg.fail(a.loc, std::string(what) + " needs a 2-D descriptor whose block is one row, found block [" + shape + "]");
  }
  SValue rows = cg.requireArg(a, scatter ? 2 : 1, "x_offsets");
  if (!rows.isTensor() || rows.v->type().rank() != 1 || !rows.v->type().element().isInteger())
    cg.fail(a.loc, std::string(what) + "'s row offsets must be a 1-D integer tile, found " + rows.describe());
  ir::Builder &b = cg.builder();
  Type idx = Type::i64();
  int64_t nRows = rows.v->type().shape()[0], nCols = int64_t(block[1].i);
  std::vector<int64_t> tile = {nRows, nCols};
  ir::Value *r = cg.broadcastTo(expandDims(cg, b.cast(rows.v, idx), 1), tile, a.loc);
  ir::Value *col = b.sameType(OpCode::Add, {b.splat(cg.toTensor(cg.requireArg(a, scatter ? 3 : 2, "y_offset"), a.loc, idx), {nCols}),
                                            b.cast(b.arange(0, nCols), idx)});
  ir::Value *c = cg.broadcastTo(expandDims(cg, col, 0), tile, a.loc);
  const std::vector<SValue> &shape = d.elems[1].elems, &strides = d.elems[2].elems;
  auto splat = [&](const SValue &v) { return cg.splatTo(cg.toTensor(v, a.loc, idx), tile, a.loc); };
  ir::Value *offset = b.sameType(OpCode::Add, {b.sameType(OpCode::Mul, {r, splat(strides[0])}),
                                               b.sameType(OpCode::Mul, {c, splat(strides[1])})});
  ir::Value *ptrs = cg.splatTo(cg.toTensor(d.elems[0], a.loc), tile, a.loc);
  ptrs = b.createValue(OpCode::AddPtr, {ptrs, offset}, ptrs->type());
  ir::Value *zero = cg.splatTo(cg.constant(BigInt(0), idx), tile, a.loc);
  auto inside = [&](ir::Value *i, const SValue &extent) {
    return b.sameType(OpCode::And, {b.cmp("ge", i, zero), b.cmp("lt", i, splat(extent))});
  };
  ir::Value *mask = b.sameType(OpCode::And, {inside(r, shape[0]), inside(c, shape[1])});
  Type elem = ptrs->type().pointee();
  if (scatter) {
    ir::Value *v = cg.broadcastTo(cg.toTensor(cg.requireArg(a, 1, "value"), a.loc, elem), tile, a.loc);
    b.create(OpCode::Store, {ptrs, v, mask}, {});
    return SValue::none();
  }
  ir::Value *other = cg.splatTo(elem.isFloat() ? cg.constant(0.0, elem) : cg.constant(BigInt(0), elem), tile, a.loc);
  return tensorValue(b.createValue(OpCode::Load, {ptrs, mask, other}, ptrs->type().withElement(elem)));
}

SValue devicePrint(CodeGen &cg, CallArgs &a) {
  std::string prefix;
  size_t first = 0;
  if (!a.positional.empty() && a.positional[0].is(Kind::Str)) prefix = a.positional[0].s, first = 1;
  std::vector<ir::Value *> vals;
  for (size_t i = first; i < a.positional.size(); ++i) vals.push_back(cg.toTensor(a.positional[i], a.loc));
  // Triton's normal form: a prefix before values ends in ": ", and one
  // longer than that starts with a space ("x" prints as "... idx (3) x: 7").
  if (!vals.empty()) {
    if (prefix.empty() || prefix.back() != ' ') prefix += ' ';
    if (prefix.size() < 2 || prefix.compare(prefix.size() - 2, 2, ": ") != 0) prefix = prefix.substr(0, prefix.size() - 1) + ": ";
  }
  if (prefix.size() > 2 && prefix.front() != ' ') prefix = " " + prefix;
  ir::AttrDict attrs;
  attrs.set("prefix", ir::Attribute(prefix));
  for (auto &[k, v] : a.keywords)
    if (k != "hex") cg.fail(a.loc, "device_print() got an unexpected keyword argument '" + k + "'");
  if (boolArg(cg, a, 1000, "hex", false)) attrs.set("hex", ir::Attribute(true));
  cg.builder().create(OpCode::Print, vals, {}, std::move(attrs));
  return SValue::none();
}

std::string describeForPrint(const SValue &v) {
  if (v.is(Kind::Str)) return v.s;
  if (v.isConstexpr()) return v.key();
  return v.describe();
}

BigInt requireConstInt(CodeGen &cg, const SValue &v, SourceLoc loc, const char *what) {
  if (v.is(Kind::Bool)) return v.b;
  if (!v.is(Kind::Int)) cg.fail(loc, std::string(what) + " must be a compile-time integer, found " + v.describe());
  return v.i;
}

// Every builtin by name.
// One-hot: for an integer tile `ints`, the i1 tile of its shape plus a last
// dim of `n` that is true at [..., k] where ints[...] == k (histogram, gather).
ir::Value *oneHot(CodeGen &cg, ir::Value *ints, int64_t n, SourceLoc loc) {
  std::vector<int64_t> shape = ints->type().shape(), wide = shape, ones(shape.size(), 1);
  wide.push_back(n);
  ones.push_back(n);
  shape.push_back(1);
  ir::Builder &b = cg.builder();
  ir::Value *k = cg.broadcastTo(reshape(cg, cg.cast(b.arange(0, n), Type::i64(), loc), ones, false, loc), wide, loc);
  ir::Value *v = cg.broadcastTo(reshape(cg, cg.cast(ints, Type::i64(), loc), shape, false, loc), wide, loc);
  return b.cmp("eq", v, k);
}

// A tile's dimension `dim` (2^k long) seen as k axes of 2, the index's most
// significant bit first: flip and sort work on one index bit at a time.
struct BinaryAxes {
  BinaryAxes(CodeGen &cg, CallArgs &a, const std::string &what) : cg(cg), loc(a.loc) {
    input = cg.tensorArg(a, 0, "x");
    if (!input->type().isTile()) cg.fail(a.loc, what + " needs a tile, found " + input->type().str());
    shape = input->type().shape();
    int64_t rank = int64_t(shape.size());
    SValue d = cg.argOr(a, 1, "dim", SValue::none());
    dim = d.is(Kind::None) ? rank - 1 : int64_t(cg.intArg(a, 1, "dim"));
    if (dim < 0) dim += rank;
    if (dim < 0 || dim >= rank)
      cg.fail(a.loc, what + ": dim " + std::to_string(dim) + " is out of range for a tile of rank " + std::to_string(rank));
    while ((int64_t(1) << k) < shape[size_t(dim)]) ++k;
    std::vector<int64_t> binary(shape.begin(), shape.begin() + dim);
    binary.insert(binary.end(), size_t(k), 2);
    binary.insert(binary.end(), shape.begin() + dim + 1, shape.end());
    view = k ? reshape(cg, input, binary, false, loc) : input;
  }
  // The axis of index bit `b` (0: the least significant).
  int64_t axisOfBit(int64_t b) const { return dim + k - 1 - b; }
  // y with the two halves (lo, hi) along binary `axis` replaced by f(lo, hi).
  template <typename F> ir::Value *onHalves(ir::Value *y, int64_t axis, F &&f) {
    int64_t r = y->type().rank();
    std::vector<int64_t> last, back(size_t(r), 0);
    for (int64_t d = 0; d < r; ++d)
      if (d != axis) last.push_back(d);
    last.push_back(axis);
    for (int64_t d = 0; d < r; ++d) back[size_t(last[size_t(d)])] = d;
    ir::Value *t = trans(cg, y, last, loc);
    std::vector<int64_t> half(t->type().shape().begin(), t->type().shape().end() - 1);
    ir::Operation *sp = cg.builder().create(OpCode::Split, {t}, {t->type().withShape(half), t->type().withShape(half)});
    auto [lo, hi] = f(sp->result(0), sp->result(1));
    return trans(cg, cg.builder().createValue(OpCode::Join, {lo, hi}, t->type()), back, loc);
  }
  // In a half of onHalves(..., `without`) of type `half`: where binary axis
  // `axis` (of the whole) is 1.
  ir::Value *bitIsSet(Type half, int64_t axis, int64_t without) {
    int64_t pos = axis < without ? axis : axis - 1;  // the halves dropped `without`
    std::vector<int64_t> ones(size_t(half.rank()), 1);
    ones[size_t(pos)] = 2;
    ir::Value *i = reshape(cg, cg.builder().arange(0, 2), ones, false, loc);
    ir::Value *one = cg.builder().constantInt(1, i->type().withShape(ones));
    ir::Value *set = cg.builder().cmp("eq", i, one);
    return cg.broadcastTo(set, half.shape(), loc);
  }
  ir::Value *restore(ir::Value *y) { return reshape(cg, y, shape, false, loc); }

  CodeGen &cg;
  SourceLoc loc;
  ir::Value *input = nullptr, *view = nullptr;
  std::vector<int64_t> shape;
  int64_t dim = 0, k = 0;
};

// One stage of Triton's bitonic network (standard.py's
// _bitonic_merge_hypercube) on a BinaryAxes view: compare-and-swap across
// index bits stage-1 .. 0, each pair (lo, hi) put in descending order where
// `flip` is set: bit `flipBit` of the index, or everywhere iff `descending`
// when flipBit < 0. As Triton's, each element takes its partner's value
// where (element > partner) != (flip ^ it is the pair's hi): NaN compares
// false, so a pair holding NaN becomes two copies of one of its values
// (lo's without flip, hi's with it) and -0.0 and 0.0 likewise, as in Triton.
ir::Value *bitonicStage(BinaryAxes &bits, ir::Value *y, int64_t stage, int64_t flipBit, bool descending) {
  CodeGen &cg = bits.cg;
  ir::Builder &b = cg.builder();
  for (int64_t t = stage - 1; t >= 0; --t) {
    int64_t axis = bits.axisOfBit(t);
    y = bits.onHalves(y, axis, [&](ir::Value *lo, ir::Value *hi) {
      ir::Value *gt = b.cmp("gt", lo, hi), *lt = b.cmp("gt", hi, lo);
      if (flipBit >= 0) {
        ir::Value *down = bits.bitIsSet(lo->type(), bits.axisOfBit(flipBit), axis);
        gt = b.sameType(OpCode::Xor, {gt, down});
        lt = b.sameType(OpCode::Xor, {lt, down});
      } else if (descending) {
        std::swap(lo, hi);  // select(!c, hi, lo) is select(c, lo, hi)
      }
      return std::make_pair(b.select(gt, hi, lo), b.select(lt, hi, lo));
    });
  }
  return y;
}

// Functions only libdevice has (tl.extra.libdevice.<name>): the math_fn op's
// `fn` values (ir/Ops.def).
const char *const kLibdeviceOnly[] = {"tanh",  "sinh",  "cosh",  "tan",   "asin",   "acos",   "atan",
                                      "asinh", "acosh", "atanh", "exp10", "expm1",  "log10",  "log1p",
                                      "cbrt",  "erfc",  "lgamma", "tgamma", "trunc", "round", "rint",
                                      "j0",    "j1",    "y0",     "y1"};

// tl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack):
// the arguments broadcast to one shape; one result per dtype.
SValue inlineAsmElementwise(CodeGen &cg, CallArgs &a) {
  cg.checkArgs(a, {"asm", "constraints", "args", "dtype", "is_pure", "pack"});
  std::string asmText = stringArg(cg, a, 0, "asm", "");
  std::string constraints = stringArg(cg, a, 1, "constraints", "");
  SValue argsV = cg.requireArg(a, 2, "args");
  std::vector<SValue> items = argsV.is(Kind::Tuple) ? argsV.elems : std::vector<SValue>{argsV};
  SValue dtypeV = cg.requireArg(a, 3, "dtype");
  bool multiple = dtypeV.is(Kind::Tuple);
  std::vector<Type> types;
  for (const SValue &d : multiple ? dtypeV.elems : std::vector<SValue>{dtypeV}) types.push_back(cg.dtypeArg(d, a.loc));
  if (types.empty()) cg.fail(a.loc, "inline_asm_elementwise needs at least one result dtype");
  bool pure = boolArg(cg, a, 4, "is_pure", false);
  BigInt pack = cg.intArg(a, 5, "pack", 1);
  if (pack < 1 || pack > 16 || (pack & (pack - 1)) != 0)
    cg.fail(a.loc, "inline_asm_elementwise's pack must be a power of two from 1 to 16, found " + bigIntToString(pack));
  std::vector<ir::Value *> operands;
  for (const SValue &v : items) operands.push_back(cg.toTensor(v, a.loc));
  std::vector<int64_t> shape = cg.broadcastShapes(operands, a.loc);
  for (ir::Value *&v : operands) v = cg.broadcastTo(v, shape, a.loc);
  std::vector<Type> results;
  for (Type t : types) results.push_back(shape.empty() ? t : Type::tile(shape, t));
  ir::AttrDict attrs;
  attrs.set("asm", ir::Attribute(asmText));
  attrs.set("constraints", ir::Attribute(constraints));
  attrs.set("pure", ir::Attribute(pure));
  attrs.set("pack", ir::Attribute(int64_t(pack)));
  ir::Operation *op = cg.builder().create(OpCode::InlineAsm, operands, results, std::move(attrs));
  if (!multiple) return tensorValue(op->result(0));
  std::vector<SValue> outs;
  for (unsigned i = 0; i < op->numResults(); ++i) outs.push_back(tensorValue(op->result(i)));
  return SValue::tuple(std::move(outs));
}

} // namespace

// Element `index` of a tile as a scalar, on every target: its bits masked in
// and OR-reduced (the element may live in one thread of a GPU program; a
// reduction makes a scalar every thread holds).
ir::Value *extractElement(CodeGen &cg, ir::Value *v, int64_t index, SourceLoc loc) {
  Type t = v->type();
  int64_t n = t.numElements();
  // One element: a reshape to rank 0 (every thread of a GPU program holds it).
  if (n == 1) return cg.builder().createValue(OpCode::Reshape, {v}, t.element());
  if (t.element().isPointer()) {
    ir::Value *bits = extractElement(cg, cg.cast(v, Type::i64(), loc), index, loc);
    return cg.cast(bits, t.element(), loc);
  }
  if (t.rank() != 1) v = reshape(cg, v, {n}, false, loc);
  // The element's bits as a signed integer (a bool widened to i8).
  Type e = t.element();
  int bits = e.isBool() ? 8 : e.bitWidth();
  Type it = Type::scalar(bits == 8 ? ir::ScalarKind::I8 : bits == 16 ? ir::ScalarKind::I16
                         : bits == 32 ? ir::ScalarKind::I32 : ir::ScalarKind::I64);
  ir::Value *x = e == it ? v : cg.cast(v, it, loc, /*bitcast=*/!e.isBool());
  ir::Value *at = cg.builder().cmp("eq", cg.builder().arange(0, n), cg.builder().constantInt(index, Type::tile({n}, Type::i32())));
  ir::Value *zero = cg.builder().constantInt(0, x->type());
  ir::Value *kept = cg.builder().createValue(OpCode::Select, {at, x, zero}, x->type());
  ir::Value *r = reduceOrScan(cg, false, {kept}, 0, false, scalarCombine(cg, [](ir::Builder &rb, std::vector<ir::Value *> a) {
                                return std::vector<ir::Value *>{rb.sameType(OpCode::Or, {a[0], a[1]})};
                              }), loc)[0];
  return e == it ? r : cg.cast(r, e, loc, /*bitcast=*/!e.isBool());
}

namespace {

const std::unordered_map<std::string, Handler> &handlers() {
  static const std::unordered_map<std::string, Handler> table = [] {
    std::unordered_map<std::string, Handler> t;
    // ---- programs and construction
    t["program_id"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"axis"});
      ir::AttrDict attrs;
      BigInt axis = cg.intArg(a, 0, "axis", 0);
      if (axis < 0 || axis > 2)
        cg.fail(a.loc, a.callee + " axis must be 0, 1, or 2 but got " + bigIntToString(axis));
      attrs.set("axis", ir::Attribute(int64_t(axis)));
      return tensorValue(cg.builder().createValue(a.callee == "num_programs" ? OpCode::NumPrograms : OpCode::ProgramId, {},
                                                  Type::i32(), std::move(attrs)));
    };
    t["num_programs"] = t["program_id"];
    t["arange"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"start", "end"});
      BigInt start = cg.intArg(a, 0, "start"), end = cg.intArg(a, 1, "end");
      if (start < 0 || end <= start || end > (BigInt(1) << 31))
        cg.fail(a.loc, "tl.arange needs 0 <= start < end < 2**31, found " + bigIntToString(start) + ", " + bigIntToString(end));
      BigInt n = end - start;
      if ((n & (n - 1)) != 0) cg.fail(a.loc, "tl.arange's range must have a power-of-two length, found " + bigIntToString(n));
      return tensorValue(cg.builder().arange(int64_t(start), int64_t(end)));
    };
    t["full"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"shape", "value", "dtype"});
      std::vector<int64_t> shape = cg.shapeArg(cg.requireArg(a, 0, "shape"), a.loc);
      Type dt = cg.dtypeArg(cg.requireArg(a, 2, "dtype"), a.loc);
      SValue v = cg.requireArg(a, 1, "value");
      if (v.isTensor() && v.v->type().isTile()) cg.fail(a.loc, "tl.full needs a scalar value, found " + v.v->type().str());
      return tensorValue(cg.splatTo(cg.toTensor(v, a.loc, dt), shape, a.loc));
    };
    t["zeros"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"shape", "dtype"});
      std::vector<int64_t> shape = cg.shapeArg(cg.requireArg(a, 0, "shape"), a.loc);
      Type dt = cg.dtypeArg(cg.requireArg(a, 1, "dtype"), a.loc);
      return tensorValue(cg.splatTo(dt.isFloat() ? cg.constant(0.0, dt) : cg.constant(BigInt(0), dt), shape, a.loc));
    };
    t["zeros_like"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"input"});
      ir::Value *v = cg.tensorArg(a, 0, "input");
      Type dt = v->type().element();
      return tensorValue(cg.splatTo(dt.isFloat() ? cg.constant(0.0, dt) : cg.constant(BigInt(0), dt), v->type().shape(), a.loc));
    };
    t["full_like"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"input", "value", "dtype"});
      ir::Value *like = cg.tensorArg(a, 0, "input");
      SValue dtArg = cg.argOr(a, 2, "dtype", SValue::none());
      Type dt = dtArg.is(Kind::None) ? like->type().element() : cg.dtypeArg(dtArg, a.loc);
      SValue v = cg.requireArg(a, 1, "value");
      if (v.isTensor() && v.v->type().isTile()) cg.fail(a.loc, "tl.full_like needs a scalar value, found " + v.v->type().str());
      return tensorValue(cg.splatTo(cg.toTensor(v, a.loc, dt), like->type().shape(), a.loc));
    };
    t["cdiv"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"x", "div"});
      SValue x = cg.requireArg(a, 0, "x"), d = cg.requireArg(a, 1, "div");
      SValue num = cg.binary(BinaryOp::Sub, cg.binary(BinaryOp::Add, x, d, a.loc), SValue::integer(1), a.loc);
      return cg.binary(BinaryOp::FloorDiv, num, d, a.loc);
    };
    t["next_power_of_2"] = [](CodeGen &cg, CallArgs &a) {
      BigInt n = cg.intArg(a, 0, "n");
      BigInt p = 1;
      while (p < n) p <<= 1;
      return SValue::integer(p);
    };
    // ---- memory
    t["load"] = doLoad;
    t["store"] = doStore;
    for (const char *k : {"add", "max", "min", "and", "or", "xor", "xchg", "cas"}) {
      std::string kind = k;
      t[std::string("atomic_") + k] = [kind](CodeGen &cg, CallArgs &a) { return doAtomic(cg, a, kind); };
    }
    t["make_block_ptr"] = [](CodeGen &cg, CallArgs &a) { return makeBlockPtr(cg, a, false); };
    t["make_tensor_descriptor"] = [](CodeGen &cg, CallArgs &a) { return makeBlockPtr(cg, a, true); };
    t["advance"] = advance;
    t["desc.load"] = [](CodeGen &cg, CallArgs &a) { return descriptorAccess(cg, a, false); };
    t["desc.store"] = [](CodeGen &cg, CallArgs &a) { return descriptorAccess(cg, a, true); };
    for (const char *k : {"add", "min", "max", "and", "or", "xor"}) {
      std::string kind = k;
      t["desc.atomic_" + kind] = [kind](CodeGen &cg, CallArgs &a) { return descriptorAtomic(cg, a, kind); };
    }
    t["desc.gather"] = [](CodeGen &cg, CallArgs &a) { return descriptorRows(cg, a, false); };
    t["desc.scatter"] = [](CodeGen &cg, CallArgs &a) { return descriptorRows(cg, a, true); };
    // tl.load_tensor_descriptor(desc, offsets) / tl.store_tensor_descriptor(desc, offsets, value)
    for (bool store : {false, true})
      t[store ? "store_tensor_descriptor" : "load_tensor_descriptor"] = [store](CodeGen &cg, CallArgs &a) {
        SValue d = cg.requireArg(a, 0, "desc");
        if (!d.is(Kind::BlockPtr) || !d.isDescriptor)
          cg.fail(a.loc, a.callee + "() needs a tensor descriptor, found " + d.describe());
        CallArgs m = a;  // as the method desc.load / desc.store: the descriptor first, positionally
        m.keywords.clear();
        for (auto &kv : a.keywords)
          if (kv.first != "desc") m.keywords.push_back(kv);
        if (a.positional.empty()) m.positional.insert(m.positional.begin(), d);
        return descriptorAccess(cg, m, store);
      };
    // ---- shapes
    t["where"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"condition", "x", "y"});
      SValue c = cg.requireArg(a, 0, "condition"), x = cg.requireArg(a, 1, "x"), y = cg.requireArg(a, 2, "y");
      if (c.isConstexpr()) return c.truthy() ? x : y;
      ir::Value *cond = cg.toTensor(c, a.loc);
      if (!cond->type().isBool()) cond = cg.cast(cond, Type::i1(), a.loc);
      auto [xv, yv] = typedPair(cg, x, y, a.loc, false);
      std::vector<int64_t> shape = cg.broadcastShapes({cond, xv}, a.loc);
      cond = cg.broadcastTo(cond, shape, a.loc);
      xv = cg.broadcastTo(xv, shape, a.loc);
      yv = cg.broadcastTo(yv, shape, a.loc);
      return tensorValue(cg.builder().select(cond, xv, yv));
    };
    t["broadcast_to"] = [](CodeGen &cg, CallArgs &a) {
      ir::Value *v = cg.tensorArg(a, 0, "input");
      std::vector<int64_t> shape = varShape(cg, a, 1, "shape");
      return tensorValue(cg.broadcastTo(v, shape, a.loc));
    };
    t["broadcast"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"input", "other"});
      ir::Value *x = cg.tensorArg(a, 0, "input"), *y = cg.tensorArg(a, 1, "other");
      cg.broadcastPair(x, y, a.loc);
      return SValue::tuple({tensorValue(x), tensorValue(y)});
    };
    t["expand_dims"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"input", "axis"});
      ir::Value *v = cg.tensorArg(a, 0, "input");
      SValue ax = cg.requireArg(a, 1, "axis");
      std::vector<SValue> axes = ax.is(Kind::Tuple) ? ax.elems : std::vector<SValue>{ax};
      int64_t newRank = v->type().rank() + int64_t(axes.size());
      std::vector<int64_t> norm;
      for (auto &x : axes) norm.push_back(normAxis(cg, requireConstInt(cg, x, a.loc, "axis"), newRank, a.loc));
      std::sort(norm.begin(), norm.end());
      if (std::adjacent_find(norm.begin(), norm.end()) != norm.end()) {
        std::string list;
        for (int64_t x : norm) list += (list.empty() ? "" : ", ") + std::to_string(x);
        cg.fail(a.loc, "expand_dims: duplicate axes, normalized axes = [" + list + "]");
      }
      for (int64_t x : norm) v = expandDims(cg, v, x);
      return tensorValue(v);
    };
    t["reshape"] = [](CodeGen &cg, CallArgs &a) {
      ir::Value *v = cg.tensorArg(a, 0, "input");
      bool reorder = boolArg(cg, a, 1000, "can_reorder", false);
      for (auto it = a.keywords.begin(); it != a.keywords.end(); ++it)
        if (it->first == "can_reorder") {
          a.keywords.erase(it);
          break;
        }
      return tensorValue(reshape(cg, v, varShape(cg, a, 1, "shape"), reorder, a.loc));
    };
    t["view"] = [](CodeGen &cg, CallArgs &a) {
      ir::Value *v = cg.tensorArg(a, 0, "input");
      return tensorValue(reshape(cg, v, varShape(cg, a, 1, "shape"), true, a.loc));
    };
    t["ravel"] = [](CodeGen &cg, CallArgs &a) {
      ir::Value *v = cg.tensorArg(a, 0, "x");
      return tensorValue(reshape(cg, v, {v->type().numElements()}, boolArg(cg, a, 1, "can_reorder", false), a.loc));
    };
    t["trans"] = [](CodeGen &cg, CallArgs &a) {
      ir::Value *v = cg.tensorArg(a, 0, "input");
      std::vector<int64_t> dims = varInts(cg, a, 1, "dims");
      if (dims.empty()) {  // the last two dimensions swap (a batched 2-D transpose, as Triton's)
        int64_t rank = v->type().rank();
        if (rank < 2) cg.fail(a.loc, "tl.trans without dims needs a tile of rank 2 or more, found " + v->type().str());
        for (int64_t d = 0; d < rank; ++d) dims.push_back(d);
        std::swap(dims[size_t(rank - 2)], dims[size_t(rank - 1)]);
      }
      return tensorValue(trans(cg, v, dims, a.loc));
    };
    t["permute"] = [](CodeGen &cg, CallArgs &a) {
      ir::Value *v = cg.tensorArg(a, 0, "input");
      return tensorValue(trans(cg, v, varInts(cg, a, 1, "dims"), a.loc));
    };
    t["split"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"a"});
      ir::Value *v = cg.tensorArg(a, 0, "a");
      Type t = v->type();
      if (!t.isTile() || t.shape().back() != 2) cg.fail(a.loc, "tl.split needs a tile whose last dimension is 2, found " + t.str());
      std::vector<int64_t> shape(t.shape().begin(), t.shape().end() - 1);
      if (shape.empty())  // a pair of scalars
        return SValue::tuple({tensorValue(extractElement(cg, v, 0, a.loc)), tensorValue(extractElement(cg, v, 1, a.loc))});
      Type r = t.withShape(shape);
      ir::Operation *op = cg.builder().create(OpCode::Split, {v}, {r, r});
      return SValue::tuple({tensorValue(op->result(0)), tensorValue(op->result(1))});
    };
    t["map_elementwise"] = mapElementwise;
    t["inline_asm_elementwise"] = inlineAsmElementwise;
    t["item"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"input"});
      ir::Value *v = cg.tensorArg(a, 0, "input");
      Type t = v->type();
      if (!t.isTile()) return tensorValue(v);
      if (t.numElements() != 1) cg.fail(a.loc, "item() needs a tile of one element, found " + t.str());
      return tensorValue(extractElement(cg, v, 0, a.loc));
    };
    t["join"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"a", "b"});
      auto [x, y] = typedPair(cg, cg.requireArg(a, 0, "a"), cg.requireArg(a, 1, "b"), a.loc, false);
      std::vector<int64_t> shape = x->type().shape();
      shape.push_back(2);
      return tensorValue(cg.builder().createValue(OpCode::Join, {x, y}, Type::tile(shape, x->type().element())));
    };
    t["flip"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"x", "dim"});
      BinaryAxes bits(cg, a, "tl.flip");
      if (bits.k == 0) return tensorValue(bits.input);
      // Index i of the dim goes to n-1-i, which complements each bit of i.
      ir::Value *y = bits.view;
      for (int64_t axis = bits.dim; axis < bits.dim + bits.k; ++axis)
        y = bits.onHalves(y, axis, [](ir::Value *lo, ir::Value *hi) { return std::make_pair(hi, lo); });
      return tensorValue(bits.restore(y));
    };
    // histogram(input, num_bins[, mask]): counts of 0 .. num_bins-1 among a
    // 1-D tile's values (others are not counted), as int32: a one-hot
    // [n, num_bins] comparison summed over n.
    t["histogram"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"input", "num_bins", "mask"});
      ir::Value *in = cg.tensorArg(a, 0, "input");
      Type t = in->type();
      if (!t.isTile() || t.rank() != 1 || !t.element().isInteger() || t.element().isBool())
        cg.fail(a.loc, "tl.histogram needs a 1-D tile of integers, found " + t.str());
      BigInt bins = cg.intArg(a, 1, "num_bins");
      if (bins < 1 || (bins & (bins - 1)) || bins > (BigInt(1) << 20))
        cg.fail(a.loc, "tl.histogram: num_bins must be a power of two up to 2^20, found " + bigIntToString(bins));
      int64_t n = t.shape()[0], b = int64_t(bins);
      if (n * b > (int64_t(1) << 20))
        cg.fail(a.loc, "tl.histogram of " + std::to_string(n) + " values into " + std::to_string(b) +
                           " bins needs a tile of more than 2^20 elements; split the input");
      ir::Builder &bld = cg.builder();
      ir::Value *hit = oneHot(cg, in, b, a.loc);
      SValue maskV = cg.argOr(a, 2, "mask", SValue::none());
      if (!maskV.is(Kind::None)) {
        ir::Value *m = cg.toTensor(maskV, a.loc);
        if (m->type().isTile() && m->type().shape() != t.shape())
          cg.fail(a.loc, "tl.histogram's mask must have the input's shape " + t.str() + ", found " + m->type().str());
        if (!m->type().isBool()) m = cg.cast(m, Type::i1(), a.loc);
        m = m->type().isTile() ? reshape(cg, m, {n, 1}, false, a.loc) : m;
        hit = bld.sameType(OpCode::And, {hit, cg.broadcastTo(m, {n, b}, a.loc)});
      }
      CallArgs sum;
      sum.loc = a.loc;
      sum.positional = {tensorValue(cg.cast(hit, Type::i32(), a.loc)), SValue::integer(0)};
      return cg.callBuiltin("sum", sum, a.loc);
    };
    // gather(src, index, axis): out[..i..] = src[..index[..i..]..] along `axis`
    // (the other dims of index and src agree); an index outside the axis gives 0.
    t["gather"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"src", "index", "axis"});
      ir::Value *src = cg.tensorArg(a, 0, "src"), *index = cg.tensorArg(a, 1, "index");
      Type st = src->type(), it = index->type();
      if (!st.isTile() || !it.isTile() || st.rank() != it.rank())
        cg.fail(a.loc, "tl.gather needs a source and an index tile of one rank, found " + st.str() + " and " + it.str());
      if (!it.element().isInteger() || it.element().isBool())
        cg.fail(a.loc, "tl.gather's index must be integers, found " + it.str());
      Type elem = st.element();
      if (elem.isBool() || elem.isPointer()) cg.fail(a.loc, "tl.gather needs numbers to gather, found " + st.str());
      int64_t r = st.rank(), axis = int64_t(cg.intArg(a, 2, "axis"));
      if (axis < 0) axis += r;
      if (axis < 0 || axis >= r)
        cg.fail(a.loc, "tl.gather: axis " + std::to_string(axis) + " is out of range for tiles of rank " + std::to_string(r));
      for (int64_t d = 0; d < r; ++d)
        if (d != axis && st.shape()[size_t(d)] != it.shape()[size_t(d)])
          cg.fail(a.loc, "tl.gather: the index " + it.str() + " and the source " + st.str() + " differ in dim " +
                             std::to_string(d) + " (only the gathered axis may)");
      ir::AttrDict attrs;
      attrs.set("axis", ir::Attribute(axis));
      return tensorValue(cg.builder().createValue(OpCode::Gather, {src, index}, Type::tile(it.shape(), elem), std::move(attrs)));
    };
    t["sort"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"x", "dim", "descending"});
      BinaryAxes bits(cg, a, "tl.sort");
      bool descending = boolArg(cg, a, 2, "descending", false);
      if (bits.input->type().element().isBool() || bits.input->type().element().isPointer())
        cg.fail(a.loc, "tl.sort needs numbers, found " + bits.input->type().str());
      ir::Value *y = bits.view;
      for (int64_t s = 1; s <= bits.k; ++s) y = bitonicStage(bits, y, s, s < bits.k ? s : -1, descending);
      return tensorValue(bits.restore(y));
    };
    // topk(x, k, dim=None, descending=True): Triton's bitonic top-k. Runs of
    // k are sorted (in alternating directions while more remain), then
    // repeatedly each run is paired with the next, the larger (smaller unless
    // descending) of each pair kept by tl.max (tl.min) and the runs merged
    // again, until one run of k is left: the same network as Triton's, so
    // NaN (which compares false, and which tl.max drops) ends where Triton's
    // does; tl.max's widening of 8- and 16-bit values carries to the result
    // when k < n, as in Triton.
    t["topk"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"x", "k", "dim", "descending"});
      CallArgs view = a;  // BinaryAxes reads x and dim (positional 0 and 1)
      view.positional.resize(std::min<size_t>(a.positional.size(), 1));
      if (a.positional.size() > 2) view.positional.push_back(a.positional[2]);
      BinaryAxes bits(cg, view, "tl.topk");
      if (bits.dim != bits.input->type().rank() - 1)
        cg.fail(a.loc, "tl.topk: only the last dimension is supported (as in Triton)");
      if (bits.input->type().element().isBool() || bits.input->type().element().isPointer())
        cg.fail(a.loc, "tl.topk needs numbers, found " + bits.input->type().str());
      BigInt kv = cg.intArg(a, 1, "k");
      int64_t n = int64_t(1) << bits.k;
      if (kv < 1 || kv > BigInt(n) || (kv & (kv - 1)) != 0)
        cg.fail(a.loc, "tl.topk: k must be a power of two from 1 to the dimension's " + std::to_string(n) + ", found " +
                           bigIntToString(kv));
      bool descending = boolArg(cg, a, 3, "descending", true);
      int64_t logK = 0, logN = bits.k;
      while ((int64_t(1) << logK) < int64_t(kv)) ++logK;
      ir::Value *y = bits.view;
      for (int64_t s = 1; s <= logK; ++s) y = bitonicStage(bits, y, s, s < logN ? s : -1, descending);
      for (int64_t s = logK + 1; s <= logN; ++s) {
        CallArgs r;
        r.loc = a.loc;
        r.positional = {tensorValue(y), SValue::integer(bits.axisOfBit(logK))};
        y = cg.callBuiltin(descending ? "max" : "min", r, a.loc).v;
        --bits.k;  // the pair's bit is gone; the bits above it move down one
        y = bitonicStage(bits, y, logK, s < logN ? logK : -1, descending);
      }
      bits.shape[size_t(bits.dim)] = int64_t(kv);
      return tensorValue(bits.restore(y));
    };
    t["cat"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"input", "other", "can_reorder", "dim"});
      ir::Value *x = cg.tensorArg(a, 0, "input"), *y = cg.tensorArg(a, 1, "other");
      if (x->type() != y->type() || !x->type().isTile())
        cg.fail(a.loc, "tl.cat needs two tiles of the same type, found " + x->type().str() + " and " + y->type().str());
      int64_t rank = x->type().rank(), dim = normAxis(cg, cg.intArg(a, 3, "dim", 0), rank, a.loc);
      // Along `dim`: that dimension first, the cat (which joins along the first), and back.
      std::vector<int64_t> order{dim}, back(static_cast<size_t>(rank));
      for (int64_t d = 0; d < rank; ++d)
        if (d != dim) order.push_back(d);
      for (int64_t i = 0; i < rank; ++i) back[size_t(order[size_t(i)])] = i;
      auto permute = [&](ir::Value *v, const std::vector<int64_t> &o) { return dim == 0 ? v : trans(cg, v, o, a.loc); };
      x = permute(x, order), y = permute(y, order);
      std::vector<int64_t> shape = x->type().shape();
      shape[0] *= 2;
      return tensorValue(permute(cg.builder().createValue(OpCode::Cat, {x, y}, Type::tile(shape, x->type().element())), back));
    };
    // ---- algebra
    t["dot"] = dot;
    for (const char *n : {"sum", "xor_sum", "reduce_or", "max", "min", "argmax", "argmin"}) {
      std::string name = n;
      t[name] = [name](CodeGen &cg, CallArgs &a) { return reduceBuiltin(cg, a, name); };
    }
    t["cumsum"] = [](CodeGen &cg, CallArgs &a) { return scanBuiltin(cg, a, OpCode::Add); };
    t["cumprod"] = [](CodeGen &cg, CallArgs &a) { return scanBuiltin(cg, a, OpCode::Mul); };
    t["reduce"] = [](CodeGen &cg, CallArgs &a) { return userCombine(cg, a, false); };
    t["associative_scan"] = [](CodeGen &cg, CallArgs &a) { return userCombine(cg, a, true); };
    // ---- math
    struct M { const char *name; OpCode code; bool approx; bool ints; };
    for (M m : {M{"exp", OpCode::Exp, true, false}, M{"exp2", OpCode::Exp2, true, false}, M{"log", OpCode::Log, false, false},
                M{"log2", OpCode::Log2, false, false}, M{"sqrt", OpCode::Sqrt, true, false}, M{"sqrt_rn", OpCode::Sqrt, false, false},
                M{"rsqrt", OpCode::Rsqrt, true, false}, M{"sin", OpCode::Sin, false, false}, M{"cos", OpCode::Cos, false, false},
                M{"abs", OpCode::Abs, false, true}, M{"floor", OpCode::Floor, false, false}, M{"ceil", OpCode::Ceil, false, false},
                M{"erf", OpCode::Erf, false, false}}) {
      t[m.name] = [m](CodeGen &cg, CallArgs &a) { return mathUnary(cg, a, m.code, m.approx, m.ints); };
      // libdevice.<name> (tl.extra.cuda.libdevice, triton.language.extra.libdevice): the accurate
      // version, but for rsqrt, whose libdevice contract (__nv_rsqrtf) is the approximate one.
      t[std::string("libdevice.") + m.name] = [m](CodeGen &cg, CallArgs &a) {
        return mathUnary(cg, a, m.code, m.code == OpCode::Rsqrt, m.ints);
      };
    }
    // libdevice's other <math.h> functions (one math_fn op, its `fn` the name).
    for (const char *n : kLibdeviceOnly) {
      std::string name = n;
      t["libdevice." + name] = [name](CodeGen &cg, CallArgs &a) {
        ir::AttrDict attrs;
        attrs.set("fn", ir::Attribute(name));
        return mathUnary(cg, a, OpCode::MathFn, false, false, std::move(attrs));
      };
    }
    for (const char *n : {"pow", "atan2", "hypot", "fmod", "copysign"}) {
      std::string name = n;
      t["libdevice." + name] = [name](CodeGen &cg, CallArgs &a) {
        cg.checkArgs(a, {"x", "y"});
        SValue xs = cg.requireArg(a, 0, "x"), ys = cg.requireArg(a, 1, "y");
        auto [x, y] = typedPair(cg, xs.is(Kind::Int) ? SValue::floating(double(xs.i)) : xs,
                                ys.is(Kind::Int) ? SValue::floating(double(ys.i)) : ys, a.loc, true);
        ir::AttrDict attrs;
        attrs.set("fn", ir::Attribute(name));
        return tensorValue(cg.builder().sameType(OpCode::MathFn2, {x, y}, std::move(attrs)));
      };
    }
    // jn(n, x), yn(n, x): n an integer, carried as a float of x's type (Ops.def).
    for (const char *n : {"jn", "yn"}) {
      std::string name = n;
      t["libdevice." + name] = [name](CodeGen &cg, CallArgs &a) {
        cg.checkArgs(a, {"n", "x"});
        SValue ns = cg.requireArg(a, 0, "n"), xs = cg.requireArg(a, 1, "x");
        ir::Value *x = cg.toTensor(xs.is(Kind::Int) ? SValue::floating(double(xs.i)) : xs, a.loc);
        if (!x->type().element().isFloat()) cg.fail(a.loc, "libdevice." + name + " takes a floating-point x");
        ir::Value *order = cg.toTensor(ns, a.loc);
        if (!order->type().element().isInteger())
          cg.fail(a.loc, "libdevice." + name + " takes an integer order n, found " + order->type().element().str());
        // fp16 and bf16 compute in fp32 and round back, as the rest of libdevice here
        // (Triton's jn/yn take fp32 and fp64 only).
        Type xt = x->type().element(), ft = xt.bitWidth() < 32 ? Type::f32() : xt;
        x = cg.cast(x, ft, a.loc);
        order = cg.cast(cg.cast(order, Type::i32(), a.loc), ft, a.loc);
        std::vector<int64_t> shape = cg.broadcastShapes({x, order}, a.loc);
        x = cg.broadcastTo(x, shape, a.loc), order = cg.broadcastTo(order, shape, a.loc);
        ir::AttrDict attrs;
        attrs.set("fn", ir::Attribute(name));
        ir::Value *r = cg.builder().sameType(OpCode::MathFn2, {order, x}, std::move(attrs));
        return tensorValue(xt == ft ? r : cg.cast(r, xt, a.loc));
      };
    }
    t["fma"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"x", "y", "z"});
      SValue xs = cg.requireArg(a, 0, "x"), ys = cg.requireArg(a, 1, "y"), zs = cg.requireArg(a, 2, "z");
      auto [x, y] = typedPair(cg, xs, ys, a.loc, true);
      ir::Value *z = cg.toTensor(zs, a.loc, x->type().element());
      std::vector<int64_t> shape = cg.broadcastShapes({x, z}, a.loc);
      x = cg.broadcastTo(x, shape, a.loc), y = cg.broadcastTo(y, shape, a.loc), z = cg.broadcastTo(z, shape, a.loc);
      return tensorValue(cg.builder().sameType(OpCode::Fma, {x, y, z}));
    };
    t["fdiv"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"x", "y", "ieee_rounding"});
      return fdiv(cg, a, boolArg(cg, a, 2, "ieee_rounding", false));
    };
    t["div_rn"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"x", "y"});
      return fdiv(cg, a, true);
    };
    t["umulhi"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"x", "y"});
      auto [x, y] = typedPair(cg, cg.requireArg(a, 0, "x"), cg.requireArg(a, 1, "y"), a.loc, false);
      if (!x->type().isInteger()) cg.fail(a.loc, "tl.umulhi needs integers");
      // Triton's umulhi is the high half of the unsigned product whatever the
      // signedness (MulhiUIOp); MulHi reads signedness from its type.
      Type t = x->type().element();
      if (!t.isSigned()) return tensorValue(cg.builder().sameType(OpCode::MulHi, {x, y}));
      Type u = Type::scalar(t.bitWidth() == 64 ? ir::ScalarKind::U64 : t.bitWidth() == 32 ? ir::ScalarKind::U32
                            : t.bitWidth() == 16 ? ir::ScalarKind::U16 : ir::ScalarKind::U8);
      ir::Value *hi = cg.builder().sameType(OpCode::MulHi, {cg.cast(x, u, a.loc, true), cg.cast(y, u, a.loc, true)});
      return tensorValue(cg.cast(hi, t, a.loc, true));
    };
    t["maximum"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"x", "y", "propagate_nan"});
      auto [x, y] = typedPair(cg, cg.requireArg(a, 0, "x"), cg.requireArg(a, 1, "y"), a.loc, false);
      return tensorValue(cg.minMax(a.callee == "minimum", x, y, propagateNanArg(cg, a, 2), a.loc));
    };
    t["minimum"] = t["maximum"];
    t["clamp"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"x", "min", "max", "propagate_nan"});
      SValue xs = cg.requireArg(a, 0, "x");
      auto [x, lo] = typedPair(cg, xs, cg.requireArg(a, 1, "min"), a.loc, true);
      ir::Value *hi = cg.toTensor(cg.requireArg(a, 2, "max"), a.loc, x->type().element());
      bool nan = propagateNanArg(cg, a, 3);
      ir::Value *r = cg.minMax(false, x, lo, nan, a.loc);
      return tensorValue(cg.minMax(true, r, hi, nan, a.loc));
    };
    t["cast"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"input", "dtype", "fp_downcast_rounding", "bitcast"});
      SValue in = cg.requireArg(a, 0, "input");
      Type dt = cg.dtypeArg(cg.requireArg(a, 1, "dtype"), a.loc);
      std::string rounding = stringArg(cg, a, 2, "fp_downcast_rounding", "");
      if (!rounding.empty() && rounding != "rtne" && rounding != "rtz")
        cg.fail(a.loc, "fp_downcast_rounding must be \"rtne\" or \"rtz\", found \"" + rounding + "\"");
      ir::Value *v = cg.toTensor(in, a.loc);
      return tensorValue(cg.cast(v, dt, a.loc, boolArg(cg, a, 3, "bitcast", false), rounding));
    };
    t["to"] = t["cast"];
    // ---- hints and debugging
    t["multiple_of"] = [](CodeGen &cg, CallArgs &a) { return hint(cg, a, "divisibility"); };
    t["max_contiguous"] = [](CodeGen &cg, CallArgs &a) { return hint(cg, a, "contiguity"); };
    t["max_constancy"] = [](CodeGen &cg, CallArgs &a) { return hint(cg, a, "constancy"); };
    t["assume"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"cond"});
      SValue c = cg.requireArg(a, 0, "cond");
      if (c.isConstexpr()) {
        if (!c.truthy()) cg.fail(a.loc, "tl.assume of a condition that is False at compile time");
        return SValue::none();
      }
      ir::Value *v = cg.toTensor(c, a.loc);
      if (v->type() != Type::i1()) cg.fail(a.loc, "tl.assume needs a scalar boolean, found " + v->type().str());
      cg.builder().create(OpCode::Assume, {v}, {});
      return SValue::none();
    };
    // ---- tl.extra.cuda and tl.extra.hip: hardware registers; tl.extra.cuda: launch facts,
    // programmatic dependent launch
    for (const char *key : {"extra.cuda.globaltimer", "extra.cuda.smid", "extra.hip.memrealtime"}) {
      std::string name = std::string(key).substr(std::string(key).rfind('.') + 1);
      t[key] = [name](CodeGen &cg, CallArgs &a) {
        cg.checkArgs(a, {});
        ir::AttrDict attrs;
        attrs.set("name", ir::Attribute(name));
        return tensorValue(cg.builder().createValue(OpCode::HardwareRegister, {},
                                                    name == "smid" ? Type::i32() : Type::i64(), std::move(attrs)));
      };
    }
    // Triton's software fp8e4b15 conversions (the two differ only in the
    // PTX they use): fp8e4b15 -> fp16 or fp32, fp16 or fp32 -> fp8e4b15.
    for (const char *key : {"extra.cuda.convert_custom_float8_sm70", "extra.cuda.convert_custom_float8_sm80"}) {
      t[key] = [](CodeGen &cg, CallArgs &a) {
        cg.checkArgs(a, {"arg", "dst_ty", "fp_downcast_rounding"});
        ir::Value *x = cg.tensorArg(a, 0, "arg");
        Type to = cg.dtypeArg(cg.requireArg(a, 1, "dst_ty"), a.loc).element(), from = x->type().element();
        Type e4b15 = Type::scalar(ir::ScalarKind::F8E4B15), f16 = Type::scalar(ir::ScalarKind::F16);
        bool up = from == e4b15 && (to == f16 || to == Type::f32()), down = to == e4b15 && (from == f16 || from == Type::f32());
        if (!up && !down)
          cg.fail(a.loc, "tl." + a.callee + " converts fp8e4b15 to fp16 or fp32, or fp16 or fp32 to fp8e4b15, not " +
                             dtypeName(from) + " to " + dtypeName(to));
        return tensorValue(cg.cast(x, to, a.loc));
      };
    }
    t["extra.cuda.num_warps"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {});
      return SValue::integer(cg.numWarps());
    };
    t["extra.cuda.num_threads"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {});
      return SValue::integer(int64_t(cg.numWarps()) * cg.warpSize());
    };
    for (const char *n : {"wait", "launch_dependents"}) {
      std::string action = n;
      t["extra.cuda.gdc_" + action] = [action](CodeGen &cg, CallArgs &a) {
        cg.checkArgs(a, {});
        ir::AttrDict attrs;
        attrs.set("action", ir::Attribute(action));
        cg.builder().create(OpCode::GridDependency, {}, {}, std::move(attrs));
        return SValue::none();
      };
    }
    // tl.condition(cond, disable_licm=False): a while loop's test.
    t["condition"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"arg", "disable_licm"});
      if (boolArg(cg, a, 1, "disable_licm", false)) cg.requestNoLicm();
      return cg.requireArg(a, 0, "arg");
    };
    t["debug_barrier"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {});
      cg.builder().create(OpCode::Barrier, {}, {});
      return SValue::none();
    };
    t["static_assert"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"cond", "msg"});
      SValue c = cg.requireArg(a, 0, "cond");
      if (!c.isConstexpr()) cg.fail(a.loc, "tl.static_assert needs a compile-time condition, found " + c.describe());
      if (!c.truthy()) {
        SValue m = cg.argOr(a, 1, "msg", SValue::str(""));
        cg.fail(a.loc, "static_assert failed" + (m.is(Kind::Str) && !m.s.empty() ? ": " + m.s : std::string()));
      }
      return SValue::none();
    };
    t["static_print"] = [](CodeGen &cg, CallArgs &a) {
      std::string line;
      for (auto &v : a.positional) line += (line.empty() ? "" : " ") + describeForPrint(v);
      std::fprintf(stderr, "%s\n", line.c_str());
      return SValue::none();
    };
    t["device_print"] = devicePrint;
    t["device_assert"] = [](CodeGen &cg, CallArgs &a) {
      cg.checkArgs(a, {"cond", "msg", "mask"});
      SValue c = cg.requireArg(a, 0, "cond");
      std::string msg = stringArg(cg, a, 1, "msg", "");
      // With a mask, Triton checks cond | ~mask: a masked-off element passes.
      SValue maskV = cg.argOr(a, 2, "mask", SValue::none());
      if (maskV.isConstexpr() && !maskV.is(Kind::None)) {
        if (!maskV.truthy()) return SValue::none();  // nothing is checked
        maskV = SValue::none();
      }
      if (c.isConstexpr() && maskV.is(Kind::None)) {
        if (!c.truthy()) cg.fail(a.loc, "device_assert of a condition that is False at compile time: " + msg);
        return SValue::none();
      }
      if (c.isConstexpr() && c.truthy()) return SValue::none();
      auto boolTensor = [&](const SValue &x) {
        ir::Value *t = cg.toTensor(x, a.loc);
        return t->type().isBool() ? t : cg.cast(t, Type::i1(), a.loc);
      };
      ir::Value *v = boolTensor(c);
      if (!maskV.is(Kind::None)) {
        ir::Value *m = boolTensor(maskV);
        cg.broadcastPair(v, m, a.loc);
        v = cg.builder().sameType(OpCode::Or, {v, cg.builder().sameType(OpCode::Not, {m})});
      }
      ir::AttrDict attrs;
      attrs.set("message", ir::Attribute(msg));
      cg.builder().create(OpCode::Assert, {v}, {}, std::move(attrs));
      return SValue::none();
    };
    // ---- compile-time helpers
    t["constexpr"] = [](CodeGen &cg, CallArgs &a) {
      SValue v = cg.requireArg(a, 0, "value");
      if (!v.isConstexpr()) cg.fail(a.loc, "tl.constexpr() needs a compile-time value, found " + v.describe());
      return v;
    };
    t["pointer_type"] = [](CodeGen &cg, CallArgs &a) {
      return SValue::dtype(Type::pointer(cg.dtypeArg(cg.requireArg(a, 0, "element_ty"), a.loc)));
    };
    t["to_tensor"] = [](CodeGen &cg, CallArgs &a) { return tensorValue(cg.tensorArg(a, 0, "x")); };
    t["static_range"] = [](CodeGen &cg, CallArgs &a) -> SValue { cg.fail(a.loc, "tl.static_range is usable only in a for loop"); };
    t["range"] = [](CodeGen &cg, CallArgs &a) -> SValue { cg.fail(a.loc, "tl.range is usable only in a for loop"); };
    // Triton's dtype predicates, each a fact about the type.
    using S = ir::ScalarKind;
    auto scalarIs = [](S k) { return [k](Type t) { return t.isScalar() && t.scalarKind() == k; }; };
    const std::pair<const char *, std::function<bool(Type)>> kDTypePredicates[] = {
        {"is_floating", [](Type t) { return t.isFloat(); }},
        {"is_standard_floating",
         [](Type t) {
           return t.isFloat() && !(t.scalarKind() == S::F8E4M3 || t.scalarKind() == S::F8E5M2 || t.scalarKind() == S::F8E4B15);
         }},
        {"is_int", [](Type t) { return t.isInteger(); }},
        {"is_int_signed", [](Type t) { return t.isSigned(); }},
        {"is_int_unsigned", [](Type t) { return t.isUnsigned(); }},
        {"is_ptr", [](Type t) { return t.isPointer(); }},
        {"is_bool", [](Type t) { return t.isBool(); }},
        {"is_int1", [](Type t) { return t.isBool(); }},
        {"is_fp8", [](Type t) {
           return t.isScalar() && (t.scalarKind() == S::F8E4M3 || t.scalarKind() == S::F8E5M2 || t.scalarKind() == S::F8E4B15);
         }},
        {"is_fp8e4nv", scalarIs(S::F8E4M3)}, {"is_fp8e5", scalarIs(S::F8E5M2)},
        {"is_fp8e4b8", [](Type) { return false; }}, {"is_fp8e4b15", scalarIs(S::F8E4B15)},
        {"is_fp8e5b16", [](Type) { return false; }},
        {"is_fp16", scalarIs(S::F16)}, {"is_bf16", scalarIs(S::BF16)}, {"is_fp32", scalarIs(S::F32)},
        {"is_fp64", scalarIs(S::F64)},
        {"is_int8", scalarIs(S::I8)}, {"is_int16", scalarIs(S::I16)}, {"is_int32", scalarIs(S::I32)},
        {"is_int64", scalarIs(S::I64)}, {"is_uint8", scalarIs(S::U8)}, {"is_uint16", scalarIs(S::U16)},
        {"is_uint32", scalarIs(S::U32)}, {"is_uint64", scalarIs(S::U64)},
        // Tessera's dtypes are scalars and pointers: never void, block or const.
        {"is_void", [](Type) { return false; }}, {"is_block", [](Type) { return false; }},
        {"is_const", [](Type) { return false; }},
    };
    for (const auto &[name, holds] : kDTypePredicates)
      t[std::string("dtype.") + name] = [holds = holds](CodeGen &, CallArgs &a) {
        return SValue::boolean(holds(a.positional[0].type));
      };
    // ---- Python builtins
    t["py.range"] = t["range"];
    t["py.len"] = [](CodeGen &cg, CallArgs &a) {
      SValue v = cg.requireArg(a, 0, "obj");
      if (v.is(Kind::Tuple)) return SValue::integer(BigInt(v.elems.size()));
      if (v.isTensor() && v.v->type().isTile()) return SValue::integer(v.v->type().shape()[0]);
      cg.fail(a.loc, "len() of " + v.describe());
    };
    t["py.min"] = [](CodeGen &cg, CallArgs &a) {
      std::vector<SValue> items = a.positional.size() == 1 && a.positional[0].is(Kind::Tuple) ? a.positional[0].elems : a.positional;
      if (items.empty()) cg.fail(a.loc, a.callee + "() needs at least one argument");
      bool isMin = a.callee == "min";
      SValue acc = items[0];
      for (size_t i = 1; i < items.size(); ++i) {
        if (acc.isConstexpr() && items[i].isConstexpr()) {
          SValue less = cg.compare(CmpOp::Lt, items[i], acc, a.loc);
          SValue more = cg.compare(CmpOp::Gt, items[i], acc, a.loc);
          if (isMin ? less.truthy() : more.truthy()) acc = items[i];
        } else {
          auto [x, y] = typedPair(cg, acc, items[i], a.loc, false);
          acc = tensorValue(cg.minMax(isMin, x, y, false, a.loc));
        }
      }
      return acc;
    };
    t["py.max"] = t["py.min"];
    t["py.abs"] = [](CodeGen &cg, CallArgs &a) {
      SValue v = cg.requireArg(a, 0, "x");
      if (v.is(Kind::Int)) return SValue::integer(v.i < 0 ? -v.i : v.i);
      if (v.is(Kind::Float)) return SValue::floating(std::fabs(v.f));
      return mathUnary(cg, a, OpCode::Abs, false, true);
    };
    t["py.int"] = [](CodeGen &cg, CallArgs &a) {
      SValue v = cg.requireArg(a, 0, "x");
      if (v.is(Kind::Float)) return SValue::integer(BigInt(std::trunc(v.f)));
      if (v.is(Kind::Int) || v.is(Kind::Bool)) return SValue::integer(v.is(Kind::Bool) ? BigInt(v.b) : v.i);
      cg.fail(a.loc, "int() of " + v.describe() + " (use x.to(tl.int32) for tensors)");
    };
    t["py.float"] = [](CodeGen &cg, CallArgs &a) {
      SValue v = cg.requireArg(a, 0, "x");
      if (v.is(Kind::Str)) {
        char *end = nullptr;
        double d = std::strtod(v.s.c_str(), &end);
        if (v.s.empty() || *end) cg.fail(a.loc, "could not convert string to float: '" + v.s + "'");
        return SValue::floating(d);
      }
      if (!v.isConstexpr() || !v.isNumber()) cg.fail(a.loc, "float() of " + v.describe() + " (use x.to(tl.float32) for tensors)");
      return SValue::floating(v.is(Kind::Float) ? v.f : v.is(Kind::Bool) ? double(v.b) : double(v.i));
    };
    t["py.bool"] = [](CodeGen &cg, CallArgs &a) {
      SValue v = cg.requireArg(a, 0, "x");
      if (!v.isConstexpr()) cg.fail(a.loc, "bool() of a tensor is not known at compile time");
      return SValue::boolean(v.truthy());
    };
    // Python's print in a kernel is Triton's: tl.device_print at run time, its
    // first argument the prefix.
    t["py.print"] = [](CodeGen &cg, CallArgs &a) {
      if (a.positional.empty() || !a.positional[0].is(Kind::Str))
        cg.fail(a.loc, "print() in a kernel prints at run time, as tl.device_print: its first argument must be a "
                       "string prefix, as in print(\"x:\", x) (tl.static_print prints at compile time)");
      return devicePrint(cg, a);
    };
    t["py.tuple"] = [](CodeGen &cg, CallArgs &a) {
      SValue v = cg.requireArg(a, 0, "x");
      if (!v.is(Kind::Tuple)) cg.fail(a.loc, "tuple() of " + v.describe());
      return SValue::tuple(v.elems);  // a namedtuple's elements, without its fields, as in Python
    };
    t["py.list"] = t["py.tuple"];
    // __namedtuple__("Point", ("x", "y"), (1, 2)): a namedtuple in a
    // compile-time value's text (parseConstexpr's scope only).
    t["internal.namedtuple"] = [](CodeGen &cg, CallArgs &a) {
      SValue name = cg.requireArg(a, 0, "name"), fields = cg.requireArg(a, 1, "fields"), values = cg.requireArg(a, 2, "values");
      bool ok = name.is(Kind::Str) && fields.is(Kind::Tuple) && values.is(Kind::Tuple) && fields.elems.size() == values.elems.size();
      std::vector<std::string> names;
      for (size_t i = 0; ok && i < fields.elems.size(); ++i) {
        ok = fields.elems[i].is(Kind::Str);
        names.push_back(fields.elems[i].s);
      }
      if (!ok) cg.fail(a.loc, "__namedtuple__ takes a name, a tuple of field names and a tuple of as many values");
      return SValue::namedTuple(name.s, std::move(names), values.elems);
    };
    t["constexpr_type"] = [](CodeGen &cg, CallArgs &a) {
      SValue v = cg.requireArg(a, 0, "value");
      if (!v.isConstexpr()) cg.fail(a.loc, "tl.constexpr_type() takes a compile-time value, not " + v.describe());
      return SValue::constexprType(v);
    };
    // Over tuples, while compiling (a comprehension's iterables).
    t["py.enumerate"] = [](CodeGen &cg, CallArgs &a) {
      SValue v = cg.requireArg(a, 0, "iterable");
      if (!v.is(Kind::Tuple)) cg.fail(a.loc, "enumerate() in a kernel takes a tuple, not " + v.describe());
      BigInt start = cg.intArg(a, 1, "start", BigInt(0));
      std::vector<SValue> pairs;
      for (const SValue &e : v.elems) pairs.push_back(SValue::tuple({SValue::integer(start++), e}));
      return SValue::tuple(std::move(pairs));
    };
    t["py.zip"] = [](CodeGen &cg, CallArgs &a) {
      if (!a.keywords.empty()) cg.fail(a.loc, "zip() in a kernel takes no keyword arguments");
      size_t n = a.positional.empty() ? 0 : std::numeric_limits<size_t>::max();
      for (const SValue &v : a.positional) {
        if (!v.is(Kind::Tuple)) cg.fail(a.loc, "zip() in a kernel takes tuples, not " + v.describe());
        n = std::min(n, v.elems.size());
      }
      std::vector<SValue> rows;
      for (size_t i = 0; i < n; ++i) {
        std::vector<SValue> row;
        for (const SValue &v : a.positional) row.push_back(v.elems[i]);
        rows.push_back(SValue::tuple(std::move(row)));
      }
      return SValue::tuple(std::move(rows));
    };
    // Introspection of compile-time facts (Triton kernels branch on them).
    t["py.isinstance"] = [](CodeGen &cg, CallArgs &a) {
      SValue v = cg.requireArg(a, 0, "obj"), classes = cg.requireArg(a, 1, "class_or_tuple");
      bool any = false;
      for (const SValue &c : classes.is(Kind::Tuple) ? classes.elems : std::vector<SValue>{classes}) {
        if (!c.is(Kind::Builtin)) cg.fail(a.loc, "isinstance() needs a class or a tuple of classes, found " + c.describe());
        const std::string &n = c.s;
        if (n == "tensor") any |= v.isTensor();
        else if (n == "constexpr") any |= v.isConstexpr();
        else if (n == "py.int") any |= v.is(Kind::Int) || v.is(Kind::Bool);
        else if (n == "py.float") any |= v.is(Kind::Float);
        else if (n == "py.bool") any |= v.is(Kind::Bool);
        else if (n == "constexpr_type") any |= v.is(Kind::ConstexprType);
        else if (n == "py.tuple" || n == "py.list") any |= v.is(Kind::Tuple);
        else if (n == "dtype") any |= v.is(Kind::DType);
        else if (n == "pointer_type") any |= v.is(Kind::DType) && v.type.isPointer();
        else if (n == "tensor_descriptor") any |= v.is(Kind::BlockPtr) && v.isDescriptor;
        else
          cg.fail(a.loc, "isinstance() in a kernel knows tl.tensor, tl.tensor_descriptor, tl.constexpr, tl.dtype, "
                         "tl.pointer_type, int, float, bool and tuple, not " + c.describe());
      }
      return SValue::boolean(any);
    };
    t["py.getattr"] = [](CodeGen &cg, CallArgs &a) {
      SValue v = cg.requireArg(a, 0, "obj"), name = cg.requireArg(a, 1, "name");
      if (!name.is(Kind::Str)) cg.fail(a.loc, "getattr() needs the attribute's name as a string, found " + name.describe());
      if (a.positional.size() < 3) return cg.getAttribute(v, name.s, a.loc);
      try {
        return cg.getAttribute(v, name.s, a.loc);
      } catch (const CompileError &) {
        return a.positional[2];
      }
    };
    t["py.hasattr"] = [](CodeGen &cg, CallArgs &a) {
      SValue v = cg.requireArg(a, 0, "obj"), name = cg.requireArg(a, 1, "name");
      if (!name.is(Kind::Str)) cg.fail(a.loc, "hasattr() needs the attribute's name as a string, found " + name.describe());
      try {
        cg.getAttribute(v, name.s, a.loc);
        return SValue::boolean(true);
      } catch (const CompileError &) {
        return SValue::boolean(false);
      }
    };
    return t;
  }();
  return table;
}

const char *const kMathNames[] = {"exp", "exp2", "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "sin", "cos", "abs",
                                  "floor", "ceil", "fma", "erf", "fdiv", "div_rn", "umulhi", "max", "min",
                                  "maximum", "minimum", "clamp", "sigmoid", "softmax", "cdiv"};

} // namespace

bool isBuiltinName(const std::string &name) {
  if (handlers().count(name)) return true;
  return name == "jit" || name == "tensor" || name == "dtype" || name == "tensor_descriptor";
}

bool isMathName(const std::string &name) {
  for (const char *n : kMathNames)
    if (name == n) return true;
  return false;
}

// A compile-time value as a Python literal for a constexpr function's
// arguments (dtypes as tl.str_to_ty("fp32")); false for values Python cannot
// be given (tensors, functions, pointer types).
bool pythonLiteral(const SValue &v, std::string &out) {
  switch (v.kind) {
  case Kind::None: case Kind::Bool: case Kind::Int: case Kind::Str: out += v.key(); return true;
  case Kind::Float:
    if (std::isnan(v.f)) out += "float('nan')";
    else if (std::isinf(v.f)) out += v.f > 0 ? "float('inf')" : "float('-inf')";
    else out += v.key();
    return true;
  case Kind::DType:
    if (v.type.isPointer()) return false;
    out += "tl.str_to_ty(\"" + dtypeName(v.type) + "\")";
    return true;
  case Kind::Tuple:
    if (!v.fields.empty()) {  // __namedtuple__("Point", ("x", "y", ), (1, 2, ))
      out += "__namedtuple__(" + ir::quoteString(v.s) + ", (";
      for (const std::string &f : v.fields) out += ir::quoteString(f) + ", ";
      out += "), ";
    }
    out += "(";
    for (auto &e : v.elems) {
      if (!pythonLiteral(e, out)) return false;
      out += ", ";
    }
    out += v.fields.empty() ? ")" : "))";
    return true;
  default: return false;
  }
}

std::string pythonCallArguments(const CallArgs &args,
                                const std::function<void(const SValue &, const std::string &, std::string &)> &appendArgument) {
  std::string text = "((";
  for (size_t i = 0; i < args.positional.size(); ++i) {
    appendArgument(args.positional[i], "argument " + std::to_string(i + 1), text);
    text += ", ";
  }
  text += "), {";
  for (auto &[k, v] : args.keywords) {
    text += ir::quoteString(k) + ": ";
    appendArgument(v, "argument '" + k + "'", text);
    text += ", ";
  }
  return text + "})";
}

SValue CodeGen::callConstexprFunction(const std::string &id, CallArgs &args, SourceLoc loc) {
  std::string name = id.substr(0, id.find('@'));
  if (!constexprCall_) fail(loc, "constexpr function " + name + " cannot be called here: no Python to run it");
  std::string text = pythonCallArguments(args, [&](const SValue &v, const std::string &what, std::string &out) {
    if (!pythonLiteral(v, out))
      fail(loc, "constexpr function " + name + " takes compile-time values; its " + what + " is " + v.describe());
  });
  std::string result;
  if (!constexprCall_(id, text, result)) fail(loc, "constexpr function " + name + " raised " + result);
  auto value = parseConstexpr(result);
  if (!value) fail(loc, "constexpr function " + name + " returned " + result + ", which is not a compile-time value");
  return *value;
}

SValue CodeGen::callBuiltin(const std::string &name, CallArgs &args, SourceLoc loc) {
  args.loc = loc;
  if (args.callee.empty()) args.callee = name;
  std::string key = name;
  if (key.rfind("tessera.", 0) == 0) fail(loc, "tessera." + key.substr(8) + " cannot be called inside a kernel");
  if (key.rfind("constexpr_function:", 0) == 0) return callConstexprFunction(key.substr(19), args, loc);
  if (key.rfind("extern_function:", 0) == 0) return callExternFunction(key.substr(16), args, loc);
  auto &table = handlers();
  auto it = table.find(key);
  if (it == table.end()) {
    if (auto p = prelude_.find(key); p != prelude_.end()) return callJit(*p->second, args, loc, true);
    fail(loc, "'" + name + "' cannot be called inside a kernel");
  }
  std::string display = args.callee.rfind("py.", 0) == 0 ? args.callee.substr(3) : args.callee;
  args.callee = display;
  b_.setLoc(irLoc(loc));
  SValue r = it->second(*this, args);
  // A pointer computed from a const pointer (broadcast, reshape, ...) stays const.
  if (r.isTensor() && r.v && r.v->type().element().isPointer()) {
    for (const SValue &v : args.positional) r.constPtr |= v.isTensor() && v.constPtr;
    for (const auto &kv : args.keywords) r.constPtr |= kv.second.isTensor() && kv.second.constPtr;
  }
  return r;
}

} // namespace tessera::frontend
