// Python's str, repr and format of compile-time values. The layout rules are
// CPython's (Python/formatter_unicode.c, and format_float_short in
// Python/pystrtod.c); the messages are Python's, so that an error reads as
// Python would word it.
#include "frontend/PythonFormat.h"

#include "frontend/Utf8.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace tessera::frontend {

namespace {

using Kind = SValue::Kind;

// Widths and precisions above this are refused rather than built: kernel
// messages are short, and a typo like {x:1000000} should not allocate.
constexpr int64_t kMaxWidth = 10000;

bool isContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Python measures widths and precisions in characters, not bytes.
int64_t codePoints(std::string_view s) {
  return static_cast<int64_t>(std::count_if(s.begin(), s.end(), [](char c) { return !isContinuationByte(c); }));
}

// The first `n` characters of UTF-8 text.
std::string_view firstCodePoints(std::string_view s, int64_t n) {
  size_t i = 0;
  for (int64_t seen = 0; i < s.size(); ++i) {
    if (isContinuationByte(s[i])) continue;
    if (seen++ == n) break;
  }
  return s.substr(0, i);
}

// Decodes the code point at s[i], advancing i; a malformed byte reads as itself.
uint32_t decodeUtf8(std::string_view s, size_t &i) {
  auto lead = static_cast<unsigned char>(s[i++]);
  size_t extra = lead < 0x80 ? 0 : (lead >> 5) == 0x6 ? 1 : (lead >> 4) == 0xE ? 2 : (lead >> 3) == 0x1E ? 3 : 0;
  uint32_t cp = extra == 0 ? lead : extra == 1 ? (lead & 0x1F) : extra == 2 ? (lead & 0x0F) : (lead & 0x07);
  for (size_t k = 0; k < extra && i < s.size() && isContinuationByte(s[i]); ++k)
    cp = (cp << 6) | (static_cast<unsigned char>(s[i++]) & 0x3F);
  return cp;
}

std::string hexEscape(uint32_t cp) {
  char buf[16];
  if (cp < 0x100) std::snprintf(buf, sizeof buf, "\\x%02x", cp);
  else if (cp < 0x10000) std::snprintf(buf, sizeof buf, "\\u%04x", cp);
  else std::snprintf(buf, sizeof buf, "\\U%08x", cp);
  return buf;
}

// repr() of a str (asciiOnly: ascii()). Python keeps printable non-ASCII
// characters as they are, which needs the Unicode database to decide beyond
// Latin-1; there the frontend refuses rather than guess.
std::optional<std::string> quoteString(std::string_view s, bool asciiOnly, std::string &error) {
  bool single = s.find('\'') != std::string_view::npos, dbl = s.find('"') != std::string_view::npos;
  char q = single && !dbl ? '"' : '\'';
  std::string out(1, q);
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = decodeUtf8(s, i);
    if (cp == static_cast<uint32_t>(q) || cp == '\\') out += '\\', out += static_cast<char>(cp);
    else if (cp == '\t') out += "\\t";
    else if (cp == '\n') out += "\\n";
    else if (cp == '\r') out += "\\r";
    else if (cp < 0x20 || cp == 0x7F) out += hexEscape(cp);
    else if (cp < 0x80) out += static_cast<char>(cp);
    else if (asciiOnly || cp <= 0xA0 || cp == 0xAD) out += hexEscape(cp);  // Latin-1's controls, no-break space, soft hyphen
    else if (cp < 0x100) appendUtf8(out, cp);
    else {
      error = "repr() of a string with characters beyond Latin-1 is not supported in kernels (which are printable "
              "depends on Python's Unicode database); use !s or ascii() (!a)";
      return std::nullopt;
    }
  }
  return out + q;
}

// The name Python gives the dtype in tl ("float32" for fp32), as repr shows it.
std::string dtypeAttrName(ir::Type t) {
  std::string name = dtypeName(t);
  if (name.rfind("fp8", 0) == 0) return "float8" + name.substr(3);
  if (name.rfind("fp", 0) == 0) return "float" + name.substr(2);
  if (name == "bf16") return "bfloat16";
  return name;
}

