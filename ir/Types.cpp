#include "ir/Types.h"

#include <cassert>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace tessera::ir {

struct TypeStorage {
  TypeKind kind = TypeKind::Scalar;
  ScalarKind scalar = ScalarKind::I1;
  AddressSpace space = AddressSpace::Generic;
  const TypeStorage *inner = nullptr;  // pointee or tile element
  std::vector<int64_t> shape;
  const Layout *layout = nullptr;
  std::string text;
};

namespace {

struct ScalarInfo {
  const char *name;
  int bits;
  enum Class { Bool, Signed, Unsigned, Float } cls;
};

constexpr ScalarInfo kScalars[] = {
    {"i1", 1, ScalarInfo::Bool},        {"i8", 8, ScalarInfo::Signed},
    {"i16", 16, ScalarInfo::Signed},    {"i32", 32, ScalarInfo::Signed},
    {"i64", 64, ScalarInfo::Signed},    {"u8", 8, ScalarInfo::Unsigned},
    {"u16", 16, ScalarInfo::Unsigned},  {"u32", 32, ScalarInfo::Unsigned},
    {"u64", 64, ScalarInfo::Unsigned},  {"f8e4m3", 8, ScalarInfo::Float},
    {"f8e5m2", 8, ScalarInfo::Float},   {"f16", 16, ScalarInfo::Float},
    {"bf16", 16, ScalarInfo::Float},    {"f32", 32, ScalarInfo::Float},
    {"f64", 64, ScalarInfo::Float},     {"f8e4b15", 8, ScalarInfo::Float},
};

const ScalarInfo &info(ScalarKind k) { return kScalars[static_cast<int>(k)]; }

// Types live for the whole process, uniqued by their printed text.
class Uniquer {
public:
  template <typename Make> const TypeStorage *get(const std::string &text, Make make) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(text);
    if (it != map_.end()) return it->second.get();
    auto s = std::make_unique<TypeStorage>(make());
    s->text = text;
    return (map_[text] = std::move(s)).get();
  }
  const Layout *getLayout(const std::string &text, std::string kind, std::vector<Layout::Param> params) {
    std::lock_guard<std::mutex> lock(mu_);
    auto &slot = layouts_[text];
    if (!slot) slot = std::make_unique<Layout>(std::move(kind), std::move(params), text);
    return slot.get();
  }

private:
  std::mutex mu_;
  std::unordered_map<std::string, std::unique_ptr<TypeStorage>> map_;
  std::unordered_map<std::string, std::unique_ptr<Layout>> layouts_;
};

Uniquer &uniquer() {
  static Uniquer *u = new Uniquer();  // never destroyed: types outlive statics
  return *u;
}

std::string spaceSuffix(AddressSpace s) {
  switch (s) {
  case AddressSpace::Global: return "";
  case AddressSpace::Shared: return ", shared";
  case AddressSpace::Constant: return ", constant";
  case AddressSpace::Generic: return ", generic";
  }
  return "";
}

} // namespace

std::string_view scalarKindName(ScalarKind kind) { return info(kind).name; }

bool scalarKindFromName(std::string_view name, ScalarKind &out) {
  for (size_t i = 0; i < std::size(kScalars); ++i)
    if (name == kScalars[i].name) {
      out = static_cast<ScalarKind>(i);
      return true;
    }
  return false;
}

Type Type::scalar(ScalarKind kind) {
  return Type(uniquer().get(std::string(info(kind).name), [&] {
    TypeStorage s;
    s.kind = TypeKind::Scalar;
    s.scalar = kind;
    return s;
  }));
}

Type Type::pointer(Type pointee, AddressSpace space) {
  assert(pointee && "pointer to a null type");
  std::string text = "ptr<" + pointee.str() + spaceSuffix(space) + ">";
  return Type(uniquer().get(text, [&] {
    TypeStorage s;
    s.kind = TypeKind::Pointer;
    s.space = space;
    s.inner = pointee.s_;
    return s;
  }));
}

