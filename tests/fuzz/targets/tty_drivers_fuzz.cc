// Fuzz target: the proc agent's /proc/tty/drivers reader (ParseTtyDrivers,
// PCP's pmfstring and fscanf reads over the file's text) and the terminal lookup
// over what it read, for a device number of each of the first few drivers
// (one its range holds, so the lookup stays within the table; the /dev
// scan that follows a miss reads no input).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.h"
#include "pmdas/proc/proc_tty.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  uint64_t h = 0;
  const std::vector<pmapi::proc_agent::TtyDriver> drivers = pmapi::proc_agent::ParseTtyDrivers(text, "drivers");
  for (const auto& d : drivers) h += fuzz::Digest(d.devpath) + d.major + d.minor + d.range;
  for (size_t i = 0; i < drivers.size() && i < 4; ++i) {
    const auto& d = drivers[i];
    const uint32_t minor = d.range > d.minor ? d.minor + 1 : d.minor;
    const uint32_t tty = ((d.major & 0xfff) << 8) | (minor & 0xff) | ((minor & 0xfff00) << 12);
    bool in_table = false;  // the first driver of that major must hold it
    for (const auto& e : drivers) {
      if (e.major != (d.major & 0xfff)) continue;
      in_table = minor >= e.minor && minor <= e.range;
      break;
    }
    if (in_table) h += fuzz::Digest(pmapi::proc_agent::TtyName(drivers, tty));
  }
  fuzz::Consume(h);
  return 0;
}
