/* sema_intrinsic.c - the intrinsic procedures of the subset: their table
 * (classes, argument keywords, result types), and the check of a call of
 * one: arguments placed by position and keyword, DIM and KIND arguments,
 * the result's type and shape. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "sema_int.h"

/* ---- the intrinsic procedures of the subset ---- */

static const Intrinsic intrinsics[] = {
    {"abs", I_ELEMENTAL, R_REAL_OF_ARG, 1, 1, "a", 1},
    {"sqrt", I_ELEMENTAL, R_ARG, 1, 1, "x", 2},
    {"exp", I_ELEMENTAL, R_ARG, 1, 1, "x", 2},
    {"log", I_ELEMENTAL, R_ARG, 1, 1, "x", 2},
    {"log10", I_ELEMENTAL, R_ARG, 1, 1, "x", 2},
    {"sin", I_ELEMENTAL, R_ARG, 1, 1, "x", 2},
    {"cos", I_ELEMENTAL, R_ARG, 1, 1, "x", 2},
    {"tan", I_ELEMENTAL, R_ARG, 1, 1, "x", 2},
    {"atan", I_ELEMENTAL, R_ARG, 1, 1, "x", 2},
    {"atan2", I_ELEMENTAL, R_ARG, 2, 2, "y,x", 2},
    {"mod", I_ELEMENTAL, R_ARG, 2, 2, "a,p", 1},
    {"min", I_ELEMENTAL, R_ARG, 2, -1, "", 1},
    {"max", I_ELEMENTAL, R_ARG, 2, -1, "", 1},
    {"sign", I_ELEMENTAL, R_ARG, 2, 2, "a,b", 1},
    {"real", I_ELEMENTAL, R_REAL, 1, 2, "a,kind", 1},
    {"dble", I_ELEMENTAL, R_DBLE, 1, 1, "a", 1},
    {"float", I_ELEMENTAL, R_REAL, 1, 1, "a", 1},
    {"int", I_ELEMENTAL, R_INT, 1, 2, "a,kind", 1},
    {"nint", I_ELEMENTAL, R_INT, 1, 2, "a,kind", 1},
    {"merge", I_ELEMENTAL, R_ARG, 3, 3, "tsource,fsource,mask", 0},
    {"aint", I_ELEMENTAL, R_ARG, 1, 2, "a,kind", 2},
    {"anint", I_ELEMENTAL, R_ARG, 1, 2, "a,kind", 2},
    {"floor", I_ELEMENTAL, R_INT, 1, 2, "a,kind", 2},
    {"ceiling", I_ELEMENTAL, R_INT, 1, 2, "a,kind", 2},
    {"modulo", I_ELEMENTAL, R_ARG, 2, 2, "a,p", 1},
    {"dim", I_ELEMENTAL, R_ARG, 2, 2, "x,y", 1},
    {"asin", I_ELEMENTAL, R_ARG, 1, 1, "x", 2},
    {"acos", I_ELEMENTAL, R_ARG, 1, 1, "x", 2},
    {"sinh", I_ELEMENTAL, R_ARG, 1, 1, "x", 2},
    {"cosh", I_ELEMENTAL, R_ARG, 1, 1, "x", 2},
    {"tanh", I_ELEMENTAL, R_ARG, 1, 1, "x", 2},
    {"huge", I_NUMINQ, R_ARG, 1, 1, "x", 1},
    {"tiny", I_NUMINQ, R_ARG, 1, 1, "x", 2},
    {"epsilon", I_NUMINQ, R_ARG, 1, 1, "x", 2},
    {"kind", I_KIND, R_INT, 1, 1, "x", 0},
    {"cmplx", I_ELEMENTAL, R_CMPLX, 1, 3, "x,y,kind", 1},
    {"aimag", I_ELEMENTAL, R_REAL_OF_ARG, 1, 1, "z", 1},
    {"conjg", I_ELEMENTAL, R_ARG, 1, 1, "z", 1},
    {"selected_real_kind", I_KIND, R_INT, 1, 2, "p,r", 1},
    {"selected_int_kind", I_KIND, R_INT, 1, 1, "r", 1},
    {"sum", I_REDUCE, R_ARG, 1, 3, "array,dim,mask", 1},
    {"product", I_REDUCE, R_ARG, 1, 3, "array,dim,mask", 1},
    {"maxval", I_REDUCE, R_ARG, 1, 3, "array,dim,mask", 1},
    {"minval", I_REDUCE, R_ARG, 1, 3, "array,dim,mask", 1},
    {"count", I_REDUCE, R_INT, 1, 2, "mask,dim", 0},
    {"any", I_REDUCE, R_LOGICAL, 1, 2, "mask,dim", 0},
    {"all", I_REDUCE, R_LOGICAL, 1, 2, "mask,dim", 0},
    {"maxloc", I_LOC, R_INT, 1, 3, "array,dim,mask", 1},
    {"minloc", I_LOC, R_INT, 1, 3, "array,dim,mask", 1},
    {"dot_product", I_DOT, R_ARG, 2, 2, "vector_a,vector_b", 0},
    {"cshift", I_SHIFT, R_ARG, 2, 3, "array,shift,dim", 0},
    {"eoshift", I_SHIFT, R_ARG, 2, 4, "array,shift,boundary,dim", 0},
    {"transpose", I_TRANSPOSE, R_ARG, 1, 1, "matrix", 0},
    {"spread", I_SPREAD, R_ARG, 3, 3, "source,dim,ncopies", 0},
    {"matmul", I_MATMUL, R_ARG, 2, 2, "matrix_a,matrix_b", 0},
    {"reshape", I_RESHAPE, R_ARG, 2, 4, "source,shape,pad,order", 0},
    {"pack", I_PACK, R_ARG, 2, 3, "array,mask,vector", 0},
    {"unpack", I_PACK, R_ARG, 3, 3, "vector,mask,field", 0},
    {"size", I_SIZE, R_INT, 1, 2, "array,dim", 0},
    {"lbound", I_BOUND, R_INT, 1, 2, "array,dim", 0},
    {"ubound", I_BOUND, R_INT, 1, 2, "array,dim", 0},
    {"shape", I_SHAPE, R_INT, 1, 1, "source", 0},
    {"number_of_processors", I_NPROCS, R_INT, 0, 1, "dim", 0},
    {"allocated", I_STATUS, R_LOGICAL, 1, 1, "array", 0},
    {"present", I_STATUS, R_LOGICAL, 1, 1, "a", 0},
    {"len", I_CHARS, R_INT, 1, 1, "string", 0},
    {"trim", I_CHARS, R_ARG, 1, 1, "string", 0},
    {"len_trim", I_ELEMENTAL, R_INT, 1, 1, "string", 0},
    {"adjustl", I_ELEMENTAL, R_ARG, 1, 1, "string", 0},
    {"adjustr", I_ELEMENTAL, R_ARG, 1, 1, "string", 0},
    {"index", I_ELEMENTAL, R_INT, 2, 3, "string,sema_substring,back", 0},
};

