// Loading libamdhip64 with dlopen, HIP's error codes as Status text, and the
// code-object check done before anything reaches the driver.
#include "runtime/hip/HipApi.h"

#include <algorithm>
#include <cstring>
#include <dlfcn.h>
#include <vector>

namespace tessera::runtime {

std::string HipApi::describe(hip::Error result) const {
  const char *name = hipGetErrorName ? hipGetErrorName(result) : nullptr;
  const char *text = hipGetErrorString ? hipGetErrorString(result) : nullptr;
  std::string s = name ? name : "HIP error " + std::to_string(result);
  if (text && (!name || std::strcmp(text, name) != 0)) s += std::string(" (") + text + ")";
  return s;
}

Status HipApi::check(hip::Error result, const char *call, StatusCode code) const {
  if (result == hip::kSuccess) return Status::ok();
  if (result == hip::kErrorOutOfMemory) code = StatusCode::OutOfMemory;
  if (result == hip::kErrorNoDevice) code = StatusCode::Unavailable;
  return {code, std::string(call) + " failed: " + describe(result)};
}

std::string HipApi::architecture(int device) const {
  if (!getDeviceProperties) return "";
  std::vector<char> props(16384, 0);
  if (getDeviceProperties(props.data(), device) != hip::kSuccess) return "";
  for (size_t i = 0; i + 4 < props.size(); ++i)
    if (std::memcmp(&props[i], "gfx", 3) == 0 && (i == 0 || props[i - 1] == 0)) {
      size_t end = i;
      while (end < props.size() && props[end] && end - i < 255) ++end;
      if (end < props.size() && !props[end]) return std::string(&props[i], end - i);
    }
  return "";
}

Status openHipApi(const std::string &path, std::unique_ptr<HipApi> &out) {
  out.reset();
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *err = dlerror();
    return {StatusCode::Unavailable,
            "the HIP runtime library could not be loaded (no ROCm on this machine?): " + std::string(err ? err : path)};
  }
  auto api = std::make_unique<HipApi>();
  api->library = lib;
  api->path = path;
  std::string missing;
#define TESSERA_HIP_RESOLVE(name, signature, symbol)                                                                   \
  api->name = reinterpret_cast<std::add_pointer_t<signature>>(dlsym(lib, symbol));                                                       \
  if (!api->name) missing += std::string(missing.empty() ? "" : ", ") + symbol;
  TESSERA_HIP_FUNCTIONS(TESSERA_HIP_RESOLVE)
#undef TESSERA_HIP_RESOLVE
  for (const char *symbol : {"hipGetDevicePropertiesR0600", "hipGetDeviceProperties"})
    if (!api->getDeviceProperties)
      api->getDeviceProperties = reinterpret_cast<hip::Error (*)(void *, int)>(dlsym(lib, symbol));
  if (!missing.empty()) {
    dlclose(lib);
    return {StatusCode::Unavailable, path + " lacks HIP functions Tessera needs: " + missing};
  }
  out = std::move(api);
  return Status::ok();
}

namespace {

// ELF e_flags' EF_AMDGPU_MACH values of the architectures we compile for.
struct Mach {
  unsigned value;
  const char *arch;
};
constexpr Mach kMachs[] = {{0x3f, "gfx90a"}, {0x4c, "gfx942"}, {0x41, "gfx1100"}};
constexpr unsigned kEmAmdgpu = 224, kOsAbiAmdgpuHsa = 64;

} // namespace

