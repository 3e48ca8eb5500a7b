// Units to text and back, as PCP 6.0.3 does it; see pmapi/units.h.

#include "pmapi/units.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

// ---------------------------------------------------------------------------
// Units to text

// Returns `v` read as a 4-bit two's complement field (-8..7).
int SignedNibble(int v) { return ((v & 0xf) ^ 8) - 8; }

// Returns the name of a space scale (a power of 1024 bytes).
std::string SpaceName(int scale) {
  static constexpr const char* kNames[] = {"byte",  "Kbyte", "Mbyte", "Gbyte", "Tbyte",
                                           "Pbyte", "Ebyte", "Zbyte", "Ybyte"};
  if (scale >= 0 && scale <= kSpaceYByte) return kNames[scale];
  return absl::StrCat("space-", scale);
}

// Returns the name of a time scale.
std::string TimeName(int scale) {
  static constexpr const char* kNames[] = {"nanosec", "microsec", "millisec", "sec", "min", "hour"};
  if (scale >= 0 && scale <= kTimeHour) return kNames[scale];
  return absl::StrCat("time-", scale);
}

// Returns the name of a count scale (a power of ten).
std::string CountName(int scale) {
  if (scale == 0) return "count";
  if (scale == 1) return "count x 10";
  return absl::StrCat("count x 10^", scale);
}

// Appends "name" (power 1) or "name^power", then one space.
void AppendTerm(std::string& out, const std::string& name, int power) {
  out += name;
  if (power != 1) absl::StrAppend(&out, "^", power);
  out += ' ';
}

// ---------------------------------------------------------------------------
// Text to units

// A unit word or power suffix and the scale or power it stands for.
struct Word {
  std::string_view text;
  int value;
};

// A word matches only where whitespace, '^' or the end of its side of the
// '/' follows it, and the first match in table order wins. So where one word
// is another plus a space or '^' ("count" and "count x 10" both start
// "count x 10^6"), the longer one must come first.
// clang-format off
constexpr Word kTimeWords[] = {
    {"nanoseconds", 0}, {"nanosecond", 0}, {"nanosec", 0}, {"ns", 0},
    {"microseconds", 1}, {"microsecond", 1}, {"microsec", 1}, {"us", 1},
    {"milliseconds", 2}, {"millisecond", 2}, {"millisec", 2}, {"ms", 2},
    {"seconds", 3}, {"second", 3}, {"sec", 3}, {"s", 3},
    {"minutes", 4}, {"minute", 4}, {"min", 4},
    {"hours", 5}, {"hour", 5}, {"hr", 5}, {"h", 5},
    {"time-0", 0}, {"time-2", 2}, {"time-3", 3}, {"time-4", 4}, {"time-5", 5},
    {"time-6", 6}, {"time-7", 7}, {"time-8", 8}, {"time-9", 9}, {"time-10", 10},
    {"time-11", 11}, {"time-12", 12}, {"time-13", 13}, {"time-14", 14}, {"time-15", 15},
    {"time-1", 1},
};

constexpr Word kSpaceWords[] = {
    {"bytes", 0}, {"byte", 0},
    {"KB", 1}, {"KiB", 1}, {"Kbytes", 1}, {"Kbyte", 1},
    {"Kibibytes", 1}, {"Kibibyte", 1}, {"Kilobytes", 1}, {"Kilobyte", 1},
    {"MB", 2}, {"MiB", 2}, {"Mbytes", 2}, {"Mbyte", 2},
    {"Mebibytes", 2}, {"Mebibyte", 2}, {"Megabytes", 2}, {"Megabyte", 2},
    {"GB", 3}, {"GiB", 3}, {"Gbytes", 3}, {"Gbyte", 3},
    {"Gibibytes", 3}, {"Gibibyte", 3}, {"Gigabytes", 3}, {"Gigabyte", 3},
    {"TB", 4}, {"TiB", 4}, {"Tbytes", 4}, {"Tbyte", 4},
    {"Tebibytes", 4}, {"Tebibyte", 4}, {"Terabytes", 4}, {"Terabyte", 4},
    {"PB", 5}, {"PiB", 5}, {"Pbytes", 5}, {"Pbyte", 5},
    {"Pebibytes", 5}, {"Pebibyte", 5}, {"Petabytes", 5}, {"Petabyte", 5},
    {"EB", 6}, {"EiB", 6}, {"Ebytes", 6}, {"Ebyte", 6},
    {"Exbibytes", 6}, {"Exbibyte", 6}, {"Exabytes", 6}, {"Exabyte", 6},
    {"ZB", 7}, {"ZiB", 7}, {"Zbytes", 7}, {"Zbyte", 7},
    {"Zebibytes", 7}, {"Zebibyte", 7}, {"Zettabytes", 7}, {"Zettabyte", 7},
    {"YB", 8}, {"YiB", 8}, {"Ybytes", 8}, {"Ybyte", 8},
    {"Yobibytes", 8}, {"Yobibyte", 8}, {"Yottabytes", 8}, {"Yottabyte", 8},
    {"space-0", 0}, {"space-2", 2}, {"space-3", 3}, {"space-4", 4}, {"space-5", 5},
    {"space-6", 6}, {"space-7", 7}, {"space-8", 8}, {"space-9", 9}, {"space-10", 10},
    {"space-11", 11}, {"space-12", 12}, {"space-13", 13}, {"space-14", 14}, {"space-15", 15},
    {"space-1", 1},
};

