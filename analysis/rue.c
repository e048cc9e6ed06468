/* rue.c - resource usage equations: their expressions (parsed, printed,
 * evaluated) and the set of terms of a program. See rue.h. */
#include <config.h>

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "hpfmap.h"
#include "rue.h"

const char *const rue_kind_name[RUE_NKIND] = {"computation", "communication", "read", "write"};

/* ---- variables ---------------------------------------------------------- */

void rx_vars_init(RxVars *v)
{
    v->n = 1;
    strcpy(v->name[0], "P");
}

int rx_var(RxVars *v, const char *name)
{
    size_t len = strlen(name);
    if (!len || len >= sizeof v->name[0] || !(isalpha((unsigned char)name[0]) || name[0] == '_'))
        return -1;
    for (size_t i = 1; i < len; i++)
        if (!isalnum((unsigned char)name[i]) && name[i] != '_')
            return -1;
    for (int i = 0; i < v->n; i++)
        if (!strcmp(v->name[i], name))
            return i;
    if (v->n >= RX_MAX_VARS)
        return -1;
    strcpy(v->name[v->n], name);
    return v->n++;
}

/* ---- expressions -------------------------------------------------------- */

static int arity(RxKind k)
{
    switch (k) {
    case RX_NUM: case RX_VAR: return 0;
    case RX_NEG: case RX_CEIL: case RX_FLOOR: case RX_LOG2: case RX_SQRT: case RX_GRID:
        return 1;
    case RX_BSHARE: return 4;
    default: return 2;
    }
}

static Rx *rx_leaf(RxKind k, double v, int var)
{
    Rx *e = calloc(1, sizeof *e);
    if (e) {
        e->k = k;
        e->v = v;
        e->var = var;
    }
    return e;
}

Rx *rx_num(double v)
{
    return rx_leaf(RX_NUM, v, 0);
}

Rx *rx_varref(int var)
{
    return rx_leaf(RX_VAR, 0, var);
}

Rx *rx_op(RxKind k, Rx *a, Rx *b)
{
    int n = arity(k);
    Rx *e = n >= 1 && a && (n == 1 || b) ? calloc(1, sizeof *e) : NULL;
    if (!e) {
        rx_free(a);
        rx_free(b);
        return NULL;
    }
    e->k = k;
    e->a = a;
    e->b = n == 2 ? b : NULL;
    if (n == 1)
        rx_free(b);
    return e;
}

Rx *rx_bshare(Rx *lo, Rx *hi, Rx *n, Rx *q)
{
    Rx *e = lo && hi && n && q ? calloc(1, sizeof *e) : NULL;
    if (!e) {
        rx_free(lo);
        rx_free(hi);
        rx_free(n);
        rx_free(q);
        return NULL;
    }
    e->k = RX_BSHARE;
    e->a = lo;
    e->b = hi;
    e->c = n;
    e->d = q;
    return e;
}

Rx *rx_grid(Rx *p, int r, int d)
{
    if (r < 1 || r > HPFMAP_MAX_RANK || d < 1 || d > r) {
        rx_free(p);
        return NULL;
    }
    Rx *e = rx_op(RX_GRID, p, NULL);
    if (e)
        e->var = r * 8 + d - 1;
    return e;
}

Rx *rx_grid_declared(Rx *p, int r, int d, Rx *e, Rx *q)
{
    Rx *g = e && q ? rx_grid(p, r, d) : (rx_free(p), NULL);
    if (!g) {
        rx_free(e);
        rx_free(q);
        return NULL;
    }
    g->b = e;
    g->c = q;
    return g;
}

Rx *rx_copy(const Rx *e)
{
    if (!e)
        return NULL;
    Rx *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *e;
    c->a = e->a ? rx_copy(e->a) : NULL;
    c->b = e->b ? rx_copy(e->b) : NULL;
    c->c = e->c ? rx_copy(e->c) : NULL;
    c->d = e->d ? rx_copy(e->d) : NULL;
    if ((e->a && !c->a) || (e->b && !c->b) || (e->c && !c->c) || (e->d && !c->d)) {
        rx_free(c);
        return NULL;
    }
    return c;
}

void rx_free(Rx *e)
{
    if (!e)
        return;
    rx_free(e->a);
    rx_free(e->b);
    rx_free(e->c);
    rx_free(e->d);
    free(e);
}

