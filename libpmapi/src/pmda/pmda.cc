#include "pmapi/pmda.h"

#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "pmapi/errors.h"
#include "pmapi/labels.h"
#include "pmapi/strings.h"
#include "context_labels.h"
#include "pmda_fetch_rules.h"
#include "pmda_help.h"
#include "pmda_instance_pick.h"

namespace pmapi {
namespace {

// The default handlers are distinct types so Init can tell whether an
// agent replaced them (PCP compares function pointers).
struct DefaultFetchHandler {
  absl::Status operator()(std::span<const PmID> ids, Result* result, Pmda& pmda) const {
    return pmda.DefaultFetch(ids, result);
  }
};
struct DefaultTextHandler {
  absl::StatusOr<std::string> operator()(uint32_t ident, int type, Pmda& pmda) const {
    return pmda.DefaultText(ident, type);
  }
};
struct DefaultDescHandler {
  absl::StatusOr<Desc> operator()(PmID id, Pmda& pmda) const { return pmda.DefaultDesc(id); }
};

bool SupportedInterface(int v) { return v >= kPmdaInterface2 && v <= kPmdaInterfaceLatest; }

// One value ready to be appended to a Result.
struct StagedValue {
  Inst inst = kInNull;
  bool insitu = true;
  int32_t lval = 0;
  int vtype = kTypeUnknown;
  std::string payload;
};

struct Staging {
  std::vector<Inst> insts;
  std::vector<StagedValue> values;
  bool busy = false;
};

}  // namespace

Pmda::Pmda(int domain) : domain_(domain) {}
Pmda::~Pmda() = default;

void Pmda::Dso(int interface, std::string name, std::string help_path) {
  name_ = std::move(name);
  if (!SupportedInterface(interface)) {
    Notify(absl::StrFormat("pmdaDSO: %s PMDA: interface version %d not supported (domain=%d)",
                           name_, interface, domain_));
    status_ = kErrGeneric;
    return;
  }
  interface_ = interface;
  status_ = 0;
  help_path_ = std::move(help_path);
  flags_ |= kPmdaExtSetupDone;
  dispatch_.profile = [](const Profile& p, Pmda& pmda) { return pmda.DefaultProfile(p); };
  dispatch_.fetch = DefaultFetchHandler{};
  dispatch_.desc = DefaultDescHandler{};
  dispatch_.instance = [](InDom indom, Inst inst, const std::string* name, Pmda& pmda) {
    return pmda.DefaultInstance(indom, inst, name);
  };
  dispatch_.text = DefaultTextHandler{};
  dispatch_.store = [](const Result& r, Pmda& pmda) { return pmda.DefaultStore(r); };
  dispatch_.pmid = [](std::string_view, Pmda&) -> absl::StatusOr<PmID> {
    return PcpError(kErrName);
  };
  dispatch_.name = [](PmID, Pmda&) -> absl::StatusOr<std::vector<std::string>> {
    return PcpError(kErrPmid);
  };
  dispatch_.children = [](std::string_view, bool, Pmda&) -> absl::StatusOr<std::vector<PmnsChild>> {
    return PcpError(kErrName);
  };
  dispatch_.label = [](uint32_t ident, int type, Pmda& pmda) { return pmda.DefaultLabel(ident, type); };
}

void Pmda::Init(std::vector<PmdaIndom> indoms, std::vector<PmdaMetric> metrics) {
  if (!SupportedInterface(interface_)) {
    Notify(absl::StrFormat("pmdaInit: PMDA interface version %d not supported (domain=%d)",
                           interface_, domain_));
    status_ = kErrGeneric;
    return;
  }
  if (dispatch_.fetch.target<DefaultFetchHandler>() != nullptr && !fetch_callback_) {
    Notify(absl::StrFormat("pmdaInit: PMDA %s: using pmdaFetch() but fetch call back not set", name_));
    status_ = kErrGeneric;
    return;
  }
  indoms_ = std::move(indoms);
  metrics_ = std::move(metrics);
  for (PmdaIndom& idp : indoms_) idp.indom = MakeInDom(domain_, InDomSerial(idp.indom));
  for (size_t m = 0; m < metrics_.size(); ++m) {
    Desc& d = metrics_[m].desc;
    if (d.indom == kInDomNull) continue;
    d.indom = MakeInDom(domain_, InDomSerial(d.indom));
    if (indoms_.empty()) continue;  // PCP checks serials only against a non-empty table
    if (FindIndom(d.indom) == nullptr) {
      Notify(absl::StrFormat(
          "pmdaInit: PMDA %s: Undefined instance domain serial (%u) specified in metric %s(%d)",
          name_, InDomSerial(d.indom), IDStr(MakePmID(domain_, PmIDCluster(d.pmid), PmIDItem(d.pmid))),
          static_cast<int>(m)));
      status_ = kErrGeneric;
      return;
    }
  }
  LoadHelp();
  for (PmdaMetric& m : metrics_) m.desc.pmid = MakePmID(domain_, PmIDCluster(m.desc.pmid), PmIDItem(m.desc.pmid));
  ChooseLookup();
  initialised_ = true;
  status_ = 0;
}

void Pmda::Rehash(std::vector<PmdaMetric> metrics) {
  metrics_ = std::move(metrics);
  for (PmdaMetric& m : metrics_) {
    m.desc.pmid = MakePmID(domain_, PmIDCluster(m.desc.pmid), PmIDItem(m.desc.pmid));
  }
  ChooseLookup();
}

void Pmda::LoadHelp() {
  if (help_path_.empty()) {
    if (dispatch_.text.target<DefaultTextHandler>() != nullptr)
      Notify(absl::StrFormat("pmdaInit: PMDA %s: No help text file specified for pmdaText", name_));
    return;
  }
  std::string path = ExpandEnvironment(help_path_);
  absl::StatusOr<HelpFile> help = HelpFile::Load(path, domain_, resolve_name_, &diagnostics_);
  if (!help.ok()) {
    Notify(absl::StrFormat("pmdaInit: PMDA %s: Unable to open help text file(s) from \"%s\": %s",
                           name_, path, ErrStr(PcpCode(help.status()))));
    return;
  }
  help_ = std::make_unique<HelpFile>(*std::move(help));
}

void Pmda::ChooseLookup() {
  metric_index_.clear();
  if (flags_ & kPmdaExtFlagHashed) {
    lookup_ = PmdaMetricLookup::kHashed;
    for (size_t i = 0; i < metrics_.size(); ++i) metric_index_.emplace(metrics_[i].desc.pmid, i);
    return;
  }
  lookup_ = PmdaMetricLookup::kDirect;
  for (size_t m = 0; m < metrics_.size(); ++m) {
    if (PmIDItem(metrics_[m].desc.pmid) != m) {
      if (flags_ & kPmdaExtFlagDirect)
        Notify(absl::StrFormat("pmdaInit: PMDA %s: Direct mapping for metrics disabled @ metrictab[%d] %s",
                               name_, static_cast<int>(m), IDStr(metrics_[m].desc.pmid)));
      lookup_ = PmdaMetricLookup::kLinear;
      break;
    }
  }
}

void Pmda::SetFlags(unsigned flags) {
  const unsigned notify = kPmdaExtNamesChange | kPmdaExtLabelChange;
  if ((flags & notify) != 0 && interface_ < kPmdaInterface7) {
    Notify(absl::StrFormat("pmdaSetFlags: PMDA %s: interface version %d does not support notifications",
                           name_, interface_));
    flags &= ~notify;
  }
  if (flags & kPmdaExtNamesChange) state_changes_ |= kPmcdNamesChange;
  if (flags & kPmdaExtLabelChange) state_changes_ |= kPmcdLabelChange;
  flags_ |= flags & ~notify;
  if (initialised_ && (flags & (kPmdaExtFlagHashed | kPmdaExtFlagDirect))) ChooseLookup();
}

void Pmda::SetCommFlags(unsigned flags) { comm_flags_ |= flags; }

int Pmda::TakeStateChanges() {
  int changes = state_changes_;
  state_changes_ = 0;
  return changes;
}

PmdaIndom* Pmda::FindIndom(InDom indom) {
  for (PmdaIndom& idp : indoms_) {
    if (idp.indom == indom) return &idp;
  }
  return nullptr;
}

const PmdaMetric* Pmda::FindMetric(PmID id) const {
  switch (lookup_) {
    case PmdaMetricLookup::kHashed: {
      auto it = metric_index_.find(id);
      return it == metric_index_.end() ? nullptr : &metrics_[it->second];
    }
    case PmdaMetricLookup::kDirect: {
      // the domain is the host's guarantee; direct maps one cluster per item
      const unsigned item = PmIDItem(id);
      if (item < metrics_.size() && metrics_[item].desc.pmid == id) return &metrics_[item];
      return nullptr;
    }
    case PmdaMetricLookup::kLinear:
      break;
  }
  for (const PmdaMetric& m : metrics_) {
    if (m.desc.pmid == id) return &m;
  }
  return nullptr;
}

std::vector<PmdaInstid> Pmda::InstancesOf(const PmdaIndom* table, InDom indom) const {
  if (indom_source_ != nullptr && indom_source_->Handles(indom)) return indom_source_->Active(indom);
  return table ? table->set : std::vector<PmdaInstid>{};
}

bool Pmda::AdmittedInstances(InDom indom, std::vector<Inst>* out) const {
  const Profile& prof = profile_ ? *profile_ : all_;
  auto admit = [&](const std::vector<PmdaInstid>& set) {
    for (const PmdaInstid& i : set) {
      if (prof.Admits(indom, i.inst)) out->push_back(i.inst);
    }
  };
  if (indom_source_ != nullptr && indom_source_->Handles(indom)) {
    admit(indom_source_->Active(indom));
    return true;
  }
  // the last table entry of the indom, read in place (no copy per fetch)
  for (auto it = indoms_.rbegin(); it != indoms_.rend(); ++it) {
    if (it->indom == indom) {
      admit(it->set);
      return true;
    }
  }
  return false;
}

absl::StatusOr<std::vector<Inst>> Pmda::ProfileInstances(InDom indom) const {
  std::vector<Inst> out;
  if (!AdmittedInstances(indom, &out)) return PcpError(kErrIndom);
  return out;
}

absl::Status Pmda::DefaultProfile(const Profile& profile) {
  profile_ = &profile;
  return absl::OkStatus();
}

absl::StatusOr<std::string> PmdaValuePayload(const AtomValue& atom, int type) {
  std::string out;
  switch (type) {
    case kType64:
    case kTypeU64:
      out.assign(reinterpret_cast<const char*>(&atom.ull), sizeof(atom.ull));
      break;
    case kTypeDouble:
      out.assign(reinterpret_cast<const char*>(&atom.d), sizeof(atom.d));
      break;
    case kTypeFloat:
      out.assign(reinterpret_cast<const char*>(&atom.f), sizeof(atom.f));
      break;
    case kTypeString:
      out = atom.bytes;
      out.push_back('\0');
      break;
    case kTypeAggregate:
    case kTypeAggregateStatic:
    case kTypeEvent:
    case kTypeHighResEvent:
      out = atom.bytes;
      break;
    default:
      return PcpError(kErrType);
  }
  if (out.size() + kValHdrSize > kValVlenMax) return PcpError(kErrToobig);
  return out;
}

void Pmda::FetchOne(PmID id, Result* result) {
  const PmdaMetric* metric = FindMetric(id);
  PmdaMetric dynamic;
  if (metric == nullptr && dispatch_.desc && dispatch_.desc.target<DefaultDescHandler>() == nullptr) {
    // a metric outside the table (dynamic agents): ask the agent's desc
    absl::StatusOr<Desc> d = dispatch_.desc(id, *this);
    if (d.ok()) {
      dynamic.desc = *d;
      metric = &dynamic;
    }
  }
  if (metric == nullptr) {
    result->AddSet(id, kErrPmid, kValInsitu);
    return;
  }
  const Desc& desc = metric->desc;
  // Staging space reused from fetch to fetch, so a fetch allocates
  // nothing of its own once the buffers have grown. A fetch nested in a
  // callback (an agent fetching through another context) stages locally.
  thread_local Staging reused;
  Staging nested;
  Staging& stage = reused.busy ? nested : reused;
  const bool owner = !reused.busy;
  reused.busy = true;
  struct Release {
    Staging* s;
    bool owner;
    ~Release() {
      if (owner) s->busy = false;
    }
  } release{&reused, owner};
  std::vector<Inst>& insts = stage.insts;
  std::vector<StagedValue>& values = stage.values;
  insts.clear();
  values.clear();
  if (desc.indom == kInDomNull) {
    insts.push_back(kInNull);
  } else {
    // an unknown indom has no instances, as in PCP
    (void)AdmittedInstances(desc.indom, &insts);
  }
  AtomValue atom;
  auto fetch = [&](Inst inst) {
    atom.ull = 0;  // each instance starts from an empty value
    atom.bytes.clear();
    return fetch_callback_ ? fetch_callback_(*metric, inst, &atom) : kErrPmid;
  };
  auto store = [&](Inst inst) {
    StagedValue v;
    v.inst = inst;
    if (desc.type == kType32 || desc.type == kTypeU32) {
      v.lval = atom.l;
    } else {
      absl::StatusOr<std::string> payload = PmdaValuePayload(atom, desc.type);
      if (!payload.ok()) return PcpCode(payload.status());
      v.insitu = false;
      v.vtype = desc.type == kTypeAggregateStatic ? kTypeAggregate : desc.type;
      v.payload = *std::move(payload);
    }
    values.push_back(std::move(v));
    return 0;
  };
  auto no_release = [](int) {};
  auto notify = [&](const std::string& text) { Notify(text); };
  const int numval = FetchByRules(insts, {interface_, desc.pmid, desc.type}, fetch, store, no_release, notify);
  if (numval <= 0) {
    result->AddSet(id, numval, kValInsitu);
    return;
  }
  result->AddSet(id, static_cast<int>(values.size()), values[0].insitu ? kValInsitu : kValDptr);
  for (const StagedValue& v : values) {
    if (v.insitu) {
      result->AddInsitu(v.inst, v.lval);
    } else {
      result->AddBlock(v.inst, v.vtype,
                       std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(v.payload.data()),
                                                v.payload.size()));
    }
  }
}

