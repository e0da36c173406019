# RUN: not tessera compile %s --entry print_tile --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=PRINT_TILE
# RUN: not tessera compile %s --entry compiled_breakpoint --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=COMPILED_BREAKPOINT
# RUN: not tessera compile %s --entry constexpr_fn_cli --signature "*fp32" -D "log2=constexpr_function:m.log2@0" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=CONSTEXPR_FN_CLI
# RUN: not tessera compile %s --entry range_call --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=RANGE_CALL
# RUN: not tessera compile %s --entry len_int --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=LEN_INT
# RUN: not tessera compile %s --entry min_empty --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=MIN_EMPTY
# RUN: not tessera compile %s --entry int_tensor --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=INT_TENSOR
# RUN: not tessera compile %s --entry float_str --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=FLOAT_STR
# RUN: not tessera compile %s --entry float_tensor --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=FLOAT_TENSOR
# RUN: not tessera compile %s --entry bool_tensor --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=BOOL_TENSOR
# RUN: not tessera compile %s --entry tuple_int --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TUPLE_INT
# RUN: not tessera compile %s --entry reduce_shapes --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=REDUCE_SHAPES
# RUN: not tessera compile %s --entry tessera_call --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TESSERA_CALL
# RUN: not tessera compile %s --entry tl_tensor_call --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TL_TENSOR_CALL
# RUN: not tessera compile %s --entry axis_float --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=AXIS_FLOAT
# RUN: not tessera compile %s --entry store_cache --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=STORE_CACHE
# RUN: not tessera compile %s --entry string_arg --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=STRING_ARG
# RUN: not tessera compile %s --entry bool_arg --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=BOOL_ARG
# RUN: not tessera compile %s --entry nan_padding --signature "*i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=NAN_PADDING
# RUN: not tessera compile %s --entry store_desc --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=STORE_DESC
# RUN: not tessera compile %s --entry store_int --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=STORE_INT
# RUN: not tessera compile %s --entry atomic_int --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ATOMIC_INT
# RUN: not tessera compile %s --entry exp_str --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=EXP_STR
# RUN: not tessera compile %s --entry permute_str --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=PERMUTE_STR
# RUN: not tessera compile %s --entry scan_scalar --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=SCAN_SCALAR
# RUN: not tessera compile %s --entry dot_rank --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DOT_RANK
# RUN: not tessera compile %s --entry dot_acc --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DOT_ACC
# RUN: not tessera compile %s --entry hint_rank --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=HINT_RANK
# RUN: not tessera compile %s --entry block_base --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=BLOCK_BASE
# RUN: not tessera compile %s --entry block_rank0 --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=BLOCK_RANK0
# RUN: not tessera compile %s --entry desc_rank0 --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DESC_RANK0
# RUN: not tessera compile %s --entry block_lengths --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=BLOCK_LENGTHS
# RUN: not tessera compile %s --entry desc_lengths --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DESC_LENGTHS
# RUN: not tessera compile %s --entry advance_ptr --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ADVANCE_PTR
# RUN: not tessera compile %s --entry advance_rank --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ADVANCE_RANK
# RUN: not tessera compile %s --entry desc_offsets --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DESC_OFFSETS
# RUN: not tessera compile %s --entry print_kw --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=PRINT_KW
# RUN: not tessera compile %s --entry print_hex --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=PRINT_HEX
# RUN: not tessera compile %s --entry reshape_reorder --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=RESHAPE_REORDER
# RUN: not tessera compile %s --entry dot_tf32 --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DOT_TF32
# RUN: not tessera compile %s --entry dot_precision --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DOT_PRECISION
# RUN: not tessera compile %s --entry arange_order --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ARANGE_ORDER
# RUN: not tessera compile %s --entry permute_count --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=PERMUTE_COUNT
# RUN: not tessera compile %s --entry desc_nan_padding --signature "*i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DESC_NAN_PADDING
# RUN: not tessera compile %s --entry desc_padding --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DESC_PADDING
# RUN: not tessera compile %s --entry permute_bad --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=PERMUTE_BAD
# RUN: not tessera compile %s --entry umulhi_float --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=UMULHI_FLOAT
# RUN: not tessera compile %s --entry static_assert_bare --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=STATIC_ASSERT_BARE
# RUN: not tessera compile %s --entry combine_tile --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=COMBINE_TILE
# RUN: not tessera compile %s --entry expand_dims_axis --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=EXPAND_DIMS_AXIS
# RUN: not tessera compile %s --entry argmax_scalar --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ARGMAX_SCALAR
# RUN: not tessera compile %s --entry arange_one --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ARANGE_ONE
# RUN: not tessera compile %s --entry tensor_arg --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TENSOR_ARG
# RUN: not tessera compile %s --entry range_kw --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=RANGE_KW
# RUN: not tessera compile %s --entry isinstance_value --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ISINSTANCE_VALUE
# RUN: not tessera compile %s --entry isinstance_class --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ISINSTANCE_CLASS
# RUN: not tessera compile %s --entry getattr_name --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=GETATTR_NAME
# RUN: not tessera compile %s --entry hasattr_name --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=HASATTR_NAME
# RUN: not tessera compile %s --entry dtype_attr --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DTYPE_ATTR
# RUN: not tessera compile %s --entry item_many --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ITEM_MANY
# RUN: not tessera compile %s --entry none_past_rank --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=NONE_PAST_RANK
# RUN: not tessera compile %s --entry atomic_fp8 --signature "*fp8e4nv" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ATOMIC_FP8
# RUN: not tessera compile %s --entry tuple_repeat_big --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=TUPLE_REPEAT_BIG
# RUN: not tessera compile %s --entry dot_batches --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DOT_BATCHES
# RUN: not tessera compile %s --entry expand_dup --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=EXPAND_DUP
# RUN: not tessera compile %s --entry barrier_kw --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=BARRIER_KW
# RUN: not tessera compile %s --entry desc_pointer --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DESC_POINTER
# RUN: not tessera compile %s --entry bessel_order --signature "*fp32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=BESSEL_ORDER
# RUN: not tessera compile %s --entry bessel_x --signature "*i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=BESSEL_X
# RUN: not tessera compile %s --entry asm_no_dtype --signature "*i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ASM_NO_DTYPE
# RUN: not tessera compile %s --entry asm_pack --signature "*i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=ASM_PACK
# RUN: not tessera compile %s --entry desc_narrow --signature "*i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=DESC_NARROW
# RUN: not tessera compile %s --entry constexpr_type_of_tensor --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=CONSTEXPR_TYPE
# RUN: not tessera compile %s --entry imprecise_acc --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=IMPRECISE
# RUN: not tessera compile %s --entry custom_fp8 --signature "i32" 2>&1 | FileCheck %s --strict-whitespace --check-prefix=CUSTOM_FP8
# Errors from calls to builtins (frontend/Builtins.cpp): arguments, pointers,
# block pointers, reductions, Python builtins.
import tessera
import tessera.language as tl


