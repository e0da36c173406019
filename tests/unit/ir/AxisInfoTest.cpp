// The axis analysis: the join, the loop fixed point, and a soundness check that
// runs random straight-line and loop programs on random inputs and compares
// every claim with the values computed.
#include "ir/analysis/AxisInfo.h"
#include "ir/Fold.h"
#include "ir/Parser.h"
#include "ir/Verifier.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <random>
#include <sstream>

using namespace tessera::ir;

namespace {

constexpr int64_t kMax = AxisInfo::kMaxDivisor;

AxisInfo info1(int64_t c, int64_t d, int64_t k) { return AxisInfo{{c}, {d}, {k}, std::nullopt}; }

std::unique_ptr<Module> parse(const std::string &text) {
  ParseResult r = parseModule(text);
  EXPECT_TRUE(r.module) << r.error;
  if (r.module) {
    std::vector<std::string> errs;
    EXPECT_TRUE(verifyModule(*r.module, &errs)) << (errs.empty() ? "" : errs[0]);
  }
  return std::move(r.module);
}

// The value named `name` (a result or block argument) in `f`.
const Value *named(const Function &f, const std::string &name) {
  const Value *found = nullptr;
  std::function<void(const Block &)> visit = [&](const Block &b) {
    for (unsigned i = 0; i < b.numArguments(); ++i)
      if (b.argument(i)->nameHint() == name) found = b.argument(i);
    for (const auto &op : b.ops()) {
      for (unsigned i = 0; i < op->numResults(); ++i)
        if (op->result(i)->nameHint() == name) found = op->result(i);
      for (unsigned r = 0; r < op->numRegions(); ++r) visit(op->region(r).block());
    }
  };
  visit(f.entry());
  EXPECT_TRUE(found) << "no value %" << name;
  return found;
}

} // namespace

TEST(AxisInfo, DivisibilityEveryRealignsToShorterRuns) {
  AxisInfo a = info1(8, 64, 1);  // runs of 8 starting at multiples of 64
  EXPECT_EQ(a.divisibilityEvery(0, 8), 64);
  EXPECT_EQ(a.divisibilityEvery(0, 16), 64);  // every other run start
  EXPECT_EQ(a.divisibilityEvery(0, 2), 2);    // 64k, 64k+2, ...
  EXPECT_EQ(a.divisibilityEvery(0, 1), 1);
  EXPECT_EQ(a.divisibilityEvery(0, 4, 4), 16);  // pointers to 4-byte elements: +16 bytes
  EXPECT_EQ(info1(1, 32, 4).divisibilityEvery(0, 1), 32);  // no runs: every element
}

TEST(AxisInfo, JoinTakesCommonRunsAndRealignsDivisibility) {
  AxisInfo a = info1(8, 64, 1), b = info1(2, 1024, 1);
  AxisInfo j = AxisInfo::join(a, b);
  EXPECT_EQ(j.contiguity[0], 2);
  EXPECT_EQ(j.divisibility[0], 2);  // a's elements 64k+2 start runs of 2
  EXPECT_EQ(j.constancy[0], 1);
  EXPECT_EQ(AxisInfo::join(a, a), a);
  EXPECT_EQ(AxisInfo::join(info1(4, 16, 1), info1(4, 64, 1)), info1(4, 16, 1));
  // Pointers to f32: a run of 2 in a run of 4 starts 8 bytes in.
  EXPECT_EQ(AxisInfo::join(info1(4, 16, 1), info1(2, 16, 1), 4), info1(2, 8, 1));
  // Constants: equal ones stay, different ones keep the common divisibility.
  AxisInfo c16 = AxisInfo::constant(16, {8}), c48 = AxisInfo::constant(48, {8});
  EXPECT_EQ(AxisInfo::join(c16, c16), c16);
  AxisInfo j2 = AxisInfo::join(c16, c48);
  EXPECT_FALSE(j2.constantValue);
  EXPECT_EQ(j2.divisibility[0], 16);
  EXPECT_EQ(j2.constancy[0], 8);
  EXPECT_EQ(AxisInfo::join(AxisInfo::constant(0, {8}), c48).divisibility[0], 16);
}

