#include "pmval.h"

#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "options.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "source.h"
#include "pmapi/metricspec.h"
#include "pmapi/timezone.h"
#include "report.h"
#include "zone.h"

namespace pmval {

std::vector<std::string> SplitInstances(const std::string& text) {
  std::vector<std::string> names;
  auto sep = [](char c) { return c == ',' || c == ' ' || c == '\t' || c == '\n'; };
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && sep(text[i])) ++i;
    if (i >= text.size()) break;
    std::string name;
    if (text[i] == '"' || text[i] == '\'') {
      const char quote = text[i++];
      while (i < text.size() && text[i] != quote) name += text[i++];
      if (i < text.size()) ++i;
    } else {
      while (i < text.size() && !sep(text[i])) name += text[i++];
    }
    // The byte after a name (a separator) is consumed with it.
    if (i < text.size()) ++i;
    names.push_back(name);
  }
  return names;
}

namespace {

// Where the metrics come from, chosen as PCP's pmval does: -a or -U, else
// -L, else -h, else the source the metric specification names, else
// "local:" (pmcd on this machine).
struct Source {
  int kind = pmapi::kContextHost;
  std::string name;
};

Source ChooseSource(const Settings& s) {
  if (!s.archives.empty()) return {pmapi::kContextArchive, s.archives.front()};
  const std::string host = s.hosts.empty() ? "local:" : s.hosts.front();
  absl::StatusOr<pmapi::MetricSpec> spec = pmapi::ParseMetricSpec(
      s.metric, s.local ? pmapi::kSpecLocal : pmapi::kSpecHost, s.local ? "" : host);
  if (spec.ok() && spec->isarch == pmapi::kSpecArchive) {
    return {pmapi::kContextArchive, spec->source};
  }
  if (s.local || (spec.ok() && spec->isarch == pmapi::kSpecLocal)) {
    return {pmapi::kContextLocal, ""};
  }
  if (s.hosts.empty() && spec.ok()) return {pmapi::kContextHost, spec->source};
  return {pmapi::kContextHost, host};
}

absl::StatusOr<pmapi::Context> OpenSource(const Source& src) {
  return pmtools::OpenToolContext(src.kind, src.name, "Cannot establish local context");
}

// -S -A -O, -U and -d need an archive, and -z a host or an archive; PCP
// reports each, then the usage.
bool LiveOptionsValid(const Settings& s, int kind) {
  bool ok = true;
  if (s.window.start || s.window.align || s.window.origin) {
    pmtools::Complain(" time window options are supported for archives only\n");
    ok = false;
  }
  if (s.hostzone && kind == pmapi::kContextLocal) {
    pmtools::Complain(" use of timezone from metric source requires a source\n");
    ok = false;
  }
  if (s.raw_archive) {
    pmtools::Complain(" uninterpolated mode can only be used with archives");
    ok = false;
  }
  if (s.delay) {
    pmtools::Complain(" delay can only be used with archives\n");
    ok = false;
  }
  if (!ok) std::fputs(s.usage.c_str(), stderr);
  return ok;
}

}  // namespace

int Run(const Settings& given) {
  Settings settings = given;
  const Source src = ChooseSource(settings);
  if (src.kind == pmapi::kContextArchive) {
    if (settings.archives.empty()) settings.archives.push_back(src.name);
  } else {
    // Line by line, as PCP's pmval writes: live samples show as they are
    // taken, even through a pipe. (Archive reports keep full buffering.)
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    if (!LiveOptionsValid(settings, src.kind)) return 1;
    settings.hosts = {src.name};
  }
  absl::StatusOr<pmapi::Context> ctx = OpenSource(src);
  if (!ctx.ok()) return 1;
  if (settings.name_space != nullptr) ctx->UseNameSpace(settings.name_space);
  absl::StatusOr<pmtools::ReportingZone> zone =
      pmtools::ToolZone(&*ctx, settings.hostzone, settings.timezone);
  if (!zone.ok()) {
    pmtools::Complain(" %s\n", std::string(zone.status().message()).c_str());
    return 1;
  }
  std::string hostname = ctx->HostName();
  std::fputs(zone->note.c_str(), stdout);
  Report report(settings, std::move(*ctx), zone->zone, std::move(hostname));
  return report.Execute();
}

}  // namespace pmval