/* lower.c - the SPMD lowering (phase 1 of Parashar & Hariri): array
 * assignments and WHERE become FORALL, every FORALL a loop over the
 * iterations whose left-hand element this processor owns (owner computes),
 * with the communication its references need before it; scalar statements
 * run on every processor. Produces the SPMD IR of spmd.h. */
#include <config.h>

#include <stdint.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lower_int.h"
#include "../runtime/hpfmap.h"
#include "../runtime/hpfrt.h"

static const Type T_INT = {TY_INTEGER, 4};
static const Type T_LOG = {TY_LOGICAL, 4};

const char *const pattern_name[PAT_COUNT] = {
    "none", "overlap", "broadcast", "multicast", "transpose", "cshift", "indirect",
    "remap", "reduce",
};

/* Whether n reads only constants, PARAMETERs, FORALL indices and intrinsics
 * of those (the lowering's mod, max, min, merge included), and scalar
 * INTEGER variables, each added to keys[0..*nk) once (a name node of it):
 * 1; 0 when it reads anything else or more than max scalars (max 0:
 * spmd_invariant). max -1: any number of scalars, not recorded, and no
 * FORALL index (spmd_scalar_expr). */
static int keyed_expr(const Node *n, const Node **keys, int *nk, int max)
{
    if (!n)
        return 1;
    switch (n->kind) {
    case AST_INT_CONST: case AST_REAL_CONST: case AST_LOGICAL_CONST: return 1;
    case AST_NAME: {
        const Symbol *y = n->u.name.sym;
        if (y && (y->kind == SYM_PARAMETER || (y->kind == SYM_INDEX && max >= 0)))
            return 1;
        if (!y || y->kind != SYM_VARIABLE || y->rank || n->rank || y->optional
            || y->type.base != TY_INTEGER || (y->type.kind != 4 && y->type.kind != 8))
            return 0;
        if (max < 0)
            return 1;
        for (int i = 0; i < *nk; i++)
            if (keys[i]->u.name.sym == y)
                return 1;
        if (*nk >= max)
            return 0;
        keys[(*nk)++] = n;
        return 1;
    }
    case AST_BINARY:
        return keyed_expr(n->u.binary.lhs, keys, nk, max) &&
               keyed_expr(n->u.binary.rhs, keys, nk, max);
    case AST_UNARY: case AST_PAREN: return keyed_expr(n->u.unary.operand, keys, nk, max);
    case AST_REF:
        /* an intrinsic of the source, or one the lowering built (mod,
           max, min, merge of a CSHIFT's or EOSHIFT's subscripts) */
        if (!(n->u.ref.what == REF_INTRINSIC && !n->ir) &&
            !(n->u.ref.what == REF_FUNCTION && !n->u.ref.sym))
            return 0;
        for (int i = 0; i < n->u.ref.args.n; i++)
            if (!keyed_expr(n->u.ref.args.v[i], keys, nk, max))
                return 0;
        return 1;
    default: return 0;
    }
}

int spmd_invariant(const Node *n)
{
    int nk = 0;
    return keyed_expr(n, NULL, &nk, 0);
}

int spmd_scalar_expr(const Node *n)
{
    int nk = 0;
    return keyed_expr(n, NULL, &nk, -1);
}

int spmd_gather_keys(const SpLoop *l, const SpRef *r, const SpCtx *ctx, const Node **keys)
{
    const Node *k0[SPMD_MAX_KEYS];
    int nk = 0, m = SPMD_MAX_KEYS;
    if (!keys)
        keys = k0;
    if (ctx && ctx != l->ctx_iter && ctx != l->ctx_guard && ctx != l->ctx_mask)
        return -1;                /* inside an inline reduction */
    if (!keyed_expr(l->mask, keys, &nk, m))
        return -1;
    for (int k = 0; k < l->nidx; k++) {
        const SpIndex *ix = &l->idx[k];
        if (!keyed_expr(ix->lo, keys, &nk, m) || !keyed_expr(ix->hi, keys, &nk, m) ||
            !keyed_expr(ix->st, keys, &nk, m))
            return -1;
        if (ix->dist && (ix->arr != l->arr || !keyed_expr(ix->a, keys, &nk, m) ||
                         !keyed_expr(ix->b, keys, &nk, m)))
            return -1;
    }
    for (int g = 0; g < l->nguard; g++)
        if (!keyed_expr(l->guard[g].sub, keys, &nk, m))
            return -1;
    for (int d = 0; d < r->arr->rank; d++)
        if (!keyed_expr(r->sub[d], keys, &nk, m))
            return -1;
    return nk;
}

int spmd_gather_invariant(const SpLoop *l, const SpRef *r, const SpCtx *ctx)
{
    return spmd_gather_keys(l, r, ctx, NULL) == 0;
}

int spmd_vector_loop(const SpLoop *lp)
{
    if (!lp->nidx || !lp->idx[0].dist || lp->mask || lp->nguard || lp->gathers.n ||
        lp->scatter || lp->lhs_temp || lp->red_loc)
        return 0;
    /* (a REAL sum vectorizes in order: its elements' operations in
       vectors, the adds one by one; a product does not) */
    if (lp->red_op == HPFRT_PRODUCT && lp->red_type.base != TY_INTEGER)
        return 0;
    long long st;
    return cint(lp->idx[0].st, &st) && st == 1;
}

int spmd_direct_one(const SpLoop *lp)
{
    if (!lp->gathers.n || lp->scatter || lp->lhs_temp)
        return 0;
    if (lp->apart)
        return 1;                 /* (when direct_if holds) */
    const SpRef *l = lp->lhs ? lp->lhs->ir : NULL;
    const SpArr *w = l ? l->arr : NULL;
    for (int i = 0; w && i < lp->gathers.n; i++) {
        const SpArr *x = ((const SpGather *)lp->gathers.v[i])->r->arr;
        if (x == w || (x->sym && x->sym == w->sym))
            return 0;
    }
    return 1;
}

int spmd_seg_hoisted(const SpLoop *lp, int k)
{
    return k >= 0 && k < lp->nidx - 1 && lp->idx[k].dist;
}

/* ---- loops ---- */

/* An element of array arr as a reference of access acc (ACC_SCATTER: a
 * scattered FORALL's left-hand side, its subscripts in ctx; ACC_LOCAL: an
 * element the owners store), its subscripts lowered; an owner's
 * subscript in a distributed dimension becomes a local one through
 * hpfrt_g2l (lvar -2). */
static Node *elem_ref(Lower *L, const Node *lhs, AccKind acc, SpArr *arr, SpCtx *ctx)
{
    SpRef *r = arena_alloc(L->a, sizeof *r);
    r->acc = acc;
    r->arr = arr;
    Node *l = arena_alloc(L->a, sizeof *l);
    *l = *lhs;
    l->u.ref.args = (PtrVec){0};
    for (int d = 0; d < lhs->u.ref.args.n; d++) {
        r->sub[d] = lx(L, lhs->u.ref.args.v[d], ctx);
        r->lvar[d] = acc == ACC_LOCAL && arr->tdim[d] >= 0 ? -2 : -1;
        vec_push(L->a, &l->u.ref.args, r->sub[d]);
    }
    l->ir = r;
    return l;
}

static int elem_ref_visit(Node *n, void *ctx)
{
    if (n->kind == AST_REF && n->u.ref.what == REF_ELEMENT)
        return 1;
    return ast_children(n, elem_ref_visit, ctx);
}

static int has_elem_ref(Node *e)
{
    return elem_ref_visit(e, NULL);
}

/* Whether a reference of the left-hand array cannot read an element the
 * assignment writes: in some dimension both subscripts are constants, and
 * different (px(1, k) = ... px(13, k): other rows). */
static int disjoint_row(const SpRef *r, const Node *lhs)
{
    for (int d = 0; d < lhs->u.ref.args.n; d++) {
        long long a, b;
        if (!r->delta[d] && cint(r->sub[d], &a) && cint(lhs->u.ref.args.v[d], &b) && a != b)
            return 1;
    }
    return 0;
}

/* ---- the parity a FORALL's mask fixes (red-black orderings) ----------------
 * A mask MOD(A, 2) == m (or one .AND. conjunct of it), A integer-linear in
 * the FORALL's indices, lets only iterations with A of m's parity assign.
 * When the left-hand side's subscripts are those indices (plus constants),
 * the parity of A is a function of the element written; a reference at
 * constant offsets c from the left-hand side whose offsets along the
 * indices of odd coefficient sum to an odd number then reads elements of
 * the other parity, which no iteration writes: the reads need no
 * temporary. */
typedef struct {
    int ok;
    int nidx;
    Symbol **var;              /* the FORALL's indices */
    long long odd[MAX_RANK * 2];  /* per index: its coefficient in A, mod 2 */
} Parity;

/* e = sum coef[k]*var[k] + *c0 with integer coefficients: 1, or 0 */
static int lin_form(const Node *e, const Parity *P, long long *coef, long long *c0);

/* coef, c0 += f times the linear form of e */
static int lin_add(const Node *e, const Parity *P, long long f, long long *coef, long long *c0)
{
    long long k2[MAX_RANK * 2] = {0}, z = 0;
    if (!lin_form(e, P, k2, &z))
        return 0;
    for (int k = 0; k < P->nidx; k++)
        coef[k] += f * k2[k];
    *c0 += f * z;
    return 1;
}

static int lin_form(const Node *e, const Parity *P, long long *coef, long long *c0)
{
    long long v;
    if (!e)
        return 0;
    if (cint(e, &v)) {
        *c0 += v;
        return 1;
    }
    switch (e->kind) {
    case AST_NAME:
        for (int k = 0; k < P->nidx; k++)
            if (e->u.name.sym && e->u.name.sym == P->var[k]) {
                coef[k] += 1;
                return 1;
            }
        return 0;
    case AST_PAREN:
        return lin_form(e->u.unary.operand, P, coef, c0);
    case AST_UNARY:
        if (e->u.unary.op != OP_PLUS && e->u.unary.op != OP_NEG)
            return 0;
        return lin_add(e->u.unary.operand, P, e->u.unary.op == OP_NEG ? -1 : 1, coef, c0);
    case AST_BINARY: {
        Op op = e->u.binary.op;
        if (op == OP_ADD || op == OP_SUB)
            return lin_form(e->u.binary.lhs, P, coef, c0) &&
                   lin_add(e->u.binary.rhs, P, op == OP_SUB ? -1 : 1, coef, c0);
        if (op == OP_MUL) {
            if (cint(e->u.binary.rhs, &v))
                return lin_add(e->u.binary.lhs, P, v, coef, c0);
            if (cint(e->u.binary.lhs, &v))
                return lin_add(e->u.binary.rhs, P, v, coef, c0);
        }
        return 0;
    }
    default:
        return 0;
    }
}

