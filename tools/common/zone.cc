#include "zone.h"

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

pmapi::ZoneSource SourceZone(pmapi::Context* ctx) {
  pmapi::ZoneSource zs;
  if (ctx->kind() == pmapi::kContextArchive) {
    zs.is_archive = true;
    absl::StatusOr<pmapi::ArchiveLabel> label = ctx->GetArchiveLabel();
    if (label.ok()) {
      zs.hostname = label->hostname;
      zs.timezone = label->timezone;
    }
    return zs;
  }
  zs.hostname = ctx->HostName();
  if (ctx->kind() == pmapi::kContextHost) zs.timezone = HostTimezone(ctx);
  return zs;
}

}  // namespace pmtools