int rx_equal(const Rx *a, const Rx *b)
{
    if (!a || !b)
        return a == b;
    return a->k == b->k && a->v == b->v && a->var == b->var && rx_equal(a->a, b->a) &&
           rx_equal(a->b, b->b) && rx_equal(a->c, b->c) && rx_equal(a->d, b->d);
}

int rx_uses(const Rx *e, int var)
{
    return e && ((e->k == RX_VAR && e->var == var) || rx_uses(e->a, var) || rx_uses(e->b, var)
                 || rx_uses(e->c, var) || rx_uses(e->d, var));
}

static int is_num(const Rx *e, double v)
{
    return e->k == RX_NUM && e->v == v;
}

/* Whether e's value is an integer for every binding of integers: no
 * division, root or logarithm in it. */
static int integral(const Rx *e)
{
    switch (e->k) {
    case RX_NUM: return e->v == floor(e->v);
    case RX_VAR: case RX_BSHARE: case RX_GRID: case RX_CEIL: case RX_FLOOR: return 1;
    case RX_NEG: return integral(e->a);
    case RX_ADD: case RX_SUB: case RX_MUL: case RX_MAX: case RX_MIN:
        return integral(e->a) && integral(e->b);
    default: return 0;
    }
}

Rx *rx_simplify(Rx *e)
{
    if (!e)
        return NULL;
    e->a = rx_simplify(e->a);
    e->b = rx_simplify(e->b);
    e->c = rx_simplify(e->c);
    e->d = rx_simplify(e->d);
    int n = arity(e->k);
    if ((n >= 1 && !e->a) || (n >= 2 && !e->b) || (n == 4 && (!e->c || !e->d))) {
        rx_free(e);
        return NULL;
    }
    /* every operand a number: the value (not P's grid: its arguments may
       be numbers, and the function is still worth showing) */
    int allnum = n > 0 && e->k != RX_GRID;
    Rx *op[4] = {e->a, e->b, e->c, e->d};
    for (int i = 0; i < n; i++)
        if (op[i]->k != RX_NUM)
            allnum = 0;
    if (allnum) {
        double v = rx_eval(e, NULL);
        if (isfinite(v)) {
            rx_free(e);
            return rx_num(v);
        }
        return e;
    }
    Rx *keep = NULL;
    switch (e->k) {
    case RX_ADD:
        keep = is_num(e->a, 0) ? e->b : is_num(e->b, 0) ? e->a : NULL;
        /* (x + c1) + c2, (x - c1) + c2 */
        if (!keep && e->b->k == RX_NUM && (e->a->k == RX_ADD || e->a->k == RX_SUB)
            && e->a->b->k == RX_NUM) {
            double c = (e->a->k == RX_ADD ? e->a->b->v : -e->a->b->v) + e->b->v;
            Rx *x = e->a->a;
            e->a->a = NULL;
            rx_free(e);
            return rx_simplify(c < 0 ? rx_op(RX_SUB, x, rx_num(-c)) : rx_op(RX_ADD, x, rx_num(c)));
        }
        break;
    case RX_SUB:
        keep = is_num(e->b, 0) ? e->a : NULL;
        if (!keep && e->b->k == RX_NUM && (e->a->k == RX_ADD || e->a->k == RX_SUB)
            && e->a->b->k == RX_NUM) {
            double c = (e->a->k == RX_ADD ? e->a->b->v : -e->a->b->v) - e->b->v;
            Rx *x = e->a->a;
            e->a->a = NULL;
            rx_free(e);
            return rx_simplify(c < 0 ? rx_op(RX_SUB, x, rx_num(-c)) : rx_op(RX_ADD, x, rx_num(c)));
        }
        if (!keep && e->b->k == RX_NUM && e->b->v < 0) {
            e->k = RX_ADD;
            e->b->v = -e->b->v;
        }
        break;
    case RX_MUL:
        if (is_num(e->a, 0) || is_num(e->b, 0)) {
            rx_free(e);
            return rx_num(0);
        }
        keep = is_num(e->a, 1) ? e->b : is_num(e->b, 1) ? e->a : NULL;
        break;
    case RX_DIV:
        keep = is_num(e->b, 1) ? e->a : NULL;
        break;
    case RX_CEIL: case RX_FLOOR:
        keep = integral(e->a) ? e->a : NULL;
        break;
    case RX_MAX:
        /* max(0, v) of a variable: sizes and P are not negative */
        if (is_num(e->a, 0) && e->b->k == RX_VAR)
            keep = e->b;
        else if (is_num(e->b, 0) && e->a->k == RX_VAR)
            keep = e->a;
        break;
    default:
        break;
    }
    if (keep) {
        if (keep == e->a)
            e->a = NULL;
        else
            e->b = NULL;
        rx_free(e);
        return keep;
    }
    return e;
}

