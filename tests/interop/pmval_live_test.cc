// pmval_live_test: our pmval on live sources. Against the private pmcd it
// is run side by side with PCP 6.0.3's pmval: the header block and every
// output of constant metrics and of errors must be identical, rows of
// changing values must have PCP's shape, and the rate of sample.seconds
// must be one second per second. On the local context (-L, the Linux
// agent in-process, no pmcd) the header is PCP's for the metric's
// descriptor and the rates are checked against what the kernel can give.
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "golden_live_tools.h"

namespace pmapi {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// The header block: every line up to the "interval:" line (or the
// "samples:" line when there is no interval).
size_t HeaderSize(const std::vector<std::string>& lines) {
  size_t n = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("samples:", 0) == 0) n = i + 1;
    if (lines[i].rfind("interval:", 0) == 0) return i + 1;
  }
  return n;
}

std::vector<std::string> Header(const std::string& out) {
  std::vector<std::string> lines = Lines(out);
  lines.resize(HeaderSize(lines));
  return lines;
}

std::vector<std::string> Rows(const std::string& out) {
  std::vector<std::string> lines = Lines(out);
  lines.erase(lines.begin(), lines.begin() + static_cast<long>(HeaderSize(lines)));
  return lines;
}

// pmval's real-number forms in a column (a value, then padding).
const std::regex kRealRow(R"(^ *(0\.0|[0-9]+\.[0-9]*|[0-9]\.[0-9]{3}E[-+][0-9]{2}) *$)");

std::vector<double> Rates(const std::vector<std::string>& rows) {
  std::vector<double> rates;
  for (const std::string& r : rows) {
    EXPECT_TRUE(std::regex_match(r, kRealRow)) << "row \"" << r << "\"";
    rates.push_back(std::strtod(r.c_str(), nullptr));
  }
  return rates;
}

double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? -1 : sum / static_cast<double>(v.size());
}

TEST(PmvalLive, HeaderAndRowShapeMatchPcp) {
  const std::string cmd = "pmval -h localhost -s 3 -t 0.5 sample.seconds";
  ToolRun ours = RunOurs(cmd);
  ToolRun pcp = RunPcp(cmd);
  ASSERT_EQ(pcp.status, 0) << pcp.err;
  EXPECT_EQ(ours.status, 0) << ours.err;
  EXPECT_EQ(ours.err, pcp.err);
  EXPECT_EQ(Header(ours.out), Header(pcp.out)) << ours.out << "---\n" << pcp.out;
  std::vector<std::string> mine = Rows(ours.out), theirs = Rows(pcp.out);
  ASSERT_EQ(mine.size(), 3u) << ours.out;
  ASSERT_EQ(theirs.size(), 3u) << pcp.out;
  for (size_t i = 0; i < mine.size(); ++i) EXPECT_EQ(mine[i].size(), theirs[i].size()) << mine[i];
  (void)Rates(mine);
  (void)Rates(theirs);
}

// sample.seconds counts whole seconds, so a half-second rate is 0 or 2 as
// a second boundary falls in the interval or not; the mean over the run
// is the number of boundaries crossed divided by the time.
TEST(PmvalLive, SampleSecondsRateIsOnePerSecond) {
  ToolRun three = RunOurs("pmval -h localhost -s 3 -t 0.5 sample.seconds");
  ASSERT_EQ(three.status, 0) << three.err;
  const double m3 = Mean(Rates(Rows(three.out)));
  // over a span s of 1.5 s or a little more, the count grows by floor(s)
  // or ceil(s): a mean between 1/2 and 3/2 even when sleeps run late
  EXPECT_GE(m3, 0.45) << three.out;
  EXPECT_LE(m3, 1.55) << three.out;
  ToolRun eight = RunOurs("pmval -h localhost -s 8 -t 0.5 sample.seconds");
  ASSERT_EQ(eight.status, 0) << eight.err;
  std::vector<double> rates = Rates(Rows(eight.out));
  ASSERT_EQ(rates.size(), 8u);
  EXPECT_GE(Mean(rates), 0.74) << eight.out;
  EXPECT_LE(Mean(rates), 1.26) << eight.out;
  for (double r : rates) EXPECT_LE(r, 2.2) << eight.out;
  // At one-second intervals each rate is one second per second.
  ToolRun whole = RunOurs("pmval -h localhost -s 2 -t 1 sample.seconds");
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_NEAR(Mean(Rates(Rows(whole.out))), 1.0, 0.55) << whole.out;
}

