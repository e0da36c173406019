# RUN: tessera compile %s --entry persistent --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32:16,i32:16" -D BM=128 -D BN=256 -D BK=64 -D NUM_SMS=132 -D WS=1 --num-warps 8 --num-stages 3 --target nvptx --arch sm_90a --dump-ir-after-each 2>&1 | sed -n "/IR after pipeline-loops/,/IR after tensor-map-stores/p" | FileCheck %s --check-prefix=TILE
# RUN: tessera compile %s --entry persistent --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32:16,i32:16" -D BM=128 -D BN=256 -D BK=64 -D NUM_SMS=132 -D WS=1 --num-warps 8 --num-stages 3 --target nvptx --arch sm_90a --emit asm | FileCheck %s --check-prefix=PTX
# RUN: tessera compile %s --entry persistent --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32:16,i32:16" -D BM=128 -D BN=256 -D BK=64 -D NUM_SMS=132 -D WS=1 --num-warps 8 --num-stages 4 --target nvptx --arch sm_90a --emit asm | FileCheck %s --check-prefix=PLAIN
# RUN: tessera compile %s --entry persistent --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32:16,i32:16" -D BM=128 -D BN=256 -D BK=64 -D NUM_SMS=132 -D WS=0 --num-warps 8 --num-stages 3 --target nvptx --arch sm_90a --emit asm | FileCheck %s --check-prefix=PLAIN
# RUN: tessera compile %s --entry queued --signature "*fp16:16,*fp16:16,*fp16:16,i32,i32:16,i32:16,*i32:16" -D BM=128 -D BN=128 -D BK=64 -D NUM_SMS=132 --num-warps 4 --num-stages 3 --target nvptx --arch sm_90a --emit asm | FileCheck %s --check-prefix=PLAIN
#
# Tutorial 09's persistent kernel with its tile loop warp-specialized: the
# producer warpgroup runs the tile loop too, recomputing each tile's
# offsets from the tile's induction variable, and copies its k loop's
# stages, iterations numbered across tiles (the iterations of the tiles
# before: (tile - start) / step * trips, trips from the k loop's bounds),
# so stages and mbarrier phases carry on from one tile to the next and the
# next tile's copies overlap this one's epilogue. Stages and mbarriers live
# at the top level, invalidated after the tile loop.
# TILE: mbarrier_init %[[FULL:[0-9]+]] {count = 2}
# TILE: %[[REL:[0-9]+]] = local_alloc : smem<4xi64
# TILE-NEXT: mbarrier_init %[[REL]] {count = 8}
# TILE: %[[TRIPS:[0-9]+]] = max
# TILE-NEXT: warp_specialize {producer_warps = 4} {
# TILE-NEXT: for %start_pid, %num_tiles, %{{[0-9]+}} {
# TILE-NEXT: ^bb(%tile_id: i32):
# TILE: %offs_am = mul
# TILE: %[[DONE:[0-9]+]] = mul %{{[0-9]+}}, %[[TRIPS]] : i32
# TILE-NEXT: for
# TILE-NEXT: ^bb(%ki: i32):
# TILE-NEXT: %[[K:[0-9]+]] = sub %ki
# TILE-NEXT: %{{[0-9]+}} = add %[[DONE]], %[[K]] : i32
# TILE: mbarrier_wait %[[REL]], %{{[0-9]+}}, %{{[0-9]+}} {barrier = false}
# TILE: tma_copy
# TILE: tma_copy
# TILE: = for %start_pid, %num_tiles
# TILE: %[[CDONE:[0-9]+]] = mul %{{[0-9]+}}, %[[TRIPS]] : i32
# TILE: for {{.*}}{nonempty = true, warp_specialize = true}
# TILE-NOT: tma_copy
# TILE: add %[[CDONE]], %{{[0-9]+}} : i32
# TILE: mbarrier_wait %[[FULL]], {{.*}} {barrier = false}
# TILE: dot
# TILE: mbarrier_arrive %[[REL]]
# TILE: desc_store
# TILE: yield
# TILE-NEXT: }
# TILE-NEXT: mbarrier_inval %[[FULL]]
# TILE-NEXT: mbarrier_inval %[[REL]]
#
# PTX: .maxntid 384, 1, 1
# PTX: setmaxnreg.inc.sync.aligned.u32 232;
# PTX-DAG: wgmma.mma_async
# PTX-DAG: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
# PTX: setmaxnreg.dec.sync.aligned.u32 40;
# PTX: mbarrier.arrive.expect_tx
#
# No producer without the hint; when four stages of 128 x 256 beside the
# epilogue's 64 KB store buffer would not fit in shared memory; or when
# the tiles come from memory (a queue the producer would have to read).
# PLAIN: .maxntid {{128|256}}, 1, 1
# PLAIN-NOT: setmaxnreg
# PLAIN-NOT: mbarrier.arrive.shared
import tessera.language as tl


def tile_of(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M: tl.constexpr):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    return first_pid_m + (tile_id % group_size_m), (tile_id % num_pid_in_group) // group_size_m


def persistent(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
               NUM_SMS: tl.constexpr, WS: tl.constexpr):
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    num_tiles = num_pid_m * num_pid_n
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    tile_id_c = start_pid - NUM_SMS
    num_pid_in_group = 8 * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True, warp_specialize=WS):
        pid_m, pid_n = tile_of(tile_id, num_pid_in_group, num_pid_m, 8)
        offs_am = pid_m * BM
        offs_bn = pid_n * BN
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(k_tiles):
            acc = tl.dot(a_desc.load([offs_am, ki * BK]), b_desc.load([offs_bn, ki * BK]).T, acc)
        tile_id_c += NUM_SMS
        pid_m, pid_n = tile_of(tile_id_c, num_pid_in_group, num_pid_m, 8)
        c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


def queued(a_ptr, b_ptr, c_ptr, M, N, K, queue, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
           NUM_SMS: tl.constexpr):
    num_pid_n = tl.cdiv(N, BN)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    for i in tl.range(tl.program_id(0), tl.cdiv(M, BM) * num_pid_n, NUM_SMS, warp_specialize=True):
        tile = tl.load(queue + i)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(tl.cdiv(K, BK)):
            acc = tl.dot(a_desc.load([tile // num_pid_n * BM, ki * BK]), b_desc.load([tile % num_pid_n * BN, ki * BK]).T, acc)
        c_desc.store([tile // num_pid_n * BM, tile % num_pid_n * BN], acc.to(tl.float16))
