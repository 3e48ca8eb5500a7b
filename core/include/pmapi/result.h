// pmapi/result.h: an owning pmResult — one timestamp and the values of each
// metric fetched at that time.
//
// A Result is what an archive data record or a RESULT PDU decodes to. All
// of its values' payloads live in one byte arena owned by the Result, so a
// record with a thousand values costs a handful of allocations, and a Result
// that is reused (Clear() then refilled) costs none once it has grown.
//
// Example:
//   const pmapi::Result& r = ...;
//   for (const pmapi::ValueSet& vs : r.sets()) {
//     if (vs.numval < 0) { /* vs.numval is a PCP error code */ continue; }
//     for (int j = 0; j < vs.numval; ++j) {
//       pmapi::ValueView v = r.value(vs, j);   // v.inst, v.lval or v.payload
//     }
//   }
#ifndef PMAPI_RESULT_H_
#define PMAPI_RESULT_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>
#include <vector>

#include "pmapi/types.h"

namespace pmapi {

// The values of one metric in a Result (pmValueSet).
struct ValueSet {
  PmID pmid = kPmIDNull;
  // Number of values (> 0), none (0), or a negative PCP error code.
  int numval = 0;
  // kValInsitu or kValDptr; meaningful only when numval > 0.
  int valfmt = kValInsitu;
  // Index of this set's first value in the Result's value list.
  uint32_t first = 0;
};

class Result {
 public:
  // One value as stored: either in-situ (lval) or a payload in the arena.
  struct StoredValue {
    int32_t inst = kInNull;
    int32_t lval = 0;
    uint32_t offset = 0;  // payload start in the arena
    uint32_t length = 0;  // payload bytes (the block's vlen minus its header)
    int vtype = kTypeUnknown;
  };

  // Returns the collection time in nanoseconds since the Unix epoch.
  int64_t timestamp_ns() const { return timestamp_ns_; }
  // Returns the number of value sets; 0 means a <mark> record.
  int numpmid() const { return static_cast<int>(sets_.size()); }
  bool is_mark() const { return sets_.empty(); }
  std::span<const ValueSet> sets() const { return sets_; }

  // Returns a view of value j of set vs. The view's payload points into this
  // Result and is valid until the Result is changed or destroyed.
  // REQUIRES: vs is one of sets(), 0 <= j < vs.numval.
  ValueView value(const ValueSet& vs, int j) const;
  // Returns the stored form of value j of set vs (same REQUIRES as value()).
  const StoredValue& stored(const ValueSet& vs, int j) const { return values_[vs.first + j]; }
  // Returns where the payload of a stored DPTR value starts.
  const uint8_t* payload_data(const StoredValue& s) const { return arena_.data() + s.offset; }

  // Building (used by decoders). Clear() keeps the capacity for reuse.
  void Clear();
  void set_timestamp_ns(int64_t ns) { timestamp_ns_ = ns; }
  // Appends a value set; its values must be added next, before another set.
  void AddSet(PmID pmid, int numval, int valfmt);
  void AddInsitu(int32_t inst, int32_t lval);
  // Appends a value whose payload (already in host byte order) is copied
  // into the arena.
  void AddBlock(int32_t inst, int vtype, std::span<const uint8_t> payload);
  // Appends a value with an uninitialised payload of `length` bytes and
  // returns where to write it; valid until the next Add call.
  uint8_t* AddBlockForWrite(int32_t inst, int vtype, uint32_t length);
  void Reserve(size_t sets, size_t values, size_t arena_bytes);
  // Appends `n` values to the last set added, to be written in place
  // through the returned pointer (valid until the next Add call). Each
  // DPTR value's payload goes through AppendPayload.
  StoredValue* AppendValues(size_t n);
  // Appends an uninitialised payload of `length` bytes to the arena,
  // setting *offset to where it starts, and returns where to write it
  // (valid until the next Add or Append call).
  uint8_t* AppendPayload(uint32_t length, uint32_t* offset);
  // Takes a copy of `from`'s payload arena in one block (this Result's
  // own must be empty), so that CopySetSharingArena can copy sets of
  // `from` without copying their payloads one by one.
  void CopyArena(const Result& from) {
    arena_.assign(from.arena_.begin(), from.arena_.begin() + from.arena_used_);
    arena_used_ = from.arena_used_;
  }
  // Appends set vs of `from`, whose arena this Result copied, with all
  // its values.
  void CopySetSharingArena(const Result& from, const ValueSet& vs);
  // Exchanges the value lists and payload arenas (not the sets) of this
  // Result and `other`: sets can then be added with AddSetAt, so a Result
  // is made from a decoded record's values without copying them.
  void SwapStorage(Result& other) {
    values_.swap(other.values_);
    arena_.swap(other.arena_);
    std::swap(arena_used_, other.arena_used_);
  }
  // Appends set vs, whose values already lie in this Result's value list
  // from vs.first on (as they lay in the Result whose storage this one
  // took with SwapStorage).
  void AddSetAt(const ValueSet& vs) { sets_.push_back(vs); }
  // Keeps only the first n sets (their values stay in the list unused).
  void TruncateSets(size_t n) {
    if (n < sets_.size()) sets_.resize(n);
  }
  // Replaces set i with set vs of `from`, its values and payloads copied
  // to the end of this Result's lists.
  void ReplaceSet(size_t i, const Result& from, const ValueSet& vs);
  // Returns the bytes allocated for the value list and arena (a Result
  // worth keeping for reuse holds some).
  size_t capacity_bytes() const {
    return values_.capacity() * sizeof(StoredValue) + arena_.capacity();
  }
  // Makes set i report no values (its values stay in the arena unused).
  void ClearSet(size_t i) {
    if (i < sets_.size()) sets_[i].numval = 0;
  }

