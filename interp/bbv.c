/* bbv.c - interval vectors of an interpretation (bbv.h, doc/probes.md).
 *
 * The engine's executions arrive as stretches: the executions between two
 * points of the walk where no loop is interpreted in closed form (one
 * statement of a loop interpreted iteration by iteration, or of the
 * program). A stretch has its operations per AAU, its total W and the
 * region entries R made in it; within a stretch the composition is taken
 * as uniform and the entries as evenly spaced (entry j at j W / R), which
 * is exact for a closed form's iterations. Intervals are cut from the
 * stream of stretches: once an interval holds N operations it ends at the
 * next region entry. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bbv.h"
#include "util.h"

typedef struct {
    int nnz;
    int *id;
    double *v;
    double W, R;
    int top_line;
    long long top_iter, nit;   /* the top-level DO's iterations the stretch spans */
} Seg;

typedef struct {
    Seg *v;
    int n, cap;
} SegVec;

/* A dense accumulator with the list of its nonzero slots. */
typedef struct {
    double *v;
    char *on;
    int *ids;
    int n;
} Acc;

struct Bbv {
    const Aag *g;
    double *w;                 /* bbv_weight by id - 1 */
    char *region;              /* bbv_region_head by id - 1 */
    double size;               /* N */
    int adaptive;
    Acc pend;                  /* the stretch being recorded */
    double pend_W, pend_R;
    int top_line;
    long long top_iter, top_trips;
    SegVec *frames;            /* blocks being captured, innermost last */
    int nframes, capframes;
    /* the interval being filled */
    Acc cur;
    double cur_W, cur_wstart, cur_r0;
    int cur_top_line;
    long long cur_top_iter;
    int full;                  /* it holds N: it ends at the next region entry */
    double W, R;               /* the run so far */
    BbvInterval *iv;
    int n, cap;
    BbvTopLoop *tops;          /* the main program's DO loops, in the order run */
    int ntops;
    int failed;
    char err[160];
};

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void acc_init(Acc *a, int n)
{
    a->v = xcalloc((size_t)n + 1, sizeof *a->v);
    a->on = xcalloc((size_t)n + 1, 1);
    a->ids = xmalloc(((size_t)n + 1) * sizeof *a->ids);
    a->n = 0;
}

static void acc_free(Acc *a)
{
    free(a->v);
    free(a->on);
    free(a->ids);
}

static inline void acc_add(Acc *a, int id, double x)
{
    if (!a->on[id]) {
        a->on[id] = 1;
        a->ids[a->n++] = id;
    }
    a->v[id] += x;
}

/* The accumulator's contents, sorted by id, into (id, v); cleared. */
static int acc_take(Acc *a, int **id, double **v)
{
    qsort(a->ids, (size_t)a->n, sizeof *a->ids, cmp_int);
    *id = xmalloc(((size_t)a->n + 1) * sizeof **id);
    *v = xmalloc(((size_t)a->n + 1) * sizeof **v);
    int n = a->n;
    for (int i = 0; i < n; i++) {
        (*id)[i] = a->ids[i];
        (*v)[i] = a->v[a->ids[i]];
        a->v[a->ids[i]] = 0;
        a->on[a->ids[i]] = 0;
    }
    a->n = 0;
    return n;
}

double bbv_weight(const Aau *a)
{
    switch (a->cls) {
    case AAU_START: case AAU_END: case AAU_SPAWN:
        return 0;
    case AAU_SEQ: case AAU_SYNCSEQ: {
        double w = a->ops.calls;
        for (int i = 0; i < OPC_N; i++)
            w += a->ops.op[i];
        for (int i = 0; i < a->ops.nlib; i++)
            w += a->ops.lib[i].n;
        for (int i = 0; i < a->ops.nacc; i++)
            if (!a->ops.acc[i].scalar)
                w += a->ops.acc[i].loads + a->ops.acc[i].stores;
        return w > 1 ? w : 1;
    }
    case AAU_COMM: case AAU_SYNC:
        return 1 + (a->comm ? (double)a->comm->bytes / 8 : 0);
    default:
        return 1;
    }
}

