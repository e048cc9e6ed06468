/* sema_expr.c - expressions: name resolution, the intrinsic table, types,
 * ranks and shapes (conformance of elemental operations), and the folding
 * of constant expressions (PARAMETER values, bounds, directive arguments).
 * Rules: Fortran 95 7.1 (expressions), 13 (intrinsics), 2.4.5 (conformance). */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "sema_int.h"

/* ---- the intrinsic procedures of the subset ---- */

typedef enum {
    I_ELEMENTAL,     /* result: the operands' conformed shape */
    I_REDUCE,        /* SUM PRODUCT MAXVAL MINVAL COUNT ANY ALL: [DIM=] drops a dimension */
    I_LOC,           /* MAXLOC MINLOC */
    I_DOT,           /* DOT_PRODUCT */
    I_SHIFT,         /* CSHIFT EOSHIFT: the array's shape */
    I_TRANSPOSE, I_SPREAD, I_MATMUL,
    I_RESHAPE,       /* RESHAPE (SOURCE, SHAPE): the rank SHAPE's size gives */
    I_PACK,          /* PACK: rank 1; UNPACK: the mask's shape */
    I_SIZE,          /* SIZE, and LBOUND/UBOUND with DIM= */
    I_BOUND,         /* LBOUND UBOUND */
    I_SHAPE,
    I_NPROCS,        /* NUMBER_OF_PROCESSORS */
    I_NUMINQ,        /* HUGE TINY EPSILON: a scalar of the argument's type */
    I_KIND,          /* KIND SELECTED_REAL_KIND SELECTED_INT_KIND: folded to a constant */
    I_STATUS,        /* ALLOCATED PRESENT: of an ALLOCATABLE array, an OPTIONAL dummy */
    I_CHARS          /* LEN TRIM: of a character scalar (LEN: or array), a scalar */
} IntrClass;

typedef enum {
    R_ARG,           /* the first argument's type */
    R_INT, R_REAL, R_DBLE, R_LOGICAL,
    R_REAL_OF_ARG,   /* REAL of the argument's kind (ABS of COMPLEX) */
    R_CMPLX          /* COMPLEX (default kind, or KIND=) */
} IntrResult;

typedef struct Intrinsic {
    const char *name;
    IntrClass cls;
    IntrResult res;
    int min, max;        /* argument counts; max -1: any */
    const char *keywords;/* argument keywords, in order, comma-separated */
    int numeric_only;    /* arguments must be numeric; 2: REAL or COMPLEX */
} Intrinsic;

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
    {"index", I_ELEMENTAL, R_INT, 2, 3, "string,substring,back", 0},
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

static const Intrinsic *find_intrinsic(const char *name)
{
    for (size_t i = 0; i < sizeof intrinsics / sizeof intrinsics[0]; i++)
        if (strcmp(intrinsics[i].name, name) == 0)
            return &intrinsics[i];
    return NULL;
}

int is_intrinsic_name(const char *name)
{
    return find_intrinsic(name) != NULL;
}

static int is_unsupported_intrinsic(const char *name)
{
    for (size_t i = 0; i < sizeof unsupported_intrinsics / sizeof unsupported_intrinsics[0]; i++)
        if (strcmp(unsupported_intrinsics[i], name) == 0)
            return 1;
    return 0;
}

/* ---- helpers ---- */

int is_numeric(Type t)
{
    return t.base == TY_INTEGER || t.base == TY_REAL || t.base == TY_COMPLEX;
}

static int is_error(const Node *e)
{
    return e->type.base == TY_ERROR;
}

static void set_type(Node *e, TypeBase b, int kind)
{
    e->type = (Type){(unsigned char)b, (unsigned char)kind};
}

static void set_error(Node *e)
{
    set_type(e, TY_ERROR, 0);
    e->rank = 0;
}

static void set_shape(Sema *s, Node *e, int rank, const long long *ext)
{
    e->rank = rank;
    e->extent = NULL;
    if (!rank)
        return;
    e->extent = arena_alloc(s->arena, (size_t)rank * sizeof *e->extent);
    for (int i = 0; i < rank; i++)
        e->extent[i] = ext ? ext[i] : -1;
}

static void copy_shape(Sema *s, Node *to, const Node *from)
{
    set_shape(s, to, from->rank, from->extent);
}

static long long sym_extent(const Symbol *y, int d)
{
    if (!y->bounds_known[d])
        return -1;
    long long n = y->hi[d] - y->lo[d] + 1;
    return n < 0 ? 0 : n;
}

/* Two shapes conform when ranks agree and known extents are equal; a scalar
 * conforms with anything (F95 2.4.5). Reports and returns 0 otherwise. */
int conform(Sema *s, const Node *a, const Node *b, Loc loc, const char *what)
{
    if (!a->rank || !b->rank || is_error(a) || is_error(b))
        return 1;
    if (a->rank != b->rank) {
        diag_error(s->diag, loc, "%s: rank %d and rank %d do not conform", what, a->rank,
                   b->rank);
        return 0;
    }
    for (int i = 0; i < a->rank; i++)
        if (a->extent && b->extent && a->extent[i] >= 0 && b->extent[i] >= 0
            && a->extent[i] != b->extent[i]) {
            diag_error(s->diag, loc, "%s: extents %lld and %lld differ in dimension %d",
                       what, a->extent[i], b->extent[i], i + 1);
            return 0;
        }
    return 1;
}

/* The conformed shape of two operands: the array one, known extents first. */
static void join_shape(Sema *s, Node *e, const Node *a, const Node *b)
{
    const Node *src = a->rank ? a : b;
    copy_shape(s, e, src);
    if (a->rank && b->rank && e->extent)
        for (int i = 0; i < e->rank; i++)
            if (e->extent[i] < 0 && b->extent)
                e->extent[i] = b->extent[i];
}

Symbol *sema_lookup(Sema *s, const char *name)
{
    for (int i = s->indices.n - 1; i >= 0; i--) {
        Symbol *y = s->indices.v[i];
        if (strcmp(y->name, name) == 0)
            return y;
    }
    for (Scope *k = s->scope; k; k = k->parent) {
        Symbol *e = scope_entry(k, name);
        if (e && e->ambiguous) {
            diag_error(s->diag, s->at, "'%s' is accessible from both module '%s' and module "
                       "'%s': rename one in its USE (local => %s)", name,
                       e->alias->module ? e->alias->module->u.unit.id : "?", e->ambiguous, name);
            e->ambiguous = NULL;       /* said once */
        }
        if (e)
            break;
    }
    return scope_lookup(s->scope, name);
}

/* A name used but never declared: a variable of the implicit type, or an
 * error under IMPLICIT NONE (the symbol is made all the same, typed as an
 * error, so one message is given per name). */
Symbol *sema_implicit(Sema *s, const char *name, Node *where)
{
    Scope *sc = s->scope;
    Symbol *y = scope_add(s->arena, sc, name, SYM_VARIABLE, where);
    Type t = {TY_NONE, 0};
    for (Scope *k = sc; k; k = k->parent) {
        if (k->implicit_none)
            break;
        t = k->implicit[name[0] - 'a'];
        break;
    }
    int use_failed = 0;
    for (Scope *k = sc; k; k = k->parent)
        use_failed |= k->use_failed;
    if (t.base == TY_NONE) {
        if (!use_failed)   /* else the missing module may have given it */
            diag_error(s->diag, where->loc, "'%s' is not declared (IMPLICIT NONE is in effect)",
                       name);
        t = (Type){TY_ERROR, 0};
    }
    y->type = t;
    return y;
}

