/* lower_expr.c - expressions for the SPMD lowering: array expressions taken
 * element by element (elem: sections, DIM= reductions, CSHIFT, EOSHIFT,
 * TRANSPOSE, SPREAD, MATMUL), and lowered scalar expressions (lx): each
 * array element reference classified against the loop's home array
 * (owner computes) as local, overlap shift or gathered; reductions hoisted
 * before the statement or kept inline; elements of mapped arrays in scalar
 * context broadcast. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "lower_int.h"
#include "../runtime/hpfmap.h"
#include "../runtime/hpfrt.h"

static int shift_marker;          /* ir of a reference built for CSHIFT/EOSHIFT */

static int red_body(Lower *L, Node *e, Node *a, Node **pos, Node **body, Node **mask);

static const Type T_INT = {TY_INTEGER, 4};

/* The argument of an intrinsic call at position i or with keyword kw. */
static int is_red_name(const char *s)
{
    static const char *const names[] = {"sum", "product", "maxval", "minval", "count",
                                        "any", "all", "dot_product", "maxloc", "minloc"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(s, names[i]))
            return 1;
    return 0;
}

static int red_op_of(const char *s)
{
    if (!strcmp(s, "sum") || !strcmp(s, "dot_product") || !strcmp(s, "count"))
        return HPFRT_SUM;
    if (!strcmp(s, "product"))
        return HPFRT_PRODUCT;
    if (!strcmp(s, "maxval") || !strcmp(s, "maxloc"))
        return HPFRT_MAX;
    if (!strcmp(s, "minval") || !strcmp(s, "minloc"))
        return HPFRT_MIN;
    if (!strcmp(s, "all"))
        return HPFRT_AND;
    return HPFRT_OR;
}

static Node *dim_arg(Node *call)
{
    return ast_arg(call, 1, "dim");
}

/* MASK= of SUM PRODUCT MAXVAL MINVAL MAXLOC MINLOC (position 2, or 1
 * when it is not an integer DIM). */
static Node *mask_arg(Node *call)
{
    const char *id = call->u.ref.id;
    if (!strcmp(id, "count") || !strcmp(id, "any") || !strcmp(id, "all")
        || !strcmp(id, "dot_product"))
        return NULL;
    Node *m = ast_arg(call, 2, "mask");
    if (m)
        return m;
    Node *a1 = ast_arg(call, 1, NULL);
    if (a1 && a1->type.base == TY_LOGICAL)
        return a1;
    return NULL;
}

/* SIZE(y, d + 1), LBOUND(y, d + 1): the run time's answer. */
Node *inquire(Lower *L, const char *id, Symbol *y, int d)
{
    Node *args[2] = {mk_name(L, y, (Loc){0}), mk_int(L, d + 1)};
    return mk_call(L, id, T_INT, 2, args);
}

/* A mapped ALLOCATABLE array's bounds are hpfc's variables (mapping.c), a
 * passed dummy's its mapping's (passing.c): the local array's LBOUND and
 * SIZE are its local part's. */
static const SpArr *mapped_bounds(Lower *L, Symbol *y)
{
    const SpArr *r = y->allocatable || y->dummy ? arr_of(L, y) : NULL;
    return r && (r->at_alloc || r->passed) ? r : NULL;
}

/* SIZE(y, d) of an assumed-shape dummy passed a mapped ALLOCATABLE array:
 * its global extent, as it stands in the dummy's bounds (passing.c). */
static int extent_query(Lower *L, const Node *e)
{
    if (e->u.ref.what != REF_FUNCTION || strcmp(e->u.ref.id, "size") || e->u.ref.args.n != 2)
        return 0;
    const Node *a = e->u.ref.args.v[0];
    const SpArr *r = a->kind == AST_NAME ? mapped_bounds(L, a->u.name.sym) : NULL;
    return r && r->passed == 3;
}

static Node *dim_extent(Lower *L, Symbol *y, int d)
{
    const SpArr *r = mapped_bounds(L, y);
    if (r)
        return mk_bin(L, OP_ADD, mk_bin(L, OP_SUB, copy_plain(L, r->hi[d]),
                                        copy_plain(L, r->lo[d])), mk_int(L, 1));
    Node *dm = y->dims[d];
    if (dm->u.dim.form == DIM_EXPLICIT && dm->u.dim.hi) {
        Node *lo = dm->u.dim.lo ? copy_plain(L, dm->u.dim.lo) : mk_int(L, 1);
        return mk_bin(L, OP_ADD, mk_bin(L, OP_SUB, copy_plain(L, dm->u.dim.hi), lo), mk_int(L, 1));
    }
    return inquire(L, "size", y, d);
}

Node *lbound_of(Lower *L, Symbol *y, int d)
{
    const SpArr *r = mapped_bounds(L, y);
    if (r)
        return copy_plain(L, r->lo[d]);
    Node *dm = y->dims[d];
    if (dm->u.dim.lo)
        return copy_plain(L, dm->u.dim.lo);
    /* an assumed-shape dummy's a(:) starts at 1; an ALLOCATABLE array's
       bounds are its ALLOCATE's */
    return y->allocatable ? inquire(L, "lbound", y, d) : mk_int(L, 1);
}

static Node *ubound_of(Lower *L, Symbol *y, int d)
{
    const SpArr *r = mapped_bounds(L, y);
    if (r)
        return copy_plain(L, r->hi[d]);
    Node *dm = y->dims[d];
    if (dm->u.dim.hi && dm->u.dim.form == DIM_EXPLICIT)
        return copy_plain(L, dm->u.dim.hi);
    return mk_bin(L, OP_SUB, mk_bin(L, OP_ADD, lbound_of(L, y, d), dim_extent(L, y, d)),
                  mk_int(L, 1));
}

/* max(0, (hi - lo + st) / st), as it stands. */
static Node *trip_of(Lower *L, Node *lo, Node *hi, Node *st)
{
    Node *n = mk_bin(L, OP_DIV, mk_bin(L, OP_ADD, mk_bin(L, OP_SUB, hi, lo), st), st);
    Node *args[2] = {mk_int(L, 0), n};
    return mk_call(L, "max", T_INT, 2, args);
}

/* Trip count of lo:hi:st, folded when constant. */
static Node *trip(Lower *L, Node *lo, Node *hi, Node *st)
{
    long long a, b, c;
    if (cint(lo, &a) && cint(hi, &b) && cint(st, &c) && c) {
        Node *k = mk_int(L, hpfmap_trip(a, b, c));
        if (named(lo) || named(hi) || named(st))
            k->sym = trip_of(L, lo->sym ? lo->sym : lo, hi->sym ? hi->sym : hi,
                             st->sym ? st->sym : st);
        return k;
    }
    return trip_of(L, lo, hi, st);
}

/* SIZE / LBOUND / UBOUND of dimension d (0-based) of an array expression:
 * the declared bounds of a whole array, 1:extent of any other expression. */
static Node *inquiry(Lower *L, const char *id, Node *a, int d)
{
    if (a->kind == AST_NAME && a->u.name.sym) {
        Symbol *y = a->u.name.sym;
        return !strcmp(id, "size") ? dim_extent(L, y, d)
               : !strcmp(id, "lbound") ? lbound_of(L, y, d) : ubound_of(L, y, d);
    }
    if (!strcmp(id, "lbound"))
        return mk_int(L, 1);
    return shape_n(L, a, d);
}

/* ---- the shape of an array expression ---- */

static Node *first_array_operand(Node *e)
{
    for (int i = 0; i < e->u.ref.args.n; i++) {
        Node *a = e->u.ref.args.v[i];
        if (a->kind == AST_KEYWORD_ARG)
            a = a->u.kwarg.value;
        if (a->rank)
            return a;
    }
    return NULL;
}

/* The extent d of e as an expression of PARAMETERs where sema folded it
 * (a whole array or a section of constant bounds), for the `sym` of the
 * constant that stands for it; NULL where there is none to keep. */
static Node *shape_sym(Lower *L, Node *e, int d)
{
    switch (e->kind) {
    case AST_NAME: {
        Symbol *y = e->u.name.sym;
        Node *dm = y && d < y->rank ? y->dims[d] : NULL;
        if (!dm || mapped_bounds(L, y) || dm->u.dim.form != DIM_EXPLICIT || !dm->u.dim.hi)
            return NULL;
        return dim_extent(L, y, d);
    }
    case AST_PAREN: case AST_UNARY:
        return shape_sym(L, e->u.unary.operand, d);
    case AST_BINARY:
        return shape_sym(L, e->u.binary.lhs->rank ? e->u.binary.lhs : e->u.binary.rhs, d);
    case AST_REF:
        break;
    default:
        return NULL;
    }
    if (e->u.ref.what != REF_SECTION || (e->u.ref.sym && mapped_bounds(L, e->u.ref.sym)))
        return NULL;
    /* (a replicated temporary of the lowering's has no symbol: its sections
       are written with both bounds) */
    Symbol *y = e->u.ref.sym;
    int k = 0;
    for (int i = 0; i < e->u.ref.args.n && (!y || i < y->rank); i++) {
        Node *s = e->u.ref.args.v[i];
        if (s->kind == AST_TRIPLET && k++ == d) {
            Node *dm = y ? y->dims[i] : NULL;
            if ((!s->u.triplet.lo || !s->u.triplet.hi)
                && (!dm || dm->u.dim.form != DIM_EXPLICIT || !dm->u.dim.hi))
                return NULL;
            Node *lo = s->u.triplet.lo ? copy_plain(L, s->u.triplet.lo) : lbound_of(L, y, i);
            Node *hi = s->u.triplet.hi ? copy_plain(L, s->u.triplet.hi) : ubound_of(L, y, i);
            Node *st = s->u.triplet.stride ? copy_plain(L, s->u.triplet.stride) : mk_int(L, 1);
            return trip(L, lo, hi, st);
        }
        if (s->kind != AST_TRIPLET && s->rank)
            return NULL;
    }
    return NULL;
}

