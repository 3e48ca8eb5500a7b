#include "registry.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "config_lookup.h"
#include "pmapi/errors.h"
#include "trace.h"

namespace pmapi::derive {
namespace {

thread_local std::optional<std::string> last_error;

}  // namespace

bool IsDerivedPmid(PmID id) {
  return PmIDDomain(id) == 511 && (PmIDCluster(id) & 2048) == 0 && PmIDItem(id) != 0;
}

const std::optional<std::string>& LastError() { return last_error; }
void SetLastError(std::optional<std::string> why) { last_error = std::move(why); }

std::optional<std::string> DefaultConfigPath() {
  // PCP_VAR_DIR as libpcp finds it (the environment, then pcp.conf).
  const char* var = ConfigLookup("PCP_VAR_DIR");
  if (var == nullptr) return std::nullopt;
  std::string path = std::string(var) + "/config/derived";
  if (access(path.c_str(), F_OK) != 0) return std::nullopt;
  return path;
}

Registry& Registry::Get() {
  static Registry* r = new Registry;
  return *r;
}

std::optional<int> Registry::Register(std::string_view name, std::string_view expr) {
  std::lock_guard<std::mutex> lock(mu_);
  return RegisterLocked(name, expr, false);
}

std::optional<int> Registry::RegisterLocked(std::string_view name, std::string_view expr,
                                            bool anon) {
  if (trace::Appl0()) {
    trace::Say("pmRegisterDerived: name=\"" + std::string(name) + "\" expr=\"" + std::string(expr) +
               "\"");
  }
  if (limit_ != -1 && static_cast<int>(metrics_.size()) - nanon_ >= limit_) {
    SetLastError("Too many global derived metrics");
    return 0;
  }
  for (const GlobalMetric& m : metrics_) {
    if (m.name == name) {
      SetLastError("Duplicate global derived metric name");
      return 0;
    }
  }
  SetLastError(std::nullopt);
  ParseResult p = Parse(expr);
  if (p.tree == nullptr) {
    SetLastError(p.error);
    return p.error_offset;
  }
  // Global metrics count up from 511.0.1; item 0 is never used.
  PmID pmid;
  if (metrics_.empty()) {
    pmid = MakePmID(511, 0, 1);
  } else if (PmIDItem(last_pmid_) < 1023) {
    pmid = MakePmID(511, PmIDCluster(last_pmid_), PmIDItem(last_pmid_) + 1);
  } else if (PmIDCluster(last_pmid_) < 2047) {
    pmid = MakePmID(511, PmIDCluster(last_pmid_) + 1, 1);
  } else {
    SetLastError("global PMID space exhausted");
    return 0;
  }
  last_pmid_ = pmid;
  GlobalMetric m;
  m.name = std::string(name);
  m.pmid = pmid;
  m.anon = anon;
  m.expr = p.tree;
  metrics_.push_back(std::move(m));
  if (anon) nanon_++;
  if (trace::On()) {
    trace::Say("pmRegisterDerived: global metric[" + std::to_string(metrics_.size() - 1) + "] " +
               std::string(name) + " = " + std::string(expr));
    if (trace::Appl0()) trace::DumpParsed(p.tree.get());
  }
  return std::nullopt;
}

void Registry::RegisterAnon(const char* name, const char* oneline, const char* help) {
  if (RegisterLocked(name, "anon(PM_TYPE_U32)", true).has_value()) return;
  metrics_.back().oneline = oneline;
  metrics_.back().help = help;
}

void Registry::Init() {
  std::lock_guard<std::mutex> lock(mu_);
  InitLocked();
}

void Registry::InitLocked() {
  if (initialised_) return;
  initialised_ = true;
  RegisterAnon("event.flags", "Flags for event records",
               "An anonymous derived metric that is used to encode the event flags\n"
               "associated with event records.   See pmUnpackEventRecords(3).");
  RegisterAnon("event.missed", "Count of missed event records",
               "An anonymous derived metric that is used to encode the number of\n"
               "event records missed because either the PMDA could not keep up\n"
               "or the PMAPI client did not collect the event records fast\n"
               "enough.  See pmUnpackEventRecords(3).");
  std::optional<std::string> path;
  const char* env = std::getenv("PCP_DERIVED_CONFIG");
  if (env != nullptr) {
    path = env;
  } else {
    path = DefaultConfigPath();
  }
  if (path.has_value() && !path->empty()) {
    if (trace::On()) {
      trace::Say("Derived metric initialization from " +
                 (env != nullptr ? std::string("$PCP_DERIVED_CONFIG") : *path));
    }
    LoadPathLocked(*path, true);
  }
}

int Registry::LoadConfig(std::string_view path) {
  std::lock_guard<std::mutex> lock(mu_);
  InitLocked();
  return LoadPathLocked(path, false);
}

// Components separated by ':'; empty components are skipped.
int Registry::LoadPathLocked(std::string_view path, bool recover) {
  int total = 0;
  size_t start = 0;
  while (start <= path.size()) {
    size_t colon = path.find(':', start);
    std::string_view part =
        path.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start);
    if (colon != std::string_view::npos || !part.empty()) {
      int sts = LoadComponentLocked(std::string(part), recover);
      if (sts < 0) return sts;
      total += sts;
    }
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  return total;
}

// A file is loaded; a directory's entries are loaded in the order the
// directory lists them (as PCP's readdir walk); anything else is skipped.
int Registry::LoadComponentLocked(const std::string& path, bool recover) {
  struct stat st;
  int sts = 0;
  if (stat(path.c_str(), &st) < 0) {
    sts = -errno;
    if (trace::On()) {
      trace::Say("Warning: derived metrics path component: " + path + ": " + ErrStr(sts));
    }
  } else if (S_ISREG(st.st_mode)) {
    sts = LoadFileLocked(path);
    if (sts < 0 && trace::On()) trace::Say("pmLoadDerivedConfig(" + path + "): " + ErrStr(sts));
  } else if (S_ISDIR(st.st_mode)) {
    DIR* dir = opendir(path.c_str());
    if (dir == nullptr) {
      sts = -errno;
      if (trace::On()) {
        trace::Say("Warning: derived metrics path directory component: " + path + ": " +
                   ErrStr(sts));
      }
    } else {
      while (struct dirent* e = readdir(dir)) {
        std::string entry = e->d_name;
        if (entry == "." || entry == "..") continue;
        int one = LoadComponentLocked(path + "/" + entry, recover);
        if (one < 0) {
          sts = one;
          break;
        }
        sts += one;
      }
      closedir(dir);
    }
  } else if (trace::On()) {
    char mode[16];
    std::snprintf(mode, sizeof(mode), "%o", static_cast<unsigned>(st.st_mode));
    trace::Say("Warning: derived metrics path component: " + path + ": unexpected st_mode=" + mode +
               "?");
  }
  return recover ? 0 : sts;
}

std::vector<GlobalMetric> Registry::From(size_t from) {
  std::lock_guard<std::mutex> lock(mu_);
  InitLocked();
  if (from >= metrics_.size()) return {};
  return std::vector<GlobalMetric>(metrics_.begin() + static_cast<long>(from), metrics_.end());
}

size_t Registry::size() {
  std::lock_guard<std::mutex> lock(mu_);
  InitLocked();
  return metrics_.size();
}

int Registry::limit() {
  std::lock_guard<std::mutex> lock(mu_);
  return limit_;
}

void Registry::set_limit(int limit) {
  std::lock_guard<std::mutex> lock(mu_);
  limit_ = limit;
}

int Registry::Text(PmID pmid, int kind, std::string* out) {
  std::lock_guard<std::mutex> lock(mu_);
  InitLocked();
  for (const GlobalMetric& m : metrics_) {
    if (m.pmid != pmid) continue;
    const std::optional<std::string>* text = nullptr;
    if (kind & 1) {
      text = &m.oneline;
    } else if (kind & 2) {
      text = m.help.has_value() ? &m.help : &m.oneline;
    }
    if (text == nullptr || !text->has_value()) return kErrText;
    *out = **text;
    return 0;
  }
  return kErrPmid;
}

}  // namespace pmapi::derive
