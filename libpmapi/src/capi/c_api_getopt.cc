// c_api_getopt.cc: reading a command line in getopt's way for C tools
// (pmgetopt_r over a pmOptions' short and long options, with getopt's own
// diagnostics) and the usage message built from the same tables
// (pmUsageMessage). What the standard options mean is c_api_options.cc's.
#include <getopt.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "c_api_internal.h"

namespace {

// getopt_long's table for the caller's long options; origin[i] is the
// index in the caller's array of the table's entry i.
std::vector<struct option> LongTable(const pmLongOptions* longopts, std::vector<int>* origin) {
  std::vector<struct option> out;
  int i = 0;
  for (const pmLongOptions* o = longopts; o != nullptr && o->long_opt != nullptr; ++o, ++i) {
    if (o->long_opt[0] == '\0') continue;
    struct option g;
    g.name = o->long_opt;
    g.has_arg = o->has_arg ? required_argument : no_argument;
    g.flag = nullptr;
    g.val = o->short_opt;
    out.push_back(g);
    origin->push_back(i);
  }
  out.push_back({nullptr, 0, nullptr, 0});
  return out;
}

// The usage text of one option: "-a FILE, --archive=FILE".
std::string OptionText(const pmLongOptions& o) {
  std::string text;
  bool has_long = o.long_opt != nullptr && o.long_opt[0] != '\0';
  const char* arg = o.argname != nullptr ? o.argname : "";
  if (o.short_opt > 0 && o.short_opt < 128 && std::isgraph(o.short_opt)) {
    text = absl::StrCat("-", std::string(1, static_cast<char>(o.short_opt)));
    if (o.has_arg) absl::StrAppend(&text, " ", arg);
    if (has_long) absl::StrAppend(&text, ", ");
  }
  if (has_long) {
    absl::StrAppend(&text, "--", o.long_opt);
    if (o.has_arg) absl::StrAppend(&text, "=", arg);
  }
  return text;
}

constexpr size_t kHelpColumn = 24;

// The argument getopt just looked at.
const char* LastToken(char* const* argv) { return ::optind > 0 ? argv[::optind - 1] : ""; }

bool IsLongToken(const char* token) { return token != nullptr && std::strncmp(token, "--", 2) == 0; }

// True when getopt's '?' is the -? option itself rather than a mistake: a
// short option with no error recorded.
bool IsHelpRequest(char* const* argv) { return ::optopt == 0 && !IsLongToken(LastToken(argv)); }

// The name part of a long option token ("--arch=x" -> "arch").
std::string LongName(const char* token) {
  std::string name(token + 2);
  return name.substr(0, name.find('='));
}

// The long options whose names start with `prefix`.
std::vector<const pmLongOptions*> Matches(const pmLongOptions* longopts, const std::string& prefix) {
  std::vector<const pmLongOptions*> out;
  for (const pmLongOptions* o = longopts; o != nullptr && o->long_opt != nullptr; ++o) {
    if (o->long_opt[0] == '\0') continue;
    if (std::strncmp(o->long_opt, prefix.c_str(), prefix.size()) == 0) {
      if (o->long_opt == prefix) return {o};
      out.push_back(o);
    }
  }
  return out;
}

// Reports a command-line mistake in getopt's words.
void Diagnose(int c, char* const* argv, const pmLongOptions* longopts) {
  const char* prog = pmGetProgname();
  const char* token = LastToken(argv);
  if (!IsLongToken(token)) {
    if (c == ':') {
      pmprintf("%s: option requires an argument -- '%c'\n", prog, ::optopt);
    } else {
      pmprintf("%s: invalid option -- '%c'\n", prog, ::optopt);
    }
    return;
  }
  std::string name = LongName(token);
  std::vector<const pmLongOptions*> found = Matches(longopts, name);
  if (found.size() > 1) {
    pmprintf("%s: option '--%s' is ambiguous; possibilities:", prog, name.c_str());
    for (const pmLongOptions* o : found) pmprintf(" '--%s'", o->long_opt);
    pmprintf("\n");
  } else if (found.empty()) {
    pmprintf("%s: unrecognized option '%s'\n", prog, token);
  } else if (c == ':') {
    pmprintf("%s: option '--%s' requires an argument\n", prog, found[0]->long_opt);
  } else {
    pmprintf("%s: option '--%s' doesn't allow an argument\n", prog, found[0]->long_opt);
  }
}

}  // namespace

extern "C" {

// ---- Options ----

int pmgetopt_r(int argc, char* const* argv, pmOptions* opts) {
  if (opts->optind == 0 || !opts->__initialized) {
    opts->__initialized = 1;
    ::optind = 0;  // makes glibc's getopt start afresh
    // As PCP's: the first call names the program after argv[0].
    if (argc > 0 && argv[0] != nullptr) pmSetProgname(argv[0]);
  }
  // ':' first has getopt tell a missing argument from an unknown option;
  // '+' before it (PM_OPTFLAG_POSIX) ends the options at the first operand.
  std::string shortopts = (opts->flags & PM_OPTFLAG_POSIX) ? "+:" : ":";
  if (opts->short_options != nullptr) shortopts += opts->short_options;
  std::vector<int> origin;
  std::vector<struct option> table = LongTable(opts->long_options, &origin);
  // Diagnostics go through pmprintf, as PCP's do, so they come out with
  // the usage message.
  ::opterr = 0;
  int index = -1;
  ::optopt = 0;
  int c = getopt_long(argc, const_cast<char**>(argv), shortopts.c_str(), table.data(), &index);
  if (c == ':' || (c == '?' && !(::optopt == 0 && index >= 0) && !IsHelpRequest(argv))) {
    if (!(opts->flags & PM_OPTFLAG_QUIET)) Diagnose(c, argv, opts->long_options);
    c = '?';
    if (index >= 0) opts->index = origin[index];
    opts->optind = ::optind;
    opts->optarg = ::optarg;
    opts->optopt = ::optopt;
    return c;
  }
  // The caller's long option (its index in opts->long_options); a short
  // option leaves the last one there, as in PCP.
  if (index >= 0) opts->index = origin[index];
  opts->optind = ::optind;
  opts->optarg = ::optarg;
  opts->optopt = c == '?' ? ::optopt : 0;
  return c;
}

void pmUsageMessage(pmOptions* opts) {
  // after a run-time error or an exit request only what is pending is flushed
  if (opts->flags & (PM_OPTFLAG_RUNTIME_ERR | PM_OPTFLAG_EXIT)) {
    if (!(opts->flags & PM_OPTFLAG_NOFLUSH)) pmflush();
    return;
  }
  pmprintf("Usage: %s %s\n", pmGetProgname(), opts->short_usage != nullptr ? opts->short_usage : "[options]");
  for (const pmLongOptions* o = opts->long_options; o != nullptr && o->long_opt != nullptr; ++o) {
    if (o->message == nullptr) continue;  // an option left out of the message
    if (o->short_opt == '-') {              // a section header
      pmprintf("\n%s:\n", o->message);
      continue;
    }
    if (o->short_opt == '|') {  // descriptive text
      pmprintf("%s\n", o->message);
      continue;
    }
    std::string line = absl::StrCat("  ", OptionText(*o));
    if (line.size() < kHelpColumn) {
      line.append(kHelpColumn - line.size(), ' ');
    } else {
      line.append("\n");
      line.append(kHelpColumn, ' ');
    }
    pmprintf("%s%s\n", line.c_str(), o->message);
  }
  if (!(opts->flags & PM_OPTFLAG_NOFLUSH)) pmflush();
}

}  // extern "C"
