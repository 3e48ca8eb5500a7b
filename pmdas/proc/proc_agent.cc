#include "pmdas/proc/proc_agent.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "pmapi/errors.h"
#include "pmdas/common/agent_env.h"
#include "pmdas/common/metric_table.h"
#include "pmdas/proc/cgroup.h"
#include "pmdas/proc/proc_names.h"
#include "pmapi/pcp_hash_order.h"
#include "pmdas/proc/proc_pid.h"

namespace pmapi {
namespace proc_agent {
namespace {

using agent_tables::MetricRow;

constexpr unsigned kProcIndom = 9;  // PCP's process instance domain serial

struct ProcState {
  ProcConfig cfg;
  std::map<int32_t, Pid> pids;  // by process id, kept while the process lives
  // The processes in the order PCP's agent lists them (its hash table's),
  // and where in that list the last value came from.
  PcpHashOrder order;
  std::vector<std::map<int32_t, Pid>::iterator> listing;
  size_t cursor = 0;
  // proc.runq: runnable blocked sleeping stopped swapped defunct unknown kernel
  int32_t runq[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  // Whether /proc shows this process's own pid name space (then its
  // loadavg's last pid moves with every process created that /proc lists).
  bool own_ns = false;
  KeptFd loadavg;
  // The task count and last pid of /proc/loadavg read before the last
  // full listing of /proc by a fetch ("" when there is none to trust).
  std::string listed_at;
  std::unique_ptr<Cgroups> cgroups;
};

// The "TOTAL LASTPID" part of /proc/loadavg ("0.52 0.58 0.59 2/371
// 12345"), "" when it cannot be read. While it stays the same, no task has
// been created (the last pid would move) nor has any ended (the total would
// fall, as no task was created), so the processes are the same.
std::string TaskMark(ProcState& st) {
  if (!st.own_ns) return "";
  thread_local std::string text;
  if (!st.loadavg.Read("/proc", "/loadavg", &text)) return "";
  const size_t slash = text.find('/');
  if (slash == std::string::npos) return "";
  std::string mark = text.substr(slash + 1);
  while (!mark.empty() && (mark.back() == '\n' || mark.back() == ' ')) mark.pop_back();
  return mark;
}

bool ProcSeesOwnPids(const ProcConfig& cfg) {
  if (!cfg.root.empty()) return false;
  char buf[32];
  const ssize_t n = readlink("/proc/self", buf, sizeof(buf) - 1);
  if (n <= 0) return false;
  buf[n] = '\0';
  int32_t pid = 0;
  return absl::SimpleAtoi(buf, &pid) && pid == getpid();
}

// Counts the processes by state as PCP's agent does: defunct first, then
// those without memory (kernel threads) as "swapped", then by state letter.
void CountRunq(ProcState& st) {
  std::fill(std::begin(st.runq), std::end(st.runq), 0);
  for (auto& [pid, p] : st.pids) {
    ReadPidFiles(st.cfg, kFileStat, p);
    if (p.stat.empty()) {
      ++st.runq[6];
    } else if (p.state == "Z") {
      ++st.runq[5];
    } else if (p.stat.size() > 20 && p.stat[20] == 0) {  // vsize, field 23
      ++st.runq[4];
    } else {
      switch (p.state.empty() ? '?' : p.state[0]) {
        case 'R': ++st.runq[0]; break;
        case 'S': ++st.runq[2]; break;
        case 't': case 'T': ++st.runq[3]; break;
        case 'P': case 'D': ++st.runq[1]; break;
        default: ++st.runq[6]; break;
      }
    }
  }
}

// The numbered entries of a directory other than `skip`.
void ListNumbered(const std::string& dir, int32_t skip, std::vector<int32_t>* out) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return;
  while (struct dirent* e = readdir(d)) {
    int32_t id;
    if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && absl::SimpleAtoi(e->d_name, &id) && id != skip) out->push_back(id);
  }
  closedir(d);
}

// The processes of /proc and, with threads, the other tasks of each
// (/proc/PID/task/TID), unsorted.
std::vector<int32_t> ListPids(const ProcConfig& cfg) {
  std::vector<int32_t> out;
  ListNumbered(cfg.root + "/proc", -1, &out);
  if (cfg.threads != 0) {
    const size_t processes = out.size();
    for (size_t i = 0; i < processes; ++i) ListNumbered(absl::StrCat(cfg.root, "/proc/", out[i], "/task"), out[i], &out);
  }
  return out;
}

// Brings the process list up to date: new processes named, gone ones
// dropped (kept, for an instance request, until the next fetch, so the
// processes of a fetch still have names), and every process's files
// marked unread for this round.
void RefreshPids(ProcState& st, Pmda& pmda, bool keep_gone) {
  st.cursor = st.listing.size();
  std::string mark = TaskMark(st);
  if (!keep_gone && !mark.empty() && mark == st.listed_at) {
    for (auto& [pid, p] : st.pids) p.have = 0;
    return;
  }
  // an instance request keeps the processes gone, so the next fetch lists
  st.listed_at = keep_gone ? "" : std::move(mark);
  std::vector<int32_t> now = ListPids(st.cfg);
  std::sort(now.begin(), now.end());
  now.erase(std::unique(now.begin(), now.end()), now.end());
  // processes kept from the last round keep their names and buffers, with
  // their files marked unread
  bool changed = false;
  auto it = st.pids.begin();
  for (int32_t pid : now) {
    while (it != st.pids.end() && it->first < pid) {
      if (keep_gone) {
        ++it;
      } else {
        st.order.Remove(static_cast<uint32_t>(it->first));
        it = st.pids.erase(it);
        changed = true;
      }
    }
    if (it != st.pids.end() && it->first == pid) {
      it->second.have = 0;
      ++it;
      continue;
    }
    Pid p;
    p.pid = pid;
    NamePid(st.cfg, p);
    it = std::next(st.pids.emplace_hint(it, pid, std::move(p)));
    st.order.Add(static_cast<uint32_t>(pid));
    changed = true;
  }
  while (!keep_gone && it != st.pids.end()) {
    st.order.Remove(static_cast<uint32_t>(it->first));
    it = st.pids.erase(it);
    changed = true;
  }
  // the instance table is made again only when the processes changed
  PmdaIndom* indom = pmda.FindIndom(MakeInDom(pmda.domain(), kProcIndom));
  if (changed || st.listing.size() != st.pids.size()) {
    st.listing.clear();
    st.order.Walk([&st](uint32_t key) {
      if (auto found = st.pids.find(static_cast<int32_t>(key)); found != st.pids.end()) st.listing.push_back(found);
    });
    st.cursor = st.listing.size();
  }
  if (indom != nullptr && (changed || indom->set.size() != st.pids.size())) {
    indom->set.clear();
    indom->set.reserve(st.listing.size());
    for (const auto& it : st.listing) indom->set.push_back({Inst{it->first}, it->second.name});
  }
}

bool AutogroupEnabled(const ProcConfig& cfg) {
  if (cfg.autogroup < 0) {
    std::optional<std::string> t = ReadPidFile(cfg.root + "/proc/sys/kernel/sched_autogroup_enabled");
    cfg.autogroup = t && !t->empty() && (*t)[0] == '1' ? 1 : 0;
  }
  return cfg.autogroup == 1;
}

// Whether fetching a metric of `cluster` lists the processes again. PCP's
// agent does so for most per-process clusters but not for proc.smaps (33)
// nor the controls (10): fetched alone, these see the processes of the
// last listing (none in a new context: no values).
bool ListsProcesses(unsigned cluster) {
  switch (cluster) {
    case 8: case 9: case 11: case 12: case 13: case 24: case 31: case 32:
    case 51: case 62: case 69: case 72: case 74:
      return true;
  }
  return false;
}

// The settings PCP's agent takes from the environment for tests:
// PROC_STATSPATH (the root below which /proc is read), PROC_HERTZ (clock
// ticks per second), PROC_PAGESIZE (bytes) and PROC_THREADS (non-zero:
// tasks are instances too). A rate or size that is not positive keeps the
// system's (PCP's agent would divide by it).
void ReadEnvironment(ProcConfig& cfg) {
  if (const char* root = std::getenv("PROC_STATSPATH")) cfg.root = root;
  cfg.hz = EnvHertz("PROC_HERTZ");
  cfg.pagesize = EnvPageSize("PROC_PAGESIZE");
  cfg.threads = static_cast<uint32_t>(EnvNumber("PROC_THREADS").value_or(0));
  cfg.tty_drivers = ReadTtyDrivers(cfg.root);
}

std::vector<PmdaMetric> Metrics() {
  std::vector<PmdaMetric> m;
  agent_tables::AppendMetrics({agent_tables::kProcRows, agent_tables::kProcRowsCount}, &m);
  agent_tables::AppendMetrics({agent_tables::kCgroupRows, agent_tables::kCgroupRowsCount}, &m);
  return m;
}

}  // namespace
}  // namespace proc_agent

