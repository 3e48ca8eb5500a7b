// proc_pid.h: what the proc agent reads for one process, and the values
// of the proc.* metrics made from it (proc_pid.cc).
#ifndef PMAPI_PMDAS_PROC_PROC_PID_H_
#define PMAPI_PMDAS_PROC_PROC_PID_H_

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "pmapi/types.h"
#include "pmdas/common/metric_table.h"
#include "pmdas/proc/proc_tty.h"

namespace pmapi::proc_agent {

// Files of /proc/PID, one bit each.
enum PidFile : uint32_t {
  kFileStat = 1u << 0, kFileStatm = 1u << 1, kFileStatus = 1u << 2, kFileIo = 1u << 3,
  kFileExe = 1u << 4, kFileCwd = 1u << 5, kFileOom = 1u << 6, kFileSmaps = 1u << 7,
  kFileSchedstat = 1u << 8, kFileFd = 1u << 9, kFileAutogroup = 1u << 10, kFileCgroup = 1u << 11,
  kFileMaps = 1u << 12, kFileWchan = 1u << 13, kFileEnviron = 1u << 14, kFileLabel = 1u << 15,
};

// A descriptor of a process's /proc/PID/stat kept open between fetches and
// read again with pread from offset 0 (procfs makes the text afresh): one
// open and one close fewer per process per fetch. Each use checks (fstat)
// that the number still names the file opened, in case the program closed
// it behind our back. The descriptors of all contexts together stay within
// a quarter of the process's descriptor limit (at most 4,096); processes
// beyond that have their file opened and closed at each fetch.
class KeptFd {
 public:
  KeptFd() = default;
  KeptFd(KeptFd&& o) noexcept : fd_(std::exchange(o.fd_, -1)), dev_(o.dev_), ino_(o.ino_) {}
  KeptFd& operator=(KeptFd&& o) noexcept;
  KeptFd(const KeptFd&) = delete;
  KeptFd& operator=(const KeptFd&) = delete;
  ~KeptFd() { Close(); }
  // Reads the whole file into *text: with the kept descriptor when it is
  // still ours, else opening `path` (and keeping it if the budget allows).
  // Returns false when the file cannot be read (the process is gone).
  bool Read(const std::string& dir, const char* file, std::string* text);
  void Close();

 private:
  int fd_ = -1;
  dev_t dev_ = 0;
  ino_t ino_ = 0;
};

struct Pid {
  int32_t pid = 0;
  std::string name;    // instance name, "NNNNNN command"
  std::string psargs;  // the command line, NULs as blanks
  uint32_t have = 0;   // files read this fetch
  std::string comm;
  std::string state;
  // /proc/PID/stat: stat[i] is field i + 3 as proc(5) counts them (the
  // state, field 3, is kept in `state`; stat[0] is 0); numbers above
  // INT64_MAX keep their bits
  std::vector<int64_t> stat;
  uint64_t statm[7] = {0, 0, 0, 0, 0, 0, 0};
  absl::flat_hash_map<std::string, std::string> status, io;  // "Name" -> text after the colon
  std::string exe, cwd;
  uint32_t oom_score = 0;
  // proc_extra.cc
  absl::flat_hash_map<std::string, uint64_t> smaps;  // smaps_rollup, kilobytes
  uint64_t schedstat[3] = {0, 0, 0};
  uint32_t fd_count = 0;
  uint32_t autogroup_id = 0;
  int32_t autogroup_nice = 0;
  std::string cgroups, container, maps, wchan;
  // /proc/PID/environ as PCP's agent keeps it: a buffer as long as the
  // longest read since the last failed one (proc_extra.cc)
  std::string environ;
  // /proc/PID/attr/current, read until it is read once
  std::string label;
  bool label_read = false;
  uint32_t ok = 0;  // files read successfully
  // How PCP's agent answers for each file (by bit number) when it could
  // not be read this fetch: 0, or PM_ERR_APPVERSION (missing),
  // PM_ERR_VALUE (empty) or another error.
  int32_t sts[16] = {};
  KeptFd stat_fd;   // /proc/PID/stat (not below PROC_STATSPATH)
};

struct ProcConfig {
  std::string root;  // PROC_STATSPATH
  uint64_t hz = 100;        // clock ticks per second (PROC_HERTZ)
  uint32_t pagesize = 4096;  // bytes (PROC_PAGESIZE)
  // Non-zero (PROC_THREADS): every task of a process is an instance too,
  // and each one's files are read from /proc/ID/task/ID first.
  uint32_t threads = 0;
  uint32_t files = 0;  // files the metrics of the current fetch need
  // Looked up once per fetch (cleared as each fetch starts): user and
  // group names by id, and whether autogroups are enabled (-1: not read).
  mutable absl::flat_hash_map<uint32_t, std::string> users, groups;
  mutable int autogroup = -1;
  std::vector<TtyDriver> tty_drivers;  // /proc/tty/drivers, read as the agent starts
};

// Files a metric's value comes from.
uint32_t FilesOf(const agent_tables::MetricRow& row);

// Reads the files in `files` that `p` lacks.
void ReadPidFiles(const ProcConfig& cfg, uint32_t files, Pid& p);

// proc_extra.cc: the files and values of proc.smaps, proc.schedstat,
// proc.fd, proc.autogroup, proc.namespaces, proc.psinfo.{cgroups,
// wchan_s,policy_s,cpusallowed,environ,labels,ttyname} and
// proc.memory.maps.
uint32_t ExtraFilesOf(const agent_tables::MetricRow& row);
void ReadExtraFiles(const ProcConfig& cfg, uint32_t files, Pid& p);
// Returns true when the metric is one of these, with its answer in *sts.
bool ExtraValue(const ProcConfig& cfg, const agent_tables::MetricRow& r, const Pid& p, AtomValue* atom, int* sts);
// Reads a whole file; nullopt when it cannot be opened. With `seq`, a
// short read ends the file, as it does for the kernel's sequence files
// (stat, status and the like), saving the read that would return nothing.
std::optional<std::string> ReadPidFile(const std::string& path, bool seq = false);
// Reads `fd` into *text (from offset 0 with pread when `at0`, else from
// where it stands), ending at a short read when `seq`, as ReadPidFile
// does; false on a read error (ESRCH: the process is gone).
bool ReadFd(int fd, bool at0, bool seq, std::string* text);

// The path of one of a process's (or, with cfg.threads, a task's) files
// or directories: /proc/ID/task/ID/FILE when threads are listed and that
// exists, else /proc/ID/FILE, below cfg.root.
std::string PidPath(const ProcConfig& cfg, int32_t id, const char* file);

// Reads one of p's files (the one of bit `file`) as ReadPidFile does,
// noting in p.sts how PCP's agent answers when it cannot: a file that
// does not exist is PM_ERR_APPVERSION, one that cannot be read for want of
// permission is no value (0), an empty one PM_ERR_VALUE.
std::optional<std::string> ReadNoted(const std::string& path, uint32_t file, Pid& p);
// Notes the answer for a file that failed to open with error `err`.
void NoteOpenError(uint32_t file, int err, Pid& p);

// The instance name and command line of a process first seen.
void NamePid(const ProcConfig& cfg, Pid& p);

// A proc.* value of one process: 1, 0 (no value) or a PCP error.
int PidValue(const ProcConfig& cfg, const agent_tables::MetricRow& r, const Pid& p, AtomValue* atom);

}  // namespace pmapi::proc_agent

#endif  // PMAPI_PMDAS_PROC_PROC_PID_H_
