/* aag_ops.c - operation counts and access information of the abstraction
 * parse: what one execution of a lowered expression or store costs in the
 * SAG's terms (op.iadd ... lib.exp), and which variables it touches with
 * what stride, for the interpretation engine's processing and cache
 * models. The counts follow what the emitted code runs (frontend/emit.c):
 * a local reference costs no index arithmetic, a gathered one reads its
 * buffer in iteration order, a replicated one computes its subscripts. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aag_int.h"
#include "../runtime/hpfrt.h"

/* ---- small helpers ---- */

/* Bytes of one value of type t. */
int aag_type_size(Type t)
{
    if (t.base == TY_COMPLEX)
        return 2 * (t.kind ? t.kind : 4);
    if (t.base == TY_CHARACTER)
        return 1;
    return t.kind ? t.kind : 4;
}

/* A temporary's name, as the emitted program and the accesses spell it. */
const char *aag_temp_name(Build *B, int temp)
{
    return arena_printf(B->a, "%st%d", B->prog->prefix, temp);
}

/* Element references print as name(global subscripts), inline reductions
 * as their intrinsic's name: text for labels, without the IR's notes. */
int aag_text_hook(Unparse *u, const Node *n, void *ctx)
{
    (void)ctx;
    if (n->kind != AST_REF || !n->ir)
        return 0;
    if (n->u.ref.what == REF_INTRINSIC) {
        const SpRed *sr = n->ir;
        unparse_put(u, n->u.ref.id);
        unparse_put(u, "(");
        unparse_expr(u, sr->body);
        unparse_put(u, ")");
        return 1;
    }
    if (n->u.ref.what != REF_ELEMENT && n->u.ref.what != REF_SECTION)
        return 0;
    const SpRef *r = n->ir;
    unparse_put(u, n->u.ref.id);
    if (!n->u.ref.args.n)
        return 1;
    unparse_put(u, "(");
    for (int d = 0; d < n->u.ref.args.n; d++) {
        if (d)
            unparse_put(u, ", ");
        unparse_expr(u, d < MAX_RANK && r->sub[d] ? r->sub[d] : n->u.ref.args.v[d]);
    }
    unparse_put(u, ")");
    return 1;
}

static char *keep(Build *B, char *heap)
{
    char *s = arena_strdup(B->a, heap);
    free(heap);
    return s;
}

/* Expression and statement text for labels, in the graph's arena. */
char *aag_expr_text(Build *B, const Node *e)
{
    return e ? keep(B, unparse_expr_string(e, aag_text_hook, NULL)) : arena_strdup(B->a, "");
}

char *aag_stmt_text(Build *B, const Node *s)
{
    return keep(B, unparse_stmt_string(s, aag_text_hook, NULL));
}

/* The procedure of the file a CALL or a function reference names, found
 * as sema finds it: the internal procedures of the caller and of its
 * hosts, then those of the file. Sema leaves the symbol unset for them. */
const SpUnit *aag_callee(Build *B, const Node *n)
{
    if (n->kind != AST_CALL && !(n->kind == AST_REF && (n->u.ref.what == REF_FUNCTION
                                                       || n->u.ref.what == REF_UNRESOLVED)))
        return NULL;
    return spmd_callee(B->prog, B->unit, n);
}

/* ---- accumulating counts ---- */

void ops_add_op(AauOps *o, OpClass k, double n)
{
    o->op[k] += n;
}

/* n calls of the library routine costed by SAG parameter param. */
void ops_lib(Build *B, AauOps *o, const char *param, double n)
{
    for (int i = 0; i < o->nlib; i++)
        if (!strcmp(o->lib[i].param, param)) {
            o->lib[i].n += n;
            return;
        }
    /* arrays in the arena grow by copying: the lists are a handful long */
    AauLib *nl = arena_alloc(B->a, (size_t)(o->nlib + 1) * sizeof *nl);
    if (o->nlib)
        memcpy(nl, o->lib, (size_t)o->nlib * sizeof *nl);
    nl[o->nlib].param = arena_strdup(B->a, param);
    nl[o->nlib].n = n;
    o->lib = nl;
    o->nlib++;
}

static long long llabs_(long long v)
{
    return v < 0 ? -v : v;
}

