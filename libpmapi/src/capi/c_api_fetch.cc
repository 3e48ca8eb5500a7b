// c_api_fetch.cc: the C layer's collection mode, fetch, store and archive
// label functions.
#include <cstdlib>
#include <cstring>
#include <span>
#include <utility>
#include <vector>

#include "c_api_internal.h"

using namespace pmapi;
using namespace pmapi::capi;

namespace {

// The nanoseconds one unit of PM_TIME_* scale `scale` lasts.
int64_t ScaleNanos(int scale) {
  static constexpr int64_t kNanos[] = {1,           1000,         1000000,
                                       1000000000,  60000000000, 3600000000000};
  return scale >= 0 && scale <= PM_TIME_HOUR ? kNanos[scale] : 0;
}

// Where a mode change with no time given starts: the last time set, else
// the start of an archive.
absl::Time DefaultWhen(CContext& e) {
  if (e.mode_set) return e.when;
  absl::StatusOr<ArchiveLabel> label = e.ctx->GetArchiveLabel();
  if (label.ok()) return absl::FromUnixNanos(label->start.nanos());
  return absl::Now();
}

template <typename R>
int Fetch(int numpmid, pmID* pmids, R** result, R* (*convert)(const Result&)) {
  *result = nullptr;
  if (numpmid < 1) return PM_ERR_TOOSMALL;
  return WithContext([&](CContext& e) {
    int change = 0;
    // The context's buffer is taken for the fetch, so that a fetch made
    // on the same context from inside this one (an agent's callback) gets
    // a buffer of its own.
    std::vector<PmID> ids = std::exchange(e.fetch_ids, {});
    CopyFromC(pmids, numpmid, &ids);
    absl::StatusOr<Result> r = e.ctx->Fetch(ids, &change);
    e.fetch_ids = std::move(ids);
    if (!r.ok()) return Code(r.status());
    *result = convert(*r);
    e.ctx->Recycle(std::move(*r));
    return *result == nullptr ? -ENOMEM : change;
  });
}

template <typename R>
int FetchArchive(R** result, R* (*convert)(const Result&)) {
  *result = nullptr;
  return WithContext([&](CContext& e) {
    if (e.type != PM_CONTEXT_ARCHIVE) return PM_ERR_NOTARCHIVE;
    absl::StatusOr<Result> r = e.ctx->FetchArchive();
    if (!r.ok()) return Code(r.status());
    *result = convert(*r);
    return *result == nullptr ? -ENOMEM : 0;
  });
}

template <typename R>
void FreeResult(R* result) {
  if (result == nullptr || FreeOneBlockResult(result)) return;
  for (int i = 0; i < result->numpmid; ++i) {
    pmValueSet* vs = result->vset[i];
    if (vs == nullptr) continue;
    if (vs->valfmt == PM_VAL_DPTR) {
      for (int j = 0; j < vs->numval; ++j) std::free(vs->vlist[j].value.pval);
    }
    std::free(vs);
  }
  std::free(result);
}

int Store(pmValueSet* const* vset, int numpmid, int64_t ns) {
  if (numpmid < 1) return PM_ERR_TOOSMALL;
  for (int i = 0; i < numpmid; ++i) {
    if (vset[i] == nullptr || vset[i]->numval < 1) return PM_ERR_TOOSMALL;
    for (int j = 0; j < vset[i]->numval; ++j) {
      ValueView unused;
      if (!ViewOf(vset[i]->valfmt, vset[i]->vlist[j], &unused)) return PM_ERR_CONV;
    }
  }
  Result values;
  values.set_timestamp_ns(ns);
  if (absl::Status s = AppendCValueSets(vset, numpmid, &values); !s.ok()) return Code(s);
  return WithContext([&](CContext& e) { return Code(e.ctx->Store(values)); });
}

void SortSets(pmValueSet* const* vset, int numpmid) {
  for (int i = 0; i < numpmid; ++i) {
    pmValueSet* vs = vset[i];
    if (vs == nullptr || vs->numval < 2) continue;
    std::qsort(vs->vlist, vs->numval, sizeof(pmValue), [](const void* a, const void* b) {
      int x = static_cast<const pmValue*>(a)->inst, y = static_cast<const pmValue*>(b)->inst;
      return x < y ? -1 : x > y;
    });
  }
}

}  // namespace

