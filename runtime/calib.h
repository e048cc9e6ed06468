/* calib.h - what the files of hpfcalibrate share: the options, the
 * parameters measured so far, timing and statistics, and the Fortran
 * kernels of calib_kernels.f90. doc/runtime.md ("hpfcalibrate") says how
 * each parameter is measured. */
#ifndef CALIB_H
#define CALIB_H

#include <stddef.h>
#include <stdio.h>

#include <mpi.h>

/* ---- options and the run ---------------------------------------------- */

/* Rounds of one measurement at most (the arrays of per-round times). */
#define CAL_MAX_ROUNDS 99

typedef struct {
    int quick;                  /* --quick: fewer sizes, shorter batches */
    int reps;                   /* repetitions (batches) per value, the least; medians */
    int max_rounds;             /* cal_run: rounds at most (<= CAL_MAX_ROUNDS) */
    int rounds;                 /* the rounds of the last cal_run */
    double target;              /* cal_run: a median's relative 95% half-width to reach */
    double max_s;               /* cal_run: seconds of one measurement, beyond the least */
    int measured, unsettled;    /* cal_run's measurements, those whose medians stayed wide */
    long batches, disturbed;    /* timed batches, those without their processor throughout */
    int allow_busy;             /* --allow-busy: write the description of a busy machine */
    double budget_s;            /* past this time of the run, no more rounds, batches run
                                   again or phases measured again than needed */
    double batch_s;             /* the least time of one batch */
    int progress;               /* progress lines on stderr */
    int rank, np;               /* MPI_COMM_WORLD */
    int ncores;                 /* processors online (the node count) */
} CalOpts;

extern CalOpts cal;

/* One line of progress on stderr (rank 0, when progress is on). */
void cal_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- the parameters of the .sag file ---------------------------------- */

/* The component a parameter goes to: the node unit's processing and
 * memory, the machine's comm and io (doc/runtime.md shows the layout). */
typedef enum { CAL_PROC, CAL_MEM, CAL_COMM, CAL_IO, CAL_NCOMP } CalComp;

/* A parameter NAME = VALUE (with its unit) and the comment that says how
 * it was measured. A later definition of a name replaces the earlier. */
