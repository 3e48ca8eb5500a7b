#include "trace.h"

#include <cinttypes>
#include <cstdio>

#include "pcp/pmapi_debug.h"
#include "pmapi/strings.h"
#include "pmapi/units.h"

namespace pmapi::derive::trace {
namespace {

struct TokName {
  Tok tok;
  const char* name;
  const char* text;  // the token's fixed text, if it has one
};

// PCP's names for its scanner's token types (matchinst's is FILTERINST).
constexpr TokName kTokNames[] = {
    {kTError, "ERROR", nullptr},     {kTEos, "EOS", ""},
    {kTPlus, "PLUS", "+"},           {kTMinus, "MINUS", "-"},
    {kTStar, "STAR", "*"},           {kTSlash, "SLASH", "/"},
    {kTQuest, "QUEST", "?"},         {kTColon, "COLON", ":"},
    {kTLparen, "LPAREN", "("},       {kTRparen, "RPAREN", ")"},
    {kTLt, "LT", "<"},               {kTLeq, "LEQ", "<="},
    {kTEq, "EQ", "=="},              {kTGeq, "GEQ", ">="},
    {kTGt, "GT", ">"},               {kTNeq, "NEQ", "!="},
    {kTAnd, "AND", "&&"},            {kTOr, "OR", "||"},
    {kTNot, "NOT", "!"},             {kTAssign, "ASSIGN", "="},
    {kTComma, "COMMA", ","},         {kTInteger, "INTEGER", nullptr},
    {kTDouble, "DOUBLE", nullptr},   {kTName, "NAME", nullptr},
    {kTString, "STRING", nullptr},   {kTInstName, "INSTNAME", nullptr},
    {kTPattern, "PATTERN", nullptr}, {kTType, "TYPE", "type"},
    {kTSemantics, "SEMANTICS", "semantics"}, {kTUnits, "UNITS", "units"},
    {kTAvg, "AVG", nullptr},         {kTCount, "COUNT", nullptr},
    {kTDelta, "DELTA", nullptr},     {kTMax, "MAX", nullptr},
    {kTMin, "MIN", nullptr},         {kTSum, "SUM", nullptr},
    {kTAnon, "ANON", nullptr},       {kTRate, "RATE", nullptr},
    {kTInstant, "INSTANT", nullptr}, {kTMkconst, "MKCONST", nullptr},
    {kTRescale, "RESCALE", nullptr}, {kTDefined, "DEFINED", nullptr},
    {kTMatchinst, "FILTERINST", nullptr}, {kTScalar, "SCALAR", nullptr},
};

const TokName* Find(Tok t) {
  for (const TokName& n : kTokNames) {
    if (n.tok == t) return &n;
  }
  return nullptr;
}

void DumpNode(const Node* n) {
  std::fprintf(stderr, "expr node %p type=%s", static_cast<const void*>(n), NodeTypeName(n->type));
  if (n->type == kNPattern) {
    if (n->regex) {
      std::fprintf(stderr, " pattern: %s type: %sregex used=0\n", n->value.c_str(),
                   n->invert ? "inverted " : "");
    } else {
      std::fprintf(stderr, " pattern: %s type: exact match inst=%d\n", n->value.c_str(), ToPcp(kInNull));
    }
  } else {
    std::fprintf(stderr, " left=%p right=%p save_last=%d", static_cast<const void*>(n->left.get()),
                 static_cast<const void*>(n->right.get()), n->save_last ? 1 : 0);
    if (n->type == kNName || n->type == kNInteger || n->type == kNDouble) {
      std::fprintf(stderr, " [%s] primary=1", n->value.c_str());
    }
    if (n->type == kNScale) {
      std::fprintf(stderr, " [%s]", UnitsStr(n->desc.units).c_str());
    }
    std::fputc('\n', stderr);
  }
  if (n->left) DumpNode(n->left.get());
  if (n->right) DumpNode(n->right.get());
}

void DumpAtom(int type, const AtomValue& v) {
  switch (type) {
    case kType32: std::fprintf(stderr, "%i", v.l); break;
    case kTypeU32: std::fprintf(stderr, "%u", v.ul); break;
    case kType64: std::fprintf(stderr, "%" PRId64, v.ll); break;
    case kTypeU64: std::fprintf(stderr, "%" PRIu64, v.ull); break;
    case kTypeFloat: std::fprintf(stderr, "%g", static_cast<double>(v.f)); break;
    case kTypeDouble: std::fprintf(stderr, "%g", v.d); break;
    case kTypeString: std::fprintf(stderr, "%s", v.bytes.c_str()); break;
    case kTypeNoSupport:
      std::fprintf(stderr, "dump_value: bogus value, metric Not Supported\n");
      break;
    case kTypeAggregate: case kTypeAggregateStatic: case kTypeEvent: case kTypeHighResEvent:
    case kTypeUnknown:
      std::fprintf(stderr, "[blob]");
      break;
    default: std::fprintf(stderr, "dump_value: unknown value type=%d\n", type); break;
  }
}

void DumpValues(const Bound* n) {
  if (n->vals.empty() && n->last.empty()) return;
  const int max = n->numval > n->last_numval ? n->numval : n->last_numval;
  for (int j = 0; j < max; j++) {
    std::fprintf(stderr, "[%d]", j);
    if (j < n->numval && j < static_cast<int>(n->vals.size())) {
      std::fprintf(stderr, " inst=%d, val=", ToPcp(n->vals[j].inst));
      DumpAtom(n->desc.type, n->vals[j].v);
    }
    if (j < n->last_numval && j < static_cast<int>(n->last.size())) {
      std::fprintf(stderr, " (last inst=%d, val=", ToPcp(n->last[j].inst));
      DumpAtom(n->desc.type, n->last[j].v);
      std::fputc(')', stderr);
    }
    std::fputc('\n', stderr);
  }
}

void DumpPatternBound(const Bound* n) {
  std::fprintf(stderr, " pattern: %s type: ", n->src->value.c_str());
  const Matcher* m = n->matcher.get();
  if (n->src->regex) {
    std::fprintf(stderr, "%sregex used=%d", n->src->invert ? "inverted " : "",
                 m != nullptr ? m->used : 0);
    if (m != nullptr && !m->seen.empty()) {
      int matches = 0;
      for (const auto& [inst, seen] : m->seen) matches += seen.match ? 1 : 0;
      std::fprintf(stderr, " (%d instances, %d matches)", static_cast<int>(m->seen.size()), matches);
    }
  } else {
    std::fprintf(stderr, "exact match inst=%d", ToPcp(m != nullptr ? m->exact : kInNull));
  }
  std::fputc('\n', stderr);
}

void DumpBoundNode(const Bound* n) {
  std::fprintf(stderr, "expr node %p type=%s", static_cast<const void*>(n), NodeTypeName(n->type));
  if (n->type == kNPattern) {
    DumpPatternBound(n);
  } else {
    std::fprintf(stderr, " left=%p right=%p save_last=%d", static_cast<const void*>(n->left.get()),
                 static_cast<const void*>(n->right.get()), n->save_last ? 1 : 0);
    if (n->type == kNName || n->type == kNInteger || n->type == kNDouble) {
      std::fprintf(stderr, " [%s] primary=0", n->src->value.c_str());
    }
    if (n->type == kNScale) {
      std::fprintf(stderr, " [%s]\n", UnitsStr(n->desc.units).c_str());
    } else {
      std::fprintf(stderr, "\n    PMID: %s (%s from pmDesc) numval: %d", IDStr(n->pmid).c_str(),
                   IDStr(n->desc.pmid).c_str(), n->numval);
      if (n->div_scale != 1) std::fprintf(stderr, " div_scale: %d", n->div_scale);
      if (n->mul_scale != 1) std::fprintf(stderr, " mul_scale: %d", n->mul_scale);
      std::fprintf(stderr, "\n%s", DescStr(n->desc).c_str());
      DumpValues(n);
    }
  }
  if (n->left) DumpBoundNode(n->left.get());
  if (n->right) DumpBoundNode(n->right.get());
}

}  // namespace

void DumpBound(const Bound* root) {
  std::fprintf(stderr, "Derived metric expr dump from %p...\n", static_cast<const void*>(root));
  if (root != nullptr) DumpBoundNode(root);
}

void PostValueSet(int j, PmID pmid, int numval, const Bound* root) {
  std::fprintf(stderr, "__dmpostvalueset: [%d] root node %s: numval=%d", j, IDStr(pmid).c_str(),
               numval);
  const int type = root->desc.type;
  for (int k = 0; k < numval && k < static_cast<int>(root->vals.size()); k++) {
    const AtomValue& v = root->vals[k].v;
    std::fprintf(stderr, " vset[%d]: inst=%d", k, ToPcp(root->vals[k].inst));
    switch (type) {
      case kType32: std::fprintf(stderr, " l=%d", v.l); break;
      case kTypeU32: std::fprintf(stderr, " u=%u", v.ul); break;
      case kType64: std::fprintf(stderr, " ll=%" PRIi64, v.ll); break;
      case kTypeU64: std::fprintf(stderr, " ul=%" PRIu64, v.ull); break;
      case kTypeFloat: std::fprintf(stderr, " f=%f", static_cast<double>(v.f)); break;
      case kTypeDouble: std::fprintf(stderr, " d=%f", v.d); break;
      case kTypeString:
        std::fprintf(stderr, " cp=%s (len=%d)", v.bytes.c_str(), static_cast<int>(v.bytes.size()));
        break;
      default:
        std::fprintf(stderr, " vbp=%p (len=%d)", static_cast<const void*>(v.bytes.data()),
                     static_cast<int>(v.bytes.size()));
        break;
    }
  }
  std::fputc('\n', stderr);
  DumpBoundNode(root);
}

bool On() { return pmDebugOptions.derive != 0; }
bool Appl0() { return pmDebugOptions.derive && pmDebugOptions.appl0; }
bool Appl1() { return pmDebugOptions.derive && pmDebugOptions.appl1; }
bool Appl2() { return pmDebugOptions.derive && pmDebugOptions.appl2; }

void Say(const std::string& line) {
  std::fputs(line.c_str(), stderr);
  std::fputc('\n', stderr);
}

void LexToken(const Token& t) {
  const TokName* n = Find(t.tok);
  const char* text = n != nullptr && n->text != nullptr ? n->text : t.text.c_str();
  std::fprintf(stderr, "derive_lex() -> type=L_%s \"%s\"\n", n != nullptr ? n->name : "UNDEF", text);
}

void DumpParsed(const Node* root) {
  std::fprintf(stderr, "Derived metric expr dump from %p...\n", static_cast<const void*>(root));
  if (root != nullptr) DumpNode(root);
}

std::string PmidText(PmID id) { return IDStr(id); }

}  // namespace pmapi::derive::trace
