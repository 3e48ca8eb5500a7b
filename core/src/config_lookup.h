// config_lookup.h: PCP's configuration settings (PCP_VAR_DIR,
// PCP_TLSCONF_PATH, ...) for every part of the library. The first lookup
// reads PCP's configuration file into the environment, as libpcp does;
// answers then come from the environment. The C layer's pmGetConfig,
// pmGetOptionalConfig and __pmConfig are written over these.
//
// Example:
//   std::optional<std::string> path = pmapi::ConfigValue("PCP_TLSCONF_PATH");
#ifndef PMAPI_CORE_CONFIG_LOOKUP_H_
#define PMAPI_CORE_CONFIG_LOOKUP_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pmapi {

// The setting's value as the environment holds it once the configuration
// is read (a pointer into the environment), or null when it has none.
const char* ConfigLookup(const char* name);

// Returns the setting's value, or nullopt.
std::optional<std::string> ConfigValue(const char* name);

// Reads PCP's configuration now. Reading it sets environment variables,
// so a part that starts threads which read the environment calls this
// first.
void LoadConfig();

// The configuration file libpcp would read: $PCP_CONF, else
// $PCP_DIR/etc/pcp.conf, else /etc/pcp.conf.
std::string ConfigFilePath();

// One NAME=value line of a configuration file, the value as written.
using ConfigSetting = std::pair<std::string, std::string>;

// The NAME=value lines of the file at `path`, in order; false when it
// cannot be opened (errno says why).
bool ReadConfigSettings(const std::string& path, std::vector<ConfigSetting>* settings);

// A value in matching quotes, without them.
std::string UnquoteConfigValue(std::string value);

// The pmcd.conf installed with the library for local contexts, found from
// where the library is (see config_lookup.cc).
std::string DefaultLocalConfigPath();

}  // namespace pmapi

#endif  // PMAPI_CORE_CONFIG_LOOKUP_H_
