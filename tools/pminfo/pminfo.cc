#include "pminfo.h"

#include <cstdio>
#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_format.h"
#include "describe.h"
#include "sha1.h"
#include "origin.h"
#include "zone.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "source.h"
#include "pmapi/labels.h"
#include "absl/strings/str_format.h"
#include "pmapi/strings.h"
#include "pmapi/events.h"
#include "pmapi/timefmt.h"
#include "pmapi/timezone.h"
#include "pmapi/units.h"
#include "absl/strings/str_join.h"

namespace pminfo {
namespace {

using pmapi::Context;
using pmapi::Desc;
using pmapi::PmID;

class Reporter {
 public:
  Reporter(const Settings& s, Context* ctx, std::optional<absl::Time> origin, pmapi::TimeZone zone)
      : s_(s), ctx_(ctx), origin_(origin), zone_(std::move(zone)) {}

  // Reports a metric: at once for archives; for host and local contexts
  // once -b names have gathered (see Batch), which may span the names of
  // several arguments, as in PCP's pminfo.
  void Add(const std::string& name);
  // Reports the names still gathered.
  void Flush();
  // Reports an instance domain named on the command line ("60.1"): at
  // once, ahead of any names still gathered, as PCP's pminfo does.
  void InDomOperand(pmapi::InDom indom);

 private:
  // Values fetched for a whole batch: set `index` of `*values`.
  struct Fetched {
    const pmapi::Result* values = nullptr;
    int index = 0;
  };

  // A host or local context's batch, asked for as PCP's pminfo asks: the names that
  // cannot be looked up are reported first, then the values of the rest
  // come in one fetch (a failed fetch is reported for each name) and their
  // descriptors in one DESC_IDS request, then each metric is reported.
  void Batch(std::span<const std::string> names);
  void Metric(const std::string& name, const absl::StatusOr<PmID>& id, const Fetched* fetched);
  // -F: fetches again with every instance of the metric's indom in the
  // profile, for a metric whose agent wants explicit instances.
  std::optional<pmapi::Result> FetchEveryInstance(const std::string& name, const Desc& desc);
  bool Separated() const { return s_.desc || s_.help || s_.value || s_.labels; }
  std::optional<pmapi::Result> FetchOne(const std::string& name, PmID id);
  void PrintHeader(const std::string& name, PmID id);
  void PrintLabels(const Desc& desc);
  void PrintSeries(const std::string& name, const Desc& desc);
  void PrintInstanceSeries(const Desc& desc);
  void PrintInstanceLabels(const Desc& desc);
  std::vector<const pmapi::LabelSet*> MetricLabelSets(const Desc& desc);
  std::vector<pmapi::LabelSet> ContextLevel();
  void PrintHelp(PmID id);
  void PrintHelpText(const absl::StatusOr<std::string>& text);
  void PrintValues(const Desc& desc, const pmapi::Result& r, int set, const std::string& indent);
  void PrintEvents(const pmapi::ValueView& v, int valfmt, bool highres);
  void PrintParameter(const pmapi::Result& record, int index, int* flags);
  std::optional<std::string> InstanceName(pmapi::InDom indom, pmapi::Inst inst);
  // One instance row of -l and -s output.
  struct InstanceRow {
    pmapi::Inst inst;
    std::optional<std::string> name;      // nullopt: gone from the indom
    const pmapi::LabelSet* own = nullptr;  // the instance's label set
  };
  // The rows as PCP's pminfo forms them: one per instance label set, or
  // with none, one per instance; both lists are those of the indom last
  // asked about, taken when it was first asked about.
  std::vector<InstanceRow> InstanceRows(pmapi::InDom indom);
  void CacheInstances(pmapi::InDom indom);

