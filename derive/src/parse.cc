// The parser: recursive descent over PCP's grammar, reporting errors where
// and as PCP's LALR parser does.
//
// PCP's parser reports a syntax error through error rules: after certain
// prefixes (a binary operator, a metric name, "avg(", ...) an error is
// explained by that prefix ("Arithmetic expression expected to follow
// PLUS"). Which explanation wins is the innermost such prefix still open
// when the parser meets a token it cannot use. Here each open prefix is a
// frame pushed while its construct is being read; a failure takes the
// innermost frame's text. Where PCP's parser would first reduce a complete
// operand (closing the frames inside it), the failure is raised by the
// caller after the operand's frames are gone, which gives the same answer.
#include <regex.h>
#include <strings.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "expr.h"
#include "lexer.h"
#include "pmapi/units.h"
#include "pmapi/strings.h"

namespace pmapi::derive {
namespace {

struct Typetab {
  int node;
  const char* name;
  const char* op;
};

constexpr Typetab kTypes[] = {
    {kNInteger, "INTEGER", nullptr}, {kNDouble, "DOUBLE", nullptr}, {kNName, "NAME", nullptr},
    {kNPlus, "PLUS", "+"},           {kNMinus, "MINUS", "-"},      {kNStar, "STAR", "*"},
    {kNSlash, "SLASH", "/"},         {kNQuest, "QUEST", "?"},      {kNColon, "COLON", ":"},
    {kNAvg, "AVG", nullptr},         {kNCount, "COUNT", nullptr},  {kNDelta, "DELTA", nullptr},
    {kNMax, "MAX", nullptr},         {kNMin, "MIN", nullptr},      {kNSum, "SUM", nullptr},
    {kNAnon, "ANON", nullptr},       {kNRate, "RATE", nullptr},    {kNInstant, "INSTANT", nullptr},
    {kNRescale, "RESCALE", nullptr}, {kNScale, "SCALE", nullptr},  {kNDefined, "DEFINED", nullptr},
    {kNFilterInst, "FILTERINST", nullptr}, {kNScalar, "SCALAR", nullptr},
    {kNPattern, "PATTERN", nullptr}, {kNLt, "LT", "<"},            {kNLeq, "LEQ", "<="},
    {kNEq, "EQ", "=="},              {kNGeq, "GEQ", ">="},         {kNGt, "GT", ">"},
    {kNNeq, "NEQ", "!="},            {kNAnd, "AND", "&&"},         {kNOr, "OR", "||"},
    {kNNot, "NOT", "!"},             {kNNeg, "NEG", "-"},
};

// A binary operator token: its node kind and precedence (higher binds
// tighter; all are left associative).
struct BinaryOp {
  Tok tok;
  int node;
  int prec;
};

constexpr int kPrecTernary = 1;
constexpr int kPrecNot = 3;
constexpr int kPrecAdd = 5;

constexpr BinaryOp kBinary[] = {
    {kTQuest, kNQuest, kPrecTernary}, {kTAnd, kNAnd, 2}, {kTOr, kNOr, 2},
    {kTLt, kNLt, 4},  {kTLeq, kNLeq, 4}, {kTEq, kNEq, 4}, {kTGeq, kNGeq, 4},
    {kTGt, kNGt, 4},  {kTNeq, kNNeq, 4}, {kTPlus, kNPlus, kPrecAdd},
    {kTMinus, kNMinus, kPrecAdd}, {kTStar, kNStar, 6}, {kTSlash, kNSlash, 6},
};

const BinaryOp* FindBinary(Tok t) {
  for (const BinaryOp& b : kBinary) {
    if (b.tok == t) return &b;
  }
  return nullptr;
}

// Tokens that may follow a complete expression somewhere in the grammar:
// after a metric name PCP's parser accepts exactly these.
bool CanFollowExpr(Tok t) {
  switch (t) {
    case kTEos: case kTComma: case kTLparen: case kTRparen: case kTColon:
      return true;
    default:
      return FindBinary(t) != nullptr;
  }
}

// The functions whose operand is a single metric name.
struct NameFunction {
  Tok tok;
  int node;
  const char* text;
};

constexpr NameFunction kNameFunctions[] = {
    {kTAnon, kNAnon, "anon("},     {kTAvg, kNAvg, "avg("},       {kTCount, kNCount, "count("},
    {kTDelta, kNDelta, "delta("},  {kTMax, kNMax, "max("},       {kTMin, kNMin, "min("},
    {kTSum, kNSum, "sum("},        {kTRate, kNRate, "rate("},    {kTInstant, kNInstant, "instant("},
    {kTDefined, kNDefined, nullptr},
};

using NodePtr = std::shared_ptr<Node>;

// Deeper input than this is refused (PCP's parser stack is bounded too,
// and binding and evaluation recurse over the tree). One thousand levels
// keep the recursion within a thread's stack under the sanitizers too.
constexpr int kMaxDepth = 1000;

Desc ConstDesc(int type) {
  Desc d;
  d.pmid = kPmIDNull;
  d.type = type;
  d.indom = kInDomNull;
  d.sem = kSemDiscrete;
  return d;
}

class Parser {
 public:
  explicit Parser(std::string_view expr) : lex_(expr) {}

