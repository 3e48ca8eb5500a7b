// PDU encoders and decoders; see pdu_codec.h and the layouts in
// pdu_format.h.
#include "pdu_codec.h"

#include <algorithm>
#include <cstdint>

#include "byte_reader.h"
#include "pmapi/errors.h"
#include "result_codec.h"

namespace pmapi {
namespace {

absl::Status Malformed() { return PcpError(kErrIpc); }

// Returns a reader over the payload of `pdu` (after the header) if the PDU
// is of `type`, its length field matches its size, and it is at least
// `min_len` bytes long.
absl::StatusOr<ByteReader> OpenPdu(std::span<const uint8_t> pdu, int type, size_t min_len) {
  absl::StatusOr<PduHeader> h = DecodePduHeader(pdu);
  if (!h.ok()) return h.status();
  if (h->len != pdu.size() || h->type != type || pdu.size() < min_len) return Malformed();
  ByteReader r(pdu);
  r.Skip(kPduHeaderBytes);
  return r;
}

// Reads a name of `len` bytes and steps over its padding (a final name may
// lack padding: only its bytes are required, as libpcp requires).
bool ReadString(ByteReader& r, int32_t len, std::string* out) {
  std::span<const uint8_t> bytes;
  if (len < 0 || !r.Bytes(static_cast<size_t>(len), &bytes)) return false;
  out->assign(bytes.begin(), bytes.end());
  r.Skip(std::min(PaddedBytes(bytes.size()) - bytes.size(), r.remaining()));
  return true;
}

void PutDesc(PduWriter& w, const Desc& d) {
  w.U32(d.pmid);
  w.I32(d.type);
  w.U32(d.indom);
  w.I32(d.sem);
  w.U32(PackUnits(d.units));
}

bool ReadDesc(ByteReader& r, Desc* d) {
  uint32_t units = 0;
  if (!r.U32(&d->pmid) || !r.I32(&d->type) || !r.U32(&d->indom) || !r.I32(&d->sem) ||
      !r.U32(&units)) {
    return false;
  }
  d->units = UnpackUnits(units);
  return true;
}

// PCP 2 error codes go out in PCP 1 numbering in the handshake.
int ErrorToV1(int code) { return code <= -kErrBase ? code + kErrBase - kErrBaseV1 : code; }
// A code from a hostile server may be too negative to translate; it is
// clamped rather than allowed to overflow.
int ErrorFromV1(int code) {
  if (code > -kErrBaseV1) return code;
  return static_cast<int>(std::max<int64_t>(int64_t{code} + kErrBaseV1 - kErrBase, INT32_MIN));
}

// Decodes one label set whose fixed part starts at r's position.
bool ReadLabelSet(ByteReader& r, std::span<const uint8_t> pdu, LabelSetWire* set) {
  uint32_t jsonoff = 0;
  int32_t jsonlen = 0;
  if (!r.I32(&set->inst) || !r.I32(&set->nlabels) || !r.U32(&jsonoff) || !r.I32(&jsonlen)) {
    return false;
  }
  if (set->nlabels >= kMaxLabels || jsonlen < 0 || jsonlen >= kMaxLabelJsonLen) return false;
  if (uint64_t{jsonoff} + uint64_t(jsonlen) > pdu.size()) return false;
  if (set->nlabels <= 0) return true;
  if (!r.Has(size_t(set->nlabels) * kLabelBytes)) return false;
  set->json.assign(pdu.begin() + jsonoff, pdu.begin() + jsonoff + jsonlen);
  set->labels.resize(set->nlabels);
  for (LabelWire& l : set->labels) {
    uint32_t a = 0, b = 0;
    r.U32(&a);  // cannot fail: Has() was checked above
    r.U32(&b);
    l.name = static_cast<uint16_t>(a >> 16);
    l.namelen = static_cast<uint8_t>(a >> 8);
    l.flags = static_cast<uint8_t>(a);
    l.value = static_cast<uint16_t>(b >> 16);
    l.valuelen = static_cast<uint16_t>(b);
    if (l.name + l.namelen > jsonlen || l.value + l.valuelen > jsonlen) return false;
  }
  return true;
}

// result_codec pads value blocks with zero bytes, libpcp with '~'. Rewrites
// the padding of every block in `body` (an encoded result in `layout`, the
// bytes after the header) so a RESULT matches libpcp's byte for byte.
void TildePadBlocks(std::vector<uint8_t>& body, ResultLayout layout) {
  ByteReader r(body);
  int32_t numpmid = 0;
  if (layout == ResultLayout::kHighRes) {
    r.I32(&numpmid);
    r.Skip(16);
  } else {
    r.Skip(8);
    r.I32(&numpmid);
  }
  for (int32_t i = 0; i < numpmid; ++i) {
    uint32_t pmid = 0;
    int32_t numval = 0, valfmt = 0;
    if (!r.U32(&pmid) || !r.I32(&numval)) return;
    if (numval <= 0) continue;
    if (!r.I32(&valfmt)) return;
    for (int32_t j = 0; j < numval; ++j) {
      uint32_t inst = 0, value = 0;
      if (!r.U32(&inst) || !r.U32(&value)) return;
      if (valfmt == kValInsitu) continue;
      if (size_t{value} * 4 < kPduHeaderBytes) return;
      const size_t at = size_t{value} * 4 - kPduHeaderBytes;
      if (at + 4 > body.size()) return;
      const uint32_t vlen = LoadBigEndian32(body.data() + at) & kValVlenMax;
      const size_t end = std::min(body.size(), at + PaddedBlockBytes(vlen));
      for (size_t k = at + vlen; k < end; ++k) body[k] = '~';
    }
  }
}

std::vector<uint8_t> ResultPdu(int type, int32_t from, const Result& result,
                               ResultLayout layout) {
  std::vector<uint8_t> body = EncodeResult(result, layout);
  TildePadBlocks(body, layout);
  PduWriter w(type, from);
  w.Bytes(body);
  return w.Finish();
}

}  // namespace

absl::StatusOr<PduHeader> DecodePduHeader(std::span<const uint8_t> bytes) {
  ByteReader r(bytes);
  PduHeader h;
  if (!r.U32(&h.len) || !r.I32(&h.type) || !r.I32(&h.from)) return Malformed();
  if (h.len < kPduHeaderBytes) return Malformed();
  return h;
}

PduWriter::PduWriter(int type, int32_t from) {
  buf_.reserve(64);  // most requests fit: one allocation
  U32(0);  // the length, filled in by Finish()
  I32(type);
  I32(from);
}

void PduWriter::U32(uint32_t v) {
  size_t at = buf_.size();
  buf_.resize(at + 4);
  StoreBigEndian32(buf_.data() + at, v);
}

void PduWriter::U64(uint64_t v) {
  size_t at = buf_.size();
  buf_.resize(at + 8);
  StoreBigEndian64(buf_.data() + at, v);
}

void PduWriter::PaddedString(std::string_view s) {
  buf_.insert(buf_.end(), s.begin(), s.end());
  buf_.resize(buf_.size() + PaddedBytes(s.size()) - s.size(), '~');
}

void PduWriter::Bytes(std::span<const uint8_t> b) { buf_.insert(buf_.end(), b.begin(), b.end()); }

std::vector<uint8_t> PduWriter::Finish() {
  StoreBigEndian32(buf_.data(), static_cast<uint32_t>(buf_.size()));
  return std::move(buf_);
}

// ---- Requests ----

std::vector<uint8_t> EncodeCreds(int32_t from, uint16_t flags) {
  PduWriter w(kPduCreds, from);
  w.U32(1);
  w.U32((uint32_t{kCredVersion} << 24) | (uint32_t{kPduVersion} << 16) | flags);
  return w.Finish();
}

std::vector<uint8_t> EncodeProfile(int32_t from, int ctxnum, const InstanceProfile& profile) {
  PduWriter w(kPduProfile, from);
  w.I32(ctxnum);
  w.I32(profile.state);
  w.U32(static_cast<uint32_t>(profile.indoms.size()));
  w.U32(0);
  for (const InDomProfile& p : profile.indoms) {
    w.U32(p.indom);
    w.I32(p.state);
    w.U32(static_cast<uint32_t>(p.insts.size()));
    w.U32(0);
  }
  for (const InDomProfile& p : profile.indoms) {
    for (Inst inst : p.insts) w.I32(inst);
  }
  return w.Finish();
}

void AppendFetch(std::vector<uint8_t>* out, int type, int32_t from, int ctxnum,
                 std::span<const PmID> pmids) {
  // header, ctxnum, the unused time of the request (8 bytes), numpmid, pmids
  const size_t len = kPduHeaderBytes + 16 + 4 * pmids.size();
  const size_t at = out->size();
  out->resize(at + len);
  uint8_t* p = out->data() + at;
  StoreBigEndian32(p, static_cast<uint32_t>(len));
  StoreBigEndian32(p + 4, static_cast<uint32_t>(type));
  StoreBigEndian32(p + 8, static_cast<uint32_t>(from));
  StoreBigEndian32(p + 12, static_cast<uint32_t>(ctxnum));
  StoreBigEndian64(p + 16, 0);
  StoreBigEndian32(p + 24, static_cast<uint32_t>(pmids.size()));
  p += 28;
  for (PmID id : pmids) {
    StoreBigEndian32(p, ToPcp(id));
    p += 4;
  }
}

std::vector<uint8_t> EncodeFetch(int type, int32_t from, int ctxnum, std::span<const PmID> pmids) {
  std::vector<uint8_t> out;
  AppendFetch(&out, type, from, ctxnum, pmids);
  return out;
}

std::vector<uint8_t> EncodeDescReq(int32_t from, PmID pmid) {
  PduWriter w(kPduDescReq, from);
  w.U32(pmid);
  return w.Finish();
}

std::vector<uint8_t> EncodeIdList(int type, int32_t from, int sts, std::span<const PmID> ids) {
  PduWriter w(type, from);
  w.I32(sts);
  w.U32(static_cast<uint32_t>(ids.size()));
  for (PmID id : ids) w.U32(id);
  return w.Finish();
}

std::vector<uint8_t> EncodeInstanceReq(int32_t from, InDom indom, Inst inst,
                                       std::string_view name) {
  PduWriter w(kPduInstanceReq, from);
  w.U32(indom);
  w.U64(0);  // the unused time of the request
  w.I32(inst);
  w.U32(static_cast<uint32_t>(name.size()));
  w.PaddedString(name);
  return w.Finish();
}

std::vector<uint8_t> EncodeTextReq(int32_t from, uint32_t ident, int type) {
  PduWriter w(kPduTextReq, from);
  w.U32(ident);
  w.I32(type);
  return w.Finish();
}

std::vector<uint8_t> EncodeLabelReq(int32_t from, uint32_t ident, int type) {
  PduWriter w(kPduLabelReq, from);
  // A context label request names no object.
  w.U32((type & kLabelContext) ? ToPcp(kPmIDNull) : ident);
  w.I32(type);
  return w.Finish();
}

std::vector<uint8_t> EncodeNameList(int32_t from, std::span<const std::string> names,
                                    std::span<const int> status) {
  PduWriter w(kPduPmnsNames, from);
  size_t nstrbytes = 0;
  for (const std::string& n : names) nstrbytes += n.size() + 1;
  w.U32(static_cast<uint32_t>(nstrbytes));
  w.U32(static_cast<uint32_t>(status.size()));
  w.U32(static_cast<uint32_t>(names.size()));
  for (size_t i = 0; i < names.size(); ++i) {
    if (!status.empty()) w.I32(status[i]);
    w.U32(static_cast<uint32_t>(names[i].size()));
    w.PaddedString(names[i]);
  }
  return w.Finish();
}

std::vector<uint8_t> EncodeNameReq(int type, int32_t from, std::string_view name, int subtype) {
  PduWriter w(type, from);
  w.I32(subtype);
  w.U32(static_cast<uint32_t>(name.size()));
  w.PaddedString(name);
  return w.Finish();
}

std::vector<uint8_t> EncodeResultPdu(int32_t from, const Result& result) {
  return ResultPdu(kPduResult, from, result, ResultLayout::kTimeval);
}

std::vector<uint8_t> EncodeAttr(int32_t from, int attr, std::string_view value) {
  PduWriter w(kPduAttr, from);
  w.I32(attr);
  w.Bytes(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(value.data()), value.size()));
  return w.Finish();
}

