/* engine_walk.c - the walk of the AAG for the engine: loops (closed forms,
 * steady states extrapolated), FORALL levels, branches, calls. */
#include <config.h>

#include "engine_int.h"

/* ---- the walk ------------------------------------------------------------ */


/* Runs the functional effect of a's statement(s) when they define critical
 * variables (only outside closed forms: a closed-form body defines none). */
void en_effect(Eng *e, Aau *a)
{
    if (!a->critical) {
        if (a->tail && a->stmt && a->stmt->kind == SP_IO && a->stmt->u.io.stmt &&
            a->stmt->u.io.stmt->kind == AST_READ)
            fi_read_quietly(e->fi, a->stmt);
        return;
    }
    if (a->nparts) {
        for (int i = 0; i < a->nparts; i++)
            fi_exec(e->fi, a->parts[i].stmt);
    } else if (a->tail && a->stmt)
        fi_exec(e->fi, a->stmt);
}

/* The bytes of an I/O item whose size the AAG could not fix (aag.h,
 * io_dyn), from the values of its bounds at this execution: an implied
 * DO's trips times its items' bytes (evaluated at each value of its
 * variable, as the statement sets it, up to 4096 trips; beyond, the mean
 * of the first and last), a section's triplets, a whole array's declared
 * bounds. *ok 0: a bound is not known (an ALLOCATABLE array as a whole). */
static double io_item_bytes(Eng *e, const Node *it, int *ok)
{
    long long lo, hi, st = 1;
    switch (it->kind) {
    case AST_STRING_CONST:
        return (double)strlen(it->u.konst.str ? it->u.konst.str : it->u.konst.text);
    case AST_ARRAY_CTOR: {
        double n = 0;
        for (int i = 0; i < it->u.list.items.n; i++)
            n += io_item_bytes(e, it->u.list.items.v[i], ok);
        return n;
    }
    case AST_IMPLIED_DO: {
        if (!fi_eval_int(e->fi, it->u.impdo.lo, &lo) || !fi_eval_int(e->fi, it->u.impdo.hi, &hi)
            || (it->u.impdo.step && !fi_eval_int(e->fi, it->u.impdo.step, &st))) {
            *ok = 0;
            return 0;
        }
        if (st == 0) {
            fi_error_once(e->fi, it, it->u.impdo.step->loc, "implied DO with a zero step");
            e->failed = 1;
            *ok = 0;
            return 0;
        }
        long long trips = (hi - lo + st) / st;
        if (trips <= 0)
            return 0;
        const Symbol *v = it->u.impdo.var ? it->u.impdo.var->u.name.sym : NULL;
        double n = 0;
        for (long long k = 0; k < trips; k++) {
            if (trips > 4096 && k == 1)
                k = trips - 1;    /* the mean of the first and last below */
            if (v)
                fi_set_int(e->fi, v, lo + k * st);
            for (int i = 0; i < it->u.impdo.items.n; i++)
                n += io_item_bytes(e, it->u.impdo.items.v[i], ok);
        }
        if (v)
            fi_set_int(e->fi, v, lo + trips * st);   /* its value after the statement */
        return trips > 4096 ? n / 2 * (double)trips : n;
    }
    default:
        break;
    }
    int el = it->type.base == TY_CHARACTER ? AAG_CHAR_BYTES : elsize(it->type);
    if (!it->rank)
        return el;
    double n = el;
    const Symbol *y = it->kind == AST_NAME ? it->u.name.sym
                    : it->kind == AST_REF ? it->u.ref.sym : NULL;
    if (it->kind == AST_REF && it->u.ref.what == REF_SECTION) {
        for (int d = 0; d < it->u.ref.args.n; d++) {
            const Node *s = it->u.ref.args.v[d];
            if (s->kind != AST_TRIPLET) {
                if (s->rank)      /* a vector subscript */
                    n *= s->extent && s->extent[0] >= 0 ? (double)s->extent[0] : (*ok = 0);
                continue;
            }
            int known = y && y->rank > d && y->bounds_known[d];
            if (s->u.triplet.lo ? !fi_eval_int(e->fi, s->u.triplet.lo, &lo) : !known)
                *ok = 0;
            else if (!s->u.triplet.lo)
                lo = y->lo[d];
            if (s->u.triplet.hi ? !fi_eval_int(e->fi, s->u.triplet.hi, &hi) : !known)
                *ok = 0;
            else if (!s->u.triplet.hi)
                hi = y->hi[d];
            st = 1;
            if (s->u.triplet.stride && (!fi_eval_int(e->fi, s->u.triplet.stride, &st) || !st))
                *ok = 0;
            if (!*ok)
                return 0;
            n *= (hi - lo + st) / st > 0 ? (double)((hi - lo + st) / st) : 0;
        }
        return n;
    }
    int all = 1;
    for (int d = 0; d < it->rank; d++) {
        if (it->extent && it->extent[d] >= 0)
            n *= (double)it->extent[d];
        else if (y && y->rank == it->rank && y->bounds_known[d])
            n *= (double)(y->hi[d] >= y->lo[d] ? y->hi[d] - y->lo[d] + 1 : 0);
        else
            all = 0;
    }
    if (all)
        return n;
    if (it->kind == AST_NAME) {
        /* an ALLOCATABLE array as a whole: SIZE of it, where the
           interpreter holds its allocation */
        void *arg[1] = {(void *)it};
        Node size = {0};
        size.kind = AST_REF;
        size.loc = it->loc;
        size.type = (Type){TY_INTEGER, 4};
        size.u.ref.what = REF_INTRINSIC;
        size.u.ref.id = "size";
        size.u.ref.args = (PtrVec){arg, 1, 1};
        long long k;
        if (fi_eval_int(e->fi, &size, &k) && k >= 0)
            return (double)el * (double)k;
    }
    *ok = 0;
    return 0;
}

double en_io_dyn_bytes(Eng *e, const Aau *a)
{
    double bytes = 0;
    for (int i = 0; i < a->nio_dyn; i++) {
        int ok = 1;
        double b = io_item_bytes(e, a->io_dyn[i].item, &ok);
        bytes += ok ? b : a->io_dyn[i].est;
    }
    return bytes;
}

/* An ALLOCATE lays out the templates of the mapped ALLOCATABLE arrays it
 * allocates anew: their bounds are the ALLOCATE's (the old layout stays
 * allocated, unmatched, so that nothing cached takes its address). */
