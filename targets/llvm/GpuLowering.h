// Distributed tile IR -> per-thread LLVM IR, shared by every GPU target.
//
// Every tile carries a layout (ir/Layouts.h): a linear map from (register,
// lane, warp) to tile coordinates. A thread holds one LLVM scalar per
// register of the layout; the element a register holds is
//   coord(r, lane, warp) = regCoord[r] xor laneWarpCoord(lane, warp)
// where regCoord is a compile-time constant and the lane/warp part is
// computed once per layout in the kernel's prologue. Elementwise ops work
// register by register (layout assignment gives their operands one layout);
// broadcast, expand_dims and trans keep registers in place because their
// layouts are derived from their operand's. Moving data between threads goes
// through shared memory (convert_layout, reshape, join/split/cat, the
// cross-warp step of reductions, scans, dot operands) or through lane
// shuffles (the cross-lane step of reductions). Every shared-memory use
// starts at offset 0 of the program's dynamic shared memory and is
// bracketed by barriers, so uses never overlap; the size is the largest use.
// Loads and stores group the registers that hold consecutive elements into
// one vector access as wide as the axis analysis proves (16 bytes at most).
#pragma once

#include "ir/LinearLayout.h"
#include "ir/analysis/AxisInfo.h"
#include "targets/Target.h"
#include "targets/llvm/Elementwise.h"
#include "targets/llvm/TargetInfo.h"

#include <functional>
#include <map>
#include <memory>
#include <unordered_map>

namespace tessera::targets::llvmgen {

struct GpuKernelInfo {
  std::vector<KernelParam> params;
  int threads = 0;
  int64_t sharedMemoryBytes = 0;
};

// Lowers kernel `kernel` (calls inlined, layouts assigned) into `module` as
// entry point `symbol`. Returns false with `error` set for IR it cannot lower.
bool lowerGpuKernel(const ir::Function &kernel, const std::string &symbol, const TargetInfo &info, int numWarps,
                    llvm::Module &module, GpuKernelInfo &out, std::string &error);

// ---- private to the lowering files

// A tile layout, resolved: which element each register holds.
struct TileLayout {
  std::vector<int64_t> shape;
  ir::LinearLayout ll;
  int numRegs = 1;
  std::vector<std::vector<int32_t>> regCoord;  // [register][dim]
  std::vector<llvm::Value *> laneWarpCoord;    // [dim], in the prologue
  std::vector<int> holder;                     // the first register holding the same element
  bool isCopy(int r) const { return holder[size_t(r)] != r; }
  llvm::Value *ownsElements = nullptr;         // i1: not a lane/warp broadcast copy
  const ir::LinearLayout::Bases &bases(const char *dim) const;
};

using Regs = std::vector<llvm::Value *>;

class GpuLowering : public ElementwiseEmitter {
public:
  GpuLowering(llvm::Module &m, const TargetInfo &info, int numWarps);
  void lowerKernel(const ir::Function &kernel, const std::string &symbol, GpuKernelInfo &out);

  llvm::Value *mathCall(const char *name, llvm::Value *v, ir::Type t) override { return info.math(b, m, name, v, t); }

  // Values: a scalar is one entry, a tile one entry per register.
  Regs &get(const ir::Value *v);
  llvm::Value *scalar(const ir::Value *v) { return get(v)[0]; }
  void set(const ir::Value *v, Regs r) { values_[v] = std::move(r); }
  const TileLayout &layoutOf(ir::Type tile, const ir::Operation &where);
  llvm::Value *coord(const TileLayout &l, int reg, size_t dim);
  // The row-major index of a register's element in its tile (i32).
  llvm::Value *flatIndex(const TileLayout &l, int reg);
  llvm::Value *i32(int64_t v) { return b.getInt32(uint32_t(v)); }

