/* fi_int.h - what the functional interpreter's files share (fi.c: storage,
 * frames, the procedures it runs, unknown values; fi_exec.c: what the
 * engine asks statement by statement; the expressions: fi_value.c, fi_expr.c,
 * fi_array.c, fi_intrinsic.c, fi_ffi.c, whose own shared parts are in
 * fi_expr_int.h; fi_io.c: list-directed READ data and literals); not for
 * other stages. */
#ifndef HPF_FI_INT_H
#define HPF_FI_INT_H

#include "fi.h"


/* The types the interpreter converts to. */
#define FI_UNUSED __attribute__((unused))
static const Type T_I4 FI_UNUSED = {TY_INTEGER, 4};
static const Type T_I8 FI_UNUSED = {TY_INTEGER, 8};
static const Type T_R4 FI_UNUSED = {TY_REAL, 4};
static const Type T_R8 FI_UNUSED = {TY_REAL, 8};
static const Type T_LOG FI_UNUSED = {TY_LOGICAL, 4};
static const Type T_CHAR FI_UNUSED = {TY_CHARACTER, 1};

/* ---- values ---- */

/* A vector of values: one per point of the context it was evaluated in,
 * or a single one (n == 1) that stands for every point. */
typedef struct {
    Type t;
    long n;
    long long *i;                 /* INTEGER, LOGICAL (0/1) */
    double *r, *im;               /* REAL; COMPLEX (real and imaginary parts) */
    char **s;                     /* CHARACTER: heap strings, the vector's */
    unsigned char *k;             /* known flags; NULL: all known */
} Vec;

/* Why a variable's value is not known: a READ that found no data, or no
 * assignment at all. One per (variable, READ); held in fi's arena. */
typedef struct {
    const char *name;             /* the program's variable */
    Loc loc;                      /* the READ, or the declaration */
    int line;                     /* the READ's line; 0: never assigned */
    const char *by;               /* the intrinsic subroutine that set it (CPU_TIME ...),
                                     or NULL: a READ */
} Cause;

/* The storage of a variable, a temporary or a replicated temporary array:
 * column-major elements, a known flag each. A dummy argument bound by
 * reference is a view: its data lie in the actual argument's store (home). */
typedef struct Store {
    const char *name;
    const Symbol *sym;            /* NULL for temporaries */
    Type t;
    int rank;
    long long lo[MAX_RANK], ext[MAX_RANK];
    long n;                       /* elements: 1 for a scalar */
    int allocatable, allocated;
    size_t bytes;                 /* what its storage takes (fi_store_alloc) */
    int bounds_unknown;           /* its last ALLOCATE had bounds not known (reported) */
    int absent;                   /* an OPTIONAL dummy whose actual was left out */
    struct Store *home;           /* owner of the data and of what follows */
    long long *i;
    double *r, *im;
    char **s;
    unsigned char *k;
    unsigned mapped;              /* i, r, im, k (bits 0-3): mapped, not from the heap */
    /* meaningful on the home store */
    const Cause *cause;           /* why unknown elements are unknown */
    int cause_set;                /* cause given (else: never assigned) */
    int held;                     /* -D: assignments and READs are ignored */
    int charlen;                  /* CHARACTER length; 0: as assigned */
} Store;

/* An activation of a program unit. */
typedef struct Frame {
    const SpUnit *unit;
    struct Frame *host;           /* the activation of its host (internal units) */
    struct Frame *caller;
    PtrMap vars;                    /* Symbol -> Store (own, host's, bound actuals) */
    PtrVec owned;                 /* Stores this frame frees */
    Store **temps;                /* scalar temporaries, by number */
    int ntemps;
    PtrMap tarrs;                   /* SpArr -> Store: replicated temporary arrays */
    PtrVec copyout;               /* CopyOut: sections passed by copy */
} Frame;

/* A set of points at which an expression is evaluated: the iterations of
 * a FORALL (with the values of its indices), expanded by the trips of an
 * inline reduction, compacted by a mask; or the positions of an array
 * expression (pos, 0-based) when one is evaluated whole. */
