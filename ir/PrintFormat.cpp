#include "ir/PrintFormat.h"

namespace tessera::ir {

namespace {

std::string escapePercent(const std::string &s) {
  std::string out;
  for (char c : s) out += c == '%' ? std::string("%%") : std::string(1, c);
  return out;
}

std::string pidFormat() { return "pid (%d, %d, %d)"; }

std::string valueConversion(const Type &elem, bool hex) {
  if (elem.isPointer()) return "%p";
  if (elem.isFloat()) return hex ? "%a" : "%f";
  std::string length = elem.bitWidth() == 64 ? "ll" : "";
  if (hex) return "0x%0" + std::to_string(std::max(2, elem.bitWidth() / 4)) + length + "x";
  return "%" + length + (elem.isSigned() ? "d" : "u");
}

} // namespace

std::string printBareFormat(const Operation &print) {
  return pidFormat() + escapePercent(print.attr("prefix")->getString()) + "\n";
}

std::string printElementFormat(const Operation &print, size_t operand) {
  const Type &t = print.operand(operand)->type();
  bool hex = print.attrs().getBool("hex", false);
  std::string index = " idx (";
  if (t.isTile()) {
    const std::vector<int64_t> &shape = t.shape();
    for (size_t d = 0; d < shape.size(); ++d)
      index += (d ? ", %" : "%") + std::to_string(std::to_string(std::max<int64_t>(shape[d] - 1, 0)).size()) + "lld";
  }
  index += ")";
  std::string which = print.numOperands() > 1 ? "(operand " + std::to_string(operand) + ") " : "";
  return pidFormat() + index + escapePercent(print.attr("prefix")->getString()) + which +
         valueConversion(t.element(), hex) + "\n";
}

Type printArgumentType(const Type &elem, bool hex) {
  if (elem.isFloat()) return Type::scalar(ScalarKind::F64);
  if (elem.isPointer() || elem.bitWidth() >= 32) return elem;
  return elem.isSigned() && !hex ? Type::i32() : Type::scalar(ScalarKind::U32);
}

} // namespace tessera::ir
