#include "ir/Verifier.h"

#include "ir/Layouts.h"
#include "ir/Printer.h"

#include <algorithm>
#include <sstream>
#include <unordered_set>

namespace tessera::ir {
namespace {

struct Checker {
  const Module &module;
  std::vector<std::string> &errors;
  const Operation *op = nullptr;

  bool fail(const std::string &msg) {
    errors.push_back(op->loc().str() + ": error: '" + op->name() + "' op " + msg);
    return false;
  }
};

using Hook = bool (*)(const Operation &, Checker &);

std::string shapeStr(Type t) {
  std::string s = "[";
  for (size_t i = 0; i < t.shape().size(); ++i) s += (i ? ", " : "") + std::to_string(t.shape()[i]);
  return s + "]";
}

bool sameShape(Type a, Type b) { return a.shape() == b.shape(); }

bool isNumericElement(Type t) { return t.element().isScalar(); }

bool expectType(Checker &c, const char *what, Type got, Type want) {
  if (got == want) return true;
  return c.fail(std::string(what) + ": expected " + want.str() + ", got " + got.str());
}

// For results whose layout the op does not decide (layout assignment picks
// it): compare shape and element only.
bool expectShapeAndElement(Checker &c, const char *what, Type got, Type want) {
  return expectType(c, what, got.withShape(got.shape()), want.withShape(want.shape()));
}

bool expectBoolLike(Checker &c, const char *what, Type t, Type shapeOf) {
  if (!t.isBool()) return c.fail(std::string(what) + ": expected i1 elements, got " + t.str());
  if (!sameShape(t, shapeOf))
    return c.fail(std::string(what) + ": expected shape " + shapeStr(shapeOf) + ", got " + t.str());
  return true;
}

// ---- per-op hooks

bool verifyConstant(const Operation &op, Checker &c) {
  Type t = op.result()->type();
  if (!isNumericElement(t)) return c.fail("result: expected an integer or float type, got " + t.str());
  const Attribute &v = *op.attr("value");
  if (t.isFloat() && !v.isFloat()) return c.fail("attribute 'value': expected a float for " + t.str());
  if (t.isInteger() && !v.isInt()) return c.fail("attribute 'value': expected an integer for " + t.str());
  if (t.isBool() && v.getInt() != 0 && v.getInt() != 1)
    return c.fail("attribute 'value': expected 0 or 1 for i1, got " + v.str());
  return true;
}

bool verifyCmp(const Operation &op, Checker &c) {
  Type a = op.operand(0)->type();
  if (op.operand(1)->type() != a)
    return c.fail("operand #1: expected " + a.str() + " (the type of operand #0), got " + op.operand(1)->type().str());
  return expectType(c, "result", op.result()->type(), a.withElement(Type::i1()));
}

bool verifySelect(const Operation &op, Checker &c) {
  Type cond = op.operand(0)->type(), r = op.result()->type();
  if (!cond.isBool()) return c.fail("operand #0 (condition): expected i1 elements, got " + cond.str());
  if (cond.isTile() && !sameShape(cond, r))
    return c.fail("operand #0 (condition): expected a scalar or shape " + shapeStr(r) + ", got " + cond.str());
  return expectType(c, "operand #1 (true value)", op.operand(1)->type(), r) &&
         expectType(c, "operand #2 (false value)", op.operand(2)->type(), r);
}

bool verifyCast(const Operation &op, Checker &c) {
  Type from = op.operand(0)->type(), to = op.result()->type();
  if (!sameShape(from, to)) return c.fail("result: expected shape " + shapeStr(from) + ", got " + to.str());
  Type fe = from.element(), te = to.element();
  bool fromIntPtr = fe.isPointer() || (fe.isInteger() && fe.bitWidth() == 64);
  bool toIntPtr = te.isPointer() || (te.isInteger() && te.bitWidth() == 64);
  if ((fe.isPointer() || te.isPointer()) && !(fromIntPtr && toIntPtr))
    return c.fail("casts a pointer only to or from a 64-bit integer or another pointer, got " + fe.str() +
                  " to " + te.str());
  if (op.attr("rounding") && !(fe.isFloat() && te.isFloat() && te.bitWidth() < fe.bitWidth()))
    return c.fail("attribute 'rounding' applies only to narrowing float casts");
  return true;
}

bool verifyBitcast(const Operation &op, Checker &c) {
  Type from = op.operand(0)->type(), to = op.result()->type();
  if (!sameShape(from, to)) return c.fail("result: expected shape " + shapeStr(from) + ", got " + to.str());
  if (from.bitWidth() != to.bitWidth())
    return c.fail("result: expected a " + std::to_string(from.bitWidth()) + "-bit element, got " + to.str());
  return true;
}

bool verifyInlineAsm(const Operation &op, Checker &c) {
  if (op.attr("pack")->getInt() < 1) return c.fail("attribute 'pack': expected >= 1");
  // Only assembly for its effects (not pure) may have no result.
  if (op.numResults() == 0) return !op.attr("pure")->getBool() || c.fail("expected at least one result");
  std::vector<int64_t> shape = op.result(0)->type().shape();
  for (unsigned i = 0; i < op.numResults(); ++i)
    if (op.result(i)->type().shape() != shape) return c.fail("results of different shapes");
  for (unsigned i = 0; i < op.numOperands(); ++i)
    if (op.operand(i)->type().isTile() && op.operand(i)->type().shape() != shape)
      return c.fail("operand #" + std::to_string(i) + " is not of the results' shape");
  return true;
}

bool verifyExternElementwise(const Operation &op, Checker &c) {
  if (op.attr("symbol")->getString().empty()) return c.fail("attribute 'symbol': expected a function's name");
  Type result = op.result()->type();
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    Type t = op.operand(i)->type();
    if (t.element().isPointer()) return c.fail("operand #" + std::to_string(i) + " is a pointer");
    if (t.isTile() && t.shape() != result.shape())
      return c.fail("operand #" + std::to_string(i) + " is not of the result's shape");
    if (!t.isTile() && result.isTile()) return c.fail("operand #" + std::to_string(i) + " is a scalar; a tile result needs tile operands");
  }
  if (result.element().isPointer()) return c.fail("result is a pointer");
  return true;
}

bool verifyHardwareRegister(const Operation &op, Checker &c) {
  return expectType(c, "result", op.result()->type(), op.attr("name")->getString() == "smid" ? Type::i32() : Type::i64());
}

bool verifyProgramQuery(const Operation &op, Checker &c) {
  int64_t axis = op.attr("axis")->getInt();
  if (axis < 0 || axis > 2) return c.fail("attribute 'axis': expected 0, 1 or 2, got " + std::to_string(axis));
  return expectType(c, "result", op.result()->type(), Type::i32());
}

bool verifyArange(const Operation &op, Checker &c) {
  int64_t start = op.attr("start")->getInt(), end = op.attr("end")->getInt();
  if (start < 0 || end <= start) return c.fail("expected 0 <= start < end, got [" + std::to_string(start) + ", " + std::to_string(end) + ")");
  return expectShapeAndElement(c, "result", op.result()->type(), Type::tile({end - start}, Type::i32()));
}

bool verifySplat(const Operation &op, Checker &c) {
  Type s = op.operand(0)->type(), r = op.result()->type();
  if (s.isTile()) return c.fail("operand #0: expected a scalar or pointer, got " + s.str());
  if (!r.isTile()) return c.fail("result: expected a tile, got " + r.str());
  return expectType(c, "result element", r.element(), s);
}

bool verifyBroadcast(const Operation &op, Checker &c) {
  Type s = op.operand(0)->type(), r = op.result()->type();
  if (!s.isTile() || !r.isTile()) return c.fail("expects a tile operand and result, got " + s.str() + " to " + r.str());
  if (s.element() != r.element()) return c.fail("result: expected element " + s.element().str() + ", got " + r.str());
  if (s.rank() != r.rank()) return c.fail("result: expected rank " + std::to_string(s.rank()) + ", got " + r.str());
  for (int64_t i = 0; i < s.rank(); ++i)
    if (s.shape()[i] != 1 && s.shape()[i] != r.shape()[i])
      return c.fail("cannot broadcast dimension " + std::to_string(i) + " of " + s.str() + " to " + r.str());
  return true;
}

bool verifyExpandDims(const Operation &op, Checker &c) {
  Type s = op.operand(0)->type();
  int64_t axis = op.attr("axis")->getInt();
  if (axis < 0 || axis > s.rank()) return c.fail("attribute 'axis': expected 0.." + std::to_string(s.rank()) + ", got " + std::to_string(axis));
  std::vector<int64_t> shape = s.shape();
  shape.insert(shape.begin() + axis, 1);
  return expectShapeAndElement(c, "result", op.result()->type(), Type::tile(shape, s.element()));
}

bool verifyReshape(const Operation &op, Checker &c) {
  Type s = op.operand(0)->type(), r = op.result()->type();
  if (s.element() != r.element()) return c.fail("result: expected element " + s.element().str() + ", got " + r.str());
  if (s.numElements() != r.numElements())
    return c.fail("result: expected " + std::to_string(s.numElements()) + " elements, got " + r.str());
  return true;
}

bool verifyTrans(const Operation &op, Checker &c) {
  Type s = op.operand(0)->type();
  const auto &order = op.attr("order")->getInts();
  std::vector<int64_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  bool perm = int64_t(order.size()) == s.rank();
  for (size_t i = 0; perm && i < sorted.size(); ++i) perm = sorted[i] == int64_t(i);
  if (!perm) return c.fail("attribute 'order': expected a permutation of the " + std::to_string(s.rank()) + " dimensions of " + s.str());
  std::vector<int64_t> shape;
  for (int64_t d : order) shape.push_back(s.shape()[d]);
  return expectShapeAndElement(c, "result", op.result()->type(), Type::tile(shape, s.element()));
}

bool verifyJoin(const Operation &op, Checker &c) {
  Type a = op.operand(0)->type();
  if (!expectType(c, "operand #1", op.operand(1)->type(), a)) return false;
  std::vector<int64_t> shape = a.shape();
  shape.push_back(2);
  return expectShapeAndElement(c, "result", op.result()->type(), Type::tile(shape, a.element()));
}

bool verifySplit(const Operation &op, Checker &c) {
  Type s = op.operand(0)->type();
  if (!s.isTile() || s.shape().back() != 2) return c.fail("operand #0: expected a tile whose last dimension is 2, got " + s.str());
  std::vector<int64_t> shape(s.shape().begin(), s.shape().end() - 1);
  Type want = s.withShape(shape);
  return expectShapeAndElement(c, "result #0", op.result(0)->type(), want) &&
         expectShapeAndElement(c, "result #1", op.result(1)->type(), want);
}

bool verifyCat(const Operation &op, Checker &c) {
  Type a = op.operand(0)->type(), b = op.operand(1)->type();
  if (!a.isTile() || a.element() != b.element() || a.rank() != b.rank())
    return c.fail("expects two tiles of one element type and rank, got " + a.str() + " and " + b.str());
  std::vector<int64_t> shape = a.shape();
  if (!std::equal(shape.begin() + 1, shape.end(), b.shape().begin() + 1))
    return c.fail("operands differ beyond dimension 0: " + a.str() + " and " + b.str());
  shape[0] += b.shape()[0];
  return expectShapeAndElement(c, "result", op.result()->type(), Type::tile(shape, a.element()));
}

bool verifyGather(const Operation &op, Checker &c) {
  Type src = op.operand(0)->type(), index = op.operand(1)->type();
  if (!src.isTile() || !index.isTile() || src.rank() != index.rank())
    return c.fail("expects a source and an index tile of one rank, got " + src.str() + " and " + index.str());
  if (!index.element().isInteger() || index.element().isBool())
    return c.fail("operand #1: expected a tile of integers, got " + index.str());
  int64_t axis = op.attr("axis")->getInt();
  if (axis < 0 || axis >= src.rank())
    return c.fail("attribute 'axis': " + std::to_string(axis) + " is not a dimension of " + src.str());
  for (int64_t d = 0; d < src.rank(); ++d)
    if (d != axis && src.shape()[size_t(d)] != index.shape()[size_t(d)])
      return c.fail("source " + src.str() + " and index " + index.str() + " differ in dimension " + std::to_string(d));
  return expectShapeAndElement(c, "result", op.result()->type(), Type::tile(index.shape(), src.element()));
}

bool verifyHint(const Operation &op, Checker &c) {
  Type t = op.operand(0)->type();
  if (!expectType(c, "result", op.result()->type(), t)) return false;
  size_t rank = std::max<size_t>(1, t.shape().size());
  for (const char *name : {"divisibility", "contiguity", "constancy"})
    if (const Attribute *a = op.attr(name); a && a->getInts().size() != rank)
      return c.fail(std::string("attribute '") + name + "': expected " + std::to_string(rank) + " value(s), got " + a->str());
  return true;
}

bool verifyConvertLayout(const Operation &op, Checker &c) {
  Type from = op.operand(0)->type(), to = op.result()->type();
  if (!from.isTile()) return c.fail("operand #0: expected a tile, got " + from.str());
  return expectShapeAndElement(c, "result", to, from);
}

bool verifyAddPtr(const Operation &op, Checker &c) {
  Type p = op.operand(0)->type(), off = op.operand(1)->type();
  if (!p.element().isPointer()) return c.fail("operand #0 (pointer): expected pointers, got " + p.str());
  if (!off.isInteger() || off.isBool() || !sameShape(p, off))
    return c.fail("operand #1 (offset): expected integers of shape " + shapeStr(p) + ", got " + off.str());
  return expectType(c, "result", op.result()->type(), p);
}

bool checkMaskedAccess(const Operation &op, Checker &c, Type ptr, Type value, int maskIndex) {
  if (!ptr.element().isPointer()) return c.fail("operand #0 (pointer): expected pointers, got " + ptr.str());
  if (!expectType(c, "value", value, ptr.withElement(ptr.pointee()))) return false;
  if (int(op.numOperands()) > maskIndex)
    return expectBoolLike(c, ("operand #" + std::to_string(maskIndex) + " (mask)").c_str(),
                          op.operand(maskIndex)->type(), ptr);
  return true;
}

bool verifyLoad(const Operation &op, Checker &c) {
  Type r = op.result()->type();
  if (!checkMaskedAccess(op, c, op.operand(0)->type(), r, 1)) return false;
  if (op.numOperands() == 3) return expectType(c, "operand #2 (other)", op.operand(2)->type(), r);
  return true;
}

bool expectIntegerScalar(Checker &c, const std::string &what, Type t) {
  return (t.isScalar() && t.isInteger() && !t.isBool()) || c.fail(what + ": expected an integer scalar, got " + t.str());
}

// desc_load / desc_store after their masked access: the base, extents,
// strides and coordinates of a block of `tile`; `access` names the first
// three operands.
bool verifyDescriptorBlock(const Operation &op, Checker &c, Type tile, const char *access) {
  if (!tile.isTile() || int64_t(op.numOperands()) != 3 + 3 * tile.rank())
    return c.fail(std::string("expects ") + access + ", the base, " + std::to_string(tile.rank()) + " extents, " +
                  std::to_string(tile.rank() - 1) + " strides and " + std::to_string(tile.rank()) + " coordinates for " +
                  tile.str());
  if (Type base = op.operand(3)->type(); base.isTile() || base != op.operand(0)->type().element())
    return c.fail("operand #3 (base): expected a " + op.operand(0)->type().element().str() + ", got " + base.str());
  for (unsigned i = 4; i < op.numOperands(); ++i)
    if (!expectIntegerScalar(c, "operand #" + std::to_string(i), op.operand(i)->type())) return false;
  return true;
}

bool verifyDescLoad(const Operation &op, Checker &c) {
  Type r = op.result()->type();
  return checkMaskedAccess(op, c, op.operand(0)->type(), r, 1) &&
         expectType(c, "operand #2 (other)", op.operand(2)->type(), r) &&
         verifyDescriptorBlock(op, c, r, "pointers, mask, other");
}

bool verifyDescStore(const Operation &op, Checker &c) {
  Type v = op.operand(1)->type();
  return checkMaskedAccess(op, c, op.operand(0)->type(), v, 2) && verifyDescriptorBlock(op, c, v, "pointers, value, mask");
}

bool verifyStore(const Operation &op, Checker &c) {
  return checkMaskedAccess(op, c, op.operand(0)->type(), op.operand(1)->type(), 2);
}

bool verifyAtomicRmw(const Operation &op, Checker &c) {
  Type v = op.operand(1)->type();
  if (!checkMaskedAccess(op, c, op.operand(0)->type(), v, 2)) return false;
  const std::string &kind = op.attr("kind")->getString();
  if ((kind == "and" || kind == "or" || kind == "xor") && !v.isInteger())
    return c.fail("'" + kind + "' needs integer elements, got " + v.str());
  return expectType(c, "result", op.result()->type(), v);
}

bool verifyAtomicCas(const Operation &op, Checker &c) {
  Type v = op.operand(2)->type();
  if (!checkMaskedAccess(op, c, op.operand(0)->type(), v, 3)) return false;
  return expectType(c, "operand #1 (compare)", op.operand(1)->type(), v) &&
         expectType(c, "result", op.result()->type(), v);
}

bool verifyDot(const Operation &op, Checker &c) {
  Type a = op.operand(0)->type(), b = op.operand(1)->type(), acc = op.operand(2)->type();
  int64_t rank = a.rank();
  if ((rank != 2 && rank != 3) || b.rank() != rank || acc.rank() != rank)
    return c.fail("expects operands of rank 2 (or 3 with a batch), got " + a.str() + ", " + b.str() + ", " + acc.str());
  auto fp8 = [](Type t) { return t.element().isScalar() && (t.element().scalarKind() == ScalarKind::F8E4M3 || t.element().scalarKind() == ScalarKind::F8E5M2); };
  if (!isNumericElement(a) || (a.element() != b.element() && !(fp8(a) && fp8(b))))
    return c.fail("operands #0 and #1: expected one numeric element type (or two fp8 types), got " + a.str() + " and " + b.str());
  auto d = [](Type t, int64_t i) { return t.shape()[t.rank() - 2 + i]; };
  if (d(a, 1) != d(b, 0)) return c.fail("inner dimensions differ: " + a.str() + " and " + b.str());
  if (d(acc, 0) != d(a, 0) || d(acc, 1) != d(b, 1) || (rank == 3 && (a.shape()[0] != b.shape()[0] || a.shape()[0] != acc.shape()[0])))
    return c.fail("operand #2 (accumulator): expected shape matching " + a.str() + " x " + b.str() + ", got " + acc.str());
  return expectType(c, "result", op.result()->type(), acc);
}

// reduce and scan: n tiles in, a combine region over 2n scalars yielding n.
bool verifyCombineRegion(const Operation &op, Checker &c, std::vector<Type> &elems) {
  Type first = op.operand(0)->type();
  if (!first.isTile()) return c.fail("operand #0: expected a tile, got " + first.str());
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    Type t = op.operand(i)->type();
    if (!sameShape(t, first)) return c.fail("operand #" + std::to_string(i) + ": expected shape " + shapeStr(first) + ", got " + t.str());
    elems.push_back(t.element());
  }
  int64_t axis = op.attr("axis")->getInt();
  if (axis < 0 || axis >= first.rank()) return c.fail("attribute 'axis': expected 0.." + std::to_string(first.rank() - 1) + ", got " + std::to_string(axis));
  if (op.numResults() != op.numOperands()) return c.fail("expected one result per operand");
  const Block &body = op.region(0).block();
  if (body.numArguments() != 2 * elems.size())
    return c.fail("region: expected " + std::to_string(2 * elems.size()) + " block arguments, got " + std::to_string(body.numArguments()));
  for (unsigned i = 0; i < body.numArguments(); ++i)
    if (!expectType(c, ("region argument #" + std::to_string(i)).c_str(), body.argument(i)->type(), elems[i % elems.size()])) return false;
  const Operation *y = body.terminator();
  if (y && y->numOperands() == elems.size())
    for (unsigned i = 0; i < y->numOperands(); ++i)
      if (!expectType(c, ("yielded value #" + std::to_string(i)).c_str(), y->operand(i)->type(), elems[i])) return false;
  if (y && y->numOperands() != elems.size()) return c.fail("region must yield " + std::to_string(elems.size()) + " value(s)");
  return true;
}

