/* fi_expr.c - expressions for the functional interpreter: one walk of the
 * tree per statement with a vector of values per node (one per point of the
 * iteration space, the contexts of FORALL indices); stores (elements in and
 * out, subscripts and offsets with bounds checks), names and gathered
 * elements, and the operators with Fortran's type promotion and kinds.
 * Vectors are fi_value.c's, whole arrays fi_array.c's, reductions and
 * intrinsics fi_intrinsic.c's, external calls fi_ffi.c's (fi_expr_int.h). */
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

void fx_ctx_point(const Ctx *c, long p, Ctx *out)
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
int fx_ctx_positions(Fi *fi, const Ctx *c, int rank, const long long *ext, Ctx *out)
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
                    Vec x = fx_scalar_int(fi, c, a->u.triplet.lo, &lo, &kl);
                    fv_free(&x);
                }
                if (a->u.triplet.stride) {
                    Vec x = fx_scalar_int(fi, c, a->u.triplet.stride, &st, &ks);
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
            /* v - lo for each point: the subscript's value less the bound,
               modulo 2^64 (a value far outside would overflow a signed
               difference; with extents below 2^60 none wraps into
               [0, ext)), and the offsets so too: they are used only when
               no subscript was out of bounds, and then they are exact */
#define SUB_LOOP(VAL)                                                                   \
    do {                                                                                \
        if (d == 0)                                                                     \
            for (long p = 0; p < n; p++) {                                              \
                unsigned long long v = (unsigned long long)(VAL) - (unsigned long long)lo; \
                bad |= v >= (unsigned long long)ext;                                    \
                o[p] = (long)v;                                                         \
            }                                                                           \
        else                                                                            \
            for (long p = 0; p < n; p++) {                                              \
                unsigned long long v = (unsigned long long)(VAL) - (unsigned long long)lo; \
                bad |= v >= (unsigned long long)ext;                                    \
                o[p] = (long)((unsigned long long)o[p] + v * (unsigned long long)stride); \
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
    fx_ctx_positions(fi, c, r, ext, &pc);
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
    return fx_unsupported(fi, c, e, "this constant");
}

static Vec ev_name(Fi *fi, Ctx *c, const Node *e)
{
    const Symbol *y = e->u.name.sym;
    if (!y) {
        Store *s = fi_temp(fi, c->fr, e->u.name.id);
        if (!s)
            return fx_unsupported(fi, c, e, "a name without a symbol");
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
        return fx_unsupported(fi, c, e, "this name");
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

int fx_compare(Op op, int c)
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
    return fx_call_math(fi, e, "pow", args, 2);
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
        /* as fx_compare() on x < y ? -1 : x > y ? 1 : x == y ? 0 : 2 (NaN) */
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
                r.i[p] = fx_compare(op, cmp_str(x, y));
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
                    r.i[p] = fx_compare(op, a.i[pa] < b.i[pb] ? -1 : a.i[pa] > b.i[pb]);
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
                default: r.i[p] = fx_compare(op, x < y ? -1 : x > y ? 1 : x == y ? 0 : 2); break;
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
                r.i[p] = fx_compare(op, a.i[pa] < b.i[pb] ? -1 : a.i[pa] > b.i[pb]);
            }
        }
    }
    fv_free(&a);
    fv_free(&b);
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
    long w = fx_widest(all, 3);
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
Vec fx_ev_chars(Fi *fi, Ctx *c, const Node *e, const char *id)
{
    Vec a = fi_ev(fi, c, ast_arg(e, 0, "string"));
    const Node *bn = ast_arg(e, 1, "substring"), *kn = ast_arg(e, 2, "back");
    Vec b = bn ? fi_ev(fi, c, bn) : fv_new(T_CHAR, 1);
    Vec k = kn ? fi_ev(fi, c, kn) : fv_int(0);
    if (!bn)
        b.s[0] = xstrdup("");
    Vec all[3] = {a, b, k};
    long w = !strcmp(id, "len") ? 1 : fx_widest(all, 3);
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
        return fx_ev_red(fi, c, e, e->ir);
    if (what == REF_INTRINSIC)
        return fx_ev_intrinsic(fi, c, e);
    if (what == REF_FUNCTION || what == REF_UNRESOLVED) {
        const SpUnit *u = fi_find_unit(fi, c->fr->unit, id);
        Type rt = norm(e->type);
        if (!u && fx_native_name(id))
            return fx_ev_intrinsic(fi, c, e);
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
            fx_ctx_point(c, p, &one);
            Vec r;
            int ok = fi_call(fi, &one, e, u, &r);
            fi_ctx_free(&one);
            if (ok) {
                fv_convert(&r, rt);
                fx_fv_copy_elem(&out, p, &r, 0);
            } else {
                fv_set_unknown(&out, p);
            }
            fv_free(&r);
        }
        return out;
    }
    Store *s = fi_ref_store(fi, c->fr, e);
    if (!s)
        return fx_unsupported(fi, c, e, "this reference");
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
        return fx_ev_ctor(fi, c, e);
    default:
        return fx_unsupported(fi, c, e, "this expression");
    }
}
