/* fi_value.c - the values of the functional interpreter: vectors of
 * values (one per point of an iteration space) with known flags, type
 * conversion and widening, and the messages for what it cannot evaluate. */
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

/* ---- small helpers ---- */


Vec fx_unsupported(Fi *fi, Ctx *c, const Node *e, const char *what)
{
    fi_error_once(fi, e, fi_loc(fi, e), "the functional interpreter cannot evaluate %s", what);
    return unknown_n(e->type, 1);
}

Vec fx_scalar_int(Fi *fi, Ctx *c, const Node *e, long long *v, int *known)
{
    Vec x = fi_ev(fi, c, e);
    fv_convert(&x, T_I8);
    *known = x.n == 1 && fv_known(&x, 0);
    *v = x.i[0];
    return x;
}
