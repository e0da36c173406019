// The meaning of tile layout attributes (Types.h's Layout), as linear layouts.
//
//   #blocked<size_per_thread = [1, 4], threads_per_warp = [8, 4],
//            warps_per_cta = [4, 1], order = [1, 0]>
//       Triton's blocked layout (order lists dimensions fastest first).
//   #linear<register = [...], lane = [...], warp = [...]>
//       explicit bases: each list holds, bit by bit, one coordinate per tile
//       dimension (so its length is a multiple of the tile's rank).
//
// Warp size and warps per program are target facts: the layout only has to
// be well formed; layout assignment picks values the target supports.
#pragma once

#include "ir/LinearLayout.h"
#include "ir/Types.h"

#include <optional>
#include <string>

namespace tessera::ir {

// The layout of a tile of `shape`; null with `error` set if it is malformed.
std::optional<LinearLayout> toLinearLayout(const Layout &layout, const std::vector<int64_t> &shape,
                                           std::string *error = nullptr);

} // namespace tessera::ir
