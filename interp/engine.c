/* engine.c - the interpretation engine: the interpretation function of each
 * AAU class applied over the AAG against the SAG parameters of the node unit,
 * with a clock and the four metric accumulators per processor (Parashar &
 * Hariri, section 2.3; doc/predict.md). This file: the entry points, the
 * processor classes, the metrics and the dispatch of AAU classes; the
 * models are in the engine_*.c files (engine_int.h, doc/where.md).
 *
 * Every processor's state is a vector of P values, and every interpretation
 * function works on whole vectors, so one walk interprets all processors.
 * Inside an IterD AAU (no communication, deterministic) there is no
 * interaction between processors: its body is walked once with a
 * per-processor multiplier (the closed form setup + n x (iteration + body),
 * n per processor for the owned iterations of a FORALL). Synchronized loops
 * are walked iteration by iteration; once an iteration advanced every clock
 * by the same amount and repeated the previous iteration's increments, the
 * rest is extrapolated: the interpretation functions only ever add costs and
 * take maxima of clocks, so a uniform shift of all clocks repeats exactly.
 *
 * Every charge is one add_charge(). Untraced, the charges go through loops
 * fused per case (en_charge_once(), a FORALL level's charges, the rounds of a
 * cached gather); traced, every one of them takes the generic path instead:
 * charge() for each charge, each an event of the trace, and en_exchange()
 * numbering the messages (the same additions in the same order). */
#include <config.h>

#include "engine_int.h"

const char *const metric_name[M_N] = {"computation", "communication", "overhead", "waiting"};

/* ---- processor classes ---------------------------------------------------- */

EngineClasses *engine_classes_new(void)
{
    return xcalloc(1, sizeof(EngineClasses));
}

void engine_classes_free(EngineClasses *c)
{
    if (!c)
        return;
    for (int d = 0; d < MAX_RANK; d++)
        free(c->cut[d]);
    free(c);
}

long engine_classes_count(const EngineClasses *c)
{
    return c ? c->used : 0;
}

/* The interpreted processor of grid coordinates (class grid shape). */
static int class_of_coords(const Eng *e, const int *co)
{
    int v = 0, stride = 1;
    for (int d = 0; d < e->ec->rank; d++) {
        v += e->of[d][co[d]] * stride;
        stride *= e->nint[d];
    }
    return v;
}

/* The interpreted processor that processor rank stands in. */
int en_class_of_rank(const Eng *e, int rank)
{
    if (!e->ec)
        return rank;
    int co[MAX_RANK];
    hpfmap_coords(rank, e->ec->rank, e->ec->shape, e->pr.placement, co);
    return class_of_coords(e, co);
}

/* Makes coordinate c of dimension d start an interval (a refinement: the
 * run goes on, and is repeated). */
void en_cut_at(Eng *e, int d, long c)
{
    EngineClasses *k = e->ec;
    if (k && c > 0 && c < k->shape[d] && !k->cut[d][c]) {
        k->cut[d][c] = 1;
        k->pending = 1;
    }
}

/* Makes the processor with coordinates co a class of its own. */
void en_isolate(Eng *e, const int *co)
{
    for (int d = 0; e->ec && d < e->ec->rank; d++) {
        en_cut_at(e, d, co[d]);
        en_cut_at(e, d, (long)co[d] + 1);
    }
}

/* The interpreted processor of coordinates in grid g (with classes, every
 * grid has the class grid's shape). */
int en_proc_of(const Eng *e, int rank, const int *shape, const int *co)
{
    return e->ec ? class_of_coords(e, co) : hpfmap_rank(rank, shape, e->pr.placement, co);
}

/* ---- metrics ----------------------------------------------------------- */

/* One event of the trace on processor p (classes are off when tracing:
 * p is the processor's rank). */
