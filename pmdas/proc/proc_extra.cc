// The less watched per-process metrics of the proc agent: proc.smaps
// (smaps_rollup), proc.schedstat, proc.fd.count, proc.autogroup,
// proc.namespaces, and proc.psinfo.{cgroups,wchan_s,policy_s,cpusallowed,
// environ,labels,ttyname}, proc.memory.maps.
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <bit>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "pmapi/errors.h"
#include "pmdas/proc/proc_pid.h"

namespace pmapi::proc_agent {
namespace {

using agent_tables::MetricRow;

constexpr const char* kSmapsKeys[] = {
    "Rss", "Pss", "Pss_Anon", "Pss_File", "Pss_Shmem", "Shared_Clean", "Shared_Dirty", "Private_Clean",
    "Private_Dirty", "Referenced", "Anonymous", "LazyFree", "AnonHugePages", "ShmemPmdMapped",
    "FilePmdMapped", "Shared_Hugetlb", "Private_Hugetlb", "Swap", "SwapPss", "Locked", "Pss_Dirty"};

// "2:cpu:/\n1:cpuset:/\n" becomes "cpu:/;cpuset:/", as ps shows it.
std::string CgroupLine(const std::string& text) {
  std::vector<std::string> parts;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    const size_t colon = line.find(':');
    if (colon != absl::string_view::npos) parts.emplace_back(line.substr(colon + 1));
  }
  return absl::StrJoin(parts, ";");
}

// The container a process runs in, as PCP's agent finds it from the
// first "cpuset:" line of /proc/PID/cgroup: the last component of the
// path is "docker-ID.scope" or "libpod-ID.scope" with a 64-character ID,
// or is itself 65 characters long (of which PCP's agent keeps the first
// 64). "" when there is none.
std::string ContainerOf(const std::string& text) {
  constexpr size_t kIdLength = 64;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) continue;
    absl::string_view rest = line.substr(colon + 1);
    if (!absl::ConsumePrefix(&rest, "cpuset:")) continue;
    const size_t slash = rest.rfind('/');
    if (slash == absl::string_view::npos || slash == 0) continue;
    absl::string_view last = rest.substr(slash);
    if (absl::ConsumePrefix(&last, "/libpod-") || absl::ConsumePrefix(&last, "/docker-")) {
      const size_t dot = last.find('.');
      if (dot == kIdLength) return std::string(last.substr(0, dot));
    } else if (last.size() - 1 == kIdLength + 1) {
      return std::string(last.substr(1, kIdLength));
    }
  }
  return "";
}

const char* PolicyName(int64_t policy) {
  switch (policy) {
    case 0: return "NORMAL";
    case 1: return "FIFO";
    case 2: return "RR";
    case 3: return "BATCH";
    case 5: return "IDLE";
    case 6: return "DEADLN";
  }
  return "?";
}

int Put(const MetricRow& r, uint64_t v, AtomValue* atom) {
  switch (r.type) {
    case kType32: atom->l = static_cast<int32_t>(v); break;
    case kTypeU32: atom->ul = static_cast<uint32_t>(v); break;
    default: atom->ull = v; break;
  }
  return 1;
}

// A status line's words joined with commas ("NSpid:\t12\t1" is "12,1").
int StatusList(const Pid& p, const char* key, AtomValue* atom) {
  auto it = p.status.find(key);
  if (it == p.status.end()) return kErrAppversion;
  std::vector<absl::string_view> w = absl::StrSplit(it->second, absl::ByAnyChar(" \t"), absl::SkipEmpty());
  atom->bytes = absl::StrJoin(w, ",");
  return 1;
}

// /proc/PID/environ as PCP's agent reads it into its buffer, which only
// grows between successful reads: the text (a shorter one followed by its
// NUL and the rest of the longer one before it), every NUL then a blank,
// and the buffer's last byte dropped. A file that cannot be read, or is
// empty, gives "".
void ReadEnviron(const std::string& path, Pid& p) {
  p.ok |= kFileEnviron;
  std::optional<std::string> t = ReadPidFile(path);
  if (!t || t->empty()) {
    p.environ.clear();
    return;
  }
  if (t->size() > p.environ.size()) p.environ.resize(t->size());
  p.environ.replace(0, t->size(), *t);
  if (t->size() < p.environ.size()) p.environ[t->size()] = '\0';
  for (char& c : p.environ) c = c == '\0' ? ' ' : c;
  p.environ.back() = '\0';
}