// There is deliberately no word for the bare "x 10^N" that UnitsStr prints
// for a count scale without a count dimension: PCP does not read it back.
constexpr Word kCountWords[] = {
    {"count x 10^-8", -8}, {"count x 10^-7", -7}, {"count x 10^-6", -6},
    {"count x 10^-5", -5}, {"count x 10^-4", -4}, {"count x 10^-3", -3},
    {"count x 10^-2", -2}, {"count x 10^-1", -1},
    {"count x 10^2", 2}, {"count x 10^3", 3}, {"count x 10^4", 4},
    {"count x 10^5", 5}, {"count x 10^6", 6}, {"count x 10^7", 7},
    {"count x 10", 1}, {"counts", 0}, {"count", 0},
};

// Powers up to 15 are accepted because UnitsStr writes a dimension of -8 as
// "/ unit^8"; the quotient is range-checked afterwards.
constexpr Word kPowerWords[] = {
    {"^-8", -8}, {"^-7", -7}, {"^-6", -6}, {"^-5", -5},
    {"^-4", -4}, {"^-3", -3}, {"^-2", -2}, {"^-1", -1},
    {"^0", 0}, {"^2", 2}, {"^3", 3}, {"^4", 4}, {"^5", 5}, {"^6", 6}, {"^7", 7},
    {"^8", 8}, {"^9", 9}, {"^10", 10}, {"^11", 11},
    {"^12", 12}, {"^13", 13}, {"^14", 14}, {"^15", 15},
    {"^1", 1},
};
// clang-format on

// Seconds per unit of each time scale that can be converted.
constexpr double kSecondsPerTimeScale[] = {0.000000001, 0.000001, 0.001, 1, 60, 3600};


// Whether a number (a strtod literal) may start with `c`.
bool StartsNumber(char c) { return c == '-' || c == '.' || (c >= '0' && c <= '9'); }

// Returns a PM_ERR_CONV status whose whole message is `message`.
absl::Status ConvError(std::string message) {
  return PcpErrorWithMessage(kErrConv, std::move(message));
}

// One side of the '/': dimensions and scales wider than PCP's 4-bit
// fields so that "/ byte^8" can be held before the quotient is checked.
struct Side {
  int dim_space = 0;
  int dim_time = 0;
  int dim_count = 0;
  int scale_space = 0;
  int scale_time = 0;
  int scale_count = 0;
  double multiplier = 1.0;
};

// The unread part of one side. `end` points at the '/' or the string's
// terminating NUL, so the text from `pos` is always NUL-terminated.
struct Cursor {
  const char* pos;
  const char* end;
};

// Returns whether the text at the cursor is `word` (ignoring ASCII case)
// followed by whitespace, '^' or the end of the side; if so, moves past it.
bool SkipWord(Cursor& c, std::string_view word) {
  if (static_cast<size_t>(c.end - c.pos) < word.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    if (absl::ascii_tolower(static_cast<unsigned char>(c.pos[i])) !=
        absl::ascii_tolower(static_cast<unsigned char>(word[i]))) {
      return false;
    }
  }
  const char* after = c.pos + word.size();
  if (after != c.end && !absl::ascii_isspace(*after) && *after != '^') return false;
  c.pos = after;
  return true;
}

