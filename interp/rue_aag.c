/* rue_aag.c - the resource usage equations of a program (analysis/rue.h),
 * derived from its interpreted AAG: every Seq AAU a computation term,
 * every loop's entries and iterations a computation term each, every
 * communication point a communication term, every I/O statement a disk
 * term; their counts
 * symbolic in the program's PARAMETERs and the processor count P, from the
 * bounds of the loops around them and the mapping; their constants from
 * the interpretation, so that the equations reproduce it.
 *
 * Each term's count is checked against the executions the interpretation
 * counted on the busiest processor (Aau.xmost). Where the two differ (a
 * branch taken in some iterations, a loop whose trips the data decide, a
 * bound that is not an expression of PARAMETERs) the term keeps the
 * derived count times the measured ratio, and is marked fitted: exact at
 * the point of derivation, scaled as the derived part scales elsewhere.
 * doc/forecasting.md describes the method. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"
#include "forecast.h"
#include "rue_aag.h"

typedef struct {
    Rue *r;
    const Aag *g;
    const SagUnit *node;
    Params pr;
    int phase;
    int depth;                 /* of the Calls walked into (stack) */
    int in_multi;              /* walking a pass run on a run-time condition */
    const Symbol *sym[RX_MAX_VARS];   /* the PARAMETER of each variable */
    const Aau *stack[32];      /* the Calls whose bodies are being walked */
    int recursive;             /* a recursive call was met: every term is fitted */
    int uncertain;             /* inside what the data decide (a loop of unknown trips, a
                                  pass run on a condition of run-time values): the terms
                                  made there are fitted */
    /* per AAU (by id - 1): the derived count of its terms at the point of
       derivation, summed (the terms of a procedure's body, one per call
       site); a loop's set-up, the SAG's, at each entry */
    double *derived;
    double *setup;
} Der;

/* x to six significant digits: a ratio of measured or given numbers, shown
 * in an equation. */
static double sig6(double x)
{
    if (!(x > 0) || !isfinite(x))
        return x;
    double m = pow(10, 5 - floor(log10(x)));
    return round(x * m) / m;
}

/* ---- expressions of the program --------------------------------------- */

const char *rue_param_scope(const SpProgram *sp, const Symbol *y)
{
    if (y->module)
        return y->module->u.unit.id ? y->module->u.unit.id : "";
    for (int u = 0; u < sp->units.n; u++) {
        const SpUnit *un = sp->units.v[u];
        if (un->scope && scope_lookup_local(un->scope, y->name) == y)
            return un->name ? un->name : "";
    }
    return "";
}

static Rx *rx_of(Der *d, const Node *n);

static Rx *param_var(Der *d, const Symbol *y)
{
    if (y && y->alias)
        y = y->alias;
    if (!y || y->kind != SYM_PARAMETER || !y->value.known)
        return NULL;
    double v = y->value.type.base == TY_INTEGER ? (double)y->value.i
               : y->value.type.base == TY_REAL ? y->value.r : NAN;
    if (!isfinite(v))
        return NULL;
    /* one variable per PARAMETER: another of the same name (two modules'
       n) is a variable of its own, n_2, bound to its value */
    char name[32];
    snprintf(name, sizeof name, "%s", y->name);
    for (int k = 2;; k++) {
        int known = -1;
        for (int i = 1; i < d->r->vars.n; i++)
            if (!strcmp(d->r->vars.name[i], name))
                known = i;
        if (known < 0 || d->sym[known] == y)
            break;
        snprintf(name, sizeof name, "%.16s_%d", y->name, k);
    }
    int var = rx_var(&d->r->vars, name);
    if (var < 0)
        return NULL;
    d->sym[var] = y;
    d->r->value[var] = v;
    snprintf(d->r->pname[var], sizeof d->r->pname[var], "%s", y->name);
    snprintf(d->r->pmodule[var], sizeof d->r->pmodule[var], "%s",
             rue_param_scope(d->g->prog, y));
    return rx_varref(var);
}

/* The expression of n over PARAMETERs and P, or NULL where n reads
 * anything else (a variable, an array element, a function). */
