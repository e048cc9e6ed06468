/* sema_expr.c - expressions: name resolution, subscripts and substrings,
 * calls and their actual arguments, statement functions, types, ranks and
 * shapes (conformance of elemental operations). The intrinsic procedures
 * are in sema_intrinsic.c, the folding of constant expressions in
 * sema_fold.c. Rules: Fortran 95 7.1 (expressions), 13 (intrinsics), 2.4.5
 * (conformance). */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "sema_int.h"

/* ---- helpers ---- */

int is_numeric(Type t)
{
    return t.base == TY_INTEGER || t.base == TY_REAL || t.base == TY_COMPLEX;
}

int sema_is_error(const Node *e)
{
    return e->type.base == TY_ERROR;
}

static void set_type(Node *e, TypeBase b, int kind)
{
    e->type = (Type){(unsigned char)b, (unsigned char)kind};
}

void sema_set_error(Node *e)
{
    set_type(e, TY_ERROR, 0);
    e->rank = 0;
}

void sema_set_shape(Sema *s, Node *e, int rank, const long long *ext)
{
    e->rank = rank;
    e->extent = NULL;
    if (!rank)
        return;
    e->extent = arena_alloc(s->arena, (size_t)rank * sizeof *e->extent);
    for (int i = 0; i < rank; i++)
        e->extent[i] = ext ? ext[i] : -1;
}

void sema_copy_shape(Sema *s, Node *to, const Node *from)
{
    sema_set_shape(s, to, from->rank, from->extent);
}

static long long sym_extent(const Symbol *y, int d)
{
    if (!y->bounds_known[d])
        return -1;
    long long n = y->hi[d] - y->lo[d] + 1;
    return n < 0 ? 0 : n;
}

/* Two shapes conform when ranks agree and known extents are equal; a scalar
 * conforms with anything (F95 2.4.5). Reports and returns 0 otherwise. */
int conform(Sema *s, const Node *a, const Node *b, Loc loc, const char *what)
{
    if (!a->rank || !b->rank || sema_is_error(a) || sema_is_error(b))
        return 1;
    if (a->rank != b->rank) {
        diag_error(s->diag, loc, "%s: rank %d and rank %d do not conform", what, a->rank,
                   b->rank);
        return 0;
    }
    for (int i = 0; i < a->rank; i++)
        if (a->extent && b->extent && a->extent[i] >= 0 && b->extent[i] >= 0
            && a->extent[i] != b->extent[i]) {
            diag_error(s->diag, loc, "%s: extents %lld and %lld differ in dimension %d",
                       what, a->extent[i], b->extent[i], i + 1);
            return 0;
        }
    return 1;
}

/* The conformed shape of two operands: the array one, known extents first. */
static void join_shape(Sema *s, Node *e, const Node *a, const Node *b)
{
    const Node *src = a->rank ? a : b;
    sema_copy_shape(s, e, src);
    if (a->rank && b->rank && e->extent)
        for (int i = 0; i < e->rank; i++)
            if (e->extent[i] < 0 && b->extent)
                e->extent[i] = b->extent[i];
}

Symbol *sema_lookup(Sema *s, const char *name)
{
    for (int i = s->indices.n - 1; i >= 0; i--) {
        Symbol *y = s->indices.v[i];
        if (strcmp(y->name, name) == 0)
            return y;
    }
    for (Scope *k = s->scope; k; k = k->parent) {
        Symbol *e = scope_entry(k, name);
        if (e && e->ambiguous) {
            diag_error(s->diag, s->at, "'%s' is accessible from both module '%s' and module "
                       "'%s': rename one in its USE (local => %s)", name,
                       e->alias->module ? e->alias->module->u.unit.id : "?", e->ambiguous, name);
            e->ambiguous = NULL;       /* said once */
        }
        if (e)
            break;
    }
    return scope_lookup(s->scope, name);
}

/* A name used but never declared: a variable of the implicit type, or an
 * error under IMPLICIT NONE (the symbol is made all the same, typed as an
 * error, so one message is given per name). */
Symbol *sema_implicit(Sema *s, const char *name, Node *where)
{
    Scope *sc = s->scope;
    Symbol *y = scope_add(s->arena, sc, name, SYM_VARIABLE, where);
    Type t = {TY_NONE, 0};
    for (Scope *k = sc; k; k = k->parent) {
        if (k->implicit_none)
            break;
        t = k->implicit[name[0] - 'a'];
        break;
    }
    int use_failed = 0;
    for (Scope *k = sc; k; k = k->parent)
        use_failed |= k->use_failed;
    if (t.base == TY_NONE) {
        if (!use_failed)   /* else the missing module may have given it */
            diag_error(s->diag, where->loc, "'%s' is not declared (IMPLICIT NONE is in effect)",
                       name);
        t = (Type){TY_ERROR, 0};
    }
    y->type = t;
    return y;
}

/* ---- checking ---- */