// Returns the value of the first word of `table` at the cursor, moving past
// it, or nullopt (cursor unmoved) if none is there.
template <size_t N>
std::optional<int> SkipAnyWord(Cursor& c, const Word (&table)[N]) {
  for (const Word& w : table) {
    if (SkipWord(c, w.text)) return w.value;
  }
  return std::nullopt;
}

// Reads the power after a unit word: 1 if none follows, the power if a
// known one does, and otherwise 0 with the cursor left on the '^' (which
// then fails as an unknown word).
int ReadPower(Cursor& c) {
  if (c.pos == c.end || absl::ascii_isspace(*c.pos)) return 1;
  return SkipAnyWord(c, kPowerWords).value_or(0);
}

// Reads a number with strtod and multiplies it into `side`.
// REQUIRES: StartsNumber(*c.pos).
absl::Status ReadNumber(Cursor& c, Side& side) {
  char* next = nullptr;
  errno = 0;
  double value = std::strtod(c.pos, &next);
  if (errno != 0 || next == c.pos || next > c.end) {
    return ConvError("invalid floating point literal");
  }
  c.pos = next;
  side.multiplier *= value;
  return absl::OkStatus();
}

// Reads a unit word and its power into `side`. Each dimension is taken
// once; a word of a dimension already present is an error, except after a
// power of zero, which leaves the dimension free again.
absl::Status ReadUnit(Cursor& c, Side& side) {
  std::optional<int> scale;
  if (side.dim_time == 0 && (scale = SkipAnyWord(c, kTimeWords))) {
    side.scale_time = *scale;
    side.dim_time = ReadPower(c);
  } else if (side.dim_space == 0 && (scale = SkipAnyWord(c, kSpaceWords))) {
    side.scale_space = *scale;
    side.dim_space = ReadPower(c);
  } else if (side.dim_count == 0 && (scale = SkipAnyWord(c, kCountWords))) {
    side.scale_count = *scale;
    side.dim_count = ReadPower(c);
  } else {
    return ConvError("unrecognized or duplicate base unit");
  }
  return absl::OkStatus();
}

// Parses one side of the '/' from `begin` up to `end`.
// REQUIRES: *end is '/' or the NUL that ends the string.
absl::StatusOr<Side> ParseSide(const char* begin, const char* end) {
  Side side;
  Cursor c{begin, end};
  while (c.pos != c.end) {
    absl::Status status;
    if (absl::ascii_isspace(*c.pos)) {
      ++c.pos;
    } else if (StartsNumber(*c.pos)) {
      status = ReadNumber(c, side);
    } else {
      status = ReadUnit(c, side);
    }
    if (!status.ok()) return status;
  }
  return side;
}

// Returns the factor a scale stands for relative to the dimension's base
// unit, or nullopt if it has none.
using ScaleFactor = std::optional<double> (*)(int scale);

std::optional<double> SpaceFactor(int scale) {
  return std::pow(1024.0, static_cast<double>(scale));
}
std::optional<double> CountFactor(int scale) { return std::pow(10.0, static_cast<double>(scale)); }
std::optional<double> TimeFactor(int scale) {
  if (scale < kTimeNSec || scale > kTimeHour) return std::nullopt;
  return kSecondsPerTimeScale[scale];
}

// How one dimension of the quotient is scaled.
struct Dimension {
  int dividend_dim;
  int dividend_scale;
  int divisor_dim;
  int divisor_scale;
  int quotient_dim;
};

// Returns the quotient's scale for one dimension. If only one side has the
// dimension its scale is kept; otherwise both scales are folded into
// `multiplier` and the quotient uses `common` (or 0 if the dimension
// cancelled out).
absl::StatusOr<int> QuotientScale(const Dimension& d, ScaleFactor factor, int common,
                                  const char* name, double& multiplier) {
  if (d.dividend_dim == 0 && d.divisor_dim != 0) return d.divisor_scale;
  if (d.divisor_dim == 0 && d.dividend_dim != 0) return d.dividend_scale;
  std::optional<double> dividend_factor = factor(d.dividend_scale);
  std::optional<double> divisor_factor = factor(d.divisor_scale);
  if (!dividend_factor || !divisor_factor) {
    return ConvError(absl::StrCat(name, " scale out of bounds"));
  }
  multiplier *= std::pow(*dividend_factor, -static_cast<double>(d.dividend_dim));
  multiplier *= std::pow(*divisor_factor, static_cast<double>(d.divisor_dim));
  return d.quotient_dim == 0 ? 0 : common;
}

