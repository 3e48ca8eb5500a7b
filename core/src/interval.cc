// Parses PCP time intervals (pmParseInterval / pmParseHighResInterval).
//
// The grammar is a sequence of terms "NUMBER [UNIT]" with optional white
// space anywhere between tokens. NUMBER is whatever C's strtod reads in the C
// locale (so "1e3", "0x10" and ".5" are numbers) and must lie in 0..2^63.
// UNIT is a run of letters naming one of the unit words below, compared
// without regard to case after dropping one trailing 's'. The terms are summed
// as a double count of seconds and converted to seconds and rounded
// nanoseconds the way PCP converts a real number to a timespec.
#include "pmapi/interval.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/charconv.h"
#include "absl/strings/match.h"
#include "pmapi/errors.h"
#include "pointed_error.h"

namespace pmapi {
namespace {

// A unit word and its length in seconds: `factor` seconds, or 1/`factor`
// seconds when `divides` (PCP divides rather than multiplying by a fraction,
// and the two round differently).
struct UnitWord {
  std::string_view name;
  double factor;
  bool divides;
};

constexpr UnitWord kUnitWords[] = {
    {"nanosecond", 1e9, true}, {"microsecond", 1e6, true}, {"millisecond", 1e3, true},
    {"second", 1, false},      {"minute", 60, false},      {"hour", 3600, false},
    {"day", 86400, false},     {"nsec", 1e9, true},        {"usec", 1e6, true},
    {"msec", 1e3, true},       {"sec", 1, false},          {"min", 60, false},
    {"hr", 3600, false},       {"s", 1, false},            {"m", 60, false},
    {"h", 3600, false},        {"d", 86400, false},
};

// Largest value one term's number may have: PCP bounds it by LONG_MAX, which
// as a double is 2^63.
constexpr double kMaxTerm = static_cast<double>(std::numeric_limits<int64_t>::max());
// Sums at or above this do not fit a signed 64-bit count of seconds.
constexpr double kTooManySeconds = 9223372036854775808.0;

// Returns the unit `word` names, or nullptr if none. PCP ignores one trailing
// 's' or 'S' (so "secs" and "ms" mean "sec" and "m").
// REQUIRES: word is not empty.
const UnitWord* FindUnit(std::string_view word) {
  if (word.size() > 1 && (word.back() == 's' || word.back() == 'S')) word.remove_suffix(1);
  for (const UnitWord& unit : kUnitWords) {
    if (absl::EqualsIgnoreCase(absl::string_view(word.data(), word.size()),
                               absl::string_view(unit.name.data(), unit.name.size()))) {
      return &unit;
    }
  }
  return nullptr;
}

// Returns the index of the first byte at or after `pos` that is not C-locale
// white space. REQUIRES: pos <= text.size().
size_t SkipSpace(std::string_view text, size_t pos) {
  while (pos < text.size() && absl::ascii_isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  return pos;
}

// A number read from the front of a string; `length` 0 means none was there.
struct Number {
  double value = 0;
  size_t length = 0;
};

// Returns the length of a case-insensitive match of `word` at the front of
// `text`, or 0.
size_t MatchWord(std::string_view text, std::string_view word) {
  if (text.size() < word.size()) return 0;
  return absl::EqualsIgnoreCase(absl::string_view(text.data(), word.size()),
                                absl::string_view(word.data(), word.size()))
             ? word.size()
             : 0;
}

// Returns "inf", "infinity", "nan" or "nan(chars)" read from the front of
// `text` as strtod reads them, or no number.
Number ScanSpecialNumber(std::string_view text) {
  if (size_t n = MatchWord(text, "infinity"); n != 0) return {HUGE_VAL, n};
  if (size_t n = MatchWord(text, "inf"); n != 0) return {HUGE_VAL, n};
  if (MatchWord(text, "nan") == 0) return {};
  size_t end = 3;
  if (end < text.size() && text[end] == '(') {
    size_t close = end + 1;
    while (close < text.size() &&
           (absl::ascii_isalnum(static_cast<unsigned char>(text[close])) || text[close] == '_')) {
      ++close;
    }
    if (close < text.size() && text[close] == ')') end = close + 1;
  }
  return {std::numeric_limits<double>::quiet_NaN(), end};
}

// Returns true if `text` opens with "0x" or "0X" and a hexadecimal digit,
// possibly after the point: strtod's hexadecimal form. (absl::from_chars
// would take a sign or "inf" after the prefix too.)
bool IsHexPrefix(std::string_view text) {
  if (text.size() < 3 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) return false;
  size_t digit = text[2] == '.' ? 3 : 2;
  return digit < text.size() && absl::ascii_isxdigit(static_cast<unsigned char>(text[digit]));
}

// Returns the unsigned decimal or hexadecimal number at the front of `text`
// as strtod reads it, or no number. Out-of-range values read as infinity or
// zero, as strtod gives them.
Number ScanUnsignedNumber(std::string_view text) {
  // absl::from_chars would take a '-' of its own.
  if (text.empty() || text[0] == '-' || text[0] == '+') return {};
  Number special = ScanSpecialNumber(text);
  if (special.length != 0) return special;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  Number n;
  if (IsHexPrefix(text)) {
    absl::from_chars_result r = absl::from_chars(first + 2, last, n.value, absl::chars_format::hex);
    if (r.ptr != first + 2) {
      n.length = static_cast<size_t>(r.ptr - first);
      return n;
    }
  }
  absl::from_chars_result r = absl::from_chars(first, last, n.value);
  n.length = static_cast<size_t>(r.ptr - first);
  return n;
}

// Returns the number (with optional sign) at the front of `text` as strtod
// reads it in the C locale, or no number.
Number ScanNumber(std::string_view text) {
  bool negative = false;
  size_t sign = 0;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    sign = 1;
  }
  Number n = ScanUnsignedNumber(text.substr(sign));
  if (n.length == 0) return {};
  return {negative ? -n.value : n.value, n.length + sign};
}

// Returns the error for `text` failing at byte `point` for `reason`, with
// PCP's message: the text, then a line that keeps the text's non-printing
// bytes (tabs, so the columns line up) and blanks the rest up to "^".
// REQUIRES: point <= text.size().
absl::Status SyntaxError(std::string_view text, size_t point, std::string_view reason) {
  return PcpErrorWithMessage(kIntervalSyntaxError, PointedErrorText(text, point, reason));
}

// Returns `seconds` as PCP converts a real number of seconds to a timespec:
// whole seconds truncated, the fraction rounded to nanoseconds in extended
// precision (which may give exactly 1e9 nanoseconds, i.e. the next second).
// REQUIRES: 0 <= seconds < kTooManySeconds.
absl::Duration SecondsToDuration(double seconds) {
  int64_t whole = static_cast<int64_t>(seconds);
  long double fraction = static_cast<long double>(seconds - static_cast<double>(whole));
  int64_t nanos = static_cast<int64_t>(fraction * 1000000000.0L + 0.5L);
  return absl::Seconds(whole) + absl::Nanoseconds(nanos);
}

}  // namespace

absl::StatusOr<absl::Duration> ParseInterval(std::string_view text) {
  if (text.empty()) return SyntaxError("", 0, "Null or empty specification");
  double seconds = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t start = SkipSpace(text, pos);
    Number n = ScanNumber(text.substr(start));
    // NaN passes, as in PCP, so that what follows it is checked as PCP
    // checks it; a NaN total is refused below.
    if (n.length == 0 || n.value < 0 || n.value > kMaxTerm) {
      pos = start;
      break;
    }
    pos = SkipSpace(text, start + n.length);
    size_t word_end = pos;
    while (word_end < text.size() && absl::ascii_isalpha(static_cast<unsigned char>(text[word_end]))) {
      ++word_end;
    }
    if (word_end == pos) {  // no unit word: seconds
      seconds += n.value;
      continue;
    }
    const UnitWord* unit = FindUnit(text.substr(pos, word_end - pos));
    if (unit == nullptr) break;
    seconds += unit->divides ? n.value / unit->factor : n.value * unit->factor;
    pos = word_end;
  }
  if (pos < text.size()) return SyntaxError(text, pos, "unexpected value");
  // PCP returns an undefined timespec for these (NaN or too many seconds).
  if (!(seconds < kTooManySeconds)) return SyntaxError(text, text.size(), "unexpected value");
  return SecondsToDuration(seconds);
}

}  // namespace pmapi
