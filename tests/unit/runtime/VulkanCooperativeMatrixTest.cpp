// The Vulkan backend's spelling of a device's cooperative-matrix table
// (runtime/vulkan/CooperativeMatrix.h) and the spirv target reading it back:
// the arch a device with VK_KHR_cooperative_matrix reports must be one the
// compiler accepts, with the rows a kernel may use and no others. No device
// here: the rows are what vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR
// could return.
#include "runtime/vulkan/CooperativeMatrix.h"
#include "targets/Target.h"

#include <gtest/gtest.h>

namespace {

using tessera::runtime::vk::CooperativeMatrixProperties;
using tessera::runtime::vk::cooperativeMatrixArch;

constexpr uint32_t kF16 = 0, kF32 = 1, kF64 = 2, kS8 = 3, kS32 = 5, kU8 = 7, kU32 = 9, kBF16 = 1000141000;
constexpr uint32_t kSubgroup = 3, kWorkgroup = 2, kDevice = 1;

CooperativeMatrixProperties row(uint32_t m, uint32_t n, uint32_t k, uint32_t a, uint32_t b, uint32_t c, uint32_t r,
                                uint32_t scope = kSubgroup, bool saturating = false) {
  CooperativeMatrixProperties p;
  p.MSize = m, p.NSize = n, p.KSize = k;
  p.AType = a, p.BType = b, p.CType = c, p.ResultType = r;
  p.scope = scope;
  p.saturatingAccumulation = saturating ? VK_TRUE : VK_FALSE;
  return p;
}

// Rows like NVIDIA's driver reports on Hopper (fp16 into f16 and f32, bf16,
// int8 with and without saturation, u8, f64, a workgroup-scope row).
std::vector<CooperativeMatrixProperties> nvidiaLike() {
  return {row(16, 16, 16, kF16, kF16, kF16, kF16), row(16, 16, 16, kF16, kF16, kF32, kF32),
          row(16, 8, 16, kF16, kF16, kF32, kF32),  row(16, 16, 16, kBF16, kBF16, kF32, kF32),
          row(16, 16, 32, kS8, kS8, kS32, kS32),   row(16, 16, 32, kS8, kS8, kS32, kS32, kSubgroup, true),
          row(16, 16, 32, kU8, kU8, kU32, kU32),   row(8, 8, 4, kF64, kF64, kF64, kF64),
          row(64, 64, 16, kF16, kF16, kF32, kF32, kWorkgroup), row(16, 16, 16, kF16, kF16, kF32, kF32, kDevice),
          row(16, 16, 16, kF16, kF16, kF32, kF32)};
}

TEST(VulkanCooperativeMatrix, SpellsTheRowsKernelsMayUse) {
  // f64 rows, saturating ones, device scope and repeats are left out; bf16
  // only where the device has shaderBFloat16CooperativeMatrix.
  EXPECT_EQ(cooperativeMatrixArch(nvidiaLike(), true),
            "-cm16x16x16_f16_f16_f16_f16_sg+16x16x16_f16_f16_f32_f32_sg+16x8x16_f16_f16_f32_f32_sg+"
            "16x16x16_bf16_bf16_f32_f32_sg+16x16x32_s8_s8_s32_s32_sg+16x16x32_u8_u8_u32_u32_sg+"
            "64x64x16_f16_f16_f32_f32_wg");
  EXPECT_EQ(cooperativeMatrixArch(nvidiaLike(), false).find("bf16"), std::string::npos);
  EXPECT_EQ(cooperativeMatrixArch({}, true), "");
  EXPECT_EQ(cooperativeMatrixArch({row(8, 8, 4, kF64, kF64, kF64, kF64)}, true), "");
}

TEST(VulkanCooperativeMatrix, TheSpirvTargetAcceptsTheSpelling) {
  std::unique_ptr<tessera::targets::Target> vulkan = tessera::targets::createTarget("vulkan");
  ASSERT_TRUE(vulkan);
  tessera::targets::TargetOptions options;
  options.arch = "sg32-48k" + cooperativeMatrixArch(nvidiaLike(), true);
  // The target spells a valid arch back as it read it (and the compile
  // cache's fingerprint with it); an invalid one as "".
  EXPECT_EQ(vulkan->architecture(options), options.arch);
  EXPECT_NE(vulkan->fingerprint(options).find(options.arch), std::string::npos);
  options.arch = "sg32-48k-cm16x16x16_f16_f16_f32_f32";
  EXPECT_EQ(vulkan->architecture(options), "");
}

} // namespace
