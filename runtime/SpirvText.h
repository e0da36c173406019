// Reading what Tessera's spirv target writes into a SPIR-V module for the
// runtime (OpModuleProcessed "tessera.<key> ..." lines; targets/spirv/
// Emitter.h documents them), shared by the backends that load SPIR-V
// (Vulkan, Level Zero). The runtime does not include the compiler's headers.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>

namespace tessera::runtime {

// A literal string of `words` SPIR-V words (nul-terminated, padded).
inline std::string spirvLiteral(const uint32_t *w, size_t words) {
  std::string s(reinterpret_cast<const char *>(w), words * 4);
  return s.substr(0, s.find('\0'));
}

// "<key><number> <text>" (key "tessera.assert ", say): into[number] = text.
inline void readNumberedText(const std::string &line, const std::string &key, std::map<uint32_t, std::string> &into) {
  if (line.rfind(key, 0) != 0) return;
  size_t space = line.find(' ', key.size());
  if (space != std::string::npos) into[uint32_t(std::atoi(line.c_str() + key.size()))] = line.substr(space + 1);
}

// "tessera.subgroup_size N": N; `current` otherwise.
inline uint32_t readSubgroupSize(const std::string &line, uint32_t current) {
  const std::string key = "tessera.subgroup_size ";
  return line.rfind(key, 0) == 0 ? uint32_t(std::atoi(line.c_str() + key.size())) : current;
}

} // namespace tessera::runtime
