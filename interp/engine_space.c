/* engine_space.c - FORALL nests for the engine: the iterations each
 * processor owns, counted in closed form where the owner computes rule
 * allows, point by point otherwise. */
#include <config.h>

#include "engine_int.h"

/* ---- FORALL nests: iterations per processor ------------------------------ */

/* The grid dimension a FORALL index is bound to, or -1. */
static int index_gdim(const SpIndex *ix)
{
    if (!ix->dist || !ix->arr || !ix->arr->tmpl)
        return -1;
    int t = ix->arr->tdim[ix->dim];
    return t >= 0 ? ix->arr->tmpl->gdim[t] : -1;
}

static void index_map(Eng *e, const SpIndex *ix, int line, IxMap *m)
{
    m->gd = index_gdim(ix);
    if (m->gd < 0)
        return;
    const SpArr *arr = ix->arr;
    long long a = ix->a_const ? en_eval_int(e, ix->a, 1, line, "subscript") : 0;
    long long b = en_eval_int(e, ix->b, 0, line, "subscript");
    long long ca, cb;
    en_align_coef(e, arr, ix->dim, &ca, &cb);
    m->hd = &en_tmpl_of(e, arr->tmpl)->d[arr->tdim[ix->dim]];
    m->A = ca * a;
    m->B = ca * b + cb;
}

void en_index_maps(Eng *e, const SpLoop *l, IxMap *map)
{
    for (int k = 0; k < l->nidx; k++)
        index_map(e, &l->idx[k], 0, &map[k]);
}

IxCache *en_ix_cached(Eng *e, const SpIndex *ix)
{
    if (!e->ixcap) {
        e->ixcap = 256;
        e->ixc = xcalloc(e->ixcap, sizeof *e->ixc);
    }
    for (size_t i = hash_u64((uintptr_t)ix, e->ixcap);; i = (i + 1) & (e->ixcap - 1))
        if (e->ixc[i].ix == ix)
            return &e->ixc[i];
        else if (!e->ixc[i].ix) {
            if (2 * (e->ixused + 1) > e->ixcap) {
                IxCache *old = e->ixc;
                size_t oc = e->ixcap;
                e->ixcap *= 2;
                e->ixc = xcalloc(e->ixcap, sizeof *e->ixc);
                e->ixused = 0;
                for (size_t j = 0; j < oc; j++)
                    if (old[j].ix)
                        *en_ix_cached(e, old[j].ix) = old[j];
                free(old);
                return en_ix_cached(e, ix);
            }
            e->ixused++;
            e->ixc[i].ix = ix;
            e->ixc[i].n = -1;
            return &e->ixc[i];
        }
}

/* Trips of index ix for each coordinate of its grid dimension (*ncoord of
 * them; the engine's, not to be freed). */

/* Whether the trips of ix can change during the run: its bounds, stride,
 * subscript coefficients and alignment are constants. */
static int index_invariant(const SpIndex *ix)
{
    if (!spmd_invariant(ix->lo) || !spmd_invariant(ix->hi) || !spmd_invariant(ix->st))
        return 0;
    if (index_gdim(ix) < 0)
        return 1;
    return (!ix->a_const || spmd_invariant(ix->a)) && spmd_invariant(ix->b) &&
           (ix->arr->cknown[ix->dim] ||
            (spmd_invariant(ix->arr->alpha[ix->dim]) && spmd_invariant(ix->arr->beta[ix->dim])));
}

