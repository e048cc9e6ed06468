/* calib_proc.c - the processor: its clock, and the cost of each operation
 * class, loop, condition, call and library function the engine charges
 * (interp/engine_sag.c en_read_params; the op.* names are analysis/aag.c
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

/* The multiplier of ck_clock's chain: 1, which its compiler cannot see. */
static volatile int clock_factor = 1;

/* The latency of ck_clock's step, a 64-bit integer multiply, in cycles. */
#define CLOCK_CHAIN_CYCLES 3.0

static void run_clock(void *arg, long iters)
{
    int *t = arg;
    for (long r = 0; r < iters; r++)
        ck_clock(4096, clock_factor, t);
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
            ck_clock(65536, clock_factor, &t);
        double measured = CLOCK_CHAIN_CYCLES / cal_time(run_clock, &t, 4096.0);
        const char *src = NULL;
        double sys = system_clock(&src);
        char v[48], note[200];
        /* the measured clock is the one the kernels ran at (a boost clock
           above the nominal one the system reports, in a virtual machine
           the host's nominal one); the system's only when the measurement
           is far off, a processor where the multiply is not three cycles */
        if (sys > 0 && (measured > 2 * sys || measured < sys / 2)) {
            cal_clock_hz = sys;
            snprintf(note, sizeof note, "%s; the measurement (%.0f MHz, ck_clock) is far off",
                     src, measured / 1e6);
        } else if (sys > 0) {
            cal_clock_hz = measured;
            snprintf(note, sizeof note, "measured: ck_clock, a dependent 64-bit multiply an"
                     " iteration (3 cycles); %s says %.0f MHz", src, sys / 1e6);
        } else {
            cal_clock_hz = measured;
            snprintf(note, sizeof note, "measured: ck_clock, a dependent 64-bit multiply an"
                     " iteration (3 cycles); the system gives no clock");
        }
        cal_clock_hz = round(cal_clock_hz / 1e6) * 1e6;   /* as written */
        snprintf(v, sizeof v, "%.0f MHz", cal_clock_hz / 1e6);
        cal_param(CAL_PROC, "cpu.clock", v, "%s", note);
    }
    cal_phase_end(cal.rank != 0);
    MPI_Bcast(&cal_clock_hz, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

/* ---- the kernels --------------------------------------------------------- */

enum { KD, KF, KI, KCVT, KNEST, KCALL, KRT, KVEC, KNONE };

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
        case KVEC: ck_vec(q->op, q->n / CK_VEC_NI, q->k, q->m, q->x, q->y, q->c); break;
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
    double *t = malloc((size_t)CAL_MAX_ROUNDS * (size_t)n * sizeof *t);
    if (!t)
        MPI_Abort(MPI_COMM_WORLD, 1);
    cal_run(jobs, n, t);
    for (int j = 0; j < n; j++)
        sink += q[j].y[0] + q[j].yf[0] + q[j].iy[0] + q[j].y[q[j].n - 1];
    return t;
}

/* Median over the rounds of kernel a's time less b's, each round's pair
 * timed together (its spread: cal_est). */
static double diff(Kern a, Kern b)
{
    Kern q[2] = {a, b};
    double *t = run_kerns(q, 2), v[CAL_MAX_ROUNDS];
    for (int r = 0; r < cal.rounds; r++)
        v[r] = t[2 * r] - t[2 * r + 1];
    free(t);
    return cal_est(v, cal.rounds);
}

/* The spread of a cost as cal_cost writes it (floored). */
static void spread(double s, double hw)
{
    cal_spread_of(cal_floor(s), hw);
}

/* the floor and the writer of a processing cost (calib.h) */
double cal_floor(double v)
{
    double lo = 0.01 / cal_clock_hz;     /* a hundredth of a cycle */
    return v > lo ? v : lo;
}

