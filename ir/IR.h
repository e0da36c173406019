// Tessera's tile IR.
//
// A Module holds Functions; a Function's body is a Region; a Region holds one
// Block; a Block holds arguments and a list of Operations; an Operation has
// operands (SSA Values), results, attributes and nested Regions. Control flow
// is structured only (for, if, while, reduce and scan regions), so every value
// is defined textually before its uses and a region sees the values of the
// regions around it.
//
// Semantics
// - Values are scalars, pointers, or tiles: static-shape arrays of scalars or
//   pointers owned by one program (one instance of the kernel's grid). Tile
//   ops act on the whole tile; elementwise ops require equal shapes (the
//   frontend inserts splat/broadcast explicitly). A tile may carry a layout
//   attribute, which says which thread owns which element; before layout
//   assignment tiles have none, and layouts never change an op's meaning.
// - Integers are two's complement of their width; signedness belongs to the
//   type (i8..i64 signed, u8..u64 and i1 unsigned) and chooses the meaning of
//   div, rem, shr, min, max, mulhi, cmp and cast. add, sub, mul, neg and shl
//   wrap around; they have no undefined behaviour. div truncates toward zero
//   and rem takes the dividend's sign (as C). Division by zero, INT_MIN / -1
//   and shifts by the width or more give an unspecified value of the type,
//   never a trap; folding leaves those ops alone. An integer dot whose
//   sum leaves i32 saturates on NVIDIA's tensor cores (mma's .satfinite, as
//   Triton) and wraps elsewhere: a result that overflows is target-defined.
// - Floats are IEEE 754 with round-to-nearest-even. add, sub, mul, div (unless
//   `approx`), sqrt (unless `approx`) and fma are correctly rounded; rsqrt
//   is 1 / sqrt, each step rounded, unless `approx` (then the target's
//   reciprocal square root, a few ulp); exp, log, sin, ... are accurate to a
//   few ulp. A mul feeding an add may be contracted
//   into an fma (as Triton does). min/max return the non-NaN operand unless
//   `propagate_nan`. cmp is ordered (false on NaN) except `ne`, which is true
//   on NaN, as in Python. cast from float to int truncates toward zero and
//   saturates, with NaN giving 0; cast between floats rounds to nearest even
//   unless `rounding = "rtz"`. fp8 e4m3 has no infinities (finite saturating).
//   f8e4b15 (Triton's fp8e4b15) is e4m3's layout with bias 15: 0x7F is 1.875,
//   no NaN or infinity; it converts as Triton's convert_custom_float8 does:
//   exactly to f16 (and on), and from f16 (others first to f16 toward zero)
//   by clamping the magnitude to 1.75 (NaN and infinities too) and rounding
//   half away from zero, whatever `rounding` says. No dot takes it (the
//   frontend casts its operands to f16, as Triton's).
//   A dot's sums are f32 (f64 with an f64 accumulator) in an order the
//   target picks; f32 inputs with input_precision tf32 keep 10 mantissa
//   bits (rounded, or truncated where
//   the matrix unit reads them from memory: Hopper's wgmma), and fp8 dots on
//   Hopper's wgmma add their products with less than f32 precision, as
//   Triton's default (max_num_imprecise_acc) does.
// - Memory spaces: global (device memory, visible to every program), shared
//   (scratch owned by one program), constant, generic. Pointers are 64-bit;
//   addptr offsets count elements of the pointee and wrap. Accessing memory
//   outside an allocation is undefined; a masked-off element of load/store
//   touches no memory (a masked-off load yields `other`, or an unspecified
//   value without it). A pointer argument with attribute pointer_range = 32
//   (Triton's tt.pointer_range) points into an allocation of at most
//   2^31 - 2 bytes; with it, an access addptr(argument, offset) whose offset
//   is non-negative by construction (ir/analysis/NonNegative.h, which takes
//   add, mul and shl as exact) may be made with a 32-bit byte offset, so an
//   i32 offset computation that wraps past 2^31 there is unspecified.
// - Tensor descriptors given by the host: a pointer argument with attribute
//   descriptor = R is the base of a rank-R tensor whose R extents and R
//   strides (i64, in elements) are the next 2R arguments, and the host
//   vouches for what a tensor map needs: a 16-byte aligned base, strides
//   but the last multiples of 16 bytes, the last stride 1, extents below
//   2^31 (the frontend marks the base and strides `divisibility` so). A pointer argument with attribute tensor_map = [d, box_0, ...,
//   box_R-1, swizzle] (added by a target) is such a tensor's map (NVIDIA's
//   128-byte CUtensorMap): of the descriptor at argument d, copying boxes
//   of that shape (elements, the descriptor's dimension order) into shared
//   memory swizzled by `swizzle` bytes (0, 32, 64, 128). The runtime builds
//   it at each launch from d's arguments: callers never pass it. With
//   attribute stores = true, the kernel also writes d's tensor through it.
//   A descriptor the kernel makes (tl.make_tensor_descriptor) from its
//   arguments has a map too, with d its 16-byte aligned base pointer (no
//   `descriptor` attribute) and tensor_map_fields = "e_0 ... e_R-1 s_0 ...
//   s_R-1": each extent and stride (elements) a product ("*") of i32 or i64
//   arguments ("aN": argument N, its value sign-extended) and positive
//   constants, the last stride "1". Those strides are multiples of 16
//   bytes by their factors' divisibility; the runtime evaluates the fields
//   at launch (in 64 bits) and refuses a launch whose extents a tensor map
//   cannot hold.
// - Ordering: within one program, memory ops on the same address for the same
//   tile element happen in program order; ordering across elements of a tile
//   needs `barrier`. Across programs only atomics order, with their `sem`
//   (relaxed, acquire, release, acq_rel) at their `scope` (cta, gpu, sys).
// - reduce and scan apply their region (the combine) to the operands' values
//   along `axis`: a reduce in any association (the combine must be
//   associative and, for a deterministic result, commutative); a scan in
//   order, with what came first in scan order always the left operands: a
//   scan with `reverse` is the forward scan of the line read from its end,
//   result[i] = combine(result[i + 1], x[i]).
// - for runs its body with the induction variable from lb while iv < ub (signed
//   or unsigned as its type), adding step (> 0) each time; iter values flow
//   from the inits through yield to the results.
//
// Levels
// - Tile level (after the frontend): tiles without layouts; every op is the
//   whole program's.
// - Distributed level (after assign-layouts): the same ops, every tile has a
//   layout. Nothing changes meaning.
// - Thread level (after lower-to-threads, GPU targets; the function has
//   attribute level = "thread"): the program of ONE thread, of which the
//   target runs num_warps x warp_size (module attributes) per program. No
//   tiles: values are scalars and pointers. Every op is executed by each
//   thread on its own values (a store stores this thread's value; an atomic
//   is this thread's). Memory: global pointers as before; shared pointers
//   (shared_ptr) address the program's shared memory, whose size is the
//   function attribute shared_memory_bytes. Ordering across threads of a
//   program needs barrier (which every thread must reach: never inside
//   control flow that differs between threads); shuffle_xor exchanges
//   values within a warp, executed by all its lanes together. Ops marked
//   kTileLevel (load, store, reduce, dot, ...) do not exist here; vload and
//   vstore access up to 16 bytes of consecutive elements at once.
#pragma once

