// archive_write.cc: libpcp's archive-writing calls. This library reads
// archives but does not write them, so each of these reports, once a call,
// that writing is not supported and fails (PM_ERR_NYI, or null where the
// call returns a pointer). libpcp_import (pcp.pmi, pmrep -o archive) reaches
// them; docs/dropin.md lists them.
#include <cerrno>
#include <cstdio>

#include "pcp_internal.h"

namespace {

int Refuse(const char* call) {
  std::fprintf(stderr, "%s: %s: writing PCP archives is not supported by this library (libpmapi)\n",
               pmGetProgname(), call);
  return PM_ERR_NYI;
}

}  // namespace

extern "C" {

int __pmLogCreate(const char*, const char*, int, __pmArchCtl*) { return Refuse("__pmLogCreate"); }

__pmFILE* __pmLogNewFile(const char*, int) {
  Refuse("__pmLogNewFile");
  errno = ENOTSUP;
  return nullptr;
}

int __pmLogWriteLabel(__pmFILE*, const __pmLogLabel*) { return Refuse("__pmLogWriteLabel"); }
int __pmLogPutDesc(__pmArchCtl*, const pmDesc*, int, char**) { return Refuse("__pmLogPutDesc"); }
int __pmLogPutInDom(__pmArchCtl*, int, const __pmLogInDom*) { return Refuse("__pmLogPutInDom"); }
int __pmLogPutIndex(const __pmArchCtl*, const __pmTimestamp*) { return Refuse("__pmLogPutIndex"); }
int __pmLogPutLabels(__pmArchCtl*, unsigned int, unsigned int, int, pmLabelSet*, const __pmTimestamp*) {
  return Refuse("__pmLogPutLabels");
}
int __pmLogPutResult2(__pmArchCtl*, __pmPDU*) { return Refuse("__pmLogPutResult2"); }
int __pmLogPutResult3(__pmArchCtl*, __pmPDU*) { return Refuse("__pmLogPutResult3"); }
int __pmLogPutText(__pmArchCtl*, unsigned int, unsigned int, char*, int) { return Refuse("__pmLogPutText"); }
int __pmLogWriteMark(__pmArchCtl*, const __pmTimestamp*, const __pmTimestamp*) {
  return Refuse("__pmLogWriteMark");
}
void __pmLogClose(__pmArchCtl*) { Refuse("__pmLogClose"); }
int __pmEncodeResult(const __pmLogCtl*, const __pmResult*, __pmPDU**) { return Refuse("__pmEncodeResult"); }

}  // extern "C"
