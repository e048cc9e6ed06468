/* fi_array.c - whole arrays of unlowered code for the functional
 * interpreter (their shapes, their values by positions, array
 * constructors), and the fast path of fi_eval for integer and logical
 * scalars. */
#include <config.h>

#include <complex.h>
#include <dlfcn.h>
#include <ffi.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fi_expr_int.h"
#include "../runtime/hpfrt.h"

/* ---- whole arrays of unlowered code ---- */

static long trip(long long lo, long long hi, long long st)
{
    if (st > 0)
        return hi < lo ? 0 : (long)((hi - lo) / st + 1);
    if (st < 0)
        return lo < hi ? 0 : (long)((lo - hi) / -st + 1);
    return 0;
}

static long ctor_flat(Fi *fi, Ctx *c, const Node *e, Vec *out);


/* The rank of an array expression and its extents; -1 when they cannot be
 * known (reported). */
int fi_shape(Fi *fi, Ctx *c, const Node *e, long long *ext)
{
    if (!e || !e->rank)
        return 0;
    switch (e->kind) {
    case AST_NAME: {
        Store *s = e->u.name.sym ? fi_var(fi, c->fr, e->u.name.sym) : NULL;
        if (!s || !s->allocated) {
            fi_unallocated(fi, e, e->u.name.id, s);
            return -1;
        }
        for (int d = 0; d < s->rank; d++)
            ext[d] = s->ext[d];
        return s->rank;
    }
    case AST_PAREN: case AST_UNARY:
        return fi_shape(fi, c, e->u.unary.operand, ext);
    case AST_BINARY:
        return fi_shape(fi, c, e->u.binary.lhs->rank ? e->u.binary.lhs : e->u.binary.rhs, ext);
    case AST_KEYWORD_ARG:
        return fi_shape(fi, c, e->u.kwarg.value, ext);
    case AST_ARRAY_CTOR: {
        Ctx one;
        fx_ctx_point(c, 0, &one);
        Vec f;
        ext[0] = ctor_flat(fi, &one, e, &f);
        fv_free(&f);
        fi_ctx_free(&one);
        return 1;
    }
    case AST_REF:
        break;
    default:
        return -1;
    }
    int what = e->u.ref.what;
    if (what == REF_INTRINSIC && !strcmp(e->u.ref.id, "reshape")) {
        const Node *sh = ast_arg(e, 1, "shape");     /* (/ n, m ... /) (sema) */
        for (int d = 0; sh && sh->kind == AST_ARRAY_CTOR && d < sh->u.list.items.n; d++) {
            long long v;
            int k;
            Vec x = fx_scalar_int(fi, c, sh->u.list.items.v[d], &v, &k);
            fv_free(&x);
            if (!k)
                return -1;
            ext[d] = v;
        }
        return e->rank;
    }
    if (what == REF_INTRINSIC || what == REF_FUNCTION || what == REF_UNRESOLVED) {
        if (!fx_elemental_name(e->u.ref.id)) {
            fx_unsupported(fi, c, e, "this array-valued function outside a lowered array "
                        "statement");
            return -1;
        }
        for (int i = 0; i < e->u.ref.args.n; i++) {
            const Node *a = e->u.ref.args.v[i];
            if (a->kind == AST_KEYWORD_ARG)
                a = a->u.kwarg.value;
            if (a->rank)
                return fi_shape(fi, c, a, ext);
        }
        return -1;
    }
    Store *s = fi_ref_store(fi, c->fr, e);
    if (!s || !s->allocated) {
        fi_unallocated(fi, e, e->u.ref.id, s);
        return -1;
    }
    int j = 0;
    for (int d = 0; d < e->u.ref.args.n && d < s->rank; d++) {
        const Node *a = e->u.ref.args.v[d];
        if (a->kind == AST_TRIPLET) {
            long long lo = s->lo[d], hi = s->lo[d] + s->ext[d] - 1, st = 1;
            int k1 = 1, k2 = 1, k3 = 1;
            Vec x;
            if (a->u.triplet.lo) {
                x = fx_scalar_int(fi, c, a->u.triplet.lo, &lo, &k1);
                fv_free(&x);
            }
            if (a->u.triplet.hi) {
                x = fx_scalar_int(fi, c, a->u.triplet.hi, &hi, &k2);
                fv_free(&x);
            }
            if (a->u.triplet.stride) {
                x = fx_scalar_int(fi, c, a->u.triplet.stride, &st, &k3);
                fv_free(&x);
            }
            if (!k1 || !k2 || !k3)
                return -1;
            ext[j++] = trip(lo, hi, st);
        } else if (a->rank) {
            long long x[MAX_RANK];
            if (fi_shape(fi, c, a, x) != 1)
                return -1;
            ext[j++] = x[0];
        }
    }
    return j;
}

