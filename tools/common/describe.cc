#include "describe.h"

#include "absl/strings/str_format.h"
#include "pmapi/strings.h"
#include "pmapi/units.h"

namespace pmtools {
namespace {

const char* SemName(int sem) {
  switch (sem) {
    case pmapi::kSemCounter:
      return "counter";
    case pmapi::kSemInstant:
      return "instant";
    case pmapi::kSemDiscrete:
      return "discrete";
  }
  return nullptr;
}

}  // namespace

std::string TypeLongName(int type) {
  switch (type) {
    case pmapi::kTypeNoSupport:
      return "Not Supported";
    case pmapi::kType32:
      return "32-bit int";
    case pmapi::kTypeU32:
      return "32-bit unsigned int";
    case pmapi::kType64:
      return "64-bit int";
    case pmapi::kTypeU64:
      return "64-bit unsigned int";
    case pmapi::kTypeFloat:
      return "float";
    case pmapi::kTypeDouble:
      return "double";
    case pmapi::kTypeString:
      return "string";
    case pmapi::kTypeAggregate:
      return "aggregate";
    case pmapi::kTypeAggregateStatic:
      return "static aggregate";
    case pmapi::kTypeEvent:
      return "event record array";
    case pmapi::kTypeHighResEvent:
      return "highres event record array";
  }
  return "???";
}

std::string DescText(const pmapi::Desc& desc, bool verbose_indom) {
  std::string indom = pmapi::InDomStr(desc.indom);
  std::string out;
  if (verbose_indom) {
    out = absl::StrFormat("    Data Type: %s  InDom: %s = %u = 0x%x\n", TypeLongName(desc.type),
                          indom, desc.indom, desc.indom);
  } else {
    out = absl::StrFormat("    Data Type: %s  InDom: %s 0x%x\n", TypeLongName(desc.type), indom,
                          desc.indom);
  }
  const char* sem = SemName(desc.sem);
  if (sem == nullptr) {
    std::string units = pmapi::UnitsStr(desc.units);
    absl::StrAppendFormat(&out, "    Semantics: ??? (%d)  Units: %s\n", desc.sem,
                          units.empty() ? "none" : units);
    return out;
  }
  std::string units = pmapi::UnitsStr(desc.units);
  absl::StrAppendFormat(&out, "    Semantics: %s  Units: %s\n", sem, units.empty() ? "none" : units);
  return out;
}

}  // namespace pmtools
