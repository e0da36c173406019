import tessera
import tessera.language as tl

PREFIX = "blk"


@tessera.jit
def checked_copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr, SCALE: tl.constexpr):
    """Copies x to y; f-strings format the compile-time values of messages."""
    tl.static_assert(BLOCK <= 1024, f"BLOCK={BLOCK} is above 1024 ({BLOCK / 1024:.1%} of it)")
    tl.static_print(f"{PREFIX!r}: {BLOCK=}, {SCALE:>{BLOCK // 64}.3f}", rf"\d{{{BLOCK:#x}}}" '!')
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.device_print(f"""{PREFIX} x[{
        BLOCK}] ({'scaled' if SCALE != 1 else 'plain'}): """, x)
    tl.device_assert(x == x, f'{PREFIX}: NaN in a block of {BLOCK:_} (scale {SCALE!s:^8})')
    tl.store(y_ptr + offs, x * SCALE, mask=offs < n)
