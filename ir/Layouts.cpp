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

} // namespace

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