// ---- Replies ----

std::vector<uint8_t> EncodeError(int32_t from, int code) {
  PduWriter w(kPduError, from);
  w.I32(code);
  return w.Finish();
}

std::vector<uint8_t> EncodeHandshake(int32_t from, const HandshakeInfo& info) {
  PduWriter w(kPduError, from);
  w.I32(ErrorToV1(info.code));
  w.U32((uint32_t(info.version & 0x7f) << 24) | (uint32_t(info.licensed & 0xff) << 16) |
        info.features);
  return w.Finish();
}

std::vector<uint8_t> EncodeDesc(int32_t from, const Desc& desc) {
  PduWriter w(kPduDesc, from);
  PutDesc(w, desc);
  return w.Finish();
}

std::vector<uint8_t> EncodeDescs(int32_t from, std::span<const Desc> descs) {
  PduWriter w(kPduDescs, from);
  w.U32(static_cast<uint32_t>(descs.size()));
  for (const Desc& d : descs) PutDesc(w, d);
  return w.Finish();
}

std::vector<uint8_t> EncodeInstance(int32_t from, const InstanceList& list) {
  PduWriter w(kPduInstance, from);
  w.U32(list.indom);
  w.U32(static_cast<uint32_t>(list.insts.size()));
  for (size_t i = 0; i < list.insts.size(); ++i) {
    w.I32(list.insts[i]);
    w.U32(static_cast<uint32_t>(list.names[i].size()));
    w.PaddedString(list.names[i]);
  }
  return w.Finish();
}

