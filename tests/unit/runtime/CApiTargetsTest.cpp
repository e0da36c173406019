// The target registry through the C API: the rows mirror targets::targetRows(),
// names resolve as the registry says, and targets without a code generator
// fail with the runtime backend they would run on.
#include "capi/CApiInternal.h"
#include "targets/Target.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

using namespace tessera;

namespace {

bool contains(const char *text, const std::string &part) { return std::string(text).find(part) != std::string::npos; }

// Compile options for a kernel that parses and type-checks on any target.
tessera_compile_options storeOne(const char *target) {
  static const char *signature[] = {"*fp32:16"};
  tessera_compile_options o{};
  o.source = "import tessera.language as tl\n\ndef k(p):\n    tl.store(p, 1.0)\n";
  o.entry = "k";
  o.signature = signature, o.num_signature = 1;
  o.target = target;
  return o;
}

} // namespace

TEST(CApiTargets, RowsMirrorTheRegistry) {
  const auto &rows = targets::targetRows();
  ASSERT_EQ(tessera_target_count(), int(rows.size()));
  for (int i = 0; i < tessera_target_count(); ++i) {
    const targets::TargetRow &row = rows[size_t(i)];
    const tessera_target_info *info = tessera_target_info_at(i);
    ASSERT_NE(info, nullptr);
    SCOPED_TRACE(row.name);
    EXPECT_EQ(info->struct_size, sizeof(tessera_target_info));
    EXPECT_STREQ(info->name, row.name);
    EXPECT_EQ(info->has_code_generator, row.present() ? 1 : 0);
    EXPECT_EQ(info->has_code_generator, tessera_target_available(row.name));
    EXPECT_STREQ(info->code_generator, row.generator);
    ASSERT_EQ(info->num_aliases, row.aliases.size());
    for (size_t a = 0; a < info->num_aliases; ++a) {
      EXPECT_STREQ(info->aliases[a], row.aliases[a].name);
      EXPECT_STREQ(info->alias_flavours[a], row.aliases[a].flavour);
    }
    ASSERT_EQ(info->num_formats, row.formats.size());
    for (size_t f = 0; f < info->num_formats; ++f) EXPECT_STREQ(info->formats[f], row.formats[f]);
    EXPECT_EQ(info->specializes_pointer_range, row.specializesPointerRange ? 1 : 0);
    EXPECT_STREQ(info->arch_prefix, row.archPrefix);
    ASSERT_EQ(info->num_flavours, row.flavours.size());
    for (size_t f = 0; f < info->num_flavours; ++f) {
      const tessera_target_flavour &c = *info->flavours[f];
      const targets::TargetFlavour &cc = row.flavours[f];
      EXPECT_EQ(c.struct_size, sizeof(tessera_target_flavour));
      EXPECT_STREQ(c.name, cc.name);
      EXPECT_STREQ(c.backend, cc.backend);
      EXPECT_STREQ(c.torch_device, cc.torchDevice);
      EXPECT_STREQ(c.torch_build, cc.torchBuild);
      ASSERT_EQ(c.num_dlpack_devices, cc.dlpackDevices.size());
      for (size_t d = 0; d < c.num_dlpack_devices; ++d) EXPECT_EQ(c.dlpack_devices[d], cc.dlpackDevices[d]);
      EXPECT_STREQ(c.device_name, cc.deviceName);
      EXPECT_EQ(c.explicit_only, cc.explicitOnly ? 1 : 0);
      EXPECT_EQ(c.stages_host_arrays, cc.stagesHostArrays ? 1 : 0);
      EXPECT_STREQ(c.timer, cc.timer);
      EXPECT_STREQ(c.triton_backend, cc.tritonBackend);
    }
  }
  EXPECT_EQ(tessera_target_info_at(-1), nullptr);
  EXPECT_EQ(tessera_target_info_at(tessera_target_count()), nullptr);
  // The same rows on every call: callers may keep the pointers.
  EXPECT_EQ(tessera_target_info_at(0), tessera_target_info_at(0));
}

TEST(CApiTargets, LookupFollowsNamesAndAliases) {
  auto found = [](const char *name) {
    int index = -1, flavour = -1;
    if (tessera_target_lookup(name, &index, &flavour) != TESSERA_SUCCESS) return std::string("none");
    const tessera_target_info *info = tessera_target_info_at(index);
    return std::string(info->name) + "/" + info->flavours[flavour]->backend;
  };
  EXPECT_EQ(found("cpu"), "cpu/host");
  EXPECT_EQ(found("cuda"), "nvptx/cuda");
  EXPECT_EQ(found("hip"), "amdgpu/hip");
  EXPECT_EQ(found("vulkan"), "spirv/vulkan");
  EXPECT_EQ(found("level_zero"), "spirv/level_zero");
  EXPECT_EQ(found("spirv:opencl"), "spirv/opencl");
  EXPECT_EQ(found("opencl"), "spirv/opencl");
  EXPECT_EQ(tessera_target_lookup("nvptx", nullptr, nullptr), TESSERA_SUCCESS);

  EXPECT_EQ(tessera_target_lookup("gpu9000", nullptr, nullptr), TESSERA_ERROR_NOT_FOUND);
  EXPECT_TRUE(contains(tessera_last_error(), "unknown target 'gpu9000'")) << tessera_last_error();
  for (int i = 0; i < tessera_target_count(); ++i)
    EXPECT_TRUE(contains(tessera_last_error(), tessera_target_info_at(i)->name)) << tessera_last_error();
  EXPECT_EQ(tessera_target_lookup(nullptr, nullptr, nullptr), TESSERA_ERROR_INVALID_ARGUMENT);
}

TEST(CApiTargets, TargetsWithoutCodeGeneratorNameTheirBackend) {
  for (const targets::TargetRow &row : targets::targetRows()) {
    if (row.present()) continue;
    std::vector<std::string> names = {row.name};
    for (const targets::TargetAlias &a : row.aliases) names.push_back(a.name);
    for (const std::string &name : names) {
      const char *backend = targets::findTarget(name).flavour->backend;
      tessera_compile_options o = storeOne(name.c_str());
      tessera_binary bin = nullptr;
      EXPECT_EQ(tessera_compile_binary(&o, &bin), TESSERA_ERROR_UNAVAILABLE) << name;
      EXPECT_TRUE(contains(tessera_last_error(), std::string("no code generator for ") + backend + " in this build (target '" + name + "')"))
          << tessera_last_error();
      tessera_kernel k = nullptr;
      EXPECT_EQ(tessera_compile(&o, &k), TESSERA_ERROR_UNAVAILABLE) << name;
      EXPECT_TRUE(contains(tessera_last_error(), std::string("no code generator for ") + backend)) << tessera_last_error();
      // The source's own errors still come first.
      o.source = "def k(:\n";
      EXPECT_EQ(tessera_compile_binary(&o, &bin), TESSERA_ERROR_COMPILATION) << name;
    }
  }
}

TEST(CApiTargets, UnknownTargetListsTheKnownOnes) {
  tessera_compile_options o = storeOne("gpu9000");
  tessera_binary bin = nullptr;
  EXPECT_EQ(tessera_compile_binary(&o, &bin), TESSERA_ERROR_UNAVAILABLE);
  EXPECT_TRUE(contains(tessera_last_error(), "unknown target 'gpu9000' (known targets: cpu, nvptx, amdgpu, spirv"))
      << tessera_last_error();
  EXPECT_EQ(tessera_target_available("gpu9000"), 0);
}