__attribute__((noinline)) void en_record(Eng *e, const Aau *a, TraceKind k, int p, double t0,
                                             double t1, int peer, long msg, double bytes)
{
    TraceEvent ev = {t0, t1, p, k, a ? a->line : 0, a ? a->id : -1, peer, msg, bytes,
                     a ? aau_class_name[a->cls] : NULL};
    trace_add(e->tr, &ev);
}

/* Ends one execution of a on the processors in mult (NULL: all); execs
 * counts the executions, most those of the processor that made the most. */
void en_end(Eng *e, Aau *a, double execs, double most)
{
    double mx = 0, mn = INFINITY, cut = e->cutoff > 0 && !e->cut ? e->cutoff : INFINITY;
    int over = 0;
    for (int p = 0; p < e->P; p++) {
        if (e->ex[p] > mx)
            mx = e->ex[p];
        if (e->ex[p] < mn)
            mn = e->ex[p];
        over |= e->clock[p] >= cut;
    }
    a->m_max += mx;
    a->m_min += mn == INFINITY ? 0 : mn;
    if (over)
        e->cut = e->failed = 1;    /* a clock passed the cutoff: the total can only be larger */
    a->execs += execs;
    if (!e->in_comm) {
        a->xmost += most;
        if (e->bbv)
            bbv_exec(e->bbv, a, most);
    }
    e->visits++;
}

/* The most of mult[p] over the processors (1: NULL, every one once). */
double most_of(const Eng *e, const double *mult)
{
    if (!mult)
        return e->P > 0;
    double m = 0;
    for (int p = 0; p < e->P; p++)
        if (mult[p] > m)
            m = mult[p];
    return m;
}

/* t on every processor, times mult[p] (NULL: once). */
void en_charge_all(Eng *e, Aau *a, int m, double t, const double *mult)
{
    if (e->tr) {
        /* traced: charge() records each charge */
        for (int p = 0; p < e->P; p++)
            charge(e, a, m, p, mult ? t * mult[p] : t);
        return;
    }
    /* charge() on every processor, the AAU's sum kept in a register (the
       same additions in the same order) */
    double *clock = e->clock, *acc = e->acc[m], *ex = e->ex, sum = a->m_sum[m];
    for (int p = 0; p < e->P; p++)
        add_charge(clock, acc, &ex[p], &sum, e->cnt, p, mult ? t * mult[p] : t);
    a->m_sum[m] = sum;
}

/* One execution of a that costs t (times mult[p]) of metric m on every
 * processor: begin(), en_charge_all() and en_end(e, a, sum_of(e, mult), most_of(e, mult)) in one
 * pass (the same additions in the same order; the execution's times are
 * those charge() would leave in e->ex, kept in registers). */
static inline __attribute__((always_inline)) void
charge_once_with(Eng *e, Aau *a, int m, double t, const double *mult, const double *cnt)
{
    double *clock = e->clock, *acc = e->acc[m], sum = a->m_sum[m];
    double mx = 0, mn = INFINITY, execs = 0, most = 0;
    for (int p = 0; p < e->P; p++) {
        double ex = 0;
        add_charge(clock, acc, &ex, &sum, cnt, p, mult ? t * mult[p] : t);
        if (ex > mx)
            mx = ex;
        if (ex < mn)
            mn = ex;
        execs += (mult ? mult[p] : 1) * (cnt ? cnt[p] : 1);
        if ((mult ? mult[p] : 1) > most)
            most = mult ? mult[p] : 1;
    }
    a->m_sum[m] = sum;
    a->m_max += mx;
    a->m_min += mn == INFINITY ? 0 : mn;
    a->execs += execs;
    if (!e->in_comm) {
        a->xmost += most;
        if (e->bbv)
            bbv_exec(e->bbv, a, most);
    }
    e->visits++;
}

static double sum_of(const Eng *e, const double *mult);

