/* hpfrt_comm.c - libhpfrt, part 2: communication. Overlap shifts, gathers
 * (inspector/executor), broadcasts of one element, reductions (also with
 * location) and broadcasts from the I/O process. One generic routine per
 * operation works on elements of esize bytes; the per-type entry points of
 * hpfrt.h, generated from HPFRT_TYPES, only fix the element type. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpfrt_impl.h"

#define rt hpfrt_rt

enum { TAG_REQ = 7001, TAG_REP = 7002, TAG_UP = 7003, TAG_DOWN = 7004 };

static const char *const type_name[RT_NTYPES] = {
#define X(T, C) #T,
    HPFRT_TYPES(X)
#undef X
};

static MPI_Datatype mpi_type(int ty)
{
    switch (ty) {
    case RT_i4: return MPI_INT;
    case RT_i8: return MPI_LONG_LONG;
    case RT_r4: return MPI_FLOAT;
    case RT_r8: return MPI_DOUBLE;
    case RT_c4: return MPI_C_FLOAT_COMPLEX;
    case RT_c8: return MPI_C_DOUBLE_COMPLEX;
    default: return MPI_INT;   /* RT_l4: LOGICAL(4) is a C int */
    }
}

/* A committed array whose elements have the size of the routine's type. */
static RtArr *arr_typed(int ha, size_t esize, const char *fn)
{
    RtArr *a = rt_arr(ha, fn);
    if ((size_t)a->esize != esize)
        rt_error("%s: array '%s' has elements of %d bytes, not %zu", fn, a->name,
                 a->esize, esize);
    return a;
}

/* An element of MPI messages: esize contiguous bytes. */
static MPI_Datatype elem_type(size_t esize)
{
    MPI_Datatype t;
    MPI_Type_contiguous((int)esize, MPI_BYTE, &t);
    MPI_Type_commit(&t);
    return t;
}

/* Storage coordinates of an element given by global indices idx(1:r):
 * the cell of each distributed dimension, the index of each local one.
 * Indices must lie within the array's bounds. */
static void storage_coords(const RtArr *a, const int *idx, long *sc, const char *fn)
{
    for (int d = 0; d < a->r; d++) {
        const RtArrDim *m = &a->dim[d];
        if (idx[d] < m->lb || idx[d] > m->ub) {
            char buf[100];
            size_t n = 0;
            for (int e = 0; e < a->r; e++)
                n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%d", e ? "," : "",
                                      idx[e]);
            rt_error("%s: index (%s) out of the bounds of array '%s' (dimension %d "
                     "is %ld:%ld)", fn, buf, a->name, d + 1, m->lb, m->ub);
        }
        sc[d] = m->tdim ? m->alpha * idx[d] + m->beta : idx[d];
    }
}

/* Is the element with storage coordinates sc held (owned, not a ghost)
 * by this process? */
static int held_here(const RtArr *a, const long *sc)
{
    if (!a->present)
        return 0;
    for (int d = 0; d < a->r; d++) {
        const RtArrDim *m = &a->dim[d];
        if (m->tdim && hpfmap_owner(&m->hd, sc[d]) != a->grid.coords[m->g])
            return 0;
    }
    return 1;
}

/* Offset (in elements) of the element with storage coordinates sc on its
 * holder, the calling process. */
static size_t held_offset(const RtArr *a, const long *sc)
{
    long l[RT_MAXR];
    for (int d = 0; d < a->r; d++)
        l[d] = a->dim[d].tdim ? hpfmap_local(&a->dim[d].hd, sc[d]) : sc[d];
    return rt_offset(a, l);
}

/* dst + k*es = the element at src + off[k] (bytes), k < n. */
static void elem_copy(char *dst, const char *src, const size_t *off, long n, size_t es)
{
    for (long k = 0; k < n; k++)
        memcpy(dst + (size_t)k * es, src + off[k], es);
}

/* The element at dst + off[k] (bytes) = src + k*es, k < n. */
static void elem_scatter(char *dst, const char *src, const size_t *off, long n, size_t es)
{
    for (long k = 0; k < n; k++)
        memcpy(dst + off[k], src + (size_t)k * es, es);
}

/* ---- the executor of gathers and general ghost fills -------------------- */

/* Who sends what to whom to fetch elements held elsewhere: made once by
 * plan_make (the inspector's exchange), run by plan_exec as many times as
 * the same elements are wanted (a kept gather schedule). */
typedef struct {
    int *cnt;               /* 4*np: scount, rcount, sdispl, rdispl */
    long ns, nr;            /* elements asked of others, asked of this process */
    size_t *dst;            /* ns: where each reply goes (bytes from dst), partner order */
    size_t *src;            /* nr: where each answered element is (bytes from x) */
} RtPlan;

/* The plan to fetch m elements held elsewhere: element j has storage
 * coordinates sc[j*r .. j*r+r-1], is held by process owner[j] (not this
 * one) and goes to dst + dstoff[j] (bytes). Collective over all processes,
 * also those with m = 0. Counts per partner go round by MPI_Alltoall; the
 * storage coordinates of the requests then travel by MPI_Isend/MPI_Irecv
 * to the partners with nonzero counts only, and each owner turns the ones
 * it receives into offsets in its local array. */
static void plan_make(RtPlan *pl, const RtArr *a, long m, const long *sc, const int *owner,
                      const size_t *dstoff)
{
    int np = rt.np, r = a->r;
    size_t es = (size_t)a->esize;
    int *scount = rt_alloc((size_t)np * 4 * sizeof *scount);
    int *rcount = scount + np, *sdispl = scount + 2 * np, *rdispl = scount + 3 * np;
    memset(scount, 0, (size_t)np * sizeof *scount);
    for (long j = 0; j < m; j++)
        scount[owner[j]]++;
    MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, rt.comm);
    long ns = 0, nr = 0;
    int npart = 0;
    for (int q = 0; q < np; q++) {
        sdispl[q] = (int)ns;
        rdispl[q] = (int)nr;
        ns += scount[q];
        nr += rcount[q];
        npart += (scount[q] > 0) + (rcount[q] > 0);
    }
    /* requests in owner order; pl->dst[pos] is where the reply at pos goes */
    size_t *pdst = rt_alloc((size_t)(ns ? ns : 1) * sizeof *pdst);
    long *sreq = rt_alloc((size_t)(ns * r + 1) * sizeof *sreq);
    long *rreq = rt_alloc((size_t)(nr * r + 1) * sizeof *rreq);
    int *fill = rt_alloc((size_t)np * sizeof *fill);
    memcpy(fill, sdispl, (size_t)np * sizeof *fill);
    for (long j = 0; j < m; j++) {
        long pos = fill[owner[j]]++;
        pdst[pos] = dstoff[j];
        memcpy(sreq + pos * r, sc + j * r, (size_t)r * sizeof *sreq);
    }
    free(fill);
    MPI_Request *req = rt_alloc((size_t)(npart + 1) * sizeof *req);
    int nq = 0;
    for (int q = 0; q < np && r > 0; q++)
        if (rcount[q] > 0)
            MPI_Irecv(rreq + (long)rdispl[q] * r, rcount[q] * r, MPI_LONG, q, TAG_REQ,
                      rt.comm, &req[nq++]);
    for (int q = 0; q < np && r > 0; q++)
        if (scount[q] > 0)
            MPI_Isend(sreq + (long)sdispl[q] * r, scount[q] * r, MPI_LONG, q, TAG_REQ,
                      rt.comm, &req[nq++]);
    MPI_Waitall(nq, req, MPI_STATUSES_IGNORE);
    size_t *psrc = rt_alloc((size_t)(nr ? nr : 1) * sizeof *psrc);
    for (long j = 0; j < nr; j++)
        psrc[j] = held_offset(a, rreq + j * r) * es;
    free(req);
    free(sreq);
    free(rreq);
    *pl = (RtPlan){ scount, ns, nr, pdst, psrc };
}

