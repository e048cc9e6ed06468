/* engine_seq.c - the cost of a Seq AAU: operations, library functions,
 * memory accesses with the cache model and the bandwidth of the memory
 * hierarchy. */
#include <config.h>

#include "engine_int.h"

/* ---- Seq costs and the cache model ------------------------------------- */

static CacheVar *cache_var(Eng *e, const char *name)
{
    unsigned h = 2166136261u;
    for (const char *c = name; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    for (int i = 0; i < e->ncvar; i++)
        if (e->cvar[i].hash == h && strcmp(e->cvar[i].name, name) == 0)
            return &e->cvar[i];
    if (e->ncvar == e->capcvar) {
        e->capcvar = e->capcvar ? 2 * e->capcvar : 32;
        e->cvar = xrealloc(e->cvar, (size_t)e->capcvar * sizeof *e->cvar);
    }
    e->cvar[e->ncvar] = (CacheVar){name, h, -INFINITY, 0, 0};
    return &e->cvar[e->ncvar++];
}

/* Bytes of a variable held by the busiest processor. */
static double footprint(Eng *e, const AauAccess *x)
{
    if (x->arr)
        return en_local_elems(e, x->arr, -1, -1) * x->elsize;
    if (x->sym && x->sym->rank) {
        double n = 1;
        for (int d = 0; d < x->sym->rank; d++)
            n *= x->sym->bounds_known[d] ? (double)(x->sym->hi[d] - x->sym->lo[d] + 1) : 1e6;
        return n * x->elsize;
    }
    return 1e18;                  /* a temporary buffer: streamed */
}


/* Whether the footprint of x cannot change during the run. */
static int footprint_fixed(const AauAccess *x)
{
    if (x->arr)
        for (int d = 0; d < x->arr->rank; d++) {
            int t = x->arr->tmpl ? x->arr->tdim[d] : -1;
            if (!(t >= 0 && x->arr->tmpl->gdim[t] >= 0) &&
                (!spmd_invariant(x->arr->lo[d]) || !spmd_invariant(x->arr->hi[d])))
                return 0;
        }
    return 1;
}

/* The footprint of access i: evaluated the first time; when fixed, kept,
 * and later only the steps of its evaluation are charged. */
static double memo_footprint(Eng *e, SeqMemo *mm, int i, const AauAccess *x)
{
    if (mm->fpk[i] > 0 && (!mm->fp_steps[i] || fi_spend(e->fi, mm->fp_steps[i])))
        return mm->fp[i];
    long long steps0 = fi_steps(e->fi);
    double fp = footprint(e, x);
    if (!mm->fpk[i] && !e->failed) {
        mm->fpk[i] = footprint_fixed(x) ? 1 : -1;
        mm->fp[i] = fp;
        mm->fp_steps[i] = fi_steps(e->fi) - steps0;
    }
    return fp;
}

/* A library call's time: its parameter; a class of its arguments
 * (lib.sin.reduced, analysis/aag_ops.c) that the SAG does not give costs
 * what the function does (lib.sin). */
static double lib_seconds(const Eng *e, const char *param)
{
    const char *dot = strncmp(param, "lib.", 4) ? NULL : strchr(param + 4, '.');
    if (dot && !sag_lookup(e->node, param)) {
        char fn[96];
        snprintf(fn, sizeof fn, "%.*s", (int)(dot - param), param);
        return sag_seconds(e->node, fn, e->pr.lib_default);
    }
    return sag_seconds(e->node, param, e->pr.lib_default);
}

static SeqMemo *seq_memo(Eng *e, const Aau *a)
{
    if (!e->memo)
        e->memo = xcalloc((size_t)e->g->naau, sizeof *e->memo);
    SeqMemo *m = &e->memo[a->id - 1];
    if (m->ready)
        return m;
    const AauOps *o = &a->ops;
    int vec = vectorized(e, a);
    double t = 0;
    for (int k = 0; k < OPC_N; k++)
        t += o->op[k] * (vec ? e->pr.vec_op[k] : e->pr.op[k]);
    for (int i = 0; i < o->nlib; i++) {
        /* in a vectorized loop the vector variant's element where the SAG
           has it (vec.lib.exp), else the call scaled as the add is */
        int m = vec ? aag_vec_math_index(o->lib[i].param) : -1;
        if (m >= 0 && (e->pr.vec_lib_have >> m & 1))
            t += o->lib[i].n * e->pr.vec_lib[m];
        else
            t += o->lib[i].n * lib_seconds(e, o->lib[i].param) * (vec ? e->pr.vec_ratio : 1);
    }
    t += o->allocs * e->pr.alloc;
    m->fixed = t;
    m->div = 0;
    for (int k = OPC_IDIV; k <= OPC_DDIV; k += OPC_FDIV - OPC_IDIV)
        m->div += o->op[k] * (vec ? e->pr.vec_op[k] : e->pr.op[k]);
    m->overlap = a->loop ? (vec ? e->pr.vec_iter : e->pr.loop_iter) : 0;
    m->chain = a->chain ? (a->chain == HPFRT_MAX || a->chain == HPFRT_MIN ? e->pr.red_max
                           : a->chain == HPFRT_PRODUCT                    ? e->pr.red_prod
                                                                          : e->pr.red_sum) -
                              (vec ? e->pr.vec_iter : e->pr.loop_iter)
                        : 0;
    m->cv = xmalloc((size_t)(o->nacc ? o->nacc : 1) * sizeof *m->cv);
    m->fp = xmalloc((size_t)(o->nacc ? o->nacc : 1) * sizeof *m->fp);
    m->fpk = xcalloc((size_t)(o->nacc ? o->nacc : 1), sizeof *m->fpk);
    m->fp_steps = xcalloc((size_t)(o->nacc ? o->nacc : 1), sizeof *m->fp_steps);
    m->cost = xmalloc((size_t)(o->nacc ? o->nacc : 1) * 4 * sizeof *m->cost);
    const Params *pr = &e->pr;
    /* a hit: in a vectorized loop, a share of a vector's load or store */
    double fh = vec ? pr->vec_fetch : pr->fetch_hit, sh = vec ? pr->vec_store : pr->store_hit;
    for (int i = 0; i < o->nacc; i++) {
        const AauAccess *x = &o->acc[i];
        for (int f = 0; f < 2; f++) {
            double miss = 0;
            if (f)
                miss = pr->dc_block > 0 ? fmin(1.0, (double)llabs(x->stride) / pr->dc_block) : 1;
            m->cost[4 * i + 2 * f] = x->loads * (miss * pr->fetch_miss + (1 - miss) * fh);
            m->cost[4 * i + 2 * f + 1] = x->stores * (miss * pr->store_miss + (1 - miss) * sh);
        }
        m->cv[i] = -1;
        m->fp[i] = NAN;
        if (x->scalar || x->stride == 0)
            continue;
        m->cv[i] = (int)(cache_var(e, x->var) - e->cvar);
    }
    m->ready = 1;
    return m;
}

/* With the memory hierarchy of the SAG: the time to fetch a line of data
 * of which `need` bytes must be held (the data and what was touched since
 * its last use), from the first level past the first that holds it, or
 * from memory; -1 when the SAG does not say. */
/* The processors that run at once on one node and share its caches and
 * memory: the node's processors, or fewer when the run has fewer. */
static double node_sharing(const Eng *e)
{
    double node = sag_unit_count(e->node) > 0 ? sag_unit_count(e->node) : 1;
    return fmin(e->NP, node);
}

static double level_fetch(const Eng *e, double need)
{
    const Params *pr = &e->pr;
    double sharing = node_sharing(e);
    for (int l = 1; l < pr->nlev; l++)
        if (need <= pr->lev_size[l] / fmin(pr->lev_shared[l], sharing))
            return pr->lev_fetch[l];
    return pr->fetch_miss;
}

/* Memory time of one execution of the accesses, by the paper's heuristic:
 * a program-level count of the bytes touched, and per variable the count
 * at its last access. A variable whose data, plus everything touched since
 * its last access, fits in the effective cache is found there; otherwise
 * each access misses as often as its stride crosses cache lines. */
static double memory_time(Eng *e, const AauOps *o, SeqMemo *mm)
{
    const Params *pr = &e->pr;
    double t = 0, touched = 0;
    for (int i = 0; i < o->nacc; i++) {
        const AauAccess *x = &o->acc[i];
        if (x->scalar)
            continue;
        int missed = 0;
        double need = 0;
        if (x->stride != 0) {
            CacheVar *cv = &e->cvar[mm->cv[i]];
            double fp = memo_footprint(e, mm, i, x);
            if (!cv->touched && (x->arr || (x->sym && x->sym->rank))) {
                /* the program's own arrays: their pages are mapped at the
                   first store (temporaries reuse the heap) */
                cv->touched = 1;
                if (pr->page_first > 0 && fp < 1e17)
                    e->first_touch += ceil(fp / pr->page) * pr->page_first;
            }
            need = e->volume - cv->last + fp;
            int fits = pr->dc_eff > 0 && need <= pr->dc_eff;
            missed = !fits;
            cv->last = e->volume;
            cv->at = ++e->naccess;
            touched += fp < 1e17 ? fp : 0;
            /* a temporary buffer holds an element of each iteration of its
               loop: its share of the working set (the cache heuristic above
               keeps the paper's rule: streamed) */
            e->ws += fp < 1e17 ? fp : e->n_max * x->elsize;
        }
        if (missed && pr->nlev > 1 && llabs(x->stride) <= pr->prefetch) {
            /* a stream the prefetchers follow: its lines arrive ahead of
               the accesses, at the bandwidth of traffic_time() */
            t += mm->cost[4 * i] + mm->cost[4 * i + 1];
            continue;
        }
        if (missed && e->pr.nlev > 1) {
            /* with the hierarchy: a miss of the first level is served by
               the level the data, and what was touched since, fit in */
            double lat = level_fetch(e, need);
            if (lat >= 0) {
                double miss = pr->dc_block > 0 ? fmin(1.0, (double)llabs(x->stride) / pr->dc_block) : 1;
                t += x->loads * (miss * lat + (1 - miss) * pr->fetch_hit);
                t += x->stores * (miss * lat + (1 - miss) * pr->store_hit);
                continue;
            }
        }
        t += mm->cost[4 * i + 2 * missed];
        t += mm->cost[4 * i + 2 * missed + 1];
    }
    e->volume += touched;
    return t;
}

/* The bandwidth bound of one execution (doc/validation.md, "The model on
 * a modern processor"): the time of the data its accesses move, at the
 * level its working set fits in. A processor whose cache level is shared
 * by k others, all running, has 1/k of it; main memory gives each of the P
 * processors of a node at most a P-th of the node's bandwidth. Elements
 * used again at each iteration (stride 0) stay in registers or the first
 * level and are not counted.
 *
 * A stream whose elements lie less than a line apart moves its bytes at
 * the level's bandwidth (cache.lN.bandwidth, measured by a vectorized
 * sweep). A stream strided by a line or more moves a line an element, at
 * the level's time for a line (cache.lN.fetch, .store: a load or a store
 * strided by the line, measured); past the second level the hardware
 * fetches lines in pairs, so an element takes up to two (stride / line,
 * at most 2). In the first level a strided element is a hit. */
static double traffic_time(Eng *e, const AauOps *o, double ws)
{
    const Params *pr = &e->pr;
    double line = pr->dc_block > 0 ? pr->dc_block : 64;
    double rd = 0, wr = 0, lrd = 0, lwr = 0, lpair = 0, hit = 0;
    for (int i = 0; i < o->nacc; i++) {
        const AauAccess *x = &o->acc[i];
        if (x->scalar || x->stride == 0)
            continue;
        /* a variable's references of one execution (a stencil's
           neighbours) share its lines: its data moves once */
        double s = (double)llabs(x->stride);
        if (s < line) {
            rd += x->loads > 0 ? s : 0;
            wr += x->stores > 0 ? s : 0;
        } else if (x->stores > 0) {
            hit += x->elsize;
            lwr += 1;             /* filled, then written back */
            lpair += fmin(s, 2 * line) / line - 1;
        } else if (x->loads > 0) {
            hit += x->elsize;
            lrd += 1;
            lpair += fmin(s, 2 * line) / line - 1;
        }
    }
    if (rd + wr + lrd + lwr <= 0)
        return 0;
    double sharing = node_sharing(e);
    for (int l = 0; l < pr->nlev; l++)
        if (ws <= pr->lev_size[l] / fmin(pr->lev_shared[l], sharing)) {
            double t = rd / pr->lev_rd[l] + wr / pr->lev_wr[l];
            if (l == 0)
                return t + hit / pr->lev_rd[0];
            if (pr->lev_fetch[l] < 0)   /* the SAG has no time for a line */
                return t + (lrd + lwr + lpair) * line / pr->lev_rd[l];
            return t + lrd * pr->lev_fetch[l] + lwr * pr->lev_store[l] +
                   (l > 1 ? lpair * pr->lev_fetch[l] : 0);
        }
    double share = pr->mem_node > 0 ? pr->mem_node / sharing : INFINITY;
    double mrd = fmin(pr->mem_rd, share), mwr = fmin(pr->mem_wr, share);
    return rd / mrd + wr / mwr +
           (lrd + lpair) * fmax(pr->fetch_miss, line / mrd) +
           lwr * fmax(pr->store_miss, line / mrd + line / mwr);
}

double en_ops_time(Eng *e, const Aau *a)
{
    SeqMemo *m = seq_memo(e, a);
    /* calls of the program's functions: their overhead and bodies are the
       Call AAUs that follow */
    e->ws = 0;
    e->first_touch = 0;
    double t = m->fixed + memory_time(e, &a->ops, m);
    /* the divider works apart from the other units: a share of the rest
       (or of the divides, when they are the shorter) runs beside them */
    if (e->pr.div_overlap > 0 && m->div > 0)
        t -= e->pr.div_overlap * fmin(m->div, t - m->div);
    if (e->pr.nlev) {
        /* the processor computes while the data streams: the slower of the
           two bounds the execution; in a FORALL the loop's own work of the
           iteration (charged by its level) streams along too */
        double tb = traffic_time(e, &a->ops, e->ws) - m->overlap;
        if (tb > t)
            t = tb;
    }
    /* a reduction's chain: an element waits for the one before, the
       latency of the combining operation (red.*: the loop's own work
       included, which its level charges). In an inline reduction, a row of
       L elements, the next row's first red.window elements run while a
       chain ends: an element waits (1 - W/L) of the latency (none when the
       window holds the row) */
    double chain = m->chain;
    if (chain > 0 && e->pr.red_window > 0 && e->red_len > 0)
        chain = (chain + e->pr.loop_iter) * fmax(0, 1 - e->pr.red_window / e->red_len) -
                e->pr.loop_iter;
    if (chain > t)
        t = chain;
    return t;
}
