// pmapi/extract.h: reading one metric value in a chosen type, and rescaling
// a value from one set of units to another.
//
// ExtractValue is PCP's pmExtractValue: it reads a pmValue (in place or
// through a value block), interprets it as the metric's type and converts
// it to the type the caller asks for, with PCP's rules for loss of sign,
// truncation and precision. ConvScale is PCP's pmConvScale: it multiplies a
// value by the factor between two units of the same dimensions, with PCP's
// integer rounding. Both report failures with PCP's own codes.
//
// Example:
//   pmapi::ValueView v;
//   v.lval = 1536;                                   // a PM_TYPE_U32, in place
//   auto d = pmapi::ExtractValue(pmapi::kValInsitu, v, pmapi::kTypeU32,
//                                pmapi::kTypeDouble);
//   if (!d.ok()) return d.status();                  // PM_ERR_CONV, ...
//   pmapi::Units kb{1, 0, 0, pmapi::kSpaceKByte, 0, 0};
//   pmapi::Units mb{1, 0, 0, pmapi::kSpaceMByte, 0, 0};
//   auto m = pmapi::ConvScale(pmapi::kTypeDouble, *d, kb, mb);  // m->d == 1.5
#ifndef PMAPI_EXTRACT_H_
#define PMAPI_EXTRACT_H_

#include "absl/status/statusor.h"
#include "pmapi/types.h"

namespace pmapi {

// Returns the value `v` holds, read as type `itype` and converted to type
// `otype`, as pmExtractValue does:
//  - valfmt kValInsitu: v.lval is the value, for itype 32, U32, UNKNOWN
//    (read as 32) or FLOAT (the bits of a float);
//  - valfmt kValDptr or kValSptr: v.payload is the value block's payload
//    (numbers in host byte order) and v.vtype its type, which must be
//    `itype` or 0; 64-bit and DOUBLE payloads must be exactly 8 bytes and
//    FLOAT payloads exactly 4;
//  - a STRING result holds the payload's bytes up to the first NUL; an
//    AGGREGATE result holds the whole payload (PCP copies the block; the
//    block's header is vtype and payload size + 4).
// Errors carry PCP's codes: PM_ERR_SIGN for a negative value into an
// unsigned type, PM_ERR_TRUNC for a value too large for `otype`, and
// PM_ERR_CONV for every conversion PCP does not make (any EVENT or
// HIGHRES_EVENT type, numbers to or from STRING/AGGREGATE, an unknown
// valfmt or type, a payload of the wrong size or vtype). A payload larger
// than a value block can describe (24-bit length) is also PM_ERR_CONV.
// Out-of-range floating conversions PCP leaves to the hardware give the
// same values PCP gives on x86-64 (a NaN into 64 bits is INT64_MIN).
// REQUIRES: v.payload stays valid for the call.
absl::StatusOr<AtomValue> ExtractValue(int valfmt, const ValueView& v, int itype, int otype);

// Returns `in` (of type `type`, one of 32, U32, 64, U64, FLOAT, DOUBLE)
// converted from units `iunit` to units `ounit`, as pmConvScale does:
// integer types are multiplied, have half the divisor added and are divided
// (truncating toward zero) in wrapping 64-bit integers, so positive values
// round half up; FLOAT and DOUBLE are multiplied by the ratio of the two
// factors in their own precision. The units are read as PCP's 4-bit fields.
// Errors: PM_ERR_CONV if the dimensions differ or the type is not numeric,
// PM_ERR_UNIT for a space scale above EBYTE or a time scale above HOUR
// (checked only for a dimension in use). Where PCP's 64-bit scale factors
// overflow to a zero divisor PCP traps (SIGFPE); this returns PM_ERR_CONV.
absl::StatusOr<AtomValue> ConvScale(int type, const AtomValue& in, const Units& iunit,
                                    const Units& ounit);

}  // namespace pmapi

#endif  // PMAPI_EXTRACT_H_
