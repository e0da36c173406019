# RUN: not tessera compile %s --entry k --signature "*fp32:16" --target gpu9000 2>&1 | FileCheck %s
# CHECK: unknown target 'gpu9000' (known targets: cpu, nvptx, amdgpu, spirv; aliases: host, cuda, hip, vulkan, opencl, level_zero)
import tessera.language as tl


def k(p):
    tl.store(p, 1.0)
