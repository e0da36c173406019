"""What each function of docs/language-reference.md computes in Tessera: the
page's "semantics" column, as data (name -> one or two sentences), one dict
per section of the page (TL: tl.*, MATH: tl.math, LIBDEVICE: libdevice).

tools/language_reference.py refuses to write or check the page when a
documented function has no entry here or an entry names a function the page
does not have, so the two cannot drift.

Every statement is Tessera's behaviour, checked against the frontend
(frontend/Builtins.cpp, frontend/Semantics.cpp, frontend/prelude.py,
frontend/libdevice.py), the IR's contract (the top of ir/IR.h) and the
targets' lowerings, and where in doubt by running kernels on the cpu target.
Target differences are said where they change a result; which targets
compile a function at all is the page's measured "targets" column.
Write plain sentences: no "|" (a table cell's separator) and no newlines.
"""

# The rules every function shares, stated once in the page's introduction.
COMMON = [
    "**Typing.** Functions of two or more values promote them as Triton's operators do: a Python number of a lower "
    "or equal kind (bool < int < float) takes the tile's type; otherwise fp64 > fp32 > fp16 > bf16 (fp16 with bf16 "
    "gives fp32), and integers take the wider type (mixed signedness: the unsigned one when it is at least as wide). "
    "A Python int is int32 when it fits (else uint32, int64, uint64), a Python float fp32 (fp64 outside fp32's "
    "range); a number the result type cannot hold is a compile error.",
    "**Broadcasting.** NumPy's rules: missing leading dimensions are added, then length-1 dimensions stretch. "
    "Loads and stores broadcast `mask`, `other` and `value` to the pointers' shape, from a scalar or from the same "
    "rank only.",
    "**Integers** are two's complement of their width, signed (`int*`) or unsigned (`uint*`, `int1`). `+`, `-`, `*` "
    "and `<<` wrap. `//` and `%` truncate toward zero as in C (and Triton): `-7 // 2 == -3`, `-7 % 2 == -1`; on two "
    "compile-time integers they are Python's. Division by zero, `INT_MIN // -1` and shifts by the width or more "
    "give an unspecified value, never a trap. `/` of integers is an fp32 division.",
    "**Floats** are IEEE 754, rounded to nearest even; `/` and `%` of fp16 or bf16 compute and return fp32, "
    "`%` is C's `fmod` (the dividend's sign). Comparisons with NaN are false, except `!=`. A multiply feeding an "
    "add may be contracted into an fma (`enable_fp_fusion=False` keeps them apart on the GPU targets). On nvptx "
    "an fp32 `/` is `div.full.f32` (2 ulp), as in Triton.",
    "**Math functions** said to come from the target's library use CUDA's libdevice (nvptx), ROCm's ocml "
    "(amdgpu), glibc's libmvec and LLVM (cpu) or Tessera's GLSL.std.450-based code (spirv): a few ulp; fp16 and "
    "bf16 compute in fp32 and round back. On spirv, division and square root have the device's precision "
    "(Vulkan does not promise correct rounding), and libdevice's rounding-mode functions built on them inherit it.",
    "**Memory.** A masked-off element of a load, store or atomic touches no memory. Within a program, accesses "
    "to one address by one tile element happen in program order; other elements of the tile see them after "
    "`tl.debug_barrier()`; other programs, only through atomics.",
]

_ROUND = {"rn": "to nearest even", "rz": "toward zero", "rd": "down (toward -inf)", "ru": "up (toward +inf)"}
_MODES = ("rd", "rn", "ru", "rz")
_ATOMIC = ("Where `mask` (broadcast with `pointer` and `val`) is False, memory is untouched and the result "
           "unspecified; `sem` (default `\"acq_rel\"`; `\"relaxed\"`, `\"acquire\"`, `\"release\"`) and "
           "`scope` (default `\"gpu\"`; `\"cta\"`: the program, `\"sys\"`: with the host) order it with other "
           "memory accesses.")
_LIBRARY = "from the target's library"

