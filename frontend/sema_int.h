/* sema_int.h - what the files of the semantic analysis share (sema.c,
 * sema_decl.c, sema_expr.c, sema_intrinsic.c, sema_fold.c); not for other
 * stages. */
#ifndef HPF_SEMA_INT_H
#define HPF_SEMA_INT_H

#include "sema.h"

typedef struct Sema {
    Arena *arena;
    Diag *diag;
    Scope *scope;              /* the unit being checked */
    Node *file;
    Define *defs;
    int ndefs;
    PtrVec indices;            /* FORALL and implied-DO index symbols in force */
    int loop_depth;            /* DO loops around the statement */
    PtrVec stmtfns;            /* the unit's statement functions: their ASSIGNs */
    PtrVec commons;            /* the file's COMMON places (sema.c common_places) */
    int inlining;              /* statement function references being expanded */
    Loc at;                    /* the expression or statement being checked */
    PtrVec calls;              /* references to procedures of the file, in threes: the
                                  reference, the procedure's unit, the calling unit
                                  (sema_match_actuals, check_recursion) */
} Sema;

/* sema_expr.c */
void sema_expr(Sema *s, Node *e);
Value sema_fold(Sema *s, Node *e);           /* constant value of a checked expression */
int sema_int_const(Sema *s, Node *e, long long *out);
Symbol *sema_implicit(Sema *s, const char *name, Node *where);
Symbol *sema_lookup(Sema *s, const char *name);
int is_intrinsic_name(const char *name);
int is_numeric(Type t);
int conform(Sema *s, const Node *a, const Node *b, Loc loc, const char *what);
Node *sema_convert(Sema *s, Node *x, Type t);   /* INT(x, k) or REAL(x, k) */
void sema_actuals(Sema *s, Node *e, Node *u);
void sema_match_actuals(Sema *s, Node *e, Node *u);

/* sema_decl.c: declarations and the HPF mapping directives, which
   sema.c calls by statement */
Type sema_spec_type(Sema *s, const TypeSpec *sp);
Symbol *sema_declare(Sema *s, const char *name, Node *where);
void sema_set_dims(Sema *s, Symbol *y, PtrVec *dims, Node *where);
void sema_check_dim_forms(Sema *s, Symbol *y, Node *where);
void sema_make_parameter(Sema *s, Symbol *y, Node *init, Node *where);
void sema_type_decl(Sema *s, Node *n);
void sema_implicit_stmt(Sema *s, Node *n);
void sema_mapping_object(Sema *s, Node *n, SymKind kind);
Symbol *sema_mappable(Sema *s, const char *name, Loc loc, const char *directive);
int sema_inheriting(Sema *s, Node *nm, const char *what);
void sema_distribute(Sema *s, Node *n);
void sema_align(Sema *s, Node *n);

/* sema_expr.c: the helpers of expressions */
int sema_is_error(const Node *e);
void sema_set_error(Node *e);
void sema_set_shape(Sema *s, Node *e, int rank, const long long *ext);
void sema_copy_shape(Sema *s, Node *to, const Node *from);
void sema_substring(Sema *s, Node *e, Symbol *y);

/* sema_intrinsic.c: the intrinsic procedures of the subset, by class */
typedef enum {
    I_ELEMENTAL,     /* result: the operands' conformed shape */
    I_REDUCE,        /* SUM PRODUCT MAXVAL MINVAL COUNT ANY ALL: [DIM=] drops a dimension */
    I_LOC,           /* MAXLOC MINLOC */
    I_DOT,           /* DOT_PRODUCT */
    I_SHIFT,         /* CSHIFT EOSHIFT: the array's shape */
    I_TRANSPOSE, I_SPREAD, I_MATMUL,
    I_RESHAPE,       /* RESHAPE (SOURCE, SHAPE): the rank SHAPE's size gives */
    I_PACK,          /* PACK: rank 1; UNPACK: the mask's shape */
    I_SIZE,          /* SIZE, and LBOUND/UBOUND with DIM= */
    I_BOUND,         /* LBOUND UBOUND */
    I_SHAPE,
    I_NPROCS,        /* NUMBER_OF_PROCESSORS */
    I_NUMINQ,        /* HUGE TINY EPSILON: a scalar of the argument's type */
    I_KIND,          /* KIND SELECTED_REAL_KIND SELECTED_INT_KIND: folded to a constant */
    I_STATUS,        /* ALLOCATED PRESENT: of an ALLOCATABLE array, an OPTIONAL dummy */
    I_CHARS          /* LEN TRIM: of a character scalar (LEN: or array), a scalar */
} IntrClass;

typedef enum {
    R_ARG,           /* the first argument's type */
    R_INT, R_REAL, R_DBLE, R_LOGICAL,
    R_REAL_OF_ARG,   /* REAL of the argument's kind (ABS of COMPLEX) */
    R_CMPLX          /* COMPLEX (default kind, or KIND=) */
} IntrResult;

typedef struct Intrinsic {
    const char *name;
    IntrClass cls;
    IntrResult res;
    int min, max;        /* argument counts; max -1: any */
    const char *keywords;/* argument keywords, in order, comma-separated */
    int numeric_only;    /* arguments must be numeric; 2: REAL or COMPLEX */
} Intrinsic;

const Intrinsic *sema_find_intrinsic(const char *name);
int sema_is_unsupported_intrinsic(const char *name);
void sema_check_intrinsic(Sema *s, Node *e, const Intrinsic *in);

#endif
