/* aag_crit.c - the critical variables of the abstraction parse (the
 * paper's extended symbol table, section 4.2): the variables whose values
 * decide control flow, trip counts, masks, message sizes or partners, and
 * by propagation every variable their definitions read. Flow-insensitive
 * and at the level of whole variables (an array is critical as a whole).
 * Also answers, per loop, whether the cost of its body varies from
 * iteration to iteration (the IterND test). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "aag_int.h"

typedef struct {
    int *v;
    int n, cap;
} IVec;

static void iv_push(IVec *x, int k)
{
    for (int i = 0; i < x->n; i++)
        if (x->v[i] == k)
            return;             /* a set: each variable once */
    if (x->n == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 8;
        x->v = xrealloc(x->v, (size_t)x->cap * sizeof *x->v);
    }
    x->v[x->n++] = k;
}

typedef struct {
    const Symbol *sym;         /* NULL for a temporary */
    const char *name;
    const SpUnit *unit;
    int crit, held;
    int in;                    /* its value is needed (not only what a call leaves in it) */
    int line;
    const char *why;
    int order;                 /* when it became critical */
    int arr_path;              /* by_array before masking with crit */
    int in_loop;
    int hnext;                 /* temporaries: hash chain */
} CVar;

typedef struct {
    int var;
    const SpStmt *stmt;
    int sidx;                  /* CStmt index */
    int pos, depth, line;
    int array;                 /* an SP_FORALL or SP_REDUCE statement */
    int dovar;                 /* a DO statement's own variable */
    IVec reads;
} CDef;

typedef struct {
    int var, pos, line;
    const char *why;
} CUse;

/* A call of a procedure of the file: per argument position, the variable
 * passed by reference (or -1) and the variables the actual reads. */
typedef struct {
    const SpUnit *callee;
    const SpUnit *unit;
    int pos;                   /* of the statement making it */
    int line, nargs;
    int *actual;
    IVec *reads;
} CCall;

typedef struct {
    const SpStmt *s;
    const SpUnit *unit;
    int pos, end;
    int loop;                  /* SP_DO or SP_WHILE */
    int var;                   /* SP_DO: its variable, or -1 */
    IVec condvars;             /* SP_IF: what the conditions read */
    int ctl, target;           /* control statement: AST kind, GOTO label */
    int crit;                  /* defines a critical, not held variable */
} CStmt;

enum { TEMP_BUCKETS = 1024 };

struct Crit {
    CVar *vars;
    int nvars, capvars;
    PMap symvar;
    IVec common;                  /* by COMMON place (Symbol.common, from 1): its variable,
                                     one for the symbols of every unit at that place */
    int buckets[TEMP_BUCKETS];
    CDef *defs;
    int ndefs, capdefs;
    CUse *uses;
    int nuses, capuses;
    CCall *calls;
    int ncalls, capcalls;
    CStmt *st;
    int nst, capst;
    PMap stmtidx;
    int pos, depth, order;
    const SpUnit *unit;
};

#define GROW(arr, n, cap) do { \
        if ((n) == (cap)) { \
            (cap) = (cap) ? 2 * (cap) : 32; \
            (arr) = xrealloc((arr), (size_t)(cap) * sizeof *(arr)); \
        } \
    } while (0)

/* ---- variables ---- */

/* Was the name given with -D? */
static int held_name(Build *B, const char *name)
{
    for (int i = 0; i < B->o->nheld; i++)
        if (B->o->held[i] && str_ieq(B->o->held[i], name))
            return 1;
    return 0;
}

/* A new entry of the variable table (held when named with -D). */
static int new_var(Build *B, const Symbol *y, const char *name, const SpUnit *u)
{
    Crit *C = B->crit;
    GROW(C->vars, C->nvars, C->capvars);
    CVar *v = &C->vars[C->nvars];
    memset(v, 0, sizeof *v);
    v->sym = y;
    v->name = name;
    v->unit = u;
    v->held = held_name(B, name);
    v->hnext = -1;
    return C->nvars++;
}

/* The unit whose scope declares y (a host's variable seen from an
 * internal procedure belongs to the host). */
static const SpUnit *owner_of(Build *B, const Symbol *y)
{
    for (int i = 0; i < B->prog->units.n; i++) {
        const SpUnit *u = B->prog->units.v[i];
        if (u->scope && scope_lookup_local(u->scope, y->name) == y)
            return u;
    }
    return B->crit->unit;
}


/* The table entry of a program variable (not a constant, an index or a
 * procedure), or -1. The variables at one place of blank COMMON are one
 * entry, whichever unit names them: a procedure that assigns one defines
 * what its caller reads. */
static int var_sym(Build *B, const Symbol *y)
{
    Crit *C = B->crit;
    if (!y || y->kind != SYM_VARIABLE)
        return -1;
    int k = pmap_get(&C->symvar, y);
    if (k >= 0)
        return k;
    const SpUnit *u = owner_of(B, y);
    int pos = y->common;          /* its COMMON place, shared across units (sema) */
    if (pos > 0 && pos <= C->common.n && C->common.v[pos - 1] >= 0) {
        k = C->common.v[pos - 1];
    } else {
        k = new_var(B, y, y->name, u);
        if (pos > C->common.n) {
            C->common.v = xrealloc(C->common.v, (size_t)pos * sizeof *C->common.v);
            while (C->common.n < pos)
                C->common.v[C->common.n++] = -1;
        }
        if (pos > 0)
            C->common.v[pos - 1] = k;
    }
    pmap_put(&C->symvar, y, k);
    return k;
}

