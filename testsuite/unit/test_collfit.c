/* test_collfit.c - the collectives' algorithms told from their times
 * (runtime/collfit.c): the models by hand, then libraries made up from the
 * models (an algorithm up to a size, another above, times off by up to 3%
 * either way) that collfit_choose must recognize. Prints TAP. */
#include <config.h>

#include <math.h>

#include "collfit.h"
#include "tap.h"

static int near(double got, double want)
{
    return fabs(got - want) <= 1e-9 * fabs(want) + 1e-15;
}

/* alpha 10 us, beta 1 ns a byte, gamma 0.5 ns a byte */
static const CfNet net = {10e-6, 1e-9, 0.5e-9};

static void test_models(void)
{
    /* a binomial tree on 8: 3 messages of 8 B, 3 x 10.008 us */
    check(near(collfit_time(CF_BCAST, CF_TREE, &net, 8, 8), 30.024e-6), "broadcast tree, 8 B on 8");
    /* 1 MB on 8: the tree 3 x 1010 us; scatter-allgather (3 + 7) x 10 us
       + 2 x 1 ms x 7/8 = 1850 us; linear 7 x 1010 us */
    check(near(collfit_time(CF_BCAST, CF_TREE, &net, 8, 1e6), 3030e-6), "broadcast tree, 1 MB on 8");
    check(near(collfit_time(CF_BCAST, CF_SCATTER_ALLGATHER, &net, 8, 1e6), 1850e-6),
          "scatter-allgather, 1 MB on 8");
    check(near(collfit_time(CF_BCAST, CF_LINEAR, &net, 8, 1e6), 7070e-6), "linear broadcast, 1 MB on 8");
    /* recursive doubling on 8: 3 x (1010 + 500) us; on 6: 2 steps, the
       fold (a step) and the unfold (a message): 3 x 1510 + 1010 */
    check(near(collfit_time(CF_REDUCE, CF_RDOUBLING, &net, 8, 1e6), 4530e-6),
          "recursive doubling, 1 MB on 8");
    check(near(collfit_time(CF_REDUCE, CF_RDOUBLING, &net, 6, 1e6), 5540e-6),
          "recursive doubling, 1 MB on 6: the fold and the unfold");
    /* the ring on 8: 14 x 10 us + (2 + 0.5) x 1 ms x 7/8 = 2327.5 us */
    check(near(collfit_time(CF_REDUCE, CF_RING, &net, 8, 1e6), 2327.5e-6), "ring allreduce, 1 MB on 8");
    /* to rank 0 and back on 4: 2 x 1510 + 2 x 1010 */
    check(near(collfit_time(CF_REDUCE, CF_TREE, &net, 4, 1e6), 5040e-6), "tree reduction, 1 MB on 4");
    /* Bruck on 4, 4 B each: 2 rounds of 2 blocks (8 B): 2 x 10.008 us;
       linear: 3 x 10.004 us */
    check(near(collfit_time(CF_ALLTOALL, CF_BRUCK, &net, 4, 4), 20.016e-6), "Bruck all-to-all on 4");
    check(near(collfit_time(CF_ALLTOALL, CF_LINEAR, &net, 4, 4), 30.012e-6), "linear all-to-all on 4");
    check(collfit_time(CF_BCAST, CF_TREE, &net, 1, 8) == 0, "one process: no time");
}

/* A library: `small` up to `at` bytes, `large` above; times from the
 * models, off by a fixed pattern of up to 3% either way. */
static int made_up(int coll, int small, int large, double at, CfSample *s)
{
    static const int ps[] = {2, 4, 8, 16};
    static const double ms[] = {8, 1024, 16384, 131072, 1048576};
    static const double off[] = {1.03, 0.98, 1.0, 0.97, 1.02, 1.01, 0.99};
    int n = 0;
    for (size_t i = 0; i < sizeof ms / sizeof *ms; i++)
        for (size_t j = 0; j < sizeof ps / sizeof *ps; j++) {
            double m = coll == CF_ALLTOALL ? 4 * ms[i] / 8 : ms[i];
            int alg = ms[i] <= at ? small : large;
            s[n] = (CfSample){ps[j], m, collfit_time(coll, alg, &net, ps[j], m) * off[n % 7]};
            n++;
        }
    return n;
}

static void recognize(int coll, int small, int large, double at, const char *what)
{
    CfSample s[64];
    int n = made_up(coll, small, large, at, s);
    CfChoice c;
    int ok = collfit_choose(coll, &net, s, n, 0.1, &c) == 0 && c.small == small;
    if (large == small)
        ok = ok && c.large == small;
    else
        ok = ok && c.large == large && c.at == (coll == CF_ALLTOALL ? at / 2 : at);
    char buf[200];
    snprintf(buf, sizeof buf, "%s: %s, %s above %g B", what, collfit_name(c.small),
             collfit_name(c.large), c.at);
    check(ok, buf);
}

int main(void)
{
    test_models();
    recognize(CF_BCAST, CF_TREE, CF_SCATTER_ALLGATHER, 16384, "tree, scatter-allgather above 16 KiB");
    recognize(CF_BCAST, CF_TREE, CF_TREE, 1e300, "a tree at every size");
    recognize(CF_BCAST, CF_LINEAR, CF_LINEAR, 1e300, "a linear broadcast");
    recognize(CF_REDUCE, CF_RDOUBLING, CF_RING, 1024, "recursive doubling, the ring above 1 KiB");
    recognize(CF_REDUCE, CF_TREE, CF_TREE, 1e300, "a tree reduction at every size");
    recognize(CF_REDUCE, CF_LINEAR, CF_RING, 131072, "linear, the ring above 128 KiB");
    /* (at 8 KiB each the two differ by 10%: the switch is told above it) */
    recognize(CF_ALLTOALL, CF_BRUCK, CF_LINEAR, 16384, "Bruck, then linear");
    recognize(CF_ALLTOALL, CF_LINEAR, CF_LINEAR, 1e300, "a linear all-to-all");
    CfChoice c;
    check(collfit_choose(CF_BCAST, &net, NULL, 0, 0.1, &c) == -1, "no sample: no choice");
    CfSample one = {1, 8, 1e-6};
    check(collfit_choose(CF_BCAST, &net, &one, 1, 0.1, &c) == -1, "one process only: no choice");
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}
