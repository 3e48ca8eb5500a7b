// eval_ops.h: the arithmetic of derived metric evaluation, on values held
// as PCP's pmAtomValue union holds them.
#ifndef PMAPI_DERIVE_EVAL_OPS_H_
#define PMAPI_DERIVE_EVAL_OPS_H_

#include "bind.h"

namespace pmapi::derive {

// `op` (a binary node kind) on a and b of types ltype and rtype, computed
// in `type`; for a kTypeDouble result each operand is first divided by its
// div and multiplied by its mul.
AtomValue BinaryOp(int type, int op, const AtomValue& a, int ltype, int lmul, int ldiv,
                   const AtomValue& b, int rtype, int rmul, int rdiv);

// Relational and boolean operators: computed in the promoted type of the
// operands, returned as an unsigned 32-bit 0 or 1.
uint32_t Compare(int op, const AtomValue& a, const Bound& l, const AtomValue& b, const Bound& r);

// The evaluations of single nodes (np's operands already evaluated).
int EvalDeltaRate(Bound* np, int64_t stamp_ns);
int EvalAggregate(Bound* np);
int EvalNotNeg(Bound* np);
int EvalTernary(Bound* np);
int EvalBinary(Bound* np);
int EvalRescale(Bound* np);
int EvalConstant(Bound* np);

// Releases a node's values before a new fetch, keeping them as the
// previous sample when the node is the operand of delta() or rate().
void FreeValues(Bound* np);

// True if the value is zero in its type.
bool IsZero(const AtomValue& v, int type);

}  // namespace pmapi::derive

#endif  // PMAPI_DERIVE_EVAL_OPS_H_
