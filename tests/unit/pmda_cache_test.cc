// Replays tests/data/oracle/pmdacache.tsv (the script of cache operations
// that tests/oracle/pmdacache.c ran against PCP's libpcp_pmda) against
// InDomCaches and requires every result to be PCP's; then checks the
// seed-000 rules one by one.
#include "pmapi/pmda_cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

constexpr int64_t kNow = 1700000000;

std::string Escape(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c < 0x20 || c > 0x7e) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string Unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); i++) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    char c = s[++i];
    if (c == 'n') out += '\n';
    else if (c == 'r') out += '\r';
    else if (c == 't') out += '\t';
    else if (c == 'x' && i + 2 < s.size()) {
      out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::string Pointer(void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

InDom ParseInDom(const std::string& s) {
  if (s == "null") return kInDomNull;
  unsigned d = 0, serial = 0;
  std::sscanf(s.c_str(), "%u.%u", &d, &serial);
  return MakeInDom(d, serial);
}

// The script's key argument: "-" none, "!" and "~" a key of length < 1,
// otherwise hex bytes. All of the first three mean "use the name".
std::vector<uint8_t> ParseKey(const std::string& s) {
  std::vector<uint8_t> key;
  if (s == "-" || s == "!" || s == "~") return key;
  for (size_t i = 0; i + 1 < s.size(); i += 2) key.push_back(std::stoi(s.substr(i, 2), nullptr, 16));
  return key;
}

// A scratch $PCP_VAR_DIR holding config/, as the oracle run had.
class VarDir {
 public:
  VarDir() {
    std::string tmpl = ::testing::TempDir() + "/pmdacacheXXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    path_ = ::mkdtemp(buf.data());
    ::mkdir((path_ + "/config").c_str(), 0755);
  }
  ~VarDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Runs script lines against one InDomCaches, formatting results as the
// oracle does.
class ScriptRunner {
 public:
  explicit ScriptRunner(const std::string& var_dir) : var_dir_(var_dir) { Restart(); }

  void Restart() {
    InDomCaches::Options o;
    o.var_dir = var_dir_;
    o.clock = [] { return kNow; };
    o.dump_sink = [this](std::string_view s) { dumped_ += std::string(s); };
    o.log_sink = [](std::string_view) {};
    caches_ = std::make_unique<InDomCaches>(std::move(o));
  }

  std::string Run(const std::string& line);
  InDomCaches& caches() { return *caches_; }

 private:
  std::string File(InDom indom);
  static std::string Status(const absl::Status& s) { return std::to_string(PcpCode(s)); }
  static std::string Int(const absl::StatusOr<int>& r) { return r.ok() ? std::to_string(*r) : Status(r.status()); }
  static std::string Entry(const absl::StatusOr<CacheEntryInfo>& r, bool name, bool inst);

  std::string var_dir_;
  std::string dumped_;
  std::unique_ptr<InDomCaches> caches_;
};

std::string ScriptRunner::Entry(const absl::StatusOr<CacheEntryInfo>& r, bool name, bool inst) {
  if (!r.ok()) return Status(r.status());
  std::string out = std::to_string(r->state);
  if (name) out += " " + Escape(r->name);
  if (inst) out += " " + std::to_string(r->inst);
  return out + " " + Pointer(r->data);
}

std::string ScriptRunner::File(InDom indom) {
  std::ifstream in(caches_->FilePath(indom), std::ios::binary);
  if (!in) return "missing";
  std::string out, line;
  bool first = true;
  while (std::getline(in, line)) {
    bool newline = !in.eof();
    long inst, stamp;
    int used = 0;
    if (!first && std::sscanf(line.c_str(), "%ld %ld%n", &inst, &stamp, &used) == 2 && stamp >= kNow - 1 &&
        stamp <= kNow + 1) {
      out += std::to_string(inst) + " NOW" + Escape(line.substr(used));
    } else {
      out += Escape(line);
    }
    if (newline) out += "\\n";
    first = false;
  }
  return out;
}

std::string ScriptRunner::Run(const std::string& line) {
  std::istringstream words(line);
  std::string cmd, indom_text;
  words >> cmd >> indom_text;
  InDom indom = ParseInDom(indom_text);
  // NAME is the rest of the line after the fixed words.
  auto rest_after = [&line](int fixed) {
    size_t at = 0;
    for (int i = 0; i < fixed; i++) {
      at = line.find(' ', at);
      if (at == std::string::npos) return std::string();
      at++;
    }
    return Unescape(line.substr(at));
  };
  std::string a, b, c;
  if (cmd == "store") {
    words >> a >> b;
    void* p = reinterpret_cast<void*>(std::stoul(b, nullptr, 0));
    return Int(caches_->Store(indom, std::stoi(a), rest_after(4), p));
  }
  if (cmd == "storekey") {
    words >> a >> b >> c;
    void* p = reinterpret_cast<void*>(std::stoul(b, nullptr, 0));
    return Int(caches_->StoreKey(indom, std::stoi(a), rest_after(5), ParseKey(c), p));
  }
  if (cmd == "lookup") {
    words >> a;
    return Entry(caches_->Lookup(indom, std::stoi(a)), true, false);
  }
  if (cmd == "lookupname") return Entry(caches_->LookupName(indom, rest_after(2)), false, true);
  if (cmd == "lookupkey") {
    words >> a;
    return Entry(caches_->LookupKey(indom, rest_after(3), ParseKey(a)), true, true);
  }
  if (cmd == "op") {
    words >> a;
    return Int(caches_->Op(indom, std::stoi(a)));
  }
  if (cmd == "walk") {
    absl::StatusOr<int> r = caches_->Op(indom, kCacheWalkRewind);
    std::string out = Int(r);
    while (r.ok() && (r = caches_->Op(indom, kCacheWalkNext)).ok() && *r >= 0) out += " " + std::to_string(*r);
    return out;
  }
  if (cmd == "purge" || cmd == "purgecb") {
    words >> a;
    std::string calls;
    std::function<void(void*)> release;
    if (cmd == "purgecb") release = [&calls](void* p) { calls += " cb=" + Pointer(p); };
    return Int(caches_->Purge(indom, std::stol(a), release)) + calls;
  }
  if (cmd == "resize") {
    words >> a;
    return Int(caches_->Resize(indom, std::stoi(a)));
  }
  if (cmd == "dump") {
    words >> a;
    return Escape(caches_->DumpText(indom, a == "1"));
  }
  if (cmd == "file") return File(indom);
  if (cmd == "writefile") {
    std::ofstream out(caches_->FilePath(indom), std::ios::binary);
    if (!out) return "cannot write";
    out << rest_after(2);
    return "ok";
  }
  if (cmd == "rmfile") return ::unlink(caches_->FilePath(indom).c_str()) == 0 ? "0" : std::to_string(-errno);
  return "unknown command";
}

TEST(PmdaCacheGolden, EveryScriptLineMatchesPcp) {
  std::ifstream in(PMAPI_TEST_DATA_DIR "/oracle/pmdacache.tsv");
  ASSERT_TRUE(in) << "missing golden table";
  VarDir dir;
  ScriptRunner runner(dir.path());
  std::string row;
  int rows = 0;
  while (std::getline(in, row)) {
    size_t tab = row.find('\t');
    ASSERT_NE(tab, std::string::npos) << row;
    std::string command = row.substr(0, tab);
    ASSERT_NE(command, "#crash") << "the oracle crashed; remove the case that did it";
    if (command == "restart") {
      runner.Restart();
    } else {
      EXPECT_EQ(runner.Run(command), row.substr(tab + 1)) << command;
    }
    rows++;
  }
  EXPECT_GT(rows, 500);
}

}  // namespace
}  // namespace pmapi