static void check_name(Sema *s, Node *e)
{
    Symbol *y = sema_lookup(s, e->u.name.id);
    if (!y)
        y = sema_implicit(s, e->u.name.id, e);
    e->u.name.sym = y;
    switch (y->kind) {
    case SYM_VARIABLE: case SYM_PARAMETER: case SYM_INDEX:
        e->type = y->type;
        if (y->kind == SYM_VARIABLE && !y->typed && y->type.base == TY_NONE) {
            /* a dummy in a bound, typed later or by the implicit rules */
            e->type = s->scope->implicit[y->name[0] - 'a'];
            if (e->type.base == TY_NONE)
                e->type = (Type){TY_INTEGER, 4};
        }
        sema_set_shape(s, e, y->rank, NULL);
        for (int d = 0; d < y->rank; d++)
            e->extent[d] = sym_extent(y, d);
        return;
    case SYM_FUNCTION:
        diag_error(s->diag, e->loc, "function '%s' used without an argument list", y->name);
        break;
    default:
        diag_error(s->diag, e->loc, "%s '%s' cannot be used in an expression",
                   sym_kind_name(y->kind), y->name);
        break;
    }
    sema_set_error(e);
}

static void check_subscripts(Sema *s, Node *e, Symbol *y)
{
    PtrVec *args = &e->u.ref.args;
    if (args->n != y->rank) {
        diag_error(s->diag, e->loc, "array '%s' has rank %d but %d subscript%s given", y->name,
                   y->rank, args->n, args->n == 1 ? " is" : "s are");
        sema_set_error(e);
        return;
    }
    long long ext[MAX_RANK];
    int rank = 0;
    for (int d = 0; d < args->n; d++) {
        Node *a = args->v[d];
        if (a->kind == AST_KEYWORD_ARG) {
            diag_error(s->diag, a->loc, "keyword argument in the subscripts of array '%s'",
                       y->name);
            sema_set_error(e);
            return;
        }
        if (a->kind == AST_TRIPLET) {
            Node *parts[3] = {a->u.triplet.lo, a->u.triplet.hi, a->u.triplet.stride};
            long long v[3];
            int known[3];
            for (int k = 0; k < 3; k++) {
                known[k] = 0;
                if (!parts[k])
                    continue;
                sema_expr(s, parts[k]);
                if (!sema_is_error(parts[k]) && (parts[k]->type.base != TY_INTEGER || parts[k]->rank))
                    diag_error(s->diag, parts[k]->loc, "section bound must be a scalar integer");
                known[k] = sema_int_const(s, parts[k], &v[k]);
            }
            if (!parts[0] && y->bounds_known[d]) {
                v[0] = y->lo[d];
                known[0] = 1;
            }
            if (!parts[1] && y->bounds_known[d]) {
                v[1] = y->hi[d];
                known[1] = 1;
            }
            if (!parts[2]) {
                v[2] = 1;
                known[2] = 1;
            }
            if (known[2] && v[2] == 0) {
                diag_error(s->diag, a->loc, "section stride is zero");
                known[2] = 0;
            }
            long long n = -1;
            if (known[0] && known[1] && known[2]) {
                n = (v[1] - v[0] + v[2]) / v[2];
                if (n < 0)
                    n = 0;
            }
            ext[rank++] = n;
            set_type(a, TY_INTEGER, 4);
            continue;
        }
        sema_expr(s, a);
        if (sema_is_error(a))
            continue;
        if (a->type.base != TY_INTEGER) {
            diag_error(s->diag, a->loc, "subscript of '%s' must be an integer, not %s",
                       y->name, type_name(a->type));
        } else if (a->rank == 1) {
            ext[rank++] = a->extent ? a->extent[0] : -1;   /* vector subscript */
        } else if (a->rank > 1) {
            diag_error(s->diag, a->loc, "subscript of '%s' has rank %d (a vector subscript "
                       "must have rank 1)", y->name, a->rank);
        }
    }
    e->type = y->type;
    e->u.ref.what = rank ? REF_SECTION : REF_ELEMENT;
    sema_set_shape(s, e, rank, ext);
}

/* Keyword arguments to positions; returns 0 after an error. */
static Node *find_unit(Sema *s, const char *name)
{
    const Symbol *y = sema_lookup(s, name);
    if (y && y->module && y->unit && (y->kind == SYM_FUNCTION || y->kind == SYM_SUBROUTINE))
        return y->unit;            /* a module procedure, by USE or in its module */
    for (Scope *k = s->scope; k; k = k->parent)
        if (k->unit)
            for (int i = 0; i < k->unit->u.unit.contains.n; i++) {
                Node *u = k->unit->u.unit.contains.v[i];
                if (strcmp(u->u.unit.id, name) == 0)
                    return u;
            }
    PtrVec *units = &s->file->u.list.items;
    for (int i = 0; i < units->n; i++) {
        Node *u = units->v[i];
        if (u->u.unit.id && strcmp(u->u.unit.id, name) == 0 && u->u.unit.which != UNIT_MODULE)
            return u;
    }
    return NULL;
}