// Returns `a - b` if it fits a 4-bit signed field, else an error naming the
// dimension.
absl::StatusOr<int> QuotientDim(int a, int b, const char* name) {
  int dim = a - b;
  if (dim < -8 || dim > 7) return ConvError(absl::StrCat(name, " dimension out of bounds"));
  return dim;
}

// Returns dividend / divisor as units and multiplier.
absl::StatusOr<ParsedUnits> Quotient(const Side& a, const Side& b) {
  absl::StatusOr<int> ds = QuotientDim(a.dim_space, b.dim_space, "space");
  if (!ds.ok()) return ds.status();
  absl::StatusOr<int> dt = QuotientDim(a.dim_time, b.dim_time, "time");
  if (!dt.ok()) return dt.status();
  absl::StatusOr<int> dc = QuotientDim(a.dim_count, b.dim_count, "count");
  if (!dc.ok()) return dc.status();

  // Numbers in the dividend make the described unit larger, so they divide
  // the multiplier; numbers in the divisor multiply it. The scales are folded in space, count,
  // time order: the order fixes the rounding of the product.
  double multiplier = b.multiplier / a.multiplier;
  absl::StatusOr<int> ss =
      QuotientScale({a.dim_space, a.scale_space, b.dim_space, b.scale_space, *ds}, SpaceFactor,
                    kSpaceByte, "space", multiplier);
  if (!ss.ok()) return ss.status();
  absl::StatusOr<int> sc =
      QuotientScale({a.dim_count, a.scale_count, b.dim_count, b.scale_count, *dc}, CountFactor,
                    kCountOne, "count", multiplier);
  if (!sc.ok()) return sc.status();
  absl::StatusOr<int> st = QuotientScale({a.dim_time, a.scale_time, b.dim_time, b.scale_time, *dt},
                                         TimeFactor, kTimeSec, "time", multiplier);
  if (!st.ok()) return st.status();

  ParsedUnits out;
  out.units.dim_space = static_cast<int8_t>(*ds);
  out.units.dim_time = static_cast<int8_t>(*dt);
  out.units.dim_count = static_cast<int8_t>(*dc);
  out.units.scale_space = static_cast<uint8_t>(*ss);
  out.units.scale_time = static_cast<uint8_t>(*st);
  out.units.scale_count = static_cast<int8_t>(*sc);
  out.multiplier = multiplier;
  return out;
}

}  // namespace

std::string UnitsStr(const Units& u) {
  const int ds = SignedNibble(u.dim_space);
  const int dt = SignedNibble(u.dim_time);
  const int dc = SignedNibble(u.dim_count);
  const int ss = u.scale_space & 0xf;
  const int st = u.scale_time & 0xf;
  const int sc = SignedNibble(u.scale_count);

  std::string out;
  if (ds > 0) AppendTerm(out, SpaceName(ss), ds);
  if (dt > 0) AppendTerm(out, TimeName(st), dt);
  if (dc > 0) AppendTerm(out, CountName(sc), dc);
  if (ds < 0 || dt < 0 || dc < 0) {
    out += "/ ";
    if (ds < 0) AppendTerm(out, SpaceName(ss), -ds);
    if (dt < 0) AppendTerm(out, TimeName(st), -dt);
    if (dc < 0) AppendTerm(out, CountName(sc), -dc);
  }
  if (!out.empty()) {
    out.pop_back();  // the space after the last term
    return out;
  }
  // Dimensionless: only a count scale shows, without the word "count".
  if (sc == 0) return out;
  if (sc == 1) return "x 10";
  return absl::StrCat("x 10^", sc);
}

absl::StatusOr<ParsedUnits> ParseUnitsStr(std::string_view text) {
  // The C interface sees the text up to its first NUL, and strtod needs the
  // terminator, so work on a NUL-terminated copy of that much.
  const std::string copy(text.substr(0, text.find('\0')));
  const char* begin = copy.c_str();
  const char* end = begin + copy.size();
  const size_t slash_at = copy.find('/');
  const char* slash = slash_at == std::string::npos ? end : begin + slash_at;

  absl::StatusOr<Side> dividend = ParseSide(begin, slash);
  if (!dividend.ok()) return dividend.status();
  Side divisor;
  if (slash != end) {
    absl::StatusOr<Side> parsed = ParseSide(slash + 1, end);
    if (!parsed.ok()) return parsed.status();
    divisor = *parsed;
  }
  return Quotient(*dividend, divisor);
}

}  // namespace pmapi
