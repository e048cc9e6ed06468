/* hpfcalibrate.c - measures the machine it runs on and writes its System
 * Abstraction Graph (doc/sag.md), so that `hpfpredict -sag FILE` predicts
 * for this machine:
 *
 *     mpirun -np 2 hpfcalibrate [-o FILE.sag] [--quick] [--reps N]
 *
 * Rank 0 measures the processor (calib_proc.c) and the memory hierarchy
 * (calib_mem.c) while the others wait asleep, the file system (calib_io.c),
 * and with the others the communication (calib_comm.c); then it writes the
 * description. This file: the options, the parameters collected, timing
 * and statistics shared by the measurements, and the writer.
 * doc/runtime.md ("hpfcalibrate") documents every parameter and how it is
 * measured; doc/hpfcalibrate.1 the command. */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "calib.h"
#include "hpfrt.h"

#ifndef CALIB_FC
#define CALIB_FC "mpif90"
#endif
#ifndef CALIB_FCFLAGS
#define CALIB_FCFLAGS "-O2"
#endif

CalOpts cal;
double cal_clock_hz = 1e9;

static const char *prog = "hpfcalibrate";

/* A usage error: the message on rank 0, the usage line, status 1 on all
 * ranks (every rank parses the same arguments and sees the same error). */
static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    if (cal.rank == 0) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "%s: error: ", prog);
        vfprintf(stderr, fmt, ap);
        fprintf(stderr, "\nusage: mpirun -np 2 %s [-o FILE.sag] [--quick] [--reps N]"
                        " [--allow-busy] [-v] (--help for more)\n", prog);
        va_end(ap);
    }
    MPI_Finalize();
    return 1;
}

static void help(void)
{
    printf("usage: mpirun -np 2 %s [-o FILE.sag] [--quick] [--reps N] [--allow-busy] [-v]\n"
           "\n"
           "Measures this machine (operation, loop, call and library costs with\n"
           "kernels compiled by %s %s, in vectorized loops too, and\n"
           "reductions; caches, memory bandwidth and the first touch of a page; MPI\n"
           "point-to-point, barrier and collectives; file I/O; libhpfrt's timers,\n"
           "iteration sets and gathers) and writes its System Abstraction Graph for\n"
           "hpfpredict -sag FILE.\n"
           "\n"
           "  -o FILE      write the description to FILE (default: standard output)\n"
           "  --quick      a few seconds: fewer sizes, shorter batches, rougher values\n"
           "  --reps N     batches per value at least, of which the median is kept\n"
           "               (default 11; 5 with --quick); more while a median is\n"
           "               known to less than 1%% (3%% with --quick)\n"
           "  --allow-busy write the description even when the machine is too busy\n"
           "               to calibrate (values out of their physical bounds, marked)\n"
           "  --check FILE.sag  measure the key parameters again and say whether\n"
           "               FILE.sag still describes this machine (all within 25%%:\n"
           "               status 0; else 2)\n"
           "  --bound NAME=LO:HI  the physical bounds of a parameter, in cycles for\n"
           "               op.*, else in s, Hz or B/s (a value outside them is\n"
           "               measured again; see man hpfcalibrate)\n"
           "  -v           progress on standard error (the default on a terminal)\n"
           "  -q           no progress\n"
           "  --help       this text;  --version  the version\n"
           "\n"
           "Run it with 2 or more processes: rank 0 and rank 1 exchange the messages\n"
           "(on 1 process the description has no communication parameters).\n"
           "See man hpfcalibrate and doc/runtime.md.\n",
           prog, CALIB_FC, CALIB_FCFLAGS);
}

/* ---- the machine, for the header ----------------------------------------- */

/* The value of the first line of /proc/cpuinfo that starts with key. */
static int cpuinfo(const char *key, char *out, size_t len)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    char line[512];
    int found = 0;
    size_t k = strlen(key);
    while (!found && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, k) != 0)
            continue;
        char *p = strchr(line, ':');
        if (!p)
            continue;
        p += 1 + strspn(p + 1, " \t");
        p[strcspn(p, "\n")] = 0;
        snprintf(out, len, "%s", p);
        found = *out != 0;
    }
    fclose(f);
    return found;
}

