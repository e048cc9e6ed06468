/* test_hpfmap.c - checks the mapping module against brute force: cells are
 * dealt out block by block, triplets are enumerated iteration by iteration,
 * factorizations are searched exhaustively, and the module must agree on
 * random cases from a fixed seed. Prints TAP, one line per property and
 * format; exits 1 when any failed. */
#include <config.h>

#include <limits.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hpfmap.h"

/* ---- TAP with grouped checks ---- */

typedef struct {
    const char *name;
    long cases;
    long fails;
} Check;

static int tap_count, tap_failed;

/* Counts one case of a property; the first few failures of each property
 * print their case, so a failure can be replayed by hand. */
static int check(Check *c, int ok, const char *fmt, ...)
{
    c->cases++;
    if (!ok) {
        c->fails++;
        if (c->fails <= 3) {
            va_list ap;
            printf("# %s: ", c->name);
            va_start(ap, fmt);
            vprintf(fmt, ap);
            va_end(ap);
            putchar('\n');
        }
    }
    return ok;
}

static void report(const Check *c, const char *fmtname)
{
    tap_count++;
    const char *sep = fmtname ? ", " : "";
    if (!fmtname)
        fmtname = "";
    if (c->fails == 0 && c->cases > 0) {
        printf("ok %d - %s%s%s (%ld cases)\n", tap_count, c->name, sep, fmtname, c->cases);
    } else {
        printf("not ok %d - %s%s%s (%ld of %ld cases failed)\n", tap_count, c->name,
               sep, fmtname, c->fails, c->cases);
        tap_failed++;
    }
}

/* ---- deterministic random numbers (64-bit LCG, Knuth's MMIX constants) ---- */

static unsigned long long rng = 0x9e3779b97f4a7c15ULL;

/* Uniform in lo..hi (inclusive; hi - lo < 2^47). */
static long rnd(long lo, long hi)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    unsigned long long r = rng >> 16;
    return lo + (long)(r % (unsigned long long)(hi - lo + 1));
}

/* ---- the formats under test ---- */

enum { T_BLOCK, T_BLOCKK, T_BLOCKK_WRAP, T_CYCLIC, T_CYCLICK, T_STAR, T_COUNT };

static const char *const tname[T_COUNT] = {
    "BLOCK", "BLOCK(k)", "BLOCK(k) wrapping", "CYCLIC", "CYCLIC(k)", "*"
};

/* A random case: the arguments given to hpfmap_dim_init and the P and k the
 * definition of the format says they mean. */
typedef struct {
    int t;
    int fmt;
    long arg, lb, n;
    int nprocs;          /* as passed */
    int P;               /* as meant */
    long k;
} Case;

static long pick_lb(int big)
{
    if (big)
        return rnd(-(1L << 39), 1L << 39);
    return rnd(-40, 40);
}

static void make_case(Case *c, int t, int big)
{
    c->t = t;
    c->lb = pick_lb(big);
    c->nprocs = (int)rnd(1, 9);
    c->n = rnd(0, 300);
    if (rnd(0, 9) == 0)
        c->n = rnd(0, 12);   /* small templates: empty processors */
    c->P = c->nprocs;
    switch (t) {
    case T_BLOCK:
        c->fmt = HPFMAP_BLOCK;
        c->arg = rnd(-5, 5);   /* ignored */
        c->k = c->n == 0 ? 1 : (c->n + c->P - 1) / c->P;
        break;
    case T_BLOCKK: {
        long need = c->n == 0 ? 1 : (c->n + c->P - 1) / c->P;
        c->fmt = HPFMAP_BLOCKK;
        c->k = c->arg = need + rnd(0, 6);
        break;
    }
    case T_BLOCKK_WRAP:
        /* k*P < n: at least P + 1 cells. */
        c->fmt = HPFMAP_BLOCKK;
        if (c->n < c->P + 1)
            c->n = rnd(c->P + 1, 300);
        c->k = c->arg = rnd(1, (c->n - 1) / c->P);
        break;
    case T_CYCLIC:
        c->fmt = HPFMAP_CYCLIC;
        c->arg = rnd(-1, 1);   /* <= 0 means 1 too */
        c->k = 1;
        break;
    case T_CYCLICK:
        c->fmt = HPFMAP_CYCLIC;
        c->k = c->arg = rnd(2, 12);
        break;
    default:
        c->fmt = HPFMAP_STAR;
        c->arg = rnd(-3, 3);
        c->P = 1;
        c->k = c->n > 0 ? c->n : 1;
        break;
    }
}

#define CASEFMT "fmt=%s arg=%ld lb=%ld n=%ld nprocs=%d"
#define CASEARGS(c) tname[(c)->t], (c)->arg, (c)->lb, (c)->n, (c)->nprocs

/* ---- brute-force ownership ---- */

enum { MAXN = 300, MAXP = 9 };

/* Deals the cells out in order: k to a processor, then on to the next
 * processor, round and round; each processor numbers its cells from 1. */
typedef struct {
    int own[MAXN];
    long loc[MAXN];
    long cnt[MAXP];
} Brute;

static void brute_deal(const Case *c, Brute *br)
{
    int cur = 0;
    long used = 0;
    memset(br->cnt, 0, sizeof br->cnt);
    for (long x = 0; x < c->n; x++) {
        br->own[x] = cur;
        br->loc[x] = ++br->cnt[cur];
        if (++used == c->k) {
            used = 0;
            cur = (cur + 1) % c->P;
        }
    }
}

/* ---- properties of one dimension ---- */

typedef struct {
    Check init, owner, count, global, single;
    Check seg_set, seg_inv, seg_merge, seg_short, seg_big;
} DimChecks;