/* Accesses of one variable, merged into its entry. */
void ops_access(Build *B, AauOps *o, const char *var, const SpArr *arr, const Symbol *sym,
                double loads, double stores, long long stride, int elsize, int scalar)
{
    for (int i = 0; i < o->nacc; i++) {
        AauAccess *x = &o->acc[i];
        if (strcmp(x->var, var))
            continue;
        x->loads += loads;
        x->stores += stores;
        /* one entry per variable: the widest stride stands for all */
        if (llabs_(stride) > llabs_(x->stride))
            x->stride = stride;
        return;
    }
    AauAccess *na = arena_alloc(B->a, (size_t)(o->nacc + 1) * sizeof *na);
    if (o->nacc)
        memcpy(na, o->acc, (size_t)o->nacc * sizeof *na);
    na[o->nacc] = (AauAccess){var, arr, sym, loads, stores, stride, elsize, scalar};
    o->acc = na;
    o->nacc++;
}

/* dst += src (a cluster's counts are the sum of its parts'). */
void ops_merge(Build *B, AauOps *dst, const AauOps *src)
{
    for (int k = 0; k < OPC_N; k++)
        dst->op[k] += src->op[k];
    for (int i = 0; i < src->nlib; i++)
        ops_lib(B, dst, src->lib[i].param, src->lib[i].n);
    for (int i = 0; i < src->nacc; i++) {
        const AauAccess *x = &src->acc[i];
        ops_access(B, dst, x->var, x->arr, x->sym, x->loads, x->stores, x->stride, x->elsize,
                   x->scalar);
    }
    dst->calls += src->calls;
    dst->allocs += src->allocs;
    dst->args += src->args;
}

/* n operations (OP_ADD/OP_SUB, OP_MUL, OP_DIV) in the real or integer
 * class of t. */
void ops_arith(AauOps *o, Type t, Op op, double n)
{
    int cls = op == OP_MUL ? 1 : op == OP_DIV ? 2 : 0;
    if (t.base == TY_REAL || t.base == TY_COMPLEX)
        o->op[(t.kind == 8 ? OPC_DADD : OPC_FADD) + cls] += n;
    else
        o->op[OPC_IADD + cls] += n;
}

/* One step of a reduction: combining a value into the accumulator. */
void ops_combine(AauOps *o, int red_op, Type t)
{
    switch (red_op) {
    case HPFRT_SUM:
        ops_arith(o, t, OP_ADD, t.base == TY_COMPLEX ? 2 : 1);
        break;
    case HPFRT_PRODUCT:
        if (t.base == TY_COMPLEX) {
            ops_arith(o, t, OP_MUL, 4);
            ops_arith(o, t, OP_ADD, 2);
        } else {
            ops_arith(o, t, OP_MUL, 1);
        }
        break;
    case HPFRT_MAX: case HPFRT_MIN:
        o->op[OPC_CMP] += 1;
        break;
    default:
        o->op[OPC_LOGICAL] += 1;
        break;
    }
}

/* ---- strides ---- */

/* The coefficient of v in e: 1 and *c set when e is affine in v (c = 0:
 * v does not appear), 0 when v appears otherwise (inside a call, a
 * product of variables, an indirect subscript). */
static int coef_of(const Node *e, const Symbol *v, long long *c)
{
    long long k, a, b;
    *c = 0;
    if (!e)
        return 1;
    switch (e->kind) {
    case AST_NAME:
        *c = e->u.name.sym == v;
        return 1;
    case AST_INT_CONST: case AST_REAL_CONST: case AST_LOGICAL_CONST: case AST_STRING_CONST:
        return 1;
    case AST_PAREN:
        return coef_of(e->u.unary.operand, v, c);
    case AST_UNARY:
        if (!coef_of(e->u.unary.operand, v, &a))
            return 0;
        *c = e->u.unary.op == OP_NEG ? -a : a;
        return 1;
    case AST_BINARY:
        if (!coef_of(e->u.binary.lhs, v, &a) || !coef_of(e->u.binary.rhs, v, &b))
            return 0;
        switch (e->u.binary.op) {
        case OP_ADD: *c = a + b; return 1;
        case OP_SUB: *c = a - b; return 1;
        case OP_MUL:
            if (!a && !b)
                return 1;
            if (!a && cint(e->u.binary.lhs, &k)) {
                *c = k * b;
                return 1;
            }
            if (!b && cint(e->u.binary.rhs, &k)) {
                *c = k * a;
                return 1;
            }
            return 0;
        default:
            return !a && !b;
        }
    default: {
        /* anything else: affine only when v is not in it */
        long long dummy;
        if (e->kind == AST_REF) {
            for (int i = 0; i < e->u.ref.args.n; i++)
                if (!coef_of(e->u.ref.args.v[i], v, &dummy) || dummy)
                    return 0;
            if (e->ir && e->u.ref.what == REF_INTRINSIC)
                return 1;
            if (e->ir && e->u.ref.what == REF_ELEMENT) {
                const SpRef *r = e->ir;
                for (int d = 0; d < MAX_RANK; d++)
                    if (r->sub[d] && (!coef_of(r->sub[d], v, &dummy) || dummy))
                        return 0;
            }
            return 1;
        }
        if (e->kind == AST_KEYWORD_ARG)
            return coef_of(e->u.kwarg.value, v, c);
        return 1;
    }
    }
}

