// InDomCaches: the per-agent set of instance-domain caches, the checks
// every entry point makes, and where the persistence files live.
#include "pmapi/pmda_cache.h"

#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "absl/strings/str_cat.h"
#include "config_lookup.h"
#include "pmapi/errors.h"
#include "pmda_cache_internal.h"

namespace pmapi {

using cache_internal::InDomCache;

namespace {

void ToStderr(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stderr);
  if (!text.empty() && text.back() != '\n') std::fputc('\n', stderr);
}

// Returns `name` up to its first NUL, as a C string holds it.
std::string_view AsCString(std::string_view name) {
  size_t nul = name.find('\0');
  return nul == std::string_view::npos ? name : name.substr(0, nul);
}

std::span<const uint8_t> Bytes(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

absl::StatusOr<int> Result(int sts) {
  if (sts < 0) return PcpError(sts);
  return sts;
}

// A store's outcome: the entry's instance, or PCP's error.
absl::StatusOr<Inst> Stored(int sts) {
  if (sts < 0) return PcpError(sts);
  return Inst{sts};
}

absl::StatusOr<CacheEntryInfo> Found(int sts, CacheEntryInfo info) {
  if (sts < 0) return PcpError(sts);
  return info;
}

}  // namespace

struct InDomCaches::Env : cache_internal::CacheEnv {};

InDomCaches::InDomCaches() : InDomCaches(Options{}) {}

InDomCaches::InDomCaches(Options options) : options_(std::move(options)), env_(std::make_unique<Env>()) {
  if (!options_.clock) options_.clock = [] { return static_cast<int64_t>(std::time(nullptr)); };
  if (!options_.dump_sink) options_.dump_sink = ToStderr;
  if (!options_.log_sink) options_.log_sink = ToStderr;
  env_->now = options_.clock;
  env_->log = options_.log_sink;
  env_->warn = options_.log_sink;
  env_->trace = options_.dump_sink;
  env_->file_path = [this](InDom indom) { return PreparedFilePath(indom); };
}

InDomCaches::~InDomCaches() = default;

std::string InDomCaches::VarDir() const {
  if (!options_.var_dir.empty()) return options_.var_dir;
  // As libpcp_pmda finds it: the environment, then pcp.conf.
  const char* var = ConfigLookup("PCP_VAR_DIR");
  return var != nullptr ? var : "";
}

std::string InDomCaches::FilePath(InDom indom) const {
  std::string var = VarDir();
  if (var.empty()) return "";
  return absl::StrCat(var, "/config/pmda/", InDomDomain(indom), ".", InDomSerial(indom));
}

// As FilePath, after creating the last directory level (only that one,
// like PCP) so a first save can succeed.
std::string InDomCaches::PreparedFilePath(InDom indom) const {
  std::string var = VarDir();
  if (var.empty()) return "";
  ::mkdir(absl::StrCat(var, "/config/pmda").c_str(), 0755);
  return FilePath(indom);
}

InDomCache& InDomCaches::Find(InDom indom) {
  std::unique_ptr<InDomCache>& cache = caches_[indom];
  if (!cache) {
    cache = std::make_unique<InDomCache>(indom, env_.get());
    made_.insert(made_.begin(), indom);
  }
  return *cache;
}

absl::StatusOr<Inst> InDomCaches::Store(InDom indom, int flags, std::string_view name, void* data) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  return Stored(Find(indom).Store(flags, AsCString(name), std::nullopt, {}, data));
}

absl::StatusOr<Inst> InDomCaches::StoreKey(InDom indom, int flags, std::string_view name,
                                           std::span<const uint8_t> key, void* data) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  if (flags != kCacheAdd) return Store(indom, flags, name, data);
  return Stored(Find(indom).StoreKey(AsCString(name), key, data));
}

absl::StatusOr<CacheEntryInfo> InDomCaches::Lookup(InDom indom, Inst inst) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  CacheEntryInfo info;
  int sts = Find(indom).Lookup(ToPcp(inst), &info);
  return Found(sts, std::move(info));
}

absl::StatusOr<CacheEntryInfo> InDomCaches::LookupName(InDom indom, std::string_view name) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  CacheEntryInfo info;
  int sts = Find(indom).LookupName(AsCString(name), &info);
  return Found(sts, std::move(info));
}

absl::StatusOr<CacheEntryInfo> InDomCaches::LookupKey(InDom indom, std::string_view name,
                                                      std::span<const uint8_t> key) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  CacheEntryInfo info;
  int sts = Find(indom).LookupKey(key.empty() ? Bytes(AsCString(name)) : key, &info);
  return Found(sts, std::move(info));
}

absl::StatusOr<int> InDomCaches::Op(InDom indom, int op) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  if (op == kCacheCheck) return caches_.count(indom) ? 1 : 0;
  InDomCache& cache = Find(indom);
  if (op == kCacheDump || op == kCacheDumpAll) {
    options_.dump_sink(cache.DumpText(op == kCacheDumpAll));
    return 0;
  }
  int before = cache.state();
  int sts = cache.Op(op);
  if (env_->trace_enabled && env_->trace_enabled()) Trace(cache, op, before, sts);
  // The end of a walk is -1, a result rather than an error.
  if (op == kCacheWalkNext) return sts;
  return Result(sts);
}

void InDomCaches::SetWarningSink(std::function<void(std::string_view)> sink) {
  env_->warn = sink ? std::move(sink) : options_.log_sink;
}

void InDomCaches::SetTrace(std::function<bool()> enabled) { env_->trace_enabled = std::move(enabled); }

// PCP's -Dindom traces: after a load, and after a save that wrote the
// file (one that found the cache dirty).
void InDomCaches::Trace(const InDomCache& cache, int op, int state_before, int sts) const {
  using cache_internal::kDirtyInstance;
  using cache_internal::kDirtyStamp;
  if (sts < 0) return;
  std::string head;
  if (op == kCacheLoad) {
    head = "After PMDA_CACHE_LOAD\n";
  } else if (op == kCacheSave || op == kCacheSync) {
    int mask = op == kCacheSave ? kDirtyInstance : (kDirtyInstance | kDirtyStamp);
    if ((state_before & mask) == 0) return;
    // PCP names the bits the operation saves for, not the state found.
    head = absl::StrCat("After cache_save hstate={", (mask & kDirtyInstance) ? "DIRTY_INSTANCE" : "",
                        (mask & kDirtyStamp) ? "DIRTY_STAMP" : "", "}\n");
  } else {
    return;
  }
  options_.dump_sink(head + cache.DumpText(false));
}

absl::StatusOr<int> InDomCaches::Purge(InDom indom, int64_t recent, const std::function<void(void*)>& release) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  return Result(Find(indom).Purge(recent, release));
}

absl::StatusOr<int> InDomCaches::Resize(InDom indom, int maximum) {
  if (indom == kInDomNull) return PcpError(kErrIndom);
  return Result(Find(indom).Resize(maximum));
}

std::string InDomCaches::DumpText(InDom indom, bool with_hash) const {
  auto it = caches_.find(indom);
  return it == caches_.end() ? "" : it->second->DumpText(with_hash);
}

std::string InDomCaches::DumpAllText(bool with_hash) const {
  std::string text;
  for (InDom indom : made_) text += DumpText(indom, with_hash);
  return text;
}

}  // namespace pmapi