# RANGE_CALL: builtins.py:[[@LINE+5]]:9: error: tl.range is usable only in a for loop
# RANGE_CALL-NEXT: {{^}}    r = tl.range(0, n)
# RANGE_CALL-NEXT: {{^}}        ^
@tessera.jit
def range_call(n):
    r = tl.range(0, n)


# LEN_INT: builtins.py:[[@LINE+5]]:9: error: len() of int 5
# LEN_INT-NEXT: {{^}}    x = len(5)
# LEN_INT-NEXT: {{^}}        ^
@tessera.jit
def len_int(n):
    x = len(5)


# MIN_EMPTY: builtins.py:[[@LINE+5]]:9: error: min() needs at least one argument
# MIN_EMPTY-NEXT: {{^}}    x = min()
# MIN_EMPTY-NEXT: {{^}}        ^
@tessera.jit
def min_empty(n):
    x = min()


# INT_TENSOR: builtins.py:[[@LINE+5]]:9: error: int() of tensor of type i32 (use x.to(tl.int32) for tensors)
# INT_TENSOR-NEXT: {{^}}    x = int(n)
# INT_TENSOR-NEXT: {{^}}        ^
@tessera.jit
def int_tensor(n):
    x = int(n)


# FLOAT_STR: builtins.py:[[@LINE+5]]:9: error: could not convert string to float: 'abc'
# FLOAT_STR-NEXT: {{^}}    x = float('abc')
# FLOAT_STR-NEXT: {{^}}        ^
@tessera.jit
def float_str(n):
    x = float('abc')


# FLOAT_TENSOR: builtins.py:[[@LINE+5]]:9: error: float() of tensor of type i32 (use x.to(tl.float32) for tensors)
# FLOAT_TENSOR-NEXT: {{^}}    x = float(n)
# FLOAT_TENSOR-NEXT: {{^}}        ^
@tessera.jit
def float_tensor(n):
    x = float(n)


# BOOL_TENSOR: builtins.py:[[@LINE+5]]:9: error: bool() of a tensor is not known at compile time
# BOOL_TENSOR-NEXT: {{^}}    x = bool(n)
# BOOL_TENSOR-NEXT: {{^}}        ^
@tessera.jit
def bool_tensor(n):
    x = bool(n)


# TUPLE_INT: builtins.py:[[@LINE+5]]:9: error: tuple() of int 5
# TUPLE_INT-NEXT: {{^}}    x = tuple(5)
# TUPLE_INT-NEXT: {{^}}        ^
@tessera.jit
def tuple_int(n):
    x = tuple(5)


