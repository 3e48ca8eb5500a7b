#include "record_selection.h"
#include "id_list.h"
#include "result_builder.h"

#include <algorithm>

namespace pmapi {
namespace {

// Copies set `vs` of `from` into `out`, keeping the instances the profile
// admits (all of them for a singular metric or an error set).
void CopySet(const Result& from, const ValueSet& vs, const Desc* desc, const Profile& profile,
             Result* out) {
  const bool every = vs.numval <= 0 || desc == nullptr || desc->indom == kInDomNull;
  auto admitted = [&](int j) { return every || profile.Admits(desc->indom, from.value(vs, j).inst); };
  int count = 0;
  for (int j = 0; j < vs.numval; ++j) count += admitted(j) ? 1 : 0;
  out->AddSet(vs.pmid, every ? vs.numval : count, vs.valfmt);
  for (int j = 0; j < vs.numval; ++j) {
    if (!admitted(j)) continue;
    ValueView v = from.value(vs, j);
    if (vs.valfmt == kValInsitu) {
      out->AddInsitu(v.inst, v.lval);
    } else {
      out->AddBlock(v.inst, v.vtype, v.payload);
    }
  }
}

}  // namespace

int RecordSelection::Select(const Result& rec, std::span<const PmID> ids, size_t* values) {
  Relocate(rec, ids);
  std::span<const ValueSet> sets = rec.sets();
  int found = 0;
  *values = 0;
  for (int k : selected_) {
    if (k < 0) continue;
    ++found;
    *values += std::max(sets[k].numval, 0);
  }
  return found;
}

void RecordSelection::Relocate(const Result& rec, std::span<const PmID> ids) {
  std::span<const ValueSet> sets = rec.sets();
  const bool same_request = SameIds(ids, ids_);
  bool same = same_request && layout_.size() == sets.size();
  for (size_t k = 0; same && k < sets.size(); ++k) same = sets[k].pmid == layout_[k];
  if (same) return;
  if (!same_request) {
    ids_.assign(ids.begin(), ids.end());
    request_index_.clear();
    next_same_.assign(ids.size(), -1);
    for (size_t i = ids.size(); i-- > 0;) {
      auto [it, added] = request_index_.try_emplace(ids[i], static_cast<int>(i));
      if (added) continue;
      next_same_[i] = it->second;
      it->second = static_cast<int>(i);
    }
  }
  layout_.resize(sets.size());
  selected_.assign(ids.size(), -1);
  for (size_t k = 0; k < sets.size(); ++k) {
    layout_[k] = sets[k].pmid;
    auto it = request_index_.find(sets[k].pmid);
    if (it == request_index_.end()) continue;
    for (int i = it->second; i >= 0; i = next_same_[i]) {
      // The first of a repeated PMID in the record.
      if (selected_[i] < 0) selected_[i] = static_cast<int>(k);
    }
  }
}

Result RecordSelection::Take(Result& rec, std::span<const PmID> ids, size_t values,
                             const Profile& profile, InterpMetadata* metadata) const {
  Result out;
  out.set_timestamp_ns(rec.timestamp_ns());
  std::span<const ValueSet> sets = rec.sets();
  const bool all = profile.AdmitsAll();
  if (all) {
    // Every value is kept: the result takes the record's values and
    // payloads as they are, and its sets point at them.
    ResultBuilder::Reserve(out, ids.size(), 0, 0);
    ResultBuilder::SwapStorage(out, rec);
  } else {
    ResultBuilder::Reserve(out, ids.size(), values, 0);
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    if (selected_[i] < 0) {
      out.AddSet(ids[i], 0, kValInsitu);
    } else if (all) {
      ResultBuilder::AddSetAt(out, sets[selected_[i]]);
    } else {
      CopySet(rec, sets[selected_[i]], metadata->FindDesc(ids[i]), profile, &out);
    }
  }
  return out;
}

}  // namespace pmapi
