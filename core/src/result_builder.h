// result_builder.h: how the library's decoders and fetch paths build and
// reshape a Result in place: reserving room, writing values and payloads
// straight into its lists, taking a decoded record's storage without a
// copy, replacing sets. Result's public face keeps only the calls a caller
// building a store request needs.
//
// Example:
//   pmapi::ResultBuilder::Reserve(out, numpmid, values, bytes);
//   pmapi::ResultBuilder::StoredValue* v = pmapi::ResultBuilder::AppendValues(out, n);
#ifndef PMAPI_CORE_RESULT_BUILDER_H_
#define PMAPI_CORE_RESULT_BUILDER_H_

#include <cstddef>
#include <cstdint>
#include <utility>

#include "pmapi/result.h"

namespace pmapi {

class ResultBuilder {
 public:
  using StoredValue = Result::StoredValue;

  // Returns the stored form of value j of set vs (as Result::value's REQUIRES).
  static const StoredValue& Stored(const Result& r, const ValueSet& vs, int j) {
    return r.values_[vs.first + j];
  }
  // Returns where the payload of a stored DPTR value starts.
  static const uint8_t* PayloadData(const Result& r, const StoredValue& s) {
    return r.arena_.data() + s.offset;
  }
  // Appends a value with an uninitialised payload of `length` bytes and
  // returns where to write it; valid until the next Add call.
  static uint8_t* AddBlockForWrite(Result& r, Inst inst, int vtype, uint32_t length) {
    return r.AddBlockForWrite(inst, vtype, length);
  }
  static void Reserve(Result& r, size_t sets, size_t values, size_t arena_bytes) {
    r.sets_.reserve(sets);
    r.values_.reserve(values);
    r.arena_.reserve(arena_bytes);
  }
  // Appends `n` values to the last set added, to be written in place
  // through the returned pointer (valid until the next Add call). Each
  // DPTR value's payload goes through AppendPayload.
  static StoredValue* AppendValues(Result& r, size_t n) {
    const size_t at = r.values_.size();
    r.values_.resize(at + n);
    return r.values_.data() + at;
  }
  // Appends an uninitialised payload of `length` bytes to the arena,
  // setting *offset to where it starts, and returns where to write it
  // (valid until the next Add or Append call).
  static uint8_t* AppendPayload(Result& r, uint32_t length, uint32_t* offset) {
    return r.GrowArena(length, offset);
  }
  // Exchanges the value lists and payload arenas (not the sets) of `a` and
  // `b`: sets can then be added with AddSetAt, so a Result is made from a
  // decoded record's values without copying them.
  static void SwapStorage(Result& a, Result& b) {
    a.values_.swap(b.values_);
    a.arena_.swap(b.arena_);
    std::swap(a.arena_used_, b.arena_used_);
  }
  // Appends set vs, whose values already lie in r's value list from
  // vs.first on (as they lay in the Result whose storage r took).
  static void AddSetAt(Result& r, const ValueSet& vs) { r.sets_.push_back(vs); }
  // Keeps only the first n sets (their values stay in the list unused).
  static void TruncateSets(Result& r, size_t n) {
    if (n < r.sets_.size()) r.sets_.resize(n);
  }
  // Replaces set i of r with set vs of `from`, its values and payloads
  // copied to the end of r's lists.
  static void ReplaceSet(Result& r, size_t i, const Result& from, const ValueSet& vs) {
    ValueSet out{vs.pmid, vs.numval, vs.valfmt, static_cast<uint32_t>(r.values_.size())};
    for (int j = 0; j < vs.numval; ++j) {
      ValueView v = from.value(vs, j);
      if (vs.valfmt == kValInsitu) {
        r.AddInsitu(v.inst, v.lval);
      } else {
        r.AddBlock(v.inst, v.vtype, v.payload);
      }
    }
    r.sets_[i] = out;
  }
  // Returns the bytes allocated for the value list and arena (a Result
  // worth keeping for reuse holds some).
  static size_t CapacityBytes(const Result& r) {
    return r.values_.capacity() * sizeof(StoredValue) + r.arena_.capacity();
  }
};

}  // namespace pmapi

#endif  // PMAPI_CORE_RESULT_BUILDER_H_