/* Every element of an array expression, in array element order (a scalar
 * expression: its one value). c must be a single point. */
Vec fi_array(Fi *fi, Ctx *c, const Node *e, int *rank, long long *ext)
{
    *rank = fi_shape(fi, c, e, ext);
    if (*rank < 0)
        return unknown_n(e->type, 1);
    if (e->kind == AST_REF && e->u.ref.what == REF_INTRINSIC && !strcmp(e->u.ref.id, "reshape")) {
        /* the SOURCE's elements in array element order, as many as the
           shape holds (an initial value: DATA of a rank-2 array) */
        int r;
        long long se[MAX_RANK];
        long n = 1;
        for (int d = 0; d < *rank; d++)
            n *= ext[d] > 0 ? (long)ext[d] : 0;
        Vec v = fi_array(fi, c, ast_arg(e, 0, "source"), &r, se);
        if (v.n > 1 && v.n < n)
            return fx_unsupported(fi, c, e, "a RESHAPE whose SOURCE is too small");
        return v;
    }
    if (!*rank)
        return fi_ev(fi, c, e);
    if (c->n != 1)
        return fx_unsupported(fi, c, e, "a whole-array expression inside a FORALL");
    long n = 1;
    for (int d = 0; d < *rank; d++)
        n *= ext[d] > 0 ? (long)ext[d] : 0;
    if (!n)
        return fv_new(e->type, 1);
    Ctx pc;
    fx_ctx_positions(fi, c, *rank, ext, &pc);
    Vec v = fi_ev(fi, &pc, e);
    fi_ctx_free(&pc);
    return fv_widen(&v, n);
}

static void flat_add(Vec *f, long *n, const Vec *v, long q)
{
    if (*n == f->n) {
        Vec g = fv_new(f->t, 2 * f->n);
        for (long p = 0; p < *n; p++)
            fx_fv_copy_elem(&g, p, f, p);
        fv_free(f);
        *f = g;
    }
    fx_fv_copy_elem(f, (*n)++, v, q);
}

static void ctor_item(Fi *fi, Ctx *c, const Node *it, Vec *f, long *n)
{
    if (fi->stopped)
        return;
    if (it->kind == AST_IMPLIED_DO) {
        long long lo, hi, st = 1;
        int k1, k2, k3 = 1;
        Vec x = fx_scalar_int(fi, c, it->u.impdo.lo, &lo, &k1);
        fv_free(&x);
        x = fx_scalar_int(fi, c, it->u.impdo.hi, &hi, &k2);
        fv_free(&x);
        if (it->u.impdo.step) {
            x = fx_scalar_int(fi, c, it->u.impdo.step, &st, &k3);
            fv_free(&x);
        }
        if (!k1 || !k2 || !k3 || !st) {
            fx_unsupported(fi, c, it, "an implied DO whose bounds are not known");
            return;
        }
        Ctx c2 = *c;
        long long *val = xmalloc(sizeof *val);
        if (!fi_ctx_bind(&c2, it->u.impdo.var->u.name.sym, val))
            return;
        long t = trip(lo, hi, st);
        for (long j = 0; j < t && fi_step(fi, 1); j++) {
            *val = lo + j * st;
            for (int i = 0; i < it->u.impdo.items.n; i++)
                ctor_item(fi, &c2, it->u.impdo.items.v[i], f, n);
        }
        free(val);
        return;
    }
    int rank;
    long long ext[MAX_RANK];
    Vec v = fi_array(fi, c, it, &rank, ext);
    fv_convert(&v, f->t);
    long cnt = 1;
    for (int d = 0; d < rank; d++)
        cnt *= ext[d] > 0 ? (long)ext[d] : 0;
    for (long q = 0; q < cnt; q++)
        flat_add(f, n, &v, q);
    fv_free(&v);
}

/* The values of an array constructor, in order; returns their number. */
static long ctor_flat(Fi *fi, Ctx *c, const Node *e, Vec *out)
{
    *out = fv_new(e->type, 16);
    long n = 0;
    for (int i = 0; i < e->u.list.items.n; i++)
        ctor_item(fi, c, e->u.list.items.v[i], out, &n);
    return n;
}

