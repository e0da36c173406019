// SPIR-V modules on a Vulkan device: what a launch needs is read from the
// binary itself (entry points, LocalSize, where the arguments go: the
// push-constant block, or past 128 bytes a parameter buffer whose address it
// holds; the subgroup size Tessera compiled for), then one compute
// pipeline per kernel.
#include "runtime/vulkan/VulkanInternal.h"

#include "runtime/DevicePrint.h"
#include "runtime/SpirvText.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <set>

namespace tessera::runtime::vk {

namespace {

struct ArgumentSlot {
  uint32_t offset = 0, bytes = 0;
};

// The push-constant member the spirv target adds for device assertions
// (targets/spirv/Emitter.h, kAssertRecordMember; the runtime does not
// include the compiler's headers).
constexpr const char *kAssertRecordMember = "tessera_assert_record";
// ... and the one for masked loads' safe address (kSafeAddressMember, kSafeBytes).
constexpr const char *kSafeAddressMember = "tessera_safe_address";
// ... and the device-print buffer's (kPrintBufferMember: header, then records).
constexpr const char *kPrintBufferMember = "tessera_print_buffer";
constexpr uint32_t kPrintHeaderBytes = 16, kPrintCapacity = 1u << 20;
// ... and the parameter buffer's, for arguments beyond 128 bytes (kParametersMember).
constexpr const char *kParametersMember = "tessera_parameters";

struct Reflection {
  std::map<std::string, uint32_t> entries;        // name -> function id
  std::map<uint32_t, std::array<uint32_t, 3>> localSize;
  std::vector<ArgumentSlot> arguments;            // the push-constant block's members but the assertion record
  uint32_t pushBytes = 0;
  uint32_t subgroupSize = 0;                      // 0: not stated
  std::optional<ArgumentSlot> assertRecord;       // where the assertion record's address goes
  std::optional<ArgumentSlot> safeAddress;        // where the device's safe bytes' address goes
  std::optional<ArgumentSlot> printBuffer;        // where the print buffer's address goes
  std::optional<ArgumentSlot> parameterBuffer;    // where the parameter buffer's address goes
  uint32_t parameterBytes = 0;                    // its size; `arguments` are then offsets in it
  std::vector<uint32_t> capabilities;             // OpCapability operands
  std::map<uint32_t, std::string> printFormats;   // format number -> C format
  std::map<uint32_t, std::string> assertMessages; // assertion number -> "file:line: device assertion failed: ..."
};

// The few instructions a launch depends on; the driver validates the rest.
Status reflect(const uint32_t *w, size_t n, Reflection &r) {
  if (n < 5 || w[0] != 0x07230203) return {StatusCode::LoadFailed, "not a SPIR-V module (bad magic number)"};
  std::map<uint32_t, uint32_t> widths;                       // int/float type -> bits
  std::map<uint32_t, std::vector<uint32_t>> structs;         // struct -> member types
  std::map<uint32_t, std::map<uint32_t, uint32_t>> offsets;  // struct -> member -> offset
  std::map<uint32_t, uint32_t> pointees;                     // PushConstant pointer type -> pointee
  std::set<uint32_t> blocks;
  std::map<uint32_t, std::map<uint32_t, std::string>> memberNames;  // struct -> member -> name
  uint32_t pushStruct = 0;
  std::vector<ArgumentSlot> parameterSlots;
  for (size_t i = 5; i < n;) {
    uint32_t count = w[i] >> 16, opcode = w[i] & 0xFFFF;
    if (count == 0 || i + count > n) return {StatusCode::LoadFailed, "malformed SPIR-V module (instruction past the end)"};
    const uint32_t *o = w + i + 1;
    switch (opcode) {
    case 15: r.entries[spirvLiteral(o + 2, count - 3)] = o[1]; break;  // OpEntryPoint
    case 16:                                                        // OpExecutionMode LocalSize
      if (o[1] == 17 && count >= 6) r.localSize[o[0]] = {o[2], o[3], o[4]};
      break;
    case 330: {  // OpModuleProcessed
      std::string text = spirvLiteral(o, count - 1);
      const std::string parametersKey = "tessera.parameters ";
      if (text.rfind(parametersKey, 0) == 0) {
        const char *p = text.c_str() + parametersKey.size();
        char *end = nullptr;
        r.parameterBytes = uint32_t(std::strtoul(p, &end, 10));
        parameterSlots.clear();
        while (end && *end == ' ') {
          ArgumentSlot slot;
          slot.offset = uint32_t(std::strtoul(end + 1, &end, 10));
          if (!end || *end != ':') return {StatusCode::LoadFailed, "malformed tessera.parameters layout in the module"};
          slot.bytes = uint32_t(std::strtoul(end + 1, &end, 10));
          bool width = slot.bytes == 1 || slot.bytes == 2 || slot.bytes == 4 || slot.bytes == 8;
          if (!width || slot.offset > r.parameterBytes || slot.bytes > r.parameterBytes - slot.offset)
            return {StatusCode::LoadFailed, "malformed tessera.parameters layout in the module"};
          parameterSlots.push_back(slot);
        }
      }
      readNumberedText(text, "tessera.print ", r.printFormats);
      readNumberedText(text, "tessera.assert ", r.assertMessages);
      r.subgroupSize = readSubgroupSize(text, r.subgroupSize);
      break;
    }
    case 6:  // OpMemberName
      if (count >= 4) memberNames[o[0]][o[1]] = spirvLiteral(o + 2, count - 3);
      break;
    case 71:  // OpDecorate Block
      if (o[1] == 2) blocks.insert(o[0]);
      break;
    case 72:  // OpMemberDecorate Offset
      if (o[2] == 35 && count >= 5) offsets[o[0]][o[1]] = o[3];
      break;
    case 17: r.capabilities.push_back(o[0]); break;  // OpCapability
    case 21: case 22: widths[o[0]] = o[1]; break;  // OpTypeInt, OpTypeFloat
    case 30: structs[o[0]] = std::vector<uint32_t>(o + 1, o + (count - 1)); break;  // OpTypeStruct
    case 32:  // OpTypePointer PushConstant
      if (o[1] == 9) pointees[o[0]] = o[2];
      break;
    case 59:  // OpVariable PushConstant
      if (o[2] == 9 && pointees.count(o[0])) pushStruct = pointees[o[0]];
      break;
    default: break;
    }
    i += count;
  }
  if (pushStruct) {
    if (!blocks.count(pushStruct) || !structs.count(pushStruct))
      return {StatusCode::LoadFailed, "the module's push constants are not one Block struct"};
    const std::vector<uint32_t> &members = structs[pushStruct];
    for (uint32_t m = 0; m < members.size(); ++m) {
      if (!widths.count(members[m]) || !offsets[pushStruct].count(m))
        return {StatusCode::LoadFailed, "push-constant member " + std::to_string(m) + " is not a scalar with an offset"};
      ArgumentSlot slot{offsets[pushStruct][m], widths[members[m]] / 8};
      if (memberNames[pushStruct][m] == kAssertRecordMember) r.assertRecord = slot;
      else if (memberNames[pushStruct][m] == kSafeAddressMember) r.safeAddress = slot;
      else if (memberNames[pushStruct][m] == kPrintBufferMember) r.printBuffer = slot;
      else if (memberNames[pushStruct][m] == kParametersMember) r.parameterBuffer = slot;
      else r.arguments.push_back(slot);
      r.pushBytes = std::max(r.pushBytes, slot.offset + slot.bytes);
    }
    r.pushBytes = (r.pushBytes + 3) / 4 * 4;
  }
  if (r.parameterBuffer) {
    if (!r.arguments.empty() || r.parameterBytes == 0 || r.parameterBytes > 65536)
      return {StatusCode::LoadFailed, "the module's parameter buffer and push-constant arguments disagree"};
    r.arguments = parameterSlots;
  }
  return Status::ok();
}

struct LoadedModule {
  VulkanDevice &device;
  VkShaderModule shader = VK_NULL_HANDLE;
  Reflection info;
  ~LoadedModule() {
    if (shader) device.fn().vkDestroyShaderModule(device.handle(), shader, nullptr);
  }
};

class VulkanKernel final : public Kernel {
public:
  VulkanKernel(std::shared_ptr<LoadedModule> module, std::string name, VkPipelineLayout layout, VkPipeline pipeline,
               uint32_t threads, std::unique_ptr<Buffer> assertRecord, std::unique_ptr<Buffer> printBuffer,
               std::unique_ptr<Buffer> parameters, uint64_t safeAddress)
      : module_(std::move(module)), name_(std::move(name)), layout_(layout), pipeline_(pipeline), threads_(threads),
        record_(std::move(assertRecord)), print_(std::move(printBuffer)), parameters_(std::move(parameters)),
        safeAddress_(safeAddress) {}
  ~VulkanKernel() override {
    VulkanDevice &d = module_->device;
    (void)d.synchronize();
    d.fn().vkDestroyPipeline(d.handle(), pipeline_, nullptr);
    d.fn().vkDestroyPipelineLayout(d.handle(), layout_, nullptr);
  }
  const std::string &name() const override { return name_; }

