#include "local_pmda_spec.h"

#include "absl/status/status.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

absl::Status Bad(const char* why) { return absl::InvalidArgumentError(why); }

// Reads the leading decimal number of `s` as strtol does (sign allowed);
// *used is how many characters it took (0 if none).
long LeadingNumber(std::string_view s, size_t* used) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  size_t digits = i;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
  if (digits == i) {
    *used = 0;
    return 0;
  }
  long value = 0;
  for (size_t k = i; k < digits; ++k) {
    value = value > 100000 ? value : value * 10 + (s[k] - '0');
  }
  *used = digits;
  return s[0] == '-' ? -value : value;
}

// The fields after "add," or "del,": DOMAIN, then PATH and INIT.
absl::StatusOr<LocalPmdaOp> ParseFields(LocalPmdaOp op, std::string_view rest) {
  const bool del = op.kind == LocalPmdaOp::kDel;
  if (rest.empty()) return Bad("missing domain in spec");
  if (rest[0] != ',') {
    size_t used = 0;
    long domain = LeadingNumber(rest, &used);
    rest.remove_prefix(used);
    if ((!rest.empty() && rest[0] != ',') || domain < 0 || domain > 510) {
      return Bad("bad domain in spec");
    }
    op.domain = static_cast<int>(domain);
    if (!rest.empty()) rest.remove_prefix(1);
  } else {
    if (!del) return Bad("missing domain in spec");
    rest.remove_prefix(1);
  }
  if (!rest.empty() && rest[0] == ',') {
    op.init = std::string(rest.substr(1));  // no path, maybe an init
  } else if (!rest.empty()) {
    size_t comma = rest.find(',');
    op.path = std::string(rest.substr(0, comma));
    if (comma != std::string_view::npos) op.init = std::string(rest.substr(comma + 1));
    if (op.init.empty() && !del) return Bad("missing init-routine in spec");
  } else if (!del) {
    return Bad("missing dso-path in spec");
  }
  if (op.domain == -1 && op.path.empty()) return Bad("missing domain and dso-path in spec");
  return op;
}

}  // namespace

absl::StatusOr<LocalPmdaOp> ParseLocalPmdaSpec(std::string_view spec) {
  LocalPmdaOp op;
  if (spec.starts_with("add")) {
    op.kind = LocalPmdaOp::kAdd;
    spec.remove_prefix(3);
  } else if (spec.starts_with("del")) {
    op.kind = LocalPmdaOp::kDel;
    spec.remove_prefix(3);
  } else if (spec.starts_with("clear")) {
    op.kind = LocalPmdaOp::kClear;
    if (spec.size() != 5) return Bad("unexpected text after clear op in spec");
    return op;
  } else {
    return Bad("bad op in spec");
  }
  if (spec.empty() || spec[0] != ',') return Bad("expected , after op in spec");
  return ParseFields(op, spec.substr(1));
}

}  // namespace pmapi
