#include "pmdas/proc/proc_pid.h"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <iterator>
#include <charconv>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "pmapi/errors.h"

namespace pmapi::proc_agent {
namespace {

using agent_tables::MetricRow;

}  // namespace

bool ReadFd(int fd, bool at0, bool seq, std::string* text) {
  // *text is grown (zero-filled) only when it was too small; its length
  // is set to what was read at the end
  size_t used = 0;
  text->resize(std::max<size_t>(4096, text->capacity()));
  for (;;) {
    if (text->size() - used < 2048) text->resize(text->size() * 2);
    const size_t room = text->size() - used;
    const ssize_t n = at0 ? pread(fd, text->data() + used, room, static_cast<off_t>(used))
                          : read(fd, text->data() + used, room);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      text->clear();
      return false;
    }
    if (n == 0) break;
    used += static_cast<size_t>(n);
    if ((seq && static_cast<size_t>(n) < room) || used > (1 << 20)) break;
  }
  text->resize(used);
  return true;
}

std::optional<std::string> ReadPidFile(const std::string& path, bool seq) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string out;
  (void)ReadFd(fd, false, seq, &out);
  close(fd);
  return out;
}

void NoteOpenError(uint32_t file, int err, Pid& p) {
  int sts = -err;
  if (err == EACCES || err == EINVAL) sts = 0;
  if (err == ENOENT) sts = kErrAppversion;
  if (err == ENODATA) sts = kErrValue;
  p.sts[std::countr_zero(file) & 15] = sts;
}

std::optional<std::string> ReadNoted(const std::string& path, uint32_t file, Pid& p) {
  std::optional<std::string> t = ReadPidFile(path, true);
  if (!t) {
    NoteOpenError(file, errno, p);
  } else {
    p.sts[std::countr_zero(file) & 15] = t->empty() ? kErrValue : 0;
  }
  return t;
}

namespace {

// Descriptors kept open by every KeptFd of the process, and the most allowed.
std::atomic<int> kept_fds{0};

int KeptBudget() {
  static const int budget = [] {
    struct rlimit rl {};
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return 4096;
    return static_cast<int>(std::min<rlim_t>(rl.rlim_cur / 4, 4096));
  }();
  return budget;
}

}  // namespace

KeptFd& KeptFd::operator=(KeptFd&& o) noexcept {
  if (this != &o) {
    Close();
    fd_ = std::exchange(o.fd_, -1);
    dev_ = o.dev_;
    ino_ = o.ino_;
  }
  return *this;
}

void KeptFd::Close() {
  if (fd_ < 0) return;
  close(fd_);
  fd_ = -1;
  kept_fds.fetch_sub(1, std::memory_order_relaxed);
}

bool KeptFd::Read(const std::string& dir, const char* file, std::string* text) {
  if (fd_ >= 0) {
    struct stat now {};
    if (fstat(fd_, &now) == 0 && now.st_dev == dev_ && now.st_ino == ino_) {
      if (ReadFd(fd_, true, true, text)) return true;
      Close();  // the process is gone; its number may name a new one
    } else {
      fd_ = -1;  // the number is not ours any more: forgotten, not closed
      kept_fds.fetch_sub(1, std::memory_order_relaxed);
    }
  }
  const std::string path = dir + file;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  if (kept_fds.fetch_add(1, std::memory_order_relaxed) < KeptBudget() && fstat(fd, &st) == 0) {
    fd_ = fd;
    dev_ = st.st_dev;
    ino_ = st.st_ino;
    return ReadFd(fd, true, true, text);
  }
  kept_fds.fetch_sub(1, std::memory_order_relaxed);
  const bool ok = ReadFd(fd, false, true, text);
  close(fd);
  return ok;
}

namespace {

std::optional<std::string> ReadFile(const std::string& path) { return ReadPidFile(path, true); }

std::string Dir(const ProcConfig& cfg, const Pid& p) { return absl::StrCat(cfg.root, "/proc/", p.pid); }

}  // namespace

std::string PidPath(const ProcConfig& cfg, int32_t id, const char* file) {
  if (cfg.threads != 0) {
    std::string task = absl::StrCat(cfg.root, "/proc/", id, "/task/", id, "/", file);
    if (access(task.c_str(), F_OK) == 0) return task;
  }
  return absl::StrCat(cfg.root, "/proc/", id, "/", file);
}