static Type unit_result_type(Sema *s, Node *u, Loc loc)
{
    if (u->u.unit.rtype) {
        Type t = {(unsigned char)u->u.unit.rtype->base, 4};
        if (u->u.unit.rtype->dbl)
            t.kind = 8;
        else if (u->u.unit.rtype->kind) {
            long long k;
            if (sema_int_const(s, u->u.unit.rtype->kind, &k))
                t.kind = (unsigned char)k;
        } else if (u->u.unit.rtype->star)
            t.kind = (unsigned char)u->u.unit.rtype->star;
        return t;
    }
    /* typed inside the function, or by its own implicit rules */
    const char *rname = u->u.unit.result ? u->u.unit.result : u->u.unit.id;
    for (int i = 0; i < u->u.unit.body.n; i++) {
        Node *d = u->u.unit.body.v[i];
        if (d->kind != AST_TYPE_DECL)
            continue;
        for (int j = 0; j < d->u.decl.entities.n; j++) {
            Node *en = d->u.decl.entities.v[j];
            if (strcmp(en->u.entity.id, rname) == 0) {
                Type t = {(unsigned char)d->u.decl.spec.base, d->u.decl.spec.dbl ? 8 : 4};
                long long k;
                if (d->u.decl.spec.kind && sema_int_const(s, d->u.decl.spec.kind, &k))
                    t.kind = (unsigned char)k;
                return t;
            }
        }
    }
    int none = 0;
    for (int i = 0; i < u->u.unit.body.n; i++) {
        Node *d = u->u.unit.body.v[i];
        if (d->kind == AST_IMPLICIT && d->u.implicit.none)
            none = 1;
    }
    if (none) {
        diag_error(s->diag, loc, "function '%s' has no declared type", u->u.unit.id);
        return (Type){TY_ERROR, 0};
    }
    char c = rname[0];
    return (Type){c >= 'i' && c <= 'n' ? TY_INTEGER : TY_REAL, 4};
}

/* The actuals of a CALL or function reference e of a procedure of the
 * file u (NULL: an external one), checked here; matched with u's dummies
 * by sema_match_actuals once every unit has been checked (a dummy's
 * OPTIONAL is known then). A keyword needs the procedure's interface:
 * an external procedure has none. */
void sema_actuals(Sema *s, Node *e, Node *u)
{
    for (int i = 0; i < e->u.ref.args.n; i++) {
        Node *a = e->u.ref.args.v[i];
        if (a->kind == AST_TRIPLET) {
            diag_error(s->diag, a->loc, "section triplet in the arguments of procedure '%s'",
                       e->u.ref.id);
            continue;
        }
        if (a->kind == AST_KEYWORD_ARG && !u) {
            diag_error(s->diag, a->u.kwarg.id_loc, "keyword argument '%s=' to '%s', which is "
                       "not a procedure of this file: a keyword needs its interface",
                       a->u.kwarg.id, e->u.ref.id);
            continue;
        }
        Node *v = a->kind == AST_KEYWORD_ARG ? a->u.kwarg.value : a;
        if (v->kind == AST_NAME) {
            Symbol *y = sema_lookup(s, v->u.name.id);
            if (y && (y->kind == SYM_FUNCTION || y->kind == SYM_SUBROUTINE)) {
                v->u.name.sym = y;
                continue;   /* a procedure passed as an argument */
            }
        }
        sema_expr(s, v);
        if (a != v) {
            a->type = v->type;
            sema_copy_shape(s, a, v);
        }
    }
    if (u) {
        vec_push(NULL, &s->calls, e);
        vec_push(NULL, &s->calls, u);
        vec_push(NULL, &s->calls, s->scope->unit);
    }
}

/* An actual that must go by position to the dummy it fills, or that the
 * SPMD lowering must see at its dummy's position: a mapped array or an
 * element or section of one. */
static const Symbol *mapped_actual(const Node *a)
{
    const Symbol *y = a->kind == AST_NAME ? a->u.name.sym
                      : a->kind == AST_REF && (a->u.ref.what == REF_ELEMENT
                                               || a->u.ref.what == REF_SECTION)
                      ? a->u.ref.sym : NULL;
    return y && (y->distribute || y->align) ? y : NULL;
}

/* The actuals of a reference e to u in the order of u's dummies: those by
 * keyword put at their dummy's position (plain positional arguments, as
 * every later stage reads them), up to the first OPTIONAL dummy left out;
 * the ones after it stay keyword arguments, which the SPMD program passes
 * as such (a module or internal procedure: its interface is known). */