static Rx *rx_of(Der *d, const Node *n)
{
    if (!n)
        return NULL;
    switch (n->kind) {
    case AST_INT_CONST:
        return n->sym ? rx_of(d, n->sym) : rx_num((double)n->u.konst.ival);
    case AST_REAL_CONST:
        return rx_num(n->u.konst.rval);
    case AST_NAME:
        return param_var(d, n->u.name.sym);
    case AST_PAREN:
        return rx_of(d, n->u.unary.operand);
    case AST_UNARY:
        if (n->u.unary.op == OP_NEG)
            return rx_op(RX_NEG, rx_of(d, n->u.unary.operand), NULL);
        return n->u.unary.op == OP_PLUS ? rx_of(d, n->u.unary.operand) : NULL;
    case AST_BINARY: {
        RxKind k;
        switch (n->u.binary.op) {
        case OP_ADD: k = RX_ADD; break;
        case OP_SUB: k = RX_SUB; break;
        case OP_MUL: k = RX_MUL; break;
        case OP_DIV: k = RX_DIV; break;
        case OP_POW: k = RX_POW; break;
        default: return NULL;
        }
        Rx *e = rx_op(k, rx_of(d, n->u.binary.lhs), rx_of(d, n->u.binary.rhs));
        /* Fortran's integer division truncates (toward zero: floor for the
           non-negative sizes the equations are about) */
        if (e && k == RX_DIV && n->u.binary.lhs->type.base == TY_INTEGER
            && n->u.binary.rhs->type.base == TY_INTEGER)
            e = rx_op(RX_FLOOR, e, NULL);
        return e;
    }
    case AST_REF: {
        const char *id = n->u.ref.id;
        if (!id || (n->u.ref.what != REF_INTRINSIC && n->u.ref.what != REF_FUNCTION))
            return NULL;
        if (!strcmp(id, "hpfrt_nprocs") || !strcmp(id, "number_of_processors"))
            return n->u.ref.args.n == 0 ? rx_varref(0) : NULL;
        int mx = !strcmp(id, "max");
        if ((mx || !strcmp(id, "min")) && n->u.ref.args.n >= 2) {
            Rx *e = rx_of(d, n->u.ref.args.v[0]);
            for (int i = 1; i < n->u.ref.args.n && e; i++)
                e = rx_op(mx ? RX_MAX : RX_MIN, e, rx_of(d, n->u.ref.args.v[i]));
            return e;
        }
        return NULL;
    }
    default:
        return NULL;
    }
}

/* max(0, floor((hi - lo + st) / st)), or NULL. */
static Rx *trips_of(Der *d, const Node *lo, const Node *hi, const Node *st)
{
    Rx *l = rx_of(d, lo), *h = rx_of(d, hi), *s = st ? rx_of(d, st) : rx_num(1);
    if (!l || !h || !s) {
        rx_free(l);
        rx_free(h);
        rx_free(s);
        return NULL;
    }
    Rx *span = rx_op(RX_ADD, rx_op(RX_SUB, h, l), rx_copy(s));
    Rx *n = rx_op(RX_FLOOR, rx_op(RX_DIV, span, s), NULL);
    return rx_simplify(rx_op(RX_MAX, rx_num(0), n));
}

/* ---- the mapping ---------------------------------------------------------- */

/* The extent of the processor grid dimension that template dimension td
 * of t is distributed over, as an expression of P: an arrangement declared
 * with extents of constants and NUMBER_OF_PROCESSORS() keeps them where
 * they multiply to P, and is re-formed otherwise (hpfmap_grid_shape). */
static Rx *grid_extent_of(Der *d, const SpTmpl *t, int td)
{
    const SpProcs *pr = t->onto;
    int r = pr ? pr->rank : 1, gd = t->gdim[td];
    if (gd < 0)
        return rx_num(1);
    if (!pr || r == 1)
        return rx_varref(0);
    Rx *q = rx_num(1), *e = NULL;
    for (int k = 0; k < r && q; k++) {
        Rx *x = pr->ext[k] ? rx_of(d, pr->ext[k]) : NULL;
        if (!x) {
            rx_free(q);
            rx_free(e);
            return rx_grid(rx_varref(0), r, gd + 1);
        }
        if (k == gd)
            e = rx_copy(x);
        q = rx_op(RX_MUL, q, x);
    }
    return rx_grid_declared(rx_varref(0), r, gd + 1, rx_simplify(e), rx_simplify(q));
}

/* The busiest processor's trips of a FORALL index over the owned elements
 * of its array's dimension: BLOCK and CYCLIC (of block 1) of a unit
 * stride and alignment known; NULL for the others. */
static Rx *io_bytes(Der *d, const Aau *a);

