// pmdumplog: dump the contents of a PCP archive, as PCP 6.0.3's pmdumplog.
//
// Command-line handling follows PCP's (GNU-style short and long options,
// the same messages and exit statuses), through the option layer every
// tool shares (tools/common/options.h); the sections are printed by Dumper.
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "dumper.h"
#include "names.h"
#include "options.h"
#include "origin.h"
#include "pmapi/errors.h"
#include "pmapi/events.h"
#include "pmapi/timewindow.h"
#include "pmapi/timezone.h"
#include "raw_dump.h"

namespace pmdumplog {
namespace {

pmtools::OptionTable Table() {
  using pmtools::OptionSpec;
  OptionSpec version = pmtools::StdVersion();
  version.long_form_only = true;
  OptionSpec debug = pmtools::StdDebug();
  return {"pmdumplog",
          "[options] [archive [metricname ...]]",
          {{"Options",
            {debug,
             {'a', "all", "", "dump everything"},
             {'d', "descs", "", "dump metric descriptions"},
             {'e', "labelsets", "", "dump all metric label metadata"},
             {'h', "helptext", "", "dump all metric help text"},
             {'I', "on-disk-insts", "", "dump on-disk instance domain descriptions"},
             {'i', "insts", "", "dump instance domain descriptions"},
             {'L', "", "", "more verbose form of archive label dump"},
             {'l', "label", "", "dump the archive label"},
             {'M', "markrecs", "", "report <mark> records"},
             {'m', "metrics", "", "dump values of the metrics (default)"},
             pmtools::StdNamespace(),
             {'r', "reverse", "", "process archive in reverse chronological order"},
             pmtools::StdStart(),
             {'s', "sizes", "", "report size of data records in archive"},
             pmtools::StdFinish(),
             {'t', "", "", "dump the temporal index"},
             {'v', "", "FILE", "verbose hex dump of a physical file in raw format"},
             {'x', "", "", "include date, usec (-xx) and Epoch (-xxx) in reported timestamps"},
             pmtools::StdTimezone(),
             pmtools::StdHostzone(),
             version,
             pmtools::StdHelp()}}}};
}

struct Flags {
  bool d = false, e = false, h = false, I = false, i = false, L = false, l = false;
  bool m = false, t = false, z = false, help = false;
  int errors = 0;
  std::string raw_file;
  bool raw = false;
  std::string zone;
  bool zone_set = false;
  std::string start, finish;
  DumpOptions dump;
};

// Applies one parsed option to *f.
void Apply(const pmtools::ParsedOption& o, Flags* f) {
  const char k = o.key.size() == 1 ? o.key[0] : 0;
  switch (k) {
    case 'a': f->d = f->i = f->L = f->l = f->m = f->t = true; f->dump.sizes = true; break;
    case 'd': f->d = true; break;
    case 'e': f->e = true; break;
    case 'h': f->h = true; break;
    case 'I': f->I = true; break;
    case 'i': f->i = true; break;
    case 'L': f->L = f->l = true; break;
    case 'l': f->l = true; break;
    case 'M': f->dump.marks = true; break;
    case 'm': f->m = true; break;
    case 'r': f->dump.reverse = true; break;
    case 's': f->dump.sizes = true; break;
    case 't': f->t = true; break;
    case 'v': f->raw = true; f->raw_file = o.value; break;
    case 'x': ++f->dump.xflag; break;
    case 'S': f->start = o.value; break;
    case 'D': pmtools::ApplyDebugOption(o.value); break;
    case 'T': f->finish = o.value; break;
    case 'n':  // names are printed from this name space, as pmNameAll finds them
      f->dump.names = pmtools::LoadNameSpaceOption("pmdumplog", o.value, true);
      if (f->dump.names == nullptr) ++f->errors;
      break;
    case 'Z':
    case 'z':
      if (k == 'Z' ? f->z : f->zone_set) {
        fprintf(stderr, "pmdumplog: at most one of -Z and -z allowed\n");
        ++f->errors;
      }
      if (k == 'Z') {
        f->zone = o.value;
        f->zone_set = true;
      } else {
        f->z = true;
      }
      break;
    default: f->help = true; break;  // -? and --help
  }
}

// Resolves -S and -T as PCP's pmParseHighResTimeWindow does, in the
// reporting zone; on a bad time prints PCP's message and returns false.
bool ResolveWindow(const Flags& f, const pmapi::ArchiveLabel& label,
                   const absl::StatusOr<pmapi::ArchiveTime>& end, const TimeFormat& tf,
                   DumpOptions* dump) {
  if (f.start.empty() && f.finish.empty()) return true;
  pmapi::TimeWindowArgs args;
  if (!f.start.empty()) args.start = f.start;
  if (!f.finish.empty()) args.end = f.finish;
  const pmapi::TimeSpec log_start{label.start.sec, label.start.nsec};
  const pmapi::TimeSpec log_end =
      end.ok() ? pmapi::TimeSpec{end->sec, end->nsec} : pmapi::TimeSpec{pmapi::kUnboundedEnd, 0};
  pmapi::TimeParser parser(tf.zone());
  absl::StatusOr<pmapi::TimeWindow> w = parser.ParseWindow(args, log_start, log_end);
  if (!w.ok()) {
    fprintf(stderr, "pmdumplog: invalid time window.\n%s\n",
            std::string(w.status().message()).c_str());
    return false;
  }
  if (args.start) dump->start = pmapi::ArchiveTime{w->start.sec, w->start.nsec};
  if (args.end) dump->finish = pmapi::ArchiveTime{w->end.sec, w->end.nsec};
  return true;
}

absl::StatusOr<pmapi::PmID> AnonMetric(const std::string& name,
                                       absl::StatusOr<pmapi::PmID> otherwise) {
  if (name == "event.flags") return pmapi::kEventFlagsPmid;
  if (name == "event.missed") return pmapi::kEventMissedPmid;
  return otherwise;
}

void LookupMetrics(const pmapi::Archive& a, const std::vector<std::string>& names,
                   DumpOptions* d) {
  // -n's names, of the metrics the archive holds
  std::optional<pmapi::Pmns> loaded;
  if (d->names != nullptr) loaded = d->names->Trimmed([&a](pmapi::PmID id) { return a.FindDesc(id) != nullptr; });
  const pmapi::Pmns& pmns = loaded ? *loaded : a.pmns();
  for (const std::string& name : names) {
    absl::StatusOr<pmapi::PmID> id = pmns.LookupName(name);
    // The event records' anonymous metrics are known by name in every
    // context (PCP registers them as derived metrics in every process),
    // but not their parent "event"; no record ever holds them.
    if (pmapi::PcpCode(id.status()) == pmapi::kErrName) id = AnonMetric(name, id);
    if (id.ok()) {
      d->pmids.push_back(*id);
      continue;
    }
    if (pmapi::PcpCode(id.status()) == pmapi::kErrNonleaf) {
      pmns.Walk(name, [d](const std::string&, pmapi::PmID leaf) {
        d->pmids.push_back(leaf);
        return absl::OkStatus();
      }).IgnoreError();
      continue;
    }
    fprintf(stderr, "pmdumplog: pmLookupName(%s): %s\n", name.c_str(),
            pmapi::ErrStr(pmapi::PcpCode(id.status())).c_str());
  }
}

bool IsDirectory(const char* path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int Run(int argc, char** argv) {
  const pmtools::OptionTable table = Table();
  const pmtools::CommandLine cl = pmtools::ParseCommandLine(table, argc, argv);
  if (cl.exit) return 0;
  Flags f;
  for (const pmtools::ParsedOption& o : cl.options) Apply(o, &f);
  const std::vector<std::string>& operands = cl.operands;
  if (f.errors || f.help || (f.raw && !operands.empty()) || (!f.raw && operands.empty())) {
    pmtools::PrintUsage(table);
    return 1;
  }
  if (f.raw) return RawDump(f.raw_file);
  if (!(f.d || f.e || f.h || f.I || f.i || f.l || f.m || f.t)) f.m = true;

  const char* name = operands[0].c_str();
  // One archive only: neither a list of them nor a folder.
  if (std::strchr(name, ',') != nullptr || IsDirectory(name)) {
    fprintf(stderr, "pmdumplog: Multiple archives are not supported\n");
    return 1;
  }
  absl::StatusOr<std::unique_ptr<pmapi::Archive>> opened = pmapi::Archive::Open(name);
  if (!opened.ok()) {
    fprintf(stderr, "pmdumplog: Cannot open archive \"%s\": %s\n", name,
            pmapi::ErrStr(pmapi::PcpCode(opened.status())).c_str());
    return 1;
  }
  pmapi::Archive& archive = **opened;
  const absl::StatusOr<pmapi::ArchiveTime> end = archive.End();
  Output out;
  TimeFormat tf(archive.label().version);
  const pmapi::ArchiveLabel& label = archive.label();
  if (f.z) {
    tf.SetZone(!label.zoneinfo.empty() ? label.zoneinfo : label.timezone);
    out.Str(pmapi::HostZoneNote(label.hostname, true));
  } else if (f.zone_set) {
    tf.SetZone(f.zone);
    out.Str(pmapi::UserZoneNote(f.zone));
  }
  // PCP sets the zone (and prints its note) before it looks for the end,
  // and writes what stdout holds before its warning.
  if (!end.ok()) {
    out.Flush();
    pmtools::WarnArchiveEndUnknown(name, end.status());
  }
  if (!ResolveWindow(f, label, end, tf, &f.dump)) {
    out.Flush();
    return 1;
  }
  if (operands.size() > 1) {
    LookupMetrics(archive, {operands.begin() + 1, operands.end()}, &f.dump);
    if (f.dump.pmids.empty()) {
      out.Flush();
      fprintf(stderr, "No metric names can be translated, dump abandoned\n");
      return 1;
    }
  }

  Dumper dumper(archive, f.dump, tf, &out);
  if (f.l) dumper.Label(f.L, end);
  if (f.d) dumper.Descs();
  if (f.e) dumper.LabelSets();
  if (f.h) dumper.HelpText();
  if (f.I) dumper.DiskInDoms();
  if (f.i) dumper.InDoms();
  if (f.t) dumper.TemporalIndex();
  if (f.m) {
    if (f.dump.reverse) {
      archive.SeekEnd();
    } else {
      archive.SeekStart();
    }
    const int code = dumper.Records();
    if (code != 0) {
      out.Flush();
      fprintf(stderr, "pmdumplog: pmFetch: %s\n", pmapi::ErrStr(code).c_str());
      return 1;
    }
  }
  out.Flush();
  return 0;
}

}  // namespace
}  // namespace pmdumplog

int main(int argc, char** argv) {
  pmtools::SetProgram(argc > 0 ? argv[0] : nullptr, "pmdumplog");
  return pmdumplog::Run(argc, argv);
}
