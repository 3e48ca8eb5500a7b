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
#include "pmda_cache_internal.h"

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
  static std::string Int(const absl::StatusOr<Inst>& r) {
    return r.ok() ? std::to_string(ToPcp(*r)) : Status(r.status());
  }
  static std::string Entry(const absl::StatusOr<CacheEntryInfo>& r, bool name, bool inst);

  std::string var_dir_;
  std::string dumped_;
  std::unique_ptr<InDomCaches> caches_;
};

std::string ScriptRunner::Entry(const absl::StatusOr<CacheEntryInfo>& r, bool name, bool inst) {
  if (!r.ok()) return Status(r.status());
  std::string out = std::to_string(r->state);
  if (name) out += " " + Escape(r->name);
  if (inst) out += " " + std::to_string(ToPcp(r->inst));
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
    return Entry(caches_->Lookup(indom, Inst{std::stoi(a)}), true, false);
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

// ---- one test per rule of pmdaCache(3)

class PmdaCacheRules : public ::testing::Test {
 protected:
  PmdaCacheRules() : runner_(dir_.path()) {}
  InDomCaches& caches() { return runner_.caches(); }
  int Code(const absl::StatusOr<int>& r) { return r.ok() ? *r : PcpCode(r.status()); }
  // An identifier as its number, as pmdaCacheStore returns it.
  int Code(const absl::StatusOr<Inst>& r) { return r.ok() ? ToPcp(*r) : PcpCode(r.status()); }
  int Code(const absl::StatusOr<CacheEntryInfo>& r) { return r.ok() ? r->state : PcpCode(r.status()); }
  void WriteFile(InDom indom, const std::string& text) {
    ::mkdir((dir_.path() + "/config/pmda").c_str(), 0755);
    std::ofstream(caches().FilePath(indom), std::ios::binary) << text;
  }

  VarDir dir_;
  ScriptRunner runner_;
  const InDom indom_ = MakeInDom(30, 1);
};

TEST_F(PmdaCacheRules, IdentifiersAreUniqueAndAscending) {
  for (int i = 0; i < 100; i++) EXPECT_EQ(Code(caches().Store(indom_, kCacheAdd, "i" + std::to_string(i), nullptr)), i);
  ASSERT_TRUE(caches().Op(indom_, kCacheWalkRewind).ok());
  for (int i = 0; i < 100; i++) EXPECT_EQ(*caches().Op(indom_, kCacheWalkNext), i);
  EXPECT_EQ(*caches().Op(indom_, kCacheWalkNext), -1);
}

TEST_F(PmdaCacheRules, HiddenEntriesAreSkippedByWalksButFoundByLookups) {
  const Inst a = *caches().Store(indom_, kCacheAdd, "a", nullptr);
  const Inst b = *caches().Store(indom_, kCacheAdd, "b", reinterpret_cast<void*>(0x8));
  EXPECT_EQ(*caches().Store(indom_, kCacheHide, "b", nullptr), b);
  EXPECT_TRUE(caches().Op(indom_, kCacheWalkRewind).ok());
  EXPECT_EQ(*caches().Op(indom_, kCacheWalkNext), ToPcp(a));
  EXPECT_EQ(*caches().Op(indom_, kCacheWalkNext), -1);
  absl::StatusOr<CacheEntryInfo> found = caches().Lookup(indom_, b);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->state, kCacheInactive);
  EXPECT_EQ(found->name, "b");
  EXPECT_EQ(found->data, reinterpret_cast<void*>(0x8));  // from the last activation
  EXPECT_EQ(Code(caches().LookupName(indom_, "b")), kCacheInactive);
}

TEST_F(PmdaCacheRules, CulledEntriesAreGone) {
  EXPECT_TRUE(caches().Store(indom_, kCacheAdd, "a", nullptr).ok());
  EXPECT_EQ(Code(caches().Store(indom_, kCacheCull, "a", nullptr)), 0);
  EXPECT_EQ(Code(caches().Lookup(indom_, Inst{0})), kErrInst);
  EXPECT_EQ(Code(caches().Store(indom_, kCacheHide, "a", nullptr)), kErrInst);
  EXPECT_EQ(Code(caches().Store(indom_, kCacheAdd, "a", nullptr)), 1);  // a new identifier
}

