// The textual form of the IR. Syntax, by example:
//
//   module {num_warps = 4}
//   kernel @add(%x: ptr<f32> {divisibility = 16}, %n: i32) {
//     %pid = program_id {axis = 0} : i32
//     %r = for %lb, %ub, %step, %init : f32 {
//     ^bb(%i: i32, %acc: f32):
//       %s = add %acc, %acc : f32
//       yield %s
//     }
//     return
//   }
//
// An op is `results = name operands {attrs} : result types loc(...) regions`.
// Operand types are not written: every operand is defined before its use.
// Value names come from name hints (made unique per function) or are numbers.
#pragma once

#include "ir/IR.h"

#include <string>

namespace tessera::ir {

struct PrintOptions {
  bool locations = false;
};

std::string printModule(const Module &m, PrintOptions opts = {});
std::string printFunction(const Function &f, PrintOptions opts = {});
// One op without its regions, with names numbered within the op's function.
std::string printOpHeader(const Operation &op);

} // namespace tessera::ir
