/* calib_mem.c - the memory hierarchy: the caches as the system describes
 * them, load and store costs (a hit in L1; a miss served by each further
 * level, the access strided by the cache line), and read and write
 * bandwidth with working sets sized for each level, alone and with every
 * process streaming from memory at once.
 *
 * The kernels are ck_read (eight partial sums) and ck_write (a constant)
 * of calib_kernels.f90: scalar loops of the generated code's shape,
 * compiled as the SPMD programs are, so that a bandwidth is what such a
 * loop gets from the level, not the hardware's peak (vector loads). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/mman.h>

#include "calib.h"

long cal_l1_size = 32768;

/* ---- what the system says ------------------------------------------------ */

typedef struct {
    int level;
    char type[16];              /* Data, Instruction, Unified */
    long size, line, ways, shared;
    char src[24];               /* where it came from */
} Cache;

#define SYSCACHE "/sys/devices/system/cpu/cpu0/cache"

static int read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int ok = fgets(buf, (int)len, f) != NULL;
    fclose(f);
    if (ok)
        buf[strcspn(buf, "\n")] = 0;
    return ok && *buf;
}

/* "32K", "1024K", "32M": bytes */
static long parse_size(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end == 'K')
        v *= 1024;
    else if (*end == 'M')
        v *= 1048576;
    else if (*end == 'G')
        v *= 1073741824L;
    return v;
}

/* CPUs in a list like "0-3,8-11". */
static long count_cpus(const char *s)
{
    long n = 0;
    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s)
            break;
        s = end;
        if (*s == '-') {
            b = strtol(s + 1, &end, 10);
            s = end;
        }
        n += b - a + 1;
        if (*s == ',')
            s++;
    }
    return n;
}

/* The caches of cpu0 from sysfs; sysconf where sysfs has none. */
static int caches(Cache *c, int max)
{
    int n = 0;
    for (int i = 0; i < 16 && n < max; i++) {
        char path[128], buf[256];
        snprintf(path, sizeof path, SYSCACHE "/index%d/level", i);
        if (!read_line(path, buf, sizeof buf))
            break;
        Cache *k = &c[n];
        memset(k, 0, sizeof *k);
        k->level = atoi(buf);
        snprintf(path, sizeof path, SYSCACHE "/index%d/type", i);
        if (read_line(path, buf, sizeof buf))
            snprintf(k->type, sizeof k->type, "%.15s", buf);
        snprintf(path, sizeof path, SYSCACHE "/index%d/size", i);
        if (read_line(path, buf, sizeof buf))
            k->size = parse_size(buf);
        snprintf(path, sizeof path, SYSCACHE "/index%d/coherency_line_size", i);
        if (read_line(path, buf, sizeof buf))
            k->line = atol(buf);
        snprintf(path, sizeof path, SYSCACHE "/index%d/ways_of_associativity", i);
        if (read_line(path, buf, sizeof buf))
            k->ways = atol(buf);
        snprintf(path, sizeof path, SYSCACHE "/index%d/shared_cpu_list", i);
        if (read_line(path, buf, sizeof buf))
            k->shared = count_cpus(buf);
        snprintf(k->src, sizeof k->src, "sysfs");
        if (k->size > 0)
            n++;
    }
    if (n > 0)
        return n;
#ifdef _SC_LEVEL1_DCACHE_SIZE
    static const struct { int level; const char *type; int size, line, assoc; } sc[] = {
        {1, "Data", _SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL1_DCACHE_LINESIZE, _SC_LEVEL1_DCACHE_ASSOC},
        {1, "Instruction", _SC_LEVEL1_ICACHE_SIZE, _SC_LEVEL1_ICACHE_LINESIZE, _SC_LEVEL1_ICACHE_ASSOC},
        {2, "Unified", _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL2_CACHE_LINESIZE, _SC_LEVEL2_CACHE_ASSOC},
        {3, "Unified", _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL3_CACHE_LINESIZE, _SC_LEVEL3_CACHE_ASSOC},
        {4, "Unified", _SC_LEVEL4_CACHE_SIZE, _SC_LEVEL4_CACHE_LINESIZE, _SC_LEVEL4_CACHE_ASSOC},
    };
    for (size_t i = 0; i < sizeof sc / sizeof sc[0] && n < max; i++) {
        long size = sysconf(sc[i].size);
        if (size <= 0)
            continue;
        Cache *k = &c[n++];
        memset(k, 0, sizeof *k);
        k->level = sc[i].level;
        snprintf(k->type, sizeof k->type, "%s", sc[i].type);
        k->size = size;
        k->line = sysconf(sc[i].line);
        k->ways = sysconf(sc[i].assoc);
        snprintf(k->src, sizeof k->src, "sysconf");
    }
#endif
    return n;
}

