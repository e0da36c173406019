// Shared-memory buffers lowered to thread IR, checked by running the
// thread IR of every thread of a program in lockstep: the swizzled offsets
// each thread stores to and loads from must put every element where the
// shared layout says, and bring it back to the thread that owns it in
// another layout.
#include "ir/Parser.h"
#include "ir/PassManager.h"
#include "ir/Printer.h"
#include "targets/gpu/Passes.h"

#include <gtest/gtest.h>

#include <map>
#include <unordered_map>

using namespace tessera;

namespace {

// Runs a straight-line thread-level kernel for `threads` threads at once.
// Values are integers; pointers are byte addresses. Argument k of the
// kernel is a global pointer at k << 32; global loads read their element
// index (x[i] = i), global stores are recorded.
class Lockstep {
public:
  Lockstep(const ir::Function &f, int warpSize, int threads) : f_(f), warpSize_(warpSize), threads_(threads) {}

  std::map<int64_t, int64_t> shared;   // byte address -> value
  std::map<int64_t, int64_t> global;   // byte address -> value (stores)
  std::string error;

  bool run() {
    for (unsigned i = 0; i < f_.numArguments(); ++i) vals_[f_.argument(i)] = all(int64_t(i) << 32);
    for (auto &op : f_.entry().ops())
      if (!step(*op)) return false;
    return true;
  }

private:
  using Vec = std::vector<int64_t>;
  Vec all(int64_t v) const { return Vec(static_cast<size_t>(threads_), v); }
  static int64_t bytes(ir::Type t) { return std::max(1, t.bitWidth() / 8); }

  bool step(const ir::Operation &op) {
    auto in = [&](unsigned i) -> const Vec & { return vals_.at(op.operand(i)); };
    auto out = [&](Vec v, unsigned i = 0) { vals_[op.result(i)] = std::move(v); };
    auto binary = [&](auto fn) {
      Vec r(static_cast<size_t>(threads_));
      for (int t = 0; t < threads_; ++t) r[size_t(t)] = fn(in(0)[size_t(t)], in(1)[size_t(t)]);
      out(r);
      return true;
    };
    Vec r(static_cast<size_t>(threads_));
    switch (op.code()) {
    case ir::OpCode::Constant: out(all(op.attr("value")->getInt())); return true;
    case ir::OpCode::ProgramId: out(all(0)); return true;
    case ir::OpCode::ThreadId: case ir::OpCode::LaneId: case ir::OpCode::WarpId:
      for (int t = 0; t < threads_; ++t)
        r[size_t(t)] = op.is(ir::OpCode::ThreadId) ? t : op.is(ir::OpCode::LaneId) ? t % warpSize_ : t / warpSize_;
      out(r);
      return true;
    case ir::OpCode::Add: return binary([](int64_t a, int64_t b) { return a + b; });
    case ir::OpCode::Sub: return binary([](int64_t a, int64_t b) { return a - b; });
    case ir::OpCode::Mul: return binary([](int64_t a, int64_t b) { return a * b; });
    case ir::OpCode::And: return binary([](int64_t a, int64_t b) { return a & b; });
    case ir::OpCode::Or: return binary([](int64_t a, int64_t b) { return a | b; });
    case ir::OpCode::Xor: return binary([](int64_t a, int64_t b) { return a ^ b; });
    case ir::OpCode::Shl: return binary([](int64_t a, int64_t b) { return a << b; });
    case ir::OpCode::Shr: return binary([](int64_t a, int64_t b) { return a >> b; });
    case ir::OpCode::Div: return binary([](int64_t a, int64_t b) { return a / b; });
    case ir::OpCode::Rem: return binary([](int64_t a, int64_t b) { return a % b; });
    case ir::OpCode::Cmp: {
      std::string p = op.attr("pred")->getString();
      return binary([&](int64_t a, int64_t b) -> int64_t {
        return p == "eq" ? a == b : p == "ne" ? a != b : p == "lt" ? a < b : p == "le" ? a <= b : p == "gt" ? a > b : a >= b;
      });
    }
    case ir::OpCode::Select:
      for (int t = 0; t < threads_; ++t) r[size_t(t)] = in(0)[size_t(t)] ? in(1)[size_t(t)] : in(2)[size_t(t)];
      out(r);
      return true;
    case ir::OpCode::Cast: out(in(0)); return true;
    case ir::OpCode::AddPtr: {
      int64_t eb = bytes(op.operand(0)->type().pointee());
      return binary([&](int64_t p, int64_t i) { return p + i * eb; });
    }
    case ir::OpCode::SharedPtr: out(all(op.attr("offset")->getInt())); return true;
    case ir::OpCode::Barrier: return true;  // lockstep: everything before it is done
    case ir::OpCode::VLoad: {
      bool isShared = op.operand(0)->type().addressSpace() == ir::AddressSpace::Shared;
      int64_t eb = bytes(op.result(0)->type());
      for (unsigned i = 0; i < op.numResults(); ++i) {
        for (int t = 0; t < threads_; ++t) {
          int64_t addr = in(0)[size_t(t)] + int64_t(i) * eb;
          bool on = op.numOperands() == 1 || in(1)[size_t(t)];
          if (!on) r[size_t(t)] = in(2 + i)[size_t(t)];
          else if (!isShared) r[size_t(t)] = (addr & 0xFFFFFFFF) / eb;
          else if (!shared.count(addr)) return fail("thread " + std::to_string(t) + " reads unwritten shared byte " + std::to_string(addr));
          else r[size_t(t)] = shared[addr];
        }
        out(r, i);
      }
      return true;
    }
    case ir::OpCode::VStore: {
      bool isShared = op.operand(0)->type().addressSpace() == ir::AddressSpace::Shared;
      bool masked = op.attrs().getBool("masked", false);
      unsigned n = op.numOperands() - 1 - (masked ? 1 : 0);
      int64_t eb = bytes(op.operand(1)->type());
      for (int t = 0; t < threads_; ++t) {
        if (masked && !vals_.at(op.operands().back())[size_t(t)]) continue;
        if (in(0)[size_t(t)] % (int64_t(n) * eb)) return fail("a " + std::to_string(n) + "-wide store is misaligned");
        for (unsigned i = 0; i < n; ++i) {
          int64_t addr = in(0)[size_t(t)] + int64_t(i) * eb, v = in(1 + i)[size_t(t)];
          auto &mem = isShared ? shared : global;
          auto [it, fresh] = mem.emplace(addr, v);
          if (!fresh && it->second != v && !isShared) return fail("two values stored at one global address");
          it->second = v;
        }
      }
      return true;
    }
    case ir::OpCode::Return: return true;
    default:
      return fail(std::string("the simulator does not know '") + op.name() + "'");
    }
  }

