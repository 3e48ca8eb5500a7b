// The archive walk shared by the archive fuzz target and the corruption
// sweeps.
#include "archive_walk.h"

#include <vector>

#include "absl/time/time.h"
#include "fuzz_support.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"

namespace fuzz {
namespace {

using pmapi::Context;

// Adds a call's outcome to the walk: its error count or its digest.
template <typename T>
bool Note(const absl::StatusOr<T>& r, ArchiveWalk* w) {
  if (!r.ok()) {
    ++w->errors;
    w->digest += static_cast<uint64_t>(pmapi::PcpCode(r.status()));
    return false;
  }
  return true;
}

bool NoteStatus(const absl::Status& s, ArchiveWalk* w) {
  if (!s.ok()) {
    ++w->errors;
    w->digest += static_cast<uint64_t>(pmapi::PcpCode(s));
    return false;
  }
  return true;
}

void WalkInDom(Context& ctx, pmapi::InDom indom, ArchiveWalk* w) {
  auto insts = ctx.GetInDom(indom);
  if (!Note(insts, w)) return;
  int n = 0;
  for (const pmapi::Instance& i : *insts) {
    if (++n > 16) break;
    w->digest += Digest(i.name);
    auto name = ctx.NameInDom(indom, i.id);
    if (Note(name, w)) w->digest += Digest(*name);
    auto id = ctx.LookupInDom(indom, i.name);
    if (Note(id, w)) w->digest += static_cast<uint64_t>(pmapi::ToPcp(*id));
  }
  auto text = ctx.LookupInDomText(indom, pmapi::TextKind::kOneline);
  if (Note(text, w)) w->digest += Digest(*text);
  auto labels = ctx.LookupLabels(pmapi::LabelLevel::kInstances, indom);
  if (Note(labels, w)) for (const pmapi::LabelSet& s : *labels) w->digest += Digest(s.json);
}

// Visits one metric's metadata. Returns its PMID, or kPmIDNull.
pmapi::PmID WalkMetric(Context& ctx, const std::string& name, ArchiveWalk* w) {
  auto id = ctx.LookupName(name);
  if (!Note(id, w)) return pmapi::kPmIDNull;
  auto all = ctx.NameAll(*id);
  if (Note(all, w)) for (const std::string& n : *all) w->digest += Digest(n);
  for (pmapi::TextKind kind : {pmapi::TextKind::kOneline, pmapi::TextKind::kHelp}) {
    auto text = ctx.LookupText(*id, kind);
    if (Note(text, w)) w->digest += Digest(*text);
  }
  for (pmapi::LabelLevel level : {pmapi::LabelLevel::kDomain, pmapi::LabelLevel::kCluster, pmapi::LabelLevel::kItem}) {
    auto labels = ctx.LookupLabels(level, *id);
    if (Note(labels, w)) for (const pmapi::LabelSet& s : *labels) w->digest += Digest(s.json);
  }
  auto desc = ctx.LookupDesc(*id);
  if (Note(desc, w) && desc->indom != pmapi::kInDomNull) WalkInDom(ctx, desc->indom, w);
  return *id;
}

// Fetches `ids` until the end of the archive or `max` records.
void FetchRun(Context& ctx, const std::vector<pmapi::PmID>& ids, int max, ArchiveWalk* w) {
  for (int i = 0; i < max; ++i) {
    auto r = ctx.Fetch(ids);
    if (!Note(r, w)) return;
    ++w->fetches;
    w->digest += Digest(*r);
  }
}

void FetchArchiveRun(Context& ctx, int max, ArchiveWalk* w) {
  for (int i = 0; i < max; ++i) {
    auto r = ctx.FetchArchive();
    if (!Note(r, w)) return;
    ++w->fetches;
    w->digest += Digest(*r);
  }
}

}  // namespace

ArchiveWalk WalkArchive(const std::string& spec, const WalkLimits& limits) {
  ArchiveWalk w;
  absl::StatusOr<Context> opened = Context::OpenArchive(spec);
  if (!opened.ok()) {
    w.open_code = pmapi::PcpCode(opened.status());
    return w;
  }
  w.opened = true;
  Context& ctx = *opened;
  auto label = ctx.GetArchiveLabel();
  if (!Note(label, &w)) return w;
  w.digest += Digest(label->hostname) + Digest(ctx.HostName());
  const absl::Time start = absl::FromUnixNanos(label->start.nanos());
  auto end = ctx.GetArchiveEnd();
  Note(end, &w);
  const absl::Time last = end.ok() ? *end : start + absl::Seconds(60);

  std::vector<std::string> names;
  NoteStatus(ctx.Traverse("", [&](const std::string& n) {
               if (static_cast<int>(names.size()) < limits.max_names) names.push_back(n);
             }),
             &w);
  auto kids = ctx.Children("");
  Note(kids, &w);
  auto context_labels = ctx.LookupLabels(pmapi::LabelLevel::kContext);
  Note(context_labels, &w);

  std::vector<pmapi::PmID> ids;
  for (const std::string& n : names) {
    ++w.names;
    pmapi::PmID id = WalkMetric(ctx, n, &w);
    if (id != pmapi::kPmIDNull) ids.push_back(id);
  }
  if (ids.empty()) ids.push_back(pmapi::MakePmID(1, 2, 3));  // fetch something regardless

  if (NoteStatus(ctx.SetMode(pmapi::Mode::kForw, start, absl::ZeroDuration()), &w)) {
    FetchRun(ctx, ids, limits.max_records, &w);
  }
  if (NoteStatus(ctx.SetMode(pmapi::Mode::kForw, start, absl::ZeroDuration()), &w)) {
    FetchArchiveRun(ctx, limits.max_records, &w);
  }
  if (NoteStatus(ctx.SetMode(pmapi::Mode::kBack, last, absl::ZeroDuration()), &w)) {
    FetchRun(ctx, ids, limits.max_records / 4, &w);
    FetchArchiveRun(ctx, limits.max_records / 4, &w);
  }
  // INTERP from before the start, the start, the middle and the end, with
  // a step that spans the archive in a few fetches.
  const absl::Duration span = last > start ? last - start : absl::Seconds(1);
  const absl::Duration step = std::max(span / limits.interp_steps, absl::Milliseconds(1));
  for (absl::Time at : {start - absl::Seconds(1), start, start + span / 2, last}) {
    if (NoteStatus(ctx.SetMode(pmapi::Mode::kInterp, at, step), &w)) {
      FetchRun(ctx, ids, limits.interp_steps, &w);
    }
  }
  // A profile that excludes everything, then a single instance.
  NoteStatus(ctx.DelProfile(pmapi::kInDomNull, {}), &w);
  if (NoteStatus(ctx.SetMode(pmapi::Mode::kInterp, start, step), &w)) FetchRun(ctx, ids, 2, &w);
  return w;
}

}  // namespace fuzz
