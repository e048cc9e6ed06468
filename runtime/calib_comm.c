/* calib_comm.c - communication: MPI point-to-point between ranks 0 and 1,
 * the barrier and the collectives on the processes given, in the terms of
 * the engine's message model (interp/engine_net.c en_exchange()):
 *
 *   a posted ("static") receive ends  startup + bytes * per_byte + receive
 *   after the send began (startup.short up to net.short_max bytes);
 *   a message that arrived before its receive ("dynamic") costs the
 *   receiver  dynamic.receive + bytes * (dynamic.per_byte - per_byte);
 *   messages above net.dynamic.buffer wait for their receiver (rendezvous).
 *
 * The ping-pong gives the one-way time; timed receives of messages that
 * arrived while their receiver computed give the receive costs; a send
 * that returns before its receiver comes back to MPI tells the largest
 * buffered message. The ranks beyond 1 sleep meanwhile (cal_phase_end). */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "collfit.h"
#include "hpfmap.h"

#define MAXB (1 << 20)          /* the largest message: 1 MiB */

static MPI_Comm pair;           /* ranks 0 and 1 */
static char *sbuf, *rbuf;

/* The message sizes: powers of two from 1 B with the halfway points above
 * 32 B (where the protocols change), and 0; fewer with --quick. */
static int sizes(int *s)
{
    int n = 0;
    if (cal.quick) {
        static const int q[] = {0, 8, 64, 256, 512, 2048, 4096, 8192, 16384, 65536, 262144, MAXB};
        for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
            s[n++] = q[i];
        return n;
    }
    s[n++] = 0;
    for (int b = 1; b <= MAXB; b *= 2) {
        s[n++] = b;
        if (b >= 32 && b < MAXB)
            s[n++] = b + b / 2;
    }
    return n;
}

/* Round trips a batch: about cal.batch_s at a guess of 1 us + 0.2 ns/B a
 * message; the same number on both ranks (a function of the size). */
static int rounds(int b)
{
    double est = 2 * (1e-6 + 0.2e-9 * b);
    int k = (int)(cal.batch_s / est);
    return k < 2 ? 2 : k > 2000 ? 2000 : k;
}

/* One-way times of the n sizes b: the median over cal.reps rounds of a
 * batch of round trips, over two. A round takes every size in turn, so
 * that a slow spell of the machine falls on all sizes alike and does not
 * bend the curve. */
static void pingpong(const int *b, int n, double *oneway)
{
    int me;
    MPI_Comm_rank(pair, &me);
    double *v = malloc((size_t)cal.reps * (size_t)n * sizeof *v);
    for (int r = -1; r < cal.reps; r++)        /* r = -1: warm-up */
        for (int i = 0; i < n; i++) {
            int k = rounds(b[i]);
            MPI_Barrier(pair);
            double t0 = cal_now();
            for (int j = 0; j < k; j++) {
                if (me == 0) {
                    MPI_Send(sbuf, b[i], MPI_BYTE, 1, 1, pair);
                    MPI_Recv(rbuf, b[i], MPI_BYTE, 1, 1, pair, MPI_STATUS_IGNORE);
                } else {
                    MPI_Recv(rbuf, b[i], MPI_BYTE, 0, 1, pair, MPI_STATUS_IGNORE);
                    MPI_Send(sbuf, b[i], MPI_BYTE, 0, 1, pair);
                }
            }
            if (r >= 0)
                v[i * cal.reps + r] = (cal_now() - t0) / (2.0 * k);
        }
    for (int i = 0; i < n; i++)
        oneway[i] = cal_median(v + i * cal.reps, cal.reps);
    free(v);
}

/* Spins s seconds outside MPI: no progress is made on messages (they wait
 * in MPI's shared buffers for the receiver), and the processor stays awake,
 * as a computing process does. */
static void spin(double s)
{
    double t0 = cal_now();
    while (cal_now() - t0 < s)
        ;
}

/* A message of b bytes that arrives while its receiver computes (spins
 * outside MPI, as an SPMD process does between its communications), its
 * receive posted before (dynamic = 0: MPI_Irecv, then MPI_Wait is timed)
 * or after the arrival (dynamic = 1: MPI_Recv is timed). t[0]: the
 * receive; t[1]: rank 0's MPI_Send, or -1 when it waited for the receiver
 * to come back to MPI (the message was not buffered: Open MPI's shared
 * memory buffers only what fits its "fast box", a few hundred bytes,
 * although its eager limit is 4 KiB). On both ranks. */
