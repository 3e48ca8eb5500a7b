// c_api_values.cc: the C layer's value functions (pmExtractValue,
// pmConvScale, the *Str formatters, pmPrintValue, event unpacking) and the
// conversions between C results and the core's.
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

namespace pmapi::capi {

pmUnits ToC(const Units& u) {
  pmUnits c;
  std::memset(&c, 0, sizeof c);
  c.dimSpace = u.dim_space;
  c.dimTime = u.dim_time;
  c.dimCount = u.dim_count;
  c.scaleSpace = u.scale_space;
  c.scaleTime = u.scale_time;
  c.scaleCount = u.scale_count;
  return c;
}

Units FromC(const pmUnits& c) {
  Units u;
  u.dim_space = static_cast<int8_t>(c.dimSpace);
  u.dim_time = static_cast<int8_t>(c.dimTime);
  u.dim_count = static_cast<int8_t>(c.dimCount);
  u.scale_space = static_cast<uint8_t>(c.scaleSpace);
  u.scale_time = static_cast<uint8_t>(c.scaleTime);
  u.scale_count = static_cast<int8_t>(c.scaleCount);
  return u;
}

Desc FromC(const pmDesc& d) {
  Desc out;
  out.pmid = d.pmid;
  out.type = d.type;
  out.indom = d.indom;
  out.sem = d.sem;
  out.units = FromC(d.units);
  return out;
}

LabelEntry FromC(const pmLabel& l) {
  LabelEntry e;
  e.name = static_cast<uint16_t>(l.name);
  e.namelen = static_cast<uint8_t>(l.namelen);
  e.flags = static_cast<uint8_t>(l.flags);
  e.value = static_cast<uint16_t>(l.value);
  e.valuelen = static_cast<uint16_t>(l.valuelen);
  return e;
}

pmDesc ToC(const Desc& d) {
  pmDesc c;
  std::memset(&c, 0, sizeof c);
  c.pmid = d.pmid;
  c.type = d.type;
  c.indom = d.indom;
  c.sem = d.sem;
  c.units = ToC(d.units);
  return c;
}

char* Dup(std::string_view s) {
  char* out = static_cast<char*>(std::malloc(s.size() + 1));
  if (out == nullptr) return nullptr;
  std::memcpy(out, s.data(), s.size());
  out[s.size()] = '\0';
  return out;
}

char** PackNames(const std::vector<std::string>& names) {
  size_t bytes = names.size() * sizeof(char*);
  for (const std::string& n : names) bytes += n.size() + 1;
  char** out = static_cast<char**>(std::malloc(bytes == 0 ? 1 : bytes));
  if (out == nullptr) return nullptr;
  char* text = reinterpret_cast<char*>(out + names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    out[i] = text;
    std::memcpy(text, names[i].c_str(), names[i].size() + 1);
    text += names[i].size() + 1;
  }
  return out;
}

char* CopyOut(std::string_view s, char* buf, int buflen) {
  if (buf == nullptr || buflen <= 0) return buf;
  size_t n = std::min(s.size(), static_cast<size_t>(buflen - 1));
  std::memcpy(buf, s.data(), n);
  buf[n] = '\0';
  return buf;
}

namespace {

// A malloc'd value block of `vtype` holding `payload`.
pmValueBlock* MakeBlock(int vtype, std::span<const uint8_t> payload) {
  size_t vlen = PM_VAL_HDR_SIZE + payload.size();
  pmValueBlock* b = static_cast<pmValueBlock*>(std::malloc(std::max(vlen, sizeof(pmValueBlock))));
  if (b == nullptr) return nullptr;
  b->vtype = static_cast<unsigned>(vtype);
  b->vlen = static_cast<unsigned>(vlen);
  if (!payload.empty()) std::memcpy(b->vbuf, payload.data(), payload.size());
  return b;
}

// A result is handed out as one allocation: the R header with its array
// of set pointers, then each pmValueSet, then the value blocks of every
// DPTR set, each block 8-byte aligned. pmFreeResult recognises such
// results by their address (OneBlockResults) and frees them with one
// free(); anything else it frees piece by piece, as libpcp does.
constexpr size_t kAlign = 8;

size_t RoundUp(size_t n) { return (n + kAlign - 1) & ~(kAlign - 1); }

size_t SetBytes(int numval) {
  return RoundUp(sizeof(pmValueSet) + (numval > 1 ? (numval - 1) * sizeof(pmValue) : 0));
}

size_t BlockBytes(size_t payload) {
  return RoundUp(std::max(PM_VAL_HDR_SIZE + payload, sizeof(pmValueBlock)));
}

bool IsDptr(const ValueSet& vs) { return vs.numval > 0 && vs.valfmt != kValInsitu; }

// The bytes of r in one block, header (of `header` bytes) included.
size_t ResultBytes(const Result& r, size_t header) {
  size_t bytes = RoundUp(header + (r.numpmid() > 1 ? (r.numpmid() - 1) * sizeof(pmValueSet*) : 0));
  for (const ValueSet& vs : r.sets()) {
    bytes += SetBytes(vs.numval);
    if (!IsDptr(vs)) continue;
    for (int j = 0; j < vs.numval; ++j) bytes += BlockBytes(r.stored(vs, j).length);
  }
  return bytes;
}

// Fills the set at `at` from vs; blocks go at *blocks, which advances.
pmValueSet* FillSet(const Result& r, const ValueSet& vs, char* at, char** blocks) {
  pmValueSet* out = reinterpret_cast<pmValueSet*>(at);
  int n = vs.numval > 0 ? vs.numval : 0;
  out->pmid = vs.pmid;
  out->numval = vs.numval;
  out->valfmt = IsDptr(vs) ? PM_VAL_DPTR : PM_VAL_INSITU;
  if (n == 0) {
    std::memset(&out->vlist[0], 0, sizeof(pmValue));
    return out;
  }
  const Result::StoredValue* sv = &r.stored(vs, 0);
  if (out->valfmt == PM_VAL_INSITU) {
    for (int j = 0; j < n; ++j) {
      pmValue& c = out->vlist[j];
      c.inst = sv[j].inst;
      c.value.pval = nullptr;
      c.value.lval = sv[j].lval;
    }
    return out;
  }
  for (int j = 0; j < n; ++j) {
    pmValue& c = out->vlist[j];
    c.inst = sv[j].inst;
    pmValueBlock* b = reinterpret_cast<pmValueBlock*>(*blocks);
    const uint32_t len = sv[j].length;
    *blocks += BlockBytes(len);
    // The header is composed apart and stored whole: setting the bit
    // fields in place would read the (not yet cached) block first.
    pmValueBlock header;
    std::memset(&header, 0, sizeof header);
    header.vtype = static_cast<unsigned>(sv[j].vtype);
    header.vlen = static_cast<unsigned>(PM_VAL_HDR_SIZE + len);
    std::memcpy(b, &header, PM_VAL_HDR_SIZE);
    const uint8_t* payload = r.payload_data(sv[j]);
    if (len == 8) {
      std::memcpy(b->vbuf, payload, 8);  // the common case, a 64-bit number, inline
    } else if (len > 0) {
      std::memcpy(b->vbuf, payload, len);
    }
    c.value.pval = b;
  }
  return out;
}

// The results handed out (address and bytes allocated), and one freed
// block kept for the next result: a replay fetches results of much the
// same size again and again, and a block of a few hundred KB freed and
// allocated anew each time can move the heap's top back and forth (page
// faults on every fetch).
struct OneBlockResults {
  std::mutex mu;
  absl::flat_hash_map<const void*, size_t> live;
  void* spare = nullptr;
  size_t spare_bytes = 0;
};

OneBlockResults& Registry() {
  static OneBlockResults* r = new OneBlockResults;
  return *r;
}

// Allocates an R (pmResult or pmHighResResult) with r's value sets.
template <typename R>
R* MakeResult(const Result& r) {
  const int n = r.numpmid();
  const size_t header = RoundUp(sizeof(R) + (n > 1 ? (n - 1) * sizeof(pmValueSet*) : 0));
  size_t sets = 0;
  for (const ValueSet& vs : r.sets()) sets += SetBytes(vs.numval);
  const size_t bytes = ResultBytes(r, sizeof(R));
  OneBlockResults& reg = Registry();
  char* base = nullptr;
  size_t allocated = bytes;
  {
    std::lock_guard<std::mutex> lock(reg.mu);
    if (reg.spare != nullptr && reg.spare_bytes >= bytes) {
      base = static_cast<char*>(reg.spare);
      allocated = reg.spare_bytes;
      reg.spare = nullptr;
      reg.spare_bytes = 0;
    }
  }
  if (base == nullptr) base = static_cast<char*>(std::malloc(bytes));
  if (base == nullptr) return nullptr;
  R* out = reinterpret_cast<R*>(base);
  std::memset(out, 0, sizeof(R));
  out->numpmid = n;
  char* at = base + header;
  char* blocks = at + sets;
  for (int i = 0; i < n; ++i) {
    const ValueSet& vs = r.sets()[i];
    out->vset[i] = FillSet(r, vs, at, &blocks);
    at += SetBytes(vs.numval);
  }
  std::lock_guard<std::mutex> lock(reg.mu);
  reg.live[out] = allocated;
  return out;
}

}  // namespace

bool FreeOneBlockResult(void* result) {
  OneBlockResults& reg = Registry();
  void* drop = result;
  {
    std::lock_guard<std::mutex> lock(reg.mu);
    auto it = reg.live.find(result);
    if (it == reg.live.end()) return false;
    if (it->second >= reg.spare_bytes) {
      std::swap(drop, reg.spare);
      reg.spare_bytes = it->second;
    }
    reg.live.erase(it);
  }
  std::free(drop);
  return true;
}

pmResult* ToCResult(const Result& r) {
  pmResult* out = MakeResult<pmResult>(r);
  if (out == nullptr) return nullptr;
  int64_t ns = r.timestamp_ns();
  out->timestamp.tv_sec = ns / 1000000000;
  out->timestamp.tv_usec = (ns % 1000000000) / 1000;
  return out;
}

pmHighResResult* ToCHighResResult(const Result& r) {
  pmHighResResult* out = MakeResult<pmHighResResult>(r);
  if (out == nullptr) return nullptr;
  int64_t ns = r.timestamp_ns();
  out->timestamp.tv_sec = ns / 1000000000;
  out->timestamp.tv_nsec = ns % 1000000000;
  return out;
}

bool ViewOf(int valfmt, const pmValue& v, ValueView* out) {
  out->inst = v.inst;
  out->lval = 0;
  out->payload = {};
  out->vtype = kTypeUnknown;
  if (valfmt == PM_VAL_INSITU) {
    out->lval = v.value.lval;
    return true;
  }
  const pmValueBlock* b = v.value.pval;
  if (b == nullptr || b->vlen < PM_VAL_HDR_SIZE) return false;
  out->vtype = static_cast<int>(b->vtype);
  out->payload = {reinterpret_cast<const uint8_t*>(b->vbuf), static_cast<size_t>(b->vlen - PM_VAL_HDR_SIZE)};
  return true;
}

absl::Status AppendCValueSets(const pmValueSet* const* vset, int numpmid, Result* out) {
  for (int i = 0; i < numpmid; ++i) {
    const pmValueSet* vs = vset[i];
    if (vs == nullptr) return PcpError(kErrGeneric);
    const bool insitu = vs->numval <= 0 || vs->valfmt == PM_VAL_INSITU;
    out->AddSet(vs->pmid, vs->numval, insitu ? kValInsitu : kValDptr);
    for (int j = 0; j < vs->numval; ++j) {
      ValueView v;
      if (!ViewOf(vs->valfmt, vs->vlist[j], &v)) return PcpError(kErrGeneric);
      if (insitu) {
        out->AddInsitu(v.inst, v.lval);
      } else {
        out->AddBlock(v.inst, v.vtype, v.payload);
      }
    }
  }
  return absl::OkStatus();
}

int ToCLabelSets(const std::vector<LabelSet>& sets, pmLabelSet** out) {
  *out = nullptr;
  if (sets.empty()) return 0;
  pmLabelSet* all = static_cast<pmLabelSet*>(std::calloc(sets.size(), sizeof(pmLabelSet)));
  if (all == nullptr) return -ENOMEM;
  for (size_t i = 0; i < sets.size(); ++i) {
    const LabelSet& s = sets[i];
    pmLabelSet& c = all[i];
    c.inst = static_cast<unsigned int>(s.inst);
    c.nlabels = static_cast<int>(s.labels.size());
    // A set with no labels has no JSON at all, as in PCP.
    c.json = s.json.empty() ? nullptr : Dup(s.json);
    c.jsonlen = static_cast<unsigned>(s.json.size());
    if (!s.labels.empty()) {
      c.labels = static_cast<pmLabel*>(std::calloc(s.labels.size(), sizeof(pmLabel)));
    }
    if ((c.json == nullptr && !s.json.empty()) || (!s.labels.empty() && c.labels == nullptr)) {
      pmFreeLabelSets(all, static_cast<int>(i + 1));
      return -ENOMEM;
    }
    for (size_t k = 0; k < s.labels.size(); ++k) {
      const LabelEntry& l = s.labels[k];
      c.labels[k].name = l.name;
      c.labels[k].namelen = l.namelen;
      c.labels[k].flags = l.flags;
      c.labels[k].value = l.value;
      c.labels[k].valuelen = l.valuelen;
      if (l.namelen > 0 && s.json.find('.', l.name) < static_cast<size_t>(l.name) + l.namelen) {
        c.labels[k].flags |= PM_LABEL_COMPOUND;
        c.compound = 1;
      }
    }
  }
  *out = all;
  return static_cast<int>(sets.size());
}

}  // namespace pmapi::capi

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
  return MakePmID(domain, cluster, item);
}
unsigned int pmID_domain(pmID id) { return PmIDDomain(id); }
unsigned int pmID_cluster(pmID id) { return PmIDCluster(id); }
unsigned int pmID_item(pmID id) { return PmIDItem(id); }
pmInDom pmInDom_build(unsigned int domain, unsigned int serial) { return MakeInDom(domain, serial); }
unsigned int pmInDom_domain(pmInDom indom) { return InDomDomain(indom); }
unsigned int pmInDom_serial(pmInDom indom) { return InDomSerial(indom); }

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

char* pmIDStr_r(pmID pmid, char* buf, int buflen) { return CopyOut(IDStr(pmid), buf, buflen); }
const char* pmIDStr(pmID pmid) { return pmIDStr_r(pmid, Buffer(0), kBufLen); }
char* pmInDomStr_r(pmInDom indom, char* buf, int buflen) {
  return CopyOut(InDomStr(indom), buf, buflen);
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
    s.inst = static_cast<int32_t>(c->inst);
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