  Status launch(const LaunchConfig &config, void **args, size_t numArgs, Stream *stream) override {
    const Reflection &r = module_->info;
    if (Status st = checkArgs(args, numArgs, r.arguments.size()); !st) return st;
    VulkanDevice &d = module_->device;
    if (stream && &stream->device() != &d)
      return {StatusCode::InvalidArgument, "launch of '" + name_ + "': the stream belongs to another device"};
    if (config.threadsPerProgram != int(threads_))
      return {StatusCode::InvalidArgument, "launch of '" + name_ + "' with " + std::to_string(config.threadsPerProgram) +
                                               " threads per program; its module says " + std::to_string(threads_)};
    const auto &limit = d.properties().limits.maxComputeWorkGroupCount;
    for (int a = 0; a < 3; ++a) {
      if (config.grid[size_t(a)] == 0) return Status::ok();
      if (config.grid[size_t(a)] > limit[a])
        return {StatusCode::InvalidArgument, "launch of '" + name_ + "': grid dimension " + std::to_string(a) + " is " +
                                                 std::to_string(config.grid[size_t(a)]) + "; " + d.name() + " allows " +
                                                 std::to_string(limit[a])};
    }
    std::vector<uint8_t> push(r.pushBytes, 0);
    auto *parameters = static_cast<VulkanBuffer *>(parameters_.get());
    // The arguments' bytes: in the push constants, or in the parameter buffer
    // (written by vkCmdUpdateBuffer in stream order, so each launch sees its own).
    std::vector<uint8_t> parameterBytes(parameters ? (r.parameterBytes + 3) / 4 * 4 : 0, 0);
    uint8_t *argumentBytes = parameters ? parameterBytes.data() : push.data();
    for (size_t i = 0; i < r.arguments.size(); ++i)
      std::memcpy(argumentBytes + r.arguments[i].offset, args[i], r.arguments[i].bytes);
    if (r.safeAddress) std::memcpy(push.data() + r.safeAddress->offset, &safeAddress_, sizeof(safeAddress_));
    auto *record = static_cast<VulkanBuffer *>(record_.get());
    auto *print = static_cast<VulkanBuffer *>(print_.get());
    for (auto [buffer, slot] : {std::pair{record, r.assertRecord}, std::pair{print, r.printBuffer},
                                std::pair{parameters, r.parameterBuffer}})
      if (buffer) {
        uint64_t address = reinterpret_cast<uint64_t>(buffer->devicePointer());
        std::memcpy(push.data() + slot->offset, &address, sizeof(address));
      }
    Status st = d.submit([&](VkCommandBuffer cmd) {
      if (print) {
        d.fn().vkCmdFillBuffer(cmd, print->handle(), 0, 4, 0);  // the cursor, then the capacity
        d.fn().vkCmdFillBuffer(cmd, print->handle(), 4, 4, kPrintCapacity);
      }
      if (record) d.fn().vkCmdFillBuffer(cmd, record->handle(), 0, 4, 0);
      if (parameters) d.fn().vkCmdUpdateBuffer(cmd, parameters->handle(), 0, parameterBytes.size(), parameterBytes.data());
      if (record || print || parameters) {
        // Let the dispatch see the zeroed record and the print buffer's header.
        VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        d.fn().vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                    &barrier, 0, nullptr, 0, nullptr);
      }
      d.fn().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
      if (!push.empty())
        d.fn().vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, uint32_t(push.size()), push.data());
      d.fn().vkCmdDispatch(cmd, config.grid[0], config.grid[1], config.grid[2]);
    });
    if (st && print) st = printRecords(*print);
    if (!st || !record) return st;
    // A kernel with assertions: its launch waits (the copy waits for the queue) and reports the first failure.
    uint32_t failed = 0;
    if (Status copy = d.copyToHost(&failed, *record, 0, sizeof(failed), nullptr); !copy) return copy;
    if (!failed) return Status::ok();
    auto message = r.assertMessages.find(failed);
    return {StatusCode::AssertFailed, message != r.assertMessages.end() ? message->second
                                                                         : "device assertion " + std::to_string(failed) + " failed"};
  }

private:
  std::shared_ptr<LoadedModule> module_;
  std::string name_;
  VkPipelineLayout layout_;
  VkPipeline pipeline_;
  uint32_t threads_;
  // The launch waits for its kernel and prints its records to stdout, in
  // the order the device wrote them.
  Status printRecords(VulkanBuffer &print) {
    VulkanDevice &d = module_->device;
    uint32_t header[2] = {0, 0};
    if (Status st = d.copyToHost(header, print, 0, sizeof header, nullptr); !st) return st;
    uint32_t used = std::min(header[0], kPrintCapacity);
    std::vector<uint8_t> bytes(used);
    if (used)
      if (Status st = d.copyToHost(bytes.data(), print, kPrintHeaderBytes, used, nullptr); !st) return st;
    std::string text;
    for (size_t at = 0; at + 8 <= bytes.size();) {
      uint32_t number, size;
      std::memcpy(&number, &bytes[at], 4);
      std::memcpy(&size, &bytes[at + 4], 4);
      if (size < 8 || at + size > bytes.size()) break;
      std::vector<uint64_t> args((size - 8) / 8);
      if (!args.empty()) std::memcpy(args.data(), &bytes[at + 8], args.size() * 8);
      auto format = module_->info.printFormats.find(number);
      text += format != module_->info.printFormats.end() ? formatDevicePrint(format->second, args)
                                                          : "<device print record " + std::to_string(number) + ">\n";
      at += size;
    }
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    if (header[0] > kPrintCapacity)
      std::fprintf(stderr, "tessera: kernel '%s' printed more than %u bytes of records; the rest was dropped\n",
                   name_.c_str(), kPrintCapacity);
    return Status::ok();
  }

