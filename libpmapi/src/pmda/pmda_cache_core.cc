// The per-indom cache: entries, hash chains, identifier choice, the store,
// lookup, walk and purge operations, and the dump text.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "pmapi/errors.h"
#include "pmda_cache_internal.h"

namespace pmapi::cache_internal {
namespace {

// Returns byte i of `k` as PCP reads it: a signed char widened to 32 bits.
uint32_t SignedByte(std::span<const uint8_t> k, size_t i) {
  return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(k[i])));
}

// Returns four bytes of `k` from `i`, least significant first.
uint32_t Word(std::span<const uint8_t> k, size_t i) {
  return SignedByte(k, i) + (SignedByte(k, i + 1) << 8) + (SignedByte(k, i + 2) << 16) +
         (SignedByte(k, i + 3) << 24);
}

void Mix(uint32_t& a, uint32_t& b, uint32_t& c) {
  a -= b; a -= c; a ^= (c >> 13);
  b -= c; b -= a; b ^= (a << 8);
  c -= a; c -= b; c ^= (b >> 13);
  a -= b; a -= c; a ^= (c >> 12);
  b -= c; b -= a; b ^= (a << 16);
  c -= a; c -= b; c ^= (b >> 5);
  a -= b; a -= c; a ^= (c >> 3);
  b -= c; b -= a; b ^= (a << 10);
  c -= a; c -= b; c ^= (b >> 15);
}

// Returns the key bytes of a name (used as the hint when no key is given).
std::span<const uint8_t> Bytes(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

bool KeyEqual(const CacheEntry& e, std::span<const uint8_t> key) {
  return std::equal(e.key.begin(), e.key.end(), key.begin(), key.end());
}

// Compares `name` (of which `hashlen` bytes are matched) with an entry:
// 1 for a match, 0 for none, -1 when the short names match but the rest
// differs (the short-name rule of docs/pmda-cache.md).
int NameMatch(const CacheEntry& e, std::string_view name, int hashlen) {
  if (e.hashlen != hashlen) return 0;
  if (e.name.compare(0, hashlen, name.substr(0, hashlen)) != 0) return 0;
  if (name.size() == static_cast<size_t>(hashlen)) return 1;
  if (e.name.size() == static_cast<size_t>(hashlen)) return -1;
  return e.name.substr(hashlen + 1) == name.substr(hashlen + 1) ? 1 : -1;
}

std::string KeyText(std::span<const uint8_t> key) {
  std::string out = "[key=0x";
  for (uint8_t b : key) absl::StrAppendFormat(&out, "%02x", b);
  return out + "]";
}

std::string PointerText(void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

}  // namespace

uint32_t HashBytes(std::span<const uint8_t> k, uint32_t seed) {
  uint32_t a = 0x9e3779b9u;
  uint32_t b = a;
  uint32_t c = seed;
  size_t i = 0;
  size_t left = k.size();
  for (; left >= 12; left -= 12, i += 12) {
    a += Word(k, i);
    b += Word(k, i + 4);
    c += Word(k, i + 8);
    Mix(a, b, c);
  }
  c += static_cast<uint32_t>(k.size());
  // The last bytes: 0..3 into a, 4..7 into b, 8..10 into c above its low
  // byte (which holds the length).
  for (size_t j = left; j-- > 0;) {
    uint32_t v = SignedByte(k, i + j);
    if (j >= 8) c += v << (8 * (j - 7));
    else if (j >= 4) b += v << (8 * (j - 4));
    else a += v << (8 * j);
  }
  Mix(a, b, c);
  return c;
}

InDomCache::InDomCache(InDom indom, const CacheEnv* env)
    : indom_(indom),
      env_(env),
      walk_(entries_.end()),
      inst_chains_(kInitialChains),
      name_chains_(kInitialChains) {}

int InDomCache::HashLen(std::string_view name) const {
  if (hstate_ & kStringsCache) return static_cast<int>(name.size());
  size_t space = name.find(' ');
  return static_cast<int>(space == std::string_view::npos ? name.size() : space);
}

uint32_t InDomCache::NameHash(std::string_view name, int hashlen) const {
  return HashBytes(Bytes(name.substr(0, hashlen)), 0);
}

CacheEntry* InDomCache::FindByInst(int inst) {
  const Chain& chain = inst_chains_[static_cast<uint32_t>(inst) & hbits_];
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if ((*it)->inst == inst && (*it)->state != kCacheEmpty) return *it;
  }
  return nullptr;
}

