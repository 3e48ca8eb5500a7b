// c_api_print.cc: pmprintf and pmflush (text kept until pmflush writes it
// to stderr), and pmsprintf.
#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <string>

#include "c_api_internal.h"

namespace {

std::mutex print_mu;
std::string* print_buffer = new std::string;

}  // namespace

extern "C" {

int pmprintf(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char small[512];
  va_list copy;
  va_copy(copy, ap);
  int n = std::vsnprintf(small, sizeof small, fmt, copy);
  va_end(copy);
  std::string text;
  if (n >= 0 && static_cast<size_t>(n) < sizeof small) {
    text = small;
  } else if (n >= 0) {
    text.resize(static_cast<size_t>(n) + 1);
    std::vsnprintf(text.data(), text.size(), fmt, ap);
    text.resize(static_cast<size_t>(n));
  }
  va_end(ap);
  std::lock_guard<std::mutex> lock(print_mu);
  print_buffer->append(text);
  return n;
}

int pmflush(void) {
  std::string text;
  {
    std::lock_guard<std::mutex> lock(print_mu);
    text.swap(*print_buffer);
  }
  if (text.empty()) return 0;
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
  return static_cast<int>(text.size());
}

int pmsprintf(char* buf, size_t size, const char* fmt, ...) {
  if (buf == nullptr || size == 0) return 0;
  va_list ap;
  va_start(ap, fmt);
  int n = std::vsnprintf(buf, size, fmt, ap);
  va_end(ap);
  if (n < 0) {
    buf[0] = '\0';
    return 0;
  }
  return static_cast<size_t>(n) >= size ? static_cast<int>(size - 1) : n;
}

}  // extern "C"
