/* calib_io.c - file I/O: write and read of a temporary file kept open, as
 * a Fortran unit is, for sizes of 1 KiB to a few MiB; the fit of time
 * against bytes gives io.startup (a system call) and io.per_byte. The file
 * lives in $TMPDIR (or /tmp) and is removed at once; the data go through
 * the page cache, as a program's writes do until the system flushes them
 * (no fsync: doc/runtime.md). Rank 0 measures; the others sleep. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib.h"

typedef struct {
    int fd, write;
    size_t bytes;
    char *buf;
    int failed;
} Io;

static void run_io(void *arg, long iters)
{
    Io *io = arg;
    for (long r = 0; r < iters && !io->failed; r++) {
        ssize_t n = io->write ? pwrite(io->fd, io->buf, io->bytes, 0)
                              : pread(io->fd, io->buf, io->bytes, 0);
        if (n != (ssize_t)io->bytes)
            io->failed = 1;
    }
}

typedef struct {
    int unit;
} Fmt;

static void run_fmt(void *arg, long iters)
{
    const Fmt *f = arg;
    ck_fmt_write(f->unit, (int)iters, 3.14159);
}

/* A formatted WRITE of a result line, and what the first of a process
 * costs more: the Fortran run time sets its I/O up at the first OPEN or
 * WRITE (the first OPEN less a second one), and a unit's first WRITE sets
 * up its buffer (the first WRITE of a unit less a later one). A program's
 * first PRINT pays both on its preconnected unit. Each first is timed once;
 * this comes before any other Fortran I/O of the process. */
static void calib_format(void)
{
    Fmt f, g;
    double t0 = cal_now();
    ck_fmt_open(&f.unit, 0);
    double t1 = cal_now();
    ck_fmt_open(&g.unit, 1);
    double t2 = cal_now();
    ck_fmt_write(f.unit, 1, 2.71828);
    double t3 = cal_now();
    double next = cal_time(run_fmt, &f, 1);
    double setup = (t1 - t0) - (t2 - t1), first = (t3 - t2) - next;
    double extra = (setup > 0 ? setup : 0) + (first > 0 ? first : 0);
    cal_param(CAL_IO, "io.format", cal_us(next > 0 ? next : 1e-9),
              "measured: a formatted WRITE of a result line ('(a,es22.14)') to /dev/null");
    cal_param(CAL_IO, "io.format.first", cal_us(extra > 0 ? extra : 1e-9),
              "measured once: the first OPEN of the process less a second (%s), and a "
              "unit's first WRITE less a later one (%s)", cal_us(setup > 0 ? setup : 0),
              cal_us(first > 0 ? first : 0));
}

void calib_io(void)
{
    if (cal.rank != 0) {
        cal_phase_end(1);
        return;
    }
    calib_format();
    cal_progress("I/O: write and read of a temporary file");
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    char path[4096];
    snprintf(path, sizeof path, "%s/hpfcalibrate.XXXXXX", dir);
    int fd = mkstemp(path);
    size_t max = cal.quick ? (size_t)1 << 20 : (size_t)4 << 20;
    char *buf = malloc(max);
    if (fd < 0 || !buf) {
        fprintf(stderr, "hpfcalibrate: warning: no temporary file in %s (%s): io left out\n", dir,
                strerror(errno));
        if (fd >= 0)
            close(fd);
        free(buf);
        cal_phase_end(0);
        return;
    }
    unlink(path);               /* gone when closed, whatever happens */
    memset(buf, 'x', max);
    double b[16], tw[16], tr[16];
    int n = 0, failed = 0;
    for (size_t s = 1024; s <= max && n < 16; s *= 4) {
        Io io = {fd, 1, s, buf, 0};
        b[n] = (double)s;
        tw[n] = cal_time(run_io, &io, 1);
        io.write = 0;
        tr[n] = cal_time(run_io, &io, 1);
        failed |= io.failed;
        n++;
    }
    close(fd);
    free(buf);
    if (failed) {
        fprintf(stderr, "hpfcalibrate: warning: the temporary file in %s failed: io left out\n", dir);
        cal_phase_end(0);
        return;
    }
    double a, p, ar, pr;
    cal_fit(b, tw, n, &a, &p);
    cal_fit(b, tr, n, &ar, &pr);
    cal_param(CAL_IO, "io.startup", cal_us(a > 0 ? a : 1e-9),
              "measured: pwrite of 1 KiB..%s to a file kept open, the fit's time at 0 B",
              cal_size(b[n - 1]));
    cal_param(CAL_IO, "io.per_byte", cal_us(p > 0 ? p : 1e-12),
              "measured: the fit's slope, %.3g GB/s (the page cache, not the disk)",
              p > 0 ? 1e-9 / p : 0);
    cal_param(CAL_IO, "io.read.startup", cal_us(ar > 0 ? ar : 1e-9),
              "measured: pread of the same sizes; not read by the engine");
    cal_param(CAL_IO, "io.read.per_byte", cal_us(pr > 0 ? pr : 1e-12),
              "measured: the slope, %.3g GB/s", pr > 0 ? 1e-9 / pr : 0);
    cal_phase_end(0);
}
