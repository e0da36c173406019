// Thread IR -> SPIR-V (private to targets/spirv/). One emitter, two
// flavours: Vulkan compute shaders and OpenCL kernels (Level Zero).
//
// How thread IR maps onto SPIR-V:
// - Values: integers are unsigned-declared OpTypeInt of their width (the
//   operation chooses signed or unsigned meaning); i1 is OpTypeBool; f16,
//   f32, f64 are floats; bf16 and fp8 (and f16 in the OpenCL flavour, which
//   has no f16 arithmetic without an extension) are their bits (u16, u8)
//   and compute in f32, rounding back after each op.
// - Global pointers are 64-bit addresses (u64) turned into
//   PhysicalStorageBuffer (Vulkan) or CrossWorkgroup (OpenCL) pointers at
//   each access; addptr is integer arithmetic. Shared pointers are byte
//   offsets (u32) into one Workgroup array of 32-bit words; narrower stores
//   to it are atomic and/or on the word (threads may own neighbouring bytes).
// - A Vulkan kernel's arguments are one push-constant block, one member per
//   argument in order, at offsets aligned to their size, while they fit 128
//   bytes; beyond that a parameter buffer holds them and the block holds its
//   address. The runtime reads the layout from the binary. An OpenCL kernel's are parameters
//   (pointers are CrossWorkgroup pointers, turned into addresses at entry).
// - Flavours differ only where the environments do: Shader +
//   PhysicalStorageBuffer64 + GLSL.std.450 + GroupNonUniform shuffles and a
//   required subgroup size at pipeline creation (Vulkan), Kernel + Physical64
//   + OpenCL.std + SPV_INTEL_subgroups shuffles and the SubgroupSize
//   execution mode (OpenCL, for Level Zero).
// - Thread ids: lane = SubgroupLocalInvocationId, warp = SubgroupId, thread
//   = warp * warp_size + lane; the runtime launches with the subgroup size
//   fixed at warp_size (full subgroups), which the module states as
//   OpModuleProcessed "tessera.subgroup_size N".
// - Structured control flow: thread IR's if/for/while become selection and
//   loop constructs with merge blocks; a masked store, shared or atomic
//   access is a selection, and a masked global load (Vulkan) reads the safe
//   address instead of branching (kSafeAddressMember says why).
#pragma once

#include "ir/IR.h"
#include "targets/Target.h"
#include "targets/spirv/Builder.h"

#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera::targets::spirv {

enum class Flavour { Vulkan, OpenCL };

struct EmitOptions {
  Flavour flavour = Flavour::Vulkan;
  int warpSize = 32;
  int numWarps = 4;
  // false: float muls are decorated NoContraction (no driver fuses them into an fma).
  bool fpFusion = true;
};

// The push-constant member holding the device-assertion record's address
// (the runtime fills it; OpModuleProcessed "tessera.assert N <message>"
// gives each assertion's number its message).
inline constexpr const char *kAssertRecordMember = "tessera_assert_record";
// The push-constant member holding the address of kSafeBytes of readable
// device memory the runtime provides: a masked global load reads there when
// its mask is off, so that it needs no branch (NVIDIA's Vulkan compiler
// serializes loads in branches: layernorm ran at 0.2x-0.6x of PTX).
inline constexpr const char *kSafeAddressMember = "tessera_safe_address";
inline constexpr int kSafeBytes = 256;
// The push-constant member holding the device-print buffer's address: a u32
// cursor (bytes used), a u32 capacity, 8 bytes unused, then records of a u32
// format number, a u32 record size and the arguments as 8 bytes each (ints
// widened, f64 and pointers as bits); OpModuleProcessed "tessera.print N
// <format>" gives each number its C format.
inline constexpr const char *kPrintBufferMember = "tessera_print_buffer";
// The push-constant member holding the parameter buffer's address, for
// kernels whose arguments do not fit 128 bytes of push constants;
// OpModuleProcessed "tessera.parameters <bytes> <offset>:<bytes>..." gives
// the runtime each argument's place in it.
inline constexpr const char *kParametersMember = "tessera_parameters";

struct EmittedKernel {
  Words words;
  bool int64Atomics = false;  // declares Int64Atomics
  bool cooperativeMatrices = false;  // declares CooperativeMatrixKHR (and the Vulkan memory model)
  std::vector<KernelParam> params;
  int threads = 0;
  int64_t sharedMemoryBytes = 0;
};

// Emits thread-level kernel `kernel` as entry point `entry`. Returns false
// with `error` ("<loc>: error: spirv target: ...") for IR it cannot emit.
bool emitKernel(const ir::Function &kernel, const std::string &entry, const EmitOptions &options, EmittedKernel &out,
                std::string &error);

// Thrown inside the emitter for IR it cannot emit.
struct EmitError {
  std::string message;
};

class KernelEmitter {
public:
  KernelEmitter(const EmitOptions &options) : opts(options) {}
  void emit(const ir::Function &kernel, const std::string &entry, EmittedKernel &out);

