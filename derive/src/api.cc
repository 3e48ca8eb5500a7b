// The C++ interface to global derived metrics, and PCP's error texts.
#include <cstdlib>

#include "messages.h"
#include "pmapi/derived.h"
#include "pmapi/errors.h"
#include "registry.h"

namespace pmapi {
namespace derive {
namespace {

// The caret line: PCP prints a blank padded to the error's offset (at least
// one), or no blank when the offset is 0.
std::string Caret(int offset) {
  if (offset == 0) return "^";
  return std::string(static_cast<size_t>(std::abs(offset)), ' ') + "^";
}

std::string Reason() {
  const std::optional<std::string>& why = LastError();
  return why.has_value() ? *why + "\n" : std::string();
}

}  // namespace

std::string RegisterMessage(std::string_view name, std::string_view expr, int offset) {
  return "Error: pmRegisterDerivedMetric(\"" + std::string(name) + "\", ...)\n" +
         std::string(expr) + "\n" + Caret(offset) + "\n" + Reason();
}

std::string AddMessage(std::string_view name, std::string_view expr, const AddOutcome& out) {
  if (out.kind == AddOutcome::kPmapi) {
    return "Error: pmAddDerivedMetric(\"" + std::string(name) +
           "\", ...): returns " + std::to_string(out.code) + "\n" + Reason();
  }
  const char* kind = out.kind == AddOutcome::kSyntax ? "Syntax" : "Semantic";
  return std::string(kind) + " Error: pmAddDerivedMetric(\"" + std::string(name) +
         "\", ...)\n" + std::string(expr) + "\n" + Caret(out.offset) + "\n" + Reason();
}

}  // namespace derive

absl::Status RegisterDerived(std::string_view name, std::string_view expr) {
  std::optional<int> err = derive::Registry::Get().Register(name, expr);
  if (!err.has_value()) return absl::OkStatus();
  return PcpErrorWithMessage(kErrBadderive, derive::RegisterMessage(name, expr, *err));
}

absl::StatusOr<int> LoadDerivedConfig(std::string_view path) {
  int n = derive::Registry::Get().LoadConfig(path);
  if (n < 0) return PcpError(n);
  return n;
}

std::optional<std::string> DerivedErrStr() { return derive::LastError(); }

int DerivedGlobalLimit() { return derive::Registry::Get().limit(); }

void SetDerivedGlobalLimit(int limit) { derive::Registry::Get().set_limit(limit); }

}  // namespace pmapi