static unsigned str_hash(const char *s, const void *u)
{
    unsigned h = 2166136261u ^ (unsigned)(size_t)u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h % TEMP_BUCKETS;
}

/* A variable of unit u known by name alone (a temporary: hpf_t3, hpf_w1;
 * an array's shape). */
static int var_named(Build *B, const char *name, const SpUnit *u)
{
    Crit *C = B->crit;
    unsigned h = str_hash(name, u);
    for (int k = C->buckets[h]; k >= 0; k = C->vars[k].hnext)
        if (C->vars[k].unit == u && !strcmp(C->vars[k].name, name))
            return k;
    int k = new_var(B, NULL, arena_strdup(B->a, name), u);
    C->vars[k].hnext = C->buckets[h];
    C->buckets[h] = k;
    return k;
}

/* A temporary of the current unit, by name. */
static int var_temp(Build *B, const char *name)
{
    return var_named(B, name, B->crit->unit);
}

/* The variable an lvalue or an actual argument names: a scalar, an array
 * (element or section), a temporary; -1 for anything else. */
static int var_of(Build *B, const Node *n)
{
    if (!n)
        return -1;
    if (n->kind == AST_KEYWORD_ARG)
        return var_of(B, n->u.kwarg.value);
    if (n->kind == AST_NAME)
        return n->u.name.sym ? var_sym(B, n->u.name.sym) : var_temp(B, n->u.name.id);
    if (n->kind == AST_REF && (n->u.ref.what == REF_ELEMENT || n->u.ref.what == REF_SECTION)) {
        const SpRef *r = n->ir;
        if (r && r->arr && !r->arr->sym)
            return var_temp(B, r->arr->name);
        /* a replicated temporary array (a READ's buffer) has no symbol */
        return n->u.ref.sym ? var_sym(B, n->u.ref.sym) : var_temp(B, n->u.ref.id);
    }
    return -1;
}

/* The shape of an ALLOCATABLE array, a variable of its own that its
 * ALLOCATE statements define (so that an inquiry of it makes them
 * critical, not every assignment of the array); -1 for other arrays. */
static int shape_var(Build *B, const Node *n)
{
    const Symbol *y = n->kind == AST_NAME ? n->u.name.sym
                      : n->kind == AST_REF ? n->u.ref.sym : NULL;
    if (!y || !y->allocatable)
        return -1;
    /* (the unit that declares it: a module's array is allocated in one
       unit and inquired in others) */
    return var_named(B, arena_printf(B->a, "shape of %s", y->name), owner_of(B, y));
}

/* ---- what expressions read ---- */

static void reads(Build *B, const Node *e, IVec *out);

static int inquiry(const char *id)
{
    static const char *const names[] = {"size", "lbound", "ubound", "shape", "len",
                                        "kind", "allocated", "present"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(names[i], id))
            return 1;
    return 0;
}

static void reads_red(Build *B, const SpRed *sr, IVec *out)
{
    reads(B, sr->n, out);
    reads(B, sr->body, out);
    reads(B, sr->mask, out);
}

/* The variables an expression reads: scalars, arrays (any element),
 * temporaries; through inline reductions and the arguments of calls. */
static void reads(Build *B, const Node *e, IVec *out)
{
    if (!e)
        return;
    int k;
    switch (e->kind) {
    case AST_NAME:
        k = var_of(B, e);
        if (k >= 0)
            iv_push(out, k);
        return;
    case AST_PAREN: case AST_UNARY:
        reads(B, e->u.unary.operand, out);
        return;
    case AST_BINARY: case AST_COMPLEX_CONST:
        reads(B, e->u.binary.lhs, out);
        reads(B, e->u.binary.rhs, out);
        return;
    case AST_KEYWORD_ARG:
        reads(B, e->u.kwarg.value, out);
        return;
    case AST_TRIPLET:
        reads(B, e->u.triplet.lo, out);
        reads(B, e->u.triplet.hi, out);
        reads(B, e->u.triplet.stride, out);
        return;
    case AST_IMPLIED_DO:
        for (int i = 0; i < e->u.impdo.items.n; i++)
            reads(B, e->u.impdo.items.v[i], out);
        reads(B, e->u.impdo.lo, out);
        reads(B, e->u.impdo.hi, out);
        reads(B, e->u.impdo.step, out);
        return;
    case AST_ARRAY_CTOR:
        for (int i = 0; i < e->u.list.items.n; i++)
            reads(B, e->u.list.items.v[i], out);
        return;
    case AST_REF:
        if (e->u.ref.what == REF_INTRINSIC && e->ir) {
            reads_red(B, e->ir, out);
            return;
        }
        if (e->u.ref.what == REF_ELEMENT || e->u.ref.what == REF_SECTION) {
            k = var_of(B, e);
            if (k >= 0)
                iv_push(out, k);
            const SpRef *r = e->ir;
            for (int d = 0; d < e->u.ref.args.n; d++)
                reads(B, r && d < MAX_RANK && r->sub[d] ? r->sub[d] : e->u.ref.args.v[d], out);
            return;
        }
        for (int i = 0; i < e->u.ref.args.n; i++) {
            const Node *a = e->u.ref.args.v[i];
            /* an inquiry reads its array's shape, not its values: of an
               ALLOCATABLE array, what its ALLOCATE defines */
            if (i == 0 && inquiry(e->u.ref.id) && a->rank) {
                k = shape_var(B, a);
                if (k >= 0)
                    iv_push(out, k);
                continue;
            }
            reads(B, a, out);
        }
        return;
    default:
        return;
    }
}

