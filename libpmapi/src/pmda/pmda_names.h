// pmda_names.h: the name space of a local context, built from the agents'
// ASCII namespace files.
//
// A namespace file is a series of blocks "PATH { ENTRY ... }". An entry is a
// child name alone (an inner node, described by its own block) or a name and
// an identifier: "D:C:I" for a metric, "D:*:*" for a subtree whose names
// the agent of domain D serves itself. D is a number, or a symbol that
// stands for the agent's own domain (the way PCP's Install scripts fill in
// the domain). "root" is the top; any other PATH hangs below it. C-style
// comments and lines starting with '#' are ignored.
//
// This is the one place the local context keeps names; it can be swapped
// for the shared PMNS library without touching the agents.
//
// Example:
//   pmapi::NameTree tree;
//   tree.AddFile("root { test }\ntest { one TEST:0:1 }\n", 250, "root_test");
//   pmapi::NameTree::Match m = tree.Find("test.one");   // kLeaf, 250.0.1
#ifndef PMAPI_SRC_PMDA_NAMES_H_
#define PMAPI_SRC_PMDA_NAMES_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "pmapi/context.h"
#include "pmapi/types.h"

namespace pmapi {

class NameTree {
 public:
  struct Node {
    std::string name;
    bool leaf = false;
    PmID pmid = kPmIDNull;
    int dynamic_domain = -1;  // >= 0: the subtree belongs to this agent
    std::vector<std::unique_ptr<Node>> children;
  };

  enum class Kind { kMissing, kLeaf, kInner, kDynamic };
  struct Match {
    Kind kind = Kind::kMissing;
    const Node* node = nullptr;  // kLeaf, kInner, kDynamic: the node reached
  };

  NameTree();

  // Parses `text` (from `origin`, for messages) and adds its names; symbolic
  // domains become `domain`. Returns PM_ERR_PMNS for a syntax error and
  // PM_ERR_DUPPMNS for a name defined twice; nothing is added on error.
  absl::Status AddFile(std::string_view text, int domain, std::string_view origin);

  // Returns where `name` leads: a leaf, an inner node, the dynamic subtree
  // node at or above it, or nothing. "" is the root.
  Match Find(std::string_view name) const;
  // Returns every name of `id` in the static tree.
  std::vector<std::string> NamesOf(PmID id) const;
  // Returns the children of an inner node with leaf status (a dynamic
  // subtree counts as inner).
  static std::vector<PmnsChild> ChildrenOf(const Node& node);
  // Visits every leaf at or below `node` (named `path`) depth first in file
  // order, calling `dynamic` for each dynamic subtree met. Stops at the
  // first error `dynamic` returns.
  static absl::Status Walk(const Node& node, const std::string& path,
                           const std::function<void(const std::string&)>& leaf,
                           const std::function<absl::Status(const std::string&, int)>& dynamic);

 private:
  std::unique_ptr<Node> root_;
  absl::flat_hash_map<PmID, std::vector<std::string>> names_;
};

}  // namespace pmapi

#endif  // PMAPI_SRC_PMDA_NAMES_H_
