/* hpfmap.c - the HPF 1.0 data-mapping formulas declared in hpfmap.h: grid
 * shapes, block-cyclic ownership and local indices, and local iteration
 * sets. Pure C with no allocation, so the compiler, libhpfrt and the
 * predictor can all link it and agree on every number. */
#include <config.h>

#include <limits.h>
#include <math.h>
#include <stddef.h>

#include "hpfmap.h"

/* Floor and ceiling of a / b for b > 0 and any sign of a: C division
 * truncates toward zero, which is wrong for the negative offsets that
 * subscripts and lower bounds produce. */
static long floordiv(long a, long b)
{
    long q = a / b;
    if (a % b != 0 && a < 0)
        q--;
    return q;
}

static long ceildiv(long a, long b)
{
    return -floordiv(-a, b);
}

static long lmin(long a, long b)
{
    return a < b ? a : b;
}

static long lmax(long a, long b)
{
    return a > b ? a : b;
}

/* a * b for a, b >= 0, LONG_MAX when it does not fit: a block size times a
 * processor count, which can pass the largest long when the blocks are
 * larger than the template (and then only compares as "past the end"). */
static long mul_sat(long a, long b)
{
    long r;
    return __builtin_mul_overflow(a, b, &r) ? LONG_MAX : r;
}

/* a - b, saturated to [-LONG_MAX, LONG_MAX]: the distance from a subscript's
 * offset to a template bound, which can pass a long's range only when no
 * iteration can reach the template. (-LONG_MAX, not LONG_MIN, so that it can
 * be negated.) */
static long sub_sat(long a, long b)
{
    long r;
    if (__builtin_sub_overflow(a, b, &r))
        return a < b ? -LONG_MAX : LONG_MAX;
    return r == LONG_MIN ? -LONG_MAX : r;
}

/* Blocks of k cells that hold n cells, without forming n + k - 1. */
static long blocks_of(long n, long k)
{
    return n / k + (n % k != 0);
}

/* ---- processor grids ---- */

/* Search state of the balanced factorization: the best shape so far and
 * its spread (largest minus smallest factor). */
typedef struct {
    int r;
    int cur[HPFMAP_MAX_RANK];
    int best[HPFMAP_MAX_RANK];
    long best_spread;
} Factor;

/* Is f^e >= rem? Stops multiplying as soon as it is, so it cannot
 * overflow. */
static int pow_covers(long f, int e, long rem)
{
    long v = 1;
    for (int i = 0; i < e; i++) {
        v *= f;
        if (v >= rem)
            return 1;
    }
    return v >= rem;
}

/* Tries f as factor number pos (factors are chosen in non-increasing
 * order, f <= maxf); the remaining factors can only be as large as f, so f
 * must cover rem / f with them or the branch is dead. */
static void factor_try(Factor *s, int pos, long rem, long maxf, long f);

/* Exhaustive search over the non-increasing factorizations of rem into
 * the factors pos..r-1. Divisors are found by trial division up to
 * sqrt(rem), so a node costs O(sqrt(np)) and there are few nodes. */
static void factor_search(Factor *s, int pos, long rem, long maxf)
{
    if (pos == s->r - 1) {
        if (rem > maxf)
            return;
        s->cur[pos] = (int)rem;
        long spread = s->cur[0] - rem;
        int better = spread < s->best_spread;
        if (spread == s->best_spread) {
            /* Equal spread: the lexicographically smaller shape wins, so
             * the result does not depend on the search order. */
            for (int i = 0; i < s->r; i++) {
                if (s->cur[i] != s->best[i]) {
                    better = s->cur[i] < s->best[i];
                    break;
                }
            }
        }
        if (better) {
            s->best_spread = spread;
            for (int i = 0; i < s->r; i++)
                s->best[i] = s->cur[i];
        }
        return;
    }
    for (long d = 1; d * d <= rem; d++) {
        if (rem % d != 0)
            continue;
        factor_try(s, pos, rem, maxf, d);
        if (d * d != rem)
            factor_try(s, pos, rem, maxf, rem / d);
    }
}

