// Time zones read the way glibc 2.36 reads $TZ, so that broken-down times
// match what libpcp gets from localtime_r and mktime after setting $TZ.
// See docs/time.md for why Abseil serves the zoneinfo files and the POSIX
// rules are evaluated here.
#include "pmapi/timezone.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

constexpr int64_t kSecsPerDay = 86400;
constexpr char kDefaultZoneDir[] = "/usr/share/zoneinfo";
constexpr char kDefaultLocalFile[] = "/etc/localtime";

// Cumulative days before each month, for common and leap years (glibc's
// __mon_yday, whose rule arithmetic we reproduce).
constexpr int kMonthYday[2][13] = {
    {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365},
    {0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366},
};

bool IsLeap(int64_t year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

bool IsAsciiAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }
bool IsCSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// A cursor over a NUL-terminated view: reading past the end yields '\0',
// as the C code we mirror sees at the end of its string.
class Cursor {
 public:
  explicit Cursor(std::string_view s) : s_(s) {}
  char peek(size_t ahead = 0) const { return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0'; }
  void advance(size_t n = 1) { pos_ = std::min(s_.size(), pos_ + n); }
  size_t pos() const { return pos_; }
  void seek(size_t p) { pos_ = std::min(s_.size(), p); }
  std::string_view text(size_t from, size_t to) const { return s_.substr(from, to - from); }

 private:
  std::string_view s_;
  size_t pos_ = 0;
};

// strtoul(s, &end, 10): optional white space and sign, then digits; a
// value past 2^64 - 1 is ULONG_MAX, a negative one is negated modulo 2^64.
// Returns false (consuming nothing) if no digit follows.
bool ScanUnsignedLong(Cursor& c, uint64_t* value) {
  size_t start = c.pos();
  while (IsCSpace(c.peek())) c.advance();
  bool negative = false;
  if (c.peek() == '+' || c.peek() == '-') {
    negative = c.peek() == '-';
    c.advance();
  }
  if (!IsAsciiDigit(c.peek())) {
    c.seek(start);
    return false;
  }
  uint64_t v = 0;
  bool overflow = false;
  while (IsAsciiDigit(c.peek())) {
    if (v > (UINT64_MAX - 9) / 10) overflow = true;
    if (!overflow) v = v * 10 + static_cast<uint64_t>(c.peek() - '0');
    c.advance();
  }
  *value = overflow ? UINT64_MAX : (negative ? 0 - v : v);
  return true;
}

// One "%hu" conversion as sscanf performs it: strtoul's result stored in an
// unsigned short, so reduced modulo 2^16. Returns false (consuming
// nothing) if no digit.
bool ScanUnsignedShort(Cursor& c, unsigned* value) {
  uint64_t v = 0;
  if (!ScanUnsignedLong(c, &v)) return false;
  *value = static_cast<unsigned>(v & 0xffffu);
  return true;
}

// sscanf(s, "%hu%n:%hu%n:%hu%n", ...): returns how many numbers converted
// and leaves the cursor after the last one that did.
int ScanHms(Cursor& c, unsigned* h, unsigned* m, unsigned* s) {
  if (!ScanUnsignedShort(c, h)) return 0;
  size_t after = c.pos();
  if (c.peek() != ':') return 1;
  c.advance();
  if (!ScanUnsignedShort(c, m)) {
    c.seek(after);
    return 1;
  }
  after = c.pos();
  if (c.peek() != ':') return 2;
  c.advance();
  if (!ScanUnsignedShort(c, s)) {
    c.seek(after);
    return 2;
  }
  return 3;
}

// A POSIX TZ transition rule (glibc's tz_rule).
struct TransitionRule {
  enum Type { kJ0, kJ1, kM } type = kJ0;  // n, Jn, Mm.w.d
  unsigned m = 0, n = 0, d = 0;
  int64_t secs = 0;    // time of day of the change
};

// A parsed POSIX TZ string: [0] standard time, [1] daylight time. Offsets
// are seconds east of UTC.
struct PosixZone {
  std::string name[2];
  int64_t offset[2] = {0, 0};
  TransitionRule rule[2];
};

bool ParseZoneName(Cursor& c, std::string* name) {
  size_t start = c.pos();
  while (IsAsciiAlpha(c.peek())) c.advance();
  if (c.pos() - start >= 3) {
    *name = std::string(c.text(start, c.pos()));
    return true;
  }
  c.seek(start);
  if (c.peek() != '<') return false;
  c.advance();
  size_t inner = c.pos();
  while (IsAsciiAlpha(c.peek()) || IsAsciiDigit(c.peek()) || c.peek() == '+' || c.peek() == '-')
    c.advance();
  size_t len = c.pos() - inner;
  if (c.peek() != '>' || len < 3) {
    c.seek(start);
    return false;
  }
  *name = std::string(c.text(inner, c.pos()));
  c.advance();
  return true;
}

int64_t ClampedOffset(unsigned h, unsigned m, unsigned s) {
  return std::min(s, 59u) + std::min(m, 59u) * 60 + std::min(h, 24u) * 3600;
}

// glibc's parse_offset: which == 0 for standard time, 1 for daylight.
bool ParseZoneOffset(Cursor& c, int which, PosixZone& z) {
  char first = c.peek();
  if (which == 0 && (first == '\0' || (first != '+' && first != '-' && !IsAsciiDigit(first))))
    return false;
  int64_t sign = -1;
  if (first == '+' || first == '-') {
    sign = first == '-' ? 1 : -1;
    c.advance();
  }
  unsigned h = 0, m = 0, s = 0;
  size_t start = c.pos();
  if (ScanHms(c, &h, &m, &s) > 0) {
    z.offset[which] = sign * ClampedOffset(h, m, s);
    return true;
  }
  c.seek(start);
  if (which == 0) {
    z.offset[0] = 0;
    return false;
  }
  z.offset[1] = z.offset[0] + 3600;
  return true;
}

// strtoul(s, &end, 10) for the day number of a Jn or n rule: returns false
// if no digits.
bool ScanDayNumber(Cursor& c, uint64_t* day) { return ScanUnsignedLong(c, day); }

// "M%hu.%hu.%hu" with the cursor on the 'M'.
bool ScanMonthRule(Cursor& c, TransitionRule& r) {
  c.advance();
  if (!ScanUnsignedShort(c, &r.m) || c.peek() != '.') return false;
  c.advance();
  if (!ScanUnsignedShort(c, &r.n) || c.peek() != '.') return false;
  c.advance();
  return ScanUnsignedShort(c, &r.d);
}

bool ParseRuleDate(Cursor& c, int which, TransitionRule& r) {
  char ch = c.peek();
  if (ch == 'J' || IsAsciiDigit(ch)) {
    r.type = ch == 'J' ? TransitionRule::kJ1 : TransitionRule::kJ0;
    if (r.type == TransitionRule::kJ1) {
      c.advance();
      if (!IsAsciiDigit(c.peek())) return false;
    }
    uint64_t d = 0;
    if (!ScanDayNumber(c, &d) || d > 365) return false;
    if (r.type == TransitionRule::kJ1 && d == 0) return false;
    r.d = static_cast<unsigned>(d);
    return true;
  }
  if (ch == 'M') {
    r.type = TransitionRule::kM;
    return ScanMonthRule(c, r) && r.m >= 1 && r.m <= 12 && r.n >= 1 && r.n <= 5 && r.d <= 6;
  }
  if (ch == '\0') {
    // No rule at all: glibc falls back to the US rules of 2007.
    r.type = TransitionRule::kM;
    r.m = which == 0 ? 3 : 11;
    r.n = which == 0 ? 2 : 1;
    r.d = 0;
    return true;
  }
  return false;
}

// glibc's parse_rule; on failure the rule may be partly filled in, as there.
bool ParseRule(Cursor& c, int which, PosixZone& z) {
  TransitionRule& r = z.rule[which];
  if (c.peek() == ',') c.advance();
  if (!ParseRuleDate(c, which, r)) return false;
  char ch = c.peek();
  if (ch != '\0' && ch != '/' && ch != ',') return false;
  if (ch == '/') {
    c.advance();
    if (c.peek() == '\0') return false;
    bool negative = c.peek() == '-';
    if (negative) c.advance();
    unsigned h = 2, m = 0, s = 0;
    ScanHms(c, &h, &m, &s);
    int64_t secs = static_cast<int64_t>(h) * 3600 + m * 60 + s;
    r.secs = negative ? -secs : secs;
  } else {
    r.secs = 2 * 3600;
  }
  return true;
}

// Returns the parsed zone, or nullopt for the case glibc hands to the
// "posixrules" file (a daylight name with no rule).
std::optional<PosixZone> ParsePosixZone(std::string_view tz) {
  PosixZone z;
  Cursor c(tz);
  if (!(ParseZoneName(c, &z.name[0]) && ParseZoneOffset(c, 0, z))) return z;
  if (c.peek() == '\0') {
    z.name[1] = z.name[0];
    z.offset[1] = z.offset[0];
    return z;
  }
  if (ParseZoneName(c, &z.name[1])) {
    ParseZoneOffset(c, 1, z);
    if (c.peek() == '\0' || (c.peek() == ',' && c.peek(1) == '\0')) return std::nullopt;
  }
  if (ParseRule(c, 0, z)) ParseRule(c, 1, z);
  return z;
}

// UTC seconds of the change `r` makes in `year`, given the offset in force
// before it (glibc's compute_change, including its use of 1970 as the base
// for every earlier year).
int64_t ChangeTime(const TransitionRule& r, int64_t year, int64_t offset_before) {
  int64_t t = 0;
  if (year > 1970) {
    t = ((year - 1970) * 365 + ((year - 1) / 4 - 1970 / 4) - ((year - 1) / 100 - 1970 / 100) +
         ((year - 1) / 400 - 1970 / 400)) *
        kSecsPerDay;
  }
  switch (r.type) {
    case TransitionRule::kJ1:
      t += (static_cast<int64_t>(r.d) - 1) * kSecsPerDay;
      if (r.d >= 60 && IsLeap(year)) t += kSecsPerDay;
      break;
    case TransitionRule::kJ0:
      t += static_cast<int64_t>(r.d) * kSecsPerDay;
      break;
    case TransitionRule::kM: {
      // A rule whose "Mm.w.d" failed its range check keeps the month it
      // read (0 to 65535), and glibc then indexes its two-row table as one
      // flat array, beyond either end. Reads past the end here give the
      // table's last entry; a month 0 change falls at the start of the year.
      if (r.m == 0) break;
      const size_t at = (IsLeap(year) ? 13 : 0) + size_t{r.m};
      auto flat = [](size_t i) -> int64_t {
        return i < 13 ? kMonthYday[0][i] : kMonthYday[1][std::min<size_t>(i - 13, 12)];
      };
      const int64_t before = flat(at - 1);
      const int64_t month_start = flat(at);
      t += before * kSecsPerDay;
      int64_t m1 = (r.m + 9) % 12 + 1;
      int64_t yy0 = r.m <= 2 ? year - 1 : year;
      int64_t yy1 = yy0 / 100;
      int64_t yy2 = yy0 % 100;
      int64_t dow = ((26 * m1 - 2) / 10 + 1 + yy2 + yy2 / 4 + yy1 / 4 - 2 * yy1) % 7;
      if (dow < 0) dow += 7;
      int64_t d = static_cast<int64_t>(r.d) - dow;
      if (d < 0) d += 7;
      for (unsigned i = 1; i < r.n; ++i) {
        if (d + 7 >= month_start - before) break;
        d += 7;
      }
      t += d * kSecsPerDay;
      break;
    }
  }
  return t - offset_before + r.secs;
}

absl::CivilSecond UtcCivil(int64_t seconds) {
  return absl::CivilSecond(1970, 1, 1, 0, 0, 0) + seconds;
}

}  // namespace