  const Settings& s_;
  Context* ctx_;
  std::optional<absl::Time> origin_;
  std::vector<std::vector<pmapi::LabelSet>> levels_;
  pmapi::TimeZone zone_;
  pmapi::InDom cached_indom_ = pmapi::kInDomNull;
  std::vector<pmapi::Instance> cached_insts_;
  pmapi::InDom cached_label_indom_ = pmapi::kInDomNull;
  std::vector<pmapi::LabelSet> cached_inst_sets_;
  std::vector<std::string> pending_;
};

std::optional<pmapi::Result> Reporter::FetchOne(const std::string& name, PmID id) {
  if (origin_.has_value()) {
    absl::Status s = ctx_->SetMode(pmapi::Mode::kForw, *origin_, absl::ZeroDuration());
    if (!s.ok()) {
      std::fprintf(stderr, "pminfo: pmSetMode failed: %s\n", pmapi::ErrStr(pmapi::PcpCode(s)).c_str());
      std::exit(1);
    }
  }
  PmID ids[] = {id};
  absl::StatusOr<pmapi::Result> r = ctx_->Fetch(ids);
  if (!r.ok()) {
    std::printf("%s: pmFetch: %s\n", name.c_str(), pmapi::ErrStr(pmapi::PcpCode(r.status())).c_str());
    return std::nullopt;
  }
  return std::move(*r);
}

template <typename Id>
std::vector<pmapi::LabelSet> Level(Context* ctx, pmapi::LabelLevel level, Id ident);

void Reporter::CacheInstances(pmapi::InDom indom) {
  if (indom == cached_indom_) return;
  absl::StatusOr<std::vector<pmapi::Instance>> insts = ctx_->GetInDom(indom);
  cached_insts_ = insts.ok() ? std::move(*insts) : std::vector<pmapi::Instance>{};
  cached_indom_ = indom;
}

std::optional<std::string> Reporter::InstanceName(pmapi::InDom indom, pmapi::Inst inst) {
  CacheInstances(indom);
  for (const pmapi::Instance& i : cached_insts_) {
    if (i.id == inst) return i.name;
  }
  return std::nullopt;
}

std::vector<Reporter::InstanceRow> Reporter::InstanceRows(pmapi::InDom indom) {
  CacheInstances(indom);
  if (indom != cached_label_indom_) {
    cached_inst_sets_ = Level(ctx_, pmapi::LabelLevel::kInstances, indom);
    cached_label_indom_ = indom;
  }
  std::vector<InstanceRow> rows;
  if (!cached_inst_sets_.empty()) {
    for (const pmapi::LabelSet& set : cached_inst_sets_) {
      rows.push_back(InstanceRow{set.inst, InstanceName(indom, set.inst), &set});
    }
    return rows;
  }
  for (const pmapi::Instance& i : cached_insts_) rows.push_back(InstanceRow{i.id, i.name, nullptr});
  return rows;
}

void Reporter::PrintHeader(const std::string& name, PmID id) {
  std::printf("%s", name.c_str());
  if (s_.pmid) std::printf(" PMID: %s", pmapi::IDStr(id).c_str());
  if (s_.full_pmid) std::printf(" = %d = 0x%x", static_cast<int>(pmapi::ToPcp(id)), pmapi::ToPcp(id));
  if (s_.oneline) {
    absl::StatusOr<std::string> text = ctx_->LookupText(id, pmapi::TextKind::kOneline);
    if (text.ok()) {
      std::printf(s_.full_pmid ? "\n    [%s]" : " [%s]", text->c_str());
    } else {
      std::printf(" One-line Help: Error: %s", pmapi::ErrStr(pmapi::PcpCode(text.status())).c_str());
    }
  }
  std::putchar('\n');
}

void Reporter::PrintHelp(PmID id) { PrintHelpText(ctx_->LookupText(id, pmapi::TextKind::kHelp)); }

void Reporter::PrintHelpText(const absl::StatusOr<std::string>& text) {
  if (!text.ok()) {
    std::printf("Full Help: Error: %s\n", pmapi::ErrStr(pmapi::PcpCode(text.status())).c_str());
    return;
  }
  std::string t = *text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  if (t.empty()) {
    std::printf("Help: <empty entry>\n");
  } else {
    std::printf("Help:\n%s\n", t.c_str());
  }
}

// The label sets of one level, or an empty list.
template <typename Id>
std::vector<pmapi::LabelSet> Level(Context* ctx, pmapi::LabelLevel level, Id ident) {
  absl::StatusOr<std::vector<pmapi::LabelSet>> sets = ctx->LookupLabels(level, ident);
  return sets.ok() ? std::move(*sets) : std::vector<pmapi::LabelSet>{};
}

// The label sets of a metric, lowest precedence first: context, domain,
// instance domain, cluster and item. With no context labels from the
// source (an archive before its first label record, an old pmcd), PCP's
// pminfo shows the host name as the one context label.
std::vector<pmapi::LabelSet> Reporter::ContextLevel() {
  std::vector<pmapi::LabelSet> level = Level(ctx_, pmapi::LabelLevel::kContext, pmapi::kPmIDNull);
  if (level.empty()) {
    absl::StatusOr<pmapi::LabelSet> host =
        pmapi::ParseLabelSet(absl::StrFormat("{\"hostname\":\"%s\"}", ctx_->HostName()));
    if (host.ok()) level.push_back(*host);
  }
  return level;
}

std::vector<const pmapi::LabelSet*> Reporter::MetricLabelSets(const Desc& desc) {
  levels_.clear();
  levels_.push_back(ContextLevel());
  levels_.push_back(Level(ctx_, pmapi::LabelLevel::kDomain, desc.pmid));
  if (desc.indom != pmapi::kInDomNull) levels_.push_back(Level(ctx_, pmapi::LabelLevel::kInDom, desc.indom));
  levels_.push_back(Level(ctx_, pmapi::LabelLevel::kCluster, desc.pmid));
  levels_.push_back(Level(ctx_, pmapi::LabelLevel::kItem, desc.pmid));
  std::vector<const pmapi::LabelSet*> merged;
  for (const auto& level : levels_) {
    for (const pmapi::LabelSet& set : level) merged.push_back(&set);
  }
  return merged;
}

// pminfo -s: the series identifiers PCP derives from the source's labels,
// the metric's name, labels and descriptor, and each instance's name and
// labels.
// Returns the merged JSON of `sets` without their optional labels (the
// ones that do not identify a source or a metric).
std::string MergeIntrinsic(const std::vector<const pmapi::LabelSet*>& sets) {
  std::vector<pmapi::LabelSet> kept;
  kept.reserve(sets.size());
  for (const pmapi::LabelSet* set : sets) {
    if (set == nullptr) continue;
    std::string json;
    for (const pmapi::LabelEntry& l : set->labels) {
      if (l.flags & pmapi::kLabelOptional) continue;
      json += json.empty() ? "{\"" : ",\"";
      json += pmapi::LabelName(*set, l);
      json += "\":";
      json += pmapi::LabelValue(*set, l);
    }
    if (json.empty()) continue;
    absl::StatusOr<pmapi::LabelSet> parsed = pmapi::ParseLabelSet(json + "}");
    if (parsed.ok()) kept.push_back(std::move(*parsed));
  }
  std::vector<const pmapi::LabelSet*> ptrs;
  for (const pmapi::LabelSet& set : kept) ptrs.push_back(&set);
  return pmapi::MergeLabelSets(ptrs);
}

void Reporter::PrintSeries(const std::string& name, const Desc& desc) {
  std::vector<const pmapi::LabelSet*> merged = MetricLabelSets(desc);
  std::vector<const pmapi::LabelSet*> context;
  for (const pmapi::LabelSet& set : levels_.front()) context.push_back(&set);
  std::string source = pmtools::Sha1Hex(absl::StrFormat(
      R"({"series":"source","labels":%s})", MergeIntrinsic(context)));
  std::string series = pmtools::Sha1Hex(absl::StrFormat(
      R"({"series":"metric","name":"%s","labels":%s,"semantics":"%s","type":"%s","units":"%s"})",
      name, MergeIntrinsic(merged), pmapi::SemStr(desc.sem), pmapi::TypeStr(desc.type),
      pmapi::UnitsStr(desc.units)));
  std::printf("    Source: %s\n    Series: %s\n", source.c_str(), series.c_str());
}

void Reporter::PrintInstanceSeries(const Desc& desc) {
  if (desc.indom == pmapi::kInDomNull) return;
  // An instance is identified by the context, domain and indom labels and
  // its own, without the cluster's and the metric's.
  std::vector<const pmapi::LabelSet*> above;
  for (size_t level = 0; level < 3 && level < levels_.size(); ++level) {
    for (const pmapi::LabelSet& set : levels_[level]) above.push_back(&set);
  }
  for (const InstanceRow& row : InstanceRows(desc.indom)) {
    std::vector<const pmapi::LabelSet*> with_inst = above;
    if (row.own != nullptr) with_inst.push_back(row.own);
    std::string id = pmtools::Sha1Hex(absl::StrFormat(R"({"series":"instance","name":"%s","labels":%s})",
                                                      row.name.value_or("???"),
                                                      pmapi::MergeLabelSets(with_inst)));
    std::printf("    inst [%d or \"%s\"] series %s\n", pmapi::ToPcp(row.inst),
                row.name.value_or("DISAPPEARED").c_str(), id.c_str());
  }
}

void Reporter::PrintLabels(const Desc& desc) {
  std::printf("    labels %s\n", pmapi::MergeLabelSets(MetricLabelSets(desc)).c_str());
}

// Instance labels are printed for the instance domain as it stands at the
// collection time the fetch left behind.
void Reporter::PrintInstanceLabels(const Desc& desc) {
  if (desc.indom == pmapi::kInDomNull) return;
  std::vector<const pmapi::LabelSet*> merged = MetricLabelSets(desc);
  for (const InstanceRow& row : InstanceRows(desc.indom)) {
    std::vector<const pmapi::LabelSet*> with_inst = merged;
    if (row.own != nullptr) with_inst.push_back(row.own);
    std::printf("    inst [%d or \"%s\"] labels %s\n", pmapi::ToPcp(row.inst),
                row.name.value_or("DISAPPEARED").c_str(), pmapi::MergeLabelSets(with_inst).c_str());
  }
}

void Reporter::PrintValues(const Desc& desc, const pmapi::Result& r, int set,
                           const std::string& indent) {
  const pmapi::ValueSet& vs = r.sets()[set];
  std::printf("%s", indent.c_str());
  if (vs.numval == 0) {
    std::printf("No value(s) available!\n");
    return;
  }
  if (vs.numval < 0) {
    std::printf("Error: %s\n", pmapi::ErrStr(vs.numval).c_str());
    return;
  }
  for (int j = 0; j < vs.numval; ++j) {
    pmapi::ValueView v = r.value(vs, j);
    if (desc.indom != pmapi::kInDomNull) {
      std::optional<std::string> name = InstanceName(desc.indom, v.inst);
      if (!name.has_value()) {
        if (s_.force) {
          std::printf("    inst [%d \"DISAPPEARED\"]\n", pmapi::ToPcp(v.inst));
          continue;
        }
        std::printf("pmNameIndom: indom=%s inst=%d: %s\n", pmapi::InDomStr(desc.indom).c_str(),
                    pmapi::ToPcp(v.inst), pmapi::ErrStr(pmapi::kErrInst).c_str());
        std::printf("    inst [%d]", pmapi::ToPcp(v.inst));
      } else {
        std::printf("    inst [%d or \"%s\"]", pmapi::ToPcp(v.inst), name->c_str());
      }
    } else {
      std::printf("   ");
    }
    std::printf(" value %s\n", pmapi::FormatValue(vs.valfmt, desc.type, v, 1, zone_).c_str());
    if (s_.events && (desc.type == pmapi::kTypeEvent || desc.type == pmapi::kTypeHighResEvent)) {
      PrintEvents(v, vs.valfmt, desc.type == pmapi::kTypeHighResEvent);
    }
  }
}

void Reporter::PrintEvents(const pmapi::ValueView& v, int valfmt, bool highres) {
  absl::StatusOr<std::vector<pmapi::Result>> records =
      highres ? pmapi::UnpackHighResEventRecords(v, valfmt) : pmapi::UnpackEventRecords(v, valfmt);
  if (!records.ok()) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s: %s\n",
                 highres ? "pmUnpackHighResEventRecords" : "pmUnpackEventRecords",
                 pmapi::ErrStr(pmapi::PcpCode(records.status())).c_str());
    return;
  }
  for (size_t r = 0; r < records->size(); ++r) {
    const pmapi::Result& rec = (*records)[r];
    int64_t sec = rec.timestamp_ns() / 1000000000;
    int64_t nsec = rec.timestamp_ns() % 1000000000;
    if (nsec < 0) {
      nsec += 1000000000;
      --sec;
    }
    absl::StatusOr<std::string> stamp = highres ? pmapi::HighResStamp(zone_, sec, nsec)
                                                : pmapi::PrintStamp(zone_, sec, nsec / 1000);
    std::printf("    --- event record [%zu] timestamp %s", r, stamp.ok() ? stamp->c_str() : "?");
    if (rec.numpmid() == 0) {
      std::printf(" ---\n\tNo parameters\n");
      continue;
    }
    int flags = 0;
    for (int p = 0; p < rec.numpmid(); ++p) PrintParameter(rec, p, &flags);
  }
}

