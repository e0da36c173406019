// Attributes: compile-time values attached to ops and functions by name.
#pragma once

#include "ir/Types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tessera::ir {

// Integers are stored as int64 two's-complement bit patterns; a u64 constant
// above INT64_MAX is stored (and printed) as its negative bit pattern.
class Attribute {
public:
  using Ints = std::vector<int64_t>;
  Attribute() = default;
  Attribute(bool v) : v_(v) {}
  Attribute(int v) : v_(int64_t(v)) {}
  Attribute(int64_t v) : v_(v) {}
  Attribute(double v) : v_(v) {}
  Attribute(std::string v) : v_(std::move(v)) {}
  Attribute(const char *v) : v_(std::string(v)) {}
  Attribute(Type v) : v_(v) {}
  Attribute(Ints v) : v_(std::move(v)) {}

  bool isBool() const { return std::holds_alternative<bool>(v_); }
  bool isInt() const { return std::holds_alternative<int64_t>(v_); }
  bool isFloat() const { return std::holds_alternative<double>(v_); }
  bool isString() const { return std::holds_alternative<std::string>(v_); }
  bool isType() const { return std::holds_alternative<Type>(v_); }
  bool isInts() const { return std::holds_alternative<Ints>(v_); }
  explicit operator bool() const { return !std::holds_alternative<std::monostate>(v_); }

  bool getBool() const { return std::get<bool>(v_); }
  int64_t getInt() const { return std::get<int64_t>(v_); }
  double getFloat() const { return std::get<double>(v_); }
  const std::string &getString() const { return std::get<std::string>(v_); }
  Type getType() const { return std::get<Type>(v_); }
  const Ints &getInts() const { return std::get<Ints>(v_); }

  bool operator==(const Attribute &o) const;
  bool operator!=(const Attribute &o) const { return !(*this == o); }
  std::string str() const;

private:
  std::variant<std::monostate, bool, int64_t, double, std::string, Type, Ints> v_;
};

// A small name-sorted dictionary; printing order is therefore stable.
class AttrDict {
public:
  using Entry = std::pair<std::string, Attribute>;
  void set(const std::string &name, Attribute value);
  const Attribute *find(std::string_view name) const;
  bool erase(std::string_view name);
  bool empty() const { return entries_.empty(); }
  const std::vector<Entry> &entries() const { return entries_; }
  bool operator==(const AttrDict &o) const { return entries_ == o.entries_; }
  std::string str() const;  // "{a = 1, b = \"x\"}" or "" when empty

  int64_t getInt(std::string_view name, int64_t dflt) const;
  bool getBool(std::string_view name, bool dflt) const;
  std::string getString(std::string_view name, std::string dflt) const;

private:
  std::vector<Entry> entries_;
};

std::string quoteString(std::string_view s);
std::string formatDouble(double v);

} // namespace tessera::ir
