// dsotest_agent.cc: a small agent built as a shared object, loaded by the
// local context tests through a configuration line
//   dsotest DOMAIN dso dsotest_init /path/to/pmda_dsotest.so pmns=...
// Its help text comes from a text handler rather than a file.
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "pmapi/errors.h"
#include "pmapi/pmda.h"

PMAPI_PMDA_EXPORT_ABI

namespace {

using pmapi::AtomValue;
using pmapi::Pmda;
using pmapi::PmdaMetric;

struct DsoState {
  uint64_t calls = 0;
};

int DsoFetch(const DsoState& st, const PmdaMetric& m, pmapi::Inst inst, AtomValue* atom) {
  const uint32_t shelf = static_cast<uint32_t>(pmapi::ToPcp(inst));
  if (pmapi::PmIDCluster(m.desc.pmid) != 0) return pmapi::kErrPmid;
  switch (pmapi::PmIDItem(m.desc.pmid)) {
    case 0: atom->ul = 42; return 1;
    case 1: atom->bytes = "hello from a shared object"; return 1;
    case 2: atom->ull = st.calls; return 1;
    case 3:
      if (shelf != 1 && shelf != 2) return pmapi::kErrInst;
      atom->ul = 10 * shelf;
      return 1;
  }
  return pmapi::kErrPmid;
}

absl::StatusOr<std::string> DsoText(uint32_t ident, int type, Pmda& pmda) {
  const bool oneline = (type & pmapi::kTextOneline) != 0;
  if (type & pmapi::kTextInDom) {
    if (pmapi::InDom{ident} != pmapi::MakeInDom(pmda.domain(), 0)) {
      return pmapi::PcpError(pmapi::kErrText);
    }
    return std::string(oneline ? "Two shelves" : "The shelves \"top\" (1) and \"bottom\" (2).\n");
  }
  const pmapi::PmID id{ident};
  if (pmapi::PmIDCluster(id) != 0 || pmapi::PmIDItem(id) > 3) {
    return pmapi::PcpError(pmapi::kErrText);
  }
  static constexpr const char* kOneline[] = {"The answer", "A greeting", "Fetches answered",
                                             "One value per shelf"};
  if (oneline) return std::string(kOneline[pmapi::PmIDItem(id)]);
  return absl::StrCat(kOneline[pmapi::PmIDItem(id)], ", from the shared-object test agent.\n");
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void dsotest_init(Pmda* dp) {
  dp->Dso(pmapi::kPmdaInterface7, "dsotest DSO", "");
  if (dp->status() != 0) return;
  auto state = std::make_shared<DsoState>();
  dp->dispatch().text = DsoText;
  dp->dispatch().fetch = [state](std::span<const pmapi::PmID> ids, pmapi::Result* r, Pmda& pmda) {
    ++state->calls;
    return pmda.DefaultFetch(ids, r);
  };
  dp->SetFetchCallback([state](const PmdaMetric& m, pmapi::Inst inst, AtomValue* atom) {
    return DsoFetch(*state, m, inst, atom);
  });
  const pmapi::Units none{};
  const pmapi::Units count{0, 0, 1, 0, 0, 0};
  dp->Init(
      {pmapi::PmdaIndom{pmapi::PmdaInDom(0),
                        {{pmapi::Inst{1}, "top"}, {pmapi::Inst{2}, "bottom"}}}},
      {{nullptr,
        {pmapi::PmdaPmid(0, 0), pmapi::kTypeU32, pmapi::kInDomNull, pmapi::kSemDiscrete, none}},
       {nullptr,
        {pmapi::PmdaPmid(0, 1), pmapi::kTypeString, pmapi::kInDomNull, pmapi::kSemDiscrete, none}},
       {nullptr,
        {pmapi::PmdaPmid(0, 2), pmapi::kTypeU64, pmapi::kInDomNull, pmapi::kSemCounter, count}},
       {nullptr,
        {pmapi::PmdaPmid(0, 3), pmapi::kTypeU32, pmapi::PmdaInDom(0), pmapi::kSemInstant, none}}});
}
