#include "pmapi/context.h"

#include <cstdlib>
#include <utility>

#include "pmapi/errors.h"
#include "pmapi/profile.h"
#include "source.h"

namespace pmapi {
namespace {

// The anonymous metrics every PCP context carries for event records
// (pmUnpackEventRecords fills them in); their names, PMIDs, descriptors and
// help text are interface facts clients print.
struct AnonMetric {
  const char* name;
  PmID pmid;
  const char* oneline;
  const char* help;
};

constexpr AnonMetric kAnonMetrics[] = {
    {"event.flags", MakePmID(511, 0, 1), "Flags for event records",
     "An anonymous derived metric that is used to encode the event flags\n"
     "associated with event records.   See pmUnpackEventRecords(3)."},
    {"event.missed", MakePmID(511, 0, 2), "Count of missed event records",
     "An anonymous derived metric that is used to encode the number of\n"
     "event records missed because either the PMDA could not keep up\n"
     "or the PMAPI client did not collect the event records fast\n"
     "enough.  See pmUnpackEventRecords(3)."},
};

const AnonMetric* AnonByName(std::string_view name) {
  for (const AnonMetric& m : kAnonMetrics) {
    if (name == m.name) return &m;
  }
  return nullptr;
}

const AnonMetric* AnonByPmid(PmID id) {
  for (const AnonMetric& m : kAnonMetrics) {
    if (id == m.pmid) return &m;
  }
  return nullptr;
}

// True if the anonymous metric `name` lies at or below `prefix`.
bool AnonUnder(std::string_view name, std::string_view prefix) {
  if (prefix.empty()) return true;
  return name == prefix || (name.size() > prefix.size() && name.substr(0, prefix.size()) == prefix &&
                            name[prefix.size()] == '.');
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Pmns>> LoadNameSpace(std::string_view path, bool dupok) {
  PmnsLoadOptions options;
  options.allow_duplicate_pmids = dupok;
  if (const char* var = std::getenv("PCP_VAR_DIR")) {
    options.include_dirs = {std::string(var) + "/pmns"};
  }
  absl::StatusOr<Pmns> ns = Pmns::LoadFile(path, options);
  if (!ns.ok()) return ns.status();
  return std::make_shared<const Pmns>(std::move(*ns));
}

Context::Context(std::unique_ptr<Source> source)
    : source_(std::move(source)), profile_(std::make_unique<Profile>()) {}
Context::Context(Context&&) noexcept = default;
Context& Context::operator=(Context&&) noexcept = default;
Context::~Context() = default;

int Context::kind() const { return source_->kind(); }
std::string Context::HostName() { return source_->HostName(); }

absl::StatusOr<PmID> Context::LookupName(std::string_view name) {
  if (const AnonMetric* m = AnonByName(name)) return m->pmid;
  if (names_ != nullptr) return names_->LookupName(name);
  return source_->LookupName(name);
}

std::vector<absl::StatusOr<PmID>> Context::LookupNames(std::span<const std::string> names) {
  std::vector<std::string> asked;
  for (const std::string& n : names) {
    if (AnonByName(n) == nullptr) asked.push_back(n);
  }
  std::vector<absl::StatusOr<PmID>> got;
  if (names_ != nullptr) {
    for (const std::string& n : asked) got.push_back(names_->LookupName(n));
  } else if (!asked.empty()) {
    got = source_->LookupNames(asked);
  }
  std::vector<absl::StatusOr<PmID>> out;
  out.reserve(names.size());
  size_t next = 0;
  for (const std::string& n : names) {
    if (const AnonMetric* m = AnonByName(n)) {
      out.push_back(m->pmid);
    } else {
      out.push_back(std::move(got[next++]));
    }
  }
  return out;
}

absl::StatusOr<std::vector<std::string>> Context::NameAll(PmID id) {
  if (const AnonMetric* m = AnonByPmid(id)) return std::vector<std::string>{m->name};
  if (names_ != nullptr) return names_->NameAll(id);
  return source_->NameAll(id);
}

absl::StatusOr<std::vector<PmnsChild>> WithAnonChildren(std::string_view name,
                                                        absl::StatusOr<std::vector<PmnsChild>> kids) {
  std::vector<PmnsChild> extra;
  for (const AnonMetric& m : kAnonMetrics) {
    std::string_view full = m.name;
    if (!AnonUnder(full, name) || full == name) continue;
    std::string_view rest = name.empty() ? full : full.substr(name.size() + 1);
    size_t dot = rest.find('.');
    PmnsChild kid{std::string(rest.substr(0, dot)),
                  dot == std::string_view::npos ? kPmnsLeafStatus : kPmnsNonLeafStatus};
    bool seen = false;
    for (const PmnsChild& k : extra) seen = seen || k.name == kid.name;
    if (kids.ok()) {
      for (const PmnsChild& k : *kids) seen = seen || k.name == kid.name;
    }
    if (!seen) extra.push_back(std::move(kid));
  }
  if (extra.empty()) {
    if (!kids.ok() && AnonByName(name) != nullptr) return std::vector<PmnsChild>{};
    return kids;
  }
  if (!kids.ok()) return extra;
  kids->insert(kids->end(), extra.begin(), extra.end());
  return kids;
}

absl::StatusOr<std::vector<PmnsChild>> Context::Children(std::string_view name) {
  return WithAnonChildren(name, names_ != nullptr ? names_->Children(name) : source_->Children(name));
}

absl::Status Context::Traverse(std::string_view name,
                               const std::function<void(const std::string&)>& visit) {
  absl::Status s;
  if (names_ != nullptr) {
    absl::StatusOr<std::vector<std::string>> all = names_->Traverse(name);
    s = all.status();
    if (all.ok()) {
      for (const std::string& n : *all) visit(n);
    }
  } else {
    s = source_->Traverse(name, visit);
  }
  bool any_anon = false;
  for (const AnonMetric& m : kAnonMetrics) {
    if (!AnonUnder(m.name, name)) continue;
    visit(m.name);
    any_anon = true;
  }
  return any_anon ? absl::OkStatus() : s;
}

void Context::UseNameSpace(std::shared_ptr<const Pmns> names) {
  loaded_names_ = names;
  names_ = std::move(names);
}

void Context::TrimNameSpace() {
  if (loaded_names_ == nullptr) return;
  if (kind() != kContextArchive) {
    names_ = loaded_names_;
    return;
  }
  names_ = std::make_shared<const Pmns>(
      loaded_names_->Trimmed([this](PmID id) { return source_->LookupDesc(id).ok(); }));
}

absl::StatusOr<Desc> Context::LookupDesc(PmID id) {
  if (AnonByPmid(id) != nullptr) {
    return Desc{id, kTypeU32, kInDomNull, kSemDiscrete, Units{}};
  }
  return source_->LookupDesc(id);
}

absl::StatusOr<std::vector<Desc>> Context::LookupDescs(std::span<const PmID> ids) {
  if (ids.empty()) return PcpError(kErrToosmall);
  std::vector<PmID> asked;
  asked.reserve(ids.size());
  for (PmID id : ids) {
    if (AnonByPmid(id) == nullptr) asked.push_back(id);
  }
  std::vector<Desc> got;
  if (!asked.empty()) {
    absl::StatusOr<std::vector<Desc>> d = source_->LookupDescs(asked);
    if (!d.ok()) return d.status();
    got = std::move(*d);
  }
  std::vector<Desc> out;
  out.reserve(ids.size());
  size_t next = 0;
  for (PmID id : ids) {
    if (AnonByPmid(id) != nullptr) {
      absl::StatusOr<Desc> anon = LookupDesc(id);
      out.push_back(*anon);
    } else {
      out.push_back(got[next++]);
    }
  }
  return out;
}

absl::StatusOr<std::vector<Instance>> Context::GetInDom(InDom indom) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  return source_->GetInDom(indom);
}

absl::StatusOr<std::vector<Instance>> Context::GetInDomArchive(InDom indom) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  return source_->GetInDomArchive(indom);
}

absl::StatusOr<std::string> Context::NameInDom(InDom indom, int32_t inst) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  return source_->NameInDom(indom, inst);
}

