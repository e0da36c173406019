// Reductions and scans along one axis of distributed tiles.
//
// reduce: registers of a thread that differ only along the axis combine
// first, then lanes by a butterfly of xor shuffles, then warps through
// shared memory: each warp's partial is stored, and lanes read one partial
// each and combine them by a second butterfly over lane bits that hold
// copies (else every thread reads all partials and combines them in the
// same order); both butterflies give every copy the same result when the
// combine commutes, as reductions' do. Registers and partials combine as a
// tree of neighbours. Layouts whose lanes or warps mix the
// axis with other dimensions take the general path: the tile goes to shared
// memory and each thread combines its results' lines there.
// scan: doubling over the bits of the axis coordinate (partners across a
// register bit are free, across a lane bit a shuffle, across a warp bit
// shared memory) when the layout moves along the axis by distinct powers of
// two; otherwise threads scan whole lines in shared memory in place.
#include "targets/gpu/ThreadLowering.h"

#include <algorithm>

#include <map>
#include <unordered_map>

namespace tessera::targets::gpu {

namespace {

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

// Axis bits of `bases` must not move along other dimensions.
bool pureAlong(const ir::LinearLayout::Bases &bases, size_t axis) {
  for (auto &basis : bases) {
    if (!basis[axis]) continue;
    for (size_t d = 0; d < basis.size(); ++d)
      if (d != axis && basis[d]) return false;
  }
  return true;
}

} // namespace

namespace {

ir::Value *shuffleXor(ThreadLowering &L, ir::Value *v, int laneMask) {
  ir::AttrDict a;
  a.set("mask", ir::Attribute(int64_t(laneMask)));
  return L.emit(ir::OpCode::ShuffleXor, {v}, v->type(), a);
}

} // namespace

// Every operand tile of `op` row-major in shared memory (one region each,
// a buffer each): the buffers.
Regs ThreadLowering::operandsToShared(const ir::Operation &op, const TileLayout &l) {
  Regs buffers = sharedRegions(op, op.operand(0)->type().numElements());
  for (unsigned k = 0; k < op.numOperands(); ++k) storeTileShared(get(op.operand(k)), l, buffers[k]);
  return buffers;
}

// One region of `elements` values per operand of `op`, each 16-byte aligned:
// the buffers.
Regs ThreadLowering::sharedRegions(const ir::Operation &op, int64_t elements) {
  Regs buffers;
  for (ir::Value *v : op.operands()) buffers.push_back(allocShared(v->type().element(), elements));
  return buffers;
}

void ThreadLowering::lowerReduce(const ir::Operation &op) {
  size_t n = op.numOperands(), axis = size_t(op.attr("axis")->getInt());
  ir::Type in = op.operand(0)->type();
  const TileLayout &l = layoutOf(in, op);
  const ir::Block &region = op.region(0).block();
  auto combineAll = [&](const Regs &left, const Regs &right) { return combine(region, left, right); };
  // Neighbours first, level by level (the order of the operands kept, as
  // the combine need only be associative): log2(n) dependent steps, not n.
  auto combineTree = [&](std::vector<Regs> xs) {
    while (xs.size() > 1) {
      std::vector<Regs> next;
      for (size_t i = 0; i + 1 < xs.size(); i += 2) next.push_back(combineAll(xs[i], xs[i + 1]));
      if (xs.size() % 2) next.push_back(xs.back());
      xs = std::move(next);
    }
    return xs.front();
  };
  std::vector<int64_t> shape = in.shape(), strides = rowMajorStrides(shape);
  Regs buffers;

  if (!pureAlong(l.bases("lane"), axis) || !pureAlong(l.bases("warp"), axis)) {
    // General path: whole lines from shared memory.
    buffers = operandsToShared(op, l);
    auto line = [&](ir::Value *base) {
      auto at = [&](ir::Value *k) {
        Regs x;
        ir::Value *idx = add(base, mul(k, i32(strides[axis])));
        for (size_t j = 0; j < n; ++j) x.push_back(loadShared(buffers[j], idx));
        return x;
      };
      Regs first = at(i32(0));
      return loop(i32(shape[axis] - 1), first,
                  [&](ir::Value *k, const Regs &acc) { return combineAll(acc, at(add(k, i32(1)))); });
    };
    if (!op.result(0)->type().isTile()) {
      Regs r = line(i32(0));
      for (size_t k = 0; k < n; ++k) set(op.result(unsigned(k)), {r[k]});
      return;
    }
    const TileLayout &lo = layoutOf(op.result(0)->type(), op);
    std::vector<Regs> outs(n);
    for (int r = 0; r < lo.numRegs; ++r) {
      ir::Value *base = i32(0);
      for (size_t d = 0, od = 0; d < shape.size(); ++d)
        if (d != axis) base = add(base, mul(coord(lo, r, od++), i32(strides[d])));
      Regs v = line(base);
      for (size_t k = 0; k < n; ++k) outs[k].push_back(v[k]);
    }
    for (size_t k = 0; k < n; ++k) set(op.result(unsigned(k)), outs[k]);
    return;
  }

  // 1. Within the thread: group registers by their coordinates off the axis.
  std::vector<std::vector<int32_t>> keys;
  std::vector<std::vector<int>> members;
  for (int r = 0; r < l.numRegs; ++r) {
    if (l.isCopy(r)) continue;
    std::vector<int32_t> key = l.regCoord[size_t(r)];
    key[axis] = 0;
    auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end()) {
      keys.push_back(key);
      members.emplace_back();
      it = keys.end() - 1;
    }
    members[size_t(it - keys.begin())].push_back(r);
  }
  std::vector<Regs> acc(keys.size());
  for (size_t g = 0; g < keys.size(); ++g) {
    auto &rs = members[g];
    std::sort(rs.begin(), rs.end(), [&](int x, int y) {
      return std::make_pair(l.regCoord[size_t(x)][axis], x) < std::make_pair(l.regCoord[size_t(y)][axis], y);
    });
    std::vector<Regs> xs;
    for (int r : rs) {
      Regs x;
      for (size_t k = 0; k < n; ++k) x.push_back(get(op.operand(unsigned(k)))[size_t(r)]);
      xs.push_back(x);
    }
    acc[g] = combineTree(xs);
  }
  // Every group combined with its copy in the lane across each of `bits`:
  // a butterfly of xor shuffles.
  auto butterfly = [&](std::vector<Regs> &groups, const std::vector<size_t> &bits) {
    for (size_t bit : bits)
      for (Regs &a : groups) {
        Regs other;
        for (ir::Value *v : a) other.push_back(shuffleXor(*this, v, 1 << bit));
        a = combineAll(a, other);
      }
  };
  // Bits bits[0], ..., bits[count - 1] (ascending) of `v` as bits 0... of a number.
  auto gatherBits = [&](ir::Value *v, const std::vector<size_t> &bits, size_t count) {
    if (bits[count - 1] + 1 == count) return bitAnd(v, i32((int64_t(1) << count) - 1));  // bits 0, 1...: a mask
    ir::Value *r = i32(0);
    for (size_t j = 0; j < count; ++j) r = bitOr(r, shl(bitAnd(shr(v, int64_t(bits[j])), i32(1)), int64_t(j)));
    return r;
  };
  // 2. Across lanes.
  const auto &lb = l.bases("lane");
  std::vector<size_t> axisLaneBits;
  for (size_t bit = 0; bit < lb.size(); ++bit)
    if (lb[bit][axis]) axisLaneBits.push_back(bit);
  butterfly(acc, axisLaneBits);
  // 3. Across warps.
  const auto &wb = l.bases("warp");
  std::vector<size_t> axisWarpBits;
  for (size_t bit = 0; bit < wb.size(); ++bit)
    if (wb[bit][axis]) axisWarpBits.push_back(bit);
  if (!axisWarpBits.empty()) {
    int64_t numWarpsAlong = int64_t(1) << axisWarpBits.size();
    int64_t numOut = in.numElements() / shape[axis];
    std::vector<int64_t> outShape = shape;
    outShape.erase(outShape.begin() + int64_t(axis));
    std::vector<int64_t> outStrides = rowMajorStrides(outShape);
    buffers = sharedRegions(op, numOut * numWarpsAlong);
    ir::Value *warpSlot = gatherBits(warp, axisWarpBits, axisWarpBits.size());
    std::vector<ir::Value *> outIdx;
    for (size_t g = 0; g < keys.size(); ++g) {
      ir::Value *idx = i32(0);
      for (size_t d = 0, od = 0; d < shape.size(); ++d)
        if (d != axis) idx = add(idx, mul(coord(l, members[g][0], d), i32(outStrides[od++])));
      outIdx.push_back(mul(idx, i32(numWarpsAlong)));
    }
    for (size_t g = 0; g < keys.size(); ++g)
      for (size_t k = 0; k < n; ++k) storeShared(buffers[k], add(outIdx[g], warpSlot), acc[g][k]);
    // Lanes that differ only in bits moving along the axis (or in none)
    // hold the same partials of the same results: when there are enough
    // of them, each reads one warp's partial (the slot its free lane bits
    // spell) and a butterfly of shuffles over those bits combines them, in
    // one load and log2(warps) steps instead of a load per warp.
    std::vector<size_t> freeLaneBits;
    for (size_t bit = 0; bit < lb.size(); ++bit) {
      bool free = true;
      for (size_t d = 0; d < lb[bit].size(); ++d) free = free && (d == axis || !lb[bit][d]);
      if (free) freeLaneBits.push_back(bit);
    }
    if (freeLaneBits.size() >= axisWarpBits.size()) {
      ir::Value *slot = gatherBits(lane, freeLaneBits, axisWarpBits.size());
      for (size_t g = 0; g < keys.size(); ++g) {
        acc[g].clear();
        for (size_t k = 0; k < n; ++k) acc[g].push_back(loadShared(buffers[k], add(outIdx[g], slot)));
      }
      freeLaneBits.resize(axisWarpBits.size());
      butterfly(acc, freeLaneBits);
    } else {
      for (size_t g = 0; g < keys.size(); ++g) {
        std::vector<Regs> xs;
        for (int64_t w = 0; w < numWarpsAlong; ++w) {
          Regs x;
          for (size_t k = 0; k < n; ++k)
            x.push_back(loadShared(buffers[k], add(outIdx[g], i32(w))));
          xs.push_back(x);
        }
        acc[g] = combineTree(xs);
      }
    }
  }
  // 4. Results: a scalar, or the sliced layout (register r of the result
  // holds what register r of the operand reduced into).
  if (!op.result(0)->type().isTile()) {
    for (size_t k = 0; k < n; ++k) set(op.result(unsigned(k)), {acc[0][k]});
    return;
  }
  const TileLayout &lo = layoutOf(op.result(0)->type(), op);
  if (lo.numRegs != l.numRegs) fail(op, "has a result layout that is not its operand's, sliced");
  std::vector<Regs> outs(n);
  for (int r = 0; r < l.numRegs; ++r) {
    std::vector<int32_t> key = l.regCoord[size_t(r)];
    key[axis] = 0;
    size_t g = size_t(std::find(keys.begin(), keys.end(), key) - keys.begin());
    for (size_t k = 0; k < n; ++k) outs[k].push_back(acc[g][k]);
  }
  for (size_t k = 0; k < n; ++k) set(op.result(unsigned(k)), outs[k]);
}

