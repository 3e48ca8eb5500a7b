// context_trace.cc: PCP's -Dfetch trace of what a fetch returns, written
// on standard error as libpcp's pmFetch writes it ("pmFetch returns ..."
// and its result dump), for scripts and QA tests that read it.
#include <time.h>

#include <cstdio>
#include <string>

#include "pcp/pmapi.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/strings.h"

namespace pmapi {
namespace {

// The debug options are off while the dump looks names and descriptors
// up, as in PCP, so those lookups add no lines of their own.
class DebugOff {
 public:
  DebugOff() : saved_(pmDebugOptions) { pmDebugOptions = pmdebugoptions_t{}; }
  ~DebugOff() { pmDebugOptions = saved_; }
  DebugOff(const DebugOff&) = delete;
  DebugOff& operator=(const DebugOff&) = delete;

 private:
  pmdebugoptions_t saved_;
};

void DumpSet(Context* ctx, const Result& r, const ValueSet& vs) {
  std::string line = "  " + IDStr(vs.pmid) + " (";
  absl::StatusOr<std::vector<std::string>> names = ctx->NameAll(vs.pmid);
  if (!names.ok()) {
    line += "<noname>";
  } else {
    for (size_t i = 0; i < names->size(); i++) line += (i > 0 ? ", " : "") + (*names)[i];
  }
  line += "):";
  if (vs.numval == 0) {
    std::fprintf(stderr, "%s No values returned!\n", line.c_str());
    return;
  }
  if (vs.numval < 0) {
    std::fprintf(stderr, "%s %s\n", line.c_str(), ErrStr(vs.numval).c_str());
    return;
  }
  absl::StatusOr<Desc> desc = ctx->LookupDesc(vs.pmid);
  std::fprintf(stderr, "%s numval: %d valfmt: %d vlist[]:\n", line.c_str(), vs.numval, vs.valfmt);
  for (int j = 0; j < vs.numval; j++) {
    ValueView v = r.value(vs, j);
    if (vs.numval > 1 || v.inst != kInNull) {
      std::fprintf(stderr, "    inst [%d", ToPcp(v.inst));
      absl::StatusOr<std::string> name =
          desc.ok() ? ctx->NameInDom(desc->indom, v.inst) : absl::StatusOr<std::string>(
                                                                PcpError(kErrIndom));
      if (name.ok()) {
        std::fprintf(stderr, " or \"%s\"] ", name->c_str());
      } else {
        std::fprintf(stderr, " or ???] ");
      }
    } else {
      std::fprintf(stderr, "   ");
    }
    int type = desc.ok() ? desc->type : (vs.valfmt == kValInsitu ? kTypeUnknown : v.vtype);
    std::fprintf(stderr, "value %s\n", FormatValue(vs.valfmt, type, v, 1).c_str());
  }
}

}  // namespace

void Context::TraceFetch(const absl::StatusOr<Result>& r) {
  DebugOff off;
  std::fprintf(stderr, "pmFetch returns ...\n");
  if (!r.ok()) {
    std::fprintf(stderr, "Error: %s\n", ErrStr(PcpCode(r.status())).c_str());
    return;
  }
  const int64_t ns = r->timestamp_ns();
  const time_t sec = static_cast<time_t>(ns / 1000000000);
  const int nsec = static_cast<int>(ns % 1000000000);
  struct tm tm;
  // In the reporting zone (pmNewZone, pmUseZone), as libpcp prints it.
  if (pmLocaltime(&sec, &tm) == nullptr) localtime_r(&sec, &tm);
  std::fprintf(stderr, "__pmResult dump from %p timestamp: %lld.%09d %02d:%02d:%02d.%09d numpmid: %d\n",
               static_cast<const void*>(&*r), static_cast<long long>(sec), nsec, tm.tm_hour,
               tm.tm_min, tm.tm_sec, nsec, r->numpmid());
  for (const ValueSet& vs : r->sets()) DumpSet(this, *r, vs);
}

}  // namespace pmapi
