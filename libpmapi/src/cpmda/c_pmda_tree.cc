// c_pmda_tree.cc: name trees an agent builds for its dynamic metrics
// (pmdaTreeCreate, pmdaTreeInsert, pmdaTreeRebuildHash, pmdaTreePMID,
// pmdaTreeName, pmdaTreeChildren, pmdaTreeSize, pmdaTreeRelease), over the
// library's Pmns. Names are kept in PCP's order (a new child goes first
// among its siblings); as in PCP, PMID-to-name lookups answer only after
// pmdaTreeRebuildHash.
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "pcp_internal.h"
#include "pmapi/errors.h"
#include "pmapi/pmns.h"

// PCP's tree begins with the root of a node tree in libpcp's layout,
// which agents read (pmdaNodeLookup from root->first, __pmDumpNameNode of
// root, as PCP's proc agent does under -D appl2): it is kept in step with
// the names, a new child first among its siblings as in PCP.
struct __pmnsTree {
  __pmnsNode* root = nullptr;
  pmapi::Pmns names;
  bool indexed = false;  // pmdaTreeRebuildHash has run
  ~__pmnsTree();
};


namespace {

__pmnsNode* NewNode(__pmnsNode* parent, std::string_view name, pmID pmid) {
  auto* n = static_cast<__pmnsNode*>(std::calloc(1, sizeof(__pmnsNode)));
  if (n == nullptr) return nullptr;
  n->name = strndup(name.data(), name.size());
  if (n->name == nullptr) {
    std::free(n);
    return nullptr;
  }
  n->pmid = pmid;
  n->parent = parent;
  if (parent != nullptr) {
    n->next = parent->first;
    parent->first = n;
  }
  return n;
}

void FreeNodes(__pmnsNode* n) {
  while (n != nullptr) {
    __pmnsNode* next = n->next;
    FreeNodes(n->first);
    std::free(n->name);
    std::free(n);
    n = next;
  }
}

}  // namespace

__pmnsTree::~__pmnsTree() { FreeNodes(root); }

namespace {

// Adds the nodes of `name` (dotted) below `root`, the last with `pmid`;
// false when out of memory.
bool AddNodes(__pmnsNode* root, std::string_view name, pmID pmid) {
  __pmnsNode* at = root;
  while (!name.empty()) {
    const size_t dot = name.find('.');
    const std::string_view part = name.substr(0, dot);
    const bool leaf = dot == std::string_view::npos;
    __pmnsNode* child = at->first;
    while (child != nullptr && part != child->name) child = child->next;
    if (child == nullptr && (child = NewNode(at, part, leaf ? pmid : PM_ID_NULL)) == nullptr) return false;
    at = child;
    name = leaf ? std::string_view() : name.substr(dot + 1);
  }
  return true;
}

// Returns a malloc'ed list of `names` in one block (pointers, then the
// strings), as agents hand name lists back, or null when out of memory.
char** PackList(const std::vector<std::string>& names) {
  size_t bytes = names.size() * sizeof(char*);
  for (const std::string& n : names) bytes += n.size() + 1;
  auto** list = static_cast<char**>(std::malloc(bytes == 0 ? 1 : bytes));
  if (list == nullptr) return nullptr;
  char* p = reinterpret_cast<char*>(list + names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    list[i] = p;
    std::memcpy(p, names[i].c_str(), names[i].size() + 1);
    p += names[i].size() + 1;
  }
  return list;
}

// Hands `names` and their `status` out as pmdaChildren does; returns
// their number, or -ENOMEM.
int HandOut(const std::vector<std::string>& names, const std::vector<int>& status, char*** offspring,
            int** leaf) {
  if (names.empty()) return 0;
  char** list = PackList(names);
  auto* st = static_cast<int*>(std::malloc(status.size() * sizeof(int)));
  if (list == nullptr || st == nullptr) {
    std::free(list);
    std::free(st);
    return -ENOMEM;
  }
  std::memcpy(st, status.data(), status.size() * sizeof(int));
  *offspring = list;
  *leaf = st;
  return static_cast<int>(names.size());
}

}  // namespace

