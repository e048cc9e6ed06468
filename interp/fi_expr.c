/* fi_expr.c - expressions for the functional interpreter: one walk of the
 * tree per statement with a vector of values per node (one per point of the
 * iteration space), operators with Fortran's type promotion and kinds,
 * element gathers with bounds checks, inline reductions (SpRed) by
 * expanding the points, whole arrays of unlowered code by their positions,
 * and the intrinsics: language operations natively, C math functions
 * (sqrt, atan2, ..., pow) and EXTERNAL functions through libffi. */
#include <config.h>

#include <complex.h>
#include <dlfcn.h>
#include <ffi.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fi_int.h"
#include "../runtime/hpfrt.h"

static const Type T_I4 = {TY_INTEGER, 4};
static const Type T_I8 = {TY_INTEGER, 8};
static const Type T_R4 = {TY_REAL, 4};
static const Type T_R8 = {TY_REAL, 8};
static const Type T_LOG = {TY_LOGICAL, 4};
static const Type T_CHAR = {TY_CHARACTER, 1};

#define AT(v, p) ((v)->n == 1 ? 0 : (p))

/* ---- types ---- */

/* A usable type: sema's, with what lowering left unset made INTEGER. */
static Type norm(Type t)
{
    if (t.base == TY_NONE || t.base == TY_ERROR)
        return T_I4;
    if (t.base == TY_CHARACTER)
        return T_CHAR;
    if (t.kind != 8)
        t.kind = 4;
    return t;
}

static int same_type(Type a, Type b)
{
    return a.base == b.base && a.kind == b.kind;
}

/* INTEGER(4) arithmetic wraps at 32 bits, as gfortran's does. */
static long long wrap(Type t, long long v)
{
    return t.kind == 4 ? (long long)(int32_t)(uint32_t)(unsigned long long)v : v;
}

/* REAL(4) results are rounded to float after every operation. */
static double rnd(Type t, double v)
{
    return t.kind == 4 ? (double)(float)v : v;
}

static int numeric(Type t)
{
    return t.base == TY_INTEGER || t.base == TY_REAL || t.base == TY_COMPLEX;
}

/* The type of a numeric operation on a and b (F95 7.1.4.2): the higher of
 * INTEGER < REAL < COMPLEX, the larger kind among the non-integer ones. */
static Type promote(Type a, Type b)
{
    if (!numeric(a) || !numeric(b))
        return a;
    Type r;
    r.base = a.base > b.base ? a.base : b.base;
    if (r.base == TY_INTEGER) {
        r.kind = a.kind > b.kind ? a.kind : b.kind;
        return r;
    }
    int ka = a.base == TY_INTEGER ? 0 : a.kind, kb = b.base == TY_INTEGER ? 0 : b.kind;
    r.kind = ka > kb ? ka : kb;
    return r;
}

/* re + i im. Not CMPLX: not every C library has it. A complex number is
 * laid out as an array of its two parts (C11 6.2.5). */
static double complex mkc(double re, double im)
{
    double complex z;
    double *p = (double *)&z;
    p[0] = re;
    p[1] = im;
    return z;
}

static float complex mkcf(float re, float im)
{
    float complex z;
    float *p = (float *)&z;
    p[0] = re;
    p[1] = im;
    return z;
}

static long long to_int(double x)
{
    if (x != x)
        return 0;
    if (x >= 9.2233720368547758e18)
        return LLONG_MAX;
    if (x <= -9.2233720368547758e18)
        return LLONG_MIN;
    return (long long)x;
}

/* ---- vectors ---- */

Vec fv_new(Type t, long n)
{
    Vec v = {0};
    v.t = norm(t);
    v.n = n < 1 ? 1 : n;
    switch (v.t.base) {
    case TY_REAL:
        v.r = xcalloc((size_t)v.n, sizeof *v.r);
        break;
    case TY_COMPLEX:
        v.r = xcalloc((size_t)v.n, sizeof *v.r);
        v.im = xcalloc((size_t)v.n, sizeof *v.im);
        break;
    case TY_CHARACTER:
        v.s = xcalloc((size_t)v.n, sizeof *v.s);
        break;
    default:
        v.i = xcalloc((size_t)v.n, sizeof *v.i);
        break;
    }
    return v;
}

/* fv_new without clearing: for a caller that writes every value. */
static Vec fv_alloc(Type t, long n)
{
    Type u = norm(t);
    if (u.base != TY_INTEGER && u.base != TY_LOGICAL && u.base != TY_REAL)
        return fv_new(t, n);
    Vec v = {0};
    v.t = u;
    v.n = n < 1 ? 1 : n;
    if (u.base == TY_REAL)
        v.r = xmalloc((size_t)v.n * sizeof *v.r);
    else
        v.i = xmalloc((size_t)v.n * sizeof *v.i);
    return v;
}

Vec fv_unknown(Type t)
{
    Vec v = fv_new(t, 1);
    fv_set_unknown(&v, 0);
    return v;
}

void fv_free(Vec *v)
{
    if (v->s)
        for (long p = 0; p < v->n; p++)
            free(v->s[p]);
    free(v->i);
    free(v->r);
    free(v->im);
    free(v->s);
    free(v->k);
    memset(v, 0, sizeof *v);
}

int fv_known(const Vec *v, long p)
{
    return !v->k || v->k[AT(v, p)];
}

void fv_set_unknown(Vec *v, long p)
{
    if (!v->k) {
        v->k = xmalloc((size_t)v->n);
        memset(v->k, 1, (size_t)v->n);
    }
    v->k[p] = 0;
}

static int fv_all_known(const Vec *v)
{
    if (!v->k)
        return 1;
    for (long p = 0; p < v->n; p++)
        if (!v->k[p])
            return 0;
    return 1;
}

/* A vector of n values from v, broadcasting a single one. */
Vec fv_widen(Vec *v, long n)
{
    if (v->n == n || v->n != 1)
        return *v;
    Vec w = fv_new(v->t, n);
    for (long p = 0; p < n; p++) {
        if (w.i)
            w.i[p] = v->i[0];
        if (w.r)
            w.r[p] = v->r[0];
        if (w.im)
            w.im[p] = v->im[0];
        if (w.s)
            w.s[p] = v->s[0] ? xstrdup(v->s[0]) : NULL;
        if (!fv_known(v, 0))
            fv_set_unknown(&w, p);
    }
    fv_free(v);
    return w;
}

static Vec fv_int(long long x)
{
    Vec v = fv_new(T_I8, 1);
    v.i[0] = x;
    return v;
}

/* v converted to type to, as an assignment would (F95 7.5.1.5). */
void fv_convert(Vec *v, Type to)
{
    to = norm(to);
    if (same_type(v->t, to))
        return;
    TypeBase fb = v->t.base;
    int fint = fb == TY_INTEGER || fb == TY_LOGICAL;
    if ((fint && (to.base == TY_INTEGER || to.base == TY_LOGICAL)) ||
        (fb == TY_REAL && to.base == TY_REAL)) {
        /* the same storage: converted in place (an unknown element's value
           is 0, as in a fresh vector) */
        if (!v->k) {
            if (to.base == TY_LOGICAL)
                for (long p = 0; p < v->n; p++)
                    v->i[p] = v->i[p] != 0;
            else if (to.base == TY_INTEGER && to.kind == 4)
                for (long p = 0; p < v->n; p++)
                    v->i[p] = wrap(to, v->i[p]);
            else if (to.base == TY_REAL && to.kind == 4)
                for (long p = 0; p < v->n; p++)
                    v->r[p] = rnd(to, v->r[p]);
            v->t = to;
            return;
        }
        for (long p = 0; p < v->n; p++) {
            if (v->k && !v->k[p]) {
                if (fint)
                    v->i[p] = 0;
                else
                    v->r[p] = 0;
            } else if (to.base == TY_LOGICAL) {
                v->i[p] = v->i[p] != 0;
            } else if (to.base == TY_INTEGER) {
                if (to.kind == 4)
                    v->i[p] = wrap(to, v->i[p]);
            } else {
                v->r[p] = rnd(to, v->r[p]);
            }
        }
        v->t = to;
        return;
    }
    if (!v->k && fint && to.base == TY_REAL) {
        /* in the same storage (8 bytes a value): element p is read before
           it is written */
        double *r = (double *)(void *)v->i;
        for (long p = 0; p < v->n; p++)
            r[p] = rnd(to, (double)v->i[p]);
        v->i = NULL;
        v->r = r;
        v->t = to;
        return;
    }
    Vec r = fv_new(to, v->n);
    for (long p = 0; p < v->n; p++) {
        if (!fv_known(v, p)) {
            fv_set_unknown(&r, p);
            continue;
        }
        TypeBase from = v->t.base;
        if (to.base == TY_CHARACTER || from == TY_CHARACTER) {
            if (to.base == from && v->s[p])
                r.s[p] = xstrdup(v->s[p]);
            else
                fv_set_unknown(&r, p);
            continue;
        }
        switch (to.base) {
        case TY_INTEGER: case TY_LOGICAL: {
            long long x = from == TY_INTEGER || from == TY_LOGICAL ? v->i[p] : to_int(v->r[p]);
            r.i[p] = to.base == TY_INTEGER ? wrap(to, x) : x != 0;
            break;
        }
        case TY_REAL:
            r.r[p] = rnd(to, from == TY_INTEGER || from == TY_LOGICAL ? (double)v->i[p] : v->r[p]);
            break;
        default:
            r.r[p] = rnd(to, from == TY_INTEGER || from == TY_LOGICAL ? (double)v->i[p] : v->r[p]);
            r.im[p] = from == TY_COMPLEX ? rnd(to, v->im[p]) : 0;
            break;
        }
    }
    fv_free(v);
    *v = r;
}

/* ---- contexts ---- */

void fi_ctx_init(Ctx *c, Frame *fr)
{
    /* bsym and bval are read below nb only, pos below rank */
    c->fr = fr;
    c->n = 1;
    c->nb = c->rank = 0;
    c->base = NULL;
    c->lent = 0;
}

void fi_ctx_free(Ctx *c)
{
    for (int b = 0; b < c->nb; b++)
        if (!(c->lent >> b & 1))
            free(c->bval[b]);
    c->lent = 0;
    for (int d = 0; d < c->rank; d++)
        free(c->pos[d]);
    free(c->base);
    c->nb = c->rank = 0;
    c->base = NULL;
}

long long *fi_ctx_lookup(const Ctx *c, const Symbol *y)
{
    for (int b = c->nb - 1; b >= 0; b--)
        if (c->bsym[b] == y)
            return c->bval[b];
    return NULL;
}

/* Binds y to vals (c->n values, now the context's). 0 when full. */
int fi_ctx_bind(Ctx *c, const Symbol *y, long long *vals)
{
    if (c->nb == MAX_BIND) {
        free(vals);
        return 0;
    }
    c->bsym[c->nb] = y;
    c->bval[c->nb++] = vals;
    return 1;
}

static long long *pick_ll(const long long *a, const long *sel, long n)
{
    long long *r = xmalloc((size_t)(n ? n : 1) * sizeof *r);
    if (!sel)
        memcpy(r, a, (size_t)n * sizeof *r);
    for (long q = 0; sel && q < n; q++)
        r[q] = a[sel[q]];
    return r;
}

/* The points sel[0..n-1] of c (sel NULL: the first n, in order). */
void fi_ctx_select(const Ctx *c, const long *sel, long n, Ctx *out)
{
    fi_ctx_init(out, c->fr);
    out->n = n;
    out->nb = c->nb;
    for (int b = 0; b < c->nb; b++) {
        out->bsym[b] = c->bsym[b];
        out->bval[b] = pick_ll(c->bval[b], sel, n);
    }
    out->rank = c->rank;
    for (int d = 0; d < c->rank; d++)
        out->pos[d] = pick_ll(c->pos[d], sel, n);
    if (c->base) {
        out->base = xmalloc((size_t)(n ? n : 1) * sizeof *out->base);
        for (long q = 0; q < n; q++)
            out->base[q] = c->base[sel ? sel[q] : q];
    }
}

static void ctx_point(const Ctx *c, long p, Ctx *out)
{
    fi_ctx_select(c, &p, 1, out);
}

/* The points of c times the trips of an inline reduction: trips[p] values
 * 0..trips-1 of var after each point p; parent[q] is q's point in c. */
int fi_ctx_expand(const Ctx *c, const long long *trips, long total, const Symbol *var, Ctx *out,
               long **parent)
{
    long *par = xmalloc((size_t)(total ? total : 1) * sizeof *par);
    long long *j = xmalloc((size_t)(total ? total : 1) * sizeof *j);
    long q = 0;
    for (long p = 0; p < c->n; p++)
        for (long long t = 0; t < trips[p]; t++) {
            par[q] = p;
            j[q++] = t;
        }
    fi_ctx_select(c, par, total, out);
    *parent = par;
    return fi_ctx_bind(out, var, j);
}

/* A context over the positions of an array of shape ext (column-major),
 * with c's bindings (c must be one point). */
static int ctx_positions(Fi *fi, const Ctx *c, int rank, const long long *ext, Ctx *out)
{
    long n = 1;
    for (int d = 0; d < rank; d++)
        n *= ext[d] > 0 ? ext[d] : 0;
    long *zero = xcalloc((size_t)(n ? n : 1), sizeof *zero);
    fi_ctx_select(c, zero, n, out);
    free(zero);
    for (int d = 0; d < out->rank; d++)
        free(out->pos[d]);
    out->rank = rank;
    long stride = 1;
    for (int d = 0; d < rank; d++) {
        out->pos[d] = xmalloc((size_t)(n ? n : 1) * sizeof *out->pos[d]);
        for (long p = 0; p < n; p++)
            out->pos[d][p] = (p / stride) % ext[d];
        stride *= ext[d] > 0 ? ext[d] : 1;
    }
    return fi_step(fi, n);
}

/* ---- small helpers ---- */

static Vec unknown_n(Type t, long n)
{
    Vec v = fv_new(t, n);
    for (long p = 0; p < v.n; p++)
        fv_set_unknown(&v, p);
    return v;
}

static Vec unsupported(Fi *fi, Ctx *c, const Node *e, const char *what)
{
    fi_error_once(fi, e, fi_loc(fi, e), "the functional interpreter cannot evaluate %s", what);
    return unknown_n(e->type, 1);
}

static Vec scalar_int(Fi *fi, Ctx *c, const Node *e, long long *v, int *known)
{
    Vec x = fi_ev(fi, c, e);
    fv_convert(&x, T_I8);
    *known = x.n == 1 && fv_known(&x, 0);
    *v = x.i[0];
    return x;
}

