/* hpfrt.c - libhpfrt, part 1: start and end, processor arrangements,
 * templates, array descriptors, local iteration sets and the timers of
 * source regions. Communication is in hpfrt_comm.c. The mapping formulas
 * are hpfmap.c's; this file only calls them. */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#if defined(__GLIBC__) && !defined(malloc)
#include <malloc.h>   /* mallopt (not under a malloc of its own, SMPI's) */
#define HPFRT_MALLOPT 1
#endif

#include "hpfrt_impl.h"

/* The whole state of the library (shared with hpfrt_comm.c). */
struct hpfrt_state hpfrt_rt;
#define rt hpfrt_rt

/* ---- helpers ------------------------------------------------------------ */

void rt_error(const char *fmt, ...)
{
    /* one write, so that the messages of several processes do not mix */
    char msg[1024];
    va_list ap;
    fflush(stdout);
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "hpfrt: error: %s\n", msg);
    fflush(stderr);
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

void *rt_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        rt_error("out of memory (%zu bytes)", n);
    return p;
}

void *rt_grow(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        rt_error("out of memory (%zu bytes)", n);
    return q;
}

void rt_need_init(const char *fn)
{
    if (!rt.inited)
        rt_error("%s called before hpfrt_init", fn);
    if (rt.finalized)
        rt_error("%s called after hpfrt_finalize", fn);
}

/* A Fortran CHARACTER argument as a C string, trailing blanks removed. */
static char *fstring(const char *s, size_t len)
{
    while (len > 0 && s[len - 1] == ' ')
        len--;
    char *c = rt_alloc(len + 1);
    if (len)
        memcpy(c, s, len);
    c[len] = '\0';
    return c;
}

/* Grows a table of elements of size sz to hold at least n. */
static void *table_room(void *tab, int *cap, int n, size_t sz)
{
    if (n <= *cap)
        return tab;
    int c = *cap ? *cap : 8;
    while (c < n)
        c *= 2;
    tab = rt_grow(tab, (size_t)c * sz);
    memset((char *)tab + (size_t)*cap * sz, 0, (size_t)(c - *cap) * sz);
    *cap = c;
    return tab;
}

/* The first free slot of a table of *n entries of sz bytes whose first
 * member is their 'used' flag (arrangements, templates, arrays), the table
 * grown by one when none is: freed handles are reused. */
static int table_slot(void **tab, int *n, int *cap, size_t sz)
{
    int h = 0;
    while (h < *n && *(const int *)(const void *)((const char *)*tab + (size_t)h * sz))
        h++;
    if (h == *n) {
        *tab = table_room(*tab, cap, *n + 1, sz);
        (*n)++;
    }
    return h;
}

/* ---- start and end ------------------------------------------------------- */

/* Large blocks from the heap, kept for reuse: the buffers, index vectors
 * and temporaries of a statement are allocated and freed at every
 * execution, and glibc's default maps each block of 128 KiB or more
 * anew and unmaps it when freed, so that every execution pays a page
 * fault per page (a tenth of lfk2's time at 65536 elements). Up to
 * 64 MiB a block is taken from the heap, and up to 128 MiB of free heap
 * is kept. The environment's MALLOC_MMAP_THRESHOLD_ or
 * MALLOC_TRIM_THRESHOLD_, when set, is left to decide; so is SimGrid's
 * SMPI, whose malloc is its own. */
static void heap_reuse(void)
{
#ifdef HPFRT_MALLOPT
    if (!getenv("MALLOC_MMAP_THRESHOLD_"))
        mallopt(M_MMAP_THRESHOLD, 64 << 20);
    if (!getenv("MALLOC_TRIM_THRESHOLD_"))
        mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
}

void hpfrt_init_(void)
{
    if (rt.inited)
        return;
    heap_reuse();
    int init = 0;
    MPI_Initialized(&init);
    if (!init && MPI_Init(NULL, NULL) != MPI_SUCCESS)
        rt_error("MPI_Init failed");
    MPI_Comm_dup(MPI_COMM_WORLD, &rt.comm);
    MPI_Comm_rank(rt.comm, &rt.rank);
    MPI_Comm_size(rt.comm, &rt.np);
    /* Which node each grid position runs on: the machine's placement, as
       its SAG's net.placement says (doc/runtime.md) */
    const char *pl = getenv("HPFRT_PLACEMENT");
    if (!pl || !*pl || strcmp(pl, "linear") == 0)
        rt.placement = HPFMAP_LINEAR;
    else if (strcmp(pl, "gray") == 0)
        rt.placement = HPFMAP_GRAY;
    else
        rt_error("HPFRT_PLACEMENT is '%s': it must be 'linear' or 'gray'", pl);
    /* The per-region timers cost two clock reads a region (about 50 ns on
       a present-day machine): they run only when a profile is asked for */
    const char *prof = rt.rank == 0 ? getenv("HPFRT_PROFILE") : NULL;
    const char *probe = rt.rank == 0 ? getenv("HPFRT_PROBE") : NULL;
    /* both in one broadcast: a run without them makes no other collective */
    int on[2] = {prof && *prof, probe && *probe};
    MPI_Bcast(on, 2, MPI_INT, 0, rt.comm);
    rt.profile = on[0];
    rt.probe_next = -1;       /* no probe: no event (rt_probe_init sets them) */
    rt.inited = 1;
    rt.t_start = MPI_Wtime();
    if (rt.profile) {
        /* what a region's two timers cost: pairs of calls on line 0 (no
           statement's), the best of five rounds; written in the profile for
           hpfpredict --fit to take off */
        int zero = 0;
        double best = INFINITY;
        for (int round = 0; round < 5; round++) {
            double t0 = MPI_Wtime();
            for (int i = 0; i < 200; i++) {
                hpfrt_region_begin_(&zero);
                hpfrt_region_end_(&zero);
            }
            double t = (MPI_Wtime() - t0) / 200;
            if (t < best)
                best = t;
        }
        rt.region_cost = best;
        memset(&rt.reg[0], 0, sizeof rt.reg[0]);
    }
    if (on[1])
        rt_probe_init();
}