std::vector<uint8_t> EncodeText(int32_t from, uint32_t ident_raw, std::string_view text) {
  PduWriter w(kPduText, from);
  w.U32(ident_raw);
  w.U32(static_cast<uint32_t>(text.size()));
  w.PaddedString(text);
  return w.Finish();
}

std::vector<uint8_t> EncodeLabel(int32_t from, const LabelReply& reply) {
  PduWriter w(kPduLabel, from);
  w.U32(reply.ident);
  w.I32(reply.type);
  w.U32(0);
  w.U32(static_cast<uint32_t>(reply.sets.size()));
  // The JSON texts follow all the sets and their labels.
  size_t jsonoff = w.size() + 16 * reply.sets.size();
  for (const LabelSetWire& s : reply.sets) jsonoff += kLabelBytes * s.labels.size();
  for (const LabelSetWire& s : reply.sets) {
    w.I32(s.inst);
    w.I32(s.nlabels);
    w.U32(static_cast<uint32_t>(jsonoff));
    w.U32(static_cast<uint32_t>(s.json.size()));
    jsonoff += s.json.size();
    for (const LabelWire& l : s.labels) {
      w.U32((uint32_t{l.name} << 16) | (uint32_t{l.namelen} << 8) | l.flags);
      w.U32((uint32_t{l.value} << 16) | l.valuelen);
    }
  }
  for (const LabelSetWire& s : reply.sets) {
    w.Bytes(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.json.data()),
                                     s.json.size()));
  }
  return w.Finish();
}