static void relayout(Eng *e, const SpStmt *s)
{
    for (int i = 0; i < s->u.alloc.items.n; i++) {
        const Node *ref = s->u.alloc.items.v[i];
        const SpRef *r = ref->ir;
        if (!r || !r->arr || !r->arr->at_alloc || !r->arr->tmpl->at_alloc)
            continue;
        int own = r->arr->tmpl->array == r->arr->sym, laid = -1;
        for (int k = 0; k < e->laid.n && laid < 0; k++)
            if (e->laid.v[k] == r->arr->tmpl)
                laid = k;
        if (s->kind == SP_DEALLOC) {
            if (own && laid >= 0)
                e->laid.v[laid] = e->laid.v[--e->laid.n];
            continue;
        }
        if (!own) {
            /* laid out by the array it is aligned with, which must be allocated */
            if (laid < 0) {
                fi_error_once(e->fi, s, s->loc, "'%s' is allocated before '%s', which it is "
                              "aligned with (the SPMD program stops here)", r->arr->sym->name,
                              r->arr->tmpl->name);
                e->failed = 1;
            }
            continue;
        }
        if (laid < 0)
            vec_push(NULL, &e->laid, (void *)r->arr->tmpl);
        for (int k = 0; k < e->tmpls.n; k++) {
            Tmpl *m = e->tmpls.v[k];
            if (m->t == r->arr->tmpl)
                m->t = NULL;
        }
        /* laid out now, with the bounds this unit gave: a procedure the
           array is passed to uses the layout without them */
        en_tmpl_of(e, r->arr->tmpl);
    }
}

void en_seq(Eng *e, Aau *a, const double *mult)
{
    if (a->stmt && (a->stmt->kind == SP_ALLOC || a->stmt->kind == SP_DEALLOC))
        relayout(e, a->stmt);
    if (a->ctl) {
        /* applied, at no cost of its own: the branch is its IF's */
        begin(e);
        en_end(e, a, sum_of(e, mult), most_of(e, mult));
        e->ctl = a->ctl;
        e->ctl_target = a->ctl_target;
        return;
    }
    double t = en_ops_time(e, a), ft = e->first_touch;
    if (a->on != ON_IO && !(a->on == ON_OWNER && a->elem && a->elem->ir)) {
        if (ft > 0) {
            /* the first store to the pages of arrays: once, not per
               iteration (mem.page.first) */
            begin(e);
            en_charge_all(e, a, M_COMP, t, mult);
            en_charge_all(e, a, M_COMP, ft, NULL);
            en_end(e, a, sum_of(e, mult), most_of(e, mult));
        } else {
            en_charge_once(e, a, M_COMP, t, mult);
        }
        if (!mult)
            en_effect(e, a);
        return;
    }
    begin(e);
    if (a->on == ON_IO) {
        double m = mult ? mult[0] : 1;
        charge(e, a, M_COMP, 0, t * m);
        if (a->io) {
            /* the items sized at run time, then a formatted statement's own
               cost, and the Fortran run time's I/O set-up at the first of
               the process (io.format*, hpfcalibrate; 0 when the SAG does
               not give them) */
            double bytes = a->io_bytes + en_io_dyn_bytes(e, a);
            int rd = a->stmt && a->stmt->kind == SP_IO && a->stmt->u.io.stmt &&
                     a->stmt->u.io.stmt->kind == AST_READ;
            double start = rd ? e->pr.io_rd_start : e->pr.io_start;
            double pb = rd ? e->pr.io_rd_pb : e->pr.io_pb;
            charge(e, a, M_COMM, 0,
                   (start + bytes * pb + e->pr.io_fmt) * m +
                   (e->io_done ? 0 : e->pr.io_fmt_first));
            e->io_done = 1;
        }
        en_end(e, a, m, m);
    } else if (a->on == ON_OWNER && a->elem && a->elem->ir) {
        const SpRef *r = a->elem->ir;
        long long sub[MAX_RANK];
        int ok = 1;
        for (int d = 0; d < r->arr->rank; d++)
            if (!fi_eval_int(e->fi, r->sub[d], &sub[d])) {
                fi_missing(e->fi, r->sub[d], a->line, "the owner of an element");
                e->failed = 1;
                ok = 0;
            }
        if (ok && r->arr->tmpl) {
            int own[MAX_RANK], coord[MAX_RANK];
            Grid *g = en_arr_grid(e, r->arr);
            en_owner_coords(e, r->arr, sub, own);
            for (int d = 0; e->ec && d < g->rank; d++)
                if (own[d] >= 0) {
                    en_cut_at(e, d, own[d]);
                    en_cut_at(e, d, (long)own[d] + 1);
                }
            double n = 0, most = 0;
            for (int p = 0; p < e->P; p++) {
                memcpy(coord, coords_of(g, p), (size_t)g->rank * sizeof *coord);
                int mine = 1;
                for (int d = 0; d < g->rank; d++)
                    if (own[d] >= 0 && own[d] != coord[d])
                        mine = 0;
                if (mine) {
                    charge(e, a, M_COMP, p, t * (mult ? mult[p] : 1));
                    n += (mult ? mult[p] : 1) * weight(e, p);
                    if ((mult ? mult[p] : 1) > most)
                        most = mult ? mult[p] : 1;
                }
            }
            en_end(e, a, n, most);
        } else {
            en_charge_all(e, a, M_COMP, t, mult);
            en_end(e, a, sum_of(e, mult), most_of(e, mult));
        }
    }
    if (!mult)
        en_effect(e, a);
}

/* The FORALL nest from its outermost index AAU: the closed form of each
 * level (setup per entry, per-iteration overhead per trip) with the
 * processor's own trip counts, the mask as a weighted conditional. */
/* The entries and trips of a FORALL level on every processor (outer: the
 * entries, NULL: one each), and its own execution charged: begin(), two
 * charges per processor, en_end(e, a, sum_of(e, entries), most_of(e, entries)), the execution's
 * times in registers as in en_charge_once(). */
/* A FORALL level's overhead per entry: the loop's set-up and its
 * segment's call, and the run-time library's own calls (rt.*): at every
 * entry of a distributed level its segments (hpfrt_nseg, hpfrt_seg:
 * rt.seg; an inner level's once an execution, hpfrt_segs), and at the statement's outermost level once an execution the
 * region's timers around it and the iteration set of each distributed
 * dimension (hpfrt_loop, before the nest); a pass over the points (ITER_COPY:
 * the copy-back, a gather's inspector) one level standing for the nest, its
 * distributed levels' segments once an entry. */
static double level_setup(const Eng *e, const Aau *a)
{
    return en_level_setup(&e->pr, a);
}

double en_level_setup(const Params *pr, const Aau *a)
{
    double t = pr->loop_setup + pr->call_ovhd;
    const SpLoop *l = a->loop;
    if (a->iter == ITER_FORALL && l && a->level >= 0 && a->level < l->nidx) {
        /* (an inner level reads its segments from a table: spmd_seg_hoisted) */
        t += l->idx[a->level].dist && !spmd_seg_hoisted(l, a->level) ? pr->rt_seg : 0;
        if (a->nest_top) {
            t += pr->rt_region;
            for (int k = 0; k < l->nidx; k++)
                t += l->idx[k].dist ? pr->rt_loop : 0;
            for (int k = 0; k < l->nidx; k++)
                t += spmd_seg_hoisted(l, k) ? pr->rt_seg : 0;
        }
    } else if (a->iter == ITER_COPY && l) {
        /* a pass over the points (the copy-back, an inspector): the
           segments of each distributed level once */
        for (int k = 0; k < l->nidx; k++)
            t += l->idx[k].dist ? pr->rt_seg : 0;
    }
    return t;
}

