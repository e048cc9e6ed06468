/* hpfrt.h - libhpfrt, the run-time library of the SPMD programs that hpfc
 * writes: processor arrangements, templates and distributed-array
 * descriptors, local iteration sets, communication (overlap shifts, gathers,
 * broadcasts, reductions), I/O through one process and timers per source
 * region, on MPI.
 *
 * Every entry point is callable from Fortran with an implicit interface:
 * the C names end in an underscore (the gfortran and Intel convention on
 * Linux), every argument is passed by reference, and a CHARACTER argument
 * adds its length as a hidden size_t at the end of the list. Handles are
 * default INTEGERs (C int), numbered from 1. Routines that move data come
 * in one version per type, named by a suffix, so that a Fortran caller
 * never passes two types to one routine:
 *   _i4 INTEGER(4)  _i8 INTEGER(8)  _r4 REAL(4)  _r8 REAL(8)
 *   _c4 COMPLEX(4)  _c8 COMPLEX(8)  _l4 LOGICAL(4)
 * Arrays are passed by their first element (sequence association), so
 * that every actual argument is a scalar as far as Fortran sees.
 *
 * Communication routines are collective: every process calls them, in the
 * same order, with the same array handle (the loosely synchronous model).
 * On a usage error the library prints "hpfrt: error: ..." on stderr and
 * ends the whole run with exit status 1.
 *
 * The ownership, local index and iteration-set formulas are those of
 * hpfmap.h (one implementation for compiler, run time and predictor). */
#ifndef HPFRT_H
#define HPFRT_H

#include <stddef.h>

#define HPFRT_F(name) name##_

/* Reduction operators (hpfrt_reduce_*). */
enum { HPFRT_SUM = 1, HPFRT_PRODUCT = 2, HPFRT_MAX = 3, HPFRT_MIN = 4,
       HPFRT_AND = 5, HPFRT_OR = 6 };

/* ---- start and end ---------------------------------------------------- */

void hpfrt_init_(void);        /* MPI_Init when not yet initialized */
void hpfrt_finalize_(void);    /* profile output (HPFRT_PROFILE), MPI_Finalize */
int hpfrt_nprocs_(void);       /* processes of the run */
int hpfrt_rank_(void);         /* this process, 0-based */
int hpfrt_ioproc_(void);       /* 1 on the process that does the I/O, else 0 */
void hpfrt_abort_(const char *msg, size_t len);   /* error message, exit 1 */
void hpfrt_barrier_(void);

/* ---- processor arrangements ------------------------------------------- */

/* A named arrangement of rank r; each dimension's declared extent (<= 0:
 * NUMBER_OF_PROCESSORS(), the run-time count). Commit re-forms it for the
 * run-time process count by hpfmap_grid_shape and, when the shape changed,
 * prints on the I/O process:
 *   hpfrt: note: processor arrangement 'prc(2,2)' re-formed as 4x2 for 8 processes */
void hpfrt_procs_new_(int *hp, const int *r, const char *name, size_t len);
/* The arrangement is no longer used (its procedure returns; the templates
 * committed onto it keep their grids); its handle is reused, *hp set to 0. */
void hpfrt_procs_free_(int *hp);
void hpfrt_procs_dim_(const int *hp, const int *d, const int *extent);
void hpfrt_procs_commit_(const int *hp);

/* ---- templates ----------------------------------------------------------- */

/* A template of rank r; each dimension has bounds lb:ub and a format
 * (HPFMAP_STAR, _BLOCK, _BLOCKK, _CYCLIC) with its k. Commit distributes it
 * onto arrangement hp (0: the default 1-D arrangement of all processes);
 * the distributed dimensions take the grid dimensions in order and their
 * number must equal the arrangement's rank. */
void hpfrt_tmpl_new_(int *ht, const int *r, const char *name, size_t len);
void hpfrt_tmpl_dim_(const int *ht, const int *d, const int *lb, const int *ub,
                     const int *fmt, const int *k);
/* Overlap areas of lo cells before and hi after every block of dimension
 * d (hpfmap_pad), for the overlap shifts of arrays aligned with it: they
 * take effect at the commit when the dimension has several blocks a
 * process (CYCLIC(k), BLOCK(k) wrapping round) on more than one process;
 * every array aligned with d then has them as its ghost widths along it,
 * whatever hpfrt_arr_dim gave (so that the arrays share local indices).
 * Otherwise nothing: the arrays' own ghost widths apply. */
void hpfrt_tmpl_ghost_(const int *ht, const int *d, const int *lo, const int *hi);
void hpfrt_tmpl_commit_(const int *ht, const int *hp);
/* The template is no longer laid out anew (the DEALLOCATE of the ALLOCATABLE
 * array it was made for): freed, now or with the last array on it, and its
 * handle reused; *ht is set to 0. */
