/*
 * data_symbols.c: a program built as PCP's older clients are, reading and
 * writing libpcp.so.3's data symbols directly. Linked without PIE, its
 * references to pmProgname, pmDebug and pmDebugOptions are copy
 * relocations: the variables live in the program, and the library must
 * see the program's copies. Prints "ok" and exits 0 when the program and
 * the library agree throughout; else names what differs and exits 1.
 */
#include <pcp/pmapi.h>
#include <pcp/deprecated.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void expect(int good, const char *what) {
    if (!good) {
        printf("differs: %s\n", what);
        failures++;
    }
}

int main(int argc, char **argv) {
    (void)argc;
    pmSetProgname(argv[0]);
    expect(strcmp(pmProgname, "data_symbols") == 0, "pmProgname after pmSetProgname");
    pmProgname = "assigned";
    expect(strcmp(pmGetProgname(), "assigned") == 0, "pmGetProgname after assigning pmProgname");

    expect(pmSetDebug("fetch,value") == 0, "pmSetDebug");
    expect(pmDebugOptions.fetch == 1 && pmDebugOptions.value == 1, "pmDebugOptions after pmSetDebug");
    expect((pmDebug & (DBG_TRACE_FETCH | DBG_TRACE_VALUE)) == (DBG_TRACE_FETCH | DBG_TRACE_VALUE),
           "pmDebug after pmSetDebug");
    expect(pmClearDebug("fetch") == 0, "pmClearDebug");
    expect(pmDebugOptions.fetch == 0 && pmDebugOptions.value == 1, "pmDebugOptions after pmClearDebug");
    expect((pmDebug & DBG_TRACE_FETCH) == 0, "pmDebug after pmClearDebug");

    /* set by the program, seen by the library's own parser of bits */
    pmDebugOptions.value = 0;
    pmDebug = 0;
    expect(__pmParseDebug("pdu") == DBG_TRACE_PDU, "__pmParseDebug's bits");
    expect(pmDebugOptions.pdu == 1 && pmDebugOptions.value == 0, "pmDebugOptions after __pmParseDebug");
    expect(pmDebug == DBG_TRACE_PDU, "pmDebug after __pmParseDebug");

    if (failures == 0)
        printf("ok\n");
    return failures != 0;
}
