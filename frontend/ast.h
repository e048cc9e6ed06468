/* ast.h - the abstract syntax tree: one node struct with a common header
 * and a union per kind (ast.def says which), built in the compilation's
 * arena by the parser and annotated with types and shapes by sema. */
#ifndef HPF_AST_H
#define HPF_AST_H

#include "diag.h"
#include "util.h"

typedef enum {
#define AST_KIND(name, member, group) AST_##name,
#include "ast.def"
#undef AST_KIND
    AST_KIND_COUNT
} AstKind;

typedef enum {
    OP_NONE,
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_POW, OP_CONCAT,
    OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
    OP_AND, OP_OR, OP_EQV, OP_NEQV,
    OP_NOT, OP_NEG, OP_PLUS,     /* unary */
    OP_COUNT
} Op;

/* Intrinsic types. Kinds follow gfortran: 4 and 8 bytes. */
typedef enum {
    TY_NONE,         /* not an expression, or not known yet */
    TY_INTEGER, TY_REAL, TY_COMPLEX, TY_LOGICAL, TY_CHARACTER,
    TY_ERROR         /* an error was reported: say nothing more about it */
} TypeBase;

typedef struct {
    unsigned char base;   /* TypeBase */
    unsigned char kind;   /* bytes: 4 or 8; 1 for CHARACTER */
} Type;

typedef struct Node Node;
struct Symbol;
struct Scope;

/* A type specifier as written: INTEGER, REAL(8), REAL(KIND=8), REAL*8,
 * DOUBLE PRECISION, CHARACTER(LEN=20), CHARACTER*(*) ... */
typedef struct {
    TypeBase base;
    int dbl;             /* spelled DOUBLE PRECISION */
    Node *kind;          /* kind selector expression, or NULL */
    Node *len;           /* CHARACTER length expression (STAR for *), or NULL */
    int star;            /* the old form: REAL*8, CHARACTER*20; 0 if absent */
    Loc loc;
} TypeSpec;

enum { REF_UNRESOLVED, REF_ELEMENT, REF_SECTION, REF_FUNCTION, REF_INTRINSIC,
       REF_SUBSTRING };     /* REF_SUBSTRING: s(lo:hi) of a CHARACTER scalar, args one TRIPLET */
enum { UNIT_PROGRAM, UNIT_SUBROUTINE, UNIT_FUNCTION, UNIT_MODULE };
enum { ATTR_PARAMETER, ATTR_DIMENSION, ATTR_ALLOCATABLE, ATTR_INTENT, ATTR_SAVE,
       ATTR_EXTERNAL, ATTR_INTRINSIC, ATTR_OPTIONAL, ATTR_PUBLIC, ATTR_PRIVATE };
enum { INTENT_NONE, INTENT_IN, INTENT_OUT, INTENT_INOUT };
enum { DIST_BLOCK, DIST_CYCLIC, DIST_STAR };
enum { DIST_PRESCRIPTIVE, DIST_DESCRIPTIVE, DIST_TRANSCRIPTIVE };
enum { DIM_EXPLICIT, DIM_DEFERRED, DIM_ASSUMED_SIZE };   /* a(n), a(:), a(*) */