/* Standard Fortran procedures outside the subset, refused by name when a
 * program uses one without defining it. */
static const char *const unsupported_intrinsics[] = {
    "dprod",
    "char", "ichar", "achar", "iachar", "transfer",
    "associated", "exponent", "fraction", "nearest",
    "spacing", "scale", "iand", "ior", "ieor", "not", "ishft", "btest", "ibset",
    "ibclr", "precision", "range",
    "digits", "radix", "maxexponent", "minexponent", "random_number",
    "random_seed", "cpu_time", "system_clock", "date_and_time", "lge", "lgt",
    "lle", "llt", "repeat", "scan", "verify", "logical", "sngl", "idint",
    "ifix", "amax1", "amin1", "max0", "min0", "dsqrt", "dexp", "dlog", "dsin",
    "dcos", "dabs", "iabs", "alog", "processors_shape",
};

const Intrinsic *sema_find_intrinsic(const char *name)
{
    for (size_t i = 0; i < sizeof intrinsics / sizeof intrinsics[0]; i++)
        if (strcmp(intrinsics[i].name, name) == 0)
            return &intrinsics[i];
    return NULL;
}

int is_intrinsic_name(const char *name)
{
    return sema_find_intrinsic(name) != NULL;
}

int sema_is_unsupported_intrinsic(const char *name)
{
    for (size_t i = 0; i < sizeof unsupported_intrinsics / sizeof unsupported_intrinsics[0]; i++)
        if (strcmp(unsupported_intrinsics[i], name) == 0)
            return 1;
    return 0;
}