/* ---- stores: elements in and out ---- */

void fi_get(const Store *s, long off, Vec *v, long p)
{
    if (s->k && !s->k[off]) {
        fv_set_unknown(v, p);
        return;
    }
    switch (s->t.base) {
    case TY_REAL:
        v->r[p] = s->r[off];
        break;
    case TY_COMPLEX:
        v->r[p] = s->r[off];
        v->im[p] = s->im[off];
        break;
    case TY_CHARACTER:
        free(v->s[p]);
        v->s[p] = s->s[off] ? xstrdup(s->s[off]) : NULL;
        if (!s->s[off])
            fv_set_unknown(v, p);
        break;
    default:
        v->i[p] = s->i[off];
        break;
    }
}

/* The value of a FORALL index bound in c as ev_name gives it, but lent:
 * the binding's own vector (not to be changed or freed). 0 when e is not
 * such an index. */
static int index_view(Fi *fi, Ctx *c, const Node *e, Vec *v)
{
    if (e->kind != AST_NAME || !e->u.name.sym || fi->stopped || c->n == 0)
        return 0;
    long long *b = fi_ctx_lookup(c, e->u.name.sym);
    if (!b)
        return 0;
    Type t = norm(e->u.name.sym->type);
    memset(v, 0, sizeof *v);
    v->t = norm(t.base == TY_INTEGER ? t : T_I4);
    v->n = c->n;
    v->i = b;
    return 1;
}

static void subs_free(Vec *subs, int rank, unsigned lent)
{
    for (int d = 0; d < rank; d++)
        if (!(lent >> d & 1))
            fv_free(&subs[d]);
}

/* A lent vector made the caller's own. */
static void unlend(Vec *v, int *lent)
{
    if (!*lent)
        return;
    Vec w = fv_alloc(v->t, v->n);
    memcpy(w.i, v->i, (size_t)v->n * sizeof *w.i);
    *v = w;
    *lent = 0;
}

/* How ref_subs gave the subscripts: bit d of lent, subs[d] is the vector
 * of a FORALL index of the context (not to be freed); of aff, the
 * subscript is that index plus add[d] (modulo 2^64, then wrapped to 32 bits
 * when bit d of w4 is set), as ev_binary computes index + constant. */
typedef struct {
    unsigned lent, aff, w4;
    unsigned long long add[MAX_RANK];
} SubsInfo;

/* A subscript index + k, k + index or index - k (k an integer constant):
 * the index's vector lent in *v, the constant in *add; the steps of the
 * operation charged. 0 when a is not one. */
static int affine_view(Fi *fi, Ctx *c, const Node *a, Vec *v, unsigned long long *add, int *w4)
{
    if (a->kind != AST_BINARY || (a->u.binary.op != OP_ADD && a->u.binary.op != OP_SUB))
        return 0;
    const Node *x = a->u.binary.lhs, *k = a->u.binary.rhs;
    if (a->u.binary.op == OP_ADD && x->kind == AST_INT_CONST) {
        x = a->u.binary.rhs;
        k = a->u.binary.lhs;
    }
    if (k->kind != AST_INT_CONST || !index_view(fi, c, x, v))
        return 0;
    Type ct = norm(k->type);
    ct = ct.base == TY_INTEGER ? ct : T_I4;
    long long cv = wrap(ct, k->u.konst.ival);
    Type pt = promote(v->t, ct);
    *add = a->u.binary.op == OP_SUB ? 0ULL - (unsigned long long)cv : (unsigned long long)cv;
    *w4 = pt.kind == 4;
    fi_step(fi, c->n);
    return 1;
}

/* The value of subscript d at point p under si. */
static inline long long sub_at(const Vec *subs, const SubsInfo *si, int d, long p)
{
    long long v = subs[d].i[subs[d].n == 1 ? 0 : p];
    if (si->aff >> d & 1) {
        v = (long long)((unsigned long long)v + si->add[d]);
        if (si->w4 >> d & 1)
            v = (long long)(int32_t)(uint32_t)(unsigned long long)v;
    }
    return v;
}

/* The affine subscripts of si as vectors of their own. */
static void subs_own(Vec *subs, int rank, SubsInfo *si)
{
    for (int d = 0; d < rank; d++)
        if (si->aff >> d & 1) {
            Vec w = fv_alloc(T_I8, subs[d].n);
            for (long p = 0; p < w.n; p++)
                w.i[p] = sub_at(subs, si, d, p);
            subs[d] = w;
            si->aff &= ~(1u << d);
            si->lent &= ~(1u << d);
        }
}

/* The subscript vectors of an element reference, or of a section or whole
 * array evaluated at c's positions; returns the rank of the store, 0 when
 * something is wrong (reported). A subscript that is a FORALL index of c,
 * or one plus a constant, is lent (SubsInfo): the caller frees the others
 * only (subs_free). */
static int ref_subs(Fi *fi, Ctx *c, const Node *e, Store *s, Vec *subs, SubsInfo *si)
{
    memset(si, 0, sizeof *si);
    unsigned *lent = &si->lent;
    if (e->kind == AST_NAME) {
        if (c->rank < s->rank)
            return 0;
        for (int d = 0; d < s->rank; d++) {
            subs[d] = fv_new(T_I8, c->n);
            for (long p = 0; p < c->n; p++)
                subs[d].i[p] = s->lo[d] + c->pos[d][p];
        }
        return s->rank;
    }
    const SpRef *r = e->ir && e->u.ref.what == REF_ELEMENT ? e->ir : NULL;
    int n = e->u.ref.args.n;
    if (n != s->rank) {
        fi_error_once(fi, e, fi_loc(fi, e), "'%s' has rank %d, referenced with %d subscripts",
                      s->name, s->rank, n);
        return 0;
    }
    int j = 0;
    for (int d = 0; d < n; d++) {
        const Node *a = r && r->sub[d] ? r->sub[d] : e->u.ref.args.v[d];
        if (a->kind == AST_TRIPLET || a->rank) {
            if (j >= c->rank) {
                subs_free(subs, d, *lent);
                fi_error_once(fi, e, fi_loc(fi, e), "the section of '%s' is used where a "
                              "scalar is needed", s->name);
                return 0;
            }
            if (a->kind == AST_TRIPLET) {
                long long lo = s->lo[d], st = 1;
                int kl = 1, ks = 1;
                if (a->u.triplet.lo) {
                    Vec x = scalar_int(fi, c, a->u.triplet.lo, &lo, &kl);
                    fv_free(&x);
                }
                if (a->u.triplet.stride) {
                    Vec x = scalar_int(fi, c, a->u.triplet.stride, &st, &ks);
                    fv_free(&x);
                }
                subs[d] = fv_new(T_I8, c->n);
                for (long p = 0; p < c->n; p++) {
                    subs[d].i[p] = lo + c->pos[j][p] * st;
                    if (!kl || !ks)
                        fv_set_unknown(&subs[d], p);
                }
            } else {
                /* a vector subscript: its own position is this dimension's */
                Ctx v = *c;
                v.rank = 1;
                v.pos[0] = c->pos[j];
                subs[d] = fi_ev(fi, &v, a);
                fv_convert(&subs[d], T_I8);
            }
            j++;
        } else if (index_view(fi, c, a, &subs[d])) {
            /* as fi_ev and the conversion to INTEGER(8), which changes no
               value of an INTEGER index */
            subs[d].t = T_I8;
            *lent |= 1u << d;
        } else if (d < MAX_RANK) {
            int w4;
            if (affine_view(fi, c, a, &subs[d], &si->add[d], &w4)) {
                subs[d].t = T_I8;
                *lent |= 1u << d;
                si->aff |= 1u << d;
                si->w4 |= (unsigned)w4 << d;
            } else {
                subs[d] = fi_ev(fi, c, a);
                fv_convert(&subs[d], T_I8);
            }
        } else {
            subs[d] = fi_ev(fi, c, a);
            fv_convert(&subs[d], T_I8);
        }
    }
    return n;
}


/* The offsets of subs_offsets when every subscript is an index of the
 * space fi holds, at every point of it in order (its own index vector,
 * lent, plus a constant), or a single known value: from the structure of
 * the space, the bounds checked once per dimension. Returns 0 (o
 * untouched) when they are not, or when a subscript may leave its bounds
 * or wrap (the general loops decide then). */
static int space_offsets(Fi *fi, const Store *s, const Vec *subs, int rank, const SubsInfo *si,
                         long n, long *o)
{
    const Space *sp = &fi->space;
    if (!rank || n != sp->n || n < 2 || sp->nidx > MAX_RANK + MAX_RANK)
        return 0;
    long long base = 0, coef[MAX_RANK + MAX_RANK] = {0};
    long stride = 1;
    for (int d = 0; d < rank; d++) {
        long long lo = s->lo[d], ext = s->ext[d], add = 0;
        int k = -1;
        if (si->lent >> d & 1)
            for (int j = 0; j < sp->nidx && k < 0; j++)
                if (subs[d].i == sp->idx[j])
                    k = j;
        if (si->aff >> d & 1)
            add = (long long)si->add[d];
        if (k >= 0) {
            /* the values lo[k] + t st[k] + add, t = 0 .. tr[k] - 1 */
            long long a = sp->lo[k], b = sp->lo[k] + (sp->tr[k] - 1) * sp->st[k];
            long long mn = a < b ? a : b, mx = a < b ? b : a;
            if (mn < -(1LL << 40) || mx > (1LL << 40) || add < -(1LL << 40) || add > (1LL << 40))
                return 0;
            mn += add;
            mx += add;
            if ((si->w4 >> d & 1) && (mn < INT32_MIN || mx > INT32_MAX))
                return 0;
            if (mn < lo || mx >= lo + ext)
                return 0;
            base += (a + add - lo) * stride;
            coef[k] += sp->st[k] * stride;
        } else if (subs[d].n == 1 && !subs[d].k && !(si->aff >> d & 1)) {
            long long v = subs[d].i[0];
            if (v < lo || v >= lo + ext)
                return 0;
            base += (v - lo) * stride;
        } else {
            return 0;
        }
        stride *= (long)ext;
    }
    if (stride > s->n)
        return 0;
    /* o[p] = base + sum of coef[k] t_k: the first index's run, then each
       outer index repeats what is built, shifted */
    long run = 1;
    o[0] = (long)base;
    for (int k = 0; k < sp->nidx; k++) {
        long long tr = sp->tr[k];
        if (run == 1) {
            for (long long t = 1; t < tr; t++)
                o[t] = o[0] + (long)(coef[k] * t);
        } else {
            for (long long t = 1; t < tr; t++) {
                long shift = (long)(coef[k] * t), *to = o + t * run;
                for (long i = 0; i < run; i++)
                    to[i] = o[i] + shift;
            }
        }
        run *= (long)tr;
    }
    return run == n;
}

/* Offsets into s of the elements the subscript vectors name (bounds
 * checked); off[p] = -1 where a subscript is unknown or out of range. */
static long subs_offsets(Fi *fi, const Node *e, Store *s, Vec *subs, int rank, SubsInfo *si,
                         long **off)
{
    long n = 1;
    for (int d = 0; d < rank; d++)
        if (subs[d].n > n)
            n = subs[d].n;
    long *o = xmalloc((size_t)n * sizeof *o);
    *off = o;
    if (space_offsets(fi, s, subs, rank, si, n, o))
        return n;
    int known = 1;
    for (int d = 0; d < rank; d++)
        known &= fv_all_known(&subs[d]);
    if (known) {
        /* every subscript known: the offsets dimension by dimension; the
           loop below answers (and reports) when one is out of bounds */
        unsigned long long bad = 0;
        long stride = 1;
        for (int d = 0; d < rank; d++) {
            const long long *x = subs[d].i;
            long long lo = s->lo[d], ext = s->ext[d];
            unsigned long long add = si->aff >> d & 1 ? si->add[d] : 0;
            int w4 = si->aff >> d & 1 && si->w4 >> d & 1;
            /* v - lo for each point: the subscript's value less the bound */
#define SUB_LOOP(VAL)                                                                   \
    do {                                                                                \
        if (d == 0)                                                                     \
            for (long p = 0; p < n; p++) {                                              \
                long long v = (VAL) - lo;                                               \
                bad |= (unsigned long long)v >= (unsigned long long)ext;                \
                o[p] = (long)v;                                                         \
            }                                                                           \
        else                                                                            \
            for (long p = 0; p < n; p++) {                                              \
                long long v = (VAL) - lo;                                               \
                bad |= (unsigned long long)v >= (unsigned long long)ext;                \
                o[p] += (long)v * stride;                                               \
            }                                                                           \
    } while (0)
            if (subs[d].n == 1) {
                long long v0 = (long long)((unsigned long long)x[0] + add);
                if (w4)
                    v0 = (long long)(int32_t)(uint32_t)(unsigned long long)v0;
                SUB_LOOP(v0);
            } else if (w4) {
                SUB_LOOP((long long)(int32_t)(uint32_t)((unsigned long long)x[p] + add));
            } else {
                SUB_LOOP((long long)((unsigned long long)x[p] + add));
            }
#undef SUB_LOOP
            stride *= (long)ext;
        }
        if (!rank)
            memset(o, 0, (size_t)n * sizeof *o);
        /* every subscript in its bounds: an offset is below the product of
           the extents (stride), past s->n only in a view of a shorter
           actual argument */
        for (long p = 0; stride > s->n && p < n && !bad; p++)
            bad |= o[p] >= s->n;
        if (!bad)
            return n;
    }
    subs_own(subs, rank, si);
    for (long p = 0; p < n; p++) {
        long x = 0, stride = 1;
        int ok = 1;
        for (int d = 0; d < rank && ok; d++) {
            if (!fv_known(&subs[d], p)) {
                ok = 0;
                break;
            }
            long long v = subs[d].i[AT(&subs[d], p)];
            if (v < s->lo[d] || v >= s->lo[d] + s->ext[d]) {
                fi_error_once(fi, e, fi_loc(fi, e), "subscript %d of '%s' is %lld, outside its "
                              "bounds %lld:%lld", d + 1, s->name, v, s->lo[d],
                              s->lo[d] + s->ext[d] - 1);
                ok = 0;
                break;
            }
            x += (long)(v - s->lo[d]) * stride;
            stride *= (long)s->ext[d];
        }
        if (ok && x >= s->n) {
            fi_error_once(fi, e, fi_loc(fi, e), "'%s' is referenced past the end of the actual "
                          "argument", s->name);
            ok = 0;
        }
        o[p] = ok ? x : -1;
    }
    *off = o;
    return n;
}