# REDUCE_SHAPES: builtins.py:[[@LINE+5]]:9: error: all inputs must have the same shape
# REDUCE_SHAPES-NEXT: {{^}}    x = tl.reduce((tl.arange(0, 4), tl.arange(0, 8)), 0, add_pairs)
# REDUCE_SHAPES-NEXT: {{^}}        ^
@tessera.jit
def reduce_shapes(n):
    x = tl.reduce((tl.arange(0, 4), tl.arange(0, 8)), 0, add_pairs)


# TESSERA_CALL: builtins.py:[[@LINE+5]]:5: error: tessera.jit cannot be called inside a kernel
# TESSERA_CALL-NEXT: {{^}}    tessera.jit(X)
# TESSERA_CALL-NEXT: {{^}}    ^
@tessera.jit
def tessera_call(X):
    tessera.jit(X)


# TL_TENSOR_CALL: builtins.py:[[@LINE+5]]:9: error: 'tensor' cannot be called inside a kernel
# TL_TENSOR_CALL-NEXT: {{^}}    x = tl.tensor(X)
# TL_TENSOR_CALL-NEXT: {{^}}        ^
@tessera.jit
def tl_tensor_call(X):
    x = tl.tensor(X)


# AXIS_FLOAT: builtins.py:[[@LINE+5]]:9: error: axis must be a compile-time integer or None, found float 1.5
# AXIS_FLOAT-NEXT: {{^}}    x = tl.sum(tl.arange(0, 4), axis=1.5)
# AXIS_FLOAT-NEXT: {{^}}        ^
@tessera.jit
def axis_float(n):
    x = tl.sum(tl.arange(0, 4), axis=1.5)


# STORE_CACHE: builtins.py:[[@LINE+5]]:5: error: unknown cache_modifier '.ca' (.wb, .cg, .cs, .wt)
# STORE_CACHE-NEXT: {{^}}    tl.store(X, 1.0, cache_modifier='.ca')
# STORE_CACHE-NEXT: {{^}}    ^
@tessera.jit
def store_cache(X):
    tl.store(X, 1.0, cache_modifier='.ca')


# STRING_ARG: builtins.py:[[@LINE+5]]:9: error: argument 'cache_modifier' of load() must be a string
# STRING_ARG-NEXT: {{^}}    x = tl.load(X, cache_modifier=5)
# STRING_ARG-NEXT: {{^}}        ^
@tessera.jit
def string_arg(X):
    x = tl.load(X, cache_modifier=5)


# BOOL_ARG: builtins.py:[[@LINE+5]]:9: error: argument 'volatile' of load() must be a compile-time bool
# BOOL_ARG-NEXT: {{^}}    x = tl.load(X, volatile=tl.load(X) > 0)
# BOOL_ARG-NEXT: {{^}}        ^
@tessera.jit
def bool_arg(X):
    x = tl.load(X, volatile=tl.load(X) > 0)


# NAN_PADDING: builtins.py:[[@LINE+6]]:9: error: padding_option "nan" needs a float block
# NAN_PADDING-NEXT: {{^}}    x = tl.load(p, boundary_check=(0,), padding_option='nan')
# NAN_PADDING-NEXT: {{^}}        ^
@tessera.jit
def nan_padding(X):
    p = tl.make_block_ptr(X, (8,), (1,), (0,), (4,), (0,))
    x = tl.load(p, boundary_check=(0,), padding_option='nan')


# STORE_DESC: builtins.py:[[@LINE+6]]:5: error: store to a tensor descriptor with desc.store(offsets, value)
# STORE_DESC-NEXT: {{^}}    tl.store(d, 1.0)
# STORE_DESC-NEXT: {{^}}    ^
@tessera.jit
def store_desc(X):
    d = tl.make_tensor_descriptor(X, (8,), (1,), (4,))
    tl.store(d, 1.0)


# STORE_INT: builtins.py:[[@LINE+5]]:5: error: tl.store needs a pointer or a tile of pointers, found int 5
# STORE_INT-NEXT: {{^}}    tl.store(5, 1.0)
# STORE_INT-NEXT: {{^}}    ^
@tessera.jit
def store_int(X):
    tl.store(5, 1.0)


# ATOMIC_INT: builtins.py:[[@LINE+5]]:9: error: atomic_add() needs a pointer or a tile of pointers, found int 5
# ATOMIC_INT-NEXT: {{^}}    x = tl.atomic_add(5, 1.0)
# ATOMIC_INT-NEXT: {{^}}        ^
@tessera.jit
def atomic_int(X):
    x = tl.atomic_add(5, 1.0)


# EXP_STR: builtins.py:[[@LINE+5]]:9: error: exp() needs a number or a tensor, found str "a"
# EXP_STR-NEXT: {{^}}    x = tl.exp('a')
# EXP_STR-NEXT: {{^}}        ^
@tessera.jit
def exp_str(X):
    x = tl.exp('a')