bool verifyReduce(const Operation &op, Checker &c) {
  std::vector<Type> elems;
  if (!verifyCombineRegion(op, c, elems)) return false;
  std::vector<int64_t> shape = op.operand(0)->type().shape();
  shape.erase(shape.begin() + op.attr("axis")->getInt());
  for (unsigned i = 0; i < op.numResults(); ++i)
    if (!expectShapeAndElement(c, ("result #" + std::to_string(i)).c_str(), op.result(i)->type(), shape.empty() ? elems[i] : Type::tile(shape, elems[i]))) return false;
  return true;
}

bool verifyScan(const Operation &op, Checker &c) {
  std::vector<Type> elems;
  if (!verifyCombineRegion(op, c, elems)) return false;
  for (unsigned i = 0; i < op.numResults(); ++i)
    if (!expectType(c, ("result #" + std::to_string(i)).c_str(), op.result(i)->type(), op.operand(i)->type())) return false;
  return true;
}

bool verifyAssert(const Operation &op, Checker &c) {
  if (!op.operand(0)->type().isBool()) return c.fail("operand #0 (condition): expected i1 elements, got " + op.operand(0)->type().str());
  return true;
}

bool verifyCheckFailed(const Operation &op, Checker &c) {
  return expectType(c, "operand #0 (report)", op.operand(0)->type(), Type::pointer(Type::i64())) &&
         expectType(c, "operand #1 (failed)", op.operand(1)->type(), Type::i1()) &&
         expectType(c, "operand #2 (value)", op.operand(2)->type(), Type::i64());
}

