// The target registry: every row consistent with itself and with the
// factories, names resolving to exactly one (row, flavour), and the errors.
#include "targets/Available.h"
#include "targets/Target.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace tessera::targets;

namespace {

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

TEST(TargetRegistry, RowsAreComplete) {
  const auto &rows = targetRows();
  ASSERT_FALSE(rows.empty());
  for (const TargetRow &row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_TRUE(row.name && *row.name);
    EXPECT_TRUE(row.generator && *row.generator);
    EXPECT_FALSE(row.formats.empty());
    for (const char *f : row.formats) EXPECT_TRUE(f && *f);
    ASSERT_FALSE(row.flavours.empty());
    std::set<std::string> flavours;
    for (const TargetFlavour &f : row.flavours) {
      EXPECT_TRUE(f.backend && *f.backend) << "flavour '" << f.name << "'";
      EXPECT_FALSE(f.dlpackDevices.empty()) << "flavour '" << f.name << "'";
      // A PyTorch build restriction only means something with a PyTorch device.
      if (*f.torchBuild) EXPECT_TRUE(*f.torchDevice) << "flavour '" << f.name << "'";
      EXPECT_TRUE(flavours.insert(f.name).second) << "flavour '" << f.name << "' twice";
      EXPECT_TRUE(f.deviceName && *f.deviceName) << "flavour '" << f.name << "'";
      EXPECT_TRUE(f.tritonBackend && *f.tritonBackend) << "flavour '" << f.name << "'";
      static const std::set<std::string> timers = {"host_clock", "torch_events", "device_timestamps",
                                                   "host_clock_synchronized"};
      EXPECT_TRUE(f.timer && timers.count(f.timer)) << "flavour '" << f.name << "'";
      // Torch's events need a PyTorch device to record on.
      if (f.timer && std::string(f.timer) == "torch_events") EXPECT_TRUE(*f.torchDevice) << "flavour '" << f.name << "'";
    }
    EXPECT_TRUE(row.archPrefix != nullptr);
    // Only a target with several flavours names them.
    if (row.flavours.size() == 1) EXPECT_STREQ(row.flavours[0].name, "");
    else
      for (const TargetFlavour &f : row.flavours) EXPECT_TRUE(*f.name);
  }
}

TEST(TargetRegistry, TheTargetsOfTheIssue) {
  std::vector<std::string> names = targetNames();
  EXPECT_EQ(names, (std::vector<std::string>{"cpu", "nvptx", "amdgpu", "spirv"}));
  EXPECT_TRUE(findTarget("cpu").row->present());
  EXPECT_TRUE(findTarget("nvptx").row->present());
  EXPECT_TRUE(findTarget("amdgpu").row->present());
  EXPECT_TRUE(findTarget("spirv").row->present());
}

TEST(TargetRegistry, EveryNameResolvesToOneRow) {
  std::set<std::string> seen;
  for (const TargetRow &row : targetRows()) {
    SCOPED_TRACE(row.name);
    EXPECT_TRUE(seen.insert(row.name).second) << "'" << row.name << "' names two targets";
    TargetRef self = findTarget(row.name);
    EXPECT_EQ(self.row, &row);
    EXPECT_EQ(self.flavour, &row.flavours.front());
    for (const TargetAlias &a : row.aliases) {
      EXPECT_TRUE(seen.insert(a.name).second) << "'" << a.name << "' names two targets";
      TargetRef ref = findTarget(a.name);
      ASSERT_TRUE(ref) << "alias '" << a.name << "'";
      EXPECT_EQ(ref.row, &row);
      if (*a.flavour) EXPECT_STREQ(ref.flavour->name, a.flavour);
      else EXPECT_EQ(ref.flavour, &row.flavours.front());
    }
    // Every flavour has a canonical spelling that resolves back to it.
    for (const TargetFlavour &f : row.flavours) {
      TargetRef ref{&row, &f};
      TargetRef back = findTarget(ref.canonicalName());
      EXPECT_EQ(back.row, &row) << ref.canonicalName();
      EXPECT_EQ(back.flavour, &f) << ref.canonicalName();
    }
  }
}

TEST(TargetRegistry, AliasesOfTheIssue) {
  auto backend = [](const char *name) {
    TargetRef ref = findTarget(name);
    return ref ? std::string(ref.row->name) + "/" + ref.flavour->backend : std::string("none");
  };
  EXPECT_EQ(backend("host"), "cpu/host");
  EXPECT_EQ(backend("cuda"), "nvptx/cuda");
  EXPECT_EQ(backend("hip"), "amdgpu/hip");
  EXPECT_EQ(backend("vulkan"), "spirv/vulkan");
  EXPECT_EQ(backend("level_zero"), "spirv/level_zero");
  EXPECT_EQ(backend("spirv"), "spirv/vulkan");
  EXPECT_EQ(backend("opencl"), "spirv/opencl");
  EXPECT_EQ(backend("spirv:opencl"), "spirv/opencl");
  EXPECT_EQ(backend("spirv:level_zero"), "spirv/level_zero");
  EXPECT_EQ(backend("level_zero:level_zero"), "spirv/level_zero");
  EXPECT_EQ(backend("level_zero:opencl"), "none");  // an alias's own flavour and another disagree
}

TEST(TargetRegistry, NamesThatAreNoTarget) {
  for (const char *name : {"", "gpu9000", "CPU", "cpu:", ":cpu", "cpu:vulkan", "spirv:metal", "vulkan:opencl", "nvptx:"})
    EXPECT_FALSE(findTarget(name)) << "'" << name << "'";
}

TEST(TargetRegistry, CreateTargetExactlyForPresentRows) {
  for (const TargetRow &row : targetRows()) {
    std::vector<std::string> names = {row.name};
    for (const TargetAlias &a : row.aliases) names.push_back(a.name);
    for (const std::string &name : names) {
      std::string error;
      std::unique_ptr<Target> t = createTarget(name, &error);
      EXPECT_EQ(t != nullptr, row.present()) << name << ": " << error;
      if (t) {
        EXPECT_EQ(t->name(), row.name);
        EXPECT_TRUE(error.empty()) << error;
      } else {
        EXPECT_TRUE(contains(error, "no code generator for target '" + std::string(row.name) + "'")) << error;
      }
    }
  }
}

TEST(TargetRegistry, UnknownTargetListsTheKnownOnes) {
  std::string error;
  EXPECT_TRUE(createTarget("gpu9000", &error) == nullptr);
  EXPECT_TRUE(contains(error, "unknown target 'gpu9000'")) << error;
  for (const TargetRow &row : targetRows()) {
    EXPECT_TRUE(contains(error, row.name)) << error;
    for (const TargetAlias &a : row.aliases) EXPECT_TRUE(contains(error, a.name)) << error;
  }
  EXPECT_TRUE(createTarget("gpu9000") == nullptr);  // no error wanted: still no crash
}

TEST(TargetRegistry, AvailableBackendsFollowTheTable) {
  std::vector<BackendStatus> all = availableBackends();
  ASSERT_EQ(all.size(), targetRows().size());
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].row, &targetRows()[i]);
    EXPECT_EQ(all[i].name, targetRows()[i].name);
    // Present only when the factory exists (and its LLVM backend is linked).
    if (!targetRows()[i].present()) EXPECT_FALSE(all[i].present) << all[i].name;
  }
}

} // namespace