# PERMUTE_STR: builtins.py:[[@LINE+5]]:9: error: permute() expects compile-time integers, found str "a"
# PERMUTE_STR-NEXT: {{^}}    x = tl.permute(tl.zeros([4, 4], tl.float32), 0, 'a')
# PERMUTE_STR-NEXT: {{^}}        ^
@tessera.jit
def permute_str(X):
    x = tl.permute(tl.zeros([4, 4], tl.float32), 0, 'a')


# SCAN_SCALAR: builtins.py:[[@LINE+5]]:9: error: associative_scan needs tiles
# SCAN_SCALAR-NEXT: {{^}}    x = tl.associative_scan(n, 0, add_pairs)
# SCAN_SCALAR-NEXT: {{^}}        ^
@tessera.jit
def scan_scalar(n):
    x = tl.associative_scan(n, 0, add_pairs)


# DOT_RANK: builtins.py:[[@LINE+5]]:9: error: tl.dot needs two tiles of rank 2 (or 3 with a batch), found tile<16xf32> and tile<16xf32>
# DOT_RANK-NEXT: {{^}}    x = tl.dot(tl.zeros([16], tl.float32), tl.zeros([16], tl.float32))
# DOT_RANK-NEXT: {{^}}        ^
@tessera.jit
def dot_rank(X):
    x = tl.dot(tl.zeros([16], tl.float32), tl.zeros([16], tl.float32))


# DOT_ACC: builtins.py:[[@LINE+6]]:9: error: the accumulator of tl.dot must have shape tile<16x16xf32>, found tile<16x32xf32>
# DOT_ACC-NEXT: {{^}}    x = tl.dot(a, a, tl.zeros([16, 32], tl.float32))
# DOT_ACC-NEXT: {{^}}        ^
@tessera.jit
def dot_acc(X):
    a = tl.zeros([16, 16], tl.float16)
    x = tl.dot(a, a, tl.zeros([16, 32], tl.float32))


# HINT_RANK: builtins.py:[[@LINE+5]]:9: error: multiple_of() needs 1 value(s), one per dimension
# HINT_RANK-NEXT: {{^}}    x = tl.multiple_of(tl.arange(0, 4), (4, 4))
# HINT_RANK-NEXT: {{^}}        ^
@tessera.jit
def hint_rank(n):
    x = tl.multiple_of(tl.arange(0, 4), (4, 4))


# BLOCK_BASE: builtins.py:[[@LINE+5]]:9: error: make_block_ptr() needs a scalar pointer as its base, found int 5
# BLOCK_BASE-NEXT: {{^}}    p = tl.make_block_ptr(5, (8,), (1,), (0,), (4,), (0,))
# BLOCK_BASE-NEXT: {{^}}        ^
@tessera.jit
def block_base(X):
    p = tl.make_block_ptr(5, (8,), (1,), (0,), (4,), (0,))


# BLOCK_RANK0: builtins.py:[[@LINE+5]]:9: error: make_block_ptr() needs a block_shape of at least one dimension
# BLOCK_RANK0-NEXT: {{^}}    p = tl.make_block_ptr(X, (), (), (), (), ())
# BLOCK_RANK0-NEXT: {{^}}        ^
@tessera.jit
def block_rank0(X):
    p = tl.make_block_ptr(X, (), (), (), (), ())


# DESC_RANK0: builtins.py:[[@LINE+5]]:9: error: make_tensor_descriptor() needs a block_shape of at least one dimension
# DESC_RANK0-NEXT: {{^}}    d = tl.make_tensor_descriptor(X, (), (), ())
# DESC_RANK0-NEXT: {{^}}        ^
@tessera.jit
def desc_rank0(X):
    d = tl.make_tensor_descriptor(X, (), (), ())


# DESC_NAN_PADDING: builtins.py:[[@LINE+5]]:9: error: padding_option "nan" needs a float tensor
# DESC_NAN_PADDING-NEXT: {{^}}    d = tl.make_tensor_descriptor(X, (8,), (1,), (8,), padding_option="nan")
# DESC_NAN_PADDING-NEXT: {{^}}        ^
@tessera.jit
def desc_nan_padding(X):
    d = tl.make_tensor_descriptor(X, (8,), (1,), (8,), padding_option="nan")


# DESC_PADDING: builtins.py:[[@LINE+5]]:9: error: padding_option must be "zero" or "nan", found "inf"
# DESC_PADDING-NEXT: {{^}}    d = tl.make_tensor_descriptor(X, (8,), (1,), (8,), padding_option="inf")
# DESC_PADDING-NEXT: {{^}}        ^
@tessera.jit
def desc_padding(X):
    d = tl.make_tensor_descriptor(X, (8,), (1,), (8,), padding_option="inf")