static Rx *owned_trips(Der *d, const SpIndex *ix)
{
    const SpArr *a = ix->arr;
    if (!a || !a->tmpl || ix->dim < 0 || ix->dim >= a->rank)
        return NULL;
    int td = a->tdim[ix->dim];
    if (td < 0)
        return trips_of(d, ix->lo, ix->hi, ix->st);
    const SpTmpl *t = a->tmpl;
    if (ix->a_const == 0)
        return rx_num(1);                 /* a constant cell: one trip, on its owner */
    long long st;
    if (ix->a_const != 1 || !a->cknown[ix->dim] || a->ca[ix->dim] != 1 || !ix->st
        || ix->st->kind != AST_INT_CONST || (st = ix->st->u.konst.ival) != 1)
        return NULL;
    Rx *lo = rx_of(d, ix->lo), *hi = rx_of(d, ix->hi), *b = rx_of(d, ix->b);
    Rx *tlo = rx_of(d, t->lo[td]), *thi = rx_of(d, t->hi[td]);
    if (!lo || !hi || !b || !tlo || !thi) {
        rx_free(lo); rx_free(hi); rx_free(b); rx_free(tlo); rx_free(thi);
        return NULL;
    }
    /* template cells 1.. of the iterations: sub = var + b, cell = sub + beta */
    double beta = (double)a->cb[ix->dim];
    Rx *shift = rx_op(RX_ADD, rx_op(RX_SUB, b, rx_copy(tlo)), rx_num(beta + 1));
    Rx *clo = rx_simplify(rx_op(RX_ADD, lo, rx_copy(shift)));
    Rx *chi = rx_simplify(rx_op(RX_ADD, hi, shift));
    Rx *n = rx_simplify(rx_op(RX_ADD, rx_op(RX_SUB, thi, tlo), rx_num(1)));
    Rx *q = grid_extent_of(d, t, td);
    if (t->fmt[td] == HPFMAP_BLOCK) {
        /* the whole dimension: ceil(N/Q) */
        if (clo && chi && n && clo->k == RX_NUM && clo->v == 1 && rx_equal(chi, n)) {
            rx_free(clo);
            rx_free(chi);
            return rx_simplify(rx_op(RX_CEIL, rx_op(RX_DIV, n, q), NULL));
        }
        return rx_bshare(clo, chi, n, q);
    }
    if (t->fmt[td] == HPFMAP_CYCLIC && !t->k[td]) {
        Rx *len = rx_op(RX_MAX, rx_num(0), rx_op(RX_ADD, rx_op(RX_SUB, chi, clo), rx_num(1)));
        rx_free(n);
        return rx_simplify(rx_op(RX_CEIL, rx_op(RX_DIV, len, q), NULL));
    }
    rx_free(clo); rx_free(chi); rx_free(n); rx_free(q);
    return NULL;
}

/* The trips of an iterative AAU on the busiest processor, or NULL where
 * they are not an expression of PARAMETERs and P. */
static Rx *iter_trips(Der *d, const Aau *a)
{
    switch (a->iter) {
    case ITER_DO:
        return a->stmt ? trips_of(d, a->stmt->u.do_.lo, a->stmt->u.do_.hi, a->stmt->u.do_.st)
                       : NULL;
    case ITER_FORALL: {
        const SpIndex *ix = &a->loop->idx[a->level];
        return ix->dist ? owned_trips(d, ix) : trips_of(d, ix->lo, ix->hi, ix->st);
    }
    case ITER_RED:
        return a->red ? rx_simplify(rx_op(RX_MAX, rx_num(0), rx_of(d, a->red->n))) : NULL;
    default:
        return NULL;
    }
}

/* ---- terms ------------------------------------------------------------------ */

/* The seconds of metrics m0 (and m1, -1: none) of a on the busiest
 * processor: its executions there (Aau.xmost) at the mean cost of an
 * execution over all processors (an iteration costs the same everywhere;
 * the waiting, which the equations leave out, is not in it). */
static double busy_time(const Aau *a, int m0, int m1)
{
    if (a->execs <= 0)
        return 0;
    double part = a->m_sum[m0] + (m1 >= 0 ? a->m_sum[m1] : 0);
    return a->xmost * part / a->execs;
}

static RueTerm *add_term(Der *d, RueKind kind, const Aau *a, const char *what, Rx *calls,
                         Rx *count, Rx *per)
{
    char label[64];
    snprintf(label, sizeof label, "%s%s", what, a->label ? a->label : aau_class_name[a->cls]);
    calls = rx_simplify(calls);
    count = rx_simplify(count);
    if (calls && count)
        d->derived[a->id - 1] += rx_eval(calls, d->r->value) * rx_eval(count, d->r->value);
    Rx *execs = per && calls && count ? rx_simplify(rx_op(RX_MUL, rx_copy(calls), rx_copy(count)))
                                     : NULL;
    if (per)
        count = rx_simplify(rx_op(RX_MUL, count, per));
    RueTerm *t = rue_add(d->r, kind, d->phase, label, calls, count);
    if (t) {
        t->line = a->line;
        t->aau = a->id;
        t->execs = execs;
        t->fitted = d->uncertain > 0;
    } else
        rx_free(execs);
    return t;
}

/* ceil(log2 P): the rounds of a tree over P processors. */
static Rx *tree_rounds(void)
{
    return rx_op(RX_CEIL, rx_op(RX_LOG2, rx_varref(0), NULL), NULL);
}

/* The bytes of an overlap exchange's message on the busiest processor:
 * the ghost width times the box's other dimensions, each the busiest
 * processor's share where it is distributed; NULL where the box's bounds
 * are not expressions of PARAMETERs. */