static int place_args(Sema *s, Node *e, const Intrinsic *in, Node **slot, int nslot)
{
    char kw[8][24];
    int nkw = 0;
    for (const char *k = in->keywords; *k && nkw < 8;) {
        size_t len = strcspn(k, ",");
        if (len >= sizeof kw[0])
            len = sizeof kw[0] - 1;
        memcpy(kw[nkw], k, len);
        kw[nkw++][len] = '\0';
        k += len + (k[len] == ',');
    }
    PtrVec *args = &e->u.ref.args;
    int seen_kw = 0;
    for (int i = 0; i < args->n; i++) {
        Node *a = args->v[i];
        int pos = i;
        if (a->kind == AST_KEYWORD_ARG) {
            seen_kw = 1;
            pos = -1;
            for (int k = 0; k < nkw; k++)
                if (strcmp(kw[k], a->u.kwarg.id) == 0)
                    pos = k;
            if (pos < 0) {
                diag_error(s->diag, a->u.kwarg.id_loc, "intrinsic '%s' has no argument named '%s'",
                           in->name, a->u.kwarg.id);
                return 0;
            }
            a = a->u.kwarg.value;
        } else if (seen_kw) {
            diag_error(s->diag, a->loc, "positional argument after a keyword argument");
            return 0;
        } else if (a->kind == AST_TRIPLET) {
            diag_error(s->diag, a->loc, "section triplet as an argument of '%s'", in->name);
            return 0;
        }
        if (pos >= nslot) {
            pos = nslot - 1;   /* MIN and MAX: any number */
            slot[pos] = a;
            continue;
        }
        if (slot[pos]) {
            diag_error(s->diag, a->loc, "argument '%s' of '%s' given twice",
                       pos < nkw ? kw[pos] : "?", in->name);
            return 0;
        }
        slot[pos] = a;
    }
    /* the required ones (the first in->min) given, by position or keyword */
    for (int k = 0; k < in->min && k < nslot && k < nkw; k++)
        if (!slot[k]) {
            diag_error(s->diag, e->loc, "intrinsic '%s' needs its argument '%s'", in->name,
                       kw[k]);
            return 0;
        }
    return 1;
}

static int dim_arg(Sema *s, Node *dim, int rank, const char *name)
{
    long long d;
    if (!dim)
        return 0;
    if (dim->type.base != TY_INTEGER || dim->rank) {
        diag_error(s->diag, dim->loc, "DIM argument of '%s' must be a scalar integer", name);
        return -1;
    }
    if (!sema_int_const(s, dim, &d))
        return -2;   /* not constant: extent unknown */
    if (d < 1 || d > rank) {
        diag_error(s->diag, dim->loc, "DIM=%lld is out of range for an array of rank %d", d, rank);
        return -1;
    }
    return (int)d;
}

/* KIND(x), SELECTED_REAL_KIND(p, r), SELECTED_INT_KIND(r): the kind
 * (Fortran 95 13.14.52, 97, 98), with gfortran's kinds 4 and 8 (the
 * subset's), replaces the reference, so every later stage sees a constant.
 * A precision or range beyond kind 8 is refused: gfortran would answer
 * 10 or 16, which the subset does not have. */