void sema_match_actuals(Sema *s, Node *e, Node *u)
{
    const PtrVec *dummies = &u->u.unit.args;
    int nd = dummies->n, na = e->u.ref.args.n, npos = 0;
    while (npos < na && ((Node *)e->u.ref.args.v[npos])->kind != AST_KEYWORD_ARG)
        npos++;
    if (npos > nd) {
        diag_error(s->diag, e->loc, "'%s' takes %d argument%s, %d given", u->u.unit.id, nd,
                   nd == 1 ? "" : "s", na);
        return;
    }
    for (int i = npos; i < na; i++)
        if (((Node *)e->u.ref.args.v[i])->kind != AST_KEYWORD_ARG) {
            diag_error(s->diag, ((Node *)e->u.ref.args.v[i])->loc,
                       "positional argument after a keyword argument");
            return;
        }
    if (npos < na && !u->u.unit.host) {
        const Node *k = e->u.ref.args.v[npos];
        diag_error(s->diag, k->u.kwarg.id_loc, "keyword argument '%s=' to '%s', an external "
                   "procedure: a keyword needs its interface (make it a module or internal "
                   "procedure)", k->u.kwarg.id, u->u.unit.id);
        return;
    }
    /* an assumed-shape or OPTIONAL dummy needs the interface too
       (F95 12.3.1.1) */
    for (int j = 0; j < nd && !u->u.unit.host; j++) {
        const Node *d = dummies->v[j];
        const Symbol *y = d->kind == AST_NAME ? d->u.name.sym : NULL;
        int shape = y && y->rank && !y->allocatable && y->dims[0] &&
                    y->dims[0]->u.dim.form == DIM_DEFERRED;
        if (shape || (y && y->optional)) {
            diag_error(s->diag, e->loc, "'%s' has the %s dummy '%s': a call needs its "
                       "interface (make '%s' a module or internal procedure)", u->u.unit.id,
                       shape ? "assumed-shape" : "OPTIONAL", y->name, u->u.unit.id);
            return;
        }
    }
    Node **slot = xcalloc((size_t)nd + 1, sizeof *slot);
    for (int i = 0; i < npos; i++)
        slot[i] = e->u.ref.args.v[i];
    int bad = 0;
    for (int i = npos; i < na && !bad; i++) {
        Node *a = e->u.ref.args.v[i];
        int j = 0;
        while (j < nd && strcmp(((Node *)dummies->v[j])->u.name.id, a->u.kwarg.id))
            j++;
        if (j == nd)
            diag_error(s->diag, a->u.kwarg.id_loc, "'%s' has no dummy argument named '%s'",
                       u->u.unit.id, a->u.kwarg.id), bad = 1;
        else if (slot[j])
            diag_error(s->diag, a->loc, "argument '%s' of '%s' is given twice", a->u.kwarg.id,
                       u->u.unit.id), bad = 1;
        else
            slot[j] = a;
    }
    int omitted = -1;
    for (int j = 0; j < nd && !bad; j++) {
        const Node *d = dummies->v[j];
        const Symbol *y = d->u.name.sym;
        if (slot[j])
            continue;
        if (!y || !y->optional) {
            if (na < nd && !(na - npos))
                diag_error(s->diag, e->loc, "'%s' takes %d argument%s, %d given", u->u.unit.id,
                           nd, nd == 1 ? "" : "s", na);
            else
                diag_error(s->diag, e->loc, "argument '%s' of '%s' is missing (it is not "
                           "OPTIONAL)", d->u.name.id, u->u.unit.id);
            bad = 1;
        } else if (omitted < 0) {
            omitted = j;
        }
    }
    if (!bad && omitted >= 0 && !u->u.unit.host) {
        diag_error(s->diag, e->loc, "'%s' is called with OPTIONAL arguments left out: that "
                   "needs its interface, which an external procedure does not have (make it a "
                   "module or internal procedure)", u->u.unit.id);
        bad = 1;
    }
    for (int j = omitted + 1; omitted >= 0 && j < nd && !bad; j++) {
        const Node *a = slot[j];
        const Symbol *m = a ? mapped_actual(a->u.kwarg.value) : NULL;
        if (m) {
            diag_error(s->diag, a->loc, "the mapped array '%s' goes to '%s' after an OPTIONAL "
                       "argument left out: the SPMD lowering passes mapped arrays by position "
                       "only (give the arguments before it)", m->name, u->u.unit.id);
            bad = 1;
        }
    }
    if (!bad) {
        PtrVec args = {0};
        for (int j = 0; j < nd; j++) {
            Node *a = slot[j];
            if (!a)
                continue;
            if (a->kind == AST_KEYWORD_ARG && (omitted < 0 || j < omitted))
                a = a->u.kwarg.value;
            vec_push(s->arena, &args, a);
        }
        e->u.ref.args = args;
    }
    free(slot);
}

/* An external function of the file referenced where its name has no
 * declared type takes the implicit type of the referencing unit (the call
 * has no explicit interface): it must be the function's result type, as
 * gfortran requires. */
static int implicit_fits(Sema *s, const char *name, Node *e)
{
    Type t = {TY_NONE, 0};
    if (!s->scope->implicit_none)
        t = s->scope->implicit[name[0] - 'a'];
    if (t.base == TY_NONE) {
        diag_error(s->diag, e->loc, "'%s' has no type here (IMPLICIT NONE is in effect): a "
                   "function of the file called without an interface needs one, as in "
                   "'%s, external :: %s'", name, type_name(e->type), name);
    } else if (t.base != e->type.base || t.kind != e->type.kind) {
        diag_error(s->diag, e->loc, "'%s' is %s here by the implicit rules, but the function "
                   "returns %s: declare it, as in '%s, external :: %s'", name, type_name(t),
                   type_name(e->type), type_name(e->type), name);
    } else {
        return 1;
    }
    sema_set_error(e);
    return 0;
}

/* x, a checked numeric expression, as INT(x, kind) or REAL(x, kind) of
 * type t (INTEGER or REAL), checked. */
Node *sema_convert(Sema *s, Node *x, Type t)
{
    Node *c = ast_new(s->arena, AST_REF, x->loc);
    c->u.ref.id = t.base == TY_INTEGER ? "int" : "real";
    Node *k = ast_new(s->arena, AST_INT_CONST, x->loc);
    k->u.konst.ival = t.kind;
    k->u.konst.text = t.kind == 8 ? "8" : "4";
    k->u.konst.kind = 4;
    vec_push(s->arena, &c->u.ref.args, x);
    vec_push(s->arena, &c->u.ref.args, k);
    c->depth = x->depth + 1;
    sema_expr(s, c);
    return c;
}