std::optional<std::string> text(const SValue &v, bool repr, bool asciiOnly, std::string &error) {
  switch (v.kind) {
  case Kind::None: return "None";
  case Kind::Bool: return v.b ? "True" : "False";
  case Kind::Int: return bigIntToString(v.i);
  case Kind::Float: return pythonFloatRepr(v.f);
  case Kind::Str: return repr ? quoteString(v.s, asciiOnly, error) : v.s;
  case Kind::DType:
    // As tessera.language's dtypes print: str gives Triton's name, repr the tl attribute.
    if (!repr) return dtypeName(v.type);
    if (v.type.isPointer()) return "tl.pointer_type(" + *text(SValue::dtype(v.type.pointee()), true, asciiOnly, error) + ")";
    return "tl." + dtypeAttrName(v.type);
  case Kind::Tuple: {
    // str() of a tuple is the repr of its elements.
    std::string out = "(";
    for (size_t i = 0; i < v.elems.size(); ++i) {
      std::optional<std::string> e = text(v.elems[i], true, asciiOnly, error);
      if (!e) return std::nullopt;
      out += (i ? ", " : "") + *e;
    }
    return out + (v.elems.size() == 1 ? ",)" : ")");
  }
  default:
    error = "only compile-time values can be formatted, not " + v.describe();
    return std::nullopt;
  }
}

// ---- the format-spec mini-language:
//   [[fill]align][sign]["z"]["#"]["0"][width][grouping]["." precision][type]

struct FormatSpec {
  std::string fill = " ";  // one character (UTF-8)
  char align = 0;          // '<' '>' '^' '='
  char sign = 0;           // '+' '-' ' ', or 0
  bool noNegativeZero = false;  // 'z'
  bool alternate = false;  // '#'
  int64_t width = -1;      // -1: none
  char grouping = 0;       // ',' or '_', or 0
  int64_t precision = -1;  // -1: none
  char type = 0;           // 0: none
};

bool isAlign(uint32_t c) { return c == '<' || c == '>' || c == '^' || c == '='; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Python's name of the value's type, as its format errors show it.
const char *typeName(const SValue &v) {
  switch (v.kind) {
  case Kind::Bool: return "bool";
  case Kind::Int: return "int";
  case Kind::Float: return "float";
  default: return "str";
  }
}

// Reads a width or precision at s[i]; false (error set) when it is too large.
bool readCount(std::string_view s, size_t &i, int64_t &out, bool &any, std::string &error) {
  any = false;
  int64_t n = 0;
  for (; i < s.size() && isDigit(s[i]); ++i) {
    any = true;
    if (n > kMaxWidth) continue;
    n = n * 10 + (s[i] - '0');
  }
  if (n > kMaxWidth) {
    error = "format widths and precisions above " + std::to_string(kMaxWidth) + " are not supported in kernels";
    return false;
  }
  if (any) out = n;
  return true;
}

// CPython's parse_internal_render_format_spec: `defaultType` is the type the
// value formats with when the spec names none ('s' for str, 'd' for int,
// none for float), `defaultAlign` '<' for str, '>' for numbers.
bool parseSpec(std::string_view s, const SValue &v, char defaultType, char defaultAlign, FormatSpec &out,
               std::string &error) {
  out.type = defaultType;
  out.align = defaultAlign;
  size_t i = 0;
  bool fillGiven = false, alignGiven = false;
  size_t afterFirst = 0;
  if (!s.empty()) {
    uint32_t first = decodeUtf8(s, afterFirst);
    if (afterFirst < s.size() && isAlign(static_cast<unsigned char>(s[afterFirst]))) {
      out.fill = std::string(s.substr(0, afterFirst));
      out.align = s[afterFirst];
      fillGiven = alignGiven = true;
      i = afterFirst + 1;
    } else if (isAlign(first)) {
      out.align = s[0];
      alignGiven = true;
      i = 1;
    }
  }
  if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) out.sign = s[i++];
  if (i < s.size() && s[i] == 'z') out.noNegativeZero = true, ++i;
  if (i < s.size() && s[i] == '#') out.alternate = true, ++i;
  // A '0' before the width pads numbers with zeros after their sign.
  if (!fillGiven && i < s.size() && s[i] == '0') {
    out.fill = "0";
    if (!alignGiven && defaultAlign == '>') out.align = '=';
    ++i;
  }
  bool any = false;
  if (!readCount(s, i, out.width, any, error)) return false;
  if (i < s.size() && s[i] == ',') out.grouping = ',', ++i;
  if (i < s.size() && s[i] == '_') {
    if (out.grouping) return error = "Cannot specify both ',' and '_'.", false;
    out.grouping = '_', ++i;
  }
  if (i < s.size() && s[i] == ',' && out.grouping == '_') return error = "Cannot specify both ',' and '_'.", false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!readCount(s, i, out.precision, any, error)) return false;
    if (!any) return error = "Format specifier missing precision", false;
  }
  if (s.size() - i > 1) {
    error = "Invalid format specifier '" + std::string(s) + "' for object of type '" + typeName(v) + "'";
    return false;
  }
  if (i < s.size()) out.type = s[i];
  if (out.grouping) {
    switch (out.type) {
    case 'd': case 'e': case 'f': case 'g': case 'E': case 'G': case '%': case 'F': case 0:
      break;
    case 'b': case 'o': case 'x': case 'X':
      if (out.grouping == '_') break;  // every four digits there
      [[fallthrough]];
    default:
      error = std::string("Cannot specify '") + out.grouping + "' with '" + out.type + "'.";
      return false;
    }
  }
  return true;
}

