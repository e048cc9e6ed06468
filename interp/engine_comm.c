/* engine_comm.c - communication AAUs for the engine: overlap shifts,
 * gathers and scatters with their rounds, broadcasts, reductions. */
#include <config.h>

#include <stdint.h>

#include "engine_int.h"

/* ---- communication ------------------------------------------------------- */

static int holds(const void *hd, int c)
{
    return hpfmap_count(hd, c) > 0;
}

/* The box an overlap shift exchanges, evaluated for one execution: per
 * dimension of the array the range of template cells (distributed
 * dimensions) or subscripts (the others) that the shifted references read;
 * whole[e] where the lowering gave none. */
typedef struct {
    long long lo[MAX_RANK], hi[MAX_RANK];
    int whole[MAX_RANK];
} ShiftBox;

static void shift_box(Eng *e, const CommEntry *c, ShiftBox *b)
{
    const SpArr *arr = c->arr;
    for (int d = 0; d < arr->rank; d++) {
        const Node *lo = c->ov->lo[d], *hi = c->ov->hi[d];
        int t = arr->tmpl ? arr->tdim[d] : -1;
        b->whole[d] = !lo || (t >= 0 && !arr->cknown[d]);
        if (b->whole[d])
            continue;
        long long l = en_eval_int(e, lo, 1, c->line, "shift box");
        long long h = en_eval_int(e, hi, l, c->line, "shift box");
        if (l > h) {
            b->lo[d] = 1;
            b->hi[d] = 0;
            continue;
        }
        if (t >= 0) {
            /* subscripts to cells */
            long long c1 = arr->ca[d] * l + arr->cb[d], c2 = arr->ca[d] * h + arr->cb[d];
            l = c1 < c2 ? c1 : c2;
            h = c1 < c2 ? c2 : c1;
        }
        b->lo[d] = l;
        b->hi[d] = h;
    }
}

static long long overlap_len(long long a, long long b, long long lo, long long hi)
{
    if (a < lo)
        a = lo;
    if (b > hi)
        b = hi;
    return b >= a ? b - a + 1 : 0;
}

/* The elements of processor p's slab across dimension d of the box: per
 * other dimension the positions of its block and of the ghost cells it
 * reads there (ext) within the box, as libhpfrt clips them (a dimension
 * that is not one block a processor: its cells); cnt[] gets each. */
static double box_other(Eng *e, const CommEntry *c, const ShiftBox *b, int p, double *cnt)
{
    const SpArr *arr = c->arr;
    Grid *g = en_arr_grid(e, arr);
    const int *co = g ? coords_of(g, p) : NULL;
    double n = 1;
    for (int d = 0; d < arr->rank; d++) {
        int t = arr->tmpl ? arr->tdim[d] : -1;
        double k;
        if (t >= 0 && arr->tmpl->gdim[t] >= 0 && co) {
            const HpfDim *hd = &en_tmpl_of(e, arr->tmpl)->d[t];
            int q = co[arr->tmpl->gdim[t]];
            long cells = hpfmap_count(hd, q);
            if (cells == 0) {
                k = 0;
            } else if (!hpfmap_single_block(hd)) {
                /* several blocks: libhpfrt's whole local range, the
                   overlap areas around the blocks or the ghost cells
                   past them included */
                HpfDim h = *hd;
                k = hpfmap_pad(&h, arr->tmpl->glo[t], arr->tmpl->ghi[t])
                        ? (double)hpfmap_local_extent(&h, q)
                        : (double)(cells + arr->glo[d] + arr->ghi[d]);
            } else {
                long long first = hd->lb + (long long)q * hd->k;
                long long a = first - c->ov->ext[d][0], z = first + cells - 1 + c->ov->ext[d][1];
                k = b->whole[d] ? (double)(z - a + 1)
                                : (double)overlap_len(a, z, b->lo[d], b->hi[d]);
            }
        } else {
            long long lo = en_eval_int(e, arr->lo[d], 1, 0, "array bound");
            long long hi = en_eval_int(e, arr->hi[d], lo, 0, "array bound");
            k = b->whole[d] ? (double)(hi >= lo ? hi - lo + 1 : 0)
                            : (double)overlap_len(lo, hi, b->lo[d], b->hi[d]);
        }
        cnt[d] = k;
        if (d != c->dim)
            n *= k;
    }
    return n;
}

/* The runs of contiguous elements in a slab of w cells along dimension d
 * (cnt: the box's extent per dimension), which libhpfrt packs and unpacks
 * one copy each: along the first dimension a run of w elements at every
 * point of the others; along another the first dimension's extent is one
 * run. */
static double slab_runs(const SpArr *arr, const double *cnt, int d, long long w)
{
    double r = d == 0 ? 1 : (double)w;
    for (int e = 1; e < arr->rank; e++)
        if (e != d)
            r *= cnt[e];
    return r;
}

/* The cells of dimension d (template hd) that the processor at grid
 * coordinate q sends in direction dir (0: its top `below` cells up to
 * q + 1; 1: its bottom `above` cells down to q - 1), within the template
 * and the box, as libhpfrt clips them. */
static long long shift_cells(const CommEntry *c, const HpfDim *hd, const ShiftBox *b, int q,
                             int dir)
{
    long long first = hd->lb + (long long)q * hd->k;
    long long a = dir == 0 ? first + hd->k - c->below : first;
    long long z = dir == 0 ? first + hd->k - 1 : first + c->above - 1;
    long long lo = hd->lb, hi = hd->lb + hd->n - 1;
    if (!b->whole[c->dim]) {
        lo = lo > b->lo[c->dim] ? lo : b->lo[c->dim];
        hi = hi < b->hi[c->dim] ? hi : b->hi[c->dim];
    }
    return overlap_len(a, z, lo, hi);
}

/* The same for a dimension of several blocks a processor with overlap
 * areas around each (hpfmap_pad): the cells of all of q's blocks, and
 * the blocks that send any in *runs. */
static long long block_cells(const CommEntry *c, const HpfDim *hd, const ShiftBox *b, int q,
                             int dir, long *runs)
{
    long lo = hd->lb, hi = hd->lb + hd->n - 1;
    if (!b->whole[c->dim]) {
        lo = lo > b->lo[c->dim] ? lo : (long)b->lo[c->dim];
        hi = hi < b->hi[c->dim] ? hi : (long)b->hi[c->dim];
    }
    return hpfmap_block_shift(hd, q, dir, dir == 0 ? c->below : c->above, lo, hi, runs);
}

static void overlap_shift(Eng *e, Aau *a, const CommEntry *c)
{
    const SpArr *arr = c->arr;
    Grid *g = en_arr_grid(e, arr);
    int t = arr->tdim[c->dim];
    if (!g || t < 0 || arr->tmpl->gdim[t] < 0)
        return;
    int gd = arr->tmpl->gdim[t];
    Tmpl *m = en_tmpl_of(e, arr->tmpl);
    if (g->shape[gd] > 1)
        /* the run-time library's own work around the messages (rt.shift):
           its buffers, the element type, the slabs' set-up */
        en_charge_all(e, a, M_OVHD, e->pr.rt_shift, NULL);
    ShiftBox box;
    shift_box(e, c, &box);
    int np = g->shape[gd];
    int multi = !hpfmap_single_block(&m->d[t]) && np > 1;
    int *dst = buf_get(e), *src = buf_get(e);
    int *hops = buf_get(e);
    double *bytes = buf_get(e), *other = buf_get(e);
    double *sruns = buf_get(e), *rruns = buf_get(e);
    int coord[MAX_RANK];
    double cnt[MAX_RANK];
    for (int dir = 0; dir < 2; dir++) {
        /* dir 0: the top `below` cells go up; dir 1: the bottom `above` go
           down. Each (interpreted) processor holding cells sends to its
           neighbour on one side and receives from the one on the other,
           when those hold cells too: the cells of the box. */
        int w = dir == 0 ? c->below : c->above;
        if (w <= 0)
            continue;
        for (int p = 0; p < e->P; p++) {
            dst[p] = src[p] = -1;
            sruns[p] = rruns[p] = 0;
            memcpy(coord, coords_of(g, p), (size_t)g->rank * sizeof *coord);
            int c0 = coord[gd];
            if (hpfmap_count(&m->d[t], c0) == 0)
                continue;
            /* (the partners differ only along gd: the same slab across it) */
            other[p] = box_other(e, c, &box, p, cnt);
            if (other[p] <= 0)
                continue;
            int node = hpfmap_rank(g->rank, g->shape, e->pr.placement, coord);
            for (int side = 0; side < 2; side++) {
                int cn = c0 + ((dir == 0) == (side == 0) ? 1 : -1);
                if (multi)
                    cn = (cn + np) % np;   /* blocks dealt round: the last's next is the first's */
                if (cn < 0 || cn >= np || hpfmap_count(&m->d[t], cn) == 0)
                    continue;
                /* the cells that go: mine (side 0) or the partner's; and in
                   how many runs along the dimension (one block each) */
                long nrun = 1;
                long long cells = multi ? block_cells(c, &m->d[t], &box, side == 0 ? c0 : cn, dir,
                                                      &nrun)
                                        : shift_cells(c, &m->d[t], &box, side == 0 ? c0 : cn, dir);
                if (cells == 0)
                    continue;
                double nb = (double)cells * other[p] * elsize(arr->type);
                /* each run of contiguous elements of a slab copied into the
                   buffer before its message goes, and out of it after the
                   neighbour's has come (rt.shift.run): along the first
                   dimension a run a block in every column */
                double runs = e->pr.rt_shift_run
                            * (c->dim == 0 ? (double)nrun * slab_runs(arr, cnt, 0, 1)
                                           : slab_runs(arr, cnt, c->dim, cells));
                coord[gd] = cn;
                int q = e->ec ? en_latest_partner(e, p, gd, (dir == 0) == (side == 0) ? 1 : -1,
                                                  0, multi, holds, &m->d[t], nb)
                              : en_proc_of(e, g->rank, g->shape, coord);
                if (side == 0) {
                    dst[p] = q;
                    bytes[p] = nb;
                    sruns[p] = runs;
                } else {
                    src[p] = q;
                    rruns[p] = runs;
                    /* the nodes of the two positions under the machine's
                       placement (one hop apart under Gray placement) */
                    hops[p] = en_rank_hops(e, node, hpfmap_rank(g->rank, g->shape,
                                                              e->pr.placement, coord));
                }
                coord[gd] = c0;
            }
        }
        for (int p = 0; p < e->P; p++)
            if (dst[p] >= 0 && sruns[p] > 0)
                charge(e, a, M_OVHD, p, sruns[p]);
        en_exchange(e, a, dst, src, bytes, hops);
        for (int p = 0; p < e->P; p++)
            if (src[p] >= 0 && rruns[p] > 0)
                charge(e, a, M_OVHD, p, rruns[p]);
    }
    buf_put(e, dst);
    buf_put(e, src);
    buf_put(e, hops);
    buf_put(e, bytes);
    buf_put(e, other);
    buf_put(e, sruns);
    buf_put(e, rruns);
}

