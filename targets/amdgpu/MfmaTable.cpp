#include "targets/amdgpu/Mfma.h"

namespace tessera::targets::amdgpu {
namespace {

using K = ir::ScalarKind;
using gpu::Fragment;

// MFMA m x n x k, `perLane` consecutive k elements per lane: A's lane id
// walks the m rows, then the k groups; B's the n columns, then the k groups.
Fragment mfmaA(int m, int perLane) {
  Fragment f;
  for (int e = 1; e < perLane; e *= 2) f.reg.push_back({0, e});
  for (int r = 1; r < m; r *= 2) f.lane.push_back({r, 0});
  for (int g = m; g < 64; g *= 2) f.lane.push_back({0, perLane * (g / m)});
  return f;
}
Fragment transpose(Fragment f) {
  for (auto *bases : {&f.reg, &f.lane})
    for (auto &b : *bases) std::swap(b[0], b[1]);
  return f;
}
// MFMA's m x m result: lane id walks the columns, then groups of four
// rows; registers walk four rows, then the next groups of 4 * 64 / m rows.
// Tessera issues MFMA with A and B swapped (as Triton's "transposed" MFMA
// layout does): the instruction computes (A B)^T = B^T A^T, whose fragment
// for B^T (n x k) is A's and for A^T (k x m) is B's, while the accumulator
// is the transpose of this one. A lane then holds runs of four columns,
// which it stores to global memory directly as one 8- or 16-byte access.
Fragment mfmaC(int m) {
  Fragment f = {{{1, 0}, {2, 0}}, {}};
  for (int c = 1; c < m; c *= 2) f.lane.push_back({0, c});
  int groups = 64 / m;
  for (int g = 1; g < groups; g *= 2) f.lane.push_back({4 * g, 0});
  for (int r = 4 * groups; r < m; r *= 2) f.reg.push_back({r, 0});
  return f;
}

const Fragment kA32x4 = mfmaA(32, 4), kB32x4 = transpose(mfmaA(32, 4));
const Fragment kA16x4 = mfmaA(16, 4), kB16x4 = transpose(mfmaA(16, 4));
const Fragment kA32x8 = mfmaA(32, 8), kB32x8 = transpose(mfmaA(32, 8));
const Fragment kA16x8 = mfmaA(16, 8), kB16x8 = transpose(mfmaA(16, 8));
const Fragment kA32x2 = mfmaA(32, 2), kB32x2 = transpose(mfmaA(32, 2));
const Fragment kA16x2 = mfmaA(16, 2), kB16x2 = transpose(mfmaA(16, 2));
const Fragment kA32x1 = mfmaA(32, 1), kB32x1 = transpose(mfmaA(32, 1));
const Fragment kA16x1 = mfmaA(16, 1), kB16x1 = transpose(mfmaA(16, 1));
const Fragment kC32 = transpose(mfmaC(32)), kC16 = transpose(mfmaC(16));

// WMMA 16 x 16 x 16 (wave32): each lane holds a whole row of A (a column of
// B), lanes 16-31 repeating lanes 0-15; the accumulator's rows alternate
// between the two half-waves.
const Fragment kWmmaA = {{{0, 1}, {0, 2}, {0, 4}, {0, 8}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 0}}};
const Fragment kWmmaB = transpose(kWmmaA);
const Fragment kWmmaC = {{{2, 0}, {4, 0}, {8, 0}}, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}}};

constexpr const char *kF32 = "ieee tf32x3";  // full-precision f32 products serve tf32x3 too
constexpr MatrixCall kMfma = MatrixCall::Mfma;

