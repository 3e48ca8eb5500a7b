// bind.h: a derived metric bound in one context: the parsed tree copied
// with the operands' PMIDs and descriptors, the type, units, semantics and
// instance domain PCP's rules give each node, and the node's evaluation
// state (values of the last fetch, and the previous ones for delta() and
// rate()).
#ifndef PMAPI_DERIVE_BIND_H_
#define PMAPI_DERIVE_BIND_H_

#include <regex.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "expr.h"
#include "pmapi/types.h"

namespace pmapi::derive {

// One instance's value at a node.
struct Value {
  Inst inst = kInNull;
  AtomValue v;
};

// A compiled pattern and what it decided for each instance seen.
struct Matcher {
  Matcher() = default;
  Matcher(const Matcher&) = delete;
  Matcher& operator=(const Matcher&) = delete;
  ~Matcher() {
    if (compiled) regfree(&re);
  }
  regex_t re{};
  bool compiled = false;
  struct Seen {
    bool match = false;
    int used = 0;
  };
  std::map<Inst, Seen> seen;
  int used = 0;
  Inst exact = kInNull;  // metric[name]: the instance, once known
};

struct Bound {
  int type = 0;
  const Node* src = nullptr;
  Desc desc;
  PmID pmid = kPmIDNull;  // metric operands
  bool save_last = false;
  int mul_scale = 1;
  int div_scale = 1;
  double time_scale = -1;
  std::unique_ptr<Bound> left;
  std::unique_ptr<Bound> right;
  std::unique_ptr<Matcher> matcher;

  // Evaluation state.
  std::vector<Value> vals;
  int numval = 0;
  std::vector<Value> last;
  int last_numval = 0;
  int64_t stamp_ns = 0;
  int64_t last_stamp_ns = 0;
  bool constant_ready = false;
};

// What binding needs from the context.
struct BindEnv {
  std::function<absl::StatusOr<PmID>(const std::string&)> lookup_name;
  std::function<absl::StatusOr<Desc>(PmID)> lookup_desc;
};

// Binds `tree` (of the metric `name`): nullptr when an operand is not a
// metric of the context (silently, as PCP), or when a semantic rule fails,
// with *error set to PCP's reason and *report to PCP's report of it.
std::unique_ptr<Bound> Bind(const Node& tree, const BindEnv& env, const std::string& name,
                            std::optional<std::string>* error, std::string* report);

// PCP's report of a semantic error found while binding a metric on its
// own (not in pmAddDerived): "Semantic error: derived metric NAME: ...".
std::string SemanticReport(const std::string& name, const Bound& node, const std::string& why);

// Every metric operand's PMID, leaves first, as PCP lists them.
void OperandPmids(const Bound& root, std::vector<PmID>* out);

}  // namespace pmapi::derive

#endif  // PMAPI_DERIVE_BIND_H_