static void profile_write(void);

void hpfrt_finalize_(void)
{
    rt_need_init("hpfrt_finalize");
    rt_probe_finish();
    profile_write();
    rt_sched_free();
    free(rt.values);
    rt.values = NULL;
    for (int i = 0; i < rt.nprocs_tab; i++)
        free(rt.procs[i].name);
    for (int i = 0; i < rt.ntmpl; i++)
        free(rt.tmpl[i].name);
    for (int i = 0; i < rt.narr; i++)
        free(rt.arr[i].name);
    for (int i = 0; i < rt.nloop; i++)
        free(rt.loop[i].seg);
    free(rt.procs);
    free(rt.tmpl);
    free(rt.arr);
    free(rt.loop);
    free(rt.hash);
    free(rt.reg);
    free(rt.stack);
    MPI_Comm_free(&rt.comm);
    memset(&rt, 0, sizeof rt);
    rt.inited = rt.finalized = 1;
    int fin = 0;
    MPI_Finalized(&fin);
    if (!fin)
        MPI_Finalize();
}

int hpfrt_nprocs_(void)
{
    rt_need_init("hpfrt_nprocs");
    return rt.np;
}

int hpfrt_rank_(void)
{
    rt_need_init("hpfrt_rank");
    return rt.rank;
}

int hpfrt_ioproc_(void)
{
    rt_need_init("hpfrt_ioproc");
    return rt.rank == 0;
}

void hpfrt_abort_(const char *msg, size_t len)
{
    while (len > 0 && msg[len - 1] == ' ')
        len--;
    rt_error("%.*s", (int)len, msg);
}

void hpfrt_barrier_(void)
{
    rt_need_init("hpfrt_barrier");
    double t0 = rt_comm_begin();
    MPI_Barrier(rt.comm);
    rt_comm_end(t0);
}

/* ---- processor arrangements ----------------------------------------------- */

static RtProcs *procs_get(int hp, const char *fn)
{
    rt_need_init(fn);
    if (hp < 1 || hp > rt.nprocs_tab || !rt.procs[hp - 1].used)
        rt_error("%s: bad processor arrangement handle %d", fn, hp);
    return &rt.procs[hp - 1];
}

void hpfrt_procs_new_(int *hp, const int *r, const char *name, size_t len)
{
    rt_need_init("hpfrt_procs_new");
    char *nm = fstring(name, len);
    if (*r < 0 || *r > RT_MAXR)   /* rank 0: a scalar arrangement (HPF 1.0) */
        rt_error("hpfrt_procs_new: processor arrangement '%s' has rank %d (0 to %d)",
                 nm, *r, RT_MAXR);
    int h = table_slot((void **)&rt.procs, &rt.nprocs_tab, &rt.maxprocs_tab,
                       sizeof *rt.procs);
    RtProcs *p = &rt.procs[h];
    memset(p, 0, sizeof *p);
    p->used = 1;
    p->name = nm;
    p->r = *r;
    for (int d = 0; d < RT_MAXR; d++)
        p->declared[d] = -1000000;   /* not given yet */
    *hp = h + 1;
}

void hpfrt_procs_free_(int *hp)
{
    RtProcs *p = procs_get(*hp, "hpfrt_procs_free");
    free(p->name);
    memset(p, 0, sizeof *p);
    *hp = 0;
}

void hpfrt_procs_dim_(const int *hp, const int *d, const int *extent)
{
    RtProcs *p = procs_get(*hp, "hpfrt_procs_dim");
    if (*d < 1 || *d > p->r)
        rt_error("hpfrt_procs_dim: processor arrangement '%s' has no dimension %d",
                 p->name, *d);
    p->declared[*d - 1] = *extent;
    p->committed = 0;
}

void hpfrt_procs_commit_(const int *hp)
{
    RtProcs *p = procs_get(*hp, "hpfrt_procs_commit");
    for (int d = 0; d < p->r; d++)
        if (p->declared[d] == -1000000)
            rt_error("hpfrt_procs_commit: dimension %d of processor arrangement '%s' "
                     "was not given", d + 1, p->name);
    int changed = hpfmap_grid_shape(rt.np, p->r, p->declared, p->shape);
    if (changed && rt.rank == 0) {
        char decl[160] = "", shape[160] = "";
        size_t n1 = 0, n2 = 0;
        for (int d = 0; d < p->r; d++) {
            n1 += (size_t)snprintf(decl + n1, sizeof decl - n1, "%s%ld", d ? "," : "",
                                   p->declared[d]);
            n2 += (size_t)snprintf(shape + n2, sizeof shape - n2, "%s%d", d ? "x" : "",
                                   p->shape[d]);
        }
        fprintf(stderr, "hpfrt: note: processor arrangement '%s(%s)' re-formed as %s "
                "for %d process%s\n", p->name, decl, shape, rt.np, rt.np == 1 ? "" : "es");
        fflush(stderr);
    }
    p->committed = 1;
}

/* ---- templates ------------------------------------------------------------- */

static RtTmpl *tmpl_get(int ht, const char *fn)
{
    rt_need_init(fn);
    if (ht < 1 || ht > rt.ntmpl || !rt.tmpl[ht - 1].used)
        rt_error("%s: bad template handle %d", fn, ht);
    return &rt.tmpl[ht - 1];
}

void hpfrt_tmpl_new_(int *ht, const int *r, const char *name, size_t len)
{
    rt_need_init("hpfrt_tmpl_new");
    char *nm = fstring(name, len);
    if (*r < 1 || *r > RT_MAXR)
        rt_error("hpfrt_tmpl_new: template '%s' has rank %d (1 to %d)", nm, *r, RT_MAXR);
    int h = table_slot((void **)&rt.tmpl, &rt.ntmpl, &rt.maxtmpl, sizeof *rt.tmpl);
    RtTmpl *t = &rt.tmpl[h];
    memset(t, 0, sizeof *t);
    t->used = 1;
    t->name = nm;
    t->r = *r;
    *ht = h + 1;
}

