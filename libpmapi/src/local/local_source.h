// local_source.h: the Source of a local context, answering every request
// from agents hosted in this process.
//
// Each request is routed by the domain in its PMID or instance domain to
// the agent configured for that domain; names come from a Pmns built from
// the agents' namespace files, with dynamic subtrees handed to their
// agents. Calls into a shared-object agent are serialised per shared
// object, because an agent library need not be thread safe.
#ifndef PMAPI_SRC_LOCAL_SOURCE_H_
#define PMAPI_SRC_LOCAL_SOURCE_H_

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "pmapi/pmda.h"
#include "pmapi/pmns.h"
#include "pmda_config.h"
#include "source.h"

namespace pmapi {

// A shared object an agent came from; shared by every context using it.
struct DsoLibrary;

// Sets the number the local context opened next on this thread is known
// by to its agents (pmdaGetContext, e_context): the C API's handle for it,
// as PCP numbers them; -1 clears it. Without one, local contexts are
// numbered from 0 in the order opened.
void SetOpeningContextNumber(int number);

class LocalSource : public Source {
 public:
  // Loads the agents `specs` lists; those that fail are left out with a
  // message in *warnings.
  static std::unique_ptr<LocalSource> Create(const std::vector<AgentSpec>& specs,
                                             const std::string& config_dir,
                                             std::vector<std::string>* warnings);
  ~LocalSource() override;

  ContextKind kind() const override { return ContextKind::kLocal; }
  std::string HostName() override;

  absl::StatusOr<PmID> LookupName(std::string_view name) override;
  absl::StatusOr<std::vector<std::string>> NameAll(PmID id) override;
  absl::StatusOr<std::vector<PmnsChild>> Children(std::string_view name) override;
  absl::Status Traverse(std::string_view name,
                        const std::function<void(const std::string&)>& visit) override;
  absl::StatusOr<PmID> LookupAgentName(std::string_view name, unsigned domain) override;
  absl::StatusOr<std::vector<PmnsChild>> AgentChildren(std::string_view name, unsigned domain) override;
  absl::Status TraverseAgent(std::string_view name, unsigned domain,
                             const std::function<void(const std::string&)>& visit) override;

  absl::StatusOr<Desc> LookupDesc(PmID id) override;
  absl::StatusOr<std::vector<Instance>> GetInDom(InDom indom) override;
  absl::StatusOr<std::string> NameInDom(InDom indom, Inst inst) override;
  absl::StatusOr<Inst> LookupInDom(InDom indom, std::string_view name) override;
  absl::StatusOr<std::string> LookupText(uint32_t ident, int kind) override;
  absl::StatusOr<std::vector<LabelSet>> LookupLabels(int level, uint32_t ident) override;

  absl::StatusOr<Result> Fetch(std::span<const PmID> ids, const Profile& profile,
                               int* state_change) override;
  absl::Status Store(const Result& values) override;

  // Returns the domains with a loaded agent, in configuration order.
  std::vector<int> Domains() const;

 private:
  struct Agent {
    std::string name;
    std::unique_ptr<Pmda> pmda;
    std::shared_ptr<DsoLibrary> dso;
    // Held for every call into the agent (a no-op lock for built-ins).
    std::unique_lock<std::mutex> Lock();
  };

  LocalSource() = default;
  void Load(const AgentSpec& spec, const std::string& config_dir, std::vector<std::string>* warnings);
  // The default name space's names of the domains no agent here serves.
  void AddUnservedDefaultNames();
  // The default name space, read the first time it is needed.
  const absl::StatusOr<Pmns>& DefaultNames();
  std::optional<absl::StatusOr<Pmns>> default_names_;
  Agent* AgentFor(unsigned domain);
  // Visits the names agent `domain` serves below `path`, depth first, one
  // level of children at a time; returns how many it visited.
  absl::StatusOr<int> TraverseAgentLevel(const std::string& path, unsigned domain, int depth,
                                         const std::function<void(const std::string&)>& visit);
  absl::StatusOr<PmdaInResult> Instances(InDom indom, Inst inst, const std::string* name);
  // Fetches the ids of one agent into *out (one set per id).
  void FetchFrom(Agent* agent, std::span<const PmID> ids, const Profile& profile, Result* out,
                 int* state_change);
  absl::StatusOr<std::vector<LabelSet>> ContextLabels();

  std::vector<std::unique_ptr<Agent>> agents_;
  int client_context_ = 0;  // the number its agents know this context by
  Pmns names_ = Pmns::ForAgents();
};

}  // namespace pmapi

#endif  // PMAPI_SRC_LOCAL_SOURCE_H_
