// c_pmda_mainloop.cc: a daemon agent's request loop (pmdaMain,
// __pmdaMainPDU): each PDU pmcd sends is decoded, handed to the handler of
// the agent's interface version, and answered as libpcp_pmda answers it:
// PROFILE and ATTR get no reply, an ERROR carrying PM_ERR_NOTCONN ends a
// client context, a store is answered with an ERROR carrying its status,
// every other request with its reply PDU or an ERROR.
#include <arpa/inet.h>
#include <syslog.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "c_api_internal.h"
#include "c_pmda_internal.h"
#include "c_pmda_link.h"
#include "pdu_codec.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

int Interface(const pmdaInterface* dp) { return static_cast<int>(dp->comm.pmda_interface); }

template <typename T>
int CodeOf(const absl::StatusOr<T>& v) {
  return v.ok() ? 0 : PcpCode(v.status());
}

// Sends `reply`, or an ERROR with `sts` when sts < 0.
void Answer(AgentLink& link, int sts, const std::vector<uint8_t>& reply) {
  absl::Status s = sts < 0 ? link.SendError(sts) : link.Write(reply);
  if (!s.ok()) pmNotifyErr(LOG_WARNING, "sending to pmcd failed: %s", ErrStr(PcpCode(s)).c_str());
}

void AnswerError(AgentLink& link, int sts) { Answer(link, sts < 0 ? sts : kErrGeneric, {}); }

void OnError(pmdaInterface* dp, std::span<const uint8_t> pdu) {
  absl::StatusOr<int> code = DecodeError(pdu);
  if (!code.ok()) return;  // nothing is expected back
  pmdaExt* ext = dp->version.any.ext;
  if (*code == PM_ERR_NOTCONN) {
    if (Interface(dp) >= PMDA_INTERFACE_5 && ext->e_endCallBack != nullptr) ext->e_endCallBack(ext->e_context);
    return;
  }
  pmNotifyErr(LOG_ERR, "%s: unexpected error pdu from pmcd: %s?", ext->e_name ? ext->e_name : "",
              ErrStr(*code).c_str());
}

void OnProfile(pmdaInterface* dp, AgentLink& link, std::span<const uint8_t> pdu) {
  absl::StatusOr<ProfileRequest> req = DecodeProfileReq(pdu);
  if (!req.ok()) return;  // no reply for a profile
  auto held = std::make_unique<AgentLink::HeldProfile>();
  for (const InDomProfile& p : req->profile.indoms) capi::CopyToC(p.insts, &held->insts.emplace_back());
  for (size_t i = 0; i < held->insts.size(); ++i) {
    pmInDomProfile e{};
    e.indom = ToPcp(req->profile.indoms[i].indom);
    e.state = req->profile.indoms[i].state;
    e.instances_len = static_cast<int>(held->insts[i].size());
    e.instances = held->insts[i].empty() ? nullptr : held->insts[i].data();
    held->entries.push_back(e);
  }
  held->prof.state = req->profile.state;
  held->prof.profile_len = static_cast<int>(held->entries.size());
  held->prof.profile = held->entries.empty() ? nullptr : held->entries.data();
  // As PCP's: a refused profile is dropped and the last one kept.
  if (dp->version.any.profile(&held->prof, dp->version.any.ext) < 0) return;
  link.profile = std::move(held);
  dp->version.any.ext->e_prof = &link.profile->prof;
}

void OnFetch(pmdaInterface* dp, AgentLink& link, std::span<const uint8_t> pdu) {
  pmdaExt* ext = dp->version.any.ext;
  absl::StatusOr<int> ctx = DecodeFetchReq(pdu, &link.pmids);
  if (!ctx.ok()) return AnswerError(link, CodeOf(ctx));
  capi::CopyToC(link.pmids, &link.c_pmids);
  pmResult* res = nullptr;
  const int numpmid = static_cast<int>(link.c_pmids.size());
  int sts = dp->version.any.fetch(numpmid, link.c_pmids.data(), &res, ext);
  if (sts < 0) return AnswerError(link, sts);
  if (res == nullptr) return AnswerError(link, PM_ERR_GENERIC);
  link.result.Clear();
  absl::Status copied = capi::AppendCValueSets(res->vset, res->numpmid, &link.result);
  // the first word of the time carries the agent's state changes to pmcd
  int changes = 0;
  if (CPmdaState* st = CPmdaStateOf(ext)) {
    changes = st->state_changes;
    st->state_changes = 0;
  }
  link.result.set_timestamp_ns(int64_t{changes} * 1000000000);
  if (copied.ok()) {
    Answer(link, 0, EncodeResultPdu(kFromAnon, link.result));
  } else {
    AnswerError(link, PcpCode(copied));
  }
  if (ext->e_resultCallBack != nullptr) ext->e_resultCallBack(res);
}

