// c_pmda_cache.cc: pmdaCache* for C agents, over the library's
// InDomCaches (pmapi/pmda_cache.h). As in PCP the caches are process-wide,
// keyed by instance domain.
#include <syslog.h>

#include <cstdio>
#include <map>
#include <span>
#include <string>
#include <utility>

#include "c_pmda_internal.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

// Names handed out by the lookups: PCP returns a pointer into its entry,
// valid while the entry lives; here each (indom, inst) keeps its last name.
std::map<std::pair<pmInDom, Inst>, std::string>& NameStore() {
  static auto* names = new std::map<std::pair<pmInDom, Inst>, std::string>;
  return *names;
}

char* KeepName(pmInDom indom, const CacheEntryInfo& e) {
  std::string& kept = NameStore()[{indom, e.inst}];
  if (kept != e.name) kept = e.name;
  return kept.data();
}

int Code(const absl::StatusOr<int>& r) { return r.ok() ? *r : PcpCode(r.status()); }
int Code(const absl::StatusOr<Inst>& r) { return r.ok() ? ToPcp(*r) : PcpCode(r.status()); }

// Reports a lookup: the state, with the name, instance and private pointer
// the caller asked for.
int Report(pmInDom indom, const absl::StatusOr<CacheEntryInfo>& e, char** name, int* inst, void** data) {
  if (!e.ok()) return PcpCode(e.status());
  if (name != nullptr) *name = KeepName(indom, *e);
  if (inst != nullptr) *inst = ToPcp(e->inst);
  if (data != nullptr) *data = e->data;
  return e->state;
}

std::span<const uint8_t> KeyBytes(int keylen, const void* key) {
  if (key == nullptr || keylen <= 0) return {};
  return {static_cast<const uint8_t*>(key), static_cast<size_t>(keylen)};
}

}  // namespace

std::recursive_mutex& CCacheLock() {
  static auto* mu = new std::recursive_mutex;
  return *mu;
}

InDomCaches& CCaches() {
  static auto* caches = [] {
    InDomCaches::Options options;
    // As libpcp_pmda: messages through pmNotifyErr, at its level.
    options.log_sink = [](std::string_view text) {
      pmNotifyErr(LOG_ERR, "%.*s", static_cast<int>(text.size()), text.data());
    };
    auto* made = new InDomCaches(std::move(options));
    made->SetWarningSink([](std::string_view text) {
      pmNotifyErr(LOG_WARNING, "%.*s", static_cast<int>(text.size()), text.data());
    });
    made->SetTrace([] { return pmDebugOptions.indom != 0; });
    return made;
  }();
  return *caches;
}

}  // namespace pmapi

extern "C" {

int pmdaCacheStore(pmInDom indom, int flags, const char* name, void* data) {
  std::lock_guard<std::recursive_mutex> lock(pmapi::CCacheLock());
  return pmapi::Code(pmapi::CCaches().Store(pmapi::InDom{indom}, flags, name ? name : "", data));
}

int pmdaCacheStoreKey(pmInDom indom, int flags, const char* name, int keylen, const void* key, void* data) {
  std::lock_guard<std::recursive_mutex> lock(pmapi::CCacheLock());
  return pmapi::Code(pmapi::CCaches().StoreKey(pmapi::InDom{indom}, flags, name ? name : "",
                                                pmapi::KeyBytes(keylen, key), data));
}

int pmdaCacheLookup(pmInDom indom, int inst, char** name, void** data) {
  std::lock_guard<std::recursive_mutex> lock(pmapi::CCacheLock());
  return pmapi::Report(indom, pmapi::CCaches().Lookup(pmapi::InDom{indom}, pmapi::Inst{inst}), name,
                       nullptr, data);
}

int pmdaCacheLookupName(pmInDom indom, const char* name, int* inst, void** data) {
  std::lock_guard<std::recursive_mutex> lock(pmapi::CCacheLock());
  return pmapi::Report(indom, pmapi::CCaches().LookupName(pmapi::InDom{indom}, name ? name : ""),
                       nullptr, inst, data);
}

int pmdaCacheLookupKey(pmInDom indom, const char* name, int keylen, const void* key, char** oname, int* inst,
                       void** data) {
  std::lock_guard<std::recursive_mutex> lock(pmapi::CCacheLock());
  return pmapi::Report(indom,
                       pmapi::CCaches().LookupKey(pmapi::InDom{indom}, name ? name : "",
                                                  pmapi::KeyBytes(keylen, key)),
                       oname, inst, data);
}

int pmdaCacheOp(pmInDom indom, int op) {
  std::lock_guard<std::recursive_mutex> lock(pmapi::CCacheLock());
  return pmapi::Code(pmapi::CCaches().Op(pmapi::InDom{indom}, op));
}

int pmdaCachePurge(pmInDom indom, time_t recent) {
  std::lock_guard<std::recursive_mutex> lock(pmapi::CCacheLock());
  return pmapi::Code(pmapi::CCaches().Purge(pmapi::InDom{indom}, static_cast<int64_t>(recent)));
}

int pmdaCachePurgeCallback(pmInDom indom, time_t recent, void (*release)(void*)) {
  std::lock_guard<std::recursive_mutex> lock(pmapi::CCacheLock());
  std::function<void(void*)> cb;
  if (release != nullptr) cb = release;
  return pmapi::Code(
      pmapi::CCaches().Purge(pmapi::InDom{indom}, static_cast<int64_t>(recent), cb));
}

int pmdaCacheResize(pmInDom indom, int maximum) {
  std::lock_guard<std::recursive_mutex> lock(pmapi::CCacheLock());
  return pmapi::Code(pmapi::CCaches().Resize(pmapi::InDom{indom}, maximum));
}

void __pmdaCacheDump(FILE* fp, pmInDom indom, int option) {
  if (fp == nullptr) return;
  std::string text;
  {
    std::lock_guard<std::recursive_mutex> lock(pmapi::CCacheLock());
    text = pmapi::CCaches().DumpText(pmapi::InDom{indom}, option != 0);
  }
  std::fputs(text.c_str(), fp);
}

void __pmdaCacheDumpAll(FILE* fp, int option) {
  if (fp == nullptr) return;
  std::string text;
  {
    std::lock_guard<std::recursive_mutex> lock(pmapi::CCacheLock());
    text = pmapi::CCaches().DumpAllText(option != 0);
  }
  std::fputs(text.c_str(), fp);
}

}  // extern "C"