CacheEntry* InDomCache::FindByName(std::string_view name, int* match) {
  int hashlen = HashLen(name);
  const Chain& chain = name_chains_[NameHash(name, hashlen) & hbits_];
  *match = 0;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if ((*it)->state == kCacheEmpty) continue;
    *match = NameMatch(**it, name, hashlen);
    if (*match != 0) return *it;
  }
  return nullptr;
}

// Picks the identifier for a new entry and where it goes in the list.
// Returns false when every identifier up to the maximum is taken.
bool InDomCache::ChooseInst(EntryRef* before, int* inst) {
  if (ins_mode_ == 0) {
    if (!last_inst_) {
      *inst = 0;
      *before = entries_.begin();
      return true;
    }
    if (*last_inst_ != maxinst_) {
      // Wraps past INT_MAX as PCP's int arithmetic does.
      *inst = static_cast<int>(static_cast<uint32_t>(*last_inst_) + 1u);
      // PCP appends after its last entry even when a reorganisation freed
      // it (reading freed memory); here the entry goes to the end.
      *before = last_ ? std::next(*last_) : entries_.end();
      return true;
    }
    ins_mode_ = 1;  // identifiers exhausted: switch to reuse for good
  }
  int candidate = 0;
  *before = entries_.begin();
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (candidate < it->inst) break;
    if (candidate == maxinst_) return false;
    candidate++;
    *before = std::next(it);
  }
  *inst = candidate;
  return true;
}

InDomCache::EntryRef InDomCache::PlaceKnownInst(int inst) {
  EntryRef before = entries_.begin();
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->inst < inst) before = std::next(it);
    else if (it->inst > inst) break;
  }
  return before;
}

// Inserts a new inactive entry. With a known identifier (StoreKey, load)
// an existing entry with that identifier or name is returned instead, with
// *sts PM_ERR_INST when the two disagree.
// Writes one of PCP's -Dindom traces, when they are on.
void InDomCache::Trace(std::string_view text) const {
  if (env_->trace_enabled && env_->trace_enabled() && env_->trace) env_->trace(text);
}

CacheEntry* InDomCache::Insert(std::string_view name, std::optional<int> inst, int* sts) {
  *sts = 0;
  EntryRef before;
  int chosen = 0;
  if (inst) {
    if (CacheEntry* e = FindByInst(*inst)) {
      if (NameMatch(*e, name, HashLen(name)) != 1) {
        *sts = kErrInst;
        Trace(absl::StrFormat("pmdaCache: store: indom %u.%u: instance %d  in cache, name \"%s\" does "
                              "not match new entry \"%s\"\n",
                              InDomDomain(indom_), InDomSerial(indom_), e->inst, e->name, name));
      }
      return e;
    }
    int match;
    if (CacheEntry* e = FindByName(name, &match)) {
      *sts = kErrInst;
      Trace(absl::StrFormat("pmdaCacheStoreKey: indom %u.%u: instance \"%s\" in cache, id %d does not "
                            "match new entry %d\n",
                            InDomDomain(indom_), InDomSerial(indom_), e->name, e->inst, *inst));
      return e;
    }
    chosen = *inst;
    before = PlaceKnownInst(chosen);
  } else if (!ChooseInst(&before, &chosen)) {
    env_->log(absl::StrCat("insert_cache: indom ", InDomDomain(indom_), ".", InDomSerial(indom_),
                           ": too many instances"));
    *sts = kErrGeneric;
    return nullptr;
  }
  EntryRef e = entries_.insert(before, CacheEntry{});
  e->inst = chosen;
  e->name = std::string(name);
  e->hashlen = HashLen(name);
  if (!last_inst_ || *last_inst_ < chosen) {
    last_ = e;
    last_inst_ = chosen;
  }
  nentry_++;
  int chains = static_cast<int>(inst_chains_.size());
  if (chains < kMaxAutoChains && nentry_ > 4 * chains) Rehash(true);
  Link(&*e);
  return &*e;
}