static Rx *overlap_bytes(Der *d, const CommEntry *c)
{
    const SpArr *a = c->arr;
    const SpOverlap *ov = c->ov;
    long long w = c->below > c->above ? c->below : c->above;
    Rx *b = rx_num((double)w * a->type.kind);
    for (int e = 0; e < a->rank && b; e++) {
        if (e == c->dim)
            continue;
        const Node *lo = ov && ov->lo[e] ? ov->lo[e] : a->lo[e];
        const Node *hi = ov && ov->hi[e] ? ov->hi[e] : a->hi[e];
        Rx *len = lo || !hi ? trips_of(d, lo, hi, NULL) : rx_of(d, hi);
        int td = a->tdim[e];
        if (len && td >= 0 && a->tmpl && a->tmpl->fmt[td] != HPFMAP_STAR)
            len = rx_op(RX_CEIL, rx_op(RX_DIV, len, grid_extent_of(d, a->tmpl, td)), NULL);
        b = len ? rx_op(RX_MUL, b, len) : (rx_free(b), NULL);
    }
    return rx_simplify(b);
}

/* The growth of a message's start-up with P where it crosses the machine
 * (a gather's, to and from every processor): start-up + per-hop x the mean
 * distance, over the start-up - 1 + (per-hop / start-up) x hops(P), the
 * distance log2(P)/2 on a hypercube, 2 sqrt(P)/3 on a 2-D mesh, P/4 on a
 * ring; NULL (1) on a crossbar or a switch. */
static Rx *hop_growth(Der *d)
{
    double su = engine_msg_time(d->node, 0, 0), hop = engine_msg_time(d->node, 0, 1) - su;
    if (!(su > 0) || !(hop > 0) || d->pr.topo == TOPO_FLAT)
        return NULL;
    Rx *h;
    switch (d->pr.topo) {
    case TOPO_HYPERCUBE: h = rx_op(RX_DIV, rx_op(RX_LOG2, rx_varref(0), NULL), rx_num(2)); break;
    case TOPO_MESH: h = rx_op(RX_MUL, rx_num(2.0 / 3), rx_op(RX_SQRT, rx_varref(0), NULL)); break;
    default: h = rx_op(RX_DIV, rx_varref(0), rx_num(4)); break;
    }
    return rx_simplify(rx_op(RX_ADD, rx_num(1), rx_op(RX_MUL, rx_num(sig6(hop / su)), h)));
}

/* All the points of a lowered loop (the product of its indices' trips),
 * or NULL. */
static Rx *loop_points(Der *d, const SpLoop *l)
{
    Rx *n = rx_num(1);
    for (int k = 0; k < l->nidx && n; k++) {
        const SpIndex *ix = &l->idx[k];
        Rx *t = trips_of(d, ix->lo, ix->hi, ix->st);
        n = t ? rx_op(RX_MUL, n, t) : (rx_free(n), NULL);
    }
    return rx_simplify(n);
}

/* A communication point's term: messages a call on the busiest processor
 * and their bytes, from its pattern; the start-up and per-byte cost of the
 * SAG, the start-up calibrated to the interpretation where the point
 * moved messages (the waiting it caused left out: the equations assume
 * none). */
static void comm_term(Der *d, const Aau *a, Rx *calls, Rx *count)
{
    const CommEntry *c = a->comm;
    Rx *msgs = NULL, *bytes = NULL;
    int fitted = 0;
    double el = c->type.kind > 0 ? c->type.kind : 8;
    switch (c->kind) {
    case CM_OVERLAP: {
        int sides = (c->below > 0) + (c->above > 0);
        int td = c->arr && c->dim >= 0 ? c->arr->tdim[c->dim] : -1;
        Rx *q = td >= 0 && c->arr->tmpl ? grid_extent_of(d, c->arr->tmpl, td) : rx_varref(0);
        /* an inner processor has a neighbour on each side, an end one on one:
           the busiest min(sides, Q - 1) */
        msgs = rx_op(RX_MIN, rx_num(sides), rx_op(RX_SUB, q, rx_num(1)));
        bytes = c->arr ? overlap_bytes(d, c) : NULL;
        if (!bytes)
            fitted = 1;
        break;
    }
    case CM_BCASTIO:
        /* the values a READ read, from the I/O processor: its items */
        msgs = tree_rounds();
        bytes = c->io_aau ? io_bytes(d, c->io_aau) : NULL;
        if (!bytes || fabs(rx_eval(bytes, d->r->value) - (double)c->bytes) > 0.5) {
            rx_free(bytes);
            bytes = rx_num(c->bytes > 0 ? (double)c->bytes : el);
        }
        break;
    case CM_REDUCE: case CM_BCAST:
        msgs = tree_rounds();
        bytes = rx_num(c->bytes > 0 ? (double)c->bytes : el);
        break;
    case CM_BARRIER:
        msgs = tree_rounds();
        break;
    default:
        /* a gather or scatter: every other processor, each message a P-th
           of the points of the loop it serves (the elements it moves
           evenly spread), the volume fitted */
        msgs = rx_op(RX_SUB, rx_varref(0), rx_num(1));
        bytes = c->loop ? loop_points(d, c->loop) : NULL;
        if (bytes)
            bytes = rx_op(RX_DIV, rx_op(RX_MUL, bytes, rx_num(el)), rx_varref(0));
        fitted = 1;
        break;
    }
    RueTerm *t = add_term(d, RUE_COMM, a, "", calls, count, msgs);
    if (!t) {
        rx_free(bytes);
        return;
    }
    if (c->kind == CM_GATHER || c->kind == CM_SCATTER)
        t->grow = hop_growth(d);
    t->bytes = rx_simplify(bytes);
    t->fitted |= fitted;
    /* the SAG's cost of a message of the size moved here: its slope there
       (the protocol of that size), and the start-up that leaves */
    double b = t->bytes ? rx_eval(t->bytes, d->r->value) : 0;
    if (b < 1)
        b = 1;
    t->perbyte = t->bytes ? (engine_msg_time(d->node, 2 * b, 1) - engine_msg_time(d->node, b, 1)) / b
                          : 0;
    t->base = engine_msg_time(d->node, t->bytes ? b : 0, 1) - (t->bytes ? b * t->perbyte : 0);
    if (t->base < 0)
        t->base = 0;
}