/* Only the subscripts of an lvalue. */
static void reads_subs(Build *B, const Node *lhs, IVec *out)
{
    if (lhs && lhs->kind == AST_REF) {
        const SpRef *r = lhs->ir;
        for (int d = 0; d < lhs->u.ref.args.n; d++)
            reads(B, r && d < MAX_RANK && r->sub[d] ? r->sub[d] : lhs->u.ref.args.v[d], out);
    }
}

/* ---- collecting uses, definitions, calls ---- */

/* A critical use: every variable e reads. */
static void use(Build *B, const Node *e, const char *why, const SpStmt *s)
{
    Crit *C = B->crit;
    IVec r = {0};
    reads(B, e, &r);
    for (int i = 0; i < r.n; i++) {
        GROW(C->uses, C->nuses, C->capuses);
        C->uses[C->nuses++] = (CUse){r.v[i], C->pos, s->line, why};
    }
    free(r.v);
}

/* A definition of var by statement s; the caller adds what it reads. */
static CDef *def(Build *B, int var, const SpStmt *s, int sidx)
{
    Crit *C = B->crit;
    GROW(C->defs, C->ndefs, C->capdefs);
    CDef *d = &C->defs[C->ndefs++];
    memset(d, 0, sizeof *d);
    d->var = var;
    d->stmt = s;
    d->sidx = sidx;
    d->pos = C->pos;
    d->depth = C->depth;
    d->line = s->line;
    return d;
}

static const Symbol *dummy_sym(const SpUnit *u, int k)
{
    const PtrVec *args = &u->unit->u.unit.args;
    if (k < 0 || k >= args->n)
        return NULL;
    const Node *a = args->v[k];
    return a->kind == AST_NAME ? a->u.name.sym : NULL;
}

/* The dummy position an actual argument binds to (keywords by name). */
static int arg_position(const SpUnit *callee, const Node *call, int i)
{
    const Node *a = call->u.ref.args.v[i];
    if (a->kind != AST_KEYWORD_ARG || !callee)
        return i;
    const PtrVec *args = &callee->unit->u.unit.args;
    for (int k = 0; k < args->n; k++) {
        const Node *d = args->v[k];
        if (d->kind == AST_NAME && str_ieq(d->u.name.id, a->u.kwarg.id))
            return k;
    }
    return i;
}

/* Does the callee (may) assign dummy k? */
static int dummy_assigned(const SpUnit *callee, int k)
{
    const Symbol *y = dummy_sym(callee, k);
    return !y || y->assigned || y->intent == INTENT_OUT || y->intent == INTENT_INOUT;
}

/* A CALL or a function reference: the links between actuals and dummies;
 * for a CALL statement the variables it may define. */
static void call_site(Build *B, const Node *call, const SpStmt *s, int sidx, int is_stmt)
{
    Crit *C = B->crit;
    const SpUnit *callee = aag_callee(B, call);
    int n = call->u.ref.args.n;
    IVec all = {0};
    for (int i = 0; i < n; i++)
        reads(B, call->u.ref.args.v[i], &all);
    if (callee) {
        GROW(C->calls, C->ncalls, C->capcalls);
        CCall *c = &C->calls[C->ncalls++];
        c->callee = callee;
        c->unit = C->unit;
        c->pos = C->pos;
        c->line = s->line;
        c->nargs = callee->unit->u.unit.args.n;
        c->actual = xcalloc((size_t)(c->nargs ? c->nargs : 1), sizeof *c->actual);
        c->reads = xcalloc((size_t)(c->nargs ? c->nargs : 1), sizeof *c->reads);
        for (int k = 0; k < c->nargs; k++) {
            c->actual[k] = -1;
            var_sym(B, dummy_sym(callee, k));   /* made now: the fixed point adds none */
        }
        for (int i = 0; i < n; i++) {
            int k = arg_position(callee, call, i);
            if (k >= c->nargs)
                continue;
            const Node *a = call->u.ref.args.v[i];
            c->actual[k] = var_of(B, a);
            reads(B, a, &c->reads[k]);
        }
    }
    if (is_stmt)
        for (int i = 0; i < n; i++) {
            int v = var_of(B, call->u.ref.args.v[i]);
            if (v >= 0 && (!callee || dummy_assigned(callee, arg_position(callee, call, i)))) {
                CDef *d = def(B, v, s, sidx);
                for (int j = 0; j < all.n; j++)
                    iv_push(&d->reads, all.v[j]);
            }
        }
    free(all.v);
}

static int calls_visit(Node *n, void *ctx)
{
    void **c = ctx;
    Build *B = c[0];
    if (n->kind == AST_REF && n->u.ref.what == REF_INTRINSIC && n->ir) {
        const SpRed *sr = n->ir;
        calls_visit(sr->n, ctx);
        calls_visit(sr->body, ctx);
        if (sr->mask)
            calls_visit(sr->mask, ctx);
        return 0;
    }
    if (n->kind == AST_REF && aag_callee(B, n))
        call_site(B, n, c[1], *(int *)c[2], 0);
    ast_children(n, calls_visit, ctx);
    return 0;
}

