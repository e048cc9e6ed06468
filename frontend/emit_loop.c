/* emit_loop.c - the loops hpfc writes for a FORALL, an array assignment
 * or a reduction: DO loops over each processor's own iterations (the
 * iteration sets of libhpfrt), the mask and guards, the gathers by rounds
 * (count, allocate, record, fetch), scatters, and a temporary left-hand
 * side copied back. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "emit_int.h"
#include "../runtime/hpfmap.h"
#include "../runtime/hpfrt.h"

/* ---- loops ---- */

/* The position of a MAXLOC/MINLOC's element, from 1, in array element
 * order: 1 + i1 + n1*(i2 + n2*(...)) of its 0-based positions. */
static void linear_position(Emit *E, StrBuf *b, const SpLoop *lp)
{
    int r = lp->red_rank > 1 ? lp->red_rank : 1;
    sb_puts(b, "1 + ");
    for (int d = 0; d < r; d++) {
        if (d) {
            char *h = em_ex(E, lp->idx[d - 1].hi);
            sb_printf(b, " + (%s + 1)*(", h);
            free(h);
        }
        sb_puts(b, lp->idx[d].var->name);
    }
    for (int d = 1; d < r; d++)
        sb_puts(b, ")");
}

static const char *identity(int op, Type t, const char *acc, char *buf, size_t n)
{
    const char *z = t.base == TY_INTEGER ? "0" : t.kind == 8 ? "0.0d0" : "0.0";
    const char *o = t.base == TY_INTEGER ? "1" : t.kind == 8 ? "1.0d0" : "1.0";
    switch (op) {
    case HPFRT_SUM: snprintf(buf, n, "%s", z); break;
    case HPFRT_PRODUCT: snprintf(buf, n, "%s", o); break;
    case HPFRT_MAX:    /* as gfortran: the most negative integer, -huge for reals */
        snprintf(buf, n, t.base == TY_INTEGER ? "-huge(%s) - 1" : "-huge(%s)", acc);
        break;
    case HPFRT_MIN: snprintf(buf, n, "huge(%s)", acc); break;
    case HPFRT_AND: snprintf(buf, n, ".true."); break;
    default: snprintf(buf, n, ".false."); break;
    }
    return buf;
}

static void accumulate(Emit *E, int op, const char *acc, const char *v)
{
    switch (op) {
    case HPFRT_SUM: em_line(E, "%s = %s + (%s)", acc, acc, v); break;
    case HPFRT_PRODUCT: em_line(E, "%s = %s*(%s)", acc, acc, v); break;
    case HPFRT_MAX: em_line(E, "%s = max(%s, %s)", acc, acc, v); break;
    case HPFRT_MIN: em_line(E, "%s = min(%s, %s)", acc, acc, v); break;
    case HPFRT_AND: em_line(E, "%s = %s .and. (%s)", acc, acc, v); break;
    default: em_line(E, "%s = %s .or. (%s)", acc, acc, v); break;
    }
}

/* Contexts marked for a round: those holding its gathers and their parents. */
static int marked(const Emit *E, const SpCtx *c)
{
    return E->marks[c->id];
}

static void tick(Emit *E, const SpCtx *c)
{
    if (c->used)
        em_line(E, "%sc%d = %sc%d + 1", E->p, c->id, E->p, c->id);
}

static void records(Emit *E, const SpCtx *c, int mode)
{
    if (mode != W_RECORD)
        return;
    const SpLoop *lp = E->loop;
    for (int i = 0; i < lp->gathers.n; i++) {
        const SpGather *g = lp->gathers.v[i];
        if (g->ctx != c || g->round != E->round)
            continue;
        for (int d = 0; d < g->r->arr->rank; d++) {
            char *s = em_int(E, g->r->sub[d]);
            em_line(E, "%st%d(%d, %sc%d) = %s", E->p, g->idx, d + 1, E->p, c->id, s);
            free(s);
        }
    }
}

static void reds_in(Emit *E, const Node *n, int mode);