/* Pairs (receiver, sender) with element counts, in a small open hash. */
typedef struct {
    uint64_t *key;
    double *n;
    size_t cap, used;
} PairMap;

/* The same pairs as a list by round: round 0 is the local copies; the
 * messages go in rounds 1 .. nround-1 in which each processor sends at
 * most one and receives at most one. Each processor sends its messages in
 * the order of the distance of the receiver's rank from its own, (dst -
 * src) mod P, as the run-time library posts them, and a message goes in
 * the round after the last one its sender sent or its receiver received
 * in: an all-to-all takes P - 1 rounds, a permutation (a circular shift
 * of a Gray-placed grid, ranks 1, 2, 4 or 7 apart) one. */
typedef struct {
    int *dst, *src;
    double *n;
    int *hops;                    /* between dst and src */
    long *start;                  /* nround + 1: round k is start[k] .. start[k+1]-1 */
    int nround;
} PairList;

typedef struct GatherCache {
    const CommEntry *c;
    PairList pl;
    int nround;                   /* -1: not kept (too large); else how many */
    int made;                     /* make_rounds has run (nround is set) */
    Round *round;                 /* requests (a gather), then values, by round */
} GatherCache;

static void pm_add(PairMap *m, int dst, int src, double n)
{
    if (2 * (m->used + 1) > m->cap) {
        PairMap b = {0};
        b.cap = m->cap ? 2 * m->cap : 1024;
        b.key = xmalloc(b.cap * sizeof *b.key);
        b.n = xcalloc(b.cap, sizeof *b.n);
        for (size_t i = 0; i < b.cap; i++)
            b.key[i] = UINT64_MAX;
        for (size_t i = 0; i < m->cap; i++)
            if (m->key[i] != UINT64_MAX)
                pm_add(&b, (int)(m->key[i] >> 32), (int)(m->key[i] & 0xffffffffu), m->n[i]);
        free(m->key);
        free(m->n);
        *m = b;
    }
    uint64_t k = (uint64_t)(unsigned)dst << 32 | (unsigned)src;
    size_t h = hash_u64(k, m->cap);
    while (m->key[h] != UINT64_MAX && m->key[h] != k)
        h = (h + 1) & (m->cap - 1);
    if (m->key[h] == UINT64_MAX) {
        m->key[h] = k;
        m->used++;
    }
    m->n[h] += n;
}

/* The list of the pairs of m by round (m is freed). */
static void pl_of_map(const Eng *e, PairMap *m, PairList *pl)
{
    int P = e->P;
    size_t n = m->used ? m->used : 1;
    /* by distance first (a counting sort), then each pair's round */
    long *by = xcalloc((size_t)P + 1, sizeof *by);
    for (size_t i = 0; i < m->cap; i++)
        if (m->key[i] != UINT64_MAX) {
            int d = (int)(m->key[i] >> 32), s = (int)(m->key[i] & 0xffffffffu);
            by[(d - s + P) % P + 1]++;
        }
    for (int k = 0; k < P; k++)
        by[k + 1] += by[k];
    size_t *order = xmalloc(n * sizeof *order);
    for (size_t i = 0; i < m->cap; i++)
        if (m->key[i] != UINT64_MAX) {
            int d = (int)(m->key[i] >> 32), s = (int)(m->key[i] & 0xffffffffu);
            order[by[(d - s + P) % P]++] = i;
        }
    free(by);
    int *sent = xcalloc((size_t)P, sizeof *sent), *recvd = xcalloc((size_t)P, sizeof *recvd);
    int *round = xmalloc(n * sizeof *round);
    int R = 1;
    for (size_t j = 0; j < m->used; j++) {
        uint64_t k = m->key[order[j]];
        int d = (int)(k >> 32), s = (int)(k & 0xffffffffu);
        int r = d == s ? 0 : (sent[s] > recvd[d] ? sent[s] : recvd[d]) + 1;
        if (d != s)
            sent[s] = recvd[d] = r;
        round[j] = r;
        if (r + 1 > R)
            R = r + 1;
    }
    free(sent);
    free(recvd);
    pl->hops = xmalloc(n * sizeof *pl->hops);
    pl->dst = xmalloc(n * sizeof *pl->dst);
    pl->src = xmalloc(n * sizeof *pl->src);
    pl->n = xmalloc(n * sizeof *pl->n);
    pl->nround = R;
    pl->start = xcalloc((size_t)R + 1, sizeof *pl->start);
    for (size_t j = 0; j < m->used; j++)
        pl->start[round[j] + 1]++;
    for (int k = 0; k < R; k++)
        pl->start[k + 1] += pl->start[k];
    long *fill = xmalloc((size_t)R * sizeof *fill);
    memcpy(fill, pl->start, (size_t)R * sizeof *fill);
    for (size_t j = 0; j < m->used; j++) {
        uint64_t k = m->key[order[j]];
        int d = (int)(k >> 32), s = (int)(k & 0xffffffffu);
        long at = fill[round[j]]++;
        pl->dst[at] = d;
        pl->src[at] = s;
        pl->n[at] = m->n[order[j]];
        pl->hops[at] = en_rank_hops(e, s, d);
    }
    free(fill);
    free(order);
    free(round);
    free(m->key);
    free(m->n);
    *m = (PairMap){0};
}

static void pl_free(PairList *pl)
{
    free(pl->hops);
    free(pl->dst);
    free(pl->src);
    free(pl->n);
    free(pl->start);
}

/* Messages of a gather or scatter: every processor first learns how much
 * each other sends it (an all-to-all of counts), then the requests
 * (indices) go to the owners and the values come back (gather), or values
 * and indices go to the owners (scatter). */
/* The rounds of pl ready for en_exchange_round() (gc->nround of them, the
 * requests first when req_bytes > 0), when they are few enough to keep. */
static void make_rounds(Eng *e, GatherCache *gc, double req_bytes, double val_bytes)
{
    const PairList *pl = &gc->pl;
    int P = e->P, n = 0;
    for (int k = 1; k < pl->nround; k++)
        n += pl->start[k] != pl->start[k + 1];
    n *= req_bytes > 0 ? 2 : 1;
    gc->made = 1;
    if ((double)n * P > 65536) {
        gc->nround = -1;
        return;
    }
    gc->round = xcalloc((size_t)(n ? n : 1), sizeof *gc->round);
    int i = 0;
    for (int phase = req_bytes > 0 ? 0 : 1; phase < 2; phase++)
        for (int k = 1; k < pl->nround; k++) {
            if (pl->start[k] == pl->start[k + 1])
                continue;
            Round *r = &gc->round[i++];
            r->dst = xmalloc((size_t)P * sizeof *r->dst);
            r->src = xmalloc((size_t)P * sizeof *r->src);
            r->hops = xcalloc((size_t)P, sizeof *r->hops);
            r->bytes = xcalloc((size_t)P, sizeof *r->bytes);
            for (int p = 0; p < P; p++)
                r->dst[p] = r->src[p] = -1;
            for (long j = pl->start[k]; j < pl->start[k + 1]; j++) {
                int d = pl->dst[j], s = pl->src[j];
                int from = phase == 0 ? d : s, to = phase == 0 ? s : d;
                r->dst[from] = to;
                r->src[to] = from;
                r->bytes[from] = pl->n[j] * (phase == 0 ? req_bytes : val_bytes);
                r->hops[to] = pl->hops[j];
            }
            r->snd = xmalloc((size_t)P * sizeof *r->snd);
            r->rcv = xmalloc((size_t)P * sizeof *r->rcv);
            r->send_t = xcalloc((size_t)P, sizeof *r->send_t);
            r->hop_t = xcalloc((size_t)P, sizeof *r->hop_t);
            r->dyn_t = xcalloc((size_t)P, sizeof *r->dyn_t);
            const Params *pr = &e->pr;
            double f = 1.0 - e->overlap;
            double dyx = pr->dy_pb > pr->st_pb ? pr->dy_pb - pr->st_pb : 0;
            double *fac = buf_get(e);   /* the links shared, as en_exchange() */
            int shared = en_contention(e, r->dst, r->bytes, fac);
            for (int p = 0; p < P; p++) {
                if (r->dst[p] >= 0) {
                    r->snd[r->ns++] = p;
                    r->send_t[p] = f * (startup(pr, r->bytes[p], 0) +
                                        r->bytes[p] * pr->st_pb * (shared ? fac[p] : 1));
                }
                if (r->src[p] >= 0) {
                    r->rcv[r->nr++] = p;
                    r->hop_t[p] = r->hops[p] * pr->st_ph;
                    r->dyn_t[p] = f * r->bytes[r->src[p]] * dyx;
                }
            }
            buf_put(e, fac);
        }
    gc->nround = n;
}

