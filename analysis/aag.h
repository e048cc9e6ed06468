/* aag.h - the abstraction parse of hpfpredict: the Application Abstraction
 * Graph (AAG) built from the SPMD IR, the communication structure that
 * makes it the Synchronized AAG (SAAG), the critical variables of the
 * extended symbol table, Seq clustering, operation counts and access
 * information (Parashar & Hariri, sections 2.2 and 4.2). Read by the
 * interpretation engine (interp/engine.c). Documented in doc/predict.md. */
#ifndef HPF_AAG_H
#define HPF_AAG_H

#include <stdio.h>

#include "spmd.h"

/* The paper's Table 1 (aau.def). */
typedef enum {
#define AAU_CLASS(name, text) AAU_##name,
#include "aau.def"
#undef AAU_CLASS
    AAU_NCLASS
} AauClass;

extern const char *const aau_class_name[AAU_NCLASS];   /* "Start", "IterD", ... */

/* Operation types counted in a Seq AAU; opc_param names the SAG parameter
 * that costs each ("op.iadd" ...). Complex arithmetic is counted as the real
 * operations it takes (a complex multiply: 4 multiplies and 2 adds). */
typedef enum {
    OPC_IADD, OPC_IMUL, OPC_IDIV,
    OPC_FADD, OPC_FMUL, OPC_FDIV,      /* REAL(4) */
    OPC_DADD, OPC_DMUL, OPC_DDIV,      /* REAL(8) */
    OPC_ITOF, OPC_FTOI, OPC_CMP, OPC_LOGICAL,
    OPC_N
} OpClass;

extern const char *const opc_param[OPC_N];

/* A library call counted in a Seq AAU: the SAG parameter ("lib.exp") and
 * how many calls one execution makes. */
typedef struct {
    const char *param;
    double n;
} AauLib;

/* One variable's accesses in one execution of a Seq AAU (per iteration,
 * inside a loop): what the cache model needs. */
typedef struct {
    const char *var;           /* name as in the program (a temporary: its IR name) */
    const SpArr *arr;          /* mapped array, or NULL */
    const Symbol *sym;         /* NULL for temporaries */
    double loads, stores;      /* element accesses per execution */
    long long stride;          /* bytes between the elements accessed in consecutive
                                  iterations of the innermost enclosing loop; 0: the same
                                  element each time (a scalar, an invariant element) */
    int elsize;                /* bytes per element */
    int scalar;                /* a scalar variable (kept in a register: no memory cost) */
} AauAccess;

typedef struct {
    double op[OPC_N];
    int nlib;
    AauLib *lib;
    int nacc;
    AauAccess *acc;
    double calls, args;        /* calls of the program's procedures made in expressions */
    double allocs;             /* arrays allocated and freed (mem.alloc each) */
} AauOps;

/* Where an iterative AAU gets its trip count. */
typedef enum {
    ITER_DO,          /* SP_DO: stmt->u.do_ (var, lo, hi, st) */
    ITER_WHILE,       /* SP_WHILE, or DO with no control: unrolled */
    ITER_FORALL,      /* one index of a lowered FORALL or reduction: loop->idx[level] */
    ITER_RED,         /* the trips of an inline reduction: red->n */
    ITER_COPY         /* the copy-back pass of a FORALL through a temporary: the
                         same owned points as the loop, no mask */
} IterKind;

/* Who executes a simple AAU. */
typedef enum {
    ON_ALL,           /* every processor */
    ON_IO,            /* the I/O processor (rank 0) */
    ON_OWNER          /* the owners of an element: `elem` (an AST_REF, SpRef in ir) */
} OnKind;

/* Communication and synchronization. */
typedef enum {
    CM_OVERLAP,       /* ghost cells of arr's dimension dim: `below` cells from the
                         lower neighbour, `above` from the upper one */
    CM_GATHER,        /* a gather of the loop (inspector/executor): g */
    CM_SCATTER,       /* the scattered left-hand side of the loop */
    CM_BCAST,         /* an element from its owner to every processor: elem */
    CM_BCASTIO,       /* READ values from the I/O processor to every processor */
    CM_REDUCE,        /* combining partial results: red_op over `count` values of `type` */
    CM_BARRIER        /* synchronization of all processors */
} CommKind;