absl::StatusOr<int32_t> Context::LookupInDom(InDom indom, std::string_view name) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  return source_->LookupInDom(indom, name);
}

absl::StatusOr<std::string> Context::LookupText(PmID id, int kind) {
  if (const AnonMetric* m = AnonByPmid(id)) {
    return std::string((kind & kTextHelp) ? m->help : m->oneline);
  }
  return TextWithFallback(id, kind & (kTextOneline | kTextHelp), kTextPmid);
}

absl::StatusOr<std::string> Context::LookupInDomText(InDom indom, int kind) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  return TextWithFallback(indom, kind & (kTextOneline | kTextHelp), kTextInDom);
}

// An empty help text gives way to the one-line text, as in PCP.
absl::StatusOr<std::string> Context::TextWithFallback(uint32_t ident, int kind, int target) {
  absl::StatusOr<std::string> text = source_->LookupText(ident, kind | target);
  if (kind == kTextHelp && text.ok() && text->empty()) {
    absl::StatusOr<std::string> oneline = source_->LookupText(ident, kTextOneline | target);
    if (oneline.ok()) return oneline;
  }
  return text;
}

absl::StatusOr<std::vector<LabelSet>> Context::LookupLabels(int level, uint32_t ident) {
  return source_->LookupLabels(level, ident);
}

absl::Status Context::AddProfile(InDom indom, std::span<const int32_t> insts) {
  if (indom == kInDomNull && !insts.empty()) return PcpError(kErrProfilespec);
  profile_->Add(indom, insts);
  return absl::OkStatus();
}

absl::Status Context::DelProfile(InDom indom, std::span<const int32_t> insts) {
  if (indom == kInDomNull && !insts.empty()) return PcpError(kErrProfilespec);
  profile_->Delete(indom, insts);
  return absl::OkStatus();
}

bool Context::ProfileAdmits(InDom indom, int32_t inst) const {
  return profile_->Admits(indom, inst);
}

absl::Status Context::SetMode(int mode, absl::Time when, absl::Duration delta) {
  return source_->SetMode(mode, when, delta);
}

absl::StatusOr<Result> Context::Fetch(std::span<const PmID> ids, int* state_change) {
  if (state_change) *state_change = 0;
  if (ids.empty()) return PcpError(kErrToosmall);
  absl::StatusOr<Result> r = source_->Fetch(ids, *profile_, state_change);
  if (!r.ok()) return r;
  // Anonymous metrics have values only inside unpacked event records.
  for (size_t i = 0; i < ids.size(); ++i) {
    if (AnonByPmid(ids[i]) != nullptr) r->ClearSet(i);
  }
  return r;
}

absl::Status Context::Reconnect() { return source_->Reconnect(); }

absl::StatusOr<Result> Context::FetchArchive() { return source_->FetchArchive(); }

absl::Status Context::Store(const Result& values) { return source_->Store(values); }

absl::StatusOr<ArchiveLabel> Context::GetArchiveLabel() { return source_->GetArchiveLabel(); }

absl::StatusOr<absl::Time> Context::GetArchiveEnd() { return source_->GetArchiveEnd(); }

}  // namespace pmapi
