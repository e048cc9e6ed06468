/* tap.h - the TAP lines of the unit tests: one "ok N - what" or
 * "not ok N - what" a check, the plan printed at the end by each test. */
#ifndef HPF_TEST_TAP_H
#define HPF_TEST_TAP_H

#include <stdio.h>

static int tap_n, tap_failed;

static void check(int ok, const char *what)
{
    tap_n++;
    if (!ok)
        tap_failed++;
    printf("%s %d - %s\n", ok ? "ok" : "not ok", tap_n, what);
}

#endif
