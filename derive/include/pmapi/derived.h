// pmapi/derived.h: derived metrics (PCP's pmRegisterDerived(3) family):
// metrics defined by an expression over other metrics, evaluated by the
// library at fetch time.
//
// Global derived metrics are registered for the whole process and appear in
// every context opened after (and, on their next use, before) their
// registration; a context may also have its own (Context::AddDerived).
// Unless PCP_DERIVED_CONFIG says otherwise, the library loads PCP's default
// configuration ($PCP_VAR_DIR/config/derived) the first time a context is
// opened; PCP_DERIVED_CONFIG set empty loads none, and otherwise names
// ':'-separated files and directories to load instead. See docs/derived.md.
//
// Example:
//   #include "pmapi/context.h"
//   absl::Status s = pmapi::RegisterDerived("my.ratio", "disk.all.read / disk.all.total");
//   if (!s.ok()) std::cerr << s.message();      // PCP's text, with a caret line
//   absl::StatusOr<pmapi::Context> ctx = pmapi::Context::OpenArchive("archives/small-v3");
//   if (!ctx.ok()) return ctx.status();
//   absl::StatusOr<pmapi::PmID> id = ctx->LookupName("my.ratio");   // 511.0.N
#ifndef PMAPI_DERIVED_H_
#define PMAPI_DERIVED_H_

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace pmapi {

// Registers a global derived metric. On failure the status carries
// PM_ERR_BADDERIVE and pmRegisterDerivedMetric's message: the expression,
// a caret under the offending token and PCP's reason.
absl::Status RegisterDerived(std::string_view name, std::string_view expr);

// Loads definitions from ':'-separated files and directories
// (pmLoadDerivedConfig); returns how many metrics were registered.
absl::StatusOr<int> LoadDerivedConfig(std::string_view path);

// The reason for the calling thread's last failed registration or bind
// (pmDerivedErrStr), if any.
[[nodiscard]] std::optional<std::string> DerivedErrStr();

// The most global derived metrics allowed (-1: no limit), as
// pmGetDerivedControl/pmSetDerivedControl(PCP_DERIVED_GLOBAL_LIMIT).
[[nodiscard]] int DerivedGlobalLimit();
void SetDerivedGlobalLimit(int limit);

}  // namespace pmapi

#endif  // PMAPI_DERIVED_H_