void InDomCache::Link(CacheEntry* e) {
  inst_chains_[static_cast<uint32_t>(e->inst) & hbits_].push_back(e);
  name_chains_[NameHash(e->name, e->hashlen) & hbits_].push_back(e);
}

// Doubles the chains, moving each old chain's entries (head first) to the
// head of their new chain, as PCP does.
void InDomCache::GrowChains() {
  size_t size = inst_chains_.size() * 2;
  hbits_ = (hbits_ << 1) | 1;
  std::vector<Chain> by_inst(size), by_name(size);
  for (const Chain& chain : inst_chains_) {
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      by_inst[static_cast<uint32_t>((*it)->inst) & hbits_].push_back(*it);
    }
  }
  for (const Chain& chain : name_chains_) {
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      by_name[NameHash((*it)->name, (*it)->hashlen) & hbits_].push_back(*it);
    }
  }
  inst_chains_ = std::move(by_inst);
  name_chains_ = std::move(by_name);
}

// PMDA_CACHE_REORG (and every growth of the tables): active entries first
// in each chain, then inactive ones; culled entries are reclaimed.
void InDomCache::Rehash(bool grow) {
  if (grow) GrowChains();
  for (std::vector<Chain>* table : {&inst_chains_, &name_chains_}) {
    for (Chain& chain : *table) {
      // Chain order is head first, the reverse of the vector.
      Chain ordered(chain.rbegin(), chain.rend());
      std::erase_if(ordered, [](const CacheEntry* e) { return e->state == kCacheEmpty; });
      std::stable_partition(ordered.begin(), ordered.end(),
                            [](const CacheEntry* e) { return e->state == kCacheActive; });
      chain.assign(ordered.rbegin(), ordered.rend());
    }
  }
  Reclaim();
}

void InDomCache::Reclaim() {
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (it->state != kCacheEmpty) {
      ++it;
      continue;
    }
    // PCP leaves its walk and last-entry pointers dangling here; they move
    // on (the walk) or forget the entry but keep its identifier (last).
    if (last_ && *last_ == it) last_.reset();
    bool walking_here = walk_ == it;
    it = entries_.erase(it);
    if (walking_here) walk_ = it;
  }
}

int InDomCache::Store(int flags, std::string_view name, std::optional<int> inst,
                      std::span<const uint8_t> key, void* data) {
  int match;
  CacheEntry* e = FindByName(name, &match);
  if (e == nullptr) {
    if (flags != kCacheAdd) return kErrInst;
    int sts;
    if ((e = Insert(name, inst, &sts)) == nullptr) return sts;
    hstate_ |= kDirtyInstance;
  } else if (match == -1) {
    return -EINVAL;
  }
  switch (flags) {
    case kCacheAdd:
      e->key.assign(key.begin(), key.end());
      e->state = kCacheActive;
      e->data = data;
      e->stamp = 0;
      hstate_ |= kDirtyStamp;
      break;
    case kCacheHide:
      e->state = kCacheInactive;
      break;
    case kCacheCull:
      e->state = kCacheEmpty;
      hstate_ |= kDirtyInstance;
      break;
    default:
      return -EINVAL;
  }
  return e->inst;
}