TEST_F(PmdaCacheRules, InstanceNameMatchingTable) {
  // name in cache, name looked up, result (state or error)
  struct Row {
    const char* cached;
    const char* looked_up;
    int result;
  };
  // PCP 6.0.3 finds the entry on a short-name mismatch (its manual says
  // -EDOM); a store that would break the rule fails with -EINVAL.
  const Row rows[] = {
      {"foodle", "foo", kErrInst},      {"foo", "foodle", kErrInst},  {"foo", "foo", kCacheActive},
      {"foo bar", "foo", kCacheActive}, {"foo bar", "foo bar", kCacheActive},
      {"foo", "foo bar", kCacheActive}, {"foo bar", "foo blah", kCacheActive},
  };
  int serial = 100;
  for (const Row& r : rows) {
    InDom indom = MakeInDom(30, serial++);
    ASSERT_TRUE(caches().Store(indom, kCacheAdd, r.cached, nullptr).ok());
    EXPECT_EQ(Code(caches().LookupName(indom, r.looked_up)), r.result) << r.cached << " / " << r.looked_up;
    bool same_short = std::string(r.cached).substr(0, 3) == std::string(r.looked_up).substr(0, 3) &&
                      std::string(r.cached) != r.looked_up;
    if (same_short && std::string(r.looked_up).find(' ') != std::string::npos &&
        r.result == kCacheActive) {
      EXPECT_EQ(Code(caches().Store(indom, kCacheAdd, r.looked_up, nullptr)), -EINVAL) << r.looked_up;
    }
  }
}

TEST_F(PmdaCacheRules, StringsCachesMatchWholeNames) {
  ASSERT_EQ(Code(caches().Op(indom_, kCacheStrings)), 0);
  EXPECT_EQ(Code(caches().Store(indom_, kCacheAdd, "foo bar", nullptr)), 0);
  EXPECT_EQ(Code(caches().Store(indom_, kCacheAdd, "foo blah", nullptr)), 1);
  EXPECT_EQ(Code(caches().LookupName(indom_, "foo")), kErrInst);
  EXPECT_EQ(Code(caches().Op(indom_, kCacheStrings)), -E2BIG);  // entries exist
}

TEST_F(PmdaCacheRules, StoreKeyHashesTheHintAndSwitchesToReuse) {
  std::vector<uint8_t> key = {0x80, 0xff, 0x01, 0x02};
  // The identifier PCP derives from this key (see the golden table).
  EXPECT_EQ(Code(caches().StoreKey(indom_, kCacheAdd, "high bytes", key, nullptr)), 1340383548);
  EXPECT_EQ(Code(caches().StoreKey(indom_, kCacheAdd, "other", key, nullptr)), kErrInst);  // hint taken
  EXPECT_EQ(Code(caches().StoreKey(indom_, kCacheAdd, "high bytes", {}, nullptr)), kErrInst);  // other hint
  EXPECT_EQ(Code(caches().Store(indom_, kCacheAdd, "next", nullptr)), 0);  // reuse mode: lowest free
  absl::StatusOr<CacheEntryInfo> found = caches().LookupKey(indom_, "ignored", key);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->name, "high bytes");
}

TEST_F(PmdaCacheRules, StoreKeyGivesUpAfterTenRehashes) {
  // Occupy the ten identifiers the hint "k" hashes to, via a loaded file.
  std::vector<uint8_t> hint = {'k'};
  std::string file = "2 1 2147483647\n";
  uint32_t hash = 0;
  for (int i = 0; i < cache_internal::kMaxHashTries; i++) {
    hash = cache_internal::HashBytes(hint, hash);
    file += std::to_string(hash & 0x7fffffffu) + " 1 taken" + std::to_string(i) + "\n";
  }
  WriteFile(indom_, file);
  ASSERT_EQ(Code(caches().Op(indom_, kCacheLoad)), cache_internal::kMaxHashTries);
  EXPECT_EQ(Code(caches().StoreKey(indom_, kCacheAdd, "k", {}, nullptr)), kErrGeneric);
  EXPECT_EQ(Code(caches().StoreKey(indom_, kCacheAdd, "k2", {}, nullptr)) >= 0, true);
}

