// c_pmda_internal.h: what the C PMDA interface (<pcp/pmda.h>) keeps
// behind pmdaExt.e_ext, and the pieces its files share.
//
// pmdaDSO creates a CPmdaState for the agent and points e_ext at it; every
// default handler (pmdaFetch, pmdaInstance, ...) finds the agent's tables
// through the pmdaExt it is given. The instance-domain caches and event
// arrays are process-wide, as in PCP, each behind its own lock.
//
// Example (inside the library):
//   CPmdaState* st = CPmdaStateOf(ext);
//   const pmdaMetric* m = FindCMetric(ext, pmid);
#ifndef PMAPI_SRC_C_PMDA_INTERNAL_H_
#define PMAPI_SRC_C_PMDA_INTERNAL_H_

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "pmapi/label_set.h"
#include "pmapi/pmda_cache.h"
#include "pmapi/result.h"
#include "pmda_help.h"

namespace pmapi {

// What the host loading an agent offers its init function: the name
// resolver help files use, and where diagnostics go.
struct CPmdaLoadContext {
  int domain = -1;
  HelpFile::NameResolver resolve;
  std::vector<std::string>* diagnostics = nullptr;
  // An agent built by PCP: its help is newhelp's pair or nothing.
  bool newhelp_only = false;
};

// Sets (or, with null, clears) the load context of the calling thread, for
// the duration of an agent's init function.
void SetCPmdaLoadContext(const CPmdaLoadContext* load);
const CPmdaLoadContext* CurrentCPmdaLoadContext();

class AgentLink;

// One dynamic part of an agent's name space (pmdaDynamicPMNS).
struct CPmdaDynamic {
  const char* prefix = nullptr;
  pmdaUpdatePMNS pmnsupdate = nullptr;
  pmdaUpdateText textupdate = nullptr;
  pmdaUpdateMetric mtabupdate = nullptr;
  pmdaCountMetrics mtabcounts = nullptr;
  pmdaNameSpace* pmns = nullptr;
  pmdaMetric* metrics = nullptr;  // the fixed table
  int nmetrics = 0;
  int extratrees = 0;
  unsigned int clustermask = 0;
};

struct CPmdaState {
  pmdaInterface* dispatch = nullptr;
  // A daemon agent (pmdaDaemon): diagnostics go to its log (stderr), and
  // once connected (pmdaConnect) it talks to pmcd over `link`.
  bool daemon = false;
  std::shared_ptr<AgentLink> link;
  void* private_data = nullptr;
  char* helptext = nullptr;  // pmdaDSO's copy of the help file's path
  bool initialised = false;
  HelpFile::NameResolver resolve;
  std::vector<std::string>* diagnostics = nullptr;
  absl::flat_hash_map<pmID, int> hashed;  // PMID -> e_metrics index
  // pmdaFetch's result, reused; its value sets are freed on the next call.
  pmResult* res = nullptr;
  int res_capacity = 0;
  std::vector<pmValueSet*> sets;
  // State changes raised by pmdaSetFlags, taken by the host after a fetch.
  int state_changes = 0;
  // Dynamic name space parts registered for this agent alone
  // (pmdaExtDynamicPMNS); empty: the process-wide ones.
  std::vector<CPmdaDynamic> dynamics;
  // __pmdaStartInst's walk: the instances the profile admits, and the
  // next one __pmdaNextInst hands out.
  std::vector<Inst> walk;
  size_t walk_next = 0;
};

// Returns the state behind `ext`, or null for a pmdaExt pmdaDSO did not
// make.
CPmdaState* CPmdaStateOf(pmdaExt* ext);
// Frees the state and the pmdaExt pmdaDSO allocated.
void FreeCPmdaExt(pmdaExt* ext);
// Frees pmdaFetch's result and its value sets.
void FreeCPmdaFetchResult(CPmdaState* st);

// Records a message as PCP's pmNotifyErr would log it.
void CPmdaNotify(pmdaExt* ext, int priority, std::string message);
// The same for a diagnostic of an agent's set-up before it has a pmdaExt
// (pmdaDSO, pmdaInit refusing the interface version).
void CPmdaLoadNotify(int priority, std::string message);

// Returns the table entry of `pmid` by the lookup pmdaInit chose, or null.
pmdaMetric* FindCMetric(pmdaExt* ext, pmID pmid);
// Returns the table entry of `indom`, or null.
pmdaIndom* FindCIndom(pmdaExt* ext, pmInDom indom);

// Returns true if `prof` (null: everything) admits instance `inst`.
bool CProfileAdmits(const pmProfile* prof, pmInDom indom, Inst inst);

// pmdaFetch's results (one per agent, reused from fetch to fetch): each
// is noted when allocated and forgotten when replaced, so the default
// result callback tells them from results an agent's own handler built.
void NotePmdaFetchResult(const pmResult* old_res, const pmResult* new_res);
bool IsPmdaFetchResult(const pmResult* res);

// One instance of an instance domain, as the defaults walk them.
struct CInstance {
  Inst inst;
  std::string name;
};
// Returns the instances of `indom` in order: the cache's active entries
// when `indom` has a pmdaCache, else the table's. Sets *found false when
// neither knows the indom, and *cached (if given) true for a cache.
std::vector<CInstance> CIndomInstances(pmdaExt* ext, pmInDom indom, bool* found,
                                       bool* cached = nullptr);

// The process-wide caches behind pmdaCache*. The lock is recursive because
// a purge callback may call back into the cache.
std::recursive_mutex& CCacheLock();
InDomCaches& CCaches();

// The client context of the request being answered (pmdaGetContext).
void SetCPmdaContext(int context);

// Returns a malloc'ed pmLabelSet equal to `set`, or null.
pmLabelSet* NewCLabelSet(const LabelSet& set);
// Merges the pairs of `json` (each marked `flags`) into *lsp, creating the
// set when *lsp is null (pmdaAddLabels, libpcp's __pmAddLabels). Returns
// the number of labels, or a PCP error code.
int AddCLabels(pmLabelSet** lsp, const std::string& json, int flags);
// Converts a C label set back (json and index).
LabelSet FromCLabelSet(const pmLabelSet& set);
// Frees `n` sets at `sets` and their contents (not the array).
void FreeCLabelSetContents(pmLabelSet* sets, int n);

// Opens a help source file for an agent of `domain`; returns a handle for
// pmdaGetHelp, or < 0.
int OpenCHelp(const std::string& path, int domain, const HelpFile::NameResolver& resolve,
              std::vector<std::string>* diagnostics);

// A result in the layout agents build and free (pmdaFetch's, PCP's
// __pmFreeResultValues): each value set and each value block malloc'ed
// on its own. The client side's one-block results are ToCResult's.
// Returns a value set of `pmid` with room for `slots` values (numval 0,
// in-situ), or null when memory runs out.
pmValueSet* NewCValueSet(pmID pmid, int slots);
// Returns a value block of `vtype` holding `len` bytes at `data`, or null.
pmValueBlock* NewCBlock(int vtype, const void* data, size_t len);
// Returns a pmResult holding `values` (for a store handler), or null when
// memory runs out; a set or block that could not be allocated is null.
pmResult* NewCResult(const Result& values);
// Frees a pmResult NewCResult made.
void FreeCResult(pmResult* res);
// Frees an agent's pmInResult (an instance handler's answer) and the
// names and ids in it (__pmFreeInResult).
void FreeInResult(pmInResult* r);

// Where a daemon agent (pmdaDaemon) finds the names its help text uses:
// the default name space ($PMNS_DEFAULT, else $PCP_VAR_DIR/pmns/root), as
// newhelp(1) resolves them.
HelpFile::NameResolver DefaultPmnsResolver();

}  // namespace pmapi

#endif  // PMAPI_SRC_C_PMDA_INTERNAL_H_
