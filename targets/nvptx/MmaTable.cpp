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
    {{16, 8, 16, &kA16, &kB16, &kC}, 80, K::F16, K::F16, K::F32, "", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"},
    {{16, 8, 16, &kA16, &kB16, &kC}, 80, K::F16, K::F16, K::F16, "", "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"},
    {{16, 8, 16, &kA16, &kB16, &kC}, 80, K::BF16, K::BF16, K::F32, "", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"},
    {{16, 8, 8, &kA32, &kB32, &kC}, 80, K::F32, K::F32, K::F32, "tf32", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"},
    {{16, 8, 8, &kA32, &kB32, &kC}, 80, K::F32, K::F32, K::F32, "tf32x3", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"},
    // Integer sums saturate (.satfinite) as Triton's do: ir/IR.h.
    {{16, 8, 32, &kA8, &kB8, &kC}, 80, K::I8, K::I8, K::I32, "", "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"},
    {{16, 8, 32, &kA8, &kB8, &kC}, 80, K::U8, K::U8, K::I32, "", "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.u8.s32"},
    // fp8 (sm_89 on, PTX 8.4): the int8 fragments, f32 accumulators; A and B may differ.
    {{16, 8, 32, &kA8, &kB8, &kC}, 89, K::F8E4M3, K::F8E4M3, K::F32, "", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32"},
    {{16, 8, 32, &kA8, &kB8, &kC}, 89, K::F8E4M3, K::F8E5M2, K::F32, "", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32"},
    {{16, 8, 32, &kA8, &kB8, &kC}, 89, K::F8E5M2, K::F8E4M3, K::F32, "", "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32"},
    {{16, 8, 32, &kA8, &kB8, &kC}, 89, K::F8E5M2, K::F8E5M2, K::F32, "", "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32"},
};

} // namespace

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

} // namespace tessera::targets::nvptx
