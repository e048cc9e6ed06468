/* sema_int.h - what sema.c and sema_expr.c share; not for other stages. */
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
    PtrVec calls;              /* references to procedures of the file: the reference,
                                  then the procedure's unit (sema_match_actuals) */
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

#endif