void cal_param(CalComp c, const char *name, const char *value, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Physical bounds (calib.c): a parameter written outside the bounds of
 * its kind (a REAL(8) add below 0.25 cycles, a gather start-up over 1 ms)
 * counts as a violation. cal_mark starts counting (and returns the place
 * in the table), cal_rewind drops what was written after the mark, to
 * measure a phase again; cal_mark_busy notes in the comment of every
 * parameter out of its bounds that it stayed so. */
/* A parameter's value as written (NULL: not measured), and a written value
 * in seconds, hertz or bytes a second (cycles through clock_hz; 0: not a
 * number with a unit of these). */
const char *cal_value(const char *name);
int cal_si(const char *value, double clock_hz, double *v);
int cal_set_bound(const char *name, double lo, double hi);   /* --bound; 0: no such */
const char *cal_bounded(void);         /* the parameters with bounds, and their units */
int cal_mark(void);
int cal_violations(void);
const char *cal_violation(int i);      /* the first 8, as text */
void cal_rewind(int mark);
void cal_mark_busy(void);
/* A comment line of its own before the next parameter of the component. */
void cal_comment(CalComp c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Formatted values: a time in cycles of cal_clock_hz (from seconds), in
 * ns or us, a size in bytes (KiB/MiB when exact), a rate in bytes/s. */
const char *cal_cycles(double s);
const char *cal_ns(double s);
const char *cal_us(double s);
const char *cal_size(double bytes);
const char *cal_rate(double bytes_per_s);
const char *cal_count(double v);

/* From calib_proc.c: a measured difference below resolution is written as
 * its floor, a hundredth of a cycle (a cost of zero would read as "not
 * measured"); cal_cost writes a processing cost so floored, in cycles,
 * the comment FMT followed by the floor's note and the time in ns. */
double cal_floor(double s);
void cal_cost(const char *name, double s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

extern double cal_clock_hz;     /* cpu.clock, set by calib_clock */
/* From calib_mem.c for calib_proc.c: the L1 data cache size (bytes). */
extern long cal_l1_size;

/* ---- timing and statistics -------------------------------------------- */

double cal_now(void);           /* seconds, monotonic */
double cal_cpu_now(void);       /* the thread's processor time, seconds (-1: none) */
/* Whether a batch that took w seconds, of which the thread ran cpu, had
 * its processor (90% of it); counts cal.batches and cal.disturbed. A
 * batch without it is run again; `last` says the last try counts anyway. */
int cal_batch_had_cpu(double w, double cpu, int last);
double cal_median(double *v, int n);     /* sorts v */
/* The median of n measurements (sorts v); the relative half-width of its
 * 95% confidence interval becomes the spread of the next parameter
 * written (the largest, when several medians make one parameter), which
 * its comment then gives. cal_spread sets that spread directly. */
double cal_est(double *v, int n);
void cal_spread(double rel);
/* The absolute half-width of the last cal_est's interval, and the spread
 * of a value derived from it (value, its half-width): for parameters
 * measured together and written after. */
double cal_last_hw(void);
void cal_spread_of(double value, double hw);

/* Times fn(arg, iters) for iters repetitions of the work: raises iters
 * until a batch lasts cal.batch_s, then runs batches as cal_run does;
 * returns the median time of one repetition divided by units (elements a
 * pass), through cal_est. */
double cal_time(void (*fn)(void *arg, long iters), void *arg, double units);

/* Several kernels timed in turn, batch after batch, so that a slow spell
 * of the machine (a clock change, another process) falls on all of them
 * alike and differences of the same round cancel it: t[r * njobs + j] is
 * job j's time a unit in round r (t has room for CAL_MAX_ROUNDS rounds).
 * It runs cal.reps rounds, then more until every job's median is known
 * within cal.target, for cal.max_s at most; returns the rounds run (also
 * in cal.rounds). */
typedef struct {
    void (*fn)(void *arg, long iters);
    void *arg;
    double units;
    long iters;                 /* set by cal_run */
} CalJob;
int cal_run(CalJob *jobs, int njobs, double *t);
/* cal_run's rule: after `rounds` rounds of t that took `elapsed` seconds,
 * whether to run another (for runs of their own, such as the collective
 * ones, which decide from times every rank has). */
int cal_more_rounds(const double *t, int njobs, int rounds, double elapsed);

/* Least squares fit of y = a + b x, weighted by 1/y^2 (relative errors:
 * the points span decades); returns the weighted residual sum. */
double cal_fit(const double *x, const double *y, int n, double *a, double *b);

/* Every rank calls this at the end of a phase; the ranks that had no work
 * (idle) wait in nanosleep, not in a spinning MPI_Barrier, so that they
 * leave the processor to the ranks that measure. */
void cal_phase_end(int idle);

/* calib.c: the clock of the progress messages started; the parameters of
 * component c as SAG lines (indented), and whether it has any. */
void cal_clock_start(void);
double cal_elapsed(void);       /* seconds since cal_clock_start */
int cal_over_budget(void);      /* cal_elapsed() past cal.budget_s */
void cal_put_params(FILE *f, CalComp c, int indent);
int cal_has_params(CalComp c);

/* ---- the measurements ------------------------------------------------- */

void calib_clock(void);         /* calib_proc.c: cpu.clock, first */
void calib_mem(void);           /* calib_mem.c: caches, memory (all ranks) */
void calib_proc(void);          /* calib_proc.c: rank 0, processing */
void calib_comm(void);          /* calib_comm.c: all ranks */
/* calib_comm.c: the first collectives of the process, timed right after
   MPI_Init (all ranks, before any other communication); calib_comm()
   writes them */
void calib_first_coll(void);
void calib_io(void);            /* calib_io.c: rank 0 */
/* calib_rt.c: the first layout of the process, right after hpfrt_init
   (all ranks); calib_rt() writes it */
void calib_rt_start(void);
void calib_rt(void);            /* calib_rt.c: libhpfrt's costs (all ranks) */
/* calib_check.c, rank 0, after the measurements: compares the key
   parameters with those of the description in path; prints the table and
   the verdict on stdout. 0: all within tolerance (relative); 2: some
   moved; 1: path unreadable or not a description (said on stderr). */
int calib_check(const char *path, double tolerance);
int calib_check_file(const char *path);   /* before measuring: readable, a clock */

/* ---- calib_kernels.f90 ------------------------------------------------ */

void ck_dop(int op, int n, int k, int m, const double *x, double *y, const double *c);
void ck_fop(int op, int n, int k, int m, const float *x, float *y, const float *c);
void ck_iop(int op, int n, int k, int m, const int *x, int *y, const int *ic);
void ck_fmt_open(int *u, int which);
void ck_fmt_write(int u, int reps, double x);
void ck_cvt(int n, int k, int m, const int *x, int *y, const double *c);
void ck_nest(int nout, int nin, int k, int m, const double *x, double *y);
#define CK_VEC_NI 64            /* ck_vec's column: the inner loop's constant trip count */
void ck_vec(int op, int ncol, int k, int m, const double *x, double *y, const double *c);
void ck_call(int op, int n, int k, int m, const double *x, double *y);
void ck_rt(int op, int n, int k, int m, const int *ha, const int *x, int *y);
void ck_rt_setup2(int nglob, int ncol, int ghost, int *ha);
/* the (BLOCK) array of nglob elements of ck_rt_setup2, one dimension */
static inline void ck_rt_setup(int nglob, int ghost, int *ha)
{
    ck_rt_setup2(nglob, 0, ghost, ha);
}
void ck_forall(int op, int reps, const int *ha, int nglob, const double *x, double *y);
void ck_read(int n, int m, const double *x, double *s);
void ck_write(int n, int m, double *y, double c);
void ck_readv(int ncol, const double *x, double *s);
void ck_writev(int ncol, double *y, double c);
void ck_clock(int n, int k, int *t);   /* k: 1, from a volatile */
void ck_compiler(char *buf, int len);

#endif