void Reporter::PrintParameter(const pmapi::Result& record, int index, int* flags) {
  const pmapi::ValueSet& vs = record.sets()[index];
  absl::StatusOr<std::vector<std::string>> names = ctx_->NameAll(vs.pmid);
  if (names.ok()) {
    if (index == 0) {
      if (vs.pmid == pmapi::kEventFlagsPmid && vs.numval > 0) {
        *flags = record.value(vs, 0).lval;
        std::printf(" flags 0x%x (%s) ---\n", static_cast<unsigned>(*flags),
                    pmapi::EventFlagsStr(*flags).c_str());
        return;
      }
      std::printf(" ---\n");
    }
    if ((*flags & pmapi::kEventFlagMissed) && index == 1 && vs.pmid == pmapi::kEventMissedPmid &&
        vs.numval > 0) {
      std::printf("        ==> %d missed event records\n", record.value(vs, 0).lval);
      return;
    }
    std::printf("    %s (%s)\n", absl::StrJoin(*names, " or ").c_str(), pmapi::IDStr(vs.pmid).c_str());
  } else {
    std::printf("\tPMID: %s\n", pmapi::IDStr(vs.pmid).c_str());
  }
  absl::StatusOr<Desc> desc = ctx_->LookupDesc(vs.pmid);
  if (!desc.ok()) {
    std::printf("\tpmLookupDesc: %s\n", pmapi::ErrStr(pmapi::PcpCode(desc.status())).c_str());
    return;
  }
  PrintValues(*desc, record, index, "    ");
}

