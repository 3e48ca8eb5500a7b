// tty.serial.* of the Linux agent: the counters of each serial port in
// /proc/tty/driver/serial, a file only the super-user may read. As PCP's
// agent does, values are given only to the super-user (or to anyone when
// LINUX_ACCESS is set), and the ports are not even listed for others.
//
// Lines look like
//   0: uart:16550A port:000003F8 irq:4 tx:6 rx:0 fe:1 pe:2 brk:3 oe:4 RTS|CTS
// A port whose UART is "unknown" is left out. Ports keep their instance
// number (the order they were first seen) for the life of the context.
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>


#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "pmapi/errors.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

// The unsigned number after `key` in `line` (the first place it occurs),
// read as scanf's %u reads it; false when there is none.
bool FieldAfter(absl::string_view line, absl::string_view key, uint32_t* out) {
  const size_t at = line.find(key);
  if (at == absl::string_view::npos) return false;
  absl::string_view rest = line.substr(at + key.size());
  while (!rest.empty() && absl::ascii_isspace(static_cast<unsigned char>(rest.front()))) rest.remove_prefix(1);
  bool negative = false;
  if (!rest.empty() && (rest.front() == '-' || rest.front() == '+')) {
    negative = rest.front() == '-';
    rest.remove_prefix(1);
  }
  size_t digits = 0;
  while (digits < rest.size() && absl::ascii_isdigit(static_cast<unsigned char>(rest[digits]))) ++digits;
  uint64_t v = 0;
  if (digits == 0 || digits > 19 || !absl::SimpleAtoi(rest.substr(0, digits), &v)) return false;
  *out = static_cast<uint32_t>(negative ? 0 - v : v);
  return true;
}

// The port name before the first colon; false when PCP's agent skips the
// line (the name read as a number, strtol's way, is negative or overflows).
bool PortOf(absl::string_view line, std::string* name) {
  const size_t colon = line.find(':');
  if (colon == absl::string_view::npos || colon >= 64) return false;
  *name = std::string(line.substr(0, colon));
  errno = 0;
  const long v = std::strtol(name->c_str(), nullptr, 10);
  return errno == 0 && static_cast<int>(v) >= 0;
}

void ReadLine(LinuxState& st, absl::string_view line) {
  const size_t uart_at = line.find("uart:");
  if (uart_at == absl::string_view::npos || line.find(':') == absl::string_view::npos) return;
  std::string name;
  if (!PortOf(line, &name)) return;
  absl::string_view uart = absl::StripLeadingAsciiWhitespace(line.substr(uart_at + 5));
  uart = uart.substr(0, uart.find_first_of(" \t\n"));
  if (uart == "unknown" || name == "serinfo") return;
  TtyPort* port = nullptr;
  for (TtyPort& t : st.ttys) {
    if (t.name == name) port = &t;
  }
  if (port == nullptr) {
    st.ttys.push_back(TtyPort{name});
    port = &st.ttys.back();
  }
  port->active = true;
  (void)FieldAfter(line, "irq:", &port->irq);
  (void)FieldAfter(line, "tx:", &port->tx);
  (void)FieldAfter(line, "rx:", &port->rx);
  (void)FieldAfter(line, "fe:", &port->frame);
  (void)FieldAfter(line, "pe:", &port->parity);
  (void)FieldAfter(line, "brk:", &port->brk);
  (void)FieldAfter(line, "oe:", &port->overrun);
}

}  // namespace

void RefreshTty(LinuxState& st, Pmda& pmda) {
  st.tty_permission = st.all_access || getuid() == 0;
  if (!st.tty_permission) return;
  std::optional<std::string> text = ls::ReadProcFile(st.root, "/proc/tty/driver/serial");
  if (!text) return;
  for (TtyPort& t : st.ttys) t.active = false;
  for (absl::string_view line : absl::StrSplit(*text, '\n', absl::SkipEmpty())) ReadLine(st, line);
  std::vector<PmdaInstid> set;
  for (size_t i = 0; i < st.ttys.size(); ++i) {
    if (st.ttys[i].active) set.push_back({static_cast<Inst>(i), st.ttys[i].name});
  }
  SetInstances(pmda, kTtyIndom, std::move(set));
}

int FetchTty(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  if (!st.tty_permission) return 0;
  const uint32_t i = static_cast<uint32_t>(ToPcp(inst));
  if (i >= st.ttys.size() || !st.ttys[i].active) return 0;
  const TtyPort& t = st.ttys[i];
  switch (r.item) {
    case 0: atom->ul = t.tx; return 1;
    case 1: atom->ul = t.rx; return 1;
    case 2: atom->ul = t.frame; return 1;
    case 3: atom->ul = t.parity; return 1;
    case 4: atom->ul = t.brk; return 1;
    case 5: atom->ul = t.overrun; return 1;
    case 6: atom->ul = t.irq; return 1;
  }
  return kErrPmid;
}

}  // namespace pmapi::linux_agent