/* One conjunct: MOD(A, d) == m or m == MOD(A, d), d even, m constant; or
 * MOD(A, 2) /= 0 (A odd). Sets P->odd and returns 1. */
static int parity_conjunct(const Node *e, Parity *P)
{
    while (e && e->kind == AST_PAREN)
        e = e->u.unary.operand;
    if (!e || e->kind != AST_BINARY)
        return 0;
    if (e->u.binary.op == OP_AND)
        return parity_conjunct(e->u.binary.lhs, P) || parity_conjunct(e->u.binary.rhs, P);
    if (e->u.binary.op != OP_EQ && e->u.binary.op != OP_NE)
        return 0;
    const Node *md = e->u.binary.lhs, *mv = e->u.binary.rhs;
    long long m, d;
    if (!cint(mv, &m)) {
        md = e->u.binary.rhs;
        mv = e->u.binary.lhs;
        if (!cint(mv, &m))
            return 0;
    }
    while (md->kind == AST_PAREN)
        md = md->u.unary.operand;
    if (md->kind != AST_REF || md->u.ref.what != REF_INTRINSIC || strcasecmp(md->u.ref.id, "mod")
        || md->u.ref.args.n != 2 || !cint(md->u.ref.args.v[1], &d) || d == 0 || d % 2)
        return 0;
    if (e->u.binary.op == OP_NE && (m != 0 || (d != 2 && d != -2)))
        return 0;
    long long coef[MAX_RANK * 2] = {0}, c0 = 0;
    if (!lin_form(md->u.ref.args.v[0], P, coef, &c0))
        return 0;
    for (int k = 0; k < P->nidx; k++)
        P->odd[k] = coef[k] & 1;
    return 1;
}

static Parity mask_parity(const Node *mask, int nidx, Symbol **vars)
{
    Parity P = {0};
    if (!mask || nidx > MAX_RANK * 2)
        return P;
    P.nidx = nidx;
    P.var = vars;
    P.ok = parity_conjunct(mask, &P);
    return P;
}

/* Does the reference read only elements the assignment to lhs never
 * writes, by the mask's parity? */
static int parity_disjoint(const Parity *P, const SpRef *r, const Node *lhs)
{
    if (!P->ok)
        return 0;
    long long sum = 0;
    int seen[MAX_RANK * 2] = {0};
    for (int d = 0; d < lhs->u.ref.args.n; d++) {
        long long cl[MAX_RANK * 2] = {0}, cr[MAX_RANK * 2] = {0}, zl = 0, zr = 0;
        if (!lin_form(lhs->u.ref.args.v[d], P, cl, &zl) || !lin_form(r->sub[d], P, cr, &zr))
            return 0;
        int idx = -1;
        for (int k = 0; k < P->nidx; k++) {
            if (cl[k] != cr[k])
                return 0;             /* not a constant offset */
            if (cl[k] && P->odd[k]) {
                if (idx >= 0 || (cl[k] != 1 && cl[k] != -1))
                    return 0;         /* A's parity is not read off this subscript */
                idx = k;
            }
        }
        if (idx >= 0) {
            seen[idx] = 1;
            sum += zr - zl;
        }
    }
    for (int k = 0; k < P->nidx; k++)
        if (P->odd[k] && !seen[k])
            return 0;                 /* an index of odd coefficient not on the left */
    return (sum & 1) != 0;
}

static int lhs_read_visit(Node *n, void *ctx)
{
    void **c = ctx;
    Node *lhs = c[0];
    const Parity *par = c[1];
    if (n->kind == AST_REF && n->u.ref.what == REF_ELEMENT && n->ir
        && n->u.ref.sym == lhs->u.ref.sym) {
        SpRef *r = n->ir;
        if ((r->acc == ACC_LOCAL || r->acc == ACC_GLOBAL) && !disjoint_row(r, lhs)
            && !parity_disjoint(par, r, lhs)) {
            for (int d = 0; d < lhs->u.ref.args.n; d++)
                if (!same_expr(r->sub[d], lhs->u.ref.args.v[d]) || r->delta[d])
                    return 1;
        }
    }
    if (n->kind == AST_REF && n->u.ref.what == REF_INTRINSIC && n->ir) {
        SpRed *sr = n->ir;
        if (lhs_read_visit(sr->body, ctx) || (sr->mask && lhs_read_visit(sr->mask, ctx)))
            return 1;
    }
    return ast_children(n, lhs_read_visit, ctx);
}

SpLoop *lower_loop(Lower *L, int nidx, Symbol **vars, Node **lo, Node **hi, Node **st,
                   Node *mask, Node *lhs, Node *rhs, int red_op, SpArr *driver)
{
    SpLoop *lp = arena_alloc(L->a, sizeof *lp);
    lp->idx = arena_alloc(L->a, (size_t)(nidx + MAX_RANK) * sizeof *lp->idx);
    SpLoop *saved = L->loop;
    int saved_vars = L->loopvars.n;
    L->loop = NULL;
    for (int k = 0; k < nidx; k++) {
        SpIndex *ix = &lp->idx[k];
        ix->var = vars[k];
        ix->lo = lx(L, lo[k], NULL);
        ix->hi = lx(L, hi[k], NULL);
        ix->st = lx(L, st[k], NULL);
        vec_push(NULL, &L->loopvars, vars[k]);
        vec_push(L->a, &L->u->index_syms, vars[k]);
    }
    lp->nidx = nidx;
    SpArr *X = NULL;
    if (red_op)
        X = driver;
    else if (!lhs->ir)
        X = arr_of(L, lhs->u.ref.sym);
    /* a left-hand side through an index vector: the iterations run where
     * a right-hand reference is owned, and the values go to the owners */
    Node *home = lhs;
    SpArr *target = NULL;
    for (int d = 0; !red_op && X && d < X->rank; d++)
        if (X->tdim[d] >= 0 && has_elem_ref(lhs->u.ref.args.v[d])) {
            Node *exprs[3] = {rhs, mask, lhs};
            Node *drv = find_driver(L, exprs, 3);
            if (drv) {
                target = X;
                home = drv;
                X = arr_of(L, drv->u.ref.sym);
                lp->scatter = 1;
            }
            break;
        }
    lp->arr = X;
    lp->red_op = red_op;
    lp->primary = (red_op || lp->scatter) && X;
    Node *lsub[MAX_RANK];
    int bound[MAX_RANK];
    for (int d = 0; home && d < home->u.ref.args.n; d++) {
        lsub[d] = home->u.ref.args.v[d];
        bound[d] = -1;
    }
    if (X) {
        for (int d = 0; d < X->rank; d++) {
            if (X->tdim[d] < 0)
                continue;
            Symbol *v;
            long long a, c;
            Node *rest;
            int ok = affine_of(L, lsub[d], &v, &a, &c, &rest) && X->cknown[d];
            int k = -1;
            for (int j = 0; ok && v && j < lp->nidx; j++)
                if (lp->idx[j].var == v && !lp->idx[j].dist)
                    k = j;
            if (ok && v && k >= 0) {
                SpIndex *ix = &lp->idx[k];
                ix->dist = 1;
                ix->arr = X;
                ix->dim = d;
                ix->a_const = a;
                ix->a = mk_int(L, a);
                ix->b = lx(L, rest ? mk_bin(L, OP_ADD, rest, mk_int(L, c)) : mk_int(L, c), NULL);
                ix->lp = ++L->u->nloopvars;
                bound[d] = k;
            } else if (ok && !v) {
                SpIndex *ix = &lp->idx[lp->nidx];
                ix->var = new_index(L);
                vec_push(L->a, &L->u->index_syms, ix->var);
                ix->lo = ix->hi = ix->st = mk_int(L, 1);
                ix->dist = 1;
                ix->arr = X;
                ix->dim = d;
                ix->a_const = 0;
                ix->a = mk_int(L, 0);
                ix->b = lx(L, lsub[d], NULL);
                ix->lp = ++L->u->nloopvars;
                bound[d] = lp->nidx++;
            } else {
                lp->guard[lp->nguard++] = (SpGuard){d, lsub[d]};
            }
        }
    }
    L->loop = lp;
    lp->ctx_iter = new_ctx(L, NULL);
    for (int g = 0; g < lp->nguard; g++)
        lp->guard[g].sub = lx(L, lp->guard[g].sub, lp->ctx_iter);
    lp->ctx_guard = lp->ctx_iter;
    if (lp->nguard) {
        lp->ctx_guard = new_ctx(L, lp->ctx_iter);
        for (int g = 0; g < lp->nguard; g++) {
            int m = max_round(lp->guard[g].sub);
            if (m + 1 > lp->ctx_guard->minround)
                lp->ctx_guard->minround = m + 1;
        }
    }
    lp->mask = lx(L, mask, lp->ctx_guard);
    lp->ctx_mask = lp->ctx_guard;
    if (mask) {
        lp->ctx_mask = new_ctx(L, lp->ctx_guard);
        int m = max_round(lp->mask);
        if (m + 1 > lp->ctx_mask->minround)
            lp->ctx_mask->minround = m + 1;
    }
    if (lp->scatter) {
        lp->lhs = elem_ref(L, lhs, ACC_SCATTER, target, lp->ctx_mask);
        lp->tbuf = new_temp(L, lhs->type, 1);
        lp->tidx = new_temp(L, T_INT, 2);
        lp->ctx_mask->used = 1;
    } else if (!red_op) {
        Node *subs[MAX_RANK];
        int n = lhs->u.ref.args.n;
        SpRef *pre = lhs->ir;
        SpRef *r = arena_alloc(L->a, sizeof *r);
        r->arr = X ? X : pre ? pre->arr : NULL;
        r->acc = X ? ACC_LOCAL : ACC_GLOBAL;
        for (int d = 0; d < n; d++) {
            if (bound[d] >= 0) {
                subs[d] = lsub[d];
                r->lvar[d] = bound[d];
            } else {
                subs[d] = lx(L, lsub[d], lp->ctx_mask);
                r->lvar[d] = X && X->tdim[d] >= 0 ? -2 : -1;
            }
            r->sub[d] = subs[d];
        }
        Node *l = arena_alloc(L->a, sizeof *l);
        *l = *lhs;
        l->u.ref.args = (PtrVec){0};
        for (int d = 0; d < n; d++)
            vec_push(L->a, &l->u.ref.args, subs[d]);
        l->ir = r;
        lp->lhs = l;
    }
    lp->rhs = lx(L, rhs, lp->ctx_mask);
    overlap_boxes(L, lp);
    if (!red_op && !lp->scatter && lhs->u.ref.sym) {
        Parity par = mask_parity(mask, nidx, vars);
        void *c[2] = {lhs, &par};
        if (lhs_read_visit(lp->rhs, c) || (lp->mask && lhs_read_visit(lp->mask, c))) {
            lp->lhs_temp = 1;
            lp->tbuf = new_temp(L, lhs->type, 1);
            lp->ctx_mask->used = 1;
            if (lp->mask) {
                lp->tmask = new_temp(L, T_LOG, 1);
                lp->ctx_guard->used = 1;
            }
        }
    }
    direct_apart(L, lp);
    L->loop = saved;
    L->loopvars.n = saved_vars;
    return lp;
}

