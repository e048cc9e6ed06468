/* fi_exec.c - what the interpretation engine asks of the functional
 * interpreter, statement by statement: the effect of a leaf statement
 * (fi_exec: assignments, ALLOCATE, FORALL nests and reductions over their
 * iteration spaces, broadcasts), the iteration spaces and references of a
 * FORALL for the engine's counts (fi_space, fi_refs), and the values of
 * expressions (fi_eval). */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fi_int.h"
#include "../runtime/hpfmap.h"

/* ---- leaf statements ---- */

/* lhs = rhs: a scalar variable or temporary, or an element. */
static void assign(Fi *fi, const Node *lhs, const Node *rhs)
{
    Frame *fr = fi->top;
    Ctx c;
    fi_ctx_init(&c, fr);
    Store *s = lhs->kind == AST_NAME && !lhs->u.name.sym ? fi_temp(fi, fr, lhs->u.name.id)
               : fi_ref_store(fi, fr, lhs);
    if (!s) {
        fi_error_once(fi, lhs, fi_loc(fi, lhs), "the functional interpreter cannot assign to "
                      "this");
        return;
    }
    int rank;
    long long ext[MAX_RANK];
    Vec v = lhs->kind == AST_NAME && s->rank ? fi_array(fi, &c, rhs, &rank, ext)
                                               : fi_ev(fi, &c, rhs);
    if (fi->stopped) {
        fv_free(&v);
        return;
    }
    fv_convert(&v, s->t);
    const Cause *cause = NULL;
    for (long p = 0; p < v.n && !cause; p++)
        if (!fv_known(&v, p))
            cause = fi_find_cause(fi, fr, rhs);
    long *off, n;
    if (!fi_offsets(fi, &c, lhs, s, &off, &n)) {
        fi_put_all_unknown(fi, s, fi_find_cause(fi, fr, lhs));
        fv_free(&v);
        return;
    }
    for (long q = 0; q < n; q++) {
        if (off[q] < 0) {
            /* where it goes is not known: the whole array is not */
            fi_put_all_unknown(fi, s, fi_find_cause(fi, fr, lhs));
            break;
        }
        fi_put(fi, s, off[q], &v, v.n == 1 ? 0 : q, cause);
    }
    fi_step(fi, n);
    free(off);
    fv_free(&v);
}

/* One item of an ALLOCATE (dealloc 0) or a DEALLOCATE. */
void fi_unallocated(Fi *fi, const Node *key, const char *name, const Store *s)
{
    if (!s || !s->home->bounds_unknown)
        fi_error_once(fi, key, fi_loc(fi, key), "'%s' is used before it is allocated", name);
}

static void allocate_item(Fi *fi, const Node *it, int dealloc)
{
    Frame *fr = fi->top;
    {
        const Symbol *y = it->kind == AST_REF ? it->u.ref.sym : it->u.name.sym;
        if (!y || y->kind != SYM_VARIABLE)
            return;
        Store *s = fi_var(fi, fr, y);
        if (s->home != s)
            return;
        fi_store_release(s);
        if (dealloc || it->kind != AST_REF)
            return;
        int ok = 1;
        for (int d = 0; d < it->u.ref.args.n && d < s->rank; d++) {
            const Node *a = it->u.ref.args.v[d];
            const Node *lo = a->kind == AST_TRIPLET ? a->u.triplet.lo : NULL;
            const Node *hi = a->kind == AST_TRIPLET ? a->u.triplet.hi : a;
            int k1 = 1, k2;
            s->lo[d] = lo ? fi_frame_int(fi, fr, lo, &k1) : 1;
            s->ext[d] = fi_frame_int(fi, fr, hi, &k2) - s->lo[d] + 1;
            if (s->ext[d] < 0)
                s->ext[d] = 0;
            if (!k1 || !k2) {
                fi_missing(fi, k1 ? hi : lo, fi->cur_line, "the bounds of an ALLOCATE");
                ok = 0;
            }
        }
        s->bounds_unknown = !ok;
        if (ok && !fi_store_alloc(s)) {
            fi_too_large(fi, s, it->loc);
            ok = 0;
        }
        const FiDefine *def = ok ? fi_find_def(fi, y->name) : NULL;
        if (def)
            fi_hold(fi, s, def);
    }
}