static void tmpl_drop(RtTmpl *t)
{
    free(t->name);
    memset(t, 0, sizeof *t);
}

void hpfrt_tmpl_free_(int *ht)
{
    RtTmpl *t = tmpl_get(*ht, "hpfrt_tmpl_free");
    if (t->refs == 0)
        tmpl_drop(t);
    else
        t->released = 1;
    *ht = 0;
}

void hpfrt_tmpl_dim_(const int *ht, const int *d, const int *lb, const int *ub,
                     const int *fmt, const int *k)
{
    RtTmpl *t = tmpl_get(*ht, "hpfrt_tmpl_dim");
    if (*d < 1 || *d > t->r)
        rt_error("hpfrt_tmpl_dim: template '%s' has no dimension %d", t->name, *d);
    if (*fmt < HPFMAP_STAR || *fmt > HPFMAP_CYCLIC)
        rt_error("hpfrt_tmpl_dim: bad distribution format %d for dimension %d of "
                 "template '%s'", *fmt, *d, t->name);
    int i = *d - 1;
    t->set[i] = 1;
    t->lb[i] = *lb;
    t->ub[i] = *ub;
    t->fmt[i] = *fmt;
    t->k[i] = *k;
    t->committed = 0;
}

void hpfrt_tmpl_ghost_(const int *ht, const int *d, const int *lo, const int *hi)
{
    RtTmpl *t = tmpl_get(*ht, "hpfrt_tmpl_ghost");
    if (*d < 1 || *d > t->r)
        rt_error("hpfrt_tmpl_ghost: template '%s' has no dimension %d", t->name, *d);
    if (*lo < 0 || *hi < 0)
        rt_error("hpfrt_tmpl_ghost: negative overlap area %d:%d for dimension %d of "
                 "template '%s'", *lo, *hi, *d, t->name);
    t->plo[*d - 1] = *lo;
    t->phi[*d - 1] = *hi;
    t->committed = 0;
}

void hpfrt_tmpl_commit_(const int *ht, const int *hp)
{
    RtTmpl *t = tmpl_get(*ht, "hpfrt_tmpl_commit");
    RtGrid *g = &t->grid;
    const char *pname = "";
    if (*hp == 0) {
        g->r = 1;
        g->shape[0] = rt.np;
    } else {
        RtProcs *p = procs_get(*hp, "hpfrt_tmpl_commit");
        if (!p->committed)
            rt_error("hpfrt_tmpl_commit: template '%s' onto processor arrangement '%s', "
                     "which is not committed", t->name, p->name);
        g->r = p->r;
        memcpy(g->shape, p->shape, sizeof g->shape);
        pname = p->name;
    }
    int nd = 0;
    for (int d = 0; d < t->r; d++) {
        if (!t->set[d])
            rt_error("hpfrt_tmpl_commit: dimension %d of template '%s' was not given",
                     d + 1, t->name);
        t->gdim[d] = t->fmt[d] == HPFMAP_STAR ? -1 : nd++;
    }
    /* With no ONTO, a template with no distributed dimension is held by
     * every process of the default arrangement (replicated along it). */
    if (nd != g->r && !(*hp == 0 && nd == 0))
        rt_error("hpfrt_tmpl_commit: template '%s' has %d distributed dimension%s but "
                 "%s%s%s has rank %d", t->name, nd, nd == 1 ? "" : "s",
                 *hp ? "processor arrangement '" : "the default arrangement (no ONTO)",
                 pname, *hp ? "'" : "", g->r);
    for (int d = 0; d < t->r; d++) {
        long n = t->ub[d] >= t->lb[d] ? t->ub[d] - t->lb[d] + 1 : 0;
        int P = t->gdim[d] >= 0 ? g->shape[t->gdim[d]] : 1;
        if (hpfmap_dim_init(&t->hd[d], t->fmt[d], t->k[d], t->lb[d], n, P) != 0)
            rt_error("hpfrt_tmpl_commit: bad distribution of dimension %d of template "
                     "'%s' (format %d, k %d)", d + 1, t->name, t->fmt[d], t->k[d]);
        if (t->plo[d] > t->hd[d].k || t->phi[d] > t->hd[d].k)
            rt_error("hpfrt_tmpl_commit: overlap areas %d:%d around blocks of %ld cells "
                     "(dimension %d of template '%s'): wider than a block", t->plo[d],
                     t->phi[d], t->hd[d].k, d + 1, t->name);
        hpfmap_pad(&t->hd[d], t->plo[d], t->phi[d]);
    }
    hpfmap_coords(rt.rank, g->r, g->shape, rt.placement, g->coords);
    t->serial = ++rt.serial;
    t->committed = 1;
}

/* ---- distributed arrays ---------------------------------------------------- */

static RtArr *arr_get(int ha, const char *fn)
{
    rt_need_init(fn);
    if (ha < 1 || ha > rt.narr || !rt.arr[ha - 1].used)
        rt_error("%s: bad array handle %d", fn, ha);
    return &rt.arr[ha - 1];
}

RtArr *rt_arr(int ha, const char *fn)
{
    RtArr *a = arr_get(ha, fn);
    if (!a->committed)
        rt_error("%s: array '%s' is not committed", fn, a->name);
    return a;
}