bool verifyAssume(const Operation &op, Checker &c) {
  return expectType(c, "operand #0 (condition)", op.operand(0)->type(), Type::i1());
}

bool expectTypes(Checker &c, const std::string &what, const std::vector<Value *> &values, const std::vector<Type> &want) {
  if (values.size() != want.size())
    return c.fail(what + ": expected " + std::to_string(want.size()) + " value(s), got " + std::to_string(values.size()));
  for (size_t i = 0; i < values.size(); ++i)
    if (!expectType(c, (what + " #" + std::to_string(i)).c_str(), values[i]->type(), want[i])) return false;
  return true;
}

std::vector<Type> typesOf(const std::vector<Value *> &vs) {
  std::vector<Type> out;
  for (Value *v : vs) out.push_back(v->type());
  return out;
}

bool verifyCall(const Operation &op, Checker &c) {
  const std::string &name = op.attr("callee")->getString();
  const Function *f = c.module.lookup(name);
  if (!f) return c.fail("calls unknown function @" + name);
  if (f->isKernel()) return c.fail("calls kernel @" + name + "; only device functions can be called");
  return expectTypes(c, "argument", op.operands(), f->argumentTypes()) &&
         expectTypes(c, "result", op.results(), f->resultTypes());
}

std::vector<Type> resultTypes(const Operation &op) { return typesOf(op.results()); }

bool expectYield(Checker &c, const Operation &op, unsigned region, const std::vector<Type> &want) {
  const Operation *t = op.region(region).block().terminator();
  if (!t) return true;  // reported by the structural check
  return expectTypes(c, "region #" + std::to_string(region) + " terminator operand", t->operands(), want);
}

