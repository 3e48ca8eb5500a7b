// PCP's configuration settings; see config_lookup.h.
#include "config_lookup.h"

#include <atomic>
#include <cstdlib>

namespace pmapi {
namespace {

std::atomic<ConfigLookup> installed{nullptr};

}  // namespace

void SetConfigLookup(ConfigLookup lookup) { installed.store(lookup); }

std::optional<std::string> ConfigValue(const char* name) {
  ConfigLookup lookup = installed.load();
  const char* value = lookup != nullptr ? lookup(name) : std::getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

void LoadConfig() {
  // The lookup reads the configuration on its first call; no name asks
  // for nothing else.
  if (ConfigLookup lookup = installed.load()) lookup(nullptr);
}

}  // namespace pmapi