const double *en_index_counts(Eng *e, const SpIndex *ix, int line, int *ncoord)
{
    IxCache *k0 = en_ix_cached(e, ix);
    if (k0->n >= 0 && k0->inv > 0 && (!k0->steps || fi_spend(e->fi, k0->steps))) {
        *ncoord = k0->n;
        return k0->c;
    }
    long long steps0 = fi_steps(e->fi);
    long long lo = en_eval_int(e, ix->lo, 1, line, "FORALL bound");
    long long hi = en_eval_int(e, ix->hi, 0, line, "FORALL bound");
    long long st = en_eval_int(e, ix->st, 1, line, "FORALL stride");
    if (st == 0) {
        fi_error_once(e->fi, ix, ix->st->loc, "FORALL index with a zero stride");
        e->failed = 1;
        st = 1;
    }
    IxMap m;
    index_map(e, ix, line, &m);
    long long steps = fi_steps(e->fi) - steps0;
    IxCache *k = en_ix_cached(e, ix);
    if (k->n >= 0 && k->lo == lo && k->hi == hi && k->st == st &&
        (m.gd < 0 ? !k->hd : k->hd == m.hd && k->A == m.A && k->B == m.B)) {
        *ncoord = k->n;
        return k->c;
    }
    free(k->c);
    signed char inv = k->inv ? k->inv : index_invariant(ix) ? 1 : -1;
    *k = (IxCache){ix, lo, hi, st, 0, 0, NULL, 1, NULL, e->failed ? -1 : inv, steps};
    if (m.gd < 0) {
        k->c = xmalloc(sizeof *k->c);
        k->c[0] = (double)hpfmap_trip((long)lo, (long)hi, (long)st);
        *ncoord = 1;
        return k->c;
    }
    int np = m.hd->nprocs;
    double *c = xcalloc((size_t)np, sizeof *c);
    HpfSeg buf[64], *seg = buf;
    long max = 64;
    for (int p = 0; p < np; p++) {
        long ns;
        while ((ns = hpfmap_segments(m.hd, p, (long)m.A, (long)m.B, (long)lo, (long)hi, (long)st,
                                     seg, max)) > max) {
            max = ns;
            seg = xrealloc(seg == buf ? NULL : seg, (size_t)max * sizeof *seg);
        }
        for (long j = 0; j < ns; j++)
            c[p] += (double)((seg[j].i2 - seg[j].i1) / seg[j].is + 1);
    }
    if (seg != buf)
        free(seg);
    k->hd = m.hd;
    k->A = m.A;
    k->B = m.B;
    k->n = np;
    k->c = c;
    *ncoord = np;
    return c;
}

/* Grid coordinates of the processor that runs iteration point pt (bound
 * dimensions only; others stay 0). */
void en_point_coords(Eng *e, const SpLoop *l, const IxMap *map, const Grid *g, const FiSpace *sp,
                         long pt, int *coord)
{
    for (int d = 0; d < g->rank; d++)
        coord[d] = 0;
    for (int k = 0; k < l->nidx; k++)
        if (map[k].gd >= 0)
            coord[map[k].gd] = owner_of(e, map[k].hd, (long)(map[k].A * sp->idx[k][pt] + map[k].B));
}

/* The counts of the last masked FORALLs without guards, for the next
 * one with the same iteration space and mapping (the statements of a
 * WHERE construct share their mask). */
enum { PC_KEEP = 4 };
typedef struct PcCache {
    const SpLoop *l;              /* the loop counted (NULL: free) */
    int masked;
    const Grid *g;
    IxMap map[MAX_RANK];
    double *out;
} PcCache;

static int same_maps(const SpLoop *l, const IxMap *a, const IxMap *b)
{
    for (int k = 0; k < l->nidx; k++)
        if (a[k].gd != b[k].gd ||
            (a[k].gd >= 0 && (a[k].hd != b[k].hd || a[k].A != b[k].A || a[k].B != b[k].B)))
            return 0;
    return 1;
}

/* Counts of the points of the space on the processors with zero
 * coordinates in the unbound grid dimensions (no guards): the owner of an
 * index value from a table when the values span a small range. */
