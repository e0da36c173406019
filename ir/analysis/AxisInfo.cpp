// The rules follow Triton's AxisInfo.cpp; where Triton claims more than holds,
// the rule here is cut down to what is proved, and the comment says so
// ("Triton: ..."). Notation: for operands a and b and dimension d, c/D/k are
// contiguity/divisibility/constancy, n the dimension's size, allD(x) a power of
// two dividing every element of x (x.divisibilityEvery(d, 1)).
//
// A fact used throughout: a block of g elements counting up from a multiple of
// g, g a power of two, never crosses a multiple of g. So it crosses neither
// zero nor a wrap point (2^(w-1) signed, 2^w unsigned), nor a multiple of any
// v with g | v. gcd(c, D) is such a g for any run.
#include "ir/analysis/AxisInfo.h"

#include "ir/Fold.h"

#include <algorithm>
#include <numeric>
#include <sstream>

namespace tessera::ir {
namespace {

constexpr int64_t kMax = AxisInfo::kMaxDivisor;

int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }
template <typename... T> int64_t gcd(int64_t a, int64_t b, T... rest) { return gcd(std::gcd(a, b), rest...); }
// Product of two powers of two, capped at kMaxDivisor.
int64_t mulPow2(int64_t a, int64_t b) { return a > kMax / b ? kMax : a * b; }

std::vector<int64_t> dimsOf(Type t) { return t.isTile() ? t.shape() : std::vector<int64_t>{1}; }

// 1 for integers; the pointee's size in bytes for pointers.
int64_t stepOf(Type t) {
  Type e = t.element();
  return e.isPointer() ? std::max(1, e.pointee().bitWidth() / 8) : 1;
}

int64_t allD(const AxisInfo &a, size_t d, int64_t step = 1) { return a.divisibilityEvery(d, 1, step); }

// Divides every element: each dimension's allD is a bound on all of them.
int64_t allDAnyDim(const AxisInfo &a, int64_t step) {
  int64_t r = 1;
  for (size_t d = 0; d < a.rank(); ++d) r = std::max(r, allD(a, d, step));
  return r;
}

struct Dim {
  int64_t c = 1, div = 1, k = 1;
};

template <typename F> AxisInfo perDim(size_t rank, F &&f) {
  AxisInfo r;
  for (size_t d = 0; d < rank; ++d) {
    Dim x = f(d);
    r.contiguity.push_back(x.c);
    r.divisibility.push_back(x.div);
    r.constancy.push_back(x.k);
  }
  return r;
}

// Runs cut to aligned power-of-two blocks (g = gcd(c, D)). Sign or zero
// extension keeps such a block consecutive; a longer run may cross the narrow
// type's wrap point, where the extended values jump by 2^w.
AxisInfo alignedRuns(const AxisInfo &a) {
  AxisInfo r = a;
  for (size_t d = 0; d < a.rank(); ++d) {
    r.contiguity[d] = gcd(a.contiguity[d], a.divisibility[d]);
    r.divisibility[d] = a.divisibilityEvery(d, r.contiguity[d]);
  }
  return r;
}

// a + b, a - b and addptr(a, b) (b counts elements of `scale` bytes).
// A run of the result needs one side constant and the other counting up over
// it; a - b counts up only where a does. D divides both sides at the result's
// run starts. Triton: gcd(Da, Db) whatever the result's runs, which is wrong
// when they are shorter than an operand's ([0,0,16,16] + [0,1,2,3] has runs of
// 2 starting at 0 and 18, not multiples of 16).
AxisInfo addRule(const AxisInfo &a, const AxisInfo &b, bool sub, int64_t step, int64_t scale) {
  return perDim(a.rank(), [&](size_t d) {
    int64_t c = sub ? gcd(a.contiguity[d], b.constancy[d])
                    : std::max(gcd(a.constancy[d], b.contiguity[d]), gcd(a.contiguity[d], b.constancy[d]));
    return Dim{c, gcd(a.divisibilityEvery(d, c, step), mulPow2(b.divisibilityEvery(d, c), scale)),
               gcd(a.constancy[d], b.constancy[d])};
  });
}

bool isPowerOf2(uint64_t v) { return v && !(v & (v - 1)); }

} // namespace

