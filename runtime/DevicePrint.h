// Device print on backends whose kernels write records instead of text
// (Vulkan): a record's C format and its arguments, 8 bytes each (integers
// widened to 64 bits, doubles and pointers as bits), become the text the
// host prints.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::runtime {

// `format` as printf would print it with `args`: %d %i %u %x %X %o %c take
// the low 32 bits of their argument (64 with an l or ll modifier), %f %e
// %g %a a double, %p a pointer, %% a percent sign. A conversion without an
// argument left prints as "<missing>".
std::string formatDevicePrint(const std::string &format, const std::vector<uint64_t> &args);

} // namespace tessera::runtime