std::string repeat(const std::string &fill, int64_t n) {
  std::string out;
  for (int64_t k = 0; k < n; ++k) out += fill;
  return out;
}

// Pads `body` (of `length` characters) to the spec's width.
std::string align(const FormatSpec &spec, std::string body, int64_t length) {
  int64_t pad = spec.width - length;
  if (pad <= 0) return body;
  switch (spec.align) {
  case '<': return body + repeat(spec.fill, pad);
  case '^': return repeat(spec.fill, pad / 2) + body + repeat(spec.fill, pad - pad / 2);
  default: return repeat(spec.fill, pad) + body;
  }
}

// Digits with a separator every `group` of them (0: none), and with leading
// zeros until the result is at least `minWidth` characters wide. A zero group
// is added rather than begin with a separator (CPython's
// InsertThousandsGrouping: format(1234, "08,") is "0,001,234").
std::string groupDigits(std::string_view digits, int64_t group, char separator, int64_t minWidth) {
  std::string reversed;
  int64_t remaining = static_cast<int64_t>(digits.size());
  bool first = true;
  auto emit = [&](int64_t len) {
    int64_t chars = std::max<int64_t>(0, std::min(remaining, len));
    if (!first) reversed += separator;
    for (int64_t k = 0; k < chars; ++k) reversed += digits[static_cast<size_t>(remaining - 1 - k)];
    reversed.append(static_cast<size_t>(std::max<int64_t>(0, len - remaining)), '0');
    remaining -= chars;
    first = false;
  };
  if (group > 0) {
    while (true) {
      int64_t len = std::min(group, std::max({remaining, minWidth, int64_t(1)}));
      emit(len);
      minWidth -= len;
      if (remaining <= 0 && minWidth <= 0) break;
      minWidth -= 1;  // the separator
    }
  } else {
    emit(std::max({remaining, minWidth, int64_t(1)}));
  }
  return std::string(reversed.rbegin(), reversed.rend());
}

// A number laid out as CPython's calc_number_widths and fill_number do:
//   [padding][sign][prefix]['=' padding][digits, grouped][rest][padding]
// where `rest` is what follows the integer digits (decimal point, fraction,
// exponent, '%', or the whole text when it has no digits, as "inf").
std::string layoutNumber(const FormatSpec &spec, bool negative, std::string_view prefix, std::string_view digits,
                         std::string_view rest, int64_t group) {
  std::string sign = negative ? "-" : spec.sign == '+' ? "+" : spec.sign == ' ' ? " " : "";
  int64_t around = static_cast<int64_t>(sign.size() + prefix.size()) + codePoints(rest);
  int64_t minWidth = spec.fill == "0" && spec.align == '=' ? spec.width - around : 0;
  std::string grouped = digits.empty() ? "" : groupDigits(digits, group, spec.grouping, minWidth);
  int64_t pad = spec.width - (around + static_cast<int64_t>(grouped.size()));
  std::string before, middle, after;
  if (pad > 0) {
    switch (spec.align) {
    case '<': after = repeat(spec.fill, pad); break;
    case '^': before = repeat(spec.fill, pad / 2), after = repeat(spec.fill, pad - pad / 2); break;
    case '=': middle = repeat(spec.fill, pad); break;
    default: before = repeat(spec.fill, pad); break;
    }
  }
  return before + sign + std::string(prefix) + middle + grouped + std::string(rest) + after;
}

// printf into a string of whatever length it needs.
template <typename... Args>
std::string printfString(const char *format, Args... args) {
  int n = std::snprintf(nullptr, 0, format, args...);
  std::string out(static_cast<size_t>(std::max(n, 0)) + 1, '\0');
  std::snprintf(out.data(), out.size(), format, args...);
  out.resize(static_cast<size_t>(std::max(n, 0)));
  return out;
}

