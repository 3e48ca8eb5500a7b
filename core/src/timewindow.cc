// The time window options, following libpcp 6.0.3's rtime.c logic step by
// step (its scanners, its partial-date rules, its unnormalised arithmetic)
// so that results and error texts match. See docs/time.md.
#include "pmapi/timewindow.h"

#include <cctype>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "pmapi/errors.h"
#include "pmapi/interval.h"
#include "pointed_error.h"

namespace pmapi {
namespace {

constexpr int64_t kBillion = 1000000000;
constexpr char kWhatMsg[] = "unexpected value";
constexpr char kMoreMsg[] = "more information expected";
constexpr char kAlignMsg[] = "alignment specified by -A switch could not be applied";

enum OffsetKind { kAbsolute = 0, kPlus = 1, kMinus = 2 };

bool IsAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

absl::Status ParseFailure(const std::string& spec, size_t point, std::string_view msg) {
  return PcpErrorWithMessage(-1, PointedErrorText(spec, point, msg));
}

// A scanner over a C string: the text ends at its first NUL.
class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s.substr(0, s.find('\0'))) {}
  char peek(size_t ahead = 0) const { return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0'; }
  bool at_end() const { return pos_ >= s_.size(); }
  size_t pos() const { return pos_; }
  void seek(size_t p) { pos_ = p; }
  void SkipSpaces() {
    while (absl::ascii_isspace(peek())) ++pos_;
  }
  std::string rest() const { return std::string(s_.substr(pos_)); }
  const std::string_view text() const { return s_; }

  // parseChar: skip blanks, then take `c` if it is next.
  bool Char(char c) {
    SkipSpaces();
    if (peek() != c) return false;
    ++pos_;
    return true;
  }

  // parseInt: strtol within [min, max], else nothing consumed but blanks.
  bool Int(long min, long max, int* out) {
    SkipSpaces();
    std::string rest = this->rest();
    char* end = nullptr;
    long v = std::strtol(rest.c_str(), &end, 10);
    size_t used = static_cast<size_t>(end - rest.c_str());
    if (used == 0 || v < min || v > max) return false;
    pos_ += used;
    *out = static_cast<int>(v);
    return true;
  }

  // parseDouble: strtod within [min, max] (NaN passes, as in PCP).
  bool Double(double min, double max, double* out) {
    SkipSpaces();
    std::string rest = this->rest();
    char* end = nullptr;
    double v = std::strtod(rest.c_str(), &end);
    size_t used = static_cast<size_t>(end - rest.c_str());
    if (used == 0 || v < min || v > max) return false;
    pos_ += used;
    *out = v;
    return true;
  }

  // parse3char: up to three letters, case-folded, matched against names.
  bool Code3(const char* const* names, int count, int* out) {
    SkipSpaces();
    if (!IsAlpha(peek())) return false;
    size_t p = pos_;
    std::string code;
    for (int i = 0; i < 3; ++i) {
      code += static_cast<char>(std::tolower(static_cast<unsigned char>(s_[p])));
      ++p;
      if (!IsAlpha(p < s_.size() ? s_[p] : '\0')) break;
    }
    for (int i = 0; i < count; ++i) {
      if (code == names[i]) {
        pos_ = p;
        *out = i;
        return true;
      }
    }
    return false;
  }

 private:
  std::string_view s_;
  size_t pos_ = 0;
};

// The parsed form of a time, in PCP's struct tm encoding: -1 for fields
// not given, `frac` the nanoseconds, `kind` the offset direction.
struct TimeFields {
  int sec = -1, min = -1, hour = -1, mday = -1, mon = -1, year = -1;
  int64_t frac = -1;
  OffsetKind kind = kAbsolute;
};

constexpr const char* kWeekdays[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};
constexpr const char* kMonths[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                   "jul", "aug", "sep", "oct", "nov", "dec"};
constexpr const char* kMeridians[] = {"am", "pm"};

// C's (int) conversion as the x86 instruction does it, where PCP runs: a
// NaN or a value out of int's range gives INT_MIN ("@01:43:nan" is read by
// strtod and passes PCP's range check). Defined here, unlike in C.
int TruncateToInt(long double v) {
  if (!(v > static_cast<long double>(INT_MIN) - 1 && v < static_cast<long double>(INT_MAX) + 1)) {
    return INT_MIN;
  }
  return static_cast<int>(v);
}

void ParseClock(Scanner& sc, TimeFields& tm) {
  if (!sc.Char(':')) return;
  if (tm.hour == -1) tm.hour = 0;
  tm.min = 0;
  sc.Int(0, 59, &tm.min);
  if (!sc.Char(':')) return;
  double d = 0;
  if (sc.Double(0.0, 61.0, &d)) {
    tm.sec = TruncateToInt(d);
    long double frac = static_cast<long double>(d) - static_cast<long double>(tm.sec);
    tm.frac = TruncateToInt(1000000000.0L * frac);
  }
}

void ApplyMeridian(Scanner& sc, TimeFields& tm) {
  int pm = -1;
  if (!sc.Code3(kMeridians, 2, &pm)) return;
  if (tm.hour > 12 || tm.hour == -1) {
    sc.seek(sc.pos() - 2);
  } else if (pm == 1) {
    if (tm.hour < 12) tm.hour += 12;
  } else if (tm.hour == 12) {
    tm.hour = 0;
  }
}

// Fields after the first one given default to their start ("Nov" is
// Nov 1 00:00:00).
void FillDefaults(TimeFields& tm) {
  bool dflt = tm.year != -1;
  if (tm.mon != -1) dflt = true; else if (dflt) tm.mon = 0;
  if (tm.mday != -1) dflt = true; else if (dflt) tm.mday = 1;
  if (tm.hour != -1) dflt = true; else if (dflt) tm.hour = 0;
  if (tm.min != -1) dflt = true; else if (dflt) tm.min = 0;
  if (tm.sec == -1 && dflt) {
    tm.sec = 0;
    tm.frac = 0;
  }
}

// __pmParseCtime: "[Www] [Mmm] [dd] [hh[:mm[:ss.frac]]] [am|pm] [yyyy]".
absl::StatusOr<TimeFields> ParseCtime(std::string_view text) {
  Scanner sc(text);
  std::string spec(sc.text());
  TimeFields tm;
  int ignored = -1;
  sc.Code3(kWeekdays, 7, &ignored);
  sc.Code3(kMonths, 12, &tm.mon);
  sc.Int(0, 31, &tm.mday);
  sc.Int(0, 23, &tm.hour);
  if (tm.mday == 0 && tm.hour != -1) tm.mday = -1;
  if (tm.hour == -1 && tm.mday >= 0 && tm.mday <= 23 && (tm.mon == -1 || sc.peek() == ':')) {
    tm.hour = tm.mday;
    tm.mday = -1;
  }
  ParseClock(sc, tm);
  ApplyMeridian(sc, tm);
  if (sc.Int(1900, 9999, &tm.year)) tm.year -= 1900;
  sc.SkipSpaces();
  if (!sc.at_end()) return ParseFailure(spec, sc.pos(), kWhatMsg);
  if ((ignored != -1 && tm.mon == -1 && tm.mday == -1) ||
      (tm.hour != -1 && tm.min == -1 && tm.mday == -1 && tm.mon == -1 && tm.year == -1))
    return ParseFailure(spec, sc.pos(), kMoreMsg);
  FillDefaults(tm);
  return tm;
}

}  // namespace