TEST_F(PmdaCacheRules, ReuseAfterTheMaximumIsReached) {
  ASSERT_EQ(Code(caches().Resize(indom_, 2)), 0);
  EXPECT_EQ(Code(caches().Store(indom_, kCacheAdd, "a", nullptr)), 0);
  EXPECT_EQ(Code(caches().Store(indom_, kCacheAdd, "b", nullptr)), 1);
  EXPECT_EQ(Code(caches().Store(indom_, kCacheAdd, "c", nullptr)), 2);
  EXPECT_EQ(Code(caches().Store(indom_, kCacheAdd, "d", nullptr)), kErrGeneric);
  EXPECT_TRUE(caches().Store(indom_, kCacheCull, "a", nullptr).ok());
  EXPECT_EQ(Code(caches().Store(indom_, kCacheAdd, "d", nullptr)), kErrGeneric);  // not reclaimed yet
  EXPECT_TRUE(caches().Op(indom_, kCacheReorg).ok());
  EXPECT_EQ(Code(caches().Store(indom_, kCacheAdd, "d", nullptr)), 0);
  EXPECT_EQ(Code(caches().Resize(indom_, 1)), kErrToobig);
  EXPECT_EQ(Code(caches().Resize(indom_, -1)), kErrSign);
}

TEST_F(PmdaCacheRules, IdentifiersSurviveARestart) {
  EXPECT_TRUE(caches().Store(indom_, kCacheAdd, "eth0", nullptr).ok());
  EXPECT_TRUE(caches().Store(indom_, kCacheAdd, "eth1", nullptr).ok());
  EXPECT_TRUE(caches().Store(indom_, kCacheAdd, "lo", nullptr).ok());
  EXPECT_TRUE(caches().Store(indom_, kCacheCull, "eth1", nullptr).ok());
  ASSERT_EQ(Code(caches().Op(indom_, kCacheSave)), 2);
  EXPECT_EQ(Code(caches().Op(indom_, kCacheSave)), 0);  // up to date
  runner_.Restart();
  EXPECT_EQ(Code(caches().Op(indom_, kCacheCheck)), 0);
  ASSERT_EQ(Code(caches().Op(indom_, kCacheLoad)), 2);
  EXPECT_EQ(Code(caches().Op(indom_, kCacheSizeInactive)), 2);  // loaded entries start hidden
  EXPECT_EQ(Code(caches().Store(indom_, kCacheAdd, "lo", nullptr)), 2);
  EXPECT_EQ(Code(caches().Store(indom_, kCacheAdd, "new", nullptr)), 3);  // after the highest
}

TEST_F(PmdaCacheRules, SyncAlsoSavesReactivations) {
  EXPECT_TRUE(caches().Store(indom_, kCacheAdd, "a", nullptr).ok());
  ASSERT_EQ(Code(caches().Op(indom_, kCacheSave)), 1);
  EXPECT_TRUE(caches().Store(indom_, kCacheAdd, "a", nullptr).ok());  // re-activated only
  EXPECT_EQ(Code(caches().Op(indom_, kCacheSave)), 0);
  EXPECT_EQ(Code(caches().Op(indom_, kCacheSync)), 1);
}

TEST_F(PmdaCacheRules, PurgeCullsWhatWasNotActiveRecently) {
  WriteFile(indom_, "2 0 2147483647\n1 100 old\n2 " + std::to_string(kNow - 10) + " recent\n3 0 never\n");
  ASSERT_EQ(Code(caches().Op(indom_, kCacheLoad)), 3);
  std::vector<void*> released;
  EXPECT_EQ(Code(caches().Purge(indom_, 60, [&](void* p) { released.push_back(p); })), 1);
  EXPECT_EQ(Code(caches().Lookup(indom_, Inst{1})), kErrInst);
  EXPECT_EQ(Code(caches().Lookup(indom_, Inst{2})), kCacheInactive);
  EXPECT_EQ(Code(caches().Lookup(indom_, Inst{3})), kCacheInactive);  // never saved: never purged
  EXPECT_TRUE(released.empty());                                  // no private data
}