/* A copy of a statement function's expression n, its dummies (the names
 * of def's left-hand side) replaced by the actuals of ref in parentheses;
 * NULL for what a statement function may not hold here. */
static Node *sf_copy(Sema *s, const Node *n, const Node *def, const Node *ref)
{
    const PtrVec *dummies = &def->u.assign.lhs->u.ref.args;
    Node *c = ast_new(s->arena, n->kind, n->loc);
    c->depth = n->depth;
    switch (n->kind) {
    case AST_INT_CONST: case AST_REAL_CONST: case AST_LOGICAL_CONST: case AST_STRING_CONST:
        c->u.konst = n->u.konst;
        return c;
    case AST_COMPLEX_CONST: case AST_BINARY:
        c->u.binary.op = n->u.binary.op;
        c->u.binary.lhs = sf_copy(s, n->u.binary.lhs, def, ref);
        c->u.binary.rhs = sf_copy(s, n->u.binary.rhs, def, ref);
        return c->u.binary.lhs && c->u.binary.rhs ? c : NULL;
    case AST_UNARY: case AST_PAREN:
        c->u.unary.op = n->u.unary.op;
        c->u.unary.operand = sf_copy(s, n->u.unary.operand, def, ref);
        return c->u.unary.operand ? c : NULL;
    case AST_NAME:
        for (int i = 0; i < dummies->n; i++)
            if (!strcmp(((const Node *)dummies->v[i])->u.name.id, n->u.name.id)) {
                c->kind = AST_PAREN;
                c->u.unary.operand = ref->u.ref.args.v[i];
                c->depth = c->u.unary.operand->depth + 1;
                return c;
            }
        c->u.name.id = n->u.name.id;
        return c;
    case AST_REF:
        c->u.ref.id = n->u.ref.id;
        for (int i = 0; i < n->u.ref.args.n; i++) {
            Node *a = sf_copy(s, n->u.ref.args.v[i], def, ref);
            if (!a)
                return NULL;
            vec_push(s->arena, &c->u.ref.args, a);
        }
        return c;
    case AST_KEYWORD_ARG:
        c->u.kwarg = n->u.kwarg;
        c->u.kwarg.value = sf_copy(s, n->u.kwarg.value, def, ref);
        return c->u.kwarg.value ? c : NULL;
    default:
        return NULL;
    }
}

static const Node *stmt_function_of(Sema *s, const char *name)
{
    for (int i = 0; i < s->stmtfns.n; i++) {
        const Node *d = s->stmtfns.v[i];
        if (!strcmp(d->u.assign.lhs->u.ref.id, name))
            return d;
    }
    return NULL;
}

/* A reference to a statement function: replaced by its expression, the
 * dummies by the actuals, converted to the function's type (its name's
 * type, declared or implicit). */
static void expand_stmt_function(Sema *s, Node *e, const Node *def)
{
    const Node *l = def->u.assign.lhs;
    if (e->u.ref.args.n != l->u.ref.args.n) {
        diag_error(s->diag, e->loc, "statement function '%s' takes %d argument%s, %d given",
                   l->u.ref.id, l->u.ref.args.n, l->u.ref.args.n == 1 ? "" : "s",
                   e->u.ref.args.n);
        sema_set_error(e);
        return;
    }
    /* each actual of its dummy's type: the variable's of that name */
    for (int i = 0; i < e->u.ref.args.n; i++) {
        Node *a = e->u.ref.args.v[i];
        const char *dn = ((const Node *)l->u.ref.args.v[i])->u.name.id;
        sema_expr(s, a);
        Symbol *d = sema_lookup(s, dn);
        Type dt = d ? d->type : s->scope->implicit_none ? (Type){TY_NONE, 0}
                                                        : s->scope->implicit[dn[0] - 'a'];
        if (a->type.base == TY_ERROR || dt.base == TY_NONE || dt.base == TY_ERROR)
            continue;
        if (a->rank || a->type.base != dt.base
            || (a->type.kind != dt.kind && dt.base != TY_CHARACTER)) {
            diag_error(s->diag, a->loc, "argument %d of statement function '%s' is %s%s, its "
                       "dummy '%s' %s", i + 1, l->u.ref.id, a->rank ? "an array of " : "",
                       type_name(a->type), dn, type_name(dt));
            sema_set_error(e);
            return;
        }
    }
    Node *x = s->inlining < 64 ? sf_copy(s, def->u.assign.rhs, def, e) : NULL;
    if (!x) {
        diag_error(s->diag, e->loc, s->inlining < 64
                   ? "statement function '%s' holds what the HPF subset does not expand (only "
                     "scalar operators, names, constants and references)"
                   : "statement function '%s' refers to itself", l->u.ref.id);
        sema_set_error(e);
        return;
    }
    Symbol *f = sema_lookup(s, l->u.ref.id);
    Type t = f ? f->type : (Type){TY_NONE, 0};
    if (!f) {
        Scope *sc = s->scope;
        t = sc->implicit_none ? (Type){TY_NONE, 0} : sc->implicit[l->u.ref.id[0] - 'a'];
    }
    if (t.base == TY_NONE) {
        diag_error(s->diag, e->loc, "statement function '%s' has no type (IMPLICIT NONE is in "
                   "effect)", l->u.ref.id);
        sema_set_error(e);
        return;
    }
    s->inlining++;
    sema_expr(s, x);
    s->inlining--;
    if (x->type.base == TY_ERROR) {
        sema_set_error(e);
        return;
    }
    if ((x->type.base != t.base || x->type.kind != t.kind) && is_numeric(x->type)
        && (t.base == TY_INTEGER || t.base == TY_REAL))
        x = sema_convert(s, x, t);
    Loc loc = e->loc;
    *e = *x;
    e->loc = loc;
}