# BLOCK_LENGTHS: builtins.py:[[@LINE+5]]:9: error: make_block_ptr(): shape, strides, offsets and block_shape must have the same length
# BLOCK_LENGTHS-NEXT: {{^}}    p = tl.make_block_ptr(X, (8, 8), (1,), (0,), (4,), (0,))
# BLOCK_LENGTHS-NEXT: {{^}}        ^
@tessera.jit
def block_lengths(X):
    p = tl.make_block_ptr(X, (8, 8), (1,), (0,), (4,), (0,))


# DESC_LENGTHS: builtins.py:[[@LINE+5]]:9: error: make_tensor_descriptor(): shape, strides and block_shape must have the same length
# DESC_LENGTHS-NEXT: {{^}}    d = tl.make_tensor_descriptor(X, (8, 8), (1,), (4,))
# DESC_LENGTHS-NEXT: {{^}}        ^
@tessera.jit
def desc_lengths(X):
    d = tl.make_tensor_descriptor(X, (8, 8), (1,), (4,))


# ADVANCE_PTR: builtins.py:[[@LINE+5]]:9: error: tl.advance needs a block pointer, found tensor of type ptr<f32>
# ADVANCE_PTR-NEXT: {{^}}    p = tl.advance(X, (1,))
# ADVANCE_PTR-NEXT: {{^}}        ^
@tessera.jit
def advance_ptr(X):
    p = tl.advance(X, (1,))


# ADVANCE_RANK: builtins.py:[[@LINE+6]]:9: error: tl.advance needs one offset per dimension of the block pointer
# ADVANCE_RANK-NEXT: {{^}}    p = tl.advance(p, (1, 2))
# ADVANCE_RANK-NEXT: {{^}}        ^
@tessera.jit
def advance_rank(X):
    p = tl.make_block_ptr(X, (8,), (1,), (0,), (4,), (0,))
    p = tl.advance(p, (1, 2))


# DESC_OFFSETS: builtins.py:[[@LINE+6]]:9: error: the descriptor has 1 dimensions; give one offset each
# DESC_OFFSETS-NEXT: {{^}}    x = d.load((0, 0))
# DESC_OFFSETS-NEXT: {{^}}        ^
@tessera.jit
def desc_offsets(X):
    d = tl.make_tensor_descriptor(X, (8,), (1,), (4,))
    x = d.load((0, 0))


# PRINT_KW: builtins.py:[[@LINE+5]]:5: error: device_print() got an unexpected keyword argument 'bogus'
# PRINT_KW-NEXT: {{^}}    tl.device_print('x', X, bogus=1)
# PRINT_KW-NEXT: {{^}}    ^
@tessera.jit
def print_kw(X):
    tl.device_print('x', X, bogus=1)


# PRINT_HEX: builtins.py:[[@LINE+5]]:5: error: argument 'hex' of device_print() must be a compile-time bool
# PRINT_HEX-NEXT: {{^}}    tl.device_print('n', n, hex=n > 0)
# PRINT_HEX-NEXT: {{^}}    ^
@tessera.jit
def print_hex(n):
    tl.device_print('n', n, hex=n > 0)


# RESHAPE_REORDER: builtins.py:[[@LINE+5]]:9: error: argument 'can_reorder' of reshape() must be a compile-time bool
# RESHAPE_REORDER-NEXT: {{^}}    x = tl.reshape(tl.arange(0, 4), (2, 2), can_reorder=n > 0)
# RESHAPE_REORDER-NEXT: {{^}}        ^
@tessera.jit
def reshape_reorder(n):
    x = tl.reshape(tl.arange(0, 4), (2, 2), can_reorder=n > 0)


# DOT_TF32: builtins.py:[[@LINE+6]]:9: error: argument 'allow_tf32' of dot() must be a compile-time bool
# DOT_TF32-NEXT: {{^}}    x = tl.dot(a, a, allow_tf32=n > 0)
# DOT_TF32-NEXT: {{^}}        ^
@tessera.jit
def dot_tf32(n):
    a = tl.zeros([16, 16], tl.float32)
    x = tl.dot(a, a, allow_tf32=n > 0)


# DOT_PRECISION: builtins.py:[[@LINE+6]]:9: error: argument 'input_precision' of dot() must be a string
# DOT_PRECISION-NEXT: {{^}}    x = tl.dot(a, a, input_precision=3)
# DOT_PRECISION-NEXT: {{^}}        ^
@tessera.jit
def dot_precision(n):
    a = tl.zeros([16, 16], tl.float32)
    x = tl.dot(a, a, input_precision=3)


# ARANGE_ORDER: builtins.py:[[@LINE+5]]:9: error: tl.arange needs 0 <= start < end < 2**31, found 4, 2
# ARANGE_ORDER-NEXT: {{^}}    x = tl.arange(4, 2)
# ARANGE_ORDER-NEXT: {{^}}        ^
@tessera.jit
def arange_order(n):
    x = tl.arange(4, 2)