/* A FORALL level's overhead per iteration: a vectorized loop's element
 * (vec.iter), else loop.iter. */
static double level_iter(const Eng *e, const Aau *a)
{
    return vectorized(e, a) ? e->pr.vec_iter : e->pr.loop_iter;
}

static inline __attribute__((always_inline)) void
level_charge_with(Eng *e, Aau *a, const double *outer, const double *cnt, double *entries,
                  double *trips)
{
    const double *n = a->iter == ITER_COPY ? e->n_all : e->lvl[a->level];
    double so = a->m_sum[M_OVHD], mx = 0, mn = INFINITY, execs = 0, most = 0;
    double *clock = e->clock, *acc = e->acc[M_OVHD];
    double setup = level_setup(e, a), iter = level_iter(e, a);
    for (int p = 0; p < e->P; p++) {
        double m = outer ? outer[p] : 1;
        entries[p] = m;
        trips[p] = m * n[p];
        double ex = 0;
        add_charge(clock, acc, &ex, &so, cnt, p, entries[p] * setup);
        add_charge(clock, acc, &ex, &so, cnt, p, trips[p] * iter);
        if (ex > mx)
            mx = ex;
        if (ex < mn)
            mn = ex;
        execs += entries[p] * (cnt ? cnt[p] : 1);
        if (entries[p] > most)
            most = entries[p];
    }
    a->m_sum[M_OVHD] = so;
    a->m_max += mx;
    a->m_min += mn == INFINITY ? 0 : mn;
    a->execs += execs;
    a->xmost += most;
    if (e->bbv)
        bbv_exec(e->bbv, a, most);
    e->visits++;
}

void en_forall_level(Eng *e, Aau *a, const double *outer)
{
    const SpLoop *l = a->loop;
    double *entries = buf_raw(e), *trips = buf_raw(e);
    if (e->tr) {
        /* traced: the same charges one by one, each recorded by charge() */
        const double *n = a->iter == ITER_COPY ? e->n_all : e->lvl[a->level];
        for (int p = 0; p < e->P; p++) {
            entries[p] = outer ? outer[p] : 1;
            trips[p] = entries[p] * n[p];
        }
        begin(e);
        double setup = level_setup(e, a), iter = level_iter(e, a);
        for (int p = 0; p < e->P; p++) {
            charge(e, a, M_OVHD, p, entries[p] * setup);
            charge(e, a, M_OVHD, p, trips[p] * iter);
        }
        en_end(e, a, sum_of(e, entries), most_of(e, entries));
    } else if (e->cnt)
        level_charge_with(e, a, outer, e->cnt, entries, trips);
    else if (outer)
        level_charge_with(e, a, outer, NULL, entries, trips);
    else
        level_charge_with(e, a, NULL, NULL, entries, trips);
    /* the innermost level's body runs once per point: the product of the
       levels, or the guarded count */
    int innermost = a->iter == ITER_COPY || a->nest_inner;
    const double *nm = e->nest_mult;
    if (innermost && a->iter != ITER_COPY && l->nguard)
        for (int p = 0; p < e->P; p++)
            trips[p] = (nm ? nm[p] : 1) * e->n_all[p];
    for (int i = 0; i < a->kids.n && !e->failed; i++) {
        Aau *k = a->kids.v[i];
        if (k->cls == AAU_CONDTD && k->mask) {
            /* the mask: tested at every point, the body where it holds */
            double *tr = vec_new(e);
            begin(e);
            if (e->tr)
                for (int p = 0; p < e->P; p++) {
                    charge(e, k, M_OVHD, p, trips[p] * e->pr.cond_test);
                    tr[p] = (nm ? nm[p] : 1) * e->n_true[p];
                    charge(e, k, M_OVHD, p, tr[p] * e->pr.cond_taken);
                }
            else {
                double ko = k->m_sum[M_OVHD];
                for (int p = 0; p < e->P; p++) {
                    charge_to(e, &ko, M_OVHD, p, trips[p] * e->pr.cond_test);
                    tr[p] = (nm ? nm[p] : 1) * e->n_true[p];
                    charge_to(e, &ko, M_OVHD, p, tr[p] * e->pr.cond_taken);
                }
                k->m_sum[M_OVHD] = ko;
            }
            en_end(e, k, sum_of(e, trips), most_of(e, trips));
            /* the mask's own computation, at every point */
            for (int b = 0; b < k->nbranch; b++)
                if (k->bpre)
                    en_walk_list(e, &k->bpre[b], trips);
            for (int b = 0; b < k->nbranch; b++)
                en_walk_list(e, &k->bbody[b], tr);
            buf_put(e, tr);
        } else if (k->iter == ITER_FORALL && k->cls != AAU_SEQ)
            en_forall_level(e, k, trips);
        else
            en_walk(e, k, trips);
    }
    buf_put(e, entries);
    buf_put(e, trips);
}

/* Whether en_loop_counts() of l gives the same counts at every execution:
 * no mask, no guards, every index's trips invariant (known once its
 * counts were computed). */
static int counts_invariant(Eng *e, const SpLoop *l)
{
    if (l->mask || l->nguard)
        return 0;
    for (int k = 0; k < l->nidx; k++) {
        const IxCache *c = en_ix_cached(e, &l->idx[k]);
        if (c->n < 0 || c->inv <= 0)
            return 0;
    }
    return 1;
}

void en_forall_nest(Eng *e, Aau *a, const double *mult)
{
    const SpLoop *saved = e->loop;
    const double *sv_mult = e->nest_mult;
    double sv_max = e->n_max;
    double *sv_all = e->n_all, *sv_true = e->n_true, *sv_lvl[MAX_RANK];
    memcpy(sv_lvl, e->lvl, sizeof sv_lvl);
    e->loop = a->loop;
    e->nest_mult = mult;
    int nidx = a->loop->nidx;
    if (!e->lcc)
        e->lcc = xcalloc((size_t)e->g->naau, sizeof *e->lcc);
    LcCache *lc = &e->lcc[a->id - 1];
    if (lc->v && (!lc->steps || fi_spend(e->fi, lc->steps))) {
        /* the counts of the last execution, which cannot have changed: the
           steps their evaluation took charged */
        e->n_all = lc->v;
        e->n_true = lc->v + e->P;
        for (int k = 0; k < nidx; k++)
            e->lvl[k] = lc->v + (size_t)(2 + k) * (size_t)e->P;
        e->n_max = lc->n_max;
        en_forall_level(e, a, mult);
    } else {
        /* filled whole by loop_counts */
        e->n_all = buf_raw(e);
        e->n_true = buf_raw(e);
        for (int k = 0; k < nidx; k++)
            e->lvl[k] = buf_raw(e);
        long long steps0 = fi_steps(e->fi);
        en_loop_counts(e, a->loop, a->line);
        if (!lc->v && !e->failed && counts_invariant(e, a->loop) &&
            e->lcc_doubles + (size_t)(2 + nidx) * (size_t)e->P <= LC_MAX_DOUBLES) {
            lc->v = xmalloc((size_t)(2 + nidx) * (size_t)e->P * sizeof *lc->v);
            size_t b = (size_t)e->P * sizeof *lc->v;
            memcpy(lc->v, e->n_all, b);
            memcpy(lc->v + e->P, e->n_true, b);
            for (int k = 0; k < nidx; k++)
                memcpy(lc->v + (size_t)(2 + k) * (size_t)e->P, e->lvl[k], b);
            lc->steps = fi_steps(e->fi) - steps0;
            e->lcc_doubles += (size_t)(2 + nidx) * (size_t)e->P;
        }
        e->n_max = 0;
        for (int p = 0; p < e->P; p++)
            if (e->n_all[p] > e->n_max)
                e->n_max = e->n_all[p];
        if (lc->v)
            lc->n_max = e->n_max;
        if (!e->failed)
            en_forall_level(e, a, mult);
        buf_put(e, e->n_all);
        buf_put(e, e->n_true);
        for (int k = 0; k < nidx; k++)
            buf_put(e, e->lvl[k]);
    }
    e->loop = saved;
    e->nest_mult = sv_mult;
    e->n_max = sv_max;
    e->n_all = sv_all;
    e->n_true = sv_true;
    memcpy(e->lvl, sv_lvl, sizeof sv_lvl);
}


