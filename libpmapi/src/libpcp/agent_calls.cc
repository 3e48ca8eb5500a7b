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
#include "c_api_internal.h"
#include "pdu_codec.h"


namespace {

// Writes a whole PDU to fd: 0, or -errno (PM_ERR_IPC for a closed pipe).
int WritePdu(int fd, const std::vector<uint8_t>& pdu) {
  size_t done = 0;
  while (done < pdu.size()) {
    ssize_t n = write(fd, pdu.data() + done, pdu.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? -errno : PM_ERR_IPC;
    done += static_cast<size_t>(n);
  }
  return 0;
}

}  // namespace

extern "C" {

// An ERROR PDU carrying `code`, written to `fd` (an agent's pmcd pipe).
int __pmSendError(int fd, int from, int code) { return WritePdu(fd, pmapi::EncodeError(from, code)); }

// A DESC PDU of `desc`.
int __pmSendDesc(int fd, int from, pmDesc* desc) {
  return WritePdu(fd, pmapi::EncodeDesc(from, pmapi::capi::FromC(*desc)));
}

// A RESULT PDU of `result`'s value sets at its time stamp.
int __pmSendResult(int fd, int from, const __pmResult* result) {
  pmapi::Result r;
  r.set_timestamp_ns(result->timestamp.sec * 1000000000 + result->timestamp.nsec);
  absl::Status s = pmapi::capi::AppendCValueSets(result->vset, result->numpmid, &r);
  if (!s.ok()) return pmapi::PcpCode(s);
  return WritePdu(fd, pmapi::EncodeResultPdu(from, r));
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

// 1 if `prof` (null: the default, everything) admits `inst` of `indom`.
int __pmInProfile(pmInDom indom, const pmProfile* prof, int inst) {
  return pmapi::CProfileAdmits(prof, indom, pmapi::Inst{inst}) ? 1 : 0;
}

void __pmFreeHighResResult(pmHighResResult* result) { pmFreeHighResResult(result); }

}  // extern "C"
