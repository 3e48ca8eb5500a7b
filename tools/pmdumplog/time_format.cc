// Time stamps in the reporting zone; see time_format.h.
#include "time_format.h"

#include "pmapi/errors.h"
#include "pmapi/timefmt.h"
#include "stamps.h"

namespace pmdumplog {
namespace {

// Appends a time form, or the error that kept it from being made (a time
// so far out that it has no calendar date).
void AppendOr(const absl::StatusOr<std::string>& text, std::string* out) {
  if (text.ok()) {
    out->append(*text);
  } else {
    out->append(pmapi::ErrStr(pmapi::PcpCode(text.status())));
  }
}

int StampVersion(int version) { return version >= 3 ? 3 : 2; }

}  // namespace

TimeFormat::TimeFormat(int version)
    : version_(version),
      zone_(pmapi::TimeZone::FromEnvironment().value_or(pmapi::TimeZone::Utc())) {}

void TimeFormat::SetZone(const std::string& zone) {
  zone_ = pmapi::TimeZone::ForPcpZone(zone).value_or(pmapi::TimeZone::Utc());
}

TimeFormat TimeFormat::WithVersion(int version) const {
  TimeFormat copy = *this;
  copy.version_ = version;
  return copy;
}

void TimeFormat::AppendStamp(const pmapi::ArchiveTime& t, std::string* out) const {
  AppendOr(pmtools::PmdumplogStamp(zone_, t.sec, t.nsec, StampVersion(version_)), out);
}

void TimeFormat::AppendCtime(int64_t sec, std::string* out) const {
  absl::StatusOr<std::string> text = pmapi::Ctime(zone_, sec);
  if (text.ok() && !text->empty() && text->back() == '\n') text->pop_back();
  AppendOr(text, out);
}

void TimeFormat::AppendDatedStamp(const pmapi::ArchiveTime& t, std::string* out) const {
  AppendOr(pmtools::PmdumplogDate(zone_, t.sec, t.nsec, StampVersion(version_)), out);
}

}  // namespace pmdumplog
