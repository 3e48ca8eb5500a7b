// pcp_internal.h: the calls of libpcp's internal interface this library
// provides (c_pcp_internal.cc, c_pmda_dispatch.cc) for agents built from
// PCP's own sources, which declare them in their copy of libpcp.h. Same
// names and signatures as libpcp's.
#ifndef PMAPI_PCP_INTERNAL_H_
#define PMAPI_PCP_INTERNAL_H_

#include <pcp/pmapi.h>
#include <time.h>

extern "C" {
// <pcp/deprecated.h>
int __pmSetProgname(const char* name);
void __pmSetDebugBits(int value);
// libpcp.h
int __pmSendError(int fd, int from, int code);
int __pmGetDomainLabels(int domain, const char* name, pmLabelSet** set);
int __pmStuffValue(const pmAtomValue* atom, pmValue* v, int type);
int __pmProcessDataSize(unsigned long* size);
int __pmGetTimespec(struct timespec* ts);
int __pmInProfile(pmInDom indom, const pmProfile* prof, int inst);
void __pmFreeInResult(pmInResult* res);
void __pmFreeResultValues(pmResult* result);
void __pmFreeHighResResult(pmHighResResult* result);
}

#endif  // PMAPI_PCP_INTERNAL_H_