/* The offsets of the elements of a variable reference in s, in element
 * order: a whole array, an element, a section. */
int fi_offsets(Fi *fi, Ctx *c, const Node *ref, Store *s, long **off, long *n)
{
    if (!s->allocated) {
        fi_unallocated(fi, ref, s->name, s);
        return 0;
    }
    if (ref->kind == AST_NAME || !ref->rank) {
        if (ref->kind == AST_NAME || !s->rank) {
            *n = s->n;
            *off = xmalloc((size_t)s->n * sizeof **off);
            for (long p = 0; p < s->n; p++)
                (*off)[p] = p;
            return 1;
        }
        Vec subs[MAX_RANK];
        SubsInfo si;
        int rank = ref_subs(fi, c, ref, s, subs, &si);
        if (!rank)
            return 0;
        *n = subs_offsets(fi, ref, s, subs, rank, &si, off);
        subs_free(subs, rank, si.lent);
        return 1;
    }
    long long ext[MAX_RANK];
    int r = fi_shape(fi, c, ref, ext);
    if (r <= 0)
        return 0;
    Ctx pc;
    ctx_positions(fi, c, r, ext, &pc);
    Vec subs[MAX_RANK];
    SubsInfo si;
    int rank = ref_subs(fi, &pc, ref, s, subs, &si);
    int ok = rank > 0;
    if (ok) {
        *n = subs_offsets(fi, ref, s, subs, rank, &si, off);
        if (*n < pc.n) {
            /* every subscript was a scalar: one element for all positions */
            long *w = xmalloc((size_t)pc.n * sizeof *w);
            for (long p = 0; p < pc.n; p++)
                w[p] = (*off)[0];
            free(*off);
            *off = w;
            *n = pc.n;
        }
        subs_free(subs, rank, si.lent);
    }
    fi_ctx_free(&pc);
    return ok;
}

/* ---- names and references ---- */

static Vec store_scalar(const Store *s)
{
    Vec v = fv_new(s->t, 1);
    fi_get(s, 0, &v, 0);
    return v;
}

static Vec gather(Fi *fi, Ctx *c, const Node *e, Store *s)
{
    if (!s->allocated) {
        fi_unallocated(fi, e, s->name, s);
        return unknown_n(s->t, 1);
    }
    Vec subs[MAX_RANK];
    SubsInfo si;
    int rank = ref_subs(fi, c, e, s, subs, &si);
    if (!rank)
        return unknown_n(s->t, 1);
    long *off;
    long n = subs_offsets(fi, e, s, subs, rank, &si, &off);
    subs_free(subs, rank, si.lent);
    fi_step(fi, n);
    int num = s->t.base != TY_COMPLEX && s->t.base != TY_CHARACTER;
    if (num) {
        /* fi_get of each element, the values written over the offsets (8
           bytes each: element p's offset is read before its value is
           written) */
        _Static_assert(sizeof(long) == sizeof(double) && sizeof(long) == sizeof(long long),
                       "offsets and values share their storage");
        Vec v = {0};
        v.t = norm(s->t);
        v.n = n;
        const unsigned char *k = s->k;
        int real = s->t.base == TY_REAL;
        if (real)
            v.r = (double *)(void *)off;
        else
            v.i = (long long *)(void *)off;
        for (long p = 0; p < n; p++) {
            long o = off[p];
            if (o < 0 || (k && !k[o])) {
                if (real)
                    v.r[p] = 0;
                else
                    v.i[p] = 0;
                fv_set_unknown(&v, p);
            } else if (real) {
                v.r[p] = s->r[o];
            } else {
                v.i[p] = s->i[o];
            }
        }
        return v;
    }
    Vec v = fv_new(s->t, n);
    for (long p = 0; p < n; p++) {
        long o = off[p];
        if (o < 0)
            fv_set_unknown(&v, p);
        else
            fi_get(s, o, &v, p);
    }
    free(off);
    return v;
}

static Vec param_value(Fi *fi, Ctx *c, const Node *e, const Symbol *y)
{
    Type t = norm(y->type);
    const Value *val = &y->value;
    if (val->known && (t.base == TY_INTEGER || t.base == TY_REAL || t.base == TY_LOGICAL)) {
        Vec v = fv_new(t, 1);
        if (t.base == TY_REAL)
            v.r[0] = rnd(t, val->type.base == TY_INTEGER ? (double)val->i : val->r);
        else
            v.i[0] = val->type.base == TY_REAL ? to_int(val->r) : val->i;
        return v;
    }
    /* CHARACTER and COMPLEX constants: their initialization expression */
    if (y->decl && y->decl->kind == AST_ENTITY && y->decl->u.entity.init) {
        Ctx s;
        fi_ctx_init(&s, c->fr);
        Vec v = fi_ev(fi, &s, y->decl->u.entity.init);
        fv_convert(&v, t);
        return v;
    }
    return unsupported(fi, c, e, "this constant");
}

static Vec ev_name(Fi *fi, Ctx *c, const Node *e)
{
    const Symbol *y = e->u.name.sym;
    if (!y) {
        Store *s = fi_temp(fi, c->fr, e->u.name.id);
        if (!s)
            return unsupported(fi, c, e, "a name without a symbol");
        return store_scalar(s);
    }
    long long *b = fi_ctx_lookup(c, y);
    if (b) {
        Vec v = fv_alloc(norm(y->type).base == TY_INTEGER ? norm(y->type) : T_I4, c->n);
        memcpy(v.i, b, (size_t)c->n * sizeof *v.i);
        return v;
    }
    if (y->kind == SYM_PARAMETER)
        return param_value(fi, c, e, y);
    if (y->kind != SYM_VARIABLE && y->kind != SYM_INDEX && y->kind != SYM_FUNCTION)
        return unsupported(fi, c, e, "this name");
    Store *s = fi_var(fi, c->fr, y);
    if (!s->rank)
        return store_scalar(s);
    if (c->rank < s->rank) {
        fi_error_once(fi, e, fi_loc(fi, e), "the array '%s' is used where a scalar is needed",
                      s->name);
        return unknown_n(s->t, 1);
    }
    return gather(fi, c, e, s);
}

/* ---- operators ---- */

static Vec ev_unary(Fi *fi, Ctx *c, const Node *e)
{
    Vec a = fi_ev(fi, c, e->u.unary.operand);
    Op op = e->u.unary.op;
    fi_step(fi, a.n);
    if (op == OP_NOT) {
        fv_convert(&a, T_LOG);
        for (long p = 0; p < a.n; p++)
            a.i[p] = !a.i[p];
        return a;
    }
    if (op != OP_NEG)
        return a;
    for (long p = 0; p < a.n; p++) {
        if (a.i)
            a.i[p] = wrap(a.t, (long long)(0ULL - (unsigned long long)a.i[p]));
        if (a.r)
            a.r[p] = -a.r[p];
        if (a.im)
            a.im[p] = -a.im[p];
    }
    return a;
}

static int cmp_str(const char *a, const char *b)
{
    /* the shorter is compared as if blank-padded */
    for (;; a += *a != 0, b += *b != 0) {
        int x = *a ? (unsigned char)*a : ' ', y = *b ? (unsigned char)*b : ' ';
        if (x != y)
            return x < y ? -1 : 1;
        if (!*a && !*b)
            return 0;
    }
}

static int compare(Op op, int c)
{
    switch (op) {
    case OP_EQ: return c == 0;
    case OP_NE: return c != 0;
    case OP_LT: return c < 0;
    case OP_LE: return c <= 0;
    case OP_GT: return c > 0;
    default: return c >= 0;
    }
}

static long long ipow(Fi *fi, const Node *e, Type t, long long b, long long x, int *ok)
{
    *ok = 1;
    if (x < 0) {
        if (b == 1)
            return 1;
        if (b == -1)
            return x % 2 ? -1 : 1;
        if (b == 0) {
            fi_error_once(fi, e, fi_loc(fi, e), "zero raised to a negative power");
            *ok = 0;
        }
        return 0;
    }
    unsigned long long r = 1, base = (unsigned long long)b;
    for (unsigned long long k = (unsigned long long)x; k; k >>= 1) {
        if (k & 1)
            r *= base;
        base *= base;
    }
    return wrap(t, (long long)r);
}

static double rpow(Type t, double b, long long x)
{
    double r = 1;
    unsigned long long k = x < 0 ? 0ULL - (unsigned long long)x : (unsigned long long)x;
    for (; k; k >>= 1) {
        if (k & 1)
            r = rnd(t, r * b);
        b = rnd(t, b * b);
    }
    return x < 0 ? rnd(t, 1 / r) : r;
}

static double complex cpow_int(Type t, double complex b, long long x)
{
    double complex r = 1;
    unsigned long long k = x < 0 ? 0ULL - (unsigned long long)x : (unsigned long long)x;
    for (; k; k >>= 1) {
        if (k & 1)
            r = r * b;
        b = b * b;
    }
    if (x < 0)
        r = 1 / r;
    return mkc(rnd(t, creal(r)), rnd(t, cimag(r)));
}

static Vec call_math(Fi *fi, const Node *e, const char *name, Vec *args, int nargs);

static Vec ev_power(Fi *fi, const Node *e, Vec *a, Vec *b)
{
    long n = a->n > b->n ? a->n : b->n;
    if (b->t.base == TY_INTEGER) {
        Type t = a->t;
        Vec r = fv_new(t, n);
        for (long p = 0; p < n; p++) {
            if (!fv_known(a, p) || !fv_known(b, p)) {
                fv_set_unknown(&r, p);
                continue;
            }
            long long x = b->i[AT(b, p)];
            long pa = AT(a, p);
            if (t.base == TY_INTEGER) {
                int ok;
                r.i[p] = ipow(fi, e, t, a->i[pa], x, &ok);
                if (!ok)
                    fv_set_unknown(&r, p);
            } else if (t.base == TY_REAL) {
                r.r[p] = rpow(t, a->r[pa], x);
            } else {
                double complex z = cpow_int(t, mkc(a->r[pa], a->im[pa]), x);
                r.r[p] = creal(z);
                r.im[p] = cimag(z);
            }
        }
        return r;
    }
    Type t = promote(a->t, b->t);
    fv_convert(a, t);
    fv_convert(b, t);
    Vec args[2] = {*a, *b};
    memset(a, 0, sizeof *a);     /* call_math frees them */
    memset(b, 0, sizeof *b);
    return call_math(fi, e, "pow", args, 2);
}

/* One point of .AND. / .OR. whose left operand did not decide: the result
 * from the right operand b[q]. */
static void andor_at(int and, Vec *a, long p, const Vec *b, long q)
{
    int kb = fv_known(b, q), vb = b->i[AT(b, q)] != 0;
    if (kb && vb != and) {
        a->i[p] = !and;
        if (a->k)
            a->k[p] = 1;
    } else if (!fv_known(a, p) || !kb) {
        fv_set_unknown(a, p);
    } else {
        a->i[p] = vb;
    }
}

/* .AND. and .OR.: the right operand is evaluated only at the points where
 * the left one does not decide (a guard like i > 0 .and. a(i) > 0 keeps
 * a(i) from being fetched out of range). */
static Vec ev_andor(Fi *fi, Ctx *c, const Node *e)
{
    int and = e->u.binary.op == OP_AND;
    Vec a = fi_ev(fi, c, e->u.binary.lhs);
    fv_convert(&a, T_LOG);
    long nsel = 0;
    long *sel = xmalloc((size_t)a.n * sizeof *sel);
    for (long p = 0; p < a.n; p++)
        if (!fv_known(&a, p) || (a.i[p] != 0) == and)
            sel[nsel++] = p;
    if (!nsel) {
        free(sel);
        return a;
    }
    Vec b;
    if (a.n == 1 || nsel == a.n) {
        b = fi_ev(fi, c, e->u.binary.rhs);
        fv_convert(&b, T_LOG);
        a = fv_widen(&a, b.n > a.n ? b.n : a.n);
        for (long p = 0; p < a.n; p++)
            if (!fv_known(&a, p) || (a.i[p] != 0) == and)
                andor_at(and, &a, p, &b, p);
    } else {
        Ctx s;
        fi_ctx_select(c, sel, nsel, &s);
        b = fi_ev(fi, &s, e->u.binary.rhs);
        fv_convert(&b, T_LOG);
        fi_ctx_free(&s);
        for (long q = 0; q < nsel; q++)
            andor_at(and, &a, sel[q], &b, q);
    }
    fi_step(fi, nsel);
    free(sel);
    fv_free(&b);
    return a;
}

/* r = a op b where every value is known, INTEGER (but division) or REAL
 * operands of type t: the loops of the general case below without its
 * tests per element. Returns 0 for the other cases. */
#define BIN_LOOP(dst, expr)                                                      \
    do {                                                                         \
        if (ma && mb) {                                                          \
            for (long p = 0; p < n; p++) {                                       \
                const long pa = p, pb = p;                                       \
                dst[p] = (expr);                                                 \
            }                                                                    \
        } else if (ma) {                                                         \
            for (long p = 0; p < n; p++) {                                       \
                const long pa = p, pb = 0;                                       \
                dst[p] = (expr);                                                 \
            }                                                                    \
        } else if (mb) {                                                         \
            for (long p = 0; p < n; p++) {                                       \
                const long pa = 0, pb = p;                                       \
                dst[p] = (expr);                                                 \
            }                                                                    \
        } else {                                                                 \
            for (long p = 0; p < n; p++) {                                       \
                const long pa = 0, pb = 0;                                       \
                dst[p] = (expr);                                                 \
            }                                                                    \
        }                                                                        \
    } while (0);
/* The vector for binary_fast's result of type t: the storage of an
 * operand of n values the caller owns (own_a, own_b) when there is one (8
 * bytes a value, whatever the type: binary_fast reads element p of its
 * operands before it writes element p of the result); *taken is that
 * operand, to let go of its storage once binary_fast is done (drop()). */
static Vec binary_result(Type t, Vec *a, Vec *b, long n, int own_a, int own_b, Vec **taken)
{
    Vec r = {0};
    r.t = norm(t);
    r.n = n;
    Vec *from = own_a && a->n == n && !a->k ? a : own_b && b->n == n && !b->k ? b : NULL;
    void *buf = from ? from->i ? (void *)from->i : !from->im ? (void *)from->r : NULL : NULL;
    *taken = buf ? from : NULL;
    if (!buf)
        return fv_alloc(t, n);
    if (r.t.base == TY_REAL)
        r.r = buf;
    else
        r.i = buf;
    return r;
}

