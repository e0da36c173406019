// Distributed tile IR -> thread IR (ir/IR.h, "Levels"), written once for
// every GPU target.
//
// Every tile carries a layout (ir/Layouts.h): a linear map from (register,
// lane, warp) to tile coordinates. A thread holds one scalar per register of
// the layout; the element a register holds is
//   coord(r, lane, warp) = regCoord[r] xor laneWarpCoord(lane, warp)
// where regCoord is a compile-time constant and the lane/warp part is
// computed once per layout in the kernel's prologue. Elementwise ops work
// register by register (layout assignment gives their operands one layout);
// broadcast, expand_dims and trans keep registers in place because their
// layouts are derived from their operand's. Moving data between threads goes
// through shared memory (convert_layout, reshape, join/split/cat, the
// cross-warp step of reductions, scans, dot operands) or through lane
// shuffles (the cross-lane step of reductions). Each such use allocates its
// own shared buffer (shared_alloc) and puts no barriers around it: after
// this lowering, allocate-shared gives buffers offsets by lifetime (buffers
// not live at once share bytes) and insert-barriers puts a barrier only
// before an access that may race with one since the last barrier. Loads and
// stores group the registers that hold consecutive elements into one vector
// access as wide as the axis analysis proves (16 bytes at most).
//
// A target may lower an op itself (a tensor-core dot, an async copy):
// registerOpLowering() installs a hook, tried before the shared lowering,
// for modules whose attribute `target` names it.
#pragma once

#include "ir/Builder.h"
#include "ir/LinearLayout.h"
#include "ir/analysis/AxisInfo.h"
#include "targets/gpu/Passes.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>

namespace tessera::targets::gpu {

class ThreadLowering;
// Lowers `op` and returns true, or returns false to leave it to the shared
// lowering.
using OpLoweringHook = std::function<bool(const ir::Operation &op, ThreadLowering &lowering)>;
void registerOpLowering(const std::string &target, ir::OpCode code, OpLoweringHook hook);
void clearOpLoweringsForTesting(const std::string &target);

// ---- the lowering, for the files of this folder and targets' hooks

// A tile layout, resolved: which element each register holds.
struct TileLayout {
  std::vector<int64_t> shape;
  ir::LinearLayout ll;
  int numRegs = 1;
  std::vector<std::vector<int32_t>> regCoord;  // [register][dim]
  std::vector<ir::Value *> laneWarpCoord;      // [dim], in the prologue
  std::vector<int> holder;                     // the first register holding the same element
  bool isCopy(int r) const { return holder[size_t(r)] != r; }
  ir::Value *ownsElements = nullptr;           // i1: not a lane/warp broadcast copy; null: every thread
  const ir::LinearLayout::Bases &bases(const char *dim) const { return ll.bases(dim); }
};

using Regs = std::vector<ir::Value *>;

// Bytes an element of `elem` (or of a tile of it) takes in shared memory.
int64_t storageBytes(ir::Type elem);

class ThreadLowering {
public:
  ThreadLowering(const ir::Function &kernel, ir::Function &out, int numWarps, int warpSize, std::string target);
  void lowerKernel();
  // After a failed lowerKernel: makes the partial output safe to destroy.
  void abandon();

  // Values: a scalar is one entry, a tile one entry per register.
  Regs &get(const ir::Value *v);
  ir::Value *scalar(const ir::Value *v) { return get(v)[0]; }
  void set(const ir::Value *v, Regs r) { values_[v] = std::move(r); }
  const TileLayout &layoutOf(ir::Type tile, const ir::Operation &where);
  ir::Value *coord(const TileLayout &l, int reg, size_t dim);
  // The row-major index of a register's element in its tile (i32).
  ir::Value *flatIndex(const TileLayout &l, int reg);
  // The row-major index of coordinates `c` in a tile of `shape`; a null
  // coordinate counts as 0.
  ir::Value *rowMajorIndex(const std::vector<ir::Value *> &c, const std::vector<int64_t> &shape);
  // For each output dimension of `ll`: the xor of the lane and warp bases
  // whose bit is set in this thread's lane and warp ids (in the prologue).
  std::vector<ir::Value *> laneWarpPart(const ir::LinearLayout &ll);
  // Runs `build` with the builder in the kernel's prologue, whose values
  // every later op sees.
  template <typename F> auto inPrologue(F &&build) {
    ir::Builder saved = b;
    b = prologue_;
    auto result = build();
    prologue_ = b;
    b = saved;
    return result;
  }
  [[noreturn]] void fail(const ir::Operation &op, const std::string &msg) const;