// /proc/PID/attr/current (the security label), one read, its last byte
// dropped; read until it has been read once. An error answers as PCP's
// agent answers (permission or an unsupported label: no value), an empty
// file is PM_ERR_VALUE.
void ReadLabel(const std::string& path, Pid& p) {
  if (p.label_read) {
    p.ok |= kFileLabel;
    return;
  }
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NoteOpenError(kFileLabel, errno, p);
  char buf[4096];
  const ssize_t n = read(fd, buf, sizeof(buf));
  const int err = errno;
  close(fd);
  if (n < 0) return NoteOpenError(kFileLabel, err, p);
  p.sts[std::countr_zero(uint32_t{kFileLabel})] = n == 0 ? kErrValue : 0;
  if (n == 0) return;
  p.label.assign(buf, strnlen(buf, static_cast<size_t>(n - 1)));
  p.label_read = true;
  p.ok |= kFileLabel;
}

// The value of a C string kept with its NUL (PCP's agent's buffer).
std::string CString(const std::string& s) { return s.substr(0, s.find('\0')); }

}  // namespace

uint32_t ExtraFilesOf(const MetricRow& r) {
  switch (r.cluster) {
    case 33: return kFileSmaps;
    case 31: return kFileSchedstat;
    case 51: return kFileFd;
    case 74: return r.item == 0 ? 0u : uint32_t{kFileAutogroup};
    case 11: return kFileCgroup;
    case 9: return r.item == 7 ? uint32_t{kFileMaps} : 0u;
    case 8:
      if (r.item == 47) return kFileEnviron;
      return r.item == 40 ? uint32_t{kFileWchan} : r.item == 48 ? uint32_t{kFileStat} : 0u;
    case 12: return kFileLabel;
    case 24: return (r.item >= 37 && r.item <= 42) || r.item == 31 ? uint32_t{kFileStatus} : 0u;
  }
  return 0;
}

void ReadExtraFiles(const ProcConfig& cfg, uint32_t files, Pid& p) {
  const auto path = [&cfg, &p](const char* file) { return PidPath(cfg, p.pid, file); };
  p.ok &= ~files;
  if (files & kFileSmaps) p.smaps.clear();
  if (files & kFileAutogroup) p.autogroup_id = 0, p.autogroup_nice = 0;
  if (files & kFileSmaps) {
    if (auto t = ReadNoted(path("smaps_rollup"), kFileSmaps, p)) {
      p.ok |= kFileSmaps;
      for (absl::string_view line : absl::StrSplit(*t, '\n', absl::SkipEmpty())) {
        std::vector<absl::string_view> f = absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty());
        uint64_t v;
        if (f.size() >= 2 && absl::EndsWith(f[0], ":") && absl::SimpleAtoi(f[1], &v))
          p.smaps[std::string(f[0].substr(0, f[0].size() - 1))] = v;
      }
    }
  }
  if (files & kFileSchedstat) {
    if (auto t = ReadNoted(path("schedstat"), kFileSchedstat, p)) {
      p.ok |= kFileSchedstat;
      std::vector<absl::string_view> f = absl::StrSplit(*t, absl::ByAnyChar(" \n"), absl::SkipEmpty());
      for (size_t i = 0; i < 3 && i < f.size(); ++i) (void)absl::SimpleAtoi(f[i], &p.schedstat[i]);
    }
  }
  if (files & kFileFd) {
    if (DIR* d = opendir(path("fd").c_str())) {
      uint32_t n = 0;
      while (readdir(d) != nullptr) ++n;
      closedir(d);
      p.fd_count = n >= 2 ? n - 2 : 0;
      p.ok |= kFileFd;
      p.sts[std::countr_zero(uint32_t{kFileFd})] = 0;
    } else {
      NoteOpenError(kFileFd, errno, p);
    }
  }
  if (files & kFileAutogroup) {
    if (auto t = ReadNoted(path("autogroup"), kFileAutogroup, p)) {
      // a kernel thread's file is empty: PCP's agent answers 0 for it
      p.sts[std::countr_zero(uint32_t{kFileAutogroup})] = 0;
      p.ok |= kFileAutogroup;
      std::vector<absl::string_view> f = absl::StrSplit(*t, absl::ByAnyChar(" \n"), absl::SkipEmpty());
      absl::string_view id = f.empty() ? "" : f[0];
      if (absl::ConsumePrefix(&id, "/autogroup-") && absl::SimpleAtoi(id, &p.autogroup_id) && f.size() >= 3 &&
          f[1] == "nice")
        (void)absl::SimpleAtoi(f[2], &p.autogroup_nice);
    }
  }
  if (files & kFileCgroup) {
    if (auto t = ReadNoted(path("cgroup"), kFileCgroup, p)) {
      p.ok |= kFileCgroup;
      p.cgroups = CgroupLine(*t);
      p.container = ContainerOf(*t);
    }
  }
  if (files & kFileMaps) {
    if (auto t = ReadNoted(path("maps"), kFileMaps, p)) {
      p.ok |= kFileMaps;
      p.maps = std::move(*t);
      if (!p.maps.empty()) p.maps.pop_back();  // PCP's agent ends the text on its last byte
    }
  }
  if (files & kFileEnviron) ReadEnviron(path("environ"), p);
  if (files & kFileLabel) ReadLabel(path("attr/current"), p);
  if (files & kFileWchan) {
    if (auto t = ReadPidFile(path("wchan"), true)) {
      p.ok |= kFileWchan;
      p.wchan = std::move(*t);
    }
  }
}

