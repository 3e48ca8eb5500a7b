// Families of the built-in linux agent read from files of odd formats,
// against PCP's linux agent: `pminfo -L -f` of ours and of PCP's pminfo
// hosting PCP's agent must be the same byte for byte, instance numbers
// included.
//   - mem.slabinfo.* on the /proc/slabinfo files of PCP's QA suite
//     (pcp-testsuite's linux/meminfo-root-00N.tgz, read below
//     LINUX_STATSPATH) and on made-up files of every format version and
//     some odd lines; LINUX_ACCESS gives the values whoever runs the test,
//     as the super-user would see them.
//   - network.interface.*_addr on this system, and on made-up
//     /proc/net/if_inet6 and /sys/class/net trees (IPv4 addresses then
//     still come from this system's ioctls, for both agents).
//   - the proc agent's proc.psinfo.{ttyname,environ,labels} on made-up
//     PROC_STATSPATH trees (/proc/tty/drivers, odd lines included, and
//     processes with terminals), byte for byte, processes listed in PCP's
//     order; and ttyname and environ on this system, for the processes
//     both saw, in the same order.
#include <cstdlib>
#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>
#include <string>

#include "gtest/gtest.h"
#include "pcp_agents_local.h"

namespace pmapi {
namespace {

constexpr char kTrees[] = "/var/lib/pcp/testsuite/linux";

std::string Scratch(const std::string& name) {
  const std::string dir = std::string(PMAPI_PMCD_DIR) + "/linux-files-" + name;
  const std::string cmd = "rm -rf '" + dir + "' && mkdir -p '" + dir + "/proc'";
  return std::system(cmd.c_str()) == 0 ? dir : "";
}

// PCP's and our `pminfo -L -f NAMES` on the tree below `root` ("": this
// system); returns PCP's output.
std::string ExpectSameAsPcp(const std::string& root, const std::string& names = "mem.slabinfo") {
  const std::string pcp_dir = PcpAgentDir("slabinfo-pcp", PcpAgent::kLinux);
  EXPECT_FALSE(pcp_dir.empty());
  if (!root.empty()) setenv("LINUX_STATSPATH", root.c_str(), 1);
  setenv("LINUX_PAGESIZE", "4096", 1);
  setenv("LINUX_ACCESS", "1", 1);
  const std::string args = "pminfo -L -f " + names;
  ToolRun pcp = RunPcpLinuxLocal(pcp_dir, args);
  setenv("PCP_PMCDCONF_PATH", PMAPI_SOURCE_DIR "/pmdas/pmcd.conf", 1);
  ToolRun ours = RunOurs(args);
  unsetenv("PCP_PMCDCONF_PATH");
  for (const char* v : {"LINUX_STATSPATH", "LINUX_PAGESIZE", "LINUX_ACCESS"}) unsetenv(v);
  EXPECT_EQ(pcp.status, 0) << pcp.err;
  EXPECT_EQ(ours.status, pcp.status) << ours.err;
  EXPECT_EQ(ours.out, pcp.out) << root;
  EXPECT_EQ(ours.err, pcp.err) << root;
  return pcp.out;
}

class QaSlabinfo : public ::testing::TestWithParam<int> {};

TEST_P(QaSlabinfo, SameAsPcpAgent) {
  const std::string dir = Scratch("qa" + std::to_string(GetParam()));
  ASSERT_FALSE(dir.empty());
  const std::string cmd = "tar xzf " + std::string(kTrees) + "/meminfo-root-00" + std::to_string(GetParam()) +
                          ".tgz -C '" + dir + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << "pcp-testsuite's meminfo trees are needed (scripts/install-deps.sh --pcp)";
  EXPECT_GT(ExpectSameAsPcp(dir).size(), 5000u);
}

INSTANTIATE_TEST_SUITE_P(QaTrees, QaSlabinfo, ::testing::Values(1, 2, 3, 4, 5, 6, 7));

// Made-up files: each format version, blanks in names, lines that end the
// read, a version PCP's agent does not know, headers without a version.
class OddSlabinfo : public ::testing::TestWithParam<const char*> {};

TEST_P(OddSlabinfo, SameAsPcpAgent) {
  const std::string dir = Scratch("odd");
  ASSERT_FALSE(dir.empty());
  std::ofstream(dir + "/proc/slabinfo", std::ios::binary) << GetParam();
  ExpectSameAsPcp(dir);
}

INSTANTIATE_TEST_SUITE_P(
    Files, OddSlabinfo,
    ::testing::Values("slabinfo - version: 1.0\nkmem_cache 42 50\nfoo bar 3 4\nfoo  baz 5 6\nx-y -z 7 8\n",
                      "slabinfo - version: 1.1\nkmem_cache 42 50 128 2 3 1\n"
                      "big 18446744073709551615 99999999999999999999999 4294967297 -1 7 2\nshort 1 2 3\n"
                      "after 1 2 3 4 5 6\n",
                      "slabinfo - version: 2.0\n# comment\nalpha 10 20 64 5 1 : tunables 0 0 0 : slabdata 2 4 0\n"
                      "beta 10 20 64 5 1:tunables 0 0 0:slabdata 2 4 0\n",
                      "slabinfo - version: 2.1\nalpha 10 20 64 5 1 : tunables 0 0 0 : slabdata 2 4 0\n"
                      "gamma 10 20 64 5 1 : tunables 0 0 : slabdata 2 4 0\nlost 1 1 1 1 1 : tunables 0 0 0 : slabdata 1 1 1\n",
                      "slabinfo - version: 3.0\nalpha 10 20 64 5 1 : tunables 0 0 0 : slabdata 2 4 0\n",
                      "no header here 2.1\nalpha 10 20 64 5 1 : tunables 0 0 0 : slabdata 2 4 0\n",
                      "xx 1.1 slabinfo - version: 7\nalpha 1 2 3 4 5 6\n", "slabinfo - version:2. 1\nalpha 1 2\n",
                      "", "slabinfo - version: 2.1\n"));

constexpr char kAddrs[] =
    "network.interface.hw_addr network.interface.inet_addr network.interface.ipv6_addr "
    "network.interface.ipv6_scope";

TEST(InterfaceAddresses, SameAsPcpAgentHere) {
  ExpectSameAsPcp("", kAddrs);
  for (const char* one : {"network.interface.inet_addr", "network.interface.ipv6_scope"}) ExpectSameAsPcp("", one);
}

// Made-up trees: an interface's last IPv6 line wins; a blank or overlong
// address file; odd lines (bad digits, short lines, a long name) in
// if_inet6, read as PCP's fscanf reads them.
class OddAddresses : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(OddAddresses, SameAsPcpAgent) {
  const std::string dir = Scratch("addr");
  ASSERT_FALSE(dir.empty());
  ASSERT_EQ(std::system(("mkdir -p '" + dir + "/proc/net' '" + dir + "/sys/class/net/eth9' '" + dir +
                         "/sys/class/net/dummy0'")
                            .c_str()),
            0);
  std::ofstream(dir + "/proc/net/if_inet6", std::ios::binary) << GetParam().first;
  std::ofstream(dir + "/sys/class/net/eth9/address", std::ios::binary) << GetParam().second;
  std::ofstream(dir + "/sys/class/net/dummy0/address", std::ios::binary) << "  \n";
  ExpectSameAsPcp(dir, kAddrs);
}

INSTANTIATE_TEST_SUITE_P(
    Trees, OddAddresses,
    ::testing::Values(
        std::make_pair("fe8000000000000000fc00fffe000001 04 40 20 80     eth9\n"
                       "fe8000000000000000fc00fffe000002 04 40 40 80     eth9\n"
                       "00000000000000000000000000000001 01 80 10 80       lo\n",
                       "02:00:00:00:00:09\n"),
        std::make_pair("fe80000000000000000000000000000g 04 40 20 80 bad0\n2001:0db8 0 0 0 0 short\n"
                       "abcd 0x10 -1 ffffffffffff 7 name_that_is_longer_than_twenty_chars\n",
                       "aa:bb:cc:dd:ee:ff:00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff:00:11:22:33:44:55:66:77\n"),
        std::make_pair("", "")));

// PCP's and our `pminfo -L -f NAMES` of the proc agent below `root` ("":
// this system, where lines of processes only one of them saw are dropped).
void ExpectProcSameAsPcp(const std::string& root, const std::string& names) {
  const std::string pcp_dir = PcpAgentDir("psinfo-pcp", PcpAgent::kProc);
  ASSERT_FALSE(pcp_dir.empty());
  if (!root.empty()) setenv("PROC_STATSPATH", root.c_str(), 1);
  const std::string args = "pminfo -L -f " + names;
  ToolRun pcp = RunPcpLinuxLocal(pcp_dir, args);
  setenv("PCP_PMCDCONF_PATH", PMAPI_SOURCE_DIR "/pmdas/pmcd.conf", 1);
  ToolRun ours = RunOurs(args);
  unsetenv("PCP_PMCDCONF_PATH");
  unsetenv("PROC_STATSPATH");
  EXPECT_EQ(ours.status, pcp.status) << ours.err;
  EXPECT_EQ(ours.err, pcp.err) << root;
  if (root.empty()) {  // processes come and go here: keep those both listed
    std::string both_pcp, both_ours;
    std::istringstream a(pcp.out), b(ours.out);
    std::vector<std::string> la, lb;
    for (std::string l; std::getline(a, l);) la.push_back(l);
    for (std::string l; std::getline(b, l);) lb.push_back(l);
    const auto keep = [](const std::vector<std::string>& mine, const std::vector<std::string>& other) {
      std::string out;
      for (const std::string& l : mine) {
        const size_t name_end = l.find("] value ");
        if (l.rfind("    inst [", 0) == 0 && name_end != std::string::npos &&
            std::none_of(other.begin(), other.end(), [&](const std::string& o) {
              return o.compare(0, name_end, l, 0, name_end) == 0;
            })) {
          continue;
        }
        out += l + "\n";
      }
      return out;
    };
    EXPECT_EQ(keep(lb, la), keep(la, lb));
    return;
  }
  EXPECT_EQ(ours.out, pcp.out);
}

// A made-up process `pid` with terminal `tty` (the tty_nr field).
void Process(const std::string& root, int pid, unsigned tty, const std::string& environ) {
  const std::string dir = root + "/proc/" + std::to_string(pid);
  ASSERT_EQ(std::system(("mkdir -p '" + dir + "'").c_str()), 0);
  std::ofstream(dir + "/stat") << pid << " (p" << pid << ") S 1 1 1 " << tty
                               << " -1 0 0 0 0 0 1 2 0 0 20 0 1 0 100 1000 20 0 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n";
  std::ofstream(dir + "/cmdline", std::ios::binary) << "p" << pid << std::string("\0arg\0", 5);
  std::ofstream(dir + "/environ", std::ios::binary) << environ;
}

class OddTerminals : public ::testing::TestWithParam<const char*> {};

TEST_P(OddTerminals, SameAsPcpAgent) {
  const std::string dir = Scratch("tty");
  ASSERT_FALSE(dir.empty());
  ASSERT_EQ(std::system(("mkdir -p '" + dir + "/proc/tty'").c_str()), 0);
  std::ofstream(dir + "/proc/tty/drivers", std::ios::binary) << GetParam();
  unsigned pid = 100;
  for (unsigned tty : {0u, 1025u, 34816u, 34830u, 1088u, 1089u, 1280u, 1281u, 4294967295u, 1024u, 2048u}) {
    Process(dir, static_cast<int>(pid++), tty, std::string("A=1\0B=2\0", 8));
  }
  Process(dir, static_cast<int>(pid++), 0, "");
  Process(dir, static_cast<int>(pid++), 0, "no-nul");
  ExpectProcSameAsPcp(dir, "proc.psinfo.ttyname proc.psinfo.environ proc.psinfo.labels");
}

INSTANTIATE_TEST_SUITE_P(
    Drivers, OddTerminals,
    ::testing::Values("/dev/tty             /dev/tty        5       0 system:/dev/tty\n"
                      "/dev/console         /dev/console    5       1 system:console\n"
                      "/dev/vc/0            /dev/vc/0       4       0 system:vtmaster\n"
                      "serial               /dev/ttyS       4      64 serial\n"
                      "pty_slave            /dev/pts      136 0-1048575 pty:slave\n"
                      "unknown              /dev/tty        4 1-63 console\n",
                      "serial /dev/ttyS 4 64-95 serial\nshort line\nunknown /dev/tty 4 1-63 console\n",
                      "a /dev/x 4 1-63 k\n\nb /dev/y 5 0 k\n", "a /dev/x four 1 k\n", "a b 4 1-63", "a b 4 1- k\n", ""));

TEST(PsinfoHere, SameAsPcpAgent) { ExpectProcSameAsPcp("", "proc.psinfo.ttyname proc.psinfo.environ"); }

}  // namespace
}  // namespace pmapi
