/* bbv.h - interval vectors of an interpretation (the software probes of
 * Strube, Rexachs & Luque, after SimPoint's basic block vectors; method in
 * doc/probes.md).
 *
 * The engine reports each AAU execution on the busiest processor; each
 * counts the AAU's operations (its weight, bbv_weight). The executions
 * are cut into intervals of at least N operations, each ending at the
 * entry of a region (a statement libhpfrt times: hpfrt_region_begin), so
 * that the SPMD program can find the same intervals by counting its
 * region entries. Loops the engine interprets in closed form, or
 * extrapolates, give their intervals without an iteration each: a closed
 * form is one stretch of uniform composition, an extrapolated block is
 * replayed. */
#ifndef HPF_BBV_H
#define HPF_BBV_H

#include "aag.h"

/* One interval: its operations per AAU (sparse, ids from 1: id[0 .. nnz)),
 * then the region entries it makes per statement head AAU (id[nnz ..
 * nnz + nent), each naau + the head's id: a statement counts there even
 * where the engine skips its first AAU, as a kept schedule's inspector),
 * where it starts and ends in region entries (start 0: the program's
 * start; end `regions` of the run: its end), its first operation's place
 * in the run and the top-level DO of the main program it starts in (line
 * 0: none). */
typedef struct {
    double work, wstart;
    long long r0, r1;
    int top_line;
    long long top_iter;
    int nnz, nent;
    int *id;
    double *v;
} BbvInterval;

/* A DO of the main program's own statements, as the run went through it:
 * its line, the region entries made before it and by its end, the times
 * the walk entered it. */
typedef struct {
    int line;
    long long r_start, r_end;
    int entered;
} BbvTopLoop;

typedef struct Bbv Bbv;

/* A recorder for the AAG g: intervals of `interval` operations, or, with
 * interval 0, of a size doubled whenever there would be more than
 * BBV_ADAPTIVE of them. */
enum { BBV_ADAPTIVE = 2048, BBV_MAX_INTERVALS = 200000 };
Bbv *bbv_new(const Aag *g, double interval);
void bbv_free(Bbv *b);
/* Empties the recorder for a new interpretation (engine_run starts so). */
void bbv_reset(Bbv *b);

/* An AAU's operations per execution (at least 1, 0 for Start, End and
 * Spawn): a Seq's operations, library calls and array accesses, a loop
 * level's entry, a communication's words of fixed size. */
double bbv_weight(const Aau *a);

/* Whether a is the first AAU of a statement whose SPMD code is a region
 * (hpfrt_region_begin): an element store, a broadcast, a FORALL or
 * reduction not constant empty. */
int bbv_region_head(const Aau *a);

/* ---- what the engine calls ---- */
void bbv_exec(Bbv *b, const Aau *a, double most);
void bbv_enter(Bbv *b, const Aau *a, double most);
                                               /* a walked most times on the busiest
                                                  processor: region entries when it is
                                                  the first AAU of a statement libhpfrt
                                                  times (bbv_region_head) */
void bbv_point(Bbv *b);                        /* between two statements: the
                                                  executions since the last point are
                                                  one stretch */
void bbv_top(Bbv *b, int line, long long iter, long long trips);
                                               /* the top-level DO now running (line
                                                  0: none), its iteration, and with
                                                  trips > 1 a closed form of that many */
void bbv_block_push(Bbv *b);                   /* a loop whose blocks may repeat */
void bbv_block_mark(Bbv *b);                   /* a block of it begins */
void bbv_block_repeat(Bbv *b, double k, int top, long long iters);
                                               /* the last block repeated k times
                                                  (top: the loop is the top-level DO,
                                                  of iters iterations a block) */
void bbv_block_pop(Bbv *b);

/* Ends the recording: 0, or -1 when there were more than BBV_MAX_INTERVALS
 * intervals (bbv_error says so). */
int bbv_finish(Bbv *b);
const char *bbv_error(const Bbv *b);

/* ---- the result ---- */
int bbv_count(const Bbv *b);
const BbvInterval *bbv_interval(const Bbv *b, int i);
double bbv_interval_size(const Bbv *b);        /* N, after any doubling */
double bbv_total_work(const Bbv *b);
long long bbv_total_regions(const Bbv *b);
int bbv_top_loops(const Bbv *b, const BbvTopLoop **loops);

/* SimPoint's frequency vector file: a line `T:id:count :id:count ...` per
 * interval, ids from 1, counts the operations rounded (at least 1 where an
 * AAU ran). Returns 0, or -1 with errno set. */
int bbv_write_simpoint(const Bbv *b, const char *path);

#endif