#include "ir/Attributes.h"
#include "ir/Types.h"

#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::ir {

class Block;
class Function;
class Operation;
class Region;

enum class OpCode : uint16_t {
#define OP(Id, ...) Id,
#include "ir/Ops.def"
#undef OP
};

enum OpTrait : uint32_t {
  kPure = 1u << 0,          // no side effects and no memory reads
  kReadsMemory = 1u << 1,   // reads memory only: removable when unused
  kCommutative = 1u << 2,
  kTerminator = 1u << 3,
  kSameType = 1u << 4,      // every operand and result has one type
  kNumeric = 1u << 5,       // integer or float elements
  kIntOnly = 1u << 6,
  kFloatOnly = 1u << 7,
  kElementwise = 1u << 10,  // each result element from the same element of the operands
  kTileLevel = 1u << 8,     // only before lower-to-threads (tile and distributed levels)
  kThreadLevel = 1u << 9,   // only after it (the thread level)
};

struct OpInfo {
  OpCode code;
  const char *name;
  int minOperands, maxOperands;  // -1: variadic
  int numResults;                // -1: variadic
  int numRegions;
  uint32_t traits;
  const char *attrSpec;
};

const OpInfo &opInfo(OpCode code);
const std::vector<OpInfo> &allOps();
bool opCodeFromName(std::string_view name, OpCode &out);

struct Loc {
  std::string file;  // empty: unknown
  uint32_t line = 0, col = 0;
  bool known() const { return line != 0; }
  std::string str() const;
};

