// result_codec.h: the one decoder (and encoder) of PCP's pmResult encoding,
// used for archive data records and for RESULT / HIGHRES_RESULT PDUs.
//
// Both carriers hold the same thing after a 12-byte header (a real PDU
// header on the wire; in an archive a virtual one that ends with the
// record's leading length word):
//
//   timestamp, numpmid:4, numpmid value sets, then the value blocks
//   value set:  pmid:4 numval:4 [valfmt:4 numval x (inst:4 value:4)]
//               (no valfmt word when numval <= 0; numval < 0 is an error code)
//   value:      the 32-bit value itself (PM_VAL_INSITU), or the offset, in
//               32-bit words from the start of the (virtual) PDU, of a value
//               block  vtype:8|vlen:24 payload  (vlen counts the header word,
//               not the padding to 4 bytes)
//
// The timestamp is laid out according to ResultLayout. `body` below is
// everything after the 12-byte header, so a block's byte offset within body
// is 4*offset - 12.
//
// Example:
//   pmapi::Result r;
//   absl::Status s = pmapi::DecodeResult(body, pmapi::ResultLayout::kTimestamp,
//                                        pmapi::kErrLogrec, &r);
#ifndef PMAPI_SRC_RESULT_CODEC_H_
#define PMAPI_SRC_RESULT_CODEC_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "pmapi/result.h"

namespace pmapi {

enum class ResultLayout {
  kTimeval,    // sec:4 usec:4 numpmid:4      (v2 archives, RESULT PDU)
  kTimestamp,  // sec:8 nsec:4 numpmid:4      (v3 archives)
  kHighRes,    // numpmid:4 sec:8 nsec:8      (HIGHRES_RESULT PDU)
};

// Bytes of the (virtual) PDU header that precedes `body`.
inline constexpr size_t kResultHeaderBytes = 12;

// Decodes `body` into *out (which is cleared first, keeping its capacity).
// Returns OK, or PcpError(error_code) if any count, length or offset does
// not fit in body; *out is then unspecified. Numbers in value blocks are
// converted to host byte order, and so are the fields of EVENT and
// HIGHRES_EVENT arrays (counts, timestamps, flags, parameter headers and
// numeric parameter values), as pmapi/events.h expects them.
absl::Status DecodeResult(std::span<const uint8_t> body, ResultLayout layout, int error_code,
                          Result* out);

// As DecodeResult, but only the value sets of the PMIDs in `keep` are
// decoded; every other set is checked for framing and kept as an empty
// set (numval 0) of its PMID, so numpmid() and is_mark() are unchanged.
// An empty `keep` decodes everything. REQUIRES: `keep` is sorted.
absl::Status DecodeResultOnly(std::span<const uint8_t> body, ResultLayout layout, int error_code,
                              std::span<const PmID> keep, Result* out);

// Returns the encoding of `r` in `layout` (the inverse of DecodeResult).
// Values are INSITU or DPTR according to each set's valfmt; blocks are
// written after all the value sets, padded to 4 bytes.
std::vector<uint8_t> EncodeResult(const Result& r, ResultLayout layout);

// Returns the bytes a value block of `vlen` takes on disk or on the wire
// (vlen rounded up to a multiple of 4).
inline constexpr uint32_t PaddedBlockBytes(uint32_t vlen) { return (vlen + 3) & ~3u; }

}  // namespace pmapi

#endif  // PMAPI_SRC_RESULT_CODEC_H_