typedef struct Aau Aau;

/* A character variable's length is not kept in its Type: its I/O volume
 * is estimated at this many bytes. */
enum { AAG_CHAR_BYTES = 16 };

/* An item of a WRITE or PRINT whose size is not a constant (an implied DO
 * of variable bounds, a section of variable bounds, an ALLOCATABLE array),
 * and the bytes the AAG estimated for it (an unknown extent taken as 1024
 * elements), for where the engine cannot evaluate it. */
typedef struct {
    const Node *item;
    int est;
} AauIoItem;

/* A row of the communication table: one communication or synchronization
 * point of the program, with what the engine needs to cost it. */
typedef struct {
    int id;                    /* from 1 */
    Aau *aau;                  /* the Comm, Sync or SyncSeq AAU */
    CommKind kind;
    Pattern pat;               /* PAT_OVERLAP, PAT_BCAST, ..., PAT_REDUCE */
    const SpLoop *loop;        /* the loop it serves (overlap, gather, scatter, reduce) */
    const SpGather *g;         /* CM_GATHER */
    const SpArr *arr;          /* the array moved (NULL for a scalar) */
    int dim, below, above;     /* CM_OVERLAP */
    const SpOverlap *ov;       /* CM_OVERLAP: its box */
    const Node *elem;          /* CM_BCAST: the element (global subscripts) */
    int red_op;                /* CM_REDUCE: HPFRT_SUM ... */
    int count;                 /* CM_REDUCE: values combined (2 for a location) */
    Type type;                 /* of the values moved */
    const SpStmt *io;          /* CM_BCASTIO: the READ */
    const Aau *io_aau;         /* CM_BCASTIO: its Seq (the items sized at run time) */
    int line;
    /* added by the abstraction parse (analysis/aag.c) */
    long long bytes;           /* bytes moved per execution when the IR fixes them
                                  (CM_BCAST one element, CM_BCASTIO the values read,
                                  CM_REDUCE count values); 0: the mapping decides */
    Aau *src, *dst;            /* the SAAG's communication edges: the AAU producing the
                                  data (NULL: the start) and the one using it (NULL: the
                                  end) */
} CommEntry;

/* A part of a clustered Seq AAU: one statement and its own counts (for
 * attributing the AAU's time to source lines). */
typedef struct {
    const SpStmt *stmt;
    int line;
    AauOps ops;
} AauPart;

struct Aau {
    int id;                    /* preorder number from 1 */
    AauClass cls;
    int line, line_end;        /* source lines it abstracts */
    Aau *parent;
    const SpUnit *unit;        /* the unit whose body holds it */
    const SpStmt *stmt;        /* the IR statement it comes from, or NULL */
    int head, tail;            /* first / last AAU made from stmt */
    Aau *next;                 /* added: the next AAU of the same list (kids, a branch's
                                  pre or body, a unit's body), NULL for the last: the
                                  sequence edges */
    int critical;              /* stmt (or a part) defines a critical variable: the
                                  engine runs it through the functional interpreter */
    const char *label;         /* short description: "forall b(i,j)", "do it", ... */

    /* compound AAUs: children in execution order. Conditionals: one
       branch per condition (then ELSE IF ..., ELSE last with cond NULL). */
    PtrVec kids;               /* Aau: Spawn, Iter*, Call; the FORALL body */
    int nbranch;
    const Node **bcond;        /* per branch: its condition, NULL for ELSE */
    PtrVec *bpre;              /* per branch: AAUs computing the condition's parts */
    PtrVec *bbody;             /* per branch: the body's AAUs */
    const Node *mask;          /* a FORALL mask conditional: the mask (weights from
                                  the functional interpreter's mask counts) */