static void check_mapping(DimChecks *ck, const Case *c, const HpfDim *d, const Brute *br)
{
    long maxc = 0;
    for (long x = 0; x < c->n; x++) {
        long t = c->lb + x;
        int o = hpfmap_owner(d, t);
        long l = hpfmap_local(d, t);
        check(&ck->owner, o == br->own[x] && l == br->loc[x],
              CASEFMT " t=%ld: owner %d local %ld, want %d %ld",
              CASEARGS(c), t, o, l, br->own[x], br->loc[x]);
        check(&ck->global, hpfmap_global(d, o, l) == t,
              CASEFMT " t=%ld: global(%d, %ld) = %ld",
              CASEARGS(c), t, o, l, hpfmap_global(d, o, l));
    }
    /* Outside the template nobody owns anything. */
    long outside[4] = { c->lb - 1, c->lb + c->n, c->lb - c->k * c->P - 3,
                        c->lb + c->n + c->k * c->P + 2 };
    for (int i = 0; i < 4; i++) {
        check(&ck->owner, hpfmap_owner(d, outside[i]) == -1 && hpfmap_local(d, outside[i]) == 0,
              CASEFMT " t=%ld outside: owner %d local %ld", CASEARGS(c), outside[i],
              hpfmap_owner(d, outside[i]), hpfmap_local(d, outside[i]));
    }
    for (int p = 0; p < c->P; p++) {
        long n = hpfmap_count(d, p);
        check(&ck->count, n == br->cnt[p], CASEFMT " p=%d: count %ld, want %ld",
              CASEARGS(c), p, n, br->cnt[p]);
        if (br->cnt[p] > maxc)
            maxc = br->cnt[p];
        /* Local indices 1..count name p's cells in increasing order. */
        long prev = c->lb - 1;
        for (long l = 1; l <= br->cnt[p]; l++) {
            long t = hpfmap_global(d, p, l);
            long x = t - c->lb;
            int ok = t > prev && x >= 0 && x < c->n && br->own[x] == p && br->loc[x] == l;
            if (!check(&ck->global, ok, CASEFMT " p=%d l=%ld: global %ld (previous %ld)",
                       CASEARGS(c), p, l, t, prev))
                break;
            prev = t;
        }
    }
    check(&ck->count, hpfmap_count(d, -1) == 0 && hpfmap_count(d, c->P) == 0,
          CASEFMT ": count outside the grid not 0", CASEARGS(c));
    /* the cells of a range owned by p, against the owners one by one: every
       range of a few cells around and inside the template, and some long */
    for (int p = 0; p < c->P; p++) {
        long step = c->n > 40 ? c->n / 13 + 1 : 1;
        for (long t1 = c->lb - 2; t1 <= c->lb + c->n + 1; t1 += step)
            for (long t2 = t1 - 1; t2 <= c->lb + c->n + 2; t2 += step) {
                long want = 0;
                for (long t = t1; t <= t2; t++)
                    want += hpfmap_owner(d, t) == p;
                long got = hpfmap_count_range(d, p, t1, t2);
                if (!check(&ck->count, got == want, CASEFMT " p=%d: count_range(%ld, %ld) %ld, "
                           "want %ld", CASEARGS(c), p, t1, t2, got, want))
                    return;
            }
    }
    check(&ck->count, hpfmap_count_max(d) == maxc, CASEFMT ": count_max %ld, want %ld",
          CASEARGS(c), hpfmap_count_max(d), maxc);
    int single = c->k * c->P >= c->n;
    int want_single = c->t == T_BLOCK || c->t == T_STAR || c->t == T_BLOCKK ? 1
                    : c->t == T_BLOCKK_WRAP ? 0 : single;
    check(&ck->single, hpfmap_single_block(d) == single && single == want_single,
          CASEFMT ": single_block %d, want %d", CASEARGS(c), hpfmap_single_block(d), single);
}

/* ---- local iteration sets ---- */

enum { MAXSEG = 1024, MAXIT = 4096 };

typedef struct {
    long i, l;
} Hit;

/* Expands segments into (i, l) pairs, at most cap of them; -1 when a
 * segment is malformed (it could not be expanded safely). */
static long expand(const HpfSeg *s, long ns, Hit *h, long cap)
{
    long nh = 0;
    for (long q = 0; q < ns; q++) {
        if (s[q].is <= 0 || s[q].i1 > s[q].i2)
            return -1;
        for (long c = 0; s[q].i1 + c * s[q].is <= s[q].i2; c++) {
            if (nh == cap)
                return nh;
            h[nh].i = s[q].i1 + c * s[q].is;
            h[nh].l = s[q].l1 + c * s[q].ls;
            nh++;
        }
    }
    return nh;
}

/* Whether two segments in a row continue each other's progressions; the
 * module must have merged them if so. */
static int mergeable(const HpfSeg *x, const HpfSeg *y)
{
    long xn = (x->i2 - x->i1) / x->is + 1, yn = (y->i2 - y->i1) / y->is + 1;
    long is, ls;
    if (xn == 1) {
        is = y->i1 - x->i1;
        ls = y->l1 - x->l1;
    } else {
        is = x->is;
        ls = x->ls;
        if (y->i1 != x->i2 + is || y->l1 != x->l1 + xn * ls)
            return 0;
    }
    return yn == 1 || (y->is == is && y->ls == ls);
}

/* Invariants of a segment list: strides positive, ends on the
 * progression, increasing and disjoint, nothing left to merge. */
static const char *seg_invariant(const HpfSeg *s, long ns)
{
    for (long q = 0; q < ns; q++) {
        if (s[q].is <= 0)
            return "is <= 0";
        if (s[q].i1 > s[q].i2)
            return "i1 > i2";
        if ((s[q].i2 - s[q].i1) % s[q].is != 0)
            return "i2 not on the progression";
        if (q > 0 && s[q].i1 <= s[q - 1].i2)
            return "segments overlap or go backwards";
        if (q > 0 && mergeable(&s[q - 1], &s[q]))
            return "adjacent segments not merged";
    }
    return NULL;
}

#define SEGFMT CASEFMT " p=%d a=%ld b=%ld triplet %ld:%ld:%ld"
#define SEGARGS(c) CASEARGS(c), p, a, b, lo, hi, st

