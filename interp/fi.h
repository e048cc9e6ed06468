/* fi.h - the functional interpreter of hpfpredict: evaluates the program
 * with its sequential semantics (every array held whole, global indices) to
 * resolve what the interpretation engine needs: bounds and trip counts, DO
 * WHILE iteration counts, branch outcomes, FORALL and WHERE masks, the index
 * vectors behind gathers and scatters. It runs on the SPMD IR (spmd.h), so
 * the values are those of the statements hpfc emits. Array statements are
 * evaluated as whole-array operations: an expression tree is walked once
 * per statement with a vector of values per node. Intrinsics that have a
 * libm function of the same name (exp, sqrt, atan2, ...; the f-suffixed one
 * for REAL(4)) and EXTERNAL functions (looked up as `name_` in the program
 * and in the --load libraries) are called through libffi, found with dlsym.
 *
 * Who drives: the engine walks the statements and decides control flow; it
 * asks fi for values (fi_eval*), for the effect of leaf statements
 * (fi_exec) and for iteration spaces (fi_space, fi_refs). Function calls
 * inside expressions are evaluated by fi itself, body and all. */
#ifndef HPF_FI_H
#define HPF_FI_H

#include "spmd.h"

typedef struct Fi Fi;

/* A scalar value. known == 0: the value is not known (a READ without data,
 * a variable never assigned, or a value computed from one of those). */
typedef struct {
    Type type;
    int known;
    long long i;          /* INTEGER, LOGICAL (0/1) */
    double r, im;         /* REAL; COMPLEX */
    const char *s;        /* CHARACTER (fi's storage) */
} FiValue;

typedef struct {
    const char *name;     /* lower case */
    const char *value;    /* as written: 12, 1.5d0, .true.; NULL: held unknown */
} FiDefine;

typedef struct {
    const SpProgram *prog;
    const FiDefine *defs;  /* -D for variables: held at this value, their */
    int ndefs;             /* assignments and READs ignored */
    const char *input;     /* --input FILE: list-directed data for READ, or NULL */
    int prompt;            /* ask on the terminal (stderr/stdin) for READ data
                              when there is no input file or it ran out */
    long long max_steps;   /* budget of element operations; 0: the default (1e9) */
    const char *const *libs;   /* --load: shared objects for EXTERNAL functions */
    int nlibs;
} FiOptions;

/* NULL on error (an unreadable input file, a library that does not load),
 * reported on d. */
Fi *fi_new(const FiOptions *o, Diag *d);
void fi_free(Fi *fi);

/* Values in the current frame (the main program's, or a procedure's after
 * fi_enter). An unknown value gives 0 with v->known = 0. */
int fi_eval(Fi *fi, const Node *e, FiValue *v);          /* returns v->known */
int fi_eval_int(Fi *fi, const Node *e, long long *v);     /* 1: known */
int fi_eval_real(Fi *fi, const Node *e, double *v);       /* 1: known */
int fi_eval_bool(Fi *fi, const Node *e, int *v);          /* 1: known */
void fi_set_int(Fi *fi, const Symbol *var, long long v);  /* a DO variable */

/* The value of NUMBER_OF_PROCESSORS() in the program: the processor count
 * the engine predicts for (1 until it is set). */
void fi_set_nprocs(Fi *fi, int n);

/* The effect of a leaf statement: SP_SEQ (assignment; CALL and control
 * statements are the engine's), SP_STORE, SP_FORALL, SP_REDUCE, SP_BCAST,
 * SP_IO (READ fills its variables; output does nothing), SP_ALLOC,
 * SP_DEALLOC. Returns 0, or -1 when interpretation must stop (the step
 * budget is spent: fi_stopped says so). */
int fi_exec(Fi *fi, const SpStmt *s);
/* A READ whose values nothing critical needs, run for its place in the
 * input: its records are consumed (the values stored), never asked for on
 * the terminal. Skipping it would hand its data to the READs after it. */
int fi_read_quietly(Fi *fi, const SpStmt *s);

/* The whole program run with its sequential semantics by fi alone, from
 * the main program's first statement to its end, every statement (those of
 * called procedures too) told to visit as it is run: the reference the
 * engine's walk is checked against (hpfpredict --audit). Returns 0, or -1
 * when the run stopped (a value not known, the step budget). */
int fi_run(Fi *fi, void (*visit)(void *arg, const SpStmt *s), void *arg);

