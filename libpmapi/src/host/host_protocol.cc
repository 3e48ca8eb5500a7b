// The PMAPI requests over one pmcd connection; see host_protocol.h.
#include "host_protocol.h"

#include <utility>

#include "host_connection.h"
#include "pdu_codec.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

// Requests carry the client's context number in the header; each host
// context has its own connection, so it is always the first (0).
constexpr int32_t kFrom = 0;
constexpr int kCtxNum = 0;

InstanceProfile WireProfile(const Profile& profile) {
  InstanceProfile p;
  p.state = profile.include_all() ? kProfileInclude : kProfileExclude;
  for (const Profile::Entry& e : profile.entries()) {
    InDomProfile ip;
    ip.indom = e.indom;
    // On the wire an indom's state is its default, and the listed
    // instances are the exceptions to it (libpcp's __pmInProfile).
    ip.state = e.include_listed ? kProfileExclude : kProfileInclude;
    ip.insts = e.insts;
    p.indoms.push_back(std::move(ip));
  }
  return p;
}

LabelSet FromWire(LabelSetWire&& w) {
  LabelSet set;
  set.inst = w.inst;
  if (w.nlabels <= 0) return set;  // an error for this set: no labels
  set.json = std::move(w.json);
  set.labels.reserve(w.labels.size());
  for (const LabelWire& l : w.labels) {
    set.labels.push_back(LabelEntry{l.name, l.namelen, l.flags, l.value, l.valuelen});
  }
  return set;
}

}  // namespace

HostProtocol::HostProtocol(std::string spec, std::unique_ptr<ConnectOptions> options,
                           std::unique_ptr<HostConnection> conn)
    : spec_(std::move(spec)), options_(std::move(options)), conn_(std::move(conn)) {}

HostProtocol::~HostProtocol() = default;

absl::StatusOr<std::unique_ptr<HostProtocol>> HostProtocol::Connect(std::string_view spec) {
  return Connect(spec, ConnectOptions::FromEnvironment());
}

absl::StatusOr<std::unique_ptr<HostProtocol>> HostProtocol::Connect(
    std::string_view spec, const ConnectOptions& options) {
  absl::StatusOr<std::unique_ptr<HostConnection>> c = HostConnection::Connect(spec, options);
  if (!c.ok()) return c.status();
  return std::unique_ptr<HostProtocol>(new HostProtocol(
      std::string(spec), std::make_unique<ConnectOptions>(options), std::move(*c)));
}

absl::Status HostProtocol::Reconnect() {
  conn_.reset();
  sent_profile_.reset();
  absl::StatusOr<std::unique_ptr<HostConnection>> c = HostConnection::Connect(spec_, *options_);
  if (!c.ok()) return c.status();
  conn_ = std::move(*c);
  return absl::OkStatus();
}

std::string HostProtocol::SpecHost() const {
  absl::StatusOr<HostSpec> parsed = ParseHostSpec(spec_, *options_);
  if (!parsed.ok() || parsed->kind != HostSpec::Kind::kTcp) return "";
  return parsed->host;
}

bool HostProtocol::broken() const { return conn_ == nullptr || conn_->broken(); }
bool HostProtocol::has_highres() const { return conn_ && conn_->has_feature(kFeatureHighRes); }
bool HostProtocol::has_labels() const { return conn_ && conn_->has_feature(kFeatureLabels); }
bool HostProtocol::has_descs() const { return conn_ && conn_->has_feature(kFeatureDescs); }

absl::Status HostProtocol::Desync() {
  conn_.reset();
  return PcpError(kErrIpc);
}

absl::StatusOr<std::span<const uint8_t>> HostProtocol::Call(std::span<const uint8_t> request,
                                                            int expected) {
  if (conn_ == nullptr) return PcpError(kErrIpc);
  absl::StatusOr<std::span<const uint8_t>> reply = conn_->CallView(request);
  if (!reply.ok()) return reply.status();
  absl::StatusOr<PduHeader> h = DecodePduHeader(*reply);
  if (!h.ok()) return Desync();
  if (h->type == expected) return reply;
  if (h->type != kPduError) return Desync();
  absl::StatusOr<int> code = DecodeError(*reply);
  if (!code.ok()) return Desync();
  // Only a failure may stand in for the reply asked for.
  if (*code >= 0) return Desync();
  return PcpError(*code);
}

