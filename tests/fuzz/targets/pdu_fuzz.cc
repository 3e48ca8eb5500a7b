// Fuzz target: every PDU decoder. The first input byte chooses the decoder
// (modulo their number); the rest is the PDU as received from a socket.
#include <cstdint>
#include <span>

#include "fuzz_support.h"
#include "pdu_codec.h"

namespace {

using Bytes = std::span<const uint8_t>;

uint64_t DigestDesc(const pmapi::Desc& d) {
  return pmapi::ToPcp(d.pmid) ^ (uint64_t{pmapi::ToPcp(d.indom)} << 32) ^
         static_cast<uint64_t>(d.type) ^ (static_cast<uint64_t>(d.sem) << 8);
}

uint64_t RunOne(int which, Bytes pdu) {
  switch (which) {
    case 0: {
      auto h = pmapi::DecodePduHeader(pdu);
      return h.ok() ? h->len + static_cast<uint64_t>(h->type) : 0;
    }
    case 1: {
      auto e = pmapi::DecodeError(pdu);
      return e.ok() ? static_cast<uint64_t>(*e) : 1;
    }
    case 2: {
      auto h = pmapi::DecodeHandshake(pdu);
      return h.ok() ? static_cast<uint64_t>(h->version) + h->features : 1;
    }
    case 3: {
      auto c = pmapi::DecodeCreds(pdu);
      return c.ok() ? *c : 1;
    }
    case 4: {
      auto d = pmapi::DecodeDescPdu(pdu);
      return d.ok() ? DigestDesc(*d) : 1;
    }
    case 5: {
      auto ds = pmapi::DecodeDescs(pdu);
      uint64_t h = 0;
      if (ds.ok()) for (const pmapi::Desc& d : *ds) h += DigestDesc(d);
      return h;
    }
    case 6: {
      auto l = pmapi::DecodeInstance(pdu);
      uint64_t h = 0;
      if (!l.ok()) return h;
      for (pmapi::Inst i : l->insts) h += static_cast<uint64_t>(pmapi::ToPcp(i));
      for (const std::string& n : l->names) h += fuzz::Digest(n);
      return h;
    }
    case 7: {
      auto t = pmapi::DecodeTextPdu(pdu);
      return t.ok() ? fuzz::Digest(t->text) + t->ident_raw : 1;
    }
    case 8: {
      auto l = pmapi::DecodeLabelPdu(pdu);
      uint64_t h = 0;
      if (!l.ok()) return h;
      for (const pmapi::LabelSetWire& s : l->sets) {
        h += fuzz::Digest(s.json) + static_cast<uint64_t>(pmapi::ToPcp(s.inst));
        for (const pmapi::LabelWire& w : s.labels) {
          // Each label's offsets must lie inside the set's JSON.
          if (w.name + w.namelen > s.json.size() || w.value + w.valuelen > s.json.size()) {
            __builtin_trap();
          }
          h += fuzz::Digest(std::string_view(s.json).substr(w.name, w.namelen));
          h += fuzz::Digest(std::string_view(s.json).substr(w.value, w.valuelen));
        }
      }
      return h;
    }
    case 9: {
      auto ids = pmapi::DecodeIdList(pdu);
      uint64_t h = 0;
      if (ids.ok()) for (pmapi::PmID id : ids->ids) h += pmapi::ToPcp(id);
      return h;
    }
    case 10: {
      auto n = pmapi::DecodeNameList(pdu);
      uint64_t h = 0;
      if (!n.ok()) return h;
      for (const std::string& s : n->names) h += fuzz::Digest(s);
      for (int st : n->status) h += static_cast<uint64_t>(st);
      return h;
    }
    default: {
      pmapi::Result r;
      if (!pmapi::DecodeResultPdu(pdu, &r).ok()) return 0;
      // The encoder also runs on whatever the decoder accepted.
      std::vector<uint8_t> again = pmapi::EncodeResultPdu(0, r);
      pmapi::Result r2;
      if (!pmapi::DecodeResultPdu(again, &r2).ok()) return 0;
      return fuzz::Digest(r) + fuzz::Digest(r2);
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