struct TimeZone::Rules {
  bool is_tzfile = false;
  absl::TimeZone tzfile;  // when is_tzfile
  PosixZone posix;        // otherwise
};

namespace {

absl::StatusOr<BrokenDownTime> FromCivil(absl::CivilSecond cs, int isdst, int64_t gmtoff,
                                         std::string zone) {
  int64_t year = cs.year() - 1900;
  if (year < INT32_MIN || year > INT32_MAX)
    return PcpError(kErrToobig, "year out of range for a broken-down time");
  BrokenDownTime tm;
  tm.sec = cs.second();
  tm.min = cs.minute();
  tm.hour = cs.hour();
  tm.mday = cs.day();
  tm.mon = cs.month() - 1;
  tm.year = static_cast<int>(year);
  tm.wday = (static_cast<int>(absl::GetWeekday(cs)) + 1) % 7;  // absl: Monday first
  tm.yday = absl::GetYearDay(cs) - 1;
  tm.isdst = isdst;
  tm.gmtoff = gmtoff;
  tm.zone = std::move(zone);
  return tm;
}

// Whole-day bound that keeps the civil arithmetic far from overflow while
// covering every year a struct tm can hold.
constexpr int64_t kMaxAbsSeconds = int64_t{1} << 56;

absl::StatusOr<BrokenDownTime> PosixLocaltime(const PosixZone& z, int64_t t) {
  int64_t year = UtcCivil(t).year();
  int64_t c0 = ChangeTime(z.rule[0], year, z.offset[0]);
  int64_t c1 = ChangeTime(z.rule[1], year, z.offset[1]);
  bool dst = c0 > c1 ? (t < c1 || t >= c0) : (t >= c0 && t < c1);
  int i = dst ? 1 : 0;
  return FromCivil(UtcCivil(t + z.offset[i]), i, z.offset[i], z.name[i]);
}

bool IsTzifFile(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char magic[4];
  ssize_t n = read(fd, magic, sizeof magic);
  close(fd);
  return n == 4 && std::memcmp(magic, "TZif", 4) == 0;
}

std::string ZoneFilePath(std::string_view name) {
  if (!name.empty() && name[0] == '/') return std::string(name);
  const char* dir = std::getenv("TZDIR");
  if (dir == nullptr || *dir == '\0') dir = kDefaultZoneDir;
  return absl::StrCat(dir, "/", absl::string_view(name.data(), name.size()));
}

std::shared_ptr<TimeZone::Rules> UtcRules() {
  auto r = std::make_shared<TimeZone::Rules>();
  r->posix.name[0] = r->posix.name[1] = "UTC";
  return r;
}

// glibc's tzset for a $TZ value, or for no $TZ at all (nullopt).
absl::StatusOr<std::shared_ptr<TimeZone::Rules>> ResolveRules(std::optional<std::string_view> tz) {
  std::string_view name = tz.has_value() ? *tz : std::string_view(kDefaultLocalFile);
  if (tz.has_value() && tz->empty()) name = "Universal";
  if (!name.empty() && name[0] == ':') name.remove_prefix(1);
  if (!name.empty()) {
    std::string path = ZoneFilePath(name);
    if (IsTzifFile(path)) {
      auto r = std::make_shared<TimeZone::Rules>();
      r->is_tzfile = true;
      if (!absl::LoadTimeZone(path, &r->tzfile))
        return PcpError(kErrGeneric, absl::StrCat("cannot read time zone file ", path));
      return r;
    }
  }
  if (!tz.has_value() || name.empty()) return UtcRules();
  std::optional<PosixZone> posix = ParsePosixZone(name);
  if (!posix.has_value())
    return PcpError(kErrGeneric,
                    absl::StrCat("time zone \"", absl::string_view(name.data(), name.size()),
                                 "\" names daylight time without a rule"));
  auto r = std::make_shared<TimeZone::Rules>();
  r->posix = std::move(*posix);
  return r;
}

}  // namespace

