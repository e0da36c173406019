#include "ir/LinearLayout.h"

#include <cassert>
#include <algorithm>
#include <stdexcept>

namespace tessera::ir {
namespace {

int log2Exact(int64_t v) {
  if (v <= 0 || (v & (v - 1))) throw std::invalid_argument("linear layout sizes must be powers of two");
  int k = 0;
  while ((int64_t(1) << k) < v) ++k;
  return k;
}

} // namespace

LinearLayout::LinearLayout(std::vector<InDim> ins, std::vector<OutDim> outs) : ins_(std::move(ins)), outs_(std::move(outs)) {
  for (auto &o : outs_) log2Exact(o.size);
  for (auto &in : ins_)
    for (auto &basis : in.bases) {
      if (basis.size() != outs_.size()) throw std::invalid_argument("a basis needs one coordinate per output dimension");
      for (size_t d = 0; d < basis.size(); ++d)
        if (basis[d] < 0 || basis[d] >= outs_[d].size) throw std::invalid_argument("basis coordinate out of range");
    }
}

LinearLayout LinearLayout::identity1D(int32_t size, std::string inDim, std::string outDim) {
  Bases bases;
  for (int k = 0; k < log2Exact(size); ++k) bases.push_back({int32_t(1) << k});
  return LinearLayout({{std::move(inDim), bases}}, {{std::move(outDim), size}});
}

LinearLayout LinearLayout::zeros1D(int32_t size, std::string inDim, std::string outDim) {
  Bases bases(size_t(log2Exact(size)), std::vector<int32_t>{0});
  return LinearLayout({{std::move(inDim), bases}}, {{std::move(outDim), 1}});
}

int32_t LinearLayout::inDimSize(const std::string &name) const { return int32_t(1) << bases(name).size(); }

const LinearLayout::Bases &LinearLayout::bases(const std::string &inDim) const {
  static const Bases none;
  for (auto &in : ins_)
    if (in.name == inDim) return in.bases;
  return none;
}

int32_t LinearLayout::outDimSize(const std::string &name) const {
  for (auto &o : outs_)
    if (o.name == name) return o.size;
  return 1;
}

int64_t LinearLayout::totalInSize() const {
  int64_t n = 1;
  for (auto &in : ins_) n <<= in.bases.size();
  return n;
}

int64_t LinearLayout::totalOutSize() const {
  int64_t n = 1;
  for (auto &o : outs_) n *= o.size;
  return n;
}

std::vector<int32_t> LinearLayout::apply(const std::vector<std::pair<std::string, int32_t>> &inputs) const {
  std::vector<int32_t> out(outs_.size(), 0);
  for (auto &[name, value] : inputs) {
    const InDim *in = nullptr;
    for (auto &d : ins_)
      if (d.name == name) in = &d;
    if (!in) {
      if (value != 0) throw std::invalid_argument("input dimension '" + name + "' is not in the layout");
      continue;
    }
    if (value < 0 || value >= (int32_t(1) << in->bases.size()))
      throw std::invalid_argument("input '" + name + "' out of range");
    for (size_t bit = 0; bit < in->bases.size(); ++bit)
      if ((value >> bit) & 1)
        for (size_t d = 0; d < out.size(); ++d) out[d] ^= in->bases[bit][d];
  }
  return out;
}

LinearLayout LinearLayout::compose(const LinearLayout &inner) const {
  // inner: I -> M ; this: M -> O. Each basis of inner becomes this(basis).
  for (auto &m : inner.outs_)
    if (inDimSize(m.name) != m.size)
      throw std::invalid_argument("compose: '" + m.name + "' has different sizes in the two layouts");
  std::vector<InDim> ins;
  for (auto &in : inner.ins_) {
    InDim d{in.name, {}};
    for (auto &basis : in.bases) {
      std::vector<std::pair<std::string, int32_t>> point;
      for (size_t k = 0; k < inner.outs_.size(); ++k) point.push_back({inner.outs_[k].name, basis[k]});
      d.bases.push_back(apply(point));
    }
    ins.push_back(std::move(d));
  }
  return LinearLayout(std::move(ins), outs_);
}

LinearLayout LinearLayout::operator*(const LinearLayout &other) const {
  // Output dimensions: ours first, then other's new ones; a shared output
  // dimension grows, with other's coordinates above ours.
  std::vector<OutDim> outs = outs_;
  std::vector<int> otherToOut, otherShift;
  for (auto &o : other.outs_) {
    int found = -1;
    for (size_t k = 0; k < outs.size(); ++k)
      if (outs[k].name == o.name) found = int(k);
    if (found < 0) {
      otherToOut.push_back(int(outs.size()));
      otherShift.push_back(0);
      outs.push_back(o);
    } else {
      otherToOut.push_back(found);
      otherShift.push_back(log2Exact(outs[size_t(found)].size));
      outs[size_t(found)].size *= o.size;
    }
  }
  std::vector<InDim> ins;
  auto widen = [&](const Bases &b, bool fromOther) {
    Bases out;
    for (auto &basis : b) {
      std::vector<int32_t> v(outs.size(), 0);
      for (size_t k = 0; k < basis.size(); ++k) {
        if (fromOther) v[size_t(otherToOut[k])] = basis[k] << otherShift[k];
        else v[k] = basis[k];
      }
      out.push_back(v);
    }
    return out;
  };
  for (auto &in : ins_) ins.push_back({in.name, widen(in.bases, false)});
  for (auto &in : other.ins_) {
    bool merged = false;
    for (auto &mine : ins)
      if (mine.name == in.name) {
        Bases extra = widen(in.bases, true);
        mine.bases.insert(mine.bases.end(), extra.begin(), extra.end());
        merged = true;
      }
    if (!merged) ins.push_back({in.name, widen(in.bases, true)});
  }
  return LinearLayout(std::move(ins), std::move(outs));
}

namespace {

// Flattened bit-vectors over GF(2): each basis as one integer of output bits.
struct Flat {
  std::vector<uint64_t> columns;                  // one per input bit
  std::vector<std::pair<size_t, size_t>> origin;  // (input dim, bit) of each column
  int outBits = 0;
};

Flat flatten(const LinearLayout &l) {
  Flat f;
  std::vector<int> offset;
  for (auto &o : l.outDims()) {
    offset.push_back(f.outBits);
    f.outBits += log2Exact(o.size);
  }
  for (size_t d = 0; d < l.inDims().size(); ++d)
    for (size_t bit = 0; bit < l.inDims()[d].bases.size(); ++bit) {
      uint64_t v = 0;
      const auto &basis = l.inDims()[d].bases[bit];
      for (size_t k = 0; k < basis.size(); ++k) v |= uint64_t(basis[k]) << offset[k];
      f.columns.push_back(v);
      f.origin.push_back({d, bit});
    }
  return f;
}

int rank(std::vector<uint64_t> cols) {
  int r = 0;
  for (int bit = 63; bit >= 0; --bit) {
    auto pivot = std::find_if(cols.begin(), cols.end(), [&](uint64_t c) { return (c >> bit) & 1; });
    if (pivot == cols.end()) continue;
    uint64_t p = *pivot;
    cols.erase(pivot);
    for (auto &c : cols)
      if ((c >> bit) & 1) c ^= p;
    ++r;
  }
  return r;
}

} // namespace

bool LinearLayout::isSurjective() const {
  Flat f = flatten(*this);
  return rank(f.columns) == f.outBits;
}

bool LinearLayout::isInvertible() const {
  Flat f = flatten(*this);
  return int(f.columns.size()) == f.outBits && isSurjective();
}

std::optional<LinearLayout> LinearLayout::invert() const {
  Flat f = flatten(*this);
  if (rank(f.columns) != f.outBits) return std::nullopt;
  // An XOR basis indexed by leading bit, built from the input bits in order,
  // so that dependent (broadcast) inputs drop out and resolve to index 0.
  struct Row {
    uint64_t value = 0, inputs = 0;
  };
  Row rows[64];
  for (size_t i = 0; i < f.columns.size(); ++i) {
    uint64_t v = f.columns[i], m = uint64_t(1) << i;
    for (int bit = 63; bit >= 0 && v; --bit) {
      if (!((v >> bit) & 1)) continue;
      if (!rows[bit].value) {
        rows[bit] = {v, m};
        break;
      }
      v ^= rows[bit].value;
      m ^= rows[bit].inputs;
    }
  }
  // A preimage of each unit output vector.
  std::vector<uint64_t> solution(size_t(f.outBits), 0);
  for (int ob = 0; ob < f.outBits; ++ob) {
    uint64_t t = uint64_t(1) << ob, m = 0;
    for (int bit = 63; bit >= 0; --bit) {
      if (!((t >> bit) & 1)) continue;
      if (!rows[bit].value) return std::nullopt;
      t ^= rows[bit].value;
      m ^= rows[bit].inputs;
    }
    solution[size_t(ob)] = m;
  }
  // Inverse layout: inputs are the old outputs (bit by bit), outputs the old inputs.
  std::vector<InDim> ins;
  int ob = 0;
  for (auto &o : outs_) {
    InDim d{o.name, {}};
    for (int k = 0; k < log2Exact(o.size); ++k, ++ob) {
      std::vector<int32_t> v(ins_.size(), 0);
      for (size_t c = 0; c < f.columns.size(); ++c)
        if ((solution[size_t(ob)] >> c) & 1) v[f.origin[c].first] |= int32_t(1) << f.origin[c].second;
      d.bases.push_back(v);
    }
    ins.push_back(std::move(d));
  }
  std::vector<OutDim> outs;
  for (auto &in : ins_) outs.push_back({in.name, int32_t(1) << in.bases.size()});
  return LinearLayout(std::move(ins), std::move(outs));
}

std::optional<LinearLayout> LinearLayout::conversionTo(const LinearLayout &target) const {
  auto inv = invert();
  if (!inv) return std::nullopt;
  for (auto &o : target.outs_)
    if (outDimSize(o.name) != o.size) return std::nullopt;
  return inv->compose(target);
}

LinearLayout LinearLayout::sliced(size_t dim) const {
  std::vector<InDim> ins = ins_;
  for (auto &in : ins)
    for (auto &basis : in.bases) basis.erase(basis.begin() + int64_t(dim));
  std::vector<OutDim> outs = outs_;
  outs.erase(outs.begin() + int64_t(dim));
  return LinearLayout(std::move(ins), std::move(outs)).renamedDims();
}

LinearLayout LinearLayout::withInsertedDim(size_t dim) const {
  std::vector<InDim> ins = ins_;
  for (auto &in : ins)
    for (auto &basis : in.bases) basis.insert(basis.begin() + int64_t(dim), 0);
  std::vector<OutDim> outs = outs_;
  outs.insert(outs.begin() + int64_t(dim), {"new", 1});
  return LinearLayout(std::move(ins), std::move(outs)).renamedDims();
}

LinearLayout LinearLayout::permuted(const std::vector<int64_t> &order) const {
  std::vector<InDim> ins = ins_;
  for (auto &in : ins)
    for (auto &basis : in.bases) {
      std::vector<int32_t> b(order.size());
      for (size_t i = 0; i < order.size(); ++i) b[i] = basis[size_t(order[i])];
      basis = b;
    }
  std::vector<OutDim> outs;
  for (int64_t d : order) outs.push_back(outs_[size_t(d)]);
  return LinearLayout(std::move(ins), std::move(outs)).renamedDims();
}

std::optional<LinearLayout> LinearLayout::reshaped(const std::vector<int64_t> &shape) const {
  auto strides = [](const std::vector<int64_t> &sizes) {
    std::vector<int64_t> s(sizes.size());
    int64_t n = 1;
    for (size_t d = sizes.size(); d-- > 0;) s[d] = n, n *= sizes[d];
    return std::make_pair(s, n);
  };
  std::vector<int64_t> oldSizes;
  for (const OutDim &o : outs_) oldSizes.push_back(o.size);
  auto [oldStrides, count] = strides(oldSizes);
  auto [newStrides, newCount] = strides(shape);
  if (count != newCount) return std::nullopt;
  for (int64_t n : shape)
    if (n <= 0 || (n & (n - 1))) return std::nullopt;
  std::vector<InDim> ins = ins_;
  for (auto &in : ins)
    for (auto &basis : in.bases) {
      int64_t flat = 0;
      for (size_t d = 0; d < basis.size(); ++d) flat += int64_t(basis[d]) * oldStrides[d];
      std::vector<int32_t> b(shape.size());
      for (size_t d = 0; d < shape.size(); ++d) b[d] = int32_t((flat / newStrides[d]) % shape[d]);
      basis = b;
    }
  std::vector<OutDim> outs;
  for (int64_t n : shape) outs.push_back({"", int32_t(n)});
  return LinearLayout(std::move(ins), std::move(outs)).renamedDims();
}

LinearLayout LinearLayout::renamedDims() const {
  std::vector<OutDim> outs = outs_;
  for (size_t d = 0; d < outs.size(); ++d) outs[d].name = "dim" + std::to_string(d);
  return LinearLayout(ins_, std::move(outs));
}

bool LinearLayout::operator==(const LinearLayout &o) const {
  if (ins_.size() != o.ins_.size() || outs_.size() != o.outs_.size()) return false;
  for (size_t i = 0; i < outs_.size(); ++i)
    if (outs_[i].name != o.outs_[i].name || outs_[i].size != o.outs_[i].size) return false;
  for (size_t i = 0; i < ins_.size(); ++i)
    if (ins_[i].name != o.ins_[i].name || ins_[i].bases != o.ins_[i].bases) return false;
  return true;
}

std::string LinearLayout::str() const {
  std::string s = "{";
  for (size_t i = 0; i < ins_.size(); ++i) {
    s += (i ? ", " : "") + ins_[i].name + ": [";
    for (size_t b = 0; b < ins_[i].bases.size(); ++b) {
      s += b ? ", (" : "(";
      for (size_t k = 0; k < ins_[i].bases[b].size(); ++k) s += (k ? ", " : "") + std::to_string(ins_[i].bases[b][k]);
      s += ")";
    }
    s += "]";
  }
  s += "} -> (";
  for (size_t k = 0; k < outs_.size(); ++k) s += (k ? ", " : "") + outs_[k].name + ":" + std::to_string(outs_[k].size);
  return s + ")";
}

LinearLayout LinearLayout::blocked(const std::vector<int32_t> &shape, const std::vector<int32_t> &sizePerThread,
                                   const std::vector<int32_t> &threadsPerWarp, const std::vector<int32_t> &warpsPerCTA,
                                   const std::vector<int32_t> &order) {
  size_t rank = shape.size();
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank || warpsPerCTA.size() != rank || order.size() != rank)
    throw std::invalid_argument("blocked layout parameters need one entry per dimension");
  auto dimName = [](int32_t d) { return "dim" + std::to_string(d); };
  // One CTA tile: registers, then lanes, then warps, each fastest dimension first.
  LinearLayout tile;
  auto along = [&](const std::vector<int32_t> &counts, const std::string &in) {
    LinearLayout l;
    for (int32_t d : order) l = l * identity1D(counts[size_t(d)], in, dimName(d));
    return l;
  };
  tile = along(sizePerThread, "register") * along(threadsPerWarp, "lane") * along(warpsPerCTA, "warp");
  // Fit the tile to the shape: a dimension larger than the CTA tile repeats
  // in registers; a smaller one wraps, and its extra bits broadcast.
  std::vector<InDim> ins = tile.inDims();
  std::vector<OutDim> outs;
  std::vector<int32_t> tileSize(rank);
  for (size_t k = 0; k < tile.outDims().size(); ++k) {
    int32_t d = std::stoi(tile.outDims()[k].name.substr(3));
    tileSize[size_t(d)] = tile.outDims()[k].size;
  }
  // Output dims in order dim0..dimN-1 of the real shape.
  std::vector<int> pos(rank);
  for (size_t k = 0; k < tile.outDims().size(); ++k) pos[size_t(std::stoi(tile.outDims()[k].name.substr(3)))] = int(k);
  for (size_t d = 0; d < rank; ++d) outs.push_back({dimName(int32_t(d)), shape[d]});
  for (auto &in : ins)
    for (auto &basis : in.bases) {
      std::vector<int32_t> v(rank, 0);
      for (size_t d = 0; d < rank; ++d) v[d] = basis[size_t(pos[d])] % shape[d];  // wraps: high bits -> 0
      basis = v;
    }
  // Repeat the tile in registers over dimensions larger than it (fastest first).
  for (int32_t d : order) {
    for (int32_t rep = tileSize[size_t(d)]; rep < shape[size_t(d)]; rep *= 2) {
      std::vector<int32_t> v(rank, 0);
      v[size_t(d)] = rep;
      for (auto &in : ins)
        if (in.name == "register") in.bases.push_back(v);
    }
  }
  return LinearLayout(std::move(ins), std::move(outs));
}

} // namespace tessera::ir
