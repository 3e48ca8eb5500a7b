// c_api_context.cc: the C layer's contexts: the handle table, each thread's
// current context, and pmNewContext and its companions.
#include <map>
#include <mutex>

#include "absl/strings/match.h"
#include "c_api_internal.h"
#include "local_source.h"
#include "pmapi/fetchgroup.h"
#include "pmapi/profile.h"

namespace pmapi::capi {
namespace {

struct HandleTable {
  std::mutex mu;
  std::map<int, std::shared_ptr<CContext>> entries;
  int next = 0;
};

HandleTable& Table() {
  static HandleTable* table = new HandleTable;
  return *table;
}

thread_local int current_handle = PM_CONTEXT_UNDEF;

// Makes `to` admit what `from` admits.
void CopyProfile(const Profile& from, Context& to) {
  if (!from.include_all()) (void)to.DelProfile(kInDomNull, {});
  for (const Profile::Entry& e : from.entries()) {
    if (e.include_listed) {
      (void)to.DelProfile(e.indom, {});
      (void)to.AddProfile(e.indom, e.insts);
    } else {
      (void)to.AddProfile(e.indom, {});
      (void)to.DelProfile(e.indom, e.insts);
    }
  }
}

// A host spec for a caller who demands TLS (PM_CTXFLAG_SECURE): the same
// spec under the "pcps:" protocol.
std::string SecureSpec(std::string spec) {
  if (spec.rfind("pcps:", 0) == 0) return spec;
  if (spec.rfind("pcp:", 0) == 0) return "pcps:" + spec.substr(4);
  return "pcps://" + spec;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Context>> OpenContext(int type, const char* name) {
  // pcp.conf's settings go into the environment once, before this context
  // reads it: loading them sets variables, which must not happen while
  // another thread opening a context reads the environment (the threads
  // here wait for the one that loads them).
  pmGetOptionalConfig(nullptr);
  const int kind = type & PM_CONTEXT_TYPEMASK;
  if (kind == PM_CONTEXT_ARCHIVE && name == nullptr) return PcpError(kErrLogfile);
  std::string source = name == nullptr ? "" : name;
  if (kind == PM_CONTEXT_HOST && (type & PM_CTXFLAG_SECURE)) source = SecureSpec(source);
  absl::StatusOr<Context> ctx = Context::Open(static_cast<ContextKind>(kind), source);
  if (!ctx.ok()) {
    // libpcp reports a host spec it cannot read before failing.
    if (absl::string_view m = ctx.status().message(); absl::StartsWith(m, "bad host specification\n")) {
      pmprintf("pmNewContext: %.*s", static_cast<int>(m.size()), m.data());
      pmflush();
    }
    return ctx.status();
  }
  return std::make_unique<Context>(std::move(*ctx));
}

int ReserveHandle() {
  HandleTable& t = Table();
  std::lock_guard<std::mutex> lock(t.mu);
  return t.next++;
}

void AddHandleAt(int handle, std::shared_ptr<CContext> entry) {
  HandleTable& t = Table();
  std::lock_guard<std::mutex> lock(t.mu);
  t.entries[handle] = std::move(entry);
}

int AddHandle(std::shared_ptr<CContext> entry) {
  int handle = ReserveHandle();
  AddHandleAt(handle, std::move(entry));
  return handle;
}

std::shared_ptr<CContext> FindHandle(int handle) {
  HandleTable& t = Table();
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.entries.find(handle);
  return it == t.entries.end() ? nullptr : it->second;
}

bool RemoveHandle(int handle) {
  HandleTable& t = Table();
  std::lock_guard<std::mutex> lock(t.mu);
  return t.entries.erase(handle) > 0;
}

int CurrentHandle() { return current_handle; }
void SetCurrentHandle(int handle) { current_handle = handle; }

std::shared_ptr<CContext> Current() {
  if (current_handle < 0) return nullptr;
  return FindHandle(current_handle);
}

absl::Status SetEntryMode(CContext& entry, int mode, absl::Time when, absl::Duration delta) {
  const Mode typed = static_cast<Mode>(mode);
  absl::Status st = entry.fetchgroup != nullptr ? entry.fetchgroup->SetMode(typed, when, delta)
                                                : entry.ctx->SetMode(typed, when, delta);
  if (st.ok()) {
    entry.mode_set = true;
    entry.mode = mode;
    entry.when = when;
    entry.delta = delta;
  }
  return st;
}

}  // namespace pmapi::capi

using namespace pmapi;
using namespace pmapi::capi;

extern "C" {

int pmNewContext(int type, const char* name) {
  // As in PCP, the handle is taken before the source is opened, so a
  // failed attempt uses up its number.
  int handle = ReserveHandle();
  SetOpeningContextNumber(handle);
  absl::StatusOr<std::unique_ptr<Context>> ctx = OpenContext(type, name);
  SetOpeningContextNumber(-1);
  if (!ctx.ok()) return Code(ctx.status());
  auto entry = std::make_shared<CContext>();
  entry->ctx = ctx->get();
  entry->owned = std::move(*ctx);
  entry->type = type & PM_CONTEXT_TYPEMASK;
  entry->name = name == nullptr ? "" : name;
  AddHandleAt(handle, std::move(entry));
  SetCurrentHandle(handle);
  return handle;
}

int pmDupContext(void) {
  std::shared_ptr<CContext> cur = Current();
  if (cur == nullptr) return PM_ERR_NOCONTEXT;
  const int handle = ReserveHandle();
  SetOpeningContextNumber(handle);
  absl::StatusOr<std::unique_ptr<Context>> ctx = OpenContext(cur->type, cur->name.c_str());
  SetOpeningContextNumber(-1);
  if (!ctx.ok()) return Code(ctx.status());
  auto entry = std::make_shared<CContext>();
  entry->ctx = ctx->get();
  entry->owned = std::move(*ctx);
  entry->type = cur->type;
  entry->name = cur->name;
  CopyProfile(cur->ctx->profile(), *entry->ctx);
  if (cur->mode_set) {
    absl::Status st = SetEntryMode(*entry, cur->mode, cur->when, cur->delta);
    if (!st.ok()) return Code(st);
  }
  AddHandleAt(handle, std::move(entry));
  SetCurrentHandle(handle);
  return handle;
}

int pmUseContext(int handle) {
  if (FindHandle(handle) == nullptr) return PM_ERR_NOCONTEXT;
  SetCurrentHandle(handle);
  return 0;
}

int pmWhichContext(void) {
  int handle = CurrentHandle();
  if (handle < 0 || FindHandle(handle) == nullptr) return PM_ERR_NOCONTEXT;
  return handle;
}

int pmDestroyContext(int handle) {
  std::shared_ptr<CContext> entry = FindHandle(handle);
  if (entry == nullptr) return PM_ERR_NOCONTEXT;
  // A fetchgroup's context goes with its fetchgroup (pmDestroyFetchGroup).
  if (entry->fetchgroup != nullptr) return -EPERM;
  RemoveHandle(handle);
  if (CurrentHandle() == handle) SetCurrentHandle(PM_CONTEXT_UNDEF);
  return 0;
}

int pmReconnectContext(int handle) {
  std::shared_ptr<CContext> entry = FindHandle(handle);
  if (entry == nullptr) return PM_ERR_NOCONTEXT;
  if (entry->type != PM_CONTEXT_HOST) return handle;
  std::lock_guard<std::recursive_mutex> lock(entry->mu);
  // The same context, connected again: its derived metrics, name space,
  // profile and descriptors stay, and a failed attempt backs off as PCP's
  // does (-ETIMEDOUT until the delay has passed).
  absl::Status st = entry->ctx->Reconnect();
  return st.ok() ? handle : Code(st);
}

char* pmGetContextHostName_r(int handle, char* buf, int buflen) {
  std::shared_ptr<CContext> entry = FindHandle(handle);
  if (entry == nullptr) return CopyOut("", buf, buflen);
  std::lock_guard<std::recursive_mutex> lock(entry->mu);
  return CopyOut(entry->ctx->HostName(), buf, buflen);
}

const char* pmGetContextHostName(int handle) {
  static thread_local char buf[PM_MAX_HOSTNAMELEN];
  return pmGetContextHostName_r(handle, buf, sizeof buf);
}

}  // extern "C"
