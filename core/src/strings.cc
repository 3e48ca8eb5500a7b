// The text forms of identifiers, types and values, matching PCP 6.0.3.
//
// Where PCP formats with printf, this file formats with the same printf
// conversions (through Printf below), because the C library's rendering of
// "%e", "%.16g" and friends is the specification being matched.
#include "pmapi/strings.h"

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/civil_time.h"
#include "events_format.h"
#include "pmapi/extract.h"
#include "pmapi/timezone.h"
#include "pmapi/units.h"

namespace pmapi {
namespace {

using events_format::EventArrayReader;

// Returns the printf rendering of `fmt` and its arguments.
// REQUIRES: the arguments match `fmt`.
[[gnu::format(printf, 1, 2)]] std::string Printf(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list again;
  va_copy(again, args);
  int n = std::vsnprintf(nullptr, 0, fmt, args);
  va_end(args);
  std::string out;
  if (n > 0) {
    out.resize(static_cast<size_t>(n) + 1);
    std::vsnprintf(out.data(), out.size(), fmt, again);
    out.resize(static_cast<size_t>(n));
  }
  va_end(again);
  return out;
}

// Returns `n` spaces, or "" when n <= 0.
std::string Spaces(int n) { return n > 0 ? std::string(static_cast<size_t>(n), ' ') : std::string(); }

constexpr unsigned kDynamicDomain = 511;

// Names of types 0 (kType32) .. 10 (kTypeHighResEvent).
constexpr const char* kTypeNames[] = {"32",     "U32",    "64",        "U64",
                                      "FLOAT",  "DOUBLE", "STRING",    "AGGREGATE",
                                      "AGGREGATE_STATIC", "EVENT", "HIGHRES_EVENT"};
constexpr int kTypeNameCount = sizeof(kTypeNames) / sizeof(kTypeNames[0]);

// Returns the older wording pmAtomStr still uses for a type it cannot show.
std::string LegacyTypeStr(int type) {
  if (type >= 0 && type < kTypeNameCount) return kTypeNames[type];
  if (type == kTypeNoSupport) return "Not Supported";
  if (type == kTypeUnknown) return "Unknown";
  return absl::StrCat("Illegal type=", type);
}

// Returns `bytes` up to (not including) its first NUL, as C's strlen sees it.
absl::string_view UpToNul(const std::string& bytes) {
  absl::string_view all(bytes);
  size_t nul = all.find('\0');
  return nul == absl::string_view::npos ? all : all.substr(0, nul);
}

// Returns the bytes of `s`; valid while `s` is unchanged.
std::span<const uint8_t> AsBytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

// ---- pmAtomStr ----

// Returns a STRING atom quoted, cut to 34 characters and "..." when long.
std::string AtomString(const AtomValue& a) {
  absl::string_view s = UpToNul(a.bytes);
  if (s.size() < 38) return absl::StrCat("\"", s, "\"");
  return absl::StrCat("\"", s.substr(0, 34), "...\"");
}

// Shows at most this many aggregate bytes, in groups of four.
constexpr size_t kAggregateShown = 12;

// Returns "[type=T len=N]" and the first bytes of an aggregate, in hex.
std::string AtomAggregate(const AtomValue& a, int block_vtype) {
  std::string out = absl::StrCat("[type=", TypeStr(block_vtype & 0xff),
                                 " len=", static_cast<int>(a.bytes.size()), "]");
  for (size_t i = 0; i < a.bytes.size() && i < kAggregateShown; i++) {
    if (i % 4 == 0) out += ' ';
    out += Printf("%02x", static_cast<unsigned char>(a.bytes[i]));
  }
  if (a.bytes.size() > kAggregateShown) out += " ...";
  return out;
}

// Returns the record count of an event array atom, as pmAtomStr shows it.
std::string AtomEventArray(const AtomValue& a) {
  int32_t nrecords = 0;
  if (!EventArrayReader(AsBytes(a.bytes), false).Count(&nrecords)) return "[bad event record array]";
  if (nrecords == 1) return "[1 event record]";
  return absl::StrCat("[", nrecords, " event records]");
}

// ---- pmPrintValue ----

// A value taken as one type, as pmExtractValue gives it when the input and
// output types are the same.
struct Extracted {
  bool ok = false;
  AtomValue atom;
};

// True when a value block's vtype is acceptable for `type`: the same type, or
// 0 (which PCP accepts for historical reasons).
bool BlockTypeFits(const ValueView& v, int type) {
  int vtype = v.vtype & 0xff;
  return vtype == type || vtype == 0;
}

// Returns the value taken as `type`, as pmPrintValue asks pmExtractValue for
// it: the input and output types the same (extract.h's rules).
Extracted ExtractSameType(int valfmt, int type, const ValueView& v) {
  absl::StatusOr<AtomValue> atom = ExtractValue(valfmt, v, type, type);
  if (!atom.ok()) return Extracted{};
  return Extracted{true, *std::move(atom)};
}

// Returns a string value (up to its first NUL) in quotes, right aligned in
// `minwidth` columns.
std::string QuotedString(const AtomValue& a, int minwidth) {
  absl::string_view s = UpToNul(a.bytes);
  std::string out = Spaces(minwidth - static_cast<int>(s.size()) - 2);
  absl::StrAppend(&out, "\"", s, "\"");
  return out;
}

// The raw dump of an in-situ word: unsigned, as a float unless that is a NaN,
// and in hex.
std::string DumpInsitu(const ValueView& v, int minwidth) {
  uint32_t word = static_cast<uint32_t>(v.lval);
  float f;
  std::memcpy(&f, &word, sizeof f);
  std::string out = Printf("%*u", minwidth, word);
  if (!std::isnan(f)) out += Printf(" %*.8g", minwidth, static_cast<double>(f));
  if (minwidth > 2) minwidth -= 2;
  out += Printf(" 0x%*x", minwidth, word);
  return out;
}

// True when every byte is printable in the C locale.
bool AllPrintable(std::span<const uint8_t> bytes) {
  for (uint8_t b : bytes) {
    if (b < 0x20 || b > 0x7e) return false;
  }
  return true;
}

// The numeric readings of a block whose size fits a 64-bit or 32-bit number.
std::string DumpBlockNumbers(std::span<const uint8_t> p, int minwidth) {
  std::string out;
  if (p.size() == 8) {
    uint64_t u;
    double d;
    std::memcpy(&u, p.data(), 8);
    std::memcpy(&d, p.data(), 8);
    out = Printf("%*" PRIu64, minwidth, u);
    if (!std::isnan(d)) out += Printf(" %*.16g", minwidth, d);
  } else if (p.size() == 4) {
    float f;
    std::memcpy(&f, p.data(), 4);
    if (!std::isnan(f)) out = Printf("%*.8g", minwidth, static_cast<double>(f));
  }
  return out;
}

// The raw dump of a value block: as numbers when its size fits one, as a
// quoted string when every byte is printable, and always in hex.
std::string DumpBlock(const ValueView& v, int minwidth) {
  std::span<const uint8_t> p = v.payload;
  const int size = static_cast<int>(p.size());
  std::string out = DumpBlockNumbers(p, minwidth);
  bool done = !out.empty();
  if (AllPrintable(p)) {
    if (done) out += ' ';
    out += Spaces(minwidth - size - 2);
    out += '"';
    out.append(reinterpret_cast<const char*>(p.data()), p.size());
    out += '"';
    done = true;
  }
  out += Spaces(minwidth - 2 * size - 2);
  if (done) out += ' ';
  out += '[';
  for (uint8_t b : p) out += Printf("%02x", b);
  out += ']';
  return out;
}

// Returns the raw dump of a value that could not be taken as its type.
std::string DumpRaw(int valfmt, const ValueView& v, int minwidth) {
  if (valfmt == kValInsitu) return DumpInsitu(v, minwidth);
  if (valfmt == kValDptr || valfmt == kValSptr) return DumpBlock(v, minwidth);
  return Printf("pmPrintValue: bad valfmt (%d)?\n", valfmt);
}

// pmlogger keeps its logging state in an in-situ "event" value: bit 0 on,
// bit 1 mandatory, bit 2 available, bit 3 in the log, and the interval in
// the remaining 28 bits.
std::string LogControlWord(int32_t lval) {
  uint32_t w = static_cast<uint32_t>(lval);
  std::string out = "[pmlc control ";
  out += (w & 0x2) ? "mand " : "adv ";
  out += (w & 0x1) ? "on " : "off ";
  if (w & 0x8) {
    out += (w & 0x4) ? " " : "na ";
  } else {
    out += "nl ";
  }
  absl::StrAppend(&out, static_cast<int>((w >> 4) & 0x0fffffffu), "]");
  return out;
}

// Returns HH:MM:SS.mmm (or .nnnnnnnnn for highres) for the timestamp of the
// record at `at`, or false when it is not within the array.
bool FormatStamp(const EventArrayReader& r, size_t at, const TimeZone& tz, std::string* out) {
  events_format::Stamp stamp;
  if (!r.RecordStamp(at, &stamp)) return false;
  const int64_t sec = stamp.sec;
  const int64_t frac = r.highres() ? stamp.frac : stamp.frac / 1000;
  // A time too far out for a calendar date is shown in UTC.
  absl::StatusOr<BrokenDownTime> tm = tz.Localtime(sec);
  const absl::CivilSecond utc = absl::ToCivilSecond(absl::FromUnixSeconds(sec), absl::UTCTimeZone());
  const int hour = tm.ok() ? tm->hour : utc.hour();
  const int minute = tm.ok() ? tm->min : utc.minute();
  const int second = tm.ok() ? tm->sec : utc.second();
  *out = Printf(r.highres() ? "%02d:%02d:%02d.%09d" : "%02d:%02d:%02d.%03d", hour, minute, second,
                static_cast<int>(frac));
  return true;
}

// Steps over the parameters of one record starting at `*at`; returns
// false when they run past the end of the array.
bool SkipParameters(const EventArrayReader& r, int32_t nparams, size_t* at) {
  for (int32_t i = 0; i < nparams; i++) {
    events_format::ParamHead p;
    if (!r.Param(*at, &p)) return false;
    *at += p.Step();
  }
  return *at <= r.size();
}

struct EventWalk {
  bool ok = false;
  uint32_t missed = 0;  // wraps as PCP's int counter does
  size_t last = 0;      // offset of the last record
};

// Walks the first nrecords-1 records to find the last one, counting missed
// events on the way. PCP does not step over a "missed" record, so once one
// is met every later step re-reads it: that is reproduced here.
EventWalk WalkRecords(const EventArrayReader& r, int32_t nrecords) {
  EventWalk w;
  size_t at = r.FirstRecord();
  const int64_t steps = int64_t{nrecords} - 1;  // PCP's nrecords-1, without overflow
  for (int64_t i = 0; i < steps; i++) {
    events_format::RecordHead h;
    if (!r.Record(at, &h)) return w;
    if (h.flags & kEventFlagMissed) {
      uint32_t steps_left = static_cast<uint32_t>(steps - i);
      w.missed += static_cast<uint32_t>(h.nparams) * steps_left;
      break;
    }
    at += r.RecordHeaderBytes();
    if (!SkipParameters(r, h.nparams, &at)) return w;
  }
  w.ok = true;
  w.last = at;
  return w;
}

// Returns "[N event records (M missed) timestamps first...last]" for an event
// array block, or the bad-array text when it is shorter than it claims.
std::string EventSummary(const ValueView& v, bool highres, const TimeZone& tz) {
  static constexpr char kBad[] = "[bad event record array]";
  const EventArrayReader r(v.payload, highres);
  int32_t nrecords;
  if (!r.Count(&nrecords)) return kBad;
  EventWalk walk = WalkRecords(r, nrecords);
  if (!walk.ok) return kBad;
  std::string out = absl::StrCat("[", nrecords, " event record", nrecords != 1 ? "s" : "");
  int32_t missed = static_cast<int32_t>(walk.missed);
  if (missed > 0) absl::StrAppend(&out, " (", missed, " missed)");
  if (nrecords > 0) {
    std::string first, last;
    if (!FormatStamp(r, r.FirstRecord(), tz, &first)) return kBad;
    absl::StrAppend(&out, " timestamp", nrecords > 1 ? "s " : " ", first);
    if (nrecords > 1) {
      if (!FormatStamp(r, walk.last, tz, &last)) return kBad;
      absl::StrAppend(&out, "...", last);
    }
  }
  out += ']';
  return out;
}

// Returns the text of an EVENT or HIGHRES_EVENT value. PCP never extracts
// these, so the block's vtype and valfmt are not checked.
std::string FormatEvent(int valfmt, int type, const ValueView& v, const TimeZone& tz) {
  if (valfmt == kValInsitu) return LogControlWord(v.lval);
  return EventSummary(v, type == kTypeHighResEvent, tz);
}

// Returns a number or string right aligned in `minwidth` columns.
// REQUIRES: type is a numeric type or kTypeString.
std::string FormatExtracted(int type, const AtomValue& a, int minwidth) {
  switch (type) {
    case kType32:
      return Printf("%*d", minwidth, a.l);
    case kTypeU32:
      return Printf("%*u", minwidth, a.ul);
    case kType64:
      return Printf("%*" PRId64, minwidth, a.ll);
    case kTypeU64:
      return Printf("%*" PRIu64, minwidth, a.ull);
    case kTypeFloat:
      return Printf("%*.8g", minwidth, static_cast<double>(a.f));
    case kTypeDouble:
      return Printf("%*.16g", minwidth, a.d);
    default:  // kTypeString
      return QuotedString(a, minwidth);
  }
}

// pmPrintValue pads to any width; widths beyond this are limited so that a
// wild value cannot ask for gigabytes.
constexpr int kMaxWidth = 1 << 20;

// Appends `x` as printf's %d, %u, %lld or %llu would.
template <typename T>
void AppendInteger(std::string* out, T x) {
  char buf[24];
  out->append(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
}

// Appends `x` as printf's "%.<precision>g" would: std::to_chars with a
// precision converts as printf does in the C locale.
void AppendGeneral(std::string* out, double x, int precision) {
  char buf[64];
  std::to_chars_result r{};
  if (std::isfinite(x)) r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, precision);
  if (std::isfinite(x) && r.ec == std::errc()) {
    out->append(buf, r.ptr);
  } else {
    out->append(Printf("%.*g", precision, x));
  }
}

// Appends a number or string value with no padding, the common case, without
// building a string first; returns false (appending nothing) for every other
// value, which FormatAny handles.
bool AppendUnpadded(std::string* out, int valfmt, int type, const ValueView& v) {
  if (type == kTypeString) {
    if (valfmt == kValInsitu || !BlockTypeFits(v, type)) return false;
    // Up to the first NUL; an empty block (no data at all) is "".
    const std::span<const uint8_t> bytes = v.payload;
    const auto nul = std::find(bytes.begin(), bytes.end(), uint8_t{0});
    out->push_back('"');
    out->append(bytes.begin(), nul);
    out->push_back('"');
    return true;
  }
  if (type < kType32 || type > kTypeDouble) return false;
  Extracted e = ExtractSameType(valfmt, type, v);
  if (!e.ok) return false;
  switch (type) {
    case kType32: AppendInteger(out, e.atom.l); break;
    case kTypeU32: AppendInteger(out, e.atom.ul); break;
    case kType64: AppendInteger(out, e.atom.ll); break;
    case kTypeU64: AppendInteger(out, e.atom.ull); break;
    case kTypeFloat: AppendGeneral(out, static_cast<double>(e.atom.f), 8); break;
    default: AppendGeneral(out, e.atom.d, 16); break;
  }
  return true;
}


// Returns FormatValue's text, for any value and width.
std::string FormatAny(int valfmt, int type, const ValueView& v, int minwidth, const TimeZone& tz) {
  if (minwidth > kMaxWidth) minwidth = kMaxWidth;
  if (minwidth < -kMaxWidth) minwidth = -kMaxWidth;
  if (type == kTypeEvent || type == kTypeHighResEvent) return FormatEvent(valfmt, type, v, tz);
  Extracted e;
  if (type != kTypeUnknown) {
    e = ExtractSameType(valfmt, type, v);
    if (!e.ok) type = kTypeUnknown;
  }
  switch (type) {
    case kType32:
    case kTypeU32:
    case kType64:
    case kTypeU64:
    case kTypeFloat:
    case kTypeDouble:
    case kTypeString:
      return FormatExtracted(type, e.atom, minwidth);
    case kTypeAggregate:
    case kTypeUnknown:
      return DumpRaw(valfmt, v, minwidth);
    case kTypeNoSupport:
      return "pmPrintValue: bogus value, metric Not Supported\n";
    default:
      return Printf("pmPrintValue: unknown value type=%d\n", type);
  }
}

}  // namespace

std::string IDStr(PmID id) {
  if (id == kPmIDNull) return "PM_ID_NULL";
  if (PmIDDomain(id) == kDynamicDomain && PmIDItem(id) == 0) {
    return absl::StrCat(PmIDCluster(id), ".*.*");
  }
  return absl::StrCat(PmIDDomain(id), ".", PmIDCluster(id), ".", PmIDItem(id));
}

std::string InDomStr(InDom indom) {
  if (indom == kInDomNull) return "PM_INDOM_NULL";
  return absl::StrCat(InDomDomain(indom), ".", InDomSerial(indom));
}

std::string TypeStr(int type) {
  if (type >= 0 && type < kTypeNameCount) return kTypeNames[type];
  if (type == kTypeNoSupport) return "NO_SUPPORT";
  if (type == kTypeUnknown) return "UNKNOWN";
  return "???";
}

std::string SemStr(int sem) {
  switch (sem) {
    case kSemCounter:
      return "counter";
    case kSemInstant:
      return "instant";
    case kSemDiscrete:
      return "discrete";
    default:
      return "???";
  }
}

std::string TypeLongStr(int type) {
  static constexpr const char* kLongNames[] = {
      "32-bit int", "32-bit unsigned int", "64-bit int", "64-bit unsigned int",
      "float", "double", "string", "aggregate", "static aggregate", "event record array",
      "highres event record array"};
  static_assert(sizeof(kLongNames) / sizeof(kLongNames[0]) == kTypeNameCount);
  if (type >= 0 && type < kTypeNameCount) return kLongNames[type];
  if (type == kTypeNoSupport) return "Not Supported";
  return "";
}

std::string DescStr(const Desc& desc) {
  std::string type = TypeLongStr(desc.type);
  if (desc.type == kTypeNoSupport) return absl::StrCat("    Data Type: ", type, "\n");
  if (type.empty()) type = absl::StrCat("??? (", desc.type, ")");
  std::string sem = SemStr(desc.sem);
  if (sem == "???") absl::StrAppend(&sem, " (", desc.sem, ")");
  std::string units = UnitsStr(desc.units);
  char indom_hex[16];
  std::snprintf(indom_hex, sizeof indom_hex, "0x%x", ToPcp(desc.indom));
  return absl::StrCat("    Data Type: ", type, "  InDom: ", InDomStr(desc.indom), " ", indom_hex,
                      "\n    Semantics: ", sem, "  Units: ", units.empty() ? "none" : units, "\n");
}

std::string AtomStr(const AtomValue& a, int type, int block_vtype) {
  switch (type) {
    case kType32:
      return Printf("%d", a.l);
    case kTypeU32:
      return Printf("%u", a.ul);
    case kType64:
      return Printf("%" PRId64, a.ll);
    case kTypeU64:
      return Printf("%" PRIu64, a.ull);
    case kTypeFloat:
      return Printf("%e", static_cast<double>(a.f));
    case kTypeDouble:
      return Printf("%e", a.d);
    case kTypeString:
      return AtomString(a);
    case kTypeAggregate:
    case kTypeAggregateStatic:
      return AtomAggregate(a, block_vtype);
    case kTypeEvent:
    case kTypeHighResEvent:
      return AtomEventArray(a);
    default:
      return "Error: unexpected type: " + LegacyTypeStr(type);
  }
}

std::string AtomStr(const AtomValue& a, int type) { return AtomStr(a, type, type); }

std::string NumberStr(double v) {
  // A scale is used from the value where "%6.2f" of the next smaller scale
  // would need 1000.00 (positives) or would no longer fit in 6 columns
  // (negatives). T, G and M divide in long double, K in double, as PCP does.
  struct Scale {
    double from;
    long double divisor;
    char suffix;
  };
  static constexpr Scale kUp[] = {{999995000000.0, 1e12L, 'T'},
                                  {999995000.0, 1e9L, 'G'},
                                  {999995.0, 1e6L, 'M'}};
  static constexpr Scale kDown[] = {{-99995000000.0, 1e12L, 'T'},
                                    {-99995000.0, 1e9L, 'G'},
                                    {-99995.0, 1e6L, 'M'}};
  if (v >= 0.0) {
    if (v >= 999995000000000.0) return " inf?  ";
    for (const Scale& s : kUp) {
      if (v >= s.from) return Printf("%6.2f%c", static_cast<double>(v / s.divisor), s.suffix);
    }
    if (v >= 999.995) return Printf("%6.2fK", v / 1000.0);
    return Printf("%6.2f ", v >= 0.005 ? v : 0.0);
  }
  if (v <= -99995000000000.0) return "-inf?  ";
  for (const Scale& s : kDown) {
    if (v <= s.from) return Printf("%6.2f%c", static_cast<double>(v / s.divisor), s.suffix);
  }
  if (v <= -99.995) return Printf("%6.2fK", v / 1000.0);
  return Printf("%6.2f ", v <= -0.005 ? v : 0.0);  // NaN lands here too
}

std::string EventFlagsStr(int flags) {
  const uint32_t f = static_cast<uint32_t>(flags);
  if (f & kEventFlagMissed) return "missed";
  static constexpr struct {
    uint32_t bit;
    const char* name;
  } kNames[] = {{kEventFlagPoint, "point"},
                {kEventFlagStart, "start"},
                {kEventFlagEnd, "end"},
                {kEventFlagId, "id"},
                {kEventFlagParent, "parent"}};
  std::string out;
  for (const auto& n : kNames) {
    if (!(f & n.bit)) continue;
    if (!out.empty()) out += ',';
    out += n.name;
  }
  return out;
}

std::string FormatValue(int valfmt, int type, const ValueView& v, int minwidth,
                        const TimeZone& tz) {
  std::string out;
  AppendValue(&out, valfmt, type, v, minwidth, tz);
  return out;
}

std::string FormatValue(int valfmt, int type, const ValueView& v, int minwidth) {
  std::string out;
  AppendValue(&out, valfmt, type, v, minwidth);
  return out;
}

void AppendValue(std::string* out, int valfmt, int type, const ValueView& v, int minwidth,
                 const TimeZone& tz) {
  if (minwidth >= -1 && minwidth <= 1 && AppendUnpadded(out, valfmt, type, v)) return;
  out->append(FormatAny(valfmt, type, v, minwidth, tz));
}

void AppendValue(std::string* out, int valfmt, int type, const ValueView& v, int minwidth) {
  if (minwidth >= -1 && minwidth <= 1 && AppendUnpadded(out, valfmt, type, v)) return;
  out->append(FormatAny(valfmt, type, v, minwidth,
                        TimeZone::FromEnvironment().value_or(TimeZone::Utc())));
}

}  // namespace pmapi
