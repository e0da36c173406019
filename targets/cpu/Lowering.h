// Private to the CPU target: tile IR -> LLVM IR for the host.
//
// A program of the grid runs as one call on one thread. Scalars are LLVM
// scalars. A tile is uniform (every element equal: one scalar, no memory),
// computed chunk by chunk in its user's loop (a fused elementwise op or
// load), or a row-major buffer: on the stack, or in the thread's scratch
// area once the frame passes kStackBudget. Elementwise ops on buffers are
// loops over chunks of the native vector width; loads and stores use masked
// vector loads where the pointers are provably contiguous along the last
// dimension, gathers and scatters otherwise; dot is a register-blocked
// micro-kernel; reductions and scans run the op's combine region on vectors.
#pragma once

#include "ir/IR.h"
#include "ir/analysis/AxisInfo.h"
#include "targets/Target.h"
#include "targets/llvm/Elementwise.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace tessera::targets::cpu {

struct HostFacts {
  int vectorBits = 256;
  bool avx512bw = false;  // 16-bit lane permutes
};

// Lowers kernel `entry` (calls already inlined) into `module`, exporting the
// ABI function of docs/cpu-abi.md under `symbol`. Returns false with `error`
// set for IR it cannot lower.
bool lowerKernel(const ir::Function &kernel, const std::string &symbol, const HostFacts &facts,
                 llvm::Module &module, std::vector<KernelParam> &params, std::string &error);

// ---- shared between the lowering files

constexpr int64_t kCacheLine = 64;  // bytes

// The single min or max of floats that makes up a reduce's `region`, if it is one.
const ir::Operation *floatMinMax(const ir::Block &region);

// A tile that is computed where it is used, one chunk at a time: a pure
// elementwise op with a single use fuses into its consumer's loop.
using ChunkGen = std::function<llvm::Value *(llvm::Value *index, unsigned width)>;

struct Lowered {
  llvm::Value *scalar = nullptr;  // scalars, and the value of a uniform tile
  llvm::Value *buf = nullptr;     // a tile's row-major storage
  ChunkGen gen;                   // or a lazily computed tile
  // Computed by its first user's loop, which also fills `buf` for the rest.
  bool pending = false;
  // Pointer tiles of the loads a lazy or pending tile performs when computed:
  // a store that computes it chunk by chunk must not overwrite what a later
  // chunk still has to read.
  std::vector<const ir::Value *> reads;
  // Operations one chunk of a lazy or pending tile runs when generated: its
  // own and those of the lazy operands it pulls in, counted per use.
  unsigned fused = 0;
  bool isTile() const { return buf != nullptr || gen != nullptr; }
};

using llvmgen::LoweringError;

class Lowering : public llvmgen::ElementwiseEmitter {
public:
  Lowering(llvm::Module &m, const HostFacts &facts);
  void lowerBody(const ir::Function &kernel, llvm::Function *fn, llvm::Value *pid[3], llvm::Value *grid[3]);

  // Types.
  llvm::Type *vecOf(ir::Type elem, unsigned width);
  unsigned vectorWidth(ir::Type tile, bool withinRow = false);

  // Values.
  Lowered &get(const ir::Value *v);
  void set(const ir::Value *v, Lowered l) { values_[v] = l; }
  llvm::Value *newBuffer(ir::Type tile);
  llvm::Value *entryAlloca(llvm::Type *type, int64_t count);
  // Tiles over kStackBudget bytes in all move from the stack to the
  // thread's scratch area (tessera_host_scratch): a few 2^20-element tiles
  // would overflow a thread's stack.
  static constexpr uint64_t kStackBudget = 1 << 20;
  void moveLargeFrameToScratch();
  // Ends a loop iteration: back to `head`, or, once the runtime has seen
  // SIGINT (tessera_host_interrupted), out of the program.
  llvm::Instruction *continueUnlessInterrupted(llvm::BasicBlock *head);  // the back edge
  llvm::BasicBlock *interruptedExit_ = nullptr;
  llvm::Value *materialize(const ir::Value *v);  // buffer of a tile, filling one for uniform tiles
  llvm::Value *loadChunk(const ir::Value *v, llvm::Value *index, unsigned width);
  llvm::Value *loadElement(const ir::Value *v, llvm::Value *index);
  void storeChunk(llvm::Value *buf, ir::Type elem, llvm::Value *index, llvm::Value *vec);