void en_charge_once(Eng *e, Aau *a, int m, double t, const double *mult)
{
    if (e->tr) {
        /* traced: each charge recorded (charge_all) */
        begin(e);
        en_charge_all(e, a, m, t, mult);
        en_end(e, a, sum_of(e, mult), most_of(e, mult));
        return;
    }
    /* the loop made for each case of mult and classes */
    if (e->cnt)
        charge_once_with(e, a, m, t, mult, e->cnt);
    else if (mult)
        charge_once_with(e, a, m, t, mult, NULL);
    else
        charge_once_with(e, a, m, t, NULL, NULL);
}

/* ---- dispatch -------------------------------------------------------------- */

void en_outside(Eng *e)
{
    const Aau *a = e->at;
    fi_error_once(e->fi, a ? (const void *)a : (const void *)e,
                  a && a->stmt ? a->stmt->loc : (Loc){0}, "an element outside its array's "
                  "bounds: a subscript or a FORALL index here is out of range");
    e->failed = 1;
}

/* Whether a loop of a gather's part a reads its gathered references in
 * place on one processor: always, or when its condition holds (the
 * elements it assigns apart from those it gathers). */
static int in_place(Eng *e, const Aau *a)
{
    int v;
    if (!a->multi_if)
        return 1;
    if (fi_eval_bool(e->fi, a->multi_if, &v))
        return v;
    fi_missing(e->fi, a->multi_if, a->stmt ? a->stmt->line : 0, "in place on one process");
    e->failed = 1;
    return 0;
}

static void walk_one(Eng *e, Aau *a, const double *mult);

void en_walk(Eng *e, Aau *a, const double *mult)
{
    if (stopping(e) || e->failed)
        return;
    if (!e->bbv) {
        walk_one(e, a, mult);
        return;
    }
    /* interval vectors: the region a statement enters, then its executions
       (a stretch ends here unless a closed form is being walked) */
    bbv_enter(e->bbv, a, most_of(e, mult));
    walk_one(e, a, mult);
    if (!mult)
        bbv_point(e->bbv);
}

static void walk_one(Eng *e, Aau *a, const double *mult)
{
    if (a->multi_only && e->NP == 1 && in_place(e, a))
        return;                   /* gathered references read in place: no gather */
    e->at = a;
    switch (a->cls) {
    case AAU_START:
    case AAU_END:
        begin(e);
        if (a->cls == AAU_START && !e->started) {
            /* the run-time library's first calls lay the data out
               (rt.start: the processor arrangement, the templates, the
               first descriptor; once a run) */
            e->started = 1;
            en_charge_all(e, a, M_OVHD, e->pr.rt_start, NULL);
        }
        en_end(e, a, e->NP, 1);
        return;
    case AAU_SPAWN:
        en_walk_list(e, &a->kids, mult);
        return;
    case AAU_SEQ:
        en_seq(e, a, mult);
        return;
    case AAU_SYNCSEQ:
    case AAU_COMM:
    case AAU_SYNC:
        if (mult) {
            /* a communication inside a closed form cannot happen: the
               abstraction parse makes its loop IterSync */
            return;
        }
        en_comm(e, a);
        en_effect(e, a);
        return;
    case AAU_CALL:
        en_call(e, a, mult);
        return;
    case AAU_CONDTD:
    case AAU_CONDTSYNC:
        en_condt(e, a, mult);
        return;
    case AAU_ITERD:
    case AAU_ITERSYNC:
    case AAU_ITERND:
        switch (a->iter) {
        case ITER_DO: en_do_loop(e, a, mult); return;
        case ITER_WHILE: en_while_loop(e, a, mult); return;
        case ITER_FORALL:
        case ITER_COPY:
            if (a->kept_by && en_gather_kept(e, a->kept_by))
                return;           /* an inspector pass hpfc skips: schedules kept */
            if (e->loop == a->loop)
                en_forall_level(e, a, mult);
            else
                en_forall_nest(e, a, mult);
            if (!mult && a->tail)
                en_effect(e, a);
            return;
        case ITER_RED: en_red_loop(e, a, mult); return;
        }
        return;
    case AAU_NCLASS:
        return;
    }
}

/* A GOTO is resolved in the innermost list holding its target label: the
 * walk goes on from there (among l's AAUs from start on). */
