/* passing.c - mapped arrays passed to the procedures of the file.
 *
 * A whole mapped array passed to a subroutine or a function of the file
 * gives the dummy
 * the actual's mapping (HPF 1.0's inherited mapping: what a dummy with no
 * directive, INHERIT or a transcriptive DISTRIBUTE x * gets): the dummy is
 * a mapped array of the callee, a copy of the actual's mapping in the
 * dummy's index space, marked passed. Its storage is the actual's local
 * part and its descriptor comes along as an extra argument (with the local
 * bounds), so nothing moves. The bodies are lowered callers first, and
 * each call binds the dummies of the procedure it calls where they are not
 * bound yet; a call passing arrays mapped otherwise than a compiled copy
 * takes gets a clone of the procedure compiled for them (pass_callee),
 * with copies of its internal procedures. An internal procedure is
 * cloned likewise for the versions its host's arrays hold at the call.
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

#include <stdlib.h>
#include <string.h>

#include "lower_int.h"
#include "../runtime/hpfmap.h"

typedef struct {
    SpUnit *callee;
    int pos;                     /* the dummy's position, from 1 */
    Symbol *dummy;
    SpArr *actual;               /* the first call's actual; NULL: plain */
    Loc loc;                     /* that call */
    SpArr *inh;                  /* the dummy as its actual is mapped */
    SpArr *own;                  /* its own mapping when it differs, else NULL */
    PtrVec others;               /* SpArr: the other arrays passed, mapped alike */
} Pass;

enum { MAX_CLONES = 16 };