// PCP reads the interval as a C string, so it ends at the first NUL.
absl::StatusOr<TimeSpec> ParseHighResInterval(std::string_view spec) {
  absl::StatusOr<absl::Duration> d = ParseInterval(spec.substr(0, spec.find('\0')));
  if (!d.ok()) return d.status();
  absl::Duration rest = *d;
  int64_t sec = absl::IDivDuration(rest, absl::Seconds(1), &rest);
  return TimeSpec{sec, absl::ToInt64Nanoseconds(rest)};
}

namespace {

// Moves `origin` by an interval, as __pmConvertHighResTime does: seconds
// narrowed to int, and a carry only when nanoseconds exceed (not reach)
// one billion.
TimeSpec Offset(TimeSpec origin, TimeSpec interval, OffsetKind kind) {
  int sec = static_cast<int>(static_cast<uint32_t>(static_cast<uint64_t>(interval.sec)));
  int64_t nsec = static_cast<int>(interval.nsec);
  TimeSpec t = origin;
  if (kind == kPlus) {
    t.nsec += nsec;
    if (t.nsec > kBillion) {
      t.nsec -= kBillion;
      t.sec++;
    }
    t.sec += sec;
  } else {
    if (t.nsec < nsec) {
      t.nsec += kBillion;
      t.sec--;
    }
    t.nsec -= nsec;
    t.sec -= sec;
  }
  return t;
}

BrokenDownTime ToBroken(const TimeFields& f) {
  BrokenDownTime tm;
  tm.sec = f.sec;
  tm.min = f.min;
  tm.hour = f.hour;
  tm.mday = f.mday;
  tm.mon = f.mon;
  tm.year = f.year;
  tm.isdst = -1;
  return tm;
}

// Overlays the given fields on `tm` (the origin's local time), stepping the
// next larger field when the result would fall before the origin.
void OverlayPartial(const TimeFields& f, BrokenDownTime& tm, TimeSpec& t) {
  auto copy_from = [&](int level) {
    if (level <= 0) tm.mon = f.mon;
    if (level <= 1) tm.mday = f.mday;
    if (level <= 2) tm.hour = f.hour;
    if (level <= 3) tm.min = f.min;
    tm.sec = f.sec;
    t.nsec = f.frac;
  };
  if (f.mon != -1) {
    if (f.mon < tm.mon) tm.year++;
    copy_from(0);
  } else if (f.mday != -1) {
    if (f.mday < tm.mday) tm.mon++;
    copy_from(1);
  } else if (f.hour != -1) {
    if (f.hour < tm.hour) tm.mday++;
    copy_from(2);
  } else if (f.min != -1) {
    if (f.min < tm.min) tm.hour++;
    copy_from(3);
  } else if (f.sec != -1) {
    if (f.sec < tm.sec) tm.min++;
    tm.sec = f.sec;
    t.nsec = f.frac;
  }
}

}  // namespace

