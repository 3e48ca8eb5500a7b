"""Walks an archive through pcp.pmapi: label, name space, descriptors,
help text, instance domains, labels, fetches in three modes, value
extraction, printing and time helpers. Its output is compared between
PCP's libpcp.so.3 and libpmapi's.

    python3 pmapi_archive.py ARCHIVE METRIC...
"""
import sys
from ctypes import c_uint
from pcp import pmapi
import cpmapi as c_api
from dropin_common import attempt


def show_desc(ctx, name):
    pmids = attempt(name, lambda: list(ctx.pmLookupName(name)))
    if pmids is None:
        return None, None
    pmid = pmids[0]
    desc = ctx.pmLookupDesc(pmid)
    print("%s %s type=%s sem=%s indom=%s units=%r" % (
        name, ctx.pmIDStr(pmid), ctx.pmTypeStr(desc.contents.type),
        ctx.pmSemStr(desc.contents.sem), ctx.pmInDomStr(desc),
        ctx.pmUnitsStr(desc.contents.units)))
    attempt("  oneline", ctx.pmLookupText, pmid, c_api.PM_TEXT_ONELINE)
    attempt("  labels", ctx.pmLookupLabels, pmid)
    attempt("  names", ctx.pmNameAll, pmid)
    attempt("  name", ctx.pmNameID, pmid)
    if desc.contents.indom != c_api.PM_INDOM_NULL:
        indom = attempt("  indom", ctx.pmGetInDomArchive, desc)
        if indom and indom[0]:
            attempt("  lookup", ctx.pmLookupInDomArchive, desc, indom[1][0])
            attempt("  name of", ctx.pmNameInDomArchive, desc, indom[0][0])
    return pmid, desc


def show_values(ctx, pmids, descs, samples):
    for _ in range(samples):
        try:
            result = ctx.pmFetch((c_uint * len(pmids))(*pmids))
        except pmapi.pmErr as error:
            print("fetch: error", error.message())
            return
        stamp = result.contents.timestamp
        print("at %s.%06d" % (ctx.pmCtime(stamp.tv_sec).rstrip(), stamp.tv_usec))
        for i in range(result.contents.numpmid):
            valfmt = result.contents.get_valfmt(i)
            for j in range(result.contents.get_numval(i)):
                atom = ctx.pmExtractValue(valfmt, result.contents.get_vlist(i, j),
                                          descs[i].contents.type, c_api.PM_TYPE_DOUBLE)
                print("  %s[%d] %s" % (ctx.pmIDStr(pmids[i]), result.contents.get_vlist(i, j).inst,
                                       ctx.pmAtomStr(atom, c_api.PM_TYPE_DOUBLE)))
        ctx.pmFreeResult(result)


def main():
    archive, names = sys.argv[1], sys.argv[2:]
    ctx = pmapi.pmContext(c_api.PM_CONTEXT_ARCHIVE, archive)
    label = ctx.pmGetArchiveLabel()
    print("host:", label.get_hostname(), "zone:", label.get_timezone())
    end = ctx.pmGetArchiveEnd()
    print("end:", end)
    attempt("children of kernel", ctx.pmGetChildren, "kernel")
    attempt("children status", ctx.pmGetChildrenStatus, "kernel")
    attempt("context zone", ctx.pmNewContextZone)
    attempt("which zone", ctx.pmWhichZone)
    attempt("host name", ctx.pmGetContextHostName)
    attempt("context labels", ctx.pmGetContextLabels)
    pmids, descs = [], []
    for name in names:
        pmid, desc = show_desc(ctx, name)
        if pmid is not None:
            pmids.append(pmid)
            descs.append(desc)
    start = label.start
    ctx.pmSetMode(c_api.PM_MODE_FORW, start, 0)
    show_values(ctx, pmids, descs, 3)
    ctx.pmSetMode(c_api.PM_MODE_INTERP, start, 2500)
    show_values(ctx, pmids, descs, 4)
    for desc in descs:
        if desc.contents.indom != c_api.PM_INDOM_NULL:
            attempt("indom now", ctx.pmGetInDom, desc)
            attempt("indom dict", ctx.pmGetInDomDict, desc.contents.indom)
    ctx.pmSetMode(c_api.PM_MODE_BACK, end, 0)
    show_values(ctx, pmids, descs, 2)
    attempt("interval", lambda text: ctx.pmParseInterval(text)[0].tv_sec, "1 min 30 sec")
    attempt("bad interval", ctx.pmParseInterval, "1 fortnight")
    attempt("units", lambda text: ctx.pmUnitsStr(ctx.pmParseUnitsStr(text)[0]), "kbyte / sec")
    attempt("numbers", lambda: (ctx.pmNumberStr(123456.789), ctx.pmNumberStr(0.000012)))
    attempt("errors", lambda: (pmapi.pmErr(c_api.PM_ERR_NAME).message(), ctx.pmErrStr(-2)))
    attempt("localtime", lambda: (lambda tm: (tm.tm_year, tm.tm_mon, tm.tm_mday, tm.tm_hour, tm.tm_min))(
        ctx.pmLocaltime(int(start.tv_sec))))
    attempt("metric spec", lambda: (lambda spec: (spec.contents.source, spec.contents.metric, spec.contents.ninst))(
        ctx.pmParseMetricSpec("kernel.all.load[1,5]")[0]))
    attempt("derived", ctx.pmRegisterDerived, "my.load", "kernel.all.load * 2")
    ctx.pmDestroyContext(ctx.ctx)


main()