static void red_loop(Emit *E, const SpRed *sr, int mode)
{
    char acc[64], buf[64];
    snprintf(acc, sizeof acc, "%st%d", E->p, sr->acc);
    if (mode != W_COMPUTE && !marked(E, sr->ctx_iter))
        return;
    if (mode == W_COMPUTE) {
        em_line(E, "%s = %s", acc, identity(sr->op, sr->type, acc, buf, sizeof buf));
        if (sr->loc)
            em_line(E, "%st%d = 0", E->p, sr->pos);
    }
    long long cn;
    if (cint(sr->n, &cn) && cn <= 0)
        return;                  /* an empty reduction: the identity */
    char *n = em_ex(E, sr->n);
    if (cint(sr->n, &cn))
        em_line(E, "do %s = 0, %lld", sr->var->name, cn - 1);
    else
        em_line(E, "do %s = 0, %s - 1", sr->var->name, n);
    free(n);
    E->level++;
    tick(E, sr->ctx_iter);
    records(E, sr->ctx_iter, mode);
    if (sr->mask) {
        reds_in(E, sr->mask, mode);
        if (mode == W_COMPUTE || marked(E, sr->ctx_body)) {
            char *m = em_ex(E, sr->mask);
            em_line(E, "if (%s) then", m);
            free(m);
            E->level++;
        }
    }
    if (mode == W_COMPUTE || marked(E, sr->ctx_body)) {
        if (sr->ctx_body != sr->ctx_iter) {
            tick(E, sr->ctx_body);
            records(E, sr->ctx_body, mode);
        }
        reds_in(E, sr->body, mode);
        if (mode == W_COMPUTE) {
            char *v = em_ex(E, sr->body);
            if (sr->loc) {
                em_line(E, "if (%st%d .eq. 0 .or. %s %s %s) then", E->p, sr->pos, v,
                     sr->op == HPFRT_MAX ? ">" : "<", acc);
                E->level++;
                em_line(E, "%s = %s", acc, v);
                em_line(E, "%st%d = %s + 1", E->p, sr->pos, sr->var->name);
                E->level--;
                em_line(E, "end if");
            } else {
                accumulate(E, sr->op, acc, v);
            }
            free(v);
        }
        if (sr->mask) {
            E->level--;
            em_line(E, "end if");
        }
    }
    E->level--;
    em_line(E, "end do");
}

static int reds_visit(Node *n, void *ctx)
{
    void **c = ctx;
    Emit *E = c[0];
    int mode = *(int *)c[1];
    if (n->kind == AST_REF && n->u.ref.what == REF_INTRINSIC && n->ir) {
        red_loop(E, n->ir, mode);
        return 0;
    }
    ast_children(n, reds_visit, ctx);
    return 0;
}

/* Inline reductions in n, innermost first, before the statement using them. */
static void reds_in(Emit *E, const Node *n, int mode)
{
    if (!n)
        return;
    void *c[2] = {E, &mode};
    reds_visit((Node *)n, c);
}

