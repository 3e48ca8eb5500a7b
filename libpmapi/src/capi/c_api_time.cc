// c_api_time.cc: the C layer's parsers (intervals, time windows, metric
// specifications, units), reporting time zones and time helpers.
#include <cmath>
#include <ctime>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>

#include "c_api_internal.h"
#include "pcp_internal.h"
#include "pmapi/interval.h"
#include "pmapi/metricspec.h"
#include "pmapi/timefmt.h"
#include "pmapi/timewindow.h"
#include "pmapi/units.h"

namespace pmapi::capi {
namespace {

// The zones made by pmNewZone and friends; handles are indexes.
struct Zones {
  std::mutex mu;
  std::vector<TimeZone> zones;
  std::vector<std::string> names;
  int current = -1;
};

Zones& AllZones() {
  static Zones* z = new Zones;
  return *z;
}

// Adds a zone and makes it current; returns its handle.
int AddZone(TimeZone zone, std::string name) {
  Zones& z = AllZones();
  std::lock_guard<std::mutex> lock(z.mu);
  z.zones.push_back(std::move(zone));
  z.names.push_back(std::move(name));
  z.current = static_cast<int>(z.zones.size()) - 1;
  return z.current;
}

// Makes the local zone the first one when none was chosen.
void EnsureZone() {
  {
    Zones& z = AllZones();
    std::lock_guard<std::mutex> lock(z.mu);
    if (z.current >= 0) return;
  }
  absl::StatusOr<TimeZone> local = TimeZone::FromEnvironment();
  const char* tz = std::getenv("TZ");
  AddZone(local.ok() ? *local : TimeZone::Utc(), tz == nullptr ? "" : tz);
}

// Interns a zone abbreviation so struct tm's tm_zone can point at it.
const char* Intern(const std::string& s) {
  static std::mutex mu;
  static std::set<std::string>* names = new std::set<std::string>;
  std::lock_guard<std::mutex> lock(mu);
  return names->insert(s).first->c_str();
}

// Reports a parser's error the PCP way: a malloc'd message.
int ParseError(const absl::Status& st, char** errmsg) {
  if (errmsg != nullptr) *errmsg = Dup(std::string(st.message()));
  int code = Code(st);
  return code == 0 ? -1 : code;
}

TimeSpec FromTimeval(const struct timeval* tv) {
  return tv == nullptr ? TimeSpec{} : TimeSpec{tv->tv_sec, int64_t{tv->tv_usec} * 1000};
}

TimeSpec FromTimespec(const struct timespec* ts) {
  return ts == nullptr ? TimeSpec{} : TimeSpec{ts->tv_sec, ts->tv_nsec};
}

// pmParseHighResTimeWindow's work; 1 done, 0 alignment warning, -1 error.
int Window(const char* start, const char* finish, const char* align, const char* origin,
           TimeSpec log_start, TimeSpec log_end, TimeWindow* out, char** errmsg) {
  if (errmsg != nullptr) *errmsg = nullptr;
  TimeWindowArgs args;
  if (start != nullptr) args.start = start;
  if (finish != nullptr) args.end = finish;
  if (align != nullptr) args.align = align;
  if (origin != nullptr) args.origin = origin;
  TimeParser parser(CurrentZone());
  absl::StatusOr<TimeWindow> w = parser.ParseWindow(args, log_start, log_end);
  if (!w.ok()) {
    if (errmsg != nullptr) *errmsg = Dup(std::string(w.status().message()));
    return -1;
  }
  *out = *w;
  if (w->alignment_failed) {
    if (errmsg != nullptr) *errmsg = Dup(w->warning);
    return 0;
  }
  return 1;
}

void ToTimeval(const TimeSpec& t, struct timeval* out) {
  if (out == nullptr) return;
  out->tv_sec = t.sec;
  out->tv_usec = t.nsec / 1000;
}

void ToTimespec(const TimeSpec& t, struct timespec* out) {
  if (out == nullptr) return;
  out->tv_sec = t.sec;
  out->tv_nsec = t.nsec;
}

// The string value of the metric `name`, which has one value, or an error.
absl::StatusOr<std::string> StringMetric(Context& ctx, const char* name) {
  absl::StatusOr<PmID> id = ctx.LookupName(name);
  if (!id.ok()) return id.status();
  absl::StatusOr<Result> r = ctx.Fetch({&*id, 1});
  if (!r.ok()) return r.status();
  if (r->sets().size() != 1 || r->sets()[0].numval != 1 || r->sets()[0].valfmt == kValInsitu) {
    return PcpError(kErrValue);
  }
  ValueView v = r->value(r->sets()[0], 0);
  std::string text(reinterpret_cast<const char*>(v.payload.data()), v.payload.size());
  return text.substr(0, text.find('\0'));
}

// pmcd's zone: pmcd.zoneinfo when it has a value, else pmcd.timezone.
absl::StatusOr<std::string> HostZone(Context& ctx) {
  absl::StatusOr<std::string> info = StringMetric(ctx, "pmcd.zoneinfo");
  return info.ok() ? info : StringMetric(ctx, "pmcd.timezone");
}

}  // namespace

TimeZone CurrentZone() {
  EnsureZone();
  Zones& z = AllZones();
  std::lock_guard<std::mutex> lock(z.mu);
  return z.zones[z.current];
}

// mktime in the reporting zone, as libpcp's __pmMktime: the C library's
// own when no zone was chosen, else the chosen zone's, which keeps its own
// memory of the last offset found as glibc's mktime does.
time_t ReportingMktime(struct tm* tm) {
  Zones& z = AllZones();
  std::unique_lock<std::mutex> lock(z.mu);
  if (z.current < 0) {
    lock.unlock();
    return std::mktime(tm);
  }
  static int64_t offset_hint = 0;
  BrokenDownTime t;
  t.sec = tm->tm_sec;
  t.min = tm->tm_min;
  t.hour = tm->tm_hour;
  t.mday = tm->tm_mday;
  t.mon = tm->tm_mon;
  t.year = tm->tm_year;
  t.isdst = tm->tm_isdst;
  absl::StatusOr<int64_t> when = z.zones[z.current].Mktime(t, &offset_hint);
  if (!when.ok()) return static_cast<time_t>(-1);
  tm->tm_sec = t.sec;
  tm->tm_min = t.min;
  tm->tm_hour = t.hour;
  tm->tm_mday = t.mday;
  tm->tm_mon = t.mon;
  tm->tm_year = t.year;
  tm->tm_wday = t.wday;
  tm->tm_yday = t.yday;
  tm->tm_isdst = t.isdst;
  tm->tm_gmtoff = t.gmtoff;
  tm->tm_zone = Intern(t.zone);
  return static_cast<time_t>(*when);
}

}  // namespace pmapi::capi