/* ---- checking ---- */

static void check_name(Sema *s, Node *e)
{
    Symbol *y = sema_lookup(s, e->u.name.id);
    if (!y)
        y = sema_implicit(s, e->u.name.id, e);
    e->u.name.sym = y;
    switch (y->kind) {
    case SYM_VARIABLE: case SYM_PARAMETER: case SYM_INDEX:
        e->type = y->type;
        if (y->kind == SYM_VARIABLE && !y->typed && y->type.base == TY_NONE) {
            /* a dummy in a bound, typed later or by the implicit rules */
            e->type = s->scope->implicit[y->name[0] - 'a'];
            if (e->type.base == TY_NONE)
                e->type = (Type){TY_INTEGER, 4};
        }
        set_shape(s, e, y->rank, NULL);
        for (int d = 0; d < y->rank; d++)
            e->extent[d] = sym_extent(y, d);
        return;
    case SYM_FUNCTION:
        diag_error(s->diag, e->loc, "function '%s' used without an argument list", y->name);
        break;
    default:
        diag_error(s->diag, e->loc, "%s '%s' cannot be used in an expression",
                   sym_kind_name(y->kind), y->name);
        break;
    }
    set_error(e);
}

static void check_subscripts(Sema *s, Node *e, Symbol *y)
{
    PtrVec *args = &e->u.ref.args;
    if (args->n != y->rank) {
        diag_error(s->diag, e->loc, "array '%s' has rank %d but %d subscript%s given", y->name,
                   y->rank, args->n, args->n == 1 ? " is" : "s are");
        set_error(e);
        return;
    }
    long long ext[MAX_RANK];
    int rank = 0;
    for (int d = 0; d < args->n; d++) {
        Node *a = args->v[d];
        if (a->kind == AST_KEYWORD_ARG) {
            diag_error(s->diag, a->loc, "keyword argument in the subscripts of array '%s'",
                       y->name);
            set_error(e);
            return;
        }
        if (a->kind == AST_TRIPLET) {
            Node *parts[3] = {a->u.triplet.lo, a->u.triplet.hi, a->u.triplet.stride};
            long long v[3];
            int known[3];
            for (int k = 0; k < 3; k++) {
                known[k] = 0;
                if (!parts[k])
                    continue;
                sema_expr(s, parts[k]);
                if (!is_error(parts[k]) && (parts[k]->type.base != TY_INTEGER || parts[k]->rank))
                    diag_error(s->diag, parts[k]->loc, "section bound must be a scalar integer");
                known[k] = sema_int_const(s, parts[k], &v[k]);
            }
            if (!parts[0] && y->bounds_known[d]) {
                v[0] = y->lo[d];
                known[0] = 1;
            }
            if (!parts[1] && y->bounds_known[d]) {
                v[1] = y->hi[d];
                known[1] = 1;
            }
            if (!parts[2]) {
                v[2] = 1;
                known[2] = 1;
            }
            if (known[2] && v[2] == 0) {
                diag_error(s->diag, a->loc, "section stride is zero");
                known[2] = 0;
            }
            long long n = -1;
            if (known[0] && known[1] && known[2]) {
                n = (v[1] - v[0] + v[2]) / v[2];
                if (n < 0)
                    n = 0;
            }
            ext[rank++] = n;
            set_type(a, TY_INTEGER, 4);
            continue;
        }
        sema_expr(s, a);
        if (is_error(a))
            continue;
        if (a->type.base != TY_INTEGER) {
            diag_error(s->diag, a->loc, "subscript of '%s' must be an integer, not %s",
                       y->name, type_name(a->type));
        } else if (a->rank == 1) {
            ext[rank++] = a->extent ? a->extent[0] : -1;   /* vector subscript */
        } else if (a->rank > 1) {
            diag_error(s->diag, a->loc, "subscript of '%s' has rank %d (a vector subscript "
                       "must have rank 1)", y->name, a->rank);
        }
    }
    e->type = y->type;
    e->u.ref.what = rank ? REF_SECTION : REF_ELEMENT;
    set_shape(s, e, rank, ext);
}

