# RUN: not tessera compile %s --entry k 2>&1 | FileCheck %s
# A file whose only "def k(" is in this comment: there is no kernel to compile.
# CHECK: driver-no-functions.py: error: no function named 'k' (found: none)
import tessera.language as tl

BLOCK = 128
