# RUN: tessera compile %s --entry k_randint --signature "*u32,i32" | FileCheck %s --check-prefix=INT
# RUN: tessera compile %s --entry k_rand --signature "*fp32,i32" | FileCheck %s --check-prefix=RAND
# RUN: tessera compile %s --entry k_rand64 --signature "*fp32,i64" | FileCheck %s --check-prefix=R64
# tl.rand/randn/randint/randint4x from the prelude: Philox 4x32-10 with
# Triton's constants (random.py), bit-exact with Triton.
import tessera
import tessera.language as tl

# The offsets become the first counter (the others zero); the seed is split
# into two u32 key words.
# INT-LABEL: kernel @k_randint(
# INT: %low = cast %offs : tile<16xu32>
# INT: %zero = mul %low
# INT: %seed_1 = cast %seed : u64
# INT: %seed_hi = cast %{{[0-9]+}} : u32
# INT: %seed_lo = cast %{{[0-9]+}} : u32
# One round: hi/lo products with the round constants, the key added with the
# key constants (0xCD9E8D57 = 3449720151, 0xD2511F53 = 3528531795,
# 0x9E3779B9 = 2654435769, 0xBB67AE85 = 3144134277).
# INT: constant {value = 3449720151} : u32
# INT: mulhi %{{[0-9]+}}, %zero : tile<16xu32>
# INT: constant {value = 3528531795} : u32
# INT: mulhi %{{[0-9]+}}, %low : tile<16xu32>
# INT: constant {value = 2654435769} : u32
# INT: %k0 = add %seed_lo, %{{[0-9]+}} : u32
# INT: constant {value = 3144134277} : u32
# INT: %k1 = add %seed_hi, %{{[0-9]+}} : u32
# Ten rounds, two umulhi each.
# INT-COUNT-18: mulhi
# INT-NOT: mulhi
# INT: store
# The uniform float: the int32 view, x < 0 ? -x - 1 : x, times 4.6566127342e-10.
# RAND-LABEL: kernel @k_rand(
# RAND-COUNT-20: mulhi
# RAND: bitcast %{{[0-9a-z_]+}} : tile<16xi32>
# RAND: cmp %{{.*}} {pred = "lt"} : tile<16xi1>
# RAND: select
# RAND: cast %{{[0-9a-z_]+}} : tile<16xf32>
# RAND: mul %{{.*}} : tile<16xf32>
# randn: Box-Muller over the first two words.
# RAND-COUNT-20: mulhi
# RAND: max
# RAND: log
# RAND: sqrt
# RAND: cos
# 64-bit offsets run the same 32-bit Philox, as Triton 3.6: the offset's high
# half is the second counter.
# R64-LABEL: kernel @k_rand64(
# R64: %low = cast %offs : tile<16xu32>
# R64: shr %offs, %{{[0-9]+}} : tile<16xi64>
# R64: %high = cast %{{[0-9]+}} : tile<16xu32>
# R64: constant {value = 3449720151} : u32
# R64: mul %{{.*}} : tile<16xf32>


@tessera.jit
def k_randint(X, seed):
    offs = tl.arange(0, 16)
    tl.store(X + offs, tl.randint(seed, offs))


@tessera.jit
def k_rand(X, seed):
    offs = tl.arange(0, 16)
    tl.store(X + offs, tl.rand(seed, offs) + tl.randn(seed, offs))


@tessera.jit
def k_rand64(X, seed):
    offs = tl.arange(0, 16).to(tl.int64)
    a, b, c, d = tl.randint4x(seed, offs)
    tl.store(X + tl.arange(0, 16), tl.rand(seed, offs))
