// The name tree and the queries on it.
#include "pmapi/pmns.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "pmapi/errors.h"

namespace pmapi {
namespace {

constexpr uint32_t kFlagBit = 0x80000000u;

absl::string_view AbslView(std::string_view s) { return absl::string_view(s.data(), s.size()); }

std::string JoinPath(std::string_view base, std::string_view name) {
  if (base.empty()) return std::string(name);
  return absl::StrCat(AbslView(base), ".", AbslView(name));
}

}  // namespace

Pmns::Pmns() { nodes_.push_back(Node{"root", -1, -1, {}, kPmIDNull, 0}); }

Pmns Pmns::ForAgents() {
  Pmns ns;
  ns.show_empty_ = true;
  return ns;
}

int32_t Pmns::NewChild(int32_t parent, std::string_view name, std::string path,
                       PmID id, bool at_front) {
  int32_t index = static_cast<int32_t>(nodes_.size());
  nodes_.push_back(Node{std::string(name), parent, -1, {}, kPmIDNull, 0});
  std::vector<int32_t>& kids = nodes_[parent].kids;
  if (at_front) {
    kids.insert(kids.begin(), index);
  } else {
    kids.push_back(index);
  }
  // The first node of a path wins, as PCP's search stops at the first match.
  by_path_.emplace(std::move(path), index);
  if (id != kPmIDNull) Name(index, id);
  return index;
}

void Pmns::Name(int32_t node, PmID id) {
  nodes_[node].pmid = id;
  auto [it, fresh] = by_pmid_.try_emplace(id, node);
  if (!fresh) {
    nodes_[node].same_pmid = it->second;
    it->second = node;
  }
  for (int32_t n = node; n >= 0; n = nodes_[n].parent) nodes_[n].named_below++;
}

int32_t Pmns::Find(std::string_view name) const {
  auto it = by_path_.find(AbslView(name));
  if (it == by_path_.end() || !Visible(it->second)) return -1;
  return it->second;
}

std::string Pmns::PathOf(int32_t node) const {
  std::vector<int32_t> chain;
  for (int32_t n = node; n > 0; n = nodes_[n].parent) chain.push_back(n);
  std::string path;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (it != chain.rbegin()) path += '.';
    path += nodes_[*it].name;
  }
  return path;
}

bool Pmns::PreorderBefore(int32_t a, int32_t b) const {
  std::vector<int32_t> pa, pb;  // root first
  for (int32_t n = a; n >= 0; n = nodes_[n].parent) pa.push_back(n);
  for (int32_t n = b; n >= 0; n = nodes_[n].parent) pb.push_back(n);
  std::reverse(pa.begin(), pa.end());
  std::reverse(pb.begin(), pb.end());
  size_t i = 0;
  while (i < pa.size() && i < pb.size() && pa[i] == pb[i]) ++i;
  if (i == pa.size()) return i != pb.size();  // a is b or an ancestor of b
  if (i == pb.size()) return false;
  const std::vector<int32_t>& kids = nodes_[pa[i - 1]].kids;
  return std::find(kids.begin(), kids.end(), pa[i]) <
         std::find(kids.begin(), kids.end(), pb[i]);
}

std::vector<int32_t> Pmns::PreorderRanks() const {
  std::vector<int32_t> rank(nodes_.size(), 0);
  std::vector<int32_t> stack = {0};
  int32_t next = 0;
  while (!stack.empty()) {
    const int32_t n = stack.back();
    stack.pop_back();
    rank[n] = next++;
    const std::vector<int32_t>& kids = nodes_[n].kids;
    stack.insert(stack.end(), kids.rbegin(), kids.rend());
  }
  return rank;
}

absl::Status Pmns::AddName(std::string_view name, PmID id) {
  if (id != kPmIDNull && (ToPcp(id) & kFlagBit) != 0) return PcpError(kErrPmid);
  int32_t node = 0;
  size_t start = 0;
  while (true) {
    size_t dot = name.find('.', start);
    std::string_view part = name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    int32_t match = -1;
    for (int32_t kid : nodes_[node].kids) {
      if (nodes_[kid].name == part) {
        match = kid;
        break;
      }
    }
    if (match < 0) break;
    if (dot == std::string_view::npos) {
      return nodes_[match].pmid == id ? absl::OkStatus() : PcpError(kErrPmid);
    }
    node = match;
    start = dot + 1;
  }
  // Create the rest of the path: the first new node goes in front of its
  // siblings, the others are only children.
  bool first = true;
  while (true) {
    size_t dot = name.find('.', start);
    bool last = dot == std::string_view::npos;
    std::string_view part = name.substr(start, last ? std::string_view::npos : dot - start);
    std::string path(name.substr(0, last ? name.size() : dot));
    node = NewChild(node, part, std::move(path), last ? id : kPmIDNull, first);
    first = false;
    if (last) return absl::OkStatus();
    start = dot + 1;
  }
}

PmnsMatch Pmns::Resolve(std::string_view name) const {
  using Kind = PmnsMatch::Kind;
  if (name.empty()) return PmnsMatch{Kind::kNonLeaf, kPmIDNull};
  for (size_t start = 0;;) {
    const size_t dot = name.find('.', start);
    const int32_t node = Find(name.substr(0, dot));
    if (node < 0) return PmnsMatch{};
    const PmID id = nodes_[node].pmid;
    if (IsDynamicRoot(id)) return PmnsMatch{Kind::kDynamic, id, dot == std::string_view::npos};
    if (dot == std::string_view::npos) {
      return id == kPmIDNull ? PmnsMatch{Kind::kNonLeaf, id} : PmnsMatch{Kind::kLeaf, id};
    }
    if (id != kPmIDNull) return PmnsMatch{};  // nothing lies below a leaf
    start = dot + 1;
  }
}

