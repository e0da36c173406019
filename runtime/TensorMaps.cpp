// Tensor map fields (Runtime.h): their values at a launch and their text
// form in the compile cache.
#include "runtime/Runtime.h"

#include <cstdlib>
#include <sstream>

namespace tessera::runtime {

int64_t TensorMapField::value(void *const *launchArgs) const {
  constexpr int64_t kLimit = int64_t(1) << 62;
  int64_t v = constant;
  for (auto [arg, bytes] : args) {
    int64_t x = bytes == 4 ? *static_cast<const int32_t *>(launchArgs[arg]) : *static_cast<const int64_t *>(launchArgs[arg]),
            product;
    if (__builtin_mul_overflow(v, x, &product) || product > kLimit || product < -kLimit)
      return (v < 0) != (x < 0) ? -kLimit : kLimit;
    v = product;
  }
  return v;
}

std::string formatTensorMapFields(const std::vector<TensorMapField> &fields) {
  std::string out;
  for (const TensorMapField &f : fields) {
    std::string field = f.constant != 1 || f.args.empty() ? std::to_string(f.constant) : "";
    for (auto [arg, bytes] : f.args)
      field += (field.empty() ? "" : "*") + ("a" + std::to_string(arg) + ":" + std::to_string(bytes));
    out += (out.empty() ? "" : " ") + field;
  }
  return out;
}

std::vector<TensorMapField> parseTensorMapFields(const std::string &text) {
  std::vector<TensorMapField> fields;
  std::istringstream in(text);
  for (std::string field; in >> field;) {
    TensorMapField f;
    std::istringstream factors(field);
    for (std::string x; std::getline(factors, x, '*');) {
      char *end = nullptr;
      if (x.size() > 1 && x[0] == 'a') {
        long arg = std::strtol(x.c_str() + 1, &end, 10);
        long bytes = *end == ':' ? std::strtol(end + 1, &end, 10) : 0;
        if (*end || arg < 0 || arg > (1 << 20) || (bytes != 4 && bytes != 8)) f.constant = 0;
        else f.args.push_back({int(arg), int(bytes)});
        continue;
      }
      long long c = std::strtoll(x.c_str(), &end, 10);
      f.constant = x.empty() || *end || c < 1 || c > (int64_t(1) << 40) ? 0 : f.constant * c;
    }
    fields.push_back(f);
  }
  return fields;
}

} // namespace tessera::runtime