/* Keyword arguments to positions; returns 0 after an error. */
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
                set_error(e);
                return;
            }
        if (in->name[9] == 'r')        /* selected_real_kind: p, r */
            k = v[0] <= 6 && v[1] <= 37 ? 4 : v[0] <= 15 && v[1] <= 307 ? 8 : 0;
        else
            k = v[0] <= 9 ? 4 : v[0] <= 18 ? 8 : 0;
        if (!k) {
            diag_error(s->diag, e->loc, "'%s' asks for more than kind 8 gives: kinds 10 and 16 "
                       "are not supported in the HPF subset", in->name);
            set_error(e);
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

static void check_intrinsic(Sema *s, Node *e, const Intrinsic *in)
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
        set_error(e);
        return;
    }
    for (int i = 0; i < args->n; i++) {
        Node *a = args->v[i];
        if (a->kind == AST_KEYWORD_ARG) {
            sema_expr(s, a->u.kwarg.value);
            a->type = a->u.kwarg.value->type;
            copy_shape(s, a, a->u.kwarg.value);
        } else if (a->kind != AST_TRIPLET) {
            sema_expr(s, a);
        }
        if (is_error(a)) {
            set_error(e);
            return;
        }
    }
    Node *slot[4] = {0};
    int nslot = in->max < 0 ? 2 : in->max;
    if (in->max < 0 || !place_args(s, e, in, slot, nslot > 4 ? 4 : nslot)) {
        if (in->max >= 0) {
            set_error(e);
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
                set_error(e);
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
                set_error(e);
                return;
            }
    if (!strcmp(in->name, "index") && slot[2] && slot[2]->type.base != TY_LOGICAL) {
        diag_error(s->diag, slot[2]->loc, "BACK argument of 'index' must be logical");
        set_error(e);
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
        set_error(e);
        return;
    }
    if (in->res == R_CMPLX && slot[1] && a0->type.base == TY_COMPLEX) {
        diag_error(s->diag, slot[1]->loc, "'cmplx' of a complex takes no second argument");
        set_error(e);
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
                set_error(e);
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
            copy_shape(s, e, shape);
        break;
    }
    case I_REDUCE: case I_LOC: {
        int is_mask_first = in->res == R_LOGICAL || !strcmp(in->name, "count");
        if (!a0->rank) {
            diag_error(s->diag, a0->loc, "first argument of '%s' must be an array", in->name);
            set_error(e);
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
            set_error(e);
            return;
        }
        if (!dim) {
            if (in->cls == I_LOC) {
                ext[0] = a0->rank;
                set_shape(s, e, 1, ext);
            }
            break;
        }
        int r = 0;
        for (int i = 0; i < a0->rank; i++)
            if (i + 1 != d)
                ext[r++] = d > 0 && a0->extent ? a0->extent[i] : -1;
        set_shape(s, e, a0->rank - 1, ext);
        break;
    }
    case I_DOT:
        if (a0->rank != 1 || slot[1]->rank != 1) {
            diag_error(s->diag, e->loc, "arguments of 'dot_product' must be rank-1 arrays");
            set_error(e);
            return;
        }
        conform(s, a0, slot[1], e->loc, "arguments of 'dot_product'");
        if (a0->type.base == TY_LOGICAL)
            e->type = (Type){TY_LOGICAL, 4};
        break;
    case I_SHIFT:
        if (!a0->rank) {
            diag_error(s->diag, a0->loc, "ARRAY argument of '%s' must be an array", in->name);
            set_error(e);
            return;
        }
        if (slot[1]->type.base != TY_INTEGER)
            diag_error(s->diag, slot[1]->loc, "SHIFT argument of '%s' must be integer", in->name);
        if (dim_arg(s, !strcmp(in->name, "cshift") ? slot[2] : slot[3], a0->rank, in->name) == -1) {
            set_error(e);
            return;
        }
        copy_shape(s, e, a0);
        break;
    case I_TRANSPOSE:
        if (a0->rank != 2) {
            diag_error(s->diag, a0->loc, "argument of 'transpose' must have rank 2");
            set_error(e);
            return;
        }
        ext[0] = a0->extent[1];
        ext[1] = a0->extent[0];
        set_shape(s, e, 2, ext);
        break;
    case I_SPREAD: {
        if (a0->rank + 1 > MAX_RANK) {
            diag_error(s->diag, e->loc, "SPREAD result would have rank above %d", MAX_RANK);
            set_error(e);
            return;
        }
        int d = dim_arg(s, slot[1], a0->rank + 1, in->name);
        long long nc = -1;
        if (slot[2] && !sema_int_const(s, slot[2], &nc))
            nc = -1;
        if (d == -1) {
            set_error(e);
            return;
        }
        for (int i = 0, r = 0; i <= a0->rank; i++)
            ext[i] = i + 1 == d ? nc : d > 0 && a0->extent ? a0->extent[r++] : -1;
        set_shape(s, e, a0->rank + 1, ext);
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
            set_error(e);
            return;
        }
        if ((pack && m->rank && !conform(s, a0, m, m->loc, "MASK argument"))
            || (f && f->rank && !conform(s, m, f, f->loc, "FIELD argument"))) {
            set_error(e);
            return;
        }
        if (pack) {
            ext[0] = v && v->extent ? v->extent[0] : -1;
            set_shape(s, e, 1, ext);
        } else {
            copy_shape(s, e, m);
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
            set_error(e);
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
            set_error(e);
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
        set_shape(s, e, sh->u.list.items.n, ext);
        break;
    }
    case I_MATMUL: {
        Node *b = slot[1];
        if (a0->rank < 1 || a0->rank > 2 || b->rank < 1 || b->rank > 2
            || (a0->rank == 1 && b->rank == 1)) {
            diag_error(s->diag, e->loc, "arguments of 'matmul' must be a matrix and a matrix "
                       "or vector");
            set_error(e);
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
        set_shape(s, e, r, ext);
        break;
    }
    case I_SIZE: case I_BOUND: case I_SHAPE:
        if (!a0->rank) {
            diag_error(s->diag, a0->loc, "argument of '%s' must be an array", in->name);
            set_error(e);
            return;
        }
        if (dim_arg(s, slot[1], a0->rank, in->name) == -1) {
            set_error(e);
            return;
        }
        if (in->cls == I_SHAPE || (in->cls == I_BOUND && !slot[1])) {
            ext[0] = a0->rank;
            set_shape(s, e, 1, ext);
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
            set_error(e);
        }
        break;
    case I_STATUS: {
        const Symbol *y = a0->kind == AST_NAME ? a0->u.name.sym : NULL;
        if (in->name[0] == 'p') {
            if (!y || !y->optional || scope_lookup_local(s->scope, y->name) != y) {
                diag_error(s->diag, a0->loc, "the argument of 'present' must be an OPTIONAL "
                           "dummy argument of this procedure");
                set_error(e);
            }
        } else if (!y || !y->allocatable) {
            diag_error(s->diag, a0->loc, "the argument of 'allocated' must be the name of an "
                       "ALLOCATABLE array");
            set_error(e);
        }
        break;
    }
    }
}

/* A function defined in this file, by name. */
static Node *find_unit(Sema *s, const char *name)
{
    const Symbol *y = sema_lookup(s, name);
    if (y && y->module && y->unit && (y->kind == SYM_FUNCTION || y->kind == SYM_SUBROUTINE))
        return y->unit;            /* a module procedure, by USE or in its module */
    for (Scope *k = s->scope; k; k = k->parent)
        if (k->unit)
            for (int i = 0; i < k->unit->u.unit.contains.n; i++) {
                Node *u = k->unit->u.unit.contains.v[i];
                if (strcmp(u->u.unit.id, name) == 0)
                    return u;
            }
    PtrVec *units = &s->file->u.list.items;
    for (int i = 0; i < units->n; i++) {
        Node *u = units->v[i];
        if (u->u.unit.id && strcmp(u->u.unit.id, name) == 0 && u->u.unit.which != UNIT_MODULE)
            return u;
    }
    return NULL;
}

static Type unit_result_type(Sema *s, Node *u, Loc loc)
{
    if (u->u.unit.rtype) {
        Type t = {(unsigned char)u->u.unit.rtype->base, 4};
        if (u->u.unit.rtype->dbl)
            t.kind = 8;
        else if (u->u.unit.rtype->kind) {
            long long k;
            if (sema_int_const(s, u->u.unit.rtype->kind, &k))
                t.kind = (unsigned char)k;
        } else if (u->u.unit.rtype->star)
            t.kind = (unsigned char)u->u.unit.rtype->star;
        return t;
    }
    /* typed inside the function, or by its own implicit rules */
    const char *rname = u->u.unit.result ? u->u.unit.result : u->u.unit.id;
    for (int i = 0; i < u->u.unit.body.n; i++) {
        Node *d = u->u.unit.body.v[i];
        if (d->kind != AST_TYPE_DECL)
            continue;
        for (int j = 0; j < d->u.decl.entities.n; j++) {
            Node *en = d->u.decl.entities.v[j];
            if (strcmp(en->u.entity.id, rname) == 0) {
                Type t = {(unsigned char)d->u.decl.spec.base, d->u.decl.spec.dbl ? 8 : 4};
                long long k;
                if (d->u.decl.spec.kind && sema_int_const(s, d->u.decl.spec.kind, &k))
                    t.kind = (unsigned char)k;
                return t;
            }
        }
    }
    int none = 0;
    for (int i = 0; i < u->u.unit.body.n; i++) {
        Node *d = u->u.unit.body.v[i];
        if (d->kind == AST_IMPLICIT && d->u.implicit.none)
            none = 1;
    }
    if (none) {
        diag_error(s->diag, loc, "function '%s' has no declared type", u->u.unit.id);
        return (Type){TY_ERROR, 0};
    }
    char c = rname[0];
    return (Type){c >= 'i' && c <= 'n' ? TY_INTEGER : TY_REAL, 4};
}

/* The actuals of a CALL or function reference e of a procedure of the
 * file u (NULL: an external one), checked here; matched with u's dummies
 * by sema_match_actuals once every unit has been checked (a dummy's
 * OPTIONAL is known then). A keyword needs the procedure's interface:
 * an external procedure has none. */
