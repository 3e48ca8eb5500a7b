// pmapi/context.h: a PMAPI context, the handle through which a client reads
// names, metadata and values from one source of metrics.
//
// A Context owns its source (a pmcd host, an archive, or agents hosted in
// this process), its instance profile and, for archives, its collection
// time and mode. The three kinds answer the same calls; fetchgroups, the
// tools and the C layer never know which kind they talk to.
//
// A Context is used by one thread at a time; distinct contexts may be used
// concurrently from different threads.
//
// Example:
//   absl::StatusOr<pmapi::Context> ctx = pmapi::Context::OpenArchive("archives/small-v3");
//   if (!ctx.ok()) return ctx.status();                 // carries PM_ERR_* and PCP's text
//   absl::StatusOr<pmapi::PmID> id = ctx->LookupName("kernel.all.load");
//   if (!id.ok()) return id.status();
//   absl::StatusOr<pmapi::Desc> desc = ctx->LookupDesc(*id);
//   absl::StatusOr<pmapi::ArchiveLabel> label = ctx->GetArchiveLabel();
//   if (!label.ok()) return label.status();
//   absl::Status s = ctx->SetMode(pmapi::Mode::kInterp, label->start, absl::Seconds(10));
//   if (!s.ok()) return s;
//   absl::StatusOr<pmapi::Result> r = ctx->Fetch({*id});
#ifndef PMAPI_CONTEXT_H_
#define PMAPI_CONTEXT_H_

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "pmapi/archive.h"
#include "pmapi/label_set.h"
#include "pmapi/pmns.h"
#include "pmapi/result.h"
#include "pmapi/types.h"
#include "pmapi/vocabulary.h"

namespace pmapi {

class Source;
class Profile;
namespace derive {
class ContextDerived;
struct BindEnv;
}  // namespace derive

// A name space's children of `name` followed, as in PCP, by those of the
// anonymous event.flags and event.missed metrics (derived metrics there,
// so they come after the name space's own and are not repeated).
absl::StatusOr<std::vector<PmnsChild>> WithAnonChildren(std::string_view name,
                                                        absl::StatusOr<std::vector<PmnsChild>> kids);

// Loads an ASCII name space file for Context::UseNameSpace, as PCP's
// pmLoadASCIINameSpace(path, dupok) reads it (pmLoadNameSpace is dupok
// true); errors as Pmns::LoadFile gives them, with PCP's diagnostic as the
// message. #include files are also looked for in $PCP_VAR_DIR/pmns.
absl::StatusOr<std::shared_ptr<const Pmns>> LoadNameSpace(std::string_view path, bool dupok);

class Context {
 public:
  // Opens an archive, an archive set (a comma-separated list) or a directory
  // of archives, as pmNewContext(PM_CONTEXT_ARCHIVE, spec) does.
  static absl::StatusOr<Context> OpenArchive(std::string_view spec);

  // Opens a context of `kind` as pmNewContext does: ContextKind::kHost (a host
  // spec as OpenHostContext takes; "" is local:), ContextKind::kArchive (as
  // OpenArchive), ContextKind::kLocal (the local context's default agents;
  // `spec` is ignored). Errors: the source's own; PM_ERR_NOCONTEXT for
  // another kind.
  static absl::StatusOr<Context> Open(ContextKind kind, std::string_view spec);

  // Wraps a source made by one of the library's source factories.
  explicit Context(std::unique_ptr<Source> source);
  Context(Context&&) noexcept;
  Context& operator=(Context&&) noexcept;
  ~Context();

  // Returns ContextKind::kHost, ContextKind::kArchive or ContextKind::kLocal.
  [[nodiscard]] ContextKind kind() const;

  // --- The name space ---
  // Returns the PMID of a metric name; PM_ERR_NAME for an unknown name,
  // PM_ERR_NONLEAF for an inner node.
  absl::StatusOr<PmID> LookupName(std::string_view name);
  // Looks up many names (pmLookupName with several names): one result per
  // name, in order, each what LookupName would return. A host context asks
  // pmcd for all of them in one PMNS_NAMES request, and asks again alone
  // for each name pmcd did not find, to learn why.
  [[nodiscard]] std::vector<absl::StatusOr<PmID>> LookupNames(std::span<const std::string> names);
  [[nodiscard]] std::vector<absl::StatusOr<PmID>> LookupNames(
      std::initializer_list<std::string> names) {
    return LookupNames(std::span<const std::string>(names.begin(), names.size()));
  }
  // Returns every name of `id` (pmNameAll); PM_ERR_PMID if it has none.
  absl::StatusOr<std::vector<std::string>> NameAll(PmID id);
  // Returns the children of a node ("" is the root) with their status, in
  // PCP's order; an empty list for a leaf; PM_ERR_NAME for an unknown name.
  absl::StatusOr<std::vector<PmnsChild>> Children(std::string_view name);
  // Calls `visit` with the full name of every leaf at or below `name`, in
  // PCP's order (pmTraversePMNS).
  absl::Status Traverse(std::string_view name,
                        const std::function<void(const std::string&)>& visit);