void Reporter::Add(const std::string& name) {
  if (ctx_->kind() == pmapi::ContextKind::kArchive) {
    Metric(name, ctx_->LookupName(name), nullptr);
    return;
  }
  pending_.push_back(name);
  if (pending_.size() >= static_cast<size_t>(std::max(s_.batch, 1))) Flush();
}

void Reporter::InDomOperand(pmapi::InDom indom) {
  if (s_.verify) return;
  std::printf("\nInDom: %s", pmapi::InDomStr(indom).c_str());
  if (s_.full_indom) std::printf(" = %u =", pmapi::ToPcp(indom));
  std::printf(" 0x%x", pmapi::ToPcp(indom));
  if (s_.oneline) {
    absl::StatusOr<std::string> text = ctx_->LookupInDomText(indom, pmapi::TextKind::kOneline);
    if (text.ok()) {
      std::printf(s_.full_indom ? "\n    [%s]" : " [%s]", text->c_str());
    } else {
      std::printf(" One-line Help: Error: %s", pmapi::ErrStr(pmapi::PcpCode(text.status())).c_str());
    }
  }
  std::putchar('\n');
  if (s_.labels) {
    levels_.clear();
    levels_.push_back(ContextLevel());
    levels_.push_back(Level(ctx_, pmapi::LabelLevel::kDomain, pmapi::MakePmID(pmapi::InDomDomain(indom), 0, 0)));
    levels_.push_back(Level(ctx_, pmapi::LabelLevel::kInDom, indom));
    std::vector<const pmapi::LabelSet*> sets;
    for (const auto& level : levels_) {
      for (const pmapi::LabelSet& set : level) sets.push_back(&set);
    }
    std::printf("    labels %s\n", pmapi::MergeLabelSets(sets).c_str());
  }
  if (s_.help) {
    absl::StatusOr<std::string> text = ctx_->LookupInDomText(indom, pmapi::TextKind::kHelp);
    PrintHelpText(text);
  }
}