  bool fail(std::string msg) {
    error = std::move(msg);
    return false;
  }

  const ir::Function &f_;
  int warpSize_, threads_;
  std::unordered_map<const ir::Value *, Vec> vals_;
};

std::unique_ptr<ir::Module> lower(const std::string &text, std::string &error) {
  targets::gpu::registerPasses();
  ir::ParseResult parsed = ir::parseModule(text, "t.tir");
  if (!parsed.module) {
    error = parsed.error;
    return nullptr;
  }
  ir::PassOptions opts;
  opts.verifyEach = true;
  ir::PassManager pm(opts);
  for (const char *p : {"assign-layouts", "lower-to-threads", "allocate-shared", "insert-barriers"}) pm.add(p);
  if (!pm.run(*parsed.module, &error)) return nullptr;
  return std::move(parsed.module);
}

// A kernel that copies x (64 x 64 i32) through buffer type `buffer` into y
// transposed: y[c][r] = x[r][c]. Loading back for the transposed store puts
// the tile in a layout other than the one it was stored in.
std::string transposeKernel(const std::string &fill, const std::string &elem = "i32") {
  std::string text = R"(module {num_warps = 4, warp_size = 32}
kernel @t(%x: ptr<i32> {divisibility = 16}, %y: ptr<i32> {divisibility = 16}) {
  %r = arange {end = 64, start = 0} : tile<64xi32>
  %c64 = constant {value = 64} : tile<64x1xi32>
  %rc = expand_dims %r {axis = 1} : tile<64x1xi32>
  %row = mul %rc, %c64 : tile<64x1xi32>
  %cc = expand_dims %r {axis = 0} : tile<1x64xi32>
  %rowb = broadcast %row : tile<64x64xi32>
  %colb = broadcast %cc : tile<64x64xi32>
  %offs = add %rowb, %colb : tile<64x64xi32>
  %c64r = constant {value = 64} : tile<1x64xi32>
  %colt = mul %cc, %c64r : tile<1x64xi32>
  %colbt = broadcast %colt : tile<64x64xi32>
  %rcb = broadcast %rc : tile<64x64xi32>
  %toffs = add %colbt, %rcb : tile<64x64xi32>
  %xs = splat %x : tile<64x64xptr<i32>>
  %xa = addptr %xs, %offs : tile<64x64xptr<i32>>
)" + fill + R"(  %v = local_load %b : tile<64x64xi32>
  %ys = splat %y : tile<64x64xptr<i32>>
  %ya = addptr %ys, %toffs : tile<64x64xptr<i32>>
  store %ya, %v
  return
}
)";
  // Pointers and values of `elem` (offsets stay i32).
  std::string ptr = "ptr<" + elem + ">";
  for (size_t at = 0; (at = text.find("ptr<i32>", at)) != std::string::npos; at += ptr.size()) text.replace(at, 8, ptr);
  for (const char *t : {"tile<64x64xi32> {", "%v0 = load %xa : tile<64x64xi32>", "%v = local_load %b : tile<64x64xi32>"}) {
    std::string from = t, to = from;
    to.replace(to.find("i32"), 3, elem);
    if (size_t at = text.find(from); at != std::string::npos) text.replace(at, from.size(), to);
  }
  return text;
}

