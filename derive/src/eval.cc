#include "eval.h"

#include <cstdio>
#include <cstring>

#include "eval_ops.h"
#include "pmapi/strings.h"
#include "trace.h"
#include "pmapi/errors.h"
#include "result_builder.h"

namespace pmapi::derive {
namespace {

constexpr int kRegexCompact = 100;

// Copies up to sizeof(T) payload bytes (a short payload reads as zeros).
template <typename T>
T ReadPayload(const ValueView& v) {
  T out{};
  std::memcpy(&out, v.payload.data(), std::min(sizeof(T), v.payload.size()));
  return out;
}

bool IsBlock(int valfmt) { return valfmt == kValDptr || valfmt == kValSptr; }

// A metric operand: its values in this fetch.
int EvalName(Bound* np, const EvalEnv& env) {
  const Result& r = *env.result;
  for (const ValueSet& vs : r.sets()) {
    if (vs.pmid != np->pmid) continue;
    FreeValues(np);
    np->numval = vs.numval;
    if (vs.numval <= 0) return vs.numval;
    np->vals.reserve(vs.numval);
    for (int j = 0; j < vs.numval; j++) {
      ValueView in = r.value(vs, j);
      Value v;
      v.inst = in.inst;
      switch (np->desc.type) {
        case kType32: case kTypeU32:
          v.v.l = IsBlock(vs.valfmt) ? ReadPayload<int32_t>(in) : in.lval;
          break;
        case kType64: case kTypeU64: case kTypeDouble:
          if (!IsBlock(vs.valfmt)) return kErrLogrec;
          v.v.ll = ReadPayload<int64_t>(in);
          break;
        case kTypeFloat:
          v.v.l = IsBlock(vs.valfmt) ? ReadPayload<int32_t>(in) : in.lval;
          break;
        case kTypeString: case kTypeAggregate: case kTypeAggregateStatic: case kTypeEvent:
        case kTypeHighResEvent:
          if (!IsBlock(vs.valfmt)) return kErrLogrec;
          v.v.bytes.assign(reinterpret_cast<const char*>(in.payload.data()), in.payload.size());
          break;
        default:
          return kErrType;
      }
      np->vals.push_back(std::move(v));
    }
    return np->numval;
  }
  return kErrPmid;
}

void CompactSeen(Matcher* m) {
  const int scanned = static_cast<int>(m->seen.size());
  int culled = 0;
  for (auto it = m->seen.begin(); it != m->seen.end();) {
    if (it->second.used < kRegexCompact / 2) {
      it = m->seen.erase(it);
      culled++;
    } else {
      it->second.used = 0;
      ++it;
    }
  }
  m->used = 0;
  if (trace::Appl2()) {
    char where[32];
    std::snprintf(where, sizeof(where), "%p", static_cast<void*>(m));
    trace::Say("regex_inst_gc(" + std::string(where) + ") " + std::to_string(scanned) +
               " instances scanned, " + std::to_string(culled) + " instances culled");
  }
}

// PCP's appl2 trace of an instance lookup that failed while filtering.
void TraceFilterFailure(const Bound* np, const std::string& call, const absl::Status& why) {
  if (!trace::Appl2()) return;
  char where[32];
  std::snprintf(where, sizeof(where), "%p", static_cast<const void*>(np));
  trace::Say("eval_expr: expr node " + std::string(where) + " type=" + NodeTypeName(np->type) +
             " " + call + " failed: " + ErrStr(PcpCode(why)));
}

bool RegexMatch(const Bound* np, Matcher* m, const Node& pattern, InDom indom, Inst inst,
                const EvalEnv& env) {
  auto [it, fresh] = m->seen.try_emplace(inst);
  if (fresh) {
    absl::StatusOr<std::string> name = env.name_indom(indom, inst);
    if (!name.ok()) {
      TraceFilterFailure(np, "pmNameInDom(" + InDomStr(indom) + ", " + std::to_string(ToPcp(inst)) + ", ...)",
                         name.status());
    } else {
      std::string first = name->substr(0, name->find(' '));
      bool hit = m->compiled && regexec(&m->re, first.c_str(), 0, nullptr, 0) == 0;
      it->second.match = pattern.invert ? !hit : hit;
    }
  }
  it->second.used++;
  return it->second.match;
}

// matchinst(/re/, expr), (expr)[re] and metric[instance].
int EvalFilter(Bound* np, const EvalEnv& env) {
  np->last_stamp_ns = np->stamp_ns;
  Bound& pat = *np->left;
  const Bound& in = *np->right;
  Matcher* m = pat.matcher.get();
  const bool regex = pat.src->regex;
  FreeValues(np);
  for (int i = 0; i < in.numval && i < static_cast<int>(in.vals.size()); i++) {
    if (regex) {
      if (RegexMatch(np, m, *pat.src, in.desc.indom, in.vals[i].inst, env)) np->vals.push_back(in.vals[i]);
      continue;
    }
    if (m->exact == kInNull) {
      absl::StatusOr<Inst> inst = env.lookup_indom(in.desc.indom, pat.src->value);
      if (!inst.ok()) {
        TraceFilterFailure(np, "pmLookupInDom_ctx(...," + InDomStr(in.desc.indom) + "," +
                                   pat.src->value + ")",
                           inst.status());
        break;
      }
      m->exact = *inst;
    }
    if (m->exact == in.vals[i].inst) {
      np->vals.push_back(in.vals[i]);
      break;
    }
  }
  if (regex && ++m->used >= kRegexCompact) CompactSeen(m);
  np->numval = static_cast<int>(np->vals.size());
  return np->numval;
}

int EvalNode(Bound* np, int64_t stamp_ns, const EvalEnv& env) {
  switch (np->type) {
    case kNInteger: case kNDouble: return EvalConstant(np);
    case kNName: return EvalName(np, env);
    case kNDelta: case kNRate: return EvalDeltaRate(np, stamp_ns);
    case kNNot: case kNNeg: return EvalNotNeg(np);
    case kNColon: return 0;
    case kNQuest: return EvalTernary(np);
    case kNRescale: return EvalRescale(np);
    case kNInstant:
      np->last_stamp_ns = np->stamp_ns;
      np->stamp_ns = stamp_ns;
      np->numval = np->left->numval;
      if (np->numval > 0) np->vals = np->left->vals;
      return np->numval;
    case kNAvg: case kNCount: case kNSum: case kNMax: case kNMin: case kNScalar:
      return EvalAggregate(np);
    case kNDefined: return np->numval;
    case kNAnon: case kNScale: case kNPattern: return 0;
    case kNFilterInst:
      np->stamp_ns = stamp_ns;
      return EvalFilter(np, env);
    default: return EvalBinary(np);
  }
}

}  // namespace

int Evaluate(Bound* np, int64_t stamp_ns, const EvalEnv& env) {
  if (np->left != nullptr) {
    int sts = Evaluate(np->left.get(), stamp_ns, env);
    if (sts < 0) {
      if (np->type != kNCount) return sts;
      // count() of an operand with no values is 0
      np->vals.resize(1);
      np->vals[0].inst = kInNull;
      np->vals[0].v.l = 0;
      np->numval = 1;
      return 1;
    }
  }
  if (np->right != nullptr) {
    int sts = Evaluate(np->right.get(), stamp_ns, env);
    if (sts < 0) return sts;
  }
  return EvalNode(np, stamp_ns, env);
}

void AppendValues(const Bound& root, PmID pmid, int numval, Result* out) {
  const int type = root.desc.type;
  const bool insitu = type == kType32 || type == kTypeU32;
  out->AddSet(pmid, numval, insitu ? kValInsitu : kValDptr);
  for (int i = 0; i < numval && i < static_cast<int>(root.vals.size()); i++) {
    const Value& v = root.vals[i];
    switch (type) {
      case kType32: case kTypeU32:
        out->AddInsitu(v.inst, v.v.l);
        break;
      case kTypeFloat: {
        uint8_t* p = ResultBuilder::AddBlockForWrite(*out, v.inst, type, sizeof(float));
        std::memcpy(p, &v.v.f, sizeof(float));
        break;
      }
      case kType64: case kTypeU64: case kTypeDouble: {
        uint8_t* p = ResultBuilder::AddBlockForWrite(*out, v.inst, type, 8);
        std::memcpy(p, &v.v.ll, 8);
        break;
      }
      default:
        out->AddBlock(v.inst, type,
                      std::span<const uint8_t>(
                          reinterpret_cast<const uint8_t*>(v.v.bytes.data()), v.v.bytes.size()));
        break;
    }
  }
}

}  // namespace pmapi::derive