void en_walk_from(Eng *e, const PtrVec *l, int start, const double *mult)
{
    for (int i = start; i < l->n; i++) {
        en_walk(e, l->v[i], mult);
        if (e->ctl == AST_GOTO) {
            int j;
            for (j = start; j < l->n; j++) {
                const Aau *t = l->v[j];
                if (t->stmt && t->head && t->stmt->label == e->ctl_target)
                    break;
            }
            if (j == l->n)
                return;
            e->ctl = 0;
            i = j - 1;
            continue;
        }
        if (stopping(e) || e->failed)
            return;
    }
}

void en_walk_list(Eng *e, const PtrVec *l, const double *mult)
{
    en_walk_from(e, l, 0, mult);
}

/* Whether the program allows classes: one processor grid for all its
 * templates (its shape in *shape), no gathers or scatters (their pairs are
 * per processor), tree or recursive-doubling collectives. */
static int classes_apply(Eng *e, int *shape)
{
    /* the other algorithms pair processors by rank distances that cross
       the classes */
    const Params *pr = &e->pr;
    int algs[] = {pr->bcast_alg, pr->bcast_large, pr->red_alg, pr->red_large};
    for (size_t i = 0; i < sizeof algs / sizeof *algs; i++)
        if (algs[i] != ALG_TREE && algs[i] != ALG_RDOUBLING)
            return 0;
    for (int i = 0; i < e->g->ncomm; i++)
        if (e->g->comm[i]->kind == CM_GATHER || e->g->comm[i]->kind == CM_SCATTER)
            return 0;
    int rank = 0;
    for (int u = 0; u < e->g->prog->units.n; u++) {
        const SpUnit *su = e->g->prog->units.v[u];
        for (int i = 0; i < su->tmpls.n; i++) {
            const SpTmpl *t = su->tmpls.v[i];
            int sh[MAX_RANK];
            int rk = en_grid_shape(e, t->onto, sh);
            if (rank && (rk != rank || memcmp(sh, shape, (size_t)rk * sizeof *sh)))
                return 0;
            rank = rk;
            memcpy(shape, sh, (size_t)rk * sizeof *sh);
        }
    }
    if (!rank) {
        shape[0] = e->NP;
        rank = 1;
    }
    return rank;
}

/* The classes of this run: from the cuts kept in o->cls, made on the first
 * run where the grid's boundaries and the templates' ownership change. */
