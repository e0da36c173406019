// Cooperative matrices (SPV_KHR_cooperative_matrix, VK_KHR_cooperative_matrix)
// as data: which shapes and component types a Vulkan device multiplies, as
// vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR reports them, spelled in
// the spirv target's arch so that they travel with the compile (and its
// cache key) like the subgroup size does:
//
//   sg32-48k-cm16x16x16_f16_f16_f32_f32_sg+16x16x32_s8_s8_s32_s32_sg
//
// after "-cm", one entry per supported combination joined by '+':
// <M>x<N>x<K>_<A>_<B>_<C>_<Result>_<scope>, component types f16, bf16, f32,
// s8, u8, s32, u32 and scope sg (subgroup) or wg (workgroup). An arch
// without "-cm" declares none: dots take the SIMT path (lavapipe, and any
// device without the extension).
#pragma once

#include "ir/Types.h"
#include "targets/spirv/Extensions.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::targets::spirv {

enum class ComponentType { F16, BF16, F32, S8, U8, S32, U32 };
enum class MatrixScope { Subgroup, Workgroup };

// One row of the device's table: D[M x N] = A[M x K] B[K x N] + C.
struct CooperativeMatrixShape {
  int m = 0, n = 0, k = 0;
  ComponentType a{}, b{}, c{}, result{};
  MatrixScope scope = MatrixScope::Subgroup;
  bool operator==(const CooperativeMatrixShape &o) const {
    return m == o.m && n == o.n && k == o.k && a == o.a && b == o.b && c == o.c && result == o.result &&
           scope == o.scope;
  }
};

using CooperativeMatrixTable = std::vector<CooperativeMatrixShape>;

// The table spelled after "-cm" (without it); "" for an empty table.
std::string spellTable(const CooperativeMatrixTable &table);
// Parses what follows "-cm"; nullopt (with `error`) for a malformed entry.
std::optional<CooperativeMatrixTable> parseTable(const std::string &text, std::string &error);
// The table an arch string declares (empty when it has no "-cm" part or
// does not parse: such an arch is refused by the target before any pass).
CooperativeMatrixTable tableOfArch(const std::string &arch);

// The Tessera element kind a component type holds (bf16 as BF16, s8 as I8...).
ir::ScalarKind scalarKindOf(ComponentType t);
int componentBits(ComponentType t);

// The row a dot of `a` x `b` elements accumulating in `acc` over an
// M x N x K tile uses: a subgroup-scope row of these types whose shape
// divides the tile, the one with the most multiply-adds per instruction
// (the first such in the device's order); null when none fits.
const CooperativeMatrixShape *pickShape(const CooperativeMatrixTable &table, ir::ScalarKind a, ir::ScalarKind b,
                                        ir::ScalarKind acc, int64_t M, int64_t N, int64_t K);

// Installs the dot lowering onto cooperative matrices (CooperativeMatrixLowering.cpp)
// for modules whose arch declares a table.
void registerCooperativeMatrixLowering();

} // namespace tessera::targets::spirv
