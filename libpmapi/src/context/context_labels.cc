#include "context_labels.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string_view>
#include <vector>

#include "absl/strings/str_format.h"
#include "pmapi/context.h"
#include "pmapi/labels.h"

namespace pmapi {
namespace {

// The text of one file, as much of it as a label set may hold (PCP reads
// no more either); empty if it cannot be read, a directory included.
std::string FileText(const std::string& path) {
  constexpr std::streamsize kMaxLabelText = 64 * 1024;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::string();
  std::string text(kMaxLabelText, '\0');
  in.read(text.data(), kMaxLabelText);
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

// The names in `dir` in byte order, dot files left out.
std::vector<std::string> DirNames(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return names;
  while (const dirent* e = readdir(d)) {
    if (e->d_name[0] != '.') names.emplace_back(e->d_name);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

// The sets merged so far, each name's winning value and whether it is
// optional; a later set wins a name it shares with an earlier one.
struct Merger {
  std::vector<LabelSet> sets;
  std::map<std::string, bool, std::less<>> optional;

  void Add(std::string_view json, bool is_optional) {
    absl::StatusOr<LabelSet> set = ParseLabelSet(json, kLabelContext);
    if (!set.ok() || set->labels.empty()) return;
    for (const LabelEntry& l : set->labels) optional[std::string(LabelName(*set, l))] = is_optional;
    sets.push_back(*std::move(set));
  }
};

std::string HostJson() {
  char host[256] = {}, domain[256] = {};
  if (gethostname(host, sizeof(host) - 1) != 0) std::snprintf(host, sizeof(host), "localhost");
  if (getdomainname(domain, sizeof(domain) - 1) != 0 || domain[0] == '\0' ||
      std::string_view(domain) == "(none)")
    std::snprintf(domain, sizeof(domain), "localdomain");
  std::string machine;
  for (char c : FileText("/etc/machine-id")) {
    if (std::isxdigit(static_cast<unsigned char>(c))) machine += c;
  }
  return absl::StrFormat(R"({"domainname":"%s","hostname":"%s","machineid":"%s"})", domain, host, machine);
}

}  // namespace

std::string SysconfDir() {
  const char* dir = std::getenv("PCP_SYSCONF_DIR");
  return dir != nullptr && *dir != '\0' ? dir : "/etc/pcp";
}

namespace {

void AddFiles(const std::string& sysconf_dir, Merger& m) {
  const std::string dir = sysconf_dir + "/labels";
  for (const std::string& name : DirNames(dir)) m.Add(FileText(dir + "/" + name), false);
  for (const std::string& name : DirNames(dir + "/optional")) m.Add(FileText(dir + "/optional/" + name), true);
}

absl::StatusOr<LabelSet> Merged(const Merger& m) {
  std::vector<const LabelSet*> all;
  for (const LabelSet& s : m.sets) all.push_back(&s);
  if (all.empty()) return LabelSet{};
  absl::StatusOr<LabelSet> merged = ParseLabelSet(MergeLabelSets(all), kLabelContext);
  if (!merged.ok()) return merged.status();
  for (LabelEntry& l : merged->labels) {
    auto it = m.optional.find(LabelName(*merged, l));
    if (it != m.optional.end() && it->second) l.flags |= kLabelOptional;
  }
  return merged;
}

}  // namespace

absl::StatusOr<LabelSet> ConfiguredContextLabels(const std::string& sysconf_dir) {
  Merger m;
  AddFiles(sysconf_dir, m);
  return Merged(m);
}

absl::StatusOr<LabelSet> LocalContextLabels(const std::string& sysconf_dir) {
  Merger m;
  AddFiles(sysconf_dir, m);
  m.Add(HostJson(), false);
  m.Add(absl::StrFormat(R"({"groupid":%u,"userid":%u})", getgid(), getuid()), true);
  return Merged(m);
}

}  // namespace pmapi