/* Declared extent of dimension d of the array a reference touches. */
static long long extent_of(const SpArr *arr, const Symbol *y, int d)
{
    long long lo, hi;
    if (arr && cint(arr->lo[d], &lo) && cint(arr->hi[d], &hi))
        return hi >= lo ? hi - lo + 1 : 0;
    if (y && d < y->rank && y->bounds_known[d])
        return y->hi[d] >= y->lo[d] ? y->hi[d] - y->lo[d] + 1 : 0;
    return AAG_UNKNOWN_EXTENT;
}

/* Bytes between the elements ref touches in consecutive iterations of the
 * innermost index: the index's coefficient in each subscript times the
 * column-major multiplier of the dimension times the element size (and
 * the index's step). An index that appears other than affinely counts as
 * coefficient 1 there. */
long long ops_ref_stride(OpCtx *c, const Node *ref)
{
    const SpRef *r = ref->ir;
    int el = aag_type_size(ref->type);
    if (!c->inner)
        return 0;
    if (r && r->acc == ACC_TEMP)
        return el;              /* the buffer is read in iteration order */
    const SpArr *arr = r ? r->arr : NULL;
    const Symbol *y = arr && arr->sym ? arr->sym : ref->u.ref.sym;
    long long mult = 1, stride = 0;
    int rank = ref->u.ref.args.n;
    for (int d = 0; d < rank && d < MAX_RANK; d++) {
        const Node *s = r && r->sub[d] ? r->sub[d] : ref->u.ref.args.v[d];
        long long k;
        if (!coef_of(s, c->inner, &k))
            k = 1;
        stride += k * mult;
        mult *= extent_of(arr, y, d);
    }
    return stride * el * c->step;
}

/* ---- expressions ---- */

/* A scalar variable or temporary read or written (registers: no memory
 * cost, but the cache model sees it). */
static void access_name(OpCtx *c, const Node *n, double loads, double stores)
{
    const Symbol *y = n->u.name.sym;
    if (y && (y->kind != SYM_VARIABLE || y->rank))
        return;                 /* constants, indices, procedures, whole arrays */
    ops_access(c->B, c->ops, y ? y->name : n->u.name.id, NULL, y, loads, stores, 0,
               aag_type_size(n->type), 1);
}

/* An element read or written: its array, or a gathered value's buffer. */
static void access_ref(OpCtx *c, const Node *ref, double loads, double stores)
{
    const SpRef *r = ref->ir;
    if (r && r->acc == ACC_TEMP) {
        ops_access(c->B, c->ops, aag_temp_name(c->B, r->g->buf), NULL, NULL, loads, stores,
                   ops_ref_stride(c, ref), aag_type_size(ref->type), 0);
        return;
    }
    const SpArr *arr = r ? r->arr : NULL;
    const Symbol *y = arr ? arr->sym : ref->u.ref.sym;
    const char *name = arr ? arr->name : ref->u.ref.id;
    ops_access(c->B, c->ops, name, arr, y, loads, stores, ops_ref_stride(c, ref),
               aag_type_size(ref->type), 0);
}

/* A subscript that is a variable plus or minus an integer constant: the
 * compiler folds the constant into the address's displacement, as it does
 * for the offsets of the loop's local index, so it costs no operation. */