  // ---- types and constants (Emitter.cpp)
  Id typeOf(ir::Type t);     // a register's type
  Id storageOf(ir::Type t);  // its type in memory (bool: u8)
  Id u32() { return b.intType(32); }
  Id u64() { return b.intType(64); }
  Id f32() { return b.floatType(32); }
  Id boolTy() { return b.boolType(); }
  Id uconst(Id type, uint64_t v) { return b.constant(type, v); }
  Id c32(uint32_t v) { return b.constant(u32(), v); }
  Id fconst(Id type, double v);
  Id op(spv::Op o, Id type, const std::vector<uint32_t> &operands) { return b.op(o, type, operands); }
  // A GLSL.std.450 instruction, or its OpenCL.std twin in the OpenCL flavour.
  Id glsl(Id type, uint32_t inst, const std::vector<Id> &args);
  // Component `axis` of a 3-vector builtin (u32 in Vulkan, u64 in OpenCL) as a u32.
  Id builtinComponent(Id var, uint32_t axis);
  Id select(Id cond, Id a, Id bv);
  [[noreturn]] void fail(const ir::Operation &op, const std::string &msg) const;

  // ---- elementwise semantics (Elementwise.cpp)
  Id elementwise(const ir::Operation &op, std::vector<Id> in);
  Id castValue(Id v, ir::Type from, ir::Type to, const std::string &rounding, const ir::Operation &where);
  Id f8ToF32(Id bits, ir::ScalarKind kind);
  Id f32ToF8(Id f, ir::ScalarKind kind);
  Id bf16ToF32(Id bits);
  Id f32ToBf16(Id f, bool towardZero);
  Id truncToOdd(Id f64, Id narrow);
  Id smallFloatToF32(Id bits, int e, int m);
  Id f32ToSmallFloat(Id f, int e, int m, bool saturate);
  bool bitsFloat(ir::Type t) const;
  Id bitsToF32(Id v, ir::ScalarKind k);
  Id f32ToBits(Id f, ir::ScalarKind k, bool towardZero);
  Id elementwiseIn(const ir::Operation &op, std::vector<Id> in, ir::Type t, ir::Type rt);
  Id mathF32(const ir::Operation &op, ir::Type t, const std::vector<Id> &in,
             const std::function<Id(const std::vector<Id> &)> &fn);
  Id mathFnF32(const ir::Operation &op, const std::string &fn, Id x);
  Id erfF32(Id x);
  Id sinCosF32(Id x, bool cosine);
  // f64 transcendental functions (MathF64.cpp); null for one not written.
  Id mathF64(const std::string &fn, Id x);
  Id f64Const(double v);
  std::pair<Id, Id> powersOfTwoF64(Id k);
  Id expReducedF64(Id r);
  Id expF64(Id x, bool base2);
  Id logF64(Id x, bool base2);
  Id sinCosF64(Id x, bool cosine);
  Id erfF64(Id x);
  Id fma(ir::Type t, Id a, Id b, Id c);
  Id fmod(Id ty, Id x, Id y);

  // ---- memory (Memory.cpp)
  void emitLoad(const ir::Operation &op);
  void emitStore(const ir::Operation &op);
  void emitAtomic(const ir::Operation &op);
  Id shuffleXor(Id v, ir::Type t, int mask);
  void emitCheckFailed(const ir::Operation &op);
  Id globalPointer(Id address, Id pointee);
  // The operands of an OpLoad or OpStore of a shared word, with the memory
  // operand the Vulkan memory model needs for barriers to order it.
  std::vector<uint32_t> withSharedAccess(std::vector<uint32_t> operands) const;
  // Kernels with cooperative matrices use the Vulkan memory model, which
  // SPV_KHR_cooperative_matrix requires of shaders: their shared-memory
  // accesses are NonPrivatePointer, so that barriers order them.
  bool vulkanMemoryModel = false;
  Id sharedWord(Id wordIndex);
  // `count` elements of `elem` at `ptr` (global or shared), in compute types.
  std::vector<Id> loadElements(Id ptr, bool shared, ir::Type elem, int count, bool isVolatile);
  void storeElements(Id ptr, bool shared, ir::Type elem, const std::vector<Id> &values);

  // ---- cooperative matrices (CooperativeMatrix.cpp)
  void emitCoopMma(const ir::Operation &op);
  Id componentType(ir::Type element);

  // ---- control flow (Control.cpp)
  void emitBlock(const ir::Block &block);
  void emitOp(const ir::Operation &op);
  void emitIf(const ir::Operation &op);
  void emitFor(const ir::Operation &op);
  void emitWhile(const ir::Operation &op);
  // A selection construct running `then` where `cond` holds; the values
  // `then` returns merge with `otherwise` (one per value).
  std::vector<Id> when(Id cond, const std::function<std::vector<Id>()> &then, const std::vector<Id> &otherwise);

  void emitAssert(const ir::Operation &op);
  void emitPrintf(const ir::Operation &op);
  void emitOpenClPrintf(const ir::Operation &op);
  static bool contains(const ir::Block &block, const std::function<bool(const ir::Operation &)> &pred);
  Id printBuffer = 0;                      // u64 (Vulkan kernels that print)
  std::vector<std::string> printFormats;   // by number - 1
  std::map<Id, Id> formatStrings;          // OpenCL: constant string -> its UniformConstant variable
  Id safeAddress = 0;                      // u64 (Vulkan kernels with masked global loads)
  Id assertRecord = 0;                     // u64 address (Vulkan kernels with assertions)
  std::vector<std::string> assertMessages;  // "file:line: device assertion failed: message"

  Id get(const ir::Value *v);
  void set(const ir::Value *v, Id id) { values_[v] = id; }

  EmitOptions opts;
  Builder b;
  Id sharedVar = 0;      // the Workgroup word array (0: none)
  Id threadId = 0, laneId = 0, warpId = 0;
  Id workgroupId = 0, numWorkgroups = 0;  // Input variables
  std::vector<Id> interface;              // the entry point's global variables

private:
  std::unordered_map<const ir::Value *, Id> values_;
};

} // namespace tessera::targets::spirv
