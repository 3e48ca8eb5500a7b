// The disk.dev, disk.all, disk.partitions and hinv.ndisk metrics of the
// Linux agent: /proc/diskstats, sizes from /proc/partitions, the I/O
// scheduler from /sys/block/NAME/queue/scheduler.
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "pmapi/errors.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

bool HasPrefix(absl::string_view name, absl::string_view prefix) { return absl::StartsWith(name, prefix); }

// Disks named PREFIXn whose partitions are PREFIXnpM.
bool IsWholeP(absl::string_view name, absl::string_view prefix) {
  return HasPrefix(name, prefix) && name.substr(prefix.size()).find('p') == absl::string_view::npos;
}

bool IsCdrom(absl::string_view name) { return HasPrefix(name, "sr") && name.size() > 2 && std::isdigit(name[2]); }

// PCP's partition test: names ending in a digit that are not one of the
// device kinds whose whole-device names end in digits.
bool IsPartition(absl::string_view name) {
  if (name.empty()) return false;
  if (name.find('/') != absl::string_view::npos) {
    size_t p = name.size() - 1;
    while (p > 0 && std::isdigit(static_cast<unsigned char>(name[p]))) --p;
    return p == name.size() - 1 ? true : name[p] == 'p';
  }
  return std::isdigit(static_cast<unsigned char>(name.back())) && !HasPrefix(name, "loop") &&
         !HasPrefix(name, "ram") && !IsWholeP(name, "mmcblk") && !IsWholeP(name, "nvme") &&
         !IsWholeP(name, "rbd") && !HasPrefix(name, "zram") && !IsWholeP(name, "nbd") &&
         !HasPrefix(name, "md") && !HasPrefix(name, "dm-") && !IsCdrom(name);
}

bool IsWwid(absl::string_view name) {
  return name.size() == 18 && (name[0] == '1' || name[0] == '2' || name[0] == '3');
}

bool IsDisk(absl::string_view name) {
  return !HasPrefix(name, "loop") && !HasPrefix(name, "ram") && !IsCdrom(name) && !HasPrefix(name, "zram") &&
         !IsPartition(name) && name.find("xvm") == absl::string_view::npos && !HasPrefix(name, "dm-") &&
         !HasPrefix(name, "md") && !IsWwid(name);
}

// Kilobytes of each device in /proc/partitions.
absl::flat_hash_map<std::string, uint64_t> Sizes(const LinuxState& st) {
  absl::flat_hash_map<std::string, uint64_t> out;
  for (absl::string_view line : absl::StrSplit(ReadText(st, "/proc/partitions"), '\n', absl::SkipEmpty())) {
    std::vector<absl::string_view> f = absl::StrSplit(line, ' ', absl::SkipEmpty());
    uint64_t kb;
    if (f.size() == 4 && absl::SimpleAtoi(f[2], &kb)) out[std::string(f[3])] = kb;
  }
  return out;
}

std::string Scheduler(const LinuxState& st, const std::string& name) {
  std::string text = ReadText(st, "/sys/block/" + name + "/queue/scheduler");
  const size_t open = text.find('['), close = text.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return "unknown";
  return text.substr(open + 1, close - open - 1);
}

uint64_t Low32(uint64_t v) { return v & 0xffffffffu; }

// The statistic behind a disk.dev item, or for partitions (cluster 10)
// the item of the matching disk.dev metric. Returns false for others.
bool DevItemOfPartition(unsigned part_item, unsigned* dev_item) {
  static constexpr unsigned kMap[] = {4, 5, 28, 6, 7, 36, 38, 39, 40, 49, 50, 46, 47,
                                      72, 73, 79, 87, 88, 89, 90, 91, 92, 93, 94, 95};
  if (part_item >= sizeof(kMap) / sizeof(kMap[0])) return false;
  *dev_item = kMap[part_item];
  return true;
}

// disk.all item -> the disk.dev item it sums.
bool DevItemOfAll(unsigned all_item, unsigned* dev_item) {
  static constexpr unsigned kPairs[][2] = {
      {24, 4}, {25, 5}, {29, 28}, {26, 6}, {27, 7}, {37, 36}, {41, 38}, {42, 39}, {43, 40},
      {51, 49}, {52, 50}, {44, 46}, {45, 47}, {74, 72}, {75, 73}, {80, 79}, {96, 88}, {97, 89},
      {98, 90}, {99, 91}, {100, 92}, {101, 93}, {102, 94}, {104, 95}};
  for (const auto& p : kPairs) {
    if (p[0] == all_item) {
      *dev_item = p[1];
      return true;
    }
  }
  return false;
}