// Checks y[c][r] == x[r][c] for every element, and (if `where` is given)
// that element (r, c) sits at shared element offset where(r, c).
void checkTranspose(const std::string &text, const std::function<int64_t(int64_t, int64_t)> &where, int64_t bytes = 4) {
  std::string error;
  std::unique_ptr<ir::Module> m = lower(text, error);
  ASSERT_TRUE(m) << error;
  const ir::Function &f = *m->functions().front();
  Lockstep sim(f, 32, 128);
  ASSERT_TRUE(sim.run()) << sim.error << "\n" << ir::printModule(*m);
  int64_t yBase = int64_t(1) << 32, bufBase = -1;
  for (auto &op : f.entry().ops())
    if (op->is(ir::OpCode::SharedPtr) && op->attr("bytes")->getInt() == 64 * 64 * bytes) bufBase = op->attr("offset")->getInt();
  ASSERT_GE(bufBase, 0) << ir::printModule(*m);
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t c = 0; c < 64; ++c) {
      auto y = sim.global.find(yBase + (c * 64 + r) * bytes);
      ASSERT_NE(y, sim.global.end()) << "y[" << c << "][" << r << "] not written";
      ASSERT_EQ(y->second, r * 64 + c) << "y[" << c << "][" << r << "]";
      if (!where) continue;
      auto s = sim.shared.find(bufBase + where(r, c) * bytes);
      ASSERT_NE(s, sim.shared.end());
      ASSERT_EQ(s->second, r * 64 + c) << "element (" << r << ", " << c << ") is not at offset " << where(r, c);
    }
}

} // namespace

TEST(SharedBuffers, SwizzledStoreAndLoadInAnotherLayout) {
  // Triton's swizzle: groups of 4 along the row XOR-ed with the row mod 8.
  std::string fill = R"(  %v0 = load %xa : tile<64x64xi32>
  %b = local_alloc : smem<64x64xi32, #shared<vec = [4], per_phase = [1], max_phase = [8], order = [1, 0]>>
  local_store %b, %v0
)";
  checkTranspose(transposeKernel(fill), [](int64_t r, int64_t c) { return r * 64 + (((c / 4) ^ (r % 8)) * 4) + c % 4; });
}

TEST(SharedBuffers, SwizzleWithTwoRowsPerPhase) {
  std::string fill = R"(  %v0 = load %xa : tile<64x64xi32>
  %b = local_alloc %v0 : smem<64x64xi32, #shared<vec = [2], per_phase = [2], max_phase = [4], order = [1, 0]>>
)";
  checkTranspose(transposeKernel(fill), [](int64_t r, int64_t c) { return r * 64 + (((c / 2) ^ ((r / 2) % 4)) * 2) + c % 2; });
}

TEST(SharedBuffers, ColumnMajorBufferFilledByAsyncCopyInOneStageOfTwo) {
  // Stage 1 of a two-stage buffer, column-major (order = [0, 1] within a
  // stage): element (r, c) of the stage at 4096 + c * 64 + r.
  std::string fill = R"(  %all = local_alloc : smem<2x64x64xi32, #shared<vec = [1], per_phase = [1], max_phase = [1], order = [1, 2]>>
  %one = constant {value = 1} : i32
  %b = local_view %all, %one : smem<64x64xi32, #shared<vec = [1], per_phase = [1], max_phase = [1], order = [0, 1]>>
  async_copy %b, %xa
  async_commit_group
  async_wait {pending = 0}
)";
  std::string error;
  std::string text = transposeKernel(fill);
  std::unique_ptr<ir::Module> m = lower(text, error);
  ASSERT_TRUE(m) << error;
  Lockstep sim(*m->functions().front(), 32, 128);
  ASSERT_TRUE(sim.run()) << sim.error;
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t c = 0; c < 64; ++c) {
      ASSERT_EQ(sim.global.at((int64_t(1) << 32) + (c * 64 + r) * 4), r * 64 + c);
      ASSERT_EQ(sim.shared.at((4096 + c * 64 + r) * 4), r * 64 + c);
    }
}

