#include "ir/Parser.h"
#include "ir/Types.h"

#include <gtest/gtest.h>

using namespace tessera::ir;

TEST(Types, AreInterned) {
  EXPECT_EQ(Type::tile({4, 8}, Type::f32()), Type::tile({4, 8}, Type::f32()));
  EXPECT_NE(Type::tile({4, 8}, Type::f32()), Type::tile({8, 4}, Type::f32()));
  EXPECT_EQ(Type::pointer(Type::f32()), Type::pointer(Type::f32(), AddressSpace::Global));
  EXPECT_NE(Type::pointer(Type::f32()), Type::pointer(Type::f32(), AddressSpace::Shared));
}

TEST(Types, ScalarQueries) {
  Type u16 = Type::scalar(ScalarKind::U16);
  EXPECT_TRUE(u16.isInteger());
  EXPECT_TRUE(u16.isUnsigned());
  EXPECT_FALSE(u16.isSigned());
  EXPECT_EQ(u16.bitWidth(), 16);
  Type bf = Type::tile({2}, Type::scalar(ScalarKind::BF16));
  EXPECT_TRUE(bf.isFloat());
  EXPECT_EQ(bf.bitWidth(), 16);
  EXPECT_EQ(bf.numElements(), 2);
  EXPECT_TRUE(Type::i1().isBool());
  EXPECT_TRUE(Type::i1().isUnsigned());
  EXPECT_EQ(Type::pointer(Type::f32()).bitWidth(), 64);
}

TEST(Types, EveryScalarPrintsAndParses) {
  for (int k = 0; k <= int(ScalarKind::F64); ++k) {
    Type t = Type::scalar(ScalarKind(k));
    EXPECT_EQ(parseType(t.str()), t) << t.str();
    Type tile = Type::tile({2, 3}, Type::pointer(t, AddressSpace::Shared));
    EXPECT_EQ(parseType(tile.str()), tile) << tile.str();
  }
}

TEST(Types, LayoutsArePartOfTheTileType) {
  const Layout *l = Layout::get("blocked", {{"order", {1, 0}}, {"warps", {4, 1}}});
  Type t = Type::tile({64, 64}, Type::f32(), l);
  EXPECT_EQ(t.str(), "tile<64x64xf32, #blocked<order = [1, 0], warps = [4, 1]>>");
  EXPECT_NE(t, Type::tile({64, 64}, Type::f32()));
  EXPECT_EQ(parseType(t.str()), t);
  EXPECT_EQ(t.layout()->param("warps")->at(0), 4);
  EXPECT_EQ(t.withElement(Type::i32()).layout(), l);
}

TEST(Types, BadTypesGetLocatedErrors) {
  std::string err;
  EXPECT_FALSE(parseType("tile<0xf32>", &err));
  EXPECT_NE(err.find("<type>:1:6: error: tile dimensions must be positive"), std::string::npos) << err;
  EXPECT_FALSE(parseType("ptr<f32, private>", &err));
  EXPECT_NE(err.find("unknown address space 'private'"), std::string::npos) << err;
  EXPECT_FALSE(parseType("tile<4xtile<4xf32>>", &err));
  EXPECT_NE(err.find("must be a scalar or a pointer"), std::string::npos) << err;
  EXPECT_FALSE(parseType("f33", &err));
  EXPECT_NE(err.find("unknown type 'f33'"), std::string::npos) << err;
}
