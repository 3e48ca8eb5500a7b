// event_array.h: decoding the packed event record arrays carried by
// PM_TYPE_EVENT and PM_TYPE_HIGHRES_EVENT values (in wire byte order).
//
//   nrecords:4, then per record
//     timestamp (EVENT: sec:4 usec:4; HIGHRES_EVENT: sec:8 nsec:8)
//     flags:4 nparams:4
//     nparams x (pmid:4 type:8|len:24 value[len-4] padded to 4)
//   A record flagged MISSED has no parameters; nparams is the count missed.
//
// Example:
//   auto records = DecodeEventArray(value.payload, /*highres=*/false);
#ifndef PMAPI_TOOLS_PMDUMPLOG_EVENT_ARRAY_H_
#define PMAPI_TOOLS_PMDUMPLOG_EVENT_ARRAY_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "pmapi/archive.h"

namespace pmdumplog {

struct EventParam {
  pmapi::PmID pmid = 0;
  int type = 0;
  std::span<const uint8_t> value;  // host order, without padding
};

struct EventRecord {
  pmapi::ArchiveTime stamp;
  uint32_t flags = 0;
  int32_t nparams = 0;
  std::vector<EventParam> params;
};

// Decodes an event array payload (the bytes after the value block header).
// Returns PcpError(PM_ERR_LOGREC) if a count or length does not fit.
absl::StatusOr<std::vector<EventRecord>> DecodeEventArray(std::span<const uint8_t> payload,
                                                          bool highres);

}  // namespace pmdumplog

#endif  // PMAPI_TOOLS_PMDUMPLOG_EVENT_ARRAY_H_
