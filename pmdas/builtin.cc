// The agents compiled into the library, by the init name a pmcd.conf line
// gives them; see libpmapi/src/pmda/pmda_builtin.h.
#include "pmda_builtin.h"

#include "pmdas/linux/linux_agent.h"
#include "pmdas/proc/proc_agent.h"

namespace pmapi {

PmdaInitFunction FindBuiltinAgent(std::string_view init) {
  struct Entry {
    std::string_view init;
    PmdaInitFunction fn;
  };
  static constexpr Entry kAgents[] = {
      {"linux_init", &LinuxAgentInit},
      {"proc_init", &ProcAgentInit},
  };
  for (const Entry& e : kAgents) {
    if (e.init == init) return e.fn;
  }
  return nullptr;
}

}  // namespace pmapi
