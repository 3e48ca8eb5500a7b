// Pmns::LoadFile: the ASCII PMNS parser.
//
// The lexer works on a 256-byte line buffer the way PCP's does (whitespace
// runs collapsed, blanks around ':' removed, "# N \"file\"" markers from the
// preprocessor), because PCP's diagnostics echo that buffer, caret and all.
// Blocks are collected first and joined into a tree afterwards (PCP's two
// passes), so blocks may come in any order.
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "pmapi/errors.h"
#include "pmapi/pmns.h"
#include "pmns_cpp.h"

namespace pmapi {
namespace {

enum Token { kEnd = 0, kName = 1, kPath = 2, kPmidToken = 3, kLeftBrace = 4, kRightBrace = 5, kBogus = 10 };

constexpr size_t kLineSize = 256;  // PCP's linebuf, fname and message size


// Reads a decimal number as scanf's %d does on glibc: at least one digit,
// the value saturated as a long and then truncated to int.
bool ScanInt(const char*& p, int& value) {
  if (!absl::ascii_isdigit(*p)) return false;
  long v = 0;
  for (; absl::ascii_isdigit(*p); ++p) {
    int d = *p - '0';
    v = v > (LONG_MAX - d) / 10 ? LONG_MAX : v * 10 + d;
  }
  value = static_cast<int>(static_cast<unsigned long>(v));
  return true;
}

// scanf("%d:%d:%d"): returns how many numbers were converted.
int ScanTriple(const char* p, int out[3]) {
  int n = 0;
  while (n < 3) {
    if (!ScanInt(p, out[n])) break;
    ++n;
    if (n < 3 && *p++ != ':') break;
  }
  return n;
}

struct Block {
  std::string name;  // full path of the non-leaf node, or "root"
  std::vector<std::pair<std::string, PmID>> kids;
  bool attached = false;
};

}  // namespace

// Builds a Pmns from an ASCII PMNS file as PCP's loadascii() does.
class PmnsBuilder {
 public:
  PmnsBuilder(std::string path, bool dupok) : fname_(std::move(path)), dupok_(dupok) {
    linebuf_.fill('\0');
  }

  absl::StatusOr<Pmns> Load(const std::vector<std::string>& include_dirs);

 private:
  int Lex();
  int NextLine();
  int ClassifyToken();
  int ParsePmid();
  void Err(std::string_view message);
  void ErrFromLinebuf(const std::string& message);
  std::string LinebufString() const { return std::string(linebuf_.data(), ::strnlen(linebuf_.data(), kLineSize)); }
  int Parse();
  int Pass2();
  int Attach(const std::string& base, int32_t node, size_t block);
  int CheckDuplicates();
  absl::Status Failure(int code) const {
    return PcpErrorWithMessage(code, diagnostics_ + cpp_error_);
  }

