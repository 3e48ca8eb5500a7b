// What the fuzz targets share: digests, the scratch directory, file writes.
#include "fuzz_support.h"

#include <fcntl.h>
#include <ftw.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>

namespace fuzz {
namespace {

constexpr uint64_t kFnvPrime = 1099511628211ull;
constexpr uint64_t kFnvBasis = 14695981039346656037ull;

uint64_t Mix(uint64_t h, uint64_t v) { return (h ^ v) * kFnvPrime; }

volatile uint64_t g_sink = 0;

int RemoveEntry(const char* path, const struct stat*, int, struct FTW*) {
  return ::remove(path);
}

void RemoveScratch() {
  const std::string& dir = ScratchDir();
  ::nftw(dir.c_str(), RemoveEntry, 16, FTW_DEPTH | FTW_PHYS);
}

}  // namespace

uint64_t Digest(std::span<const uint8_t> bytes) {
  uint64_t h = kFnvBasis;
  for (uint8_t b : bytes) h = Mix(h, b);
  return h;
}

uint64_t Digest(std::string_view text) {
  return Digest(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

uint64_t Digest(const absl::Status& status) {
  absl::string_view m = status.message();
  return Mix(Digest(std::string_view(m.data(), m.size())), static_cast<uint64_t>(status.raw_code()));
}

uint64_t Digest(const pmapi::Result& r) {
  uint64_t h = Mix(kFnvBasis, static_cast<uint64_t>(r.timestamp_ns()));
  for (const pmapi::ValueSet& vs : r.sets()) {
    h = Mix(h, pmapi::ToPcp(vs.pmid));
    h = Mix(h, static_cast<uint64_t>(vs.numval));
    h = Mix(h, static_cast<uint64_t>(vs.valfmt));
    for (int j = 0; j < vs.numval; ++j) {
      pmapi::ValueView v = r.value(vs, j);
      h = Mix(h, static_cast<uint64_t>(pmapi::ToPcp(v.inst)));
      h = Mix(h, static_cast<uint64_t>(v.lval));
      h = Mix(h, static_cast<uint64_t>(v.vtype));
      h = Mix(h, Digest(v.payload));
    }
  }
  return h;
}

void Consume(uint64_t digest) { g_sink = g_sink + digest; }

const std::string& ScratchDir() {
  static const std::string* dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/pmapi-fuzz-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) std::abort();  // nowhere to work: not a finding
    return new std::string(pattern);
  }();
  static std::once_flag cleanup;
  std::call_once(cleanup, [] { std::atexit(RemoveScratch); });
  return *dir;
}

bool WriteFile(const std::string& path, std::span<const uint8_t> bytes) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  return ::close(fd) == 0 && done == bytes.size();
}

bool RemoveFile(const std::string& path) { return ::unlink(path.c_str()) == 0; }

uint32_t Word(std::span<const uint8_t> data, size_t at) {
  if (at > data.size() || data.size() - at < 4) return 0;
  return (uint32_t{data[at]} << 24) | (uint32_t{data[at + 1]} << 16) | (uint32_t{data[at + 2]} << 8) |
         uint32_t{data[at + 3]};
}

}  // namespace fuzz