static void loop_body(Emit *E, int mode)
{
    const SpLoop *lp = E->loop;
    int closes = 0;
    tick(E, lp->ctx_iter);
    records(E, lp->ctx_iter, mode);
    if (lp->nguard) {
        StrBuf b = {0};
        for (int g = 0; g < lp->nguard; g++) {
            char *s = em_int(E, lp->guard[g].sub);
            sb_printf(&b, "%shpfrt_mine(%s, %d, %s) .eq. 1", g ? " .and. " : "", em_desc(E, lp->arr),
                      lp->guard[g].dim + 1, s);
            free(s);
        }
        if (mode == W_COMPUTE || mode == W_COPY || marked(E, lp->ctx_guard)) {
            em_line(E, "if (%s) then", b.s);
            E->level++;
            closes++;
            tick(E, lp->ctx_guard);
            records(E, lp->ctx_guard, mode);
        }
        sb_free(&b);
    }
    int under = mode == W_COMPUTE || mode == W_COPY || marked(E, lp->ctx_mask);
    if (lp->mask && mode != W_COPY)
        reds_in(E, lp->mask, mode);
    if (lp->mask && under) {
        if (mode == W_COPY) {
            em_line(E, "if (%st%d(%sc%d)) then", E->p, lp->tmask, E->p, lp->ctx_guard->id);
        } else {
            char *m = em_ex(E, lp->mask);
            if (mode == W_COMPUTE && lp->lhs_temp) {
                em_line(E, "%st%d(%sc%d) = %s", E->p, lp->tmask, E->p, lp->ctx_guard->id, m);
                em_line(E, "if (%st%d(%sc%d)) then", E->p, lp->tmask, E->p, lp->ctx_guard->id);
            } else {
                em_line(E, "if (%s) then", m);
            }
            free(m);
        }
        E->level++;
        closes++;
        tick(E, lp->ctx_mask);
        records(E, lp->ctx_mask, mode);
    } else if (!lp->mask && mode != W_COMPUTE && mode != W_COPY) {
        /* no mask: ctx_mask is ctx_guard */
    }
    if (under) {
        if (mode == W_COMPUTE) {
            reds_in(E, lp->rhs, mode);
            char *v = em_ex(E, lp->rhs);
            if (lp->red_op && lp->red_loc) {
                /* the first extreme in array element order: strictly better only */
                em_line(E, "if (%st%d .eq. 0 .or. %s %s %st%d) then", E->p, lp->red_pos, v,
                     lp->red_op == HPFRT_MAX ? ">" : "<", E->p, lp->red_acc);
                E->level++;
                em_line(E, "%st%d = %s", E->p, lp->red_acc, v);
                StrBuf lin = {0};
                linear_position(E, &lin, lp);
                em_line(E, "%st%d = %s", E->p, lp->red_pos, lin.s);
                sb_free(&lin);
                E->level--;
                em_line(E, "end if");
            } else if (lp->red_op) {
                char acc[64];
                snprintf(acc, sizeof acc, "%st%d", E->p, lp->red_acc);
                accumulate(E, lp->red_op, acc, v);
            } else if (lp->scatter) {
                const SpRef *r = lp->lhs->ir;
                for (int d = 0; d < r->arr->rank; d++) {
                    char *x = em_int(E, r->sub[d]);
                    em_line(E, "%st%d(%d, %sc%d) = %s", E->p, lp->tidx, d + 1, E->p,
                         lp->ctx_mask->id, x);
                    free(x);
                }
                em_line(E, "%st%d(%sc%d) = %s", E->p, lp->tbuf, E->p, lp->ctx_mask->id, v);
            } else if (lp->lhs_temp) {
                em_line(E, "%st%d(%sc%d) = %s", E->p, lp->tbuf, E->p, lp->ctx_mask->id, v);
            } else {
                char *l = em_ex(E, lp->lhs);
                em_line(E, "%s = %s", l, v);
                free(l);
            }
            free(v);
        } else if (mode == W_COPY) {
            char *l = em_ex(E, lp->lhs);
            em_line(E, "%s = %st%d(%sc%d)", l, E->p, lp->tbuf, E->p, lp->ctx_mask->id);
            free(l);
        } else {
            reds_in(E, lp->rhs, mode);
        }
    }
    while (closes--) {
        E->level--;
        em_line(E, "end if");
    }
}