enum { MAX_BIND = 48 };
typedef struct {
    Frame *fr;
    long n;
    int nb;
    const Symbol *bsym[MAX_BIND];
    long long *bval[MAX_BIND];    /* bval[b][p]: value of bsym[b] at point p */
    int rank;
    long long *pos[MAX_RANK];
    long *base;                   /* base point of each point (fi_refs), or NULL */
    unsigned long long lent;      /* bit b: bval[b] is not the context's (a space's) */
} Ctx;

typedef struct FfiFn FfiFn;

/* The iteration space of a loop, cached while nothing is stored. */
typedef struct {
    const SpLoop *loop;
    const Frame *frame;
    unsigned long version;
    long n;
    int nidx;
    long long *idx[MAX_RANK + MAX_RANK];
    long long lo[MAX_RANK + MAX_RANK], st[MAX_RANK + MAX_RANK], tr[MAX_RANK + MAX_RANK];
                                  /* idx[k][p] = lo[k] + t st[k], t = p / (the product of
                                     tr[j], j < k) mod tr[k] */
    Vec mask;                     /* n values, or t.base == TY_NONE: no mask */
    int ok;
    long long cost;               /* steps its computation took */
    int quiet;                    /* its computation reported nothing */
} Space;

struct Fi {
    const SpProgram *prog;
    Diag *d;
    Arena *a;                     /* causes, names, copies of the options */
    FiOptions o;
    long long steps, max_steps;
    int stopped;                  /* 1: the step budget is spent; 2: out of memory */
    int nprocs;
    unsigned long version;        /* counts stores, for the space cache */
    Frame *top, *main;
    int depth;                    /* procedure calls evaluated by fi */
    PtrMap saved;                   /* Symbol -> Store: SAVE variables of procedures */
    PtrVec saved_list;
    PtrVec commons;               /* Store per blank COMMON position */
    PtrMap reported;                /* nodes and names already reported */
    long errors;                  /* fi_error_once calls, reported or not */
    PtrVec reported_names;        /* their heap copies */
    PtrMap units;                   /* SpUnit -> UnitInfo */
    PtrVec missing;               /* Missing */
    Loc cur;                      /* the statement being executed */
    int cur_line;
    /* READ data */
    char *in;                     /* the --input file's text, or NULL */
    size_t in_len, in_pos;
    PtrMap reads;                   /* SpStmt -> the source READ node */
    /* libffi */
    void *self;                   /* dlopen(NULL) */
    void **libs;
    int nlibs;
    PtrVec ffns;                  /* FfiFn */
    /* fi_space and fi_refs answers */
    Space space;
    long long *sp_idx[MAX_RANK + MAX_RANK];
    int sp_lent;                  /* the space's index vectors are fi_space's answer */
    int space_pins;               /* contexts using the space's index vectors */
    PtrVec retired;               /* index vectors of spaces replaced while pinned */
    unsigned char *sp_mask;
    long *rf_point;
    long long *rf_sub[MAX_RANK];
    char *eval_str;               /* fi_eval's CHARACTER result */
    void (*visit)(void *, const SpStmt *); /* fi_run: told of every statement run */
    void *visit_arg;
};

/* Statement s is the one being run: diagnostics point at it, and fi_run's
 * visitor, if any, is told of it. */
static inline void fi_at(Fi *fi, const SpStmt *s)
{
    fi->cur = s->loc;
    fi->cur_line = s->line;
    if (fi->visit)
        fi->visit(fi->visit_arg, s);
}

/* ---- fi.c ---- */