/* ---- statements ---- */

static int has_call(Node *e);
static int mentions(Node *e, Symbol *y);
static void retarget_ref(Lower *L, Node *r, Symbol *y, SpArr *tmp);

/* References that every iteration of a FORALL reads whole, inside an inline
 * reduction: x(k) in y(i) = SUM(a(i, k)*x(k)) (MATMUL, DOT_PRODUCT of a
 * row, SUM with DIM=). Each subscript runs an index of the enclosing
 * reductions and none of the FORALL's indices, and the reference runs as
 * many reduction indices as the array has dimensions: it sweeps the whole
 * array (or a section of its size), the same at every iteration. Gathered
 * where it stands it would be fetched once an iteration (the FORALL's
 * iterations times the array's size, n^2/P for a matrix-vector product);
 * copied whole into a replicated temporary before the statement, it is
 * fetched once (n). FORALL semantics allow it: the right-hand side is
 * evaluated before any element is assigned, so the copy may be taken
 * before the statement even where the statement assigns the array. */
typedef struct {
    Lower *L;
    Symbol **fvars;               /* the FORALL's indices */
    int nf;
    Symbol *rvars[16];            /* the enclosing reductions' indices */
    int nr;
    PtrVec *found;                /* the references to copy */
} Swept;

static int swept_ref(Swept *w, Node *r)
{
    SpArr *A = arr_of(w->L, r->u.ref.sym);
    Symbol *y = r->u.ref.sym;
    if (!A || !A->tmpl || r->u.ref.args.n != y->rank || !w->nr)
        return 0;
    int used[16] = {0}, nused = 0;
    for (int d = 0; d < r->u.ref.args.n; d++) {
        Node *sub = r->u.ref.args.v[d];
        int any = 0;
        for (int k = 0; k < w->nf; k++)
            if (mentions(sub, w->fvars[k]))
                return 0;
        for (int k = 0; k < w->nr; k++)
            if (mentions(sub, w->rvars[k])) {
                any = 1;
                if (!used[k]++)
                    nused++;
            }
        if (!any)
            return 0;
    }
    return nused >= y->rank;
}

static int swept_visit(Node *n, void *ctx)
{
    Swept *w = ctx;
    if (n->kind == AST_REF && n->u.ref.what == REF_INTRINSIC && n->ir) {
        SpRed *sr = n->ir;
        if (w->nr == 16)
            return 0;
        w->rvars[w->nr++] = sr->var;
        swept_visit(sr->body, ctx);
        if (sr->mask)
            swept_visit(sr->mask, ctx);
        w->nr--;
        return 0;
    }
    if (n->kind == AST_REF && n->u.ref.what == REF_ELEMENT && n->u.ref.sym && swept_ref(w, n)) {
        vec_push(NULL, w->found, n);
        return 0;
    }
    ast_children(n, swept_visit, ctx);
    return 0;
}

/* The swept references of e copied: each array once, into a temporary
 * filled on out and pushed onto temps (freed after the statement). */
static void replicate_swept(Lower *L, Node *e, Symbol **fvars, int nf, PtrVec *temps,
                            PtrVec *out)
{
    PtrVec found = {0};
    Swept w = {L, fvars, nf, {0}, 0, &found};
    if (e)
        swept_visit(e, &w);
    Symbol *seen[16];
    SpArr *tmp[16];
    int nseen = 0;
    for (int k = 0; k < found.n; k++) {
        Node *r = found.v[k];
        Symbol *y = r->u.ref.sym;
        int j = 0;
        while (j < nseen && seen[j] != y)
            j++;
        if (j == nseen) {
            if (nseen == 16)
                continue;            /* (left to the gathers) */
            Node *t = temp_array(L, mk_name(L, y, r->loc), out);
            vec_push(NULL, temps, t);
            seen[nseen] = y;
            tmp[nseen++] = ((SpRef *)t->ir)->arr;
        }
        retarget_ref(L, r, y, tmp[j]);
    }
    free(found.v);
}

/* Whether a reference of e (inside its reductions too) has a FORALL index
 * in its first subscript and reduction index k in a later one: a(i, k),
 * whose inline reduction walks a row, stride the column's length. */
typedef struct {
    Symbol **fvars;
    int nf;
    Symbol *k;
} RowWalk;

static int row_walk_visit(Node *n, void *ctx)
{
    RowWalk *w = ctx;
    if (n->kind == AST_REF && n->u.ref.what == REF_INTRINSIC && n->ir) {
        SpRed *sr = n->ir;
        return row_walk_visit(sr->body, ctx) || (sr->mask && row_walk_visit(sr->mask, ctx));
    }
    if (n->kind == AST_REF && n->u.ref.what == REF_ELEMENT && n->u.ref.args.n > 1) {
        int first = 0, later = 0;
        for (int k = 0; k < w->nf; k++)
            first |= mentions(n->u.ref.args.v[0], w->fvars[k]);
        for (int d = 1; d < n->u.ref.args.n; d++)
            later |= mentions(n->u.ref.args.v[d], w->k);
        if (first && later && !mentions(n->u.ref.args.v[0], w->k))
            return 1;
    }
    return ast_children(n, row_walk_visit, ctx);
}

/* lhs(i) = SUM over k of f(i, k) whose terms walk rows (MATMUL(a, x) of a
 * column-major a: a(i, k) with k innermost) as
 *     FORALL (i) lhs(i) = 0
 *     DO k: FORALL (i) lhs(i) = lhs(i) + f(i, k)
 * and a PRODUCT likewise (1, *)
 * so that the innermost loop runs down the columns. Each element's sum
 * takes its terms in the same order, so the result is the same to the
 * bit. Only where the lowered statement (lp) needs no communication (a
 * DO of FORALLs would repeat it k times), has no mask and no temporary,
 * and the sum's type is the left-hand side's. Returns 1 when done (the
 * statements are on out; lp is dropped with the temporaries from ntemps
 * on). */
static int interchange_sum(Lower *L, SpLoop *lp, int ntemps, int n, Symbol **v, Node **l,
                           Node **h, Node **s, Node *me, Node *le, Node *re, PtrVec *out)
{
    if (me || lp->gathers.n || lp->overlaps.n || lp->lhs_temp || lp->scatter || !lp->arr
        || re->kind != AST_REF || re->u.ref.what != REF_INTRINSIC || !re->ir)
        return 0;
    SpRed *sr = re->ir;
    if ((sr->op != HPFRT_SUM && sr->op != HPFRT_PRODUCT) || sr->loc || sr->mask
        || sr->type.base != le->type.base
        || sr->type.kind != le->type.kind)
        return 0;
    for (int k = 0; k < n; k++)
        if (mentions(sr->n, v[k]))
            return 0;
    RowWalk w = {v, n, sr->var};
    if (!row_walk_visit(sr->body, &w))
        return 0;
    /* lp is dropped, and the temporaries its lowering made (ntemps on; it
       put no statement before it, or we would not be here) */
    int keep = L->u->temps.n;
    void *lpt[64];
    if (keep - ntemps > 64)
        return 0;
    for (int k = ntemps; k < keep; k++)
        lpt[k - ntemps] = L->u->temps.v[k];
    L->u->temps.n = ntemps;
    SpStmt *z = new_stmt(L, SP_FORALL);
    z->u.loop = lower_loop(L, n, v, l, h, s, NULL, le, mk_int(L, sr->op == HPFRT_PRODUCT), 0,
                           NULL);
    SpStmt *d = new_stmt(L, SP_DO);
    d->u.do_.var = index_name(L, sr->var);
    d->u.do_.lo = mk_int(L, 0);
    d->u.do_.hi = lx(L, mk_bin(L, OP_SUB, sr->n, mk_int(L, 1)), NULL);
    Node *acc = mk_bin(L, sr->op == HPFRT_PRODUCT ? OP_MUL : OP_ADD, le, sr->body);
    acc->type = sr->type;
    SpStmt *f = new_stmt(L, SP_FORALL);
    f->u.loop = lower_loop(L, n, v, l, h, s, NULL, le, acc, 0, NULL);
    /* (the accumulation reads its own element only: no temporary) */
    if (f->u.loop->gathers.n || f->u.loop->overlaps.n || f->u.loop->lhs_temp) {
        /* (not expected: lp stands, with its temporaries) */
        L->u->temps.n = ntemps;
        for (int k = ntemps; k < keep; k++)
            vec_push(L->a, &L->u->temps, lpt[k - ntemps]);
        return 0;
    }
    vec_push(L->a, &L->u->index_syms, sr->var);
    add_stmt(L, &d->u.do_.body, f);
    add_stmt(L, out, z);
    add_stmt(L, out, d);
    return 1;
}

/* The reductions of *e that vary with the FORALL's indices v (in
 * arithmetic, not in calls or subscripts) made inline reductions now, so
 * that replicate_swept and interchange_sum see their terms; the lowering
 * would make them so anyway. */
static void expand_inline(Lower *L, Node **e, Symbol **v, int n)
{
    Node *x = *e;
    switch (x->kind) {
    case AST_BINARY:
        expand_inline(L, &x->u.binary.lhs, v, n);
        expand_inline(L, &x->u.binary.rhs, v, n);
        return;
    case AST_UNARY: case AST_PAREN:
        expand_inline(L, &x->u.unary.operand, v, n);
        return;
    case AST_REF:
        if (inline_red_ok(x))
            for (int k = 0; k < n; k++)
                if (mentions(x, v[k])) {
                    *e = inline_red(L, x);
                    return;
                }
        return;
    default:
        return;
    }
}

