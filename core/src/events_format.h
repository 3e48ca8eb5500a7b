// events_format.h: the byte layout of PCP's packed event-record arrays, and
// the one reader of it.
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
// EventArrayReader reads the fields of a payload (the bytes after the block
// header) at given offsets, each read checked against the payload's end.
// Where the next record or parameter starts, and what a short or odd array
// means, is left to its callers: they reproduce different PCP routines,
// which do not agree on these.
//
// Example:
//   pmapi::events_format::EventArrayReader r(payload, /*highres=*/false);
//   int32_t nrecords;
//   pmapi::events_format::RecordHead head;
//   if (r.Count(&nrecords) && nrecords > 0 && r.Record(r.FirstRecord(), &head)) ...
#ifndef PMAPI_SRC_EVENTS_FORMAT_H_
#define PMAPI_SRC_EVENTS_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <span>

namespace pmapi::events_format {

// The type/len word of a block or parameter.
inline constexpr uint32_t kTypeLenBytes = 4;
// The record count, after the block header word.
inline constexpr size_t kCountBytes = 4;
// The block header word and the record count before the first record.
inline constexpr size_t kArrayHeaderBytes = kTypeLenBytes + kCountBytes;
// Where a parameter's type/len word sits, after its pmid.
inline constexpr size_t kParamTypeLenOffset = 4;
// pmid and type/len before a parameter's value.
inline constexpr size_t kParamHeaderBytes = kParamTypeLenOffset + kTypeLenBytes;

// Returns the bytes of a record's timestamp.
inline constexpr size_t StampBytes(bool highres) { return highres ? 16 : 8; }
// Returns where a record's second timestamp field (usec or nsec) sits.
inline constexpr size_t RecordFracOffset(bool highres) { return highres ? 8 : 4; }
// Returns where a record's flags sit within it.
inline constexpr size_t RecordFlagsOffset(bool highres) { return StampBytes(highres); }
// Returns where a record's parameter count sits within it.
inline constexpr size_t RecordNparamsOffset(bool highres) { return RecordFlagsOffset(highres) + 4; }
// Returns the bytes of a record before its parameters.
inline constexpr size_t RecordHeaderBytes(bool highres) { return RecordNparamsOffset(highres) + 4; }
// Returns `n` rounded up to a multiple of 4 (PM_PDU_SIZE_BYTES).
inline constexpr size_t Padded(size_t n) { return (n + 3) & ~size_t{3}; }
// Returns the header word of a block or parameter.
inline constexpr uint32_t TypeLenWord(int type, uint32_t len) {
  return (static_cast<uint32_t>(type) << 24) | (len & 0x00ffffffu);
}

// A record's timestamp: seconds, and microseconds (EVENT) or nanoseconds
// (HIGHRES_EVENT), as stored.
struct Stamp {
  int64_t sec = 0;
  int64_t frac = 0;
};

struct RecordHead {
  Stamp stamp;
  uint32_t flags = 0;
  int32_t nparams = 0;  // the records lost, for a missed record
};

struct ParamHead {
  uint32_t pmid = 0;
  int type = 0;
  uint32_t len = 0;  // from the type/len word: that word and the value

  // Returns the bytes from the parameter's start to the next one as PCP
  // steps: the pmid and `len` padded, whatever `len` holds.
  size_t Step() const { return kParamTypeLenOffset + Padded(len); }
  // Returns where the value starts, for a parameter at `at`.
  static size_t ValueAt(size_t at) { return at + kParamHeaderBytes; }
};

// The order of the numbers in an array: the host's (as the library keeps
// values) or PCP's wire and disk order (big-endian).
enum class ByteOrder { kHost, kWire };

// Reads the fields of an array's payload at given offsets; see the top of
// this file. The payload must outlive the reader.
class EventArrayReader {
 public:
  EventArrayReader(std::span<const uint8_t> payload, bool highres, ByteOrder order = ByteOrder::kHost)
      : bytes_(payload), highres_(highres), order_(order) {}

  size_t size() const { return bytes_.size(); }
  bool highres() const { return highres_; }
  // Returns the offset of the first record.
  static constexpr size_t FirstRecord() { return kCountBytes; }
  size_t RecordHeaderBytes() const { return events_format::RecordHeaderBytes(highres_); }

  // True when `n` bytes from `at` lie inside the payload.
  bool Has(size_t at, size_t n) const { return at <= bytes_.size() && bytes_.size() - at >= n; }
  // Returns the `n` bytes at `at`. REQUIRES: Has(at, n).
  std::span<const uint8_t> Bytes(size_t at, size_t n) const { return bytes_.subspan(at, n); }

  // The reads below return false, leaving *out alone, when what they read
  // does not lie wholly inside the payload.

  // The record count.
  bool Count(int32_t* out) const { return Int32(0, out); }
  // The timestamp of the record at `at` (the rest of the record may lie
  // past the end).
  bool RecordStamp(size_t at, Stamp* out) const;
  // The header of the record at `at`.
  bool Record(size_t at, RecordHead* out) const;
  // The pmid and type/len word of the parameter at `at`.
  bool Param(size_t at, ParamHead* out) const;
  // A 32-bit number at `at`.
  bool Int32(size_t at, int32_t* out) const;

 private:
  uint32_t Load32(size_t at) const;  // REQUIRES: Has(at, 4)
  uint64_t Load64(size_t at) const;  // REQUIRES: Has(at, 8)

  std::span<const uint8_t> bytes_;
  bool highres_;
  ByteOrder order_;
};

}  // namespace pmapi::events_format

#endif  // PMAPI_SRC_EVENTS_FORMAT_H_