static int displacement(const Node *s)
{
    long long k;
    while (s && s->kind == AST_PAREN)
        s = s->u.unary.operand;
    if (!s)
        return 0;
    if (s->kind == AST_NAME)
        return 1;
    if (s->kind != AST_BINARY || (s->u.binary.op != OP_ADD && s->u.binary.op != OP_SUB))
        return 0;
    const Node *l = s->u.binary.lhs, *r = s->u.binary.rhs;
    while (l->kind == AST_PAREN)
        l = l->u.unary.operand;
    while (r->kind == AST_PAREN)
        r = r->u.unary.operand;
    return (l->kind == AST_NAME && cint(r, &k)) ||
           (s->u.binary.op == OP_ADD && cint(l, &k) && r->kind == AST_NAME);
}

/* The index arithmetic of an element reference, as the emitter writes it. */
static void ref_subscripts(OpCtx *c, const Node *ref)
{
    const SpRef *r = ref->ir;
    if (!r) {
        for (int d = 0; d < ref->u.ref.args.n; d++)
            ops_expr(c, ref->u.ref.args.v[d]);
        return;
    }
    switch (r->acc) {
    case ACC_TEMP:
        return;
    case ACC_LOCAL:
        for (int d = 0; d < ref->u.ref.args.n && d < MAX_RANK; d++) {
            if (r->lvar[d] >= 0 || displacement(r->sub[d]))
                continue;       /* an index plus an offset: addressing */
            ops_expr(c, r->sub[d]);
            if (r->lvar[d] == -2)
                ops_lib(c->B, c->ops, "lib.hpfrt_g2l", 1);
        }
        return;
    case ACC_SCATTER:
        for (int d = 0; d < ref->u.ref.args.n && d < MAX_RANK; d++)
            ops_expr(c, r->sub[d]);
        return;
    default:
        for (int d = 0; d < ref->u.ref.args.n; d++)
            ops_expr(c, ref->u.ref.args.v[d]);
        return;
    }
}

/* Storing into a NAME or an element: the element's index arithmetic and
 * the store. */
void ops_store(OpCtx *c, const Node *lhs)
{
    if (lhs->kind == AST_NAME) {
        access_name(c, lhs, 0, 1);
    } else if (lhs->kind == AST_REF) {
        ref_subscripts(c, lhs);
        access_ref(c, lhs, 0, 1);
    }
}

static int is_int(Type t)
{
    return t.base == TY_INTEGER;
}

static int is_float(Type t)
{
    return t.base == TY_REAL || t.base == TY_COMPLEX;
}

static int multiplies_for(long long k)
{
    int bits = 0, pop = 0;
    for (long long v = k; v > 1; v >>= 1)
        bits++;
    for (long long v = k; v; v >>= 1)
        pop += (int)(v & 1);
    return bits + pop - 1;
}

/* A binary operation: its operands, then the operation in its type's
 * class (mixed-mode operands converted first). */
/* An integer division (mod: the remainder too) by the constant k, which
 * compilers make a multiply by its reciprocal and shifts (a power of two:
 * shifts and a sign correction) instead of a divide: the operations to
 * charge in o. 0 when the divisor is not an integer constant. */
static int const_divide(AauOps *o, const Node *divisor, int remainder)
{
    long long k;
    if (!cint(divisor, &k) || k == 0)
        return 0;
    long long ak = k < 0 ? -k : k;
    int pow2 = (ak & (ak - 1)) == 0;
    o->op[OPC_IADD] += 2 + remainder;
    if (!pow2)
        o->op[OPC_IMUL] += 1 + remainder;
    return 1;
}