namespace {
// C strings end at their first NUL, and so does every zone string PCP sees.
std::string_view CString(std::string_view s) { return s.substr(0, s.find('\0')); }
}  // namespace

absl::StatusOr<TimeZone> TimeZone::FromTzValue(std::string_view tz) {
  return FromTzEnv(tz);
}

absl::StatusOr<TimeZone> TimeZone::FromTzEnv(std::optional<std::string_view> tz) {
  if (tz.has_value()) tz = CString(*tz);
  absl::StatusOr<std::shared_ptr<Rules>> rules = ResolveRules(tz);
  if (!rules.ok()) return rules.status();
  return TimeZone(std::string(tz.value_or("")), *std::move(rules));
}

absl::StatusOr<TimeZone> TimeZone::ForPcpZone(std::string_view tz) {
  std::string value(CString(tz));
  if (value.size() == 3) value += "+0";
  return FromTzValue(value);
}

absl::StatusOr<TimeZone> TimeZone::FromEnvironment() {
  const char* env = std::getenv("TZ");
  if (env != nullptr) return FromTzEnv(std::string_view(env));
  return FromTzEnv(std::nullopt);
}

TimeZone TimeZone::Utc() { return TimeZone("UTC", UtcRules()); }

absl::StatusOr<BrokenDownTime> TimeZone::Localtime(int64_t seconds) const {
  if (seconds > kMaxAbsSeconds || seconds < -kMaxAbsSeconds)
    return PcpError(kErrToobig, "time out of range for a broken-down time");
  if (!rules_->is_tzfile) return PosixLocaltime(rules_->posix, seconds);
  absl::TimeZone::CivilInfo ci = rules_->tzfile.At(absl::FromUnixSeconds(seconds));
  return FromCivil(ci.cs, ci.is_dst ? 1 : 0, ci.offset, std::string(ci.zone_abbr));
}

