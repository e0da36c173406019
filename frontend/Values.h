// What a name or expression stands for while a kernel is compiled: a
// compile-time Python value (None, bool, int, float, str, dtype, tuple), a
// runtime value in the IR (a scalar or tile "tensor"), or a reference to a
// function, a module or a method. Compile-time ints follow Python's rules
// within [-2^63, 2^64), as Triton's do; a result outside is an error (they are
// held in 128 bits so that overflow is seen). Runtime values follow Triton's.
#pragma once

#include "frontend/AST.h"
#include "ir/IR.h"

#include <memory>
#include <string>
#include <vector>

namespace tessera::frontend {

using BigInt = __int128;

struct SValue {
  enum class Kind : uint8_t {
    None, Bool, Int, Float, Str, DType, Tuple,  // compile-time values
    Tensor,                                      // an IR value
    JitFunction,                                 // a kernel-language function
    Namespace,                                   // tl, tl.math, libdevice, ...
    Builtin,                                     // tl.load, tl.sum, range, min, ...
    Method,                                      // x.to, desc.load: receiver + name
    BlockPtr,                                    // make_block_ptr / make_tensor_descriptor
    Slice,                                       // ':' in a subscript
    NamedTupleClass,                             // a namedtuple class: calling it makes one
    ConstexprType,                               // tl.constexpr_type(v): a compile-time value's type, v in elems[0]
  };
  Kind kind = Kind::None;
  bool b = false;
  BigInt i = 0;
  double f = 0;
  std::string s;               // string value, namespace path, builtin or method name
  ir::Type type;               // dtype value
  ir::Value *v = nullptr;      // tensor
  const FunctionDef *fn = nullptr;
  std::vector<SValue> elems;   // tuple elements; method receiver at [0]; block pointer fields;
                               // a namedtuple class's defaults (of its last fields)
  // A namedtuple's field names (a Tuple, its class's name in `s`) or its
  // class's (a NamedTupleClass); empty for a plain tuple.
  std::vector<std::string> fields;
  bool isDescriptor = false;   // block pointer made by make_tensor_descriptor
  // A descriptor or block pointer whose blocks a tensor map may copy
  // (Builtins.cpp, tensorMapMayCopy).
  bool tensorMapReady = false;
  bool constPtr = false;       // pointers from a `tl.const` parameter: nothing may be stored through them

  static SValue none() { return {}; }
  static SValue boolean(bool v) { SValue r; r.kind = Kind::Bool; r.b = v; return r; }
  static SValue integer(BigInt v) { SValue r; r.kind = Kind::Int; r.i = v; return r; }
  static SValue floating(double v) { SValue r; r.kind = Kind::Float; r.f = v; return r; }
  static SValue str(std::string v) { SValue r; r.kind = Kind::Str; r.s = std::move(v); return r; }
  static SValue dtype(ir::Type t) { SValue r; r.kind = Kind::DType; r.type = t; return r; }
  static SValue tuple(std::vector<SValue> e) { SValue r; r.kind = Kind::Tuple; r.elems = std::move(e); return r; }
  static SValue namedTuple(std::string name, std::vector<std::string> fields, std::vector<SValue> e) {
    SValue r = tuple(std::move(e)); r.s = std::move(name); r.fields = std::move(fields); return r;
  }
  static SValue namedTupleClass(std::string name, std::vector<std::string> fields, std::vector<SValue> defaults) {
    SValue r; r.kind = Kind::NamedTupleClass; r.s = std::move(name); r.fields = std::move(fields);
    r.elems = std::move(defaults); return r;
  }
  static SValue constexprType(SValue v) { SValue r; r.kind = Kind::ConstexprType; r.elems = {std::move(v)}; return r; }
  static SValue tensor(ir::Value *v) { SValue r; r.kind = Kind::Tensor; r.v = v; return r; }
  static SValue jit(const FunctionDef *f) { SValue r; r.kind = Kind::JitFunction; r.fn = f; return r; }
  static SValue ns(std::string path) { SValue r; r.kind = Kind::Namespace; r.s = std::move(path); return r; }
  static SValue builtin(std::string name) { SValue r; r.kind = Kind::Builtin; r.s = std::move(name); return r; }
  static SValue method(SValue self, std::string name) {
    SValue r; r.kind = Kind::Method; r.s = std::move(name); r.elems.push_back(std::move(self)); return r;
  }
  static SValue slice() { SValue r; r.kind = Kind::Slice; return r; }
  // make_block_ptr: {base, shape, strides, offsets, block_shape, order};
  // make_tensor_descriptor: the same with its padding ("zero" or "nan") for order.
  static SValue blockPtr(std::vector<SValue> fields, bool descriptor) {
    SValue r; r.kind = Kind::BlockPtr; r.elems = std::move(fields); r.isDescriptor = descriptor; return r;
  }

  bool is(Kind k) const { return kind == k; }
  bool isTensor() const { return kind == Kind::Tensor; }
  bool isNumber() const { return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool; }
  // A value known at compile time (tuples when all their elements are).
  bool isConstexpr() const;
  // Python's truth value of a compile-time value.
  bool truthy() const;
  // For messages: "int 3", "tensor of type tile<16xf32>", "function add".
  std::string describe() const;
  // Compile-time values only: equal as Python would say (used for specialization keys).
  std::string key() const;
  // What a called function is compiled for: key() of compile-time parts,
  // the kind of runtime ones (whose IR types the caller adds), through
  // tuples and block pointers.
  std::string specializationKey() const;
};

std::string bigIntToString(BigInt v);
// Triton's names for dtypes: "fp32", "int32", "pointer<fp16>", ...
std::string dtypeName(ir::Type t);

} // namespace tessera::frontend
