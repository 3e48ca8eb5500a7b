// pmapi/profile.h: the instance profile, which instances of each instance
// domain a fetch returns.
//
// The profile has a global state (include or exclude everything) and, per
// instance domain, a state and a list of instances that are the exceptions
// to it, as PCP keeps it. Adding and deleting follow pmAddProfile(3) and
// pmDelProfile(3).
//
// Given: pmapi::InDom indom
// Example:
//   pmapi::Profile p;                        // everything included
//   p.Delete(indom, {});                     // no instance of indom
//   pmapi::Inst red{0};
//   p.Add(indom, {&red, 1});                 // just instance 0
//   bool admitted = p.Admits(indom, red);    // true
#ifndef PMAPI_PROFILE_H_
#define PMAPI_PROFILE_H_

#include <cstdint>
#include <span>
#include <vector>

#include "pmapi/types.h"

namespace pmapi {

class Profile {
 public:
  struct Entry {
    InDom indom = kInDomNull;
    // true: only `insts` are admitted; false: all but `insts` are admitted.
    bool include_listed = false;
    std::vector<Inst> insts;
  };

  // Adds instances of `indom` (empty: all of them). kInDomNull with an
  // empty list admits everything again, forgetting every entry.
  void Add(InDom indom, std::span<const Inst> insts);
  // Removes instances of `indom` (empty: all of them). kInDomNull with an
  // empty list admits nothing, forgetting every entry.
  void Delete(InDom indom, std::span<const Inst> insts);
  // Returns true if a fetch returns instance `inst` of `indom`. Singular
  // metrics (kInDomNull) are always admitted.
  [[nodiscard]] bool Admits(InDom indom, Inst inst) const;
  // Returns true if every instance of every indom is admitted.
  [[nodiscard]] bool AdmitsAll() const { return include_all_ && entries_.empty(); }
  // Bumped on every change, so a host source knows to resend it.
  [[nodiscard]] uint64_t generation() const { return generation_; }
  [[nodiscard]] bool include_all() const { return include_all_; }
  [[nodiscard]] const std::vector<Entry>& entries() const { return entries_; }

 private:
  Entry& EntryFor(InDom indom);

  bool include_all_ = true;
  std::vector<Entry> entries_;
  uint64_t generation_ = 0;
};

}  // namespace pmapi

#endif  // PMAPI_PROFILE_H_
