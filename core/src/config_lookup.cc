// PCP's configuration settings; see config_lookup.h.
//
// As in PCP, the first lookup reads the configuration file and puts each
// NAME=value it holds into the environment unless the environment already
// has NAME; values in matching quotes lose them. Where no configuration
// file can be read (PCP itself exits then), the built-in defaults below are
// used instead: PCP's standard Linux locations, with the agents directory
// and agent list of this installation's local contexts. On a host where
// PCP's configuration is read, the local context's agent list is PCP's
// pmcd.conf once PCP has built its name space, else this installation's
// (PutLocalAgentSettings).
#include "config_lookup.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "this_object.h"

namespace pmapi {
namespace {

struct Default {
  const char* name;
  const char* value;
};

constexpr Default kDefaults[] = {
    {"PCP_ETC_DIR", "/etc"},
    {"PCP_SYSCONF_DIR", "/etc/pcp"},
    {"PCP_BIN_DIR", "/usr/bin"},
    {"PCP_BINADM_DIR", "/usr/lib/pcp/bin"},
    {"PCP_LIBADM_DIR", "/usr/lib/pcp/lib"},
    {"PCP_LIB_DIR", "/usr/lib"},
    {"PCP_SHARE_DIR", "/usr/share/pcp"},
    {"PCP_INC_DIR", "/usr/include/pcp"},
    {"PCP_MAN_DIR", "/usr/share/man"},
    {"PCP_VAR_DIR", "/var/lib/pcp"},
    {"PCP_RUN_DIR", "/run/pcp"},
    {"PCP_LOG_DIR", "/var/log/pcp"},
    {"PCP_ARCHIVE_DIR", "/var/log/pcp/pmlogger"},
    {"PCP_TMP_DIR", "/var/lib/pcp/tmp"},
    {"PCP_TMPFILE_DIR", "/var/tmp"},
    {"PCP_DEMOS_DIR", "/usr/share/pcp/demos"},
    {"PCP_PLATFORM", "linux"},
    {"PCP_VERSION", "6.0.3"},
    {"PCP_USER", "pcp"},
    {"PCP_GROUP", "pcp"},
};

void Put(const std::string& name, const std::string& value) {
  setenv(name.c_str(), UnquoteConfigValue(value).c_str(), 0);
}

bool Readable(const std::string& path) { return !path.empty() && access(path.c_str(), R_OK) == 0; }

// The value `settings` gives `name`, unquoted; "" if none.
std::string SettingOf(const std::vector<ConfigSetting>& settings, const char* name) {
  for (const auto& [n, value] : settings) {
    if (n == name) return UnquoteConfigValue(value);
  }
  return "";
}

// A PCP host: PCP's pmcd.conf and the name space PCP builds from it (when
// pmcd first starts) are both there. Its local context is then PCP's,
// with the agents pmcd.conf lists, which load bound to this library.
bool PcpHostAgents(const std::vector<ConfigSetting>& settings) {
  const std::string var = SettingOf(settings, "PCP_VAR_DIR");
  return Readable(SettingOf(settings, "PCP_PMCDCONF_PATH")) && !var.empty() && Readable(var + "/pmns/root");
}

// The two settings that choose a local context's agents, unless the
// environment holds them: PCP's agents directory wherever PCP's
// configuration is (its agents look up their help and configuration
// there); PCP's pmcd.conf on a PCP host, else this installation's list of
// built-in agents.
void PutLocalAgentSettings(const std::vector<ConfigSetting>* settings) {
  const std::string ours = DefaultLocalConfigPath();
  if (settings != nullptr && PcpHostAgents(*settings)) {
    Put("PCP_PMCDCONF_PATH", SettingOf(*settings, "PCP_PMCDCONF_PATH"));
  } else {
    Put("PCP_PMCDCONF_PATH", ours);
  }
  const std::string pmdas = settings != nullptr ? SettingOf(*settings, "PCP_PMDAS_DIR") : "";
  Put("PCP_PMDAS_DIR", !pmdas.empty() ? pmdas : ours.substr(0, ours.rfind('/')));
}

// Reads the file into the environment; false if it cannot be opened.
bool ReadConf(const std::string& path) {
  std::vector<ConfigSetting> settings;
  if (!ReadConfigSettings(path, &settings)) return false;
  PutLocalAgentSettings(&settings);
  for (const auto& [name, value] : settings) Put(name, value);
  return true;
}

void UseDefaults() {
  for (const Default& d : kDefaults) Put(d.name, d.value);
}

}  // namespace

std::string ConfigFilePath() {
  if (const char* conf = std::getenv("PCP_CONF")) return conf;
  if (const char* dir = std::getenv("PCP_DIR")) return std::string(dir) + "/etc/pcp.conf";
  return "/etc/pcp.conf";
}

std::string UnquoteConfigValue(std::string value) {
  if (value.size() >= 2 && value.front() == value.back() &&
      (value.front() == '"' || value.front() == '\'')) {
    value = value.substr(1, value.size() - 2);
  }
  return value;
}

bool ReadConfigSettings(const std::string& path, std::vector<ConfigSetting>* settings) {
  FILE* f = std::fopen(path.c_str(), "r");
  if (f == nullptr) return false;
  char line[4096];
  while (std::fgets(line, sizeof line, f) != nullptr) {
    char* eq = std::strchr(line, '=');
    if (line[0] == '#' || eq == nullptr) continue;
    *eq = '\0';
    std::string value = eq + 1;
    if (size_t nl = value.rfind('\n'); nl != std::string::npos) value.erase(nl);
    settings->emplace_back(line, value);
  }
  std::fclose(f);
  return true;
}

void LoadConfig() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (!ReadConf(ConfigFilePath())) {
      PutLocalAgentSettings(nullptr);
      UseDefaults();
    }
  });
}

const char* ConfigLookup(const char* name) {
  LoadConfig();
  return name == nullptr ? nullptr : std::getenv(name);
}

std::optional<std::string> ConfigValue(const char* name) {
  const char* value = ConfigLookup(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

// The configuration installed with the library is found from where the
// library itself is, so a moved installation keeps working: relative to
// libpmapi.so's directory (PMAPI_PMCDCONF_FROM_LIBDIR), to the drop-in
// libpcp.so.3's (PMAPI_PMCDCONF_FROM_DROPINDIR), or, in a tool that links
// the library statically, relative to the tool's directory
// (PMAPI_PMCDCONF_FROM_TOOLDIR). When neither names a file (the build
// tree, a program of its own), the path fixed at build time is the answer.
std::string DefaultLocalConfigPath() {
  static const std::string* const kPath = [] {
    const std::string dir = ThisObjectDirectory();
    for (const char* relative :
         {PMAPI_PMCDCONF_FROM_LIBDIR, PMAPI_PMCDCONF_FROM_DROPINDIR, PMAPI_PMCDCONF_FROM_TOOLDIR}) {
      std::string found = dir.empty() ? "" : RealFile(std::string(dir) + "/" + relative);
      if (!found.empty()) return new std::string(std::move(found));
    }
    return new std::string(PMAPI_DEFAULT_PMCDCONF);
  }();
  return *kPath;
}

}  // namespace pmapi