// Outputs that do not change between runs are compared whole.
TEST(PmvalLive, ConstantMetricsAndErrorsMatchPcp) {
  const char* const kCommands[] = {
      "pmval -h localhost -s 2 -t 0.2 sample.bin",
      "pmval -h localhost -s 2 -t 0.2 -i bin-100,bin-300 sample.bin",
      "pmval -h localhost -s 2 -t 0.2 'sample.bin[bin-200,bin-900]'",
      "pmval -h localhost -s 2 -t 0.2 -w 4 sample.bin",
      "pmval -h localhost -s 2 -t 0.2 -f 3 sample.double.hundred",
      "pmval -h localhost -s 1 sample.long.hundred",
      "pmval -h localhost -s 1 -z sample.long.hundred",
      "pmval -h localhost -s 1 -Z UTC+3 sample.string.hullo",
      "pmval -s 1 sample.long.one",
      "pmval -h localhost -s 1 -i bin-1000 sample.bin",
      "pmval -h localhost -s 1 -i bin-100 sample.long.one",
      "pmval -h localhost -s 1 no.such.metric",
      "pmval -h localhost -s 1 -x abc sample.write_me",
      "pmval -h localhost -s 1 -x 99999999999 sample.write_me",
      "pmval -h localhost -s 1 -x 5 sample.long.one",
      "pmval -h localhost -d -s 1 sample.long.one",
      "pmval -h localhost -U somewhere -s 1 sample.long.one",
      "pmval -h localhost:1 -s 1 sample.long.one",
      "pmval -h localhost -h other -s 1 sample.long.one",
      "pmval -h localhost -A 1sec sample.long.one",
      "pmval -h localhost -O +1 -s 1 sample.long.one",
      "pmval -h localhost -S +1 -d -s 1 sample.long.one",
      "pmval -h localhost -T -1sec sample.long.one",
      "pmval -h localhost -T xyz sample.long.one",
      "pmval -h localhost -t 0.5 -T 1.2 sample.long.one",
      "pmval -h localhost -s 1 sample.bad.nosupport",
      "pmval -h localhost -s 2 -t 0.2 -w 3 sample.bad.nosupport",
      "pmval -h localhost -s 1 -f 12 sample.long.one",
      "pmval -h localhost -s 2 -t 0.2 sample.noinst",
      "pmval -h localhost -s 2 -t 0.2 sample.bad.unknown",
      "pmval -h localhost -s 2 -t 0.2 sample.string.bin",
      "pmval -h localhost -s 2 -t 0.2 sample.aggregate.hullo",
      "pmval -h localhost -s 2 -t 0.2 -i 1,5 sample.hordes.one",
  };
  for (const char* cmd : kCommands) {
    ToolRun ours = RunOurs(cmd);
    ToolRun pcp = RunPcp(cmd);
    EXPECT_EQ(ours.status, pcp.status) << cmd;
    EXPECT_EQ(ours.out, pcp.out) << cmd;
    EXPECT_EQ(ours.err, pcp.err) << cmd;
  }
}

std::string WriteMe() {
  std::vector<std::string> lines = Lines(RunPcp("pminfo -f sample.write_me").out);
  for (const std::string& l : lines) {
    if (l.rfind("    value ", 0) == 0) return l.substr(10);
  }
  return "2";
}

TEST(PmvalLive, FilterIsStoredBeforeFetching) {
  const std::string before = WriteMe();
  for (const char* value : {"7", "11"}) {
    const std::string cmd = std::string("pmval -h localhost -s 1 -x ") + value + " sample.write_me";
    ToolRun ours = RunOurs(cmd);
    EXPECT_EQ(WriteMe(), value);
    ToolRun pcp = RunPcp(cmd);
    EXPECT_EQ(ours.status, pcp.status) << cmd;
    EXPECT_EQ(ours.out, pcp.out) << cmd;
    EXPECT_EQ(ours.err, pcp.err) << cmd;
  }
  EXPECT_EQ(RunPcp("pmstore sample.write_me " + before).status, 0);
}

// Event arrays print without timestamps live; record stamps and
// parameters follow PCP's layout.
void CheckEvents(const std::string& metric, const std::string& stamp) {
  const std::string cmd = "pmval -h localhost -s 3 -t 0.2 " + metric;
  ToolRun ours = RunOurs(cmd);
  ToolRun pcp = RunPcp(cmd);
  ASSERT_EQ(ours.status, 0) << ours.err;
  EXPECT_EQ(Header(ours.out), Header(pcp.out));
  const std::regex head("^" + std::regex_replace(metric, std::regex(R"(\.)"), R"(\.)") +
                        R"(\[(fungus|bogus)\]: [0-9]+ event records$)");
  const std::regex record("^  [0-9]{2}:[0-9]{2}:[0-9]{2}\\." + stamp +
                          R"( --- event record \[[0-9]+\] flags 0x[0-9a-f]+ \([a-z,]+\) ---$)");
  const std::regex param(R"(^    (sample\.event\.[a-z_0-9]+ .+|==> [0-9]+ missed event records)$)");
  std::vector<std::string> rows = Rows(ours.out);
  int heads = 0;
  for (const std::string& r : rows) {
    if (std::regex_match(r, head)) {
      ++heads;
      continue;
    }
    EXPECT_TRUE(std::regex_match(r, record) || std::regex_match(r, param)) << "line \"" << r << "\"";
  }
  EXPECT_EQ(heads, 6) << ours.out;  // two instances, three fetches
}