void sema_actuals(Sema *s, Node *e, Node *u)
{
    for (int i = 0; i < e->u.ref.args.n; i++) {
        Node *a = e->u.ref.args.v[i];
        if (a->kind == AST_TRIPLET) {
            diag_error(s->diag, a->loc, "section triplet in the arguments of procedure '%s'",
                       e->u.ref.id);
            continue;
        }
        if (a->kind == AST_KEYWORD_ARG && !u) {
            diag_error(s->diag, a->u.kwarg.id_loc, "keyword argument '%s=' to '%s', which is "
                       "not a procedure of this file: a keyword needs its interface",
                       a->u.kwarg.id, e->u.ref.id);
            continue;
        }
        Node *v = a->kind == AST_KEYWORD_ARG ? a->u.kwarg.value : a;
        if (v->kind == AST_NAME) {
            Symbol *y = sema_lookup(s, v->u.name.id);
            if (y && (y->kind == SYM_FUNCTION || y->kind == SYM_SUBROUTINE)) {
                v->u.name.sym = y;
                continue;   /* a procedure passed as an argument */
            }
        }
        sema_expr(s, v);
        if (a != v) {
            a->type = v->type;
            copy_shape(s, a, v);
        }
    }
    if (u) {
        vec_push(NULL, &s->calls, e);
        vec_push(NULL, &s->calls, u);
    }
}

/* An actual that must go by position to the dummy it fills, or that the
 * SPMD lowering must see at its dummy's position: a mapped array or an
 * element or section of one. */
static const Symbol *mapped_actual(const Node *a)
{
    const Symbol *y = a->kind == AST_NAME ? a->u.name.sym
                      : a->kind == AST_REF && (a->u.ref.what == REF_ELEMENT
                                               || a->u.ref.what == REF_SECTION)
                      ? a->u.ref.sym : NULL;
    return y && (y->distribute || y->align) ? y : NULL;
}

/* The actuals of a reference e to u in the order of u's dummies: those by
 * keyword put at their dummy's position (plain positional arguments, as
 * every later stage reads them), up to the first OPTIONAL dummy left out;
 * the ones after it stay keyword arguments, which the SPMD program passes
 * as such (a module or internal procedure: its interface is known). */
void sema_match_actuals(Sema *s, Node *e, Node *u)
{
    const PtrVec *dummies = &u->u.unit.args;
    int nd = dummies->n, na = e->u.ref.args.n, npos = 0;
    while (npos < na && ((Node *)e->u.ref.args.v[npos])->kind != AST_KEYWORD_ARG)
        npos++;
    if (npos > nd) {
        diag_error(s->diag, e->loc, "'%s' takes %d argument%s, %d given", u->u.unit.id, nd,
                   nd == 1 ? "" : "s", na);
        return;
    }
    if (npos < na && !u->u.unit.host) {
        const Node *k = e->u.ref.args.v[npos];
        diag_error(s->diag, k->u.kwarg.id_loc, "keyword argument '%s=' to '%s', an external "
                   "procedure: a keyword needs its interface (make it a module or internal "
                   "procedure)", k->u.kwarg.id, u->u.unit.id);
        return;
    }
    Node **slot = xcalloc((size_t)nd + 1, sizeof *slot);
    for (int i = 0; i < npos; i++)
        slot[i] = e->u.ref.args.v[i];
    int bad = 0;
    for (int i = npos; i < na && !bad; i++) {
        Node *a = e->u.ref.args.v[i];
        int j = 0;
        while (j < nd && strcmp(((Node *)dummies->v[j])->u.name.id, a->u.kwarg.id))
            j++;
        if (j == nd)
            diag_error(s->diag, a->u.kwarg.id_loc, "'%s' has no dummy argument named '%s'",
                       u->u.unit.id, a->u.kwarg.id), bad = 1;
        else if (slot[j])
            diag_error(s->diag, a->loc, "argument '%s' of '%s' is given twice", a->u.kwarg.id,
                       u->u.unit.id), bad = 1;
        else
            slot[j] = a;
    }
    int omitted = -1;
    for (int j = 0; j < nd && !bad; j++) {
        const Node *d = dummies->v[j];
        const Symbol *y = d->u.name.sym;
        if (slot[j])
            continue;
        if (!y || !y->optional) {
            if (na < nd && !(na - npos))
                diag_error(s->diag, e->loc, "'%s' takes %d argument%s, %d given", u->u.unit.id,
                           nd, nd == 1 ? "" : "s", na);
            else
                diag_error(s->diag, e->loc, "argument '%s' of '%s' is missing (it is not "
                           "OPTIONAL)", d->u.name.id, u->u.unit.id);
            bad = 1;
        } else if (omitted < 0) {
            omitted = j;
        }
    }
    if (!bad && omitted >= 0 && !u->u.unit.host) {
        diag_error(s->diag, e->loc, "'%s' is called with OPTIONAL arguments left out: that "
                   "needs its interface, which an external procedure does not have (make it a "
                   "module or internal procedure)", u->u.unit.id);
        bad = 1;
    }
    for (int j = omitted + 1; omitted >= 0 && j < nd && !bad; j++) {
        const Node *a = slot[j];
        const Symbol *m = a ? mapped_actual(a->u.kwarg.value) : NULL;
        if (m) {
            diag_error(s->diag, a->loc, "the mapped array '%s' goes to '%s' after an OPTIONAL "
                       "argument left out: the SPMD lowering passes mapped arrays by position "
                       "only (give the arguments before it)", m->name, u->u.unit.id);
            bad = 1;
        }
    }
    if (!bad) {
        PtrVec args = {0};
        for (int j = 0; j < nd; j++) {
            Node *a = slot[j];
            if (!a)
                continue;
            if (a->kind == AST_KEYWORD_ARG && (omitted < 0 || j < omitted))
                a = a->u.kwarg.value;
            vec_push(s->arena, &args, a);
        }
        e->u.ref.args = args;
    }
    free(slot);
}

/* An external function of the file referenced where its name has no
 * declared type takes the implicit type of the referencing unit (the call
 * has no explicit interface): it must be the function's result type, as
 * gfortran requires. */
static int implicit_fits(Sema *s, const char *name, Node *e)
{
    Type t = {TY_NONE, 0};
    if (!s->scope->implicit_none)
        t = s->scope->implicit[name[0] - 'a'];
    if (t.base == TY_NONE) {
        diag_error(s->diag, e->loc, "'%s' has no type here (IMPLICIT NONE is in effect): a "
                   "function of the file called without an interface needs one, as in "
                   "'%s, external :: %s'", name, type_name(e->type), name);
    } else if (t.base != e->type.base || t.kind != e->type.kind) {
        diag_error(s->diag, e->loc, "'%s' is %s here by the implicit rules, but the function "
                   "returns %s: declare it, as in '%s, external :: %s'", name, type_name(t),
                   type_name(e->type), type_name(e->type), name);
    } else {
        return 1;
    }
    set_error(e);
    return 0;
}

/* x, a checked numeric expression, as INT(x, kind) or REAL(x, kind) of
 * type t (INTEGER or REAL), checked. */
