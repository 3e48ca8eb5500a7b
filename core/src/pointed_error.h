// pointed_error.h: the text PCP's parsers give for input they cannot read:
// the input, then a line that points at the failing byte ("^ -- reason").
//
// Example:
//   PointedErrorText("a:1x", 3, "non-numeric port") ==
//       "a:1x\n   ^ -- non-numeric port\n"
#ifndef PMAPI_SRC_CORE_POINTED_ERROR_H_
#define PMAPI_SRC_CORE_POINTED_ERROR_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace pmapi {

// The second line keeps the input's non-printing bytes (tabs, so the
// columns line up) and blanks the rest up to the point. A point past the
// end stops at the end.
std::string PointedErrorText(std::string_view text, size_t point, std::string_view reason);

}  // namespace pmapi

#endif  // PMAPI_SRC_CORE_POINTED_ERROR_H_
