// pminfo.h: what pminfo was asked to do, and the report it prints.
#ifndef PMAPI_TOOLS_PMINFO_PMINFO_H_
#define PMAPI_TOOLS_PMINFO_PMINFO_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pmapi/pmns.h"

namespace pminfo {

struct Settings {
  std::vector<std::string> archives;
  std::vector<std::string> hosts;
  bool local = false;
  // -n/-N: the loaded name space, or namespace_failed if it would not load.
  std::shared_ptr<const pmapi::Pmns> name_space;
  bool namespace_failed = false;
  std::string origin;
  bool hostzone = false;                // -z
  std::optional<std::string> timezone;  // -Z
  std::vector<std::string> derived_files;
  int batch = 128;
  bool desc = false;
  bool value = false;
  bool force = false;
  bool full_indom = false;
  bool labels = false;
  bool pmid = false;
  bool full_pmid = false;
  bool series = false;
  bool oneline = false;
  bool help = false;
  bool events = false;
  bool verify = false;
  bool usage = false;
  std::vector<std::string> names;
};

// Runs pminfo; returns the process exit status.
int Run(Settings settings);

}  // namespace pminfo

#endif  // PMAPI_TOOLS_PMINFO_PMINFO_H_
