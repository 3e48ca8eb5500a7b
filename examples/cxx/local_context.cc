// local_context: fetch metrics from a local context (pmapi::OpenLocalContext):
// the agents run inside this process, loaded from the local configuration
// (a file in the form of pmcd.conf: the library's built-in Linux and proc
// agents by default, $PCP_PMCDCONF_PATH names another). No pmcd is needed.
//
//   local_context [-K SPEC]... METRIC...
//
// Each -K changes the agents before the context opens, as `pminfo -K`
// does (pmapi::SpecLocalPmda): "add,DOMAIN,PATH,INIT" loads a
// shared-object agent, "del,DOMAIN" drops one, "clear" drops them all.
// Agents that fail to load are reported on stderr.
//
// Prints one line per value: "NAME VALUE", or "NAME[INSTANCE] VALUE" for a
// metric with an instance domain, or "NAME (why not)". Each value is
// extracted into a C++ type chosen by the metric's type (pmapi::ExtractValue).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/extract.h"
#include "pmapi/local.h"

namespace {

// Value j of set vs, of metric type `type`, as text.
std::string ValueText(const pmapi::Result& r, const pmapi::ValueSet& vs, int j, int type) {
  const pmapi::ValueView v = r.value(vs, j);
  absl::StatusOr<pmapi::AtomValue> a;
  switch (type) {
    case pmapi::kType32:  // signed integers, as 64 bits
    case pmapi::kType64:
      if ((a = pmapi::ExtractValue(vs.valfmt, v, type, pmapi::kType64)).ok()) return absl::StrCat(a->ll);
      break;
    case pmapi::kTypeU32:  // unsigned integers, as 64 bits
    case pmapi::kTypeU64:
      if ((a = pmapi::ExtractValue(vs.valfmt, v, type, pmapi::kTypeU64)).ok()) return absl::StrCat(a->ull);
      break;
    case pmapi::kTypeFloat:
    case pmapi::kTypeDouble:
      if ((a = pmapi::ExtractValue(vs.valfmt, v, type, pmapi::kTypeDouble)).ok())
        return absl::StrFormat("%.3f", a->d);
      break;
    case pmapi::kTypeString:  // the text, owned by the AtomValue
      if ((a = pmapi::ExtractValue(vs.valfmt, v, type, pmapi::kTypeString)).ok())
        return absl::StrFormat("\"%s\"", a->bytes);
      break;
    default:
      a = pmapi::PcpError(pmapi::kErrType);
  }
  return absl::StrFormat("(%s)", a.status().message());
}

}  // namespace

int main(int argc, char** argv) {
  // -K must come before the context opens: it sets the agents' table.
  int i = 1;
  for (; i + 1 < argc && std::string(argv[i]) == "-K"; i += 2) {
    if (std::string msg = pmapi::SpecLocalPmda(argv[i + 1]); !msg.empty()) {
      absl::FPrintF(stderr, "local_context: -K %s: %s\n", argv[i + 1], msg);
      return 2;
    }
  }
  if (i >= argc) {
    absl::FPrintF(stderr, "Usage: local_context [-K SPEC]... METRIC...\n");
    return 2;
  }
  std::vector<std::string> warnings;  // agents that could not be loaded
  pmapi::LocalOptions options;
  options.warnings = &warnings;
  absl::StatusOr<pmapi::Context> ctx = pmapi::OpenLocalContext(options);
  for (const std::string& w : warnings) absl::FPrintF(stderr, "local_context: %s\n", w);
  if (!ctx.ok()) {
    absl::FPrintF(stderr, "local_context: cannot open a local context: %s\n", ctx.status().message());
    return 1;
  }
  for (; i < argc; ++i) {
    const std::string name = argv[i];
    absl::StatusOr<pmapi::PmID> id = ctx->LookupName(name);
    absl::StatusOr<pmapi::Desc> desc = id.ok() ? ctx->LookupDesc(*id) : id.status();
    absl::StatusOr<pmapi::Result> r = desc.ok() ? ctx->Fetch({*id}) : desc.status();
    if (!r.ok()) {
      absl::PrintF("%s (%s)\n", name, r.status().message());
      continue;
    }
    const pmapi::ValueSet& vs = r->sets()[0];
    if (vs.numval <= 0) absl::PrintF("%s (%s)\n", name, vs.numval < 0 ? pmapi::ErrStr(vs.numval) : "no values");
    for (int j = 0; j < vs.numval; ++j) {
      std::string label = name;
      if (desc->indom != pmapi::kInDomNull) {
        const pmapi::Inst inst = r->value(vs, j).inst;
        absl::StatusOr<std::string> iname = ctx->NameInDom(desc->indom, inst);
        label += "[" + (iname.ok() ? *iname : std::to_string(pmapi::ToPcp(inst))) + "]";
      }
      absl::PrintF("%s %s\n", label, ValueText(*r, vs, j, desc->type));
    }
  }
  return 0;
}
