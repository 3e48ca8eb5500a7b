// Fuzz target: the proc agent's /proc/tty/drivers reader (ReadTtyDrivers,
// PCP's pmfstring and fscanf reads over the file) and the terminal lookup
// over what it read, for a few device numbers (none of which is a device
// of /dev/pts or /dev, so the lookup stays within the table or scans those
// directories and answers "?").
#include <cstdint>
#include <filesystem>
#include <string>

#include "fuzz_support.h"
#include "pmdas/proc/proc_tty.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string root = [] {
    const std::string r = fuzz::ScratchDir() + "/tty";
    std::filesystem::create_directories(r + "/proc/tty");
    return r;
  }();
  fuzz::WriteFile(root + "/proc/tty/drivers", {data, size});
  uint64_t h = 0;
  const std::vector<pmapi::proc_agent::TtyDriver> drivers = pmapi::proc_agent::ReadTtyDrivers(root);
  for (const auto& d : drivers) h += fuzz::Digest(d.devpath) + d.major + d.minor + d.range;
  for (uint32_t tty : {(4u << 8) | 1, (4u << 8) | 64, (136u << 8) | 3, 0xfff00u | (77u << 8)}) {
    bool in_table = false;
    for (const auto& d : drivers) in_table = in_table || d.major == ((tty >> 8) & 0xfff);
    if (in_table) h += fuzz::Digest(pmapi::proc_agent::TtyName(drivers, tty));
  }
  fuzz::Consume(h);
  return 0;
}
