// The persistence file of a cache: PMDA_CACHE_LOAD, PMDA_CACHE_SAVE and
// PMDA_CACHE_SYNC. The format (docs/pmda-cache.md) is PCP's:
//
//   <version> <ins_mode> <maxinst>\n            (version 1 has no maxinst)
//   <inst> <stamp> [<key hex>] <name>\n         (one per entry; key optional)
//
// The file is read in the 1023-byte pieces PCP's fgets takes, so a longer
// line splits into records exactly as it does for PCP.
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "pmapi/errors.h"
#include "pmda_cache_internal.h"

namespace pmapi::cache_internal {
namespace {

// PCP reads the file through a 1024-byte buffer.
constexpr int kLineBuffer = 1024;

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;


// Reads the next piece of the file as a C string, its first newline (if
// any) removed; false at the end of the file.
bool NextPiece(std::FILE* f, char (&buf)[kLineBuffer]) {
  if (std::fgets(buf, kLineBuffer, f) == nullptr) return false;
  if (char* nl = std::strchr(buf, '\n')) *nl = '\0';
  return true;
}

// Scans a C "%d" at *p (whitespace, sign, digits), as sscanf does: the
// value is strtol's, cut to int. Returns false when there is no number.
bool ScanInt(const char** p, int* out) {
  char* end;
  errno = 0;
  long v = std::strtol(*p, &end, 10);
  if (end == *p) return false;
  *out = static_cast<int>(v);
  *p = end;
  return true;
}

// Reads decimal digits at *p into an int with C's wrapping arithmetic.
int Digits(const char** p) {
  uint32_t v = 0;
  for (; absl::ascii_isdigit(**p); ++*p) v = v * 10u + static_cast<uint32_t>(**p - '0');
  return static_cast<int>(v);
}

void SkipSpaces(const char** p) {
  while (**p && absl::ascii_isspace(**p)) ++*p;
}

int HexValue(char c) {
  if (absl::ascii_isdigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Parses "[hex]" at *p (just past the '['): the key is the whole pairs of
// hex digits. Like PCP, the position then moves two bytes past the last
// pair, stepping over the ']' and one more byte. Returns false for a
// missing ']', a non-hex pair, or a step past the end of the line (where
// PCP reads stale buffer bytes).
bool ParseKey(const char** p, std::vector<uint8_t>* key) {
  const char* end = std::strchr(*p, ']');
  if (end == nullptr) return false;
  size_t len = static_cast<size_t>(end - *p) / 2;
  for (size_t i = 0; i < len; i++) {
    int hi = HexValue((*p)[0]);
    int lo = HexValue((*p)[1]);
    if (hi < 0 || lo < 0) return false;
    key->push_back(static_cast<uint8_t>(hi * 16 + lo));
    *p += 2;
  }
  if (*p == end && end[1] == '\0') return false;
  *p += 2;
  return true;
}

struct Record {
  int inst = 0;
  int stamp = 0;
  std::vector<uint8_t> key;
  const char* name = nullptr;
};

// Parses one record line; false when it is illegal.
bool ParseRecord(const char* line, Record* r) {
  const char* p = line;
  SkipSpaces(&p);
  if (*p == '\0') return false;
  r->inst = Digits(&p);
  SkipSpaces(&p);
  if (r->inst < 0 || *p == '\0') return false;
  r->stamp = Digits(&p);
  SkipSpaces(&p);
  if (*p == '[') {
    ++p;
    if (!ParseKey(&p, &r->key)) return false;
    SkipSpaces(&p);
  }
  if (*p == '\0') return false;
  r->name = p;
  return true;
}

}  // namespace

int InDomCache::Load() {
  std::string path = env_->file_path(indom_);
  if (path.empty()) return kErrGeneric;
  File f(std::fopen(path.c_str(), "r"));
  if (!f) return -errno;
  char buf[kLineBuffer];
  if (!NextPiece(f.get(), buf)) {
    // PCP complains but loads nothing, successfully.
    env_->log(absl::StrCat("pmdaCacheOp: ", path, ": empty file?"));
    return 0;
  }
  // sscanf stores each number it converts, so a bad header can still
  // change the mode and maximum, as it does in PCP.
  const char* p = buf;
  int version = 0;
  if (!ScanInt(&p, &version) || version <= 0 || version > kFileVersion) {
    env_->log(absl::StrCat("pmdaCacheOp: ", path, ": illegal cache header record: ", buf));
    return kErrGeneric;
  }
  bool complete = ScanInt(&p, &ins_mode_);
  if (version == 1) maxinst_ = kCacheDefaultMaxInst;
  else complete = complete && ScanInt(&p, &maxinst_);
  if (!complete || ins_mode_ < 0 || ins_mode_ > 1 || maxinst_ < 0) {
    env_->log(absl::StrCat("pmdaCacheOp: ", path, ": illegal cache header record: ", buf));
    return kErrGeneric;
  }
  int count = 0;
  for (; NextPiece(f.get(), buf); count++) {
    int sts = LoadRecord(path, buf);
    if (sts < 0) return sts;
  }
  return count;
}

int InDomCache::LoadRecord(const std::string& path, std::string_view line) {
  Record r;
  if (!ParseRecord(line.data(), &r)) {
    env_->log(absl::StrCat("pmdaCacheOp: ", path, ": illegal record: ", AbslView(line)));
    return kErrGeneric;
  }
  int sts;
  CacheEntry* e = Insert(r.name, r.inst, &sts);
  if (e == nullptr) return sts;
  if (sts != 0) {
    env_->warn(absl::StrFormat(
        "pmdaCacheOp: %s: loading instance %d (\"%s\") ignored, already in cache as %d (\"%s\")", path,
        r.inst, r.name, e->inst, e->name));
  }
  // Even an entry kept in preference to the file's takes the file's key
  // and stamp: PCP does so.
  e->key = std::move(r.key);
  e->stamp = r.stamp;
  return 0;
}

int InDomCache::Save(int dirty_mask) {
  if ((hstate_ & ~kStringsCache & dirty_mask) == 0) return 0;
  std::string path = env_->file_path(indom_);
  if (path.empty()) return kErrGeneric;
  File f(std::fopen(path.c_str(), "w"));
  if (!f) return -errno;
  std::string text = absl::StrFormat("%d %d %d\n", kFileVersion, ins_mode_, maxinst_);
  int64_t now = env_->now();
  int count = 0;
  for (CacheEntry& e : entries_) {
    if (e.state == kCacheEmpty) continue;
    if (e.stamp == 0) e.stamp = now;
    absl::StrAppend(&text, e.inst, " ", static_cast<int>(e.stamp));
    if (!e.key.empty()) {
      text += " [";
      for (uint8_t b : e.key) absl::StrAppendFormat(&text, "%02x", b);
      text += "]";
    }
    absl::StrAppend(&text, " ", e.name, "\n");
    count++;
  }
  std::fwrite(text.data(), 1, text.size(), f.get());
  hstate_ &= ~(kDirtyInstance | kDirtyStamp);
  return count;
}

}  // namespace pmapi::cache_internal
