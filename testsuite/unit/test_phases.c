/* test_phases.c - the clustering of the software probes (interp/phases.c):
 * planted clusters recovered whatever their order and the seed, one
 * cluster where all points are alike, identical results for one seed, the
 * projection's weights in [-1, 1] and fixed per id, and the paper's
 * equation 2 with its figures (Strube, Rexachs & Luque, section 5.1:
 * 91.9928% of 502.519 s is 462.281 s). Prints TAP. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "phases.h"
#include "tap.h"

static uint64_t state = 12345;

/* a small deterministic noise in [-a, a] */
static double noise(double a)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return a * (2.0 * (double)(state >> 11) / 9007199254740992.0 - 1);
}

/* n points around `planted` centres in dims dimensions, the centres at
 * distance 1 or more apart, cluster of point i given by who(i). */
static void plant(double *x, int n, int dims, int planted, int (*who)(int, int))
{
    for (int i = 0; i < n; i++) {
        int c = who(i, planted);
        for (int d = 0; d < dims; d++)
            x[i * dims + d] = (d == c ? 3.0 : 0.0) + noise(0.05);
    }
}

static int blocks(int i, int k)
{
    return i * k / 300;
}

static int interleaved(int i, int k)
{
    return (i / 7) % k;
}

/* whether two labellings are the same partition */
static int same_partition(const int *a, const int *b, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if ((a[i] == a[j]) != (b[i] == b[j]))
                return 0;
    return 1;
}

int main(void)
{
    enum { N = 300, D = PHASE_DIMS };
    static double x[N * D];
    static int want[N];
    char what[160];
    for (int k = 1; k <= 5; k++)
        for (int order = 0; order < 2; order++) {
            int (*who)(int, int) = order ? interleaved : blocks;
            plant(x, N, D, k, who);
            for (int i = 0; i < N; i++)
                want[i] = who(i, k);
            for (uint64_t seed = 1; seed <= 3; seed++) {
                Clustering c;
                phase_cluster(x, N, D, 10, seed, &c);
                snprintf(what, sizeof what, "%d planted clusters (%s, seed %llu): k = %d, "
                         "the same partition", k, order ? "interleaved" : "in blocks",
                         (unsigned long long)seed, c.k);
                check(c.k == k && same_partition(c.label, want, N), what);
                /* numbered by first appearance */
                int ok = c.label[0] == 0;
                int seen = 0;
                for (int i = 0; i < N; i++) {
                    if (c.label[i] > seen)
                        ok = 0;
                    if (c.label[i] == seen)
                        seen++;
                }
                snprintf(what, sizeof what, "%d clusters (seed %llu): numbered in order of "
                         "first appearance", k, (unsigned long long)seed);
                check(ok, what);
                clustering_free(&c);
            }
        }

    /* identical points: one cluster, a finite BIC */
    for (int i = 0; i < N * D; i++)
        x[i] = (i % D == 2) ? 1.0 : 0.0;
    Clustering one;
    phase_cluster(x, N, D, 10, 1, &one);
    check(one.k == 1 && one.maxk == 1 && isfinite(one.bic[1]),
          "identical points: one cluster, k = 1 the only one tried, a finite BIC");
    clustering_free(&one);

    /* determinism: the same seed, the same labels and scores */
    plant(x, N, D, 4, interleaved);
    Clustering a, b;
    phase_cluster(x, N, D, 8, 7, &a);
    phase_cluster(x, N, D, 8, 7, &b);
    int same = a.k == b.k && !memcmp(a.label, b.label, N * sizeof *a.label);
    for (int k = 1; k <= a.maxk; k++)
        same = same && a.bic[k] == b.bic[k];
    check(same, "the same seed twice: the same phases and BIC scores");
    clustering_free(&a);
    clustering_free(&b);

    /* the projection: weights in [-1, 1], fixed per id whatever the vector */
    int id1[] = {3}, id2[] = {1, 3, 9};
    double v1[] = {1}, v2[] = {0, 1, 0}, p1[D], p2[D];
    phase_project(id1, v1, 1, 1, D, 5, p1);
    phase_project(id2, v2, 3, 1, D, 5, p2);
    int inrange = 1, equal = 1, varied = 0;
    for (int d = 0; d < D; d++) {
        inrange = inrange && fabs(p1[d]) <= 1;
        equal = equal && p1[d] == p2[d];
        varied = varied || fabs(p1[d] - p1[0]) > 1e-6;
    }
    check(inrange && equal && varied, "projection: an id's weights in [-1, 1], the same in "
          "any vector, not all equal");
    double p3[D];
    phase_project(id1, v1, 1, 1, D, 6, p3);
    check(memcmp(p1, p3, sizeof p1) != 0, "projection: another seed, other weights");

    /* the paper's equation 2: P = 91.9928%, T_ref = 502.519 s */
    double t = probe_equation2(0.919928, 1.0, 502.519);
    snprintf(what, sizeof what, "equation 2 with the paper's figures: 502.519 s x 91.9928%% "
             "= %.3f s (the paper: 462.281)", t);
    check(fabs(t - 462.281) < 0.0005, what);
    t = probe_equation2(0.896673 * 3, 3, 32193);
    snprintf(what, sizeof what, "equation 2, the paper's PCs: 32193 s x 89.6673%% = %.3f s "
             "(the paper: 28866.594)", t);
    check(fabs(t - 28866.594) < 0.01, what);
    printf("1..%d\n", tap_n);
    return tap_failed != 0;
}
