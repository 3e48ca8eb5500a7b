#include "pminfo.h"

#include <cstdio>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "describe.h"
#include "origin.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/host.h"
#include "pmapi/labels.h"
#include "pmapi/local.h"
#include "absl/strings/str_format.h"
#include "pmapi/strings.h"

namespace pminfo {
namespace {

using pmapi::Context;
using pmapi::Desc;
using pmapi::PmID;

class Reporter {
 public:
  Reporter(const Settings& s, Context* ctx, std::optional<absl::Time> origin)
      : s_(s), ctx_(ctx), origin_(origin) {}

  void Metric(const std::string& name);

 private:
  bool Separated() const { return s_.desc || s_.help || s_.value || s_.labels; }
  std::optional<pmapi::Result> FetchOne(const std::string& name, PmID id);
  void PrintHeader(const std::string& name, PmID id);
  void PrintLabels(const Desc& desc);
  void PrintInstanceLabels(const Desc& desc, const pmapi::Result& r);
  std::vector<const pmapi::LabelSet*> MetricLabelSets(const Desc& desc);
  void PrintHelp(PmID id);
  void PrintValues(const Desc& desc, const pmapi::Result& r, const std::string& indent);
  std::optional<std::string> InstanceName(pmapi::InDom indom, int32_t inst);

  const Settings& s_;
  Context* ctx_;
  std::optional<absl::Time> origin_;
  std::vector<std::vector<pmapi::LabelSet>> levels_;
  pmapi::InDom cached_indom_ = pmapi::kInDomNull;
  std::vector<pmapi::Instance> cached_insts_;
};

std::optional<pmapi::Result> Reporter::FetchOne(const std::string& name, PmID id) {
  if (origin_.has_value()) {
    absl::Status s = ctx_->SetMode(pmapi::kModeForw, *origin_, absl::ZeroDuration());
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

std::optional<std::string> Reporter::InstanceName(pmapi::InDom indom, int32_t inst) {
  if (indom != cached_indom_) {
    absl::StatusOr<std::vector<pmapi::Instance>> insts = ctx_->GetInDom(indom);
    cached_insts_ = insts.ok() ? std::move(*insts) : std::vector<pmapi::Instance>{};
    cached_indom_ = indom;
  }
  for (const pmapi::Instance& i : cached_insts_) {
    if (i.id == inst) return i.name;
  }
  return std::nullopt;
}

void Reporter::PrintHeader(const std::string& name, PmID id) {
  std::printf("%s", name.c_str());
  if (s_.pmid) std::printf(" PMID: %s", pmapi::IDStr(id).c_str());
  if (s_.full_pmid) std::printf(" = %d = 0x%x", static_cast<int>(id), id);
  if (s_.oneline) {
    absl::StatusOr<std::string> text = ctx_->LookupText(id, pmapi::kTextOneline);
    if (text.ok()) {
      std::printf(s_.full_pmid ? "\n    [%s]" : " [%s]", text->c_str());
    } else {
      std::printf(" One-line Help: Error: %s", pmapi::ErrStr(pmapi::PcpCode(text.status())).c_str());
    }
  }
  std::putchar('\n');
}

void Reporter::PrintHelp(PmID id) {
  absl::StatusOr<std::string> text = ctx_->LookupText(id, pmapi::kTextHelp);
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
std::vector<pmapi::LabelSet> Level(Context* ctx, int level, uint32_t ident) {
  absl::StatusOr<std::vector<pmapi::LabelSet>> sets = ctx->LookupLabels(level, ident);
  return sets.ok() ? std::move(*sets) : std::vector<pmapi::LabelSet>{};
}

// The label sets of a metric, lowest precedence first: context, domain,
// instance domain and item. An archive with no context labels at the
// collection time has its host name as its one context label.
std::vector<const pmapi::LabelSet*> Reporter::MetricLabelSets(const Desc& desc) {
  levels_.clear();
  levels_.push_back(Level(ctx_, pmapi::kLabelContext, 0));
  if (levels_.back().empty()) {
    absl::StatusOr<pmapi::LabelSet> host =
        pmapi::ParseLabelSet(absl::StrFormat("{\"hostname\":\"%s\"}", ctx_->HostName()));
    if (host.ok()) levels_.back().push_back(*host);
  }
  levels_.push_back(Level(ctx_, pmapi::kLabelDomain, desc.pmid));
  if (desc.indom != pmapi::kInDomNull) levels_.push_back(Level(ctx_, pmapi::kLabelInDom, desc.indom));
  levels_.push_back(Level(ctx_, pmapi::kLabelItem, desc.pmid));
  std::vector<const pmapi::LabelSet*> merged;
  for (const auto& level : levels_) {
    for (const pmapi::LabelSet& set : level) merged.push_back(&set);
  }
  return merged;
}

void Reporter::PrintLabels(const Desc& desc) {
  std::printf("    labels %s\n", pmapi::MergeLabelSets(MetricLabelSets(desc)).c_str());
}

// Instance labels are printed for the instances the fetch returned.
void Reporter::PrintInstanceLabels(const Desc& desc, const pmapi::Result& r) {
  const pmapi::ValueSet& vs = r.sets()[0];
  if (desc.indom == pmapi::kInDomNull || vs.numval <= 0) return;
  std::vector<const pmapi::LabelSet*> merged = MetricLabelSets(desc);
  std::vector<pmapi::LabelSet> inst_sets = Level(ctx_, pmapi::kLabelInstances, desc.indom);
  for (int j = 0; j < vs.numval; ++j) {
    int32_t inst = r.value(vs, j).inst;
    std::vector<const pmapi::LabelSet*> with_inst = merged;
    for (const pmapi::LabelSet& set : inst_sets) {
      if (set.inst == inst) with_inst.push_back(&set);
    }
    std::optional<std::string> name = InstanceName(desc.indom, inst);
    std::printf("    inst [%d or \"%s\"] labels %s\n", inst, name.value_or("").c_str(),
                pmapi::MergeLabelSets(with_inst).c_str());
  }
}

void Reporter::PrintValues(const Desc& desc, const pmapi::Result& r, const std::string& indent) {
  const pmapi::ValueSet& vs = r.sets()[0];
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
          std::printf("    inst [%d \"DISAPPEARED\"]\n", v.inst);
          continue;
        }
        std::printf("pmNameIndom: indom=%s inst=%d: %s\n", pmapi::InDomStr(desc.indom).c_str(),
                    v.inst, pmapi::ErrStr(pmapi::kErrInst).c_str());
        std::printf("    inst [%d]", v.inst);
      } else {
        std::printf("    inst [%d or \"%s\"]", v.inst, name->c_str());
      }
    } else {
      std::printf("   ");
    }
    std::printf(" value %s\n", pmapi::FormatValue(vs.valfmt, desc.type, v, 1).c_str());
  }
}

void Reporter::Metric(const std::string& name) {
  absl::StatusOr<PmID> id = ctx_->LookupName(name);
  if (!id.ok()) {
    std::printf("%s: pmLookupName: %s\n", name.c_str(), pmapi::ErrStr(pmapi::PcpCode(id.status())).c_str());
    return;
  }
  std::optional<pmapi::Result> values;
  if (s_.value || s_.verify || s_.labels) {
    values = FetchOne(name, *id);
    if (!values.has_value()) return;
  }
  Desc desc;
  if (s_.desc || s_.value || s_.verify || s_.labels) {
    absl::StatusOr<Desc> d = ctx_->LookupDesc(*id);
    if (!d.ok()) {
      std::printf("%s: pmLookupDesc: %s\n", name.c_str(), pmapi::ErrStr(pmapi::PcpCode(d.status())).c_str());
      return;
    }
    desc = *d;
  }
  if (s_.verify) {
    const pmapi::ValueSet& vs = values->sets()[0];
    if (desc.type == pmapi::kTypeNoSupport) {
      std::printf("%s: Not Supported\n", name.c_str());
    } else if (vs.numval < 0) {
      std::printf("%s: %s\n", name.c_str(), pmapi::ErrStr(vs.numval).c_str());
    } else if (vs.numval == 0) {
      std::printf("%s: No value(s) available\n", name.c_str());
    }
    return;
  }
  if (Separated()) std::putchar('\n');
  PrintHeader(name, *id);
  if (s_.desc) std::printf("%s", pmtools::DescText(desc, s_.full_indom).c_str());
  if (s_.labels) PrintLabels(desc);
  if (s_.help) PrintHelp(*id);
  if (s_.value) PrintValues(desc, *values, "");
  if (s_.labels) PrintInstanceLabels(desc, *values);
}

// "29.0.10" names a metric by its PMID: returns its name, if it has one.
std::optional<std::string> NameOfPmidArg(Context* ctx, const std::string& arg) {
  static const std::regex kPmid(R"((\d+)\.(\d+)\.(\d+))");
  std::smatch m;
  if (!std::regex_match(arg, m, kPmid)) return std::nullopt;
  PmID id = pmapi::MakePmID(std::stoul(m[1]), std::stoul(m[2]), std::stoul(m[3]));
  absl::StatusOr<std::vector<std::string>> names = ctx->NameAll(id);
  if (!names.ok() || names->empty()) return std::nullopt;
  return names->back();
}

absl::StatusOr<Context> OpenContext(const Settings& s, std::string* what) {
  if (!s.archives.empty()) {
    *what = absl::StrFormat("Cannot open archive \"%s\"", s.archives.front());
    return Context::OpenArchive(s.archives.front());
  }
  if (s.local) {
    *what = "Cannot make standalone connection on localhost";
    return pmapi::OpenLocalContext();
  }
  const std::string host = s.hosts.empty() ? "local:" : s.hosts.front();
  *what = absl::StrFormat("Cannot connect to PMCD on host \"%s\"", host);
  return pmapi::OpenHostContext(host);
}

}  // namespace

