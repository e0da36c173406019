// Reductions, scans, dot and the shape ops that move elements.
#include "targets/cpu/Lowering.h"

#include "llvm/IR/Intrinsics.h"

namespace tessera::targets::cpu {

using ir::OpCode;

namespace {

struct AxisSplit {
  int64_t pre = 1, len = 1, post = 1;  // shape = [pre..., len, post...]
};

AxisSplit splitAt(ir::Type t, int64_t axis) {
  AxisSplit s;
  for (int64_t d = 0; d < t.rank(); ++d) {
    if (d < axis) s.pre *= t.shape()[d];
    else if (d == axis) s.len = t.shape()[d];
    else s.post *= t.shape()[d];
  }
  return s;
}

} // namespace

// The single min or max of floats that makes up `region`, if it is one.
const ir::Operation *floatMinMax(const ir::Block &region) {
  if (region.numArguments() != 2 || !region.argument(0)->type().isFloat()) return nullptr;
  auto &ops = region.ops();
  if (ops.size() != 2) return nullptr;
  const ir::Operation *op = ops.front().get(), *yield = ops.back().get();
  if (!(op->is(OpCode::Max) || op->is(OpCode::Min)) || op->attrs().getBool("propagate_nan", false)) return nullptr;
  if (!yield->is(OpCode::Yield) || yield->numOperands() != 1 || yield->operand(0) != op->result()) return nullptr;
  bool args = (op->operand(0) == region.argument(0) && op->operand(1) == region.argument(1)) ||
              (op->operand(0) == region.argument(1) && op->operand(1) == region.argument(0));
  return args ? op : nullptr;
}

// Reduce: along the last axis, vector partials per row then a shuffle tree;
// along another axis, whole rows combined with vectors across `post`.
void Lowering::lowerReduce(const ir::Operation &op) {
  const ir::Block &region = op.region(0).block();
  unsigned n = op.numOperands();
  ir::Type in = op.operand(0)->type();
  int64_t axis = op.attr("axis")->getInt();
  AxisSplit s = splitAt(in, axis);
  bool scalarResult = !op.result(0)->type().isTile();
  std::vector<llvm::Value *> outBufs;
  for (unsigned k = 0; k < n; ++k) outBufs.push_back(scalarResult ? nullptr : newBuffer(op.result(k)->type()));
  std::vector<llvm::Value *> scalarOut(n);
  auto storeResult = [&](llvm::Value *index, std::vector<llvm::Value *> vals) {
    for (unsigned k = 0; k < n; ++k) {
      if (scalarResult) scalarOut[k] = vals[k];
      else storeChunk(outBufs[k], op.result(k)->type().element(), index, vals[k]);
    }
  };
  if (s.post == 1) {
    unsigned w = unsigned(std::min<int64_t>(s.len, vectorWidth(in)));
    // P independent partial accumulators hide the combine's latency.
    unsigned P = unsigned(std::min<int64_t>(4, s.len / w));
    const ir::Operation *minmax = floatMinMax(region);
    // `fast`: min/max of floats keep their partials free of NaN, so that a
    // chunk combines with one compare and select (the accumulator never
    // being NaN, `x > acc ? x : acc` is maxnum), instead of maxnum's NaN
    // handling.
    auto reduceRow = [&](llvm::Value *base, bool fast) {
      std::vector<std::vector<llvm::Value *>> part(P);  // part[p][k]
      llvm::Value *identity = nullptr;
      if (fast) identity = llvm::ConstantFP::getInfinity(computeType(in.element()), minmax->is(OpCode::Max));
      auto clean = [&](llvm::Value *x) {
        llvm::Intrinsic::ID id = minmax->is(OpCode::Max) ? llvm::Intrinsic::maxnum : llvm::Intrinsic::minnum;
        return b.CreateBinaryIntrinsic(id, x, splatIfNeeded(identity, w));
      };
      for (unsigned p = 0; p < P; ++p)
        for (unsigned k = 0; k < n; ++k) {
          llvm::Value *x = loadChunk(op.operand(k), b.CreateAdd(base, i64(p * w)), w);
          part[p].push_back(fast ? clean(x) : x);
        }
      if (s.len > int64_t(P * w)) {
        llvm::BasicBlock *pre = b.GetInsertBlock();
        llvm::BasicBlock *body = llvm::BasicBlock::Create(ctx, "reduce", fn), *exit = llvm::BasicBlock::Create(ctx, "reduce.end", fn);
        b.CreateBr(body);
        b.SetInsertPoint(body);
        llvm::PHINode *c = b.CreatePHI(b.getInt64Ty(), 2);
        c->addIncoming(i64(P * w), pre);
        std::vector<std::vector<llvm::PHINode *>> phis(P);
        for (unsigned p = 0; p < P; ++p)
          for (unsigned k = 0; k < n; ++k) {
            phis[p].push_back(b.CreatePHI(part[p][k]->getType(), 2));
            phis[p].back()->addIncoming(part[p][k], pre);
          }
        countLoop([&] {
          for (unsigned p = 0; p < P; ++p) {
            std::vector<llvm::Value *> args(phis[p].begin(), phis[p].end());
            for (unsigned k = 0; k < n; ++k)
              args.push_back(loadChunk(op.operand(k), b.CreateAdd(base, b.CreateAdd(c, i64(p * w))), w));
            if (!fast) {
              part[p] = combine(region, args);
              continue;
            }
            llvm::Value *acc = args[0], *x = args[1];
            llvm::Value *better = minmax->is(OpCode::Max) ? b.CreateFCmpOGT(x, acc) : b.CreateFCmpOLT(x, acc);
            part[p] = {b.CreateSelect(better, x, acc)};
          }
        }, (s.len - 1) / int64_t(P * w), P);
        llvm::Value *c2 = b.CreateAdd(c, i64(P * w));
        c->addIncoming(c2, b.GetInsertBlock());
        for (unsigned p = 0; p < P; ++p)
          for (unsigned k = 0; k < n; ++k) phis[p][k]->addIncoming(part[p][k], b.GetInsertBlock());
        b.CreateCondBr(b.CreateICmpSLT(c2, i64(s.len)), body, exit);
        b.SetInsertPoint(exit);
      }
      // Partials combine in index order (0+1, 2+3, then the pairs).
      for (unsigned stride = 1; stride < P; stride *= 2)
        for (unsigned p = 0; p + stride < P; p += 2 * stride) {
          std::vector<llvm::Value *> args = part[p];
          args.insert(args.end(), part[p + stride].begin(), part[p + stride].end());
          part[p] = combine(region, args);
        }
      std::vector<llvm::Value *> acc = part[0];
      for (unsigned width = w; width > 1; width /= 2) {
        std::vector<int> lo, hi;
        for (unsigned j = 0; j < width / 2; ++j) lo.push_back(int(j)), hi.push_back(int(j + width / 2));
        std::vector<llvm::Value *> args;
        for (unsigned k = 0; k < n; ++k) {
          llvm::Value *l = b.CreateShuffleVector(acc[k], lo), *h = b.CreateShuffleVector(acc[k], hi);
          if (width == 2) l = b.CreateExtractElement(l, uint64_t(0)), h = b.CreateExtractElement(h, uint64_t(0));
          args.push_back(l);
          acc[k] = h;
        }
        for (unsigned k = 0; k < n; ++k) args.push_back(acc[k]);
        acc = combine(region, args);
      }
      return acc;
    };
    auto rowBody = [&](llvm::Value *row) {
      llvm::Value *base = b.CreateMul(row, i64(s.len));
      if (!minmax) {
        storeResult(row, reduceRow(base, false));
        return;
      }
      // The fast partials start at -inf (+inf for min) in place of NaN: a
      // result equal to that is either right or a row of NaNs, which only
      // the exact combine tells apart (rarely run; not counted for prefetching).
      std::vector<llvm::Value *> acc = reduceRow(base, true);
      llvm::Value *identity = llvm::ConstantFP::getInfinity(acc[0]->getType(), minmax->is(OpCode::Max));
      acc[0] = branch(b.CreateFCmpOEQ(acc[0], identity), [&] { return rarely([&] { return reduceRow(base, false)[0]; }); },
                      [&] { return acc[0]; });
      storeResult(row, acc);
    };
    if (s.pre == 1) rowBody(i64(0));
    else loop(i64(0), i64(s.pre), 1, rowBody);
  } else {
    ir::Type rowType = ir::Type::tile({s.post}, in.element());
    unsigned w = unsigned(std::min<int64_t>(s.post, vectorWidth(rowType)));
    loop(i64(0), i64(s.pre), 1, [&](llvm::Value *p) {
      loop(i64(0), i64(s.post), w, [&](llvm::Value *q) {
        llvm::Value *first = b.CreateAdd(b.CreateMul(p, i64(s.len * s.post)), q);
        std::vector<llvm::Value *> acc;
        for (unsigned k = 0; k < n; ++k) acc.push_back(loadChunk(op.operand(k), first, w));
        for (int64_t a = 1; a < s.len; ++a) {  // unrolled: reduced axes are short
          std::vector<llvm::Value *> args = acc;
          for (unsigned k = 0; k < n; ++k) args.push_back(loadChunk(op.operand(k), b.CreateAdd(first, i64(a * s.post)), w));
          acc = combine(region, args);
        }
        storeResult(b.CreateAdd(b.CreateMul(p, i64(s.post)), q), acc);
      });
    });
  }
  for (unsigned k = 0; k < n; ++k) set(op.result(k), scalarResult ? Lowered{scalarOut[k]} : Lowered{nullptr, outBufs[k]});
}

// Scan: sequential along the axis, vectorized across the dimensions after it.
void Lowering::lowerScan(const ir::Operation &op) {
  const ir::Block &region = op.region(0).block();
  unsigned n = op.numOperands();
  ir::Type in = op.operand(0)->type();
  AxisSplit s = splitAt(in, op.attr("axis")->getInt());
  bool reverse = op.attr("reverse")->getBool();
  std::vector<llvm::Value *> out;
  for (unsigned k = 0; k < n; ++k) out.push_back(newBuffer(op.result(k)->type()));
  unsigned w = s.post == 1 ? 1u : unsigned(std::min<int64_t>(s.post, vectorWidth(ir::Type::tile({s.post}, in.element()))));
  loop(i64(0), i64(s.pre), 1, [&](llvm::Value *p) {
    loop(i64(0), i64(s.post), w, [&](llvm::Value *q) {
      llvm::Value *origin = b.CreateAdd(b.CreateMul(p, i64(s.len * s.post)), q);
      auto at = [&](llvm::Value *a) { return b.CreateAdd(origin, b.CreateMul(a, i64(s.post))); };
      llvm::Value *start = i64(reverse ? s.len - 1 : 0);
      std::vector<llvm::Value *> acc;
      for (unsigned k = 0; k < n; ++k) {
        acc.push_back(loadChunk(op.operand(k), at(start), w));
        storeChunk(out[k], op.result(k)->type().element(), at(start), acc[k]);
      }
      if (s.len == 1) return;
      llvm::BasicBlock *pre = b.GetInsertBlock();
      llvm::BasicBlock *body = llvm::BasicBlock::Create(ctx, "scan", fn), *exit = llvm::BasicBlock::Create(ctx, "scan.end", fn);
      b.CreateBr(body);
      b.SetInsertPoint(body);
      llvm::PHINode *j = b.CreatePHI(b.getInt64Ty(), 2);
      j->addIncoming(i64(1), pre);
      std::vector<llvm::PHINode *> phis;
      for (unsigned k = 0; k < n; ++k) {
        phis.push_back(b.CreatePHI(acc[k]->getType(), 2));
        phis.back()->addIncoming(acc[k], pre);
      }
      llvm::Value *a = reverse ? b.CreateSub(i64(s.len - 1), j) : j;
      // What came before in scan order (the suffix, in reverse) on the
      // left, as Triton's reverse scan is the forward scan of the flipped line.
      std::vector<llvm::Value *> args(phis.begin(), phis.end());
      for (unsigned k = 0; k < n; ++k) args.push_back(loadChunk(op.operand(k), at(a), w));
      std::vector<llvm::Value *> next = combine(region, args);
      for (unsigned k = 0; k < n; ++k) storeChunk(out[k], op.result(k)->type().element(), at(a), next[k]);
      llvm::Value *j2 = b.CreateAdd(j, i64(1));
      j->addIncoming(j2, b.GetInsertBlock());
      for (unsigned k = 0; k < n; ++k) phis[k]->addIncoming(next[k], b.GetInsertBlock());
      b.CreateCondBr(b.CreateICmpSLT(j2, i64(s.len)), body, exit);
      b.SetInsertPoint(exit);
    });
  });
  for (unsigned k = 0; k < n; ++k) set(op.result(k), {nullptr, out[k]});
}

// Dot: operands converted to the accumulation type (f32, f64 or i32), then a
// micro-kernel keeps an MR x NR block of C in vector registers over all of K.
void Lowering::lowerDot(const ir::Operation &op) {
  const ir::Value *a = op.operand(0), *bm = op.operand(1), *c = op.operand(2);
  ir::Type accT = c->type().element();
  ir::Type comp = accT.isFloat() ? (accT.bitWidth() == 64 ? ir::Type::scalar(ir::ScalarKind::F64) : ir::Type::f32())
                                 : (accT.bitWidth() == 64 ? ir::Type::i64() : ir::Type::i32());
  ir::Type at = a->type();
  int64_t batch = at.rank() == 3 ? at.shape()[0] : 1;
  int64_t M = at.shape()[at.rank() - 2], K = at.shape()[at.rank() - 1], N = bm->type().shape().back();
  auto converted = [&](const ir::Value *v) {
    ir::Type t = v->type();
    llvm::Value *buf = newBuffer(t.withElement(comp));
    unsigned w = vectorWidth(t);
    ir::Type from = t.element();
    loop(i64(0), i64(t.numElements()), w, [&](llvm::Value *i) {
      llvm::Value *x = loadChunk(v, i, w);
      if (from != comp) x = castValue(x, from, comp, "rtne", &op);
      storeChunk(buf, comp, i, x);
    });
    return buf;
  };
  llvm::Value *A = converted(a), *B = converted(bm);
  // The accumulator is updated in place when nothing else reads its buffer
  // (a loop's carried accumulator then needs no copy either way).
  llvm::Value *C = accT == comp && ownsBuffer(c) ? get(c).buf : converted(c);
  unsigned W = unsigned(std::min<int64_t>(N, std::max(1, facts.vectorBits / comp.bitWidth())));
  unsigned NV = unsigned(std::min<int64_t>(2, N / W));  // vectors per row of the block
  unsigned MR = unsigned(std::min<int64_t>(M, facts.vectorBits >= 512 ? 8 : 4));
  int64_t NR = int64_t(W) * NV;
  llvm::Type *ct = computeType(comp);
  llvm::Type *vt = W == 1 ? ct : llvm::FixedVectorType::get(ct, W);
  bool fp = comp.isFloat();
  llvm::Align al(comp.bitWidth() / 8);
  loop(i64(0), i64(batch), 1, [&](llvm::Value *bt) {
    llvm::Value *aOff = b.CreateMul(bt, i64(M * K)), *bOff = b.CreateMul(bt, i64(K * N)), *cOff = b.CreateMul(bt, i64(M * N));
    loop(i64(0), i64(M), MR, [&](llvm::Value *i) {
      loop(i64(0), i64(N), NR, [&](llvm::Value *j) {
        auto cPtr = [&](unsigned ii, unsigned v) {
          llvm::Value *idx = b.CreateAdd(cOff, b.CreateAdd(b.CreateMul(b.CreateAdd(i, i64(ii)), i64(N)), b.CreateAdd(j, i64(v * W))));
          return b.CreateGEP(ct, C, idx);
        };
        llvm::BasicBlock *pre = b.GetInsertBlock();
        std::vector<llvm::Value *> init;
        for (unsigned ii = 0; ii < MR; ++ii)
          for (unsigned v = 0; v < NV; ++v) init.push_back(b.CreateAlignedLoad(vt, cPtr(ii, v), al));
        llvm::BasicBlock *body = llvm::BasicBlock::Create(ctx, "dot.k", fn), *exit = llvm::BasicBlock::Create(ctx, "dot.k.end", fn);
        b.CreateBr(body);
        b.SetInsertPoint(body);
        llvm::PHINode *k = b.CreatePHI(b.getInt64Ty(), 2);
        k->addIncoming(i64(0), pre);
        std::vector<llvm::PHINode *> acc;
        for (llvm::Value *x : init) {
          acc.push_back(b.CreatePHI(vt, 2));
          acc.back()->addIncoming(x, pre);
        }
        std::vector<llvm::Value *> bv;
        for (unsigned v = 0; v < NV; ++v) {
          llvm::Value *idx = b.CreateAdd(bOff, b.CreateAdd(b.CreateMul(k, i64(N)), b.CreateAdd(j, i64(v * W))));
          bv.push_back(b.CreateAlignedLoad(vt, b.CreateGEP(ct, B, idx), al));
        }
        std::vector<llvm::Value *> next;
        for (unsigned ii = 0; ii < MR; ++ii) {
          llvm::Value *idx = b.CreateAdd(aOff, b.CreateAdd(b.CreateMul(b.CreateAdd(i, i64(ii)), i64(K)), k));
          llvm::Value *av = splatIfNeeded(b.CreateAlignedLoad(ct, b.CreateGEP(ct, A, idx), al), W);
          for (unsigned v = 0; v < NV; ++v) {
            llvm::Value *cur = acc[ii * NV + v];
            next.push_back(fp ? b.CreateIntrinsic(llvm::Intrinsic::fma, {vt}, {av, bv[v], cur})
                              : b.CreateAdd(cur, b.CreateMul(av, bv[v])));
          }
        }
        llvm::Value *k2 = b.CreateAdd(k, i64(1));
        k->addIncoming(k2, b.GetInsertBlock());
        for (size_t x = 0; x < acc.size(); ++x) acc[x]->addIncoming(next[x], b.GetInsertBlock());
        b.CreateCondBr(b.CreateICmpSLT(k2, i64(K)), body, exit);
        b.SetInsertPoint(exit);
        for (unsigned ii = 0; ii < MR; ++ii)
          for (unsigned v = 0; v < NV; ++v) b.CreateAlignedStore(next[ii * NV + v], cPtr(ii, v), al);
      });
    });
  });
  ir::Type rt = op.result()->type();
  if (accT == comp) {
    set(op.result(), {nullptr, C});
    return;
  }
  llvm::Value *out = newBuffer(rt);
  unsigned w = vectorWidth(rt);
  loop(i64(0), i64(rt.numElements()), w, [&](llvm::Value *i) {
    llvm::Value *x = b.CreateAlignedLoad(w == 1 ? ct : llvm::FixedVectorType::get(ct, w), b.CreateGEP(ct, C, i), al);
    storeChunk(out, accT, i, castValue(x, comp, accT, "rtne", &op));
  });
  set(op.result(), {nullptr, out});
}

// Ops that move elements between positions; uniform inputs stay uniform.
void Lowering::lowerShapeOp(const ir::Operation &op) {
  bool uniform = true;
  for (ir::Value *v : op.operands()) uniform &= !get(v).isTile();
  if (uniform && (op.is(OpCode::Broadcast) || op.is(OpCode::Trans))) {
    set(op.result(), {get(op.operand(0)).scalar});
    return;
  }
  ir::Type rt = op.result()->type();
  ir::Type elem = rt.element();
  auto multiIndex = [&](llvm::Value *linear, const std::vector<int64_t> &shape) {
    std::vector<llvm::Value *> idx(shape.size());
    for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
      idx[d] = b.CreateURem(linear, i64(shape[d]));
      linear = b.CreateUDiv(linear, i64(shape[d]));
    }
    return idx;
  };
  auto linearOf = [&](const std::vector<llvm::Value *> &idx, const std::vector<int64_t> &shape) {
    llvm::Value *lin = i64(0);
    for (size_t d = 0; d < shape.size(); ++d) lin = b.CreateAdd(b.CreateMul(lin, i64(shape[d])), idx[d]);
    return lin;
  };
  switch (op.code()) {
  case OpCode::Broadcast: {
    const ir::Value *src = op.operand(0);
    const std::vector<int64_t> &ss = src->type().shape(), &ds = rt.shape();
    llvm::Value *buf = newBuffer(rt);
    int64_t L = ds.back();
    bool rowCopy = ss.back() == L;
    unsigned w = vectorWidth(rt, true);
    std::vector<int64_t> outer(ds.begin(), ds.end() - 1), souter(ss.begin(), ss.end() - 1);
    int64_t rows = rt.numElements() / L;
    loop(i64(0), i64(rows), 1, [&](llvm::Value *r) {
      std::vector<llvm::Value *> idx = multiIndex(r, outer);
      for (size_t d = 0; d < idx.size(); ++d)
        if (souter[d] == 1) idx[d] = i64(0);
      llvm::Value *srow = linearOf(idx, souter);
      llvm::Value *scalar = rowCopy ? nullptr : loadElement(src, srow);
      loop(i64(0), i64(L), w, [&](llvm::Value *c) {
        llvm::Value *v = rowCopy ? loadChunk(src, b.CreateAdd(b.CreateMul(srow, i64(L)), c), w) : splatIfNeeded(scalar, w);
        storeChunk(buf, elem, b.CreateAdd(b.CreateMul(r, i64(L)), c), v);
      });
    });
    set(op.result(), {nullptr, buf});
    return;
  }
  case OpCode::Trans: {
    const ir::Value *src = op.operand(0);
    const std::vector<int64_t> &order = op.attr("order")->getInts();
    llvm::Value *buf = newBuffer(rt);
    loop(i64(0), i64(rt.numElements()), 1, [&](llvm::Value *i) {
      std::vector<llvm::Value *> didx = multiIndex(i, rt.shape());
      std::vector<llvm::Value *> sidx(didx.size());
      for (size_t d = 0; d < order.size(); ++d) sidx[order[d]] = didx[d];
      storeChunk(buf, elem, i, loadElement(src, linearOf(sidx, src->type().shape())));
    });
    set(op.result(), {nullptr, buf});
    return;
  }
  case OpCode::Join: {
    llvm::Value *buf = newBuffer(rt);
    int64_t n = op.operand(0)->type().numElements();
    loop(i64(0), i64(n), 1, [&](llvm::Value *i) {
      llvm::Value *o = b.CreateMul(i, i64(2));
      storeChunk(buf, elem, o, loadElement(op.operand(0), i));
      storeChunk(buf, elem, b.CreateAdd(o, i64(1)), loadElement(op.operand(1), i));
    });
    set(op.result(), {nullptr, buf});
    return;
  }
  case OpCode::Split: {
    ir::Type half = op.result(0)->type();
    bool scalar = !half.isTile();
    llvm::Value *lo = scalar ? nullptr : newBuffer(half), *hi = scalar ? nullptr : newBuffer(half);
    if (scalar) {
      set(op.result(0), {loadElement(op.operand(0), i64(0))});
      set(op.result(1), {loadElement(op.operand(0), i64(1))});
      return;
    }
    loop(i64(0), i64(half.numElements()), 1, [&](llvm::Value *i) {
      llvm::Value *o = b.CreateMul(i, i64(2));
      storeChunk(lo, elem, i, loadElement(op.operand(0), o));
      storeChunk(hi, elem, i, loadElement(op.operand(0), b.CreateAdd(o, i64(1))));
    });
    set(op.result(0), {nullptr, lo});
    set(op.result(1), {nullptr, hi});
    return;
  }
  case OpCode::Cat: {
    // Row-major with dimension 0 outermost: the two buffers one after the other.
    llvm::Value *buf = newBuffer(rt);
    int64_t n = op.operand(0)->type().numElements();
    unsigned w = vectorWidth(op.operand(0)->type());
    loop(i64(0), i64(n), w, [&](llvm::Value *i) {
      storeChunk(buf, elem, i, loadChunk(op.operand(0), i, w));
      storeChunk(buf, elem, b.CreateAdd(i, i64(n)), loadChunk(op.operand(1), i, w));
    });
    set(op.result(), {nullptr, buf});
    return;
  }
  case OpCode::Gather: {
    const ir::Value *src = op.operand(0), *index = op.operand(1);
    const std::vector<int64_t> &ss = src->type().shape();
    size_t axis = size_t(op.attr("axis")->getInt());
    bool isSigned = index->type().element().isSigned();
    // A source computed lazily for this op is filled whole first: the gather
    // reads only some of its elements, and later users read the buffer.
    Lowered &ls = get(src);
    if (ls.pending) {
      if (!filled_.count(src)) {
        unsigned w = vectorWidth(src->type());
        ChunkGen gen = ls.gen;
        llvm::Value *sbuf = ls.buf;
        loop(i64(0), i64(src->type().numElements()), w,
             [&](llvm::Value *i) { storeChunk(sbuf, src->type().element(), i, gen(i, w)); });
        filled_.insert(src);
      }
      set(src, {nullptr, get(src).buf});
    }
    llvm::Value *buf = newBuffer(rt);
    loop(i64(0), i64(rt.numElements()), 1, [&](llvm::Value *i) {
      std::vector<llvm::Value *> idx = multiIndex(i, rt.shape());
      llvm::Value *at = loadElement(index, i);
      at = isSigned ? b.CreateSExtOrTrunc(at, b.getInt64Ty()) : b.CreateZExtOrTrunc(at, b.getInt64Ty());
      llvm::Value *inside = b.CreateICmpULT(at, i64(ss[axis]));  // negative indices are huge unsigned
      idx[axis] = b.CreateSelect(inside, at, i64(0));
      llvm::Value *v = loadElement(src, linearOf(idx, ss));
      storeChunk(buf, elem, i, b.CreateSelect(inside, v, llvm::Constant::getNullValue(v->getType())));
    });
    set(op.result(), {nullptr, buf});
    return;
  }
  default: fail(op, "is not a shape op");
  }
}

} // namespace tessera::targets::cpu