void Reporter::Flush() {
  if (pending_.empty()) return;
  Batch(pending_);
  pending_.clear();
}

void Reporter::Batch(std::span<const std::string> names) {
  // With nothing to print but names, PCP's pminfo looks nothing up.
  if (!(s_.pmid || s_.full_pmid || s_.desc || s_.help || s_.oneline || s_.value || s_.labels ||
        s_.series || s_.verify)) {
    for (const std::string& name : names) Metric(name, pmapi::kPmIDNull, nullptr);
    return;
  }
  std::vector<absl::StatusOr<PmID>> ids = ctx_->LookupNames(names);
  std::vector<PmID> found;
  std::vector<size_t> found_at;
  for (size_t i = 0; i < names.size(); ++i) {
    if (!ids[i].ok()) {
      std::printf("%s: pmLookupName: %s\n", names[i].c_str(),
                  pmapi::ErrStr(pmapi::PcpCode(ids[i].status())).c_str());
      continue;
    }
    found.push_back(*ids[i]);
    found_at.push_back(i);
  }
  if (found.empty()) return;
  std::optional<pmapi::Result> values;
  if (s_.value || s_.verify || s_.labels) {
    absl::StatusOr<pmapi::Result> r = ctx_->Fetch(found);
    if (!r.ok()) {
      for (size_t i : found_at) {
        std::printf("%s: pmFetch: %s\n", names[i].c_str(), pmapi::ErrStr(pmapi::PcpCode(r.status())).c_str());
      }
      return;
    }
    values = std::move(*r);
  }
  // Brings every descriptor of the batch into the context's cache at once;
  // a metric without one is reported by its own lookup below.
  if (found.size() > 1 && (s_.desc || s_.value || s_.verify || s_.labels || s_.series)) {
    (void)ctx_->LookupDescs(found);
  }
  for (size_t k = 0; k < found.size(); ++k) {
    Fetched fetched{values.has_value() ? &*values : nullptr, static_cast<int>(k)};
    Metric(names[found_at[k]], found[k], &fetched);
  }
}