static void allocate(Fi *fi, const Node *n)
{
    for (int i = 0; i < n->u.alloc.items.n; i++)
        allocate_item(fi, n->u.alloc.items.v[i], n->kind == AST_DEALLOCATE);
    const Node *stat = n->u.alloc.stat;
    if (stat && stat->kind == AST_NAME && stat->u.name.sym)
        fi_set_int(fi, stat->u.name.sym, 0);
}

/* The iteration space of a loop, cached until something is stored. bad,
 * when given, gets an expression whose value was not known. */
static void space_unpin(Fi *fi);

static int space_of(Fi *fi, const SpLoop *lp, Space **out, const Node **bad)
{
    Space *sp = &fi->space;
    *out = sp;
    if (sp->loop == lp && sp->frame == fi->top && sp->version == fi->version && sp->ok)
        return 1;
    for (int k = 0; k < sp->nidx; k++) {
        if (fi->sp_lent) {
            /* the last fi_space answer: kept until the next fi_space */
            free(fi->sp_idx[k]);
            fi->sp_idx[k] = sp->idx[k];
        } else if (fi->space_pins) {
            /* a context evaluating a statement uses them (this is a
               function it calls): kept until it is done */
            vec_push(NULL, &fi->retired, sp->idx[k]);
        } else {
            free(sp->idx[k]);
        }
    }
    fi->sp_lent = 0;
    fv_free(&sp->mask);
    memset(sp, 0, sizeof *sp);
    sp->loop = lp;
    sp->frame = fi->top;
    long long steps0 = fi->steps;
    long errors0 = fi->errors;
    if (lp->nidx > MAX_RANK + MAX_RANK) {
        fi_error_once(fi, lp, fi->cur, "a FORALL of more than %d indices", MAX_RANK + MAX_RANK);
        return 0;
    }
    long long lo[MAX_RANK + MAX_RANK], st[MAX_RANK + MAX_RANK], tr[MAX_RANK + MAX_RANK];
    double total = 1;
    for (int k = 0; k < lp->nidx; k++) {
        const SpIndex *ix = &lp->idx[k];
        const Node *e[3] = {ix->lo, ix->hi, ix->st};
        long long v[3];
        for (int j = 0; j < 3; j++) {
            int known;
            v[j] = fi_frame_int(fi, fi->top, e[j], &known);
            if (!known) {
                if (bad)
                    *bad = e[j];
                return 0;
            }
        }
        lo[k] = v[0];
        st[k] = v[2];
        tr[k] = hpfmap_trip(v[0], v[1], st[k]);
        total *= (double)tr[k];
    }
    if (total > (double)(fi->max_steps - fi->steps) || !fi_step(fi, (long)total)) {
        fi->stopped = 1;
        return 0;
    }
    sp->n = (long)total;
    sp->nidx = lp->nidx;
    for (int k = 0; k < lp->nidx; k++) {
        sp->lo[k] = lo[k];
        sp->st[k] = st[k];
        sp->tr[k] = tr[k];
    }
    long stride = 1;
    for (int k = 0; k < lp->nidx; k++) {
        /* index k: each of its tr[k] values repeated stride times, the
           whole run repeated for the outer indices */
        long long *x = sp->idx[k] = xmalloc((size_t)(sp->n ? sp->n : 1) * sizeof *sp->idx[k]);
        long run = sp->n ? stride * (long)tr[k] : 0;   /* an empty space: no values */
        if (stride == 1)
            for (long long t = 0; run && t < tr[k]; t++)
                x[t] = lo[k] + t * st[k];
        else
            for (long long t = 0; run && t < tr[k]; t++)
                for (long p = 0; p < stride; p++)
                    x[t * stride + p] = lo[k] + t * st[k];
        for (long p = run; run && p < sp->n; p += run)
            memcpy(x + p, x, (size_t)run * sizeof *x);
        stride = run;
    }
    if (lp->mask) {
        /* the index vectors lent to the mask's context, pinned while it
           is evaluated (a function it calls may run FORALLs) */
        Ctx c;
        fi_ctx_init(&c, fi->top);
        c.n = sp->n;
        for (int k = 0; k < lp->nidx; k++) {
            fi_ctx_bind(&c, lp->idx[k].var, sp->idx[k]);
            c.lent |= 1ull << k;
        }
        fi->space_pins++;
        Vec m = fi_ev(fi, &c, lp->mask);
        fv_convert(&m, T_LOG);
        m = fv_widen(&m, sp->n);
        fi_ctx_free(&c);
        sp->mask = m;
        space_unpin(fi);
        for (long p = 0; p < sp->n && bad; p++)
            if (!fv_known(&sp->mask, p))
                *bad = lp->mask;
    }
    sp->version = fi->version;
    sp->ok = !fi->stopped;
    sp->cost = fi->steps - steps0;
    sp->quiet = fi->errors == errors0;
    return sp->ok;
}

