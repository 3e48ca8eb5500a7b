// pmda_instance_pick.h: which instances an instance request picks, as
// libpcp_pmda's pmdaInstance picks them. The C++ PMDA library
// (Pmda::DefaultInstance) and the C layer (pmdaInstance) both answer with
// these rules, each over its own instance records: any type with an
// integer `inst` and a std::string `name` (PmdaInstid, CInstance).
//
// Example:
//   switch (InstanceAskOf(inst, name != nullptr, name != nullptr && name->empty())) {
//     case InstanceAsk::kIdOfName: hit = InstanceByName(set, *name, cached); ...
#ifndef PMAPI_SRC_PMDA_INSTANCE_PICK_H_
#define PMAPI_SRC_PMDA_INSTANCE_PICK_H_

#include <cstdint>
#include <string>
#include <vector>

#include "pmapi/types.h"

namespace pmapi {

// What an instance request asks for.
enum class InstanceAsk {
  kAll,         // no name and PM_IN_NULL: every instance, ids and names
  kNameOfId,    // no name: the name of the instance with the given id
  kIdOfName,    // a name and PM_IN_NULL: the id of the instance it picks
  kNothing,     // a name with an id, or an empty name: no instance
};

inline InstanceAsk InstanceAskOf(Inst inst, bool has_name, bool name_empty) {
  if (!has_name) return inst == kInNull ? InstanceAsk::kAll : InstanceAsk::kNameOfId;
  if (inst != kInNull || name_empty) return InstanceAsk::kNothing;
  return InstanceAsk::kIdOfName;
}

// The instance with id `inst`, or null.
template <typename Instance>
const Instance* InstanceById(const std::vector<Instance>& set, Inst inst) {
  for (const Instance& i : set) {
    if (i.inst == inst) return &i;
  }
  return nullptr;
}

// The instance `name` picks. In a cached instance domain, the last with
// exactly that name. In a table: an exact match, or, when `name` has no
// space, an instance whose name up to its first space is `name` (so "1"
// finds "1 minute").
template <typename Instance>
const Instance* InstanceByName(const std::vector<Instance>& set, const std::string& name, bool cached) {
  const Instance* hit = nullptr;
  if (cached) {
    for (const Instance& i : set) {
      if (i.name == name) hit = &i;
    }
    return hit;
  }
  const bool name_has_space = name.find(' ') != std::string::npos;
  for (const Instance& i : set) {
    if (i.name == name) return &i;
    if (name_has_space) continue;
    size_t space = i.name.find(' ');
    if (space != std::string::npos && space == name.size() && i.name.compare(0, space, name) == 0) return &i;
  }
  return nullptr;
}

}  // namespace pmapi

#endif  // PMAPI_SRC_PMDA_INSTANCE_PICK_H_