TL = {
    "abs": "Absolute value. Floats clear the sign bit (NaN stays NaN); signed integers wrap (the most negative "
           "value is its own absolute value); unsigned values are unchanged.",
    "add": "`x + y` with the operators' typing and broadcasting; integers wrap. `sanitize_overflow` is accepted and "
           "ignored: the checked mode (`debug=True`) checks signed overflow below 64 bits whatever it says.",
    "advance": "A copy of block pointer `base` whose offsets are moved by `offsets` (elements, one per dimension).",
    "arange": "The int32 tile `start, start + 1, ..., end - 1`; `start` and `end` are compile-time integers with "
              "`0 <= start < end <= 2**31` and `end - start` a power of two.",
    "argmax": "int32 index of the largest element along `axis` (required; `None`: of the tile flattened in "
              "row-major order). Ties go to the smallest index when `tie_break_left` (default True), else to any; "
              "NaN compares false either way, so with NaN in the input the index is unspecified. `keep_dims` keeps "
              "the axis as length 1.",
    "argmin": "int32 index of the smallest element along `axis`; otherwise as `argmax` (ties, NaN, `axis=None`, "
              "`keep_dims`).",
    "associative_scan": "Inclusive scan of `input` (a tile, or a tuple of tiles of one shape) along `axis` with "
                        "`combine_fn`, a `@jit` function of 2n values (the earlier elements', then the later's) that "
                        "returns n. It must be associative: the grouping is unspecified, but earlier elements are "
                        "always the left operands. `reverse=True` scans from the end: "
                        "`result[i] = combine_fn(result[i + 1], input[i])`.",
    "assume": "Lets the compiler assume the scalar boolean `cond` (tiles are refused); nothing checks it, and the "
              "behaviour is undefined when it is false. A compile-time False is an error.",
    "atomic_add": "Atomically adds `val` to each `*pointer` and returns the values there before. Integers wrap; "
                  "float additions round one at a time, in an order across programs that is unspecified. " + _ATOMIC +
                  " Takes 8- and 16-bit integers too (Triton refuses them); fp8 is refused.",
    "atomic_and": "Atomic bitwise AND of `val` into each `*pointer` (integers only); returns the old values. "
                  "`mask`, `sem` and `scope` as `atomic_add`'s.",
    "atomic_cas": "Atomically, per element: where `*pointer` equals `cmp` (compared as bits: -0.0 differs from 0.0, a "
                  "NaN matches its own bits) it stores `val`; returns the old value either way. `pointer`, `cmp` and "
                  "`val` broadcast together; no mask. `sem` and `scope` as `atomic_add`'s.",
    "atomic_max": "Atomic maximum of `*pointer` and `val` (integers by their signedness); returns the old values. "
                  "How a float NaN compares depends on the target (cpu keeps the number). `mask`, `sem` and "
                  "`scope` as `atomic_add`'s.",
    "atomic_min": "Atomic minimum of `*pointer` and `val`; returns the old values. As `atomic_max` otherwise.",
    "atomic_or": "Atomic bitwise OR of `val` into each `*pointer` (integers only); returns the old values. "
                 "`mask`, `sem` and `scope` as `atomic_add`'s.",
    "atomic_xchg": "Atomically stores `val` into each `*pointer` and returns the old values (fp8 too). `mask`, "
                   "`sem` and `scope` as `atomic_add`'s.",
    "atomic_xor": "Atomic bitwise XOR of `val` into each `*pointer` (integers only); returns the old values. "
                  "`mask`, `sem` and `scope` as `atomic_add`'s.",
    "bitonic_merge": "One bitonic merge network along the last dimension (a power of two, at least 2; `dim` may only "
                     "name it): a line that rises then falls, or falls then rises, comes out sorted, ascending unless "
                     "`descending`. Its compare-and-swaps are Triton's, as in `sort` (NaN as there).",
    "broadcast": "`input` and `other` broadcast to their common shape (NumPy's rules); returns the pair.",
    "broadcast_to": "`broadcast_to(input, *shape)` (the shape as arguments or one tuple): `input` broadcast to "
                    "`shape` by NumPy's rules; a scalar is splatted.",
    "cast": "Converts to `dtype`. Float to float rounds to nearest even; `fp_downcast_rounding=\"rtz\"` rounds "
            "toward zero instead, for every cast to a narrower float type (as Triton's `semantic.cast` takes it; "
            "past the largest finite value it gives that value, inf stays inf); fp8e4nv (no infinities) saturates "
            "at ±448. Float to integer truncates toward zero and saturates, NaN giving 0; integers wrap or extend "
            "by the source's signedness; to int1 is `x != 0`. `bitcast=True` reinterprets the bits (equal widths); "
            "pointers convert to and from int64.",
    "cat": "`input` then `other` (two tiles of one type) concatenated along `dim` (default 0), in that order; "
           "`can_reorder` is accepted and changes nothing.",
    "cdiv": "`(x + div - 1) // div`, the ceiling of `x / div` for `x >= 0` and `div > 0`. At run time `//` "
            "truncates toward zero, so negative operands do not give the ceiling; two compile-time integers give a "
            "compile-time result with Python's floor division.",
    "ceil": "The smallest integral value not less than `x`, exact (floats only).",
    "clamp": "`minimum(maximum(x, min), max)` for floats (`min` and `max` converted to `x`'s promoted type): when "
             "`min > max` the result is `max`. A NaN `x` gives `min` and a NaN bound is ignored, unless "
             "`propagate_nan=tl.PropagateNan.ALL`, which returns NaN.",
    "condition": "The test of a `while` loop (`while tl.condition(c):`): returns `arg` unchanged; "
                 "`disable_licm=True` keeps loop-invariant code from being hoisted out of that loop.",
    "cos": "Cosine (radians), " + _LIBRARY + ".",
    "cumprod": "Inclusive running product along `axis` (default 0; from the end with `reverse=True`). bf16 computes "
               "and returns fp32, other types keep theirs (integers wrap); `dtype` converts the input first.",
    "cumsum": "Inclusive running sum along `axis` (default 0; from the end with `reverse=True`). Integers narrower "
              "than 32 bits widen to int32 (unsigned and int1 to uint32), bf16 to fp32; `dtype` converts the input "
              "first. Float rounding depends on the grouping, which is unspecified.",
    "debug_barrier": "A barrier for all threads of the program: memory accesses before it are visible to every "
                     "element after it (on cpu a program is one thread).",
    "device_assert": "Checks `cond` for every element at run time; a failure ends the launch with "
                     "`DeviceAssertionError` naming `msg` and the source line. Always on (Triton checks only under "
                     "`TRITON_DEBUG`). With `mask`, `cond | ~mask` is checked (as Triton's): masked-off elements "
                     "pass; the two broadcast together. A compile-time False (without a run-time mask) is a "
                     "compile error.",
    "device_print": "`device_print(prefix, *args, hex=False)`: prints each element of `args` at run time in "
                    "Triton's lines, `pid (0, 0, 0) idx (  3,  0) x: 7` (each index padded to its dimension's "
                    "digits, `(operand n) ` before the value when several print, a scalar's index `()`; the "
                    "prefix made to end in `: ` and to start with a space; `hex=True`: two hex digits per byte). "
                    "Python's `print(prefix, ...)` in a kernel is the same.",
    "div_rn": "`x / y` correctly rounded to nearest even, for floats promoted as `+` does (fp16 stays fp16).",
    "dot": "Matrix product of `[M, K]` and `[K, N]` tiles (or with equal leading batch dimensions) plus `acc`. "
           "Operands share one dtype (two fp8 kinds may mix). The result type is Triton's: fp32 for fp32 and bf16 "
           "operands and fp64 (summed in fp64) for fp64 whatever `out_dtype` says, `out_dtype` (fp32 or fp16) for "
           "fp16 and fp8; `out_dtype=bfloat16` is an error. Sums run in an order the target picks. A given `acc` "
           "must have the result's dtype and be `out_dtype` (Triton's assertion: an int32 or fp64 `acc` needs "
           "`out_dtype` to say so). Integer dots give int32, saturating on NVIDIA tensor cores and wrapping "
           "elsewhere. fp32 operands follow `input_precision`: `\"tf32\"` (default; rounded to 10 mantissa bits on "
           "NVIDIA tensor cores and AMD CDNA3, exact fp32 elsewhere), `\"ieee\"`, `\"tf32x3\"`, `\"bf16x3\"`, "
           "`\"bf16x6\"`; `allow_tf32` is its older boolean form, `max_num_imprecise_acc` applies to fp8 on Hopper.",
    "dot_scaled": "Microscaled matrix product: each operand (`\"e2m1\"` packed two per uint8, along K unless "
                  "`*_k_pack=False`; `\"e4m3\"`, `\"e5m2\"`, `\"bf16\"`, `\"fp16\"`) is decoded, multiplied by "
                  "2^(scale - 127) per 32 elements along K (uint8 e8m0 scales `[M, K // 32]` and `[N, K // 32]`; "
                  "`None`: unscaled; scale 0 gives 0, 0xFF NaN) or by the scale per 16 elements (float8e4nv "
                  "scales `[M, K // 16]`, NVFP4's), "
                  "rounded to bf16 (fp16 when either format is fp16), then `tl.dot` with fp32 accumulation plus "
                  "`acc`. 3-D operands are a batch (a 2-D scale is shared by it). `out_dtype` must be fp32; "
                  "`fast_math` changes nothing.",
    "erf": "The error function, " + _LIBRARY + ".",
    "exp": "e^x. Below fp64, approximate on nvptx and amdgpu as in Triton: the hardware's 2^x of x·log2(e) (its error "
           "grows with abs(x); subnormal results flush to zero); elsewhere, and for fp64, " + _LIBRARY + ". "
           "`libdevice.exp` is never the approximation.",
    "exp2": "2^x. Below fp64, approximate on nvptx (`ex2.approx.ftz`, 2 ulp, subnormal results flushed) and amdgpu "
            "(`v_exp_f32`), as in Triton; elsewhere, and for fp64, " + _LIBRARY + ".",
    "expand_dims": "Inserts length-1 dimensions at `axis` (an int or a tuple; negative positions count from the end "
                   "of the result).",
    "fdiv": "`x / y` for floats (promoted as `+` does). By default approximate for fp32: `div.full.f32` (2 ulp) on "
            "nvptx, elsewhere a division that may use the reciprocal; `ieee_rounding=True` rounds correctly, as "
            "`div_rn`.",
    "flip": "`x` reversed along `dim` (default the last).",
    "floor": "The largest integral value not greater than `x`, exact (floats only).",
    "fma": "`x * y + z` rounded once, on every target; `x` and `y` promoted as `+` does, `z` converted to their type, "
           "all broadcast. Floats only.",
    "full": "A tile of `shape` filled with the scalar `value` (compile-time or not) converted to `dtype`.",
    "full_like": "A tile of `input`'s shape filled with the scalar `value` in `dtype` (default `input`'s).",
    "gather": "`result[..., i, ...] = src[..., index[..., i, ...], ...]` along `axis`: the result has `index`'s shape, "
              "and `index` (integers) agrees with `src` in every other dimension. An index outside "
              "`[0, src.shape[axis])` gives 0 (Triton leaves it undefined).",
    "histogram": "int32 counts of the values 0 .. `num_bins` - 1 (a power of two) in a 1-D integer tile; values "
                 "outside that range, and elements where `mask` is False, are not counted.",
    "inline_asm_elementwise": "Runs the target assembly `asm` (LLVM `constraints`) on each element, `pack` at a "
                              "time, of `args` broadcast together; returns a tile per `dtype` (a tuple for a tuple). "
                              "PTX on nvptx, AMDGCN on amdgpu, a compile error on cpu and spirv. `is_pure=True` "
                              "lets it be merged or removed like arithmetic.",
    "interleave": "`join(a, b)` with its last two dimensions merged: `a` and `b` alternate along the last "
                  "dimension (`a[0], b[0], a[1], b[1], ...`).",
    "item": "The value of a one-element tile as a scalar (a scalar comes back as it is).",
    "join": "A tile with a new last dimension of 2: `result[..., 0] = a`, `result[..., 1] = b` (promoted to one type "
            "and broadcast to one shape).",
    "load": "Reads through `pointer` (a pointer, a tile of pointers, or a block pointer's block). Where `mask` is "
            "False nothing is read and the element is `other` (converted to the element type; unspecified without "
            "it); `mask=False` reads nothing. Block pointers take `boundary_check` (dimensions masked against their "
            "shape) and `padding_option` (`\"zero\"`, the default, or `\"nan\"`) instead. `cache_modifier` and "
            "`eviction_policy` are hints; `volatile=True` makes every access happen.",
    "load_tensor_descriptor": "`load_tensor_descriptor(desc, offsets)`, as `desc.load(offsets)`: the block at "
                              "`offsets` (elements, one per dimension); elements outside the tensor read as the "
                              "descriptor's padding (0, or NaN).",
    "log": "Natural logarithm, " + _LIBRARY + " (NaN below 0, -inf at 0).",
    "log2": "Base-2 logarithm, " + _LIBRARY + ".",
    "make_block_ptr": "A block pointer for `tl.load`, `tl.store` and `tl.advance`: the `block_shape` block at "
                      "`offsets` of the tensor at scalar pointer `base` with `shape` and `strides` (elements). Only "
                      "the dimensions an access's `boundary_check` names are masked against `shape`; `order` changes "
                      "nothing.",
    "make_tensor_descriptor": "A descriptor of the tensor at `base` with `shape` and `strides` (elements) whose "
                              "`load(offsets)` reads a `block_shape` block, padding what lies outside with 0 (or NaN, "
                              "`padding_option=\"nan\"`), and whose `store(offsets, value)` writes its in-bounds part. "
                              "Block rows need at least 16 bytes. On sm_90a it may be copied with TMA "
                              "(differences-from-triton.md says when), elsewhere by masked accesses: the same values.",
    "map_elementwise": "`map_elementwise(scalar_fn, *args, pack=1)`: the `@jit` function applied to each element of "
                       "`args` (broadcast together), `pack` consecutive elements per call (a power of two up to 16); "
                       "returns its result tile(s). The function runs on whole tiles, so an `if` on an element's "
                       "value runs both branches: it may not store, use atomics, or loop on such a condition.",
    "max": "The largest element along `axis` (`None`: the whole tile). Without indices, NaN is ignored unless every "
           "element is NaN, and bf16 and types narrower than 32 bits reduce and return fp32 or int32. "
           "`return_indices=True` returns (values, int32 indices) as `argmax` finds them (ties to the smallest index "
           "unless `return_indices_tie_break_left=False`; NaN unordered), bf16 values as fp32. `keep_dims` keeps "
           "the axis as length 1.",
    "max_constancy": "A hint: along dimension d, `input`'s elements are equal in runs of `values[d]` (one value per "
                     "dimension). Returns `input` (variables holding it see the hint too); a false hint is undefined "
                     "behaviour.",
    "max_contiguous": "A hint: along dimension d, `input` holds runs of `values[d]` consecutive integers "
                      "(`x, x + 1, ...`). Returns `input`; a false hint is undefined behaviour.",
    "maximum": "Elementwise maximum, promoted and broadcast as `+` does; integers by their signedness. A float NaN "
               "is ignored (NaN only when both are) unless `propagate_nan=tl.PropagateNan.ALL`, which returns NaN "
               "when either is; between -0.0 and 0.0 either may come back.",
    "min": "The smallest element along `axis`; otherwise as `max` (NaN ignored, widening, `return_indices`, "
           "`keep_dims`).",
    "minimum": "Elementwise minimum; otherwise as `maximum` (NaN, `propagate_nan`, signedness).",
    "mul": "`x * y` with the operators' typing and broadcasting; integers wrap. `sanitize_overflow` is ignored, as "
           "`add`'s.",
    "multiple_of": "A hint: `input`'s elements are multiples of `values[d]` (one value per dimension, as in "
                   "`tl.multiple_of(offs, 16)`). Returns `input` (variables holding it see the hint too); a false "
                   "hint is undefined behaviour.",
    "next_power_of_2": "The smallest power of two not below the compile-time integer `n` (1 for `n <= 1`), at "
                       "compile time.",
    "num_programs": "The number of programs in the launch grid along `axis` (0, 1 or 2), int32.",
    "pair_uniform_to_normal": "Box-Muller: two standard normal tiles from uniforms `u1`, `u2` in [0, 1): "
                              "`r = sqrt(-2 ln max(u1, 1e-7))`, returns `(r cos 2πu2, r sin 2πu2)`.",
    "permute": "`permute(input, *dims)` (dims as arguments or one tuple): result dimension i is `input`'s dimension "
               "`dims[i]`; `dims` lists every dimension once.",
    "philox": "Philox 4x32 (32-bit counters) or 4x64 (64-bit counters) of `n_rounds` rounds on counters `c0..c3`, "
              "keyed by integer `seed` (its low and high 32 bits; 64-bit counters: the seed and 0); returns four "
              "uint32 or uint64 tiles. Bit-exact with Triton's.",
    "philox_impl": "The Philox rounds themselves on uint32 or uint64 counters `c0..c3` and keys `k0`, `k1`; "
                   "returns the four new counters.",
    "program_id": "This program's index along `axis` (0, 1 or 2) of the launch grid, int32 in "
                  "`[0, num_programs(axis))`.",
    "rand": "Uniform fp32 values in [0, 1), one per element of `offset` (int32 or int64), from Philox keyed by "
            "`seed`: the same seed and offset give the same value, bit-exact with Triton's.",
    "rand4x": "Four independent uniform fp32 tiles in [0, 1) per element of `offsets` (one Philox call).",
    "randint": "A random uint32 per element of `offset` (64-bit offsets too): the first of `randint4x`'s.",
    "randint4x": "The four 32-bit Philox outputs for counters `(offset's low 32 bits, its high 32 bits or 0, 0, 0)` "
                 "keyed by `seed`, as Triton 3.6: four uint32 tiles.",
    "randn": "Standard normal fp32 values, one per element of `offset` (Box-Muller on two Philox outputs).",
    "randn4x": "Four standard normal fp32 tiles per element of `offset` (Box-Muller on the four Philox outputs).",
    "range": "`tl.range(arg1, arg2=None, step=None, num_stages=None, loop_unroll_factor=None, "
             "warp_specialize=False, flatten=False, disallow_acc_multi_buffer=False, disable_licm=False)`: a runtime "
             "`for` loop's iterator (Python's `range` in a kernel is the same) with Python's bounds, `step` positive "
             "or a compile-time negative; the variable is int32 or the bounds' wider type. "
             "`num_stages` pipelines, `loop_unroll_factor` unrolls, `warp_specialize` adds a producer warp on "
             "sm_90a, `disable_licm` stops hoisting; `flatten` and `disallow_acc_multi_buffer` change nothing.",
    "ravel": "`ravel(x, can_reorder=False)`: `x` as 1-D, in row-major order (any order with `can_reorder=True`).",
    "reduce": "Reduces `input` (a tile, or a tuple of tiles of one shape) along `axis` (`None`: all elements) with "
              "`combine_fn`, a `@jit` function of 2n values returning n. Its grouping and order are unspecified: it "
              "must be associative, and commutative for a deterministic result. `keep_dims` keeps the axis as "
              "length 1.",
    "reduce_or": "Bitwise OR of the elements along `axis` (`None`: all), for integers, in their own type.",
    "reshape": "`reshape(input, *shape, can_reorder=False)`: the same elements in row-major order laid out as "
               "`shape` (as arguments or one tuple; equal element counts); `can_reorder=True` lets the order change.",
    "rsqrt": "1 / sqrt(x). Below fp64 approximate on nvptx (`rsqrt.approx.f32`, about 2 ulp), as in Triton; "
             "elsewhere sqrt then division, each rounded.",
    "sigmoid": "`1 / (1 + tl.exp(-x))`, approximate where `tl.exp` and fp32 `/` are; fp16 and bf16 give fp32, as "
               "Triton's typing of `1 / x` does.",
    "sin": "Sine (radians), " + _LIBRARY + ".",
    "softmax": "`exp(x - max(x)) / sum(exp(x - max(x)))` along `dim` (`None`: 0, not the whole tile) with `tl.exp` "
               "and `tl.fdiv(..., ieee_rounding)`; fp16 and bf16 give fp32. As in Triton, the intermediate "
               "reductions keep the axis only with `keep_dims=True`, so another `dim` than 0 needs it: without, a "
               "2-D tile fails to broadcast, or computes wrong values when square.",
    "sort": "`x` sorted along `dim` (default the last; its length a power of two), ascending unless `descending`, "
            "by Triton's bitonic network. Each compare-and-swap is Triton's: an element takes its partner's value "
            "where (element > partner) differs from (the pair is to descend xor the element is the upper one), so "
            "a pair with a NaN (which compares false) becomes two copies of one of its values, as -0.0 and 0.0 "
            "do: with NaN the result is Triton's, not a permutation of `x`.",
    "split": "The inverse of `join`: a tile whose last dimension is 2 as the pair `(a[..., 0], a[..., 1])` (a "
             "`[2]` tile gives two scalars).",
    "sqrt": "Square root, correctly rounded on cpu, nvptx and amdgpu (Triton's is `sqrt.approx` on NVIDIA).",
    "sqrt_rn": "Square root correctly rounded to nearest even (as `sqrt`).",
    "squeeze": "`x` without its dimension `dim`, which must have length 1.",
    "static_assert": "Fails the compilation with `msg` when the compile-time `cond` is false.",
    "static_print": "`static_print(*values)`: prints them to stderr while compiling (compile-time values as such, "
                    "runtime ones as their types).",
    "static_range": "`tl.static_range(arg1, arg2=None, step=None)`: a `for` loop unrolled at compile time (at most "
                    "4096 iterations) over compile-time integers; the variable is a compile-time integer and `break` "
                    "and `continue` may depend on compile-time conditions.",
    "store": "Writes `value` (converted to the element type with `cast`'s rules and broadcast to the pointers' "
             "shape) through `pointer` (a pointer, a tile of pointers, or a block pointer's block). Where `mask` is "
             "False nothing is written; block pointers take `boundary_check` instead. `cache_modifier` and "
             "`eviction_policy` are hints. A pointer value may be stored as an int64 address.",
    "store_tensor_descriptor": "`store_tensor_descriptor(desc, offsets, value)`, as `desc.store(offsets, value)`: "
                               "writes the in-bounds part of the block at `offsets`.",
    "sub": "`x - y` with the operators' typing and broadcasting; integers wrap. `sanitize_overflow` is ignored, as "
           "`add`'s.",
    "sum": "The sum along `axis` (`None`: all elements), in an unspecified order. Integers narrower than 32 bits "
           "widen to int32 (unsigned and int1 to uint32); floats keep their type; `dtype` converts the input first. "
           "`keep_dims` keeps the axis as length 1.",
    "swizzle2d": "Renumbers a `size_i` x `size_j` grid so that consecutive row-major indices `i * size_j + j` walk "
                 "down columns within bands of `size_g` rows (the last band may be shorter): returns "
                 "`(new_i, new_j)`, the grouped ordering that improves L2 reuse in matmuls.",
    "to_tensor": "`x` as a tensor: a Python number becomes a scalar of its default type (int32, fp32, ...).",
    "topk": "The `k` largest values (smallest unless `descending`) along the last dimension, sorted; `k` is a "
            "power of two no larger than that dimension. Triton's bitonic top-k: runs of `k` sorted by `sort`'s "
            "network, then pairs of runs reduced by `max` (`min`), which drops NaN and widens 8- and 16-bit "
            "values to 32 bits (the result's type when `k` is less than the dimension, as in Triton), and merged.",
    "trans": "`trans(input, *dims)`: `permute` by `dims`; without them the last two dimensions swap.",
    "uint_to_uniform_float": "A 32- or 64-bit random integer mapped to fp32 in [0, 1): read as signed, a negative "
                             "`x` becomes `-x - 1`, which converts to fp32 and is multiplied by 4.6566127342e-10 "
                             "(1.0842020432385337e-19 for 64 bits), staying below 1.",
    "umulhi": "The high half of the 2N-bit product of two N-bit integers, as unsigned whatever their signedness "
              "(the bits come back in the operands' type).",
    "unsqueeze": "`x` with a length-1 dimension inserted at `dim` (`expand_dims`).",
    "view": "`view(input, *shape)`: `reshape` that may reorder the elements (`can_reorder=True`).",
    "where": "`x` where `condition` (nonzero) holds, else `y`, elementwise; `x` and `y` promoted as `+` does and all "
             "three broadcast. A compile-time condition returns `x` or `y` as it is.",
    "xor_sum": "Bitwise XOR of the elements along `axis` (`None`: all), for integers; narrower than 32 bits widen as "
               "in `sum`; `dtype` converts the input first.",
    "zeros": "A tile of `shape` filled with 0 of `dtype`.",
    "zeros_like": "A tile of 0 with `input`'s shape and dtype.",
}

