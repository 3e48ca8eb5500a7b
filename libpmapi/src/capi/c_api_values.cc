// c_api_values.cc: the C layer's value functions (pmExtractValue,
// pmConvScale, the *Str formatters, pmPrintValue, event unpacking). The
// conversions between C structures and the core's are c_api_marshal.cc's.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

#include "c_api_internal.h"
#include "pmapi/events.h"
#include "pmapi/extract.h"
#include "pmapi/labels.h"
#include "pmapi/strings.h"
#include "pmapi/units.h"

using namespace pmapi;
using namespace pmapi::capi;

namespace {

// The core's view of a C atom of `type`. Strings and aggregates are copied.
AtomValue FromCAtom(const pmAtomValue* a, int type, int* block_vtype) {
  AtomValue v;
  *block_vtype = type;
  switch (type) {
    case PM_TYPE_32: v.l = a->l; break;
    case PM_TYPE_U32: v.ul = a->ul; break;
    case PM_TYPE_64: v.ll = a->ll; break;
    case PM_TYPE_U64: v.ull = a->ull; break;
    case PM_TYPE_FLOAT: v.f = a->f; break;
    case PM_TYPE_DOUBLE: v.d = a->d; break;
    case PM_TYPE_STRING:
      if (a->cp != nullptr) v.bytes = a->cp;
      break;
    case PM_TYPE_AGGREGATE:
    case PM_TYPE_AGGREGATE_STATIC:
    case PM_TYPE_EVENT:
    case PM_TYPE_HIGHRES_EVENT:
      if (a->vbp != nullptr && a->vbp->vlen >= PM_VAL_HDR_SIZE) {
        v.bytes.assign(a->vbp->vbuf, a->vbp->vlen - PM_VAL_HDR_SIZE);
        *block_vtype = static_cast<int>(a->vbp->vtype);
      }
      break;
    default:
      v.ull = a->ull;
  }
  return v;
}

// Stores `v` of `type` in a C atom; strings and aggregates are malloc'd.
int ToCAtom(const AtomValue& v, int type, pmAtomValue* out) {
  switch (type) {
    case PM_TYPE_32: out->l = v.l; break;
    case PM_TYPE_U32: out->ul = v.ul; break;
    case PM_TYPE_64: out->ll = v.ll; break;
    case PM_TYPE_U64: out->ull = v.ull; break;
    case PM_TYPE_FLOAT: out->f = v.f; break;
    case PM_TYPE_DOUBLE: out->d = v.d; break;
    case PM_TYPE_STRING:
      out->cp = Dup(v.bytes);
      if (out->cp == nullptr) return -ENOMEM;
      break;
    default:
      out->vbp = MakeBlock(type, {reinterpret_cast<const uint8_t*>(v.bytes.data()), v.bytes.size()});
      if (out->vbp == nullptr) return -ENOMEM;
  }
  return 0;
}

// Returns a thread's buffer for the plain (non _r) formatters.
char* Buffer(int which) {
  static thread_local char bufs[8][160];
  return bufs[which];
}

constexpr int kBufLen = 160;

template <typename R>
int Unpack(pmValueSet* vsp, int idx, R*** records, bool highres, R* (*convert)(const Result&),
           void (*release)(R*)) {
  *records = nullptr;
  if (vsp == nullptr || idx < 0 || idx >= vsp->numval) return PM_ERR_INST;
  if (vsp->valfmt == PM_VAL_INSITU) return PM_ERR_CONV;
  ValueView v;
  if (!ViewOf(vsp->valfmt, vsp->vlist[idx], &v)) return PM_ERR_TOOSMALL;
  absl::StatusOr<std::vector<Result>> got =
      highres ? UnpackHighResEventRecords(v, vsp->valfmt) : UnpackEventRecords(v, vsp->valfmt);
  if (!got.ok()) return Code(got.status());
  R** out = static_cast<R**>(std::calloc(got->size() + 1, sizeof(R*)));
  if (out == nullptr) return -ENOMEM;
  for (size_t i = 0; i < got->size(); ++i) {
    out[i] = convert((*got)[i]);
    if (out[i] == nullptr) {
      for (size_t k = 0; k < i; ++k) release(out[k]);
      std::free(out);
      return -ENOMEM;
    }
  }
  *records = out;
  return static_cast<int>(got->size());
}

}  // namespace

