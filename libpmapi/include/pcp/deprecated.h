/*
 * pcp/deprecated.h: the names PCP keeps for programs written against its
 * older interfaces: the program name and debug mask as variables, the old
 * debug bits (DBG_TRACE_*, set with __pmSetDebugBits), __pmSetProgname,
 * and the old __pm spellings of
 * names that are now public. Include it after <pcp/pmapi.h>.
 */
#ifndef PCP_DEPRECATED_H
#define PCP_DEPRECATED_H

#ifdef __cplusplus
extern "C" {
#endif

PCP_CALL extern int __pmSetProgname(const char *);
/* The program name pmSetProgname sets and pmGetProgname returns. */
PCP_DATA extern char *pmProgname;
/* Sets the debug options of a specification; returns their old bits. */
PCP_CALL extern int __pmParseDebug(const char *);
/* Adds the debug options whose old bits are set in the argument. */
PCP_CALL extern void __pmSetDebugBits(int);

/* The old debug mask: the bits below, kept with pmDebugOptions. */
PCP_DATA extern int pmDebug;

#define DBG_TRACE_PDU		(1<<0)
#define DBG_TRACE_FETCH		(1<<1)
#define DBG_TRACE_PROFILE	(1<<2)
#define DBG_TRACE_VALUE		(1<<3)
#define DBG_TRACE_CONTEXT	(1<<4)
#define DBG_TRACE_INDOM		(1<<5)
#define DBG_TRACE_PDUBUF	(1<<6)
#define DBG_TRACE_LOG		(1<<7)
#define DBG_TRACE_LOGMETA	(1<<8)
#define DBG_TRACE_OPTFETCH	(1<<9)
#define DBG_TRACE_AF		(1<<10)
#define DBG_TRACE_APPL0		(1<<11)
#define DBG_TRACE_APPL1		(1<<12)
#define DBG_TRACE_APPL2		(1<<13)
#define DBG_TRACE_PMNS		(1<<14)
#define DBG_TRACE_LIBPMDA	(1<<15)
#define DBG_TRACE_TIMECONTROL	(1<<16)
#define DBG_TRACE_PMC		(1<<17)
#define DBG_TRACE_DERIVE	(1<<18)
#define DBG_TRACE_LOCK		(1<<19)
#define DBG_TRACE_INTERP	(1<<20)
#define DBG_TRACE_CONFIG	(1<<21)
#define DBG_TRACE_PMAPI		(1<<22)
#define DBG_TRACE_FAULT		(1<<23)
#define DBG_TRACE_AUTH		(1<<24)
#define DBG_TRACE_DISCOVERY	(1<<25)
#define DBG_TRACE_ATTR		(1<<26)
#define DBG_TRACE_HTTP		(1<<27)
#define DBG_TRACE_DESPERATE	(1<<30)

/* The old spellings. */
#define __pmOptions pmOptions
#define __pmProfile pmProfile
#define __pmInDomProfile pmInDomProfile
#define __pmInResult pmInResult
#define __pmOpenLog pmOpenLog
#define __pmGetAPIConfig pmGetAPIConfig
#define __pmNoMem pmNoMem
#define __pmNotifyErr pmNotifyErr
#define __pmSyslog pmSyslog
#define __pmPrintDesc pmPrintDesc
#define __pmtimevalNow pmtimevalNow
#define __pmtimevalAdd pmtimevalAdd
#define __pmtimevalSub pmtimevalSub
#define __pmtimevalInc pmtimevalInc
#define __pmtimevalDec pmtimevalDec
#define __pmtimevalToReal pmtimevalToReal
#define __pmtimevalFromReal pmtimevalFromReal
#define __pmPrintStamp pmPrintStamp
#define __pmPrintHighResStamp pmPrintHighResStamp
#define __pmPathSeparator pmPathSeparator
#define __pmGetUsername pmGetUsername
#define __pmSetProcessIdentity pmSetProcessIdentity
#define __pmTimeval pmTimeval
#define __pmTimespec pmTimespec
#define pmFreeHighResResult __pmFreeHighResResult
#define __pmSpecLocalPMDA pmSpecLocalPMDA
#define __pmLocalPMDA pmLocalPMDA

#ifdef __cplusplus
}
#endif

#endif /* PCP_DEPRECATED_H */
