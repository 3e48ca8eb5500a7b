/* c_consumer.c: a C program outside the project that uses the installed
 * C interface, <pcp/pmapi.h> from include/pmapi-compat, built by
 * tests/package/package_test.sh with the flags of `pkg-config pmapi`.
 *
 * It prints the message of PM_ERR_NAME and the local context configuration
 * the library finds.
 *
 * Example:
 *   c_consumer
 *   // Unknown metric name
 *   // /usr/share/pmapi/pmdas/pmcd.conf
 */
#include <pcp/pmapi.h>
#include <stdio.h>

int main(void) {
    printf("%s\n", pmErrStr(PM_ERR_NAME));
    printf("%s\n", pmGetConfig("PCP_PMCDCONF_PATH"));
    return 0;
}
