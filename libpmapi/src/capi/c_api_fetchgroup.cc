// c_api_fetchgroup.cc: the C fetchgroup functions (pmCreateFetchGroup and
// friends) over pmapi::FetchGroup. Each registration keeps the caller's
// output locations; pmFetchGroup copies the group's outputs into them.
// Strings and instance names handed out point into the group and stay
// valid until the next fetch, clear or destroy.
#include <cmath>
#include <cstring>
#include <functional>

#include "c_api_internal.h"
#include "pmapi/fetchgroup.h"

using namespace pmapi;
using namespace pmapi::capi;

struct __pmFetchGroup {
  std::unique_ptr<FetchGroup> group;
  std::shared_ptr<CContext> entry;
  int handle = -1;
  // One copier per registration, run after every fetch.
  std::vector<std::function<void()>> copiers;
};

namespace {

// Stores a fetchgroup value in the caller's atom. Strings point into the
// group's output.
void CopyValue(const FetchGroupValue& v, int type, pmAtomValue* out) {
  if (out == nullptr) return;
  switch (type) {
    case PM_TYPE_32: out->l = v.atom.l; break;
    case PM_TYPE_U32: out->ul = v.atom.ul; break;
    case PM_TYPE_64: out->ll = v.atom.ll; break;
    case PM_TYPE_U64: out->ull = v.atom.ull; break;
    case PM_TYPE_FLOAT: out->f = v.atom.f; break;
    case PM_TYPE_DOUBLE: out->d = v.atom.d; break;
    case PM_TYPE_STRING:
      out->cp = v.null ? nullptr : const_cast<char*>(v.atom.bytes.c_str());
      break;
    default:
      break;
  }
}

std::optional<std::string_view> Opt(const char* s) {
  if (s == nullptr) return std::nullopt;
  return std::string_view(s);
}

void CopyAll(pmFG fg) {
  for (const std::function<void()>& copy : fg->copiers) copy();
}

}  // namespace

