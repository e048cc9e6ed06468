/* dynamic.c - mappings that change at run time: HPF 1.0's DYNAMIC arrays
 * and templates, REDISTRIBUTE and REALIGN, for the SPMD lowering.
 *
 * Every mapping an array takes is a *version* of it: an SpArr of its own,
 * with its own local storage and descriptor, the same symbol. The lowering
 * knows at each statement which version holds each array (the state), so
 * that every reference is classified against the mapping it really has.
 * A remap is a copy from one version into the next: the new version is
 * allocated, a FORALL copies it (lowered like any other: the gather between
 * two mappings is the all-to-all exchange, which the predictor costs), the
 * old one is deallocated. A mapping taken again reuses its version.
 *
 * One mapping per statement: where paths join with different states (the
 * end of an IF's branches, the end of a loop's body against its top, an
 * EXIT or CYCLE against the loop's top), the arrays are remapped back on
 * the paths that changed them, with a warning; a forward GOTO that would
 * arrive with another state is refused. REDISTRIBUTE remaps every array
 * aligned with what it redistributes; REALIGN remaps only its alignees
 * (HPF 1.0; HPF 2.0 section 8.9 states the same). */
#include <config.h>

#include <string.h>

#include "lower_int.h"
#include "../runtime/hpfmap.h"

struct DynState {
    int na, nt;
    SpArr **a;
    SpTmpl **t;
};

typedef struct {
    int label;
    Loc loc;
    DynState *s;
} Pending;

typedef struct Dyn {
    int na, nt;
    Symbol **asym;               /* the unit's mapped arrays */
    SpArr **acur;                /* their versions now */
    Symbol **tsym;               /* its templates (TEMPLATE, or the array distributed) */
    SpTmpl **tcur;
    PtrVec tvers;                /* every template version made: Symbol *, SpTmpl * */
    PtrVec loops;                /* DynState * at the top of each enclosing loop */
    PtrVec gotos;                /* Pending * */
    PtrVec labels;               /* Pending *: the state at each label passed, for the
                                    GOTOs back to it */
    int nver;                    /* versions made, for their names */
} Dyn;

static int remaps_visit(Node *n, void *ctx)
{
    (void)ctx;
    if (n->kind == AST_REDISTRIBUTE || n->kind == AST_REALIGN)
        return 1;
    if (!ast_is_stmt(n->kind) && n->kind != AST_IF_BRANCH && n->kind != AST_WHERE_BRANCH)
        return 0;
    return ast_children(n, remaps_visit, ctx);
}

void dyn_unit(Lower *L)
{
    L->dyn = NULL;
    PtrVec *body = &L->u->unit->u.unit.body;
    int remaps = 0;
    for (int i = 0; i < body->n && !remaps; i++)
        remaps = remaps_visit(body->v[i], NULL);
    if (!remaps && !pass_versions(L))
        return;
    Dyn *D = arena_alloc(L->a, sizeof *D);
    SpUnit *u = L->u;
    D->na = u->arrs.n;
    D->asym = arena_alloc(L->a, (size_t)(D->na + 1) * sizeof *D->asym);
    D->acur = arena_alloc(L->a, (size_t)(D->na + 1) * sizeof *D->acur);
    D->na = 0;
    for (int i = 0; i < u->arrs.n; i++) {
        SpArr *r = u->arrs.v[i];
        int seen = 0;
        for (int k = 0; k < D->na && !seen; k++)
            seen = D->asym[k] == r->sym;
        if (seen)
            continue;                 /* a dummy's own mapping: after its inherited one */
        D->asym[D->na] = r->sym;
        D->acur[D->na++] = r;
    }
    D->tsym = arena_alloc(L->a, (size_t)(u->tmpls.n + 1) * sizeof *D->tsym);
    D->tcur = arena_alloc(L->a, (size_t)(u->tmpls.n + 1) * sizeof *D->tcur);
    for (int i = 0; i < u->tmpls.n; i++) {
        SpTmpl *t = u->tmpls.v[i];
        Symbol *y = scope_lookup_local(u->scope, t->name);
        if (!y)
            continue;
        D->tsym[D->nt] = y;
        D->tcur[D->nt++] = t;
        vec_push(L->a, &D->tvers, y);
        vec_push(L->a, &D->tvers, t);
    }
    L->dyn = D;
}

/* The current version of a remapped array, of a remapped template: two
 * typed tables, looked up alike. */
SpArr *dyn_arr(Lower *L, Symbol *y)
{
    Dyn *D = L->dyn;
    for (int i = 0; D && i < D->na; i++)
        if (D->asym[i] == y)
            return D->acur[i];
    return NULL;
}