/* Function references in an expression. */
static void calls_in(Build *B, const Node *e, const SpStmt *s, int sidx)
{
    if (!e)
        return;
    void *c[3] = {B, (void *)s, &sidx};
    calls_visit((Node *)e, c);
}

static void red_uses_visit(Build *B, const Node *e, const SpStmt *s);

static int red_uses_cb(Node *n, void *ctx)
{
    void **c = ctx;
    red_uses_visit(c[0], n, c[1]);
    return 0;
}

/* Inline reductions: their trip counts and masks are critical uses. */
static void red_uses_visit(Build *B, const Node *e, const SpStmt *s)
{
    if (!e)
        return;
    if (e->kind == AST_REF && e->u.ref.what == REF_INTRINSIC && e->ir) {
        const SpRed *sr = e->ir;
        use(B, sr->n, "reduction bound", s);
        if (sr->mask)
            use(B, sr->mask, "mask", s);
        red_uses_visit(B, sr->body, s);
        red_uses_visit(B, sr->mask, s);
        return;
    }
    void *c[2] = {B, (void *)s};
    ast_children((Node *)e, red_uses_cb, c);
}

/* The bounds that size an I/O item (the engine evaluates them, aag.h
 * io_dyn): implied DOs', sections' triplets. */
static void io_size_visit(Build *B, const Node *e, const SpStmt *s)
{
    if (e && e->kind == AST_IMPLIED_DO) {
        use(B, e->u.impdo.lo, "io size", s);
        use(B, e->u.impdo.hi, "io size", s);
        use(B, e->u.impdo.step, "io size", s);
        for (int i = 0; i < e->u.impdo.items.n; i++)
            io_size_visit(B, e->u.impdo.items.v[i], s);
    } else if (e && e->kind == AST_ARRAY_CTOR) {
        for (int i = 0; i < e->u.list.items.n; i++)
            io_size_visit(B, e->u.list.items.v[i], s);
    } else if (e && e->kind == AST_REF && e->u.ref.what == REF_SECTION) {
        for (int d = 0; d < e->u.ref.args.n; d++) {
            const Node *t = e->u.ref.args.v[d];
            if (t->kind != AST_TRIPLET)
                continue;
            use(B, t->u.triplet.lo, "io size", s);
            use(B, t->u.triplet.hi, "io size", s);
            use(B, t->u.triplet.stride, "io size", s);
        }
    }
}

static void walk_stmts(Build *B, const PtrVec *v);

/* SP_FORALL, SP_REDUCE: critical uses of the loop; its definition of the
 * left-hand array (or the accumulator), reading everything else. */
static void walk_loop(Build *B, const SpStmt *s, int sidx)
{
    const SpLoop *lp = s->u.loop;
    for (int k = 0; k < lp->nidx; k++) {
        const SpIndex *ix = &lp->idx[k];
        use(B, ix->lo, "forall bound", s);
        use(B, ix->hi, "forall bound", s);
        use(B, ix->st, "forall bound", s);
        if (ix->dist)
            use(B, ix->b, "forall bound", s);
    }
    for (int g = 0; g < lp->nguard; g++)
        use(B, lp->guard[g].sub, "guard", s);
    for (int i = 0; i < lp->novl; i++)
        for (int e = 0; e < lp->ovl[i].arr->rank; e++)
            if (lp->ovl[i].lo[e]) {
                use(B, lp->ovl[i].lo[e], "shift box", s);
                use(B, lp->ovl[i].hi[e], "shift box", s);
            }
    if (lp->mask)
        use(B, lp->mask, "mask", s);
    if (lp->direct_if)
        use(B, lp->direct_if, "in place on one process", s);
    red_uses_visit(B, lp->mask, s);
    red_uses_visit(B, lp->rhs, s);
    for (int i = 0; i < lp->gathers.n; i++) {
        const SpGather *g = lp->gathers.v[i];
        for (int d = 0; d < g->r->arr->rank; d++)
            use(B, g->r->sub[d], "gather index", s);
    }
    if (lp->scatter) {
        const SpRef *r = lp->lhs->ir;
        for (int d = 0; d < r->arr->rank; d++)
            use(B, r->sub[d], "scatter index", s);
    }
    calls_in(B, lp->rhs, s, sidx);
    calls_in(B, lp->mask, s, sidx);
    /* what it defines, and what that reads */
    IVec r = {0};
    reads(B, lp->rhs, &r);
    reads(B, lp->mask, &r);
    for (int k = 0; k < lp->nidx; k++) {
        reads(B, lp->idx[k].lo, &r);
        reads(B, lp->idx[k].hi, &r);
        reads(B, lp->idx[k].st, &r);
        if (lp->idx[k].dist)
            reads(B, lp->idx[k].b, &r);
    }
    for (int g = 0; g < lp->nguard; g++)
        reads(B, lp->guard[g].sub, &r);
    int targets[2] = {-1, -1};
    if (lp->lhs) {
        reads_subs(B, lp->lhs, &r);
        targets[0] = var_of(B, lp->lhs);
    } else {
        targets[0] = var_temp(B, aag_temp_name(B, lp->red_acc));
        if (lp->red_loc)
            targets[1] = var_temp(B, aag_temp_name(B, lp->red_pos));
    }
    for (int t = 0; t < 2; t++) {
        if (targets[t] < 0)
            continue;
        CDef *d = def(B, targets[t], s, sidx);
        d->array = 1;
        for (int i = 0; i < r.n; i++)
            iv_push(&d->reads, r.v[i]);
    }
    free(r.v);
}