std::vector<uint8_t> EncodeHighResResultPdu(int32_t from, const Result& result) {
  return ResultPdu(kPduHighResResult, from, result, ResultLayout::kHighRes);
}

// ---- Decoders ----

absl::StatusOr<int> DecodeError(std::span<const uint8_t> pdu) {
  absl::StatusOr<ByteReader> r = OpenPdu(pdu, kPduError, kErrorPduBytes);
  if (!r.ok()) return r.status();
  if (pdu.size() != kErrorPduBytes && pdu.size() != kXtendErrorPduBytes) return Malformed();
  int32_t code = 0;
  r->I32(&code);
  return code;
}

absl::StatusOr<HandshakeInfo> DecodeHandshake(std::span<const uint8_t> pdu) {
  absl::StatusOr<ByteReader> r = OpenPdu(pdu, kPduError, kXtendErrorPduBytes);
  if (!r.ok()) return r.status();
  if (pdu.size() != kXtendErrorPduBytes) return Malformed();
  int32_t code = 0;
  uint32_t datum = 0;
  r->I32(&code);
  r->U32(&datum);
  HandshakeInfo info;
  info.code = ErrorFromV1(code);
  info.version = static_cast<int>((datum >> 24) & 0xff);  // the top bit must be 0
  info.licensed = static_cast<int>((datum >> 16) & 0xff);
  info.features = static_cast<uint16_t>(datum);
  return info;
}