/* Whether a (an expression of loop la) and b (of loop lb) are the same
 * expression, an index of la standing where b has the index of lb at the
 * same place: evaluated at the same points in the same state they give the
 * same values, with the same steps and the same messages. Only the forms
 * fi_ev evaluates without effects: no functions of the program or
 * EXTERNAL ones, no inline reductions, no array-valued parts. */
static int same_expr(const Node *a, const SpLoop *la, const Node *b, const SpLoop *lb)
{
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind || a->type.base != b->type.base || a->type.kind != b->type.kind ||
        a->rank || b->rank)
        return 0;
    switch (a->kind) {
    case AST_INT_CONST:
    case AST_LOGICAL_CONST:
        return a->u.konst.ival == b->u.konst.ival;
    case AST_REAL_CONST:
        return memcmp(&a->u.konst.rval, &b->u.konst.rval, sizeof a->u.konst.rval) == 0;
    case AST_NAME: {
        const Symbol *x = a->u.name.sym, *y = b->u.name.sym;
        int kx = -1, ky = -1;
        for (int k = 0; k < la->nidx; k++)
            if (x && la->idx[k].var == x)
                kx = k;
        for (int k = 0; k < lb->nidx; k++)
            if (y && lb->idx[k].var == y)
                ky = k;
        if (kx >= 0 || ky >= 0)
            return kx == ky;
        if (x != y)
            return 0;
        return x || !strcmp(a->u.name.id, b->u.name.id);
    }
    case AST_PAREN:
        return same_expr(a->u.unary.operand, la, b->u.unary.operand, lb);
    case AST_UNARY:
        return a->u.unary.op == b->u.unary.op &&
               same_expr(a->u.unary.operand, la, b->u.unary.operand, lb);
    case AST_BINARY:
        return a->u.binary.op == b->u.binary.op &&
               same_expr(a->u.binary.lhs, la, b->u.binary.lhs, lb) &&
               same_expr(a->u.binary.rhs, la, b->u.binary.rhs, lb);
    case AST_KEYWORD_ARG:
        return !strcmp(a->u.kwarg.id, b->u.kwarg.id) &&
               same_expr(a->u.kwarg.value, la, b->u.kwarg.value, lb);
    case AST_REF: {
        int what = a->u.ref.what;
        if (what != b->u.ref.what || a->u.ref.sym != b->u.ref.sym ||
            strcmp(a->u.ref.id, b->u.ref.id) || a->u.ref.args.n != b->u.ref.args.n)
            return 0;
        if (what == REF_INTRINSIC) {
            if (a->ir || b->ir)
                return 0;
        } else if (what == REF_ELEMENT) {
            const SpRef *ra = a->ir, *rb = b->ir;
            if (!ra != !rb || a->u.ref.args.n > MAX_RANK)
                return 0;
            if (ra) {
                if (ra->arr != rb->arr)
                    return 0;
                for (int d = 0; d < a->u.ref.args.n; d++)
                    if (!same_expr(ra->sub[d], la, rb->sub[d], lb))
                        return 0;
            }
        } else {
            return 0;
        }
        for (int i = 0; i < a->u.ref.args.n; i++)
            if (!same_expr(a->u.ref.args.v[i], la, b->u.ref.args.v[i], lb))
                return 0;
        return 1;
    }
    default:
        return 0;
    }
}

int fi_space_share(Fi *fi, const SpLoop *from, const SpLoop *loop)
{
    Space *sp = &fi->space;
    if (fi->stopped || sp->loop != from || sp->frame != fi->top || sp->version != fi->version ||
        !sp->ok || !sp->quiet || from->nidx != loop->nidx || !from->mask != !loop->mask)
        return 0;
    if (from == loop)
        return 1;
    if (sp->cost > fi->max_steps - fi->steps)
        return 0;
    for (int k = 0; k < loop->nidx; k++)
        if (!same_expr(from->idx[k].lo, from, loop->idx[k].lo, loop) ||
            !same_expr(from->idx[k].hi, from, loop->idx[k].hi, loop) ||
            !same_expr(from->idx[k].st, from, loop->idx[k].st, loop))
            return 0;
    if (!same_expr(from->mask, from, loop->mask, loop))
        return 0;
    sp->loop = loop;
    fi_step(fi, (long)sp->cost);
    return 1;
}

