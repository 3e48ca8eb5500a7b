#include "value_text.h"

#include "absl/strings/str_format.h"
#include "pmapi/types.h"

namespace pmval {

namespace {

// The automatic form: the trailing blanks pad each form so that the
// decimal point lines up with that of "x.xxxx".
std::string AutoText(double v, int width) {
  if (v == 0) return absl::StrFormat("%*.0f.0   ", width - 5, v);
  if (v < 0.1 || v > 9999) return absl::StrFormat("%*.3E", width, v);
  if (v <= 0.9999) return absl::StrFormat("%*.4f", width, v);
  if (v <= 9.999) return absl::StrFormat("%*.3f ", width - 1, v);
  if (v <= 99.99) return absl::StrFormat("%*.2f  ", width - 2, v);
  if (v <= 999.9) return absl::StrFormat("%*.1f   ", width - 3, v);
  return absl::StrFormat("%*.0f.    ", width - 5, v);
}

}  // namespace

std::string RealText(double v, int sem, int width, int fixed) {
  if (v < 0.0 && sem == pmapi::kSemCounter) return absl::StrFormat("%*s", width, "!");
  if (fixed != -1) return absl::StrFormat("%*.*f", width, fixed, v);
  return AutoText(v, width);
}

int ColumnWidth(int type) {
  switch (type) {
    case pmapi::kType32:
    case pmapi::kTypeU32:
      return 11;
    case pmapi::kType64:
    case pmapi::kTypeU64:
      return 21;
    case pmapi::kTypeFloat:
      return 13;
    case pmapi::kTypeDouble:
    case pmapi::kTypeString:
    case pmapi::kTypeAggregate:
    case pmapi::kTypeAggregateStatic:
      return 21;
    case pmapi::kTypeEvent:
    case pmapi::kTypeHighResEvent:
      return 0;
    default:
      return -1;
  }
}

}  // namespace pmval