absl::StatusOr<uint16_t> DecodeCreds(std::span<const uint8_t> pdu) {
  absl::StatusOr<ByteReader> r = OpenPdu(pdu, kPduCreds, kPduHeaderBytes + 8);
  if (!r.ok()) return r.status();
  int32_t n = 0;
  uint32_t cred = 0;
  r->I32(&n);
  if (n != 1 || r->remaining() != 4) return Malformed();
  r->U32(&cred);
  if ((cred >> 24) != uint32_t{kCredVersion}) return Malformed();
  return static_cast<uint16_t>(cred);
}

absl::StatusOr<Desc> DecodeDescPdu(std::span<const uint8_t> pdu) {
  absl::StatusOr<ByteReader> r = OpenPdu(pdu, kPduDesc, kPduHeaderBytes + 20);
  if (!r.ok()) return r.status();
  Desc d;
  if (r->remaining() != 20 || !ReadDesc(*r, &d)) return Malformed();
  return d;
}

absl::StatusOr<std::vector<Desc>> DecodeDescs(std::span<const uint8_t> pdu) {
  absl::StatusOr<ByteReader> r = OpenPdu(pdu, kPduDescs, kPduHeaderBytes + 24);
  if (!r.ok()) return r.status();
  int32_t n = 0;
  r->I32(&n);
  if (n <= 0 || r->remaining() != size_t(n) * 20) return Malformed();
  std::vector<Desc> descs(n);
  for (Desc& d : descs) ReadDesc(*r, &d);  // sizes were checked above
  return descs;
}

absl::StatusOr<InstanceList> DecodeInstance(std::span<const uint8_t> pdu) {
  absl::StatusOr<ByteReader> r = OpenPdu(pdu, kPduInstance, kPduHeaderBytes + 8);
  if (!r.ok()) return r.status();
  InstanceList list;
  int32_t n = 0;
  r->U32(&list.indom);
  r->I32(&n);
  // Each instance takes at least 8 bytes.
  if (n < 0 || !r->Has(size_t(n) * 8)) return Malformed();
  list.insts.resize(n);
  list.names.resize(n);
  for (int32_t i = 0; i < n; ++i) {
    int32_t namelen = 0;
    if (!r->I32(&list.insts[i]) || !r->I32(&namelen) ||
        !ReadString(*r, namelen, &list.names[i])) {
      return Malformed();
    }
  }
  return list;
}

absl::StatusOr<TextReply> DecodeTextPdu(std::span<const uint8_t> pdu) {
  absl::StatusOr<ByteReader> r = OpenPdu(pdu, kPduText, kPduHeaderBytes + 8);
  if (!r.ok()) return r.status();
  TextReply t;
  int32_t buflen = 0;
  r->U32(&t.ident_raw);
  r->I32(&buflen);
  if (!ReadString(*r, buflen, &t.text)) return Malformed();
  return t;
}

