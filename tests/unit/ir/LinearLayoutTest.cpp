#include "ir/LinearLayout.h"

#include <gtest/gtest.h>

#include <set>

using namespace tessera::ir;

namespace {

// All (register, lane, warp) inputs of a layout, with their output coordinates.
std::vector<std::vector<int32_t>> image(const LinearLayout &l) {
  std::vector<std::vector<int32_t>> out;
  for (int32_t w = 0; w < l.inDimSize("warp"); ++w)
    for (int32_t t = 0; t < l.inDimSize("lane"); ++t)
      for (int32_t r = 0; r < l.inDimSize("register"); ++r) out.push_back(l.apply({{"register", r}, {"lane", t}, {"warp", w}}));
  return out;
}

} // namespace

TEST(LinearLayout, Identity) {
  LinearLayout l = LinearLayout::identity1D(16, "lane", "dim0");
  for (int32_t i = 0; i < 16; ++i) EXPECT_EQ(l.apply({{"lane", i}})[0], i);
  EXPECT_TRUE(l.isInvertible());
}

TEST(LinearLayout, BlockedMatchesTritonsDefinition) {
  // 4 elements per thread along dim1, 8x4 lanes, 2x2 warps, dim1 fastest:
  // the CTA tile is 16x32, so a 32x32 tile takes it twice (in registers).
  LinearLayout l = LinearLayout::blocked({32, 32}, {1, 4}, {8, 4}, {2, 2}, {1, 0});
  EXPECT_EQ(l.inDimSize("register"), 8);
  EXPECT_EQ(l.apply({{"register", 4}}), (std::vector<int32_t>{16, 0}));
  EXPECT_EQ(l.inDimSize("lane"), 32);
  EXPECT_EQ(l.inDimSize("warp"), 4);
  // Registers are consecutive columns; lane 1 starts 4 columns later; lane 4
  // is the next row; warp 1 is 16 columns over; warp 2 is 8 rows down.
  EXPECT_EQ(l.apply({{"register", 3}}), (std::vector<int32_t>{0, 3}));
  EXPECT_EQ(l.apply({{"lane", 1}}), (std::vector<int32_t>{0, 4}));
  EXPECT_EQ(l.apply({{"lane", 4}}), (std::vector<int32_t>{1, 0}));
  EXPECT_EQ(l.apply({{"warp", 1}}), (std::vector<int32_t>{0, 16}));
  EXPECT_EQ(l.apply({{"warp", 2}}), (std::vector<int32_t>{8, 0}));
  // Every element exactly once.
  auto img = image(l);
  std::set<std::vector<int32_t>> distinct(img.begin(), img.end());
  EXPECT_EQ(distinct.size(), 32u * 32u);
  EXPECT_TRUE(l.isInvertible());
}

TEST(LinearLayout, LargerShapesRepeatInRegisters) {
  // The CTA tile is 8x16; a 32x16 shape repeats it 4 times down the rows.
  LinearLayout l = LinearLayout::blocked({32, 16}, {1, 4}, {8, 4}, {1, 1}, {1, 0});
  EXPECT_EQ(l.inDimSize("register"), 16);
  EXPECT_EQ(l.apply({{"register", 4}}), (std::vector<int32_t>{8, 0}));
  auto img = image(l);
  EXPECT_EQ(std::set<std::vector<int32_t>>(img.begin(), img.end()).size(), 32u * 16u);
}

TEST(LinearLayout, SmallerShapesBroadcast) {
  // 64 threads over a 16-element vector: four threads hold each element.
  LinearLayout l = LinearLayout::blocked({16}, {1}, {32}, {2}, {0});
  EXPECT_FALSE(l.isInvertible());
  EXPECT_TRUE(l.isSurjective());
  EXPECT_EQ(l.apply({{"lane", 16}}), (std::vector<int32_t>{0}));
  auto inv = l.invert();
  ASSERT_TRUE(inv);
  // The inverse picks the lowest owner: register 0, lane = element, warp 0.
  for (int32_t e = 0; e < 16; ++e) EXPECT_EQ(inv->apply({{"dim0", e}}), (std::vector<int32_t>{0, e, 0}));
}

TEST(LinearLayout, InverseComposesToIdentity) {
  LinearLayout l = LinearLayout::blocked({64, 32}, {2, 2}, {4, 8}, {2, 2}, {0, 1});
  auto inv = l.invert();
  ASSERT_TRUE(inv);
  LinearLayout round = l.compose(*inv);
  for (int32_t r = 0; r < 64; r += 7)
    for (int32_t c = 0; c < 32; c += 5)
      EXPECT_EQ(round.apply({{"dim0", r}, {"dim1", c}}), (std::vector<int32_t>{r, c}));
}