static void setup_classes(Eng *e, const EngineOptions *o)
{
    EngineClasses *k = o->cls;
    if (!k || k->off || o->trace || o->classes == ENGINE_CLASSES_NEVER ||
        (o->classes == ENGINE_CLASSES_AUTO && e->NP <= ENGINE_CLASSES_FROM))
        return;
    if (++k->runs > 8) {
        /* refined again and again: every processor on its own */
        k->off = 1;
        return;
    }
    int shape[MAX_RANK];
    int rank = classes_apply(e, shape);
    if (!rank) {
        k->off = 1;
        return;
    }
    if (!k->rank) {
        k->rank = rank;
        memcpy(k->shape, shape, sizeof shape);
        for (int d = 0; d < rank; d++) {
            int n = shape[d];
            k->cut[d] = xcalloc((size_t)n + 1, 1);
            /* the boundary layers of the grid, three deep, on their own */
            for (int c = 0; c <= n && c <= 3; c++) {
                k->cut[d][c] = 1;
                k->cut[d][n - c] = 1;
            }
        }
        /* where the processors' holdings change (the templates set up
           for one processor: the grids' coordinates are not needed) */
        e->P = 1;
        for (int u = 0; u < e->g->prog->units.n; u++) {
            const SpUnit *su = e->g->prog->units.v[u];
            for (int i = 0; i < su->tmpls.n; i++) {
                const SpTmpl *t = su->tmpls.v[i];
                Tmpl *m = en_tmpl_of(e, t);
                for (int td = 0; td < t->rank; td++) {
                    int gd = t->gdim[td];
                    if (gd < 0)
                        continue;
                    for (int c = 1; c < shape[gd]; c++)
                        if (hpfmap_count(&m->d[td], c) != hpfmap_count(&m->d[td], c - 1))
                            k->cut[gd][c] = 1;
                }
            }
        }
        /* the templates were set up for all processors: again below */
        for (int i = 0; i < e->grids.n; i++) {
            free(((Grid *)e->grids.v[i])->coords);
            free(e->grids.v[i]);
        }
        for (int i = 0; i < e->tmpls.n; i++)
            free(e->tmpls.v[i]);
        e->grids.n = e->tmpls.n = e->laid.n = 0;
    }
    k->pending = 0;
    e->ec = k;
    long C = 1;
    int co[MAX_RANK];
    for (int d = 0; d < rank; d++) {
        e->of[d] = xmalloc((size_t)k->shape[d] * sizeof *e->of[d]);
        int i = -1;
        for (int c = 0; c < k->shape[d]; c++)
            e->of[d][c] = i += c == 0 || k->cut[d][c];
        e->nint[d] = i + 1;
        e->ilo[d] = xmalloc((size_t)e->nint[d] * sizeof *e->ilo[d]);
        e->ihi[d] = xmalloc((size_t)e->nint[d] * sizeof *e->ihi[d]);
        for (int c = k->shape[d] - 1; c >= 0; c--)
            e->ilo[d][e->of[d][c]] = c;
        for (int c = 0; c < k->shape[d]; c++)
            e->ihi[d][e->of[d][c]] = c;
        e->stride[d] = (int)C;
        C *= e->nint[d];
    }
    e->P = (int)C;
    e->rep = xmalloc((size_t)C * sizeof *e->rep);
    e->cnt = xmalloc((size_t)C * sizeof *e->cnt);
    /* the representative: the last coordinate of each interval (the one a
       binomial tree reaches last) */
    int *last[MAX_RANK], *len[MAX_RANK];
    for (int d = 0; d < rank; d++) {
        last[d] = xcalloc((size_t)e->nint[d], sizeof **last);
        len[d] = xcalloc((size_t)e->nint[d], sizeof **len);
        for (int c = 0; c < k->shape[d]; c++) {
            last[d][e->of[d][c]] = c;
            len[d][e->of[d][c]]++;
        }
    }
    for (long v = 0; v < C; v++) {
        long x = v;
        double n = 1;
        for (int d = 0; d < rank; d++) {
            int i = (int)(x % e->nint[d]);
            x /= e->nint[d];
            co[d] = last[d][i];
            n *= len[d][i];
        }
        e->rep[v] = hpfmap_rank(rank, k->shape, e->pr.placement, co);
        e->cnt[v] = n;
    }
    for (int d = 0; d < rank; d++) {
        free(last[d]);
        free(len[d]);
    }
}

void engine_procs_free(EngineProcs *ps)
{
    free(ps->p);
    ps->p = NULL;
    ps->n = 0;
}

