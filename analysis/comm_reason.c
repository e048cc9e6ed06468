/* comm_reason.c - a communication of the SAAG in words (comm_reason.h).
 *
 * The kind follows the communication table (CommKind) and, for a gather,
 * the pattern the lowering classified it by (frontend/lower_expr.c,
 * pattern_of); the reason names the reference, the dimension and the
 * format that make the data live on another processor. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm_reason.h"
#include "hpfmap.h"
#include "util.h"

/* HPFRT_SUM ... HPFRT_OR (runtime/hpfrt.h) */
static const char *const red_name[] = {"", "SUM", "PRODUCT", "MAX", "MIN", "AND", "OR"};

const char *comm_dim_format(const SpArr *a, int d, char *buf, size_t n)
{
    if (!a || !a->tmpl) {
        snprintf(buf, n, "replicated");
        return buf;
    }
    int t = d >= 0 && d < a->rank ? a->tdim[d] : -1;
    if (t < 0) {
        snprintf(buf, n, "*");
        return buf;
    }
    const SpTmpl *m = a->tmpl;
    const char *f = m->fmt[t] == HPFMAP_BLOCK || m->fmt[t] == HPFMAP_BLOCKK ? "BLOCK"
                    : m->fmt[t] == HPFMAP_CYCLIC ? "CYCLIC" : "*";
    if (m->k[t]) {
        char *k = unparse_expr_string(m->k[t], NULL, NULL);
        snprintf(buf, n, "%s(%s)", f, k);
        free(k);
    } else {
        snprintf(buf, n, "%s", f);
    }
    return buf;
}

/* The distributed dimensions of a, "dim 1 BLOCK, dim 2 CYCLIC(4)", or
 * "replicated", or "no dimension distributed". */
static void layout(const SpArr *a, char *buf, size_t n)
{
    char f[64];
    size_t k = 0;
    buf[0] = '\0';
    if (!a || !a->tmpl) {
        snprintf(buf, n, "replicated");
        return;
    }
    for (int d = 0; d < a->rank && k < n; d++)
        if (a->tdim[d] >= 0)
            k += (size_t)snprintf(buf + k, n - k, "%sdim %d %s", k ? ", " : "", d + 1,
                                  comm_dim_format(a, d, f, sizeof f));
    if (!k)
        snprintf(buf, n, "no dimension distributed");
}

/* Whether a gather's array is laid out as its loop's left-hand side. */
static int same_layout(const CommEntry *e)
{
    char lx[256], ly[256];
    const SpArr *x = e->loop ? e->loop->arr : NULL;
    if (!x || !e->arr)
        return 0;
    layout(x, lx, sizeof lx);
    layout(e->arr, ly, sizeof ly);
    return !strcmp(lx, ly);
}

const char *comm_kind_words(const CommEntry *e)
{
    switch (e->kind) {
    case CM_OVERLAP: return "overlap shift";
    case CM_GATHER:
        if (e->loop && e->loop->remap)
            return "redistribution";
        switch (e->g ? e->g->pat : PAT_REMAP) {
        case PAT_CSHIFT: return "circular shift";
        case PAT_TRANSPOSE: return "transpose";
        case PAT_MULTICAST: return "multicast";
        case PAT_INDIRECT: return "gather";
        default: return same_layout(e) ? "gather" : "redistribution";
        }
    case CM_SCATTER: return "scatter";
    case CM_BCAST: return "broadcast";
    case CM_BCASTIO: return "READ broadcast";
    case CM_REDUCE: return "reduction";
    case CM_BARRIER: return "barrier";
    }
    return "communication";
}

/* s as `rest + c` or `rest - c` (c an integer constant): c, and *rest
 * (s itself, c 0, when it is not of that form). */