/* The bytes an I/O item moves, as an expression of PARAMETERs (the items
 * aag_io_bytes sizes): NULL where an extent is not one. */
static Rx *item_bytes(Der *d, const Node *e)
{
    int el = e->type.base == TY_CHARACTER ? AAG_CHAR_BYTES : aag_type_size(e->type);
    switch (e->kind) {
    case AST_STRING_CONST:
        return rx_num((double)strlen(e->u.konst.str ? e->u.konst.str : e->u.konst.text));
    case AST_IMPLIED_DO: {
        Rx *per = rx_num(0);
        for (int i = 0; i < e->u.impdo.items.n && per; i++) {
            Rx *b = item_bytes(d, e->u.impdo.items.v[i]);
            per = b ? rx_op(RX_ADD, per, b) : (rx_free(per), NULL);
        }
        Rx *t = per ? trips_of(d, e->u.impdo.lo, e->u.impdo.hi, e->u.impdo.step) : NULL;
        return t ? rx_op(RX_MUL, per, t) : (rx_free(per), NULL);
    }
    case AST_NAME: {
        const Symbol *y = e->u.name.sym;
        Rx *n = rx_num(el);
        for (int k = 0; y && k < y->rank && n; k++) {
            const Node *dm = y->dims[k];
            if (dm->u.dim.form != DIM_EXPLICIT || !dm->u.dim.hi) {
                rx_free(n);
                return NULL;
            }
            Rx *t = trips_of(d, dm->u.dim.lo ? dm->u.dim.lo : NULL, dm->u.dim.hi, NULL);
            n = t ? rx_op(RX_MUL, n, t) : (rx_free(n), NULL);
        }
        return n;
    }
    case AST_REF:
        if (e->u.ref.what == REF_SECTION) {
            Rx *n = rx_num(el);
            for (int k = 0; k < e->u.ref.args.n && n; k++) {
                const Node *t = e->u.ref.args.v[k];
                if (t->kind != AST_TRIPLET)
                    continue;
                Rx *x = t->u.triplet.lo && t->u.triplet.hi
                        ? trips_of(d, t->u.triplet.lo, t->u.triplet.hi, t->u.triplet.stride) : NULL;
                n = x ? rx_op(RX_MUL, n, x) : (rx_free(n), NULL);
            }
            return n;
        }
        return e->rank ? NULL : rx_num(el);
    default:
        return e->rank ? NULL : rx_num(el);
    }
}

/* The bytes of an I/O statement: its items (a READ's, those it sets). */
static Rx *io_bytes(Der *d, const Aau *a)
{
    const SpStmt *s = a->stmt;
    if (!s || s->kind != SP_IO || !s->u.io.stmt)
        return NULL;
    const Node *io = s->u.io.stmt;
    const PtrVec *items = io->kind == AST_READ ? &s->u.io.reads
                          : io->kind == AST_CALL ? NULL : &io->u.io.items;
    if (!items)
        return NULL;
    Rx *n = rx_num(0);
    for (int i = 0; i < items->n && n; i++) {
        Rx *b = item_bytes(d, items->v[i]);
        n = b ? rx_op(RX_ADD, n, b) : (rx_free(n), NULL);
    }
    return rx_simplify(n);
}

