#include "zone.h"

#include "absl/strings/str_cat.h"
#include "pmapi/errors.h"
#include "pmapi/extract.h"
#include "pmapi/result.h"

namespace pmtools {

std::string HostTimezone(pmapi::Context* ctx) {
  absl::StatusOr<pmapi::PmID> id = ctx->LookupName("pmcd.timezone");
  if (!id.ok()) return "";
  const pmapi::PmID ids[1] = {*id};
  absl::StatusOr<pmapi::Result> r = ctx->Fetch(ids);
  if (!r.ok() || r->sets().empty() || r->sets()[0].numval != 1) return "";
  const pmapi::ValueSet& vs = r->sets()[0];
  absl::StatusOr<pmapi::AtomValue> a =
      pmapi::ExtractValue(vs.valfmt, r->value(vs, 0), pmapi::kTypeString, pmapi::kTypeString);
  return a.ok() ? a->bytes : "";
}

ZoneSource SourceZone(pmapi::Context* ctx) {
  ZoneSource zs;
  if (ctx->kind() == pmapi::ContextKind::kArchive) {
    zs.is_archive = true;
    absl::StatusOr<pmapi::ArchiveLabel> label = ctx->GetArchiveLabel();
    if (label.ok()) {
      zs.hostname = label->hostname;
      zs.timezone = label->timezone;
    }
    return zs;
  }
  zs.hostname = ctx->HostName();
  if (ctx->kind() == pmapi::ContextKind::kHost) zs.timezone = HostTimezone(ctx);
  return zs;
}

absl::StatusOr<ReportingZone> ChooseReportingZone(ZoneChoice choice, const ZoneSource& source,
                                                  std::optional<std::string_view> user_tz) {
  switch (choice) {
    case ZoneChoice::kLocal: {
      absl::StatusOr<pmapi::TimeZone> z = pmapi::TimeZone::FromEnvironment();
      if (!z.ok()) return z.status();
      return ReportingZone{*std::move(z), ""};
    }
    case ZoneChoice::kSource: {
      absl::StatusOr<pmapi::TimeZone> z = pmapi::TimeZone::ForPcpZone(source.timezone);
      if (!z.ok()) return z.status();
      return ReportingZone{*std::move(z), pmapi::HostZoneNote(source.hostname, source.is_archive)};
    }
    case ZoneChoice::kUser: {
      std::string_view tz = user_tz.value_or("");
      absl::StatusOr<pmapi::TimeZone> z = pmapi::TimeZone::ForPcpZone(tz);
      if (!z.ok()) return z.status();
      return ReportingZone{*std::move(z), pmapi::UserZoneNote(tz)};
    }
  }
  return pmapi::PcpError(pmapi::kErrGeneric, "unknown zone choice");
}

absl::StatusOr<ReportingZone> ToolZone(pmapi::Context* ctx, bool hostzone,
                                       const std::optional<std::string>& user_tz) {
  if (user_tz) return ChooseReportingZone(ZoneChoice::kUser, {}, *user_tz);
  if (!hostzone) return ChooseReportingZone(ZoneChoice::kLocal, {}, std::nullopt);
  ZoneSource zs = SourceZone(ctx);
  if (!zs.timezone.empty() || zs.is_archive) {
    return ChooseReportingZone(ZoneChoice::kSource, zs, std::nullopt);
  }
  absl::StatusOr<ReportingZone> zone = ChooseReportingZone(ZoneChoice::kLocal, {}, std::nullopt);
  if (zone.ok()) {
    zone->note = pmapi::HostZoneNote(zs.hostname, false);
  }
  return zone;
}

}  // namespace pmtools