Node *shape_n(Lower *L, Node *e, int d)
{
    if (e->extent && e->extent[d] >= 0)
        return mk_int_of(L, e->extent[d], shape_sym(L, e, d));
    switch (e->kind) {
    case AST_NAME:
        return dim_extent(L, e->u.name.sym, d);
    case AST_PAREN: case AST_UNARY:
        return shape_n(L, e->u.unary.operand, d);
    case AST_BINARY:
        return shape_n(L, e->u.binary.lhs->rank ? e->u.binary.lhs : e->u.binary.rhs, d);
    case AST_REF:
        break;
    case AST_ARRAY_CTOR:
        lower_error(L, e->loc, "the SPMD lowering cannot take the shape of an array constructor "
                    "whose size is not constant here (an implied DO with variable bounds: "
                    "write the reduction with a DO loop, or over an array section)");
        return mk_int(L, 0);
    default:
        lower_error(L, e->loc, "the SPMD lowering cannot take the shape of this expression");
        return mk_int(L, 0);
    }
    if (e->u.ref.what != REF_INTRINSIC) {
        Symbol *y = e->u.ref.sym;
        int k = 0;
        for (int i = 0; i < e->u.ref.args.n; i++) {
            Node *s = e->u.ref.args.v[i];
            if (s->kind == AST_TRIPLET) {
                if (k++ < d)
                    continue;
                Node *lo = s->u.triplet.lo ? copy_plain(L, s->u.triplet.lo) : lbound_of(L, y, i);
                Node *hi = s->u.triplet.hi ? copy_plain(L, s->u.triplet.hi) : ubound_of(L, y, i);
                Node *st = s->u.triplet.stride ? copy_plain(L, s->u.triplet.stride) : mk_int(L, 1);
                return trip(L, lo, hi, st);
            }
            if (s->rank) {
                if (k++ < d)
                    continue;
                return shape_n(L, s, 0);
            }
        }
        lower_error(L, e->loc, "the SPMD lowering cannot take the shape of '%s'", e->u.ref.id);
        return mk_int(L, 0);
    }
    const char *id = e->u.ref.id;
    if (is_red_name(id) || !strcmp(id, "maxloc") || !strcmp(id, "minloc")) {
        Node *a = ast_arg(e, 0, strcmp(id, "count") && strcmp(id, "any") && strcmp(id, "all")
                      ? "array" : "mask");
        Node *dn = dim_arg(e);
        long long k;
        if (!dn)
            return mk_int(L, a->rank);               /* MAXLOC without DIM */
        cint(dn, &k);
        return shape_n(L, a, d < k - 1 ? d : d + 1);
    }
    if (!strcmp(id, "cshift") || !strcmp(id, "eoshift"))
        return shape_n(L, ast_arg(e, 0, "array"), d);
    if (!strcmp(id, "transpose"))
        return shape_n(L, ast_arg(e, 0, "matrix"), 1 - d);
    if (!strcmp(id, "reshape"))       /* SHAPE is (/ n, m ... /) (sema) */
        return copy_plain(L, ast_arg(e, 1, "shape")->u.list.items.v[d]);
    if (!strcmp(id, "unpack"))
        return shape_n(L, ast_arg(e, 1, "mask"), d);
    if (!strcmp(id, "pack")) {
        /* as many as VECTOR has, else as the MASK selects (its arguments
           are replicated copies here: lower.c pack_temp) */
        Node *v = ast_arg(e, 2, "vector"), *m = ast_arg(e, 1, "mask"), *a = ast_arg(e, 0, "array");
        if (v)
            return shape_n(L, v, 0);
        if (m->rank)
            return mk_call(L, "count", T_INT, 1, &m);
        Node *n = shape_n(L, a, 0);
        for (int k = 1; k < a->rank; k++)
            n = mk_bin(L, OP_MUL, n, shape_n(L, a, k));
        Node *args[3] = {n, mk_int(L, 0), copy_plain(L, m)};
        return mk_call(L, "merge", T_INT, 3, args);
    }
    if (!strcmp(id, "spread")) {
        long long k;
        cint(ast_arg(e, 1, "dim"), &k);
        if (d == k - 1)
            return copy_plain(L, ast_arg(e, 2, "ncopies"));
        return shape_n(L, ast_arg(e, 0, "source"), d < k - 1 ? d : d - 1);
    }
    if (!strcmp(id, "matmul")) {
        Node *a = ast_arg(e, 0, "matrix_a"), *b = ast_arg(e, 1, "matrix_b");
        if (a->rank == 2 && b->rank == 2)
            return d == 0 ? shape_n(L, a, 0) : shape_n(L, b, 1);
        return a->rank == 1 ? shape_n(L, b, 1) : shape_n(L, a, 0);
    }
    Node *a = first_array_operand(e);
    if (a)
        return shape_n(L, a, d);
    lower_error(L, e->loc, "the SPMD lowering cannot take the shape of '%s'", id);
    return mk_int(L, 0);
}

/* ---- element by element ---- */

static Node *mk_ref_node(Lower *L, Node *proto, int nargs, Node **args)
{
    Node *r = arena_alloc(L->a, sizeof *r);
    *r = *proto;
    r->rank = 0;
    r->extent = NULL;
    r->ir = NULL;
    r->u.ref.args = (PtrVec){0};
    for (int i = 0; i < nargs; i++)
        vec_push(L->a, &r->u.ref.args, args[i]);
    return r;
}

static Node *red_node(Lower *L, Node *call, int op, int loc, Node *n, Node *body, Node *mask,
                      Symbol *var, Type t)
{
    SpRed *sr = arena_alloc(L->a, sizeof *sr);
    sr->op = op;
    sr->loc = loc;
    sr->var = var;
    sr->n = n;
    sr->body = body;
    sr->mask = mask;
    sr->type = t;
    Node *r = mk_ref_node(L, call, 0, NULL);
    r->u.ref.what = REF_INTRINSIC;
    r->type = t;
    r->ir = sr;
    return r;
}


static Node *lower_reduction_at(Lower *L, Node *e, int whole_loc);

/* Element p (0-based) of MAXLOC/MINLOC(a) of an array of rank > 1: the
 * subscript of dimension p+1 of linear position t (in array element
 * order, from 1; 0: none, every subscript 0). */
static Node *loc_subscript(Lower *L, Node *t, Node *a, Node *p)
{
    Node *val[MAX_RANK] = {0}, *stride = mk_int(L, 1);
    int r = a->rank;
    for (int d = 0; d < r; d++) {
        Node *ext = shape_n(L, a, d);
        Node *q = mk_bin(L, OP_DIV, mk_bin(L, OP_SUB, t, mk_int(L, 1)), stride);
        Node *args[2] = {q, ext};
        val[d] = mk_bin(L, OP_ADD, mk_call(L, "mod", T_INT, 2, args), mk_int(L, 1));
        stride = mk_bin(L, OP_MUL, stride, ext);
    }
    Node *res = val[r - 1];
    for (int d = r - 2; d >= 0; d--) {
        Node *c = mk_bin(L, OP_EQ, p, mk_int(L, d));
        c->type = (Type){TY_LOGICAL, 4};
        Node *args[3] = {val[d], res, c};
        res = mk_call(L, "merge", T_INT, 3, args);
    }
    Node *none = mk_bin(L, OP_EQ, t, mk_int(L, 0));
    none->type = (Type){TY_LOGICAL, 4};
    Node *args[3] = {mk_int(L, 0), res, none};
    return mk_call(L, "merge", T_INT, 3, args);
}

static Node *elem_intrinsic(Lower *L, Node *e, Node **pos);

/* Element p of an array constructor: (/ (f(i), i = lo, hi, st) /) is f at
 * i = lo + p*st; a list of scalars (/ x1, ..., xk /) a choice by MERGE. */
enum { MAX_CTOR_ITEMS = 1000 };   /* doc/limits.md */

static Node *elem_ctor(Lower *L, Node *e, Node *p)
{
    PtrVec *items = &e->u.list.items;
    if (items->n == 1 && ((Node *)items->v[0])->kind == AST_IMPLIED_DO) {
        Node *d = items->v[0];
        if (d->u.impdo.items.n == 1 && !((Node *)d->u.impdo.items.v[0])->rank) {
            Node *st = d->u.impdo.step ? copy_plain(L, d->u.impdo.step) : mk_int(L, 1);
            Node *i = mk_bin(L, OP_ADD, copy_plain(L, d->u.impdo.lo), mk_bin(L, OP_MUL, p, st));
            return subst_copy(L, d->u.impdo.items.v[0], d->u.impdo.var->u.name.sym, i);
        }
    }
    if (items->n > MAX_CTOR_ITEMS) {
        /* item k is picked by a nest of MERGE as deep as the list is long */
        lower_error(L, e->loc, "an array constructor of %d items: the SPMD lowering takes %d "
                    "at most (assign the values to an array by DATA or a loop)", items->n,
                    MAX_CTOR_ITEMS);
        return mk_int(L, 0);
    }
    Node *r = NULL;
    for (int k = items->n - 1; k >= 0; k--) {
        Node *it = items->v[k];
        if (it->rank || it->kind == AST_IMPLIED_DO) {
            lower_error(L, e->loc, "the SPMD lowering handles array constructors of scalars, "
                        "or of one implied DO of a scalar");
            return mk_int(L, 0);
        }
        if (!r) {
            r = copy_plain(L, it);
            continue;
        }
        Node *eq = mk_bin(L, OP_EQ, p, mk_int(L, k));
        eq->type = (Type){TY_LOGICAL, 4};
        Node *args[3] = {copy_plain(L, it), r, eq};
        r = mk_call(L, "merge", e->type, 3, args);
    }
    return r ? r : mk_int(L, 0);
}