extern "C" {

int pmSetMode(int mode, const struct timeval* when, int delta) {
  int64_t unit = 1000000;  // milliseconds unless a time base is given
  int xtb = PM_XTB_GET(mode);
  if (xtb >= 0) {
    unit = ScaleNanos(xtb);
    if (unit == 0) return PM_ERR_MODE;
  }
  int base = mode & 0xffff;
  if (base < PM_MODE_LIVE || base > PM_MODE_BACK) return PM_ERR_MODE;
  return WithContext([&](CContext& e) {
    absl::Time t = when == nullptr ? DefaultWhen(e)
                                   : absl::FromUnixSeconds(when->tv_sec) + absl::Microseconds(when->tv_usec);
    return Code(SetEntryMode(e, base, t, absl::Nanoseconds(delta * unit)));
  });
}

int pmSetModeHighRes(int mode, const struct timespec* when, const struct timespec* delta) {
  if (mode < PM_MODE_LIVE || mode > PM_MODE_BACK) return PM_ERR_MODE;
  return WithContext([&](CContext& e) {
    absl::Time t = when == nullptr ? DefaultWhen(e)
                                   : absl::FromUnixSeconds(when->tv_sec) + absl::Nanoseconds(when->tv_nsec);
    absl::Duration d = delta == nullptr ? absl::ZeroDuration()
                                        : absl::Seconds(delta->tv_sec) + absl::Nanoseconds(delta->tv_nsec);
    return Code(SetEntryMode(e, mode, t, d));
  });
}

int pmFetch(int numpmid, pmID* pmids, pmResult** result) {
  return Fetch(numpmid, pmids, result, ToCResult);
}

int pmFetchHighRes(int numpmid, pmID* pmids, pmHighResResult** result) {
  return Fetch(numpmid, pmids, result, ToCHighResResult);
}

int pmHighResFetch(int numpmid, pmID* pmids, pmHighResResult** result) {
  return Fetch(numpmid, pmids, result, ToCHighResResult);
}

int pmFetchArchive(pmResult** result) { return FetchArchive(result, ToCResult); }

int pmFetchHighResArchive(pmHighResResult** result) {
  return FetchArchive(result, ToCHighResResult);
}

void pmFreeResult(pmResult* result) { FreeResult(result); }
void pmFreeHighResResult(pmHighResResult* result) { FreeResult(result); }

void pmSortInstances(pmResult* result) {
  if (result != nullptr) SortSets(result->vset, result->numpmid);
}

void pmSortHighResInstances(pmHighResResult* result) {
  if (result != nullptr) SortSets(result->vset, result->numpmid);
}

int pmStore(const pmResult* result) {
  if (result == nullptr) return PM_ERR_TOOSMALL;
  int64_t ns = int64_t{result->timestamp.tv_sec} * 1000000000 + result->timestamp.tv_usec * 1000;
  return Store(result->vset, result->numpmid, ns);
}

int pmStoreHighRes(const pmHighResResult* result) {
  if (result == nullptr) return PM_ERR_TOOSMALL;
  int64_t ns = int64_t{result->timestamp.tv_sec} * 1000000000 + result->timestamp.tv_nsec;
  return Store(result->vset, result->numpmid, ns);
}

int pmGetArchiveLabel(pmLogLabel* label) {
  return WithContext([&](CContext& e) {
    absl::StatusOr<ArchiveLabel> l = e.ctx->GetArchiveLabel();
    if (!l.ok()) return Code(l.status());
    std::memset(label, 0, sizeof *label);
    label->ll_magic = static_cast<int>(PM_LOG_MAGIC | l->version);
    label->ll_pid = l->pid;
    label->ll_start.tv_sec = l->start.sec;
    label->ll_start.tv_usec = l->start.nsec / 1000;
    CopyOut(l->hostname, label->ll_hostname, sizeof label->ll_hostname);
    CopyOut(l->timezone, label->ll_tz, sizeof label->ll_tz);
    return 0;
  });
}

int pmGetHighResArchiveLabel(pmHighResLogLabel* label) {
  return WithContext([&](CContext& e) {
    absl::StatusOr<ArchiveLabel> l = e.ctx->GetArchiveLabel();
    if (!l.ok()) return Code(l.status());
    std::memset(label, 0, sizeof *label);
    label->magic = static_cast<int>(PM_LOG_MAGIC | l->version);
    label->pid = l->pid;
    label->start.tv_sec = l->start.sec;
    label->start.tv_nsec = l->start.nsec;
    CopyOut(l->hostname, label->hostname, sizeof label->hostname);
    CopyOut(l->timezone, label->timezone, sizeof label->timezone);
    CopyOut(l->zoneinfo, label->zoneinfo, sizeof label->zoneinfo);
    return 0;
  });
}

int pmGetArchiveEnd(struct timeval* end) {
  return WithContext([&](CContext& e) {
    absl::StatusOr<absl::Time> t = e.ctx->GetArchiveEnd();
    if (!t.ok()) return Code(t.status());
    int64_t us = absl::ToUnixMicros(*t);
    end->tv_sec = us / 1000000;
    end->tv_usec = us % 1000000;
    return 0;
  });
}

int pmGetHighResArchiveEnd(struct timespec* end) {
  return WithContext([&](CContext& e) {
    absl::StatusOr<absl::Time> t = e.ctx->GetArchiveEnd();
    if (!t.ok()) return Code(t.status());
    int64_t ns = absl::ToUnixNanos(*t);
    end->tv_sec = ns / 1000000000;
    end->tv_nsec = ns % 1000000000;
    return 0;
  });
}

}  // extern "C"