/* Runs a plan: the owners send the values of the elements asked of them
 * (read from x), in request order, to the partners with nonzero counts.
 * x may be dst itself (the replies are unpacked after all are read). */
static void plan_exec(const RtPlan *pl, size_t es, const char *x, char *dst)
{
    int np = rt.np;
    const int *scount = pl->cnt, *rcount = scount + np, *sdispl = scount + 2 * np,
              *rdispl = scount + 3 * np;
    char *srep = rt_alloc((size_t)pl->nr * es + 1);
    char *rrep = rt_alloc((size_t)pl->ns * es + 1);
    MPI_Request *req = rt_alloc((size_t)(2 * np) * sizeof *req);
    int nq = 0;
    for (int q = 0; q < np; q++)
        if (scount[q] > 0)
            MPI_Irecv(rrep + (size_t)sdispl[q] * es, (int)((size_t)scount[q] * es), MPI_BYTE,
                      q, TAG_REP, rt.comm, &req[nq++]);
    elem_copy(srep, x, pl->src, pl->nr, es);
    for (int q = 0; q < np; q++)
        if (rcount[q] > 0)
            MPI_Isend(srep + (size_t)rdispl[q] * es, (int)((size_t)rcount[q] * es), MPI_BYTE,
                      q, TAG_REP, rt.comm, &req[nq++]);
    MPI_Waitall(nq, req, MPI_STATUSES_IGNORE);
    elem_scatter(dst, rrep, pl->dst, pl->ns, es);
    free(req);
    free(srep);
    free(rrep);
}

static void plan_free(RtPlan *pl)
{
    free(pl->cnt);
    free(pl->dst);
    free(pl->src);
    memset(pl, 0, sizeof *pl);
}

/* Fetches m elements held elsewhere (plan_make's arguments) once. */
static void fetch(const RtArr *a, const char *x, long m, const long *sc,
                  const int *owner, char *dst, const size_t *dstoff)
{
    RtPlan pl;
    plan_make(&pl, a, m, sc, owner, dstoff);
    plan_exec(&pl, (size_t)a->esize, x, dst);
    plan_free(&pl);
}

/* ---- gather ---------------------------------------------------------------- */

/* The inspector of a gather of the n elements at global indices idx: the
 * offset in bytes in x of each held here (loc[k]; (size_t)-1 for the
 * others), and the plan to fetch the others. Collective unless the array
 * is held whole by every process (then no plan is made: *made = 0). */
static void inspect(const RtArr *a, const char *fn, long n, const int *idx, size_t *loc,
                    RtPlan *pl, int *made)
{
    int r = a->r;
    size_t es = (size_t)a->esize;
    long sc1[RT_MAXR];
    *made = 0;
    if (a->everywhere) {
        /* every process holds every element: no communication */
        for (long k = 0; k < n; k++) {
            storage_coords(a, idx + k * r, sc1, fn);
            loc[k] = held_offset(a, sc1) * es;
        }
        return;
    }
    long m = 0;
    long *sc = rt_alloc((size_t)(n * r + 1) * sizeof *sc);
    int *owner = rt_alloc((size_t)(n ? n : 1) * sizeof *owner);
    size_t *off = rt_alloc((size_t)(n ? n : 1) * sizeof *off);
    for (long k = 0; k < n; k++) {
        long *s = sc + m * r;
        storage_coords(a, idx + k * r, s, fn);
        if (held_here(a, s)) {
            loc[k] = held_offset(a, s) * es;
        } else {
            loc[k] = (size_t)-1;
            owner[m] = rt_owner_rank(a, s, 1);
            off[m] = (size_t)k * es;
            m++;
        }
    }
    if (rt.np > 1 || m > 0) {   /* (one process holding everything: no MPI) */
        plan_make(pl, a, m, sc, owner, off);
        *made = 1;
    }
    free(sc);
    free(owner);
    free(off);
}

/* buf(k) = the element at x + loc[k] bytes, for the k held here (a
 * gather without a schedule). */
static void local_copies(char *buf, const char *x, const size_t *loc, long n, size_t es)
{
    switch (es) {
    case 4:
        for (long k = 0; k < n; k++)
            if (loc[k] != (size_t)-1)
                memcpy(buf + 4 * k, x + loc[k], 4);
        break;
    case 8:
        for (long k = 0; k < n; k++)
            if (loc[k] != (size_t)-1)
                memcpy(buf + 8 * k, x + loc[k], 8);
        break;
    default:
        for (long k = 0; k < n; k++)
            if (loc[k] != (size_t)-1)
                memcpy(buf + es * k, x + loc[k], es);
    }
}

/* A gather from an array this process holds whole, every distributed
 * dimension on one process (one process in all, or an array every process
 * holds): the offset of each element from its indices through each
 * dimension's affine map, no inspection, no plan. 0 when the array is
 * not so held (hpfmap's local index of a cell is not cell - lb + 1). */
static int gather_whole(const RtArr *a, const char *fn, const char *x, long n,
                        const int *idx, char *buf, size_t es)
{
    int r = a->r;
    long coef[RT_MAXR], cst[RT_MAXR];
    for (int d = 0; d < r; d++) {
        const RtArrDim *m = &a->dim[d];
        coef[d] = 1;
        cst[d] = -m->lo;
        if (m->tdim) {
            const HpfDim *hd = &m->hd;
            if (hd->nprocs != 1 || hd->n < 1 || hpfmap_local(hd, hd->lb) != 1
                || hpfmap_local(hd, hd->lb + hd->n - 1) != hd->n)
                return 0;
            coef[d] = m->alpha;
            cst[d] = m->beta - hd->lb + 1 - m->lo;
        }
    }
    for (long k = 0; k < n; k++) {
        const int *i = idx + k * r;
        size_t off = 0;
        for (int d = 0; d < r; d++) {
            const RtArrDim *m = &a->dim[d];
            if (i[d] < m->lb || i[d] > m->ub) {
                long sc[RT_MAXR];
                storage_coords(a, i, sc, fn);   /* the error */
            }
            off += (size_t)(coef[d] * i[d] + cst[d]) * m->stride;
        }
        memcpy(buf + (size_t)k * es, x + off * es, es);
    }
    return 1;
}

static void gather(const char *fn, int ha, const char *x, int n, const int *idx,
                   char *buf, size_t esize)
{
    RtArr *a = arr_typed(ha, esize, fn);
    if (n < 0)
        rt_error("%s: negative element count %d", fn, n);
    double t0 = rt_comm_begin();
    size_t *loc = rt_alloc((size_t)(n ? n : 1) * sizeof *loc);
    RtPlan pl;
    int made;
    inspect(a, fn, n, idx, loc, &pl, &made);
    local_copies(buf, x, loc, n, esize);
    if (made) {
        plan_exec(&pl, esize, x, buf);
        plan_free(&pl);
    }
    free(loc);
    rt_comm_end(t0);
}

/* ---- gathers with a schedule ------------------------------------------------- */

/* A gather's schedule: the index vector it was made for, the offsets of
 * the elements held here and the plan for the others. A call site keeps
 * the last SCHED_WAYS schedules (a program whose sweeps alternate between
 * a few index vectors reuses each). Every process makes and drops the same
 * schedules at the same calls, so that the plans of one way belong to one
 * collective inspection everywhere. */