absl::StatusOr<PmID> HostProtocol::LookupName(std::string_view name) {
  const std::string names[] = {std::string(name)};
  absl::StatusOr<std::span<const uint8_t>> reply =
      Call(EncodeNameList(kFrom, names, {}), kPduPmnsIds);
  if (!reply.ok()) return reply.status();
  absl::StatusOr<IdList> ids = DecodeIdList(*reply);
  if (!ids.ok() || ids->ids.size() != 1) return Desync();
  // sts is the number of names found, or pmcd's error for a lone name.
  if (ids->sts < 0) return PcpError(ids->sts);
  if (ids->sts == 0 || ids->ids[0] == kPmIDNull) return PcpError(kErrName);
  return ids->ids[0];
}

absl::StatusOr<std::vector<PmID>> HostProtocol::LookupNames(std::span<const std::string> names) {
  if (names.empty()) return PcpError(kErrToosmall);
  absl::StatusOr<std::span<const uint8_t>> reply =
      Call(EncodeNameList(kFrom, names, {}), kPduPmnsIds);
  if (!reply.ok()) return reply.status();
  absl::StatusOr<IdList> ids = DecodeIdList(*reply);
  if (!ids.ok() || ids->ids.size() != names.size()) return Desync();
  if (ids->sts < 0) return PcpError(ids->sts);
  return std::move(ids->ids);
}

absl::StatusOr<std::vector<std::string>> HostProtocol::NameAll(PmID id) {
  const PmID ids[] = {id};
  absl::StatusOr<std::span<const uint8_t>> reply =
      Call(EncodeIdList(kPduPmnsIds, kFrom, 0, ids), kPduPmnsNames);
  if (!reply.ok()) return reply.status();
  absl::StatusOr<NameList> list = DecodeNameList(*reply);
  if (!list.ok()) return PcpCode(list.status()) == kErrIpc ? Desync() : list.status();
  if (list->names.empty()) return PcpError(kErrPmid);
  return std::move(list->names);
}

absl::StatusOr<HostNames> HostProtocol::Children(std::string_view name) {
  absl::StatusOr<std::span<const uint8_t>> reply =
      Call(EncodeNameReq(kPduPmnsChild, kFrom, name, kPmnsChildStatus), kPduPmnsNames);
  if (!reply.ok()) return reply.status();
  absl::StatusOr<NameList> list = DecodeNameList(*reply);
  if (!list.ok()) return PcpCode(list.status()) == kErrIpc ? Desync() : list.status();
  if (!list->names.empty() && list->status.size() != list->names.size()) return Desync();
  return HostNames{std::move(list->names), std::move(list->status)};
}

absl::StatusOr<std::vector<std::string>> HostProtocol::Traverse(std::string_view name) {
  absl::StatusOr<std::span<const uint8_t>> reply =
      Call(EncodeNameReq(kPduPmnsTraverse, kFrom, name, 0), kPduPmnsNames);
  if (!reply.ok()) return reply.status();
  absl::StatusOr<NameList> list = DecodeNameList(*reply);
  if (!list.ok()) return PcpCode(list.status()) == kErrIpc ? Desync() : list.status();
  return std::move(list->names);
}

absl::StatusOr<Desc> HostProtocol::LookupDesc(PmID id) {
  absl::StatusOr<std::span<const uint8_t>> reply = Call(EncodeDescReq(kFrom, id), kPduDesc);
  if (!reply.ok()) return reply.status();
  absl::StatusOr<Desc> d = DecodeDescPdu(*reply);
  if (!d.ok()) return Desync();
  return *d;
}

absl::StatusOr<std::vector<Desc>> HostProtocol::LookupDescs(std::span<const PmID> ids) {
  if (ids.empty()) return PcpError(kErrToosmall);
  absl::StatusOr<std::span<const uint8_t>> reply =
      Call(EncodeIdList(kPduDescIds, kFrom, -1, ids), kPduDescs);
  if (!reply.ok()) return reply.status();
  absl::StatusOr<std::vector<Desc>> d = DecodeDescs(*reply);
  if (!d.ok() || d->size() != ids.size()) return Desync();
  return std::move(*d);
}

absl::StatusOr<HostInstances> HostProtocol::Instances(InDom indom, Inst inst,
                                                      std::string_view name) {
  absl::StatusOr<std::span<const uint8_t>> reply =
      Call(EncodeInstanceReq(kFrom, indom, inst, name), kPduInstance);
  if (!reply.ok()) return reply.status();
  absl::StatusOr<InstanceList> list = DecodeInstance(*reply);
  if (!list.ok()) return Desync();
  return HostInstances{std::move(list->insts), std::move(list->names)};
}

