// pmapi/events.h: packed arrays of event records (PM_TYPE_EVENT and
// PM_TYPE_HIGHRES_EVENT values), built by an agent and unpacked by a client.
//
// An agent fills an array record by record (pmdaEventNewArray and
// friends: EventArrays below) and hands its bytes out as the value block
// of an event metric. A client turns such a value back into one Result per
// record (pmUnpackEventRecords), where the record's flags and missed count
// appear as the pseudo-metrics event.flags and event.missed. Byte layouts
// are PCP's in-memory ones, in host byte order (docs/pmda-cache.md has the
// picture).
//
// Example:
//   #include "pmapi/strings.h"           // the flags: kEventFlagPoint ...
//   pmapi::EventArrays arrays;
//   int a = arrays.NewArray();
//   absl::Status s = arrays.AddRecord(a, 1700000000, 0, pmapi::kEventFlagPoint);
//   pmapi::AtomValue v; v.l = 42;
//   if (s.ok()) s = arrays.AddParam(a, pmapi::MakePmID(245, 0, 1), pmapi::kType32, v);
//   if (!s.ok()) return s;
//   absl::StatusOr<std::span<const uint8_t>> block = arrays.GetAddr(a);
//   if (!block.ok()) return block.status();
//
//   pmapi::ValueView view;              // a client's view of that value
//   view.vtype = pmapi::kTypeEvent;
//   view.payload = block->subspan(4);
//   absl::StatusOr<std::vector<pmapi::Result>> records = pmapi::UnpackEventRecords(view);
#ifndef PMAPI_EVENTS_H_
#define PMAPI_EVENTS_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pmapi/result.h"
#include "pmapi/timespec.h"
#include "pmapi/types.h"

namespace pmapi {

// The pseudo-metrics an unpacked record carries: event.flags (the record's
// flags, when not zero) and event.missed (the count of a "missed" record).
inline constexpr PmID kEventFlagsPmid = MakePmID(511, 0, 1);
inline constexpr PmID kEventMissedPmid = MakePmID(511, 0, 2);

// The pmdaEvent* array table of one agent. Both resolutions share one
// index space, and any routine may be used on any array, as in PCP: the
// resolution is that of the record routine used (AddRecord writes 32-bit
// seconds and microseconds, AddHighResRecord 64-bit seconds and
// nanoseconds) and of the GetAddr variant that labels the array.
class EventArrays {
 public:
  EventArrays();
  ~EventArrays();
  EventArrays(EventArrays&&) noexcept;
  EventArrays& operator=(EventArrays&&) noexcept;

  // pmdaEventNewArray / pmdaEventNewHighResArray: returns the index of a
  // new, empty array (the lowest released index is reused).
  [[nodiscard]] int NewArray();
  [[nodiscard]] int NewHighResArray() { return NewArray(); }

  // pmdaEventResetArray: empties the array for a new fill cycle.
  // pmdaEventReleaseArray: frees it; the index is then unknown.
  // Errors (for these and all below): PM_ERR_NOCONTEXT for an index that
  // is not in use.
  absl::Status ResetArray(int idx);
  absl::Status ReleaseArray(int idx);

  // pmdaEventAddRecord: starts a record with timestamp sec.usec (each kept
  // as 32 bits) and `flags`. PM_ERR_CONV if flags include
  // PM_EVENT_FLAG_MISSED (use AddMissedRecord).
  absl::Status AddRecord(int idx, int64_t sec, int64_t usec, int flags);
  // pmdaEventAddMissedRecord: a record saying `nmissed` records were lost.
  absl::Status AddMissedRecord(int idx, int64_t sec, int64_t usec, int nmissed);
  // The high-resolution forms: 64-bit seconds and nanoseconds.
  absl::Status AddHighResRecord(int idx, int64_t sec, int64_t nsec, int flags);
  absl::Status AddHighResMissedRecord(int idx, int64_t sec, int64_t nsec, int nmissed);

  // pmdaEventAddParam / pmdaEventHighResAddParam: adds a parameter to the
  // current record. `type` is one of kType32 .. kTypeString, kTypeAggregate
  // (value.bytes holds a string's characters, up to a NUL, or the
  // aggregate's bytes); PM_ERR_TYPE otherwise. As in PCP, a parameter added
  // before any record of the cycle still counts into where the last record
  // was (see docs/pmda-cache.md).
  absl::Status AddParam(int idx, PmID pmid, int type, const AtomValue& value);
  absl::Status AddHighResParam(int idx, PmID pmid, int type, const AtomValue& value);

  // pmdaEventGetAddr / pmdaEventHighResGetAddr: labels the array
  // PM_TYPE_EVENT or PM_TYPE_HIGHRES_EVENT and returns the whole value
  // block (header word first). Valid until the array next changes.
  absl::StatusOr<std::span<const uint8_t>> GetAddr(int idx);
  absl::StatusOr<std::span<const uint8_t>> GetHighResAddr(int idx);

 private:
  struct Array;
  Array* Find(int idx);
  absl::Status AddRecordAt(int idx, bool highres, int64_t sec, int64_t frac, uint32_t flags, int32_t nparams);
  absl::Status AddParamAt(int idx, bool highres, PmID pmid, int type, const AtomValue& value);
  absl::StatusOr<std::span<const uint8_t>> Label(int idx, int type);

  std::vector<Array> arrays_;
};

// pmUnpackEventRecords / pmUnpackHighResEventRecords: returns one Result
// per record of an event array value. `value` is the value block (vtype
// and the payload after its header word); `valfmt` the value set's.
// Parameters of types 32/U32 become in-situ values, others value blocks of
// their type; a record's non-zero flags come first as event.flags, and a
// missed record carries event.flags and event.missed only.
// Errors, as PCP: PM_ERR_CONV (valfmt not a block, or MISSED with other
// flags), PM_ERR_TYPE (wrong vtype, or a parameter of an event or unknown
// type), PM_ERR_TOOSMALL (no room for the count, a negative count),
// PM_ERR_TOOBIG (a record or parameter running past the end). Every
// length is checked: a hostile array is an error, never a read beyond it.
absl::StatusOr<std::vector<Result>> UnpackEventRecords(const ValueView& value, int valfmt = kValDptr);
absl::StatusOr<std::vector<Result>> UnpackHighResEventRecords(const ValueView& value,
                                                              int valfmt = kValDptr);

// One parameter of an event record, as the array holds it.
struct EventParamView {
  PmID pmid{};
  int type = 0;
  std::span<const uint8_t> value;  // the value's bytes, without padding
};

// One record of an event array, as the array holds it. For a missed
// record, nparams is the number of records lost and params is empty.
struct EventRecordView {
  TimeSpec stamp;  // microseconds widened to nanoseconds for PM_TYPE_EVENT
  uint32_t flags = 0;
  int32_t nparams = 0;
  std::vector<EventParamView> params;
};

// Returns the records of an event array's payload (host order, the bytes
// after the value block header) as they lie, without making Results of
// them: the view pmdumplog shows. The views point into `payload`.
// Errors: PM_ERR_LOGREC when the record count or a parameter count is
// negative, a record or parameter runs past the end, or a parameter's
// length is shorter than its header word. The padding after the last
// parameter may be missing.
absl::StatusOr<std::vector<EventRecordView>> DecodeEventArray(std::span<const uint8_t> payload,
                                                              bool highres);

}  // namespace pmapi

#endif  // PMAPI_EVENTS_H_