enum { SCHED_WAYS = 16 };

enum { SCHED_KEYS = 8 };

typedef struct {
    long used;              /* rt.sched_clock at the last use; 0: empty */
    int ha, hh;             /* the array gathered from, the loop's home array */
    long serial, hserial;   /* their commits */
    int nkey;               /* the site's key when it was made (hpfrt_gkey) */
    long long key[SCHED_KEYS];
    long n;
    int *idx;               /* n*r: the index vector */
    size_t *loc;            /* n: as inspect() */
    long nrun;              /* the local elements as runs of contiguous ones: */
    long *run;              /* nrun triples: first k, offset in x (bytes), length */
    int made;
    RtPlan pl;
} RtSched;

/* The elements held here, loc[k] != -1, as runs: consecutive k whose
 * elements are consecutive in x (a shift, a section of stride 1). */
static void sched_runs(RtSched *s, size_t es)
{
    long n = s->n, nrun = 0;
    for (long k = 0; k < n; k++)
        if (s->loc[k] != (size_t)-1 && (k == 0 || s->loc[k - 1] == (size_t)-1 ||
                                         s->loc[k] != s->loc[k - 1] + es))
            nrun++;
    s->run = rt_alloc((size_t)(3 * nrun + 1) * sizeof *s->run);
    s->nrun = nrun;
    long r = -1;
    for (long k = 0; k < n; k++) {
        if (s->loc[k] == (size_t)-1)
            continue;
        if (r >= 0 && s->loc[k - 1] != (size_t)-1 && s->loc[k] == s->loc[k - 1] + es) {
            s->run[3 * r + 2]++;
            continue;
        }
        r++;
        s->run[3 * r] = k;
        s->run[3 * r + 1] = (long)s->loc[k];
        s->run[3 * r + 2] = 1;
    }
}

typedef struct RtSite {
    RtSched way[SCHED_WAYS];
    int nkey;               /* the key of the present call (hpfrt_gkey) */
    long long key[SCHED_KEYS];
} RtSite;

/* Whether schedule s was made for the site's present key. */
static int same_key(const RtSched *s, const RtSite *site)
{
    return s->nkey == site->nkey &&
           !memcmp(s->key, site->key, (size_t)site->nkey * sizeof *site->key);
}

/* The site of handle *hs, made at its first call (*hs = 0). */
static RtSite *site_of(int *hs, const char *fn)
{
    if (*hs < 0 || *hs > rt.nsite)
        rt_error("%s: bad schedule handle %d", fn, *hs);
    if (*hs == 0) {
        if (rt.nsite == rt.maxsite) {
            rt.maxsite = rt.maxsite ? 2 * rt.maxsite : 16;
            rt.site = rt_grow(rt.site, (size_t)rt.maxsite * sizeof *rt.site);
        }
        memset(&rt.site[rt.nsite], 0, sizeof rt.site[rt.nsite]);
        *hs = ++rt.nsite;
    }
    return &rt.site[*hs - 1];
}

void hpfrt_gkey_(int *hs, const long long *key, const int *m)
{
    rt_need_init("hpfrt_gkey");
    if (*m < 0 || *m > SCHED_KEYS)
        rt_error("hpfrt_gkey: a key of %d values (0 to %d)", *m, SCHED_KEYS);
    RtSite *site = site_of(hs, "hpfrt_gkey");
    site->nkey = *m;
    memcpy(site->key, key, (size_t)*m * sizeof *key);
}

static void sched_drop(RtSched *s)
{
    free(s->idx);
    free(s->loc);
    free(s->run);
    if (s->made)
        plan_free(&s->pl);
    memset(s, 0, sizeof *s);
}

void rt_sched_free(void)
{
    for (int i = 0; i < rt.nsite; i++)
        for (int w = 0; w < SCHED_WAYS; w++)
            sched_drop(&rt.site[i].way[w]);
    free(rt.site);
    rt.site = NULL;
    rt.nsite = rt.maxsite = 0;
}

/* The commit of the loop's home array hh (0: none). */
static long home_serial(int hh, const char *fn)
{
    return hh ? rt_arr(hh, fn)->serial : 0;
}

/* The site's schedule for the commits of arrays ha and hh (an invariant
 * site, hpfrt_kept). */
static const RtSched *kept_way(int hs, int ha, int hh, const char *fn)
{
    if (hs < 0 || hs > rt.nsite)
        rt_error("%s: bad schedule handle %d", fn, hs);
    if (hs == 0)
        return NULL;
    const RtArr *a = rt_arr(ha, fn);
    long hser = home_serial(hh, fn);
    const RtSite *site = &rt.site[hs - 1];
    for (int w = 0; w < SCHED_WAYS; w++) {
        const RtSched *s = &site->way[w];
        if (s->used && s->ha == ha && s->serial == a->serial && s->hh == hh &&
            s->hserial == hser && same_key(s, site))
            return s;
    }
    return NULL;
}

int hpfrt_kept_(const int *hs, const int *ha, const int *hh)
{
    rt_need_init("hpfrt_kept");
    const RtSched *s = kept_way(*hs, *ha, *hh, "hpfrt_kept");
    return s ? (int)s->n : -1;
}

/* A gather through a kept schedule (hpfrt_gathers_T). *hs is the call
 * site's handle (0 before its first call). When inv is 1, the compiler
 * has proved that the index vector, on every process, depends only on the
 * mappings of the arrays ha and hh: a schedule made for the same commits
 * of both is used without looking further. Otherwise a schedule is used
 * when the index vector is the one it was made for on every process (one
 * MPI_Allreduce of the ways that match); an array held whole everywhere,
 * or one process, gathers such a vector directly, as hpfrt_gather_T does,
 * and keeps no schedule for it. inv = 2: an invariant site whose
 * index vector the caller did not record, since hpfrt_kept said the
 * schedule is kept (idx is not read). */
static void gather_sched(const char *fn, int ha, const char *x, int n, const int *idx,
                         char *buf, size_t esize, int *hs, int hh, int inv)
{
    RtArr *a = arr_typed(ha, esize, fn);
    if (n < 0)
        rt_error("%s: negative element count %d", fn, n);
    RtSite *site = site_of(hs, fn);
    if (!inv && (rt.np == 1 || a->everywhere)) {
        /* an index vector that may change at every call, of an array held
           whole here: its elements' offsets cost less to compute than the
           vector to compare with the kept ones, and nothing is exchanged;
           no schedule kept */
        double t0 = rt_comm_begin();
        int done = gather_whole(a, fn, x, n, idx, buf, esize);
        rt_comm_end(t0);
        if (!done)
            gather(fn, ha, x, n, idx, buf, esize);
        return;
    }
    long hser = home_serial(hh, fn);
    double t0 = rt_comm_begin();
    int r = a->r;
    size_t vbytes = (size_t)n * (size_t)r * sizeof *idx;
    unsigned match = 0;
    for (int w = 0; w < SCHED_WAYS; w++) {
        const RtSched *s = &site->way[w];
        if (!s->used || s->ha != ha || s->serial != a->serial)
            continue;
        if (inv) {
            if (s->hh != hh || s->hserial != hser || !same_key(s, site))
                continue;
            if (s->n != n || (inv == 1 && memcmp(s->idx, idx, vbytes) != 0))
                rt_error("%s: internal error: an index vector the compiler took for "
                         "invariant has changed (array '%s')", fn, a->name);
        } else if (s->n != n || memcmp(s->idx, idx, vbytes) != 0)
            continue;
        match |= 1u << w;
    }
    if (inv == 2 && !match)
        rt_error("%s: internal error: no kept schedule for an index vector not recorded "
                 "(array '%s')", fn, a->name);
    if (!inv && rt.np > 1 && !a->everywhere)
        MPI_Allreduce(MPI_IN_PLACE, &match, 1, MPI_UNSIGNED, MPI_BAND, rt.comm);
    long now = ++rt.sched_clock;
    RtSched *s = NULL;
    if (match) {
        s = &site->way[__builtin_ctz(match)];
    } else {
        /* a new schedule in the least recently used way */
        s = &site->way[0];
        for (int w = 1; w < SCHED_WAYS; w++)
            if (site->way[w].used < s->used)
                s = &site->way[w];
        sched_drop(s);
        s->ha = ha;
        s->hh = hh;
        s->serial = a->serial;
        s->hserial = hser;
        s->nkey = site->nkey;
        memcpy(s->key, site->key, sizeof s->key);
        s->n = n;
        s->idx = rt_alloc(vbytes + 1);
        memcpy(s->idx, idx, vbytes);
        s->loc = rt_alloc((size_t)(n ? n : 1) * sizeof *s->loc);
        inspect(a, fn, n, idx, s->loc, &s->pl, &s->made);
        sched_runs(s, esize);
    }
    s->used = now;
    for (long q = 0; q < s->nrun; q++)
        memcpy(buf + (size_t)s->run[3 * q] * esize, x + s->run[3 * q + 1],
               (size_t)s->run[3 * q + 2] * esize);
    if (s->made)
        plan_exec(&s->pl, esize, x, buf);
    rt_comm_end(t0);
}