TEST(SharedBuffers, AsyncCopyMaskedOffElementsTakeOther) {
  std::string fill = R"(  %lim = constant {value = 1000} : tile<64x64xi32>
  %m = cmp %offs, %lim {pred = "lt"} : tile<64x64xi1>
  %other = constant {value = -7} : tile<64x64xi32>
  %b = local_alloc : smem<64x64xi32, #linear<offset = [0, 1, 0, 2, 0, 4, 0, 8, 0, 16, 0, 32, 1, 0, 2, 0, 4, 0, 8, 0, 16, 0, 32, 0]>>
  async_copy %b, %xa, %m, %other
)";
  std::string error;
  std::unique_ptr<ir::Module> m = lower(transposeKernel(fill), error);
  ASSERT_TRUE(m) << error;
  Lockstep sim(*m->functions().front(), 32, 128);
  ASSERT_TRUE(sim.run()) << sim.error;
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t c = 0; c < 64; ++c)
      ASSERT_EQ(sim.global.at((int64_t(1) << 32) + (c * 64 + r) * 4), r * 64 + c < 1000 ? r * 64 + c : -7);
}

TEST(SharedBuffers, SwizzledColumnMajorStageFilledByATransposingStore) {
  // A tile loaded along its rows, stored into a one-stage buffer that keeps
  // columns contiguous (a register-staged pipeline's buffer kept k-major),
  // 16-byte groups of `vec` elements: element (r, c) at
  // c * 64 + ((r / vec) ^ (c % 8)) * vec + r % vec.
  struct Case {
    const char *elem;
    int64_t bytes, vec;
  };
  for (Case k : {Case{"i32", 4, 4}, Case{"i16", 2, 8}}) {
    SCOPED_TRACE(k.elem);
    std::string e = k.elem, shared = "#shared<vec = [" + std::to_string(k.vec) + "], per_phase = [1], max_phase = [8], ";
    std::string fill = "  %v0 = load %xa : tile<64x64x" + e + ">\n  %all = local_alloc : smem<1x64x64x" + e + ", " + shared +
                       "order = [1, 2]>>\n  %zero = constant {value = 0} : i32\n  %b = local_view %all, %zero : smem<64x64x" +
                       e + ", " + shared + "order = [0, 1]>>\n  local_store %b, %v0\n";
    int64_t vec = k.vec;
    checkTranspose(transposeKernel(fill, e),
                   [vec](int64_t r, int64_t c) { return c * 64 + (((r / vec) ^ (c % 8)) * vec) + r % vec; }, k.bytes);
  }
}

// x stored into a swizzled row-major buffer, read back through a
// local_trans view whose #shared order is `viewOrder`.
std::string transposedViewFill(const std::string &viewOrder) {
  std::string shared = "#shared<vec = [4], per_phase = [1], max_phase = [8], order = ";
  return "  %v0 = load %xa : tile<64x64xi32>\n  %s = local_alloc %v0 : smem<64x64xi32, " + shared +
         "[1, 0]>>\n  %b = local_trans %s : smem<64x64xi32, " + shared + viewOrder + ">>\n";
}

TEST(SharedBuffers, TransposedViewReadsTheSameMemoryWithDimensionsSwapped) {
  // The view's element (r, c) is x[c][r], so the kernel's transposed store
  // gives y == x; the buffer itself keeps Triton's swizzle of x.
  std::string error;
  std::unique_ptr<ir::Module> m = lower(transposeKernel(transposedViewFill("[0, 1]")), error);
  ASSERT_TRUE(m) << error;
  Lockstep sim(*m->functions().front(), 32, 128);
  ASSERT_TRUE(sim.run()) << sim.error;
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t c = 0; c < 64; ++c) {
      ASSERT_EQ(sim.global.at((int64_t(1) << 32) + (r * 64 + c) * 4), r * 64 + c) << "y[" << r << "][" << c << "]";
      ASSERT_EQ(sim.shared.at((r * 64 + (((c / 4) ^ (r % 8)) * 4) + c % 4) * 4), r * 64 + c);
    }
}

TEST(SharedBuffers, TransposedViewOfAnotherShapeIsRefused) {
  std::string error;
  EXPECT_FALSE(lower(transposeKernel(transposedViewFill("[1, 0]")), error));
  EXPECT_NE(error.find("local_trans"), std::string::npos) << error;
}