// Largest tile first for each type: the first that divides a result wins.
const MatrixInstruction kInstructions[] = {
    // gfx90a (CDNA 2)
    {{32, 32, 8, &kA32x4, &kB32x4, &kC32}, "gfx90a", K::F16, K::F16, K::F32, "", kMfma, "llvm.amdgcn.mfma.f32.32x32x8f16"},
    {{16, 16, 16, &kA16x4, &kB16x4, &kC16}, "gfx90a", K::F16, K::F16, K::F32, "", kMfma, "llvm.amdgcn.mfma.f32.16x16x16f16"},
    {{32, 32, 8, &kA32x4, &kB32x4, &kC32}, "gfx90a", K::BF16, K::BF16, K::F32, "", kMfma, "llvm.amdgcn.mfma.f32.32x32x8bf16.1k"},
    {{16, 16, 16, &kA16x4, &kB16x4, &kC16}, "gfx90a", K::BF16, K::BF16, K::F32, "", kMfma, "llvm.amdgcn.mfma.f32.16x16x16bf16.1k"},
    {{32, 32, 2, &kA32x1, &kB32x1, &kC32}, "gfx90a", K::F32, K::F32, K::F32, "tf32 ieee tf32x3", kMfma, "llvm.amdgcn.mfma.f32.32x32x2f32"},
    {{16, 16, 4, &kA16x1, &kB16x1, &kC16}, "gfx90a", K::F32, K::F32, K::F32, "tf32 ieee tf32x3", kMfma, "llvm.amdgcn.mfma.f32.16x16x4f32"},
    {{32, 32, 8, &kA32x4, &kB32x4, &kC32}, "gfx90a", K::I8, K::I8, K::I32, "", kMfma, "llvm.amdgcn.mfma.i32.32x32x8i8"},
    {{16, 16, 16, &kA16x4, &kB16x4, &kC16}, "gfx90a", K::I8, K::I8, K::I32, "", kMfma, "llvm.amdgcn.mfma.i32.16x16x16i8"},
    // gfx942 (CDNA 3): xf32 for tf32, int8 with twice the k
    {{32, 32, 8, &kA32x4, &kB32x4, &kC32}, "gfx942", K::F16, K::F16, K::F32, "", kMfma, "llvm.amdgcn.mfma.f32.32x32x8f16"},
    {{16, 16, 16, &kA16x4, &kB16x4, &kC16}, "gfx942", K::F16, K::F16, K::F32, "", kMfma, "llvm.amdgcn.mfma.f32.16x16x16f16"},
    {{32, 32, 8, &kA32x4, &kB32x4, &kC32}, "gfx942", K::BF16, K::BF16, K::F32, "", kMfma, "llvm.amdgcn.mfma.f32.32x32x8bf16.1k"},
    {{16, 16, 16, &kA16x4, &kB16x4, &kC16}, "gfx942", K::BF16, K::BF16, K::F32, "", kMfma, "llvm.amdgcn.mfma.f32.16x16x16bf16.1k"},
    {{32, 32, 4, &kA32x2, &kB32x2, &kC32}, "gfx942", K::F32, K::F32, K::F32, "tf32", kMfma, "llvm.amdgcn.mfma.f32.32x32x4.xf32"},
    {{16, 16, 8, &kA16x2, &kB16x2, &kC16}, "gfx942", K::F32, K::F32, K::F32, "tf32", kMfma, "llvm.amdgcn.mfma.f32.16x16x8.xf32"},
    {{32, 32, 2, &kA32x1, &kB32x1, &kC32}, "gfx942", K::F32, K::F32, K::F32, kF32, kMfma, "llvm.amdgcn.mfma.f32.32x32x2f32"},
    {{16, 16, 4, &kA16x1, &kB16x1, &kC16}, "gfx942", K::F32, K::F32, K::F32, kF32, kMfma, "llvm.amdgcn.mfma.f32.16x16x4f32"},
    {{32, 32, 16, &kA32x8, &kB32x8, &kC32}, "gfx942", K::I8, K::I8, K::I32, "", kMfma, "llvm.amdgcn.mfma.i32.32x32x16.i8"},
    {{16, 16, 32, &kA16x8, &kB16x8, &kC16}, "gfx942", K::I8, K::I8, K::I32, "", kMfma, "llvm.amdgcn.mfma.i32.16x16x32.i8"},
    // gfx1100 (RDNA 3)
    {{16, 16, 16, &kWmmaA, &kWmmaB, &kWmmaC}, "gfx1100", K::F16, K::F16, K::F32, "", MatrixCall::Wmma, "llvm.amdgcn.wmma.f32.16x16x16.f16"},
    {{16, 16, 16, &kWmmaA, &kWmmaB, &kWmmaC}, "gfx1100", K::BF16, K::BF16, K::F32, "", MatrixCall::Wmma, "llvm.amdgcn.wmma.f32.16x16x16.bf16"},
    {{16, 16, 16, &kWmmaA, &kWmmaB, &kWmmaC}, "gfx1100", K::I8, K::I8, K::I32, "", MatrixCall::WmmaInt8, "llvm.amdgcn.wmma.i32.16x16x16.iu8"},
};

bool serves(const char *precisions, const std::string &precision) {
  std::string list = std::string(" ") + precisions + " ";
  return list.find(" " + precision + " ") != std::string::npos;
}

} // namespace

const MatrixInstruction *findMatrixInstruction(const std::string &arch, ir::ScalarKind a, ir::ScalarKind b,
                                               ir::ScalarKind acc, const std::string &precision, int64_t m, int64_t n,
                                               int numWarps, bool rowsOnly) {
  for (bool everyWave : {true, false})
    for (const MatrixInstruction &inst : kInstructions) {
      if (arch != inst.arch || inst.a != a || inst.b != b || inst.acc != acc) continue;
      if (a == K::F32 && !serves(inst.precisions, precision)) continue;
      if (m % inst.m || n % inst.n) continue;
      int64_t tiles = m / inst.m * (rowsOnly ? 1 : n / inst.n);
      if (!everyWave || tiles >= numWarps) return &inst;
    }
  return nullptr;
}

const MatrixInstruction *findMatrixInstruction(const std::string &arch, int64_t m, int64_t n, int64_t k,
                                               ir::ScalarKind a, ir::ScalarKind b, ir::ScalarKind acc) {
  for (const MatrixInstruction &inst : kInstructions)
    if (arch == inst.arch && inst.m == m && inst.n == n && inst.k == k && inst.a == a && inst.b == b && inst.acc == acc)
      return &inst;
  return nullptr;
}

} // namespace tessera::targets::amdgpu