absl::Status Pmda::DefaultFetch(std::span<const PmID> ids, Result* result) {
  for (PmID id : ids) FetchOne(id, result);
  return absl::OkStatus();
}

absl::StatusOr<Desc> Pmda::DefaultDesc(PmID id) {
  if (const PmdaMetric* m = FindMetric(id)) return m->desc;
  Notify(absl::StrFormat("pmdaDesc: Requested metric %s is not defined", IDStr(id)));
  return PcpError(kErrPmid);
}

absl::StatusOr<PmdaInResult> Pmda::DefaultInstance(InDom indom, Inst inst, const std::string* name) {
  const bool cached = indom_source_ != nullptr && indom_source_->Handles(indom);
  const PmdaIndom* table = cached ? nullptr : FindIndom(indom);
  if (!cached && table == nullptr) return PcpError(kErrIndom);
  std::vector<PmdaInstid> set = InstancesOf(table, indom);
  PmdaInResult res;
  res.indom = indom;
  const PmdaInstid* hit = nullptr;
  switch (InstanceAskOf(inst, name != nullptr, name != nullptr && name->empty())) {
    case InstanceAsk::kAll:
      for (const PmdaInstid& i : set) {
        res.insts.push_back(i.inst);
        res.names.push_back(i.name);
      }
      return res;
    case InstanceAsk::kNameOfId:
      if ((hit = InstanceById(set, inst)) == nullptr) return PcpError(kErrInst);
      res.names.push_back(hit->name);
      return res;
    case InstanceAsk::kIdOfName:
      if ((hit = InstanceByName(set, *name, cached)) == nullptr) return PcpError(kErrInst);
      res.insts.push_back(hit->inst);
      return res;
    case InstanceAsk::kNothing:
      break;
  }
  return PcpError(kErrInst);
}