std::optional<pmapi::Result> Reporter::FetchEveryInstance(const std::string& name,
                                                          const Desc& desc) {
  absl::StatusOr<std::vector<pmapi::Instance>> insts = ctx_->GetInDom(desc.indom);
  if (!insts.ok()) {
    std::printf("%s: pmGetIndom: %s\n", name.c_str(), pmapi::ErrStr(pmapi::PcpCode(insts.status())).c_str());
    return std::nullopt;
  }
  if (insts->empty()) {
    std::printf("%s: pmGetIndom: No instances?\n", name.c_str());
    return std::nullopt;
  }
  std::vector<pmapi::Inst> all;
  for (const pmapi::Instance& i : *insts) all.push_back(i.id);
  (void)ctx_->DelProfile(desc.indom, {});
  (void)ctx_->AddProfile(desc.indom, all);
  std::optional<pmapi::Result> values = FetchOne(name, desc.pmid);
  // The profile is left as it was: every instance.
  (void)ctx_->DelProfile(desc.indom, {});
  (void)ctx_->AddProfile(desc.indom, {});
  return values;
}

void Reporter::Metric(const std::string& name, const absl::StatusOr<PmID>& id,
                      const Fetched* fetched) {
  if (!id.ok()) {
    std::printf("%s: pmLookupName: %s\n", name.c_str(), pmapi::ErrStr(pmapi::PcpCode(id.status())).c_str());
    return;
  }
  std::optional<pmapi::Result> own_values;
  const pmapi::Result* values = nullptr;
  int set = 0;
  if (s_.value || s_.verify || s_.labels) {
    if (fetched != nullptr && fetched->values != nullptr) {
      values = fetched->values;
      set = fetched->index;
    } else {
      own_values = FetchOne(name, *id);
      if (!own_values.has_value()) return;
      values = &*own_values;
    }
  }
  Desc desc;
  if (s_.desc || s_.value || s_.verify || s_.labels || s_.series) {
    absl::StatusOr<Desc> d = ctx_->LookupDesc(*id);
    if (!d.ok()) {
      std::printf("%s: pmLookupDesc: %s\n", name.c_str(), pmapi::ErrStr(pmapi::PcpCode(d.status())).c_str());
      return;
    }
    desc = *d;
  }
  if (Separated()) std::putchar('\n');
  if (s_.force && values->sets()[set].numval == pmapi::kErrProfile) {
    own_values = FetchEveryInstance(name, desc);
    if (!own_values.has_value()) return;
    values = &*own_values;
    set = 0;
  }
  if (s_.verify) {
    const pmapi::ValueSet& vs = values->sets()[set];
    if (desc.type == pmapi::kTypeNoSupport) {
      std::printf("%s: Not Supported\n", name.c_str());
    } else if (vs.numval < 0) {
      std::printf("%s: %s\n", name.c_str(), pmapi::ErrStr(vs.numval).c_str());
    } else if (vs.numval == 0) {
      std::printf("%s: No value(s) available\n", name.c_str());
    }
    return;
  }
  PrintHeader(name, *id);
  if (s_.desc) std::printf("%s", pmtools::DescText(desc, s_.full_indom).c_str());
  if (s_.series) PrintSeries(name, desc);
  if (s_.labels) PrintLabels(desc);
  if (s_.help) PrintHelp(*id);
  if (s_.value) PrintValues(desc, *values, set, "");
  if (s_.series) PrintInstanceSeries(desc);
  if (s_.labels) PrintInstanceLabels(desc);
}

