// c_pcp_internal.cc: the few calls of libpcp's internal interface
// (declared by the copy of libpcp.h PCP ships with its sample agent, and
// by <pcp/deprecated.h>, which is not included here: it renames
// pmFreeHighResResult) that agents built from PCP's own sources make.
// Each behaves as libpcp's does.
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "c_pmda_internal.h"
#include "pcp_internal.h"
#include "pdu_codec.h"

namespace {

// The old debug bits, in bit order, by their option names (bits 28 and
// 29 are unused).
constexpr const char* kDebugBitNames[] = {
    "pdu",   "fetch", "profile", "value",  "context",   "indom", "pdubuf", "log",   "logmeta",  "optfetch",
    "af",    "appl0", "appl1",   "appl2",  "pmns",      "libpmda", "timecontrol", "pmc", "derive", "lock",
    "interp", "config", "pmapi", "fault",  "auth",      "discovery", "attr", "http",  nullptr,    nullptr,
    "desperate"};

}  // namespace

extern "C" {

int __pmSetProgname(const char* name) {
  pmSetProgname(name);
  return 0;
}

// Adds (never clears) the options whose old bits are set in `value`.
void __pmSetDebugBits(int value) {
  const int n = static_cast<int>(sizeof(kDebugBitNames) / sizeof(kDebugBitNames[0]));
  for (int bit = 0; bit < n; bit++) {
    if ((value & (1 << bit)) && kDebugBitNames[bit] != nullptr) (void)pmSetDebug(kDebugBitNames[bit]);
  }
}

// An ERROR PDU carrying `code`, written to `fd` (an agent's pmcd pipe).
int __pmSendError(int fd, int from, int code) {
  std::vector<uint8_t> pdu = pmapi::EncodeError(from, code);
  size_t done = 0;
  while (done < pdu.size()) {
    ssize_t n = write(fd, pdu.data() + done, pdu.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? -errno : PM_ERR_IPC;
    done += static_cast<size_t>(n);
  }
  return 0;
}

// The agent's domain label: {"agent":NAME}, NAME without a "pmda" prefix
// or a " DSO" suffix.
int __pmGetDomainLabels(int, const char* name, pmLabelSet** set) {
  std::string agent = name != nullptr ? name : "";
  if (agent.size() > 4 && agent.compare(0, 4, "pmda") == 0) agent.erase(0, 4);
  if (agent.size() > 4 && agent.compare(agent.size() - 4, 4, " DSO") == 0) agent.resize(agent.size() - 4);
  *set = nullptr;
  int sts = pmdaAddLabels(set, "{\"agent\":\"%s\"}", agent.c_str());
  if (sts < 0) return sts;
  return pmdaAddLabelFlags(*set, PM_LABEL_DOMAIN) < 0 ? PM_ERR_GENERIC : 1;
}

int __pmGetTimespec(struct timespec* ts) { return clock_gettime(CLOCK_REALTIME, ts) < 0 ? -errno : 0; }

// The growth of the data segment, in kilobytes, since the first call
// (which records where it started and reports 0).
int __pmProcessDataSize(unsigned long* size) {
  static char* base = nullptr;
  char* now = static_cast<char*>(sbrk(0));
  if (size != nullptr && base != nullptr) {
    *size = static_cast<unsigned long>(now - base) / 1024;
  } else {
    base = now;
    if (size != nullptr) *size = 0;
  }
  return 0;
}

// 1 if `prof` (null: the default, everything) admits `inst` of `indom`.
int __pmInProfile(pmInDom indom, const pmProfile* prof, int inst) {
  return pmapi::CProfileAdmits(prof, indom, inst) ? 1 : 0;
}

// Frees the values of each value set, and the sets, but not the result.
void __pmFreeResultValues(pmResult* result) {
  if (result == nullptr) return;
  for (int i = 0; i < result->numpmid; i++) {
    pmValueSet* vs = result->vset[i];
    if (vs == nullptr) continue;
    if (vs->valfmt == PM_VAL_DPTR) {
      for (int j = 0; j < vs->numval; j++) std::free(vs->vlist[j].value.pval);
    }
    std::free(vs);
  }
}

void __pmFreeHighResResult(pmHighResResult* result) { pmFreeHighResResult(result); }

}  // extern "C"