int InDomCache::StoreKey(std::string_view name, std::span<const uint8_t> key, void* data) {
  std::span<const uint8_t> hint = key.empty() ? Bytes(name) : key;
  int inst = 0;
  int match;
  if (CacheEntry* e = FindByName(name, &match)) {
    if (!KeyEqual(*e, hint)) return kErrInst;
    inst = e->inst;
  } else {
    uint32_t hash = 0;
    int tries = 0;
    for (; tries < kMaxHashTries; tries++) {
      hash = HashBytes(hint, hash);
      inst = static_cast<int>(hash & 0x7fffffffu);
      CacheEntry* used = FindByInst(inst);
      if (used == nullptr) {
        keyhash_count_[tries]++;
        break;
      }
      // The hashed identifier is taken: by this very entry (fine), or by
      // an entry sharing the name or the hint (not allowed), or by an
      // unrelated one (hash again).
      if (used->name == name) {
        if (KeyEqual(*used, hint)) break;
        return kErrInst;
      }
      if (KeyEqual(*used, hint)) return kErrInst;
    }
    if (tries == kMaxHashTries) {
      env_->log(absl::StrCat("pmdaCacheStoreKey: indom ", InDomDomain(indom_), ".",
                             InDomSerial(indom_), ": unable allocate a new id for instance \"",
                             AbslView(name), "\" based on a key of ", key.size(), " bytes"));
      return kErrGeneric;
    }
    ins_mode_ = 1;
  }
  return Store(kCacheAdd, name, inst, hint, data);
}

namespace {
void Fill(const CacheEntry& e, CacheEntryInfo* out) {
  out->state = e.state;
  out->inst = Inst{e.inst};
  out->name = e.name;
  out->data = e.data;
}
}  // namespace

int InDomCache::Lookup(int inst, CacheEntryInfo* out) {
  CacheEntry* e = FindByInst(inst);
  if (e == nullptr) return kErrInst;
  Fill(*e, out);
  return e->state;
}

int InDomCache::LookupName(std::string_view name, CacheEntryInfo* out) {
  int match;
  // A short-name mismatch (match -1) still finds the entry, as in PCP.
  CacheEntry* e = FindByName(name, &match);
  if (e == nullptr) return kErrInst;
  Fill(*e, out);
  return e->state;
}

int InDomCache::LookupKey(std::span<const uint8_t> key, CacheEntryInfo* out) {
  // Keys have no index: PCP scans with the walk position, so this ends
  // any walk in progress.
  for (walk_ = entries_.begin(); walk_ != entries_.end();) {
    const CacheEntry& e = *walk_++;
    if (e.state == kCacheEmpty || !KeyEqual(e, key)) continue;
    Fill(e, out);
    return e.state;
  }
  return kErrInst;
}

int InDomCache::CountState(int state) const {
  return static_cast<int>(
      std::count_if(entries_.begin(), entries_.end(), [state](const CacheEntry& e) { return e.state == state; }));
}

int InDomCache::SetAll(int from, int to) {
  int changed = 0;
  for (CacheEntry& e : entries_) {
    if (e.state == from || (from == 0 && e.state != kCacheEmpty)) {
      e.state = to;
      changed++;
    }
  }
  return changed;
}

int InDomCache::Walk(bool rewind) {
  if (rewind) {
    walk_ = entries_.begin();
    return 0;
  }
  while (walk_ != entries_.end()) {
    const CacheEntry& e = *walk_++;
    if (e.state == kCacheActive) return e.inst;
  }
  return -1;
}