# tl.math's names are tl's functions (the frontend resolves tl.math.<name> to tl.<name>).
MATH = {name: "The same function as `tl.%s`." % name for name in (
    "abs", "ceil", "clamp", "cos", "div_rn", "erf", "exp", "exp2", "fdiv", "floor", "fma", "log", "log2", "max",
    "maximum", "min", "minimum", "rsqrt", "sigmoid", "sin", "sqrt", "sqrt_rn", "umulhi")}

LIBDEVICE = {
    # ---- the tl functions under their libdevice names
    **{name: "The same function as `tl.%s`." % name for name in (
        "abs", "ceil", "clamp", "cos", "div_rn", "erf", "fdiv", "floor", "fma", "log", "log2", "maximum", "minimum",
        "sigmoid", "sin", "sqrt", "sqrt_rn", "umulhi")},
    "exp": "e^x " + _LIBRARY + " on every target, never the hardware approximation that `tl.exp` is below fp64 on "
           "nvptx and amdgpu.",
    "exp2": "2^x " + _LIBRARY + " on every target, never the hardware approximation that `tl.exp2` is below fp64 on "
            "nvptx and amdgpu.",
    "rsqrt": "The same function as `tl.rsqrt` (approximate below fp64 on nvptx, as CUDA's `__nv_rsqrtf`).",
    "max": "C's `fmax`: the same function as `tl.maximum` (elementwise), not `tl.max`'s reduction.",
    "min": "C's `fmin`: the same function as `tl.minimum` (elementwise), not `tl.min`'s reduction.",
    # ---- math from the target's library (C's <math.h>)
    "acos": "arccos(x) in [0, π], NaN outside [-1, 1]; " + _LIBRARY + ".",
    "acosh": "Inverse hyperbolic cosine, NaN below 1; " + _LIBRARY + ".",
    "asin": "arcsin(x) in [-π/2, π/2], NaN outside [-1, 1]; " + _LIBRARY + ".",
    "asinh": "Inverse hyperbolic sine; " + _LIBRARY + ".",
    "atan": "arctan(x) in (-π/2, π/2); " + _LIBRARY + ".",
    "atan2": "C's `atan2` with `x` the ordinate: the angle of the point (`y`, `x`), atan(x / y) in its quadrant, in "
             "[-π, π]; " + _LIBRARY + ".",
    "atanh": "Inverse hyperbolic tangent, ±inf at ±1, NaN outside [-1, 1]; " + _LIBRARY + ".",
    "cbrt": "Real cube root (negative for negative x); " + _LIBRARY + ".",
    "copysign": "The magnitude of `x` with the sign bit of `y`, exact.",
    "cosh": "Hyperbolic cosine; " + _LIBRARY + ".",
    "erfc": "1 - erf(x), accurate where erf(x) is near 1; " + _LIBRARY + ".",
    "exp10": "10^x; " + _LIBRARY + ".",
    "expm1": "e^x - 1, accurate near 0; " + _LIBRARY + ".",
    "fmod": "C's `fmod`: `x - n * y` with n = trunc(x / y), exact, with `x`'s sign; NaN for `y = 0` or infinite `x`.",
    "hypot": "sqrt(x² + y²) without intermediate overflow or underflow; " + _LIBRARY + ".",
    "j0": "Bessel function of the first kind of order 0; " + _LIBRARY + ".",
    "j1": "Bessel function of the first kind of order 1; " + _LIBRARY + ".",
    "jn": "Bessel function of the first kind of integer order `n` (converted to int32); " + _LIBRARY + ".",
    "lgamma": "ln(abs(Γ(x))); " + _LIBRARY + ".",
    "log10": "Base-10 logarithm; " + _LIBRARY + ".",
    "log1p": "ln(1 + x), accurate near 0; " + _LIBRARY + ".",
    "pow": "C's `pow`: x^y (an integer `y` converts to `x`'s float type); " + _LIBRARY + ".",
    "rint": "The nearest integral value, ties to even, exact.",
    "round": "The nearest integral value, ties away from zero (C's `round`), exact.",
    "sinh": "Hyperbolic sine; " + _LIBRARY + ".",
    "tan": "Tangent (radians); " + _LIBRARY + ".",
    "tanh": "Hyperbolic tangent; " + _LIBRARY + ".",
    "tgamma": "Γ(x); " + _LIBRARY + ".",
    "trunc": "The integral value toward zero, exact.",
    "y0": "Bessel function of the second kind of order 0 (NaN below 0, -inf at 0); " + _LIBRARY + ".",
    "y1": "Bessel function of the second kind of order 1; " + _LIBRARY + ".",
    "yn": "Bessel function of the second kind of integer order `n` (converted to int32); " + _LIBRARY + ".",
    # ---- written in the language (frontend/libdevice.py): the same code on every target
    "brev": "The bits of a 32- or 64-bit integer in reverse order.",
    "byte_perm": "CUDA's `__byte_perm` on 32-bit integers: byte i of the int32 result is byte `(s >> 4i) & 7` of "
                 "the eight bytes `y:x` (`x` the low four).",
    "clz": "The number of leading zero bits of a 32- or 64-bit integer (its width for 0), int32.",
    "cospi": "cos(πx), accurate for large x (exact reduction; fp32 and narrower computed in fp64).",
    "cyl_bessel_i0": "Modified Bessel function of the first kind I0(x), computed in fp64.",
    "cyl_bessel_i1": "Modified Bessel function of the first kind I1(x), computed in fp64.",
    "double2hiint": "The high 32 bits of a 64-bit value (an fp64's bits) as int32.",
    "double2loint": "The low 32 bits of a 64-bit value (an fp64's bits) as int32.",
    "double_as_longlong": "The bits of an fp64 as int64.",
    "erfcinv": "The inverse of erfc: t with erfc(t) = x, for x in [0, 2] (+inf at 0, -inf at 2, NaN outside), "
               "computed in fp64.",
    "erfcx": "The scaled complementary error function e^(x²)·erfc(x), without overflow for large x (fp64).",
    "erfinv": "The inverse of erf: t with erf(t) = x, for x in [-1, 1] (±inf at ±1, NaN outside), computed in "
              "fp64.",
    "fast_cosf": "`tl.cos` (the library's cosine, not a hardware approximation).",
    "fast_dividef": "`tl.fdiv(x, y)`: for fp32, `div.full.f32` (2 ulp) on nvptx, elsewhere a division that may use "
                    "the reciprocal.",
    "fast_exp10f": "`tl.exp2(x * log2(10))`: approximate below fp64 on nvptx and amdgpu; integers convert to fp32.",
    "fast_expf": "`tl.exp`: approximate below fp64 on nvptx and amdgpu.",
    "fast_log10f": "`tl.log2(x) * log10(2)`.",
    "fast_log2f": "`tl.log2`.",
    "fast_logf": "`tl.log`.",
    "fast_powf": "`tl.exp2(y * tl.log2(x))`: approximate below fp64 on nvptx and amdgpu, NaN for negative `x`.",
    "fast_sinf": "`tl.sin` (the library's sine, not a hardware approximation).",
    "fast_tanf": "`tl.fdiv(tl.sin(x), tl.cos(x))`.",
    "fast_tanhf": "The same function as `libdevice.tanh` (Triton's is an approximation on AMD).",
    "fdim": "`x - y` where `x > y`, else +0; NaN when either is NaN.",
    "ffs": "1 + the index of the lowest set bit of a 32- or 64-bit integer, 0 for 0 (int32).",
    "finitef": "Whether `x` (fp32 or fp64) is finite, as a boolean tile (int1, as Triton's).",
    "float_as_int": "The bits of an fp32 as int32.",
    "float_as_uint": "The bits of an fp32 (as int32, Triton's typing).",
    "hadd": "`(x + y) >> 1` without overflow (rounded down), for 32-bit integers.",
    "hiloint2double": "The fp64 whose high and low 32 bits are the 32-bit integers `hi` and `lo`.",
    "ilogb": "The unbiased binary exponent of `x` (subnormals included) as int32; INT_MIN for 0 and NaN, INT_MAX "
             "for ±inf.",
    "int2double_rn": "The 32-bit integer `x`, read as int32, to fp64, exact.",
    "int_as_float": "The bits of a 32-bit integer as fp32.",
    "isfinited": "Whether `x` (fp32 or fp64) is finite, as a boolean tile (int1, as Triton's).",
    "isinf": "Whether `x` (fp32 or fp64) is ±inf, as a boolean tile (int1, as Triton's).",
    "isnan": "Whether `x` (fp32 or fp64) is NaN, as a boolean tile (int1, as Triton's).",
    "ldexp": "x·2^n for an integer `n`, rounded once (exact unless the result is subnormal or overflows).",
    "llrint": "`x` to the nearest integer, ties to even, as int64 (saturating; NaN gives 0).",
    "llround": "`x` to the nearest integer, ties away from zero, as int64 (saturating; NaN gives 0).",
    "logb": "The unbiased binary exponent of `x` as a float: -inf for 0, +inf for ±inf, NaN for NaN.",
    "longlong_as_double": "The bits of a 64-bit integer as fp64.",
    "mul24": "The low 32 bits of the product of the low 24 bits of `x` and `y` (sign-extended from bit 23 for "
             "int32).",
    "mulhi": "The high half of the 2N-bit product of `x` and `y`, two int32, uint32, int64 or uint64 of one type "
             "(Triton's only; others are a compile error): signed for int32 and int64, unsigned for the others.",
    "nearbyint": "The nearest integral value, ties to even (as `rint`).",
    "nextafter": "The next representable value after `x` toward `y` (fp32 or fp64): `y` when they are equal, NaN "
                 "when either is NaN.",
    "norm3d": "sqrt(a² + b² + c²) without intermediate overflow or underflow (fp32 and narrower summed in fp64); an "
              "infinite argument gives +inf, even beside a NaN.",
    "norm4d": "sqrt(a² + b² + c² + d²), as `norm3d`.",
    "normcdf": "The standard normal distribution function Φ(x) = erfc(-x/√2) / 2, computed in fp64.",
    "normcdfinv": "The inverse of `normcdf`: t with Φ(t) = x, for x in [0, 1] (-inf at 0, +inf at 1, NaN outside), "
                  "computed in fp64.",
    "popc": "The number of set bits of a 32- or 64-bit integer (int32).",
    "rcbrt": "1 / cbrt(x) (fp32 and narrower computed in fp64 and rounded once).",
    "rcp64h": "1/x from the high 32 bits of fp64 `x` alone (about 20 significant bits, as CUDA's `rcp64h`).",
    "remainder": "The IEEE remainder `x - n * y` with n = x / y rounded to nearest even, exact; NaN for `y = 0` or "
                 "infinite `x`, `x` for infinite `y`.",
    "rhadd": "`(x + y + 1) >> 1` without overflow (halves rounded up), for 32-bit integers.",
    "rhypot": "1 / sqrt(x² + y²), as `rnorm3d`.",
    "rnorm3d": "1 / norm3d(a, b, c) (fp32 and narrower computed in fp64 and rounded once).",
    "rnorm4d": "1 / norm4d(a, b, c, d), as `rnorm3d`.",
    "rsqrt_rn": "1 / sqrt(x): fp32 correctly rounded (computed in fp64, rounded once); fp64 rounds twice (sqrt, "
                "then the division).",
    "sad": "abs(x - y) + z for 32-bit integers (compared by their signedness), wrapping.",
    "saturatef": "`x` clamped to [0, 1]; NaN gives 0.",
    "scalbn": "x·2^n, as `ldexp`.",
    "signbit": "1 where the sign bit of `x` is set (-0.0 and negative NaNs included), else 0, int32.",
    "sinpi": "sin(πx), accurate for large x (exact reduction; fp32 and narrower computed in fp64); an integer x "
             "gives a zero of x's sign.",
    "uint_as_float": "The bits of a 32-bit integer as fp32.",
    # ---- IEEE arithmetic and conversions in the four rounding modes, exact
    **{"add_" + m: "`x + y` correctly rounded %s; fp32 or fp64, `y` converted to `x`'s type." % _ROUND[m]
       for m in _MODES},
    **{"sub_" + m: "`x - y` correctly rounded %s; fp32 or fp64." % _ROUND[m] for m in _MODES},
    **{"mul_" + m: "`x * y` correctly rounded %s; fp32 or fp64." % _ROUND[m] for m in _MODES},
    **{"div_" + m: "`x / y` correctly rounded %s; fp32 or fp64." % _ROUND[m] for m in _MODES if m != "rn"},
    **{"rcp_" + m: "`1 / x` correctly rounded %s; fp32 or fp64." % _ROUND[m] for m in _MODES},
    **{"sqrt_" + m: "sqrt(x) correctly rounded %s (sqrt(-0) is -0); fp32 or fp64." % _ROUND[m]
       for m in _MODES if m != "rn"},
    **{"fma_" + m: "`x * y + z` correctly rounded once, %s; fp32 or fp64." % _ROUND[m] for m in _MODES},
    **{"double2float_" + m: "fp64 to fp32, correctly rounded %s." % _ROUND[m] for m in _MODES},
    **{"%s2%s_%s" % (src, dst, m): "%s to %s rounded %s, saturating (NaN gives 0)%s." % (
        {"double": "fp64", "float": "fp32"}[src], {"int": "int32", "ll": "int64", "uint": "uint32",
                                                   "ull": "uint64"}[dst], _ROUND[m],
        {"uint": ", returned as the int32 of its bits (Triton's typing)",
         "ull": ", returned as the int64 of its bits (Triton's typing)"}.get(dst, ""))
       for src in ("double", "float") for dst in ("int", "ll", "uint", "ull") for m in _MODES},
    **{"%s2%s_%s" % (src, dst, m): "The %d-bit integer `x`, read as %s, to %s rounded %s." % (
        64 if src in ("ll", "ull") else 32, {"int": "int32", "uint": "uint32", "ll": "int64", "ull": "uint64"}[src],
        {"float": "fp32", "double": "fp64"}[dst], _ROUND[m])
       for src, dst in (("int", "float"), ("uint", "float"), ("ll", "float"), ("ull", "float"), ("ll", "double"),
                        ("ull", "double")) for m in _MODES},
    "uint2double_rn": "The 32-bit integer `x`, read as uint32, to fp64, exact.",
}

SECTIONS = {"tl": TL, "tl.math": MATH, "libdevice": LIBDEVICE}