/* The operand whose storage went to the result forgets it. */
static void drop(Vec *taken)
{
    if (taken)
        taken->i = NULL, taken->r = NULL;
}

static int binary_fast_ok(Op op, Type t)
{
    if (t.base == TY_INTEGER)
        return op == OP_ADD || op == OP_SUB || op == OP_MUL || (op >= OP_EQ && op <= OP_GE);
    if (t.base == TY_REAL)
        return op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_DIV ||
               (op >= OP_EQ && op <= OP_GE);
    return 0;
}

static int binary_fast(Op op, Type t, const Vec *a, const Vec *b, Vec *r, long n)
{
    /* index masks: 0 for a single value standing for every point */
    long ma = a->n == 1 ? 0 : -1, mb = b->n == 1 ? 0 : -1;
    if (t.base == TY_INTEGER) {
        const long long *x = a->i, *y = b->i;
        long long *z = r->i;
        typedef unsigned long long U;
        switch (op) {
        case OP_ADD: BIN_LOOP(z, wrap(t, (long long)((U)x[pa] + (U)y[pb]))) return 1;
        case OP_SUB: BIN_LOOP(z, wrap(t, (long long)((U)x[pa] - (U)y[pb]))) return 1;
        case OP_MUL: BIN_LOOP(z, wrap(t, (long long)((U)x[pa] * (U)y[pb]))) return 1;
        case OP_EQ: BIN_LOOP(z, x[pa] == y[pb]) return 1;
        case OP_NE: BIN_LOOP(z, x[pa] != y[pb]) return 1;
        case OP_LT: BIN_LOOP(z, x[pa] < y[pb]) return 1;
        case OP_LE: BIN_LOOP(z, x[pa] <= y[pb]) return 1;
        case OP_GT: BIN_LOOP(z, x[pa] > y[pb]) return 1;
        case OP_GE: BIN_LOOP(z, x[pa] >= y[pb]) return 1;
        default: return 0;
        }
    }
    if (t.base == TY_REAL) {
        const double *x = a->r, *y = b->r;
        double *z = r->r;
        long long *l = r->i;
        switch (op) {
        case OP_ADD: BIN_LOOP(z, rnd(t, x[pa] + y[pb])) return 1;
        case OP_SUB: BIN_LOOP(z, rnd(t, x[pa] - y[pb])) return 1;
        case OP_MUL: BIN_LOOP(z, rnd(t, x[pa] * y[pb])) return 1;
        case OP_DIV: BIN_LOOP(z, rnd(t, x[pa] / y[pb])) return 1;
        /* as compare() on x < y ? -1 : x > y ? 1 : x == y ? 0 : 2 (NaN) */
        case OP_EQ: BIN_LOOP(l, x[pa] == y[pb]) return 1;
        case OP_NE: BIN_LOOP(l, !(x[pa] == y[pb])) return 1;
        case OP_LT: BIN_LOOP(l, x[pa] < y[pb]) return 1;
        case OP_LE: BIN_LOOP(l, x[pa] < y[pb] || x[pa] == y[pb]) return 1;
        case OP_GT: BIN_LOOP(l, !(x[pa] < y[pb] || x[pa] == y[pb])) return 1;
        case OP_GE: BIN_LOOP(l, !(x[pa] < y[pb])) return 1;
        default: return 0;
        }
    }
    return 0;
}
#undef BIN_LOOP

static Vec ev_binary(Fi *fi, Ctx *c, const Node *e)
{
    Op op = e->u.binary.op;
    if (op == OP_AND || op == OP_OR)
        return ev_andor(fi, c, e);
    /* an operand that is a FORALL index is lent until it must change */
    int la = 0, lb = 0;
    Vec a, b;
    if (!(la = index_view(fi, c, e->u.binary.lhs, &a)))
        a = fi_ev(fi, c, e->u.binary.lhs);
    if (!(lb = index_view(fi, c, e->u.binary.rhs, &b)))
        b = fi_ev(fi, c, e->u.binary.rhs);
    long n = a.n > b.n ? a.n : b.n;
    fi_step(fi, n);
    Vec r;
    if (la || lb) {
        /* the loop of binary_fast on the lent vectors, as read-only operands
           (they need no conversion); else they are copied for the cases
           below */
        Type t = promote(a.t, b.t);
        if (a.t.base != TY_CHARACTER && b.t.base != TY_CHARACTER && binary_fast_ok(op, t) &&
            (!la || same_type(a.t, t)) && (!lb || same_type(b.t, t)) && fv_all_known(&a) &&
            fv_all_known(&b)) {
            fv_convert(&a, t);
            fv_convert(&b, t);
            Vec *taken;
            r = binary_result(op >= OP_EQ && op <= OP_GE ? T_LOG : t, &a, &b, n, !la, !lb,
                              &taken);
            binary_fast(op, t, &a, &b, &r, n);
            drop(taken);
            if (!la)
                fv_free(&a);
            if (!lb)
                fv_free(&b);
            return r;
        }
        unlend(&a, &la);
        unlend(&b, &lb);
    }
    if (op == OP_CONCAT || a.t.base == TY_CHARACTER || b.t.base == TY_CHARACTER) {
        int cat = op == OP_CONCAT;
        r = fv_new(cat ? T_CHAR : T_LOG, n);
        for (long p = 0; p < n; p++) {
            const char *x = a.s ? a.s[AT(&a, p)] : NULL, *y = b.s ? b.s[AT(&b, p)] : NULL;
            if (!x || !y || !fv_known(&a, p) || !fv_known(&b, p)) {
                fv_set_unknown(&r, p);
                continue;
            }
            if (cat) {
                size_t lx = strlen(x), ly = strlen(y);
                r.s[p] = xmalloc(lx + ly + 1);
                memcpy(r.s[p], x, lx);
                memcpy(r.s[p] + lx, y, ly + 1);
            } else {
                r.i[p] = compare(op, cmp_str(x, y));
            }
        }
    } else if (op == OP_EQV || op == OP_NEQV) {
        fv_convert(&a, T_LOG);
        fv_convert(&b, T_LOG);
        r = fv_new(T_LOG, n);
        for (long p = 0; p < n; p++) {
            if (!fv_known(&a, p) || !fv_known(&b, p))
                fv_set_unknown(&r, p);
            else
                r.i[p] = ((a.i[AT(&a, p)] != 0) == (b.i[AT(&b, p)] != 0)) == (op == OP_EQV);
        }
    } else if (op == OP_POW) {
        r = ev_power(fi, e, &a, &b);
    } else {
        Type t = promote(a.t, b.t);
        fv_convert(&a, t);
        fv_convert(&b, t);
        int rel = op >= OP_EQ && op <= OP_GE;
        if (fv_all_known(&a) && fv_all_known(&b) && binary_fast_ok(op, t)) {
            Vec *taken;
            r = binary_result(rel ? T_LOG : t, &a, &b, n, 1, 1, &taken);
            binary_fast(op, t, &a, &b, &r, n);
            drop(taken);
            fv_free(&a);
            fv_free(&b);
            return r;
        }
        r = fv_new(rel ? T_LOG : t, n);
        for (long p = 0; p < n; p++) {
            if (!fv_known(&a, p) || !fv_known(&b, p)) {
                fv_set_unknown(&r, p);
                continue;
            }
            long pa = AT(&a, p), pb = AT(&b, p);
            if (t.base == TY_INTEGER) {
                unsigned long long x = (unsigned long long)a.i[pa], y = (unsigned long long)b.i[pb];
                long long v = 0;
                switch (op) {
                case OP_ADD: v = (long long)(x + y); break;
                case OP_SUB: v = (long long)(x - y); break;
                case OP_MUL: v = (long long)(x * y); break;
                case OP_DIV:
                    if (!b.i[pb]) {
                        fi_error_once(fi, e, fi_loc(fi, e), "integer division by zero");
                        fv_set_unknown(&r, p);
                        continue;
                    }
                    v = b.i[pb] == -1 ? (long long)(0ULL - x) : a.i[pa] / b.i[pb];
                    break;
                default:
                    r.i[p] = compare(op, a.i[pa] < b.i[pb] ? -1 : a.i[pa] > b.i[pb]);
                    continue;
                }
                r.i[p] = wrap(t, v);
            } else if (t.base == TY_REAL) {
                double x = a.r[pa], y = b.r[pb];
                switch (op) {
                case OP_ADD: r.r[p] = rnd(t, x + y); break;
                case OP_SUB: r.r[p] = rnd(t, x - y); break;
                case OP_MUL: r.r[p] = rnd(t, x * y); break;
                case OP_DIV: r.r[p] = rnd(t, x / y); break;
                default: r.i[p] = compare(op, x < y ? -1 : x > y ? 1 : x == y ? 0 : 2); break;
                }
            } else if (t.base == TY_COMPLEX) {
                double complex x = mkc(a.r[pa], a.im[pa]), y = mkc(b.r[pb], b.im[pb]), z;
                switch (op) {
                case OP_ADD: z = x + y; break;
                case OP_SUB: z = x - y; break;
                case OP_MUL: z = x * y; break;
                case OP_DIV: z = x / y; break;
                default:
                    r.i[p] = (x == y) == (op == OP_EQ);
                    continue;
                }
                r.r[p] = rnd(t, creal(z));
                r.im[p] = rnd(t, cimag(z));
            } else {
                r.i[p] = compare(op, a.i[pa] < b.i[pb] ? -1 : a.i[pa] > b.i[pb]);
            }
        }
    }
    fv_free(&a);
    fv_free(&b);
    return r;
}

/* ---- reductions ---- */

static void identity(int op, Type t, Vec *acc, long g)
{
    switch (op) {
    case HPFRT_SUM: case HPFRT_OR:
        break;
    case HPFRT_PRODUCT: case HPFRT_AND:
        if (acc->i)
            acc->i[g] = 1;
        if (acc->r)
            acc->r[g] = 1;
        break;
    case HPFRT_MAX:   /* as gfortran: the most negative integer, -huge for reals */
        if (t.base == TY_INTEGER)
            acc->i[g] = t.kind == 8 ? LLONG_MIN : INT32_MIN;
        else if (acc->r)
            acc->r[g] = t.kind == 8 ? -DBL_MAX : -FLT_MAX;
        break;
    default:
        if (t.base == TY_INTEGER)
            acc->i[g] = t.kind == 8 ? LLONG_MAX : INT32_MAX;
        else if (acc->r)
            acc->r[g] = t.kind == 8 ? DBL_MAX : FLT_MAX;
        break;
    }
}

static Vec fv_copy(const Vec *v)
{
    Vec w = fv_new(v->t, v->n);
    for (long p = 0; p < v->n; p++) {
        if (w.i)
            w.i[p] = v->i[p];
        if (w.r)
            w.r[p] = v->r[p];
        if (w.im)
            w.im[p] = v->im[p];
        if (w.s && v->s[p])
            w.s[p] = xstrdup(v->s[p]);
    }
    if (v->k) {
        w.k = xmalloc((size_t)v->n);
        memcpy(w.k, v->k, (size_t)v->n);
    }
    return w;
}

/* dst[p] = src[q], known flag included (same types). */
static void fv_copy_elem(Vec *dst, long p, const Vec *src, long q)
{
    q = AT(src, q);
    if (!fv_known(src, q)) {
        fv_set_unknown(dst, p);
        return;
    }
    if (dst->i)
        dst->i[p] = src->i[q];
    if (dst->r)
        dst->r[p] = src->r[q];
    if (dst->im)
        dst->im[p] = src->im[q];
    if (dst->s) {
        free(dst->s[p]);
        dst->s[p] = src->s[q] ? xstrdup(src->s[q]) : NULL;
    }
    if (dst->k)
        dst->k[p] = 1;
}

/* op over nvals values into ngroups accumulators: value q goes to group[q]
 * (NULL: all to group 0), in order. loc (MAXLOC, MINLOC): pos gets
 * where[q] + 1 of the first strict extreme, 0 for an empty group. A group
 * with an unknown value has an unknown result. */
int fi_reduce(Fi *fi, int op, int loc, Type t, const Vec *vals, long nvals, const long *group,
              const long long *where, long ngroups, Vec *acc, Vec *pos)
{
    t = norm(t);
    *acc = fv_new(t, ngroups);
    for (long g = 0; g < ngroups; g++)
        identity(op, t, acc, g);
    if (loc)
        *pos = fv_new(T_I4, ngroups);
    Vec v = fv_copy(vals);
    fv_convert(&v, t);
    fi_step(fi, nvals);
    for (long q = 0; q < nvals; q++) {
        long g = group ? group[q] : 0;
        if (!fv_known(acc, g))
            continue;
        if (!fv_known(&v, q)) {
            fv_set_unknown(acc, g);
            if (loc)
                fv_set_unknown(pos, g);
            continue;
        }
        long pq = AT(&v, q);
        if (loc) {
            int better = t.base == TY_INTEGER
                ? (op == HPFRT_MAX ? v.i[pq] > acc->i[g] : v.i[pq] < acc->i[g])
                : (op == HPFRT_MAX ? v.r[pq] > acc->r[g] : v.r[pq] < acc->r[g]);
            int same = t.base == TY_INTEGER ? v.i[pq] == acc->i[g] : v.r[pq] == acc->r[g];
            long long at = (where ? where[q] : q) + 1;
            /* the first extreme in array element order */
            if (!pos->i[g] || better || (same && at < pos->i[g])) {
                if (t.base == TY_INTEGER)
                    acc->i[g] = v.i[pq];
                else
                    acc->r[g] = v.r[pq];
                pos->i[g] = (where ? where[q] : q) + 1;
            }
            continue;
        }
        switch (t.base) {
        case TY_INTEGER: {
            unsigned long long a = (unsigned long long)acc->i[g], x = (unsigned long long)v.i[pq];
            switch (op) {
            case HPFRT_SUM: acc->i[g] = wrap(t, (long long)(a + x)); break;
            case HPFRT_PRODUCT: acc->i[g] = wrap(t, (long long)(a * x)); break;
            case HPFRT_MAX: if (v.i[pq] > acc->i[g]) acc->i[g] = v.i[pq]; break;
            case HPFRT_MIN: if (v.i[pq] < acc->i[g]) acc->i[g] = v.i[pq]; break;
            default: break;
            }
            break;
        }
        case TY_REAL:
            switch (op) {
            case HPFRT_SUM: acc->r[g] = rnd(t, acc->r[g] + v.r[pq]); break;
            case HPFRT_PRODUCT: acc->r[g] = rnd(t, acc->r[g] * v.r[pq]); break;
            case HPFRT_MAX: if (v.r[pq] > acc->r[g]) acc->r[g] = v.r[pq]; break;
            case HPFRT_MIN: if (v.r[pq] < acc->r[g]) acc->r[g] = v.r[pq]; break;
            default: break;
            }
            break;
        case TY_COMPLEX: {
            double complex a = mkc(acc->r[g], acc->im[g]), x = mkc(v.r[pq], v.im[pq]);
            a = op == HPFRT_PRODUCT ? a * x : a + x;
            acc->r[g] = rnd(t, creal(a));
            acc->im[g] = rnd(t, cimag(a));
            break;
        }
        case TY_LOGICAL:
            if (op == HPFRT_AND)
                acc->i[g] = acc->i[g] && v.i[pq];
            else
                acc->i[g] = acc->i[g] || v.i[pq];
            break;
        default:
            break;
        }
    }
    fv_free(&v);
    return !fi->stopped;
}

