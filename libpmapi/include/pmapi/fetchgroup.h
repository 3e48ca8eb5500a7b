// pmapi/fetchgroup.h: fetchgroups (PCP's pmFetchGroup family): register
// metrics once, then fetch, convert and read them as often as wanted.
//
// A FetchGroup owns a private Context. Each registration names a metric (an
// instance, a whole instance domain, or a field of an event metric), an
// optional scale ("rate", "instant" or a units expression) and the type the
// caller wants; Fetch() does one fetch of every registered metric and
// fills the outputs the registrations returned. Outputs are owned by the
// group and stay valid until Clear() or the group's destruction.
//
// The rules are PCP 6.0.3's:
//  - no scale: counters are rate converted; "rate" forces a rate, "instant"
//    forbids one; a units expression (pmParseUnitsStr) must have the
//    metric's dimensions, or its time dimension one lower, which means a
//    rate in those units;
//  - every numeric and string type casts to every other (numbers format as
//    "%d", "%u", "%.9e" for FLOAT, "%.17e" for DOUBLE and for anything
//    converted; strings parse as numbers with PCP's rules);
//  - an output in error holds the sentinel: all bits set for integers, NaN
//    for FLOAT and DOUBLE, null for STRING, zero for the timestamp; its
//    status holds the PCP error (PM_ERR_VALUE when the metric has no value,
//    PM_ERR_AGAIN for a rate with no previous sample);
//  - a whole-indom registration lists instances in ascending order, with
//    PM_ERR_TOOBIG past its capacity; a DISCRETE metric with no value in a
//    fetch keeps its last value (unless PCP_DISCRETE_ONCE is set);
//  - a decreasing counter is PM_ERR_VALUE unless PCP_COUNTER_WRAP is set,
//    which adds 2^32 or 2^64;
//  - event fields come record by record in temporal order, each with its
//    record's timestamp; they allow unit conversion but never a rate.
//
// Example:
//   absl::StatusOr<std::unique_ptr<pmapi::FetchGroup>> fg =
//       pmapi::FetchGroup::Create(pmapi::ContextKind::kArchive, "archives/small-v3");
//   if (!fg.ok()) return fg.status();
//   absl::StatusOr<pmapi::ArchiveLabel> label = (*fg)->context().GetArchiveLabel();
//   if (!label.ok()) return label.status();
//   absl::Status s = (*fg)->SetMode(pmapi::Mode::kInterp, label->start, absl::Seconds(1));
//   if (!s.ok()) return s;
//   absl::StatusOr<const pmapi::FetchGroupIndom*> reads =
//       (*fg)->AddIndom("disk.dev.read", std::nullopt, pmapi::kTypeDouble, 64);
//   if (!reads.ok()) return reads.status();
//   absl::StatusOr<int> n = (*fg)->Fetch();   // a counter: every instance is PM_ERR_AGAIN
//   if (n.ok()) n = (*fg)->Fetch();           // now rates
//   if (!n.ok()) return n.status();
//   for (const pmapi::FetchGroupInstance& i : (*reads)->instances) {
//     if (i.status == 0) { /* i.name, i.value.atom.d */ }
//   }
#ifndef PMAPI_FETCHGROUP_H_
#define PMAPI_FETCHGROUP_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/result.h"
#include "pmapi/types.h"

namespace pmapi {

// A converted value in the registered type. For kTypeString the text is in
// atom.bytes and `null` marks the sentinel (PCP's NULL pointer).
struct FetchGroupValue {
  AtomValue atom;
  bool null = false;
};

// The output of an AddItem registration. As in PCP, a fetch that leaves a
// DISCRETE value alone (no value in the fetch) leaves its status alone
// too, so before any value was seen that is the initial 0.
struct FetchGroupItem {
  FetchGroupValue value;
  int status = 0;
};

// One instance of an AddIndom registration.
struct FetchGroupInstance {
  Inst inst = kInNull;
  // The instance's name, absent for a singular metric or an unknown one.
  std::optional<std::string> name;
  FetchGroupValue value;
  int status = kErrValue;
};

// The output of an AddIndom registration: the instances of the last fetch,
// ascending by identifier, at most `maxnum` of them.
struct FetchGroupIndom {
  std::vector<FetchGroupInstance> instances;
  unsigned maxnum = 0;
  int status = 0;
};

// One field value of an AddEvent registration, with its record's time.
struct FetchGroupEventField {
  int64_t sec = 0;
  int64_t nsec = 0;
  FetchGroupValue value;
  int status = kErrValue;
};

struct FetchGroupEvent {
  std::vector<FetchGroupEventField> fields;
  unsigned maxnum = 0;
  int status = 0;
};

// The time of the last fetch: zero before the first; after a failed fetch
// the time of the failure, as PCP gives it.
struct FetchGroupTimestamp {
  int64_t sec = 0;
  int64_t nsec = 0;
};

// Behaviour PCP takes from the environment when a fetchgroup is made.
struct FetchGroupOptions {
  bool counter_wrap = false;   // PCP_COUNTER_WRAP set
  bool discrete_once = false;  // PCP_DISCRETE_ONCE set
  // Returns the options the environment asks for.
  [[nodiscard]] static FetchGroupOptions FromEnvironment();
};

class FetchGroup {
 public:
  // Returns a group over a new context of `kind` for `source`, opened by
  // Context::Open: ContextKind::kHost (a host spec), ContextKind::kArchive (an archive
  // spec) or ContextKind::kLocal (`source` ignored). Errors: the context's own
  // error; PM_ERR_NOCONTEXT for any other kind.
  static absl::StatusOr<std::unique_ptr<FetchGroup>> Create(ContextKind kind, std::string_view source);
  // Returns a group that owns `ctx`. Options default to the environment's.
  [[nodiscard]] static std::unique_ptr<FetchGroup> FromContext(Context ctx);
  [[nodiscard]] static std::unique_ptr<FetchGroup> FromContext(Context ctx,
                                                               const FetchGroupOptions& options);