  // --- An alternative name space (pmLoadNameSpace, the tools' -n) ---
  // Answers the name-space questions above from `names` instead of the
  // source; null gives the source's names back. The anonymous event.*
  // metrics stay visible either way.
  void UseNameSpace(std::shared_ptr<const Pmns> names);
  // pmTrimNameSpace: on an archive, hides the names of the alternative name
  // space whose metrics the archive does not hold; on other contexts, shows
  // all of them again. No effect without an alternative name space.
  void TrimNameSpace();

  // --- Metadata ---
  absl::StatusOr<Desc> LookupDesc(PmID id);
  // Returns the descriptors of `ids` in order (pmLookupDescs): a host
  // context asks pmcd for all of them in one DESC_IDS request when pmcd
  // offers the DESCS feature, else one DESC_REQ each. PM_ERR_TOOSMALL for
  // no ids; the first id that cannot be described fails the whole call.
  absl::StatusOr<std::vector<Desc>> LookupDescs(std::span<const PmID> ids);
  absl::StatusOr<std::vector<Desc>> LookupDescs(std::initializer_list<PmID> ids) {
    return LookupDescs(std::span<const PmID>(ids.begin(), ids.size()));
  }
  // Returns the instances of `indom` (for an archive, as at the current
  // collection time).
  absl::StatusOr<std::vector<Instance>> GetInDom(InDom indom);
  // Returns every instance an archive ever records for `indom`, whatever
  // the collection time, each once with its latest name, newest first
  // (pmGetInDomArchive); PM_ERR_NOTARCHIVE for other contexts,
  // PM_ERR_INDOM_LOG if the archive has no such indom.
  absl::StatusOr<std::vector<Instance>> GetInDomArchive(InDom indom);
  // Returns the cluster labels an archive records for `pmid`'s cluster, from
  // the earliest record of them (pmLookupLabels' cluster level in an
  // archive); PM_ERR_NOTARCHIVE for other contexts.
  absl::StatusOr<std::vector<LabelSet>> ArchiveClusterLabels(PmID pmid);
  absl::StatusOr<std::string> NameInDom(InDom indom, Inst inst);
  absl::StatusOr<Inst> LookupInDom(InDom indom, std::string_view name);
  // Returns help text of `kind` for a metric or an instance domain; missing
  // or empty TextKind::kHelp text gives way to the one-line text, as in PCP.
  // PM_ERR_TEXT if there is none.
  absl::StatusOr<std::string> LookupText(PmID id, TextKind kind);
  absl::StatusOr<std::string> LookupInDomText(InDom indom, TextKind kind);
  // Internal: pmLookupText's request for the C layer, PCP's PM_TEXT_* bits
  // (a kind, a target kTextPmid or kTextInDom, maybe PM_TEXT_DIRECT).
  absl::StatusOr<std::string> LookupTextRequest(uint32_t ident, int bits);
  // Returns the label sets of one level: the context's (no identifier), a
  // domain's, a cluster's or a metric's (any PMID of that domain, cluster
  // or metric), or an instance domain's or its instances' (the InDom).
  absl::StatusOr<std::vector<LabelSet>> LookupLabels(LabelLevel level, PmID id = kPmIDNull) {
    return LookupLabelsRequest(level, ToPcp(id));
  }
  absl::StatusOr<std::vector<LabelSet>> LookupLabels(LabelLevel level, InDom indom) {
    return LookupLabelsRequest(level, ToPcp(indom));
  }
  // Internal: the C layer's label request, the identifier as PCP's number.
  absl::StatusOr<std::vector<LabelSet>> LookupLabelsRequest(LabelLevel level, uint32_t ident);

  // --- The instance profile ---
  // Adds instances of `indom` to the profile (an empty list: all of them);
  // kInDomNull with an empty list re-includes everything.
  absl::Status AddProfile(InDom indom, std::span<const Inst> insts);
  absl::Status AddProfile(InDom indom, std::initializer_list<Inst> insts) {
    return AddProfile(indom, std::span<const Inst>(insts.begin(), insts.size()));
  }
  // Removes instances (an empty list: all instances of indom, or of every
  // indom for kInDomNull).
  absl::Status DelProfile(InDom indom, std::span<const Inst> insts);
  absl::Status DelProfile(InDom indom, std::initializer_list<Inst> insts) {
    return DelProfile(indom, std::span<const Inst>(insts.begin(), insts.size()));
  }
  // Returns true if the profile admits instance `inst` of `indom`.
  [[nodiscard]] bool ProfileAdmits(InDom indom, Inst inst) const;
  [[nodiscard]] const Profile& profile() const { return *profile_; }