  std::unique_ptr<Buffer> record_;  // the device-assertion record, for kernels with assertions
  std::unique_ptr<Buffer> print_;   // the device-print buffer, for kernels that print
  std::unique_ptr<Buffer> parameters_;  // the arguments, for kernels whose arguments exceed the push constants
  uint64_t safeAddress_;                // the device's safe bytes, for kernels with masked loads
};

class VulkanModule final : public Module {
public:
  explicit VulkanModule(std::shared_ptr<LoadedModule> m) : m_(std::move(m)) {}
  Status getKernel(const std::string &entry, size_t numArgs, std::unique_ptr<Kernel> &out) override {
    const Reflection &r = m_->info;
    VulkanDevice &d = m_->device;
    auto it = r.entries.find(entry);
    if (it == r.entries.end()) return {StatusCode::NotFound, "the SPIR-V module has no entry point '" + entry + "'"};
    if (numArgs != r.arguments.size())
      return {StatusCode::InvalidArgument, "kernel '" + entry + "' takes " + std::to_string(r.arguments.size()) +
                                               " arguments, not " + std::to_string(numArgs)};
    auto size = r.localSize.find(it->second);
    if (size == r.localSize.end()) return {StatusCode::LoadFailed, "entry point '" + entry + "' has no LocalSize"};
    uint32_t threads = size->second[0] * size->second[1] * size->second[2];
    uint32_t sg = r.subgroupSize;
    if (sg && (sg < d.minSubgroupSize() || sg > d.maxSubgroupSize()))
      return {StatusCode::LoadFailed, "kernel '" + entry + "' was compiled for subgroups of " + std::to_string(sg) +
                                          " lanes; " + d.name() + " runs " + std::to_string(d.minSubgroupSize()) +
                                          (d.minSubgroupSize() == d.maxSubgroupSize() ? "" : " to " + std::to_string(d.maxSubgroupSize())) +
                                          " (compile with its arch, " + d.architecture() + ")"};
    if (sg && threads % sg)
      return {StatusCode::LoadFailed, "kernel '" + entry + "': " + std::to_string(threads) +
                                          " threads are not whole subgroups of " + std::to_string(sg)};
    if (r.pushBytes > d.properties().limits.maxPushConstantsSize)
      return {StatusCode::LoadFailed, "kernel '" + entry + "' has " + std::to_string(r.pushBytes) + " bytes of push constants; " +
                                          d.name() + " holds " + std::to_string(d.properties().limits.maxPushConstantsSize)};
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, r.pushBytes};
    VkPipelineLayoutCreateInfo li{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    li.pushConstantRangeCount = r.pushBytes ? 1 : 0;
    li.pPushConstantRanges = &range;
    VkPipelineLayout layout;
    if (Status st = check(d.fn().vkCreatePipelineLayout(d.handle(), &li, nullptr, &layout), "vkCreatePipelineLayout",
                          StatusCode::LoadFailed);
        !st)
      return st;
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required{
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
    required.requiredSubgroupSize = sg;
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = m_->shader;
    ci.stage.pName = entry.c_str();
    if (sg && d.subgroupSizeControl()) {
      ci.stage.pNext = &required;
      ci.stage.flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
    } else if (sg && sg != d.subgroupSize()) {
      d.fn().vkDestroyPipelineLayout(d.handle(), layout, nullptr);
      return {StatusCode::LoadFailed, d.name() + " cannot fix its subgroup size (no VK_EXT_subgroup_size_control)"};
    }
    ci.layout = layout;
    if (d.pipelineStatistics()) ci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    VkPipeline pipeline;
    if (Status st = check(d.fn().vkCreateComputePipelines(d.handle(), VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline),
                          "vkCreateComputePipelines", StatusCode::LoadFailed);
        !st) {
      d.fn().vkDestroyPipelineLayout(d.handle(), layout, nullptr);
      return st;
    }
    d.printPipelineStatistics(pipeline, entry);
    std::unique_ptr<Buffer> record;
    std::unique_ptr<Buffer> print, parameters;
    Status st = r.assertRecord ? d.allocate(4, record) : Status::ok();
    if (st && r.parameterBuffer) st = d.allocate((r.parameterBytes + 3) / 4 * 4, parameters);
    uint64_t safeAddress = 0;
    if (st && r.safeAddress) st = d.safeAddress(safeAddress);
    if (st && r.printBuffer) st = d.allocate(kPrintHeaderBytes + kPrintCapacity, print);
    if (!st) {
      d.fn().vkDestroyPipeline(d.handle(), pipeline, nullptr);
      d.fn().vkDestroyPipelineLayout(d.handle(), layout, nullptr);
      return st;
    }
    out = std::make_unique<VulkanKernel>(m_, entry, layout, pipeline, threads, std::move(record), std::move(print),
                                         std::move(parameters), safeAddress);
    return Status::ok();
  }

private:
  std::shared_ptr<LoadedModule> m_;
};

} // namespace

