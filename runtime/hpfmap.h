/* hpfmap.h - the data-mapping formulas of HPF 1.0: processor grids,
 * ownership, local indices and local iteration sets. One implementation,
 * called by the compiler, by libhpfrt at run time and by the predictor, so
 * that what is predicted is what runs. Pure C: no MPI, no allocation. */
#ifndef HPFMAP_H
#define HPFMAP_H

enum { HPFMAP_MAX_RANK = 7 };

/* Distribution formats of one template dimension. */
enum {
    HPFMAP_STAR = 0,     /* '*': not distributed, every processor holds it all */
    HPFMAP_BLOCK = 1,    /* BLOCK: one block of ceil(N/P) per processor */
    HPFMAP_BLOCKK = 2,   /* BLOCK(k) */
    HPFMAP_CYCLIC = 3    /* CYCLIC(k); CYCLIC is CYCLIC(1) */
};

/* Re-forming a processor arrangement for the run-time count (design rule,
 * documented in doc/spmd.md): an arrangement of rank r declared with extents
 * e[0..r-1] is kept when their product equals np; otherwise (or when
 * declared is NULL, or an extent is <= 0, meaning "the run-time count") it
 * becomes the most balanced factorization of np into r factors, in
 * non-increasing order (the rule of MPI_Dims_create): 8 over rank 2 is 4x2,
 * 2 is 2x1, 1 is 1x1, 12 over rank 3 is 3x2x2. np >= 1, 1 <= r <= 7.
 * Writes shape[0..r-1]; returns 1 when the shape differs from the declared
 * one (the caller prints a note), 0 when kept. */
int hpfmap_grid_shape(int np, int r, const long *declared, int *shape);

/* The placement of a grid's processes on the machine's nodes (a process's
 * rank is its node): HPFMAP_LINEAR puts the process of coordinates c on the
 * rank of c in column-major order, the first grid dimension varying fastest;
 * HPFMAP_GRAY on the rank whose bits are the Gray codes of the coordinates,
 * the first dimension in the lowest bits, so that grid neighbours are
 * hypercube neighbours (one bit apart). Gray placement needs every extent a
 * power of two (the ranks are then 0 .. np-1); for any other shape it is
 * linear. The placement is the machine's (net.placement in the SAG,
 * HPFRT_PLACEMENT at run time). */
enum { HPFMAP_LINEAR = 0, HPFMAP_GRAY = 1 };

/* The placement that applies to a grid of this shape: HPFMAP_GRAY when
 * asked for and every extent is a power of two, otherwise HPFMAP_LINEAR. */
int hpfmap_placement(int place, int r, const int *shape);

/* Grid coordinates (0-based) of a process and back under placement `place`
 * (as asked: the functions apply hpfmap_placement themselves). */
void hpfmap_coords(int rank, int r, const int *shape, int place, int *coords);
int hpfmap_rank(int r, const int *shape, int place, const int *coords);

/* One coordinate's part of the rank: the rank is the sum over the grid
 * dimensions of hpfmap_place(c[d], gray) times the product of the extents
 * before d (gray: what hpfmap_placement gave). And back. */
static inline int hpfmap_place(int c, int gray)
{
    return gray ? c ^ (c >> 1) : c;
}
int hpfmap_unplace(int v, int gray);

/* One template dimension distributed over P processors. Every format is
 * block-cyclic with block size k: block b (0-based) of the cells
 * lb + b*k .. lb + b*k + k - 1 goes to processor b mod P, which stores its
 * blocks one after another. BLOCK is k = ceil(N/P) (1 when N = 0), so each
 * processor has at most one block; BLOCK(k) is the same with the given k
 * (when k*P < N, as can happen when the arrangement was re-formed for fewer
 * processes, it wraps round like CYCLIC(k): single_block then says 0);
 * '*' is P = 1, k = N. */
typedef struct {
    long lb;             /* first template cell */
    long n;              /* number of cells (>= 0) */
    int nprocs;          /* P, the extent of the grid dimension (1 for '*') */
    long k;              /* block size (>= 1) */
    int fmt;             /* HPFMAP_* as given */
    long plo, phi;       /* overlap areas around every block in local storage
                            (0, 0 from hpfmap_dim_init; hpfmap_pad) */
} HpfDim;