/* lhs = rhs where lhs is an array (section): FORALL over its positions,
 * after the FORALL indices in vars[0..nv-1] when inside a FORALL. */
static void lower_array_assign(Lower *L, int nv, Symbol **vars, Node **lo, Node **hi,
                               Node **st, Node *mask, Node *lhs, Node *rhs, PtrVec *out)
{
    Symbol *v[MAX_SUBST];
    Node *l[MAX_SUBST], *h[MAX_SUBST], *s[MAX_SUBST], *pos[MAX_RANK];
    int n = nv;
    for (int k = 0; k < nv; k++) {
        v[k] = vars[k];
        l[k] = lo[k];
        h[k] = hi[k];
        s[k] = st[k];
    }
    for (int d = 0; d < lhs->rank && n < MAX_SUBST; d++) {
        v[n] = new_index(L);
        pos[d] = index_name(L, v[n]);
        l[n] = mk_int(L, 0);
        h[n] = mk_bin(L, OP_SUB, shape_n(L, lhs, d), mk_int(L, 1));
        s[n] = mk_int(L, 1);
        n++;
    }
    Node *le = lhs->rank ? elem(L, lhs, pos) : lhs;
    Node *re = lhs->rank && rhs->rank ? elem(L, rhs, pos) : rhs;
    Node *me = mask && mask->rank ? elem(L, mask, pos) : mask;
    if (L->errors)
        return;
    PtrVec temps = {0};
    if (re)
        expand_inline(L, &re, v, n);
    replicate_swept(L, re, v, n, &temps, out);
    replicate_swept(L, me, v, n, &temps, out);
    int nout = out->n, ntemps = L->u->temps.n;
    SpLoop *lp = lower_loop(L, n, v, l, h, s, me, le, re, 0, NULL);
    if (out->n != nout || !interchange_sum(L, lp, ntemps, n, v, l, h, s, me, le, re, out)) {
        SpStmt *st_ = new_stmt(L, SP_FORALL);
        st_->u.loop = lp;
        add_stmt(L, out, st_);
    }
    for (int k = 0; k < temps.n; k++)
        free_temp_array(L, temps.v[k], out);
    free(temps.v);
}

static Node *temp_array_ext(Lower *L, Node *e, Node **hi, PtrVec *out);
static void lower_assign(Lower *L, Node *lhs, Node *rhs, Node *mask, PtrVec *out);

static int is_pack(const Node *e)
{
    return e->kind == AST_REF && e->u.ref.what == REF_INTRINSIC
           && (!strcmp(e->u.ref.id, "pack") || !strcmp(e->u.ref.id, "unpack"));
}

/* PACK (...) or UNPACK (...): the Fortran run time's, on replicated copies
 * of the arguments (gathered when mapped), every processor alike, into a
 * replicated temporary, which is returned (allocated). */
static Node *pack_temp(Lower *L, Node *rhs, PtrVec *out)
{
    Node *c = arena_alloc(L->a, sizeof *c);
    *c = *rhs;
    c->u.ref.args = (PtrVec){0};
    PtrVec temps = {0};
    L->pre = out;
    for (int i = 0; i < rhs->u.ref.args.n; i++) {
        Node *a = rhs->u.ref.args.v[i], *v = a->kind == AST_KEYWORD_ARG ? a->u.kwarg.value : a;
        Node *t = v->rank ? temp_array(L, v, out) : lx(L, v, NULL);
        if (v->rank)
            vec_push(NULL, &temps, t);
        if (a != v) {
            Node *k = arena_alloc(L->a, sizeof *k);
            *k = *a;
            k->u.kwarg.value = t;
            t = k;
        }
        vec_push(L->a, &c->u.ref.args, t);
    }
    /* the result's extents, kept before the copies go */
    Node *hi[MAX_RANK];
    for (int d = 0; d < c->rank; d++) {
        Node *x = shape_n(L, c, d);
        if (x->kind != AST_INT_CONST) {
            Node *k = mk_temp_name(L, new_temp(L, (Type){TY_INTEGER, 4}, 0),
                                   (Type){TY_INTEGER, 4});
            lower_assign(L, k, x, NULL, out);
            x = k;
        }
        hi[d] = x;
    }
    Node *r = temp_array_ext(L, c, hi, out);
    Node *asg = arena_alloc(L->a, sizeof *asg);
    asg->kind = AST_ASSIGN;
    asg->loc = rhs->loc;
    asg->u.assign.lhs = r;
    asg->u.assign.rhs = c;
    SpStmt *s = new_stmt(L, SP_SEQ);
    s->u.seq = asg;
    add_stmt(L, out, s);
    for (int i = 0; i < temps.n; i++)
        free_temp_array(L, temps.v[i], out);
    free(temps.v);
    return r;
}

static void lower_assign(Lower *L, Node *lhs, Node *rhs, Node *mask, PtrVec *out)
{
    if (lhs->rank && !mask && is_pack(rhs)) {
        Node *r = pack_temp(L, rhs, out);   /* then assigned as any array */
        lower_array_assign(L, 0, NULL, NULL, NULL, NULL, NULL, lhs, r, out);
        free_temp_array(L, r, out);
        return;
    }
    if (lhs->rank) {
        lower_array_assign(L, 0, NULL, NULL, NULL, NULL, mask, lhs, rhs, out);
        return;
    }
    L->pre = out;
    if (lhs->kind == AST_REF && lhs->u.ref.what == REF_ELEMENT && arr_of(L, lhs->u.ref.sym)) {
        Node *l = elem_ref(L, lhs, ACC_LOCAL, arr_of(L, lhs->u.ref.sym), NULL);
        Node *v = lx(L, rhs, NULL);
        if (has_call(v))
            v = hoist_value(L, v);   /* every processor calls, the owners store */
        SpStmt *s = new_stmt(L, SP_STORE);
        s->u.store.lhs = l;
        s->u.store.rhs = v;
        add_stmt(L, out, s);
        return;
    }
    Node *a = arena_alloc(L->a, sizeof *a);
    a->kind = AST_ASSIGN;
    a->loc = lhs->loc;
    a->u.assign.lhs = lx(L, lhs, NULL);
    a->u.assign.rhs = lx(L, rhs, NULL);
    SpStmt *s = new_stmt(L, SP_SEQ);
    s->u.seq = a;
    add_stmt(L, out, s);
}

/* FORALL (indices, mask) lhs = rhs: the user's indices become new loop
 * variables (a FORALL index is local to its statement). */
/* An assignment of a FORALL, under the FORALL's mask and, inside a WHERE
 * of the FORALL, the WHERE's mask too (wmask, NULL: none). */
static void lower_forall_masked(Lower *L, Node *f, Node *asg, Node *wmask, PtrVec *out);

static void lower_forall(Lower *L, Node *f, Node *asg, PtrVec *out)
{
    lower_forall_masked(L, f, asg, NULL, out);
}

static void lower_forall_masked(Lower *L, Node *f, Node *asg, Node *wmask, PtrVec *out)
{
    int n = f->u.forall.indices.n;
    Symbol *vars[MAX_SUBST];
    Node *lo[MAX_SUBST], *hi[MAX_SUBST], *st[MAX_SUBST];
    int saved = L->nsubst;
    for (int k = 0; k < n && k < MAX_RANK; k++) {
        Node *ix = f->u.forall.indices.v[k];
        vars[k] = new_index(L);
        lo[k] = copy_plain(L, ix->u.findex.lo);
        hi[k] = copy_plain(L, ix->u.findex.hi);
        st[k] = ix->u.findex.stride ? copy_plain(L, ix->u.findex.stride) : mk_int(L, 1);
        L->subst[L->nsubst++] = (Subst){ix->u.findex.sym, index_name(L, vars[k])};
    }
    Node *mask = copy_plain(L, f->u.forall.mask);
    if (wmask) {
        Node *wm = copy_plain(L, wmask);
        if (mask) {
            Node *both = mk_bin(L, OP_AND, mask, wm);
            both->type = wm->type;
            both->rank = wm->rank;
            both->extent = wm->extent;
            mask = both;
        } else {
            mask = wm;
        }
    }
    Node *lhs = copy_plain(L, asg->u.assign.lhs);
    Node *rhs = copy_plain(L, asg->u.assign.rhs);
    L->nsubst = saved;
    L->pre = out;
    lower_array_assign(L, n, vars, lo, hi, st, mask, lhs, rhs, out);
}

static int names_in_visit(Node *n, void *ctx)
{
    void **c = ctx;
    Symbol *y = c[0];
    if ((n->kind == AST_NAME && n->u.name.sym == y) || (n->kind == AST_REF && n->u.ref.sym == y))
        return 1;
    return ast_children(n, names_in_visit, ctx);
}

static int mentions(Node *e, Symbol *y)
{
    void *c[1] = {y};
    return e && names_in_visit(e, c);
}

static int whole_visit(Node *n, void *ctx)
{
    if (n->kind == AST_NAME && n->u.name.sym == ctx)
        return 1;
    if (n->kind == AST_REF && n->u.ref.sym == ctx)
        return 0;                 /* a reference: its subscripts are not the variable */
    return ast_children(n, whole_visit, ctx);
}

/* Whether e names variable y whole (not as a reference's base). */
static int names_whole(Node *e, Symbol *y)
{
    return e && whole_visit(e, y);
}

static Symbol *lhs_sym(Node *lhs)
{
    return lhs->kind == AST_NAME ? lhs->u.name.sym : lhs->u.ref.sym;
}

/* Whether every reference of mask to lhs's variable is lhs itself (the
 * same element of each point: where (b(i, :) > 3) b(i, :) = 0). */
static int mask_reads_own(Node *mask, Node *lhs)
{
    if (lhs->kind != AST_REF)
        return 0;
    PtrVec refs = {0};
    collect_refs(mask, &refs);
    char *want = unparse_expr_string(lhs, NULL, NULL);
    int ok = 1;
    for (int k = 0; k < refs.n && ok; k++) {
        Node *r = refs.v[k];
        if (r->u.ref.sym != lhs->u.ref.sym)
            continue;
        char *got = unparse_expr_string(r, NULL, NULL);
        ok = !strcmp(got, want);
        free(got);
    }
    free(want);
    free(refs.v);
    /* names of the whole variable are not references to an element */
    return ok && !names_whole(mask, lhs->u.ref.sym);
}