static int same_hits(const Hit *x, long nx, const Hit *y, long ny)
{
    if (nx != ny)
        return 0;
    for (long q = 0; q < nx; q++)
        if (x[q].i != y[q].i || x[q].l != y[q].l)
            return 0;
    return 1;
}

/* Checks one call of hpfmap_segments against the iterations it should
 * describe (want, in increasing i), and its buffer handling. */
static void check_segments(DimChecks *ck, Check *set, const Case *c, const HpfDim *d,
                           int p, long a, long b, long lo, long hi, long st,
                           const Hit *want, long nwant)
{
    static HpfSeg seg[MAXSEG + 1], seg2[MAXSEG + 1];
    static Hit got[MAXIT];
    long ns = hpfmap_segments(d, p, a, b, lo, hi, st, seg, MAXSEG);
    if (!check(set, ns >= 0 && ns <= MAXSEG, SEGFMT ": %ld segments", SEGARGS(c), ns))
        return;
    const char *why = seg_invariant(seg, ns);
    check(&ck->seg_inv, why == NULL, SEGFMT ": %s", SEGARGS(c), why ? why : "");
    long ngot = expand(seg, ns, got, MAXIT);
    check(set, same_hits(got, ngot, want, nwant),
          SEGFMT ": %ld segments expand to %ld iterations, want %ld (first seg %ld:%ld:%ld l %ld/%ld)",
          SEGARGS(c), ns, ngot, nwant, ns ? seg[0].i1 : 0, ns ? seg[0].i2 : 0,
          ns ? seg[0].is : 0, ns ? seg[0].l1 : 0, ns ? seg[0].ls : 0);
    /* One block per processor, or CYCLIC(1) (whose owned cells of any
     * progression form a progression), or a constant cell: one segment. */
    if (c->t == T_BLOCK || c->t == T_BLOCKK || c->t == T_STAR || c->t == T_CYCLIC || a == 0)
        check(&ck->seg_merge, ns <= 1, SEGFMT ": %ld segments, want at most 1",
              SEGARGS(c), ns);
    if (a == 0 && ns == 1) {
        long m = nwant;
        check(&ck->seg_merge, seg[0].ls == 0 && m > 0 && seg[0].i1 == want[0].i
              && seg[0].i2 == want[m - 1].i,
              SEGFMT ": constant cell gives %ld:%ld:%ld ls %ld", SEGARGS(c),
              seg[0].i1, seg[0].i2, seg[0].is, seg[0].ls);
    }
    /* A short buffer: the same first segments, nothing written past it,
     * and the full count returned. */
    if (ns >= 1) {
        long max = rnd(0, ns - 1);
        HpfSeg guard = { 12345, -6789, 42, -1, 7 };
        for (long q = 0; q <= max; q++)
            seg2[q] = guard;
        long ns2 = hpfmap_segments(d, p, a, b, lo, hi, st, seg2, max);
        int ok = ns2 == ns && memcmp(&seg2[max], &guard, sizeof guard) == 0;
        for (long q = 0; ok && q < max; q++)
            ok = memcmp(&seg2[q], &seg[q], sizeof seg[q]) == 0;
        check(&ck->seg_short, ok, SEGFMT ": max %ld returns %ld, want %ld",
              SEGARGS(c), max, ns2, ns);
        check(&ck->seg_short, hpfmap_segments(d, p, a, b, lo, hi, st, NULL, 0) == ns,
              SEGFMT ": NULL buffer", SEGARGS(c));
    }
}

/* Small triplets, enumerated iteration by iteration. */
static void check_small_triplets(DimChecks *ck, const Case *c, const HpfDim *d, const Brute *br)
{
    static Hit want[MAXIT];
    for (int rep = 0; rep < 6; rep++) {
        long a = rnd(-3, 3);
        long st = rnd(1, 4) * (rnd(0, 1) ? 1 : -1);
        long lo = rnd(-60, 60), hi = rnd(-60, 60);
        if (rnd(0, 3) == 0)
            hi = lo + rnd(-2, 2);   /* near-empty and one-element triplets */
        /* Cells near the template: b puts i = 0 somewhere around it. */
        long b = c->lb + rnd(-20, c->n + 20);
        if (c->t == T_CYCLIC && rep < 2) {
            a = rnd(0, 1) ? 1 : -1;   /* the case the header promises */
            st = rep == 0 ? 1 : -1;
        }
        for (int p = 0; p < c->P; p++) {
            long nwant = 0;
            for (long i = lo; st > 0 ? i <= hi : i >= hi; i += st) {
                long x = a * i + b - c->lb;
                if (x >= 0 && x < c->n && br->own[x] == p) {
                    want[nwant].i = i;
                    want[nwant].l = br->loc[x];
                    nwant++;
                }
            }
            if (st < 0) {
                for (long q = 0; q < nwant / 2; q++) {
                    Hit h = want[q];
                    want[q] = want[nwant - 1 - q];
                    want[nwant - 1 - q] = h;
                }
            }
            check_segments(ck, &ck->seg_set, c, d, p, a, b, lo, hi, st, want, nwant);
        }
    }
}

/* Huge triplets (up to 2^40 iterations, values near 2^40) on templates
 * far from 0: the expected set comes from the template's cells instead,
 * solving a*i + b = t for each. This would also hang a module whose cost
 * grew with the number of iterations. */
