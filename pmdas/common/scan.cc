// pmdas/common/scan.cc: the sscanf pieces of scan.h.
#include "pmdas/common/scan.h"

#include <cstdlib>

#include "absl/strings/ascii.h"

namespace pmapi::agent_scan {

void SkipSpace(std::string_view s, size_t* pos) {
  while (*pos < s.size() && absl::ascii_isspace(static_cast<unsigned char>(s[*pos]))) ++*pos;
}

// %llu / %u: optional sign and decimal digits after blanks, as strtoull.
bool ScanUnsigned(std::string_view s, size_t* pos, uint64_t* value) {
  SkipSpace(s, pos);
  size_t at = *pos;
  bool negative = false;
  if (at < s.size() && (s[at] == '+' || s[at] == '-')) negative = s[at++] == '-';
  const size_t digits = at;
  uint64_t v = 0;
  bool overflow = false;
  for (; at < s.size() && absl::ascii_isdigit(static_cast<unsigned char>(s[at])); ++at) {
    const uint64_t d = static_cast<uint64_t>(s[at] - '0');
    if (v > (~uint64_t{0} - d) / 10) overflow = true;
    v = v * 10 + d;
  }
  if (at == digits) return false;
  *pos = at;
  *value = overflow ? ~uint64_t{0} : (negative ? uint64_t{0} - v : v);
  return true;
}

// %f: a float after blanks, as strtof reads it.
bool ScanFloat(std::string_view s, size_t* pos, float* value) {
  SkipSpace(s, pos);
  const std::string part(s.substr(*pos, 64));
  char* end = nullptr;
  const float v = std::strtof(part.c_str(), &end);
  if (end == part.c_str()) return false;
  *pos += static_cast<size_t>(end - part.c_str());
  *value = v;
  return true;
}

// A literal of a scanf format: blanks match any run of white space, other
// characters themselves; false (position at the mismatch) otherwise.
bool ScanLiteral(std::string_view s, size_t* pos, std::string_view literal) {
  for (char c : literal) {
    if (c == ' ') {
      SkipSpace(s, pos);
    } else if (*pos < s.size() && s[*pos] == c) {
      ++*pos;
    } else {
      return false;
    }
  }
  return true;
}

bool ScanWord(std::string_view s, size_t* pos, std::string* word) {
  SkipSpace(s, pos);
  const size_t start = *pos;
  while (*pos < s.size() && !absl::ascii_isspace(static_cast<unsigned char>(s[*pos]))) ++*pos;
  word->assign(s.substr(start, *pos - start));
  return *pos > start;
}

}  // namespace pmapi::agent_scan