class Value {
public:
  Value(Type type, Operation *def, unsigned index) : type_(type), def_(def), index_(index) {}
  Value(Type type, Block *owner, unsigned index) : type_(type), owner_(owner), index_(index) {}
  Value(const Value &) = delete;
  Value &operator=(const Value &) = delete;

  Type type() const { return type_; }
  void setType(Type t) { type_ = t; }
  Operation *definingOp() const { return def_; }
  Block *ownerBlock() const;  // the block holding the definition
  bool isBlockArgument() const { return def_ == nullptr; }
  unsigned index() const { return index_; }

  const std::string &nameHint() const { return name_; }
  void setNameHint(std::string name) { name_ = std::move(name); }

  // One entry per operand slot that uses this value.
  const std::vector<Operation *> &users() const { return users_; }
  bool hasUses() const { return !users_.empty(); }
  void replaceAllUsesWith(Value *other);

private:
  friend class Operation;
  friend class Block;
  void addUser(Operation *op) { users_.push_back(op); }
  void removeUser(Operation *op);
  Type type_;
  Operation *def_ = nullptr;
  Block *owner_ = nullptr;
  unsigned index_;
  std::string name_;
  std::vector<Operation *> users_;
};

class Region {
public:
  explicit Region(Operation *parentOp = nullptr);
  ~Region();
  Block &block() { return *block_; }
  const Block &block() const { return *block_; }
  Operation *parentOp() const { return parentOp_; }
  Function *parentFunction() const { return parentFunc_; }

private:
  friend class Function;
  std::unique_ptr<Block> block_;
  Operation *parentOp_;
  Function *parentFunc_ = nullptr;
};

class Operation {
public:
  Operation(OpCode code, std::vector<Value *> operands, const std::vector<Type> &resultTypes,
            AttrDict attrs, Loc loc);
  ~Operation();
  Operation(const Operation &) = delete;
  Operation &operator=(const Operation &) = delete;

  OpCode code() const { return code_; }
  const OpInfo &info() const { return opInfo(code_); }
  const char *name() const { return info().name; }
  bool hasTrait(OpTrait t) const { return (info().traits & t) != 0; }
  bool is(OpCode c) const { return code_ == c; }

  unsigned numOperands() const { return unsigned(operands_.size()); }
  Value *operand(unsigned i) const { return operands_[i]; }
  const std::vector<Value *> &operands() const { return operands_; }
  void setOperand(unsigned i, Value *v);
  void setOperands(std::vector<Value *> values);

  unsigned numResults() const { return unsigned(results_.size()); }
  Value *result(unsigned i = 0) const { return results_[i].get(); }
  std::vector<Value *> results() const;

  AttrDict &attrs() { return attrs_; }
  const AttrDict &attrs() const { return attrs_; }
  const Attribute *attr(std::string_view name) const { return attrs_.find(name); }

  unsigned numRegions() const { return unsigned(regions_.size()); }
  Region &region(unsigned i) { return *regions_[i]; }
  const Region &region(unsigned i) const { return *regions_[i]; }

  const Loc &loc() const { return loc_; }
  void setLoc(Loc loc) { loc_ = std::move(loc); }

  Block *parentBlock() const { return parent_; }
  Operation *parentOp() const;  // the op whose region holds this op, if any
  Function *parentFunction() const;
  bool isAncestorOf(const Operation *other) const;  // other lies in one of our regions

  // Unlinks and destroys this op; its results must have no uses.
  void erase();
  // Moves this op right before `other` (possibly into another block).
  void moveBefore(Operation *other);
  // Drops the uses made by this op and by every op nested in its regions.
  void dropAllReferences();

private:
  friend class Block;
  OpCode code_;
  std::vector<Value *> operands_;
  std::vector<std::unique_ptr<Value>> results_;
  AttrDict attrs_;
  std::vector<std::unique_ptr<Region>> regions_;
  Loc loc_;
  Block *parent_ = nullptr;
  std::list<std::unique_ptr<Operation>>::iterator self_;
};

class Block {
public:
  using OpList = std::list<std::unique_ptr<Operation>>;
  explicit Block(Region *parent) : parent_(parent) {}
  ~Block();

  Region *parentRegion() const { return parent_; }
  Operation *parentOp() const { return parent_ ? parent_->parentOp() : nullptr; }

  Value *addArgument(Type type, std::string nameHint = "");
  unsigned numArguments() const { return unsigned(args_.size()); }
  Value *argument(unsigned i) const { return args_[i].get(); }
  std::vector<Value *> arguments() const;
  void eraseArgument(unsigned i);  // must be unused