// The significant decimal digits of |x| > 0 or 0 (no trailing zeros, at least
// one digit) and the decimal point's position: |x| ~ 0.DIGITS * 10^decpt.
// significant == 0 asks for the shortest digits that read back as x.
void decimalDigits(double x, int significant, std::string &digits, int &decpt) {
  x = std::fabs(x);
  std::string s;
  if (significant == 0) {
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
    s.assign(buf, end);
  } else {
    s = printfString("%.*e", significant - 1, x);  // glibc rounds exactly, as Python's dtoa
  }
  size_t e = s.find('e');
  digits.clear();
  for (char c : s.substr(0, e))
    if (c != '.') digits += c;
  decpt = std::atoi(s.c_str() + e + 1) + 1;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  if (digits == "0") decpt = 1;
}

// PyOS_double_to_string for the modes the format types use: 'e' and 'f'
// (printf's own), and 'g' and 'r' (repr), laid out as format_float_short does.
// addDot0: positional results keep a ".0" (repr, and a spec without a type).
std::string doubleToString(double x, char mode, int precision, bool alternate, bool addDot0, bool upper) {
  if (std::isnan(x)) return upper ? "NAN" : "nan";  // Python ignores a NaN's sign
  if (std::isinf(x)) return std::string(x < 0 ? "-" : "") + (upper ? "INF" : "inf");
  if (mode == 'e' || mode == 'f') {
    std::string format = std::string("%") + (alternate ? "#" : "") + ".*" + (mode == 'e' ? (upper ? "E" : "e") : "f");
    return printfString(format.c_str(), precision, x);
  }
  if (mode == 'g' && precision == 0) precision = 1;
  std::string digits;
  int decpt = 0;
  decimalDigits(x, mode == 'r' ? 0 : precision, digits, decpt);
  bool useExponent = mode == 'r' ? decpt <= -4 || decpt > 16 : decpt <= -4 || decpt > (addDot0 ? precision - 1 : precision);
  // The output is a slice [start, end) of the digits padded with zeros on
  // both sides, with the decimal point before position decpt.
  int end = mode == 'g' && alternate ? precision : static_cast<int>(digits.size());
  int exponent = 0;
  if (useExponent) exponent = decpt - 1, decpt = 1;
  int start = decpt <= 0 ? decpt - 1 : 0;
  end = std::max(end, !useExponent && addDot0 ? decpt + 1 : decpt);
  std::string out = std::signbit(x) ? "-" : "";
  for (int k = start; k < end; ++k) {
    if (k == decpt) out += '.';
    out += k >= 0 && k < static_cast<int>(digits.size()) ? digits[static_cast<size_t>(k)] : '0';
  }
  if (decpt == end) out += '.';
  if (out.back() == '.' && !alternate) out.pop_back();
  if (useExponent) out += printfString("%c%+.02d", upper ? 'E' : 'e', exponent);
  return out;
}

std::optional<std::string> formatFloat(double x, const FormatSpec &spec, const char *type, std::string &error) {
  switch (spec.type) {
  case 0: case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case '%':
    break;
  case 'n':
    error = "the locale-dependent format type 'n' is not supported in kernels (use 'g', or 'd' for ints)";
    return std::nullopt;
  default:
    error = std::string("Unknown format code '") + spec.type + "' for object of type '" + type + "'";
    return std::nullopt;
  }
  // No type: repr's digits, or 'g' with the precision, keeping a ".0" either way.
  bool addDot0 = spec.type == 0, percent = spec.type == '%';
  char mode = spec.type == 0 ? 'r' : percent ? 'f' : static_cast<char>(spec.type | 0x20);
  int64_t precision = spec.precision;
  if (precision < 0) precision = spec.type == 0 ? 0 : 6;
  else if (mode == 'r') mode = 'g';
  bool upper = spec.type == 'E' || spec.type == 'F' || spec.type == 'G';
  std::string s = doubleToString(percent ? x * 100 : x, mode, static_cast<int>(precision), spec.alternate, addDot0, upper);
  if (percent) s += '%';
  bool negative = s[0] == '-';
  if (negative) s.erase(0, 1);
  size_t digitsEnd = 0;
  while (digitsEnd < s.size() && isDigit(s[digitsEnd])) ++digitsEnd;
  // 'z': a result that rounded to zero loses its sign (an infinity keeps it).
  bool anyDigit = false, allZero = true;
  for (char c : s) {
    if (c == 'e' || c == 'E') break;
    if (!isDigit(c)) continue;
    anyDigit = true;
    allZero &= c == '0';
  }
  if (spec.noNegativeZero && anyDigit && allZero) negative = false;
  std::string_view all(s);
  return layoutNumber(spec, negative, "", all.substr(0, digitsEnd), all.substr(digitsEnd), spec.grouping ? 3 : 0);
}