static void check_big_triplets(DimChecks *ck, const Case *c, const HpfDim *d, const Brute *br)
{
    static Hit want[MAXIT];
    for (int rep = 0; rep < 3; rep++) {
        long a = rnd(-3, 3);
        if (a == 0)
            a = 1;
        long s = rnd(0, 2) ? rnd(1, 4) : rnd(1, 1000);
        long centre = rnd(-(1L << 37), 1L << 37);
        long b = c->lb + rnd(-10, c->n + 10) - a * centre;
        long imin = centre - s * rnd(0, 1L << 20);
        long imax = centre + rnd(0, 1L << 39);
        imax = imin + (imax - imin) / s * s;
        long lo = imin, hi = imax, st = s;
        if (rnd(0, 1)) {
            lo = imax;
            hi = imin - rnd(0, s - 1);
            st = -s;
        }
        for (int p = 0; p < c->P; p++) {
            long nwant = 0;
            for (long x = 0; x < c->n; x++) {
                long t = c->lb + x;
                if (br->own[x] != p || (t - b) % a != 0)
                    continue;
                long i = (t - b) / a;
                if (i < imin || i > imax || (i - imin) % s != 0)
                    continue;
                want[nwant].i = i;
                want[nwant].l = br->loc[x];
                nwant++;
            }
            if (a < 0) {
                for (long q = 0; q < nwant / 2; q++) {
                    Hit h = want[q];
                    want[q] = want[nwant - 1 - q];
                    want[nwant - 1 - q] = h;
                }
            }
            check_segments(ck, &ck->seg_big, c, d, p, a, b, lo, hi, st, want, nwant);
        }
    }
}

static void test_dimensions(void)
{
    for (int t = 0; t < T_COUNT; t++) {
        DimChecks ck = {
            { "dim_init gives the P and k of the format", 0, 0 },
            { "owner and local agree with dealing the blocks out", 0, 0 },
            { "count and count_max agree with brute force", 0, 0 },
            { "global inverts local, local indices in cell order", 0, 0 },
            { "single_block is k*P >= n", 0, 0 },
            { "segments give exactly the owned iterations", 0, 0 },
            { "segments are ordered, disjoint, maximally merged", 0, 0 },
            { "segments merge to one where the header says", 0, 0 },
            { "segments return the full count with a short buffer", 0, 0 },
            { "segments of huge triplets far from 0", 0, 0 },
        };
        for (int rep = 0; rep < 1200; rep++) {
            Case c;
            Brute br;
            HpfDim d;
            int big = rep % 4 == 3;
            make_case(&c, t, big);
            int rc = hpfmap_dim_init(&d, c.fmt, c.arg, c.lb, c.n, c.nprocs);
            /* a block larger than the template is taken as the template
               (the dealing below keeps the format's k: the same cells) */
            long wantk = c.n > 0 && c.k > c.n ? c.n : c.k;
            if (!check(&ck.init, rc == 0 && d.lb == c.lb && d.n == c.n && d.nprocs == c.P
                       && d.k == wantk && d.fmt == c.fmt,
                       CASEFMT ": rc %d P %d k %ld, want P %d k %ld",
                       CASEARGS(&c), rc, d.nprocs, d.k, c.P, wantk))
                continue;
            brute_deal(&c, &br);
            check_mapping(&ck, &c, &d, &br);
            if (big)
                check_big_triplets(&ck, &c, &d, &br);
            else
                check_small_triplets(&ck, &c, &d, &br);
        }
        const Check *all[] = { &ck.init, &ck.owner, &ck.count, &ck.global, &ck.single,
                               &ck.seg_set, &ck.seg_inv, &ck.seg_merge, &ck.seg_short,
                               &ck.seg_big };
        for (size_t q = 0; q < sizeof all / sizeof all[0]; q++)
            if (all[q]->cases > 0)
                report(all[q], tname[t]);
    }
}

/* Bad arguments are refused; CYCLIC takes arg <= 0 as 1. */
static void test_dim_init_errors(void)
{
    Check ck = { "dim_init refuses bad arguments", 0, 0 };
    HpfDim d;
    check(&ck, hpfmap_dim_init(&d, HPFMAP_BLOCK, 0, 1, 10, 0) == -1, "BLOCK P=0");
    check(&ck, hpfmap_dim_init(&d, HPFMAP_CYCLIC, 1, 1, 10, -2) == -1, "CYCLIC P=-2");
    check(&ck, hpfmap_dim_init(&d, HPFMAP_BLOCKK, 3, 1, 10, 0) == -1, "BLOCK(3) P=0");
    check(&ck, hpfmap_dim_init(&d, HPFMAP_BLOCKK, 0, 1, 10, 2) == -1, "BLOCK(0)");
    check(&ck, hpfmap_dim_init(&d, HPFMAP_BLOCKK, -4, 1, 10, 2) == -1, "BLOCK(-4)");
    check(&ck, hpfmap_dim_init(&d, HPFMAP_BLOCK, 0, 1, -1, 2) == -1, "BLOCK n=-1");
    check(&ck, hpfmap_dim_init(&d, HPFMAP_STAR, 0, 1, -1, 1) == -1, "* n=-1");
    check(&ck, hpfmap_dim_init(&d, 17, 0, 1, 10, 2) == -1, "format 17");
    check(&ck, hpfmap_dim_init(&d, HPFMAP_CYCLIC, 0, 1, 10, 3) == 0 && d.k == 1, "CYCLIC(0)");
    check(&ck, hpfmap_dim_init(&d, HPFMAP_BLOCK, 0, 5, 0, 4) == 0 && d.k == 1, "BLOCK n=0");
    check(&ck, hpfmap_dim_init(&d, HPFMAP_BLOCK, 0, 1, 10, 4) == 0 && d.k == 3, "BLOCK 10/4");
    check(&ck, hpfmap_dim_init(&d, HPFMAP_STAR, 0, 1, 0, 4) == 0 && d.k == 1 && d.nprocs == 1,
          "* n=0");
    report(&ck, NULL);
}

/* The iteration count of a triplet, against a counting loop. */
static void test_trip(void)
{
    Check ck = { "trip counts the iterations of a triplet", 0, 0 };
    for (long lo = -12; lo <= 12; lo++)
        for (long hi = -12; hi <= 12; hi++)
            for (long st = -7; st <= 7; st++) {
                if (st == 0)
                    continue;
                long n = 0;
                for (long i = lo; st > 0 ? i <= hi : i >= hi; i += st)
                    n++;
                check(&ck, hpfmap_trip(lo, hi, st) == n, "%ld:%ld:%ld gives %ld, want %ld",
                      lo, hi, st, hpfmap_trip(lo, hi, st), n);
            }
    check(&ck, hpfmap_trip(-(1L << 40), 1L << 40, 1) == (1L << 41) + 1, "2^41 + 1 iterations");
    check(&ck, hpfmap_trip(1L << 40, -(1L << 40), -3) == ((1L << 41) / 3) + 1, "downward, big");
    report(&ck, NULL);
}

