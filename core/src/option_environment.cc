#include "pmapi/option_environment.h"

#include <unistd.h>

#include <cstring>
#include <string_view>

namespace pmapi {
namespace {

struct Variable {
  const char* name;
  char letter;
  bool list;
};

constexpr Variable kVariables[] = {
    {"PCP_DEBUG", 'D', false},      {"PCP_ALIGN_TIME", 'A', false},  {"PCP_ARCHIVE", 'a', false},
    {"PCP_ARCHIVE_LIST", 'a', true}, {"PCP_FOLIO", 0, false},         {"PCP_GUIMODE", 'g', false},
    {"PCP_HOST", 'h', false},       {"PCP_HOST_LIST", 'h', true},     {"PCP_SPECLOCAL", 'K', false},
    {"PCP_LOCALMODE", 'L', false},  {"PCP_LOCALPMDA", 'L', false},   {"PCP_NAMESPACE", 'n', false},
    {"PCP_UNIQNAMES", 'N', false},  {"PCP_ORIGIN", 'O', false},      {"PCP_ORIGIN_TIME", 'O', false},
    {"PCP_GUIPORT", 'p', false},    {"PCP_START_TIME", 'S', false},  {"PCP_SAMPLES", 's', false},
    {"PCP_FINISH_TIME", 'T', false}, {"PCP_INTERVAL", 't', false},   {"PCP_TIMEZONE", 'Z', false},
    {"PCP_HOSTZONE", 'z', false},
};

}  // namespace

std::vector<EnvironmentOption> EnvironmentOptions() {
  std::vector<EnvironmentOption> out;
  for (char** p = environ; *p != nullptr; ++p) {
    const std::string_view entry(*p);
    const size_t eq = entry.find('=');
    if (eq == std::string_view::npos || entry.substr(0, 4) != "PCP_") continue;
    const std::string_view name = entry.substr(0, eq);
    for (const Variable& v : kVariables) {
      if (name != v.name) continue;
      out.push_back({*p, *p + eq + 1, v.letter, v.list});
      break;
    }
  }
  return out;
}

}  // namespace pmapi