static void rounds_free(GatherCache *gc)
{
    for (int i = 0; i < gc->nround; i++) {
        Round *r = &gc->round[i];
        free(r->snd);
        free(r->rcv);
        free(r->dst);
        free(r->src);
        free(r->hops);
        free(r->bytes);
        free(r->send_t);
        free(r->hop_t);
        free(r->dyn_t);
    }
    free(gc->round);
}

/* The owners' part of the run-time library's work for the remote elements
 * (rt.gather.remote, half of it): each owner answers the requests (or
 * stores the values a scatter sent) once they have arrived. */
static void owners_part(Eng *e, Aau *a, const PairList *pl)
{
    double rem = e->pr.rt_gather_remote;
    if (rem <= 0)
        return;
    for (long j = pl->start[1]; j < pl->start[pl->nround]; j++)
        charge(e, a, M_OVHD, pl->src[j], pl->n[j] * rem / 2);
}

static void pl_rounds(Eng *e, Aau *a, const PairList *pl, double req_bytes, double val_bytes,
                      int rt);

/* Without the run-time library's costs in the SAG (rt.gather*), a
 * gather's local copies as loads and stores. */
static void copies_as_loads(Eng *e, Aau *a, const PairList *pl)
{
    const Params *pr = &e->pr;
    if (e->tr) {
        for (long j = pl->start[0]; j < pl->start[1]; j++)
            charge(e, a, M_COMP, pl->dst[j], pl->n[j] * (pr->fetch_hit + pr->store_hit));
        return;
    }
    double sc = a->m_sum[M_COMP];
    for (long j = pl->start[0]; j < pl->start[1]; j++)
        charge_to(e, &sc, M_COMP, pl->dst[j], pl->n[j] * (pr->fetch_hit + pr->store_hit));
    a->m_sum[M_COMP] = sc;
}

/* A gather through a schedule libhpfrt kept (hpfrt_gathers_T): its own
 * work (rt.gather.kept*: the index vector compared, the local copies, the
 * remote elements' replies packed and unpacked), the MPI_Allreduce that
 * agrees on the schedule unless the index vector is invariant, and the
 * replies' rounds only. */
static void kept_exchange(Eng *e, Aau *a, const PairList *pl, double val_bytes,
                          const GatherCache *gc, int agree)
{
    const Params *pr = &e->pr;
    if (!(pr->rt_kept > 0 || pr->rt_kept_elem > 0 || pr->rt_kept_remote > 0))
        copies_as_loads(e, a, pl);
    en_charge_all(e, a, M_OVHD, pr->rt_kept, NULL);
    for (long j = pl->start[0]; j < pl->start[pl->nround]; j++) {
        int local = j < pl->start[1];
        charge(e, a, M_OVHD, pl->dst[j], pl->n[j] * (pr->rt_kept_elem +
                                                      (local ? 0 : pr->rt_kept_remote / 2)));
        if (!local)
            charge(e, a, M_OVHD, pl->src[j], pl->n[j] * pr->rt_kept_remote / 2);
    }
    if (agree)
        en_reduce_all(e, a, HPFRT_AND, 4, (Type){.base = TY_INTEGER, .kind = 4});
    if (gc && gc->nround >= 0) {
        for (int i = gc->nround / 2; i < gc->nround; i++)
            en_exchange_round(e, a, &gc->round[i]);
        return;
    }
    pl_rounds(e, a, pl, 0, val_bytes, 0);
}

/* A gather whose index vector may change, of an array held whole by the
 * processor (one processor, or an array every one holds): libhpfrt
 * computes each element's offset and copies it, no schedule, no exchange
 * (rt.gather a call, and rt.gather.kept.elem an element: the offset
 * formed where a kept schedule compares the index, and the copy). */
static void whole_gather(Eng *e, Aau *a, const PairList *pl)
{
    const Params *pr = &e->pr;
    if (!(pr->rt_gather > 0 || pr->rt_kept_elem > 0)) {
        copies_as_loads(e, a, pl);
        return;
    }
    en_charge_all(e, a, M_OVHD, pr->rt_gather, NULL);
    for (long j = pl->start[0]; j < pl->start[1]; j++)
        charge(e, a, M_OVHD, pl->dst[j], pl->n[j] * pr->rt_kept_elem);
}

static void pairs_exchange(Eng *e, Aau *a, const PairList *pl, double req_bytes, double val_bytes,
                           const GatherCache *gc)
{
    const Params *pr = &e->pr;
    int rt = pr->rt_gather > 0 || pr->rt_gather_elem > 0 || pr->rt_gather_remote > 0;
    if (rt) {
        /* the run-time library's own work (rt.gather*): every processor
           calls it; its inspector visits every element asked for and
           copies the local ones; a remote one costs the requester and its
           owner the packing of the request and of the answer, half each,
           the owner's once the requests have come (owners_part) */
        en_charge_all(e, a, M_OVHD, pr->rt_gather, NULL);
        for (long j = pl->start[0]; j < pl->start[pl->nround]; j++) {
            int local = j < pl->start[1];
            charge(e, a, M_OVHD, pl->dst[j],
                   pl->n[j] * (pr->rt_gather_elem + (local ? 0 : pr->rt_gather_remote / 2)));
        }
    }
    en_alltoall(e, a, 4);
    if (!rt)
        copies_as_loads(e, a, pl);
    if (gc && gc->nround >= 0) {
        /* the requests (the first half, for a gather), then the replies */
        int nreq = req_bytes > 0 ? gc->nround / 2 : gc->nround;
        for (int i = 0; i < gc->nround; i++) {
            if (i == nreq && rt)
                owners_part(e, a, pl);
            en_exchange_round(e, a, &gc->round[i]);
        }
        if (nreq == gc->nround && rt)
            owners_part(e, a, pl);
        return;
    }
    pl_rounds(e, a, pl, req_bytes, val_bytes, rt);
}

/* The rounds of pl made on the fly: the requests when req_bytes > 0 (rt:
 * the owners' part of the run-time library's work after them), then the
 * values. */
static void pl_rounds(Eng *e, Aau *a, const PairList *pl, double req_bytes, double val_bytes,
                      int rt)
{
    int P = e->P;
    int *dst = buf_get(e), *src = buf_get(e);
    int *hops = buf_get(e);
    double *bytes = buf_get(e);
    /* by round: each processor has at most one partner a round, so a
       round is one exchange. A gather:
       requests from the receiver d to the owner s, then the values back; a
       scatter: values only */
    for (int phase = req_bytes > 0 ? 0 : 1; phase < 2; phase++) {
        for (int k = 1; k < pl->nround; k++) {
            if (pl->start[k] == pl->start[k + 1])
                continue;
            for (int p = 0; p < P; p++)
                dst[p] = src[p] = -1;
            for (long j = pl->start[k]; j < pl->start[k + 1]; j++) {
                int d = pl->dst[j], s = pl->src[j];
                int from = phase == 0 ? d : s, to = phase == 0 ? s : d;
                dst[from] = to;
                src[to] = from;
                bytes[from] = pl->n[j] * (phase == 0 ? req_bytes : val_bytes);
                hops[to] = pl->hops[j];   /* en_rank_hops(e, from, to): symmetric */
            }
            en_exchange(e, a, dst, src, bytes, hops);
        }
        /* the owners answer the requests (gather), store the values (scatter) */
        if (rt && (phase == 0 || req_bytes <= 0))
            owners_part(e, a, pl);
    }
    buf_put(e, dst);
    buf_put(e, src);
    buf_put(e, hops);
    buf_put(e, bytes);
}

/* The element counts a gather or scatter moves, by (receiver, sender).
 * Returns 0 when a value needed was not known. */
/* The loop of gather_pairs() with the owners computed directly (no fi
 * evaluation: constant alignments only) and the pairs counted in a P x P
 * table, then entered in the map in the order of their first occurrence
 * with their counts (the same map, slot for slot). 0 when it does not
 * apply (nothing done). */
static int pairs_dense(Eng *e, const CommEntry *c, const SpLoop *l, const SpArr *arr,
                       const Grid *lg, const Grid *rg, const IxMap *map, const FiSpace *sp,
                       const FiRefs *rf, PairList *pl)
{
    int P = e->P;
    if (e->ec || P > 256 || (rg && rf->rank != arr->rank))
        return 0;
    /* the owner of the referenced element: per array dimension its grid
       dimension, template dimension and alignment; the fixed cells of the
       template dimensions no array dimension is aligned with */
    int gd_of[MAX_RANK], fixc[MAX_RANK];
    const HpfDim *hd_of[MAX_RANK];
    long long ca[MAX_RANK], cb[MAX_RANK];
    if (rg) {
        const SpTmpl *tp = arr->tmpl;
        Tmpl *m = en_tmpl_of(e, tp);
        int aligned[MAX_RANK] = {0};
        for (int gd = 0; gd < rg->rank; gd++)
            fixc[gd] = -1;
        for (int d = 0; d < arr->rank; d++) {
            int t = arr->tdim[d];
            gd_of[d] = -1;
            if (t < 0)
                continue;
            aligned[t] = 1;
            if (tp->gdim[t] < 0)
                continue;
            if (!arr->cknown[d])
                return 0;
            gd_of[d] = tp->gdim[t];
            hd_of[d] = &m->d[t];
            ca[d] = arr->ca[d];
            cb[d] = arr->cb[d];
        }
        for (int t = 0; t < tp->rank; t++) {
            int gd = tp->gdim[t];
            if (aligned[t] || gd < 0 || !arr->fix[t])
                continue;
            if (arr->fix[t]->kind != AST_INT_CONST)
                return 0;
            fixc[gd] = owner_of(e, &m->d[t], (long)arr->fix[t]->u.konst.ival);
        }
    }
    double *cnt = xcalloc((size_t)P * (size_t)P, sizeof *cnt);
    int *first = xmalloc((size_t)(rf->n ? rf->n : 1) * sizeof *first);
    long nfirst = 0;
    int ok = 1;
    for (long i = 0; i < rf->n && ok; i++) {
        int coord[MAX_RANK], own[MAX_RANK];
        int runner = 0;
        if (lg) {
            en_point_coords(e, l, map, lg, sp, rf->point[i], coord);
            runner = hpfmap_rank(lg->rank, lg->shape, e->pr.placement, coord);
        }
        int owner = runner;
        if (rg) {
            memcpy(own, fixc, (size_t)rg->rank * sizeof *own);
            for (int d = 0; d < arr->rank; d++)
                if (gd_of[d] >= 0)
                    own[gd_of[d]] = owner_of(e, hd_of[d], (long)(ca[d] * rf->sub[d][i] + cb[d]));
            for (int d = 0; d < rg->rank; d++)
                if (own[d] < 0)
                    own[d] = rg == lg ? coord[d] : 0;
            owner = hpfmap_rank(rg->rank, rg->shape, e->pr.placement, own);
        }
        if (runner >= P || owner >= P)
            continue;
        if (runner < 0 || owner < 0) {
            ok = 0;               /* the general loop's keys */
            break;
        }
        int dst = c->kind == CM_SCATTER ? owner : runner, src = c->kind == CM_SCATTER ? runner : owner;
        int key = dst * P + src;
        if (!cnt[key]++)
            first[nfirst++] = key;
    }
    if (ok) {
        PairMap pm = {0};
        for (long j = 0; j < nfirst; j++)
            pm_add(&pm, first[j] / P, first[j] % P, cnt[first[j]]);
        pl_of_map(e, &pm, pl);
    }
    free(cnt);
    free(first);
    return ok;
}