Status checkCodeObject(const void *binary, size_t size, const std::string &arch) {
  const auto *b = static_cast<const unsigned char *>(binary);
  if (!binary || size < 64 || std::memcmp(b, "\x7f" "ELF", 4) != 0 || b[4] != 2 /* 64-bit */ || b[5] != 1 /* LE */)
    return {StatusCode::InvalidArgument, "not an HSA code object (no 64-bit little-endian ELF header)"};
  unsigned machine = b[18] | (b[19] << 8);
  if (machine != kEmAmdgpu || b[7] != kOsAbiAmdgpuHsa)
    return {StatusCode::InvalidArgument, "not an HSA code object (ELF machine " + std::to_string(machine) + ", OS ABI " +
                                             std::to_string(b[7]) + "; AMDGPU HSA is 224, 64)"};
  unsigned flags = b[48] | (b[49] << 8) | (b[50] << 16) | (unsigned(b[51]) << 24);
  std::string objectArch;
  for (const Mach &m : kMachs)
    if ((flags & 0xff) == m.value) objectArch = m.arch;
  std::string device = arch.substr(0, arch.find(':'));
  if (!device.empty() && objectArch != device)
    return {StatusCode::InvalidArgument, "the code object is for " +
                                             (objectArch.empty() ? "another AMD GPU (mach " + std::to_string(flags & 0xff) + ")"
                                                                 : objectArch) +
                                             "; this device is " + device + " (compile with arch=\"" + device + "\")"};
  return Status::ok();
}

namespace {

template <typename T> bool readAt(const unsigned char *b, size_t size, uint64_t offset, T &out) {
  if (offset > size || sizeof(T) > size - offset) return false;
  std::memcpy(&out, b + offset, sizeof(T));  // ELF64 little-endian, as the host
  return true;
}

} // namespace

Status readKernelDescriptor(const void *binary, size_t size, const std::string &entry, KernelDescriptor &out) {
  const auto *b = static_cast<const unsigned char *>(binary);
  const Status malformed{StatusCode::InvalidArgument, "malformed HSA code object (ELF section or symbol table)"};
  uint64_t shoff = 0;
  uint16_t shentsize = 0, shnum = 0;
  if (!readAt(b, size, 40, shoff) || !readAt(b, size, 58, shentsize) || !readAt(b, size, 60, shnum) || shentsize < 64)
    return malformed;
  auto section = [&](uint32_t index, uint64_t field, auto &value) {
    return index < shnum && readAt(b, size, shoff + uint64_t(index) * shentsize + field, value);
  };
  std::string wanted = entry + ".kd";
  for (uint32_t s = 0; s < shnum; ++s) {
    uint32_t type = 0, link = 0;
    uint64_t offset = 0, bytes = 0, entsize = 0, strOffset = 0, strBytes = 0;
    if (!section(s, 4, type)) return malformed;
    if (type != 2 /* SHT_SYMTAB */ && type != 11 /* SHT_DYNSYM */) continue;
    if (!section(s, 24, offset) || !section(s, 32, bytes) || !section(s, 40, link) || !section(s, 56, entsize) ||
        entsize < 24 || !section(link, 24, strOffset) || !section(link, 32, strBytes))
      return malformed;
    for (uint64_t at = offset; at + entsize <= offset + bytes; at += entsize) {
      uint32_t name = 0;
      uint16_t shndx = 0;
      uint64_t value = 0;
      if (!readAt(b, size, at, name) || !readAt(b, size, at + 6, shndx) || !readAt(b, size, at + 8, value))
        return malformed;
      if (name >= strBytes || strOffset + name >= size) continue;
      const char *symbol = reinterpret_cast<const char *>(b + strOffset + name);
      size_t room = size_t(std::min<uint64_t>(strBytes - name, size - strOffset - name));
      if (strnlen(symbol, room) != wanted.size() || wanted.compare(0, wanted.size(), symbol, wanted.size()) != 0)
        continue;
      uint64_t addr = 0, fileOffset = 0;
      if (!section(shndx, 16, addr) || !section(shndx, 24, fileOffset) || value < addr) return malformed;
      uint64_t kd = fileOffset + (value - addr);
      uint16_t properties = 0;
      if (!readAt(b, size, kd + 0, out.ldsBytes) || !readAt(b, size, kd + 4, out.scratchBytes) ||
          !readAt(b, size, kd + 8, out.kernargBytes) || !readAt(b, size, kd + 56, properties))
        return malformed;
      out.waveSize = properties & (1u << 10) ? 32 : 64;  // ENABLE_WAVEFRONT_SIZE32
      return Status::ok();
    }
  }
  return {StatusCode::NotFound, "the code object has no kernel '" + entry + "' (no descriptor " + wanted + ")"};
}

} // namespace tessera::runtime
