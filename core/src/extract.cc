// Value extraction and unit rescaling, with PCP's conversion rules.
#include "pmapi/extract.h"

#include <cstdint>
#include <cstring>
#include <limits>

#include "pmapi/errors.h"

namespace pmapi {
namespace {

constexpr double kTwo31 = 2147483648.0;
constexpr double kTwo63 = 9223372036854775808.0;
constexpr double kTwo64 = 18446744073709551616.0;

AtomValue Int32Atom(int32_t v) {
  AtomValue a;
  a.l = v;
  return a;
}
AtomValue Uint32Atom(uint32_t v) {
  AtomValue a;
  a.ul = v;
  return a;
}
AtomValue Int64Atom(int64_t v) {
  AtomValue a;
  a.ll = v;
  return a;
}
AtomValue Uint64Atom(uint64_t v) {
  AtomValue a;
  a.ull = v;
  return a;
}
AtomValue FloatAtom(float v) {
  AtomValue a;
  a.f = v;
  return a;
}
AtomValue DoubleAtom(double v) {
  AtomValue a;
  a.d = v;
  return a;
}

// Returns what x86-64's truncating conversion to a 64-bit integer gives:
// `d` rounded toward zero, or INT64_MIN (the "integer indefinite" value)
// for a NaN or a value outside the int64 range. PCP leaves these cases to
// the hardware, so its results are these.
int64_t TruncToInt64(double d) {
  if (!(d >= -kTwo63 && d < kTwo63)) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(d);
}

// As TruncToInt64, for a 32-bit integer result.
int32_t TruncToInt32(double d) {
  if (!(d > -kTwo31 - 1.0 && d < kTwo31)) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(d);
}

// Returns `d` as the compiler PCP is built with converts a double to a
// uint64 on x86-64: values below 2^63, and NaN (the comparison is
// unordered), take the signed conversion; the rest are offset by 2^63.
uint64_t TruncToUint64(double d) {
  if (!(d >= kTwo63)) return static_cast<uint64_t>(TruncToInt64(d));
  return static_cast<uint64_t>(TruncToInt64(d - kTwo63)) ^ (uint64_t{1} << 63);
}

// Returns a signed integer value (32 or 64 bits wide at the source)
// converted to `otype`.
absl::StatusOr<AtomValue> ConvertSigned(int64_t src, int otype) {
  switch (otype) {
    case kType32:
      // PCP checks only the upper bound; lower values wrap.
      if (src > std::numeric_limits<int32_t>::max()) return PcpError(kErrTrunc);
      return Int32Atom(static_cast<int32_t>(src));
    case kTypeU32:
      if (src > std::numeric_limits<uint32_t>::max()) return PcpError(kErrTrunc);
      if (src < 0) return PcpError(kErrSign);
      return Uint32Atom(static_cast<uint32_t>(src));
    case kType64:
      return Int64Atom(src);
    case kTypeU64:
      if (src < 0) return PcpError(kErrSign);
      return Uint64Atom(static_cast<uint64_t>(src));
    case kTypeFloat:
      return FloatAtom(static_cast<float>(src));
    case kTypeDouble:
      return DoubleAtom(static_cast<double>(src));
    default:
      return PcpError(kErrConv);
  }
}

// Returns an unsigned integer value (32 or 64 bits wide at the source)
// converted to `otype`.
absl::StatusOr<AtomValue> ConvertUnsigned(uint64_t src, int otype) {
  switch (otype) {
    case kType32:
      if (src > static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) {
        return PcpError(kErrTrunc);
      }
      return Int32Atom(static_cast<int32_t>(src));
    case kTypeU32:
      if (src > std::numeric_limits<uint32_t>::max()) return PcpError(kErrTrunc);
      return Uint32Atom(static_cast<uint32_t>(src));
    case kType64:
      if (src > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return PcpError(kErrTrunc);
      }
      return Int64Atom(static_cast<int64_t>(src));
    case kTypeU64:
      return Uint64Atom(src);
    case kTypeFloat:
      return FloatAtom(static_cast<float>(src));
    case kTypeDouble:
      return DoubleAtom(static_cast<double>(src));
    default:
      return PcpError(kErrConv);
  }
}

// Returns a floating value converted to `otype`. PCP's limits for a FLOAT
// source are the float roundings of INT32_MAX and UINT32_MAX (2^31, 2^32);
// no float lies between those and the double limits used here, so one
// function serves both sources. Values below the int64 range are not
// checked by PCP and convert as the hardware does.
absl::StatusOr<AtomValue> ConvertReal(double src, int otype) {
  switch (otype) {
    case kType32:
      if ((src < 0 ? -src : src) >= 2147483647.0) return PcpError(kErrTrunc);
      return Int32Atom(TruncToInt32(src));
    case kTypeU32:
      if (src >= 4294967295.0) return PcpError(kErrTrunc);
      if (src < 0) return PcpError(kErrSign);
      // a 64-bit conversion keeps its low half, as PCP's compiled code does
      return Uint32Atom(static_cast<uint32_t>(TruncToInt64(src)));
    case kType64:
      if (src >= kTwo63) return PcpError(kErrTrunc);
      return Int64Atom(TruncToInt64(src));
    case kTypeU64:
      if (src >= kTwo64) return PcpError(kErrTrunc);
      if (src < 0) return PcpError(kErrSign);
      return Uint64Atom(TruncToUint64(src));
    case kTypeFloat:
      return FloatAtom(static_cast<float>(src));
    case kTypeDouble:
      return DoubleAtom(src);
    default:
      return PcpError(kErrConv);
  }
}

// Returns a FLOAT value converted to `otype`; FLOAT to FLOAT keeps the
// bits exactly (a signalling NaN stays one).
absl::StatusOr<AtomValue> ConvertFloat(float src, int otype) {
  if (otype == kTypeFloat) return FloatAtom(src);
  return ConvertReal(static_cast<double>(src), otype);
}

// Returns the in-place value `lval` read as `itype`, converted to `otype`.
absl::StatusOr<AtomValue> ExtractInsitu(int32_t lval, int itype, int otype) {
  switch (itype) {
    case kType32:
    case kTypeUnknown:
      return ConvertSigned(lval, otype);
    case kTypeU32:
      return ConvertUnsigned(static_cast<uint32_t>(lval), otype);
    case kTypeFloat: {
      // an old encoding: the float's bits in place of the integer
      float f;
      std::memcpy(&f, &lval, sizeof f);
      return ConvertFloat(f, otype);
    }
    default:
      return PcpError(kErrConv);
  }
}

// Copies a number of type T out of `payload`. REQUIRES: payload.size() ==
// sizeof(T).
template <typename T>
T ReadPayload(std::span<const uint8_t> payload) {
  T value;
  std::memcpy(&value, payload.data(), sizeof value);
  return value;
}

// Returns the value block's numeric payload read as `itype`, converted to
// `otype`. A payload of any size but the type's own is PM_ERR_CONV, which
// is also how every short payload is refused before it is read.
absl::StatusOr<AtomValue> ExtractNumberBlock(std::span<const uint8_t> payload, int itype,
                                             int otype) {
  switch (itype) {
    case kType64:
      if (payload.size() != sizeof(int64_t)) return PcpError(kErrConv);
      return ConvertSigned(ReadPayload<int64_t>(payload), otype);
    case kTypeU64:
      if (payload.size() != sizeof(uint64_t)) return PcpError(kErrConv);
      return ConvertUnsigned(ReadPayload<uint64_t>(payload), otype);
    case kTypeDouble:
      if (payload.size() != sizeof(double)) return PcpError(kErrConv);
      return ConvertReal(ReadPayload<double>(payload), otype);
    case kTypeFloat:
      if (payload.size() != sizeof(float)) return PcpError(kErrConv);
      return ConvertFloat(ReadPayload<float>(payload), otype);
    default:
      return PcpError(kErrConv);
  }
}

// Returns the value block `v` read as `itype`, converted to `otype`.
absl::StatusOr<AtomValue> ExtractBlock(const ValueView& v, int itype, int otype) {
  // A larger payload cannot come from a real block; PCP has no code for
  // it, so it is refused as a conversion PCP cannot make.
  if (v.payload.size() > kValVlenMax - kValHdrSize) return PcpError(kErrConv);
  // PCP accepts a block whose vtype is 0 as being of any type.
  if (v.vtype != itype && v.vtype != 0) return PcpError(kErrConv);
  if (itype == kTypeString || itype == kTypeAggregate) {
    if (otype != itype) return PcpError(kErrConv);
    AtomValue a;
    a.bytes.assign(reinterpret_cast<const char*>(v.payload.data()), v.payload.size());
    // PCP hands back a C string: the text ends at the first NUL.
    if (itype == kTypeString) a.bytes = a.bytes.substr(0, a.bytes.find('\0'));
    return a;
  }
  return ExtractNumberBlock(v.payload, itype, otype);
}

// A scale factor as PCP forms it: value * mult / div, each product taken
// modulo 2^64 (PCP multiplies in int64 without overflow checks, and its
// results are the wrapped ones).
struct ScaleFactor {
  uint64_t mult = 1;
  uint64_t div = 1;
};

// The size of one unit of some scale relative to the dimension's canonical
// unit (Mbyte, second, count x 10^0), as PCP writes it: a multiplier and a
// divisor, one of which is 1.
struct ScaleRatio {
  uint64_t m = 1;
  uint64_t d = 1;
};

uint64_t Power(uint64_t base, int exponent) {
  uint64_t r = 1;
  for (int i = 0; i < exponent; ++i) r *= base;
  return r;
}

// Returns the ratio for a space scale; PM_ERR_UNIT past EBYTE (PCP does not
// convert ZBYTE or YBYTE).
absl::StatusOr<ScaleRatio> SpaceRatio(int scale) {
  if (scale > kSpaceEByte) return PcpError(kErrUnit);
  if (scale < kSpaceMByte) return ScaleRatio{1, Power(1024, kSpaceMByte - scale)};
  return ScaleRatio{Power(1024, scale - kSpaceMByte), 1};
}

// Returns the ratio for a time scale; PM_ERR_UNIT past HOUR.
absl::StatusOr<ScaleRatio> TimeRatio(int scale) {
  switch (scale) {
    case kTimeNSec: return ScaleRatio{1, 1000000000};
    case kTimeUSec: return ScaleRatio{1, 1000000};
    case kTimeMSec: return ScaleRatio{1, 1000};
    case kTimeSec: return ScaleRatio{1, 1};
    case kTimeMin: return ScaleRatio{60, 1};
    case kTimeHour: return ScaleRatio{3600, 1};
    default: return PcpError(kErrUnit);
  }
}

// Returns the ratio for a count scale (a power of ten).
ScaleRatio CountRatio(int scale) {
  if (scale < 0) return ScaleRatio{1, Power(10, -scale)};
  return ScaleRatio{Power(10, scale), 1};
}

// Folds one dimension into `f`: from-scale `in` and to-scale `out` give a
// multiplier and divisor, raised to the dimension's power (a negative
// power swaps their roles). The products are kept unreduced, as PCP keeps
// them, because their wrapping must match.
void FoldDimension(ScaleFactor& f, ScaleRatio in, ScaleRatio out, int dim) {
  uint64_t m = in.m * out.d;
  uint64_t d = in.d * out.m;
  if (dim > 0) {
    f.mult *= Power(m, dim);
    f.div *= Power(d, dim);
  } else {
    f.mult *= Power(d, -dim);
    f.div *= Power(m, -dim);
  }
}

// Returns PCP's factor between units `in` and `out`, which have the same
// dimensions. PM_ERR_UNIT for a scale PCP does not know.
absl::StatusOr<ScaleFactor> FactorBetween(const Units& in, const Units& out) {
  ScaleFactor f;
  if (in.dim_space != 0) {
    absl::StatusOr<ScaleRatio> from = SpaceRatio(in.scale_space);
    if (!from.ok()) return from.status();
    absl::StatusOr<ScaleRatio> to = SpaceRatio(out.scale_space);
    if (!to.ok()) return to.status();
    FoldDimension(f, *from, *to, in.dim_space);
  }
  if (in.dim_time != 0) {
    absl::StatusOr<ScaleRatio> from = TimeRatio(in.scale_time);
    if (!from.ok()) return from.status();
    absl::StatusOr<ScaleRatio> to = TimeRatio(out.scale_time);
    if (!to.ok()) return to.status();
    FoldDimension(f, *from, *to, in.dim_time);
  }
  // A dimensionless value still carries a count scale ("x 10^6").
  if (in.dim_count != 0 || (in.dim_space == 0 && in.dim_time == 0)) {
    int dim = in.dim_count != 0 ? in.dim_count : 1;
    FoldDimension(f, CountRatio(in.scale_count), CountRatio(out.scale_count), dim);
  }
  return f;
}

// Returns x * mult + div / 2, divided by div, in wrapping int64 arithmetic.
// REQUIRES: div is neither 0 nor -1.
int64_t ScaleSigned(int64_t x, int64_t mult, int64_t div) {
  uint64_t n = static_cast<uint64_t>(x) * static_cast<uint64_t>(mult) +
               static_cast<uint64_t>(div / 2);
  return static_cast<int64_t>(n) / div;
}

// Returns `in` of `type` multiplied by mult / div as PCP does per type.
// REQUIRES: div is neither 0 nor -1.
absl::StatusOr<AtomValue> ApplyFactor(int type, const AtomValue& in, int64_t mult, int64_t div) {
  switch (type) {
    case kType32:
      return Int32Atom(static_cast<int32_t>(ScaleSigned(in.l, mult, div)));
    case kTypeU32:
      return Uint32Atom(static_cast<uint32_t>(ScaleSigned(in.ul, mult, div)));
    case kType64:
      return Int64Atom(ScaleSigned(in.ll, mult, div));
    case kTypeU64:
      // C's usual conversions make this arithmetic unsigned throughout
      return Uint64Atom((in.ull * static_cast<uint64_t>(mult) + static_cast<uint64_t>(div / 2)) /
                        static_cast<uint64_t>(div));
    case kTypeFloat:
      return FloatAtom(in.f * (static_cast<float>(mult) / static_cast<float>(div)));
    case kTypeDouble:
      return DoubleAtom(in.d * (static_cast<double>(mult) / static_cast<double>(div)));
    default:
      return PcpError(kErrConv);
  }
}

}  // namespace

absl::StatusOr<AtomValue> ExtractValue(int valfmt, const ValueView& v, int itype, int otype) {
  if (valfmt == kValInsitu) return ExtractInsitu(v.lval, itype, otype);
  if (valfmt == kValDptr || valfmt == kValSptr) return ExtractBlock(v, itype, otype);
  return PcpError(kErrConv);
}

absl::StatusOr<AtomValue> ConvScale(int type, const AtomValue& in, const Units& iunit,
                                    const Units& ounit) {
  // PCP's units are 4-bit fields; read ours the same way.
  Units from = UnpackUnits(PackUnits(iunit));
  Units to = UnpackUnits(PackUnits(ounit));
  // Dimension "none" converts as "count" (pmConvScale's special case).
  for (Units* u : {&from, &to}) {
    if (u->dim_space == 0 && u->dim_time == 0 && u->dim_count == 0) u->dim_count = 1;
  }
  if (from.dim_space != to.dim_space || from.dim_time != to.dim_time ||
      from.dim_count != to.dim_count) {
    return PcpError(kErrConv);
  }
  absl::StatusOr<ScaleFactor> f = FactorBetween(from, to);
  if (!f.ok()) return f.status();
  int64_t mult = static_cast<int64_t>(f->mult);
  int64_t div = static_cast<int64_t>(f->div);
  // PCP divides by these without a check and traps (SIGFPE) when the
  // factors have overflowed to a zero divisor or the one quotient that
  // overflows; here that is a conversion that cannot be made.
  if (div == 0 || (div == -1 && mult == std::numeric_limits<int64_t>::min())) {
    return PcpError(kErrConv);
  }
  if (mult % div == 0) {
    mult /= div;
    div = 1;
  }
  return ApplyFactor(type, in, mult, div);
}

}  // namespace pmapi
