// The hooks a GPU target gives the thread IR -> LLVM emitter
// (targets/llvm/ThreadEmitter.h): ids, barriers, shuffles, address spaces,
// math and the kernel's calling convention. Facts (warp size, ...) are not
// here: they are TargetFacts (targets/Target.h).
#pragma once

#include "ir/IR.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace tessera::targets::llvmgen {

// A module flag set when the compile asks for subnormals to be flushed
// (TargetOptions::flushSubnormals): targets' math and device libraries read it.
inline constexpr const char *kFlushSubnormalsFlag = "tessera.flush_subnormals";
inline bool flushesSubnormals(const llvm::Module &m) {
  auto *flag = llvm::mdconst::extract_or_null<llvm::ConstantInt>(m.getModuleFlag(kFlushSubnormalsFlag));
  return flag && !flag->isZero();
}

class TargetInfo {
public:
  virtual ~TargetInfo() = default;
  virtual std::string name() const = 0;          // for error messages: "nvptx", "amdgpu"
  virtual unsigned globalAddressSpace() const = 0;
  virtual unsigned sharedAddressSpace() const = 0;

  // The thread's index within its program (0 .. threads-1), and grid queries.
  virtual llvm::Value *threadId(llvm::IRBuilder<> &b) const = 0;
  virtual llvm::Value *programId(llvm::IRBuilder<> &b, int axis) const = 0;
  virtual llvm::Value *numPrograms(llvm::IRBuilder<> &b, int axis) const = 0;
  // Every thread of the program waits here; shared memory written before it
  // is visible after it.
  virtual void barrier(llvm::IRBuilder<> &b) const = 0;
  // Only threads 0 .. threads-1 wait here (warp specialization's
  // consumers, ir/Ops.def); false where the target has no such barrier.
  virtual bool barrierOf(llvm::IRBuilder<> &, int threads) const {
    (void)threads;
    return false;
  }
  // Warp specialization: moves registers from the producer's warps to the
  // consumers' (Hopper's setmaxnreg), in the producer's code (`producer`)
  // and the consumers'. Nothing where the target cannot.
  virtual void rebalanceRegisters(llvm::IRBuilder<> &, bool producer, int consumerThreads, int producerThreads) const {
    (void)producer, (void)consumerThreads, (void)producerThreads;
  }
  // The i32 `v` of the lane whose id is this lane's id xor `laneMask`.
  virtual llvm::Value *shuffleXor(llvm::IRBuilder<> &b, llvm::Value *v, int laneMask) const = 0;
  // exp, exp2, log, log2, sin, cos, erf on a scalar of element type `t`;
  // `approx`: a faster, less accurate version is allowed (the op's attribute).
  virtual llvm::Value *math(llvm::IRBuilder<> &b, llvm::Module &m, const char *name, llvm::Value *v, ir::Type t,
                            bool approx) const = 0;
  // printf-style output from the device: `format` with `args` (ints widened
  // to 32 or 64 bits, floats to double, strings as pointers).
  // pow, atan2, hypot, fmod of `x` and `y` (f16/bf16 through f32).
  virtual llvm::Value *math2(llvm::IRBuilder<> &b, llvm::Module &m, const char *name, llvm::Value *x, llvm::Value *y,
                             ir::Type t) const = 0;
  // x / y (f32 scalars) for a div with `approx`, or null: the emitter then
  // writes an fdiv that may multiply by the reciprocal.
  virtual llvm::Value *approxDivide(llvm::IRBuilder<> &, llvm::Value *x, llvm::Value *y) const {
    (void)x, (void)y;
    return nullptr;
  }
  // 1 / sqrt(x) (an f32 scalar) for an rsqrt with `approx`, or null: the
  // emitter then divides 1 by the correctly rounded sqrt.
  virtual llvm::Value *approxRsqrt(llvm::IRBuilder<> &, llvm::Module &, llvm::Value *x) const {
    (void)x;
    return nullptr;
  }
  virtual void print(llvm::IRBuilder<> &b, llvm::Module &m, const std::string &format,
                     const std::vector<llvm::Value *> &args) const = 0;
  // Reports a failed device assertion and stops the program.
  virtual void assertFail(llvm::IRBuilder<> &b, llvm::Module &m, const std::string &message, const std::string &file,
                          int line) const = 0;
  // A predicated global load of `vecTy` (at most 16 bytes) whose lanes take
  // `fallback` where `pred` is false, or null to let the lowering branch
  // around a plain load. Same for stores (false: the lowering branches).
  // `hints`: the access's cache_modifier and eviction_policy ("cache" =
  // ca, cg, cv / wb, cg, cs, wt; "evict" = first, last, normal), which a
  // target without such qualifiers ignores. Unpredicated accesses with hints
  // come here with `pred` true.
  struct CacheHints {
    std::string cache, evict;
    bool any() const { return !cache.empty() || !evict.empty(); }
  };
  virtual llvm::Value *predicatedLoad(llvm::IRBuilder<> &, llvm::Value *ptr, llvm::Type *vecTy, llvm::Value *pred,
                                      llvm::Value *fallback, const CacheHints &hints) const {
    (void)ptr, (void)vecTy, (void)pred, (void)fallback, (void)hints;
    return nullptr;
  }
  virtual bool predicatedStore(llvm::IRBuilder<> &, llvm::Value *ptr, llvm::Value *value, llvm::Value *pred,
                               const CacheHints &hints) const {
    (void)ptr, (void)value, (void)pred, (void)hints;
    return false;
  }
  // A global access at `byteOffset` (i32) from `base`, a kernel argument
  // with pointer_range = 32 (ir/IR.h), where the offset is proven
  // non-negative (ir/analysis/NonNegative.h): every access the program
  // makes is then within 2^31 bytes after `base`. A target with 32-bit-
  // offset accesses (AMD's buffer instructions) emits them here, masked-off
  // lanes touching no memory and loading `fallback`; `pred` null: unmasked.
  // Null / false: the lowering uses the 64-bit address.
  virtual llvm::Value *rangedLoad(llvm::IRBuilder<> &, llvm::Value *base, llvm::Value *byteOffset, llvm::Type *vecTy,
                                  llvm::Value *pred, llvm::Value *fallback) const {
    (void)base, (void)byteOffset, (void)vecTy, (void)pred, (void)fallback;
    return nullptr;
  }
  virtual bool rangedStore(llvm::IRBuilder<> &, llvm::Value *base, llvm::Value *byteOffset, llvm::Value *value,
                           llvm::Value *pred) const {
    (void)base, (void)byteOffset, (void)value, (void)pred;
    return false;
  }
  // <2 x elem> holding `first` and `second` (f32) rounded to f16/bf16 by one
  // packed conversion, or null if the target has none.
  virtual llvm::Value *narrowPair(llvm::IRBuilder<> &, llvm::Value *first, llvm::Value *second, llvm::Type *elem) const {
    (void)first, (void)second, (void)elem;
    return nullptr;
  }
  // The thread op `mma` (ir/Ops.def): a warp's D = A.B + C of `shape` on
  // the matrix unit, operands (A's, B's, then C's elements, in their compute
  // types) in the target's fragment order; D's elements, or none if the
  // target has no such instruction.
  virtual std::vector<llvm::Value *> mma(llvm::IRBuilder<> &, const std::vector<int64_t> &shape, ir::Type a, ir::Type b,
                                         ir::Type acc, const std::vector<llvm::Value *> &operands) const {
    (void)shape, (void)a, (void)b, (void)acc, (void)operands;
    return {};
  }
  // The thread op `ldmatrix`: `matrices` 8x8 matrices of 16-bit elements
  // from shared memory, one i32 (two elements) per matrix, or none.
  virtual std::vector<llvm::Value *> loadMatrices(llvm::IRBuilder<> &, llvm::Value *sharedPtr, int matrices,
                                                  bool trans) const {
    (void)sharedPtr, (void)matrices, (void)trans;
    return {};
  }
  // Atomics on global memory with the IR's `sem` and `scope`: where the
  // target owns them, atomic() emits each (atomic_rmw's `kind`, or "cas"
  // with `cmp`) and returns the old value; elsewhere they are LLVM's
  // atomics, whose orderings the target's back end honours.
  struct AtomicRequest {
    std::string kind, sem, scope;
    ir::Type elem;
    llvm::Value *ptr, *value, *cmp;  // cmp: cas only
  };
  virtual bool ownsAtomics() const { return false; }
  virtual llvm::Value *atomic(llvm::IRBuilder<> &, const AtomicRequest &) const { return nullptr; }

