// config_lookup.h: PCP's configuration settings (PCP_TLSCONF_PATH, ...) for
// the parts of the library below the C layer. The environment answers
// first; the C layer installs its pmGetOptionalConfig, which also reads
// PCP's configuration file, so every part reads the same values.
//
// Example:
//   std::optional<std::string> path = pmapi::ConfigValue("PCP_TLSCONF_PATH");
#ifndef PMAPI_SRC_CORE_CONFIG_LOOKUP_H_
#define PMAPI_SRC_CORE_CONFIG_LOOKUP_H_

#include <optional>
#include <string>

namespace pmapi {

// Returns the setting's value, or null when it has none.
using ConfigLookup = const char* (*)(const char* name);

// Installs the lookup (nullptr: the environment alone). Thread-safe.
void SetConfigLookup(ConfigLookup lookup);

// Returns the setting's value, or nullopt.
std::optional<std::string> ConfigValue(const char* name);

// Has the installed lookup read PCP's configuration now. Reading it sets
// environment variables, so a part that starts threads which read the
// environment calls this first.
void LoadConfig();

}  // namespace pmapi

#endif  // PMAPI_SRC_CORE_CONFIG_LOOKUP_H_