/* The loop nest: the first index innermost (column-major order). */
static void walk(Emit *E, int mode)
{
    const SpLoop *lp = E->loop;

    /* counters this walk uses start at zero */
    char *seen = xcalloc((size_t)E->u->ncounters + 2, 1);
    const SpCtx *cs[] = {lp->ctx_iter, lp->ctx_guard, lp->ctx_mask};
    for (int i = 0; i < 3 + lp->gathers.n; i++) {
        const SpCtx *c = i < 3 ? cs[i] : ((const SpGather *)lp->gathers.v[i - 3])->ctx;
        if ((i >= 3 || c->used) && !seen[c->id]) {
            seen[c->id] = 1;
            em_line(E, "%sc%d = 0", E->p, c->id);
        }
    }
    free(seen);
    /* the innermost level distributed, the body one the node compiler can
       vectorize: a copy of the loop for segments whose local indices step
       by 1, marked for the vectorizer (GCC at -O2 vectorizes only loops
       of known trip counts otherwise) */
    int unit = mode == W_COMPUTE && spmd_vector_loop(lp);
    /* the segments of the inner distributed levels, once for the nest, in
       a table (hpf_qN: the count, then f, e, k, l, m of each) */
    for (int k = lp->nidx - 1; k >= 0; k--) {
        if (!spmd_seg_hoisted(lp, k))
            continue;
        int q = lp->idx[k].lp;
        em_line(E, "if (allocated(%sq%d)) deallocate(%sq%d)", E->p, q, E->p, q);
        em_line(E, "allocate(%sq%d(1 + 5*hpfrt_nseg(%sh%d)))", E->p, q, E->p, q);
        em_line(E, "call hpfrt_segs(%sh%d, %sq%d, 1 + 5*hpfrt_nseg(%sh%d))", E->p, q, E->p, q, E->p,
                q);
    }
    for (int k = lp->nidx - 1; k >= 0; k--) {
        const SpIndex *ix = &lp->idx[k];
        if (ix->dist) {
            int q = ix->lp;
            if (spmd_seg_hoisted(lp, k)) {
                em_line(E, "do %ss%d = 1, %sq%d(1)", E->p, q, E->p, q);
                E->level++;
                static const char fld[] = "feklm";   /* (the table's order) */
                for (int i = 0; i < 5; i++) {
                    char off[8] = "";
                    if (i != 3)
                        snprintf(off, sizeof off, "%+d", i - 3);
                    em_line(E, "%s%c%d = %sq%d(5*%ss%d%s)", E->p, fld[i], q, E->p, q, E->p, q, off);
                }
            } else {
                em_line(E, "do %ss%d = 1, hpfrt_nseg(%sh%d)", E->p, q, E->p, q);
                E->level++;
                em_line(E, "call hpfrt_seg(%sh%d, %ss%d, %sf%d, %se%d, %sk%d, %sl%d, %sm%d)", E->p,
                        q, E->p, q, E->p, q, E->p, q, E->p, q, E->p, q, E->p, q);
            }
            if (k == 0 && unit) {
                /* (the local index the DO variable: a counter of the
                   library's, whose address hpfrt_seg takes, stepped in the
                   loop keeps GCC from vectorizing it) */
                em_line(E, "if (%sm%d .eq. 1 .and. %sk%d .gt. 0) then", E->p, q, E->p, q);
                E->level++;
                em_line(E, "%s = %sf%d", ix->var->name, E->p, q);
                em_directive(E, "GCC$ vector");
                em_line(E, "do %sl%d = %sl%d, %sl%d + (%se%d - %sf%d + %sk%d)/%sk%d - 1", E->p, q, E->p,
                     q, E->p, q, E->p, q, E->p, q, E->p, q, E->p, q);
                E->level++;
                loop_body(E, mode);
                em_line(E, "%s = %s + %sk%d", ix->var->name, ix->var->name, E->p, q);
                E->level--;
                em_line(E, "end do");
                E->level--;
                em_line(E, "else");
                E->level++;
            }
            em_line(E, "do %s = %sf%d, %se%d, %sk%d", ix->var->name, E->p, q, E->p, q, E->p, q);
            E->level++;
        } else {
            char *lo = em_ex(E, ix->lo), *hi = em_ex(E, ix->hi), *st = em_ex(E, ix->st);
            if (!strcmp(st, "1"))
                em_line(E, "do %s = %s, %s", ix->var->name, lo, hi);
            else
                em_line(E, "do %s = %s, %s, %s", ix->var->name, lo, hi, st);
            free(lo);
            free(hi);
            free(st);
            E->level++;
        }
    }
    loop_body(E, mode);
    for (int k = 0; k < lp->nidx; k++) {
        const SpIndex *ix = &lp->idx[k];
        if (ix->dist) {
            em_line(E, "%sl%d = %sl%d + %sm%d", E->p, ix->lp, E->p, ix->lp, E->p, ix->lp);
            E->level--;
            em_line(E, "end do");
            if (k == 0 && unit) {
                E->level--;
                em_line(E, "end if");
            }
        }
        E->level--;
        em_line(E, "end do");
    }
}

static void mark_ctx(Emit *E, const SpCtx *c)
{
    for (; c; c = c->parent)
        E->marks[c->id] = 1;
}

/* The loop's home array's descriptor for the gathers' schedules (the
 * iteration sets depend on its layout), "0" when it has none. */
static char *gather_home(Emit *E, const SpLoop *lp)
{
    return xstrdup(lp->arr ? em_desc(E, lp->arr) : "0");
}

/* The computation: a reduction's accumulator, the walk, the combination
 * of the processors' parts. */