/* The busiest processor's cells of lo..hi in BLOCKs of ceil(n/q) (RX_BSHARE). */
static double bshare(double lo, double hi, double n, double q)
{
    double len = hi - lo + 1;
    if (!(len > 0))
        return 0;
    if (q < 1)
        q = 1;
    double b = ceil(n / q);
    if (b < 1)
        b = 1;
    double k1 = floor((lo - 1) / b), k2 = floor((hi - 1) / b);
    if (k1 == k2)
        return len;
    double first = (k1 + 1) * b - lo + 1, last = hi - k2 * b, mid = k2 - k1 >= 2 ? b : 0;
    double m = first > last ? first : last;
    return m > mid ? m : mid;
}

static double grid_extent(double p, int code)
{
    int r = code / 8, d = code % 8, shape[HPFMAP_MAX_RANK];
    if (!(p >= 1 && p <= 2147483647.0) || r < 1 || r > HPFMAP_MAX_RANK || d >= r)
        return NAN;
    hpfmap_grid_shape((int)p, r, NULL, shape);
    return shape[d];
}

double rx_eval(const Rx *e, const double *val)
{
    double a = e->a ? rx_eval(e->a, val) : 0, b = e->b ? rx_eval(e->b, val) : 0;
    switch (e->k) {
    case RX_BSHARE: return bshare(a, b, rx_eval(e->c, val), rx_eval(e->d, val));
    case RX_GRID:
        if (e->b && rx_eval(e->c, val) == a)
            return b;
        return grid_extent(a, e->var);
    case RX_NUM: return e->v;
    case RX_VAR: return val[e->var];
    case RX_NEG: return -a;
    case RX_ADD: return a + b;
    case RX_SUB: return a - b;
    case RX_MUL: return a * b;
    case RX_DIV: return a / b;
    case RX_POW: return pow(a, b);
    case RX_CEIL: return ceil(a);
    case RX_FLOOR: return floor(a);
    case RX_LOG2: return log2(a);
    case RX_SQRT: return sqrt(a);
    case RX_MAX: return a > b ? a : b;
    case RX_MIN: return a < b ? a : b;
    }
    return NAN;
}

/* ---- the parser: precedence climbing ------------------------------------ */

typedef struct {
    const char *s, *p;
    RxVars *v;
    char *err;
    size_t errlen;
    int failed;
    int depth;
} Px;

static void px_error(Px *x, const char *fmt, ...)
{
    if (x->failed)
        return;
    x->failed = 1;
    int n = snprintf(x->err, x->errlen, "col %d: ", (int)(x->p - x->s) + 1);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < x->errlen)
        vsnprintf(x->err + n, x->errlen - (size_t)n, fmt, ap);
    va_end(ap);
}

static void px_space(Px *x)
{
    while (isspace((unsigned char)*x->p))
        x->p++;
}

static Rx *px_expr(Px *x, int minprec);

static const struct { const char *name; RxKind k; } funcs[] = {
    {"ceil", RX_CEIL}, {"floor", RX_FLOOR}, {"log2", RX_LOG2}, {"sqrt", RX_SQRT},
    {"max", RX_MAX}, {"min", RX_MIN}, {"bshare", RX_BSHARE}, {"pgrid", RX_GRID},
};