  FetchGroup(const FetchGroup&) = delete;
  FetchGroup& operator=(const FetchGroup&) = delete;
  ~FetchGroup();

  // The private context, for settings before registration begins.
  [[nodiscard]] Context& context() { return ctx_; }
  // Sets the context's mode (as Context::SetMode), remembering it so that
  // a registration that retries its lookup at the archive's end can
  // return to it. Drops the rate reference, as the step is broken.
  absl::Status SetMode(Mode mode, absl::Time when, absl::Duration delta);

  // Registers one value: `instance` (a name) is required exactly when the
  // metric has an instance domain. Returns the output, valid until Clear().
  // Errors: PM_ERR_NAME..., PM_ERR_INDOM (instance given or missing
  // wrongly), PM_ERR_INST/INST_LOG, PM_ERR_TYPE (an aggregate or event
  // metric, or an unsupported out_type), PM_ERR_CONV / PCP's parse error
  // for a bad scale.
  absl::StatusOr<const FetchGroupItem*> AddItem(std::string_view metric,
                                                std::optional<std::string_view> instance,
                                                std::optional<std::string_view> scale,
                                                int out_type);
  // Registers every instance of a metric (a singular metric gives one
  // unnamed instance); at most `maxnum` are reported.
  absl::StatusOr<const FetchGroupIndom*> AddIndom(std::string_view metric,
                                                  std::optional<std::string_view> scale,
                                                  int out_type, unsigned maxnum);
  // Registers a field (a singular metric) of the records of an event
  // metric. A scale that means a rate is PM_ERR_CONV.
  absl::StatusOr<const FetchGroupEvent*> AddEvent(std::string_view metric,
                                                  std::optional<std::string_view> instance,
                                                  std::string_view field,
                                                  std::optional<std::string_view> scale,
                                                  int out_type, unsigned maxnum);
  [[nodiscard]] const FetchGroupTimestamp* AddTimestamp();

  // Fetches every registered metric once and fills the outputs. Returns
  // what the fetch returned (>= 0) or the fetch's error; in both cases
  // every output holds a value or a sentinel and its own status.
  absl::StatusOr<int> Fetch();

  // Forgets every registration and the rate reference; instance domains
  // that were registered are excluded from the profile again. The context
  // keeps its mode and position.
  absl::Status Clear();

  struct Conversion;
  struct Entry;

 private:
  FetchGroup(Context ctx, const FetchGroupOptions& options);

  absl::StatusOr<PmID> LookupMetric(std::string_view metric, Desc* desc);
  absl::StatusOr<Inst> LookupInstance(const Desc& desc, std::optional<std::string_view> instance);
  absl::Status RetryAtEnd(const std::function<absl::Status()>& lookup);
  void AddPmid(PmID id);
  absl::Status NarrowProfile();

  void FetchItem(Entry& e, const Result& r);
  void FetchIndom(Entry& e, const Result& r);
  void FetchEvent(Entry& e, const Result& r);

  Context ctx_;
  FetchGroupOptions options_;
  std::vector<std::unique_ptr<Entry>> entries_;
  std::vector<PmID> pmids_;
  std::optional<Result> previous_;
  // Registered instances per indom; an empty list means every instance.
  std::vector<std::pair<InDom, std::vector<Inst>>> profile_;
  Mode mode_ = Mode::kForw;
  std::optional<absl::Time> origin_;
  absl::Duration delta_;
};

}  // namespace pmapi

#endif  // PMAPI_FETCHGROUP_H_
