// pmapi/pmda_cache.h: the instance-domain caches a PMDA keeps (pmdaCache).
//
// An agent names its instances ("eth0", "/dev/sda"); the cache gives each
// name an internal instance identifier, remembers whether the instance is
// active (visible) or inactive (hidden but remembered), keeps an opaque
// pointer per instance, and can persist the name <-> identifier mapping to
// a file so identifiers survive restarts. InDomCaches holds every cache of
// one agent, keyed by instance domain, and behaves exactly as PCP 6.0.3's
// libpcp_pmda: same identifiers, return codes, states, walk order, dump
// text and persistence file format.
//
// Results follow PCP: a non-negative int on success (an instance
// identifier, a state, a count), and a status carrying PCP's negative code
// otherwise (PM_ERR_INST, PM_ERR_INDOM, -EINVAL, ...; see PcpCode).
//
// Example:
//   pmapi::InDomCaches caches;                       // files under $PCP_VAR_DIR
//   pmapi::InDom net = pmapi::MakeInDom(60, 3);
//   absl::StatusOr<int> loaded = caches.Op(net, pmapi::kCacheLoad);
//       // identifiers of the last run; -ENOENT on the first
//   absl::StatusOr<pmapi::Inst> inst = caches.Store(net, pmapi::kCacheAdd, "eth0", nullptr);
//   if (!inst.ok()) return inst.status();
//   absl::StatusOr<int> walk = caches.Op(net, pmapi::kCacheWalkRewind);
//   while (walk.ok() && (walk = caches.Op(net, pmapi::kCacheWalkNext)).ok() && *walk != -1) {
//     /* *walk is an active instance */
//   }
//   absl::StatusOr<int> saved = caches.Op(net, pmapi::kCacheSave);   // entries written
#ifndef PMAPI_PMDA_CACHE_H_
#define PMAPI_PMDA_CACHE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "pmapi/types.h"

namespace pmapi {

// Store flags, operations and entry states (PMDA_CACHE_*), PCP's values.
inline constexpr int kCacheLoad = 1;
inline constexpr int kCacheAdd = 2;
inline constexpr int kCacheHide = 3;
inline constexpr int kCacheCull = 4;
inline constexpr int kCacheEmpty = 5;
inline constexpr int kCacheSave = 6;
inline constexpr int kCacheStrings = 7;
inline constexpr int kCacheActive = 8;
inline constexpr int kCacheInactive = 9;
inline constexpr int kCacheSize = 10;
inline constexpr int kCacheSizeActive = 11;
inline constexpr int kCacheSizeInactive = 12;
inline constexpr int kCacheReuse = 13;
inline constexpr int kCacheWalkRewind = 14;
inline constexpr int kCacheWalkNext = 15;
inline constexpr int kCacheCheck = 16;
inline constexpr int kCacheReorg = 17;
inline constexpr int kCacheSync = 18;
inline constexpr int kCacheDump = 19;
inline constexpr int kCacheDumpAll = 20;

// The largest instance identifier a cache hands out unless resized.
inline constexpr int kCacheDefaultMaxInst = 0x7fffffff;

// What a lookup finds: the entry's state (kCacheActive or kCacheInactive),
// identifier, name and private pointer.
struct CacheEntryInfo {
  int state = 0;
  Inst inst{};
  std::string name;
  void* data = nullptr;
};

namespace cache_internal {
class InDomCache;
}

class InDomCaches {
 public:
  struct Options {
    // Stands for $PCP_VAR_DIR: persistence files are
    // <var_dir>/config/pmda/<domain>.<serial>. Empty means PCP's own
    // choice: $PCP_VAR_DIR, else PCP_VAR_DIR in $PCP_CONF or /etc/pcp.conf.
    std::string var_dir;
    // Seconds since the epoch, as time(NULL); stamps saved entries and
    // dates purges.
    std::function<int64_t()> clock;
    // Receives the PMDA_CACHE_DUMP(_ALL) text; stderr when unset.
    std::function<void(std::string_view)> dump_sink;
    // Receives warnings and errors PCP would log (bad persistence file
    // records, identifiers exhausted); stderr when unset.
    std::function<void(std::string_view)> log_sink;
  };

  InDomCaches();
  explicit InDomCaches(Options options);
  ~InDomCaches();
  InDomCaches(const InDomCaches&) = delete;
  InDomCaches& operator=(const InDomCaches&) = delete;

