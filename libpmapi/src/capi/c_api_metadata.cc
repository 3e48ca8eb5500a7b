// c_api_metadata.cc: the C layer's name space, descriptor, instance,
// help text, label and profile functions, each on the calling thread's
// current context.
#include <cstdlib>
#include <functional>
#include <span>

#include "absl/strings/str_split.h"
#include "c_api_internal.h"

using namespace pmapi;
using namespace pmapi::capi;

namespace {

// Hands out instance lists as pmGetInDom does: two malloc'd arrays.
int HandOutInstances(const std::vector<Instance>& insts, int** instlist, char*** namelist) {
  *instlist = nullptr;
  *namelist = nullptr;
  if (insts.empty()) return 0;
  std::vector<std::string> names;
  int* ids = static_cast<int*>(std::malloc(insts.size() * sizeof(int)));
  if (ids == nullptr) return -ENOMEM;
  for (size_t i = 0; i < insts.size(); ++i) {
    ids[i] = ToPcp(insts[i].id);
    names.push_back(insts[i].name);
  }
  char** packed = PackNames(names);
  if (packed == nullptr) {
    std::free(ids);
    return -ENOMEM;
  }
  *instlist = ids;
  *namelist = packed;
  return static_cast<int>(insts.size());
}

// The name space a name-space function answers from: the current
// context's (with the loaded name space, if any), or the loaded name space
// alone for a program without a context, as PCP allows.
struct Names {
  Context* ctx = nullptr;
  const Pmns* ns = nullptr;

  absl::StatusOr<PmID> LookupName(std::string_view name) const {
    return ctx != nullptr ? ctx->LookupName(name) : ns->LookupName(name);
  }
  absl::StatusOr<std::vector<std::string>> NameAll(PmID id) const {
    return ctx != nullptr ? ctx->NameAll(id) : ns->NameAll(id);
  }
  absl::StatusOr<std::vector<PmnsChild>> Children(std::string_view name) const {
    return ctx != nullptr ? ctx->Children(name) : WithAnonChildren(name, ns->Children(name));
  }
  absl::Status Traverse(std::string_view name,
                        const std::function<void(const std::string&)>& visit) const {
    if (ctx != nullptr) return ctx->Traverse(name, visit);
    absl::StatusOr<std::vector<std::string>> all = ns->Traverse(name);
    if (!all.ok()) return all.status();
    for (const std::string& n : *all) visit(n);
    return absl::OkStatus();
  }
};

// Runs `body` on the current name space, or returns PM_ERR_NOPMNS.
template <typename F>
int WithNames(F body) {
  if (std::shared_ptr<CContext> entry = Current()) {
    std::lock_guard<std::recursive_mutex> lock(entry->mu);
    SyncNames(*entry);
    return body(Names{entry->ctx, nullptr});
  }
  std::shared_ptr<const Pmns> ns = LoadedNames(nullptr);
  // As libpcp: without a context or a loaded name space there is none.
  if (ns == nullptr) return PM_ERR_NOPMNS;
  return body(Names{nullptr, ns.get()});
}

// Returns pmGetChildrenStatus's answer for `name`.
int Children(const char* name, char*** offspring, int** status) {
  *offspring = nullptr;
  if (status != nullptr) *status = nullptr;
  return WithNames([&](const Names& e) {
    absl::StatusOr<std::vector<PmnsChild>> kids = e.Children(name == nullptr ? "" : name);
    if (!kids.ok()) return Code(kids.status());
    if (kids->empty()) return 0;
    std::vector<std::string> names;
    for (const PmnsChild& k : *kids) names.push_back(k.name);
    char** packed = PackNames(names);
    if (packed == nullptr) return -ENOMEM;
    if (status != nullptr) {
      int* st = static_cast<int*>(std::malloc(kids->size() * sizeof(int)));
      if (st == nullptr) {
        std::free(packed);
        return -ENOMEM;
      }
      for (size_t i = 0; i < kids->size(); ++i) st[i] = (*kids)[i].status;
      *status = st;
    }
    *offspring = packed;
    return static_cast<int>(kids->size());
  });
}

// The label sets of one level for `ident`, handed out.
int Labels(int level, uint32_t ident, pmLabelSet** sets) {
  *sets = nullptr;
  return WithContext([&](CContext& e) {
    absl::StatusOr<std::vector<LabelSet>> got =
        e.ctx->LookupLabelsRequest(static_cast<LabelLevel>(level), ident);
    if (!got.ok()) return Code(got.status());
    return ToCLabelSets(*got, sets);
  });
}

int Text(uint32_t ident, int level, char** buffer, bool indom) {
  *buffer = nullptr;
  return WithContext([&](CContext& e) {
    int kind = level & (PM_TEXT_ONELINE | PM_TEXT_HELP);
    absl::StatusOr<std::string> text =
        e.ctx->LookupTextRequest(ident, kind | (indom ? PM_TEXT_INDOM : PM_TEXT_PMID));
    if (!text.ok()) return Code(text.status());
    *buffer = Dup(*text);
    return *buffer == nullptr ? -ENOMEM : 0;
  });
}

}  // namespace