/* Whether expression n mentions an index of loop l. */
int en_mentions_index(const Node *n, const SpLoop *l)
{
    if (!n)
        return 0;
    switch (n->kind) {
    case AST_NAME:
        for (int k = 0; k < l->nidx; k++)
            if (n->u.name.sym && n->u.name.sym == l->idx[k].var)
                return 1;
        return 0;
    case AST_BINARY:
        return en_mentions_index(n->u.binary.lhs, l) || en_mentions_index(n->u.binary.rhs, l);
    case AST_UNARY: case AST_PAREN:
        return en_mentions_index(n->u.unary.operand, l);
    case AST_REF:
        for (int i = 0; i < n->u.ref.args.n; i++)
            if (en_mentions_index(n->u.ref.args.v[i], l))
                return 1;
        return 0;
    case AST_KEYWORD_ARG:
        return en_mentions_index(n->u.kwarg.value, l);
    case AST_INT_CONST: case AST_REAL_CONST: case AST_LOGICAL_CONST:
        return 0;
    default:
        return 1;                 /* not known not to */
    }
}

/* The points of a loop by runner, in closed form: each index's trips by
 * grid coordinate (index_counts), the runners having 0 in the grid
 * dimensions no index is bound to. */
typedef struct {
    IxMap map[MAX_RANK];
    const double *cnt[MAX_RANK];
    int ncnt[MAX_RANK], used[MAX_RANK];
} Runners;

/* 0 when two indices share a grid dimension or a bound is not known. */
static int runners_init(Eng *e, const SpLoop *l, const Grid *lg, int line, Runners *r)
{
    memset(r->used, 0, sizeof r->used);
    if (lg)
        en_index_maps(e, l, r->map);
    for (int k = 0; k < l->nidx; k++) {
        int gd = lg ? r->map[k].gd : -1;
        if (gd >= 0 && r->used[gd]++)
            return 0;
        r->cnt[k] = en_index_counts(e, &l->idx[k], line, &r->ncnt[k]);
        if (e->failed)
            return 0;
    }
    return 1;
}

/* The points processor p runs (its coordinates in coord), over every index
 * but skip (-1: none). */
static double runner_points(const Runners *r, const SpLoop *l, const Grid *lg, int p, int skip,
                            int *coord)
{
    memset(coord, 0, MAX_RANK * sizeof *coord);
    if (lg)
        memcpy(coord, coords_of(lg, p), (size_t)lg->rank * sizeof *coord);
    for (int d = 0; lg && d < lg->rank; d++)
        if ((!r->used[d] && coord[d]) || coord[d] >= lg->shape[d])
            return 0;
    double n = 1;
    for (int k = 0; k < l->nidx && n > 0; k++) {
        if (k == skip)
            continue;
        int gd = lg ? r->map[k].gd : -1;
        int x = gd >= 0 ? coord[gd] : 0;
        n *= x < r->ncnt[k] ? r->cnt[k][x] : 0;
    }
    return n;
}

/* The pairs of a gather whose element's owner is the same at every point
 * of its loop: the subscripts of the distributed dimensions of the array
 * it reads mention no index of the loop (the column a(:, k) of a rank-1
 * update at step k, broadcast to every processor). Then each processor's
 * evaluations all come from that owner, and there are as many as the points
 * it runs: their counts per grid coordinate in closed form from the
 * mapping (index_counts), per step, not one evaluation per element. The
 * same pairs as gather_pairs() counts. 0 when it does not apply (no mask,
 * no guard, the reference evaluated at every point, no classes). */
/* Whether expression n reads no variable but var (and PARAMETERs). */
int en_reads_only(const Node *n, const Symbol *var)
{
    if (!n)
        return 1;
    switch (n->kind) {
    case AST_INT_CONST: case AST_REAL_CONST: case AST_LOGICAL_CONST:
        return 1;
    case AST_NAME:
        return n->u.name.sym && (n->u.name.sym == var || n->u.name.sym->kind == SYM_PARAMETER);
    case AST_BINARY:
        return en_reads_only(n->u.binary.lhs, var) && en_reads_only(n->u.binary.rhs, var);
    case AST_UNARY: case AST_PAREN:
        return en_reads_only(n->u.unary.operand, var);
    case AST_REF:
        if (n->u.ref.what != REF_INTRINSIC || n->ir)
            return 0;
        for (int i = 0; i < n->u.ref.args.n; i++)
            if (!en_reads_only(n->u.ref.args.v[i], var))
                return 0;
        return 1;
    default:
        return 0;
    }
}

/* The owner's grid coordinates (-1: any, the array replicated along that
 * grid dimension) of the element a gather fetches, when it is the same at
 * every point of its loop: the subscripts of the array's distributed
 * dimensions mention no index of the loop (and, with only set, read no
 * variable but only). 0 when it is not, or not known. */
int en_fixed_owner(Eng *e, const CommEntry *c, const Symbol *only, int *own)
{
    const SpLoop *l = c->loop;
    if (c->kind != CM_GATHER || !c->g || l->mask || l->nguard || c->g->ctx != l->ctx_iter ||
        e->ec || !c->g->r || !c->g->r->arr || !c->g->r->arr->tmpl || !en_arr_grid(e, c->g->r->arr))
        return 0;
    const SpRef *r = c->g->r;
    const SpArr *arr = r->arr;
    long long sub[MAX_RANK];
    for (int d = 0; d < arr->rank; d++) {
        int t = arr->tdim[d];
        sub[d] = 1;
        if (t < 0 || arr->tmpl->gdim[t] < 0)
            continue;
        if (!r->sub[d] || en_mentions_index(r->sub[d], l) || (only && !en_reads_only(r->sub[d], only))
            || !fi_eval_int(e->fi, r->sub[d], &sub[d]))
            return 0;
    }
    for (int t = 0; t < arr->tmpl->rank; t++)
        if (arr->tmpl->gdim[t] >= 0 && arr->fix[t] &&
            (en_mentions_index(arr->fix[t], l) || (only && !en_reads_only(arr->fix[t], only))))
            return 0;
    Grid *rg = en_arr_grid(e, arr);
    for (int d = rg->rank; d < MAX_RANK; d++)
        own[d] = -1;
    en_owner_coords(e, arr, sub, own);
    return 1;
}

static int pairs_fixed_owner(Eng *e, const CommEntry *c, PairList *pl, int line)
{
    int own0[MAX_RANK];
    if (!en_fixed_owner(e, c, NULL, own0))
        return 0;
    const SpLoop *l = c->loop;
    const SpArr *arr = c->g->r->arr;
    Grid *lg = en_arr_grid(e, l->arr), *rg = en_arr_grid(e, arr);
    Runners ru;
    if (!runners_init(e, l, lg, line, &ru))
        return 0;
    PairMap pm = {0};
    int P = e->P;
    for (int p = 0; p < (lg ? P : 1); p++) {
        int coord[MAX_RANK];
        double n = runner_points(&ru, l, lg, p, -1, coord);
        if (n <= 0)
            continue;
        int own[MAX_RANK];
        for (int d = 0; d < rg->rank; d++)
            own[d] = own0[d] >= 0 ? own0[d] : rg == lg ? coord[d] : 0;
        int owner = hpfmap_rank(rg->rank, rg->shape, e->pr.placement, own);
        if (owner < P)
            pm_add(&pm, p, owner, n);
    }
    pl_of_map(e, &pm, pl);
    return 1;
}

/* n as alpha * var + beta, var an index of loop l, the rest evaluated by fi
 * (no other index of l). 0 when it is not so (or not known). */
