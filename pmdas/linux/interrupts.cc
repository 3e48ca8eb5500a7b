// kernel.all.interrupts, kernel.percpu.interrupts and intr (from
// /proc/interrupts), kernel.all.softirqs.total, kernel.percpu.softirqs and
// sirq (from /proc/softirqs) of the Linux agent. Both files have a header
// of the online processors' numbers, then a line per source: a name (its
// closing ':' dropped), a count per header column, then a description.
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "pmapi/errors.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

bool Space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Reads an unsigned number at *p as strtoul does: leading blanks and a
// sign skipped; with no digits, *p is left where it was and 0 returned.
uint64_t ReadUnsigned(const char** p) {
  const char* s = *p;
  while (Space(*s)) ++s;
  bool negative = false;
  if (*s == '+' || *s == '-') negative = *s++ == '-';
  if (!std::isdigit(static_cast<unsigned char>(*s))) return 0;
  uint64_t v = 0;
  bool overflow = false;
  for (; std::isdigit(static_cast<unsigned char>(*s)); ++s) {
    const uint64_t d = static_cast<uint64_t>(*s - '0');
    if (v > (UINT64_MAX - d) / 10) overflow = true;
    v = v * 10 + d;
  }
  *p = s;
  if (overflow) return UINT64_MAX;
  return negative ? 0 - v : v;
}

// "KEY: N" at the start of the line.
bool Prefixed(const std::string& line, const char* key, uint32_t* out) {
  const size_t n = std::char_traits<char>::length(key);
  if (line.compare(0, n, key) != 0) return false;
  const char* p = line.c_str() + n;
  while (Space(*p)) ++p;
  if (!std::isdigit(static_cast<unsigned char>(*p))) return false;
  *out = static_cast<uint32_t>(ReadUnsigned(&p));
  return true;
}

// The table's processor for a header column: the column's own number when
// that processor is in the column, else the column holding it, else 0.
unsigned ColumnCpu(const IrqTable& t, size_t column) {
  if (column < t.cpus.size() && t.cpus[column] == column) return static_cast<unsigned>(column);
  for (size_t i = 0; i < t.cpus.size(); ++i) {
    if (t.cpus[i] == column) return static_cast<unsigned>(i);
  }
  return 0;
}

void Place(std::vector<int32_t>& at, Inst inst, size_t i) {
  const int32_t n = ToPcp(inst);
  if (n < 0) return;
  if (at.size() <= static_cast<size_t>(n)) at.resize(static_cast<size_t>(n) + 1, -1);
  at[static_cast<size_t>(n)] = static_cast<int32_t>(i);
}

// The position of instance `inst` in a table's list, or -1.
int32_t Find(const std::vector<int32_t>& at, Inst inst) {
  const uint32_t i = static_cast<uint32_t>(ToPcp(inst));
  return i < at.size() ? at[i] : -1;
}