Node *sema_convert(Sema *s, Node *x, Type t)
{
    Node *c = ast_new(s->arena, AST_REF, x->loc);
    c->u.ref.id = t.base == TY_INTEGER ? "int" : "real";
    Node *k = ast_new(s->arena, AST_INT_CONST, x->loc);
    k->u.konst.ival = t.kind;
    k->u.konst.text = t.kind == 8 ? "8" : "4";
    k->u.konst.kind = 4;
    vec_push(s->arena, &c->u.ref.args, x);
    vec_push(s->arena, &c->u.ref.args, k);
    c->depth = x->depth + 1;
    sema_expr(s, c);
    return c;
}

/* A copy of a statement function's expression n, its dummies (the names
 * of def's left-hand side) replaced by the actuals of ref in parentheses;
 * NULL for what a statement function may not hold here. */
static Node *sf_copy(Sema *s, const Node *n, const Node *def, const Node *ref)
{
    const PtrVec *dummies = &def->u.assign.lhs->u.ref.args;
    Node *c = ast_new(s->arena, n->kind, n->loc);
    c->depth = n->depth;
    switch (n->kind) {
    case AST_INT_CONST: case AST_REAL_CONST: case AST_LOGICAL_CONST: case AST_STRING_CONST:
        c->u.konst = n->u.konst;
        return c;
    case AST_COMPLEX_CONST: case AST_BINARY:
        c->u.binary.op = n->u.binary.op;
        c->u.binary.lhs = sf_copy(s, n->u.binary.lhs, def, ref);
        c->u.binary.rhs = sf_copy(s, n->u.binary.rhs, def, ref);
        return c->u.binary.lhs && c->u.binary.rhs ? c : NULL;
    case AST_UNARY: case AST_PAREN:
        c->u.unary.op = n->u.unary.op;
        c->u.unary.operand = sf_copy(s, n->u.unary.operand, def, ref);
        return c->u.unary.operand ? c : NULL;
    case AST_NAME:
        for (int i = 0; i < dummies->n; i++)
            if (!strcmp(((const Node *)dummies->v[i])->u.name.id, n->u.name.id)) {
                c->kind = AST_PAREN;
                c->u.unary.operand = ref->u.ref.args.v[i];
                c->depth = c->u.unary.operand->depth + 1;
                return c;
            }
        c->u.name.id = n->u.name.id;
        return c;
    case AST_REF:
        c->u.ref.id = n->u.ref.id;
        for (int i = 0; i < n->u.ref.args.n; i++) {
            Node *a = sf_copy(s, n->u.ref.args.v[i], def, ref);
            if (!a)
                return NULL;
            vec_push(s->arena, &c->u.ref.args, a);
        }
        return c;
    case AST_KEYWORD_ARG:
        c->u.kwarg = n->u.kwarg;
        c->u.kwarg.value = sf_copy(s, n->u.kwarg.value, def, ref);
        return c->u.kwarg.value ? c : NULL;
    default:
        return NULL;
    }
}

static const Node *stmt_function_of(Sema *s, const char *name)
{
    for (int i = 0; i < s->stmtfns.n; i++) {
        const Node *d = s->stmtfns.v[i];
        if (!strcmp(d->u.assign.lhs->u.ref.id, name))
            return d;
    }
    return NULL;
}

/* A reference to a statement function: replaced by its expression, the
 * dummies by the actuals, converted to the function's type (its name's
 * type, declared or implicit). */
static void expand_stmt_function(Sema *s, Node *e, const Node *def)
{
    const Node *l = def->u.assign.lhs;
    if (e->u.ref.args.n != l->u.ref.args.n) {
        diag_error(s->diag, e->loc, "statement function '%s' takes %d argument%s, %d given",
                   l->u.ref.id, l->u.ref.args.n, l->u.ref.args.n == 1 ? "" : "s",
                   e->u.ref.args.n);
        set_error(e);
        return;
    }
    /* each actual of its dummy's type: the variable's of that name */
    for (int i = 0; i < e->u.ref.args.n; i++) {
        Node *a = e->u.ref.args.v[i];
        const char *dn = ((const Node *)l->u.ref.args.v[i])->u.name.id;
        sema_expr(s, a);
        Symbol *d = sema_lookup(s, dn);
        Type dt = d ? d->type : s->scope->implicit_none ? (Type){TY_NONE, 0}
                                                        : s->scope->implicit[dn[0] - 'a'];
        if (a->type.base == TY_ERROR || dt.base == TY_NONE || dt.base == TY_ERROR)
            continue;
        if (a->rank || a->type.base != dt.base
            || (a->type.kind != dt.kind && dt.base != TY_CHARACTER)) {
            diag_error(s->diag, a->loc, "argument %d of statement function '%s' is %s%s, its "
                       "dummy '%s' %s", i + 1, l->u.ref.id, a->rank ? "an array of " : "",
                       type_name(a->type), dn, type_name(dt));
            set_error(e);
            return;
        }
    }
    Node *x = s->inlining < 64 ? sf_copy(s, def->u.assign.rhs, def, e) : NULL;
    if (!x) {
        diag_error(s->diag, e->loc, s->inlining < 64
                   ? "statement function '%s' holds what the HPF subset does not expand (only "
                     "scalar operators, names, constants and references)"
                   : "statement function '%s' refers to itself", l->u.ref.id);
        set_error(e);
        return;
    }
    Symbol *f = sema_lookup(s, l->u.ref.id);
    Type t = f ? f->type : (Type){TY_NONE, 0};
    if (!f) {
        Scope *sc = s->scope;
        t = sc->implicit_none ? (Type){TY_NONE, 0} : sc->implicit[l->u.ref.id[0] - 'a'];
    }
    if (t.base == TY_NONE) {
        diag_error(s->diag, e->loc, "statement function '%s' has no type (IMPLICIT NONE is in "
                   "effect)", l->u.ref.id);
        set_error(e);
        return;
    }
    s->inlining++;
    sema_expr(s, x);
    s->inlining--;
    if (x->type.base == TY_ERROR) {
        set_error(e);
        return;
    }
    if ((x->type.base != t.base || x->type.kind != t.kind) && is_numeric(x->type)
        && (t.base == TY_INTEGER || t.base == TY_REAL))
        x = sema_convert(s, x, t);
    Loc loc = e->loc;
    *e = *x;
    e->loc = loc;
}

/* s(lo:hi), of a CHARACTER scalar variable (Fortran 95 6.1.1): lo and hi
 * scalar integers, either omitted; no stride. */
static void substring(Sema *s, Node *e, Symbol *y)
{
    Node *t = e->u.ref.args.v[0];
    if (t->u.triplet.stride) {
        diag_error(s->diag, t->loc, "a substring has no stride");
        set_error(e);
        return;
    }
    for (int k = 0; k < 2; k++) {
        Node *b = k ? t->u.triplet.hi : t->u.triplet.lo;
        if (!b)
            continue;
        sema_expr(s, b);
        if (b->type.base != TY_ERROR && (b->type.base != TY_INTEGER || b->rank)) {
            diag_error(s->diag, b->loc, "a substring bound must be a scalar integer");
            set_error(e);
            return;
        }
    }
    e->u.ref.what = REF_SUBSTRING;
    e->u.ref.sym = y;
    e->type = y->type;
}

