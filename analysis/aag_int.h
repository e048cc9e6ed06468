/* aag_int.h - what the abstraction parse's files share (aag.c, aag_ops.c,
 * aag_crit.c, aag_dump.c); not for other stages. The public contract is
 * aag.h. */
#ifndef HPF_AAG_INT_H
#define HPF_AAG_INT_H

#include <stdint.h>

#include "aag.h"

/* Where an array's extent is not a constant, the stride computation takes
 * it to be this many elements: any stride past the first dimension is then
 * larger than a cache block, which is all the cache model asks of it. */
enum { AAG_UNKNOWN_EXTENT = 1024 };

/* A map from pointers to ints (v + 1 kept as the pointer): -1 when
 * absent. */
typedef PtrMap PMap;

static inline int pmap_get(const PMap *m, const void *k)
{
    return (int)((intptr_t)ptrmap_get(m, k) - 1);
}

static inline void pmap_put(PMap *m, const void *k, int v)
{
    ptrmap_put(m, k, (void *)(intptr_t)(v + 1));
}

static inline void pmap_free(PMap *m)
{
    ptrmap_free(m);
}

typedef struct Crit Crit;                           /* aag_crit.c */

/* The range of a loop index around the statement being built: its bounds
 * as written (lowered), innermost first. */
typedef struct IdxRange {
    const Symbol *var;
    const Node *lo, *hi;
    const struct IdxRange *up;
} IdxRange;

/* The state of one aag_build. */
typedef struct {
    Aag *g;
    Arena *a;
    const SpProgram *prog;
    const AagOptions *o;
    const SpUnit *unit;        /* the unit being built */
    Crit *crit;
    const Symbol *inner;       /* the innermost enclosing DO variable (strides of SP_SEQ) */
    long long inner_step;
    const IdxRange *ranges;    /* enclosing DO and FORALL indices */
} Build;

/* ---- aag_ops.c: operation counts and access information ---- */

typedef struct {
    Build *B;
    AauOps *ops;               /* where the counts go */
    const Symbol *inner;       /* index whose consecutive values give strides, or NULL */
    long long step;            /* its step (1 when not constant) */
    PtrVec *calls;             /* user function references met (Node *), heap; or NULL */
} OpCtx;

void ops_expr(OpCtx *c, const Node *e);             /* evaluating e once */
void ops_store(OpCtx *c, const Node *lhs);          /* storing into a NAME or an element */
void ops_add_op(AauOps *o, OpClass k, double n);
void ops_lib(Build *B, AauOps *o, const char *param, double n);
void ops_access(Build *B, AauOps *o, const char *var, const SpArr *arr, const Symbol *sym,
                double loads, double stores, long long stride, int elsize, int scalar);
void ops_merge(Build *B, AauOps *dst, const AauOps *src);
void ops_arith(AauOps *o, Type t, Op op, double n);  /* n operations op of type t */
void ops_combine(AauOps *o, int red_op, Type t);     /* one step of a reduction */
long long ops_ref_stride(OpCtx *c, const Node *ref); /* bytes between iterations */
int aag_io_bytes(Build *B, const Node *item, int *sized);   /* an I/O item's volume, estimated
                                                       (*sized 0: not a constant) */
const SpUnit *aag_callee(Build *B, const Node *ref);   /* the unit a CALL or reference
                                                          calls, or NULL */
const char *aag_temp_name(Build *B, int temp);      /* "hpf_t3" */
/* The unparse hook of labels and dumps: element references with their
 * global subscripts, inline reductions by their intrinsic's name. */
int aag_text_hook(Unparse *u, const Node *n, void *ctx);
char *aag_expr_text(Build *B, const Node *e);       /* in the arena, plain references */
char *aag_stmt_text(Build *B, const Node *s);

/* ---- aag_crit.c: critical variables ---- */

void crit_analyze(Build *B);                        /* fills g->crit; keeps what follows */
int crit_stmt(Build *B, const SpStmt *s);           /* defines a critical, not held variable */
int crit_loop_vary(Build *B, const SpStmt *loop);   /* AAG_VARY_INDEX | AAG_VARY_EXIT */
int crit_loop_periodic(Build *B, const SpStmt *loop);
int crit_loop_settles(Build *B, const SpStmt *loop);
int crit_label_targeted(Build *B, const SpUnit *u, int label);   /* some GOTO names it */
void crit_free(Build *B);

#endif
