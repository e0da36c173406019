#include "frontend/Values.h"

#include "ir/Attributes.h"

#include <cstdio>

namespace tessera::frontend {

std::string bigIntToString(BigInt v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  unsigned __int128 u = neg ? (unsigned __int128)(-(v + 1)) + 1 : (unsigned __int128)v;
  std::string s;
  while (u) {
    s.insert(s.begin(), char('0' + int(u % 10)));
    u /= 10;
  }
  return neg ? "-" + s : s;
}

std::string dtypeName(ir::Type t) {
  if (t.isPointer()) return "pointer<" + dtypeName(t.pointee()) + ">";
  if (t.isTile()) return "block<" + t.str() + ">";
  switch (t.scalarKind()) {
  case ir::ScalarKind::I1: return "int1";
  case ir::ScalarKind::I8: return "int8";
  case ir::ScalarKind::I16: return "int16";
  case ir::ScalarKind::I32: return "int32";
  case ir::ScalarKind::I64: return "int64";
  case ir::ScalarKind::U8: return "uint8";
  case ir::ScalarKind::U16: return "uint16";
  case ir::ScalarKind::U32: return "uint32";
  case ir::ScalarKind::U64: return "uint64";
  case ir::ScalarKind::F8E4M3: return "fp8e4nv";
  case ir::ScalarKind::F8E5M2: return "fp8e5";
  case ir::ScalarKind::F16: return "fp16";
  case ir::ScalarKind::BF16: return "bf16";
  case ir::ScalarKind::F32: return "fp32";
  case ir::ScalarKind::F64: return "fp64";
  case ir::ScalarKind::F8E4B15: return "fp8e4b15";
  }
  return t.str();
}

bool SValue::isConstexpr() const {
  switch (kind) {
  case Kind::None: case Kind::Bool: case Kind::Int: case Kind::Float: case Kind::Str: case Kind::DType:
  case Kind::NamedTupleClass: case Kind::ConstexprType:
    return true;
  case Kind::Tuple:
    for (auto &e : elems)
      if (!e.isConstexpr()) return false;
    return true;
  default:
    return false;
  }
}

bool SValue::truthy() const {
  switch (kind) {
  case Kind::None: return false;
  case Kind::Bool: return b;
  case Kind::Int: return i != 0;
  case Kind::Float: return f != 0.0;
  case Kind::Str: return !s.empty();
  case Kind::Tuple: return !elems.empty();
  default: return true;
  }
}

std::string SValue::describe() const {
  switch (kind) {
  case Kind::None: return "None";
  case Kind::Bool: return std::string("bool ") + (b ? "True" : "False");
  case Kind::Int: return "int " + bigIntToString(i);
  case Kind::Float: return "float " + ir::formatDouble(f);
  case Kind::Str: return "str " + ir::quoteString(s);
  case Kind::DType: return "dtype " + dtypeName(type);
  case Kind::Tuple:
    return fields.empty() ? "tuple of " + std::to_string(elems.size()) : "namedtuple " + s;
  case Kind::NamedTupleClass: return "namedtuple class " + s;
  case Kind::ConstexprType: return "constexpr_type[" + elems[0].key() + "]";
  case Kind::Tensor: return "tensor of type " + v->type().str();
  case Kind::JitFunction: return "function " + fn->name;
  case Kind::Namespace: return "module " + s;
  case Kind::Builtin: return "builtin " + s;
  case Kind::Method: return "method " + s;
  case Kind::BlockPtr: return isDescriptor ? "tensor descriptor" : "block pointer";
  case Kind::Slice: return "slice";
  }
  return "value";
}

std::string SValue::key() const {
  switch (kind) {
  case Kind::None: return "None";
  case Kind::Bool: return b ? "True" : "False";
  case Kind::Int: return bigIntToString(i);
  case Kind::Float: return ir::formatDouble(f);
  case Kind::Str: return ir::quoteString(s);
  case Kind::DType: return dtypeName(type);
  case Kind::Tuple: {
    std::string k = s + "(";
    for (size_t n = 0; n < elems.size(); ++n) k += (fields.empty() ? "" : fields[n] + "=") + elems[n].key() + ",";
    return k + ")";
  }
  case Kind::ConstexprType: return describe();
  case Kind::NamedTupleClass: {
    std::string k = "namedtuple_class:" + s + "(";
    size_t firstDefault = fields.size() - elems.size();  // the defaults are the last fields'
    for (size_t n = 0; n < fields.size(); ++n)
      k += fields[n] + (n >= firstDefault ? "=" + elems[n - firstDefault].key() : "") + ",";
    return k + ")";
  }
  default: return "<" + describe() + ">";
  }
}

std::string SValue::specializationKey() const {
  if (isConstexpr()) return key();
  if (kind == Kind::JitFunction) {  // two functions may share a name (one per module, or redefined)
    char at[32];
    std::snprintf(at, sizeof at, "@%p", static_cast<const void *>(fn));
    return describe() + at;
  }
  if (kind != Kind::Tuple && kind != Kind::BlockPtr) return describe();
  std::string k = (kind == Kind::Tuple ? s : describe()) + "(";
  for (size_t n = 0; n < elems.size(); ++n)
    k += (fields.size() > n ? fields[n] + "=" : "") + elems[n].specializationKey() + ",";
  return k + ")";
}

} // namespace tessera::frontend