void hpfrt_arr_new_(int *ha, const int *ht, const int *r, const int *esize,
                    const char *name, size_t len)
{
    rt_need_init("hpfrt_arr_new");
    char *nm = fstring(name, len);
    if (*r < 0 || *r > RT_MAXR)
        rt_error("hpfrt_arr_new: array '%s' has rank %d (0 to %d)", nm, *r, RT_MAXR);
    if (*esize < 1)
        rt_error("hpfrt_arr_new: array '%s' has elements of %d bytes", nm, *esize);
    if (*ht != 0)
        tmpl_get(*ht, "hpfrt_arr_new");
    int h = table_slot((void **)&rt.arr, &rt.narr, &rt.maxarr, sizeof *rt.arr);
    RtArr *a = &rt.arr[h];
    memset(a, 0, sizeof *a);
    a->used = 1;
    a->name = nm;
    a->ht = *ht;
    if (*ht != 0)
        rt.tmpl[*ht - 1].refs++;
    a->r = *r;
    a->esize = *esize;
    *ha = h + 1;
}

void hpfrt_arr_dim_(const int *ha, const int *d, const int *lb, const int *ub,
                    const int *tdim, const int *alpha, const int *beta,
                    const int *glo, const int *ghi)
{
    RtArr *a = arr_get(*ha, "hpfrt_arr_dim");
    if (*d < 1 || *d > a->r)
        rt_error("hpfrt_arr_dim: array '%s' has no dimension %d", a->name, *d);
    if (*glo < 0 || *ghi < 0)
        rt_error("hpfrt_arr_dim: negative ghost width for dimension %d of array '%s'",
                 *d, a->name);
    RtArrDim *m = &a->dim[*d - 1];
    m->set = 1;
    m->lb = *lb;
    m->ub = *ub;
    m->tdim = *tdim;
    m->alpha = *alpha;
    m->beta = *beta;
    m->glo = *glo;
    m->ghi = *ghi;
    a->committed = 0;
}

void hpfrt_arr_fix_(const int *ha, const int *tdim, const int *cell)
{
    RtArr *a = arr_get(*ha, "hpfrt_arr_fix");
    if (a->ht == 0)
        rt_error("hpfrt_arr_fix: array '%s' is not mapped onto a template", a->name);
    RtTmpl *t = tmpl_get(a->ht, "hpfrt_arr_fix");
    if (*tdim < 1 || *tdim > t->r)
        rt_error("hpfrt_arr_fix: template '%s' of array '%s' has no dimension %d",
                 t->name, a->name, *tdim);
    a->fixset[*tdim - 1] = 1;
    a->fixcell[*tdim - 1] = *cell;
    a->committed = 0;
}

void hpfrt_arr_commit_(const int *ha)
{
    RtArr *a = arr_get(*ha, "hpfrt_arr_commit");
    RtTmpl *t = NULL;
    memset(&a->grid, 0, sizeof a->grid);
    if (a->ht != 0) {
        t = tmpl_get(a->ht, "hpfrt_arr_commit");
        if (!t->committed)
            rt_error("hpfrt_arr_commit: array '%s' is mapped onto template '%s', which "
                     "is not committed", a->name, t->name);
        a->grid = t->grid;
        a->tserial = t->serial;
    }
    a->serial = ++rt.serial;
    int taken[RT_MAXR] = { 0 };
    for (int d = 0; d < a->r; d++) {
        RtArrDim *m = &a->dim[d];
        if (!m->set)
            rt_error("hpfrt_arr_commit: dimension %d of array '%s' was not given",
                     d + 1, a->name);
        m->g = -1;
        if (m->tdim == 0) {
            /* local: every holder stores all of lb:ub (ghosts do not apply) */
            m->lo = m->lb;
            m->hi = m->ub >= m->lb ? m->ub : m->lb;
            continue;
        }
        if (!t)
            rt_error("hpfrt_arr_commit: dimension %d of array '%s' is aligned with a "
                     "template dimension, but the array is not mapped", d + 1, a->name);
        if (m->tdim < 1 || m->tdim > t->r)
            rt_error("hpfrt_arr_commit: dimension %d of array '%s' is aligned with "
                     "dimension %d of template '%s', which has rank %d", d + 1, a->name,
                     m->tdim, t->name, t->r);
        int j = m->tdim - 1;
        if (t->gdim[j] < 0)
            rt_error("hpfrt_arr_commit: dimension %d of array '%s' is aligned with "
                     "dimension %d of template '%s', which is not distributed ('*'): "
                     "give it as local (tdim 0)", d + 1, a->name, m->tdim, t->name);
        if (taken[j])
            rt_error("hpfrt_arr_commit: dimensions %d and %d of array '%s' are both "
                     "aligned with dimension %d of template '%s'", taken[j], d + 1,
                     a->name, m->tdim, t->name);
        if (a->fixset[j])
            rt_error("hpfrt_arr_commit: dimension %d of template '%s' is both aligned "
                     "with dimension %d of array '%s' and fixed", m->tdim, t->name,
                     d + 1, a->name);
        if (m->alpha == 0)
            rt_error("hpfrt_arr_commit: dimension %d of array '%s' has stride 0 in its "
                     "alignment (use hpfrt_arr_fix)", d + 1, a->name);
        taken[j] = d + 1;
        m->hd = t->hd[j];
        m->g = t->gdim[j];
        if (m->ub >= m->lb) {
            long c1 = m->alpha * m->lb + m->beta, c2 = m->alpha * m->ub + m->beta;
            if (hpfmap_owner(&m->hd, c1) < 0 || hpfmap_owner(&m->hd, c2) < 0)
                rt_error("hpfrt_arr_commit: dimension %d of array '%s' (%ld:%ld) is "
                         "aligned outside template '%s' (cells %ld and %ld, template "
                         "%ld:%ld)", d + 1, a->name, m->lb, m->ub, t->name, c1, c2,
                         t->lb[j], t->ub[j]);
        }
        m->count = hpfmap_count(&m->hd, a->grid.coords[m->g]);
        if (m->hd.plo || m->hd.phi) {
            /* overlap areas around every block: the template's */
            if (m->glo > m->hd.plo || m->ghi > m->hd.phi)
                rt_error("hpfrt_arr_commit: ghost widths %d:%d of dimension %d of array "
                         "'%s' exceed the overlap areas %ld:%ld of template '%s'", m->glo,
                         m->ghi, d + 1, a->name, m->hd.plo, m->hd.phi, t->name);
            m->glo = (int)m->hd.plo;
            m->ghi = (int)m->hd.phi;
            m->lo = 1;
            m->hi = hpfmap_local_extent(&m->hd, a->grid.coords[m->g]);
        } else {
            m->lo = 1 - m->glo;
            m->hi = m->count + m->ghi;
        }
        if (m->hi < m->lo)
            m->hi = m->lo;
    }
    /* What each grid dimension is to the array. */
    for (int g = 0; g < a->grid.r; g++) {
        a->grole[g] = G_REPL;
        a->gfix[g] = 0;
        a->gdim[g] = -1;
    }
    if (t) {
        for (int j = 0; j < t->r; j++) {
            int g = t->gdim[j];
            if (taken[j]) {
                if (g >= 0) {
                    a->grole[g] = G_ALIGNED;
                    a->gdim[g] = taken[j] - 1;
                }
            } else if (a->fixset[j]) {
                if (hpfmap_owner(&t->hd[j], a->fixcell[j]) < 0)
                    rt_error("hpfrt_arr_commit: array '%s' is fixed at cell %ld of "
                             "dimension %d of template '%s' (%ld:%ld)", a->name,
                             a->fixcell[j], j + 1, t->name, t->lb[j], t->ub[j]);
                if (g >= 0) {   /* fixed in a '*' dimension: held everywhere */
                    a->grole[g] = G_FIXED;
                    a->gfix[g] = hpfmap_owner(&t->hd[j], a->fixcell[j]);
                }
            }
        }
    }
    a->present = 1;
    a->primary = 1;
    a->everywhere = 1;
    for (int g = 0; g < a->grid.r; g++) {
        if (a->grole[g] == G_FIXED && a->grid.coords[g] != a->gfix[g])
            a->present = 0;
        if (a->grole[g] == G_REPL && a->grid.coords[g] != 0)
            a->primary = 0;
        if (a->grole[g] != G_REPL)
            a->everywhere = 0;
    }
    if (!t)
        a->primary = rt.rank == 0;
    a->primary = a->primary && a->present;
    size_t n = 1;
    for (int d = 0; d < a->r; d++) {
        a->dim[d].stride = n;
        n *= (size_t)(a->dim[d].hi - a->dim[d].lo + 1);
    }
    a->nloc = n;
    a->committed = 1;
}

