#include "pmda_names.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "pmapi/errors.h"

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

bool ValidComponent(std::string_view s) {
  if (s.empty() || !absl::ascii_isalpha(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

struct ParsedId {
  bool dynamic = false;
  PmID pmid = kPmIDNull;
  int domain = 0;
};

bool ParseId(std::string_view tok, int own_domain, ParsedId* out) {
  std::vector<absl::string_view> f = absl::StrSplit(absl::string_view(tok.data(), tok.size()), ':');
  if (f.size() != 3 || f[0].empty()) return false;
  unsigned d = 0, c = 0, i = 0;
  if (absl::ascii_isdigit(static_cast<unsigned char>(f[0][0]))) {
    if (!absl::SimpleAtoi(f[0], &d) || d > 510) return false;
  } else if (ValidComponent(std::string_view(f[0].data(), f[0].size()))) {
    d = static_cast<unsigned>(own_domain);
  } else {
    return false;
  }
  out->domain = static_cast<int>(d);
  if (f[1] == "*" && f[2] == "*") {
    out->dynamic = true;
    return true;
  }
  if (!absl::SimpleAtoi(f[1], &c) || c > 0xfff || !absl::SimpleAtoi(f[2], &i) || i > 0x3ff) return false;
  out->pmid = MakePmID(d, c, i);
  return true;
}

NameTree::Node* ChildNamed(NameTree::Node* node, std::string_view name) {
  for (auto& c : node->children) {
    if (c->name == name) return c.get();
  }
  return nullptr;
}

}  // namespace

NameTree::NameTree() : root_(std::make_unique<Node>()) {}

absl::Status NameTree::AddFile(std::string_view text, int domain, std::string_view origin) {
  std::vector<std::string> toks = Tokens(StripComments(text));
  auto syntax = [&](const std::string& what) {
    return PcpError(kErrPmns, absl::StrCat(std::string(origin), ": ", what));
  };
  // Parse everything first so a bad file adds nothing.
  struct Entry {
    std::string name;
    bool has_id = false;
    ParsedId id;
  };
  struct Block {
    std::string path;
    std::vector<Entry> entries;
  };
  std::vector<Block> blocks;
  size_t i = 0;
  while (i < toks.size()) {
    Block b;
    b.path = toks[i++];
    if (i >= toks.size() || toks[i] != "{") return syntax(absl::StrCat("expected { after ", b.path));
    ++i;
    for (absl::string_view part : absl::StrSplit(b.path, '.')) {
      if (!ValidComponent(std::string_view(part.data(), part.size())))
        return syntax(absl::StrCat("bad name ", b.path));
    }
    while (i < toks.size() && toks[i] != "}") {
      Entry e;
      e.name = toks[i++];
      if (!ValidComponent(e.name)) return syntax(absl::StrCat("bad name ", e.name));
      if (i < toks.size() && toks[i].find(':') != std::string::npos) {
        if (!ParseId(toks[i], domain, &e.id)) return syntax(absl::StrCat("bad identifier ", toks[i]));
        e.has_id = true;
        ++i;
      }
      b.entries.push_back(std::move(e));
    }
    if (i >= toks.size()) return syntax(absl::StrCat("missing } for ", b.path));
    ++i;
    blocks.push_back(std::move(b));
  }
  // Check for duplicates against the tree and within the file.
  absl::flat_hash_map<std::string, bool> seen;
  for (const Block& b : blocks) {
    const std::string prefix = b.path == "root" ? "" : b.path + ".";
    for (const Entry& e : b.entries) {
      const std::string full = prefix + e.name;
      const Kind existing = Find(full).kind;
      const bool clash = e.has_id ? (seen.contains(full) || existing != Kind::kMissing)
                                  : (existing == Kind::kLeaf || existing == Kind::kDynamic ||
                                     (seen.contains(full) && seen[full]));
      if (clash) return PcpError(kErrDuppmns, absl::StrCat(std::string(origin), ": ", full));
      seen[full] = e.has_id;
    }
  }
  for (const Block& b : blocks) {
    Node* node = root_.get();
    if (b.path != "root") {
      for (absl::string_view part : absl::StrSplit(b.path, '.')) {
        Node* next = ChildNamed(node, std::string_view(part.data(), part.size()));
        if (next == nullptr) {
          node->children.push_back(std::make_unique<Node>());
          next = node->children.back().get();
          next->name = std::string(part);
        }
        node = next;
      }
    }
    const std::string prefix = b.path == "root" ? "" : b.path + ".";
    for (const Entry& e : b.entries) {
      Node* child = ChildNamed(node, e.name);
      if (child == nullptr) {
        node->children.push_back(std::make_unique<Node>());
        child = node->children.back().get();
        child->name = e.name;
      }
      if (!e.has_id) continue;
      if (e.id.dynamic) {
        child->dynamic_domain = e.id.domain;
      } else {
        child->leaf = true;
        child->pmid = e.id.pmid;
        names_[e.id.pmid].push_back(prefix + e.name);
      }
    }
  }
  return absl::OkStatus();
}

NameTree::Match NameTree::Find(std::string_view name) const {
  const Node* node = root_.get();
  if (!name.empty()) {
    for (absl::string_view part : absl::StrSplit(absl::string_view(name.data(), name.size()), '.')) {
      if (node->leaf) return Match{};
      if (node->dynamic_domain >= 0) return Match{Kind::kDynamic, node};
      const Node* next = nullptr;
      for (const auto& c : node->children) {
        if (c->name == part) next = c.get();
      }
      if (next == nullptr) return Match{};
      node = next;
    }
  }
  if (node->leaf) return Match{Kind::kLeaf, node};
  if (node->dynamic_domain >= 0) return Match{Kind::kDynamic, node};
  return Match{Kind::kInner, node};
}

std::vector<std::string> NameTree::NamesOf(PmID id) const {
  auto it = names_.find(id);
  return it == names_.end() ? std::vector<std::string>{} : it->second;
}

std::vector<PmnsChild> NameTree::ChildrenOf(const Node& node) {
  std::vector<PmnsChild> out;
  for (const auto& c : node.children) out.push_back(PmnsChild{c->name, c->leaf ? kPmnsLeafStatus : kPmnsNonLeafStatus});
  return out;
}

absl::Status NameTree::Walk(const Node& node, const std::string& path,
                            const std::function<void(const std::string&)>& leaf,
                            const std::function<absl::Status(const std::string&, int)>& dynamic) {
  if (node.leaf) {
    leaf(path);
    return absl::OkStatus();
  }
  if (node.dynamic_domain >= 0) return dynamic(path, node.dynamic_domain);
  for (const auto& c : node.children) {
    absl::Status s = Walk(*c, path.empty() ? c->name : absl::StrCat(path, ".", c->name), leaf, dynamic);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace pmapi