void hpfrt_tmpl_free_(int *ht);

/* ---- distributed arrays ---------------------------------------------------- */

/* An array of rank r with elements of esize bytes, mapped onto template ht
 * (0: not mapped, a full copy on every process). For each dimension d:
 * bounds lb:ub; tdim, the distributed template dimension it is aligned with
 * (cell = alpha*i + beta), or 0 when the dimension is local (collapsed, or
 * aligned with a '*' dimension): then every holder stores all of lb:ub; and
 * the ghost widths glo, ghi (cells below and above the owned ones, for
 * overlap shifts: past the one block of a single-block dimension, or, for
 * a dimension of several blocks a process, the template's overlap areas
 * around each block, hpfrt_tmpl_ghost, which replace them).
 * A distributed template dimension that no array dimension is aligned with
 * replicates the array along its grid dimension, unless hpfrt_arr_fix puts
 * the array at one cell of it (a constant align subscript).
 * Local storage of a distributed dimension is indexed by the local index of
 * the template cell (hpfmap_local), so arrays aligned with one template
 * share local indices; for a single-block dimension, local index l denotes
 * cell lb + p*k + l - 1 also outside 1..count (the ghost cells); with
 * overlap areas, the slots around each block denote the cells next to it
 * (hpfmap_global), and the local range is 1 .. blocks * (lo + k + hi). */
void hpfrt_arr_new_(int *ha, const int *ht, const int *r, const int *esize,
                    const char *name, size_t len);
void hpfrt_arr_dim_(const int *ha, const int *d, const int *lb, const int *ub,
                    const int *tdim, const int *alpha, const int *beta,
                    const int *glo, const int *ghi);
void hpfrt_arr_fix_(const int *ha, const int *tdim, const int *cell);
void hpfrt_arr_commit_(const int *ha);
void hpfrt_arr_free_(const int *ha);   /* DEALLOCATE; the handle may be reused */
/* A procedure's check that the descriptor of a mapped dummy came along
 * with it: a committed array's, of rank r. */
void hpfrt_arr_check_(const int *ha, const int *r);
/* ... and that dimension d of it has the bounds lb:ub of the dummy (an
 * ALLOCATABLE actual, whose bounds hpfc did not know). */
void hpfrt_arr_bounds_(const int *ha, const int *d, const int *lb, const int *ub);
/* The global extent of dimension d of the array: an assumed-shape dummy's,
 * passed a mapped ALLOCATABLE array. */
int hpfrt_extent_(const int *ha, const int *d);
/* The alignment offset beta of dimension d (cell = alpha*i + beta): a dummy's
 * whose actual's is known at run time only. */
int hpfrt_beta_(const int *ha, const int *d);

/* Local allocation bounds of dimension d, ghosts included: lb:ub for a
 * local dimension, 1-glo : count+ghi for a distributed one; never empty
 * (hi >= lo), so that the local array always has a first element. */
int hpfrt_lo_(const int *ha, const int *d);
int hpfrt_hi_(const int *ha, const int *d);

int hpfrt_present_(const int *ha);   /* this process holds a part of the array */
int hpfrt_primary_(const int *ha);   /* ... and is the first copy: coordinate 0
                                        along every grid dimension the array
                                        is replicated on (rank 0 for an
                                        unmapped array): reductions count
                                        each element once */
int hpfrt_mine_(const int *ha, const int *d, const int *i);  /* index i of dim d
                                        is held here (owned, not a ghost) */
int hpfrt_g2l_(const int *ha, const int *d, const int *i);   /* its local index */
/* On a process holding dimension d whole in one stretch (a local
 * dimension, or a distributed one on a grid dimension of one process),
 * the local index of subscript i is y*i + z: sets y and z. */
void hpfrt_lin_(const int *ha, const int *d, int *y, int *z);
int hpfrt_i4_(const long long *x);   /* an INTEGER(8) value as the default
                                        INTEGER the calls above take; stops
                                        the program when it does not fit */

/* ---- local iteration sets ----------------------------------------------- */

/* The iterations i of lo:hi:st for which index a*i + b of dimension d of
 * array ha is owned here (hpfmap_segments; none when the process does not
 * hold the array). Returns a handle lp to a memoized table, valid until
 * hpfrt_finalize; a call with the same arguments returns the same table.
 * The caller loops over segments s = 1..hpfrt_nseg(lp):
 *   call hpfrt_seg(lp, s, i1, i2, is, l1, ls)
 *   do i = i1, i2, is   ! local index l1, l1+ls, ...   */
void hpfrt_loop_(int *lp, const int *ha, const int *d, const int *a, const int *b,
                 const int *lo, const int *hi, const int *st);
