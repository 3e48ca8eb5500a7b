// pmapi/pmda.h: writing a performance metrics domain agent (PMDA) that a
// local context hosts in-process.
//
// An agent describes its metrics and instance domains in tables, and the
// library answers descriptor, instance, fetch, text, label and store
// requests from those tables, calling back into the agent only for values
// (and for whatever it chooses to override). The rules are PCP's
// libpcp_pmda rules: pmdaDSO then pmdaInit, the domain written into every
// PMID and instance domain at init, the fetch callback's return codes, the
// profile deciding which instances a fetch returns, the default store
// refusing with PM_ERR_PERMISSION.
//
// Example (PCP's "trivial" agent):
//   #include "pmapi/errors.h"       // kErrPmid, kErrInst
//   void TrivialInit(pmapi::Pmda& dp) {
//     dp.Dso(pmapi::kPmdaInterface2, "trivial DSO", "");
//     if (dp.status() != 0) return;
//     dp.SetFetchCallback([](const pmapi::PmdaMetric& m, pmapi::Inst inst,
//                            pmapi::AtomValue* atom) {
//       if (pmapi::PmIDCluster(m.desc.pmid) != 0 || pmapi::PmIDItem(m.desc.pmid) != 1)
//         return pmapi::kErrPmid;
//       if (inst != pmapi::kInNull) return pmapi::kErrInst;
//       atom->ul = static_cast<uint32_t>(time(nullptr));
//       return 1;
//     });
//     dp.Init({}, {{nullptr, {pmapi::PmdaPmid(0, 1), pmapi::kTypeU32, pmapi::kInDomNull,
//                            pmapi::kSemInstant, pmapi::Units{0, 1, 0, 0, pmapi::kTimeSec, 0}}}});
//   }
//
// A shared-object agent exports `extern "C" void NAME_init(pmapi::Pmda*)`
// and the marker PMAPI_PMDA_EXPORT_ABI (below), and is listed in the local
// context's configuration file as `NAME DOMAIN dso NAME_init PATH`.
#ifndef PMAPI_PMDA_H_
#define PMAPI_PMDA_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pmapi/context.h"
#include "pmapi/label_set.h"
#include "pmapi/profile.h"
#include "pmapi/result.h"
#include "pmapi/types.h"

