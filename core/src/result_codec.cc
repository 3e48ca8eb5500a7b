// The pmResult decoder and encoder; see result_codec.h for the layout.
#include "result_codec.h"

#include <algorithm>
#include <cstring>

#include "byte_reader.h"
#include "events_format.h"
#include "pmapi/errors.h"
#include "pmapi/strings.h"
#include "result_builder.h"

namespace pmapi {
namespace {

constexpr int64_t kNanosPerSecond = 1000000000;

// Returns sec * 1e9 + nsec, wrapping (never undefined) on absurd inputs
// from corrupt data.
int64_t CombineNanos(int64_t sec, int64_t nsec) {
  uint64_t v = static_cast<uint64_t>(sec) * static_cast<uint64_t>(kNanosPerSecond) +
               static_cast<uint64_t>(nsec);
  return static_cast<int64_t>(v);
}

// Reads the timestamp and numpmid that open `body`. Returns false if body
// is too short.
bool ReadPreamble(ByteReader& r, ResultLayout layout, int64_t* ns, int32_t* numpmid) {
  switch (layout) {
    case ResultLayout::kTimeval: {
      int32_t sec, usec;
      if (!r.I32(&sec) || !r.I32(&usec) || !r.I32(numpmid)) return false;
      *ns = CombineNanos(sec, int64_t{usec} * 1000);
      return true;
    }
    case ResultLayout::kTimestamp: {
      int64_t sec;
      uint32_t nsec;
      if (!r.Seconds64(&sec) || !r.U32(&nsec) || !r.I32(numpmid)) return false;
      *ns = CombineNanos(sec, nsec);
      return true;
    }
    case ResultLayout::kHighRes: {
      int64_t sec, nsec;
      if (!r.I32(numpmid) || !r.I64(&sec) || !r.I64(&nsec)) return false;
      *ns = CombineNanos(sec, nsec);
      return true;
    }
  }
  return false;
}

// Turns the 32-bit word at p into host order.
void SwapWord(uint8_t* p) {
  uint32_t v = LoadBigEndian32(p);
  std::memcpy(p, &v, 4);
}

void SwapDword(uint8_t* p) {
  uint64_t v = LoadBigEndian64(p);
  std::memcpy(p, &v, 8);
}

// Swaps one event parameter's value, when it is a number of its type's size.
void SwapParamValue(uint8_t* value, size_t n, int type) {
  if ((type == kType32 || type == kTypeU32 || type == kTypeFloat) && n == 4) SwapWord(value);
  if ((type == kType64 || type == kTypeU64 || type == kTypeDouble) && n == 8) SwapDword(value);
}

// Swaps the header of the event record at p: its timestamp fields, flags and
// parameter count.
void SwapRecordHead(uint8_t* p, bool highres) {
  void (*swap_stamp_field)(uint8_t*) = highres ? SwapDword : SwapWord;
  swap_stamp_field(p);
  swap_stamp_field(p + events_format::RecordFracOffset(highres));
  SwapWord(p + events_format::RecordFlagsOffset(highres));
  SwapWord(p + events_format::RecordNparamsOffset(highres));
}

// Converts a packed event-record array (the payload after the block
// header) between wire and host order in place, as PCP's codec does. Each
// part is read, in the order it arrived (`from`), before it is swapped, so
// counts are always taken from the host-order side. Stops at the first
// part that does not fit, leaving the rest as it came: the unpacker then
// reports the array as bad rather than reading past it.
class EventArraySwapper {
 public:
  EventArraySwapper(uint8_t* p, size_t n, bool highres, events_format::ByteOrder from)
      : p_(p), reader_({p, n}, highres, from) {}

  void Run() {
    int32_t nrecords;
    if (!reader_.Count(&nrecords)) return;
    SwapWord(p_);
    size_t at = reader_.FirstRecord();
    for (int32_t i = 0; i < nrecords; ++i) {
      events_format::RecordHead h;
      if (!reader_.Record(at, &h)) return;
      SwapRecordHead(p_ + at, reader_.highres());
      at += reader_.RecordHeaderBytes();
      if (h.flags & kEventFlagMissed) continue;  // a missed record has no parameters
      for (int32_t k = 0; k < h.nparams; ++k) {
        if (!SwapParam(&at)) return;
      }
    }
  }

