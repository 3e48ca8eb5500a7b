// expr.h: the parsed form of a derived metric expression (pmRegisterDerived's
// language) and the parser that makes it.
//
// A parse yields an immutable tree shared by every context that binds it;
// binding (bind.h) copies it into a per-context tree with descriptors and
// evaluation state. Node kinds carry PCP's numbering, which its diagnostics
// and error texts use.
#ifndef PMAPI_DERIVE_EXPR_H_
#define PMAPI_DERIVE_EXPR_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "pmapi/types.h"

namespace pmapi::derive {

// True for the numeric types (32- and 64-bit integers, float, double).
inline bool IsArithmetic(int type) { return type >= kType32 && type <= kTypeDouble; }

// The result type of arithmetic on two numeric types (as in ANSI C), the
// type binding gives an operator's node and evaluation converts to.
inline int Promote(int l, int r) {
  if (l == kTypeDouble || r == kTypeDouble) return kTypeDouble;
  if (l == kTypeFloat || r == kTypeFloat) return kTypeFloat;
  if (l == kTypeU64 || r == kTypeU64) return kTypeU64;
  if (l == kType64 || r == kType64) return kType64;
  if (l == kTypeU32 || r == kTypeU32) return kTypeU32;
  return kType32;
}

// Expression node kinds, numbered as PCP numbers them.
enum NodeType : int {
  kNInteger = 1,
  kNName = 2,
  kNPlus = 3,
  kNMinus = 4,
  kNStar = 5,
  kNSlash = 6,
  kNAvg = 7,
  kNCount = 8,
  kNDelta = 9,
  kNMax = 10,
  kNMin = 11,
  kNSum = 12,
  kNAnon = 13,
  kNRate = 14,
  kNInstant = 15,
  kNDouble = 16,
  kNLt = 17,
  kNLeq = 18,
  kNEq = 19,
  kNGeq = 20,
  kNGt = 21,
  kNNeq = 22,
  kNAnd = 23,
  kNOr = 24,
  kNNot = 25,
  kNNeg = 26,
  kNQuest = 27,
  kNColon = 28,
  kNRescale = 29,
  kNScale = 30,
  kNDefined = 31,
  kNFilterInst = 32,
  kNPattern = 33,
  kNScalar = 34,
};

struct Node {
  int type = 0;
  // Metric name, constant text, instance name or pattern.
  std::string value;
  // Constants, anon() operands and rescale() units carry their descriptor.
  Desc desc;
  // The operand of delta() and rate(): keep the previous sample.
  bool save_last = false;
  // Patterns: a regular expression (matchinst, (expr)[...]) or an exact
  // instance name (metric[...]); `invert` for matchinst(!/re/, ...).
  bool regex = false;
  bool invert = false;
  // Levels of nodes from here to the deepest leaf (1 for a leaf).
  int depth = 1;
  std::shared_ptr<const Node> left;
  std::shared_ptr<const Node> right;
};

// PCP's long name for a node kind ("PLUS", "NAME", ...).
const char* NodeTypeName(int type);
// PCP's operator text for a node kind ("+", "<=", ...), or nullptr.
const char* NodeTypeOp(int type);

// The outcome of a parse: a tree, or where and why it failed.
struct ParseResult {
  std::shared_ptr<const Node> tree;
  // On failure: the offset in the expression of the token PCP's parser was
  // looking at (-1 for an empty expression), and the diagnostic text
  // (pmDerivedErrStr), which PCP leaves unset for some errors.
  int error_offset = 0;
  std::optional<std::string> error;
};

// Parses `expr` as PCP 6.0.3's parser does, with its diagnostics.
ParseResult Parse(std::string_view expr);

}  // namespace pmapi::derive

#endif  // PMAPI_DERIVE_EXPR_H_