static long long split_const(const Node *s, const Node **rest)
{
    while (s && s->kind == AST_PAREN)
        s = s->u.unary.operand;
    *rest = s;
    if (!s || s->kind != AST_BINARY || (s->u.binary.op != OP_ADD && s->u.binary.op != OP_SUB))
        return 0;
    const Node *l = s->u.binary.lhs, *r = s->u.binary.rhs;
    if (r->kind == AST_INT_CONST && l->kind != AST_INT_CONST) {
        *rest = l;
        return s->u.binary.op == OP_ADD ? r->u.konst.ival : -r->u.konst.ival;
    }
    if (l->kind == AST_INT_CONST && r->kind != AST_INT_CONST && s->u.binary.op == OP_ADD) {
        *rest = r;
        return l->u.konst.ival;
    }
    return 0;
}

/* The offset of a gather's subscript in dim d of its array from the
 * left-hand side's subscript in the dimension aligned with the same
 * template dimension, when the two differ by a constant only; else 0. */
static long long offset_of(const CommEntry *e, int d)
{
    const SpArr *y = e->arr, *x = e->loop ? e->loop->arr : NULL;
    const SpRef *lr = e->loop && e->loop->lhs ? e->loop->lhs->ir : NULL;
    if (!x || !lr || !e->g || !e->g->r || x->tmpl != y->tmpl)
        return 0;
    for (int dx = 0; dx < x->rank; dx++) {
        if (x->tdim[dx] != y->tdim[d] || !lr->sub[dx] || !e->g->r->sub[d])
            continue;
        const Node *ry, *rx;
        long long cy = split_const(e->g->r->sub[d], &ry), cx = split_const(lr->sub[dx], &rx);
        char *sy = unparse_expr_string(ry, NULL, NULL), *sx = unparse_expr_string(rx, NULL, NULL);
        int same = !strcmp(sy, sx);
        free(sy);
        free(sx);
        return same ? cy - cx : 0;
    }
    return 0;
}

/* A gather classified as a redistribution: an offset on a dimension
 * whose format rules out ghost cells, or the two layouts. */
static void remap_reason(const CommEntry *e, const char *ref, char *buf, size_t n)
{
    const SpArr *y = e->arr, *x = e->loop ? e->loop->arr : NULL;
    char f[64], lx[256], ly[256];
    for (int d = 0; y && y->tmpl && e->g && e->g->r && d < y->rank; d++) {
        int t = y->tdim[d];
        if (t < 0)
            continue;
        long long c = offset_of(e, d);
        if (!c)
            continue;
        if (y->tmpl->fmt[t] == HPFMAP_BLOCK) {
            snprintf(buf, n, "%s: the offset %+lld along dim %d (BLOCK) is wider than the "
                     "overlap area a shift can fill, so the reference is gathered", ref, c,
                     d + 1);
        } else {
            snprintf(buf, n, "%s: %s is %s along dim %d: the offset %+lld crosses blocks, which "
                     "rules out an overlap shift (that needs BLOCK), so the reference is "
                     "gathered", ref, y->name, comm_dim_format(y, d, f, sizeof f), d + 1, c);
        }
        return;
    }
    for (int d = 0; y && y->tmpl && d < y->rank; d++)
        if (y->tdim[d] >= 0 && !y->cknown[d]) {
            snprintf(buf, n, "%s: how %s's dim %d is aligned is known at run time only (a "
                     "dummy argument mapped as its actual, an ALLOCATABLE array), so the "
                     "elements an iteration reads cannot be shown to be its own: they are "
                     "gathered", ref, y->name, d + 1);
            return;
        }
    layout(y, ly, sizeof ly);
    if (x)
        layout(x, lx, sizeof lx);
    for (int d = 0; x && y && !strcmp(lx, ly) && e->g && e->g->r && d < y->rank; d++) {
        if (y->tdim[d] < 0)
            continue;
        char *sub = unparse_expr_string(e->g->r->sub[d], NULL, NULL);
        char both[600];
        if (x == y)
            snprintf(both, sizeof both, "%s is laid out as %s", y->name, ly);
        else
            snprintf(both, sizeof both, "%s and the left-hand side %s are both laid out as %s",
                     y->name, x->name, ly);
        snprintf(buf, n, "%s: %s, but the subscript %s of dim %d is not the loop's index plus "
                 "a constant (a stride, a scale or another index): the elements an iteration "
                 "reads are owned elsewhere, so they are gathered", ref, both, sub, d + 1);
        free(sub);
        return;
    }
    if (x && x != y) {
        snprintf(buf, n, "%s: %s is laid out as %s, the left-hand side %s as %s: the elements "
                 "an iteration reads are owned elsewhere, so they are redistributed (gathered)",
                 ref, y ? y->name : "the array", ly, x->name, lx);
    } else {
        snprintf(buf, n, "%s: %s (%s) is read at elements other processors own, so they are "
                 "gathered", ref, y ? y->name : "the array", ly);
    }
}