int hpfrt_nseg_(const int *lp);
int hpfrt_ntrip_(const int *lp);     /* iterations in all segments */
void hpfrt_seg_(const int *lp, const int *s, int *i1, int *i2, int *is,
                int *l1, int *ls);
/* All segments at once, for a loop nested in another (the emitted code
 * reads them from the table at every entry): q(1) = the count, then
 * i1, i2, is, l1, ls of segment s at q(5*s - 3 .. 5*s + 1); cap, the
 * table's size, at least 1 + 5 * hpfrt_nseg(lp). */
void hpfrt_segs_(const int *lp, int *q, const int *cap);

/* ---- communication, one version per type suffix ------------------------- */

/* For each type T in i4 i8 r4 r8 c4 c8 l4 (the element type of x):
 *
 * hpfrt_overlap_T(ha, x, d, wlo, whi, lo, hi, ext)
 *     overlap shift: fill wlo ghost cells below and whi above the owned
 *     cells of dimension d of the local array x (its first element) from
 *     the neighbours along the grid dimension, those of the box lo(e) ..
 *     hi(e) (global subscripts, e = 1..r; -huge(0) .. huge(0): the whole
 *     dimension) that the statement reads: in dimension d the ghost cells
 *     in lo(d)..hi(d); in each other one the positions within the box
 *     from ext(2e-1) cells below the process's block to ext(2e) above it
 *     (the ghost cells of that dimension it reads; 0, 0: none), within
 *     the allocated range (so calls for dimensions in increasing order
 *     also fill the corners that are read). Neighbour send/receive when
 *     every block is at least as wide as the shift; otherwise a general
 *     fill from owners. A dimension e that is not one block a process
 *     keeps its whole range. Along a dimension of several blocks a
 *     process (overlap areas around each block), one message each way
 *     to each neighbour holds the cells of all the blocks: the top cells
 *     of each block go to the next block's area below, on the next
 *     process (the last process's to the first's, one round on), the
 *     bottom cells to the previous block's area above.
 * hpfrt_gather_T(ha, x, n, idx, buf)
 *     buf(k) = the element at global indices idx(1:r, k), k = 1..n, read
 *     from x where this process holds it, otherwise fetched from an owner
 *     (inspector: requests grouped per owner, counts by MPI_Alltoall;
 *     executor: requests and replies to and from those partners only).
 * hpfrt_gathers_T(ha, x, n, idx, buf, hs, hh, inv)
 *     the same, through a schedule kept at the call site, whose handle hs
 *     (an INTEGER the site keeps, 0 before its first call) the library
 *     sets: the inspector runs only when the index vector (on some
 *     process) or the array's mapping differs from those of the site's
 *     last 16 schedules; the executor then sends only the replies. inv = 1
 *     says that the index vector depends only on the mappings of ha and of
 *     the loop's home array hh (0: none), so that a schedule made for the
 *     same commits of both is used without an MPI_Allreduce; inv = 2: the
 *     same, and the index vector was not recorded (idx is not read), since
 *     hpfrt_kept found the schedule.
 * hpfrt_kept(hs, ha, hh)
 *     the element count of the schedule kept at invariant site hs for the
 *     present commits of arrays ha and hh (and the site's key), or -1 when
 *     there is none (the caller then records the index vector and calls
 *     with inv = 1).
 * hpfrt_gkey(hs, key, m)
 *     the key of site hs for the calls that follow: m INTEGER(8) values
 *     (0 <= m <= 8) of the scalars its index vector depends on besides the
 *     mappings (x(ipnt + 2*i): ipnt), the same on every process. An
 *     invariant site (inv = 1 or 2) keeps a schedule per key: one is used
 *     when the commits and the key are those it was made for. Sets hs at
 *     the site's first call, as hpfrt_gathers_T does.
 * hpfrt_scatter_T(ha, x, n, idx, buf)
 *     the element at global indices idx(1:r, k) = buf(k), k = 1..n, on every
 *     process that holds it (all copies of a replicated one): the executor
 *     of a FORALL whose left-hand side goes through an index vector. Each
 *     pair travels to the element's holders (counts by MPI_Alltoall, then
 *     to and from the partners with nonzero counts only).
 * hpfrt_bcast_T(ha, x, idx, val)
 *     val = the element at global indices idx(1:r), on every process,
 *     broadcast from its lowest-ranked holder.
 * hpfrt_reduce_T(val, op)
 *     val = op over all processes of val (HPFRT_SUM ... HPFRT_OR; AND and OR
 *     for _l4 only, MAX and MIN not for complex).
 * hpfrt_reducev_T(buf, n, op)
 *     the same, element by element, for n values.
 * hpfrt_bcastio_T(buf, n)
 *     n values broadcast from the I/O process (data read there).
 */
#define HPFRT_TYPES(X) X(i4, int) X(i8, long long) X(r4, float) X(r8, double) \
    X(c4, float _Complex) X(c8, double _Complex) X(l4, int)

