// source.h: the interface every source of metrics implements (a pmcd host,
// an archive, agents hosted in-process). A Context forwards to its Source;
// the Context keeps the instance profile and passes it to Fetch.
#ifndef PMAPI_SRC_SOURCE_H_
#define PMAPI_SRC_SOURCE_H_

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/profile.h"
#include "pmapi/result.h"

namespace pmapi {

class Source {
 public:
  virtual ~Source() = default;

  virtual ContextKind kind() const = 0;
  virtual std::string HostName() = 0;

  virtual absl::StatusOr<PmID> LookupName(std::string_view name) = 0;
  // Looks up many names; one result per name, in order. A source that can
  // ask for many at once (a pmcd) overrides this one-by-one form.
  virtual std::vector<absl::StatusOr<PmID>> LookupNames(std::span<const std::string> names) {
    std::vector<absl::StatusOr<PmID>> out;
    out.reserve(names.size());
    for (const std::string& n : names) out.push_back(LookupName(n));
    return out;
  }
  virtual absl::StatusOr<std::vector<std::string>> NameAll(PmID id) = 0;
  virtual absl::StatusOr<std::vector<PmnsChild>> Children(std::string_view name) = 0;
  virtual absl::Status Traverse(std::string_view name,
                                const std::function<void(const std::string&)>& visit) = 0;
  // Names at and below a dynamic node of a name space the context loaded,
  // whose subtree agent `domain` serves: a local context asks that agent,
  // whatever names of its own it has; other sources answer as above.
  virtual absl::StatusOr<PmID> LookupAgentName(std::string_view name, unsigned domain) {
    (void)domain;
    return LookupName(name);
  }
  virtual absl::StatusOr<std::vector<PmnsChild>> AgentChildren(std::string_view name, unsigned domain) {
    (void)domain;
    return Children(name);
  }
  virtual absl::Status TraverseAgent(std::string_view name, unsigned domain,
                                     const std::function<void(const std::string&)>& visit) {
    (void)domain;
    return Traverse(name, visit);
  }

  virtual absl::StatusOr<Desc> LookupDesc(PmID id) = 0;
  // Returns the descriptors of `ids` in order; a source that can ask for
  // many at once (a pmcd offering DESCS) overrides this one-by-one form.
  // The first id that cannot be described fails the whole call.
  virtual absl::StatusOr<std::vector<Desc>> LookupDescs(std::span<const PmID> ids) {
    std::vector<Desc> out;
    out.reserve(ids.size());
    for (PmID id : ids) {
      absl::StatusOr<Desc> d = LookupDesc(id);
      if (!d.ok()) return d.status();
      out.push_back(*d);
    }
    return out;
  }
  virtual absl::StatusOr<std::vector<Instance>> GetInDom(InDom indom) = 0;
  virtual absl::StatusOr<std::string> NameInDom(InDom indom, Inst inst) = 0;
  virtual absl::StatusOr<Inst> LookupInDom(InDom indom, std::string_view name) = 0;
  // `kind` combines kTextOneline/kTextHelp with kTextPmid or kTextInDom.
  virtual absl::StatusOr<std::string> LookupText(uint32_t ident, int kind) = 0;
  virtual absl::StatusOr<std::vector<LabelSet>> LookupLabels(int level, uint32_t ident) = 0;

  virtual absl::Status SetMode(Mode mode, absl::Time when, absl::Duration delta) {
    (void)when;
    (void)delta;
    return mode == Mode::kLive ? absl::OkStatus() : PcpError(kErrMode);
  }
  virtual absl::StatusOr<Result> Fetch(std::span<const PmID> ids, const Profile& profile,
                                       int* state_change) = 0;
  virtual absl::StatusOr<Result> FetchArchive() { return PcpError(kErrNotarchive); }
  // Takes back a result of Fetch the caller is done with, whose buffers
  // may serve a later fetch (dropped by default).
  virtual void Recycle(Result&& spent) { (void)spent; }
  virtual absl::Status Store(const Result& values) {
    (void)values;
    return PcpError(kErrNothost);
  }
  // Re-establishes the connection of a source that has one (a pmcd);
  // nothing to do for the others.
  virtual absl::Status Reconnect() { return absl::OkStatus(); }
  virtual absl::StatusOr<ArchiveLabel> GetArchiveLabel() { return PcpError(kErrNotarchive); }
  virtual absl::StatusOr<absl::Time> GetArchiveEnd() { return PcpError(kErrNotarchive); }
  virtual absl::StatusOr<std::vector<Instance>> GetInDomArchive(InDom indom) {
    (void)indom;
    return PcpError(kErrNotarchive);
  }
  // The earliest cluster label sets of `cluster` (a PMID with item 0).
  virtual absl::StatusOr<std::vector<LabelSet>> ArchiveClusterLabels(PmID cluster) {
    (void)cluster;
    return PcpError(kErrNotarchive);
  }
};

}  // namespace pmapi

#endif  // PMAPI_SRC_SOURCE_H_