extern "C" {

pmID pmID_build(unsigned int domain, unsigned int cluster, unsigned int item) {
  return ToPcp(MakePmID(domain, cluster, item));
}
unsigned int pmID_domain(pmID id) { return PmIDDomain(PmID{id}); }
unsigned int pmID_cluster(pmID id) { return PmIDCluster(PmID{id}); }
unsigned int pmID_item(pmID id) { return PmIDItem(PmID{id}); }
pmInDom pmInDom_build(unsigned int domain, unsigned int serial) {
  return ToPcp(MakeInDom(domain, serial));
}
unsigned int pmInDom_domain(pmInDom indom) { return InDomDomain(InDom{indom}); }
unsigned int pmInDom_serial(pmInDom indom) { return InDomSerial(InDom{indom}); }

char* pmErrStr_r(int code, char* buf, int buflen) { return CopyOut(ErrStr(code), buf, buflen); }
char* pmErrStr(int code) {
  static thread_local char buf[PM_MAXERRMSGLEN];
  return pmErrStr_r(code, buf, sizeof buf);
}

static int ExtractChecked(int valfmt, const pmValue* ival, int itype, pmAtomValue* oval,
                          int otype) {
  if (ival == nullptr || oval == nullptr) return PM_ERR_CONV;
  ValueView v;
  if (!ViewOf(valfmt, *ival, &v)) return PM_ERR_CONV;
  if (valfmt != PM_VAL_INSITU && valfmt != PM_VAL_DPTR && valfmt != PM_VAL_SPTR) return PM_ERR_CONV;
  absl::StatusOr<AtomValue> a = ExtractValue(valfmt, v, itype, otype);
  if (!a.ok()) return Code(a.status());
  return ToCAtom(*a, otype, oval);
}

// The input of a conversion as libpcp's -Dvalue trace shows it.
static std::string TracedInput(int valfmt, const pmValue* ival, int itype) {
  pmAtomValue av{};
  char buf[80];
  if (valfmt == PM_VAL_INSITU) {
    if (itype != PM_TYPE_32 && itype != PM_TYPE_U32) return "???";
    av.l = ival->value.lval;
    return pmAtomStr_r(&av, itype, buf, sizeof buf);
  }
  const pmValueBlock* vb = ival->value.pval;
  if (vb == nullptr) return "???";
  switch (itype) {
    case PM_TYPE_64: case PM_TYPE_U64: case PM_TYPE_DOUBLE: case PM_TYPE_FLOAT:
      std::memcpy(&av, vb->vbuf, itype == PM_TYPE_FLOAT ? sizeof av.f : sizeof av.ll);
      return pmAtomStr_r(&av, itype, buf, sizeof buf);
    case PM_TYPE_STRING:
      av.cp = const_cast<char*>(vb->vbuf);
      return vb->vbuf[0] == '\0' ? "<null>" : pmAtomStr_r(&av, itype, buf, sizeof buf);
    case PM_TYPE_AGGREGATE: {
      int vlen = static_cast<int>(vb->vlen) - PM_VAL_HDR_SIZE;
      std::string out = absl::StrCat("[len=", vlen, "]");
      for (int i = 0; i < vlen && i < 12; ++i) {
        if (i % 4 == 0) out += ' ';
        absl::StrAppendFormat(&out, "%02x", vb->vbuf[i] & 0xff);
      }
      if (vlen > 12) out += " ...";
      return out;
    }
    default:
      return "???";
  }
}

int pmExtractValue(int valfmt, const pmValue* ival, int itype, pmAtomValue* oval, int otype) {
  int sts = ExtractChecked(valfmt, ival, itype, oval, otype);
  if (pmDebugOptions.value && ival != nullptr && oval != nullptr) {
    char buf[PM_MAXERRMSGLEN];
    std::string line = absl::StrCat("pmExtractValue:  ", TracedInput(valfmt, ival, itype), " [",
                                     TypeStr(itype), "] -> ");
    absl::StrAppend(&line, sts == 0 ? pmAtomStr_r(oval, otype, buf, sizeof buf)
                                    : absl::StrCat("Error: ", ErrStr(sts)));
    std::fprintf(stderr, "%s [%s]\n", line.c_str(), TypeStr(otype).c_str());
  }
  return sts;
}

// libpcp's -Dvalue trace of pmConvScale: the value and units in, and out
// (or the error); dimensionless units are taken as counts.
static void TraceConvScale(int type, const pmAtomValue* ival, const pmUnits* iunit,
                           const pmAtomValue* oval, const pmUnits* ounit, int sts) {
  auto dimensionless = [](const pmUnits* u) {
    return u->dimSpace == 0 && u->dimTime == 0 && u->dimCount == 0;
  };
  auto as_count = [](pmUnits u) {
    u.dimCount = 1;
    return UnitsStr(FromC(u));
  };
  char buf[80];
  std::string line = absl::StrCat("pmConvScale: ", pmAtomStr_r(ival, type, buf, sizeof buf), " [",
                                  UnitsStr(FromC(*iunit)), "]");
  if (dimensionless(iunit)) absl::StrAppend(&line, " defaults to [", as_count(*iunit), "]");
  absl::StrAppend(&line, " -> ", sts == 0 ? pmAtomStr_r(oval, type, buf, sizeof buf)
                                          : absl::StrCat("Error: ", ErrStr(sts)));
  absl::StrAppend(&line, " [", UnitsStr(FromC(*ounit)), "]");
  if (dimensionless(ounit)) absl::StrAppend(&line, " defaults to [", as_count(*ounit), "]");
  std::fprintf(stderr, "%s\n", line.c_str());
}

int pmConvScale(int type, const pmAtomValue* ival, const pmUnits* iunit, pmAtomValue* oval,
                const pmUnits* ounit) {
  if (type < PM_TYPE_32 || type > PM_TYPE_DOUBLE) return PM_ERR_CONV;
  int unused;
  absl::StatusOr<AtomValue> a = ConvScale(type, FromCAtom(ival, type, &unused), FromC(*iunit),
                                          FromC(*ounit));
  int sts = a.ok() ? ToCAtom(*a, type, oval) : Code(a.status());
  if (pmDebugOptions.value) TraceConvScale(type, ival, iunit, oval, ounit, sts);
  return sts;
}

char* pmIDStr_r(pmID pmid, char* buf, int buflen) {
  return CopyOut(IDStr(PmID{pmid}), buf, buflen);
}
const char* pmIDStr(pmID pmid) { return pmIDStr_r(pmid, Buffer(0), kBufLen); }
char* pmInDomStr_r(pmInDom indom, char* buf, int buflen) {
  return CopyOut(InDomStr(InDom{indom}), buf, buflen);
}
const char* pmInDomStr(pmInDom indom) { return pmInDomStr_r(indom, Buffer(1), kBufLen); }
char* pmTypeStr_r(int type, char* buf, int buflen) { return CopyOut(TypeStr(type), buf, buflen); }
// Type and semantics names are constant strings in PCP, so several may be
// used in one statement; the few distinct answers are kept for good.
static const char* Interned(const std::string& s) {
  static std::mutex mu;
  static std::set<std::string>* all = new std::set<std::string>;
  std::lock_guard<std::mutex> lock(mu);
  return all->insert(s).first->c_str();
}
const char* pmTypeStr(int type) { return Interned(TypeStr(type)); }
char* pmSemStr_r(int sem, char* buf, int buflen) { return CopyOut(SemStr(sem), buf, buflen); }
const char* pmSemStr(int sem) { return Interned(SemStr(sem)); }
char* pmUnitsStr_r(const pmUnits* units, char* buf, int buflen) {
  // PCP wants room for the longest text (60 bytes) whatever the units.
  constexpr int kUnitsStrMin = 60;
  if (buflen < kUnitsStrMin) return nullptr;
  return CopyOut(UnitsStr(FromC(*units)), buf, buflen);
}
const char* pmUnitsStr(const pmUnits* units) { return pmUnitsStr_r(units, Buffer(4), kBufLen); }
char* pmAtomStr_r(const pmAtomValue* atom, int type, char* buf, int buflen) {
  // A string or block atom with no value behind it, as libpcp shows it.
  bool is_block = type == PM_TYPE_AGGREGATE || type == PM_TYPE_AGGREGATE_STATIC;
  if ((type == PM_TYPE_STRING && atom->cp == nullptr) || (is_block && atom->vbp == nullptr)) {
    return CopyOut("<null>", buf, buflen);
  }
  int block_vtype;
  AtomValue v = FromCAtom(atom, type, &block_vtype);
  return CopyOut(AtomStr(v, type, block_vtype), buf, buflen);
}
const char* pmAtomStr(const pmAtomValue* atom, int type) {
  return pmAtomStr_r(atom, type, Buffer(5), kBufLen);
}
char* pmNumberStr_r(double value, char* buf, int buflen) {
  return CopyOut(NumberStr(value), buf, buflen);
}
const char* pmNumberStr(double value) { return pmNumberStr_r(value, Buffer(6), kBufLen); }
char* pmEventFlagsStr_r(int flags, char* buf, int buflen) {
  return CopyOut(EventFlagsStr(flags), buf, buflen);
}
const char* pmEventFlagsStr(int flags) { return pmEventFlagsStr_r(flags, Buffer(7), kBufLen); }

void pmPrintValue(FILE* f, int valfmt, int type, const pmValue* val, int minwidth) {
  ValueView v;
  if (f == nullptr || val == nullptr || !ViewOf(valfmt, *val, &v)) return;
  std::string text = FormatValue(valfmt, type, v, minwidth);
  std::fputs(text.c_str(), f);
}

void pmPrintDesc(FILE* f, const pmDesc* desc) {
  if (f == nullptr || desc == nullptr) return;
  std::fputs(DescStr(FromC(*desc)).c_str(), f);
}

void pmFreeLabelSets(pmLabelSet* sets, int nsets) {
  if (sets == nullptr) return;
  for (int i = 0; i < nsets; ++i) {
    std::free(sets[i].json);
    std::free(sets[i].labels);
  }
  std::free(sets);
}

// Adds the labels of the JSON object `json` to *out under `prefix`,
// nested maps flattened to dotted names as PCP's compound parsing names
// them: the outermost map's name and the member's ("a.c" for
// {"a":{"b":{"c":1}}}). 0, or -EINVAL for text that is not a label set
// (the parser's own code for one too large).
static int FlattenLabels(std::string_view json, const std::string& prefix,
                         std::map<std::string, std::string>* out) {
  absl::StatusOr<LabelSet> set = ParseLabelSet(json, PM_LABEL_COMPOUND);
  if (!set.ok()) return Code(set.status()) == PM_ERR_GENERIC ? -EINVAL : Code(set.status());
  for (const LabelEntry& l : set->labels) {
    std::string name = prefix + std::string(LabelName(*set, l));
    std::string_view value = LabelValue(*set, l);
    if (value.size() > 2 && value.front() == '{') {
      int sts = FlattenLabels(value, prefix.empty() ? name + "." : prefix, out);
      if (sts < 0) return sts;
    } else {
      (*out)[name] = std::string(value);
    }
  }
  return 0;
}

// Merged label JSON into buf: its length, or PM_ERR_TOOSMALL if it does
// not fit.
static int MergeInto(const std::vector<const LabelSet*>& sets, char* buf, int buflen) {
  std::string merged = MergeLabelSets(sets);
  if (buf == nullptr || buflen <= 0 || merged.size() >= static_cast<size_t>(buflen)) {
    return PM_ERR_TOOSMALL;
  }
  CopyOut(merged, buf, buflen);
  return static_cast<int>(merged.size());
}

// pmMergeLabels merges JSON texts as PCP's compound parsing sees them: a
// nested map's members are labels of their own named "map.member" (an
// empty map stays a label whose value is {}), later texts override earlier
// ones name by name, and the result lists the names in byte order.
int pmMergeLabels(char** labels, int nlabels, char* buf, int buflen) {
  if (labels == nullptr || nlabels < 1) return -EINVAL;
  std::map<std::string, std::string> merged;
  for (int i = 0; i < nlabels; ++i) {
    if (labels[i] == nullptr || labels[i][0] == '\0') continue;
    int sts = FlattenLabels(labels[i], "", &merged);
    if (sts < 0) return sts;
  }
  std::string out = "{";
  for (const auto& [name, value] : merged) {
    absl::StrAppend(&out, out.size() > 1 ? "," : "", "\"", name, "\":", value);
  }
  out += "}";
  if (buf == nullptr || buflen <= 0 || out.size() >= static_cast<size_t>(buflen)) return -E2BIG;
  CopyOut(out, buf, buflen);
  return static_cast<int>(out.size());
}

int pmMergeLabelSets(pmLabelSet** sets, int nsets, char* buf, int buflen,
                     int (*filter)(const pmLabel*, const char*, void*), void* arg) {
  std::vector<LabelSet> kept;
  for (int i = 0; i < nsets; ++i) {
    const pmLabelSet* c = sets[i];
    if (c == nullptr || c->json == nullptr || c->nlabels <= 0) continue;
    LabelSet s;
    s.inst = static_cast<Inst>(c->inst);
    s.json.assign(c->json, c->jsonlen);
    for (int k = 0; k < c->nlabels; ++k) {
      const pmLabel& l = c->labels[k];
      if (filter != nullptr && filter(&l, c->json, arg) == 0) continue;
      s.labels.push_back(FromC(l));
    }
    kept.push_back(std::move(s));
  }
  std::vector<const LabelSet*> ptrs;
  for (const LabelSet& s : kept) ptrs.push_back(&s);
  return MergeInto(ptrs, buf, buflen);
}

int pmUnpackEventRecords(pmValueSet* vsp, int idx, pmResult*** records) {
  return Unpack(vsp, idx, records, false, ToCResult, pmFreeResult);
}

int pmUnpackHighResEventRecords(pmValueSet* vsp, int idx, pmHighResResult*** records) {
  return Unpack(vsp, idx, records, true, ToCHighResResult, pmFreeHighResResult);
}

void pmFreeEventResult(pmResult** records) {
  if (records == nullptr) return;
  for (pmResult** r = records; *r != nullptr; ++r) pmFreeResult(*r);
  std::free(records);
}

void pmFreeHighResEventResult(pmHighResResult** records) {
  if (records == nullptr) return;
  for (pmHighResResult** r = records; *r != nullptr; ++r) pmFreeHighResResult(*r);
  std::free(records);
}

}  // extern "C"
