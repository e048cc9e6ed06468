/* lower_int.h - what the SPMD lowering's files share (mapping.c, lower.c,
 * lower_expr.c); not for other stages. */
#ifndef HPF_LOWER_INT_H
#define HPF_LOWER_INT_H

#include "spmd.h"

enum { MAX_SUBST = 64 };

typedef struct {
    Symbol *from;
    Node *to;
} Subst;

typedef struct Lower {
    Arena *a;
    Diag *d;
    Node *file;               /* the SOURCE_FILE: its units, for calls */
    SpProgram *prog;
    SpUnit *u;
    int errors;
    int line;                 /* source line of the statement being lowered */
    Loc loc;
    PtrVec *pre;              /* where hoisted statements go */
    SpLoop *loop;             /* the loop being lowered; NULL in a scalar context */
    PtrVec loopvars;          /* index symbols of that loop (and its inline reductions) */
    Subst subst[MAX_SUBST];
    int nsubst;
    int ntemps;
    struct Dyn *dyn;          /* the unit remaps (dynamic.c); NULL if not */
    int dummies;              /* map_dummy: dummies are mapped too */
    PtrVec pass;              /* passing.c: Pass records */
    PtrVec lowered;           /* SpUnit: those whose bodies are lowered (or begun) */
    PtrVec calls;             /* SpUnit pairs: caller, procedure (or clone) called */
} Lower;

/* lower_ir.c: builders and small helpers */
void lower_error(Lower *L, Loc loc, const char *fmt, ...) HPF_PRINTF(3, 4);
Node *mk_int(Lower *L, long long v);
Node *mk_int_of(Lower *L, long long v, Node *e);
Node *mk_raw_bin(Lower *L, Op op, Node *l, Node *r);
int named(const Node *n);
Node *mk_bin(Lower *L, Op op, Node *l, Node *r);
Node *mk_call(Lower *L, const char *name, Type t, int n, Node **args);
Node *mk_temp_name(Lower *L, int temp, Type t);
Node *mk_name(Lower *L, Symbol *y, Loc loc);
Node *mk_elem(Lower *L, Symbol *y, Loc loc, Type t);   /* y(...), no subscripts yet */
Symbol *hidden_var(Lower *L, SpUnit *u, const char *name, Node *decl);
int new_temp(Lower *L, Type t, int rank);
Symbol *new_index(Lower *L);
Node *index_name(Lower *L, Symbol *v);
int same_expr(const Node *a, const Node *b);
Node *copy_plain(Lower *L, Node *n);                   /* deep copy, with L->subst */
Node *subst_copy(Lower *L, Node *n, Symbol *from, Node *to);

/* mapping.c */
void map_unit(Lower *L);
SpArr *arr_of(Lower *L, Symbol *y);
int tdim_equiv(const SpTmpl *a, int da, const SpTmpl *b, int db);
int tmpl_same(const SpTmpl *a, const SpTmpl *b);
SpArr *new_arr(Lower *L, Symbol *y);
SpArr *map_dummy(Lower *L, Symbol *y);
SpTmpl *make_tmpl(Lower *L, Symbol *y, const char *name, Node *dist);
void align_array(Lower *L, SpArr *r, Node *al);

/* dynamic.c: mappings that change at run time (REDISTRIBUTE, REALIGN).
 * Each mapping an array takes is a version of it (an SpArr of its own);
 * the lowering follows which version holds it at each statement. */
typedef struct DynState DynState;
void dyn_unit(Lower *L);                           /* after map_unit */
SpArr *dyn_arr(Lower *L, Symbol *y);              /* its version here; NULL: not remapped */
SpTmpl *dyn_tmpl(Lower *L, Symbol *y);
void dyn_remap(Lower *L, Node *n, PtrVec *out);   /* a REDISTRIBUTE or a REALIGN */
DynState *dyn_save(Lower *L);                     /* NULL when the unit does not remap */
/* Brings the arrays back to the versions of s (copies into out), with a
 * warning at where, naming why, when it must move any. */