/* The trips of an inline reduction whose length varies with an index of
 * its FORALL (sum(a(1:i, 1)): max(0, alpha i + beta)), by processor: summed
 * over the points each runs, times the nest's multiplier, in m. 0 when the
 * length is not of that form, or the loop has a mask or guards. */
static int red_trips_varying(Eng *e, const Aau *a, double *m)
{
    const SpLoop *l = e->loop;
    const Node *n = a->red->n, *z, *x;
    if (!l || l->mask || l->nguard || !en_mentions_index(n, l))
        return 0;
    int clamp = en_call2(n, "max", &z, &x);
    long long a0, b0, alpha, beta;
    const Symbol *none = NULL, *iv = NULL;
    if (clamp && (!en_affine_in(e, z, l, &none, &a0, &b0) || a0 || b0 != 0))
        return 0;
    if (!en_affine_in(e, clamp ? x : n, l, &iv, &alpha, &beta) || !iv)
        return 0;
    int ki = -1;
    for (int k = 0; k < l->nidx; k++)
        if (l->idx[k].var == iv)
            ki = k;
    FiSpace sp;
    if (ki < 0 || !fi_space(e->fi, l, &sp))
        return 0;
    memset(m, 0, (size_t)e->P * sizeof *m);
    Grid *g = en_arr_grid(e, l->arr);
    IxMap map[MAX_RANK];
    int bound[MAX_RANK] = {0};
    if (g) {
        en_index_maps(e, l, map);
        for (int k = 0; k < l->nidx; k++)
            if (map[k].gd >= 0)
                bound[map[k].gd] = 1;
    }
    for (long pt = 0; pt < sp.n; pt++) {
        long long v = alpha * sp.idx[ki][pt] + beta;
        if (v <= 0)
            continue;
        int coord[MAX_RANK];
        if (g)
            en_point_coords(e, l, map, g, &sp, pt, coord);
        m[g ? en_proc_of(e, g->rank, g->shape, coord) : 0] += (double)v;
    }
    if (g)
        en_spread_counts(e, l, g, bound, m);
    else
        for (int p = 1; p < e->P; p++)
            m[p] = m[0];
    const double *nm = e->nest_mult;
    for (int p = 0; nm && p < e->P; p++)
        m[p] *= nm[p];
    return 1;
}

/* An inline reduction inside a FORALL body: its trips per execution. */
void en_red_loop(Eng *e, Aau *a, const double *mult)
{
    double *m = vec_new(e), saved_len = e->red_len;
    e->red_len = 0;             /* varying: a long chain's latency */
    if (!red_trips_varying(e, a, m)) {
        long long n = en_eval_int(e, a->red->n, 0, a->line, "reduction length");
        for (int p = 0; p < e->P; p++)
            m[p] = (mult ? mult[p] : 1) * (double)(n > 0 ? n : 0);
        e->red_len = (double)n;
    }
    begin(e);
    en_charge_all(e, a, M_OVHD, e->pr.loop_setup, mult);
    for (int p = 0; p < e->P; p++)
        charge(e, a, M_OVHD, p, m[p] * e->pr.loop_iter);
    en_end(e, a, sum_of(e, mult), most_of(e, mult));
    for (int i = 0; i < a->kids.n; i++) {
        Aau *k = a->kids.v[i];
        if (k->cls == AAU_CONDTD || k->cls == AAU_CONDTSYNC) {
            /* the reduction's mask: taken as always true for the cost */
            begin(e);
            en_charge_all(e, k, M_OVHD, e->pr.cond_test + e->pr.cond_taken, m);
            en_end(e, k, sum_of(e, m), most_of(e, m));
            for (int b = 0; b < k->nbranch; b++)
                en_walk_list(e, &k->bbody[b], m);
        } else
            en_walk(e, k, m);
    }
    e->red_len = saved_len;
    buf_put(e, m);
}

/* Every AAU below a (its kids, branches and pre lists), for snapshots, and
 * the bodies of the procedures its Calls call (charged as the loop runs,
 * so extrapolated with it), each callee once (in seen). */
static void subtree_in(const Eng *e, Aau *a, PtrVec *out, PtrVec *seen)
{
    vec_push(NULL, out, a);
    for (int i = 0; i < a->kids.n; i++)
        subtree_in(e, a->kids.v[i], out, seen);
    for (int b = 0; b < a->nbranch; b++) {
        if (a->bpre)
            for (int i = 0; i < a->bpre[b].n; i++)
                subtree_in(e, a->bpre[b].v[i], out, seen);
        for (int i = 0; i < a->bbody[b].n; i++)
            subtree_in(e, a->bbody[b].v[i], out, seen);
    }
    if (a->cls != AAU_CALL || !a->callee)
        return;
    for (int i = 0; i < seen->n; i++)
        if (seen->v[i] == a->callee)
            return;
    vec_push(NULL, seen, (void *)a->callee);
    int listed = !a->home || a->home == a;
    for (int i = 0; i < out->n && !listed; i++)
        listed = out->v[i] == a->home;
    if (!listed)
        vec_push(NULL, out, a->home);     /* its calls counted */
    const PtrVec *body = aag_unit_body(e->g, a->callee);
    for (int i = 0; body && i < body->n; i++)
        subtree_in(e, body->v[i], out, seen);
}

static void subtree(const Eng *e, Aau *a, PtrVec *out)
{
    PtrVec seen = {0};
    subtree_in(e, a, out, &seen);
    free(seen.v);
}