TEST(AxisInfo, HighestPowerOf2Divisor) {
  EXPECT_EQ(highestPowerOf2Divisor(0), kMax);
  EXPECT_EQ(highestPowerOf2Divisor(24), 8);
  EXPECT_EQ(highestPowerOf2Divisor(-16), 16);
  EXPECT_EQ(highestPowerOf2Divisor(INT64_MIN), kMax);
}

TEST(AxisAnalysis, LoopStartsFromTheInitAndJoinsTheYield) {
  // A pointer tile advanced by 32 elements (128 bytes) stays aligned to 16; an
  // offset tile advanced by 1 keeps its run but loses its alignment.
  auto m = parse(R"(
kernel @k(%p: ptr<f32> {divisibility = 16}, %n: i32) {
  %z = constant {value = 0} : i32
  %one = constant {value = 1} : i32
  %r = arange {end = 64, start = 0} : tile<64xi32>
  %ps = splat %p : tile<64xptr<f32>>
  %ptrs = addptr %ps, %r : tile<64xptr<f32>>
  %c32 = constant {value = 32} : tile<64xi32>
  %c1 = constant {value = 1} : tile<64xi32>
  %pf, %of = for %z, %n, %one, %ptrs, %r : tile<64xptr<f32>>, tile<64xi32> {
  ^bb(%i: i32, %pa: tile<64xptr<f32>>, %oa: tile<64xi32>):
    %use = addptr %pa, %oa : tile<64xptr<f32>>
    %pn = addptr %pa, %c32 : tile<64xptr<f32>>
    %on = add %oa, %c1 : tile<64xi32>
    yield %pn, %on
  }
  return
}
)");
  const Function &f = *m->functions()[0];
  AxisAnalysis a(f);
  EXPECT_EQ(a.get(named(f, "pa")), AxisInfo({{64}, {16}, {1}, std::nullopt}));
  EXPECT_EQ(a.get(named(f, "pf")), a.get(named(f, "pa")));
  EXPECT_EQ(a.get(named(f, "oa")), AxisInfo({{64}, {1}, {1}, std::nullopt}));
  EXPECT_EQ(a.get(named(f, "of")), a.get(named(f, "oa")));
  // Values in the body see the fixed point, not the first round: offsets with
  // unknown alignment keep only aligned runs through the i32 -> address extension.
  EXPECT_EQ(a.get(named(f, "use")), AxisInfo({{1}, {4}, {1}, std::nullopt}));
  EXPECT_EQ(a.get(named(f, "i")).divisibility[0], 1);
}

TEST(AxisAnalysis, LoopCarriedConstantBecomesItsCommonDivisibility) {
  // x = 0; x = x + 48 each round: 0, 48, 96, ... are multiples of 16, no constant.
  // y stays 16 in every round: a constant.
  auto m = parse(R"(
func @f(%n: i32) -> (i32, i32) {
  %z = constant {value = 0} : i32
  %one = constant {value = 1} : i32
  %c48 = constant {value = 48} : i32
  %c16 = constant {value = 16} : i32
  %x, %y = for %z, %n, %one, %z, %c16 : i32, i32 {
  ^bb(%i: i32, %xa: i32, %ya: i32):
    %xn = add %xa, %c48 : i32
    %yn = mul %ya, %one : i32
    yield %xn, %yn
  }
  return %x, %y
}
)");
  const Function &f = *m->functions()[0];
  AxisAnalysis a(f);
  EXPECT_EQ(a.get(named(f, "x")), AxisInfo({{1}, {16}, {1}, std::nullopt}));
  EXPECT_EQ(a.get(named(f, "y")), AxisInfo::constant(16, {1}));
  EXPECT_EQ(a.get(named(f, "xn")).divisibility[0], 16);
}

