#include "ir/IR.h"

#include <algorithm>
#include <cassert>
#include <sstream>

namespace tessera::ir {

const std::vector<OpInfo> &allOps() {
  static const std::vector<OpInfo> table = {
#define OP(Id, Name, MinOps, MaxOps, NRes, NReg, Traits, Attrs, Verify) \
  {OpCode::Id, Name, MinOps, MaxOps, NRes, NReg, uint32_t(Traits), Attrs},
#include "ir/Ops.def"
#undef OP
  };
  return table;
}

const OpInfo &opInfo(OpCode code) { return allOps()[static_cast<size_t>(code)]; }

bool opCodeFromName(std::string_view name, OpCode &out) {
  for (const OpInfo &i : allOps())
    if (name == i.name) {
      out = i.code;
      return true;
    }
  return false;
}

std::string Loc::str() const {
  if (!known()) return "<unknown>";
  return (file.empty() ? std::string("<input>") : file) + ":" + std::to_string(line) + ":" +
         std::to_string(col);
}

// ---- Value

Block *Value::ownerBlock() const { return def_ ? def_->parentBlock() : owner_; }

void Value::replaceAllUsesWith(Value *other) {
  if (other == this) return;
  std::vector<Operation *> users = users_;
  std::sort(users.begin(), users.end());
  users.erase(std::unique(users.begin(), users.end()), users.end());
  for (Operation *user : users)
    for (unsigned i = 0; i < user->numOperands(); ++i)
      if (user->operand(i) == this) user->setOperand(i, other);
}

// ---- Region and Block

Region::Region(Operation *parentOp) : block_(std::make_unique<Block>(this)), parentOp_(parentOp) {}
Region::~Region() = default;

Block::~Block() {
  // Drop all uses first so that destroying ops in any order is safe.
  for (auto &op : ops_) op->dropAllReferences();
  while (!ops_.empty()) ops_.pop_back();
}

Value *Block::addArgument(Type type, std::string nameHint) {
  args_.push_back(std::make_unique<Value>(type, this, unsigned(args_.size())));
  args_.back()->setNameHint(std::move(nameHint));
  return args_.back().get();
}

std::vector<Value *> Block::arguments() const {
  std::vector<Value *> out;
  for (auto &a : args_) out.push_back(a.get());
  return out;
}

void Block::eraseArgument(unsigned i) {
  assert(!args_[i]->hasUses() && "erasing a used block argument");
  args_.erase(args_.begin() + i);
  for (unsigned j = i; j < args_.size(); ++j) args_[j]->index_ = j;
}

Operation *Block::terminator() const {
  if (ops_.empty() || !ops_.back()->hasTrait(kTerminator)) return nullptr;
  return ops_.back().get();
}

std::vector<Operation *> Block::opsVector() const {
  std::vector<Operation *> out;
  out.reserve(ops_.size());
  for (auto &op : ops_) out.push_back(op.get());
  return out;
}

Operation *Block::append(std::unique_ptr<Operation> op) {
  Operation *raw = op.get();
  raw->parent_ = this;
  raw->self_ = ops_.insert(ops_.end(), std::move(op));
  return raw;
}

Operation *Block::insertBefore(Operation *before, std::unique_ptr<Operation> op) {
  assert(before->parent_ == this);
  Operation *raw = op.get();
  raw->parent_ = this;
  raw->self_ = ops_.insert(before->self_, std::move(op));
  return raw;
}

std::unique_ptr<Operation> Block::take(Operation *op) {
  assert(op->parent_ == this);
  std::unique_ptr<Operation> owned = std::move(*op->self_);
  ops_.erase(op->self_);
  op->parent_ = nullptr;
  return owned;
}

// ---- Operation

Operation::Operation(OpCode code, std::vector<Value *> operands, const std::vector<Type> &resultTypes,
                     AttrDict attrs, Loc loc)
    : code_(code), operands_(std::move(operands)), attrs_(std::move(attrs)), loc_(std::move(loc)) {
  for (Value *v : operands_) v->addUser(this);
  for (unsigned i = 0; i < resultTypes.size(); ++i)
    results_.push_back(std::make_unique<Value>(resultTypes[i], this, i));
  for (int r = 0; r < info().numRegions; ++r) regions_.push_back(std::make_unique<Region>(this));
}

Operation::~Operation() { dropAllReferences(); }

void Value::removeUser(Operation *user) {
  auto it = std::find(users_.begin(), users_.end(), user);
  assert(it != users_.end());
  users_.erase(it);
}

void Operation::setOperand(unsigned i, Value *v) {
  operands_[i]->removeUser(this);
  operands_[i] = v;
  v->addUser(this);
}

void Operation::setOperands(std::vector<Value *> values) {
  for (Value *v : operands_) v->removeUser(this);
  operands_ = std::move(values);
  for (Value *v : operands_) v->addUser(this);
}

std::vector<Value *> Operation::results() const {
  std::vector<Value *> out;
  for (auto &r : results_) out.push_back(r.get());
  return out;
}

void Operation::dropAllReferences() {
  for (Value *v : operands_) v->removeUser(this);
  operands_.clear();
  for (auto &r : regions_)
    for (auto &op : r->block().ops_) op->dropAllReferences();
}

Operation *Operation::parentOp() const { return parent_ ? parent_->parentOp() : nullptr; }

Function *Operation::parentFunction() const {
  const Operation *op = this;
  while (Operation *p = op->parentOp()) op = p;
  if (!op->parent_ || !op->parent_->parentRegion()) return nullptr;
  return op->parent_->parentRegion()->parentFunction();
}

bool Operation::isAncestorOf(const Operation *other) const {
  for (const Operation *p = other->parentOp(); p; p = p->parentOp())
    if (p == this) return true;
  return false;
}

void Operation::erase() {
  for (auto &r : results_) {
    (void)r;
    assert(!r->hasUses() && "erasing an op whose results are still used");
  }
  dropAllReferences();
  parent_->take(this);  // the returned owner destroys the op
}

void Operation::moveBefore(Operation *other) {
  std::unique_ptr<Operation> owned = parent_->take(this);
  other->parent_->insertBefore(other, std::move(owned));
}

// ---- Function and Module

Function::Function(std::string name, FunctionKind kind, const std::vector<Type> &argTypes,
                   std::vector<Type> resultTypes)
    : name_(std::move(name)), kind_(kind), results_(std::move(resultTypes)),
      argAttrs_(argTypes.size()) {
  body_.parentFunc_ = this;
  for (Type t : argTypes) body_.block().addArgument(t);
}

Value *Function::addArgument(Type type, std::string nameHint) {
  argAttrs_.emplace_back();
  return entry().addArgument(type, std::move(nameHint));
}

std::vector<Type> Function::argumentTypes() const {
  std::vector<Type> out;
  for (unsigned i = 0; i < numArguments(); ++i) out.push_back(argument(i)->type());
  return out;
}

Function *Module::addFunction(std::unique_ptr<Function> f) {
  functions_.push_back(std::move(f));
  return functions_.back().get();
}

Function *Module::lookup(std::string_view name) const {
  for (auto &f : functions_)
    if (f->name() == name) return f.get();
  return nullptr;
}

void Module::eraseFunction(Function *f) {
  functions_.erase(std::remove_if(functions_.begin(), functions_.end(),
                                  [&](auto &p) { return p.get() == f; }),
                   functions_.end());
}

Function *Module::replaceFunction(Function *old, std::unique_ptr<Function> f) {
  for (auto &slot : functions_)
    if (slot.get() == old) {
      slot = std::move(f);
      return slot.get();
    }
  return addFunction(std::move(f));
}

unsigned wgmmaAOperands(const Operation &wgmma) {
  const Attribute *aDesc = wgmma.attr("a_desc"), *shape = wgmma.attr("shape");
  if (aDesc && !aDesc->getInts().empty()) return 1;
  std::vector<int64_t> s = shape ? shape->getInts() : std::vector<int64_t>{};
  return s.size() == 3 && s[2] > 1 ? unsigned(s[2] / 2) : 1;
}

bool parseTensorMapFactor(const std::string &text, bool &isArgument, int64_t &value) {
  isArgument = !text.empty() && text[0] == 'a';
  std::string digits = isArgument ? text.substr(1) : text;
  if (digits.empty() || digits.size() > (isArgument ? 9 : 18) || digits.find_first_not_of("0123456789") != std::string::npos)
    return false;
  value = std::stoll(digits);
  return true;
}

int tensorMapTensor(const Function &f, unsigned arg) {
  const Attribute *map = f.argAttrs(arg).find("tensor_map");
  if (!map || !map->isInts() || map->getInts().empty()) return -1;
  int64_t d = map->getInts()[0];
  return d >= 0 && d < int64_t(f.numArguments()) ? int(d) : -1;
}

std::vector<TensorMapField> tensorMapFields(const Function &f, unsigned arg) {
  const Attribute *map = f.argAttrs(arg).find("tensor_map");
  if (!map || !map->isInts() || map->getInts().size() < 3) return {};
  int64_t base = map->getInts()[0], rank = int64_t(map->getInts().size()) - 2;
  std::vector<TensorMapField> out;
  if (const Attribute *fields = f.argAttrs(arg).find("tensor_map_fields")) {
    if (!fields->isString()) return {};
    std::istringstream in(fields->getString());
    for (std::string text; in >> text;) {
      TensorMapField field;
      std::istringstream factors(text);
      for (std::string x; std::getline(factors, x, '*');) {
        bool isArgument = false;
        int64_t value = 0;
        if (!parseTensorMapFactor(x, isArgument, value) || (isArgument && value >= int64_t(f.numArguments()))) return {};
        if (isArgument) field.args.push_back(unsigned(value));
        else field.constant *= value;
      }
      out.push_back(field);
    }
    return int64_t(out.size()) == 2 * rank ? out : std::vector<TensorMapField>{};
  }
  if (base < 0 || base + 2 * rank >= int64_t(f.numArguments()) || f.argAttrs(unsigned(base)).getInt("descriptor", 0) != rank)
    return {};
  for (int64_t i = 1; i <= 2 * rank; ++i) out.push_back({{unsigned(base + i)}, 1});
  return out;
}

} // namespace tessera::ir
