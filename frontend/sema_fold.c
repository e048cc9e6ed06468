/* sema_fold.c - constant folding: the values of constant expressions
 * (PARAMETER, bounds, KIND, DATA), with Fortran's integer and real
 * arithmetic and the intrinsics a constant expression may call. */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "sema_int.h"

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
            if (a.i == 0 && b.i < 0) {
                diag_error(s->diag, e->loc, "zero to a negative power in a constant expression");
                return none;
            }
            if (a.i >= -1 && a.i <= 1) {   /* no overflow: at most 1 in size */
                r = a.i == -1 ? (b.i % 2 ? -1 : 1) : b.i == 0 ? 1 : a.i;
            } else if (b.i < 0) {
                r = 0;
            } else {
                r = 1;             /* |a| >= 2: an overflow within 64 factors */
                for (long long k = 0; k < b.i && !ovf; k++)
                    ovf = __builtin_mul_overflow(r, a.i, &r);
            }
            break;
        default: return none;
        }
        if (!ovf && e->type.kind == 4 && (r < INT32_MIN || r > INT32_MAX))
            ovf = 1;
        if (ovf) {
            diag_error(s->diag, e->loc, "integer overflow in a constant expression (the range "
                       "of integer kind %d is exceeded)", e->type.kind == 4 ? 4 : 8);
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
    if (!(fabs(r) <= (e->type.kind == 4 ? FLT_MAX : DBL_MAX))) {
        diag_error(s->diag, e->loc, "%s in a constant expression", isnan(r) ? "an undefined "
                   "value (not a number)" : "real overflow");
        return none;
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
