/* collalg.c - the collectives' times for the check of their identification
 * (testsuite/smpi.test): MPI_Bcast, MPI_Allreduce (of doubles) and
 * MPI_Alltoall at sizes like those hpfcalibrate times, each after a barrier and
 * less a barrier's time, the slowest process's; then the one-way times of
 * 8 B and 1 KiB from a ping-pong of ranks 0 and 1. Rank 0 prints
 * "COLL P M SECONDS" and "oneway P M SECONDS" lines for collpick. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double timed(int what, void *a, void *b, int m, MPI_Comm c)
{
    int reps = 4;
    MPI_Barrier(c);
    double t0 = MPI_Wtime();
    for (int r = 0; r < reps; r++) {
        if (what == 0)
            MPI_Bcast(a, m, MPI_BYTE, 0, c);
        else if (what == 1)
            MPI_Allreduce(MPI_IN_PLACE, a, m / 8, MPI_DOUBLE, MPI_SUM, c);
        else
            MPI_Alltoall(a, m, MPI_BYTE, b, m, MPI_BYTE, c);
        MPI_Barrier(c);
    }
    double t = (MPI_Wtime() - t0) / reps;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, c);
    return t;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    size_t big = 1 << 20;
    char *a = calloc(big * (size_t)np, 1), *b = calloc(big * (size_t)np, 1);
    double bar = 0;
    /* a barrier alone, subtracted */
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int r = 0; r < 4; r++)
        MPI_Barrier(MPI_COMM_WORLD);
    bar = (MPI_Wtime() - t0) / 4;
    static const int ms[] = {8, 1024, 16384, 131072};
    for (int w = 0; w < 3; w++)
        for (int i = 0; i < 4; i++) {
            int m = w == 2 ? (i == 0 ? 4 : ms[i] / np) : ms[i];
            double t = timed(w, a, b, m, MPI_COMM_WORLD) - bar;
            if (me == 0)
                printf("%s %d %d %.9g\n", w == 0 ? "bcast" : w == 1 ? "allreduce" : "alltoall", np, m, t);
        }
    /* the point-to-point message: one-way times of 8 B and 1 KiB from a
       ping-pong of ranks 0 and 1 */
    for (int k = 0; k < 2; k++) {
        int m = k ? 1024 : 8;
        MPI_Barrier(MPI_COMM_WORLD);
        double s = MPI_Wtime();
        for (int r = 0; r < 4 && me < 2; r++)
            if (me == 0) {
                MPI_Send(a, m, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(a, m, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(a, m, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(a, m, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        if (me == 0)
            printf("oneway %d %d %.9g\n", np, m, (MPI_Wtime() - s) / 8);
    }
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
