// pmstore's stored values; see string_value.h.
#include "string_value.h"

#include <cstring>

namespace pmstore {

int StoredFormat(int type) {
  return type == pmapi::kType32 || type == pmapi::kTypeU32 ? pmapi::kValInsitu : pmapi::kValDptr;
}

void AppendValue(const pmapi::AtomValue& atom, int type, int32_t inst, pmapi::Result* out) {
  switch (type) {
    case pmapi::kType32:
    case pmapi::kTypeU32:
      out->AddInsitu(inst, atom.l);
      return;
    case pmapi::kTypeFloat:
      std::memcpy(out->AddBlockForWrite(inst, type, sizeof atom.f), &atom.f, sizeof atom.f);
      return;
    case pmapi::kType64:
    case pmapi::kTypeU64:
    case pmapi::kTypeDouble:
      std::memcpy(out->AddBlockForWrite(inst, type, sizeof atom.ull), &atom.ull, sizeof atom.ull);
      return;
    default: {
      // A STRING: its bytes and the NUL that ends them.
      uint8_t* p = out->AddBlockForWrite(inst, type, static_cast<uint32_t>(atom.bytes.size() + 1));
      std::memcpy(p, atom.bytes.data(), atom.bytes.size());
      p[atom.bytes.size()] = 0;
      return;
    }
  }
}

}  // namespace pmstore
