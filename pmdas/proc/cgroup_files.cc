// The readers of the cgroup files, each reading as PCP's agent reads
// (fgets and sscanf/fscanf formats), so odd files give what PCP's give.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "pmdas/proc/cgroup_data.h"

namespace pmapi::proc_agent {
namespace {

constexpr size_t kMaxFile = 1 << 20;  // cgroup files are small; more is not read

// Reads up to `max` bytes of `path` into *text; false when it cannot be
// opened (*missing then says whether it does not exist).
bool ReadUpTo(const std::string& path, size_t max, std::string* text) {
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (f == nullptr) return false;
  text->clear();
  char buf[4096];
  while (text->size() < max) {
    const size_t n = std::fread(buf, 1, std::min(sizeof(buf), max - text->size()), f);
    if (n == 0) break;
    text->append(buf, n);
  }
  std::fclose(f);
  return true;
}

}  // namespace

std::vector<std::string_view> Fields(std::string_view s, std::string_view seps) {
  std::vector<std::string_view> out;
  size_t at = 0;
  while (at < s.size()) {
    at = s.find_first_not_of(seps, at);
    if (at == std::string_view::npos) break;
    size_t end = s.find_first_of(seps, at);
    if (end == std::string_view::npos) end = s.size();
    out.push_back(s.substr(at, end - at));
    at = end;
  }
  return out;
}

bool ScanDevice(std::string_view s, size_t* pos, std::string* dev) {
  uint64_t major = 0, minor = 0;
  if (!ScanUnsigned(s, pos, &major) || !ScanLiteral(s, pos, ":") || !ScanUnsigned(s, pos, &minor)) return false;
  *dev = absl::StrCat(static_cast<uint32_t>(major), ":", static_cast<uint32_t>(minor));
  return true;
}

bool ParseIoStatLine(std::string_view line, std::string* dev, IoStat* io) {
  static constexpr std::string_view kFields[] = {" rbytes=", " wbytes=", " rios=", " wios=", " dbytes=", " dios="};
  size_t pos = 0;
  if (!ScanDevice(line, &pos, dev)) return false;
  for (size_t i = 0; i < 6; ++i) {
    if (!ScanLiteral(line, &pos, kFields[i]) || !ScanUnsigned(line, &pos, &io->v[i])) return false;
  }
  return true;
}

int MemoryStatItem(std::string_view name) {
  // memory.stat's names by PCP's item numbers (gaps are unused items);
  // the "total_" names of version 1 take 30 more than their plain ones
  static constexpr std::string_view kNames[] = {
      "cache", "rss", "rss_huge", "mapped_file", "writeback", "swap", "pgpgin", "pgpgout", "pgfault",
      "pgmajfault", "inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable", "", "",
      "anon", "anon_thp", "file", "file_dirty", "file_mapped", "file_writeback", "", "", "kernel_stack",
      "pgactivate", "pgdeactivate", "pglazyfree"};
  static constexpr std::string_view kLater[] = {
      "pglazyfreed", "pgrefill", "pgscan", "pgsteal", "", "", "", "", "", "", "recent_rotated_anon",
      "recent_rotated_file", "recent_scanned_anon", "recent_scanned_file", "shmem", "slab",
      "slab_reclaimable", "slab_unreclaimable", "sock", "", "thp_collapse_alloc", "thp_fault_alloc",
      "workingset_activate", "workingset_nodereclaim", "workingset_refault"};
  if (name.empty()) return -1;
  if (name.starts_with("total_")) {
    const int plain = MemoryStatItem(name.substr(6));
    return plain >= 0 && plain <= 14 ? plain + 30 : -1;
  }
  for (size_t i = 0; i < std::size(kNames); ++i) {
    if (kNames[i] == name) return static_cast<int>(i);
  }
  for (size_t i = 0; i < std::size(kLater); ++i) {
    if (kLater[i] == name) return static_cast<int>(50 + i);
  }
  return -1;
}

namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -EINVAL;
}

}  // namespace

int ReadFirstLine(const std::string& path, std::string* line, size_t max) {
  if (!ReadUpTo(path, max, line)) return -ENOENT;
  const size_t nl = line->find('\n');
  if (nl != std::string::npos) line->resize(nl + 1);
  return line->empty() ? -ENOMEM : 0;
}

uint64_t ReadOneValue(const std::string& path) {
  std::string line;
  if (ReadFirstLine(path, &line) < 0) return kNoValue;
  return std::strtoull(line.c_str(), nullptr, 0);
}

int64_t ReadOneSigned(const std::string& path) {
  std::string line;
  if (const int sts = ReadFirstLine(path, &line); sts < 0) return sts;
  return std::strtoll(line.c_str(), nullptr, 0);
}

std::string ReadOneString(const std::string& path) {
  std::string line;
  if (ReadFirstLine(path, &line) < 0) return "";
  while (!line.empty() && line.back() == '\n') line.pop_back();
  return line;
}

bool ReadText(const std::string& path, std::string* text) { return ReadUpTo(path, kMaxFile, text); }

bool ReadLines(const std::string& path, std::vector<std::string>* lines) {
  std::string text;
  if (!ReadText(path, &text)) return false;
  lines->clear();
  size_t at = 0;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    lines->emplace_back(text, at, nl - at);
    at = nl + 1;
  }
  return true;
}

bool ParseNamedValue(std::string_view line, std::string* name, uint64_t* value) {
  size_t pos = 0;
  SkipSpace(line, &pos);
  const size_t start = pos;
  while (pos < line.size() && !absl::ascii_isspace(static_cast<unsigned char>(line[pos]))) ++pos;
  if (pos == start) return false;
  name->assign(line.substr(start, pos - start));
  return ScanUnsigned(line, &pos, value);
}

void ReadPressure(std::string_view text, size_t* pos, std::string_view kind, Pressure* p) {
  int count = 0;
  static constexpr std::string_view kFields[] = {" avg10=", " avg60=", " avg300="};
  if (ScanLiteral(text, pos, kind)) {
    for (int i = 0; i < 3 && ScanLiteral(text, pos, kFields[i]) && ScanFloat(text, pos, &p->avg[i]); ++i) ++count;
    if (count == 3 && ScanLiteral(text, pos, " total=") && ScanUnsigned(text, pos, &p->total)) {
      ++count;
      SkipSpace(text, pos);
    }
  }
  p->updated = count == 4;
}

std::string UnescapeName(const std::string& name) {
  if (name.find('\\') == std::string::npos) return name;
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '\\' && i + 1 < name.size() && name[i + 1] == 'x') {
      const int a = i + 2 < name.size() ? HexDigit(name[i + 2]) : -EINVAL;
      const int b = i + 3 < name.size() ? HexDigit(name[i + 3]) : -EINVAL;
      out.push_back(static_cast<char>((((a & 0xff) << 4) | (b & 0xff)) & 0xff));
      i += 3;
    } else {
      out.push_back(name[i]);
    }
  }
  return out;
}

std::string ContainerOf(const std::string& name) {
  constexpr size_t kIdLength = 64;  // a SHA-256 container id
  const size_t slash = name.rfind('/');
  if (slash == std::string::npos || slash == 0) return "";
  const std::string_view last = std::string_view(name).substr(slash);
  if (last.starts_with("/libpod-") || last.starts_with("/docker-")) {
    const size_t dot = last.find('.', 8);
    return dot != std::string_view::npos && dot - 8 == kIdLength ? std::string(last.substr(8, kIdLength)) : "";
  }
  return last.size() - 1 == kIdLength ? std::string(last.substr(1)) : "";
}

}  // namespace pmapi::proc_agent