#define HPFRT_DECLARE(T, C) \
    void hpfrt_overlap_##T##_(const int *ha, C *x, const int *d, const int *wlo, \
                              const int *whi, const int *lo, const int *hi, \
                              const int *ext); \
    void hpfrt_gather_##T##_(const int *ha, const C *x, const int *n, const int *idx, \
                             C *buf); \
    void hpfrt_gathers_##T##_(const int *ha, const C *x, const int *n, const int *idx, \
                              C *buf, int *hs, const int *hh, const int *inv); \
    void hpfrt_scatter_##T##_(const int *ha, C *x, const int *n, const int *idx, \
                              const C *buf); \
    void hpfrt_bcast_##T##_(const int *ha, const C *x, const int *idx, C *val); \
    void hpfrt_reduce_##T##_(C *val, const int *op); \
    void hpfrt_reducev_##T##_(C *buf, const int *n, const int *op); \
    void hpfrt_bcastio_##T##_(C *buf, const int *n);
HPFRT_TYPES(HPFRT_DECLARE)
#undef HPFRT_DECLARE
int hpfrt_kept_(const int *hs, const int *ha, const int *hh);
void hpfrt_gkey_(int *hs, const long long *key, const int *m);
/* hpfrt_bcastio_ch(buf, n): n CHARACTER values, as hpfrt_bcastio_T */
void hpfrt_bcastio_ch_(char *buf, const int *n, size_t len);

/* MAXLOC / MINLOC (op HPFRT_MAX or HPFRT_MIN), for i4 i8 r4 r8: val is this
 * process's extreme and loc(1:r) its global indices (loc(1) = 0 on a process
 * that had no element); afterwards every process holds the global extreme
 * and the indices of its first occurrence in array element order. */
void hpfrt_reduceloc_i4_(int *val, int *loc, const int *r, const int *op);
void hpfrt_reduceloc_i8_(long long *val, int *loc, const int *r, const int *op);
void hpfrt_reduceloc_r4_(float *val, int *loc, const int *r, const int *op);
void hpfrt_reduceloc_r8_(double *val, int *loc, const int *r, const int *op);

/* ---- timers per source region ----------------------------------------- */

/* Regions are the source lines of the statements hpfc lowered. Time between
 * begin and end is the region's; the part spent inside communication calls
 * is its communication. With HPFRT_PROFILE=FILE in the environment,
 * hpfrt_finalize writes FILE as CSV (one row per region: line, calls, then
 * total and communication seconds, as maximum and mean over processes); the
 * format is documented in doc/runtime.md. Without HPFRT_PROFILE the calls
 * only check the nesting: no clock is read. */
/* One of the values the program was compiled with ("n=256", a PARAMETER
 * hpfc -D set): written at the head of the profile (HPFRT_PROFILE), for
 * hpfpredict --fit. */
void hpfrt_values_(const char *text, size_t len);
/* The iterations of a level of the statement whose region is innermost
 * that the run time does not lay out itself (a level not distributed;
 * hpfrt_loop counts the others): the region's iteration count in the
 * profile is, per execution, the product of its levels'. */
void hpfrt_region_trips_(const double *n);   /* DOUBLE PRECISION: any kind of bounds */
void hpfrt_region_begin_(const int *line);
/* After each iteration of a DO loop of the main program's own statements
 * (hpfc emits `if (hpfrt_probe_next(LINE) /= 0) exit` at the end of its
 * body): 1 when a software probe (HPFRT_PROBE, doc/probes.md) leaves the
 * loop there, its remaining iterations not needed; 0 otherwise, and always
 * without a probe. */
int hpfrt_probe_next_(const int *line);
/* The synthetic probe hpfc --probe writes: at its start, the fingerprint
 * of the phases and the processes they were found for; then each phase's
 * block of statements runs while hpfrt_probe_again returns 1: a first
 * pass, then enough repetitions to last HPFRT_PROBE_MIN seconds (default
 * 0.05), timed in five rounds; the time of one in the median round, scaled
 * from the region entries it made to
 * execs (the executions of the block's statements in the representative
 * interval), is the phase's. The times are written at hpfrt_finalize as a
 * probe's (probe-times.csv or HPFRT_PROBE_OUT). */
void hpfrt_probe_synth_(const char *fp, const int *np, size_t len);
int hpfrt_probe_again_(const int *phase, const double *rep_work, const double *phase_work,
                       const double *execs);
/* A phase the synthetic probe has no statement of (its work in procedures
 * or scalar code): written with a time of -1, estimated from the others. */
void hpfrt_probe_unmeasured_(const int *phase, const double *rep_work, const double *phase_work);
void hpfrt_region_end_(const int *line);

#endif