static void arrived(int b, int dynamic, double *t)
{
    int me;
    MPI_Comm_rank(pair, &me);
    /* the receiver's computation: 5 us, as between the communications of
       an SPMD program that communicates often, where a receive's cost
       matters. It depends on how long the process was away from MPI: on a
       2-core Xeon, a message received after 1 to 10 us of computation costs
       about 0.1 us, after 300 us 0.5 us (MPI's code and data no longer in
       the caches), which next to 300 us is lost in the computation */
    double away = 5e-6 + 1e-9 * b;
    MPI_Request req = MPI_REQUEST_NULL;
    t[0] = t[1] = 0;
    if (me == 0) {
        MPI_Barrier(pair);
        double t0 = cal_now();
        MPI_Send(sbuf, b, MPI_BYTE, 1, 2, pair);
        t[1] = cal_now() - t0;
        if (t[1] > away / 2)
            t[1] = -1;
    } else {
        if (!dynamic)
            MPI_Irecv(rbuf, b, MPI_BYTE, 0, 2, pair, &req);
        MPI_Barrier(pair);
        spin(away);
        double t0 = cal_now();
        if (dynamic)
            MPI_Recv(rbuf, b, MPI_BYTE, 0, 2, pair, MPI_STATUS_IGNORE);
        else
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        t[0] = cal_now() - t0;
    }
    MPI_Allreduce(MPI_IN_PLACE, t, 2, MPI_DOUBLE, MPI_SUM, pair);
}

/* Least squares for two lines of one slope, t = s1 + p b up to the break
 * and s2 + p b after, weighted by 1/t^2; the residual. */
static double fit2(const double *b, const double *t, int n, int brk, double *s1, double *s2,
                   double *p)
{
    /* normal equations for (s1, s2, p) */
    double A[3][4] = {{0}};
    for (int i = 0; i < n; i++) {
        double w = 1.0 / (t[i] * t[i]);
        double row[3] = {i <= brk, i > brk, b[i]};
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++)
                A[r][c] += w * row[r] * row[c];
            A[r][3] += w * row[r] * t[i];
        }
    }
    /* Gauss-Jordan with partial pivoting */
    for (int c = 0; c < 3; c++) {
        int piv = c;
        for (int r = c + 1; r < 3; r++)
            if (fabs(A[r][c]) > fabs(A[piv][c]))
                piv = r;
        if (A[piv][c] == 0)
            return INFINITY;
        for (int k = 0; k < 4; k++) {
            double x = A[c][k];
            A[c][k] = A[piv][k];
            A[piv][k] = x;
        }
        for (int r = 0; r < 3; r++) {
            if (r == c)
                continue;
            double f = A[r][c] / A[c][c];
            for (int k = c; k < 4; k++)
                A[r][k] -= f * A[c][k];
        }
    }
    *s1 = A[0][3] / A[0][0];
    *s2 = A[1][3] / A[1][1];
    *p = A[2][3] / A[2][2];
    double res = 0;
    for (int i = 0; i < n; i++) {
        double d = t[i] - (i <= brk ? *s1 : *s2) - *p * b[i];
        res += d * d / (t[i] * t[i]);
    }
    return res;
}

/* ---- collectives ------------------------------------------------------- */

/* Seconds of one broadcast (what = 0), allreduce (1) or all-to-all (2;
 * `bytes` to each process) of `bytes` on the first p processes, the
 * slowest rank's; a broadcast is followed by a barrier, whose time alone
 * is subtracted, so that the broadcast is timed to its last receiver.
 * Every rank calls it; those beyond p sleep. */