  // --- Collection time and fetching ---
  // Sets the collection mode and time (archives: PM_MODE_INTERP, FORW,
  // BACK; hosts and local contexts: PM_MODE_LIVE only).
  absl::Status SetMode(Mode mode, absl::Time when, absl::Duration delta);
  // Fetches the values of `ids`, one value set per id in order. A positive
  // state-change mask from pmcd is returned through *state_change when not
  // null. PM_ERR_EOL at either end of an archive.
  absl::StatusOr<Result> Fetch(std::span<const PmID> ids, int* state_change = nullptr);
  // As above, for a braced list: ctx.Fetch({load, ncpu}).
  absl::StatusOr<Result> Fetch(std::initializer_list<PmID> ids, int* state_change = nullptr) {
    return Fetch(std::span<const PmID>(ids.begin(), ids.size()), state_change);
  }
  // Hands back a result of Fetch the caller has finished with, so that its
  // buffers can serve a later fetch (an archive replay fetches results of
  // much the same size again and again). Optional.
  void Recycle(Result&& spent);
  // Archives: returns the next whole record in the current direction
  // (pmFetchArchive), <mark> records included.
  absl::StatusOr<Result> FetchArchive();
  // Stores the values of `values` (hosts and local contexts only).
  absl::Status Store(const Result& values);

  // --- Archive properties (PM_ERR_NOTARCHIVE for other kinds) ---
  absl::StatusOr<ArchiveLabel> GetArchiveLabel();
  absl::StatusOr<absl::Time> GetArchiveEnd();
  // Returns the host name of the metrics source (pmGetContextHostName).
  [[nodiscard]] std::string HostName();
  // pmReconnectContext: a host context closes its connection to pmcd and
  // opens a new one, keeping the instance profile (sent again before the
  // next fetch) and the descriptors already looked up. After a failed
  // attempt the next is made only once a back-off delay has passed
  // (PMCD_RECONNECT_TIMEOUT, default 5,10,20,40,80 seconds); a failed or
  // too early attempt returns -ETIMEDOUT. Archive and local contexts: OK,
  // nothing done.
  absl::Status Reconnect();

  // --- Derived metrics (pmAddDerived; global ones: pmapi/derived.h) ---
  // Adds a derived metric to this context alone. On failure the status
  // carries pmAddDerivedMetric's code and message.
  absl::Status AddDerived(std::string_view name, std::string_view expr);
  // The most derived metrics this context may add (-1: no limit).
  [[nodiscard]] int derived_limit() const;
  void set_derived_limit(int limit);
  // Internal: this context's derived metrics, for the C interface.
  [[nodiscard]] derive::ContextDerived& derived() { return *derived_; }
  // Internal: how derived metrics look names and descriptors up here.
  [[nodiscard]] derive::BindEnv BindEnvironment();

 private:
  absl::StatusOr<std::string> TextWithFallback(uint32_t ident, int kind, int target);
  absl::Status TraverseMerged(const std::string& name,
                              const std::function<void(const std::string&)>& visit);
  std::optional<unsigned> AgentDomainAt(std::string_view name) const;
  absl::StatusOr<PmID> BaseLookupName(std::string_view name);
  absl::StatusOr<std::vector<PmnsChild>> BaseChildren(std::string_view name);
  absl::Status BaseTraverse(std::string_view name,
                            const std::function<void(const std::string&)>& visit);
  absl::StatusOr<Result> FetchDerived(std::span<const PmID> ids, std::vector<PmID> list,
                                      int* state_change);
  absl::StatusOr<Result> FetchUntraced(std::span<const PmID> ids, int* state_change);
  // PCP's -Dfetch trace of a fetch's outcome (context_trace.cc).
  void TraceFetch(const absl::StatusOr<Result>& r);

  std::unique_ptr<Source> source_;
  std::unique_ptr<Profile> profile_;
  std::shared_ptr<const Pmns> loaded_names_;  // as given to UseNameSpace
  std::shared_ptr<const Pmns> names_;         // loaded_names_, maybe trimmed
  std::unique_ptr<derive::ContextDerived> derived_;
};

}  // namespace pmapi

#endif  // PMAPI_CONTEXT_H_
