#include "runtime/opencl/OpenclModule.h"

#include "runtime/OpenClSpirv.h"

#include <cstring>
#include <mutex>

namespace tessera::runtime {

namespace {

// A built program, shared by its module and kernels (a Kernel may outlive its Module).
struct ClProgram {
  const ClApi *api = nullptr;
  cl::Program program = nullptr;
  SpirvModuleInfo info;
  ~ClProgram() {
    if (program) api->clReleaseProgram(program);
  }
};

class ClKernel final : public Kernel {
public:
  ClKernel(ClDevice &device, std::shared_ptr<ClProgram> program, cl::KernelHandle kernel, std::string name,
           SpirvKernelInfo info, std::unique_ptr<Buffer> record)
      : device_(device), program_(std::move(program)), kernel_(kernel), name_(std::move(name)), info_(std::move(info)),
        record_(std::move(record)) {}
  ~ClKernel() override { program_->api->clReleaseKernel(kernel_); }
  const std::string &name() const override { return name_; }
  Status launch(const LaunchConfig &config, void **args, size_t numArgs, Stream *stream) override;
  Status attribute(const std::string &name, int64_t &value) const override;

private:
  Status setArguments(void **args, size_t numArgs);
  Status assertionResult(ClStream &stream);

  ClDevice &device_;
  std::shared_ptr<ClProgram> program_;
  cl::KernelHandle kernel_;
  std::string name_;
  SpirvKernelInfo info_;
  std::unique_ptr<Buffer> record_;  // the device-assertion record, for kernels with assertions
  std::mutex mutex_;                // arguments are kernel state until the launch is enqueued
};

class ClModule final : public Module {
public:
  ClModule(ClDevice &device, std::shared_ptr<ClProgram> program) : device_(device), program_(std::move(program)) {}
  Status getKernel(const std::string &entry, size_t numArgs, std::unique_ptr<Kernel> &out) override;

private:
  ClDevice &device_;
  std::shared_ptr<ClProgram> program_;
};

std::string buildLog(const ClApi &api, cl::Program program, cl::DeviceId device) {
  size_t n = 0;
  if (api.clGetProgramBuildInfo(program, device, cl::kProgramBuildLog, 0, nullptr, &n) != cl::kSuccess || n <= 1) return "";
  std::string log(n, '\0');
  if (api.clGetProgramBuildInfo(program, device, cl::kProgramBuildLog, n, log.data(), nullptr) != cl::kSuccess) return "";
  log = log.substr(0, log.find('\0'));
  // Intel's logs can list thousands of symbols: the start says what failed.
  constexpr size_t kShown = 4096;
  if (log.size() > kShown) log = log.substr(0, kShown) + "... (" + std::to_string(log.size() - kShown) + " more bytes)";
  return log;
}

// "SPIR-V_1.2" for a module's version word (0x00010200).
std::string spirvVersionName(uint32_t word) {
  return "SPIR-V_" + std::to_string((word >> 16) & 0xFF) + "." + std::to_string((word >> 8) & 0xFF);
}

} // namespace

Status loadOpenclModule(ClDevice &device, std::string_view format, const void *binary, size_t size,
                        std::unique_ptr<Module> &out) {
  if (format != "spirv")
    return {StatusCode::Unsupported, "the OpenCL backend loads SPIR-V modules, not '" + std::string(format) + "'"};
  if (!binary || size % 4 || size < 20) return {StatusCode::LoadFailed, "a SPIR-V module is a whole number of words"};
  const auto *words = static_cast<const uint32_t *>(binary);
  auto program = std::make_shared<ClProgram>();
  program->api = &device.api();
  if (Status st = reflectOpenClSpirv(words, size / 4, program->info); !st) return st;
  if (Status st = device.checkCapabilities(program->info.capabilities); !st) return st;
  std::string version = spirvVersionName(words[1]);
  if (device.facts().ilVersion.find(version) == std::string::npos)
    return {StatusCode::Unsupported, "the module is " + version + "; " + device.name() + " takes " + device.facts().ilVersion};
  uint32_t sg = program->info.subgroupSize;
  if (sg && !device.facts().subgroupSizes.empty() && !device.supportsSubgroupSize(sg))
    return {StatusCode::LoadFailed, "the module was compiled for subgroups of " + std::to_string(sg) + " lanes, which " +
                                        device.name() + " does not run (compile with its arch, " + device.architecture() +
                                        ")"};
  const ClApi &api = device.api();
  cl::Int err = cl::kSuccess;
  program->program = api.clCreateProgramWithIL(device.context(), binary, size, &err);
  if (!program->program) return api.check(err ? err : -44, "clCreateProgramWithIL", StatusCode::LoadFailed);
  cl::DeviceId id = device.handle();
  if (cl::Int r = api.clBuildProgram(program->program, 1, &id, "", nullptr, nullptr); r != cl::kSuccess) {
    Status st = api.check(r, "clBuildProgram", StatusCode::LoadFailed);
    std::string log = buildLog(api, program->program, id);
    return {st.code(), st.message() + (log.empty() ? "" : ": " + log)};
  }
  out = std::make_unique<ClModule>(device, std::move(program));
  return Status::ok();
}

Status ClModule::getKernel(const std::string &entry, size_t numArgs, std::unique_ptr<Kernel> &out) {
  auto it = program_->info.kernels.find(entry);
  if (it == program_->info.kernels.end()) return {StatusCode::NotFound, "the SPIR-V module has no kernel '" + entry + "'"};
  const SpirvKernelInfo &info = it->second;
  if (numArgs != info.paramBytes.size())
    return {StatusCode::InvalidArgument, "kernel '" + entry + "' takes " + std::to_string(info.paramBytes.size()) +
                                             " arguments, not " + std::to_string(numArgs)};
  if (info.localSize[0] == 0) return {StatusCode::LoadFailed, "kernel '" + entry + "' has no LocalSize"};
  const ClApi &api = device_.api();
  cl::Int err = cl::kSuccess;
  cl::KernelHandle kernel = api.clCreateKernel(program_->program, entry.c_str(), &err);
  if (!kernel) return api.check(err ? err : -46, "clCreateKernel(\"" + entry + "\")", StatusCode::NotFound);
  std::unique_ptr<Buffer> record;
  if (info.assertRecord)
    if (Status st = device_.allocate(4, record); !st) {
      api.clReleaseKernel(kernel);
      return st;
    }
  out = std::make_unique<ClKernel>(device_, program_, kernel, entry, info, std::move(record));
  return Status::ok();
}

Status ClKernel::attribute(const std::string &name, int64_t &value) const {
  value = 0;
  if (name != "local_bytes") return Status::ok();
  cl::Ulong bytes = 0;
  const ClApi &api = device_.api();
  if (Status st = api.check(api.clGetKernelWorkGroupInfo(kernel_, device_.handle(), cl::kKernelPrivateMemSize, sizeof bytes,
                                                         &bytes, nullptr),
                            "clGetKernelWorkGroupInfo(CL_KERNEL_PRIVATE_MEM_SIZE)");
      !st)
    return st;
  value = int64_t(bytes);
  return Status::ok();
}

Status ClKernel::setArguments(void **args, size_t numArgs) {
  const ClApi &api = device_.api();
  for (size_t i = 0; i < numArgs; ++i) {
    std::string call = "clSetKernelArg(\"" + name_ + "\", " + std::to_string(i) + ")";
    cl::Int r;
    if (info_.paramPointer[i]) {
      void *address = nullptr;
      std::memcpy(&address, args[i], sizeof address);
      // A null pointer is a null global pointer, not an SVM address.
      r = address ? api.clSetKernelArgSVMPointer(kernel_, cl::Uint(i), address)
                  : api.clSetKernelArg(kernel_, cl::Uint(i), sizeof(void *), nullptr);
    } else {
      r = api.clSetKernelArg(kernel_, cl::Uint(i), info_.paramBytes[i], args[i]);
    }
    if (Status st = api.check(r, call, StatusCode::InvalidArgument); !st) return st;
  }
  if (!record_) return Status::ok();
  return api.check(api.clSetKernelArgSVMPointer(kernel_, cl::Uint(numArgs), record_->devicePointer()),
                   "clSetKernelArgSVMPointer(\"" + name_ + "\", assertion record)", StatusCode::InvalidArgument);
}

// The first failed assertion of the launch just enqueued, read after it
// finished (the read waits for it).
Status ClKernel::assertionResult(ClStream &stream) {
  uint32_t failed = 0;
  if (Status st = device_.copyToHost(&failed, *record_, 0, sizeof failed, &stream); !st) return st;
  if (!failed) return Status::ok();
  auto message = program_->info.assertMessages.find(failed);
  return {StatusCode::AssertFailed, message != program_->info.assertMessages.end()
                                        ? message->second
                                        : "device assertion " + std::to_string(failed) + " failed"};
}

Status ClKernel::launch(const LaunchConfig &config, void **args, size_t numArgs, Stream *stream) {
  if (Status st = checkArgs(args, numArgs, info_.paramBytes.size()); !st) return st;
  const auto &local = info_.localSize;
  size_t threads = size_t(local[0]) * local[1] * local[2];
  if (config.threadsPerProgram != int(threads))
    return {StatusCode::InvalidArgument, "launch of '" + name_ + "' with " + std::to_string(config.threadsPerProgram) +
                                             " threads per program; its module says " + std::to_string(threads)};
  if (device_.facts().maxWorkGroupSize && threads > device_.facts().maxWorkGroupSize)
    return {StatusCode::LaunchFailed, "launch of '" + name_ + "': " + std::to_string(threads) + " threads per program; " +
                                          device_.name() + " runs at most " +
                                          std::to_string(device_.facts().maxWorkGroupSize) + " (use fewer warps)"};
  for (uint32_t g : config.grid)
    if (g == 0) return Status::ok();
  ClStream *s = nullptr;
  if (Status st = device_.streamOf(stream, s); !st) return st;
  const ClApi &api = device_.api();
  std::lock_guard<std::mutex> lock(mutex_);
  if (record_) {
    static const uint32_t zero = 0;
    if (Status st = device_.copyToDevice(*record_, 0, &zero, sizeof zero, s); !st) return st;
  }
  if (Status st = setArguments(args, numArgs); !st) return st;
  // Global size = grid x work-group size in each dimension: the program id is the group id.
  const size_t global[3] = {size_t(config.grid[0]) * local[0], size_t(config.grid[1]) * local[1],
                            size_t(config.grid[2]) * local[2]};
  const size_t groupSize[3] = {local[0], local[1], local[2]};
  if (Status st = api.check(api.clEnqueueNDRangeKernel(s->queue(), kernel_, 3, nullptr, global, groupSize, 0, nullptr, nullptr),
                            "clEnqueueNDRangeKernel(\"" + name_ + "\")", StatusCode::LaunchFailed);
      !st)
    return st;
  if (!record_) return api.check(api.clFlush(s->queue()), "clFlush", StatusCode::LaunchFailed);
  return assertionResult(*s);
}

} // namespace tessera::runtime
