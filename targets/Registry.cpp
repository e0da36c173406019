// The target registry: the one table of targets (see Target.h). A table
// rather than static registration: targets/ is a static library, and a
// linker drops objects nothing references, constructors included.
#include "targets/Target.h"

#include "targets/amdgpu/AmdgpuTarget.h"
#include "targets/cpu/CpuTarget.h"
#include "targets/nvptx/NvptxTarget.h"
#include "targets/spirv/SpirvTarget.h"

namespace tessera::targets {

namespace {

// DLPack's DLDeviceType values (dlpack.h), for the memory each flavour takes.
enum DLPackDevice : int {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLROCM = 10,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
};

std::vector<TargetRow> makeRows() {
  return {
      {.name = "cpu",
       .aliases = {{"host", ""}},
       .flavours = {{.name = "", .backend = "host", .torchDevice = "cpu", .torchBuild = "", .dlpackDevices = {kDLCPU},
                    .deviceName = "cpu", .timer = "host_clock", .tritonBackend = "cpu"}},
       .formats = {"elf-shared-object"},
       .generator = "LLVM x86-64 -> shared object (lld)",
       .llvmTarget = "x86-64",
       .create = [](std::string_view) { return cpu::createCpuTarget(); }},
      {.name = "nvptx",
       .aliases = {{"cuda", ""}},
       .flavours = {{.name = "", .backend = "cuda", .torchDevice = "cuda", .torchBuild = "cuda",
                    .dlpackDevices = {kDLCUDA, kDLCUDAManaged}, .deviceName = "cuda", .timer = "torch_events",
                    .tritonBackend = "cuda"}},
       // A cubin when ptxas is found, else the PTX the driver compiles at load.
       .formats = {"cubin", "ptx"},
       .generator = "LLVM NVPTX -> PTX -> ptxas or driver JIT",
       .llvmTarget = "nvptx64",
       .archPrefix = "sm_",
       .create = [](std::string_view) { return nvptx::createNvptxTarget(); }},
      {.name = "amdgpu",
       .aliases = {{"hip", ""}},
       // ROCm's PyTorch names AMD GPUs "cuda" (and sets torch.version.hip).
       .flavours = {{.name = "", .backend = "hip", .torchDevice = "cuda", .torchBuild = "hip", .dlpackDevices = {kDLROCM},
                    .deviceName = "hip", .timer = "torch_events", .tritonBackend = "hip"}},
       .formats = {"hsaco"},
       .generator = "LLVM AMDGPU -> HSA code object (lld)",
       .llvmTarget = "amdgcn",
       .specializesPointerRange = true,  // buffer loads and stores
       .create = [](std::string_view) { return amdgpu::createAmdgpuTarget(); }},
      {.name = "spirv",
       .aliases = {{"vulkan", "vulkan"}, {"opencl", "opencl"}, {"level_zero", "level_zero"}},
       // Vulkan compute shaders; OpenCL kernels, run by an OpenCL runtime
       // (any device that takes SPIR-V: CI runs Intel's CPU runtime) or by
       // Level Zero (Intel GPUs, whose PyTorch device is "xpu"): the same
       // code, two runtimes.
       // Vulkan and OpenCL are present wherever a CPU implements them
       // (lavapipe, Intel's OpenCL CPU runtime): a launch picks them only
       // when asked.
       .flavours = {{.name = "vulkan", .backend = "vulkan", .torchDevice = "", .torchBuild = "",
                     .dlpackDevices = {kDLVulkan}, .deviceName = "vulkan", .explicitOnly = true,
                     .stagesHostArrays = true, .timer = "device_timestamps", .tritonBackend = "vulkan"},
                    {.name = "opencl", .backend = "opencl", .torchDevice = "", .torchBuild = "",
                     .dlpackDevices = {kDLOpenCL}, .deviceName = "opencl", .explicitOnly = true,
                     .stagesHostArrays = true, .timer = "device_timestamps", .tritonBackend = "opencl"},
                    {.name = "level_zero", .backend = "level_zero", .torchDevice = "xpu", .torchBuild = "",
                     .dlpackDevices = {kDLOneAPI}, .deviceName = "level_zero", .stagesHostArrays = true,
                     .timer = "host_clock_synchronized", .tritonBackend = "level_zero"}},
       .formats = {"spirv"},
       .generator = "Tessera's SPIR-V emitter (Vulkan and OpenCL flavours; Level Zero runs the OpenCL one)",
       .llvmTarget = "",
       .create = spirv::createSpirvTarget},
  };
}

const TargetFlavour *flavourNamed(const TargetRow &row, std::string_view flavour) {
  if (flavour.empty()) return &row.flavours.front();
  for (const TargetFlavour &f : row.flavours)
    if (flavour == f.name) return &f;
  return nullptr;
}

} // namespace

const std::vector<TargetRow> &targetRows() {
  static const std::vector<TargetRow> rows = makeRows();
  return rows;
}

std::string TargetRef::canonicalName() const {
  if (!row) return "";
  return row->flavours.size() > 1 ? std::string(row->name) + ":" + flavour->name : std::string(row->name);
}

// `name` is a row's name or alias, optionally followed by ":flavour"
// ("spirv:opencl"), which is how canonicalName() spells flavours.
TargetRef findTarget(std::string_view name) {
  std::string_view base = name, flavour;
  if (size_t colon = name.find(':'); colon != std::string_view::npos) {
    base = name.substr(0, colon);
    flavour = name.substr(colon + 1);
    if (flavour.empty()) return {};
  }
  for (const TargetRow &row : targetRows()) {
    std::string_view selected;
    bool match = base == row.name;
    for (const TargetAlias &a : row.aliases)
      if (!match && base == a.name) match = true, selected = a.flavour;
    if (!match) continue;
    // An alias's own flavour and an explicit one must agree ("vulkan:opencl" is no target).
    if (!flavour.empty() && !selected.empty() && flavour != selected) return {};
    const TargetFlavour *f = flavourNamed(row, flavour.empty() ? selected : flavour);
    return f ? TargetRef{&row, f} : TargetRef{};
  }
  return {};
}

std::string unknownTargetMessage(std::string_view name) {
  std::string names, aliases;
  for (const TargetRow &row : targetRows()) {
    names += (names.empty() ? "" : ", ") + std::string(row.name);
    for (const TargetAlias &a : row.aliases) aliases += (aliases.empty() ? "" : ", ") + std::string(a.name);
  }
  return "unknown target '" + std::string(name) + "' (known targets: " + names + "; aliases: " + aliases + ")";
}

std::vector<std::string> targetNames() {
  std::vector<std::string> names;
  for (const TargetRow &row : targetRows()) names.emplace_back(row.name);
  return names;
}

std::unique_ptr<Target> createTarget(std::string_view name, std::string *error) {
  TargetRef ref = findTarget(name);
  if (!ref) {
    if (error) *error = unknownTargetMessage(name);
    return nullptr;
  }
  if (!ref.row->present()) {
    if (error)
      *error = "no code generator for target '" + std::string(ref.row->name) + "' in this build yet (" +
               ref.row->generator + ")";
    return nullptr;
  }
  return ref.row->create(ref.flavour->name);
}

} // namespace tessera::targets