TEST(PmvalLive, EventRecords) { CheckEvents("sample.event.records", "[0-9]{3}"); }

TEST(PmvalLive, HighResEventRecords) { CheckEvents("sample.event.highres_records", "[0-9]{9}"); }

// ---- The local context: the Linux agent in-process ----

std::string Hostname() {
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

int ProcStatCpus() {
  std::ifstream in("/proc/stat");
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    if (line.size() > 3 && line.rfind("cpu", 0) == 0 && std::isdigit(line[3])) ++n;
  }
  return n;
}

ToolRun RunLocal(const std::string& args) {
  setenv("PCP_PMCDCONF_PATH", PMAPI_TEST_PMCDCONF, 1);
  ToolRun r = RunOurs("pmval -L " + args);
  unsetenv("PCP_PMCDCONF_PATH");
  return r;
}

TEST(PmvalLocal, CpuUserIsAUtilisation) {
  ToolRun r = RunLocal("-s 3 -t 0.5 kernel.all.cpu.user");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const std::vector<std::string> expected = {
      "",
      "metric:    kernel.all.cpu.user",
      "host:      " + Hostname(),
      "semantics: cumulative counter (converting to rate)",
      "units:     millisec (converting to time utilization)",
      "samples:   3",
      "interval:  0.50 sec"};
  EXPECT_EQ(Header(r.out), expected) << r.out;
  std::vector<double> rates = Rates(Rows(r.out));
  ASSERT_EQ(rates.size(), 3u) << r.out;
  for (double u : rates) {
    EXPECT_GE(u, 0.0);
    EXPECT_LE(u, ProcStatCpus() + 0.2) << r.out;
  }
}

// Every CPU state's utilisation lies between none and all of the CPUs.
TEST(PmvalLocal, CpuStatesAreUtilisations) {
  for (const char* m : {"nice", "sys", "idle", "wait.total", "intr", "steal"}) {
    ToolRun r = RunLocal(std::string("-s 1 -t 0.3 kernel.all.cpu.") + m);
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<double> rates = Rates(Rows(r.out));
    ASSERT_EQ(rates.size(), 1u) << r.out;
    EXPECT_GE(rates[0], 0.0) << m;
    EXPECT_LE(rates[0], ProcStatCpus() + 0.2) << m;
  }
}

TEST(PmvalLocal, ContextSwitchesAreARate) {
  ToolRun r = RunLocal("-s 2 -t 0.5 kernel.all.pswitch");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("units:     count (converting to count / sec)\n"), std::string::npos);
  std::vector<double> rates = Rates(Rows(r.out));
  ASSERT_EQ(rates.size(), 2u) << r.out;
  for (double x : rates) EXPECT_GT(x, 0.0) << r.out;
}

TEST(PmvalLocal, CpuCountIsConstant) {
  ToolRun r = RunLocal("-s 3 -t 0.1 hinv.ncpu");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("semantics: discrete instantaneous value\n"), std::string::npos);
  std::vector<std::string> rows = Rows(r.out);
  ASSERT_EQ(rows.size(), 3u) << r.out;
  for (const std::string& row : rows) {
    const std::string n = std::to_string(ProcStatCpus());
    EXPECT_EQ(row, std::string(11 - n.size(), ' ') + n);
  }
}

// One column per CPU, each CPU at most fully idle.
TEST(PmvalLocal, PerCpuColumns) {
  ToolRun r = RunLocal("-s 1 -t 0.3 kernel.percpu.cpu.idle");
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<std::string> rows = Rows(r.out);
  ASSERT_EQ(rows.size(), 3u) << r.out;  // blank, names, rates
  EXPECT_EQ(rows[0], "");
  const int n = ProcStatCpus();
  for (int i = 0; i < n; ++i) EXPECT_NE(rows[1].find("cpu" + std::to_string(i)), std::string::npos);
  std::istringstream rates(rows[2]);
  double u = 0;
  int count = 0;
  while (rates >> u) {
    ++count;
    EXPECT_GE(u, 0.0);
    EXPECT_LE(u, 1.1) << r.out;
  }
  EXPECT_EQ(count, n) << r.out;
}