void ProcAgentInit(Pmda& dp) {
  using namespace proc_agent;
  dp.Dso(kPmdaInterface7, "proc DSO", dp.home() + "/help");
  if (dp.status() != 0) return;
  auto state = std::make_shared<ProcState>();
  ReadEnvironment(state->cfg);
  state->own_ns = ProcSeesOwnPids(state->cfg);
  state->cgroups = std::make_unique<Cgroups>(state->cfg.root, state->cfg.hz);
  dp.SetData(state.get());
  dp.SetFlags(kPmdaExtFlagHashed);
  InstallProcNames(dp);
  dp.dispatch().fetch = [state](std::span<const PmID> ids, Result* result, Pmda& pmda) {
    uint32_t files = 0;
    bool runq = false, list = false;
    CgroupNeeds cgroup_needs;
    for (PmID id : ids) {
      if (const PmdaMetric* m = pmda.FindMetric(id)) {
        if (IsCgroupCluster(agent_tables::RowOf(*m).cluster)) cgroup_needs.Add(agent_tables::RowOf(*m).cluster);
        files |= FilesOf(agent_tables::RowOf(*m));
        runq = runq || agent_tables::RowOf(*m).cluster == 13;
        list = list || ListsProcesses(agent_tables::RowOf(*m).cluster);
      }
    }
    state->cfg.users.clear();
    state->cfg.groups.clear();
    state->cfg.autogroup = -1;
    if (list) {
      RefreshPids(*state, pmda, false);
    } else {
      state->cursor = state->listing.size();
      for (auto& [pid, p] : state->pids) p.have = 0;
    }
    if (runq) CountRunq(*state);
    state->cgroups->Refresh(cgroup_needs, pmda);
    // files are read for the processes the profile admits, on first use
    state->cfg.files = files;
    return pmda.DefaultFetch(ids, result);
  };
  dp.dispatch().instance = [state](InDom indom, Inst inst, const std::string* name, Pmda& pmda) {
    if (InDomSerial(indom) == kProcIndom) RefreshPids(*state, pmda, true);
    state->cgroups->Refresh(NeedsOfIndom(InDomSerial(indom)), pmda);
    return pmda.DefaultInstance(indom, inst, name);
  };
  dp.SetFetchCallback([state](const PmdaMetric& m, Inst inst, AtomValue* atom) {
    const MetricRow& r = agent_tables::RowOf(m);
    if (IsCgroupCluster(r.cluster)) return state->cgroups->Value(r, inst, atom);
    if (r.cluster == 8 && r.item == 99) {
      atom->ul = static_cast<uint32_t>(state->pids.size());
      return 1;
    }
    if (r.cluster == 74 && r.item == 0) {  // proc.autogroup.enabled
      atom->ul = AutogroupEnabled(state->cfg) ? 1 : 0;
      return 1;
    }
    if (r.cluster == 74 && !AutogroupEnabled(state->cfg)) return 0;
    if (r.cluster == 13) return r.item < 8 ? (atom->l = state->runq[r.item], 1) : static_cast<int>(kErrPmid);
    if (r.cluster == 10) {  // controls: no cgroup filter
      if (r.item == 1 || r.item == 2) return (atom->ul = state->cfg.threads, 1);
      if (r.item == 3) return (atom->bytes.clear(), 1);
      return static_cast<int>(kErrPmid);
    }
    // values are asked for in instance order: the process listed after
    // the last one is tried before a search
    const int32_t pid = ToPcp(inst);
    const std::vector<std::map<int32_t, Pid>::iterator>& listing = state->listing;
    size_t at = state->cursor;
    if (at < listing.size() && listing[at]->first != pid) ++at;
    auto it = state->pids.end();
    if (at < listing.size() && listing[at]->first == pid) {
      it = listing[at];
    } else {
      at = listing.size();  // out of order: searched, and the next search too
      it = state->pids.find(pid);
    }
    state->cursor = at;
    if (it == state->pids.end()) return static_cast<int>(kErrInst);
    ReadPidFiles(state->cfg, state->cfg.files, it->second);
    return PidValue(state->cfg, r, it->second, atom);
  });
  std::vector<PmdaIndom> indoms(1);
  indoms[0].indom = PmdaInDom(kProcIndom);
  for (unsigned serial : CgroupIndomSerials()) indoms.push_back(PmdaIndom{PmdaInDom(serial), {}});
  dp.Init(std::move(indoms), Metrics());
}

}  // namespace pmapi