namespace pmapi {

// Interface versions (PMDA_INTERFACE_*). 3 gave the fetch callback its
// three-way return; 4 added dynamic names; 5 client contexts; 6 attributes;
// 7 labels.
inline constexpr int kPmdaInterface2 = 2;
inline constexpr int kPmdaInterface3 = 3;
inline constexpr int kPmdaInterface4 = 4;
inline constexpr int kPmdaInterface5 = 5;
inline constexpr int kPmdaInterface6 = 6;
inline constexpr int kPmdaInterface7 = 7;
inline constexpr int kPmdaInterfaceLatest = 7;

// Fetch callback results (interface 5 and later): no value, a value the
// agent keeps, a value the library releases. Any value > 0 is a value.
inline constexpr int kPmdaFetchNoValues = 0;
inline constexpr int kPmdaFetchStatic = 1;
inline constexpr int kPmdaFetchDynamic = 2;

// pmdaExt.e_flags bits (PMDA_EXT_*).
inline constexpr unsigned kPmdaExtFlagDirect = 1u << 0;
inline constexpr unsigned kPmdaExtFlagHashed = 1u << 1;
inline constexpr unsigned kPmdaExtSetupDone = 1u << 2;
inline constexpr unsigned kPmdaExtConnected = 1u << 3;
inline constexpr unsigned kPmdaExtNotReady = 1u << 4;
inline constexpr unsigned kPmdaExtLabelChange = 1u << 5;
inline constexpr unsigned kPmdaExtNamesChange = 1u << 6;

// pmdaInterface.comm.flags bits (PMDA_FLAG_*).
inline constexpr unsigned kPmdaFlagAuthorize = 1u << 2;
inline constexpr unsigned kPmdaFlagContainer = 1u << 6;

// The pmFetch state-change bits a local context reports (kPmcdNamesChange,
// kPmcdLabelChange) are context.h's.

// The value a shared-object agent exports as `pmapi_pmda_abi` so the loader
// knows its init function takes a pmapi::Pmda*.
inline constexpr int kPmdaAbiVersion = 1;
#define PMAPI_PMDA_EXPORT_ABI \
  extern "C" { __attribute__((visibility("default"))) int pmapi_pmda_abi = ::pmapi::kPmdaAbiVersion; }

// Returns a PMID with domain 0: pmdaInit writes the agent's domain in
// (PMDA_PMID).
[[nodiscard]] inline constexpr PmID PmdaPmid(unsigned cluster, unsigned item) {
  return MakePmID(0, cluster, item);
}

// Returns an instance domain with domain 0, as a table names it before
// Init writes the agent's domain in.
[[nodiscard]] inline constexpr InDom PmdaInDom(unsigned serial) { return MakeInDom(0, serial); }

// One instance of a static instance domain (pmdaInstid).
struct PmdaInstid {
  Inst inst{};
  std::string name;
};

// An instance domain (pmdaIndom). Before Init, `indom` holds the serial
// number only; Init makes it the full identifier.
struct PmdaIndom {
  InDom indom{};
  std::vector<PmdaInstid> set;
};

// A metric (pmdaMetric). Before Init, desc.indom holds the serial of the
// metric's instance domain (or kInDomNull); Init makes it the full
// identifier and writes the domain into desc.pmid.
struct PmdaMetric {
  void* user = nullptr;
  Desc desc;
};

// The answer to an instance request (__pmInResult): for "all instances",
// both lists; given an instance, just its name; given a name, just its
// instance.
struct PmdaInResult {
  InDom indom = kInDomNull;
  std::vector<Inst> insts;
  std::vector<std::string> names;
};

// An instance domain kept outside the static tables (a pmdaCache indom, for
// example). The library asks the source first; an indom it Handles() is
// read from it instead of from the tables.
class PmdaIndomSource {
 public:
  virtual ~PmdaIndomSource() = default;
  // Returns true if `indom` is kept here.
  [[nodiscard]] virtual bool Handles(InDom indom) const = 0;
  // Returns the active instances of `indom`, in walk order.
  [[nodiscard]] virtual std::vector<PmdaInstid> Active(InDom indom) const = 0;
};

class Pmda;

// Gives the value of one metric instance (pmdaFetchCallBack). `inst` is
// kInNull for a singular metric. Returns < 0 for an error
// (PM_ERR_PMID, PM_ERR_INST, PM_ERR_AGAIN ...), 0 for "no value now" (and,
// before interface 3, success), > 0 for a value.
using PmdaFetchCallback =
    std::function<int(const PmdaMetric& metric, Inst inst, AtomValue* atom)>;

// Fills the labels of one instance (pmdaLabelCallBack). Returns the number
// of labels in *labels, 0 for none, < 0 for an error.
using PmdaLabelCallback = std::function<int(InDom indom, Inst inst, LabelSet* labels)>;

// The request handlers (the pmdaInterface callbacks). Dso() fills each with
// the library's default; an agent may replace any of them and call the
// default (Pmda::Default*) from its own.
struct PmdaDispatch {
  std::function<absl::Status(const Profile& profile, Pmda& pmda)> profile;
  // Appends one value set per id, in order, to *result.
  std::function<absl::Status(std::span<const PmID> ids, Result* result, Pmda& pmda)> fetch;
  std::function<absl::StatusOr<Desc>(PmID id, Pmda& pmda)> desc;
  // `name` null: by instance (kInNull: all instances); otherwise by name.
  std::function<absl::StatusOr<PmdaInResult>(InDom indom, Inst inst, const std::string* name,
                                             Pmda& pmda)>
      instance;
  // `type` combines kTextOneline/kTextHelp with kTextPmid/kTextInDom.
  std::function<absl::StatusOr<std::string>(uint32_t ident, int type, Pmda& pmda)> text;
  std::function<absl::Status(const Result& values, Pmda& pmda)> store;
  // Dynamic names (interface 4): name to PMID, PMID to names, and the
  // children of a node (traverse: every leaf below, by full name).
  std::function<absl::StatusOr<PmID>(std::string_view name, Pmda& pmda)> pmid;
  std::function<absl::StatusOr<std::vector<std::string>>(PmID id, Pmda& pmda)> name;
  std::function<absl::StatusOr<std::vector<PmnsChild>>(std::string_view name, bool traverse,
                                                        Pmda& pmda)>
      children;
  // Labels (interface 7): `type` is one kLabel* level; `ident` a domain,
  // indom, PMID, or (kLabelInstances) indom.
  std::function<absl::StatusOr<std::vector<LabelSet>>(uint32_t ident, int type, Pmda& pmda)> label;
};

// How Init maps a PMID to its metric table entry.
enum class PmdaMetricLookup { kDirect, kLinear, kHashed };

class HelpFile;

// One agent: the equivalent of PCP's pmdaInterface with its pmdaExt.
class Pmda {
 public:
  // The host sets the domain from its configuration before calling the
  // agent's init function.
  explicit Pmda(int domain);
  ~Pmda();
  Pmda(const Pmda&) = delete;
  Pmda& operator=(const Pmda&) = delete;