# PERMUTE_COUNT: builtins.py:[[@LINE+5]]:9: error: the permutation must list all 2 dimensions
# PERMUTE_COUNT-NEXT: {{^}}    x = tl.permute(tl.zeros([4, 4], tl.float32), (0,))
# PERMUTE_COUNT-NEXT: {{^}}        ^
@tessera.jit
def permute_count(X):
    x = tl.permute(tl.zeros([4, 4], tl.float32), (0,))


# PERMUTE_BAD: builtins.py:[[@LINE+5]]:9: error: bad dimension 2 in permutation
# PERMUTE_BAD-NEXT: {{^}}    x = tl.permute(tl.zeros([4, 4], tl.float32), (0, 2))
# PERMUTE_BAD-NEXT: {{^}}        ^
@tessera.jit
def permute_bad(X):
    x = tl.permute(tl.zeros([4, 4], tl.float32), (0, 2))


# UMULHI_FLOAT: builtins.py:[[@LINE+5]]:9: error: tl.umulhi needs integers
# UMULHI_FLOAT-NEXT: {{^}}    x = tl.umulhi(1.0, tl.load(X))
# UMULHI_FLOAT-NEXT: {{^}}        ^
@tessera.jit
def umulhi_float(X):
    x = tl.umulhi(1.0, tl.load(X))


# STATIC_ASSERT_BARE: builtins.py:[[@LINE+5]]:5: error: static_assert failed
# STATIC_ASSERT_BARE-NEXT: {{^}}    tl.static_assert(1 > 2)
# STATIC_ASSERT_BARE-NEXT: {{^}}    ^
@tessera.jit
def static_assert_bare(n):
    tl.static_assert(1 > 2)


# COMBINE_TILE: builtins.py:[[@LINE+5]]:9: error: the combine function must return scalars, it returns tile<4xi32>
# COMBINE_TILE-NEXT: {{^}}    x = tl.reduce(tl.arange(0, 4), 0, make_tile)
# COMBINE_TILE-NEXT: {{^}}        ^
@tessera.jit
def combine_tile(n):
    x = tl.reduce(tl.arange(0, 4), 0, make_tile)


# EXPAND_DIMS_AXIS: builtins.py:[[@LINE+5]]:9: error: axis must be a compile-time integer, found str "a"
# EXPAND_DIMS_AXIS-NEXT: {{^}}    x = tl.expand_dims(tl.arange(0, 4), 'a')
# EXPAND_DIMS_AXIS-NEXT: {{^}}        ^
@tessera.jit
def expand_dims_axis(n):
    x = tl.expand_dims(tl.arange(0, 4), 'a')


# ARGMAX_SCALAR: builtins.py:[[@LINE+5]]:9: error: argmax() needs a tile
# ARGMAX_SCALAR-NEXT: {{^}}    x = tl.argmax(n, 0)
# ARGMAX_SCALAR-NEXT: {{^}}        ^
@tessera.jit
def argmax_scalar(n):
    x = tl.argmax(n, 0)


# ARANGE_ONE: builtins.py:[[@LINE+5]]:9: error: arange() is missing its argument 'end'
# ARANGE_ONE-NEXT: {{^}}    x = tl.arange(0)
# ARANGE_ONE-NEXT: {{^}}        ^
@tessera.jit
def arange_one(n):
    x = tl.arange(0)


# TENSOR_ARG: builtins.py:[[@LINE+5]]:9: error: argument 'input' of sum() must be a tensor or a number, found None
# TENSOR_ARG-NEXT: {{^}}    x = tl.sum(None)
# TENSOR_ARG-NEXT: {{^}}        ^
@tessera.jit
def tensor_arg(n):
    x = tl.sum(None)


# RANGE_KW: builtins.py:[[@LINE+5]]:14: error: argument 'num_stages' of range() must be a compile-time integer, found str "a"
# RANGE_KW-NEXT: {{^}}    for i in range(n, num_stages='a'):
# RANGE_KW-NEXT: {{^}}             ^
@tessera.jit
def range_kw(n):
    for i in range(n, num_stages='a'):
        pass


@tessera.jit
def add_pairs(a, b):
    return a + b


@tessera.jit
def make_tile(a, b):
    return tl.zeros([4], tl.int32)


# ISINSTANCE_VALUE: builtins.py:[[@LINE+5]]:9: error: isinstance() needs a class or a tuple of classes, found int 3
# ISINSTANCE_VALUE-NEXT: {{^}}    x = isinstance(n, 3)
# ISINSTANCE_VALUE-NEXT: {{^}}        ^
@tessera.jit
def isinstance_value(n):
    x = isinstance(n, 3)


