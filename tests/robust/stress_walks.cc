// stress_walks.cc: see stress_walks.h.
#include "stress_walks.h"

#include <pcp/pmapi.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>

#include "absl/time/time.h"
#include "pmapi/errors.h"

namespace stress {
namespace {

void Mix(uint64_t* d, uint64_t x) { *d = (*d ^ x) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull; }

void MixBytes(uint64_t* d, const void* p, size_t n) {
  const auto* b = static_cast<const uint8_t*>(p);
  Mix(d, n);
  for (size_t i = 0; i < n; ++i) Mix(d, b[i]);
}

void MixString(uint64_t* d, const std::string& s) { MixBytes(d, s.data(), s.size()); }

// ---- C++ API ----

void MixDesc(uint64_t* d, const pmapi::Desc& desc) {
  Mix(d, pmapi::ToPcp(desc.pmid));
  Mix(d, static_cast<uint64_t>(desc.type));
  Mix(d, pmapi::ToPcp(desc.indom));
  Mix(d, static_cast<uint64_t>(desc.sem));
  MixBytes(d, &desc.units, sizeof desc.units);
}

// Other names, one-line help and item labels: their text, or the error
// (the same every time).
void MixExtras(uint64_t* d, pmapi::Context& ctx, pmapi::PmID id) {
  absl::StatusOr<std::vector<std::string>> all = ctx.NameAll(id);
  Mix(d, static_cast<uint64_t>(pmapi::PcpCode(all.status())));
  if (all.ok()) {
    for (const std::string& n : *all) MixString(d, n);
  }
  absl::StatusOr<std::string> text = ctx.LookupText(id, pmapi::TextKind::kOneline);
  Mix(d, static_cast<uint64_t>(pmapi::PcpCode(text.status())));
  if (text.ok()) MixString(d, *text);
  absl::StatusOr<std::vector<pmapi::LabelSet>> labels = ctx.LookupLabels(pmapi::LabelLevel::kItem, id);
  Mix(d, static_cast<uint64_t>(pmapi::PcpCode(labels.status())));
  if (labels.ok()) {
    for (const pmapi::LabelSet& l : *labels) MixString(d, l.json);
  }
}

void MixResult(uint64_t* d, const pmapi::Result& r, const std::set<pmapi::PmID>& stable, bool all) {
  if (all) Mix(d, static_cast<uint64_t>(r.timestamp_ns()));
  Mix(d, static_cast<uint64_t>(r.numpmid()));
  for (const pmapi::ValueSet& vs : r.sets()) {
    Mix(d, pmapi::ToPcp(vs.pmid));
    if (!all && stable.count(vs.pmid) == 0) continue;
    Mix(d, static_cast<uint64_t>(vs.numval));
    for (int j = 0; j < vs.numval; ++j) {
      pmapi::ValueView v = r.value(vs, j);
      Mix(d, static_cast<uint64_t>(pmapi::ToPcp(v.inst)));
      if (vs.valfmt == pmapi::kValInsitu) {
        Mix(d, static_cast<uint64_t>(v.lval));
      } else {
        Mix(d, static_cast<uint64_t>(v.vtype));
        MixBytes(d, v.payload.data(), v.payload.size());
      }
    }
  }
}

// ---- C API ----

void Collect(const char* name, void* arg) {
  static_cast<std::vector<std::string>*>(arg)->push_back(name);
}

void MixCDesc(uint64_t* d, const pmDesc& desc) {
  Mix(d, desc.pmid);
  Mix(d, static_cast<uint64_t>(desc.type));
  Mix(d, desc.indom);
  Mix(d, static_cast<uint64_t>(desc.sem));
  MixBytes(d, &desc.units, sizeof desc.units);
}

// A name, the printable forms (per-thread buffers), one-line help and
// labels: their text, or the error (the same every time).
void MixCExtras(uint64_t* d, pmID id, const pmDesc& desc) {
  char* name = nullptr;
  int sts = pmNameID(id, &name);
  Mix(d, static_cast<uint64_t>(sts));
  if (sts >= 0) {
    MixString(d, name);
    std::free(name);
  }
  MixString(d, pmIDStr(id));
  MixString(d, pmTypeStr(desc.type));
  MixString(d, pmUnitsStr(&desc.units));
  char* text = nullptr;
  sts = pmLookupText(id, PM_TEXT_ONELINE, &text);
  Mix(d, static_cast<uint64_t>(sts));
  if (sts >= 0) {
    MixString(d, text);
    std::free(text);
  }
  pmLabelSet* sets = nullptr;
  sts = pmLookupLabels(id, &sets);
  Mix(d, static_cast<uint64_t>(sts));
  if (sts > 0) {
    for (int i = 0; i < sts; ++i) MixBytes(d, sets[i].json, sets[i].jsonlen);
    pmFreeLabelSets(sets, sts);
  }
}

void MixCResult(uint64_t* d, const pmResult* r, const std::set<pmID>& stable, bool all) {
  if (all) {
    Mix(d, static_cast<uint64_t>(r->timestamp.tv_sec));
    Mix(d, static_cast<uint64_t>(r->timestamp.tv_usec));
  }
  Mix(d, static_cast<uint64_t>(r->numpmid));
  for (int i = 0; i < r->numpmid; ++i) {
    const pmValueSet* vs = r->vset[i];
    Mix(d, vs->pmid);
    if (!all && stable.count(vs->pmid) == 0) continue;
    Mix(d, static_cast<uint64_t>(vs->numval));
    for (int j = 0; j < vs->numval; ++j) {
      const pmValue& v = vs->vlist[j];
      Mix(d, static_cast<uint64_t>(v.inst));
      if (vs->valfmt == PM_VAL_INSITU) {
        Mix(d, static_cast<uint64_t>(v.value.lval));
      } else {
        Mix(d, static_cast<uint64_t>(v.value.pval->vtype));
        MixBytes(d, v.value.pval->vbuf, v.value.pval->vlen - PM_VAL_HDR_SIZE);
      }
    }
  }
}

// Checks a rule of the handle table; counts a breach.
void Check(bool ok, std::atomic<int>* breaches) {
  if (!ok) ++*breaches;
}

}  // namespace

Walk WalkContext(pmapi::Context& ctx, const WalkSpec& spec) {
  Walk w;
  std::vector<std::string> names;
  if (!ctx.Traverse(spec.root, [&](const std::string& n) { names.push_back(n); }).ok()) ++w.errors;
  w.names = static_cast<int>(names.size());
  const std::set<std::string> stable_names(spec.stable.begin(), spec.stable.end());
  std::vector<pmapi::PmID> ids;
  std::set<pmapi::PmID> stable;
  std::set<pmapi::InDom> indoms;
  for (const std::string& n : names) {
    MixString(&w.names_digest, n);
    absl::StatusOr<pmapi::PmID> id = ctx.LookupName(n);
    absl::StatusOr<pmapi::Desc> desc = id.ok() ? ctx.LookupDesc(*id) : id.status();
    if (!desc.ok()) {
      ++w.errors;
      continue;
    }
    MixDesc(&w.names_digest, *desc);
    MixExtras(&w.extras_digest, ctx, *id);
    ids.push_back(*id);
    const bool fixed = spec.archive || stable_names.count(n) > 0;
    if (fixed) stable.insert(*id);
    if (fixed && desc->indom != pmapi::kInDomNull) indoms.insert(desc->indom);
  }
  if (ids.empty()) return w;
  // Fetch forwards from the start, then read the instance domains there:
  // an archive's instances depend on the position.
  if (spec.archive) {
    auto label = ctx.GetArchiveLabel();
    if (!label.ok() ||
        !ctx.SetMode(pmapi::Mode::kForw, absl::FromUnixNanos(label->start.nanos()), absl::ZeroDuration())
             .ok()) {
      ++w.errors;
      return w;
    }
  }
  for (int f = 0; f < spec.fetches; ++f) {
    absl::StatusOr<pmapi::Result> r = ctx.Fetch(ids);
    if (!r.ok()) {
      // The end of an archive is part of what it holds; anything else fails.
      if (!spec.archive) ++w.errors;
      Mix(&w.values_digest, static_cast<uint64_t>(pmapi::PcpCode(r.status())));
      break;
    }
    ++w.fetched;
    MixResult(&w.values_digest, *r, stable, spec.archive);
  }
  for (pmapi::InDom indom : indoms) {
    auto insts = ctx.GetInDom(indom);
    if (!insts.ok()) {
      ++w.errors;
      continue;
    }
    for (const pmapi::Instance& i : *insts) {
      Mix(&w.indoms_digest, static_cast<uint64_t>(pmapi::ToPcp(i.id)));
      MixString(&w.indoms_digest, i.name);
    }
  }
  return w;
}

Walk WalkCurrent(const WalkSpec& spec) {
  Walk w;
  std::vector<std::string> names;
  if (pmTraversePMNS_r(spec.root.c_str(), Collect, &names) < 0) ++w.errors;
  w.names = static_cast<int>(names.size());
  if (names.empty()) return w;
  std::vector<const char*> ptrs;
  for (const std::string& n : names) ptrs.push_back(n.c_str());
  std::vector<pmID> all(names.size(), PM_ID_NULL);
  if (pmLookupName(static_cast<int>(ptrs.size()), ptrs.data(), all.data()) < 0) ++w.errors;
  const std::set<std::string> stable_names(spec.stable.begin(), spec.stable.end());
  std::vector<pmID> ids;
  std::set<pmID> stable;
  std::set<pmInDom> indoms;
  for (size_t i = 0; i < names.size(); ++i) {
    MixString(&w.names_digest, names[i]);
    pmDesc desc;
    if (all[i] == PM_ID_NULL || pmLookupDesc(all[i], &desc) < 0) {
      ++w.errors;
      continue;
    }
    MixCDesc(&w.names_digest, desc);
    MixCExtras(&w.extras_digest, all[i], desc);
    ids.push_back(all[i]);
    const bool fixed = spec.archive || stable_names.count(names[i]) > 0;
    if (fixed) stable.insert(all[i]);
    if (fixed && desc.indom != PM_INDOM_NULL) indoms.insert(desc.indom);
  }
  if (ids.empty()) return w;
  if (spec.archive) {
    pmLogLabel label;
    if (pmGetArchiveLabel(&label) < 0 || pmSetMode(PM_MODE_FORW, &label.ll_start, 0) < 0) {
      ++w.errors;
      return w;
    }
  }
  for (int f = 0; f < spec.fetches; ++f) {
    pmResult* r = nullptr;
    int sts = pmFetch(static_cast<int>(ids.size()), ids.data(), &r);
    if (sts < 0) {
      if (!spec.archive) ++w.errors;
      Mix(&w.values_digest, static_cast<uint64_t>(sts));
      break;
    }
    ++w.fetched;
    MixCResult(&w.values_digest, r, stable, spec.archive);
    pmFreeResult(r);
  }
  for (pmInDom indom : indoms) {
    int* insts = nullptr;
    char** inames = nullptr;
    int n = pmGetInDom(indom, &insts, &inames);
    if (n < 0) {
      ++w.errors;
      continue;
    }
    for (int i = 0; i < n; ++i) {
      Mix(&w.indoms_digest, static_cast<uint64_t>(insts[i]));
      MixString(&w.indoms_digest, inames[i]);
    }
    std::free(insts);
    std::free(inames);
  }
  return w;
}

bool ExpectC(CSource* source) {
  int h = pmNewContext(source->type, source->name.c_str());
  if (h < 0) return false;
  source->expected = WalkCurrent(source->spec);
  pmDestroyContext(h);
  // Some lookups fail the same way every time (sample.bad.unknown has no
  // descriptor; an archive's instance domain may be unknown at a time), so
  // errors are compared, not required to be none; a live source's fetches
  // must all succeed.
  const Walk& w = source->expected;
  return w.names > 0 && w.fetched > 0 && (source->spec.archive || w.fetched == source->spec.fetches);
}

CStress RunCStress(const std::vector<CSource>& sources, int threads, int rounds) {
  std::atomic<int> walks{0}, mismatches{0}, breaches{0}, contexts{0};
  std::mutex mu;
  std::set<int> handed_out;
  // Records a new handle; a handle seen before breaks the rules.
  auto record = [&](int h) {
    std::lock_guard<std::mutex> lock(mu);
    Check(handed_out.insert(h).second, &breaches);
  };
  auto walk = [&](const CSource& s, int h) {
    Check(pmWhichContext() == h, &breaches);
    Walk got = WalkCurrent(s.spec);
    if (!(got == s.expected)) {
      ++mismatches;
      std::fprintf(stderr, "%s: names %d/%d, values %d/%d, errors %d/%d (got/expected)\n", s.name.c_str(),
                   got.names, s.expected.names, got.fetched, s.expected.fetched, got.errors, s.expected.errors);
    }
    Check(pmWhichContext() == h, &breaches);
    ++walks;
  };
  const int n = static_cast<int>(sources.size());
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      // A new thread starts with no current context.
      Check(pmWhichContext() == PM_ERR_NOCONTEXT, &breaches);
      std::vector<int> kept;
      for (const CSource& s : sources) {
        int h = pmNewContext(s.type, s.name.c_str());
        Check(h >= 0, &breaches);
        if (h < 0) return;
        ++contexts;
        record(h);
        Check(pmWhichContext() == h, &breaches);
        kept.push_back(h);
      }
      for (int r = 0; r < rounds; ++r) {
        for (int k = 0; k < n; ++k) {
          const int i = (t + r + k) % n;
          Check(pmUseContext(kept[i]) == 0, &breaches);
          walk(sources[i], kept[i]);
        }
        // A short-lived context: made current, walked, destroyed.
        const CSource& s = sources[(t + r) % n];
        int h = pmNewContext(s.type, s.name.c_str());
        Check(h >= 0, &breaches);
        if (h < 0) continue;
        ++contexts;
        record(h);
        walk(s, h);
        Check(pmDestroyContext(h) == 0, &breaches);
        Check(pmWhichContext() == PM_ERR_NOCONTEXT, &breaches);
        Check(pmUseContext(h) == PM_ERR_NOCONTEXT, &breaches);
        Check(pmDestroyContext(h) == PM_ERR_NOCONTEXT, &breaches);
      }
      for (int h : kept) Check(pmDestroyContext(h) == 0, &breaches);
    });
  }
  for (std::thread& th : pool) th.join();
  return CStress{walks.load(), mismatches.load(), breaches.load(), contexts.load()};
}

int EnvCount(const char* name, int fallback) {
  const char* env = std::getenv(name);
  return env != nullptr && std::atoi(env) > 0 ? std::atoi(env) : fallback;
}

}  // namespace stress