/* s(lo:hi), of a CHARACTER scalar variable (Fortran 95 6.1.1): lo and hi
 * scalar integers, either omitted; no stride. */
void sema_substring(Sema *s, Node *e, Symbol *y)
{
    Node *t = e->u.ref.args.v[0];
    if (t->u.triplet.stride) {
        diag_error(s->diag, t->loc, "a sema_substring has no stride");
        sema_set_error(e);
        return;
    }
    for (int k = 0; k < 2; k++) {
        Node *b = k ? t->u.triplet.hi : t->u.triplet.lo;
        if (!b)
            continue;
        sema_expr(s, b);
        if (b->type.base != TY_ERROR && (b->type.base != TY_INTEGER || b->rank)) {
            diag_error(s->diag, b->loc, "a sema_substring bound must be a scalar integer");
            sema_set_error(e);
            return;
        }
    }
    e->u.ref.what = REF_SUBSTRING;
    e->u.ref.sym = y;
    e->type = y->type;
}

static void check_ref(Sema *s, Node *e)
{
    const char *name = e->u.ref.id;
    const Node *sfdef = stmt_function_of(s, name);
    if (sfdef) {
        expand_stmt_function(s, e, sfdef);
        return;
    }
    Symbol *y = sema_lookup(s, name);
    if (y && (y->kind == SYM_VARIABLE || y->kind == SYM_INDEX) && y->rank) {
        e->u.ref.sym = y;
        check_subscripts(s, e, y);
        return;
    }
    if (y && y->kind == SYM_VARIABLE && y->type.base == TY_ERROR) {
        sema_set_error(e);
        return;
    }
    if (y && y->kind == SYM_VARIABLE && !y->rank && y->type.base == TY_CHARACTER
        && e->u.ref.args.n == 1 && ((Node *)e->u.ref.args.v[0])->kind == AST_TRIPLET) {
        sema_substring(s, e, y);
        return;
    }
    Node *u = find_unit(s, name);
    int external = y && y->kind == SYM_VARIABLE && (y->external || (u && !y->assigned));
    if (y && !external && y->kind != SYM_FUNCTION && !(y->intrinsic)) {
        if (y->kind == SYM_SUBROUTINE)
            diag_error(s->diag, e->loc, "'%s' is a subroutine: use CALL", name);
        else if (y->kind == SYM_VARIABLE || y->kind == SYM_INDEX || y->kind == SYM_PARAMETER)
            diag_error(s->diag, e->loc, "'%s' is a scalar %s and cannot be subscripted (declare "
                       "it EXTERNAL if it is a function)", name,
                       y->kind == SYM_PARAMETER ? "constant" : "variable");
        else
            diag_error(s->diag, e->loc, "%s '%s' cannot be used in an expression",
                       sym_kind_name(y->kind), name);
        sema_set_error(e);
        return;
    }
    const Intrinsic *in = (!y || y->intrinsic) && !u ? sema_find_intrinsic(name) : NULL;
    if (in) {
        sema_check_intrinsic(s, e, in);
        return;
    }
    if (u && u->u.unit.which == UNIT_SUBROUTINE) {
        diag_error(s->diag, e->loc, "'%s' is a subroutine: use CALL", name);
        sema_set_error(e);
        return;
    }
    if (u && u == s->scope->unit && !u->u.unit.recursive) {
        diag_error(s->diag, e->loc, "'%s' references itself: declare it RECURSIVE (Fortran "
                   "allows recursion only then)", name);
        sema_set_error(e);
        return;
    }
    if (!u && !y && sema_is_unsupported_intrinsic(name)) {
        diag_error(s->diag, e->loc, "intrinsic '%s' is not supported in the HPF subset", name);
        sema_set_error(e);
        return;
    }
    sema_actuals(s, e, u);
    e->u.ref.what = REF_FUNCTION;
    if (y && y->typed) {
        e->type = y->type;
    } else if (u) {
        e->type = unit_result_type(s, u, e->loc);
        if (!u->u.unit.host && s->scope->unit != u && !implicit_fits(s, name, e))
            return;
    } else {
        Symbol *f = y ? y : sema_implicit(s, name, e);
        if (f->type.base == TY_NONE) {
            diag_error(s->diag, e->loc, "'%s' has no type (IMPLICIT NONE is in effect)", name);
            f->type = (Type){TY_ERROR, 0};
        }
        if (f->type.base == TY_ERROR) {
            sema_set_error(e);
            return;
        }
        e->type = f->type;
    }
    if (y && y->kind == SYM_VARIABLE && !y->rank)
        y->kind = SYM_FUNCTION;
    e->u.ref.sym = y;
}

