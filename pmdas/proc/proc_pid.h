// proc_pid.h: what the proc agent reads for one process, and the values
// of the proc.* metrics made from it (proc_pid.cc).
#ifndef PMAPI_PMDAS_PROC_PROC_PID_H_
#define PMAPI_PMDAS_PROC_PROC_PID_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "pmapi/types.h"
#include "pmdas/common/metric_table.h"

namespace pmapi::proc_agent {

// Files of /proc/PID, one bit each.
enum PidFile : uint32_t {
  kFileStat = 1u << 0, kFileStatm = 1u << 1, kFileStatus = 1u << 2, kFileIo = 1u << 3,
  kFileExe = 1u << 4, kFileCwd = 1u << 5, kFileOom = 1u << 6,
};

struct Pid {
  int32_t pid = 0;
  std::string name;    // instance name, "NNNNNN command"
  std::string psargs;  // the command line, NULs as blanks
  uint32_t have = 0;   // files read this fetch
  std::string comm;
  std::string state;
  std::vector<std::string> stat;  // fields after the command, from the state on
  uint64_t statm[7] = {0, 0, 0, 0, 0, 0, 0};
  absl::flat_hash_map<std::string, std::string> status, io;  // "Name" -> text after the colon
  std::string exe, cwd;
  uint32_t oom_score = 0;
};

struct ProcConfig {
  std::string root;  // LINUX_STATSPATH
  uint64_t hz = 100;
  uint32_t pagesize = 4096;
  uint32_t files = 0;  // files the metrics of the current fetch need
};

// Files a metric's value comes from.
uint32_t FilesOf(const agent_tables::MetricRow& row);

// Reads the files in `files` that `p` lacks.
void ReadPidFiles(const ProcConfig& cfg, uint32_t files, Pid& p);

// The instance name and command line of a process first seen.
void NamePid(const ProcConfig& cfg, Pid& p);

// A proc.* value of one process: 1, 0 (no value) or a PCP error.
int PidValue(const ProcConfig& cfg, const agent_tables::MetricRow& r, const Pid& p, AtomValue* atom);

}  // namespace pmapi::proc_agent

#endif  // PMAPI_PMDAS_PROC_PROC_PID_H_