static double coll_time(int p, int what, long bytes)
{
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, cal.rank < p ? 0 : MPI_UNDEFINED, cal.rank, &sub);
    double res = 0;
    if (sub != MPI_COMM_NULL) {
        /* 100 calls a batch of short messages (20 quick), fewer of long */
        long k = (cal.quick ? 20 : 100) * 64 / (bytes > 64 ? bytes : 64);
        k = k < 3 ? 3 : k;
        long n = bytes / 8 > 0 ? bytes / 8 : 1;
        size_t len = (size_t)(what == 2 ? p : 1) * (size_t)n;
        double *x = calloc(len, sizeof *x), *y = calloc(len, sizeof *y);
        double *v = malloc((size_t)cal.reps * sizeof *v);
        for (int pass = what == 0 ? 0 : 1; pass < 2; pass++) {
            /* pass 0: the barrier alone (broadcast only), pass 1: the operation */
            for (int r = -1; r < cal.reps; r++) {
                MPI_Barrier(sub);
                double t0 = cal_now();
                for (long i = 0; i < k; i++) {
                    if (what == 0 && pass == 1)
                        MPI_Bcast(x, (int)n, MPI_DOUBLE, 0, sub);
                    if (what == 1)
                        MPI_Allreduce(x, y, (int)n, MPI_DOUBLE, MPI_SUM, sub);
                    if (what == 2)
                        MPI_Alltoall(x, (int)bytes, MPI_BYTE, y, (int)bytes, MPI_BYTE, sub);
                    if (what == 0)
                        MPI_Barrier(sub);
                }
                double t = (cal_now() - t0) / (double)k, tmax;
                MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, sub);
                if (r >= 0)
                    v[r] = tmax;
            }
            double m = cal_median(v, cal.reps);
            res = pass == 0 ? -m : res + m;
        }
        free(v);
        free(x);
        free(y);
        MPI_Comm_free(&sub);
        cal_phase_end(0);
    } else {
        cal_phase_end(1);
    }
    return res > 0 ? res : 1e-9;
}

/* The algorithm of one collective (what, as coll_time; the SAG's name
 * `key`) told from its samples by collfit (runtime/collfit.h): the
 * parameters, and a comment with the times. */
static void coll_choice(int what, const char *key, const CfNet *net, const CfSample *s, int ns)
{
    static const int coll[3] = {CF_BCAST, CF_REDUCE, CF_ALLTOALL};
    static const char *const op[3] = {"MPI_Bcast", "MPI_Allreduce", "MPI_Alltoall"};
    CfChoice c;
    /* on 2 processes the candidates differ by one message at most, and MPI's
       own work in a collective call (about a third of a message's time on
       the 2-core Xeon of doc/validation.md) is of the same order: another
       algorithm than the library's usual one must fit clearly better there
       (a factor 1.4), which it did not at 0.1 in some calibrations (an
       MPI_Allreduce of 8 B taken for a tree's two messages) */
    if (collfit_choose(coll[what], net, s, ns, cal.np == 2 ? 0.35 : 0.1, &c) != 0)
        return;
    char note[600];
    int len = snprintf(note, sizeof note, "measured: %s", op[what]);
    for (int i = 0; i < ns && len < 420; i++)
        len += snprintf(note + len, sizeof note - (size_t)len, "%s %s on %d %.3g us",
                        i ? "," : "", cal_size(s[i].m), s[i].p, s[i].t * 1e6);
    snprintf(note + len, sizeof note - (size_t)len, "; %s fits best%s", collfit_name(c.small),
             cal.np == 2 ? " (on 2 processes most models are one message: another"
                           " than Open MPI's usual choice, the first, must fit better by a"
                           " factor 1.4)" : "");
    cal_param(CAL_COMM, key, collfit_name(c.small), "%s", note);
    if (what == 0)
        cal_param(CAL_COMM, "coll.multicast", collfit_name(c.small), "as coll.broadcast");
    if (c.large != c.small) {
        char k2[64];
        snprintf(k2, sizeof k2, "%s.large", key);
        cal_param(CAL_COMM, k2, collfit_name(c.large),
                  "measured: %s fits the sizes above %s best", collfit_name(c.large),
                  cal_size(c.at));
        snprintf(k2, sizeof k2, "%s.switch", key);
        cal_param(CAL_COMM, k2, cal_size(c.at),
                  "measured: the largest size timed that %s fits best", collfit_name(c.small));
    }
}

/* ---- the measurements ---------------------------------------------------- */

/* The first MPI_Allreduce and the first MPI_Bcast of a process cost more
 * than the later ones (Open MPI sets the collective's algorithm and its
 * buffers up at the first call; a program pays it once): each timed right
 * after the barrier that follows MPI_Init (the SPMD programs' clock starts
 * after such a barrier too), less the second call; the medians over the
 * processes. first[0]: the allreduce, first[1]: the broadcast (from rank
 * 0, then from rank 1, both firsts). */
static double first[2] = {-1, -1};

