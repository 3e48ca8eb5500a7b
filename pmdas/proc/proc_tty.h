// proc_tty.h: terminal names for proc.psinfo.ttyname (proc_tty.cc).
#ifndef PMAPI_PMDAS_PROC_PROC_TTY_H_
#define PMAPI_PMDAS_PROC_PROC_TTY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pmapi::proc_agent {

// A line of /proc/tty/drivers: the device path without "/dev/", the major
// number and the range of minor numbers.
struct TtyDriver {
  std::string devpath;
  unsigned major = 0, minor = 0, range = 0;
};

// The drivers of root + /proc/tty/drivers, up to the first line PCP's
// agent cannot read (it says so on standard error, as PCP's does).
std::vector<TtyDriver> ReadTtyDrivers(const std::string& root);
// The same over the file's text (`path` names it in the complaint).
std::vector<TtyDriver> ParseTtyDrivers(std::string_view text, const std::string& path);

// The name of terminal `tty` (the tty_nr field of /proc/PID/stat, not 0).
std::string TtyName(const std::vector<TtyDriver>& drivers, uint32_t tty);

}  // namespace pmapi::proc_agent

#endif  // PMAPI_PMDAS_PROC_PROC_TTY_H_