bool ExtraValue(const ProcConfig& cfg, const MetricRow& r, const Pid& p, AtomValue* atom, int* sts) {
  switch (r.cluster) {
    case 33:
      if (r.item >= sizeof(kSmapsKeys) / sizeof(kSmapsKeys[0])) return (*sts = kErrPmid, true);
      if (!(p.ok & kFileSmaps)) return (*sts = 0, true);
      {
        auto it = p.smaps.find(kSmapsKeys[r.item]);
        *sts = Put(r, it == p.smaps.end() ? 0 : it->second, atom);
      }
      return true;
    case 31:
      *sts = r.item > 2 ? kErrPmid : (p.ok & kFileSchedstat) ? Put(r, p.schedstat[r.item], atom) : 0;
      return true;
    case 51:
      *sts = (p.ok & kFileFd) ? Put(r, p.fd_count, atom) : 0;
      return true;
    case 74:
      if (!(p.ok & kFileAutogroup)) return (*sts = 0, true);
      if (r.item == 1) *sts = Put(r, p.autogroup_id, atom);
      else if (r.item == 2) *sts = (atom->l = p.autogroup_nice, 1);
      else *sts = kErrPmid;
      return true;
    case 11:
      if (r.item > 1) {
        *sts = kErrPmid;
      } else {
        *sts = (p.ok & kFileCgroup) ? (atom->bytes = r.item == 0 ? p.cgroups : p.container, 1) : 0;
      }
      return true;
    case 9:
      if (r.item != 7) return false;
      *sts = (atom->bytes = (p.ok & kFileMaps) ? p.maps : "", 1);
      return true;
    case 8:
      if (r.item == 40) {
        *sts = (p.ok & kFileWchan) ? (atom->bytes = p.wchan, 1) : 0;
        return true;
      }
      if (r.item == 47) return (*sts = (atom->bytes = CString(p.environ), 1), true);
      if (r.item == 39) {
        int64_t tty = 0;
        if (p.stat.empty() || !(p.have & kFileStat)) return (*sts = 0, true);
        if (p.stat.size() > 4) tty = p.stat[4];  // field 7, tty_nr
        const uint32_t dev = static_cast<uint32_t>(tty);
        *sts = (atom->bytes = dev == 0 ? "?" : TtyName(cfg.tty_drivers, dev), 1);
        return true;
      }
      if (r.item == 48) {
        // the policy as PCP's agent reads it: the field after the real one
        int64_t policy = 0;
        if (p.stat.size() > 39) policy = p.stat[39];
        if (p.stat.empty()) return (*sts = 0, true);
        *sts = (atom->bytes = PolicyName(policy), 1);
        return true;
      }
      return false;
    case 12:
      *sts = r.item != 0 ? kErrPmid : (p.ok & kFileLabel) ? (atom->bytes = p.label, 1) : 0;
      return true;
    case 24: {
      if (r.item < 37 && r.item != 31) return false;
      if (p.status.empty()) return (*sts = 0, true);
      switch (r.item) {
        case 31: {
          auto it = p.status.find("Cpus_allowed_list");
          *sts = it == p.status.end() ? 0 : (atom->bytes = it->second, 1);
          return true;
        }
        case 37: *sts = StatusList(p, "NStgid", atom); return true;
        case 38: *sts = StatusList(p, "NSpid", atom); return true;
        case 39: *sts = StatusList(p, "NSpgid", atom); return true;
        case 40: *sts = StatusList(p, "NSsid", atom); return true;
        case 42: *sts = StatusList(p, "envID", atom); return true;
      }
      return false;
    }
  }
  (void)cfg;
  return false;
}

}  // namespace pmapi::proc_agent