namespace {

std::string Link(const std::string& path) {
  char buf[4096];
  const ssize_t n = readlink(path.c_str(), buf, sizeof(buf) - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
}

// Control characters become blanks and terminal escape sequences are
// dropped, trailing NULs trimmed, as PCP cleans command lines.
std::string CleanCommandLine(std::string_view s) {
  while (!s.empty() && s.back() == '\0') s.remove_suffix(1);
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == 0x1b) {
      ++i;
      if (i < s.size() && s[i] == '[') {
        ++i;
        while (i < s.size() && !(s[i] >= 0x40 && s[i] <= 0x7e)) ++i;
      } else if (i < s.size() && s[i] == ']') {
        ++i;
        while (i < s.size() && s[i] != 0x07 && s[i] != 0x1b) ++i;
        if (i < s.size() && s[i] == 0x1b && i + 1 < s.size() && s[i + 1] == '\\') ++i;
      }
      continue;
    }
    out += (c < 0x20 || c == 0x7f) ? ' ' : static_cast<char>(c);
  }
  return out;
}

void ParseStat(const std::string& text, Pid& p) {
  const size_t open = text.find('('), close = text.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return;
  p.comm.assign(text, open + 1, close - open - 1);
  p.stat.clear();
  const char* c = text.data() + close + 1;
  const char* end = text.data() + text.size();
  auto skip = [&] { while (c < end && (*c == ' ' || *c == '\n')) ++c; };
  skip();
  const char* word = c;
  while (c < end && *c != ' ' && *c != '\n') ++c;
  if (c == word) return;
  p.state.assign(word, c);
  p.stat.push_back(0);
  for (skip(); c < end; skip()) {
    int64_t v = 0;
    auto [next, ec] = std::from_chars(c, end, v);
    if (ec != std::errc()) {
      uint64_t u = 0;
      auto [unext, uec] = std::from_chars(c, end, u);
      if (uec != std::errc()) break;
      v = static_cast<int64_t>(u);
      next = unext;
    }
    p.stat.push_back(v);
    c = next;
  }
}

absl::flat_hash_map<std::string, std::string> ParseColonLines(const std::string& text) {
  absl::flat_hash_map<std::string, std::string> out;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) continue;
    out[std::string(line.substr(0, colon))] = std::string(absl::StripAsciiWhitespace(line.substr(colon + 1)));
  }
  return out;
}

// Field n (1-based, as proc(5) counts them) of /proc/PID/stat.
bool StatField(const Pid& p, int n, int64_t* v) {
  const size_t i = static_cast<size_t>(n - 3);  // the state is field 3
  if (n < 4 || i >= p.stat.size()) return false;
  *v = p.stat[i];
  return true;
}

// The first number of a status line ("VmRSS: 123 kB"), 0 when absent.
uint64_t StatusNumber(const Pid& p, const char* key, size_t word = 0) {
  auto it = p.status.find(key);
  if (it == p.status.end()) return 0;
  std::vector<absl::string_view> w = absl::StrSplit(it->second, absl::ByAnyChar(" \t"), absl::SkipEmpty());
  uint64_t v = 0;
  if (word < w.size()) (void)absl::SimpleAtoi(w[word], &v);
  return v;
}

// User and group names, looked up once per id per fetch.
const std::string& UserName(const ProcConfig& cfg, uint32_t uid) {
  auto [it, added] = cfg.users.try_emplace(uid);
  if (added) {
    struct passwd pw {}, *res = nullptr;
    char buf[1024];
    const bool found = getpwuid_r(uid, &pw, buf, sizeof(buf), &res) == 0 && res != nullptr;
    it->second = found ? std::string(res->pw_name) : absl::StrCat(uid);
  }
  return it->second;
}

const std::string& GroupName(const ProcConfig& cfg, uint32_t gid) {
  auto [it, added] = cfg.groups.try_emplace(gid);
  if (added) {
    struct group gr {}, *res = nullptr;
    char buf[4096];
    const bool found = getgrgid_r(gid, &gr, buf, sizeof(buf), &res) == 0 && res != nullptr;
    it->second = found ? std::string(res->gr_name) : absl::StrCat(gid);
  }
  return it->second;
}

int Put(const MetricRow& r, int64_t v, AtomValue* atom) {
  switch (r.type) {
    case kType32: atom->l = static_cast<int32_t>(v); break;
    case kTypeU32: atom->ul = static_cast<uint32_t>(v); break;
    case kType64: atom->ll = v; break;
    default: atom->ull = static_cast<uint64_t>(v); break;
  }
  return 1;
}