  // Control.
  // A loop over chunks; its iterations count for prefetching (Prefetch.cpp).
  void loop(llvm::Value *begin, llvm::Value *end, int64_t step, const std::function<void(llvm::Value *)> &body);
  // The same loop, not counted.
  void plainLoop(llvm::Value *begin, llvm::Value *end, int64_t step, const std::function<void(llvm::Value *)> &body);
  llvm::Value *i64(int64_t v) { return b.getInt64(v); }

  // Math (Math.cpp).
  llvm::Value *mathCall(const char *name, llvm::Value *v, ir::Type t, bool approx) override;
  llvm::Value *mathCall2(const char *name, llvm::Value *x, llvm::Value *y, ir::Type t) override;
  llvm::Value *f32ToBf16(llvm::Value *v) override;
  llvm::Value *besselN(const char *name, llvm::Value *order, llvm::Value *x, bool f64);
  llvm::Value *libmUnary(const char *name, llvm::Value *v, ir::Type t);
  llvm::Value *vectorMath(const char *name, llvm::Value *v, ir::Type t);
  llvm::Value *fastExp(llvm::Value *x, bool base2);
  llvm::Value *expPolynomial(llvm::Value *r);
  bool belowItsMax(const ir::Value *v);
  bool expArgNonPositive_ = false;  // set around an exp whose argument is x - max(x)
  std::vector<llvm::Value *> combine(const ir::Block &region, std::vector<llvm::Value *> args);

  // Ops (LowerOps.cpp).
  void lowerOp(const ir::Operation &op);
  void lowerOpOnly(const ir::Operation &op);
  void lowerElementwiseTile(const ir::Operation &op);
  void defineTile(const ir::Operation &op, ChunkGen gen);
  void lowerLoad(const ir::Operation &op);
  llvm::Value *chunkBase(const ir::Value *ptrs, llvm::Value *i, llvm::Value *vectorOfPtrs);
  void lowerStore(const ir::Operation &op);
  void storeLoop(const ir::Operation &op);
  void lowerAtomic(const ir::Operation &op);
  void lowerReduce(const ir::Operation &op);
  void lowerScan(const ir::Operation &op);
  void lowerDot(const ir::Operation &op);
  void lowerShapeOp(const ir::Operation &op);
  void lowerPrint(const ir::Operation &op);
  void lowerAssert(const ir::Operation &op);
  void emitAssertCheck(const ir::Operation &op, llvm::Value *ok);  // reports `op` failed unless `ok`
  void lowerCheckFailed(const ir::Operation &op);
  void lowerFor(const ir::Operation &op);
  void storeYields(const ir::Operation &y, const std::vector<llvm::Value *> &bufs);
  void lowerIf(const ir::Operation &op);
  void lowerWhile(const ir::Operation &op);
  void lowerBlock(const ir::Block &block);
  void copyTile(llvm::Value *dst, const ir::Value *src);
  // Elements of a pointer tile are consecutive along the last dimension.
  bool contiguousLastDim(const ir::Value *ptrs);
  int64_t contiguousRun(const ir::Value *ptrs);
  bool ownsBuffer(const ir::Value *v);
  llvm::Value *consecutiveLanes(llvm::Value *p, llvm::Value *m, llvm::Type *elem);
  unsigned chunkWidth(ir::Type t, int64_t run);
  bool noWritesBeforeUse(const ir::Operation &load);
  // Positions in a block and, for each, the first operation at or after it
  // that may write memory: made once per block, so that the questions above
  // cost the users of a value, not the length of the block.
  struct BlockOrder {
    std::unordered_map<const ir::Operation *, size_t> position;
    std::vector<size_t> nextWrite;  // one more than the block's operations
  };
  const BlockOrder &orderOf(const ir::Block *block);
  std::unordered_map<const ir::Block *, BlockOrder> orders_;
  // A lazy tile fuses at most this many operations into each chunk; past it
  // the tile is computed into a buffer. Bounds the code (and the recursion)
  // of long expression chains, and of expressions that use a cheap lazy tile
  // twice at every step, which would otherwise grow exponentially.
  static constexpr unsigned kFusionBudget = 256;
  unsigned fusedCost(const ir::Operation &op);
  bool isReadOnly(const ir::Operation &op);
  llvm::Value *safeAddress(llvm::Type *t);
  // `aligned` (i1, optional): base is known 64-byte aligned or not.
  llvm::Value *streamingStore(llvm::Value *v, llvm::Value *base, llvm::Align align, llvm::Value *aligned = nullptr);
  llvm::Value *chunkAllTrue(const ir::Value *mask, llvm::Value *i, unsigned w, llvm::Value *m);
  llvm::Value *boundsAllTrue(const ir::Value *mask, llvm::Value *i, unsigned w);
  // Streaming stores of a 1-D tile (StreamingStore.cpp).
  struct StreamPlan {
    llvm::Value *aligned = nullptr;  // i1: the tile starts on a cache line
    // i1: it starts inside one, at a whole element, and every lane is stored:
    // each line is then rebuilt from two consecutive chunks.
    llvm::Value *realign = nullptr;
    llvm::Value *first = nullptr, *misalign = nullptr, *index = nullptr;
    llvm::Value *prev = nullptr, *lanesTemp = nullptr;  // the previous chunk; a stack copy for lane stores
    llvm::Value *headLanes = nullptr;  // i64: lanes of the first chunk that end the first line
    llvm::Type *lanes = nullptr;  // the chunk as integers
    int64_t elements = 0;
    unsigned width = 0;
  };
  StreamPlan planStreaming(const ir::Value *ptrs, const ir::Value *mask, llvm::Type *storage, unsigned w, int64_t n);
  void realignedStore(const StreamPlan &plan, llvm::Value *v, llvm::Value *base, llvm::Value *i);
  void finishRealigned(const StreamPlan &plan);
  void storeLanes(const StreamPlan &plan, llvm::Value *v, llvm::Value *base, llvm::Value *from, llvm::Value *to);
  bool streamingStores_ = true;
  llvm::Value *branch(llvm::Value *cond, const std::function<llvm::Value *()> &then,
                      const std::function<llvm::Value *()> &otherwise);
  int recomputeCost(const ir::Operation &op);
  // Defers filling a multi-use tile's buffer to its first user's loop when
  // that user comes directly later in the same block; false if it cannot.
  bool deferToFirstUser(const ir::Operation &def, ChunkGen gen, std::vector<const ir::Value *> reads, unsigned fused);
  std::vector<const ir::Value *> readsOf(const ir::Operation &op);
  llvm::Value *storeMayClobberReads(const ir::Value *ptrs, const std::vector<const ir::Value *> &reads);
  void finishPending(const ir::Operation &user);