int en_affine_in(Eng *e, const Node *n, const SpLoop *l, const Symbol **var,
                     long long *alpha, long long *beta)
{
    long long a1, b1, a2, b2;
    if (!n)
        return 0;
    switch (n->kind) {
    case AST_INT_CONST:
        *alpha = 0;
        *beta = n->u.konst.ival;
        return 1;
    case AST_PAREN:
        return en_affine_in(e, n->u.unary.operand, l, var, alpha, beta);
    case AST_UNARY:
        if (n->u.unary.op != OP_NEG && n->u.unary.op != OP_PLUS)
            break;
        if (!en_affine_in(e, n->u.unary.operand, l, var, alpha, beta))
            return 0;
        if (n->u.unary.op == OP_NEG)
            *alpha = -*alpha, *beta = -*beta;
        return 1;
    case AST_BINARY:
        if (n->u.binary.op != OP_ADD && n->u.binary.op != OP_SUB && n->u.binary.op != OP_MUL)
            break;
        if (!en_affine_in(e, n->u.binary.lhs, l, var, &a1, &b1) ||
            !en_affine_in(e, n->u.binary.rhs, l, var, &a2, &b2))
            return 0;
        if (n->u.binary.op == OP_MUL) {
            if (a1 && a2)
                return 0;
            *alpha = a1 * b2 + a2 * b1;
            *beta = b1 * b2;
        } else {
            int sg = n->u.binary.op == OP_ADD ? 1 : -1;
            *alpha = a1 + sg * a2;
            *beta = b1 + sg * b2;
        }
        return 1;
    case AST_NAME:
        for (int k = 0; k < l->nidx; k++)
            if (n->u.name.sym && n->u.name.sym == l->idx[k].var) {
                if (*var && *var != n->u.name.sym)
                    return 0;     /* two indices */
                *var = n->u.name.sym;
                *alpha = 1;
                *beta = 0;
                return 1;
            }
        break;
    default:
        break;
    }
    if (en_mentions_index(n, l) || !fi_eval_int(e->fi, n, beta))
        return 0;
    *alpha = 0;
    return 1;
}

/* An intrinsic reference id(x, y): x and y in *x, *y. */
int en_call2(const Node *n, const char *id, const Node **x, const Node **y)
{
    if (!n || n->kind != AST_REF || n->u.ref.args.n != 2 || strcmp(n->u.ref.id, id))
        return 0;
    *x = n->u.ref.args.v[0];
    *y = n->u.ref.args.v[1];
    return 1;
}

/* The pairs of a CSHIFT's gather in closed form (doc/predict.md): the
 * shifted dimension's subscript is X + mod(mod(q, N) + N, N) (as the
 * lowering writes it), q = alpha*i + beta with alpha = +-1 for a FORALL
 * index i, and the array's other dimensions are not distributed. Over the
 * i whose q / N has the same floor, the element's cell is affine in i, so
 * the points that processor coordinate r runs and whose element coordinate
 * q owns are counted from the mapping's segments (hpfmap_segments), with
 * no evaluation per element: a shift by the loop's variable costs the same
 * at any size. 0 when it does not apply. */
static int pairs_cshift(Eng *e, const CommEntry *c, PairList *pl)
{
    const SpLoop *l = c->loop;
    if (c->kind != CM_GATHER || !c->g || c->g->pat != PAT_CSHIFT || l->mask || l->nguard ||
        c->g->ctx != l->ctx_iter || e->ec || !c->g->r || !c->g->r->arr || !c->g->r->arr->tmpl)
        return 0;
    const SpRef *r = c->g->r;
    const SpArr *arr = r->arr;
    Grid *lg = en_arr_grid(e, l->arr), *rg = en_arr_grid(e, arr);
    if (!rg)
        return 0;
    /* the one distributed dimension, shifted */
    int ds = -1;
    for (int d = 0; d < arr->rank; d++) {
        int t = arr->tdim[d];
        if (t < 0 || arr->tmpl->gdim[t] < 0)
            continue;
        if (ds >= 0)
            return 0;
        ds = d;
    }
    if (ds < 0 || !arr->cknown[ds])
        return 0;
    for (int t = 0; t < arr->tmpl->rank; t++)
        if (arr->fix[t] && en_mentions_index(arr->fix[t], l))
            return 0;
    const Node *sub = r->sub[ds], *m = NULL, *x1, *x2, *x3, *x4, *q, *nn;
    long long X = 0, N, alpha, beta, a0;
    if (sub && sub->kind == AST_BINARY && sub->u.binary.op == OP_ADD) {
        const Symbol *none = NULL;
        if (!en_affine_in(e, sub->u.binary.lhs, l, &none, &a0, &X) || a0)
            return 0;
        m = sub->u.binary.rhs;
    } else {
        m = sub;
    }
    /* mod(mod(q, N) + N, N) */
    if (!en_call2(m, "mod", &x1, &nn) || !x1 || x1->kind != AST_BINARY || x1->u.binary.op != OP_ADD
        || !en_call2(x1->u.binary.lhs, "mod", &q, &x2) || (x3 = x1->u.binary.rhs, 0))
        return 0;
    x4 = nn;
    const Symbol *none = NULL;
    long long n1, n2, n3;
    if (!en_affine_in(e, x4, l, &none, &a0, &n1) || a0 || !en_affine_in(e, x2, l, &none, &a0, &n2) ||
        a0 || !en_affine_in(e, x3, l, &none, &a0, &n3) || a0 || n1 != n2 || n1 != n3 || n1 < 1)
        return 0;
    N = n1;
    const Symbol *iv = NULL;
    if (!en_affine_in(e, q, l, &iv, &alpha, &beta) || !iv || (alpha != 1 && alpha != -1))
        return 0;
    int ki = -1;
    for (int k = 0; k < l->nidx; k++)
        if (l->idx[k].var == iv)
            ki = k;
    if (ki < 0)
        return 0;
    /* the loop: its maps, each index's counts (the others multiply) */
    Runners ru;
    if (!runners_init(e, l, lg, 0, &ru))
        return 0;
    const IxMap *map = ru.map;
    const SpIndex *ix = &l->idx[ki];
    long long lo = en_eval_int(e, ix->lo, 1, 0, "FORALL bound");
    long long hi = en_eval_int(e, ix->hi, 0, 0, "FORALL bound");
    long long st = en_eval_int(e, ix->st, 1, 0, "FORALL stride");
    if (e->failed || st == 0)
        return 0;
    if (st < 0) {                 /* the same iterations, ascending */
        long long t = hpfmap_trip((long)lo, (long)hi, (long)st);
        if (t <= 0)
            return 0;
        long long last = lo + (t - 1) * st;
        hi = lo;
        lo = last;
        st = -st;
    }
    int gdL = lg ? map[ki].gd : -1;
    int PL = gdL >= 0 ? lg->shape[gdL] : 1;
    Tmpl *mt = en_tmpl_of(e, arr->tmpl);
    int tR = arr->tdim[ds], gdR = arr->tmpl->gdim[tR];
    const HpfDim *hdR = &mt->d[tR];
    int PR = rg->shape[gdR];
    /* the table is PL x PR: past 2^22 entries (32 MB, and as many steps
       for each piece) the general count, by the elements, costs less */
    if ((size_t)PL * (size_t)PR > (size_t)1 << 22)
        return 0;
    double *C = xcalloc((size_t)PL * (size_t)PR, sizeof *C);
    /* the pieces of i over which floor(q / N) is one k */
    long long qa = alpha * lo + beta, qb = alpha * hi + beta;
    long long qmin = qa < qb ? qa : qb, qmax = qa < qb ? qb : qa;
    long long kmin = qmin >= 0 ? qmin / N : -((-qmin + N - 1) / N);
    long long kmax = qmax >= 0 ? qmax / N : -((-qmax + N - 1) / N);
    HpfSeg sbuf[64], rbuf[64];
    for (long long k = kmin; k <= kmax; k++) {
        /* i with kN <= alpha i + beta <= kN + N - 1 */
        long long i1 = alpha > 0 ? k * N - beta : beta - k * N - N + 1;
        long long i2 = alpha > 0 ? k * N + N - 1 - beta : beta - k * N;
        if (i1 < lo)
            i1 = lo;
        if (i2 > hi)
            i2 = hi;
        if (i1 > i2)
            continue;
        i1 = lo + ((i1 - lo + st - 1) / st) * st;     /* on the triplet */
        if (i1 > i2)
            continue;
        /* the element's cell: ca (X + alpha i + beta - k N) + cb */
        long long A2 = arr->ca[ds] * alpha, B2 = arr->ca[ds] * (X + beta - k * N) + arr->cb[ds];
        for (int rc = 0; rc < PL; rc++) {
            HpfSeg one = {(long)i1, (long)i2, (long)st, 0, 0}, *ls = &one;
            long nl = 1;
            if (gdL >= 0) {
                nl = hpfmap_segments(map[ki].hd, rc, (long)map[ki].A, (long)map[ki].B, (long)i1,
                                     (long)i2, (long)st, sbuf, 64);
                if (nl > 64) {
                    free(C);
                    return 0;     /* many pieces: the general count */
                }
                ls = sbuf;
            }
            for (long s = 0; s < nl; s++)
                for (int qc = 0; qc < PR; qc++) {
                    if (ls[s].is == 1 && (A2 == 1 || A2 == -1)) {
                        /* consecutive cells: counted in closed form */
                        long c1 = (long)(A2 * ls[s].i1 + B2), c2 = (long)(A2 * ls[s].i2 + B2);
                        C[(size_t)rc * (size_t)PR + (size_t)qc] +=
                            (double)hpfmap_count_range(hdR, qc, c1 < c2 ? c1 : c2, c1 < c2 ? c2 : c1);
                        continue;
                    }
                    long nr = hpfmap_segments(hdR, qc, (long)A2, (long)B2, ls[s].i1, ls[s].i2,
                                              ls[s].is, rbuf, 64);
                    if (nr > 64) {
                        free(C);
                        return 0;
                    }
                    for (long u = 0; u < nr; u++)
                        C[(size_t)rc * (size_t)PR + (size_t)qc] +=
                            (double)((rbuf[u].i2 - rbuf[u].i1) / rbuf[u].is + 1);
                }
        }
    }
    /* by processor: its points of the other indices times the table */
    long long sub0[MAX_RANK];
    for (int d = 0; d < arr->rank; d++)
        sub0[d] = 1;
    int own0[MAX_RANK];
    en_owner_coords(e, arr, sub0, own0);
    PairMap pm = {0};
    int P = e->P;
    for (int p = 0; p < (lg ? P : 1); p++) {
        int coord[MAX_RANK];
        double n = runner_points(&ru, l, lg, p, ki, coord);
        if (n <= 0)
            continue;
        int rc = gdL >= 0 ? coord[gdL] : 0;
        for (int qc = 0; qc < PR; qc++) {
            double v = C[(size_t)rc * (size_t)PR + (size_t)qc] * n;
            if (v <= 0)
                continue;
            int own[MAX_RANK];
            for (int d = 0; d < rg->rank; d++)
                own[d] = d == gdR ? qc : own0[d] >= 0 ? own0[d] : rg == lg ? coord[d] : 0;
            int owner = hpfmap_rank(rg->rank, rg->shape, e->pr.placement, own);
            if (owner < P)
                pm_add(&pm, p, owner, v);
        }
    }
    free(C);
    pl_of_map(e, &pm, pl);
    return 1;
}

