// Axis analysis (Triton's AxisInfo): what is known, per dimension, about the
// runs of an integer or pointer value's elements. Targets use it to turn a tile
// of pointers into wide vector accesses.
//
// Definitions, for one dimension d of size n (a scalar is one dimension of
// size 1). Cut every line of the value along d into aligned blocks
// [j*m, (j+1)*m) (the last one may be short):
// - contiguity c: in every block of c, each element is the one before plus one
//   (integers: +1 modulo 2^width; pointers: the next element, + the pointee's
//   size in bytes).
// - constancy k: in every block of k, all elements are equal.
// - divisibility D, a power of two: D divides the first element of every block
//   of c; for pointers, the address in bytes. With c = 1 that is every element.
//   It is a fact about low bits, so wrap-around keeps it.
// - constantValue: every element equals it (normalized like Fold.h's
//   normalizeInt).
// Unknown is c = D = k = 1. Values that are neither integers nor pointers are
// unknown. Trusted facts: the kernel argument attributes `divisibility = N`
// and `equal_to_one` (set by specialization) and `hint` ops (tl.multiple_of,
// max_contiguous, max_constancy), which are the user's promises, as in Triton.
#pragma once

#include "ir/IR.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera::ir {

struct AxisInfo {
  static constexpr int64_t kMaxDivisor = int64_t(1) << 62;  // the divisibility of 0

  std::vector<int64_t> contiguity, divisibility, constancy;  // one entry per dimension
  std::optional<int64_t> constantValue;

  size_t rank() const { return contiguity.size(); }
  bool operator==(const AxisInfo &) const = default;
  std::string str() const;  // "contiguity [..] divisibility [..] constancy [..] (constant v)"

  static AxisInfo unknown(size_t rank);
  // Every element equals `value`; `dims` are the dimension sizes.
  static AxisInfo constant(int64_t value, const std::vector<int64_t> &dims);
  // What holds of a value that is either `a` or `b`. `step` is the distance
  // between consecutive values: 1 for integers, the pointee's bytes for pointers.
  static AxisInfo join(const AxisInfo &a, const AxisInfo &b, int64_t step = 1);

  // A power of two dividing every element at a position that is a multiple of
  // `g` along dimension d (such a position lies a multiple of gcd(g, c) steps
  // into its run).
  int64_t divisibilityEvery(size_t d, int64_t g, int64_t step = 1) const;
};

// The largest power of two dividing v (kMaxDivisor for 0).
int64_t highestPowerOf2Divisor(int64_t v);
// Integers and pointers, scalars or tiles: the values the analysis describes.
bool hasAxisInfo(Type t);

class AxisAnalysis {
public:
  // Loop-carried values are solved by iteration (start from the init, join what
  // the yield gives until nothing changes); past this many rounds they become unknown.
  static constexpr int kMaxLoopRounds = 100;

  explicit AxisAnalysis(const Function &f);
  // Every value of the function has an entry; others read as unknown.
  const AxisInfo &get(const Value *v) const;

private:
  void set(const Value *v, AxisInfo info) { info_[v] = std::move(info); }
  void visitBlock(const Block &b);
  void visitOp(const Operation &op);
  void visitFor(const Operation &op);
  void visitWhile(const Operation &op);
  AxisInfo transfer(const Operation &op, unsigned result) const;
  std::optional<int64_t> foldConstant(const Operation &op) const;
  bool nonNegative(const Value *v, int depth = 0) const;

  mutable std::unordered_map<const Value *, AxisInfo> info_;
};

} // namespace tessera::ir