bool DevValue(unsigned item, const ls::DiskStat& d, uint64_t* v) {
  switch (item) {
    case 4: *v = d.reads; return true;
    case 5: *v = d.writes; return true;
    case 28: *v = d.reads + d.writes; return true;
    case 6: *v = d.read_sectors; return true;
    case 7: *v = d.write_sectors; return true;
    case 36: *v = d.read_sectors + d.write_sectors; return true;
    case 38: *v = d.read_sectors / 2; return true;
    case 39: *v = d.write_sectors / 2; return true;
    case 40: *v = (d.read_sectors + d.write_sectors) / 2; return true;
    case 49: *v = d.read_merges; return true;
    case 50: *v = d.write_merges; return true;
    case 46: *v = Low32(d.io_ticks); return true;
    case 47: *v = Low32(d.time_in_queue); return true;
    case 72: *v = Low32(d.read_ticks); return true;
    case 73: *v = Low32(d.write_ticks); return true;
    case 79: *v = Low32(Low32(d.read_ticks) + Low32(d.write_ticks)); return true;
    case 88: *v = d.discards; return true;
    case 89: *v = d.discard_sectors; return true;
    case 90: *v = d.discard_sectors / 2; return true;
    case 91: *v = d.discard_merges; return true;
    case 92: *v = Low32(d.discard_ticks); return true;
    case 93: *v = d.flushes; return true;
    case 94: *v = Low32(d.flush_ticks); return true;
    case 95: *v = Low32(d.in_flight); return true;
  }
  return false;
}

int Store(const MetricRow& r, uint64_t v, AtomValue* atom) {
  if (r.type == kTypeU32) atom->ul = static_cast<uint32_t>(v);
  else atom->ull = v;
  return 1;
}

int OneDevice(const LinuxState& st, const MetricRow& r, unsigned item, const Disk& d, AtomValue* atom) {
  if (item == 59) {
    atom->bytes = Scheduler(st, d.s.name);
    return 1;
  }
  if (item == 87) {
    auto it = st.sizes.find(d.s.name);  // the kernel's name
    if (it == st.sizes.end() || it->second == 0) return 0;
    return Store(r, it->second, atom);
  }
  uint64_t v = 0;
  if (!DevValue(item, d.s, &v)) return kErrPmid;
  return Store(r, v, atom);
}

void Publish(Pmda& pmda, unsigned serial, const std::vector<Disk>& list) {
  std::vector<PmdaInstid> set;
  for (const Disk& d : list) set.push_back({d.inst, d.name.empty() ? d.s.name : d.name});
  SetInstances(pmda, serial, std::move(set));
}

// A device-mapper device's name: /sys/block/dm-N/dm/name, else the
// /dev/mapper block device with its numbers; "" when it has none.
std::string DmName(const LinuxState& st, const ls::DiskStat& d) {
  std::string name = ReadText(st, "/sys/block/" + d.name + "/dm/name");
  if (!name.empty()) return name.substr(0, name.find('\n'));
  const std::string dir = st.root + "/dev/mapper";
  DIR* dp = opendir(dir.c_str());
  if (dp == nullptr) return "";
  while (struct dirent* e = readdir(dp)) {
    struct stat sb {};
    if (stat((dir + "/" + e->d_name).c_str(), &sb) != 0 || !S_ISBLK(sb.st_mode)) continue;
    if (major(sb.st_rdev) == d.major && minor(sb.st_rdev) == d.minor) {
      name = e->d_name;
      break;
    }
  }
  closedir(dp);
  return name;
}

// An md device's name from the /dev/md links to it, else its own.
std::string MdName(const LinuxState& st, const std::string& kernel_name) {
  const std::string dir = st.root + "/dev/md";
  std::string name = kernel_name;
  DIR* dp = opendir(dir.c_str());
  if (dp == nullptr) return name;
  while (struct dirent* e = readdir(dp)) {
    if (e->d_name[0] == '.' || std::isdigit(static_cast<unsigned char>(e->d_name[0]))) continue;
    char target[4096];
    const ssize_t n = readlink((dir + "/" + e->d_name).c_str(), target, sizeof(target) - 1);
    if (n < 0) continue;
    std::string t(target, static_cast<size_t>(n));
    if (t.substr(t.rfind('/') + 1) == kernel_name) {
      name = e->d_name;
      break;
    }
  }
  closedir(dp);
  return name;
}

// disk.dm and disk.md item -> the disk.dev item of the same statistic
// (13 is the kernel's name, hinv.map.dmname or mdname).
bool DevItemOfMapped(unsigned item, unsigned* dev_item) {
  static constexpr unsigned kMap[] = {4, 5, 28, 6, 7, 36, 38, 39, 40, 49, 50, 46, 47, 0,
                                      72, 73, 79, 87, 88, 89, 90, 91, 92, 93, 94, 95};
  if (item >= sizeof(kMap) / sizeof(kMap[0]) || item == 13) return false;
  *dev_item = kMap[item];
  return true;
}