static void factor_try(Factor *s, int pos, long rem, long maxf, long f)
{
    if (f > maxf || !pow_covers(f, s->r - pos, rem))
        return;
    if (pos > 0 && s->cur[0] - f > s->best_spread)
        return;   /* the smallest factor will be f or less: no better */
    s->cur[pos] = (int)f;
    factor_search(s, pos + 1, rem / f, f);
}

/* The declared arrangement survives only when it fits the run-time count
 * exactly; anything else gets the most balanced shape, which keeps the
 * per-dimension extents (and thus the message sizes) as even as possible.
 * "Most balanced" is the smallest spread between the largest and smallest
 * factor, the criterion of MPICH's MPI_Dims_create; among shapes with equal
 * spread the lexicographically smallest wins (20 over rank 4 is 5x2x2x1,
 * not 5x4x1x1). Open MPI's greedy version can be less balanced (72 over
 * rank 2: 12x6 where this gives 9x8). */
int hpfmap_grid_shape(int np, int r, const long *declared, int *shape)
{
    if (r == 0)
        return 0;         /* a scalar arrangement: nothing to shape or re-form */
    int given = declared != NULL;
    long prod = 1;
    for (int i = 0; given && i < r; i++) {
        if (declared[i] <= 0)
            given = 0;
        else if (declared[i] > np || prod * declared[i] > np)
            prod = (long)np + 1;   /* too many already; cannot overflow */
        else
            prod *= declared[i];
    }
    if (given && prod == np) {
        for (int i = 0; i < r; i++)
            shape[i] = (int)declared[i];
        return 0;
    }
    Factor s;
    s.r = r;
    s.best_spread = np;   /* more than any shape has: np x 1 has np - 1 */
    for (int i = 0; i < r; i++)
        s.cur[i] = s.best[i] = 1;
    factor_search(&s, 0, np, np);
    for (int i = 0; i < r; i++)
        shape[i] = s.best[i];
    return given;
}

int hpfmap_placement(int place, int r, const int *shape)
{
    if (place != HPFMAP_GRAY)
        return HPFMAP_LINEAR;
    for (int i = 0; i < r; i++)
        if (shape[i] < 1 || (shape[i] & (shape[i] - 1)) != 0)
            return HPFMAP_LINEAR;
    return HPFMAP_GRAY;
}

int hpfmap_unplace(int v, int gray)
{
    if (!gray)
        return v;
    int c = v;
    for (int s = 1; s < 32; s <<= 1)      /* the prefix XOR of the bits */
        c ^= c >> s;
    return c;
}

/* Column-major like Fortran arrays, so rank order walks the first grid
 * dimension fastest; under Gray placement every extent is a power of two,
 * so each dimension has bit fields of its own and the Gray code of the
 * coordinate goes in its field. */
void hpfmap_coords(int rank, int r, const int *shape, int place, int *coords)
{
    int gray = hpfmap_placement(place, r, shape);
    for (int i = 0; i < r; i++) {
        coords[i] = hpfmap_unplace(rank % shape[i], gray);
        rank /= shape[i];
    }
}

int hpfmap_rank(int r, const int *shape, int place, const int *coords)
{
    int gray = hpfmap_placement(place, r, shape);
    int rank = 0;
    for (int i = r - 1; i >= 0; i--)
        rank = rank * shape[i] + hpfmap_place(coords[i], gray);
    return rank;
}

/* ---- one distributed dimension ---- */

/* Every format is reduced to (P, k) here, so the rest of the module knows
 * only block-cyclic. A block larger than the template holds all of it: k is
 * then taken as n (the same ownership, local indices and counts), so that
 * the products of k below stay within a long. */