namespace {

// Who holds bit k of the scanned axis' coordinate: a register, lane or warp
// bit whose basis is exactly 2^k along the axis.
struct AxisBit {
  enum Kind { Register, Lane, Warp } kind;
  int bit;
};

// The owners of the axis bits, lowest first, when every basis that moves
// along the axis moves only along it by a distinct power of two covering
// the axis exactly; empty otherwise.
std::vector<AxisBit> axisBits(const TileLayout &l, size_t axis) {
  int64_t len = l.shape[axis];
  int levels = 0;
  while ((int64_t(1) << levels) < len) ++levels;
  std::vector<AxisBit> owner(size_t(levels), AxisBit{AxisBit::Register, -1});
  std::pair<const char *, AxisBit::Kind> kinds[] = {{"register", AxisBit::Register}, {"lane", AxisBit::Lane},
                                                    {"warp", AxisBit::Warp}};
  for (auto [name, kind] : kinds) {
    const auto &bases = l.bases(name);
    for (size_t bit = 0; bit < bases.size(); ++bit) {
      int32_t v = bases[bit][axis];
      if (!v) continue;
      for (size_t d = 0; d < bases[bit].size(); ++d)
        if (d != axis && bases[bit][d]) return {};
      if (v & (v - 1)) return {};
      int k = 0;
      while ((1 << k) < v) ++k;
      if (k >= levels || owner[size_t(k)].bit != -1) return {};
      owner[size_t(k)] = AxisBit{kind, int(bit)};
    }
  }
  for (const AxisBit &o : owner)
    if (o.bit == -1) return {};
  return owner;
}

} // namespace

