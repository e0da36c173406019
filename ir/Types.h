// Types of the tile IR: scalars, pointers, tiles and shared-memory buffers
// (smem<...>, thread IR). Types are interned, so
// two equal types are the same pointer and compare with ==.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::ir {

class Layout;

enum class ScalarKind : uint8_t {
  I1, I8, I16, I32, I64, U8, U16, U32, U64, F8E4M3, F8E5M2, F16, BF16, F32, F64,
  F8E4B15,  // Triton's software fp8: e4m3's layout, bias 15, no NaN (ir/IR.h)
};

// Numbering follows NVPTX/AMDGPU so targets can use it directly.
enum class AddressSpace : uint8_t { Generic = 0, Global = 1, Shared = 3, Constant = 4 };

enum class TypeKind : uint8_t { Scalar, Pointer, Tile, Buffer };

struct TypeStorage;

class Type {
public:
  Type() = default;
  static Type scalar(ScalarKind kind);
  static Type pointer(Type pointee, AddressSpace space = AddressSpace::Global);
  // A tile of `element` (a scalar or pointer type) with a static shape.
  static Type tile(std::vector<int64_t> shape, Type element, const Layout *layout = nullptr);
  // A buffer in the program's shared memory holding a tile of `shape`;
  // `layout` (a shared layout, Layouts.h) says at which offset each element
  // lives. Printed smem<64x64xf16, #shared<...>>.
  static Type buffer(std::vector<int64_t> shape, Type element, const Layout *layout);

  static Type i1() { return scalar(ScalarKind::I1); }
  static Type i32() { return scalar(ScalarKind::I32); }
  static Type i64() { return scalar(ScalarKind::I64); }
  static Type f32() { return scalar(ScalarKind::F32); }

  explicit operator bool() const { return s_ != nullptr; }
  bool operator==(const Type &o) const { return s_ == o.s_; }
  bool operator!=(const Type &o) const { return s_ != o.s_; }

  TypeKind kind() const;
  bool isScalar() const { return s_ && kind() == TypeKind::Scalar; }
  bool isPointer() const { return s_ && kind() == TypeKind::Pointer; }
  bool isTile() const { return s_ && kind() == TypeKind::Tile; }
  bool isBuffer() const { return s_ && kind() == TypeKind::Buffer; }

  // Scalar queries look through a tile to its element type.
  ScalarKind scalarKind() const;  // requires element().isScalar()
  bool isInteger() const;         // i1 and the signed and unsigned integers
  bool isBool() const;            // i1
  bool isSigned() const;          // signed integers (i1 counts as unsigned)
  bool isUnsigned() const;
  bool isFloat() const;
  int bitWidth() const;           // scalar width; 64 for pointers

  Type pointee() const;           // for pointers (and tiles of pointers)
  AddressSpace addressSpace() const;

  // For tiles and buffers: the element type, shape and layout. For other
  // types element() is the type itself and shape() is empty.
  Type element() const;
  const std::vector<int64_t> &shape() const;
  int64_t rank() const { return int64_t(shape().size()); }
  int64_t numElements() const;
  const Layout *layout() const;

  // The same shape (and layout) with another element type; a scalar maps to a scalar.
  Type withElement(Type element) const;
  Type withShape(std::vector<int64_t> shape) const;

  const std::string &str() const;

private:
  explicit Type(const TypeStorage *s) : s_(s) {}
  const TypeStorage *s_ = nullptr;
};

std::string_view scalarKindName(ScalarKind kind);
bool scalarKindFromName(std::string_view name, ScalarKind &out);

// Tile layout attribute (which thread owns which element). The distributed
// level of the IR gives these meaning; here they are named parameter lists,
// `#kind<name = [1, 2], ...>`, interned like types.
class Layout {
public:
  using Param = std::pair<std::string, std::vector<int64_t>>;
  static const Layout *get(std::string kind, std::vector<Param> params);
  const std::string &kind() const { return kind_; }
  const std::vector<Param> &params() const { return params_; }
  const std::vector<int64_t> *param(std::string_view name) const;
  const std::string &str() const { return text_; }

  Layout(std::string kind, std::vector<Param> params, std::string text)
      : kind_(std::move(kind)), params_(std::move(params)), text_(std::move(text)) {}

private:
  std::string kind_;
  std::vector<Param> params_;
  std::string text_;
};

} // namespace tessera::ir