int Run(Settings s) {
  if (s.verify) s.desc = s.pmid = s.full_pmid = s.help = s.oneline = s.value = s.force = false;
  std::string what;
  absl::StatusOr<Context> ctx = OpenContext(s, &what);
  if (!ctx.ok()) {
    std::fprintf(stderr, "pminfo: %s: %s\n", what.c_str(),
                 pmapi::ErrStr(pmapi::PcpCode(ctx.status())).c_str());
    return 1;
  }
  std::optional<absl::Time> origin;
  if (ctx->kind() == pmapi::kContextArchive) {
    absl::StatusOr<absl::Time> o = pmtools::ResolveOrigin(*ctx, s.origin);
    if (!o.ok()) {
      std::fprintf(stderr, "%s", std::string(o.status().message()).c_str());
      return 1;
    }
    origin = *o;
  }
  Reporter reporter(s, &*ctx, origin);
  std::vector<std::string> roots = s.names.empty() ? std::vector<std::string>{""} : s.names;
  int status = 0;
  for (const std::string& arg : roots) {
    std::string root = NameOfPmidArg(&*ctx, arg).value_or(arg);
    std::vector<std::string> found;
    absl::Status st = ctx->Traverse(root, [&](const std::string& n) { found.push_back(n); });
    for (const std::string& n : found) reporter.Metric(n);
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
  return status;
}

}  // namespace pminfo
