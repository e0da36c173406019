// NVIDIA's warp-level matrix instructions (mma.sync, sm_80 on) as data: which
// instruction multiplies which element types on which architectures, and
// where each lane's fragment elements sit (PTX ISA, "Matrix Fragments for
// mma.m16n8k*"); the layouts built from them are the shared ones
// (targets/gpu/MatrixUnit.h).
#pragma once

#include "ir/Types.h"
#include "targets/gpu/MatrixUnit.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera::targets::nvptx {

using gpu::Fragment;
using gpu::Operand;
using gpu::WarpTiling;
using gpu::log2Exact;

struct MmaInstruction : gpu::MatrixTile {
  int minSm;                      // the oldest architecture that has it
  ir::ScalarKind a, b, acc;       // operand element types (f32 inputs: tf32)
  const char *precision;          // for f32 inputs: the input_precision it serves; else ""
  const char *ptx;                // "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
};

// The instruction for a dot of `a` x `b` elements accumulating into `acc`
// with `precision` (tf32, tf32x3 or ieee for f32 inputs) on sm_`sm`, if any.
const MmaInstruction *findMma(int sm, ir::ScalarKind a, ir::ScalarKind b, ir::ScalarKind acc,
                              const std::string &precision);

// The compute capability of an "sm_80" / "sm_90a" architecture name (0 if none).
int smNumber(const std::string &arch);

} // namespace tessera::targets::nvptx