  std::string fname_;
  bool dupok_;
  std::string input_;
  size_t input_pos_ = 0;
  std::string cpp_error_;
  std::array<char, kLineSize + 3> linebuf_;  // spare bytes keep the caret in bounds
  size_t lp_ = 0;
  long linep_ = -1;  // start of the last token, -1 before the first
  int lineno_ = 0;
  std::string tokbuf_;
  PmID tokpmid_{};
  std::string diagnostics_;
  std::vector<Block> blocks_;
  absl::flat_hash_map<std::string, std::vector<size_t>> unattached_;
  Pmns pmns_;
};

void PmnsBuilder::Err(std::string_view message) {
  if (lineno_ > 0) absl::StrAppend(&diagnostics_, absl::StrFormat("[%s:%d] ", fname_, lineno_));
  absl::StrAppend(&diagnostics_, "Error Parsing ASCII PMNS: ", absl::string_view(message.data(), message.size()), "\n");
  if (lineno_ <= 0) return;
  std::string line = LinebufString();
  absl::StrAppend(&diagnostics_, "    ", line);
  if (line.empty() || line.back() != '\n') diagnostics_ += '\n';
  if (linep_ < 0) return;
  size_t caret = std::min(static_cast<size_t>(linep_), kLineSize);
  for (size_t i = 0; i < caret; ++i) {
    if (!absl::ascii_isspace(linebuf_[i])) linebuf_[i] = ' ';
  }
  linebuf_[caret] = '^';
  linebuf_[caret + 1] = '\n';
  linebuf_[caret + 2] = '\0';
  absl::StrAppend(&diagnostics_, "    ", LinebufString());
}

// PCP formats some messages into its line buffer before reporting them.
void PmnsBuilder::ErrFromLinebuf(const std::string& message) {
  size_t n = std::min(message.size(), kLineSize - 1);
  std::memcpy(linebuf_.data(), message.data(), n);
  linebuf_[n] = '\0';
  Err(LinebufString());
}

// Reads lines until one has a token; returns 0 at the end, <0 on error.
int PmnsBuilder::NextLine() {
  while (true) {
    if (input_pos_ >= input_.size()) {
      lineno_ = -1;
      if (!cpp_error_.empty()) {
        diagnostics_ += cpp_error_;
        cpp_error_.clear();
        Err("pmcpp returned non-zero exit status");
        return kErrPmns;
      }
      return 0;
    }
    // fgets into the 255-character buffer
    size_t n = 0;
    while (n < kLineSize - 1 && input_pos_ < input_.size()) {
      char c = input_[input_pos_++];
      linebuf_[n++] = c;
      if (c == '\n') break;
    }
    linebuf_[n] = '\0';
    size_t q = 0;
    bool inspace = false;
    for (size_t p = 0; p < n; ++p) {
      char c = linebuf_[p];
      if (absl::ascii_isspace(c)) {
        if (!inspace) {
          if (q > 0 && linebuf_[q - 1] != ':') linebuf_[q++] = c;
          inspace = true;
        }
      } else if (c == ':') {
        if (inspace) {
          if (q > 0) --q;
          inspace = false;
        }
        linebuf_[q++] = c;
      } else {
        linebuf_[q++] = c;
        inspace = false;
      }
    }
    if (n == 0 || linebuf_[n - 1] != '\n') {
      Err("Absurdly long line, cannot recover");
      return kErrPmns;
    }
    linebuf_[q] = '\0';
    if (linebuf_[0] == '#') {
      // "# %d \"%s": a preprocessor line marker
      const char* p = linebuf_.data() + 1;
      while (absl::ascii_isspace(*p)) ++p;
      int line = 0;
      int converted = 0;
      if (ScanInt(p, line)) {
        lineno_ = line;
        ++converted;
        while (absl::ascii_isspace(*p)) ++p;
        if (*p == '"') {
          ++p;
          while (absl::ascii_isspace(*p)) ++p;
          const char* start = p;
          while (*p != '\0' && !absl::ascii_isspace(*p)) ++p;
          if (p > start) {
            fname_.assign(start, p - start - 1);  // drops the closing quote
            ++converted;
          }
        }
      }
      if (converted != 2) {
        Err("Illegal line number control number");
        return kErrPmns;
      }
      --lineno_;
      continue;
    }
    ++lineno_;
    lp_ = 0;
    while (linebuf_[lp_] != '\0' && absl::ascii_isspace(linebuf_[lp_])) ++lp_;
    if (linebuf_[lp_] != '\0') return 1;
  }
}

int PmnsBuilder::Lex() {
  while (lp_ < kLineSize && linebuf_[lp_] != '\0' && absl::ascii_isspace(linebuf_[lp_])) ++lp_;
  if (lp_ >= kLineSize || linebuf_[lp_] == '\0') {
    int sts = NextLine();
    if (sts <= 0) return sts;
  }
  linep_ = static_cast<long>(lp_);
  // PCP copies up to the next white space, even past the line's end
  size_t start = lp_;
  while (lp_ < kLineSize && !absl::ascii_isspace(linebuf_[lp_])) ++lp_;
  tokbuf_.assign(linebuf_.data() + start, ::strnlen(linebuf_.data() + start, lp_ - start));
  return ClassifyToken();
}

int PmnsBuilder::ClassifyToken() {
  if (tokbuf_ == "{") return kLeftBrace;
  if (tokbuf_ == "}") return kRightBrace;
  if (!tokbuf_.empty() && std::isalpha(static_cast<unsigned char>(tokbuf_[0]))) {
    int type = kName;
    size_t i = 1;
    for (; i < tokbuf_.size(); ++i) {
      char c = tokbuf_[i];
      if (c == '.') {
        type = kPath;
      } else if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
        break;
      }
    }
    if (i == tokbuf_.size()) return type;
  }
  int colons = 0;
  for (char c : tokbuf_) {
    if (c == ':') {
      if (++colons > 3) return kBogus;
    } else if (!absl::ascii_isdigit(c) && c != '*') {
      return kBogus;
    }
  }
  return ParsePmid();
}