static const char *op_kind(Op op)
{
    switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_POW: return "arithmetic";
    case OP_CONCAT: return "concat";
    case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE: return "relational";
    default: return "logical";
    }
}

static void check_binary(Sema *s, Node *e)
{
    Node *l = e->u.binary.lhs, *r = e->u.binary.rhs;
    sema_expr(s, l);
    sema_expr(s, r);
    if (sema_is_error(l) || sema_is_error(r)) {
        sema_set_error(e);
        return;
    }
    Op op = e->u.binary.op;
    const char *k = op_kind(op);
    char what[64];
    snprintf(what, sizeof what, "operands of '%s'", op_spelling[op]);
    if (!conform(s, l, r, e->loc, what)) {
        sema_set_error(e);
        return;
    }
    join_shape(s, e, l, r);
    Type lt = l->type, rt = r->type;
    if (!strcmp(k, "arithmetic")) {
        if (!is_numeric(lt) || !is_numeric(rt)) {
            diag_error(s->diag, e->loc, "operands of '%s' must be numeric (%s and %s)",
                       op_spelling[op], type_name(lt), type_name(rt));
            sema_set_error(e);
            return;
        }
        Type t = lt.base > rt.base ? lt : rt;
        if (lt.base == rt.base)
            t.kind = lt.kind > rt.kind ? lt.kind : rt.kind;
        else if (lt.base != TY_INTEGER && rt.base != TY_INTEGER)
            t.kind = lt.kind > rt.kind ? lt.kind : rt.kind;
        e->type = t;
    } else if (!strcmp(k, "concat")) {
        if (lt.base != TY_CHARACTER || rt.base != TY_CHARACTER) {
            diag_error(s->diag, e->loc, "operands of '//' must be character");
            sema_set_error(e);
            return;
        }
        set_type(e, TY_CHARACTER, 1);
    } else if (!strcmp(k, "relational")) {
        int ok = (is_numeric(lt) && is_numeric(rt))
                 || (lt.base == TY_CHARACTER && rt.base == TY_CHARACTER);
        if (ok && (lt.base == TY_COMPLEX || rt.base == TY_COMPLEX) && op != OP_EQ && op != OP_NE)
            ok = 0;
        if (!ok) {
            diag_error(s->diag, e->loc, "operands of '%s' cannot be compared (%s and %s)%s",
                       op_spelling[op], type_name(lt), type_name(rt),
                       lt.base == TY_LOGICAL && rt.base == TY_LOGICAL ? ": use .eqv. or .neqv."
                                                                       : "");
            sema_set_error(e);
            return;
        }
        set_type(e, TY_LOGICAL, 4);
    } else {
        if (lt.base != TY_LOGICAL || rt.base != TY_LOGICAL) {
            diag_error(s->diag, e->loc, "operands of '%s' must be logical (%s and %s)",
                       op_spelling[op], type_name(lt), type_name(rt));
            sema_set_error(e);
            return;
        }
        set_type(e, TY_LOGICAL, 4);
    }
}

static void push_index(Sema *s, Symbol *y)
{
    vec_push(NULL, &s->indices, y);
}

static void check_implied_do(Sema *s, Node *e)
{
    Node *v = e->u.impdo.var;
    Node *b[3] = {e->u.impdo.lo, e->u.impdo.hi, e->u.impdo.step};
    long long val[3] = {0, 0, 1};
    int known = 1;
    for (int i = 0; i < 3; i++) {
        if (!b[i])
            continue;
        sema_expr(s, b[i]);
        if (!sema_is_error(b[i]) && (b[i]->type.base != TY_INTEGER || b[i]->rank))
            diag_error(s->diag, b[i]->loc, "implied-DO bound must be a scalar integer");
        known &= sema_int_const(s, b[i], &val[i]);
    }
    Symbol *outer = sema_lookup(s, v->u.name.id);
    Symbol *y = arena_alloc(s->arena, sizeof *y);
    y->name = v->u.name.id;
    y->kind = SYM_INDEX;
    y->type = outer ? outer->type : (Type){TY_INTEGER, 4};
    if (!outer && s->scope->implicit_none)
        y->type = (Type){TY_INTEGER, 4};
    else if (!outer)
        y->type = s->scope->implicit[y->name[0] - 'a'];
    if (y->type.base != TY_INTEGER && y->type.base != TY_ERROR)
        diag_error(s->diag, v->loc, "implied-DO variable '%s' must be integer", y->name);
    v->u.name.sym = y;
    v->type = y->type;
    push_index(s, y);
    long long count = 0;
    int count_known = known && val[2] != 0;
    for (int i = 0; i < e->u.impdo.items.n; i++) {
        Node *it = e->u.impdo.items.v[i];
        sema_expr(s, it);
        if (i == 0)
            e->type = it->type;
        if (it->rank > 1)
            diag_error(s->diag, it->loc, "array constructor item has rank %d", it->rank);
        long long n = it->rank ? (it->extent ? it->extent[0] : -1) : 1;
        if (n < 0)
            count_known = 0;
        count += n;
    }
    s->indices.n--;
    long long trips = 0;
    if (count_known) {
        trips = (val[1] - val[0] + val[2]) / val[2];
        if (trips < 0)
            trips = 0;
    }
    long long ext = count_known ? trips * count : -1;
    sema_set_shape(s, e, 1, &ext);
}

