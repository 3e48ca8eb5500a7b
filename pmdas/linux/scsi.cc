// hinv.map.scsi and hinv.map.scsi_id of the Linux agent.
//
// hinv.map.scsi: one instance per SCSI device of /proc/scsi/scsi, named
// "scsiH:C:I:L_TYPE", whose value is its block device's name (the first
// entry of /sys/class/scsi_device/H:C:I:L/device/block). As in PCP's agent
// that directory is read from the running system even below
// LINUX_STATSPATH, a device without a block device is left out, and a
// device once seen stays listed.
//
// hinv.map.scsi_id: for each disk, its WWID from /sys/block/DEV/device/wwid
// (or /sys/block/DEV/wwid), with the t10./eui./naa. prefixes turned into
// the numeric forms 1, 2 and 3; "unknown" without one.
#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "pmapi/errors.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

// The first entry of a directory not starting with '.', in readdir's order.
std::optional<std::string> FirstEntry(const std::string& dir) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return std::nullopt;
  std::optional<std::string> out;
  while (struct dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    out = e->d_name;
    break;
  }
  closedir(d);
  return out;
}

// Adds the device a "Host:" line names, its type taken from the next line
// holding "Type:" (the last type seen when none does, as PCP's agent).
void AddScsiDevice(LinuxState& st, absl::string_view host_line, const std::string& type) {
  int host = 0, channel = 0, id = 0, lun = 0;
  const std::string line(host_line);
  if (std::sscanf(line.c_str(), "Host: scsi%d Channel: %d Id: %d Lun: %d", &host, &channel, &id, &lun) != 4)
    return;
  const std::string hcil = absl::StrCat(host, ":", channel, ":", id, ":", lun);
  const std::string name = absl::StrCat("scsi", hcil, "_", type);
  for (const ScsiDevice& d : st.scsi) {
    if (d.name == name) return;
  }
  const std::string block = absl::StrCat("/sys/class/scsi_device/", hcil, "/device/block");
  std::optional<std::string> dev = FirstEntry(block);
  if (dev) st.scsi.push_back(ScsiDevice{name, *dev});
}

// The word after "Type:" in `line`, if the line has one.
std::optional<std::string> TypeOf(absl::string_view line) {
  const size_t at = line.find("Type:");
  if (at == absl::string_view::npos) return std::nullopt;
  char word[256];
  const std::string rest(line.substr(at));
  if (std::sscanf(rest.c_str(), "Type:   %255s", word) != 1) return std::nullopt;
  return std::string(word);
}

}  // namespace

void RefreshScsi(LinuxState& st, Pmda& pmda) {
  std::optional<std::string> text = ls::ReadProcFile(st.root, "/proc/scsi/scsi");
  if (text) {
    std::vector<absl::string_view> lines = absl::StrSplit(*text, '\n');
    std::string type;
    for (size_t i = 0; i < lines.size(); ++i) {
      if (!absl::StartsWith(lines[i], "Host:")) continue;
      const size_t host = i;
      while (++i < lines.size()) {
        if (std::optional<std::string> t = TypeOf(lines[i])) {
          type = *t;
          break;
        }
      }
      AddScsiDevice(st, lines[host], type);
    }
  }
  std::vector<PmdaInstid> set;
  for (size_t i = 0; i < st.scsi.size(); ++i) set.push_back({static_cast<Inst>(i), st.scsi[i].name});
  SetInstances(pmda, kScsiIndom, std::move(set));
}

int FetchScsi(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  if (r.item != 0) return kErrPmid;
  const uint32_t i = static_cast<uint32_t>(ToPcp(inst));
  if (i >= st.scsi.size()) return kErrInst;
  atom->bytes = st.scsi[i].device;
  return 1;
}

std::string ScsiId(const LinuxState& st, const std::string& device) {
  std::string path = st.root + "/sys/block/" + device + "/device/wwid";
  if (access(path.c_str(), F_OK) != 0) path = st.root + "/sys/block/" + device + "/wwid";
  std::optional<std::string> text = ls::ReadProcFile("", path);
  if (!text || text->empty()) return "unknown";
  std::string id = text->substr(0, std::min<size_t>(text->size(), 1024));
  id.pop_back();  // the last byte read (the newline, PCP's agent assumes)
  id.resize(std::strlen(id.c_str()));
  if (const size_t nl = id.rfind('\n'); nl != std::string::npos) id.resize(nl);
  const char* forms[][2] = {{"t10.", "1"}, {"eui.", "2"}, {"naa.", "3"}};
  for (const auto& f : forms) {
    if (absl::StartsWith(id, f[0])) return f[1] + id.substr(4);
  }
  return id;
}

}  // namespace pmapi::linux_agent
