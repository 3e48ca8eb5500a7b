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

  virtual int kind() const = 0;
  virtual std::string HostName() = 0;

  virtual absl::StatusOr<PmID> LookupName(std::string_view name) = 0;
  virtual absl::StatusOr<std::vector<std::string>> NameAll(PmID id) = 0;
  virtual absl::StatusOr<std::vector<PmnsChild>> Children(std::string_view name) = 0;
  virtual absl::Status Traverse(std::string_view name,
                                const std::function<void(const std::string&)>& visit) = 0;

  virtual absl::StatusOr<Desc> LookupDesc(PmID id) = 0;
  virtual absl::StatusOr<std::vector<Instance>> GetInDom(InDom indom) = 0;
  virtual absl::StatusOr<std::string> NameInDom(InDom indom, int32_t inst) = 0;
  virtual absl::StatusOr<int32_t> LookupInDom(InDom indom, std::string_view name) = 0;
  // `kind` combines kTextOneline/kTextHelp with kTextPmid or kTextInDom.
  virtual absl::StatusOr<std::string> LookupText(uint32_t ident, int kind) = 0;
  virtual absl::StatusOr<std::vector<LabelSet>> LookupLabels(int level, uint32_t ident) = 0;

  virtual absl::Status SetMode(int mode, absl::Time when, absl::Duration delta) {
    (void)when;
    (void)delta;
    return mode == kModeLive ? absl::OkStatus() : PcpError(kErrMode);
  }
  virtual absl::StatusOr<Result> Fetch(std::span<const PmID> ids, const Profile& profile,
                                       int* state_change) = 0;
  virtual absl::StatusOr<Result> FetchArchive() { return PcpError(kErrNotarchive); }
  virtual absl::Status Store(const Result& values) {
    (void)values;
    return PcpError(kErrNothost);
  }
  virtual absl::StatusOr<ArchiveLabel> GetArchiveLabel() { return PcpError(kErrNotarchive); }
  virtual absl::StatusOr<absl::Time> GetArchiveEnd() { return PcpError(kErrNotarchive); }
  virtual absl::StatusOr<std::vector<Instance>> GetInDomArchive(InDom indom) {
    (void)indom;
    return PcpError(kErrNotarchive);
  }
};

}  // namespace pmapi

#endif  // PMAPI_SRC_SOURCE_H_
