// Checks a module against the op table and each op's rules. Messages name the
// op, the operand or attribute, what was expected and what was found.
#pragma once

#include "ir/IR.h"

#include <string>
#include <vector>

namespace tessera::ir {

// Returns true when the module is valid; otherwise appends one message per
// problem ("file:line:col: error: 'load' op operand #1 (mask): expected ...").
bool verifyModule(const Module &m, std::vector<std::string> *errors = nullptr);
std::string joinErrors(const std::vector<std::string> &errors);

} // namespace tessera::ir