int hpfmap_dim_init(HpfDim *d, int fmt, long arg, long lb, long n, int nprocs)
{
    if (n < 0)
        return -1;
    d->lb = lb;
    d->n = n;
    d->fmt = fmt;
    d->plo = d->phi = 0;
    switch (fmt) {
    case HPFMAP_STAR:
        /* Not distributed: the grid extent, whatever it is, is not used. */
        d->nprocs = 1;
        d->k = n > 0 ? n : 1;
        return 0;
    case HPFMAP_BLOCK:
        if (nprocs < 1)
            return -1;
        d->nprocs = nprocs;
        d->k = n > 0 ? blocks_of(n, nprocs) : 1;
        return 0;
    case HPFMAP_BLOCKK:
        if (nprocs < 1 || arg < 1)
            return -1;
        d->nprocs = nprocs;
        d->k = arg > n && n > 0 ? n : arg;
        return 0;
    case HPFMAP_CYCLIC:
        if (nprocs < 1)
            return -1;
        d->nprocs = nprocs;
        d->k = arg < 1 ? 1 : arg > n && n > 0 ? n : arg;
        return 0;
    default:
        return -1;
    }
}

/* When each processor has at most one block, the compiler can use the
 * simpler BLOCK code (no loop over blocks). */
int hpfmap_single_block(const HpfDim *d)
{
    return d->n == 0 || blocks_of(d->n, d->k) <= d->nprocs;
}

/* The offset of t from the template's lower bound, or -1 when t is outside
 * it (by unsigned subtraction: t - lb need not fit a long). */
static long offset_in(const HpfDim *d, long t)
{
    if (t < d->lb)
        return -1;
    unsigned long x = (unsigned long)t - (unsigned long)d->lb;
    return x >= (unsigned long)d->n ? -1 : (long)x;
}

/* Cells outside the template belong to nobody: -1. */
int hpfmap_owner(const HpfDim *d, long t)
{
    long x = offset_in(d, t);
    if (x < 0)
        return -1;
    return (int)((x / d->k) % d->nprocs);
}

/* Local index of an offset x in [0, n): the owner's earlier blocks (one per
 * round of P blocks) come first, all full since only the last block of the
 * template can be short. */
static long local_of(const HpfDim *d, long x)
{
    long blk = x / d->k;
    return (blk / d->nprocs) * (d->plo + d->k + d->phi) + d->plo + x % d->k + 1;
}

/* Cells outside the template have no local index: 0. */
long hpfmap_local(const HpfDim *d, long t)
{
    long x = offset_in(d, t);
    if (x < 0)
        return 0;
    return local_of(d, x);
}

/* The inverse of hpfmap_local for l in 1..hpfmap_count(d, p); other l
 * follow the same formula (cells outside the template). */
long hpfmap_global(const HpfDim *d, int p, long l)
{
    long kk = d->plo + d->k + d->phi;
    long round = floordiv(l - 1, kk);
    long off = (l - 1) - round * kk - d->plo;
    return d->lb + (round * d->nprocs + p) * d->k + off;
}

int hpfmap_pad(HpfDim *d, long plo, long phi)
{
    d->plo = d->phi = 0;
    if (plo < 0 || phi < 0 || (plo == 0 && phi == 0) || d->nprocs < 2
        || hpfmap_single_block(d))
        return 0;
    d->plo = plo;
    d->phi = phi;
    return 1;
}

long hpfmap_local_extent(const HpfDim *d, int p)
{
    if (!d->plo && !d->phi)
        return hpfmap_count(d, p);
    if (p < 0 || p >= d->nprocs || d->n == 0)
        return 0;
    long nb = blocks_of(d->n, d->k);
    long mine = p < nb ? (nb - 1 - p) / d->nprocs + 1 : 0;
    return mine * (d->plo + d->k + d->phi);
}

/* Counts whole blocks of p, then takes off what the short last block
 * lacks when p holds it. */
long hpfmap_count(const HpfDim *d, int p)
{
    if (p < 0 || p >= d->nprocs || d->n == 0)
        return 0;
    long nb = blocks_of(d->n, d->k);
    if (p >= nb)
        return 0;
    long mine = (nb - 1 - p) / d->nprocs + 1;
    /* p's blocks are full but the template's last, which is short by
       nb*k - n (formed as the cells past the last full block's end) */
    if ((nb - 1) % d->nprocs == p)
        return (mine - 1) * d->k + (d->n - (nb - 1) * d->k);
    return mine * d->k;
}