Vec fx_ev_ctor(Fi *fi, Ctx *c, const Node *e)
{
    if (!c->rank)
        return fx_unsupported(fi, c, e, "an array constructor where a scalar is needed");
    Ctx one;
    fx_ctx_point(c, 0, &one);
    one.rank = 0;
    Vec f;
    long n = ctor_flat(fi, &one, e, &f);
    for (int d = 0; d < c->rank; d++)
        free(one.pos[d]);
    fi_ctx_free(&one);
    Vec r = fv_new(f.t, c->n);
    for (long p = 0; p < c->n; p++) {
        long long q = c->pos[0][p];
        if (q < n)
            fx_fv_copy_elem(&r, p, &f, (long)q);
        else
            fv_set_unknown(&r, p);
    }
    fv_free(&f);
    return r;
}

/* ---- scalars: the fast path of fi_eval ---- */

/* The type fi_ev gives e when e is an INTEGER or LOGICAL scalar built of
 * constants, PARAMETERs, scalar variables already stored in the current
 * frame and the integer operators (no AND/OR: their operands are
 * evaluated selectively), which scalar_ev evaluates as fi_ev would; a
 * TY_NONE type otherwise. Has no effect. */
static Type scalar_type(Fi *fi, const Node *e)
{
    static const Type none = {TY_NONE, 0};
    switch (e->kind) {
    case AST_INT_CONST: {
        Type t = norm(e->type);
        return t.base == TY_INTEGER ? t : T_I4;
    }
    case AST_LOGICAL_CONST:
        return T_LOG;
    case AST_PAREN:
        return scalar_type(fi, e->u.unary.operand);
    case AST_NAME: {
        const Symbol *y = e->u.name.sym;
        if (!y)
            return none;
        if (y->kind == SYM_PARAMETER) {
            Type t = norm(y->type);
            return y->value.known && (t.base == TY_INTEGER || t.base == TY_LOGICAL) ? t : none;
        }
        if (y->kind != SYM_VARIABLE && y->kind != SYM_INDEX && y->kind != SYM_FUNCTION)
            return none;
        const Store *st = ptrmap_get(&fi->top->vars, y);
        if (!st || st->rank || (st->t.base != TY_INTEGER && st->t.base != TY_LOGICAL))
            return none;
        return norm(st->t);
    }
    case AST_UNARY: {
        Type a = scalar_type(fi, e->u.unary.operand);
        if (e->u.unary.op == OP_NEG)
            return a.base == TY_INTEGER ? a : none;
        if (e->u.unary.op == OP_NOT)
            return a.base == TY_INTEGER || a.base == TY_LOGICAL ? T_LOG : none;
        return none;
    }
    case AST_BINARY: {
        Op op = e->u.binary.op;
        if (op != OP_ADD && op != OP_SUB && op != OP_MUL && op != OP_DIV &&
            !(op >= OP_EQ && op <= OP_GE))
            return none;
        Type a = scalar_type(fi, e->u.binary.lhs), b = scalar_type(fi, e->u.binary.rhs);
        if (a.base != TY_INTEGER || b.base != TY_INTEGER)
            return none;
        return op >= OP_EQ && op <= OP_GE ? T_LOG : promote(a, b);
    }
    case AST_REF: {
        /* MIN, MAX and MOD of INTEGER scalars (numeric_op) */
        int n = e->u.ref.args.n, what = e->u.ref.what;
        const char *id = e->u.ref.id;
        int mm = !strcmp(id, "min") || !strcmp(id, "max");
        if (e->ir || !(mm ? n >= 1 : !strcmp(id, "mod") && n == 2) || n > MAX_FFI_ARGS)
            return none;
        if (what != REF_INTRINSIC &&
            !((what == REF_FUNCTION || what == REF_UNRESOLVED) &&
              !fi_find_unit(fi, fi->top->unit, id)))
            return none;
        Type t = none;
        for (int i = 0; i < n; i++) {
            const Node *a = e->u.ref.args.v[i];
            Type u = a->kind == AST_KEYWORD_ARG ? none : scalar_type(fi, a);
            if (u.base != TY_INTEGER)
                return none;
            t = i ? promote(t, u) : u;
        }
        return t;
    }
    default:
        return none;
    }
}

/* The value of e (scalar_type(e) accepted it) and its type in *t, as fi_ev
 * computes them, with the same steps charged and the same messages
 * ('known' cleared for an unknown value). */