static int has_ctl(const Aau *a)
{
    if (a->ctl || a->cls == AAU_CALL)
        return 1;
    for (int i = 0; i < a->kids.n; i++)
        if (has_ctl(a->kids.v[i]))
            return 1;
    for (int b = 0; b < a->nbranch; b++)
        for (int i = 0; i < a->bbody[b].n; i++)
            if (has_ctl(a->bbody[b].v[i]))
                return 1;
    return 0;
}

typedef struct {
    double m[9];
} Snap;

static void snap_take(const PtrVec *sub, Snap *s)
{
    for (int i = 0; i < sub->n; i++) {
        const Aau *a = sub->v[i];
        memcpy(s[i].m, a->m_sum, sizeof a->m_sum);
        s[i].m[4] = a->m_max;
        s[i].m[5] = a->m_min;
        s[i].m[6] = a->execs;
        s[i].m[7] = a->calls;
        s[i].m[8] = a->xmost;
    }
}

/* Handles the control transfer pending after one iteration: 1 to leave. */
static int loop_ctl(Eng *e)
{
    if (e->ctl == AST_CYCLE) {
        e->ctl = 0;
        return 0;
    }
    if (e->ctl == AST_EXIT) {
        e->ctl = 0;
        return 1;
    }
    return e->ctl != 0 || fi_stopped(e->fi);
}

static int same_vec(const double *a, const double *b, int n)
{
    for (int i = 0; i < n; i++)
        if (fabs(a[i] - b[i]) > 1e-12 * (fabs(a[i]) + fabs(b[i])) + 1e-18)
            return 0;
    return 1;
}

/* A DO loop: closed form for IterD, iteration by iteration with the steady
 * state extrapolated for IterSync, fully unrolled for IterND. */

/* Whether expression n reads the variable var. */
static int reads_var(const Node *n, const Symbol *var)
{
    if (!n)
        return 0;
    switch (n->kind) {
    case AST_NAME:
        return n->u.name.sym == var;
    case AST_BINARY:
        return reads_var(n->u.binary.lhs, var) || reads_var(n->u.binary.rhs, var);
    case AST_UNARY: case AST_PAREN:
        return reads_var(n->u.unary.operand, var);
    case AST_KEYWORD_ARG:
        return reads_var(n->u.kwarg.value, var);
    case AST_REF:
        for (int i = 0; i < n->u.ref.args.n; i++)
            if (reads_var(n->u.ref.args.v[i], var))
                return 1;
        return 0;
    default:
        return 0;
    }
}


/* What an iteration of a periodic loop (Aau.periodic) depends on: the
 * values of the expressions of its body that read its variable, each of
 * which reads nothing else (a branch condition, a bound), and the owners
 * of the elements its gathers fetch. */
typedef struct {
    PtrVec expr;                  /* const Node *: evaluated as integers */
    PtrVec gather;                /* const CommEntry *: their owners */
    int ok;                       /* 0: something else depends on the variable */
} Probes;

static void probe_expr(Probes *pr, const Node *n, const Symbol *var)
{
    if (!n || !reads_var(n, var))
        return;
    if (!en_reads_only(n, var))
        pr->ok = 0;
    else
        vec_push(NULL, &pr->expr, (void *)n);
}

static void probes_of(Probes *pr, const Aau *a, const Symbol *var)
{
    if (a->cls == AAU_CALL || a->while_cond) {
        pr->ok = 0;               /* what a procedure or a DO WHILE does with it */
        return;
    }
    if (a->cls == AAU_COMM && a->comm && a->comm->kind == CM_GATHER) {
        const CommEntry *c = a->comm;
        const SpRef *r = c->g ? c->g->r : NULL;
        int reads = 0;
        for (int d = 0; r && r->arr && d < r->arr->rank; d++)
            reads |= reads_var(r->sub[d], var);
        for (int t = 0; r && r->arr && r->arr->tmpl && t < r->arr->tmpl->rank; t++)
            reads |= reads_var(r->arr->fix[t], var);
        if (reads)
            vec_push(NULL, &pr->gather, (void *)c);
    } else if (a->cls == AAU_COMM || a->cls == AAU_SYNC || a->cls == AAU_SYNCSEQ) {
        if (a->comm && (reads_var(a->comm->elem, var)))
            pr->ok = 0;
    }
    if (a->on == ON_OWNER && a->elem && reads_var(a->elem, var))
        pr->ok = 0;
    if (a->stmt && a->head && a->stmt->kind == SP_DO && a != NULL) {
        probe_expr(pr, a->stmt->u.do_.lo, var);
        probe_expr(pr, a->stmt->u.do_.hi, var);
        probe_expr(pr, a->stmt->u.do_.st, var);
    }
    if (a->loop && a->iter == ITER_FORALL && a->level < a->loop->nidx) {
        const SpIndex *ix = &a->loop->idx[a->level];
        probe_expr(pr, ix->lo, var);
        probe_expr(pr, ix->hi, var);
        probe_expr(pr, ix->st, var);
        if (a->level == 0 && a->loop->mask && reads_var(a->loop->mask, var))
            pr->ok = 0;
    }
    if (a->red && reads_var(a->red->n, var))
        pr->ok = 0;
    for (int b = 0; b < a->nbranch; b++) {
        probe_expr(pr, a->bcond[b], var);
        for (int i = 0; a->bpre && i < a->bpre[b].n; i++)
            probes_of(pr, a->bpre[b].v[i], var);
        for (int i = 0; i < a->bbody[b].n; i++)
            probes_of(pr, a->bbody[b].v[i], var);
    }
    for (int i = 0; i < a->kids.n; i++)
        probes_of(pr, a->kids.v[i], var);
}

enum { PERIOD_MAX = 64, PERIOD_TRIPS = 1 << 20 };

/* A periodic loop's iterations, as its variable runs lo, lo + st, ... (n
 * trips): what each depends on (its signature, w values), computed for
 * every trip before the first (no element is evaluated), and the block
 * length L (1 .. PERIOD_MAX) by which its walk is extrapolated: the one
 * whose consecutive blocks differ the fewest times (CYCLIC owners: P, a
 * branch taken at one step: 1). NULL when the signature cannot be had. */