namespace {

// The parts of GNU getdate this supports: one date (yyyy-mm-dd, yyyy/mm/dd,
// mm/dd/yy[yy]), at most one time of day (h:mm[:ss] [am|pm]), and at most
// one zone (UTC, GMT, UT, Z or another single letter, or +hhmm / +hh:mm).
struct GetdateToken {
  enum Kind { kEnd, kUnsigned, kSigned, kWord, kChar, kOther } kind = kEnd;
  int64_t value = 0;
  size_t digits = 0;
  bool negative = false;
  std::string word;  // upper-cased
  char ch = 0;
};

std::vector<GetdateToken> GetdateTokens(std::string_view text) {
  std::vector<GetdateToken> out;
  size_t i = 0;
  auto at = [&](size_t k) { return k < text.size() ? text[k] : '\0'; };
  while (true) {
    while (absl::ascii_isspace(at(i))) ++i;
    GetdateToken tok;
    char c = at(i);
    if (c == '\0') break;
    if (absl::ascii_isdigit(c) || c == '-' || c == '+') {
      int sign = 0;
      if (c == '-' || c == '+') {
        sign = c == '-' ? -1 : 1;
        ++i;
        while (absl::ascii_isspace(at(i))) ++i;
        if (!absl::ascii_isdigit(at(i))) continue;
      }
      size_t start = i;
      int64_t v = 0;
      while (absl::ascii_isdigit(at(i))) {
        if (v > (INT64_MAX - 9) / 10) {
          tok.kind = GetdateToken::kOther;
          break;
        }
        v = v * 10 + (at(i) - '0');
        ++i;
      }
      if (tok.kind == GetdateToken::kOther || ((at(i) == '.' || at(i) == ',') && absl::ascii_isdigit(at(i + 1)))) {
        tok.kind = GetdateToken::kOther;  // decimal numbers: not supported
        out.push_back(tok);
        break;
      }
      tok.kind = sign != 0 ? GetdateToken::kSigned : GetdateToken::kUnsigned;
      tok.negative = sign < 0;
      tok.value = sign < 0 ? -v : v;
      tok.digits = i - start;
    } else if (IsAlpha(c)) {
      tok.kind = GetdateToken::kWord;
      while (IsAlpha(at(i)) || at(i) == '.') {
        tok.word += static_cast<char>(std::toupper(static_cast<unsigned char>(at(i))));
        ++i;
      }
    } else {
      tok.kind = c == '(' ? GetdateToken::kOther : GetdateToken::kChar;
      tok.ch = c;
      ++i;
    }
    out.push_back(tok);
    if (tok.kind == GetdateToken::kOther) break;
  }
  out.push_back(GetdateToken{});
  return out;
}

// 0 for "am" (or "a.m."), 1 for "pm", else -1.
int Meridian(const GetdateToken& tok) {
  if (tok.kind != GetdateToken::kWord) return -1;
  if (tok.word == "AM" || tok.word == "A.M.") return 0;
  if (tok.word == "PM" || tok.word == "P.M.") return 1;
  return -1;
}

// A month as getdate names it: the full name (or "sept"), or its first
// three letters, with or without a dot after them.
std::optional<int64_t> MonthWord(const GetdateToken& tok) {
  static constexpr std::string_view kMonths[] = {"JANUARY", "FEBRUARY", "MARCH",     "APRIL",
                                                 "MAY",     "JUNE",     "JULY",      "AUGUST",
                                                 "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER"};
  if (tok.kind != GetdateToken::kWord) return std::nullopt;
  std::string_view w = tok.word;
  if (w.size() == 4 && w[3] == '.') w = w.substr(0, 3);
  if (w == "SEPT") return 9;
  for (size_t m = 0; m < 12; ++m) {
    if (w.size() == 3 ? kMonths[m].substr(0, 3) == w : kMonths[m] == w) {
      return static_cast<int64_t>(m + 1);
    }
  }
  return std::nullopt;
}

// getdate's named zones: minutes east of UTC, and whether the name is a
// daylight-time one (which adds an hour).
struct NamedZone {
  const char* name;
  int minutes;
  bool daylight;
};
constexpr NamedZone kNamedZones[] = {
    {"WET", 0, false},     {"WEST", 0, true},     {"BST", 0, true},      {"ART", -180, false},
    {"BRT", -180, false},  {"BRST", -180, true},  {"NST", -210, false},  {"NDT", -210, true},
    {"AST", -240, false},  {"ADT", -240, true},   {"CLT", -240, false},  {"CLST", -240, true},
    {"EST", -300, false},  {"EDT", -300, true},   {"CST", -360, false},  {"CDT", -360, true},
    {"MST", -420, false},  {"MDT", -420, true},   {"PST", -480, false},  {"PDT", -480, true},
    {"AKST", -540, false}, {"AKDT", -540, true},  {"HST", -600, false},  {"HAST", -600, false},
    {"HADT", -600, true},  {"SST", -720, false},  {"WAT", 60, false},    {"CET", 60, false},
    {"CEST", 60, true},    {"MET", 60, false},    {"MEZ", 60, false},    {"MEST", 60, true},
    {"MESZ", 60, true},    {"EET", 120, false},   {"EEST", 120, true},   {"CAT", 120, false},
    {"SAST", 120, false},  {"EAT", 180, false},   {"MSK", 180, false},   {"MSD", 180, true},
    {"IST", 330, false},   {"SGT", 480, false},   {"KST", 540, false},   {"JST", 540, false},
    {"GST", 600, false},   {"NZST", 720, false},  {"NZDT", 720, true},
};

// Minutes east of UTC for a zone word, or nullopt.
std::optional<int64_t> ZoneWord(const std::string& w) {
  if (w == "GMT" || w == "UT" || w == "UTC") return 0;
  for (const NamedZone& z : kNamedZones) {
    // PCP 6.0.3 rejects the daylight-time names ("CEST", "EDT").
    if (w == z.name) return z.daylight ? std::nullopt : std::optional<int64_t>(z.minutes);
  }
  if (w.size() == 1 && w[0] >= 'A' && w[0] <= 'Z' && w[0] != 'J') {
    char c = w[0];
    if (c == 'Z') return 0;
    if (c <= 'I') return -60 * (c - 'A' + 1);
    if (c <= 'M') return -60 * (c - 'A');
    return 60 * (c - 'N' + 1);
  }
  return std::nullopt;
}

struct GetdateParse {
  int64_t year = 0;
  size_t year_digits = 0;
  int64_t month = 0, day = 0, hour = 0, minutes = 0, seconds = 0;
  int meridian = 2;  // 0 am, 1 pm, 2 24-hour
  int64_t zone = 0;
  int dates = 0, times = 0, zones = 0;
};

int64_t ZoneHhmm(const GetdateToken& s, int64_t mm) {
  if (mm < 0) return (s.value / 100) * 60 + s.value % 100;
  return s.value * 60 + (s.negative ? -mm : mm);
}

// Returns false for input outside the supported subset or not a date.
bool ParseGetdate(std::string_view text, GetdateParse& pc) {
  std::vector<GetdateToken> t = GetdateTokens(text);
  size_t i = 0;
  using K = GetdateToken::Kind;
  auto is_char = [&](size_t k, char c) { return t[k].kind == K::kChar && t[k].ch == c; };
  while (t[i].kind != K::kEnd) {
    const GetdateToken& a = t[i];
    if (a.kind == K::kUnsigned && t[i + 1].kind == K::kSigned && t[i + 2].kind == K::kSigned) {
      pc.year = a.value;
      pc.year_digits = a.digits;
      pc.month = -t[i + 1].value;
      pc.day = -t[i + 2].value;
      pc.dates++;
      i += 3;
    } else if (a.kind == K::kUnsigned && MonthWord(t[i + 1]) &&
               (t[i + 2].kind == K::kUnsigned || t[i + 2].kind == K::kSigned)) {
      // "6 June 2018", "17-JUN-1992" (a day and month alone take the year
      // from "now", and are not supported).
      pc.day = a.value;
      pc.month = *MonthWord(t[i + 1]);
      pc.year = t[i + 2].kind == K::kSigned ? -t[i + 2].value : t[i + 2].value;
      pc.year_digits = t[i + 2].digits;
      pc.dates++;
      i += 3;
    } else if (a.kind == K::kUnsigned && Meridian(t[i + 1]) >= 0) {
      // "4pm": an hour and its half of the day
      pc.hour = a.value;
      pc.minutes = 0;
      pc.seconds = 0;
      pc.meridian = Meridian(t[i + 1]);
      pc.times++;
      i += 2;
    } else if (MonthWord(a) && t[i + 1].kind == K::kUnsigned && is_char(i + 2, ',') &&
               t[i + 3].kind == K::kUnsigned) {
      // "June 6, 2018"
      pc.month = *MonthWord(a);
      pc.day = t[i + 1].value;
      pc.year = t[i + 3].value;
      pc.year_digits = t[i + 3].digits;
      pc.dates++;
      i += 4;
    } else if (a.kind == K::kUnsigned && is_char(i + 1, '/') && t[i + 2].kind == K::kUnsigned) {
      if (is_char(i + 3, '/') && t[i + 4].kind == K::kUnsigned) {
        const GetdateToken& c = t[i + 4];
        if (a.digits >= 4) {
          pc.year = a.value, pc.year_digits = a.digits, pc.month = t[i + 2].value, pc.day = c.value;
        } else {
          pc.month = a.value, pc.day = t[i + 2].value, pc.year = c.value, pc.year_digits = c.digits;
        }
        i += 5;
      } else {
        return false;  // month/day alone takes the year from "now"
      }
      pc.dates++;
    } else if (a.kind == K::kUnsigned && is_char(i + 1, ':') && t[i + 2].kind == K::kUnsigned) {
      pc.hour = a.value;
      pc.minutes = t[i + 2].value;
      pc.seconds = 0;
      i += 3;
      if (is_char(i, ':') && t[i + 1].kind == K::kUnsigned) {
        pc.seconds = t[i + 1].value;
        i += 2;
      }
      pc.meridian = 2;
      if (Meridian(t[i]) >= 0) {
        pc.meridian = Meridian(t[i]);
        ++i;
      } else if (t[i].kind == K::kSigned) {
        // PCP 6.0.3 takes "+hhmm" after a time but rejects "+hh:mm".
        if (is_char(i + 1, ':')) return false;
        pc.zone = ZoneHhmm(t[i], -1);
        pc.zones++;
        ++i;
      }
      pc.times++;
    } else if (a.kind == K::kWord && ZoneWord(a.word).has_value()) {
      pc.zone = *ZoneWord(a.word);
      ++i;
      if (t[i].kind == K::kSigned) return false;  // "UTC+5": not supported
      pc.zones++;
    } else {
      return false;
    }
  }
  return pc.dates == 1 && pc.times <= 1 && pc.zones <= 1;
}

// Two-digit years (and any year below 100, even written "0000") map to
// 1969..2068, as PCP 6.0.3's getdate does.
int64_t ToYear(int64_t year) {
  if (year < 0) return -year;
  if (year < 100) return year + (year < 69 ? 2000 : 1900);
  return year;
}

int DaysInMonth(int64_t year, int64_t month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  return month == 2 && leap ? 29 : kDays[month - 1];
}

int ToHour(int64_t hours, int meridian) {
  if (meridian == 2) return hours >= 0 && hours < 24 ? static_cast<int>(hours) : -1;
  if (hours > 0 && hours < 12) return static_cast<int>(meridian == 0 ? hours : hours + 12);
  if (hours == 12) return meridian == 0 ? 0 : 12;
  return -1;
}


}  // namespace

