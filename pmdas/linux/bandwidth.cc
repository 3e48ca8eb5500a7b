// mem.numa.max_bandwidth of the Linux agent: the per-node figures an
// administrator writes in bandwidth.conf ($PCP_PMDAS_DIR/linux, else the
// directory beside this agent's), read as PCP's agent reads the file:
//
//   Version:1.0
//   node0:1024
//
// The file is read again only when its modification time changes (or when
// stat's error changes); every node's figure is reset first. Reading stops
// at the first line in error, keeping the figures before it, with PCP's
// messages on stderr: no version first, an unsupported version, an unknown
// node. Lines starting with '#' are comments.
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

std::string ConfigPath(const LinuxState& st) {
  if (const char* dir = std::getenv("PCP_PMDAS_DIR")) return absl::StrCat(dir, "/linux/bandwidth.conf");
  return st.home + "/bandwidth.conf";
}

// Whether the file is to be read (again), as PCP's agent decides.
bool Changed(Bandwidth& bw) {
  struct stat sb {};
  if (stat(bw.path.c_str(), &sb) != 0) {
    const int err = errno;
    if (err == bw.last_errno) return false;
    if (err != ENOENT) std::fprintf(stderr, "Cannot stat %s\n", bw.path.c_str());
    bw.last_errno = err;
    return true;
  }
  bw.last_errno = 0;
  if (sb.st_mtime == bw.last_mtime) return false;
  bw.last_mtime = sb.st_mtime;
  return true;
}

// The version line; false (with PCP's message) when it is not 1.0.
bool VersionOk(const std::string& path, const std::string& line) {
  const size_t colon = line.find(':');
  if (colon == std::string::npos) {
    std::fprintf(stderr, "Version information missing in %s\n", path.c_str());
    return false;
  }
  const std::string value = line.substr(colon + 1);
  if (line.compare(0, 7, "Version") == 0 && value.compare(0, 3, "1.0") == 0) return true;
  std::fprintf(stderr, "Unsupported %s version '%s', current version: 1.0\n", path.c_str(), value.c_str());
  return false;
}

Node* NodeNamed(LinuxState& st, const std::string& name) {
  for (Node& n : st.nodes) {
    if (absl::StrCat("node", n.num) == name) return &n;
  }
  return nullptr;
}

void ReadConfig(LinuxState& st) {
  std::ifstream in(st.bandwidth.path);
  if (!in) return;
  bool version = false;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] == '#') continue;
    if (line.find("Version") != std::string::npos) {
      if (!VersionOk(st.bandwidth.path, line)) return;
      version = true;
      continue;
    }
    if (!version) {
      std::fprintf(stderr, "Version missing at the start of %s\n", st.bandwidth.path.c_str());
      return;
    }
    const size_t colon = line.find(':');
    if (colon == std::string::npos) return;
    const std::string name = line.substr(0, colon);
    Node* node = NodeNamed(st, name);
    if (node == nullptr) {
      std::fprintf(stderr, "Unknown node '%s' in %s\n", name.c_str(), st.bandwidth.path.c_str());
      return;
    }
    st.bandwidth.by_node[node->num] = std::atof(line.c_str() + colon + 1);
  }
}

}  // namespace

void RefreshBandwidth(LinuxState& st) {
  if (st.bandwidth.path.empty()) st.bandwidth.path = ConfigPath(st);
  if (!Changed(st.bandwidth)) return;
  st.bandwidth.by_node.clear();
  ReadConfig(st);
}

int BandwidthValue(const LinuxState& st, int node, AtomValue* atom) {
  auto it = st.bandwidth.by_node.find(node);
  if (it == st.bandwidth.by_node.end() || !(it->second > 0.0)) return 0;
  atom->d = it->second;
  return 1;
}

}  // namespace pmapi::linux_agent
