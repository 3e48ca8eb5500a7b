// pmdas/common/agent_env.h: the test settings PCP's Linux agents take from
// the environment (LINUX_HERTZ, PROC_PAGESIZE, ...), read as they read them.
#ifndef PMAPI_PMDAS_COMMON_AGENT_ENV_H_
#define PMAPI_PMDAS_COMMON_AGENT_ENV_H_

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <optional>

namespace pmapi {

// A number from the environment as PCP's agents read it (atoi), or nullopt
// when the variable is not set.
inline std::optional<long> EnvNumber(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return std::nullopt;
  return std::strtol(v, nullptr, 10);
}

// Clock ticks per second from `name`, else the system's; a value that is
// not positive gives 100 (PCP's agent would divide by it).
inline uint64_t EnvHertz(const char* name) {
  const long hz = EnvNumber(name).value_or(sysconf(_SC_CLK_TCK));
  return hz > 0 ? static_cast<uint64_t>(hz) : 100;
}

// The page size in bytes from `name`, else the system's; a value that is
// not positive or too large gives 4096.
inline uint32_t EnvPageSize(const char* name) {
  const long page = EnvNumber(name).value_or(sysconf(_SC_PAGESIZE));
  return page > 0 && page <= INT32_MAX ? static_cast<uint32_t>(page) : 4096;
}

}  // namespace pmapi

#endif  // PMAPI_PMDAS_COMMON_AGENT_ENV_H_
