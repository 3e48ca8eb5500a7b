// Descriptor, units and label set text; see desc_text.h.
#include "desc_text.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace pmdumplog {
namespace {

std::string SpaceText(int scale) {
  static const char* const kNames[] = {"byte",  "Kbyte", "Mbyte", "Gbyte", "Tbyte",
                                       "Pbyte", "Ebyte", "Zbyte", "Ybyte"};
  if (scale >= 0 && scale < 9) return kNames[scale];
  return absl::StrCat("space-", scale);
}

std::string TimeText(int scale) {
  static const char* const kNames[] = {"nanosec", "microsec", "millisec", "sec", "min", "hour"};
  if (scale >= 0 && scale < 6) return kNames[scale];
  return absl::StrCat("time-", scale);
}

std::string CountText(int scale) {
  if (scale == 0) return "count";
  if (scale == 1) return "count x 10";
  return absl::StrCat("count x 10^", scale);
}

// Appends "name" or "name^power" and a space.
void AppendPower(const std::string& name, int power, std::string* out) {
  if (power == 1) {
    absl::StrAppend(out, name, " ");
  } else {
    absl::StrAppend(out, name, "^", power, " ");
  }
}

std::string TypeText(int type) {
  switch (type) {
    case -1: return "Not Supported";
    case 0: return "32-bit int";
    case 1: return "32-bit unsigned int";
    case 2: return "64-bit int";
    case 3: return "64-bit unsigned int";
    case 4: return "float";
    case 5: return "double";
    case 6: return "string";
    case 7: return "aggregate";
    case 8: return "static aggregate";
    case 9: return "event record array";
    case 10: return "highres event record array";
    default: return absl::StrCat("??? (", type, ")");
  }
}

std::string SemText(int sem) {
  switch (sem) {
    case 1: return "counter";
    case 3: return "instant";
    case 4: return "discrete";
    default: return absl::StrCat("??? (", sem, ")");
  }
}

std::string LabelFlagsText(uint8_t flags) {
  static const struct {
    uint8_t bit;
    const char* name;
  } kFlags[] = {{1u << 0, "context"}, {1u << 1, "domain"},    {1u << 2, "indom"},
                {1u << 3, "cluster"}, {1u << 4, "pmid"},      {1u << 5, "instances"},
                {1u << 6, "compound"}, {1u << 7, "optional"}};
  std::string s;
  for (const auto& f : kFlags) {
    if (flags & f.bit) {
      if (!s.empty()) s.push_back(',');
      s.append(f.name);
    }
  }
  return s;
}

std::string LabelSetHeader(const pmapi::LabelRecord& r, const pmapi::LabelSet& set) {
  switch (r.type) {
    case 1u << 0: return "Context";
    case 1u << 1: return absl::StrCat("Domain ", r.ident);
    case 1u << 2:
      return absl::StrCat("InDom ", r.ident >> 22 & 0x1ff, ".", r.ident & 0x3fffff);
    case 1u << 3:
      return absl::StrCat("Cluster ", r.ident >> 22 & 0x1ff, ".", r.ident >> 10 & 0xfff);
    case 1u << 4:
      return absl::StrCat("PMID ", r.ident >> 22 & 0x1ff, ".", r.ident >> 10 & 0xfff, ".",
                          r.ident & 0x3ff);
    case 1u << 5:
      return absl::StrCat("InDom ", r.ident >> 22 & 0x1ff, ".", r.ident & 0x3fffff, "[",
                          set.inst, "]");
    default: return absl::StrCat("Type ", r.type, " ident ", r.ident);
  }
}

}  // namespace

std::string UnitsText(const pmapi::Units& u) {
  std::string out;
  if (u.dim_space > 0) AppendPower(SpaceText(u.scale_space), u.dim_space, &out);
  if (u.dim_time > 0) AppendPower(TimeText(u.scale_time), u.dim_time, &out);
  if (u.dim_count > 0) AppendPower(CountText(u.scale_count), u.dim_count, &out);
  if (u.dim_space < 0 || u.dim_time < 0 || u.dim_count < 0) {
    out.append("/ ");
    if (u.dim_space < 0) AppendPower(SpaceText(u.scale_space), -u.dim_space, &out);
    if (u.dim_time < 0) AppendPower(TimeText(u.scale_time), -u.dim_time, &out);
    if (u.dim_count < 0) AppendPower(CountText(u.scale_count), -u.dim_count, &out);
  }
  if (out.empty()) {
    // Dimensionless, but a count scale may still be given.
    if (u.scale_count == 1) return "x 10";
    if (u.scale_count != 0) return absl::StrCat("x 10^", u.scale_count);
    return out;
  }
  out.pop_back();
  return out;
}

void AppendDescText(const pmapi::Desc& d, std::string* out) {
  absl::StrAppend(out, "    Data Type: ", TypeText(d.type), "  InDom: ");
  if (d.indom == pmapi::kInDomNull) {
    out->append("PM_INDOM_NULL 0xffffffff\n");
  } else {
    absl::StrAppendFormat(out, "%d.%d 0x%x\n", pmapi::InDomDomain(d.indom),
                          pmapi::InDomSerial(d.indom), d.indom);
  }
  std::string units = UnitsText(d.units);
  absl::StrAppend(out, "    Semantics: ", SemText(d.sem), "  Units: ",
                  units.empty() ? "none" : units, "\n");
}

void AppendLabelSets(const pmapi::LabelRecord& r, std::string* out) {
  for (const pmapi::LabelSet& set : r.sets) {
    absl::StrAppend(out, "    ", LabelSetHeader(r, set), " labels (", set.json.size(),
                    " bytes): ", set.json, "\n");
    for (size_t i = 0; i < set.labels.size(); ++i) {
      const pmapi::LabelEntry& l = set.labels[i];
      absl::StrAppendFormat(out, "        [%d] name(%d,%d) : value(%d,%d) [%s]\n", i, l.name,
                            l.namelen, l.value, l.valuelen, LabelFlagsText(l.flags));
    }
  }
}

}  // namespace pmdumplog
