// pdu_format.h: the constants and byte layouts of PCP's PDU wire protocol
// (protocol version 2, as spoken by pmcd 6.x), in one place.
//
// Every PDU is a 12-byte header then a payload; all words are big-endian.
//
//   header      len:4 (whole PDU in bytes, header included; exact, need not
//               be a multiple of 4)  type:4 (kPdu*)  from:4 (sender's pid for
//               CREDS, the client's context number in requests, 0 from pmcd)
//   string      bytes padded with '~' to a multiple of 4; its length word
//               counts only the bytes
//
// Payloads (after the header):
//   ERROR          code:4                                    16 bytes
//                  code:4 datum:4  (handshake only; datum = version info)
//   RESULT         sec:4 usec:4 numpmid:4 value sets, value blocks
//   PROFILE        ctxnum:4 g_state:4 numprof:4 pad:4,
//                  numprof x (indom:4 state:4 numinst:4 pad:4), then all
//                  the instance ids of every entry in order
//   FETCH          ctxnum:4 unused:8 numpmid:4 pmid[numpmid]   (HIGHRES_FETCH
//                  is the same)
//   DESC_REQ       pmid:4
//   DESC           pmid:4 type:4 indom:4 sem:4 units:4
//   INSTANCE_REQ   indom:4 unused:8 inst:4 namelen:4 name
//   INSTANCE       indom:4 numinst:4, numinst x (inst:4 namelen:4 name)
//   TEXT_REQ       ident:4 type:4
//   TEXT           ident:4 buflen:4 text        (pmcd writes ident in its
//                                                own byte order: ignore it)
//   CREDS          numcreds:4, numcreds x (type:8 version:8 flags:16)
//   PMNS_IDS       sts:4 numids:4 pmid[numids]  (DESC_IDS is the same, sts -1)
//   PMNS_NAMES     nstrbytes:4 numstatus:4 numnames:4, numnames x
//                  ([status:4] namelen:4 name); status present iff
//                  numstatus == numnames
//   PMNS_CHILD     subtype:4 namelen:4 name     (PMNS_TRAVERSE is the same,
//                                                subtype 0)
//   ATTR           attr:4 value bytes (unpadded)
//   LABEL_REQ      ident:4 type:4
//   LABEL          ident:4 type:4 padding:4 nsets:4, nsets x (inst:4
//                  nlabels:4 jsonoff:4 jsonlen:4 nlabels x label:8), then
//                  the JSON texts; jsonoff is from the PDU start; a label is
//                  name:16 namelen:8 flags:8 value:16 valuelen:16, offsets
//                  into its set's JSON
//   HIGHRES_RESULT numpmid:4 sec:8 nsec:8 value sets, value blocks
//   DESCS          numdescs:4, numdescs x DESC payload
//
// Example:
//   if (header.type == pmapi::kPduError) ...
#ifndef PMAPI_SRC_PDU_FORMAT_H_
#define PMAPI_SRC_PDU_FORMAT_H_

#include <cstddef>
#include <cstdint>

#include "pmapi/vocabulary.h"

