/* stages.c - the stages of a prediction, which hpfpredict's batch run
 * (hpfpredict.c) and its interactive mode (interact.c) both drive: the
 * compilation (front end and SPMD lowering), the abstraction parse, the
 * interpretation (functional interpreter and engine, with the audit of
 * charged statements and the report of where a run stopped), and saving a
 * trace; with the small readers both use (interact.h). */
#include <config.h>

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fi.h"
#include "interact.h"

int parse_pos(const char *s, char stop, long *v, const char **rest)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    *v = strtol(s, &end, 10);
    if (errno || *v < 1 || *v > 100000000 || *end != stop)
        return -1;
    *rest = end;
    return 0;
}

int source_nlines(const SrcFile *f)
{
    int n = f->nlines;
    if (f->len && f->text[f->len - 1] == '\n')
        n--;
    return n;
}

/* The location of the first character of a source line. */
static Loc line_loc(const SrcFile *f, int line)
{
    Loc l = {f, line, 1, line, 1};
    if (line >= 1 && line <= f->nlines) {
        const char *s = f->text + f->line_off[line];
        while (*s == ' ' || *s == '\t') {
            s++;
            l.col++;
        }
        l.ecol = l.col;
    }
    return l;
}

/* The DO or DO WHILE loop starting on a line, or NULL. */
static const Aau *loop_at(const Aag *g, int line)
{
    for (int i = 0; i < g->naau; i++) {
        const Aau *a = g->aau[i];
        if (a->line == line && a->stmt && a->head
            && (a->stmt->kind == SP_DO || a->stmt->kind == SP_WHILE))
            return a;
    }
    return NULL;
}

/* The critical scalars a loop's control needs that are computed from
 * arrays inside it, a convergence test's (not those that only feed
 * another): what functional interpretation of the loop computes, and what
 * --trips makes unnecessary. Calls each(name, arg) for each. */
static int loop_tests(const Aag *g, const Aau *loop, void (*each)(const CritVar *, void *),
                      void *arg)
{
    int n = 0;
    for (int i = 0; i < g->ncrit; i++) {
        const CritVar *c = &g->crit[i];
        if (!c->in_loop || !c->by_array || c->held || !c->sym || c->sym->rank
            || !strncmp(c->why, "feeds ", 6) || c->line < loop->line || c->line > loop->line_end)
            continue;
        if (each)
            each(c, arg);
        n++;
    }
    return n;
}

static void add_held(const CritVar *c, void *arg)
{
    PtrVec *v = arg;
    for (int i = 0; i < v->n; i++)
        if (!strcmp(v->v[i], c->name))
            return;
    vec_push(NULL, v, (void *)c->name);
}

int program_compile(const Options *o, const SrcFile *f, Define *defs, int ndefs, Program *p,
                    Diag *diag)
{
    *p = (Program){0};
    Arena *arena = arena_new("compilation");
    for (int i = 0; i < ndefs; i++)
        defs[i].used = 0;
    Node *ast = o->map ? frontend_compile_remapped(f, src_form_of(o->path), arena, diag, defs,
                                                   ndefs, o->map)
                       : frontend_compile(f, src_form_of(o->path), arena, diag, defs, ndefs);
    SpProgram *sp = ast ? spmd_lower(ast, arena, diag) : NULL;
    if (!sp) {
        arena_free(arena);
        return 1;
    }
    p->arena = arena;
    p->sp = sp;
    return 0;
}