static void binary(OpCtx *c, const Node *e)
{
    const Node *l = e->u.binary.lhs, *r = e->u.binary.rhs;
    Op op = e->u.binary.op;
    AauOps *o = c->ops;
    ops_expr(c, l);
    ops_expr(c, r);
    switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: {
        Type t = e->type;
        if (is_float(t)) {      /* mixed mode: the integer operand converted */
            o->op[OPC_ITOF] += is_int(l->type) + is_int(r->type);
        }
        if (op == OP_DIV && is_int(t) && const_divide(o, r, 0))
            break;
        if (t.base != TY_COMPLEX) {
            ops_arith(o, t, op, 1);
            break;
        }
        int lc = l->type.base == TY_COMPLEX, rc = r->type.base == TY_COMPLEX;
        if (op == OP_ADD || op == OP_SUB) {
            ops_arith(o, t, OP_ADD, lc && rc ? 2 : 1);
        } else if (op == OP_MUL) {
            ops_arith(o, t, OP_MUL, lc && rc ? 4 : 2);
            if (lc && rc)
                ops_arith(o, t, OP_ADD, 2);
        } else if (rc) {        /* (a+bi)/(c+di): 6 multiplies, 3 adds, 2 divides */
            ops_arith(o, t, OP_MUL, 6);
            ops_arith(o, t, OP_ADD, 3);
            ops_arith(o, t, OP_DIV, 2);
        } else {
            ops_arith(o, t, OP_DIV, 2);
        }
        break;
    }
    case OP_POW: {
        long long k;
        Type t = e->type;
        if (cint(r, &k) && k >= -64 && k <= 64 && t.base != TY_COMPLEX) {
            /* gfortran expands a constant integer power into multiplies
             * (square and multiply) */
            long long ak = k < 0 ? -k : k;
            if (ak >= 2)
                ops_arith(o, t, OP_MUL, multiplies_for(ak));
            if (k < 0)
                ops_arith(o, t, OP_DIV, 1);
        } else {
            if (is_float(t) && is_int(l->type))
                o->op[OPC_ITOF] += 1;
            ops_lib(c->B, o, "lib.pow", 1);
        }
        break;
    }
    case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
        if ((is_float(l->type) && is_int(r->type)) || (is_int(l->type) && is_float(r->type)))
            o->op[OPC_ITOF] += 1;
        o->op[OPC_CMP] += l->type.base == TY_COMPLEX || r->type.base == TY_COMPLEX ? 2 : 1;
        break;
    case OP_AND: case OP_OR: case OP_EQV: case OP_NEQV:
        o->op[OPC_LOGICAL] += 1;
        break;
    default:
        break;                  /* concatenation: character data, not costed */
    }
}

static const struct {
    const char *specific, *generic;
} lib_names[] = {
    {"dsqrt", "sqrt"}, {"csqrt", "sqrt"}, {"dexp", "exp"}, {"cexp", "exp"},
    {"alog", "log"}, {"dlog", "log"}, {"clog", "log"}, {"alog10", "log10"},
    {"dlog10", "log10"}, {"dsin", "sin"}, {"csin", "sin"}, {"dcos", "cos"},
    {"ccos", "cos"}, {"dtan", "tan"}, {"datan", "atan"}, {"datan2", "atan2"},
    {"dasin", "asin"}, {"dacos", "acos"}, {"dsinh", "sinh"}, {"dcosh", "cosh"},
    {"dtanh", "tanh"}, {"dabs", "abs"}, {"iabs", "abs"}, {"cabs", "abs"},
    {"amod", "mod"}, {"dmod", "mod"}, {"dsign", "sign"}, {"isign", "sign"},
    {"max0", "max"}, {"max1", "max"}, {"amax0", "max"}, {"amax1", "max"},
    {"dmax1", "max"}, {"min0", "min"}, {"min1", "min"}, {"amin0", "min"},
    {"amin1", "min"}, {"dmin1", "min"},
};

static const char *const to_float[] = {"real", "float", "dble", "dfloat", "sngl", "cmplx",
                                       "dcmplx", NULL};
static const char *const to_int[] = {"int", "nint", "idint", "idnint", "ifix", "floor",
                                     "ceiling", NULL};
static const char *const free_fns[] = {"size", "lbound", "ubound", "shape", "kind", "huge",
                                       "allocated",
                                       "tiny", "epsilon", "len", "present", "aimag",
                                       "logical", "ichar", "char", "precision", "digits",
                                       "radix", "range", "maxexponent", "minexponent", NULL};

static int in_list(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(list[i], s))
            return 1;
    return 0;
}

static const Node *arg_value(const Node *a)
{
    return a->kind == AST_KEYWORD_ARG ? a->u.kwarg.value : a;
}

/* ---- the range of an argument ---------------------------------------- */

/* Where a value lies, when the statement's expression says: constants,
 * PARAMETERs and the indices of the enclosing DO and FORALL loops of
 * constant bounds, through + - * / and the type conversions. 1 and [*lo,
 * *hi] set, or 0 when not known (a variable's value, a call). */