void OnDesc(pmdaInterface* dp, AgentLink& link, std::span<const uint8_t> pdu) {
  absl::StatusOr<PmID> id = DecodeDescReq(pdu);
  if (!id.ok()) return AnswerError(link, CodeOf(id));
  pmDesc d;
  std::memset(&d, 0, sizeof d);
  int sts = dp->version.any.desc(ToPcp(*id), &d, dp->version.any.ext);
  if (sts < 0) return AnswerError(link, sts);
  Answer(link, 0, EncodeDesc(kFromAnon, capi::FromC(d)));
}

void OnInstance(pmdaInterface* dp, AgentLink& link, std::span<const uint8_t> pdu) {
  absl::StatusOr<InstanceRequest> req = DecodeInstanceReq(pdu);
  if (!req.ok()) return AnswerError(link, CodeOf(req));
  pmInResult* r = nullptr;
  char* name = req->has_name ? req->name.data() : nullptr;
  int sts = dp->version.any.instance(ToPcp(req->indom), ToPcp(req->inst), name, &r,
                                     dp->version.any.ext);
  if (sts < 0) return AnswerError(link, sts);
  if (r == nullptr) return AnswerError(link, PM_ERR_GENERIC);
  InstanceList list;
  list.indom = InDom{r->indom};
  for (int i = 0; i < r->numinst; ++i) {
    list.insts.push_back(r->instlist != nullptr ? Inst{r->instlist[i]} : kInNull);
    list.names.emplace_back(r->namelist != nullptr && r->namelist[i] != nullptr ? r->namelist[i] : "");
  }
  FreeInResult(r);
  Answer(link, 0, EncodeInstance(kFromAnon, list));
}

void OnText(pmdaInterface* dp, AgentLink& link, std::span<const uint8_t> pdu) {
  absl::StatusOr<IdentRequest> req = DecodeIdentReq(kPduTextReq, pdu);
  if (!req.ok()) return AnswerError(link, CodeOf(req));
  char* text = nullptr;
  int sts = dp->version.any.text(static_cast<int>(req->ident), req->type, &text, dp->version.any.ext);
  if (sts >= 0 && text == nullptr) sts = PM_ERR_TEXT;
  if (sts < 0) return AnswerError(link, sts);
  // libpcp_pmda sends the identifier in the agent's byte order
  uint32_t raw = 0;
  std::memcpy(&raw, &req->ident, sizeof raw);
  Answer(link, 0, EncodeText(kFromAnon, ntohl(raw), text));
}

void OnLabel(pmdaInterface* dp, AgentLink& link, std::span<const uint8_t> pdu) {
  absl::StatusOr<IdentRequest> req = DecodeIdentReq(kPduLabelReq, pdu);
  if (!req.ok()) return AnswerError(link, CodeOf(req));
  pmLabelSet* sets = nullptr;
  int sts = 0;
  if (Interface(dp) >= PMDA_INTERFACE_7)
    sts = dp->version.seven.label(static_cast<int>(req->ident), req->type, &sets, dp->version.any.ext);
  if (sts < 0) return AnswerError(link, sts);
  if (sts > 0 && !(req->type & PM_LABEL_INSTANCES)) sts = 1;
  LabelReply reply;
  reply.ident = req->ident;
  reply.type = req->type;
  for (int i = 0; sets != nullptr && i < sts; ++i) {
    const pmLabelSet& c = sets[i];
    LabelSetWire w;
    w.inst = static_cast<Inst>(c.inst);
    w.nlabels = c.nlabels;
    if (c.nlabels > 0 && c.json != nullptr) {
      w.json.assign(c.json, static_cast<size_t>(c.jsonlen));
      for (int k = 0; c.labels != nullptr && k < c.nlabels; ++k) {
        const pmLabel& l = c.labels[k];
        w.labels.push_back(LabelWire{static_cast<uint16_t>(l.name), static_cast<uint8_t>(l.namelen),
                                     static_cast<uint8_t>(l.flags), static_cast<uint16_t>(l.value),
                                     static_cast<uint16_t>(l.valuelen)});
      }
    }
    reply.sets.push_back(std::move(w));
  }
  if (sets != nullptr) pmFreeLabelSets(sets, sts);
  Answer(link, 0, EncodeLabel(kFromAnon, reply));
}

