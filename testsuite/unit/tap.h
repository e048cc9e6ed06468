/* tap.h - the TAP lines of the unit tests: one "ok N - what" or
 * "not ok N - what" a check, the plan printed at the end by each test. */
#ifndef HPF_TEST_TAP_H
#define HPF_TEST_TAP_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n, tap_failed;

static void check(int ok, const char *what)
{
    tap_n++;
    if (!ok)
        tap_failed++;
    printf("%s %d - %s\n", ok ? "ok" : "not ok", tap_n, what);
}

/* A fresh temporary directory named after stem (under $TMPDIR, else
 * /tmp) in dir[n]; 0, or 1 after a failed check line and the plan. */
static inline int tap_tmpdir(char *dir, size_t n, const char *stem)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, n, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", stem);
    if (!mkdtemp(dir)) {
        printf("not ok 1 - a temporary directory: %s\n1..1\n", strerror(errno));
        return 1;
    }
    return 0;
}

/* The whole of a file, NUL-terminated (to be freed), or NULL. */
static inline char *tap_slurp(const char *file)
{
    FILE *f = fopen(file, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0, k;
    char *s = malloc(cap);
    while ((k = fread(s + len, 1, cap - len - 1, f)) > 0) {
        len += k;
        if (cap - len < 2)
            s = realloc(s, cap *= 2);
    }
    s[len] = 0;
    fclose(f);
    return s;
}

/* Whether python3 is there to read the files back. */
static inline int tap_have_python(void)
{
    return system("command -v python3 >/dev/null 2>&1") == 0;
}

#endif