  // Building thread IR at the insertion point; integer ops on constants fold.
  ir::Value *i32(int64_t v);
  ir::Value *boolean(bool v);
  ir::Value *zero(ir::Type t);
  ir::Value *binary(ir::OpCode code, ir::Value *a, ir::Value *b);
  ir::Value *add(ir::Value *a, ir::Value *b) { return binary(ir::OpCode::Add, a, b); }
  ir::Value *sub(ir::Value *a, ir::Value *b) { return binary(ir::OpCode::Sub, a, b); }
  ir::Value *mul(ir::Value *a, ir::Value *b) { return binary(ir::OpCode::Mul, a, b); }
  ir::Value *div(ir::Value *a, ir::Value *b) { return binary(ir::OpCode::Div, a, b); }
  ir::Value *rem(ir::Value *a, ir::Value *b) { return binary(ir::OpCode::Rem, a, b); }
  ir::Value *bitAnd(ir::Value *a, ir::Value *b) { return binary(ir::OpCode::And, a, b); }
  ir::Value *bitOr(ir::Value *a, ir::Value *b) { return binary(ir::OpCode::Or, a, b); }
  ir::Value *bitXor(ir::Value *a, ir::Value *b) { return binary(ir::OpCode::Xor, a, b); }
  ir::Value *shl(ir::Value *a, int64_t bits) { return binary(ir::OpCode::Shl, a, i32(bits)); }
  ir::Value *shr(ir::Value *a, int64_t bits) { return binary(ir::OpCode::Shr, a, i32(bits)); }
  ir::Value *cmp(const char *pred, ir::Value *a, ir::Value *b);
  ir::Value *select(ir::Value *c, ir::Value *a, ir::Value *b);
  ir::Value *logicalNot(ir::Value *v) { return bitXor(v, boolean(true)); }
  ir::Value *cast(ir::Value *v, ir::Type to);
  ir::Value *emit(ir::OpCode code, std::vector<ir::Value *> operands, ir::Type result, ir::AttrDict attrs = {});
  void barrier();

  // Ops (ThreadLowering.cpp).
  void lowerBlock(const ir::Block &block);
  void lowerOp(const ir::Operation &op);
  void lowerElementwise(const ir::Operation &op);
  void lowerInlineAsm(const ir::Operation &op);
  void lowerArange(const ir::Operation &op);
  bool castsPairwise(const ir::Operation &op, const TileLayout &l, Regs &out);
  void lowerSameRegisters(const ir::Operation &op);
  void lowerThroughShared(const ir::Operation &op);
  void lowerGather(const ir::Operation &op);
  void lowerPrint(const ir::Operation &op);
  void lowerAssert(const ir::Operation &op);
  // The values the combine region of a reduce or scan yields for `args`.
  Regs combine(const ir::Block &region, const Regs &args);
  Regs combine(const ir::Block &region, const Regs &left, const Regs &right);

  // Control flow (ThreadControl.cpp).
  void lowerFor(const ir::Operation &op);
  void lowerIf(const ir::Operation &op);
  void lowerWarpSpecialize(const ir::Operation &op);
  void lowerWhile(const ir::Operation &op);
  std::vector<int> registerCounts(const std::vector<ir::Value *> &vs, const ir::Operation &where);
  std::vector<ir::Type> registerTypes(const std::vector<ir::Value *> &vs, const ir::Operation &where);
  // if (cond) { then() }.
  void when(ir::Value *cond, const std::function<void()> &then);
  // cond ? then() : otherwise, with then() run only when cond holds.
  Regs whenElse(ir::Value *cond, const std::function<Regs()> &then, const Regs &otherwise);
  // for (i = 0; i < count; ++i) with loop-carried values; returns their finals.
  Regs loop(ir::Value *count, const Regs &inits, const std::function<Regs(ir::Value *i, const Regs &carried)> &body);

  // Memory (ThreadMemory.cpp).
  void lowerLoad(const ir::Operation &op);
  void lowerStore(const ir::Operation &op);
  void lowerAtomic(const ir::Operation &op);
  void lowerConvertLayout(const ir::Operation &op);
  // Registers per access of pointers `ptrs` (with `mask`, may be null).
  int vectorWidth(const ir::Value *ptrs, const ir::Value *mask, const TileLayout &l, int elemBytes);
  // Shared memory: a buffer of `elements` x `elem` (a shared_alloc here;
  // allocate-shared places it, insert-barriers orders its accesses), at a
  // multiple of `align` bytes.
  ir::Value *allocShared(ir::Type elem, int64_t elements, int64_t align = 16);
  // Element `index` of `buffer`. An exclusive access touches an element no
  // other thread touches until the next barrier, so it needs none.
  ir::Value *sharedAddress(ir::Value *buffer, ir::Value *index);
  ir::Value *loadShared(ir::Value *buffer, ir::Value *index, bool exclusive = false);
  void storeShared(ir::Value *buffer, ir::Value *index, ir::Value *v, bool exclusive = false);
  // Writes every element of a tile at its row-major index.
  void storeTileShared(const Regs &regs, const TileLayout &l, ir::Value *buffer);
  // A tile in layout `l` read back from a row-major copy in shared memory.
  Regs readTileShared(const TileLayout &l, ir::Value *buffer);
  // A conversion from `li` to `lo` through shared memory in pieces of at
  // most `budget` bytes (row-major ranges of the tile), element by element.
  Regs convertInPieces(const TileLayout &li, const TileLayout &lo, const Regs &src, ir::Type elem, int64_t elements,
                       int64_t budget);