static int interval(const Build *B, const Node *e, double *lo, double *hi, int depth)
{
    if (!e || depth > 32)
        return 0;
    switch (e->kind) {
    case AST_INT_CONST:
        *lo = *hi = (double)e->u.konst.ival;
        return 1;
    case AST_REAL_CONST:
        *lo = *hi = e->u.konst.rval;
        return 1;
    case AST_NAME: {
        const Symbol *y = e->u.name.sym;
        if (!y)
            return 0;
        if (y->kind == SYM_PARAMETER && y->value.known &&
            (y->value.type.base == TY_INTEGER || y->value.type.base == TY_REAL)) {
            *lo = *hi = y->value.type.base == TY_INTEGER ? (double)y->value.i : y->value.r;
            return 1;
        }
        for (const IdxRange *r = B->ranges; r; r = r->up)
            if (r->var == y) {
                double a, b, c, d;
                if (!interval(B, r->lo, &a, &b, depth + 1) ||
                    !interval(B, r->hi, &c, &d, depth + 1))
                    return 0;
                *lo = fmin(a, c);       /* a DO of negative step runs from lo down */
                *hi = fmax(b, d);
                return 1;
            }
        return 0;
    }
    case AST_PAREN: case AST_UNARY: {
        double a, b;
        if ((e->kind == AST_UNARY && e->u.unary.op == OP_NOT) ||
            !interval(B, e->u.unary.operand, &a, &b, depth + 1))
            return 0;
        int neg = e->kind == AST_UNARY && e->u.unary.op == OP_NEG;
        *lo = neg ? -b : a;
        *hi = neg ? -a : b;
        return 1;
    }
    case AST_BINARY: {
        double a, b, c, d;
        if (!interval(B, e->u.binary.lhs, &a, &b, depth + 1) ||
            !interval(B, e->u.binary.rhs, &c, &d, depth + 1))
            return 0;
        switch (e->u.binary.op) {
        case OP_ADD: *lo = a + c; *hi = b + d; return 1;
        case OP_SUB: *lo = a - d; *hi = b - c; return 1;
        case OP_MUL: case OP_DIV: {
            if (e->u.binary.op == OP_DIV) {
                if (c <= 0 && d >= 0)
                    return 0;
                double c1 = 1 / d, d1 = 1 / c;
                c = c1;
                d = d1;
            }
            double p[4] = {a * c, a * d, b * c, b * d};
            *lo = fmin(fmin(p[0], p[1]), fmin(p[2], p[3]));
            *hi = fmax(fmax(p[0], p[1]), fmax(p[2], p[3]));
            return isfinite(*lo) && isfinite(*hi);
        }
        default:
            return 0;
        }
    }
    case AST_REF:
        if (e->ir || e->u.ref.what != REF_INTRINSIC || !in_list(to_float, e->u.ref.id) ||
            e->u.ref.args.n != 1 || strcmp(e->u.ref.id, "cmplx") == 0 ||
            strcmp(e->u.ref.id, "dcmplx") == 0)
            return 0;
        return interval(B, arg_value(e->u.ref.args.v[0]), lo, hi, depth + 1);
    default:
        return 0;
    }
}

/* The share of [lo, hi] (uniform) inside [a, b]. */
static double share_in(double lo, double hi, double a, double b)
{
    if (hi <= lo)
        return lo >= a && lo <= b;
    return fmax(0, fmin(hi, b) - fmax(lo, a)) / (hi - lo);
}

/* Library functions whose time depends on where the argument lies (REAL(8),
 * as glibc's libm computes them; doc/predict.md): the share of the calls
 * in the slower class, charged to the class's SAG parameter (lib.sin.reduced),
 * which falls back to the function's own when the SAG has none.
 * sin and cos reduce |x| >= 2.426265 modulo pi/2 first (glibc's s_sin.c;
 * below, a polynomial); exp returns a subnormal number, the slow path, for
 * x in [-745.13, -708.40] (its result below DBL_MIN). */
static const struct {
    const char *fn, *cls;
    double a, b;             /* the class: a <= x <= b, or |x| >= a when b is 0 */
} arg_classes[] = {
    {"sin", "reduced", 2.426265, 0},
    {"cos", "reduced", 2.426265, 0},
    {"exp", "subnormal", -745.1332191019412, -708.3964185322641},
};

