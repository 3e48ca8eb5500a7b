// Reading a metric value from text; see value_text.h.
#include "pmapi/value_text.h"

#include <cctype>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "pmapi/types.h"

namespace pmapi {
namespace {

// True if the text is hex as PCP's pmstore decides it: after leading
// spaces and one optional '-', "0x" (or "0X") and then only hex digits.
bool LooksHex(const char* p) {
  while (*p != '\0' && std::isspace(static_cast<unsigned char>(*p))) ++p;
  if (*p == '-') ++p;
  if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X')) return false;
  for (p += 2; *p != '\0'; ++p) {
    if (!std::isxdigit(static_cast<unsigned char>(*p))) return false;
  }
  return true;
}

// Reads `buf` as one number of `type`; sets *end where reading stopped and
// returns false for a value out of the type's range.
bool ReadNumber(const char* buf, int type, int base, AtomValue* out, const char** end) {
  char* stop = const_cast<char*>(buf);
  errno = 0;
  bool in_range = true;
  switch (type) {
    case kType32: {
      long v = std::strtol(buf, &stop, base);
      in_range = errno != ERANGE && v >= INT32_MIN && v <= INT32_MAX;
      if (in_range) out->l = static_cast<int32_t>(v);
      break;
    }
    case kTypeU32: {
      unsigned long v = std::strtoul(buf, &stop, base);
      in_range = errno != ERANGE && v <= UINT32_MAX;
      if (in_range) out->ul = static_cast<uint32_t>(v);
      break;
    }
    case kType64:
      out->ll = std::strtoll(buf, &stop, base);
      in_range = errno != ERANGE;
      break;
    case kTypeU64:
      out->ull = std::strtoull(buf, &stop, base);
      in_range = errno != ERANGE;
      break;
    case kTypeFloat: {
      if (base == 16) break;  // stop stays at the start: never a float
      double d = std::strtod(buf, &stop);
      in_range = errno != ERANGE && std::fabs(d) >= FLT_MIN && std::fabs(d) <= FLT_MAX;
      if (in_range) out->f = static_cast<float>(d);
      break;
    }
    case kTypeDouble:
      if (base == 16) break;
      out->d = std::strtod(buf, &stop);
      in_range = errno != ERANGE;
      break;
    default:
      break;
  }
  *end = stop;
  return in_range;
}

}  // namespace

ValueText ParseValueText(const std::string& text, int type) {
  ValueText v;
  if (type == kTypeString) {
    v.atom.bytes = text;
    return v;
  }
  const char* end = nullptr;
  const bool in_range = ReadNumber(text.c_str(), type, LooksHex(text.c_str()) ? 16 : 10, &v.atom, &end);
  // Unused text outranks a range error, as in PCP.
  if (*end != '\0') {
    v.error = ValueTextError::kIncompatible;
  } else if (!in_range) {
    v.error = ValueTextError::kOutOfRange;
  }
  return v;
}

}  // namespace pmapi
