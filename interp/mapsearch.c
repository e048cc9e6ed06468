/* mapsearch.c - the fastest data mappings of a program by branch and bound.
 *
 * The candidates are tuples: one choice per group (remap_space_*). Each is
 * given an estimate from the computation alone, the own mapping's
 * computation scaled by the largest share of a group's elements one
 * processor holds under the tuple against the same share as written; the
 * candidates are predicted in the order of that estimate, so that the
 * fast ones come early. Once `limit` candidates are predicted exactly, the
 * limit-th fastest total is the cutoff: a candidate is predicted with it
 * (the engine ends a run whose slowest clock reaches it: that mapping
 * cannot enter the ranking, its time there is a lower bound), and one
 * whose estimate is MAPSEARCH_SKIP_RATIO times the cutoff is not predicted.
 * A joint space up to exhaustive_max tuples is searched whole; a larger
 * one group at a time from the fastest mapping found (coordinate search),
 * until a pass over the groups finds nothing faster. A tuple is never
 * predicted twice. */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mapsearch.h"
#include "util.h"

enum { MAX_PASSES = 8 };

typedef struct {
    int t[REMAP_MAX_GROUPS];
    double est;
    long order;                  /* the search order, for ties */
} Tuple;

typedef struct {
    const RemapSpace *space;
    int G;
    MapEvalFn fn;
    void *ctx;
    const MapSearchOptions *o;
    MapSearch *out;
    int cap;
    double *top;                 /* the fastest exact totals, ascending, at most limit */
    int ntop;
    double own_comp;
    double own_share[REMAP_MAX_GROUPS];
    /* the tuples seen, by hash (open addressing; a slot holds index + 1) */
    Tuple *seen;
    int nseen, capseen;
    int *slot;
    int nslot;
    long planned;                /* for the progress line */
} Search;

static uint64_t tuple_hash(const int *t, int G)
{
    uint64_t h = 1469598103934665603ull;
    for (int g = 0; g < G; g++) {
        h ^= (uint64_t)(unsigned)t[g];
        h *= 1099511628211ull;
    }
    return h;
}

static void rehash(Search *S)
{
    free(S->slot);
    S->nslot = S->nslot ? 2 * S->nslot : 1024;
    S->slot = xcalloc((size_t)S->nslot, sizeof *S->slot);
    for (int i = 0; i < S->nseen; i++) {
        size_t h = tuple_hash(S->seen[i].t, S->G) & (size_t)(S->nslot - 1);
        while (S->slot[h])
            h = (h + 1) & (size_t)(S->nslot - 1);
        S->slot[h] = i + 1;
    }
}

/* Marks t seen; returns 1 when it already was. */
static int seen_before(Search *S, const int *t)
{
    if (2 * (S->nseen + 1) > S->nslot)
        rehash(S);
    size_t h = tuple_hash(t, S->G) & (size_t)(S->nslot - 1);
    for (; S->slot[h]; h = (h + 1) & (size_t)(S->nslot - 1))
        if (!memcmp(S->seen[S->slot[h] - 1].t, t, (size_t)S->G * sizeof *t))
            return 1;
    if (S->nseen == S->capseen) {
        S->capseen = S->capseen ? 2 * S->capseen : 256;
        S->seen = xrealloc(S->seen, (size_t)S->capseen * sizeof *S->seen);
    }
    memset(&S->seen[S->nseen], 0, sizeof S->seen[S->nseen]);
    memcpy(S->seen[S->nseen].t, t, (size_t)S->G * sizeof *t);
    S->slot[h] = ++S->nseen;
    return 0;
}

static double estimate(const Search *S, const int *t)
{
    double most = 0;
    for (int g = 0; g < S->G; g++) {
        double r = remap_space_share(S->space, g, t[g]) / S->own_share[g];
        if (r > most)
            most = r;
    }
    return S->own_comp * (S->G ? most : 1);
}

static double cutoff(const Search *S)
{
    return S->ntop >= S->o->limit ? S->top[S->o->limit - 1] : 0;
}

static void top_insert(Search *S, double total)
{
    int L = S->o->limit;
    if (S->ntop == L && total >= S->top[L - 1])
        return;
    int at = S->ntop < L ? S->ntop++ : L - 1;
    while (at > 0 && S->top[at - 1] > total) {
        S->top[at] = S->top[at - 1];
        at--;
    }
    S->top[at] = total;
}

static MapCand *push(Search *S)
{
    MapSearch *ms = S->out;
    if (ms->n == S->cap) {
        S->cap = S->cap ? 2 * S->cap : 64;
        ms->c = xrealloc(ms->c, (size_t)S->cap * sizeof *ms->c);
    }
    MapCand *c = &ms->c[ms->n++];
    memset(c, 0, sizeof *c);
    return c;
}

static void progress(const Search *S)
{
    if (!S->o->progress)
        return;
    double cut = cutoff(S);
    fprintf(stderr, "\rhpfpredict: mapping %d of %ld", S->out->n, S->planned);
    if (cut > 0)
        fprintf(stderr, ", ranked: %.6f s or less", cut);
    fputs("\033[K", stderr);
}

