// Reconnection delays; see reconnect_backoff.h.
#include "reconnect_backoff.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <utility>

namespace pmapi {

std::vector<int> ParseReconnectBackoff(const char* text) {
  std::vector<int> out;
  if (text == nullptr) return out;
  const char* p = text;
  while (*p != '\0') {
    char* end = nullptr;
    errno = 0;
    long v = std::strtol(p, &end, 10);
    if (end == p || v <= 0 || v > INT_MAX || errno != 0 || (*end != ',' && *end != '\0')) {
      return {};
    }
    out.push_back(static_cast<int>(v));
    p = *end == ',' ? end + 1 : end;
  }
  return out;
}

ReconnectBackoff::ReconnectBackoff(std::vector<int> seconds) : seconds_(std::move(seconds)) {
  if (seconds_.empty()) seconds_ = {5, 10, 20, 40, 80};
}

ReconnectBackoff ReconnectBackoff::FromEnvironment() {
  return ReconnectBackoff(ParseReconnectBackoff(std::getenv("PMCD_RECONNECT_TIMEOUT")));
}

void ReconnectBackoff::Failed(absl::Time now) {
  if (step_ < seconds_.size()) ++step_;
  retry_at_ = now + absl::Seconds(seconds_[step_ - 1]);
}

}  // namespace pmapi