SpTmpl *dyn_tmpl(Lower *L, Symbol *y)
{
    Dyn *D = L->dyn;
    for (int i = 0; D && i < D->nt; i++)
        if (D->tsym[i] == y)
            return D->tcur[i];
    return NULL;
}

/* ---- versions ---- */

/* r, made for this point, or the version of its array equal to it. */
static SpArr *version_of(Lower *L, SpArr *r)
{
    for (int i = 0; i < L->u->arrs.n; i++) {
        SpArr *v = L->u->arrs.v[i];
        if (v->sym == r->sym && arr_same(v, r))
            return v;
    }
    r->version = ++L->dyn->nver;
    r->name = arena_printf(L->a, "%sv%d_%s", L->prog->prefix, r->version, r->sym->name);
    r->id = L->u->arrs.n + 1;
    for (int d = 0; d < r->rank; d++)
        r->glo[d] = r->ghi[d] = 0;
    vec_push(L->a, &L->u->arrs, r);
    return r;
}

static Node *alloc_item(Lower *L, SpArr *r)
{
    Node *ref = arena_alloc(L->a, sizeof *ref);
    ref->kind = AST_REF;
    ref->loc = L->loc;
    ref->u.ref.id = r->name;
    ref->u.ref.what = REF_SECTION;
    ref->type = r->type;
    SpRef *ir = arena_alloc(L->a, sizeof *ir);
    ir->acc = ACC_LOCAL;
    ir->arr = r;
    ref->ir = ir;
    return ref;
}

static void version_storage(Lower *L, SpKind k, SpArr *r, PtrVec *out);

static void free_version(Lower *L, SpArr *a, PtrVec *out)
{
    if (!a->passed)
        version_storage(L, SP_DEALLOC, a, out);
}

static void set_cur(Lower *L, Symbol *y, SpArr *r)
{
    Dyn *D = L->dyn;
    for (int i = 0; i < D->na; i++)
        if (D->asym[i] == y)
            D->acur[i] = r;
}

/* An ALLOCATE or DEALLOCATE of version r around a remap. */
static void version_storage(Lower *L, SpKind k, SpArr *r, PtrVec *out)
{
    SpStmt *s = new_stmt(L, k);
    s->remap = 1;
    vec_push(L->a, &s->u.alloc.items, alloc_item(L, r));
    add_stmt(L, out, s);
}

/* ALLOCATED(y), y's storage now (version a): the condition of a remap of
 * an ALLOCATABLE array, which moves nothing while it is not allocated
 * (the version still changes: its next ALLOCATE makes the new one). */
static Node *allocated_now(Lower *L, SpArr *a)
{
    Node *nm = mk_name(L, a->sym, L->loc);
    nm->u.name.id = a->name;          /* the storage of version a */
    Node *c = mk_call(L, "allocated", (Type){TY_LOGICAL, 4}, 1, &nm);
    c->u.ref.what = REF_INTRINSIC;
    return c;
}

/* The array y moves from version a to version b: b allocated, the copy,
 * a deallocated (a dummy's storage, passed, neither); for an ALLOCATABLE
 * array, only if it is allocated. */
static void move(Lower *L, SpArr *a, SpArr *b, PtrVec *out, int copy)
{
    if (a == b)
        return;
    Symbol *y = a->sym;
    SpBranch *br = NULL;
    if (a->at_alloc) {
        SpStmt *s = new_stmt(L, SP_IF);
        br = arena_alloc(L->a, sizeof *br);
        br->cond = allocated_now(L, a);
        vec_push(L->a, &s->u.if_.branches, br);
        add_stmt(L, out, s);
        out = &br->body;
    }
    if (!b->passed)
        version_storage(L, SP_ALLOC, b, out);
    if (!copy) {
        set_cur(L, y, b);
        free_version(L, a, out);
        return;
    }

    Symbol *vars[MAX_RANK];
    Node *lo[MAX_RANK], *hi[MAX_RANK], *st[MAX_RANK];
    Node *lhs = mk_elem(L, y, L->loc, y->type), *rhs = arena_alloc(L->a, sizeof *rhs);
    for (int d = 0; d < a->rank; d++) {
        vars[d] = new_index(L);
        lo[d] = a->lo[d];
        hi[d] = a->hi[d];
        st[d] = mk_int(L, 1);
        vec_push(L->a, &lhs->u.ref.args, index_name(L, vars[d]));
    }
    *rhs = *lhs;
    SpRef *from = arena_alloc(L->a, sizeof *from);
    from->arr = a;                    /* read from the old version */
    rhs->ir = from;
    set_cur(L, y, b);                 /* the left-hand side: the new one */
    L->pre = out;
    SpLoop *lp = lower_loop(L, a->rank, vars, lo, hi, st, NULL, lhs, rhs, 0, NULL);
    lp->remap = 1;
    SpStmt *cp = new_stmt(L, SP_FORALL);
    cp->u.loop = lp;
    add_stmt(L, out, cp);
    free_version(L, a, out);
}