# ISINSTANCE_CLASS: builtins.py:[[@LINE+5]]:9: error: isinstance() in a kernel knows tl.tensor, tl.tensor_descriptor, tl.constexpr, tl.dtype, tl.pointer_type, int, float, bool and tuple, not builtin load
# ISINSTANCE_CLASS-NEXT: {{^}}    x = isinstance(n, tl.load)
# ISINSTANCE_CLASS-NEXT: {{^}}        ^
@tessera.jit
def isinstance_class(n):
    x = isinstance(n, tl.load)


# GETATTR_NAME: builtins.py:[[@LINE+5]]:9: error: getattr() needs the attribute's name as a string, found int 3
# GETATTR_NAME-NEXT: {{^}}    x = getattr(n, 3)
# GETATTR_NAME-NEXT: {{^}}        ^
@tessera.jit
def getattr_name(n):
    x = getattr(n, 3)


# HASATTR_NAME: builtins.py:[[@LINE+5]]:9: error: hasattr() needs the attribute's name as a string, found None
# HASATTR_NAME-NEXT: {{^}}    x = hasattr(n, None)
# HASATTR_NAME-NEXT: {{^}}        ^
@tessera.jit
def hasattr_name(n):
    x = hasattr(n, None)


# DTYPE_ATTR: builtins.py:[[@LINE+5]]:9: error: dtype pointer<fp32> has no attribute 'no_such_field'
# DTYPE_ATTR-NEXT: {{^}}    x = n.dtype.no_such_field
# DTYPE_ATTR-NEXT: {{^}}        ^
@tessera.jit
def dtype_attr(n):
    x = n.dtype.no_such_field


# ITEM_MANY: builtins.py:[[@LINE+5]]:9: error: item() needs a tile of one element, found tile<4xi32>
# ITEM_MANY-NEXT: {{^}}    x = tl.zeros([4], tl.int32).item()
# ITEM_MANY-NEXT: {{^}}        ^
@tessera.jit
def item_many(n):
    x = tl.zeros([4], tl.int32).item()


# NONE_PAST_RANK: builtins.py:[[@LINE+5]]:31: error: None at position 2 of a subscript of tile<4xi32>: a new dimension goes at positions 0 to 1
# NONE_PAST_RANK-NEXT: {{^}}    x = tl.arange(0, 4)[:, :, None]
# NONE_PAST_RANK-NEXT: {{^}}                              ^
@tessera.jit
def none_past_rank(n):
    x = tl.arange(0, 4)[:, :, None]


# ATOMIC_FP8: builtins.py:[[@LINE+5]]:5: error: atomic_add does not support fp8e4nv
# ATOMIC_FP8-NEXT: {{^}}    tl.atomic_add(n, tl.load(n))
# ATOMIC_FP8-NEXT: {{^}}    ^
@tessera.jit
def atomic_fp8(n):
    tl.atomic_add(n, tl.load(n))


# TUPLE_REPEAT_BIG: builtins.py:[[@LINE+5]]:9: error: a repeated tuple may have at most 4096 elements
# TUPLE_REPEAT_BIG-NEXT: {{^}}    x = (1, 2) * 3000
# TUPLE_REPEAT_BIG-NEXT: {{^}}        ^
@tessera.jit
def tuple_repeat_big(n):
    x = (1, 2) * 3000


# DOT_BATCHES: builtins.py:[[@LINE+5]]:9: error: tl.dot operands must have the same batch dimensions, found tile<2x2x16x16xf32> and tile<2x1x16x16xf32>
# DOT_BATCHES-NEXT: {{^}}    x = tl.dot(tl.zeros([2, 2, 16, 16], tl.float32), tl.zeros([2, 1, 16, 16], tl.float32))
# DOT_BATCHES-NEXT: {{^}}        ^
@tessera.jit
def dot_batches(n):
    x = tl.dot(tl.zeros([2, 2, 16, 16], tl.float32), tl.zeros([2, 1, 16, 16], tl.float32))


# EXPAND_DUP: builtins.py:[[@LINE+5]]:9: error: expand_dims: duplicate axes, normalized axes = [0, 0]
# EXPAND_DUP-NEXT: {{^}}    x = tl.expand_dims(tl.arange(0, 4), (0, -3))
# EXPAND_DUP-NEXT: {{^}}        ^
@tessera.jit
def expand_dup(n):
    x = tl.expand_dims(tl.arange(0, 4), (0, -3))


# BARRIER_KW: builtins.py:[[@LINE+5]]:5: error: debug_barrier() got an unexpected keyword argument 'x' (it takes no arguments)
# BARRIER_KW-NEXT: {{^}}    tl.debug_barrier(x=1)
# BARRIER_KW-NEXT: {{^}}    ^
@tessera.jit
def barrier_kw(n):
    tl.debug_barrier(x=1)