Aag *program_abstract(const Options *o, const Program *p, const Define *defs, int ndefs)
{
    /* -D names that are not PARAMETERs are variables held at a value */
    const char **held = xcalloc((size_t)ndefs + 1, sizeof *held);
    int nv = 0;
    for (int i = 0; i < ndefs; i++)
        if (!defs[i].used)
            held[nv++] = defs[i].name;
    AagOptions ao = {.granularity = o->granularity, .held = held, .nheld = nv,
                     .loop_reorder = o->loop_reorder, .forall_written = o->forall_written};
    Aag *g = aag_build(p->sp, &ao);
    /* --trips: the convergence tests of the loops given are held unknown
       (their definitions are not interpreted), and the AAG built again */
    PtrVec tests = {0};
    for (int i = 0; i < o->ntrips; i++) {
        const Aau *l = loop_at(g, o->trips[i].line);
        if (l)
            loop_tests(g, l, add_held, &tests);
    }
    if (tests.n) {
        held = xrealloc(held, (size_t)(nv + tests.n + 1) * sizeof *held);
        for (int i = 0; i < tests.n; i++)
            held[nv++] = arena_strdup(p->arena, tests.v[i]);
        ao.held = held;
        ao.nheld = nv;
        aag_free(g);
        g = aag_build(p->sp, &ao);
    }
    free(tests.v);
    free(held);
    return g;
}

void program_free(Program *p)
{
    if (p->g)
        aag_free(p->g);
    if (p->arena)
        arena_free(p->arena);
    *p = (Program){0};
}

/* --audit: the statements fi's own sequential run of the program executes
 * (fi_run), each of which some AAU made from it must have been applied to
 * by the engine's walk; one error per statement that was not. */
typedef struct {
    const SpStmt **seen;          /* open hash of the statements run */
    size_t cap, n;
} Audit;

static size_t audit_slot(const Audit *a, const SpStmt *s)
{
    size_t h = ((uintptr_t)s >> 4) * 0x9e3779b97f4a7c15ULL;
    for (h &= a->cap - 1; a->seen[h] && a->seen[h] != s; h = (h + 1) & (a->cap - 1))
        ;
    return h;
}

static void audit_visit(void *arg, const SpStmt *s)
{
    Audit *a = arg;
    if (2 * (a->n + 1) > a->cap) {
        Audit b = {xcalloc(a->cap ? 2 * a->cap : 256, sizeof *a->seen),
                   a->cap ? 2 * a->cap : 256, 0};
        for (size_t i = 0; i < a->cap; i++)
            if (a->seen[i])
                b.seen[audit_slot(&b, a->seen[i])] = a->seen[i], b.n++;
        free(a->seen);
        *a = b;
    }
    size_t h = audit_slot(a, s);
    if (!a->seen[h])
        a->seen[h] = s, a->n++;
}

static int by_loc(const void *x, const void *y)
{
    const SpStmt *a = *(const SpStmt *const *)x, *b = *(const SpStmt *const *)y;
    if (a->loc.line != b->loc.line)
        return a->loc.line < b->loc.line ? -1 : 1;
    return (a->loc.col > b->loc.col) - (a->loc.col < b->loc.col);
}

static int audit(const Options *o, const SrcFile *f, const Aag *g, const FiOptions *fo, int np,
                 Diag *diag)
{
    Fi *fi = fi_new(fo, diag);
    if (!fi)
        return 1;
    fi_set_nprocs(fi, np);
    Audit a = {NULL, 0, 0};
    int rc = fi_run(fi, audit_visit, &a);
    if (rc) {
        fi_report(fi, diag);
        diag_error(diag, line_loc(f, 0), "--audit: the program's sequential run stopped");
    }
    /* the statements charged: those of the AAUs applied */
    Audit c = {NULL, 0, 0};
    for (int i = 0; i < g->naau; i++) {
        const Aau *x = g->aau[i];
        if (x->execs <= 0)
            continue;
        if (x->stmt)
            audit_visit(&c, x->stmt);
        for (int k = 0; k < x->nparts; k++)
            audit_visit(&c, x->parts[k].stmt);
    }
    /* one error per source statement missed, in source order */
    const SpStmt **miss = xcalloc(a.n + 1, sizeof *miss);
    size_t missed = 0;
    for (size_t i = 0; !rc && i < a.cap; i++) {
        const SpStmt *s = a.seen[i];
        if (s && !(c.cap && c.seen[audit_slot(&c, s)]))
            miss[missed++] = s;
    }
    qsort(miss, missed, sizeof *miss, by_loc);
    for (size_t i = 0; i < missed; i++)
        if (!i || miss[i]->src != miss[i - 1]->src)
            diag_error(diag, miss[i]->loc, "--audit: this statement is executed by the program "
                       "but was charged nothing");
    free(miss);
    if (!rc && !missed)
        fprintf(stderr, "%s: audit: %zu statements executed, every one charged\n", o->path, a.n);
    free(a.seen);
    free(c.seen);
    fi_free(fi);
    return rc || missed;
}