/* A context over the points of the space where the mask holds (or is not
 * known: unk gets those), with the indices bound; without unk, base[] the
 * points. Returns 1 when the context uses the space's index vectors: the
 * caller calls space_unpin after fi_ctx_free. */
static void space_unpin(Fi *fi)
{
    if (--fi->space_pins)
        return;
    for (int i = 0; i < fi->retired.n; i++)
        free(fi->retired.v[i]);
    fi->retired.n = 0;
}

static int space_ctx(Fi *fi, const Space *sp, int masked, Ctx *c, unsigned char **unk)
{
    const SpLoop *lp = sp->loop;
    long *sel = NULL, n = sp->n;
    if (unk)
        *unk = xcalloc((size_t)(sp->n ? sp->n : 1), 1);
    if (masked && sp->mask.t.base) {
        sel = xmalloc((size_t)(sp->n ? sp->n : 1) * sizeof *sel);
        n = 0;
        for (long p = 0; p < sp->n; p++) {
            if (!fv_known(&sp->mask, p)) {
                if (unk)
                    (*unk)[n] = 1;
            } else if (!sp->mask.i[p]) {
                continue;
            }
            sel[n++] = p;
        }
        if (n == sp->n) {          /* every point: the identity */
            free(sel);
            sel = NULL;
        }
    }
    if (!sel && unk && lp->nidx <= MAX_BIND) {
        /* every point, in order: the space's own index vectors, pinned
           until the caller is done (space_unpin) */
        fi_ctx_init(c, fi->top);
        c->n = sp->n;
        for (int k = 0; k < lp->nidx; k++) {
            c->bsym[k] = lp->idx[k].var;
            c->bval[k] = sp->idx[k];
            c->lent |= 1ull << k;
        }
        c->nb = lp->nidx;
        fi->space_pins++;
        return 1;
    }
    Ctx all;
    fi_ctx_init(&all, fi->top);
    all.n = sp->n;
    if (!unk) {                    /* fi_refs: the points of the evaluations */
        all.base = xmalloc((size_t)(sp->n ? sp->n : 1) * sizeof *all.base);
        for (long p = 0; p < sp->n; p++)
            all.base[p] = p;
    }
    for (int k = 0; k < lp->nidx; k++) {
        all.bsym[k] = lp->idx[k].var;
        all.bval[k] = sp->idx[k];
    }
    all.nb = lp->nidx;
    fi_ctx_select(&all, sel, n, c);
    all.nb = 0;                    /* the index arrays are the space's */
    fi_ctx_free(&all);
    free(sel);
    return 0;
}