void hpfrt_arr_check_(const int *ha, const int *r)
{
    RtArr *a = rt_arr(*ha, "hpfrt_arr_check");
    if (a->r != *r)
        rt_error("hpfrt_arr_check: array '%s' of rank %d passed for a dummy of rank %d",
                 a->name, a->r, *r);
}

void hpfrt_arr_free_(const int *ha)
{
    RtArr *a = arr_get(*ha, "hpfrt_arr_free");
    if (a->ht != 0) {
        RtTmpl *t = &rt.tmpl[a->ht - 1];
        if (--t->refs == 0 && t->released)
            tmpl_drop(t);
    }
    free(a->name);
    memset(a, 0, sizeof *a);
}

static RtArrDim *arr_dim(const int *ha, const int *d, const char *fn, RtArr **ap)
{
    RtArr *a = rt_arr(*ha, fn);
    if (*d < 1 || *d > a->r)
        rt_error("%s: array '%s' has no dimension %d", fn, a->name, *d);
    if (ap)
        *ap = a;
    return &a->dim[*d - 1];
}

void hpfrt_arr_bounds_(const int *ha, const int *d, const int *lb, const int *ub)
{
    RtArr *a = NULL;
    RtArrDim *x = arr_dim(ha, d, "hpfrt_arr_bounds", &a);
    if (x->lb != *lb || x->ub != *ub)
        rt_error("array '%s' of bounds %ld:%ld in dimension %d is passed to a dummy of "
                 "bounds %d:%d (hpfc passes a mapped ALLOCATABLE array to a dummy of its "
                 "bounds)", a->name, x->lb, x->ub, *d, *lb, *ub);
}

int hpfrt_beta_(const int *ha, const int *d)
{
    return (int)arr_dim(ha, d, "hpfrt_beta", NULL)->beta;
}

int hpfrt_extent_(const int *ha, const int *d)
{
    const RtArrDim *x = arr_dim(ha, d, "hpfrt_extent", NULL);
    return (int)(x->ub - x->lb + 1);
}

int hpfrt_lo_(const int *ha, const int *d)
{
    return (int)arr_dim(ha, d, "hpfrt_lo", NULL)->lo;
}

int hpfrt_hi_(const int *ha, const int *d)
{
    return (int)arr_dim(ha, d, "hpfrt_hi", NULL)->hi;
}

int hpfrt_present_(const int *ha)
{
    return rt_arr(*ha, "hpfrt_present")->present;
}

int hpfrt_primary_(const int *ha)
{
    return rt_arr(*ha, "hpfrt_primary")->primary;
}

int hpfrt_i4_(const long long *x)
{
    if (*x < INT_MIN || *x > INT_MAX)
        rt_error("a value of %lld reaches the run time, which takes the bounds, extents, "
                 "block sizes and subscripts of mapped arrays as default INTEGERs "
                 "(%d to %d)", *x, INT_MIN, INT_MAX);
    return (int)*x;
}

int hpfrt_mine_(const int *ha, const int *d, const int *i)
{
    RtArr *a;
    RtArrDim *m = arr_dim(ha, d, "hpfrt_mine", &a);
    if (!a->present || *i < m->lb || *i > m->ub)
        return 0;
    if (m->tdim == 0)
        return 1;
    return hpfmap_owner(&m->hd, m->alpha * *i + m->beta) == a->grid.coords[m->g];
}

