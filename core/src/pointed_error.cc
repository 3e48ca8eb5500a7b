// PCP's parse error text; see pointed_error.h.
#include "pointed_error.h"

#include <cctype>

namespace pmapi {

std::string PointedErrorText(std::string_view text, size_t point, std::string_view reason) {
  std::string out(text);
  out += '\n';
  for (size_t i = 0; i < point && i < text.size(); ++i) {
    out += std::isgraph(static_cast<unsigned char>(text[i])) ? ' ' : text[i];
  }
  out += "^ -- ";
  out.append(reason.data(), reason.size());
  out += '\n';
  return out;
}

}  // namespace pmapi