TEST(AxisAnalysis, NestedLoopsAndWhile) {
  auto m = parse(R"(
func @f(%n: i32, %t: tile<16xi32>) -> (tile<16xi32>, i32) {
  %z = constant {value = 0} : i32
  %one = constant {value = 1} : i32
  %r = arange {end = 16, start = 0} : tile<16xi32>
  %c64 = constant {value = 64} : tile<16xi32>
  %c8 = constant {value = 8} : tile<16xi32>
  %outer = for %z, %n, %one, %r : tile<16xi32> {
  ^bb(%i: i32, %oa: tile<16xi32>):
    %inner = for %z, %n, %one, %oa : tile<16xi32> {
    ^bb(%j: i32, %ia: tile<16xi32>):
      %in = add %ia, %c64 : tile<16xi32>
      yield %in
    }
    %on = add %inner, %c8 : tile<16xi32>
    yield %on
  }
  %w = while %z : i32 {
  ^bb(%wa: i32):
    %lt = cmp %wa, %n {pred = "lt"} : i1
    condition %lt, %wa
  } {
  ^bb(%wb: i32):
    %c4 = constant {value = 4} : i32
    %wn = add %wb, %c4 : i32
    yield %wn
  }
  return %outer, %w
}
)");
  const Function &f = *m->functions()[0];
  AxisAnalysis a(f);
  EXPECT_EQ(a.get(named(f, "outer")), AxisInfo({{16}, {8}, {1}, std::nullopt}));
  EXPECT_EQ(a.get(named(f, "ia")), AxisInfo({{16}, {8}, {1}, std::nullopt}));
  EXPECT_EQ(a.get(named(f, "w")), AxisInfo({{1}, {4}, {1}, std::nullopt}));
  EXPECT_EQ(a.get(named(f, "wb")), a.get(named(f, "w")));
}

// ---- soundness: random programs, random inputs, every claim checked

namespace {

// Values of one SSA value: elements in row-major order, integers normalized
// to their type, pointers as 64-bit addresses.
using Values = std::vector<int64_t>;

struct Interpreter {
  std::mt19937_64 &rng;
  std::map<const Value *, Values> vals;
  std::vector<std::string> failures;
  const AxisAnalysis &axis;

  static std::vector<int64_t> dims(Type t) { return t.isTile() ? t.shape() : std::vector<int64_t>{1}; }

  void check(const Value *v) {
    if (!hasAxisInfo(v->type())) return;
    const Values &x = vals[v];
    const AxisInfo &info = axis.get(v);
    std::vector<int64_t> shape = dims(v->type());
    Type e = v->type().element();
    int64_t step = e.isPointer() ? e.pointee().bitWidth() / 8 : 1;
    auto next = [&](int64_t a) { return e.isPointer() ? int64_t(uint64_t(a) + uint64_t(step)) : normalizeInt(int64_t(uint64_t(a) + 1), e); };
    std::vector<int64_t> strides(shape.size(), 1);
    for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
    auto fail = [&](const std::string &what) {
      std::ostringstream os;
      os << "%" << v->nameHint() << ": " << what << " fails; claimed " << info.str() << "; values";
      for (int64_t a : x) os << " " << a;
      failures.push_back(os.str());
    };
    if (info.constantValue)
      for (int64_t a : x)
        if (a != *info.constantValue) return fail("constant");
    for (size_t d = 0; d < shape.size(); ++d) {
      int64_t c = info.contiguity[d], k = info.constancy[d], dv = info.divisibility[d];
      for (int64_t flat = 0; flat < int64_t(x.size()); ++flat) {
        int64_t i = (flat / strides[d]) % shape[d];
        if (uint64_t(x[flat]) % uint64_t(dv) != 0 && i % c == 0) return fail("divisibility");
        if (i + 1 < shape[d]) {
          int64_t y = x[flat + strides[d]];
          if ((i + 1) % c != 0 && y != next(x[flat])) return fail("contiguity");
          if ((i + 1) % k != 0 && y != x[flat]) return fail("constancy");
        }
      }
    }
  }

  int64_t unspecified(Type t) { return t.isPointer() ? int64_t(rng()) : normalizeInt(int64_t(rng()), t); }

