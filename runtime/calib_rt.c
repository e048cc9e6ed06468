/* calib_rt.c - libhpfrt's own costs per call of the generated code, which
 * the SAG of the paper does not have: the region timers and the local
 * iteration set that every FORALL hpfc writes calls (rank 0 measures, the
 * others sleep), and the gather through an index vector, hpfrt_gather_r8
 * (collective: every rank takes part, as in a program). Written to the
 * processing component in cycles, as the operations; doc/runtime.md
 * ("hpfcalibrate") says how each is measured.
 *
 * As in calib_proc.c a cost is a difference: the region and the iteration
 * set against the same loop without them (ck_forall), a gather's cost per
 * element the slope of its time against the elements requested, and its
 * fixed cost the time of an empty one less the MPI_Alltoall of counts
 * among the processes (communication, for the message model to charge)
 * plus what that MPI_Alltoall costs alone on one process. */
#include <config.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "calib.h"
#include "hpfrt.h"

/* ---- a FORALL's calls: rank 0 ------------------------------------------ */

/* The local block of the (BLOCK) array of ck_forall: a short loop, so that
 * the calls are a large part of a FORALL's time and their difference is
 * resolved. */
#define FORALL_BLOCK 16

typedef struct {
    int op, ha, nglob;
    double *x, *y;
} Forall;

static void run_forall(void *arg, long iters)
{
    Forall *f = arg;
    while (iters > 0) {
        int k = iters > INT_MAX ? INT_MAX : (int)iters;
        ck_forall(f->op, k, &f->ha, f->nglob, f->x, f->y);
        iters -= k;
    }
}

static void forall_costs(void)
{
    cal_progress("libhpfrt: region timers and iteration sets of a FORALL");
    double x[FORALL_BLOCK], y[FORALL_BLOCK] = {0};
    for (int i = 0; i < FORALL_BLOCK; i++)
        x[i] = 1.0 + i;
    Forall f[5];
    int ha;
    ck_rt_setup(FORALL_BLOCK * cal.np, 0, &ha);
    CalJob jobs[5];
    for (int j = 0; j < 5; j++) {
        f[j] = (Forall){j, ha, FORALL_BLOCK * cal.np, x, y};
        jobs[j] = (CalJob){run_forall, &f[j], 1.0, 0};   /* the time of an entry */
    }
    double *t = malloc((size_t)CAL_MAX_ROUNDS * 5 * sizeof *t);
    double vr[CAL_MAX_ROUNDS], vl[CAL_MAX_ROUNDS], vs[CAL_MAX_ROUNDS], va[CAL_MAX_ROUNDS];
    if (!t)
        MPI_Abort(MPI_COMM_WORLD, 1);
    cal_run(jobs, 5, t);
    for (int r = 0; r < cal.rounds; r++) {
        vr[r] = t[5 * r + 4] - t[5 * r + 2];
        vl[r] = t[5 * r + 2] - t[5 * r + 3];
        vs[r] = t[5 * r + 3] - t[5 * r];
        va[r] = t[5 * r + 1] - t[5 * r];
    }
    free(t);
    /* the timers around a statement as hpfc emits it (its iteration set,
       its segments, its loop), less the same without them: what a
       program pays; around the bare loop they cost less (written in the
       comment) */
    double alone = cal_est(va, cal.rounds);
    cal_cost("rt.region", cal_est(vr, cal.rounds), "measured: hpfrt_region_begin and"
             " hpfrt_region_end (their nesting check; no clock read without HPFRT_PROFILE) around a FORALL of %d elements as hpfc emits"
             " it (hpfrt_loop, its segments, the loop), less the same without them (around the"
             " bare loop: %.3g ns)", FORALL_BLOCK, alone * 1e9);
    cal_cost("rt.loop", cal_est(vl, cal.rounds), "measured: hpfrt_loop (cached) of a (BLOCK)"
             " array before its segments and that loop, less them");
    cal_cost("rt.seg", cal_est(vs, cal.rounds), "measured: hpfrt_nseg and hpfrt_seg (one"
             " segment) before that loop, less the loop: an entry of a distributed level");
}