static void count_points(Eng *e, const SpLoop *l, const Grid *g, const IxMap *map,
                         const FiSpace *sp, int masked, double *out)
{
    int linear = !e->ec, used[MAX_RANK] = {0};
    long long vmin[MAX_RANK], span[MAX_RANK], spans = 0;
    int *tab[MAX_RANK] = {0};
    long gmul[MAX_RANK];
    long m = 1;
    for (int d = 0; d < g->rank; d++) {
        gmul[d] = m;
        m *= g->shape[d];
    }
    for (int k = 0; k < l->nidx; k++) {
        if (map[k].gd < 0)
            continue;
        if (used[map[k].gd]++)
            linear = 0;           /* two indices on one grid dimension: the last wins */
        /* the space is the whole product of the index ranges, first index
           fastest: each index takes its extreme values at the first and
           the last point */
        const long long *x = sp->idx[k];
        long long a = sp->n ? x[0] : 0, b = sp->n ? x[sp->n - 1] : 0;
        vmin[k] = a < b ? a : b;
        span[k] = (a < b ? b - a : a - b) + 1;
        spans += span[k];
    }
    if (spans * 8 > sp->n)
        linear = 0;               /* few points for the table's entries */
    if (linear) {
        /* hpfmap_rank is a sum over the coordinates: each index adds its
           own part of the rank */
        int gray = hpfmap_placement(e->pr.placement, g->rank, g->shape);
        for (int k = 0; k < l->nidx; k++) {
            if (map[k].gd < 0)
                continue;
            tab[k] = xmalloc((size_t)span[k] * sizeof *tab[k]);
            for (long long v = 0; v < span[k]; v++)
                tab[k][v] = hpfmap_place(owner_of(e, map[k].hd,
                                                  (long)(map[k].A * (vmin[k] + v) + map[k].B)),
                                         gray) * (int)gmul[map[k].gd];
        }
        const unsigned char *mk = masked ? sp->mask : NULL;
        int nt = 0, tk[MAX_RANK];
        for (int k = 0; k < l->nidx; k++)
            if (tab[k])
                tk[nt++] = k;
        if (nt == 1) {
            const int *t0 = tab[tk[0]];
            const long long *x0 = sp->idx[tk[0]], v0 = vmin[tk[0]];
            for (long pt = 0; pt < sp->n; pt++)
                if (!mk || mk[pt])
                    out[t0[x0[pt] - v0]] += 1;
        } else {
            for (long pt = 0; pt < sp->n; pt++) {
                if (mk && !mk[pt])
                    continue;
                int r = 0;
                for (int i = 0; i < nt; i++)
                    r += tab[tk[i]][sp->idx[tk[i]][pt] - vmin[tk[i]]];
                out[r] += 1;
            }
        }
        for (int k = 0; k < l->nidx; k++)
            free(tab[k]);
        return;
    }
    for (long pt = 0; pt < sp->n; pt++) {
        if (masked && sp->mask && !sp->mask[pt])
            continue;
        int coord[MAX_RANK];
        en_point_coords(e, l, map, g, sp, pt, coord);
        out[en_proc_of(e, g->rank, g->shape, coord)] += 1;
    }
}

/* Counts by processor counted on the processors with zero coordinates in
 * the grid dimensions no index is bound to (bound[d] 0): with classes the
 * mean of a class, then copied along those dimensions (none but the first
 * copy of a primary loop's driver counts). */
void en_spread_counts(Eng *e, const SpLoop *l, const Grid *g, const int *bound, double *out)
{
    for (int p = 0; e->cnt && p < e->P; p++)
        out[p] /= e->cnt[p];
    for (int p = 0; p < e->P; p++) {
        int coord[MAX_RANK];
        memcpy(coord, coords_of(g, p), (size_t)g->rank * sizeof *coord);
        int base = 1;
        for (int d = 0; d < g->rank; d++)
            if (!bound[d] && coord[d]) {
                base = 0;
                coord[d] = 0;
            }
        if (!base)
            out[p] = out[en_proc_of(e, g->rank, g->shape, coord)];
    }
    if (l->primary)
        for (int p = 0; p < e->P; p++) {
            int coord[MAX_RANK];
            memcpy(coord, coords_of(g, p), (size_t)g->rank * sizeof *coord);
            for (int d = 0; d < g->rank; d++)
                if (!bound[d] && coord[d])
                    out[p] = 0;
        }
}

/* Counts by processor of the points of the loop (under the mask when
 * masked is set, inside the guards): counted on the processors with zero
 * coordinates in the unbound grid dimensions, then copied along them. */
