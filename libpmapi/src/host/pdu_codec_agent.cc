// Decoders of the requests pmcd forwards to an agent; see pdu_codec.h and
// the layouts in pdu_format.h.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "byte_reader.h"
#include "pdu_codec.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

absl::Status Malformed() { return PcpError(kErrIpc); }

// Returns a reader over the payload of `pdu` if its header is whole, its
// length matches the bytes given, its type is `type` and it holds at least
// `payload` bytes after the header.
absl::StatusOr<ByteReader> Payload(std::span<const uint8_t> pdu, int type, size_t payload) {
  absl::StatusOr<PduHeader> h = DecodePduHeader(pdu);
  if (!h.ok()) return h.status();
  if (h->len != pdu.size() || h->type != type || pdu.size() < kPduHeaderBytes + payload)
    return Malformed();
  ByteReader r(pdu);
  r.Skip(kPduHeaderBytes);
  return r;
}

// Reads a string of `len` bytes and its padding (a final string may come
// without its padding).
bool ReadName(ByteReader& r, int32_t len, std::string* out) {
  std::span<const uint8_t> bytes;
  if (len < 0 || !r.Bytes(static_cast<size_t>(len), &bytes)) return false;
  out->assign(bytes.begin(), bytes.end());
  const size_t pad = PaddedBytes(bytes.size()) - bytes.size();
  r.Skip(pad < r.remaining() ? pad : r.remaining());
  return true;
}

}  // namespace

absl::StatusOr<CredsInfo> DecodeCredsInfo(std::span<const uint8_t> pdu) {
  absl::StatusOr<uint16_t> flags = DecodeCreds(pdu);
  if (!flags.ok()) return flags.status();
  CredsInfo info;
  info.flags = *flags;
  // the one credential is the last word: type:8 version:8 flags:16
  info.version = static_cast<int>((LoadBigEndian32(pdu.data() + pdu.size() - 4) >> 16) & 0xff);
  return info;
}

absl::StatusOr<ProfileRequest> DecodeProfileReq(std::span<const uint8_t> pdu) {
  absl::StatusOr<ByteReader> r = Payload(pdu, kPduProfile, 16);
  if (!r.ok()) return r.status();
  ProfileRequest req;
  int32_t numprof = 0;
  uint32_t pad = 0;
  r->I32(&req.ctxnum);
  r->I32(&req.profile.state);
  r->I32(&numprof);
  r->U32(&pad);
  // Each entry takes 16 bytes before its instances.
  if (numprof < 0 || !r->Has(size_t(numprof) * 16)) return Malformed();
  req.profile.indoms.resize(size_t(numprof));
  size_t total = 0;
  for (InDomProfile& p : req.profile.indoms) {
    int32_t numinst = 0;
    r->U32(&p.indom);
    r->I32(&p.state);
    r->I32(&numinst);
    r->U32(&pad);
    if (numinst < 0) return Malformed();
    total += size_t(numinst);
    if (total > r->remaining() / 4) return Malformed();
    p.insts.resize(size_t(numinst));
  }
  if (r->remaining() != total * 4) return Malformed();
  for (InDomProfile& p : req.profile.indoms) {
    for (Inst& inst : p.insts) r->I32(&inst);
  }
  return req;
}

absl::StatusOr<int> DecodeFetchReq(std::span<const uint8_t> pdu, std::vector<PmID>* pmids) {
  absl::StatusOr<PduHeader> h = DecodePduHeader(pdu);
  if (!h.ok()) return h.status();
  const int type = h->type == kPduHighResFetch ? kPduHighResFetch : kPduFetch;
  absl::StatusOr<ByteReader> r = Payload(pdu, type, 16);
  if (!r.ok()) return r.status();
  int32_t ctxnum = 0, numpmid = 0;
  r->I32(&ctxnum);
  r->Skip(8);  // the request's time, unused
  r->I32(&numpmid);
  if (numpmid < 0 || r->remaining() != size_t(numpmid) * 4) return Malformed();
  pmids->resize(size_t(numpmid));
  for (PmID& id : *pmids) r->U32(&id);
  return ctxnum;
}

absl::StatusOr<PmID> DecodeDescReq(std::span<const uint8_t> pdu) {
  absl::StatusOr<ByteReader> r = Payload(pdu, kPduDescReq, 4);
  if (!r.ok()) return r.status();
  if (r->remaining() != 4) return Malformed();
  PmID id{};
  r->U32(&id);
  return id;
}

absl::StatusOr<InstanceRequest> DecodeInstanceReq(std::span<const uint8_t> pdu) {
  absl::StatusOr<ByteReader> r = Payload(pdu, kPduInstanceReq, 20);
  if (!r.ok()) return r.status();
  InstanceRequest req;
  int32_t namelen = 0;
  r->U32(&req.indom);
  r->Skip(8);  // the request's time, unused
  r->I32(&req.inst);
  r->I32(&namelen);
  if (!ReadName(*r, namelen, &req.name) || r->remaining() != 0) return Malformed();
  req.has_name = namelen > 0;
  return req;
}

absl::StatusOr<IdentRequest> DecodeIdentReq(int type, std::span<const uint8_t> pdu) {
  absl::StatusOr<ByteReader> r = Payload(pdu, type, 8);
  if (!r.ok()) return r.status();
  if (r->remaining() != 8) return Malformed();
  IdentRequest req;
  r->U32(&req.ident);
  r->I32(&req.type);
  return req;
}

absl::StatusOr<NameRequest> DecodeNameReq(std::span<const uint8_t> pdu) {
  absl::StatusOr<PduHeader> h = DecodePduHeader(pdu);
  if (!h.ok()) return h.status();
  const int type = h->type == kPduPmnsTraverse ? kPduPmnsTraverse : kPduPmnsChild;
  absl::StatusOr<ByteReader> r = Payload(pdu, type, 8);
  if (!r.ok()) return r.status();
  NameRequest req;
  req.type = type;
  int32_t namelen = 0;
  r->I32(&req.subtype);
  r->I32(&namelen);
  if (!ReadName(*r, namelen, &req.name) || r->remaining() != 0) return Malformed();
  if (type == kPduPmnsChild && req.subtype != kPmnsChildNames && req.subtype != kPmnsChildStatus)
    return Malformed();
  return req;
}

absl::StatusOr<AttrRequest> DecodeAttr(std::span<const uint8_t> pdu) {
  absl::StatusOr<ByteReader> r = Payload(pdu, kPduAttr, 4);
  if (!r.ok()) return r.status();
  AttrRequest req;
  r->I32(&req.attr);
  std::span<const uint8_t> bytes;
  r->Bytes(r->remaining(), &bytes);
  req.value.assign(bytes.begin(), bytes.end());
  return req;
}

}  // namespace pmapi