Bbv *bbv_new(const Aag *g, double interval)
{
    Bbv *b = xcalloc(1, sizeof *b);
    b->g = g;
    b->w = xmalloc(((size_t)g->naau + 1) * sizeof *b->w);
    b->region = xmalloc((size_t)g->naau + 1);
    for (int i = 0; i < g->naau; i++) {
        b->w[i] = bbv_weight(g->aau[i]);
        b->region[i] = (char)bbv_region_head(g->aau[i]);
    }
    b->adaptive = interval <= 0;
    b->size = interval > 0 ? interval : 1000;
    acc_init(&b->pend, 2 * g->naau);   /* operations, then entries (BbvInterval) */
    acc_init(&b->cur, 2 * g->naau);
    return b;
}

static void seg_free(Seg *s)
{
    free(s->id);
    free(s->v);
}

void bbv_free(Bbv *b)
{
    if (!b)
        return;
    for (int f = 0; f < b->nframes; f++) {
        for (int i = 0; i < b->frames[f].n; i++)
            seg_free(&b->frames[f].v[i]);
        free(b->frames[f].v);
    }
    free(b->frames);
    for (int i = 0; i < b->n; i++) {
        free(b->iv[i].id);
        free(b->iv[i].v);
    }
    free(b->iv);
    free(b->tops);
    acc_free(&b->pend);
    acc_free(&b->cur);
    free(b->w);
    free(b->region);
    free(b);
}

void bbv_reset(Bbv *b)
{
    for (int f = 0; f < b->nframes; f++) {
        for (int i = 0; i < b->frames[f].n; i++)
            seg_free(&b->frames[f].v[i]);
        free(b->frames[f].v);
    }
    b->nframes = 0;
    for (int i = 0; i < b->n; i++) {
        free(b->iv[i].id);
        free(b->iv[i].v);
    }
    b->n = 0;
    b->ntops = 0;
    double *sv;
    int *si;
    seg_free(&(Seg){acc_take(&b->pend, &si, &sv), si, sv, 0, 0, 0, 0, 0});
    seg_free(&(Seg){acc_take(&b->cur, &si, &sv), si, sv, 0, 0, 0, 0, 0});
    b->pend_W = b->pend_R = b->cur_W = b->cur_wstart = b->cur_r0 = b->W = b->R = 0;
    b->top_line = b->cur_top_line = 0;
    b->top_iter = b->top_trips = b->cur_top_iter = 0;
    b->full = b->failed = 0;
    b->err[0] = '\0';
    if (b->adaptive)
        b->size = 1000;
}

void bbv_exec(Bbv *b, const Aau *a, double most)
{
    double x = most * b->w[a->id - 1];
    if (x > 0) {
        acc_add(&b->pend, a->id, x);
        b->pend_W += x;
    }
}

int bbv_region_head(const Aau *a)
{
    const SpStmt *s = a->stmt;
    if (!a->head || !s)
        return 0;
    switch (s->kind) {
    case SP_STORE: case SP_BCAST:
        return 1;
    case SP_FORALL: case SP_REDUCE:
        return !spmd_loop_empty(s->u.loop);
    default:
        return 0;
    }
}

void bbv_enter(Bbv *b, const Aau *a, double most)
{
    if (b->region[a->id - 1] && most > 0) {
        b->pend_R += most;
        acc_add(&b->pend, b->g->naau + a->id, most);
    }
}

/* The split of x's sorted ids into operations and entries. */
static void split_entries(const Bbv *b, BbvInterval *x, int n)
{
    int k = 0;
    while (k < n && x->id[k] <= b->g->naau)
        k++;
    x->nnz = k;
    x->nent = n - k;
}

/* ---- intervals ---- */