using namespace pmapi;
using namespace pmapi::capi;

extern "C" {

int pmParseInterval(const char* spec, struct timeval* result, char** errmsg) {
  if (errmsg != nullptr) *errmsg = nullptr;
  absl::StatusOr<absl::Duration> d = ParseInterval(spec == nullptr ? "" : spec);
  if (!d.ok()) return ParseError(d.status(), errmsg);
  // PCP goes through seconds as a double and rounds to the microsecond.
  double secs = absl::ToDoubleSeconds(*d);
  result->tv_sec = static_cast<time_t>(secs);
  result->tv_usec = static_cast<suseconds_t>(
      static_cast<long double>(secs - static_cast<double>(result->tv_sec)) * 1000000.0L + 0.5L);
  return 0;
}

int pmParseHighResInterval(const char* spec, struct timespec* result, char** errmsg) {
  if (errmsg != nullptr) *errmsg = nullptr;
  absl::StatusOr<TimeSpec> t = ParseHighResInterval(spec == nullptr ? "" : spec);
  if (!t.ok()) return ParseError(t.status(), errmsg);
  result->tv_sec = t->sec;
  result->tv_nsec = t->nsec;
  return 0;
}

int pmParseTimeWindow(const char* start, const char* finish, const char* align, const char* origin,
                      const struct timeval* log_start, const struct timeval* log_end,
                      struct timeval* rs_start, struct timeval* rs_end, struct timeval* rs_origin,
                      char** errmsg) {
  TimeSpec end = log_end == nullptr ? TimeSpec{kUnboundedEnd, 0} : FromTimeval(log_end);
  TimeWindow w;
  int sts = Window(start, finish, align, origin, FromTimeval(log_start), end, &w, errmsg);
  if (sts >= 0) {
    ToTimeval(w.start, rs_start);
    ToTimeval(w.end, rs_end);
    ToTimeval(w.origin, rs_origin);
  }
  return sts;
}

int pmParseHighResTimeWindow(const char* start, const char* finish, const char* align,
                             const char* origin, const struct timespec* log_start,
                             const struct timespec* log_end, struct timespec* rs_start,
                             struct timespec* rs_end, struct timespec* rs_origin, char** errmsg) {
  TimeSpec end = log_end == nullptr ? TimeSpec{kUnboundedEnd, 0} : FromTimespec(log_end);
  TimeWindow w;
  int sts = Window(start, finish, align, origin, FromTimespec(log_start), end, &w, errmsg);
  if (sts >= 0) {
    ToTimespec(w.start, rs_start);
    ToTimespec(w.end, rs_end);
    ToTimespec(w.origin, rs_origin);
  }
  return sts;
}

int pmParseUnitsStr(const char* spec, pmUnits* units, double* multiplier, char** errmsg) {
  if (errmsg != nullptr) *errmsg = nullptr;
  // As libpcp: the units are cleared first, the multiplier is only set on
  // success.
  *units = pmUnits{};
  absl::StatusOr<ParsedUnits> p = ParseUnitsStr(spec == nullptr ? "" : spec);
  if (!p.ok()) return ParseError(p.status(), errmsg);
  *units = ToC(p->units);
  *multiplier = p->multiplier;
  return 0;
}

int pmParseMetricSpec(const char* spec, int isarch, char* source, pmMetricSpec** result,
                      char** errmsg) {
  *result = nullptr;
  if (errmsg != nullptr) *errmsg = nullptr;
  absl::StatusOr<MetricSpec> m =
      ParseMetricSpec(spec == nullptr ? "" : spec, isarch, source == nullptr ? "" : source);
  if (!m.ok()) return ParseError(m.status(), errmsg);
  size_t n = m->instances.size();
  size_t bytes = sizeof(pmMetricSpec) + (n > 1 ? (n - 1) * sizeof(char*) : 0);
  pmMetricSpec* out = static_cast<pmMetricSpec*>(std::calloc(1, bytes));
  if (out == nullptr) return -ENOMEM;
  out->isarch = m->isarch;
  out->source = Dup(m->source);
  out->metric = Dup(m->metric);
  out->ninst = static_cast<int>(n);
  bool failed = out->source == nullptr || out->metric == nullptr;
  for (size_t i = 0; i < n; ++i) {
    out->inst[i] = Dup(m->instances[i]);
    failed = failed || out->inst[i] == nullptr;
  }
  if (failed) {
    pmFreeMetricSpec(out);
    return -ENOMEM;
  }
  *result = out;
  return 0;
}

void pmFreeMetricSpec(pmMetricSpec* spec) {
  if (spec == nullptr) return;
  std::free(spec->source);
  std::free(spec->metric);
  for (int i = 0; i < spec->ninst; ++i) std::free(spec->inst[i]);
  std::free(spec);
}

// ---- One time, as -S, -T or -O give it (libpcp's internal form) ----

int __pmParseHighResTime(const char* string, struct timespec* logStart, struct timespec* logEnd,
                         struct timespec* rslt, char** errMsg) {
  if (errMsg != nullptr) *errMsg = nullptr;
  TimeParser parser(CurrentZone());
  absl::StatusOr<TimeSpec> t = parser.ParseTime(string == nullptr ? "" : string, FromTimespec(logStart),
                                                FromTimespec(logEnd));
  if (!t.ok()) return ParseError(t.status(), errMsg);
  ToTimespec(*t, rslt);
  return 0;
}

int __pmParseTime(const char* string, struct timeval* logStart, struct timeval* logEnd,
                  struct timeval* rslt, char** errMsg) {
  struct timespec start = {logStart->tv_sec, logStart->tv_usec * 1000};
  struct timespec end = {logEnd->tv_sec, logEnd->tv_usec * 1000};
  struct timespec result;
  int sts = __pmParseHighResTime(string, &start, &end, &result, errMsg);
  if (sts < 0) return sts;
  rslt->tv_sec = result.tv_sec;
  rslt->tv_usec = result.tv_nsec / 1000;
  return sts;
}

// ---- Reporting zones ----

int pmNewZone(const char* tz) {
  absl::StatusOr<TimeZone> zone = TimeZone::ForPcpZone(tz == nullptr ? "" : tz);
  if (!zone.ok()) return Code(zone.status());
  // As PCP, a bare 3-letter zone name is taken as that name at UTC+0.
  std::string name = tz == nullptr ? "" : tz;
  if (name.size() == 3) name += "+0";
  return AddZone(std::move(*zone), name);
}

// The zone of the current context's source, as libpcp chooses it: an
// archive's label zone; for a host, pmcd.zoneinfo when pmcd has it, else
// pmcd.timezone; for a local context, the zone file /etc/localtime names,
// else the zone string of this process.
int pmNewContextZone(void) {
  std::shared_ptr<CContext> e = Current();
  if (e == nullptr) return PM_ERR_NOCONTEXT;
  std::lock_guard<std::recursive_mutex> lock(e->mu);
  if (e->type == PM_CONTEXT_ARCHIVE) {
    absl::StatusOr<ArchiveLabel> label = e->ctx->GetArchiveLabel();
    if (!label.ok()) return Code(label.status());
    return pmNewZone(label->timezone.c_str());
  }
  if (e->type == PM_CONTEXT_HOST) {
    absl::StatusOr<std::string> tz = HostZone(*e->ctx);
    if (!tz.ok()) return Code(tz.status());
    return pmNewZone(tz->c_str());
  }
  char* info = __pmZoneinfo();
  char buf[PM_TZ_MAXLEN];
  int sts = pmNewZone(info != nullptr ? info : __pmTimezone_r(buf, sizeof buf));
  std::free(info);
  return sts;
}

int pmUseZone(const int handle) {
  Zones& z = AllZones();
  std::lock_guard<std::mutex> lock(z.mu);
  if (handle < 0 || handle >= static_cast<int>(z.zones.size())) return -1;
  z.current = handle;
  return 0;
}

int pmWhichZone(char** tz) {
  EnsureZone();
  Zones& z = AllZones();
  std::lock_guard<std::mutex> lock(z.mu);
  if (tz != nullptr) *tz = const_cast<char*>(z.names[z.current].c_str());
  return z.current;
}

char* pmCtime(const time_t* clock, char* buf) {
  absl::StatusOr<std::string> text = Ctime(CurrentZone(), *clock);
  if (!text.ok()) return nullptr;
  return CopyOut(*text, buf, 26);
}

struct tm* pmLocaltime(const time_t* clock, struct tm* result) {
  absl::StatusOr<BrokenDownTime> t = CurrentZone().Localtime(*clock);
  if (!t.ok()) return nullptr;
  std::memset(result, 0, sizeof *result);
  result->tm_sec = t->sec;
  result->tm_min = t->min;
  result->tm_hour = t->hour;
  result->tm_mday = t->mday;
  result->tm_mon = t->mon;
  result->tm_year = t->year;
  result->tm_wday = t->wday;
  result->tm_yday = t->yday;
  result->tm_isdst = t->isdst;
  result->tm_gmtoff = t->gmtoff;
  result->tm_zone = Intern(t->zone);
  return result;
}

void pmPrintStamp(FILE* f, const struct timeval* tv) {
  absl::StatusOr<std::string> s = PrintStamp(CurrentZone(), tv->tv_sec, tv->tv_usec);
  if (s.ok()) std::fputs(s->c_str(), f);
}

void pmPrintHighResStamp(FILE* f, const struct timespec* ts) {
  absl::StatusOr<std::string> s = HighResStamp(CurrentZone(), ts->tv_sec, ts->tv_nsec);
  if (s.ok()) std::fputs(s->c_str(), f);
}

// ---- Time arithmetic ----

void pmtimevalNow(struct timeval* tv) { gettimeofday(tv, nullptr); }

void pmtimevalInc(struct timeval* tv, const struct timeval* delta) {
  tv->tv_sec += delta->tv_sec;
  tv->tv_usec += delta->tv_usec;
  if (tv->tv_usec >= 1000000) {
    tv->tv_usec -= 1000000;
    ++tv->tv_sec;
  }
}

void pmtimevalDec(struct timeval* tv, const struct timeval* delta) {
  tv->tv_sec -= delta->tv_sec;
  tv->tv_usec -= delta->tv_usec;
  if (tv->tv_usec < 0) {
    tv->tv_usec += 1000000;
    --tv->tv_sec;
  }
}

double pmtimevalToReal(const struct timeval* tv) {
  return static_cast<double>(tv->tv_sec) + static_cast<double>(tv->tv_usec) / 1e6;
}
double pmtimevalAdd(const struct timeval* a, const struct timeval* b) {
  return pmtimevalToReal(a) + pmtimevalToReal(b);
}
double pmtimevalSub(const struct timeval* a, const struct timeval* b) {
  return pmtimevalToReal(a) - pmtimevalToReal(b);
}
void pmtimevalFromReal(double secs, struct timeval* tv) {
  double whole = std::floor(secs);
  tv->tv_sec = static_cast<time_t>(whole);
  tv->tv_usec = static_cast<suseconds_t>(std::llround((secs - whole) * 1e6));
  if (tv->tv_usec >= 1000000) {
    tv->tv_usec -= 1000000;
    ++tv->tv_sec;
  }
}

int pmtimespecNow(struct timespec* ts) { return clock_gettime(CLOCK_REALTIME, ts); }

void pmtimespecInc(struct timespec* ts, const struct timespec* delta) {
  ts->tv_sec += delta->tv_sec;
  ts->tv_nsec += delta->tv_nsec;
  if (ts->tv_nsec >= 1000000000) {
    ts->tv_nsec -= 1000000000;
    ++ts->tv_sec;
  }
}

void pmtimespecDec(struct timespec* ts, const struct timespec* delta) {
  ts->tv_sec -= delta->tv_sec;
  ts->tv_nsec -= delta->tv_nsec;
  if (ts->tv_nsec < 0) {
    ts->tv_nsec += 1000000000;
    --ts->tv_sec;
  }
}

double pmtimespecToReal(const struct timespec* ts) {
  return static_cast<double>(ts->tv_sec) + static_cast<double>(ts->tv_nsec) / 1e9;
}
double pmtimespecAdd(const struct timespec* a, const struct timespec* b) {
  return pmtimespecToReal(a) + pmtimespecToReal(b);
}
double pmtimespecSub(const struct timespec* a, const struct timespec* b) {
  return pmtimespecToReal(a) - pmtimespecToReal(b);
}
void pmtimespecFromReal(double secs, struct timespec* ts) {
  double whole = std::floor(secs);
  ts->tv_sec = static_cast<time_t>(whole);
  ts->tv_nsec = static_cast<long>(std::llround((secs - whole) * 1e9));
  if (ts->tv_nsec >= 1000000000) {
    ts->tv_nsec -= 1000000000;
    ++ts->tv_sec;
  }
}

}  // extern "C"