static long long scalar_ev(Fi *fi, const Node *e, Type *t, int *known)
{
    if (fi->stopped) {
        *t = norm(e->type);
        *known = 0;
        return 0;
    }
    switch (e->kind) {
    case AST_INT_CONST: {
        Type c = norm(e->type);
        *t = c.base == TY_INTEGER ? c : T_I4;
        return wrap(*t, e->u.konst.ival);
    }
    case AST_LOGICAL_CONST:
        *t = T_LOG;
        return e->u.konst.ival != 0;
    case AST_PAREN:
        return scalar_ev(fi, e->u.unary.operand, t, known);
    case AST_NAME: {
        const Symbol *y = e->u.name.sym;
        if (y->kind == SYM_PARAMETER) {
            *t = norm(y->type);
            return y->value.type.base == TY_REAL ? to_int(y->value.r) : y->value.i;
        }
        const Store *st = ptrmap_get(&fi->top->vars, y);
        *t = norm(st->t);
        if (st->k && !st->k[0]) {
            *known = 0;
            return 0;
        }
        return st->i[0];
    }
    case AST_UNARY: {
        Type at;
        int k = 1;
        long long x = scalar_ev(fi, e->u.unary.operand, &at, &k);
        fi_step(fi, 1);
        *t = e->u.unary.op == OP_NOT ? T_LOG : at;
        *known &= k;
        if (!k)
            return 0;
        if (e->u.unary.op == OP_NOT)
            return !(x != 0);
        return wrap(at, (long long)(0ULL - (unsigned long long)x));
    }
    case AST_BINARY: {
        Type lt, rt;
        int ka = 1, kb = 1;
        long long x = scalar_ev(fi, e->u.binary.lhs, &lt, &ka);
        long long y = scalar_ev(fi, e->u.binary.rhs, &rt, &kb);
        fi_step(fi, 1);
        Op op = e->u.binary.op;
        Type pt = promote(lt, rt);
        *t = op >= OP_EQ && op <= OP_GE ? T_LOG : pt;
        if (!same_type(lt, pt))   /* fv_convert */
            x = wrap(pt, x);
        if (!same_type(rt, pt))
            y = wrap(pt, y);
        if (!ka || !kb) {
            *known = 0;
            return 0;
        }
        unsigned long long ux = (unsigned long long)x, uy = (unsigned long long)y;
        switch (op) {
        case OP_ADD: return wrap(pt, (long long)(ux + uy));
        case OP_SUB: return wrap(pt, (long long)(ux - uy));
        case OP_MUL: return wrap(pt, (long long)(ux * uy));
        case OP_DIV:
            if (!y) {
                fi_error_once(fi, e, fi_loc(fi, e), "integer division by zero");
                *known = 0;
                return 0;
            }
            return wrap(pt, y == -1 ? (long long)(0ULL - ux) : x / y);
        default:
            return fx_compare(op, x < y ? -1 : x > y);
        }
    }
    case AST_REF: {
        int n = e->u.ref.args.n, mx = e->u.ref.id[1] == 'a', mod = e->u.ref.id[1] == 'o';
        long long x[MAX_FFI_ARGS] = {0};
        Type at[MAX_FFI_ARGS];
        int k = 1;
        for (int i = 0; i < n; i++) {
            int ki = 1;
            x[i] = scalar_ev(fi, e->u.ref.args.v[i], &at[i], &ki);
            *t = i ? promote(*t, at[i]) : at[i];
            k &= ki;
        }
        for (int i = 0; i < n; i++)
            if (!same_type(at[i], *t))   /* fv_convert */
                x[i] = wrap(*t, x[i]);
        fi_step(fi, n);
        if (!k) {
            *known = 0;
            return 0;
        }
        if (mod) {
            if (!x[1]) {
                fi_error_once(fi, e, fi_loc(fi, e), "%s with a zero divisor", e->u.ref.id);
                *known = 0;
                return 0;
            }
            return wrap(*t, x[1] == -1 ? 0 : x[0] % x[1]);
        }
        long long r = x[0];
        for (int i = 1; i < n; i++)
            if (mx ? x[i] > r : x[i] < r)
                r = x[i];
        return r;
    }
    default:
        *known = 0;
        return 0;
    }
}

int fi_ev_scalar(Fi *fi, const Node *e, FiValue *v)
{
    if (fi->stopped || !fi->top)
        return 0;
    Type t = scalar_type(fi, e);
    if (t.base != TY_INTEGER && t.base != TY_LOGICAL)
        return 0;
    int known = 1;
    long long x = scalar_ev(fi, e, &t, &known);
    memset(v, 0, sizeof *v);
    v->type = t;
    v->known = known;
    v->i = known ? x : 0;
    return 1;
}
