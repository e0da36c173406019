// The compiler's version string: project version plus the GNU build id of the
// ELF object holding this code (libtessera.so is linked with --build-id), or
// its size and modification time when it has none.
#include "capi/CApiInternal.h"

#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/stat.h>

#ifndef TESSERA_VERSION_STRING
#define TESSERA_VERSION_STRING "0.0.0"
#endif

namespace tessera::capi {

namespace {

struct Search {
  uintptr_t address;
  std::string id;
};

int visitObject(dl_phdr_info *info, size_t, void *data) {
  auto *s = static_cast<Search *>(data);
  bool contains = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto &ph = info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (ph.p_type == PT_LOAD && s->address >= start && s->address < start + ph.p_memsz) contains = true;
  }
  if (!contains) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    auto *p = reinterpret_cast<const uint8_t *>(info->dlpi_addr + ph.p_vaddr);
    const uint8_t *end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      auto *n = reinterpret_cast<const ElfW(Nhdr) *>(p);
      const uint8_t *name = p + sizeof(ElfW(Nhdr));
      const uint8_t *desc = name + ((n->n_namesz + 3) & ~3u);
      if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        static const char digits[] = "0123456789abcdef";
        for (unsigned k = 0; k < n->n_descsz; ++k) s->id += digits[desc[k] >> 4], s->id += digits[desc[k] & 15];
        return 1;
      }
      p = desc + ((n->n_descsz + 3) & ~3u);
    }
  }
  return 1;
}

std::string buildId() {
  Search s{reinterpret_cast<uintptr_t>(&visitObject), ""};
  dl_iterate_phdr(visitObject, &s);
  if (!s.id.empty()) return s.id;
  Dl_info info{};
  struct stat st{};
  if (dladdr(reinterpret_cast<void *>(&visitObject), &info) && info.dli_fname && ::stat(info.dli_fname, &st) == 0)
    return "mtime-" + std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + "-size-" +
           std::to_string(st.st_size);
  return "unknown";
}

} // namespace

const std::string &compilerVersion() {
  static const std::string v = std::string("tessera ") + TESSERA_VERSION_STRING + " (build " + buildId() + ")";
  return v;
}

} // namespace tessera::capi