/* Two neighbouring intervals made one (a's place, b's end). */
static void merge_into(const Bbv *bb, BbvInterval *a, BbvInterval *b)
{
    int na = a->nnz + a->nent, nb = b->nnz + b->nent;
    int *id = xmalloc(((size_t)na + (size_t)nb + 1) * sizeof *id);
    double *v = xmalloc(((size_t)na + (size_t)nb + 1) * sizeof *v);
    int i = 0, j = 0, n = 0;
    while (i < na || j < nb) {
        if (j == nb || (i < na && a->id[i] < b->id[j])) {
            id[n] = a->id[i];
            v[n++] = a->v[i++];
        } else if (i == na || b->id[j] < a->id[i]) {
            id[n] = b->id[j];
            v[n++] = b->v[j++];
        } else {
            id[n] = a->id[i];
            v[n++] = a->v[i++] + b->v[j++];
        }
    }
    free(a->id);
    free(a->v);
    free(b->id);
    free(b->v);
    a->id = id;
    a->v = v;
    split_entries(bb, a, n);
    a->work += b->work;
    a->r1 = b->r1;
}

static void close_interval(Bbv *b, double rpos, double wpos, int top_line, long long top_iter)
{
    if (b->failed)
        return;
    if (b->n == BBV_MAX_INTERVALS) {
        snprintf(b->err, sizeof b->err,
                 "more than %d intervals of %.0f operations: give a larger --interval",
                 BBV_MAX_INTERVALS, b->size);
        b->failed = 1;
        return;
    }
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 256;
        b->iv = xrealloc(b->iv, (size_t)b->cap * sizeof *b->iv);
    }
    BbvInterval *x = &b->iv[b->n++];
    x->work = b->cur_W;
    x->wstart = b->cur_wstart;
    x->r0 = llround(b->cur_r0);
    x->r1 = llround(rpos);
    x->top_line = b->cur_top_line;
    x->top_iter = b->cur_top_iter;
    split_entries(b, x, acc_take(&b->cur, &x->id, &x->v));
    b->cur_W = 0;
    b->cur_wstart = wpos;
    b->cur_r0 = rpos;
    b->cur_top_line = top_line;
    b->cur_top_iter = top_iter;
    b->full = 0;
    if (b->adaptive && b->n == BBV_ADAPTIVE) {
        /* twice the size, half as many */
        for (int i = 0; i < b->n / 2; i++) {
            BbvInterval t = b->iv[2 * i];
            merge_into(b, &t, &b->iv[2 * i + 1]);
            b->iv[i] = t;
        }
        b->n /= 2;
        /* the next intervals as large as these: twice the size, or their
           mean where statements larger than the size made them larger */
        double mean = b->n ? (b->iv[b->n - 1].wstart + b->iv[b->n - 1].work) / b->n : 0;
        b->size = 2 * b->size > mean ? 2 * b->size : mean;
        b->full = b->cur_W >= b->size;
    }
}

/* The part [x0, x1) of stretch s into the current interval. */
static void add_part(Bbv *b, const Seg *s, double x0, double x1)
{
    if (x1 <= x0)
        return;
    double f = s->W > 0 ? (x1 - x0) / s->W : 0;
    for (int i = 0; i < s->nnz; i++)
        acc_add(&b->cur, s->id[i], s->v[i] * f);
    b->cur_W += x1 - x0;
    if (b->cur_W >= b->size * (1 - 1e-12))
        b->full = 1;
}

static long long iter_at(const Seg *s, double x)
{
    if (s->nit <= 1 || s->W <= 0)
        return s->top_iter;
    long long k = (long long)floor(x / s->W * (double)s->nit);
    return s->top_iter + (k < s->nit ? k : s->nit - 1);
}

