// vfs.* of the Linux agent: the kernel's file, inode, directory cache and
// asynchronous I/O tables (/proc/sys/fs, cluster 27) and the locks listed
// in /proc/locks (cluster 75).
//
// The numbers are read as PCP's agent reads them, with scanf's %d: a field
// that is not a number ends the file's reading (the fields before it keep
// their values, the rest are 0), and a number beyond a long is cut to an
// int the way glibc stores it. When one of the five files cannot be opened
// every vfs value is 0, and the first refresh says so on stderr, as PCP's
// agent does.
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "pmapi/errors.h"
#include "pmdas/linux/linux_state.h"

namespace pmapi::linux_agent {
namespace {


void SkipSpace(absl::string_view* s) {
  while (!s->empty() && absl::ascii_isspace(s->front())) s->remove_prefix(1);
}

// One scanf "%d" at the front of `s`: leading blanks, a sign, decimal
// digits. Returns false (nothing stored) when no digit follows.
bool ScanInt(absl::string_view* s, int32_t* out) {
  SkipSpace(s);
  size_t n = 0;
  if (n < s->size() && ((*s)[n] == '-' || (*s)[n] == '+')) ++n;
  const size_t digits_at = n;
  while (n < s->size() && absl::ascii_isdigit(static_cast<unsigned char>((*s)[n]))) ++n;
  if (n == digits_at) return false;
  const std::string text(s->substr(0, n));
  errno = 0;
  const long v = std::strtol(text.c_str(), nullptr, 10);  // clamps as glibc's scanf does
  *out = static_cast<int32_t>(static_cast<uint32_t>(static_cast<unsigned long>(v)));
  s->remove_prefix(n);
  return true;
}

// Reads up to `count` numbers of `text` into out[0..count), stopping at the
// first field that is not a number.
void ScanInts(absl::string_view text, int count, int32_t* const* out) {
  for (int i = 0; i < count; ++i) {
    if (!ScanInt(&text, out[i])) return;
  }
}

// One scanf "%Ns" (or "%*s" with max 0): the next blank-delimited token,
// at most `max` characters of it. False at the end of the text.
bool ScanWord(absl::string_view* s, size_t max, absl::string_view* word) {
  SkipSpace(s);
  size_t n = 0;
  while (n < s->size() && !absl::ascii_isspace((*s)[n]) && (max == 0 || n < max)) ++n;
  if (n == 0) return false;
  *word = s->substr(0, n);
  s->remove_prefix(n);
  return true;
}

// The lock type and access of one line, as sscanf(line, "%*d: %15s %*s
// %15s %*d", type, access) finds them; false unless both are found.
bool LockFields(absl::string_view line, absl::string_view* type, absl::string_view* access) {
  int32_t ignored;
  if (!ScanInt(&line, &ignored) || line.empty() || line.front() != ':') return false;
  line.remove_prefix(1);
  absl::string_view skipped;
  return ScanWord(&line, 15, type) && ScanWord(&line, 0, &skipped) && ScanWord(&line, 15, access);
}

LockCount* LockKind(VfsLocks& locks, absl::string_view type) {
  auto is = [&](absl::string_view prefix) { return absl::StartsWith(type, prefix); };
  if (is("POSIX") || is("ACCESS") || is("OFDLCK")) return &locks.posix;
  if (is("FLOCK")) return &locks.flock;
  if (is("DELEG") || is("LEASE")) return &locks.lease;
  return nullptr;
}

void CountLock(VfsLocks& locks, absl::string_view piece) {
  absl::string_view type, access;
  if (!LockFields(piece, &type, &access)) return;
  LockCount* c = LockKind(locks, type);
  if (c == nullptr) return;
  c->count++;
  if (absl::StartsWith(access, "READ")) {
    c->read++;
  } else if (absl::StartsWith(access, "WRITE")) {
    c->write++;
  } else if (absl::StartsWith(access, "RW")) {
    c->read++;
    c->write++;
  }
}

}  // namespace

void RefreshVfs(LinuxState& st) {
  st.vfs = {};
  const char* const paths[] = {"/proc/sys/fs/file-nr", "/proc/sys/fs/inode-state", "/proc/sys/fs/dentry-state",
                               "/proc/sys/fs/aio-max-nr", "/proc/sys/fs/aio-nr"};
  std::string text[5];
  for (int i = 0; i < 5; ++i) {
    std::optional<std::string> t = ls::ReadProcFile(st.root, paths[i]);
    if (!t) {
      const int err = errno;
      if (!st.vfs_refreshed) std::fprintf(stderr, "Warning: vfs metrics are not available : %s\n", std::strerror(err));
      st.vfs_refreshed = true;
      return;
    }
    text[i] = std::move(*t);
  }
  st.vfs_refreshed = true;
  int32_t* v = st.vfs.data();  // in PMID item order
  int32_t* const files[] = {&v[0], &v[1], &v[2]};
  int32_t* const inodes[] = {&v[3], &v[4]};
  int32_t* const dentry[] = {&v[5], &v[6]};
  int32_t* const aio_max[] = {&v[8]};
  int32_t* const aio[] = {&v[7]};
  ScanInts(text[0], 3, files);
  ScanInts(text[1], 2, inodes);
  ScanInts(text[2], 2, dentry);
  ScanInts(text[3], 1, aio_max);
  ScanInts(text[4], 1, aio);
}

void RefreshLocks(LinuxState& st) {
  st.locks = {};
  std::optional<std::string> text = ls::ReadProcFile(st.root, "/proc/locks");
  if (!text) return;
  // read as PCP's agent reads it: fgets into 256 bytes
  for (std::string_view piece : ls::FgetsLines(*text, 256)) {
    CountLock(st.locks, absl::string_view(piece.data(), piece.size()));
  }
}

int FetchVfs(const LinuxState& st, const MetricRow& r, AtomValue* atom) {
  if (r.cluster == 27) {
    if (r.item >= st.vfs.size()) return kErrPmid;
    atom->l = st.vfs[r.item];
    return 1;
  }
  if (r.item > 8) return kErrPmid;
  const LockCount& c = r.item < 3 ? st.locks.posix : r.item < 6 ? st.locks.flock : st.locks.lease;
  const uint32_t values[] = {c.read, c.write, c.count};
  atom->ul = values[r.item % 3];
  return 1;
}

}  // namespace pmapi::linux_agent