/* Uses, definitions, calls and the nesting of one statement (preorder
 * positions: a statement's range covers what it holds). */
static void walk_stmt(Build *B, const SpStmt *s)
{
    Crit *C = B->crit;
    GROW(C->st, C->nst, C->capst);
    int sidx = C->nst++;
    CStmt *cs = &C->st[sidx];
    memset(cs, 0, sizeof *cs);
    cs->s = s;
    cs->unit = C->unit;
    cs->pos = ++C->pos;
    cs->var = -1;
    pmap_put(&C->stmtidx, s, sidx);
    switch (s->kind) {
    case SP_SEQ: {
        const Node *n = s->u.seq;
        switch (n->kind) {
        case AST_ASSIGN: {
            const Node *lhs = n->u.assign.lhs;
            int v = var_of(B, lhs);
            calls_in(B, n->u.assign.rhs, s, sidx);
            if (v >= 0) {
                CDef *d = def(B, v, s, sidx);
                reads(B, n->u.assign.rhs, &d->reads);
                reads_subs(B, lhs, &d->reads);
            }
            break;
        }
        case AST_CALL:
            call_site(B, n, s, sidx, 1);
            break;
        case AST_ALLOCATE:
            for (int i = 0; i < n->u.alloc.items.n; i++) {
                const Node *it = n->u.alloc.items.v[i];
                int v = var_of(B, it), sv = shape_var(B, it);
                CDef *d = v >= 0 ? def(B, v, s, sidx) : NULL;
                for (int k = 0; it->kind == AST_REF && k < it->u.ref.args.n; k++) {
                    use(B, it->u.ref.args.v[k], "allocation bound", s);
                    if (d)
                        reads(B, it->u.ref.args.v[k], &d->reads);
                }
                if (sv >= 0)
                    def(B, sv, s, sidx);
            }
            break;
        case AST_DEALLOCATE:
            for (int i = 0; i < n->u.alloc.items.n; i++) {
                int sv = shape_var(B, n->u.alloc.items.v[i]);
                if (sv >= 0)
                    def(B, sv, s, sidx);
            }
            break;
        case AST_EXIT: case AST_CYCLE: case AST_RETURN: case AST_STOP:
            cs->ctl = n->kind;
            break;
        case AST_GOTO:
            cs->ctl = n->kind;
            cs->target = n->u.jump.target;
            break;
        default:
            break;
        }
        break;
    }
    case SP_STORE: {
        const Node *lhs = s->u.store.lhs;
        const SpRef *r = lhs->ir;
        for (int d = 0; d < lhs->u.ref.args.n && d < MAX_RANK; d++)
            use(B, r->sub[d], "element owner", s);
        calls_in(B, s->u.store.rhs, s, sidx);
        int v = var_of(B, lhs);
        if (v >= 0) {
            CDef *d = def(B, v, s, sidx);
            reads(B, s->u.store.rhs, &d->reads);
            reads_subs(B, lhs, &d->reads);
        }
        break;
    }
    case SP_BCAST: {
        const Node *ref = s->u.bcast.ref;
        const SpRef *r = ref->ir;
        for (int d = 0; d < ref->u.ref.args.n && d < MAX_RANK; d++)
            use(B, r->sub[d], "element owner", s);
        CDef *d = def(B, var_temp(B, aag_temp_name(B, s->u.bcast.temp)), s, sidx);
        reads(B, ref, &d->reads);
        break;
    }
    case SP_FORALL: case SP_REDUCE:
        walk_loop(B, s, sidx);
        break;
    case SP_DO: {
        use(B, s->u.do_.lo, "loop bound", s);
        use(B, s->u.do_.hi, "loop bound", s);
        use(B, s->u.do_.st, "loop bound", s);
        calls_in(B, s->u.do_.lo, s, sidx);
        calls_in(B, s->u.do_.hi, s, sidx);
        calls_in(B, s->u.do_.st, s, sidx);
        int v = var_of(B, s->u.do_.var);
        cs->var = v;
        if (v >= 0) {
            CDef *d = def(B, v, s, sidx);
            d->dovar = 1;
            reads(B, s->u.do_.lo, &d->reads);
            reads(B, s->u.do_.hi, &d->reads);
            reads(B, s->u.do_.st, &d->reads);
        }
        cs->loop = 1;
        C->depth++;
        walk_stmts(B, &s->u.do_.body);
        C->depth--;
        break;
    }
    case SP_WHILE:
        cs->loop = 1;
        C->depth++;
        walk_stmts(B, &s->u.while_.pre);
        if (s->u.while_.cond) {
            use(B, s->u.while_.cond, "loop condition", s);
            calls_in(B, s->u.while_.cond, s, sidx);
        }
        walk_stmts(B, &s->u.while_.body);
        C->depth--;
        break;
    case SP_IF:
        for (int i = 0; i < s->u.if_.branches.n; i++) {
            const SpBranch *b = s->u.if_.branches.v[i];
            walk_stmts(B, &b->pre);
            if (b->cond) {
                use(B, b->cond, "branch condition", s);
                calls_in(B, b->cond, s, sidx);
                IVec r = {0};
                reads(B, b->cond, &r);
                for (int k = 0; k < r.n; k++)
                    iv_push(&C->st[sidx].condvars, r.v[k]);
                free(r.v);
            }
            walk_stmts(B, &b->body);
        }
        break;
    case SP_IO: {
        const Node *io = s->u.io.stmt;
        for (int i = 0; io->kind != AST_CALL && i < io->u.io.items.n; i++)
            io_size_visit(B, io->u.io.items.v[i], s);
        for (int i = 0; i < s->u.io.reads.n; i++) {
            const Node *it = s->u.io.reads.v[i];
            int v = var_of(B, it);
            if (v >= 0) {
                CDef *d = def(B, v, s, sidx);
                reads_subs(B, it, &d->reads);
            }
        }
        break;
    }
    case SP_ALLOC:
        for (int i = 0; i < s->u.alloc.items.n; i++) {
            const Node *ref = s->u.alloc.items.v[i];
            const SpRef *r = ref->ir;
            for (int d = 0; r && r->arr && d < r->arr->rank; d++) {
                use(B, r->arr->lo[d], "allocation bound", s);
                use(B, r->arr->hi[d], "allocation bound", s);
            }
        }
        break;
    case SP_STOP:
        C->st[sidx].ctl = AST_STOP;
        break;
    case SP_RETURN:
        C->st[sidx].ctl = AST_RETURN;
        break;
    default:
        break;
    }
    C->st[sidx].end = C->pos;
}

