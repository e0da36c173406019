// AMD's matrix-core instructions as data: MFMA on CDNA (gfx90a, gfx942,
// waves of 64) and WMMA on RDNA 3 (gfx1100, waves of 32); which instruction
// multiplies which element types on which architecture, and where each
// lane's fragment elements sit (AMD's CDNA3 and RDNA3 ISA guides, "matrix
// fused multiply-add"). The layouts built from them are the shared ones
// (targets/gpu/MatrixUnit.h).
#pragma once

#include "ir/Types.h"
#include "targets/gpu/MatrixUnit.h"

#include <string>

namespace tessera::targets::amdgpu {

enum class MatrixCall {
  Mfma,      // intrinsic(B, A, C, cbsz, abid, blgp): operands swapped, C transposed (MfmaTable.cpp)
  Wmma,      // intrinsic(A, B, C)
  WmmaInt8,  // intrinsic(signed A, A, signed B, B, C, clamp)
};

struct MatrixInstruction : gpu::MatrixTile {
  const char *arch;
  ir::ScalarKind a, b, acc;
  const char *precisions;  // f32 inputs: the input_precision values it serves ("tf32", "ieee tf32x3"); else ""
  MatrixCall call;
  const char *intrinsic;   // LLVM's name for it
};

// The instruction for a dot of `a` x `b` elements into `acc` with
// `precision` on `arch` whose tile divides an m x n result: the largest
// with a tile for each of `numWarps` waves (tiles along m alone when
// `rowsOnly`: a chain of dots), else the largest; null if none.
const MatrixInstruction *findMatrixInstruction(const std::string &arch, ir::ScalarKind a, ir::ScalarKind b,
                                               ir::ScalarKind acc, const std::string &precision, int64_t m, int64_t n,
                                               int numWarps, bool rowsOnly);
// The instruction of `arch` whose tile is m x n x k with these types.
const MatrixInstruction *findMatrixInstruction(const std::string &arch, int64_t m, int64_t n, int64_t k,
                                               ir::ScalarKind a, ir::ScalarKind b, ir::ScalarKind acc);

} // namespace tessera::targets::amdgpu