static Rx *px_primary(Px *x)
{
    px_space(x);
    const char *at = x->p;
    if (*x->p == '(') {
        x->p++;
        Rx *e = px_expr(x, 0);
        px_space(x);
        if (*x->p != ')') {
            px_error(x, "expected ')'");
            rx_free(e);
            return NULL;
        }
        x->p++;
        return e;
    }
    if (*x->p == '-') {
        x->p++;
        return rx_op(RX_NEG, px_expr(x, 3), NULL);   /* -a^b is -(a^b) */
    }
    if (isdigit((unsigned char)*x->p) || *x->p == '.') {
        char *end;
        double v = strtod(x->p, &end);
        if (end == x->p || !isfinite(v)) {
            px_error(x, "a number expected");
            return NULL;
        }
        x->p = end;
        return rx_num(v);
    }
    if (isalpha((unsigned char)*x->p) || *x->p == '_') {
        char name[64];
        size_t n = 0;
        while (isalnum((unsigned char)*x->p) || *x->p == '_') {
            if (n + 1 < sizeof name)
                name[n++] = *x->p;
            x->p++;
        }
        name[n] = 0;
        px_space(x);
        if (*x->p == '(') {
            for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++) {
                if (strcmp(name, funcs[i].name))
                    continue;
                x->p++;
                int na = funcs[i].k == RX_GRID ? 3 : arity(funcs[i].k);
                Rx *arg[5] = {NULL, NULL, NULL, NULL, NULL};
                static const char *const count[] = {"", "one argument", "two arguments",
                                                    "three arguments", "four arguments"};
                for (int j = 0; j < na && !x->failed; j++) {
                    if (j) {
                        if (*x->p != ',') {
                            px_error(x, "%s takes %s", name, funcs[i].k == RX_GRID
                                     ? "three or five arguments" : count[na]);
                            break;
                        }
                        x->p++;
                    }
                    arg[j] = px_expr(x, 0);
                    px_space(x);
                    /* pgrid's declared form: two more */
                    if (j == 2 && funcs[i].k == RX_GRID && *x->p == ',')
                        na = 5;
                }
                if (!x->failed && *x->p != ')')
                    px_error(x, "expected ')' after the argument%s of %s", na > 1 ? "s" : "",
                             name);
                if (!x->failed && funcs[i].k == RX_GRID
                    && !(arg[1]->k == RX_NUM && arg[2]->k == RX_NUM && arg[1]->v == floor(arg[1]->v)
                         && arg[2]->v == floor(arg[2]->v) && arg[1]->v >= 1
                         && arg[1]->v <= HPFMAP_MAX_RANK && arg[2]->v >= 1
                         && arg[2]->v <= arg[1]->v))
                    px_error(x, "pgrid(P, r, d) takes numbers r of 1 to %d and d of 1 to r",
                             HPFMAP_MAX_RANK);
                if (x->failed) {
                    for (int j = 0; j < 5; j++)
                        rx_free(arg[j]);
                    return NULL;
                }
                x->p++;
                if (funcs[i].k == RX_GRID) {
                    int r = (int)arg[1]->v, d = (int)arg[2]->v;
                    rx_free(arg[1]);
                    rx_free(arg[2]);
                    return na == 5 ? rx_grid_declared(arg[0], r, d, arg[3], arg[4])
                                   : rx_grid(arg[0], r, d);
                }
                if (funcs[i].k == RX_BSHARE)
                    return rx_bshare(arg[0], arg[1], arg[2], arg[3]);
                return rx_op(funcs[i].k, arg[0], arg[1]);
            }
            x->p = at;
            px_error(x, "unknown function '%s'", name);
            return NULL;
        }
        int var = rx_var(x->v, name);
        if (var < 0) {
            x->p = at;
            px_error(x, "too many variables, or a name too long: '%s'", name);
            return NULL;
        }
        return rx_varref(var);
    }
    px_error(x, *x->p ? "unexpected '%c'" : "unexpected end of the expression", *x->p);
    return NULL;
}

static int prec(char c)
{
    return c == '+' || c == '-' ? 1 : c == '*' || c == '/' ? 2 : c == '^' ? 4 : -1;
}

static Rx *px_expr(Px *x, int minprec)
{
    if (++x->depth > 200) {
        px_error(x, "nested too deeply");
        return NULL;
    }
    Rx *e = px_primary(x);
    for (;;) {
        px_space(x);
        char c = *x->p;
        int pr = prec(c);
        if (!e || x->failed || pr < 0 || pr < minprec)
            break;
        x->p++;
        /* ^ binds to the right; the others to the left */
        Rx *rhs = px_expr(x, c == '^' ? pr : pr + 1);
        RxKind k = c == '+' ? RX_ADD : c == '-' ? RX_SUB : c == '*' ? RX_MUL : c == '/' ? RX_DIV : RX_POW;
        e = rx_op(k, e, rhs);
    }
    x->depth--;
    if (x->failed) {
        rx_free(e);
        return NULL;
    }
    return e;
}

Rx *rx_parse(const char *text, RxVars *v, char *err, size_t errlen)
{
    Px x = {text, text, v, err, errlen, 0, 0};
    if (errlen)
        err[0] = 0;
    Rx *e = px_expr(&x, 0);
    px_space(&x);
    if (e && *x.p) {
        px_error(&x, "unexpected '%c'", *x.p);
        rx_free(e);
        return NULL;
    }
    if (!e && !x.failed)
        px_error(&x, "out of memory");
    return e;
}