  // The thread ops cp_async (`bytes` from global `src` to shared `dst`,
  // zero-filled where `pred`, if any, is false), cp_async_commit and
  // cp_async_wait; false if the target has no asynchronous copies.
  virtual bool asyncCopy(llvm::IRBuilder<> &, llvm::Value *dst, llvm::Value *src, int bytes, llvm::Value *pred) const {
    (void)dst, (void)src, (void)bytes, (void)pred;
    return false;
  }
  virtual bool asyncCommit(llvm::IRBuilder<> &) const { return false; }
  virtual bool asyncWait(llvm::IRBuilder<> &, int pending) const {
    (void)pending;
    return false;
  }
  // The thread ops wgmma (A through a shared-memory pointer, or its
  // registers when `aDesc` is empty; B through a pointer; both described by
  // `aDesc`/`bDesc`, Ops.def; `acc` the accumulators), wgmma_fence,
  // wgmma_commit, wgmma_wait (returns `values`, ordered after the wait) and
  // fence_async_shared; empty / false if the target has none. `accumulate`
  // false: the result is A·B alone (`acc`'s values are not read).
  virtual std::vector<llvm::Value *> warpgroupMma(llvm::IRBuilder<> &, const std::vector<int64_t> &shape, ir::Type a,
                                                  ir::Type b, const std::vector<llvm::Value *> &aOperands,
                                                  llvm::Value *bPtr, const std::vector<int64_t> &aDesc,
                                                  const std::vector<int64_t> &bDesc,
                                                  const std::vector<llvm::Value *> &acc, bool accumulate) const {
    (void)shape, (void)a, (void)b, (void)aOperands, (void)bPtr, (void)aDesc, (void)bDesc, (void)acc, (void)accumulate;
    return {};
  }
  enum class WarpgroupSync { Fence, Commit, SharedFence };
  virtual bool warpgroupSync(llvm::IRBuilder<> &, WarpgroupSync kind) const {
    (void)kind;
    return false;
  }
  virtual std::vector<llvm::Value *> warpgroupWait(llvm::IRBuilder<> &, int pending,
                                                   const std::vector<llvm::Value *> &values) const {
    (void)pending, (void)values;
    return {};
  }
  // Whether the kernel's shared memory is a sized global (its binary states
  // it: AMDGPU's group segment) rather than requested at launch (CUDA's
  // dynamic shared memory).
  virtual bool staticSharedMemory() const { return false; }
  // Makes `fn` a kernel entry point launched with `threads` threads per program.
  virtual void markKernel(llvm::Function *fn, int threads) const = 0;
  // Kernel parameters `args` are tensor maps (ir/IR.h, tensor_map): 128
  // bytes passed by value, aligned to 64, whose addresses the kernel's
  // copies read; false where the target has none.
  virtual bool markTensorMapParameters(llvm::Function *, const std::vector<unsigned> & /*args*/) const { return false; }
  // At most `registers` registers per thread (Triton's maxnreg); targets
  // without such a cap ignore it.
  virtual void capRegisters(llvm::Function *, int /*registers*/) const {}
  // A hardware register (ir/Ops.def hardware_register: "globaltimer",
  // "smid"), or null where the target has none.
  virtual llvm::Value *hardwareRegister(llvm::IRBuilder<> &, const std::string &name) const {
    (void)name;
    return nullptr;
  }
  // Programmatic dependent launch's wait / launch_dependents; nothing where
  // the target has no such launches.
  virtual void gridDependency(llvm::IRBuilder<> &, bool wait) const { (void)wait; }
};

} // namespace tessera::targets::llvmgen