Status VulkanDevice::loadModule(std::string_view format, const void *binary, size_t size, std::unique_ptr<Module> &out) {
  if (format != "spirv")
    return {StatusCode::Unsupported, "the Vulkan backend loads SPIR-V modules, not '" + std::string(format) + "'"};
  if (!binary || size % 4 || size < 20) return {StatusCode::LoadFailed, "a SPIR-V module is a whole number of words"};
  auto m = std::make_shared<LoadedModule>(LoadedModule{*this});
  if (Status st = reflect(static_cast<const uint32_t *>(binary), size / 4, m->info); !st) return st;
  // A capability the device lacks is a clear refusal, not the driver's failure.
  for (uint32_t capability : m->info.capabilities) {
    auto f = features_.find(capability);
    if (f != features_.end() && !f->second.enabled)
      return {StatusCode::Unsupported, "the kernel needs SPIR-V capability " + std::to_string(capability) + " (Vulkan's " +
                                           f->second.name + "), which " + name() + " does not have"};
  }
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = size;
  info.pCode = static_cast<const uint32_t *>(binary);
  if (Status st = check(d_.vkCreateShaderModule(device_, &info, nullptr, &m->shader), "vkCreateShaderModule",
                        StatusCode::LoadFailed);
      !st)
    return st;
  out = std::make_unique<VulkanModule>(std::move(m));
  return Status::ok();
}

} // namespace tessera::runtime::vk