extern "C" {

// The node `name` (a dotted path below `node` and its siblings) names in
// a tree of PCP's node layout, or null. A node is a leaf unless its PMID
// is PM_ID_NULL or a dynamic subtree's root.
__pmnsNode* pmdaNodeLookup(__pmnsNode* node, const char* name) {
  for (; node != nullptr; node = node->next) {
    const size_t length = std::strlen(node->name);
    if (std::strncmp(name, node->name, length) != 0) continue;
    if (name[length] == '\0') return node;
    const bool inner = node->pmid == PM_ID_NULL || IS_DYNAMIC_ROOT(node->pmid);
    if (name[length] == '.' && inner) return pmdaNodeLookup(node->first, name + length + 1);
  }
  return nullptr;
}

int pmdaTreeCreate(pmdaNameSpace** tree) {
  *tree = new (std::nothrow) __pmnsTree;
  if (*tree == nullptr) return -ENOMEM;
  if (((*tree)->root = NewNode(nullptr, "root", PM_ID_NULL)) == nullptr) {
    delete *tree;
    *tree = nullptr;
    return -ENOMEM;
  }
  return 0;
}

int pmdaTreeInsert(pmdaNameSpace* tree, pmID pmid, const char* name) {
  if (tree == nullptr || name == nullptr) return PM_ERR_NAME;
  absl::Status s = tree->names.AddName(name, pmapi::PmID{pmid});
  if (!s.ok()) return pmapi::PcpCode(s);
  if (tree->root == nullptr) return 0;
  return AddNodes(tree->root, name, pmid) ? 0 : -ENOMEM;
}

void pmdaTreeRebuildHash(pmdaNameSpace* tree, int) {
  if (tree != nullptr) tree->indexed = true;
}

int pmdaTreeSize(pmdaNameSpace* tree) { return tree == nullptr ? 0 : static_cast<int>(tree->names.NumNames()); }

int pmdaTreePMID(pmdaNameSpace* tree, const char* name, pmID* pmid) {
  if (tree == nullptr || name == nullptr || *name == '\0') return PM_ERR_NAME;
  absl::StatusOr<pmapi::PmID> id = tree->names.LookupName(name);
  if (!id.ok()) return PM_ERR_NAME;  // an inner node is no metric either
  *pmid = pmapi::ToPcp(*id);
  return 0;
}

int pmdaTreeName(pmdaNameSpace* tree, pmID pmid, char*** names) {
  if (tree == nullptr || !tree->indexed) return PM_ERR_PMID;
  absl::StatusOr<std::vector<std::string>> all = tree->names.NameAll(pmapi::PmID{pmid});
  if (!all.ok() || all->empty()) return PM_ERR_PMID;
  char** list = PackList(*all);
  if (list == nullptr) return -ENOMEM;
  *names = list;
  return static_cast<int>(all->size());
}

int pmdaTreeChildren(pmdaNameSpace* tree, const char* name, int traverse, char*** offspring, int** status) {
  if (tree == nullptr || name == nullptr || *name == '\0') return PM_ERR_NAME;
  std::vector<std::string> names;
  std::vector<int> leaf;
  if (traverse == 0) {
    absl::StatusOr<std::vector<pmapi::PmnsChild>> kids = tree->names.Children(name);
    if (!kids.ok()) return PM_ERR_NAME;
    for (const pmapi::PmnsChild& k : *kids) {
      names.push_back(k.name);
      leaf.push_back(k.status);
    }
  } else {
    absl::StatusOr<std::vector<std::string>> all = tree->names.Traverse(name);
    if (!all.ok()) return PM_ERR_NAME;
    names = *std::move(all);
    leaf.assign(names.size(), PMNS_LEAF_STATUS);
  }
  return HandOut(names, leaf, offspring, status);
}

void pmdaTreeRelease(pmdaNameSpace* tree) { delete tree; }

}  // extern "C"
