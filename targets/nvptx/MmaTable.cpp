#include "targets/nvptx/Mma.h"

#include <cctype>
#include <cstdlib>

namespace tessera::targets::nvptx {
namespace {

using K = ir::ScalarKind;

// Fragments of m16n8k16 (16-bit inputs): a lane's group (lane / 4) picks
// rows, its index in the group (lane % 4) a pair of columns.
const Fragment kA16 = {{{0, 1}, {8, 0}, {0, 8}}, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}};
const Fragment kB16 = {{{1, 0}, {8, 0}}, {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}}};
const Fragment kC = {{{0, 1}, {8, 0}}, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}};
// m16n8k32 (8-bit inputs): four consecutive elements per 32-bit register.
const Fragment kA8 = {{{0, 1}, {0, 2}, {8, 0}, {0, 16}}, {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}}};
const Fragment kB8 = {{{1, 0}, {2, 0}, {16, 0}}, {{4, 0}, {8, 0}, {0, 1}, {0, 2}, {0, 4}}};
// m16n8k8 (tf32 inputs): one element per register.
const Fragment kA32 = {{{8, 0}, {0, 4}}, {{0, 1}, {0, 2}, {1, 0}, {2, 0}, {4, 0}}};
const Fragment kB32 = {{{4, 0}}, {{1, 0}, {2, 0}, {0, 1}, {0, 2}, {0, 4}}};

