// The text a `print` op writes, Triton's device_print format, as printf
// formats every target shares (the CPU's dprintf, the GPUs' printf, Vulkan's
// print records):
//   no operands:  "pid (x, y, z)<prefix>"
//   per element:  "pid (x, y, z) idx (i, j)<prefix>[(operand n) ]<value>"
// A scalar's index is "()"; each index is padded to the digits of its
// dimension's last index ("idx (  7,  0)" in a 128x64 tile); "(operand n) "
// appears when the op prints more than one operand. Values: integers in
// decimal by signedness, or with `hex` as 0x and two digits per byte
// (zero-extended); floats as %f (%a with hex), pointers as %p. The frontend
// gives the prefix its final form (frontend/Builtins.cpp, devicePrint).
#pragma once

#include "ir/IR.h"

#include <string>

namespace tessera::ir {

// For `print` ops without operands.
std::string printBareFormat(const Operation &print);

// The format of one element of operand `operand`. Its arguments: the three
// program ids (i32), the element's index along each dimension of the
// operand's type (i64; none for a scalar), then the value as
// printArgumentType gives it.
std::string printElementFormat(const Operation &print, size_t operand);

// The type `elem` is passed to printf as: f64 for floats, i32 or u32 for
// integers under 32 bits (zero-extended under `hex`), else `elem` itself.
Type printArgumentType(const Type &elem, bool hex);

} // namespace tessera::ir
