// private_pmcd.h: reaching the tests' private pmcd (scripts/pmcd-private.sh)
// from a test program: the script's path, its environment variables, and
// shell commands' output.
//
// Needs PMAPI_SOURCE_DIR and PMAPI_PMCD_DIR defined by the build.
//
// Example:
//   std::string env = pmapi::ShellOutput(pmapi::PmcdScript() + " env " + dir);
//   std::string port = pmapi::EnvValue(env, "PMCD_PORT");
#ifndef PMAPI_TESTS_INTEROP_PRIVATE_PMCD_H_
#define PMAPI_TESTS_INTEROP_PRIVATE_PMCD_H_

#include <cstdio>
#include <sstream>
#include <string>

namespace pmapi {

// Runs a shell command and returns its standard output.
inline std::string ShellOutput(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

// The script that starts, stops and describes a private pmcd.
inline std::string PmcdScript() { return std::string(PMAPI_SOURCE_DIR) + "/scripts/pmcd-private.sh"; }

// The value of NAME=value in the script's `env` or `start` output, or "".
inline std::string EnvValue(const std::string& env, const std::string& name) {
  size_t at = env.find(name + "=");
  if (at == std::string::npos) return "";
  size_t start = at + name.size() + 1;
  return env.substr(start, env.find('\n', start) - start);
}

// The private pmcd's environment, read once from the script.
inline const std::string& PmcdEnv() {
  static const std::string* env = [] {
    std::string vars = ShellOutput(PmcdScript() + " env " + PMAPI_PMCD_DIR);
    std::string words;
    std::istringstream lines(vars);
    std::string line;
    while (std::getline(lines, line)) {
      if (line.rfind("PMCD_", 0) == 0) words += line + " ";
    }
    return new std::string(words);
  }();
  return *env;
}

}  // namespace pmapi

#endif  // PMAPI_TESTS_INTEROP_PRIVATE_PMCD_H_
