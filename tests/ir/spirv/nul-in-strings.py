# RUN: tessera compile %s --entry checked --signature "*fp32:16" -D BLOCK=16 --target vulkan -o %t.spv
# RUN: spirv-val --target-env vulkan1.2 %t.spv
# RUN: tessera compile %s --entry checked --signature "*fp32:16" -D BLOCK=16 --target vulkan --emit asm | FileCheck %s
# A nul inside a print format or an assert message (found by the lowering
# fuzzer): a SPIR-V literal string cannot hold one, so the text ends there,
# as the C strings of printf and assert do on the other targets.
import tessera.language as tl


def checked(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_print("a\x00b", x)
    tl.device_assert(x < 0, "bad\x00tail")
# CHECK: OpModuleProcessed "tessera.assert 1 {{.*}}nul-in-strings.py:13: device assertion failed: bad"
# CHECK: OpModuleProcessed "tessera.print 1 pid (%d, %d, %d) idx (%2lld) a"