static void lib_by_argument(OpCtx *c, const char *g, const Node *a0, const char *param)
{
    double lo, hi, f = 0;
    size_t i = 0;
    while (i < sizeof arg_classes / sizeof arg_classes[0] && strcmp(arg_classes[i].fn, g))
        i++;
    if (i < sizeof arg_classes / sizeof arg_classes[0] && a0 && a0->type.base == TY_REAL &&
        a0->type.kind == 8 && interval(c->B, a0, &lo, &hi, 0)) {
        if (arg_classes[i].b != 0)
            f = share_in(lo, hi, arg_classes[i].a, arg_classes[i].b);
        else
            f = share_in(lo, hi, arg_classes[i].a, INFINITY) +
                share_in(lo, hi, -INFINITY, -arg_classes[i].a);
    }
    if (f > 0) {
        char cls[128];
        snprintf(cls, sizeof cls, "%s.%s", param, arg_classes[i].cls);
        ops_lib(c->B, c->ops, cls, f);
    }
    if (f < 1)
        ops_lib(c->B, c->ops, param, 1 - f);
}

/* An intrinsic call (or one the lowering made: max, mod, merge, hpfrt_...):
 * its arguments, then what it costs. */
static void intrinsic(OpCtx *c, const Node *e)
{
    const char *id = e->u.ref.id;
    int n = e->u.ref.args.n;
    AauOps *o = c->ops;
    for (int i = 0; i < n; i++)
        ops_expr(c, arg_value(e->u.ref.args.v[i]));
    const Node *a0 = n ? arg_value(e->u.ref.args.v[0]) : NULL;
    if (in_list(to_float, id)) {
        if (a0 && is_int(a0->type))
            o->op[OPC_ITOF] += 1;
        return;
    }
    if (in_list(to_int, id)) {
        if (a0 && is_float(a0->type))
            o->op[OPC_FTOI] += 1;
        return;
    }
    if (in_list(free_fns, id))
        return;
    if (!strcmp(id, "merge")) {         /* a select */
        o->op[OPC_LOGICAL] += 1;
        return;
    }
    if ((!strcmp(id, "mod") || !strcmp(id, "modulo")) && n == 2 && is_int(e->type) &&
        const_divide(o, arg_value(e->u.ref.args.v[1]), 1))
        return;
    if (!strcmp(id, "conjg")) {         /* negating the imaginary part */
        ops_arith(o, e->type, OP_ADD, 1);
        return;
    }
    const char *g = id;
    for (size_t i = 0; i < sizeof lib_names / sizeof lib_names[0]; i++)
        if (!strcmp(lib_names[i].specific, id))
            g = lib_names[i].generic;
    char param[96];
    snprintf(param, sizeof param, "lib.%s", g);
    if (!strcmp(g, "max") || !strcmp(g, "min"))
        ops_lib(c->B, o, param, n > 1 ? n - 1 : 1);
    else
        lib_by_argument(c, g, a0, param);
}

/* Is e a constant expression the compiler folds (literals, PARAMETERs,
 * operations and conversions of them)? Then it costs nothing. */
static int folded(const Node *e)
{
    switch (e->kind) {
    case AST_INT_CONST: case AST_REAL_CONST: case AST_LOGICAL_CONST: case AST_STRING_CONST:
        return 1;
    case AST_NAME:
        return e->u.name.sym && e->u.name.sym->kind == SYM_PARAMETER;
    case AST_PAREN: case AST_UNARY:
        return folded(e->u.unary.operand);
    case AST_BINARY: case AST_COMPLEX_CONST:
        return folded(e->u.binary.lhs) && folded(e->u.binary.rhs);
    case AST_REF:
        if (e->ir || (e->u.ref.what != REF_INTRINSIC && e->u.ref.what != REF_FUNCTION)
            || (!in_list(to_float, e->u.ref.id) && !in_list(to_int, e->u.ref.id)))
            return 0;
        for (int i = 0; i < e->u.ref.args.n; i++)
            if (!folded(arg_value(e->u.ref.args.v[i])))
                return 0;
        return e->u.ref.args.n > 0;
    default:
        return 0;
    }
}

/* Evaluating e once: operations, library calls, calls of the program's
 * procedures (collected in c->calls for their Call AAUs), accesses. */