absl::StatusOr<TimeSpec> TimeParser::ParseTime(std::string_view text, TimeSpec start,
                                              TimeSpec end) {
  Scanner sc(text);
  absl::Status first_error;
  if (sc.Char('@')) {
    absl::StatusOr<TimeFields> f = ParseCtime(sc.rest());
    if (f.ok()) {
      TimeSpec t = start;
      BrokenDownTime tm;
      if (f->year != -1) {
        tm = ToBroken(*f);
        t.nsec = f->frac;
      } else {
        absl::StatusOr<BrokenDownTime> lt = zone_.Localtime(start.sec);
        if (!lt.ok()) return lt.status();
        tm = *std::move(lt);
        tm.isdst = -1;
        OverlayPartial(*f, tm, t);
      }
      absl::StatusOr<int64_t> s = zone_.Mktime(tm, &mktime_hint_);
      t.sec = s.ok() ? *s : -1;  // PCP keeps mktime's -1 on failure
      return t;
    }
    first_error = f.status();
  } else if (end.sec < kUnboundedEnd && sc.Char('-')) {
    absl::StatusOr<TimeSpec> iv = ParseHighResInterval(sc.rest());
    if (iv.ok()) return Offset(end, *iv, kMinus);
    first_error = iv.status();
  } else {
    sc.Char('+');
    absl::StatusOr<TimeSpec> iv = ParseHighResInterval(sc.rest());
    if (iv.ok()) return Offset(start, *iv, kPlus);
    first_error = iv.status();
  }
  sc.Char('@');
  GetdateParse pc;
  if (!ParseGetdate(sc.rest(), pc)) return first_error;
  // PCP 6.0.3's getdate checks the fields as written (so a time in a DST
  // gap is accepted, while Feb 30 or 01:60 is not) and refuses years and
  // results before the epoch.
  int hour = pc.times ? ToHour(pc.hour, pc.meridian) : 0;
  int64_t year = ToYear(pc.year);
  if (hour < 0 || year < 1970 || year > INT_MAX || pc.month < 1 || pc.month > 12 || pc.day < 1 ||
      pc.day > DaysInMonth(year, pc.month) || pc.minutes > 59 || pc.seconds > 59)
    return first_error;
  BrokenDownTime tm;
  tm.year = static_cast<int>(year - 1900);
  tm.mon = static_cast<int>(pc.month - 1);
  tm.mday = static_cast<int>(pc.day);
  tm.hour = hour;
  tm.min = pc.times ? static_cast<int>(pc.minutes) : 0;
  tm.sec = pc.times ? static_cast<int>(pc.seconds) : 0;
  tm.isdst = -1;
  BrokenDownTime wanted = tm;
  absl::StatusOr<int64_t> s = zone_.Mktime(tm, &mktime_hint_);
  if (s.ok() && (tm.hour != wanted.hour || tm.min != wanted.min)) {
    // A time in a DST gap: PCP settles it with a second mktime that asks
    // for the DST flag the first one found, which lands on the far side.
    wanted.isdst = tm.isdst;
    tm = wanted;
    s = zone_.Mktime(tm, &mktime_hint_);
  }
  if (!s.ok() || *s < 0) return first_error;
  int64_t t = *s;
  if (pc.zones) t += tm.gmtoff - pc.zone * 60;
  if (t < 0) return first_error;
  return TimeSpec{t, 0};
}