/* ---- the gather: every rank ----------------------------------------------- */

#define GMAX 4096               /* the most elements requested, a process's block */

enum { G_GATHER, G_KEPT, G_A2A, G_A2A_SELF, G_RED, G_RED_MPI, G_RED_SELF };

typedef struct {
    int kind, n, ha;
    const double *x;
    const int *idx;
    double *buf;
    int *cnt, *rcnt;            /* MPI_Alltoall's counts, cal.np each */
    int hs;                     /* G_KEPT: the schedule's handle */
} Gather;

static void run_gather(void *arg, long iters)
{
    Gather *g = arg;
    for (long r = 0; r < iters; r++)
        switch (g->kind) {
        case G_GATHER: hpfrt_gather_r8_(&g->ha, g->x, &g->n, g->idx, g->buf); break;
        case G_KEPT: {
            int inv = 1;
            hpfrt_gathers_r8_(&g->ha, g->x, &g->n, g->idx, g->buf, &g->hs, &g->ha, &inv);
            break;
        }
        case G_A2A: MPI_Alltoall(g->cnt, 1, MPI_INT, g->rcnt, 1, MPI_INT, MPI_COMM_WORLD); break;
        case G_A2A_SELF: MPI_Alltoall(g->cnt, 1, MPI_INT, g->rcnt, 1, MPI_INT, MPI_COMM_SELF); break;
        case G_RED: {
            double v = 1;
            int op = HPFRT_SUM;
            hpfrt_reduce_r8_(&v, &op);
            break;
        }
        case G_RED_MPI:
        case G_RED_SELF: {
            double v = 1;
            MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_SUM,
                          g->kind == G_RED_MPI ? MPI_COMM_WORLD : MPI_COMM_SELF);
            break;
        }
        }
}

/* The time of one batch of fn on every rank, each starting after a barrier
 * (a rank that comes late would be timed as the others' wait): the
 * slowest rank's, so that all see the same. */
static double coll_batch(const CalJob *job, long iters)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = cal_now(), c0 = cal_cpu_now();
    job->fn(job->arg, iters);
    double t = cal_now() - t0;
    cal_batch_had_cpu(t, cal_cpu_now() - c0, 1);     /* counted, not run again */
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return t;
}

/* cal_run for collective work: every rank runs the same batches (their
 * repetitions chosen from the slowest rank's times, so the same on every
 * rank), the jobs in turn round after round, as many rounds as cal_run
 * would run (decided from the slowest rank's times, which every rank has:
 * all decide alike). */
static void coll_run(CalJob *jobs, int njobs, double *t)
{
    for (int j = 0; j < njobs; j++) {
        CalJob *job = &jobs[j];
        long iters = 1;
        job->fn(job->arg, 1);   /* warm: pages, MPI's connections and its type cache */
        for (;;) {
            double s = coll_batch(job, iters);
            if (s >= cal.batch_s || iters >= (1L << 30))
                break;
            double f = s > 0 ? 1.2 * cal.batch_s / s : 100;
            iters = (long)((double)iters * (f < 2 ? 2 : f > 100 ? 100 : f));
        }
        job->iters = iters;
    }
    double elapsed = 0;
    int r = 0;
    do {
        for (int j = 0; j < njobs; j++) {
            double s = coll_batch(&jobs[j], jobs[j].iters);
            elapsed += s;
            t[r * njobs + j] = s / (double)jobs[j].iters / jobs[j].units;
        }
        r++;
    } while (cal_more_rounds(t, njobs, r, elapsed));
    cal.rounds = r;
}

/* The one-way time of a message of 0 B as the engine charges it,
 * net.static.startup.short + net.static.receive, from the values measured
 * before (calib_comm.c); 0 when they are not there (1 process). */
static double one_way_short(void)
{
    const char *s = cal_value("net.static.startup.short"), *r = cal_value("net.static.receive");
    double vs, vr;
    if (!s)
        s = cal_value("net.static.startup");
    if (!s || !r || !cal_si(s, cal_clock_hz, &vs) || !cal_si(r, cal_clock_hz, &vr))
        return 0;
    return vs + vr;
}

