// Binding and PCP's semantic rules for derived metrics: type promotion,
// units and their scale conversion, semantics and instance domains.
#include "bind.h"

#include "pmapi/errors.h"
#include "pmapi/extract.h"
#include "pmapi/strings.h"
#include "pmapi/units.h"
#include "trace.h"

namespace pmapi::derive {
namespace {

bool IsRelational(int t) { return t >= kNLt && t <= kNNeq; }
bool IsBoolean(int t) { return t == kNAnd || t == kNOr; }

// Multiplies a scale factor as PCP's int arithmetic would, without
// undefined behaviour on overflow.
void Scale(int* factor, int by) {
  *factor = static_cast<int>(static_cast<unsigned>(*factor) * static_cast<unsigned>(by));
}

constexpr int kTimeFactor[] = {1000, 1000, 1000, 60, 60};

int TimeFactor(int i) { return i >= 0 && i < 5 ? kTimeFactor[i] : 1; }

bool SameDims(const Units& a, const Units& b) {
  return a.dim_count == b.dim_count && a.dim_time == b.dim_time && a.dim_space == b.dim_space;
}

// "none" against "count" is allowed where dimensions must agree.
bool NoneAndCount(const Units& a, const Units& b) {
  return a.dim_time == 0 && b.dim_time == 0 && a.dim_space == 0 && b.dim_space == 0 &&
         ((a.dim_count == 0 && b.dim_count == 1) || (a.dim_count == 1 && b.dim_count == 0));
}

bool Dimensionless(const Units& u) {
  return u.dim_count == 0 && u.dim_time == 0 && u.dim_space == 0;
}

// Units of a sum, difference, product or quotient, with the scale factors
// that bring both operands to a common scale.
void MapUnits(Bound* np) {
  Bound* l = np->left.get();
  Bound* r = np->right.get();
  const Units lu = l->desc.units;
  const Units ru = r->desc.units;
  Units& u = np->desc.units;
  if (lu.dim_count != 0 && ru.dim_count != 0) {
    int diff = lu.scale_count - ru.scale_count;
    for (int i = 0; i < diff; i++) Scale(ru.dim_count > 0 ? &r->div_scale : &r->mul_scale, 10);
    if (diff < 0) u.scale_count = ru.scale_count;
    for (int i = diff; i < 0; i++) Scale(lu.dim_count > 0 ? &l->div_scale : &l->mul_scale, 10);
    if (diff != 0) np->desc.type = kTypeDouble;
  }
  if (lu.dim_time != 0 && ru.dim_time != 0) {
    if (lu.scale_time > ru.scale_time) {
      for (int i = ru.scale_time; i < lu.scale_time; i++) {
        Scale(ru.dim_time > 0 ? &r->div_scale : &r->mul_scale, TimeFactor(i));
      }
      np->desc.type = kTypeDouble;
    } else if (lu.scale_time < ru.scale_time) {
      u.scale_time = ru.scale_time;
      // PCP tests the right operand's dimension here.
      for (int i = lu.scale_time; i < ru.scale_time; i++) {
        Scale(ru.dim_time > 0 ? &l->div_scale : &l->mul_scale, TimeFactor(i));
      }
      np->desc.type = kTypeDouble;
    }
  }
  if (lu.dim_space != 0 && ru.dim_space != 0) {
    int diff = lu.scale_space - ru.scale_space;
    for (int i = 0; i < diff; i++) Scale(ru.dim_space > 0 ? &r->div_scale : &r->mul_scale, 1024);
    if (diff < 0) u.scale_space = ru.scale_space;
    // PCP tests the right operand's dimension here too.
    for (int i = diff; i < 0; i++) Scale(ru.dim_space > 0 ? &l->div_scale : &l->mul_scale, 1024);
    if (diff != 0) np->desc.type = kTypeDouble;
  }
  if (np->type == kNStar) {
    u.dim_count = static_cast<int8_t>(lu.dim_count + ru.dim_count);
    u.dim_time = static_cast<int8_t>(lu.dim_time + ru.dim_time);
    u.dim_space = static_cast<int8_t>(lu.dim_space + ru.dim_space);
  } else if (np->type == kNSlash) {
    u.dim_count = static_cast<int8_t>(lu.dim_count - ru.dim_count);
    u.dim_time = static_cast<int8_t>(lu.dim_time - ru.dim_time);
    u.dim_space = static_cast<int8_t>(lu.dim_space - ru.dim_space);
  }
  if (u.dim_count != 0 && lu.dim_count == 0) u.scale_count = ru.scale_count;
  if (u.dim_time != 0 && lu.dim_time == 0) u.scale_time = ru.scale_time;
  if (u.dim_space != 0 && lu.dim_space == 0) u.scale_space = ru.scale_space;
  if (u.dim_count == 0) u.scale_count = 0;
  if (u.dim_time == 0) u.scale_time = 0;
  if (u.dim_space == 0) u.scale_space = 0;
}

bool RescaleDesc(Bound* np, std::string* err) {
  np->desc = np->left->desc;
  if (!IsArithmetic(np->desc.type)) {
    *err = "Non-arithmetic operand for function";
    return false;
  }
  AtomValue one;
  switch (np->desc.type) {
    case kType32: one.l = 1; break;
    case kTypeU32: one.ul = 1; break;
    case kType64: one.ll = 1; break;
    case kTypeU64: one.ull = 1; break;
    case kTypeFloat: one.f = 1; break;
    default: one.d = 1; break;
  }
  if (!ConvScale(np->desc.type, one, np->left->desc.units, np->right->desc.units).ok()) {
    *err = "Incompatible dimensions";
    return false;
  }
  np->desc.units = np->right->desc.units;
  return true;
}

const char* CounterRule(int op, int lsem, int rsem) {
  const bool lc = lsem == kSemCounter;
  const bool rc = rsem == kSemCounter;
  if (lc && rc && op != kNPlus && op != kNMinus) return "Illegal operator for counters";
  if (lc && !rc && op != kNStar && op != kNSlash) {
    return "Illegal operator for counter and non-counter";
  }
  if (!lc && rc && op != kNStar) return "Illegal operator for non-counter and counter";
  return nullptr;
}

// The descriptor of a binary operator's result.
bool MapDesc(Bound* np, std::string* err) {
  const int op = np->type;
  const bool logical = IsRelational(op) || IsBoolean(op);
  if (op == kNRescale) return RescaleDesc(np, err);
  const Desc left = np->left->desc;
  const Desc right = np->right->desc;
  if (!logical) {
    if (const char* why = CounterRule(op, left.sem, right.sem)) {
      *err = why;
      return false;
    }
  }
  const int lt = np->left->type;
  np->desc = (lt != kNInteger && lt != kNDouble) ? left : right;
  if (left.sem != kSemCounter && right.sem != kSemCounter) {
    np->desc.sem = (left.sem == kSemDiscrete && right.sem == kSemDiscrete) ? kSemDiscrete
                                                                           : kSemInstant;
  }
  if (!IsArithmetic(left.type)) {
    *err = "Non-arithmetic type for left operand";
    return false;
  }
  if (!IsArithmetic(right.type)) {
    *err = "Non-arithmetic type for right operand";
    return false;
  }
  if (op == kNSlash) {
    np->desc.type = kTypeDouble;
  } else if (logical) {
    np->desc.type = kTypeU32;
  } else {
    np->desc.type = Promote(left.type, right.type);
  }
  const Units& lu = left.units;
  const Units& ru = right.units;
  // PCP meant to exempt numeric constants here but tests the operands'
  // types, so a U32 operand (the type of an integer constant) is exempt.
  const bool exempt = IsRelational(op) && (left.type == kTypeU32 || right.type == kTypeU32);
  if ((op == kNPlus || op == kNMinus || (IsRelational(op) && !exempt)) && !SameDims(lu, ru) &&
      !NoneAndCount(lu, ru)) {
    *err = "Dimensions are not the same";
    return false;
  }
  if (IsBoolean(op) && !(Dimensionless(lu) && Dimensionless(ru))) {
    *err = "Dimensions are not the same";
    return false;
  }
  if (op == kNStar || op == kNSlash || IsRelational(op)) {
    if (left.sem == kSemCounter && right.sem != kSemCounter && !Dimensionless(ru)) {
      *err = "Non-counter and not dimensionless for right operand";
      return false;
    }
    if (left.sem != kSemCounter && right.sem == kSemCounter && !Dimensionless(lu)) {
      *err = "Non-counter and not dimensionless for left operand";
      return false;
    }
  }
  if (logical) {
    np->desc.units = Units{};
  } else {
    MapUnits(np);
  }
  if (left.indom != kInDomNull && right.indom != kInDomNull && left.indom != right.indom) {
    *err = "Operands should have the same instance domain";
    return false;
  }
  if (left.indom != kInDomNull && right.indom == kInDomNull) np->desc.indom = left.indom;
  if (right.indom != kInDomNull && left.indom == kInDomNull) np->desc.indom = right.indom;
  return true;
}

// PCP's appl1 trace of a ternary's branches that disagree.
void TraceTernary(const char* what, const std::string& l, const std::string& r) {
  if (trace::Appl1()) {
    trace::Say(std::string("Semantic error: ternary op ") + what + ": left=" + l + " right=" + r);
  }
}

std::string SpaceText(const Units& u) {
  return UnitsStr(u) + " (dim=" + std::to_string(u.dim_space) +
         " scale=" + std::to_string(u.scale_space) + ")";
}

bool TernaryBranches(Bound* np, std::string* err) {
  const Desc& l = np->left->desc;
  const Desc& r = np->right->desc;
  np->desc = l;
  if (l.type != r.type) {
    TraceTernary("type", TypeStr(l.type), TypeStr(r.type));
    *err = "Different types for ternary operands";
    return false;
  }
  if (l.indom != r.indom && l.indom != kInDomNull && r.indom != kInDomNull) {
    TraceTernary("indom", InDomStr(l.indom), InDomStr(r.indom));
    *err = "Different instance domains for ternary operands";
    return false;
  }
  np->desc.indom = l.indom != kInDomNull ? l.indom : r.indom;
  if (l.sem != r.sem) {
    TraceTernary("semantics", SemStr(l.sem), SemStr(r.sem));
    *err = "Different semantics for ternary operands";
    return false;
  }
  if (l.units.dim_space != r.units.dim_space || l.units.scale_space != r.units.scale_space) {
    TraceTernary("units (space)", SpaceText(l.units), SpaceText(r.units));
    *err = "Different units or scale (space) for ternary operands";
    return false;
  }
  if (l.units.dim_time != r.units.dim_time || l.units.scale_time != r.units.scale_time) {
    TraceTernary("units (time)", UnitsStr(l.units), UnitsStr(r.units));
    *err = "Different units or scale (time) for ternary operands";
    return false;
  }
  if (l.units.dim_count != r.units.dim_count || l.units.scale_count != r.units.scale_count) {
    TraceTernary("units (count)", UnitsStr(l.units), UnitsStr(r.units));
    *err = "Different units or scale (count) for ternary operands";
    return false;
  }
  return true;
}

bool TernaryGuard(Bound* np, std::string* err) {
  if (!IsArithmetic(np->left->desc.type)) {
    *err = "Non-arithmetic operand for ternary guard";
    return false;
  }
  if (np->right->left->desc.indom == kInDomNull && np->right->right->desc.indom == kInDomNull &&
      np->left->desc.indom != kInDomNull) {
    *err = "Non-scalar ternary guard with scalar expressions";
    return false;
  }
  np->desc = np->right->desc;
  return true;
}

// The descriptor of a function or unary operator's result.
bool UnaryDesc(Bound* np, std::string* err) {
  const Desc& in = np->left->desc;
  np->desc = in;
  switch (np->type) {
    case kNCount:
      np->desc.type = kTypeU32;
      np->desc.units = Units{};
      np->desc.units.dim_count = 1;
      np->desc.sem = kSemInstant;
      np->desc.indom = kInDomNull;
      return true;
    case kNInstant:
      np->desc.sem = in.sem == kSemCounter ? kSemInstant : in.sem;
      return true;
    case kNScalar:
      np->desc.indom = kInDomNull;
      return true;
    case kNAvg: case kNSum: case kNMax: case kNMin: case kNDelta: case kNRate: case kNNeg:
      break;
    default:
      return true;
  }
  if (!IsArithmetic(in.type)) {
    *err = np->type == kNNeg ? "Non-arithmetic operand for unary negation"
                             : "Non-arithmetic operand for function";
    return false;
  }
  if (np->type != kNSum) np->desc.sem = kSemInstant;
  if (np->type == kNRate && in.units.dim_time != 0 && in.units.dim_time != 1) {
    *err = "Incorrect time dimension for operand";
    return false;
  }
  if (np->type != kNDelta && np->type != kNRate && np->type != kNNeg) {
    np->desc.indom = kInDomNull;
  }
  if (np->type == kNAvg) {
    np->desc.type = kTypeFloat;
  } else if (np->type == kNRate) {
    np->desc.type = kTypeDouble;
    np->desc.units.dim_time = static_cast<int8_t>(np->desc.units.dim_time - 1);
    np->desc.units.scale_time =
        np->desc.units.dim_time == 0 ? 0 : static_cast<uint8_t>(kTimeSec);
  } else if (np->type == kNNeg) {
    if (in.type == kTypeU32) np->desc.type = kType32;
    if (in.type == kTypeU64) np->desc.type = kType64;
  } else if (np->type == kNDelta) {
    if (in.type == kTypeU32) np->desc.type = kType64;
    if (in.type == kTypeU64) np->desc.type = kTypeDouble;
  }
  return true;
}

void MakeDefined(Bound* np) {
  Value v;
  v.inst = kInNull;
  v.v.ul = np->left->pmid != kPmIDNull ? 1 : 0;
  np->vals.assign(1, v);
  np->numval = 1;
  np->desc = Desc{kPmIDNull, kTypeU32, kInDomNull, kSemDiscrete, Units{}};
  np->left.reset();
}

// PCP's check_expr: fills in each node's descriptor, leaves first.
bool Check(Bound* np, std::string* err, const Bound** where) {
  switch (np->type) {
    case kNInteger: case kNDouble: case kNName: case kNScale: case kNPattern:
      return true;
    case kNDefined:
      MakeDefined(np);
      return true;
    default:
      break;
  }
  if (!Check(np->left.get(), err, where)) return false;
  bool ok = true;
  if (np->right != nullptr) {
    if (!Check(np->right.get(), err, where)) return false;
    if (np->type == kNColon) {
      ok = TernaryBranches(np, err);
    } else if (np->type == kNQuest) {
      ok = TernaryGuard(np, err);
    } else if (np->type == kNFilterInst) {
      np->desc = np->right->desc;
    } else {
      ok = MapDesc(np, err);
    }
  } else {
    ok = UnaryDesc(np, err);
  }
  if (!ok && *where == nullptr) *where = np;
  return ok;
}

std::unique_ptr<Bound> Copy(const Node& n, const BindEnv& env, bool lookup_err_ok, bool* ok,
                            const std::string& name) {
  auto b = std::make_unique<Bound>();
  b->type = n.type;
  b->src = &n;
  b->save_last = n.save_last;
  if (n.left != nullptr) {
    b->left = Copy(*n.left, env, n.type == kNDefined, ok, name);
    if (!*ok) return nullptr;
  }
  if (n.right != nullptr) {
    b->right = Copy(*n.right, env, false, ok, name);
    if (!*ok) return nullptr;
  }
  if (n.type == kNPattern) {
    b->matcher = std::make_unique<Matcher>();
    if (n.regex) {
      b->matcher->compiled =
          regcomp(&b->matcher->re, n.value.c_str(), REG_EXTENDED | REG_NOSUB) == 0;
    }
    return b;
  }
  if (n.type == kNInteger || n.type == kNDouble || n.type == kNScale) {
    b->desc = n.desc;
    return b;
  }
  if (n.type != kNName) return b;
  absl::StatusOr<PmID> id = env.lookup_name(n.value);
  if (!id.ok()) {
    if (lookup_err_ok) return b;
    *ok = false;
    if (trace::On()) {
      trace::Say("bind_expr: error: derived metric " + name + ": operand: " + n.value + ": " +
                 ErrStr(PcpCode(id.status())));
    }
    return b;
  }
  b->pmid = *id;
  absl::StatusOr<Desc> d = env.lookup_desc(*id);
  if (!d.ok()) {
    *ok = false;
    if (trace::On()) {
      trace::Say("bind_expr: error: derived metric " + name + ": operand (" + n.value + " [" +
                 trace::PmidText(*id) + "]): " + ErrStr(PcpCode(d.status())));
    }
    return b;
  }
  b->desc = *d;
  return b;
}

std::string OperandText(const Bound& n) {
  if (n.type == kNInteger || n.type == kNDouble || n.type == kNName) return n.src->value;
  return "<expr>";
}

}  // namespace

std::unique_ptr<Bound> Bind(const Node& tree, const BindEnv& env, const std::string& name,
                            std::optional<std::string>* error, std::string* report) {
  bool ok = true;
  std::unique_ptr<Bound> b = Copy(tree, env, false, &ok, name);
  if (!ok) return nullptr;
  std::string why;
  const Bound* where = nullptr;
  if (!Check(b.get(), &why, &where)) {
    *error = why;
    if (where != nullptr) *report = SemanticReport(name, *where, why);
    return nullptr;
  }
  return b;
}

std::string SemanticReport(const std::string& name, const Bound& np, const std::string& why) {
  std::string s = "Semantic error: derived metric " + name + ": ";
  const Bound* n = &np;
  switch (n->type) {
    case kNNot: case kNNeg:
      s += std::string(NodeTypeOp(n->type)) + " " + OperandText(*n->left);
      break;
    case kNAvg: case kNCount: case kNDelta: case kNRate: case kNInstant: case kNMax:
    case kNMin: case kNSum: case kNAnon: case kNDefined: case kNScalar: {
      const Bound& l = *n->left;
      const bool named = l.type == kNName || l.type == kNInteger || l.type == kNDouble;
      s += std::string(NodeTypeName(n->type)) + "(" + (named ? l.src->value : "(null)") + ")";
      break;
    }
    case kNQuest:
      s += OperandText(*n->left) + " ? ";
      n = n->right.get();
      [[fallthrough]];
    case kNColon:
      s += OperandText(*n->left) + " : " + OperandText(*n->right);
      break;
    case kNRescale: {
      std::string units = UnitsStr(n->right->desc.units);
      s += OperandText(*n->left) + " RESCALE " + (units.empty() ? "none" : units);
      break;
    }
    case kNFilterInst:
      s += "FILTERINST ";
      break;
    default:
      s += OperandText(*n->left) + " " + NodeTypeOp(n->type) + " " + OperandText(*n->right);
      break;
  }
  return s + ": " + why + "\n";
}

void OperandPmids(const Bound& root, std::vector<PmID>* out) {
  if (root.left != nullptr) OperandPmids(*root.left, out);
  if (root.right != nullptr) OperandPmids(*root.right, out);
  if (root.type == kNName && root.pmid != kPmIDNull) out->push_back(root.pmid);
}

}  // namespace pmapi::derive