/* ---- scatter ---------------------------------------------------------------- */

/* Every process holding the element with storage coordinates sc: its
 * owner's coordinates along aligned and fixed grid dimensions, every
 * coordinate along the dimensions the array is replicated on. Writes the
 * ranks to out (at most rt.np) and returns how many. */
static int holders(const RtArr *a, const long *sc, int *out)
{
    if (a->grid.r == 0 || a->everywhere) {
        for (int q = 0; q < rt.np; q++)
            out[q] = q;
        return rt.np;
    }
    int c[RT_MAXR], n = 0;
    for (int g = 0; g < a->grid.r; g++)
        c[g] = a->grole[g] == G_ALIGNED ? hpfmap_owner(&a->dim[a->gdim[g]].hd, sc[a->gdim[g]])
               : a->grole[g] == G_FIXED ? a->gfix[g] : 0;
    for (;;) {
        out[n++] = hpfmap_rank(a->grid.r, a->grid.shape, rt.placement, c);
        /* next combination of the replicated coordinates */
        int g = 0;
        for (; g < a->grid.r; g++) {
            if (a->grole[g] != G_REPL)
                continue;
            if (++c[g] < a->grid.shape[g])
                break;
            c[g] = 0;
        }
        if (g == a->grid.r)
            return n;
    }
}

/* x(idx(1:r, k)) = buf(k) on every holder, k = 1..n: the pairs travel to
 * their holders (counts by MPI_Alltoall, then index lists and values to and
 * from the partners with nonzero counts only), and each holder stores what
 * it receives, in the order the senders listed it. */
static void scatter(const char *fn, int ha, char *x, int n, const int *idx, const char *buf,
                    size_t esize)
{
    RtArr *a = arr_typed(ha, esize, fn);
    if (n < 0)
        rt_error("%s: negative element count %d", fn, n);
    double t0 = rt_comm_begin();
    int np = rt.np, r = a->r;
    int *who = rt_alloc((size_t)np * sizeof *who);
    int *scount = rt_alloc((size_t)np * 4 * sizeof *scount);
    int *rcount = scount + np, *sdispl = scount + 2 * np, *rdispl = scount + 3 * np;
    memset(scount, 0, (size_t)np * sizeof *scount);
    long sc1[RT_MAXR];
    for (long k = 0; k < n; k++) {
        storage_coords(a, idx + k * r, sc1, fn);
        int nh = holders(a, sc1, who);
        for (int h = 0; h < nh; h++)
            scount[who[h]]++;
    }
    MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, rt.comm);
    long ns = 0, nr = 0;
    for (int q = 0; q < np; q++) {
        sdispl[q] = (int)ns;
        rdispl[q] = (int)nr;
        ns += scount[q];
        nr += rcount[q];
    }
    long *ssc = rt_alloc((size_t)(ns * r + 1) * sizeof *ssc);
    long *rsc = rt_alloc((size_t)(nr * r + 1) * sizeof *rsc);
    char *sval = rt_alloc((size_t)ns * esize + 1);
    char *rval = rt_alloc((size_t)nr * esize + 1);
    int *fill = rt_alloc((size_t)np * sizeof *fill);
    memcpy(fill, sdispl, (size_t)np * sizeof *fill);
    for (long k = 0; k < n; k++) {
        storage_coords(a, idx + k * r, sc1, fn);
        int nh = holders(a, sc1, who);
        for (int h = 0; h < nh; h++) {
            long pos = fill[who[h]]++;
            memcpy(ssc + pos * r, sc1, (size_t)r * sizeof *ssc);
            memcpy(sval + (size_t)pos * esize, buf + (size_t)k * esize, esize);
        }
    }
    free(fill);
    MPI_Datatype et = elem_type(esize);
    MPI_Request *req = rt_alloc((size_t)(4 * np + 1) * sizeof *req);
    int nq = 0;
    for (int q = 0; q < np; q++) {
        if (rcount[q] > 0) {
            if (r > 0)
                MPI_Irecv(rsc + (long)rdispl[q] * r, rcount[q] * r, MPI_LONG, q, TAG_REQ,
                          rt.comm, &req[nq++]);
            MPI_Irecv(rval + (size_t)rdispl[q] * esize, rcount[q], et, q, TAG_REP, rt.comm,
                      &req[nq++]);
        }
        if (scount[q] > 0) {
            if (r > 0)
                MPI_Isend(ssc + (long)sdispl[q] * r, scount[q] * r, MPI_LONG, q, TAG_REQ,
                          rt.comm, &req[nq++]);
            MPI_Isend(sval + (size_t)sdispl[q] * esize, scount[q], et, q, TAG_REP, rt.comm,
                      &req[nq++]);
        }
    }
    MPI_Waitall(nq, req, MPI_STATUSES_IGNORE);
    for (long j = 0; j < nr; j++)
        memcpy(x + held_offset(a, rsc + j * r) * esize, rval + (size_t)j * esize, esize);
    MPI_Type_free(&et);
    free(req);
    free(ssc);
    free(rsc);
    free(sval);
    free(rval);
    free(scount);
    free(who);
    rt_comm_end(t0);
}

/* ---- overlap shifts ---------------------------------------------------------- */

/* Copies n elements of es bytes, src stepping by sstep bytes, dst by
 * dstep: a run of the box. Short runs (a shift along the first dimension
 * packs one or two elements per column) go element by element with a copy
 * of constant size, which the compiler turns into one load and store. */
static inline void run_copy(char *dst, size_t dstep, const char *src, size_t sstep, long n,
                            size_t es)
{
    if (n > 4 && dstep == es && sstep == es) {
        memcpy(dst, src, (size_t)n * es);
        return;
    }
    switch (es) {
    case 4:
        for (long i = 0; i < n; i++)
            memcpy(dst + (size_t)i * dstep, src + (size_t)i * sstep, 4);
        break;
    case 8:
        for (long i = 0; i < n; i++)
            memcpy(dst + (size_t)i * dstep, src + (size_t)i * sstep, 8);
        break;
    case 16:
        for (long i = 0; i < n; i++)
            memcpy(dst + (size_t)i * dstep, src + (size_t)i * sstep, 16);
        break;
    default:
        for (long i = 0; i < n; i++)
            memcpy(dst + (size_t)i * dstep, src + (size_t)i * sstep, es);
    }
}