/* ---- printing ----------------------------------------------------------- */

static int eprec(const Rx *e)
{
    switch (e->k) {
    case RX_ADD: case RX_SUB: return 1;
    case RX_MUL: case RX_DIV: return 2;
    case RX_NEG: return 3;
    case RX_POW: return 4;
    case RX_NUM: return e->v < 0 ? 3 : 5;
    default: return 5;
    }
}

static void print_sub(FILE *out, const Rx *e, const RxVars *v, int minprec)
{
    int paren = eprec(e) < minprec;
    if (paren)
        fputc('(', out);
    rx_print(out, e, v);
    if (paren)
        fputc(')', out);
}

void rx_print(FILE *out, const Rx *e, const RxVars *v)
{
    static const char *const opname[] = {
        [RX_ADD] = " + ", [RX_SUB] = " - ", [RX_MUL] = "*", [RX_DIV] = "/", [RX_POW] = "^",
    };
    switch (e->k) {
    case RX_NUM: {
        /* the fewest digits that read back as the same number */
        char buf[32];
        for (int prec = 6; prec <= 17; prec++) {
            snprintf(buf, sizeof buf, "%.*g", prec, e->v);
            if (strtod(buf, NULL) == e->v)
                break;
        }
        fputs(buf, out);
        return;
    }
    case RX_VAR:
        fputs(e->var >= 0 && e->var < v->n ? v->name[e->var] : "?", out);
        return;
    case RX_NEG:
        fputc('-', out);
        print_sub(out, e->a, v, 4);
        return;
    case RX_ADD: case RX_SUB: case RX_MUL: case RX_DIV: case RX_POW: {
        int p = eprec(e);
        /* left-associative: the right operand of - and / needs parentheses
           at its own level; ^ the other way round */
        print_sub(out, e->a, v, e->k == RX_POW ? p + 1 : p);
        fputs(opname[e->k], out);
        print_sub(out, e->b, v, e->k == RX_SUB || e->k == RX_DIV ? p + 1 : p);
        return;
    }
    default:
        for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++)
            if (funcs[i].k == e->k) {
                fprintf(out, "%s(", funcs[i].name);
                rx_print(out, e->a, v);
                if (e->k == RX_GRID)
                    fprintf(out, ", %d, %d", e->var / 8, e->var % 8 + 1);
                const Rx *more[3] = {e->b, e->c, e->d};
                for (int j = 0; j < 3; j++)
                    if (more[j]) {
                        fputs(", ", out);
                        rx_print(out, more[j], v);
                    }
                fputc(')', out);
            }
        return;
    }
}

/* ---- equations ---------------------------------------------------------- */

void rue_init(Rue *r)
{
    memset(r, 0, sizeof *r);
    rx_vars_init(&r->vars);
}

void rue_free(Rue *r)
{
    for (int i = 0; i < r->nterm; i++) {
        RueTerm *t = &r->term[i];
        rx_free(t->calls);
        rx_free(t->count);
        rx_free(t->grow);
        rx_free(t->bytes);
        rx_free(t->execs);
    }
    free(r->term);
    rue_init(r);
}

int rue_phase(Rue *r, const char *name)
{
    for (int i = 0; i < r->nphase; i++)
        if (!strcmp(r->phase[i], name))
            return i;
    if (r->nphase >= (int)(sizeof r->phase / sizeof r->phase[0]))
        return -1;
    snprintf(r->phase[r->nphase], sizeof r->phase[0], "%s", name);
    return r->nphase++;
}

RueTerm *rue_add(Rue *r, RueKind kind, int phase, const char *label, Rx *calls, Rx *count)
{
    if (phase < 0 || phase >= r->nphase || !calls || !count || kind < 0 || kind >= RUE_NKIND) {
        rx_free(calls);
        rx_free(count);
        return NULL;
    }
    if (r->nterm == r->cap) {
        int cap = r->cap ? 2 * r->cap : 16;
        RueTerm *t = realloc(r->term, (size_t)cap * sizeof *t);
        if (!t) {
            rx_free(calls);
            rx_free(count);
            return NULL;
        }
        r->term = t;
        r->cap = cap;
    }
    RueTerm *t = &r->term[r->nterm++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->phase = phase;
    snprintf(t->label, sizeof t->label, "%s", label ? label : "");
    t->calls = calls;
    t->count = count;
    return t;
}