namespace {

int64_t FloorShift2(int64_t a) { return a >= 0 ? a / 4 : -((-a + 3) / 4); }

// Seconds from (year0, yday0, ...) to (year1, yday1, ...), years counted
// from 1900, as glibc's ydhms_diff computes it.
int64_t YdhmsDiff(int64_t year1, int64_t yday1, int64_t hour1, int64_t min1, int64_t sec1,
                  int64_t year0, int64_t yday0, int64_t hour0, int64_t min0, int64_t sec0) {
  int64_t a4 = FloorShift2(year1) + FloorShift2(1900) - ((year1 & 3) == 0 ? 1 : 0);
  int64_t b4 = FloorShift2(year0) + FloorShift2(1900) - ((year0 & 3) == 0 ? 1 : 0);
  int64_t a100 = (a4 + (a4 < 0)) / 25 - (a4 < 0);
  int64_t b100 = (b4 + (b4 < 0)) / 25 - (b4 < 0);
  int64_t a400 = FloorShift2(a100);
  int64_t b400 = FloorShift2(b100);
  int64_t leap_days = (a4 - b4) - (a100 - b100) + (a400 - b400);
  int64_t days = 365 * (year1 - year0) + yday1 - yday0 + leap_days;
  return 60 * (60 * (24 * days + hour1 - hour0) + min1 - min0) + sec1 - sec0;
}

bool IsDstDiffer(int a, int b) { return (!a != !b) && a >= 0 && b >= 0; }

// The requested local time, with month folded into the year as mktime does.
struct Wanted {
  int64_t year;  // since 1900
  int64_t yday;
  int64_t hour, min, sec;
  int64_t Diff(const BrokenDownTime& tm) const {
    return YdhmsDiff(year, yday, hour, min, sec, tm.year, tm.yday, tm.hour, tm.min, tm.sec);
  }
};

Wanted WantedTime(const BrokenDownTime& tm, int64_t clamped_sec) {
  int64_t mon = tm.mon;
  int64_t rem = mon % 12;
  bool neg = rem < 0;
  int64_t year = tm.year + mon / 12 - (neg ? 1 : 0);
  int leap = IsLeap(year + 1900) ? 1 : 0;
  int64_t mon_yday = kMonthYday[leap][rem + (neg ? 12 : 0)] - 1;
  return Wanted{year, mon_yday + tm.mday, tm.hour, tm.min, clamped_sec};
}

}  // namespace

