// Fuzz target: the ASCII PMNS parser (pmcpp preprocessing included). The
// input is written to a scratch file and loaded; a name space that loads is
// then queried throughout (traversal, children, PMID to names). The same
// input is also read as an agent's name-space file (Pmns::AddAgentNames),
// twice, and queried likewise, Resolve included.
//
// Inputs that mention /dev or /proc are skipped: #include of a character
// device is allowed (pmcpp allows it) and /dev/zero never ends, which is
// the device's doing, not the parser's.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "pmapi/pmns.h"

namespace {

uint64_t Query(const pmapi::Pmns& ns) {
  uint64_t h = ns.NumNames();
  auto all = ns.Traverse("");
  if (!all.ok()) return h;
  int n = 0;
  for (const std::string& name : *all) {
    if (++n > 200) break;
    h += static_cast<uint64_t>(ns.Resolve(name).kind);
    auto id = ns.LookupName(name);
    if (!id.ok()) continue;
    auto names = ns.NameAll(*id);
    if (names.ok()) for (const std::string& s : *names) h += fuzz::Digest(s);
    auto one = ns.NameID(*id);
    if (one.ok()) h += fuzz::Digest(*one);
    const size_t dot = name.rfind('.');
    auto kids = ns.Children(dot == std::string::npos ? "" : name.substr(0, dot));
    if (kids.ok()) h += kids->size();
  }
  return h;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (text.find("/dev") != std::string_view::npos || text.find("/proc") != std::string_view::npos) {
    return 0;
  }
  const std::string path = fuzz::ScratchDir() + "/fz.pmns";
  if (!fuzz::WriteFile(path, {data, size})) return 0;
  pmapi::PmnsLoadOptions options;
  options.include_dirs.clear();
  options.allow_duplicate_pmids = size % 2 == 0;
  absl::StatusOr<pmapi::Pmns> ns = pmapi::Pmns::LoadFile(path, options);
  fuzz::Consume(ns.ok() ? Query(*ns) : fuzz::Digest(ns.status()));
  pmapi::Pmns agents = pmapi::Pmns::ForAgents();
  for (unsigned domain : {30u, 40u}) {
    absl::Status s = agents.AddAgentNames(text, domain, "fz");
    fuzz::Consume(s.ok() ? Query(agents) : fuzz::Digest(s));
  }
  return 0;
}
