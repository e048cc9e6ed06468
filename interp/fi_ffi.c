/* fi_ffi.c - C math functions (sqrt, atan2, ..., pow) and EXTERNAL
 * functions of the program or of --load libraries, called through libffi
 * for the functional interpreter. */
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

/* ---- libffi: C math functions and EXTERNAL functions ---- */


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
Vec fx_call_math(Fi *fi, const Node *e, const char *name, Vec *args, int nargs)
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