/* ---- kernels ----------------------------------------------------------- */

typedef struct {
    double *a;
    int n, m;                   /* accesses, stride in elements */
    int write;
    double sink;
} Stream;

/* Every m-th element: the scalar kernels of the generated loop's shape
 * (ck_read, ck_write); every element (m = 1): the vectorized ones (ck_readv,
 * ck_writev), the bandwidth a level gives. */
static void run_stream(void *arg, long iters)
{
    Stream *s = arg;
    for (long r = 0; r < iters; r++) {
        double v;
        if (s->write && s->m == 1)
            ck_writev(s->n / 64, s->a, (double)r);
        else if (s->write)
            ck_write(s->n, s->m, s->a, (double)r);
        else if (s->m == 1)
            ck_readv(s->n / 64, s->a, &v);
        else
            ck_read(s->n, s->m, s->a, &v);
        if (!s->write)
            s->sink += v;
    }
}

static double *alloc_doubles(size_t n)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, n * sizeof(double)) != 0) {
        fprintf(stderr, "hpfcalibrate: error: cannot allocate %zu MiB\n",
                n * sizeof(double) >> 20);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double *a = p;
    for (size_t i = 0; i < n; i++)          /* first touch: the pages are mapped */
        a[i] = 1.0 + (double)(i % 7) * 0.125;
    return a;
}

/* Time per access of reading (or writing) every m-th element of the first
 * bytes of a. */
static double per_access(double *a, long bytes, int m, int write)
{
    Stream s = {a, (int)(bytes / 8 / m), m, write, 0};
    s.n -= s.n % (m == 1 ? 64 : 8);
    double t = cal_time(run_stream, &s, s.n);
    volatile double sink = s.sink;
    (void)sink;
    return t;
}

/* Time of the first store to a page of fresh anonymous memory (the page
 * fault, the zeroing, the mapping), per page: the medians over cal.reps
 * mappings of FT_BYTES of a pass that stores one double a page, less a
 * second pass over the same pages; all processes at once (MPI_MAX). */
