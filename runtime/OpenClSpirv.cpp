#include "runtime/OpenClSpirv.h"

#include "runtime/SpirvText.h"

#include <cstdlib>

namespace tessera::runtime {

namespace {

// SPIR-V opcodes read here.
enum : uint32_t {
  kOpName = 5, kOpEntryPoint = 15, kOpExecutionMode = 16, kOpCapability = 17, kOpTypeBool = 20, kOpTypeInt = 21,
  kOpTypeFloat = 22,
  kOpTypeVector = 23, kOpTypePointer = 32, kOpFunction = 54, kOpFunctionParameter = 55, kOpModuleProcessed = 330,
  kExecutionModelKernel = 6, kLocalSize = 17
};

} // namespace

Status reflectOpenClSpirv(const uint32_t *w, size_t n, SpirvModuleInfo &out) {
  if (n < 5 || w[0] != 0x07230203) return {StatusCode::LoadFailed, "not a SPIR-V module (bad magic number)"};
  std::map<uint32_t, uint32_t> bytesOf;   // type id -> bytes as a kernel argument
  std::map<uint32_t, std::string> names;  // entry function id -> name
  std::map<uint32_t, std::array<uint32_t, 3>> sizes;
  std::map<uint32_t, bool> pointerTypes;  // type id -> is a pointer
  struct Param {
    uint32_t id, bytes;
    bool pointer;
  };
  std::map<uint32_t, std::vector<Param>> params;  // function -> its parameters
  std::map<uint32_t, std::string> idNames;
  uint32_t current = 0;
  for (size_t i = 5; i < n;) {
    uint32_t count = w[i] >> 16, opcode = w[i] & 0xFFFF;
    if (count == 0 || i + count > n) return {StatusCode::LoadFailed, "malformed SPIR-V module (instruction past the end)"};
    const uint32_t *o = w + i + 1;
    switch (opcode) {
    case kOpCapability:
      if (count >= 2) out.capabilities.push_back(o[0]);
      break;
    case kOpEntryPoint:
      if (count >= 4 && o[0] == kExecutionModelKernel) names[o[1]] = spirvLiteral(o + 2, count - 3);
      break;
    case kOpExecutionMode:
      if (count >= 6 && o[1] == kLocalSize) sizes[o[0]] = {o[2], o[3], o[4]};
      break;
    case kOpName:
      if (count >= 3) idNames[o[0]] = spirvLiteral(o + 1, count - 2);
      break;
    case kOpModuleProcessed: {
      std::string text = spirvLiteral(o, count - 1);
      out.subgroupSize = readSubgroupSize(text, out.subgroupSize);
      readNumberedText(text, "tessera.assert ", out.assertMessages);
      break;
    }
    case kOpTypeBool: bytesOf[o[0]] = 1; break;
    case kOpTypeInt: case kOpTypeFloat: bytesOf[o[0]] = (o[1] + 7) / 8; break;
    case kOpTypeVector:
      if (bytesOf.count(o[1])) bytesOf[o[0]] = bytesOf[o[1]] * o[2];
      break;
    case kOpTypePointer: bytesOf[o[0]] = 8, pointerTypes[o[0]] = true; break;  // Physical64
    case kOpFunction: current = o[1]; break;
    case kOpFunctionParameter:
      if (!bytesOf.count(o[0])) return {StatusCode::LoadFailed, "a kernel parameter of a type Tessera cannot pass"};
      params[current].push_back({o[1], bytesOf[o[0]], pointerTypes.count(o[0]) > 0});
      break;
    default: break;
    }
    i += count;
  }
  for (const auto &[id, name] : names) {
    SpirvKernelInfo k;
    const auto &list = params[id];
    for (size_t p = 0; p < list.size(); ++p) {
      if (p + 1 == list.size() && idNames[list[p].id] == kAssertRecordParameter) k.assertRecord = true;
      else k.paramBytes.push_back(list[p].bytes), k.paramPointer.push_back(list[p].pointer);
    }
    if (sizes.count(id)) k.localSize = sizes[id];
    out.kernels[name] = k;
  }
  return Status::ok();
}

} // namespace tessera::runtime