int StatValue(const ProcConfig& cfg, const MetricRow& r, const Pid& p, AtomValue* atom) {
  if (r.item == 0) return Put(r, p.pid, atom);
  if (r.item == 41) return (atom->bytes = p.psargs, 1);
  if (!(p.have & kFileStat) || p.stat.empty()) return 0;
  if (r.item == 1) return (atom->bytes = p.comm, 1);
  if (r.item == 2) return (atom->bytes = p.state, 1);
  // PCP's agent reads the fields after the processor number one place
  // late (the real-time priority lands in the priority, and each later
  // metric takes the next field), and its values are matched here
  int field;
  if ((r.item >= 3 && r.item <= 16) || (r.item >= 18 && r.item <= 18) || (r.item >= 20 && r.item <= 38))
    field = r.item + 1;
  else if (r.item == 17) field = 40;
  else if (r.item >= 42 && r.item <= 46) field = r.item - 1;
  else return kErrPmid;
  int64_t v;
  if (!StatField(p, field, &v)) return 0;
  const auto ms = [&cfg](int64_t ticks) { return static_cast<int64_t>(static_cast<uint64_t>(ticks) * 1000 / cfg.hz); };
  switch (r.item) {
    case 7: if (v < 0) return 0; break;
    case 13: case 14: case 15: case 16: case 21: case 44: case 45: case 46: v = ms(v); break;
    case 22: case 24: v = static_cast<int64_t>(static_cast<uint64_t>(v) / 1024); break;
    case 23: v = v * cfg.pagesize / 1024; break;
  }
  return Put(r, v, atom);
}

int StatusValue(const ProcConfig& cfg, const MetricRow& r, const Pid& p, AtomValue* atom) {
  if (!(p.have & kFileStatus) || p.status.empty()) return 0;
  const unsigned i = r.item;
  if (i <= 7) {
    // the gid metric carries the uid, as PCP's agent gives it
    const char* key = (i <= 4) ? "Uid" : "Gid";
    return Put(r, static_cast<int64_t>(StatusNumber(p, key, i == 4 ? 0 : i % 4)), atom);
  }
  if (i <= 11) return (atom->bytes = UserName(cfg, static_cast<uint32_t>(StatusNumber(p, "Uid", i - 8))), 1);
  if (i <= 15) return (atom->bytes = GroupName(cfg, static_cast<uint32_t>(StatusNumber(p, "Gid", i - 12))), 1);
  if (i <= 19) {
    static constexpr const char* kSig[] = {"SigPnd", "SigBlk", "SigIgn", "SigCgt"};
    auto it = p.status.find(kSig[i - 16]);
    atom->bytes = it == p.status.end() ? "" : it->second;
    return 1;
  }
  struct Item {
    unsigned item;
    const char* key;
  };
  static constexpr Item kNumbers[] = {
      {20, "VmSize"}, {21, "VmLck"}, {22, "VmRSS"}, {23, "VmData"}, {24, "VmStk"}, {25, "VmExe"},
      {26, "VmLib"}, {27, "VmSwap"}, {28, "Threads"}, {29, "voluntary_ctxt_switches"},
      {30, "nonvoluntary_ctxt_switches"}, {32, "Ngid"}, {33, "VmPeak"}, {34, "VmPin"}, {35, "VmHWM"},
      {36, "VmPTE"}, {41, "Tgid"}};
  for (const Item& n : kNumbers) {
    if (n.item == i) {
      if ((i == 32 || i == 41) && !p.status.contains(n.key)) return 0;
      return Put(r, static_cast<int64_t>(StatusNumber(p, n.key)), atom);
    }
  }
  const uint64_t real = StatusNumber(p, "VmRSS") + StatusNumber(p, "VmSwap");
  if (i == 43) return Put(r, static_cast<int64_t>(real), atom);
  if (i == 44) {
    const uint64_t lib = StatusNumber(p, "VmLib");
    return Put(r, static_cast<int64_t>(real >= lib ? real - lib : 0), atom);
  }
  return kErrPmid;
}

int IoValue(const MetricRow& r, const Pid& p, AtomValue* atom) {
  static constexpr const char* kKeys[] = {"rchar", "wchar", "syscr", "syscw", "read_bytes", "write_bytes",
                                          "cancelled_write_bytes"};
  if (!(p.have & kFileIo) || p.io.empty()) return 0;
  if (r.item >= 7) return kErrPmid;
  auto it = p.io.find(kKeys[r.item]);
  uint64_t v = 0;
  if (it != p.io.end()) (void)absl::SimpleAtoi(it->second, &v);
  atom->ull = v;
  return 1;
}

}  // namespace

uint32_t FilesOf(const MetricRow& row) {
  if (uint32_t extra = ExtraFilesOf(row)) return extra;
  switch (row.cluster) {
    case 8: return row.item == 99 || row.item == 0 || row.item == 41 ? 0u : uint32_t{kFileStat};
    case 9: return kFileStatm;
    case 24: return kFileStatus;
    case 32: return kFileIo;
    case 69: return kFileExe;
    case 72: return kFileCwd;
    case 62: return kFileOom;
  }
  return 0;
}

