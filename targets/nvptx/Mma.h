// NVIDIA's warp-level matrix instructions (mma.sync, sm_80 on) as data: which
// instruction multiplies which element types on which architectures, and
// where each lane's fragment elements sit (PTX ISA, "Matrix Fragments for
// mma.m16n8k*"). The tile layouts of dot operands and accumulators are built
// from these fragments: warps tile the instruction over the result, and
// registers repeat it over what is left.
#pragma once

#include "ir/LinearLayout.h"
#include "ir/Types.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera::targets::nvptx {

// One lane's share of one instruction's operand: (row, column) per bit of the
// element index ("register") and of the lane id.
struct Fragment {
  std::vector<std::vector<int32_t>> reg, lane;
};

struct MmaInstruction {
  int minSm;                      // the oldest architecture that has it
  ir::ScalarKind a, b, acc;       // operand element types (f32 inputs: tf32)
  const char *precision;          // for f32 inputs: the input_precision it serves; else ""
  int m, n, k;
  const Fragment *fragA, *fragB, *fragC;  // A is m x k, B is k x n, C is m x n
  const char *ptx;                // "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
};

// The instruction for a dot of `a` x `b` elements accumulating into `acc`
// with `precision` (tf32, tf32x3 or ieee for f32 inputs) on sm_`sm`, if any.
const MmaInstruction *findMma(int sm, ir::ScalarKind a, ir::ScalarKind b, ir::ScalarKind acc,
                              const std::string &precision);

// log2 of a power of two, -1 for anything else.
int log2Exact(int64_t v);

// The compute capability of an "sm_80" / "sm_90a" architecture name (0 if none).
int smNumber(const std::string &arch);

// How the warps of a program tile a dot's m x n result: warpsN along n (the
// low warp-id bits), warpsM along m; warps beyond both hold copies.
struct WarpTiling {
  int warpsM = 1, warpsN = 1;
};
WarpTiling chooseWarpTiling(const MmaInstruction &mma, int64_t m, int64_t n, int numWarps);

enum class Operand { A, B, C };
// The layout of a dot's operand (A: [.., M, K], B: [.., K, N]) or accumulator
// (C: [.., M, N]) of `shape` (rank 2, or 3 with a leading batch dimension)
// for `mma` with `tiling`; null when the shape is not a multiple of the
// instruction's tile.
std::optional<ir::LinearLayout> mmaLayout(const MmaInstruction &mma, Operand which, const std::vector<int64_t> &shape,
                                          WarpTiling tiling, int numWarps);

} // namespace tessera::targets::nvptx