  ParseResult Run();

 private:
  // Token handling: the lookahead is read only when needed, as PCP's parser
  // reads it, so an action's error points at the last token read.
  const Token& Peek();
  void Consume() { have_ = false; }
  bool Failed() const { return failed_; }
  // A syntax error at the lookahead, explained by the innermost frame.
  void Fail();
  // Consumes the lookahead when it is `t`; otherwise fails there.
  bool Expect(Tok t) {
    if (Peek().tok != t) {
      Fail();
      return false;
    }
    Consume();
    return true;
  }
  // An error found by an action, at the last token read.
  void FailWith(std::string why);

  NodePtr Defn();
  NodePtr Initial(Tok t);
  NodePtr Expr(int min_prec);
  NodePtr Operand();
  NodePtr Rest(NodePtr left, int min_prec);
  NodePtr NameOperand();
  NodePtr Parenthesised();
  NodePtr InstanceFilter(NodePtr subject, bool regex);
  NodePtr NameFunc(const NameFunction& f);
  NodePtr Rescale();
  NodePtr Matchinst();
  NodePtr Scalar();
  NodePtr Mkconst();
  bool Spec(Desc* d);
  NodePtr Pattern();
  // Sets n's depth from its operands; fails past kMaxDepth.
  NodePtr Deepen(NodePtr n);

  Lexer lex_;
  int nesting_ = 0;
  Token tok_;
  bool have_ = false;
  bool failed_ = false;
  int error_offset_ = 0;
  std::optional<std::string> error_;
  std::vector<std::string> frames_;