// Scan by doubling over the bits of the axis coordinate: after level k each
// element holds the scan of its aligned block of 2^(k+1) and that block's
// total. The partner across bit k is another register (free), another lane
// (a shuffle) or another warp (shared memory), so every thread works on its
// own registers: no line is walked serially.
bool ThreadLowering::scanByBits(const ir::Operation &op, const TileLayout &l) {
  size_t n = op.numOperands(), axis = size_t(op.attr("axis")->getInt());
  bool reverse = op.attr("reverse")->getBool();
  std::vector<AxisBit> bits = axisBits(l, axis);
  if (bits.empty() && l.shape[axis] > 1) return false;
  const ir::Block &region = op.region(0).block();
  int threads = numWarps * warpSize;
  int laneBits = 0;
  while ((1 << laneBits) < warpSize) ++laneBits;
  // scan[r], total[r]: per register, the values of all n operands.
  std::vector<Regs> scan(size_t(l.numRegs)), total;
  for (int r = 0; r < l.numRegs; ++r)
    for (size_t k = 0; k < n; ++k) scan[size_t(r)].push_back(get(op.operand(unsigned(k)))[size_t(r)]);
  total = scan;
  auto combineAll = [&](const Regs &left, const Regs &right) { return combine(region, left, right); };
  for (const AxisBit &ab : bits) {
    if (ab.kind == AxisBit::Register) {
      // Both registers of a pair end with one block total.
      for (int r = 0; r < l.numRegs; ++r) {
        int hi = r | (1 << ab.bit);
        if (r == hi) continue;
        int first = reverse ? hi : r, second = reverse ? r : hi;
        Regs t = combineAll(total[size_t(first)], total[size_t(second)]);
        scan[size_t(second)] = combineAll(total[size_t(first)], scan[size_t(second)]);
        total[size_t(r)] = total[size_t(hi)] = t;
      }
      continue;
    }
    // The partner's block total, per register (registers holding the same
    // total exchange it once).
    std::vector<Regs> partner(size_t(l.numRegs));
    ir::Value *myBit;
    if (ab.kind == AxisBit::Lane) {
      std::unordered_map<ir::Value *, ir::Value *> shuffled;
      for (int r = 0; r < l.numRegs; ++r)
        for (ir::Value *v : total[size_t(r)]) {
          ir::Value *&s = shuffled[v];
          if (!s) s = shuffleXor(*this, v, 1 << ab.bit);
          partner[size_t(r)].push_back(s);
        }
      myBit = cmp("ne", bitAnd(lane, i32(1 << ab.bit)), i32(0));
    } else {
      // Totals to shared memory at [operand][register][thread]; read the
      // same slot of the thread in the partner warp.
      Regs buffers = sharedRegions(op, int64_t(l.numRegs) * threads);
      for (int r = 0; r < l.numRegs; ++r)
        for (size_t k = 0; k < n; ++k)
          storeShared(buffers[k], add(i32(int64_t(r) * threads), tid), total[size_t(r)][k]);
      ir::Value *other = bitXor(tid, i32(int64_t(1) << (laneBits + ab.bit)));
      for (int r = 0; r < l.numRegs; ++r)
        for (size_t k = 0; k < n; ++k)
          partner[size_t(r)].push_back(loadShared(buffers[k], add(i32(int64_t(r) * threads), other)));
      myBit = cmp("ne", bitAnd(warp, i32(1 << ab.bit)), i32(0));
    }
    // Later in scan order (bit set going forward, clear in reverse): the
    // partner's block comes first, on the left of every combine.
    ir::Value *later = reverse ? logicalNot(myBit) : myBit;
    std::map<Regs, Regs> newTotals;  // registers with one total keep sharing one
    for (int r = 0; r < l.numRegs; ++r) {
      Regs leftScan = combineAll(partner[size_t(r)], scan[size_t(r)]);
      for (size_t k = 0; k < n; ++k) scan[size_t(r)][k] = select(later, leftScan[k], scan[size_t(r)][k]);
      Regs &t = newTotals[total[size_t(r)]];
      if (t.empty()) {
        Regs leftTotal = combineAll(partner[size_t(r)], total[size_t(r)]);
        Regs rightTotal = combineAll(total[size_t(r)], partner[size_t(r)]);
        for (size_t k = 0; k < n; ++k) t.push_back(select(later, leftTotal[k], rightTotal[k]));
      }
      total[size_t(r)] = t;
    }
  }
  for (size_t k = 0; k < n; ++k) {
    Regs out;
    for (int r = 0; r < l.numRegs; ++r) out.push_back(scan[size_t(r)][k]);
    set(op.result(unsigned(k)), out);
  }
  return true;
}