static void fold_kind(Sema *s, Node *e, const Intrinsic *in, Node **slot)
{
    long long k = slot[0]->type.kind;
    if (in->name[0] == 's') {
        long long v[2] = {0, 0};
        for (int i = 0; i < 2; i++)
            if (slot[i] && (slot[i]->type.base != TY_INTEGER || slot[i]->rank
                            || !sema_int_const(s, slot[i], &v[i]))) {
                diag_error(s->diag, slot[i]->loc, "arguments of '%s' must be integer constant "
                           "expressions here", in->name);
                sema_set_error(e);
                return;
            }
        if (in->name[9] == 'r')        /* selected_real_kind: p, r */
            k = v[0] <= 6 && v[1] <= 37 ? 4 : v[0] <= 15 && v[1] <= 307 ? 8 : 0;
        else
            k = v[0] <= 9 ? 4 : v[0] <= 18 ? 8 : 0;
        if (!k) {
            diag_error(s->diag, e->loc, "'%s' asks for more than kind 8 gives: kinds 10 and 16 "
                       "are not supported in the HPF subset", in->name);
            sema_set_error(e);
            return;
        }
    }
    Loc loc = e->loc;
    memset(&e->u, 0, sizeof e->u);
    e->kind = AST_INT_CONST;
    e->loc = loc;
    e->u.konst.ival = k;
    e->u.konst.kind = 4;
    e->u.konst.text = arena_printf(s->arena, "%lld", k);
    e->rank = 0;
    e->type = (Type){TY_INTEGER, 4};
}

