#include "pmval.h"

#include <unistd.h>

#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "options.h"
#include "pcp/pmapi.h"
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

// Where the metrics come from, chosen as PCP's pmval does: -h, else -a
// (or -U), else for -O alone the default archive of this host, else -L,
// else "local:" (pmcd on this machine); then the metric specification may
// name its own source, which must not contradict -a or -h.
struct Source {
  pmapi::ContextKind kind = pmapi::ContextKind::kHost;
  std::string name;
};

// PCP's default archive path for -O without a source:
// $PCP_ARCHIVE_DIR/HOSTNAME.
std::string DefaultArchivePath() {
  const char* dir = pmGetOptionalConfig("PCP_ARCHIVE_DIR");
  char host[256] = "localhost";
  if (gethostname(host, sizeof(host)) != 0) std::snprintf(host, sizeof(host), "localhost");
  host[sizeof(host) - 1] = '\0';
  return absl::StrCat(dir != nullptr ? dir : "/var/log/pcp/pmlogger", "/", host);
}

// Returns the source, or nullopt once PCP's complaint and the usage are
// printed. -a, -h and -L are updated with what the specification names.
std::optional<Source> ChooseSource(Settings& s) {
  int spec_kind = pmapi::kSpecHost;
  std::string source = "local:";
  if (!s.hosts.empty()) {
    source = s.hosts.front();
  } else if (!s.archives.empty() || s.window.origin) {
    if (s.archives.empty()) s.archives.push_back(DefaultArchivePath());
    spec_kind = pmapi::kSpecArchive;
    source = absl::StrJoin(s.archives, ",");
  } else if (s.local) {
    spec_kind = pmapi::kSpecLocal;
    source = "";
  }
  bool ok = true;
  absl::StatusOr<pmapi::MetricSpec> spec = pmapi::ParseMetricSpec(s.metric, spec_kind, source);
  if (!spec.ok()) {
    std::fputs(std::string(spec.status().message()).c_str(), stderr);
    ok = false;
  } else if (spec->isarch == pmapi::kSpecLocal) {
    s.local = true;
  } else {
    const bool archive = spec->isarch == pmapi::kSpecArchive;
    std::vector<std::string>& mine = archive ? s.archives : s.hosts;
    const std::vector<std::string>& other = archive ? s.hosts : s.archives;
    if (mine.empty() && !other.empty()) {
      pmtools::Complain(" only one host or archive allowed\n");
      ok = false;
    } else if (mine.empty()) {
      mine.push_back(spec->source);
    }
    source = spec->source;
  }
  if (!ok) {
    s.print_usage();
    return std::nullopt;
  }
  if (s.local) return Source{pmapi::ContextKind::kLocal, ""};
  if (!s.archives.empty()) return Source{pmapi::ContextKind::kArchive, source};
  return Source{pmapi::ContextKind::kHost, source};
}

absl::StatusOr<pmapi::Context> OpenSource(const Source& src) {
  return pmtools::OpenToolContext(src.kind, src.name, "Cannot establish local context");
}

// -S -A -O, -U and -d need an archive, and -z a host or an archive; PCP
// reports each, then the usage.
bool LiveOptionsValid(const Settings& s, pmapi::ContextKind kind) {
  bool ok = true;
  if (s.window.start || s.window.align || s.window.origin) {
    pmtools::Complain(" time window options are supported for archives only\n");
    ok = false;
  }
  if (s.hostzone && kind == pmapi::ContextKind::kLocal) {
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
  if (!ok) s.print_usage();
  return ok;
}

}  // namespace

int Run(const Settings& given) {
  // Line by line, as PCP's pmval writes: live samples show as they are
  // taken, even through a pipe, and an error on stderr comes after the
  // lines already reported.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Settings settings = given;
  const std::optional<Source> chosen = ChooseSource(settings);
  if (!chosen) return 1;
  const Source& src = *chosen;
  if (src.kind != pmapi::ContextKind::kArchive) {
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