/* passing.c - mapped arrays passed to the procedures of the file.
 *
 * A whole mapped array passed to a subroutine or a function of the file
 * gives the dummy
 * the actual's mapping (HPF 1.0's inherited mapping: what a dummy with no
 * directive, INHERIT or a transcriptive DISTRIBUTE x * gets): the dummy is
 * a mapped array of the callee, a copy of the actual's mapping in the
 * dummy's index space, marked passed. Its storage is the actual's local
 * part and its descriptor comes along as an extra argument (with the local
 * bounds), so nothing moves. A procedure is lowered once, so every call
 * must pass actuals mapped alike: a CALL passing an array of its unit
 * mapped otherwise gets a copy of it in the compiled layout, for the call
 * (relayout(); dynamic.c lends the version and takes it back).
 *
 * A dummy with a mapping of its own (prescriptive DISTRIBUTE x(BLOCK),
 * descriptive DISTRIBUTE x *(BLOCK), ALIGN) that differs from its actual's
 * is a second version of the dummy: on entry the inherited data are
 * copied into it, on exit (the end, every RETURN) back, as for a REALIGN
 * (dynamic.c does the copies), unless INTENT(OUT) or INTENT(IN) makes a
 * copy needless.
 *
 * A section or an expression of a mapped array goes as a replicated copy
 * (lower.c), to a dummy that is then not mapped. */
#include <config.h>

#include <string.h>

#include "lower_int.h"

typedef struct {
    SpUnit *callee;
    int pos;                     /* the dummy's position, from 1 */
    Symbol *dummy;
    SpArr *actual;               /* the first call's actual */
    Loc loc;                     /* that call */
    SpArr *inh;                  /* the dummy as its actual is mapped */
    SpArr *own;                  /* its own mapping when it differs, else NULL */
    PtrVec others;               /* SpArr: the other arrays passed, mapped alike */
} Pass;

const SpUnit *spmd_unit_named(const SpProgram *p, const SpUnit *from, const char *name)
{
    /* internal procedures of the unit and of its hosts, then external ones */
    for (const SpUnit *h = from; h; h = h->host)
        for (int i = 0; i < p->units.n; i++) {
            const SpUnit *u = p->units.v[i];
            if (u->host == h && u->unit->u.unit.id && !strcmp(u->unit->u.unit.id, name))
                return u;
        }
    for (int i = 0; i < p->units.n; i++) {
        const SpUnit *u = p->units.v[i];
        if (!u->host && !u->main && u->unit->u.unit.id && !strcmp(u->unit->u.unit.id, name))
            return u;
    }
    return NULL;
}

const SpUnit *spmd_callee(const SpProgram *p, const SpUnit *from, const Node *call)
{
    const Symbol *y = call->u.ref.sym;
    for (int i = 0; y && y->unit && i < p->units.n; i++) {
        const SpUnit *u = p->units.v[i];
        if (u->unit == y->unit)
            return u;
    }
    return spmd_unit_named(p, from, call->u.ref.id);
}

/* Two mappings place every element alike (the same template layout, the
 * same alignment). */
int arr_same(const SpArr *a, const SpArr *b)
{
    if (a == b)
        return 1;
    if (a->rank != b->rank || !a->tmpl || !b->tmpl || !tmpl_same(a->tmpl, b->tmpl))
        return 0;
    for (int d = 0; d < a->rank; d++) {
        if (a->tdim[d] != b->tdim[d] || a->adim[d] != b->adim[d])
            return 0;
        if (a->adim[d] >= 0 && (!same_expr(a->alpha[d], b->alpha[d])
                                || !same_expr(a->beta[d], b->beta[d])))
            return 0;
    }
    for (int te = 0; te < a->tmpl->rank; te++)
        if ((a->fix[te] == NULL) != (b->fix[te] == NULL)
            || (a->fix[te] && !same_expr(a->fix[te], b->fix[te])))
            return 0;
    return 1;
}

static Pass *find(Lower *L, const SpUnit *callee, int pos)
{
    for (int i = 0; i < L->pass.n; i++) {
        Pass *p = L->pass.v[i];
        if (p->callee == callee && p->pos == pos)
            return p;
    }
    return NULL;
}