 private:
  // Swaps the parameter at *at and steps over it; false when it does not fit.
  bool SwapParam(size_t* at) {
    events_format::ParamHead p;
    if (!reader_.Param(*at, &p)) return false;
    SwapWord(p_ + *at);
    SwapWord(p_ + *at + events_format::kParamTypeLenOffset);
    if (p.len < events_format::kTypeLenBytes || !reader_.Has(*at, p.Step())) return false;
    SwapParamValue(p_ + events_format::ParamHead::ValueAt(*at), p.len - events_format::kTypeLenBytes,
                   p.type);
    *at += p.Step();
    return true;
  }

  uint8_t* p_;
  events_format::EventArrayReader reader_;
};

// Whether a block payload of `vtype` and n bytes is one 4-byte number that
// travels in network order. Only a float is: PCP swaps neither a 32-bit
// integer's block nor a block of vtype 0, which old archives wrote for
// strings (vtype 0 is PM_TYPE_32).
bool SwappedWord(int vtype, size_t n) { return vtype == kTypeFloat && n == 4; }

// Whether a block payload is one 8-byte number in network order.
bool SwappedDword(int vtype, size_t n) {
  return (vtype == kType64 || vtype == kTypeU64 || vtype == kTypeDouble) && n == 8;
}

// Copies a block payload to dst, turning numbers into host order.
void PayloadToHost(uint8_t* dst, int vtype, const uint8_t* payload, size_t n) {
  if (n == 0) return;
  const bool word = SwappedWord(vtype, n);
  const bool dword = SwappedDword(vtype, n);
  if (word) {
    uint32_t v = LoadBigEndian32(payload);
    std::memcpy(dst, &v, 4);
  } else if (dword) {
    uint64_t v = LoadBigEndian64(payload);
    std::memcpy(dst, &v, 8);
  } else {
    std::memcpy(dst, payload, n);
    if (vtype == kTypeEvent || vtype == kTypeHighResEvent) {
      EventArraySwapper(dst, n, vtype == kTypeHighResEvent, events_format::ByteOrder::kWire).Run();
    }
  }
}

// Resolves one DPTR value into *v, its payload copied into out's arena:
// `offset` is in words from the (virtual) PDU start.
bool DecodeBlock(std::span<const uint8_t> body, uint32_t offset, Result* out,
                 ResultBuilder::StoredValue* v) {
  const uint64_t byte_offset = uint64_t{offset} * 4;
  if (byte_offset < kResultHeaderBytes) return false;
  const uint64_t at = byte_offset - kResultHeaderBytes;
  if (at > body.size() || body.size() - at < 4) return false;
  const uint32_t header = LoadBigEndian32(body.data() + at);
  const uint32_t vlen = header & kValVlenMax;
  if (vlen < static_cast<uint32_t>(kValHdrSize) || vlen > body.size() - at) return false;
  v->vtype = static_cast<int>(header >> 24);
  v->length = vlen - kValHdrSize;
  uint8_t* dst = ResultBuilder::AppendPayload(*out, v->length, &v->offset);
  PayloadToHost(dst, v->vtype, body.data() + at + kValHdrSize, v->length);
  return true;
}

// Decodes one value set starting at r's position; DPTR values are resolved
// against the whole body at once. The values are written in place, one
// allocation check for the set.
bool DecodeSet(ByteReader& r, std::span<const uint8_t> body, Result* out) {
  PmID pmid;
  int32_t numval;
  if (!r.U32(&pmid) || !r.I32(&numval)) return false;
  if (numval <= 0) {
    out->AddSet(pmid, numval, kValInsitu);
    return true;
  }
  int32_t valfmt;
  if (!r.I32(&valfmt)) return false;
  if (valfmt != kValInsitu && valfmt != kValDptr && valfmt != kValSptr) return false;
  // Each value takes 8 bytes; refuse counts the body cannot hold.
  const uint64_t bytes = uint64_t(numval) * 8;
  if (!r.Has(bytes)) return false;
  const uint8_t* p = r.data().data() + r.position();
  r.Skip(bytes);
  const int stored_fmt = valfmt == kValInsitu ? kValInsitu : kValDptr;
  out->AddSet(pmid, numval, stored_fmt);
  ResultBuilder::StoredValue* v = ResultBuilder::AppendValues(*out, static_cast<size_t>(numval));
  if (stored_fmt == kValInsitu) {
    for (int32_t j = 0; j < numval; ++j, p += 8) {
      v[j].inst = Inst{static_cast<int32_t>(LoadBigEndian32(p))};
      v[j].lval = static_cast<int32_t>(LoadBigEndian32(p + 4));
    }
    return true;
  }
  for (int32_t j = 0; j < numval; ++j, p += 8) {
    v[j].inst = Inst{static_cast<int32_t>(LoadBigEndian32(p))};
    if (!DecodeBlock(body, LoadBigEndian32(p + 4), out, &v[j])) return false;
  }
  return true;
}

void PutTimestamp(std::vector<uint8_t>& buf, ResultLayout layout, int64_t ns, int32_t numpmid) {
  int64_t sec = ns / kNanosPerSecond;
  int64_t sub = ns % kNanosPerSecond;
  if (sub < 0) {
    sub += kNanosPerSecond;
    --sec;
  }
  auto put32 = [&buf](uint32_t v) {
    size_t at = buf.size();
    buf.resize(at + 4);
    StoreBigEndian32(buf.data() + at, v);
  };
  auto put64 = [&buf](uint64_t v) {
    size_t at = buf.size();
    buf.resize(at + 8);
    StoreBigEndian64(buf.data() + at, v);
  };
  switch (layout) {
    case ResultLayout::kTimeval:
      put32(static_cast<uint32_t>(sec));
      put32(static_cast<uint32_t>(sub / 1000));
      put32(static_cast<uint32_t>(numpmid));
      break;
    case ResultLayout::kTimestamp:
      put32(static_cast<uint32_t>(static_cast<uint64_t>(sec)));
      put32(static_cast<uint32_t>(static_cast<uint64_t>(sec) >> 32));
      put32(static_cast<uint32_t>(sub));
      put32(static_cast<uint32_t>(numpmid));
      break;
    case ResultLayout::kHighRes:
      put32(static_cast<uint32_t>(numpmid));
      put64(static_cast<uint64_t>(sec));
      put64(static_cast<uint64_t>(sub));
      break;
  }
}

// Appends a value block (header, payload in wire order, padding).
uint32_t PutBlock(std::vector<uint8_t>& blocks, size_t blocks_base, const ValueView& v) {
  const uint32_t word_offset =
      static_cast<uint32_t>((kResultHeaderBytes + blocks_base + blocks.size()) / 4);
  const uint32_t vlen = static_cast<uint32_t>(v.payload.size()) + kValHdrSize;
  size_t at = blocks.size();
  blocks.resize(at + PaddedBlockBytes(vlen), 0);
  StoreBigEndian32(blocks.data() + at, (uint32_t(v.vtype) << 24) | (vlen & kValVlenMax));
  uint8_t* dst = blocks.data() + at + kValHdrSize;
  const size_t n = v.payload.size();
  if (SwappedWord(v.vtype, n)) {
    uint32_t w;
    std::memcpy(&w, v.payload.data(), 4);
    StoreBigEndian32(dst, w);
  } else if (SwappedDword(v.vtype, n)) {
    uint64_t w;
    std::memcpy(&w, v.payload.data(), 8);
    StoreBigEndian64(dst, w);
  } else if (n > 0) {
    std::memcpy(dst, v.payload.data(), n);
    if (v.vtype == kTypeEvent || v.vtype == kTypeHighResEvent) {
      EventArraySwapper(dst, n, v.vtype == kTypeHighResEvent, events_format::ByteOrder::kHost).Run();
    }
  }
  return word_offset;
}

}  // namespace

// Skips one value set whose PMID is not wanted, leaving an empty set in
// its place.
static bool SkipSet(ByteReader& r, PmID pmid, Result* out) {
  int32_t numval;
  if (!r.I32(&numval)) return false;
  out->AddSet(pmid, 0, kValInsitu);
  if (numval <= 0) return true;
  int32_t valfmt;
  if (!r.I32(&valfmt)) return false;
  if (valfmt != kValInsitu && valfmt != kValDptr && valfmt != kValSptr) return false;
  return r.Skip(uint64_t(numval) * 8);
}

absl::Status DecodeResultOnly(std::span<const uint8_t> body, ResultLayout layout, int error_code,
                              std::span<const PmID> keep, Result* out) {
  out->Clear();
  ByteReader r(body);
  int64_t ns = 0;
  int32_t numpmid = 0;
  if (!ReadPreamble(r, layout, &ns, &numpmid)) return PcpError(error_code);
  out->set_timestamp_ns(ns);
  // Each value set needs at least 8 bytes.
  if (numpmid < 0 || !r.Has(uint64_t(numpmid) * 8)) return PcpError(error_code);
  // Every value takes at least 8 bytes of the body and a payload no more
  // than the body holds: one allocation each instead of repeated growth.
  if (keep.empty()) {
    ResultBuilder::Reserve(*out, numpmid, body.size() / 8, body.size());
  } else {
    ResultBuilder::Reserve(*out, numpmid, keep.size(), 0);
  }
  for (int32_t i = 0; i < numpmid; ++i) {
    if (keep.empty()) {
      if (!DecodeSet(r, body, out)) return PcpError(error_code);
      continue;
    }
    const size_t at = r.position();
    PmID pmid;
    if (!r.U32(&pmid)) return PcpError(error_code);
    if (std::binary_search(keep.begin(), keep.end(), pmid)) {
      r.Seek(at);
      if (!DecodeSet(r, body, out)) return PcpError(error_code);
    } else if (!SkipSet(r, pmid, out)) {
      return PcpError(error_code);
    }
  }
  return absl::OkStatus();
}

absl::Status DecodeResult(std::span<const uint8_t> body, ResultLayout layout, int error_code,
                          Result* out) {
  return DecodeResultOnly(body, layout, error_code, {}, out);
}

std::vector<uint8_t> EncodeResult(const Result& r, ResultLayout layout) {
  std::vector<uint8_t> buf;
  PutTimestamp(buf, layout, r.timestamp_ns(), r.numpmid());
  // The blocks follow the value sets, so size the sets first.
  size_t sets_bytes = 0;
  for (const ValueSet& vs : r.sets()) sets_bytes += 8 + (vs.numval > 0 ? 4 + 8 * vs.numval : 0);
  const size_t blocks_base = buf.size() + sets_bytes;
  std::vector<uint8_t> blocks;
  auto put32 = [&buf](uint32_t v) {
    size_t at = buf.size();
    buf.resize(at + 4);
    StoreBigEndian32(buf.data() + at, v);
  };
  for (const ValueSet& vs : r.sets()) {
    put32(ToPcp(vs.pmid));
    put32(static_cast<uint32_t>(vs.numval));
    if (vs.numval <= 0) continue;
    put32(static_cast<uint32_t>(vs.valfmt));
    for (int j = 0; j < vs.numval; ++j) {
      ValueView v = r.value(vs, j);
      put32(static_cast<uint32_t>(ToPcp(v.inst)));
      if (vs.valfmt == kValInsitu) {
        put32(static_cast<uint32_t>(v.lval));
      } else {
        put32(PutBlock(blocks, blocks_base, v));
      }
    }
  }
  buf.insert(buf.end(), blocks.begin(), blocks.end());
  return buf;
}

}  // namespace pmapi
