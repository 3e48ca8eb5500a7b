// c_api_internal.h: what the sources of the C layer (<pcp/pmapi.h>) share:
// the table of context handles with each thread's current context, the
// conversions between the C structures and the C++ core's types, and the
// helpers that hand results to C callers in malloc'd memory.
#ifndef PMAPI_C_API_INTERNAL_H_
#define PMAPI_C_API_INTERNAL_H_

#include <pcp/pmapi.h>

#include <cstdint>
#include <cstring>
#include <ctime>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "pmapi/archive.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/label_set.h"
#include "pmapi/pmns.h"
#include "pmapi/result.h"
#include "pmapi/timezone.h"
#include "pmapi/types.h"

namespace pmapi {
class FetchGroup;
}

namespace pmapi::capi {

// One entry of the handle table. The context is owned here, or (for the
// context of a fetchgroup) by the fetchgroup, which then also takes mode
// changes so that it remembers them.
struct CContext {
  std::unique_ptr<Context> owned;
  Context* ctx = nullptr;
  FetchGroup* fetchgroup = nullptr;
  int type = 0;       // PM_CONTEXT_HOST, _ARCHIVE or _LOCAL
  std::string name;   // as given to pmNewContext
  // The last mode set, for pmDupContext and for pmSetMode(..., NULL, ...).
  bool mode_set = false;
  int mode = PM_MODE_LIVE;
  absl::Time when = absl::UnixEpoch();
  absl::Duration delta;
  // The generation of the loaded name space (pmLoadNameSpace) this
  // context's Context was last given; see SyncNames.
  uint64_t names_generation = 0;
  // Held by every call that uses the context, as libpcp locks each of its
  // contexts: threads sharing one context take turns. Recursive, since a
  // call may use its context again (a callback, a helper taking the lock).
  std::recursive_mutex mu;
  // pmFetch's PMIDs in the typed form, kept between fetches.
  std::vector<PmID> fetch_ids;
};

// Opens a context of `type` (flags in the upper bits are ignored) on
// `name`. Errors carry PCP's code.
absl::StatusOr<std::unique_ptr<Context>> OpenContext(int type, const char* name);

// Adds a context to the table and returns its handle (not made current).
int AddHandle(std::shared_ptr<CContext> entry);
// Takes the next handle number, to be filled by AddHandleAt.
int ReserveHandle();
void AddHandleAt(int handle, std::shared_ptr<CContext> entry);
// Returns the entry of `handle`, or null.
std::shared_ptr<CContext> FindHandle(int handle);
// Removes `handle`; returns false if it was not there.
bool RemoveHandle(int handle);
// The calling thread's current context handle (PM_CONTEXT_UNDEF if none).
int CurrentHandle();
void SetCurrentHandle(int handle);
// Returns the current context's entry, or null (PM_ERR_NOCONTEXT).
std::shared_ptr<CContext> Current();
// Runs `body` on the current context's entry with its lock held; returns
// what `body` returns, or PM_ERR_NOCONTEXT when there is no current
// context.
template <typename F>
int WithContext(F body) {
  std::shared_ptr<CContext> entry = Current();
  if (entry == nullptr) return PM_ERR_NOCONTEXT;
  std::lock_guard<std::recursive_mutex> lock(entry->mu);
  return body(*entry);
}

// The name space loaded by pmLoadNameSpace/pmLoadASCIINameSpace (null when
// none) and its generation, which changes with every load and unload.
std::shared_ptr<const Pmns> LoadedNames(uint64_t* generation);
// Gives the entry's Context the loaded name space (or its own back) if it
// changed since the last call.
void SyncNames(CContext& entry);

// Sets the collection mode of an entry, through its fetchgroup if it has one.
absl::Status SetEntryMode(CContext& entry, int mode, absl::Time when, absl::Duration delta);

// The PCP code of a status (0 for OK).
inline int Code(const absl::Status& s) { return PcpCode(s); }

// Conversions between the C structures and the core's types.
pmUnits ToC(const Units& u);
Units FromC(const pmUnits& u);
pmDesc ToC(const Desc& d);
Desc FromC(const pmDesc& d);
LabelEntry FromC(const pmLabel& l);

// Copies between the typed identifiers (PmID, InDom, Inst) and PCP's C
// numbers. CopyToC converts element by element and replaces *out's
// contents (keeping its capacity, so a buffer held across calls is not
// reallocated); CopyFromC gives the typed copy of c[n] (empty when n <= 0
// or c is null), copied as bytes, since a typed identifier is PCP's number
// in a scoped enum of the same size.
template <typename C, typename Ids>
void CopyToC(const Ids& ids, std::vector<C>* out) {
  out->clear();
  out->reserve(std::size(ids));
  for (auto id : ids) out->push_back(static_cast<C>(ToPcp(id)));
}
// The overload with `out` fills a buffer held across calls.
template <typename T, typename C>
void CopyFromC(const C* c, int n, std::vector<T>* out) {
  static_assert(sizeof(T) == sizeof(C) && std::is_trivially_copyable_v<T>);
  out->resize(c != nullptr && n > 0 ? static_cast<size_t>(n) : 0);
  if (!out->empty()) std::memcpy(out->data(), c, out->size() * sizeof(C));
}
template <typename T, typename C>
std::vector<T> CopyFromC(const C* c, int n) {
  std::vector<T> out;
  CopyFromC(c, n, &out);
  return out;
}

// A malloc'd copy of `s` (NUL terminated), or null when out of memory.
char* Dup(std::string_view s);
// A single malloc'd block holding an array of `names.size()` pointers
// followed by the strings they point to, as pmNameAll and pmGetInDom hand
// out (one free() releases it). Null when out of memory.
char** PackNames(const std::vector<std::string>& names);
// Copies `s` into buf[buflen] (truncating, always NUL terminated when
// buflen > 0) and returns buf.
char* CopyOut(std::string_view s, char* buf, int buflen);
// A malloc'd value block of `vtype` holding `payload`; null when out of
// memory.
pmValueBlock* MakeBlock(int vtype, std::span<const uint8_t> payload);

// Results in C form (malloc'd as pmFreeResult / pmFreeHighResResult expect).
// Null when out of memory.
pmResult* ToCResult(const Result& r);
pmHighResResult* ToCHighResResult(const Result& r);
// Frees a result ToCResult or ToCHighResResult made (one allocation) and
// returns true; false, freeing nothing, for any other pointer.
bool FreeOneBlockResult(void* result);
// Appends the value sets of a C result (a client's pmStore, an agent's
// fetch answer) to *out. PM_ERR_GENERIC for a missing set or a malformed
// value block. A set without values is kept as an in-situ set of its
// numval (0, or an error code).
absl::Status AppendCValueSets(const pmValueSet* const* vset, int numpmid, Result* out);
// A view of one C value (valfmt of its set). False if a value block is
// malformed (shorter than its header).
bool ViewOf(int valfmt, const pmValue& v, ValueView* out);

// Converts pmLabelSets: a malloc'd array of `sets` (pmFreeLabelSets frees
// it). Returns the count, or -ENOMEM.
int ToCLabelSets(const std::vector<LabelSet>& sets, pmLabelSet** out);

// The reporting zone of the process (pmNewZone / pmUseZone), the local zone
// until one is chosen.
TimeZone CurrentZone();
// mktime(3) in the reporting zone (libpcp's __pmMktime).
time_t ReportingMktime(struct tm* tm);

}  // namespace pmapi::capi

#endif  // PMAPI_C_API_INTERNAL_H_