static Node *not_of(Lower *L, Node *c);
static Node *and_of(Lower *L, Node *a, Node *b);
static Node *or_of(Lower *L, Node *a, Node *b);

/* A WHERE inside a FORALL, F95 7.5.4.5: each assignment under the FORALL's
 * mask and the WHERE's, elementwise; an ELSEWHERE's under its own mask and
 * the negation of those before it. Done when the masks, evaluated first,
 * cannot change: they read nothing the assignments assign, or, for a WHERE
 * of one assignment and no ELSEWHERE, only the element each point
 * assigns; 0 otherwise (the caller refuses it). */
static int forall_where(Lower *L, Node *f, Node *w, PtrVec *out)
{
    int nb = w->u.cond.branches.n;
    Node *first = w->u.cond.branches.v[0];
    int one = nb == 1 && first->u.branch.body.n == 1;
    for (int b = 0; b < nb; b++) {
        Node *br = w->u.cond.branches.v[b];
        for (int i = 0; i < br->u.branch.body.n; i++) {
            Node *a = br->u.branch.body.v[i];
            if (a->kind != AST_ASSIGN)
                return 0;
            Node *lhs = a->u.assign.lhs;
            for (int k = 0; k < nb; k++) {
                Node *mask = ((Node *)w->u.cond.branches.v[k])->u.branch.cond;
                if (mask && mentions(mask, lhs_sym(lhs)) && !(one && mask_reads_own(mask, lhs)))
                    return 0;
            }
        }
    }
    Node *before = NULL;              /* the masks of the branches before: or-ed */
    for (int b = 0; b < nb; b++) {
        Node *br = w->u.cond.branches.v[b];
        Node *m = br->u.branch.cond;
        Node *eff = !before ? m : m ? and_of(L, m, not_of(L, before)) : not_of(L, before);
        before = !m ? before : before ? or_of(L, before, m) : m;
        for (int i = 0; i < br->u.branch.body.n; i++) {
            Node *a = br->u.branch.body.v[i];
            L->line = a->loc.line;
            L->loc = a->loc;
            lower_forall_masked(L, f, a, eff, out);
        }
    }
    return 1;
}

static Node *not_of(Lower *L, Node *c)
{
    Node *p = arena_alloc(L->a, sizeof *p);
    p->kind = AST_PAREN;
    p->u.unary.operand = c;
    p->type = c->type;
    p->rank = c->rank;
    p->extent = c->extent;
    Node *n = arena_alloc(L->a, sizeof *n);
    n->kind = AST_UNARY;
    n->u.unary.op = OP_NOT;
    n->u.unary.operand = p;
    n->type = c->type;
    n->rank = c->rank;
    n->extent = c->extent;
    return n;
}

static Node *and_of(Lower *L, Node *a, Node *b)
{
    if (!a)
        return b;
    Node *n = arena_alloc(L->a, sizeof *n);
    n->kind = AST_BINARY;
    n->u.binary.op = OP_AND;
    n->u.binary.lhs = a;
    n->u.binary.rhs = b;
    n->type = a->type;
    n->rank = a->rank ? a->rank : b->rank;
    n->extent = a->rank ? a->extent : b->extent;
    return n;
}

static Node *or_of(Lower *L, Node *a, Node *b)
{
    Node *n = and_of(L, a, b);
    n->u.binary.op = OP_OR;
    return n;
}

/* A replicated temporary array of the shape of e (or of the extents hi,
 * when given), allocated. */
static Node *temp_array_ext(Lower *L, Node *e, Node **hi, PtrVec *out)
{
    SpArr *t = arena_alloc(L->a, sizeof *t);
    t->id = -(L->u->temp_arrs.n + 1);
    t->name = arena_printf(L->a, "%sw%d", L->prog->prefix, L->u->temp_arrs.n + 1);
    t->type = e->type;
    t->rank = e->rank;
    for (int d = 0; d < e->rank; d++) {
        t->lo[d] = mk_int(L, 1);
        t->hi[d] = hi ? hi[d] : shape_n(L, e, d);
        t->tdim[d] = -1;
    }
    SpStmt *al = new_stmt(L, SP_ALLOC);
    Node *ref = arena_alloc(L->a, sizeof *ref);
    ref->kind = AST_REF;
    ref->u.ref.id = t->name;
    ref->u.ref.what = REF_SECTION;
    ref->type = e->type;
    ref->rank = e->rank;
    ref->extent = e->extent;
    SpRef *r = arena_alloc(L->a, sizeof *r);
    r->acc = ACC_GLOBAL;
    r->arr = t;
    ref->ir = r;
    vec_push(L->a, &al->u.alloc.items, ref);
    add_stmt(L, out, al);
    /* the whole temporary as an array expression: t(1:n1, ...) */
    for (int d = 0; d < e->rank; d++) {
        Node *tr = arena_alloc(L->a, sizeof *tr);
        tr->kind = AST_TRIPLET;
        tr->u.triplet.lo = mk_int(L, 1);
        tr->u.triplet.hi = t->hi[d];
        vec_push(L->a, &ref->u.ref.args, tr);
    }
    vec_push(L->a, &L->u->temp_arrs, t);
    return ref;
}

static Node *temp_array_new(Lower *L, Node *e, PtrVec *out)
{
    return temp_array_ext(L, e, NULL, out);
}

/* ... and filled with e. */
Node *temp_array(Lower *L, Node *e, PtrVec *out)
{
    if (is_pack(e))
        return pack_temp(L, e, out);
    Node *ref = temp_array_new(L, e, out);
    lower_array_assign(L, 0, NULL, NULL, NULL, NULL, NULL, ref, e, out);
    return ref;
}

void free_temp_array(Lower *L, Node *ref, PtrVec *out)
{
    SpStmt *s = new_stmt(L, SP_DEALLOC);
    vec_push(L->a, &s->u.alloc.items, ref);
    add_stmt(L, out, s);
}

/* WHERE / ELSEWHERE (F95 7.5.3.2): each mask is evaluated when its
 * statement is reached, after the branches before it, and the pending mask
 * keeps the values it had then. A mask that an assignment of its own or a
 * later branch could change is first evaluated into a temporary. */
static void lower_where(Lower *L, Node *w, PtrVec *out)
{
    Node *prev = NULL;              /* the masks of the branches before */
    PtrVec temps = {0};
    int nb = w->u.cond.branches.n;
    for (int b = 0; b < nb; b++) {
        Node *br = w->u.cond.branches.v[b];
        Node *mask = br->u.branch.cond;
        int clash = 0;
        for (int j = b; mask && j < nb; j++) {
            Node *bj = w->u.cond.branches.v[j];
            for (int i = 0; i < bj->u.branch.body.n; i++) {
                Node *s = bj->u.branch.body.v[i];
                if (s->kind == AST_ASSIGN && mentions(mask, lhs_sym(s->u.assign.lhs))
                    && (bj->u.branch.body.n > 1 || j > b || b < nb - 1))
                    clash = 1;
            }
        }
        if (clash) {
            L->line = br->loc.line;
            L->loc = br->loc;
            L->pre = out;
            mask = temp_array(L, mask, out);
            vec_push(NULL, &temps, mask);
        }
        /* this branch: its mask and none of the masks before it */
        Node *m = prev ? (mask ? and_of(L, not_of(L, prev), mask) : not_of(L, prev)) : mask;
        if (mask)
            prev = prev ? or_of(L, prev, mask) : mask;
        for (int i = 0; i < br->u.branch.body.n; i++) {
            Node *s = br->u.branch.body.v[i];
            L->line = s->loc.line;
            L->loc = s->loc;
            if (s->kind != AST_ASSIGN) {
                lower_error(L, s->loc, "the SPMD lowering does not handle a nested WHERE");
                continue;
            }
            lower_assign(L, s->u.assign.lhs, s->u.assign.rhs, m, out);
        }
    }
    for (int i = 0; i < temps.n; i++)
        free_temp_array(L, temps.v[i], out);
    free(temps.v);
}

/* An INDEPENDENT DO nest of assignments runs like a FORALL: each
 * assignment over the loop indices. Returns 0 when the nest is not of that
 * form (scalar assignments, bounds depending on outer indices, an inner
 * loop whose assignments read what they write). */
typedef struct {
    int n;
    Symbol *vars[MAX_RANK];
    Node *src[MAX_RANK];           /* the DO statements */
} Nest;

static int nest_ok(Lower *L, Node *loop, Nest *ns, int independent)
{
    if (loop->kind != AST_DO || !loop->u.loop.var || ns->n >= MAX_RANK)
        return 0;
    Symbol *v = loop->u.loop.var->u.name.sym;
    for (int k = 0; k < ns->n; k++)
        if (mentions(loop->u.loop.lo, ns->vars[k]) || mentions(loop->u.loop.hi, ns->vars[k])
            || mentions(loop->u.loop.step, ns->vars[k]))
            return 0;
    ns->vars[ns->n] = v;
    ns->src[ns->n++] = loop;
    for (int i = 0; i < loop->u.loop.body.n; i++) {
        Node *s = loop->u.loop.body.v[i];
        /* a label inside the nest is no branch target: nothing but
           assignments and DO loops is there to branch, and no branch from
           outside may enter a DO body */
        if (s->kind == AST_CONTINUE)
            continue;
        if (s->kind == AST_DO) {
            if (!nest_ok(L, s, ns, 0))
                return 0;
            continue;
        }
        if (s->kind != AST_ASSIGN || s->u.assign.lhs->kind != AST_REF || s->u.assign.lhs->rank)
            return 0;
        Node *lhs = s->u.assign.lhs;
        for (int k = 0; k < ns->n; k++)
            if (!mentions(lhs, ns->vars[k]))
                return 0;
        if (!independent && mentions(s->u.assign.rhs, lhs->u.ref.sym))
            return 0;
    }
    return 1;
}

