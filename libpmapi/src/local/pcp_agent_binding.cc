// pcp_agent_binding.cc: see pcp_agent_binding.h.
#include "pcp_agent_binding.h"

#include <dlfcn.h>
#include <link.h>

#include <cstring>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "pmapi/errors.h"
#include "this_object.h"

namespace pmapi {
namespace {

constexpr const char* kLibpcp = "libpcp.so.3";
constexpr const char* kLibpcpPmda = "libpcp_pmda.so.3";

bool IsPcpLibrary(const std::string& name) { return name.rfind("libpcp", 0) == 0; }

std::string DirName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

// The real path of the loaded object answering to `name`, "" if none is
// loaded.
std::string LoadedPath(const char* name) {
  void* handle = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
  if (handle == nullptr) return "";
  struct link_map* map = nullptr;
  std::string path;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr && map->l_name != nullptr) {
    path = RealFile(map->l_name);
  }
  dlclose(handle);
  return path.empty() ? name : path;
}

// An object of this installation: a version-node library, or the drop-in
// libpcp.so.3 this library is (and its libpcp_pmda.so.3 beside it).
bool IsOurs(const std::string& path) {
  const std::string self = ThisObjectPath();
  const std::string nodes = VersionNodesDirectory();
  return path == self || (!nodes.empty() && DirName(path) == nodes) ||
         (!self.empty() && DirName(path) == DirName(self) && path.rfind(kLibpcpPmda) != std::string::npos);
}

absl::Status Refuse(const std::string& agent, const std::string& why) {
  return PcpErrorWithMessage(kErrGeneric, absl::StrCat("DSO \"", agent, "\" ", why));
}

// Makes `name` answer with this installation's object; loaded ones are
// kept for the life of the process.
absl::Status Answer(const std::string& agent, const char* name) {
  const std::string loaded = LoadedPath(name);
  if (!loaded.empty()) {
    if (IsOurs(loaded)) return absl::OkStatus();
    return Refuse(agent, absl::StrCat("needs ", name, ", and PCP's (", loaded, ") is already loaded in this process"));
  }
  // In a program over the drop-in, its own libpcp_pmda.so.3 beside it;
  // else the version-node directory's.
  const std::string self = ThisObjectPath();
  std::string dir = VersionNodesDirectory();
  if (!self.empty() && self.size() > std::strlen(kLibpcp) &&
      self.compare(self.size() - std::strlen(kLibpcp) - 1, std::string::npos, absl::StrCat("/", kLibpcp)) == 0 &&
      !RealFile(absl::StrCat(DirName(self), "/", name)).empty())
    dir = DirName(self);
  if (dir.empty()) return Refuse(agent, absl::StrCat("needs ", name, ", and this installation has no version-node libraries"));
  const std::string path = absl::StrCat(dir, "/", name);
  if (dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL | RTLD_NODELETE) == nullptr) {
    const char* err = dlerror();
    return Refuse(agent, absl::StrCat("needs ", name, ": ", err != nullptr ? err : path));
  }
  return absl::OkStatus();
}

}  // namespace

std::string VersionNodesDirectory() {
  static const std::string* const kDir = [] {
    const std::string dir = ThisObjectDirectory();
    for (const char* relative : {PMAPI_NODES_FROM_LIBDIR, PMAPI_NODES_FROM_TOOLDIR, "../nodes", "../dropin/nodes"}) {
      if (dir.empty()) break;
      const std::string found = RealFile(absl::StrCat(dir, "/", relative, "/", kLibpcp));
      if (!found.empty()) return new std::string(DirName(found));
    }
    return new std::string();
  }();
  return *kDir;
}

absl::Status BindPcpLibraries(const std::string& agent, const std::vector<std::string>& needed) {
  bool libpcp = false, libpcp_pmda = false;
  for (const std::string& n : needed) {
    if (!IsPcpLibrary(n)) continue;
    if (n == kLibpcp) {
      libpcp = true;
    } else if (n == kLibpcpPmda) {
      libpcp_pmda = true;
    } else {
      return Refuse(agent, absl::StrCat("needs PCP's ", n, ", which this library does not replace"));
    }
  }
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  // libpcp_pmda.so.3 needs libpcp.so.3: ours is loaded first either way
  if (libpcp || libpcp_pmda) {
    if (absl::Status s = Answer(agent, kLibpcp); !s.ok()) return s;
  }
  if (libpcp_pmda) {
    if (absl::Status s = Answer(agent, kLibpcpPmda); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace pmapi
