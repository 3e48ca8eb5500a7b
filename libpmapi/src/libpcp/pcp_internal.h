// pcp_internal.h: the part of libpcp's internal interface (the __pm names
// of PCP's libpcp.h) this library provides. PCP's own programs, its
// Python modules, its companion libraries (libpcp_import, libpcp_gui,
// libpcp_mmv) and agents built from PCP's sources call these names, so
// each has libpcp's name, signature and behaviour, and the structures they
// share with callers have libpcp's layout. docs/dropin.md lists the names
// and what each does here.
#ifndef PMAPI_PCP_INTERNAL_H_
#define PMAPI_PCP_INTERNAL_H_

#include <pcp/pmapi.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>

extern "C" {

// ---- Shared layouts ----

// A point in time as libpcp keeps it inside (archives, results).
typedef struct {
  int64_t sec;
  int32_t nsec;
} __pmTimestamp;

// A result as libpcp builds it inside: a pmResult with a __pmTimestamp.
typedef struct __pmResult {
  __pmTimestamp timestamp;
  int numpmid;
  pmValueSet* vset[1];
} __pmResult;

// The chained hash table PCP's programs keep their own data in.
typedef struct __pmHashNode {
  struct __pmHashNode* next;
  unsigned int key;
  void* data;
} __pmHashNode;

typedef struct __pmHashCtl {
  int nodes;
  int hsize;
  __pmHashNode** hash;
  __pmHashNode* next;  // __pmHashWalk's position
  unsigned int index;
} __pmHashCtl;

typedef enum {
  PM_HASH_WALK_START = 0,
  PM_HASH_WALK_NEXT,
  PM_HASH_WALK_STOP,
  PM_HASH_WALK_DELETE_NEXT,
  PM_HASH_WALK_DELETE_STOP,
} __pmHashWalkState;

typedef __pmHashWalkState (*__pmHashWalkCallback)(const __pmHashNode*, void*);
typedef void (*__pmSignalHandler)(int);
typedef uint32_t __pmPDU;

// Opaque to callers: only pointers cross the interface.
typedef struct __pmSockAddr __pmSockAddr;
typedef struct __pmHostEnt __pmHostEnt;
typedef struct __pmFILE __pmFILE;
typedef struct __pmArchCtl __pmArchCtl;
typedef struct __pmLogCtl __pmLogCtl;
typedef struct __pmLogLabel __pmLogLabel;
typedef struct __pmLogInDom __pmLogInDom;
typedef struct __pmExecCtl __pmExecCtl_t;
// A node of libpcp's name-space tree, as agents built by PCP see it.
typedef struct __pmnsNode {
  struct __pmnsNode* parent;
  struct __pmnsNode* next;
  struct __pmnsNode* first;
  struct __pmnsNode* hash;
  char* name;
  pmID pmid;
} __pmnsNode;
typedef void (*__pmConfigCallback)(char* name, char* dir, char* value);
typedef void (*__pmAPIConfigCallback)(const char* name, const char* value);

// ---- Program state, debug and messages (c_api_process.cc, misc.cc) ----
int __pmSetProgname(const char* name);
int __pmParseDebug(const char* spec);
void __pmSetDebugBits(int value);
void __pmSetInternalState(int state);
int __pmGetInternalState(void);
void __pmDumpErrTab(FILE* f);
void __pmDumpPDUCnt(FILE* f);
char* __pmPDUTypeStr_r(int type, char* buf, int buflen);
const char* __pmPDUTypeStr(int type);
void __pmPrintMetricNames(FILE* f, int numnames, char** names, char* sep);
int __pmStringValue(const char* buf, pmAtomValue* avp, int type);
int __pmStuffValue(const pmAtomValue* atom, pmValue* v, int type);

// ---- Options (options.cc) ----
void __pmStartOptions(pmOptions* opts);
int __pmGetLongOptions(pmOptions* opts);
void __pmEndOptions(pmOptions* opts);
void __pmAddOptArchive(pmOptions* opts, char* arg);
void __pmAddOptArchiveList(pmOptions* opts, char* arg);
void __pmAddOptArchiveFolio(pmOptions* opts, char* arg);
void __pmAddOptArchivePath(pmOptions* opts);
void __pmAddOptContainer(pmOptions* opts, char* arg);
void __pmAddOptHost(pmOptions* opts, char* arg);
void __pmAddOptHostList(pmOptions* opts, char* arg);
void __pmSetLocalContextTable(pmOptions* opts, char* arg);
void __pmSetLocalContextFlag(pmOptions* opts);

// ---- Hash tables (hash.cc) ----
void __pmHashInit(__pmHashCtl* hcp);
int __pmHashPreAlloc(int hsize, __pmHashCtl* hcp);
__pmHashNode* __pmHashSearch(unsigned int key, __pmHashCtl* hcp);
int __pmHashAdd(unsigned int key, void* data, __pmHashCtl* hcp);
int __pmHashDel(unsigned int key, void* data, __pmHashCtl* hcp);
void __pmHashClear(__pmHashCtl* hcp);
void __pmHashFree(__pmHashCtl* hcp);
void __pmHashWalkCB(__pmHashWalkCallback cb, void* cdata, const __pmHashCtl* hcp);
__pmHashNode* __pmHashWalk(__pmHashCtl* hcp, __pmHashWalkState state);

// ---- Time (time.cc) ----
int __pmGetTimespec(struct timespec* ts);
int __pmGetTimestamp(__pmTimestamp* timestamp);
void __pmPrintTimestamp(FILE* f, const __pmTimestamp* tsp);
time_t __pmMktime(struct tm* timeptr);
char* __pmTimezone(void);
char* __pmZoneinfo(void);
char* __pmTimezone_r(char* buf, int buflen);
void __pmtimevalSleep(struct timeval interval);
void __pmtimevalPause(struct timeval interval);
void __pmtimespecSleep(struct timespec interval);
void __pmtimespecPause(struct timespec interval);

// ---- Processes, files and memory (system.cc) ----
int __pmAbsolutePath(char* path);
int __pmMakePath(const char* dir, mode_t mode);
pid_t __pmProcessCreate(char** argv, int* fromChild, int* toChild);
int __pmProcessDataSize(unsigned long* size);
int __pmSetSignalHandler(int sig, __pmSignalHandler func);
void __pmServerStart(int argc, char** argv, int flags);
int __pmServerCreatePIDFile(const char* spec, int verbose);
int __pmServerNotifyServiceManagerReady(pid_t pid);
int __pmServerNotifyServiceManagerStopping(pid_t pid);
void __pmDumpStack(void);
void __pmDumpStackInit(void* addr);
FILE* __pmRotateLog(const char* progname, const char* logname, FILE* oldstream, int* status);
int __pmParseTime(const char* string, struct timeval* logStart, struct timeval* logEnd,
                  struct timeval* rslt, char** errMsg);
int __pmParseHighResTime(const char* string, struct timespec* logStart, struct timespec* logEnd,
                         struct timespec* rslt, char** errMsg);
void* __pmMemoryMap(int fd, size_t sz, int writable);
void __pmMemoryUnmap(void* addr, size_t sz);
__pmFILE* __pmFopen(const char* path, const char* mode);
int __pmFclose(__pmFILE* f);
int __pmFflush(__pmFILE* f);
int __pmFileno(__pmFILE* f);
int __pmFseek(__pmFILE* f, long offset, int whence);
long __pmFtell(__pmFILE* f);

// ---- Timed callbacks (alarms.cc) ----
int __pmAFsetup(const struct timeval* start, const struct timeval* delta, void* data, void (*func)(int, void*));
int __pmAFregister(const struct timeval* delta, void* data, void (*func)(int, void*));
int __pmAFunregister(int id);
void __pmAFblock(void);
void __pmAFunblock(void);
int __pmAFisempty(void);

// ---- Name-space nodes (misc.cc; pmdaNodeLookup in c_pmda_tree.cc) ----
void __pmDumpNameNode(FILE* f, const __pmnsNode* node, int verbosity);
__pmnsNode* pmdaNodeLookup(__pmnsNode* node, const char* name);

// ---- Agents' internals (cpmda/) ----
void __pmdaSetContext(int context);
void __pmdaCacheDumpAll(FILE* fp, int option);
int __pmdaSendRootPDUInfo(int fd, int features, int status);
int __pmdaRecvRootPDUInfo(int fd, int* version, int* features);
int __pmdaSendRootPDUContainer(int fd, int type, int pid, const char* name, int len, int status);
int __pmdaRecvRootPDUContainer(int fd, int type, void* buffer, int buflen);
int __pmdaDecodeRootPDUContainer(void* buf, int blen, int* pid, char* name, int nlen);
int __pmdaSendRootPDUStartReq(int fd, int ipctype, const char* name, int namelen, const char* args, int argslen);
int __pmdaRecvRootPDUStartReq(int fd, void* buffer, int buflen);
int __pmdaSendRootPDUStart(int fd, int pid, int infd, int outfd, const char* name, int namelen, int status);
int __pmdaRecvRootPDUStart(int fd, void* buffer, int buflen);
int __pmdaDecodeRootPDUStart(void* buf, int blen, int* pid, int* infd, int* outfd, int* ipctype, char* name,
                             int namelen, char* args, int argslen);
int __pmdaSendRootPDUStop(int fd, int type, int pid, int code, int force, int status);
int __pmdaRecvRootPDUStop(int fd, int type, void* buffer, int buflen);
int __pmdaDecodeRootPDUStop(void* buf, int buflen, int* pid, int* code, int* force);

// ---- Commands run as child processes (process.cc) ----
#define PM_EXEC_TOSS_NONE 0
#define PM_EXEC_TOSS_STDIN 1
#define PM_EXEC_TOSS_STDOUT 2
#define PM_EXEC_TOSS_STDERR 4
#define PM_EXEC_TOSS_ALL 7
#define PM_EXEC_NOWAIT 0
#define PM_EXEC_WAIT 1
int __pmProcessAddArg(__pmExecCtl_t** handle, const char* arg);
int __pmProcessUnpickArgs(__pmExecCtl_t** handle, const char* command);
int __pmProcessExec(__pmExecCtl_t** handle, int toss, int wait);
int __pmProcessPipe(__pmExecCtl_t** handle, const char* type, int toss, FILE** fp);
int __pmProcessPipeClose(FILE* fp);
int __pmProcessExists(pid_t pid);
int __pmProcessTerminate(pid_t pid, int force);

// ---- Configuration (c_api_config.cc, c_api_misc.cc) ----
extern const __pmConfigCallback __pmNativeConfig;
void __pmConfig(__pmConfigCallback formatter);
void __pmAPIConfig(__pmAPIConfigCallback formatter);

// ---- Sockets (sockets.cc) ----
ssize_t __pmRead(int fd, void* buf, size_t len);
ssize_t __pmWrite(int fd, const void* buf, size_t len);
int __pmSocketClosed(void);
int __pmCreateSocket(void);
void __pmCloseSocket(int fd);
int __pmConnect(int fd, void* addr, socklen_t addrlen);
ssize_t __pmSend(int fd, const void* buf, size_t len, int flags);
ssize_t __pmRecv(int fd, void* buf, size_t len, int flags);
__pmSockAddr* __pmSockAddrAlloc(void);
void __pmSockAddrFree(__pmSockAddr* addr);
size_t __pmSockAddrSize(void);
void __pmSockAddrInit(__pmSockAddr* addr, int family, int address, int port);
int __pmSockAddrIsInet(const __pmSockAddr* addr);
int __pmSockAddrIsIPv6(const __pmSockAddr* addr);
int __pmSockAddrIsUnix(const __pmSockAddr* addr);
char* __pmSockAddrToString(const __pmSockAddr* addr);
int __pmCreateIPv6Socket(void);
int __pmConnectTo(int fd, const __pmSockAddr* addr, int port);
int __pmConnectCheckError(int fd);
int __pmConnectRestoreFlags(int fd, int flags);
void __pmFD_ZERO(fd_set* set);
void __pmFD_SET(int fd, fd_set* set);
void __pmFD_CLR(int fd, fd_set* set);
int __pmFD_ISSET(int fd, fd_set* set);
void __pmFD_COPY(fd_set* to, const fd_set* from);
int __pmSelectRead(int nfds, fd_set* readfds, struct timeval* timeout);
int __pmSelectWrite(int nfds, fd_set* writefds, struct timeval* timeout);
__pmHostEnt* __pmGetAddrInfo(const char* hostName);
void __pmHostEntFree(__pmHostEnt* he);
__pmSockAddr* __pmHostEntGetSockAddr(const __pmHostEnt* he, void** ei);
char* __pmHostEntGetName(__pmHostEnt* he);
char* __pmGetNameInfo(__pmSockAddr* addr);
void __pmIgnoreSignalPIPE(void);

// ---- Results, labels and PDUs (results.cc, labels.cc) ----
__pmResult* __pmAllocResult(int numpmid);
void __pmFreeResult(__pmResult* result);
void __pmFreeResultValues(pmResult* result);
void __pmFreeHighResResult(pmHighResResult* result);
void __pmFreeInResult(pmInResult* res);
void __pmSortInstances(__pmResult* result);
void __pmPrintResult(FILE* f, const __pmResult* result);
int __pmUnpinPDUBuf(void* pdubuf);
void __pmOverrideLastFd(int fd);
int __pmInProfile(pmInDom indom, const pmProfile* prof, int inst);
int __pmAddLabels(pmLabelSet** lsp, const char* extras, int flags);
pmLabelSet* __pmDupLabelSets(pmLabelSet* sets, int nsets);
int __pmParseLabelSet(const char* json, int jlen, int flags, pmLabelSet** set);
int __pmGetDomainLabels(int domain, const char* name, pmLabelSet** set);
int __pmSendError(int fd, int from, int code);
int __pmSendDesc(int fd, int from, pmDesc* desc);
int __pmSendResult(int fd, int from, const __pmResult* result);
int __pmSetClientId(const char* id);
char* __pmGetClientId(int argc, char** argv);
int __pmSetClientIdArgv(int argc, char** argv);

// ---- Archive writing (archive_write.cc): not provided; each fails ----
int __pmEncodeResult(const __pmLogCtl* lcp, const __pmResult* result, __pmPDU** pdubuf);
int __pmLogCreate(const char* host, const char* base, int version, __pmArchCtl* acp);
__pmFILE* __pmLogNewFile(const char* base, int vol);
int __pmLogWriteLabel(__pmFILE* f, const __pmLogLabel* label);
int __pmLogPutDesc(__pmArchCtl* acp, const pmDesc* desc, int numnames, char** names);
int __pmLogPutInDom(__pmArchCtl* acp, int type, const __pmLogInDom* lidp);
int __pmLogPutIndex(const __pmArchCtl* acp, const __pmTimestamp* stamp);
int __pmLogPutLabels(__pmArchCtl* acp, unsigned int type, unsigned int ident, int nsets,
                     pmLabelSet* labelsets, const __pmTimestamp* stamp);
int __pmLogPutResult2(__pmArchCtl* acp, __pmPDU* pb);
int __pmLogPutResult3(__pmArchCtl* acp, __pmPDU* pb);
int __pmLogPutText(__pmArchCtl* acp, unsigned int ident, unsigned int type, char* buffer, int cached);
int __pmLogWriteMark(__pmArchCtl* acp, const __pmTimestamp* stamp, const __pmTimestamp* delta);
void __pmLogClose(__pmArchCtl* acp);
}

namespace pmapi::pcpint {
// A copy of s[0..length) that pmFreeOptions frees (the option calls keep
// the caller's own strings as they are, and those are not freed).
char* OptionString(const char* s, size_t length);
// Frees those of list[0..count) that OptionString or the option calls made.
void FreeOptionStrings(char** list, int count);
}  // namespace pmapi::pcpint

#endif  // PMAPI_PCP_INTERNAL_H_
