#include "display_width.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <cstdint>

namespace pmtools {
namespace {

int CodePointWidth(UChar32 c) {
  if (c < 0) return 1;  // an invalid byte
  const int8_t cat = static_cast<int8_t>(u_charType(c));
  if (cat == U_NON_SPACING_MARK || cat == U_ENCLOSING_MARK || cat == U_FORMAT_CHAR) return 0;
  const int ea = u_getIntPropertyValue(c, UCHAR_EAST_ASIAN_WIDTH);
  return (ea == U_EA_WIDE || ea == U_EA_FULLWIDTH) ? 2 : 1;
}

// Calls visit(byte_offset_after, columns) for each character of `text`.
template <typename Visit>
void ForEachCharacter(std::string_view text, Visit visit) {
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const int32_t n = static_cast<int32_t>(text.size());
  int32_t i = 0;
  while (i < n) {
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (!visit(static_cast<size_t>(i), CodePointWidth(c))) return;
  }
}

}  // namespace

int DisplayWidth(std::string_view text) {
  int width = 0;
  ForEachCharacter(text, [&](size_t, int w) {
    width += w;
    return true;
  });
  return width;
}

std::string PadDisplay(std::string_view text, int width) {
  if (width < 0) {  // printf: left-justified in -width columns, not cut
    std::string out(text);
    const int w = DisplayWidth(text);
    if (-width > w) out.append(static_cast<size_t>(-width - w), ' ');
    return out;
  }
  size_t keep = 0;
  int used = 0;
  ForEachCharacter(text, [&](size_t end, int w) {
    if (used + w > width) return false;
    used += w;
    keep = end;
    return true;
  });
  std::string out(static_cast<size_t>(width > used ? width - used : 0), ' ');
  out.append(text.substr(0, keep));
  return out;
}

}  // namespace pmtools