static void check_ref(Sema *s, Node *e)
{
    const char *name = e->u.ref.id;
    const Node *sfdef = stmt_function_of(s, name);
    if (sfdef) {
        expand_stmt_function(s, e, sfdef);
        return;
    }
    Symbol *y = sema_lookup(s, name);
    if (y && (y->kind == SYM_VARIABLE || y->kind == SYM_INDEX) && y->rank) {
        e->u.ref.sym = y;
        check_subscripts(s, e, y);
        return;
    }
    if (y && y->kind == SYM_VARIABLE && y->type.base == TY_ERROR) {
        set_error(e);
        return;
    }
    if (y && y->kind == SYM_VARIABLE && !y->rank && y->type.base == TY_CHARACTER
        && e->u.ref.args.n == 1 && ((Node *)e->u.ref.args.v[0])->kind == AST_TRIPLET) {
        substring(s, e, y);
        return;
    }
    Node *u = find_unit(s, name);
    int external = y && y->kind == SYM_VARIABLE && (y->external || (u && !y->assigned));
    if (y && !external && y->kind != SYM_FUNCTION && !(y->intrinsic)) {
        if (y->kind == SYM_SUBROUTINE)
            diag_error(s->diag, e->loc, "'%s' is a subroutine: use CALL", name);
        else if (y->kind == SYM_VARIABLE || y->kind == SYM_INDEX || y->kind == SYM_PARAMETER)
            diag_error(s->diag, e->loc, "'%s' is a scalar %s and cannot be subscripted (declare "
                       "it EXTERNAL if it is a function)", name,
                       y->kind == SYM_PARAMETER ? "constant" : "variable");
        else
            diag_error(s->diag, e->loc, "%s '%s' cannot be used in an expression",
                       sym_kind_name(y->kind), name);
        set_error(e);
        return;
    }
    const Intrinsic *in = (!y || y->intrinsic) && !u ? find_intrinsic(name) : NULL;
    if (in) {
        check_intrinsic(s, e, in);
        return;
    }
    if (u && u->u.unit.which == UNIT_SUBROUTINE) {
        diag_error(s->diag, e->loc, "'%s' is a subroutine: use CALL", name);
        set_error(e);
        return;
    }
    if (u && u == s->scope->unit && !u->u.unit.recursive) {
        diag_error(s->diag, e->loc, "'%s' references itself: declare it RECURSIVE (Fortran "
                   "allows recursion only then)", name);
        set_error(e);
        return;
    }
    if (!u && !y && is_unsupported_intrinsic(name)) {
        diag_error(s->diag, e->loc, "intrinsic '%s' is not supported in the HPF subset", name);
        set_error(e);
        return;
    }
    sema_actuals(s, e, u);
    e->u.ref.what = REF_FUNCTION;
    if (y && y->typed) {
        e->type = y->type;
    } else if (u) {
        e->type = unit_result_type(s, u, e->loc);
        if (!u->u.unit.host && s->scope->unit != u && !implicit_fits(s, name, e))
            return;
    } else {
        Symbol *f = y ? y : sema_implicit(s, name, e);
        if (f->type.base == TY_NONE) {
            diag_error(s->diag, e->loc, "'%s' has no type (IMPLICIT NONE is in effect)", name);
            f->type = (Type){TY_ERROR, 0};
        }
        if (f->type.base == TY_ERROR) {
            set_error(e);
            return;
        }
        e->type = f->type;
    }
    if (y && y->kind == SYM_VARIABLE && !y->rank)
        y->kind = SYM_FUNCTION;
    e->u.ref.sym = y;
}

static const char *op_kind(Op op)
{
    switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_POW: return "arithmetic";
    case OP_CONCAT: return "concat";
    case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE: return "relational";
    default: return "logical";
    }
}

static void check_binary(Sema *s, Node *e)
{
    Node *l = e->u.binary.lhs, *r = e->u.binary.rhs;
    sema_expr(s, l);
    sema_expr(s, r);
    if (is_error(l) || is_error(r)) {
        set_error(e);
        return;
    }
    Op op = e->u.binary.op;
    const char *k = op_kind(op);
    char what[64];
    snprintf(what, sizeof what, "operands of '%s'", op_spelling[op]);
    if (!conform(s, l, r, e->loc, what)) {
        set_error(e);
        return;
    }
    join_shape(s, e, l, r);
    Type lt = l->type, rt = r->type;
    if (!strcmp(k, "arithmetic")) {
        if (!is_numeric(lt) || !is_numeric(rt)) {
            diag_error(s->diag, e->loc, "operands of '%s' must be numeric (%s and %s)",
                       op_spelling[op], type_name(lt), type_name(rt));
            set_error(e);
            return;
        }
        Type t = lt.base > rt.base ? lt : rt;
        if (lt.base == rt.base)
            t.kind = lt.kind > rt.kind ? lt.kind : rt.kind;
        else if (lt.base != TY_INTEGER && rt.base != TY_INTEGER)
            t.kind = lt.kind > rt.kind ? lt.kind : rt.kind;
        e->type = t;
    } else if (!strcmp(k, "concat")) {
        if (lt.base != TY_CHARACTER || rt.base != TY_CHARACTER) {
            diag_error(s->diag, e->loc, "operands of '//' must be character");
            set_error(e);
            return;
        }
        set_type(e, TY_CHARACTER, 1);
    } else if (!strcmp(k, "relational")) {
        int ok = (is_numeric(lt) && is_numeric(rt))
                 || (lt.base == TY_CHARACTER && rt.base == TY_CHARACTER);
        if (ok && (lt.base == TY_COMPLEX || rt.base == TY_COMPLEX) && op != OP_EQ && op != OP_NE)
            ok = 0;
        if (!ok) {
            diag_error(s->diag, e->loc, "operands of '%s' cannot be compared (%s and %s)%s",
                       op_spelling[op], type_name(lt), type_name(rt),
                       lt.base == TY_LOGICAL && rt.base == TY_LOGICAL ? ": use .eqv. or .neqv."
                                                                       : "");
            set_error(e);
            return;
        }
        set_type(e, TY_LOGICAL, 4);
    } else {
        if (lt.base != TY_LOGICAL || rt.base != TY_LOGICAL) {
            diag_error(s->diag, e->loc, "operands of '%s' must be logical (%s and %s)",
                       op_spelling[op], type_name(lt), type_name(rt));
            set_error(e);
            return;
        }
        set_type(e, TY_LOGICAL, 4);
    }
}

static void push_index(Sema *s, Symbol *y)
{
    vec_push(NULL, &s->indices, y);
}