  // pmdaDSO: records the interface version, name and help text path (empty:
  // none; "$VAR" and "${VAR}" are expanded from the environment) and fills
  // every handler with its default. Sets status() to PM_ERR_GENERIC for an
  // unsupported interface version.
  void Dso(int interface, std::string name, std::string help_path);

  // pmdaInit: takes the tables, writes the domain into every indom and
  // PMID, checks each metric's indom serial is in the table, loads the help
  // text, and chooses the PMID lookup. On a fatal error status() < 0.
  // REQUIRES: Dso() called.
  void Init(std::vector<PmdaIndom> indoms, std::vector<PmdaMetric> metrics);
  // pmdaRehash: replaces the metric table (domain written in) and rebuilds
  // the lookup, for agents whose metrics appear at run time.
  void Rehash(std::vector<PmdaMetric> metrics);

  void SetFlags(unsigned flags);      // pmdaSetFlags / pmdaExtSetFlags
  void SetCommFlags(unsigned flags);  // pmdaSetCommFlags
  void SetData(void* data) { data_ = data; }  // pmdaSetData
  [[nodiscard]] void* data() const { return data_; }        // pmdaExtGetData
  void SetFetchCallback(PmdaFetchCallback cb) { fetch_callback_ = std::move(cb); }
  void SetLabelCallback(PmdaLabelCallback cb) { label_callback_ = std::move(cb); }
  // Plugs in an out-of-table instance domain keeper (not owned).
  void SetIndomSource(const PmdaIndomSource* source) { indom_source_ = source; }
  // The host's name space, used to resolve metric names in help files.
  void SetNameResolver(std::function<absl::StatusOr<PmID>(std::string_view)> resolve) {
    resolve_name_ = std::move(resolve);
  }
  // The agent's directory (a built-in agent's directory from the
  // configuration line, or the directory of a shared object), for its
  // help and data files.
  void set_home(std::string dir) { home_ = std::move(dir); }
  [[nodiscard]] const std::string& home() const { return home_; }
  // Called on every pmdaInit-time diagnostic (pmNotifyErr); default: kept
  // in diagnostics().
  [[nodiscard]] const std::vector<std::string>& diagnostics() const { return diagnostics_; }
  void Notify(std::string message) { diagnostics_.push_back(std::move(message)); }

