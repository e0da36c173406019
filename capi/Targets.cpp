// The target registry in C: a mirror of targets::targetRows() in the
// structs of tessera.h, built once and kept for the process.
#include "capi/CApiInternal.h"

#include <memory>
#include <vector>

using namespace tessera;

namespace {

// Everything one tessera_target_info points into.
struct RowMirror {
  tessera_target_info info{};
  std::vector<const char *> aliases, aliasFlavours, formats;
  std::vector<std::vector<int32_t>> dlpack;  // per flavour
  std::vector<tessera_target_flavour> flavours;
  std::vector<const tessera_target_flavour *> flavourPointers;
};

std::unique_ptr<RowMirror> mirror(const targets::TargetRow &row) {
  auto m = std::make_unique<RowMirror>();
  for (const targets::TargetAlias &a : row.aliases) m->aliases.push_back(a.name), m->aliasFlavours.push_back(a.flavour);
  m->formats.assign(row.formats.begin(), row.formats.end());
  for (const targets::TargetFlavour &f : row.flavours) m->dlpack.emplace_back(f.dlpackDevices.begin(), f.dlpackDevices.end());
  // Filled after the vectors above stop growing: the structs point into them.
  for (size_t i = 0; i < row.flavours.size(); ++i) {
    const targets::TargetFlavour &f = row.flavours[i];
    m->flavours.push_back({sizeof(tessera_target_flavour), f.name, f.backend, f.torchDevice, f.torchBuild,
                           m->dlpack[i].data(), m->dlpack[i].size(), f.deviceName, f.explicitOnly ? 1 : 0,
                           f.stagesHostArrays ? 1 : 0, f.timer, f.tritonBackend});
  }
  for (const tessera_target_flavour &f : m->flavours) m->flavourPointers.push_back(&f);
  m->info = {sizeof(tessera_target_info), row.name, row.present() ? 1 : 0, row.generator,
             m->aliases.data(), m->aliasFlavours.data(), m->aliases.size(),
             m->flavourPointers.data(), m->flavourPointers.size(),
             m->formats.data(), m->formats.size(), row.specializesPointerRange ? 1 : 0, row.archPrefix};
  return m;
}

const std::vector<std::unique_ptr<RowMirror>> &mirrors() {
  static const std::vector<std::unique_ptr<RowMirror>> rows = [] {
    std::vector<std::unique_ptr<RowMirror>> out;
    for (const targets::TargetRow &row : targets::targetRows()) out.push_back(mirror(row));
    return out;
  }();
  return rows;
}

} // namespace

extern "C" int tessera_target_count(void) {
  try {
    return int(mirrors().size());
  } catch (...) {
    return 0;  // only an allocation failure on first use gets here
  }
}

extern "C" const tessera_target_info *tessera_target_info_at(int index) {
  try {
    const auto &rows = mirrors();
    return index >= 0 && size_t(index) < rows.size() ? &rows[size_t(index)]->info : nullptr;
  } catch (...) {
    return nullptr;
  }
}

extern "C" tessera_status tessera_target_lookup(const char *name, int *index, int *flavour) {
  return capi::guarded([&]() -> tessera_status {
    if (!name) return capi::fail(TESSERA_ERROR_INVALID_ARGUMENT, "tessera_target_lookup: null name");
    targets::TargetRef ref = targets::findTarget(name);
    if (!ref) return capi::fail(TESSERA_ERROR_NOT_FOUND, targets::unknownTargetMessage(name));
    const auto &rows = targets::targetRows();
    if (index) *index = int(ref.row - rows.data());
    if (flavour) *flavour = int(ref.flavour - ref.row->flavours.data());
    return TESSERA_SUCCESS;
  });
}