bool verifyFor(const Operation &op, Checker &c) {
  Type iv = op.operand(0)->type();
  if (!iv.isScalar() || !iv.isInteger() || iv.isBool()) return c.fail("operand #0 (lower bound): expected a scalar integer, got " + iv.str());
  if (!expectType(c, "operand #1 (upper bound)", op.operand(1)->type(), iv) ||
      !expectType(c, "operand #2 (step)", op.operand(2)->type(), iv))
    return false;
  std::vector<Value *> inits(op.operands().begin() + 3, op.operands().end());
  std::vector<Type> rt = resultTypes(op);
  if (!expectTypes(c, "iter init", inits, rt)) return false;
  std::vector<Value *> args = op.region(0).block().arguments();
  std::vector<Type> want = rt;
  want.insert(want.begin(), iv);
  return expectTypes(c, "region argument", args, want) && expectYield(c, op, 0, rt);
}

bool verifyIf(const Operation &op, Checker &c) {
  if (!expectType(c, "operand #0 (condition)", op.operand(0)->type(), Type::i1())) return false;
  for (unsigned r = 0; r < 2; ++r) {
    if (op.region(r).block().numArguments()) return c.fail("region #" + std::to_string(r) + " takes no arguments");
    if (!expectYield(c, op, r, resultTypes(op))) return false;
  }
  return true;
}

bool verifyWhile(const Operation &op, Checker &c) {
  std::vector<Type> inits = typesOf(op.operands());
  if (!expectTypes(c, "before-region argument", op.region(0).block().arguments(), inits)) return false;
  const Operation *cond = op.region(0).block().terminator();
  if (cond) {
    if (!expectType(c, "condition operand #0", cond->operand(0)->type(), Type::i1())) return false;
    std::vector<Value *> forwarded(cond->operands().begin() + 1, cond->operands().end());
    if (!expectTypes(c, "condition forwarded value", forwarded, resultTypes(op))) return false;
  }
  return expectTypes(c, "after-region argument", op.region(1).block().arguments(), resultTypes(op)) &&
         expectYield(c, op, 1, inits);
}

// ---- shared-memory buffers

bool expectBuffer(Checker &c, const char *what, Type t) {
  if (t.isBuffer()) return true;
  return c.fail(std::string(what) + ": expected a shared buffer (smem<...>), got " + t.str());
}

// A tile of the buffer's shape and element (any layout); a buffer with
// stacked entries is accessed through local_view.
bool expectTileOf(Checker &c, const char *what, Type tile, Type buffer) {
  const std::vector<int64_t> *order = buffer.layout()->param("order");
  if (buffer.layout()->kind() == "shared" && order && int64_t(order->size()) < buffer.rank())
    return c.fail(std::string(what) + ": " + buffer.str() + " has stacked entries; access one through local_view");
  if (tile.isTile() && tile.shape() == buffer.shape() && tile.element() == buffer.element()) return true;
  return c.fail(std::string(what) + ": expected a tile of " + shapeStr(buffer) + " x " + buffer.element().str() +
                " (the buffer's), got " + tile.str());
}

bool verifyLocalAlloc(const Operation &op, Checker &c) {
  Type b = op.result()->type();
  if (!expectBuffer(c, "result", b)) return false;
  return op.numOperands() == 0 || expectTileOf(c, "operand #0 (initial value)", op.operand(0)->type(), b);
}

bool verifyLocalStore(const Operation &op, Checker &c) {
  Type b = op.operand(0)->type();
  return expectBuffer(c, "operand #0 (buffer)", b) && expectTileOf(c, "operand #1 (value)", op.operand(1)->type(), b);
}

bool verifyLocalLoad(const Operation &op, Checker &c) {
  Type b = op.operand(0)->type();
  return expectBuffer(c, "operand #0 (buffer)", b) && expectTileOf(c, "result", op.result()->type(), b);
}

bool verifyLocalView(const Operation &op, Checker &c) {
  Type b = op.operand(0)->type(), idx = op.operand(1)->type();
  if (!expectBuffer(c, "operand #0 (buffer)", b)) return false;
  if (b.rank() < 2) return c.fail("operand #0 (buffer): expected a buffer of rank 2 or more, got " + b.str());
  if (!idx.isScalar() || !idx.isInteger() || idx.isBool())
    return c.fail("operand #1 (index): expected an integer scalar, got " + idx.str());
  const std::vector<int64_t> *order = b.layout()->param("order");
  if (b.layout()->kind() != "shared" || !order || std::find(order->begin(), order->end(), 0) != order->end())
    return c.fail("operand #0 (buffer): a view needs a #shared layout whose 'order' leaves dimension 0 stacked, got " +
                  b.layout()->str());
  std::vector<int64_t> rest(b.shape().begin() + 1, b.shape().end());
  std::vector<int64_t> order1;
  for (int64_t d : *order) order1.push_back(d - 1);
  std::vector<Layout::Param> params = b.layout()->params();
  for (auto &p : params)
    if (p.first == "order") p.second = order1;
  return expectType(c, "result", op.result()->type(),
                    Type::buffer(rest, b.element(), Layout::get("shared", std::move(params))));
}

bool verifyLocalTrans(const Operation &op, Checker &c) {
  Type b = op.operand(0)->type();
  if (!expectBuffer(c, "operand #0 (buffer)", b)) return false;
  const std::vector<int64_t> *order = b.layout()->param("order");
  if (b.rank() != 2 || b.layout()->kind() != "shared" || !order || order->size() != 2)
    return c.fail("operand #0 (buffer): expected a rank-2 buffer with a #shared layout, got " + b.str());
  return expectType(c, "result", op.result()->type(), transposedSharedBuffer(b));
}

// mbarriers: a rank-1 buffer of i64.
bool expectMbarriers(Checker &c, const char *what, Type t) {
  if (!expectBuffer(c, what, t)) return false;
  return (t.rank() == 1 && t.element() == Type::i64()) ||
         c.fail(std::string(what) + ": expected a rank-1 buffer of i64, got " + t.str());
}

// mbarrier_init / mbarrier_wait / mbarrier_inval: a rank-1 i64 buffer; the
// wait's entry and parity are integer scalars.
bool verifyMbarrier(const Operation &op, Checker &c) {
  if (!expectMbarriers(c, "operand #0 (mbarriers)", op.operand(0)->type())) return false;
  for (unsigned i = 1; i < op.numOperands(); ++i)
    if (!expectIntegerScalar(c, "operand #" + std::to_string(i), op.operand(i)->type())) return false;
  if (const Attribute *count = op.attr("count"); count && count->getInt() < 1)
    return c.fail("attribute 'count': expected at least 1 arrival");
  return true;
}

bool verifyMbarrierArrive(const Operation &op, Checker &c) {
  return expectMbarriers(c, "operand #0 (mbarriers)", op.operand(0)->type()) &&
         expectIntegerScalar(c, "operand #1 (entry)", op.operand(1)->type()) &&
         expectType(c, "operand #2 (predicate)", op.operand(2)->type(), Type::i1());
}

bool verifyWarpSpecialize(const Operation &op, Checker &c) {
  if (op.attr("producer_warps")->getInt() < 1) return c.fail("attribute 'producer_warps': expected at least 1 warp");
  if (op.region(0).block().numArguments()) return c.fail("region #0 takes no arguments");
  if (!expectYield(c, op, 0, {})) return false;
  if (op.parentOp()) return c.fail("expected at the kernel's top level");
  bool tiles = false;
  auto visit = [&](Operation *inner) {
    for (Value *v : inner->results()) tiles |= v->type().isTile();
  };
  Function::walkBlock(const_cast<Operation &>(op).region(0).block(), visit);
  return !tiles || c.fail("region #0 (the producer): expected scalars only");
}

bool verifyTmaCopy(const Operation &op, Checker &c) {
  Type buf = op.operand(0)->type(), map = op.operand(1)->type(), pred = op.operand(4)->type();
  if (!expectBuffer(c, "operand #0 (buffer)", buf)) return false;
  if (map.isTile() || !map.isPointer()) return c.fail("operand #1 (tensor map): expected a pointer argument, got " + map.str());
  if (!expectMbarriers(c, "operand #2 (mbarriers)", op.operand(2)->type()) ||
      !expectIntegerScalar(c, "operand #3 (entry)", op.operand(3)->type()))
    return false;
  if (!pred.isScalar() || !pred.isBool()) return c.fail("operand #4 (predicate): expected an i1 scalar, got " + pred.str());
  if (int64_t(op.numOperands()) != 5 + buf.rank())
    return c.fail("expects one coordinate per dimension of " + buf.str());
  for (unsigned i = 5; i < op.numOperands(); ++i)
    if (op.operand(i)->type() != Type::i32())
      return c.fail("operand #" + std::to_string(i) + " (coordinate): expected i32, got " + op.operand(i)->type().str());
  return true;
}

