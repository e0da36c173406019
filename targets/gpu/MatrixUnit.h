// Warp-level matrix instructions as the shared lowering sees them, for every
// target that has them (nvptx: mma.sync; amdgpu: MFMA, WMMA): an instruction
// multiplies an m x k tile by a k x n one into m x n, and each lane holds a
// fixed fragment of each. The tile layouts of dot operands and accumulators
// are built from the fragments: warps tile the instruction over the result,
// and registers repeat it over what is left. Targets keep the table of which
// instruction multiplies which types; the layouts and the dot's unrolling
// into `mma` thread ops are written once here.
#pragma once

#include "ir/LinearLayout.h"
#include "ir/transforms/Passes.h"
#include "targets/gpu/ThreadLowering.h"

#include <functional>
#include <optional>
#include <vector>

namespace tessera::targets::gpu {

// One lane's share of one instruction's operand: (row, column) per bit of the
// element index ("register") and of the lane id.
struct Fragment {
  std::vector<std::vector<int32_t>> reg, lane;
};

struct MatrixTile {
  int m, n, k;
  const Fragment *fragA, *fragB, *fragC;  // A is m x k, B is k x n, C is m x n
};

// log2 of a power of two, -1 for anything else.
int log2Exact(int64_t v);

// How the warps of a program tile a dot's m x n result: warpsN along n (the
// low warp-id bits), warpsM along m; warps beyond both hold copies.
struct WarpTiling {
  int warpsM = 1, warpsN = 1;
};
// Triton's choice: double the warps along whichever dimension has more
// instruction tiles left per warp (counted in tiles of `unit`).
WarpTiling chooseWarpTiling(const MatrixTile &tile, int64_t m, int64_t n, int numWarps, int64_t unit = 16);

// The tiling for `dot`: Triton's choice above, except in a chain of dots
// (attention's P = softmax(Q Kt) feeding P V), which keeps every warp on its
// own rows so that one dot's result is the next one's operand without
// moving between warps.
WarpTiling dotWarpTiling(const ir::Operation &dot, const MatrixTile &tile, int64_t m, int64_t n, int numWarps);
// Whether `dot` is in such a chain.
bool inDotChain(const ir::Operation &dot);

enum class Operand { A, B, C };
// The layout of a dot's operand (A: [.., M, K], B: [.., K, N]) or accumulator
// (C: [.., M, N]) of `shape` (rank 2, or 3 with a leading batch dimension)
// for `tile` with `tiling`; null when the shape is not a multiple of the
// instruction's tile.
std::optional<ir::LinearLayout> matrixLayout(const MatrixTile &tile, Operand which, const std::vector<int64_t> &shape,
                                             WarpTiling tiling, int numWarps);

// The fragment layouts of a dot's A, B and accumulator for `tile`, with the
// warp tiling dotWarpTiling picks; null when a shape is not a multiple of
// the instruction's tile.
struct DotFragments {
  WarpTiling tiling;
  ir::LinearLayout a, b, c;
  // As assign-layouts asks for them.
  ir::DotLayouts attributes() const;
  // Whether `dot`'s operands are in them (assign-layouts converted them).
  bool holdFor(ThreadLowering &L, const ir::Operation &dot) const;
};
std::optional<DotFragments> dotFragments(const ir::Operation &dot, const MatrixTile &tile, int numWarps);

// Issues one instruction tile: A's and B's registers, and the accumulator
// registers C[cBase ..], which it replaces by the results.
using IssueTile =
    std::function<void(const std::vector<ir::Value *> &a, const std::vector<ir::Value *> &b, Regs &c, int64_t cBase)>;
// Lowers `dot`, whose operands are in matrixLayout's layouts, one instruction
// tile at a time (k outermost, then m, then n); returns the accumulators.
Regs lowerMatrixDot(ThreadLowering &L, const ir::Operation &dot, const MatrixTile &tile, WarpTiling tiling,
                    const IssueTile &issue);
// The plain issue: one `mma` thread op of the tile's shape.
void issueMma(ThreadLowering &L, const MatrixTile &tile, ir::Type acc, const std::vector<ir::Value *> &a,
              const std::vector<ir::Value *> &b, Regs &c, int64_t cBase);

// After a dot is lowered: moves each shared-memory load (ldmatrix, or a plain vload) that produced
// operand registers down to its first user in the block, so that a dot
// holds one k step's fragments at a time rather than all of them
// (registers: a 64 x 64 warp tile with k = 64 would otherwise need 128 of
// them for fragments beside 128 of accumulators; an f32 operand read
// element by element, 256). A load stops short of any op that may write
// shared memory or holds regions.
void sinkOperandLoads(ThreadLowering &L, const Regs &a, const Regs &b);

} // namespace tessera::targets::gpu