typedef struct {
    Lower *L;
    SpUnit *from;
} Walk;

/* Records, for each CALL and function reference, the mapped arrays
 * passed whole. */
static int calls_visit(Node *n, void *ctx)
{
    Walk *w = ctx;
    Lower *L = w->L;
    if (n->kind == AST_CALL || (n->kind == AST_REF && n->u.ref.what == REF_FUNCTION)) {
        SpUnit *callee = (SpUnit *)spmd_callee(L->prog, w->from, n);
        const PtrVec *dummies = callee ? &callee->unit->u.unit.args : NULL;
        for (int i = 0; callee && i < n->u.ref.args.n && i < dummies->n; i++) {
            Node *a = n->u.ref.args.v[i];
            const Node *dn = dummies->v[i];
            if (a->kind != AST_NAME || dn->kind != AST_NAME || !dn->u.name.sym)
                continue;
            SpArr *r = arr_of(L, a->u.name.sym);
            Symbol *y = dn->u.name.sym;
            if (!r || y->rank != r->rank)
                continue;          /* the lowering of the call says what is wrong */
            Pass *p = find(L, callee, i + 1);
            if (!p) {
                p = arena_alloc(L->a, sizeof *p);
                *p = (Pass){callee, i + 1, y, r, n->loc, NULL, NULL, {0}};
                vec_push(L->a, &L->pass, p);
            } else if (r != p->actual && arr_same(p->actual, r)) {
                int listed = 0;              /* its ghost cells: the dummy's */
                for (int k = 0; k < p->others.n && !listed; k++)
                    listed = p->others.v[k] == r;
                if (!listed)
                    vec_push(L->a, &p->others, r);
            } else if (!arr_same(p->actual, r) && n->kind == AST_CALL) {
                /* copied into the procedure's layout around the call, when
                   the caller holds that layout (pass_actual) */
                int listed = 0;
                for (int k = 0; k < L->relayout.n && !listed; k++)
                    listed = L->relayout.v[k] == w->from;
                if (!listed)
                    vec_push(L->a, &L->relayout, w->from);
            }
        }
    }
    return ast_children(n, calls_visit, ctx);
}