bool verifyTmaStore(const Operation &op, Checker &c) {
  Type buf = op.operand(0)->type(), map = op.operand(1)->type();
  if (!expectBuffer(c, "operand #0 (buffer)", buf)) return false;
  if (map.isTile() || !map.isPointer()) return c.fail("operand #1 (tensor map): expected a pointer argument, got " + map.str());
  if (Type pred = op.operand(2)->type(); !pred.isScalar() || !pred.isBool())
    return c.fail("operand #2 (predicate): expected an i1 scalar, got " + pred.str());
  if (int64_t(op.numOperands()) != 3 + buf.rank()) return c.fail("expects one coordinate per dimension of " + buf.str());
  for (unsigned i = 3; i < op.numOperands(); ++i)
    if (op.operand(i)->type() != Type::i32())
      return c.fail("operand #" + std::to_string(i) + " (coordinate): expected i32, got " + op.operand(i)->type().str());
  return true;
}

bool verifyAsyncCopy(const Operation &op, Checker &c) {
  Type b = op.operand(0)->type(), p = op.operand(1)->type();
  if (!expectBuffer(c, "operand #0 (buffer)", b)) return false;
  if (!p.isTile() || !p.element().isPointer() || p.shape() != b.shape() || p.pointee() != b.element())
    return c.fail("operand #1 (pointers): expected a tile of " + shapeStr(b) + " pointers to " + b.element().str() +
                  ", got " + p.str());
  if (op.numOperands() > 2 && !expectBoolLike(c, "operand #2 (mask)", op.operand(2)->type(), p)) return false;
  return op.numOperands() < 4 || expectTileOf(c, "operand #3 (other)", op.operand(3)->type(), b);
}

// Every wait (async_wait, cp_async_wait, wgmma_wait): `pending` >= 0, and
// its results are its operands, made final.
bool verifyAsyncWait(const Operation &op, Checker &c) {
  if (op.attr("pending")->getInt() < 0) return c.fail("attribute 'pending': expected >= 0");
  if (op.numResults() != op.numOperands()) return c.fail("expected one result per operand");
  for (unsigned i = 0; i < op.numResults(); ++i)
    if (!expectType(c, ("result #" + std::to_string(i)).c_str(), op.result(i)->type(), op.operand(i)->type())) return false;
  return true;
}

// ---- thread level

bool verifyThreadIndex(const Operation &op, Checker &c) {
  return expectType(c, "result", op.result()->type(), Type::i32());
}

bool verifySharedPtr(const Operation &op, Checker &c) {
  Type r = op.result()->type();
  if (!r.isPointer() || r.addressSpace() != AddressSpace::Shared)
    return c.fail("result: expected a shared-memory pointer, got " + r.str());
  for (const char *name : {"offset", "bytes"})
    if (const Attribute *a = op.attr(name); a && a->getInt() < (name[0] == 'o' ? 0 : 1))
      return c.fail(std::string("attribute '") + name + "': expected " + (name[0] == 'o' ? ">= 0" : ">= 1"));
  if (const Attribute *a = op.attr("align"); a && (a->getInt() < 1 || (a->getInt() & (a->getInt() - 1))))
    return c.fail("attribute 'align': expected a power of two");
  return true;
}

int64_t storageBytes(Type t) { return t.isPointer() ? 8 : std::max(1, t.bitWidth() / 8); }

// The N values of a vector access: one type (the pointee), N a power of two
// and at most 16 bytes.
bool checkVectorAccess(Checker &c, Type ptr, const std::vector<Type> &values) {
  if (!ptr.isPointer()) return c.fail("operand #0 (pointer): expected a pointer, got " + ptr.str());
  size_t n = values.size();
  if (n == 0 || (n & (n - 1)) || int64_t(n) * storageBytes(ptr.pointee()) > 16)
    return c.fail("accesses " + std::to_string(n) + " x " + ptr.pointee().str() +
                  ": expected a power of two of elements in at most 16 bytes");
  for (size_t i = 0; i < n; ++i)
    if (!expectType(c, ("value #" + std::to_string(i)).c_str(), values[i], ptr.pointee())) return false;
  return true;
}

bool verifyVLoad(const Operation &op, Checker &c) {
  std::vector<Type> results;
  for (unsigned i = 0; i < op.numResults(); ++i) results.push_back(op.result(i)->type());
  if (!checkVectorAccess(c, op.operand(0)->type(), results)) return false;
  if (op.numOperands() == 1) return true;
  if (op.numOperands() != 2 + op.numResults())
    return c.fail("expected a pointer, or a pointer, a predicate and one fallback per result; got " +
                  std::to_string(op.numOperands()) + " operands");
  if (!expectType(c, "operand #1 (predicate)", op.operand(1)->type(), Type::i1())) return false;
  for (unsigned i = 0; i < op.numResults(); ++i)
    if (!expectType(c, ("fallback #" + std::to_string(i)).c_str(), op.operand(2 + i)->type(), results[i])) return false;
  return true;
}

bool verifyVStore(const Operation &op, Checker &c) {
  bool masked = op.attrs().getBool("masked", false);
  unsigned n = op.numOperands() - 1 - (masked ? 1 : 0);
  std::vector<Type> values;
  for (unsigned i = 0; i < n; ++i) values.push_back(op.operand(1 + i)->type());
  if (!checkVectorAccess(c, op.operand(0)->type(), values)) return false;
  return !masked || expectType(c, "last operand (predicate)", op.operands().back()->type(), Type::i1());
}

bool verifyShuffleXor(const Operation &op, Checker &c) {
  Type t = op.operand(0)->type();
  if (t.isTile()) return c.fail("operand #0: expected a scalar or pointer, got " + t.str());
  int64_t mask = op.attr("mask")->getInt();
  if (mask <= 0 || mask >= 1024) return c.fail("attribute 'mask': expected 1 to 1023, got " + std::to_string(mask));
  return expectType(c, "result", op.result()->type(), t);
}

bool verifyCastPair(const Operation &op, Checker &c) {
  for (unsigned i = 0; i < 2; ++i)
    if (!expectType(c, ("operand #" + std::to_string(i)).c_str(), op.operand(i)->type(), Type::f32())) return false;
  Type r = op.result(0)->type();
  if (!r.isScalar() || (r.scalarKind() != ScalarKind::F16 && r.scalarKind() != ScalarKind::BF16))
    return c.fail("result #0: expected f16 or bf16, got " + r.str());
  return expectType(c, "result #1", op.result(1)->type(), r);
}

bool verifyMma(const Operation &op, Checker &c) {
  std::vector<int64_t> shape = op.attr("shape")->getInts();
  if (shape.size() != 3 || shape[0] <= 0 || shape[1] <= 0 || shape[2] <= 0)
    return c.fail("attribute 'shape': expected [m, n, k], all positive");
  int64_t m = shape[0], n = shape[1], k = shape[2], perLane = int64_t(op.numResults());
  if (perLane == 0 || (m * n) % perLane) return c.fail("expected a share of the m x n result per lane");
  int64_t lanes = m * n / perLane, a = m * k / lanes, b = k * n / lanes;
  // A and B may each be held by `repeat` lanes (a power of two).
  int64_t inputs = int64_t(op.numOperands()) - perLane, repeat = a + b > 0 ? inputs / (a + b) : 0;
  bool repeated = repeat >= 1 && (repeat & (repeat - 1)) == 0 && repeat * (a + b) == inputs;
  if (a * lanes != m * k || b * lanes != k * n || !repeated)
    return c.fail("expected " + std::to_string(a) + " + " + std::to_string(b) + " + " + std::to_string(perLane) +
                  " operands (A, B, C shares of " + std::to_string(lanes) +
                  " lanes; A's and B's shares may be repeated), got " + std::to_string(op.numOperands()));
  a *= repeat, b *= repeat;
  Type acc = op.result(0)->type();
  if (!acc.isScalar()) return c.fail("result #0: expected a scalar, got " + acc.str());
  for (unsigned i = 0; i < op.numResults(); ++i)
    if (!expectType(c, ("result #" + std::to_string(i)).c_str(), op.result(i)->type(), acc)) return false;
  Type at = op.operand(0)->type(), bt = op.operand(unsigned(a))->type();
  for (int64_t i = 0; i < a + b + perLane; ++i) {
    Type want = i < a ? at : i < a + b ? bt : acc;
    if (!expectType(c, ("operand #" + std::to_string(i)).c_str(), op.operand(unsigned(i))->type(), want)) return false;
  }
  if (!at.isScalar() || !bt.isScalar()) return c.fail("expected scalar A and B elements");
  return true;
}

