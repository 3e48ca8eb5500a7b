#include "pmdas/linux/proc_stats.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace pmapi::linux_stats {
namespace {

std::vector<absl::string_view> Fields(absl::string_view line) {
  return absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty());
}

std::vector<absl::string_view> Lines(std::string_view text) {
  return absl::StrSplit(absl::string_view(text.data(), text.size()), '\n', absl::SkipEmpty());
}

// Reads field i of f as a number, leaving *out alone when it is missing or
// not a number.
template <typename T>
bool Field(const std::vector<absl::string_view>& f, size_t i, T* out) {
  return i < f.size() && absl::SimpleAtoi(f[i], out);
}

bool Field(const std::vector<absl::string_view>& f, size_t i, float* out) {
  return i < f.size() && absl::SimpleAtof(f[i], out);
}

// Reads the whole of `fd` from offset 0 (pread: a kept descriptor is
// read again from the start, and procfs regenerates the text).
std::string ReadAll(int fd) {
  std::string out;
  size_t used = 0;
  for (;;) {
    if (out.size() - used < 4096) {
      out.resize(std::min(kMaxProcFileBytes, std::max<size_t>(8192, out.size() * 2)));
    }
    if (used >= out.size()) break;
    const ssize_t n = pread(fd, out.data() + used, out.size() - used, static_cast<off_t>(used));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    used += static_cast<size_t>(n);
  }
  out.resize(used);
  return out;
}

// Descriptors of the system-wide /proc files, kept open per thread: the
// statistics are read on every fetch, and opening the file again costs
// more than generating its text. Each use checks (fstat) that the
// descriptor is still the file it was opened on, in case the program
// closed it behind our back and the number now names something else.
class ProcFiles {
 public:
  ~ProcFiles() {
    for (const Kept& k : kept_) close(k.fd);
  }
  int Open(std::string_view path) {
    for (Kept& k : kept_) {
      if (k.path != path) continue;
      struct stat now {};
      if (fstat(k.fd, &now) == 0 && now.st_dev == k.dev && now.st_ino == k.ino) return k.fd;
      k.fd = OpenAt(path, &k.dev, &k.ino);  // the old number is not ours any more
      return k.fd;
    }
    Kept k;
    k.path = std::string(path);
    k.fd = OpenAt(path, &k.dev, &k.ino);
    if (k.fd >= 0) kept_.push_back(std::move(k));
    return k.fd;
  }

 private:
  struct Kept {
    std::string path;
    int fd = -1;
    dev_t dev = 0;
    ino_t ino = 0;
  };
  static int OpenAt(std::string_view path, dev_t* dev, ino_t* ino) {
    const int fd = open(std::string(path).c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    if (fd >= 0 && fstat(fd, &st) != 0) {
      close(fd);
      return -1;
    }
    *dev = st.st_dev;
    *ino = st.st_ino;
    return fd;
  }
  std::vector<Kept> kept_;
};

bool KeptOpen(const std::string& root, std::string_view path) {
  static constexpr std::string_view kKept[] = {"/proc/stat", "/proc/meminfo", "/proc/loadavg",
                                               "/proc/diskstats", "/proc/net/dev", "/proc/vmstat",
                                               "/proc/uptime", "/proc/net/snmp", "/proc/net/netstat",
                                               "/proc/net/snmp6", "/proc/net/sockstat"};
  if (!root.empty()) return false;  // made-up trees are read afresh
  for (std::string_view k : kKept) {
    if (path == k) return true;
  }
  return false;
}

}  // namespace

