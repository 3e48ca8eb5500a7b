// id_list.h: comparing lists of typed identifiers as the fetch paths do on
// every fetch (is this the request the last fetch made?). PmID is a scoped
// enum, which std::equal compares element by element; its bytes are its
// value, so the lists compare as one block, as plain integers would.
//
// Example:
//   if (!pmapi::SameIds(ids, last_ids_)) last_ids_.assign(ids.begin(), ids.end());
#ifndef PMAPI_CORE_ID_LIST_H_
#define PMAPI_CORE_ID_LIST_H_

#include <cstring>
#include <span>
#include <type_traits>

#include "pmapi/types.h"

namespace pmapi {

// Whether `a` and `b` hold the same identifiers in the same order.
inline bool SameIds(std::span<const PmID> a, std::span<const PmID> b) {
  static_assert(std::has_unique_object_representations_v<PmID>);
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
}

}  // namespace pmapi

#endif  // PMAPI_CORE_ID_LIST_H_
