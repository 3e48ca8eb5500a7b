// The hinv.cpu metrics of the Linux agent: /proc/cpuinfo (hinv.cpu.clock,
// vendor, model, stepping, cache, bogomips, model_name, flags,
// cache_alignment) and /sys/devices/system/cpu/cpuN (online,
// thermal_throttle, frequency_scaling).
#include <strings.h>

#include <cstdlib>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "pmapi/errors.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

bool StartsNoCase(absl::string_view line, const char* key) {
  const size_t n = std::char_traits<char>::length(key);
  return line.size() >= n && strncasecmp(line.data(), key, n) == 0;
}

// The number at the start of `s` as atoi/atof read it (0 when none).
uint32_t LeadingU32(absl::string_view s) { return static_cast<uint32_t>(std::atoi(std::string(s).c_str())); }
double LeadingDouble(absl::string_view s) { return std::atof(std::string(s).c_str()); }

// Takes one "key: value" line into `c`. Each field keeps the first line
// that names it (the clock: the last), and a line is tried against the
// keys in PCP's order, so a key that is a prefix of another ("model",
// "model name") goes to the first field still unset.
void TakeLine(absl::string_view key, absl::string_view val, CpuInfo& c) {
  if (!c.sapic && StartsNoCase(key, "sapic")) {
    c.sapic = true;
  } else if (!c.model_name && (StartsNoCase(key, "model name") || StartsNoCase(key, "hardware"))) {
    c.model_name = std::string(val);
  } else if (!c.model && (StartsNoCase(key, "model") || StartsNoCase(key, "cpu model") ||
                          StartsNoCase(key, "cpu variant"))) {
    c.model = std::string(val);
  } else if (!c.vendor && (StartsNoCase(key, "vendor") || StartsNoCase(key, "cpu implementer"))) {
    c.vendor = std::string(val);
  } else if (!c.stepping && (StartsNoCase(key, "step") || StartsNoCase(key, "revision") ||
                             StartsNoCase(key, "cpu revision"))) {
    c.stepping = std::string(val);
  } else if (!c.flags && StartsNoCase(key, "flags")) {
    c.flags = std::string(val);
  } else if (!c.flags && StartsNoCase(key, "features")) {
    c.flags = std::string(absl::StripAsciiWhitespace(val));
  } else if (c.cache == 0 && StartsNoCase(key, "cache size")) {
    c.cache = LeadingU32(val);
  } else if (c.cache_align == 0 && StartsNoCase(key, "cache_align")) {
    c.cache_align = LeadingU32(val);
  } else if (c.bogomips == 0 && StartsNoCase(key, "bogo")) {
    c.bogomips = static_cast<float>(LeadingDouble(val));
  } else if (StartsNoCase(key, "cpu MHz")) {
    c.clock = static_cast<float>(LeadingDouble(val));
  } else if (c.clock == 0 && StartsNoCase(key, "cycle frequency")) {
    c.clock = static_cast<float>(LeadingDouble(val.substr(0, val.find(' '))) / 1000000);
  }
}

// The first of `a` and `b` present, else "unknown".
const std::string& Or(const std::optional<std::string>& a, const std::optional<std::string>* b = nullptr) {
  static const std::string unknown = "unknown";
  return a ? *a : (b != nullptr && *b) ? **b : unknown;
}

std::string CpuDir(unsigned inst) { return absl::StrCat("/sys/devices/system/cpu/cpu", inst); }

// The scaling driver's current frequency in MHz, 0 when there is none.
uint64_t CurrentKhz(const LinuxState& st, unsigned inst) {
  std::optional<int64_t> khz = ReadNumber(st, CpuDir(inst) + "/cpufreq/scaling_cur_freq");
  return khz && *khz > 0 ? static_cast<uint64_t>(*khz) : 0;
}

struct Scaling {
  std::optional<uint64_t> count, time;
  std::optional<uint32_t> max, min;
};

// Frequency scaling of one processor: from the governor's time_in_state
// table ("KHZ TICKS" lines) when there is one, else the limits and the
// current frequency (which then stands as the count, as PCP's agent has it).
Scaling ScalingOf(const LinuxState& st, unsigned inst) {
  Scaling s;
  std::optional<std::string> table = ls::ReadProcFile(st.root, CpuDir(inst) + "/cpufreq/stats/time_in_state");
  if (table) {
    uint64_t total = 0, hits = 0, max = 0, min = 0;
    for (absl::string_view line : absl::StrSplit(*table, '\n', absl::SkipEmpty())) {
      std::vector<absl::string_view> f = absl::StrSplit(line, ' ', absl::SkipEmpty());
      uint64_t khz, ticks;
      if (f.size() < 2 || !absl::SimpleAtoi(f[0], &khz) || !absl::SimpleAtoi(f[1], &ticks)) break;
      const uint64_t mhz = khz / 1000;
      total += mhz * ticks;
      hits += ticks;
      max = std::max(max, mhz);
      if (min == 0 || mhz < min) min = mhz;
    }
    s.count = total;
    s.time = hits;
    s.max = static_cast<uint32_t>(max);
    s.min = static_cast<uint32_t>(min);
    return s;
  }
  if (std::optional<int64_t> v = ReadNumber(st, CpuDir(inst) + "/cpufreq/cpuinfo_max_freq"))
    s.max = static_cast<uint32_t>(*v / 1000);
  if (std::optional<int64_t> v = ReadNumber(st, CpuDir(inst) + "/cpufreq/cpuinfo_min_freq"))
    s.min = static_cast<uint32_t>(*v / 1000);
  if (std::optional<int64_t> v = ReadNumber(st, CpuDir(inst) + "/cpufreq/scaling_cur_freq"))
    s.count = static_cast<uint64_t>(*v) / 1000;
  return s;
}