int64_t highestPowerOf2Divisor(int64_t v) {
  if (v == 0) return kMax;
  uint64_t u = uint64_t(v);
  return int64_t(std::min<uint64_t>(u & (~u + 1), uint64_t(kMax)));
}

bool hasAxisInfo(Type t) { return t.element().isPointer() || t.element().isInteger(); }

AxisInfo AxisInfo::unknown(size_t rank) {
  AxisInfo r;
  r.contiguity.assign(rank, 1);
  r.divisibility.assign(rank, 1);
  r.constancy.assign(rank, 1);
  return r;
}

AxisInfo AxisInfo::constant(int64_t value, const std::vector<int64_t> &dims) {
  AxisInfo r = unknown(dims.size());
  r.divisibility.assign(dims.size(), highestPowerOf2Divisor(value));
  r.constancy = dims;
  r.constantValue = value;
  return r;
}

int64_t AxisInfo::divisibilityEvery(size_t d, int64_t g, int64_t step) const {
  int64_t c = contiguity[d];
  if (g % c == 0) return divisibility[d];
  return gcd(divisibility[d], gcd(g, c) * step);
}

// Blocks of gcd(ca, cb) lie inside a run of either side; D must hold at their starts.
AxisInfo AxisInfo::join(const AxisInfo &a, const AxisInfo &b, int64_t step) {
  AxisInfo r = perDim(a.rank(), [&](size_t d) {
    int64_t c = gcd(a.contiguity[d], b.contiguity[d]);
    return Dim{c, gcd(a.divisibilityEvery(d, c, step), b.divisibilityEvery(d, c, step)),
               gcd(a.constancy[d], b.constancy[d])};
  });
  if (a.constantValue == b.constantValue) r.constantValue = a.constantValue;
  return r;
}