    /* iterative AAUs */
    IterKind iter;
    const SpLoop *loop;        /* ITER_FORALL, ITER_COPY, and the Seq/Condt inside */
    int multi_only;            /* a gather's inspector pass, buffers or executor in a
                                  loop that reads its gathered references in place on
                                  one processor (spmd_direct_one): not run there */
    const Node *multi_if;      /* ... only when this holds (SpLoop.direct_if; NULL:
                                  always) */
    const CommEntry *kept_by;  /* ITER_COPY, a gather's inspector pass whose
                                  round's index vectors are all invariant: the first
                                  gather of the round (hpfc skips the pass while
                                  libhpfrt keeps their schedules) */
    int level;                 /* ITER_FORALL: index of loop->idx */
    unsigned char nest_top, nest_inner;   /* ITER_FORALL: the nest's outermost level,
                                  its innermost (idx[nidx-1] and idx[0] as hpfc
                                  nests them) */
    const SpRed *red;          /* ITER_RED */
    const Node *while_cond;    /* ITER_WHILE: the test (NULL: none); pre-statements
                                  are the first kids flagged `pre` */
    int varying;               /* IterND: why it is unrolled, a bit set of AAG_VARY_* */
    int settles;               /* a DO whose critical definitions are used only inside
                                  it (crit_loop_settles): the engine may extrapolate it
                                  once its iterations' costs repeat */
    int periodic;              /* a DO that varies only with its variable, through
                                  gathered elements' owners, branch conditions and
                                  bounds (crit_loop_periodic): the engine may
                                  extrapolate runs of iterations that depend on the
                                  same values, or whole periods of them */
    /* a FORALL's innermost loop the node compiler may vectorize (Seq body
       and its IterD level; analysis/aag.c vectorizable()): the widest
       element it moves, 0 when it cannot be, and its constant trip count
       (-1: any, a distributed level hpfc marks for the vectorizer);
       the engine decides with the SAG's vector width */
    int vec_el;
    long long vec_trips;
    /* ... and the library functions it calls that need their vector
       variants for that (bit i: aag_vec_math[i]); the engine takes the
       loop as vectorized only where the SAG has vec.lib.NAME for each */
    unsigned vec_lib;
    /* a reduction's element waits for the one before on its accumulator
       (REAL sums, products, maxima, minima, not vectorized): the Seq each
       iteration runs (the mask's when masked: the compiler makes the
       conditional update a select) carries the reduction's HPFRT_ op */
    int chain;

    /* simple AAUs */
    OnKind on;
    const Node *elem;          /* ON_OWNER */
    AauOps ops;                /* Seq, SyncSeq: one execution (summed over parts) */
    int nparts;
    AauPart *parts;            /* Seq: the statements clustered into it */
    int io_bytes;              /* Seq on ON_IO for I/O: bytes read or written (0: none),
                                  the items of io_dyn apart */
    int nio_dyn;               /* items read or written whose extents only the run */
    AauIoItem *io_dyn;         /* knows: the engine sizes them at each execution */
    int io;                    /* an I/O statement */
    int pre;                   /* computes a WHILE or ELSE IF condition's parts */
    int ctl;                   /* SP_SEQ holding EXIT, CYCLE, RETURN, GOTO, STOP: AST kind */
    int ctl_target;            /* GOTO label */
    CommEntry *comm;           /* Comm, Sync, SyncSeq */

    /* Call */
    const SpUnit *callee;
    const Node *call;          /* the AST_CALL, or the function reference */
    Aau *home;                 /* the first Call of the same callee (by id): the
                                  reports show the callee's body under it, once */
    const PtrVec *body;        /* on the home Call: the callee's body, else NULL */