/* Fills d; fmt HPFMAP_BLOCK ignores arg, HPFMAP_BLOCKK and HPFMAP_CYCLIC
 * take k = arg (arg <= 0 means 1 for CYCLIC). Returns 0, or -1 for bad
 * arguments (P < 1, n < 0, k < 1 for BLOCKK). */
int hpfmap_dim_init(HpfDim *d, int fmt, long arg, long lb, long n, int nprocs);

int hpfmap_single_block(const HpfDim *d);       /* k*P >= n */

/* Overlap areas around each block of a dimension with several blocks a
 * processor (CYCLIC(k), BLOCK(k) that wraps round): each block of k cells
 * is stored with plo cells before it and phi after it (local block b,
 * 0-based, at local indices b*(plo+k+phi) + 1 ..), which hold copies of
 * the cells next to the block, owned by the neighbouring processors, so
 * that a constant offset from a cell reaches them by the same offset of
 * its local index. A dimension of one block a processor, or of one
 * processor, keeps plo = phi = 0: its ghost cells, if any, lie outside
 * 1..count (hpfrt.h's convention) or outside the template. Returns 1 when
 * the areas were set, 0 when the dimension takes none. */
int hpfmap_pad(HpfDim *d, long plo, long phi);
/* The local index one past the storage of p's blocks, areas included
 * (minus one: the local extent), for a padded dimension; hpfmap_count for
 * any other. */
long hpfmap_local_extent(const HpfDim *d, int p);
int hpfmap_owner(const HpfDim *d, long t);      /* grid coordinate 0..P-1 of cell t */
long hpfmap_local(const HpfDim *d, long t);     /* 1-based local index of cell t on its owner */
long hpfmap_global(const HpfDim *d, int p, long l);   /* cell at local index l of p
                                                          (in an overlap area: the cell
                                                          next to the block it copies) */
long hpfmap_count(const HpfDim *d, int p);      /* cells owned by p */
/* cells t1 .. t2 (of the template's) owned by p, in closed form */
long hpfmap_count_range(const HpfDim *d, int p, long t1, long t2);
long hpfmap_count_max(const HpfDim *d);         /* the most any processor owns */

/* Local iteration set. The iterations i in lo:hi:st (st != 0; Fortran
 * triplet, empty when it has no elements) whose cell t = a*i + b lies in the
 * template (lb <= t < lb+n) and is owned by processor p, as segments: in a
 * segment, i runs i1, i1+is, ..., i2 (is > 0, i1 <= i2) and the local index
 * of its cell runs l1, l1+ls, ... (ls may be 0 or negative). Segments come
 * in increasing i, do not overlap, and adjacent ones that continue each
 * other's progressions in both i and l are merged (so BLOCK gives at most
 * one segment and CYCLIC with a = +-1, st = 1 one segment of stride P).
 * a == 0 means a constant cell b: one segment holding the whole triplet
 * (ls = 0) when p owns b, none otherwise. Writes at most max segments and
 * returns how many there are (call again with a larger buffer when the
 * result exceeds max). Cost: proportional to the number of owned blocks
 * the triplet meets, not to the number of iterations. */
typedef struct {
    long i1, i2, is;     /* iterations */
    long l1, ls;         /* local index of the cell of i1, and its step */
} HpfSeg;

long hpfmap_segments(const HpfDim *d, int p, long a, long b,
                     long lo, long hi, long st, HpfSeg *out, long max);

/* The cells processor p sends in one direction of an overlap shift along
 * a dimension with overlap areas around its blocks (hpfmap_pad): dir 0,
 * the top w cells of each of its blocks that has a next block (to that
 * block's area below); dir 1, the first w cells of each that has a
 * previous one (to its area above); cells within lo..hi (and the
 * template) only. Returns the cells; *runs gets the blocks that send any.
 * Closed form: the cost does not grow with the number of blocks. */
long hpfmap_block_shift(const HpfDim *d, int p, int dir, long w, long lo, long hi,
                        long *runs);

/* Number of iterations of the triplet lo:hi:st (0 when empty). */
long hpfmap_trip(long lo, long hi, long st);

/* The expected maximum of p independent standard normal variables (0 for
 * p <= 1): how much later than the mean the last of p processes arrives
 * at a synchronization when the times they compute vary independently,
 * in standard deviations. Shared by hpfcalibrate (sync.jitter) and the
 * engine. */
double hpfmap_normal_max(long p);

#endif
