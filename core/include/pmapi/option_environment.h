// pmapi/option_environment.h: the PCP_* environment variables that PCP's
// pmGetOptions reads before the command line, each as the standard option
// it stands for (PCP_HOST as -h, PCP_INTERVAL as -t, ...). pmGetOptions
// and the tools' command-line layer both read them here.
//
// Example:
//   std::vector<std::string> hosts;
//   for (const pmapi::EnvironmentOption& e : pmapi::EnvironmentOptions()) {
//     if (e.letter == 'h') hosts.push_back(e.value);
//   }
#ifndef PMAPI_OPTION_ENVIRONMENT_H_
#define PMAPI_OPTION_ENVIRONMENT_H_

#include <vector>

namespace pmapi {

// `entry` and `value` point into the environment (valid while it is left
// as it is): pmGetOptions keeps such pointers, as PCP's does.
struct EnvironmentOption {
  const char* entry = nullptr;  // "PCP_HOST=somehost"
  const char* value = nullptr;  // "somehost"
  // The standard option it stands for ('h'), or 0 for none (PCP_FOLIO,
  // which is read and not applied).
  char letter = 0;
  // The value is a comma-separated list of that option's arguments
  // (PCP_ARCHIVE_LIST, PCP_HOST_LIST).
  bool list = false;
};

// Returns every such variable set, in the environment's order, PCP_DEBUG
// (as 'D') among them; a reader applies PCP_DEBUG first, so that its
// flags govern the traces of the others.
[[nodiscard]] std::vector<EnvironmentOption> EnvironmentOptions();

}  // namespace pmapi

#endif  // PMAPI_OPTION_ENVIRONMENT_H_