static void compute(Emit *E, const SpLoop *lp)
{
    char acc[64], buf[64];
    if (lp->red_op) {
        snprintf(acc, sizeof acc, "%st%d", E->p, lp->red_acc);
        em_line(E, "%s = %s", acc, identity(lp->red_op, lp->red_type, acc, buf, sizeof buf));
        if (lp->red_loc)
            em_line(E, "%st%d = 0", E->p, lp->red_pos);
    }
    if (lp->primary) {
        em_line(E, "if (hpfrt_primary(%s) .eq. 1) then", em_desc(E, lp->arr));
        E->level++;
    }
    walk(E, W_COMPUTE);
    if (lp->primary) {
        E->level--;
        em_line(E, "end if");
    }
    if (lp->red_op && lp->arr && lp->red_loc)
        em_line(E, "call hpfrt_reduceloc_%s(%s, %st%d, 1, %d)", em_tsuffix(lp->red_type), acc, E->p,
             lp->red_pos, lp->red_op);
    else if (lp->red_op && lp->arr)
        em_line(E, "call hpfrt_reduce_%s(%s, %d)", em_tsuffix(lp->red_type), acc, lp->red_op);
}

/* The calls of round r's gathers through their sites' schedules; inv: 2
 * when the index vectors were not recorded (kept, invariant), -1 to say
 * for each whether its index vector is invariant (1) or not (0). */
static void gather_calls(Emit *E, const SpLoop *lp, int r, const char *home, int inv)
{
    for (int i = 0; i < lp->gathers.n; i++) {
        const SpGather *g = lp->gathers.v[i];
        if (g->round != r)
            continue;
        int iv = inv >= 0 ? inv : spmd_gather_keys(lp, g->r, g->ctx, NULL) >= 0;
        StrBuf b = {0};
        em_first_elem(E, &b, g->r->arr);
        em_line(E, "call hpfrt_gathers_%s(%s, %s, %sc%d, %st%d(1, 1), %st%d(1), %sg%d, %s, %d)",
             em_tsuffix(g->r->arr->type), em_desc(E, g->r->arr), b.s, E->p, g->ctx->id, E->p,
             g->idx, E->p, g->buf, E->p, g->buf, iv ? home : "0", iv);
        sb_free(&b);
    }
}

