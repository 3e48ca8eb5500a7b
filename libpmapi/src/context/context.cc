#include "pmapi/context.h"

#include <cstdlib>
#include <utility>

#include "context_derived.h"
#include "pcp/pmapi.h"
#include "trace.h"
#include "messages.h"
#include "pmapi/errors.h"
#include "pmapi/profile.h"
#include "pdu_format.h"
#include "source.h"

namespace pmapi {

using derive::IsDerivedPmid;

namespace {

// The anonymous metrics PCP registers as derived metrics in every process.
constexpr std::string_view kAnonNames[] = {"event.flags", "event.missed"};

// True if `full` lies strictly below `prefix` ("" is the root).
bool StrictlyUnder(std::string_view full, std::string_view prefix) {
  if (prefix.empty()) return true;
  return full.size() > prefix.size() && full.substr(0, prefix.size()) == prefix &&
         full[prefix.size()] == '.';
}

}  // namespace

absl::StatusOr<std::vector<PmnsChild>> WithAnonChildren(std::string_view name,
                                                        absl::StatusOr<std::vector<PmnsChild>> kids) {
  std::vector<PmnsChild> extra;
  for (std::string_view full : kAnonNames) {
    if (!StrictlyUnder(full, name)) continue;
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
  if (extra.empty()) return kids;
  if (!kids.ok()) return extra;
  kids->insert(kids->end(), extra.begin(), extra.end());
  return kids;
}

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
    : source_(std::move(source)),
      profile_(std::make_unique<Profile>()),
      derived_(std::make_unique<derive::ContextDerived>()) {}
Context::Context(Context&&) noexcept = default;
Context& Context::operator=(Context&&) noexcept = default;
Context::~Context() = default;

ContextKind Context::kind() const { return source_->kind(); }
// A host's name is pmcd.hostname, fetched through the context as PCP's
// pmGetContextHostName fetches it each time (so -Dfetch shows the fetch);
// the source's own answer when that fails.
std::string Context::HostName() {
  if (kind() == ContextKind::kHost) {
    absl::StatusOr<PmID> id = LookupName("pmcd.hostname");
    if (id.ok()) {
      const PmID ids[1] = {*id};
      absl::StatusOr<Result> r = Fetch(ids);
      if (r.ok() && !r->sets().empty() && r->sets()[0].numval > 0 &&
          r->sets()[0].valfmt != kValInsitu) {
        ValueView v = r->value(r->sets()[0], 0);
        std::string name(v.payload.begin(), v.payload.end());
        return name.substr(0, name.find('\0'));
      }
    }
  }
  return source_->HostName();
}

// The names of the context before derived metrics: a name space loaded
// with UseNameSpace (maybe trimmed) replaces the source's.
// In a local context, the names at and below a dynamic node of a loaded
// name space are those the node's agent serves.
std::optional<unsigned> Context::AgentDomainAt(std::string_view name) const {
  if (kind() != ContextKind::kLocal || names_ == nullptr) return std::nullopt;
  const PmnsMatch m = names_->Resolve(name);
  if (m.kind != PmnsMatch::Kind::kDynamic) return std::nullopt;
  return DynamicRootDomain(m.pmid);
}

absl::StatusOr<PmID> Context::BaseLookupName(std::string_view name) {
  if (names_ == nullptr) return source_->LookupName(name);
  if (std::optional<unsigned> domain = AgentDomainAt(name)) {
    const PmnsMatch m = names_->Resolve(name);
    if (m.at_root) return m.pmid;
    return source_->LookupAgentName(name, *domain);
  }
  return names_->LookupName(name);
}

absl::StatusOr<std::vector<PmnsChild>> Context::BaseChildren(std::string_view name) {
  if (names_ == nullptr) return source_->Children(name);
  if (std::optional<unsigned> domain = AgentDomainAt(name)) return source_->AgentChildren(name, *domain);
  return names_->Children(name);
}

absl::Status Context::BaseTraverse(std::string_view name,
                                   const std::function<void(const std::string&)>& visit) {
  if (names_ == nullptr) return source_->Traverse(name, visit);
  if (std::optional<unsigned> domain = AgentDomainAt(name)) return source_->TraverseAgent(name, *domain, visit);
  absl::StatusOr<std::vector<std::string>> all = names_->Traverse(name);
  if (!all.ok()) return all.status();
  for (const std::string& n : *all) {
    std::optional<unsigned> domain = AgentDomainAt(n);
    if (!domain || !source_->TraverseAgent(n, *domain, visit).ok()) visit(n);
  }
  return absl::OkStatus();
}

// PCP's trace of a name its name space did not know, looked up among the
// derived metrics.
static void TraceDerivedLookup(std::string_view name, const std::optional<PmID>& d) {
  if (!derive::trace::On()) return;
  derive::trace::Say("__dmgetpmid: metric \"" + std::string(name) + "\" -> " +
                     (d.has_value() ? "PMID " + derive::trace::PmidText(*d) : ErrStr(kErrName)));
}

absl::StatusOr<PmID> Context::LookupName(std::string_view name) {
  absl::StatusOr<PmID> id = BaseLookupName(name);
  if (id.ok()) return id;
  std::optional<PmID> d = derived_->LookupName(name);
  TraceDerivedLookup(name, d);
  if (d.has_value()) return *d;
  return id;
}

std::vector<absl::StatusOr<PmID>> Context::LookupNames(std::span<const std::string> names) {
  std::vector<absl::StatusOr<PmID>> out;
  if (names_ != nullptr) {
    out.reserve(names.size());
    for (const std::string& n : names) out.push_back(BaseLookupName(n));
  } else {
    out = source_->LookupNames(names);
  }
  for (size_t i = 0; i < out.size() && i < names.size(); i++) {
    if (out[i].ok()) continue;
    std::optional<PmID> d = derived_->LookupName(names[i]);
    TraceDerivedLookup(names[i], d);
    if (d.has_value()) out[i] = *d;
  }
  return out;
}

absl::StatusOr<std::vector<std::string>> Context::NameAll(PmID id) {
  if (IsDerivedPmid(id)) {
    if (std::optional<std::string> name = derived_->NameOf(id)) {
      return std::vector<std::string>{*name};
    }
  }
  if (names_ == nullptr) return source_->NameAll(id);
  absl::StatusOr<std::vector<std::string>> all = names_->NameAll(id);
  // a metric below a dynamic node is named by its agent
  if (!all.ok() && kind() == ContextKind::kLocal) return source_->NameAll(id);
  return all;
}

// The context's children, then those only derived metrics add; a derived
// metric's own name is a leaf.
// PCP's trace of a children lookup: the name space's answer and the
// derived metrics'.
static void TraceChildren(std::string_view name, const absl::StatusOr<std::vector<PmnsChild>>& real,
                          const std::optional<std::vector<PmnsChild>>& more) {
  if (!derive::trace::On()) return;
  std::string line = "pmGetChildren(name=\"" + std::string(name) + "\") ";
  if (real.ok()) {
    line += std::to_string(real->size()) + " regular children";
  } else {
    line += "no regular children (" + ErrStr(PcpCode(real.status())) + ")";
  }
  if (!more.has_value()) {
    line += ", no derived children (" + ErrStr(kErrName) + ")";
  } else if (more->empty()) {
    line += ", derived leaf";
  } else {
    line += ", " + std::to_string(more->size()) + " derived children";
  }
  derive::trace::Say(line);
}

absl::StatusOr<std::vector<PmnsChild>> Context::Children(std::string_view name) {
  absl::StatusOr<std::vector<PmnsChild>> real = BaseChildren(name);
  std::optional<std::vector<PmnsChild>> more = derived_->Children(name);
  TraceChildren(name, real, more);
  if (!more.has_value()) return real;
  if (more->empty()) return real.ok() ? real : std::vector<PmnsChild>{};
  if (!real.ok()) return *more;
  for (PmnsChild& c : *more) {
    bool dup = false;
    for (const PmnsChild& r : *real) dup = dup || r.name == c.name;
    if (!dup) real->push_back(std::move(c));
  }
  return real;
}

// A pmcd's names, then the derived metrics that bind; an archive's or local
// name space merged with the derived names, walked as one tree.
absl::Status Context::Traverse(std::string_view name,
                               const std::function<void(const std::string&)>& visit) {
  if (kind() == ContextKind::kHost && names_ == nullptr) {
    absl::Status s = BaseTraverse(name, visit);
    if (!s.ok() && PcpCode(s) != kErrName) return s;
    derive::BindEnv env = BindEnvironment();
    std::vector<std::string> more = derived_->Names(name, &env);
    for (const std::string& n : more) visit(n);
    return more.empty() ? s : absl::OkStatus();
  }
  // PCP walks a name space child by child (which its trace shows).
  if (!derive::trace::On() && derived_->Names(name, nullptr).empty()) {
    return BaseTraverse(name, visit);
  }
  return TraverseMerged(std::string(name), visit);
}

absl::Status Context::TraverseMerged(const std::string& name,
                                     const std::function<void(const std::string&)>& visit) {
  absl::StatusOr<std::vector<PmnsChild>> kids = Children(name);
  if (!kids.ok()) return kids.status();
  if (kids->empty()) {
    visit(name);
    return absl::OkStatus();
  }
  for (const PmnsChild& k : *kids) {
    // An archive may hold a metric with an empty name: no name of the tree.
    if (k.name.empty()) continue;
    absl::Status s = TraverseMerged(name.empty() ? k.name : name + "." + k.name, visit);
    // a dynamic subtree whose agent is not here is passed over, as PCP does
    if (!s.ok() && PcpCode(s) != kErrNoagent) return s;
  }
  return absl::OkStatus();
}

void Context::UseNameSpace(std::shared_ptr<const Pmns> names) {
  loaded_names_ = names;
  names_ = std::move(names);
}

void Context::TrimNameSpace() {
  if (loaded_names_ == nullptr) return;
  if (kind() != ContextKind::kArchive) {
    names_ = loaded_names_;
    return;
  }
  names_ = std::make_shared<const Pmns>(
      loaded_names_->Trimmed([this](PmID id) { return source_->LookupDesc(id).ok(); }));
}

absl::StatusOr<Desc> Context::LookupDesc(PmID id) {
  if (IsDerivedPmid(id) && derived_->Knows(id)) {
    return derived_->LookupDesc(id, BindEnvironment());
  }
  return source_->LookupDesc(id);
}

absl::StatusOr<std::vector<Desc>> Context::LookupDescs(std::span<const PmID> ids) {
  if (ids.empty()) return PcpError(kErrToosmall);
  std::vector<PmID> asked;
  asked.reserve(ids.size());
  for (PmID id : ids) {
    if (!IsDerivedPmid(id) || !derived_->Knows(id)) asked.push_back(id);
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
    if (IsDerivedPmid(id) && derived_->Knows(id)) {
      absl::StatusOr<Desc> d = LookupDesc(id);
      if (!d.ok()) return d.status();
      out.push_back(*d);
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

absl::StatusOr<std::vector<LabelSet>> Context::ArchiveClusterLabels(PmID pmid) {
  return source_->ArchiveClusterLabels(MakePmID(PmIDDomain(pmid), PmIDCluster(pmid), 0));
}

absl::StatusOr<std::string> Context::NameInDom(InDom indom, Inst inst) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  return source_->NameInDom(indom, inst);
}

absl::StatusOr<Inst> Context::LookupInDom(InDom indom, std::string_view name) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  return source_->LookupInDom(indom, name);
}

// A derived metric's help text comes from its definition, never the source.
absl::StatusOr<std::string> Context::LookupText(PmID id, TextKind kind) {
  return LookupTextRequest(ToPcp(id), ToPcp(kind) | kTextPmid);
}

absl::StatusOr<std::string> Context::LookupInDomText(InDom indom, TextKind kind) {
  return LookupTextRequest(ToPcp(indom), ToPcp(kind) | kTextInDom);
}

absl::StatusOr<std::string> Context::LookupTextRequest(uint32_t ident, int bits) {
  const int kind = bits & (kTextOneline | kTextHelp | kTextDirect);
  if (bits & kTextInDom) {
    if (InDom{ident} == kInDomNull) return PcpError(kErrIndom);
    return TextWithFallback(ident, kind, kTextInDom);
  }
  if (IsDerivedPmid(PmID{ident})) {
    std::string text;
    int sts = derive::Registry::Get().Text(PmID{ident}, kind, &text);
    if (sts < 0) return PcpError(sts);
    return text;
  }
  return TextWithFallback(ident, kind, kTextPmid);
}

// Help text that is missing or empty gives way to the one-line text, as in
// PCP (unless the request is kTextDirect, for text held by pmcd itself);
// the one-line lookup's outcome is then the answer.
absl::StatusOr<std::string> Context::TextWithFallback(uint32_t ident, int kind, int target) {
  const bool direct = (kind & kTextDirect) != 0;
  kind &= kTextOneline | kTextHelp;
  absl::StatusOr<std::string> text = source_->LookupText(ident, kind | target);
  if (!direct && (kind & kTextHelp) && (!text.ok() || text->empty())) {
    return source_->LookupText(ident, kTextOneline | target);
  }
  return text;
}

absl::StatusOr<std::vector<LabelSet>> Context::LookupLabelsRequest(LabelLevel level, uint32_t ident) {
  return source_->LookupLabels(ToPcp(level), ident);
}

absl::Status Context::AddProfile(InDom indom, std::span<const Inst> insts) {
  if (indom == kInDomNull && !insts.empty()) return PcpError(kErrProfilespec);
  profile_->Add(indom, insts);
  return absl::OkStatus();
}

absl::Status Context::DelProfile(InDom indom, std::span<const Inst> insts) {
  if (indom == kInDomNull && !insts.empty()) return PcpError(kErrProfilespec);
  profile_->Delete(indom, insts);
  return absl::OkStatus();
}

bool Context::ProfileAdmits(InDom indom, Inst inst) const {
  return profile_->Admits(indom, inst);
}

absl::Status Context::SetMode(Mode mode, absl::Time when, absl::Duration delta) {
  return source_->SetMode(mode, when, delta);
}

absl::StatusOr<Result> Context::Fetch(std::span<const PmID> ids, int* state_change) {
  absl::StatusOr<Result> r = FetchUntraced(ids, state_change);
  if (pmDebugOptions.fetch) TraceFetch(r);
  return r;
}

void Context::Recycle(Result&& spent) { source_->Recycle(std::move(spent)); }

absl::StatusOr<Result> Context::FetchUntraced(std::span<const PmID> ids, int* state_change) {
  if (state_change) *state_change = 0;
  if (ids.empty()) return PcpError(kErrToosmall);
  for (PmID id : ids) {
    if (!IsDerivedPmid(id)) continue;
    std::optional<std::vector<PmID>> list = derived_->Prefetch(ids, BindEnvironment());
    if (list.has_value()) return FetchDerived(ids, std::move(*list), state_change);
    break;
  }
  return source_->Fetch(ids, *profile_, state_change);
}

// Fetches the derived metrics' operands with the request and evaluates them.
absl::StatusOr<Result> Context::FetchDerived(std::span<const PmID> ids, std::vector<PmID> list,
                                             int* state_change) {
  absl::StatusOr<Result> r = source_->Fetch(list, *profile_, state_change);
  if (!r.ok()) return r;
  derive::EvalEnv env;
  env.name_indom = [this](InDom indom, Inst inst) { return NameInDom(indom, inst); };
  env.lookup_indom = [this](InDom indom, const std::string& name) {
    return LookupInDom(indom, name);
  };
  return derived_->Postfetch(std::move(*r), ids.size(), std::move(env));
}

absl::Status Context::AddDerived(std::string_view name, std::string_view expr) {
  derive::AddOutcome out = derived_->Add(name, expr, BindEnvironment());
  if (out.kind == derive::AddOutcome::kOk) return absl::OkStatus();
  int code = out.kind == derive::AddOutcome::kPmapi ? out.code : kErrBadderive;
  return PcpErrorWithMessage(code, derive::AddMessage(name, expr, out));
}

int Context::derived_limit() const { return derived_->limit(); }

void Context::set_derived_limit(int limit) { derived_->set_limit(limit); }

derive::BindEnv Context::BindEnvironment() {
  derive::BindEnv env;
  env.lookup_name = [this](const std::string& name) { return LookupName(name); };
  env.lookup_desc = [this](PmID id) { return LookupDesc(id); };
  return env;
}

absl::Status Context::Reconnect() { return source_->Reconnect(); }

absl::StatusOr<Result> Context::FetchArchive() { return source_->FetchArchive(); }

absl::Status Context::Store(const Result& values) { return source_->Store(values); }

absl::StatusOr<ArchiveLabel> Context::GetArchiveLabel() { return source_->GetArchiveLabel(); }

absl::StatusOr<absl::Time> Context::GetArchiveEnd() { return source_->GetArchiveEnd(); }

}  // namespace pmapi
