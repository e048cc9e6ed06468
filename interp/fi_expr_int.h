/* fi_expr_int.h - what the files of the functional interpreter's
 * expressions share: the value types, the small helpers on types and
 * vectors (inline: they run per element), and the pieces of the walk each
 * file gives the others, named fx_. fi_value.c: vectors; fi_expr.c: the
 * contexts of FORALL indices, stores, references, operators and the walk
 * (together: they call each other per element); fi_array.c: whole
 * arrays of unlowered code and the scalar fast path; fi_intrinsic.c:
 * reductions and intrinsics; fi_ffi.c: C math and EXTERNAL functions
 * through libffi; fi_io.c: READ and the literals. Not for the rest of the
 * predictor (fi.h, fi_int.h). */
#ifndef HPF_FI_EXPR_INT_H
#define HPF_FI_EXPR_INT_H

#include <complex.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "fi_int.h"

/* element p of a vector, or its only element (a scalar broadcast) */
#define AT(v, p) ((v)->n == 1 ? 0 : (p))

enum { MAX_FFI_ARGS = 16 };

/* ---- types ---- */

/* A usable type: sema's, with what lowering left unset made INTEGER. */
static inline Type norm(Type t)
{
    if (t.base == TY_NONE || t.base == TY_ERROR)
        return T_I4;
    if (t.base == TY_CHARACTER)
        return T_CHAR;
    if (t.kind != 8)
        t.kind = 4;
    return t;
}

static inline int same_type(Type a, Type b)
{
    return a.base == b.base && a.kind == b.kind;
}

/* INTEGER(4) arithmetic wraps at 32 bits, as gfortran's does. */
static inline long long wrap(Type t, long long v)
{
    return t.kind == 4 ? (long long)(int32_t)(uint32_t)(unsigned long long)v : v;
}

/* REAL(4) results are rounded to float after every operation. */
static inline double rnd(Type t, double v)
{
    return t.kind == 4 ? (double)(float)v : v;
}

static inline int numeric(Type t)
{
    return t.base == TY_INTEGER || t.base == TY_REAL || t.base == TY_COMPLEX;
}

/* The type of a numeric operation on a and b (F95 7.1.4.2): the higher of
 * INTEGER < REAL < COMPLEX, the larger kind among the non-integer ones. */
static inline Type promote(Type a, Type b)
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
 * laid out as an array of its two parts (C11 6.2.5). One for each kind
 * (C has no generic function of this). */
static inline double complex mkc(double re, double im)
{
    double complex z;
    double *p = (double *)&z;
    p[0] = re;
    p[1] = im;
    return z;
}

static inline float complex mkcf(float re, float im)
{
    float complex z;
    float *p = (float *)&z;
    p[0] = re;
    p[1] = im;
    return z;
}

static inline long long to_int(double x)
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

/* fv_new without clearing: for a caller that writes every value. */
static inline Vec fv_alloc(Type t, long n)
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

static inline Vec fv_int(long long x)
{
    Vec v = fv_new(T_I8, 1);
    v.i[0] = x;
    return v;
}

static inline int fv_all_known(const Vec *v)
{
    if (!v->k)
        return 1;
    for (long p = 0; p < v->n; p++)
        if (!v->k[p])
            return 0;
    return 1;
}

static inline Vec unknown_n(Type t, long n)
{
    Vec v = fv_new(t, n);
    for (long p = 0; p < v.n; p++)
        fv_set_unknown(&v, p);
    return v;
}

/* ---- the pieces of the walk ---- */

Vec fx_call_math(Fi *fi, const Node *e, const char *name, Vec *args, int nargs);
int fx_compare(Op op, int c);
void fx_ctx_point(const Ctx *c, long p, Ctx *out);
int fx_ctx_positions(Fi *fi, const Ctx *c, int rank, const long long *ext, Ctx *out);
int fx_elemental_name(const char *id);
Vec fx_ev_chars(Fi *fi, Ctx *c, const Node *e, const char *id);
Vec fx_ev_ctor(Fi *fi, Ctx *c, const Node *e);
Vec fx_ev_intrinsic(Fi *fi, Ctx *c, const Node *e);
Vec fx_ev_red(Fi *fi, Ctx *c, const Node *e, const SpRed *sr);
void fx_fv_copy_elem(Vec *dst, long p, const Vec *src, long q);
int fx_native_name(const char *id);
Vec fx_scalar_int(Fi *fi, Ctx *c, const Node *e, long long *v, int *known);
Vec fx_unsupported(Fi *fi, Ctx *c, const Node *e, const char *what);
long fx_widest(const Vec *v, int n);

#endif
