// context_derived.h: the derived metrics of one context — a copy of the
// global list taken when the context opens (and extended by later global
// registrations), the context's own metrics (pmAddDerived), each bound in
// the context the first time it is needed, and their evaluation state.
#ifndef PMAPI_DERIVE_CONTEXT_DERIVED_H_
#define PMAPI_DERIVE_CONTEXT_DERIVED_H_

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "bind.h"
#include "eval.h"
#include "pmapi/pmns.h"
#include "pmapi/result.h"
#include "registry.h"

namespace pmapi::derive {

// pmAddDerived's outcome: 0, or why and where it failed.
struct AddOutcome {
  enum Kind { kOk, kSyntax, kSemantic, kPmapi } kind = kOk;
  int code = 0;  // kPmapi: the PCP error code
  int offset = 0;
};

class ContextDerived {
 public:
  ContextDerived();
  ~ContextDerived();
  ContextDerived(const ContextDerived&) = delete;
  ContextDerived& operator=(const ContextDerived&) = delete;

  // The name space: a derived metric's PMID (nullopt if none), its name,
  // the children a derived name contributes below `name` (nullopt if none;
  // an empty list if `name` is itself a derived metric), and the names at
  // or below `name`.
  std::optional<PmID> LookupName(std::string_view name);
  std::optional<std::string> NameOf(PmID id);
  std::optional<std::vector<PmnsChild>> Children(std::string_view name);
  // Every name at or below `name`; with `bind` each is bound first and the
  // invalid ones left out (as PCP does after a pmcd's names).
  std::vector<std::string> Names(std::string_view name, const BindEnv* bind);
  bool Knows(PmID id);

  // The descriptor of a derived metric: PM_ERR_PMID if not ours,
  // PM_ERR_BADDERIVE if it cannot be bound here.
  absl::StatusOr<Desc> LookupDesc(PmID id, const BindEnv& env);

  // pmAddDerived.
  AddOutcome Add(std::string_view name, std::string_view expr, const BindEnv& env);
  int limit() const { return limit_; }
  void set_limit(int limit) { limit_ = limit; }

  // Fetching: the list to ask the source for (the requested PMIDs then the
  // derived metrics' operands), or nullopt when none is derived.
  std::optional<std::vector<PmID>> Prefetch(std::span<const PmID> ids, const BindEnv& env);
  // Rewrites `fetched` (the answer to Prefetch's list) into the answer for
  // the first `numpmid` PMIDs, in place.
  Result Postfetch(Result fetched, size_t numpmid, EvalEnv env);

 private:
  struct Entry {
    std::string name;
    PmID pmid = kPmIDNull;
    bool anon = false;
    bool global = false;
    bool masked = false;
    bool bound = false;
    bool binding = false;
    std::shared_ptr<const Node> expr;
    std::unique_ptr<Bound> tree;
  };

  // Appends the global metrics registered since; `report` traces each.
  void Refresh(bool report = true);
  Entry* Find(PmID id);
  void BindEntry(Entry* e, const BindEnv& env, bool report);
  static bool Under(const std::string& name, std::string_view prefix);

  std::vector<Entry> list_;
  size_t glob_last_ = 0;
  int own_ = 0;
  PmID own_last_ = kPmIDNull;
  int limit_ = -1;
  int serial_;
};

}  // namespace pmapi::derive

#endif  // PMAPI_DERIVE_CONTEXT_DERIVED_H_
