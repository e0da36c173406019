# RUN: not tessera compile %s --entry add_i64 --signature "*i64,*i64" 2>&1 | FileCheck %s --check-prefix=ADD_I64
# RUN: not tessera compile %s --entry max_f16 --signature "*fp16,*fp16" 2>&1 | FileCheck %s --check-prefix=MAX_F16
# RUN: tessera compile %s --entry max_f16 --signature "*fp16,*fp16" --target nvptx --emit asm 2>&1 | FileCheck %s --check-prefix=MAX_F16_NVPTX
# RUN: not tessera compile %s --entry wrong_shape --signature "*fp32,*fp32" 2>&1 | FileCheck %s --check-prefix=SHAPE
# RUN: not tessera compile %s --entry gather_2_rows --signature "*fp32,*i32" 2>&1 | FileCheck %s --check-prefix=TWO_ROWS
# RUN: not tessera compile %s --entry gather_2d_rows --signature "*fp32,*i32" 2>&1 | FileCheck %s --check-prefix=ROWS_2D
# Tensor descriptors' reductions take Triton's dtypes and a value of the
# block's shape; gather and scatter take a one-row block and 1-D row offsets.
import tessera
import tessera.language as tl


def add_i64(out, a):
    desc = tl.make_tensor_descriptor(out, shape=[16, 16], strides=[16, 1], block_shape=[8, 16])
    desc.atomic_add([0, 0], tl.load(a + tl.arange(0, 8)[:, None] * 16 + tl.arange(0, 16)[None, :]))
# ADD_I64: descriptor-reductions.py:[[@LINE-1]]:5: error: descriptor atomic_add does not take int64 elements


def max_f16(out, a):
    desc = tl.make_tensor_descriptor(out, shape=[16, 16], strides=[16, 1], block_shape=[8, 16])
    desc.atomic_max([0, 0], tl.load(a + tl.arange(0, 8)[:, None] * 16 + tl.arange(0, 16)[None, :]))
# MAX_F16: descriptor-reductions.py:[[@LINE-1]]:5: error: descriptor atomic_max does not take fp16 elements on cpu (Triton's 16-bit float min and max need Hopper's TMA)
# MAX_F16_NVPTX: .entry max_f16


def wrong_shape(out, a):
    desc = tl.make_tensor_descriptor(out, shape=[16, 16], strides=[16, 1], block_shape=[8, 16])
    desc.atomic_add([0, 0], tl.load(a + tl.arange(0, 16)))
# SHAPE: descriptor-reductions.py:[[@LINE-1]]:5: error: descriptor atomic_add's value must have the block's shape tile<8x16xptr<f32>>, found tensor of type tile<16xf32>


def gather_2_rows(out, idx):
    desc = tl.make_tensor_descriptor(out, shape=[16, 16], strides=[16, 1], block_shape=[2, 16])
    x = desc.gather(tl.load(idx + tl.arange(0, 8)), 0)
# TWO_ROWS: descriptor-reductions.py:[[@LINE-1]]:9: error: descriptor gather needs a 2-D descriptor whose block is one row, found block [2, 16]


def gather_2d_rows(out, idx):
    desc = tl.make_tensor_descriptor(out, shape=[16, 16], strides=[16, 1], block_shape=[1, 16])
    x = desc.gather(tl.load(idx + tl.arange(0, 8)[:, None] + tl.arange(0, 2)[None, :]), 0)
# ROWS_2D: descriptor-reductions.py:[[@LINE-1]]:9: error: descriptor gather's row offsets must be a 1-D integer tile, found tensor of type tile<8x2xi32>
