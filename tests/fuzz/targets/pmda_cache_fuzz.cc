// Fuzz target: the pmdaCache persistence file loader. The input is the
// file; it is loaded into a fresh cache, which is then walked, looked up,
// dumped, changed and saved back.
#include <sys/stat.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "pmapi/pmda_cache.h"

namespace {

const pmapi::InDom kInDom = pmapi::MakeInDom(60, 3);

uint64_t Exercise(pmapi::InDomCaches& caches) {
  uint64_t h = 0;
  absl::StatusOr<int> loaded = caches.Op(kInDom, pmapi::kCacheLoad);
  if (!loaded.ok()) return h;
  h += static_cast<uint64_t>(*loaded);
  h += caches.Op(kInDom, pmapi::kCacheWalkRewind).ok();
  for (int n = 0; n < 1000; ++n) {
    absl::StatusOr<int> inst = caches.Op(kInDom, pmapi::kCacheWalkNext);
    if (!inst.ok() || *inst < 0) break;
    absl::StatusOr<pmapi::CacheEntryInfo> e = caches.Lookup(kInDom, pmapi::Inst{*inst});
    if (!e.ok()) continue;
    h += fuzz::Digest(e->name);
    absl::StatusOr<pmapi::CacheEntryInfo> by_name = caches.LookupName(kInDom, e->name);
    if (by_name.ok()) h += static_cast<uint64_t>(pmapi::ToPcp(by_name->inst));
  }
  h += fuzz::Digest(caches.DumpText(kInDom, true));
  absl::StatusOr<pmapi::Inst> added = caches.Store(kInDom, pmapi::kCacheAdd, "fuzz-added", nullptr);
  if (added.ok()) h += static_cast<uint64_t>(pmapi::ToPcp(*added));
  h += caches.Op(kInDom, pmapi::kCacheReorg).ok();
  h += caches.Op(kInDom, pmapi::kCacheSave).ok();
  return h;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& var = fuzz::ScratchDir();
  ::mkdir((var + "/config").c_str(), 0755);
  ::mkdir((var + "/config/pmda").c_str(), 0755);
  pmapi::InDomCaches::Options options;
  options.var_dir = var;
  options.clock = [] { return int64_t{1700000000}; };
  options.dump_sink = [](std::string_view) {};
  options.log_sink = [](std::string_view) {};
  pmapi::InDomCaches caches(options);
  if (!fuzz::WriteFile(caches.FilePath(kInDom), {data, size})) return 0;
  fuzz::Consume(Exercise(caches));
  return 0;
}