  // pmdaCacheStore. flags is kCacheAdd, kCacheHide or kCacheCull. Returns
  // the entry's instance identifier. Errors: PM_ERR_INDOM for kInDomNull,
  // PM_ERR_INST when a hide or cull names no entry, -EINVAL for other flags
  // or when `name` breaks the short-name rule (see docs/pmda-cache.md),
  // PM_ERR_GENERIC when no identifier is left. `name` is used up to its
  // first NUL, as a C string would be.
  absl::StatusOr<Inst> Store(InDom indom, int flags, std::string_view name, void* data);

  // pmdaCacheStoreKey: as Store, but a new entry's identifier is hashed
  // from `key` (from `name` when key is empty). Errors as Store, plus
  // PM_ERR_INST when the hint or the name is already used with another
  // name or hint, and PM_ERR_GENERIC after ten rehashes.
  absl::StatusOr<Inst> StoreKey(InDom indom, int flags, std::string_view name,
                                std::span<const uint8_t> key, void* data);

  // pmdaCacheLookup, pmdaCacheLookupName, pmdaCacheLookupKey. Return what
  // was found; PM_ERR_INST when nothing matches. LookupKey uses `name` as
  // the hint when key is empty, and restarts any walk (as PCP's does).
  absl::StatusOr<CacheEntryInfo> Lookup(InDom indom, Inst inst);
  absl::StatusOr<CacheEntryInfo> LookupName(InDom indom, std::string_view name);
  absl::StatusOr<CacheEntryInfo> LookupKey(InDom indom, std::string_view name,
                                           std::span<const uint8_t> key);

  // pmdaCacheOp: one of the kCache* operations. Returns its result (a
  // count, 0/1 for kCacheCheck, an identifier or -1 for kCacheWalkNext).
  // Errors: PM_ERR_INDOM, -EINVAL for an unknown op, -E2BIG for
  // kCacheStrings on a non-empty cache, and for load/save a negated errno
  // or PM_ERR_GENERIC for a malformed file.
  absl::StatusOr<int> Op(InDom indom, int op);

  // pmdaCachePurge / pmdaCachePurgeCallback: culls entries last saved
  // while active more than `recent` seconds ago; `release` (if set) gets
  // each culled entry's non-null private pointer, once. Returns the number
  // culled (counting entries culled before, as PCP does).
  absl::StatusOr<int> Purge(InDom indom, int64_t recent,
                            const std::function<void(void*)>& release = nullptr);

  // pmdaCacheResize: sets the largest identifier handed out. Errors:
  // PM_ERR_SIGN when negative, PM_ERR_TOOBIG when an entry is above it.
  absl::StatusOr<int> Resize(InDom indom, int maximum);

  // Returns the text of PMDA_CACHE_DUMP (with_hash false) or
  // PMDA_CACHE_DUMP_ALL (true) for `indom`, or "" when it has no cache.
  [[nodiscard]] std::string DumpText(InDom indom, bool with_hash) const;

  // The DumpText of every cache, the newest first (__pmdaCacheDumpAll).
  [[nodiscard]] std::string DumpAllText(bool with_hash) const;

  // Those of the log_sink messages PCP logs as warnings rather than errors
  // (a load skipping an entry already in the cache) go to `sink` instead.
  void SetWarningSink(std::function<void(std::string_view)> sink);

  // While `enabled` answers true, load and save also write PCP's -Dindom
  // traces ("After PMDA_CACHE_LOAD", "After cache_save hstate={...}", each
  // with a dump) through dump_sink.
  void SetTrace(std::function<bool()> enabled);

  // Returns the persistence file path for `indom` ("" when no PCP_VAR_DIR
  // can be found; load and save then fail with PM_ERR_GENERIC).
  [[nodiscard]] std::string FilePath(InDom indom) const;

 private:
  struct Env;
  // Returns the cache for indom, creating it when absent.
  cache_internal::InDomCache& Find(InDom indom);
  std::string VarDir() const;
  std::string PreparedFilePath(InDom indom) const;
  void Trace(const cache_internal::InDomCache& cache, int op, int state_before, int sts) const;

  Options options_;
  std::unique_ptr<Env> env_;
  std::map<InDom, std::unique_ptr<cache_internal::InDomCache>> caches_;
  std::vector<InDom> made_;  // the caches' indoms, the newest first
};

}  // namespace pmapi

#endif  // PMAPI_PMDA_CACHE_H_
