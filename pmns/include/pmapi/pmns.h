// pmapi/pmns.h: the performance metrics name space (PMNS).
//
// A Pmns maps dotted metric names to PMIDs and back, and answers the
// questions PCP's pmLookupName, pmNameID, pmNameAll, pmGetChildrenStatus and
// pmTraversePMNS answer for a local name space, with PCP 6.0.3's results,
// orders and error codes. A Pmns is built from an ASCII PMNS file (as
// pmLoadASCIINameSpace does, including its pmcpp preprocessing), name by
// name with AddName (as PCP builds an archive's name space from its
// metadata), or from the name-space files of the agents a local context
// hosts (AddAgentNames), whose dynamic subtrees Resolve points out.
//
// Example:
//   absl::StatusOr<pmapi::Pmns> ns = pmapi::Pmns::LoadFile("/var/lib/pcp/pmns/root");
//   if (!ns.ok()) return ns.status();        // PM_ERR_PMNS and PCP's diagnostic
//   absl::StatusOr<pmapi::PmID> id = ns->LookupName("kernel.all.load");
//   absl::StatusOr<std::vector<pmapi::PmnsChild>> kids = ns->Children("kernel");
//
// A Pmns is a value: copy it, move it, query it from any number of threads
// while nobody modifies it.
#ifndef PMAPI_PMNS_H_
#define PMAPI_PMNS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pmapi/types.h"

namespace pmapi {

// pmGetChildrenStatus's per-child status values.
inline constexpr int kPmnsLeafStatus = 0;
inline constexpr int kPmnsNonLeafStatus = 1;

// The reserved domain that marks the root of a dynamic subtree: the node's
// PMID is 511.<real domain>.0.
inline constexpr unsigned kDynamicPmidDomain = 511;

// Returns true if `id` names the root of a dynamic subtree.
[[nodiscard]] inline constexpr bool IsDynamicRoot(PmID id) {
  return PmIDDomain(id) == kDynamicPmidDomain && PmIDItem(id) == 0;
}

// Returns the PMID PCP gives a dynamic subtree root served by `domain`.
// REQUIRES: domain < 4096.
[[nodiscard]] inline constexpr PmID MakeDynamicRoot(unsigned domain) {
  return MakePmID(kDynamicPmidDomain, domain, 0);
}

// Returns the domain of the agent that serves the dynamic subtree whose
// root has PMID `id`. REQUIRES: IsDynamicRoot(id).
[[nodiscard]] inline constexpr unsigned DynamicRootDomain(PmID id) { return PmIDCluster(id); }

// One immediate descendant of a PMNS node.
struct PmnsChild {
  std::string name;  // relative to the parent
  int status = kPmnsLeafStatus;

  friend bool operator==(const PmnsChild&, const PmnsChild&) = default;
};

// Where a name leads (Pmns::Resolve).
struct PmnsMatch {
  enum class Kind { kMissing, kLeaf, kNonLeaf, kDynamic };
  Kind kind = Kind::kMissing;
  // kLeaf: the metric's PMID; kDynamic: the PMID of the dynamic subtree
  // root at or above the name.
  PmID pmid = kPmIDNull;
  // kDynamic: the name is the subtree root itself, not a name below it.
  bool at_root = false;
};

// How LoadFile reads a file.
struct PmnsLoadOptions {
  // false: two leaves with the same PMID make the load fail (dupok 0).
  bool allow_duplicate_pmids = true;
  // Directories searched for #include files after the name as given and the
  // directory of the loaded file; PCP's last resort is $PCP_VAR_DIR/pmns.
  std::vector<std::string> include_dirs = {"/var/lib/pcp/pmns"};
};

class Pmns {
 public:
  // An empty name space: just the root.
  Pmns();

  // An empty name space for the agents of a local context: a non-leaf node
  // without any name below it stays visible (an agent's file may declare
  // one), where PCP's loaded name spaces hide it.
  [[nodiscard]] static Pmns ForAgents();

  // Loads an ASCII PMNS file as pmLoadASCIINameSpace(path, dupok) does.
  // Returns PM_ERR_PMNS for bad syntax, preprocessor errors and structural
  // errors, with a message equal to what PCP prints on stderr (it names
  // `path` as given); returns -errno if the file cannot be read.
  static absl::StatusOr<Pmns> LoadFile(std::string_view path,
                                       const PmnsLoadOptions& options = {});

  // Adds one name as PCP adds an archive's names: missing non-leaf nodes are
  // created, a new child goes first among its siblings. Returns OK if the
  // name already has this PMID, PM_ERR_PMID if it exists with another PMID
  // or is a non-leaf node. REQUIRES: the flag bit of `id` is clear, or id is
  // kPmIDNull (anything else gives PM_ERR_PMID).
  absl::Status AddName(std::string_view name, PmID id);