static void walk_stmts(Build *B, const PtrVec *v)
{
    for (int i = 0; i < v->n; i++)
        walk_stmt(B, v->v[i]);
}

/* ---- the fixed point ---- */

/* v is critical; with in set, its value is (a dummy the caller reads
 * back is critical without that). Returns 1 when that is news. */
static int mark(Crit *C, int v, int line, const char *why, int in)
{
    CVar *x = &C->vars[v];
    int news = !x->crit || (in && !x->in);
    if (!x->crit) {
        x->crit = 1;
        x->line = line;
        x->why = why;
        x->order = C->order++;
    }
    x->in |= in;
    return news;
}

/* The critical variables of the program into B->g->crit; what the other
 * queries need is kept until crit_free. */
void crit_analyze(Build *B)
{
    Crit *C = xcalloc(1, sizeof *C);
    B->crit = C;
    for (int i = 0; i < TEMP_BUCKETS; i++)
        C->buckets[i] = -1;
    for (int i = 0; i < B->prog->units.n; i++) {
        C->unit = B->prog->units.v[i];
        B->unit = C->unit;
        C->depth = 0;
        walk_stmts(B, &C->unit->body);
    }

    /* the critical uses, in program order */
    for (int i = 0; i < C->nuses; i++)
        mark(C, C->uses[i].var, C->uses[i].line, C->uses[i].why, 1);

    /* definitions of critical variables make what they read critical;
       across calls, a dummy whose value is needed makes the actual
       critical, and a critical variable passed by reference to a dummy
       the callee assigns makes the dummy critical (so that the callee's
       definitions of it count), without its value being needed */
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < C->ndefs; i++) {
            const CDef *d = &C->defs[i];
            const CVar *x = &C->vars[d->var];
            if (!x->crit || x->held)
                continue;
            for (int k = 0; k < d->reads.n; k++)
                if (!C->vars[d->reads.v[k]].in)
                    changed |= mark(C, d->reads.v[k], d->line,
                                    arena_printf(B->a, "feeds %s", x->name), 1);
        }
        for (int i = 0; i < C->ncalls; i++) {
            const CCall *c = &C->calls[i];
            const char *callee = c->callee->unit->u.unit.id;
            for (int k = 0; k < c->nargs; k++) {
                int dv = var_sym(B, dummy_sym(c->callee, k));
                if (dv < 0)
                    continue;
                if (C->vars[dv].in)
                    for (int j = 0; j < c->reads[k].n; j++)
                        if (!C->vars[c->reads[k].v[j]].in)
                            changed |= mark(C, c->reads[k].v[j], c->line,
                                            arena_printf(B->a, "argument of %s", callee), 1);
                int av = c->actual[k];
                if (av >= 0 && C->vars[av].crit && !C->vars[av].held && !C->vars[dv].crit
                    && dummy_assigned(c->callee, k))
                    changed |= mark(C, dv, c->line, arena_printf(B->a, "bound to %s",
                                                                 C->vars[av].name), 0);
            }
        }
    }

    /* variables given with -D: critical, whether used so or not */
    for (int i = 0; i < B->prog->units.n; i++) {
        const SpUnit *u = B->prog->units.v[i];
        for (int k = 0; u->scope && k < u->scope->symbols.n; k++) {
            const Symbol *y = u->scope->symbols.v[k];
            if (y->kind == SYM_VARIABLE && held_name(B, y->name)) {
                int v = var_sym(B, y);
                mark(C, v, y->decl ? y->decl->loc.line : 0, "given with -D", 1);
            }
        }
    }

    /* in a loop, and through array statements there */
    for (int i = 0; i < C->ndefs; i++)
        if (C->defs[i].depth > 0)
            C->vars[C->defs[i].var].in_loop = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < C->ndefs; i++) {
            const CDef *d = &C->defs[i];
            CVar *x = &C->vars[d->var];
            if (x->arr_path || x->held || d->depth == 0)
                continue;
            int p = d->array;
            for (int k = 0; !p && k < d->reads.n; k++)
                p = C->vars[d->reads.v[k]].arr_path;
            if (p) {
                x->arr_path = 1;
                changed = 1;
            }
        }
    }

    /* the statements that define critical variables */
    for (int i = 0; i < C->ndefs; i++) {
        const CDef *d = &C->defs[i];
        const CVar *x = &C->vars[d->var];
        if (x->crit && !x->held && !d->dovar)
            C->st[d->sidx].crit = 1;
    }

    /* the table, in the order the variables became critical */
    Aag *g = B->g;
    int n = 0;
    for (int i = 0; i < C->nvars; i++)
        n += C->vars[i].crit;
    g->crit = arena_alloc(B->a, (size_t)(n ? n : 1) * sizeof *g->crit);
    for (int i = 0; i < C->nvars; i++) {
        const CVar *x = &C->vars[i];
        if (!x->crit)
            continue;
        g->crit[x->order] = (CritVar){x->name, x->sym, x->unit, x->line, x->why,
                                      x->in_loop, x->arr_path, x->held};
    }
    g->ncrit = n;
}

