#include "ir/Attributes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tessera::ir {

std::string quoteString(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%02X", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

// Always has '.', 'e', "inf" or "nan", so it reads back as a float, and 17
// significant digits, so it reads back as the same double.
std::string formatDouble(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  // Prefer the shortest text that reads back exactly.
  for (int prec = 1; prec < 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) {
      s = buf;
      break;
    }
  }
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

bool Attribute::operator==(const Attribute &o) const {
  // Compare doubles by bits so that NaN attributes are equal to themselves.
  if (isFloat() && o.isFloat()) {
    double a = getFloat(), b = o.getFloat();
    return std::memcmp(&a, &b, sizeof a) == 0;
  }
  return v_ == o.v_;
}

std::string Attribute::str() const {
  if (isBool()) return getBool() ? "true" : "false";
  if (isInt()) return std::to_string(getInt());
  if (isFloat()) return formatDouble(getFloat());
  if (isString()) return quoteString(getString());
  if (isType()) return getType().str();
  if (isInts()) {
    std::string s = "[";
    for (size_t i = 0; i < getInts().size(); ++i) s += (i ? ", " : "") + std::to_string(getInts()[i]);
    return s + "]";
  }
  return "<<null>>";
}

void AttrDict::set(const std::string &name, Attribute value) {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), name,
                             [](const Entry &e, const std::string &n) { return e.first < n; });
  if (it != entries_.end() && it->first == name)
    it->second = std::move(value);
  else
    entries_.insert(it, {name, std::move(value)});
}

const Attribute *AttrDict::find(std::string_view name) const {
  for (auto &e : entries_)
    if (e.first == name) return &e.second;
  return nullptr;
}

bool AttrDict::erase(std::string_view name) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (it->first == name) {
      entries_.erase(it);
      return true;
    }
  return false;
}

std::string AttrDict::str() const {
  if (entries_.empty()) return "";
  std::string s = "{";
  for (size_t i = 0; i < entries_.size(); ++i)
    s += (i ? ", " : "") + entries_[i].first + " = " + entries_[i].second.str();
  return s + "}";
}

int64_t AttrDict::getInt(std::string_view name, int64_t dflt) const {
  auto *a = find(name);
  return a && a->isInt() ? a->getInt() : dflt;
}
bool AttrDict::getBool(std::string_view name, bool dflt) const {
  auto *a = find(name);
  return a && a->isBool() ? a->getBool() : dflt;
}
std::string AttrDict::getString(std::string_view name, std::string dflt) const {
  auto *a = find(name);
  return a && a->isString() ? a->getString() : dflt;
}

} // namespace tessera::ir