static int gather_pairs(Eng *e, Aau *a, const CommEntry *c, PairList *pl)
{
    /* the closed forms (HPFPREDICT_ELEMENTWISE set: the general count, for
       the tests that compare them) */
    if (!e->elementwise && (pairs_fixed_owner(e, c, pl, a->line) || pairs_cshift(e, c, pl)))
        return 1;
    PairMap pairs = {0}, *pm = &pairs;
    const SpLoop *l = c->loop;
    const SpArr *arr = c->g ? c->g->r->arr : c->arr;
    FiRefs rf;
    FiSpace sp;
    const Node *ref = c->kind == CM_SCATTER ? l->lhs : c->g->ref;
    const SpCtx *ctx = c->kind == CM_SCATTER ? (l->mask ? l->ctx_mask : l->ctx_iter) : c->g->ctx;
    if (!fi_space(e->fi, l, &sp)) {
        fi_missing_space(e->fi, l, a->line);
        e->failed = 1;
        return 0;
    }
    if (!fi_refs(e->fi, l, ref, ctx, &rf)) {
        fi_missing(e->fi, ref, a->line, "the index vector of a gather");
        e->failed = 1;
        return 0;
    }
    Grid *lg = en_arr_grid(e, l->arr), *rg = en_arr_grid(e, arr);
    int coord[MAX_RANK], own[MAX_RANK];
    long long sub[MAX_RANK];
    int P = e->P;
    IxMap map[MAX_RANK];
    if (lg)
        en_index_maps(e, l, map);
    if (pairs_dense(e, c, l, arr, lg, rg, map, &sp, &rf, pl))
        return 1;
    for (long i = 0; i < rf.n; i++) {
        int runner = 0;
        if (lg) {
            en_point_coords(e, l, map, lg, &sp, rf.point[i], coord);
            runner = hpfmap_rank(lg->rank, lg->shape, e->pr.placement, coord);
        }
        int owner = 0;
        if (rg) {
            for (int d = 0; d < rf.rank; d++)
                sub[d] = rf.sub[d][i];
            en_owner_coords(e, arr, sub, own);
            for (int d = 0; d < rg->rank; d++)
                if (own[d] < 0)
                    own[d] = rg == lg ? coord[d] : 0;
            owner = hpfmap_rank(rg->rank, rg->shape, e->pr.placement, own);
        } else
            owner = runner;
        if (runner >= P || owner >= P)
            continue;
        if (c->kind == CM_SCATTER)
            pm_add(pm, owner, runner, 1);
        else
            pm_add(pm, runner, owner, 1);
    }
    pl_of_map(e, pm, pl);
    return 1;
}

/* The pairs of a gather whose index vector is invariant
 * (spmd_gather_invariant) are the same at every execution: computed once
 * (G_INVARIANT). A scatter's: the same test on its left-hand side. A
 * gather whose index vector depends on scalars besides (spmd_gather_keys)
 * has its schedules kept by their values, without an MPI_Allreduce
 * (G_KEYED); any other is G_OTHER. */
enum { G_INVARIANT = 1, G_KEYED = 2, G_OTHER = -1 };
static int gather_class(const CommEntry *c)
{
    if (c->kind == CM_SCATTER)
        return spmd_gather_invariant(c->loop, c->loop->lhs->ir, NULL) ? G_INVARIANT : G_OTHER;
    int nk = spmd_gather_keys(c->loop, c->g->r, c->g->ctx, NULL);
    return nk == 0 ? G_INVARIANT : nk > 0 ? G_KEYED : G_OTHER;
}

/* The schedules libhpfrt keeps at a gather's call site (hpfrt_gathers_T,
 * runtime/hpfrt_comm.c): the last KEPT_WAYS index vectors, each by a hash
 * of the whole vector, the least recently used replaced. */
enum { KEPT_WAYS = 16 };
typedef struct KeptSched {
    uint64_t key[KEPT_WAYS];
    long used[KEPT_WAYS];         /* Eng.kept_clock at the last use; 0: empty */
} KeptSched;

/* An intrinsic of the source, or one the lowering built (mod, max, min,
 * merge of a CSHIFT's or EOSHIFT's subscripts), as spmd_invariant takes
 * them. */
static int plain_intrinsic(const Node *n)
{
    return (n->u.ref.what == REF_INTRINSIC && !n->ir) ||
           (n->u.ref.what == REF_FUNCTION && !n->u.ref.sym);
}

/* 1: n reads no FORALL index and nothing but scalar variables, constants
 * and intrinsics of those; -1: it reads an index too (and nothing else);
 * 0: it reads something else (an array element, a function). */
static int index_free(const Node *n)
{
    if (!n)
        return 1;
    int r = 1;
    switch (n->kind) {
    case AST_INT_CONST: case AST_REAL_CONST: case AST_LOGICAL_CONST: return 1;
    case AST_NAME: {
        const Symbol *s = n->u.name.sym;
        if (s && s->kind == SYM_INDEX)
            return -1;
        return s && (s->kind == SYM_PARAMETER || (s->kind == SYM_VARIABLE && !n->rank));
    }
    case AST_BINARY: {
        int x = index_free(n->u.binary.lhs), y = index_free(n->u.binary.rhs);
        return !x || !y ? 0 : x < 0 || y < 0 ? -1 : 1;
    }
    case AST_UNARY: case AST_PAREN: return index_free(n->u.unary.operand);
    case AST_REF:
        if (!plain_intrinsic(n))
            return 0;
        for (int i = 0; i < n->u.ref.args.n; i++) {
            int x = index_free(n->u.ref.args.v[i]);
            if (!x)
                return 0;
            if (x < 0)
                r = -1;
        }
        return r;
    default: return 0;
    }
}

/* The values of n's largest parts that read no FORALL index, onto *h: an
 * expression of the indices and of scalars is the same function of the
 * indices while they are unchanged (2*i + mod(k, 16) repeats every 16
 * k). 0 when n reads something else or a value is not known. */
static int key_scalars(Eng *e, const Node *n, uint64_t *h)
{
    int f = index_free(n);
    if (!f)
        return 0;
    if (!n || n->kind == AST_INT_CONST || n->kind == AST_REAL_CONST ||
        n->kind == AST_LOGICAL_CONST)
        return 1;
    if (f > 0) {
        FiValue v;
        if (!fi_eval(e->fi, n, &v))
            return 0;
        uint64_t bits = (uint64_t)v.i;
        if (v.type.base == TY_REAL || v.type.base == TY_COMPLEX)
            memcpy(&bits, &v.r, sizeof bits);
        *h = (*h ^ bits) * 1099511628211ull;
        return 1;
    }
    switch (n->kind) {
    case AST_NAME: return 1;      /* an index */
    case AST_BINARY: return key_scalars(e, n->u.binary.lhs, h) && key_scalars(e, n->u.binary.rhs, h);
    case AST_UNARY: case AST_PAREN: return key_scalars(e, n->u.unary.operand, h);
    case AST_REF:
        for (int i = 0; i < n->u.ref.args.n; i++)
            if (!key_scalars(e, n->u.ref.args.v[i], h))
                return 0;
        return 1;
    default: return 0;
    }
}

/* A key of the index vector of gather c now. Where its subscripts, the
 * loop's bounds, alignment subscripts, guards and mask read indices and
 * scalars only, the values of their parts that read no index
 * (key_scalars: the vector is a function of them and of the mappings; a
 * few evaluations, whatever the loop's size; two values of such a part
 * that give the same vector count as two vectors); otherwise a hash of the
 * whole vector, every evaluation's point (the loop indices there) and
 * subscripts. 0 when something is not known. */
static int index_key(Eng *e, const CommEntry *c, uint64_t *key)
{
    const SpLoop *l = c->loop;
    const SpCtx *ctx = c->g->ctx;
    uint64_t h = 1469598103934665603ull;
    int scalars = ctx == l->ctx_iter || ctx == l->ctx_guard || ctx == l->ctx_mask;
    scalars = scalars && key_scalars(e, l->mask, &h);
    for (int k = 0; scalars && k < l->nidx; k++) {
        const SpIndex *ix = &l->idx[k];
        scalars = key_scalars(e, ix->lo, &h) && key_scalars(e, ix->hi, &h) &&
                  key_scalars(e, ix->st, &h) && key_scalars(e, ix->a, &h) &&
                  key_scalars(e, ix->b, &h);
    }
    for (int g = 0; scalars && g < l->nguard; g++)
        scalars = key_scalars(e, l->guard[g].sub, &h);
    for (int d = 0; scalars && d < c->g->r->arr->rank; d++)
        scalars = key_scalars(e, c->g->r->sub[d], &h);
    if (scalars) {
        *key = h;
        return 1;
    }
    FiSpace sp;
    FiRefs rf;
    if (!fi_space(e->fi, l, &sp) || !fi_refs(e->fi, l, c->g->ref, ctx, &rf))
        return 0;
    h = 1469598103934665603ull;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ull)
    MIX(rf.n);
    for (long i = 0; i < rf.n; i++) {
        for (int k = 0; k < sp.nidx; k++)
            MIX(sp.idx[k][rf.point[i]]);
        for (int d = 0; d < rf.rank; d++)
            MIX(rf.sub[d][i]);
    }