// PCP's own pmval -L, with its linux DSO agent and a name space made from
// ours (the PMIDs are PCP's), is the oracle for the local header, the
// instance labels and the row shapes.
std::string PcpLocalDir() {
  const std::string dir = PcpLinuxLocalDir("pmval-local");
  EXPECT_FALSE(dir.empty());
  return dir;
}

ToolRun RunPcpLocal(const std::string& dir, const std::string& args) {
  return RunPcpLinuxLocal(dir, "pmval -L " + args);
}

bool IsValueRow(const std::string& row) { return std::regex_match(row, std::regex(R"(^[ 0-9.E+\-!?]*$)")); }

TEST(PmvalLocal, ShapeMatchesPcpLocalContext) {
  const std::string dir = PcpLocalDir();
  const char* const kMetrics[] = {
      "kernel.all.cpu.user", "kernel.all.load",         "kernel.percpu.cpu.idle",
      "hinv.ncpu",           "hinv.physmem",            "mem.physmem",
      "kernel.all.pswitch",  "kernel.all.nprocs",       "network.interface.in.bytes",
      "disk.all.read_bytes", "filesys.capacity",        "kernel.uname.release",
      "swap.used",           "mem.util.available",      "network.interface.out.drops"};
  for (const char* m : kMetrics) {
    const std::string args = std::string("-s 2 -t 0.1 ") + m;
    ToolRun pcp = RunPcpLocal(dir, args);
    if (pcp.status != 0) {
      ADD_FAILURE() << "PCP's pmval -L " << args << ": " << pcp.err;
      continue;
    }
    ToolRun ours = RunLocal(args);
    EXPECT_EQ(ours.status, 0) << m << ": " << ours.err;
    EXPECT_EQ(Header(ours.out), Header(pcp.out)) << m;
    std::vector<std::string> mine = Rows(ours.out), theirs = Rows(pcp.out);
    ASSERT_EQ(mine.size(), theirs.size()) << m << "\n" << ours.out << "---\n" << pcp.out;
    for (size_t i = 0; i < mine.size(); ++i) {
      if (IsValueRow(theirs[i])) {
        EXPECT_TRUE(IsValueRow(mine[i])) << m << ": " << mine[i];
        EXPECT_EQ(mine[i].size(), theirs[i].size()) << m << ": \"" << mine[i] << "\" vs \"" << theirs[i] << "\"";
      } else {
        EXPECT_EQ(mine[i], theirs[i]) << m;  // instance labels, strings
      }
    }
  }
}

// Constant metrics and errors: PCP's pmval -L gives the same text.
TEST(PmvalLocal, ConstantsAndErrorsMatchPcpLocalContext) {
  const std::string dir = PcpLocalDir();
  const char* const kArgs[] = {
      "-s 2 -t 0.1 hinv.ncpu",
      "-s 1 hinv.physmem",
      "-s 1 mem.physmem",
      "-s 2 -t 0.1 kernel.uname.release",
      "-s 1 -w 30 kernel.uname.sysname",
      "-s 1 -Z UTC+1 hinv.ncpu",
      "-s 1 -z hinv.ncpu",
      "-s 1 -z -Z UTC hinv.ncpu",
      "-s 1 -S +1 -d hinv.ncpu",
      "-s 1 -T -1sec hinv.ncpu",
      "-s 1 no.such.metric",
      "-s 1 -i nosuch kernel.all.load",
      "-s 1 'hinv.ncpu[1]'",
  };
  for (const char* args : kArgs) {
    ToolRun pcp = RunPcpLocal(dir, args);
    ToolRun ours = RunLocal(args);
    EXPECT_EQ(ours.status, pcp.status) << args;
    EXPECT_EQ(ours.out, pcp.out) << args;
    EXPECT_EQ(ours.err, pcp.err) << args;
  }
}

TEST(PmvalLocal, OptionsOnlyForHostsOrArchives) {
  ToolRun d = RunLocal("-d -s 1 hinv.ncpu");
  EXPECT_EQ(d.status, 1);
  EXPECT_EQ(d.err.rfind("pmval: delay can only be used with archives\nUsage: pmval", 0), 0u) << d.err;
  ToolRun g = RunLocal("-g -s 1 hinv.ncpu");
  EXPECT_EQ(g.status, 1);
  EXPECT_EQ(g.err, "pmval: option -g is not supported\n");
  ToolRun bad = RunLocal("-s 1 no.such.metric");
  EXPECT_EQ(bad.status, 1);
  EXPECT_EQ(bad.err, "pmval: pmLookupName(no.such.metric): Unknown metric name\n");
}

}  // namespace
}  // namespace pmapi