static void lower_nest(Lower *L, Node *loop, Nest *ns, int depth, PtrVec *out)
{
    for (int i = 0; i < loop->u.loop.body.n; i++) {
        Node *s = loop->u.loop.body.v[i];
        if (s->kind == AST_DO) {
            lower_nest(L, s, ns, depth + 1, out);
            continue;
        }
        if (s->kind != AST_ASSIGN)
            continue;
        L->line = s->loc.line;
        L->loc = s->loc;
        Symbol *vars[MAX_RANK];
        Node *lo[MAX_RANK], *hi[MAX_RANK], *st[MAX_RANK];
        int saved = L->nsubst;
        for (int k = 0; k <= depth; k++) {
            Node *d = ns->src[k];
            vars[k] = new_index(L);
            lo[k] = copy_plain(L, d->u.loop.lo);
            hi[k] = copy_plain(L, d->u.loop.hi);
            st[k] = d->u.loop.step ? copy_plain(L, d->u.loop.step) : mk_int(L, 1);
        }
        for (int k = 0; k <= depth; k++)
            L->subst[L->nsubst++] = (Subst){ns->vars[k], index_name(L, vars[k])};
        Node *lhs = copy_plain(L, s->u.assign.lhs);
        Node *rhs = copy_plain(L, s->u.assign.rhs);
        L->nsubst = saved;
        L->pre = out;
        lower_array_assign(L, depth + 1, vars, lo, hi, st, NULL, lhs, rhs, out);
    }
    /* the DO variable ends one step past its last value */
    L->pre = out;
    Node *dlo = lx(L, loop->u.loop.lo, NULL), *dhi = lx(L, loop->u.loop.hi, NULL);
    Node *dst = loop->u.loop.step ? lx(L, loop->u.loop.step, NULL) : mk_int(L, 1);
    Node *t = mk_bin(L, OP_DIV, mk_bin(L, OP_ADD, mk_bin(L, OP_SUB, dhi, dlo), dst), dst);
    Node *mx[2] = {mk_int(L, 0), t};
    Node *a = arena_alloc(L->a, sizeof *a);
    a->kind = AST_ASSIGN;
    a->u.assign.lhs = loop->u.loop.var;
    a->u.assign.rhs = mk_bin(L, OP_ADD, dlo, mk_bin(L, OP_MUL, mk_call(L, "max", T_INT, 2, mx),
                                                    dst));
    SpStmt *s = new_stmt(L, SP_SEQ);
    s->u.seq = a;
    add_stmt(L, out, s);
}

static SpBranch *new_branch(Lower *L, Node *cond, PtrVec *body)
{
    SpBranch *b = arena_alloc(L->a, sizeof *b);
    if (cond) {
        L->pre = &b->pre;
        b->cond = lx(L, cond, NULL);
    }
    lower_stmts(L, body, &b->body);
    return b;
}

static int call_visit(Node *n, void *ctx)
{
    if (n->kind == AST_REF && (n->u.ref.what == REF_FUNCTION || n->u.ref.what == REF_UNRESOLVED)
        && strncmp(n->u.ref.id, "hpfrt_", 6))
        return 1;
    return ast_children(n, call_visit, ctx);
}

static int has_call(Node *e)
{
    return call_visit(e, NULL);
}

/* The first call in e of a procedure of the file that communicates
 * (call_communicates), or NULL. */
typedef struct {
    Lower *L;
    Node *found;
} CommCall;

static int comm_call_visit(Node *n, void *ctx)
{
    CommCall *c = ctx;
    if (n->kind == AST_REF && (n->u.ref.what == REF_FUNCTION || n->u.ref.what == REF_UNRESOLVED)
        && call_communicates(c->L, n)) {
        c->found = n;
        return 1;
    }
    return ast_children(n, comm_call_visit, ctx);
}

/* Reference r to an element of mapped array y made a reference to the
 * same element of tmp, y's replicated copy (lower bounds 1). */
static void retarget_ref(Lower *L, Node *r, Symbol *y, SpArr *tmp)
{
    r->u.ref.id = tmp->name;
    r->u.ref.sym = NULL;
    SpRef *ir = arena_alloc(L->a, sizeof *ir);
    ir->acc = ACC_GLOBAL;
    ir->arr = tmp;
    r->ir = ir;
    for (int d = 0; d < r->u.ref.args.n && d < y->rank; d++) {
        if (!y->bounds_known[d])     /* (ALLOCATABLE, a dummy's): 1 - LBOUND */
            r->u.ref.args.v[d] = mk_bin(L, OP_ADD, r->u.ref.args.v[d],
                                        mk_bin(L, OP_SUB, mk_int(L, 1), lbound_of(L, y, d)));
        else if (y->lo[d] != 1)
            r->u.ref.args.v[d] = mk_bin(L, OP_ADD, r->u.ref.args.v[d], mk_int(L, 1 - y->lo[d]));
    }
}

/* An output implied DO, (a(i), i = 1, n): each mapped array it reads is
 * first copied whole into a replicated temporary (gathered to every
 * processor, as a whole mapped array item is), and the implied DO reads
 * that instead, its subscripts shifted to the temporary's lower bound 1.
 * The temporaries go to temps, freed after the statement. */
static Node *implied_do_out(Lower *L, Node *it, PtrVec *temps, PtrVec *out)
{
    PtrVec refs = {0};
    collect_refs(it, &refs);
    Symbol *seen[16];
    SpArr *tmp[16];
    int nseen = 0;
    Node *copy = NULL;
    for (int k = 0; k < refs.n; k++) {
        Node *r = refs.v[k];
        Symbol *y = r->u.ref.sym;
        if (!arr_of(L, y))
            continue;
        int j = 0;
        while (j < nseen && seen[j] != y)
            j++;
        if (j == nseen && nseen == 16) {
            lower_error(L, it->loc, "the SPMD lowering takes at most 16 mapped arrays in one "
                        "implied DO");
            free(refs.v);
            return it;
        }
        if (j == nseen) {
            Node *t = temp_array(L, mk_name(L, y, r->loc), out);
            vec_push(NULL, temps, t);
            seen[nseen] = y;
            tmp[nseen++] = ((SpRef *)t->ir)->arr;
        }
    }
    free(refs.v);
    if (!nseen)
        return it;
    /* the implied DO again, reading the temporaries */
    copy = copy_plain(L, it);
    PtrVec cr = {0};
    collect_refs(copy, &cr);
    for (int k = 0; k < cr.n; k++) {
        Node *r = cr.v[k];
        int j = 0;
        while (j < nseen && seen[j] != r->u.ref.sym)
            j++;
        if (j == nseen)
            continue;
        retarget_ref(L, r, seen[j], tmp[j]);
    }
    free(cr.v);
    return copy;
}

/* A variable the I/O processor sets (a READ item, an output argument of
 * an intrinsic subroutine), then broadcast: what the statement there is
 * given, pushed onto the statement's reads. A mapped array or element goes
 * through a replicated temporary, copied into it after the broadcast
 * (post); temporary arrays go onto temps to be freed. NULL after an error. */
static Node *io_target(Lower *L, Node *it, SpStmt *s, PtrVec *out, PtrVec *post, PtrVec *temps,
                       int sections)
{
    Symbol *y = it->kind == AST_NAME ? it->u.name.sym
                : it->kind == AST_REF ? it->u.ref.sym : NULL;
    if (!y || (it->type.base == TY_CHARACTER && y->rank)
        || (it->kind == AST_REF && it->rank && !sections)) {
        lower_error(L, it->loc, "the SPMD lowering reads only numeric and logical "
                    "variables, whole arrays and array elements");
        return NULL;
    }
    SpArr *X = arr_of(L, y);
    Node *t;
    if (X && it->rank) {
        t = temp_array_new(L, it, out);   /* set there, then copied */
        lower_array_assign(L, 0, NULL, NULL, NULL, NULL, NULL, it, t, post);
        vec_push(NULL, temps, t);
    } else if (X) {
        t = mk_temp_name(L, new_temp(L, it->type, 0), it->type);
        lower_assign(L, it, t, NULL, post);
    } else if (it->rank && it->kind == AST_REF) {
        t = temp_array_new(L, it, out);   /* a section: broadcast whole */
        lower_array_assign(L, 0, NULL, NULL, NULL, NULL, NULL, it, t, post);
        vec_push(NULL, temps, t);
    } else {
        t = lx(L, it, NULL);
    }
    vec_push(L->a, &s->u.io.reads, t);
    return t;
}

static void end_io(Lower *L, SpStmt *s, PtrVec *post, PtrVec *temps, PtrVec *out)
{
    add_stmt(L, out, s);
    for (int i = 0; i < post->n; i++)
        add_stmt(L, out, post->v[i]);
    for (int i = 0; i < temps->n; i++)
        free_temp_array(L, temps->v[i], out);
    free(temps->v);
}

/* The intrinsic subroutines (CPU_TIME, SYSTEM_CLOCK, DATE_AND_TIME,
 * RANDOM_NUMBER, RANDOM_SEED) run on the I/O processor, and what they
 * set is broadcast: every processor then holds the values one clock, one
 * random-number generator gave, as in the sequential program (the
 * generator's state lives on the I/O processor alone). */
static void lower_intrinsic_call(Lower *L, Node *n, PtrVec *out)
{
    Node *c = arena_alloc(L->a, sizeof *c);
    *c = *n;
    c->u.ref.args = (PtrVec){0};
    SpStmt *s = new_stmt(L, SP_IO);
    s->u.io.stmt = c;
    s->src = n;
    PtrVec post = {0}, temps = {0};
    for (int i = 0; i < n->u.ref.args.n; i++) {
        Node *a = n->u.ref.args.v[i], *v = a->kind == AST_KEYWORD_ARG ? a->u.kwarg.value : a;
        L->pre = out;
        Node *t = sema_intrinsic_sets(n, i) ? io_target(L, v, s, out, &post, &temps, 1)
                  : lx(L, v, NULL);
        if (!t)
            continue;
        if (a != v) {
            Node *k = arena_alloc(L->a, sizeof *k);
            *k = *a;
            k->u.kwarg.value = t;
            t = k;
        }
        vec_push(L->a, &c->u.ref.args, t);
    }
    end_io(L, s, &post, &temps, out);
}

/* I/O: items in scalar context; array items of mapped arrays through a
 * replicated temporary. */
