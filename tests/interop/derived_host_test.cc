// derived_host_test: derived metrics in a host context, our pminfo and
// pmval against PCP's on the private pmcd. A configuration over the sample
// agent's steady metrics (constants, the nine-instance sample.bin) with
// arithmetic, aggregation, instance filters, help text, a semantic error
// and an operand pmcd does not have; names, descriptors, values, help text,
// PMIDs and the -Dderive trace must be identical (stdout, stderr and exit
// status), as must the errors for names that are not there; pmval's
// output apart from each sample's time of day.
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "same_as_pcp.h"

namespace pmapi {
namespace {

std::string WriteConfig() {
  const std::string path = std::string(PMAPI_PMCD_DIR) + "/derived-host.conf";
  std::ofstream out(path);
  out << "qa.sum = sample.long.one + sample.long.ten\n"
         "qa.sum(oneline) = one plus ten\n"
         "qa.sum(helptext) = 'sample.long.one added to\\\n"
         "sample.long.ten.'\n"
         "qa.bin.double = 2 * sample.bin\n"
         "qa.bin.total = sum(sample.bin)\n"
         "qa.bin.count = count(sample.bin)\n"
         "qa.bin.avg = avg(sample.bin)\n"
         "qa.bin.one = sample.bin[bin-300]\n"
         "qa.bin.some = matchinst(/bin-[1-3]00/, sample.bin)\n"
         "qa.bin.big = sample.bin > 450 ? sample.bin : -sample.bin\n"
         "qa.ratio = sample.long.hundred / sample.long.ten\n"
         "qa.mixed = sample.longlong.million - sample.long.million\n"
         "qa.scaled = rescale(mkconst(2048, units=\"Kbyte\"), \"Mbyte\")\n"
         "qa.bad = sample.bin + sample.string.hullo\n"
         "qa.missing = no.such.metric + 1\n"
         "qa.const = mkconst(42, type=u64, semantics=instant)\n";
  return path;
}

TEST(DerivedHost, PminfoSameAsPcp) {
  const std::string conf = WriteConfig();
  const std::vector<std::string> lines = {
      "-c " + conf + " qa",
      "-c " + conf + " -dm qa",
      "-c " + conf + " -f qa",
      "-c " + conf + " -tT qa.sum qa.bin.double",
      "-c " + conf + " -f qa.bin.one qa.bin.some qa.sum",
      "-c " + conf + " -d qa.missing qa.bad",
      "-c " + conf + " -f qa.nothing",
      "-c " + conf + " -Dderive -f qa.sum qa.bin",
  };
  for (const std::string& line : lines) {
    ToolRun pcp = ExpectSameAsPcp("pminfo " + line);
    EXPECT_FALSE(pcp.out.empty() && pcp.err.empty()) << line;
  }
}

// pmval's output with each sample's time of day replaced (it is when
// each tool ran).
std::string WithoutTimes(const std::string& text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (line.size() > 8 && line[2] == ':' && line[5] == ':') {
      size_t time_end = line.find(' ');
      line = "TIME" + (time_end == std::string::npos ? "" : line.substr(time_end));
    }
    out += line + "\n";
    start = end + 1;
  }
  return out;
}

TEST(DerivedHost, PmvalSameAsPcp) {
  const std::string conf = WriteConfig();
  for (const std::string metric : {"qa.bin.double", "qa.sum", "qa.bin.some", "qa.missing"}) {
    const std::string line = "pmval --derived " + conf + " -s 1 -f 3 " + metric;
    ToolRun ours = RunOurs(line);
    ToolRun pcp = RunPcp(line);
    EXPECT_EQ(ours.status, pcp.status) << line;
    EXPECT_EQ(WithoutTimes(ours.out), WithoutTimes(pcp.out)) << line;
    EXPECT_EQ(ours.err, pcp.err) << line;
    EXPECT_FALSE(pcp.out.empty() && pcp.err.empty()) << line;
  }
}

}  // namespace
}  // namespace pmapi