  bool empty() const { return ops_.empty(); }
  Operation *front() const { return ops_.front().get(); }
  Operation *back() const { return ops_.back().get(); }
  Operation *terminator() const;  // the last op when it is a terminator
  // Snapshot of the ops, safe to iterate while erasing.
  std::vector<Operation *> opsVector() const;
  const OpList &ops() const { return ops_; }

  Operation *append(std::unique_ptr<Operation> op);
  Operation *insertBefore(Operation *before, std::unique_ptr<Operation> op);
  std::unique_ptr<Operation> take(Operation *op);  // unlink without destroying

private:
  friend class Operation;
  Region *parent_;
  std::vector<std::unique_ptr<Value>> args_;
  OpList ops_;
};

enum class FunctionKind : uint8_t { Kernel, Device };

class Function {
public:
  Function(std::string name, FunctionKind kind, const std::vector<Type> &argTypes,
           std::vector<Type> resultTypes);
  const std::string &name() const { return name_; }
  void setName(std::string n) { name_ = std::move(n); }
  FunctionKind kind() const { return kind_; }
  bool isKernel() const { return kind_ == FunctionKind::Kernel; }
  // After lower-to-threads: one thread's program (see "Levels" above).
  bool isThreadLevel() const { return attrs_.getString("level", "") == "thread"; }

  Region &body() { return body_; }
  const Region &body() const { return body_; }
  Block &entry() { return body_.block(); }
  const Block &entry() const { return body_.block(); }
  unsigned numArguments() const { return entry().numArguments(); }
  Value *argument(unsigned i) const { return entry().argument(i); }
  Value *addArgument(Type type, std::string nameHint = "");  // after the others
  std::vector<Type> argumentTypes() const;
  const std::vector<Type> &resultTypes() const { return results_; }
  void setResultTypes(std::vector<Type> types) { results_ = std::move(types); }

  AttrDict &argAttrs(unsigned i) { return argAttrs_[i]; }
  const AttrDict &argAttrs(unsigned i) const { return argAttrs_[i]; }
  AttrDict &attrs() { return attrs_; }
  const AttrDict &attrs() const { return attrs_; }
  Loc loc;

  // Visits every op in pre-order (an op before the ops of its regions).
  template <typename F> void walk(F &&f) { walkBlock(entry(), f); }
  template <typename F> static void walkBlock(Block &b, F &f) {
    for (Operation *op : b.opsVector()) {
      f(op);
      for (unsigned r = 0; r < op->numRegions(); ++r) walkBlock(op->region(r).block(), f);
    }
  }

private:
  std::string name_;
  FunctionKind kind_;
  Region body_;
  std::vector<Type> results_;
  std::vector<AttrDict> argAttrs_;
  AttrDict attrs_;
};

class Module {
public:
  Function *addFunction(std::unique_ptr<Function> f);
  Function *lookup(std::string_view name) const;
  void eraseFunction(Function *f);
  // Puts `f` where `old` was (destroying `old`).
  Function *replaceFunction(Function *old, std::unique_ptr<Function> f);
  const std::vector<std::unique_ptr<Function>> &functions() const { return functions_; }
  AttrDict &attrs() { return attrs_; }
  const AttrDict &attrs() const { return attrs_; }

private:
  std::vector<std::unique_ptr<Function>> functions_;
  AttrDict attrs_;
};

// How many of a `wgmma`'s operands are A: one shared-memory pointer, or with
// a_desc = [] the k / 2 elements of A each thread holds (Ops.def).
unsigned wgmmaAOperands(const Operation &wgmma);

// One extent or stride of a tensor map: the product of `constant` and the
// arguments `args`.
struct TensorMapField {
  std::vector<unsigned> args;
  int64_t constant = 1;
};
// One factor of tensor_map_fields ("a3": argument 3; "512"): false when it
// is neither an argument nor a decimal number (a constant may then be 0).
bool parseTensorMapFactor(const std::string &text, bool &isArgument, int64_t &value);
// The extents then strides of tensor_map argument `arg` of `f` (both
// rank long): its tensor_map_fields, or for a host descriptor the
// arguments after the base. Empty when `arg` is no well-formed tensor map.
std::vector<TensorMapField> tensorMapFields(const Function &f, unsigned arg);
// The argument whose tensor tensor_map argument `arg` of `f` describes
// (the attribute's d), or -1 when `arg` is no tensor map.
int tensorMapTensor(const Function &f, unsigned arg);

} // namespace tessera::ir
