#include "fetchgroup_convert.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cfloat>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "absl/strings/str_format.h"
#include "pmapi/errors.h"
#include "pmapi/extract.h"
#include "pmapi/units.h"

namespace pmapi {
namespace {

bool IsCastable(int type) {
  return type >= kType32 && type <= kTypeString;
}

// Applies the factor from "per second" to "per `scale_time`" to *m as PCP
// does (dividing for the sub-second scales, so the rounding is PCP's);
// returns false for a time scale with no name.
bool ApplyPerSecond(int scale_time, double* m) {
  switch (scale_time) {
    case kTimeNSec: *m /= 1000000000.; return true;
    case kTimeUSec: *m /= 1000000.; return true;
    case kTimeMSec: *m /= 1000.; return true;
    case kTimeSec: return true;
    case kTimeMin: *m *= 60.; return true;
    case kTimeHour: *m *= 3600.; return true;
    default: return false;
  }
}

void SetString(std::string text, FetchGroupValue* out) {
  out->atom.bytes = std::move(text);
  out->null = false;
}

// PCP picks the base from the text: hexadecimal only for "0x" followed by
// hex digits alone (after an optional '-'); floating point types never
// read hexadecimal.
bool LooksHex(const std::string& text) {
  size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i < text.size() && text[i] == '-') ++i;
  if (i + 1 >= text.size() || text[i] != '0' || std::tolower(static_cast<unsigned char>(text[i + 1])) != 'x')
    return false;
  for (i += 2; i < text.size(); ++i) {
    if (!std::isxdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<ScaleRequest> ParseScale(const Desc& desc, std::optional<std::string_view> scale,
                                        int out_type) {
  if (!IsCastable(desc.type) || !IsCastable(out_type)) return PcpError(kErrType);
  ScaleRequest req;
  if (!scale.has_value()) {
    req.rate = desc.sem == kSemCounter;
    return req;
  }
  if (*scale == "rate") {
    req.rate = true;
    return req;
  }
  if (*scale == "instant") return req;
  absl::StatusOr<ParsedUnits> parsed = ParseUnitsStr(*scale);
  if (!parsed.ok()) return parsed.status();
  const Units& want = parsed->units;
  const Units& have = desc.units;
  req.units = true;
  req.output = want;
  req.multiplier = parsed->multiplier;
  if (have.dim_space != want.dim_space || have.dim_count != want.dim_count) {
    return PcpError(kErrConv);
  }
  if (have.dim_time == want.dim_time) return req;
  if (have.dim_time != want.dim_time + 1) return PcpError(kErrConv);
  if (!ApplyPerSecond(want.scale_time, &req.multiplier)) return PcpError(kErrConv);
  req.output.dim_time = static_cast<int8_t>(want.dim_time + 1);
  req.rate = true;
  return req;
}

void SetSentinel(int type, FetchGroupValue* v) {
  v->atom.bytes.clear();
  v->null = false;
  switch (type) {
    // PCP's 0.0/0.0: the NaN with the sign bit set.
    case kTypeFloat: v->atom.ull = 0; v->atom.f = -std::numeric_limits<float>::quiet_NaN(); break;
    case kTypeDouble: v->atom.d = -std::numeric_limits<double>::quiet_NaN(); break;
    case kTypeString: v->atom.ull = 0; v->null = true; break;
    default: v->atom.ull = ~uint64_t{0}; break;
  }
}

int ParseStringAs(const std::string& text, int type, FetchGroupValue* out) {
  const char* buf = text.c_str();
  char* end = const_cast<char*>(buf);
  int base = LooksHex(text) ? 16 : 10;
  errno = 0;
  AtomValue& a = out->atom;
  a.ull = 0;
  switch (type) {
    case kType32: {
      long v = std::strtol(buf, &end, base);
      if (errno != ERANGE && (v > INT32_MAX || v < INT32_MIN)) errno = ERANGE;
      if (errno != ERANGE) a.l = static_cast<int32_t>(v);
      break;
    }
    case kTypeU32: {
      unsigned long v = std::strtoul(buf, &end, base);
      if (errno != ERANGE && v > UINT32_MAX) errno = ERANGE;
      if (errno != ERANGE) a.ul = static_cast<uint32_t>(v);
      break;
    }
    case kType64: a.ll = std::strtoll(buf, &end, base); break;
    case kTypeU64: a.ull = std::strtoull(buf, &end, base); break;
    case kTypeFloat:
      if (base == 10) {
        double d = std::strtod(buf, &end);
        // PCP's test also refuses zero and denormals.
        if (std::fabs(d) < FLT_MIN || std::fabs(d) > FLT_MAX) errno = ERANGE;
        else a.f = static_cast<float>(d);
      }
      break;
    case kTypeDouble:
      if (base == 10) a.d = std::strtod(buf, &end);
      break;
    case kTypeString:
      SetString(text, out);
      return 0;
    default:
      return kErrType;
  }
  out->null = false;
  if (*end != '\0') return kErrType;
  if (errno == ERANGE) return -ERANGE;
  return 0;
}

int StoreDouble(double value, int type, FetchGroupValue* out) {
  constexpr double kTwo63 = 9223372036854775808.0;
  constexpr double kTwo64 = 18446744073709551616.0;
  AtomValue& a = out->atom;
  out->null = false;
  switch (type) {
    case kType32:
      if (value > INT32_MAX || value < INT32_MIN) return kErrTrunc;
      a.l = std::isnan(value) ? INT32_MIN : static_cast<int32_t>(value);
      return 0;
    case kTypeU32:
      if (value > UINT32_MAX) return kErrTrunc;
      if (value < 0.0) return kErrSign;
      a.ul = std::isnan(value) ? 0 : static_cast<uint32_t>(value);
      return 0;
    case kType64:
      if (value > kTwo63 || value < -kTwo63) return kErrTrunc;
      // Exactly 2^63 and NaN convert as x86-64 converts them.
      a.ll = (std::isnan(value) || value >= kTwo63) ? INT64_MIN : static_cast<int64_t>(value);
      return 0;
    case kTypeU64:
      if (value > kTwo64) return kErrTrunc;
      if (value < 0.0) return kErrSign;
      if (std::isnan(value)) a.ull = uint64_t{1} << 63;
      else a.ull = value >= kTwo64 ? 0 : static_cast<uint64_t>(value);
      return 0;
    case kTypeFloat:
      if (std::fabs(value) > FLT_MAX) return kErrTrunc;
      a.f = static_cast<float>(value);
      return 0;
    case kTypeDouble:
      a.d = value;
      return 0;
    case kTypeString:
      SetString(absl::StrFormat("%.17e", value), out);
      return 0;
    default:
      return kErrType;
  }
}

int CastValue(int valfmt, const ValueView& value, int itype, int otype, FetchGroupValue* out) {
  if (itype != kTypeString && otype == kTypeString) {
    absl::StatusOr<AtomValue> v = ExtractValue(valfmt, value, itype, itype);
    if (!v.ok()) return PcpCode(v.status());
    switch (itype) {
      case kType32: SetString(absl::StrFormat("%d", v->l), out); break;
      case kTypeU32: SetString(absl::StrFormat("%u", v->ul), out); break;
      case kType64: SetString(absl::StrFormat("%d", v->ll), out); break;
      case kTypeU64: SetString(absl::StrFormat("%u", v->ull), out); break;
      case kTypeFloat: SetString(absl::StrFormat("%.9e", static_cast<double>(v->f)), out); break;
      case kTypeDouble: SetString(absl::StrFormat("%.17e", v->d), out); break;
      default: return kErrType;
    }
    return 0;
  }
  if (itype == kTypeString && otype != kTypeString) {
    absl::StatusOr<AtomValue> v = ExtractValue(valfmt, value, itype, kTypeString);
    if (!v.ok()) return PcpCode(v.status());
    return ParseStringAs(v->bytes, otype, out);
  }
  absl::StatusOr<AtomValue> v = ExtractValue(valfmt, value, itype, otype);
  if (!v.ok()) return PcpCode(v.status());
  out->atom = std::move(*v);
  out->null = false;
  return 0;
}

}  // namespace pmapi
