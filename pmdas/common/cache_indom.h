// pmdas/common/cache_indom.h: an instance domain kept as PCP's pmdaCache
// keeps one, for agents whose instances come and go.
#ifndef PMAPI_PMDAS_COMMON_CACHE_INDOM_H_
#define PMAPI_PMDAS_COMMON_CACHE_INDOM_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "pmapi/errors.h"
#include "pmapi/pmda.h"

namespace pmapi::agent_cache {

// An instance domain kept as a pmdaCache domain: a name gets the next
// instance number when first seen and keeps it; each entry is active (in
// the domain now) or inactive (kept, with its data, for when it returns).
template <typename T>
class CacheIndom {
 public:
  struct Entry {
    std::string name;
    bool active = false;
    T data{};
  };

  // The entry named `name`, or null.
  Entry* Find(std::string_view name) {
    auto it = index_.find(absl::string_view(name.data(), name.size()));
    return it == index_.end() ? nullptr : &entries_[it->second];
  }
  // The entry named `name`, made (with fresh data) when absent, and active.
  Entry& Activate(std::string_view name) {
    Entry* e = Find(name);
    if (e == nullptr) {
      index_.emplace(std::string(name), entries_.size());
      entries_.push_back(Entry{std::string(name), false, T{}});
      e = &entries_.back();
    }
    e->active = true;
    return *e;
  }
  const Entry* Find(std::string_view name) const {
    auto it = index_.find(absl::string_view(name.data(), name.size()));
    return it == index_.end() ? nullptr : &entries_[it->second];
  }
  // The entry named `name` with fresh data unless it is active already.
  T& Fresh(std::string_view name) {
    Entry* e = Find(name);
    if (e == nullptr || !e->active) {
      e = &Activate(name);
      e->data = T{};
    }
    return e->data;
  }
  void DeactivateAll() {
    for (Entry& e : entries_) e.active = false;
  }
  // pmdaCacheLookup: < 0 (PM_ERR_INST) for an unknown instance, 0 for an
  // inactive one, 1 (and *data) for an active one.
  int Lookup(Inst inst, const T** data) const {
    const uint32_t i = static_cast<uint32_t>(pmapi::ToPcp(inst));
    if (i >= entries_.size()) return pmapi::kErrInst;
    *data = &entries_[i].data;
    return entries_[i].active ? 1 : 0;
  }
  uint32_t ActiveCount() const {
    uint32_t n = 0;
    for (const Entry& e : entries_) n += e.active ? 1 : 0;
    return n;
  }
  std::vector<Entry>& entries() { return entries_; }
  const std::vector<Entry>& entries() const { return entries_; }
  // Writes the active instances into `indom`'s table.
  void Fill(PmdaIndom* indom) const {
    if (indom == nullptr) return;
    indom->set.clear();
    for (size_t i = 0; i < entries_.size(); ++i) {
      if (entries_[i].active) indom->set.push_back({static_cast<Inst>(i), entries_[i].name});
    }
  }

 private:
  std::vector<Entry> entries_;
  absl::flat_hash_map<std::string, size_t> index_;
};

}  // namespace pmapi::agent_cache

#endif  // PMAPI_PMDAS_COMMON_CACHE_INDOM_H_