static void io_term(Der *d, const Aau *a, Rx *calls, Rx *count)
{
    int rd = a->stmt && a->stmt->kind == SP_IO && a->stmt->u.io.stmt &&
             a->stmt->u.io.stmt->kind == AST_READ;
    RueTerm *t = add_term(d, rd ? RUE_READ : RUE_WRITE, a, "", calls, count, NULL);
    if (!t)
        return;
    double bytes = a->io_bytes;
    for (int i = 0; i < a->nio_dyn; i++)
        bytes += a->io_dyn[i].est;
    Rx *bx = io_bytes(d, a);
    /* through the I/O processor: the papers' start-up growth with P,
       log2 P + 1 ([A] "Modeling Disk IO"), is a parallel file system's;
       one processor's statement does not grow */
    /* the bytes as an expression where the items' extents are; else the
       AAG's number, fitted */
    if (bx && !a->nio_dyn && fabs(rx_eval(bx, d->r->value) - bytes) <= 0.5) {
        t->bytes = bytes > 0 ? bx : (rx_free(bx), NULL);
    } else {
        rx_free(bx);
        t->bytes = bytes > 0 ? rx_num(bytes) : NULL;
        t->fitted |= bytes > 0 && !(a->nio_dyn == 0 && bx == NULL && bytes < 64);
    }
    t->base = (rd ? d->pr.io_rd_start : d->pr.io_start) + d->pr.io_fmt;
    t->perbyte = rd ? d->pr.io_rd_pb : d->pr.io_pb;
    t->fitted |= a->nio_dyn > 0;
}

static void walk_list(Der *d, const PtrVec *list, const Rx *calls, const Rx *inner);

/* a's terms, run calls x inner times (inner: the innermost loop's trips). */
static void walk(Der *d, const Aau *a, const Rx *calls, const Rx *inner)
{
    if (a->multi_only && a->multi_if && !d->in_multi) {
        /* skipped on one processor when a condition of run-time values
           holds: fitted */
        d->uncertain++;
        d->in_multi = 1;
        walk(d, a, calls, inner);
        d->in_multi = 0;
        d->uncertain--;
        return;
    }
    if (a->multi_only && !a->multi_if) {
        /* a gather's passes that one processor skips (it reads in place):
           run only where P > 1 */
        Rx *more = rx_simplify(rx_op(RX_MUL, rx_copy(calls),
                                     rx_op(RX_MIN, rx_num(1), rx_op(RX_SUB, rx_varref(0), rx_num(1)))));
        if (more) {
            Aau b = *a;
            b.multi_only = 0;
            walk(d, &b, more, inner);
            rx_free(more);
            return;
        }
    }
    switch (a->cls) {
    case AAU_START:
        /* the run time's start: the processor arrangement, the templates */
        add_term(d, RUE_COMP, a, "", rx_copy(calls), rx_copy(inner), NULL);
        return;
    case AAU_END:
        return;
    case AAU_SEQ:
        if (a->io && a->on == ON_IO)
            io_term(d, a, rx_copy(calls), rx_copy(inner));
        else {
            /* on the owner of an element: which processor, how often, the
               subscripts decide */
            d->uncertain += a->on == ON_OWNER;
            add_term(d, RUE_COMP, a, "", rx_copy(calls), rx_copy(inner), NULL);
            d->uncertain -= a->on == ON_OWNER;
        }
        return;
    case AAU_SYNCSEQ:
        add_term(d, RUE_COMP, a, "", rx_copy(calls), rx_copy(inner), NULL);
        if (a->comm) {
            /* the same executions: counted once */
            double before = d->derived[a->id - 1];
            comm_term(d, a, rx_copy(calls), rx_copy(inner));
            d->derived[a->id - 1] = before;
        }
        return;
    case AAU_COMM: case AAU_SYNC:
        if (a->comm)
            comm_term(d, a, rx_copy(calls), rx_copy(inner));
        return;
    case AAU_SPAWN:
        walk_list(d, &a->kids, calls, inner);
        return;
    case AAU_ITERD: case AAU_ITERSYNC: case AAU_ITERND: {
        Rx *trips = iter_trips(d, a);
        int unknown = !trips;
        if (unknown) {
            trips = rx_num(1);            /* the check below fits it */
            d->uncertain++;
        }
        /* the loop's control: its iterations; checked against its entries
           (Aau.xmost counts those) */
        Rx *outer = rx_simplify(rx_op(RX_MUL, rx_copy(calls), rx_copy(inner)));
        double before = d->derived[a->id - 1];
        /* its entries (the set-up: the run time's iteration sets, its
           region calls) and its iterations, apart: a short loop's time is
           mostly the first */
        add_term(d, RUE_COMP, a, "entry of ", rx_copy(outer), rx_num(1), NULL);
        RueTerm *t = add_term(d, RUE_COMP, a, "control of ", rx_copy(outer), rx_copy(trips), NULL);
        d->derived[a->id - 1] = before + (outer ? rx_eval(outer, d->r->value) : 0);
        if (t)
            t->execs = rx_num(0);         /* its executions: the entry's */
        walk_list(d, &a->kids, outer, trips);
        d->uncertain -= unknown;
        rx_free(outer);
        rx_free(trips);
        return;
    }
    case AAU_CONDTD: case AAU_CONDTSYNC:
        add_term(d, RUE_COMP, a, "test of ", rx_copy(calls), rx_copy(inner), NULL);
        /* how often a branch is taken the data decide (a mask, a test of
           values, of an index): its terms are fitted */
        for (int b = 0; b < a->nbranch; b++) {
            if (a->bpre)
                walk_list(d, &a->bpre[b], calls, inner);
            d->uncertain++;
            walk_list(d, &a->bbody[b], calls, inner);
            d->uncertain--;
        }
        return;
    case AAU_CALL: {
        const Aau *home = a->home ? a->home : a;
        add_term(d, RUE_COMP, a, "", rx_copy(calls), rx_copy(inner), NULL);
        /* a recursive call: its body is on the walk already, its depth the
           data's (the terms of the body are fitted) */
        int again = 0;
        for (int i = 0; i < d->depth; i++)
            again |= d->stack[i] == home;
        if (home->body && !again && d->depth < (int)(sizeof d->stack / sizeof d->stack[0])) {
            d->stack[d->depth++] = home;
            walk_list(d, home->body, calls, inner);
            d->depth--;
        } else if (again)
            d->recursive = 1;
        return;
    }
    default:
        return;
    }
}