# DESC_POINTER: builtins.py:[[@LINE+5]]:9: error: load_tensor_descriptor() needs a tensor descriptor, found tensor of type ptr<f32>
# DESC_POINTER-NEXT: {{^}}    x = tl.load_tensor_descriptor(n, [0])
# DESC_POINTER-NEXT: {{^}}        ^
@tessera.jit
def desc_pointer(n):
    x = tl.load_tensor_descriptor(n, [0])


# BESSEL_ORDER: builtins.py:[[@LINE+3]]:9: error: libdevice.jn takes an integer order n, found f32
# BESSEL_ORDER-NEXT: {{^}}    y = tl.extra.libdevice.jn(1.5, tl.load(x))
def bessel_order(x):
    y = tl.extra.libdevice.jn(1.5, tl.load(x))
    tl.store(x, y)


# BESSEL_X: builtins.py:[[@LINE+3]]:9: error: libdevice.yn takes a floating-point x
# BESSEL_X-NEXT: {{^}}    y = tl.extra.libdevice.yn(1, tl.load(x))
def bessel_x(x):
    y = tl.extra.libdevice.yn(1, tl.load(x))
    tl.store(x, y)


# ASM_NO_DTYPE: builtins.py:[[@LINE+3]]:9: error: inline_asm_elementwise needs at least one result dtype
# ASM_NO_DTYPE-NEXT: {{^}}    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [tl.load(x)], dtype=(), is_pure=True, pack=1)
def asm_no_dtype(x):
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [tl.load(x)], dtype=(), is_pure=True, pack=1)


# ASM_PACK: builtins.py:[[@LINE+3]]:9: error: inline_asm_elementwise's pack must be a power of two from 1 to 16, found 32
# ASM_PACK-NEXT: {{^}}    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [tl.load(x)], dtype=tl.int32, is_pure=True, pack=32)
def asm_pack(x):
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [tl.load(x)], dtype=tl.int32, is_pure=True, pack=32)


# DESC_NARROW: builtins.py:[[@LINE+3]]:12: error: Descriptor block shape must have at least 16 bytes in the last dimension, but got 8 = 2 * 4 bytes
# DESC_NARROW-NEXT: {{^}}    desc = tl.make_tensor_descriptor(x, [128, 128], [128, 1], [1, 2])
def desc_narrow(x):
    desc = tl.make_tensor_descriptor(x, [128, 128], [128, 1], [1, 2])
    desc.load([0, 0])


# PRINT_TILE: builtins.py:[[@LINE+3]]:5: error: print() in a kernel prints at run time, as tl.device_print: its first argument must be a string prefix, as in print("x:", x) (tl.static_print prints at compile time)
# PRINT_TILE-NEXT: {{^}}    print(tl.load(x))
def print_tile(x):
    print(tl.load(x))


# COMPILED_BREAKPOINT: builtins.py:[[@LINE+3]]:5: error: breakpoint() stops only in the interpreter: run with TESSERA_INTERPRET=1 (TRITON_INTERPRET=1 under tessera.compat), where kernels run as Python
# COMPILED_BREAKPOINT-NEXT: {{^}}    breakpoint()
def compiled_breakpoint(x):
    breakpoint()


# A constexpr function needs Python to run it (tessera.constexpr_function; the C API's constexpr_call).
# CONSTEXPR_FN_CLI: builtins.py:[[@LINE+4]]:23: error: constexpr function m.log2 cannot be called here: no Python to run it
# CONSTEXPR_FN_CLI-NEXT: {{^}}    n: tl.constexpr = log2(16)
# CONSTEXPR_FN_CLI-NEXT: {{^}}                      ^
def constexpr_fn_cli(x):
    n: tl.constexpr = log2(16)


# CONSTEXPR_TYPE: builtins.py:[[@LINE+3]]:27: error: tl.constexpr_type() takes a compile-time value, not tensor of type i32
# CONSTEXPR_TYPE-NEXT: {{^}}    tl.static_assert(n == tl.constexpr_type(n))
def constexpr_type_of_tensor(n):
    tl.static_assert(n == tl.constexpr_type(n))


# IMPRECISE: builtins.py:[[@LINE+4]]:9: error: max_num_imprecise_acc (128) must be <= K (64)
def imprecise_acc(p):
    a = tl.full((64, 64), 0.0, tl.float8e5)
    b = tl.full((64, 64), 0.0, tl.float8e5)
    c = tl.dot(a, b, max_num_imprecise_acc=128)


# CUSTOM_FP8: builtins.py:[[@LINE+3]]:9: error: tl.extra.cuda.convert_custom_float8_sm80 converts fp8e4b15 to fp16 or fp32, or fp16 or fp32 to fp8e4b15, not fp32 to bf16
def custom_fp8(p):
    x = tl.zeros([16], tl.float32)
    y = tl.extra.cuda.convert_custom_float8_sm80(x, tl.bfloat16)