static void lower_io(Lower *L, Node *n, PtrVec *out)
{
    Node *c = arena_alloc(L->a, sizeof *c);
    *c = *n;
    c->u.io.control = (PtrVec){0};
    c->u.io.items = (PtrVec){0};
    L->pre = out;
    if (n->u.io.fmt)
        c->u.io.fmt = lx(L, n->u.io.fmt, NULL);
    for (int i = 0; i < n->u.io.control.n; i++)
        vec_push(L->a, &c->u.io.control, lx(L, n->u.io.control.v[i], NULL));
    PtrVec temps = {0};
    SpStmt *s = new_stmt(L, SP_IO);
    s->u.io.stmt = c;
    PtrVec post = {0};
    for (int i = 0; i < n->u.io.items.n; i++) {
        Node *it = n->u.io.items.v[i];
        L->pre = out;
        if (n->kind == AST_READ) {
            if (it->type.base == TY_CHARACTER) {
                lower_error(L, it->loc, "the SPMD lowering reads only numeric and logical "
                            "variables, whole arrays and array elements");
                continue;
            }
            Node *t = io_target(L, it, s, out, &post, &temps, 0);
            if (t)
                vec_push(L->a, &c->u.io.items, t);
            continue;
        }
        if (it->kind == AST_IMPLIED_DO) {
            vec_push(L->a, &c->u.io.items, implied_do_out(L, it, &temps, out));
            continue;
        }
        if (it->rank) {
            PtrVec refs = {0};
            collect_refs(it, &refs);
            int mapped = 0;
            for (int k = 0; k < refs.n; k++)
                mapped |= arr_of(L, ((Node *)refs.v[k])->u.ref.sym) != NULL;
            free(refs.v);
            if (it->kind == AST_NAME)
                mapped |= arr_of(L, it->u.name.sym) != NULL;
            if (mapped || it->kind != AST_NAME) {
                Node *t = temp_array(L, it, out);
                vec_push(L->a, &c->u.io.items, t);
                vec_push(NULL, &temps, t);
                continue;
            }
            vec_push(L->a, &c->u.io.items, it);
            continue;
        }
        CommCall cc = {L, NULL};
        if (it->type.base == TY_CHARACTER && comm_call_visit(it, &cc)) {
            /* (no CHARACTER temporaries: called on the I/O processor
               alone, it would wait for the others for ever) */
            lower_error(L, cc.found->loc, "the SPMD lowering cannot call the CHARACTER function "
                        "'%s' in an output list: it uses mapped arrays, so every processor must "
                        "call it; assign its value to a CHARACTER variable first",
                        cc.found->u.ref.id);
            continue;
        }
        Node *li = lx(L, it, NULL);
        if (it->type.base != TY_CHARACTER && has_call(li)) {
            /* every processor calls the function (it may communicate) */
            L->pre = out;
            li = hoist_value(L, li);
        }
        vec_push(L->a, &c->u.io.items, li);
    }
    end_io(L, s, &post, &temps, out);
}

/* The scalar dummy of the procedure a CALL or function reference n names
 * that its i-th actual a (an element of a mapped array) is associated
 * with; NULL when it is an
 * array dummy (sequence association) or the procedure is not in the file
 * (its dummy cannot be known). */
const Symbol *elem_dummy(Lower *L, Node *n, int i, Node *a)
{
    Node *u = find_unit(L, n->u.ref.id);
    if (!u || !u->u.unit.scope)
        return NULL;
    const char *name = NULL;
    if (a->kind == AST_KEYWORD_ARG)
        name = a->u.kwarg.id;
    else if (i < u->u.unit.args.n)
        name = ((Node *)u->u.unit.args.v[i])->u.name.id;
    const Symbol *d = name ? scope_lookup_local(u->u.unit.scope, name) : NULL;
    return d && !d->rank ? d : NULL;
}

/* ALLOCATE and DEALLOCATE. A mapped ALLOCATABLE array's bounds go to
 * hpfc's variables (every process runs it), then its descriptor is made
 * and its local part allocated (SP_ALLOC); DEALLOCATE frees both. The
 * other arrays are allocated as written. */
static void lower_alloc(Lower *L, Node *n, PtrVec *out)
{
    Node *rest = arena_alloc(L->a, sizeof *rest);
    *rest = *n;
    rest->u.alloc.items = (PtrVec){0};
    PtrVec mapped = {0};
    Node *stat = NULL;                 /* STAT=, an item of the list */
    for (int i = 0; i < n->u.alloc.items.n; i++) {
        Node *it = n->u.alloc.items.v[i];
        if (it->kind == AST_KEYWORD_ARG)
            stat = it;
    }
    for (int i = 0; i < n->u.alloc.items.n; i++) {
        Node *it = n->u.alloc.items.v[i];
        Symbol *y = it->kind == AST_REF ? it->u.ref.sym : it->kind == AST_NAME
                    ? it->u.name.sym : NULL;
        SpArr *r = y ? arr_of(L, y) : NULL;
        if (!r || !r->at_alloc) {
            vec_push(L->a, &rest->u.alloc.items, it);
            continue;
        }
        if (stat)
            lower_error(L, stat->loc, "the SPMD lowering does not take STAT= "
                        "in the %s of the mapped array '%s' (a failure would leave the "
                        "processes apart)", n->kind == AST_ALLOCATE ? "ALLOCATE" : "DEALLOCATE",
                        y->name);
        Node *item = arena_alloc(L->a, sizeof *item);
        *item = *it;
        SpRef *ir = arena_alloc(L->a, sizeof *ir);
        ir->acc = ACC_LOCAL;
        ir->arr = r;
        item->ir = ir;
        vec_push(L->a, &mapped, item);
        for (int d = 0; n->kind == AST_ALLOCATE && d < r->rank; d++) {
            Node *a = it->u.ref.args.v[d];
            Node *lo = a->kind == AST_TRIPLET ? a->u.triplet.lo : NULL;
            Node *hi = a->kind == AST_TRIPLET ? a->u.triplet.hi : a;
            lower_assign(L, copy_plain(L, r->lo[d]), lo ? lo : mk_int(L, 1), NULL, out);
            lower_assign(L, copy_plain(L, r->hi[d]), hi, NULL, out);
        }
    }
    if (rest->u.alloc.items.n) {
        SpStmt *s = new_stmt(L, SP_SEQ);
        s->u.seq = rest;
        add_stmt(L, out, s);
    }
    if (mapped.n) {
        SpStmt *s = new_stmt(L, n->kind == AST_ALLOCATE ? SP_ALLOC : SP_DEALLOC);
        s->u.alloc.items = mapped;
        add_stmt(L, out, s);
    }
}

/* The first mapped array an array expression reads, whole, in a section
 * or an element; NULL if none. */
static int mapped_visit(Node *n, void *ctx)
{
    void **c = ctx;
    Lower *L = c[0];
    Symbol *y = n->kind == AST_NAME ? n->u.name.sym : n->kind == AST_REF ? n->u.ref.sym : NULL;
    if (y && y->rank && arr_of(L, y)) {
        c[1] = y;
        return 1;
    }
    return ast_children(n, mapped_visit, ctx);
}

Symbol *mapped_array_in(Lower *L, Node *e)
{
    void *c[2] = {L, NULL};
    mapped_visit(e, c);
    return c[1];
}

/* A DO or DO WHILE body: the mapping at its end is brought back to the one
 * at its top (EXIT and CYCLE bring it back before they jump). */
static void lower_loop_body(Lower *L, Node *n, PtrVec *body)
{
    DynState *top = dyn_save(L);
    dyn_loop_enter(L, top);
    lower_stmts(L, &n->u.loop.body, body);
    if (n->close_label)
        dyn_label(L, n->close_label);
    dyn_back(L, top, body, n->loc, "at the end of this loop's body than at its top");
    dyn_loop_leave(L);
}