void sema_check_intrinsic(Sema *s, Node *e, const Intrinsic *in)
{
    PtrVec *args = &e->u.ref.args;
    e->u.ref.what = REF_INTRINSIC;
    e->u.ref.intr = in;
    if (args->n < in->min || (in->max >= 0 && args->n > in->max)) {
        if (in->max == in->min)
            diag_error(s->diag, e->loc, "intrinsic '%s' takes %d argument%s, %d given",
                       in->name, in->min, in->min == 1 ? "" : "s", args->n);
        else if (in->max < 0)
            diag_error(s->diag, e->loc, "intrinsic '%s' takes at least %d arguments, %d given",
                       in->name, in->min, args->n);
        else
            diag_error(s->diag, e->loc, "intrinsic '%s' takes %d to %d arguments, %d given",
                       in->name, in->min, in->max, args->n);
        sema_set_error(e);
        return;
    }
    for (int i = 0; i < args->n; i++) {
        Node *a = args->v[i];
        if (a->kind == AST_KEYWORD_ARG) {
            sema_expr(s, a->u.kwarg.value);
            a->type = a->u.kwarg.value->type;
            sema_copy_shape(s, a, a->u.kwarg.value);
        } else if (a->kind != AST_TRIPLET) {
            sema_expr(s, a);
        }
        if (sema_is_error(a)) {
            sema_set_error(e);
            return;
        }
    }
    Node *slot[4] = {0};
    int nslot = in->max < 0 ? 2 : in->max;
    if (in->max < 0 || !place_args(s, e, in, slot, nslot > 4 ? 4 : nslot)) {
        if (in->max >= 0) {
            sema_set_error(e);
            return;
        }
        slot[0] = args->v[0];
    }
    Node *a0 = slot[0];
    if (in->numeric_only)
        for (int i = 0; i < args->n; i++) {
            Node *a = args->v[i];
            if (a->kind == AST_KEYWORD_ARG) {
                const char *k = a->u.kwarg.id;
                if (!strcmp(k, "dim") || !strcmp(k, "mask") || !strcmp(k, "kind"))
                    continue;
            }
            if (!is_numeric(a->type) || (in->numeric_only == 2 && a->type.base == TY_INTEGER)) {
                diag_error(s->diag, a->loc, "argument of '%s' must be %s, not %s", in->name,
                           in->numeric_only == 2 ? "real or complex" : "numeric",
                           type_name(a->type));
                sema_set_error(e);
                return;
            }
        }

    static const char *const char_fns[] = {"len", "trim", "len_trim", "adjustl", "adjustr",
                                           "index"};
    for (size_t k = 0; k < sizeof char_fns / sizeof char_fns[0]; k++)
        for (int i = 0; !strcmp(in->name, char_fns[k]) && i < 2 && slot[i]; i++)
            if (slot[i]->type.base != TY_CHARACTER) {
                diag_error(s->diag, slot[i]->loc, "argument of '%s' must be character, not %s",
                           in->name, type_name(slot[i]->type));
                sema_set_error(e);
                return;
            }
    if (!strcmp(in->name, "index") && slot[2] && slot[2]->type.base != TY_LOGICAL) {
        diag_error(s->diag, slot[2]->loc, "BACK argument of 'index' must be logical");
        sema_set_error(e);
        return;
    }

    /* result type */
    Type t = a0 ? a0->type : (Type){TY_INTEGER, 4};
    switch (in->res) {
    case R_ARG: break;
    case R_INT: t = (Type){TY_INTEGER, 4}; break;
    case R_REAL:      /* REAL(z) of a COMPLEX z keeps its kind */
        t = (Type){TY_REAL, a0 && a0->type.base == TY_COMPLEX ? a0->type.kind : 4};
        break;
    case R_CMPLX: t = (Type){TY_COMPLEX, 4}; break;
    case R_DBLE: t = (Type){TY_REAL, 8}; break;
    case R_LOGICAL: t = (Type){TY_LOGICAL, 4}; break;
    case R_REAL_OF_ARG:
        if (t.base == TY_COMPLEX)
            t.base = TY_REAL;
        break;
    }
    Node *kslot = in->res == R_CMPLX ? slot[2] : slot[1];
    if (strstr(in->keywords, "kind") && kslot) {
        long long k;
        if (sema_int_const(s, kslot, &k) && (k == 4 || k == 8))
            t.kind = (unsigned char)k;
        else
            diag_error(s->diag, kslot->loc, "KIND argument must be the constant 4 or 8");
    }
    if ((!strcmp(in->name, "aimag") || !strcmp(in->name, "conjg"))
        && a0->type.base != TY_COMPLEX) {
        diag_error(s->diag, a0->loc, "argument of '%s' must be complex, not %s", in->name,
                   type_name(a0->type));
        sema_set_error(e);
        return;
    }
    if (in->res == R_CMPLX && slot[1] && a0->type.base == TY_COMPLEX) {
        diag_error(s->diag, slot[1]->loc, "'cmplx' of a complex takes no second argument");
        sema_set_error(e);
        return;
    }
    e->type = t;

    /* result shape */
    long long ext[MAX_RANK];
    switch (in->cls) {
    case I_ELEMENTAL: {
        const Node *shape = NULL;
        for (int i = 0; i < args->n; i++) {
            Node *a = args->v[i];
            if (a->kind == AST_KEYWORD_ARG && !strcmp(a->u.kwarg.id, "kind"))
                continue;
            if (shape && !conform(s, shape, a, a->loc, "intrinsic arguments")) {
                sema_set_error(e);
                return;
            }
            if (a->rank && !shape)
                shape = a;
        }
        if (in->res == R_ARG && in->numeric_only && in->max != 1)
            for (int i = 1; i < args->n; i++) {
                Node *a = args->v[i];
                if (a->kind != AST_KEYWORD_ARG && a->type.base != a0->type.base)
                    diag_error(s->diag, a->loc, "arguments of '%s' must have one type "
                               "(%s and %s)", in->name, type_name(a0->type), type_name(a->type));
            }
        if (!strcmp(in->name, "merge") && slot[2] && slot[2]->type.base != TY_LOGICAL)
            diag_error(s->diag, slot[2]->loc, "MASK argument of 'merge' must be logical");
        if (shape)
            sema_copy_shape(s, e, shape);
        break;
    }
    case I_REDUCE: case I_LOC: {
        int is_mask_first = in->res == R_LOGICAL || !strcmp(in->name, "count");
        if (!a0->rank) {
            diag_error(s->diag, a0->loc, "first argument of '%s' must be an array", in->name);
            sema_set_error(e);
            return;
        }
        if (is_mask_first && a0->type.base != TY_LOGICAL)
            diag_error(s->diag, a0->loc, "argument of '%s' must be logical", in->name);
        Node *dim = slot[1];
        Node *mask = is_mask_first ? NULL : slot[2];
        if (mask) {
            if (mask->type.base != TY_LOGICAL)
                diag_error(s->diag, mask->loc, "MASK argument of '%s' must be logical", in->name);
            conform(s, a0, mask, mask->loc, "MASK argument");
        }
        int d = dim_arg(s, dim, a0->rank, in->name);
        if (d == -1) {
            sema_set_error(e);
            return;
        }
        if (!dim) {
            if (in->cls == I_LOC) {
                ext[0] = a0->rank;
                sema_set_shape(s, e, 1, ext);
            }
            break;
        }
        int r = 0;
        for (int i = 0; i < a0->rank; i++)
            if (i + 1 != d)
                ext[r++] = d > 0 && a0->extent ? a0->extent[i] : -1;
        sema_set_shape(s, e, a0->rank - 1, ext);
        break;
    }
    case I_DOT:
        if (a0->rank != 1 || slot[1]->rank != 1) {
            diag_error(s->diag, e->loc, "arguments of 'dot_product' must be rank-1 arrays");
            sema_set_error(e);
            return;
        }
        conform(s, a0, slot[1], e->loc, "arguments of 'dot_product'");
        if (a0->type.base == TY_LOGICAL)
            e->type = (Type){TY_LOGICAL, 4};
        break;
    case I_SHIFT:
        if (!a0->rank) {
            diag_error(s->diag, a0->loc, "ARRAY argument of '%s' must be an array", in->name);
            sema_set_error(e);
            return;
        }
        if (slot[1]->type.base != TY_INTEGER)
            diag_error(s->diag, slot[1]->loc, "SHIFT argument of '%s' must be integer", in->name);
        if (dim_arg(s, !strcmp(in->name, "cshift") ? slot[2] : slot[3], a0->rank, in->name) == -1) {
            sema_set_error(e);
            return;
        }
        sema_copy_shape(s, e, a0);
        break;
    case I_TRANSPOSE:
        if (a0->rank != 2) {
            diag_error(s->diag, a0->loc, "argument of 'transpose' must have rank 2");
            sema_set_error(e);
            return;
        }
        ext[0] = a0->extent[1];
        ext[1] = a0->extent[0];
        sema_set_shape(s, e, 2, ext);
        break;
    case I_SPREAD: {
        if (a0->rank + 1 > MAX_RANK) {
            diag_error(s->diag, e->loc, "SPREAD result would have rank above %d", MAX_RANK);
            sema_set_error(e);
            return;
        }
        int d = dim_arg(s, slot[1], a0->rank + 1, in->name);
        long long nc = -1;
        if (slot[2] && !sema_int_const(s, slot[2], &nc))
            nc = -1;
        if (d == -1) {
            sema_set_error(e);
            return;
        }
        for (int i = 0, r = 0; i <= a0->rank; i++)
            ext[i] = i + 1 == d ? nc : d > 0 && a0->extent ? a0->extent[r++] : -1;
        sema_set_shape(s, e, a0->rank + 1, ext);
        break;
    }
    case I_PACK: {
        /* Fortran 95 13.14.80 and 13.14.114 */
        int pack = in->name[0] == 'p';
        Node *m = slot[1], *v = pack ? slot[2] : a0, *f = pack ? NULL : slot[2];
        const char *bad = NULL;
        if (pack && !a0->rank)
            bad = "the ARRAY of 'pack' must be an array";
        else if (m->type.base != TY_LOGICAL)
            bad = "the MASK of '%s' must be logical";
        else if (!pack && !m->rank)
            bad = "the MASK of 'unpack' must be an array";
        else if (v && (v->rank != 1 || v->type.base != a0->type.base))
            bad = pack ? "the VECTOR of 'pack' must be a rank-1 array of the ARRAY's type"
                       : "the VECTOR of 'unpack' must be a rank-1 array";
        else if (f && f->type.base != a0->type.base)
            bad = "the FIELD of 'unpack' must have the VECTOR's type";
        if (bad) {
            diag_error(s->diag, e->loc, bad, in->name);
            sema_set_error(e);
            return;
        }
        if ((pack && m->rank && !conform(s, a0, m, m->loc, "MASK argument"))
            || (f && f->rank && !conform(s, m, f, f->loc, "FIELD argument"))) {
            sema_set_error(e);
            return;
        }
        if (pack) {
            ext[0] = v && v->extent ? v->extent[0] : -1;
            sema_set_shape(s, e, 1, ext);
        } else {
            sema_copy_shape(s, e, m);
        }
        break;
    }
    case I_RESHAPE: {
        /* Fortran 95 13.14.90; SHAPE an array constructor of scalars, so
           that its size is the rank and its items the extents */
        Node *sh = slot[1];
        if (slot[2] || slot[3]) {
            diag_error(s->diag, (slot[2] ? slot[2] : slot[3])->loc, "the PAD and ORDER "
                       "arguments of 'reshape' are not supported in the HPF subset");
            sema_set_error(e);
            return;
        }
        int ok = a0->rank && sh->kind == AST_ARRAY_CTOR && sh->type.base == TY_INTEGER
                 && sh->u.list.items.n >= 1 && sh->u.list.items.n <= MAX_RANK;
        for (int i = 0; ok && i < sh->u.list.items.n; i++) {
            const Node *it = sh->u.list.items.v[i];
            ok = it->kind != AST_IMPLIED_DO && !it->rank;
        }
        if (!ok) {
            diag_error(s->diag, (a0->rank ? sh : a0)->loc, "%s", a0->rank
                       ? "the SHAPE of 'reshape' must be an array constructor of integer "
                         "scalars here, (/ n, m /)"
                       : "the SOURCE of 'reshape' must be an array");
            sema_set_error(e);
            return;
        }
        long long total = 1, have = 1;
        for (int i = 0; i < sh->u.list.items.n; i++) {
            long long k;
            ext[i] = sema_int_const(s, sh->u.list.items.v[i], &k) ? k : -1;
            total = ext[i] >= 0 && total >= 0 ? total * ext[i] : -1;
        }
        for (int d = 0; d < a0->rank; d++)
            have = a0->extent && a0->extent[d] >= 0 && have >= 0 ? have * a0->extent[d] : -1;
        if (total >= 0 && have >= 0 && have < total)
            diag_error(s->diag, e->loc, "'reshape' needs %lld elements, and its SOURCE has "
                       "%lld", total, have);
        sema_set_shape(s, e, sh->u.list.items.n, ext);
        break;
    }
    case I_MATMUL: {
        Node *b = slot[1];
        if (a0->rank < 1 || a0->rank > 2 || b->rank < 1 || b->rank > 2
            || (a0->rank == 1 && b->rank == 1)) {
            diag_error(s->diag, e->loc, "arguments of 'matmul' must be a matrix and a matrix "
                       "or vector");
            sema_set_error(e);
            return;
        }
        long long inner_a = a0->extent[a0->rank - 1], inner_b = b->extent[0];
        if (inner_a >= 0 && inner_b >= 0 && inner_a != inner_b)
            diag_error(s->diag, e->loc, "arguments of 'matmul' do not conform (%lld and %lld)",
                       inner_a, inner_b);
        int r = 0;
        if (a0->rank == 2)
            ext[r++] = a0->extent[0];
        if (b->rank == 2)
            ext[r++] = b->extent[1];
        sema_set_shape(s, e, r, ext);
        break;
    }
    case I_SIZE: case I_BOUND: case I_SHAPE:
        if (!a0->rank) {
            diag_error(s->diag, a0->loc, "argument of '%s' must be an array", in->name);
            sema_set_error(e);
            return;
        }
        if (dim_arg(s, slot[1], a0->rank, in->name) == -1) {
            sema_set_error(e);
            return;
        }
        if (in->cls == I_SHAPE || (in->cls == I_BOUND && !slot[1])) {
            ext[0] = a0->rank;
            sema_set_shape(s, e, 1, ext);
        }
        break;
    case I_NPROCS: case I_NUMINQ:
        break;
    case I_KIND:
        fold_kind(s, e, in, slot);
        break;
    case I_CHARS:
        if (a0->rank && in->name[0] == 't') {
            diag_error(s->diag, a0->loc, "argument of 'trim' must be a scalar");
            sema_set_error(e);
        }
        break;
    case I_STATUS: {
        const Symbol *y = a0->kind == AST_NAME ? a0->u.name.sym : NULL;
        if (in->name[0] == 'p') {
            if (!y || !y->optional || scope_lookup_local(s->scope, y->name) != y) {
                diag_error(s->diag, a0->loc, "the argument of 'present' must be an OPTIONAL "
                           "dummy argument of this procedure");
                sema_set_error(e);
            }
        } else if (!y || !y->allocatable) {
            diag_error(s->diag, a0->loc, "the argument of 'allocated' must be the name of an "
                       "ALLOCATABLE array");
            sema_set_error(e);
        }
        break;
    }
    }
}

/* A function defined in this file, by name. */
