// c_api_namespace.cc: an alternative name space for every context
// (pmLoadNameSpace, pmLoadASCIINameSpace, pmUnloadNameSpace,
// pmTrimNameSpace). As in PCP, the loaded name space is the process's: once
// loaded, it answers the name-space questions of every context, and of a
// program that has no context at all, until it is unloaded.
#include <cstdlib>
#include <mutex>

#include "c_api_internal.h"
#include "pmapi/context.h"

using namespace pmapi;
using namespace pmapi::capi;

namespace {

std::mutex names_mu;
std::shared_ptr<const Pmns>* loaded = new std::shared_ptr<const Pmns>;
uint64_t generation = 1;  // contexts start at 0: the first sync always runs

// The file pmLoadNameSpace(NULL) loads: $PMNS_DEFAULT, else
// $PCP_VAR_DIR/pmns/root.
std::string DefaultFile() {
  if (const char* env = std::getenv("PMNS_DEFAULT")) return env;
  const char* var = pmGetOptionalConfig("PCP_VAR_DIR");
  return std::string(var == nullptr ? "/var/lib/pcp" : var) + "/pmns/root";
}

int Load(const char* filename, bool dupok) {
  std::lock_guard<std::mutex> lock(names_mu);
  if (*loaded != nullptr) return PM_ERR_DUPPMNS;
  std::string path = filename == nullptr ? DefaultFile() : filename;
  absl::StatusOr<std::shared_ptr<const Pmns>> ns = LoadNameSpace(path, dupok);
  if (!ns.ok()) {
    // PCP reports why on stderr, through the pmprintf buffer.
    std::string why(ns.status().message());
    if (!why.empty()) {
      if (why.back() != '\n') why += '\n';
      pmprintf("%s", why.c_str());
      pmflush();
    }
    return Code(ns.status());
  }
  *loaded = std::move(*ns);
  ++generation;
  return 0;
}

}  // namespace

namespace pmapi::capi {

std::shared_ptr<const Pmns> LoadedNames(uint64_t* gen) {
  std::lock_guard<std::mutex> lock(names_mu);
  if (gen != nullptr) *gen = generation;
  return *loaded;
}

void SyncNames(CContext& entry) {
  uint64_t gen = 0;
  std::shared_ptr<const Pmns> ns = LoadedNames(&gen);
  if (entry.names_generation == gen) return;
  entry.names_generation = gen;
  entry.ctx->UseNameSpace(std::move(ns));
}

}  // namespace pmapi::capi

extern "C" {

int pmLoadNameSpace(const char* filename) { return Load(filename, true); }

int pmLoadASCIINameSpace(const char* filename, int dupok) { return Load(filename, dupok != 0); }

void pmUnloadNameSpace(void) {
  std::lock_guard<std::mutex> lock(names_mu);
  loaded->reset();
  ++generation;
}

int pmTrimNameSpace(void) {
  std::shared_ptr<CContext> entry = Current();
  // As libpcp: no name space at all is reported before no context.
  if (entry == nullptr) return LoadedNames(nullptr) == nullptr ? PM_ERR_NOPMNS : PM_ERR_NOCONTEXT;
  std::lock_guard<std::recursive_mutex> lock(entry->mu);
  SyncNames(*entry);
  entry->ctx->TrimNameSpace();
  return 0;
}

}  // extern "C"