void lower_stmt(Lower *L, Node *n, PtrVec *out)
{
    L->line = n->loc.line;
    L->loc = n->loc;
    L->pre = out;
    int first = out->n;
    if (n->label)
        dyn_label(L, n->label);
    switch (n->kind) {
    case AST_ASSIGN:
        lower_assign(L, n->u.assign.lhs, n->u.assign.rhs, NULL, out);
        break;
    case AST_FORALL:
        for (int i = 0; i < n->u.forall.body.n; i++) {
            Node *s = n->u.forall.body.v[i];
            L->line = s->loc.line;
            L->loc = s->loc;
            if (s->kind == AST_WHERE && forall_where(L, n, s, out))
                continue;
            if (s->kind != AST_ASSIGN) {
                lower_error(L, s->loc, "the SPMD lowering does not handle a %s inside a FORALL",
                            s->kind == AST_WHERE ? "WHERE whose mask reads what it assigns"
                            : "nested FORALL");
                continue;
            }
            lower_forall(L, n, s, out);
        }
        break;
    case AST_WHERE:
        lower_where(L, n, out);
        break;
    case AST_IF: {
        SpStmt *s = new_stmt(L, SP_IF);
        DynState *s0 = dyn_save(L), *end[64] = {0};
        int nb = n->u.cond.branches.n, same = 1, has_else = 0;
        for (int i = 0; i < nb; i++) {
            Node *b = n->u.cond.branches.v[i];
            dyn_set(L, s0);
            vec_push(L->a, &s->u.if_.branches, new_branch(L, b->u.branch.cond, &b->u.branch.body));
            has_else |= !b->u.branch.cond;
            if (i < 64)
                end[i] = dyn_save(L);
        }
        dyn_set(L, end[0]);
        for (int i = 1; s0 && i < nb && i < 64; i++)
            same &= dyn_same(L, end[i]);
        if (s0 && !(same && has_else && nb <= 64)) {
            /* the branches leave the mapping as it was before the IF */
            for (int i = 0; i < nb && i < 64; i++) {
                SpBranch *br = s->u.if_.branches.v[i];
                Node *b = n->u.cond.branches.v[i];
                dyn_set(L, end[i]);
                dyn_back(L, s0, &br->body, b->loc, "at the end of this branch than before "
                         "its IF");
            }
            dyn_set(L, s0);
        }
        if (n->close_label)
            dyn_label(L, n->close_label);
        add_stmt(L, out, s);
        break;
    }
    case AST_LOGICAL_IF: {
        SpStmt *s = new_stmt(L, SP_IF);
        PtrVec body = {0};
        vec_push(L->a, &body, n->u.lif.stmt);
        vec_push(L->a, &s->u.if_.branches, new_branch(L, n->u.lif.cond, &body));
        add_stmt(L, out, s);
        break;
    }
    case AST_DO: {
        if (n->u.loop.independent) {
            Nest ns = {0};
            if (nest_ok(L, n, &ns, 1)) {
                lower_nest(L, n, &ns, 0, out);
                break;
            }
            diag_warning(L->d, n->loc, "INDEPENDENT loop runs sequentially: the SPMD lowering "
                         "distributes only nests of element assignments");
        }
        SpStmt *s = new_stmt(L, SP_DO);
        s->u.do_.var = n->u.loop.var;
        s->u.do_.lo = lx(L, n->u.loop.lo, NULL);
        s->u.do_.hi = lx(L, n->u.loop.hi, NULL);
        s->u.do_.st = n->u.loop.step ? lx(L, n->u.loop.step, NULL) : NULL;
        s->u.do_.end_label = n->close_label;
        lower_loop_body(L, n, &s->u.do_.body);
        add_stmt(L, out, s);
        break;
    }
    case AST_DO_WHILE: {
        SpStmt *s = new_stmt(L, SP_WHILE);
        if (n->u.loop.cond) {
            L->pre = &s->u.while_.pre;
            s->u.while_.cond = lx(L, n->u.loop.cond, NULL);
        }
        s->u.while_.end_label = n->close_label;
        lower_loop_body(L, n, &s->u.while_.body);
        add_stmt(L, out, s);
        break;
    }
    case AST_PRINT: case AST_WRITE: case AST_READ: case AST_OPEN: case AST_CLOSE:
        lower_io(L, n, out);
        break;
    case AST_CALL: {
        if (n->u.ref.what == REF_INTRINSIC) {
            lower_intrinsic_call(L, n, out);
            break;
        }
        Node *c = arena_alloc(L->a, sizeof *c);
        *c = *n;
        c->u.ref.args = (PtrVec){0};
        const SpUnit *callee = pass_callee(L, n);
        pass_name_call(L, c, callee);
        PtrVec back = {0};        /* elements and sections of mapped arrays, their copies */
        PtrVec copies = {0};      /* replicated copies of parts of mapped arrays */
        for (int i = 0; i < n->u.ref.args.n; i++) {
            Node *a = n->u.ref.args.v[i];
            Node *v = a->kind == AST_KEYWORD_ARG ? a->u.kwarg.value : a;
            if (v->rank && v == a && v->kind == AST_NAME && arr_of(L, v->u.name.sym)) {
                /* a whole mapped array: its descriptor goes along (passing.c) */
                Node *p = pass_actual(L, callee, i + 1, v);
                vec_push(L->a, &c->u.ref.args, p ? p : a);
            } else if (v->rank && v == a && mapped_array_in(L, v)) {
                /* a section or an expression of a mapped array: a replicated
                   copy goes (gathered), and a section comes back after the
                   call unless the dummy is INTENT(IN) */
                const Symbol *d = callee && i < callee->unit->u.unit.args.n
                    ? ((Node *)callee->unit->u.unit.args.v[i])->u.name.sym : NULL;
                Node *t = temp_array(L, v, out);
                vec_push(L->a, &c->u.ref.args, t);
                int section = v->kind == AST_REF && v->u.ref.what == REF_SECTION;
                if (section && !(d && d->intent == INTENT_IN))
                    vec_push(NULL, &back, v), vec_push(NULL, &back, t);
                vec_push(NULL, &copies, t);
            } else if (v->rank) {
                Symbol *y = mapped_array_in(L, v);
                if (y)
                    lower_error(L, a->loc, "the SPMD lowering cannot pass a section or an "
                                "expression of the mapped array '%s' to '%s' (pass the "
                                "whole array)", y->name, n->u.ref.id);
                vec_push(L->a, &c->u.ref.args, a);
            } else if (v->kind == AST_REF && v->u.ref.what == REF_ELEMENT &&
                       arr_of(L, v->u.ref.sym)) {
                /* an element of a mapped array: its value in a scalar
                   temporary (broadcast from its owner), stored back after
                   the call unless the dummy is INTENT(IN); never as the
                   start of an array (sequence association) */
                const Symbol *d = elem_dummy(L, n, i, a);
                if (!d) {
                    lower_error(L, a->loc, "an element of the mapped array '%s' cannot stand "
                                "for an array dummy of '%s' (sequence association, which HPF "
                                "forbids for mapped arrays; pass a section)", v->u.ref.sym->name,
                                n->u.ref.id);
                    vec_push(L->a, &c->u.ref.args, a);
                    continue;
                }
                Node *t = lx(L, v, NULL);
                vec_push(L->a, &c->u.ref.args, t);
                if (d->intent != INTENT_IN)
                    vec_push(NULL, &back, v), vec_push(NULL, &back, t);
            } else {
                vec_push(L->a, &c->u.ref.args, lx(L, a, NULL));
            }
        }
        SpStmt *s = new_stmt(L, SP_SEQ);
        s->u.seq = c;
        add_stmt(L, out, s);
        for (int i = 0; i + 1 < back.n; i += 2)
            lower_assign(L, copy_plain(L, back.v[i]), back.v[i + 1], NULL, out);
        for (int i = 0; i < copies.n; i++)
            free_temp_array(L, copies.v[i], out);
        free(back.v);
        free(copies.v);
        break;
    }
    case AST_STOP: {
        SpStmt *s = new_stmt(L, SP_STOP);
        s->u.stop.code = n->u.unary.operand;
        add_stmt(L, out, s);
        break;
    }
    case AST_RETURN:
        pass_leave(L, out);
        add_stmt(L, out, new_stmt(L, SP_RETURN));
        break;
    case AST_REDISTRIBUTE: case AST_REALIGN:
        dyn_remap(L, n, out);
        break;
    case AST_ALLOCATE: case AST_DEALLOCATE:
        lower_alloc(L, n, out);
        break;
    case AST_CYCLE: case AST_EXIT: case AST_CONTINUE: case AST_GOTO: {
        if (n->kind != AST_CONTINUE)
            dyn_jump(L, n, out);
        SpStmt *s = new_stmt(L, SP_SEQ);
        s->u.seq = n;
        add_stmt(L, out, s);
        break;
    }
    default:
        return;      /* declarations and directives */
    }
    if (n->label) {
        /* the label goes first, so that a jump to it runs what was hoisted */
        if (out->n == first) {
            SpStmt *s = new_stmt(L, SP_SEQ);
            Node *c = arena_alloc(L->a, sizeof *c);
            c->kind = AST_CONTINUE;
            s->u.seq = c;
            add_stmt(L, out, s);
        }
        ((SpStmt *)out->v[first])->label = n->label;
    }
}

/* ---- program units ---- */

/* A unit and its mapping (its internal units after it): every unit is
 * mapped before any body is lowered, so that a dummy can take the mapping
 * of the arrays the calls pass it (passing.c). */
static void map_units(Lower *L, Node *u, SpUnit *host)
{
    SpUnit *su = arena_alloc(L->a, sizeof *su);
    su->internal = host != NULL;
    su->host = host;
    su->unit = u;
    su->name = u->u.unit.id;
    su->scope = u->u.unit.scope;
    su->main = u->u.unit.which == UNIT_PROGRAM;
    vec_push(L->a, &L->prog->units, su);
    L->u = su;
    L->loc = u->loc;
    map_unit(L);
    for (int i = 0; i < su->scope->symbols.n; i++) {
        Symbol *y = su->scope->symbols.v[i];
        if (y->common && arr_of(L, y))
            lower_error(L, y->decl ? y->decl->loc : u->loc, "the SPMD lowering cannot map "
                        "'%s': it is in COMMON", y->name);
    }
    for (int i = 0; i < u->u.unit.contains.n; i++)
        map_units(L, u->u.unit.contains.v[i], su);
}

static void lower_body(Lower *L, SpUnit *su)
{
    L->u = su;
    L->loc = su->unit->loc;
    L->line = su->unit->loc.line;
    pass_seal(L, su);
    dyn_unit(L);
    pass_enter(L, &su->body);
    lower_stmts(L, &su->unit->u.unit.body, &su->body);
    L->loc = su->unit->u.unit.end_loc;
    L->line = L->loc.line;
    pass_leave(L, &su->body);
}

static Node *find_in(Node *u, const char *name)
{
    if (u->u.unit.id && !strcmp(u->u.unit.id, name) && u->u.unit.which != UNIT_PROGRAM)
        return u;
    for (int i = 0; i < u->u.unit.contains.n; i++) {
        Node *r = find_in(u->u.unit.contains.v[i], name);
        if (r)
            return r;
    }
    return NULL;
}

/* The procedure of that name defined in the file, or NULL (external). */
Node *find_unit(Lower *L, const char *name)
{
    for (int i = 0; i < L->file->u.list.items.n; i++) {
        Node *r = find_in(L->file->u.list.items.v[i], name);
        if (r)
            return r;
    }
    return NULL;
}

/* A prefix for generated names that no name of the program starts with. */
static int prefix_clash(Node *n, void *ctx)
{
    const char *p = ctx;
    size_t len = strlen(p);
    if (n->kind == AST_UNIT && n->u.unit.scope) {
        Scope *sc = n->u.unit.scope;
        for (int i = 0; i < sc->symbols.n; i++)
            if (!strncmp(((Symbol *)sc->symbols.v[i])->name, p, len))
                return 1;
    }
    return n->kind == AST_SOURCE_FILE || n->kind == AST_UNIT ? ast_children(n, prefix_clash, ctx)
                                                              : 0;
}

SpProgram *spmd_lower(Node *file, Arena *a, Diag *d)
{
    Lower L = {0};
    L.a = a;
    L.d = d;
    L.file = file;
    L.prog = arena_alloc(a, sizeof *L.prog);
    const char *prefix = "hpf_";
    for (int k = 0; prefix_clash(file, (void *)prefix); k++)
        prefix = arena_printf(a, "hpf%d_", k);
    L.prog->prefix = prefix;
    for (int i = 0; i < file->u.list.items.n; i++)
        map_units(&L, file->u.list.items.v[i], NULL);
    /* callers first, so that every call binds the dummies of the procedure
       it calls, or makes a clone of it, before that body is lowered;
       clones are lowered after */
    PtrVec order = {0};
    pass_order(&L, &order);
    for (int i = 0; i < order.n; i++)
        lower_body(&L, order.v[i]);
    for (int i = 0; i < L.prog->units.n; i++) {
        SpUnit *u = L.prog->units.v[i];
        if (u->clone_of)
            lower_body(&L, u);
    }
    pass_ghosts(&L);
    pass_unused(&L);
    pass_prune(&L);
    free(L.calls.v);
    free(order.v);
    free(L.lowered.v);
    free(L.loopvars.v);
    return L.errors ? NULL : L.prog;
}
