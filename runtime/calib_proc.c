/* calib_proc.c - the processor: its clock, and the cost of each operation
 * class, loop, condition, call and library function the engine charges
 * (interp/engine.c read_params; the op.* names are analysis/aag.c
 * opc_param[], the lib.* names the generic intrinsics of analysis/aag_ops.c
 * and the run-time calls of analysis/aag.c).
 *
 * Every cost is a difference: the kernel of calib_kernels.f90 with the
 * operations against its base (the same loop copying x to y), divided by
 * the operations added, so that the loop's own cost, the load and the
 * store are subtracted. The arrays fit in L1 and a kernel's values stay in
 * range (no overflow, no denormals). Rank 0 measures; the others sleep. */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"

/* ---- the clock --------------------------------------------------------- */

static void run_clock(void *arg, long iters)
{
    int *t = arg;
    for (long r = 0; r < iters; r++)
        ck_clock(4096, t);
}

/* The clock the system gives (Hz), or 0: /proc/cpuinfo's "cpu MHz" (x86),
 * else cpufreq's cpuinfo_max_freq (kHz). */
static double system_clock(const char **src)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    double mhz = 0;
    if (f) {
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "cpu MHz", 7) == 0) {
                const char *p = strchr(line, ':');
                if (p && (mhz = atof(p + 1)) > 0)
                    break;
            }
        fclose(f);
    }
    if (mhz > 0) {
        *src = "/proc/cpuinfo";
        return mhz * 1e6;
    }
    f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
    if (f) {
        double khz = 0;
        if (fscanf(f, "%lf", &khz) == 1 && khz > 0) {
            fclose(f);
            *src = "cpufreq cpuinfo_max_freq";
            return khz * 1e3;
        }
        fclose(f);
    }
    return 0;
}