void ReadPidFiles(const ProcConfig& cfg, uint32_t files, Pid& p) {
  const uint32_t need = files & ~p.have;
  if (need == 0) return;
  const auto path = [&cfg, &p](const char* file) { return PidPath(cfg, p.pid, file); };
  if (need & kFileStat) {
    p.stat.clear();
    p.state.clear();
    thread_local std::string text;
    if (cfg.root.empty()) {
      if (p.stat_fd.Read(path("stat"), "", &text)) {
        p.sts[std::countr_zero(uint32_t{kFileStat})] = text.empty() ? kErrValue : 0;
        ParseStat(text, p);
      } else {
        NoteOpenError(kFileStat, errno, p);
      }
    } else if (auto t = ReadNoted(path("stat"), kFileStat, p)) {
      ParseStat(*t, p);
    }
  }
  if (need & kFileStatm) {
    std::fill(std::begin(p.statm), std::end(p.statm), 0);
    if (auto t = ReadNoted(path("statm"), kFileStatm, p)) {
      std::vector<absl::string_view> f = absl::StrSplit(*t, absl::ByAnyChar(" \n"), absl::SkipEmpty());
      for (size_t i = 0; i < 7 && i < f.size(); ++i) (void)absl::SimpleAtoi(f[i], &p.statm[i]);
    }
  }
  if (need & kFileStatus) {
    p.status.clear();
    if (auto t = ReadNoted(path("status"), kFileStatus, p)) p.status = ParseColonLines(*t);
  }
  if (need & kFileIo) {
    p.io.clear();
    if (auto t = ReadNoted(path("io"), kFileIo, p)) p.io = ParseColonLines(*t);
  }
  if (need & kFileExe) p.exe = Link(Dir(cfg, p) + "/exe");
  if (need & kFileCwd) p.cwd = Link(Dir(cfg, p) + "/cwd");
  if (need & kFileOom) {
    p.oom_score = 0;
    if (auto t = ReadNoted(path("oom_score"), kFileOom, p)) {
      (void)absl::SimpleAtoi(absl::StripAsciiWhitespace(*t), &p.oom_score);
    }
  }
  ReadExtraFiles(cfg, need, p);
  p.have |= need;
}

void NamePid(const ProcConfig& cfg, Pid& p) {
  const std::string dir = Dir(cfg, p);
  std::string args;
  if (auto t = ReadPidFile(dir + "/cmdline")) args = CleanCommandLine(t->substr(0, 4096));
  if (args.empty()) {
    if (auto t = ReadFile(dir + "/status")) {
      std::string first = t->substr(0, t->find('\n'));
      const size_t colon = first.find(':');
      args = absl::StrCat("(", colon == std::string::npos ? first : absl::StripLeadingAsciiWhitespace(first.substr(colon + 1)), ")");
    }
  }
  std::string name = absl::StrFormat("%06d ", p.pid);
  if (args.empty()) {
    p.name = name + "<exiting>";
    p.psargs = "<exiting>";
    return;
  }
  p.psargs = args;
  const size_t space = args.find(' ');
  p.name = (name + (space == std::string::npos ? args : args.substr(0, space))).substr(0, 4095);
}

int PidValue(const ProcConfig& cfg, const MetricRow& r, const Pid& p, AtomValue* atom) {
  int sts = 0;
  // a file that could not be read answers as PCP's agent answers for it
  // (smaps_rollup: not supported, whatever the reason)
  if (const uint32_t file = FilesOf(r); std::has_single_bit(file) && file != kFileWchan) {
    if (const int32_t failed = p.sts[std::countr_zero(file) & 15]; failed < 0)
      return file == kFileSmaps ? kErrAppversion : failed;
  }
  if (ExtraValue(cfg, r, p, atom, &sts)) return sts;
  switch (r.cluster) {
    case 8: return StatValue(cfg, r, p, atom);
    case 9:
      if (!(p.have & kFileStatm) || r.item > 6) return r.item > 6 ? kErrPmid : 0;
      atom->ul = static_cast<uint32_t>(p.statm[r.item] * cfg.pagesize / 1024);
      return 1;
    case 24: return StatusValue(cfg, r, p, atom);
    case 32: return IoValue(r, p, atom);
    case 69: atom->bytes = p.exe; return 1;
    case 72: atom->bytes = p.cwd; return 1;
    case 62: atom->ul = p.oom_score; return 1;
  }
  return kErrPmid;
}

}  // namespace pmapi::proc_agent
