// Python's text for compile-time values: str(), repr(), ascii() and
// format(value, spec) with the format-spec mini-language. f-strings in kernels
// are formatted at compile time; Triton hands them to Python, so the frontend
// must produce the text Python would (and refuse what it cannot reproduce).
#pragma once

#include "frontend/Values.h"

#include <optional>
#include <string>
#include <string_view>

namespace tessera::frontend {

// Each returns the text, or nullopt with `error` saying why Python refuses
// (in Python's own words) or why the frontend cannot produce it. Only
// compile-time values (None, bool, int, float, str, dtype, tuples of them)
// have a text.
std::optional<std::string> pythonStr(const SValue &v, std::string &error);
std::optional<std::string> pythonRepr(const SValue &v, std::string &error);
std::optional<std::string> pythonAscii(const SValue &v, std::string &error);
std::optional<std::string> pythonFormat(const SValue &v, std::string_view spec, std::string &error);

// repr() of a float: the shortest digits that read back as `v`, positional
// for decimal exponents in [-4, 16), scientific otherwise ("0.1", "1e-05").
std::string pythonFloatRepr(double v);

} // namespace tessera::frontend
