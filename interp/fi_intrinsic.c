/* fi_intrinsic.c - reductions (inline SpRed, whole-array reductions of
 * unlowered code, fi_reduce) and the intrinsics the functional interpreter
 * computes natively: inquiries, numeric, character, PACK and UNPACK. */
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
void fx_fv_copy_elem(Vec *dst, long p, const Vec *src, long q)
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
Vec fx_ev_red(Fi *fi, Ctx *c, const Node *e, const SpRed *sr)
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
            return fx_unsupported(fi, c, e, "reductions nested this deeply");
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

int fx_native_name(const char *id)
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
int fx_elemental_name(const char *id)
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
        return fx_unsupported(fi, c, e, "this inquiry");
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
        Vec x = fx_scalar_int(fi, c, dn, &d0, &k);
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
        return fx_unsupported(fi, c, e, "an array-valued bound inquiry where a scalar is needed");
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
        return fx_unsupported(fi, c, e, "this reduction outside a lowered array statement");
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
            fx_fv_copy_elem(&w, q, &vals, sel[q]);
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

long fx_widest(const Vec *v, int n)
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
    long w = fx_widest(v, n);
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
                fx_fv_copy_elem(&res, k++, &a, p);
        for (; k < out; k++)
            fx_fv_copy_elem(&res, k, &v, AT(&v, k));
    } else {
        long k = 0;
        for (long p = 0; p < n; p++) {
            if (m.i[AT(&m, p)] && k < a.n)
                fx_fv_copy_elem(&res, p, &a, k++);
            else
                fx_fv_copy_elem(&res, p, &v, AT(&v, p));
        }
    }
    fv_free(&a);
    fv_free(&m);
    fv_free(&v);
    return res;
}

Vec fx_ev_intrinsic(Fi *fi, Ctx *c, const Node *e)
{
    const char *id = e->u.ref.id;
    Type rt = norm(e->type);
    if (!strcmp(id, "pack") || !strcmp(id, "unpack"))
        return ev_pack(fi, c, e, id[0] == 'p');
    if (!strcmp(id, "len") || !strcmp(id, "len_trim") || !strcmp(id, "trim")
        || !strcmp(id, "adjustl") || !strcmp(id, "adjustr") || !strcmp(id, "index"))
        return fx_ev_chars(fi, c, e, id);
    if (!strcmp(id, "number_of_processors") || !strcmp(id, "hpfrt_nprocs")) {
        Vec v = fv_int(fi->nprocs);
        const Node *dn = ast_arg(e, 0, "dim");
        if (dn) {
            long long d;
            int k;
            Vec x = fx_scalar_int(fi, c, dn, &d, &k);
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
        long w = fx_widest(all, 3);
        fi_step(fi, w);
        Vec r = fv_new(t, w);
        for (long p = 0; p < w; p++) {
            if (!fv_known(&m, p))
                fv_set_unknown(&r, p);
            else
                fx_fv_copy_elem(&r, p, m.i[AT(&m, p)] ? &ts : &fs, p);
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
        long w = fx_widest(all, 2);
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
            return fx_unsupported(fi, c, e, "this intrinsic");
        }
        fv_convert(&v[k], t);
    }
    if (!nargs)
        return fx_unsupported(fi, c, e, "this intrinsic");
    Vec r = fx_call_math(fi, e, id, v, nargs);
    if (rt.base == TY_INTEGER)
        fv_convert(&r, rt);
    return r;
}