/* Copies the box from[d]..to[d] (local indices, every dimension) of the
 * local array x to buf (pack) or from buf (unpack), column-major. Returns
 * the number of elements. The odometer over the dimensions past the first
 * moves the array's offset by their strides instead of forming it anew. */
static size_t box_copy(const RtArr *a, char *x, const long *from, const long *to,
                       char *buf, int pack)
{
    int r = a->r;
    size_t es = (size_t)a->esize;
    for (int d = 0; d < r; d++)
        if (to[d] < from[d])
            return 0;
    long l[RT_MAXR];
    memcpy(l, from, (size_t)r * sizeof *l);
    long run = to[0] - from[0] + 1;
    size_t step0 = (r ? a->dim[0].stride : 1) * es;
    size_t off = rt_offset(a, l) * es, n = 0;
    for (;;) {
        if (pack)
            run_copy(buf + n, es, x + off, step0, run, es);
        else
            run_copy(x + off, step0, buf + n, es, run, es);
        n += (size_t)run * es;
        int d = 1;
        while (d < r && l[d] == to[d]) {
            off -= (size_t)(to[d] - from[d]) * a->dim[d].stride * es;
            l[d] = from[d];
            d++;
        }
        if (d >= r)
            break;
        l[d]++;
        off += a->dim[d].stride * es;
    }
    return n / es;
}

/* The cells [c1, c2] clipped to [lo, hi]. */
static void clip_to(long lo, long hi, long *c1, long *c2)
{
    if (*c1 < lo)
        *c1 = lo;
    if (*c2 > hi)
        *c2 = hi;
}

/* The cells [c1, c2] of the template dimension hd clipped to it. */
static void clip(const HpfDim *hd, long *c1, long *c2)
{
    clip_to(hd->lb, hd->lb + hd->n - 1, c1, c2);
}

/* Runs of cells along a dimension, first and last local index. */
typedef struct {
    long (*run)[2];
    long n, cap;
} Runs;

static void runs_add(Runs *r, long l1, long l2)
{
    if (l2 < l1)
        return;
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 16;
        r->run = rt_grow(r->run, (size_t)r->cap * sizeof *r->run);
    }
    r->run[r->n][0] = l1;
    r->run[r->n][1] = l2;
    r->n++;
}

/* Packs (or unpacks) the runs of cells along d across the box from..to
 * of the other dimensions. Along the first dimension, the runs of one
 * column after another (a column's runs lie close together, where the
 * runs of one block each would stride through the whole array); along
 * another, run after run, each a box with the first dimension's
 * contiguous elements. Both partners of a message take the same order. */
static void runs_copy(const RtArr *a, char *x, int d, long *from, long *to, const Runs *rs,
                      char *buf, int pack)
{
    size_t es = (size_t)a->esize, n = 0;
    if (d != 0 || rs->n == 1) {
        for (long i = 0; i < rs->n; i++) {
            from[d] = rs->run[i][0];
            to[d] = rs->run[i][1];
            n += box_copy(a, x, from, to, buf + n * es, pack);
        }
        return;
    }
    /* every column of the box: its elements from[0] .. to[0] widened to the runs */
    long l[RT_MAXR];
    for (int e = 1; e < a->r; e++)
        if (to[e] < from[e])
            return;
    memcpy(l, from, (size_t)a->r * sizeof *l);
    l[0] = rs->run[0][0];
    size_t base = rt_offset(a, l) * es;   /* (dimension 0 steps by 1 element) */
    /* the runs' offsets in a column; runs of one element (a shift of one
       cell) copied with a copy of constant size */
    size_t *at = rt_alloc((size_t)rs->n * sizeof *at);
    int ones = 1;
    for (long i = 0; i < rs->n; i++) {
        at[i] = (size_t)(rs->run[i][0] - rs->run[0][0]) * es;
        ones &= rs->run[i][1] == rs->run[i][0];
    }
    for (;;) {
        char *col = x + base;
        if (ones && es == 8) {
            for (long i = 0; i < rs->n; i++, n++)
                if (pack)
                    memcpy(buf + n * 8, col + at[i], 8);
                else
                    memcpy(col + at[i], buf + n * 8, 8);
        } else if (ones && es == 4) {
            for (long i = 0; i < rs->n; i++, n++)
                if (pack)
                    memcpy(buf + n * 4, col + at[i], 4);
                else
                    memcpy(col + at[i], buf + n * 4, 4);
        } else {
            for (long i = 0; i < rs->n; i++) {
                long m = rs->run[i][1] - rs->run[i][0] + 1;
                if (pack)
                    run_copy(buf + n * es, es, col + at[i], es, m, es);
                else
                    run_copy(col + at[i], es, buf + n * es, es, m, es);
                n += (size_t)m;
            }
        }
        int e = 1;
        while (e < a->r && l[e] == to[e]) {
            base -= (size_t)(to[e] - from[e]) * a->dim[e].stride * es;
            l[e] = from[e];
            e++;
        }
        if (e >= a->r)
            break;
        l[e]++;
        base += a->dim[e].stride * es;
    }
    free(at);
}

/* One direction of a neighbour shift along dimension d (0-based): this
 * process sends the runs of cells snd[0..ns-1] (local indices along d,
 * first and last) to rank dest and receives rcv[0..nr-1] from rank src,
 * in one message each way (no runs: no message; the partners list the
 * same cells in the same order). Slabs span box[e] (local indices) of the
 * other dimensions, the same on both partners. */
static void shift(const RtArr *a, char *x, int d, const long (*box)[2], const Runs *snd,
                  int dest, const Runs *rcv, int src, int tag)
{
    long from[RT_MAXR], to[RT_MAXR];
    size_t slab = 1;
    for (int e = 0; e < a->r; e++) {
        from[e] = box[e][0];
        to[e] = box[e][1];
        if (e != d)
            slab *= to[e] >= from[e] ? (size_t)(to[e] - from[e] + 1) : 0;
    }
    long ns = 0, nr = 0;
    for (long i = 0; slab && i < snd->n; i++)
        ns += snd->run[i][1] - snd->run[i][0] + 1;
    for (long i = 0; slab && i < rcv->n; i++)
        nr += rcv->run[i][1] - rcv->run[i][0] + 1;
    if (ns == 0)
        dest = MPI_PROC_NULL;   /* (nothing read there: no messages) */
    if (nr == 0)
        src = MPI_PROC_NULL;
    size_t es = (size_t)a->esize;
    char *sbuf = rt_alloc((size_t)ns * slab * es);
    char *rbuf = rt_alloc((size_t)nr * slab * es);
    if (ns)
        runs_copy(a, x, d, from, to, snd, sbuf, 1);
    MPI_Datatype et = elem_type(es);
    MPI_Sendrecv(sbuf, (int)((size_t)ns * slab), et, dest, tag, rbuf,
                 (int)((size_t)nr * slab), et, src, tag, rt.comm, MPI_STATUS_IGNORE);
    MPI_Type_free(&et);
    if (nr)
        runs_copy(a, x, d, from, to, rcv, rbuf, 0);
    free(sbuf);
    free(rbuf);
}

