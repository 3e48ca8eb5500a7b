// Descriptor, units and label set text; see desc_text.h.
#include "desc_text.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "pmapi/strings.h"

namespace pmdumplog {
namespace {

std::string LabelFlagsText(uint8_t flags) {
  static constexpr FlagName kFlags[] = {{1u << 0, "context"}, {1u << 1, "domain"},   {1u << 2, "indom"},
                                        {1u << 3, "cluster"}, {1u << 4, "pmid"},     {1u << 5, "instances"},
                                        {1u << 6, "compound"}, {1u << 7, "optional"}};
  return FlagNames(flags, kFlags);
}

}  // namespace

std::string FlagNames(uint32_t flags, std::span<const FlagName> names) {
  std::string s;
  for (const FlagName& f : names) {
    if (flags & f.bit) {
      if (!s.empty()) s.push_back(',');
      s.append(f.name);
    }
  }
  return s;
}

namespace {

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

void AppendDescText(const pmapi::Desc& d, std::string* out) { out->append(pmapi::DescStr(d)); }

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