void AddWwid(LinuxState& st, const std::string& wwid) {
  for (const PmdaInstid& w : st.wwids) {
    if (w.name == wwid) return;
  }
  st.wwids.push_back({st.wwid_ids.For(wwid), wwid});
}

// One path's share of a disk.wwid item, added into `sum` as PCP's agent
// adds it: most counters in 64 bits, the rest in the low 32 bits of the
// value; discard_bytes is the last path's alone. False for "no value".
bool AddWwidPath(const LinuxState& st, unsigned item, const Disk& d, uint64_t* sum) {
  uint64_t v = 0;
  switch (item) {
    case 87: {  // capacity: every path's size must be known
      auto it = st.sizes.find(d.s.name);
      if (it == st.sizes.end() || it->second == 0) return false;
      *sum += it->second;
      return true;
    }
    case 90:
      *sum = Low32(d.s.discard_sectors / 2);
      return true;
    case 88: case 89: case 91: case 93:
      (void)DevValue(item, d.s, &v);
      *sum = Low32(*sum + v);
      return true;
  }
  if (!DevValue(item, d.s, &v)) return false;
  *sum += v;
  return true;
}

int FetchWwid(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  const PmdaInstid* w = nullptr;
  for (const PmdaInstid& e : st.wwids) {
    if (e.inst == inst) w = &e;
  }
  if (w == nullptr) return kErrInst;
  if (r.item != 3 && r.item != 59) {
    uint64_t sum = 0;
    for (const Disk& d : st.disks) {
      if (d.wwid != w->name) continue;
      if (!AddWwidPath(st, r.item, d, &sum)) return r.item == 87 ? 0 : kErrPmid;
    }
    return Store(r, r.type == kTypeU32 ? Low32(sum) : sum, atom);
  }
  std::string text;  // scsi_paths: the paths' names; scheduler: the last path's
  for (const Disk& d : st.disks) {
    if (d.wwid != w->name) continue;
    if (r.item == 3) {
      if (!text.empty()) text += ' ';
      text += d.s.name;
    } else {
      text = Scheduler(st, d.s.name);
    }
  }
  atom->bytes = text;
  return 1;
}

// disk.md.status: the wait status of "mdadm --detail --test /dev/NAME"
// (0 for a healthy array; see mdadm(8)), its output discarded; -1 when
// the program cannot be read. As PCP's agent, the program is $LINUX_MDADM
// or /sbin/mdadm; it is run directly, without a shell, and a program that
// cannot be started gives the shell's status for it (126 when it may not
// be run, else 127).
int MdadmStatus(const LinuxState& st, const std::string& name) {
  if (access(st.mdadm.c_str(), R_OK) != 0) return -1;
  const std::string dev = "/dev/" + name;
  char* const argv[] = {const_cast<char*>(st.mdadm.c_str()), const_cast<char*>("--detail"),
                        const_cast<char*>("--test"), const_cast<char*>(dev.c_str()), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int err = posix_spawn(&pid, argv[0], &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) return (err == EACCES || err == ENOEXEC ? 126 : 127) << 8;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return status;
}

// zram.capacity: the device's disksize in kilobytes, else its size in
// /proc/partitions.
int ZramCapacity(const LinuxState& st, const MetricRow& r, const std::string& name, AtomValue* atom) {
  unsigned long long bytes = 0;
  const std::string text = ReadText(st, "/sys/block/" + name + "/disksize");
  if (!text.empty() && std::sscanf(text.c_str(), "%llu", &bytes) == 1) return Store(r, bytes >> 10, atom);
  auto it = st.sizes.find(name);
  return Store(r, it == st.sizes.end() ? 0 : it->second, atom);
}

// zram.io_stat (cluster 87), mm_stat (88) and bd_stat (89): the numbers of
// /sys/block/NAME/{io,mm,bd}_stat, in kilobytes where the file counts bytes
// or 4 KiB pages. A file without all its numbers gives no value.
int ZramStat(const LinuxState& st, const MetricRow& r, const std::string& name, AtomValue* atom) {
  static constexpr const char* kFile[] = {"io_stat", "mm_stat", "bd_stat"};
  static constexpr unsigned kCount[] = {4, 8, 3};
  const unsigned which = r.cluster - 87;
  if (r.item >= kCount[which]) return kErrPmid;
  const std::string text = ReadText(st, "/sys/block/" + name + "/" + kFile[which]);
  unsigned long long v[8] = {};
  const int n = std::sscanf(text.c_str(), "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
                            &v[4], &v[5], &v[6], &v[7]);
  if (n < static_cast<int>(kCount[which])) return 0;
  uint64_t value = v[r.item];
  if (which == 1) value = r.item < 5 ? value >> 10 : value << 2;  // bytes, then 4 KiB pages
  if (which == 2) value <<= 2;                                    // 4 KiB pages
  atom->ull = value;
  return 1;
}

}  // namespace