struct Node {
    AstKind kind;
    Loc loc;
    int label;           /* statement label, 0 if none */
    int close_label;     /* constructs: the label of their END statement */
    int depth;           /* expression nesting, bounded by the parser */
    Type type;           /* expressions: set by sema */
    int rank;            /* expressions: 0 for scalars */
    long long *extent;   /* expressions of rank > 0: extents, -1 if not constant */
    void *ir;            /* nodes built by the SPMD lowering: its annotation (spmd.h) */
    Node *sym;           /* an integer constant the SPMD lowering folded from an expression
                            of PARAMETERs (an array's extent, a trip count): that
                            expression, unfolded, for the predictor's resource usage
                            equations (interp/rue_aag.c); NULL otherwise */
    union {
        struct { const char *text; long long ival; double rval; int kind;
                 const char *str; } konst;  /* text: as written; str: string value */
        struct { const char *id; struct Symbol *sym; } name;
        struct { const char *id; PtrVec args; struct Symbol *sym; int what;
                 const struct Intrinsic *intr; } ref;
        struct { Op op; Node *lhs, *rhs; } binary;
        struct { Op op; Node *operand; } unary;
        struct { Node *lo, *hi, *stride; } triplet;
        struct { const char *id; Node *value; Loc id_loc; } kwarg;
        struct { PtrVec items; const char *name; } list;   /* name: a COMMON block's,
                                                             NULL for blank COMMON */
        struct { PtrVec items; Node *var, *lo, *hi, *step; } impdo;
        struct { Node *lhs, *rhs; } assign;
        struct { PtrVec branches; Loc end_loc;
                 Node *selector; int jump; } cond;   /* selector: an IF made of a SELECT
                                                        CASE, or of an arithmetic IF (jump
                                                        1) or a computed GOTO (jump 2) */
        struct { Node *cond; PtrVec body; } branch;
        struct { Node *cond, *stmt; } lif;
        struct { int end_label; Node *var, *lo, *hi, *step, *cond; PtrVec body;
                 Node *independent; Loc end_loc; } loop;
        struct { int target; } jump;
        struct { Node *fmt; PtrVec control, items; int short_form; } io;
        struct { PtrVec indices; Node *mask; PtrVec body; int construct;
                 Node *independent; Loc end_loc; } forall;
        struct { const char *id; Node *lo, *hi, *stride; struct Symbol *sym; } findex;
        struct { PtrVec items; Node *stat; } alloc;
        struct { TypeSpec spec; PtrVec attrs, entities; int colons; } decl;
        struct { int which; PtrVec dims; int intent; } attr;
        struct { const char *id; PtrVec dims; Node *init; Node *len;
                 struct Symbol *sym; } entity;
        struct { int form; Node *lo, *hi; } dim;
        struct { int none; PtrVec rules; } implicit;
        struct { TypeSpec spec; unsigned char letters[26]; } irule;
        struct { PtrVec names, formats; const char *onto; Loc onto_loc;
                 const char *target; int attributed;
                 int star; } dist;     /* DIST_PRESCRIPTIVE, _DESCRIPTIVE `*(...)`,
                                          _TRANSCRIPTIVE `*` (dummies) */
        struct { int fmt; Node *arg; } distfmt;
        struct { PtrVec names, src, tgt; const char *target; Loc target_loc;
                 int attributed; } align;
        struct { int which; const char *id; PtrVec args; const char *result;
                 TypeSpec *rtype; PtrVec body, contains; struct Scope *scope;
                 Loc end_loc; Node *host; int recursive;
                 PtrVec formats, datas, uses; } unit;   /* formats: its FORMAT statements,
                                                     as labelled STRING_CONSTs; datas:
                                                     its DATA sets, as ASSIGNs of an
                                                     object and an ARRAY_CTOR; uses:
                                                     its USE statements */
        struct { const char *module; Loc mod_loc; PtrVec items; int only; } use;
                                                  /* items: KEYWORD_ARG local => NAME of
                                                     the module's entity */
    } u;
};

extern const char *const ast_kind_name[AST_KIND_COUNT];
extern const char *const op_spelling[OP_COUNT];   /* "+", ".and.", ... */

Node *ast_new(Arena *a, AstKind kind, Loc loc);
int ast_is_expr(AstKind k);
int ast_is_stmt(AstKind k);

/* The generic walker: calls fn on each direct child of n (lists included,
 * NULL children skipped), in source order. A pass handles the kinds it cares
 * about and calls ast_children for the rest. fn returns nonzero to stop. */
typedef int (*AstVisit)(Node *child, void *ctx);
int ast_children(Node *n, AstVisit fn, void *ctx);

/* Argument i of a call or reference (counted among the positional ones),
 * or the one given with keyword kw; the value of a keyword argument. NULL
 * when there is none. */
Node *ast_arg(const Node *call, int i, const char *kw);

const char *type_name(Type t);   /* "integer", "real(8)" ... (static storage) */

void ast_dump(FILE *out, const Node *root);          /* dump.c */
void ast_unparse(FILE *out, const Node *root);       /* unparse.c */

/* Expressions printed with unparse's precedence rules by another printer:
 * the hook sees every node first and prints it itself (returning 1) with
 * unparse_put and unparse_expr, or leaves it to unparse (returning 0). */
typedef struct Unparse Unparse;
typedef int (*UnparseHook)(Unparse *u, const Node *n, void *ctx);
void unparse_put(Unparse *u, const char *s);
void unparse_expr(Unparse *u, const Node *n);
char *unparse_expr_string(const Node *n, UnparseHook hook, void *ctx);   /* heap */
char *unparse_stmt_string(const Node *n, UnparseHook hook, void *ctx);   /* heap */
char *unparse_type_string(const TypeSpec *s, UnparseHook hook, void *ctx); /* heap */

#endif