char *comm_reason(const CommEntry *e)
{
    char buf[1024], f[64], l[256];
    const SpArr *a = e->arr;
    const char *name = a ? a->name : "the value";
    char *ref = e->kind == CM_GATHER && e->g && e->g->ref
                ? unparse_expr_string(e->g->ref, NULL, NULL)
                : e->kind == CM_BCAST && e->elem ? unparse_expr_string(e->elem, NULL, NULL)
                : xstrdup(name);
    switch (e->kind) {
    case CM_OVERLAP: {
        comm_dim_format(a, e->dim, f, sizeof f);
        int blocks = strcmp(f, "BLOCK") != 0;   /* BLOCK(k), CYCLIC(k): several a processor */
        snprintf(buf, sizeof buf, "%s is %s along dim %d: the loop reads %d cell%s below and "
                 "%d above %s, so the neighbours' boundary cells are shifted into ghost cells",
                 name, f, e->dim + 1, e->below, e->below == 1 ? "" : "s", e->above,
                 blocks ? "each block a processor owns" : "each processor's own block");
        break;
    }
    case CM_GATHER:
        if (e->loop && e->loop->remap) {
            layout(a, l, sizeof l);
            snprintf(buf, sizeof buf, "a REDISTRIBUTE or REALIGN of %s: its elements are copied "
                     "into the new mapping (%s)", name, l);
            break;
        }
        layout(a, l, sizeof l);
        switch (e->g ? e->g->pat : PAT_REMAP) {
        case PAT_CSHIFT:
            snprintf(buf, sizeof buf, "%s: a circular shift of %s (%s): the elements shifted "
                     "across a block boundary come from another processor, so they are gathered",
                     ref, name, l);
            break;
        case PAT_INDIRECT:
            snprintf(buf, sizeof buf, "%s: the subscript goes through another array, so the "
                     "owner of each element is known at run time only: an inspector finds them "
                     "and they are gathered", ref);
            break;
        case PAT_TRANSPOSE:
            snprintf(buf, sizeof buf, "%s: the loop's distributed index subscripts another "
                     "dimension of %s (%s) than it runs over on the left-hand side: a "
                     "transposed access, so the elements are gathered", ref, name, l);
            break;
        case PAT_MULTICAST:
            snprintf(buf, sizeof buf, "%s: a fixed subscript in a distributed dimension of %s "
                     "(%s), or a use where every processor needs it: the elements one "
                     "processor owns are sent to the others", ref, name, l);
            break;
        default:
            remap_reason(e, ref, buf, sizeof buf);
            break;
        }
        break;
    case CM_SCATTER:
        snprintf(buf, sizeof buf, "the left-hand side %s is subscripted through another array: "
                 "each value is sent to the processor that owns its element", name);
        break;
    case CM_BCAST:
        layout(a, l, sizeof l);
        snprintf(buf, sizeof buf, "%s: one element of %s (%s) used where every processor needs "
                 "it: its owner broadcasts it", ref, name, l);
        break;
    case CM_BCASTIO:
        snprintf(buf, sizeof buf, "a READ runs on the I/O processor: the values it reads are "
                 "broadcast to the others");
        break;
    case CM_REDUCE:
        snprintf(buf, sizeof buf, "a %s reduction over distributed data: each processor's "
                 "partial result (%d value%s) is combined with the others'",
                 e->red_op >= 1 && e->red_op <= 6 ? red_name[e->red_op] : "",
                 e->count, e->count == 1 ? "" : "s");
        break;
    case CM_BARRIER:
        snprintf(buf, sizeof buf, "a synchronization of every processor");
        break;
    }
    free(ref);
    return xstrdup(buf);
}