  [[nodiscard]] int domain() const { return domain_; }
  [[nodiscard]] int interface() const { return interface_; }
  [[nodiscard]] int status() const { return status_; }
  void set_status(int status) { status_ = status; }
  [[nodiscard]] unsigned flags() const { return flags_; }
  [[nodiscard]] unsigned comm_flags() const { return comm_flags_; }
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] PmdaMetricLookup metric_lookup() const { return lookup_; }
  [[nodiscard]] PmdaDispatch& dispatch() { return dispatch_; }
  [[nodiscard]] std::vector<PmdaIndom>& indoms() { return indoms_; }
  [[nodiscard]] const std::vector<PmdaMetric>& metrics() const { return metrics_; }
  // Returns and clears the PMCD_*_CHANGE bits raised by SetFlags.
  [[nodiscard]] int TakeStateChanges();

  // Returns the table entry of `indom`, or null.
  [[nodiscard]] PmdaIndom* FindIndom(InDom indom);
  // Returns the table entry of `id` by the chosen lookup, or null.
  [[nodiscard]] const PmdaMetric* FindMetric(PmID id) const;
  // Returns the instances of `indom` the current profile admits, in table
  // (or source walk) order; PM_ERR_INDOM if the indom is unknown.
  absl::StatusOr<std::vector<Inst>> ProfileInstances(InDom indom) const;
  [[nodiscard]] const Profile* profile() const { return profile_; }

  // The library's handlers (pmdaProfile, pmdaFetch, pmdaDesc,
  // pmdaInstance, pmdaText, pmdaStore, pmdaPMID, pmdaName, pmdaChildren,
  // pmdaLabel).
  absl::Status DefaultProfile(const Profile& profile);
  absl::Status DefaultFetch(std::span<const PmID> ids, Result* result);
  absl::StatusOr<Desc> DefaultDesc(PmID id);
  absl::StatusOr<PmdaInResult> DefaultInstance(InDom indom, Inst inst, const std::string* name);
  absl::StatusOr<std::string> DefaultText(uint32_t ident, int type);
  absl::Status DefaultStore(const Result& values);
  absl::StatusOr<std::vector<LabelSet>> DefaultLabel(uint32_t ident, int type);

 private:
  std::vector<PmdaInstid> InstancesOf(const PmdaIndom* table, InDom indom) const;
  // Appends the instances of `indom` the profile admits to *out; false if
  // the indom is unknown.
  bool AdmittedInstances(InDom indom, std::vector<Inst>* out) const;
  void ChooseLookup();
  void LoadHelp();
  // Appends the value set of one metric to *result.
  void FetchOne(PmID id, Result* result);

  int domain_;
  int interface_ = 0;
  int status_ = 0;
  unsigned flags_ = 0;
  unsigned comm_flags_ = 0;
  int state_changes_ = 0;
  bool initialised_ = false;
  void* data_ = nullptr;
  std::string name_;
  std::string help_path_;
  std::string home_;
  std::unique_ptr<HelpFile> help_;
  std::vector<PmdaIndom> indoms_;
  std::vector<PmdaMetric> metrics_;
  PmdaMetricLookup lookup_ = PmdaMetricLookup::kLinear;
  absl::flat_hash_map<PmID, size_t> metric_index_;
  PmdaDispatch dispatch_;
  PmdaFetchCallback fetch_callback_;
  PmdaLabelCallback label_callback_;
  const PmdaIndomSource* indom_source_ = nullptr;
  const Profile* profile_ = nullptr;
  Profile all_;  // used until a profile arrives: everything admitted
  std::function<absl::StatusOr<PmID>(std::string_view)> resolve_name_;
  std::vector<std::string> diagnostics_;
};

// pmdaAddLabels: merges the pairs of the JSON object `json` into *labels
// (a name already there takes the new value). Returns PM_ERR_GENERIC (as
// ParseLabelSet does) for malformed JSON.
absl::Status PmdaAddLabels(LabelSet* labels, std::string_view json);

// Returns the value block payload a fetch stores for `atom` of `type` (the
// bytes after the block header; strings with their NUL), or PM_ERR_TYPE
// for a type that has no value block.
absl::StatusOr<std::string> PmdaValuePayload(const AtomValue& atom, int type);

}  // namespace pmapi

#endif  // PMAPI_PMDA_H_
