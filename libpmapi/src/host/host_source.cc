// The Source of a host context; see host_source.h.
#include "host_source.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "pmapi/errors.h"
#include "pmapi/host.h"

namespace pmapi {
namespace {

// Agent changes can alter what pmcd describes; names, labels and the host
// name do not touch descriptors.
constexpr int kAgentChanges = 1 << 0 | 1 << 1 | 1 << 2;
constexpr int kHostnameChange = 1 << 5;

// The largest domain number; a label ident up to it is a domain, not a PMID.
constexpr uint32_t kMaxDomain = 0x1ff;

std::string ThisHostName() {
  char buf[HOST_NAME_MAX + 1] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

// Returns the string a fetched string value holds (up to its first NUL).
std::optional<std::string> StringValue(const Result& r) {
  if (r.numpmid() != 1) return std::nullopt;
  const ValueSet& vs = r.sets()[0];
  if (vs.numval < 1 || vs.valfmt == kValInsitu) return std::nullopt;
  ValueView v = r.value(vs, 0);
  if (v.vtype != kTypeString) return std::nullopt;
  const char* p = reinterpret_cast<const char*>(v.payload.data());
  return std::string(p, strnlen(p, v.payload.size()));
}

}  // namespace

absl::StatusOr<std::unique_ptr<HostSource>> HostSource::Open(std::string_view spec) {
  absl::StatusOr<std::unique_ptr<HostProtocol>> p = HostProtocol::Connect(spec);
  if (!p.ok()) return p.status();
  return std::make_unique<HostSource>(std::move(*p));
}

HostSource::HostSource(std::unique_ptr<HostProtocol> protocol)
    : protocol_(std::move(protocol)),
      backoff_(ReconnectBackoff::FromEnvironment()) {}

absl::StatusOr<Context> OpenHostContext(std::string_view host_spec) {
  absl::StatusOr<std::unique_ptr<HostSource>> src = HostSource::Open(host_spec);
  if (!src.ok()) return src.status();
  return Context(std::move(*src));
}

std::string HostSource::FallbackHostName() const {
  std::string host = protocol_->SpecHost();
  if (host.empty() || host.rfind("localhost", 0) == 0) return ThisHostName();
  return host;
}

std::string HostSource::HostName() {
  if (host_name_.has_value()) return *host_name_;
  absl::StatusOr<PmID> id = protocol_->LookupName("pmcd.hostname");
  if (id.ok()) {
    Result r;
    PmID ids[] = {*id};
    if (protocol_->Fetch(ids, nullptr, &r, nullptr).ok()) {
      std::optional<std::string> name = StringValue(r);
      if (name.has_value()) {
        host_name_ = *name;
        return *name;
      }
    }
  }
  return FallbackHostName();
}

absl::StatusOr<PmID> HostSource::LookupName(std::string_view name) {
  return protocol_->LookupName(name);
}

std::vector<absl::StatusOr<PmID>> HostSource::LookupNames(std::span<const std::string> names) {
  std::vector<absl::StatusOr<PmID>> out;
  out.reserve(names.size());
  if (names.size() == 1) {
    out.push_back(protocol_->LookupName(names[0]));
    return out;
  }
  absl::StatusOr<std::vector<PmID>> ids = protocol_->LookupNames(names);
  for (size_t i = 0; i < names.size(); ++i) {
    if (!ids.ok()) {
      out.push_back(ids.status());
    } else if ((*ids)[i] == kPmIDNull) {
      out.push_back(protocol_->LookupName(names[i]));
    } else {
      out.push_back((*ids)[i]);
    }
  }
  return out;
}

absl::StatusOr<std::vector<std::string>> HostSource::NameAll(PmID id) {
  return protocol_->NameAll(id);
}

absl::StatusOr<std::vector<PmnsChild>> HostSource::Children(std::string_view name) {
  absl::StatusOr<HostNames> got = protocol_->Children(name);
  if (!got.ok()) return got.status();
  std::vector<PmnsChild> kids(got->names.size());
  for (size_t i = 0; i < kids.size(); ++i) {
    kids[i].name = std::move(got->names[i]);
    kids[i].status = got->status[i];
  }
  return kids;
}

absl::Status HostSource::Traverse(std::string_view name,
                                  const std::function<void(const std::string&)>& visit) {
  absl::StatusOr<std::vector<std::string>> names = protocol_->Traverse(name);
  if (!names.ok()) return names.status();
  for (const std::string& n : *names) visit(n);
  return absl::OkStatus();
}

absl::StatusOr<Desc> HostSource::LookupDesc(PmID id) {
  auto it = descs_.find(id);
  if (it != descs_.end()) return it->second;
  absl::StatusOr<Desc> d = protocol_->LookupDesc(id);
  if (d.ok()) descs_[id] = *d;
  return d;
}

absl::StatusOr<std::vector<Desc>> HostSource::LookupDescs(std::span<const PmID> ids) {
  if (ids.empty()) return PcpError(kErrToosmall);
  std::vector<PmID> missing;
  for (PmID id : ids) {
    if (!descs_.contains(id)) missing.push_back(id);
  }
  if (missing.size() > 1 && protocol_->has_descs()) {
    absl::StatusOr<std::vector<Desc>> got = protocol_->LookupDescs(missing);
    if (!got.ok()) return got.status();
    // pmcd marks a metric it cannot describe with a null PMID; that one is
    // left to a DESC_REQ of its own below, which brings back the reason.
    for (size_t i = 0; i < missing.size(); ++i) {
      if ((*got)[i].pmid == missing[i]) descs_[missing[i]] = (*got)[i];
    }
  }
  // Every descriptor is cached now (or fails as a single lookup would).
  return Source::LookupDescs(ids);
}

absl::StatusOr<std::vector<Instance>> HostSource::GetInDom(InDom indom) {
  absl::StatusOr<HostInstances> got = protocol_->Instances(indom, kInNull, "");
  if (!got.ok()) return got.status();
  std::vector<Instance> out(got->ids.size());
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].id = got->ids[i];
    out[i].name = std::move(got->names[i]);
  }
  return out;
}

