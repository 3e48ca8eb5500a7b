// display_width.h: text columns measured as a terminal shows them.
//
// pmval lines instance names up in fixed-width columns. PCP pads and cuts
// them by bytes, which misaligns UTF-8 names; these functions count what a
// terminal displays instead: one column for most characters, two for East
// Asian wide and fullwidth ones, none for combining marks and format
// characters. For ASCII text the result is what printf's "%*.*s" gives.
//
// Example:
//   DisplayWidth("café");                    // 4 (5 bytes)
//   PadDisplay("日本語", 4);                  // "日本" (cut at 4 columns)
//   PadDisplay("ab", 4);                     // "  ab"
#ifndef PMAPI_TOOLS_COMMON_DISPLAY_WIDTH_H_
#define PMAPI_TOOLS_COMMON_DISPLAY_WIDTH_H_

#include <string>
#include <string_view>

namespace pmtools {

// Returns the number of terminal columns `text` (UTF-8) takes. Bytes that
// are not valid UTF-8 count one column each.
int DisplayWidth(std::string_view text);

// Returns `text` cut to at most `width` columns (never inside a character)
// and padded on the left with spaces to `width` columns, as "%*.*s" does
// with bytes (a negative width, as printf's, left-justifies and never cuts).
std::string PadDisplay(std::string_view text, int width);

}  // namespace pmtools

#endif  // PMAPI_TOOLS_COMMON_DISPLAY_WIDTH_H_