static void exec_forall(Fi *fi, const SpStmt *s)
{
    const SpLoop *lp = s->u.loop;
    Space *sp;
    const Node *bad = NULL;
    const Node *lhs = lp->lhs;
    Store *st = fi_ref_store(fi, fi->top, lhs);
    if (!st) {
        fi_error_once(fi, lhs, fi_loc(fi, lhs), "the functional interpreter cannot assign to "
                      "this");
        return;
    }
    if (!space_of(fi, lp, &sp, &bad)) {
        if (!fi->stopped)
            fi_put_all_unknown(fi, st, fi_find_cause(fi, fi->top, bad));
        return;
    }
    Ctx c;
    unsigned char *unk;
    int pinned = space_ctx(fi, sp, 1, &c, &unk);
    Vec v = fi_ev(fi, &c, lp->rhs);
    long *off = NULL, n = 0;
    int ok = fi_offsets(fi, &c, lhs, st, &off, &n);
    if (!fi->stopped) {
        fv_convert(&v, st->t);
        const Cause *cause = NULL;
        int lost = !ok, plain = 1;
        unsigned char any = 0;
        long neg = 0;
        for (long q = 0; !v.k && ok && n != 1 && q < c.n; q++) {
            any |= unk[q];
            neg |= off[q];
        }
        if (!v.k && ok && n != 1 && !any) {
            /* every value known, at every point: the loop below finds no
               cause, and a lost element where an offset is negative */
            lost = neg < 0;
        } else {
            for (long q = 0; q < c.n; q++) {
                if ((unk[q] || !fv_known(&v, q)) && !cause)
                    cause = fi_find_cause(fi, fi->top, unk[q] ? lp->mask : lp->rhs);
                plain &= !unk[q];
                lost |= ok && off[n == 1 ? 0 : q] < 0;
            }
        }
        /* every value first, then the stores: FORALL semantics */
        if (ok && plain && !v.k && !st->home->held &&
            (st->t.base == TY_REAL || (st->t.base != TY_COMPLEX && st->t.base != TY_CHARACTER))) {
            /* fi_put of known values, element by element; the same loop
               once per storage type, so that the hot loop of FORALL
               stores tests no type per element */
            long stored = 0, sn = st->n, mo = n == 1 ? 0 : -1, mv = v.n == 1 ? 0 : -1;
            unsigned char *kk = st->k;
            if (st->t.base == TY_REAL) {
                double *dst = st->r;
                const double *src = v.r;
                for (long q = 0; q < c.n; q++) {
                    long o = off[q & mo];
                    if (o < 0 || o >= sn)
                        continue;
                    dst[o] = src[q & mv];
                    kk[o] = 1;
                    stored++;
                }
            } else {
                long long *dst = st->i;
                const long long *src = v.i;
                for (long q = 0; q < c.n; q++) {
                    long o = off[q & mo];
                    if (o < 0 || o >= sn)
                        continue;
                    dst[o] = src[q & mv];
                    kk[o] = 1;
                    stored++;
                }
            }
            fi->version += (unsigned long)stored;
        } else {
            Vec u = fv_unknown(st->t);
            for (long q = 0; q < c.n && ok; q++) {
                long o = off[n == 1 ? 0 : q];
                if (o >= 0)
                    fi_put(fi, st, o, unk[q] ? &u : &v, unk[q] ? 0 : q, cause);
            }
            fv_free(&u);
        }
        if (lost)
            fi_put_all_unknown(fi, st, fi_find_cause(fi, fi->top, lhs));
        fi_step(fi, c.n);
    }
    free(off);
    free(unk);
    fv_free(&v);
    fi_ctx_free(&c);
    if (pinned)
        space_unpin(fi);
}

static void exec_reduce(Fi *fi, const SpStmt *s)
{
    const SpLoop *lp = s->u.loop;
    Frame *fr = fi->top;
    Store *acc = fi_temp_by_id(fi, fr, lp->red_acc);
    Store *pos = lp->red_loc ? fi_temp_by_id(fi, fr, lp->red_pos) : NULL;
    Space *sp;
    const Node *bad = NULL;
    Vec a, p = {0};
    if (!acc)
        return;
    if (!space_of(fi, lp, &sp, &bad)) {
        if (fi->stopped)
            return;
        a = fv_unknown(acc->t);
        const Cause *cause = fi_find_cause(fi, fr, bad);
        fi_put(fi, acc, 0, &a, 0, cause);
        if (pos)
            fi_put(fi, pos, 0, &a, 0, cause);
        fv_free(&a);
        return;
    }
    Ctx c;
    unsigned char *unk;
    int pinned = space_ctx(fi, sp, 1, &c, &unk);
    Vec v = fi_ev(fi, &c, lp->rhs);
    long long *where = lp->nidx ? fi_ctx_lookup(&c, lp->idx[0].var) : NULL, *lin = NULL;
    if (lp->red_loc && lp->red_rank > 1 && where) {
        /* the linear position in array element order, from 0 */
        lin = xmalloc((size_t)(c.n + 1) * sizeof *lin);
        long long stride = 1;
        for (long q = 0; q < c.n; q++)
            lin[q] = 0;
        for (int d = 0; d < lp->red_rank && d < lp->nidx; d++) {
            const long long *x = fi_ctx_lookup(&c, lp->idx[d].var);
            int k = 1;
            long long ext = fi_frame_int(fi, fr, lp->idx[d].hi, &k) + 1;
            for (long q = 0; x && q < c.n; q++)
                lin[q] += stride * x[q];
            stride *= ext > 0 ? ext : 1;
        }
        where = lin;
    }
    fi_reduce(fi, lp->red_op, lp->red_loc, lp->red_type, &v, c.n, NULL, where, 1, &a, &p);
    free(lin);
    if (!fi->stopped) {
        int masked_unknown = 0;
        for (long q = 0; q < c.n; q++)
            masked_unknown |= unk[q];
        const Cause *cause = NULL;
        if (masked_unknown || !fv_known(&a, 0)) {
            cause = fi_find_cause(fi, fr, masked_unknown ? lp->mask : lp->rhs);
            fv_set_unknown(&a, 0);
            if (pos)
                fv_set_unknown(&p, 0);
        }
        fv_convert(&a, acc->t);
        fi_put(fi, acc, 0, &a, 0, cause);
        if (pos) {
            fv_convert(&p, pos->t);
            fi_put(fi, pos, 0, &p, 0, cause);
        }
    }
    fv_free(&a);
    fv_free(&p);
    fv_free(&v);
    free(unk);
    fi_ctx_free(&c);
    if (pinned)
        space_unpin(fi);
}

