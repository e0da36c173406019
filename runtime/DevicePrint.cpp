#include "runtime/DevicePrint.h"

#include <cstdio>
#include <cstring>

namespace tessera::runtime {

std::string formatDevicePrint(const std::string &format, const std::vector<uint64_t> &args) {
  std::string out;
  size_t next = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out += format[i];
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    // The spec: flags, width, precision, length, conversion.
    size_t start = i, end = i + 1;
    while (end < format.size() && std::strchr("-+ #0123456789.", format[end])) ++end;
    int longs = 0;
    while (end < format.size() && (format[end] == 'l' || format[end] == 'h' || format[end] == 'z')) longs += format[end++] == 'l';
    if (end >= format.size()) {
      out += format.substr(i);
      break;
    }
    char conv = format[end];
    std::string spec = format.substr(i, end - i);
    while (!spec.empty() && std::strchr("lhz", spec.back())) spec.pop_back();
    i = end;
    if (next >= args.size()) {
      out += "<missing>";
      continue;
    }
    uint64_t bits = args[next++];
    char buf[128];
    if (std::strchr("dic", conv)) {
      long long v = longs ? static_cast<long long>(bits) : static_cast<int32_t>(bits);
      std::snprintf(buf, sizeof buf, (spec + (conv == 'c' ? "c" : "lld")).c_str(), v);
    } else if (std::strchr("uxXo", conv)) {
      unsigned long long v = longs ? bits : static_cast<uint32_t>(bits);
      std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), v);
    } else if (std::strchr("fFeEgGaA", conv)) {
      double d;
      std::memcpy(&d, &bits, sizeof d);
      std::snprintf(buf, sizeof buf, (spec + conv).c_str(), d);
    } else if (conv == 'p') {
      std::snprintf(buf, sizeof buf, "%p", reinterpret_cast<void *>(static_cast<uintptr_t>(bits)));
    } else {
      std::snprintf(buf, sizeof buf, "%s", format.substr(start, end - start + 1).c_str());
    }
    out += buf;
  }
  return out;
}

} // namespace tessera::runtime
