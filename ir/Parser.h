// Parses the textual IR (see Printer.h for the syntax). Malformed input gives a
// located error message, never a crash.
#pragma once

#include "ir/IR.h"

#include <memory>
#include <string>
#include <string_view>

namespace tessera::ir {

struct ParseResult {
  std::unique_ptr<Module> module;  // null on error
  std::string error;               // "file:line:col: error: ...\n<line>\n<caret>"
};

ParseResult parseModule(std::string_view text, std::string filename = "<input>");
// Parses a type such as "tile<16x16xf32>"; returns a null Type on error.
Type parseType(std::string_view text, std::string *error = nullptr);

} // namespace tessera::ir