  // Reductions and scans (ThreadReduce.cpp).
  void lowerReduce(const ir::Operation &op);
  void lowerScan(const ir::Operation &op);
  bool scanByBits(const ir::Operation &op, const TileLayout &l);
  Regs operandsToShared(const ir::Operation &op, const TileLayout &l);
  Regs sharedRegions(const ir::Operation &op, int64_t elements);

  // Shared-memory buffers of the distributed level (ThreadShared.cpp).
  void lowerLocalAlloc(const ir::Operation &op);
  void lowerLocalStore(const ir::Operation &op);
  void lowerLocalLoad(const ir::Operation &op);
  void lowerLocalView(const ir::Operation &op);
  void lowerLocalTrans(const ir::Operation &op);
  void lowerAsyncCopy(const ir::Operation &op);
  // An async_copy's register groups: the widest vector both its buffer's
  // layout and its pointers allow, and for each group (copies skipped) its
  // first register and a builder of the shared address it lands at (built
  // where the caller needs it).
  int asyncCopyWidth(const ir::Operation &op);
  void forEachCopyGroup(const ir::Operation &op, int width,
                        const std::function<void(int first, const std::function<ir::Value *()> &dst)> &each);
  void storeToBuffer(const ir::Operation &op, ir::Value *base, ir::Type buffer, const ir::Value *tile);
  // A tile of type `tile` read from a buffer of type `buffer` at `base`.
  Regs loadFromBuffer(const ir::Operation &op, ir::Value *base, ir::Type buffer, ir::Type tile);
  // Where each register of tile layout `l` lives in a buffer of type `buffer`.
  struct Placement {
    std::vector<int32_t> regOffset;  // [register], elements
    ir::Value *laneWarpOffset;       // xor-ed in, from the prologue
    int32_t laneWarpBits;            // the bits laneWarpOffset may have
    int width;                       // registers per vector access (consecutive, aligned)
    // Registers per vector access of local stores and loads: the register
    // bits whose elements lie 1, 2, 4... apart, in any order (an
    // accumulator held transposed steps along the buffer's rows with its
    // second register bit).
    std::vector<int> groupBits;
    // The registers of each such access, in offset order.
    std::vector<std::vector<int>> groups(int numRegs) const;
  };
  const Placement &placementOf(ir::Type buffer, ir::Type tile, const ir::Operation &where);
  // The address of register `reg`'s element (placement `p`, buffer at `base`).
  ir::Value *placedAddress(ir::Value *base, const Placement &p, int reg);
  // base + (laneWarp ^ offset), where laneWarp has only `laneWarpBits`.
  ir::Value *swizzledAddress(ir::Value *base, ir::Value *laneWarp, int32_t laneWarpBits, int32_t offset);
  // The bits the lane and warp bases of `ll`'s first output may set.
  static int32_t laneWarpBits(const ir::LinearLayout &ll);

  // dot on CUDA cores / SIMT lanes (ThreadDot.cpp).
  void lowerDot(const ir::Operation &op);

  const ir::Function &kernel;
  ir::Function &out;
  int numWarps, warpSize;
  std::string target;
  ir::AttrDict moduleAttrs;  // the module's (target, arch, ...), for targets' hooks
  ir::Builder b;  // the insertion point in `out`
  ir::Value *tid = nullptr, *lane = nullptr, *warp = nullptr;
  const ir::AxisAnalysis &axis() const { return *axis_; }

private:
  ir::Region prologueHolder_;  // prologue ops, moved to the front of `out` at the end
  ir::Builder prologue_;
  std::map<ir::OpCode, OpLoweringHook> hooks_;  // the target's, copied once
  std::unordered_map<const ir::Value *, Regs> values_;
  std::map<std::pair<std::vector<int64_t>, const ir::Layout *>, std::unique_ptr<TileLayout>> layouts_;
  std::map<std::pair<int64_t, int>, ir::Value *> constants_;  // (value, 0 = i32 / 1 = i1)
  std::map<std::string, ir::Value *> zeros_;                  // by type
  std::map<std::pair<std::string, std::string>, std::unique_ptr<Placement>> placements_;  // (buffer, tile) types
  std::unique_ptr<ir::AxisAnalysis> axis_;
};

} // namespace tessera::targets::gpu