/* A unit name of the format ([a-z_][a-z0-9_]*) from the host name. */
static void unit_name(const char *host, char *out, size_t len)
{
    size_t n = 0;
    if (!(host[0] >= 'a' && host[0] <= 'z') && !(host[0] >= 'A' && host[0] <= 'Z'))
        out[n++] = 'h';
    for (const char *p = host; *p && *p != '.' && n + 1 < len; p++) {
        char c = *p;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        out[n++] = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c : '_';
    }
    out[n] = 0;
    if (n == 0 || (n == 1 && out[0] == 'h'))
        snprintf(out, len, "machine");
}

/* The 1-minute load average, or 0. */
static double load_average(void)
{
    double l = 0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1)
            l = 0;
        fclose(f);
    }
    return l;
}

/* Above this load other work shares the processors the measurements run
 * on (the processes of the calibration themselves are not yet running
 * long enough to count). */
static double busy_load(void)
{
    return (double)cal.ncores - (cal.np < cal.ncores ? cal.np : cal.ncores) + 1.0;
}

/* ---- the writer --------------------------------------------------------- */

typedef struct {
    char date[64], host[256], unit[64], cpu[256], fc[256], mpi[256], where[300];
    double wall, load;
    int busy;                   /* written with --allow-busy on a busy machine */
    long batches, disturbed;    /* over all processes */
} Header;

static void write_sag(FILE *f, const Header *h, const char *fname)
{
    fprintf(f, "# %s - the System Abstraction Graph of %s, measured by hpfcalibrate %s\n",
            fname, h->host, PACKAGE_VERSION);
    fprintf(f, "# (format: doc/sag.md; how each value is measured: doc/runtime.md, \"hpfcalibrate\").\n");
    fprintf(f, "# date:      %s\n", h->date);
    fprintf(f, "# host:      %s, %d processors online\n", h->host, cal.ncores);
    fprintf(f, "# CPU:       %s\n", h->cpu);
    fprintf(f, "# kernels:   %s %s (%s), the compiler and flags of the SPMD programs;\n"
               "#            timed in loops of the generated code's shape, medians of %d batches\n"
               "#            of at least %.2g ms, the loop's own cost subtracted\n",
            CALIB_FC, CALIB_FCFLAGS, h->fc, cal.reps, cal.batch_s * 1e3);
    fprintf(f, "# MPI:       %s\n", h->mpi);
    fprintf(f, "# processes: %d (%s)\n", cal.np, h->where);
    fprintf(f, "# run:       %s, %.1f s; load average %.2f before it%s\n",
            cal.quick ? "--quick (rough values)" : "full", h->wall, h->load,
            h->load > busy_load() ? " (a busy machine: slow values)" : "");
    fprintf(f, "# processor: %ld of %ld timed batches had their processor less than 90%% of the\n"
               "#            time, even measured three times\n", h->disturbed, h->batches);
    fprintf(f, "# spread:    each measured value's comment ends with its spread, the relative\n"
               "#            half-width of the 95%% confidence interval of its median%s\n",
            h->busy ? ";\n# BUSY:      measured on a machine too busy to calibrate (--allow-busy): values\n"
                      "#            marked OUT OF ITS BOUNDS are not to be trusted" : "");
    fprintf(f, "# Processing costs are in cycles of cpu.clock (measured ns times the clock),\n"
               "# so that --set cpu.speed=K scales them; memory beyond the caches, messages\n"
               "# and I/O in absolute time.\n\n");
    fprintf(f, "unit %s {\n", h->unit);
    fprintf(f, "    processing compound {\n");
    fprintf(f, "        unit node [%d] {    # processors online (sysconf _SC_NPROCESSORS_ONLN): hpfpredict's default -np\n",
            cal.ncores);
    fprintf(f, "            processing simple {\n");
    cal_put_params(f, CAL_PROC, 16);
    fprintf(f, "            }\n");
    fprintf(f, "            memory simple {\n");
    cal_put_params(f, CAL_MEM, 16);
    fprintf(f, "            }\n");
    fprintf(f, "            comm void       # the node's messages are the machine's comm component\n");
    fprintf(f, "            io void         # file I/O is the machine's io component\n");
    fprintf(f, "        }\n");
    fprintf(f, "    }\n");
    fprintf(f, "    memory void                 # each node has its memory (the node's component)\n");
    if (cal_has_params(CAL_COMM)) {
        fprintf(f, "    comm simple {\n");
        cal_put_params(f, CAL_COMM, 8);
        fprintf(f, "    }\n");
    } else {
        fprintf(f, "    comm void                   # measured on 1 process: no communication (run with mpirun -np 2)\n");
    }
    if (cal_has_params(CAL_IO)) {
        fprintf(f, "    io simple {\n");
        cal_put_params(f, CAL_IO, 8);
        fprintf(f, "    }\n");
    } else {
        fprintf(f, "    io void\n");
    }
    fprintf(f, "}\n");
}