static void exec_bcast(Fi *fi, const SpStmt *s)
{
    Store *t = fi_temp_by_id(fi, fi->top, s->u.bcast.temp);
    if (!t)
        return;
    Ctx c;
    fi_ctx_init(&c, fi->top);
    Vec v = fi_ev(fi, &c, s->u.bcast.ref);
    fv_convert(&v, t->t);
    fi_put(fi, t, 0, &v, 0, fv_known(&v, 0) ? NULL : fi_find_cause(fi, fi->top, s->u.bcast.ref));
    fv_free(&v);
}

int fi_exec(Fi *fi, const SpStmt *s)
{
    if (fi->stopped)
        return -1;
    fi->version++;                 /* whatever it changes, cached spaces go */
    fi_at(fi, s);
    switch (s->kind) {
    case SP_SEQ:
        if (s->u.seq->kind == AST_ASSIGN)
            assign(fi, s->u.seq->u.assign.lhs, s->u.seq->u.assign.rhs);
        else if (s->u.seq->kind == AST_ALLOCATE || s->u.seq->kind == AST_DEALLOCATE)
            allocate(fi, s->u.seq);
        break;
    case SP_STORE:
        assign(fi, s->u.store.lhs, s->u.store.rhs);
        break;
    case SP_FORALL:
        exec_forall(fi, s);
        break;
    case SP_REDUCE:
        exec_reduce(fi, s);
        break;
    case SP_BCAST:
        exec_bcast(fi, s);
        break;
    case SP_IO:
        fi_read(fi, s);
        break;
    case SP_ALLOC: case SP_DEALLOC:
        for (int i = 0; i < s->u.alloc.items.n; i++) {
            const Node *ref = s->u.alloc.items.v[i];
            const SpRef *r = ref->ir;
            if (r && r->arr && r->arr->at_alloc && !s->remap) {
                allocate_item(fi, ref, s->kind == SP_DEALLOC);   /* a mapped ALLOCATABLE */
                continue;
            }
            if (!r || !r->arr || r->arr->sym)
                continue;         /* a version of a mapped array: its values are the array's */
            if (s->kind == SP_ALLOC)
                fi_tarr_of(fi, fi->top, r->arr, 1);
            else
                fi_store_release(fi_tarr_of(fi, fi->top, r->arr, 0));
        }
        break;
    default:
        break;
    }
    return fi->stopped ? -1 : 0;
}

/* ---- iteration spaces and references for the engine ---- */

int fi_space(Fi *fi, const SpLoop *loop, FiSpace *out)
{
    memset(out, 0, sizeof *out);
    Space *sp;
    /* the last answer expires: its vectors go (now, not at the end: the
       space computed next needs the room) */
    for (int k = 0; k < MAX_RANK + MAX_RANK; k++) {
        free(fi->sp_idx[k]);
        fi->sp_idx[k] = NULL;
    }
    fi->sp_lent = 0;
    if (loop->nidx > MAX_RANK || !space_of(fi, loop, &sp, NULL))
        return 0;
    for (long p = 0; sp->mask.t.base && sp->mask.k && p < sp->n; p++)
        if (!fv_known(&sp->mask, p))
            return 0;
    for (int k = 0; k < MAX_RANK + MAX_RANK; k++) {
        free(fi->sp_idx[k]);
        fi->sp_idx[k] = NULL;
    }
    free(fi->sp_mask);
    fi->sp_mask = NULL;
    size_t m = (size_t)(sp->n ? sp->n : 1);
    /* the space's own index vectors: when it goes before the next
       fi_space, space_of moves them to sp_idx */
    for (int k = 0; k < sp->nidx; k++)
        out->idx[k] = sp->idx[k];
    fi->sp_lent = 1;
    if (sp->mask.t.base) {
        fi->sp_mask = xmalloc(m);
        for (long p = 0; p < sp->n; p++)
            fi->sp_mask[p] = sp->mask.i[p] != 0;
        out->mask = fi->sp_mask;
    }
    out->n = sp->n;
    out->nidx = loop->nidx;
    return 1;
}