int fi_step(Fi *fi, long n);                  /* 0: the budget is spent */
Loc fi_loc(Fi *fi, const Node *e);            /* e's, else the statement's */
Store *fi_var(Fi *fi, Frame *fr, const Symbol *y);
Store *fi_temp(Fi *fi, Frame *fr, const char *name);       /* prefix + tN, or NULL */
Store *fi_tarr(Fi *fi, Frame *fr, const Node *ref);        /* prefix + wN, or NULL */
Store *fi_ref_store(Fi *fi, Frame *fr, const Node *ref);   /* an array reference's */
const Cause *fi_cause_of(Fi *fi, Store *s);
const Cause *fi_find_cause(Fi *fi, Frame *fr, const Node *e);
void fi_put(Fi *fi, Store *s, long off, const Vec *v, long p, const Cause *cause);
void fi_get(const Store *s, long off, Vec *v, long p);
int fi_call(Fi *fi, Ctx *c, const Node *call, const SpUnit *unit, Vec *out);
const SpUnit *fi_find_unit(Fi *fi, const SpUnit *from, const char *name);
int fi_call_external(Fi *fi, Ctx *c, const Node *call, Type rt, Vec *out);

/* ---- the expressions (fi_value.c, fi_expr.c, fi_array.c, fi_intrinsic.c,
 * fi_ffi.c) ---- */

Vec fv_new(Type t, long n);
Vec fv_unknown(Type t);
void fv_free(Vec *v);
int fv_known(const Vec *v, long p);
void fv_set_unknown(Vec *v, long p);
void fv_convert(Vec *v, Type to);
Vec fi_ev(Fi *fi, Ctx *c, const Node *e);
/* fi_eval of a simple INTEGER or LOGICAL scalar without vectors: 1 when
 * done (v filled), 0 when e must go through fi_ev. */
int fi_ev_scalar(Fi *fi, const Node *e, FiValue *v);
Vec fv_widen(Vec *v, long n);
void fi_ctx_init(Ctx *c, Frame *fr);
void fi_ctx_free(Ctx *c);
void fi_ctx_select(const Ctx *c, const long *sel, long n, Ctx *out);
int fi_ctx_expand(const Ctx *c, const long long *trips, long total, const Symbol *var, Ctx *out,
               long **parent);
int fi_ctx_bind(Ctx *c, const Symbol *y, long long *vals);
long long *fi_ctx_lookup(const Ctx *c, const Symbol *y);
int fi_shape(Fi *fi, Ctx *c, const Node *e, long long *ext);   /* rank, -1: unknown */
Vec fi_array(Fi *fi, Ctx *c, const Node *e, int *rank, long long *ext);
int fi_offsets(Fi *fi, Ctx *c, const Node *ref, Store *s, long **off, long *n);
int fi_reduce(Fi *fi, int op, int loc, Type t, const Vec *vals, long nvals, const long *group,
              const long long *where, long ngroups, Vec *acc, Vec *pos);
void fi_ffi_free(Fi *fi);
int fi_ffi_open(Fi *fi);

/* ---- fi_io.c ---- */

int fi_parse_literal(const char *text, Type t, Vec *v, long p);
/* What a literal of type t may be, for a message (" (INTEGER: ...)"), or "". */
const char *fi_literal_range(Type t);
int fi_read(Fi *fi, const SpStmt *s);
int fi_input_load(Fi *fi, const char *path);

/* ---- fi_exec.c ---- */

/* The error for a use of s, not allocated, by node key (name: how the
 * program names it); none when its ALLOCATE's bounds were not known,
 * which fi_missing has reported. */
void fi_unallocated(Fi *fi, const Node *key, const char *name, const Store *s);

/* fi.c's storage, for fi_exec.c (the leaf statements: ALLOCATE, temporaries) */
int fi_store_alloc(Store *s);                  /* its elements, all unknown; 0: too large */
void fi_too_large(Fi *fi, const Store *s, Loc where);   /* the error, and fi stops */
void fi_store_release(Store *s);               /* its elements freed (DEALLOCATE) */
void fi_put_all_unknown(Fi *fi, Store *s, const Cause *cause);
const FiDefine *fi_find_def(const Fi *fi, const char *name);   /* a -D value */
void fi_hold(Fi *fi, Store *s, const FiDefine *def);          /* s takes it */
long long fi_frame_int(Fi *fi, Frame *fr, const Node *e, int *known);  /* e in frame fr */
Store *fi_temp_by_id(Fi *fi, Frame *fr, int id);
Store *fi_tarr_of(Fi *fi, Frame *fr, const SpArr *t, int alloc);

#endif