void dyn_back(Lower *L, const DynState *s, PtrVec *out, Loc where, const char *why);
int dyn_same(Lower *L, const DynState *s);
void dyn_set(Lower *L, const DynState *s);
void dyn_loop_enter(Lower *L, DynState *top);     /* EXIT and CYCLE come back to top */
void dyn_loop_leave(Lower *L);
void dyn_jump(Lower *L, Node *n, PtrVec *out);    /* before EXIT, CYCLE, GOTO */
void dyn_label(Lower *L, int label);              /* where a label is */
/* Moves the array from version a to b (b allocated, copied into when
 * copy is set, a deallocated; not the storage of a dummy). */
void dyn_move(Lower *L, SpArr *a, SpArr *b, PtrVec *out, int copy);

/* passing.c: mapped arrays passed to the procedures of the file; a
 * procedure is compiled once per mapping of its dummies (clones) */
int arr_same(const SpArr *a, const SpArr *b);
void pass_order(Lower *L, PtrVec *order);         /* callers first; after map_unit */
void pass_seal(Lower *L, SpUnit *u);              /* its body is being lowered */
SpUnit *pass_callee(Lower *L, const Node *call);  /* binds the dummies, clones */
void pass_name_call(Lower *L, Node *c, const SpUnit *callee);
int pass_takes_mapped(Lower *L, const Node *call);
/* Does the function reference e call a procedure of the file that uses
 * mapped arrays, or is given one or parts of one? Every processor must
 * call it then. */
int call_communicates(Lower *L, Node *e);
int pass_versions(Lower *L);
void pass_enter(Lower *L, PtrVec *out);
void pass_leave(Lower *L, PtrVec *out);
Node *pass_actual(Lower *L, const SpUnit *callee, int pos, Node *v);
void pass_ghosts(Lower *L);                       /* after every body */
void pass_unused(Lower *L);                       /* warnings, after every body */
void pass_prune(Lower *L);                        /* internal procedures not called */

/* lower_expr.c: array expressions element by element, and the lowering of
 * scalar expressions (references classified, reductions hoisted) */
Node *shape_n(Lower *L, Node *e, int d);
Node *inquire(Lower *L, const char *id, Symbol *y, int d);   /* SIZE(y, d + 1) ... */
Node *lbound_of(Lower *L, Symbol *y, int d);                 /* LBOUND(y, d + 1) */
Node *elem(Lower *L, Node *e, Node **pos);
Node *lx(Lower *L, Node *e, SpCtx *ctx);
SpCtx *new_ctx(Lower *L, SpCtx *parent);
int depends_on_loop(Lower *L, Node *e);
int max_round(Node *e);
int affine_of(Lower *L, Node *e, Symbol **v, long long *a, long long *c, Node **rest);
/* lp->ovl: its overlap exchanges, each with the box its shifted references
 * read (spmd.h, SpOverlap); after the loop's body is lowered */
void overlap_boxes(Lower *L, SpLoop *lp);
void direct_apart(Lower *L, SpLoop *lp);
void collect_refs(Node *e, PtrVec *out);
int unit_communicates(Node *unit, int depth);
Node *hoist_value(Lower *L, Node *v);
Node *find_unit(Lower *L, const char *name);
const Symbol *elem_dummy(Lower *L, Node *n, int i, Node *a);  /* lower.c */
Symbol *mapped_array_in(Lower *L, Node *e);                   /* lower.c */
/* a replicated temporary array filled with e; and freed (lower.c) */
Node *temp_array(Lower *L, Node *e, PtrVec *out);
Node *inline_red(Lower *L, Node *e);
int inline_red_ok(Node *e);
void free_temp_array(Lower *L, Node *ref, PtrVec *out);
Node *find_driver(Lower *L, Node **exprs, int n);
void add_stmt(Lower *L, PtrVec *to, SpStmt *s);
SpStmt *new_stmt(Lower *L, SpKind k);
SpLoop *lower_loop(Lower *L, int nidx, Symbol **vars, Node **lo, Node **hi, Node **st,
                   Node *mask, Node *lhs, Node *rhs, int red_op, SpArr *driver);

/* lower.c: one statement; lower_goto.c: a block of statements, where
   loops made of IF and GOTO become DO loops */
void lower_stmt(Lower *L, Node *n, PtrVec *out);
void lower_stmts(Lower *L, PtrVec *src, PtrVec *out);

#endif