  void run(const Operation &op) {
    const Value *res = op.numResults() ? op.result() : nullptr;
    Type rt = res ? res->type() : Type();
    std::vector<int64_t> rs = res ? dims(rt) : std::vector<int64_t>{};
    int64_t count = 1;
    for (int64_t s : rs) count *= s;
    auto operand = [&](unsigned i) -> const Values & { return vals[op.operand(i)]; };
    Values out(count);
    switch (op.code()) {
    case OpCode::Constant: out.assign(count, normalizeInt(op.attr("value")->getInt(), rt)); break;
    case OpCode::Arange:
      for (int64_t i = 0; i < count; ++i) out[i] = op.attr("start")->getInt() + i;
      break;
    case OpCode::Splat: out.assign(count, operand(0)[0]); break;
    case OpCode::Cat:
      out = operand(0);
      out.insert(out.end(), operand(1).begin(), operand(1).end());
      break;
    case OpCode::Broadcast:
    case OpCode::ExpandDims:
    case OpCode::Reshape:
      if (op.is(OpCode::Broadcast) && op.operand(0)->type().numElements() != count) {
        std::vector<int64_t> src = dims(op.operand(0)->type());  // rank 2 here
        for (int64_t i = 0; i < count; ++i) {
          int64_t r = i / rs[1], c = i % rs[1];
          out[i] = operand(0)[(src[0] == 1 ? 0 : r) * src[1] + (src[1] == 1 ? 0 : c)];
        }
      } else {
        out = operand(0);
      }
      break;
    case OpCode::Trans:
      for (int64_t i = 0; i < count; ++i) out[i] = operand(0)[(i % rs[1]) * rs[0] + i / rs[1]];
      break;
    case OpCode::AddPtr:
      // Offsets are normalized: sign-extended when signed, zero-extended when unsigned.
      for (int64_t i = 0; i < count; ++i)
        out[i] = int64_t(uint64_t(operand(0)[i]) + uint64_t(operand(1)[i]) * uint64_t(rt.pointee().bitWidth() / 8));
      break;
    case OpCode::For: {
      const Block &body = op.region(0).block();
      int64_t lb = operand(0)[0], ub = operand(1)[0], st = operand(2)[0];
      std::vector<Values> carried;
      for (unsigned i = 3; i < op.numOperands(); ++i) carried.push_back(operand(i));
      for (int64_t iv = lb; iv < ub; iv += st) {
        vals[body.argument(0)] = {iv};
        for (unsigned i = 0; i < carried.size(); ++i) vals[body.argument(i + 1)] = carried[i];
        for (unsigned i = 0; i < body.numArguments(); ++i) check(body.argument(i));
        for (const auto &inner : body.ops()) {
          if (inner->is(OpCode::Yield)) {
            for (unsigned i = 0; i < carried.size(); ++i) carried[i] = vals[inner->operand(i)];
          } else {
            run(*inner);
          }
        }
      }
      for (unsigned i = 0; i < carried.size(); ++i) {
        vals[op.result(i)] = carried[i];
        check(op.result(i));
      }
      return;
    }
    case OpCode::Cast:
      if (rt.element().isPointer() || op.operand(0)->type().element().isPointer()) {  // the same 64 bits
        out = operand(0);
        break;
      }
      [[fallthrough]];
    default: {  // elementwise, with Fold.cpp's exact semantics
      for (int64_t i = 0; i < count; ++i) {
        std::vector<Attribute> in;
        for (unsigned k = 0; k < op.numOperands(); ++k) {
          const Values &o = operand(k);
          in.push_back(Attribute(o.size() == 1 ? o[0] : o[i]));
        }
        std::optional<Attribute> r = foldElementwise(op, in);
        out[i] = r ? normalizeInt(r->getInt(), rt) : unspecified(rt.element());
      }
    }
    }
    vals[res] = out;
    check(res);
  }
};

// A random kernel: rows of 8 (i32, u32, i64, i1, pointers to f32), 8x8 tiles,
// reshapes, cats, casts and small for loops carrying offsets and pointers.
struct Generator {
  std::mt19937_64 &rng;
  std::ostringstream body;
  std::map<std::string, std::vector<std::string>> pool;  // type -> value names
  int next = 0;

  int pick(int n) { return int(rng() % uint64_t(n)); }
  std::string any(const std::string &type) { auto &v = pool[type]; return v[pick(int(v.size()))]; }
  std::string def(const std::string &type, const std::string &text) {
    std::string name = "v" + std::to_string(next++);
    body << "  %" << name << " = " << text << " : " << type << "\n";
    pool[type].push_back(name);
    return name;
  }
  int64_t interesting() {
    static const int64_t vals[] = {0, 1, 2, 3, 4, 7, 8, 16, 24, 64, -1, -2, -8, -16, 2147483647, -2147483648, 2147483632};
    return vals[pick(int(std::size(vals)))];
  }

