// trace.h: the diagnostics PCP's libpcp writes on standard error for the
// derived metrics when its debug options ask (-Dderive, with appl0 for
// the scanner's tokens and the parsed trees, appl1 for the bound trees).
// Scripts and PCP's own QA suite read these lines, so their text follows
// PCP 6.0.3's.
#ifndef PMAPI_DERIVE_TRACE_H_
#define PMAPI_DERIVE_TRACE_H_

#include <string>
#include <string_view>

#include "bind.h"
#include "expr.h"
#include "lexer.h"
#include "pmapi/types.h"

namespace pmapi::derive::trace {

// The debug options in force (pmSetDebug): derive alone, and derive with
// each of appl0, appl1 and appl2.
bool On();
bool Appl0();
bool Appl1();
bool Appl2();

// Writes one line on standard error (the text without its newline).
void Say(const std::string& line);

// "derive_lex() -> type=L_NAME "text"" for one token.
void LexToken(const Token& t);

// "Derived metric expr dump from ADDR..." and one line per node of a
// parsed tree, as PCP dumps a tree just registered.
void DumpParsed(const Node* root);

// The same for a tree bound in a context: each node's descriptor, scale
// factors and the values it holds.
void DumpBound(const Bound* root);

// "__dmpostvalueset: [J] root node PMID: numval=N vset[K]: ..." and the
// evaluated tree, for the Jth metric of a fetch.
void PostValueSet(int j, PmID pmid, int numval, const Bound* root);

// PCP's form of a PMID for these lines ("511.0.3", "PM_ID_NULL").
std::string PmidText(PmID id);

}  // namespace pmapi::derive::trace

#endif  // PMAPI_DERIVE_TRACE_H_
