/*
 * <pcp/pmapi_debug.h>: PCP's debug switches, a part of <pcp/pmapi.h>.
 *
 * The switches sit below the C layer, so every part of the library reads
 * them (a Context traces its fetches under "fetch", derived metrics under
 * "derive"); <pcp/pmapi.h> includes this part where PCP's header declares
 * them, and programs include <pcp/pmapi.h>.
 */
#ifndef PCP_PMAPI_DEBUG_H
#define PCP_PMAPI_DEBUG_H

#ifndef PCP_DATA
#define PCP_DATA
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Debug switches, one int per PCP debug option, in PCP's order; set by
 * pmSetDebug (and -D in pmGetOptions), cleared by pmClearDebug. */
typedef struct {
  int pdu, fetch, profile, value, context, indom;
  int pdubuf, log, logmeta, optfetch, af, appl0;
  int appl1, appl2, pmns, libpmda, timecontrol, pmc;
  int derive, lock, interp, config, pmapi, fault;
  int auth, discovery, attr, http, desperate, deprecated;
  int exec, labels, series, libweb, alloc, services;
  int appl3, appl4, appl5, access, qa, search;
  int query, compress, dev0, dev1, dev2, pmlc;
  int appl6, appl7, appl8, appl9, tls;
} pmdebugoptions_t;
PCP_DATA extern pmdebugoptions_t pmDebugOptions;

#ifdef __cplusplus
}
#endif

#endif /* PCP_PMAPI_DEBUG_H */