void RefreshDisk(LinuxState& st, Sources sources, Pmda& pmda) {
  st.disks.clear();
  st.partitions.clear();
  st.dms.clear();
  st.mds.clear();
  st.zrams.clear();
  st.wwids.clear();
  for (ls::DiskStat& d : ls::ParseDiskstats(ReadText(st, "/proc/diskstats"))) {
    if (HasPrefix(d.name, "dm-")) {
      std::string name = DmName(st, d);
      if (!name.empty()) st.dms.push_back(Disk{st.dm_ids.For(name), std::move(d), name, ""});
    } else if (HasPrefix(d.name, "md")) {
      std::string name = MdName(st, d.name);
      st.mds.push_back(Disk{st.md_ids.For(name), std::move(d), name, ""});
    } else if (HasPrefix(d.name, "zram")) {
      st.zrams.push_back(Disk{st.zram_ids.For(d.name), std::move(d), "", ""});
    } else if (IsPartition(d.name)) {
      st.partitions.push_back(Disk{st.part_ids.For(d.name), std::move(d), "", ""});
    } else if (IsDisk(d.name)) {
      Disk disk{st.disk_ids.For(d.name), std::move(d), "", ""};
      disk.wwid = ScsiId(st, disk.s.name);
      if (!absl::StartsWith(disk.wwid, "unknown")) AddWwid(st, disk.wwid);
      st.disks.push_back(std::move(disk));
    } else if (IsWwid(d.name)) {
      AddWwid(st, d.name);
    }
  }
  // as in PCP's agent, the sizes are known only to a fetch that asked for
  // a capacity of disk.dev, dm, md or partitions
  if (sources & kSrcDiskSizes) {
    st.sizes = Sizes(st);
  } else {
    st.sizes.clear();
  }
  Publish(pmda, kDiskIndom, st.disks);
  Publish(pmda, kPartitionsIndom, st.partitions);
  Publish(pmda, kDmIndom, st.dms);
  Publish(pmda, kMdIndom, st.mds);
  Publish(pmda, kZramIndom, st.zrams);
  SetInstances(pmda, kWwidIndom, st.wwids);
}

int FetchDisk(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  unsigned item = r.item;
  if (r.cluster == 54 || r.cluster == 59) {
    const Disk* d = ByInst(r.cluster == 54 ? st.dms : st.mds, inst);
    if (d == nullptr) return kErrInst;
    if (item == 13) return (atom->bytes = d->s.name, 1);
    if (!DevItemOfMapped(item, &item)) return kErrPmid;
    return OneDevice(st, r, item, *d, atom);
  }
  if (r.cluster == 92) return FetchWwid(st, r, inst, atom);
  if (r.cluster == 60) {  // disk.md.status
    const Disk* d = ByInst(st.mds, inst);
    if (d == nullptr) return kErrInst;
    if (item != 0) return kErrPmid;
    atom->l = MdadmStatus(st, d->s.name);
    return 1;
  }
  if (r.cluster >= 86 && r.cluster <= 89) {
    const Disk* d = ByInst(st.zrams, inst);
    if (d == nullptr) return kErrInst;
    if (r.cluster != 86) return ZramStat(st, r, d->s.name, atom);
    if (item == 16) return ZramCapacity(st, r, d->s.name, atom);
    if (!DevItemOfPartition(r.item, &item)) return kErrPmid;
    return OneDevice(st, r, item, *d, atom);
  }
  if (r.cluster == 10) {
    if (!DevItemOfPartition(r.item, &item)) return kErrPmid;
    const Disk* d = ByInst(st.partitions, inst);
    return d ? OneDevice(st, r, item, *d, atom) : kErrInst;
  }
  if (item == 33) {
    atom->ul = static_cast<uint32_t>(st.disks.size());
    return 1;
  }
  if (item == 103) {  // hinv.map.scsi_id
    const Disk* d = ByInst(st.disks, inst);
    if (d == nullptr) return kErrInst;
    atom->bytes = d->wwid;  // read by this fetch's refresh
    return 1;
  }
  unsigned dev_item;
  if (DevItemOfAll(item, &dev_item)) {
    uint64_t sum = 0, v = 0;
    for (const Disk& d : st.disks) {
      if (DevValue(dev_item, d.s, &v)) sum += v;
    }
    return Store(r, sum, atom);
  }
  const Disk* d = ByInst(st.disks, inst);
  return d ? OneDevice(st, r, item, *d, atom) : kErrInst;
}

}  // namespace pmapi::linux_agent