#undef MIX
    *key = h;
    return 1;
}

/* Whether libhpfrt runs this execution of gather c through a schedule it
 * kept: an invariant one's from its second execution on (first: 0 on the
 * first); another's when its index vector is one of the last KEPT_WAYS
 * (the schedule then becomes the most recently used; otherwise the new
 * one replaces the least recently used, as the library does). */
static int kept_schedule(Eng *e, const CommEntry *c, int first, uint64_t *vkey, int *have)
{
    if (e->ginv[c->id - 1] == G_INVARIANT)
        return !first;
    uint64_t key;
    if (!index_key(e, c, &key))
        return 0;
    *vkey = key;               /* (for the memo: this execution's index vector) */
    *have = 1;
    if (!e->kept)
        e->kept = xcalloc((size_t)e->g->ncomm, sizeof *e->kept);
    KeptSched *k = &e->kept[c->id - 1];
    long now = ++e->kept_clock;
    int lru = 0;
    for (int w = 0; w < KEPT_WAYS; w++) {
        if (k->used[w] && k->key[w] == key) {
            k->used[w] = now;
            return 1;
        }
        if (k->used[w] < k->used[lru])
            lru = w;
    }
    k->key[lru] = key;
    k->used[lru] = now;
    return 0;
}

/* Whether keyed gather c's index vector now is one libhpfrt keeps a
 * schedule for (kept_schedule's test, the ways left as they are). */
static int keyed_kept(Eng *e, const CommEntry *c)
{
    uint64_t key;
    if (!e->kept || !index_key(e, c, &key))
        return 0;
    const KeptSched *k = &e->kept[c->id - 1];
    for (int w = 0; w < KEPT_WAYS; w++)
        if (k->used[w] && k->key[w] == key)
            return 1;
    return 0;
}

/* The pairs kept for invariant gather c, or NULL. */
static GatherCache *gcache_of(const Eng *e, const CommEntry *c)
{
    for (int i = 0; i < e->ngcache; i++)
        if (e->gcache[i].c == c)
            return &e->gcache[i];
    return NULL;
}

int en_gather_kept(Eng *e, const CommEntry *c)
{
    if (!e->ginv)
        return 0;
    if (e->ginv[c->id - 1] == G_KEYED)
        return keyed_kept(e, c);
    return e->ginv[c->id - 1] == G_INVARIANT && gcache_of(e, c);
}

/* ---- pairs kept from one run to the next (EngineMemo) ---- */

/* The mapping search predicts one program under many mappings; a gather
 * whose loop, reference and arrays' layouts are the same in two of them
 * pairs the same processors. Its pairs are kept by a key that spells out
 * all they depend on: the statement, the loop's constant bounds, the grid
 * of the iterations and of the array gathered, the alignment of each
 * loop index and of each dimension of that array, and the distribution of
 * every template dimension concerned. The least recently used go first
 * past MEMO_MAX_BYTES. */
enum { MEMO_MAX_BYTES = 128 << 20 };

typedef struct {
    char *key;                    /* NULL: a free slot */
    uint64_t h;                   /* the key's hash */
    int next;                     /* the next in its bucket, or in the free list; -1 */
    PairList pl;
    size_t bytes;
    long used;
} MemoEntry;

struct EngineMemo {
    MemoEntry *v;
    int n, cap;                   /* slots used (live or free), allocated */
    int live, free_slot;          /* entries kept; the first free slot, or -1 */
    int *head;                    /* nb buckets: the first entry, or -1 */
    size_t nb;
    size_t bytes;
    long clock, hits, misses;
};

EngineMemo *engine_memo_new(void)
{
    EngineMemo *m = xcalloc(1, sizeof(EngineMemo));
    m->free_slot = -1;
    return m;
}

void engine_memo_free(EngineMemo *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->n; i++)
        if (m->v[i].key) {
            free(m->v[i].key);
            pl_free(&m->v[i].pl);
        }
    free(m->v);
    free(m->head);
    free(m);
}

/* The buckets again for twice as many entries. */
static void memo_rehash(EngineMemo *m)
{
    free(m->head);
    m->nb = m->nb ? 2 * m->nb : 64;
    m->head = xmalloc(m->nb * sizeof *m->head);
    for (size_t b = 0; b < m->nb; b++)
        m->head[b] = -1;
    for (int i = 0; i < m->n; i++)
        if (m->v[i].key) {
            size_t b = hash_u64(m->v[i].h, m->nb);
            m->v[i].next = m->head[b];
            m->head[b] = i;
        }
}

/* Drops the least recently used entry. */
static void memo_evict(EngineMemo *m)
{
    int old = -1;
    for (int i = 0; i < m->n; i++)
        if (m->v[i].key && (old < 0 || m->v[i].used < m->v[old].used))
            old = i;
    size_t b = hash_u64(m->v[old].h, m->nb);
    int *at = &m->head[b];
    while (*at != old)
        at = &m->v[*at].next;
    *at = m->v[old].next;
    free(m->v[old].key);
    pl_free(&m->v[old].pl);
    m->bytes -= m->v[old].bytes;
    m->v[old].key = NULL;
    m->v[old].next = m->free_slot;
    m->free_slot = old;
    m->live--;
}

void engine_memo_counts(const EngineMemo *m, long *hits, long *misses)
{
    *hits = m ? m->hits : 0;
    *misses = m ? m->misses : 0;
}

static void key_dim(StrBuf *b, const HpfDim *d)
{
    sb_printf(b, "[%ld %ld %d %ld %d]", d->lb, d->n, d->nprocs, d->k, d->fmt);
}

static void key_grid(StrBuf *b, const Grid *g)
{
    sb_printf(b, "g%d", g ? g->rank : -1);
    for (int d = 0; g && d < g->rank; d++)
        sb_printf(b, ",%d", g->shape[d]);
}

/* The key of gather c's pairs, or 0 when they are not kept: a mask or
 * guards, processor classes; for an invariant gather (vkey NULL) bounds
 * that are not constant. The key of another holds its index vector's
 * (index_key: the values of the scalars it depends on, or a hash of the
 * whole vector, every point and subscript), as libhpfrt keeps its
 * schedules. */
static int memo_key(Eng *e, const Aau *a, const CommEntry *c, const uint64_t *vkey, StrBuf *b)
{
    const SpLoop *l = c->loop;
    if (!e->gmemo || e->elementwise || e->P != e->NP || c->kind != CM_GATHER || !c->g || !l
        || l->mask || l->nguard)
        return 0;
    const SpArr *arr = c->g->r->arr;
    sb_printf(b, "%d %s|P%d %d %d|", a->line, a->label, e->P, e->pr.placement, e->cube_dim);
    if (vkey)
        sb_printf(b, "v%016llx|", (unsigned long long)*vkey);
    for (int k = 0; k < l->nidx; k++) {
        long long lo, hi, st = 1;
        const SpIndex *ix = &l->idx[k];
        if (!cint(ix->lo, &lo) || !cint(ix->hi, &hi) || (ix->st && !cint(ix->st, &st))) {
            if (!vkey)
                return 0;
            sb_printf(b, "%s=?;", ix->var->name);   /* (in the vector's key) */
            continue;
        }
        sb_printf(b, "%s=%lld:%lld:%lld;", ix->var->name, lo, hi, st);
    }
    Grid *lg = en_arr_grid(e, l->arr), *rg = en_arr_grid(e, arr);
    key_grid(b, lg);
    if (lg) {
        IxMap map[MAX_RANK];
        en_index_maps(e, l, map);
        for (int k = 0; k < l->nidx; k++) {
            sb_printf(b, "|i%d %d", k, map[k].gd);
            if (map[k].gd >= 0) {
                sb_printf(b, " %lld %lld", map[k].A, map[k].B);
                key_dim(b, map[k].hd);
            }
        }
    }
    sb_puts(b, "|");
    key_grid(b, rg);
    sb_printf(b, " same %d", rg == lg);
    if (rg) {
        Tmpl *m = en_tmpl_of(e, arr->tmpl);
        for (int d = 0; d < arr->rank; d++) {
            int t = arr->tdim[d];
            sb_printf(b, "|d%d t%d", d, t);
            if (t >= 0) {
                long long ca, cb;
                en_align_coef(e, arr, d, &ca, &cb);
                sb_printf(b, " %lld %lld g%d", ca, cb, arr->tmpl->gdim[t]);
                key_dim(b, &m->d[t]);
            }
        }
        for (int t = 0; t < arr->tmpl->rank; t++)
            if (arr->fix[t] && arr->tmpl->gdim[t] >= 0) {
                sb_printf(b, "|f%d %lld", t, en_eval_int(e, arr->fix[t], 1, 0, "alignment"));
                key_dim(b, &m->d[t]);
            }
    }
    return 1;
}

static void pl_copy(const PairList *from, PairList *to)
{
    long n = from->start[from->nround];
    size_t k = n > 0 ? (size_t)n : 1;
    to->nround = from->nround;
    to->dst = xmalloc(k * sizeof *to->dst);
    to->src = xmalloc(k * sizeof *to->src);
    to->n = xmalloc(k * sizeof *to->n);
    to->hops = xmalloc(k * sizeof *to->hops);
    to->start = xmalloc(((size_t)from->nround + 1) * sizeof *to->start);
    memcpy(to->dst, from->dst, (size_t)n * sizeof *to->dst);
    memcpy(to->src, from->src, (size_t)n * sizeof *to->src);
    memcpy(to->n, from->n, (size_t)n * sizeof *to->n);
    memcpy(to->hops, from->hops, (size_t)n * sizeof *to->hops);
    memcpy(to->start, from->start, ((size_t)from->nround + 1) * sizeof *to->start);
}

/* gather_pairs, through the memo where it keeps them; vkey: the index
 * vector's key of a gather that is not invariant (NULL for one that is). */