long hpfmap_count_range(const HpfDim *d, int p, long t1, long t2)
{
    if (p < 0 || p >= d->nprocs)
        return 0;
    /* cells lb .. lb+n-1 only; then those of [0, x) owned by p: a round of
       P blocks of k gives each processor k, the partial round what is
       left past p's place in it */
    if (t2 < d->lb || t1 > t2)
        return 0;
    long lo = t1 < d->lb ? 0 : sub_sat(t1, d->lb), hi = sub_sat(t2, d->lb);
    if (hi > d->n - 1)
        hi = d->n - 1;
    if (lo > hi)
        return 0;
    /* (saturated: a round longer than the template is never completed) */
    long round = mul_sat(d->k, d->nprocs), mine = mul_sat(p, d->k);
    long below_hi, below_lo;
    {
        long x = hi + 1, r = x % round - mine;
        below_hi = x / round * d->k + (r < 0 ? 0 : r > d->k ? d->k : r);
    }
    {
        long x = lo, r = x % round - mine;
        below_lo = x / round * d->k + (r < 0 ? 0 : r > d->k ? d->k : r);
    }
    return below_hi - below_lo;
}

/* Processor 0 gets the first block of every round, and when it also gets
 * the short last one, that round is one more than the others have. So it
 * always owns the most; this sizes the local arrays. */
long hpfmap_count_max(const HpfDim *d)
{
    return hpfmap_count(d, 0);
}

/* ---- local iteration sets ---- */

/* Fortran's max(0, (hi - lo + st) / st), arranged so that it cannot
 * overflow; a zero stride (not valid Fortran) counts as empty. */
long hpfmap_trip(long lo, long hi, long st)
{
    /* in unsigned arithmetic: hi - lo and -st overflow a long at the ends of
       its range; a count above LONG_MAX is LONG_MAX */
    unsigned long d, s, q;
    if (st > 0) {
        if (hi < lo)
            return 0;
        d = (unsigned long)hi - (unsigned long)lo;
        s = (unsigned long)st;
    } else if (st < 0) {
        if (lo < hi)
            return 0;
        d = (unsigned long)lo - (unsigned long)hi;
        s = (unsigned long)(-(st + 1)) + 1;
    } else {
        return 0;
    }
    q = d / s;
    return q >= (unsigned long)LONG_MAX ? LONG_MAX : (long)(q + 1);
}

/* Collects segments as the block walk produces them, merging each into the
 * previous one when it continues both progressions, and counting what it
 * cannot store. A one-element segment has no stride of its own; the next
 * element gives it one. */
typedef struct {
    HpfSeg *out;
    long max;
    long total;          /* segments finished so far */
    int open;            /* cur holds an unfinished segment */
    HpfSeg cur;
    long cnt;            /* elements of cur */
} SegSink;

/* Finishes the open segment: stored while the buffer has room, counted
 * always, so the caller learns how large a buffer it needs. */
static void sink_flush(SegSink *k)
{
    if (!k->open)
        return;
    if (k->out && k->total < k->max)
        k->out[k->total] = k->cur;
    k->total++;
    k->open = 0;
}

/* Adds a segment of cnt elements. It extends the open one when its first
 * element is the open one's next and the strides agree; a one-element open
 * segment takes its strides from the distance to the new first element. */
static void sink_add(SegSink *k, HpfSeg s, long cnt)
{
    if (k->open) {
        HpfSeg *c = &k->cur;
        if (k->cnt == 1) {
            long di = s.i1 - c->i1, dl = s.l1 - c->l1;
            if (cnt == 1 || (s.is == di && s.ls == dl)) {
                c->is = di;
                c->ls = dl;
                c->i2 = s.i2;
                k->cnt += cnt;
                return;
            }
        } else if (s.i1 == c->i2 + c->is
                   && s.l1 == c->l1 + k->cnt * c->ls
                   && (cnt == 1 || (s.is == c->is && s.ls == c->ls))) {
            c->i2 = s.i2;
            k->cnt += cnt;
            return;
        }
        sink_flush(k);
    }
    k->cur = s;
    k->cnt = cnt;
    k->open = 1;
}