void emit_loop(Emit *E, const SpStmt *s)
{
    const SpLoop *lp = s->u.loop;
    const SpLoop *saved = E->loop;
    E->loop = lp;
    if (spmd_loop_empty(lp)) {
        if (lp->red_op) {
            char acc[64], buf[64];
            snprintf(acc, sizeof acc, "%st%d", E->p, lp->red_acc);
            em_line(E, "%s = %s", acc, identity(lp->red_op, lp->red_type, acc, buf,
                                              sizeof buf));
            if (lp->red_loc)
                em_line(E, "%st%d = 0", E->p, lp->red_pos);
        }
        E->loop = saved;
        return;
    }
    em_line(E, "call hpfrt_region_begin(%d)", s->line);
    for (int k = 0; k < lp->nidx; k++) {
        const SpIndex *ix = &lp->idx[k];
        if (!ix->dist)
            continue;
        char *a = em_int(E, ix->a), *b = em_int(E, ix->b), *lo = em_int(E, ix->lo), *hi = em_int(E, ix->hi);
        char *st = em_int(E, ix->st);
        em_line(E, "call hpfrt_loop(%sh%d, %s, %d, %s, %s, %s, %s, %s)", E->p, ix->lp,
             em_desc(E, ix->arr), ix->dim + 1, a, b, lo, hi, st);
        free(a);
        free(b);
        free(lo);
        free(hi);
        free(st);
    }
    /* the other levels' iterations, for the profile's count of the region's
       points (hpfrt_loop counts the distributed ones) */
    for (int k = 0; k < lp->nidx; k++) {
        const SpIndex *ix = &lp->idx[k];
        if (ix->dist)
            continue;
        char *lo = em_ex(E, ix->lo), *hi = em_ex(E, ix->hi), *st = em_ex(E, ix->st);
        /* (a real: bounds of INTEGER(8) give trips of that kind) */
        em_line(E, "call hpfrt_region_trips(dble(max(0, (%s - (%s) + (%s))/(%s))))", hi, lo, st,
                st);
        free(lo);
        free(hi);
        free(st);
    }
    /* overlap shifts: one call per array dimension, widest ghost region */
    const SpOverlap *ov = lp->ovl;
    for (int i = 0; i < lp->novl; i++) {
        StrBuf b = {0}, lo = {0}, hi = {0}, ext = {0};
        em_first_elem(E, &b, ov[i].arr);
        /* the box the shifted references read (huge: the whole dimension),
           and how far past its own block a process reads them */
        for (int e = 0; e < ov[i].arr->rank; e++) {
            sb_printf(&ext, "%s%d, %d", e ? ", " : "", ov[i].ext[e][0], ov[i].ext[e][1]);
            char *l = ov[i].lo[e] ? em_int(E, ov[i].lo[e]) : NULL;
            char *h = ov[i].hi[e] ? em_int(E, ov[i].hi[e]) : NULL;
            sb_printf(&lo, "%s%s", e ? ", " : "", l ? l : "-huge(0)");
            sb_printf(&hi, "%s%s", e ? ", " : "", h ? h : "huge(0)");
            free(l);
            free(h);
        }
        em_line(E, "call hpfrt_overlap_%s(%s, %s, %d, %lld, %lld, (/ %s /), (/ %s /), (/ %s /))",
             em_tsuffix(ov[i].arr->type), em_desc(E, ov[i].arr), b.s, ov[i].dim + 1,
             ov[i].below, ov[i].above, lo.s, hi.s, ext.s);
        sb_free(&b);
        sb_free(&lo);
        sb_free(&hi);
        sb_free(&ext);
    }
    /* gathers, round by round: count, allocate, record, fetch; on one
       process, where the loop allows, the gathered references in place */
    E->marks = xcalloc((size_t)E->u->ncounters + 2, 1);
    int direct = spmd_direct_one(lp);
    if (direct) {
        char *c = lp->direct_if ? em_ex(E, lp->direct_if) : NULL;
        em_line(E, "if (hpfrt_nprocs() .eq. 1%s%s%s) then", c ? " .and. (" : "", c ? c : "",
                c ? ")" : "");
        free(c);
        E->level++;
        for (int i = 0; i < lp->gathers.n; i++) {
            const SpGather *g = lp->gathers.v[i];
            for (int d = 0; d < g->r->arr->rank; d++)
                em_line(E, "call hpfrt_lin(%s, %d, %sy%d_%d, %sz%d_%d)", em_desc(E, g->r->arr),
                        d + 1, E->p, g->buf, d + 1, E->p, g->buf, d + 1);
        }
        E->direct = 1;
        compute(E, lp);
        E->direct = 0;
        E->level--;
        em_line(E, "else");
        E->level++;
    }
    char *home = gather_home(E, lp);
    for (int r = 0; r < lp->nrounds; r++) {
        E->round = r;
        memset(E->marks, 0, (size_t)E->u->ncounters + 2);
        int all_inv = 1, any = 0;
        for (int i = 0; i < lp->gathers.n; i++) {
            const SpGather *g = lp->gathers.v[i];
            if (g->round != r)
                continue;
            mark_ctx(E, g->ctx);
            any = 1;
            all_inv &= spmd_gather_keys(lp, g->r, g->ctx, NULL) >= 0;
        }
        if (!any)
            continue;
        /* the keys of the sites whose index vectors depend on scalars */
        for (int i = 0; i < lp->gathers.n; i++) {
            const SpGather *g = lp->gathers.v[i];
            const Node *keys[SPMD_MAX_KEYS];
            int nk = g->round == r ? spmd_gather_keys(lp, g->r, g->ctx, keys) : 0;
            if (nk <= 0)
                continue;
            StrBuf b = {0};
            for (int k = 0; k < nk; k++) {
                char *v = em_ex(E, keys[k]);
                sb_printf(&b, "%sint(%s, 8)", k ? ", " : "", v);
                free(v);
            }
            em_line(E, "call hpfrt_gkey(%sg%d, (/ %s /), %d)", E->p, g->buf, b.s, nk);
            sb_free(&b);
        }
        if (all_inv) {
            /* index vectors that depend only on the mappings: while the
               library keeps their schedules, neither counted nor recorded */
            StrBuf c = {0};
            for (int i = 0; i < lp->gathers.n; i++) {
                const SpGather *g = lp->gathers.v[i];
                if (g->round == r)
                    sb_printf(&c, "%shpfrt_kept(%sg%d, %s, %s) .ge. 0", c.len ? " .and. " : "",
                              E->p, g->buf, em_desc(E, g->r->arr), home);
            }
            em_line(E, "if (%s) then", c.s);
            sb_free(&c);
            E->level++;
            for (int i = 0; i < lp->gathers.n; i++) {
                const SpGather *g = lp->gathers.v[i];
                if (g->round != r)
                    continue;
                em_line(E, "%sc%d = hpfrt_kept(%sg%d, %s, %s)", E->p, g->ctx->id, E->p, g->buf,
                     em_desc(E, g->r->arr), home);
                em_line(E, "allocate(%st%d(%d, 1), %st%d(max(1, %sc%d)))", E->p, g->idx,
                     g->r->arr->rank, E->p, g->buf, E->p, g->ctx->id);
            }
            gather_calls(E, lp, r, home, 2);
            E->level--;
            em_line(E, "else");
            E->level++;
        }
        walk(E, W_COUNT);
        for (int i = 0; i < lp->gathers.n; i++) {
            const SpGather *g = lp->gathers.v[i];
            if (g->round != r)
                continue;
            em_line(E, "allocate(%st%d(%d, max(1, %sc%d)), %st%d(max(1, %sc%d)))", E->p, g->idx,
                 g->r->arr->rank, E->p, g->ctx->id, E->p, g->buf, E->p, g->ctx->id);
        }
        walk(E, W_RECORD);
        gather_calls(E, lp, r, home, -1);
        if (all_inv) {
            E->level--;
            em_line(E, "end if");
        }
    }
    free(home);
    memset(E->marks, 0, (size_t)E->u->ncounters + 2);
    if (lp->lhs_temp || lp->scatter) {
        em_line(E, "%sn = 1", E->p);
        for (int k = 0; k < lp->nidx; k++) {
            const SpIndex *ix = &lp->idx[k];
            if (ix->dist) {
                em_line(E, "%sn = %sn*hpfrt_ntrip(%sh%d)", E->p, E->p, E->p, ix->lp);
            } else {
                char *lo = em_ex(E, ix->lo), *hi = em_ex(E, ix->hi), *st = em_ex(E, ix->st);
                em_line(E, "%sn = %sn*max(0, (%s - (%s) + (%s))/(%s))", E->p, E->p, hi, lo, st, st);
                free(lo);
                free(hi);
                free(st);
            }
        }
        em_line(E, "allocate(%st%d(max(1, %sn)))", E->p, lp->tbuf, E->p);
        if (lp->scatter) {
            const SpRef *r = lp->lhs->ir;
            em_line(E, "allocate(%st%d(%d, max(1, %sn)))", E->p, lp->tidx, r->arr->rank, E->p);
            em_line(E, "%sc%d = 0", E->p, lp->ctx_mask->id);
        }
        if (lp->mask && lp->lhs_temp)
            em_line(E, "allocate(%st%d(max(1, %sn)))", E->p, lp->tmask, E->p);
    }
    compute(E, lp);
    if (lp->scatter) {
        const SpRef *r = lp->lhs->ir;
        StrBuf b = {0};
        em_first_elem(E, &b, r->arr);
        em_line(E, "call hpfrt_scatter_%s(%s, %s, %sc%d, %st%d(1, 1), %st%d(1))",
             em_tsuffix(r->arr->type), em_desc(E, r->arr), b.s, E->p, lp->ctx_mask->id, E->p,
             lp->tidx, E->p, lp->tbuf);
        sb_free(&b);
        em_line(E, "deallocate(%st%d, %st%d)", E->p, lp->tidx, E->p, lp->tbuf);
    }
    if (lp->lhs_temp) {
        walk(E, W_COPY);
        em_line(E, "deallocate(%st%d)", E->p, lp->tbuf);
        if (lp->mask)
            em_line(E, "deallocate(%st%d)", E->p, lp->tmask);
    }
    for (int i = 0; i < lp->gathers.n; i++) {
        const SpGather *g = lp->gathers.v[i];
        em_line(E, "deallocate(%st%d, %st%d)", E->p, g->idx, E->p, g->buf);
    }
    if (direct) {
        E->level--;
        em_line(E, "end if");
    }
    free(E->marks);
    E->marks = NULL;
    em_line(E, "call hpfrt_region_end(%d)", s->line);
    E->loop = saved;
}
