// rpc.*, nfs.*, nfs3.* and nfs4.* of the Linux agent (cluster 7): the NFS
// client's /proc/net/rpc/nfs, the server's /proc/net/rpc/nfsd and its
// thread pools in /proc/fs/nfsd, read as PCP's agent reads them.
//
// A client or server file that cannot be read leaves its metrics without
// values (but for the server's read-ahead figures, which PCP's agent gives
// as 0). Lines are recognised by their first word; a "procN" line is its
// name, a count, then one number per operation. rpc.server.nettcpconn
// repeats nettcpcnt, as in PCP's agent.
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "pmapi/errors.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

// Operation names of the four request instance domains (PCP's).
const char* const kNfs2Ops[] = {"null", "getattr", "setattr", "root", "lookup", "readlink", "read", "wrcache",
                                "write", "create", "remove", "rename", "link", "symlink", "mkdir", "rmdir",
                                "readdir", "statfs"};
const char* const kNfs3Ops[] = {"null", "getattr", "setattr", "lookup", "access", "readlink", "read", "write",
                                "create", "mkdir", "symlink", "mknod", "remove", "rmdir", "rename", "link",
                                "readdir", "readdir+", "statfs", "fsinfo", "pathconf", "commit"};
const char* const kNfs4ClientOps[] = {
    "null", "read", "write", "commit", "open", "open_conf", "open_noat", "open_dgrd", "close", "setattr",
    "fsinfo", "renew", "setclntid", "confirm", "lock", "lockt", "locku", "access", "getattr", "lookup",
    "lookup_root", "remove", "rename", "link", "symlink", "create", "pathconf", "statfs", "readlink", "readdir",
    "server_caps", "delegreturn", "getacl", "setacl", "fs_locations", "rel_lkowner", "secinfo", "fsid_present",
    "exchange_id", "create_ses", "destroy_ses", "sequence", "get_lease_t", "reclaim_comp", "layoutget",
    "getdevinfo", "layoutcommit", "secinfononam", "test_stateid", "free_stateid", "getdevlist", "bind_ses",
    "destroy_clntid", "seek", "allocate", "deallocate"};
// numbered from 1
const char* const kNfs4ServerOps[] = {
    "op0-unused", "op1-unused", "op2-future", "access", "close", "commit", "create", "delegpurge", "delegreturn",
    "getattr", "getfh", "link", "lock", "lockt", "locku", "lookup", "lookup_root", "nverify", "open", "openattr",
    "open_conf", "open_dgrd", "putfh", "putpubfh", "putrootfh", "read", "readdir", "readlink", "remove", "rename",
    "renew", "restorefh", "savefh", "secinfo", "setattr", "setcltid", "setcltidconf", "verify", "write",
    "rellockowner", "bc_ctl", "bind_conn", "exchange_id", "create_ses", "destroy_ses", "free_stateid",
    "getdirdeleg", "getdevinfo", "getdevlist", "layoutcommit", "layoutget", "layoutreturn", "secinfononam",
    "sequence", "set_ssv", "test_stateid", "want_deleg", "destroy_clid", "reclaim_comp", "allocate", "copy",
    "copy_notify", "deallocate", "io_advise", "layouterror", "layoutstats", "offload_cancel", "offload_status",
    "read_plus", "seek", "write_same"};

template <size_t N>
std::vector<PmdaInstid> Table(const char* const (&names)[N], int32_t first) {
  std::vector<PmdaInstid> out;
  for (size_t i = 0; i < N; ++i) out.push_back({Inst{first + static_cast<int32_t>(i)}, names[i]});
  return out;
}

// The numbers of a "procN" line as strtok(line, " ") splits it: the name,
// the count, then the values (strtoul each), at most `max` of them.
std::vector<uint32_t> OpCounts(const std::string& line, size_t skip, size_t max) {
  std::vector<std::string> tokens = absl::StrSplit(line, ' ', absl::SkipEmpty());
  std::vector<uint32_t> out;
  for (size_t i = skip; i < tokens.size() && out.size() < max; ++i)
    out.push_back(static_cast<uint32_t>(std::strtoul(tokens[i].c_str(), nullptr, 10)));
  return out;
}

void Copy(const std::vector<uint32_t>& from, uint32_t* to) {
  for (size_t i = 0; i < from.size(); ++i) to[i] = from[i];
}

// The lines as PCP's agent reads them: fgets into 4096 bytes.
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  for (std::string_view piece : ls::FgetsLines(text, 4096)) out.emplace_back(piece);
  return out;
}