/* Does s define a critical variable that is not held? */
int crit_stmt(Build *B, const SpStmt *s)
{
    int k = pmap_get(&B->crit->stmtidx, s);
    return k >= 0 && B->crit->st[k].crit;
}

/* Does some GOTO of unit u jump to label? */
int crit_label_targeted(Build *B, const SpUnit *u, int label)
{
    const Crit *C = B->crit;
    for (int i = 0; label && i < C->nst; i++)
        if (C->st[i].unit == u && C->st[i].ctl == AST_GOTO && C->st[i].target == label)
            return 1;
    return 0;
}

/* Does a DO loop's body vary only with its variable, through critical
 * uses the engine can compute for every trip in advance: the subscripts of
 * gathered references (a column broadcast at step k), branch conditions,
 * DO and FORALL bounds (the engine checks that each reads nothing else)?
 * It may then extrapolate runs of iterations that depend on the same. */
int crit_loop_periodic(Build *B, const SpStmt *loop)
{
    const Crit *C = B->crit;
    int li = pmap_get(&C->stmtidx, loop);
    if (li < 0 || crit_loop_vary(B, loop) != AAG_VARY_INDEX)
        return 0;
    const CStmt *L = &C->st[li];
    if (L->var < 0 || C->vars[L->var].held)
        return 0;
    for (int i = 0; i < C->ndefs; i++) {
        const CDef *d = &C->defs[i];
        if (d->pos > L->pos && d->pos <= L->end && !d->dovar && !C->vars[d->var].held)
            for (int k = 0; k < C->nuses; k++)
                if (C->uses[k].var == d->var && C->uses[k].pos > L->pos && C->uses[k].pos <= L->end)
                    return 0;     /* a variable the body assigns decides something */
    }
    for (int i = 0; i < C->nuses; i++) {
        const CUse *u = &C->uses[i];
        if (u->pos > L->pos && u->pos <= L->end && u->var == L->var
            && strcmp(u->why, "gather index") && strcmp(u->why, "branch condition")
            && strcmp(u->why, "loop bound") && strcmp(u->why, "forall bound"))
            return 0;
    }
    return 1;
}

/* May a DO loop whose body defines critical variables be extrapolated once
 * its iterations' costs repeat (a WHERE mask that settles)? Only when its
 * trip count is its own (no EXIT, GOTO out, RETURN or STOP decided
 * inside), and the critical variables it defines are used critically
 * nowhere outside it: the values the functional interpreter leaves when
 * iterations are extrapolated are those of an earlier iteration. */
int crit_loop_settles(Build *B, const SpStmt *loop)
{
    const Crit *C = B->crit;
    int li = pmap_get(&C->stmtidx, loop);
    if (li < 0 || loop->kind != SP_DO || (crit_loop_vary(B, loop) & ~AAG_VARY_INDEX))
        return 0;
    const CStmt *L = &C->st[li];
    /* what varies is the data alone: nothing critical inside reads the
       loop's variable (a branch every tenth step would not repeat) */
    for (int i = 0; i < C->nuses; i++)
        if (C->uses[i].var == L->var && C->uses[i].pos > L->pos && C->uses[i].pos <= L->end)
            return 0;
    for (int i = 0; i < C->ndefs; i++) {
        const CDef *d = &C->defs[i];
        if (d->pos <= L->pos || d->pos > L->end || d->dovar || C->vars[d->var].held
            || !C->vars[d->var].crit)
            continue;
        for (int k = 0; k < C->nuses; k++)
            if (C->uses[k].var == d->var && (C->uses[k].pos <= L->pos || C->uses[k].pos > L->end))
                return 0;
        for (int k = 0; k < C->ndefs; k++) {
            /* nor through what it feeds outside */
            const CDef *o = &C->defs[k];
            if (o->pos > L->pos && o->pos <= L->end)
                continue;
            for (int j = 0; j < o->reads.n; j++)
                if (o->reads.v[j] == d->var && C->vars[o->var].crit)
                    return 0;
        }
        if (C->vars[d->var].sym && (C->vars[d->var].sym->common || C->vars[d->var].sym->dummy))
            return 0;
    }
    return 1;
}

