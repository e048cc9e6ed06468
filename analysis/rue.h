/* rue.h - resource usage equations (Armstrong & Eigenmann, seeds 000 and
 * 003): a program's time as a sum of terms, each symbolic in the program's
 * size parameters and the processor count P.
 *
 * A term is one loop, message or disk access of one phase:
 *
 *     time = calls * count * (base * grow + bytes * perbyte)
 *
 *   computation   calls x iterations x BASE           (grow 1, no bytes)
 *   communication calls x messages(P) x (start-up x grow(P) + bytes x per-byte),
 *                 grow the topology's growth in P (log2 P on a hypercube
 *                 or a tree, sqrt P on a 2-D mesh, 1 on a crossbar)
 *   disk          calls x (start-up x (log2 P + 1) + bytes x per-byte),
 *                 reads and writes apart (count 1)
 *
 * ([A] section 3.1: BASE = measured time / measured iterations, forecast =
 * calls x iterations x BASE; [A] "Modeling Disk IO" for the (log P + 1);
 * [B] section 3.1, equations (1)-(4).)
 *
 * Counts are expressions (Rx) over named variables: the program's
 * PARAMETERs and P. A forecast binds every variable to a number and
 * evaluates the terms; nothing else is needed, so a forecast at P = 2^20
 * costs microseconds. */
#ifndef HPF_RUE_H
#define HPF_RUE_H

#include <stddef.h>
#include <stdio.h>

/* ---- expressions -------------------------------------------------------- */

typedef enum {
    RX_NUM, RX_VAR, RX_NEG, RX_ADD, RX_SUB, RX_MUL, RX_DIV, RX_POW,
    RX_CEIL, RX_FLOOR, RX_LOG2, RX_SQRT, RX_MAX, RX_MIN,
    RX_BSHARE,   /* bshare(lo, hi, N, Q): the most cells of lo..hi (1-based cells of
                    a dimension of N) that one of Q processors owns when the N cells
                    are dealt out in BLOCKs of ceil(N/Q) (hpfmap.h): the busiest
                    processor's iterations of a loop over that range */
    RX_GRID      /* pgrid(P, r, d): extent d (1-based) of the r-dimensional processor
                    grid of P processors, most balanced, non-increasing (MPI_Dims_create,
                    hpfmap_grid_shape); r and d numbers. pgrid(P, r, d, e, q): of an
                    arrangement declared with extent e there and q processors in all:
                    e where q = P, else as pgrid(P, r, d) (hpfmap_grid_shape) */
} RxKind;

typedef struct Rx {
    RxKind k;
    double v;                  /* RX_NUM */
    int var;                   /* RX_VAR: index in the RxVars; RX_GRID: r * 8 + d - 1 */
    struct Rx *a, *b, *c, *d;  /* operands (b: binary operators, MAX, MIN; c, d: BSHARE) */
} Rx;

/* The variables an equation set names, in order of first use; "P" is
 * always variable 0. */
#define RX_MAX_VARS 32
typedef struct {
    int n;
    char name[RX_MAX_VARS][32];
} RxVars;

void rx_vars_init(RxVars *v);
/* The index of name (added when new), or -1 when the table is full or the
 * name is not an identifier of at most 31 characters. */
int rx_var(RxVars *v, const char *name);

/* Constructors (each takes ownership of its operands; NULL operands give
 * NULL, so that a failed allocation propagates). */
Rx *rx_num(double v);
Rx *rx_varref(int var);
Rx *rx_op(RxKind k, Rx *a, Rx *b);
/* bshare(lo, hi, n, q) and pgrid(p, r, d) (RxKind). */
Rx *rx_bshare(Rx *lo, Rx *hi, Rx *n, Rx *q);
Rx *rx_grid(Rx *p, int r, int d);
/* pgrid(p, r, d, e, q), the declared form (e and q taken over). */
Rx *rx_grid_declared(Rx *p, int r, int d, Rx *e, Rx *q);
Rx *rx_copy(const Rx *e);
/* e with its constant parts folded and the neutral operands (+ 0, * 1, / 1)
 * dropped: the same value for every binding. Takes ownership of e. */
Rx *rx_simplify(Rx *e);
/* Whether a and b are the same expression. */
int rx_equal(const Rx *a, const Rx *b);
/* Whether e names variable var. */
int rx_uses(const Rx *e, int var);
void rx_free(Rx *e);

/* Parse text such as "(1 + floor(zmax/10)) * nx*nline" or
 * "ceil(n/P)*n + log2(P)": numbers, identifiers (variables, added to v),
 * + - * / ^ (right-associative), unary minus, parentheses, and the
 * functions ceil, floor, log2, sqrt (one argument), max, min (two). NULL
 * with a message in err ("col N: ...") on bad input. */
Rx *rx_parse(const char *text, RxVars *v, char *err, size_t errlen);

/* The value with every variable bound (val[i] for variable i). Division by
 * zero, log2 of a number <= 0 and the like give an infinity or a NaN, as C
 * does; rue_check_value tells. */
double rx_eval(const Rx *e, const double *val);

/* e written back as text rx_parse reads (fewest parentheses). */
void rx_print(FILE *out, const Rx *e, const RxVars *v);

/* ---- equations ---------------------------------------------------------- */

typedef enum { RUE_COMP, RUE_COMM, RUE_READ, RUE_WRITE, RUE_NKIND } RueKind;
extern const char *const rue_kind_name[RUE_NKIND];   /* "computation", ... */

typedef struct {
    RueKind kind;
    int phase;                 /* index in Rue.phase */
    int line;                  /* source line of the loop or statement, 0: none */
    char label[64];            /* e.g. "loop 273", "shift u" */
    Rx *calls;                 /* times it runs */
    Rx *count;                 /* per call: iterations, messages, accesses */
    Rx *grow;                  /* start-up's growth in P (NULL: 1) */
    Rx *bytes;                 /* per message or access (NULL: none) */
    double base;               /* seconds: BASE an iteration, or a start-up */
    double perbyte;            /* seconds a byte */
    int fitted;                /* its counts were fitted, not derived */
    int aau;                   /* the AAU it stands for (0: none) */
    Rx *execs;                 /* the executions of the AAU it counts, where they are not
                                  calls x count (a message pattern's count is its
                                  executions' times the messages of each); NULL: those */
} RueTerm;

enum { RUE_MAX_PHASES = 64 };
typedef struct {
    RxVars vars;
    int nphase;
    char phase[RUE_MAX_PHASES][64];   /* phase names */
    int phase_line[RUE_MAX_PHASES];   /* its first source line (0: none) */
    double value[RX_MAX_VARS]; /* the binding the equations were derived at (vars.n) */
    /* the PARAMETER each variable stands for: its name in the program and
       where it lives (its module's name, or the declaring unit's) */
    char pname[RX_MAX_VARS][32], pmodule[RX_MAX_VARS][32];
    int nterm, cap;
    RueTerm *term;
} Rue;

void rue_init(Rue *r);
void rue_free(Rue *r);
/* The index of phase name (added when new); -1 when there are
 * RUE_MAX_PHASES already. */
int rue_phase(Rue *r, const char *name);
/* A term appended (its expressions owned by r from now on); NULL when out
 * of memory or phase is not one of r's. */
RueTerm *rue_add(Rue *r, RueKind kind, int phase, const char *label, Rx *calls, Rx *count);

#endif