/* A stretch into the intervals. */
static void feed(Bbv *b, const Seg *s)
{
    double W = s->W, R = s->R, x = 0;
    if (b->W == 0 && b->n == 0 && b->cur_W == 0) {
        b->cur_top_line = s->top_line;
        b->cur_top_iter = s->top_iter;
    }
    while (!b->failed) {
        if (b->full) {
            /* the next region entry of this stretch at or after x ends it */
            double j = R > 0 ? (W > 0 ? ceil(x * R / W - 1e-9) : 0) : INFINITY;
            if (j >= R)
                break;
            double xj = W > 0 ? j * W / R : 0;
            add_part(b, s, x, xj);
            close_interval(b, b->R + j, b->W + xj, s->top_line, iter_at(s, xj));
            x = xj;
            if (W <= 0) {
                /* entries with no work: they start the new interval */
                break;
            }
            continue;
        }
        double need = b->size - b->cur_W;
        if (x + need >= W) {
            add_part(b, s, x, W);
            x = W;
            break;
        }
        add_part(b, s, x, x + need);
        x += need;
        b->full = 1;
    }
    if (x < W)
        add_part(b, s, x, W);
    else if (W <= 0)
        for (int i = 0; i < s->nnz; i++)   /* entries with no work: into the interval */
            if (s->id[i] > b->g->naau)
                acc_add(&b->cur, s->id[i], s->v[i]);
    b->W += W;
    b->R += R;
}

static void frame_push_copy(SegVec *f, const Seg *s)
{
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 16;
        f->v = xrealloc(f->v, (size_t)f->cap * sizeof *f->v);
    }
    Seg *c = &f->v[f->n++];
    *c = *s;
    c->id = xmalloc(((size_t)s->nnz + 1) * sizeof *c->id);
    c->v = xmalloc(((size_t)s->nnz + 1) * sizeof *c->v);
    memcpy(c->id, s->id, (size_t)s->nnz * sizeof *c->id);
    memcpy(c->v, s->v, (size_t)s->nnz * sizeof *c->v);
}

/* The stretches of a frame made one (their order within it lost): what a
 * frame holding very many comes to. */
static Seg seg_merge(Bbv *b, const SegVec *f, double k)
{
    Seg m = {0};
    for (int i = 0; i < f->n; i++) {
        const Seg *s = &f->v[i];
        for (int j = 0; j < s->nnz; j++)
            acc_add(&b->pend, s->id[j], s->v[j] * k);
        m.W += s->W * k;
        m.R += s->R * k;
    }
    if (f->n) {
        m.top_line = f->v[0].top_line;
        m.top_iter = f->v[0].top_iter;
    }
    m.nit = 1;
    m.nnz = acc_take(&b->pend, &m.id, &m.v);
    return m;
}

enum { FRAME_MAX = 100000, REPLAY_MAX = 4000000 };

/* A stretch recorded: into the intervals, and into the blocks being
 * captured below index upto (the innermost and those outside it). */
static void emit(Bbv *b, const Seg *s, int upto)
{
    feed(b, s);
    for (int f = 0; f < upto; f++) {
        SegVec *fr = &b->frames[f];
        frame_push_copy(fr, s);
        if (fr->n > FRAME_MAX) {
            /* the pending stretch is empty here (bbv_point took it) */
            Seg m = seg_merge(b, fr, 1);
            for (int i = 0; i < fr->n; i++)
                seg_free(&fr->v[i]);
            fr->n = 0;
            frame_push_copy(fr, &m);
            seg_free(&m);
        }
    }
}

void bbv_point(Bbv *b)
{
    if (b->pend_W <= 0 && b->pend_R <= 0)
        return;
    Seg s = {0};
    s.nnz = acc_take(&b->pend, &s.id, &s.v);
    s.W = b->pend_W;
    s.R = b->pend_R;
    s.top_line = b->top_line;
    s.top_iter = b->top_iter;
    s.nit = b->top_trips > 1 ? b->top_trips : 1;
    b->pend_W = b->pend_R = 0;
    emit(b, &s, b->nframes);
    seg_free(&s);
}