absl::StatusOr<std::string> HostProtocol::Text(uint32_t ident, int type) {
  absl::StatusOr<std::span<const uint8_t>> reply = Call(EncodeTextReq(kFrom, ident, type), kPduText);
  if (!reply.ok()) return reply.status();
  absl::StatusOr<TextReply> t = DecodeTextPdu(*reply);
  if (!t.ok()) return Desync();
  return std::move(t->text);
}

absl::StatusOr<std::vector<LabelSet>> HostProtocol::Labels(uint32_t ident, int type) {
  if (conn_ != nullptr && !has_labels()) return PcpError(kErrNolabels);
  absl::StatusOr<std::span<const uint8_t>> reply = Call(EncodeLabelReq(kFrom, ident, type), kPduLabel);
  if (!reply.ok()) return reply.status();
  absl::StatusOr<LabelReply> l = DecodeLabelPdu(*reply);
  if (!l.ok()) return Desync();
  std::vector<LabelSet> sets;
  sets.reserve(l->sets.size());
  for (LabelSetWire& w : l->sets) sets.push_back(FromWire(std::move(w)));
  return sets;
}

absl::Status HostProtocol::StartFetch(std::span<const PmID> ids, const Profile* profile) {
  if (conn_ == nullptr) return PcpError(kErrIpc);
  if (profile != nullptr && sent_profile_ != profile->generation()) {
    absl::Status s = conn_->Send(EncodeProfile(kFrom, kCtxNum, WireProfile(*profile)));
    if (!s.ok()) return s;
    sent_profile_ = profile->generation();
  }
  fetch_request_.clear();
  AppendFetch(&fetch_request_, has_highres() ? kPduHighResFetch : kPduFetch, kFrom, kCtxNum, ids);
  return conn_->Send(fetch_request_);
}

absl::StatusOr<bool> HostProtocol::TakeFetchReply(std::span<const uint8_t> reply, size_t nids,
                                                  Result* out, int* state_change) {
  absl::StatusOr<PduHeader> h = DecodePduHeader(reply);
  if (!h.ok()) return Desync();
  if (h->type == (has_highres() ? kPduHighResResult : kPduResult)) {
    out->Clear();
    absl::Status d = DecodeResultPdu(reply, out);
    if (!d.ok() || out->numpmid() != static_cast<int>(nids)) return Desync();
    return true;
  }
  // pmcd may announce state changes with positive ERROR codes first.
  if (h->type != kPduError) return Desync();
  absl::StatusOr<int> code = DecodeError(reply);
  if (!code.ok() || *code == 0) return Desync();
  if (*code < 0) return PcpError(*code);
  if (state_change != nullptr) *state_change |= *code;
  return false;
}

absl::Status HostProtocol::Fetch(std::span<const PmID> ids, const Profile* profile, Result* out,
                                 int* state_change) {
  absl::Status s = StartFetch(ids, profile);
  if (!s.ok()) return s;
  while (true) {
    absl::StatusOr<std::span<const uint8_t>> reply = conn_->ReceiveView();
    if (!reply.ok()) return reply.status();
    absl::StatusOr<bool> done = TakeFetchReply(*reply, ids.size(), out, state_change);
    if (!done.ok()) return done.status();
    if (*done) return absl::OkStatus();
  }
}

absl::StatusOr<bool> HostProtocol::ContinueFetch(size_t nids, Result* out, int* state_change) {
  while (true) {
    if (conn_ == nullptr) return PcpError(kErrIpc);
    absl::StatusOr<std::span<const uint8_t>> reply = conn_->ReceiveReady();
    if (!reply.ok()) return reply.status();
    if (reply->empty()) return false;
    absl::StatusOr<bool> done = TakeFetchReply(*reply, nids, out, state_change);
    if (!done.ok() || *done) return done;
  }
}

int HostProtocol::fd() const { return conn_ == nullptr ? -1 : conn_->fd(); }

absl::Status HostProtocol::Store(const Result& values) {
  if (conn_ == nullptr) return PcpError(kErrIpc);
  absl::Status s = conn_->Send(EncodeResultPdu(kFrom, values));
  if (!s.ok()) return s;
  absl::StatusOr<std::span<const uint8_t>> reply = conn_->ReceiveView();
  if (!reply.ok()) return reply.status();
  absl::StatusOr<int> code = DecodeError(*reply);
  if (!code.ok() || *code > 0) return Desync();
  return *code < 0 ? PcpError(*code) : absl::OkStatus();
}

}  // namespace pmapi
