// The Vulkan backend's device, shared by VulkanBackend.cpp (devices, memory,
// streams, events) and VulkanModule.cpp (shader modules, pipelines, launch).
#pragma once

#include "runtime/Runtime.h"
#include "runtime/vulkan/VulkanApi.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>

namespace tessera::runtime::vk {

class VulkanDevice final : public Device {
public:
  VulkanDevice(const InstanceApi &api, VkPhysicalDevice physical, int index) : api_(api), physical_(physical), index_(index) {}
  ~VulkanDevice() override;
  Status init();

  std::string name() const override { return props_.deviceName; }
  std::string backend() const override { return "vulkan"; }
  int index() const override { return index_; }
  std::string architecture() const override;
  Status attribute(std::string_view name, int64_t &value) const override;

  Status allocate(size_t bytes, std::unique_ptr<Buffer> &out) override;
  Status copyToDevice(Buffer &dst, size_t offset, const void *src, size_t bytes, Stream *stream) override;
  Status copyToHost(void *dst, const Buffer &src, size_t offset, size_t bytes, Stream *stream) override;
  Status copyDeviceToDevice(Buffer &dst, size_t dstOffset, const Buffer &src, size_t srcOffset, size_t bytes,
                            Stream *stream) override;
  Status createStream(std::unique_ptr<Stream> &out) override;
  Status wrapNativeStream(void *handle, std::unique_ptr<Stream> &out) override;
  Stream &defaultStream() override;
  Status createEvent(std::unique_ptr<Event> &out) override;
  std::vector<std::string> moduleFormats() const override { return {"spirv"}; }
  Status loadModule(std::string_view format, const void *binary, size_t size, std::unique_ptr<Module> &out) override;
  Status synchronize() override;

  // Records commands (after a barrier that orders them behind everything
  // recorded before) into the open command buffer, submitted when the queue
  // is idle, after a batch, or when the host waits; `sequence` identifies
  // it for waitFor. All streams share the one queue, so work runs in
  // submission order.
  Status submit(const std::function<void(VkCommandBuffer)> &record, uint64_t *sequence = nullptr);
  // The address of 256 zeroed bytes of device memory that kernels may read
  // (masked-off loads read there instead of branching), made on first use.
  Status safeAddress(uint64_t &out);
  // Waits until submission `sequence` has finished.
  Status waitFor(uint64_t sequence);

  const DeviceApi &fn() const { return d_; }
  VkDevice handle() const { return device_; }
  const VkPhysicalDeviceProperties &properties() const { return props_; }
  uint32_t subgroupSize() const { return subgroupSize_; }
  uint32_t minSubgroupSize() const { return minSubgroup_; }
  uint32_t maxSubgroupSize() const { return maxSubgroup_; }
  bool subgroupSizeControl() const { return subgroupControl_; }
  std::mutex &mutex() { return mutex_; }

private:
  struct Submission {
    VkCommandBuffer cmd;
    VkFence fence;
    uint64_t sequence;
  };
  Status reclaim(bool wait, uint64_t upTo);
  Status flush();  // submits the open command buffer, if any
  void hostReadBarrier(VkCommandBuffer cmd);
public:
  // The driver's statistics of a new pipeline on stderr ($TESSERA_VULKAN_PIPELINE_STATS).
  bool pipelineStatistics() const { return pipelineStats_; }
  void printPipelineStatistics(VkPipeline pipeline, const std::string &kernel) const;
private:
  Status makeBuffer(size_t bytes, bool hostVisible, VkBuffer &buffer, VkDeviceMemory &memory, void **mapped);
  friend class VulkanBuffer;

  const InstanceApi &api_;
  VkPhysicalDevice physical_;
  int index_;
  VkPhysicalDeviceProperties props_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  DeviceApi d_;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t family_ = 0;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  uint32_t subgroupSize_ = 0, minSubgroup_ = 0, maxSubgroup_ = 0;
  bool subgroupControl_ = false;
  bool pipelineStats_ = false;
  // "-cm..." when kernels may use cooperative matrices (architecture()).
  std::string cooperativeArch_;
public:
  struct Feature {
    const char *name;  // the Vulkan feature ("shaderFloat64")
    bool enabled;
  };
  // Optional SPIR-V capabilities -> the feature that allows them here.
  const std::map<uint32_t, Feature> &features() const { return features_; }
private:
  std::map<uint32_t, Feature> features_;
  std::mutex safeMutex_;
  std::unique_ptr<Buffer> safe_;  // safeAddress()'s bytes
  std::deque<Submission> inFlight_;
  std::optional<Submission> open_;  // recording, not yet submitted
  int openCommands_ = 0;
  std::vector<Submission> free_;
  uint64_t nextSequence_ = 1, completed_ = 0;
  std::unique_ptr<Stream> default_;
  std::mutex mutex_;
};

class VulkanBuffer final : public Buffer {
public:
  VulkanBuffer(VulkanDevice &device, VkBuffer buffer, VkDeviceMemory memory, size_t size, uint64_t address, void *mapped)
      : device_(device), buffer_(buffer), memory_(memory), size_(size), address_(address), mapped_(mapped) {}
  ~VulkanBuffer() override;
  size_t size() const override { return size_; }
  void *devicePointer() const override { return reinterpret_cast<void *>(address_); }
  Device &device() const override { return device_; }
  VkBuffer handle() const { return buffer_; }
  void *mapped() const { return mapped_; }

private:
  VulkanDevice &device_;
  VkBuffer buffer_;
  VkDeviceMemory memory_;
  size_t size_;
  uint64_t address_;
  void *mapped_;
};

} // namespace tessera::runtime::vk