void bbv_top(Bbv *b, int line, long long iter, long long trips)
{
    bbv_point(b);
    if (line != b->top_line) {
        /* a top-level DO begins or ends: its span in region entries */
        if (b->top_line)
            for (int i = b->ntops - 1; i >= 0; i--)
                if (b->tops[i].line == b->top_line) {
                    b->tops[i].r_end = llround(b->R);
                    break;
                }
        if (line) {
            int i = 0;
            while (i < b->ntops && b->tops[i].line != line)
                i++;
            if (i == b->ntops) {
                b->tops = xrealloc(b->tops, (size_t)(b->ntops + 1) * sizeof *b->tops);
                b->tops[b->ntops++] = (BbvTopLoop){line, llround(b->R), llround(b->R), 0};
            }
            b->tops[i].entered++;
        }
    }
    b->top_line = line;
    b->top_iter = iter;
    b->top_trips = trips;
}

void bbv_block_push(Bbv *b)
{
    bbv_point(b);
    if (b->nframes == b->capframes) {
        b->capframes = b->capframes ? 2 * b->capframes : 4;
        b->frames = xrealloc(b->frames, (size_t)b->capframes * sizeof *b->frames);
    }
    b->frames[b->nframes++] = (SegVec){0};
}

static void frame_clear(SegVec *f)
{
    for (int i = 0; i < f->n; i++)
        seg_free(&f->v[i]);
    f->n = 0;
}

void bbv_block_mark(Bbv *b)
{
    bbv_point(b);
    frame_clear(&b->frames[b->nframes - 1]);
}

void bbv_block_repeat(Bbv *b, double k, int top, long long iters)
{
    bbv_point(b);
    SegVec *f = &b->frames[b->nframes - 1];
    if (k <= 0 || !f->n)
        return;
    long long last_iter = b->top_iter;
    if (k * f->n <= REPLAY_MAX) {
        /* the block again, k times, in order */
        for (long long j = 1; j <= (long long)k && !b->failed; j++)
            for (int i = 0; i < f->n; i++) {
                Seg s = f->v[i];
                s.top_iter += top ? j * iters : 0;   /* the iteration it replays */
                emit(b, &s, b->nframes - 1);
            }
        last_iter += top ? (long long)k * iters : 0;
    } else {
        Seg m = seg_merge(b, f, k);
        if (top) {
            m.top_iter = f->v[0].top_iter + iters;
            m.nit = (long long)k * iters;
            last_iter += (long long)k * iters;
        }
        emit(b, &m, b->nframes - 1);
        seg_free(&m);
    }
    if (top)
        b->top_iter = last_iter;
}

void bbv_block_pop(Bbv *b)
{
    bbv_point(b);
    SegVec *f = &b->frames[--b->nframes];
    frame_clear(f);
    free(f->v);
}

int bbv_finish(Bbv *b)
{
    bbv_point(b);
    if (b->cur_W > 0 || b->n == 0)
        close_interval(b, b->R, b->W, 0, 0);
    return b->failed ? -1 : 0;
}

const char *bbv_error(const Bbv *b)
{
    return b->err;
}

int bbv_top_loops(const Bbv *b, const BbvTopLoop **loops)
{
    *loops = b->tops;
    return b->ntops;
}

int bbv_count(const Bbv *b)
{
    return b->n;
}

const BbvInterval *bbv_interval(const Bbv *b, int i)
{
    return &b->iv[i];
}

double bbv_interval_size(const Bbv *b)
{
    return b->size;
}

double bbv_total_work(const Bbv *b)
{
    return b->W;
}

long long bbv_total_regions(const Bbv *b)
{
    return llround(b->R);
}

int bbv_write_simpoint(const Bbv *b, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    for (int i = 0; i < b->n; i++) {
        const BbvInterval *x = &b->iv[i];
        fputs("T", f);
        for (int j = 0; j < x->nnz; j++) {
            double c = floor(x->v[j] + 0.5);
            fprintf(f, ":%d:%.0f ", x->id[j], c < 1 ? 1 : c);
        }
        fputc('\n', f);
    }
    int bad = ferror(f);
    if (fclose(f) || bad)
        return -1;
    return 0;
}