/* Element pos[0..rank-1] (0-based positions) of array expression e. */
Node *elem(Lower *L, Node *e, Node **pos)
{
    if (!e->rank)
        return copy_plain(L, e);
    switch (e->kind) {
    case AST_NAME: {
        Symbol *y = e->u.name.sym;
        Node *subs[MAX_RANK];
        for (int d = 0; d < y->rank; d++)
            subs[d] = mk_bin(L, OP_ADD, lbound_of(L, y, d), pos[d]);
        Node *r = mk_elem(L, y, e->loc, e->type);
        for (int d = 0; d < y->rank; d++)
            vec_push(L->a, &r->u.ref.args, subs[d]);
        return r;
    }
    case AST_PAREN: case AST_UNARY: {
        Node *r = arena_alloc(L->a, sizeof *r);
        *r = *e;
        r->rank = 0;
        r->extent = NULL;
        r->u.unary.operand = elem(L, e->u.unary.operand, pos);
        return r;
    }
    case AST_BINARY: {
        Node *r = arena_alloc(L->a, sizeof *r);
        *r = *e;
        r->rank = 0;
        r->extent = NULL;
        r->u.binary.lhs = elem(L, e->u.binary.lhs, pos);
        r->u.binary.rhs = elem(L, e->u.binary.rhs, pos);
        return r;
    }
    case AST_REF:
        break;
    case AST_ARRAY_CTOR:
        return elem_ctor(L, e, pos[0]);
    default:
        lower_error(L, e->loc, "the SPMD lowering does not handle this array expression");
        return mk_int(L, 0);
    }
    if (e->u.ref.what == REF_INTRINSIC)
        return elem_intrinsic(L, e, pos);
    if (e->u.ref.what == REF_FUNCTION) {
        lower_error(L, e->loc, "the SPMD lowering does not handle the array-valued function '%s'",
                    e->u.ref.id);
        return mk_int(L, 0);
    }
    /* a section: triplets and vector subscripts take the positions in turn */
    Symbol *y = e->u.ref.sym;
    Node *subs[MAX_RANK];
    int k = 0, n = e->u.ref.args.n;
    for (int i = 0; i < n; i++) {
        Node *s = e->u.ref.args.v[i];
        if (s->kind == AST_TRIPLET) {
            Node *lo = s->u.triplet.lo ? copy_plain(L, s->u.triplet.lo) : lbound_of(L, y, i);
            Node *st = s->u.triplet.stride ? copy_plain(L, s->u.triplet.stride) : mk_int(L, 1);
            subs[i] = mk_bin(L, OP_ADD, lo, mk_bin(L, OP_MUL, pos[k++], st));
        } else if (s->rank) {
            subs[i] = elem(L, s, &pos[k++]);
        } else {
            subs[i] = copy_plain(L, s);
        }
    }
    Node *r = mk_ref_node(L, e, n, subs);
    r->u.ref.what = REF_ELEMENT;
    return r;
}

static Node *zero_of(Lower *L, Type t)
{
    Node *z = arena_alloc(L->a, sizeof *z);
    if (t.base == TY_LOGICAL) {
        z->kind = AST_LOGICAL_CONST;
        z->u.konst.text = ".false.";
    } else if (t.base == TY_INTEGER) {
        z->kind = AST_INT_CONST;
        z->u.konst.text = t.kind == 8 ? "0_8" : "0";
    } else if (t.base == TY_COMPLEX) {
        z->kind = AST_REAL_CONST;    /* printed as written */
        z->u.konst.text = t.kind == 8 ? "(0.0d0, 0.0d0)" : "(0.0, 0.0)";
    } else {
        z->kind = AST_REAL_CONST;
        z->u.konst.text = t.kind == 8 ? "0.0d0" : "0.0";
    }
    z->type = t;
    return z;
}

static int index_visit(Node *n, void *ctx)
{
    Lower *L = ctx;
    if (n->kind == AST_NAME && n->u.name.sym) {
        if (n->u.name.sym->kind == SYM_INDEX)
            return 1;
        for (int i = 0; i < L->loopvars.n; i++)
            if (L->loopvars.v[i] == n->u.name.sym)
                return 1;
    }
    return ast_children(n, index_visit, ctx);
}

/* e reads a FORALL or implied-DO index, or an index of the loop being
 * lowered: it cannot be evaluated once, before the statement. */
static int mentions_index(Lower *L, Node *e)
{
    return index_visit(e, L);
}