/* ---- main ---------------------------------------------------------------- */

/* Runs a phase of measurements; while a parameter it writes is out of its
 * physical bounds (calib.c), measures the phase again, three times in
 * all. Returns 0 when the third still is, having said which (on rank 0;
 * every rank returns the same). */
static int measure(void (*fn)(void), const char *what)
{
    for (int attempt = 1;; attempt++) {
        int mark = cal_mark();
        fn();
        int bad = cal.rank == 0 ? cal_violations() : 0;
        MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (!bad)
            return 1;
        /* (past the time budget, no third or second try: the machine is
           slow enough to be called busy already) */
        int last = attempt == 3 || (cal.rank == 0 && cal_over_budget());
        MPI_Bcast(&last, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (cal.rank == 0)
            for (int i = 0; i < bad && i < 8; i++)
                fprintf(stderr, "%s: %s: %s%s\n", prog, !last || cal.allow_busy ?
                        "warning" : "error", cal_violation(i), !last ?
                        ": measuring it again" : attempt == 3 ?
                        ", three times: the machine is too busy to calibrate" :
                        ", and the run has taken too long to measure it again: the machine "
                        "is too busy to calibrate");
        if (last) {
            if (cal.rank == 0)
                cal_mark_busy();
            return 0;
        }
        cal_progress("%s again (attempt %d of 3)", what, attempt + 1);
        cal_rewind(mark);
    }
}

/* The folder of PATH is writable, so that the result can be written there
 * at the end (checked first: no minutes of measuring for nothing). */
static int writable_dir(const char *path)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
    return access(dir, W_OK) == 0;
}

/* --bound NAME=LO:HI */
static int parse_bound(const char *s)
{
    char name[64], *end;
    const char *eq = strchr(s, '=');
    if (!eq || eq == s || (size_t)(eq - s) >= sizeof name)
        return 0;
    memcpy(name, s, (size_t)(eq - s));
    name[eq - s] = 0;
    errno = 0;
    double lo = strtod(eq + 1, &end);
    if (end == eq + 1 || *end != ':')
        return 0;
    const char *h = end + 1;
    double hi = strtod(h, &end);
    if (errno || end == h || *end || !isfinite(lo) || !isfinite(hi) || lo > hi)
        return 0;
    return cal_set_bound(name, lo, hi);
}

