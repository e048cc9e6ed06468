/* collfit.c - the collectives' algorithms told apart by their times
 * (collfit.h). */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "collfit.h"

static const char *const names[CF_N] = {
    "tree", "recursive_doubling", "linear", "scatter_allgather", "ring", "bruck",
};

const char *collfit_name(int alg)
{
    return alg >= 0 && alg < CF_N ? names[alg] : "?";
}

/* ceil(log2 p) */
static int levels(int p)
{
    int l = 0;
    while ((1L << l) < p)
        l++;
    return l;
}

static double msg(const CfNet *n, double m)
{
    return n->alpha + n->beta * m;
}

/* The times follow the engine's rounds (interp/engine_net.c): a round of
 * m bytes costs one message, alpha + beta m, and a combining round gamma m
 * more; the slowest process's time, processes of equal start. */
double collfit_time(int coll, int alg, const CfNet *n, int p, double m)
{
    if (p <= 1)
        return 0;
    int L = levels(p);
    double frac = (double)(p - 1) / p;
    if (coll == CF_BCAST) {
        switch (alg) {
        case CF_LINEAR: return (p - 1) * msg(n, m);
        case CF_SCATTER_ALLGATHER:
            /* a binomial scatter of blocks m/p (L rounds, m (p-1)/p bytes in
               all on the longest path), then p - 1 ring rounds of m/p */
            return (L + p - 1) * n->alpha + 2 * n->beta * m * frac;
        default: return L * msg(n, m);
        }
    }
    if (coll == CF_REDUCE) {
        double step = msg(n, m) + n->gamma * m;
        switch (alg) {
        case CF_TREE: return L * step + L * msg(n, m);
        case CF_LINEAR: return (p - 1) * step + L * msg(n, m);
        case CF_RING:
            return 2 * (p - 1) * n->alpha + (2 * n->beta + n->gamma) * m * frac;
        default: {
            int pow2 = 1, k = 0;
            while (pow2 * 2 <= p) {
                pow2 *= 2;
                k++;
            }
            return k * step + (pow2 < p ? step + msg(n, m) : 0);
        }
        }
    }
    /* all-to-all of m bytes to each process */
    if (alg == CF_BRUCK) {
        double t = 0;
        for (long s = 1; s < p; s <<= 1) {
            long blocks = 0;
            for (long i = 0; i < p; i++)
                blocks += (i & s) != 0;
            t += msg(n, m * (double)blocks);
        }
        return t;
    }
    return (p - 1) * msg(n, m);
}

static const int cands[3][5] = {
    {CF_TREE, CF_LINEAR, CF_SCATTER_ALLGATHER, -1},
    {CF_RDOUBLING, CF_TREE, CF_LINEAR, CF_RING, -1},
    {CF_LINEAR, CF_BRUCK, -1},
};

/* mean |log(measured / model)| of algorithm alg over the samples of size m */
static double score(int coll, int alg, const CfNet *n, const CfSample *s, int ns, double m)
{
    double sum = 0;
    int k = 0;
    for (int i = 0; i < ns; i++)
        if (s[i].m == m && s[i].p > 1) {
            double model = collfit_time(coll, alg, n, s[i].p, m);
            sum += fabs(log(fmax(s[i].t, 1e-12) / fmax(model, 1e-12)));
            k++;
        }
    return k ? sum / k : -1;
}

/* The candidate nearest the samples of size m: the first (or `keep`, when
 * given) unless another is nearer by the margin. */
static int nearest(int coll, int keep, const CfNet *n, const CfSample *s, int ns, double m,
                   double margin, double *sc)
{
    const int *c = cands[coll];
    int best = keep >= 0 ? keep : c[0];
    double bs = score(coll, best, n, s, ns, m);
    for (int i = 0; c[i] >= 0; i++) {
        double v = score(coll, c[i], n, s, ns, m);
        if (sc)
            sc[c[i]] = v;
        if (v >= 0 && (bs < 0 || v < bs - margin)) {
            best = c[i];
            bs = v;
        }
    }
    return best;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int collfit_choose(int coll, const CfNet *n, const CfSample *s, int ns, double margin,
                   CfChoice *out)
{
    for (int a = 0; a < CF_N; a++)
        out->score[a] = -1;
    /* the sizes measured, in increasing order, without repeats */
    double *m = malloc((size_t)(ns ? ns : 1) * sizeof *m);
    int nm = 0;
    for (int i = 0; i < ns; i++)
        if (s[i].p > 1)
            m[nm++] = s[i].m;
    if (!nm) {
        free(m);
        return -1;
    }
    qsort(m, (size_t)nm, sizeof *m, cmp_double);
    int k = 0;
    for (int i = 0; i < nm; i++)
        if (!k || m[i] != m[k - 1])
            m[k++] = m[i];
    nm = k;
    out->small = nearest(coll, -1, n, s, ns, m[0], margin, out->score);
    out->large = out->small;
    out->at = m[nm - 1];
    /* from the largest size down: the sizes another algorithm fits better
       (the same one at each of them) */
    int large = -1, from = nm;
    for (int j = nm - 1; j >= 1; j--) {
        int a = nearest(coll, out->small, n, s, ns, m[j], margin, NULL);
        if (a == out->small || (large >= 0 && a != large))
            break;
        large = a;
        from = j;
    }
    if (large >= 0) {
        out->large = large;
        out->at = m[from - 1];
    }
    free(m);
    return 0;
}