/* Predicts (or skips) tuple t, order being its place in the search. */
static void evaluate(Search *S, const int *t, double est)
{
    MapCand *c = push(S);
    MapSearch *ms = S->out;
    remap_space_make(S->space, t, &c->map);
    memcpy(c->choice, t, (size_t)S->G * sizeof *t);
    c->seq = ms->n - 1;
    c->estimate = est;
    double cut = cutoff(S);
    if (cut > 0 && est >= MAPSEARCH_SKIP_RATIO * cut) {
        c->state = MS_SKIPPED;
        ms->skipped++;
        return;
    }
    progress(S);
    int rc = S->fn(S->ctx, &c->map, cut, &c->ev);
    if (rc || !c->ev.ok) {
        c->state = MS_FAILED;
        ms->failed++;
    } else if (c->ev.cut) {
        c->state = MS_CUT;
        ms->cut++;
        free(c->ev.line);
        c->ev.line = NULL;
        c->ev.nline = 0;
    } else {
        c->state = MS_EXACT;
        ms->exact++;
        top_insert(S, c->ev.total);
    }
}

static int by_estimate(const void *x, const void *y)
{
    const Tuple *a = x, *b = y;
    if (a->est != b->est)
        return a->est < b->est ? -1 : 1;
    return (a->order > b->order) - (a->order < b->order);
}

/* Predicts the tuples of v in the order of their estimates. */
static void evaluate_all(Search *S, Tuple *v, long n)
{
    qsort(v, (size_t)n, sizeof *v, by_estimate);
    for (long i = 0; i < n; i++)
        evaluate(S, v[i].t, v[i].est);
}

/* Every tuple but the own, in the order remap_candidates lists them
 * (fewest groups changed first), with their estimates. */
static void each_tuple(Search *S, int *t, int g, Tuple *v, long *n)
{
    if (g == S->G) {
        int own = 1;
        for (int k = 0; k < S->G; k++)
            own &= t[k] == 0;
        if (own)
            return;
        Tuple *x = &v[(*n)++];
        memset(x, 0, sizeof *x);
        memcpy(x->t, t, (size_t)S->G * sizeof *t);
        x->est = estimate(S, t);
        int changed = 0;
        long sum = 0;
        for (int k = 0; k < S->G; k++) {
            changed += t[k] != 0;
            sum += t[k];
        }
        x->order = (long)changed << 40 | sum << 20 | *n;
        return;
    }
    for (int c = 0; c < remap_space_choices(S->space, g); c++) {
        t[g] = c;
        each_tuple(S, t, g + 1, v, n);
    }
    t[g] = 0;
}

/* The stages of one group's step in the search by group, from its
 * current choice b: 0, the plain formats (BLOCK, CYCLIC, '*') on the
 * default grid; 1, b's formats on every grid; 2, b's formats and grid with
 * every block size. */
static int in_stage(const RemapSpace *space, int g, int c, int b, int stage)
{
    int rel = remap_space_relation(space, g, c, b);
    switch (stage) {
    case 0: return remap_space_plain(space, g, c) && remap_space_default_grid(space, g, c);
    case 1: return remap_space_plain(space, g, c) && (rel & REMAP_SAME_FORMATS);
    default: return rel == (REMAP_SAME_FORMATS | REMAP_SAME_GRID);
    }
}

/* The ALIGNs of one target varied together from cur: for each kind of
 * variant, every ALIGN of the target that has one takes it (arrays that
 * are used together gain together: transposing one of them alone may
 * only add a transpose). The new tuples into v; returns their count. */
static long together(Search *S, const int *cur, Tuple *v)
{
    long n = 0;
    int Gd = remap_space_dist_groups(S->space);
    for (int g = Gd; g < S->G; g++) {
        int first = 1;
        for (int h = Gd; h < g && first; h++)
            first = !remap_space_align_peers(S->space, g, h);
        if (!first)
            continue;
        for (int kind = 1; kind < REMAP_AL_KINDS; kind++) {
            int t[REMAP_MAX_GROUPS], moved = 0;
            memcpy(t, cur, sizeof t);
            for (int h = g; h < S->G; h++) {
                if (!remap_space_align_peers(S->space, g, h))
                    continue;
                for (int c = 0; c < remap_space_choices(S->space, h); c++)
                    if (remap_space_align_kind(S->space, h, c) == kind) {
                        moved += t[h] != c;
                        t[h] = c;
                    }
            }
            if (moved < 2 || seen_before(S, t))
                continue;          /* (one moved alone: the group's own step) */
            memset(&v[n], 0, sizeof v[n]);
            memcpy(v[n].t, t, sizeof t);
            v[n].est = estimate(S, t);
            v[n].order = kind;
            n++;
        }
    }
    return n;
}

/* The tuple of the fastest exact candidate. */
static void fastest(const Search *S, int *t)
{
    const MapCand *best = NULL;
    for (int i = 0; i < S->out->n; i++) {
        const MapCand *c = &S->out->c[i];
        if (c->state == MS_EXACT && (!best || c->ev.total < best->ev.total))
            best = c;
    }
    if (best)
        memcpy(t, best->choice, (size_t)S->G * sizeof *t);
}