/* The loops the step budget ran out in, each with what decides its trip
 * count and the ways to give it. */
typedef struct {
    char buf[256];
    size_t at;
} Names;

static void name_of(const CritVar *c, void *arg)
{
    Names *n = arg;
    if (n->at < sizeof n->buf)
        n->at += (size_t)snprintf(n->buf + n->at, sizeof n->buf - n->at, "%s'%s'",
                                  n->at ? ", " : "", c->name);
}

int program_stop_loop(const Aag *g, const EngineResult *r)
{
    for (int k = 0; k < r->nstop; k++) {
        const Aau *l = loop_at(g, r->stop[k].line);
        if (l && loop_tests(g, l, NULL, NULL))
            return k;
    }
    return -1;
}

static void stopped_in(const Aag *g, const SrcFile *f, const EngineResult *r, const Options *o,
                       Diag *diag)
{
    int k = program_stop_loop(g, r), conv = k >= 0;
    if (!conv) {
        if (!r->nstop)
            return;
        k = r->nstop - 1;          /* the innermost loop the engine was walking */
    }
    long long max = o->max_steps ? o->max_steps : 1000000000LL;
    int line = r->stop[k].line;
    char bound[64] = "";
    if (r->stop[k].trips >= 0)
        snprintf(bound, sizeof bound, " of %s%lld", conv ? "at most " : "", r->stop[k].trips);
    if (!conv) {
        /* walked iteration by iteration, each iteration charged to the budget */
        diag_note(diag, line_loc(f, line), "in this loop, at its iteration %lld%s: the engine "
                  "walks it iteration by iteration (the rest cannot be taken from one), and "
                  "each iteration is charged to --max-steps (now %lld); raise it, or run fewer "
                  "iterations with --trips %d=N", r->stop[k].iter, bound, max, line);
        return;
    }
    Names n = {"", 0};
    loop_tests(g, loop_at(g, line), name_of, &n);
    diag_note(diag, line_loc(f, line), "in this loop, at its iteration %lld%s: its trip "
              "count depends on %s, computed from arrays inside it; give it with --trips "
              "%d=N (N iterations) or --trips %d=max (as many as its bounds allow), hold "
              "the test with -D NAME=VALUE, or raise --max-steps (now %lld)",
              r->stop[k].iter, bound, n.buf, line, line, max);
}

/* The longest time a prediction gives, in seconds: 10^20 s, 3 x 10^12
 * years, beyond any question the model answers (the age of the universe
 * is about 4 x 10^17 s); the outputs print times in fixed point, and
 * shares of them, which larger values would make 300 digits long or
 * infinite. */
#define MAX_PREDICTED 1e20

static int in_range(double t)
{
    return isfinite(t) && fabs(t) <= MAX_PREDICTED;
}

/* Whether every time of a prediction is a number in range: costs near the
 * largest double (a SAG or --set value) can overflow the sums. */
static int finite_result(const Aag *g, const EngineResult *r)
{
    int ok = in_range(r->total) && in_range(r->min_total);
    for (int m = 0; m < M_N; m++)
        ok = ok && in_range(r->part[m]) && in_range(r->mean[m]);
    for (int i = 0; ok && i < g->naau; i++) {
        const Aau *a = g->aau[i];
        for (int m = 0; m < M_N; m++)
            ok = ok && isfinite(a->m_sum[m]);   /* (over every processor) */
        ok = ok && in_range(a->m_max) && in_range(a->m_min);
    }
    return ok;
}