const MmaInstruction kMmas[] = {
    {80, K::F16, K::F16, K::F32, "", 16, 8, 16, &kA16, &kB16, &kC, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"},
    {80, K::F16, K::F16, K::F16, "", 16, 8, 16, &kA16, &kB16, &kC, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"},
    {80, K::BF16, K::BF16, K::F32, "", 16, 8, 16, &kA16, &kB16, &kC, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"},
    {80, K::F32, K::F32, K::F32, "tf32", 16, 8, 8, &kA32, &kB32, &kC, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"},
    {80, K::F32, K::F32, K::F32, "tf32x3", 16, 8, 8, &kA32, &kB32, &kC, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"},
    {80, K::I8, K::I8, K::I32, "", 16, 8, 32, &kA8, &kB8, &kC, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"},
    {80, K::U8, K::U8, K::I32, "", 16, 8, 32, &kA8, &kB8, &kC, "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32"},
    // fp8 (sm_89 on, PTX 8.4): the int8 fragments, f32 accumulators; A and B may differ.
    {89, K::F8E4M3, K::F8E4M3, K::F32, "", 16, 8, 32, &kA8, &kB8, &kC, "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32"},
    {89, K::F8E4M3, K::F8E5M2, K::F32, "", 16, 8, 32, &kA8, &kB8, &kC, "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32"},
    {89, K::F8E5M2, K::F8E4M3, K::F32, "", 16, 8, 32, &kA8, &kB8, &kC, "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32"},
    {89, K::F8E5M2, K::F8E5M2, K::F32, "", 16, 8, 32, &kA8, &kB8, &kC, "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32"},
};

} // namespace

int log2Exact(int64_t v) {
  int bits = 0;
  while ((int64_t(1) << bits) < v) ++bits;
  return (int64_t(1) << bits) == v ? bits : -1;
}

int smNumber(const std::string &arch) {
  if (arch.rfind("sm_", 0) != 0) return 0;
  return std::atoi(arch.c_str() + 3);
}

const MmaInstruction *findMma(int sm, ir::ScalarKind a, ir::ScalarKind b, ir::ScalarKind acc,
                              const std::string &precision) {
  for (const MmaInstruction &m : kMmas)
    if (sm >= m.minSm && m.a == a && m.b == b && m.acc == acc && (a != K::F32 || precision == m.precision)) return &m;
  return nullptr;
}

// Triton's choice for mma.sync: double the warps along whichever dimension
// has more instruction tiles left per warp (n counted in tiles of 16).
WarpTiling chooseWarpTiling(const MmaInstruction &mma, int64_t m, int64_t n, int numWarps) {
  WarpTiling t;
  while (t.warpsM * t.warpsN < numWarps) {
    bool roomM = m / (int64_t(mma.m) * t.warpsM) >= 2, roomN = n / (int64_t(mma.n) * t.warpsN) >= 2;
    if (!roomM && !roomN) break;
    bool preferM = m / 16 / t.warpsM >= n / 16 / t.warpsN;
    if (roomM && (preferM || !roomN)) t.warpsM *= 2;
    else t.warpsN *= 2;
  }
  return t;
}

std::optional<ir::LinearLayout> mmaLayout(const MmaInstruction &mma, Operand which, const std::vector<int64_t> &shape,
                                          WarpTiling tiling, int numWarps) {
  size_t rank = shape.size();
  if (rank != 2 && rank != 3) return std::nullopt;
  bool batched = rank == 3;
  int64_t rows = shape[rank - 2], cols = shape[rank - 1];
  // Instruction tile, warps and repeats along rows and columns of this operand.
  int64_t instRows = which == Operand::B ? mma.k : mma.m, instCols = which == Operand::A ? mma.k : mma.n;
  int warpsRows = which == Operand::B ? 1 : tiling.warpsM, warpsCols = which == Operand::A ? 1 : tiling.warpsN;
  const Fragment &f = which == Operand::A ? *mma.fragA : which == Operand::B ? *mma.fragB : *mma.fragC;
  if (rows % (instRows * warpsRows) || cols % (instCols * warpsCols)) return std::nullopt;
  int repRows = log2Exact(rows / (instRows * warpsRows)), repCols = log2Exact(cols / (instCols * warpsCols));
  int batchBits = batched ? log2Exact(shape[0]) : 0;
  int warpBits = log2Exact(numWarps), wn = log2Exact(tiling.warpsN), wm = log2Exact(tiling.warpsM);
  if (repRows < 0 || repCols < 0 || batchBits < 0 || warpBits < 0 || wn < 0 || wm < 0 || wn + wm > warpBits)
    return std::nullopt;
  auto at = [&](int64_t r, int64_t c) {
    std::vector<int32_t> v;
    if (batched) v.push_back(0);
    v.push_back(int32_t(r)), v.push_back(int32_t(c));
    return v;
  };
  ir::LinearLayout::Bases reg, lane, warp;
  for (const auto &b : f.reg) reg.push_back(at(b[0], b[1]));
  for (const auto &b : f.lane) lane.push_back(at(b[0], b[1]));
  // Repeats: A walks k (its columns) before m, B k (its rows) before n, C n before m.
  auto repeatRows = [&] { for (int i = 0; i < repRows; ++i) reg.push_back(at(instRows * warpsRows << i, 0)); };
  auto repeatCols = [&] { for (int i = 0; i < repCols; ++i) reg.push_back(at(0, instCols * warpsCols << i)); };
  if (which == Operand::B) repeatRows(), repeatCols();
  else repeatCols(), repeatRows();
  for (int i = 0; i < batchBits; ++i) {
    std::vector<int32_t> v(rank, 0);
    v[0] = 1 << i;
    reg.push_back(v);
  }
  // Warp ids: the low bits along n, the next along m; A ignores the n bits
  // and B the m bits (those warps share the operand).
  for (int i = 0; i < wn; ++i) warp.push_back(which == Operand::A ? at(0, 0) : at(0, mma.n << i));
  for (int i = 0; i < wm; ++i) warp.push_back(which == Operand::B ? at(0, 0) : at(mma.m << i, 0));
  for (int i = wn + wm; i < warpBits; ++i) warp.push_back(at(0, 0));
  std::vector<ir::LinearLayout::OutDim> outs;
  for (size_t d = 0; d < rank; ++d) outs.push_back({"dim" + std::to_string(d), int32_t(shape[d])});
  return ir::LinearLayout({{"register", reg}, {"lane", lane}, {"warp", warp}}, outs);
}

} // namespace tessera::targets::nvptx