absl::StatusOr<PmID> Pmns::LookupName(std::string_view name) const {
  int32_t node = Find(name);
  if (node >= 0) {
    if (!nodes_[node].kids.empty()) return PcpError(kErrNonleaf);
    return nodes_[node].pmid;
  }
  // A name below the root of a dynamic subtree resolves to that root.
  for (size_t dot = name.rfind('.'); dot != std::string_view::npos; dot = name.rfind('.', dot - 1)) {
    int32_t prefix = Find(name.substr(0, dot));
    if (prefix >= 0 && nodes_[prefix].kids.empty() && IsDynamicRoot(nodes_[prefix].pmid)) {
      return nodes_[prefix].pmid;
    }
    if (dot == 0) break;
  }
  return PcpError(kErrName);
}

absl::StatusOr<std::vector<std::string>> Pmns::NameAll(PmID id) const {
  if (IsDynamicRoot(id)) return PcpError(kErrPmid);
  auto it = by_pmid_.find(id);
  if (it == by_pmid_.end()) return PcpError(kErrPmid);
  std::vector<int32_t> order;
  for (int32_t n = it->second; n >= 0; n = nodes_[n].same_pmid) order.push_back(n);
  // PCP lists the names last-in-tree-order first. A PMID has a name or
  // two; for the many names a name space with duplicate PMIDs can give one,
  // a single walk of the tree ranks them all.
  constexpr size_t kFewNames = 8;
  if (order.size() <= kFewNames) {
    std::sort(order.begin(), order.end(),
              [this](int32_t a, int32_t b) { return PreorderBefore(b, a); });
  } else {
    const std::vector<int32_t> rank = PreorderRanks();
    std::sort(order.begin(), order.end(), [&rank](int32_t a, int32_t b) { return rank[a] > rank[b]; });
  }
  std::vector<std::string> names;
  names.reserve(order.size());
  for (int32_t n : order) names.push_back(PathOf(n));
  return names;
}

absl::StatusOr<std::string> Pmns::NameID(PmID id) const {
  absl::StatusOr<std::vector<std::string>> all = NameAll(id);
  if (!all.ok()) return all.status();
  return std::move(all->front());
}

absl::StatusOr<std::vector<PmnsChild>> Pmns::Children(std::string_view name) const {
  int32_t node = name.empty() ? 0 : Find(name);
  if (node < 0) return PcpError(kErrName);
  std::vector<PmnsChild> out;
  for (int32_t kid : nodes_[node].kids) {
    if (!Visible(kid)) continue;
    const Node& k = nodes_[kid];
    bool leaf = k.kids.empty() && k.pmid != kPmIDNull && !IsDynamicRoot(k.pmid);
    out.push_back(PmnsChild{k.name, leaf ? kPmnsLeafStatus : kPmnsNonLeafStatus});
  }
  return out;
}

absl::Status Pmns::WalkFrom(int32_t node, std::string path,
                           const std::function<absl::Status(std::string&, PmID)>& visit) const {
  // An explicit stack: names added one by one may nest arbitrarily deep.
  std::vector<std::pair<int32_t, std::string>> stack;
  stack.emplace_back(node, std::move(path));
  while (!stack.empty()) {
    auto [n, name] = std::move(stack.back());
    stack.pop_back();
    size_t mark = stack.size();
    for (int32_t kid : nodes_[n].kids) {
      if (Visible(kid)) stack.emplace_back(kid, JoinPath(name, nodes_[kid].name));
    }
    // A named node without visible children counts as a leaf.
    if (stack.size() == mark) {
      if (n == 0 || nodes_[n].pmid == kPmIDNull) continue;
      absl::Status s = visit(name, nodes_[n].pmid);
      if (!s.ok()) return s;
      continue;
    }
    std::reverse(stack.begin() + mark, stack.end());
  }
  return absl::OkStatus();
}

Pmns Pmns::Trimmed(const std::function<bool(PmID)>& keep) const {
  Pmns out = *this;
  for (auto it = out.by_pmid_.begin(); it != out.by_pmid_.end();) {
    if (keep(it->first)) {
      ++it;
      continue;
    }
    for (int32_t leaf = it->second; leaf >= 0; leaf = out.nodes_[leaf].same_pmid) {
      for (int32_t n = leaf; n >= 0; n = out.nodes_[n].parent) out.nodes_[n].named_below--;
    }
    out.by_pmid_.erase(it++);
  }
  return out;
}

absl::Status Pmns::Walk(std::string_view name,
                        const std::function<absl::Status(const std::string&, PmID)>& visit) const {
  int32_t node = name.empty() ? 0 : Find(name);
  if (node < 0) return PcpError(kErrName);
  return WalkFrom(node, std::string(name), [&visit](std::string& n, PmID id) { return visit(n, id); });
}

absl::StatusOr<std::vector<std::string>> Pmns::Traverse(std::string_view name) const {
  int32_t node = name.empty() ? 0 : Find(name);
  if (node < 0) return PcpError(kErrName);
  std::vector<std::string> out;
  WalkFrom(node, std::string(name), [&out](std::string& n, PmID) {
    out.push_back(std::move(n));
    return absl::OkStatus();
  }).IgnoreError();
  return out;
}

}  // namespace pmapi