/* Templates near the limits: 2^60 cells (the largest the compiler
 * accepts), blocks of up to 2^62, four million processors, lower bounds
 * near a long's ends, subscripts whose offsets are far outside. Nothing may
 * overflow (the suite runs this under UBSan too), and the counts must
 * still add up to the template. */
static void test_extremes(void)
{
    Check ck = { "templates of 2^60 cells on 2^22 processors add up", 0, 0 };
    Check inv = { "owner, local and global agree at the ends of huge templates", 0, 0 };
    Check out = { "cells and subscripts far outside a huge template", 0, 0 };
    const long N = 1L << 60, P = 1L << 22;
    struct { int fmt; long arg, lb, n; int np; } cases[] = {
        { HPFMAP_BLOCK, 0, 1, N, (int)P },
        { HPFMAP_BLOCK, 0, -(1L << 62), N - 1, (int)P - 1 },
        { HPFMAP_BLOCKK, 1L << 59, 1, N, (int)P },        /* two blocks used */
        { HPFMAP_BLOCKK, 1L << 62, LONG_MAX - N, N, (int)P },
        { HPFMAP_CYCLIC, 1L << 62, 1, 1L << 40, (int)P },
        { HPFMAP_CYCLIC, (1L << 40) + 7, LONG_MIN + 1, N, (int)P },
        { HPFMAP_CYCLIC, 3, 1, N, (int)P },
        { HPFMAP_CYCLIC, 0, -5, N, 3 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        HpfDim d;
        long lb = cases[i].lb, n = cases[i].n, last = lb + (n - 1);
        if (!check(&ck, hpfmap_dim_init(&d, cases[i].fmt, cases[i].arg, lb, n, cases[i].np) == 0,
                   "case %zu: dim_init", i))
            continue;
        long sum = 0, big = 0;
        for (int p = 0; p < cases[i].np; p++) {
            long c = hpfmap_count(&d, p);
            sum += c;
            if (c > big)
                big = c;
            if (p % 65521 == 0 || p == cases[i].np - 1)
                check(&ck, hpfmap_count_range(&d, p, LONG_MIN, LONG_MAX) == c
                      && hpfmap_count_range(&d, p, lb, last) == c,
                      "case %zu p %d: count_range %ld, count %ld", i, p,
                      hpfmap_count_range(&d, p, LONG_MIN, LONG_MAX), c);
        }
        check(&ck, sum == n && big == hpfmap_count_max(&d), "case %zu: counts sum to %ld, want %ld",
              i, sum, n);
        long probe[] = { lb, lb + 1, lb + (n / 3), last - 1, last };
        for (int j = 0; j < 5; j++) {
            long t = probe[j];
            int o = hpfmap_owner(&d, t);
            long l = hpfmap_local(&d, t);
            check(&inv, o >= 0 && o < d.nprocs && l >= 1 && l <= hpfmap_count(&d, o)
                  && hpfmap_global(&d, o, l) == t,
                  "case %zu t=%ld: owner %d local %ld global %ld", i, t, o, l,
                  o >= 0 ? hpfmap_global(&d, o, l) : 0);
        }
        long far[] = { LONG_MIN, LONG_MAX, lb - 1, last + 1 };
        for (int j = 0; j < 4; j++)
            if (far[j] < lb || far[j] > last)
                check(&out, hpfmap_owner(&d, far[j]) == -1 && hpfmap_local(&d, far[j]) == 0,
                      "case %zu t=%ld: owner %d", i, far[j], hpfmap_owner(&d, far[j]));
        /* a(i + b) for i = 1..10 with b so far out that i + b is past the
           template, or would pass a long's range if formed */
        long offs[] = { LONG_MAX - 10, LONG_MIN + 20, last, lb > LONG_MIN + 11 ? lb - 11 : lb };
        for (int j = 0; j < 4; j++) {
            long want = 0;
            for (long it = 1; it <= 10; it++) {
                long cell;
                if (!__builtin_add_overflow(it, offs[j], &cell) && cell >= lb && cell <= last
                    && hpfmap_owner(&d, cell) == 0)
                    want++;
            }
            HpfSeg seg[16];
            long ns = hpfmap_segments(&d, 0, 1, offs[j], 1, 10, 1, seg, 16), got = 0;
            for (long q = 0; q < ns && q < 16; q++)
                got += hpfmap_trip(seg[q].i1, seg[q].i2, seg[q].is);
            check(&out, got == want, "case %zu b=%ld: %ld owned iterations, want %ld",
                  i, offs[j], got, want);
            ns = hpfmap_segments(&d, 0, -1, offs[j], 1, 10, 1, seg, 16);
            check(&out, ns >= 0 && ns <= 10, "case %zu -i+%ld: %ld segments", i, offs[j], ns);
        }
    }
    report(&ck, NULL);
    report(&inv, NULL);
    report(&out, NULL);
}

/* ---- processor grids ---- */

/* Exhaustive search over all ordered r-tuples with product np: the
 * smallest spread (largest minus smallest factor), and the
 * lexicographically smallest non-increasing shape that has it. */
typedef struct {
    int r;
    long tup[HPFMAP_MAX_RANK];
    long spread;
    long best[HPFMAP_MAX_RANK];
} Exhaust;

static void exhaust(Exhaust *e, int pos, long rem)
{
    if (pos == e->r) {
        if (rem != 1)
            return;
        long sorted[HPFMAP_MAX_RANK];
        memcpy(sorted, e->tup, sizeof sorted);
        for (int i = 0; i < e->r; i++)   /* insertion sort, descending */
            for (int j = i; j > 0 && sorted[j] > sorted[j - 1]; j--) {
                long t = sorted[j];
                sorted[j] = sorted[j - 1];
                sorted[j - 1] = t;
            }
        long spread = sorted[0] - sorted[e->r - 1];
        int better = e->spread < 0 || spread < e->spread;
        if (spread == e->spread) {
            for (int i = 0; i < e->r; i++)
                if (sorted[i] != e->best[i]) {
                    better = sorted[i] < e->best[i];
                    break;
                }
        }
        if (better) {
            e->spread = spread;
            memcpy(e->best, sorted, sizeof sorted);
        }
        return;
    }
    for (long f = 1; f <= rem; f++)
        if (rem % f == 0) {
            e->tup[pos] = f;
            exhaust(e, pos + 1, rem / f);
        }
}

static int shape_is(const int *shape, int r, const int *want)
{
    for (int i = 0; i < r; i++)
        if (shape[i] != want[i])
            return 0;
    return 1;
}

static void test_grid_shape(void)
{
    Check ex = { "grid_shape: the examples (8->4x2, 12->3x2x2, ...)", 0, 0 };
    static const struct {
        int np, r;
        int want[HPFMAP_MAX_RANK];
    } examples[] = {
        { 8, 2, { 4, 2 } }, { 2, 2, { 2, 1 } }, { 1, 2, { 1, 1 } }, { 1, 1, { 1 } },
        { 12, 3, { 3, 2, 2 } }, { 7, 2, { 7, 1 } }, { 6, 2, { 3, 2 } },
        { 16, 2, { 4, 4 } }, { 32, 2, { 8, 4 } }, { 5, 1, { 5 } },
        { 64, 3, { 4, 4, 4 } }, { 24, 4, { 3, 2, 2, 2 } }, { 72, 2, { 9, 8 } },
        { 1, 7, { 1, 1, 1, 1, 1, 1, 1 } }, { 128, 7, { 2, 2, 2, 2, 2, 2, 2 } },
        { 20, 4, { 5, 2, 2, 1 } }, { 360, 3, { 9, 8, 5 } },
        { 2147483647, 2, { 2147483647, 1 } }, { 1 << 30, 2, { 1 << 15, 1 << 15 } },
    };
    for (size_t q = 0; q < sizeof examples / sizeof examples[0]; q++) {
        int shape[HPFMAP_MAX_RANK];
        int rc = hpfmap_grid_shape(examples[q].np, examples[q].r, NULL, shape);
        check(&ex, rc == 0 && shape_is(shape, examples[q].r, examples[q].want),
              "np=%d r=%d: rc %d shape %dx%d...", examples[q].np, examples[q].r, rc,
              shape[0], examples[q].r > 1 ? shape[1] : 1);
    }
    {
        long decl[2] = { 2, 4 }, decl8[2] = { 8, 1 }, free2[2] = { 0, -1 };
        int shape[2];
        int rc = hpfmap_grid_shape(8, 2, decl, shape);
        check(&ex, rc == 0 && shape[0] == 2 && shape[1] == 4, "2x4 on 8 kept: rc %d", rc);
        rc = hpfmap_grid_shape(4, 2, decl, shape);
        check(&ex, rc == 1 && shape[0] == 2 && shape[1] == 2, "2x4 on 4 -> 2x2: rc %d", rc);
        rc = hpfmap_grid_shape(8, 2, decl8, shape);
        check(&ex, rc == 0 && shape[0] == 8 && shape[1] == 1, "8x1 on 8 kept: rc %d", rc);
        rc = hpfmap_grid_shape(8, 2, free2, shape);
        check(&ex, rc == 0 && shape[0] == 4 && shape[1] == 2, "(0,-1) on 8: rc %d", rc);
        long huge[2] = { 1L << 40, 1L << 40 };
        rc = hpfmap_grid_shape(6, 2, huge, shape);
        check(&ex, rc == 1 && shape[0] == 3 && shape[1] == 2, "2^40 x 2^40 on 6: rc %d", rc);
    }
    report(&ex, NULL);

    Check bal = { "grid_shape: product np, non-increasing, most balanced", 0, 0 };
    Check kept = { "grid_shape: a declared shape is kept iff its product is np", 0, 0 };
    Check freec = { "grid_shape: extents <= 0 or NULL mean the run-time count", 0, 0 };
    for (int rep = 0; rep < 400; rep++) {
        int np = (int)(rep < 100 ? rep + 1 : rnd(1, 400));
        int r = (int)rnd(1, HPFMAP_MAX_RANK);
        int shape[HPFMAP_MAX_RANK];
        int rc = hpfmap_grid_shape(np, r, NULL, shape);
        long prod = 1;
        int nonincr = 1;
        for (int i = 0; i < r; i++) {
            prod *= shape[i];
            if (i > 0 && shape[i] > shape[i - 1])
                nonincr = 0;
        }
        Exhaust e;
        e.r = r;
        e.spread = -1;
        exhaust(&e, 0, np);
        int same = 1;
        for (int i = 0; i < r; i++)
            same &= shape[i] == e.best[i];
        check(&bal, rc == 0 && prod == np && nonincr && same,
              "np=%d r=%d: rc %d product %ld, first %d last %d, want %ld..%ld",
              np, r, rc, prod, shape[0], shape[r - 1], e.best[0], e.best[r - 1]);

        /* A declared shape with the right product: some factorization. */
        long decl[HPFMAP_MAX_RANK];
        long rem = np;
        for (int i = 0; i < r - 1; i++) {
            long f;
            do
                f = rnd(1, rem);
            while (rem % f != 0);
            decl[i] = f;
            rem /= f;
        }
        decl[r - 1] = rem;
        int got[HPFMAP_MAX_RANK];
        rc = hpfmap_grid_shape(np, r, decl, got);
        int ok = rc == 0;
        for (int i = 0; i < r; i++)
            ok &= got[i] == decl[i];
        check(&kept, ok, "np=%d r=%d declared %ldx... fitting: rc %d", np, r, decl[0], rc);

        /* One that does not fit is replaced by the balanced shape. */
        prod = 1;
        for (int i = 0; i < r; i++) {
            decl[i] = rnd(1, 6);
            prod *= decl[i];
        }
        rc = hpfmap_grid_shape(np, r, decl, got);
        ok = prod == np ? rc == 0 : rc == 1 && shape_is(got, r, shape);
        check(&kept, ok, "np=%d r=%d declared product %ld: rc %d", np, r, prod, rc);

        /* A run-time extent anywhere frees them all, without a note. */
        decl[rnd(0, r - 1)] = rnd(-2, 0);
        rc = hpfmap_grid_shape(np, r, decl, got);
        check(&freec, rc == 0 && shape_is(got, r, shape), "np=%d r=%d with a free extent: rc %d",
              np, r, rc);
    }
    report(&bal, NULL);
    report(&kept, NULL);
    report(&freec, NULL);
}

/* Coordinates and ranks are inverse, column-major. */
static void test_coords(void)
{
    Check ck = { "coords and rank are inverse, first dimension fastest", 0, 0 };
    for (int rep = 0; rep < 300; rep++) {
        int r = (int)rnd(1, HPFMAP_MAX_RANK);
        int shape[HPFMAP_MAX_RANK];
        long size = 1;
        for (int i = 0; i < r; i++) {
            shape[i] = (int)rnd(1, size > 400 ? 1 : 5);
            size *= shape[i];
        }
        int prev[HPFMAP_MAX_RANK] = { 0 };
        for (int rank = 0; rank < size; rank++) {
            int co[HPFMAP_MAX_RANK];
            hpfmap_coords(rank, r, shape, HPFMAP_LINEAR, co);
            int ok = hpfmap_rank(r, shape, HPFMAP_LINEAR, co) == rank;
            for (int i = 0; i < r; i++)
                ok &= co[i] >= 0 && co[i] < shape[i];
            /* Odometer: the first coordinate that is not at its end
             * steps, the ones before it wrap to 0. */
            if (rank > 0) {
                int i = 0;
                while (i < r && prev[i] == shape[i] - 1) {
                    ok &= co[i] == 0;
                    i++;
                }
                ok &= i < r && co[i] == prev[i] + 1;
                for (int j = i + 1; j < r; j++)
                    ok &= co[j] == prev[j];
            }
            if (!check(&ck, ok, "r=%d shape %dx%d... rank %d", r, shape[0],
                       r > 1 ? shape[1] : 1, rank))
                break;
            memcpy(prev, co, sizeof prev);
        }
    }
    report(&ck, NULL);
}

/* Gray placement: on a grid whose extents are powers of two the ranks are
 * a permutation of 0 .. np-1, coordinates and rank are inverse, and grid
 * neighbours (along any dimension, no wrap) are one bit apart; on any other
 * shape it is the linear placement. */
static void test_gray_placement(void)
{
    Check ck = { "Gray placement: a permutation, inverse, neighbours one bit apart", 0, 0 };
    for (int rep = 0; rep < 300; rep++) {
        int r = (int)rnd(1, 4), pow2 = rep % 3 != 0;
        int shape[HPFMAP_MAX_RANK];
        long size = 1;
        for (int i = 0; i < r; i++) {
            shape[i] = pow2 ? 1 << rnd(0, size > 512 ? 0 : 4) : (int)rnd(1, size > 400 ? 1 : 7);
            size *= shape[i];
        }
        int gray = hpfmap_placement(HPFMAP_GRAY, r, shape);
        int want = 1;
        for (int i = 0; i < r; i++)
            want &= (shape[i] & (shape[i] - 1)) == 0;
        check(&ck, gray == (want ? HPFMAP_GRAY : HPFMAP_LINEAR), "placement of a shape %dx%d...",
              shape[0], r > 1 ? shape[1] : 1);
        unsigned char *seen = calloc((size_t)size, 1);
        int ok = 1;
        for (int rank = 0; rank < size && ok; rank++) {
            int co[HPFMAP_MAX_RANK], lin[HPFMAP_MAX_RANK];
            hpfmap_coords(rank, r, shape, HPFMAP_GRAY, co);
            hpfmap_coords(rank, r, shape, HPFMAP_LINEAR, lin);
            ok &= hpfmap_rank(r, shape, HPFMAP_GRAY, co) == rank;
            for (int i = 0; i < r; i++)
                ok &= co[i] >= 0 && co[i] < shape[i] && (want || co[i] == lin[i]);
            /* the rank of the position, its neighbours one bit away */
            int me = hpfmap_rank(r, shape, HPFMAP_GRAY, lin);
            ok &= me >= 0 && me < size && !seen[me];
            if (ok)
                seen[me] = 1;
            for (int i = 0; i < r && want && ok; i++)
                if (lin[i] + 1 < shape[i]) {
                    lin[i]++;
                    ok &= __builtin_popcount((unsigned)(me ^ hpfmap_rank(r, shape, HPFMAP_GRAY, lin))) == 1;
                    lin[i]--;
                }
            check(&ck, ok, "r=%d shape %dx%d... rank %d", r, shape[0], r > 1 ? shape[1] : 1, rank);
        }
        free(seen);
    }
    for (int v = 0; v < 1 << 16; v++)
        check(&ck, hpfmap_unplace(hpfmap_place(v, 1), 1) == v, "unplace(place(%d))", v);
    report(&ck, NULL);
}

/* The expected maximum of p standard normals: Tippett's values and, from
 * 10 on, published ones within 1% (Harter 1961: 10 1.5388, 20 1.8675, 100
 * 2.5076, 1000 3.2414); 0 for one process; increasing with p. */
static void test_normal_max(void)
{
    Check ck = { "the expected maximum of p standard normals", 0, 0 };
    static const struct { long p; double v, tol; } known[] = {
        {1, 0, 0}, {2, 0.5642, 1e-9}, {4, 1.0294, 1e-9}, {8, 1.4236, 1e-9},
        {10, 1.5388, 0.01}, {20, 1.8675, 0.01}, {100, 2.5076, 0.01}, {1000, 3.2414, 0.01},
    };
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
        double v = hpfmap_normal_max(known[i].p);
        check(&ck, fabs(v - known[i].v) <= known[i].tol * (known[i].v > 0 ? known[i].v : 1),
              "p = %ld: %.4f, expected %.4f", known[i].p, v, known[i].v);
    }
    for (long p = 2; p <= 1L << 20; p += p / 7 + 1)
        check(&ck, hpfmap_normal_max(p) > hpfmap_normal_max(p - 1), "not increasing at %ld", p);
    report(&ck, NULL);
}

