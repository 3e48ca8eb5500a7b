// c_pmda_labels.cc: labels in the C PMDA interface: pmdaLabel (the
// default label handler), pmdaAddLabels, pmdaAddNotes, pmdaAddLabelFlags,
// and the conversions between pmLabelSet and the library's LabelSet.
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"
#include "c_api_internal.h"
#include "context_labels.h"
#include "c_pmda_internal.h"
#include "pmapi/errors.h"
#include "pmapi/labels.h"
#include "pmapi/strings.h"

namespace pmapi {
namespace {

// Replaces the JSON and index of *dst with `src`'s (dst's inst is kept).
int AssignCLabelSet(pmLabelSet* dst, const LabelSet& src) {
  char* json = static_cast<char*>(std::malloc(src.json.size() + 1));
  pmLabel* labels = static_cast<pmLabel*>(std::calloc(src.labels.empty() ? 1 : src.labels.size(), sizeof(pmLabel)));
  if (json == nullptr || labels == nullptr) {
    std::free(json);
    std::free(labels);
    return -ENOMEM;
  }
  std::memcpy(json, src.json.c_str(), src.json.size() + 1);
  bool compound = false;
  for (size_t i = 0; i < src.labels.size(); ++i) {
    const LabelEntry& l = src.labels[i];
    labels[i].name = l.name;
    labels[i].namelen = l.namelen;
    labels[i].flags = l.flags;
    labels[i].value = l.value;
    labels[i].valuelen = l.valuelen;
    compound = compound || (l.flags & PM_LABEL_COMPOUND) != 0;
  }
  std::free(dst->json);
  std::free(dst->labels);
  dst->json = json;
  dst->jsonlen = static_cast<unsigned>(src.json.size());
  dst->labels = labels;
  dst->nlabels = static_cast<int>(src.labels.size());
  dst->compound = compound ? 1 : 0;
  dst->padding = 0;
  dst->hash = nullptr;
  return dst->nlabels;
}

}  // namespace

int AddCLabels(pmLabelSet** lsp, const std::string& json, int flags) {
  if (lsp == nullptr) return PM_ERR_GENERIC;
  absl::StatusOr<LabelSet> added = ParseLabelSet(json, flags);
  if (!added.ok()) return PcpCode(added.status());
  if (*lsp == nullptr) {
    *lsp = NewCLabelSet(*added);
    return *lsp == nullptr ? -ENOMEM : (*lsp)->nlabels;
  }
  LabelSet old = FromCLabelSet(**lsp);
  LabelSet result = *added;
  if (!old.json.empty()) {
    absl::StatusOr<LabelSet> merged = ParseLabelSet(MergeLabelSets({&old, &*added}));
    if (!merged.ok()) return PcpCode(merged.status());
    absl::flat_hash_map<std::string, uint8_t> label_flags;
    for (const LabelEntry& l : old.labels) label_flags[std::string(LabelName(old, l))] = l.flags;
    for (const LabelEntry& l : added->labels) label_flags[std::string(LabelName(*added, l))] = l.flags;
    for (LabelEntry& l : merged->labels) l.flags = label_flags[std::string(LabelName(*merged, l))];
    result = *std::move(merged);
  }
  return AssignCLabelSet(*lsp, result);
}

namespace {

int AddFormatted(pmLabelSet** lsp, int flags, const char* fmt, va_list args) {
  if (fmt == nullptr) return PM_ERR_GENERIC;
  char buf[PM_MAXLABELJSONLEN];
  int n = std::vsnprintf(buf, sizeof(buf), fmt, args);
  if (n < 0) return -errno;
  return AddCLabels(lsp, buf, flags);
}

}  // namespace

pmLabelSet* NewCLabelSet(const LabelSet& set) {
  auto* out = static_cast<pmLabelSet*>(std::calloc(1, sizeof(pmLabelSet)));
  if (out == nullptr) return nullptr;
  out->inst = static_cast<unsigned>(ToPcp(set.inst));
  if (AssignCLabelSet(out, set) < 0) {
    std::free(out);
    return nullptr;
  }
  return out;
}

LabelSet FromCLabelSet(const pmLabelSet& set) {
  LabelSet out;
  out.inst = static_cast<Inst>(set.inst);
  if (set.json != nullptr) out.json.assign(set.json, set.jsonlen);
  for (int i = 0; set.labels != nullptr && i < set.nlabels; ++i) {
    out.labels.push_back(capi::FromC(set.labels[i]));
  }
  return out;
}

void FreeCLabelSetContents(pmLabelSet* sets, int n) {
  for (int i = 0; sets != nullptr && i < n; ++i) {
    std::free(sets[i].json);
    std::free(sets[i].labels);
    sets[i].json = nullptr;
    sets[i].labels = nullptr;
  }
}

}  // namespace pmapi