int ScalingValue(const LinuxState& st, unsigned item, unsigned inst, AtomValue* atom) {
  const Scaling s = ScalingOf(st, inst);
  switch (item) {
    case 6: return s.count ? (atom->ull = *s.count, 1) : 0;
    case 7: return s.time ? (atom->ull = *s.time, 1) : 0;
    case 8: return s.max ? (atom->ul = *s.max, 1) : 0;
    case 9: return s.min ? (atom->ul = *s.min, 1) : 0;
  }
  return kErrPmid;
}

bool IsCpu(const LinuxState& st, Inst inst) {
  for (const auto& c : st.stat.cpus) {
    if (Inst{c.first} == inst) return true;
  }
  return false;
}

}  // namespace

void RefreshCpuinfo(LinuxState& st) {
  st.cpuinfo.clear();
  const size_t ncpu = st.stat.cpus.size();
  std::string text = ReadText(st, "/proc/cpuinfo");
  CpuInfo saved;        // lines before the first processor, or of all (arm)
  bool shared = false;  // one description for every processor
  bool after_processor = false;
  int cpu = -1;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) continue;
    absl::string_view val = colon + 2 <= line.size() ? line.substr(colon + 2) : absl::string_view();
    if (absl::StartsWith(line, "processor")) {  // case matters here, as in PCP's agent
      ++cpu;
      if (after_processor) shared = true;  // processor lines first, the description after
      after_processor = true;
      continue;
    }
    after_processor = false;
    if (cpu >= static_cast<int>(ncpu)) continue;
    if (shared || cpu < 0) {
      shared = true;
      TakeLine(line, val, saved);
      continue;
    }
    if (st.cpuinfo.size() <= static_cast<size_t>(cpu)) st.cpuinfo.resize(static_cast<size_t>(cpu) + 1);
    TakeLine(line, val, st.cpuinfo[static_cast<size_t>(cpu)]);
  }
  if (shared) st.cpuinfo.assign(ncpu, saved);
}

int FetchCpuinfo(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  if (!IsCpu(st, inst)) return kErrInst;
  const uint32_t cpu = static_cast<uint32_t>(ToPcp(inst));
  if (r.cluster == 55) {
    const std::string dir = CpuDir(cpu);
    switch (r.item) {
      case 0: {
        std::optional<int64_t> on = ReadNumber(st, dir + "/online");
        atom->ul = on ? static_cast<uint32_t>(*on) : 1;
        return 1;
      }
      case 2: case 3: case 4: case 5: {
        const char* file[] = {"core_throttle_count", "core_throttle_total_time_ms", "package_throttle_count",
                              "package_throttle_total_time_ms"};
        std::optional<int64_t> v = ReadNumber(st, dir + "/thermal_throttle/" + file[r.item - 2]);
        atom->ull = v ? static_cast<uint64_t>(*v) : 0;
        return 1;
      }
    }
    return ScalingValue(st, r.item, cpu, atom);
  }
  static const CpuInfo none;
  const CpuInfo& c = cpu < st.cpuinfo.size() ? st.cpuinfo[cpu] : none;
  switch (r.item) {
    case 0:
      if (c.clock != 0) return (atom->f = c.clock, 1);
      if (const uint64_t khz = CurrentKhz(st, cpu)) return (atom->f = static_cast<float>(khz) / 1000.0f, 1);
      return 0;
    case 1: atom->bytes = Or(c.vendor); return 1;
    case 2: atom->bytes = Or(c.model, &c.model_name); return 1;
    case 3: atom->bytes = Or(c.stepping); return 1;
    case 4: return c.cache != 0 ? (atom->ul = c.cache, 1) : 0;
    case 5: return c.bogomips != 0 ? (atom->f = c.bogomips, 1) : 0;
    case 9: atom->bytes = Or(c.model_name, &c.model); return 1;
    case 10: atom->bytes = Or(c.flags); return 1;
    case 11: return c.cache_align != 0 ? (atom->ul = c.cache_align, 1) : 0;
  }
  return kErrPmid;
}

}  // namespace pmapi::linux_agent