/* An inline reduction (SpRed) at every point of c: the points expanded by
 * the reduction's trips (its index running 0..n-1), masked, the body
 * evaluated once over all of them, then reduced per point. */
static Vec ev_red(Fi *fi, Ctx *c, const Node *e, const SpRed *sr)
{
    Type rt = norm(e->type);
    Vec nv = fi_ev(fi, c, sr->n);
    fv_convert(&nv, T_I8);
    long long *trips = xmalloc((size_t)c->n * sizeof *trips);
    unsigned char *unk = xcalloc((size_t)c->n, 1);
    long total = 0;
    for (long p = 0; p < c->n; p++) {
        long long t = fv_known(&nv, p) ? nv.i[AT(&nv, p)] : 0;
        unk[p] = !fv_known(&nv, p);
        trips[p] = t > 0 ? t : 0;
        total += (long)trips[p];
    }
    fv_free(&nv);
    Vec r;
    Ctx x;
    long *par = NULL;
    if (!fi_step(fi, total) || !fi_ctx_expand(c, trips, total, sr->var, &x, &par)) {
        if (par) {
            fi_ctx_free(&x);
            free(par);
        }
        free(trips);
        free(unk);
        if (!fi->stopped)
            return unsupported(fi, c, e, "reductions nested this deeply");
        return unknown_n(rt, c->n);
    }
    free(trips);
    Ctx y, *bc = &x;
    long *grp = par, nb = total;
    if (sr->mask) {
        Vec m = fi_ev(fi, &x, sr->mask);
        fv_convert(&m, T_LOG);
        long *sel = xmalloc((size_t)(total ? total : 1) * sizeof *sel), ns = 0;
        for (long q = 0; q < total; q++) {
            if (!fv_known(&m, q))
                unk[par[q]] = 1;
            else if (m.i[AT(&m, q)])
                sel[ns++] = q;
        }
        fv_free(&m);
        fi_ctx_select(&x, sel, ns, &y);
        grp = xmalloc((size_t)(ns ? ns : 1) * sizeof *grp);
        for (long q = 0; q < ns; q++)
            grp[q] = par[sel[q]];
        free(sel);
        bc = &y;
        nb = ns;
    }
    Vec body = fi_ev(fi, bc, sr->body);
    Vec acc, pos;
    fi_reduce(fi, sr->op, sr->loc, sr->loc ? body.t : sr->type, &body, nb, grp,
              fi_ctx_lookup(bc, sr->var), c->n, &acc, &pos);
    fv_free(&body);
    if (sr->loc) {
        fv_free(&acc);
        r = pos;
    } else {
        r = acc;
    }
    fv_convert(&r, rt);
    for (long p = 0; p < c->n; p++)
        if (unk[p])
            fv_set_unknown(&r, p);
    if (bc == &y) {
        fi_ctx_free(&y);
        free(grp);
    }
    fi_ctx_free(&x);
    free(par);
    free(unk);
    return r;
}

/* ---- libffi: C math functions and EXTERNAL functions ---- */

enum { MAX_FFI_ARGS = 16 };

struct FfiFn {
    char *sym;
    char sig[MAX_FFI_ARGS + 3];   /* argument codes, ':', result code */
    void *fn;                     /* NULL: not found (remembered) */
    ffi_cif cif;
    ffi_type *args[MAX_FFI_ARGS];
};

/* Codes: i int32, l int64, f float, d double, c float complex, z double
 * complex, p pointer, v void. */
static ffi_type *ffi_of(char code)
{
    switch (code) {
    case 'i': return &ffi_type_sint32;
    case 'l': return &ffi_type_sint64;
    case 'f': return &ffi_type_float;
    case 'd': return &ffi_type_double;
#ifdef FFI_TARGET_HAS_COMPLEX_TYPE
    case 'c': return &ffi_type_complex_float;
    case 'z': return &ffi_type_complex_double;
#endif
    case 'p': return &ffi_type_pointer;
    case 'v': return &ffi_type_void;
    default: return NULL;
    }
}

static char code_of(Type t)
{
    switch (t.base) {
    case TY_INTEGER: return t.kind == 8 ? 'l' : 'i';
    case TY_REAL: return t.kind == 8 ? 'd' : 'f';
    case TY_COMPLEX: return t.kind == 8 ? 'z' : 'c';
    case TY_LOGICAL: return 'i';
    case TY_NONE: return 'v';
    default: return 0;
    }
}

int fi_ffi_open(Fi *fi)
{
    fi->self = dlopen(NULL, RTLD_NOW);
    if (fi->o.nlibs)
        fi->libs = xcalloc((size_t)fi->o.nlibs, sizeof *fi->libs);
    for (int i = 0; i < fi->o.nlibs; i++) {
        fi->libs[i] = dlopen(fi->o.libs[i], RTLD_NOW);
        if (!fi->libs[i]) {
            const char *why = dlerror();
            diag_error(fi->d, (Loc){0}, "cannot load '%s': %s", fi->o.libs[i],
                       why ? why : "unknown error");
            return 0;
        }
        fi->nlibs = i + 1;
    }
    return 1;
}

void fi_ffi_free(Fi *fi)
{
    for (int i = 0; i < fi->ffns.n; i++) {
        FfiFn *f = fi->ffns.v[i];
        free(f->sym);
        free(f);
    }
    free(fi->ffns.v);
    for (int i = 0; i < fi->nlibs; i++)
        dlclose(fi->libs[i]);
    free(fi->libs);
    if (fi->self)
        dlclose(fi->self);
}

/* The function sym with signature sig, found with dlsym in the program and
 * then in the --load libraries; prepared once, failures remembered. */
static FfiFn *ffi_find(Fi *fi, const char *sym, const char *sig)
{
    for (int i = 0; i < fi->ffns.n; i++) {
        FfiFn *f = fi->ffns.v[i];
        if (!strcmp(f->sym, sym) && !strcmp(f->sig, sig))
            return f;
    }
    FfiFn *f = xcalloc(1, sizeof *f);
    f->sym = xstrdup(sym);
    snprintf(f->sig, sizeof f->sig, "%s", sig);
    vec_push(NULL, &fi->ffns, f);
    void *fn = fi->self ? dlsym(fi->self, sym) : NULL;
    for (int i = 0; i < fi->nlibs && !fn; i++)
        fn = dlsym(fi->libs[i], sym);
    const char *colon = strchr(sig, ':');
    int nargs = (int)(colon - sig);
    ffi_type *rt = ffi_of(colon[1]);
    for (int k = 0; k < nargs; k++)
        if (!(f->args[k] = ffi_of(sig[k])))
            rt = NULL;
    if (fn && rt && ffi_prep_cif(&f->cif, FFI_DEFAULT_ABI, (unsigned)nargs, rt, f->args) == FFI_OK)
        f->fn = fn;
    return f;
}

typedef union {
    ffi_arg a;                    /* integer results are widened to this */
    int32_t i4;
    int64_t i8;
    float f;
    double d;
    float complex cf;
    double complex cd;
} Cell;

static size_t cell_size(Type t)
{
    return t.base == TY_COMPLEX ? 2 * (size_t)t.kind : t.base == TY_LOGICAL ? 4 : (size_t)t.kind;
}

/* v[p] into the C object at buf, and back. */
static void cell_put(char *buf, Type t, const Vec *v, long p)
{
    Cell c;
    p = AT(v, p);
    switch (code_of(t)) {
    case 'i': c.i4 = (int32_t)v->i[p]; break;
    case 'l': c.i8 = v->i[p]; break;
    case 'f': c.f = (float)v->r[p]; break;
    case 'd': c.d = v->r[p]; break;
    case 'c': c.cf = mkcf((float)v->r[p], (float)v->im[p]); break;
    default: c.cd = mkc(v->r[p], v->im[p]); break;
    }
    memcpy(buf, &c, cell_size(t));
}

static void cell_get(const char *buf, Type t, int ret, Vec *v, long p)
{
    Cell c;
    memcpy(&c, buf, sizeof c);
    switch (code_of(t)) {
    case 'i': v->i[p] = ret ? (int32_t)c.a : c.i4; break;
    case 'l': v->i[p] = c.i8; break;
    case 'f': v->r[p] = c.f; break;
    case 'd': v->r[p] = c.d; break;
    case 'c': v->r[p] = crealf(c.cf); v->im[p] = cimagf(c.cf); break;
    default: v->r[p] = creal(c.cd); v->im[p] = cimag(c.cd); break;
    }
    if (t.base == TY_LOGICAL)
        v->i[p] = v->i[p] != 0;
}

static const void *name_key(Fi *fi, const char *name)
{
    for (int i = 0; i < fi->reported_names.n; i++)
        if (!strcmp(fi->reported_names.v[i], name))
            return fi->reported_names.v[i];
    char *s = xstrdup(name);
    vec_push(NULL, &fi->reported_names, s);
    return s;
}

/* The C math function of a Fortran elemental name, element by element:
 * name (double), name + "f" (float), "c" + name for COMPLEX. */
static Vec call_math(Fi *fi, const Node *e, const char *name, Vec *args, int nargs)
{
    Type t = args[0].t;
    long n = 1;
    for (int k = 0; k < nargs; k++)
        if (args[k].n > n)
            n = args[k].n;
    char sym[64], sig[8];
    snprintf(sym, sizeof sym, "%s%s%s", t.base == TY_COMPLEX ? "c" : "", name,
             t.kind == 4 ? "f" : "");
    for (int k = 0; k < nargs; k++)
        sig[k] = code_of(t);
    sig[nargs] = ':';
    sig[nargs + 1] = code_of(t);
    sig[nargs + 2] = 0;
    FfiFn *f = ffi_find(fi, sym, sig);
    Vec r = fv_new(t, n);
    if (!f->fn) {
        fi_error_once(fi, name_key(fi, sym), fi_loc(fi, e), "the C function '%s' for '%s' is "
                      "not found (or libffi cannot call it)", sym, name);
        for (long p = 0; p < n; p++)
            fv_set_unknown(&r, p);
    } else {
        fi_step(fi, n);
        Cell in[MAX_FFI_ARGS], out;
        void *av[MAX_FFI_ARGS];
        for (long p = 0; p < n; p++) {
            int known = 1;
            for (int k = 0; k < nargs; k++) {
                known &= fv_known(&args[k], p);
                cell_put((char *)&in[k], t, &args[k], p);
                av[k] = &in[k];
            }
            if (!known) {
                fv_set_unknown(&r, p);
                continue;
            }
            ffi_call(&f->cif, FFI_FN(f->fn), &out, av);
            cell_get((const char *)&out, t, 1, &r, p);
        }
    }
    for (int k = 0; k < nargs; k++)
        fv_free(&args[k]);
    return r;
}

/* An EXTERNAL function (rt) or subroutine (rt.base TY_NONE) not defined in
 * the file: `name_` as gfortran names it, arguments by reference (a C
 * object of the argument's type, or a contiguous copy of an array), called
 * once per point; what it writes into variables is copied back. */
int fi_call_external(Fi *fi, Ctx *c, const Node *call, Type rt, Vec *out)
{
    const char *id = call->u.ref.id;
    int nargs = call->u.ref.args.n;
    int sub = rt.base == TY_NONE;
    char sym[128], sig[MAX_FFI_ARGS + 3];
    size_t len = strlen(id);
    if (len > sizeof sym - 2)
        len = sizeof sym - 2;
    for (size_t i = 0; i < len; i++)
        sym[i] = (char)(id[i] >= 'A' && id[i] <= 'Z' ? id[i] - 'A' + 'a' : id[i]);
    sym[len] = '_';
    sym[len + 1] = 0;
    if (!sub)
        *out = unknown_n(rt, 1);
    if (nargs > MAX_FFI_ARGS) {
        fi_error_once(fi, call, fi_loc(fi, call), "the functional interpreter passes at most %d "
                      "arguments to an external procedure", MAX_FFI_ARGS);
        return 0;
    }
    Vec vals[MAX_FFI_ARGS];
    Store *var[MAX_FFI_ARGS];
    long cnt[MAX_FFI_ARGS];
    int arr[MAX_FFI_ARGS];
    char *buf[MAX_FFI_ARGS];
    void *ptr[MAX_FFI_ARGS], *av[MAX_FFI_ARGS];
    int ok = 1;
    for (int k = 0; k < nargs; k++) {
        const Node *a = call->u.ref.args.v[k];
        if (a->kind == AST_KEYWORD_ARG)
            a = a->u.kwarg.value;
        var[k] = NULL;
        cnt[k] = 1;
        arr[k] = a->rank > 0;
        if (a->rank) {
            int r;
            long long ext[MAX_RANK];
            vals[k] = fi_array(fi, c, a, &r, ext);
            for (int d = 0; d < r; d++)
                cnt[k] *= ext[d] > 0 ? (long)ext[d] : 0;
        } else {
            vals[k] = fi_ev(fi, c, a);
        }
        if (a->kind == AST_NAME && a->u.name.sym && a->u.name.sym->kind == SYM_VARIABLE)
            var[k] = fi_var(fi, c->fr, a->u.name.sym);
        else if (a->kind == AST_NAME && !a->u.name.sym)
            var[k] = fi_temp(fi, c->fr, a->u.name.id);
        if (vals[k].t.base == TY_CHARACTER) {
            fi_error_once(fi, call, fi_loc(fi, call), "the functional interpreter cannot pass "
                          "CHARACTER arguments to the external procedure '%s'", id);
            ok = 0;
        }
        buf[k] = xcalloc((size_t)(cnt[k] ? cnt[k] : 1), cell_size(vals[k].t));
        ptr[k] = buf[k];
        av[k] = &ptr[k];
        sig[k] = 'p';
    }
    sig[nargs] = ':';
    sig[nargs + 1] = code_of(sub ? (Type){TY_NONE, 0} : norm(rt));
    sig[nargs + 2] = 0;
    FfiFn *f = ok ? ffi_find(fi, sym, sig) : NULL;
    if (ok && !f->fn) {
        fi_error_once(fi, name_key(fi, sym), fi_loc(fi, call), "'%s' is not defined in the "
                      "program, and '%s' is found neither in it nor in the --load libraries",
                      id, sym);
        ok = 0;
    }
    long n = c->n;
    if (!sub) {
        fv_free(out);
        *out = fv_new(rt, n);
    }
    for (long p = 0; p < n; p++) {
        int known = ok;
        for (int k = 0; k < nargs && known; k++) {
            if (arr[k]) {
                known = fv_all_known(&vals[k]);
                for (long q = 0; q < cnt[k]; q++)
                    cell_put(buf[k] + (size_t)q * cell_size(vals[k].t), vals[k].t, &vals[k], q);
            } else {
                known = fv_known(&vals[k], p);
                cell_put(buf[k], vals[k].t, &vals[k], p);
            }
        }
        if (!known) {
            if (!sub)
                fv_set_unknown(out, p);
            continue;
        }
        Cell ret;
        ffi_call(&f->cif, FFI_FN(f->fn), &ret, av);
        if (!sub)
            cell_get((const char *)&ret, norm(rt), 1, out, p);
        for (int k = 0; k < nargs; k++) {
            if (!var[k] || var[k]->n != cnt[k])
                continue;
            Vec back = fv_new(vals[k].t, 1);
            for (long q = 0; q < cnt[k]; q++) {
                cell_get(buf[k] + (size_t)q * cell_size(vals[k].t), vals[k].t, 0, &back, 0);
                fi_put(fi, var[k], q, &back, 0, NULL);
            }
            fv_free(&back);
        }
    }
    fi_step(fi, n);
    for (int k = 0; k < nargs; k++) {
        fv_free(&vals[k]);
        free(buf[k]);
    }
    return ok;
}

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

