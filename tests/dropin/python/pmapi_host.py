"""Walks a pmcd's sample agent through pcp.pmapi: options from a command
line, name space, descriptors, help text, instance domains, labels,
profiles, fetch, store and derived metrics. Its output is compared between
PCP's libpcp.so.3 and libpmapi's.

    python3 pmapi_host.py [-h HOST] [-s N] ...
"""
import sys
from pcp import pmapi
import cpmapi as c_api
from dropin_common import attempt

METRICS = ["sample.long.one", "sample.bin", "sample.string.hullo",
           "sample.ulonglong.million", "sample.float.ten", "sample.double.bin",
           "sample.long.write_me"]


def fetch(ctx, names):
    pmids = ctx.pmLookupName(names)
    descs = ctx.pmLookupDescs(pmids)
    result = ctx.pmFetch(pmids)
    for i in range(result.contents.numpmid):
        valfmt = result.contents.get_valfmt(i)
        values = []
        for j in range(result.contents.get_numval(i)):
            atom = ctx.pmExtractValue(valfmt, result.contents.get_vlist(i, j),
                                      descs[i].contents.type, descs[i].contents.type)
            values.append((result.contents.get_vlist(i, j).inst, ctx.pmAtomStr(atom, descs[i].contents.type)))
        print("  %s %s" % (ctx.pmIDStr(pmids[i]), values))
    ctx.pmFreeResult(result)


def main():
    opts = pmapi.pmOptions("h:s:")
    opts.pmSetLongOptionHost()
    opts.pmSetLongOptionSamples()
    ctx = pmapi.pmContext.fromOptions(opts, sys.argv)
    print("hosts:", opts.pmGetOptionHosts(), "samples:", opts.pmGetOptionSamples())
    print("context type:", opts.pmGetOptionContext())
    attempt("children of sample.long", ctx.pmGetChildren, "sample.long")
    names = []
    ctx.pmTraversePMNS("sample.string", names.append)
    print("traverse:", names)
    pmids = ctx.pmLookupName(METRICS)
    descs = ctx.pmLookupDescs(pmids)
    for name, pmid, desc in zip(METRICS, pmids, descs):
        print("%s %s %s %s %s" % (name, ctx.pmIDStr(pmid), ctx.pmTypeStr(desc.contents.type),
                                  ctx.pmInDomStr(desc), ctx.pmUnitsStr(desc.contents.units)))
        attempt("  oneline", ctx.pmLookupText, pmid)
        attempt("  help", lambda p: ctx.pmLookupText(p, c_api.PM_TEXT_HELP).splitlines()[:2], pmid)
        if name != "sample.long.write_me":  # its labels say whether it was ever stored
            attempt("  labels", ctx.pmLookupLabels, pmid)
        if desc.contents.indom != c_api.PM_INDOM_NULL:
            indom = attempt("  indom", ctx.pmGetInDom, desc)
            attempt("  indom text", ctx.pmLookupInDomText, desc)
            attempt("  instance labels", ctx.pmGetInstancesLabels, desc.contents.indom)
            if indom:
                attempt("  lookup", ctx.pmLookupInDom, desc, indom[1][-1])
                attempt("  name", ctx.pmNameInDom, desc, indom[0][0])
    attempt("domain labels", ctx.pmGetDomainLabels, pmids[0])
    fetch(ctx, [m for m in METRICS if m != "sample.long.write_me"])
    bins = descs[1]
    ctx.pmDelProfile(bins, None)
    ctx.pmAddProfile(bins, [300, 700])
    fetch(ctx, ["sample.bin"])
    ctx.pmAddProfile(bins, None)
    write_me = ctx.pmLookupName(["sample.long.write_me"])
    for value in (42, 5):
        result = ctx.pmFetch(write_me)
        result.contents.get_vlist(0, 0).value.lval = value
        attempt("store", lambda r: ctx.pmStore(r) is not None, result)
        ctx.pmFreeResult(result)
        fetch(ctx, ["sample.long.write_me"])
    attempt("bad store", lambda: ctx.pmStore(ctx.pmFetch(ctx.pmLookupName(["sample.long.one"]))))
    attempt("derived", ctx.pmRegisterDerived, "sample.twice", "sample.long.one * 2")
    attempt("bad derived", ctx.pmRegisterDerived, "sample.bad", "sample.long.one +")
    attempt("unknown name", ctx.pmLookupName, "sample.no.such.metric")
    attempt("host name", ctx.pmGetContextHostName)
    attempt("zone", lambda: ctx.pmNewContextZone() >= 0)
    print("progname:", pmapi.pmContext.pmProgname())


main()
