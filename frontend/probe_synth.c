/* probe_synth.c - the synthetic probe's plan (hpfc --probe FILE; doc/probes.md):
 * the phases hpfpredict --save-phases found, each phase's representative
 * interval as the main program's statements it runs and how many times,
 * matched to the lowered program's statements. spmd_emit then writes a
 * program that runs only those statements, phase by phase, on generated
 * data, each block timed by libhpfrt (hpfrt_probe_again). */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spmd.h"
#include "util.h"

/* The number after "key": between s and end, or def. */
static double num_after(const char *s, const char *end, const char *key, double def)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(s, pat);
    if (!p || (end && p >= end))
        return def;
    char *e;
    double v = strtod(p + strlen(pat), &e);
    return e == p + strlen(pat) ? def : v;
}

/* Whether hpfc's SPMD code of s is a region (hpfrt_region_begin), as the
 * interpretation counts them (interp/bbv.c, bbv_region_head). */
static int region_stmt(const SpStmt *s)
{
    switch (s->kind) {
    case SP_STORE: case SP_BCAST: return 1;
    case SP_FORALL: case SP_REDUCE: return !spmd_loop_empty(s->u.loop);
    default: return 0;
    }
}

/* The ord-th region statement of line in the list (walked in program
 * order, into loops and branches); *seen counts those of the line met. */
static const SpStmt *find_region(const PtrVec *l, int line, int ord, int *seen)
{
    for (int i = 0; i < l->n; i++) {
        const SpStmt *s = l->v[i], *r = NULL;
        if (region_stmt(s) && s->line == line && ++*seen == ord)
            return s;
        switch (s->kind) {
        case SP_DO: r = find_region(&s->u.do_.body, line, ord, seen); break;
        case SP_WHILE:
            if (!(r = find_region(&s->u.while_.pre, line, ord, seen)))
                r = find_region(&s->u.while_.body, line, ord, seen);
            break;
        case SP_IF:
            for (int b = 0; b < s->u.if_.branches.n && !r; b++) {
                const SpBranch *br = s->u.if_.branches.v[b];
                if (!(r = find_region(&br->pre, line, ord, seen)))
                    r = find_region(&br->body, line, ord, seen);
            }
            break;
        default: break;
        }
        if (r)
            return r;
    }
    return NULL;
}

int spmd_probe_read(SpProgram *sp, const char *path, Arena *a, char *err, size_t errlen)
{
    size_t len;
    int why;
    char *text = file_read_all(path, &len, &why);
    if (!text) {
        snprintf(err, errlen, "cannot read '%s': %s", path, file_error(why));
        return -1;
    }
    SpUnit *main = NULL;
    for (int i = 0; i < sp->units.n; i++)
        if (((SpUnit *)sp->units.v[i])->main)
            main = sp->units.v[i];
    const char *ph = strstr(text, "\"phases\": [");
    const char *stop = ph ? strstr(ph, "\"membership\"") : NULL;
    const char *pr = strstr(text, "\"probe\": {");
    const char *fp = pr ? strstr(pr, "\"fingerprint\": \"") : NULL;
    int bad = 0;
    if (!main) {
        snprintf(err, errlen, "the program has no main program to probe");
        bad = 1;
    } else if (!ph || !stop || !fp) {
        snprintf(err, errlen, "'%s' is not a phases file of hpfpredict --save-phases", path);
        bad = 1;
    }
    SpProbe *p = arena_alloc(a, sizeof *p);
    memset(p, 0, sizeof *p);
    if (!bad) {
        fp += strlen("\"fingerprint\": \"");
        size_t k = strcspn(fp, "\"");
        p->fingerprint = arena_strndup(a, fp, k < 64 ? k : 64);
        p->np = (int)num_after(pr, NULL, "np", 0);
    }
    for (const char *s = ph; !bad && (s = strstr(s + 1, "{\"phase\": ")) && s < stop;) {
        const char *e = strstr(s + 1, "{\"phase\": ");
        if (!e || e > stop)
            e = stop;
        SpProbePhase *q = arena_alloc(a, sizeof *q);
        memset(q, 0, sizeof *q);
        q->phase = (int)num_after(s, e, "phase", 0);
        q->rep_work = num_after(s, e, "rep_operations", 0);
        q->phase_work = num_after(s, e, "operations", 0);
        q->top_line = (int)num_after(s, e, "top_do_line", 0);
        q->top_iter = (long long)num_after(s, e, "top_do_iteration", 0);
        const char *st = strstr(s, "\"statements\": [");
        if (!st || st > e || q->phase < 1 || !(q->rep_work > 0)) {
            snprintf(err, errlen, "'%s': phase %d has no statements: write the phases again "
                     "with this version of hpfpredict --save-phases", path, q->phase);
            bad = 1;
            break;
        }
        st += strlen("\"statements\": [");
        while (!bad && *st == '[') {
            char *x;
            long line = strtol(st + 1, &x, 10);
            long ord = *x == ',' ? strtol(x + 1, &x, 10) : 0;
            double n = *x == ',' ? strtod(x + 1, &x) : -1;
            if (*x != ']' || line < 1 || ord < 1 || !(n > 0)) {
                snprintf(err, errlen, "'%s': phase %d: a statement is not [line, which, "
                         "executions]", path, q->phase);
                bad = 1;
                break;
            }
            int seen = 0;
            const SpStmt *r = find_region(&main->body, (int)line, (int)ord, &seen);
            if (!r) {
                snprintf(err, errlen, "'%s': phase %d: no statement of line %ld in this "
                         "program's main program (the phases of another program?)", path,
                         q->phase, line);
                bad = 1;
                break;
            }
            vec_push(a, &q->stmts, (void *)r);
            double *c = arena_alloc(a, sizeof *c);
            *c = n;
            vec_push(a, &q->counts, c);
            st = x + 1;
            while (*st == ',' || *st == ' ' || *st == '\n')
                st++;
        }
        if (!bad)
            vec_push(a, &p->phases, q);
    }
    if (!bad && !p->phases.n) {
        snprintf(err, errlen, "'%s' has no phases", path);
        bad = 1;
    }
    free(text);
    if (bad)
        return -1;
    sp->probe = p;
    return 0;
}