static long long *iter_signature(Eng *e, const Aau *a, const Symbol *var, long long lo,
                                 long long st, long long n, int *w, long long *L)
{
    Probes pr = {{0}, {0}, 1};
    for (int i = 0; i < a->kids.n; i++)
        probes_of(&pr, a->kids.v[i], var);
    long long *sig = NULL;
    *w = pr.expr.n + MAX_RANK * pr.gather.n;
    if (pr.ok && *w && n >= 3 && n <= PERIOD_TRIPS) {
        sig = xmalloc((size_t)n * (size_t)*w * sizeof *sig);
        for (long long t = 0; t < n && sig; t++) {
            fi_set_int(e->fi, var, lo + t * st);
            long long *row = sig + (size_t)t * (size_t)*w;
            int ok = 1;
            for (int i = 0; i < pr.expr.n && ok; i++)
                ok = fi_eval_int(e->fi, pr.expr.v[i], &row[i]);
            for (int g = 0; g < pr.gather.n && ok; g++) {
                int own[MAX_RANK];
                ok = en_fixed_owner(e, pr.gather.v[g], var, own);
                for (int d = 0; ok && d < MAX_RANK; d++)
                    row[pr.expr.n + g * MAX_RANK + d] = own[d];
            }
            if (!ok) {
                free(sig);
                sig = NULL;
            }
        }
    }
    if (sig) {
        long long best = -1;
        *L = 1;
        for (long long p = 1; p <= PERIOD_MAX && 3 * p <= n; p++) {
            size_t bw = (size_t)p * (size_t)*w * sizeof *sig;
            long long breaks = 0;
            for (long long b = 1; (b + 1) * p <= n; b++)
                breaks += memcmp(sig + (size_t)(b - 1) * (size_t)p * (size_t)*w,
                                 sig + (size_t)b * (size_t)p * (size_t)*w, bw) != 0;
            if (best < 0 || breaks < best) {
                best = breaks;
                *L = p;
            }
            if (!breaks)
                break;
        }
    }
    free(pr.expr.v);
    free(pr.gather.v);
    return sig;
}

/* The cache model across k extrapolated repetitions of the iterations
 * that began with the volume counter at v0 and the access counter at n0:
 * the volume grows k times as much again, and the variables accessed
 * there were last accessed that much later (the others keep their last
 * access, further back than before). */
static void cache_extrapolate(Eng *e, double v0, long long n0, double k)
{
    double dv = e->volume - v0;
    for (int i = 0; i < e->ncvar; i++)
        if (e->cvar[i].at > n0)
            e->cvar[i].last += k * dv;
    e->volume += k * dv;
}

/* A settling loop extrapolated: its iterations interpreted and not. */
static void note_settled(Eng *e, const Aau *a, long long done, long long rest)
{
    EngineResult *r = e->res;
    int k = 0;
    while (k < r->nsettled && r->settled[k].line != a->line)
        k++;
    if (k == r->nsettled) {
        if (k == (int)(sizeof r->settled / sizeof r->settled[0]))
            return;
        r->settled[r->nsettled++].line = a->line;
    }
    r->settled[k].interpreted += done;
    r->settled[k].extrapolated += rest;
}

/* The trip count --trips gives the loop of a, or NULL. */
static const EngineTrips *trips_of(const Eng *e, const Aau *a)
{
    for (int i = 0; i < e->ntrips; i++)
        if (e->trips[i].line == a->line)
            return &e->trips[i];
    return NULL;
}

/* A loop walked iteration by iteration: kept for the message when the
 * interpretation stops inside (the outermost few). */
static int loop_push(Eng *e, const Aau *a, long long trips)
{
    int k = e->nloops++;
    if (k < (int)(sizeof e->loops / sizeof e->loops[0]))
        e->loops[k].a = a, e->loops[k].iter = 0, e->loops[k].trips = trips;
    return k;
}

static void loop_iter(Eng *e, int k, long long it)
{
    if (k < (int)(sizeof e->loops / sizeof e->loops[0]))
        e->loops[k].iter = it;
}

static void loop_pop(Eng *e)
{
    /* a stop leaves the stack as it was, for engine_run's result */
    if (!e->failed && !fi_stopped(e->fi))
        e->nloops--;
}

/* A DO of the main program's own statements (interval vectors place their
 * intervals by its iterations). */
static int top_level(const Eng *e, const Aau *a)
{
    return e->bbv && e->depth == 0 && a->parent && a->parent->cls == AAU_SPAWN;
}