void cal_cost(const char *name, double s, const char *fmt, ...)
{
    char how[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(how, sizeof how, fmt, ap);
    va_end(ap);
    cal_param(CAL_PROC, name, cal_cycles(cal_floor(s)), "%s%s, %.3g ns", how,
              s < cal_floor(s) ? " (below resolution: the floor)" : "", cal_floor(s) * 1e9);
}

void calib_proc(void)
{
    double vec_add = 0;           /* vec.op.dadd, as measured */
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
    /* (h_*: the half-widths of their intervals, for their spreads) */
    double dadd = diff(kern(KD, 1), d0) / 8, h_dadd = cal_last_hw() / 8;
    double dmul = diff(kern(KD, 2), d0) / 8, h_dmul = cal_last_hw() / 8;
    double ddiv = diff(kern(KD, 3), d0) / 8, h_ddiv = cal_last_hw() / 8;
    double fadd = diff(kern(KF, 1), f0) / 8, h_fadd = cal_last_hw() / 8;
    double fmul = diff(kern(KF, 2), f0) / 8, h_fmul = cal_last_hw() / 8;
    double fdiv = diff(kern(KF, 3), f0) / 8, h_fdiv = cal_last_hw() / 8;
    double iadd = diff(kern(KI, 1), i0) / 16, h_iadd = cal_last_hw() / 16;   /* shift, add */
    double logical = diff(kern(KI, 2), i0) / 8 - iadd;          /* xor, add */
    double h_logical = cal_last_hw() / 8 + h_iadd;
    double imul = diff(kern(KI, 3), i0) / 8 - cal_floor(logical);
    double h_imul = cal_last_hw() / 8 + h_logical;
    double idiv = diff(kern(KI, 4), i0) / 8, h_idiv = cal_last_hw() / 8;
    double cvt = diff(kern(KCVT, 0), i0) / 8 - cal_floor(dmul);
    double h_cvt = cal_last_hw() / 8 + h_dmul;
    /* a conversion alone, as a FORALL's dble(i) gets it (the pair above is
       a dependent chain: the latencies show through); the other half of
       the pair is the conversion back */
    double itof = diff(kern(KD, 8), d0) - cal_floor(dadd), h_itof = cal_last_hw() + h_dadd;
    double ftoi = cvt - cal_floor(itof), h_ftoi = h_cvt + h_itof;
    /* the divider works apart: one divide beside a chain of 8 adds costs
       less than the two apart; the share of the shorter one hidden */
    double both = diff(kern(KD, 7), d0), sep = ddiv + 9 * dadd;
    double overlap = fmin(1, fmax(0, (sep - both) / fmin(ddiv, 9 * dadd)));
    cal_comment(CAL_PROC, "arithmetic: the marginal cost of one operation in an array loop"
                          " (chains of 8 an element, calib_kernels.f90)");
    spread(iadd, h_iadd);
    cal_cost("op.iadd", iadd, "measured: 8 x (shift, add) an element, a sixteenth each");
    spread(imul, h_imul);
    cal_cost("op.imul", imul, "measured: 8 x (multiply, xor), less op.logical");
    spread(idiv, h_idiv);
    cal_cost("op.idiv", idiv, "measured: 8 divides an element");
    spread(fadd, h_fadd);
    cal_cost("op.fadd", fadd, "measured: 8 dependent REAL(4) adds an element");
    spread(fmul, h_fmul);
    cal_cost("op.fmul", fmul, "measured: 8 REAL(4) multiplies");
    spread(fdiv, h_fdiv);
    cal_cost("op.fdiv", fdiv, "measured: 8 REAL(4) divides");
    spread(dadd, h_dadd);
    cal_cost("op.dadd", dadd, "measured: 8 dependent REAL(8) adds an element");
    spread(dmul, h_dmul);
    cal_cost("op.dmul", dmul, "measured: 8 REAL(8) multiplies");
    spread(ddiv, h_ddiv);
    cal_cost("op.ddiv", ddiv, "measured: 8 REAL(8) divides");
    spread(itof, h_itof);
    cal_cost("op.itof", itof, "measured: y(l) = x(l) + dble(i) against the copy, less op.dadd");
    spread(ftoi, h_ftoi);
    cal_cost("op.ftoi", ftoi, "measured: 8 x (dble, multiply, int) an element less op.dmul and"
                              " op.itof");
    spread(iadd, h_iadd);
    cal_cost("op.cmp", iadd, "as op.iadd: a compare is one ALU operation (its branch is cond.test)");
    spread(logical, h_logical);
    cal_cost("op.logical", logical, "measured: 8 x (xor, add), less op.iadd");
    cal_param(CAL_PROC, "op.div.overlap", cal_count(overlap),
              "measured: y(l) = c / x(l) + (x(l) + 8 x c) took %.3g ns, the divide and the"
              " 9 adds apart %.3g ns: this share of the shorter runs beside the divides",
              both * 1e9, sep * 1e9);

    /* loads and stores that hit L1, as the operations: the marginal cost
       of one more in the copy loop (the bandwidth of a stream is
       calib_mem.c's cache.l1.bandwidth); they replace calib_mem.c's
       values, the time of an element of a stream */
    double fetch = diff(kern(KD, 5), d0) - cal_floor(dadd), h_fetch = cal_last_hw() + h_dadd;
    double store = diff(kern(KD, 6), d0), h_store = cal_last_hw();
    spread(fetch, h_fetch);
    cal_param(CAL_MEM, "mem.fetch.hit", cal_cycles(cal_floor(fetch)), "measured: one more load"
              " in the copy loop, y(l) = x(l) + y(l) less op.dadd, %.3g ns", cal_floor(fetch) * 1e9);
    spread(store, h_store);
    cal_param(CAL_MEM, "mem.store.hit", cal_cycles(cal_floor(store)), "measured: one more store"
              " in the copy loop, %.3g ns", cal_floor(store) * 1e9);
    /* loops: the copy is an iteration, a load and a store */
    cal_comment(CAL_PROC, "loops, conditions, calls");
    double copy = diff(d0, kern(KNONE, 0));
    double iter = copy - cal_floor(fetch) - cal_floor(store);
    spread(iter, cal_last_hw() + h_fetch + h_store);
    cal_cost("loop.iter", iter, "measured: the copy loop (%.3g ns an iteration) less"
             " mem.fetch.hit and mem.store.hit", copy * 1e9);
    {
        /* nested loops: 256 entries of an inner loop of nin iterations */
        Kern q[5];
        double xs[5], ys[5], v[CAL_MAX_ROUNDS];
        for (int i = 0; i < 5; i++) {
            q[i] = kern(KNEST, 1 << i);
            xs[i] = 1 << i;
        }
        double *t = run_kerns(q, 5);
        for (int i = 0; i < 5; i++) {
            for (int r = 0; r < cal.rounds; r++)
                v[r] = t[5 * r + i];
            ys[i] = cal_est(v, cal.rounds);
        }
        free(t);
        double a, b;
        cal_fit(xs, ys, 5, &a, &b);
        cal_cost("loop.setup", a - cal_floor(iter), "measured: ck_nest, 256 inner loops of 1..16"
                 " iterations, the fit's time at 0 iterations less loop.iter");
    }
    {
        Kern q = d0;
        q.k = q.m = 2;
        q.n = 2 * n;            /* n iterations, every other element */
        cal_cost("loop.step", diff(q, d0), "measured: the copy loop with step 2 against step 1"
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
        double *t = run_kerns(q, 3), vt[CAL_MAX_ROUNDS], va[CAL_MAX_ROUNDS];
        for (int r = 0; r < cal.rounds; r++) {
            double *x = t + 3 * r;
            vt[r] = x[1] - x[0];
            va[r] = x[2] - x[1];
        }
        free(t);
        double test = cal_est(vt, cal.rounds) - cal_floor(iadd);
        spread(test, cal_last_hw() + h_iadd);
        cal_cost("cond.test", test, "measured: an IF never taken in the copy loop, less op.cmp");
        double taken = cal_est(va, cal.rounds) - cal_floor(dmul);
        spread(taken, cal_last_hw() + h_dmul);
        cal_cost("cond.taken", taken, "measured: the IF always taken against never, less the"
                 " op.dmul it guards");
    }
    {
        Kern q[5] = {d0, kern(KCALL, 0), kern(KCALL, 4), kern(KCALL, 8), kern(KCALL, 1)};
        double *t = run_kerns(q, 5), v0[CAL_MAX_ROUNDS], v4[CAL_MAX_ROUNDS], v8[CAL_MAX_ROUNDS];
        double va[CAL_MAX_ROUNDS];
        for (int r = 0; r < cal.rounds; r++) {
            double *x = t + 5 * r;
            v0[r] = x[1] - x[0];
            v4[r] = x[2] - x[0];
            v8[r] = (x[3] - x[1]) / 8;
            va[r] = x[4] - x[1];
        }
        free(t);
        double call4 = cal_median(v4, cal.rounds);
        cal_cost("call.overhead", cal_est(v0, cal.rounds), "measured: an external subroutine"
                 " of no arguments called in the copy loop (calib_callee.f90)");
        double per_arg = cal_est(v8, cal.rounds);
        cal_cost("call.per_arg", per_arg, "measured: 8 arguments by reference"
                 " against 0 (4 arguments: %.3g ns a call)", call4 * 1e9);
        /* an array allocated and freed, as hpfc's temporaries are: the call
           with it against the call without, less its argument */
        double alloc = cal_est(va, cal.rounds) - cal_floor(per_arg);
        spread(alloc, cal_last_hw());
        cal_param(CAL_MEM, "mem.alloc", cal_ns(cal_floor(alloc)), "measured: ALLOCATE and"
                  " DEALLOCATE of 128 REAL(8) around a call that is passed the array, against"
                  " the call alone, less call.per_arg");
    }

    /* vectorized loops: hpfc's loop over a dimension that is not
       distributed has constant bounds and unit step, and GCC vectorizes it
       (or makes a copy of it a memcpy), which the run-time steps above
       keep it from doing: its elements cost a fraction of loop.iter and
       op.*, and are measured apart */
    cal_progress("processing: vectorized loops of constant bounds");
    {
        /* the base is a vector loop (a load, an add, a store), not the
           copy, which GCC makes a memcpy; the chains and the extra load
           and store against it; vec.iter is the base less its add, load
           and store, as loop.iter is the copy less its load and store */
        int nv = n - n % CK_VEC_NI;     /* whole columns, as many elements as above */
        enum { NJ = 7 };
        Kern q[NJ] = {kern(KVEC, 6), kern(KVEC, 1), kern(KVEC, 2), kern(KVEC, 3),
                      kern(KVEC, 4), kern(KVEC, 5), kern(KVEC, 0)};
        for (int j = 0; j < NJ; j++)
            q[j].n = nv;
        double *t = run_kerns(q, NJ), v[7][CAL_MAX_ROUNDS];
        for (int r = 0; r < cal.rounds; r++) {
            double *x = t + NJ * r, add = (x[1] - x[0]) / 7;
            v[0][r] = add;
            v[1][r] = (x[2] - x[0] + add) / 8;         /* 8 multiplies against 1 add */
            v[2][r] = (x[3] - x[0] + add) / 8;
            v[3][r] = x[4] - x[0];                     /* one more load */
            v[4][r] = x[5] - x[0];                     /* one more store */
            v[5][r] = x[6];                            /* the copy (a memcpy) */
            v[6][r] = x[0];
        }
        free(t);
        int nr = cal.rounds;
        double vadd = cal_est(v[0], nr), h_vadd = cal_last_hw();
        vec_add = vadd;
        double vmul = cal_est(v[1], nr), h_vmul = cal_last_hw();
        double vdiv = cal_est(v[2], nr), h_vdiv = cal_last_hw();
        double vld = cal_est(v[3], nr), h_vld = cal_last_hw();
        double vst = cal_est(v[4], nr), h_vst = cal_last_hw();
        double vcp = cal_median(v[5], nr);
        double base_t = cal_est(v[6], nr), h_base = cal_last_hw();
        double viter = base_t - cal_floor(vadd) - cal_floor(vld) - cal_floor(vst);
        cal_comment(CAL_PROC, "vectorized loops: i = 0..%d, constant bounds, unit step, inside"
                    " the loop of a distributed dimension (ck_vec, %d columns)", CK_VEC_NI - 1,
                    nv / CK_VEC_NI);
        spread(viter, h_base + h_vadd + h_vld + h_vst);
        cal_cost("vec.iter", viter, "measured: y(1+i, j) = x(1+i, j) + c, i = 0..%d constant bounds (vectorized),"
                 " an element (%.3g ns), less vec.op.dadd, vec.fetch and vec.store: the loop's"
                 " own work (a copy, which GCC makes a memcpy: %.3g ns)", CK_VEC_NI - 1,
                 base_t * 1e9, vcp * 1e9);
        spread(vadd, h_vadd);
        cal_cost("vec.op.dadd", vadd, "measured: 8 dependent REAL(8) adds an element in that"
                 " loop against 1, a seventh of the difference");
        spread(vmul, h_vmul);
        cal_cost("vec.op.dmul", vmul, "measured: 8 REAL(8) multiplies against the add");
        spread(vdiv, h_vdiv);
        cal_cost("vec.op.ddiv", vdiv, "measured: 8 REAL(8) divides against the add");
        spread(vld, h_vld);
        cal_cost("vec.fetch", vld, "measured: one more load in that loop, y = x + y");
        spread(vst, h_vst);
        cal_cost("vec.store", vst, "measured: one more store in that loop");
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
        double scalar[sizeof fn / sizeof fn[0]];
        for (size_t i = 0; i < sizeof fn / sizeof fn[0]; i++) {
            scalar[i] = diff(kern(KD, fn[i].op), u0);
            cal_cost(fn[i].name, scalar[i], "measured: y(l) = %s(x(l)%s)",
                     fn[i].op == 24 ? "" : fn[i].name + 4,
                     fn[i].op == 18 ? ", 0.3" : fn[i].op == 24 ? "**1.7" : "");
        }
        /* the same in a vectorized loop (ck_vec): where the node compiler
           calls vector variants of them (GCC with glibc's libmvec, which
           gfortran's math-vector-fortran.h declares), an element costs a
           fraction of a call (glibc 2.36's pow and atan2 about 0.7, its
           exp 0.4). Written only where the loop is faster than the calls
           (below 0.9 of them; asin and acos are not): without
           vec.lib.NAME the engine takes a loop calling NAME as not
           vectorized (interp/engine_int.h, vectorized()) */
        cal_comment(CAL_PROC, "library functions in a vectorized loop (ck_vec): an element, less"
                              " the base loop's add; absent where the loop was not faster than"
                              " the calls (not vectorized)");
        int nv = n - n % CK_VEC_NI;
        for (size_t i = 0; i < sizeof fn / sizeof fn[0]; i++) {
            Kern a = kern(KVEC, fn[i].op), b = kern(KVEC, 6);
            a.n = b.n = nv;
            double v = diff(a, b) + cal_floor(vec_add);
            char name[64];
            snprintf(name, sizeof name, "vec.%s", fn[i].name);
            if (v > 0 && v < 0.9 * scalar[i])
                cal_cost(name, v, "measured: y(1+i, j) = %s(x(1+i, j)%s) in ck_vec's loop,"
                         " against its base, plus vec.op.dadd", fn[i].op == 24 ? "" : fn[i].name + 4,
                         fn[i].op == 18 ? ", 0.3" : fn[i].op == 24 ? "**1.7" : "");
            else
                cal_comment(CAL_PROC, "%s: not vectorized here (%.3g ns an element in the"
                            " loop, the call %.3g ns)", name, v * 1e9, scalar[i] * 1e9);
        }
        /* the slower classes of arguments (analysis/aag_ops.c): sin and cos
           of |x| >= 2.43 reduce it modulo pi/2 first; exp of x below
           -708.4 returns a subnormal number */
        static const struct { const char *name; int op; double a, b; } cls[] = {
            {"lib.sin.reduced", 14, 2.5, 1000}, {"lib.cos.reduced", 15, 2.5, 1000},
            {"lib.exp.subnormal", 11, -745, -709},
        };
        for (size_t i = 0; i < sizeof cls / sizeof cls[0]; i++) {
            for (int l = 0; l < cap; l++)
                base.x[l] = cls[i].a + (cls[i].b - cls[i].a) * (u[l] - 0.05) / 0.9;
            cal_cost(cls[i].name, diff(kern(KD, cls[i].op), u0), "measured: y(l) = %.3s(x(l)),"
                     " arguments in %g..%g", cls[i].name + 4, cls[i].a, cls[i].b);
        }
        memcpy(base.x, u, (size_t)cap * sizeof(double));
        static const struct { const char *name, *what; int op; } cheap[] = {
            {"lib.abs", "t = abs(t - c)", 30}, {"lib.max", "t = max(t, c) + d", 31},
            {"lib.min", "t = min(t, c) + d", 32}, {"lib.sign", "t = sign(t, c) - d", 33},
        };
        for (size_t i = 0; i < sizeof cheap / sizeof cheap[0]; i++) {
            double c8 = diff(kern(KD, cheap[i].op), u0) / 8 - cal_floor(dadd);
            spread(c8, cal_last_hw() / 8 + h_dadd);
            cal_cost(cheap[i].name, c8, "measured: 8 x (%s) an element, less op.dadd",
                     cheap[i].what);
        }
        cal_cost("lib.mod", diff(kern(KI, 6), i0), "measured: y(l) = mod(x(l), 7), INTEGER");
    }

    /* reductions: an element of a sum or a maximum into one accumulator
       waits for the one before (the latency of the add, not its
       throughput), whatever else its iteration does */
    cal_comment(CAL_PROC, "reductions into one accumulator: an element's time, the loop and"
                          " the load included (the latency of the combining operation)");
    {
        Kern q[2] = {kern(KD, 40), kern(KD, 41)};
        double *t = run_kerns(q, 2), vs[CAL_MAX_ROUNDS], vm[CAL_MAX_ROUNDS];
        for (int r = 0; r < cal.rounds; r++) {
            vs[r] = t[2 * r];
            vm[r] = t[2 * r + 1];
        }
        free(t);
        /* a product, over elements near 1 (no overflow, no subnormal), in
           one chain of n and in rows of 128 */
        for (int l = 0; l < cap; l++)
            base.x[l] = 1 + (u[l] - 0.5) * 1e-3;
        Kern qp[2] = {kern(KD, 42), kern(KD, 43)};
        double vp[CAL_MAX_ROUNDS], vr[CAL_MAX_ROUNDS];
        t = run_kerns(qp, 2);
        for (int r = 0; r < cal.rounds; r++) {
            vp[r] = t[2 * r];
            vr[r] = t[2 * r + 1];
        }
        free(t);
        memcpy(base.x, u, (size_t)cap * sizeof(double));
        /* the out-of-order window: a row of L elements takes (L - W) x the
           latency, the first W elements of the next row's chain running
           while it ends (a long chain: L = n). From the rows of 128 and of
           n, W = (tn - t128) / (1/128 - 1/n) / lat, lat = tn + lat W / n */
        double tn = cal_est(vp, cal.rounds), t128 = cal_est(vr, cal.rounds);
        double latw = n > 128 && tn > t128 ? (tn - t128) / (1.0 / 128 - 1.0 / n) : 0;
        double lat = tn + latw / n, w = latw > 0 ? fmin(latw / lat, 128) : 0;
        double keep = 1 - w / n;        /* a chain of n kept this share of its latency */
        cal_param(CAL_PROC, "red.window", cal_count(w), "measured: t = t * x(l) in rows of 128 (%.3g ns"
                  " an element) against one chain of %d (%.3g ns): the iterations of the next"
                  " row that run while a row's chain ends", t128 * 1e9, n, tn * 1e9);
        cal_cost("red.sum", cal_est(vs, cal.rounds) / keep, "measured: t = t + x(l), REAL(8), an"
                 " element, in a chain of %d, over %.3g (the window)", n, keep);
        cal_cost("red.max", cal_est(vm, cal.rounds) / keep, "measured: t = max(t, x(l)), REAL(8),"
                 " an element, the same");
        cal_cost("red.prod", lat, "measured: t = t * x(l), REAL(8), an element, x(l) near 1,"
                 " the same");
    }

    /* the run-time library's owner tests, called as the generated code
       calls them (analysis/aag.c charges them as lib.hpfrt_*) */
    {
        Kern q = kern(KRT, 0);
        ck_rt_setup(n * cal.np, 0, &q.ha);
        static const struct { const char *name, *call; int op; } rt[] = {
            {"lib.hpfrt_mine", "hpfrt_mine(ha, 1, i)", 1},
            {"lib.hpfrt_g2l", "hpfrt_g2l(ha, 1, i)", 2},
            {"lib.hpfrt_present", "hpfrt_present(ha)", 3},
        };
        for (size_t i = 0; i < sizeof rt / sizeof rt[0]; i++) {
            q.op = rt[i].op;
            double c = diff(q, i0) - cal_floor(iadd);
            spread(c, cal_last_hw() + h_iadd);
            cal_cost(rt[i].name, c, "measured: y(l) = x(l) + %s,"
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