static void check_implied_do(Sema *s, Node *e)
{
    Node *v = e->u.impdo.var;
    Node *b[3] = {e->u.impdo.lo, e->u.impdo.hi, e->u.impdo.step};
    long long val[3] = {0, 0, 1};
    int known = 1;
    for (int i = 0; i < 3; i++) {
        if (!b[i])
            continue;
        sema_expr(s, b[i]);
        if (!is_error(b[i]) && (b[i]->type.base != TY_INTEGER || b[i]->rank))
            diag_error(s->diag, b[i]->loc, "implied-DO bound must be a scalar integer");
        known &= sema_int_const(s, b[i], &val[i]);
    }
    Symbol *outer = sema_lookup(s, v->u.name.id);
    Symbol *y = arena_alloc(s->arena, sizeof *y);
    y->name = v->u.name.id;
    y->kind = SYM_INDEX;
    y->type = outer ? outer->type : (Type){TY_INTEGER, 4};
    if (!outer && s->scope->implicit_none)
        y->type = (Type){TY_INTEGER, 4};
    else if (!outer)
        y->type = s->scope->implicit[y->name[0] - 'a'];
    if (y->type.base != TY_INTEGER && y->type.base != TY_ERROR)
        diag_error(s->diag, v->loc, "implied-DO variable '%s' must be integer", y->name);
    v->u.name.sym = y;
    v->type = y->type;
    push_index(s, y);
    long long count = 0;
    int count_known = known && val[2] != 0;
    for (int i = 0; i < e->u.impdo.items.n; i++) {
        Node *it = e->u.impdo.items.v[i];
        sema_expr(s, it);
        if (i == 0)
            e->type = it->type;
        if (it->rank > 1)
            diag_error(s->diag, it->loc, "array constructor item has rank %d", it->rank);
        long long n = it->rank ? (it->extent ? it->extent[0] : -1) : 1;
        if (n < 0)
            count_known = 0;
        count += n;
    }
    s->indices.n--;
    long long trips = 0;
    if (count_known) {
        trips = (val[1] - val[0] + val[2]) / val[2];
        if (trips < 0)
            trips = 0;
    }
    long long ext = count_known ? trips * count : -1;
    set_shape(s, e, 1, &ext);
}

static void check_ctor(Sema *s, Node *e)
{
    long long total = 0;
    int known = 1;
    PtrVec *items = &e->u.list.items;
    for (int i = 0; i < items->n; i++) {
        Node *it = items->v[i];
        sema_expr(s, it);
        if (is_error(it)) {
            set_error(e);
            return;
        }
        if (i == 0)
            e->type = it->type;
        else if (it->type.base != e->type.base)
            diag_error(s->diag, it->loc, "array constructor items must have one type (%s and %s)",
                       type_name(e->type), type_name(it->type));
        else if (it->type.kind > e->type.kind)
            e->type.kind = it->type.kind;
        if (it->rank > 1)
            diag_error(s->diag, it->loc, "array constructor item has rank %d", it->rank);
        long long n = it->rank ? (it->extent ? it->extent[0] : -1) : 1;
        if (n < 0)
            known = 0;
        total += n;
    }
    long long ext = known ? total : -1;
    set_shape(s, e, 1, &ext);
}

/* The kind of a constant whose suffix names a PARAMETER (1.0_dp): the
 * text becomes the numeric spelling (1.0_8), which is what the SPMD
 * program is given. */
static int named_kind(Sema *s, Node *e)
{
    const char *us = strchr(e->u.konst.text, '_');
    Symbol *y = sema_lookup(s, us + 1);
    if (!y || y->kind != SYM_PARAMETER || !y->value.known || y->value.type.base != TY_INTEGER
        || (y->value.i != 4 && y->value.i != 8)) {
        diag_error(s->diag, e->loc, "kind parameter '%s' in '%s' must be an integer named "
                   "constant equal to 4 or 8", us + 1, e->u.konst.text);
        set_error(e);
        return 0;
    }
    e->u.konst.kind = (int)y->value.i;
    e->u.konst.text = arena_printf(s->arena, "%.*s_%d", (int)(us - e->u.konst.text),
                                   e->u.konst.text, e->u.konst.kind);
    return 1;
}

void sema_expr(Sema *s, Node *e)
{
    s->at = e->loc;
    switch (e->kind) {
    case AST_INT_CONST:
        if (!e->u.konst.kind && !named_kind(s, e))
            break;
        set_type(e, TY_INTEGER, e->u.konst.kind);
        break;
    case AST_REAL_CONST:
        if (!e->u.konst.kind && !named_kind(s, e))
            break;
        set_type(e, TY_REAL, e->u.konst.kind);
        break;
    case AST_LOGICAL_CONST:
        set_type(e, TY_LOGICAL, 4);
        break;
    case AST_STRING_CONST:
        set_type(e, TY_CHARACTER, 1);
        break;
    case AST_COMPLEX_CONST: {
        Node *re = e->u.binary.lhs, *im = e->u.binary.rhs;
        sema_expr(s, re);
        sema_expr(s, im);
        if (!is_numeric(re->type) || !is_numeric(im->type) || re->rank || im->rank
            || !sema_fold(s, re).known || !sema_fold(s, im).known) {
            diag_error(s->diag, e->loc, "complex constant needs two numeric constants "
                       "(general expressions in parentheses cannot be separated by ',')");
            set_error(e);
            break;
        }
        set_type(e, TY_COMPLEX, re->type.kind > im->type.kind ? re->type.kind : im->type.kind);
        break;
    }
    case AST_NAME:
        check_name(s, e);
        break;
    case AST_REF:
        check_ref(s, e);
        break;
    case AST_BINARY:
        check_binary(s, e);
        break;
    case AST_UNARY: case AST_PAREN: {
        Node *o = e->u.unary.operand;
        sema_expr(s, o);
        e->type = o->type;
        copy_shape(s, e, o);
        if (is_error(o))
            break;
        if (e->u.unary.op == OP_NOT && o->type.base != TY_LOGICAL) {
            diag_error(s->diag, e->loc, "operand of '.not.' must be logical, not %s",
                       type_name(o->type));
            set_error(e);
        } else if ((e->u.unary.op == OP_NEG || e->u.unary.op == OP_PLUS) && !is_numeric(o->type)) {
            diag_error(s->diag, e->loc, "operand of unary '%s' must be numeric, not %s",
                       op_spelling[e->u.unary.op], type_name(o->type));
            set_error(e);
        }
        break;
    }
    case AST_ARRAY_CTOR:
        check_ctor(s, e);
        break;
    case AST_IMPLIED_DO:
        check_implied_do(s, e);
        break;
    case AST_TRIPLET:
        diag_error(s->diag, e->loc, "section triplet outside an array subscript");
        set_error(e);
        break;
    case AST_KEYWORD_ARG:
        diag_error(s->diag, e->loc, "keyword argument '%s=' outside an argument list",
                   e->u.kwarg.id);
        set_error(e);
        break;
    case AST_STAR:
        break;
    default:
        fatal("sema_expr: unexpected %s", ast_kind_name[e->kind]);
    }
}

/* ---- constant folding ---- */

static Value int_value(long long i)
{
    return (Value){1, {TY_INTEGER, 4}, i, (double)i};
}

static Value real_value(double r, int kind)
{
    return (Value){1, {TY_REAL, (unsigned char)kind}, 0, r};
}

static double as_real(Value v)
{
    return v.type.base == TY_INTEGER ? (double)v.i : v.r;
}