static Node *elem_intrinsic(Lower *L, Node *e, Node **pos)
{
    const char *id = e->u.ref.id;
    if (is_red_name(id)) {
        /* DIM= present (the result is an array): an inline reduction */
        int cmi = !strcmp(id, "count") || !strcmp(id, "any") || !strcmp(id, "all");
        Node *a = cmi ? ast_arg(e, 0, "mask") : ast_arg(e, 0, "array");
        Node *dn = dim_arg(e);
        long long k = 1;
        int loc = !strcmp(id, "maxloc") || !strcmp(id, "minloc");
        int varies = loc && !dn && mentions_index(L, a);
        if (loc && !dn && a->rank == 1 && varies) {
            /* MAXLOC(a) of a rank-1 array varying with a FORALL or implied-DO
               index: MAXLOC(a, DIM=1), inline */
            dn = mk_int(L, 1);
        } else if (loc && !dn && a->rank == 1) {
            /* MAXLOC(a) of a rank-1 array: its one element, MAXLOC(a, DIM=1) */
            Node *s = arena_alloc(L->a, sizeof *s);
            *s = *e;
            s->rank = 0;
            s->u.ref.args = (PtrVec){0};
            for (int i = 0; i < e->u.ref.args.n; i++)
                vec_push(L->a, &s->u.ref.args, e->u.ref.args.v[i]);
            Node *kw = arena_alloc(L->a, sizeof *kw);
            kw->kind = AST_KEYWORD_ARG;
            kw->loc = e->loc;
            kw->u.kwarg.id = "dim";
            kw->u.kwarg.value = mk_int(L, 1);
            kw->type = kw->u.kwarg.value->type;
            vec_push(L->a, &s->u.ref.args, kw);
            return lx(L, s, NULL);
        }
        if (loc && !dn) {
            /* MAXLOC(a) of rank > 1: one reduction to a linear position, before
               the statement; each element one of its subscripts */
            if (varies) {
                lower_error(L, e->loc, "the SPMD lowering does not handle %s without DIM= "
                            "of an array of rank > 1 that varies with a FORALL or implied-DO "
                            "index", id);
                return mk_int(L, 0);
            }
            return loc_subscript(L, lower_reduction_at(L, e, 1), a, pos[0]);
        }
        if (!dn || !cint(dn, &k) || k < 1 || k > a->rank) {
            if (loc)
                lower_error(L, e->loc, "the SPMD lowering needs a constant DIM= for %s "
                            "of an array of rank > 1 in an array expression", id);
            else
                lower_error(L, e->loc, "the SPMD lowering needs a constant DIM= for %s", id);
            return mk_int(L, 0);
        }
        Symbol *v = new_index(L);
        Node *p2[MAX_RANK];
        for (int d = 0, j = 0; d < a->rank; d++)
            p2[d] = d == k - 1 ? index_name(L, v) : pos[j++];
        Node *body, *mask;
        int op = red_body(L, e, a, p2, &body, &mask);
        return red_node(L, e, op, loc, shape_n(L, a, k - 1), body, mask, v,
                        loc ? T_INT : e->type);
    }
    if (!strcmp(id, "cshift") || !strcmp(id, "eoshift")) {
        Node *a = ast_arg(e, 0, "array"), *sh = ast_arg(e, 1, "shift");
        Node *dn = ast_arg(e, !strcmp(id, "cshift") ? 2 : 3, "dim");
        long long k = 1;
        if ((dn && (!cint(dn, &k) || k < 1 || k > a->rank)) || sh->rank) {
            lower_error(L, e->loc, "the SPMD lowering needs a scalar SHIFT and a constant DIM "
                        "for %s", id);
            return mk_int(L, 0);
        }
        Node *n = shape_n(L, a, k - 1);
        Node *q = mk_bin(L, OP_ADD, pos[k - 1], copy_plain(L, sh));
        Node *p2[MAX_RANK];
        for (int d = 0; d < a->rank; d++)
            p2[d] = pos[d];
        Node *inrange = NULL;
        if (!strcmp(id, "cshift")) {
            Node *m1[2] = {q, n};
            Node *m2[2] = {mk_bin(L, OP_ADD, mk_call(L, "mod", T_INT, 2, m1), n), n};
            p2[k - 1] = mk_call(L, "mod", T_INT, 2, m2);
        } else {
            Node *c1[2] = {q, mk_bin(L, OP_SUB, n, mk_int(L, 1))};
            Node *c2[2] = {mk_int(L, 0), mk_call(L, "min", T_INT, 2, c1)};
            p2[k - 1] = mk_call(L, "max", T_INT, 2, c2);
            Node *ge = mk_bin(L, OP_GE, q, mk_int(L, 0));
            Node *lt = mk_bin(L, OP_LT, q, n);
            inrange = mk_bin(L, OP_AND, ge, lt);
            inrange->type = (Type){TY_LOGICAL, 4};
            ge->type = lt->type = inrange->type;
        }
        Node *v = elem(L, a, p2);
        if (v->kind == AST_REF)
            v->ir = &shift_marker;
        if (!inrange)
            return v;
        Node *b = ast_arg(e, 2, "boundary");
        if (b && b->rank) {
            lower_error(L, e->loc, "the SPMD lowering needs a scalar BOUNDARY for eoshift");
            return v;
        }
        Node *args[3] = {v, b ? copy_plain(L, b) : zero_of(L, e->type), inrange};
        return mk_call(L, "merge", e->type, 3, args);
    }
    if (!strcmp(id, "transpose")) {
        Node *p2[2] = {pos[1], pos[0]};
        return elem(L, ast_arg(e, 0, "matrix"), p2);
    }
    if (!strcmp(id, "pack") || !strcmp(id, "unpack")) {
        lower_error(L, e->loc, "the SPMD lowering takes '%s' only as the whole right-hand side "
                    "of an array assignment (assign it to an array first)", id);
        return mk_int(L, 0);
    }
    if (!strcmp(id, "reshape")) {
        /* the element's position in array element order, then the SOURCE
           element at that position */
        Node *src = ast_arg(e, 0, "source");
        Node *lin = pos[e->rank - 1];
        for (int d = e->rank - 2; d >= 0; d--)
            lin = mk_bin(L, OP_ADD, pos[d], mk_bin(L, OP_MUL, shape_n(L, e, d), lin));
        Node *p2[MAX_RANK];
        for (int d = 0; d < src->rank; d++) {
            Node *q = lin;
            if (d + 1 < src->rank) {
                Node *m[2] = {lin, shape_n(L, src, d)};
                q = mk_call(L, "mod", T_INT, 2, m);
                lin = mk_bin(L, OP_DIV, lin, shape_n(L, src, d));
            }
            p2[d] = q;
        }
        return elem(L, src, p2);
    }
    if (!strcmp(id, "spread")) {
        Node *src = ast_arg(e, 0, "source");
        long long k;
        cint(ast_arg(e, 1, "dim"), &k);
        if (!src->rank)
            return copy_plain(L, src);
        Node *p2[MAX_RANK];
        for (int d = 0, j = 0; d < e->rank; d++)
            if (d != k - 1)
                p2[j++] = pos[d];
        return elem(L, src, p2);
    }
    if (!strcmp(id, "matmul")) {
        Node *a = ast_arg(e, 0, "matrix_a"), *b = ast_arg(e, 1, "matrix_b");
        Symbol *v = new_index(L);
        Node *j = index_name(L, v);
        Node *pa[2], *pb[2];
        if (a->rank == 2) {
            pa[0] = pos[0];
            pa[1] = j;
        } else {
            pa[0] = j;
        }
        pb[0] = j;
        if (b->rank == 2)
            pb[1] = a->rank == 2 ? pos[1] : pos[0];
        Node *body = mk_bin(L, OP_MUL, elem(L, a, pa), elem(L, b, pb));
        body->type = e->type;
        return red_node(L, e, HPFRT_SUM, 0, shape_n(L, b, 0), body, NULL, v, e->type);
    }
    if (!strcmp(id, "shape") || !strcmp(id, "lbound") || !strcmp(id, "ubound")) {
        /* a rank-1 result: element p is the bound of dimension p */
        Node *a = ast_arg(e, 0, !strcmp(id, "shape") ? "source" : "array");
        const char *q = !strcmp(id, "shape") ? "size" : id;
        Node *r = inquiry(L, q, a, a->rank - 1);
        for (int d = a->rank - 2; d >= 0; d--) {
            Node *eq = mk_bin(L, OP_EQ, pos[0], mk_int(L, d));
            Node *args[3] = {inquiry(L, q, a, d), r, eq};
            r = mk_call(L, "merge", T_INT, 3, args);
        }
        return r;
    }
    /* elemental */
    int n = e->u.ref.args.n;
    for (int i = 0; i < n; i++) {
        Node *a = e->u.ref.args.v[i];
        if (a->kind == AST_KEYWORD_ARG)
            a = a->u.kwarg.value;
        if (a->rank > e->rank) {
            lower_error(L, e->loc, "the SPMD lowering does not handle '%s' in an array "
                        "expression", id);
            return mk_int(L, 0);
        }
    }
    Node **args = arena_alloc(L->a, (size_t)(n ? n : 1) * sizeof *args);
    for (int i = 0; i < n; i++) {
        Node *a = e->u.ref.args.v[i];
        if (a->kind == AST_KEYWORD_ARG) {
            Node *k = arena_alloc(L->a, sizeof *k);
            *k = *a;
            k->u.kwarg.value = elem(L, a->u.kwarg.value, pos);
            args[i] = k;
        } else {
            args[i] = elem(L, a, pos);
        }
    }
    return mk_ref_node(L, e, n, args);
}

/* ---- lowered expressions ---- */

SpCtx *new_ctx(Lower *L, SpCtx *parent)
{
    SpCtx *c = arena_alloc(L->a, sizeof *c);
    c->id = ++L->u->ncounters;
    c->parent = parent;
    c->minround = parent ? parent->minround : 0;
    return c;
}

static int is_loopvar(Lower *L, Symbol *y)
{
    for (int i = 0; i < L->loopvars.n; i++)
        if (L->loopvars.v[i] == y)
            return 1;
    return 0;
}

static int dep_visit(Node *n, void *ctx)
{
    Lower *L = ctx;
    if (n->kind == AST_NAME && n->u.name.sym && is_loopvar(L, n->u.name.sym))
        return 1;
    if (n->kind == AST_REF && n->u.ref.what == REF_INTRINSIC && n->ir) {
        SpRed *sr = n->ir;
        if (dep_visit(sr->n, ctx) || dep_visit(sr->body, ctx) || (sr->mask && dep_visit(sr->mask, ctx)))
            return 1;
    }
    return ast_children(n, dep_visit, ctx);
}

int depends_on_loop(Lower *L, Node *e)
{
    return dep_visit(e, L);
}

/* The largest round of the gathers in a lowered expression, -1 if none. */
static int round_visit(Node *n, void *ctx)
{
    int *m = ctx;
    if (n->kind == AST_REF && n->u.ref.what == REF_ELEMENT && n->ir && n->ir != &shift_marker) {
        SpRef *r = n->ir;
        if (r->acc == ACC_TEMP && r->g->round > *m)
            *m = r->g->round;
    }
    if (n->kind == AST_REF && n->u.ref.what == REF_INTRINSIC && n->ir) {
        SpRed *sr = n->ir;
        round_visit(sr->n, ctx);
        round_visit(sr->body, ctx);
        if (sr->mask)
            round_visit(sr->mask, ctx);
    }
    ast_children(n, round_visit, ctx);
    return 0;
}

int max_round(Node *e)
{
    int m = -1;
    if (e)
        round_visit(e, &m);
    return m;
}

/* e = a*v + rest + c, v a loop index, a and c constants, rest free of loop
 * indices (NULL: none). */
typedef struct {
    int ok;
    Symbol *v;
    long long a, c;
    Node *rest;
} Affine;

static Affine affine(Lower *L, Node *e)
{
    Affine r = {1, NULL, 0, 0, NULL};
    long long k;
    if (cint(e, &k)) {
        r.c = k;
        return r;
    }
    switch (e->kind) {
    case AST_NAME:
        if (e->u.name.sym && is_loopvar(L, e->u.name.sym)) {
            r.v = e->u.name.sym;
            r.a = 1;
        } else {
            r.rest = e;
        }
        return r;
    case AST_PAREN:
        return affine(L, e->u.unary.operand);
    case AST_UNARY:
        if (e->u.unary.op == OP_NEG || e->u.unary.op == OP_PLUS) {
            r = affine(L, e->u.unary.operand);
            if (e->u.unary.op == OP_NEG) {
                r.a = -r.a;
                r.c = -r.c;
                if (r.rest)
                    r.rest = mk_bin(L, OP_SUB, mk_int(L, 0), r.rest);
            }
            return r;
        }
        break;
    case AST_BINARY: {
        Op op = e->u.binary.op;
        if (op != OP_ADD && op != OP_SUB && op != OP_MUL)
            break;
        Affine x = affine(L, e->u.binary.lhs), y = affine(L, e->u.binary.rhs);
        if (!x.ok || !y.ok)
            break;
        if (op == OP_MUL) {
            Affine *cst = !x.v && !x.rest ? &x : !y.v && !y.rest ? &y : NULL;
            Affine *oth = cst == &x ? &y : &x;
            if (!cst)
                break;
            r = *oth;
            r.a *= cst->c;
            r.c *= cst->c;
            if (r.rest)
                r.rest = mk_bin(L, OP_MUL, mk_int(L, cst->c), r.rest);
            return r;
        }
        long long s = op == OP_SUB ? -1 : 1;
        if (x.v && y.v && x.v != y.v)
            break;
        r.v = x.v ? x.v : y.v;
        r.a = x.a + s * y.a;
        if (r.a == 0)
            r.v = NULL;
        r.c = x.c + s * y.c;
        if (x.rest && y.rest)
            r.rest = mk_bin(L, op, x.rest, y.rest);
        else if (y.rest)
            r.rest = s < 0 ? mk_bin(L, OP_SUB, mk_int(L, 0), y.rest) : y.rest;
        else
            r.rest = x.rest;
        return r;
    }
    default:
        break;
    }
    if (!depends_on_loop(L, e)) {
        r.rest = e;
        return r;
    }
    r.ok = 0;
    return r;
}

