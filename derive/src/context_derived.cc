#include "context_derived.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <set>

#include "pmapi/errors.h"
#include "trace.h"
#include "result_builder.h"

namespace pmapi::derive {

namespace {

// The numbers PCP's trace gives contexts: as its context handles, the
// lowest one not in use.
std::mutex serial_mu;
std::set<int>& SerialsInUse() {
  static std::set<int>* in_use = new std::set<int>;
  return *in_use;
}

int TakeSerial() {
  std::lock_guard<std::mutex> lock(serial_mu);
  int n = 0;
  while (SerialsInUse().count(n) != 0) n++;
  SerialsInUse().insert(n);
  return n;
}

}  // namespace

ContextDerived::ContextDerived() : serial_(TakeSerial()) {
  limit_ = Registry::Get().limit();
  if (trace::Appl1()) {
    trace::Say("__dmopencontext(->ctx " + std::to_string(serial_) + ") called, " +
               std::to_string(Registry::Get().size()) + " derived metrics");
  }
  Refresh(false);
}

ContextDerived::~ContextDerived() {
  std::lock_guard<std::mutex> lock(serial_mu);
  SerialsInUse().erase(serial_);
}

// Appends the global metrics registered since the last look.
void ContextDerived::Refresh(bool report) {
  for (GlobalMetric& g : Registry::Get().From(glob_last_)) {
    if (report && trace::Appl1()) {
      trace::Say("refresh: append metric \"" + g.name + "\" for ctx " + std::to_string(serial_));
    }
    Entry e;
    e.name = std::move(g.name);
    e.pmid = g.pmid;
    e.anon = g.anon;
    e.global = true;
    e.expr = std::move(g.expr);
    for (const Entry& own : list_) {
      if (!own.global && own.name == e.name) e.masked = true;
    }
    list_.push_back(std::move(e));
    glob_last_++;
  }
}

bool ContextDerived::Under(const std::string& name, std::string_view prefix) {
  if (prefix.empty()) return true;
  return name.size() >= prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
         (name.size() == prefix.size() || name[prefix.size()] == '.');
}

ContextDerived::Entry* ContextDerived::Find(PmID id) {
  for (Entry& e : list_) {
    if (!e.masked && e.pmid == id) return &e;
  }
  return nullptr;
}

bool ContextDerived::Knows(PmID id) {
  Refresh();
  return Find(id) != nullptr;
}

std::optional<PmID> ContextDerived::LookupName(std::string_view name) {
  Refresh();
  for (const Entry& e : list_) {
    if (!e.masked && e.name == name) return e.pmid;
  }
  return std::nullopt;
}

std::optional<std::string> ContextDerived::NameOf(PmID id) {
  Refresh();
  if (Entry* e = Find(id)) return e->name;
  return std::nullopt;
}

std::optional<std::vector<PmnsChild>> ContextDerived::Children(std::string_view name) {
  Refresh();
  std::vector<PmnsChild> out;
  const size_t start = name.empty() ? 0 : name.size() + 1;
  for (const Entry& e : list_) {
    if (e.masked || !Under(e.name, name)) continue;
    if (!e.anon && e.bound && e.tree == nullptr) continue;
    if (e.name.size() == name.size()) return std::vector<PmnsChild>{};
    size_t end = e.name.find('.', start);
    std::string child = e.name.substr(start, end == std::string::npos ? std::string::npos : end - start);
    bool seen = false;
    for (const PmnsChild& c : out) seen = seen || c.name == child;
    if (!seen) {
      out.push_back(PmnsChild{child, end == std::string::npos ? kPmnsLeafStatus : kPmnsNonLeafStatus});
    }
  }
  if (out.empty()) return std::nullopt;
  return out;
}

std::vector<std::string> ContextDerived::Names(std::string_view name, const BindEnv* bind) {
  Refresh();
  std::vector<std::string> out;
  for (Entry& e : list_) {
    if (e.masked || !Under(e.name, name)) continue;
    if (bind != nullptr && !e.bound) BindEntry(&e, *bind, true);
    if (!e.anon && e.bound && e.tree == nullptr) {
      if (bind != nullptr && trace::On()) {
        trace::Say("__dmtraverse: name=\"" + std::string(name) + "\", omitting invalid child \"" +
                   e.name + "\"");
      }
      continue;
    }
    out.push_back(e.name);
    if (bind != nullptr && trace::On()) {
      trace::Say("__dmtraverse: name=\"" + std::string(name) + "\" added \"" + e.name + "\"");
    }
  }
  return out;
}

void ContextDerived::BindEntry(Entry* e, const BindEnv& env, bool report) {
  if (e->binding) return;  // a definition that refers to itself
  e->binding = true;
  e->tree.reset();
  bool clash = false;
  if (!e->anon) {
    absl::StatusOr<PmID> real = env.lookup_name(e->name);
    clash = real.ok() && !IsDerivedPmid(*real);
    if (clash && trace::On()) {
      trace::Say("Warning: " + e->name + ": derived name matches metric " + trace::PmidText(*real) +
                 ": derived ignored");
    }
  }
  if (!clash) {
    std::optional<std::string> why;
    std::string text;
    e->tree = Bind(*e->expr, env, e->name, &why, &text);
    if (e->tree != nullptr) {
      e->tree->desc.pmid = e->pmid;
    } else if (why.has_value()) {
      SetLastError(why);
      if (report) {
        std::fputs(text.c_str(), stderr);
        SetLastError(std::nullopt);
      }
    }
  }
  if (e->tree != nullptr && trace::On()) {
    trace::Say("__dmbind: bind metric[" + std::to_string(e - list_.data()) + "] " + e->name);
    if (trace::Appl1()) trace::DumpBound(e->tree.get());
  }
  e->binding = false;
  e->bound = true;
}

absl::StatusOr<Desc> ContextDerived::LookupDesc(PmID id, const BindEnv& env) {
  Refresh();
  Entry* e = Find(id);
  if (e == nullptr) return PcpError(kErrPmid);
  if (!e->bound) BindEntry(e, env, true);
  if (e->tree == nullptr) return PcpError(kErrBadderive);
  return e->tree->desc;
}

AddOutcome ContextDerived::Add(std::string_view name, std::string_view expr, const BindEnv& env) {
  Refresh();
  AddOutcome out;
  if (limit_ != -1 && own_ >= limit_) {
    SetLastError("Too many per-context derived metrics");
    return {AddOutcome::kPmapi, kErrBadderive, 0};
  }
  for (Entry& e : list_) {
    if (e.name != name) continue;
    if (!e.global) {
      SetLastError("Duplicate per-context derived metric name");
      return {AddOutcome::kPmapi, kErrBadderive, 0};
    }
    e.masked = true;
  }
  SetLastError(std::nullopt);
  ParseResult p = Parse(expr);
  if (p.tree == nullptr) {
    SetLastError(p.error);
    return {AddOutcome::kSyntax, 0, p.error_offset};
  }
  // Per-context metrics count down from 511.2047.1023, flagged.
  PmID pmid;
  if (own_ == 0) {
    pmid = WithPmidFlag(MakePmID(511, 2047, 1023));
  } else if (PmIDItem(own_last_) > 1) {
    pmid = WithPmidFlag(MakePmID(511, PmIDCluster(own_last_), PmIDItem(own_last_) - 1));
  } else if (PmIDCluster(own_last_) > 0) {
    pmid = WithPmidFlag(MakePmID(511, PmIDCluster(own_last_) - 1, 1023));
  } else {
    SetLastError("per-context PMID space exhausted");
    return {AddOutcome::kPmapi, kErrBadderive, 0};
  }
  own_last_ = pmid;
  own_++;
  Entry e;
  e.name = std::string(name);
  e.pmid = pmid;
  e.expr = p.tree;
  list_.push_back(std::move(e));
  BindEntry(&list_.back(), env, false);
  if (LastError().has_value()) return {AddOutcome::kSemantic, 0, 0};
  return out;
}

std::optional<std::vector<PmID>> ContextDerived::Prefetch(std::span<const PmID> ids,
                                                          const BindEnv& env) {
  bool any = false;
  std::vector<PmID> extra;
  for (PmID id : ids) {
    if (!IsDerivedPmid(id)) continue;
    Refresh();
    Entry* e = Find(id);
    if (e == nullptr) continue;
    if (!e->bound) BindEntry(e, env, true);
    if (e->tree == nullptr) continue;
    any = true;
    OperandPmids(*e->tree, &extra);
  }
  if (!any) return std::nullopt;
  std::vector<PmID> list(ids.begin(), ids.end());
  for (PmID id : extra) {
    bool have = false;
    for (PmID x : list) have = have || x == id;
    if (!have) list.push_back(id);
  }
  if (trace::Appl2() && list.size() > ids.size()) {
    std::string line = "derived metrics prefetch added " + std::to_string(list.size() - ids.size()) +
                       " metrics:";
    for (size_t i = ids.size(); i < list.size(); i++) line += " " + trace::PmidText(list[i]);
    trace::Say(line);
  }
  return list;
}

Result ContextDerived::Postfetch(Result fetched, size_t numpmid, EvalEnv env) {
  env.result = &fetched;
  // The derived sets are evaluated first (their operands are among the
  // fetched sets), then put in place of theirs: the fetched values stay
  // where they are, uncopied.
  Result derived;
  std::vector<std::pair<size_t, size_t>> places;  // (fetched set, derived set)
  std::span<const ValueSet> sets = fetched.sets();
  const size_t n = std::min(numpmid, sets.size());
  for (size_t j = 0; j < n; j++) {
    const ValueSet& vs = sets[j];
    Entry* e = IsDerivedPmid(vs.pmid) ? Find(vs.pmid) : nullptr;
    if (e == nullptr) continue;
    places.emplace_back(j, derived.sets().size());
    if (e->tree == nullptr) {
      derived.AddSet(vs.pmid, kErrPmid, kValInsitu);
      continue;
    }
    int numval = Evaluate(e->tree.get(), fetched.timestamp_ns(), env);
    if (trace::Appl2()) trace::PostValueSet(static_cast<int>(j), vs.pmid, numval, e->tree.get());
    AppendValues(*e->tree, vs.pmid, numval, &derived);
  }
  ResultBuilder::TruncateSets(fetched, n);
  for (auto [j, k] : places) ResultBuilder::ReplaceSet(fetched, j, derived, derived.sets()[k]);
  return fetched;
}

}  // namespace pmapi::derive