  std::string binop(const std::string &t) {
    static const char *ops[] = {"add", "sub", "mul", "div", "rem", "shl", "shr", "and", "or", "xor", "min", "max"};
    std::string op = ops[pick(12)];
    std::string a = any(t), b = any(t);
    if ((op == "div" || op == "rem" || op == "shl" || op == "shr") && pick(3)) {  // mostly by constants
      b = def(t, "constant {value = " + std::to_string(op[0] == 's' ? pick(6) : interesting()) + "}");
    }
    return def(t, op + " %" + a + ", %" + b);
  }

  std::string program() {
    body << "kernel @k(%a: i32 {divisibility = 16}, %b: i32, %p: ptr<f32> {divisibility = 16}, %q: ptr<f32>, %u: u32) {\n";
    pool["i32"] = {"a", "b"};
    pool["ptr<f32>"] = {"p", "q"};
    pool["u32"] = {"u"};
    def("i32", "program_id {axis = 0}");
    const std::string R = "tile<8xi32>", M = "tile<8x8xi32>", U = "tile<8xu32>", L = "tile<8xi64>";
    for (int s : {0, 8, 16, 3}) def(R, "arange {end = " + std::to_string(s + 8) + ", start = " + std::to_string(s) + "}");
    def(U, "cast %" + any(R));
    def(L, "cast %" + any(R));
    def(M, "constant {value = 16}");
    for (int i = 0; i < 3; ++i) def("i32", "constant {value = " + std::to_string(interesting()) + "}");
    for (int i = 0; i < 3; ++i) def(R, "splat %" + any("i32"));
    def(U, "splat %u");
    for (int i = 0; i < 4; ++i) def(R, "add %" + any(R) + ", %" + any(R));  // offset rows: splat + arange
    def("tile<8xptr<f32>>", "splat %" + any("ptr<f32>"));
    def("tile<8x8xptr<f32>>", "splat %" + any("ptr<f32>"));
    for (int step = 0; step < 24; ++step) {
      switch (pick(17)) {
      case 0: case 1: case 2: binop(pick(3) ? R : M); break;
      case 3: binop(pick(2) ? U : "i32"); break;
      case 4: def(R, "constant {value = " + std::to_string(interesting()) + "}"); break;
      case 5: {
        bool rows = pick(2);
        std::string e = def(rows ? "tile<1x8xi32>" : "tile<8x1xi32>", "expand_dims %" + any(R) + " {axis = " + (rows ? "0" : "1") + "}");
        def(M, "broadcast %" + e);
        break;
      }
      case 6: def(M, "trans %" + any(M) + " {order = [1, 0]}"); break;
      case 7: {
        static const char *preds[] = {"eq", "ne", "lt", "le", "gt", "ge"};
        std::string t = pick(2) ? R : U;
        std::string c = def("tile<8xi1>", std::string("cmp %") + any(t) + ", %" + any(t) + " {pred = \"" + preds[pick(6)] + "\"}");
        if (t == R) def(R, "select %" + c + ", %" + any(R) + ", %" + any(R));
        break;
      }
      case 8: def("tile<8xptr<f32>>", "addptr %" + any("tile<8xptr<f32>>") + ", %" + any(pick(2) ? R : L)); break;
      case 9: def("tile<8x8xptr<f32>>", "addptr %" + any("tile<8x8xptr<f32>>") + ", %" + any(M)); break;
      case 10: def(pick(2) ? L : U, "cast %" + any(R)); break;
      case 11: def(R, "cast %" + any(pick(2) ? L : U)); break;
      case 12: {  // a loop carrying a row of offsets and a row of pointers
        std::string o = any(R), pp = any("tile<8xptr<f32>>"), lb = def("i32", "constant {value = 0}");
        std::string ub = def("i32", "constant {value = 3}"), one = def("i32", "constant {value = 1}");
        std::string inc = any(R), adv = any(R);
        std::string n1 = "v" + std::to_string(next++), n2 = "v" + std::to_string(next++);
        std::string oa = "v" + std::to_string(next++), pa = "v" + std::to_string(next++);
        body << "  %" << n1 << ", %" << n2 << " = for %" << lb << ", %" << ub << ", %" << one << ", %" << o << ", %" << pp
             << " : " << R << ", tile<8xptr<f32>> {\n  ^bb(%iv" << next << ": i32, %" << oa << ": " << R << ", %" << pa
             << ": tile<8xptr<f32>>):\n";
        std::string x = "v" + std::to_string(next++), y = "v" + std::to_string(next++), z = "v" + std::to_string(next++);
        static const char *ops[] = {"add", "sub", "mul", "min"};
        body << "    %" << x << " = " << ops[pick(4)] << " %" << oa << ", %" << inc << " : " << R << "\n";
        body << "    %" << y << " = addptr %" << pa << ", %" << adv << " : tile<8xptr<f32>>\n";
        body << "    %" << z << " = addptr %" << pa << ", %" << oa << " : tile<8xptr<f32>>\n";
        body << "    yield %" << x << ", %" << y << "\n  }\n";
        pool[R].push_back(n1);
        pool["tile<8xptr<f32>>"].push_back(n2);
        break;
      }
      case 13:
        def("tile<64xi32>", "reshape %" + any(M));
        binop("tile<64xi32>");
        def(M, "reshape %" + any("tile<64xi32>"));
        break;
      case 14:
        def("tile<16xi32>", "cat %" + any(R) + ", %" + any(R));
        binop("tile<16xi32>");
        break;
      case 15: def(R, "select %" + def("tile<8xi1>", "cast %" + any(R)) + ", %" + any(R) + ", %" + any(R)); break;
      case 16: def(L, "cast %" + any("tile<8xptr<f32>>")); break;
      }
    }
    body << "  return\n}\n";
    return body.str();
  }
};

} // namespace