static void point_counts(Eng *e, const SpLoop *l, int masked, double *out, int line)
{
    FiSpace sp;
    memset(out, 0, (size_t)e->P * sizeof *out);
    IxMap map[MAX_RANK];
    int have_map = 0;
    Grid *g = en_arr_grid(e, l->arr);
    PcCache *pc = NULL;
    if (!l->nguard && g) {
        if (!e->pcc)
            e->pcc = xcalloc(PC_KEEP, sizeof *e->pcc);
        for (int i = 0; i < PC_KEEP; i++) {
            PcCache *c = &e->pcc[i];
            if (!c->l || c->masked != masked || c->g != g || c->l->nidx != l->nidx ||
                c->l->primary != l->primary)
                continue;
            int k = 0;
            while (k < l->nidx && index_gdim(&c->l->idx[k]) == index_gdim(&l->idx[k]))
                k++;
            if (k < l->nidx || !fi_space_share(e->fi, c->l, l))
                continue;
            /* fi holds l's space now, as fi_space would have made it */
            en_index_maps(e, l, map);
            have_map = 1;
            if (same_maps(l, map, c->map)) {
                memcpy(out, c->out, (size_t)e->P * sizeof *out);
                c->l = l;
                return;
            }
            break;
        }
    }
    if (!fi_space(e->fi, l, &sp)) {
        fi_missing_space(e->fi, l, line);
        e->failed = 1;
        return;
    }
    if (!g) {
        long n = 0;
        for (long pt = 0; pt < sp.n; pt++)
            n += !masked || !sp.mask || sp.mask[pt];
        for (int p = 0; p < e->P; p++)
            out[p] = (double)n;
        return;
    }
    int bound[MAX_RANK] = {0};
    for (int k = 0; k < l->nidx; k++)
        if (index_gdim(&l->idx[k]) >= 0)
            bound[index_gdim(&l->idx[k])] = 1;
    unsigned char *keep = NULL;
    int gcoord_all = 0;
    long long *gsub[MAX_RANK] = {0};
    /* the array the guards hold: the left-hand side's, or a reduction's
       driver; for a reduction, an element of it made of the guards'
       subscripts (the other dimensions' are not read) */
    const SpArr *garr = l->lhs ? ((const SpRef *)l->lhs->ir)->arr : l->arr;
    const Node *gref = l->lhs;
    Node syn;
    void *synargs[MAX_RANK];
    if (l->nguard && !gref && garr) {
        memset(&syn, 0, sizeof syn);
        syn.kind = AST_REF;
        syn.u.ref.what = REF_ELEMENT;
        syn.u.ref.id = garr->name;
        for (int d = 0; d < garr->rank; d++)
            synargs[d] = l->guard[0].sub;
        for (int k = 0; k < l->nguard; k++)
            synargs[l->guard[k].dim] = l->guard[k].sub;
        syn.u.ref.args = (PtrVec){synargs, garr->rank, garr->rank};
        gref = &syn;
    }
    if (l->nguard && garr) {
        /* guards: the left-hand element must be held here */
        FiRefs rf;
        keep = xcalloc((size_t)sp.n, 1);
        if (fi_refs(e->fi, l, gref, l->ctx_iter, &rf)) {
            for (int d = 0; d < rf.rank; d++) {
                gsub[d] = xmalloc((size_t)sp.n * sizeof **gsub);
                for (long i = 0; i < rf.n; i++)
                    gsub[d][rf.point[i]] = rf.sub[d][i];
            }
            for (long i = 0; i < rf.n; i++)
                keep[rf.point[i]] = 1;
            gcoord_all = 1;
        }
        for (int k = 0; k < l->nguard; k++) {
            int t = garr->tdim[l->guard[k].dim];
            if (t >= 0 && garr->tmpl->gdim[t] >= 0)
                bound[garr->tmpl->gdim[t]] = 1;
        }
    }
    if (!have_map)
        en_index_maps(e, l, map);
    if (!keep) {
        count_points(e, l, g, map, &sp, masked, out);
    } else {
        for (long pt = 0; pt < sp.n; pt++) {
            if (masked && sp.mask && !sp.mask[pt])
                continue;
            if (keep && !keep[pt])
                continue;
            int coord[MAX_RANK];
            en_point_coords(e, l, map, g, &sp, pt, coord);
            if (gcoord_all) {
                Tmpl *m = en_tmpl_of(e, garr->tmpl);
                for (int k = 0; k < l->nguard; k++) {
                    int d = l->guard[k].dim, t = garr->tdim[d];
                    if (t >= 0 && garr->tmpl->gdim[t] >= 0)
                        coord[garr->tmpl->gdim[t]] =
                            owner_of(e, &m->d[t], en_cell_of(e, garr, d, gsub[d][pt]));
                }
            }
            out[en_proc_of(e, g->rank, g->shape, coord)] += 1;
        }
    }
    for (int d = 0; d < MAX_RANK; d++)
        free(gsub[d]);
    free(keep);
    en_spread_counts(e, l, g, bound, out);
    if (!l->nguard && !e->failed) {
        /* kept for a loop of the same space and mapping */
        if (!pc) {
            pc = &e->pcc[e->npcc++ % PC_KEEP];
            if (!pc->out)
                pc->out = xmalloc((size_t)e->P * sizeof *pc->out);
        }
        pc->l = l;
        pc->masked = masked;
        pc->g = g;
        memcpy(pc->map, map, sizeof pc->map);
        memcpy(pc->out, out, (size_t)e->P * sizeof *out);
    }
}

