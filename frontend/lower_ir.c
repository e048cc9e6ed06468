/* lower_ir.c - the lowering's builders of IR nodes and statements:
 * integer constants and index arithmetic folded as it is built, calls,
 * temporaries, hpfc's own variables and loop indices, copies of
 * expressions with substitutions, statements. lower.c, lower_expr.c,
 * mapping.c, passing.c and dynamic.c build with them. */
#include <config.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lower_int.h"

static const Type T_INT = {TY_INTEGER, 4};
static const Type T_LOG = {TY_LOGICAL, 4};

void lower_error(Lower *L, Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(L->d, DIAG_ERROR, loc.line ? loc : L->loc, fmt, ap);
    va_end(ap);
    L->errors++;
}

/* ---- builders ---- */

Node *mk_int(Lower *L, long long v)
{
    Node *n = arena_alloc(L->a, sizeof *n);
    n->kind = AST_INT_CONST;
    n->type = T_INT;
    n->u.konst.ival = v;
    n->u.konst.text = arena_printf(L->a, "%lld", v);
    return n;
}

/* l op r as it stands, not folded: the unfolded form a folded constant
 * keeps in its `sym`. */
Node *mk_raw_bin(Lower *L, Op op, Node *l, Node *r)
{
    Node *n = arena_alloc(L->a, sizeof *n);
    n->kind = AST_BINARY;
    n->u.binary.op = op;
    n->u.binary.lhs = l;
    n->u.binary.rhs = r;
    n->type = T_INT;
    return n;
}

/* A folded constant v that stands for the expression e of PARAMETERs (e
 * kept as its `sym` when it is not a plain constant itself). */
Node *mk_int_of(Lower *L, long long v, Node *e)
{
    Node *k = mk_int(L, v);
    if (e && !(e->kind == AST_INT_CONST && !e->sym))
        k->sym = e->kind == AST_INT_CONST ? e->sym : e;
    return k;
}

/* A constant that is more than its value: a PARAMETER, or a folded
 * expression of PARAMETERs (its `sym`). */
int named(const Node *n)
{
    return n->kind != AST_INT_CONST || n->sym;
}

/* l op r for integer index arithmetic, folded where it can be. */
Node *mk_bin(Lower *L, Op op, Node *l, Node *r)
{
    long long a, b;
    int ka = cint(l, &a), kb = cint(r, &b);
    if (ka && kb && (op != OP_DIV || b)) {
        Node *k;
        switch (op) {
        case OP_ADD: k = mk_int(L, a + b); break;
        case OP_SUB: k = mk_int(L, a - b); break;
        case OP_MUL: k = mk_int(L, a * b); break;
        case OP_DIV: k = mk_int(L, a / b); break;
        default: k = NULL; break;
        }
        if (k && (named(l) || named(r)))
            k->sym = mk_raw_bin(L, op, l->sym ? l->sym : l, r->sym ? r->sym : r);
        if (k)
            return k;
    }
    if (op == OP_ADD && ka && a == 0)
        return r;
    if ((op == OP_ADD || op == OP_SUB) && kb && b == 0)
        return l;
    if (op == OP_MUL && ((ka && a == 0) || (kb && b == 0)))
        return mk_int(L, 0);
    if (op == OP_MUL && ka && a == 1)
        return r;
    if ((op == OP_MUL || op == OP_DIV) && kb && b == 1)
        return l;
    if (op == OP_ADD && kb && b < 0)
        return mk_bin(L, OP_SUB, l, mk_int(L, -b));
    if (op == OP_SUB && kb && b < 0)
        return mk_bin(L, OP_ADD, l, mk_int(L, -b));
    Node *n = arena_alloc(L->a, sizeof *n);
    n->kind = AST_BINARY;
    n->u.binary.op = op;
    n->u.binary.lhs = l;
    n->u.binary.rhs = r;
    n->type = l->type.base ? l->type : T_INT;
    if (op >= OP_EQ && op <= OP_NEQV)
        n->type = T_LOG;
    return n;
}

