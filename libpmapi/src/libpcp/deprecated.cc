// deprecated.cc: the old __pm spellings of functions that are now public,
// which libpcp.so.3 still exports for programs built against its older
// headers (<pcp/deprecated.h> maps the names for sources). Each calls the
// public function. This file does not include deprecated.h, whose macros
// would rename these definitions.
#include <cstdarg>
#include <cstdio>

#include "pcp_internal.h"

extern "C" {

const char* __pmGetAPIConfig(const char* name) { return pmGetAPIConfig(name); }

FILE* __pmOpenLog(const char* progname, const char* logname, FILE* oldstream, int* status) {
  return pmOpenLog(progname, logname, oldstream, status);
}

void __pmNoMem(const char* where, size_t size, int fatal) { pmNoMem(where, size, fatal); }

void __pmNotifyErr(int priority, const char* message, ...) {
  char text[2048];
  va_list ap;
  va_start(ap, message);
  std::vsnprintf(text, sizeof text, message, ap);
  va_end(ap);
  pmNotifyErr(priority, "%s", text);
}

void __pmSyslog(int onoff) { pmSyslog(onoff); }
void __pmPrintDesc(FILE* f, const pmDesc* desc) { pmPrintDesc(f, desc); }
void __pmtimevalNow(struct timeval* tv) { pmtimevalNow(tv); }
void __pmtimevalInc(struct timeval* a, const struct timeval* b) { pmtimevalInc(a, b); }
void __pmtimevalDec(struct timeval* a, const struct timeval* b) { pmtimevalDec(a, b); }
double __pmtimevalAdd(const struct timeval* a, const struct timeval* b) { return pmtimevalAdd(a, b); }
double __pmtimevalSub(const struct timeval* a, const struct timeval* b) { return pmtimevalSub(a, b); }
double __pmtimevalToReal(const struct timeval* val) { return pmtimevalToReal(val); }
void __pmtimevalFromReal(double secs, struct timeval* val) { pmtimevalFromReal(secs, val); }
void __pmPrintStamp(FILE* f, const struct timeval* tp) { pmPrintStamp(f, tp); }
void __pmPrintHighResStamp(FILE* f, const struct timespec* tp) { pmPrintHighResStamp(f, tp); }
int __pmPathSeparator(void) { return pmPathSeparator(); }
int __pmGetUsername(char** username) { return pmGetUsername(username); }
int __pmSetProcessIdentity(const char* username) { return pmSetProcessIdentity(username); }
char* __pmSpecLocalPMDA(const char* spec) { return pmSpecLocalPMDA(spec); }

}  // extern "C"
