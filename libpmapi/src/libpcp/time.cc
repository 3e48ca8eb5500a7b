// time.cc: libpcp's internal time helpers: the clock, sleeping for and
// until a time, mktime in the reporting zone, the process's zone string
// and the __pmTimestamp printer.
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>

#include "c_api_internal.h"
#include "pcp_internal.h"
#include "read_file.h"
#include "pmapi/timezone.h"

namespace {

// nanosleep for `delay`, going on after a signal for what is left.
void SleepFor(struct timespec delay) {
  struct timespec left;
  while (nanosleep(&delay, &left) < 0 && errno == EINTR) delay = left;
}

struct timespec FromTimeval(const struct timeval& tv) {
  struct timespec ts;
  ts.tv_sec = tv.tv_sec;
  ts.tv_nsec = tv.tv_usec * 1000;
  return ts;
}

constexpr char kLocaltime[] = "/etc/localtime";
constexpr char kZoneinfoDir[] = "/usr/share/zoneinfo";

// The file below `dir` (walked in directory order) whose bytes are
// `content`, as a path relative to kZoneinfoDir, or "".
std::string MatchingZoneFile(const std::string& dir, const std::string& content, int depth) {
  if (depth > 8) return "";
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return "";
  std::string found;
  while (struct dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    std::string path = dir + "/" + e->d_name;
    struct stat st;
    if (lstat(path.c_str(), &st) < 0) continue;
    if (S_ISDIR(st.st_mode)) {
      found = MatchingZoneFile(path, content, depth + 1);
    } else if (S_ISREG(st.st_mode) && static_cast<size_t>(st.st_size) == content.size()) {
      absl::StatusOr<std::string> bytes = pmapi::ReadWholeFile(path);
      if (bytes.ok() && *bytes == content) found = path.substr(std::strlen(kZoneinfoDir) + 1);
    }
    if (!found.empty()) break;
  }
  closedir(d);
  return found;
}

}  // namespace

extern "C" {

// The local zone as a $TZ value naming its zone file (":Europe/Paris"):
// the target of /etc/localtime from "/zoneinfo/" on, or, when it is a
// plain file, the zone file with the same contents. Null when neither is
// found. malloc'd.
char* __pmZoneinfo(void) {
  char target[PATH_MAX];
  ssize_t n = readlink(kLocaltime, target, sizeof target - 1);
  std::string zone;
  if (n >= 0) {
    target[n] = '\0';
    const char* tail = std::strstr(target, "/zoneinfo/");
    zone = tail != nullptr ? tail + std::strlen("/zoneinfo/") : target;
  } else if (errno != ENOENT) {
    absl::StatusOr<std::string> content = pmapi::ReadWholeFile(kLocaltime);
    if (content.ok() && !content->empty()) zone = MatchingZoneFile(kZoneinfoDir, *content, 0);
  }
  if (zone.empty()) return nullptr;
  return strdup((":" + zone).c_str());
}

int __pmGetTimespec(struct timespec* ts) { return clock_gettime(CLOCK_REALTIME, ts) < 0 ? -errno : 0; }

int __pmGetTimestamp(__pmTimestamp* timestamp) {
  struct timespec ts;
  int sts = __pmGetTimespec(&ts);
  if (sts < 0) return sts;
  timestamp->sec = ts.tv_sec;
  timestamp->nsec = static_cast<int32_t>(ts.tv_nsec);
  return 0;
}

// HH:MM:SS.NNNNNNNNN in the reporting zone.
void __pmPrintTimestamp(FILE* f, const __pmTimestamp* tsp) {
  time_t when = static_cast<time_t>(tsp->sec);
  struct tm tm;
  if (pmLocaltime(&when, &tm) == nullptr) std::memset(&tm, 0, sizeof tm);
  std::fprintf(f, "%02d:%02d:%02d.%09d", tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(tsp->nsec));
}

time_t __pmMktime(struct tm* timeptr) { return pmapi::capi::ReportingMktime(timeptr); }

// The zone string libpcp reports for this process (what pmlogger writes in
// a label): $TZ itself when it fits, else a squashed form of the local
// zone. The returned buffer is shared, as libpcp's is.
char* __pmTimezone(void) {
  static std::mutex mu;
  static char buffer[pmapi::kPcpTzMaxLen + 1];
  std::lock_guard<std::mutex> lock(mu);
  const char* tz = std::getenv("TZ");
  std::optional<std::string_view> env;
  if (tz != nullptr) env = tz;
  absl::StatusOr<std::string> text = pmapi::PcpTimezoneString(env, time(nullptr));
  if (!text.ok()) return nullptr;
  std::snprintf(buffer, sizeof buffer, "%s", text->c_str());
  return buffer;
}

char* __pmTimezone_r(char* buf, int buflen) {
  if (buflen <= 0) return buf;
  const char* tz = __pmTimezone();
  std::strncpy(buf, tz == nullptr ? "" : tz, static_cast<size_t>(buflen));
  buf[buflen - 1] = '\0';
  return buf;
}

void __pmtimespecSleep(struct timespec interval) { SleepFor(interval); }

void __pmtimevalSleep(struct timeval interval) { SleepFor(FromTimeval(interval)); }

// Sleeps until the wall-clock time `sched` (not at all if it has passed).
void __pmtimespecPause(struct timespec sched) {
  struct timespec now;
  pmtimespecNow(&now);
  pmtimespecDec(&sched, &now);
  if (sched.tv_sec < 0) return;
  SleepFor(sched);
}

void __pmtimevalPause(struct timeval sched) { __pmtimespecPause(FromTimeval(sched)); }

}  // extern "C"