  // Prefetching (Prefetch.cpp).
  void predictNextLoad(const ir::Operation &load);
  void prefetchTick(unsigned chunks, int64_t runs);
  void finishPrefetches(const ir::Block &block);
  void countLoop(const std::function<void()> &emit, int64_t trip, unsigned chunksPerTrip);
  llvm::Value *rarely(const std::function<llvm::Value *()> &emit);

  llvm::Function *fn = nullptr;
  llvm::Value *pid[3] = {}, *grid[3] = {};
  // Per-program state of the load-address predictors (two i64 per load), kept
  // by the kernel's entry across the programs it runs.
  llvm::Value *prefetchState = nullptr;
  unsigned prefetchSlots = 0;
  HostFacts facts;

private:
  std::optional<int64_t> lastDimStride(const ir::Value *v, int depth = 0);
  std::unordered_map<const ir::Value *, Lowered> values_;
  std::unordered_map<const ir::Value *, std::optional<int64_t>> strides_;
  std::unique_ptr<ir::AxisAnalysis> axis_;
  llvm::IRBuilder<> allocas_;
  llvm::Value *scratch_ = nullptr;
  std::unordered_map<const ir::Operation *, std::vector<const ir::Value *>> pendingByUser_;
  std::unordered_set<const ir::Value *> filled_;  // pending tiles a loop has written

  struct PrefetchStream {
    const ir::Block *block;       // its chunk loops are those emitted directly for this block
    llvm::Value *next, *limit;    // predicted first byte; 16 x bytes to fetch (0: no prediction)
    llvm::Value *cursor;          // i64 slot: 16 x bytes fetched so far
    llvm::Instruction *step;      // placeholder for 16 x bytes per chunk, known once the block ends
    int64_t bytes, chunks = 0;    // chunk steps that run after the load, per pass of the block
    int loops = 0;                // chunk loops that ran them
    std::vector<llvm::Instruction *> prefetches;
  };
  std::vector<PrefetchStream> streams_;
  std::vector<const ir::Block *> blocks_;  // blocks being lowered, innermost last
  int64_t enclosingTrips_ = 1;             // runs of the code being emitted per pass of its block
  int loopsEmitted_ = 0;
};

} // namespace tessera::targets::cpu