/* The cell that local index l of dimension e denotes on this process, or
 * 0 in *ok when it denotes none (outside the template; a ghost position of
 * a dimension that is not single-block). Local dimensions: l itself. */
static long cell_of(const RtArr *a, int e, long l, int *ok)
{
    const RtArrDim *m = &a->dim[e];
    *ok = 1;
    if (!m->tdim)
        return l;
    int p = a->grid.coords[m->g];
    long t;
    if (hpfmap_single_block(&m->hd))
        t = m->hd.lb + p * m->hd.k + l - 1;   /* hpfrt.h's ghost convention */
    else if (m->hd.plo || m->hd.phi ? l >= m->lo && l <= m->hi : l >= 1 && l <= m->count)
        t = hpfmap_global(&m->hd, p, l);      /* (an overlap area: the cell it copies) */
    else
        t = m->hd.lb - 1;
    *ok = hpfmap_owner(&m->hd, t) >= 0;
    return t;
}

/* General fill of the ghost cells l1..l2 of dimension d from their owners
 * (shifts wider than a neighbour's block). Collective. */
static void ghost_list(const RtArr *a, int d, const long (*box)[2], long l1, long l2,
                       long **sc, int **owner, size_t **off, long *m, long *cap)
{
    int r = a->r;
    size_t es = (size_t)a->esize;
    long from[RT_MAXR], to[RT_MAXR], l[RT_MAXR];
    for (int e = 0; e < r; e++) {
        from[e] = box[e][0];
        to[e] = box[e][1];
        if (to[e] < from[e] || (a->dim[e].tdim == 0 && a->dim[e].ub < a->dim[e].lb))
            return;   /* no elements at all */
    }
    from[d] = l1 > box[d][0] ? l1 : box[d][0];
    to[d] = l2 < box[d][1] ? l2 : box[d][1];
    if (to[d] < from[d])
        return;
    memcpy(l, from, (size_t)r * sizeof *l);
    for (;;) {
        long s[RT_MAXR];
        int ok = 1;
        for (int e = 0; e < r && ok; e++)
            s[e] = cell_of(a, e, l[e], &ok);
        if (ok) {
            if (*m == *cap) {
                *cap = *cap ? 2 * *cap : 256;
                *sc = rt_grow(*sc, (size_t)(*cap * (r ? r : 1)) * sizeof **sc);
                *owner = rt_grow(*owner, (size_t)*cap * sizeof **owner);
                *off = rt_grow(*off, (size_t)*cap * sizeof **off);
            }
            memcpy(*sc + *m * r, s, (size_t)r * sizeof *s);
            (*owner)[*m] = rt_owner_rank(a, s, 1);
            (*off)[*m] = rt_offset(a, l) * es;
            (*m)++;
        }
        int e = 0;
        while (e < r && l[e] == to[e]) {
            l[e] = from[e];
            e++;
        }
        if (e >= r)
            break;
        l[e]++;
    }
}

/* The local indices of dimension e that the global subscripts lo..hi
 * denote on this process, within its allocated range and no more than
 * ext[0] cells below its own block and ext[1] above (ghosts this process
 * reads): *l1 > *l2 when none. A dimension that is not one block a
 * process (a CYCLIC one) keeps its whole range. */
static void local_box(const RtArr *a, int e, long lo, long hi, const int *ext, long *l1,
                      long *l2)
{
    const RtArrDim *m = &a->dim[e];
    *l1 = m->lo;
    *l2 = m->hi;
    if (m->tdim && hpfmap_single_block(&m->hd)) {
        if (1 - ext[0] > *l1)
            *l1 = 1 - ext[0];
        if (m->count + ext[1] < *l2)
            *l2 = m->count + ext[1];
    }
    if (lo > hi) {
        *l2 = *l1 - 1;
        return;
    }
    long c1 = lo, c2 = hi;
    if (m->tdim) {
        if (!hpfmap_single_block(&m->hd))
            return;
        /* subscripts to cells, to local indices (hpfrt.h's ghost convention) */
        c1 = m->alpha * lo + m->beta;
        c2 = m->alpha * hi + m->beta;   /* (long: huge(0) times alpha fits) */
        if (c1 > c2) {
            long t = c1;
            c1 = c2;
            c2 = t;
        }
        long base = m->hd.lb + a->grid.coords[m->g] * m->hd.k;
        c1 -= base - 1;
        c2 -= base - 1;
    }
    if (c1 > *l1)
        *l1 = c1;
    if (c2 < *l2)
        *l2 = c2;
}

/* The runs of an overlap shift along a dimension with overlap areas
 * around its blocks (hpfmap_pad), this process at grid coordinate p: for
 * each of its blocks G, in dir 0 its top w cells go up to the next
 * block's area below (the process p + 1 mod P) and the area below G comes
 * from block G - 1; in dir 1 its bottom w cells go down and the area above
 * G comes from G + 1. Cells clipped to the template and to rd1..rd2 (the
 * cells the statement reads), the same on both partners, in increasing G
 * on both. Only the blocks near rd1..rd2 are visited. */
static void block_runs(const HpfDim *hd, int p, int dir, long w, long rd1, long rd2,
                       Runs *snd, Runs *rcv)
{
    long k = hd->k, P = hd->nprocs, kk = hd->plo + k + hd->phi;
    long nblk = (hd->n + k - 1) / k, last = hd->lb + hd->n - 1;
    if (rd1 < hd->lb)
        rd1 = hd->lb;
    if (rd2 > last)
        rd2 = last;
    if (rd2 < rd1 || w <= 0)
        return;
    long g1 = (rd1 - hd->lb) / k - 1, g2 = (rd2 - hd->lb) / k + 1;
    if (g1 < 0)
        g1 = 0;
    long b = g1 <= p ? 0 : (g1 - p + P - 1) / P;
    for (long G = b * P + p; G < nblk && G <= g2; G += P, b++) {
        long first = hd->lb + G * k;        /* the block's first cell */
        long at = b * kk + hd->plo + 1;     /* ... and its local index */
        long c1, c2;
        if (dir == 0) {
            if (G + 1 < nblk) {
                c1 = first + k - w;
                c2 = first + k - 1;
                clip_to(rd1, rd2, &c1, &c2);
                runs_add(snd, at + c1 - first, at + c2 - first);
            }
            if (G > 0) {
                c1 = first - w;
                c2 = first - 1;
                clip_to(rd1, rd2, &c1, &c2);
                runs_add(rcv, at + c1 - first, at + c2 - first);
            }
        } else {
            if (G > 0) {
                c1 = first;
                c2 = first + w - 1;
                clip_to(rd1, rd2, &c1, &c2);
                runs_add(snd, at + c1 - first, at + c2 - first);
            }
            if (G + 1 < nblk) {
                c1 = first + k;
                c2 = first + k + w - 1;
                clip_to(rd1, rd2, &c1, &c2);
                runs_add(rcv, at + c1 - first, at + c2 - first);
            }
        }
    }
}

