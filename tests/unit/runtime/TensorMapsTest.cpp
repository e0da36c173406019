// Tensor map fields (runtime/Runtime.h): the values a launch's tensor maps
// are built from, and their text form in the compile cache.
#include "runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstdint>

using namespace tessera::runtime;

TEST(TensorMapFields, ValuesMultiplyArgumentsOfEitherWidthAndTheConstant) {
  int32_t z = 4, h = -32;
  int64_t n = 4096;
  void *args[] = {&z, &h, &n};
  EXPECT_EQ((TensorMapField{{{0, 4}, {2, 8}}, 1}.value(args)), 4 * 4096);
  EXPECT_EQ((TensorMapField{{{0, 4}, {1, 4}, {2, 8}}, 1}.value(args)), -4 * 32 * 4096);  // signed
  EXPECT_EQ((TensorMapField{{}, 512}.value(args)), 512);
  EXPECT_EQ((TensorMapField{{{0, 4}}, 3}.value(args)), 12);
}

TEST(TensorMapFields, ProductsPastTwoToTheSixtyTwoSaturateWithTheirSign) {
  int64_t big = int64_t(1) << 40, negative = -(int64_t(1) << 40);
  void *args[] = {&big, &negative};
  EXPECT_EQ((TensorMapField{{{0, 8}, {0, 8}}, 1}.value(args)), int64_t(1) << 62);
  EXPECT_EQ((TensorMapField{{{0, 8}, {1, 8}}, 1}.value(args)), -(int64_t(1) << 62));
  EXPECT_EQ((TensorMapField{{{1, 8}, {1, 8}}, 1}.value(args)), int64_t(1) << 62);
}

TEST(TensorMapFields, TextRoundTrips) {
  std::vector<TensorMapField> fields = {{{{3, 4}, {4, 4}, {5, 8}}, 1}, {{}, 64}, {{{5, 8}}, 2}, {{}, 1}};
  std::string text = formatTensorMapFields(fields);
  EXPECT_EQ(text, "a3:4*a4:4*a5:8 64 2*a5:8 1");
  std::vector<TensorMapField> back = parseTensorMapFields(text);
  ASSERT_EQ(back.size(), fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    EXPECT_EQ(back[i].args, fields[i].args) << i;
    EXPECT_EQ(back[i].constant, fields[i].constant) << i;
  }
}

TEST(TensorMapFields, MalformedTextGivesFieldsBackendsRefuse) {
  for (const char *text : {"a3", "a3:5", "ax:4", "0", "-4", "12x", "a3:4**2", "99999999999999999999"}) {
    std::vector<TensorMapField> fields = parseTensorMapFields(text);
    ASSERT_EQ(fields.size(), 1u) << text;
    EXPECT_EQ(fields[0].constant, 0) << text;
  }
  EXPECT_TRUE(parseTensorMapFields("").empty());
}