// Copies a name list an agent returned (one block) and frees it.
std::vector<std::string> TakeNames(char** names, int n) {
  std::vector<std::string> out;
  for (int i = 0; names != nullptr && i < n; ++i) out.emplace_back(names[i] ? names[i] : "");
  std::free(names);
  return out;
}

void OnNames(pmdaInterface* dp, AgentLink& link, std::span<const uint8_t> pdu) {
  absl::StatusOr<NameList> req = DecodeNameList(pdu);
  int sts = CodeOf(req);
  pmID id = PM_ID_NULL;
  if (sts >= 0 && Interface(dp) < PMDA_INTERFACE_4) sts = PM_ERR_NAME;
  if (sts >= 0 && req->names.size() != 1) sts = PM_ERR_IPC;  // pmcd asks one name at a time
  if (sts >= 0) sts = dp->version.four.pmid(req->names[0].c_str(), &id, dp->version.any.ext);
  if (sts < 0) return AnswerError(link, sts);
  PmID ids[1] = {PmID{id}};
  Answer(link, 0, EncodeIdList(kPduPmnsIds, kFromAnon, sts, ids));
}

void OnIds(pmdaInterface* dp, AgentLink& link, std::span<const uint8_t> pdu) {
  absl::StatusOr<IdList> req = DecodeIdList(pdu);
  int sts = CodeOf(req);
  if (sts >= 0) sts = req->sts;
  if (sts >= 0 && Interface(dp) < PMDA_INTERFACE_4) sts = PM_ERR_PMID;
  char** names = nullptr;
  if (sts >= 0) sts = dp->version.four.name(ToPcp(req->ids[0]), &names, dp->version.any.ext);
  if (sts < 0) return AnswerError(link, sts);
  std::vector<std::string> list = TakeNames(names, sts);
  Answer(link, 0, EncodeNameList(kFromAnon, list, {}));
}

void OnChildren(pmdaInterface* dp, AgentLink& link, std::span<const uint8_t> pdu) {
  absl::StatusOr<NameRequest> req = DecodeNameReq(pdu);
  int sts = CodeOf(req);
  if (sts >= 0 && Interface(dp) < PMDA_INTERFACE_4) sts = PM_ERR_NAME;
  char** kids = nullptr;
  int* status = nullptr;
  const bool traverse = sts >= 0 && req->type == kPduPmnsTraverse;
  if (sts >= 0)
    sts = dp->version.four.children(req->name.c_str(), traverse ? 1 : 0, &kids, &status, dp->version.any.ext);
  if (sts < 0) return AnswerError(link, sts);
  std::vector<int> st;
  if (!traverse && req->subtype == kPmnsChildStatus && status != nullptr) st.assign(status, status + sts);
  std::free(status);
  std::vector<std::string> list = TakeNames(kids, sts);
  Answer(link, 0, EncodeNameList(kFromAnon, list, st));
}

void OnStore(pmdaInterface* dp, AgentLink& link, std::span<const uint8_t> pdu) {
  link.result.Clear();
  absl::Status s = DecodeResultPdu(pdu, &link.result);
  int sts = s.ok() ? 0 : PcpCode(s);
  if (sts >= 0) {
    pmResult* res = NewCResult(link.result);
    bool whole = res != nullptr;
    for (int i = 0; whole && i < res->numpmid; ++i) whole = res->vset[i] != nullptr;
    sts = whole ? dp->version.any.store(res, dp->version.any.ext) : -ENOMEM;
    FreeCResult(res);
  }
  absl::Status sent = link.SendError(sts);  // the store's status, 0 included
  if (!sent.ok()) pmNotifyErr(LOG_WARNING, "sending to pmcd failed: %s", ErrStr(PcpCode(sent)).c_str());
}

void OnAttr(pmdaInterface* dp, std::span<const uint8_t> pdu) {
  absl::StatusOr<AttrRequest> req = DecodeAttr(pdu);
  if (!req.ok() || Interface(dp) < PMDA_INTERFACE_6) return;  // no reply for an attribute
  pmdaExt* ext = dp->version.any.ext;
  int sts = dp->version.six.attribute(ext->e_context, req->attr, req->value.c_str(),
                                      static_cast<int>(req->value.size()), ext);
  if (sts < 0) pmNotifyErr(LOG_WARNING, "Failed to set attribute: %s", ErrStr(sts).c_str());
}

