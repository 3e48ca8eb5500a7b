// pmda_config.h: the agent list of a local context, read from a file in
// the form of PCP's pmcd.conf.
//
// Each line is "NAME DOMAIN TYPE ARGS...": TYPE "dso" loads the shared
// object PATH and calls its INIT function ("NAME DOMAIN dso INIT PATH");
// TYPE "builtin" calls an agent compiled into the library ("NAME DOMAIN
// builtin INIT"). As PCP's local context does, the "pmcd" line is skipped,
// pipe and socket agents are skipped, and a "linux" line of any type means
// the Linux agent, run in-process. A trailing "pmns=PATH" names the agent's
// namespace file (relative paths are taken from the configuration file's
// directory). '#' starts a comment line; a line starting with '[' (PCP's
// access control section) ends the list. "$VAR" and "${VAR}" are expanded
// from the environment in paths.
//
// Example:
//   std::vector<std::string> warnings;
//   std::vector<pmapi::AgentSpec> agents = pmapi::ParseAgentConfig(
//       "test 250 builtin test_init\n", "/etc", &warnings);
#ifndef PMAPI_SRC_PMDA_CONFIG_H_
#define PMAPI_SRC_PMDA_CONFIG_H_

#include <string>
#include <string_view>
#include <vector>

namespace pmapi {

struct AgentSpec {
  std::string name;
  int domain = 0;
  bool dso = false;   // false: built in
  std::string init;   // init function name
  std::string path;   // dso: the shared object
  std::string pmns;   // the namespace file, if named on the line
  // Added by a spec (pminfo -K), or a configuration line without a
  // name-space file: names come from the default name space.
  bool pmns_from_default = false;
  int line = 0;
};

// Returns the agents `text` lists. Lines that are not agents the local
// context can run are skipped with a message in *warnings.
std::vector<AgentSpec> ParseAgentConfig(std::string_view text, const std::string& config_dir,
                                        std::vector<std::string>* warnings);

}  // namespace pmapi

#endif  // PMAPI_SRC_PMDA_CONFIG_H_