absl::StatusOr<std::string> HostSource::NameInDom(InDom indom, Inst inst) {
  absl::StatusOr<HostInstances> got = protocol_->Instances(indom, inst, "");
  if (!got.ok()) return got.status();
  if (got->names.empty()) return PcpError(kErrInst);
  return std::move(got->names[0]);
}

absl::StatusOr<Inst> HostSource::LookupInDom(InDom indom, std::string_view name) {
  absl::StatusOr<HostInstances> got = protocol_->Instances(indom, kInNull, name);
  if (!got.ok()) return got.status();
  if (got->ids.empty()) return PcpError(kErrInst);
  return got->ids[0];
}

absl::StatusOr<std::string> HostSource::LookupText(uint32_t ident, int kind) {
  return protocol_->Text(ident, kind);
}

// The identifier pmcd expects for each level, as pmLookupLabels sends it.
absl::StatusOr<std::vector<LabelSet>> HostSource::LookupLabels(int level, uint32_t ident) {
  uint32_t id = ident;
  const PmID pmid{ident};
  switch (level) {
    case kLabelContext:
      id = ToPcp(kPmIDNull);
      break;
    case kLabelDomain:
      id = ident <= kMaxDomain ? ident : PmIDDomain(pmid);
      break;
    case kLabelCluster:
      id = ToPcp(MakePmID(PmIDDomain(pmid), PmIDCluster(pmid), 0));
      break;
    case kLabelInDom:
    case kLabelItem:
    case kLabelInstances:
      break;
    default:
      return PcpError(kErrType);
  }
  return protocol_->Labels(id, level);
}

void HostSource::NoteStateChange(int mask) {
  if (mask & kAgentChanges) descs_.clear();
  if (mask & kHostnameChange) host_name_.reset();
}

absl::StatusOr<Result> HostSource::Fetch(std::span<const PmID> ids, const Profile& profile,
                                         int* state_change) {
  Result r;
  int changed = 0;
  absl::Status s = protocol_->Fetch(ids, &profile, &r, &changed);
  if (changed != 0) NoteStateChange(changed);
  if (state_change != nullptr) *state_change |= changed;
  if (!s.ok()) return s;
  return r;
}

absl::Status HostSource::Store(const Result& values) { return protocol_->Store(values); }

absl::Status HostSource::Reconnect() {
  const absl::Time now = now_();
  if (!backoff_.Due(now)) return PcpError(-ETIMEDOUT);
  host_name_.reset();
  if (protocol_->Reconnect().ok()) {
    backoff_.Succeeded();
    return absl::OkStatus();
  }
  backoff_.Failed(now);
  return PcpError(-ETIMEDOUT);
}

}  // namespace pmapi