int engine_run(Aag *g, Fi *fi, const SagGraph *sag, const EngineOptions *o, EngineResult *r)
{
    Eng E = {0}, *e = &E;
    e->g = g;
    e->fi = fi;
    e->node = engine_node_unit(sag);
    en_read_params(&e->pr, e->node);
    e->overlap = o->overlap < 0 ? 0 : o->overlap > 1 ? 1 : o->overlap;
    e->NP = e->P = o->np > 0 ? o->np : 1;
    e->cube_dim = bits_for(e->NP);
    e->tr = o->trace;
    e->bbv = o->bbv;
    if (e->bbv)
        bbv_reset(e->bbv);
    e->inline_calls = o->inline_calls;
    e->trips = o->trips;
    e->ntrips = o->ntrips;
    e->unroll = o->unroll;
    e->cutoff = o->cutoff > 0 ? o->cutoff : 0;
    e->gmemo = o->memo;
    e->elementwise = getenv("HPFPREDICT_ELEMENTWISE") != NULL;
    e->res = r;
    memset(r, 0, sizeof *r);
    setup_classes(e, o);
    e->clock = vec_new(e);
    e->ex = vec_new(e);
    e->v1 = vec_new(e);
    e->last_sync = vec_new(e);
    for (int m = 0; m < M_N; m++)
        e->acc[m] = vec_new(e);
    for (int i = 0; i < g->naau; i++) {
        Aau *a = g->aau[i];
        memset(a->m_sum, 0, sizeof a->m_sum);
        a->m_max = a->m_min = a->execs = a->calls = a->xmost = 0;
    }
    en_walk(e, g->root, NULL);
    if (e->ctl == AST_STOP)
        e->ctl = 0;
    r->np = e->NP;
    r->min_total = INFINITY;
    int slow = 0;
    for (int p = 0; p < e->P; p++) {
        if (p == 0 || e->clock[p] > r->total) {
            r->total = e->clock[p];
            slow = p;
        }
        if (e->clock[p] < r->min_total)
            r->min_total = e->clock[p];
        for (int m = 0; m < M_N; m++)
            r->mean[m] += e->acc[m][p] * weight(e, p) / e->NP;
    }
    for (int m = 0; m < M_N; m++)
        r->part[m] = e->acc[m][slow];
    r->slowest = rank_of(e, slow);
    if (o->procs) {
        EngineProcs *ps = o->procs;
        engine_procs_free(ps);
        ps->n = e->P;
        ps->p = xcalloc((size_t)e->P, sizeof *ps->p);
        for (int p = 0; p < e->P; p++) {
            ps->p[p].rank = rank_of(e, p);
            ps->p[p].count = weight(e, p);
            ps->p[p].total = e->clock[p];
            for (int m = 0; m < M_N; m++)
                ps->p[p].part[m] = e->acc[m][p];
        }
    }
    r->aau_visits = e->visits;
    r->extrapolated = e->extrapolated;
    r->fi_steps = fi_steps(fi);
    r->node = sag_unit_name(e->node);
    r->cube_dim = e->cube_dim;
    r->cut = e->cut;
    int failed = (e->failed && !e->cut) || fi_stopped(fi);
    for (int k = 0; failed && k < e->nloops && k < 4; k++) {
        r->stop[k].line = e->loops[k].a->line;
        r->stop[k].iter = e->loops[k].iter;
        r->stop[k].trips = e->loops[k].trips;
        r->nstop = k + 1;
    }
    int again = 0;
    if (e->ec) {
        e->ec->used = e->P;
        again = e->ec->pending;
        for (int d = 0; d < e->ec->rank; d++) {
            free(e->of[d]);
            free(e->ilo[d]);
            free(e->ihi[d]);
        }
        free(e->rep);
        free(e->cnt);
    }
    free(e->clock);
    free(e->ex);
    free(e->v1);
    free(e->link_load);
    free(e->last_sync);
    for (int m = 0; m < M_N; m++)
        free(e->acc[m]);
    for (int i = 0; i < e->grids.n; i++) {
        free(((Grid *)e->grids.v[i])->coords);
        free(e->grids.v[i]);
    }
    for (int i = 0; i < e->tmpls.n; i++)
        free(e->tmpls.v[i]);
    free(e->grids.v);
    free(e->tmpls.v);
    free(e->laid.v);
    free(e->cvar);
    for (int i = 0; e->memo && i < g->naau; i++) {
        free(e->memo[i].cv);
        free(e->memo[i].fp);
        free(e->memo[i].cost);
        free(e->memo[i].fp_steps);
        free(e->memo[i].fpk);
    }
    free(e->memo);
    free(e->ginv);
    free(e->kept);
    en_space_free(e);
    en_comm_free(e);
    for (int i = 0; i < e->npool; i++)
        free(e->pool[i]);
    free(e->pool);
    return failed ? -1 : again ? 1 : 0;
}