int affine_of(Lower *L, Node *e, Symbol **v, long long *a, long long *c, Node **rest)
{
    Affine f = affine(L, e);
    *v = f.v;
    *a = f.a;
    *c = f.c;
    *rest = f.rest;
    return f.ok;
}

/* Whether n has a part of kind INTEGER(8) (no MIN or MAX of mixed kinds is
 * formed over it). */
static int int8_visit(Node *n, void *ctx)
{
    if (n->type.base == TY_INTEGER && n->type.kind == 8)
        return 1;
    return ast_children(n, int8_visit, ctx);
}

/* The lowest and highest value subscript s takes over the iterations of
 * lp: s = a*v + rest with v one of lp's indices (constant step) or no
 * index, rest of scalars that the FORALL cannot change. 0 when it is not
 * of that form (an inline reduction's index, an array element). */
static int sub_range(Lower *L, const SpLoop *lp, Node *s, Node **lo, Node **hi)
{
    Affine f = affine(L, s);
    if (!f.ok || int8_visit(s, NULL))
        return 0;
    if (!f.v) {
        if (!spmd_scalar_expr(s))
            return 0;
        *lo = *hi = s;
        return 1;
    }
    const SpIndex *ix = NULL;
    for (int k = 0; k < lp->nidx; k++)
        if (lp->idx[k].var == f.v)
            ix = &lp->idx[k];
    long long st;
    if (!ix || !cint(ix->st, &st) || st == 0 || int8_visit(ix->lo, NULL)
        || int8_visit(ix->hi, NULL))
        return 0;
    Node *first = subst_copy(L, s, f.v, ix->lo), *last = subst_copy(L, s, f.v, ix->hi);
    if (!spmd_scalar_expr(first) || !spmd_scalar_expr(last))
        return 0;
    /* (from lo towards hi: an empty FORALL gives an empty range) */
    *lo = (f.a > 0) == (st > 0) ? first : last;
    *hi = (f.a > 0) == (st > 0) ? last : first;
    return 1;
}

/* MIN (max 0) or MAX (max 1) of two bounds, folded when both are constants. */
static Node *bound_union(Lower *L, Node *a, Node *b, int max)
{
    long long x, y;
    if (cint(a, &x) && cint(b, &y)) {
        Node *k = mk_int(L, max ? (x > y ? x : y) : (x < y ? x : y));
        if (named(a) || named(b)) {
            Node *args[2] = {a->sym ? a->sym : a, b->sym ? b->sym : b};
            k->sym = same_expr(args[0], args[1]) ? args[0]
                     : mk_call(L, max ? "max" : "min", (Type){TY_INTEGER, 4}, 2, args);
        }
        return k;
    }
    if (same_expr(a, b))
        return a;
    Node *args[2] = {a, b};
    return mk_call(L, max ? "max" : "min", (Type){TY_INTEGER, 4}, 2, args);
}

void overlap_boxes(Lower *L, SpLoop *lp)
{
    int n = lp->overlaps.n;
    lp->ovl = arena_alloc(L->a, (size_t)(n * MAX_RANK + 1) * sizeof *lp->ovl);
    lp->novl = 0;
    for (int i = 0; i < n; i++) {
        const SpRef *r = lp->overlaps.v[i];
        int first = 1;
        for (int j = 0; j < i; j++)
            if (((const SpRef *)lp->overlaps.v[j])->arr == r->arr)
                first = 0;
        if (!first)
            continue;
        for (int d = 0; d < r->arr->rank; d++) {
            SpOverlap o = {r->arr, d, 0, 0, {0}, {0}, {{0}}};
            int known[MAX_RANK], any = 0;
            for (int e = 0; e < r->arr->rank; e++)
                known[e] = 1;
            for (int j = i; j < n; j++) {
                const SpRef *q = lp->overlaps.v[j];
                int again = 0;
                for (int k = i; k < j; k++)
                    again |= lp->overlaps.v[k] == q;
                if (q->arr != r->arr || again)
                    continue;
                if (-q->delta[d] > o.below)
                    o.below = -q->delta[d];
                if (q->delta[d] > o.above)
                    o.above = q->delta[d];
                if (!q->delta[d])
                    continue;     /* not shifted along d: reads none of its ghosts */
                /* the box of what the references shifted along d read */
                for (int e = 0; e < r->arr->rank; e++) {
                    if (-q->delta[e] > o.ext[e][0])
                        o.ext[e][0] = (int)-q->delta[e];
                    if (q->delta[e] > o.ext[e][1])
                        o.ext[e][1] = (int)q->delta[e];
                    Node *lo, *hi;
                    if (!known[e] || !sub_range(L, lp, q->sub[e], &lo, &hi)) {
                        known[e] = 0;
                        continue;
                    }
                    o.lo[e] = any ? bound_union(L, o.lo[e], lo, 0) : lo;
                    o.hi[e] = any ? bound_union(L, o.hi[e], hi, 1) : hi;
                }
                any = 1;
            }
            if (!o.below && !o.above)
                continue;
            for (int e = 0; e < r->arr->rank; e++)
                if (!known[e])
                    o.lo[e] = o.hi[e] = NULL;
            lp->ovl[lp->novl++] = o;
        }
    }
}

/* a < b as a condition; *always set (and NULL returned) when it holds
 * whatever the scalars, NULL alone when it never does */
static Node *less_than(Lower *L, Node *a, Node *b, int *always)
{
    long long x, y;
    if (cint(a, &x) && cint(b, &y)) {
        *always = x < y;
        return NULL;
    }
    return mk_bin(L, OP_LT, a, b);
}

/* c1 op c2 for conditions, NULL standing for "never" under OP_OR and for
 * "always" under OP_AND */
static Node *cond_join(Lower *L, Op op, Node *c1, Node *c2)
{
    return !c1 ? c2 : !c2 || same_expr(c1, c2) ? c1 : mk_bin(L, op, c1, c2);
}

void direct_apart(Lower *L, SpLoop *lp)
{
    lp->apart = 0;
    lp->direct_if = NULL;
    const SpRef *l = lp->lhs && !lp->scatter && !lp->lhs_temp ? lp->lhs->ir : NULL;
    const SpArr *w = l ? l->arr : NULL;
    if (!w)
        return;
    Node *all = NULL;
    int any = 0;
    for (int i = 0; i < lp->gathers.n; i++) {
        const SpRef *r = ((const SpGather *)lp->gathers.v[i])->r;
        if (r->arr != w && r->arr->sym && r->arr->sym == w->sym)
            return;               /* a remap's copy: another layout of it */
        if (r->arr != w)
            continue;
        any = 1;
        /* apart in one dimension: the ranges do not meet */
        Node *one = NULL;
        int always = 0;
        for (int d = 0; d < w->rank && !always; d++) {
            Node *llo, *lhi, *glo, *ghi;
            if (!sub_range(L, lp, l->sub[d], &llo, &lhi) ||
                !sub_range(L, lp, r->sub[d], &glo, &ghi))
                continue;
            Node *below = less_than(L, ghi, llo, &always);
            Node *above = always ? NULL : less_than(L, lhi, glo, &always);
            one = cond_join(L, OP_OR, one, cond_join(L, OP_OR, below, above));
        }
        if (always)
            continue;
        if (!one)
            return;               /* not known apart: the gathers stay */
        all = cond_join(L, OP_AND, all, one);
    }
    lp->apart = any;
    lp->direct_if = all;
}

static int axis_of(const SpArr *r, int te)
{
    for (int d = 0; d < r->rank; d++)
        if (r->tdim[d] == te)
            return d;
    return -1;
}

static int same_rest(const Node *a, const Node *b)
{
    if (!a || !b)
        return a == b;
    return same_expr(a, b);
}

/* Is the element sub[] of Y held where the loop's iteration runs? Fills
 * r->lvar and r->delta. */
/* A constant offset of delta cells along template dimension te reaches
 * ghost cells: of the one block a processor of a BLOCK dimension (up to 64
 * cells), or the overlap areas around every block of a CYCLIC(k) or
 * BLOCK(k) dimension, when k is known and the offset at most half of it
 * (areas wider would more than double the local storage, and a gather
 * moves no more). */
static int overlap_fits(const SpTmpl *t, int te, long long delta)
{
    long long k, m = delta < 0 ? -delta : delta;
    switch (t->fmt[te]) {
    case HPFMAP_BLOCK:
        return m <= 64;
    case HPFMAP_BLOCKK:
    case HPFMAP_CYCLIC:
        return t->k[te] && cint(t->k[te], &k) && 2 * m <= k && m <= 64;
    default:
        return 0;
    }
}