  // Ops (GpuLowering.cpp).
  void lowerBlock(const ir::Block &block);
  void lowerOp(const ir::Operation &op);
  void lowerElementwise(const ir::Operation &op);
  void lowerArange(const ir::Operation &op);
  bool castsPairwise(const ir::Operation &op, const TileLayout &l, Regs &out);
  void lowerSameRegisters(const ir::Operation &op);
  void lowerThroughShared(const ir::Operation &op);
  void lowerPrint(const ir::Operation &op);
  void lowerAssert(const ir::Operation &op);
  std::vector<llvm::Value *> combine(const ir::Block &region, std::vector<llvm::Value *> args);

  // Control flow (GpuControl.cpp).
  void lowerFor(const ir::Operation &op);
  void lowerIf(const ir::Operation &op);
  void lowerWhile(const ir::Operation &op);
  // if (cond) { then() } ; returns after the merge point.
  void when(llvm::Value *cond, const std::function<void()> &then);
  // cond ? then() : otherwise, with then() run only when cond holds.
  llvm::Value *whenElse(llvm::Value *cond, const std::function<llvm::Value *()> &then, llvm::Value *otherwise);
  // for (i = 0; i < count; ++i) with loop-carried values; returns their finals.
  Regs loop(llvm::Value *count, const Regs &inits, const std::function<Regs(llvm::Value *i, const Regs &carried)> &body);

  // Memory (GpuMemory.cpp).
  void lowerLoad(const ir::Operation &op);
  void lowerStore(const ir::Operation &op);
  void lowerAtomic(const ir::Operation &op);
  void lowerConvertLayout(const ir::Operation &op);
  int vectorWidth(const ir::Operation &op, const TileLayout &l, int elemBytes);
  // Shared memory: `bytes` at `offsetBytes`, bracketed by barriers by callers.
  llvm::Value *sharedAddress(ir::Type elem, int64_t offsetBytes, llvm::Value *index);
  void reserveShared(int64_t bytes) { sharedBytes_ = std::max(sharedBytes_, bytes); }
  void beginShared() { info.barrier(b); }
  // Writes every element of a tile at its row-major index (+ offset).
  void storeTileShared(const Regs &regs, const TileLayout &l, ir::Type elem, int64_t offsetBytes);
  llvm::Value *loadShared(ir::Type elem, int64_t offsetBytes, llvm::Value *index);
  void storeShared(ir::Type elem, int64_t offsetBytes, llvm::Value *index, llvm::Value *v);
  // A tile in layout `l` read back from a row-major copy in shared memory.
  Regs readTileShared(const TileLayout &l, ir::Type elem, int64_t offsetBytes);

  // Reductions and scans (GpuReduce.cpp).
  void lowerReduce(const ir::Operation &op);
  void lowerScan(const ir::Operation &op);
  bool scanByBits(const ir::Operation &op, const TileLayout &l);
  llvm::Value *shuffleXor(llvm::Value *v, int laneMask);
  std::vector<int64_t> operandsToShared(const ir::Operation &op, const TileLayout &l);
  std::vector<int64_t> sharedRegions(const ir::Operation &op, int64_t elements);
  Regs combine(const ir::Block &region, const Regs &left, const Regs &right);

  // dot on CUDA cores / SIMT lanes (GpuDot.cpp).
  void lowerDot(const ir::Operation &op);

  const TargetInfo &info;
  int numWarps;
  llvm::Function *fn = nullptr;
  llvm::Value *tid = nullptr, *lane = nullptr, *warp = nullptr;

private:
  llvm::IRBuilder<> prologue_;  // inserts before the prologue block's branch
  std::unordered_map<const ir::Value *, Regs> values_;
  std::map<std::pair<std::vector<int64_t>, const ir::Layout *>, std::unique_ptr<TileLayout>> layouts_;
  int64_t sharedBytes_ = 0;
  std::unique_ptr<ir::AxisAnalysis> axis_;
};

} // namespace tessera::targets::llvmgen
