// Fuzz target: the time window parser (pmParseHighResTimeWindow and
// __pmParseHighResTime), and the POSIX TZ rules a reporting zone comes from.
//
// Input: a flags byte, then newline-separated fields. Flags bits 0-2 choose
// the zone (0-3 fixed zones; otherwise the first field is a TZ rule, used
// unless it names a file), bit 3 makes the window live (unbounded end). The
// next fields are -S, -T, -A and -O; missing fields are absent options.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_split.h"
#include "fuzz_support.h"
#include "pmapi/timewindow.h"
#include "pmapi/timezone.h"

namespace {

constexpr const char* kZones[] = {"UTC", "AEDT-11", "EST5EDT,M3.2.0,M11.1.0", "IST-5:30"};

uint64_t DigestSpec(const pmapi::TimeSpec& t) {
  return static_cast<uint64_t>(t.sec) * 31 + static_cast<uint64_t>(t.nsec);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t flags = data[0];
  std::vector<std::string> fields =
      absl::StrSplit(absl::string_view(reinterpret_cast<const char*>(data + 1), size - 1), '\n');
  size_t next = 0;
  std::string zone_text = kZones[(flags & 7) % 4];
  if ((flags & 7) >= 4) {
    zone_text = fields[next++];
    // A rule starting with ':' or '/' names a file; only rules are fuzzed.
    if (!zone_text.empty() && (zone_text[0] == ':' || zone_text[0] == '/')) return 0;
  }
  absl::StatusOr<pmapi::TimeZone> zone = pmapi::TimeZone::ForPcpZone(zone_text);
  if (!zone.ok()) return 0;

  const pmapi::TimeSpec log_start{1700000000, 250000000};
  const pmapi::TimeSpec log_end =
      (flags & 8) ? pmapi::TimeSpec{pmapi::kUnboundedEnd, 0} : pmapi::TimeSpec{1700003600, 0};
  pmapi::TimeWindowArgs args;
  std::optional<std::string>* slots[] = {&args.start, &args.end, &args.align, &args.origin};
  for (std::optional<std::string>* slot : slots) {
    if (next < fields.size()) *slot = fields[next++];
  }
  pmapi::TimeParser parser(*zone);
  if (args.start) {
    auto t = parser.ParseTime(*args.start, log_start, log_end);
    fuzz::Consume(t.ok() ? DigestSpec(*t) : fuzz::Digest(t.status()));
  }
  auto w = parser.ParseWindow(args, log_start, log_end);
  if (w.ok()) {
    fuzz::Consume(DigestSpec(w->start) + DigestSpec(w->end) + DigestSpec(w->origin) +
                  fuzz::Digest(w->warning));
  } else {
    fuzz::Consume(fuzz::Digest(w.status()));
  }
  return 0;
}
