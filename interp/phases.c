/* phases.c - the clustering of interval vectors into phases (phases.h):
 * SimPoint's method (Sherwood, Perelman, Hamerly & Calder, 2002), random
 * projection to a few dimensions, k-means for each k, and the BIC of
 * Pelleg & Moore (2000) choosing k. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "phases.h"
#include "util.h"

/* ---- random numbers: splitmix64, the same on every platform ---- */

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double uniform01(uint64_t *s)
{
    return (double)(mix(s) >> 11) * (1.0 / 9007199254740992.0);
}

void phase_project(const int *id, const double *v, int nnz, double scale, int dims,
                   uint64_t seed, double *out)
{
    for (int d = 0; d < dims; d++)
        out[d] = 0;
    for (int j = 0; j < nnz; j++) {
        /* the weights of id: a stream of its own */
        uint64_t s = seed * 0x100000001b3ULL ^ (uint64_t)id[j] * 0x9e3779b97f4a7c15ULL;
        for (int d = 0; d < dims; d++)
            out[d] += v[j] * scale * (2 * uniform01(&s) - 1);
    }
}

/* ---- k-means and the BIC ---- */

double phase_dist2(const double *a, const double *b, int dims)
{
    double s = 0;
    for (int d = 0; d < dims; d++)
        s += (a[d] - b[d]) * (a[d] - b[d]);
    return s;
}

/* Lloyd's iterations from k-means++ seeds: the distortion (sum of squared
 * distances), labels and centres filled. */
static double kmeans(const double *x, int n, int dims, int k, uint64_t *rng, int *label,
                     double *cent)
{
    double *d2 = xmalloc((size_t)n * sizeof *d2);
    int first = (int)(uniform01(rng) * n);
    if (first >= n)
        first = n - 1;
    memcpy(cent, x + (size_t)first * dims, (size_t)dims * sizeof *cent);
    for (int i = 0; i < n; i++)
        d2[i] = phase_dist2(x + (size_t)i * dims, cent, dims);
    for (int c = 1; c < k; c++) {
        double tot = 0;
        for (int i = 0; i < n; i++)
            tot += d2[i];
        int pick = n - 1;
        if (tot > 0) {
            double r = uniform01(rng) * tot, acc = 0;
            for (int i = 0; i < n; i++) {
                acc += d2[i];
                if (acc > r && d2[i] > 0) {
                    pick = i;
                    break;
                }
            }
        }
        memcpy(cent + (size_t)c * dims, x + (size_t)pick * dims, (size_t)dims * sizeof *cent);
        for (int i = 0; i < n; i++) {
            double t = phase_dist2(x + (size_t)i * dims, cent + (size_t)c * dims, dims);
            if (t < d2[i])
                d2[i] = t;
        }
    }
    int *cnt = xmalloc((size_t)k * sizeof *cnt);
    for (int i = 0; i < n; i++)
        label[i] = -1;
    double distortion = 0;
    for (int round = 0; round < 200; round++) {
        int moved = 0;
        distortion = 0;
        for (int i = 0; i < n; i++) {
            int best = 0;
            double bd = INFINITY;
            for (int c = 0; c < k; c++) {
                double t = phase_dist2(x + (size_t)i * dims, cent + (size_t)c * dims, dims);
                if (t < bd) {
                    bd = t;
                    best = c;
                }
            }
            if (label[i] != best) {
                label[i] = best;
                moved = 1;
            }
            distortion += bd;
        }
        if (!moved)
            break;
        memset(cnt, 0, (size_t)k * sizeof *cnt);
        memset(cent, 0, (size_t)k * (size_t)dims * sizeof *cent);
        for (int i = 0; i < n; i++) {
            cnt[label[i]]++;
            for (int d = 0; d < dims; d++)
                cent[(size_t)label[i] * dims + d] += x[(size_t)i * dims + d];
        }
        for (int c = 0; c < k; c++)
            for (int d = 0; d < dims && cnt[c]; d++)
                cent[(size_t)c * dims + d] /= cnt[c];
    }
    free(cnt);
    free(d2);
    return distortion;
}