bool verifyCoopMma(const Operation &op, Checker &c) {
  std::vector<int64_t> shape = op.attr("shape")->getInts(), tiles = op.attr("tiles")->getInts(),
                       strides = op.attr("strides")->getInts();
  auto positive = [](const std::vector<int64_t> &v) {
    return v.size() == 3 && std::all_of(v.begin(), v.end(), [](int64_t x) { return x > 0; });
  };
  if (!positive(shape)) return c.fail("attribute 'shape': expected [m, n, k], all positive");
  if (!positive(tiles)) return c.fail("attribute 'tiles': expected [m tiles, n tiles, k steps], all positive");
  if (!positive(strides)) return c.fail("attribute 'strides': expected [A's, B's, C's row strides], all positive");
  for (unsigned i = 0; i < 3; ++i) {
    Type p = op.operand(i)->type();
    if (!p.isPointer() || p.addressSpace() != AddressSpace::Shared || !p.pointee().isScalar())
      return c.fail("operand #" + std::to_string(i) + ": expected a shared-memory pointer to scalars, got " + p.str());
  }
  Type a = op.operand(0)->type().pointee(), b = op.operand(1)->type().pointee(), acc = op.operand(2)->type().pointee();
  if (a.bitWidth() != b.bitWidth()) return c.fail("expected A and B elements of one width, got " + a.str() + " and " + b.str());
  if (acc.bitWidth() != 32) return c.fail("expected 32-bit accumulators, got " + acc.str());
  int64_t widths[] = {std::max(1, a.bitWidth() / 8), std::max(1, b.bitWidth() / 8), 4};
  if (strides[0] < tiles[2] * shape[2] || strides[1] < tiles[1] * shape[1] || strides[2] < tiles[1] * shape[1])
    return c.fail("attribute 'strides': a row stride is shorter than its block's row");
  for (unsigned i = 0; i < 3; ++i)
    if (strides[i] * widths[i] % 16) return c.fail("attribute 'strides': rows must be multiples of 16 bytes apart");
  return true;
}

bool verifyWgmma(const Operation &op, Checker &c) {
  std::vector<int64_t> shape = op.attr("shape")->getInts();
  if (shape.size() != 3 || shape[0] != 64 || shape[1] < 8 || shape[1] > 256 || shape[1] % 8 || shape[2] <= 0)
    return c.fail("attribute 'shape': expected [64, n, k] with n a multiple of 8 up to 256");
  bool aInRegisters = op.attr("a_desc")->getInts().empty();
  for (const char *name : {"a_desc", "b_desc"}) {
    std::vector<int64_t> d = op.attr(name)->getInts();
    if (d.empty() && name[0] == 'a') continue;
    bool swizzle = d.size() == 4 && (d[0] == 0 || d[0] == 32 || d[0] == 64 || d[0] == 128);
    if (!swizzle || d[1] < 0 || d[2] < 0 || d[1] % 16 || d[2] % 16 || d[1] >= (16 << 14) || d[2] >= (16 << 14) ||
        (d[3] != 0 && d[3] != 1))
      return c.fail(std::string("attribute '") + name +
                    "': expected [swizzle bytes (0, 32, 64 or 128), leading byte offset, stride byte offset "
                    "(multiples of 16 below 2^18), m/n-major (0 or 1)]");
  }
  // A: one pointer, or (a_desc = []) k / 2 elements per thread, 128 bits.
  unsigned aOperands = wgmmaAOperands(op);
  if (aInRegisters && shape[2] != 8 && shape[2] != 16 && shape[2] != 32)
    return c.fail("A from registers needs k = 8, 16 or 32");
  if (op.numOperands() < aOperands + 1) return c.fail("expected A, B and the accumulators");
  for (unsigned i = 0; i < aOperands + 1; ++i) {
    Type p = op.operand(i)->type();
    if (i < aOperands && aInRegisters) {
      int bits = int(256 / shape[2]);
      if (!p.isScalar() || p.bitWidth() != bits || p != op.operand(0)->type())
        return c.fail("operand #" + std::to_string(i) + ": expected A's " + std::to_string(bits) + "-bit elements, got " +
                      p.str());
      continue;
    }
    if (!p.isPointer() || p.addressSpace() != AddressSpace::Shared)
      return c.fail("operand #" + std::to_string(i) + ": expected a shared-memory pointer, got " + p.str());
  }
  int64_t perThread = shape[0] * shape[1] / 128;
  if (int64_t(op.numResults()) != perThread || int64_t(op.numOperands()) != aOperands + 1 + perThread)
    return c.fail("expected " + std::to_string(perThread) + " accumulators per thread (operands and results)");
  Type acc = op.result(0)->type();
  if (!acc.isScalar()) return c.fail("result #0: expected a scalar, got " + acc.str());
  for (unsigned i = 0; i < op.numResults(); ++i)
    if (!expectType(c, ("result #" + std::to_string(i)).c_str(), op.result(i)->type(), acc) ||
        !expectType(c, ("operand #" + std::to_string(i + aOperands + 1)).c_str(), op.operand(i + aOperands + 1)->type(), acc))
      return false;
  return true;
}

bool verifyCpAsync(const Operation &op, Checker &c) {
  Type dst = op.operand(0)->type(), src = op.operand(1)->type();
  if (!dst.isPointer() || dst.addressSpace() != AddressSpace::Shared)
    return c.fail("operand #0 (destination): expected a shared-memory pointer, got " + dst.str());
  if (!src.isPointer() || src.addressSpace() == AddressSpace::Shared)
    return c.fail("operand #1 (source): expected a global pointer, got " + src.str());
  int64_t bytes = op.attr("bytes")->getInt();
  if (bytes != 4 && bytes != 8 && bytes != 16) return c.fail("attribute 'bytes': expected 4, 8 or 16, got " + std::to_string(bytes));
  if (op.numOperands() == 3 && !expectType(c, "operand #2 (predicate)", op.operand(2)->type(), Type::i1())) return false;
  return true;
}

bool verifyLdMatrix(const Operation &op, Checker &c) {
  Type ptr = op.operand(0)->type();
  if (!ptr.isPointer() || ptr.addressSpace() != AddressSpace::Shared)
    return c.fail("operand #0: expected a shared-memory pointer, got " + ptr.str());
  if (storageBytes(ptr.pointee()) != 2) return c.fail("expected 16-bit elements, got " + ptr.pointee().str());
  unsigned n = op.numResults();
  if (n != 2 && n != 4 && n != 8) return c.fail("expected 2, 4 or 8 results (1, 2 or 4 matrices), got " + std::to_string(n));
  for (unsigned i = 0; i < n; ++i)
    if (!expectType(c, ("result #" + std::to_string(i)).c_str(), op.result(i)->type(), ptr.pointee())) return false;
  return true;
}