void en_do_loop(Eng *e, Aau *a, const double *mult)
{
    const SpStmt *s = a->stmt;
    long long lo = en_eval_int(e, s->u.do_.lo, 1, a->line, "loop bound");
    long long hi = en_eval_int(e, s->u.do_.hi, 0, a->line, "loop bound");
    long long st = en_eval_int(e, s->u.do_.st, 1, a->line, "loop step");
    if (e->failed)
        return;
    if (st == 0) {
        fi_error_once(e->fi, a, s->loc, "DO loop with a zero step");
        e->failed = 1;
        return;
    }
    long long n = hpfmap_trip(lo, hi, st);
    const EngineTrips *tr = trips_of(e, a);
    if (tr && tr->n != ENGINE_TRIPS_MAX && tr->n < n)
        n = tr->n;
    const Symbol *var = s->u.do_.var ? s->u.do_.var->u.name.sym : NULL;
    begin(e);
    en_charge_all(e, a, M_OVHD, e->pr.loop_setup, mult);
    en_charge_all(e, a, M_OVHD, (double)n * (e->pr.loop_iter + (st != 1 ? e->pr.loop_step : 0)),
               mult);
    en_end(e, a, sum_of(e, mult), most_of(e, mult));
    int closed = (a->cls == AAU_ITERD || mult) && !a->varying && !has_ctl(a);
    if (closed) {
        if (n > 0) {
            if (var)
                fi_set_int(e->fi, var, lo);
            double *m = vec_new(e);
            for (int p = 0; p < e->P; p++)
                m[p] = (mult ? mult[p] : 1) * (double)n;
            int top = top_level(e, a);
            if (top)
                bbv_top(e->bbv, a->line, 1, n);
            en_walk_list(e, &a->kids, m);
            if (top)
                bbv_top(e->bbv, 0, 0, 0);
            buf_put(e, m);
        }
        if (var)
            fi_set_int(e->fi, var, lo + n * st);
        return;
    }
    /* a traced run shows every iteration (until the trace is full) */
    int tracing = e->tr && e->tr->n < e->tr->max;
    int steady = a->cls == AAU_ITERSYNC && !a->varying && !mult && !tracing;
    /* a loop whose only variation is the owner of gathered elements is
       steady over a period of its iterations, when the owners have one */
    long long L = 1;
    int sw = 0;
    long long *sig = NULL;
    if (!steady && a->periodic && !mult && !tracing && !tr && var &&
        (sig = iter_signature(e, a, var, lo, st, n, &sw, &L)))
        steady = 1;
    /* a loop whose data decide its costs (a WHERE mask): once three
       iterations in a row repeated the one before, the rest is taken to
       repeat them too (a steady state of its data, noted in the report);
       --unroll interprets every iteration */
    int settling = !steady && a->settles && a->varying && !mult && !tracing && !tr && !e->unroll;
    if (settling)
        steady = 1;
    int need = settling ? 3 : 1, run = 0;
    int kept = steady;            /* the snapshots below are allocated */
    PtrVec sub = {0};
    Snap *s0 = NULL, *s1 = NULL;
    double *c0 = NULL, *d0 = NULL, *acc0[M_N] = {0}, *dacc0[M_N] = {0};
    if (steady) {
        for (int i = 0; i < a->kids.n; i++)
            subtree(e, a->kids.v[i], &sub);
        s0 = xmalloc((size_t)(sub.n + 1) * sizeof *s0);
        s1 = xmalloc((size_t)(sub.n + 1) * sizeof *s1);
        c0 = vec_new(e);
        d0 = vec_new(e);
        for (int m = 0; m < M_N; m++) {
            acc0[m] = vec_new(e);
            dacc0[m] = vec_new(e);
        }
    }
    long long it;
    int have_prev = 0, misses = 0;
    double vol0 = 0;
    long long nacc0 = 0;
    int lk = loop_push(e, a, n);
    e->in_trips += tr != NULL;
    int top = top_level(e, a);
    if (kept && e->bbv)
        bbv_block_push(e->bbv);
    for (it = 0; it < n; it++) {
        loop_iter(e, lk, it + 1);
        if (top)
            bbv_top(e->bbv, a->line, it + 1, 1);
        if (var)
            fi_set_int(e->fi, var, lo + it * st);
        if (steady && it % L == 0) {
            if (e->bbv)
                bbv_block_mark(e->bbv);
            /* a block of L iterations begins */
            vol0 = e->volume;
            nacc0 = e->naccess;
            memcpy(c0, e->clock, (size_t)e->P * sizeof *c0);
            for (int m = 0; m < M_N; m++)
                memcpy(acc0[m], e->acc[m], (size_t)e->P * sizeof(double));
            snap_take(&sub, s0);
        }
        long long v0 = e->visits;
        en_walk_list(e, &a->kids, mult);
        if (loop_ctl(e) || e->failed || !fi_charge(e->fi, e->visits - v0 + 1)) {
            it++;
            break;
        }
        if (!steady || it % L != L - 1)
            continue;
        /* the increments of this iteration */
        double d = e->clock[0] - c0[0];
        int uniform = 1;
        for (int p = 0; p < e->P && uniform; p++)
            if (fabs(e->clock[p] - c0[p] - d) > 1e-12 * (fabs(d) + 1e-30) + 1e-18)
                uniform = 0;
        int same = have_prev && uniform;
        for (int p = 0; p < e->P; p++) {
            double dc = e->clock[p] - c0[p];
            if (same && fabs(dc - d0[p]) > 1e-12 * (fabs(dc) + 1e-30) + 1e-18)
                same = 0;
            d0[p] = dc;
        }
        for (int m = 0; m < M_N; m++) {
            for (int p = 0; p < e->P; p++)
                acc0[m][p] = e->acc[m][p] - acc0[m][p];
            if (same && !same_vec(acc0[m], dacc0[m], e->P))
                same = 0;
            double *t = dacc0[m];
            dacc0[m] = acc0[m];
            acc0[m] = t;
        }
        snap_take(&sub, s1);
        run = same ? run + 1 : 0;
        if (same && run < need) {
            have_prev = uniform;
            continue;
        }
        if (same && settling)
            note_settled(e, a, it + 1, n - it - 1);
        if (!same) {
            have_prev = uniform;
            /* the processors' clocks may come back to the same relative
               state only every second or fourth iteration (a reduction
               whose rounds pair the processors unevenly): after four
               blocks that did not repeat, blocks of twice the length,
               the next one starting a block */
            if (!sig && !settling && ++misses >= 4 && L < 4 && (it + 1) % (2 * L) == 0) {
                L *= 2;
                misses = 0;
                have_prev = 0;
            }
            continue;
        }
        /* steady: the iterations that follow repeat this block of L, all
           of them, or (with a signature) the whole blocks that have this
           block's signature, the next then walked */
        long long blocks = (n - it - 1) / L;
        if (sig) {
            size_t bw = (size_t)L * (size_t)sw;
            const long long *cur = sig + (size_t)(it + 1 - L) * (size_t)sw;
            blocks = 0;
            while (it + 1 + (blocks + 1) * L <= n &&
                   !memcmp(cur, sig + (size_t)(it + 1 + blocks * L) * (size_t)sw,
                           bw * sizeof *sig))
                blocks++;
        }
        double k = (double)blocks;
        for (int p = 0; p < e->P; p++) {
            e->clock[p] += k * d0[p];
            for (int m = 0; m < M_N; m++)
                e->acc[m][p] += k * dacc0[m][p];
        }
        for (int i = 0; i < sub.n; i++) {
            Aau *b = sub.v[i];
            for (int m = 0; m < M_N; m++)
                b->m_sum[m] += k * (s1[i].m[m] - s0[i].m[m]);
            b->m_max += k * (s1[i].m[4] - s0[i].m[4]);
            b->m_min += k * (s1[i].m[5] - s0[i].m[5]);
            b->execs += k * (s1[i].m[6] - s0[i].m[6]);
            b->calls += k * (s1[i].m[7] - s0[i].m[7]);
            b->xmost += k * (s1[i].m[8] - s0[i].m[8]);
        }
        cache_extrapolate(e, vol0, nacc0, k);
        if (e->bbv)
            bbv_block_repeat(e->bbv, k, top, L);
        e->extrapolated += blocks * L;
        it += blocks * L;
        if (!sig) {
            it = n;                /* nothing is left */
            break;
        }
        have_prev = uniform;
    }
    e->in_trips -= tr != NULL;
    loop_pop(e);
    if (kept && e->bbv)
        bbv_block_pop(e->bbv);
    if (top)
        bbv_top(e->bbv, 0, 0, 0);
    if (var && !e->ctl)
        fi_set_int(e->fi, var, lo + it * st);
    free(sig);
    if (kept) {
        free(sub.v);
        free(s0);
        free(s1);
        buf_put(e, c0);
        buf_put(e, d0);
        for (int m = 0; m < M_N; m++) {
            buf_put(e, acc0[m]);
            buf_put(e, dacc0[m]);
        }
    }
}

void en_while_loop(Eng *e, Aau *a, const double *mult)
{
    begin(e);
    en_charge_all(e, a, M_OVHD, e->pr.loop_setup, mult);
    en_end(e, a, sum_of(e, mult), most_of(e, mult));
    const EngineTrips *tr = trips_of(e, a);
    int lk = loop_push(e, a, tr && tr->n != ENGINE_TRIPS_MAX ? tr->n : -1);
    e->in_trips += tr != NULL;
    int top = top_level(e, a);
    for (long long it = 0;; it++) {
        loop_iter(e, lk, it + 1);
        if (top)
            bbv_top(e->bbv, a->line, it + 1, 1);
        int i = 0;
        for (; i < a->kids.n && ((Aau *)a->kids.v[i])->pre; i++)
            en_walk(e, a->kids.v[i], mult);
        if (stopping(e) || e->failed)
            break;
        int go = 1;
        if (tr && tr->n != ENGINE_TRIPS_MAX) {
            go = it < tr->n;       /* N iterations, whatever the condition */
        } else if (a->while_cond && !fi_eval_bool(e->fi, a->while_cond, &go)) {
            if (tr) {
                go = 1;            /* max: only a known condition ends it */
            } else {
                fi_missing(e->fi, a->while_cond, a->line, "the DO WHILE condition");
                e->failed = 1;
                break;
            }
        }
        begin(e);
        en_charge_all(e, a, M_OVHD, e->pr.cond_test + e->pr.loop_iter, mult);
        en_end(e, a, 0, 0);
        if (!go)
            break;
        long long v0 = e->visits;
        en_walk_from(e, &a->kids, i, mult);   /* (a GOTO within the body resolved) */
        if (loop_ctl(e) || e->failed || !fi_charge(e->fi, e->visits - v0 + 1))
            break;
    }
    e->in_trips -= tr != NULL;
    loop_pop(e);
    if (top)
        bbv_top(e->bbv, 0, 0, 0);
}