static void walk_list(Der *d, const PtrVec *list, const Rx *calls, const Rx *inner)
{
    for (int i = 0; i < list->n; i++)
        walk(d, list->v[i], calls, inner);
}

/* The time of a's term at the point of derivation, the kind's metrics. */
double rue_aau_seconds(const Aau *a, RueKind k)
{
    if (k == RUE_COMP && a->m_sum[M_COMM] > 0)
        return busy_time(a, M_COMP, -1);
    if (k == RUE_COMP)
        return busy_time(a, M_COMP, M_OVHD);
    /* a message pattern at its mean cost over the processors, with the
       overhead of the run time's call (a computation of the AAU, a
       reduction's combining, apart); the waiting it makes and the
       imbalance of its work are left out, as the papers' equations leave
       them (--rue-check measures them) */
    return busy_time(a, M_COMM, a->m_sum[M_COMM] > 0 ? M_OVHD : -1);
}

/* ---- the phases ------------------------------------------------------------- */

static int is_iter(const Aau *a)
{
    return a->cls == AAU_ITERD || a->cls == AAU_ITERSYNC || a->cls == AAU_ITERND;
}

static int is_loop(const Aau *a)
{
    return a->cls == AAU_ITERD || a->cls == AAU_ITERSYNC || a->cls == AAU_ITERND ||
           a->cls == AAU_CALL;
}

/* The phase marker (src_phase_marks) a top-level AAU at line falls under:
 * the last at or before it; -1 for none. */
static int mark_of(const SrcPhaseMark *marks, int nmarks, int line)
{
    int k = -1;
    for (int i = 0; i < nmarks; i++)
        if (marks[i].line <= line)
            k = i;
    return k;
}