const SpUnit *spmd_unit_named(const SpProgram *p, const SpUnit *from, const char *name)
{
    /* internal procedures of the unit and of its hosts, then external ones */
    for (const SpUnit *h = from; h; h = h->host)
        for (int i = 0; i < p->units.n; i++) {
            const SpUnit *u = p->units.v[i];
            if (u->host == h && u->name && !strcmp(u->name, name))
                return u;
        }
    /* a module procedure the unit has by USE, under the name it has there */
    const Symbol *y = from && from->scope ? scope_lookup(from->scope, name) : NULL;
    for (int i = 0; y && y->module && y->unit && i < p->units.n; i++) {
        const SpUnit *u = p->units.v[i];
        if (u->unit == y->unit && !u->clone_of)
            return u;
    }
    for (int i = 0; i < p->units.n; i++) {
        const SpUnit *u = p->units.v[i];
        if (u->name && !strcmp(u->name, name) && !u->main
            && (u->host ? u->host->unit->u.unit.which == UNIT_MODULE && u->clone_of
                        : u->unit->u.unit.which != UNIT_MODULE))
            return u;     /* external, or a clone of a module procedure (hpfc's name) */
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

/* What a call passes at a position, for the choice of a clone. */
enum {
    ARG_NONE,        /* not an array dummy, or nothing the choice depends on */
    ARG_MAPPED,      /* a whole mapped array (*r) */
    ARG_PLAIN        /* an array that is not mapped, or a copy of part of one */
};

static int arg_class(Lower *L, const Node *call, int i, const SpUnit *callee, SpArr **r)
{
    const PtrVec *dummies = &callee->unit->u.unit.args;
    *r = NULL;
    if (i >= dummies->n)
        return ARG_NONE;
    const Node *dn = dummies->v[i];
    const Symbol *y = dn->kind == AST_NAME ? dn->u.name.sym : NULL;
    const Node *a = call->u.ref.args.v[i];
    if (!y || !y->rank || a->kind == AST_KEYWORD_ARG)
        return ARG_NONE;          /* (keywords: the lowering refuses mapped ones) */
    if (a->kind == AST_NAME && a->u.name.sym && (*r = arr_of(L, a->u.name.sym)))
        return (*r)->rank == y->rank ? ARG_MAPPED : ARG_NONE;
    return ARG_PLAIN;
}

/* The procedure as written, of which u may be a clone. */
static const SpUnit *root_of(const SpUnit *u)
{
    return u->clone_of ? u->clone_of : u;
}

/* The clones of base in its host (base itself first) in the order they
 * were made. */
static int clones_of(Lower *L, const SpUnit *base, SpUnit **out)
{
    int n = 0;
    for (int i = 0; i < L->prog->units.n && n <= MAX_CLONES; i++) {
        SpUnit *u = L->prog->units.v[i];
        if ((u == base || (u->clone_of == root_of(base) && u != root_of(base)))
            && u->host == base->host)
            out[n++] = u;
    }
    return n;
}

static int lowered(Lower *L, const SpUnit *u)
{
    for (int i = 0; i < L->lowered.n; i++)
        if (L->lowered.v[i] == u)
            return 1;
    return 0;
}

/* Whether the procedure c, as its dummies are bound, takes what call
 * passes (once its body is being lowered, no dummy is bound anew); with
 * claim, it is bound to what the call passes where it is not yet. */
static int takes(Lower *L, const Node *call, SpUnit *c, int claim)
{
    int n = call->u.ref.args.n, sealed = lowered(L, c);
    for (int pass = 0; pass < 1 + claim; pass++)
        for (int i = 0; i < n; i++) {
            SpArr *r;
            int k = arg_class(L, call, i, c, &r);
            Pass *p = find(L, c, i + 1);
            if (!pass) {
                if ((k == ARG_MAPPED && (p ? !p->actual || !arr_same(p->actual, r) : sealed))
                    || (k == ARG_PLAIN && p && p->actual))
                    return 0;
                continue;
            }
            if (k == ARG_NONE || (p && (!p->actual || r == p->actual)))
                continue;
            if (!p) {
                const Node *dn = c->unit->u.unit.args.v[i];
                p = arena_alloc(L->a, sizeof *p);
                *p = (Pass){c, i + 1, dn->u.name.sym, r, call->loc, NULL, NULL, {0}};
                vec_push(L->a, &L->pass, p);
                continue;
            }
            int listed = 0;              /* its ghost cells: the dummy's */
            for (int k2 = 0; k2 < p->others.n && !listed; k2++)
                listed = p->others.v[k2] == r;
            if (!listed)
                vec_push(L->a, &p->others, r);
        }
    return 1;
}

/* A copy of the unit base in host, named name: its own mapped arrays and
 * templates, the same statements and symbols; and copies of its internal
 * procedures, which see its arrays. */
static SpUnit *copy_unit(Lower *L, SpUnit *base, SpUnit *host, const char *name)
{
    SpUnit *c = arena_alloc(L->a, sizeof *c);
    Node *n = arena_alloc(L->a, sizeof *n);
    *n = *base->unit;
    c->unit = n;
    c->scope = base->scope;
    c->internal = base->internal;
    c->host = host;
    c->clone_of = root_of(base);
    c->name = name;
    vec_push(L->a, &L->prog->units, c);
    SpUnit *saved = L->u;
    L->u = c;
    map_unit(L);
    L->u = saved;
    for (int i = 0; i < n->u.unit.contains.n; i++)
        for (int k = 0; k < L->prog->units.n; k++) {
            SpUnit *s = L->prog->units.v[k];
            if (s->unit == n->u.unit.contains.v[i] && s->host == base) {
                copy_unit(L, s, c, s->name);
                break;
            }
        }
    return c;
}

/* A clone of the procedure base, compiled for other mappings of its
 * dummies, named by hpfc. NULL, after an error, when it cannot be. */
static SpUnit *clone_unit(Lower *L, SpUnit *base, const Node *call, int nclones)
{
    const char *id = base->unit->u.unit.id;
    if (nclones > MAX_CLONES) {
        lower_error(L, call->loc, "hpfc cannot compile '%s' once more for the mappings of the "
                    "arrays this call passes: it is already compiled for %d mappings, itself "
                    "and %d clones (pass arrays mapped as at another call)", id,
                    MAX_CLONES + 1, MAX_CLONES);
        return NULL;
    }
    const char *name = arena_printf(L->a, "%sc%d_%s", L->prog->prefix, nclones, id);
    if (strlen(name) > 63)
        name = arena_printf(L->a, "%sc%d_p%d", L->prog->prefix, nclones, L->prog->units.n);
    return copy_unit(L, base, base->host, name);
}

static void bind_new(Lower *L, int first);

/* An internal procedure's copy c sees the host's arrays in the versions
 * they hold at the call (its host may remap them): each array of the host
 * as it is here, against the version c was compiled for (set: records
 * those that are not the first). */
static int host_state(Lower *L, SpUnit *c, int set)
{
    const SpUnit *h = c->host;
    for (int i = 0; h && i < h->arrs.n; i++) {
        SpArr *first = h->arrs.v[i];
        int seen = 0;
        for (int k = 0; k < i && !seen; k++)
            seen = ((SpArr *)h->arrs.v[k])->sym == first->sym;
        if (seen || !first->sym)
            continue;
        SpArr *cur = arr_of(L, first->sym), *was = first;
        for (int k = 0; k < c->hostvers.n; k++)
            if (((SpArr *)c->hostvers.v[k])->sym == first->sym)
                was = c->hostvers.v[k];
        if (cur && cur != was) {
            if (!set)
                return 0;
            vec_push(L->a, &c->hostvers, cur);
        }
    }
    return 1;
}

/* The procedure, or the clone of it, that a CALL or a function reference
 * of the unit being lowered calls: one whose dummies are mapped as the
 * arrays passed are here (bound to them if new), made if none is; NULL
 * if not a procedure of the file, or after an error. */
SpUnit *pass_callee(Lower *L, const Node *call)
{
    SpUnit *base = (SpUnit *)spmd_callee(L->prog, L->u, call);
    if (!base)
        return NULL;
    SpUnit *cand[MAX_CLONES + 1], *c = NULL;
    int nc = clones_of(L, base, cand), first = L->pass.n;
    for (int k = 0; k < nc && !c; k++)
        if (takes(L, call, cand[k], 0) && host_state(L, cand[k], 0))
            c = cand[k];
    if (!c && !(c = clone_unit(L, base, call, nc)))
        return NULL;
    host_state(L, c, 1);
    vec_push(NULL, &L->calls, L->u);
    vec_push(NULL, &L->calls, c);
    takes(L, call, c, 1);
    if (L->pass.n > first) {
        SpUnit *u = L->u;
        Loc loc = L->loc;
        bind_new(L, first);
        L->u = u;
        L->loc = loc;
    }
    return c;
}

/* The lowered call names the clone it calls. */
void pass_name_call(Lower *L, Node *c, const SpUnit *callee)
{
    if (!callee || !callee->clone_of)
        return;
    Symbol *y = arena_alloc(L->a, sizeof *y);
    if (c->u.ref.sym)
        *y = *c->u.ref.sym;
    y->name = c->u.ref.id = callee->name;
    y->unit = callee->unit;
    y->next = NULL;
    c->u.ref.sym = y;
    if (c->kind == AST_REF && !callee->internal) {
        for (int i = 0; i < L->u->fclones.n; i++)
            if (L->u->fclones.v[i] == callee)
                return;
        vec_push(L->a, &L->u->fclones, (void *)callee);
    }
}

/* Some argument of the call is a whole mapped array. */
int pass_takes_mapped(Lower *L, const Node *call)
{
    const SpUnit *u = spmd_callee(L->prog, L->u, call);
    for (int i = 0; u && i < call->u.ref.args.n; i++) {
        SpArr *r;
        if (arg_class(L, call, i, u, &r) == ARG_MAPPED)
            return 1;
    }
    return 0;
}

/* Callers before callees, so that a body is lowered once every call to it
 * has bound its dummies: the units in source order, each as soon as all
 * the units that call it are (in a cycle of calls, the first left). */
typedef struct {
    Lower *L;
    const SpUnit *from;
    char *row;                   /* row[j]: from calls unit j */
} Edge;

static int edge_visit(Node *n, void *ctx)
{
    Edge *e = ctx;
    if (n->kind == AST_CALL || (n->kind == AST_REF && (n->u.ref.what == REF_FUNCTION
                                                       || n->u.ref.what == REF_UNRESOLVED))) {
        const SpUnit *c = spmd_callee(e->L->prog, e->from, n);
        for (int j = 0; c && j < e->L->prog->units.n; j++)
            if (e->L->prog->units.v[j] == c && c != e->from)
                e->row[j] = 1;
    }
    return ast_children(n, edge_visit, ctx);
}

void pass_order(Lower *L, PtrVec *order)
{
    const PtrVec *units = &L->prog->units;
    int n = units->n;
    char *calls = xcalloc((size_t)n * (size_t)n + 1, 1), *done = xcalloc((size_t)n + 1, 1);
    for (int i = 0; i < n; i++) {
        Edge e = {L, units->v[i], calls + (size_t)i * (size_t)n};
        const PtrVec *body = &e.from->unit->u.unit.body;
        for (int k = 0; k < body->n; k++)
            edge_visit(body->v[k], &e);
    }
    for (int k = 0; k < n; k++) {
        int pick = -1, first = -1;
        for (int j = 0; j < n && pick < 0; j++) {
            if (done[j])
                continue;
            if (first < 0)
                first = j;
            int ready = 1;
            for (int i = 0; i < n && ready; i++)
                ready = done[i] || !calls[i * n + j];
            if (ready)
                pick = j;
        }
        pick = pick < 0 ? first : pick;
        done[pick] = 1;
        vec_push(NULL, order, units->v[pick]);
    }
    free(calls);
    free(done);
}

/* Lowering the body of u starts: its dummies are bound for good. */
void pass_seal(Lower *L, SpUnit *u)
{
    vec_push(NULL, &L->lowered, u);
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
           callee checks are the actual's (the alignment is then the same),
           or assumed shape: the extent the descriptor holds */
        int assumed = 0;
        /* an alignment that is not constant (ALIGN b(:) WITH a(:): the
           difference of the two ALLOCATEs' lower bounds) is in hpfc's
           variables of the unit that declares the array: an internal
           procedure of it sees them */
        const SpUnit *owner = NULL;
        for (int i = 0; i < L->prog->units.n && !owner; i++) {
            const SpUnit *u = L->prog->units.v[i];
            for (int k = 0; k < u->arrs.n && !owner; k++)
                if (u->arrs.v[k] == a)
                    owner = u;
        }
        int sees = owner && (p->callee == owner || p->callee->host == owner);
        for (int d = 0; d < y->rank; d++) {
            Node *dm = y->dims[d];
            if (dm->u.dim.form != DIM_DEFERRED && (dm->u.dim.form != DIM_EXPLICIT
                                                   || !dm->u.dim.hi)) {
                lower_error(L, at, "the SPMD lowering cannot pass the mapped ALLOCATABLE "
                            "array '%s' to the dummy '%s' of '%s': give the dummy explicit "
                            "bounds, the actual's, or an assumed shape", a->sym->name,
                            y->name, p->callee->unit->u.unit.id);
                return NULL;
            }
            long long ca;
            if (a->adim[d] >= 0 && !a->cknown[d] && !sees) {
                if (!cint(a->alpha[d], &ca)) {
                    lower_error(L, at, "the SPMD lowering cannot pass the mapped ALLOCATABLE "
                                "array '%s' to the dummy '%s' of '%s', a procedure outside "
                                "the unit that declares it: its alignment stride is not "
                                "constant", a->sym->name, y->name,
                                p->callee->unit->u.unit.id);
                    return NULL;
                }
                /* the offset, from the descriptor on entry (the predictor
                   binds it from the actual's at the call) */
                const char *nm = arena_printf(L->a, "%s%s_b%d", L->prog->prefix, y->name,
                                              d + 1);
                Symbol *v = hidden_var(L, p->callee, nm, y->decl);
                r->bvar[d] = v;
                r->beta[d] = mk_name(L, v, at);
            }
            r->lo[d] = dm->u.dim.lo ? dm->u.dim.lo : mk_int(L, 1);
            if (dm->u.dim.form == DIM_DEFERRED) {
                /* lo + SIZE(y, d) - 1, SIZE the global extent (emit.c asks
                   the descriptor) */
                Node *sz = inquire(L, "size", y, d);
                r->hi[d] = mk_bin(L, OP_SUB, mk_bin(L, OP_ADD, r->lo[d], sz), mk_int(L, 1));
                assumed = 1;
            } else {
                r->hi[d] = dm->u.dim.hi;
            }
        }
        r->passed = assumed ? 3 : 2;
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
            if (!p->actual || own_mapping(p->dummy) != round)
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

/* An internal procedure that no procedure called calls, of which there
 * are copies (one compiled for mappings that only its clones are called
 * with) is dropped: gfortran would warn that it is not used. One the
 * program never calls stays, as written. */
void pass_prune(Lower *L)
{
    PtrVec *units = &L->prog->units;
    char *live = xcalloc((size_t)units->n + 1, 1);
    for (int i = 0; i < units->n; i++)
        live[i] = !((SpUnit *)units->v[i])->internal;
    for (int more = 1; more;) {
        more = 0;
        for (int k = 0; k + 1 < L->calls.n; k += 2)
            for (int i = 0; i < units->n; i++)
                if (units->v[i] == L->calls.v[k + 1] && !live[i])
                    for (int j = 0; j < units->n; j++)
                        if (units->v[j] == L->calls.v[k] && live[j])
                            live[i] = more = 1;
    }
    int n = 0;
    for (int i = 0; i < units->n; i++) {
        const SpUnit *u = units->v[i];
        int copied = u->clone_of != NULL;   /* a copy, or copied */
        for (int k = 0; k < units->n && !copied; k++)
            copied = ((const SpUnit *)units->v[k])->clone_of == u;
        if (live[i] || !copied)
            units->v[n++] = units->v[i];
    }
    units->n = n;
    free(live);
}

/* A dummy with a mapping of its own that no call passes a mapped array:
 * a warning (after the bodies). */
void pass_unused(Lower *L)
{
    SpProgram *prog = L->prog;
    for (int i = 0; i < prog->units.n; i++) {
        SpUnit *u = prog->units.v[i];
        const PtrVec *args = &u->unit->u.unit.args;
        for (int k = 0; k < args->n && !u->clone_of; k++) {
            const Node *dn = args->v[k];
            Symbol *y = dn->kind == AST_NAME ? dn->u.name.sym : NULL;
            if (y && y->rank && (own_mapping(y) || y->inherit) && !y->passed)
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

/* The argument for a whole mapped array passed at position pos (from 1)
 * of callee (pass_callee's): the array as it is mapped here; NULL after an
 * error. */
Node *pass_actual(Lower *L, const SpUnit *callee, int pos, Node *v)
{
    Pass *p = callee ? find(L, callee, pos) : NULL;
    SpArr *cur = arr_of(L, v->u.name.sym);
    if (!p || !p->inh || !arr_same(cur, p->actual)) {
        if (!L->errors)
            lower_error(L, v->loc, "the SPMD lowering cannot pass the mapped array '%s' here "
                        "(a whole mapped array goes to an array dummy of a procedure of the "
                        "file)", v->u.name.id);
        return NULL;
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
 * caller's; every array passed along a chain of calls gets the widest.
 * Then the overlap areas of the templates' CYCLIC(k) and BLOCK(k)
 * dimensions. */
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
    /* Along a CYCLIC(k) or BLOCK(k) dimension the ghost cells are overlap
       areas around every block, which shift the local indices of the cells
       (hpfmap_pad): every array aligned with a dimension, or with one laid
       out alike (whose loops share local indices), gets the same. */
    PtrVec ts = {0}, as = {0};
    for (int i = 0; i < L->prog->units.n; i++) {
        const SpUnit *u = L->prog->units.v[i];
        for (int k = 0; k < u->arrs.n; k++)
            vec_push(L->a, &as, u->arrs.v[k]);
        for (int k = 0; k < u->passed.n; k++)
            vec_push(L->a, &as, u->passed.v[k]);
    }
    for (int k = 0; k < as.n; k++) {
        SpArr *x = as.v[k];
        int seen = 0;
        for (int j = 0; x->tmpl && j < ts.n && !seen; j++)
            seen = ts.v[j] == x->tmpl;
        if (x->tmpl && !seen)
            vec_push(L->a, &ts, x->tmpl);
        for (int d = 0; d < x->rank; d++) {
            int t = x->tmpl ? x->tdim[d] : -1;
            if (t < 0 || (x->tmpl->fmt[t] != HPFMAP_CYCLIC && x->tmpl->fmt[t] != HPFMAP_BLOCKK))
                continue;
            if (x->glo[d] > x->tmpl->glo[t])
                x->tmpl->glo[t] = x->glo[d];
            if (x->ghi[d] > x->tmpl->ghi[t])
                x->tmpl->ghi[t] = x->ghi[d];
        }
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < ts.n; i++)
            for (int j = 0; j < ts.n; j++) {
                SpTmpl *a = ts.v[i];
                const SpTmpl *b = ts.v[j];
                for (int da = 0; da < a->rank; da++)
                    for (int db = 0; db < b->rank; db++)
                        if ((a->glo[da] < b->glo[db] || a->ghi[da] < b->ghi[db])
                            && tdim_equiv(a, da, b, db)) {
                            if (a->glo[da] < b->glo[db])
                                a->glo[da] = b->glo[db];
                            if (a->ghi[da] < b->ghi[db])
                                a->ghi[da] = b->ghi[db];
                            changed = 1;
                        }
            }
    }
    for (int k = 0; k < as.n; k++) {
        SpArr *x = as.v[k];
        for (int d = 0; d < x->rank; d++) {
            int t = x->tmpl ? x->tdim[d] : -1;
            if (t >= 0 && (x->tmpl->glo[t] || x->tmpl->ghi[t])) {
                x->glo[d] = x->tmpl->glo[t];
                x->ghi[d] = x->tmpl->ghi[t];
            }
        }
    }
}