/* Whether a branch only transfers control (EXIT, CYCLE, GOTO, RETURN,
 * STOP), as a convergence test's. */
static int only_ctl(const PtrVec *body)
{
    for (int i = 0; i < body->n; i++)
        if (!((const Aau *)body->v[i])->ctl)
            return 0;
    return body->n > 0;
}

void en_condt(Eng *e, Aau *a, const double *mult)
{
    for (int b = 0; b < a->nbranch; b++) {
        en_walk_list(e, &a->bpre[b], mult);
        if (stopping(e))
            return;
        int taken = 1;
        if (a->bcond[b]) {
            if (!fi_eval_bool(e->fi, a->bcond[b], &taken)) {
                if (e->in_trips && only_ctl(&a->bbody[b])) {
                    taken = 0;     /* --trips: an exit not known is not taken */
                } else {
                    fi_missing(e->fi, a->bcond[b], a->line, "a branch condition");
                    e->failed = 1;
                    return;
                }
            }
            begin(e);
            en_charge_all(e, a, M_OVHD, e->pr.cond_test + (taken ? e->pr.cond_taken : 0), mult);
            en_end(e, a, sum_of(e, mult), most_of(e, mult));
        }
        if (taken) {
            en_walk_list(e, &a->bbody[b], mult);
            return;
        }
    }
}

/* Whether the AAUs of l make no call and no communication. */
static int leaf(const PtrVec *l)
{
    for (int i = 0; i < l->n; i++) {
        const Aau *a = l->v[i];
        if (a->cls == AAU_CALL || a->cls == AAU_COMM || a->cls == AAU_SYNC ||
            a->cls == AAU_SYNCSEQ || !leaf(&a->kids))
            return 0;
        for (int b = 0; b < a->nbranch; b++)
            if (!leaf(&a->bpre[b]) || !leaf(&a->bbody[b]))
                return 0;
    }
    return 1;
}

/* LBOUND (ub 0) or UBOUND (ub 1) of dimension d of the array named by
 * actual, in the functional interpreter's frame now; 0 when unknown. */
static int actual_bound(Eng *e, const Node *actual, int d, int ub, long long *v)
{
    Node dn = {0}, ref = {0};
    dn.kind = AST_INT_CONST;
    dn.type = (Type){TY_INTEGER, 4};
    dn.u.konst.ival = d + 1;
    void *args[2] = {(void *)actual, &dn};
    ref.kind = AST_REF;
    ref.loc = actual->loc;
    ref.type = dn.type;
    ref.u.ref.id = ub ? "ubound" : "lbound";
    ref.u.ref.what = REF_INTRINSIC;
    ref.u.ref.args = (PtrVec){args, 2, 2};
    return fi_eval_int(e->fi, &ref, v);
}

/* A mapped ALLOCATABLE array passed whole goes to a dummy of its bounds
 * (passing.c); the SPMD program stops where they differ, and so does the
 * prediction. bounds: the actuals' bounds, taken in the caller's frame;
 * this is called in the callee's. */
static void check_passed_bounds(Eng *e, const Aau *a, const long long (*bounds)[2])
{
    const PtrVec *passed = &a->callee->passed;
    for (int i = 0, k = 0; i < passed->n; i++) {
        const SpArr *r = passed->v[i];
        for (int d = 0; r->passed >= 2 && d < r->rank; d++, k++) {
            long long lo, hi;
            if (bounds[k][0] > bounds[k][1] + 1 || !fi_eval_int(e->fi, r->lo[d], &lo)
                || !fi_eval_int(e->fi, r->hi[d], &hi))
                continue;             /* not known: no check */
            if (lo != bounds[k][0] || hi != bounds[k][1]) {
                fi_error_once(e->fi, a, a->call->loc, "the array of bounds %lld:%lld in "
                              "dimension %d is passed to the dummy '%s' of bounds %lld:%lld "
                              "(the SPMD program stops here: hpfc passes a mapped ALLOCATABLE "
                              "array to a dummy of its bounds)", bounds[k][0], bounds[k][1],
                              d + 1, r->name, lo, hi);
                e->failed = 1;
            }
        }
    }
}

enum { MAX_CALL_DEPTH = 200 };   /* as the functional interpreter's (fi.c MAX_DEPTH) */

void en_call(Eng *e, Aau *a, const double *mult)
{
    const PtrVec *body = aag_unit_body(e->g, a->callee);
    int nargs = a->call ? a->call->u.ref.args.n : 0;
    begin(e);
    /* an inlined call costs its body only */
    if (!(e->inline_calls && body && leaf(body)))
        en_charge_all(e, a, M_OVHD, e->pr.call_ovhd + nargs * e->pr.call_arg, mult);
    en_end(e, a, sum_of(e, mult), most_of(e, mult));
    if (a->home)
        a->home->calls += sum_of(e, mult) / e->NP;
    if (!body)
        return;
    long long bounds[4 * MAX_RANK][2];
    int nb = 0;
    for (int i = 0; a->call && i < a->callee->passed.n; i++) {
        const SpArr *r = a->callee->passed.v[i];
        const Node *act = r->dummy <= a->call->u.ref.args.n
                          ? a->call->u.ref.args.v[r->dummy - 1] : NULL;
        for (int d = 0; r->passed >= 2 && d < r->rank; d++) {
            long long *b = nb < 4 * MAX_RANK ? bounds[nb++] : NULL;
            if (b && (!act || !actual_bound(e, act, d, 0, &b[0])
                      || !actual_bound(e, act, d, 1, &b[1]))) {
                b[0] = 1;             /* unknown: marked empty, not checked */
                b[1] = -1;
            }
        }
    }
    if (e->depth >= MAX_CALL_DEPTH) {
        /* recursion the program does not end (or ends too deep) */
        fi_error_once(e->fi, a, a->stmt ? a->stmt->loc : (Loc){0}, "procedure calls nested "
                      "more than %d deep: the prediction stops there", MAX_CALL_DEPTH);
        e->failed = 1;
        return;
    }
    fi_enter(e->fi, a->callee, a->call);
    if (nb && nb <= 4 * MAX_RANK)
        check_passed_bounds(e, a, (const long long (*)[2])bounds);
    e->depth++;
    double red_len = e->red_len;   /* the callee's own reductions are no row's */
    e->red_len = 0;
    en_walk_list(e, body, mult);
    e->red_len = red_len;
    e->depth--;
    if (e->ctl == AST_RETURN)
        e->ctl = 0;
    fi_leave(e->fi);
}