bool verifyPrintf(const Operation &op, Checker &c) {
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    Type t = op.operand(i)->type();
    bool ok = t.isPointer() || (t.isScalar() && ((t.isInteger() && (t.bitWidth() == 32 || t.bitWidth() == 64)) ||
                                                  (t.isFloat() && t.bitWidth() == 64)));
    if (!ok) return c.fail("operand #" + std::to_string(i) + ": expected a 32/64-bit integer, f64 or pointer, got " + t.str());
  }
  return true;
}

struct OpRule {
  Hook hook;
};

const OpRule &ruleFor(OpCode code) {
  static const OpRule rules[] = {
#define OP(Id, Name, MinOps, MaxOps, NRes, NReg, Traits, Attrs, Verify) {Verify},
#include "ir/Ops.def"
#undef OP
  };
  return rules[static_cast<size_t>(code)];
}

// ---- the table-driven checks

struct AttrSpec {
  std::string name, kind;
  std::vector<std::string> choices;
  bool optional = false;
};

const std::vector<AttrSpec> &attrSpecs(OpCode code) {
  static std::vector<std::vector<AttrSpec>> cache = [] {
    std::vector<std::vector<AttrSpec>> all;
    for (const OpInfo &info : allOps()) {
      std::vector<AttrSpec> specs;
      std::string spec = info.attrSpec;
      size_t start = 0;
      while (start < spec.size()) {
        size_t end = spec.find(';', start);
        if (end == std::string::npos) end = spec.size();
        std::string item = spec.substr(start, end - start);
        AttrSpec a;
        if (item[0] == '?') a.optional = true, item = item.substr(1);
        size_t colon = item.find(':');
        a.name = item.substr(0, colon);
        a.kind = item.substr(colon + 1);
        if (a.kind.rfind("enum(", 0) == 0) {
          std::string list = a.kind.substr(5, a.kind.size() - 6);
          for (size_t p = 0; p <= list.size();) {
            size_t q = list.find(',', p);
            if (q == std::string::npos) q = list.size();
            a.choices.push_back(list.substr(p, q - p));
            p = q + 1;
          }
          a.kind = "enum";
        }
        specs.push_back(a);
        start = end + 1;
      }
      all.push_back(specs);
    }
    return all;
  }();
  return cache[static_cast<size_t>(code)];
}

bool attrMatches(const AttrSpec &s, const Attribute &a) {
  if (s.kind == "bool") return a.isBool();
  if (s.kind == "int") return a.isInt();
  if (s.kind == "float") return a.isFloat();
  if (s.kind == "number") return a.isInt() || a.isFloat();
  if (s.kind == "string") return a.isString();
  if (s.kind == "ints") return a.isInts();
  if (s.kind == "type") return a.isType();
  if (s.kind == "enum")
    return a.isString() && std::find(s.choices.begin(), s.choices.end(), a.getString()) != s.choices.end();
  return false;
}

std::string describeSpec(const AttrSpec &s) {
  if (s.kind != "enum") return "a " + s.kind;
  std::string out = "one of";
  for (size_t i = 0; i < s.choices.size(); ++i) out += (i ? ", \"" : " \"") + s.choices[i] + "\"";
  return out;
}

bool checkTableRules(const Operation &op, Checker &c) {
  const OpInfo &info = op.info();
  int n = int(op.numOperands());
  if (n < info.minOperands || (info.maxOperands >= 0 && n > info.maxOperands)) {
    std::string want = info.minOperands == info.maxOperands ? std::to_string(info.minOperands)
                       : info.maxOperands < 0 ? "at least " + std::to_string(info.minOperands)
                                              : std::to_string(info.minOperands) + " to " + std::to_string(info.maxOperands);
    return c.fail("expected " + want + " operand(s), got " + std::to_string(n));
  }
  if (info.numResults >= 0 && int(op.numResults()) != info.numResults)
    return c.fail("expected " + std::to_string(info.numResults) + " result(s), got " + std::to_string(op.numResults()));
  if (int(op.numRegions()) != info.numRegions)
    return c.fail("expected " + std::to_string(info.numRegions) + " region(s), got " + std::to_string(op.numRegions()));

  const auto &specs = attrSpecs(op.code());
  for (const AttrSpec &s : specs) {
    const Attribute *a = op.attr(s.name);
    if (!a) {
      if (!s.optional) return c.fail("needs attribute '" + s.name + "' (" + describeSpec(s) + ")");
      continue;
    }
    if (!attrMatches(s, *a)) return c.fail("attribute '" + s.name + "': expected " + describeSpec(s) + ", got " + a->str());
  }
  for (auto &[name, value] : op.attrs().entries()) {
    bool known = name.find('.') != std::string::npos;  // namespaced attributes are free-form
    for (const AttrSpec &s : specs) known |= s.name == name;
    if (!known) return c.fail("has unknown attribute '" + name + "'");
  }

  for (unsigned i = 0; i < op.numResults(); ++i) {
    Type t = op.result(i)->type();
    std::string why;
    if (t.layout() && !(t.isBuffer() ? toSharedLayout(*t.layout(), t.shape(), &why)
                                     : toLinearLayout(*t.layout(), t.shape(), &why)))
      return c.fail("result #" + std::to_string(i) + " has an invalid layout: " + why);
  }
  bool threadLevel = op.parentFunction() && op.parentFunction()->isThreadLevel();
  if (threadLevel && (info.traits & kTileLevel))
    return c.fail("is a tile-level op; it cannot appear at the thread level (after lower-to-threads)");
  if (!threadLevel && (info.traits & kThreadLevel))
    return c.fail("is a thread-level op; it needs a function with attribute level = \"thread\"");
  if (threadLevel) {
    for (unsigned i = 0; i < op.numResults(); ++i)
      if (op.result(i)->type().isTile() || op.result(i)->type().isBuffer())
        return c.fail("result #" + std::to_string(i) + " is a " + (op.result(i)->type().isTile() ? "tile" : "buffer") +
                      "; the thread level has none");
  }
  if (info.traits & kSameType) {
    Type t = op.numOperands() ? op.operand(0)->type() : op.result()->type();
    for (unsigned i = 0; i < op.numOperands(); ++i)
      if (!expectType(c, ("operand #" + std::to_string(i)).c_str(), op.operand(i)->type(), t)) return false;
    for (unsigned i = 0; i < op.numResults(); ++i)
      if (!expectType(c, ("result #" + std::to_string(i)).c_str(), op.result(i)->type(), t)) return false;
  }
  if ((info.traits & kElementwise) && op.numResults() == 1 && op.result()->type().isTile() && op.result()->type().layout()) {
    // Register by register: the operands' tiles are laid out as the result.
    const Layout *l = op.result()->type().layout();
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      Type t = op.operand(i)->type();
      if (t.isTile() && t.layout() != l)
        return c.fail("operand #" + std::to_string(i) + ": an elementwise op's tiles share its result's layout; got " +
                      t.str() + " for a result of " + op.result()->type().str());
    }
  }
  if (info.traits & (kNumeric | kIntOnly | kFloatOnly)) {
    Type t = op.operand(0)->type();
    bool ok = (info.traits & kIntOnly) ? t.isInteger() : (info.traits & kFloatOnly) ? t.isFloat() : isNumericElement(t);
    const char *want = (info.traits & kIntOnly) ? "integer" : (info.traits & kFloatOnly) ? "float" : "integer or float";
    if (!ok) return c.fail("operand #0: expected " + std::string(want) + " elements, got " + t.str());
  }
  return true;
}

class ModuleVerifier {
public:
  ModuleVerifier(const Module &m, std::vector<std::string> &errors) : c_{m, errors} {}

