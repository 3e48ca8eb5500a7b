// tape.dev.* and hinv.ntape, fchost.* and hinv.nfchost of the Linux agent:
// counters the kernel keeps one file each in a statistics directory.
//
// tape.dev: one instance per tape drive of /sys/class/scsi_tape with a
// stats directory, named as the drive ("st0"). Only the names starting
// with "st" and ending in a digit are taken: the other names of a drive
// (nst0, st0a, ...) share its statistics. The files hold decimal numbers.
//
// fchost: one instance per Fibre Channel host of /sys/class/fc_host with a
// statistics directory, named as the host ("host0"). The files hold
// numbers in C notation (mostly hexadecimal, "0x1f"); a count of words is
// made one of bytes by multiplying it by four.
//
// As in PCP's agent, a file whose name begins the name of a known file is
// taken for it, a device once seen keeps its instance number, and the
// hinv counts are the devices the last refresh found.
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "pmapi/errors.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

// The statistics files of a tape drive, by PMID item of tape.dev.*.
constexpr const char* kTapeFiles[kTapeCounters] = {
    "in_flight", "io_ns",     "other_cnt",      "read_byte_cnt", "read_cnt",
    "read_ns",   "resid_cnt", "write_byte_cnt", "write_cnt",     "write_ns",
};

// The statistics files of a Fibre Channel host, with the PMID item of
// fchost.* each one's value is served as, and the power of two it is
// multiplied by. PCP 6.0.3's agent stores each value at the file's
// position in its own list and serves item N from position N, so the two
// word counts and tx_frames do not land where the metric names suggest:
// fchost.out.frames is rx_words in bytes and fchost.in.bytes is tx_frames.
// The same is done here, as the values are PCP's (QA test 1814).
struct FchostField {
  const char* name;
  unsigned item;
  unsigned shift;
};
constexpr FchostField kFchostFields[kFchostCounters] = {
    {"rx_frames", 0, 0}, {"rx_words", 1, 2},     {"tx_frames", 2, 0},    {"tx_words", 3, 2},
    {"lip_count", 4, 0}, {"nos_count", 5, 0}, {"error_frames", 6, 0}, {"dumped_frames", 7, 0},
};

// The entries of a directory not starting with '.', in readdir's order;
// nothing when it cannot be opened.
std::optional<std::vector<std::string>> Entries(const std::string& dir) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return std::nullopt;
  std::vector<std::string> names;
  while (struct dirent* e = readdir(d)) {
    if (e->d_name[0] != '.') names.push_back(e->d_name);
  }
  closedir(d);
  return names;
}

// What one read of up to 63 bytes of a file gives; nothing when the file
// cannot be opened or the read gives no bytes.
std::optional<std::string> FirstBytes(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return std::nullopt;
  char buf[64];
  const ssize_t n = read(fd, buf, sizeof(buf) - 1);
  close(fd);
  if (n <= 0) return std::nullopt;
  return std::string(buf, static_cast<size_t>(n));
}

// Whether a tape drive's name is one whose statistics are taken.
bool IsTapeName(const std::string& name) {
  return absl::StartsWith(name, "st") && absl::ascii_isdigit(static_cast<unsigned char>(name.back()));
}

// The known file whose name `file` begins (the first such in the list).
std::optional<size_t> TapeFile(const std::string& file) {
  for (size_t i = 0; i < kTapeCounters; ++i) {
    if (absl::StartsWith(kTapeFiles[i], file)) return i;
  }
  return std::nullopt;
}
std::optional<size_t> FchostFile(const std::string& file) {
  for (size_t i = 0; i < kFchostCounters; ++i) {
    if (absl::StartsWith(kFchostFields[i].name, file)) return i;
  }
  return std::nullopt;
}

void ReadTapeStats(const std::string& dir, const std::vector<std::string>& files, StatsDevice& dev) {
  for (const std::string& file : files) {
    std::optional<std::string> text = FirstBytes(dir + "/" + file);
    if (!text) continue;
    if (std::optional<size_t> i = TapeFile(file))
      dev.counts[*i] = static_cast<uint64_t>(std::strtoll(text->c_str(), nullptr, 10));
  }
}

void ReadFchostStats(const std::string& dir, const std::vector<std::string>& files, StatsDevice& dev) {
  for (const std::string& file : files) {
    std::optional<std::string> text = FirstBytes(dir + "/" + file);
    if (!text) continue;
    std::optional<size_t> i = FchostFile(file);
    if (!i) continue;
    uint64_t v = std::strtoull(text->c_str(), nullptr, 0);
    if (v == ULLONG_MAX) v = 0;
    dev.counts[kFchostFields[*i].item] = v << kFchostFields[*i].shift;
  }
}

// Lists the devices of `class_dir` (below the root) that `keep` accepts
// and that have a `stats` directory, reading each one's files with `read`.
std::vector<StatsDevice> ReadClass(const LinuxState& st, const std::string& class_dir, const char* stats,
                                   bool (*keep)(const std::string&), InstanceNumbers& ids,
                                   void (*read)(const std::string&, const std::vector<std::string>&, StatsDevice&)) {
  std::vector<StatsDevice> out;
  const std::string base = st.root + class_dir;
  std::optional<std::vector<std::string>> names = Entries(base);
  if (!names) return out;
  for (const std::string& name : *names) {
    if (!keep(name)) continue;
    const std::string dir = base + "/" + name + "/" + stats;
    std::optional<std::vector<std::string>> files = Entries(dir);
    if (!files) continue;
    StatsDevice dev;
    dev.inst = ids.For(name);
    dev.name = name;
    read(dir, *files, dev);
    out.push_back(std::move(dev));
  }
  std::sort(out.begin(), out.end(), [](const StatsDevice& a, const StatsDevice& b) { return a.inst < b.inst; });
  return out;
}

bool AnyName(const std::string&) { return true; }

std::vector<PmdaInstid> InstancesOf(const std::vector<StatsDevice>& devices) {
  std::vector<PmdaInstid> set;
  for (const StatsDevice& d : devices) set.push_back({d.inst, d.name});
  return set;
}

int DeviceValue(const std::vector<StatsDevice>& devices, unsigned item, size_t counters, Inst inst,
                AtomValue* atom) {
  if (item == 16) {
    atom->ul = static_cast<uint32_t>(devices.size());
    return 1;
  }
  if (item >= counters) return kErrPmid;
  const StatsDevice* d = ByInst(devices, inst);
  if (d == nullptr) return kErrInst;
  atom->ull = d->counts[item];
  return 1;
}

}  // namespace

void RefreshTape(LinuxState& st, Pmda& pmda) {
  st.tapes = ReadClass(st, "/sys/class/scsi_tape", "stats", IsTapeName, st.tape_ids, ReadTapeStats);
  SetInstances(pmda, kTapeIndom, InstancesOf(st.tapes));
}

void RefreshFchost(LinuxState& st, Pmda& pmda) {
  st.fchosts = ReadClass(st, "/sys/class/fc_host", "statistics", AnyName, st.fchost_ids, ReadFchostStats);
  SetInstances(pmda, kFchostIndom, InstancesOf(st.fchosts));
}

int FetchTapeFchost(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  if (r.cluster == 71) return DeviceValue(st.tapes, r.item, kTapeCounters, inst, atom);
  if (r.cluster == 91) return DeviceValue(st.fchosts, r.item, kFchostCounters, inst, atom);
  return kErrPmid;
}

}  // namespace pmapi::linux_agent