TEST_F(PmdaCacheRules, MissingDirectoryOrFileIsAnErrno) {
  EXPECT_EQ(Code(caches().Op(indom_, kCacheLoad)), -ENOENT);
  InDomCaches::Options o;
  o.var_dir = dir_.path() + "/nonexistent";
  o.log_sink = [](std::string_view) {};
  InDomCaches elsewhere(o);
  EXPECT_TRUE(elsewhere.Store(indom_, kCacheAdd, "a", nullptr).ok());
  EXPECT_EQ(Code(elsewhere.Op(indom_, kCacheSave)), -ENOENT);
}

TEST_F(PmdaCacheRules, CorruptFilesAreErrorsNeverCrashes) {
  const std::string bad[] = {
      "2 0 5\n1 1 [zz] bad hex\n", "2 0 5\n1 1 [ab]", "2 0 5\n1 1 [ab", "2 0 5\n3000000000 1 x\n",
      "2 0 5\n\n", "9\n", "2 0\n", std::string("2 0 5\n1 1 \0\0\0\n", 14), "2 0 5\n[\n",
  };
  int serial = 200;
  for (const std::string& text : bad) {
    InDom indom = MakeInDom(30, serial++);
    WriteFile(indom, text);
    EXPECT_EQ(Code(caches().Op(indom, kCacheLoad)), kErrGeneric) << Escape(text);
  }
  // Arbitrary bytes: any result, but no crash and a consistent cache.
  uint32_t seed = 12345;
  for (int round = 0; round < 300; round++) {
    std::string text = "2 0 2147483647\n";
    int len = round % 97;
    for (int i = 0; i < len; i++) {
      seed = seed * 1103515245u + 12345u;
      text += static_cast<char>("0123456789 [] \nabf\x80\x00-"[(seed >> 16) % 20]);
    }
    InDom indom = MakeInDom(31, round);
    WriteFile(indom, text);
    (void)caches().Op(indom, kCacheLoad);
    (void)caches().DumpText(indom, true);
    (void)caches().Store(indom, kCacheAdd, "x", nullptr);
  }
}

TEST_F(PmdaCacheRules, NullIndomAndUnknownOperations) {
  EXPECT_EQ(Code(caches().Store(kInDomNull, kCacheAdd, "a", nullptr)), kErrIndom);
  EXPECT_EQ(Code(caches().Op(kInDomNull, kCacheCheck)), kErrIndom);
  EXPECT_EQ(Code(caches().Op(indom_, 0)), -EINVAL);
  EXPECT_EQ(Code(caches().Store(indom_, kCacheEmpty, "a", nullptr)), kErrInst);
  EXPECT_TRUE(caches().Store(indom_, kCacheAdd, "a", nullptr).ok());
  EXPECT_EQ(Code(caches().Store(indom_, kCacheEmpty, "a", nullptr)), -EINVAL);
  EXPECT_EQ(PcpError(-EINVAL).message(), ErrStr(-EINVAL));
}

TEST_F(PmdaCacheRules, DumpGoesToTheSink) {
  std::string seen;
  InDomCaches::Options o;
  o.var_dir = dir_.path();
  o.dump_sink = [&seen](std::string_view s) { seen += std::string(s); };
  InDomCaches own(o);
  EXPECT_TRUE(own.Store(indom_, kCacheAdd, "a b", reinterpret_cast<void*>(0x10)).ok());
  EXPECT_EQ(Code(own.Op(indom_, kCacheDump)), 0);
  EXPECT_EQ(seen, "pmdaCacheDump: indom 30.1: nentry=1 ins_mode=0 hstate=3 hsize=16\n"
                  "          0    active 0x10 a b [match len=1]\n");
}

}  // namespace
}  // namespace pmapi