absl::StatusOr<LabelReply> DecodeLabelPdu(std::span<const uint8_t> pdu) {
  absl::StatusOr<ByteReader> r = OpenPdu(pdu, kPduLabel, kPduHeaderBytes + 16);
  if (!r.ok()) return r.status();
  LabelReply reply;
  int32_t nsets = 0;
  uint32_t padding = 0;
  r->U32(&reply.ident);
  r->I32(&reply.type);
  r->U32(&padding);
  r->I32(&nsets);
  // Each set takes at least 16 bytes.
  if (nsets < 0 || !r->Has(size_t(nsets) * 16)) return Malformed();
  reply.sets.resize(nsets);
  for (LabelSetWire& s : reply.sets) {
    if (!ReadLabelSet(*r, pdu, &s)) return Malformed();
  }
  return reply;
}

absl::StatusOr<IdList> DecodeIdList(std::span<const uint8_t> pdu) {
  absl::StatusOr<PduHeader> h = DecodePduHeader(pdu);
  if (!h.ok()) return h.status();
  const int type = h->type == kPduDescIds ? kPduDescIds : kPduPmnsIds;
  absl::StatusOr<ByteReader> r = OpenPdu(pdu, type, kPduHeaderBytes + 12);
  if (!r.ok()) return r.status();
  IdList list;
  int32_t n = 0;
  r->I32(&list.sts);
  r->I32(&n);
  if (n <= 0 || r->remaining() != size_t(n) * 4) return Malformed();
  list.ids.resize(n);
  for (PmID& id : list.ids) r->U32(&id);  // the size was checked above
  return list;
}

absl::StatusOr<NameList> DecodeNameList(std::span<const uint8_t> pdu) {
  absl::StatusOr<ByteReader> r = OpenPdu(pdu, kPduPmnsNames, kPduHeaderBytes + 12);
  if (!r.ok()) return r.status();
  int32_t nstrbytes = 0, numstatus = 0, numnames = 0;
  r->I32(&nstrbytes);
  r->I32(&numstatus);
  r->I32(&numnames);
  NameList list;
  if (numnames == 0) return list;
  if (numnames < 0) return PcpError(numnames);
  if (nstrbytes < 0 || (numstatus != 0 && numstatus != numnames)) return Malformed();
  // Each name takes at least 4 (or 8, with status) bytes.
  const size_t each = numstatus ? 8 : 4;
  if (!r->Has(size_t(numnames) * each) || size_t(nstrbytes) > pdu.size()) return Malformed();
  list.names.resize(numnames);
  if (numstatus) list.status.resize(numnames);
  size_t strbytes = 0;
  for (int32_t i = 0; i < numnames; ++i) {
    int32_t namelen = 0;
    if (numstatus && !r->I32(&list.status[i])) return Malformed();
    if (!r->I32(&namelen) || !ReadString(*r, namelen, &list.names[i])) return Malformed();
    // The names must fit the space the sender declared, as libpcp checks.
    strbytes += list.names[i].size() + 1;
    if (strbytes > size_t(nstrbytes)) return Malformed();
  }
  return list;
}

absl::Status DecodeResultPdu(std::span<const uint8_t> pdu, Result* out) {
  absl::StatusOr<PduHeader> h = DecodePduHeader(pdu);
  if (!h.ok()) return h.status();
  if (h->len != pdu.size()) return Malformed();
  ResultLayout layout;
  if (h->type == kPduResult) {
    layout = ResultLayout::kTimeval;
  } else if (h->type == kPduHighResResult) {
    layout = ResultLayout::kHighRes;
  } else {
    return Malformed();
  }
  return DecodeResult(pdu.subspan(kPduHeaderBytes), layout, kErrIpc, out);
}

}  // namespace pmapi