static Value fold_binary(Sema *s, Node *e, Value a, Value b)
{
    Value none = {0};
    Op op = e->u.binary.op;
    if (a.type.base == TY_LOGICAL && b.type.base == TY_LOGICAL) {
        Value r = {1, {TY_LOGICAL, 4}, 0, 0};
        switch (op) {
        case OP_AND: r.i = a.i && b.i; return r;
        case OP_OR: r.i = a.i || b.i; return r;
        case OP_EQV: r.i = !a.i == !b.i; return r;
        case OP_NEQV: r.i = !a.i != !b.i; return r;
        default: return none;
        }
    }
    if (!is_numeric(a.type) || !is_numeric(b.type) || a.type.base == TY_COMPLEX
        || b.type.base == TY_COMPLEX)
        return none;
    if (op >= OP_EQ && op <= OP_GE) {
        double x = as_real(a), y = as_real(b);
        int both_int = a.type.base == TY_INTEGER && b.type.base == TY_INTEGER;
        int c = both_int ? (a.i > b.i) - (a.i < b.i) : (x > y) - (x < y);
        Value r = {1, {TY_LOGICAL, 4}, 0, 0};
        switch (op) {
        case OP_EQ: r.i = c == 0; break;
        case OP_NE: r.i = c != 0; break;
        case OP_LT: r.i = c < 0; break;
        case OP_LE: r.i = c <= 0; break;
        case OP_GT: r.i = c > 0; break;
        default: r.i = c >= 0; break;
        }
        return r;
    }
    if (a.type.base == TY_INTEGER && b.type.base == TY_INTEGER) {
        long long r = 0;
        int ovf = 0;
        switch (op) {
        case OP_ADD: ovf = __builtin_add_overflow(a.i, b.i, &r); break;
        case OP_SUB: ovf = __builtin_sub_overflow(a.i, b.i, &r); break;
        case OP_MUL: ovf = __builtin_mul_overflow(a.i, b.i, &r); break;
        case OP_DIV:
            if (b.i == 0) {
                diag_error(s->diag, e->loc, "division by zero in a constant expression");
                return none;
            }
            if (a.i == INT64_MIN && b.i == -1)
                ovf = 1;
            else
                r = a.i / b.i;
            break;
        case OP_POW:
            if (b.i < 0) {
                r = a.i == 1 ? 1 : a.i == -1 ? (b.i % 2 ? -1 : 1) : 0;
            } else {
                r = 1;
                for (long long k = 0; k < b.i && !ovf; k++)
                    ovf = __builtin_mul_overflow(r, a.i, &r);
            }
            break;
        default: return none;
        }
        if (ovf) {
            diag_error(s->diag, e->loc, "integer overflow in a constant expression");
            return none;
        }
        return int_value(r);
    }
    double x = as_real(a), y = as_real(b), r;
    switch (op) {
    case OP_ADD: r = x + y; break;
    case OP_SUB: r = x - y; break;
    case OP_MUL: r = x * y; break;
    case OP_DIV: r = x / y; break;
    case OP_POW: r = pow(x, y); break;
    default: return none;
    }
    return real_value(r, e->type.kind);
}

static Value fold_intrinsic(Sema *s, Node *e)
{
    Value none = {0}, v[8];
    const Intrinsic *in = e->u.ref.intr;
    int n = e->u.ref.args.n;
    if (in->cls != I_ELEMENTAL || n > 8 || e->rank)
        return none;
    for (int i = 0; i < n; i++) {
        Node *a = e->u.ref.args.v[i];
        if (a->kind == AST_KEYWORD_ARG)
            a = a->u.kwarg.value;
        v[i] = sema_fold(s, a);
        if (!v[i].known || v[i].type.base == TY_COMPLEX)
            return none;
    }
    const char *f = in->name;
    int isint = v[0].type.base == TY_INTEGER;
    int kind = e->type.kind;
    if (!strcmp(f, "abs"))
        return isint ? int_value(v[0].i < 0 ? -v[0].i : v[0].i) : real_value(fabs(v[0].r), kind);
    if (!strcmp(f, "mod")) {
        if (isint && v[1].type.base == TY_INTEGER) {
            if (v[1].i == 0) {
                diag_error(s->diag, e->loc, "MOD by zero in a constant expression");
                return none;
            }
            return int_value(v[0].i % v[1].i);
        }
        return real_value(fmod(as_real(v[0]), as_real(v[1])), kind);
    }
    if (!strcmp(f, "min") || !strcmp(f, "max")) {
        Value best = v[0];
        for (int i = 1; i < n; i++) {
            int less = isint ? v[i].i < best.i : as_real(v[i]) < as_real(best);
            if (f[1] == 'i' ? less : !less && (isint ? v[i].i != best.i : v[i].r != best.r))
                best = v[i];
        }
        return isint ? best : real_value(as_real(best), kind);
    }
    if (!strcmp(f, "int"))
        return int_value((long long)as_real(v[0]));
    if (!strcmp(f, "nint"))
        return int_value(llround(as_real(v[0])));
    if (!strcmp(f, "real") || !strcmp(f, "dble") || !strcmp(f, "float"))
        return real_value(as_real(v[0]), kind);
    if (!strcmp(f, "sign")) {
        if (isint)
            return int_value((v[0].i < 0 ? -v[0].i : v[0].i) * (v[1].i < 0 ? -1 : 1));
        return real_value(copysign(fabs(v[0].r), as_real(v[1])), kind);
    }
    if (isint)
        return none;
    double x = v[0].r, r;
    if (!strcmp(f, "sqrt")) r = sqrt(x);
    else if (!strcmp(f, "exp")) r = exp(x);
    else if (!strcmp(f, "log")) r = log(x);
    else if (!strcmp(f, "log10")) r = log10(x);
    else if (!strcmp(f, "sin")) r = sin(x);
    else if (!strcmp(f, "cos")) r = cos(x);
    else if (!strcmp(f, "tan")) r = tan(x);
    else if (!strcmp(f, "atan")) r = atan(x);
    else if (!strcmp(f, "atan2")) r = atan2(x, as_real(v[1]));
    else return none;
    return real_value(r, kind);
}

Value sema_fold(Sema *s, Node *e)
{
    Value none = {0};
    if (!e || e->type.base == TY_ERROR || e->rank)
        return none;
    switch (e->kind) {
    case AST_INT_CONST:
        return int_value(e->u.konst.ival);
    case AST_REAL_CONST:
        return real_value(e->u.konst.rval, e->u.konst.kind);
    case AST_LOGICAL_CONST:
        return (Value){1, {TY_LOGICAL, 4}, e->u.konst.ival, 0};
    case AST_NAME:
        if (e->u.name.sym && e->u.name.sym->kind == SYM_PARAMETER)
            return e->u.name.sym->value;
        return none;
    case AST_PAREN:
        return sema_fold(s, e->u.unary.operand);
    case AST_UNARY: {
        Value v = sema_fold(s, e->u.unary.operand);
        if (!v.known)
            return none;
        if (e->u.unary.op == OP_NOT) {
            v.i = !v.i;
        } else if (e->u.unary.op == OP_NEG) {
            if (v.type.base == TY_INTEGER) {
                if (v.i == INT64_MIN)
                    return none;
                v.i = -v.i;
            }
            v.r = -v.r;
        }
        return v;
    }
    case AST_BINARY: {
        Value a = sema_fold(s, e->u.binary.lhs);
        Value b = sema_fold(s, e->u.binary.rhs);
        if (!a.known || !b.known)
            return none;
        Value r = fold_binary(s, e, a, b);
        if (r.known && r.type.base == TY_REAL)
            r.type.kind = e->type.kind;
        return r;
    }
    case AST_REF:
        if (e->u.ref.what == REF_INTRINSIC)
            return fold_intrinsic(s, e);
        return none;
    default:
        return none;
    }
}

int sema_int_const(Sema *s, Node *e, long long *out)
{
    if (!e)
        return 0;
    Value v = sema_fold(s, e);
    if (!v.known || v.type.base != TY_INTEGER)
        return 0;
    *out = v.i;
    return 1;
}
