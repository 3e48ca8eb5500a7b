#include "describe.h"

#include "absl/strings/str_format.h"
#include "pmapi/strings.h"

namespace pmtools {

std::string DescText(const pmapi::Desc& desc, bool verbose_indom) {
  std::string text;
  if (desc.type == pmapi::kTypeNoSupport) {
    // pmPrintDesc stops after the type of such a metric; pminfo still
    // writes the instance domain, semantics and units.
    pmapi::Desc any_type = desc;
    any_type.type = pmapi::kType32;
    text = pmapi::DescStr(any_type);
    const std::string type32 = pmapi::TypeLongStr(pmapi::kType32);
    text.replace(text.find(type32), type32.size(), pmapi::TypeLongStr(desc.type));
  } else {
    text = pmapi::DescStr(desc);
  }
  if (!verbose_indom) return text;
  // The first line ends "InDom: 29.1 0x7400001"; -I writes the number in
  // decimal too: "InDom: 29.1 = 121634817 = 0x7400001".
  size_t at = text.find("  InDom: ");
  size_t eol = text.find('\n', at);
  std::string indom = absl::StrFormat("  InDom: %s = %u = 0x%x", pmapi::InDomStr(desc.indom),
                                      desc.indom, desc.indom);
  return text.replace(at, eol - at, indom);
}

}  // namespace pmtools