std::string AxisInfo::str() const {
  std::ostringstream os;
  auto list = [&](const char *name, const std::vector<int64_t> &v) {
    os << name << " [";
    for (size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
    os << "]";
  };
  list("contiguity", contiguity);
  list(" divisibility", divisibility);
  list(" constancy", constancy);
  if (constantValue) os << " constant " << *constantValue;
  return os.str();
}

// ---- the analysis

AxisAnalysis::AxisAnalysis(const Function &f) {
  for (unsigned i = 0; i < f.numArguments(); ++i) {
    const Value *v = f.argument(i);
    std::vector<int64_t> n = dimsOf(v->type());
    AxisInfo info = AxisInfo::unknown(n.size());
    const AttrDict &attrs = f.argAttrs(i);
    if (hasAxisInfo(v->type())) {
      const Attribute *div = attrs.find("divisibility");
      if (v->type().isInteger() && attrs.getBool("equal_to_one", false))
        info = AxisInfo::constant(1, n);
      else if (div && div->isInt() && div->getInt() > 0)  // a multiple of N is a multiple of N's power of two
        info.divisibility.assign(n.size(), highestPowerOf2Divisor(div->getInt()));
    }
    set(v, info);
  }
  visitBlock(f.entry());
}

const AxisInfo &AxisAnalysis::get(const Value *v) const {
  auto it = info_.find(v);
  if (it != info_.end()) return it->second;
  return info_.emplace(v, AxisInfo::unknown(dimsOf(v->type()).size())).first->second;
}

void AxisAnalysis::visitBlock(const Block &b) {
  for (const auto &op : b.ops()) visitOp(*op);
}

void AxisAnalysis::visitOp(const Operation &op) {
  switch (op.code()) {
  case OpCode::For: visitFor(op); return;
  case OpCode::While: visitWhile(op); return;
  case OpCode::If: {
    // Either branch's yield: the join.
    visitBlock(op.region(0).block());
    visitBlock(op.region(1).block());
    const Operation *y0 = op.region(0).block().terminator(), *y1 = op.region(1).block().terminator();
    for (unsigned i = 0; i < op.numResults(); ++i) {
      const Value *r = op.result(i);
      set(r, y0 && y1 ? AxisInfo::join(get(y0->operand(i)), get(y1->operand(i)), stepOf(r->type()))
                      : AxisInfo::unknown(dimsOf(r->type()).size()));
    }
    return;
  }
  default:
    // reduce and scan: the combine region's arguments are unknown.
    for (unsigned r = 0; r < op.numRegions(); ++r) visitBlock(op.region(r).block());
    for (unsigned i = 0; i < op.numResults(); ++i) set(op.result(i), transfer(op, i));
  }
}

void AxisAnalysis::visitFor(const Operation &op) {
  const Block &body = op.region(0).block();
  // iv = lb + j * step.
  AxisInfo iv = AxisInfo::unknown(1);
  iv.divisibility[0] = gcd(get(op.operand(0)).divisibility[0], get(op.operand(2)).divisibility[0]);
  set(body.argument(0), iv);
  std::vector<AxisInfo> carried;
  for (unsigned i = 0; i < op.numResults(); ++i) carried.push_back(get(op.operand(3 + i)));
  for (int round = 0;; ++round) {
    for (unsigned i = 0; i < carried.size(); ++i) set(body.argument(i + 1), carried[i]);
    visitBlock(body);
    const Operation *y = body.terminator();
    bool changed = false;
    for (unsigned i = 0; i < carried.size(); ++i) {
      AxisInfo j = y ? AxisInfo::join(carried[i], get(y->operand(i)), stepOf(op.result(i)->type()))
                     : AxisInfo::unknown(carried[i].rank());
      changed |= j != carried[i];
      carried[i] = std::move(j);
    }
    if (!changed) break;
    if (round == kMaxLoopRounds) {
      for (unsigned i = 0; i < carried.size(); ++i) {
        carried[i] = AxisInfo::unknown(carried[i].rank());
        set(body.argument(i + 1), carried[i]);
      }
      visitBlock(body);
      break;
    }
  }
  for (unsigned i = 0; i < carried.size(); ++i) set(op.result(i), carried[i]);
}

void AxisAnalysis::visitWhile(const Operation &op) {
  // before(args) -> condition(c, fwd...) -> after(fwd) -> yield -> before; results = fwd.
  const Block &before = op.region(0).block(), &after = op.region(1).block();
  std::vector<AxisInfo> carried;
  for (unsigned i = 0; i < op.numOperands(); ++i) carried.push_back(get(op.operand(i)));
  for (int round = 0;; ++round) {
    bool giveUp = round > kMaxLoopRounds;
    for (unsigned i = 0; i < carried.size(); ++i) {
      if (giveUp) carried[i] = AxisInfo::unknown(carried[i].rank());
      set(before.argument(i), carried[i]);
    }
    visitBlock(before);
    const Operation *cond = before.terminator();
    for (unsigned i = 0; i < after.numArguments(); ++i) {
      const Value *arg = after.argument(i);
      set(arg, cond ? get(cond->operand(i + 1)) : AxisInfo::unknown(dimsOf(arg->type()).size()));
    }
    visitBlock(after);
    if (giveUp) break;
    const Operation *y = after.terminator();
    bool changed = false;
    for (unsigned i = 0; i < carried.size(); ++i) {
      AxisInfo j = y ? AxisInfo::join(carried[i], get(y->operand(i)), stepOf(op.operand(i)->type()))
                     : AxisInfo::unknown(carried[i].rank());
      changed |= j != carried[i];
      carried[i] = std::move(j);
    }
    if (!changed) break;
  }
  for (unsigned i = 0; i < op.numResults(); ++i) set(op.result(i), get(after.argument(i)));
}

// Elementwise ops whose operands are all known constants fold exactly as Fold.cpp does.
std::optional<int64_t> AxisAnalysis::foldConstant(const Operation &op) const {
  switch (op.code()) {
  case OpCode::Add: case OpCode::Sub: case OpCode::Mul: case OpCode::Div: case OpCode::Rem:
  case OpCode::Neg: case OpCode::Min: case OpCode::Max: case OpCode::And: case OpCode::Or:
  case OpCode::Xor: case OpCode::Not: case OpCode::Shl: case OpCode::Shr: case OpCode::MulHi:
  case OpCode::Cmp: case OpCode::Select: case OpCode::Cast: case OpCode::Abs: break;
  default: return std::nullopt;
  }
  std::vector<Attribute> in;
  for (const Value *v : op.operands()) {
    if (!v->type().element().isInteger() || !get(v).constantValue) return std::nullopt;
    in.push_back(Attribute(*get(v).constantValue));
  }
  Type rt = op.result()->type();
  std::optional<Attribute> r = foldElementwise(op, in);
  if (!r || !r->isInt() || !rt.isInteger()) return std::nullopt;
  return normalizeInt(r->getInt(), rt);
}

// >= 0 by construction (there is no range analysis): unsigned types, aranges,
// program ids, non-negative constants, and shape ops of those.
bool AxisAnalysis::nonNegative(const Value *v, int depth) const {
  if (v->type().isUnsigned()) return true;
  if (auto c = get(v).constantValue) return *c >= 0;
  const Operation *def = v->definingOp();
  if (!def || depth > 16) return false;
  switch (def->code()) {
  case OpCode::Arange: case OpCode::ProgramId: case OpCode::NumPrograms: return true;
  case OpCode::Splat: case OpCode::Broadcast: case OpCode::ExpandDims: case OpCode::Reshape:
  case OpCode::Trans: case OpCode::Hint: case OpCode::ConvertLayout: return nonNegative(def->operand(0), depth + 1);
  default: return false;
  }
}

AxisInfo AxisAnalysis::transfer(const Operation &op, unsigned result) const {
  Type rt = op.result(result)->type();
  const std::vector<int64_t> n = dimsOf(rt);
  const size_t rank = n.size();
  if (!hasAxisInfo(rt)) return AxisInfo::unknown(rank);
  if (auto v = foldConstant(op)) return AxisInfo::constant(*v, n);
  const int64_t step = stepOf(rt);
  auto in = [&](unsigned i) -> const AxisInfo & { return get(op.operand(i)); };
  auto operandType = [&](unsigned i) { return op.operand(i)->type(); };
  auto unknown = [&] { return AxisInfo::unknown(rank); };

  AxisInfo r = [&]() -> AxisInfo {
    switch (op.code()) {
    // ---- sources
    case OpCode::Constant: {
      const Attribute *v = op.attr("value");
      return v->isInt() ? AxisInfo::constant(normalizeInt(v->getInt(), rt), n) : unknown();
    }
    case OpCode::Arange: {  // start, start+1, ...: one run; D of the start
      int64_t start = op.attr("start")->getInt();
      if (n[0] == 1) return AxisInfo::constant(start, n);
      return AxisInfo{{n[0]}, {highestPowerOf2Divisor(start)}, {1}, std::nullopt};
    }

    // ---- shape ops: lines along a dimension are lines of the operand
    case OpCode::Splat: {
      const AxisInfo &a = in(0);
      AxisInfo s = perDim(rank, [&](size_t d) { return Dim{1, allD(a, 0, step), n[d]}; });
      s.constantValue = a.constantValue;
      return s;
    }
    case OpCode::Broadcast: {  // a dimension of size 1 becomes constant along it
      const AxisInfo &a = in(0);
      std::vector<int64_t> ns = dimsOf(operandType(0));
      AxisInfo s = perDim(rank, [&](size_t d) {
        if (ns[d] == 1) return Dim{1, allD(a, d, step), n[d]};
        return Dim{a.contiguity[d], a.divisibility[d], a.constancy[d]};
      });
      s.constantValue = a.constantValue;
      return s;
    }
    case OpCode::ExpandDims: {  // the new dimension (size 1) holds any element
      const AxisInfo &a = in(0);
      AxisInfo s = operandType(0).isTile() ? a : AxisInfo{};
      size_t axis = size_t(op.attr("axis")->getInt());
      s.contiguity.insert(s.contiguity.begin() + axis, 1);
      s.divisibility.insert(s.divisibility.begin() + axis, allDAnyDim(a, step));
      s.constancy.insert(s.constancy.begin() + axis, 1);
      s.constantValue = a.constantValue;
      return s;
    }
    case OpCode::Trans: {
      const AxisInfo &a = in(0);
      const auto &order = op.attr("order")->getInts();
      AxisInfo s = perDim(rank, [&](size_t d) {
        size_t from = size_t(order[d]);
        return Dim{a.contiguity[from], a.divisibility[from], a.constancy[from]};
      });
      s.constantValue = a.constantValue;
      return s;
    }
    case OpCode::Reshape: {
      // Row-major: with g = gcd(last sizes), an aligned block of g in a result
      // row is an aligned block of g in an operand row. Other dimensions mix
      // rows: only what holds of every element. can_reorder: order unknown.
      const AxisInfo &a = in(0);
      std::vector<int64_t> ns = dimsOf(operandType(0));
      int64_t every = allDAnyDim(a, step);
      bool constantTile = true;
      for (size_t d = 0; d < ns.size(); ++d) constantTile &= a.constancy[d] >= ns[d];
      AxisInfo s = perDim(rank, [&](size_t d) { return Dim{1, every, constantTile ? n[d] : 1}; });
      if (operandType(0).isTile() && !op.attrs().getBool("can_reorder", false)) {
        size_t ld = rank - 1, sd = ns.size() - 1;
        int64_t g = gcd(n[ld], ns[sd]), c = gcd(a.contiguity[sd], g);
        s.contiguity[ld] = c;
        if (c > 1) s.divisibility[ld] = a.divisibilityEvery(sd, c, step);
        s.constancy[ld] = std::max(s.constancy[ld], gcd(a.constancy[sd], g));
      }
      s.constantValue = a.constantValue;
      return s;
    }
    case OpCode::Join: {  // [..., 2]: the leading dimensions hold lines of a or of b
      const AxisInfo &a = in(0), &b = in(1);
      AxisInfo s = operandType(0).isTile() ? AxisInfo::join(a, b, step) : AxisInfo{};
      s.contiguity.push_back(1);
      s.divisibility.push_back(gcd(allDAnyDim(a, step), allDAnyDim(b, step)));
      s.constancy.push_back(1);
      s.constantValue = a.constantValue == b.constantValue ? a.constantValue : std::nullopt;
      return s;
    }
    case OpCode::Split: {  // drops the last dimension (of size 2)
      AxisInfo s = in(0);
      s.contiguity.pop_back();
      s.divisibility.pop_back();
      s.constancy.pop_back();
      return s;
    }
    case OpCode::Cat: {  // along dimension 0: blocks dividing a's length never straddle the seam
      AxisInfo a = in(0), b = in(1);
      int64_t na = dimsOf(operandType(0))[0];
      for (AxisInfo *x : {&a, &b}) {
        int64_t c = gcd(x->contiguity[0], na);
        x->divisibility[0] = x->divisibilityEvery(0, c, step);
        x->contiguity[0] = c;
        x->constancy[0] = gcd(x->constancy[0], na);
      }
      return AxisInfo::join(a, b, step);
    }
    case OpCode::ConvertLayout:
      return in(0);  // the same values, held by other threads
    case OpCode::Hint: {
      // The user's promises, added to what is proved (Triton replaces instead;
      // the stronger of two true facts is true). A longer run keeps D only if
      // it is a multiple of the old one (its starts are old starts).
      AxisInfo s = in(0);
      auto hint = [&](const char *name, size_t d) -> int64_t {
        const Attribute *h = op.attr(name);
        return h && d < h->getInts().size() ? h->getInts()[d] : 0;
      };
      for (size_t d = 0; d < rank; ++d) {
        if (int64_t c = hint("contiguity", d); c > s.contiguity[d]) {
          s.divisibility[d] = s.divisibilityEvery(d, c, step);
          s.contiguity[d] = c;
        }
        if (int64_t v = hint("divisibility", d); v > 0)
          s.divisibility[d] = std::max(s.divisibility[d], highestPowerOf2Divisor(v));
        s.constancy[d] = std::max(s.constancy[d], hint("constancy", d));
      }
      return s;
    }

    // ---- arithmetic
    case OpCode::Add: return addRule(in(0), in(1), false, 1, 1);
    case OpCode::Sub: return addRule(in(0), in(1), true, 1, 1);
    case OpCode::AddPtr: {
      // Bytes: ptr + offset * size. Offsets narrower than 64 bits are extended
      // first, so only their aligned runs carry over (Triton: all runs).
      bool narrow = operandType(1).element().bitWidth() < 64;
      return addRule(in(0), narrow ? alignedRuns(in(1)) : in(1), false, step, step);
    }
    case OpCode::Mul: {
      const AxisInfo &a = in(0), &b = in(1);
      if (b.constantValue == 1) return a;  // x * 1 = x
      if (a.constantValue == 1) return b;
      if (a.constantValue == 0 || b.constantValue == 0) return AxisInfo::constant(0, n);
      // Products of multiples; no runs (Triton: the same).
      return perDim(rank, [&](size_t d) {
        return Dim{1, mulPow2(allD(a, d), allD(b, d)), gcd(a.constancy[d], b.constancy[d])};
      });
    }
    case OpCode::Div:
    case OpCode::Rem: {
      // Only by a constant v: x / 0 and INT_MIN / -1 are unspecified, so
      // nothing holds for an unknown divisor (Triton: constancy gcd(ka, kb)).
      const AxisInfo &a = in(0);
      std::optional<int64_t> v = in(1).constantValue;
      bool isSigned = rt.isSigned(), div = op.is(OpCode::Div);
      if (!v || *v == 0 || (isSigned && *v == -1)) return unknown();
      if (*v == 1) return div ? a : AxisInfo::constant(0, n);
      uint64_t mag = isSigned && *v < 0 ? 0 - uint64_t(*v) : uint64_t(*v);
      int64_t pv = highestPowerOf2Divisor(*v);
      // A block of g = gcd(ca, Da, pv) counts up from a multiple of g, g | v:
      // x / v is constant and x % v counts up on it, when x >= 0. Negative x
      // truncates toward zero (-4/4 = -1, -3/4 = 0), so signed needs x >= 0
      // (Triton: assumed).
      bool blocks = !isSigned || nonNegative(op.operand(0));
      return perDim(rank, [&](size_t d) {
        int64_t g = blocks ? gcd(a.contiguity[d], a.divisibility[d], pv) : 1;
        if (div) {  // x / 2^s is exact when 2^s | x
          int64_t dd = isPowerOf2(mag) && mag <= uint64_t(allD(a, d)) ? int64_t(uint64_t(allD(a, d)) / mag) : 1;
          return Dim{1, dd, std::max(a.constancy[d], g)};
        }
        return Dim{g, gcd(a.divisibilityEvery(d, g), pv), a.constancy[d]};  // x % v = x - q*v
      });
    }
    case OpCode::Shl:
    case OpCode::Shr: {
      // Only by a constant s in [0, width): wider shifts are unspecified.
      const AxisInfo &a = in(0);
      std::optional<int64_t> s = in(1).constantValue;
      if (!s || *s < 0 || *s >= rt.bitWidth()) return unknown();
      if (*s == 0) return a;
      int64_t f = *s >= 62 ? kMax : int64_t(1) << *s;
      if (op.is(OpCode::Shl))  // x * 2^s
        return perDim(rank, [&](size_t d) { return Dim{1, mulPow2(allD(a, d), f), a.constancy[d]}; });
      // floor(x / 2^s), for either sign: constant on blocks of gcd(ca, Da, 2^s).
      return perDim(rank, [&](size_t d) {
        return Dim{1, std::max<int64_t>(1, allD(a, d) / f),
                   std::max(a.constancy[d], gcd(a.contiguity[d], a.divisibility[d], f))};
      });
    }
    case OpCode::And: case OpCode::Or: case OpCode::Xor: case OpCode::Min: case OpCode::Max:
    case OpCode::MulHi: {
      // Elementwise: constant where both are. x & y keeps either's low zero
      // bits; or, xor, min and max keep the common ones. (Triton gives min/max
      // the common runs, which breaks where a run wraps.)
      const AxisInfo &a = in(0), &b = in(1);
      return perDim(rank, [&](size_t d) {
        int64_t div = op.is(OpCode::And)     ? std::max(allD(a, d), allD(b, d))
                      : op.is(OpCode::MulHi) ? 1
                                             : std::min(allD(a, d), allD(b, d));
        return Dim{1, div, gcd(a.constancy[d], b.constancy[d])};
      });
    }
    case OpCode::Neg: case OpCode::Abs: case OpCode::Not: {  // -x and |x| keep the low zero bits
      const AxisInfo &a = in(0);
      return perDim(rank, [&](size_t d) { return Dim{1, op.is(OpCode::Not) ? 1 : allD(a, d), a.constancy[d]}; });
    }
    case OpCode::Cmp: {
      // Triton's cases: a constant side that is a multiple of g never falls
      // strictly inside a block of g counting up from a multiple of g, so
      // A > x (A <= x) and x < B (x >= B) are constant on it.
      const AxisInfo &a = in(0), &b = in(1);
      const std::string &pred = op.attr("pred")->getString();
      bool ints = operandType(0).element().isInteger();
      return perDim(rank, [&](size_t d) {
        int64_t k = gcd(a.constancy[d], b.constancy[d]);
        if (ints && (pred == "gt" || pred == "le"))
          k = std::max(k, gcd(a.constancy[d], allD(a, d), b.contiguity[d], b.divisibility[d]));
        if (ints && (pred == "lt" || pred == "ge"))
          k = std::max(k, gcd(b.constancy[d], allD(b, d), a.contiguity[d], a.divisibility[d]));
        return Dim{1, 1, k};
      });
    }
    case OpCode::Select: {
      // Where the condition is constant, a block of either side.
      const AxisInfo &cond = in(0), &a = in(1), &b = in(2);
      if (cond.constantValue) return *cond.constantValue ? a : b;
      if (a.constantValue && a.constantValue == b.constantValue) return AxisInfo::constant(*a.constantValue, n);
      if (!operandType(0).isTile()) return AxisInfo::join(a, b, step);
      return perDim(rank, [&](size_t d) {
        int64_t c = gcd(a.contiguity[d], b.contiguity[d], cond.constancy[d]);
        return Dim{c, gcd(a.divisibilityEvery(d, c, step), b.divisibilityEvery(d, c, step)),
                   gcd(a.constancy[d], b.constancy[d], cond.constancy[d])};
      });
    }
    case OpCode::Cast:
    case OpCode::Bitcast: {
      const AxisInfo &a = in(0);
      Type from = operandType(0).element(), to = rt.element();
      if (!hasAxisInfo(from)) return unknown();
      if (op.is(OpCode::Cast) && from.isBool() != to.isBool())  // x != 0, or 0/1
        return perDim(rank, [&](size_t d) { return Dim{1, 1, a.constancy[d]}; });
      int64_t fromStep = stepOf(from);
      if (fromStep != step)  // the same bits, but consecutive values no longer one step apart
        return perDim(rank, [&](size_t d) { return Dim{1, allD(a, d, fromStep), a.constancy[d]}; });
      // Extension breaks runs that cross the narrow wrap point; truncation and
      // reinterpretation keep everything modulo 2^width.
      if (from.isInteger() && to.isInteger() && to.bitWidth() > from.bitWidth()) return alignedRuns(a);
      return a;
    }
    default:  // program ids, loads, atomics, dot, calls, reduce, scan: nothing known
      return unknown();
    }
  }();
  if (r.constantValue) return AxisInfo::constant(*r.constantValue, n);
  return r;
}

} // namespace tessera::ir
