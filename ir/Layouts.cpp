#include "ir/Layouts.h"

#include <algorithm>
#include <stdexcept>

namespace tessera::ir {
namespace {

bool powerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

std::optional<LinearLayout> fail(std::string *error, std::string msg) {
  if (error) *error = std::move(msg);
  return std::nullopt;
}

std::optional<LinearLayout> blocked(const Layout &l, const std::vector<int64_t> &shape, std::string *error) {
  const char *names[] = {"size_per_thread", "threads_per_warp", "warps_per_cta", "order"};
  std::vector<int32_t> p[4];
  for (int i = 0; i < 4; ++i) {
    const std::vector<int64_t> *v = l.param(names[i]);
    if (!v) return fail(error, std::string("#blocked needs '") + names[i] + "'");
    if (v->size() != shape.size())
      return fail(error, std::string("#blocked '") + names[i] + "' has " + std::to_string(v->size()) +
                             " entries for a tile of rank " + std::to_string(shape.size()));
    for (int64_t x : *v) {
      if (i < 3 && !powerOfTwo(x)) return fail(error, std::string("#blocked '") + names[i] + "' entries must be powers of two");
      p[i].push_back(int32_t(x));
    }
  }
  std::vector<int32_t> sorted = p[3];
  std::sort(sorted.begin(), sorted.end());
  for (size_t d = 0; d < sorted.size(); ++d)
    if (sorted[d] != int32_t(d)) return fail(error, "#blocked 'order' must be a permutation of the tile's dimensions");
  for (int64_t d : shape)
    if (!powerOfTwo(d)) return fail(error, "a tile with a layout needs power-of-two dimensions");
  std::vector<int32_t> s(shape.begin(), shape.end());
  return LinearLayout::blocked(s, p[0], p[1], p[2], p[3]);
}

std::optional<LinearLayout> linear(const Layout &l, const std::vector<int64_t> &shape, std::string *error) {
  size_t rank = shape.size();
  std::vector<LinearLayout::InDim> ins;
  for (const auto &[name, flat] : l.params()) {
    if (flat.size() % rank) return fail(error, "#linear '" + name + "' needs a coordinate per dimension for each bit");
    LinearLayout::InDim in{name, {}};
    for (size_t i = 0; i < flat.size(); i += rank) in.bases.emplace_back(flat.begin() + i, flat.begin() + i + rank);
    for (auto &basis : in.bases)
      for (size_t d = 0; d < rank; ++d)
        if (basis[d] < 0 || basis[d] >= shape[d])
          return fail(error, "#linear '" + name + "' has a coordinate outside the tile");
    ins.push_back(std::move(in));
  }
  std::vector<LinearLayout::OutDim> outs;
  for (size_t d = 0; d < rank; ++d) {
    if (!powerOfTwo(shape[d])) return fail(error, "a tile with a layout needs power-of-two dimensions");
    outs.push_back({"dim" + std::to_string(d), int32_t(shape[d])});
  }
  LinearLayout layout(std::move(ins), std::move(outs));
  if (!layout.isSurjective()) return fail(error, "#linear does not cover every element of the tile");
  return layout;
}

std::optional<LinearLayout> swizzled(const Layout &l, const std::vector<int64_t> &shape, std::string *error) {
  auto scalar = [&](const char *name, int64_t &out) {
    const std::vector<int64_t> *v = l.param(name);
    if (!v || v->size() != 1 || !powerOfTwo((*v)[0])) return false;
    out = (*v)[0];
    return true;
  };
  int64_t vec = 0, perPhase = 0, maxPhase = 0;
  if (!scalar("vec", vec) || !scalar("per_phase", perPhase) || !scalar("max_phase", maxPhase))
    return fail(error, "#shared needs 'vec', 'per_phase' and 'max_phase', each one power of two");
  const std::vector<int64_t> *order = l.param("order");
  size_t rank = shape.size();
  if (!order || order->empty() || order->size() > rank)
    return fail(error, "#shared 'order' must list the buffer's trailing dimensions (" + std::to_string(rank) + " at most)");
  size_t lead = rank - order->size();
  std::vector<int64_t> sorted(*order);
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != int64_t(lead + i)) return fail(error, "#shared 'order' must be a permutation of the trailing dimensions");
  for (size_t d = lead; d < rank; ++d)
    if (!powerOfTwo(shape[d])) return fail(error, "a shared buffer needs power-of-two dimensions (stacked ones aside)");
  size_t fast = size_t((*order)[0]);
  int64_t atom = shape[fast];
  if (const std::vector<int64_t> *a = l.param("atom")) {
    if (a->size() != 1 || !powerOfTwo((*a)[0]) || (*a)[0] > shape[fast])
      return fail(error, "#shared 'atom' must be one power of two no larger than order[0]'s size");
    atom = (*a)[0];
  }
  if (maxPhase > 1 && (order->size() < 2 || vec * maxPhase > atom))
    return fail(error, "#shared swizzles groups of 'vec' along order[0] by order[1]: vec x max_phase must fit in "
                       "order[0]'s size (its atom's)");
  int lpp = 0, lmp = 0;
  while ((int64_t(1) << lpp) < perPhase) ++lpp;
  while ((int64_t(1) << lmp) < maxPhase) ++lmp;
  LinearLayout::InDim offset{"offset", {}};
  auto addBits = [&](size_t dim, bool isRow, int from, int64_t upTo) {
    for (int j = from; (int64_t(1) << j) < upTo; ++j) {
      std::vector<int32_t> basis(rank, 0);
      basis[dim] = int32_t(1) << j;
      int p = j - lpp;
      if (isRow && p >= 0 && p < lmp) basis[fast] = int32_t(vec << p);
      offset.bases.push_back(basis);
    }
  };
  // order[0] within an atom, the other dimensions, then the atoms.
  int atomBits = 0;
  while ((int64_t(1) << atomBits) < atom) ++atomBits;
  addBits(fast, false, 0, atom);
  for (size_t i = 1; i < order->size(); ++i) addBits(size_t((*order)[i]), i == 1 && maxPhase > 1, 0, shape[size_t((*order)[i])]);
  addBits(fast, false, atomBits, shape[fast]);
  // One entry: the trailing dimensions, renumbered from dim0.
  std::vector<LinearLayout::OutDim> outs;
  for (size_t d = lead; d < rank; ++d) outs.push_back({"dim" + std::to_string(d - lead), int32_t(shape[d])});
  for (auto &basis : offset.bases) basis.erase(basis.begin(), basis.begin() + int64_t(lead));
  return LinearLayout({offset}, outs);
}

} // namespace

