// The Vulkan backend's probe, devices, memory, streams and events. One
// compute queue per device; every submission starts with a compute/transfer
// memory barrier (not ALL_COMMANDS: 10 us more a launch on NVIDIA's driver),
// so work runs in submission order whatever stream it came from
// (streams are in-order views of the one queue). Buffers are created with
// device addresses, which kernels take as pointers.
#include "runtime/vulkan/VulkanBackend.h"

#include "runtime/vulkan/CooperativeMatrix.h"

#include "runtime/BackendSupport.h"

#include "runtime/vulkan/VulkanInternal.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace tessera::runtime {

using namespace vk;

namespace vk {

VulkanBuffer::~VulkanBuffer() {
  // A kernel may still read the buffer: let the queue finish first.
  (void)device_.synchronize();
  const DeviceApi &f = device_.fn();
  if (mapped_) f.vkUnmapMemory(device_.handle(), memory_);
  f.vkDestroyBuffer(device_.handle(), buffer_, nullptr);
  f.vkFreeMemory(device_.handle(), memory_, nullptr);
}

namespace {

class VulkanStream final : public Stream {
public:
  explicit VulkanStream(VulkanDevice &device) : device_(device) {}
  Device &device() const override { return device_; }
  Status synchronize() override { return device_.synchronize(); }
  Status record(Event &event) override;
  // One queue, in submission order: later work already waits.
  Status wait(Event &) override { return Status::ok(); }

private:
  VulkanDevice &device_;
};

class VulkanEvent final : public Event {
public:
  VulkanEvent(VulkanDevice &device, VkQueryPool pool) : device_(device), pool_(pool) {}
  ~VulkanEvent() override {
    (void)device_.synchronize();
    device_.fn().vkDestroyQueryPool(device_.handle(), pool_, nullptr);
  }
  Status recordOn(VulkanDevice &device) {
    if (&device != &device_) return {StatusCode::InvalidArgument, "record: the event belongs to another Vulkan device"};
    recorded_ = true;
    return device_.submit(
        [&](VkCommandBuffer cmd) {
          device_.fn().vkCmdResetQueryPool(cmd, pool_, 0, 1);
          device_.fn().vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, 0);
        },
        &sequence_);
  }
  Status synchronize() override { return recorded_ ? device_.waitFor(sequence_) : Status::ok(); }
  Status elapsedMs(const Event &start, double &ms) const override {
    auto *s = dynamic_cast<const VulkanEvent *>(&start);
    if (!s) return {StatusCode::InvalidArgument, "elapsedMs: the start event is not a Vulkan event"};
    if (!recorded_ || !s->recorded_) return {StatusCode::InvalidArgument, "elapsedMs: an event was never recorded"};
    uint64_t a = 0, b = 0;
    if (Status st = s->timestamp(a); !st) return st;
    if (Status st = timestamp(b); !st) return st;
    ms = double(int64_t(b - a)) * double(device_.properties().limits.timestampPeriod) / 1e6;
    return Status::ok();
  }

private:
  Status timestamp(uint64_t &out) const {
    if (Status st = device_.waitFor(sequence_); !st) return st;
    return check(device_.fn().vkGetQueryPoolResults(device_.handle(), pool_, 0, 1, sizeof(out), &out, sizeof(out),
                                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                 "vkGetQueryPoolResults");
  }
  VulkanDevice &device_;
  VkQueryPool pool_;
  uint64_t sequence_ = 0;
  bool recorded_ = false;
};

Status VulkanStream::record(Event &event) {
  auto *e = dynamic_cast<VulkanEvent *>(&event);
  if (!e) return {StatusCode::InvalidArgument, "record: the event is not a Vulkan event"};
  return e->recordOn(device_);
}

} // namespace

VulkanDevice::~VulkanDevice() {
  if (!device_) return;
  (void)synchronize();
  safe_.reset();
  for (const Submission &s : free_) d_.vkDestroyFence(device_, s.fence, nullptr);
  if (pool_) d_.vkDestroyCommandPool(device_, pool_, nullptr);
  d_.vkDestroyDevice(device_, nullptr);
}

Status VulkanDevice::init() {
  api_.vkGetPhysicalDeviceProperties(physical_, &props_);
  api_.vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
  bool v13 = props_.apiVersion >= VK_API_VERSION_1_3;

  // What the device has, then the subset kernels use.
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomicFloat{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT atomicFloat2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT};
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceFeatures2 all{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  uint32_t extCount = 0;
  api_.vkEnumerateDeviceExtensionProperties(physical_, nullptr, &extCount, nullptr);
  std::vector<VkExtensionProperties> exts(extCount);
  api_.vkEnumerateDeviceExtensionProperties(physical_, nullptr, &extCount, exts.data());
  auto hasExt = [&](const char *name) {
    for (const auto &e : exts)
      if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
  };
  std::vector<const char *> enabledExts;
  all.pNext = &f11;
  f11.pNext = &f12;
  void **tail = &f12.pNext;
  if (v13) *tail = &f13, tail = &f13.pNext;
  if (hasExt(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME)) {
    *tail = &atomicFloat, tail = &atomicFloat.pNext;
    enabledExts.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  }
  if (hasExt(VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME)) {
    *tail = &atomicFloat2, tail = &atomicFloat2.pNext;
    enabledExts.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME);
  }
  // The driver's statistics of each pipeline (registers, spills...), printed
  // at pipeline creation when $TESSERA_VULKAN_PIPELINE_STATS is set.
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executableInfo{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  const char *statsEnv = std::getenv("TESSERA_VULKAN_PIPELINE_STATS");
  bool wantStats = statsEnv && *statsEnv && std::strcmp(statsEnv, "0") != 0 &&
                   hasExt(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  if (wantStats) *tail = &executableInfo, tail = &executableInfo.pNext;
  // Cooperative matrices (VK_KHR_cooperative_matrix; bf16 ones through
  // VK_KHR_shader_bfloat16): dots on the matrix units, when the arch the
  // device reports lists them (CooperativeMatrix.h).
  CooperativeMatrixFeatures cooperative;
  BFloat16Features bfloat16;
  bool hasCooperative = hasExt(kCooperativeMatrixExtension), hasBFloat16 = hasExt(kBFloat16Extension);
  if (hasCooperative) *tail = &cooperative, tail = &cooperative.pNext;
  if (hasBFloat16) *tail = &bfloat16, tail = &bfloat16.pNext;
  api_.vkGetPhysicalDeviceFeatures2(physical_, &all);
  if (!f12.bufferDeviceAddress)
    return {StatusCode::Unavailable, std::string(props_.deviceName) + " has no buffer device addresses"};

  VkPhysicalDeviceFeatures2 want{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  want.features.shaderInt64 = all.features.shaderInt64;
  want.features.shaderInt16 = all.features.shaderInt16;
  want.features.shaderFloat64 = all.features.shaderFloat64;
  VkPhysicalDeviceVulkan11Features w11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  w11.storageBuffer16BitAccess = f11.storageBuffer16BitAccess;
  w11.storagePushConstant16 = f11.storagePushConstant16;
  VkPhysicalDeviceVulkan12Features w12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  w12.bufferDeviceAddress = VK_TRUE;
  w12.shaderInt8 = f12.shaderInt8;
  w12.shaderFloat16 = f12.shaderFloat16;
  w12.storageBuffer8BitAccess = f12.storageBuffer8BitAccess;
  w12.storagePushConstant8 = f12.storagePushConstant8;
  w12.shaderBufferInt64Atomics = f12.shaderBufferInt64Atomics;
  w12.shaderSharedInt64Atomics = f12.shaderSharedInt64Atomics;
  VkPhysicalDeviceVulkan13Features w13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  w13.subgroupSizeControl = f13.subgroupSizeControl;
  w13.computeFullSubgroups = f13.computeFullSubgroups;
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT wf = atomicFloat;
  // What kernels may ask for by SPIR-V capability (VulkanModule checks a
  // module's against it). $TESSERA_VULKAN_HIDE_FEATURES (comma-separated
  // feature names) hides some, to test a device that lacks them.
  const char *hideEnv = std::getenv("TESSERA_VULKAN_HIDE_FEATURES");
  std::string hide = std::string(",") + (hideEnv ? hideEnv : "") + ",";
  auto offer = [&](VkBool32 &wanted, const char *feature, uint32_t capability) {
    if (hide.find(std::string(",") + feature + ",") != std::string::npos) wanted = VK_FALSE;
    features_[capability] = {feature, wanted == VK_TRUE};
  };
  offer(want.features.shaderFloat64, "shaderFloat64", 10);
  offer(want.features.shaderInt64, "shaderInt64", 11);
  offer(want.features.shaderInt16, "shaderInt16", 22);
  offer(w12.shaderInt8, "shaderInt8", 39);
  offer(w12.shaderFloat16, "shaderFloat16", 9);
  offer(w11.storageBuffer16BitAccess, "storageBuffer16BitAccess", 4433);
  offer(w11.storagePushConstant16, "storagePushConstant16", 4435);
  offer(w12.storageBuffer8BitAccess, "storageBuffer8BitAccess", 4448);
  offer(w12.storagePushConstant8, "storagePushConstant8", 4450);
  offer(w12.shaderBufferInt64Atomics, "shaderBufferInt64Atomics", 12);
  offer(wf.shaderBufferFloat32AtomicAdd, "shaderBufferFloat32AtomicAdd", 6033);
  offer(wf.shaderBufferFloat64AtomicAdd, "shaderBufferFloat64AtomicAdd", 6034);
  VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT wf2 = atomicFloat2;
  // Kernels with cooperative matrices use the Vulkan memory model (the
  // extension requires it of shaders).
  CooperativeMatrixFeatures wcm;
  wcm.cooperativeMatrix = cooperative.cooperativeMatrix;
  BFloat16Features wbf;
  wbf.shaderBFloat16Type = bfloat16.shaderBFloat16Type;
  wbf.shaderBFloat16CooperativeMatrix = bfloat16.shaderBFloat16CooperativeMatrix && wcm.cooperativeMatrix;
  w12.vulkanMemoryModel = f12.vulkanMemoryModel;
  w12.vulkanMemoryModelDeviceScope = f12.vulkanMemoryModelDeviceScope;
  offer(w12.vulkanMemoryModel, "vulkanMemoryModel", 5345);
  offer(w12.vulkanMemoryModelDeviceScope, "vulkanMemoryModelDeviceScope", 5346);
  offer(wcm.cooperativeMatrix, "cooperativeMatrix", 6022);
  offer(wbf.shaderBFloat16Type, "shaderBFloat16Type", 5116);
  offer(wbf.shaderBFloat16CooperativeMatrix, "shaderBFloat16CooperativeMatrix", 5118);
  want.pNext = &w11;
  w11.pNext = &w12;
  tail = &w12.pNext;
  if (v13) *tail = &w13, tail = &w13.pNext;
  if (hasExt(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME)) wf.pNext = nullptr, *tail = &wf, tail = &wf.pNext;
  if (hasExt(VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME)) wf2.pNext = nullptr, *tail = &wf2, tail = &wf2.pNext;
  bool enableCooperative = wcm.cooperativeMatrix && w12.vulkanMemoryModel;
  bool enableBFloat16 = enableCooperative && hasBFloat16 && (wbf.shaderBFloat16Type || wbf.shaderBFloat16CooperativeMatrix);
  if (enableCooperative) {
    *tail = &wcm, tail = &wcm.pNext;
    enabledExts.push_back(kCooperativeMatrixExtension);
    if (enableBFloat16) {
      *tail = &wbf, tail = &wbf.pNext;
      enabledExts.push_back(kBFloat16Extension);
    }
    cooperativeArch_ = cooperativeMatrixArch(queryCooperativeMatrices(api_, physical_),
                                             enableBFloat16 && wbf.shaderBFloat16CooperativeMatrix);
  }
  // What is not enabled after all is refused by name (VulkanModule).
  if (!enableCooperative) features_[6022].enabled = false;
  if (!enableBFloat16) features_[5116].enabled = features_[5118].enabled = false;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR wantExecutableInfo = executableInfo;
  if (wantStats && executableInfo.pipelineExecutableInfo) {
    wantExecutableInfo.pNext = nullptr, *tail = &wantExecutableInfo, tail = &wantExecutableInfo.pNext;
    enabledExts.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    pipelineStats_ = true;
  }
  subgroupControl_ = v13 && f13.subgroupSizeControl && f13.computeFullSubgroups;

  VkPhysicalDeviceSubgroupSizeControlProperties sizes{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  subgroup.pNext = v13 ? &sizes : nullptr;
  VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  props2.pNext = &subgroup;
  api_.vkGetPhysicalDeviceProperties2(physical_, &props2);
  subgroupSize_ = subgroup.subgroupSize;
  minSubgroup_ = subgroupControl_ ? sizes.minSubgroupSize : subgroupSize_;
  maxSubgroup_ = subgroupControl_ ? sizes.maxSubgroupSize : subgroupSize_;
  if (!(subgroup.supportedOperations & VK_SUBGROUP_FEATURE_SHUFFLE_BIT) ||
      !(subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT))
    return {StatusCode::Unavailable, std::string(props_.deviceName) + " has no subgroup shuffles in compute shaders"};

  uint32_t families = 0;
  api_.vkGetPhysicalDeviceQueueFamilyProperties(physical_, &families, nullptr);
  std::vector<VkQueueFamilyProperties> fam(families);
  api_.vkGetPhysicalDeviceQueueFamilyProperties(physical_, &families, fam.data());
  bool found = false;
  for (uint32_t i = 0; i < families && !found; ++i)
    if (fam[i].queueFlags & VK_QUEUE_COMPUTE_BIT) family_ = i, found = true;
  if (!found) return {StatusCode::Unavailable, std::string(props_.deviceName) + " has no compute queue"};

  float priority = 1.0f;
  VkDeviceQueueCreateInfo q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  q.queueFamilyIndex = family_;
  q.queueCount = 1;
  q.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.pNext = &want;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &q;
  info.enabledExtensionCount = uint32_t(enabledExts.size());
  info.ppEnabledExtensionNames = enabledExts.data();
  if (Status st = check(api_.vkCreateDevice(physical_, &info, nullptr, &device_), "vkCreateDevice", StatusCode::Unavailable); !st)
    return st;
  if (Status st = loadDeviceApi(api_, device_, d_); !st) return st;
  d_.vkGetDeviceQueue(device_, family_, 0, &queue_);
  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = family_;
  if (Status st = check(d_.vkCreateCommandPool(device_, &pool, nullptr, &pool_), "vkCreateCommandPool"); !st) return st;
  default_ = std::make_unique<VulkanStream>(*this);
  return Status::ok();
}

std::string VulkanDevice::architecture() const {
  return "sg" + std::to_string(subgroupSize_) + "-" + std::to_string(props_.limits.maxComputeSharedMemorySize / 1024) + "k" +
         cooperativeArch_;
}

Status VulkanDevice::attribute(std::string_view name, int64_t &value) const {
  if (name == "warpSize") value = subgroupSize_;
  else if (name == "max_shared_mem") value = props_.limits.maxComputeSharedMemorySize;
  else if (name == "max_threads_per_block") value = props_.limits.maxComputeWorkGroupInvocations;
  else return Device::attribute(name, value);
  return Status::ok();
}

Status VulkanDevice::reclaim(bool wait, uint64_t upTo) {
  while (!inFlight_.empty()) {
    Submission &s = inFlight_.front();
    if (wait && s.sequence <= upTo) {
      if (Status st = check(d_.vkWaitForFences(device_, 1, &s.fence, VK_TRUE, UINT64_MAX), "vkWaitForFences",
                            StatusCode::LaunchFailed);
          !st)
        return st;
    } else if (d_.vkGetFenceStatus(device_, s.fence) != VK_SUCCESS) {
      break;
    }
    completed_ = s.sequence;
    free_.push_back(s);
    inFlight_.pop_front();
  }
  return Status::ok();
}

// Commands go into an open command buffer, which is submitted at once when
// the queue is idle, else when it holds kBatch submissions' worth or the
// host waits: while the GPU is busy, launches queue up in one buffer
// instead of paying vkQueueSubmit each.
constexpr int kBatch = 16;

Status VulkanDevice::submit(const std::function<void(VkCommandBuffer)> &record, uint64_t *sequence) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (Status st = reclaim(false, 0); !st) return st;
  if (!open_) {
    Submission s{};
    if (!free_.empty()) {
      s = free_.back();
      free_.pop_back();
      d_.vkResetCommandBuffer(s.cmd, 0);
      d_.vkResetFences(device_, 1, &s.fence);
    } else {
      VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      alloc.commandPool = pool_;
      alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      alloc.commandBufferCount = 1;
      if (Status st = check(d_.vkAllocateCommandBuffers(device_, &alloc, &s.cmd), "vkAllocateCommandBuffers"); !st) return st;
      VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
      if (Status st = check(d_.vkCreateFence(device_, &fence, nullptr, &s.fence), "vkCreateFence"); !st) return st;
    }
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    d_.vkBeginCommandBuffer(s.cmd, &begin);
    s.sequence = nextSequence_++;
    open_ = s;
    openCommands_ = 0;
  }
  // Everything recorded or submitted before is complete and visible first.
  // Only shader and transfer work touches buffers on the device (timestamps
  // wait for all earlier work by themselves; host reads add their own barrier,
  // see hostReadBarrier): on NVIDIA's driver an ALL_COMMANDS / MEMORY_* barrier
  // costs 10 µs more per launch.
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask =
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  d_.vkCmdPipelineBarrier(open_->cmd, stages, stages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
  record(open_->cmd);
  if (sequence) *sequence = open_->sequence;
  if (inFlight_.empty() || ++openCommands_ >= kBatch) return flush();
  return Status::ok();
}

Status VulkanDevice::flush() {
  if (!open_) return Status::ok();
  Submission s = *open_;
  open_.reset();
  if (Status st = check(d_.vkEndCommandBuffer(s.cmd), "vkEndCommandBuffer"); !st) return st;
  VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  info.commandBufferCount = 1;
  info.pCommandBuffers = &s.cmd;
  if (Status st = check(d_.vkQueueSubmit(queue_, 1, &info, s.fence), "vkQueueSubmit", StatusCode::LaunchFailed); !st) {
    free_.push_back(s);  // nothing of it runs; waiting for it waits for what is in flight only
    return st;
  }
  inFlight_.push_back(s);
  return Status::ok();
}

Status VulkanDevice::waitFor(uint64_t sequence) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (sequence <= completed_) return Status::ok();
  if (open_ && open_->sequence <= sequence)
    if (Status st = flush(); !st) return st;
  return reclaim(true, sequence);
}

Status VulkanDevice::synchronize() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (Status st = flush(); !st) return st;
  return reclaim(true, UINT64_MAX);
}

Status VulkanDevice::makeBuffer(size_t bytes, bool hostVisible, VkBuffer &buffer, VkDeviceMemory &memory, void **mapped) {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = std::max<size_t>(bytes, 4);
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (Status st = check(d_.vkCreateBuffer(device_, &info, nullptr, &buffer), "vkCreateBuffer", StatusCode::OutOfMemory); !st)
    return st;
  VkMemoryRequirements req;
  d_.vkGetBufferMemoryRequirements(device_, buffer, &req);
  // Device-local memory for kernels' buffers; host-visible, coherent for staging.
  VkMemoryPropertyFlags wanted = hostVisible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                             : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkResult result = VK_ERROR_OUT_OF_DEVICE_MEMORY;
  uint32_t chosen = 0;
  for (int pass = 0; pass < 2 && result != VK_SUCCESS; ++pass)
    for (uint32_t i = 0; i < memory_.memoryTypeCount && result != VK_SUCCESS; ++i) {
      VkMemoryPropertyFlags has = memory_.memoryTypes[i].propertyFlags;
      if (!(req.memoryTypeBits & (1u << i)) || (pass == 0 && (has & wanted) != wanted)) continue;
      if (hostVisible && !(has & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) continue;
      VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
      alloc.pNext = &flags;
      alloc.allocationSize = req.size;
      alloc.memoryTypeIndex = i;
      result = d_.vkAllocateMemory(device_, &alloc, nullptr, &memory);
      chosen = i;
    }
  if (result != VK_SUCCESS) {
    d_.vkDestroyBuffer(device_, buffer, nullptr);
    return {StatusCode::OutOfMemory, "cannot allocate " + std::to_string(bytes) + " bytes on " + name() + ": " + resultName(result)};
  }
  d_.vkBindBufferMemory(device_, buffer, memory, 0);
  *mapped = nullptr;
  VkMemoryPropertyFlags has = memory_.memoryTypes[chosen].propertyFlags;
  if ((has & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) && (has & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
    if (d_.vkMapMemory(device_, memory, 0, VK_WHOLE_SIZE, 0, mapped) != VK_SUCCESS) *mapped = nullptr;
  return Status::ok();
}

Status VulkanDevice::allocate(size_t bytes, std::unique_ptr<Buffer> &out) {
  VkBuffer buffer;
  VkDeviceMemory memory;
  void *mapped;
  if (Status st = makeBuffer(bytes, false, buffer, memory, &mapped); !st) return st;
  VkBufferDeviceAddressInfo addr{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  addr.buffer = buffer;
  uint64_t address = d_.vkGetBufferDeviceAddress(device_, &addr);
  out = std::make_unique<VulkanBuffer>(*this, buffer, memory, bytes, address, mapped);
  return Status::ok();
}

namespace {

Status checkRange(const Buffer &b, size_t offset, size_t bytes, const char *what) {
  if (!inRange(offset, bytes, b.size()))
    return {StatusCode::InvalidArgument, std::string(what) + ": " + std::to_string(bytes) + " bytes at offset " +
                                             std::to_string(offset) + " exceed the buffer's " + std::to_string(b.size())};
  return Status::ok();
}

// A host-visible buffer for one copy between host memory and a buffer that is not.
struct Staging {
  VulkanDevice &device;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void *mapped = nullptr;
  ~Staging() {
    if (mapped) device.fn().vkUnmapMemory(device.handle(), memory);
    if (buffer) device.fn().vkDestroyBuffer(device.handle(), buffer, nullptr);
    if (memory) device.fn().vkFreeMemory(device.handle(), memory, nullptr);
  }
};

} // namespace

Status VulkanDevice::copyToDevice(Buffer &dst, size_t offset, const void *src, size_t bytes, Stream *) {
  if (Status st = checkRange(dst, offset, bytes, "copyToDevice"); !st) return st;
  auto &d = static_cast<VulkanBuffer &>(dst);
  if (bytes == 0) return Status::ok();
  // Host writes happen after the work already submitted (stream order).
  if (Status st = synchronize(); !st) return st;
  if (d.mapped()) {
    std::memcpy(static_cast<char *>(d.mapped()) + offset, src, bytes);
    return Status::ok();
  }
  Staging s{*this};
  if (Status st = makeBuffer(bytes, true, s.buffer, s.memory, &s.mapped); !st) return st;
  if (!s.mapped) return {StatusCode::Internal, "no host-visible, coherent memory for staging on " + name()};
  std::memcpy(s.mapped, src, bytes);
  uint64_t seq;
  if (Status st = submit([&](VkCommandBuffer cmd) {
        VkBufferCopy region{0, offset, bytes};
        d_.vkCmdCopyBuffer(cmd, s.buffer, d.handle(), 1, &region);
      }, &seq);
      !st)
    return st;
  return waitFor(seq);
}

void VulkanDevice::printPipelineStatistics(VkPipeline pipeline, const std::string &kernel) const {
  if (!pipelineStats_ || !d_.vkGetPipelineExecutablePropertiesKHR || !d_.vkGetPipelineExecutableStatisticsKHR) return;
  VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
  info.pipeline = pipeline;
  uint32_t count = 0;
  if (d_.vkGetPipelineExecutablePropertiesKHR(device_, &info, &count, nullptr) != VK_SUCCESS) return;
  std::vector<VkPipelineExecutablePropertiesKHR> executables(count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
  d_.vkGetPipelineExecutablePropertiesKHR(device_, &info, &count, executables.data());
  for (uint32_t e = 0; e < count; ++e) {
    VkPipelineExecutableInfoKHR which{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    which.pipeline = pipeline;
    which.executableIndex = e;
    uint32_t n = 0;
    if (d_.vkGetPipelineExecutableStatisticsKHR(device_, &which, &n, nullptr) != VK_SUCCESS) continue;
    std::vector<VkPipelineExecutableStatisticKHR> stats(n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    d_.vkGetPipelineExecutableStatisticsKHR(device_, &which, &n, stats.data());
    std::string line = "tessera vulkan: kernel '" + kernel + "' (" + executables[e].name + "):";
    for (const auto &s : stats) {
      line += std::string(" ") + s.name + "=";
      switch (s.format) {
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: line += s.value.b32 ? "true" : "false"; break;
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: line += std::to_string(s.value.i64); break;
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: line += std::to_string(s.value.u64); break;
      default: line += std::to_string(s.value.f64); break;
      }
    }
    std::fprintf(stderr, "%s\n", line.c_str());
  }
}

Status VulkanDevice::safeAddress(uint64_t &out) {
  std::lock_guard<std::mutex> lock(safeMutex_);
  if (!safe_) {
    std::unique_ptr<Buffer> buffer;
    if (Status st = allocate(256, buffer); !st) return st;
    static const uint8_t zeros[256] = {};
    if (Status st = copyToDevice(*buffer, 0, zeros, sizeof zeros, nullptr); !st) return st;
    safe_ = std::move(buffer);
  }
  out = reinterpret_cast<uint64_t>(safe_->devicePointer());
  return Status::ok();
}

// Device writes become visible to the host's reads of mapped memory (after the fence).
void VulkanDevice::hostReadBarrier(VkCommandBuffer cmd) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  d_.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                          VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

Status VulkanDevice::copyToHost(void *dst, const Buffer &src, size_t offset, size_t bytes, Stream *) {
  if (Status st = checkRange(src, offset, bytes, "copyToHost"); !st) return st;
  auto &s = static_cast<const VulkanBuffer &>(src);
  if (bytes == 0) return Status::ok();
  if (s.mapped()) {
    uint64_t seq;
    if (Status st = submit([&](VkCommandBuffer cmd) { hostReadBarrier(cmd); }, &seq); !st) return st;
    if (Status st = waitFor(seq); !st) return st;
    std::memcpy(dst, static_cast<const char *>(s.mapped()) + offset, bytes);
    return Status::ok();
  }
  Staging staging{*this};
  if (Status st = makeBuffer(bytes, true, staging.buffer, staging.memory, &staging.mapped); !st) return st;
  if (!staging.mapped) return {StatusCode::Internal, "no host-visible, coherent memory for staging on " + name()};
  uint64_t seq;
  if (Status st = submit([&](VkCommandBuffer cmd) {
        VkBufferCopy region{offset, 0, bytes};
        d_.vkCmdCopyBuffer(cmd, s.handle(), staging.buffer, 1, &region);
        hostReadBarrier(cmd);
      }, &seq);
      !st)
    return st;
  if (Status st = waitFor(seq); !st) return st;
  std::memcpy(dst, staging.mapped, bytes);
  return Status::ok();
}

Status VulkanDevice::copyDeviceToDevice(Buffer &dst, size_t dstOffset, const Buffer &src, size_t srcOffset, size_t bytes,
                                        Stream *) {
  if (Status st = checkRange(dst, dstOffset, bytes, "copyDeviceToDevice"); !st) return st;
  if (Status st = checkRange(src, srcOffset, bytes, "copyDeviceToDevice"); !st) return st;
  if (bytes == 0) return Status::ok();
  auto &d = static_cast<VulkanBuffer &>(dst);
  auto &s = static_cast<const VulkanBuffer &>(src);
  return submit([&](VkCommandBuffer cmd) {
    VkBufferCopy region{srcOffset, dstOffset, bytes};
    d_.vkCmdCopyBuffer(cmd, s.handle(), d.handle(), 1, &region);
  });
}

Status VulkanDevice::createStream(std::unique_ptr<Stream> &out) {
  out = std::make_unique<VulkanStream>(*this);
  return Status::ok();
}

Status VulkanDevice::wrapNativeStream(void *, std::unique_ptr<Stream> &) {
  return {StatusCode::Unsupported, "the Vulkan backend has no native streams to wrap"};
}

Stream &VulkanDevice::defaultStream() { return *default_; }

Status VulkanDevice::createEvent(std::unique_ptr<Event> &out) {
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = 1;
  VkQueryPool pool;
  if (Status st = check(d_.vkCreateQueryPool(device_, &info, nullptr, &pool), "vkCreateQueryPool"); !st) return st;
  out = std::make_unique<VulkanEvent>(*this, pool);
  return Status::ok();
}

} // namespace vk

namespace {

class VulkanBackend final : public Backend {
public:
  Status open() {
    if (Status st = openInstance("", api_); !st) return st;
    uint32_t count = 0;
    if (Status st = check(api_.vkEnumeratePhysicalDevices(api_.instance, &count, nullptr), "vkEnumeratePhysicalDevices",
                          StatusCode::Unavailable);
        !st)
      return st;
    std::vector<VkPhysicalDevice> physical(count);
    api_.vkEnumeratePhysicalDevices(api_.instance, &count, physical.data());
    std::string why;
    for (VkPhysicalDevice p : physical) {
      VkPhysicalDeviceProperties props;
      api_.vkGetPhysicalDeviceProperties(p, &props);
      if (props.apiVersion < VK_API_VERSION_1_2) {
        why += std::string(why.empty() ? "" : "; ") + props.deviceName + " supports only Vulkan 1.0/1.1";
        continue;
      }
      physical_.push_back(p);
    }
    if (physical_.empty())
      return {StatusCode::Unavailable, "no Vulkan 1.2 device" + (why.empty() ? std::string() : " (" + why + ")")};
    devices_.resize(physical_.size());
    return Status::ok();
  }
  std::string name() const override { return "vulkan"; }
  int deviceCount() const override { return int(physical_.size()); }
  Status device(int index, Device *&out) override {
    out = nullptr;
    if (index < 0 || index >= deviceCount())
      return {StatusCode::NotFound, "no Vulkan device " + std::to_string(index) + " (there are " +
                                        std::to_string(deviceCount()) + ")"};
    std::lock_guard<std::mutex> lock(mutex_);
    auto &slot = devices_[size_t(index)];
    if (!slot) {
      auto d = std::make_unique<VulkanDevice>(api_, physical_[size_t(index)], index);
      if (Status st = d->init(); !st) return st;
      slot = std::move(d);
    }
    out = slot.get();
    return Status::ok();
  }

private:
  InstanceApi api_;
  std::vector<VkPhysicalDevice> physical_;
  std::vector<std::unique_ptr<VulkanDevice>> devices_;
  std::mutex mutex_;
};

struct Probe {
  VulkanBackend *backend = nullptr;
  Status status;
};

// Never destroyed: kernels and buffers held by Python may outlive static
// destructors, and the driver's own teardown runs at exit anyway.
const Probe &probe() {
  static const Probe *p = [] {
    auto *r = new Probe;
    auto *b = new VulkanBackend;
    r->status = b->open();
    if (r->status) r->backend = b;
    // A failed probe's backend is kept too: the loader may hold pointers into it.
    return r;
  }();
  return *p;
}

} // namespace

Backend *vulkanBackend() { return probe().backend; }
Status vulkanBackendStatus() { return probe().status; }

} // namespace tessera::runtime
