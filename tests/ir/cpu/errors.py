# RUN: not tessera compile %s --entry k --signature "*fp32:16" --target gpu9000 2>&1 | FileCheck %s
# CHECK: unknown target 'gpu9000' (available: cpu nvptx)
import tessera.language as tl


def k(p):
    tl.store(p, 1.0)