// "29.0.10" names a metric by its PMID: returns the name to traverse, the
// argument itself when it is not a PMID, or the lookup's error.
// An operand: a name, or (beginning with a digit, as PCP's pminfo reads
// it with sscanf) a PMID "D.C.I" or an instance domain "D.S", anything
// after the numbers ignored.
struct Operand {
  enum Kind { kName, kPmid, kInDom, kBadNumber } kind = kName;
  PmID pmid{};
  pmapi::InDom indom{};
};

// Reads a run of digits at `*p` as sscanf's %u does (wrapping on overflow).
bool ReadNumber(const char** p, unsigned* out) {
  if (!absl::ascii_isdigit(static_cast<unsigned char>(**p))) return false;
  unsigned v = 0;
  while (absl::ascii_isdigit(static_cast<unsigned char>(**p))) v = v * 10 + static_cast<unsigned>(*(*p)++ - '0');
  *out = v;
  return true;
}

Operand ParseOperand(const std::string& arg) {
  Operand op;
  if (arg.empty() || !absl::ascii_isdigit(static_cast<unsigned char>(arg[0]))) return op;
  const char* p = arg.c_str();
  unsigned n[3] = {0, 0, 0};
  int got = 0;
  while (got < 3 && ReadNumber(&p, &n[got])) {
    ++got;
    if (got == 3 || *p != '.') break;
    ++p;
  }
  if (got == 3) {
    op.kind = Operand::kPmid;
    op.pmid = pmapi::MakePmID(n[0], n[1], n[2]);
  } else if (got == 2) {
    op.kind = Operand::kInDom;
    op.indom = pmapi::MakeInDom(n[0], n[1]);
  } else {
    op.kind = Operand::kBadNumber;
  }
  return op;
}

