// c_api_config.cc: pmGetConfig and pmGetOptionalConfig, and libpcp's
// __pmConfig, which hands each setting of the configuration file that the
// environment does not already hold to a callback (__pmNativeConfig puts
// it in the environment).
//
// As in PCP, the first call reads the configuration file ($PCP_CONF, else
// $PCP_DIR/etc/pcp.conf, else /etc/pcp.conf) and puts each NAME=value it
// holds into the environment unless the environment already has NAME;
// values in matching quotes lose them. Answers then come from the
// environment. Where no configuration file can be read (PCP itself exits
// then), the built-in defaults below are used instead: PCP's standard
// Linux locations, with the agents directory and agent list of this
// installation's local contexts. On a host where PCP's configuration is
// read, the local context's agent list is PCP's pmcd.conf once PCP has
// built its name space, else this installation's (PutLocalAgentSettings).
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "c_api_internal.h"
#include "pcp_internal.h"
#include "pmapi/local.h"

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

// The configuration file PCP would read.
std::string ConfPath() {
  if (const char* conf = std::getenv("PCP_CONF")) return conf;
  if (const char* dir = std::getenv("PCP_DIR")) return std::string(dir) + "/etc/pcp.conf";
  return "/etc/pcp.conf";
}

// A value in matching quotes loses them.
std::string Unquote(std::string value) {
  if (value.size() >= 2 && value.front() == value.back() &&
      (value.front() == '"' || value.front() == '\'')) {
    value = value.substr(1, value.size() - 2);
  }
  return value;
}

void Put(const std::string& name, const std::string& value) {
  setenv(name.c_str(), Unquote(value).c_str(), 0);
}

// The configuration file's NAME=value lines, in order.
bool ReadSettings(const std::string& path, std::vector<std::pair<std::string, std::string>>* settings) {
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

bool Readable(const std::string& path) { return !path.empty() && access(path.c_str(), R_OK) == 0; }

// The value `settings` gives `name`, unquoted; "" if none.
std::string SettingOf(const std::vector<std::pair<std::string, std::string>>& settings, const char* name) {
  for (const auto& [n, value] : settings) {
    if (n == name) return Unquote(value);
  }
  return "";
}

// A PCP host: PCP's pmcd.conf and the name space PCP builds from it (when
// pmcd first starts) are both there. Its local context is then PCP's,
// with the agents pmcd.conf lists, which load bound to this library.
bool PcpHostAgents(const std::vector<std::pair<std::string, std::string>>& settings) {
  const std::string var = SettingOf(settings, "PCP_VAR_DIR");
  return Readable(SettingOf(settings, "PCP_PMCDCONF_PATH")) && !var.empty() && Readable(var + "/pmns/root");
}

// The two settings that choose a local context's agents, unless the
// environment holds them: PCP's agents directory wherever PCP's
// configuration is (its agents look up their help and configuration
// there); PCP's pmcd.conf on a PCP host, else this installation's list of
// built-in agents.
void PutLocalAgentSettings(const std::vector<std::pair<std::string, std::string>>* settings) {
  const std::string ours = pmapi::DefaultLocalConfigPath();
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
  std::vector<std::pair<std::string, std::string>> settings;
  if (!ReadSettings(path, &settings)) return false;
  PutLocalAgentSettings(&settings);
  for (const auto& [name, value] : settings) Put(name, value);
  return true;
}

void UseDefaults() {
  for (const Default& d : kDefaults) Put(d.name, d.value);
}

void NativeFormatter(char* name, char*, char* value) { setenv(name, Unquote(value).c_str(), 1); }

const char* Lookup(const char* name) {
  static std::once_flag once;
  std::call_once(once, [] {
    if (!ReadConf(ConfPath())) {
      PutLocalAgentSettings(nullptr);
      UseDefaults();
    }
  });
  return name == nullptr ? nullptr : std::getenv(name);
}

}  // namespace

extern "C" {

char* pmGetConfig(const char* name) {
  const char* value = Lookup(name);
  return const_cast<char*>(value == nullptr ? "" : value);
}

char* pmGetOptionalConfig(const char* name) { return const_cast<char*>(Lookup(name)); }

const __pmConfigCallback __pmNativeConfig = NativeFormatter;

// As libpcp: a configuration file that cannot be read ends the program.
void __pmConfig(__pmConfigCallback formatter) {
  std::string path = ConfPath();
  std::vector<std::pair<std::string, std::string>> settings;
  if (!ReadSettings(path, &settings)) {
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