/* Local index of global index i of dimension d (0-based) here. A cell this
 * process does not own has, in a single-block dimension, the local index
 * of hpfrt.h's ghost convention (cell lb + p*k + l - 1), which may lie
 * outside 1..count; in other dimensions its local index on its owner. */
long rt_g2l(const RtArr *a, int d, long i)
{
    const RtArrDim *m = &a->dim[d];
    if (m->tdim == 0)
        return i;
    long t = m->alpha * i + m->beta;
    int p = a->grid.coords[m->g];
    if (hpfmap_owner(&m->hd, t) == p)
        return hpfmap_local(&m->hd, t);
    if (hpfmap_single_block(&m->hd))
        return t - (m->hd.lb + p * m->hd.k) + 1;
    return hpfmap_local(&m->hd, t);
}

void hpfrt_lin_(const int *ha, const int *d, int *y, int *z)
{
    RtArr *a;
    const RtArrDim *m = arr_dim(ha, d, "hpfrt_lin", &a);
    if (m->tdim == 0) {
        *y = 1;
        *z = 0;
        return;
    }
    if (m->hd.nprocs != 1 || m->hd.plo || m->hd.phi)
        rt_error("hpfrt_lin: dimension %d of array '%s' is distributed over %d processes",
                 *d, a->name, m->hd.nprocs);
    /* one process: the cell's offset from the template's first is its
       local index less one (hpfmap_local) */
    *y = (int)m->alpha;
    *z = (int)(m->beta - m->hd.lb + 1);
}

int hpfrt_g2l_(const int *ha, const int *d, const int *i)
{
    RtArr *a;
    arr_dim(ha, d, "hpfrt_g2l", &a);
    return (int)rt_g2l(a, *d - 1, *i);
}

size_t rt_offset(const RtArr *a, const long *l)
{
    size_t off = 0;
    for (int d = 0; d < a->r; d++)
        off += (size_t)(l[d] - a->dim[d].lo) * a->dim[d].stride;
    return off;
}

/* The rank of the process that holds the element whose storage coordinates
 * (cells of distributed dimensions, indices of local ones) are sc: along
 * replicated grid dimensions this process's own coordinate (repl_mine) or
 * 0 (the lowest-ranked holder). */
int rt_owner_rank(const RtArr *a, const long *sc, int repl_mine)
{
    int c[RT_MAXR];
    for (int g = 0; g < a->grid.r; g++) {
        switch (a->grole[g]) {
        case G_ALIGNED: {
            const RtArrDim *m = &a->dim[a->gdim[g]];
            c[g] = hpfmap_owner(&m->hd, sc[a->gdim[g]]);
            break;
        }
        case G_FIXED:
            c[g] = a->gfix[g];
            break;
        default:
            c[g] = repl_mine ? a->grid.coords[g] : 0;
        }
    }
    return a->grid.r ? hpfmap_rank(a->grid.r, a->grid.shape, rt.placement, c) : rt.rank;
}

/* ---- local iteration sets -------------------------------------------------- */

static unsigned long loop_hash(const long *key)
{
    unsigned long h = 1469598103934665603UL;
    for (int i = 0; i < 10; i++) {
        h ^= (unsigned long)key[i];
        h *= 1099511628211UL;
        h ^= h >> 29;
    }
    return h;
}

static void hash_insert(int idx)
{
    unsigned long mask = (unsigned long)rt.hashsize - 1;
    unsigned long h = loop_hash(rt.loop[idx].key) & mask;
    while (rt.hash[h])
        h = (h + 1) & mask;
    rt.hash[h] = idx + 1;
}

/* The iterations of a level of the statement whose region is innermost:
 * its count of points this execution is their product (profiling). */
static void region_trips(double n)
{
    if (rt.profile && rt.depth > 0) {
        RtFrame *f = &rt.stack[rt.depth - 1];
        f->points = (f->looped ? f->points : 1) * n;
        f->looped = 1;
    }
}

void hpfrt_region_trips_(const double *n)
{
    rt_need_init("hpfrt_region_trips");
    region_trips(*n > 0 ? *n : 0);
}