absl::StatusOr<int64_t> TimeZone::Mktime(BrokenDownTime& tm, int64_t* offset_hint) const {
  auto toobig = [] { return PcpError(kErrToobig, "no representable time matches"); };
  int sec_requested = tm.sec;
  Wanted want = WantedTime(tm, std::clamp(tm.sec, 0, 59));
  int isdst = tm.isdst;
  int64_t guess = offset_hint != nullptr ? *offset_hint : 0;
  int64_t t0 = YdhmsDiff(want.year, want.yday, want.hour, want.min, want.sec, 70, 0, 0, 0, 0) + guess;
  int64_t t = t0, t1 = t0, t2 = t0;
  BrokenDownTime got;
  bool matched = false;
  for (int probes = 6;; --probes) {
    absl::StatusOr<BrokenDownTime> lt = Localtime(t);
    if (!lt.ok()) return toobig();
    got = *std::move(lt);
    int64_t dt = want.Diff(got);
    if (dt == 0) {
      matched = true;
      break;
    }
    // Oscillating between two values: a spring-forward gap. glibc returns
    // the time dt away, preferring the DST flavour not asked for, and
    // daylight time when none was asked for.
    if (t == t1 && t != t2 && (got.isdst < 0 || (isdst < 0 ? got.isdst != 0 : (isdst != 0) != (got.isdst != 0))))
      break;
    if (probes == 1) return toobig();
    t1 = t2;
    t2 = t;
    t += dt;
  }
  if (matched && IsDstDiffer(isdst, got.isdst)) {
    // Right wall time, wrong DST flavour: find a nearby time with the
    // wanted flavour and use its offset, as glibc does.
    constexpr int64_t kStride = 601200;
    constexpr int64_t kBound = 457243200 / 2 + kStride;
    bool found = false;
    for (int64_t delta = kStride; delta < kBound && !found; delta += kStride) {
      for (int dir = -1; dir <= 1 && !found; dir += 2) {
        absl::StatusOr<BrokenDownTime> other = Localtime(t + delta * dir);
        if (!other.ok()) return toobig();
        if (IsDstDiffer(isdst, other->isdst)) continue;
        int64_t gt = t + delta * dir + want.Diff(*other);
        absl::StatusOr<BrokenDownTime> at = Localtime(gt);
        if (!at.ok()) return toobig();
        t = gt;
        got = *std::move(at);
        found = true;
      }
    }
    if (!found) {
      t += 3600 * ((isdst == 0) - (got.isdst == 0));
      absl::StatusOr<BrokenDownTime> at = Localtime(t);
      if (!at.ok()) return toobig();
      got = *std::move(at);
    }
  }
  if (offset_hint != nullptr) *offset_hint = guess + t - t0;
  if (sec_requested != got.sec) {
    int64_t adjust = (want.sec == 0 && got.sec == 60) ? 1 : 0;
    t += adjust - want.sec + sec_requested;
    absl::StatusOr<BrokenDownTime> at = Localtime(t);
    if (!at.ok()) return toobig();
    got = *std::move(at);
  }
  tm = std::move(got);
  return t;
}

