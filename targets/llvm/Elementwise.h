// Elementwise semantics of the tile IR (ir/IR.h) as LLVM IR, shared by every
// target that emits LLVM: arithmetic, comparisons, casts (fp8 included) and
// the math ops. The same code serves scalars and fixed vectors (the CPU
// lowers tiles in vector chunks, GPU targets per register). Targets supply
// the math functions (libm/libmvec, libdevice, ...) and the error prefix.
#pragma once

#include "ir/IR.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

namespace llvm {
class TargetMachine;
}

#include <functional>
#include <string>
#include <vector>

namespace tessera::targets::llvmgen {

// Thrown by a lowering for IR it cannot lower; the target's compile() turns
// it into an error message.
struct LoweringError {
  std::string message;
};

class ElementwiseEmitter {
public:
  ElementwiseEmitter(llvm::Module &module, std::string targetName)
      : m(module), ctx(module.getContext()), b(ctx), targetName_(std::move(targetName)) {}
  virtual ~ElementwiseEmitter() = default;

  // Types: registers hold the compute type; memory holds the storage type
  // (a bool is a byte in memory, as torch.bool and numpy's bool_ are).
  llvm::Type *computeType(ir::Type elem);
  llvm::Type *storageType(ir::Type elem);
  llvm::Value *toStorage(llvm::Value *v, ir::Type elem);
  llvm::Value *fromStorage(llvm::Value *v, ir::Type elem);
  llvm::Value *splatIfNeeded(llvm::Value *v, unsigned width);

  // The value of elementwise op `op` on `in` (scalars or equal-width vectors;
  // scalars are splatted to the widest operand).
  llvm::Value *elementwise(const ir::Operation &op, std::vector<llvm::Value *> in);
  llvm::Value *elementwiseIn(const ir::Operation &op, std::vector<llvm::Value *> in, ir::Type t, ir::Type rt,
                             unsigned width);
  llvm::Value *castValue(llvm::Value *v, ir::Type from, ir::Type to, const std::string &rounding = "rtne",
                         const ir::Operation *where = nullptr);
  llvm::Value *f8ToF32(llvm::Value *bits, ir::ScalarKind kind);
  llvm::Value *f32ToF8(llvm::Value *f, ir::ScalarKind kind);
  llvm::Value *f16ToF8E4B15(llvm::Value *h);
  llvm::Value *truncToOdd(llvm::Value *f, llvm::Type *narrow);
  // An extern_elementwise op's call of its function on `in`.
  llvm::Value *externCall(const ir::Operation &op, const std::vector<llvm::Value *> &in, unsigned width);

  // The values a reduce/scan combine region yields for block arguments
  // `args` (scalars or vectors); `outside` gives values defined outside the
  // region (scalars only). Its ops must be elementwise, or asserts, which
  // `check` emits (given the assert and its condition, true when it holds
  // for every element), when the caller gives it.
  using AssertHook = std::function<void(const ir::Operation &, llvm::Value *)>;
  std::vector<llvm::Value *> combineRegion(const ir::Block &region, std::vector<llvm::Value *> args,
                                           const std::function<llvm::Value *(const ir::Value *)> &outside,
                                           const AssertHook &check = nullptr);

  // Hook: exp, exp2, log, log2, sin, cos, erf of `v` (elements of type `t`);
  // `approx`: the op's approx attribute (the target may use a faster, less
  // accurate version).
  virtual llvm::Value *mathCall(const char *name, llvm::Value *v, ir::Type t, bool approx = false) = 0;
  // Hook: pow, atan2, hypot, fmod of `x` and `y` (elements of type `t`).
  virtual llvm::Value *mathCall2(const char *name, llvm::Value *x, llvm::Value *y, ir::Type t) = 0;
  // Hook: x / y for a div with `approx` (f32), or null for an fdiv that may
  // use the reciprocal.
  virtual llvm::Value *approxDivide(llvm::Value *x, llvm::Value *y) {
    (void)x, (void)y;
    return nullptr;
  }
  // Hook: 1 / sqrt(x) for an rsqrt with `approx` (f32), or null: the
  // emitter then divides 1 by the correctly rounded sqrt.
  virtual llvm::Value *approxRsqrt(llvm::Value *x) {
    (void)x;
    return nullptr;
  }
  // Hook: f32 `v` rounded to nearest even into bf16 (LLVM's fptrunc, where
  // the target's instruction for it keeps subnormals).
  virtual llvm::Value *f32ToBf16(llvm::Value *v);
  // Throws LoweringError "<loc>: error: <target> target: '<op>' <msg>".
  [[noreturn]] virtual void fail(const ir::Operation &op, const std::string &msg) const;
  const std::string &targetName() const { return targetName_; }
  // The address space pointers of the tile IR live in (global memory).
  void setGlobalAddressSpace(unsigned as) { globalAS_ = as; }
  // The address space of shared-memory pointers (thread IR on GPUs).
  void setSharedAddressSpace(unsigned as) { sharedAS_ = as; }

  llvm::Module &m;
  llvm::LLVMContext &ctx;
  llvm::IRBuilder<> b;

private:
  std::string targetName_;
  unsigned globalAS_ = 0;
  unsigned sharedAS_ = 0;
};

bool isF8(ir::Type t);
// An LLVM type as LLVM prints it ("float (float)"), for messages.
std::string typeText(const llvm::Type *type);
// False with `error` set when `m` is not valid LLVM IR (a lowering bug).
bool verifyLowered(llvm::Module &m, const std::string &target, std::string &error);
// A check_failed op (ir/Ops.def) at the builder's insertion point: when
// `failed`, report[0] += 1, and the first failure writes the op's kind,
// arg, line and col, `value` and the program ids (i32) to report[1..8].
void recordCheckFailure(llvm::IRBuilder<> &b, const ir::Operation &op, llvm::Value *report, llvm::Value *failed,
                        llvm::Value *value, llvm::Value *const programIds[3]);
// LLVM's default O0-O3 pipeline for `tm`.
void optimizeModule(llvm::Module &m, llvm::TargetMachine &tm, int optLevel);
// `scalar`, or a vector of it as wide as `like`.
llvm::Type *withScalar(llvm::Type *like, llvm::Type *scalar);
// Loop metadata on a loop's back-edge branch from the for/while op's
// attributes: disable_licm becomes llvm.licm.disable (LLVM then keeps loads
// in the loop, as a spin loop on memory written elsewhere needs).
void annotateLoop(llvm::Instruction *backEdge, const ir::Operation &loop);
// LLVM's atomicrmw operation for atomic_rmw's `kind` on elements of `elem`
// (signedness chooses max/min; floats take the F variants).
llvm::AtomicRMWInst::BinOp atomicRmwOp(const std::string &kind, ir::Type elem);

} // namespace tessera::targets::llvmgen
