// kernel.all.pressure.* (pressure stall information, /proc/pressure/{cpu,
// memory,io,irq}) and mem.ksm.* (kernel same-page merging,
// /sys/kernel/mm/ksm) of the Linux agent.
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

}  // namespace

void RefreshPressureKsm(LinuxState& st, uint32_t sources, const std::vector<unsigned>& clusters) {
  if (sources & kSrcPressure) {
    for (unsigned c : clusters) {
      if (const char* file = PressureFile(c)) st.pressure[c] = ParsePressure(ls::ReadProcFile(st.root, file));
    }
  }
  if (sources & kSrcKsm) {
    st.ksm.clear();
    for (const char* f : {"full_scans", "merge_across_nodes", "pages_shared", "pages_sharing", "pages_to_scan",
                          "pages_unshared", "pages_volatile", "run", "sleep_millisecs"}) {
      if (std::optional<int64_t> v = ReadNumber(st, std::string("/sys/kernel/mm/ksm/") + f)) st.ksm[f] = *v;
    }
  }
}

int FetchPressureKsm(const LinuxState& st, const MetricRow& r, unsigned inst, AtomValue* atom) {
  if (r.cluster == 69) {
    static constexpr const char* kFiles[] = {"full_scans", "merge_across_nodes", "pages_shared",
                                             "pages_sharing", "pages_to_scan", "pages_unshared",
                                             "pages_volatile", "run", "sleep_millisecs"};
    if (r.item >= sizeof(kFiles) / sizeof(kFiles[0])) return kErrPmid;
    auto it = st.ksm.find(kFiles[r.item]);
    if (it == st.ksm.end()) return 0;
    atom->ull = static_cast<uint64_t>(it->second);
    return 1;
  }
  auto it = st.pressure.find(r.cluster);
  if (it == st.pressure.end()) return 0;
  // cpu: some.avg some.total; memory, io: also full.avg full.total; irq: full.avg full.total
  const bool full = r.cluster == 93 || r.item >= 2;
  const PressureLine& l = full ? it->second.full : it->second.some;
  if (!l.valid) return 0;
  if (r.item % 2 == 1) return (atom->ull = l.total, 1);
  switch (inst) {
    case 10: atom->f = l.avg[0]; return 1;
    case 60: atom->f = l.avg[1]; return 1;
    case 300: atom->f = l.avg[2]; return 1;
  }
  return kErrInst;
}

}  // namespace pmapi::linux_agent