void hpfrt_loop_(int *lp, const int *ha, const int *d, const int *a, const int *b,
                 const int *lo, const int *hi, const int *st)
{
    RtArr *ar;
    RtArrDim *m = arr_dim(ha, d, "hpfrt_loop", &ar);
    if (*st == 0)
        rt_error("hpfrt_loop: zero step for dimension %d of array '%s'", *d, ar->name);
    long key[10];
    if (m->tdim != 0) {
        key[0] = ar->tserial;
        key[1] = m->tdim;
        key[2] = m->alpha * *a;
        key[3] = m->alpha * *b + m->beta;
        key[8] = key[9] = 0;
    } else {
        key[0] = key[1] = 0;
        key[2] = *a;
        key[3] = *b;
        key[8] = m->lb;
        key[9] = m->ub;
    }
    key[4] = *lo;
    key[5] = *hi;
    key[6] = *st;
    key[7] = ar->present;
    if (rt.hashsize) {
        unsigned long mask = (unsigned long)rt.hashsize - 1;
        for (unsigned long h = loop_hash(key) & mask; rt.hash[h]; h = (h + 1) & mask) {
            if (memcmp(rt.loop[rt.hash[h] - 1].key, key, sizeof key) == 0) {
                *lp = rt.hash[h];
                region_trips(rt.loop[*lp - 1].ntrip);
                return;
            }
        }
    }
    /* A new table: the segments of the cell a'*i + b' on this process. */
    RtLoop L;
    memcpy(L.key, key, sizeof key);
    L.nseg = 0;
    L.seg = NULL;
    if (ar->present) {
        HpfDim star, *hd = &m->hd;
        int p = 0;
        if (m->tdim != 0) {
            p = ar->grid.coords[m->g];
        } else {
            /* a local dimension: every index of lb:ub is held, stored at
             * the index itself */
            hpfmap_dim_init(&star, HPFMAP_STAR, 0, m->lb,
                            m->ub >= m->lb ? m->ub - m->lb + 1 : 0, 1);
            hd = &star;
        }
        HpfSeg buf[16];
        long n = hpfmap_segments(hd, p, key[2], key[3], *lo, *hi, *st, buf, 16);
        L.seg = rt_alloc((size_t)(n ? n : 1) * sizeof *L.seg);
        if (n <= 16)
            memcpy(L.seg, buf, (size_t)n * sizeof *L.seg);
        else
            hpfmap_segments(hd, p, key[2], key[3], *lo, *hi, *st, L.seg, n);
        L.nseg = n;
        if (m->tdim == 0)
            for (long s = 0; s < n; s++)
                L.seg[s].l1 += m->lb - 1;
    }
    L.ntrip = 0;
    for (long s = 0; s < L.nseg; s++)
        L.ntrip += hpfmap_trip(L.seg[s].i1, L.seg[s].i2, L.seg[s].is);
    if (rt.nloop == rt.maxloop) {
        rt.maxloop = rt.maxloop ? 2 * rt.maxloop : 16;
        rt.loop = rt_grow(rt.loop, (size_t)rt.maxloop * sizeof *rt.loop);
    }
    rt.loop[rt.nloop++] = L;
    if (2 * rt.nloop > rt.hashsize) {
        free(rt.hash);
        rt.hashsize = rt.hashsize ? 2 * rt.hashsize : 64;
        while (2 * rt.nloop > rt.hashsize)
            rt.hashsize *= 2;
        rt.hash = rt_alloc((size_t)rt.hashsize * sizeof *rt.hash);
        memset(rt.hash, 0, (size_t)rt.hashsize * sizeof *rt.hash);
        for (int i = 0; i < rt.nloop; i++)
            hash_insert(i);
    } else {
        hash_insert(rt.nloop - 1);
    }
    *lp = rt.nloop;
    region_trips(rt.loop[*lp - 1].ntrip);
}

static RtLoop *loop_get(int lp, const char *fn)
{
    rt_need_init(fn);
    if (lp < 1 || lp > rt.nloop)
        rt_error("%s: bad loop handle %d", fn, lp);
    return &rt.loop[lp - 1];
}

int hpfrt_nseg_(const int *lp)
{
    return (int)loop_get(*lp, "hpfrt_nseg")->nseg;
}

int hpfrt_ntrip_(const int *lp)
{
    return (int)loop_get(*lp, "hpfrt_ntrip")->ntrip;
}

void hpfrt_seg_(const int *lp, const int *s, int *i1, int *i2, int *is, int *l1, int *ls)
{
    RtLoop *L = loop_get(*lp, "hpfrt_seg");
    if (*s < 1 || *s > L->nseg)
        rt_error("hpfrt_seg: loop %d has %ld segment%s, not %d", *lp, L->nseg,
                 L->nseg == 1 ? "" : "s", *s);
    const HpfSeg *g = &L->seg[*s - 1];
    *i1 = (int)g->i1;
    *i2 = (int)g->i2;
    *is = (int)g->is;
    *l1 = (int)g->l1;
    *ls = (int)g->ls;
}

void hpfrt_segs_(const int *lp, int *q, const int *cap)
{
    RtLoop *L = loop_get(*lp, "hpfrt_segs");
    if (*cap < 1 + 5 * L->nseg)
        rt_error("hpfrt_segs: loop %d has %ld segment%s, a table of %d integers holds "
                 "fewer", *lp, L->nseg, L->nseg == 1 ? "" : "s", *cap);
    q[0] = (int)L->nseg;
    for (long s = 0; s < L->nseg; s++) {
        const HpfSeg *g = &L->seg[s];
        int *o = q + 1 + 5 * s;
        o[0] = (int)g->i1;
        o[1] = (int)g->i2;
        o[2] = (int)g->is;
        o[3] = (int)g->l1;
        o[4] = (int)g->ls;
    }
}

/* ---- timers per source region --------------------------------------------- */

double rt_comm_begin(void)
{
    return rt.profile ? MPI_Wtime() : 0;
}

void rt_comm_end(double t0)
{
    if (rt.profile && rt.depth > 0)
        rt.stack[rt.depth - 1].comm += MPI_Wtime() - t0;
}

void hpfrt_region_begin_(const int *line)
{
    rt_need_init("hpfrt_region_begin");
    if (*line < 0)
        rt_error("hpfrt_region_begin: bad source line %d", *line);
    if (rt.depth == rt.maxdepth) {
        rt.maxdepth = rt.maxdepth ? 2 * rt.maxdepth : 16;
        rt.stack = rt_grow(rt.stack, (size_t)rt.maxdepth * sizeof *rt.stack);
    }
    RtFrame *f = &rt.stack[rt.depth++];
    f->line = *line;
    if (*line > 0) {
        rt.entries++;             /* line 0: the timers' own calibration */
        /* the probe's cost between its events: a count and a compare, as
           in a run without it */
        long long pos = rt.probe_count++;
        if (pos == rt.probe_next)
            rt_probe_region(pos);
    }
    if (!rt.profile)
        return;                 /* nesting checked, no clock read */
    f->inner = f->comm = 0;
    f->points = 0;
    f->looped = 0;
    f->t0 = MPI_Wtime();
}

