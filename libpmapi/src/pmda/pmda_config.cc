#include "pmda_config.h"

#include <unistd.h>

#include <cstdlib>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/match.h"
#include "absl/strings/strip.h"
#include "config_lookup.h"
#include "pmda_help.h"
#include "pmapi/local.h"

namespace pmapi {
namespace {

std::string PmdasDir() { return ConfigValue("PCP_PMDAS_DIR").value_or(""); }

std::string Resolve(const std::string& path, const std::string& dir) {
  std::string p = ExpandEnvironment(path);
  if (p.empty() || p[0] == '/' || dir.empty()) return p;
  return absl::StrCat(dir, "/", p);
}

}  // namespace

std::vector<AgentSpec> ParseAgentConfig(std::string_view text, const std::string& config_dir,
                                        std::vector<std::string>* warnings) {
  std::vector<AgentSpec> out;
  auto warn = [&](int line, const std::string& what) {
    if (warnings) warnings->push_back(absl::StrCat("line ", line, ": ", what));
  };
  int lineno = 0;
  for (absl::string_view line : absl::StrSplit(absl::string_view(text.data(), text.size()), '\n')) {
    ++lineno;
    std::vector<std::string> f = absl::StrSplit(line, absl::ByAnyChar(" \t\r"), absl::SkipEmpty());
    if (f.empty() || f[0][0] == '#') continue;
    if (f[0][0] == '[') break;
    AgentSpec a;
    a.name = f[0];
    a.line = lineno;
    if (a.name == "pmcd") continue;
    if (f.size() < 3 || !absl::SimpleAtoi(f[1], &a.domain) || a.domain < 1 || a.domain > 510) {
      warn(lineno, absl::StrCat("agent \"", a.name, "\": bad domain or missing fields"));
      continue;
    }
    for (size_t i = 3; i < f.size(); ++i) {
      if (absl::StartsWith(f[i], "pmns=")) a.pmns = Resolve(f[i].substr(5), config_dir);
    }
    const std::string& type = f[2];
    if (a.name == "linux" && type != "builtin") {
      // PCP's rule: whatever the line's type, the local context runs
      // $PCP_PMDAS_DIR/linux/pmda_linux.so in-process; this library's own
      // Linux agent where that object is not installed
      a.init = "linux_init";
      const std::string so = absl::StrCat(PmdasDir(), "/linux/pmda_linux.so");
      if (access(so.c_str(), F_OK) == 0) {
        a.dso = true;
        a.path = so;
      }
    } else if (type == "builtin" && f.size() >= 4) {
      a.init = f[3];
    } else if (type == "dso" && f.size() >= 5) {
      a.dso = true;
      a.init = f[3];
      a.path = Resolve(f[4], config_dir);
    } else if (type == "pipe" || type == "socket") {
      continue;  // agents that run as processes are pmcd's business
    } else {
      warn(lineno, absl::StrCat("agent \"", a.name, "\": unknown type or missing fields"));
      continue;
    }
    if (!a.dso && type == "builtin" && f.size() >= 5 && !absl::StartsWith(f[4], "pmns="))
      a.path = Resolve(f[4], config_dir);
    // No name-space file named and none beside the configuration: the
    // agent's names are those of its domain in the default name space, as
    // PCP's local context finds them.
    if (a.pmns.empty() && access(absl::StrCat(config_dir, "/root_", a.name).c_str(), R_OK) != 0) {
      a.pmns_from_default = true;
    }
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace pmapi