int InDomCache::Op(int op) {
  switch (op) {
    case kCacheLoad:
      return Load();
    case kCacheSave:
      return Save(kDirtyInstance);
    case kCacheSync:
      return Save(kDirtyInstance | kDirtyStamp);
    case kCacheStrings:
      // The matching rule cannot change once entries exist.
      if (nentry_ > 0) return -E2BIG;
      hstate_ |= kStringsCache;
      return 0;
    case kCacheActive:
      return SetAll(kCacheInactive, kCacheActive);
    case kCacheInactive:
      return SetAll(kCacheActive, kCacheInactive);
    case kCacheCull: {
      int culled = SetAll(0, kCacheEmpty);
      if (culled > 0) hstate_ |= kDirtyInstance;
      return culled;
    }
    case kCacheSize:
      return nentry_;
    case kCacheSizeActive:
      return CountState(kCacheActive);
    case kCacheSizeInactive:
      return CountState(kCacheInactive);
    case kCacheReuse:
      ins_mode_ = 1;
      return 0;
    case kCacheReorg:
      Rehash(false);
      return 0;
    case kCacheWalkRewind:
    case kCacheWalkNext:
      return Walk(op == kCacheWalkRewind);
    default:
      return -EINVAL;
  }
}

int InDomCache::Purge(int64_t recent, const std::function<void(void*)>& release) {
  int64_t epoch = env_->now() - recent;
  int culled = 0;
  for (CacheEntry& e : entries_) {
    // A zero stamp means active since the last save: never purged.
    if (e.stamp == 0 || e.stamp >= epoch) continue;
    e.state = kCacheEmpty;
    if (release && e.data != nullptr) {
      release(e.data);
      e.data = nullptr;
    }
    culled++;
  }
  if (culled > 0) hstate_ |= kDirtyInstance;
  return culled;
}

int InDomCache::Resize(int maximum) {
  if (maximum < 0) return kErrSign;
  for (const CacheEntry& e : entries_) {
    if (e.inst > maximum) return kErrToobig;
  }
  maxinst_ = maximum;
  hstate_ |= kDirtyStamp;  // the maximum is saved in the file header
  return 0;
}

std::string InDomCache::EntryText(const CacheEntry& e) const {
  if (e.state == kCacheEmpty) return absl::StrFormat("(%10d) %8s\n", e.inst, "empty");
  std::string out = absl::StrFormat(" %10d  %8s %s %s", e.inst,
                                    e.state == kCacheActive ? "active" : "inactive",
                                    PointerText(e.data), e.name);
  if (e.name.size() > static_cast<size_t>(e.hashlen)) absl::StrAppend(&out, " [match len=", e.hashlen, "]");
  if (!e.key.empty()) absl::StrAppend(&out, " ", KeyText(e.key));
  return out + "\n";
}

std::string InDomCache::DumpText(bool with_hash) const {
  std::string out = absl::StrFormat("pmdaCacheDump: indom %u.%u: nentry=%d ins_mode=%d hstate=%d hsize=%d\n",
                                    InDomDomain(indom_), InDomSerial(indom_), nentry_, ins_mode_, hstate_,
                                    static_cast<int>(inst_chains_.size()));
  for (const CacheEntry& e : entries_) out += EntryText(e);
  if (!with_hash) return out;
  if (std::any_of(std::begin(keyhash_count_), std::end(keyhash_count_), [](int n) { return n != 0; })) {
    out += "pmdaCacheStoreKey hash stats ...\n";
    for (int i = 0; i < kMaxHashTries; i++) {
      if (keyhash_count_[i] == 0) continue;
      if (i == 0) absl::StrAppend(&out, "hash once: ", keyhash_count_[i], " times\n");
      else absl::StrAppend(&out, i + 1, " hash attempts: ", keyhash_count_[i], " times\n");
    }
  }
  for (const auto* table : {&inst_chains_, &name_chains_}) {
    out += table == &inst_chains_ ? "inst hash\n" : "name hash\n";
    for (size_t i = 0; i < table->size(); i++) {
      absl::StrAppendFormat(&out, " [%03d]", static_cast<int>(i));
      const Chain& chain = (*table)[i];
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        absl::StrAppend(&out, " -> ", (*it)->inst);
        if ((*it)->state == kCacheEmpty) out += 'E';
        else if ((*it)->state == kCacheInactive) out += 'I';
      }
      out += '\n';
    }
  }
  return out;
}

}  // namespace pmapi::cache_internal
