#include "eval_ops.h"

#include <algorithm>
#include <cstdlib>

#include "pmapi/errors.h"
#include "pmapi/extract.h"
#include "trace.h"

namespace pmapi::derive {
namespace {

// An operand converted to the result type, as PCP's bin_op converts it
// (32-bit results use the operand's bits as they are).
AtomValue Convert(const AtomValue& a, int from, int to) {
  AtomValue out;
  out.ull = a.ull;
  switch (to) {
    case kType64:
      if (from == kType32) out.ll = a.l;
      if (from == kTypeU32) out.ll = a.ul;
      break;
    case kTypeU64:
      if (from == kType32) out.ull = static_cast<uint64_t>(static_cast<int64_t>(a.l));
      if (from == kTypeU32) out.ull = a.ul;
      break;
    case kTypeFloat:
      if (from == kType32) out.f = static_cast<float>(a.l);
      if (from == kTypeU32) out.f = static_cast<float>(a.ul);
      if (from == kType64) out.f = static_cast<float>(a.ll);
      if (from == kTypeU64) out.f = static_cast<float>(a.ull);
      break;
    case kTypeDouble:
      if (from == kType32) out.d = a.l;
      if (from == kTypeU32) out.d = a.ul;
      if (from == kType64) out.d = static_cast<double>(a.ll);
      if (from == kTypeU64) out.d = static_cast<double>(a.ull);
      if (from == kTypeFloat) out.d = a.f;
      break;
    default:
      break;
  }
  return out;
}

template <typename T>
T Apply(int op, T l, T r) {
  switch (op) {
    case kNPlus: return l + r;
    case kNMinus: return l - r;
    case kNStar: return l * r;
    case kNLt: return l < r;
    case kNLeq: return l <= r;
    case kNEq: return l == r;
    case kNGeq: return l >= r;
    case kNGt: return l > r;
    case kNNeq: return l != r;
    case kNAnd: return (l != 0) && (r != 0);
    case kNOr: return (l != 0) || (r != 0);
    default: return 0;
  }
}

}  // namespace

bool IsZero(const AtomValue& v, int type) {
  switch (type) {
    case kType32: return v.l == 0;
    case kTypeU32: return v.ul == 0;
    case kType64: return v.ll == 0;
    case kTypeU64: return v.ull == 0;
    case kTypeFloat: return v.f == 0;
    case kTypeDouble: return v.d == 0;
    default: return true;
  }
}

AtomValue BinaryOp(int type, int op, const AtomValue& a, int ltype, int lmul, int ldiv,
                   const AtomValue& b, int rtype, int rmul, int rdiv) {
  AtomValue l = Convert(a, ltype, type);
  AtomValue r = Convert(b, rtype, type);
  AtomValue res;
  switch (type) {
    case kType32:
      // wrapping as the C arithmetic PCP relies on
      res.l = static_cast<int32_t>(Apply<uint32_t>(op, static_cast<uint32_t>(l.l),
                                                   static_cast<uint32_t>(r.l)));
      if (op >= kNLt && op <= kNOr) res.l = Apply<int32_t>(op, l.l, r.l);
      break;
    case kTypeU32: res.ul = Apply<uint32_t>(op, l.ul, r.ul); break;
    case kType64:
      res.ll = static_cast<int64_t>(Apply<uint64_t>(op, static_cast<uint64_t>(l.ll),
                                                    static_cast<uint64_t>(r.ll)));
      if (op >= kNLt && op <= kNOr) res.ll = Apply<int64_t>(op, l.ll, r.ll);
      break;
    case kTypeU64: res.ull = Apply<uint64_t>(op, l.ull, r.ull); break;
    case kTypeFloat: res.f = Apply<float>(op, l.f, r.f); break;
    case kTypeDouble:
      l.d = (l.d / ldiv) * lmul;
      r.d = (r.d / rdiv) * rmul;
      if (op == kNSlash) {
        res.d = l.d == 0 ? 0 : l.d / r.d;
      } else {
        res.d = Apply<double>(op, l.d, r.d);
      }
      break;
    default:
      res.ll = 0;
      break;
  }
  return res;
}

uint32_t Compare(int op, const AtomValue& a, const Bound& l, const AtomValue& b, const Bound& r) {
  const int type = Promote(l.desc.type, r.desc.type);
  AtomValue res = BinaryOp(type, op, a, l.desc.type, l.mul_scale, l.div_scale, b, r.desc.type,
                           r.mul_scale, r.div_scale);
  switch (type) {
    case kType32: return static_cast<uint32_t>(res.l);
    case kTypeU32: return res.ul;
    case kType64: return static_cast<uint32_t>(res.ll);
    case kTypeU64: return static_cast<uint32_t>(res.ull);
    case kTypeFloat: return static_cast<uint32_t>(res.f);
    default: return static_cast<uint32_t>(res.d);
  }
}

void FreeValues(Bound* np) {
  if (np->save_last) {
    np->last = std::move(np->vals);
    np->last_numval = np->numval;
  }
  np->vals.clear();
  np->numval = 0;
}

int EvalConstant(Bound* np) {
  if (!np->constant_ready) {
    Value v;
    v.inst = kInNull;
    const char* s = np->src->value.c_str();
    switch (np->desc.type) {
      case kType32: case kTypeU32:
        v.v.l = static_cast<int32_t>(std::strtol(s, nullptr, 10));
        break;
      case kType64: v.v.ll = std::strtoll(s, nullptr, 10); break;
      case kTypeU64: v.v.ull = std::strtoull(s, nullptr, 10); break;
      case kTypeFloat: v.v.f = static_cast<float>(std::atof(s)); break;
      case kTypeDouble: v.v.d = std::atof(s); break;
      default: break;
    }
    np->vals.assign(1, v);
    np->constant_ready = true;
  }
  np->numval = 1;
  return 1;
}

namespace {

// this - last for delta(): the operand's type widened as PCP widens it.
AtomValue Delta(const AtomValue& now, const AtomValue& then, int type) {
  AtomValue out;
  switch (type) {
    case kType32: out.l = static_cast<int32_t>(static_cast<uint32_t>(now.l) - static_cast<uint32_t>(then.l)); break;
    case kTypeU32: out.ll = static_cast<int64_t>(now.ul) - static_cast<int64_t>(then.ul); break;
    case kType64: out.ll = static_cast<int64_t>(static_cast<uint64_t>(now.ll) - static_cast<uint64_t>(then.ll)); break;
    case kTypeU64: out.d = static_cast<double>(now.ull) - static_cast<double>(then.ull); break;
    case kTypeFloat: out.f = now.f - then.f; break;
    default: out.d = now.d - then.d; break;
  }
  return out;
}

// this - last for rate(), in the operand's own type (unsigned types wrap).
double Difference(const AtomValue& now, const AtomValue& then, int type) {
  switch (type) {
    case kType32: return static_cast<int32_t>(static_cast<uint32_t>(now.l) - static_cast<uint32_t>(then.l));
    case kTypeU32: return static_cast<uint32_t>(now.ul - then.ul);
    case kType64: return static_cast<double>(static_cast<int64_t>(static_cast<uint64_t>(now.ll) - static_cast<uint64_t>(then.ll)));
    case kTypeU64: return static_cast<double>(now.ull - then.ull);
    case kTypeFloat: return static_cast<double>(now.f - then.f);
    default: return now.d - then.d;
  }
}

double TimeScale(const Units& u) {
  double scale = 1;
  if (u.scale_time > kTimeSec) {
    for (int n = kTimeSec; n < u.scale_time; n++) scale *= 60;
  } else {
    for (int n = u.scale_time; n < kTimeSec; n++) scale /= 1000;
  }
  return scale;
}

// PCP's appl2 trace of operands whose instances do not line up.
void TraceMismatch(int type, int k, int i, Inst inst, const char* other, int j,
                   Inst other_inst) {
  trace::Say("eval_expr: " + std::string(NodeTypeName(type)) + ": inst[" + std::to_string(k) +
             "] mismatch left [" + std::to_string(i) + "]=" + std::to_string(ToPcp(inst)) + " " + other +
             " [" + std::to_string(j) + "]=" + std::to_string(ToPcp(other_inst)));
}

void TraceRecover(const char* other, int j, Inst inst) {
  trace::Say("eval_expr: recover @ " + std::string(other) + " [" + std::to_string(j) +
             "]=" + std::to_string(ToPcp(inst)));
}

}  // namespace

int EvalDeltaRate(Bound* np, int64_t stamp_ns) {
  np->last_stamp_ns = np->stamp_ns;
  np->stamp_ns = stamp_ns;
  FreeValues(np);
  const Bound& in = *np->left;
  np->numval = std::min(in.numval, in.last_numval);
  if (np->numval <= 0) return np->numval;
  const double seconds = static_cast<double>(np->stamp_ns - np->last_stamp_ns) / 1e9;
  for (int i = 0; i < in.numval && i < static_cast<int>(in.vals.size()); i++) {
    int j = i < in.last_numval ? i : 0;
    if (in.vals[i].inst != in.last[j].inst) {
      const bool say = trace::Appl2() && in.type != kNFilterInst;
      if (say) {
        TraceMismatch(np->type, static_cast<int>(np->vals.size()), i, in.vals[i].inst, "last", j,
                      in.last[j].inst);
      }
      for (j = 0; j < in.last_numval; j++) {
        if (in.vals[i].inst == in.last[j].inst) break;
      }
      if (j == in.last_numval) continue;
      if (say) TraceRecover("last", j, in.last[j].inst);
    }
    Value v;
    v.inst = in.vals[i].inst;
    if (np->type == kNDelta) {
      v.v = Delta(in.vals[i].v, in.last[j].v, in.desc.type);
    } else {
      v.v.d = Difference(in.vals[i].v, in.last[j].v, in.desc.type) / seconds;
      if (in.desc.units.dim_time == 1) {
        if (np->time_scale < 0) np->time_scale = TimeScale(in.desc.units);
        v.v.d *= np->time_scale;
      }
    }
    np->vals.push_back(v);
  }
  np->numval = static_cast<int>(np->vals.size());
  return np->numval;
}

namespace {

float AvgTerm(const AtomValue& v, int type, int n) {
  switch (type) {
    case kType32: return static_cast<float>(v.l) / n;
    case kTypeU32: return static_cast<float>(v.ul) / n;
    case kType64: return static_cast<float>(v.ll) / n;
    case kTypeU64: return static_cast<float>(v.ull) / n;
    case kTypeFloat: return v.f / n;
    default: return static_cast<float>(v.d) / n;
  }
}

bool Less(const AtomValue& a, const AtomValue& b, int type) {
  switch (type) {
    case kType32: return a.l < b.l;
    case kTypeU32: return a.ul < b.ul;
    case kType64: return a.ll < b.ll;
    case kTypeU64: return a.ull < b.ull;
    case kTypeFloat: return a.f < b.f;
    default: return a.d < b.d;
  }
}

void Add(AtomValue* sum, const AtomValue& v, int type) {
  switch (type) {
    case kType32: sum->l = static_cast<int32_t>(static_cast<uint32_t>(sum->l) + static_cast<uint32_t>(v.l)); break;
    case kTypeU32: sum->ul += v.ul; break;
    case kType64: sum->ll = static_cast<int64_t>(static_cast<uint64_t>(sum->ll) + static_cast<uint64_t>(v.ll)); break;
    case kTypeU64: sum->ull += v.ull; break;
    case kTypeFloat: sum->f += v.f; break;
    default: sum->d += v.d; break;
  }
}

}  // namespace

int EvalAggregate(Bound* np) {
  const Bound& in = *np->left;
  if (np->vals.empty()) np->vals.resize(1);
  Value& out = np->vals[0];
  out.inst = kInNull;
  if (np->type == kNCount) {
    np->numval = 1;
    out.v.l = in.numval;
    return 1;
  }
  if (np->type == kNScalar) {
    np->numval = std::min(in.numval, 1);
    if (!in.vals.empty()) out.v = in.vals[0].v;
    return np->numval;
  }
  np->numval = 1;
  if (np->type == kNAvg) out.v.f = 0;
  if (np->type == kNSum) out.v.ull = 0;
  const int n = std::min(in.numval, static_cast<int>(in.vals.size()));
  for (int i = 0; i < n; i++) {
    const AtomValue& v = in.vals[i].v;
    switch (np->type) {
      case kNAvg: out.v.f += AvgTerm(v, in.desc.type, in.numval); break;
      case kNMax: if (i == 0 || Less(out.v, v, np->desc.type)) out.v = v; break;
      case kNMin: if (i == 0 || Less(v, out.v, np->desc.type)) out.v = v; break;
      default: Add(&out.v, v, np->desc.type); break;
    }
  }
  return 1;
}

int EvalNotNeg(Bound* np) {
  FreeValues(np);
  const Bound& in = *np->left;
  np->numval = in.numval;
  if (np->numval <= 0) return np->numval;
  for (int i = 0; i < in.numval && i < static_cast<int>(in.vals.size()); i++) {
    const AtomValue& a = in.vals[i].v;
    Value v;
    v.inst = in.vals[i].inst;
    if (np->type == kNNot) {
      v.v.ul = IsZero(a, in.desc.type) ? 1 : 0;
    } else {
      switch (in.desc.type) {
        case kType32: v.v.l = static_cast<int32_t>(0u - static_cast<uint32_t>(a.l)); break;
        case kTypeU32: v.v.l = static_cast<int32_t>(0u - a.ul); break;
        case kType64: v.v.ll = static_cast<int64_t>(0ull - static_cast<uint64_t>(a.ll)); break;
        case kTypeU64: v.v.ll = static_cast<int64_t>(0ull - a.ull); break;
        case kTypeFloat: v.v.f = -a.f; break;
        default: v.v.d = -a.d; break;
      }
    }
    np->vals.push_back(v);
  }
  return np->numval;
}

int EvalTernary(Bound* np) {
  FreeValues(np);
  const Bound& guard = *np->left;
  const Bound& yes = *np->right->left;
  const Bound& no = *np->right->right;
  if (guard.numval <= 0) return np->numval = guard.numval;
  if (yes.numval <= 0) return np->numval = yes.numval;
  if (no.numval <= 0) return np->numval = no.numval;
  const int n = std::max(yes.numval, no.numval);
  const Bound* insts = &yes;
  if (yes.desc.indom == kInDomNull && no.desc.indom != kInDomNull) insts = &no;
  if (!IsArithmetic(guard.desc.type)) return kErrType;
  const Bound* pick = &yes;
  for (int i = 0; i < n; i++) {
    if (i < guard.numval) pick = IsZero(guard.vals[i].v, guard.desc.type) ? &no : &yes;
    Value v;
    v.v = i < pick->numval ? pick->vals[i].v : pick->vals[0].v;
    v.inst = i < insts->numval ? insts->vals[i].inst : kInNull;
    np->vals.push_back(v);
  }
  np->numval = n;
  return n;
}

int EvalRescale(Bound* np) {
  FreeValues(np);
  const Bound& in = *np->left;
  if (in.numval <= 0) return np->numval = in.numval;
  for (int i = 0; i < in.numval && i < static_cast<int>(in.vals.size()); i++) {
    absl::StatusOr<AtomValue> v =
        ConvScale(np->desc.type, in.vals[i].v, in.desc.units, np->right->desc.units);
    if (!v.ok()) continue;
    Value out;
    out.inst = in.vals[i].inst;
    out.v = *v;
    np->vals.push_back(out);
  }
  np->numval = static_cast<int>(np->vals.size());
  return np->numval;
}

int EvalBinary(Bound* np) {
  FreeValues(np);
  const Bound& l = *np->left;
  const Bound& r = *np->right;
  if (l.numval <= 0 || r.numval <= 0) return 0;
  const bool lset = l.desc.indom != kInDomNull;
  const bool rset = r.desc.indom != kInDomNull;
  int want = !lset ? r.numval : !rset ? l.numval : std::min(l.numval, r.numval);
  const bool logical = np->type >= kNLt && np->type <= kNOr;
  int i = 0, j = 0;
  while (static_cast<int>(np->vals.size()) < want) {
    if (i >= l.numval || j >= r.numval) break;
    if (lset && rset && l.vals[i].inst != r.vals[j].inst) {
      const bool say = trace::Appl2() && l.type != kNFilterInst && r.type != kNFilterInst;
      if (say) {
        TraceMismatch(np->type, static_cast<int>(np->vals.size()), i, l.vals[i].inst, "right", j,
                      r.vals[j].inst);
      }
      for (j = 0; j < r.numval; j++) {
        if (l.vals[i].inst == r.vals[j].inst) break;
      }
      if (j == r.numval) {
        i++;
        j = 0;
        continue;
      }
      if (say) TraceRecover("right", j, r.vals[j].inst);
    }
    Value v;
    if (logical) {
      v.v.ul = Compare(np->type, l.vals[i].v, l, r.vals[j].v, r);
    } else {
      v.v = BinaryOp(np->desc.type, np->type, l.vals[i].v, l.desc.type, l.mul_scale,
                     l.div_scale, r.vals[j].v, r.desc.type, r.mul_scale, r.div_scale);
    }
    v.inst = lset ? l.vals[i].inst : r.vals[j].inst;
    np->vals.push_back(v);
    if (lset) {
      i++;
      if (rset && ++j >= r.numval) j = 0;
    } else if (rset) {
      j++;
    }
  }
  np->numval = static_cast<int>(np->vals.size());
  return np->numval;
}

}  // namespace pmapi::derive