void hpfrt_region_end_(const int *line)
{
    double now = rt.profile ? MPI_Wtime() : 0;
    rt_need_init("hpfrt_region_end");
    if (rt.depth == 0)
        rt_error("hpfrt_region_end: region of line %d ended but none is open", *line);
    RtFrame *f = &rt.stack[rt.depth - 1];
    if (f->line != *line)
        rt_error("hpfrt_region_end: region of line %d ended while the region of line "
                 "%d is the innermost open one", *line, f->line);
    if (!rt.profile) {
        rt.depth--;
        return;
    }
    /* The region table is indexed by the line itself. */
    if (*line >= rt.maxreg)
        rt.reg = table_room(rt.reg, &rt.maxreg, *line + 1, sizeof *rt.reg);
    double elapsed = now - f->t0;
    RtRegion *g = &rt.reg[*line];
    g->line = *line;
    g->calls++;
    g->time += elapsed - f->inner;   /* exclusive of nested regions */
    g->comm += f->comm;
    g->iters += f->looped ? f->points : 0;
    rt.depth--;
    if (rt.depth > 0)
        rt.stack[rt.depth - 1].inner += elapsed;
}

void hpfrt_values_(const char *text, size_t len)
{
    rt_need_init("hpfrt_values");
    size_t have = rt.values ? strlen(rt.values) : 0;
    while (len > 0 && text[len - 1] == ' ')
        len--;
    char *v = realloc(rt.values, have + len + 2);
    if (!v)
        rt_error("out of memory");
    memcpy(v + have, text, len);
    v[have + len] = '\n';
    v[have + len + 1] = '\0';
    rt.values = v;
}

/* HPFRT_PROFILE=FILE (as seen by rank 0): per-region totals of every
 * process gathered to rank 0, written as CSV. Collective. */
static void profile_write(void)
{
    const char *file = rt.rank == 0 ? getenv("HPFRT_PROFILE") : NULL;
    if (!rt.profile)
        return;
    /* the run from hpfrt_init, the slowest process's */
    double mine_el = MPI_Wtime() - rt.t_start, elapsed = 0;
    MPI_Reduce(&mine_el, &elapsed, 1, MPI_DOUBLE, MPI_MAX, 0, rt.comm);
    int n = 0;
    for (int l = 0; l < rt.maxreg; l++)
        n += rt.reg[l].calls > 0;
    enum { K = 6 };   /* line, calls, time, communication, computation, iterations */
    double *mine = rt_alloc((size_t)(K * n) * sizeof *mine);
    for (int l = 0, i = 0; l < rt.maxreg; l++) {
        if (rt.reg[l].calls > 0) {
            mine[i++] = l;
            mine[i++] = (double)rt.reg[l].calls;
            mine[i++] = rt.reg[l].time;
            mine[i++] = rt.reg[l].comm;
            mine[i++] = rt.reg[l].time > rt.reg[l].comm ? rt.reg[l].time - rt.reg[l].comm : 0;
            mine[i++] = rt.reg[l].iters;
        }
    }
    int cnt = K * n;
    int *counts = NULL, *displs = NULL;
    double *all = NULL;
    int total = 0;
    if (rt.rank == 0) {
        counts = rt_alloc((size_t)rt.np * sizeof *counts);
        displs = rt_alloc((size_t)rt.np * sizeof *displs);
    }
    MPI_Gather(&cnt, 1, MPI_INT, counts, 1, MPI_INT, 0, rt.comm);
    if (rt.rank == 0) {
        for (int q = 0; q < rt.np; q++) {
            displs[q] = total;
            total += counts[q];
        }
        all = rt_alloc((size_t)total * sizeof *all);
    }
    MPI_Gatherv(mine, cnt, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0, rt.comm);
    free(mine);
    if (rt.rank == 0) {
        /* merge by line: lines are at most the largest seen */
        int maxl = -1;
        for (int i = 0; i < total; i += K)
            if ((int)all[i] > maxl)
                maxl = (int)all[i];
        enum { A = 9 };   /* calls; time, comm, computation, iterations: maximum and sum */
        double *acc = rt_alloc((size_t)(A * (maxl + 1)) * sizeof *acc);
        memset(acc, 0, (size_t)(A * (maxl + 1)) * sizeof *acc);
        char *seen = rt_alloc((size_t)maxl + 1);
        memset(seen, 0, (size_t)maxl + 1);
        for (int i = 0; i < total; i += K) {
            int l = (int)all[i];
            double *s = &acc[A * l];
            seen[l] = 1;
            if (all[i + 1] > s[0])
                s[0] = all[i + 1];
            for (int k = 0; k < 4; k++) {
                if (all[i + 2 + k] > s[1 + 2 * k])
                    s[1 + 2 * k] = all[i + 2 + k];
                s[2 + 2 * k] += all[i + 2 + k];
            }
        }
        FILE *f = fopen(file, "w");
        if (!f) {
            fprintf(stderr, "hpfrt: warning: cannot write the profile '%s': %s\n", file,
                    strerror(errno));
        } else {
            /* the run's processes and sizes, as comments before the header */
            fprintf(f, "# np=%d\n", rt.np);
            fprintf(f, "# region_entries=%lld\n", rt.entries);
            fprintf(f, "# elapsed=%.9g\n", elapsed);
            fprintf(f, "# region_timers=%.3e\n", rt.region_cost);
            for (const char *v = rt.values; v && *v;) {
                size_t n = strcspn(v, "\n");
                fprintf(f, "# %.*s\n", (int)n, v);
                v += n + (v[n] == '\n');
            }
            fprintf(f, "line,calls,time_max,time_mean,comm_max,comm_mean,comp_max,comp_mean,"
                    "iters_max,iters_mean\n");
            for (int l = 0; l <= maxl; l++) {
                if (!seen[l])
                    continue;
                const double *s = &acc[A * l];
                fprintf(f, "%d,%.0f,%.9f,%.9f,%.9f,%.9f,%.9f,%.9f,%.0f,%.1f\n", l, s[0], s[1],
                        s[2] / rt.np, s[3], s[4] / rt.np, s[5], s[6] / rt.np, s[7],
                        s[8] / rt.np);
            }
            if (fclose(f) != 0)
                fprintf(stderr, "hpfrt: warning: cannot write the profile '%s': %s\n",
                        file, strerror(errno));
        }
        free(acc);
        free(seen);
        free(all);
        free(counts);
        free(displs);
    }
}