static int local_ref(Lower *L, SpLoop *lp, SpArr *Y, SpRef *r)
{
    SpArr *X = lp->arr;
    if (!X)
        return 0;
    for (int d = 0; d < Y->rank; d++)
        r->lvar[d] = -1;
    for (int te = 0; te < Y->tmpl->rank; te++) {
        if (Y->tmpl->fmt[te] == HPFMAP_STAR)
            continue;
        int tx = -1;
        for (int k = 0; k < X->tmpl->rank; k++)
            if (tdim_equiv(X->tmpl, k, Y->tmpl, te))
                tx = k;
        int e = axis_of(Y, te);
        if (e < 0 && !Y->fix[te])
            continue;                         /* replicated along te */
        if (tx < 0)
            return 0;
        /* the home's binding of tx */
        int bound = -1;
        for (int k = 0; k < lp->nidx; k++)
            if (lp->idx[k].dist && X->tdim[lp->idx[k].dim] == tx)
                bound = k;
        int dx = axis_of(X, tx);
        if (e < 0) {
            /* Y sits at one cell of te: so must the iteration */
            if (bound >= 0 && !lp->idx[bound].a_const && dx >= 0) {
                Node *cx = mk_bin(L, OP_ADD, mk_bin(L, OP_MUL, X->alpha[dx], lp->idx[bound].b),
                                  X->beta[dx]);
                if (same_expr(cx, Y->fix[te]))
                    continue;
            }
            if (X->fix[tx] && same_expr(X->fix[tx], Y->fix[te]))
                continue;
            return 0;
        }
        if (!Y->cknown[e])
            return 0;
        Affine ay = affine(L, r->sub[e]);
        if (!ay.ok)
            return 0;
        if (bound < 0) {
            if (X->fix[tx] && !ay.v) {
                Node *cy = mk_bin(L, OP_ADD, mk_bin(L, OP_MUL, Y->alpha[e], r->sub[e]), Y->beta[e]);
                if (same_expr(cy, X->fix[tx])) {
                    r->lvar[e] = -2;          /* hpfrt_g2l: the one cell held here */
                    continue;
                }
            }
            return 0;
        }
        SpIndex *ix = &lp->idx[bound];
        if (!X->cknown[ix->dim])
            return 0;
        Affine ab = affine(L, ix->b);
        if (!ab.ok || ab.v)
            return 0;
        long long ax = X->ca[ix->dim], ayc = Y->ca[e];
        if (ix->a_const == 0) {
            if (ay.v || ax != ayc || !same_rest(ab.rest, ay.rest))
                return 0;
        } else {
            if (ay.v != ix->var || ayc * ay.a != ax * ix->a_const || ax != ayc
                || !same_rest(ab.rest, ay.rest))
                return 0;
        }
        long long delta = ayc * ay.c + Y->cb[e] - (ax * ab.c + X->cb[ix->dim]);
        if (delta && !overlap_fits(Y->tmpl, te, delta))
            return 0;
        r->lvar[e] = bound;
        r->delta[e] = delta;
    }
    return 1;
}

static int has_ref_visit(Node *n, void *ctx)
{
    (void)ctx;
    if (n->kind == AST_REF && n->u.ref.what == REF_ELEMENT)
        return 1;
    return ast_children(n, has_ref_visit, ctx);
}

static Pattern pattern_of(Lower *L, SpLoop *lp, SpArr *Y, SpRef *r, int shifted)
{
    for (int d = 0; d < Y->rank; d++)
        if (has_ref_visit(r->sub[d], NULL))
            return PAT_INDIRECT;
    if (shifted)
        return PAT_CSHIFT;
    if (!lp->arr)
        return PAT_MULTICAST;
    int permuted = 0, fixed = 0, affine_all = 1;
    for (int d = 0; d < Y->rank; d++) {
        if (Y->tdim[d] < 0)
            continue;
        Affine a = affine(L, r->sub[d]);
        if (!a.ok) {
            affine_all = 0;
            continue;
        }
        if (!a.v) {
            fixed = 1;
            continue;
        }
        for (int k = 0; k < lp->nidx; k++)
            if (lp->idx[k].var == a.v && lp->idx[k].dist
                && lp->idx[k].dim != d)
                permuted = 1;
    }
    if (fixed)
        return PAT_MULTICAST;
    if (permuted && affine_all)
        return PAT_TRANSPOSE;
    return PAT_REMAP;
}

static Node *lx_ref(Lower *L, Node *e, SpCtx *ctx);

/* An argument that is a section or an expression of mapped arrays, not a
 * whole one. */
static int part_of_mapped(Lower *L, Node *a)
{
    if (!a->rank || a->kind == AST_KEYWORD_ARG)
        return 0;
    if (a->kind == AST_NAME && a->u.name.sym && arr_of(L, a->u.name.sym))
        return 0;
    return mapped_array_in(L, a) != NULL;
}

static int parts_of_mapped(Lower *L, Node *e)
{
    for (int i = 0; i < e->u.ref.args.n; i++)
        if (part_of_mapped(L, e->u.ref.args.v[i]))
            return 1;
    return 0;
}

int call_communicates(Lower *L, Node *e)
{
    Node *callee = find_unit(L, e->u.ref.id);
    return callee && (unit_communicates(callee, 0) || pass_takes_mapped(L, e) ||
                      parts_of_mapped(L, e));
}

/* A call (a user function, an elemental intrinsic) with lowered arguments. */
static Node *lx_call(Lower *L, Node *e, SpCtx *ctx)
{
    int n = e->u.ref.args.n;
    Node **args = arena_alloc(L->a, (size_t)(n ? n : 1) * sizeof *args);
    const SpUnit *callee = pass_callee(L, e);
    PtrVec copies = {0};
    for (int i = 0; i < n; i++) {
        Node *a = e->u.ref.args.v[i];
        if (a->kind == AST_NAME && a->u.name.sym && a->u.name.sym->rank
            && arr_of(L, a->u.name.sym)) {
            /* a whole mapped array: its descriptor goes along (passing.c) */
            Node *p = pass_actual(L, callee, i + 1, a);
            args[i] = p ? p : a;
            continue;
        }
        if (part_of_mapped(L, a)) {
            /* a section or an expression of mapped arrays: a replicated
               copy (gathered) before the statement (a scalar context: the
               call was hoisted out of any loop) */
            const Symbol *d = callee && i < callee->unit->u.unit.args.n
                ? ((Node *)callee->unit->u.unit.args.v[i])->u.name.sym : NULL;
            if (d && d->assigned && d->intent != INTENT_IN)
                lower_error(L, a->loc, "'%s' assigns its dummy '%s', which a copy of part of "
                            "the mapped array '%s' cannot be passed to in an expression "
                            "(assign it in a subroutine)", e->u.ref.id, d->name,
                            mapped_array_in(L, a)->name);
            args[i] = temp_array(L, a, L->pre);
            vec_push(NULL, &copies, args[i]);
            continue;
        }
        args[i] = lx(L, a, ctx);
    }
    Node *r = mk_ref_node(L, e, n, args);
    r->type = e->type;
    pass_name_call(L, r, callee);
    if (copies.n) {
        /* the value, then the copies freed */
        r = hoist_value(L, r);
        for (int i = 0; i < copies.n; i++)
            free_temp_array(L, copies.v[i], L->pre);
    }
    free(copies.v);
    return r;
}

/* A value computed into a scalar temporary by every processor, before the
 * statement being lowered. */
Node *hoist_value(Lower *L, Node *v)
{
    int tp = new_temp(L, v->type, 0);
    Node *a = arena_alloc(L->a, sizeof *a);
    a->kind = AST_ASSIGN;
    a->u.assign.lhs = mk_temp_name(L, tp, v->type);
    a->u.assign.rhs = v;
    SpStmt *s = new_stmt(L, SP_SEQ);
    s->u.seq = a;
    add_stmt(L, L->pre, s);
    return a->u.assign.lhs;
}

/* DOT_PRODUCT of complex vectors conjugates the first (F95 13.14.31). */
static Node *conjg(Lower *L, Node *x)
{
    Node *args[1] = {x};
    return mk_call(L, "conjg", x->type, 1, args);
}

/* Does a procedure touch mapped arrays (its own or its host's), itself or
 * through the procedures it calls? Then it communicates. */
static int comm_visit(Node *n, void *ctx)
{
    int depth = *(int *)ctx;
    Symbol *y = n->kind == AST_NAME ? n->u.name.sym
                : n->kind == AST_REF || n->kind == AST_CALL ? n->u.ref.sym : NULL;
    if (y && (y->align || y->distribute || y->passed))
        return 1;
    if (y && y->unit && (y->kind == SYM_FUNCTION || y->kind == SYM_SUBROUTINE)
        && n->kind != AST_UNIT && unit_communicates(y->unit, depth + 1))
        return 1;
    return ast_children(n, comm_visit, ctx);
}

int unit_communicates(Node *unit, int depth)
{
    if (depth > 8)
        return 0;
    for (int i = 0; i < unit->u.unit.body.n; i++)
        if (comm_visit(unit->u.unit.body.v[i], &depth))
            return 1;
    return 0;
}
static Node *lx_intrinsic(Lower *L, Node *e, SpCtx *ctx);

static Node *lx_red(Lower *L, Node *e, SpCtx *ctx)
{
    SpRed *sr = e->ir;
    SpRed *nr = arena_alloc(L->a, sizeof *nr);
    *nr = *sr;
    vec_push(NULL, &L->loopvars, sr->var);
    vec_push(L->a, &L->u->index_syms, sr->var);
    nr->n = lx(L, sr->n, ctx);
    nr->ctx_iter = new_ctx(L, ctx);
    nr->mask = sr->mask ? lx(L, sr->mask, nr->ctx_iter) : NULL;
    nr->ctx_body = nr->ctx_iter;
    if (nr->mask) {
        nr->ctx_body = new_ctx(L, nr->ctx_iter);
        int m = max_round(nr->mask);
        if (m + 1 > nr->ctx_body->minround)
            nr->ctx_body->minround = m + 1;
    }
    nr->body = lx(L, sr->body, nr->ctx_body);
    nr->acc = new_temp(L, sr->loc ? sr->body->type : sr->type, 0);
    if (sr->loc)
        nr->pos = new_temp(L, T_INT, 0);
    Node *r = arena_alloc(L->a, sizeof *r);
    *r = *e;
    r->ir = nr;
    return r;
}

