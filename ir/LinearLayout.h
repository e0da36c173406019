// Linear layouts: which hardware index owns which tile element, as a linear
// map over GF(2) (the representation of Triton's 2024-25 layout work).
//
// A layout has named input dimensions (e.g. "register", "lane", "warp") and
// named output dimensions (the tile's "dim0", "dim1", ...), every size a power
// of two. Each bit of each input dimension has a basis vector: one coordinate
// per output dimension. An input maps to the XOR of the basis vectors of its
// set bits. So a blocked layout, a slice, an MMA fragment or a swizzled
// shared-memory layout are all the same kind of object, and converting
// between two layouts is composing one with the inverse of the other.
// A zero basis vector means that input bit is broadcast (replicated data).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tessera::ir {

class LinearLayout {
public:
  // Bases of one input dimension: bases[bit][outDim].
  using Bases = std::vector<std::vector<int32_t>>;
  struct InDim {
    std::string name;
    Bases bases;
  };
  struct OutDim {
    std::string name;
    int32_t size;  // a power of two
  };

  LinearLayout() = default;
  LinearLayout(std::vector<InDim> ins, std::vector<OutDim> outs);

  // size elements along one output dimension, one per input index (x -> x).
  static LinearLayout identity1D(int32_t size, std::string inDim, std::string outDim);
  // `size` inputs that all map to coordinate 0 (broadcast).
  static LinearLayout zeros1D(int32_t size, std::string inDim, std::string outDim);
  // Triton's blocked layout for `shape`: sizePerThread x threadsPerWarp x
  // warpsPerCTA per dimension, `order` listing dimensions fastest first.
  // Dimensions larger than one pass repeat in the registers; smaller ones
  // broadcast across threads or warps.
  static LinearLayout blocked(const std::vector<int32_t> &shape, const std::vector<int32_t> &sizePerThread,
                              const std::vector<int32_t> &threadsPerWarp, const std::vector<int32_t> &warpsPerCTA,
                              const std::vector<int32_t> &order);

  const std::vector<InDim> &inDims() const { return ins_; }
  const std::vector<OutDim> &outDims() const { return outs_; }
  int32_t inDimSize(const std::string &name) const;   // 1 if absent
  const Bases &bases(const std::string &inDim) const;  // none if absent
  int32_t outDimSize(const std::string &name) const;  // 1 if absent
  int64_t totalInSize() const;
  int64_t totalOutSize() const;

  // The output coordinates of one input (values per input dimension, by name).
  std::vector<int32_t> apply(const std::vector<std::pair<std::string, int32_t>> &inputs) const;

  // The layout (this o inner): inner's outputs feed this layout's inputs
  // (matched by name; sizes must agree).
  LinearLayout compose(const LinearLayout &inner) const;
  // Side by side: disjoint input dimensions, output dimensions concatenated
  // (or multiplied when shared: `other` is the slower-varying part).
  LinearLayout operator*(const LinearLayout &other) const;

  // Every output is reached (the map is onto).
  bool isSurjective() const;
  // The map is one to one onto the outputs (no broadcast, nothing missing).
  bool isInvertible() const;
  // For an onto layout: a layout from the outputs back to one input each
  // (for broadcast inputs, the one whose free bits are zero). Null if not onto.
  std::optional<LinearLayout> invert() const;
  // The conversion map for moving data held in `this` layout into `target`:
  // for each input of `target`, the input of `this` that holds the same
  // element. Null when `this` does not hold every element.
  std::optional<LinearLayout> conversionTo(const LinearLayout &target) const;

  // Output dimension `dim` removed (a reduction's result): inputs that
  // differed only along it now hold the same element.
  LinearLayout sliced(size_t dim) const;
  // A size-1 output dimension inserted at position `dim` (expand_dims).
  LinearLayout withInsertedDim(size_t dim) const;
  // Output dimensions reordered: result dimension i is this layout's order[i].
  LinearLayout permuted(const std::vector<int64_t> &order) const;
  // The same elements under another shape of as many elements, both
  // row-major (reshape): each basis's coordinates become a row-major index,
  // split again along `shape`. Exact, moving no data, because every size is
  // a power of two (the index's bits are the coordinates' bits side by
  // side); nullopt when a size of `shape` is not one or the counts differ.
  std::optional<LinearLayout> reshaped(const std::vector<int64_t> &shape) const;
  // Output dimension names dim0, dim1, ... in order (after the edits above).
  LinearLayout renamedDims() const;

  bool operator==(const LinearLayout &o) const;
  std::string str() const;

private:
  std::vector<InDim> ins_;
  std::vector<OutDim> outs_;
};

} // namespace tessera::ir
