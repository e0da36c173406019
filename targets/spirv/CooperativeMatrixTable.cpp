// The arch spelling of a device's cooperative-matrix table, and the choice
// of a row for a dot (CooperativeMatrix.h).
#include "targets/spirv/CooperativeMatrix.h"

#include <regex>

namespace tessera::targets::spirv {
namespace {

struct ComponentName {
  ComponentType type;
  const char *name;
  ir::ScalarKind kind;
  int bits;
};
const ComponentName kComponents[] = {
    {ComponentType::F16, "f16", ir::ScalarKind::F16, 16}, {ComponentType::BF16, "bf16", ir::ScalarKind::BF16, 16},
    {ComponentType::F32, "f32", ir::ScalarKind::F32, 32}, {ComponentType::S8, "s8", ir::ScalarKind::I8, 8},
    {ComponentType::U8, "u8", ir::ScalarKind::U8, 8},     {ComponentType::S32, "s32", ir::ScalarKind::I32, 32},
    {ComponentType::U32, "u32", ir::ScalarKind::U32, 32},
};

const ComponentName &component(ComponentType t) {
  for (const ComponentName &c : kComponents)
    if (c.type == t) return c;
  return kComponents[0];
}

std::optional<ComponentType> componentNamed(const std::string &name) {
  for (const ComponentName &c : kComponents)
    if (name == c.name) return c.type;
  return std::nullopt;
}

} // namespace

ir::ScalarKind scalarKindOf(ComponentType t) { return component(t).kind; }
int componentBits(ComponentType t) { return component(t).bits; }

std::string spellTable(const CooperativeMatrixTable &table) {
  std::string out;
  for (const CooperativeMatrixShape &s : table) {
    if (!out.empty()) out += "+";
    out += std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
    for (ComponentType t : {s.a, s.b, s.c, s.result}) out += std::string("_") + component(t).name;
    out += s.scope == MatrixScope::Subgroup ? "_sg" : "_wg";
  }
  return out;
}

std::optional<CooperativeMatrixTable> parseTable(const std::string &text, std::string &error) {
  static const std::regex entry("(\\d+)x(\\d+)x(\\d+)_([a-z0-9]+)_([a-z0-9]+)_([a-z0-9]+)_([a-z0-9]+)_(sg|wg)");
  CooperativeMatrixTable table;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('+', start);
    std::string one = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::smatch m;
    if (!std::regex_match(one, m, entry)) {
      error = "malformed cooperative-matrix entry '" + one + "' (expected MxNxK_A_B_C_R_scope, e.g. 16x16x16_f16_f16_f32_f32_sg)";
      return std::nullopt;
    }
    CooperativeMatrixShape s;
    s.m = std::stoi(m[1].str()), s.n = std::stoi(m[2].str()), s.k = std::stoi(m[3].str());
    ComponentType *types[] = {&s.a, &s.b, &s.c, &s.result};
    for (int i = 0; i < 4; ++i) {
      std::optional<ComponentType> t = componentNamed(m[size_t(4 + i)].str());
      if (!t) {
        error = "unknown cooperative-matrix component type '" + m[size_t(4 + i)].str() +
                "' (known: f16, bf16, f32, s8, u8, s32, u32)";
        return std::nullopt;
      }
      *types[i] = *t;
    }
    s.scope = m[8].str() == "sg" ? MatrixScope::Subgroup : MatrixScope::Workgroup;
    if (s.m <= 0 || s.n <= 0 || s.k <= 0 || s.m > 256 || s.n > 256 || s.k > 256) {
      error = "cooperative-matrix entry '" + one + "' has a dimension outside 1..256";
      return std::nullopt;
    }
    table.push_back(s);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return table;
}

CooperativeMatrixTable tableOfArch(const std::string &arch) {
  size_t at = arch.find("-cm");
  if (at == std::string::npos) return {};
  std::string error;
  std::optional<CooperativeMatrixTable> t = parseTable(arch.substr(at + 3), error);
  return t ? *t : CooperativeMatrixTable{};
}

const CooperativeMatrixShape *pickShape(const CooperativeMatrixTable &table, ir::ScalarKind a, ir::ScalarKind b,
                                        ir::ScalarKind acc, int64_t M, int64_t N, int64_t K) {
  const CooperativeMatrixShape *best = nullptr;
  for (const CooperativeMatrixShape &s : table) {
    // Workgroup scope (VK_NV_cooperative_matrix2) spreads a matrix over the
    // whole workgroup; the lowering gives each subgroup its own matrices.
    if (s.scope != MatrixScope::Subgroup) continue;
    if (scalarKindOf(s.a) != a || scalarKindOf(s.b) != b || scalarKindOf(s.c) != acc || scalarKindOf(s.result) != acc)
      continue;
    if (M % s.m || N % s.n || K % s.k) continue;
    if (!best || int64_t(s.m) * s.n * s.k > int64_t(best->m) * best->n * best->k) best = &s;
  }
  return best;
}

} // namespace tessera::targets::spirv