int PmnsBuilder::ParsePmid() {
  int v[3] = {0, 0, 0};
  if (ScanTriple(tokbuf_.c_str(), v) == 3) {
    if (v[0] > 510) {
      Err("Illegal domain field in PMID");
      return kBogus;
    }
    if (v[1] > 4095) {
      Err("Illegal cluster field in PMID");
      return kBogus;
    }
    if (v[2] > 1023) {
      Err("Illegal item field in PMID");
      return kBogus;
    }
    tokpmid_ = MakePmID(v[0], v[1], v[2]);
    return kPmidToken;
  }
  size_t colon = tokbuf_.find(':');
  if (colon != std::string::npos && tokbuf_.compare(colon + 1, std::string::npos, "*:*") != 0) {
    Err("Illegal PMID");
    return kBogus;
  }
  const char* p = tokbuf_.c_str();
  if (!ScanInt(p, v[0])) {
    Err("Illegal PMID");
    return kBogus;
  }
  if (v[0] > 510) {
    Err("Illegal domain field in dynamic PMID");
    return kBogus;
  }
  tokpmid_ = MakeDynamicRoot(static_cast<unsigned>(v[0]) & 0xfffu);
  return kPmidToken;
}

// Pass 1: collects the blocks. Returns 0, or a negative PCP code.
int PmnsBuilder::Parse() {
  int state = 0;
  int type;
  while ((type = Lex()) > 0) {
    switch (state) {
      case 0:
        if (type != kName && type != kPath) {
          Err("Expected NAME or PATH");
          return kErrPmns;
        }
        state = 1;
        break;
      case 1:
        if (type != kLeftBrace) {
          Err("{ expected");
          return kErrPmns;
        }
        state = 2;
        break;
      case 2:
        if (type == kName) {
          state = 3;
        } else if (type == kRightBrace) {
          state = 0;
        } else {
          Err("Expected NAME or }");
          return kErrPmns;
        }
        break;
      default:
        if (type == kName) {
          state = 3;
        } else if (type == kPmidToken) {
          blocks_.back().kids.back().second = tokpmid_;
          state = 2;
        } else if (type == kRightBrace) {
          state = 0;
        } else {
          Err("Expected NAME, PMID or }");
          return kErrPmns;
        }
        break;
    }
    if (state == 1) {
      blocks_.push_back(Block{tokbuf_, {}, false});
    } else if (state == 3) {
      blocks_.back().kids.emplace_back(tokbuf_, kPmIDNull);
    } else if (state == 0 && !blocks_.empty()) {
      // names within the block just closed must be unique
      const auto& kids = blocks_.back().kids;
      for (size_t i = 0; i < kids.size(); ++i) {
        for (size_t j = i + 1; j < kids.size(); ++j) {
          if (kids[i].first == kids[j].first) {
            ErrFromLinebuf(absl::StrFormat("Duplicate name \"%s\" in subtree for \"%s\"\n",
                                           kids[i].first, blocks_.back().name));
            return kErrPmns;
          }
        }
      }
    }
  }
  return type;
}

