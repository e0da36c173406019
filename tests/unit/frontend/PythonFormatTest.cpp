// Python's str, repr and format of compile-time values. The expected texts
// are Python 3.11's own (format(value, spec) run in Python).
#include "frontend/PythonFormat.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tessera::frontend::test {
namespace {

std::string format(const SValue& v, std::string_view spec) {
  std::string error;
  std::optional<std::string> text = pythonFormat(v, spec, error);
  return text ? *text : "error: " + error;
}

std::string repr(const SValue& v) {
  std::string error;
  std::optional<std::string> text = pythonRepr(v, error);
  return text ? *text : "error: " + error;
}

TEST(PythonFormat, FormatSpecsAsPython) {
  struct Case {
    SValue value;
    const char* spec;
    const char* python;
  };
  const Case cases[] = {
      {SValue::integer(BigInt(0)), "", "0"},
      {SValue::integer(BigInt(-7)), "", "-7"},
      {SValue::integer(BigInt(12)), ">5", "   12"},
      {SValue::integer(BigInt(12)), "<5", "12   "},
      {SValue::integer(BigInt(12)), "^6", "  12  "},
      {SValue::integer(BigInt(-12)), "=+6", "-   12"},
      {SValue::integer(BigInt(12)), "+", "+12"},
      {SValue::integer(BigInt(12)), " ", " 12"},
      {SValue::integer(BigInt(-12)), " ", "-12"},
      {SValue::integer(BigInt(12)), "08b", "00001100"},
      {SValue::integer(BigInt(255)), "#x", "0xff"},
      {SValue::integer(BigInt(255)), "#X", "0XFF"},
      {SValue::integer(BigInt(255)), "#o", "0o377"},
      {SValue::integer(BigInt(5)), "#b", "0b101"},
      {SValue::integer(BigInt(-255)), "#010b", "-0b11111111"},
      {SValue::integer(BigInt(1234567)), ",", "1,234,567"},
      {SValue::integer(BigInt(1234567)), "_", "1_234_567"},
      {SValue::integer(BigInt(1234)), "08,", "0,001,234"},
      {SValue::integer(BigInt(1234)), "010,", "00,001,234"},
      {SValue::integer(BigInt(1234)), "x=10,", "xxxxx1,234"},
      {SValue::integer(BigInt(-1234)), "010_x", "-0000_04d2"},
      {SValue::integer((BigInt(1) << 64) - 1), "x", "ffffffffffffffff"},
      {SValue::integer(-(BigInt(1) << 63)), "d", "-9223372036854775808"},
      {SValue::integer(BigInt(65)), "c", "A"},
      {SValue::integer(BigInt(8364)), ">3c", "  €"},
      {SValue::integer(BigInt(5)), ".2f", "5.00"},
      {SValue::integer(BigInt(5)), "e", "5.000000e+00"},
      {SValue::integer(BigInt(5)), "%", "500.000000%"},
      {SValue::integer(BigInt(7)), "g", "7"},
      {SValue::boolean(true), "", "True"},
      {SValue::boolean(false), "", "False"},
      {SValue::boolean(true), ">5", "    1"},
      {SValue::boolean(true), "d", "1"},
      {SValue::boolean(true), ".1f", "1.0"},
      {SValue::floating(0.1), "", "0.1"},
      {SValue::floating(1.0), "", "1.0"},
      {SValue::floating(-0.0), "", "-0.0"},
      {SValue::floating(1e+16), "", "1e+16"},
      {SValue::floating(1000000000000000.0), "", "1000000000000000.0"},
      {SValue::floating(1e-05), "", "1e-05"},
      {SValue::floating(0.0001), "", "0.0001"},
      {SValue::floating(123456789.0), "_", "123_456_789.0"},
      {SValue::floating(1.5), ".3f", "1.500"},
      {SValue::floating(0.125), ".2f", "0.12"},
      {SValue::floating(2.5), ".0f", "2"},
      {SValue::floating(3.5), ".0f", "4"},
      {SValue::floating(1234.5678), ",.2f", "1,234.57"},
      {SValue::floating(1234.5678), "e", "1.234568e+03"},
      {SValue::floating(1234.5678), ".2E", "1.23E+03"},
      {SValue::floating(0.0001234), "g", "0.0001234"},
      {SValue::floating(1234567.0), "g", "1.23457e+06"},
      {SValue::floating(1e-05), "G", "1E-05"},
      {SValue::floating(100.0), ".3", "1e+02"},
      {SValue::floating(12.0), ".3", "12.0"},
      {SValue::floating(10.0), ".0", "1e+01"},
      {SValue::floating(1e+16), "#", "1.e+16"},
      {SValue::floating(1.5), "#g", "1.50000"},
      {SValue::floating(1.0), "#.0f", "1."},
      {SValue::floating(1.0), "#.0e", "1.e+00"},
      {SValue::floating(INFINITY), "", "inf"},
      {SValue::floating(-INFINITY), ">6", "  -inf"},
      {SValue::floating(std::nan("")), "E", "NAN"},
      {SValue::floating(INFINITY), "010", "0000000inf"},
      {SValue::floating(-INFINITY), "z010", "-000000inf"},
      {SValue::floating(-0.0), "z", "0.0"},
      {SValue::floating(-0.0001), "z.2f", "0.00"},
      {SValue::floating(-0.0001), ".2f", "-0.00"},
      {SValue::floating(0.5), ".1%", "50.0%"},
      {SValue::floating(0.3333333333333333), "", "0.3333333333333333"},
      {SValue::floating(0.6666666666666666), ".10g", "0.6666666667"},
      {SValue::floating(1e+300), ".3e", "1.000e+300"},
      {SValue::floating(5e-324), "", "5e-324"},
      {SValue::floating(1.7976931348623157e+308), "", "1.7976931348623157e+308"},
      {SValue::floating(123.456), "+012.2f", "+00000123.46"},
      {SValue::floating(-123.456), "^+12.1f", "   -123.5   "},
      {SValue::floating(1e+22), "", "1e+22"},
      {SValue::floating(1e+21), "f", "1000000000000000000000.000000"},
      {SValue::floating(12345.678), "012,.1f", "00,012,345.7"},
      {SValue::floating(0.0), "g", "0"},
      {SValue::floating(0.0), "e", "0.000000e+00"},
      {SValue::str("abc"), "", "abc"},
      {SValue::str("abc"), ">5", "  abc"},
      {SValue::str("abc"), "^6", " abc  "},
      {SValue::str("abc"), "*<6.2", "ab****"},
      {SValue::str("ab"), "05", "ab000"},
      {SValue::str("x"), "€^5", "€€x€€"},
      {SValue::str("é"), ">3", "  é"},
      {SValue::str("é€"), ".1", "é"},
  };
  for (const Case& c : cases)
    EXPECT_EQ(format(c.value, c.spec), c.python) << c.value.describe() << " with spec '" << c.spec << "'";
}

TEST(PythonFormat, ErrorsInPythonsWords) {
  EXPECT_EQ(format(SValue::integer(5), ".2d"), "error: Precision not allowed in integer format specifier");
  EXPECT_EQ(format(SValue::floating(5), "d"), "error: Unknown format code 'd' for object of type 'float'");
  EXPECT_EQ(format(SValue::str("a"), "d"), "error: Unknown format code 'd' for object of type 'str'");
  EXPECT_EQ(format(SValue::boolean(true), "s"), "error: Unknown format code 's' for object of type 'bool'");
  EXPECT_EQ(format(SValue::str("a"), "+"), "error: Sign not allowed in string format specifier");
  EXPECT_EQ(format(SValue::str("a"), " "), "error: Space not allowed in string format specifier");
  EXPECT_EQ(format(SValue::str("a"), "#"), "error: Alternate form (#) not allowed in string format specifier");
  EXPECT_EQ(format(SValue::str("a"), "="), "error: '=' alignment not allowed in string format specifier");
  EXPECT_EQ(format(SValue::str("a"), "z"), "error: Negative zero coercion (z) not allowed in string format specifier");
  EXPECT_EQ(format(SValue::integer(5), "z"), "error: Negative zero coercion (z) not allowed in integer format specifier");
  EXPECT_EQ(format(SValue::str("a"), ","), "error: Cannot specify ',' with 's'.");
  EXPECT_EQ(format(SValue::integer(5), ",x"), "error: Cannot specify ',' with 'x'.");
  EXPECT_EQ(format(SValue::integer(5), ",_"), "error: Cannot specify both ',' and '_'.");
  EXPECT_EQ(format(SValue::integer(5), "_,"), "error: Cannot specify both ',' and '_'.");
  EXPECT_EQ(format(SValue::integer(5), "."), "error: Format specifier missing precision");
  EXPECT_EQ(format(SValue::integer(5), "abc"), "error: Invalid format specifier 'abc' for object of type 'int'");
  EXPECT_EQ(format(SValue::none(), ">5"), "error: unsupported format string passed to NoneType.__format__");
  EXPECT_EQ(format(SValue::tuple({SValue::integer(1)}), ">5"), "error: unsupported format string passed to tuple.__format__");
  EXPECT_EQ(format(SValue::integer(-1), "c"), "error: %c arg not in range(0x110000)");
  EXPECT_EQ(format(SValue::integer(5), "+c"), "error: Sign not allowed with integer format specifier 'c'");
  // What Python would format but the frontend does not: said, never guessed.
  EXPECT_EQ(format(SValue::integer(5), "n"),
            "error: the locale-dependent format type 'n' is not supported in kernels (use 'd')");
  EXPECT_EQ(format(SValue::integer(5), "100000"),
            "error: format widths and precisions above 10000 are not supported in kernels");
  EXPECT_EQ(repr(SValue::str("\xe2\x82\xac")),
            "error: repr() of a string with characters beyond Latin-1 is not supported in kernels (which are printable "
            "depends on Python's Unicode database); use !s or ascii() (!a)");
}

TEST(PythonFormat, StrAndReprOfEachKind) {
  std::string error;
  EXPECT_EQ(*pythonStr(SValue::none(), error), "None");
  EXPECT_EQ(*pythonStr(SValue::boolean(false), error), "False");
  EXPECT_EQ(*pythonStr(SValue::integer(-(BigInt(1) << 63)), error), "-9223372036854775808");
  EXPECT_EQ(*pythonStr(SValue::floating(0.1), error), "0.1");
  EXPECT_EQ(*pythonStr(SValue::str("it's"), error), "it's");
  EXPECT_EQ(repr(SValue::str("it's")), "\"it's\"");
  EXPECT_EQ(repr(SValue::str("a'b\"c")), "'a\\'b\"c'");
  EXPECT_EQ(repr(SValue::str("\x7f\xc2\x80\xc2\xa0\xc2\xad\xc3\xa9\t\x01\\")), "'\\x7f\\x80\\xa0\\xad\xc3\xa9\\t\\x01\\\\'");
  std::string ascii;
  EXPECT_EQ(*pythonAscii(SValue::str("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), ascii), "'\\xe9\\u20ac\\U0001f600'");
  EXPECT_EQ(*pythonStr(SValue::dtype(ir::Type::f32()), error), "fp32");
  EXPECT_EQ(repr(SValue::dtype(ir::Type::f32())), "tl.float32");
  EXPECT_EQ(repr(SValue::dtype(ir::Type::scalar(ir::ScalarKind::BF16))), "tl.bfloat16");
  EXPECT_EQ(repr(SValue::dtype(ir::Type::scalar(ir::ScalarKind::F8E4M3))), "tl.float8e4nv");
  EXPECT_EQ(repr(SValue::dtype(ir::Type::pointer(ir::Type::f32()))), "tl.pointer_type(tl.float32)");
  EXPECT_EQ(*pythonStr(SValue::dtype(ir::Type::pointer(ir::Type::f32())), error), "pointer<fp32>");
  EXPECT_EQ(*pythonStr(SValue::tuple({SValue::integer(4), SValue::str("a"), SValue::floating(2.5), SValue::none()}), error),
            "(4, 'a', 2.5, None)");
  EXPECT_EQ(*pythonStr(SValue::tuple({SValue::integer(4)}), error), "(4,)");
  EXPECT_EQ(*pythonStr(SValue::tuple({}), error), "()");
  EXPECT_EQ(pythonFloatRepr(std::nan("")), "nan");
  EXPECT_EQ(pythonFloatRepr(-INFINITY), "-inf");
  EXPECT_EQ(pythonFloatRepr(2e16 + 8), "2.000000000000001e+16");
}

}  // namespace
}  // namespace tessera::frontend::test
