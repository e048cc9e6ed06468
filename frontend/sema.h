/* sema.h - symbols, scopes and constant values: what semantic analysis
 * attaches to the AST, and what later stages (mapping, analysis) read. */
#ifndef HPF_SEMA_H
#define HPF_SEMA_H

#include "ast.h"

enum { MAX_RANK = 7 };
enum { ACCESS_PUBLIC = 1, ACCESS_PRIVATE = 2 };

typedef enum {
    SYM_VARIABLE,        /* scalars and arrays, dummies included */
    SYM_PARAMETER,       /* a named constant */
    SYM_FUNCTION,        /* a function: internal, in the file, or external */
    SYM_SUBROUTINE,
    SYM_PROGRAM,         /* the main program's own name */
    SYM_PROCESSORS,      /* HPF processor arrangement */
    SYM_TEMPLATE,        /* HPF template */
    SYM_INDEX            /* a FORALL or implied-DO index, local to its construct */
} SymKind;

/* A constant value; known == 0 when it is not a constant. */
typedef struct {
    int known;
    Type type;
    long long i;         /* INTEGER, LOGICAL */
    double r;            /* REAL */
} Value;

typedef struct Symbol {
    const char *name;
    SymKind kind;
    Type type;
    int typed;           /* the type was declared, not implied */
    int rank;
    Node *dims[MAX_RANK];          /* DIM nodes as declared */
    long long lo[MAX_RANK], hi[MAX_RANK];   /* bounds; see bounds_known */
    unsigned char bounds_known[MAX_RANK];
    int dummy;           /* position among the dummy arguments, from 1; 0 if none */
    int intent;
    int allocatable, save, external, intrinsic, result;
    int optional;        /* an OPTIONAL dummy */
    int access;          /* a module's entity (or a scope entry USE made there): 0 as the
                            module's default, ACCESS_PUBLIC, ACCESS_PRIVATE */
    int common;          /* in COMMON: its place, the same number for the variables
                            that share it in every unit (block and position), from 1 */
    Value value;         /* SYM_PARAMETER */
    Node *decl;          /* where it was declared (first mention) */
    Node *unit;          /* SYM_FUNCTION, SYM_SUBROUTINE defined in this file */
    Node *align;         /* the ALIGN that maps it */
    Node *distribute;    /* the DISTRIBUTE that maps it */
    int dynamic;         /* DYNAMIC: REDISTRIBUTE or REALIGN may change its mapping */
    int passed;          /* a dummy the SPMD lowering maps as its actuals (passing.c) */
    int inherit;         /* a dummy mapped as its actual: INHERIT, DISTRIBUTE x *, or
                            DISTRIBUTE x *(...) (descriptive: also y->distribute) */
    int assigned;        /* appears on the left of an assignment */
    Node *module;        /* the MODULE it is an entity of (its variables live as long
                            as the program: SAVE), or NULL */
    struct Symbol *alias;/* a scope's entry for a name a USE makes accessible: the
                            module's symbol it stands for (scope_lookup answers that) */
    const char *ambiguous; /* such an entry: another module that gives the name too (an
                              error where the name is used, not before: Fortran 95 11.3.2) */
    struct Symbol *next; /* hash chain */
} Symbol;

typedef struct Scope {
    struct Scope *parent;          /* the host of an internal subprogram */
    Node *unit;
    Symbol **buckets;
    int nbuckets, count;
    PtrVec symbols;                /* in declaration order, for dumps (not the USE
                                      aliases) */
    PtrVec aliases;                /* the entries USE added: Symbol with alias set */
    int implicit_none;
    Type implicit[26];             /* TY_NONE where no implicit type applies */
    int use_failed;                /* a USE named no module of the file: names it would
                                      have given are not reported undeclared */
    int default_private;           /* a module with a PRIVATE statement of no names */
} Scope;

Symbol *scope_lookup_local(const Scope *s, const char *name);
Symbol *scope_lookup(const Scope *s, const char *name);   /* with the host's */
Symbol *scope_add(Arena *a, Scope *s, const char *name, SymKind kind, Node *decl);
/* Makes name in s stand for target (a module's entity, by USE); the entry
 * is not among s->symbols. */
Symbol *scope_add_alias(Arena *a, Scope *s, const char *name, Symbol *target, Node *decl);
/* The entry for name in s itself: an alias is returned as such. */
Symbol *scope_entry(const Scope *s, const char *name);
Scope *scope_new(Arena *a, Scope *parent, Node *unit);

/* A -D NAME=VALUE override of a PARAMETER. */
typedef struct {
    const char *name;
    const char *value;
    int used;
} Define;

/* A command line's -D NAME=VALUE (arg, split and its NAME lower-cased in
 * place) added to defs[0..*ndefs-1]. NULL, or why it is refused (a static
 * string with one %s for arg): no '=', no name or no value, the name given
 * twice (a second -D would be taken for the first or ignored). */
const char *define_add(Define **defs, int *ndefs, char *arg);

/* Semantic analysis of a parsed file; returns the number of errors. */
int sema_check(Node *file, Arena *a, Diag *d, Define *defs, int ndefs);

const char *sym_kind_name(SymKind k);

/* Whether an intrinsic subroutine CALL n (REF_INTRINSIC: CPU_TIME,
 * SYSTEM_CLOCK, ...) sets its i-th actual argument. */
int sema_intrinsic_sets(const Node *n, int i);

/* The value of an integer constant expression (literals, PARAMETERs,
 * + - * /): 1 and *v set, or 0 (symtab.c). */
int cint(const Node *n, long long *v);

#endif