void ThreadLowering::lowerScan(const ir::Operation &op) {
  size_t n = op.numOperands(), axis = size_t(op.attr("axis")->getInt());
  bool reverse = op.attr("reverse")->getBool();
  ir::Type in = op.operand(0)->type();
  const TileLayout &l = layoutOf(in, op);
  if (op.result(0)->type().layout() == in.layout() && scanByBits(op, l)) return;
  const ir::Block &region = op.region(0).block();
  std::vector<int64_t> shape = in.shape(), strides = rowMajorStrides(shape);
  Regs buffers = operandsToShared(op, l);
  int64_t len = shape[axis], lines = in.numElements() / len, threads = numWarps * warpSize;
  // Lines tid, tid + threads, ...: index = (line / stride) * len * stride + line % stride.
  ir::Value *count = select(cmp("lt", tid, i32(lines)),
                                      div(add(sub(i32(lines), tid), i32(threads - 1)), i32(threads)),
                                      i32(0));
  loop(count, {}, [&](ir::Value *i, const Regs &) {
    ir::Value *lineIdx = add(tid, mul(i, i32(threads)));
    ir::Value *base = add(mul(div(lineIdx, i32(strides[axis])), i32(len * strides[axis])),
                                    rem(lineIdx, i32(strides[axis])));
    auto at = [&](ir::Value *pos) { return add(base, mul(pos, i32(strides[axis]))); };
    auto position = [&](ir::Value *k) { return reverse ? sub(i32(len - 1), k) : k; };
    Regs first;
    for (size_t k = 0; k < n; ++k) first.push_back(loadShared(buffers[k], at(position(i32(0))), true));
    loop(i32(len - 1), first, [&](ir::Value *j, const Regs &acc) {
      ir::Value *idx = at(position(add(j, i32(1))));
      Regs args = acc;
      for (size_t k = 0; k < n; ++k) args.push_back(loadShared(buffers[k], idx, true));
      Regs next = combine(region, args);
      for (size_t k = 0; k < n; ++k) storeShared(buffers[k], idx, next[k], true);
      return next;
    });
    return Regs{};
  });
  for (size_t k = 0; k < n; ++k) set(op.result(unsigned(k)), readTileShared(layoutOf(op.result(unsigned(k))->type(), op), buffers[k]));
}

} // namespace tessera::targets::gpu