static void remap(Lower *L, SpArr *a, SpArr *b, PtrVec *out)
{
    move(L, a, b, out, 1);
}

void dyn_move(Lower *L, SpArr *a, SpArr *b, PtrVec *out, int copy)
{
    move(L, a, b, out, copy);
}


/* The mapping a REDISTRIBUTE or REALIGN starts from, v, is there. */
static int held(Lower *L, const void *v, const Node *nm, const char *what)
{
    if (!v)
        lower_error(L, nm->loc, "the SPMD lowering cannot %s '%s': it has no mapping here",
                    what, nm->u.name.id);
    return v != NULL;
}

static void redistribute(Lower *L, Node *n, PtrVec *out)
{
    Dyn *D = L->dyn;
    for (int i = 0; i < n->u.dist.names.n; i++) {
        Node *nm = n->u.dist.names.v[i];
        Symbol *x = nm->u.name.sym;
        SpTmpl *t = x ? dyn_tmpl(L, x) : NULL;
        if (!held(L, t, nm, "REDISTRIBUTE"))
            continue;
        /* the new mapping: a version made before, or a new one */
        int ntmpls = L->u->tmpls.n;
        SpTmpl *nt = make_tmpl(L, x, arena_printf(L->a, "%sv%d_%s", L->prog->prefix,
                                                   D->nver + 1, x->name), n);
        if (t->at_alloc) {
            /* an ALLOCATABLE array distributed directly: laid out by the
               allocation of its new version, with its bounds */
            nt->at_alloc = 1;
            nt->array = t->array;
            for (int d = 0; d < nt->rank; d++) {
                nt->lo[d] = t->lo[d];
                nt->hi[d] = t->hi[d];
            }
        }
        for (int k = 0; k + 1 < D->tvers.n; k += 2)
            if (D->tvers.v[k] == x && tmpl_same(D->tvers.v[k + 1], nt)) {
                L->u->tmpls.n = ntmpls;          /* made again: dropped */
                nt = D->tvers.v[k + 1];
                break;
            }
        if (L->u->tmpls.n > ntmpls) {
            D->nver++;
            vec_push(L->a, &D->tvers, x);
            vec_push(L->a, &D->tvers, nt);
        }
        if (tmpl_same(nt, t))
            continue;                             /* nothing moves */
        for (int k = 0; k < D->nt; k++)
            if (D->tsym[k] == x)
                D->tcur[k] = nt;
        /* every array on the template follows it, its alignment kept; the
           array whose allocation lays the template out first */
        for (int k = 0, owner = 1; k < D->na || owner; k++) {
            if (k == D->na) {
                k = -1;
                owner = 0;
                continue;
            }
            SpArr *a = D->acur[k];
            if (a->tmpl != t || (a->sym == t->array) != owner)
                continue;
            SpArr *b = arena_alloc(L->a, sizeof *b);
            *b = *a;
            b->tmpl = nt;
            for (int d = 0; d < b->rank; d++)
                b->tdim[d] = b->adim[d] >= 0 && nt->fmt[b->adim[d]] != HPFMAP_STAR
                             ? b->adim[d] : -1;
            remap(L, a, version_of(L, b), out);
        }
    }
}

static void realign(Lower *L, Node *n, PtrVec *out)
{
    for (int i = 0; i < n->u.align.names.n; i++) {
        Node *nm = n->u.align.names.v[i];
        Symbol *y = nm->u.name.sym;
        SpArr *a = y ? dyn_arr(L, y) : NULL;
        if (!held(L, a, nm, "REALIGN"))
            continue;
        SpArr *b = new_arr(L, y);
        b->allocatable = a->allocatable;
        if (a->at_alloc) {
            b->at_alloc = 1;              /* its bounds: hpfc's variables */
            for (int d = 0; d < b->rank; d++) {
                b->lo[d] = a->lo[d];
                b->hi[d] = a->hi[d];
            }
        }
        align_array(L, b, n);
        if (!b->tmpl) {
            lower_error(L, nm->loc, "the SPMD lowering cannot REALIGN '%s' with '%s', which "
                        "is not mapped (it would be replicated)", y->name, n->u.align.target);
            continue;
        }
        remap(L, a, version_of(L, b), out);
    }
}