std::optional<std::string> ReadProcFile(const std::string& root, std::string_view path) {
  if (KeptOpen(root, path)) {
    thread_local ProcFiles files;
    const int fd = files.Open(path);
    if (fd < 0) return std::nullopt;
    return ReadAll(fd);
  }
  std::string name;
  name.reserve(root.size() + path.size());
  name.append(root).append(path);
  const int fd = open(name.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string out = ReadAll(fd);
  close(fd);
  return out;
}

StatInfo ParseStat(std::string_view text) {
  StatInfo st;
  for (absl::string_view line : Lines(text)) {
    std::vector<absl::string_view> f = Fields(line);
    if (f.empty()) continue;
    if (absl::StartsWith(f[0], "cpu")) {
      CpuTimes t;
      uint64_t* slots[] = {&t.user, &t.nice, &t.sys, &t.idle, &t.iowait, &t.irq, &t.softirq,
                           &t.steal, &t.guest, &t.guest_nice};
      for (size_t i = 0; i < 10; ++i) Field(f, i + 1, slots[i]);
      absl::string_view num = f[0].substr(3);
      int cpu = 0;
      if (num.empty()) {
        st.have_all = true;
        st.all = t;
      } else if (absl::SimpleAtoi(num, &cpu) && cpu >= 0) {
        st.cpus.emplace_back(cpu, t);
      }
    } else if (f[0] == "intr") {
      uint64_t v;
      if (Field(f, 1, &v)) st.intr = v;
    } else if (f[0] == "ctxt") {
      uint64_t v;
      if (Field(f, 1, &v)) st.ctxt = v;
    } else if (f[0] == "processes" || f[0] == "procs_running" || f[0] == "procs_blocked") {
      uint64_t v;
      if (Field(f, 1, &v)) (f[0] == "processes" ? st.processes : f[0] == "procs_running" ? st.running : st.blocked) = v;
    } else if (f[0] == "btime") {
      int64_t v;
      if (Field(f, 1, &v)) st.btime = v;
    } else if (f[0] == "swap") {
      uint32_t in, out;
      if (Field(f, 1, &in) && Field(f, 2, &out)) {
        st.swap_in = in;
        st.swap_out = out;
      }
    }
  }
  return st;
}

absl::flat_hash_map<std::string, uint64_t> ParseMeminfo(std::string_view text) {
  absl::flat_hash_map<std::string, uint64_t> out;
  for (absl::string_view line : Lines(text)) {
    std::vector<absl::string_view> f = Fields(line);
    uint64_t v;
    if (f.size() >= 2 && absl::EndsWith(f[0], ":") && absl::SimpleAtoi(f[1], &v))
      out[std::string(f[0].substr(0, f[0].size() - 1))] = v;
  }
  return out;
}

std::optional<LoadAvg> ParseLoadavg(std::string_view text) {
  std::vector<absl::string_view> f = Fields(absl::StripAsciiWhitespace(absl::string_view(text.data(), text.size())));
  LoadAvg l;
  for (int i = 0; i < 3; ++i) {
    if (!Field(f, i, &l.avg[i])) return std::nullopt;
  }
  if (f.size() > 3) {
    std::vector<absl::string_view> rt = absl::StrSplit(f[3], '/');
    if (rt.size() == 2) {
      (void)absl::SimpleAtoi(rt[0], &l.running);
      (void)absl::SimpleAtoi(rt[1], &l.total);
    }
  }
  if (f.size() > 4) (void)absl::SimpleAtoi(f[4], &l.lastpid);
  return l;
}

std::vector<DiskStat> ParseDiskstats(std::string_view text) {
  std::vector<DiskStat> out;
  for (absl::string_view line : Lines(text)) {
    std::vector<absl::string_view> f = Fields(line);
    DiskStat d;
    if (f.size() < 14 || !Field(f, 0, &d.major) || !Field(f, 1, &d.minor)) continue;
    d.name = std::string(f[2]);
    uint64_t* slots[] = {&d.reads, &d.read_merges, &d.read_sectors, &d.read_ticks, &d.writes,
                         &d.write_merges, &d.write_sectors, &d.write_ticks, &d.in_flight, &d.io_ticks,
                         &d.time_in_queue, &d.discards, &d.discard_merges, &d.discard_sectors,
                         &d.discard_ticks, &d.flushes, &d.flush_ticks};
    bool ok = true;
    for (size_t i = 0; i < 17 && i + 3 < f.size(); ++i) {
      if (!Field(f, i + 3, slots[i])) {
        ok = i >= 11;  // the basic eleven must be numbers
        break;
      }
      d.fields = static_cast<int>(i + 1);
    }
    if (ok) out.push_back(std::move(d));
  }
  return out;
}

std::vector<NetDev> ParseNetDev(std::string_view text) {
  std::vector<NetDev> out;
  for (absl::string_view line : Lines(text)) {
    size_t colon = line.find(':');
    if (colon == absl::string_view::npos) continue;
    absl::string_view name = absl::StripAsciiWhitespace(line.substr(0, colon));
    if (name.empty() || name.find('|') != absl::string_view::npos) continue;
    std::vector<absl::string_view> f = Fields(line.substr(colon + 1));
    NetDev n;
    n.name = std::string(name);
    uint64_t* slots[] = {&n.in_bytes, &n.in_packets, &n.in_errors, &n.in_drops, &n.in_fifo,
                         &n.in_frame, &n.in_compressed, &n.in_mcasts, &n.out_bytes, &n.out_packets,
                         &n.out_errors, &n.out_drops, &n.out_fifo, &n.out_collisions,
                         &n.out_carrier, &n.out_compressed};
    bool ok = true;
    for (size_t i = 0; i < 16; ++i) ok = ok && Field(f, i, slots[i]);
    if (!ok) continue;
    out.push_back(std::move(n));
  }
  return out;
}

absl::flat_hash_map<std::string, uint64_t> ParseVmstat(std::string_view text) {
  absl::flat_hash_map<std::string, uint64_t> out;
  for (absl::string_view line : Lines(text)) {
    std::vector<absl::string_view> f = Fields(line);
    uint64_t v;
    if (f.size() >= 2 && absl::SimpleAtoi(f[1], &v)) out[std::string(f[0])] = v;
  }
  return out;
}

std::vector<Mount> ParseMounts(std::string_view text) {
  std::vector<Mount> out;
  for (absl::string_view line : Lines(text)) {
    std::vector<absl::string_view> f = Fields(line);
    if (f.size() < 3) continue;
    out.push_back(Mount{std::string(f[0]), std::string(f[1]), std::string(f[2])});
  }
  return out;
}

std::vector<std::string_view> FgetsLines(std::string_view text, size_t size) {
  std::vector<std::string_view> out;
  const size_t most = size > 1 ? size - 1 : 1;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const size_t end = std::min(nl == std::string_view::npos ? text.size() : nl + 1, most);
    out.push_back(text.substr(0, end));
    text.remove_prefix(end);
  }
  return out;
}

}  // namespace pmapi::linux_stats
