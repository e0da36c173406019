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

// The #linear attribute of a tile layout (register, lane and warp bases).
const Layout *toLayoutAttribute(const LinearLayout &l);

// Shared-memory layouts (of smem buffers): a one-to-one map from "offset",
// an element's index in the buffer, to its coordinates.
//
//   #shared<vec = [8], per_phase = [1], max_phase = [8], order = [1, 0]>
//       row-major along `order` (fastest dimension first). With max_phase >
//       1 the groups of `vec` elements along order[0] are XOR-swizzled by the
//       index along order[1]: group ^= (row / per_phase) % max_phase
//       (Triton's swizzled shared layout: rows land in different banks).
//       With `atom = [n]` (n < order[0]'s size), order[0] is cut into
//       blocks of n elements: each block is a whole buffer of the form above
//       (rows of n elements, swizzled), and the blocks follow one another
//       (NVIDIA's wgmma reads operands in atoms of 8 rows of at most 128
//       bytes; a wider row would break its address-bit swizzle).
//   #linear<offset = [...]>
//       explicit bases, one coordinate per dimension for each offset bit.
//
// A #shared layout may describe only the trailing dimensions (its `order`
// has fewer entries than the buffer's rank): the leading ones, of any size,
// are stacked entries, outermost (multi-buffering: one tile per stage),
// reached through local_view. The map returned is then that of one entry
// (the trailing dimensions).
// The #shared layout for a buffer of `shape` whose dimensions are ordered
// `order` (fastest first) that puts 8 consecutive rows (along order[1]) of
// 16-byte groups in 8 different bank groups: groups of vec = 16 bytes
// xor-ed with row / per_phase, per_phase = 128 bytes / row bytes (at
// least 1), max_phase = row bytes / 16 (at most 8). `stacked` leading
// dimensions (stages of a multi-buffer) are left out of `order`. With
// `atomBytes`, rows longer than that are cut into atoms of that many bytes.
const Layout *swizzledSharedLayout(const std::vector<int64_t> &shape, const std::vector<int64_t> &order,
                                   int elementBytes, int64_t stacked = 0, int64_t atomBytes = 0);

// A rank-2 buffer type with a #shared layout, seen with its dimensions
// swapped (local_trans): the same memory, the shape and the order swapped.
Type transposedSharedBuffer(Type buffer);

std::optional<LinearLayout> toSharedLayout(const Layout &layout, const std::vector<int64_t> &shape,
                                           std::string *error = nullptr);

} // namespace tessera::ir