void ReadClient(RpcStats& s, const std::string& text) {
  auto& c = s.client;
  for (const std::string& line : Lines(text)) {
    const char* b = line.c_str();
    if (absl::StartsWith(line, "net")) {
      std::sscanf(b, "net %u %u %u %u", &c.net[0], &c.net[1], &c.net[2], &c.net[3]);
    } else if (absl::StartsWith(line, "rpc")) {
      std::sscanf(b, "rpc %u %u %u", &c.rpc[0], &c.rpc[1], &c.rpc[2]);
    } else if (absl::StartsWith(line, "proc2")) {
      Copy(OpCounts(line, 2, kRpc2Ops), c.req2);
    } else if (absl::StartsWith(line, "proc3")) {
      Copy(OpCounts(line, 2, kRpc3Ops), c.req3);
    } else if (absl::StartsWith(line, "proc4")) {
      Copy(OpCounts(line, 2, kRpc4ClientOps), c.req4);
    }
  }
}

void ReadServerLine(RpcStats::Server& v, const std::string& line) {
  const char* b = line.c_str();
  if (absl::StartsWith(line, "rc")) {
    std::sscanf(b, "rc %u %u %u %u %u %u %u %u %u", &v.rchits, &v.rcmisses, &v.rcnocache, &v.fh_cached,
                &v.fh_valid, &v.fh_fixup, &v.fh_lookup, &v.fh_stale, &v.fh_concurrent);
  } else if (absl::StartsWith(line, "fh")) {
    std::sscanf(b, "fh %u %u %u %u %u", &v.fh_stale, &v.fh_lookup, &v.fh_anon, &v.fh_nocache_dir,
                &v.fh_nocache_nondir);
  } else if (absl::StartsWith(line, "io")) {
    std::sscanf(b, "io %u %u", &v.io_read, &v.io_write);
  } else if (absl::StartsWith(line, "th")) {
    std::sscanf(b, "th %u %u", &v.th_cnt, &v.th_fullcnt);
  } else if (absl::StartsWith(line, "ra")) {
    unsigned d[10] = {};
    std::sscanf(b, "ra %u %u %u %u %u %u %u %u %u %u %u %u", &v.ra_size, &d[0], &d[1], &d[2], &d[3], &d[4],
                &d[5], &d[6], &d[7], &d[8], &d[9], &v.ra_misses);
    for (unsigned x : d) v.ra_hits += x;
  } else if (absl::StartsWith(line, "net")) {
    std::sscanf(b, "net %u %u %u %u", &v.net[0], &v.net[1], &v.net[2], &v.net[3]);
  } else if (absl::StartsWith(line, "rpc")) {
    std::sscanf(b, "rpc %u %u %u %u %u", &v.rpc[0], &v.rpc[1], &v.rpc[2], &v.rpc[3], &v.rpc[4]);
  } else if (absl::StartsWith(line, "proc2")) {
    Copy(OpCounts(line, 2, kRpc2Ops), v.req2);
  } else if (absl::StartsWith(line, "proc3")) {
    Copy(OpCounts(line, 2, kRpc3Ops), v.req3);
  } else if (absl::StartsWith(line, "proc4ops")) {
    Copy(OpCounts(line, 2, kRpc4ServerOps), v.req4 + 1);
  } else if (absl::StartsWith(line, "proc4")) {
    std::vector<uint32_t> third = OpCounts(line, 2, 1);  // the NULL operation's count
    if (!third.empty()) v.req4[0] = third[0];
  }
}

// /proc/fs/nfsd: the thread count, then (when there are threads) the pools'
// statistics, read with fscanf as PCP's agent reads them.
void ReadNfsd(LinuxState& st, RpcStats::Threads& t) {
  std::optional<std::string> threads = ls::ReadProcFile(st.root, "/proc/fs/nfsd/pool_threads");
  if (!threads) {
    t.ok = false;
    return;
  }
  int count = 0;
  t.ok = std::sscanf(threads->c_str(), "%d", &count) == 1;
  t.total = static_cast<uint32_t>(count);
  if (t.total == 0) return;
  std::optional<std::string> stats = ls::ReadProcFile(st.root, "/proc/fs/nfsd/pool_stats");
  if (!stats) {
    const int err = errno;
    if (!st.rpc.nfsd_warned) {
      std::fprintf(stderr, "Error: missing pool_stats when thread count != 0 : %s\n", std::strerror(err));
    }
    st.rpc.nfsd_warned = true;
    t.ok = false;
    return;
  }
  FILE* f = fmemopen(stats->data(), stats->size(), "r");
  if (f == nullptr) return;
  if (std::fscanf(f, "#%*[^\n]\n") != 0) {
    std::fprintf(stderr, "Error: parsing /proc/fs/nfsd/pool_stats headers: %s\n", std::strerror(errno));
  }
  unsigned pool = 0;
  unsigned long v[4] = {};
  while (std::fscanf(f, "%u %lu %lu %lu %lu", &pool, &v[0], &v[1], &v[2], &v[3]) == 5) {
    t.pools++;
    for (int i = 0; i < 4; ++i) t.sums[i] += v[i];
  }
  std::fclose(f);
  if (t.pools < 1) t.ok = false;
}

