// Hopper's warpgroup MMA (wgmma.mma_async, sm_90a) for dots whose operands
// come straight from the stages of a pipelined loop: B (and A, where it is a
// stage) is read from shared memory through matrix descriptors, with no
// ldmatrix, and each warpgroup of four warps issues one instruction per 64
// rows of the result and per instruction k (16; 8 for tf32, 32 for 8-bit).
//
// A dot qualifies when B (and A, or else A comes from registers in
// mma.sync's A fragment layout: attention's Q and P) is a local_load of a
// buffer in the layout pipeline-loops gives it with the target's 128-byte atoms
// (ir/Layouts.h: 8-row atoms of 32, 64 or 128-byte rows, swizzled as the
// hardware swizzles), its element types are in the table (f16, bf16, tf32
// and fp8 -> f32, 8-bit integers -> s32; all but the 16-bit types k-major
// on both sides), k is a multiple of the instruction's (16, 8 for tf32, 32
// for 8-bit types), n a multiple of 8 up to 256, and the warps
// stack along m (the result's rows a multiple of 16 x warps). Its
// accumulator then has mma.sync's m16n8 fragment layout with every warp on
// its own rows, which is wgmma's: warp w of a warpgroup holds rows
// 16w .. 16w+15 of each 64.
//
// tf32 stages that are m/n-major, which wgmma cannot read: an m-major A
// comes from registers; an n-major B, when A is a k-major stage, makes the
// dot swapped: C^T = B^T A^T, B^T the instruction's register A, A's stage
// its B, the accumulator held transposed (the rows of the 16 x warps split
// are then n's).
#pragma once

#include "targets/gpu/MatrixUnit.h"
#include "targets/nvptx/Mma.h"

#include <optional>
#include <vector>

namespace tessera::targets::nvptx {

// An operand read in place: the buffer's layout as offsets, and how the
// hardware walks it.
struct SharedOperand {
  const ir::Operation *load = nullptr;  // the local_load (A: null when A comes from registers)
  ir::LinearLayout toOffset;            // (dim0, dim1) -> element offset in the buffer
  std::vector<int64_t> descriptor;      // Ops.def wgmma a_desc / b_desc
};

struct WgmmaPlan {
  const MmaInstruction *fragments = nullptr;  // the mma.sync whose fragments wgmma's match
  int64_t k = 16;                             // one instruction's k
  gpu::DotFragments frags;
  SharedOperand a, b;  // b.load null when swapped
  // D^T = B^T A^T: the instruction's A is B^T from registers, its B the
  // stage of A, and the accumulator holds the result transposed.
  bool swapped = false;
};

std::optional<WgmmaPlan> planWgmma(const ir::Operation &dot, const ir::AttrDict &module);
bool lowerWgmmaDot(const ir::Operation &dot, const WgmmaPlan &plan, gpu::ThreadLowering &L);
// Whether every user of local_load `load` is a dot that reads it in place.
bool readInPlace(const ir::Operation &load, const ir::AttrDict &module);
// The ops that use shared buffer `buffer` through its views (local_view,
// local_trans, the views themselves left out).
std::vector<const ir::Operation *> usersThroughViews(const ir::Value *buffer);
// Whether some dot of `kernel` does.
bool usesWgmma(const ir::Function &kernel, const ir::AttrDict &module);

} // namespace tessera::targets::nvptx