namespace pmapi {

// PDU types.
inline constexpr int kPduError = 0x7000;
inline constexpr int kPduResult = 0x7001;
inline constexpr int kPduProfile = 0x7002;
inline constexpr int kPduFetch = 0x7003;
inline constexpr int kPduDescReq = 0x7004;
inline constexpr int kPduDesc = 0x7005;
inline constexpr int kPduInstanceReq = 0x7006;
inline constexpr int kPduInstance = 0x7007;
inline constexpr int kPduTextReq = 0x7008;
inline constexpr int kPduText = 0x7009;
inline constexpr int kPduControlReq = 0x700a;
inline constexpr int kPduCreds = 0x700c;
inline constexpr int kPduPmnsIds = 0x700d;
inline constexpr int kPduPmnsNames = 0x700e;
inline constexpr int kPduPmnsChild = 0x700f;
inline constexpr int kPduPmnsTraverse = 0x7010;
inline constexpr int kPduAttr = 0x7011;
inline constexpr int kPduLabelReq = 0x7012;
inline constexpr int kPduLabel = 0x7013;
inline constexpr int kPduHighResFetch = 0x7014;
inline constexpr int kPduHighResResult = 0x7015;
inline constexpr int kPduDescIds = 0x7016;
inline constexpr int kPduDescs = 0x7017;

inline constexpr size_t kPduHeaderBytes = 12;
// An ERROR PDU, and the extended form pmcd opens a connection with.
inline constexpr size_t kErrorPduBytes = 16;
inline constexpr size_t kXtendErrorPduBytes = 20;
// Largest PDU this client accepts from a server unless told otherwise.
// PCP itself sets no limit on what a client reads; a cap keeps a broken or
// hostile server from making us buffer without end. 64 MiB holds a RESULT
// of about four million in-situ values.
inline constexpr size_t kDefaultMaxPduBytes = size_t{64} << 20;
// Largest PDU pmcd accepts from a client by default (pmcd -L); larger
// requests make it drop the connection.
inline constexpr size_t kDefaultMaxRequestBytes = 65536;

// Protocol version, and the sender id pmcd uses.
inline constexpr int kPduVersion = 2;
inline constexpr int kFromAnon = 0;

// Credential type of the one credential a client sends (c_type).
inline constexpr int kCredVersion = 1;

// Feature bits: advertised by pmcd in the handshake, requested by the client
// in its CVERSION credential.
inline constexpr uint16_t kFeatureSecure = 1u << 0;
inline constexpr uint16_t kFeatureCompress = 1u << 1;
inline constexpr uint16_t kFeatureAuth = 1u << 2;
inline constexpr uint16_t kFeatureCredsReqd = 1u << 3;
inline constexpr uint16_t kFeatureSecureAck = 1u << 4;
inline constexpr uint16_t kFeatureNoNssInit = 1u << 5;
inline constexpr uint16_t kFeatureContainer = 1u << 6;
inline constexpr uint16_t kFeatureCertReqd = 1u << 7;
inline constexpr uint16_t kFeatureBadLabel = 1u << 8;
inline constexpr uint16_t kFeatureLabels = 1u << 9;
inline constexpr uint16_t kFeatureHighRes = 1u << 10;
inline constexpr uint16_t kFeatureDescs = 1u << 11;

// Positive ERROR codes that precede a RESULT carry pmcd's state-change
// mask: the kPmcd* bits of pmapi/vocabulary.h.

// The handshake's error code uses PCP 1.x numbering (base 1000, not 12345).
inline constexpr int kErrBaseV1 = 1000;

// PMNS_CHILD subtypes and the per-name status values of its reply.
inline constexpr int kPmnsChildNames = 0;
inline constexpr int kPmnsChildStatus = 1;
// The per-name status values (kPmnsLeafStatus...) are pmns.h's; the text
// kinds (kTextOneline...) and label levels (kLabelContext...) are
// pmapi/vocabulary.h's.

// The TEXT_REQ bit asking for text held by pmcd itself.
inline constexpr int kTextDirect = 16;

// Label limits.
inline constexpr int kMaxLabels = 255;
inline constexpr int kMaxLabelJsonLen = 65535;
inline constexpr size_t kLabelBytes = 8;

// Instance profile states.
inline constexpr int kProfileInclude = 0;
inline constexpr int kProfileExclude = 1;

// ATTR codes this client may send.
inline constexpr int kAttrContainer = 15;

// Returns n rounded up to a multiple of 4 (the padding of PDU strings).
inline constexpr size_t PaddedBytes(size_t n) { return (n + 3) & ~size_t{3}; }

}  // namespace pmapi

#endif  // PMAPI_SRC_PDU_FORMAT_H_