  struct Frame {
    Frame(Parser* p, std::string text) : p_(p) { p_->frames_.push_back(std::move(text)); }
    ~Frame() { p_->frames_.pop_back(); }
    Parser* p_;
  };
};

const Token& Parser::Peek() {
  if (!have_) {
    tok_ = lex_.Next();
    have_ = true;
  }
  return tok_;
}

void Parser::Fail() {
  if (failed_) return;
  failed_ = true;
  error_offset_ = Peek().offset;
  if (tok_.tok == kTError) {
    error_ = lex_.error();
  } else if (!frames_.empty()) {
    error_ = frames_.back();
  }
}

void Parser::FailWith(std::string why) {
  if (failed_) return;
  failed_ = true;
  error_offset_ = tok_.offset;
  error_ = std::move(why);
}

std::string Follow(const char* what, const char* after) {
  return std::string(what) + " expected to follow " + after;
}

std::string Unexpected(const char* prefix, const char* what) {
  return std::string(prefix) + " '" + what + "'";
}

ParseResult Parser::Run() {
  NodePtr tree = Defn();
  ParseResult r;
  if (failed_ || tree == nullptr) {
    r.error_offset = error_offset_;
    r.error = error_;
    return r;
  }
  r.tree = std::move(tree);
  return r;
}

NodePtr Parser::Defn() {
  Tok t = Peek().tok;
  NodePtr e;
  if (t == kTLparen) {
    // An opening parenthesis at the start has its own explanation.
    Consume();
    Frame f(this, Unexpected("Unexpected initial", "("));
    e = Expr(0);
    if (Failed()) return nullptr;
    if (Peek().tok != kTRparen) {
      Fail();
      return nullptr;
    }
    Consume();
    if (Peek().tok == kTInstName) e = InstanceFilter(e, true);
    e = Rest(e, 0);
  } else if (t != kTMinus && t != kTNot && FindBinary(t) != nullptr) {
    return Initial(t);
  } else if (t == kTRparen || t == kTColon) {
    return Initial(t);
  } else {
    e = Expr(0);
  }
  if (Failed()) return nullptr;
  t = Peek().tok;
  if (t == kTEos) return e;
  if (t == kTLparen || t == kTRparen) {
    Consume();
    Frame f(this, Unexpected("Unexpected", t == kTLparen ? "(" : ")"));
    Peek();
    Fail();
    return nullptr;
  }
  Fail();
  return nullptr;
}

// An operator or parenthesis that cannot start an expression.
NodePtr Parser::Initial(Tok t) {
  static const std::pair<Tok, const char*> kText[] = {
      {kTPlus, "+"},  {kTStar, "*"},  {kTSlash, "/"}, {kTRparen, ")"}, {kTLt, "<"},
      {kTLeq, "<="},  {kTEq, "=="},   {kTGeq, ">="},  {kTGt, ">"},     {kTNeq, "!="},
      {kTAnd, "&&"},  {kTOr, "||"},   {kTQuest, "?"}, {kTColon, ":"},
  };
  const char* text = "?";
  for (const auto& [tok, s] : kText) {
    if (tok == t) text = s;
  }
  Consume();
  Frame f(this, Unexpected("Unexpected initial", text));
  Peek();
  Fail();
  return nullptr;
}

NodePtr Parser::Expr(int min_prec) {
  if (++nesting_ > kMaxDepth) {
    FailWith("");
    error_.reset();
    return nullptr;
  }
  NodePtr left = Operand();
  if (Failed()) return nullptr;
  NodePtr e = Rest(std::move(left), min_prec);
  nesting_--;
  return e;
}

NodePtr Parser::Deepen(NodePtr n) {
  if (n == nullptr) return n;
  int below = 0;
  if (n->left != nullptr) below = n->left->depth;
  if (n->right != nullptr && n->right->depth > below) below = n->right->depth;
  n->depth = below + 1;
  if (n->depth > kMaxDepth) {
    FailWith("");
    error_.reset();
    return nullptr;
  }
  return n;
}

// Continues `left` with binary operators binding tighter than min_prec.
NodePtr Parser::Rest(NodePtr left, int min_prec) {
  for (;;) {
    const BinaryOp* op = FindBinary(Peek().tok);
    if (op == nullptr || op->prec <= min_prec) return left;
    Consume();
    auto n = std::make_shared<Node>();
    n->type = op->node;
    n->left = left;
    if (op->node == kNQuest) {
      Frame quest(this, Follow("Arithmetic expression", "QUEST"));
      NodePtr yes = Expr(0);
      if (Failed()) return nullptr;
      if (Peek().tok != kTColon) {
        Fail();
        return nullptr;
      }
      Consume();
      Frame colon(this, Follow("Arithmetic expression", "COLON"));
      NodePtr no = Expr(kPrecTernary);
      if (Failed()) return nullptr;
      auto c = std::make_shared<Node>();
      c->type = kNColon;
      c->left = yes;
      c->right = no;
      n->right = Deepen(c);
    } else {
      const bool boolean = op->node == kNAnd || op->node == kNOr;
      Frame f(this, Follow(boolean ? "Boolean expression" : "Arithmetic expression",
                           NodeTypeName(op->node)));
      n->right = Expr(op->prec);
      if (Failed()) return nullptr;
    }
    left = Deepen(n);
    if (Failed()) return nullptr;
  }
}

NodePtr Parser::Operand() {
  const Token& t = Peek();
  switch (t.tok) {
    case kTName:
      return NameOperand();
    case kTInteger:
    case kTDouble: {
      auto n = std::make_shared<Node>();
      n->type = t.tok == kTInteger ? kNInteger : kNDouble;
      n->value = t.text;
      n->desc = ConstDesc(t.tok == kTInteger ? kTypeU32 : kTypeDouble);
      Consume();
      return n;
    }
    case kTLparen:
      return Parenthesised();
    case kTMinus:
    case kTNot: {
      const bool neg = t.tok == kTMinus;
      Consume();
      Frame f(this, neg ? Follow("Arithmetic expression", "NEG")
                        : Follow("Boolean expression", "NOT"));
      auto n = std::make_shared<Node>();
      n->type = neg ? kNNeg : kNNot;
      n->left = Expr(neg ? kPrecAdd : kPrecNot);
      if (Failed()) return nullptr;
      return Deepen(n);
    }
    case kTRescale: return Rescale();
    case kTMatchinst: return Matchinst();
    case kTScalar: return Scalar();
    case kTMkconst: return Mkconst();
    default:
      break;
  }
  for (const NameFunction& f : kNameFunctions) {
    if (f.tok == t.tok) return NameFunc(f);
  }
  Fail();
  return nullptr;
}

NodePtr Parser::NameOperand() {
  auto n = std::make_shared<Node>();
  n->type = kNName;
  n->value = tok_.text;
  Consume();
  Tok next = Peek().tok;
  if (next == kTInstName) return InstanceFilter(n, false);
  if (!CanFollowExpr(next)) {
    Frame f(this, Follow("Arithmetic or relational or boolean operator", "NAME"));
    Fail();
    return nullptr;
  }
  return n;
}

NodePtr Parser::Parenthesised() {
  Consume();
  NodePtr e = Expr(0);
  if (Failed()) return nullptr;
  if (!Expect(kTRparen)) return nullptr;
  if (Peek().tok == kTInstName) return InstanceFilter(e, true);
  return e;
}

// metric[instance] (an exact instance name) or (expr)[pattern].
NodePtr Parser::InstanceFilter(NodePtr subject, bool regex) {
  auto p = std::make_shared<Node>();
  p->type = kNPattern;
  p->value = tok_.text;
  p->regex = regex;
  Consume();
  auto n = std::make_shared<Node>();
  n->type = kNFilterInst;
  n->left = p;
  n->right = subject;
  return Deepen(n);
}

NodePtr Parser::NameFunc(const NameFunction& f) {
  Consume();
  Peek();  // the '(' the scanner saw after the name
  Consume();
  std::optional<Frame> frame;
  if (f.text != nullptr) frame.emplace(this, Follow("Metric name", f.text));
  if (Peek().tok != kTName) {
    Fail();
    return nullptr;
  }
  auto operand = std::make_shared<Node>();
  operand->type = kNName;
  operand->value = tok_.text;
  operand->save_last = f.node == kNDelta || f.node == kNRate;
  Consume();
  if (!Expect(kTRparen)) return nullptr;
  auto n = std::make_shared<Node>();
  n->type = f.node;
  if (f.node == kNAnon) {
    static const std::pair<const char*, int> kAnonTypes[] = {
        {"PM_TYPE_32", kType32},    {"PM_TYPE_U32", kTypeU32},
        {"PM_TYPE_64", kType64},    {"PM_TYPE_U64", kTypeU64},
        {"PM_TYPE_FLOAT", kTypeFloat}, {"PM_TYPE_DOUBLE", kTypeDouble},
    };
    int type = kTypeNoSupport;
    for (const auto& [name, t] : kAnonTypes) {
      if (operand->value == name) type = t;
    }
    if (type == kTypeNoSupport) {
      std::fprintf(stderr, "Error: type=%s not allowed for anon()\n", operand->value.c_str());
      FailWith("");
      error_.reset();
      return nullptr;
    }
    operand->type = kNInteger;
    operand->desc = ConstDesc(type);
    operand->desc.units = Units{};
  }
  n->left = operand;
  return Deepen(n);
}

NodePtr Parser::Rescale() {
  Consume();
  Peek();
  Consume();
  Frame outer(this, Follow("Arithmetic or relational or boolean operator", "rescale("));
  NodePtr e = Expr(0);
  if (Failed()) return nullptr;
  if (!Expect(kTComma)) return nullptr;
  Frame inner(this, Follow("Units string", "rescale(<expr>,"));
  if (Peek().tok != kTString) {
    Fail();
    return nullptr;
  }
  std::string units = tok_.text;
  Consume();
  if (!Expect(kTRparen)) return nullptr;
  absl::StatusOr<ParsedUnits> parsed = ParseUnitsStr(units);
  if (!parsed.ok()) {
    FailWith(Unexpected("Illegal units:", std::string(parsed.status().message()).c_str()));
    return nullptr;
  }
  auto scale = std::make_shared<Node>();
  scale->type = kNScale;
  scale->desc.units = parsed->units;
  auto n = std::make_shared<Node>();
  n->type = kNRescale;
  n->left = e;
  n->right = scale;
  return Deepen(n);
}

NodePtr Parser::Pattern() {
  bool invert = false;
  if (Peek().tok == kTNot) {
    invert = true;
    Consume();
  }
  if (Peek().tok != kTPattern) {
    Fail();
    return nullptr;
  }
  regex_t re;
  int sts = regcomp(&re, tok_.text.c_str(), REG_EXTENDED | REG_NOSUB);
  if (sts != 0) {
    char why[128];
    regerror(sts, &re, why, sizeof(why));
    FailWith(Unexpected("bad regular expression:", why));
    return nullptr;
  }
  regfree(&re);
  auto p = std::make_shared<Node>();
  p->type = kNPattern;
  p->value = tok_.text;
  p->regex = true;
  p->invert = invert;
  Consume();
  return p;
}

NodePtr Parser::Matchinst() {
  Consume();
  Peek();
  Consume();
  Frame first(this, Follow("<filter>, <expr>)", "matchinst("));
  NodePtr pattern = Pattern();
  if (Failed()) return nullptr;
  Frame second(this, Follow(", <expr>)", "matchinst(<filter>"));
  if (!Expect(kTComma)) return nullptr;
  Frame third(this, Follow("<expr>)", "matchinst(<filter>,"));
  NodePtr e = Expr(0);
  if (Failed()) return nullptr;
  if (!Expect(kTRparen)) return nullptr;
  lex_.set_in_matchinst(false);
  auto n = std::make_shared<Node>();
  n->type = kNFilterInst;
  n->left = pattern;
  n->right = e;
  return Deepen(n);
}

NodePtr Parser::Scalar() {
  Consume();
  Peek();
  Consume();
  Frame f(this, Follow("<expr>", "scalar("));
  NodePtr e = Expr(0);
  if (Failed()) return nullptr;
  if (!Expect(kTRparen)) return nullptr;
  auto n = std::make_shared<Node>();
  n->type = kNScalar;
  n->left = e;
  return Deepen(n);
}

// mkconst(NUMBER, spec[, spec...]) with spec type=, semantics= or units=.
NodePtr Parser::Mkconst() {
  Consume();
  Peek();
  Consume();
  Tok t = Peek().tok;
  if (t != kTInteger && t != kTDouble) {
    Fail();
    return nullptr;
  }
  auto n = std::make_shared<Node>();
  n->type = t == kTInteger ? kNInteger : kNDouble;
  n->value = tok_.text;
  n->desc = ConstDesc(t == kTInteger ? kTypeU32 : kTypeDouble);
  Consume();
  if (!Expect(kTComma)) return nullptr;
  for (;;) {
    if (!Spec(&n->desc)) return nullptr;
    Tok next = Peek().tok;
    if (next == kTRparen) break;
    if (next != kTComma) {
      Fail();
      return nullptr;
    }
    Consume();
  }
  Consume();
  if (n->type == kNDouble && n->desc.type != kTypeDouble && n->desc.type != kTypeFloat) {
    FailWith(Unexpected("Incompatible floating point constant and type",
                        TypeStr(n->desc.type).c_str()));
    return nullptr;
  }
  return n;
}

int CaseCompare(const std::string& a, const char* b) { return strcasecmp(a.c_str(), b); }

bool Parser::Spec(Desc* d) {
  Tok which = Peek().tok;
  if (which != kTType && which != kTSemantics && which != kTUnits) {
    Fail();
    return false;
  }
  Consume();
  if (Peek().tok != kTAssign) {
    Fail();
    return false;
  }
  Consume();
  Tok v = Peek().tok;
  if (v != kTString && v != kTName && v != kTInteger) {
    Fail();
    return false;
  }
  const std::string value = tok_.text;
  Consume();
  if (which == kTType) {
    static const std::pair<const char*, int> kNames[] = {
        {"32", kType32}, {"U32", kTypeU32}, {"64", kType64},
        {"U64", kTypeU64}, {"FLOAT", kTypeFloat}, {"DOUBLE", kTypeDouble},
    };
    for (const auto& [name, type] : kNames) {
      if (CaseCompare(value, name) == 0) {
        d->type = type;
        return true;
      }
    }
    FailWith(Unexpected("Unrecognized value for type", value.c_str()));
    return false;
  }
  if (which == kTSemantics) {
    static const std::pair<const char*, int> kNames[] = {
        {"counter", kSemCounter}, {"instant", kSemInstant}, {"discrete", kSemDiscrete}};
    for (const auto& [name, sem] : kNames) {
      if (CaseCompare(value, name) == 0) {
        d->sem = sem;
        return true;
      }
    }
    FailWith(Unexpected("Unrecognized value for semantics", value.c_str()));
    return false;
  }
  absl::StatusOr<ParsedUnits> parsed = ParseUnitsStr(value);
  if (!parsed.ok()) {
    FailWith(Unexpected("Illegal units:", std::string(parsed.status().message()).c_str()));
    return false;
  }
  d->units = parsed->units;
  return true;
}

}  // namespace

const char* NodeTypeName(int type) {
  for (const Typetab& t : kTypes) {
    if (t.node == type) return t.name;
  }
  return "?";
}

const char* NodeTypeOp(int type) {
  for (const Typetab& t : kTypes) {
    if (t.node == type) return t.op;
  }
  return nullptr;
}

ParseResult Parse(std::string_view expr) { return Parser(expr).Run(); }

}  // namespace pmapi::derive
