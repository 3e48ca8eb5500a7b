#include "origin.h"

#include "absl/strings/str_cat.h"
#include "pmapi/errors.h"
#include "pmapi/interval.h"

namespace pmtools {

absl::StatusOr<absl::Time> ResolveOrigin(pmapi::Context& ctx, const std::string& text) {
  absl::StatusOr<pmapi::ArchiveLabel> label = ctx.GetArchiveLabel();
  if (!label.ok()) return label.status();
  absl::Time start = absl::FromUnixNanos(label->start.nanos());
  if (text.empty()) return start;
  if (text[0] != '+' && text[0] != '-') {
    return pmapi::PcpErrorWithMessage(pmapi::kErrGeneric,
                                      absl::StrCat("Invalid origin \"", text, "\"\n"));
  }
  absl::StatusOr<absl::Duration> offset = pmapi::ParseInterval(text.substr(1));
  if (!offset.ok()) {
    return pmapi::PcpErrorWithMessage(pmapi::kErrGeneric, std::string(offset.status().message()));
  }
  if (text[0] == '+') return start + *offset;
  absl::StatusOr<absl::Time> end = ctx.GetArchiveEnd();
  if (!end.ok()) return end.status();
  return *end - *offset;
}

}  // namespace pmtools