void calib_clock(void)
{
    if (cal.rank == 0) {
        /* warm up: a processor that scales its clock reaches full speed */
        double t0 = cal_now();
        int t = 1;
        while (cal_now() - t0 < (cal.quick ? 0.05 : 0.2))
            ck_clock(65536, &t);
        double measured = 2.0 / (cal_time(run_clock, &t, 4096.0));
        const char *src = NULL;
        double sys = system_clock(&src);
        char v[48], note[200];
        /* the measured clock is the one the kernels ran at (a boost clock
           above the nominal one the system reports, in a virtual machine
           the host's nominal one); the system's only when the measurement
           is far off, a processor where the chain is not two cycles */
        if (sys > 0 && (measured > 2 * sys || measured < sys / 2)) {
            cal_clock_hz = sys;
            snprintf(note, sizeof note, "%s; the measurement (%.0f MHz, ck_clock) is far off",
                     src, measured / 1e6);
        } else if (sys > 0) {
            cal_clock_hz = measured;
            snprintf(note, sizeof note, "measured: ck_clock, an add and an xor an iteration"
                     " (2 cycles); %s says %.0f MHz", src, sys / 1e6);
        } else {
            cal_clock_hz = measured;
            snprintf(note, sizeof note, "measured: ck_clock, an add and an xor an iteration"
                     " (2 cycles); the system gives no clock");
        }
        cal_clock_hz = round(cal_clock_hz / 1e6) * 1e6;   /* as written */
        snprintf(v, sizeof v, "%.0f MHz", cal_clock_hz / 1e6);
        cal_param(CAL_PROC, "cpu.clock", v, "%s", note);
    }
    cal_phase_end(cal.rank != 0);
    MPI_Bcast(&cal_clock_hz, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

/* ---- the kernels --------------------------------------------------------- */

enum { KD, KF, KI, KCVT, KNEST, KCALL, KRT, KNONE };

typedef struct {
    int kind, op, n, k, m;      /* kernel, its op, elements, the two steps */
    double *x, *y, *c;
    float *xf, *yf, *cf;
    int *ix, *iy, *ic, ha;
} Kern;

static void run_kern(void *arg, long iters)
{
    Kern *q = arg;
    for (long r = 0; r < iters; r++)
        switch (q->kind) {
        case KD: ck_dop(q->op, q->n, q->k, q->m, q->x, q->y, q->c); break;
        case KF: ck_fop(q->op, q->n, q->k, q->m, q->xf, q->yf, q->cf); break;
        case KI: ck_iop(q->op, q->n, q->k, q->m, q->ix, q->iy, q->ic); break;
        case KCVT: ck_cvt(q->n, q->k, q->m, q->ix, q->iy, q->c); break;
        case KNEST: ck_nest(256, q->op, q->k, q->m, q->x, q->y); break;
        case KCALL: ck_call(q->op, q->n, q->k, q->m, q->x, q->y); break;
        case KRT: ck_rt(q->op, q->n, q->k, q->m, &q->ha, q->ix, q->iy); break;
        case KNONE: break;      /* nothing: the timer's own cost */
        }
}

static Kern base;               /* the arrays, shared by every kernel */
static volatile double sink;    /* results read back: the work is used */

static Kern kern(int kind, int op)
{
    Kern q = base;
    q.kind = kind;
    q.op = op;
    return q;
}

/* Timed together, in turn: t[r * n + j] is kernel j's time an iteration
 * (an inner loop for ck_nest) in round r. Returns t (malloc'ed). */
static double *run_kerns(Kern *q, int n)
{
    CalJob jobs[8];
    for (int j = 0; j < n; j++) {
        jobs[j].fn = run_kern;
        jobs[j].arg = &q[j];
        jobs[j].units = q[j].kind == KNEST ? 256 : (q[j].n + q[j].k - 1) / q[j].k;
    }
    double *t = malloc((size_t)cal.reps * (size_t)n * sizeof *t);
    if (!t)
        MPI_Abort(MPI_COMM_WORLD, 1);
    cal_run(jobs, n, t);
    for (int j = 0; j < n; j++)
        sink += q[j].y[0] + q[j].yf[0] + q[j].iy[0] + q[j].y[q[j].n - 1];
    return t;
}

/* Median over the rounds of kernel a's time less b's, each round's pair
 * timed together. */
static double diff(Kern a, Kern b)
{
    Kern q[2] = {a, b};
    double *t = run_kerns(q, 2), v[1000];
    for (int r = 0; r < cal.reps; r++)
        v[r] = t[2 * r] - t[2 * r + 1];
    free(t);
    return cal_median(v, cal.reps);
}

/* A measured difference below resolution is written as this floor: a
 * cost of zero would read as "not measured". */
static double floor_at(double v)
{
    double lo = 0.01 / cal_clock_hz;     /* a hundredth of a cycle */
    return v > lo ? v : lo;
}

static void op_param(const char *name, double s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void op_param(const char *name, double s, const char *fmt, ...)
{
    char how[240];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(how, sizeof how, fmt, ap);
    va_end(ap);
    cal_param(CAL_PROC, name, cal_cycles(floor_at(s)), "%s%s, %.3g ns", how,
              s < floor_at(s) ? " (below resolution: the floor)" : "", floor_at(s) * 1e9);
}

void calib_proc(void)
{
    if (cal.rank != 0) {
        cal_phase_end(1);
        return;
    }
    cal_progress("processing: operations, loops, conditions, calls, library");
    /* two arrays of n doubles take half of L1 */
    int n = (int)(cal_l1_size / 32);
    n = n < 256 ? 256 : n > 1024 ? 1024 : n;
    n -= n % 8;
    int cap = 2 * n + 64;       /* room for the step-2 loop */
    base.n = n;
    base.k = base.m = 1;
    base.x = malloc((size_t)cap * sizeof(double));
    base.y = calloc((size_t)cap, sizeof(double));
    base.xf = malloc((size_t)cap * sizeof(float));
    base.yf = calloc((size_t)cap, sizeof(float));
    base.ix = malloc((size_t)cap * sizeof(int));
    base.iy = calloc((size_t)cap, sizeof(int));
    double *u = malloc((size_t)cap * sizeof(double));
    if (!base.x || !base.y || !base.xf || !base.yf || !base.ix || !base.iy || !u)
        MPI_Abort(MPI_COMM_WORLD, 1);
    unsigned seed = 12345;
    for (int i = 0; i < cap; i++) {
        seed = seed * 1103515245u + 12345u;             /* an LCG: no rand() state */
        double r = (double)(seed >> 8) / 16777216.0;    /* [0, 1) */
        base.x[i] = 1.0 + r;
        base.xf[i] = (float)(1.0 + r);
        base.ix[i] = 1 + (int)(r * 1000);
        u[i] = 0.05 + 0.9 * r;
    }
    /* run-time constants: an add, a factor near 1, a threshold, a second
       argument, an exponent, a bound */
    double c[8] = {1e-3, 1.0000001, 3.0, 0.3, 1.7, 1e9, 0, 0};
    float cf[4] = {1e-3f, 1.0000001f, 0, 0};
    int ic[8] = {3, 5, 1 << 30, 7, 0, 0, 0, 0};
    base.c = c;
    base.cf = cf;
    base.ic = ic;
    Kern d0 = kern(KD, 0), f0 = kern(KF, 0), i0 = kern(KI, 0);

    /* arithmetic */
    double dadd = diff(kern(KD, 1), d0) / 8, dmul = diff(kern(KD, 2), d0) / 8;
    double ddiv = diff(kern(KD, 3), d0) / 8;
    double fadd = diff(kern(KF, 1), f0) / 8, fmul = diff(kern(KF, 2), f0) / 8;
    double fdiv = diff(kern(KF, 3), f0) / 8;
    double iadd = diff(kern(KI, 1), i0) / 16;                   /* shift, add */
    double logical = diff(kern(KI, 2), i0) / 8 - iadd;          /* xor, add */
    double imul = diff(kern(KI, 3), i0) / 8 - floor_at(logical);
    double idiv = diff(kern(KI, 4), i0) / 8;
    double cvt = diff(kern(KCVT, 0), i0) / 8 - floor_at(dmul);
    cal_comment(CAL_PROC, "arithmetic: the marginal cost of one operation in an array loop"
                          " (chains of 8 an element, calib_kernels.f90)");
    op_param("op.iadd", iadd, "measured: 8 x (shift, add) an element, a sixteenth each");
    op_param("op.imul", imul, "measured: 8 x (multiply, xor), less op.logical");
    op_param("op.idiv", idiv, "measured: 8 divides an element");
    op_param("op.fadd", fadd, "measured: 8 dependent REAL(4) adds an element");
    op_param("op.fmul", fmul, "measured: 8 REAL(4) multiplies");
    op_param("op.fdiv", fdiv, "measured: 8 REAL(4) divides");
    op_param("op.dadd", dadd, "measured: 8 dependent REAL(8) adds an element");
    op_param("op.dmul", dmul, "measured: 8 REAL(8) multiplies");
    op_param("op.ddiv", ddiv, "measured: 8 REAL(8) divides");
    op_param("op.itof", cvt / 2, "measured: 8 x (dble, multiply, int) less op.dmul, half of the pair");
    op_param("op.ftoi", cvt / 2, "measured: as op.itof, the other half");
    op_param("op.cmp", iadd, "as op.iadd: a compare is one ALU operation (its branch is cond.test)");
    op_param("op.logical", logical, "measured: 8 x (xor, add), less op.iadd");

    /* loads and stores that hit L1, as the operations: the marginal cost
       of one more in the copy loop (the bandwidth of a stream is
       calib_mem.c's cache.l1.bandwidth); they replace calib_mem.c's
       values, the time of an element of a stream */
    double fetch = diff(kern(KD, 5), d0) - floor_at(dadd), store = diff(kern(KD, 6), d0);
    cal_param(CAL_MEM, "mem.fetch.hit", cal_cycles(floor_at(fetch)), "measured: one more load"
              " in the copy loop, y(l) = x(l) + y(l) less op.dadd, %.3g ns", floor_at(fetch) * 1e9);
    cal_param(CAL_MEM, "mem.store.hit", cal_cycles(floor_at(store)), "measured: one more store"
              " in the copy loop, %.3g ns", floor_at(store) * 1e9);
    /* loops: the copy is an iteration, a load and a store */
    cal_comment(CAL_PROC, "loops, conditions, calls");
    double copy = diff(d0, kern(KNONE, 0));
    double iter = copy - floor_at(fetch) - floor_at(store);
    op_param("loop.iter", iter, "measured: the copy loop (%.3g ns an iteration) less"
             " mem.fetch.hit and mem.store.hit", copy * 1e9);
    {
        /* nested loops: 256 entries of an inner loop of nin iterations */
        Kern q[5];
        double xs[5], ys[5], v[1000];
        for (int i = 0; i < 5; i++) {
            q[i] = kern(KNEST, 1 << i);
            xs[i] = 1 << i;
        }
        double *t = run_kerns(q, 5);
        for (int i = 0; i < 5; i++) {
            for (int r = 0; r < cal.reps; r++)
                v[r] = t[5 * r + i];
            ys[i] = cal_median(v, cal.reps);
        }
        free(t);
        double a, b;
        cal_fit(xs, ys, 5, &a, &b);
        op_param("loop.setup", a - floor_at(iter), "measured: ck_nest, 256 inner loops of 1..16"
                 " iterations, the fit's time at 0 iterations less loop.iter");
    }
    {
        Kern q = d0;
        q.k = q.m = 2;
        q.n = 2 * n;            /* n iterations, every other element */
        op_param("loop.step", diff(q, d0), "measured: the copy loop with step 2 against step 1"
                 " (run-time steps in both, as in the generated code)");
    }
    {
        /* if (x(l) > c(3)) t = t * c(2), x in [1, 2): never taken, always
           taken; each kernel its own constants */
        double cn[8], ca[8];
        memcpy(cn, c, sizeof c);
        memcpy(ca, c, sizeof c);
        cn[2] = 3.0;
        ca[2] = 0.0;
        Kern q[3] = {d0, kern(KD, 4), kern(KD, 4)};
        q[1].c = cn;
        q[2].c = ca;
        double *t = run_kerns(q, 3), vt[1000], va[1000];
        for (int r = 0; r < cal.reps; r++) {
            double *x = t + 3 * r;
            vt[r] = x[1] - x[0];
            va[r] = x[2] - x[1];
        }
        free(t);
        op_param("cond.test", cal_median(vt, cal.reps) - floor_at(iadd), "measured: an IF never"
                 " taken in the copy loop, less op.cmp");
        op_param("cond.taken", cal_median(va, cal.reps) - floor_at(dmul), "measured: the IF always"
                 " taken against never, less the op.dmul it guards");
    }
    {
        Kern q[4] = {d0, kern(KCALL, 0), kern(KCALL, 4), kern(KCALL, 8)};
        double *t = run_kerns(q, 4), v0[1000], v4[1000], v8[1000];
        for (int r = 0; r < cal.reps; r++) {
            double *x = t + 4 * r;
            v0[r] = x[1] - x[0];
            v4[r] = x[2] - x[0];
            v8[r] = (x[3] - x[1]) / 8;
        }
        free(t);
        op_param("call.overhead", cal_median(v0, cal.reps), "measured: an external subroutine"
                 " of no arguments called in the copy loop (calib_callee.f90)");
        op_param("call.per_arg", cal_median(v8, cal.reps), "measured: 8 arguments by reference"
                 " against 0 (4 arguments: %.3g ns a call)", cal_median(v4, cal.reps) * 1e9);
    }

    /* library functions (Fortran intrinsics as gfortran calls or inlines
       them), one an element over arguments in 0.05..0.95 */
    cal_comment(CAL_PROC, "library functions: the generic intrinsics, REAL(8), one call an"
                          " element less the copy; arguments in 0.05..0.95");
    {
        memcpy(base.x, u, (size_t)cap * sizeof(double));
        Kern u0 = kern(KD, 0);
        static const struct { const char *name; int op; } fn[] = {
            {"lib.sqrt", 10}, {"lib.exp", 11}, {"lib.log", 12}, {"lib.log10", 13},
            {"lib.sin", 14}, {"lib.cos", 15}, {"lib.tan", 16}, {"lib.atan", 17},
            {"lib.atan2", 18}, {"lib.asin", 19}, {"lib.acos", 20}, {"lib.sinh", 21},
            {"lib.cosh", 22}, {"lib.tanh", 23}, {"lib.pow", 24},
        };
        for (size_t i = 0; i < sizeof fn / sizeof fn[0]; i++)
            op_param(fn[i].name, diff(kern(KD, fn[i].op), u0), "measured: y(l) = %s(x(l)%s)",
                     fn[i].op == 24 ? "" : fn[i].name + 4,
                     fn[i].op == 18 ? ", 0.3" : fn[i].op == 24 ? "**1.7" : "");
        static const struct { const char *name, *what; int op; } cheap[] = {
            {"lib.abs", "t = abs(t - c)", 30}, {"lib.max", "t = max(t, c) + d", 31},
            {"lib.min", "t = min(t, c) + d", 32}, {"lib.sign", "t = sign(t, c) - d", 33},
        };
        for (size_t i = 0; i < sizeof cheap / sizeof cheap[0]; i++)
            op_param(cheap[i].name, diff(kern(KD, cheap[i].op), u0) / 8 - floor_at(dadd),
                     "measured: 8 x (%s) an element, less op.dadd", cheap[i].what);
        op_param("lib.mod", diff(kern(KI, 6), i0), "measured: y(l) = mod(x(l), 7), INTEGER");
    }

    /* the run-time library's owner tests, called as the generated code
       calls them (analysis/aag.c charges them as lib.hpfrt_*) */
    {
        Kern q = kern(KRT, 0);
        ck_rt_setup(n * cal.np, &q.ha);
        static const struct { const char *name, *call; int op; } rt[] = {
            {"lib.hpfrt_mine", "hpfrt_mine(ha, 1, i)", 1},
            {"lib.hpfrt_g2l", "hpfrt_g2l(ha, 1, i)", 2},
            {"lib.hpfrt_present", "hpfrt_present(ha)", 3},
        };
        for (size_t i = 0; i < sizeof rt / sizeof rt[0]; i++) {
            q.op = rt[i].op;
            op_param(rt[i].name, diff(q, i0) - floor_at(iadd), "measured: y(l) = x(l) + %s,"
                     " (BLOCK) array, less the copy and op.iadd", rt[i].call);
        }
    }
    free(base.x);
    free(base.y);
    free(base.xf);
    free(base.yf);
    free(base.ix);
    free(base.iy);
    free(u);
    cal_phase_end(0);
}
