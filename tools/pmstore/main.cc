// pmstore: change the value of a performance metric, as PCP's pmstore
// does: fetch the current values, store the new value into each of them,
// and report "NAME old value=X new value=Y" per instance.
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_split.h"
#include "options.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "source.h"
#include "pmapi/strings.h"
#include "pmapi/value_text.h"
#include "string_value.h"

namespace {


struct Settings {
  std::vector<std::string> hosts;
  bool local = false;
  bool force = false;
  bool fetch_after = false;
  std::vector<std::string> insts;
  bool usage = false;
  std::string metric;
  std::string value;
};

pmtools::OptionTable Table() {
  using namespace pmtools;
  OptionTable table{"pmstore",
          "[options] metricname value",
          {{"General options",
            {StdDebug(), StdHost(), StdLocalPmda(), StdSpecLocal(), StdNamespace(), StdVersion(), StdHelp()}},
           {"Value options",
            {{'F', "fetch", "", "perform pmFetch after pmStore to confirm value"},
             {'f', "force", "", "store the value even if there is no current value set"},
             {'i', "insts", "INSTS", "restrict store to comma-separated list of instances"}}}}};
  // Options end at the metric name, so the value may begin with "-".
  table.posix = true;
  return table;
}

void Apply(const pmtools::ParsedOption& o, Settings* s) {
  const std::string& k = o.key;
  if (k == "h") {
    s->hosts.push_back(o.value);
  } else if (k == "L") {
    s->local = true;
  } else if (k == "f") {
    s->force = true;
  } else if (k == "F") {
    s->fetch_after = true;
  } else if (k == "i") {
    // Instance names are separated by commas and white space.
    for (absl::string_view n : absl::StrSplit(o.value, absl::ByAnyChar(", \t\n"), absl::SkipEmpty())) {
      s->insts.emplace_back(n);
    }
  } else if (k == "D") {
    pmtools::ApplyDebugOption(o.value);
  } else if (k == "K") {
    if (!pmtools::ApplySpecLocal("pmstore", o.value)) s->usage = true;
  } else if (k == "?") {
    s->usage = true;
  }
  // -n is accepted; it matters only to sources not in use here.
}

std::string Err(const absl::Status& s) { return pmapi::ErrStr(pmapi::PcpCode(s)); }

[[noreturn]] void Fail() { std::exit(1); }

absl::StatusOr<pmapi::Context> Open(const Settings& s) {
  if (s.local) {
    return pmtools::OpenToolContext(pmapi::ContextKind::kLocal, "",
                                    "Cannot make standalone local connection");
  }
  return pmtools::OpenToolContext(pmapi::ContextKind::kHost, s.hosts.empty() ? "local:" : s.hosts.front(),
                                  "");
}

// Restricts the fetch to the named instances (pmDelProfile, then
// pmAddProfile for each).
void RestrictInstances(pmapi::Context& ctx, const Settings& s, const pmapi::Desc& desc) {
  if (s.insts.empty()) return;
  ctx.DelProfile(desc.indom, {}).IgnoreError();  // kInDomNull: everything, as in PCP
  for (const std::string& name : s.insts) {
    absl::StatusOr<pmapi::Inst> inst = ctx.LookupInDom(desc.indom, name);
    if (!inst.ok()) {
      std::printf("pmLookupInDom %s[%s]: %s\n", s.metric.c_str(), name.c_str(),
                  Err(inst.status()).c_str());
      Fail();
    }
    absl::Status added = ctx.AddProfile(desc.indom, {&*inst, 1});
    if (!added.ok()) {
      std::printf("pmAddProfile %s[%s]: %s\n", s.metric.c_str(), name.c_str(), Err(added).c_str());
      Fail();
    }
  }
}

pmapi::AtomValue Convert(const std::string& text, int type) {
  pmapi::ValueText v = pmapi::ParseValueText(text, type);
  if (v.error == pmapi::ValueTextError::kIncompatible) {
    std::fprintf(stderr, "The value \"%s\" is incompatible with the data type (PM_TYPE_%s)\n",
                 text.c_str(), pmapi::TypeStr(type).c_str());
    Fail();
  }
  if (v.error == pmapi::ValueTextError::kOutOfRange) {
    std::fprintf(stderr, "The value \"%s\" is out of range for the data type (PM_TYPE_%s)\n",
                 text.c_str(), pmapi::TypeStr(type).c_str());
    Fail();
  }
  return v.atom;
}

// Returns the values to store: the instances of `old` (or, with -f and no
// current values, one value with no instance), each holding `atom`.
pmapi::Result StoreRequest(const pmapi::Result& old, const pmapi::AtomValue& atom, int type) {
  const pmapi::ValueSet& vs = old.sets()[0];
  pmapi::Result store;
  store.set_timestamp_ns(old.timestamp_ns());
  const int n = vs.numval > 0 ? vs.numval : 1;
  store.AddSet(vs.pmid, n, pmstore::StoredFormat(type));
  for (int j = 0; j < n; ++j) {
    const pmapi::Inst inst = vs.numval > 0 ? old.value(vs, j).inst : pmapi::kInNull;
    pmstore::AppendValue(atom, type, inst, &store);
  }
  return store;
}

void Report(pmapi::Context& ctx, const Settings& s, const pmapi::Desc& desc,
            const pmapi::Result& old, bool forced, const pmapi::Result& now) {
  const pmapi::ValueSet& ovs = old.sets()[0];
  const pmapi::ValueSet& nvs = now.sets()[0];
  for (int j = 0; j < nvs.numval; ++j) {
    pmapi::ValueView nv = now.value(nvs, j);
    std::printf("%s", s.metric.c_str());
    if (desc.indom != pmapi::kInDomNull) {
      absl::StatusOr<std::string> name = ctx.NameInDom(desc.indom, nv.inst);
      if (name.ok()) {
        std::printf(" inst [%d or \"%s\"]", pmapi::ToPcp(nv.inst), name->c_str());
      } else {
        std::printf(" inst [%d]", pmapi::ToPcp(nv.inst));
      }
    }
    // A confirming fetch may return more values than there were before;
    // those had no old value.
    std::string old_text = "\"(none)\"";
    if (!forced && j < ovs.numval) {
      old_text = pmapi::FormatValue(ovs.valfmt, desc.type, old.value(ovs, j), 1);
    }
    std::printf(" old value=%s new value=%s\n", old_text.c_str(),
                pmapi::FormatValue(nvs.valfmt, desc.type, nv, 1).c_str());
  }
}

int Run(const Settings& s) {
  absl::StatusOr<pmapi::Context> ctx = Open(s);
  if (!ctx.ok()) return 1;
  absl::StatusOr<pmapi::PmID> id = ctx->LookupName(s.metric);
  if (!id.ok()) {
    std::printf("%s: pmLookupName: %s\n", s.metric.c_str(), Err(id.status()).c_str());
    return 1;
  }
  absl::StatusOr<pmapi::Desc> desc = ctx->LookupDesc(*id);
  if (!desc.ok()) {
    std::printf("%s: pmLookupDesc: %s\n", s.metric.c_str(), Err(desc.status()).c_str());
    return 1;
  }
  if (desc->type == pmapi::kTypeAggregate || desc->type == pmapi::kTypeAggregateStatic) {
    std::fprintf(stderr, "pmstore: Cannot modify values for PM_TYPE_AGGREGATE metrics\n");
    return 1;
  }
  if (desc->type == pmapi::kTypeEvent || desc->type == pmapi::kTypeHighResEvent) {
    std::fprintf(stderr, "pmstore: Cannot modify values for event type metrics\n");
    return 1;
  }
  RestrictInstances(*ctx, s, *desc);
  pmapi::PmID ids[] = {*id};
  absl::StatusOr<pmapi::Result> old = ctx->Fetch(ids);
  if (!old.ok()) {
    std::printf("%s: pre pmFetch: %s\n", s.metric.c_str(), Err(old.status()).c_str());
    return 1;
  }
  const pmapi::ValueSet& vs = old->sets()[0];
  if (vs.numval < 0) {
    std::printf("%s: Error: %s\n", s.metric.c_str(), pmapi::ErrStr(vs.numval).c_str());
    return 1;
  }
  pmapi::AtomValue atom = Convert(s.value, desc->type);
  if (vs.numval == 0 && !s.force) {
    std::printf("%s: No value(s) available!\n", s.metric.c_str());
    return 1;
  }
  pmapi::Result store = StoreRequest(*old, atom, desc->type);
  absl::Status stored = ctx->Store(store);
  if (!stored.ok()) {
    std::printf("%s: new value=\"%s\" pmStore: %s\n", s.metric.c_str(), s.value.c_str(),
                Err(stored).c_str());
    return 1;
  }
  std::optional<pmapi::Result> now;
  if (s.fetch_after) {
    absl::StatusOr<pmapi::Result> r = ctx->Fetch(ids);
    if (!r.ok()) {
      std::printf("%s: post pmFetch: %s\n", s.metric.c_str(), Err(r.status()).c_str());
      return 1;
    }
    now = std::move(*r);
  }
  Report(*ctx, s, *desc, *old, vs.numval == 0, now.has_value() ? *now : store);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  pmtools::SetProgram(argc > 0 ? argv[0] : nullptr, "pmstore");
  pmtools::OptionTable table = Table();
  const pmtools::CommandLine cl = pmtools::ParseCommandLine(table, argc, argv);
  if (cl.exit) return 0;
  Settings settings;
  for (const pmtools::ParsedOption& o : cl.options) Apply(o, &settings);
  if (settings.usage || cl.operands.size() != 2) {
    pmtools::PrintUsage(table);
    return 1;
  }
  settings.metric = cl.operands[0];
  settings.value = cl.operands[1];
  std::fflush(stdout);
  return Run(settings);
}