/* The dummy as its actual is mapped, in the dummy's index space. */
static SpArr *inherited(Lower *L, Pass *p)
{
    Symbol *y = p->dummy;
    const SpArr *a = p->actual;
    Loc at = y->decl ? y->decl->loc : p->callee->unit->loc;
    SpArr *r = arena_alloc(L->a, sizeof *r);
    *r = *a;
    r->sym = y;
    r->name = y->name;
    r->version = 0;
    r->passed = 1;
    r->at_alloc = 0;
    r->dummy = p->pos;
    if (a->at_alloc) {
        /* bounds known at run time only: the dummy's, explicit, which the
           callee checks are the actual's (the alignment is then the same) */
        for (int d = 0; d < y->rank; d++) {
            Node *dm = y->dims[d];
            if (dm->u.dim.form != DIM_EXPLICIT || !dm->u.dim.hi || (a->adim[d] >= 0
                                                                    && !a->cknown[d])) {
                lower_error(L, at, "the SPMD lowering cannot pass the mapped ALLOCATABLE "
                            "array '%s' to the dummy '%s' of '%s': give the dummy explicit "
                            "bounds, the actual's", a->sym->name, y->name,
                            p->callee->unit->u.unit.id);
                return NULL;
            }
            r->lo[d] = dm->u.dim.lo ? dm->u.dim.lo : mk_int(L, 1);
            r->hi[d] = dm->u.dim.hi;
        }
        r->passed = 2;
        return r;
    }
    for (int d = 0; d < y->rank; d++) {
        Node *dm = y->dims[d];
        long long la, ha, lx, hx;
        int ka = cint(a->lo[d], &la) && cint(a->hi[d], &ha);
        r->lo[d] = dm->u.dim.lo ? dm->u.dim.lo : mk_int(L, 1);
        if (dm->u.dim.form == DIM_EXPLICIT && dm->u.dim.hi) {
            r->hi[d] = dm->u.dim.hi;
        } else if (dm->u.dim.form == DIM_DEFERRED && ka && cint(r->lo[d], &lx)) {
            r->hi[d] = mk_int(L, lx + ha - la);           /* assumed shape */
        } else {
            lower_error(L, at, "the SPMD lowering cannot pass the mapped array '%s' to the "
                        "dummy '%s' of '%s': give the dummy explicit bounds", a->sym->name,
                        y->name, p->callee->unit->u.unit.id);
            return NULL;
        }
        if (ka && cint(r->lo[d], &lx) && cint(r->hi[d], &hx) && hx - lx != ha - la) {
            lower_error(L, at, "the dummy '%s' of '%s' has %lld elements in dimension %d, its "
                        "mapped actual '%s' %lld (sequence association of mapped arrays is "
                        "not supported)", y->name, p->callee->unit->u.unit.id, hx - lx + 1,
                        d + 1, a->sym->name, ha - la + 1);
            return NULL;
        }
        if (a->adim[d] < 0)
            continue;
        /* dummy index i is actual index i + (la - lx) */
        if (!cint(a->lo[d], &la) || !cint(r->lo[d], &lx) || !a->cknown[d]) {
            lower_error(L, at, "the SPMD lowering cannot pass the mapped array '%s' to the "
                        "dummy '%s' of '%s': its lower bounds and alignment must be "
                        "constants", a->sym->name, y->name, p->callee->unit->u.unit.id);
            return NULL;
        }
        r->cb[d] = a->cb[d] + a->ca[d] * (la - lx);
        r->alpha[d] = mk_int(L, a->ca[d]);
        r->beta[d] = mk_int(L, r->cb[d]);
    }
    for (int te = 0; te < a->tmpl->rank; te++) {
        long long c;
        if (a->fix[te] && !cint(a->fix[te], &c)) {
            lower_error(L, at, "the SPMD lowering cannot pass the mapped array '%s': its "
                        "alignment must be constant", a->sym->name);
            return NULL;
        }
    }
    return r;
}

/* 0: mapped as its actual; 1: DISTRIBUTEd; 2: ALIGNed (after what it is
 * aligned with) */
static int own_mapping(const Symbol *y)
{
    return y->distribute ? 1 : y->align ? 2 : 0;
}

/* The dummies of the passes from the first-th on. */
static void bind_new(Lower *L, int first)
{
    /* dummies inheriting first: an ALIGN with a dummy needs its mapping */
    for (int round = 0; round < 3; round++)
        for (int i = first; i < L->pass.n; i++) {
            Pass *p = L->pass.v[i];
            if (own_mapping(p->dummy) != round)
                continue;
            L->u = p->callee;
            SpArr *own = round ? map_dummy(L, p->dummy) : NULL;
            SpArr *r = inherited(L, p);
            if (!r)
                continue;
            PtrVec *arrs = &p->callee->arrs;
            /* the inherited version first: it holds the dummy on entry */
            vec_push(L->a, arrs, r);
            for (int k = arrs->n - 1; own && k > 0 && arrs->v[k - 1] == own; k--) {
                arrs->v[k] = arrs->v[k - 1];
                arrs->v[k - 1] = r;
            }
            for (int k = 0; k < arrs->n; k++)
                ((SpArr *)arrs->v[k])->id = k + 1;
            vec_push(L->a, &p->callee->passed, r);
            p->inh = r;
            p->dummy->passed = 1;     /* the procedure communicates */
            if (own && arr_same(own, r)) {
                /* already mapped as it asks: nothing moves */
                for (int k = 0; k < arrs->n; k++)
                    if (arrs->v[k] == own) {
                        arrs->v[k] = arrs->v[--arrs->n];
                        break;
                    }
                continue;
            }
            if (own) {
                Node *dist = p->dummy->distribute;
                if (dist && dist->u.dist.star == DIST_DESCRIPTIVE)
                    diag_warning(L->d, dist->loc, "hpfc cannot tell that the actual of '%s' "
                                 "(first call at line %d) is mapped as this descriptive "
                                 "DISTRIBUTE says (bounds that are not constants here count as "
                                 "different): it remaps it on entry and back on exit",
                                 p->dummy->name, p->loc.line);
                own->version = 1;
                own->name = arena_printf(L->a, "%sv1_%s", L->prog->prefix, p->dummy->name);
                p->own = own;
            }
        }
}

