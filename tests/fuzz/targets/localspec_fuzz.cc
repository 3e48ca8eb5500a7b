// Fuzz target: the -K agent spec parser, ParseLocalPmdaSpec
// (pmSpecLocalPMDA).
#include <cstdint>
#include <string_view>

#include "fuzz_support.h"
#include "local_pmda_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<pmapi::LocalPmdaOp> op = pmapi::ParseLocalPmdaSpec(text);
  if (op.ok()) {
    fuzz::Consume(static_cast<uint64_t>(op->kind) + static_cast<uint64_t>(op->domain + 1) +
                  op->path.size() + op->init.size());
  } else {
    fuzz::Consume(fuzz::Digest(op.status()));
  }
  return 0;
}
