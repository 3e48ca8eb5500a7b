// Fuzz target: the derived metric expression parser (Parse), and the
// configuration reader over the same bytes as a configuration file.
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "expr.h"
#include "fuzz_support.h"
#include "pmapi/derived.h"

namespace {

// The depth and node count of a parsed tree, to digest its shape.
uint64_t Shape(const pmapi::derive::Node* n, int depth) {
  if (n == nullptr) return 0;
  return static_cast<uint64_t>(n->type) * 31 + static_cast<uint64_t>(depth) +
         Shape(n->left.get(), depth + 1) * 7 + Shape(n->right.get(), depth + 1) * 13;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  pmapi::derive::ParseResult r = pmapi::derive::Parse(text);
  if (r.tree != nullptr) {
    fuzz::Consume(Shape(r.tree.get(), 0));
  } else {
    fuzz::Consume(static_cast<uint64_t>(r.error_offset + 1) +
                  (r.error.has_value() ? fuzz::Digest(*r.error) : 0));
  }
  // The same bytes as a configuration file. Its diagnostics are not
  // wanted, and the registrations it makes accumulate, so they are capped.
  static const std::string path = [] {
    char name[] = "/tmp/pmapi-derive-fuzz-XXXXXX";
    int fd = mkstemp(name);
    if (fd >= 0) close(fd);
    pmapi::SetDerivedGlobalLimit(200);
    return std::string(name);
  }();
  if (FILE* f = std::fopen(path.c_str(), "w")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
    // The reader's diagnostics go to stderr; they are not wanted, so fd 2
    // points at /dev/null while it runs (libFuzzer's own reports, written
    // to fd 2 later, still reach its log).
    std::fflush(stderr);
    const int saved = dup(2);
    const int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, 2);
    absl::StatusOr<int> n = pmapi::LoadDerivedConfig(path);
    std::fflush(stderr);
    if (saved >= 0) dup2(saved, 2);
    if (null >= 0) close(null);
    if (saved >= 0) close(saved);
    fuzz::Consume(n.ok() ? static_cast<uint64_t>(*n) : 1);
  }
  return 0;
}
