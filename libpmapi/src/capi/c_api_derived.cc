// The C interface to derived metrics: pmRegisterDerived(3) and
// pmLoadDerivedConfig(3).
#include <cstdlib>
#include <cstring>

#include "c_api_internal.h"
#include "context_derived.h"
#include "messages.h"
#include "pmapi/derived.h"
#include "registry.h"

using pmapi::capi::CContext;

namespace {

char* Dup(const std::string& s) {
  char* out = static_cast<char*>(std::malloc(s.size() + 1));
  if (out != nullptr) std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

// Where in `expr` an error offset points (one before it for an empty
// expression, as PCP's scanner leaves it).
char* At(const char* expr, int offset) { return const_cast<char*>(expr) + offset; }

pmapi::derive::AddOutcome AddToCurrent(const char* name, const char* expr) {
  std::shared_ptr<CContext> e = pmapi::capi::Current();
  if (e == nullptr) {
    pmapi::derive::SetLastError("Attempt to use an illegal context");
    return {pmapi::derive::AddOutcome::kPmapi, PM_ERR_NOCONTEXT, 0};
  }
  std::lock_guard<std::recursive_mutex> lock(e->mu);
  return e->ctx->derived().Add(name, expr, e->ctx->BindEnvironment());
}

}  // namespace

char* pmRegisterDerived(const char* name, const char* expr) {
  std::optional<int> err = pmapi::derive::Registry::Get().Register(name, expr);
  return err.has_value() ? At(expr, *err) : nullptr;
}

int pmRegisterDerivedMetric(const char* name, const char* expr, char** errmsg) {
  *errmsg = nullptr;
  std::optional<int> err = pmapi::derive::Registry::Get().Register(name, expr);
  if (!err.has_value()) return 0;
  *errmsg = Dup(pmapi::derive::RegisterMessage(name, expr, *err));
  return -1;
}

char* pmAddDerived(const char* name, const char* expr) {
  pmapi::derive::AddOutcome out = AddToCurrent(name, expr);
  if (out.kind == pmapi::derive::AddOutcome::kOk) return nullptr;
  return out.kind == pmapi::derive::AddOutcome::kSyntax ? At(expr, out.offset)
                                                         : const_cast<char*>(expr);
}

int pmAddDerivedMetric(const char* name, const char* expr, char** errmsg) {
  *errmsg = nullptr;
  pmapi::derive::AddOutcome out = AddToCurrent(name, expr);
  if (out.kind == pmapi::derive::AddOutcome::kOk) return 0;
  *errmsg = Dup(pmapi::derive::AddMessage(name, expr, out));
  return out.kind == pmapi::derive::AddOutcome::kPmapi ? out.code : PM_ERR_BADDERIVE;
}

int pmLoadDerivedConfig(const char* path) {
  return pmapi::derive::Registry::Get().LoadConfig(path == nullptr ? "" : path);
}

char* pmDerivedErrStr(void) {
  static thread_local std::string text;
  const std::optional<std::string>& why = pmapi::derive::LastError();
  if (!why.has_value()) return nullptr;
  text = *why;
  return text.data();
}

int pmGetDerivedControl(int what, int* valuep) {
  switch (what) {
    case PCP_DERIVED_GLOBAL_LIMIT:
      *valuep = pmapi::DerivedGlobalLimit();
      return 0;
    case PCP_DERIVED_CONTEXT_LIMIT: {
      std::shared_ptr<CContext> e = pmapi::capi::Current();
      if (e == nullptr) return PM_ERR_NOCONTEXT;
      *valuep = e->ctx->derived_limit();
      return 0;
    }
    case PCP_DERIVED_DEBUG_SYNTAX:
      *valuep = pmDebugOptions.derive && pmDebugOptions.appl0;
      return 0;
    case PCP_DERIVED_DEBUG_SEMANTICS:
      *valuep = pmDebugOptions.derive && pmDebugOptions.appl1;
      return 0;
    case PCP_DERIVED_DEBUG_EVAL:
      *valuep = pmDebugOptions.derive && pmDebugOptions.appl2;
      return 0;
    default:
      return PM_ERR_BADDERIVE;
  }
}

int pmSetDerivedControl(int what, int value) {
  switch (what) {
    case PCP_DERIVED_GLOBAL_LIMIT:
      pmapi::SetDerivedGlobalLimit(value);
      return 0;
    case PCP_DERIVED_CONTEXT_LIMIT: {
      std::shared_ptr<CContext> e = pmapi::capi::Current();
      if (e == nullptr) return PM_ERR_NOCONTEXT;
      e->ctx->set_derived_limit(value);
      return 0;
    }
    case PCP_DERIVED_DEBUG_SYNTAX:
      pmDebugOptions.derive = pmDebugOptions.appl0 = value;
      return 0;
    case PCP_DERIVED_DEBUG_SEMANTICS:
      pmDebugOptions.derive = pmDebugOptions.appl1 = value;
      return 0;
    case PCP_DERIVED_DEBUG_EVAL:
      pmDebugOptions.derive = pmDebugOptions.appl2 = value;
      return 0;
    default:
      return PM_ERR_BADDERIVE;
  }
}