void calib_first_coll(void)
{
    if (cal.np < 2)
        return;
    MPI_Barrier(MPI_COMM_WORLD);
    double x = 1, y = 0, t[8];
    for (int i = 0; i < 2; i++) {
        t[4 * i] = cal_now();
        MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        t[4 * i + 1] = cal_now();
        MPI_Bcast(&y, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        t[4 * i + 2] = cal_now();
        MPI_Bcast(&y, 1, MPI_DOUBLE, 1, MPI_COMM_WORLD);
        t[4 * i + 3] = cal_now();
    }
    double mine[2] = {(t[1] - t[0]) - (t[5] - t[4]), (t[3] - t[1]) - (t[7] - t[5])};
    double *all = malloc(2 * (size_t)cal.np * sizeof *all);
    double *v = malloc((size_t)cal.np * sizeof *v);
    if (!all || !v)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Allgather(mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, MPI_COMM_WORLD);
    for (int k = 0; k < 2; k++) {
        for (int r = 0; r < cal.np; r++)
            v[r] = all[2 * r + k] > 0 ? all[2 * r + k] : 0;
        first[k] = cal_median(v, cal.np);
    }
    free(all);
    free(v);
}

void calib_comm(void)
{
    if (cal.np < 2)
        return;
    cal_progress("communication: ping-pong between ranks 0 and 1");
    MPI_Comm_split(MPI_COMM_WORLD, cal.rank < 2 ? 0 : MPI_UNDEFINED, cal.rank, &pair);
    int s[64], ns = sizes(s);
    double bs[64], ow[64];
    double st_b[64], st_t[64], dy_t[64], os_t[64];
    int nst = 0, eager_max = 0;
    if (pair != MPI_COMM_NULL) {
        /* the receive buffer 1088 bytes off the send buffer's place in a
           page: two buffers that map to the same cache sets would make
           the power-of-two sizes slow, which a program's arrays are not */
        char *sb = malloc(MAXB + 8192), *rb = malloc(MAXB + 8192);
        if (!sb || !rb)
            MPI_Abort(MPI_COMM_WORLD, 1);
        sbuf = sb + (4096 - (uintptr_t)sb % 4096);
        rbuf = rb + (4096 - (uintptr_t)rb % 4096) + 1088;
        memset(sbuf, 1, MAXB);
        memset(rbuf, 0, MAXB);
        for (int i = 0; i < ns; i++)
            bs[i] = s[i];
        pingpong(s, ns, ow);
        cal_progress("communication: receives of messages that have arrived");
        /* the buffered sizes: up to the first whose send waits for the
           receiver (the sizes rise), then confirmed in every round */
        int nb = 0;
        while (nb < ns && s[nb] <= 262144) {
            double t[2] = {0, -1};
            for (int try = 0; try < 3 && t[1] < 0; try++)    /* a preempted send */
                arrived(s[nb], 1, t);
            if (t[1] < 0)
                break;
            nb++;
        }
        double *v = malloc(3 * (size_t)cal.reps * (size_t)(nb + 1) * sizeof *v);
        for (int r = 0; r < cal.reps; r++)
            for (int i = 0; i < nb; i++) {
                double t[2], u[2];
                arrived(s[i], 0, t);
                arrived(s[i], 1, u);
                double *x = v + 3 * ((size_t)i * cal.reps + r);
                x[0] = t[0];                        /* posted receive */
                x[1] = u[0];                        /* receive after arrival */
                x[2] = t[1] < 0 || u[1] < 0 ? -1 : (t[1] + u[1]) / 2;   /* send */
            }
        for (int i = 0; i < nb; i++) {
            double w[1000], d[1000], o[1000];
            int no = 0;
            for (int r = 0; r < cal.reps; r++) {
                double *x = v + 3 * ((size_t)i * cal.reps + r);
                w[r] = x[0];
                d[r] = x[1];
                if (x[2] >= 0)
                    o[no++] = x[2];
            }
            /* buffered in most rounds (a round whose send waited may have
               been preempted on a busy machine) */
            if (2 * no <= cal.reps)
                break;
            eager_max = s[i];
            st_b[nst] = s[i];
            st_t[nst] = cal_median(w, cal.reps);
            dy_t[nst] = cal_median(d, cal.reps);
            os_t[nst++] = cal_median(o, no);
        }
        free(v);
        free(sb);
        free(rb);
        MPI_Comm_free(&pair);
        cal_phase_end(0);
    } else {
        cal_phase_end(1);
    }

    /* the barrier, on every process */
    cal_progress("communication: barrier and collectives on 2..%d processes", cal.np);
    double sync, sync_hw;
    {
        int k = cal.quick ? 50 : 200;
        double *v = malloc((size_t)cal.reps * sizeof *v);
        for (int r = -1; r < cal.reps; r++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = cal_now();
            for (int i = 0; i < k; i++)
                MPI_Barrier(MPI_COMM_WORLD);
            double t = (cal_now() - t0) / k, tmax;
            MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            if (r >= 0)
                v[r] = tmax;
        }
        sync = cal_est(v, cal.reps);
        sync_hw = cal_last_hw();
        cal_spread(-1);         /* for sync.overhead, written below */
        free(v);
    }
    if (first[0] >= 0 && cal.rank == 0) {
        cal_param(CAL_COMM, "coll.first.reduction", cal_us(first[0]),
                  "measured: the first MPI_Allreduce of a process less its second, right after"
                  " MPI_Init and a barrier, the median over %d processes", cal.np);
        cal_param(CAL_COMM, "coll.first.broadcast", cal_us(first[1]),
                  "measured: the first MPI_Bcast of a process (from rank 0, then rank 1) less"
                  " the second, as coll.first.reduction");
    }
    /* the jitter: every process computes the same fixed work (copies of
       an L1 array, about 30 us), then all meet in an MPI_Allreduce; the
       mean time of the allreduce grows with the work by how much the
       processes' times vary: the expected lateness of the last of np is
       the expected maximum of np normals times the deviation */
    double jitter = -1;
    if (cal.np > 1) {
        cal_progress("communication: the variation of the processes' times (jitter)");
        enum { NX = 1024, WORK = 100, PER = 40 };
        double *x = calloc(2 * NX + 8, sizeof *x), c[8] = {1e-3, 1.0000001, 3.0, 0, 0, 0, 0, 0};
        double v[CAL_MAX_ROUNDS], u[CAL_MAX_ROUNDS];
        if (!x)
            MPI_Abort(MPI_COMM_WORLD, 1);
        /* batches of PER meetings with the work and PER without, in turn;
           a batch's extra wait is its mean allreduce with the work less
           without, averaged over the processes; the median over the
           batches, so that a rare long delay of the machine (a process
           descheduled for a millisecond) does not make the value; as many
           batches as cal_run would run (a small difference: usually up to
           its limit), decided from the summed times, which all have */
        int nb = 0;
        double elapsed = 0;
        for (int b = -1;; b++) {
            double sum[3] = {0, 0, 0}, all[3];
            for (int w = 0; w < 2; w++)
                for (int i = 0; i < PER; i++) {
                    double t0 = cal_now();
                    for (int r = 0; w && r < WORK; r++)
                        ck_dop(0, NX, 1, 1, x, x + NX, c);
                    double t1 = cal_now(), one = 1, tot;
                    MPI_Allreduce(&one, &tot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                    sum[w] += cal_now() - t1;           /* the allreduce */
                    sum[2] += t1 - t0;                  /* the work */
                }
            MPI_Allreduce(sum, all, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            if (b >= 0) {
                double n = (double)PER * cal.np;
                v[b] = (all[1] - all[0]) / n;
                u[b] = all[2] / n;
                nb = b + 1;
                elapsed += (all[0] + all[1] + all[2]) / cal.np;
                if (!cal_more_rounds(v, 1, nb, elapsed))
                    break;
            }
        }
        double work = cal_median(u, nb), wait = cal_est(v, nb);
        jitter = work > 0 && wait > 0 ? wait / (hpfmap_normal_max(cal.np) * work) : 0;
        if (cal.rank == 0)
            cal_param(CAL_COMM, "comm.jitter", cal_count(jitter),
                      "measured: %d processes computing the same %.3g us, then an MPI_Allreduce:"
                      " %.3g us more than without the work (the median of %d batches of %d),"
                      " over the expected maximum of %d normals (%.3g) and the work", cal.np,
                      work * 1e6, wait * 1e6, nb, PER, cal.np, hpfmap_normal_max(cal.np));
        else
            cal_spread(-1);
        if (cal.rank == 0 && work > 0)
            cal_param(CAL_COMM, "comm.jitter.interval", cal_us(work),
                      "measured: the work comm.jitter is relative to, the grain of the processes'"
                      " independent variations (a longer time T varies by comm.jitter x"
                      " sqrt(T x interval))");
        free(x);
    }
    /* broadcast and allreduce on 2..np processes (up to 8 each, then
       powers of two and np) */
    int ps[32], np_ = 0;
    for (int p = 2; p <= cal.np && np_ < 31; p++)
        if (p <= 8 || (p & (p - 1)) == 0 || p == cal.np)
            ps[np_++] = p;
    /* 8 bytes (an element, a scalar reduction) and 4 bytes each (the
       counts of a gather) on every count; on all, longer messages, where
       the libraries change algorithm */
    static const long sizes[] = {1024, 16384, 131072, 1048576};
    CfSample sb[40], sr[40], sa[40];
    int nb = 0, na = 0;
    for (int i = 0; i < np_; i++) {
        sb[nb] = (CfSample){ps[i], 8, coll_time(ps[i], 0, 8)};
        sr[nb++] = (CfSample){ps[i], 8, coll_time(ps[i], 1, 8)};
        sa[na++] = (CfSample){ps[i], 4, coll_time(ps[i], 2, 4)};
    }
    for (size_t j = cal.quick ? 1 : 0; j < sizeof sizes / sizeof *sizes; j += cal.quick ? 2 : 1) {
        sb[nb] = (CfSample){cal.np, (double)sizes[j], coll_time(cal.np, 0, sizes[j])};
        sr[nb++] = (CfSample){cal.np, (double)sizes[j], coll_time(cal.np, 1, sizes[j])};
    }
    if (cal.rank != 0)
        return;

    /* ---- the model's parameters ---- */
    int n = ns;
    double s1 = 0, s2 = 0, pb = 0, best = INFINITY;
    int brk = n - 1;
    /* the break (net.short_max): the size after which the two lines of
       one slope fit best; at least three sizes after it */
    for (int j = 1; j < n - 3; j++) {
        double a1 = 0, a2 = 0, p = 0;
        double res = fit2(bs, ow, n, j, &a1, &a2, &p);
        if (res < best && p > 0) {
            best = res;
            brk = j;
            s1 = a1;
            s2 = a2;
            pb = p;
        }
    }
    if (!isfinite(best)) {      /* no break: one line */
        cal_fit(bs, ow, n, &s1, &pb);
        s2 = s1;
        brk = n - 1;
    }
    /* the one-way time at 0 B is the sender's part (the start-up, which
       the engine charges the sender) and the receiver's (the static
       receive); the sender's is its MPI_Send of a buffered message */
    double o0 = 0, o1 = 0, w0 = 0, w1 = 0, d0 = 0, d1 = 0;
    if (nst >= 2 && st_b[nst - 1] >= 4096) {
        cal_fit(st_b, os_t, nst, &o0, &o1);
        cal_fit(st_b, st_t, nst, &w0, &w1);
        cal_fit(st_b, dy_t, nst, &d0, &d1);
    } else if (nst > 0) {
        /* buffered messages too short for a slope (the copy of a few
           hundred bytes is lost in the receive's time): the medians */
        o0 = cal_median(os_t, nst);
        w0 = cal_median(st_t, nst);
        d0 = cal_median(dy_t, nst);
    }
    double lo = 1e-9;           /* 1 ns: a start-up is never free */
    double st_short = o0 < lo ? lo : o0 > s1 - lo ? s1 - lo : o0;
    if (st_short < lo)
        st_short = lo;
    double recv = s1 - st_short > 0 ? s1 - st_short : 0;
    double st_long = s2 - recv > lo ? s2 - recv : lo;
    if (d0 < 0)
        d0 = 0;

    cal_comment(CAL_COMM, "one-way times of the ping-pong (median of %d batches of round trips"
                          " over two), by size:", cal.reps);
    for (int i = 0; i < n; i += 6) {
        char line[400];
        int len = 0;
        for (int j = i; j < n && j < i + 6; j++)
            len += snprintf(line + len, sizeof line - (size_t)len, "%s%s %.3g us",
                            j > i ? ", " : "", cal_size(bs[j]), ow[j] * 1e6);
        cal_comment(CAL_COMM, "  %s", line);
    }
    cal_param(CAL_COMM, "net.topology", "crossbar",
              "every pair of processes connected directly (the engine's flat topology, 1 hop)");
    cal_param(CAL_COMM, "net.placement", "linear",
              "grid positions on their column-major ranks, as libhpfrt places them by default "
              "(HPFRT_PLACEMENT unset)");
    cal_param(CAL_COMM, "net.routing", "direct", "no routing between the processes");
    cal_param(CAL_COMM, "net.receive.post", "early", "libhpfrt's exchanges (MPI_Sendrecv) and"
              " MPI's collectives post a round's receives as they send: a message is early"
              " only if it arrives before its process enters the round");
    cal_param(CAL_COMM, "net.bandwidth", cal_rate(1 / pb), "derived: 1 / net.static.per_byte");
    cal_param(CAL_COMM, "net.short_max", cal_size(bs[brk]),
              "measured: the break of the one-way times, fitted as two lines of one slope"
              " (the protocol's switch)");
    cal_param(CAL_COMM, "net.static.startup.short", cal_us(st_short),
              "measured: the sender's part, MPI_Send of a buffered message at 0 B"
              " (0..%s), of the one-way time at 0 B, %.3g us", cal_size(eager_max), s1 * 1e6);
    cal_param(CAL_COMM, "net.static.startup", cal_us(st_long),
              "measured: the fit's one-way time at 0 B above net.short_max, %.3g us, less"
              " net.static.receive", s2 * 1e6);
    cal_param(CAL_COMM, "net.static.per_byte", cal_us(pb), "measured: the fit's slope, %.3g GB/s",
              1e-9 / pb);
    cal_param(CAL_COMM, "net.static.per_hop", "0 us",
              "%s", "one node: shared memory, no hops (a switched network: the start-up holds it)");
    cal_param(CAL_COMM, "net.static.receive", cal_us(recv),
              "derived: the one-way time at 0 B less the sender's part; measured: a posted"
              " receive of a message that arrived while its process computed, %.3g us", w0 * 1e6);
    if (eager_max > 0)
        cal_param(CAL_COMM, "net.dynamic.buffer", cal_size(eager_max),
                  "measured: the largest message whose MPI_Send returns before its receive"
                  " is called (buffered); larger ones wait for the receiver");
    cal_param(CAL_COMM, "net.dynamic.startup.short", cal_us(st_short), "as the static one: the"
              " sender does not see the receiver");
    cal_param(CAL_COMM, "net.dynamic.startup", cal_us(st_long), "as the static one");
    if (nst > 0) {
        if (d1 > 0)
            cal_param(CAL_COMM, "net.dynamic.per_byte", cal_us(pb + d1),
                      "measured: net.static.per_byte plus the receive's slope, %.3g ns/B"
                      " (the copy out of MPI's buffer)", d1 * 1e9);
        else
            cal_param(CAL_COMM, "net.dynamic.per_byte", cal_us(pb),
                      "as net.static.per_byte: the buffered messages are too short to time"
                      " a copy out of MPI's buffer apart");
        cal_param(CAL_COMM, "net.dynamic.receive", cal_us(d0),
                  "measured: MPI_Recv of a message that arrived while its process computed,"
                  " at 0 B (0..%s)", cal_size(eager_max));
    }
    cal_param(CAL_COMM, "net.dynamic.per_hop", "0 us", "as the static one");
    cal_spread_of(sync, sync_hw);
    cal_param(CAL_COMM, "sync.overhead", cal_us(sync),
              "measured: MPI_Barrier on %d processes, median of %d batches", cal.np, cal.reps);

    /* collectives: the algorithm whose model (collfit.c, the engine's
       rounds) fits the times best, per collective, and the size above
       which another fits better */
    double t1 = ow[0];          /* one message: the measured one-way time of 8 B */
    for (int i = 0; i < n; i++)
        if (bs[i] <= 8)
            t1 = ow[i];
    double dadd = 0;
    const char *dv = cal_value("op.dadd");
    if (!dv || !cal_si(dv, cal_clock_hz, &dadd))
        dadd = 0;
    CfNet net = {t1 - 8 * pb > 0 ? t1 - 8 * pb : t1, pb, dadd / 8};
    coll_choice(0, "coll.broadcast", &net, sb, nb);
    coll_choice(1, "coll.reduction", &net, sr, nb);
    coll_choice(2, "coll.alltoall", &net, sa, na);
}
