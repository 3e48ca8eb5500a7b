// Fuzz target: each archive record decoder on its own. The first input byte
// chooses the decoder (modulo their number); the rest is one record's
// payload (or, for the label, a whole file; for the index, the bytes after
// its label).
#include <cstdint>
#include <span>

#include "fuzz_support.h"
#include "meta_decoder.h"
#include "pmapi/errors.h"
#include "result_codec.h"

namespace {

using Bytes = std::span<const uint8_t>;

uint64_t DigestInDom(const pmapi::InDomRecord& r) {
  // The decoder promises one name and one deleted flag per instance.
  if (r.names.size() != r.insts.size() || r.deleted.size() != r.insts.size()) __builtin_trap();
  uint64_t h = pmapi::ToPcp(r.indom) + static_cast<uint64_t>(r.stamp.nanos());
  for (size_t i = 0; i < r.insts.size(); ++i) {
    h += static_cast<uint64_t>(pmapi::ToPcp(r.insts[i])) + fuzz::Digest(r.names[i]) + r.deleted[i];
  }
  return h;
}

uint64_t DigestLabels(const pmapi::LabelRecord& r) {
  uint64_t h = r.type + r.ident;
  for (const pmapi::LabelSet& s : r.sets) {
    h += fuzz::Digest(s.json);
    for (const pmapi::LabelEntry& l : s.labels) {
      if (l.name + l.namelen > s.json.size() || l.value + l.valuelen > s.json.size()) __builtin_trap();
      h += fuzz::Digest(std::string_view(s.json).substr(l.name, l.namelen));
      h += fuzz::Digest(std::string_view(s.json).substr(l.value, l.valuelen));
    }
  }
  return h;
}

uint64_t RunOne(int which, Bytes in) {
  switch (which) {
    case 0: {
      auto l = pmapi::DecodeLabel(in);
      return l.ok() ? fuzz::Digest(l->hostname) + fuzz::Digest(l->timezone) + fuzz::Digest(l->zoneinfo)
                    : 0;
    }
    case 1: {
      auto d = pmapi::DecodeDesc(in);
      uint64_t h = 0;
      if (d.ok()) for (const std::string& n : d->names) h += fuzz::Digest(n);
      return h;
    }
    case 2:
    case 3:
    case 4: {
      const pmapi::InDomRecord::Kind kinds[] = {pmapi::InDomRecord::Kind::kV2,
                                                pmapi::InDomRecord::Kind::kFull,
                                                pmapi::InDomRecord::Kind::kDelta};
      auto r = pmapi::DecodeInDom(in, kinds[which - 2]);
      return r.ok() ? DigestInDom(*r) : 0;
    }
    case 5:
    case 6: {
      auto r = pmapi::DecodeLabelRecord(in, which == 6);
      return r.ok() ? DigestLabels(*r) : 0;
    }
    case 7: {
      auto t = pmapi::DecodeText(in);
      return t.ok() ? fuzz::Digest(t->text) + t->type + t->ident : 0;
    }
    case 8:
    case 9: {
      uint64_t h = 0;
      for (const pmapi::IndexEntry& e : pmapi::DecodeIndex(in, which == 8 ? 2 : 3)) {
        h += static_cast<uint64_t>(e.stamp.nanos()) + static_cast<uint64_t>(e.vol) +
             static_cast<uint64_t>(e.meta_offset) + static_cast<uint64_t>(e.data_offset);
      }
      return h;
    }
    default: {
      pmapi::Result r;
      const pmapi::ResultLayout layout =
          which == 10 ? pmapi::ResultLayout::kTimeval : pmapi::ResultLayout::kTimestamp;
      return pmapi::DecodeResult(in, layout, pmapi::kErrLogrec, &r).ok() ? fuzz::Digest(r) : 0;
    }
  }
}

constexpr int kDecoders = 12;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  fuzz::Consume(RunOne(data[0] % kDecoders, Bytes(data + 1, size - 1)));
  return 0;
}