void ops_expr(OpCtx *c, const Node *e)
{
    if (!e || folded(e))
        return;
    switch (e->kind) {
    case AST_NAME:
        access_name(c, e, 1, 0);
        return;
    case AST_PAREN:
        ops_expr(c, e->u.unary.operand);
        return;
    case AST_UNARY: {
        const Node *x = e->u.unary.operand;
        ops_expr(c, x);
        if (e->u.unary.op == OP_NOT)
            c->ops->op[OPC_LOGICAL] += 1;
        else if (e->u.unary.op == OP_NEG && x->kind != AST_INT_CONST
                 && x->kind != AST_REAL_CONST)
            ops_arith(c->ops, e->type, OP_ADD, e->type.base == TY_COMPLEX ? 2 : 1);
        return;
    }
    case AST_BINARY:
        binary(c, e);
        return;
    case AST_KEYWORD_ARG:
        ops_expr(c, e->u.kwarg.value);
        return;
    case AST_REF:
        if (e->u.ref.what == REF_INTRINSIC && e->ir) {
            /* an inline reduction: its loop is an AAU of its own; here the
               statement reads its result */
            const SpRed *sr = e->ir;
            ops_access(c->B, c->ops, aag_temp_name(c->B, sr->loc ? sr->pos : sr->acc), NULL,
                       NULL, 1, 0, 0, aag_type_size(e->type), 1);
            return;
        }
        if (e->u.ref.what == REF_ELEMENT) {
            ref_subscripts(c, e);
            access_ref(c, e, 1, 0);
            return;
        }
        if (e->u.ref.what == REF_SECTION)
            return;             /* a whole temporary array in an I/O list */
        if (aag_callee(c->B, e)) {
            c->ops->calls += 1;
            c->ops->args += e->u.ref.args.n;
            for (int i = 0; i < e->u.ref.args.n; i++) {
                const Node *a = arg_value(e->u.ref.args.v[i]);
                if (a->kind != AST_NAME)    /* a variable goes by reference */
                    ops_expr(c, a);
            }
            if (c->calls)
                vec_push(NULL, c->calls, (void *)e);
            return;
        }
        intrinsic(c, e);
        return;
    default:
        return;                 /* constants; triplets, constructors in I/O lists */
    }
}

/* ---- I/O volume ---- */

static long long extent_product(const Node *e, int *sized)
{
    long long n = 1;
    for (int d = 0; d < e->rank; d++) {
        int known = e->extent && e->extent[d] >= 0;
        n *= known ? e->extent[d] : AAG_UNKNOWN_EXTENT;
        *sized &= known;
    }
    return n;
}

/* Bytes an I/O item moves: its elements times their size; a character
 * constant its length, a character variable AAG_CHAR_BYTES. *sized is
 * cleared where an extent is not a constant (AAG_UNKNOWN_EXTENT taken: the
 * engine evaluates the item at each execution, aag.h io_dyn). */
int aag_io_bytes(Build *B, const Node *e, int *sized)
{
    long long n = 0, lo, hi, st = 1;
    switch (e->kind) {
    case AST_STRING_CONST:
        n = (long long)strlen(e->u.konst.str ? e->u.konst.str : e->u.konst.text);
        break;
    case AST_IMPLIED_DO: {
        long long per = 0;
        for (int i = 0; i < e->u.impdo.items.n; i++)
            per += aag_io_bytes(B, e->u.impdo.items.v[i], sized);
        long long trips = AAG_UNKNOWN_EXTENT;
        if (cint(e->u.impdo.lo, &lo) && cint(e->u.impdo.hi, &hi)
            && (!e->u.impdo.step || cint(e->u.impdo.step, &st)) && st)
            trips = (hi - lo + st) / st > 0 ? (hi - lo + st) / st : 0;
        else
            *sized = 0;
        n = per * trips;
        break;
    }
    case AST_ARRAY_CTOR:
        for (int i = 0; i < e->u.list.items.n; i++)
            n += aag_io_bytes(B, e->u.list.items.v[i], sized);
        break;
    case AST_NAME: {
        const Symbol *y = e->u.name.sym;
        int el = e->type.base == TY_CHARACTER ? AAG_CHAR_BYTES : aag_type_size(e->type);
        n = el;
        if (y && y->rank) {
            n = el;
            for (int d = 0; d < y->rank; d++) {
                n *= y->bounds_known[d] ? (y->hi[d] >= y->lo[d] ? y->hi[d] - y->lo[d] + 1 : 0)
                                        : AAG_UNKNOWN_EXTENT;
                *sized &= y->bounds_known[d];
            }
        }
        break;
    }
    default:
        n = (e->type.base == TY_CHARACTER ? AAG_CHAR_BYTES : aag_type_size(e->type))
            * (e->rank ? extent_product(e, sized) : 1);
        break;
    }
    (void)B;
    return n > 0x7fffffff ? 0x7fffffff : (int)n;
}
