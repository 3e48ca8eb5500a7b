// pdu_codec.h: encoders and decoders of PCP's PDUs (layouts in pdu_format.h).
//
// Encoders build a whole PDU (header included) as bytes ready to send, with
// the same bytes PCP 6.0.3's libpcp sends. Decoders take one whole PDU as
// received and check everything before using it: the header's length must
// equal the bytes given, the type must be the expected one, and every count,
// length and offset must fit in what the PDU holds before anything is
// allocated for it. A PDU that fails any check gives PM_ERR_IPC.
//
// Both directions are here (requests and replies) so that tests and scripted
// servers can speak the protocol with the same code.
//
// Example:
//   std::vector<uint8_t> req = pmapi::EncodeDescReq(0, pmid);
//   ... send req, receive reply ...
//   absl::StatusOr<pmapi::Desc> d = pmapi::DecodeDescPdu(reply);
#ifndef PMAPI_SRC_PDU_CODEC_H_
#define PMAPI_SRC_PDU_CODEC_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pdu_format.h"
#include "pmapi/result.h"
#include "pmapi/types.h"

namespace pmapi {

struct PduHeader {
  uint32_t len = 0;
  int type = 0;
  int32_t from = 0;
};

// Returns the header at the start of `bytes`. Fails with PM_ERR_IPC if fewer
// than 12 bytes are given or the length field is below 12.
absl::StatusOr<PduHeader> DecodePduHeader(std::span<const uint8_t> bytes);

// Appends the big-endian words of one PDU; Finish() fills in the length.
class PduWriter {
 public:
  PduWriter(int type, int32_t from);
  void U32(uint32_t v);
  void I32(int32_t v) { U32(static_cast<uint32_t>(v)); }
  // A PMID or an InDom goes on the wire as PCP's 32-bit number.
  void U32(PmID id) { U32(ToPcp(id)); }
  void U32(InDom indom) { U32(ToPcp(indom)); }
  void I32(Inst inst) { I32(ToPcp(inst)); }
  void U64(uint64_t v);
  // Appends s, then '~' up to a multiple of 4 bytes.
  void PaddedString(std::string_view s);
  // Appends raw bytes, unpadded.
  void Bytes(std::span<const uint8_t> b);
  size_t size() const { return buf_.size(); }
  // Returns the finished PDU. The writer is empty afterwards.
  std::vector<uint8_t> Finish();