namespace {

// The instances labelled by an instances request: each instance of the
// indom the profile admits, or PM_IN_NULL alone for a singular metric.
std::vector<pmapi::Inst> LabelledInstances(int ident, pmdaExt* ext) {
  std::vector<pmapi::Inst> insts;
  const pmInDom indom = static_cast<pmInDom>(ident);
  if (indom == PM_INDOM_NULL) {
    insts.push_back(pmapi::kInNull);
    return insts;
  }
  bool found = false;
  for (const pmapi::CInstance& i : pmapi::CIndomInstances(ext, indom, &found)) {
    if (pmapi::CProfileAdmits(ext->e_prof, indom, i.inst)) insts.push_back(i.inst);
  }
  return insts;
}

int InstanceLabels(int ident, pmLabelSet** lpp, pmdaExt* ext) {
  std::vector<pmapi::Inst> insts = LabelledInstances(ident, ext);
  if (insts.empty()) return 0;
  auto* sets = static_cast<pmLabelSet*>(std::calloc(insts.size(), sizeof(pmLabelSet)));
  if (sets == nullptr) return -ENOMEM;
  *lpp = sets;
  for (size_t k = 0; k < insts.size(); ++k) {
    const int32_t inst = pmapi::ToPcp(insts[k]);
    pmLabelSet* lp = &sets[k];
    int sts = 0;
    if (ext->e_labelCallBack != nullptr) {
      sts = ext->e_labelCallBack(static_cast<pmInDom>(ident), static_cast<unsigned>(inst), &lp);
      if (sts < 0)
        pmapi::CPmdaNotify(ext, LOG_DEBUG,
                           absl::StrFormat("pmdaLabel: InDom %s[%d]: %s",
                                           pmapi::InDomStr(static_cast<pmapi::InDom>(ident)),
                                           inst, pmapi::ErrStr(sts)));
    }
    sets[k].nlabels = sts > 0 ? sets[k].nlabels : sts;
    if (sts > 0) pmdaAddLabelFlags(&sets[k], PM_LABEL_INSTANCES);
    sets[k].inst = static_cast<unsigned>(inst);
  }
  return static_cast<int>(insts.size());
}

}  // namespace

extern "C" {

int pmdaLabel(int ident, int type, pmLabelSet** lpp, pmdaExt* ext) {
  if (ext == nullptr || lpp == nullptr) return PM_ERR_GENERIC;
  pmapi::CPmdaState* st = pmapi::CPmdaStateOf(ext);
  switch (type) {
    case PM_LABEL_CONTEXT: {
      if (*lpp != nullptr) return pmdaAddLabelFlags(*lpp, type);
      // the administrator's label files, as libpcp_pmda answers
      absl::StatusOr<pmapi::LabelSet> set = pmapi::ConfiguredContextLabels(pmapi::SysconfDir());
      if (!set.ok() || set->labels.empty()) return 0;
      *lpp = pmapi::NewCLabelSet(*set);
      return *lpp == nullptr ? -ENOMEM : 1;
    }
    case PM_LABEL_INDOM:
    case PM_LABEL_CLUSTER:
    case PM_LABEL_ITEM:
      return *lpp == nullptr ? 0 : pmdaAddLabelFlags(*lpp, type);
    case PM_LABEL_DOMAIN: {
      if (*lpp != nullptr) return pmdaAddLabelFlags(*lpp, type);
      // the agent's name without a "pmda" prefix or " DSO" suffix
      std::string agent = ext->e_name ? ext->e_name : "";
      if (agent.size() > 4 && agent.compare(0, 4, "pmda") == 0) agent.erase(0, 4);
      if (agent.size() > 4 && agent.compare(agent.size() - 4, 4, " DSO") == 0) agent.resize(agent.size() - 4);
      int sts = pmdaAddLabels(lpp, "{\"agent\":\"%s\"}", agent.c_str());
      if (sts < 0) return sts;
      return pmdaAddLabelFlags(*lpp, type);
    }
    case PM_LABEL_INSTANCES:
      if (st == nullptr || st->dispatch->comm.pmda_interface < PMDA_INTERFACE_7) return 0;
      return InstanceLabels(ident, lpp, ext);
    default:
      return PM_ERR_TYPE;
  }
}

int pmdaAddLabelFlags(pmLabelSet* lsp, int flags) {
  if (lsp == nullptr) return 0;
  for (int i = 0; lsp->labels != nullptr && i < lsp->nlabels; ++i) lsp->labels[i].flags |= static_cast<unsigned>(flags);
  return 1;
}

int pmdaAddLabels(pmLabelSet** lsp, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  int sts = pmapi::AddFormatted(lsp, 0, fmt, args);
  va_end(args);
  return sts;
}

int pmdaAddNotes(pmLabelSet** lsp, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  int sts = pmapi::AddFormatted(lsp, PM_LABEL_OPTIONAL, fmt, args);
  va_end(args);
  return sts;
}

}  // extern "C"