  void run() {
    for (auto &f : c_.module.functions()) {
      if (std::count_if(c_.module.functions().begin(), c_.module.functions().end(),
                        [&](auto &g) { return g->name() == f->name(); }) > 1)
        c_.errors.push_back(f->loc.str() + ": error: function @" + f->name() + " is defined more than once");
      visible_.clear();
      for (Value *a : f->entry().arguments()) visible_.insert(a);
      verifyArgumentAttributes(*f);
      verifyBlock(f->entry(), nullptr, f.get());
    }
  }

private:
  // pointer_range = 32 (ir/IR.h) is a fact about pointers, and the only range;
  // descriptor and tensor_map (ir/IR.h) describe pointers and the arguments
  // after them.
  void verifyArgumentAttributes(const Function &f) {
    for (unsigned i = 0; i < f.numArguments(); ++i) {
      std::string where = f.loc.str() + ": error: @" + f.name() + " argument #" + std::to_string(i) + ": ";
      if (const Attribute *d = f.argAttrs(i).find("descriptor")) verifyDescriptorArgument(f, i, *d, where);
      if (const Attribute *m = f.argAttrs(i).find("tensor_map")) verifyTensorMapArgument(f, i, *m, where);
      if (const Attribute *st = f.argAttrs(i).find("stores"); st && (!st->isBool() || !f.argAttrs(i).find("tensor_map")))
        c_.errors.push_back(where + "stores = true|false applies to tensor_map arguments, got " + st->str());
      const Attribute *range = f.argAttrs(i).find("pointer_range");
      if (!range) continue;
      if (!f.argument(i)->type().isPointer())
        c_.errors.push_back(where + "pointer_range applies to pointers, not " + f.argument(i)->type().str());
      else if (!range->isInt() || range->getInt() != 32)
        c_.errors.push_back(where + "pointer_range must be 32, got " + range->str());
    }
  }

  void verifyDescriptorArgument(const Function &f, unsigned i, const Attribute &d, const std::string &where) {
    if (!f.argument(i)->type().isPointer() || !d.isInt() || d.getInt() < 1) {
      c_.errors.push_back(where + "descriptor = <rank> applies to pointers, got " + d.str() + " on " +
                          f.argument(i)->type().str());
      return;
    }
    for (int64_t k = 1; k <= 2 * d.getInt(); ++k)
      if (i + k >= f.numArguments() || f.argument(unsigned(i + k))->type() != Type::i64()) {
        c_.errors.push_back(where + "a descriptor of rank " + std::to_string(d.getInt()) +
                            " needs its extents and strides (i64) as the next " + std::to_string(2 * d.getInt()) +
                            " arguments");
        return;
      }
  }

  void verifyTensorMapArgument(const Function &f, unsigned i, const Attribute &m, const std::string &where) {
    if (!f.argument(i)->type().isPointer() || !m.isInts() || m.getInts().size() < 3) {
      c_.errors.push_back(where + "tensor_map = [descriptor, box..., swizzle] applies to pointers, got " + m.str());
      return;
    }
    const std::vector<int64_t> &v = m.getInts();
    int64_t d = v[0];
    if (const Attribute *fields = f.argAttrs(i).find("tensor_map_fields")) {
      verifyTensorMapFields(f, d, int64_t(v.size()) - 2, *fields, where);
    } else {
      const Attribute *rank = d >= 0 && d < int64_t(f.numArguments()) ? f.argAttrs(unsigned(d)).find("descriptor") : nullptr;
      if (!rank || !rank->isInt() || rank->getInt() + 2 != int64_t(v.size()))
        c_.errors.push_back(where + "tensor_map " + m.str() + " does not name a descriptor argument of rank " +
                            std::to_string(v.size() - 2));
    }
    int64_t swizzle = v.back();
    if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
      c_.errors.push_back(where + "tensor_map swizzle must be 0, 32, 64 or 128 bytes, got " + std::to_string(swizzle));
    for (size_t k = 1; k + 1 < v.size(); ++k)
      if (v[k] < 1 || v[k] > 256) c_.errors.push_back(where + "tensor_map box dimensions must be 1 to 256, got " + m.str());
  }

  // A map of a descriptor the kernel made: a pointer base, and extents and
  // strides that are products of i32/i64 arguments and positive constants,
  // the last stride 1 (ir/IR.h).
  void verifyTensorMapFields(const Function &f, int64_t base, int64_t rank, const Attribute &fields, const std::string &where) {
    if (base < 0 || base >= int64_t(f.numArguments()) || !f.argument(unsigned(base))->type().isPointer() ||
        f.argAttrs(unsigned(base)).find("descriptor"))
      c_.errors.push_back(where + "a tensor_map with tensor_map_fields needs a pointer argument that is not a descriptor as its base");
    std::vector<std::string> list;
    if (fields.isString()) {
      std::istringstream in(fields.getString());
      for (std::string field; in >> field;) list.push_back(field);
    }
    if (int64_t(list.size()) != 2 * rank) {
      c_.errors.push_back(where + "tensor_map_fields " + fields.str() + " must list " + std::to_string(2 * rank) +
                          " extents and strides");
      return;
    }
    for (const std::string &field : list) {
      std::istringstream factors(field);
      for (std::string x; std::getline(factors, x, '*');) {
        bool arg = false;
        int64_t value = 0;
        bool parsed = parseTensorMapFactor(x, arg, value);
        Type t = parsed && arg && value < int64_t(f.numArguments()) ? f.argument(unsigned(value))->type() : Type();
        if (!parsed || (arg ? t != Type::i32() && t != Type::i64() : value < 1))
          c_.errors.push_back(where + "tensor_map_fields " + fields.str() + ": '" + x +
                              "' is neither a positive constant nor an i32 or i64 argument (aN)");
      }
    }
    if (list.back() != "1")
      c_.errors.push_back(where + "tensor_map_fields " + fields.str() + ": the last stride must be 1");
  }

  void verifyBlock(const Block &b, const Operation *owner, const Function *f) {
    std::vector<const Value *> added;
    for (Value *a : b.arguments()) visible_.insert(a), added.push_back(a);
    const Operation *last = b.empty() ? nullptr : b.back();
    for (auto &opPtr : b.ops()) {
      const Operation &op = *opPtr;
      c_.op = &op;
      bool ok = true;
      for (unsigned i = 0; i < op.numOperands() && ok; ++i)
        if (!visible_.count(op.operand(i)))
          ok = c_.fail("operand #" + std::to_string(i) + " is not defined before its use here");
      if (op.hasTrait(kTerminator) && &op != last) ok = ok && c_.fail("must be the last op of its block");
      ok = ok && checkTableRules(op, c_);
      for (unsigned r = 0; r < op.numRegions(); ++r) verifyBlock(op.region(r).block(), &op, f);
      c_.op = &op;
      if (ok) ok = checkTerminatorPlacement(op, owner, f);
      if (ok && ruleFor(op.code()).hook) ruleFor(op.code()).hook(op, c_);
      for (unsigned i = 0; i < op.numResults(); ++i) visible_.insert(op.result(i)), added.push_back(op.result(i));
    }
    if (!last || !last->hasTrait(kTerminator)) {
      std::string where = owner ? std::string("a region of '") + owner->name() + "'" : "the body of @" + f->name();
      Loc loc = owner ? owner->loc() : f->loc;
      c_.errors.push_back(loc.str() + ": error: " + where + " must end with a terminator");
    }
    for (const Value *v : added) visible_.erase(v);
  }

  bool checkTerminatorPlacement(const Operation &op, const Operation *owner, const Function *f) {
    if (!op.hasTrait(kTerminator)) return true;
    OpCode want = OpCode::Yield;
    if (!owner) want = OpCode::Return;
    else if (owner->is(OpCode::While) && &owner->region(0).block() == op.parentBlock()) want = OpCode::Condition;
    if (op.code() != want)
      return c_.fail(std::string("cannot end ") + (owner ? std::string("a region of '") + owner->name() + "'" : "a function body") +
                     "; expected '" + opInfo(want).name + "'");
    if (!owner) return expectTypes(c_, "returned value", op.operands(), f->resultTypes());
    return true;
  }

  Checker c_;
  std::unordered_set<const Value *> visible_;
};

} // namespace

bool verifyModule(const Module &m, std::vector<std::string> *errors) {
  std::vector<std::string> local;
  std::vector<std::string> &out = errors ? *errors : local;
  size_t before = out.size();
  ModuleVerifier(m, out).run();
  return out.size() == before;
}

std::string joinErrors(const std::vector<std::string> &errors) {
  std::string s;
  for (auto &e : errors) s += e + "\n";
  return s;
}

} // namespace tessera::ir
