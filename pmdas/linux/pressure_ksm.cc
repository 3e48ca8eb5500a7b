// kernel.all.pressure.* (pressure stall information, /proc/pressure/{cpu,
// memory,io,irq}) and mem.ksm.* (kernel same-page merging,
// /sys/kernel/mm/ksm) of the Linux agent.
#include <dirent.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "pmapi/errors.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

// "some avg10=0.73 avg60=3.48 avg300=3.18 total=43866535" lines.
Pressure ParsePressure(const std::optional<std::string>& text) {
  Pressure p;
  if (!text) return p;
  for (absl::string_view line : absl::StrSplit(*text, '\n', absl::SkipEmpty())) {
    std::vector<absl::string_view> f = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (f.size() < 5 || (f[0] != "some" && f[0] != "full")) continue;
    PressureLine& l = f[0] == "some" ? p.some : p.full;
    bool ok = true;
    const char* keys[] = {"avg10=", "avg60=", "avg300="};
    for (int i = 0; i < 3; ++i) {
      absl::string_view v = f[i + 1];
      ok = ok && absl::ConsumePrefix(&v, keys[i]) && absl::SimpleAtof(v, &l.avg[i]);
    }
    absl::string_view t = f[4];
    ok = ok && absl::ConsumePrefix(&t, "total=") && absl::SimpleAtoi(t, &l.total);
    l.valid = ok;
  }
  return p;
}

const char* PressureFile(unsigned cluster) {
  switch (cluster) {
    case 83: return "/proc/pressure/cpu";
    case 84: return "/proc/pressure/memory";
    case 85: return "/proc/pressure/io";
    case 93: return "/proc/pressure/irq";
  }
  return nullptr;
}

// The files of mem.ksm.*, in item order; a directory entry counts for the
// first whose name it starts with, as in PCP's agent ("run" for run_state).
constexpr const char* kKsmFiles[] = {"full_scans", "merge_across_nodes", "pages_shared",
                                     "pages_sharing", "pages_to_scan", "pages_unshared",
                                     "pages_volatile", "run", "sleep_millisecs"};

// Reads /sys/kernel/mm/ksm as PCP's agent does: every entry of the
// directory in turn, stopping at one that cannot be opened; values not
// read keep what they had.
void ReadKsm(LinuxState& st) {
  const std::string dir = st.root + "/sys/kernel/mm/ksm";
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return;
  while (struct dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    std::FILE* f = std::fopen((dir + "/" + e->d_name).c_str(), "r");
    if (f == nullptr) break;
    char line[8192];
    if (std::fgets(line, sizeof(line), f) != nullptr) {
      for (size_t i = 0; i < std::size(kKsmFiles); ++i) {
        if (std::strncmp(e->d_name, kKsmFiles[i], std::strlen(kKsmFiles[i])) == 0) {
          st.ksm[i] = std::strtoul(line, nullptr, 10);
          break;
        }
      }
    }
    std::fclose(f);
  }
  closedir(d);
}

}  // namespace

void RefreshPressureKsm(LinuxState& st, Sources sources, const std::vector<unsigned>& clusters) {
  if (sources & kSrcPressure) {
    for (unsigned c : clusters) {
      if (const char* file = PressureFile(c)) st.pressure[c] = ParsePressure(ls::ReadProcFile(st.root, file));
    }
  }
  if (sources & kSrcKsm) ReadKsm(st);
}

int FetchPressureKsm(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  if (r.cluster == 69) {
    if (r.item >= st.ksm.size()) return kErrPmid;
    atom->ull = st.ksm[r.item];
    return 1;
  }
  auto it = st.pressure.find(r.cluster);
  if (it == st.pressure.end()) return 0;
  // cpu: some.avg some.total; memory, io: also full.avg full.total; irq: full.avg full.total
  const bool full = r.cluster == 93 || r.item >= 2;
  const PressureLine& l = full ? it->second.full : it->second.some;
  if (!l.valid) return 0;
  if (r.item % 2 == 1) return (atom->ull = l.total, 1);
  switch (ToPcp(inst)) {
    case 10: atom->f = l.avg[0]; return 1;
    case 60: atom->f = l.avg[1]; return 1;
    case 300: atom->f = l.avg[2]; return 1;
  }
  return kErrInst;
}

}  // namespace pmapi::linux_agent