extern "C" {

// ---- Name space ----

int pmLookupName(int numpmid, const char** names, pmID* pmids) {
  if (numpmid < 1) return PM_ERR_TOOSMALL;
  return WithNames([&](const Names& e) {
    int found = 0;
    int first_error = 0;
    for (int i = 0; i < numpmid; ++i) {
      absl::StatusOr<PmID> id = e.LookupName(names[i] == nullptr ? "" : names[i]);
      pmids[i] = id.ok() ? ToPcp(*id) : PM_ID_NULL;
      if (id.ok()) {
        ++found;
      } else if (first_error == 0) {
        first_error = Code(id.status());
      }
    }
    // A single name that fails reports why; otherwise the count found.
    return numpmid == 1 && found == 0 ? first_error : found;
  });
}

int pmNameID(pmID pmid, char** name) {
  *name = nullptr;
  return WithNames([&](const Names& e) {
    absl::StatusOr<std::vector<std::string>> names = e.NameAll(PmID{pmid});
    if (!names.ok()) return Code(names.status());
    if (names->empty()) return PM_ERR_PMID;
    *name = Dup(names->front());
    return *name == nullptr ? -ENOMEM : 0;
  });
}

int pmNameAll(pmID pmid, char*** names) {
  *names = nullptr;
  return WithNames([&](const Names& e) {
    absl::StatusOr<std::vector<std::string>> all = e.NameAll(PmID{pmid});
    if (!all.ok()) return Code(all.status());
    if (all->empty()) return PM_ERR_PMID;
    *names = PackNames(*all);
    return *names == nullptr ? -ENOMEM : static_cast<int>(all->size());
  });
}

int pmGetChildren(const char* name, char*** offspring) { return Children(name, offspring, nullptr); }

int pmGetChildrenStatus(const char* name, char*** offspring, int** status) {
  return Children(name, offspring, status);
}

int pmTraversePMNS_r(const char* name, void (*func)(const char*, void*), void* closure) {
  return WithNames([&](const Names& e) {
    int count = 0;
    absl::Status st = e.Traverse(name == nullptr ? "" : name, [&](const std::string& leaf) {
      ++count;
      func(leaf.c_str(), closure);
    });
    return st.ok() ? count : Code(st);
  });
}

static void CallPlain(const char* name, void* closure) {
  reinterpret_cast<void (*)(const char*)>(closure)(name);
}

int pmTraversePMNS(const char* name, void (*func)(const char*)) {
  return pmTraversePMNS_r(name, CallPlain, reinterpret_cast<void*>(func));
}

int pmGetPMNSLocation(void) {
  if (LoadedNames(nullptr) != nullptr) return PMNS_LOCAL;
  return WithContext([](CContext& e) {
    switch (e.type) {
      case PM_CONTEXT_HOST: return PMNS_REMOTE;
      case PM_CONTEXT_ARCHIVE: return PMNS_ARCHIVE;
      default: return PMNS_LOCAL;
    }
  });
}

// ---- Descriptors ----

int pmLookupDesc(pmID pmid, pmDesc* desc) {
  return WithContext([&](CContext& e) {
    absl::StatusOr<Desc> d = e.ctx->LookupDesc(PmID{pmid});
    if (!d.ok()) return Code(d.status());
    *desc = ToC(*d);
    return 0;
  });
}

int pmLookupDescs(int numpmid, pmID* pmids, pmDesc* descs) {
  if (numpmid < 1) return PM_ERR_TOOSMALL;
  return WithContext([&](CContext& e) {
    int found = 0;
    int first_error = 0;
    for (int i = 0; i < numpmid; ++i) {
      absl::StatusOr<Desc> d = e.ctx->LookupDesc(PmID{pmids[i]});
      if (d.ok()) {
        descs[i] = ToC(*d);
        ++found;
      } else {
        std::memset(&descs[i], 0, sizeof descs[i]);
        descs[i].pmid = PM_ID_NULL;
        if (first_error == 0) first_error = Code(d.status());
      }
    }
    return numpmid == 1 && found == 0 ? first_error : found;
  });
}

// ---- Instance domains ----

int pmGetInDom(pmInDom indom, int** instlist, char*** namelist) {
  *instlist = nullptr;
  *namelist = nullptr;
  return WithContext([&](CContext& e) {
    absl::StatusOr<std::vector<Instance>> insts = e.ctx->GetInDom(InDom{indom});
    if (!insts.ok()) return Code(insts.status());
    return HandOutInstances(*insts, instlist, namelist);
  });
}

int pmLookupInDom(pmInDom indom, const char* name) {
  return WithContext([&](CContext& e) {
    absl::StatusOr<Inst> inst = e.ctx->LookupInDom(InDom{indom}, name == nullptr ? "" : name);
    return inst.ok() ? ToPcp(*inst) : Code(inst.status());
  });
}

int pmNameInDom(pmInDom indom, int inst, char** name) {
  *name = nullptr;
  return WithContext([&](CContext& e) {
    absl::StatusOr<std::string> n = e.ctx->NameInDom(InDom{indom}, Inst{inst});
    if (!n.ok()) return Code(n.status());
    *name = Dup(*n);
    return *name == nullptr ? -ENOMEM : 0;
  });
}

int pmGetInDomArchive(pmInDom indom, int** instlist, char*** namelist) {
  *instlist = nullptr;
  *namelist = nullptr;
  return WithContext([&](CContext& e) {
    absl::StatusOr<std::vector<Instance>> all = e.ctx->GetInDomArchive(InDom{indom});
    if (!all.ok()) return Code(all.status());
    return HandOutInstances(*all, instlist, namelist);
  });
}

int pmLookupInDomArchive(pmInDom indom, const char* name) {
  return WithContext([&](CContext& e) {
    absl::StatusOr<std::vector<Instance>> all = e.ctx->GetInDomArchive(InDom{indom});
    if (!all.ok()) return Code(all.status());
    std::string_view want = name == nullptr ? "" : name;
    for (const Instance& i : *all) {
      if (i.name == want) return ToPcp(i.id);
    }
    // As with live instance names, the part before the first space matches.
    for (const Instance& i : *all) {
      if (std::string_view(i.name).substr(0, i.name.find(' ')) == want) return ToPcp(i.id);
    }
    return PM_ERR_INST_LOG;
  });
}

int pmNameInDomArchive(pmInDom indom, int inst, char** name) {
  *name = nullptr;
  return WithContext([&](CContext& e) {
    absl::StatusOr<std::vector<Instance>> all = e.ctx->GetInDomArchive(InDom{indom});
    if (!all.ok()) return Code(all.status());
    for (const Instance& i : *all) {
      if (i.id == Inst{inst}) {
        *name = Dup(i.name);
        return *name == nullptr ? -ENOMEM : 0;
      }
    }
    return PM_ERR_INST_LOG;
  });
}

// ---- Help text ----

int pmLookupText(pmID pmid, int level, char** buffer) { return Text(pmid, level, buffer, false); }

int pmLookupInDomText(pmInDom indom, int level, char** buffer) {
  return Text(indom, level, buffer, true);
}

// ---- Labels ----

int pmGetContextLabels(pmLabelSet** sets) { return Labels(PM_LABEL_CONTEXT, PM_ID_NULL, sets); }
int pmGetDomainLabels(int domain, pmLabelSet** sets) {
  return Labels(PM_LABEL_DOMAIN, pmID_build(domain, 0, 0), sets);
}
int pmGetInDomLabels(pmInDom indom, pmLabelSet** sets) { return Labels(PM_LABEL_INDOM, indom, sets); }
int pmGetClusterLabels(pmID pmid, pmLabelSet** sets) { return Labels(PM_LABEL_CLUSTER, pmid, sets); }
int pmGetItemLabels(pmID pmid, pmLabelSet** sets) { return Labels(PM_LABEL_ITEM, pmid, sets); }
int pmGetInstancesLabels(pmInDom indom, pmLabelSet** sets) {
  return Labels(PM_LABEL_INSTANCES, indom, sets);
}

// Every level for a metric, as PCP merges them: context, domain, indom,
// cluster and item.
int pmLookupLabels(pmID pmid, pmLabelSet** sets) {
  *sets = nullptr;
  return WithContext([&](CContext& e) {
    const PmID id{pmid};
    absl::StatusOr<Desc> d = e.ctx->LookupDesc(id);
    if (!d.ok()) return Code(d.status());
    std::vector<LabelSet> all;
    auto add = [&](const absl::StatusOr<std::vector<LabelSet>>& got) {
      if (got.ok()) all.insert(all.end(), got->begin(), got->end());
    };
    add(e.ctx->LookupLabels(LabelLevel::kContext));
    add(e.ctx->LookupLabels(LabelLevel::kDomain, id));
    if (d->indom != kInDomNull) add(e.ctx->LookupLabels(LabelLevel::kInDom, d->indom));
    if (e.type == PM_CONTEXT_ARCHIVE) {
      // The per-level lookup leaves an archive's cluster labels out, as
      // PCP's pmGetClusterLabels does; pmLookupLabels finds them once they
      // are in force. pmlogger records a metric's domain and cluster labels
      // together, so they are in force when its domain labels are.
      absl::StatusOr<std::vector<LabelSet>> domain = e.ctx->LookupLabels(LabelLevel::kDomain, id);
      bool in_force = domain.ok() && !domain->empty();
      if (in_force) add(e.ctx->ArchiveClusterLabels(id));
    } else {
      add(e.ctx->LookupLabels(LabelLevel::kCluster, id));
    }
    add(e.ctx->LookupLabels(LabelLevel::kItem, id));
    // Instance labels are not part of the answer (pmGetInstancesLabels).
    // Levels with no labels are left out.
    std::erase_if(all, [](const LabelSet& set) { return set.labels.empty(); });
    return ToCLabelSets(all, sets);
  });
}

// ---- The instance profile ----

int pmAddProfile(pmInDom indom, int numinst, int* instlist) {
  if (indom == PM_INDOM_NULL && numinst > 0) return PM_ERR_PROFILESPEC;
  return WithContext([&](CContext& e) {
    return Code(e.ctx->AddProfile(InDom{indom}, CopyFromC<Inst>(instlist, numinst)));
  });
}

int pmDelProfile(pmInDom indom, int numinst, int* instlist) {
  if (indom == PM_INDOM_NULL && numinst > 0) return PM_ERR_PROFILESPEC;
  return WithContext([&](CContext& e) {
    return Code(e.ctx->DelProfile(InDom{indom}, CopyFromC<Inst>(instlist, numinst)));
  });
}

}  // extern "C"