 private:
  int64_t timestamp_ns_ = 0;
  std::vector<ValueSet> sets_;
  std::vector<StoredValue> values_;
  // The payloads: the first arena_used_ bytes of arena_ (whose size only
  // grows, so that reusing a Result never fills it with zeros again).
  std::vector<uint8_t> arena_;
  size_t arena_used_ = 0;
  // Returns room for `length` more payload bytes, setting *offset.
  uint8_t* GrowArena(size_t length, uint32_t* offset);
};

inline ValueView Result::value(const ValueSet& vs, int j) const {
  const StoredValue& s = values_[vs.first + j];
  ValueView v;
  v.inst = s.inst;
  v.lval = s.lval;
  if (vs.valfmt != kValInsitu) {
    v.vtype = s.vtype;
    v.payload = std::span<const uint8_t>(arena_.data() + s.offset, s.length);
  }
  return v;
}

inline void Result::Clear() {
  timestamp_ns_ = 0;
  sets_.clear();
  values_.clear();
  arena_used_ = 0;
}

inline uint8_t* Result::GrowArena(size_t length, uint32_t* offset) {
  if (arena_.size() - arena_used_ < length) {
    // Doubling, but not past the capacity Reserve asked for when that is
    // enough (no reallocation).
    size_t want = std::max(arena_.size() * 2, arena_used_ + length);
    if (want > arena_.capacity() && arena_used_ + length <= arena_.capacity()) {
      want = arena_.capacity();
    }
    arena_.resize(want);
  }
  *offset = static_cast<uint32_t>(arena_used_);
  arena_used_ += length;
  return arena_.data() + *offset;
}

inline void Result::AddSet(PmID pmid, int numval, int valfmt) {
  sets_.push_back(ValueSet{pmid, numval, valfmt, static_cast<uint32_t>(values_.size())});
}

inline void Result::AddInsitu(int32_t inst, int32_t lval) {
  StoredValue s;
  s.inst = inst;
  s.lval = lval;
  values_.push_back(s);
}

inline uint8_t* Result::AddBlockForWrite(int32_t inst, int vtype, uint32_t length) {
  StoredValue s;
  s.inst = inst;
  s.vtype = vtype;
  s.length = length;
  uint8_t* at = GrowArena(length, &s.offset);
  values_.push_back(s);
  return at;
}

inline Result::StoredValue* Result::AppendValues(size_t n) {
  const size_t at = values_.size();
  values_.resize(at + n);
  return values_.data() + at;
}

inline uint8_t* Result::AppendPayload(uint32_t length, uint32_t* offset) {
  return GrowArena(length, offset);
}

inline void Result::AddBlock(int32_t inst, int vtype, std::span<const uint8_t> payload) {
  uint8_t* out = AddBlockForWrite(inst, vtype, static_cast<uint32_t>(payload.size()));
  if (!payload.empty()) std::memcpy(out, payload.data(), payload.size());
}

inline void Result::CopySetSharingArena(const Result& from, const ValueSet& vs) {
  AddSet(vs.pmid, vs.numval, vs.valfmt);
  if (vs.numval <= 0) return;
  const StoredValue* begin = from.values_.data() + vs.first;
  values_.insert(values_.end(), begin, begin + vs.numval);
}

inline void Result::ReplaceSet(size_t i, const Result& from, const ValueSet& vs) {
  ValueSet out{vs.pmid, vs.numval, vs.valfmt, static_cast<uint32_t>(values_.size())};
  for (int j = 0; j < vs.numval; ++j) {
    ValueView v = from.value(vs, j);
    if (vs.valfmt == kValInsitu) {
      AddInsitu(v.inst, v.lval);
    } else {
      AddBlock(v.inst, v.vtype, v.payload);
    }
  }
  sets_[i] = out;
}

inline void Result::Reserve(size_t sets, size_t values, size_t arena_bytes) {
  sets_.reserve(sets);
  values_.reserve(values);
  arena_.reserve(arena_bytes);
}

}  // namespace pmapi

#endif  // PMAPI_RESULT_H_