/* Does a loop's body call a procedure (or one it calls) that defines a
 * critical variable of its own that outlives the call (SAVE, DATA, a
 * module's, COMMON)? A counter of calls deciding a branch changes the
 * costs of later iterations although the loop's own statements do not
 * show it. */
static int calls_keep_state(const Crit *C, const CStmt *L)
{
    PtrVec set = {0};
    for (int i = 0; i < C->ncalls; i++) {
        const CCall *c = &C->calls[i];
        if (c->unit == L->unit && c->pos > L->pos && c->pos <= L->end)
            vec_push(NULL, &set, (void *)c->callee);
    }
    for (int grew = set.n > 0; grew;) {
        grew = 0;
        for (int i = 0; i < C->ncalls; i++) {
            const CCall *c = &C->calls[i];
            int from = 0, to = 0;
            for (int k = 0; k < set.n; k++) {
                from |= set.v[k] == c->unit;
                to |= set.v[k] == c->callee;
            }
            if (from && !to) {
                vec_push(NULL, &set, (void *)c->callee);
                grew = 1;
            }
        }
    }
    int keeps = 0;
    for (int i = 0; i < C->ndefs && set.n && !keeps; i++) {
        const CDef *d = &C->defs[i];
        const CVar *v = &C->vars[d->var];
        if (!v->crit || v->held || !v->sym || !(v->sym->save || v->sym->common))
            continue;
        for (int k = 0; k < set.n; k++)
            keeps |= set.v[k] == C->st[d->sidx].unit;
    }
    free(set.v);
    return keeps;
}

/* Does a loop's body cost vary from iteration to iteration? A critical use
 * inside it reads the loop's variable or a variable the body assigns
 * (AAG_VARY_INDEX); an EXIT, GOTO out, RETURN or STOP sits under a
 * condition that does (AAG_VARY_EXIT). Held variables count as never
 * assigned; the variables of inner DO loops as not varying (the inner loop
 * answers for them). */
int crit_loop_vary(Build *B, const SpStmt *loop)
{
    const Crit *C = B->crit;
    int li = pmap_get(&C->stmtidx, loop);
    if (li < 0)
        return 0;
    const CStmt *L = &C->st[li];
    char *vary = xcalloc((size_t)(C->nvars ? C->nvars : 1), 1);
    if (L->var >= 0 && !C->vars[L->var].held)
        vary[L->var] = 1;
    for (int i = 0; i < C->ndefs; i++) {
        const CDef *d = &C->defs[i];
        if (d->pos > L->pos && d->pos <= L->end && !d->dovar && !C->vars[d->var].held)
            vary[d->var] = 1;
    }
    int bits = 0;
    for (int i = 0; i < C->nuses; i++) {
        const CUse *u = &C->uses[i];
        if (u->pos > L->pos && u->pos <= L->end && vary[u->var])
            bits |= AAG_VARY_INDEX;
    }
    if (calls_keep_state(C, L))
        bits |= AAG_VARY_DEF;
    for (int i = li + 1; i < C->nst && C->st[i].pos <= L->end; i++) {
        const CStmt *c = &C->st[i];
        if (!c->ctl || c->ctl == AST_CYCLE)
            continue;
        if (c->ctl == AST_EXIT) {
            int inner = 0;      /* an EXIT of an inner loop stays inside */
            for (int k = li + 1; k < i; k++)
                if (C->st[k].loop && C->st[k].end >= c->pos)
                    inner = 1;
            if (inner)
                continue;
        }
        if (c->ctl == AST_GOTO) {
            int inside = 0;
            for (int k = li + 1; k < C->nst && C->st[k].pos <= L->end; k++)
                if (C->st[k].s->label == c->target)
                    inside = 1;
            if (inside)
                continue;
        }
        for (int k = li + 1; k < i; k++) {
            const CStmt *f = &C->st[k];
            if (f->s->kind != SP_IF || f->end < c->pos)
                continue;
            for (int j = 0; j < f->condvars.n; j++)
                if (vary[f->condvars.v[j]])
                    bits |= AAG_VARY_EXIT;
        }
    }
    free(vary);
    return bits;
}

void crit_free(Build *B)
{
    Crit *C = B->crit;
    if (!C)
        return;
    for (int i = 0; i < C->ndefs; i++)
        free(C->defs[i].reads.v);
    for (int i = 0; i < C->ncalls; i++) {
        for (int k = 0; k < C->calls[i].nargs; k++)
            free(C->calls[i].reads[k].v);
        free(C->calls[i].reads);
        free(C->calls[i].actual);
    }
    for (int i = 0; i < C->nst; i++)
        free(C->st[i].condvars.v);
    free(C->vars);
    free(C->defs);
    free(C->uses);
    free(C->calls);
    free(C->st);
    pmap_free(&C->symvar);
    free(C->common.v);
    pmap_free(&C->stmtidx);
    free(C);
    B->crit = NULL;
}