void pass_bind(Lower *L)
{
    SpProgram *prog = L->prog;
    /* until no call passes anything new: a dummy bound here may be passed
       on by its procedure */
    for (int done = 0, more = 1; more; done = L->pass.n) {
        for (int i = 0; i < prog->units.n; i++) {
            Walk w = {L, prog->units.v[i]};
            L->u = w.from;
            PtrVec *body = &w.from->unit->u.unit.body;
            for (int k = 0; k < body->n; k++)
                calls_visit(body->v[k], &w);
        }
        more = L->pass.n > done;
        bind_new(L, done);
    }
    /* a dummy with a mapping of its own that no call passes a mapped array */
    for (int i = 0; i < prog->units.n; i++) {
        SpUnit *u = prog->units.v[i];
        const PtrVec *args = &u->unit->u.unit.args;
        for (int k = 0; k < args->n; k++) {
            const Node *dn = args->v[k];
            Symbol *y = dn->kind == AST_NAME ? dn->u.name.sym : NULL;
            if (y && y->rank && (own_mapping(y) || y->inherit) && !find(L, u, k + 1))
                diag_warning(L->d, y->decl ? y->decl->loc : dn->loc, "no call passes a "
                             "mapped array to the dummy '%s' of '%s': its mapping directive "
                             "is not applied (hpfc maps a dummy from its actual)", y->name,
                             u->unit->u.unit.id);
        }
    }
}

/* The version of the dummy on entry (the inherited one), when the unit
 * has dummies of their own mapping: dynamic.c follows them. */
int pass_versions(Lower *L)
{
    for (int i = 0; i < L->pass.n; i++) {
        Pass *p = L->pass.v[i];
        if (p->callee == L->u && p->own)
            return 1;
    }
    return 0;
}

/* On entry: each dummy of its own mapping is copied into it (not for
 * INTENT(OUT): only allocated). */
void pass_enter(Lower *L, PtrVec *out)
{
    for (int i = 0; i < L->pass.n; i++) {
        Pass *p = L->pass.v[i];
        if (p->callee == L->u && p->own)
            dyn_move(L, p->inh, p->own, out, p->dummy->intent != INTENT_OUT);
    }
}

/* On exit (the end, a RETURN): back into the inherited storage (not for
 * INTENT(IN): only deallocated); the state after is left as it was. */
void pass_leave(Lower *L, PtrVec *out)
{
    DynState *here = dyn_save(L);
    for (int i = 0; i < L->pass.n; i++) {
        Pass *p = L->pass.v[i];
        if (p->callee != L->u || !p->own)
            continue;
        SpArr *cur = dyn_arr(L, p->dummy);
        if (cur && cur != p->inh)
            dyn_move(L, cur, p->inh, out, p->dummy->intent != INTENT_IN);
    }
    dyn_set(L, here);
}

/* Some call passes a mapped array whole at position pos of callee. */
int pass_mapped(Lower *L, const SpUnit *callee, int pos)
{
    return callee && find(L, callee, pos) != NULL;
}

/* The argument for a whole mapped array passed at position pos (from 1):
 * the array as it is mapped here, which must be as the procedure was
 * compiled for; NULL after an error. */
/* The unit copies arrays into another layout around some of its calls. */
int pass_relayouts(Lower *L)
{
    for (int k = 0; k < L->relayout.n; k++)
        if (L->relayout.v[k] == L->u)
            return 1;
    return 0;
}

/* cur laid out as the procedure was compiled for (p->actual's layout), as
 * a version of cur's array, when this unit holds that layout's template
 * and the extents and lower bounds are the same constants; NULL if not. */
