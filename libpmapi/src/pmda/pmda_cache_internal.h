// pmda_cache_internal.h: one instance domain's cache, the engine behind
// InDomCaches (pmapi/pmda_cache.h).
//
// The cache mirrors the structure PCP's libpcp_pmda uses, because that
// structure is visible: entries sit in one list in ascending identifier
// order (culled entries stay there, still counted and still holding their
// identifier, until a reorganisation reclaims them), and two hash tables
// (by identifier, by name) whose chain order PMDA_CACHE_DUMP_ALL prints.
// Methods return PCP's int results: >= 0 on success, a negative PCP code
// otherwise.
//
// Example (inside the library):
//   InDomCache c(MakeInDom(29, 1), &env);
//   int inst = c.Store(kCacheAdd, "eth0", std::nullopt, {}, nullptr);
#ifndef PMAPI_SRC_PMDA_CACHE_INTERNAL_H_
#define PMAPI_SRC_PMDA_CACHE_INTERNAL_H_

#include <cstdint>
#include <functional>
#include <list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/string_view.h"
#include "pmapi/pmda_cache.h"
#include "pmapi/types.h"

namespace pmapi::cache_internal {

// Bits of the cache's state word (printed as hstate by the dump).
inline constexpr int kDirtyInstance = 0x1;  // an entry was added or removed
inline constexpr int kDirtyStamp = 0x2;     // an entry was (re)activated
inline constexpr int kStringsCache = 0x4;   // PMDA_CACHE_STRINGS

// Returns `s` as Abseil's own string_view (Debian builds it apart from std).
inline absl::string_view AbslView(std::string_view s) { return {s.data(), s.size()}; }

// Rehashes StoreKey tries before giving up.
inline constexpr int kMaxHashTries = 10;
// Hash tables start with this many chains and double while they have
// fewer than kMaxAutoChains and more than four entries per chain.
inline constexpr int kInitialChains = 16;
inline constexpr int kMaxAutoChains = 1024;
// The persistence file format this code writes (it reads 1 and 2).
inline constexpr int kFileVersion = 2;

// Returns Bob Jenkins' lookup2 hash of `bytes` chained from `seed`, with
// each byte taken as a signed char, as PCP computes it.
uint32_t HashBytes(std::span<const uint8_t> bytes, uint32_t seed);

// What a cache needs from its owner.
struct CacheEnv {
  std::function<int64_t()> now;
  std::function<void(std::string_view)> log;
  std::function<void(std::string_view)> warn;
  std::function<bool()> trace_enabled;
  std::function<void(std::string_view)> trace;  // where traces go
  std::function<std::string(InDom)> file_path;  // creates the directory
};

struct CacheEntry {
  int inst = 0;
  std::string name;
  int hashlen = 0;  // bytes of name that are matched and hashed
  std::vector<uint8_t> key;
  int state = kCacheInactive;
  void* data = nullptr;
  int64_t stamp = 0;  // when last saved while active; 0 = not since
};

class InDomCache {
 public:
  InDomCache(InDom indom, const CacheEnv* env);

  // The PCP operations; see pmapi/pmda_cache.h. `inst` is the identifier
  // StoreKey chose, or nullopt to let the cache choose.
  int Store(int flags, std::string_view name, std::optional<int> inst,
            std::span<const uint8_t> key, void* data);
  int StoreKey(std::string_view name, std::span<const uint8_t> key, void* data);
  int Lookup(int inst, CacheEntryInfo* out);
  int LookupName(std::string_view name, CacheEntryInfo* out);
  int LookupKey(std::span<const uint8_t> key, CacheEntryInfo* out);
  int Op(int op);
  int Purge(int64_t recent, const std::function<void(void*)>& release);
  int Resize(int maximum);
  std::string DumpText(bool with_hash) const;
  void Trace(std::string_view text) const;
  // The state word (kDirty*, kStringsCache).
  int state() const { return hstate_; }

 private:
  using EntryList = std::list<CacheEntry>;
  using EntryRef = EntryList::iterator;
  // A hash chain; its head is the back of the vector.
  using Chain = std::vector<CacheEntry*>;

  int HashLen(std::string_view name) const;
  uint32_t NameHash(std::string_view name, int hashlen) const;
  CacheEntry* FindByInst(int inst);
  CacheEntry* FindByName(std::string_view name, int* match);
  CacheEntry* Insert(std::string_view name, std::optional<int> inst, int* sts);
  bool ChooseInst(EntryRef* before, int* inst);
  EntryRef PlaceKnownInst(int inst);
  void Link(CacheEntry* e);
  void Rehash(bool grow);
  void GrowChains();
  void Reclaim();
  int CountState(int state) const;
  int SetAll(int from, int to);
  int Walk(bool rewind);
  int Load();
  int LoadRecord(const std::string& path, std::string_view line);
  int Save(int dirty_mask);
  std::string EntryText(const CacheEntry& e) const;

  InDom indom_;
  const CacheEnv* env_;
  EntryList entries_;
  // PCP's pointer to the highest entry appended: the entry (while it
  // exists) and its identifier (kept after the entry is reclaimed).
  std::optional<EntryRef> last_;
  std::optional<int> last_inst_;
  EntryRef walk_;  // next entry of the walk; end() when done
  std::vector<Chain> inst_chains_;
  std::vector<Chain> name_chains_;
  int hbits_ = kInitialChains - 1;
  int nentry_ = 0;    // entries ever inserted: PCP never lowers it, even on reclaim
  int ins_mode_ = 0;  // 0 appends, otherwise the lowest free identifier
  int hstate_ = 0;
  int keyhash_count_[kMaxHashTries] = {};
  int maxinst_ = kCacheDefaultMaxInst;
};

}  // namespace pmapi::cache_internal

#endif  // PMAPI_SRC_PMDA_CACHE_INTERNAL_H_