namespace {
void FailAlignment(TimeWindow& w, const std::string& align_spec) {
  w.alignment_failed = true;
  w.warning = PointedErrorText(align_spec, 0, kAlignMsg);
}
}  // namespace

absl::StatusOr<TimeWindow> TimeParser::ParseWindow(const TimeWindowArgs& args, TimeSpec log_start,
                                                   TimeSpec log_end) {
  auto before = [](TimeSpec a, TimeSpec b) {
    return a.sec < b.sec || (a.sec == b.sec && a.nsec < b.nsec);
  };
  // PCP aligns in 64-bit nanoseconds, which wrap for a live window's end
  // (PM_MAX_TIME_T seconds); the wrapped value is what it compares with.
  auto ns = [](TimeSpec t) {
    return static_cast<int64_t>(static_cast<uint64_t>(t.sec) * static_cast<uint64_t>(kBillion) +
                                static_cast<uint64_t>(t.nsec));
  };
  auto from_ns = [](int64_t v) { return TimeSpec{v / kBillion, v % kBillion}; };
  // The multiple of delta at or after a, wrapping as PCP's sums do.
  auto align_up = [](int64_t a, int64_t delta) {
    int64_t b = delta == -1 ? a : (a / delta) * delta;
    if (b < a) b = static_cast<int64_t>(static_cast<uint64_t>(b) + static_cast<uint64_t>(delta));
    return b;
  };
  TimeWindow w;
  TimeSpec start = log_start, end = log_end;
  if (args.start.has_value()) {
    absl::StatusOr<TimeSpec> t = ParseTime(*args.start, start, end);
    if (!t.ok()) return t.status();
    start = *t;
  }
  if (before(start, log_start)) start = log_start;
  int64_t delta = 0;
  std::string align_spec;
  if (args.align.has_value()) {
    align_spec = std::string(Scanner(*args.align).text());
    absl::StatusOr<TimeSpec> iv = ParseHighResInterval(*args.align);
    if (!iv.ok()) return iv.status();
    delta = ns(*iv);
    if (delta == 0) return ParseFailure(align_spec, 0, kAlignMsg);
    int64_t b = align_up(ns(start), delta);
    TimeSpec astart = from_ns(b);
    if (!before(astart, log_start) && !before(log_end, astart))
      start = astart;
    else
      FailAlignment(w, align_spec);
  }
  if (args.end.has_value()) {
    absl::StatusOr<TimeSpec> t = ParseTime(*args.end, start, end);
    if (!t.ok()) return t.status();
    end = *t;
    w.warning.clear();  // PCP's parse resets its message pointer
  }
  if (before(log_end, end)) end = log_end;
  TimeSpec origin = start;
  if (args.origin.has_value()) {
    absl::StatusOr<TimeSpec> t = ParseTime(*args.origin, start, end);
    if (!t.ok()) return t.status();
    origin = *t;
    w.warning.clear();
    if (before(origin, start))
      origin = start;
    else if (before(end, origin))
      origin = end;
    if (args.align.has_value()) {
      int64_t b = align_up(ns(origin), delta);
      if (b > ns(end)) b = static_cast<int64_t>(static_cast<uint64_t>(b) - static_cast<uint64_t>(delta));
      TimeSpec aorigin = from_ns(b);
      if (!before(aorigin, start) && !before(end, aorigin))
        origin = aorigin;
      else
        FailAlignment(w, align_spec);
    }
  }
  w.start = start;
  w.end = end;
  w.origin = origin;
  return w;
}

WindowBounds ArchiveWindowBounds(std::span<const WindowBounds> archives) {
  WindowBounds b = archives.front();
  for (const WindowBounds& a : archives.subspan(1)) {
    if (a.start.sec < b.start.sec || (a.start.sec == b.start.sec && a.start.nsec < b.start.nsec))
      b.start = a.start;
    if (a.end.sec > b.end.sec || (a.end.sec == b.end.sec && a.end.nsec > b.end.nsec)) b.end = a.end;
  }
  return b;
}

WindowBounds LiveWindowBounds(TimeSpec now) { return WindowBounds{now, TimeSpec{kUnboundedEnd, 0}}; }

}  // namespace pmapi