/* Overlap areas around the blocks (hpfmap_pad): on random CYCLIC(k) and
 * BLOCK(k) dimensions, every cell's local index on its owner lies in an
 * owned slot and maps back; the slots of the areas denote the cells next
 * to their block; segments carry the padded local indices; and the cells
 * of a shift (hpfmap_block_shift) are those of a walk over every block. */
static void test_pad(void)
{
    Check pad = { "pad: set only for several blocks on several processors", 0, 0 };
    Check loc = { "pad: local index in an owned slot, global inverts it", 0, 0 };
    Check area = { "pad: an area slot denotes the cell next to its block", 0, 0 };
    Check seg = { "pad: segments carry the padded local indices", 0, 0 };
    Check sh = { "pad: hpfmap_block_shift counts a walk over the blocks", 0, 0 };
    srand(4242);
    for (int rep = 0; rep < 3000; rep++) {
        HpfDim d;
        int fmt = rep % 2 ? HPFMAP_CYCLIC : HPFMAP_BLOCKK;
        long k = 1 + rand() % 6, n = rand() % 60, lb = rand() % 7 - 3;
        int P = 1 + rand() % 5;
        long plo = rand() % (k + 1), phi = rand() % (k + 1);
        if (hpfmap_dim_init(&d, fmt, k, lb, n, P) != 0)
            continue;
        k = d.k;
        if (plo > k)
            plo = k;
        if (phi > k)
            phi = k;
        int set = hpfmap_pad(&d, plo, phi);
        int want = (plo || phi) && P > 1 && !hpfmap_single_block(&d);
        if (!check(&pad, set == want && d.plo == (set ? plo : 0) && d.phi == (set ? phi : 0),
                   "fmt %d n %ld k %ld P %d areas %ld:%ld: set %d", fmt, n, k, P, plo, phi, set))
            continue;
        long kk = d.plo + k + d.phi;
        for (long t = lb; t < lb + n; t++) {
            int o = hpfmap_owner(&d, t);
            long l = hpfmap_local(&d, t), x = (l - 1) % kk;
            check(&loc, o >= 0 && l >= 1 && l <= hpfmap_local_extent(&d, o) && x >= d.plo
                  && x < d.plo + k && hpfmap_global(&d, o, l) == t,
                  "n %ld k %ld P %d areas %ld:%ld cell %ld: owner %d local %ld", n, k, P,
                  d.plo, d.phi, t, o, l);
        }
        for (int p = 0; set && p < P; p++) {
            long nb = hpfmap_local_extent(&d, p) / kk;
            for (long b = 0; b < nb; b++) {
                long first = lb + (b * P + p) * k;
                for (long j = 1; j <= d.plo; j++)
                    check(&area, hpfmap_global(&d, p, b * kk + d.plo - j + 1) == first - j,
                          "P %d p %d block %ld below %ld", P, p, b, j);
                for (long j = 0; j < d.phi; j++)
                    check(&area, hpfmap_global(&d, p, b * kk + d.plo + k + j + 1) == first + k + j,
                          "P %d p %d block %ld above %ld", P, p, b, j);
            }
            HpfSeg sg[64];
            long lo = lb + rand() % (n + 1), hi = lo + rand() % (n + 1);
            long ns = hpfmap_segments(&d, p, 1, 0, lo, hi, 1, sg, 64);
            for (long i = 0; i < ns && i < 64; i++)
                for (long it = sg[i].i1, l = sg[i].l1; it <= sg[i].i2; it += sg[i].is, l += sg[i].ls)
                    check(&seg, hpfmap_local(&d, it) == l, "P %d p %d i %ld: l %ld, local %ld", P,
                          p, it, l, hpfmap_local(&d, it));
            for (int dir = 0; dir < 2; dir++) {
                long w = 1 + rand() % k, a = lb - 2 + rand() % (n + 4), z = a + rand() % (n + 2);
                long runs, want_runs = 0, want = 0, nblk = (n + k - 1) / k;
                long cells = hpfmap_block_shift(&d, p, dir, w, a, z, &runs);
                for (long G = p; G < nblk; G += P) {
                    if (dir == 0 ? G + 1 >= nblk : G == 0)
                        continue;
                    long c = 0;
                    for (long j = 0; j < w; j++) {
                        long t = lb + G * k + (dir == 0 ? k - w + j : j);
                        c += t >= a && t <= z && t < lb + n;
                    }
                    want += c;
                    want_runs += c > 0;
                }
                check(&sh, cells == want && runs == want_runs,
                      "n %ld k %ld P %d p %d dir %d w %ld box %ld:%ld: %ld cells %ld runs, "
                      "want %ld %ld", n, k, P, p, dir, w, a, z, cells, runs, want, want_runs);
            }
        }
    }
    report(&pad, NULL);
    report(&loc, NULL);
    report(&area, NULL);
    report(&seg, NULL);
    report(&sh, NULL);
}

int main(void)
{
    /* A segment walk that stops advancing loops for ever; the alarm turns
     * that into a failed run instead of a hung `make check`. */
    alarm(120);
    test_dimensions();
    test_dim_init_errors();
    test_trip();
    test_extremes();
    test_grid_shape();
    test_coords();
    test_gray_placement();
    test_normal_max();
    test_pad();
    printf("1..%d\n", tap_count);
    return tap_failed ? 1 : 0;
}