extern "C" {

int pmCreateFetchGroup(pmFG* ptr, int type, const char* name) {
  if (ptr == nullptr) return -EINVAL;
  *ptr = nullptr;
  absl::StatusOr<std::unique_ptr<Context>> ctx = OpenContext(type, name);
  if (!ctx.ok()) return Code(ctx.status());
  auto fg = std::make_unique<__pmFetchGroup>();
  fg->group = FetchGroup::FromContext(std::move(**ctx));
  fg->entry = std::make_shared<CContext>();
  fg->entry->ctx = &fg->group->context();
  fg->entry->fetchgroup = fg->group.get();
  fg->entry->type = type & PM_CONTEXT_TYPEMASK;
  fg->entry->name = name == nullptr ? "" : name;
  fg->handle = AddHandle(fg->entry);
  SetCurrentHandle(fg->handle);
  *ptr = fg.release();
  return 0;
}

int pmGetFetchGroupContext(pmFG pmfg) {
  if (pmfg == nullptr) return -EINVAL;
  return pmfg->handle;
}

int pmExtendFetchGroup_item(pmFG pmfg, const char* metric, const char* instance,
                            const char* scale, pmAtomValue* out_value, int out_type, int* out_sts) {
  if (pmfg == nullptr || metric == nullptr) return -EINVAL;
  absl::StatusOr<const FetchGroupItem*> item =
      pmfg->group->AddItem(metric, Opt(instance), Opt(scale), out_type);
  if (!item.ok()) return Code(item.status());
  const FetchGroupItem* src = *item;
  pmfg->copiers.push_back([src, out_value, out_type, out_sts] {
    CopyValue(src->value, out_type, out_value);
    if (out_sts != nullptr) *out_sts = src->status;
  });
  return 0;
}

int pmExtendFetchGroup_indom(pmFG pmfg, const char* metric, const char* scale,
                             int out_inst_codes[], char* out_inst_names[],
                             pmAtomValue out_values[], int out_type, int out_stss[],
                             unsigned int out_maxnum, unsigned int* out_num, int* out_sts) {
  if (pmfg == nullptr || metric == nullptr) return -EINVAL;
  absl::StatusOr<const FetchGroupIndom*> indom =
      pmfg->group->AddIndom(metric, Opt(scale), out_type, out_maxnum);
  if (!indom.ok()) return Code(indom.status());
  if (out_num != nullptr) *out_num = 0;
  const FetchGroupIndom* src = *indom;
  pmfg->copiers.push_back([=] {
    unsigned n = 0;
    for (const FetchGroupInstance& i : src->instances) {
      if (n >= out_maxnum) break;
      if (out_inst_codes != nullptr) out_inst_codes[n] = ToPcp(i.inst);
      if (out_inst_names != nullptr) {
        out_inst_names[n] = i.name.has_value() ? const_cast<char*>(i.name->c_str()) : nullptr;
      }
      if (out_values != nullptr) CopyValue(i.value, out_type, &out_values[n]);
      if (out_stss != nullptr) out_stss[n] = i.status;
      ++n;
    }
    if (out_num != nullptr) *out_num = n;
    if (out_sts != nullptr) *out_sts = src->status;
  });
  return 0;
}

int pmExtendFetchGroup_event(pmFG pmfg, const char* metric, const char* instance,
                             const char* field, const char* scale, struct timespec out_times[],
                             pmAtomValue out_values[], int out_type, int out_stss[],
                             unsigned int out_maxnum, unsigned int* out_num, int* out_sts) {
  if (pmfg == nullptr || metric == nullptr || field == nullptr) return -EINVAL;
  absl::StatusOr<const FetchGroupEvent*> event =
      pmfg->group->AddEvent(metric, Opt(instance), field, Opt(scale), out_type, out_maxnum);
  if (!event.ok()) return Code(event.status());
  if (out_num != nullptr) *out_num = 0;
  const FetchGroupEvent* src = *event;
  pmfg->copiers.push_back([=] {
    unsigned n = 0;
    for (const FetchGroupEventField& f : src->fields) {
      if (n >= out_maxnum) break;
      if (out_times != nullptr) {
        out_times[n].tv_sec = f.sec;
        out_times[n].tv_nsec = f.nsec;
      }
      if (out_values != nullptr) CopyValue(f.value, out_type, &out_values[n]);
      if (out_stss != nullptr) out_stss[n] = f.status;
      ++n;
    }
    if (out_num != nullptr) *out_num = n;
    if (out_sts != nullptr) *out_sts = src->status;
  });
  return 0;
}

int pmExtendFetchGroup_timestamp(pmFG pmfg, struct timeval* out_value) {
  if (pmfg == nullptr) return -EINVAL;
  const FetchGroupTimestamp* src = pmfg->group->AddTimestamp();
  if (out_value == nullptr) return 0;
  pmfg->copiers.push_back([src, out_value] {
    out_value->tv_sec = src->sec;
    out_value->tv_usec = src->nsec / 1000;
  });
  return 0;
}

// PCP 6 also exports the timeval form under this name.
int pmExtendFetchGroup_timeval(pmFG pmfg, struct timeval* out_value) {
  return pmExtendFetchGroup_timestamp(pmfg, out_value);
}

int pmExtendFetchGroup_timespec(pmFG pmfg, struct timespec* out_value) {
  if (pmfg == nullptr) return -EINVAL;
  const FetchGroupTimestamp* src = pmfg->group->AddTimestamp();
  if (out_value == nullptr) return 0;
  pmfg->copiers.push_back([src, out_value] {
    out_value->tv_sec = src->sec;
    out_value->tv_nsec = src->nsec;
  });
  return 0;
}

int pmFetchGroup(pmFG pmfg) {
  if (pmfg == nullptr) return -EINVAL;
  absl::StatusOr<int> sts = pmfg->group->Fetch();
  CopyAll(pmfg);
  return sts.ok() ? *sts : Code(sts.status());
}

int pmClearFetchGroup(pmFG pmfg) {
  if (pmfg == nullptr) return -EINVAL;
  pmfg->copiers.clear();
  return Code(pmfg->group->Clear());
}

int pmDestroyFetchGroup(pmFG pmfg) {
  if (pmfg == nullptr) return -EINVAL;
  RemoveHandle(pmfg->handle);
  if (CurrentHandle() == pmfg->handle) SetCurrentHandle(PM_CONTEXT_UNDEF);
  pmfg->entry->ctx = nullptr;
  pmfg->entry->fetchgroup = nullptr;
  delete pmfg;
  return 0;
}

}  // extern "C"
