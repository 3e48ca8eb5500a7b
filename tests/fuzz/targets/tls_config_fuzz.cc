// Fuzz target: the TLS settings file reader. The input is the file's text.
#include <cstdint>
#include <string_view>

#include "fuzz_support.h"
#include "tls_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pmapi::TlsSettings s =
      pmapi::ParseTlsSettings(std::string_view(reinterpret_cast<const char*>(data), size));
  uint64_t h = 0;
  for (const auto* v : {&s.cert_file, &s.key_file, &s.ciphers, &s.ciphersuites, &s.ca_cert_file,
                        &s.ca_cert_dir, &s.client_cert_file, &s.client_key_file, &s.verify_clients}) {
    if (v->has_value()) h += fuzz::Digest(**v);
  }
  fuzz::Consume(h);
  return 0;
}