/* The walk over the blocks. The iterations left are j = 0..je, with the
 * template offset x = xs + j*A of each; they go in increasing j (= i),
 * which runs the cells upward when A > 0 and downward when A < 0. Each
 * step either emits the part of an owned block that the iterations meet,
 * or jumps to the first iteration at or past p's next block in the
 * direction of travel; a jump consumes at least one iteration and one of
 * p's blocks, so the cost is bounded by the blocks met plus the smaller of
 * the iterations and p's blocks in the range. */
static void walk_blocks(const HpfDim *d, int p, long xs, long A, long je,
                        long ifirst, long s, SegSink *sink)
{
    long k = d->k, P = d->nprocs, n = d->n, nblk = blocks_of(n, k);
    long j = 0;
    while (j <= je) {
        long x = xs + j * A;
        long blk = x / k;
        long q = blk % P;
        long jh;
        if (A > 0) {
            if (q != p) {
                long nb = blk + (p - q + P) % P;
                if (nb >= nblk)
                    break;
                j = ceildiv(nb * k - xs, A);
                continue;
            }
            jh = lmin(je, floordiv(lmin(blk * k + k - 1, n - 1) - xs, A));
        } else {
            if (q != p) {
                long pb = blk - (q - p + P) % P;
                if (pb < 0)
                    break;
                j = ceildiv(xs - lmin(pb * k + k - 1, n - 1), -A);
                continue;
            }
            jh = lmin(je, floordiv(xs - blk * k, -A));
        }
        HpfSeg seg;
        seg.i1 = ifirst + j * s;
        seg.i2 = ifirst + jh * s;
        seg.is = s;
        seg.l1 = local_of(d, x);
        seg.ls = jh > j ? A : 0;
        sink_add(sink, seg, jh - j + 1);
        j = jh + 1;
    }
}

/* Normalises the triplet to an ascending progression, clips it to the
 * iterations whose cells fall in the template (by division, so that a*i is
 * formed only for such i and cannot overflow), and walks p's blocks. */
long hpfmap_segments(const HpfDim *d, int p, long a, long b,
                     long lo, long hi, long st, HpfSeg *out, long max)
{
    SegSink sink = { out, max, 0, 0, { 0, 0, 0, 0, 0 }, 0 };
    long m = hpfmap_trip(lo, hi, st);
    if (m == 0 || d->n == 0 || p < 0 || p >= d->nprocs)
        return 0;
    long s = st > 0 ? st : -st;
    long i0 = st > 0 ? lo : lo + (m - 1) * st;   /* smallest iteration */

    if (a == 0) {
        if (hpfmap_owner(d, b) != p)
            return 0;
        HpfSeg seg = { i0, i0 + (m - 1) * s, s, hpfmap_local(d, b), 0 };
        sink_add(&sink, seg, 1);
        sink_flush(&sink);
        return sink.total;
    }

    /* Iterations whose cell lies in [lb, lb + n - 1]. */
    long tl = d->lb, th = d->lb + (d->n - 1);
    long ilo, ihi;
    /* (a distance past a long's range on the far side of every iteration
       means that none reaches the template; on the near side it is
       saturated, still past every iteration) */
    long dlo, dhi;
    if (a > 0 ? __builtin_sub_overflow(tl, b, &dlo) : __builtin_sub_overflow(b, th, &dlo)) {
        if (a > 0 ? tl > b : b > th)
            return 0;
        dlo = -LONG_MAX;
    }
    if (a > 0 ? __builtin_sub_overflow(th, b, &dhi) : __builtin_sub_overflow(b, tl, &dhi)) {
        if (a > 0 ? th < b : b < tl)
            return 0;
        dhi = LONG_MAX;
    }
    dlo = lmax(dlo, -LONG_MAX);
    long aa = a > 0 ? a : -a;
    ilo = ceildiv(dlo, aa);
    ihi = floordiv(dhi, aa);
    long js = lmax(0, ceildiv(sub_sat(ilo, i0), s));
    long je = lmin(m - 1, floordiv(sub_sat(ihi, i0), s));
    if (js > je)
        return 0;
    long ifirst = i0 + js * s;
    /* the cell's offset is in [0, n): formed modulo 2^64, where a*ifirst
       alone may not fit */
    long xs = (long)((unsigned long)a * (unsigned long)ifirst + (unsigned long)b
                     - (unsigned long)d->lb);
    if (js == je) {
        /* One iteration: no stride to walk (and a*s may not even fit). */
        if ((xs / d->k) % d->nprocs == p) {
            HpfSeg seg = { ifirst, ifirst, s, local_of(d, xs), 0 };
            sink_add(&sink, seg, 1);
        }
    } else {
        /* Two iterations hit the template, so |a*s| < n: no overflow. */
        walk_blocks(d, p, xs, a * s, je - js, ifirst, s, &sink);
    }
    sink_flush(&sink);
    return sink.total;
}