std::optional<LinearLayout> toSharedLayout(const Layout &layout, const std::vector<int64_t> &shape, std::string *error) {
  std::optional<LinearLayout> out;
  try {
    if (layout.kind() == "shared") out = swizzled(layout, shape, error);
    else if (layout.kind() == "linear" && layout.params().size() == 1 && layout.params()[0].first == "offset")
      out = linear(layout, shape, error);
    else
      return fail(error, "a shared buffer needs a #shared layout or a #linear<offset = [...]>, not " + layout.str());
  } catch (const std::invalid_argument &e) {
    return fail(error, std::string("malformed layout: ") + e.what());
  }
  if (out && !out->isInvertible()) return fail(error, "the shared layout does not give every element its own offset");
  return out;
}

const Layout *toLayoutAttribute(const LinearLayout &l) {
  std::vector<Layout::Param> params;
  for (const auto &in : l.inDims()) {
    std::vector<int64_t> flat;
    for (const auto &basis : in.bases) flat.insert(flat.end(), basis.begin(), basis.end());
    params.push_back({in.name, flat});
  }
  return Layout::get("linear", std::move(params));
}

Type transposedSharedBuffer(Type buffer) {
  std::vector<Layout::Param> params = buffer.layout()->params();
  for (auto &p : params)
    if (p.first == "order") p.second = {1 - p.second[0], 1 - p.second[1]};
  return Type::buffer({buffer.shape()[1], buffer.shape()[0]}, buffer.element(), Layout::get("shared", std::move(params)));
}

const Layout *swizzledSharedLayout(const std::vector<int64_t> &shape, const std::vector<int64_t> &order,
                                   int elementBytes, int64_t stacked, int64_t atomBytes) {
  int64_t inner = shape[size_t(order[0] + stacked)];
  int64_t atom = 0;
  if (atomBytes > 0 && order.size() >= 2 && inner * elementBytes > atomBytes) {
    atom = std::max<int64_t>(1, atomBytes / std::max(1, elementBytes));
    inner = atom;
  }
  int64_t vec = std::max<int64_t>(1, std::min<int64_t>(16 / std::max(1, elementBytes), inner));
  int64_t rowBytes = inner * elementBytes;
  int64_t perPhase = std::max<int64_t>(1, 128 / std::max<int64_t>(1, rowBytes));
  int64_t maxPhase = order.size() < 2 ? 1 : std::max<int64_t>(1, std::min<int64_t>({8, rowBytes / 16, inner / vec}));
  std::vector<int64_t> dims;
  for (int64_t d : order) dims.push_back(d + stacked);
  std::vector<Layout::Param> params = {{"vec", {vec}}, {"per_phase", {perPhase}}, {"max_phase", {maxPhase}}, {"order", dims}};
  if (atom) params.push_back({"atom", {atom}});
  return Layout::get("shared", std::move(params));
}

std::optional<LinearLayout> toLinearLayout(const Layout &layout, const std::vector<int64_t> &shape, std::string *error) {
  try {
    if (layout.kind() == "blocked") return blocked(layout, shape, error);
    if (layout.kind() == "linear") return linear(layout, shape, error);
  } catch (const std::invalid_argument &e) {
    return fail(error, std::string("malformed layout: ") + e.what());
  }
  return fail(error, "unknown layout kind '#" + layout.kind() + "' (expected #blocked or #linear)");
}

} // namespace tessera::ir