Node *mk_call(Lower *L, const char *name, Type t, int n, Node **args)
{
    Node *c = arena_alloc(L->a, sizeof *c);
    c->kind = AST_REF;
    c->u.ref.id = name;
    c->u.ref.what = REF_FUNCTION;
    c->type = t;
    for (int i = 0; i < n; i++)
        vec_push(L->a, &c->u.ref.args, args[i]);
    return c;
}

int new_temp(Lower *L, Type t, int rank)
{
    SpTemp *tp = arena_alloc(L->a, sizeof *tp);
    tp->id = L->u->temps.n + 1;
    tp->type = t;
    tp->rank = rank;
    vec_push(L->a, &L->u->temps, tp);
    return tp->id;
}

Node *mk_temp_name(Lower *L, int temp, Type t)
{
    Node *n = arena_alloc(L->a, sizeof *n);
    n->kind = AST_NAME;
    n->u.name.id = arena_printf(L->a, "%st%d", L->prog->prefix, temp);
    n->type = t;
    return n;
}

/* A reference to variable y as a whole, at loc. */
Node *mk_name(Lower *L, Symbol *y, Loc loc)
{
    Node *n = arena_alloc(L->a, sizeof *n);
    n->kind = AST_NAME;
    n->loc = loc;
    n->u.name.id = y->name;
    n->u.name.sym = y;
    n->type = y->type;
    n->rank = y->rank;
    return n;
}

/* An element of array y, of type t, its subscripts to be pushed. */
Node *mk_elem(Lower *L, Symbol *y, Loc loc, Type t)
{
    Node *r = arena_alloc(L->a, sizeof *r);
    r->kind = AST_REF;
    r->loc = loc;
    r->u.ref.id = y->name;
    r->u.ref.sym = y;
    r->u.ref.what = REF_ELEMENT;
    r->type = t;
    return r;
}

/* An integer variable of hpfc's named name in unit u's scope (shared by
 * u's clones), declared by u: made the first time. */
Symbol *hidden_var(Lower *L, SpUnit *u, const char *name, Node *decl)
{
    Symbol *v = scope_lookup_local(u->scope, name);
    if (!v) {
        v = scope_add(L->a, u->scope, name, SYM_VARIABLE, decl);
        v->type = (Type){TY_INTEGER, 4};
        v->typed = 1;
    }
    for (int k = 0; k < u->hidden.n; k++)
        if (u->hidden.v[k] == v)
            return v;
    vec_push(L->a, &u->hidden, v);
    return v;
}

/* A reference to an index variable (a FORALL index, a position). */
Node *index_name(Lower *L, Symbol *v)
{
    Node *n = arena_alloc(L->a, sizeof *n);
    n->kind = AST_NAME;
    n->u.name.id = v->name;
    n->u.name.sym = v;
    n->type = T_INT;
    return n;
}

Symbol *new_index(Lower *L)
{
    Symbol *y = arena_alloc(L->a, sizeof *y);
    y->name = arena_printf(L->a, "%si%d", L->prog->prefix, ++L->ntemps);
    y->kind = SYM_INDEX;
    y->type = T_INT;
    return y;
}

int same_expr(const Node *a, const Node *b)
{
    if (a == b)
        return 1;
    if (!a || !b)
        return 0;
    long long x, y;
    if (cint(a, &x) && cint(b, &y))
        return x == y;
    if (a->kind == AST_PAREN)
        return same_expr(a->u.unary.operand, b);
    if (b->kind == AST_PAREN)
        return same_expr(a, b->u.unary.operand);
    if (a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case AST_REAL_CONST: case AST_LOGICAL_CONST: case AST_STRING_CONST:
        return !strcmp(a->u.konst.text, b->u.konst.text);
    case AST_NAME:
        return a->u.name.sym ? a->u.name.sym == b->u.name.sym
                             : !strcmp(a->u.name.id, b->u.name.id);
    case AST_UNARY:
        return a->u.unary.op == b->u.unary.op && same_expr(a->u.unary.operand, b->u.unary.operand);
    case AST_BINARY:
        return a->u.binary.op == b->u.binary.op && same_expr(a->u.binary.lhs, b->u.binary.lhs)
               && same_expr(a->u.binary.rhs, b->u.binary.rhs);
    case AST_REF:
        if (strcmp(a->u.ref.id, b->u.ref.id) || a->u.ref.args.n != b->u.ref.args.n
            || (a->ir && a->u.ref.what == REF_INTRINSIC) || (b->ir && b->u.ref.what == REF_INTRINSIC))
            return 0;
        for (int i = 0; i < a->u.ref.args.n; i++)
            if (!same_expr(a->u.ref.args.v[i], b->u.ref.args.v[i]))
                return 0;
        return 1;
    default:
        return 0;
    }
}