static void overlap(const char *fn, int ha, char *x, int dd, int wlo, int whi,
                    const int *lo, const int *hi, const int *ext, size_t esize)
{
    RtArr *a = arr_typed(ha, esize, fn);
    if (dd < 1 || dd > a->r)
        rt_error("%s: array '%s' has no dimension %d", fn, a->name, dd);
    int d = dd - 1;
    const RtArrDim *m = &a->dim[d];
    if (wlo < 0 || whi < 0)
        rt_error("%s: negative shift width for array '%s'", fn, a->name);
    if (!m->tdim || (wlo == 0 && whi == 0))
        return;   /* a local dimension has no ghosts: nothing to fill */
    if (wlo > m->glo || whi > m->ghi)
        rt_error("%s: shift of widths %d:%d on dimension %d of array '%s', whose ghost "
                 "widths are %d:%d", fn, wlo, whi, dd, a->name, m->glo, m->ghi);
    const HpfDim *hd = &m->hd;
    int P = hd->nprocs;
    if (P == 1)
        return;   /* the ghost cells lie outside the template */
    int padded = hd->plo || hd->phi;
    if (!padded && !hpfmap_single_block(hd))
        rt_error("%s: overlap shift on dimension %d of array '%s', which is not one block "
                 "per process (%s(%ld) on %d processes) and has no overlap areas", fn, dd,
                 a->name, hd->fmt == HPFMAP_CYCLIC ? "CYCLIC" : "BLOCK", hd->k, hd->nprocs);
    /* the box the statement reads, as local indices; the same on the
       partners of every message, which differ only along d */
    long box[RT_MAXR][2];
    for (int e = 0; e < a->r; e++) {
        if (e != d && (ext[2 * e] < 0 || ext[2 * e + 1] < 0))
            rt_error("%s: negative reach for dimension %d of array '%s'", fn, e + 1, a->name);
        int all[2] = {m->glo, m->ghi};   /* (along d: the ghost widths) */
        local_box(a, e, lo[e], hi[e], e == d ? all : ext + 2 * e, &box[e][0], &box[e][1]);
    }
    double t0 = rt_comm_begin();
    int p = a->grid.coords[m->g];
    long k = hd->k;
    long base = hd->lb + p * k;   /* my first cell (one block a process) */
    if (wlo <= k && whi <= k) {
        /* neighbour send/receive: the ghost cells that exist belong to
         * the neighbours; both partners compute the same ranges */
        if (a->present) {
            int c[RT_MAXR], up = MPI_PROC_NULL, down = MPI_PROC_NULL;
            memcpy(c, a->grid.coords, sizeof c);
            /* (blocks dealt round: the last process's next block is the
               first process's, one round on) */
            if (p + 1 < P || padded) {
                c[m->g] = (p + 1) % P;
                up = hpfmap_rank(a->grid.r, a->grid.shape, rt.placement, c);
            }
            if (p > 0 || padded) {
                c[m->g] = (p + P - 1) % P;
                down = hpfmap_rank(a->grid.r, a->grid.shape, rt.placement, c);
            }
            long nb = base + k;   /* the upper neighbour's first cell */
            /* the cells of d read, global: both partners clip to them */
            long rd1 = m->alpha * (long)lo[d] + m->beta, rd2 = m->alpha * (long)hi[d] + m->beta;
            if (rd1 > rd2) {
                long t = rd1;
                rd1 = rd2;
                rd2 = t;
            }
            if (lo[d] > hi[d])
                rd2 = rd1 - 1;
            Runs snd = {0}, rcv = {0};
            /* dir 0, the lower ghosts: my top cells go up, the lower
               neighbour's come in; dir 1, the upper ghosts: my bottom
               cells go down, the upper one's come in */
            for (int dir = 0; dir < 2; dir++) {
                long w = dir ? whi : wlo;
                int to = dir ? down : up, from = dir ? up : down;
                snd.n = rcv.n = 0;
                if (padded) {
                    block_runs(hd, p, dir, w, rd1, rd2, &snd, &rcv);
                } else {
                    long s1 = dir ? base : nb - w, r1 = dir ? nb : base - w;
                    long s2 = s1 + w - 1, r2 = r1 + w - 1;
                    clip(hd, &s1, &s2);
                    clip(hd, &r1, &r2);
                    clip_to(rd1, rd2, &s1, &s2);
                    clip_to(rd1, rd2, &r1, &r2);
                    if (to != MPI_PROC_NULL)
                        runs_add(&snd, s1 - base + 1, s2 - base + 1);
                    if (from != MPI_PROC_NULL)
                        runs_add(&rcv, r1 - base + 1, r2 - base + 1);
                }
                shift(a, x, d, box, &snd, to, &rcv, from, dir ? TAG_DOWN : TAG_UP);
            }
            free(snd.run);
            free(rcv.run);
        }
    } else {
        /* general fill through the executor of gathers */
        long *sc = NULL, mm = 0, cap = 0;
        int *owner = NULL;
        size_t *off = NULL;
        if (a->present) {
            ghost_list(a, d, box, 1 - wlo, 0, &sc, &owner, &off, &mm, &cap);
            ghost_list(a, d, box, m->count + 1, m->count + whi, &sc, &owner, &off, &mm, &cap);
        }
        fetch(a, x, mm, sc, owner, x, off);
        free(sc);
        free(owner);
        free(off);
    }
    rt_comm_end(t0);
}

/* ---- broadcast of one element ----------------------------------------------- */

static void bcast(const char *fn, int ha, const char *x, const int *idx, char *val,
                  size_t esize)
{
    RtArr *a = arr_typed(ha, esize, fn);
    long sc[RT_MAXR];
    storage_coords(a, idx, sc, fn);
    if (a->everywhere) {
        memcpy(val, x + held_offset(a, sc) * esize, esize);
        return;
    }
    double t0 = rt_comm_begin();
    int root = rt_owner_rank(a, sc, 0);   /* the lowest-ranked holder */
    if (root == rt.rank)
        memcpy(val, x + held_offset(a, sc) * esize, esize);
    MPI_Bcast(val, (int)esize, MPI_BYTE, root, rt.comm);
    rt_comm_end(t0);
}

/* ---- reductions ---------------------------------------------------------------- */

static const char *const op_name[] = { "?", "SUM", "PRODUCT", "MAX", "MIN", "AND", "OR" };

static MPI_Op mpi_op(const char *fn, int ty, int op)
{
    int cls = ty == RT_l4 ? 2 : (ty == RT_c4 || ty == RT_c8) ? 1 : 0;
    int ok;
    switch (op) {
    case HPFRT_SUM: case HPFRT_PRODUCT: ok = cls != 2; break;
    case HPFRT_MAX: case HPFRT_MIN: ok = cls == 0; break;
    case HPFRT_AND: case HPFRT_OR: ok = cls == 2; break;
    default:
        rt_error("%s: bad reduction operator %d", fn, op);
    }
    if (!ok)
        rt_error("%s: the %s reduction is not defined for type %s", fn, op_name[op], type_name[ty]);
    switch (op) {
    case HPFRT_SUM: return MPI_SUM;
    case HPFRT_PRODUCT: return MPI_PROD;
    case HPFRT_MAX: return MPI_MAX;
    case HPFRT_MIN: return MPI_MIN;
    case HPFRT_AND: return MPI_LAND;
    default: return MPI_LOR;
    }
}

static void reducev(const char *fn, int ty, void *buf, int n, int op)
{
    rt_need_init(fn);
    MPI_Op mop = mpi_op(fn, ty, op);
    if (n < 0)
        rt_error("%s: negative element count %d", fn, n);
    if (n == 0)
        return;
    double t0 = rt_comm_begin();
    MPI_Allreduce(MPI_IN_PLACE, buf, n, mpi_type(ty), mop, rt.comm);
    rt_comm_end(t0);
}

static void bcastio(const char *fn, int ty, void *buf, int n)
{
    rt_need_init(fn);
    if (n < 0)
        rt_error("%s: negative element count %d", fn, n);
    if (n == 0)
        return;
    double t0 = rt_comm_begin();
    MPI_Bcast(buf, n, mpi_type(ty), 0, rt.comm);
    rt_comm_end(t0);
}

/* ---- the per-type entry points --------------------------------------------------- */