/* Pelleg & Moore's BIC of a clustering (spherical Gaussians of one
 * variance), as SimPoint scores its k. The variance has a floor, a
 * ten-thousandth of the points' own (floor): intervals that differ by a
 * loop's entry in thousands of operations are one phase, not a cluster of
 * no spread that every split would improve. */
static double bic(const int *label, int n, int dims, int k, double distortion, double floor_var)
{
    double var = n > k ? distortion / (n - k) : 0;
    if (var < floor_var)
        var = floor_var;
    int *cnt = xcalloc((size_t)k, sizeof *cnt);
    for (int i = 0; i < n; i++)
        cnt[label[i]]++;
    double l = 0;
    for (int c = 0; c < k; c++) {
        double r = cnt[c];
        if (r <= 0)
            continue;
        l += -r / 2 * log(2 * M_PI) - r * dims / 2 * log(var) - (r - k) / 2 + r * log(r) -
             r * log((double)n);
    }
    free(cnt);
    double p = (k - 1) + (double)dims * k + 1;
    return l - p / 2 * log((double)n);
}

static int distinct_points(const double *x, int n, int dims, int upto)
{
    int m = 0;
    int *rep = xmalloc((size_t)(upto + 1) * sizeof *rep);
    for (int i = 0; i < n && m <= upto; i++) {
        int seen = 0;
        for (int j = 0; j < m && !seen; j++)
            seen = phase_dist2(x + (size_t)i * dims, x + (size_t)rep[j] * dims, dims) < 1e-24;
        if (!seen)
            rep[m++] = i;
    }
    free(rep);
    return m;
}

enum { KMEANS_STARTS = 5 };

int phase_cluster(const double *x, int n, int dims, int maxk, uint64_t seed, Clustering *c)
{
    memset(c, 0, sizeof *c);
    for (int k = 0; k <= PHASE_MAXK; k++)
        c->bic[k] = NAN;
    if (maxk > PHASE_MAXK)
        maxk = PHASE_MAXK;
    if (maxk > n)
        maxk = n;
    int nd = distinct_points(x, n, dims, maxk);
    if (maxk > nd)
        maxk = nd;
    if (maxk < 1)
        maxk = 1;
    c->maxk = maxk;
    int **labels = xcalloc((size_t)maxk + 1, sizeof *labels);
    int *lab = xmalloc((size_t)n * sizeof *lab);
    double *cent = xmalloc((size_t)maxk * (size_t)dims * sizeof *cent);
    uint64_t rng = seed;
    double lo = INFINITY, hi = -INFINITY, floor_var = 1e-12;
    for (int k = 1; k <= maxk; k++) {
        double best = INFINITY;
        labels[k] = xmalloc((size_t)n * sizeof *labels[k]);
        for (int s = 0; s < KMEANS_STARTS; s++) {
            double dd = kmeans(x, n, dims, k, &rng, lab, cent);
            if (dd < best * (1 - 1e-12)) {
                best = dd;
                memcpy(labels[k], lab, (size_t)n * sizeof *lab);
            }
        }
        if (k == 1)
            floor_var = 1e-4 * best / (n > 1 ? n - 1 : 1) + 1e-12;
        c->bic[k] = bic(labels[k], n, dims, k, best, floor_var);
        if (c->bic[k] < lo)
            lo = c->bic[k];
        if (c->bic[k] > hi)
            hi = c->bic[k];
    }
    int k = 1;
    while (k < maxk && c->bic[k] < lo + 0.9 * (hi - lo))
        k++;
    /* the clusters numbered by their first point */
    int *num = xmalloc((size_t)k * sizeof *num);
    for (int j = 0; j < k; j++)
        num[j] = -1;
    int next = 0;
    c->label = xmalloc((size_t)n * sizeof *c->label);
    for (int i = 0; i < n; i++) {
        int l = labels[k][i];
        if (num[l] < 0)
            num[l] = next++;
        c->label[i] = num[l];
    }
    c->k = next;
    free(num);
    for (int j = 1; j <= maxk; j++)
        free(labels[j]);
    free(labels);
    free(lab);
    free(cent);
    return 0;
}

void clustering_free(Clustering *c)
{
    free(c->label);
    c->label = NULL;
}

double probe_equation2(double eq1, double eq1_ref, double t_ref)
{
    return t_ref * (eq1 / eq1_ref);
}