/* A CALL of a subroutine of the file: a new frame with the dummies bound
 * to the actual arguments (by reference where the actual is a variable, an
 * array or an element), then fi_leave when the engine has walked the body.
 * unit is the callee, call the AST_CALL (its args). */
void fi_enter(Fi *fi, const SpUnit *unit, const Node *call);
void fi_leave(Fi *fi);

/* The iteration space of a lowered FORALL or reduction, with sequential
 * semantics at the loop's start: n points in FORALL order (the first index
 * varies fastest), the value of each index at each point, and the mask at
 * each point (NULL when the loop has none). Storage is fi's until the next
 * fi_space call (fi_refs leaves it). Returns 1, or 0 when a bound or the
 * mask is not known. */
typedef struct {
    long n;
    int nidx;                         /* = loop->nidx */
    const long long *idx[MAX_RANK];   /* idx[k][p]: index k at point p */
    const unsigned char *mask;        /* mask[p], or NULL */
} FiSpace;
int fi_space(Fi *fi, const SpLoop *loop, FiSpace *sp);

/* When the last iteration space fi computed is from's, still valid, and
 * loop's would be the same (the same bounds, the same mask with the indices
 * renamed, nothing reported while computing it): it becomes loop's, as if
 * fi_space had computed it (the same steps are charged), and 1 is
 * returned. Otherwise 0, and nothing changes. */
int fi_space_share(Fi *fi, const SpLoop *from, const SpLoop *loop);

/* Every evaluation of an array reference of the loop: ref is an AST_REF of
 * loop->lhs, loop->rhs or loop->mask (a gathered one, SpGather.ref; the
 * scattered left-hand side; ...), evaluated under its context: at every
 * point (ctx_iter, ctx_guard), where the mask holds (ctx_mask), and inside
 * an inline reduction (SpRed) once per trip of the reduction (ctx_iter of
 * the SpRed) or per trip where the reduction's mask holds (ctx_body).
 * Gives, per evaluation, the iteration point it belongs to and the global
 * subscripts of the element. Storage is fi's until the next fi_refs call
 * (fi_space leaves it). Returns
 * 1, or 0 when something needed is not known. */
typedef struct {
    long n;                           /* evaluations */
    const long *point;                /* point[e]: the iteration point (0..space n-1) */
    int rank;
    const long long *sub[MAX_RANK];   /* sub[d][e]: global subscript d */
} FiRefs;
int fi_refs(Fi *fi, const SpLoop *loop, const Node *ref, const SpCtx *ctx, FiRefs *out);

/* An error of the program's run, reported once per key (a statement, a
 * node); the prediction fails. */
void fi_error_once(Fi *fi, const void *key, Loc loc, const char *fmt, ...) HPF_PRINTF(4, 5);

/* Missing values. When the engine needs a value that is not known it calls
 * fi_missing with the expression and the line that needed it; fi records
 * the variables behind the unknown value (each once, with the line where
 * it was read or the note that it was never assigned). fi_report writes
 * one error per missing value on d, "file:line:col: error: value of 'n'
 * needed ...; give it with -D n=VALUE or --input FILE", and returns their
 * count. */
void fi_missing(Fi *fi, const Node *e, int line, const char *what);
/* ... for an iteration space fi_space could not make: its mask when the
 * mask's values are not known, else its bounds (and mask). */
void fi_missing_space(Fi *fi, const SpLoop *loop, int line);
int fi_report(Fi *fi, Diag *d);
int fi_nmissing(const Fi *fi);

/* What the arrays the interpreter holds may take at most, for the
 * process (0: the machine's memory, the default). */
void fi_limit_memory(size_t bytes);

/* Interpretation stopped: 1 when the step budget was spent (message on d
 * by fi_report), 2 when an array was too large to hold (reported). */
int fi_stopped(const Fi *fi);
long long fi_steps(const Fi *fi);

/* The engine skips an evaluation whose result it knows (it cannot have
 * changed): the steps it cost the last time are charged instead. Returns 1,
 * or 0 without charging when they would exceed the budget (the engine then
 * evaluates, and the budget runs out where it would have). Once fi has
 * stopped nothing it does is seen any more: with no steps to charge the
 * engine need not call it. */
int fi_spend(Fi *fi, long long steps);

/* The engine walked one iteration of a loop it cannot extrapolate: steps
 * (the AAUs it walked) are charged to the budget, so that a loop that
 * never ends, or ends after more iterations than the budget allows, stops
 * the interpretation as fi's own work does. 0 once the budget is spent
 * (fi has stopped). */
int fi_charge(Fi *fi, long long steps);

#endif