static int by_rank(const void *x, const void *y)
{
    const MapCand *a = x, *b = y;
    if (a->state != b->state)
        return a->state - b->state;
    if ((a->state == MS_EXACT || a->state == MS_CUT) && a->ev.total != b->ev.total)
        return a->ev.total < b->ev.total ? -1 : 1;
    return a->seq - b->seq;
}

int map_search(const RemapSpace *space, MapEvalFn fn, void *ctx, const MapSearchOptions *o,
               MapSearch *ms)
{
    memset(ms, 0, sizeof *ms);
    Search S = {space, remap_space_groups(space), fn, ctx, o, ms, 0, NULL, 0, 0, {0},
                NULL, 0, 0, NULL, 0, 0};
    S.top = xcalloc((size_t)o->limit, sizeof *S.top);
    ms->space = 1;
    for (int g = 0; g < S.G; g++)
        ms->space *= remap_space_choices(space, g);
    int own[REMAP_MAX_GROUPS] = {0};
    S.planned = 1;
    seen_before(&S, own);
    evaluate(&S, own, 0);
    int status = 0;
    if (ms->c[0].state != MS_EXACT) {
        status = -1;              /* the program itself does not predict */
        goto done;
    }
    S.own_comp = ms->c[0].ev.part[M_COMP];
    ms->c[0].estimate = S.own_comp;
    for (int g = 0; g < S.G; g++)
        S.own_share[g] = remap_space_share(space, g, 0);
    /* the whole space where it is small; else the DISTRIBUTEs' space whole
       where that is small, the ALIGNs after */
    int Gd = remap_space_dist_groups(space);
    double dist_space = 1;
    for (int g = 0; g < Gd; g++)
        dist_space *= remap_space_choices(space, g);
    if (ms->space <= o->exhaustive_max) {
        Gd = S.G;
        dist_space = ms->space;
    }
    int whole = ms->whole = dist_space <= o->exhaustive_max;
    if (whole) {
        long n = 0;
        Tuple *v = xcalloc((size_t)dist_space, sizeof *v);
        int t[REMAP_MAX_GROUPS] = {0};
        S.G = Gd;                 /* (the ALIGNs as written) */
        each_tuple(&S, t, 0, v, &n);
        S.G = remap_space_groups(space);
        S.planned = ms->n + n;
        for (long i = 0; i < n; i++)
            seen_before(&S, v[i].t);
        evaluate_all(&S, v, n);
        free(v);
    }
    if (!whole || Gd < S.G) {
        ms->coordinate = 1;
        int cur[REMAP_MAX_GROUPS];
        memcpy(cur, own, sizeof cur);
        fastest(&S, cur);         /* after a whole search: from its fastest */
        long cap = REMAP_MAX_ALIGN * REMAP_AL_KINDS;   /* (together's) */
        for (int g = 0; g < S.G; g++)
            if (remap_space_choices(space, g) > cap)
                cap = remap_space_choices(space, g);
        Tuple *v = xcalloc((size_t)cap, sizeof *v);
        long per_pass = 0;        /* about: the first stage of every group */
        for (int g = 0; g < S.G; g++)
            for (int c = 0; c < remap_space_choices(space, g); c++)
                per_pass += in_stage(space, g, c, 0, 0);
        for (int pass = 0; pass < MAX_PASSES; pass++) {
            ms->passes++;
            S.planned = ms->n + per_pass;
            int before[REMAP_MAX_GROUPS];
            memcpy(before, cur, sizeof before);
            for (int g = 0; g < S.G; g++)
                for (int stage = 0; stage < 3; stage++) {
                    long n = 0;
                    for (int c = 0; c < remap_space_choices(space, g); c++) {
                        if (!in_stage(space, g, c, cur[g], stage))
                            continue;
                        int t[REMAP_MAX_GROUPS];
                        memcpy(t, cur, sizeof t);
                        t[g] = c;
                        if (seen_before(&S, t))
                            continue;
                        memset(&v[n], 0, sizeof v[n]);
                        memcpy(v[n].t, t, sizeof t);
                        v[n].est = estimate(&S, t);
                        v[n].order = c;
                        n++;
                    }
                    evaluate_all(&S, v, n);
                    fastest(&S, cur);
                }
            long n = together(&S, cur, v);
            evaluate_all(&S, v, n);
            fastest(&S, cur);
            if (!memcmp(before, cur, sizeof cur))
                break;
        }
        free(v);
    }
done:
    if (o->progress)
        fputs("\r\033[K", stderr);
    ms->cutoff = cutoff(&S);
    qsort(ms->c, (size_t)ms->n, sizeof *ms->c, by_rank);
    free(S.top);
    free(S.seen);
    free(S.slot);
    return status;
}

void map_search_free(MapSearch *ms)
{
    for (int i = 0; i < ms->n; i++)
        free(ms->c[i].ev.line);
    free(ms->c);
    memset(ms, 0, sizeof *ms);
}