/* A function of the file given elements of mapped arrays: each goes as a
 * copy of its value, so not to an array dummy (sequence association), nor
 * to a dummy the function assigns. */
static void elem_actuals_fn(Lower *L, Node *e)
{
    for (int i = 0; i < e->u.ref.args.n; i++) {
        Node *a = e->u.ref.args.v[i];
        Node *v = a->kind == AST_KEYWORD_ARG ? a->u.kwarg.value : a;
        if (v->kind != AST_REF || v->u.ref.what != REF_ELEMENT || !arr_of(L, v->u.ref.sym))
            continue;
        const Symbol *d = elem_dummy(L, e, i, a);
        if (!d)
            lower_error(L, a->loc, "an element of the mapped array '%s' cannot stand for an "
                        "array dummy of '%s' (sequence association, which HPF forbids for "
                        "mapped arrays; pass a section)", v->u.ref.sym->name, e->u.ref.id);
        else if (d->intent != INTENT_IN && d->assigned)
            lower_error(L, a->loc, "'%s' assigns its dummy '%s', which an element of the "
                        "mapped array '%s' cannot be passed to in an expression (assign it in "
                        "a subroutine)", e->u.ref.id, d->name, v->u.ref.sym->name);
    }
}

Node *lx(Lower *L, Node *e, SpCtx *ctx)
{
    if (!e)
        return NULL;
    switch (e->kind) {
    case AST_INT_CONST: case AST_REAL_CONST: case AST_LOGICAL_CONST: case AST_STRING_CONST:
    case AST_COMPLEX_CONST: case AST_STAR:
        return e;
    case AST_NAME:
        if (e->u.name.sym && e->u.name.sym->rank && arr_of(L, e->u.name.sym)) {
            lower_error(L, e->loc, "the SPMD lowering cannot pass the mapped array '%s' as "
                        "a whole here", e->u.name.id);
        }
        return e;
    case AST_PAREN: case AST_UNARY: {
        Node *r = arena_alloc(L->a, sizeof *r);
        *r = *e;
        r->u.unary.operand = lx(L, e->u.unary.operand, ctx);
        return r;
    }
    case AST_BINARY: {
        Node *r = arena_alloc(L->a, sizeof *r);
        *r = *e;
        r->u.binary.lhs = lx(L, e->u.binary.lhs, ctx);
        r->u.binary.rhs = lx(L, e->u.binary.rhs, ctx);
        return r;
    }
    case AST_KEYWORD_ARG: {
        Node *r = arena_alloc(L->a, sizeof *r);
        *r = *e;
        r->u.kwarg.value = lx(L, e->u.kwarg.value, ctx);
        return r;
    }
    case AST_REF:
        if (e->u.ref.what == REF_SUBSTRING) {     /* of a (replicated) CHARACTER scalar */
            const Node *t = e->u.ref.args.v[0];
            Node *nt = arena_alloc(L->a, sizeof *nt);
            *nt = *t;
            nt->u.triplet.lo = lx(L, t->u.triplet.lo, ctx);
            nt->u.triplet.hi = lx(L, t->u.triplet.hi, ctx);
            return mk_ref_node(L, e, 1, &nt);
        }
        if (e->u.ref.what == REF_INTRINSIC && e->ir)
            return lx_red(L, e, ctx);
        if (e->u.ref.what == REF_INTRINSIC)
            return lx_intrinsic(L, e, ctx);
        if (extent_query(L, e))
            return e;
        if (e->u.ref.what == REF_FUNCTION || e->u.ref.what == REF_UNRESOLVED) {
            Node *callee = find_unit(L, e->u.ref.id);
            if (callee)
                elem_actuals_fn(L, e);
            if (L->loop && call_communicates(L, e)) {
                if (depends_on_loop(L, e)) {
                    lower_error(L, e->loc, "the SPMD lowering cannot call '%s' here: it uses "
                                "mapped arrays, so every processor must call it the same "
                                "number of times, and here each would call it for its own "
                                "elements", e->u.ref.id);
                    return e;
                }
                /* evaluated once by every processor, before the loop */
                SpLoop *saved = L->loop;
                L->loop = NULL;
                Node *v = lx(L, e, NULL);
                L->loop = saved;
                return hoist_value(L, v);
            }
            return lx_call(L, e, ctx);
        }
        if (e->rank) {
            if (e->u.ref.sym && arr_of(L, e->u.ref.sym))
                lower_error(L, e->loc, "the SPMD lowering cannot pass a section of the mapped "
                            "array '%s' here", e->u.ref.id);
            return e;
        }
        return lx_ref(L, e, ctx);
    default:
        lower_error(L, e->loc, "the SPMD lowering does not handle this expression");
        return e;
    }
}

/* An element reference: subscripts first, then the reference itself. */
static Node *lx_ref(Lower *L, Node *e, SpCtx *ctx)
{
    int n = e->u.ref.args.n;
    Node *subs[MAX_RANK];
    for (int i = 0; i < n && i < MAX_RANK; i++)
        subs[i] = lx(L, e->u.ref.args.v[i], ctx);
    Node *r = mk_ref_node(L, e, n, subs);
    r->u.ref.what = REF_ELEMENT;
    SpRef *sr = arena_alloc(L->a, sizeof *sr);
    SpRef *pre = e->ir && e->ir != &shift_marker ? e->ir : NULL;
    sr->arr = pre ? pre->arr : arr_of(L, e->u.ref.sym);
    for (int i = 0; i < n && i < MAX_RANK; i++) {
        sr->sub[i] = subs[i];
        sr->lvar[i] = -1;
    }
    r->ir = sr;
    if (!sr->arr || !sr->arr->tmpl) {
        sr->acc = ACC_GLOBAL;
        return r;
    }
    if (!L->loop) {
        /* scalar context: every processor needs the value */
        sr->acc = ACC_BCAST;
        SpStmt *s = new_stmt(L, SP_BCAST);
        s->u.bcast.temp = new_temp(L, e->type, 0);
        s->u.bcast.ref = r;
        add_stmt(L, L->pre, s);
        return mk_temp_name(L, s->u.bcast.temp, e->type);
    }
    SpLoop *lp = L->loop;
    SpArr *Y = sr->arr;
    if (local_ref(L, lp, Y, sr)) {
        sr->acc = ACC_LOCAL;
        for (int d = 0; d < Y->rank; d++) {
            if (!sr->delta[d])
                continue;
            if (sr->delta[d] < 0 && -sr->delta[d] > Y->glo[d])
                Y->glo[d] = (int)-sr->delta[d];
            if (sr->delta[d] > 0 && sr->delta[d] > Y->ghi[d])
                Y->ghi[d] = (int)sr->delta[d];
            vec_push(L->a, &lp->overlaps, sr);
        }
        return r;
    }
    SpGather *g = arena_alloc(L->a, sizeof *g);
    g->ref = r;
    g->r = sr;
    g->ctx = ctx;
    ctx->used = 1;
    int m = -1;
    for (int i = 0; i < n; i++) {
        int k = max_round(subs[i]);
        if (k > m)
            m = k;
    }
    g->round = m + 1 > ctx->minround ? m + 1 : ctx->minround;
    if (g->round + 1 > lp->nrounds)
        lp->nrounds = g->round + 1;
    g->buf = new_temp(L, e->type, 1);
    g->idx = new_temp(L, T_INT, 2);
    g->pat = pattern_of(L, lp, Y, sr, e->ir == &shift_marker);
    sr->acc = ACC_TEMP;
    sr->g = g;
    vec_push(L->a, &lp->gathers, g);
    return r;
}

static Node *lower_reduction(Lower *L, Node *e);
static int red_body(Lower *L, Node *e, Node *a, Node **pos, Node **body, Node **mask);

/* A reduction to a scalar of a rank-1 argument (SUM, DOT_PRODUCT, ...)
 * whose argument varies with a FORALL index, as an inline reduction: a
 * node whose ir is the SpRed of a loop over the argument's positions (not
 * lowered yet). */
Node *inline_red(Lower *L, Node *e)
{
    const char *id = e->u.ref.id;
    int cmi = !strcmp(id, "count") || !strcmp(id, "any") || !strcmp(id, "all");
    Node *a = cmi ? ast_arg(e, 0, "mask") : ast_arg(e, 0, strcmp(id, "dot_product") ? "array"
                                                                       : "vector_a");
    int loc = !strcmp(id, "maxloc") || !strcmp(id, "minloc");
    Symbol *v = new_index(L);
    Node *p[1] = {index_name(L, v)};
    Node *body, *mask;
    int op = red_body(L, e, a, p, &body, &mask);
    return red_node(L, e, op, loc, shape_n(L, a, 0), body, mask, v, e->type);
}

/* Whether e is a reduction inline_red takes: a scalar reduction of a
 * rank-1 argument, with no DIM= (nor MAXLOC/MINLOC's position). */
