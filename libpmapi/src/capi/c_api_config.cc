// c_api_config.cc: pmGetConfig and pmGetOptionalConfig, and libpcp's
// __pmConfig, which hands each setting of the configuration file that the
// environment does not already hold to a callback (__pmNativeConfig puts
// it in the environment). The reading itself, and the defaults where no
// configuration file can be read, are the ground's (core/src/config_lookup).
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "c_api_internal.h"
#include "config_lookup.h"
#include "pcp_internal.h"

namespace {

void NativeFormatter(char* name, char*, char* value) {
  setenv(name, pmapi::UnquoteConfigValue(value).c_str(), 1);
}

}  // namespace

extern "C" {

char* pmGetConfig(const char* name) {
  const char* value = pmapi::ConfigLookup(name);
  return const_cast<char*>(value == nullptr ? "" : value);
}

char* pmGetOptionalConfig(const char* name) { return const_cast<char*>(pmapi::ConfigLookup(name)); }

const __pmConfigCallback __pmNativeConfig = NativeFormatter;

// As libpcp: a configuration file that cannot be read ends the program.
void __pmConfig(__pmConfigCallback formatter) {
  std::string path = pmapi::ConfigFilePath();
  std::vector<pmapi::ConfigSetting> settings;
  if (!pmapi::ReadConfigSettings(path, &settings)) {
    std::fprintf(stderr,
                 "FATAL PCP ERROR: could not open config file \"%s\" : %s\n"
                 "You may need to set PCP_CONF or PCP_DIR in your environment.\n",
                 path.c_str(), std::strerror(errno));
    std::exit(1);
  }
  const char* dir = std::getenv("PCP_DIR");
  std::string dir_copy = dir == nullptr ? "" : dir;
  for (auto& [name, value] : settings) {
    if (std::getenv(name.c_str()) != nullptr) continue;
    formatter(name.data(), dir == nullptr ? nullptr : dir_copy.data(), value.data());
  }
}

}  // extern "C"