// Hangs the block for each non-leaf child below `node`, depth first.
int PmnsBuilder::Attach(const std::string& base, int32_t node, size_t block) {
  for (const auto& [name, id] : blocks_[block].kids) {
    std::string path = base.empty() ? name : absl::StrCat(base, ".", name);
    int32_t child = pmns_.NewChild(node, name, path, id, false);
    if (id != kPmIDNull) continue;
    auto it = unattached_.find(path);
    if (it == unattached_.end() || it->second.empty()) {
      ErrFromLinebuf(absl::StrFormat(
          "Cannot find definition for non-terminal node \"%s\" in name space", path));
      return kErrPmns;
    }
    size_t sub = it->second.back();  // the latest definition wins
    it->second.pop_back();
    blocks_[sub].attached = true;
    int sts = Attach(path, child, sub);
    if (sts != 0) return sts;
  }
  return 0;
}

// With dupok 0, two names may share a PMID only at dynamic subtree roots.
int PmnsBuilder::CheckDuplicates() {
  absl::flat_hash_map<PmID, int32_t> seen;
  std::vector<int32_t> stack = {0};
  while (!stack.empty()) {
    int32_t n = stack.back();
    stack.pop_back();
    const auto& kids = pmns_.nodes_[n].kids;
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back(*it);
    PmID id = pmns_.nodes_[n].pmid;
    if (n == 0 || id == kPmIDNull) continue;
    auto [pos, added] = seen.try_emplace(id, n);
    if (!added && !IsDynamicRoot(id)) {
      ErrFromLinebuf(absl::StrFormat(
          "Duplicate metric id (%d.%d.%d) in name space for metrics \"%s\" and \"%s\"\n",
          PmIDDomain(id), PmIDCluster(id), PmIDItem(id), pmns_.PathOf(n), pmns_.PathOf(pos->second)));
      return kErrPmns;
    }
    pos->second = n;
  }
  return 0;
}

// Pass 2: joins the blocks into one tree from "root".
int PmnsBuilder::Pass2() {
  lineno_ = -1;
  for (size_t i = 0; i < blocks_.size(); ++i) unattached_[blocks_[i].name].push_back(i);
  auto roots = unattached_.find("root");
  if (roots == unattached_.end() || roots->second.empty()) {
    Err("No name space entry for \"root\"");
    return kErrPmns;
  }
  size_t root = roots->second.back();
  roots->second.pop_back();
  blocks_[root].attached = true;
  if (!roots->second.empty()) {
    Err("Multiple name space entries for \"root\"");
    return kErrPmns;
  }
  int sts = Attach("", 0, root);
  if (sts != 0) return sts;
  for (size_t i = blocks_.size(); i-- > 0;) {
    if (blocks_[i].attached) continue;
    ErrFromLinebuf(absl::StrFormat("Disconnected subtree (\"%s\") in name space", blocks_[i].name));
    sts = kErrPmns;
  }
  if (sts != 0) return sts;
  return dupok_ ? 0 : CheckDuplicates();
}

absl::StatusOr<Pmns> PmnsBuilder::Load(const std::vector<std::string>& include_dirs) {
  if (::access(fname_.c_str(), R_OK) != 0) {
    int code = -errno;
    ErrFromLinebuf(absl::StrFormat("Cannot open \"%s\"", fname_));
    return Failure(code);
  }
  internal::CppOutput cpp = internal::RunPmcpp(fname_, include_dirs);
  input_ = std::move(cpp.text);
  cpp_error_ = std::move(cpp.error);
  lineno_ = 1;
  int sts = Parse();
  if (sts == 0) sts = Pass2();
  if (sts < 0) return Failure(sts);
  return std::move(pmns_);
}

absl::StatusOr<Pmns> Pmns::LoadFile(std::string_view path, const PmnsLoadOptions& options) {
  PmnsBuilder builder(std::string(path), options.allow_duplicate_pmids);
  return builder.Load(options.include_dirs);
}

}  // namespace pmapi