/* Fills e->lvl, e->n_all and e->n_true for the loop. */
void en_loop_counts(Eng *e, const SpLoop *l, int line)
{
    Grid *g = en_arr_grid(e, l->arr);
    int coord[MAX_RANK] = {0};
    for (int k = 0; k < l->nidx; k++) {
        int nc;
        const double *c = en_index_counts(e, &l->idx[k], line, &nc);
        int gd = index_gdim(&l->idx[k]);
        /* with classes: the trips must not change inside an interval */
        for (int q = 1; e->ec && gd >= 0 && q < nc; q++)
            if (c[q] != c[q - 1] && e->of[gd][q] == e->of[gd][q - 1])
                en_cut_at(e, gd, q);
        for (int p = 0; p < e->P; p++) {
            if (gd >= 0 && g) {
                int cg = coords_of(g, p)[gd];
                e->lvl[k][p] = cg < nc ? c[cg] : 0;
            } else
                e->lvl[k][p] = c[0];
        }
    }
    for (int p = 0; p < e->P; p++) {
        double n = 1;
        for (int k = 0; k < l->nidx; k++)
            n *= e->lvl[k][p];
        e->n_all[p] = n;
    }
    if (l->primary && g) {
        int bound[MAX_RANK] = {0};
        for (int k = 0; k < l->nidx; k++)
            if (index_gdim(&l->idx[k]) >= 0)
                bound[index_gdim(&l->idx[k])] = 1;
        for (int p = 0; p < e->P; p++) {
            memcpy(coord, coords_of(g, p), (size_t)g->rank * sizeof *coord);
            for (int d = 0; d < g->rank; d++)
                if (!bound[d] && coord[d]) {
                    e->n_all[p] = 0;
                    for (int k = 0; k < l->nidx; k++)
                        e->lvl[k][p] = 0;
                }
        }
    }
    if (l->nguard)
        point_counts(e, l, 0, e->n_all, line);
    if (l->mask)
        point_counts(e, l, 1, e->n_true, line);
    else
        memcpy(e->n_true, e->n_all, (size_t)e->P * sizeof *e->n_true);
}

/* Frees the counts kept for FORALL nests and indices. */
void en_space_free(Eng *e)
{
    for (int i = 0; e->pcc && i < PC_KEEP; i++)
        free(e->pcc[i].out);
    for (int i = 0; e->lcc && i < e->g->naau; i++)
        free(e->lcc[i].v);
    free(e->lcc);
    free(e->pcc);
    for (size_t i = 0; i < e->ixcap; i++)
        free(e->ixc[i].c);
    free(e->ixc);
}