void Dispatch(pmdaInterface* dp, AgentLink& link, int type, std::span<const uint8_t> pdu) {
  switch (type) {
    case kPduError: return OnError(dp, pdu);
    case kPduProfile: return OnProfile(dp, link, pdu);
    case kPduFetch: return OnFetch(dp, link, pdu);
    case kPduDescReq: return OnDesc(dp, link, pdu);
    case kPduInstanceReq: return OnInstance(dp, link, pdu);
    case kPduTextReq: return OnText(dp, link, pdu);
    case kPduLabelReq: return OnLabel(dp, link, pdu);
    case kPduPmnsNames: return OnNames(dp, link, pdu);
    case kPduPmnsIds: return OnIds(dp, link, pdu);
    case kPduPmnsChild:
    case kPduPmnsTraverse: return OnChildren(dp, link, pdu);
    case kPduResult: return OnStore(dp, link, pdu);
    case kPduAttr: return OnAttr(dp, pdu);
    case kPduControlReq: return;
    default:
      pmNotifyErr(LOG_ERR, "%s: Unrecognised pdu type: 0x%x?",
                  dp->version.any.ext->e_name ? dp->version.any.ext->e_name : "", static_cast<unsigned>(type));
  }
}

}  // namespace

// Answers one PDU from pmcd; < 0 ends the loop (PM_ERR_EOF when pmcd
// closed the connection).
int MainPdu(pmdaInterface* dp) {
  pmdaExt* ext = dp->version.any.ext;
  CPmdaState* st = CPmdaStateOf(ext);
  if (dp->status != 0) {
    pmNotifyErr(LOG_ERR, "PMDA Initialisation Failed");
    return -1;
  }
  if (st == nullptr) return -1;
  // an agent may set its descriptors itself instead of calling pmdaConnect
  if (ext->e_infd >= 0 && (st->link == nullptr || st->link->infd() != ext->e_infd || st->link->outfd() != ext->e_outfd))
    st->link = std::make_shared<AgentLink>(ext->e_infd, ext->e_outfd);
  if (st->link == nullptr) {
    pmNotifyErr(LOG_CRIT, "PMDA not connected to pmcd (call pmdaConnect first)");
    return -1;
  }
  AgentLink& link = *st->link;
  absl::StatusOr<std::span<const uint8_t>> pdu = link.Read();
  if (!pdu.ok()) {
    pmNotifyErr(LOG_ERR, "IPC Error: %s", ErrStr(PcpCode(pdu.status())).c_str());
    return PcpCode(pdu.status());
  }
  if (pdu->empty()) return PM_ERR_EOF;
  absl::StatusOr<PduHeader> h = DecodePduHeader(*pdu);
  if (!h.ok()) return PcpCode(h.status());
  if (Interface(dp) >= PMDA_INTERFACE_5) {
    ext->e_context = h->from;
    SetCPmdaContext(h->from);
  }
  if (ext->e_checkCallBack != nullptr) {
    int sts = ext->e_checkCallBack();
    if (sts < 0) {
      if (h->type != kPduProfile && h->type != kPduAttr) AnswerError(link, sts);
      return 0;
    }
  }
  Dispatch(dp, link, h->type, *pdu);
  if (ext->e_doneCallBack != nullptr) ext->e_doneCallBack();
  return 0;
}

}  // namespace pmapi

extern "C" {

int __pmdaMainPDU(pmdaInterface* dp) { return dp == nullptr ? -1 : pmapi::MainPdu(dp); }

void pmdaMain(pmdaInterface* dp) {
  while (__pmdaMainPDU(dp) >= 0) {
  }
}

int __pmdaInFd(pmdaInterface* dp) {
  if (dp == nullptr || dp->version.any.ext == nullptr) return -1;
  return dp->version.any.ext->e_infd;
}

void pmdaSendError(pmdaInterface* dp, int err) {
  pmapi::CPmdaState* st = pmapi::CPmdaStateOf(dp ? dp->version.any.ext : nullptr);
  if (st != nullptr && st->link != nullptr) (void)st->link->SendError(err);
}

}  // extern "C"