// The value of a directly read metric (items 20-57 and 68-76); false when
// its file gives none.
std::optional<uint64_t> Plain(const RpcStats& s, unsigned item) {
  const auto& c = s.client;
  const auto& v = s.server;
  if (item >= 20 && item <= 27) {
    if (!c.ok || item == 23) return std::nullopt;
    return item < 23 ? c.rpc[item - 20] : c.net[item - 24];
  }
  if (item >= 71 && item <= 76) {
    if (!s.threads.ok) return std::nullopt;
    if (item == 71) return s.threads.total;
    if (item == 72) return s.threads.pools;
    return s.threads.sums[item - 73];
  }
  const bool server_item = (item >= 30 && item <= 47) || (item >= 51 && item <= 57);
  if (server_item && !v.ok) return std::nullopt;
  switch (item) {
    case 30: case 31: case 32: case 33: case 34: return v.rpc[item - 30];
    case 35: return v.rchits;
    case 36: return v.rcmisses;
    case 37: return v.rcnocache;
    case 38: return v.fh_cached;
    case 39: return v.fh_valid;
    case 40: return v.fh_fixup;
    case 41: return v.fh_lookup;
    case 42: return v.fh_stale;
    case 43: return v.fh_concurrent;
    case 44: case 45: case 46: return v.net[item - 44];
    case 47: return v.net[2];  // nettcpconn gives nettcpcnt, as in PCP's agent
    case 51: return v.fh_anon;
    case 52: return v.fh_nocache_dir;
    case 53: return v.fh_nocache_nondir;
    case 54: return v.io_read;
    case 55: return v.io_write;
    case 56: return v.th_cnt;
    case 57: return v.th_fullcnt;
    case 68: return v.ra_size;
    case 69: return v.ra_hits;
    case 70: return v.ra_misses;
  }
  return std::nullopt;
}

uint32_t Sum(const uint32_t* counts, size_t n) {
  uint32_t sum = 0;
  for (size_t i = 0; i < n; ++i) sum += counts[i];
  return sum;
}

}  // namespace

std::vector<PmdaIndom> RpcIndoms() {
  return {PmdaIndom{PmdaInDom(kNfsIndom), Table(kNfs2Ops, 0)},
          PmdaIndom{PmdaInDom(kNfs3Indom), Table(kNfs3Ops, 0)},
          PmdaIndom{PmdaInDom(kNfs4ClientIndom), Table(kNfs4ClientOps, 0)},
          PmdaIndom{PmdaInDom(kNfs4ServerIndom), Table(kNfs4ServerOps, 1)}};
}

void RefreshRpc(LinuxState& st) {
  RpcStats& s = st.rpc;
  const bool warned = s.nfsd_warned;
  s = RpcStats{};
  s.nfsd_warned = warned;
  if (std::optional<std::string> t = ls::ReadProcFile(st.root, "/proc/net/rpc/nfs")) {
    s.client.ok = true;
    ReadClient(s, *t);
  }
  if (std::optional<std::string> t = ls::ReadProcFile(st.root, "/proc/net/rpc/nfsd")) {
    s.server.ok = true;
    for (const std::string& line : Lines(*t)) ReadServerLine(s.server, line);
  }
  ReadNfsd(st, s.threads);
}

int FetchRpc(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  const uint32_t i = static_cast<uint32_t>(ToPcp(inst));
  const RpcStats& s = st.rpc;
  const auto& c = s.client;
  const auto& v = s.server;
  auto one = [&](bool ok, const uint32_t* counts, size_t n, unsigned first) -> int {
    if (!ok) return 0;
    if (i < first || i >= first + n) return kErrInst;
    atom->ul = counts[i];
    return 1;
  };
  auto all = [&](bool ok, uint32_t sum) { return ok ? (atom->ul = sum, 1) : 0; };
  switch (r.item) {
    case 1: return all(c.ok, Sum(c.req2, kRpc2Ops));
    case 50: return all(v.ok, Sum(v.req2, kRpc2Ops));
    case 4: return one(c.ok, c.req2, kRpc2Ops, 0);
    case 12: return one(v.ok, v.req2, kRpc2Ops, 0);
    case 60: return all(c.ok, Sum(c.req3, kRpc3Ops));
    case 62: return all(v.ok, Sum(v.req3, kRpc3Ops));
    case 61: return one(c.ok, c.req3, kRpc3Ops, 0);
    case 63: return one(v.ok, v.req3, kRpc3Ops, 0);
    case 64: return all(c.ok, Sum(c.req4, kRpc4ClientOps));
    case 66: return all(v.ok, Sum(v.req4 + 1, kRpc4ServerOps));
    case 65: return one(c.ok, c.req4, kRpc4ClientOps, 0);
    case 67:
      if (!v.ok) return 0;
      if (i == 0 || i > kRpc4ServerOps) return kErrInst;
      atom->ul = v.req4[i];
      return 1;
  }
  std::optional<uint64_t> value = Plain(s, r.item);
  if (!value) return r.item >= 20 && r.item <= 76 ? 0 : kErrPmid;
  if (r.type == kTypeU64) {
    atom->ull = *value;
  } else {
    atom->ul = static_cast<uint32_t>(*value);
  }
  return 1;
}

}  // namespace pmapi::linux_agent