TEST(LinearLayout, ConversionFindsWhereEachElementLives) {
  // Row-major versus column-major ownership of a 16x16 tile by 64 threads.
  LinearLayout rows = LinearLayout::blocked({16, 16}, {1, 4}, {16, 2}, {2, 1}, {1, 0});
  LinearLayout cols = LinearLayout::blocked({16, 16}, {4, 1}, {2, 16}, {1, 2}, {0, 1});
  auto conv = rows.conversionTo(cols);
  ASSERT_TRUE(conv);
  for (int32_t w = 0; w < 2; ++w)
    for (int32_t t = 0; t < 32; ++t)
      for (int32_t r = 0; r < 4; ++r) {
        auto src = conv->apply({{"register", r}, {"lane", t}, {"warp", w}});  // (register, lane, warp) in `rows`
        auto where = rows.apply({{"register", src[0]}, {"lane", src[1]}, {"warp", src[2]}});
        EXPECT_EQ(where, cols.apply({{"register", r}, {"lane", t}, {"warp", w}}));
      }
}

TEST(LinearLayout, BadSizesThrow) {
  EXPECT_THROW(LinearLayout::identity1D(12, "lane", "dim0"), std::invalid_argument);
  EXPECT_THROW(LinearLayout::blocked({16}, {1, 1}, {32}, {1}, {0}), std::invalid_argument);
}

TEST(LinearLayout, SliceInsertPermute) {
  LinearLayout l = LinearLayout::blocked({16, 32}, {1, 4}, {4, 8}, {4, 1}, {1, 0});
  // Reducing dim1 leaves the row each thread held; threads along dim1 now share it.
  LinearLayout rows = l.sliced(1);
  EXPECT_EQ(rows.outDims().size(), 1u);
  EXPECT_EQ(rows.apply({{"lane", 8}}), (std::vector<int32_t>{1}));
  EXPECT_EQ(rows.apply({{"lane", 1}}), (std::vector<int32_t>{0}));
  // expand_dims(axis=1) then slicing gives the slice back.
  LinearLayout expanded = rows.withInsertedDim(1);
  EXPECT_EQ(expanded.outDimSize("dim1"), 1);
  EXPECT_EQ(expanded.sliced(1), rows);
  // Transposing swaps the coordinates each input reaches.
  LinearLayout t = l.permuted({1, 0});
  EXPECT_EQ(t.apply({{"lane", 1}}), (std::vector<int32_t>{4, 0}));
  EXPECT_EQ(t.outDimSize("dim0"), 32);
}

TEST(LinearLayout, ReshapedKeepsEveryThreadsElements) {
  // 16x32, 4 per thread along dim1 (the loaded tile of a full reduction), flattened to 512 and
  // split again as 8x64: every (register, lane, warp) names the same row-major element as before.
  LinearLayout l = LinearLayout::blocked({16, 32}, {1, 4}, {4, 8}, {4, 1}, {1, 0});
  for (const std::vector<int64_t> &shape : {std::vector<int64_t>{512}, std::vector<int64_t>{8, 64},
                                            std::vector<int64_t>{2, 4, 64}}) {
    std::optional<LinearLayout> r = l.reshaped(shape);
    ASSERT_TRUE(r.has_value());
    for (int32_t reg = 0; reg < l.inDimSize("register"); ++reg)
      for (int32_t lane = 0; lane < l.inDimSize("lane"); ++lane)
        for (int32_t warp = 0; warp < l.inDimSize("warp"); ++warp) {
          auto c = l.apply({{"register", reg}, {"lane", lane}, {"warp", warp}});
          auto n = r->apply({{"register", reg}, {"lane", lane}, {"warp", warp}});
          int64_t before = c[0] * 32 + c[1], after = 0;
          for (size_t d = 0; d < shape.size(); ++d) after = after * shape[d] + n[d];
          ASSERT_EQ(before, after) << "register " << reg << " lane " << lane << " warp " << warp;
        }
  }
  EXPECT_EQ(l.reshaped({512})->reshaped({16, 32}), l);
  EXPECT_FALSE(l.reshaped({256}).has_value());   // another element count
  EXPECT_FALSE(l.reshaped({3, 170}).has_value());  // not powers of two (and not 512)
}