int program_interpret(const Options *o, const SrcFile *f, const SagGraph *sag, const SpProgram *sp,
                      Aag *g, const Define *defs, int ndefs, int np, int prompt, Trace *trace,
                      EngineResult *r, Diag *diag)
{
    for (int i = 0; i < o->ntrips; i++)
        if (o->trips[i].line > f->nlines) {
            diag_error(diag, line_loc(f, 0), "--trips %d: the program has %d lines",
                       o->trips[i].line, f->nlines);
            return 1;
        } else if (!loop_at(g, o->trips[i].line)) {
            diag_error(diag, line_loc(f, o->trips[i].line), "--trips %d: no DO loop starts on "
                       "line %d", o->trips[i].line, o->trips[i].line);
            return 1;
        }
    FiDefine *vdefs = xcalloc((size_t)ndefs + (size_t)g->ncrit + 1, sizeof *vdefs);
    int nv = 0;
    for (int i = 0; i < ndefs; i++)
        if (!defs[i].used)
            vdefs[nv++] = (FiDefine){defs[i].name, defs[i].value};
    /* the variables --trips holds: unknown */
    for (int i = 0; i < g->ncrit; i++) {
        const CritVar *c = &g->crit[i];
        int given = 0;
        for (int k = 0; k < nv && !given; k++)
            given = !strcmp(vdefs[k].name, c->name);
        if (c->held && c->sym && !given)
            vdefs[nv++] = (FiDefine){c->name, NULL};
    }
    FiOptions fo = {sp, vdefs, nv, o->input, prompt, o->max_steps, o->libs, o->nlibs};
    const SagUnit *node = engine_node_unit(sag);
    EngineOptions eo = {.np = np,
                        .overlap = o->have_overlap ? o->overlap
                                                   : sag_value(node, "comm.overlap", 0),
                        .classes = o->classes, .cls = engine_classes_new(), .trace = trace,
                        .trips = o->trips, .ntrips = o->ntrips, .unroll = o->unroll,
                        .bbv = o->record, .procs = o->procs,
                        .inline_calls = o->inline_calls, .cutoff = o->cutoff,
                        .memo = o->memo};
    Fi *fi;
    int rc = -1, runs = 0, status = 1;
    /* again while the processor classes are refined (engine.h); the engine
       records no trace with classes, but a run repeated starts a fresh one */
    do {
        if (trace && runs++) {
            Trace t = *trace;
            trace_free(trace);
            trace_init(trace, t.np, t.program, t.sag);
        }
        fi = fi_new(&fo, diag);
        if (!fi)
            break;
        fi_set_nprocs(fi, np);
        rc = engine_run(g, fi, sag, &eo, r);
        if (rc == 1)
            fi_free(fi);
    } while (rc == 1);
    engine_classes_free(eo.cls);
    if (fi) {
        if (rc != 0) {
            fi_report(fi, diag);
            if (fi_stopped(fi) == 1)
                stopped_in(g, f, r, o, diag);
            if (!diag->nerrors)
                diag_error(diag, line_loc(f, 0), "interpretation stopped");
        } else if (!finite_result(g, r)) {
            diag_error(diag, line_loc(f, 0), "the predicted times overflow (above %g s): the "
                       "machine description's costs are too large for this program",
                       MAX_PREDICTED);
        } else
            status = 0;
        fi_free(fi);
    }
    if (!status && o->audit && !r->cut)
        status = audit(o, f, g, &fo, np, diag);
    free(vdefs);
    return status;
}

int trace_save(const Options *o, const Trace *t, const char *who)
{
    char err[512];
    if (t->dropped)
        fprintf(stderr, "%swarning: the trace '%s' keeps the first %ld events; %ld more were "
                "left out (a smaller -np or problem size gives a whole trace)\n", who, o->trace,
                t->n, t->dropped);
    if (trace_write(t, o->trace_fmt, o->trace, err, sizeof err) == 0)
        return 0;
    /* the reason without the file's name again, when it is this file */
    const char *why = err;
    size_t n = strlen(o->trace);
    if (!strncmp(why, "cannot write '", 14) && !strncmp(why + 14, o->trace, n)
        && !strncmp(why + 14 + n, "': ", 3))
        why += 14 + n + 3;
    fprintf(stderr, "%serror: cannot write trace '%s': %s\n", who, o->trace, why);
    return 1;
}