int rue_derive(Rue *r, const Aag *g, const SagGraph *sag, int np, const SrcPhaseMark *marks,
               int nmarks)
{
    rue_init(r);
    Der d;
    memset(&d, 0, sizeof d);
    d.r = r;
    d.g = g;
    d.node = engine_node_unit(sag);
    en_read_params(&d.pr, d.node);
    d.derived = calloc((size_t)g->naau + 1, sizeof *d.derived);
    d.setup = calloc((size_t)g->naau + 1, sizeof *d.setup);
    if (!d.derived || !d.setup) {
        free(d.derived);
        free(d.setup);
        return -1;
    }
    for (int i = 0; i < g->naau; i++)
        if (is_iter(g->aau[i]))
            d.setup[i] = g->aau[i]->iter == ITER_FORALL || g->aau[i]->iter == ITER_COPY
                         ? en_level_setup(&d.pr, g->aau[i]) : d.pr.loop_setup;
    r->value[0] = np;
    /* the node program: the main program's body */
    const Aau *spawn = NULL;
    for (int i = 0; i < g->root->kids.n; i++) {
        const Aau *k = g->root->kids.v[i];
        if (k->cls == AAU_SPAWN)
            spawn = k;
    }
    Rx *one = rx_num(1);
    if (spawn) {
        const PtrVec *body = &spawn->kids;
        for (int i = 0; i < body->n;) {
            const Aau *a = body->v[i];
            int j = i + 1;
            char name[64];
            int mk = mark_of(marks, nmarks, a->line);
            if (mk >= 0) {
                /* a phase the program names: every statement to the next mark */
                while (j < body->n && mark_of(marks, nmarks, ((const Aau *)body->v[j])->line) == mk)
                    j++;
                snprintf(name, sizeof name, "%s", marks[mk].name);
            } else if (is_loop(a))
                snprintf(name, sizeof name, "line %d: %s", a->line,
                         a->label ? a->label : aau_class_name[a->cls]);
            else {
                while (j < body->n && !is_loop(body->v[j]) &&
                       mark_of(marks, nmarks, ((const Aau *)body->v[j])->line) < 0)
                    j++;
                const Aau *last = body->v[j - 1];
                if (last->line_end > a->line)
                    snprintf(name, sizeof name, "lines %d-%d", a->line, last->line_end);
                else
                    snprintf(name, sizeof name, "line %d", a->line);
            }
            int ph = rue_phase(r, name);
            if (ph < 0) {
                /* more phases than the table holds: the rest in the last */
                ph = r->nphase - 1;
            } else
                r->phase_line[ph] = a->line;
            d.phase = ph;
            for (; i < j; i++)
                walk(&d, body->v[i], one, one);
        }
    }
    rx_free(one);
    if (d.recursive)
        for (int i = 0; i < r->nterm; i++)
            r->term[i].fitted = 1;
    /* each term's count checked against the interpretation's, and its
       constants from the interpretation's time */
    for (int i = 0; i < r->nterm; i++) {
        RueTerm *t = &r->term[i];
        const Aau *a = g->aau[t->aau - 1];
        double want = a->xmost, have = d.derived[a->id - 1];
        if (want <= 0) {
            /* not executed here: no time */
            rx_free(t->count);
            t->count = rx_num(0);
        } else if (!(have > 0) || fabs(want - have) > 1e-9 * want) {
            /* six significant digits: a ratio measured, not a law */
            double k = have > 0 ? sig6(want / have) : 0;
            if (have > 0) {
                t->count = rx_simplify(rx_op(RX_MUL, rx_num(k), t->count));
                if (t->execs)
                    t->execs = rx_simplify(rx_op(RX_MUL, rx_num(k), t->execs));
            } else {
                rx_free(t->calls);
                rx_free(t->count);
                rx_free(t->execs);
                t->calls = rx_num(1);
                t->count = rx_num(want);
                t->execs = NULL;
            }
            t->fitted = 1;
        }
    }
    for (int i = 0; i < r->nterm; i++) {
        RueTerm *t = &r->term[i];
        const Aau *a = g->aau[t->aau - 1];
        /* the constants: a term's share of its AAU's time, the AAU's terms
           (the call sites of a procedure) splitting it by their counts */
        double n = rx_eval(t->calls, r->value) * rx_eval(t->count, r->value), all = 0;
        for (int j = 0; j < r->nterm; j++)
            if (r->term[j].aau == t->aau && r->term[j].kind == t->kind)
                all += rx_eval(r->term[j].calls, r->value) * rx_eval(r->term[j].count, r->value);
        double secs = all > 0 ? rue_aau_seconds(a, t->kind) * n / all : 0;
        if (is_iter(a) && t->kind == RUE_COMP) {
            /* a loop: the entries at the SAG's set-up, the iterations the
               rest of its time */
            double entries = 0, iters = 0, setup = d.setup[a->id - 1];
            for (int j = 0; j < r->nterm; j++) {
                const RueTerm *u = &r->term[j];
                if (u->aau != t->aau)
                    continue;
                double c = rx_eval(u->calls, r->value) * rx_eval(u->count, r->value);
                if (!strncmp(u->label, "entry of ", 9))
                    entries += c;
                else
                    iters += c;
            }
            double time = rue_aau_seconds(a, RUE_COMP), rest = time - entries * setup;
            if (rest < 0) {
                setup = entries > 0 ? time / entries : 0;
                rest = 0;
            }
            t->base = !strncmp(t->label, "entry of ", 9) ? setup : iters > 0 ? rest / iters : 0;
            continue;
        }
        if (t->kind == RUE_COMP) {
            t->base = n > 0 ? secs / n : 0;
            continue;
        }
        double g1 = t->grow ? rx_eval(t->grow, r->value) : 1;
        double b = t->bytes ? rx_eval(t->bytes, r->value) : 0;
        if (n > 0 && g1 > 0 && secs > 0) {
            /* the start-up that makes the term the interpretation's */
            double su = (secs / n - b * t->perbyte) / g1;
            if (su >= 0)
                t->base = su;
            else if (b > 0) {
                /* faster than the SAG's bytes alone: the bytes' cost as the
                   interpretation's, no start-up */
                t->base = 0;
                t->perbyte = secs / n / b;
            } else
                t->base = secs / n / g1;
        }
    }
    free(d.derived);
    free(d.setup);
    return 0;
}

double rue_aau_execs(const Rue *r, int aau, const double *val, int *fitted)
{
    double n = 0;
    int kind = -1;
    *fitted = 0;
    for (int i = 0; i < r->nterm; i++) {
        const RueTerm *t = &r->term[i];
        if (t->aau != aau)
            continue;
        /* one kind's terms: a reduction's computation and communication
           count the same executions */
        if (kind < 0)
            kind = t->kind;
        if ((int)t->kind != kind)
            continue;
        n += t->execs ? rx_eval(t->execs, val) : rx_eval(t->calls, val) * rx_eval(t->count, val);
        *fitted |= t->fitted;
    }
    return n;
}