namespace {

// Tiles and buffers: "<prefix><4x8x" element [", " layout]">".
const TypeStorage *shaped(TypeKind kind, const char *prefix, const std::vector<int64_t> &shape, const TypeStorage *element,
                          const std::string &elementText, const Layout *layout) {
  std::string text = prefix;
  for (int64_t d : shape) text += std::to_string(d) + "x";
  text += elementText;
  if (layout) text += ", " + layout->str();
  text += ">";
  return uniquer().get(text, [&] {
    TypeStorage s;
    s.kind = kind;
    s.inner = element;
    s.shape = shape;
    s.layout = layout;
    return s;
  });
}

} // namespace

Type Type::tile(std::vector<int64_t> shape, Type element, const Layout *layout) {
  assert(element && !element.isTile() && "tile element must be a scalar or pointer");
  return Type(shaped(TypeKind::Tile, "tile<", shape, element.s_, element.str(), layout));
}

Type Type::buffer(std::vector<int64_t> shape, Type element, const Layout *layout) {
  assert(element && element.isScalar() && layout && "a buffer holds scalars in a shared layout");
  return Type(shaped(TypeKind::Buffer, "smem<", shape, element.s_, element.str(), layout));
}

TypeKind Type::kind() const { return s_->kind; }

Type Type::element() const { return isTile() || isBuffer() ? Type(s_->inner) : *this; }

ScalarKind Type::scalarKind() const {
  Type e = element();
  assert(e.isScalar());
  return e.s_->scalar;
}

bool Type::isInteger() const {
  Type e = element();
  return e.isScalar() && info(e.s_->scalar).cls != ScalarInfo::Float;
}
bool Type::isBool() const {
  Type e = element();
  return e.isScalar() && e.s_->scalar == ScalarKind::I1;
}
bool Type::isSigned() const {
  Type e = element();
  return e.isScalar() && info(e.s_->scalar).cls == ScalarInfo::Signed;
}
bool Type::isUnsigned() const {
  Type e = element();
  return e.isScalar() && (info(e.s_->scalar).cls == ScalarInfo::Unsigned ||
                          info(e.s_->scalar).cls == ScalarInfo::Bool);
}
bool Type::isFloat() const {
  Type e = element();
  return e.isScalar() && info(e.s_->scalar).cls == ScalarInfo::Float;
}
int Type::bitWidth() const {
  Type e = element();
  return e.isPointer() ? 64 : info(e.s_->scalar).bits;
}

Type Type::pointee() const {
  Type e = element();
  assert(e.isPointer());
  return Type(e.s_->inner);
}
AddressSpace Type::addressSpace() const {
  Type e = element();
  assert(e.isPointer());
  return e.s_->space;
}

const std::vector<int64_t> &Type::shape() const {
  static const std::vector<int64_t> empty;
  return isTile() || isBuffer() ? s_->shape : empty;
}
int64_t Type::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape()) n *= d;
  return n;
}
const Layout *Type::layout() const { return isTile() || isBuffer() ? s_->layout : nullptr; }

Type Type::withElement(Type element) const {
  return isTile() ? tile(shape(), element, layout()) : element;
}
Type Type::withShape(std::vector<int64_t> shape) const {
  return shape.empty() ? element() : tile(std::move(shape), element(), nullptr);
}

const std::string &Type::str() const {
  static const std::string null = "<<null type>>";
  return s_ ? s_->text : null;
}

const Layout *Layout::get(std::string kind, std::vector<Param> params) {
  std::string text = "#" + kind + "<";
  for (size_t i = 0; i < params.size(); ++i) {
    if (i) text += ", ";
    text += params[i].first + " = [";
    for (size_t j = 0; j < params[i].second.size(); ++j)
      text += (j ? ", " : "") + std::to_string(params[i].second[j]);
    text += "]";
  }
  text += ">";
  return uniquer().getLayout(text, std::move(kind), std::move(params));
}

const std::vector<int64_t> *Layout::param(std::string_view name) const {
  for (auto &p : params_)
    if (p.first == name) return &p.second;
  return nullptr;
}

} // namespace tessera::ir