std::optional<std::string> formatInt(BigInt v, const FormatSpec &spec, const char *type, std::string &error) {
  int base = 10;
  switch (spec.type) {
  case 'd': break;
  case 'b': base = 2; break;
  case 'o': base = 8; break;
  case 'x': case 'X': base = 16; break;
  case 'c': break;
  case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case '%':
    return formatFloat(static_cast<double>(v), spec, type, error);
  case 'n':
    error = "the locale-dependent format type 'n' is not supported in kernels (use 'd')";
    return std::nullopt;
  default:
    error = std::string("Unknown format code '") + spec.type + "' for object of type '" + type + "'";
    return std::nullopt;
  }
  if (spec.precision >= 0) return error = "Precision not allowed in integer format specifier", std::nullopt;
  if (spec.noNegativeZero) return error = "Negative zero coercion (z) not allowed in integer format specifier", std::nullopt;
  if (spec.type == 'c') {
    if (spec.sign) return error = "Sign not allowed with integer format specifier 'c'", std::nullopt;
    if (spec.alternate) return error = "Alternate form (#) not allowed with integer format specifier 'c'", std::nullopt;
    if (v < 0 || v > 0x10FFFF) return error = "%c arg not in range(0x110000)", std::nullopt;
    // The character is not digits: it is laid out as the number's "rest".
    std::string ch;
    appendUtf8(ch, static_cast<uint32_t>(v));
    return layoutNumber(spec, false, "", "", ch, 0);
  }
  unsigned __int128 magnitude = v < 0 ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  const char *digitChars = spec.type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string reversed;
  do reversed += digitChars[static_cast<int>(magnitude % static_cast<unsigned>(base))];
  while ((magnitude /= static_cast<unsigned>(base)) != 0);
  std::string digits(reversed.rbegin(), reversed.rend());
  std::string prefix;
  if (spec.alternate && base != 10) prefix = std::string("0") + static_cast<char>(spec.type == 'X' ? 'X' : spec.type);
  int64_t group = !spec.grouping ? 0 : base == 10 ? 3 : 4;
  return layoutNumber(spec, v < 0, prefix, digits, "", group);
}

std::optional<std::string> formatStr(std::string_view s, const FormatSpec &spec, std::string &error) {
  if (spec.type != 's') {
    error = std::string("Unknown format code '") + spec.type + "' for object of type 'str'";
    return std::nullopt;
  }
  if (spec.sign == ' ') return error = "Space not allowed in string format specifier", std::nullopt;
  if (spec.sign) return error = "Sign not allowed in string format specifier", std::nullopt;
  if (spec.noNegativeZero) return error = "Negative zero coercion (z) not allowed in string format specifier", std::nullopt;
  if (spec.alternate) return error = "Alternate form (#) not allowed in string format specifier", std::nullopt;
  if (spec.align == '=') return error = "'=' alignment not allowed in string format specifier", std::nullopt;
  if (spec.precision >= 0) s = firstCodePoints(s, spec.precision);
  return align(spec, std::string(s), codePoints(s));
}

} // namespace

std::string pythonFloatRepr(double v) { return doubleToString(v, 'r', 0, false, true, false); }

std::optional<std::string> pythonStr(const SValue &v, std::string &error) { return text(v, false, false, error); }
std::optional<std::string> pythonRepr(const SValue &v, std::string &error) { return text(v, true, false, error); }
std::optional<std::string> pythonAscii(const SValue &v, std::string &error) { return text(v, true, true, error); }

std::optional<std::string> pythonFormat(const SValue &v, std::string_view spec, std::string &error) {
  if (spec.empty()) return pythonStr(v, error);  // format(x, "") is str(x), True included
  FormatSpec parsed;
  switch (v.kind) {
  case Kind::Str:
    if (!parseSpec(spec, v, 's', '<', parsed, error)) return std::nullopt;
    return formatStr(v.s, parsed, error);
  case Kind::Bool:
  case Kind::Int:
    if (!parseSpec(spec, v, 'd', '>', parsed, error)) return std::nullopt;
    return formatInt(v.is(Kind::Bool) ? BigInt(v.b) : v.i, parsed, typeName(v), error);
  case Kind::Float:
    if (!parseSpec(spec, v, 0, '>', parsed, error)) return std::nullopt;
    return formatFloat(v.f, parsed, "float", error);
  case Kind::None: error = "unsupported format string passed to NoneType.__format__"; return std::nullopt;
  case Kind::Tuple: error = "unsupported format string passed to tuple.__format__"; return std::nullopt;
  case Kind::DType: error = "unsupported format string passed to dtype.__format__"; return std::nullopt;
  default: return text(v, false, false, error);  // the error for values without a text
  }
}

} // namespace tessera::frontend