static void gather_costs(void)
{
    int np = cal.np, me = cal.rank, ha;
    cal_progress("libhpfrt: gathers on %d process%s", np, np == 1 ? "" : "es");
    /* a (BLOCK) array of GMAX elements a process: process p holds the
       global indices p * GMAX + 1 .. (p + 1) * GMAX */
    ck_rt_setup(GMAX * np, 0, &ha);
    double *x = malloc(GMAX * sizeof *x), *buf = calloc(GMAX, sizeof *buf);
    int *loc = malloc(GMAX * sizeof *loc), *rem = malloc(GMAX * sizeof *rem);
    int *cnt = calloc((size_t)np, sizeof *cnt), *rcnt = calloc((size_t)np, sizeof *rcnt);
    if (!x || !buf || !loc || !rem || !cnt || !rcnt)
        MPI_Abort(MPI_COMM_WORLD, 1);
    int next = (me + 1) % np, one = 1, bad = 0;
    for (int k = 0; k < GMAX; k++) {
        x[k] = 1.0 + k;
        loc[k] = me * GMAX + 1 + k;
        rem[k] = next * GMAX + 1 + k;   /* the next process's: the other one of 2 */
        bad |= !hpfrt_mine_(&ha, &one, &loc[k]) || (np > 1 && hpfrt_mine_(&ha, &one, &rem[k]));
    }
    if (bad) {
        fprintf(stderr, "hpfcalibrate: error: the (BLOCK) array of the gathers is not laid"
                        " out in blocks of %d\n", GMAX);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    /* the jobs: the two MPI_Alltoall, then gathers of ns[i] local and
       (more than 1 process) remote elements; n = 0 is the same for both */
    static const int ns[] = {0, 64, 256, 1024, GMAX};
    enum { NS = sizeof ns / sizeof ns[0] };
    Gather g[2 + 4 * NS + 3];
    CalJob jobs[2 + 4 * NS + 3];
    int nj = 0;
    g[nj++] = (Gather){G_A2A, 0, ha, x, loc, buf, cnt, rcnt, 0};
    g[nj++] = (Gather){G_A2A_SELF, 0, ha, x, loc, buf, cnt, rcnt, 0};
    for (int i = 0; i < NS; i++)
        g[nj++] = (Gather){G_GATHER, ns[i], ha, x, loc, buf, cnt, rcnt, 0};
    for (int i = 1; i < NS && np > 1; i++)
        g[nj++] = (Gather){G_GATHER, ns[i], ha, x, rem, buf, cnt, rcnt, 0};
    /* the same through a kept schedule (made at the warm-up call) */
    int jk = nj;
    for (int i = 0; i < NS; i++)
        g[nj++] = (Gather){G_KEPT, ns[i], ha, x, loc, buf, cnt, rcnt, 0};
    for (int i = 1; i < NS && np > 1; i++)
        g[nj++] = (Gather){G_KEPT, ns[i], ha, x, rem, buf, cnt, rcnt, 0};
    /* a reduction through libhpfrt and the same straight to MPI */
    int jr = nj;
    g[nj++] = (Gather){G_RED, 0, ha, x, loc, buf, cnt, rcnt, 0};
    g[nj++] = (Gather){G_RED_MPI, 0, ha, x, loc, buf, cnt, rcnt, 0};
    g[nj++] = (Gather){G_RED_SELF, 0, ha, x, loc, buf, cnt, rcnt, 0};
    for (int j = 0; j < nj; j++)
        jobs[j] = (CalJob){run_gather, &g[j], 1.0, 0};      /* the time of a call */
    double *t = malloc((size_t)CAL_MAX_ROUNDS * (size_t)nj * sizeof *t);
    if (!t)
        MPI_Abort(MPI_COMM_WORLD, 1);
    coll_run(jobs, nj, t);

    if (me == 0) {
        /* medians of each job, and of the fixed cost's round by round */
        double med[2 + 4 * NS + 3], v[CAL_MAX_ROUNDS], fixed[CAL_MAX_ROUNDS];
        for (int j = 0; j < nj; j++) {
            for (int r = 0; r < cal.rounds; r++)
                v[r] = t[r * nj + j];
            med[j] = cal_median(v, cal.rounds);
        }
        /* libhpfrt's own work in a collective call: its communication
           timers (MPI_Wtime twice) and checks; on one process it is most
           of the call */
        for (int r = 0; r < cal.rounds; r++)
            fixed[r] = t[r * nj + jr] - t[r * nj + jr + 1];
        cal_cost("rt.coll", cal_est(fixed, cal.rounds), "measured: hpfrt_reduce_r8 of one"
                 " element on %d process%s (%.3g us) less MPI_Allreduce of it (%.3g us): a"
                 " broadcast's or a reduction's own work in libhpfrt; MPI_Allreduce on"
                 " MPI_COMM_SELF takes %.3g us", np, np == 1 ? "" : "es", med[jr] * 1e6,
                 med[jr + 1] * 1e6, med[jr + 2] * 1e6);
        cal_cost("rt.coll.self", med[jr + 2], "measured: MPI_Allreduce of one REAL(8) on"
                 " MPI_COMM_SELF: what MPI does for a collective call of a run of one process");
        /* the gather's own work: its time for 0 elements less what the
           engine charges for the MPI_Alltoall of the counts (linear: np - 1
           messages of 4 B sent and received, the one-way time at 0 B each,
           net.static.startup.short + net.static.receive, measured before),
           plus MPI_Alltoall on MPI_COMM_SELF, which a run of one process
           makes. Less the MPI_Alltoall measured alone, the gather's own work
           came out a third short of what a run of one process measures:
           inside the gather the two processes' calls overlap their partner's
           work */
        double ow = one_way_short(), a2a = (np - 1) * ow;
        for (int r = 0; r < cal.rounds; r++)
            fixed[r] = t[r * nj + 2] - (ow > 0 ? a2a : t[r * nj]) + t[r * nj + 1];
        double xs[NS], ys[NS], a, local, remote = 0;
        for (int i = 0; i < NS; i++) {
            xs[i] = ns[i];
            ys[i] = med[2 + i];
        }
        cal_fit(xs, ys, NS, &a, &local);
        if (np > 1) {
            for (int i = 1; i < NS; i++)
                ys[i] = med[2 + NS + i - 1];
            cal_fit(xs, ys, NS, &a, &remote);
        }
        if (np > 1 && ow > 0)
            cal_cost("rt.gather", cal_est(fixed, cal.rounds), "measured: hpfrt_gather_r8 of 0"
                     " elements on %d processes (%.3g us), less the engine's MPI_Alltoall of an"
                     " int on %d, %d one-way times at 0 B (%.3g us; measured alone %.3g us),"
                     " plus MPI_Alltoall on MPI_COMM_SELF (%.3g us)", np, med[2] * 1e6, np,
                     np - 1, a2a * 1e6, med[0] * 1e6, med[1] * 1e6);
        else
            cal_cost("rt.gather", cal_est(fixed, cal.rounds), "measured: hpfrt_gather_r8 of 0"
                     " elements on %d process%s (%.3g us), less MPI_Alltoall of an int on %d"
                     " (%.3g us), plus MPI_Alltoall on MPI_COMM_SELF (%.3g us)", np,
                     np == 1 ? "" : "es", med[2] * 1e6, np, med[0] * 1e6, med[1] * 1e6);
        cal_cost("rt.gather.elem", local, "measured: the slope of hpfrt_gather_r8's time against"
                 " the elements requested (0..%d), all held by the caller", GMAX);
        if (np > 1)
            cal_cost("rt.gather.remote", remote - cal_floor(local), "measured: the slope with all"
                     " elements held by the %s process (%.3g ns an element), less"
                     " rt.gather.elem: requests and replies packed, sent, unpacked",
                     np == 2 ? "other" : "next", remote * 1e9);
        else
            cal_comment(CAL_PROC, "rt.gather.remote is not measured on 1 process: no other"
                        " process holds an element (run it with mpirun -np 2)");
        /* through a kept schedule: no inspector, no MPI_Alltoall, no
           requests (an index vector the compiler proved invariant: no
           MPI_Allreduce either) */
        double klocal, kremote = 0, kfix;
        for (int i = 0; i < NS; i++)
            ys[i] = med[jk + i];
        cal_fit(xs, ys, NS, &kfix, &klocal);
        cal_cost("rt.gather.kept", med[jk], "measured: hpfrt_gathers_r8 of 0 elements through"
                 " a kept schedule (an invariant index vector): the call's own work");
        cal_cost("rt.gather.kept.elem", klocal, "measured: the slope of hpfrt_gathers_r8's time"
                 " through a kept schedule against the elements (0..%d), all held by the"
                 " caller: the index vector compared, the element copied", GMAX);
        if (np > 1) {
            for (int i = 1; i < NS; i++)
                ys[i] = med[jk + NS + i - 1];
            cal_fit(xs, ys, NS, &kfix, &kremote);
            cal_cost("rt.gather.kept.remote", kremote - cal_floor(klocal), "measured: the slope"
                     " through a kept schedule with all elements held by the %s process (%.3g ns"
                     " an element), less rt.gather.kept.elem: replies packed and unpacked",
                     np == 2 ? "other" : "next", kremote * 1e9);
        } else
            cal_comment(CAL_PROC, "rt.gather.kept.remote is not measured on 1 process: no"
                        " other process holds an element (run it with mpirun -np 2)");
    }
    free(t);
    free(x);
    free(buf);
    free(loc);
    free(rem);
    free(cnt);
    free(rcnt);
}

/* hpfrt_overlap_r8 of one ghost cell each side of a (BLOCK) array of 16
 * elements a process (both directions: two MPI_Sendrecv of a cell), less
 * the same two MPI_Sendrecv made directly: the library's own work of a
 * shift, its buffers and element type. The same of a (BLOCK,*) array of
 * SHIFT_COLS columns (rows of SHIFT_COLS elements a slab, each element a
 * run of its own, packed and unpacked apart), less its two MPI_Sendrecv of
 * SHIFT_COLS elements: the slope, a run packed or unpacked. */
#define SHIFT_COLS 64

typedef struct {
    int ha, up, down, n;        /* n: the elements of a slab */
    double *x, *cs, *cr;        /* the array; a slab sent and received directly */
} Shift;

static void run_overlap(void *arg, long iters)
{
    Shift *s = arg;
    int one = 1;
    /* the whole array, reaching no ghost cells across */
    int lo[2] = {-INT_MAX, -INT_MAX}, hi[2] = {INT_MAX, INT_MAX}, ext[4] = {0};
    for (long i = 0; i < iters; i++)
        hpfrt_overlap_r8_(&s->ha, s->x, &one, &one, &one, lo, hi, ext);
}

static void run_sendrecv(void *arg, long iters)
{
    Shift *s = arg;
    for (long i = 0; i < iters; i++) {
        MPI_Sendrecv(s->cs, s->n, MPI_DOUBLE, s->up, 1, s->cr, s->n, MPI_DOUBLE, s->down,
                     1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(s->cs, s->n, MPI_DOUBLE, s->down, 2, s->cr, s->n, MPI_DOUBLE, s->up,
                     2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

static void shift_costs(void)
{
    int np = cal.np, me = cal.rank;
    if (np < 2) {
        if (me == 0)
            cal_comment(CAL_PROC, "rt.shift is not measured on 1 process: no neighbour (run it"
                        " with mpirun -np 2)");
        return;
    }
    cal_progress("libhpfrt: overlap shifts on %d processes", np);
    int one = 1;
    Shift s[2];
    ck_rt_setup(16 * np, 1, &s[0].ha);
    ck_rt_setup2(16 * np, SHIFT_COLS, 1, &s[1].ha);
    for (int k = 0; k < 2; k++) {
        int lo = hpfrt_lo_(&s[k].ha, &one), hi = hpfrt_hi_(&s[k].ha, &one);
        s[k].n = k ? SHIFT_COLS : 1;
        s[k].x = calloc((size_t)(hi - lo + 1) * (size_t)s[k].n, sizeof *s[k].x);
        s[k].cs = calloc((size_t)s[k].n, sizeof *s[k].cs);
        s[k].cr = calloc((size_t)s[k].n, sizeof *s[k].cr);
        if (!s[k].x || !s[k].cs || !s[k].cr)
            MPI_Abort(MPI_COMM_WORLD, 1);
        s[k].up = me + 1 < np ? me + 1 : MPI_PROC_NULL;
        s[k].down = me > 0 ? me - 1 : MPI_PROC_NULL;
    }
    CalJob jobs[4] = {{run_overlap, &s[0], 1.0, 0}, {run_sendrecv, &s[0], 1.0, 0},
                      {run_overlap, &s[1], 1.0, 0}, {run_sendrecv, &s[1], 1.0, 0}};
    double *t = malloc(4 * (size_t)CAL_MAX_ROUNDS * sizeof *t), v[CAL_MAX_ROUNDS];
    if (!t)
        MPI_Abort(MPI_COMM_WORLD, 1);
    coll_run(jobs, 4, t);
    if (me == 0) {
        double a[CAL_MAX_ROUNDS], b[CAL_MAX_ROUNDS], w[CAL_MAX_ROUNDS];
        for (int r = 0; r < cal.rounds; r++) {
            v[r] = t[4 * r] - t[4 * r + 1];
            a[r] = t[4 * r];
            b[r] = t[4 * r + 1];
            w[r] = t[4 * r + 2] - t[4 * r + 3] - v[r];
        }
        double ov = cal_median(a, cal.rounds), sr = cal_median(b, cal.rounds);
        cal_cost("rt.shift", cal_est(v, cal.rounds), "measured: hpfrt_overlap_r8 of one ghost"
                 " cell each side, (BLOCK) on %d processes (%.3g us), less its two"
                 " MPI_Sendrecv of a cell made directly (%.3g us)", np, ov * 1e6, sr * 1e6);
        /* the slowest process packs and unpacks a slab each way: two of
           each on more than 2 processes (an inner one), one on 2 */
        double copies = (np > 2 ? 4.0 : 2.0) * (SHIFT_COLS - 1);
        for (int r = 0; r < cal.rounds; r++)
            w[r] /= copies;
        cal_cost("rt.shift.run", cal_est(w, cal.rounds), "measured: the same shift of a"
                 " (BLOCK,*) array of %d columns less its two MPI_Sendrecv of %d elements,"
                 " less the shift of one cell, by the %.0f runs (elements a row apart) more"
                 " packed and unpacked", SHIFT_COLS, SHIFT_COLS, copies);
    }
    free(t);
    for (int k = 0; k < 2; k++) {
        free(s[k].x);
        free(s[k].cs);
        free(s[k].cr);
    }
}

/* The first layout of a process: the run-time library's first calls
 * (an arrangement, a template, a descriptor: ck_rt_setup) take their code
 * and data in, besides their work; timed right after hpfrt_init, less a
 * second layout, the least over the processes (a first cannot be repeated
 * in a process, and one delayed process would make a mean). */
static double start_t = -1;

void calib_rt_start(void)
{
    int ha;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = cal_now();
    ck_rt_setup(16 * cal.np, 0, &ha);
    double t1 = cal_now();
    ck_rt_setup(16 * cal.np, 0, &ha);
    double t = (t1 - t0) - (cal_now() - t1);
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    start_t = t > 0 ? t : 0;
}

void calib_rt(void)
{
    if (cal.rank == 0) {
        cal_comment(CAL_PROC, "libhpfrt's own costs per call of the generated code (not in the"
                              " paper's SAG; doc/runtime.md)");
        if (start_t >= 0)
            cal_cost("rt.start", start_t, "measured: the first layout of a process (an"
                     " arrangement, a template, an array) right after hpfrt_init, less a second,"
                     " the least of the %d processes", cal.np);
        forall_costs();
    }
    cal_phase_end(cal.rank != 0);
    gather_costs();
    cal_phase_end(0);
    shift_costs();
    cal_phase_end(0);
}