absl::StatusOr<std::string> SquashZone(const TimeZone& zone, int64_t now) {
  absl::StatusOr<BrokenDownTime> tm = zone.Localtime(now);
  if (!tm.ok()) return tm.status();
  int64_t offset = -tm->gmtoff;
  std::string name = tm->zone;
  if (offset == 0) return name.substr(0, kPcpTzMaxLen);
  int64_t hours = offset / 3600;
  int64_t mins = std::abs((offset % 3600) / 60);
  size_t keep = kPcpTzMaxLen - (mins == 0 ? 3 : 6);
  std::string out = name.substr(0, keep);
  if (mins == 0)
    absl::StrAppendFormat(&out, "%+d", hours);
  else
    absl::StrAppendFormat(&out, "%+d:%02d", hours, mins);
  // snprintf into a PM_TZ_MAXLEN buffer keeps at most PM_TZ_MAXLEN-1 bytes.
  if (out.size() > kPcpTzMaxLen - 1) out.resize(kPcpTzMaxLen - 1);
  return out;
}

absl::StatusOr<std::string> PcpTimezoneString(std::optional<std::string_view> tz_env,
                                              int64_t now) {
  if (tz_env.has_value()) tz_env = CString(*tz_env);
  auto squash_local = [&]() -> absl::StatusOr<std::string> {
    absl::StatusOr<TimeZone> local = TimeZone::FromTzEnv(tz_env);
    if (!local.ok()) return local.status();
    return SquashZone(*local, now);
  };
  if (!tz_env.has_value() || (!tz_env->empty() && (*tz_env)[0] == ':')) return squash_local();
  std::string tz(*tz_env);
  if (tz.size() <= kPcpTzMaxLen) return tz;
  // PCP keeps only the pieces before each ":00" (what follows the last one
  // is dropped, as its loop does); with no ":00" the string is unchanged.
  std::string shortened = tz;
  if (tz.find(":00") != std::string::npos) {
    shortened.clear();
    size_t from = 0;
    for (size_t at; (at = tz.find(":00", from)) != std::string::npos; from = at + 3)
      shortened.append(tz, from, at - from);
  }
  if (shortened.size() > kPcpTzMaxLen) return squash_local();
  return shortened;
}

std::string HostZoneNote(std::string_view host, bool from_archive) {
  return absl::StrCat("Note: timezone set to local timezone of host \"", absl::string_view(host.data(), host.size()),
                      "\"", from_archive ? " from archive" : "", "\n\n");
}

std::string UserZoneNote(std::string_view tz) {
  return absl::StrCat("Note: timezone set to \"TZ=", absl::string_view(tz.data(), tz.size()), "\"\n\n");
}

}  // namespace pmapi