 private:
  std::vector<uint8_t> buf_;
};

// ---- Requests (client to pmcd) ----

struct InDomProfile {
  InDom indom = kInDomNull;
  int state = kProfileInclude;
  std::vector<Inst> insts;
};
// An instance profile: the global state and per-indom exceptions.
struct InstanceProfile {
  int state = kProfileInclude;
  std::vector<InDomProfile> indoms;
};

// Returns CREDS with one CVERSION credential asking for `flags`.
std::vector<uint8_t> EncodeCreds(int32_t from, uint16_t flags);

std::vector<uint8_t> EncodeProfile(int32_t from, int ctxnum, const InstanceProfile& profile);
// Returns FETCH or HIGHRES_FETCH. REQUIRES: type is kPduFetch or
// kPduHighResFetch.
std::vector<uint8_t> EncodeFetch(int type, int32_t from, int ctxnum, std::span<const PmID> pmids);
// As EncodeFetch, but the PDU is appended to *out (whose capacity a caller
// can keep from one request to the next).
void AppendFetch(std::vector<uint8_t>* out, int type, int32_t from, int ctxnum,
                 std::span<const PmID> pmids);
std::vector<uint8_t> EncodeDescReq(int32_t from, PmID pmid);
// Returns PMNS_IDS (type kPduPmnsIds; sts 0 in requests, the number found in
// pmcd's reply) or DESC_IDS (type kPduDescIds, sts -1).
std::vector<uint8_t> EncodeIdList(int type, int32_t from, int sts, std::span<const PmID> ids);
// Returns INSTANCE_REQ for inst (or kInNull) and name ("" for none).
std::vector<uint8_t> EncodeInstanceReq(int32_t from, InDom indom, Inst inst,
                                       std::string_view name);
std::vector<uint8_t> EncodeTextReq(int32_t from, uint32_t ident, int type);
std::vector<uint8_t> EncodeLabelReq(int32_t from, uint32_t ident, int type);
// Returns PMNS_NAMES: a lookup request, or a reply. `status` is empty or
// holds one leaf/non-leaf status per name. REQUIRES: status.size() is 0 or
// names.size().
std::vector<uint8_t> EncodeNameList(int32_t from, std::span<const std::string> names,
                                    std::span<const int> status);
// Returns PMNS_CHILD (subtype kPmnsChildNames or kPmnsChildStatus) or
// PMNS_TRAVERSE (subtype 0). REQUIRES: type is one of those two.
std::vector<uint8_t> EncodeNameReq(int type, int32_t from, std::string_view name, int subtype);
// Returns RESULT (the pmStore request, and pmcd's reply to FETCH).
std::vector<uint8_t> EncodeResultPdu(int32_t from, const Result& result);
// An ATTR value's limit: libpcp refuses values of this size or more.
inline constexpr size_t kMaxAttrBytes = 4096;
// Returns ATTR: the attribute code, then the value's bytes, unpadded.
std::vector<uint8_t> EncodeAttr(int32_t from, int attr, std::string_view value);

// ---- Replies (pmcd to client) ----

struct HandshakeInfo {
  int code = 0;  // 0, or why pmcd refuses the connection (PCP 2 numbering)
  int version = 0;
  int licensed = 0;
  uint16_t features = 0;
};

struct InstanceList {
  InDom indom = kInDomNull;
  std::vector<Inst> insts;
  std::vector<std::string> names;
};

struct TextReply {
  // pmcd sends the identifier in its own byte order, so it is only the raw
  // word received (it is not checked against the request, as in libpcp).
  uint32_t ident_raw = 0;
  std::string text;
};

struct LabelWire {
  uint16_t name = 0;  // offset of the name in the set's JSON
  uint8_t namelen = 0;
  uint8_t flags = 0;
  uint16_t value = 0;  // offset of the value in the set's JSON
  uint16_t valuelen = 0;
  friend bool operator==(const LabelWire&, const LabelWire&) = default;
};

struct LabelSetWire {
  Inst inst = kInNull;
  int nlabels = 0;   // count, or a negative PCP error code
  std::string json;  // empty unless nlabels > 0, as libpcp keeps it
  std::vector<LabelWire> labels;
};

struct LabelReply {
  uint32_t ident = 0;
  int type = 0;
  std::vector<LabelSetWire> sets;
};

struct IdList {
  int sts = 0;
  std::vector<PmID> ids;
};

struct NameList {
  std::vector<std::string> names;
  std::vector<int> status;  // empty, or one per name
};

std::vector<uint8_t> EncodeError(int32_t from, int code);
// Returns the 20-byte handshake ERROR. `code` is in PCP 2 numbering and is
// sent in PCP 1 numbering, as pmcd does.
std::vector<uint8_t> EncodeHandshake(int32_t from, const HandshakeInfo& info);
std::vector<uint8_t> EncodeDesc(int32_t from, const Desc& desc);
// REQUIRES: descs is not empty.
std::vector<uint8_t> EncodeDescs(int32_t from, std::span<const Desc> descs);
// REQUIRES: list.names.size() == list.insts.size().
std::vector<uint8_t> EncodeInstance(int32_t from, const InstanceList& list);
std::vector<uint8_t> EncodeText(int32_t from, uint32_t ident_raw, std::string_view text);
std::vector<uint8_t> EncodeLabel(int32_t from, const LabelReply& reply);
std::vector<uint8_t> EncodeHighResResultPdu(int32_t from, const Result& result);

// Each decoder takes one whole PDU. Each returns PM_ERR_IPC if the PDU is
// not of its type or is malformed.

// Returns the code of a 16-byte (or 20-byte) ERROR: negative for an error,
// 0, or a positive pmcd state-change mask.
absl::StatusOr<int> DecodeError(std::span<const uint8_t> pdu);
// Returns the handshake ERROR pmcd sends first. A 16-byte ERROR (no version
// information) is PM_ERR_IPC.
absl::StatusOr<HandshakeInfo> DecodeHandshake(std::span<const uint8_t> pdu);
absl::StatusOr<uint16_t> DecodeCreds(std::span<const uint8_t> pdu);
absl::StatusOr<Desc> DecodeDescPdu(std::span<const uint8_t> pdu);
absl::StatusOr<std::vector<Desc>> DecodeDescs(std::span<const uint8_t> pdu);
absl::StatusOr<InstanceList> DecodeInstance(std::span<const uint8_t> pdu);
absl::StatusOr<TextReply> DecodeTextPdu(std::span<const uint8_t> pdu);
absl::StatusOr<LabelReply> DecodeLabelPdu(std::span<const uint8_t> pdu);
// Decodes PMNS_IDS or DESC_IDS (numids must be at least 1).
absl::StatusOr<IdList> DecodeIdList(std::span<const uint8_t> pdu);
// Decodes PMNS_NAMES. A negative name count is the error it carries: that
// code is returned as the status.
absl::StatusOr<NameList> DecodeNameList(std::span<const uint8_t> pdu);
// Decodes RESULT or HIGHRES_RESULT into *out.
absl::Status DecodeResultPdu(std::span<const uint8_t> pdu, Result* out);

// ---- Requests as an agent receives them (pmcd to agent) ----
//
// pmcd forwards a client's requests to an agent in the same PDUs a client
// sends, with the client's context number in the header's `from`. These
// decoders are the inverse of the request encoders above, with the same
// checks as every other decoder (PM_ERR_IPC for anything malformed).

// The CVERSION credential pmcd answers an agent's with.
struct CredsInfo {
  int version = 0;
  uint16_t flags = 0;
};
absl::StatusOr<CredsInfo> DecodeCredsInfo(std::span<const uint8_t> pdu);

struct ProfileRequest {
  int ctxnum = 0;
  InstanceProfile profile;
};
absl::StatusOr<ProfileRequest> DecodeProfileReq(std::span<const uint8_t> pdu);

// Decodes FETCH (or HIGHRES_FETCH) into *pmids (cleared first, capacity
// kept); returns the context number.
absl::StatusOr<int> DecodeFetchReq(std::span<const uint8_t> pdu, std::vector<PmID>* pmids);
absl::StatusOr<PmID> DecodeDescReq(std::span<const uint8_t> pdu);

struct InstanceRequest {
  InDom indom = kInDomNull;
  Inst inst = kInNull;
  bool has_name = false;  // a zero-length name means none
  std::string name;
};
absl::StatusOr<InstanceRequest> DecodeInstanceReq(std::span<const uint8_t> pdu);

// TEXT_REQ and LABEL_REQ: an identifier and what is asked of it.
struct IdentRequest {
  uint32_t ident = 0;
  int type = 0;
};
// REQUIRES: type is kPduTextReq or kPduLabelReq.
absl::StatusOr<IdentRequest> DecodeIdentReq(int type, std::span<const uint8_t> pdu);

// PMNS_CHILD (subtype kPmnsChildNames or kPmnsChildStatus) and
// PMNS_TRAVERSE (subtype 0).
struct NameRequest {
  int type = 0;
  int subtype = 0;
  std::string name;
};
absl::StatusOr<NameRequest> DecodeNameReq(std::span<const uint8_t> pdu);

struct AttrRequest {
  int attr = 0;
  std::string value;  // the bytes as sent (not NUL-terminated on the wire)
};
absl::StatusOr<AttrRequest> DecodeAttr(std::span<const uint8_t> pdu);

}  // namespace pmapi

#endif  // PMAPI_SRC_PDU_CODEC_H_