// The name PCP's pmNameID gives a PMID with several names: the first of
// pmNameAll's (the name the PMNS met last), for archives and hosts alike.
absl::StatusOr<std::string> NameOfPmid(Context* ctx, PmID id) {
  absl::StatusOr<std::vector<std::string>> names = ctx->NameAll(id);
  if (!names.ok()) return names.status();
  if (names->empty()) return pmapi::PcpError(pmapi::kErrPmid);
  return names->front();
}

absl::StatusOr<Context> OpenContext(const Settings& s) {
  if (!s.archives.empty()) {
    return pmtools::OpenToolContext(pmapi::ContextKind::kArchive, s.archives.front(), "");
  }
  if (s.local) {
    return pmtools::OpenToolContext(pmapi::ContextKind::kLocal, "",
                                    "Cannot make standalone connection on localhost");
  }
  return pmtools::OpenToolContext(pmapi::ContextKind::kHost, s.hosts.empty() ? "local:" : s.hosts.front(),
                                  "");
}

}  // namespace

int Run(Settings s) {
  if (s.verify) s.desc = s.pmid = s.full_pmid = s.help = s.oneline = s.value = s.force = false;
  absl::StatusOr<Context> ctx = OpenContext(s);
  if (!ctx.ok()) return 1;
  if (s.name_space != nullptr) {
    // As pminfo does after pmLoadASCIINameSpace: on an archive, only the
    // names of metrics it holds.
    ctx->UseNameSpace(s.name_space);
    ctx->TrimNameSpace();
  }
  absl::StatusOr<pmtools::ReportingZone> zone = pmtools::ToolZone(&*ctx, s.hostzone, s.timezone);
  if (!zone.ok()) {
    std::fprintf(stderr, "pminfo: %s\n", std::string(zone.status().message()).c_str());
    return 1;
  }
  std::optional<absl::Time> origin;
  if (ctx->kind() == pmapi::ContextKind::kArchive) {
    // PCP announces the zone for archives only.
    std::fputs(zone->note.c_str(), stdout);
    absl::StatusOr<absl::Time> o = pmtools::ResolveOrigin(*ctx, s.archives.front(), s.origin, zone->zone);
    if (!o.ok()) {
      std::fprintf(stderr, "pminfo: invalid time window.\n%s\n",
                   std::string(o.status().message()).c_str());
      return 1;
    }
    origin = *o;
  }
  Reporter reporter(s, &*ctx, origin, zone->zone);
  std::vector<std::string> roots = s.names.empty() ? std::vector<std::string>{""} : s.names;
  int status = 0;
  for (const std::string& arg : roots) {
    Operand op = ParseOperand(arg);
    absl::Status st;
    if (op.kind == Operand::kInDom) {
      reporter.InDomOperand(op.indom);
    } else if (op.kind == Operand::kBadNumber) {
      st = pmapi::PcpError(pmapi::kErrName);
    } else {
      absl::StatusOr<std::string> root = op.kind == Operand::kPmid ? NameOfPmid(&*ctx, op.pmid) : arg;
      std::vector<std::string> found;
      st = root.status();
      if (root.ok()) st = ctx->Traverse(*root, [&](const std::string& n) { found.push_back(n); });
      for (const std::string& n : found) reporter.Add(n);
    }
    if (!st.ok()) {
      std::fflush(stdout);
      if (arg.empty()) {
        std::fprintf(stderr, "Error: %s\n", pmapi::ErrStr(pmapi::PcpCode(st)).c_str());
      } else {
        std::fprintf(stderr, "Error: %s: %s\n", arg.c_str(), pmapi::ErrStr(pmapi::PcpCode(st)).c_str());
      }
      status = 1;
    }
  }
  reporter.Flush();
  return status;
}

}  // namespace pminfo
