// Finding an archive's files; see archive_discovery.h.
#include "archive_discovery.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>

#include "absl/strings/match.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

// Compression suffixes PCP recognises after a file name.
constexpr const char* kCompressionSuffixes[] = {".xz", ".lzma", ".bz2", ".bz",
                                                ".gz", ".Z",    ".z",   ".zst"};

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Returns `s` without a trailing compression suffix.
std::string_view StripCompression(std::string_view s) {
  for (const char* suffix : kCompressionSuffixes) {
    if (absl::EndsWith(absl::string_view(s.data(), s.size()), suffix)) {
      return s.substr(0, s.size() - std::char_traits<char>::length(suffix));
    }
  }
  return s;
}

// Classifies one directory entry `rest` (the part after "base.").
void Classify(const std::string& path, std::string_view rest, ArchiveFiles* files) {
  std::string_view plain = StripCompression(rest);
  const bool compressed = plain.size() != rest.size();
  if (plain == "meta") {
    if (files->meta.empty() || !compressed) files->meta = path;
  } else if (plain == "index") {
    if (files->index.empty() || !compressed) files->index = path;
  } else if (AllDigits(plain) && plain.size() < 10) {
    int vol = std::stoi(std::string(plain));
    auto it = files->volumes.find(vol);
    if (it == files->volumes.end() || !compressed) files->volumes[vol] = path;
  }
}

}  // namespace

std::string ArchiveBaseName(std::string_view name) {
  if (!IsRegularFile(std::string(name))) return std::string(name);
  std::string_view s = StripCompression(name);
  size_t dot = s.rfind('.');
  size_t slash = s.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) {
    return std::string(name);
  }
  std::string_view suffix = s.substr(dot + 1);
  if (suffix == "meta" || suffix == "index" || AllDigits(suffix)) {
    return std::string(s.substr(0, dot));
  }
  return std::string(name);
}

absl::StatusOr<ArchiveFiles> FindArchiveFiles(const std::string& base) {
  const size_t slash = base.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : base.substr(0, slash + 1);
  const std::string prefix = (slash == std::string::npos ? base : base.substr(slash + 1)) + ".";
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return PcpError(-errno);
  ArchiveFiles files;
  while (struct dirent* e = readdir(d)) {
    std::string_view entry(e->d_name);
    if (entry.size() <= prefix.size() || entry.substr(0, prefix.size()) != prefix) continue;
    std::string path = slash == std::string::npos ? std::string(entry) : dir + std::string(entry);
    Classify(path, entry.substr(prefix.size()), &files);
  }
  closedir(d);
  // As PCP: with some of the archive's files there but its metadata or
  // every data volume missing, PM_ERR_LOGFILE; with none, ENOENT.
  if (files.meta.empty() || files.volumes.empty()) {
    const bool some = !files.meta.empty() || !files.index.empty() || !files.volumes.empty();
    return PcpError(some ? kErrLogfile : -ENOENT);
  }
  return files;
}

}  // namespace pmapi