static Node *copy_list_node(Lower *L, Node *n)
{
    Node *r = arena_alloc(L->a, sizeof *r);
    *r = *n;
    return r;
}

/* A deep copy of an expression, L->subst applied to names. */
Node *copy_plain(Lower *L, Node *n)
{
    if (!n)
        return NULL;
    switch (n->kind) {
    case AST_NAME:
        for (int i = 0; i < L->nsubst; i++)
            if (n->u.name.sym && L->subst[i].from == n->u.name.sym)
                return L->subst[i].to;
        return n;
    case AST_INT_CONST: case AST_REAL_CONST: case AST_LOGICAL_CONST: case AST_STRING_CONST:
    case AST_STAR:
        return n;
    case AST_COMPLEX_CONST: case AST_BINARY: {
        Node *r = copy_list_node(L, n);
        r->u.binary.lhs = copy_plain(L, n->u.binary.lhs);
        r->u.binary.rhs = copy_plain(L, n->u.binary.rhs);
        return r;
    }
    case AST_UNARY: case AST_PAREN: {
        Node *r = copy_list_node(L, n);
        r->u.unary.operand = copy_plain(L, n->u.unary.operand);
        return r;
    }
    case AST_TRIPLET: {
        Node *r = copy_list_node(L, n);
        r->u.triplet.lo = copy_plain(L, n->u.triplet.lo);
        r->u.triplet.hi = copy_plain(L, n->u.triplet.hi);
        r->u.triplet.stride = copy_plain(L, n->u.triplet.stride);
        return r;
    }
    case AST_KEYWORD_ARG: {
        Node *r = copy_list_node(L, n);
        r->u.kwarg.value = copy_plain(L, n->u.kwarg.value);
        return r;
    }
    case AST_REF: {
        Node *r = copy_list_node(L, n);
        r->u.ref.args = (PtrVec){0};
        for (int i = 0; i < n->u.ref.args.n; i++)
            vec_push(L->a, &r->u.ref.args, copy_plain(L, n->u.ref.args.v[i]));
        return r;
    }
    case AST_ARRAY_CTOR: {
        Node *r = copy_list_node(L, n);
        r->u.list.items = (PtrVec){0};
        for (int i = 0; i < n->u.list.items.n; i++)
            vec_push(L->a, &r->u.list.items, copy_plain(L, n->u.list.items.v[i]));
        return r;
    }
    default:
        return n;
    }
}

Node *subst_copy(Lower *L, Node *n, Symbol *from, Node *to)
{
    int saved = L->nsubst;
    L->subst[L->nsubst++] = (Subst){from, to};
    Node *r = copy_plain(L, n);
    L->nsubst = saved;
    return r;
}

static int collect_visit(Node *n, void *ctx)
{
    if (n->kind == AST_REF && n->u.ref.what == REF_ELEMENT && n->u.ref.sym)
        vec_push(NULL, ctx, n);
    ast_children(n, collect_visit, ctx);
    return 0;
}

void collect_refs(Node *e, PtrVec *out)
{
    collect_visit(e, out);
}

SpStmt *new_stmt(Lower *L, SpKind k)
{
    SpStmt *s = arena_alloc(L->a, sizeof *s);
    s->kind = k;
    s->line = L->line;
    s->loc = L->loc;
    return s;
}

void add_stmt(Lower *L, PtrVec *to, SpStmt *s)
{
    vec_push(L->a, to, s);
}