static int parse_reps(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 1 || v > CAL_MAX_ROUNDS)
        return 0;
    *out = (int)v;
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &cal.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &cal.np);
    cal_clock_start();
    calib_first_coll();

    const char *out = NULL, *check = NULL;
    int reps = 0, verbose = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            if (cal.rank == 0)
                help();
            MPI_Finalize();
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            if (cal.rank == 0)
                printf("hpfcalibrate (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
            MPI_Finalize();
            return 0;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (i + 1 >= argc)
                return usage_error("missing file name after '%s'", a);
            out = argv[++i];
        } else if (strncmp(a, "--output=", 9) == 0) {
            out = a + 9;
        } else if (strncmp(a, "-o", 2) == 0) {
            out = a + 2;
        } else if (strcmp(a, "--quick") == 0) {
            cal.quick = 1;
        } else if (strcmp(a, "--reps") == 0) {
            if (i + 1 >= argc)
                return usage_error("missing number after '--reps'");
            if (!parse_reps(argv[++i], &reps))
                return usage_error("'--reps' takes a whole number from 1 to %d, not '%s'", CAL_MAX_ROUNDS,
                                   argv[i]);
        } else if (strncmp(a, "--reps=", 7) == 0) {
            if (!parse_reps(a + 7, &reps))
                return usage_error("'--reps' takes a whole number from 1 to %d, not '%s'", CAL_MAX_ROUNDS,
                                   a + 7);
        } else if (strcmp(a, "--check") == 0 || strncmp(a, "--check=", 8) == 0) {
            check = a[7] == '=' ? a + 8 : i + 1 < argc ? argv[++i] : NULL;
            if (!check || !*check)
                return usage_error("missing file name after '--check'");
        } else if (strcmp(a, "--allow-busy") == 0) {
            cal.allow_busy = 1;
        } else if (strcmp(a, "--bound") == 0 || strncmp(a, "--bound=", 8) == 0) {
            const char *b = a[7] == '=' ? a + 8 : i + 1 < argc ? argv[++i] : NULL;
            if (!b)
                return usage_error("missing NAME=LO:HI after '--bound'");
            if (!parse_bound(b))
                return usage_error("'--bound %s': give NAME=LO:HI with LO <= HI, for one of %s",
                                   b, cal_bounded());
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            verbose = 1;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            verbose = 0;
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unrecognized option '%s'", a);
        } else {
            return usage_error("unexpected argument '%s'", a);
        }
    }
    if (out && !*out)
        return usage_error("empty file name after '-o'");
    if (out && check)
        return usage_error("--check measures and compares; it writes no description (-o)");
    cal.reps = reps ? reps : cal.quick ? 5 : 11;
    cal.batch_s = cal.quick ? 0.5e-3 : 8e-3;
    /* more rounds, up to 4 times as many (2 with --quick), while a median
       is known to less than 1% (3% with --quick), for 1 s (0.1 s) of a
       measurement at most; --quick runs no batch again */
    cal.max_rounds = (cal.quick ? 2 : 4) * cal.reps;
    if (cal.max_rounds > CAL_MAX_ROUNDS)
        cal.max_rounds = CAL_MAX_ROUNDS;
    if (cal.max_rounds < cal.reps)
        cal.max_rounds = cal.reps;
    cal.target = cal.quick ? 0.03 : 0.01;
    cal.max_s = cal.quick ? 0.1 : 1.0;
    /* a busy machine would make those rounds and the batches and phases
       measured again take many times the usual 10 s (35 s): beyond twice
       that, only what is needed */
    cal.budget_s = cal.quick ? 10 : 90;
    cal.progress = verbose >= 0 ? verbose : isatty(2);
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    cal.ncores = nc > 0 ? (int)nc : 1;

    /* a result that cannot be written, a description that cannot be
       checked: say so before measuring */
    int ok = 1;
    if (cal.rank == 0 && out && !writable_dir(out)) {
        fprintf(stderr, "%s: error: cannot write '%s': %s\n", prog, out,
                "its folder is missing or not writable");
        ok = 0;
    }
    if (cal.rank == 0 && check && !calib_check_file(check))
        ok = 0;
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok) {
        MPI_Finalize();
        return 1;
    }
    double load = cal.rank == 0 ? load_average() : 0;
    if (cal.rank == 0 && load > busy_load())
        fprintf(stderr, "%s: warning: the load average is %.2f on %d processors: other work"
                        " will slow the measurements\n", prog, load, cal.ncores);
    if (cal.np == 1 && cal.rank == 0)
        fprintf(stderr, "%s: warning: 1 process: no communication is measured and the "
                        "description has none (run it with mpirun -np 2)\n", prog);

    /* the owner tests call the run-time library; a profile asked of the
       SPMD programs (HPFRT_PROFILE) is not this program's to write */
    unsetenv("HPFRT_PROFILE");
    hpfrt_init_();
    calib_rt_start();

    Header h;
    memset(&h, 0, sizeof h);
    h.load = load;
    time_t now = time(NULL);
    strftime(h.date, sizeof h.date, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
    if (gethostname(h.host, sizeof h.host - 1) != 0 || !h.host[0])
        snprintf(h.host, sizeof h.host, "unknown");
    unit_name(h.host, h.unit, sizeof h.unit);
    if (!cpuinfo("model name", h.cpu, sizeof h.cpu) && !cpuinfo("cpu model", h.cpu, sizeof h.cpu)
        && !cpuinfo("Hardware", h.cpu, sizeof h.cpu) && !cpuinfo("CPU part", h.cpu, sizeof h.cpu))
        snprintf(h.cpu, sizeof h.cpu, "unknown (no model in /proc/cpuinfo)");
    ck_compiler(h.fc, (int)sizeof h.fc);
    {
        char v[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        MPI_Get_library_version(v, &len);
        v[strcspn(v, "\n,")] = 0;
        snprintf(h.mpi, sizeof h.mpi, "%s", v);
    }
    {
        char p0[MPI_MAX_PROCESSOR_NAME] = "", p1[MPI_MAX_PROCESSOR_NAME] = "";
        int len;
        MPI_Get_processor_name(p0, &len);
        if (cal.np > 1) {
            if (cal.rank == 1)
                MPI_Send(p0, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, 7, MPI_COMM_WORLD);
            if (cal.rank == 0)
                MPI_Recv(p1, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 1, 7, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        }
        if (cal.np == 1)
            snprintf(h.where, sizeof h.where, "on %s", p0);
        else if (strcmp(p0, p1) == 0)
            snprintf(h.where, sizeof h.where, "ranks 0 and 1 on %s: shared memory", p0);
        else
            snprintf(h.where, sizeof h.where, "rank 0 on %s, rank 1 on %s: the network", p0, p1);
    }

    cal_progress("%s calibration on %d process%s", cal.quick ? "quick" : "full", cal.np,
                 cal.np == 1 ? "" : "es");
    static const struct { void (*fn)(void); const char *what; int key; } phases[] = {
        {calib_clock, "the clock", 1}, {calib_mem, "the memory", 1},
        {calib_proc, "the processor", 1}, {calib_io, "the file system", 0},
        {calib_comm, "the communication", 1}, {calib_rt, "libhpfrt", 0},
    };
    int busy = 0;
    for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++)
        if (!check || phases[i].key)        /* --check: the key parameters' phases */
            busy |= !measure(phases[i].fn, phases[i].what);
    double load_after = cal.rank == 0 ? load_average() : 0;
    /* the batches a process timed without its processor throughout, on
       any process: other work shared the processors */
    long counts[2] = {cal.batches, cal.disturbed};
    MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (cal.rank == 0 && !busy && counts[0] > 0 && 10 * counts[1] > counts[0]) {
        fprintf(stderr, "%s: %s: the machine is too busy to calibrate: in %ld of %ld timed "
                "batches (%.0f%%) a process had its processor less than 90%% of the time, "
                "even measured three times (load average %.2f after the run, on %d "
                "processors)\n", prog, cal.allow_busy ? "warning" : "error", counts[1],
                counts[0], 100.0 * (double)counts[1] / (double)counts[0], load_after,
                cal.ncores);
        busy = 1;
    }
    /* a loaded machine whose medians mostly stayed wide: busy too */
    if (cal.rank == 0 && !busy && load > busy_load() && load_after > busy_load()
        && 2 * cal.unsettled > cal.measured) {
        fprintf(stderr, "%s: %s: the machine is too busy to calibrate: the medians of %d of "
                "%d measurements stayed wider than %.0f%% (load average %.2f before, %.2f "
                "after, on %d processors)\n", prog, cal.allow_busy ? "warning" : "error",
                cal.unsettled, cal.measured, 100 * cal.target, load, load_after, cal.ncores);
        busy = 1;
    }
    MPI_Bcast(&busy, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (busy && !cal.allow_busy) {
        if (cal.rank == 0)
            fprintf(stderr, "%s: nothing written: run it again when the machine is idle, or "
                    "with --allow-busy to write these values\n", prog);
        hpfrt_finalize_();
        return 1;
    }
    h.busy = busy;
    h.batches = counts[0];
    h.disturbed = counts[1];

    int status = 0;
    if (check) {
        if (cal.rank == 0)
            status = calib_check(check, 0.25);
        MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
        hpfrt_finalize_();
        return status;
    }
    if (cal.rank == 0) {
        h.wall = cal_elapsed();
        if (!out) {
            write_sag(stdout, &h, "machine.sag");
            if (fflush(stdout) != 0) {
                fprintf(stderr, "%s: error: writing the standard output: %s\n", prog, strerror(errno));
                status = 1;
            }
        } else {
            /* a temporary beside it, renamed: never half a description */
            char tmp[PATH_MAX];
            snprintf(tmp, sizeof tmp, "%s.tmp%ld", out, (long)getpid());
            FILE *f = fopen(tmp, "w");
            const char *base = strrchr(out, '/');
            if (f) {
                write_sag(f, &h, base ? base + 1 : out);
                if (ferror(f) | (fclose(f) != 0) || rename(tmp, out) != 0) {
                    fprintf(stderr, "%s: error: cannot write '%s': %s\n", prog, out, strerror(errno));
                    remove(tmp);
                    status = 1;
                }
            } else {
                fprintf(stderr, "%s: error: cannot write '%s' (through '%s'): %s\n", prog, out,
                        tmp, strerror(errno));
                status = 1;
            }
        }
        cal_progress("done in %.1f s%s%s", cal_elapsed(), out ? ": " : "", out ? out : "");
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    hpfrt_finalize_();
    return status;
}