static void check_ctor(Sema *s, Node *e)
{
    long long total = 0;
    int known = 1;
    PtrVec *items = &e->u.list.items;
    for (int i = 0; i < items->n; i++) {
        Node *it = items->v[i];
        sema_expr(s, it);
        if (sema_is_error(it)) {
            sema_set_error(e);
            return;
        }
        if (i == 0)
            e->type = it->type;
        else if (it->type.base != e->type.base)
            diag_error(s->diag, it->loc, "array constructor items must have one type (%s and %s)",
                       type_name(e->type), type_name(it->type));
        else if (it->type.kind > e->type.kind)
            e->type.kind = it->type.kind;
        if (it->rank > 1)
            diag_error(s->diag, it->loc, "array constructor item has rank %d", it->rank);
        long long n = it->rank ? (it->extent ? it->extent[0] : -1) : 1;
        if (n < 0)
            known = 0;
        total += n;
    }
    long long ext = known ? total : -1;
    sema_set_shape(s, e, 1, &ext);
}

/* The kind of a constant whose suffix names a PARAMETER (1.0_dp): the
 * text becomes the numeric spelling (1.0_8), which is what the SPMD
 * program is given. */
static int named_kind(Sema *s, Node *e)
{
    const char *us = strchr(e->u.konst.text, '_');
    Symbol *y = sema_lookup(s, us + 1);
    if (!y || y->kind != SYM_PARAMETER || !y->value.known || y->value.type.base != TY_INTEGER
        || (y->value.i != 4 && y->value.i != 8)) {
        diag_error(s->diag, e->loc, "kind parameter '%s' in '%s' must be an integer named "
                   "constant equal to 4 or 8", us + 1, e->u.konst.text);
        sema_set_error(e);
        return 0;
    }
    e->u.konst.kind = (int)y->value.i;
    e->u.konst.text = arena_printf(s->arena, "%.*s_%d", (int)(us - e->u.konst.text),
                                   e->u.konst.text, e->u.konst.kind);
    return 1;
}

void sema_expr(Sema *s, Node *e)
{
    s->at = e->loc;
    switch (e->kind) {
    case AST_INT_CONST:
        if (!e->u.konst.kind && !named_kind(s, e))
            break;
        set_type(e, TY_INTEGER, e->u.konst.kind);
        break;
    case AST_REAL_CONST:
        if (!e->u.konst.kind && !named_kind(s, e))
            break;
        set_type(e, TY_REAL, e->u.konst.kind);
        break;
    case AST_LOGICAL_CONST:
        set_type(e, TY_LOGICAL, 4);
        break;
    case AST_STRING_CONST:
        set_type(e, TY_CHARACTER, 1);
        break;
    case AST_COMPLEX_CONST: {
        Node *re = e->u.binary.lhs, *im = e->u.binary.rhs;
        sema_expr(s, re);
        sema_expr(s, im);
        if (!is_numeric(re->type) || !is_numeric(im->type) || re->rank || im->rank
            || !sema_fold(s, re).known || !sema_fold(s, im).known) {
            diag_error(s->diag, e->loc, "complex constant needs two numeric constants "
                       "(general expressions in parentheses cannot be separated by ',')");
            sema_set_error(e);
            break;
        }
        set_type(e, TY_COMPLEX, re->type.kind > im->type.kind ? re->type.kind : im->type.kind);
        break;
    }
    case AST_NAME:
        check_name(s, e);
        break;
    case AST_REF:
        check_ref(s, e);
        break;
    case AST_BINARY:
        check_binary(s, e);
        break;
    case AST_UNARY: case AST_PAREN: {
        Node *o = e->u.unary.operand;
        sema_expr(s, o);
        e->type = o->type;
        sema_copy_shape(s, e, o);
        if (sema_is_error(o))
            break;
        if (e->u.unary.op == OP_NOT && o->type.base != TY_LOGICAL) {
            diag_error(s->diag, e->loc, "operand of '.not.' must be logical, not %s",
                       type_name(o->type));
            sema_set_error(e);
        } else if ((e->u.unary.op == OP_NEG || e->u.unary.op == OP_PLUS) && !is_numeric(o->type)) {
            diag_error(s->diag, e->loc, "operand of unary '%s' must be numeric, not %s",
                       op_spelling[e->u.unary.op], type_name(o->type));
            sema_set_error(e);
        }
        break;
    }
    case AST_ARRAY_CTOR:
        check_ctor(s, e);
        break;
    case AST_IMPLIED_DO:
        check_implied_do(s, e);
        break;
    case AST_TRIPLET:
        diag_error(s->diag, e->loc, "section triplet outside an array subscript");
        sema_set_error(e);
        break;
    case AST_KEYWORD_ARG:
        diag_error(s->diag, e->loc, "keyword argument '%s=' outside an argument list",
                   e->u.kwarg.id);
        sema_set_error(e);
        break;
    case AST_STAR:
        break;
    default:
        fatal("sema_expr: unexpected %s", ast_kind_name[e->kind]);
    }
}

