// output.h: a buffered stdout writer for pmdumplog's hot loops.
//
// Text is appended to an in-memory buffer and written in large blocks;
// numbers go through std::to_chars, so no iostream or per-call locale work
// happens while records are dumped. Flush() must be called before anything
// is written to stderr, so the two streams interleave as PCP's do.
//
// Example:
//   Output out;
//   out.Str("value ");
//   out.Int(42);
//   out.Char('\n');
//   out.Flush();
#ifndef PMAPI_TOOLS_PMDUMPLOG_OUTPUT_H_
#define PMAPI_TOOLS_PMDUMPLOG_OUTPUT_H_

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "pmapi/types.h"

namespace pmdumplog {

class Output {
 public:
  Output() { buf_.reserve(kFlushAt + 4096); }
  ~Output() { Flush(); }
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  void Str(std::string_view s) {
    buf_.append(s.data(), s.size());
    MaybeFlush();
  }
  void Char(char c) {
    buf_.push_back(c);
    MaybeFlush();
  }
  // Appends an instance number.
  void Int(pmapi::Inst v) { Int(pmapi::ToPcp(v)); }
  // Appends a decimal integer.
  template <typename T>
  void Int(T v) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof(tmp), v);
    buf_.append(tmp, r.ptr);
    MaybeFlush();
  }
  // Returns the buffer, for appenders that take a std::string*; call
  // Check() after appending to it.
  std::string* buffer() { return &buf_; }
  void Check() { MaybeFlush(); }

  // Writes everything buffered to stdout.
  void Flush() {
    if (!buf_.empty()) {
      fwrite(buf_.data(), 1, buf_.size(), stdout);
      buf_.clear();
    }
    fflush(stdout);
  }

 private:
  static constexpr size_t kFlushAt = 1 << 16;
  void MaybeFlush() {
    if (buf_.size() >= kFlushAt) {
      fwrite(buf_.data(), 1, buf_.size(), stdout);
      buf_.clear();
    }
  }
  std::string buf_;
};

}  // namespace pmdumplog

#endif  // PMAPI_TOOLS_PMDUMPLOG_OUTPUT_H_
