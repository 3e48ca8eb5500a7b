// pmPrintValue-style rendering of one value; see value_format.h.
#include "value_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace pmdumplog {
namespace {

using pmapi::ValueView;

void AppendF(std::string* out, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void AppendF(std::string* out, const char* fmt, ...) {
  char buf[64];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  if (n > 0) out->append(buf, std::min<size_t>(n, sizeof(buf) - 1));
}

// Appends a number as printf's %d/%u/%lld/%llu would.
template <typename T>
void AppendInt(std::string* out, T x) {
  char buf[24];
  out->append(buf, std::to_chars(buf, buf + sizeof(buf), x).ptr);
}

// Appends a double as printf's "%.<precision>g" would: std::to_chars with
// a precision is specified to convert as printf does in the C locale.
void AppendG(std::string* out, double x, int precision) {
  if (!std::isfinite(x)) {
    AppendF(out, "%.*g", precision, x);
    return;
  }
  char buf[64];
  const std::to_chars_result r =
      std::to_chars(buf, buf + sizeof(buf), x, std::chars_format::general, precision);
  if (r.ec == std::errc()) {
    out->append(buf, r.ptr);
  } else {
    AppendF(out, "%.*g", precision, x);
  }
}

template <typename T>
bool LoadPayload(const ValueView& v, T* out) {
  if (v.payload.size() < sizeof(T)) return false;
  std::memcpy(out, v.payload.data(), sizeof(T));
  return true;
}

// Appends the value as `type`; returns false if it cannot be read so.
bool AppendTyped(int valfmt, int type, const ValueView& v, std::string* out) {
  const bool insitu = valfmt == pmapi::kValInsitu;
  switch (type) {
    case pmapi::kType32: {
      int32_t x = v.lval;
      if (!insitu && !LoadPayload(v, &x)) return false;
      AppendInt(out, x);
      return true;
    }
    case pmapi::kTypeU32: {
      uint32_t x = static_cast<uint32_t>(v.lval);
      if (!insitu && !LoadPayload(v, &x)) return false;
      AppendInt(out, x);
      return true;
    }
    case pmapi::kType64: {
      int64_t x;
      if (insitu || !LoadPayload(v, &x)) return false;
      AppendInt(out, x);
      return true;
    }
    case pmapi::kTypeU64: {
      uint64_t x;
      if (insitu || !LoadPayload(v, &x)) return false;
      AppendInt(out, x);
      return true;
    }
    case pmapi::kTypeFloat: {
      float x;
      if (insitu) {
        std::memcpy(&x, &v.lval, 4);  // the old in-situ float encoding
      } else if (!LoadPayload(v, &x)) {
        return false;
      }
      AppendG(out, static_cast<double>(x), 8);
      return true;
    }
    case pmapi::kTypeDouble: {
      double x;
      if (insitu || !LoadPayload(v, &x)) return false;
      AppendG(out, x, 16);
      return true;
    }
    case pmapi::kTypeString: {
      if (insitu) return false;
      const char* p = reinterpret_cast<const char*>(v.payload.data());
      const size_t n = strnlen(p, v.payload.size());
      out->push_back('"');
      out->append(p, n);
      out->push_back('"');
      return true;
    }
    default:
      return false;
  }
}

// The rendering PCP uses for aggregates and values of unknown type.
void AppendUnknown(int valfmt, const ValueView& v, std::string* out) {
  if (valfmt == pmapi::kValInsitu) {
    float f;
    std::memcpy(&f, &v.lval, 4);
    AppendF(out, "%u", static_cast<uint32_t>(v.lval));
    if (!std::isnan(f)) AppendF(out, " %.8g", static_cast<double>(f));
    AppendF(out, " 0x%x", static_cast<uint32_t>(v.lval));
    return;
  }
  const size_t n = v.payload.size();
  bool done = false;
  if (n == 8) {
    uint64_t u;
    double d;
    std::memcpy(&u, v.payload.data(), 8);
    std::memcpy(&d, v.payload.data(), 8);
    AppendF(out, "%llu", static_cast<unsigned long long>(u));
    if (!std::isnan(d)) AppendF(out, " %.16g", d);
    done = true;
  }
  if (n == 4) {
    float f;
    std::memcpy(&f, v.payload.data(), 4);
    if (!std::isnan(f)) {
      AppendF(out, "%.8g", static_cast<double>(f));
      done = true;
    }
  }
  bool printable = true;
  for (uint8_t c : v.payload) {
    if (c < 0x20 || c > 0x7e) {
      printable = false;
      break;
    }
  }
  if (printable) {
    if (done) out->push_back(' ');
    out->push_back('"');
    out->append(reinterpret_cast<const char*>(v.payload.data()), n);
    out->push_back('"');
    done = true;
  }
  if (done) out->push_back(' ');
  out->push_back('[');
  for (uint8_t c : v.payload) AppendF(out, "%02x", c);
  out->push_back(']');
}

}  // namespace

void AppendValue(int valfmt, int type, const ValueView& v, std::string* out) {
  if (type == pmapi::kTypeAggregate || type == pmapi::kTypeUnknown ||
      !AppendTyped(valfmt, type, v, out)) {
    AppendUnknown(valfmt, v, out);
  }
}

}  // namespace pmdumplog
