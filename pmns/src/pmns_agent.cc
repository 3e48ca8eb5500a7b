// Pmns::AddAgentNames: the name-space files of the agents a local context
// hosts.
//
// The whole file is parsed and checked before anything is added, so a bad
// file leaves the name space as it was.
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "pmapi/errors.h"
#include "pmapi/pmns.h"

namespace pmapi {
namespace {

// Returns `text` with comments replaced by spaces (newlines kept).
std::string StripComments(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool line_start = true;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "/*") == 0) {
      size_t end = text.find("*/", i + 2);
      end = end == std::string_view::npos ? text.size() : end + 2;
      for (size_t j = i; j < end; ++j) out += text[j] == '\n' ? '\n' : ' ';
      i = end - 1;
      continue;
    }
    if (line_start && text[i] == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
      if (i < text.size()) out += '\n';
      line_start = true;
      continue;
    }
    out += text[i];
    line_start = text[i] == '\n';
  }
  return out;
}

// Splits at white space; braces are tokens of their own.
std::vector<std::string> Tokens(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    if (absl::ascii_isspace(static_cast<unsigned char>(c)) || c == '{' || c == '}') {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
      if (c == '{' || c == '}') out.emplace_back(1, c);
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

bool ValidComponent(absl::string_view s) {
  if (s.empty() || !absl::ascii_isalpha(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// Reads "D:C:I" or "D:*:*" (D a number or a symbol for `own_domain`):
// the metric's PMID or the dynamic subtree root's.
bool ParseId(std::string_view tok, unsigned own_domain, PmID* out) {
  std::vector<absl::string_view> f = absl::StrSplit(absl::string_view(tok.data(), tok.size()), ':');
  if (f.size() != 3 || f[0].empty()) return false;
  unsigned d = 0, c = 0, i = 0;
  if (absl::ascii_isdigit(static_cast<unsigned char>(f[0][0]))) {
    if (!absl::SimpleAtoi(f[0], &d) || d > 510) return false;
  } else if (ValidComponent(f[0])) {
    d = own_domain;
  } else {
    return false;
  }
  if (f[1] == "*" && f[2] == "*") {
    *out = MakeDynamicRoot(d);
    return true;
  }
  if (!absl::SimpleAtoi(f[1], &c) || c > 0xfff || !absl::SimpleAtoi(f[2], &i) || i > 0x3ff) return false;
  *out = MakePmID(d, c, i);
  return true;
}

struct Entry {
  std::string name;
  PmID id = kPmIDNull;  // kPmIDNull: a non-leaf node
};

struct Block {
  std::string path;
  std::vector<Entry> entries;
  // The prefix of the entries' full names: "" for the root, else "path.".
  std::string Prefix() const { return path == "root" ? "" : path + "."; }
};

// Parses the blocks of a file; PM_ERR_PMNS names `origin` and the fault.
absl::StatusOr<std::vector<Block>> ParseBlocks(std::string_view text, unsigned domain,
                                               std::string_view origin) {
  const std::vector<std::string> toks = Tokens(StripComments(text));
  auto syntax = [&](const std::string& what) {
    return PcpError(kErrPmns, absl::StrCat(absl::string_view(origin.data(), origin.size()), ": ", what));
  };
  std::vector<Block> blocks;
  size_t i = 0;
  while (i < toks.size()) {
    Block b;
    b.path = toks[i++];
    if (i >= toks.size() || toks[i] != "{") return syntax(absl::StrCat("expected { after ", b.path));
    ++i;
    for (absl::string_view part : absl::StrSplit(b.path, '.')) {
      if (!ValidComponent(part)) return syntax(absl::StrCat("bad name ", b.path));
    }
    while (i < toks.size() && toks[i] != "}") {
      Entry e;
      e.name = toks[i++];
      if (!ValidComponent(e.name)) return syntax(absl::StrCat("bad name ", e.name));
      if (i < toks.size() && toks[i].find(':') != std::string::npos) {
        if (!ParseId(toks[i], domain, &e.id)) return syntax(absl::StrCat("bad identifier ", toks[i]));
        ++i;
      }
      b.entries.push_back(std::move(e));
    }
    if (i >= toks.size()) return syntax(absl::StrCat("missing } for ", b.path));
    ++i;
    blocks.push_back(std::move(b));
  }
  return blocks;
}

}  // namespace

absl::Status Pmns::AddAgentNames(std::string_view text, unsigned domain, std::string_view origin) {
  absl::StatusOr<std::vector<Block>> blocks = ParseBlocks(text, domain, origin);
  if (!blocks.ok()) return blocks.status();
  // A name may be given a PMID once, and only where nothing is yet; a
  // non-leaf entry may repeat one, but not stand where a metric is.
  using Kind = PmnsMatch::Kind;
  absl::flat_hash_map<std::string, bool> seen;  // full name -> has a PMID
  for (const Block& b : *blocks) {
    const std::string prefix = b.Prefix();
    for (const Entry& e : b.entries) {
      const std::string full = prefix + e.name;
      const Kind existing = Resolve(full).kind;
      auto was = seen.find(full);
      const bool clash = e.id != kPmIDNull
                             ? (was != seen.end() || existing != Kind::kMissing)
                             : (existing == Kind::kLeaf || existing == Kind::kDynamic ||
                                (was != seen.end() && was->second));
      if (clash) {
        return PcpError(kErrDuppmns, absl::StrCat(absl::string_view(origin.data(), origin.size()), ": ", full));
      }
      seen[full] = e.id != kPmIDNull;
    }
  }
  // Nodes are found by their full path, each made the first time it is met.
  auto node_at = [this](int32_t parent, std::string_view name, std::string path) {
    auto it = by_path_.find(path);
    return it != by_path_.end() ? it->second : NewChild(parent, name, std::move(path), kPmIDNull, false);
  };
  for (const Block& b : *blocks) {
    int32_t node = 0;
    if (b.path != "root") {
      std::string path;
      for (absl::string_view part : absl::StrSplit(b.path, '.')) {
        path = path.empty() ? std::string(part) : absl::StrCat(path, ".", part);
        node = node_at(node, std::string_view(part.data(), part.size()), path);
      }
    }
    const std::string prefix = b.Prefix();
    for (const Entry& e : b.entries) {
      const int32_t child = node_at(node, e.name, prefix + e.name);
      if (e.id != kPmIDNull && nodes_[child].pmid == kPmIDNull) Name(child, e.id);
    }
  }
  return absl::OkStatus();
}

}  // namespace pmapi
