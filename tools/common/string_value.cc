// pmstore's stored values; see string_value.h.
#include "string_value.h"

#include <cstdint>
#include <span>
#include <vector>

namespace pmstore {
namespace {

// The bytes of one number, as a DPTR value's payload holds them.
template <typename T>
std::span<const uint8_t> BytesOf(const T& number) {
  return {reinterpret_cast<const uint8_t*>(&number), sizeof number};
}

}  // namespace

int StoredFormat(int type) {
  return type == pmapi::kType32 || type == pmapi::kTypeU32 ? pmapi::kValInsitu : pmapi::kValDptr;
}

void AppendValue(const pmapi::AtomValue& atom, int type, pmapi::Inst inst, pmapi::Result* out) {
  switch (type) {
    case pmapi::kType32:
    case pmapi::kTypeU32:
      out->AddInsitu(inst, atom.l);
      return;
    case pmapi::kTypeFloat:
      out->AddBlock(inst, type, BytesOf(atom.f));
      return;
    case pmapi::kType64:
    case pmapi::kTypeU64:
    case pmapi::kTypeDouble:
      out->AddBlock(inst, type, BytesOf(atom.ull));
      return;
    default: {
      // A STRING: its bytes and the NUL that ends them.
      std::vector<uint8_t> bytes(atom.bytes.begin(), atom.bytes.end());
      bytes.push_back(0);
      out->AddBlock(inst, type, bytes);
      return;
    }
  }
}

}  // namespace pmstore