void dyn_remap(Lower *L, Node *n, PtrVec *out)
{
    if (!L->dyn)
        return;
    if (n->kind == AST_REDISTRIBUTE)
        redistribute(L, n, out);
    else
        realign(L, n, out);
}

/* ---- states where paths join ---- */

DynState *dyn_save(Lower *L)
{
    Dyn *D = L->dyn;
    if (!D)
        return NULL;
    DynState *s = arena_alloc(L->a, sizeof *s);
    s->na = D->na;
    s->nt = D->nt;
    s->a = arena_alloc(L->a, (size_t)(D->na + 1) * sizeof *s->a);
    s->t = arena_alloc(L->a, (size_t)(D->nt + 1) * sizeof *s->t);
    memcpy(s->a, D->acur, (size_t)D->na * sizeof *s->a);
    memcpy(s->t, D->tcur, (size_t)D->nt * sizeof *s->t);
    return s;
}

void dyn_set(Lower *L, const DynState *s)
{
    Dyn *D = L->dyn;
    if (!D || !s)
        return;
    memcpy(D->acur, s->a, (size_t)D->na * sizeof *s->a);
    memcpy(D->tcur, s->t, (size_t)D->nt * sizeof *s->t);
}

int dyn_same(Lower *L, const DynState *s)
{
    Dyn *D = L->dyn;
    if (!D || !s)
        return 1;
    return !memcmp(D->acur, s->a, (size_t)D->na * sizeof *s->a);
}

void dyn_back(Lower *L, const DynState *s, PtrVec *out, Loc where, const char *why)
{
    Dyn *D = L->dyn;
    if (!D || !s || dyn_same(L, s))
        return;
    for (int i = 0; i < D->na; i++)
        if (D->acur[i] != s->a[i] && why)
            diag_warning(L->d, where, "'%s' is mapped differently %s: hpfc remaps it back "
                         "there (one mapping per statement)", D->asym[i]->name, why);
    Loc saved = L->loc;
    L->loc = where;
    for (int i = 0; i < D->na; i++)
        if (D->acur[i] != s->a[i])
            remap(L, D->acur[i], s->a[i], out);
    L->loc = saved;
    dyn_set(L, s);
}

void dyn_loop_enter(Lower *L, DynState *top)
{
    if (L->dyn)
        vec_push(L->a, &L->dyn->loops, top);
}

void dyn_loop_leave(Lower *L)
{
    if (L->dyn && L->dyn->loops.n)
        L->dyn->loops.n--;
}

static void goto_state(Lower *L, const Pending *p, const DynState *at);

/* Before a jump: EXIT and CYCLE arrive where the loop's top state holds
 * (its end, which remaps back, and after it); a GOTO's state is checked
 * where its label is. The state after the jump is left as it was (what
 * follows a jump in its block is reached only by another path). */
void dyn_jump(Lower *L, Node *n, PtrVec *out)
{
    Dyn *D = L->dyn;
    if (!D)
        return;
    if (n->kind == AST_GOTO) {
        Pending *p = arena_alloc(L->a, sizeof *p);
        p->label = n->u.jump.target;
        p->loc = n->loc;
        p->s = dyn_save(L);
        vec_push(L->a, &D->gotos, p);
        for (int i = 0; i < D->labels.n; i++) {
            const Pending *l = D->labels.v[i];
            if (l->label == p->label)
                goto_state(L, p, l->s);
        }
        return;
    }
    if (!D->loops.n)
        return;
    DynState *here = dyn_save(L);
    dyn_back(L, D->loops.v[D->loops.n - 1], out, n->loc, NULL);
    dyn_set(L, here);
}

/* A GOTO whose state p differs from the state at its label. */
static void goto_state(Lower *L, const Pending *p, const DynState *at)
{
    Dyn *D = L->dyn;
    for (int k = 0; k < D->na; k++)
        if (at->a[k] != p->s->a[k]) {
            lower_error(L, p->loc, "GOTO %d: '%s' is mapped differently at label %d "
                        "(a REDISTRIBUTE or REALIGN lies between): the SPMD lowering "
                        "needs one mapping per statement", p->label, D->asym[k]->name,
                        p->label);
            return;
        }
}

void dyn_label(Lower *L, int label)
{
    Dyn *D = L->dyn;
    if (!D)
        return;
    DynState *here = dyn_save(L);
    for (int i = 0; i < D->gotos.n; i++) {
        Pending *p = D->gotos.v[i];
        if (p->label == label)
            goto_state(L, p, here);
    }
    Pending *l = arena_alloc(L->a, sizeof *l);
    l->label = label;
    l->s = here;
    vec_push(L->a, &D->labels, l);
}