TEST(AxisAnalysis, ClaimsHoldOnRandomProgramsAndInputs) {
#ifdef NDEBUG
  const int programs = 1500;  // about a second
#else
  const int programs = 200;  // Debug + sanitizers run ~25x slower
#endif
  std::mt19937_64 rng(20240601);
  int checkedPrograms = 0;
  for (int prog = 0; prog < programs; ++prog) {
    Generator g{rng};
    std::string text = g.program();
    ParseResult parsed = parseModule(text);
    ASSERT_TRUE(parsed.module) << parsed.error << "\n" << text;
    std::vector<std::string> errs;
    ASSERT_TRUE(verifyModule(*parsed.module, &errs)) << (errs.empty() ? "" : errs[0]) << "\n" << text;
    const Function &f = *parsed.module->functions()[0];
    AxisAnalysis axis(f);
    for (int run = 0; run < 16; ++run) {
      Interpreter in{rng, {}, {}, axis};
      auto pick = [&](std::initializer_list<int64_t> v) { return *(v.begin() + rng() % v.size()); };
      int64_t a = pick({0, 16, -16, 2147483632, -2147483648, 4096}) + 16 * int64_t(rng() % 64);
      in.vals[f.argument(0)] = {normalizeInt(a, Type::i32())};
      in.vals[f.argument(1)] = {normalizeInt(pick({0, 1, 3, -1, 2147483647, -2147483647}) + int64_t(rng() % 9), Type::i32())};
      in.vals[f.argument(2)] = {int64_t(rng() & ~uint64_t(15))};
      in.vals[f.argument(3)] = {int64_t(rng() & ~uint64_t(3))};
      in.vals[f.argument(4)] = {normalizeInt(int64_t(rng()), Type::scalar(ScalarKind::U32))};
      for (const auto &op : f.entry().ops()) {
        if (op->is(OpCode::Return)) continue;
        if (op->is(OpCode::ProgramId)) {
          in.vals[op->result()] = {pick({0, 1, 7, 2097151, 2147483647})};
          in.check(op->result());
          continue;
        }
        in.run(*op);
      }
      ASSERT_TRUE(in.failures.empty()) << in.failures[0] << "\n" << text;
    }
    ++checkedPrograms;
  }
  EXPECT_EQ(checkedPrograms, programs);
}
