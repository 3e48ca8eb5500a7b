/*
 * <pcp/pmapi_events.h>: event records and fetchgroups, a part of <pcp/pmapi.h>.
 *
 * Event arrays as pmcd and archives carry them, their unpacking, and
 * fetchgroups (pmCreateFetchGroup(3)).
 */
#ifndef PCP_PMAPI_EVENTS_H
#define PCP_PMAPI_EVENTS_H

#ifndef PCP_PMAPI_H
#error "include <pcp/pmapi.h>, which includes this part where it belongs"
#endif

/* =====================================================================
 * Events
 * ===================================================================== */

/* One parameter of an event record; its value bytes follow it. */
typedef struct pmEventParameter {
  pmID ep_pmid;
#ifdef PM_BITFIELDS_LTOR
  unsigned int ep_type : 8;
  unsigned int ep_len : 24;
#else
  unsigned int ep_len : 24;
  unsigned int ep_type : 8;
#endif
} pmEventParameter;

typedef struct pmEventRecord {
  pmTimeval er_timestamp;
  unsigned int er_flags; /* PM_EVENT_FLAG_* */
  int er_nparams;
  pmEventParameter er_param[1];
} pmEventRecord;

typedef struct pmHighResEventRecord {
  pmTimespec er_timestamp;
  unsigned int er_flags;
  int er_nparams;
  pmEventParameter er_param[1];
} pmHighResEventRecord;

#define PM_EVENT_FLAG_POINT  (1U << 0)
#define PM_EVENT_FLAG_START  (1U << 1)
#define PM_EVENT_FLAG_END    (1U << 2)
#define PM_EVENT_FLAG_ID     (1U << 3)
#define PM_EVENT_FLAG_PARENT (1U << 4)
#define PM_EVENT_FLAG_MISSED (1U << 31)

/* A packed event array; its header overlays a pmValueBlock's. */
typedef struct pmEventArray {
#ifdef PM_BITFIELDS_LTOR
  unsigned int ea_type : 8;
  unsigned int ea_len : 24;
#else
  unsigned int ea_len : 24;
  unsigned int ea_type : 8;
#endif
  int ea_nrecords;
  pmEventRecord ea_record[1];
} pmEventArray;

typedef struct pmHighResEventArray {
#ifdef PM_BITFIELDS_LTOR
  unsigned int ea_type : 8;
  unsigned int ea_len : 24;
#else
  unsigned int ea_len : 24;
  unsigned int ea_type : 8;
#endif
  int ea_nrecords;
  pmHighResEventRecord ea_record[1];
} pmHighResEventArray;

PCP_CALL extern int pmUnpackEventRecords(pmValueSet *vsp, int idx, pmResult ***records);
PCP_CALL extern void pmFreeEventResult(pmResult **records);
PCP_CALL extern int pmUnpackHighResEventRecords(pmValueSet *vsp, int idx,
                                                pmHighResResult ***records);
PCP_CALL extern void pmFreeHighResEventResult(pmHighResResult **records);

/* =====================================================================
 * Fetchgroups
 * ===================================================================== */

typedef struct __pmFetchGroup *pmFG;

PCP_CALL extern int pmCreateFetchGroup(pmFG *ptr, int type, const char *name);
PCP_CALL extern int pmGetFetchGroupContext(pmFG pmfg);
PCP_CALL extern int pmExtendFetchGroup_item(pmFG pmfg, const char *metric,
                                            const char *instance, const char *scale,
                                            pmAtomValue *out_value, int out_type,
                                            int *out_sts);
PCP_CALL extern int pmExtendFetchGroup_indom(pmFG pmfg, const char *metric, const char *scale,
                                             int out_inst_codes[], char *out_inst_names[],
                                             pmAtomValue out_values[], int out_type,
                                             int out_stss[], unsigned int out_maxnum,
                                             unsigned int *out_num, int *out_sts);
PCP_CALL extern int pmExtendFetchGroup_event(pmFG pmfg, const char *metric,
                                             const char *instance, const char *field,
                                             const char *scale, struct timespec out_times[],
                                             pmAtomValue out_values[], int out_type,
                                             int out_stss[], unsigned int out_maxnum,
                                             unsigned int *out_num, int *out_sts);
PCP_CALL extern int pmExtendFetchGroup_timestamp(pmFG pmfg, struct timeval *out_value);
PCP_CALL extern int pmExtendFetchGroup_timeval(pmFG pmfg, struct timeval *out_value);
PCP_CALL extern int pmExtendFetchGroup_timespec(pmFG pmfg, struct timespec *out_value);
PCP_CALL extern int pmFetchGroup(pmFG pmfg);
PCP_CALL extern int pmClearFetchGroup(pmFG pmfg);
PCP_CALL extern int pmDestroyFetchGroup(pmFG pmfg);

#endif /* PCP_PMAPI_EVENTS_H */
