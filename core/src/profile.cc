#include "pmapi/profile.h"

#include <algorithm>

namespace pmapi {
namespace {

void AddTo(std::vector<Inst>& list, std::span<const Inst> insts) {
  for (Inst i : insts) {
    if (std::find(list.begin(), list.end(), i) == list.end()) list.push_back(i);
  }
}

void RemoveFrom(std::vector<Inst>& list, std::span<const Inst> insts) {
  for (Inst i : insts) list.erase(std::remove(list.begin(), list.end(), i), list.end());
}

}  // namespace

Profile::Entry& Profile::EntryFor(InDom indom) {
  for (Entry& e : entries_) {
    if (e.indom == indom) return e;
  }
  // A new entry starts out agreeing with the global state: an empty
  // exception list under the opposite sense.
  entries_.push_back(Entry{indom, !include_all_, {}});
  return entries_.back();
}

void Profile::Add(InDom indom, std::span<const Inst> insts) {
  ++generation_;
  if (indom == kInDomNull && insts.empty()) {
    include_all_ = true;
    entries_.clear();
    return;
  }
  Entry& e = EntryFor(indom);
  if (insts.empty()) {
    e.include_listed = false;
    e.insts.clear();
  } else if (e.include_listed) {
    AddTo(e.insts, insts);
  } else {
    RemoveFrom(e.insts, insts);
  }
}

void Profile::Delete(InDom indom, std::span<const Inst> insts) {
  ++generation_;
  if (indom == kInDomNull && insts.empty()) {
    include_all_ = false;
    entries_.clear();
    return;
  }
  Entry& e = EntryFor(indom);
  if (insts.empty()) {
    e.include_listed = true;
    e.insts.clear();
  } else if (e.include_listed) {
    RemoveFrom(e.insts, insts);
  } else {
    AddTo(e.insts, insts);
  }
}

bool Profile::Admits(InDom indom, Inst inst) const {
  if (indom == kInDomNull) return true;
  for (const Entry& e : entries_) {
    if (e.indom != indom) continue;
    bool listed = std::find(e.insts.begin(), e.insts.end(), inst) != e.insts.end();
    return listed == e.include_listed;
  }
  return include_all_;
}

}  // namespace pmapi
