"""Parses a command line through pcp.pmapi's pmOptions (which reaches
libpcp's pmGetOptions and its __pmAddOpt* calls), opens the context it
names and prints what the options and the context hold. Its output is
compared between PCP's libpcp.so.3 and libpmapi's.

    python3 pmapi_options.py [standard PCP options] [operands]
"""
import sys
from pcp import pmapi
import cpmapi as c_api


def main():
    opts = pmapi.pmOptions("a:h:D:S:T:O:A:t:s:zZ:L")
    opts.pmSetOptionFlags(c_api.PM_OPTFLAG_BOUNDARIES | c_api.PM_OPTFLAG_STDOUT_TZ)
    for setter in (opts.pmSetLongOptionArchive, opts.pmSetLongOptionHost, opts.pmSetLongOptionDebug,
                   opts.pmSetLongOptionStart, opts.pmSetLongOptionFinish, opts.pmSetLongOptionOrigin,
                   opts.pmSetLongOptionAlign, opts.pmSetLongOptionInterval,
                   opts.pmSetLongOptionSamples, opts.pmSetLongOptionHostZone,
                   opts.pmSetLongOptionTimeZone, opts.pmSetLongOptionArchiveList,
                   opts.pmSetLongOptionHostList, opts.pmSetLongOptionLocalPMDA):
        setter()
    try:
        ctx = pmapi.pmContext.fromOptions(opts, sys.argv)
    except pmapi.pmUsageErr as error:
        error.message()
        print("usage error; errors:", opts.pmGetOptionErrors())
        sys.exit(1)
    except pmapi.pmErr as error:
        print("error:", error.message())
        sys.exit(1)
    print("context:", opts.pmGetOptionContext(), "hosts:", opts.pmGetOptionHosts(),
          "archives:", opts.pmGetOptionArchives())
    print("operands:", opts.pmGetOperands())
    print("samples:", opts.pmGetOptionSamples(), "interval:", opts.pmGetOptionInterval())
    print("start:", opts.pmGetOptionStart(), "finish:", opts.pmGetOptionFinish(),
          "origin:", opts.pmGetOptionOrigin())
    print("host zone:", opts.pmGetOptionHostZone(), "zone:", opts.pmGetOptionTimezone())
    print("debug fetch:", bool(pmapi.pmContext.pmDebug(c_api.PM_DEBUG_FETCH)) if hasattr(c_api, "PM_DEBUG_FETCH")
          else "n/a")
    print("progname:", pmapi.pmContext.pmProgname())
    print("host:", ctx.pmGetContextHostName())
    print("which zone:", ctx.pmWhichZone())


main()
