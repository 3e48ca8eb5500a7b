#include "trace.h"

#include <cstdio>

#include "pcp/pmapi.h"
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
      std::fprintf(stderr, " pattern: %s type: exact match inst=%d\n", n->value.c_str(), kInNull);
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

}  // namespace

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