typedef struct {
    const SpCtx *ctx;
    const SpRed *found;
} RedFind;

static int red_visit(Node *e, void *c)
{
    RedFind *rf = c;
    if (rf->found)
        return 1;
    if (e->kind == AST_REF && e->u.ref.what == REF_INTRINSIC && e->ir) {
        const SpRed *sr = e->ir;
        if (sr->ctx_iter == rf->ctx || sr->ctx_body == rf->ctx) {
            rf->found = sr;
            return 1;
        }
        return red_visit(sr->n, c) || red_visit(sr->body, c) || (sr->mask && red_visit(sr->mask, c));
    }
    return ast_children(e, red_visit, c);
}

/* The inline reduction of the loop one of whose contexts is ctx. */
static const SpRed *red_of(const SpLoop *lp, const SpCtx *ctx)
{
    RedFind rf = {ctx, NULL};
    const Node *roots[3] = {lp->rhs, lp->mask, lp->lhs};
    for (int i = 0; i < 3 && !rf.found; i++)
        if (roots[i])
            red_visit((Node *)roots[i], &rf);
    return rf.found;
}

/* cur compacted to the points where mask (evaluated there) holds; 0 when
 * it is not known somewhere. */
static int compact(Fi *fi, Ctx *cur, const Node *mask)
{
    Vec m = fi_ev(fi, cur, mask);
    fv_convert(&m, T_LOG);
    long *sel = xmalloc((size_t)(cur->n ? cur->n : 1) * sizeof *sel), n = 0;
    int ok = 1;
    for (long p = 0; p < cur->n; p++) {
        if (!fv_known(&m, p))
            ok = 0;
        else if (m.i[m.n == 1 ? 0 : p])
            sel[n++] = p;
    }
    fv_free(&m);
    Ctx next;
    fi_ctx_select(cur, sel, n, &next);
    free(sel);
    fi_ctx_free(cur);
    *cur = next;
    return ok;
}

int fi_refs(Fi *fi, const SpLoop *loop, const Node *ref, const SpCtx *ctx, FiRefs *out)
{
    memset(out, 0, sizeof *out);
    Space *sp;
    if (!space_of(fi, loop, &sp, NULL) || !ref || ref->kind != AST_REF)
        return 0;
    const SpCtx *path[64];
    int np = 0;
    for (const SpCtx *x = ctx; x && np < 64; x = x->parent)
        path[np++] = x;
    if (!np || path[np - 1] != loop->ctx_iter)
        return 0;
    Ctx cur;
    space_ctx(fi, sp, 0, &cur, NULL);
    int ok = 1;
    for (int i = np - 2; i >= 0 && ok; i--) {
        const SpCtx *x = path[i];
        if (x == loop->ctx_guard)
            continue;
        if (x == loop->ctx_mask) {
            ok = loop->mask && compact(fi, &cur, loop->mask);
            continue;
        }
        const SpRed *sr = red_of(loop, x);
        if (!sr) {
            ok = 0;
        } else if (x == sr->ctx_iter) {
            Vec nv = fi_ev(fi, &cur, sr->n);
            fv_convert(&nv, T_I8);
            long long *trips = xmalloc((size_t)(cur.n ? cur.n : 1) * sizeof *trips);
            long total = 0;
            for (long p = 0; p < cur.n; p++) {
                ok &= fv_known(&nv, p);
                long long t = nv.i[nv.n == 1 ? 0 : p];
                trips[p] = t > 0 ? t : 0;
                total += (long)trips[p];
            }
            fv_free(&nv);
            Ctx next;
            long *par = NULL;
            ok = ok && fi_step(fi, total);
            if (ok) {
                ok = fi_ctx_expand(&cur, trips, total, sr->var, &next, &par);
                fi_ctx_free(&cur);
                cur = next;
                free(par);
            }
            free(trips);
        } else if (sr->mask) {
            ok = compact(fi, &cur, sr->mask);
        }
    }
    const SpRef *r = ref->u.ref.what == REF_ELEMENT ? ref->ir : NULL;
    int rank = ref->u.ref.args.n;
    if (rank > MAX_RANK)
        ok = 0;
    Vec subs[MAX_RANK];
    int nsub = 0;
    for (int d = 0; d < rank && ok; d++) {
        subs[d] = fi_ev(fi, &cur, r && r->sub[d] ? r->sub[d] : ref->u.ref.args.v[d]);
        fv_convert(&subs[d], T_I8);
        subs[d] = fv_widen(&subs[d], cur.n);
        nsub = d + 1;
        for (long p = 0; p < cur.n; p++)
            ok &= fv_known(&subs[d], p);
    }
    if (ok && !fi->stopped) {
        free(fi->rf_point);
        for (int d = 0; d < MAX_RANK; d++) {
            free(fi->rf_sub[d]);
            fi->rf_sub[d] = NULL;
        }
        size_t m = (size_t)(cur.n ? cur.n : 1);
        fi->rf_point = xmalloc(m * sizeof *fi->rf_point);
        memcpy(fi->rf_point, cur.base, (size_t)cur.n * sizeof *fi->rf_point);
        for (int d = 0; d < rank; d++) {
            fi->rf_sub[d] = subs[d].i;
            subs[d].i = NULL;
            fv_free(&subs[d]);
            out->sub[d] = fi->rf_sub[d];
        }
        out->n = cur.n;
        out->point = fi->rf_point;
        out->rank = rank;
        nsub = 0;
    }
    for (int d = 0; d < nsub; d++)
        fv_free(&subs[d]);
    fi_ctx_free(&cur);
    return ok && !fi->stopped;
}