#define HPFRT_DEFINE(T, C)                                                             \
    void hpfrt_overlap_##T##_(const int *ha, C *x, const int *d, const int *wlo,       \
                              const int *whi, const int *lo, const int *hi,            \
                              const int *ext)                                          \
    {                                                                                  \
        overlap("hpfrt_overlap_" #T, *ha, (char *)x, *d, *wlo, *whi, lo, hi, ext,      \
                sizeof(C));                                                            \
    }                                                                                  \
    void hpfrt_gather_##T##_(const int *ha, const C *x, const int *n, const int *idx,  \
                             C *buf)                                                   \
    {                                                                                  \
        gather("hpfrt_gather_" #T, *ha, (const char *)x, *n, idx, (char *)buf,         \
               sizeof(C));                                                             \
    }                                                                                  \
    void hpfrt_gathers_##T##_(const int *ha, const C *x, const int *n, const int *idx, \
                              C *buf, int *hs, const int *hh, const int *inv)          \
    {                                                                                  \
        gather_sched("hpfrt_gathers_" #T, *ha, (const char *)x, *n, idx, (char *)buf,  \
                     sizeof(C), hs, *hh, *inv);                                        \
    }                                                                                  \
    void hpfrt_scatter_##T##_(const int *ha, C *x, const int *n, const int *idx,       \
                              const C *buf)                                            \
    {                                                                                  \
        scatter("hpfrt_scatter_" #T, *ha, (char *)x, *n, idx, (const char *)buf,       \
                sizeof(C));                                                            \
    }                                                                                  \
    void hpfrt_bcast_##T##_(const int *ha, const C *x, const int *idx, C *val)         \
    {                                                                                  \
        bcast("hpfrt_bcast_" #T, *ha, (const char *)x, idx, (char *)val, sizeof(C));   \
    }                                                                                  \
    void hpfrt_reduce_##T##_(C *val, const int *op)                                    \
    {                                                                                  \
        reducev("hpfrt_reduce_" #T, RT_##T, val, 1, *op);                              \
    }                                                                                  \
    void hpfrt_reducev_##T##_(C *buf, const int *n, const int *op)                     \
    {                                                                                  \
        reducev("hpfrt_reducev_" #T, RT_##T, buf, *n, *op);                            \
    }                                                                                  \
    void hpfrt_bcastio_##T##_(C *buf, const int *n)                                    \
    {                                                                                  \
        bcastio("hpfrt_bcastio_" #T, RT_##T, buf, *n);                                 \
    }
HPFRT_TYPES(HPFRT_DEFINE)
#undef HPFRT_DEFINE

/* CHARACTER values (DATE_AND_TIME's): gfortran passes each one's length
 * after the arguments. */
void hpfrt_bcastio_ch_(char *buf, const int *n, size_t len)
{
    rt_need_init("hpfrt_bcastio_ch");
    if (*n < 0)
        rt_error("hpfrt_bcastio_ch: negative element count %d", *n);
    if (*n == 0 || !len)
        return;
    double t0 = rt_comm_begin();
    MPI_Bcast(buf, (int)(len * (size_t)*n), MPI_CHAR, 0, rt.comm);
    rt_comm_end(t0);
}

/* ---- MAXLOC / MINLOC ------------------------------------------------------------ */

/* Compares two values of type ty: <0, 0, >0. */
static int value_cmp(int ty, const void *x, const void *y)
{
    switch (ty) {
    case RT_i4: { int a, b; memcpy(&a, x, sizeof a); memcpy(&b, y, sizeof b);
                  return (a > b) - (a < b); }
    case RT_i8: { long long a, b; memcpy(&a, x, sizeof a); memcpy(&b, y, sizeof b);
                  return (a > b) - (a < b); }
    case RT_r4: { float a, b; memcpy(&a, x, sizeof a); memcpy(&b, y, sizeof b);
                  return (a > b) - (a < b); }
    default:    { double a, b; memcpy(&a, x, sizeof a); memcpy(&b, y, sizeof b);
                  return (a > b) - (a < b); }
    }
}

/* Every process's (value, location) goes to every process (MPI_Allgather),
 * and each picks the same winner: the extreme value, ties broken by the
 * first occurrence in array element order (the index tuple that is
 * smallest comparing from the last dimension to the first). */
static void reduceloc(const char *fn, int ty, void *val, int *loc, int r, int op,
                      size_t esize)
{
    rt_need_init(fn);
    if (op != HPFRT_MAX && op != HPFRT_MIN)
        rt_error("%s: operator %d is neither HPFRT_MAX nor HPFRT_MIN", fn, op);
    if (r < 1 || r > RT_MAXR)
        rt_error("%s: bad rank %d", fn, r);
    double t0 = rt_comm_begin();
    size_t rec = 8 + (size_t)r * sizeof(int);
    char *mine = rt_alloc(rec), *all = rt_alloc(rec * (size_t)rt.np);
    memset(mine, 0, rec);
    memcpy(mine, val, esize);
    memcpy(mine + 8, loc, (size_t)r * sizeof(int));
    MPI_Allgather(mine, (int)rec, MPI_BYTE, all, (int)rec, MPI_BYTE, rt.comm);
    int best = -1, anyv = 0;
    int sign = op == HPFRT_MAX ? 1 : -1;
    for (int q = 0; q < rt.np; q++) {
        const char *e = all + rec * (size_t)q;
        int lq[RT_MAXR];
        memcpy(lq, e + 8, (size_t)r * sizeof(int));
        /* the extreme of all values, for a result with no location */
        if (q == 0 || sign * value_cmp(ty, e, all + rec * (size_t)anyv) > 0)
            anyv = q;
        if (lq[0] == 0)
            continue;   /* this process had no element */
        if (best < 0) {
            best = q;
            continue;
        }
        const char *b = all + rec * (size_t)best;
        int c = sign * value_cmp(ty, e, b);
        if (c < 0)
            continue;
        if (c == 0) {
            int lb[RT_MAXR], earlier = 0;
            memcpy(lb, b + 8, (size_t)r * sizeof(int));
            for (int d = r - 1; d >= 0; d--) {
                if (lq[d] != lb[d]) {
                    earlier = lq[d] < lb[d];
                    break;
                }
            }
            if (!earlier)
                continue;
        }
        best = q;
    }
    if (best >= 0) {
        memcpy(val, all + rec * (size_t)best, esize);
        memcpy(loc, all + rec * (size_t)best + 8, (size_t)r * sizeof(int));
    } else {
        memcpy(val, all + rec * (size_t)anyv, esize);
        memset(loc, 0, (size_t)r * sizeof(int));
    }
    free(mine);
    free(all);
    rt_comm_end(t0);
}

void hpfrt_reduceloc_i4_(int *val, int *loc, const int *r, const int *op)
{
    reduceloc("hpfrt_reduceloc_i4", RT_i4, val, loc, *r, *op, sizeof *val);
}

void hpfrt_reduceloc_i8_(long long *val, int *loc, const int *r, const int *op)
{
    reduceloc("hpfrt_reduceloc_i8", RT_i8, val, loc, *r, *op, sizeof *val);
}

void hpfrt_reduceloc_r4_(float *val, int *loc, const int *r, const int *op)
{
    reduceloc("hpfrt_reduceloc_r4", RT_r4, val, loc, *r, *op, sizeof *val);
}

void hpfrt_reduceloc_r8_(double *val, int *loc, const int *r, const int *op)
{
    reduceloc("hpfrt_reduceloc_r8", RT_r8, val, loc, *r, *op, sizeof *val);
}