    /* filled by the engine (interp/engine.c): metrics summed over the
       AAU's executions; per processor: sum over processors (for the mean),
       and the sum over executions of the slowest and the fastest */
    double m_sum[4];           /* computation, communication, overhead, waiting */
    double m_max, m_min;
    double execs;              /* executions (on all processors together) */
    double xmost;              /* executions of the processor that made the most, in
                                  each execution of the AAU's parent, summed: the
                                  busiest processor's count (the equations' counts,
                                  interp/rue_aag.c) */
    double calls;              /* on a home Call: the callee's calls from every Call
                                  AAU of it (per processor, averaged) */
};

enum {
    AAG_VARY_INDEX = 1,        /* the body's costs depend on the loop's index */
    AAG_VARY_DEF = 2,          /* the body defines critical variables */
    AAG_VARY_EXIT = 4,         /* EXIT/GOTO out of the body under a varying condition */
    AAG_VARY_WHILE = 8         /* DO WHILE: the trip count depends on the body */
};

/* A critical variable: decides control flow, a trip count, a mask, a
 * message's size or partners. */
typedef struct {
    const char *name;
    const Symbol *sym;         /* NULL for a temporary */
    const SpUnit *unit;
    int line;                  /* first critical use */
    const char *why;           /* "loop bound", "branch condition", "mask",
                                  "gather index", "scatter index", "element owner", ... */
    int in_loop;               /* defined inside a DO/DO WHILE of its unit */
    int by_array;              /* its definition path goes through array statements
                                  (FORALL, reductions) inside that loop */
    int held;                  /* given with -D: its definitions are ignored */
} CritVar;

typedef struct {
    const SpProgram *prog;
    Aau *root;                 /* Start, Spawn (the node program), End: the kids of the
                                  root, a Spawn AAU (id 1) standing for the whole
                                  application (the host program of the paper's Figure 4) */
    int naau;
    Aau **aau;                 /* by id - 1 */
    int ncomm;
    CommEntry **comm;          /* the communication table, by id - 1 */
    int ncrit;
    CritVar *crit;
    PtrVec units;              /* per SpUnit (same order): its body's AAU list (PtrVec *),
                                  for Call AAUs */
    Arena *arena;
} Aag;

typedef struct {
    int granularity;           /* consecutive Seq statements per Seq AAU; 0 or 1: one */
    const char *const *held;   /* names of variables given with -D */
    int nheld;
    int loop_reorder;          /* model the node compiler's loop interchange in FORALL
                                  nests (-floop-reorder): the cache-friendliest index
                                  innermost */
    int forall_written;        /* -fforall-nest=written: a FORALL's loops nested as
                                  written, the first index outermost (HPF's naive
                                  translation; the paper's compiler), not as hpfc
                                  nests them (the first innermost) */
} AagOptions;

/* Bytes of a value of type t (a CHARACTER's one: its length is not kept). */
int aag_type_size(Type t);

/* The abstraction parse of a lowered program. Never fails on a valid IR. */
Aag *aag_build(const SpProgram *p, const AagOptions *o);
void aag_free(Aag *g);

/* The AAU list of a unit's body (for the engine's Call AAUs). */
const PtrVec *aag_unit_body(const Aag *g, const SpUnit *u);

/* Is the variable (by symbol, or a temporary by name) critical? */
int aag_is_critical(const Aag *g, const Symbol *sym, const char *name);

/* Dumps (analysis/aag_dump.c): stable text for tests, and Graphviz. */
void aag_dump(FILE *out, const Aag *g);     /* --dump-aag: the tree, op counts, access info,
                                              critical variables */
void saag_dump(FILE *out, const Aag *g);    /* --dump-saag: the AAG with its communication
                                              edges and the communication table */
void aag_dot(FILE *out, const Aag *g);      /* --dot: the SAAG as a digraph */

/* The library functions a vectorized loop may call through vector
 * variants (GCC with glibc's libmvec: math-vector-fortran.h), as lib.*
 * parameters without their class suffixes; and the index of a lib.*
 * parameter among them (lib.sin.reduced: lib.sin's), or -1. */
enum { AAG_NVEC_MATH = 15 };
extern const char *const aag_vec_math[AAG_NVEC_MATH];
int aag_vec_math_index(const char *param);

#endif
