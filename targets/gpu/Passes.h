// The passes of the shared GPU lowering, in pipeline order; each is a
// function Module -> Module over every kernel, one per file. They read the
// module attributes num_warps, warp_size and target, and throw
// ir::PassError for IR they cannot handle.
#pragma once

#include "ir/IR.h"

namespace tessera::targets::gpu {

// Tile IR: loads feeding dots in loops become num_stages-deep async copies
// through shared memory (PipelineLoops.cpp); reads module attribute num_stages.
void pipelineLoops(ir::Module &m);
// Tile IR: desc_stores a tensor map can write become a shared buffer and a
// tma_store (TensorMapStores.cpp); reads module attribute tensor_maps.
void tensorMapStores(ir::Module &m);
// Distributed tile IR -> thread IR (ThreadLowering.cpp).
void lowerToThreads(ir::Module &m);
// shared_alloc -> shared_ptr at offsets reused across disjoint lifetimes.
void allocateShared(ir::Module &m);
// A barrier wherever a shared-memory access may race with an earlier one.
void insertBarriers(ir::Module &m);

// Adds the passes above to the pass registry (ir/PassManager.h); idempotent.
void registerPasses();

} // namespace tessera::targets::gpu