static int memo_pairs(Eng *e, Aau *a, const CommEntry *c, PairList *pl, const uint64_t *vkey)
{
    StrBuf key = {0};
    if (e->ginv[c->id - 1] != G_INVARIANT && !vkey)
        return gather_pairs(e, a, c, pl);
    if (!memo_key(e, a, c, vkey, &key)) {
        sb_free(&key);
        return gather_pairs(e, a, c, pl);
    }
    EngineMemo *m = e->gmemo;
    m->clock++;
    uint64_t h = hash_str(key.s);
    for (int i = m->nb ? m->head[hash_u64(h, m->nb)] : -1; i >= 0; i = m->v[i].next)
        if (m->v[i].h == h && !strcmp(m->v[i].key, key.s)) {
            m->v[i].used = m->clock;
            m->hits++;
            pl_copy(&m->v[i].pl, pl);
            sb_free(&key);
            return 1;
        }
    m->misses++;
    if (!gather_pairs(e, a, c, pl) || e->failed) {
        sb_free(&key);
        return 0;
    }
    long n = pl->start[pl->nround];
    size_t bytes = (size_t)n * (2 * sizeof(int) + sizeof(double) + sizeof(int)) + key.len;
    if (bytes > MEMO_MAX_BYTES / 4) {
        sb_free(&key);
        return 1;
    }
    while (m->live && m->bytes + bytes > MEMO_MAX_BYTES)
        memo_evict(m);
    int i = m->free_slot;
    if (i >= 0) {
        m->free_slot = m->v[i].next;
    } else {
        if (m->n == m->cap) {
            m->cap = m->cap ? 2 * m->cap : 16;
            m->v = xrealloc(m->v, (size_t)m->cap * sizeof *m->v);
        }
        i = m->n++;
    }
    MemoEntry *x = &m->v[i];
    x->key = key.s;
    x->h = h;
    x->bytes = bytes;
    x->used = m->clock;
    pl_copy(pl, &x->pl);
    m->bytes += bytes;
    m->live++;
    if ((size_t)m->live > m->nb)
        memo_rehash(m);          /* (links x too) */
    else {
        size_t b = hash_u64(h, m->nb);
        x->next = m->head[b];
        m->head[b] = i;
    }
    return 1;
}

static void gather(Eng *e, Aau *a, const CommEntry *c)
{
    const SpArr *arr = c->g ? c->g->r->arr : c->arr;
    PairList local = {0}, *pl = &local;
    if (!e->ginv)
        e->ginv = xcalloc((size_t)e->g->ncomm, 1);
    if (!e->ginv[c->id - 1])
        e->ginv[c->id - 1] = (signed char)gather_class(c);
    GatherCache *gc = NULL;
    int first = 0;
    if (e->ginv[c->id - 1] == G_INVARIANT) {
        gc = gcache_of(e, c);
        if (!gc) {
            if (!memo_pairs(e, a, c, &local, NULL))
                return;
            e->gcache = xrealloc(e->gcache, (size_t)(e->ngcache + 1) * sizeof *e->gcache);
            e->gcache[e->ngcache] = (GatherCache){.c = c, .pl = local};
            gc = &e->gcache[e->ngcache++];
            first = 1;
        }
        pl = &gc->pl;
    }
    /* (a gather's index vector before its pairs: both ask fi) */
    uint64_t vkey = 0;
    int have_vkey = 0;
    int kept = c->kind == CM_GATHER && c->g && kept_schedule(e, c, first, &vkey, &have_vkey);
    if (e->ginv[c->id - 1] == G_KEYED)
        en_charge_all(e, a, M_OVHD, e->pr.call_ovhd, NULL);   /* hpfrt_gkey */
    if (!gc && !memo_pairs(e, a, c, &local, have_vkey ? &vkey : NULL))
        return;
    int es = elsize(arr->type);
    double req = c->kind == CM_SCATTER ? 0 : 8.0 * arr->rank;
    double val = c->kind == CM_SCATTER ? es + 8.0 * arr->rank : es;
    if (gc && !gc->made)           /* once: no remote pairs makes no rounds */
        make_rounds(e, gc, req, val);
    if (c->kind == CM_GATHER && c->g && e->ginv[c->id - 1] == G_OTHER
        && (e->NP == 1 || en_arr_grid(e, arr) == NULL))
        whole_gather(e, a, pl);
    else if (kept)
        kept_exchange(e, a, pl, val, gc,
                      e->ginv[c->id - 1] == G_OTHER && e->NP > 1 && en_arr_grid(e, arr) != NULL);
    else
        pairs_exchange(e, a, pl, req, val, gc);
    if (pl == &local)
        pl_free(&local);
}

/* The name of a communication in a trace. */
static const char *comm_name(int kind)
{
    switch (kind) {
    case CM_OVERLAP: return "shift";
    case CM_GATHER: return "gather";
    case CM_SCATTER: return "scatter";
    case CM_BCAST: case CM_BCASTIO: return "broadcast";
    case CM_REDUCE: return "allreduce";
    case CM_BARRIER: return "barrier";
    default: return "communication";
    }
}

/* The first collective of its kind in a run on several processors costs
 * MPI's set-up of it (coll.first.*) on every processor, once. */
static void first_coll(Eng *e, Aau *a, int *done, double t)
{
    if (*done || e->NP < 2)
        return;
    *done = 1;
    en_charge_all(e, a, M_COMM, t, NULL);
}

/* The call of a broadcast or a reduction in libhpfrt: the procedure call,
 * the library's own work (its timers, rt.coll) and, on one process, what
 * MPI does for a collective of one (rt.coll.self), and the timers of its
 * own region (rt.region) when hpfc gives it one (an element's broadcast);
 * the messages follow. */
static void coll_call(Eng *e, Aau *a, int region)
{
    double t = e->pr.call_ovhd + e->pr.rt_coll + (e->NP == 1 ? e->pr.rt_coll_self : 0) +
               (region ? e->pr.rt_region : 0);
    en_charge_all(e, a, M_OVHD, t, NULL);
}

void en_comm(Eng *e, Aau *a)
{
    const CommEntry *c = a->comm;
    begin(e);
    if (!c) {
        en_end(e, a, e->NP, 1);
        return;
    }
    e->in_comm++;
    /* traced: one collective event on each processor encloses its steps */
    double *c0 = e->tr ? buf_get(e) : NULL;
    if (c0)
        memcpy(c0, e->clock, (size_t)e->P * sizeof *c0);
    if (e->pr.jitter > 0 && e->NP > 1) {
        /* the processes' times since their last communication vary (the
           operating system, the other processes of the node): the last of
           the k that meet arrives later than the model's time by the
           expected maximum of k normals times the deviation of that time;
           a shift meets two. comm.jitter is the relative deviation of a
           time of comm.jitter.interval (tau); a longer time T is made of
           T/tau such intervals varying independently, so that its
           deviation is comm.jitter x sqrt(T tau), not comm.jitter x T:
           charged once per synchronization, it does not grow with the
           iterations before it as their sum does */
        double z = hpfmap_normal_max(c->kind == CM_OVERLAP ? 2 : e->NP) * e->pr.jitter;
        double tau = e->pr.jitter_tau;
        for (int p = 0; p < e->P; p++) {
            double t = e->clock[p] - e->last_sync[p];
            charge(e, a, M_WAIT, p, z * (t <= tau ? t : sqrt(t * tau)));
        }
    }
    switch (c->kind) {
    case CM_OVERLAP: overlap_shift(e, a, c); break;
    case CM_GATHER:
    case CM_SCATTER: gather(e, a, c); break;
    case CM_BCAST: {
        int root = 0;
        const SpRef *r = c->elem ? c->elem->ir : NULL;
        if (r && r->arr && r->arr->tmpl) {
            long long sub[MAX_RANK];
            int own[MAX_RANK];
            for (int d = 0; d < r->arr->rank; d++)
                sub[d] = en_eval_int(e, r->sub[d], 1, a->line, "the owner of an element");
            en_owner_coords(e, r->arr, sub, own);
            Grid *g = en_arr_grid(e, r->arr);
            for (int d = 0; d < g->rank; d++)
                if (own[d] < 0)
                    own[d] = 0;
            root = hpfmap_rank(g->rank, g->shape, e->pr.placement, own);
        }
        coll_call(e, a, 1);
        first_coll(e, a, &e->bcast_done, e->pr.first_bcast);
        en_broadcast(e, a, root, elsize(c->type));
        break;
    }
    case CM_BCASTIO:
        coll_call(e, a, 0);
        first_coll(e, a, &e->bcast_done, e->pr.first_bcast);
    {
        double b = (double)c->bytes + (c->io_aau ? en_io_dyn_bytes(e, c->io_aau) : 0);
        en_broadcast(e, a, 0, b > 0 ? b : 8);
    }
        break;
    case CM_REDUCE:
        coll_call(e, a, 0);
        first_coll(e, a, &e->red_done, e->pr.first_red);
        en_reduce_all(e, a, c->red_op, (double)c->bytes, c->type);
        break;
    case CM_BARRIER:
        en_sync_all(e, a);
        en_charge_all(e, a, M_OVHD, e->pr.sync, NULL);
        break;
    }
    if (e->pr.jitter > 0)
        memcpy(e->last_sync, e->clock, (size_t)e->P * sizeof *e->last_sync);
    if (c0) {
        for (int p = 0; p < e->P; p++)
            if (e->clock[p] > c0[p]) {
                TraceEvent ev = {c0[p], e->clock[p], p, TR_COLL, a->line, a->id, -1, -1, 0,
                                 comm_name(c->kind)};
                trace_add(e->tr, &ev);
            }
        buf_put(e, c0);
    }
    e->in_comm--;
    en_end(e, a, e->NP, 1);
}

/* Frees the pairs and rounds kept for invariant gathers. */
void en_comm_free(Eng *e)
{
    for (int i = 0; i < e->ngcache; i++) {
        pl_free(&e->gcache[i].pl);
        rounds_free(&e->gcache[i]);
    }
    free(e->gcache);
}
