// mem.slabinfo.* of the Linux agent, from /proc/slabinfo: one instance per
// kernel slab cache, named as the file names it, with its object and slab
// counts. Read as PCP's agent reads the file:
//   - the format version comes from the first header the agent reads and
//     is kept; versions 1.0, 1.1, 2.0 and 2.1 are understood, and a line
//     that does not fit its version ends the read (the caches read so far
//     keep their values);
//   - before the line's first digit, the last blank ahead of a letter
//     (with anything between them) is made an underscore, so "foo bar 1 2"
//     is cache "foo_bar";
//   - instances are numbered in order of discovery and kept while a cache
//     is missing; a cache missing from the last read has no instance;
//   - the file is read, and values given, only for the super-user (or
//     when LINUX_ACCESS is set); others see no values;
//   - a metric the file's version does not carry has no value.
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "pmapi/errors.h"
#include "pmdas/common/scan.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {

namespace sc = agent_scan;

constexpr size_t kLineSize = 8192;  // PCP's agent reads with fgets into BUFSIZ bytes

// A number as %d reads it (after white space, optional sign), saturated as
// strtol saturates and then cut to an int as glibc stores it.
bool ScanInt(std::string_view s, size_t* pos, int* out) {
  sc::SkipSpace(s, pos);
  const std::string rest(s.substr(*pos, 64));
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(rest.c_str(), &end, 10);
  if (end == rest.c_str()) return false;
  *pos += static_cast<size_t>(end - rest.c_str());
  *out = static_cast<int>(v);
  return true;
}

// The version of a header line ("slabinfo - version: 2.1"): the first
// number of the line, then the one after a dot; 0.0 without the words.
void ReadVersion(std::string_view header, int* major, int* minor) {
  *major = *minor = 0;
  if (header.find("slabinfo - version:") == std::string_view::npos) return;
  size_t pos = header.find_first_of("0123456789");
  if (pos == std::string_view::npos) return;
  if (ScanInt(header, &pos, major) && sc::ScanLiteral(header, &pos, ".")) ScanInt(header, &pos, minor);
}

// Up to the line's first digit: a letter after blanks turns the last of
// those blanks, and what lies between it and the letter, to underscores.
std::string JoinNameWords(std::string_view line) {
  std::string out(line);
  size_t blank = std::string::npos;
  for (size_t p = 0; p < out.size(); ++p) {
    const unsigned char c = static_cast<unsigned char>(out[p]);
    if (absl::ascii_isspace(c)) {
      blank = p;
    } else if (absl::ascii_isdigit(c)) {
      break;
    } else if (absl::ascii_isalpha(c) && blank != std::string::npos) {
      for (; blank < p; ++blank) out[blank] = '_';
      blank = std::string::npos;
    }
  }
  return out;
}

bool ScanU32(std::string_view s, size_t* pos, uint32_t* out) {
  uint64_t v = 0;
  if (!sc::ScanUnsigned(s, pos, &v)) return false;
  *out = static_cast<uint32_t>(v);  // %u keeps the low 32 bits
  return true;
}

bool SkipWords(std::string_view s, size_t* pos, int n) {
  std::string ignored;
  for (int i = 0; i < n; ++i) {
    if (!sc::ScanWord(s, pos, &ignored)) return false;
  }
  return true;
}

