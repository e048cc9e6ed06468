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
 * costs more: the Fortran run time sets its I/O up at the first OPEN (the
 * first OPEN less a second one) and its formatted output at the first
 * WRITE (the first WRITE less a later one); a program's first PRINT pays
 * both. A first happens once in a process and cannot be repeated, so every
 * process times its own, one after the other while the others sleep, and
 * the least total is taken: on this project's machine one timing in a few
 * was five times the usual one, which a median of two would keep.
 * Collective: this comes before any other Fortran I/O of each process. */
static void calib_format(void)
{
    Fmt f, g;
    double next = 0, *v = malloc(2 * (size_t)cal.np * sizeof *v);
    double mine[2] = {0, 0};
    if (!v)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int r = 0; r < cal.np; r++) {
        cal_phase_end(r != cal.rank);
        if (r != cal.rank)
            continue;
        double t0 = cal_now();
        ck_fmt_open(&f.unit, 0);
        double t1 = cal_now();
        ck_fmt_open(&g.unit, 1);
        double t2 = cal_now();
        ck_fmt_write(f.unit, 1, 2.71828);
        double t3 = cal_now();
        next = cal_time(run_fmt, &f, 1);
        mine[0] = (t1 - t0) - (t2 - t1);
        mine[1] = (t3 - t2) - next;
    }
    MPI_Gather(mine, 2, MPI_DOUBLE, v, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (cal.rank == 0) {
        double *vs = malloc((size_t)cal.np * sizeof *vs), *vf = malloc((size_t)cal.np * sizeof *vf);
        if (!vs || !vf)
            MPI_Abort(MPI_COMM_WORLD, 1);
        for (int r = 0; r < cal.np; r++) {
            vs[r] = v[2 * r] > 0 ? v[2 * r] : 0;
            vf[r] = v[2 * r + 1] > 0 ? v[2 * r + 1] : 0;
        }
        int least = 0;
        for (int r = 1; r < cal.np; r++)
            if (vs[r] + vf[r] < vs[least] + vf[least])
                least = r;
        double setup = vs[least], first = vf[least];
        cal_param(CAL_IO, "io.format", cal_us(next > 0 ? next : 1e-9),
                  "measured: a formatted WRITE of a result line ('(a,es22.14)') to /dev/null");
        cal_param(CAL_IO, "io.format.first", cal_us(setup + first > 0 ? setup + first : 1e-9),
                  "measured: the first OPEN of a process less a second (%s), and its first "
                  "WRITE less a later one (%s), the least of the %d processes, each "
                  "timing its own", cal_us(setup), cal_us(first), cal.np);
        free(vs);
        free(vf);
    }
    free(v);
}

void calib_io(void)
{
    calib_format();
    if (cal.rank != 0) {
        cal_phase_end(1);
        return;
    }
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
              "measured: pread of the same sizes: a READ statement's");
    cal_param(CAL_IO, "io.read.per_byte", cal_us(pr > 0 ? pr : 1e-12),
              "measured: the slope, %.3g GB/s", pr > 0 ? 1e-9 / pr : 0);
    cal_phase_end(0);
}