int inline_red_ok(Node *e)
{
    if (e->kind != AST_REF || e->u.ref.what != REF_INTRINSIC || e->ir || e->rank
        || !is_red_name(e->u.ref.id))
        return 0;
    const char *id = e->u.ref.id;
    if (strcmp(id, "dot_product") && dim_arg(e))    /* (its second argument is no DIM=) */
        return 0;
    if (!strcmp(id, "maxloc") || !strcmp(id, "minloc"))
        return 0;
    int cmi = !strcmp(id, "count") || !strcmp(id, "any") || !strcmp(id, "all");
    Node *a = cmi ? ast_arg(e, 0, "mask") : ast_arg(e, 0, strcmp(id, "dot_product") ? "array"
                                                                       : "vector_a");
    return a && a->rank == 1;
}

/* The element a reduction combines at positions pos of its argument a,
 * and its mask (NULL: none); returns the operator. DOT_PRODUCT multiplies
 * (conjugating a complex first vector, F95 13.14.31) or, for logicals,
 * takes ANY of the conjunction; COUNT adds 1 where its argument holds. */
static int red_body(Lower *L, Node *e, Node *a, Node **pos, Node **body, Node **mask)
{
    const char *id = e->u.ref.id;
    int op = red_op_of(id);
    *body = elem(L, a, pos);
    *mask = NULL;
    if (!strcmp(id, "dot_product")) {
        int lg = e->type.base == TY_LOGICAL;
        if (e->type.base == TY_COMPLEX)
            *body = conjg(L, *body);
        *body = mk_bin(L, lg ? OP_AND : OP_MUL, *body, elem(L, ast_arg(e, 1, "vector_b"), pos));
        (*body)->type = e->type;
        return lg ? HPFRT_OR : op;
    }
    if (!strcmp(id, "count")) {
        *mask = *body;
        *body = mk_int(L, 1);
    } else if (strcmp(id, "any") && strcmp(id, "all")) {
        Node *m = mask_arg(e);
        *mask = m ? elem(L, m, pos) : NULL;
    }
    return op;
}

/* The first reference, in exprs, to a mapped array with a distributed
 * dimension subscripted affinely by a loop index: the owner of its element
 * runs the iteration (a reduction's or a scatter's driver). */
Node *find_driver(Lower *L, Node **exprs, int n)
{
    PtrVec refs = {0};
    for (int i = 0; i < n; i++)
        if (exprs[i])
            collect_refs(exprs[i], &refs);
    Node *driver = NULL;
    for (int i = 0; i < refs.n && !driver; i++) {
        Node *ref = refs.v[i];
        SpArr *Y = arr_of(L, ref->u.ref.sym);
        for (int d = 0; Y && d < Y->rank && !driver; d++) {
            if (Y->tdim[d] < 0 || d >= ref->u.ref.args.n || !Y->cknown[d])
                continue;
            Affine af = affine(L, ref->u.ref.args.v[d]);
            if (af.ok && af.v)
                driver = ref;
        }
    }
    free(refs.v);
    return driver;
}

static Node *lx_intrinsic(Lower *L, Node *e, SpCtx *ctx)
{
    if (e->u.ref.args.n == 1 && ((Node *)e->u.ref.args.v[0])->rank
        && (!strcmp(e->u.ref.id, "huge") || !strcmp(e->u.ref.id, "tiny")
            || !strcmp(e->u.ref.id, "epsilon"))) {
        /* of the array's type only: a constant of that type stands for it */
        const Node *a = e->u.ref.args.v[0];
        Node *k = arena_alloc(L->a, sizeof *k);
        k->loc = a->loc;
        k->type = a->type;
        k->kind = a->type.base == TY_INTEGER ? AST_INT_CONST : AST_REAL_CONST;
        k->u.konst.kind = a->type.kind;
        k->u.konst.text = a->type.base == TY_INTEGER ? (a->type.kind == 8 ? "0_8" : "0")
                          : a->type.kind == 8 ? "0.0d0" : "0.0";
        Node *r = arena_alloc(L->a, sizeof *r);
        *r = *e;
        r->u.ref.args = (PtrVec){0};
        vec_push(L->a, &r->u.ref.args, k);
        return r;
    }
    const char *id = e->u.ref.id;
    if (is_red_name(id) && !e->rank) {
        if (L->loop && depends_on_loop(L, e)) {
            /* inline: positions of the argument run in an inner loop */
            int cmi = !strcmp(id, "count") || !strcmp(id, "any") || !strcmp(id, "all");
            Node *a = cmi ? ast_arg(e, 0, "mask") : ast_arg(e, 0, strcmp(id, "dot_product") ? "array"
                                                                               : "vector_a");
            if (a->rank != 1) {
                lower_error(L, e->loc, "the SPMD lowering handles %s inside a FORALL only "
                            "of a rank-1 argument", id);
                return e;
            }
            return lx_red(L, inline_red(L, e), ctx);
        }
        return lower_reduction(L, e);
    }
    if ((!strcmp(id, "size") || !strcmp(id, "lbound") || !strcmp(id, "ubound"))) {
        Node *a = ast_arg(e, 0, "array");
        Node *dn = ast_arg(e, 1, "dim");
        long long k;
        if (!a || !a->rank)
            return e;
        if (!dn && !strcmp(id, "size")) {
            Node *s = inquiry(L, id, a, 0);
            for (int d = 1; d < a->rank; d++)
                s = mk_bin(L, OP_MUL, s, inquiry(L, id, a, d));
            return lx(L, s, ctx);
        }
        if (dn && cint(dn, &k) && k >= 1 && k <= a->rank)
            return lx(L, inquiry(L, id, a, (int)k - 1), ctx);
        lower_error(L, e->loc, "the SPMD lowering needs a constant DIM= for %s", id);
        return e;
    }
    if (!strcmp(id, "number_of_processors"))
        return mk_call(L, "hpfrt_nprocs", T_INT, 0, NULL);
    if (!strcmp(id, "allocated")) {
        /* a mapped ALLOCATABLE array: every processor allocates its local
           part at the ALLOCATE (empty where it owns nothing) and frees it
           at the DEALLOCATE, so the local part answers for the array */
        Node *a = ast_arg(e, 0, "array");
        Symbol *y = a && a->kind == AST_NAME ? a->u.name.sym : NULL;
        SpArr *r = y ? arr_of(L, y) : NULL;
        if (r) {
            /* (of its storage now: a REDISTRIBUTE's version has its own) */
            Node *nm = mk_name(L, y, a->loc);
            nm->u.name.id = r->name;
            Node *c = mk_call(L, "allocated", (Type){TY_LOGICAL, 4}, 1, &nm);
            c->u.ref.what = REF_INTRINSIC;
            return c;
        }
    }
    if (e->rank) {
        lower_error(L, e->loc, "the SPMD lowering does not handle '%s' here", id);
        return e;
    }
    return lx_call(L, e, ctx);
}

/* A reduction to a scalar, hoisted before the statement: a loop over the
 * positions of the argument, driven by its first mapped reference with an
 * affine distributed subscript, then the partial results combined. */
static Node *lower_reduction(Lower *L, Node *e)
{
    return lower_reduction_at(L, e, 0);
}

/* whole_loc: MAXLOC/MINLOC without DIM= of any rank, to the linear
 * position of the first extreme. */
static Node *lower_reduction_at(Lower *L, Node *e, int whole_loc)
{
    const char *id = e->u.ref.id;
    int cmi = !strcmp(id, "count") || !strcmp(id, "any") || !strcmp(id, "all");
    int dot = !strcmp(id, "dot_product");
    int loc = !strcmp(id, "maxloc") || !strcmp(id, "minloc");
    Node *a = cmi ? ast_arg(e, 0, "mask") : ast_arg(e, 0, dot ? "vector_a" : "array");
    if (dim_arg(e) && !cmi && !dot && !(loc && a->rank == 1)) {
        lower_error(L, e->loc, "the SPMD lowering handles %s with DIM= in array "
                    "expressions only", id);
        return e;
    }
    if (loc && !whole_loc && (a->rank != 1 || e->rank)) {
        lower_error(L, e->loc, "the SPMD lowering handles %s of an array of rank > 1 only "
                    "with DIM= in an array assignment", id);
        return e;
    }
    int r = a->rank;
    Symbol *vars[MAX_RANK];
    Node *pos[MAX_RANK], *lo[MAX_RANK], *hi[MAX_RANK], *st[MAX_RANK];
    for (int d = 0; d < r; d++) {
        vars[d] = new_index(L);
        pos[d] = index_name(L, vars[d]);
        lo[d] = mk_int(L, 0);
        hi[d] = mk_bin(L, OP_SUB, shape_n(L, a, d), mk_int(L, 1));
        st[d] = mk_int(L, 1);
    }
    Node *body, *mask;
    int op = red_body(L, e, a, pos, &body, &mask);
    /* the driver: a reference to a mapped array distributed by a position */
    for (int k = 0; k < r; k++)
        vec_push(NULL, &L->loopvars, vars[k]);
    Node *exprs[2] = {body, mask};
    Node *driver = find_driver(L, exprs, 2);
    L->loopvars.n -= r;
    SpLoop *lp = lower_loop(L, r, vars, lo, hi, st, mask, driver, body,
                            op, driver ? arr_of(L, driver->u.ref.sym) : NULL);
    SpStmt *s = new_stmt(L, SP_REDUCE);
    s->u.loop = lp;
    lp->red_type = loc ? a->type : e->type;
    lp->red_acc = new_temp(L, lp->red_type, 0);
    if (loc) {
        lp->red_loc = 1;
        lp->red_rank = r;
        lp->red_pos = new_temp(L, T_INT, 0);
    }
    add_stmt(L, L->pre, s);
    return mk_temp_name(L, loc ? lp->red_pos : lp->red_acc, loc ? T_INT : e->type);
}
