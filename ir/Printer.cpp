#include "ir/Printer.h"

#include <cctype>
#include <unordered_map>
#include <unordered_set>

namespace tessera::ir {
namespace {

bool isIdentifier(const std::string &s) {
  if (s.empty() || !(std::isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum((unsigned char)c) || c == '_' || c == '.')) return false;
  return true;
}

class Namer {
public:
  explicit Namer(const Function &f) {
    for (unsigned i = 0; i < f.numArguments(); ++i) name(f.argument(i));
    nameBlock(f.entry());
  }
  const std::string &operator[](const Value *v) const {
    static const std::string unknown = "%<<undefined>>";
    auto it = names_.find(v);
    return it == names_.end() ? unknown : it->second;
  }

private:
  void nameBlock(const Block &b) {
    for (auto &op : b.ops()) {
      for (unsigned i = 0; i < op->numResults(); ++i) name(op->result(i));
      for (unsigned r = 0; r < op->numRegions(); ++r) {
        const Block &inner = op->region(r).block();
        for (unsigned a = 0; a < inner.numArguments(); ++a) name(inner.argument(a));
        nameBlock(inner);
      }
    }
  }
  void name(const Value *v) {
    std::string hint = v->nameHint();
    std::string n;
    if (isIdentifier(hint)) {
      // Suffixes continue where this hint's last one stopped: a name
      // reassigned n times costs n, not n^2.
      n = hint;
      int &k = nextSuffix_[hint];
      while (used_.count(n)) n = hint + "_" + std::to_string(++k);
    } else {
      n = std::to_string(next_++);
    }
    used_.insert(n);
    names_[v] = "%" + n;
  }
  std::unordered_map<const Value *, std::string> names_;
  std::unordered_set<std::string> used_;
  std::unordered_map<std::string, int> nextSuffix_;
  unsigned next_ = 0;
};

// A u64 constant's value prints as the unsigned number it is (it is stored
// as its two's-complement bit pattern).
std::string attrText(const Operation &op) {
  Type t = op.numResults() ? op.result()->type().element() : Type();
  const Attribute *v = op.attr("value");
  if (!op.is(OpCode::Constant) || !t || !t.isScalar() || t.scalarKind() != ScalarKind::U64 || !v || !v->isInt() ||
      v->getInt() >= 0)
    return op.attrs().str();
  AttrDict copy = op.attrs();
  copy.erase("value");
  std::string rest = copy.str();
  std::string text = "{value = " + std::to_string(uint64_t(v->getInt()));
  return rest.empty() ? text + "}" : text + ", " + rest.substr(1);
}

class Printer {
public:
  Printer(const Namer &names, PrintOptions opts) : names_(names), opts_(opts) {}

  void printHeader(const Operation &op, std::string &out) const {
    for (unsigned i = 0; i < op.numResults(); ++i) out += (i ? ", " : "") + names_[op.result(i)];
    if (op.numResults()) out += " = ";
    out += op.name();
    for (unsigned i = 0; i < op.numOperands(); ++i) out += (i ? ", " : " ") + names_[op.operand(i)];
    if (!op.attrs().empty()) out += " " + attrText(op);
    for (unsigned i = 0; i < op.numResults(); ++i)
      out += (i ? ", " : " : ") + op.result(i)->type().str();
    if (opts_.locations && op.loc().known()) out += " " + locText(op.loc());
  }

  void printOp(const Operation &op, int indent, std::string &out) const {
    out.append(indent, ' ');
    printHeader(op, out);
    for (unsigned r = 0; r < op.numRegions(); ++r) {
      out += " {\n";
      printBlock(op.region(r).block(), indent, out);
      out.append(indent, ' ');
      out += "}";
    }
    out += "\n";
  }

  // Block arguments go on a `^bb(...)` line at the indentation of the owner.
  void printBlock(const Block &b, int indent, std::string &out, bool withArgs = true) const {
    if (withArgs && b.numArguments()) {
      out.append(indent, ' ');
      out += "^bb(";
      for (unsigned i = 0; i < b.numArguments(); ++i)
        out += (i ? ", " : "") + names_[b.argument(i)] + ": " + b.argument(i)->type().str();
      out += "):\n";
    }
    for (auto &op : b.ops()) printOp(*op, indent + 2, out);
  }

  static std::string locText(const Loc &l) {
    return "loc(" + quoteString(l.file) + ":" + std::to_string(l.line) + ":" + std::to_string(l.col) + ")";
  }

private:
  const Namer &names_;
  PrintOptions opts_;
};

void printFunctionInto(const Function &f, PrintOptions opts, std::string &out) {
  Namer names(f);
  Printer p(names, opts);
  out += f.isKernel() ? "kernel @" : "func @";
  out += f.name() + "(";
  for (unsigned i = 0; i < f.numArguments(); ++i) {
    out += (i ? ", " : "") + names[f.argument(i)] + ": " + f.argument(i)->type().str();
    if (!f.argAttrs(i).empty()) out += " " + f.argAttrs(i).str();
  }
  out += ")";
  if (!f.resultTypes().empty()) {
    out += " -> (";
    for (size_t i = 0; i < f.resultTypes().size(); ++i) out += (i ? ", " : "") + f.resultTypes()[i].str();
    out += ")";
  }
  if (!f.attrs().empty()) out += " attributes " + f.attrs().str();
  if (opts.locations && f.loc.known()) out += " " + Printer::locText(f.loc);
  out += " {\n";
  p.printBlock(f.entry(), 0, out, /*withArgs=*/false);  // they are the parameters
  out += "}\n";
}

} // namespace

std::string printFunction(const Function &f, PrintOptions opts) {
  std::string out;
  printFunctionInto(f, opts, out);
  return out;
}

std::string printModule(const Module &m, PrintOptions opts) {
  std::string out;
  if (!m.attrs().empty()) out += "module " + m.attrs().str() + "\n";
  for (size_t i = 0; i < m.functions().size(); ++i) {
    if (i || !out.empty()) out += "\n";
    printFunctionInto(*m.functions()[i], opts, out);
  }
  return out;
}

std::string printOpHeader(const Operation &op) {
  std::string out;
  if (const Function *f = op.parentFunction()) {
    Namer names(*f);
    Printer(names, {}).printHeader(op, out);
  } else {
    Function empty("", FunctionKind::Device, {}, {});
    Namer names(empty);
    Printer(names, {}).printHeader(op, out);
  }
  return out;
}

} // namespace tessera::ir