/* ---- values for the engine ---- */

int fi_eval(Fi *fi, const Node *e, FiValue *v)
{
    if (fi_ev_scalar(fi, e, v))
        return v->known;
    memset(v, 0, sizeof *v);
    Ctx c;
    fi_ctx_init(&c, fi->top);
    Vec x = fi_ev(fi, &c, e);
    v->type = x.t;
    v->known = fv_known(&x, 0);
    if (x.i)
        v->i = x.i[0];
    if (x.r)
        v->r = x.r[0];
    if (x.im)
        v->im = x.im[0];
    if (x.s) {
        free(fi->eval_str);
        fi->eval_str = x.s[0] ? xstrdup(x.s[0]) : NULL;
        v->s = fi->eval_str;
        v->known &= v->s != NULL;
    }
    fv_free(&x);
    if (!v->known) {
        v->i = 0;
        v->r = v->im = 0;
    }
    return v->known;
}

int fi_eval_int(Fi *fi, const Node *e, long long *v)
{
    if (e->kind == AST_INT_CONST) {
        *v = e->u.konst.ival;
        return 1;
    }
    FiValue x;
    fi_eval(fi, e, &x);
    *v = x.type.base == TY_REAL || x.type.base == TY_COMPLEX ? (long long)x.r : x.i;
    return x.known;
}

int fi_eval_real(Fi *fi, const Node *e, double *v)
{
    FiValue x;
    fi_eval(fi, e, &x);
    *v = x.type.base == TY_INTEGER || x.type.base == TY_LOGICAL ? (double)x.i : x.r;
    return x.known;
}

int fi_eval_bool(Fi *fi, const Node *e, int *v)
{
    FiValue x;
    fi_eval(fi, e, &x);
    *v = x.type.base == TY_REAL ? x.r != 0 : x.i != 0;
    return x.known;
}

void fi_set_int(Fi *fi, const Symbol *var, long long v)
{
    Store *s = fi_var(fi, fi->top, var);
    if (s->t.base == TY_INTEGER && s->n >= 1 && !s->home->held && s->i && s->k) {
        /* fi_put of the value converted to the variable's kind */
        s->i[0] = s->t.kind == 8 ? v : (long long)(int32_t)(uint32_t)(unsigned long long)v;
        s->k[0] = 1;
        fi->version++;
        return;
    }
    Vec x = fv_new(T_I8, 1);
    x.i[0] = v;
    fv_convert(&x, s->t);
    fi_put(fi, s, 0, &x, 0, NULL);
    fv_free(&x);
}

void fi_set_nprocs(Fi *fi, int n)
{
    fi->nprocs = n > 0 ? n : 1;
    fi->version++;
}