absl::StatusOr<std::string> Pmda::DefaultText(uint32_t ident, int type) {
  if (!help_) return PcpError(kErrText);
  const HelpEntry* e = (type & kTextPmid) ? help_->ForPmID(PmID{ident}) : help_->ForInDom(InDom{ident});
  if (e == nullptr) return PcpError(kErrText);
  const std::string& text = (type & kTextOneline) ? e->oneline : e->text;
  if (text.empty()) return PcpError(kErrText);
  return text;
}

absl::Status Pmda::DefaultStore(const Result& values) {
  (void)values;
  return PcpError(kErrPermission);
}

absl::StatusOr<std::vector<LabelSet>> Pmda::DefaultLabel(uint32_t ident, int type) {
  std::vector<LabelSet> out;
  switch (type) {
    case kLabelContext: {
      // the administrator's label files, as libpcp_pmda answers
      absl::StatusOr<LabelSet> set = ConfiguredContextLabels(SysconfDir());
      if (!set.ok()) return set.status();
      if (!set->labels.empty()) out.push_back(*std::move(set));
      return out;
    }
    case kLabelInDom:
    case kLabelCluster:
    case kLabelItem:
      return out;
    case kLabelDomain: {
      LabelSet set;
      std::string agent = name_.substr(0, name_.find(' '));
      absl::Status s = PmdaAddLabels(&set, absl::StrCat("{\"agent\":\"", agent, "\"}"));
      if (!s.ok()) return s;
      out.push_back(std::move(set));
      return out;
    }
    case kLabelInstances:
      break;
    default:
      return PcpError(kErrType);
  }
  if (interface_ < kPmdaInterface7) return out;
  const InDom indom{ident};
  std::vector<Inst> insts;
  if (indom == kInDomNull) {
    insts.push_back(kInNull);
  } else {
    insts = ProfileInstances(indom).value_or(std::vector<Inst>{});
  }
  for (Inst inst : insts) {
    LabelSet set;
    if (label_callback_) {
      int sts = label_callback_(indom, inst, &set);
      if (sts < 0) {
        Notify(absl::StrFormat("pmdaLabel: InDom %u.%u[%d]: %s", InDomDomain(indom),
                               InDomSerial(indom), ToPcp(inst), ErrStr(sts)));
        set = LabelSet{};
      }
    }
    set.inst = inst;
    out.push_back(std::move(set));
  }
  return out;
}

absl::Status PmdaAddLabels(LabelSet* labels, std::string_view json) {
  absl::StatusOr<LabelSet> added = ParseLabelSet(json);
  if (!added.ok()) return added.status();
  const Inst inst = labels->inst;
  if (labels->json.empty()) {
    *labels = *std::move(added);
  } else {
    absl::StatusOr<LabelSet> merged = ParseLabelSet(MergeLabelSets({labels, &*added}));
    if (!merged.ok()) return merged.status();
    *labels = *std::move(merged);
  }
  labels->inst = inst;
  return absl::OkStatus();
}

}  // namespace pmapi