  // Adds the names of one agent's name-space file, `text`. The file is a
  // series of blocks "PATH { ENTRY ... }": an entry is a child name alone
  // (a non-leaf node, described by a block of its own) or a name and an
  // identifier, "D:C:I" for a metric or "D:*:*" for a subtree the agent of
  // domain D serves itself. D is a number, or a symbol that stands for
  // `domain` (as PCP's Install scripts fill in the agent's domain). "root"
  // is the top; any other PATH hangs below it, and children keep the
  // file's order. C comments and lines starting with '#' are ignored.
  // Returns PM_ERR_PMNS for a syntax error and PM_ERR_DUPPMNS for a name
  // defined twice (in the file, or already here), with `origin` in the
  // message; nothing is added on error.
  absl::Status AddAgentNames(std::string_view text, unsigned domain, std::string_view origin);

  // Returns where `name` leads, walking it from the top: a leaf, a non-leaf
  // node ("" is the root), the first dynamic subtree root on the way, or
  // nothing (also for a name that goes on below a leaf).
  [[nodiscard]] PmnsMatch Resolve(std::string_view name) const;

  // Returns the PMID of a leaf (pmLookupName of one name). A name below the
  // root of a dynamic subtree gives that root's PMID. Errors: PM_ERR_NONLEAF
  // for a non-leaf node, PM_ERR_NAME for an unknown name.
  absl::StatusOr<PmID> LookupName(std::string_view name) const;

  // Returns one name of `id` (pmNameID), PM_ERR_PMID if it has none or is
  // the PMID of a dynamic subtree root.
  absl::StatusOr<std::string> NameID(PmID id) const;

  // Returns all names of `id` in PCP's order (pmNameAll), PM_ERR_PMID as
  // for NameID.
  absl::StatusOr<std::vector<std::string>> NameAll(PmID id) const;

  // Returns the children of a node in PCP's order; "" is the root. A leaf,
  // including a dynamic subtree root, has no children. PM_ERR_NAME for an
  // unknown name.
  absl::StatusOr<std::vector<PmnsChild>> Children(std::string_view name) const;

  // Returns the full names of all leaves at or below `name`, depth first in
  // PCP's order (pmTraversePMNS); "" is the root. PM_ERR_NAME for an unknown
  // name.
  absl::StatusOr<std::vector<std::string>> Traverse(std::string_view name) const;

  // As Traverse, calling `visit` with each name and its PMID (a dynamic
  // subtree root is one of them) instead of listing them. Stops at, and
  // returns, the first error `visit` returns.
  absl::Status Walk(std::string_view name,
                    const std::function<absl::Status(const std::string&, PmID)>& visit) const;

  // Returns the number of names with a PMID (leaves, dynamic roots).
  [[nodiscard]] size_t NumNames() const { return nodes_[0].named_below; }

  // Returns a copy in which every name whose PMID `keep` refuses is hidden,
  // with the non-leaf nodes left without names (pmTrimNameSpace on an
  // archive: only the metrics the archive holds stay visible).
  [[nodiscard]] Pmns Trimmed(const std::function<bool(PmID)>& keep) const;

 private:
  friend class PmnsBuilder;

  struct Node {
    std::string name;  // one component
    int32_t parent = -1;
    int32_t same_pmid = -1;  // the next node with this node's PMID, or -1
    std::vector<int32_t> kids;  // in PCP's child order
    PmID pmid = kPmIDNull;     // kPmIDNull for a non-leaf node
    // Nodes with a PMID at or below this one. PCP hides a node without any
    // (an empty non-leaf block) from lookups and child lists.
    uint32_t named_below = 0;
  };

  // Appends (or with at_front, prepends) a child of `parent` and indexes it
  // under `path`, its full name. Returns the new node's index.
  int32_t NewChild(int32_t parent, std::string_view name, std::string path,
                   PmID id, bool at_front);
  // Gives the non-leaf node `node`, which has no PMID yet, the PMID `id`.
  void Name(int32_t node, PmID id);
  // Returns the node called `name` if PCP can see it, else -1.
  int32_t Find(std::string_view name) const;
  bool Visible(int32_t node) const { return show_empty_ || nodes_[node].named_below > 0; }
  std::string PathOf(int32_t node) const;
  // Returns true if `a` comes before `b` in a depth-first walk.
  bool PreorderBefore(int32_t a, int32_t b) const;
  // Returns every node's position in a depth-first walk of the whole tree.
  std::vector<int32_t> PreorderRanks() const;
  // Walks the names at or below `node`; `visit` may move from the name.
  absl::Status WalkFrom(int32_t node, std::string path,
                        const std::function<absl::Status(std::string&, PmID)>& visit) const;

  std::vector<Node> nodes_;  // nodes_[0] is the root
  absl::flat_hash_map<std::string, int32_t> by_path_;
  // The latest node given each PMID; the others follow its same_pmid.
  absl::flat_hash_map<PmID, int32_t> by_pmid_;
  bool show_empty_ = false;  // ForAgents
};

}  // namespace pmapi

#endif  // PMAPI_PMNS_H_
