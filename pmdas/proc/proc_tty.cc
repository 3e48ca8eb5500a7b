// proc.psinfo.ttyname: a process's controlling terminal named as PCP's
// proc agent names it. The agent reads /proc/tty/drivers once (below
// PROC_STATSPATH), then names a terminal device by the first driver of its
// major number ("/dev/" taken off the driver's path, "/MINOR" added for a
// driver of many minors), and failing that by the character device of that
// number found in /dev/pts, then /dev ("?" when none is).
#include "pmdas/proc/proc_tty.h"

#include <dirent.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace pmapi::proc_agent {
namespace {

// The reads PCP's agent makes of the file (its pmfstring and fscanf
// calls), over the file's text; `eof` is the stream's end-of-file mark.
struct DriverStream {
  std::string_view text;
  size_t pos = 0;
  bool eof = false;

  int Get() {
    if (pos >= text.size()) {
      eof = true;
      return -1;
    }
    return static_cast<unsigned char>(text[pos++]);
  }
  // pmfstring: -1 at the end, 0 for a newline before any word, else the
  // word's length; the blank after a word is used up.
  int Word(std::string* word) {
    int c;
    while ((c = Get()) != -1) {
      if (c == '\n') return 0;
      if (!absl::ascii_isspace(static_cast<unsigned char>(c))) break;
    }
    if (c == -1) return -1;
    word->assign(1, static_cast<char>(c));
    while ((c = Get()) != -1 && !absl::ascii_isspace(static_cast<unsigned char>(c))) word->push_back(static_cast<char>(c));
    return static_cast<int>(word->size());
  }
  // fscanf("%d"): white space, a sign, digits.
  bool Int(int* out) {
    while (pos < text.size() && absl::ascii_isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    size_t end_of_word = pos;
    while (end_of_word < text.size() && !absl::ascii_isspace(static_cast<unsigned char>(text[end_of_word]))) ++end_of_word;
    const std::string rest(text.substr(pos, end_of_word - pos));
    char* end = nullptr;
    const long v = std::strtol(rest.c_str(), &end, 10);
    if (end == rest.c_str()) {
      if (pos >= text.size()) eof = true;
      return false;
    }
    pos += static_cast<size_t>(end - rest.c_str());
    if (pos >= text.size()) eof = true;  // the digits ran to the end
    *out = static_cast<int>(v);
    return true;
  }
};

// One line's driver; false (with a complaint, as PCP's agent makes) at a
// line it cannot read, or quietly at the end of the file.
bool ReadDriver(DriverStream& in, const std::string& path, size_t count, TtyDriver* d) {
  std::string name, device, range, kind;
  int major = 0;
  const int first = in.Word(&name);
  const bool bad = first != -1 && (first < 1 || in.Word(&device) < 1 || !in.Int(&major) || in.Word(&range) < 1 ||
                                    in.Word(&kind) < 1);
  if (bad) std::fprintf(stderr, "tty_driver_init: bad format at %s:%zu\n", path.c_str(), count + 1);
  if (first == -1 || bad) return false;
  std::string_view dev = device;
  if (dev.substr(0, 5) == "/dev/") dev.remove_prefix(5);
  d->devpath = std::string(dev.substr(0, dev.find('\0')));  // the C string PCP's agent keeps
  d->major = static_cast<unsigned>(major);
  char* end = nullptr;
  d->minor = static_cast<unsigned>(std::strtoul(range.c_str(), &end, 10));
  d->range = *end != '-' ? d->minor : static_cast<unsigned>(std::strtoul(end + 1, &end, 10));
  return true;
}

// The character device numbered `dev` in `dir`, as "pts/3" ("/dev/" taken
// off), or "?".
std::string FindDevice(uint64_t dev, const std::string& dir) {
  std::string name = "?";
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return name;
  while (const dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    const std::string full = dir + "/" + e->d_name;
    struct stat st {};
    if (stat(full.c_str(), &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == dev) {
      name = full.substr(5);
      break;
    }
  }
  closedir(d);
  return name;
}

}  // namespace

std::vector<TtyDriver> ParseTtyDrivers(std::string_view text, const std::string& path) {
  std::vector<TtyDriver> out;
  DriverStream in{text};
  while (!in.eof) {
    TtyDriver d;
    if (!ReadDriver(in, path, out.size(), &d)) break;
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<TtyDriver> ReadTtyDrivers(const std::string& root) {
  const std::string path = root + "/proc/tty/drivers";
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (f == nullptr) return {};
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0 && text.size() < (1u << 20)) text.append(buf, n);
  std::fclose(f);
  return ParseTtyDrivers(text, path);
}

std::string TtyName(const std::vector<TtyDriver>& drivers, uint32_t tty) {
  const uint64_t dev = tty;
  const unsigned major = static_cast<unsigned>((dev >> 8) & 0xfff);
  const unsigned minor = static_cast<unsigned>((dev & 0xff) | ((dev >> 12) & 0xfff00));
  for (const TtyDriver& d : drivers) {
    if (d.major != major) continue;
    if (minor == d.minor && minor == d.range) return d.devpath;
    if (minor < d.minor || minor > d.range) break;
    return absl::StrCat(d.devpath, "/", minor).substr(0, 255);  // PCP's agent's buffer
  }
  std::string name = FindDevice(dev, "/dev/pts");
  return name != "?" ? name : FindDevice(dev, "/dev");
}

}  // namespace pmapi::proc_agent
