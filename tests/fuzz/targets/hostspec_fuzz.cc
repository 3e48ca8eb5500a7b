// Fuzz target: the host specification parser (libpcp's reading of
// "pcps://host:port@proxy?attrs"). The input is the spec; its first byte
// also chooses whether $PMPROXY_HOST and $PCP_CONTAINER are set.
#include <cstdint>
#include <string_view>

#include "fuzz_support.h"
#include "host_spec.h"
#include "pmapi/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  pmapi::ConnectOptions opts;
  if (data[0] & 1) opts.proxy_host = "gateway";
  if (data[0] & 2) opts.container = "c";
  if (data[0] & 4) opts.secure_sockets = "relaxed";
  const std::string_view spec(reinterpret_cast<const char*>(data + 1), size - 1);
  absl::StatusOr<pmapi::HostSpec> s = pmapi::ParseHostSpec(spec, opts);
  uint64_t h = 0;
  if (!s.ok()) {
    h = static_cast<uint64_t>(pmapi::PcpCode(s.status())) + fuzz::Digest(std::string_view(s.status().message().data(), s.status().message().size()));
  } else {
    h = fuzz::Digest(s->host) + fuzz::Digest(s->proxy_host) + fuzz::Digest(s->socket_path) + s->demanded;
    for (int p : s->ports) {
      if (p < 0 || p > 65535) __builtin_trap();
      h += static_cast<uint64_t>(p);
    }
    if (s->attrs.container) h += fuzz::Digest(*s->attrs.container);
  }
  fuzz::Consume(h);
  return 0;
}