#define FT_BYTES (16L << 20)
static double first_touch(long page)
{
    long n = FT_BYTES / page;
    double *v = malloc((size_t)cal.reps * sizeof *v);
    for (int r = 0; r < cal.reps; r++) {
        char *m = mmap(NULL, (size_t)FT_BYTES, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) {
            fprintf(stderr, "hpfcalibrate: error: cannot map %s\n", cal_size(FT_BYTES));
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        /* as malloc's large blocks: no huge pages unless the system forces them */
        madvise(m, (size_t)FT_BYTES, MADV_NOHUGEPAGE);
        volatile double *a;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = cal_now();
        for (long i = 0; i < n; i++) {
            a = (volatile double *)(m + i * page);
            *a = 1.0;
        }
        double t1 = cal_now();
        for (long i = 0; i < n; i++) {
            a = (volatile double *)(m + i * page);
            *a = 2.0;
        }
        double t = (t1 - t0) - (cal_now() - t1), tmax = 0;
        MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        v[r] = tmax / (double)n;
        munmap(m, (size_t)FT_BYTES);
    }
    double t = cal_est(v, cal.reps);
    free(v);
    return t > 0 ? t : 0;
}

/* ---- the measurements ---------------------------------------------------- */

void calib_mem(void)
{
    Cache c[8];
    int nc = cal.rank == 0 ? caches(c, 8) : 0;
    long page = sysconf(_SC_PAGESIZE);
    long pages = sysconf(_SC_PHYS_PAGES);
    double phys = page > 0 && pages > 0 ? (double)page * (double)pages : 0;

    /* the levels that hold data, by level; the instruction cache apart */
    const Cache *dl[5] = {0}, *ic = NULL;
    for (int i = 0; i < nc; i++) {
        if (strcmp(c[i].type, "Instruction") == 0) {
            if (c[i].level == 1)
                ic = &c[i];
        } else if (c[i].level >= 1 && c[i].level <= 4 && !dl[c[i].level]) {
            dl[c[i].level] = &c[i];
        }
    }
    int top = 0;                /* the last level */
    for (int l = 1; l <= 4; l++)
        if (dl[l])
            top = l;
    long line = dl[1] && dl[1]->line > 0 ? dl[1]->line : 64;
    if (dl[1])
        cal_l1_size = dl[1]->size;

    /* the DRAM working set: four times the last level, at least 64 MiB, at
       most an eighth of the memory (every rank has one for the node test) */
    double llc = top ? (double)dl[top]->size : 8388608.0;
    double dram = 4 * llc < 67108864.0 ? 67108864.0 : 4 * llc;
    if (phys > 0 && dram > phys / 8 / cal.np)
        dram = phys / 8 / cal.np;
    long dram_bytes = (long)dram & ~4095L;
    MPI_Bcast(&dram_bytes, 1, MPI_LONG, 0, MPI_COMM_WORLD);

    if (cal.rank == 0) {
        cal_progress("memory: caches, load and store costs, bandwidth per level");
        long sc_l1 = -1;
#ifdef _SC_LEVEL1_DCACHE_SIZE
        sc_l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE);
#endif
        if (dl[1]) {
            const Cache *k = dl[1];
            cal_param(CAL_MEM, "dcache.size", cal_size((double)k->size),
                      "%s: L1 data cache of a core%s", k->src,
                      sc_l1 > 0 && sc_l1 != k->size ? " (sysconf differs)"
                      : sc_l1 > 0 && strcmp(k->src, "sysfs") == 0 ? "; sysconf agrees" : "");
            if (k->line > 0)
                cal_param(CAL_MEM, "dcache.block", cal_size((double)k->line), "%s: line size", k->src);
            if (k->ways > 0)
                cal_param(CAL_MEM, "dcache.assoc", cal_count((double)k->ways), "%s: ways", k->src);
        } else {
            cal_comment(CAL_MEM, "no cache sizes from sysfs or sysconf: dcache.* left out");
        }
        cal_param(CAL_MEM, "dcache.replacement", "lru",
                  "estimate: pseudo-LRU on current cores; the system does not say");
        cal_param(CAL_MEM, "dcache.write", "write_back",
                  "estimate: current data caches are write-back; the system does not say");
        if (ic) {
            cal_param(CAL_MEM, "icache.size", cal_size((double)ic->size), "%s: L1 instruction cache", ic->src);
            if (ic->line > 0)
                cal_param(CAL_MEM, "icache.block", cal_size((double)ic->line), "%s", ic->src);
            if (ic->ways > 0)
                cal_param(CAL_MEM, "icache.assoc", cal_count((double)ic->ways), "%s", ic->src);
        }
        if (phys > 0)
            cal_param(CAL_MEM, "mem.size", cal_size(phys), "sysconf: physical memory");
        if (page > 0) {
            cal_param(CAL_MEM, "mem.page", cal_size((double)page), "sysconf: page size");
            cal_param(CAL_MEM, "mem.prefetch.stride", cal_size((double)page),
                      "estimate: the hardware prefetchers of current processors follow a "
                      "constant stride within a page; the system does not say");
        }

        /* the working set of each level: half of it, at least twice the
           level above (so that the level above cannot hold it); of a level
           several processors share, at most 8 times the level above: what
           one process can count on of it. (A virtual machine sees the
           host's whole last level, 480 MiB here, shared with other guests:
           over half of it, the time of a load served from it changed by
           27% from one calibration to the next, each stable within 1%.) */
        long ws[5] = {0};
        for (int l = 1; l <= top; l++) {
            if (!dl[l])
                continue;
            long w = dl[l]->size / 2, above = 0;
            for (int u = l - 1; u >= 1 && !above; u--)
                if (dl[u])
                    above = dl[u]->size;
            if (dl[l]->shared > 1 && above > 0 && w > 8 * above)
                w = 8 * above;
            if (w < 2 * above)
                w = 2 * above;
            if (w > dl[l]->size * 3 / 4)
                w = dl[l]->size * 3 / 4;
            ws[l] = w & ~(long)(8 * line - 1);
        }
        if (!dl[1])
            ws[1] = 16384;
        double *a = alloc_doubles((size_t)dram_bytes / 8);
        int m = (int)(line / 8);                 /* doubles a line */

        /* hits: one element each of a stream that L1 holds (calib_proc.c
           replaces them by the marginal cost of a load and a store in a
           loop, as it measures the operations) */
        double rd1 = per_access(a, ws[1], 1, 0), wr1 = per_access(a, ws[1], 1, 1);
        cal_param(CAL_MEM, "mem.fetch.hit", cal_cycles(rd1),
                  "measured: load of a %s stream in L1 (ck_read, 8 partial sums), %.3g ns",
                  cal_size((double)ws[1]), rd1 * 1e9);
        cal_param(CAL_MEM, "mem.store.hit", cal_cycles(wr1),
                  "measured: store of a %s stream in L1 (ck_write), %.3g ns",
                  cal_size((double)ws[1]), wr1 * 1e9);
        /* misses: every access a new line of a set far beyond the caches */
        double rdm = per_access(a, dram_bytes, m, 0), wrm = per_access(a, dram_bytes, m, 1);
        cal_param(CAL_MEM, "mem.fetch.miss", cal_ns(rdm),
                  "measured: load strided by the %ld B line over %s (4 x the last cache),"
                  " prefetchers on, as in a loop", line, cal_size((double)dram_bytes));
        cal_param(CAL_MEM, "mem.store.miss", cal_ns(wrm),
                  "measured: store strided by the line over %s (line fill and write-back)",
                  cal_size((double)dram_bytes));

        /* the hierarchy, level by level (names: doc/runtime.md) */
        cal_comment(CAL_MEM, "the hierarchy (not in the paper's SAG; doc/runtime.md): per level"
                             " its size, line, ways, CPUs sharing it, the");
        cal_comment(CAL_MEM, "time of a load it serves (strided by the line) and the read and"
                             " write bandwidth of one process with a set sized for it");
        for (int l = 1; l <= top; l++) {
            if (!dl[l])
                continue;
            const Cache *k = dl[l];
            char name[48];
            cal_progress("memory: L%d (%s)", l, cal_size((double)k->size));
            snprintf(name, sizeof name, "cache.l%d.size", l);
            cal_param(CAL_MEM, name, cal_size((double)k->size), "%s: %s", k->src, k->type);
            if (k->line > 0) {
                snprintf(name, sizeof name, "cache.l%d.block", l);
                cal_param(CAL_MEM, name, cal_size((double)k->line), "%s", k->src);
            }
            if (k->ways > 0) {
                snprintf(name, sizeof name, "cache.l%d.assoc", l);
                cal_param(CAL_MEM, name, cal_count((double)k->ways), "%s", k->src);
            }
            if (k->shared > 0) {
                snprintf(name, sizeof name, "cache.l%d.shared", l);
                cal_param(CAL_MEM, name, cal_count((double)k->shared),
                          "%s: processors sharing one", k->src);
            }
            if (l > 1) {
                double t = per_access(a, ws[l], m, 0);
                snprintf(name, sizeof name, "cache.l%d.fetch", l);
                cal_param(CAL_MEM, name, cal_cycles(t),
                          "measured: load strided by the line over %s, %.3g ns",
                          cal_size((double)ws[l]), t * 1e9);
                double st = per_access(a, ws[l], m, 1);
                snprintf(name, sizeof name, "cache.l%d.store", l);
                cal_param(CAL_MEM, name, cal_cycles(st),
                          "measured: store strided by the line over %s (the line filled and"
                          " written back), %.3g ns", cal_size((double)ws[l]), st * 1e9);
            }
            double r = l == 1 ? rd1 : per_access(a, ws[l], 1, 0);
            double w = l == 1 ? wr1 : per_access(a, ws[l], 1, 1);
            snprintf(name, sizeof name, "cache.l%d.bandwidth", l);
            cal_param(CAL_MEM, name, cal_rate(8 / r), "measured: ck_readv (vectorized) over %s",
                      cal_size((double)ws[l]));
            snprintf(name, sizeof name, "cache.l%d.bandwidth.write", l);
            cal_param(CAL_MEM, name, cal_rate(8 / w), "measured: ck_writev (vectorized) over %s",
                      cal_size((double)ws[l]));
        }
        cal_progress("memory: main memory (%s)", cal_size((double)dram_bytes));
        double r = per_access(a, dram_bytes, 1, 0), w = per_access(a, dram_bytes, 1, 1);
        cal_param(CAL_MEM, "mem.bandwidth", cal_rate(8 / r),
                  "measured: ck_readv over %s, one process", cal_size((double)dram_bytes));
        cal_param(CAL_MEM, "mem.bandwidth.write", cal_rate(8 / w),
                  "measured: ck_writev over %s, one process", cal_size((double)dram_bytes));
        free(a);
    }
    cal_phase_end(cal.rank != 0);

    /* every process streaming from memory at once: what a node gives an
       SPMD program whose processes all sweep their arrays */
    if (cal.np > 1) {
        cal_progress("memory: %d processes reading at once", cal.np);
        double *a = alloc_doubles((size_t)dram_bytes / 8);
        Stream s = {a, (int)(dram_bytes / 8), 1, 0, 0};
        s.n -= s.n % 64;
        run_stream(&s, 1);
        double *v = malloc((size_t)cal.reps * sizeof *v);
        for (int r = 0; r < cal.reps; r++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = cal_now();
            run_stream(&s, 1);
            double t = cal_now() - t0, tmax = 0;
            MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            v[r] = (double)cal.np * (double)s.n * 8 / tmax;
        }
        double bw = cal_est(v, cal.reps);
        if (cal.rank == 0)
            cal_param(CAL_MEM, "mem.bandwidth.node", cal_rate(bw),
                      "measured: %d processes each reading %s at once, their sum",
                      cal.np, cal_size((double)dram_bytes));
        free(v);
        free(a);
        cal_phase_end(0);
    }

    /* the first write to each page of an array (the kernel maps and zeroes
       it): what a program pays the first time it stores into an array it
       allocated, on every process at once as in an SPMD program */
    if (page > 0) {
        cal_progress("memory: first touch of %s pages", cal_size((double)page));
        double t = first_touch(page);
        cal_spread_of(t, cal_last_hw());
        if (cal.rank == 0)
            cal_param(CAL_MEM, "mem.page.first", cal_us(t),
                      "measured: the first store to each page of a fresh %s mapping, less a "
                      "second pass, all %d processes at once, a page", cal_size(FT_BYTES), cal.np);
        cal_phase_end(0);
    }
}
