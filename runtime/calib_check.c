/* calib_check.c - hpfcalibrate --check FILE.sag: whether a saved
 * calibration still describes the machine. The key parameters (the clock,
 * the REAL(8) operations, a loop's iteration, the memory bandwidth, a
 * message's start-up and cost per byte, a barrier) are measured again and
 * compared with the file's, in absolute units (a cost in cycles through
 * each one's own cpu.clock, so that a clock measured differently does not
 * count as a change). doc/runtime.md ("Checking a calibration"). */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"

static const char *const keys[] = {
    "cpu.clock", "op.dadd", "op.dmul", "op.ddiv", "loop.iter", "mem.bandwidth",
    "net.static.startup", "net.static.per_byte", "sync.overhead",
};
enum { NKEYS = sizeof keys / sizeof keys[0] };

/* The value of NAME in the text of a .sag file (the first definition, its
 * comment cut), into buf; 0 when it has none. */
static int saved_value(const char *text, const char *name, char *buf, size_t len)
{
    size_t n = strlen(name);
    for (const char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            next++;
        const char *p = line + strspn(line, " \t");
        if (strncmp(p, name, n) != 0)
            continue;
        p += n;
        p += strspn(p, " \t");
        if (*p != '=')
            continue;
        p++;
        p += strspn(p, " \t");
        size_t k = strcspn(p, "#\n");
        while (k > 0 && (p[k - 1] == ' ' || p[k - 1] == '\t'))
            k--;
        if (k == 0 || k >= len)
            return 0;
        memcpy(buf, p, k);
        buf[k] = 0;
        return 1;
    }
    return 0;
}

/* The text of path (malloc'ed), or NULL with errno. Descriptions are small:
 * 1 MiB at most. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *text = malloc((1 << 20) + 1);
    size_t n = text ? fread(text, 1, 1 << 20, f) : 0;
    int bad = !text || ferror(f) || (n == (1 << 20) && fgetc(f) != EOF);
    fclose(f);
    if (bad) {
        free(text);
        errno = text ? EFBIG : ENOMEM;
        return NULL;
    }
    text[n] = 0;
    return text;
}

/* The text of the description in path and its clock; NULL when it cannot
 * be read or has no clock (said on stderr). */
static char *open_saved(const char *path, double *clock)
{
    char *text = read_text(path);
    if (!text) {
        fprintf(stderr, "hpfcalibrate: error: cannot read '%s': %s\n", path,
                errno == EFBIG ? "larger than 1 MiB, not a description" : strerror(errno));
        return NULL;
    }
    char clock_s[64];
    *clock = 0;
    if (!saved_value(text, "cpu.clock", clock_s, sizeof clock_s)
        || !cal_si(clock_s, 0, clock) || *clock <= 0) {
        fprintf(stderr, "hpfcalibrate: error: '%s' has no cpu.clock: not a description "
                        "hpfcalibrate wrote\n", path);
        free(text);
        return NULL;
    }
    return text;
}

int calib_check_file(const char *path)
{
    double clock;
    char *text = open_saved(path, &clock);
    free(text);
    return text != NULL;
}

int calib_check(const char *path, double tolerance)
{
    double saved_clock;
    char *text = open_saved(path, &saved_clock);
    if (!text)
        return 1;
    printf("hpfcalibrate --check %s: the key parameters measured again (%s)\n", path,
           cal.quick ? "--quick" : "full");
    printf("  %-22s %16s %16s %9s\n", "parameter", "saved", "now", "change");
    int moved = 0, compared = 0;
    char list[512] = "";
    for (int i = 0; i < NKEYS; i++) {
        char was[64];
        const char *now = cal_value(keys[i]);
        int have = saved_value(text, keys[i], was, sizeof was);
        if (!have || !now) {
            printf("  %-22s %16s %16s %9s\n", keys[i], have ? was : "-", now ? now : "-",
                   "");
            continue;
        }
        double a, b;
        if (!cal_si(was, saved_clock, &a) || !cal_si(now, cal_clock_hz, &b)) {
            printf("  %-22s %16s %16s %9s\n", keys[i], was, now, "?");
            continue;
        }
        double change = a > 0 ? b / a - 1 : b > 0 ? INFINITY : 0;
        compared++;
        int off = !(fabs(change) <= tolerance);
        printf("  %-22s %16s %16s %+8.1f%%%s\n", keys[i], was, now, 100 * change,
               off ? "  <-" : "");
        if (off) {
            size_t n = strlen(list);
            snprintf(list + n, sizeof list - n, "%s%s (%+.0f%%)", moved ? ", " : "", keys[i],
                     100 * change);
            moved++;
        }
    }
    free(text);
    if (compared == 0) {
        fprintf(stderr, "hpfcalibrate: error: '%s' has none of the key parameters\n", path);
        return 1;
    }
    if (moved) {
        printf("%s no longer describes this machine: %s moved more than %.0f%%; calibrate "
               "it again\n", path, list, 100 * tolerance);
        return 2;
    }
    printf("%s still describes this machine: the %d key parameters compared are within "
           "%.0f%%\n", path, compared, 100 * tolerance);
    return 0;
}