// One cache line in the format of `version` (major * 10 + minor); false
// when the line does not fit it.
bool ParseCacheLine(std::string_view line, int version, std::string* name, SlabCache* c, unsigned pageshift) {
  size_t pos = 0;
  if (!sc::ScanWord(line, &pos, name) || !sc::ScanUnsigned(line, &pos, &c->active_objs) ||
      !sc::ScanUnsigned(line, &pos, &c->total_objs)) {
    return false;
  }
  if (version == 10) return true;
  if (version == 11) {
    if (!ScanU32(line, &pos, &c->object_size) || !ScanU32(line, &pos, &c->active_slabs) ||
        !ScanU32(line, &pos, &c->total_slabs) || !ScanU32(line, &pos, &c->pages_per_slab)) {
      return false;
    }
    c->total_size = (uint64_t{c->pages_per_slab} * c->active_slabs) << pageshift;
    return true;
  }
  // 2.0 and 2.1: "... : tunables L B S : slabdata ACTIVE TOTAL ..."
  if (!ScanU32(line, &pos, &c->object_size) || !ScanU32(line, &pos, &c->objects_per_slab) ||
      !ScanU32(line, &pos, &c->pages_per_slab) || !sc::ScanLiteral(line, &pos, " :") || !SkipWords(line, &pos, 4) ||
      !sc::ScanLiteral(line, &pos, " :") || !SkipWords(line, &pos, 1) || !ScanU32(line, &pos, &c->active_slabs) ||
      !ScanU32(line, &pos, &c->total_slabs)) {
    return false;
  }
  // PCP's agent divides by objects per slab unchecked; a file giving 0
  // gets a size of 0 here
  const uint64_t bytes = (uint64_t{c->pages_per_slab} * c->active_objs) << pageshift;
  c->total_size = c->objects_per_slab == 0 ? 0 : bytes / c->objects_per_slab;
  return true;
}

bool KnownVersion(int major, int minor) {
  return (major == 1 || major == 2) && (minor == 0 || minor == 1);
}

}  // namespace

std::vector<std::pair<std::string, SlabCache>> ParseSlabinfo(std::string_view text, int* major, int* minor,
                                                             unsigned pageshift) {
  std::vector<std::pair<std::string, SlabCache>> out;
  if (text.empty()) return out;
  const std::vector<std::string_view> lines = ls::FgetsLines(text, kLineSize);
  if (*major < 0) ReadVersion(lines.front().substr(0, lines.front().find('\0')), major, minor);
  if (!KnownVersion(*major, *minor)) return out;
  const int version = *major * 10 + *minor;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::string_view line = lines[i].substr(0, lines[i].find('\0'));  // the C string fgets gave
    if (!line.empty() && line.front() == '#') continue;
    std::string name;
    SlabCache c;
    if (!ParseCacheLine(JoinNameWords(line), version, &name, &c, pageshift)) break;
    c.seen = static_cast<unsigned>(version);
    out.emplace_back(std::move(name), c);
  }
  return out;
}

void RefreshSlabinfo(LinuxState& st, Pmda& pmda) {
  st.slab.permission = st.all_access || getuid() == 0;
  if (!st.slab.permission) return;
  st.slab.caches.DeactivateAll();
  const std::string text = ls::ReadProcFile(st.root, "/proc/slabinfo").value_or("");
  for (auto& [name, cache] : ParseSlabinfo(text, &st.slab.major, &st.slab.minor, st.PageShift())) {
    st.slab.caches.Activate(name).data = cache;
  }
  st.slab.caches.Fill(pmda.FindIndom(MakeInDom(pmda.domain(), kSlabIndom)));
}

int FetchSlabinfo(const LinuxState& st, const MetricRow& r, Inst inst, AtomValue* atom) {
  if (!st.slab.permission) return 0;
  const SlabCache* c = nullptr;
  const int found = st.slab.caches.Lookup(inst, &c);
  if (found <= 0) return kErrInst;
  const unsigned seen = c->seen;
  switch (r.item) {
    case 0: return (atom->ull = c->active_objs, 1);
    case 1: return (atom->ull = c->total_objs, 1);
    case 2: return seen < 11 ? 0 : (atom->ul = c->object_size, 1);
    case 3: return seen < 11 ? 0 : (atom->ul = c->active_slabs, 1);
    case 4: return seen == 11 ? 0 : (atom->ul = c->total_slabs, 1);  // not in 1.1, as in PCP's agent
    case 5: return seen < 11 ? 0 : (atom->ul = c->pages_per_slab, 1);
    case 6: return seen != 20 && seen != 21 ? 0 : (atom->ul = c->objects_per_slab, 1);
    case 7: return seen < 11 ? 0 : (atom->ull = c->total_size, 1);
  }
  return kErrPmid;
}

}  // namespace pmapi::linux_agent