static int elemental_name(const char *id);

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
        ctx_point(c, 0, &one);
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
            Vec x = scalar_int(fi, c, sh->u.list.items.v[d], &v, &k);
            fv_free(&x);
            if (!k)
                return -1;
            ext[d] = v;
        }
        return e->rank;
    }
    if (what == REF_INTRINSIC || what == REF_FUNCTION || what == REF_UNRESOLVED) {
        if (!elemental_name(e->u.ref.id)) {
            unsupported(fi, c, e, "this array-valued function outside a lowered array "
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
                x = scalar_int(fi, c, a->u.triplet.lo, &lo, &k1);
                fv_free(&x);
            }
            if (a->u.triplet.hi) {
                x = scalar_int(fi, c, a->u.triplet.hi, &hi, &k2);
                fv_free(&x);
            }
            if (a->u.triplet.stride) {
                x = scalar_int(fi, c, a->u.triplet.stride, &st, &k3);
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
            return unsupported(fi, c, e, "a RESHAPE whose SOURCE is too small");
        return v;
    }
    if (!*rank)
        return fi_ev(fi, c, e);
    if (c->n != 1)
        return unsupported(fi, c, e, "a whole-array expression inside a FORALL");
    long n = 1;
    for (int d = 0; d < *rank; d++)
        n *= ext[d] > 0 ? (long)ext[d] : 0;
    if (!n)
        return fv_new(e->type, 1);
    Ctx pc;
    ctx_positions(fi, c, *rank, ext, &pc);
    Vec v = fi_ev(fi, &pc, e);
    fi_ctx_free(&pc);
    return fv_widen(&v, n);
}

static void flat_add(Vec *f, long *n, const Vec *v, long q)
{
    if (*n == f->n) {
        Vec g = fv_new(f->t, 2 * f->n);
        for (long p = 0; p < *n; p++)
            fv_copy_elem(&g, p, f, p);
        fv_free(f);
        *f = g;
    }
    fv_copy_elem(f, (*n)++, v, q);
}

static void ctor_item(Fi *fi, Ctx *c, const Node *it, Vec *f, long *n)
{
    if (fi->stopped)
        return;
    if (it->kind == AST_IMPLIED_DO) {
        long long lo, hi, st = 1;
        int k1, k2, k3 = 1;
        Vec x = scalar_int(fi, c, it->u.impdo.lo, &lo, &k1);
        fv_free(&x);
        x = scalar_int(fi, c, it->u.impdo.hi, &hi, &k2);
        fv_free(&x);
        if (it->u.impdo.step) {
            x = scalar_int(fi, c, it->u.impdo.step, &st, &k3);
            fv_free(&x);
        }
        if (!k1 || !k2 || !k3 || !st) {
            unsupported(fi, c, it, "an implied DO whose bounds are not known");
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

static Vec ev_ctor(Fi *fi, Ctx *c, const Node *e)
{
    if (!c->rank)
        return unsupported(fi, c, e, "an array constructor where a scalar is needed");
    Ctx one;
    ctx_point(c, 0, &one);
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
            fv_copy_elem(&r, p, &f, (long)q);
        else
            fv_set_unknown(&r, p);
    }
    fv_free(&f);
    return r;
}

/* ---- intrinsics ---- */

/* Intrinsics computed natively; any other elemental name with REAL or
 * COMPLEX arguments is taken for the C math function of that name. */
static const char *const native_names[] = {
    "abs", "mod", "modulo", "min", "max", "sign", "int", "nint", "real", "dble", "float",
    "cmplx", "aimag", "conjg", "dim", "merge", "aint", "anint", "size", "lbound", "ubound",
    "shape", "huge", "tiny", "epsilon", "kind", "number_of_processors", "hpfrt_nprocs",
    "floor", "ceiling", "len", "len_trim", "trim", "adjustl", "adjustr", "index",
    "allocated", "present", "pack", "unpack", "sum", "product", "maxval", "minval", "count", "any", "all", "maxloc",
    "minloc", "dot_product",
};

static int native_name(const char *id)
{
    for (size_t i = 0; i < sizeof native_names / sizeof native_names[0]; i++)
        if (!strcmp(native_names[i], id))
            return 1;
    return 0;
}

static int is_red(const char *id)
{
    static const char *const names[] = {"sum", "product", "maxval", "minval", "count", "any",
                                        "all", "maxloc", "minloc", "dot_product"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(names[i], id))
            return 1;
    return 0;
}

/* Elemental: applied element by element to array arguments. */
static int elemental_name(const char *id)
{
    static const char *const inquiry[] = {"size", "lbound", "ubound", "shape", "huge", "tiny",
        "epsilon", "kind", "number_of_processors", "hpfrt_nprocs", "allocated", "present",
        "transpose",
        "spread", "cshift", "eoshift", "matmul", "reshape", "pack", "unpack"};
    if (is_red(id))
        return 0;
    for (size_t i = 0; i < sizeof inquiry / sizeof inquiry[0]; i++)
        if (!strcmp(inquiry[i], id))
            return 0;
    return 1;
}

static Vec bounds_of(Fi *fi, Ctx *c, const Node *e, const char *id)
{
    int shape = !strcmp(id, "shape");
    const Node *a = ast_arg(e, 0, shape ? "source" : "array");
    const Node *dn = shape ? NULL : ast_arg(e, 1, "dim");
    long long lo[MAX_RANK], ext[MAX_RANK];
    int rank;
    if (!a)
        return unsupported(fi, c, e, "this inquiry");
    if (a->kind == AST_NAME && a->u.name.sym && a->u.name.sym->rank) {
        Store *s = fi_var(fi, c->fr, a->u.name.sym);
        if (!s->allocated) {
            fi_unallocated(fi, a, s->name, s);
            return unknown_n(e->type, 1);
        }
        rank = s->rank;
        for (int d = 0; d < rank; d++) {
            lo[d] = s->lo[d];
            ext[d] = s->ext[d];
        }
    } else {
        rank = fi_shape(fi, c, a, ext);
        for (int d = 0; d < rank; d++)
            lo[d] = 1;
    }
    if (rank <= 0)
        return unknown_n(e->type, 1);
    long long d0 = -1;
    if (dn) {
        int k;
        Vec x = scalar_int(fi, c, dn, &d0, &k);
        fv_free(&x);
        if (!k)
            return unknown_n(e->type, 1);
        if (d0 < 1 || d0 > rank) {
            fi_error_once(fi, e, fi_loc(fi, e), "DIM=%lld of '%s' is not a dimension of its "
                          "argument", d0, id);
            return unknown_n(e->type, 1);
        }
        d0--;
    }
    if (!dn && !strcmp(id, "size")) {
        long long n = 1;
        for (int d = 0; d < rank; d++)
            n *= ext[d];
        Vec v = fv_int(n);
        fv_convert(&v, e->type);
        return v;
    }
    long n = dn || !c->rank ? 1 : c->n;
    if (!dn && !c->rank && rank != 1)
        return unsupported(fi, c, e, "an array-valued bound inquiry where a scalar is needed");
    Vec v = fv_new(T_I8, n);
    for (long p = 0; p < n; p++) {
        long long d = dn ? d0 : c->rank ? c->pos[0][p] : 0;
        if (d < 0 || d >= rank) {
            fv_set_unknown(&v, p);
            continue;
        }
        if (shape || !strcmp(id, "size"))
            v.i[p] = ext[d];
        else if (!strcmp(id, "lbound"))
            v.i[p] = ext[d] ? lo[d] : 1;
        else
            v.i[p] = ext[d] ? lo[d] + ext[d] - 1 : 0;
    }
    fv_convert(&v, e->type);
    return v;
}

/* A reduction of unlowered code (an argument of a CALL, a bound): the
 * whole array, then the operator. */
static Vec reduction(Fi *fi, Ctx *c, const Node *e, const char *id)
{
    int cmi = !strcmp(id, "count") || !strcmp(id, "any") || !strcmp(id, "all");
    int dot = !strcmp(id, "dot_product");
    int loc = !strcmp(id, "maxloc") || !strcmp(id, "minloc");
    const Node *a = cmi ? ast_arg(e, 0, "mask") : ast_arg(e, 0, dot ? "vector_a" : "array");
    const Node *dn = dot ? NULL : ast_arg(e, 1, "dim");
    const Node *m = NULL;
    if (!cmi && !dot) {
        m = ast_arg(e, 2, "mask");
        if (!m && dn && dn->type.base == TY_LOGICAL) {
            m = dn;
            dn = NULL;
        }
    }
    if (!a || c->n != 1 || (dn && a->rank != 1))
        return unsupported(fi, c, e, "this reduction outside a lowered array statement");
    int op = !strcmp(id, "product") ? HPFRT_PRODUCT
             : !strcmp(id, "maxval") || !strcmp(id, "maxloc") ? HPFRT_MAX
             : !strcmp(id, "minval") || !strcmp(id, "minloc") ? HPFRT_MIN
             : !strcmp(id, "all") ? HPFRT_AND : !strcmp(id, "any") ? HPFRT_OR : HPFRT_SUM;
    int rank;
    long long ext[MAX_RANK];
    Vec av = fi_array(fi, c, a, &rank, ext);
    long n = 1;
    for (int d = 0; d < rank; d++)
        n *= ext[d] > 0 ? (long)ext[d] : 0;
    if (rank < 0) {
        fv_free(&av);
        return unknown_n(e->type, 1);
    }
    Type t = loc ? av.t : norm(e->type);
    Vec vals, mv = {0};
    if (!strcmp(id, "count")) {
        mv = av;
        vals = fv_int(1);
    } else if (dot) {
        int rb;
        long long eb[MAX_RANK];
        Vec bv = fi_array(fi, c, ast_arg(e, 1, "vector_b"), &rb, eb);
        if (t.base == TY_LOGICAL) {
            op = HPFRT_OR;
            vals = fv_new(T_LOG, n);
            fv_convert(&av, T_LOG);
            fv_convert(&bv, T_LOG);
        } else {
            vals = fv_new(t, n);
            fv_convert(&av, t);
            fv_convert(&bv, t);
        }
        for (long p = 0; p < n && rb == 1; p++) {
            if (!fv_known(&av, p) || !fv_known(&bv, p)) {
                fv_set_unknown(&vals, p);
                continue;
            }
            long pa = AT(&av, p), pb = AT(&bv, p);
            if (t.base == TY_LOGICAL) {
                vals.i[p] = av.i[pa] && bv.i[pb];
            } else if (t.base == TY_INTEGER) {
                vals.i[p] = wrap(t, (long long)((unsigned long long)av.i[pa]
                                                * (unsigned long long)bv.i[pb]));
            } else if (t.base == TY_REAL) {
                vals.r[p] = rnd(t, av.r[pa] * bv.r[pb]);
            } else {
                double complex z = conj(mkc(av.r[pa], av.im[pa])) * mkc(bv.r[pb], bv.im[pb]);
                vals.r[p] = rnd(t, creal(z));
                vals.im[p] = rnd(t, cimag(z));
            }
        }
        fv_free(&av);
        fv_free(&bv);
    } else {
        vals = av;
        if (m) {
            int rm;
            long long em[MAX_RANK];
            mv = fi_array(fi, c, m, &rm, em);
        }
    }
    /* the mask selects the values */
    long *sel = NULL;
    long long *where = xmalloc((size_t)(n ? n : 1) * sizeof *where);
    long ns = n;
    int unk = 0;
    if (mv.t.base) {
        fv_convert(&mv, T_LOG);
        sel = xmalloc((size_t)(n ? n : 1) * sizeof *sel);
        ns = 0;
        for (long q = 0; q < n; q++) {
            if (!fv_known(&mv, q))
                unk = 1;
            else if (mv.i[AT(&mv, q)])
                sel[ns++] = q;
        }
        Vec w = fv_new(vals.t, ns);
        for (long q = 0; q < ns; q++)
            fv_copy_elem(&w, q, &vals, sel[q]);
        fv_free(&vals);
        vals = w;
        fv_free(&mv);
    }
    for (long q = 0; q < ns; q++)
        where[q] = sel ? sel[q] : q;
    Vec acc, pos;
    fi_reduce(fi, op, loc, t, &vals, ns, NULL, where, 1, &acc, &pos);
    fv_free(&vals);
    free(sel);
    free(where);
    Vec r = acc;
    if (loc) {
        fv_free(&acc);
        r = pos;
        if (rank > 1 && fv_known(&r, 0)) {
            /* MAXLOC of an array of rank > 1: one position per dimension */
            long long lin = r.i[0] - 1;
            long np = c->rank ? c->n : 1;
            Vec v = fv_new(T_I4, np);
            for (long p = 0; p < np; p++) {
                long long d = c->rank ? c->pos[0][p] : 0, q = lin;
                for (long long k = 0; k < d; k++)
                    q /= ext[k] ? ext[k] : 1;
                v.i[p] = lin < 0 ? 0 : q % (ext[d] ? ext[d] : 1) + 1;
            }
            fv_free(&r);
            r = v;
        }
    }
    if (unk)
        for (long p = 0; p < r.n; p++)
            fv_set_unknown(&r, p);
    fv_convert(&r, e->type);
    return r;
}

static Vec arg_vec(Fi *fi, Ctx *c, const Node *e, int i, const char *kw)
{
    const Node *a = ast_arg(e, i, kw);
    return a ? fi_ev(fi, c, a) : fv_unknown(T_I4);
}

static long widest(const Vec *v, int n)
{
    long w = 1;
    for (int k = 0; k < n; k++)
        if (v[k].n > w)
            w = v[k].n;
    return w;
}

/* MIN, MAX, MOD, MODULO, SIGN, DIM: one type for all arguments. */
static Vec numeric_op(Fi *fi, const Node *e, const char *id, Vec *v, int n)
{
    Type t = v[0].t;
    for (int k = 1; k < n; k++)
        t = promote(t, v[k].t);
    for (int k = 0; k < n; k++)
        fv_convert(&v[k], t);
    long w = widest(v, n);
    fi_step(fi, w * n);
    Vec r = fv_new(t, w);
    enum { NO_MINMAX, NO_MOD, NO_MODULO, NO_SIGN, NO_DIM } f =
        !strcmp(id, "min") || !strcmp(id, "max") ? NO_MINMAX
        : !strcmp(id, "mod") ? NO_MOD : !strcmp(id, "modulo") ? NO_MODULO
        : !strcmp(id, "sign") ? NO_SIGN : NO_DIM;
    int all = t.base == TY_INTEGER && n == 2 && (f == NO_MINMAX || f == NO_MOD);
    for (int k = 0; k < n && all; k++)
        all = fv_all_known(&v[k]);
    if (all) {
        /* MIN, MAX or MOD of two INTEGER vectors, every value known: the
           loop below without its tests, unless a divisor is zero */
        const long long *a = v[0].i, *b = v[1].i;
        long ma = v[0].n == 1 ? 0 : -1, mb = v[1].n == 1 ? 0 : -1;
        int zero = 0;
        for (long p = 0; f == NO_MOD && p < w && !zero; p++)
            zero = !b[p & mb];
        if (!zero) {
            int mx = id[1] == 'a';
            for (long p = 0; p < w; p++) {
                long long x = a[p & ma], y = b[p & mb];
                if (f == NO_MOD)
                    r.i[p] = wrap(t, y == -1 ? 0 : x % y);
                else
                    r.i[p] = (mx ? y > x : y < x) ? y : x;
            }
            for (int k = 0; k < n; k++)
                fv_free(&v[k]);
            return r;
        }
    }
    for (long p = 0; p < w; p++) {
        int known = 1;
        for (int k = 0; k < n; k++)
            known &= fv_known(&v[k], p);
        if (!known) {
            fv_set_unknown(&r, p);
            continue;
        }
        long p0 = AT(&v[0], p), p1 = n > 1 ? AT(&v[1], p) : 0;
        if (f == NO_MINMAX) {
            int mx = id[1] == 'a';
            if (t.base == TY_INTEGER) {
                long long x = v[0].i[p0];
                for (int k = 1; k < n; k++) {
                    long long y = v[k].i[AT(&v[k], p)];
                    if (mx ? y > x : y < x)
                        x = y;
                }
                r.i[p] = x;
            } else if (t.base == TY_REAL) {
                double x = v[0].r[p0];
                for (int k = 1; k < n; k++) {
                    double y = v[k].r[AT(&v[k], p)];
                    if (mx ? y > x : y < x)
                        x = y;
                }
                r.r[p] = x;
            } else {
                fv_set_unknown(&r, p);
            }
        } else if (t.base == TY_INTEGER) {
            long long a = v[0].i[p0], b = v[1].i[p1], x = 0;
            if (f == NO_MOD || f == NO_MODULO) {
                if (!b) {
                    fi_error_once(fi, e, fi_loc(fi, e), "%s with a zero divisor", id);
                    fv_set_unknown(&r, p);
                    continue;
                }
                x = b == -1 ? 0 : a % b;
                if (f == NO_MODULO && x && (x < 0) != (b < 0))
                    x += b;
            } else if (f == NO_SIGN) {
                long long m = a < 0 ? (long long)(0ULL - (unsigned long long)a) : a;
                x = b >= 0 ? m : (long long)(0ULL - (unsigned long long)m);
            } else {
                x = a > b ? (long long)((unsigned long long)a - (unsigned long long)b) : 0;
            }
            r.i[p] = wrap(t, x);
        } else if (t.base == TY_REAL) {
            double a = v[0].r[p0], b = v[1].r[p1], x;
            if (f == NO_MOD)
                x = fmod(a, b);
            else if (f == NO_MODULO)
                x = b ? a - floor(a / b) * b : fmod(a, b);
            else if (f == NO_SIGN)
                x = copysign(fabs(a), b);
            else
                x = a > b ? a - b : 0;
            r.r[p] = rnd(t, x);
        } else {
            fv_set_unknown(&r, p);
        }
    }
    for (int k = 0; k < n; k++)
        fv_free(&v[k]);
    return r;
}

static Vec ev_chars(Fi *fi, Ctx *c, const Node *e, const char *id);

/* PACK and UNPACK, of whole arrays (replicated copies: the lowering's
 * lower_pack), in array element order. */
static Vec ev_pack(Fi *fi, Ctx *c, const Node *e, int pack)
{
    int r;
    long long ext[MAX_RANK];
    const Node *vn = ast_arg(e, 2, pack ? "vector" : "field");
    Vec a = fi_array(fi, c, ast_arg(e, 0, pack ? "array" : "vector"), &r, ext);
    Vec m = fi_array(fi, c, ast_arg(e, 1, "mask"), &r, ext);
    Vec v = vn ? fi_array(fi, c, vn, &r, ext) : fv_new(a.t, 1);
    fv_convert(&m, T_LOG);
    fv_convert(&v, a.t);
    long n = pack ? a.n : m.n, out = pack ? (vn ? v.n : 0) : n;
    int known = fv_all_known(&m);
    for (long p = 0; pack && !vn && known && p < n; p++)
        out += m.i[AT(&m, p)] != 0;
    fi_step(fi, n);
    Vec res = fv_new(a.t, out > 0 ? out : 1);
    if (!known || out <= 0) {
        for (long q = 0; q < res.n; q++)
            fv_set_unknown(&res, q);
    } else if (pack) {
        long k = 0;
        for (long p = 0; p < n && k < out; p++)
            if (m.i[AT(&m, p)])
                fv_copy_elem(&res, k++, &a, p);
        for (; k < out; k++)
            fv_copy_elem(&res, k, &v, AT(&v, k));
    } else {
        long k = 0;
        for (long p = 0; p < n; p++) {
            if (m.i[AT(&m, p)] && k < a.n)
                fv_copy_elem(&res, p, &a, k++);
            else
                fv_copy_elem(&res, p, &v, AT(&v, p));
        }
    }
    fv_free(&a);
    fv_free(&m);
    fv_free(&v);
    return res;
}

static Vec ev_intrinsic(Fi *fi, Ctx *c, const Node *e)
{
    const char *id = e->u.ref.id;
    Type rt = norm(e->type);
    if (!strcmp(id, "pack") || !strcmp(id, "unpack"))
        return ev_pack(fi, c, e, id[0] == 'p');
    if (!strcmp(id, "len") || !strcmp(id, "len_trim") || !strcmp(id, "trim")
        || !strcmp(id, "adjustl") || !strcmp(id, "adjustr") || !strcmp(id, "index"))
        return ev_chars(fi, c, e, id);
    if (!strcmp(id, "number_of_processors") || !strcmp(id, "hpfrt_nprocs")) {
        Vec v = fv_int(fi->nprocs);
        const Node *dn = ast_arg(e, 0, "dim");
        if (dn) {
            long long d;
            int k;
            Vec x = scalar_int(fi, c, dn, &d, &k);
            fv_free(&x);
            if (k && d != 1)
                v.i[0] = 1;
        }
        fv_convert(&v, T_I4);
        return v;
    }
    if (!strcmp(id, "size") || !strcmp(id, "lbound") || !strcmp(id, "ubound")
        || !strcmp(id, "shape"))
        return bounds_of(fi, c, e, id);
    if (!strcmp(id, "huge") || !strcmp(id, "tiny") || !strcmp(id, "epsilon")
        || !strcmp(id, "kind")) {
        const Node *a = ast_arg(e, 0, "x");
        Type t = norm(a ? a->type : rt);
        Vec v = fv_new(id[0] == 'k' ? T_I4 : t, 1);
        if (id[0] == 'k')
            v.i[0] = t.kind;
        else if (t.base == TY_INTEGER && id[0] == 'h')
            v.i[0] = t.kind == 8 ? LLONG_MAX : INT32_MAX;
        else if (t.base == TY_REAL)
            v.r[0] = id[0] == 'h' ? (t.kind == 8 ? DBL_MAX : FLT_MAX)
                     : id[0] == 't' ? (t.kind == 8 ? DBL_MIN : FLT_MIN)
                     : (t.kind == 8 ? DBL_EPSILON : FLT_EPSILON);
        else
            fv_set_unknown(&v, 0);
        return v;
    }
    if (!strcmp(id, "allocated") || !strcmp(id, "present")) {
        const Node *a = ast_arg(e, 0, id[0] == 'a' ? "array" : "a");
        Vec v = fv_new(T_LOG, 1);
        const Store *s = a && a->kind == AST_NAME && a->u.name.sym
                         ? fi_var(fi, c->fr, a->u.name.sym) : NULL;
        if (s)
            v.i[0] = id[0] == 'a' ? s->allocated : !s->absent;
        else
            fv_set_unknown(&v, 0);
        return v;
    }
    if (is_red(id))
        return reduction(fi, c, e, id);
    if (!strcmp(id, "min") || !strcmp(id, "max")) {
        Vec v[MAX_FFI_ARGS];
        int n = 0;
        for (int i = 0; i < e->u.ref.args.n && n < MAX_FFI_ARGS; i++)
            v[n++] = fi_ev(fi, c, e->u.ref.args.v[i]);
        return numeric_op(fi, e, id, v, n);
    }
    if (!strcmp(id, "mod") || !strcmp(id, "modulo") || !strcmp(id, "sign")
        || !strcmp(id, "dim")) {
        int s = !strcmp(id, "sign"), d = !strcmp(id, "dim");
        Vec v[2] = {arg_vec(fi, c, e, 0, s ? "a" : d ? "x" : "a"),
                    arg_vec(fi, c, e, 1, s ? "b" : d ? "y" : "p")};
        return numeric_op(fi, e, id, v, 2);
    }
    if (!strcmp(id, "merge")) {
        Vec ts = arg_vec(fi, c, e, 0, "tsource"), fs = arg_vec(fi, c, e, 1, "fsource");
        Vec m = arg_vec(fi, c, e, 2, "mask");
        Type t = ts.t.base == TY_CHARACTER ? T_CHAR : promote(ts.t, fs.t);
        fv_convert(&ts, t);
        fv_convert(&fs, t);
        fv_convert(&m, T_LOG);
        Vec all[3] = {ts, fs, m};
        long w = widest(all, 3);
        fi_step(fi, w);
        Vec r = fv_new(t, w);
        for (long p = 0; p < w; p++) {
            if (!fv_known(&m, p))
                fv_set_unknown(&r, p);
            else
                fv_copy_elem(&r, p, m.i[AT(&m, p)] ? &ts : &fs, p);
        }
        fv_free(&ts);
        fv_free(&fs);
        fv_free(&m);
        return r;
    }
    if (!strcmp(id, "int") || !strcmp(id, "real") || !strcmp(id, "dble")
        || !strcmp(id, "float")) {
        Vec v = arg_vec(fi, c, e, 0, "a");
        Type t = id[0] == 'i' ? (rt.base == TY_INTEGER ? rt : T_I4)
                 : id[0] == 'd' ? T_R8 : id[0] == 'f' ? T_R4 : rt.base == TY_REAL ? rt : T_R4;
        fi_step(fi, v.n);
        fv_convert(&v, t);
        return v;
    }
    if (!strcmp(id, "nint") || !strcmp(id, "aint") || !strcmp(id, "anint")
        || !strcmp(id, "floor") || !strcmp(id, "ceiling")) {
        Vec v = arg_vec(fi, c, e, 0, "a");
        fv_convert(&v, v.t.base == TY_INTEGER ? T_R8 : v.t);
        fi_step(fi, v.n);
        int to_i = id[0] == 'n' || id[0] == 'f' || id[0] == 'c';
        Type t = to_i ? (rt.base == TY_INTEGER ? rt : T_I4) : v.t;
        Vec r = fv_new(t, v.n);
        for (long p = 0; p < v.n; p++) {
            if (!fv_known(&v, p))
                fv_set_unknown(&r, p);
            else if (to_i)
                r.i[p] = wrap(t, to_int(id[0] == 'n' ? round(v.r[p]) : id[0] == 'f'
                                        ? floor(v.r[p]) : ceil(v.r[p])));
            else
                r.r[p] = id[1] == 'i' ? trunc(v.r[p]) : round(v.r[p]);
        }
        fv_free(&v);
        return r;
    }
    if (!strcmp(id, "abs")) {
        Vec v = arg_vec(fi, c, e, 0, "a");
        fi_step(fi, v.n);
        Type t = v.t.base == TY_COMPLEX ? (Type){TY_REAL, v.t.kind} : v.t;
        Vec r = fv_new(t, v.n);
        for (long p = 0; p < v.n; p++) {
            if (!fv_known(&v, p))
                fv_set_unknown(&r, p);
            else if (v.t.base == TY_INTEGER)
                r.i[p] = wrap(t, v.i[p] < 0 ? (long long)(0ULL - (unsigned long long)v.i[p])
                                            : v.i[p]);
            else if (v.t.base == TY_REAL)
                r.r[p] = fabs(v.r[p]);
            else
                r.r[p] = rnd(t, hypot(v.r[p], v.im[p]));
        }
        fv_free(&v);
        return r;
    }
    if (!strcmp(id, "cmplx") || !strcmp(id, "aimag") || !strcmp(id, "conjg")) {
        Vec x = arg_vec(fi, c, e, 0, id[0] == 'c' && id[1] == 'm' ? "x" : "z");
        Type t = id[1] == 'm' ? (rt.base == TY_COMPLEX ? rt : (Type){TY_COMPLEX, 4})
                              : (Type){TY_COMPLEX, x.t.base == TY_COMPLEX ? x.t.kind : 4};
        const Node *yn = id[1] == 'm' && x.t.base != TY_COMPLEX ? ast_arg(e, 1, "y") : NULL;
        Vec y = yn ? fi_ev(fi, c, yn) : fv_new(T_R8, 1);
        fv_convert(&x, t);
        fv_convert(&y, (Type){TY_REAL, t.kind});
        Vec all[2] = {x, y};
        long w = widest(all, 2);
        fi_step(fi, w);
        Vec r = fv_new(id[1] == 'i' ? (Type){TY_REAL, t.kind} : t, w);
        for (long p = 0; p < w; p++) {
            if (!fv_known(&x, p) || !fv_known(&y, p)) {
                fv_set_unknown(&r, p);
                continue;
            }
            long px = AT(&x, p);
            if (id[1] == 'i') {
                r.r[p] = x.im[px];
            } else {
                r.r[p] = x.r[px];
                r.im[p] = id[1] == 'o' ? -x.im[px] : yn ? y.r[AT(&y, p)] : x.im[px];
            }
        }
        fv_free(&x);
        fv_free(&y);
        return r;
    }
    /* a C math function of the same name */
    int nargs = 0;
    Vec v[MAX_FFI_ARGS];
    for (int i = 0; i < e->u.ref.args.n && nargs < MAX_FFI_ARGS; i++)
        v[nargs++] = fi_ev(fi, c, e->u.ref.args.v[i]);
    Type t = T_R4;
    for (int k = 0; k < nargs; k++)
        if (v[k].t.base == TY_REAL || v[k].t.base == TY_COMPLEX)
            t = promote(t, v[k].t);
    for (int k = 0; k < nargs; k++) {
        if (v[k].t.base == TY_CHARACTER || v[k].t.base == TY_LOGICAL) {
            for (int j = 0; j < nargs; j++)
                fv_free(&v[j]);
            return unsupported(fi, c, e, "this intrinsic");
        }
        fv_convert(&v[k], t);
    }
    if (!nargs)
        return unsupported(fi, c, e, "this intrinsic");
    Vec r = call_math(fi, e, id, v, nargs);
    if (rt.base == TY_INTEGER)
        fv_convert(&r, rt);
    return r;
}

/* ---- the walk ---- */

/* s(lo:hi) of a CHARACTER scalar: characters lo to hi, from 1 (empty
 * when hi < lo); out of range is an error of the program. */
static Vec ev_substring(Fi *fi, Ctx *c, const Node *e)
{
    const Node *t = e->u.ref.args.v[0];
    Store *st = fi_var(fi, c->fr, e->u.ref.sym);
    Vec s = store_scalar(st);
    Vec lo = t->u.triplet.lo ? fi_ev(fi, c, t->u.triplet.lo) : fv_int(1);
    Vec hi = t->u.triplet.hi ? fi_ev(fi, c, t->u.triplet.hi) : fv_int(-1);
    fv_convert(&lo, T_I8);
    fv_convert(&hi, T_I8);
    Vec all[3] = {s, lo, hi};
    long w = widest(all, 3);
    Vec r = fv_new(T_CHAR, w);
    for (long p = 0; p < w; p++) {
        const char *x = s.s[AT(&s, p)];
        if (!x || !fv_known(&s, p) || !fv_known(&lo, p) || !fv_known(&hi, p)) {
            fv_set_unknown(&r, p);
            continue;
        }
        long long len = (long long)strlen(x), a = lo.i[AT(&lo, p)];
        long long b = t->u.triplet.hi ? hi.i[AT(&hi, p)] : len;
        if (b >= a && (a < 1 || b > len)) {
            fi_error_once(fi, e, fi_loc(fi, e), "substring %lld:%lld of '%s' is outside its "
                          "length %lld", a, b, e->u.ref.id, len);
            fv_set_unknown(&r, p);
            continue;
        }
        long long n = b >= a ? b - a + 1 : 0;
        r.s[p] = xmalloc((size_t)n + 1);
        memcpy(r.s[p], x + (n ? a - 1 : 0), (size_t)n);
        r.s[p][n] = '\0';
    }
    fv_free(&s);
    fv_free(&lo);
    fv_free(&hi);
    return r;
}

/* LEN LEN_TRIM TRIM ADJUSTL ADJUSTR INDEX, element by element. Values
 * are held padded to their declared length, so LEN is the value's. */
static Vec ev_chars(Fi *fi, Ctx *c, const Node *e, const char *id)
{
    Vec a = fi_ev(fi, c, ast_arg(e, 0, "string"));
    const Node *bn = ast_arg(e, 1, "substring"), *kn = ast_arg(e, 2, "back");
    Vec b = bn ? fi_ev(fi, c, bn) : fv_new(T_CHAR, 1);
    Vec k = kn ? fi_ev(fi, c, kn) : fv_int(0);
    if (!bn)
        b.s[0] = xstrdup("");
    Vec all[3] = {a, b, k};
    long w = !strcmp(id, "len") ? 1 : widest(all, 3);
    int text = !strcmp(id, "trim") || !strcmp(id, "adjustl") || !strcmp(id, "adjustr");
    Vec r = fv_new(text ? T_CHAR : T_I4, w);
    fi_step(fi, w);
    for (long p = 0; p < w; p++) {
        const char *x = a.s ? a.s[AT(&a, p)] : NULL, *y = b.s ? b.s[AT(&b, p)] : NULL;
        if (!x || !y || !fv_known(&a, p) || !fv_known(&b, p) || !fv_known(&k, p)) {
            fv_set_unknown(&r, p);
            continue;
        }
        size_t len = strlen(x), tl = len, lead = 0;
        while (tl > 0 && x[tl - 1] == ' ')
            tl--;
        while (lead < len && x[lead] == ' ')
            lead++;
        if (!strcmp(id, "len")) {
            r.i[p] = (long long)len;
        } else if (!strcmp(id, "len_trim")) {
            r.i[p] = (long long)tl;
        } else if (!strcmp(id, "index")) {
            size_t ly = strlen(y);
            long long at = 0;
            for (size_t q = 0; ly <= len && q <= len - ly; q++)
                if (!strncmp(x + q, y, ly)) {
                    at = (long long)q + 1;
                    if (!k.i[AT(&k, p)])
                        break;
                }
            r.i[p] = at;
        } else {
            r.s[p] = xcalloc(len + 1, 1);
            if (id[0] == 't') {
                memcpy(r.s[p], x, tl);
            } else if (id[6] == 'l') {
                memcpy(r.s[p], x + lead, len - lead);
                memset(r.s[p] + len - lead, ' ', lead);
            } else {
                memset(r.s[p], ' ', len - tl);
                memcpy(r.s[p] + len - tl, x, tl);
            }
        }
    }
    fv_free(&a);
    fv_free(&b);
    fv_free(&k);
    return r;
}

static Vec ev_ref(Fi *fi, Ctx *c, const Node *e)
{
    int what = e->u.ref.what;
    const char *id = e->u.ref.id;
    if (what == REF_SUBSTRING)
        return ev_substring(fi, c, e);
    if (what == REF_INTRINSIC && e->ir)
        return ev_red(fi, c, e, e->ir);
    if (what == REF_INTRINSIC)
        return ev_intrinsic(fi, c, e);
    if (what == REF_FUNCTION || what == REF_UNRESOLVED) {
        const SpUnit *u = fi_find_unit(fi, c->fr->unit, id);
        Type rt = norm(e->type);
        if (!u && native_name(id))
            return ev_intrinsic(fi, c, e);
        if (!u) {
            Vec out;
            fi_call_external(fi, c, e, rt, &out);
            return out;
        }
        if (c->n == 1) {
            Vec r;
            fi_call(fi, c, e, u, &r);      /* r is unknown when it could not run */
            fv_convert(&r, rt);
            return r;
        }
        Vec out = fv_new(rt, c->n);
        for (long p = 0; p < c->n; p++) {
            Ctx one;
            ctx_point(c, p, &one);
            Vec r;
            int ok = fi_call(fi, &one, e, u, &r);
            fi_ctx_free(&one);
            if (ok) {
                fv_convert(&r, rt);
                fv_copy_elem(&out, p, &r, 0);
            } else {
                fv_set_unknown(&out, p);
            }
            fv_free(&r);
        }
        return out;
    }
    Store *s = fi_ref_store(fi, c->fr, e);
    if (!s)
        return unsupported(fi, c, e, "this reference");
    return gather(fi, c, e, s);
}

Vec fi_ev(Fi *fi, Ctx *c, const Node *e)
{
    if (!e)
        return fv_unknown(T_I4);
    Type t = norm(e->type);
    if (fi->stopped || c->n == 0)
        return fv_unknown(t);
    switch (e->kind) {
    case AST_INT_CONST: {
        Vec v = fv_new(t.base == TY_INTEGER ? t : T_I4, 1);
        v.i[0] = wrap(v.t, e->u.konst.ival);
        return v;
    }
    case AST_REAL_CONST: {
        Vec v = fv_new(t.base == TY_REAL || t.base == TY_COMPLEX ? t : T_R4, 1);
        v.r[0] = rnd(v.t, e->u.konst.rval);
        return v;
    }
    case AST_LOGICAL_CONST: {
        Vec v = fv_new(T_LOG, 1);
        v.i[0] = e->u.konst.ival != 0;
        return v;
    }
    case AST_STRING_CONST: {
        Vec v = fv_new(T_CHAR, 1);
        v.s[0] = xstrdup(e->u.konst.str ? e->u.konst.str : "");
        return v;
    }
    case AST_COMPLEX_CONST: {
        Vec re = fi_ev(fi, c, e->u.binary.lhs), im = fi_ev(fi, c, e->u.binary.rhs);
        if (t.base != TY_COMPLEX)
            t = (Type){TY_COMPLEX, promote(promote(T_R4, re.t), im.t).kind};
        Type rt = {TY_REAL, t.kind};
        fv_convert(&re, rt);
        fv_convert(&im, rt);
        Vec v = fv_new(t, 1);
        v.r[0] = re.r[0];
        v.im[0] = im.r[0];
        if (!fv_known(&re, 0) || !fv_known(&im, 0))
            fv_set_unknown(&v, 0);
        fv_free(&re);
        fv_free(&im);
        return v;
    }
    case AST_NAME:
        return ev_name(fi, c, e);
    case AST_PAREN:
        return fi_ev(fi, c, e->u.unary.operand);
    case AST_KEYWORD_ARG:
        return fi_ev(fi, c, e->u.kwarg.value);
    case AST_UNARY:
        return ev_unary(fi, c, e);
    case AST_BINARY:
        return ev_binary(fi, c, e);
    case AST_REF:
        return ev_ref(fi, c, e);
    case AST_ARRAY_CTOR:
        return ev_ctor(fi, c, e);
    default:
        return unsupported(fi, c, e, "this expression");
    }
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
            return compare(op, x < y ? -1 : x > y);
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

/* ---- literals: READ data and -D values ---- */

/* text (a Fortran literal: 12, -1.5d0, .true., 'it''s', (1.0, 2.0)) as
 * v's type into v[p]. Returns 0 when it is not a value of that type. */
int fi_parse_literal(const char *text, Type t, Vec *v, long p)
{
    char buf[256];
    while (*text == ' ' || *text == '\t')
        text++;
    snprintf(buf, sizeof buf, "%s", text);
    size_t len = strlen(buf);
    while (len && (buf[len - 1] == ' ' || buf[len - 1] == '\t' || buf[len - 1] == '\r'))
        buf[--len] = 0;
    if (!len)
        return 0;
    t = v->t;
    if (t.base == TY_CHARACTER) {
        char q = buf[0];
        free(v->s[p]);
        if ((q == '\'' || q == '"') && len >= 2 && buf[len - 1] == q) {
            char *s = xmalloc(len), *o = s;
            for (size_t i = 1; i + 1 < len; i++) {
                *o++ = buf[i];
                if (buf[i] == q && buf[i + 1] == q)
                    i++;
            }
            *o = 0;
            v->s[p] = s;
        } else {
            v->s[p] = xstrdup(buf);
        }
        return 1;
    }
    if (t.base == TY_LOGICAL) {
        const char *s = buf[0] == '.' ? buf + 1 : buf;
        int ch = *s | 0x20;
        if (ch != 't' && ch != 'f')
            return 0;
        v->i[p] = ch == 't';
        return 1;
    }
    if (t.base == TY_COMPLEX && buf[0] == '(') {
        char *comma = strchr(buf, ','), *close = strrchr(buf, ')');
        if (!comma || !close || close < comma)
            return 0;
        *comma = *close = 0;
        Vec re = fv_new((Type){TY_REAL, t.kind}, 1), im = fv_new(re.t, 1);
        int ok = fi_parse_literal(buf + 1, re.t, &re, 0) && fi_parse_literal(comma + 1, im.t, &im, 0);
        v->r[p] = re.r[0];
        v->im[p] = im.r[0];
        fv_free(&re);
        fv_free(&im);
        return ok;
    }
    /* a number: a kind suffix dropped, exponent letters d and q read as e */
    char *us = strchr(buf, '_');
    if (us)
        *us = 0;
    int real = 0;
    for (char *s = buf; *s; s++) {
        if (*s == 'd' || *s == 'D' || *s == 'q' || *s == 'Q')
            *s = 'e';
        real |= *s == '.' || *s == 'e' || *s == 'E';
    }
    char *end;
    if (!real) {
        long long x = strtoll(buf, &end, 10);
        if (*end || end == buf)
            return 0;
        if (t.base == TY_INTEGER)
            v->i[p] = wrap(t, x);
        else
            v->r[p] = rnd(t, (double)x);
    } else {
        double x = strtod(buf, &end);
        if (*end || end == buf)
            return 0;
        if (t.base == TY_INTEGER)
            v->i[p] = wrap(t, to_int(x));
        else
            v->r[p] = rnd(t, x);
    }
    if (t.base == TY_COMPLEX)
        v->im[p] = 0;
    return 1;
}
