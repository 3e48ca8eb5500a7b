// events_format.h: the byte layout of PCP's packed event-record arrays, as
// they sit in a value block (host byte order):
//
//   array:      type:8|len:24 (the value block header)  nrecords:4  records...
//   record:     sec:4 usec:4  flags:4 nparams:4  parameters...   (EVENT)
//               sec:8 nsec:8  flags:4 nparams:4  parameters...   (HIGHRES_EVENT)
//   parameter:  pmid:4 type:8|len:24 value, padded to 4 bytes
//               (len counts the type/len word and the value, not the padding)
//
// A "missed" record has flags PM_EVENT_FLAG_MISSED only and nparams holds
// the number of records lost; it has no parameters.
//
// Example:
//   size_t header = pmapi::events_format::RecordHeaderBytes(/*highres=*/false);  // 16
#ifndef PMAPI_SRC_EVENTS_FORMAT_H_
#define PMAPI_SRC_EVENTS_FORMAT_H_

#include <cstddef>
#include <cstdint>

namespace pmapi::events_format {

// The block header word and the record count before the first record.
inline constexpr size_t kArrayHeaderBytes = 8;
// pmid and type/len before a parameter's value.
inline constexpr size_t kParamHeaderBytes = 8;

// Returns the bytes of a record before its parameters.
inline constexpr size_t RecordHeaderBytes(bool highres) { return highres ? 24 : 16; }
// Returns where a record's flags sit within it (nparams follows).
inline constexpr size_t RecordFlagsOffset(bool highres) { return highres ? 16 : 8; }
// Returns `n` rounded up to a multiple of 4 (PM_PDU_SIZE_BYTES).
inline constexpr size_t Padded(size_t n) { return (n + 3) & ~size_t{3}; }
// Returns the header word of a block or parameter.
inline constexpr uint32_t TypeLenWord(int type, uint32_t len) {
  return (static_cast<uint32_t>(type) << 24) | (len & 0x00ffffffu);
}

}  // namespace pmapi::events_format

#endif  // PMAPI_SRC_EVENTS_FORMAT_H_