/* Blocks G of p (G = p mod P) in [g1, g2]. */
static long blocks_of_in(long p, long P, long g1, long g2)
{
    if (g1 < 0)
        g1 = 0;
    if (g2 < g1 || g2 < p)
        return 0;
    long below = g1 <= p ? 0 : (g1 - 1 - p) / P + 1;   /* those in [0, g1) */
    return (g2 - p) / P + 1 - below;
}

/* The cells of block G that go in direction dir, within lo..hi. */
static long block_part(const HpfDim *d, long G, int dir, long w, long lo, long hi)
{
    long first = d->lb + G * d->k;
    long a = dir == 0 ? first + d->k - w : first, z = dir == 0 ? first + d->k - 1 : first + w - 1;
    if (a < lo)
        a = lo;
    if (z > hi)
        z = hi;
    return z >= a ? z - a + 1 : 0;
}

long hpfmap_block_shift(const HpfDim *d, int p, int dir, long w, long lo, long hi, long *runs)
{
    *runs = 0;
    long k = d->k, P = d->nprocs, nblk = blocks_of(d->n, k);
    if (lo < d->lb)
        lo = d->lb;
    if (hi > d->lb + d->n - 1)
        hi = d->lb + d->n - 1;
    if (w <= 0 || hi < lo || p < 0 || p >= P || nblk < 2)
        return 0;
    if (w > k)
        w = k;
    /* the blocks that send: dir 0, 0 .. nblk-2; dir 1, 1 .. nblk-1 */
    long v1 = dir == 0 ? 0 : 1, v2 = dir == 0 ? nblk - 2 : nblk - 1;
    /* ... all w of their cells within lo..hi: ga .. gb */
    long ga = ceildiv(lo - d->lb - (dir == 0 ? k - w : 0), k);
    long gb = floordiv(hi - d->lb - (dir == 0 ? k - 1 : w - 1), k);
    if (ga < v1)
        ga = v1;
    if (gb > v2)
        gb = v2;
    long cells = 0;
    if (ga <= gb) {
        long m = blocks_of_in(p, P, ga, gb);
        cells = m * w;
        *runs = m;
    }
    /* the blocks with only a part of it there: next to ga .. gb (when
       ga > gb, the one or two blocks the range lies across) */
    long e1 = ga - 1 < gb + 1 ? ga - 1 : gb + 1, e2 = ga - 1 > gb + 1 ? ga - 1 : gb + 1;
    for (long G = e1; G <= e2; G++) {
        if (G >= ga && G <= gb) {
            G = gb;              /* (the whole ones, counted above) */
            continue;
        }
        if (G < v1 || G > v2 || G % P != p)
            continue;
        long c = block_part(d, G, dir, w, lo, hi);
        if (c) {
            cells += c;
            (*runs)++;
        }
    }
    return cells;
}

double hpfmap_normal_max(long p)
{
    /* exact values to 8 (Tippett's tables); beyond, Blom's approximation
       Phi^-1((p - 0.375) / (p + 0.25)), within 1% there, with the upper
       tail's inverse of Abramowitz and Stegun 26.2.23 (error < 4.5e-4) */
    static const double small[] = {0, 0, 0.5642, 0.8463, 1.0294, 1.1630, 1.2672, 1.3522, 1.4236};
    if (p <= 8)
        return p < 0 ? 0 : small[p];
    double tail = 0.625 / ((double)p + 0.25), t = sqrt(-2 * log(tail));
    return t - (2.515517 + 0.802853 * t + 0.010328 * t * t) /
                   (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t);
}