static SpArr *relayout(Lower *L, SpArr *cur, Pass *p)
{
    const SpArr *a = p->actual;
    int held = 0;
    for (SpUnit *u = L->u; u && !held; u = u->host)
        for (int k = 0; k < u->tmpls.n && !held; k++)
            held = u->tmpls.v[k] == a->tmpl;
    if (!held || !L->dyn || cur->rank != a->rank || cur->at_alloc || cur->passed
        || scope_lookup_local(L->u->scope, cur->sym->name) != cur->sym)
        return NULL;                  /* (an array of the host stays as it is) */
    for (int d = 0; d < a->rank; d++) {
        long long l1, h1, l2, h2;
        if (!cint(a->lo[d], &l1) || !cint(a->hi[d], &h1) || !cint(cur->lo[d], &l2)
            || !cint(cur->hi[d], &h2) || l1 != l2 || h1 != h2)
            return NULL;
    }
    SpArr *b = arena_alloc(L->a, sizeof *b);
    *b = *a;
    b->sym = cur->sym;
    b->type = cur->type;
    b->allocatable = cur->allocatable;
    b->version = 0;
    b->passed = b->dummy = 0;
    for (int d = 0; d < b->rank; d++) {
        b->lo[d] = cur->lo[d];
        b->hi[d] = cur->hi[d];
    }
    b = dyn_version(L, b);
    /* its ghost cells as wide as the procedure needs */
    Pass *q = arena_alloc(L->a, sizeof *q);
    *q = *p;
    q->actual = b;
    vec_push(L->a, &L->pass, q);
    return b;
}

Node *pass_actual(Lower *L, const SpUnit *callee, int pos, Node *v, SpArr **moved)
{
    Pass *p = callee ? find(L, callee, pos) : NULL;
    SpArr *cur = arr_of(L, v->u.name.sym);
    if (!p || !p->inh) {
        if (!L->errors)
            lower_error(L, v->loc, "the SPMD lowering cannot pass the mapped array '%s' here "
                        "(a whole mapped array goes to an array dummy of a subroutine of the "
                        "file)", v->u.name.id);
        return NULL;
    }
    if (!arr_same(cur, p->actual)) {
        SpArr *b = moved ? relayout(L, cur, p) : NULL;
        if (!b) {
            lower_error(L, v->loc, "'%s' is mapped otherwise than the array passed to '%s' "
                        "at line %d: hpfc compiles a procedure once, for one mapping of each "
                        "dummy, and cannot copy '%s' into that one here (pass arrays mapped "
                        "alike, or copy into one)", v->u.name.id, callee->unit->u.unit.id,
                        p->loc.line, v->u.name.id);
            return NULL;
        }
        dyn_lend(L, cur, b, L->pre);        /* and back after the call (lower.c) */
        *moved = cur;
        cur = b;
    }
    Node *a = arena_alloc(L->a, sizeof *a);
    *a = *v;
    a->u.name.id = cur->name;
    SpRef *ir = arena_alloc(L->a, sizeof *ir);
    ir->acc = ACC_LOCAL;
    ir->arr = cur;
    a->ir = ir;
    return a;
}

/* Ghost cells: the callee's references may need wider ones than the
 * caller's; every array passed along a chain of calls gets the widest. */
void pass_ghosts(Lower *L)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < L->pass.n; i++) {
            Pass *p = L->pass.v[i];
            if (!p->inh)
                continue;
            for (int o = -1; o < p->others.n; o++) {
                SpArr *x[2] = {p->inh, o < 0 ? p->actual : p->others.v[o]};
                for (int d = 0; d < p->inh->rank; d++) {
                    int lo = x[0]->glo[d] > x[1]->glo[d] ? x[0]->glo[d] : x[1]->glo[d];
                    int hi = x[0]->ghi[d] > x[1]->ghi[d] ? x[0]->ghi[d] : x[1]->ghi[d];
                    for (int k = 0; k < 2; k++)
                        if (x[k]->glo[d] != lo || x[k]->ghi[d] != hi) {
                            x[k]->glo[d] = lo;
                            x[k]->ghi[d] = hi;
                            changed = 1;
                        }
                }
            }
        }
    }
}