void ParseTable(const std::string& text, bool interrupts, LinuxState& st, IrqTable& t, InstanceNumbers& line_ids,
                InstanceNumbers& cpu_ids) {
  const size_t ncpus = ConfiguredCpus();
  t = IrqTable();
  t.sums.assign(ncpus, 0);
  std::vector<std::string> lines = absl::StrSplit(text, '\n', absl::SkipEmpty());
  if (lines.empty()) return;
  // the header: the online processors' numbers, column by column
  std::vector<unsigned> map(ncpus, 0);
  size_t ncolumns = 0;
  for (const char* s = lines[0].c_str(); ncolumns < ncpus && *s != '\0'; ++s) {
    if (!std::isdigit(static_cast<unsigned char>(*s))) continue;
    const char* at = s;
    map[ncolumns++] = static_cast<unsigned>(ReadUnsigned(&at));
    s = at - 1;
  }
  t.cpus = map;
  for (size_t k = 1; k < lines.size(); ++k) {
    std::string line = lines[k] + "\n";
    if (interrupts && (Prefixed(line, "ERR:", &st.irq_errors) || Prefixed(line, "Err:", &st.irq_errors) ||
                       Prefixed(line, "BAD:", &st.irq_errors) || Prefixed(line, "MIS:", &st.irq_missed)))
      continue;
    size_t start = 0;
    while (start < line.size() && Space(line[start])) ++start;
    size_t end = start;
    while (end < line.size() && !Space(line[end])) ++end;
    if (end == start) continue;
    const size_t name_end = (line[end - 1] == ':' || line[end - 1] == '_') ? end - 1 : end;
    const std::string name = line.substr(start, name_end - start);
    IrqTable::Line row{line_ids.For(name), 0, name};
    const char* s = line.c_str() + std::min(name_end + 1, line.size());
    for (size_t column = 0; column < ncolumns; ++column) {
      const char* at = s;
      const uint64_t value = ReadUnsigned(&at);
      if (!Space(*at)) continue;
      s = at;
      const unsigned cpu = ColumnCpu(t, column);
      if (cpu < t.sums.size()) t.sums[cpu] += value;
      std::string cell = absl::StrCat(name, "::cpu", cpu);
      const Inst id = cpu_ids.For(cell);
      t.percpu.push_back({id, static_cast<uint32_t>(value), std::move(cell)});
      row.total += value;
    }
    t.lines.push_back(std::move(row));
  }
  // positions by instance number (numbers are handed out densely)
  for (size_t i = 0; i < t.lines.size(); ++i) Place(t.line_at, t.lines[i].inst, i);
  for (size_t i = 0; i < t.percpu.size(); ++i) Place(t.cell_at, t.percpu[i].inst, i);
}

void Publish(const IrqTable& t, Pmda& pmda, unsigned line_indom, unsigned cpu_indom) {
  std::vector<PmdaInstid> lines, cells;
  for (const IrqTable::Line& l : t.lines) lines.push_back({l.inst, l.name});
  for (const IrqTable::Cell& c : t.percpu) cells.push_back({c.inst, c.name});
  SetInstances(pmda, line_indom, std::move(lines));
  SetInstances(pmda, cpu_indom, std::move(cells));
}

int CpuSum(const IrqTable& t, Inst inst, AtomValue* atom) {
  const uint32_t i = static_cast<uint32_t>(ToPcp(inst));
  if (i >= t.sums.size()) return kErrInst;
  atom->ull = t.sums[ColumnCpu(t, i)];
  return 1;
}

}  // namespace

void RefreshInterrupts(LinuxState& st, Pmda& pmda) {
  ParseTable(ReadText(st, "/proc/interrupts"), true, st, st.irq, st.irq_ids, st.irq_cpu_ids);
  ParseTable(ReadText(st, "/proc/softirqs"), false, st, st.sirq, st.sirq_ids, st.sirq_cpu_ids);
  Publish(st.irq, pmda, kInterruptIndom, kInterruptCpuIndom);
  Publish(st.sirq, pmda, kSoftirqIndom, kSoftirqCpuIndom);
}

int FetchInterrupts(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  const IrqTable& t = r.cluster == 4 ? st.irq : st.sirq;
  const unsigned what = r.cluster == 63 ? 10 + r.item : r.item;  // 63.0, 63.1 as 10, 11
  switch (what) {
    case 0: {  // kernel.all.interrupts.total, kernel.all.softirqs.total
      const int32_t i = Find(t.line_at, inst);
      return i < 0 ? kErrInst : (atom->ull = t.lines[static_cast<size_t>(i)].total, 1);
    }
    case 1: case 10: {  // kernel.percpu.interrupts, kernel.percpu.softirqs
      const int32_t i = Find(t.cell_at, inst);
      return i < 0 ? kErrInst : (atom->ul = t.percpu[static_cast<size_t>(i)].value, 1);
    }
    case 2: atom->ul = st.irq_missed; return 1;
    case 3: atom->ul = st.irq_errors; return 1;
    case 4: case 11: return CpuSum(t, inst, atom);  // kernel.percpu.intr, sirq
  }
  return kErrPmid;
}

}  // namespace pmapi::linux_agent
