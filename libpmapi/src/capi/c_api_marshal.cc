// c_api_marshal.cc: the conversions between the C layer's structures and
// the core's (units, descriptors, labels, names, results handed out as one
// allocation that pmFreeResult recognises, value sets read back from C).
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
#include "result_builder.h"

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
  out.pmid = PmID{d.pmid};
  out.type = d.type;
  out.indom = InDom{d.indom};
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
  c.pmid = ToPcp(d.pmid);
  c.type = d.type;
  c.indom = ToPcp(d.indom);
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

namespace {

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
    for (int j = 0; j < vs.numval; ++j) bytes += BlockBytes(ResultBuilder::Stored(r, vs, j).length);
  }
  return bytes;
}

// Fills the set at `at` from vs; blocks go at *blocks, which advances.
pmValueSet* FillSet(const Result& r, const ValueSet& vs, char* at, char** blocks) {
  pmValueSet* out = reinterpret_cast<pmValueSet*>(at);
  int n = vs.numval > 0 ? vs.numval : 0;
  out->pmid = ToPcp(vs.pmid);
  out->numval = vs.numval;
  out->valfmt = IsDptr(vs) ? PM_VAL_DPTR : PM_VAL_INSITU;
  if (n == 0) {
    std::memset(&out->vlist[0], 0, sizeof(pmValue));
    return out;
  }
  const ResultBuilder::StoredValue* sv = &ResultBuilder::Stored(r, vs, 0);
  if (out->valfmt == PM_VAL_INSITU) {
    for (int j = 0; j < n; ++j) {
      pmValue& c = out->vlist[j];
      c.inst = ToPcp(sv[j].inst);
      c.value.pval = nullptr;
      c.value.lval = sv[j].lval;
    }
    return out;
  }
  for (int j = 0; j < n; ++j) {
    pmValue& c = out->vlist[j];
    c.inst = ToPcp(sv[j].inst);
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
    const uint8_t* payload = ResultBuilder::PayloadData(r, sv[j]);
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
  out->inst = Inst{v.inst};
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
    out->AddSet(PmID{vs->pmid}, vs->numval, insitu ? kValInsitu : kValDptr);
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
    c.inst = static_cast<unsigned int>(ToPcp(s.inst));
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
