/* mapping.c - the data mapping of a unit for the SPMD lowering: processor
 * arrangements, templates with their distributions, and every mapped array
 * as a chain ALIGN -> (array ->)* template resolved to one affine function
 * per dimension (HPF 1.0 chapter 3). Arrays no directive maps, and
 * scalars, are replicated. */
#include <config.h>

#include <string.h>

#include "lower_int.h"
#include "../runtime/hpfmap.h"

static SpProcs *find_procs(Lower *L, const char *name)
{
    for (int i = 0; i < L->u->procs.n; i++) {
        SpProcs *p = L->u->procs.v[i];
        if (!strcmp(p->name, name))
            return p;
    }
    return NULL;
}

static Node *dim_lo(Lower *L, Node *dm)
{
    return dm->u.dim.lo ? dm->u.dim.lo : mk_int(L, 1);
}

static SpProcs *new_procs(Lower *L, Symbol *y)
{
    SpProcs *p = arena_alloc(L->a, sizeof *p);
    p->id = L->u->procs.n + 1;
    p->name = y->name;
    p->rank = y->rank;
    for (int d = 0; d < y->rank; d++) {
        Node *hi = y->dims[d]->u.dim.hi;
        int np = hi && hi->kind == AST_REF && !strcmp(hi->u.ref.id, "number_of_processors");
        /* an expression of NUMBER_OF_PROCESSORS() lowered: hpfrt_nprocs() */
        p->ext[d] = np ? NULL : hi ? lx(L, copy_plain(L, hi), NULL) : NULL;
    }
    vec_push(L->a, &L->u->procs, p);
    return p;
}

/* The arrangement of a DISTRIBUTE of r > 1 dimensions without ONTO: rank
 * r, all the processes, its shape the run time's most balanced one (no
 * declared extents: NUMBER_OF_PROCESSORS() in each, so never a note that
 * it was re-formed); one per rank in a unit. The default of one dimension
 * stays the 1-D arrangement of no name (onto NULL). */
static SpProcs *default_procs(Lower *L, int r)
{
    const char *name = arena_printf(L->a, "%sdefault%d", L->prog->prefix, r);
    SpProcs *p = find_procs(L, name);
    if (p)
        return p;
    p = arena_alloc(L->a, sizeof *p);
    p->id = L->u->procs.n + 1;
    p->name = name;
    p->rank = r;
    vec_push(L->a, &L->u->procs, p);
    return p;
}

/* A template from a TEMPLATE symbol or an array distributed directly, with
 * the formats of dist, its DISTRIBUTE or a REDISTRIBUTE (none: every
 * dimension '*'), named name. */
SpTmpl *make_tmpl(Lower *L, Symbol *y, const char *name, Node *dist)
{
    SpTmpl *t = arena_alloc(L->a, sizeof *t);
    t->id = L->u->tmpls.n + 1;
    t->name = name;
    t->rank = y->rank;
    int g = 0;
    for (int d = 0; d < y->rank; d++) {
        t->lo[d] = dim_lo(L, y->dims[d]);
        t->hi[d] = y->dims[d]->u.dim.hi;
        t->fmt[d] = HPFMAP_STAR;
        t->gdim[d] = -1;
        if (!dist)
            continue;
        Node *f = dist->u.dist.formats.v[d];
        switch (f->u.distfmt.fmt) {
        case DIST_BLOCK: t->fmt[d] = f->u.distfmt.arg ? HPFMAP_BLOCKK : HPFMAP_BLOCK; break;
        case DIST_CYCLIC: t->fmt[d] = HPFMAP_CYCLIC; break;
        default: break;
        }
        t->k[d] = f->u.distfmt.arg;
        if (t->fmt[d] != HPFMAP_STAR)
            t->gdim[d] = g++;
    }
    if (dist && dist->u.dist.onto)
        t->onto = find_procs(L, dist->u.dist.onto);
    else if (g > 1)
        t->onto = default_procs(L, g);
    vec_push(L->a, &L->u->tmpls, t);
    return t;
}

static SpTmpl *new_tmpl(Lower *L, Symbol *y)
{
    return make_tmpl(L, y, y->name, y->distribute);
}

static SpTmpl *tmpl_of(Lower *L, Symbol *y)
{
    for (int i = 0; i < L->u->tmpls.n; i++) {
        SpTmpl *t = L->u->tmpls.v[i];
        if (!strcmp(t->name, y->name))
            return t;
    }
    return new_tmpl(L, y);
}

SpArr *new_arr(Lower *L, Symbol *y)
{
    SpArr *r = arena_alloc(L->a, sizeof *r);
    r->id = L->u->arrs.n + 1;
    r->sym = y;
    r->name = y->name;
    r->type = y->type;
    r->rank = y->rank;
    for (int d = 0; d < y->rank; d++) {
        r->lo[d] = dim_lo(L, y->dims[d]);
        r->hi[d] = y->dims[d]->u.dim.hi;
        r->tdim[d] = r->adim[d] = -1;
    }
    return r;
}

/* Sets dimension d of r to template cell alpha*i + beta of dimension te of
 * r's template: a local dimension when te is not distributed (adim keeps
 * the alignment, for a REDISTRIBUTE that distributes it). */
static void set_axis(Lower *L, SpArr *r, int d, int te, Node *alpha, Node *beta)
{
    (void)L;
    r->adim[d] = te;
    r->alpha[d] = alpha;
    r->beta[d] = beta;
    r->cknown[d] = cint(alpha, &r->ca[d]) && cint(beta, &r->cb[d]);
    r->tdim[d] = r->tmpl->fmt[te] == HPFMAP_STAR ? -1 : te;
}

/* ALIGN x(src) WITH target(tgt): each target subscript is affine in at most
 * one align-dummy (sema checked): alpha = E[I:=1] - E[I:=0], beta = E[I:=0]. */
static Symbol *dummy_in(Node *e)
{
    if (e->kind == AST_NAME && e->u.name.sym && e->u.name.sym->kind == SYM_INDEX)
        return e->u.name.sym;
    Symbol *found = NULL;
    switch (e->kind) {
    case AST_BINARY:
        found = dummy_in(e->u.binary.lhs);
        return found ? found : dummy_in(e->u.binary.rhs);
    case AST_UNARY: case AST_PAREN:
        return dummy_in(e->u.unary.operand);
    default:
        return NULL;
    }
}

static SpArr *map_array(Lower *L, Symbol *y);

/* r aligned by al, an ALIGN or a REALIGN, with the target's mapping of
 * now (dyn_current: its version at this point of a unit that remaps). */
void align_array(Lower *L, SpArr *r, Node *al)
{
    Scope *sc = L->u->scope;
    Symbol *ts = scope_lookup(sc, al->u.align.target);
    PtrVec *src = &al->u.align.src, *tgt = &al->u.align.tgt;
    SpArr *base = NULL;               /* aligned with another array */
    SpTmpl *t;
    int trank;
    if (ts->kind == SYM_TEMPLATE) {
        t = dyn_tmpl(L, ts);
        if (!t)
            t = tmpl_of(L, ts);
        trank = t->rank;
    } else {
        base = dyn_arr(L, ts);
        for (int i = 0; !base && L->dummies && ts->dummy && i < L->u->arrs.n; i++) {
            SpArr *v = L->u->arrs.v[i];
            if (v->sym == ts && !v->passed)
                base = v;             /* a dummy's own mapping, not its actual's */
        }
        if (!base)
            base = map_array(L, ts);
        if (!base || !base->tmpl)
            return;                   /* aligned with a replicated array */
        t = base->tmpl;
        trank = ts->rank;
    }
    r->tmpl = t;
    /* the target's template dimensions: those of the target array carry
     * its fixed cells and replication; each target subscript refines one */
    if (base)
        for (int te = 0; te < t->rank; te++)
            r->fix[te] = base->fix[te];
    int colon_src[MAX_RANK], ncs = 0;
    for (int d = 0; d < src->n; d++)
        if (((Node *)src->v[d])->kind == AST_TRIPLET)
            colon_src[ncs++] = d;
    int nct = 0;
    for (int e = 0; e < trank; e++) {
        Node *sub = tgt->n ? tgt->v[e] : NULL;
        int te = base ? base->adim[e] : e;
        Node *ba = base && te >= 0 ? base->alpha[e] : mk_int(L, 1);
        Node *bb = base && te >= 0 ? base->beta[e] : mk_int(L, 0);
        if (base && te < 0)
            continue;                 /* a local dimension of the target */
        if (!sub || sub->kind == AST_TRIPLET) {
            /* ':' or no list: positional, the k-th ':' of each side */
            int d = sub ? (nct < ncs ? colon_src[nct] : -1) : e;
            nct++;
            if (d < 0 || d >= r->rank)
                continue;
            Node *tlo = sub && sub->u.triplet.lo ? sub->u.triplet.lo
                        : base ? base->lo[e] : t->lo[te];
            /* cell of target position: ba*(tlo + i - lo) + bb */
            Node *off = mk_bin(L, OP_SUB, copy_plain(L, tlo), r->lo[d]);
            set_axis(L, r, d, te, ba, mk_bin(L, OP_ADD, mk_bin(L, OP_MUL, ba, off), bb));
            continue;
        }
        if (sub->kind == AST_STAR) {
            r->fix[te] = NULL;        /* replicated along te */
            continue;
        }
        Symbol *dm = dummy_in(sub);
        if (!dm) {
            r->fix[te] = mk_bin(L, OP_ADD, mk_bin(L, OP_MUL, ba, copy_plain(L, sub)), bb);
            continue;
        }
        int d = -1;
        for (int k = 0; k < src->n; k++) {
            Node *s = src->v[k];
            if (s->kind == AST_NAME && s->u.name.sym == dm)
                d = k;
        }
        if (d < 0)
            continue;
        Node *e0 = subst_copy(L, sub, dm, mk_int(L, 0));
        Node *e1 = subst_copy(L, sub, dm, mk_int(L, 1));
        Node *a = mk_bin(L, OP_SUB, e1, e0);
        set_axis(L, r, d, te, mk_bin(L, OP_MUL, ba, a),
                 mk_bin(L, OP_ADD, mk_bin(L, OP_MUL, ba, copy_plain(L, e0)), bb));
    }
}

/* A mapped ALLOCATABLE array's bounds: integer variables of hpfc's, set
 * by its ALLOCATE (every process, and the predictor, runs it), read
 * wherever the lowering needs a bound. */
static void alloc_bounds(Lower *L, SpArr *r)
{
    Symbol *y = r->sym;
    r->at_alloc = 1;
    for (int d = 0; d < y->rank; d++)
        for (int k = 0; k < 2; k++) {
            const char *nm = arena_printf(L->a, "%s%s_%s%d", L->prog->prefix, y->name,
                                          k ? "hi" : "lo", d + 1);
            Symbol *v = hidden_var(L, L->u, nm, y->decl);
            /* a module's array: its bounds live as long as it does (set by
               an ALLOCATE in one unit, read in others) */
            v->module = y->module;
            v->save |= y->module != NULL;
            Node *n = mk_name(L, v, y->decl ? y->decl->loc : L->loc);
            if (k)
                r->hi[d] = n;
            else
                r->lo[d] = n;
        }
}

/* Does unit hold a SAVE statement without names (everything saved)? */
static int saves_all(const Node *unit)
{
    for (int i = 0; i < unit->u.unit.body.n; i++) {
        const Node *st = unit->u.unit.body.v[i];
        if (st->kind == AST_SAVE_STMT && !st->u.list.items.n)
            return 1;
    }
    return 0;
}

/* The mapping of an array, made once; NULL when it is replicated. */
static SpArr *map_array(Lower *L, Symbol *y)
{
    for (int i = 0; i < L->u->arrs.n; i++) {
        SpArr *r = L->u->arrs.v[i];
        if (r->sym == y)
            return r->tmpl ? r : NULL;
    }
    if (!y->align && !y->distribute)
        return NULL;
    if (y->dummy && !L->dummies)
        return NULL;              /* passing.c maps it, once its actuals are known */
    SpArr *r = new_arr(L, y);
    vec_push(L->a, &L->u->arrs, r);
    if (y->allocatable && !y->dummy)
        alloc_bounds(L, r);
    if (y->distribute) {
        r->tmpl = tmpl_of(L, y);
        for (int d = 0; d < y->rank; d++)
            set_axis(L, r, d, d, mk_int(L, 1), mk_int(L, 0));
        if (r->at_alloc) {
            /* the array is its own template: laid out by its ALLOCATE */
            r->tmpl->at_alloc = 1;
            r->tmpl->array = y;
            for (int d = 0; d < y->rank; d++) {
                r->tmpl->lo[d] = r->lo[d];
                r->tmpl->hi[d] = r->hi[d];
            }
        }
    } else {
        align_array(L, r, y->align);
    }
    if (!r->tmpl)
        return NULL;
    if (!y->module && !y->dummy && !L->u->main && L->u->unit->u.unit.which != UNIT_MODULE &&
        (y->save || saves_all(L->u->unit))) {
        /* (its local part, descriptor and bounds are laid out at every
           entry and freed at every return) */
        lower_error(L, y->decl ? y->decl->loc : L->u->unit->loc,
                    "the SPMD lowering cannot keep the mapped array '%s' from one call of "
                    "'%s' to the next: SAVE of a mapped array in a procedure is not supported "
                    "(make it a module variable, or pass it)", y->name, L->u->name);
        r->tmpl = NULL;
        return NULL;
    }
    if (y->dummy && (y->allocatable || (y->rank && y->dims[0]->u.dim.form != DIM_EXPLICIT))) {
        lower_error(L, y->decl ? y->decl->loc : L->u->unit->loc,
                    "the SPMD lowering cannot give the dummy argument '%s' a mapping of its "
                    "own: it needs explicit bounds (declare it x(n), or INHERIT the actual's "
                    "mapping)", y->name);
        r->tmpl = NULL;
        return NULL;
    }
    if (r->tmpl->at_alloc && !r->at_alloc) {
        lower_error(L, y->decl ? y->decl->loc : L->u->unit->loc,
                    "the SPMD lowering cannot align '%s' with the ALLOCATABLE array '%s': an "
                    "array aligned with an ALLOCATABLE one must be ALLOCATABLE too (it is laid "
                    "out when it is allocated)", y->name, r->tmpl->name);
        r->tmpl = NULL;
        return NULL;
    }
    if (y->type.base == TY_CHARACTER) {
        /* the run time moves numeric and logical elements only; a mapping
           directive does not change the program's meaning (HPF 1.0), so the
           array may stay replicated */
        diag_warning(L->d, y->decl ? y->decl->loc : L->u->unit->loc,
                     "CHARACTER array '%s' is kept replicated, and so is what is aligned "
                     "with it: hpfc maps numeric and logical arrays only (the directive is "
                     "advice; the program's results are the same)", y->name);
        r->tmpl = NULL;
        return NULL;
    }
    for (int d = 0; d < y->rank && !r->at_alloc; d++)
        if (!y->dims[d]->u.dim.hi || y->dims[d]->u.dim.form != DIM_EXPLICIT) {
            lower_error(L, y->decl ? y->decl->loc : L->u->unit->loc,
                        "the SPMD lowering cannot map '%s': its bounds are not explicit",
                        y->name);
            r->tmpl = NULL;
            return NULL;
        }
    return r;
}

void map_unit(Lower *L)
{
    Scope *sc = L->u->scope;
    for (int i = 0; i < sc->symbols.n; i++) {
        Symbol *y = sc->symbols.v[i];
        if (y->kind == SYM_PROCESSORS)
            new_procs(L, y);
    }
    for (int i = 0; i < sc->symbols.n; i++) {
        Symbol *y = sc->symbols.v[i];
        if (y->kind == SYM_TEMPLATE)
            tmpl_of(L, y);
    }
    for (int i = 0; i < sc->symbols.n; i++) {
        Symbol *y = sc->symbols.v[i];
        if (y->kind == SYM_VARIABLE && y->rank)
            map_array(L, y);
    }
    /* drop the replicated ones: arrs holds the mapped arrays only */
    int n = 0;
    for (int i = 0; i < L->u->arrs.n; i++) {
        SpArr *r = L->u->arrs.v[i];
        if (r->tmpl) {
            r->id = n + 1;
            L->u->arrs.v[n++] = r;
        }
    }
    L->u->arrs.n = n;
}

/* A dummy's own mapping (DISTRIBUTE, ALIGN), once its actuals are known. */
SpArr *map_dummy(Lower *L, Symbol *y)
{
    L->dummies = 1;
    SpArr *r = map_array(L, y);
    L->dummies = 0;
    return r;
}

SpArr *arr_of(Lower *L, Symbol *y)
{
    if (!y)
        return NULL;
    SpArr *v = dyn_arr(L, y);
    if (v)
        return v;
    for (int i = 0; i < L->u->hostvers.n; i++)
        if (((SpArr *)L->u->hostvers.v[i])->sym == y)
            return L->u->hostvers.v[i];
    for (SpUnit *u = L->u; u; u = u->host)
        for (int i = 0; i < u->arrs.n; i++) {
            SpArr *r = u->arrs.v[i];
            if (r->sym == y)
                return r;
        }
    /* an array of a module, by USE */
    for (int k = 0; y->module && k < L->prog->units.n; k++) {
        SpUnit *u = L->prog->units.v[k];
        if (u->unit == y->module)
            for (int i = 0; i < u->arrs.n; i++) {
                SpArr *r = u->arrs.v[i];
                if (r->sym == y)
                    return r;
            }
    }
    return NULL;
}

/* Dimension da of a and db of b lay their cells out alike on their
 * arrangements: same bounds, format, block size and grid dimension. */
static int dim_layout_same(const SpTmpl *a, int da, const SpTmpl *b, int db)
{
    if (a->gdim[da] != b->gdim[db] || a->fmt[da] != b->fmt[db])
        return 0;
    if (!same_expr(a->lo[da], b->lo[db]) || !same_expr(a->hi[da], b->hi[db]))
        return 0;
    if ((a->k[da] == NULL) != (b->k[db] == NULL))
        return 0;
    return !a->k[da] || same_expr(a->k[da], b->k[db]);
}

static int procs_same(const SpProcs *a, const SpProcs *b)
{
    if (a == b)
        return 1;
    if (!a || !b || a->rank != b->rank)
        return 0;
    for (int d = 0; d < a->rank; d++)
        if ((a->ext[d] == NULL) != (b->ext[d] == NULL)
            || (a->ext[d] && !same_expr(a->ext[d], b->ext[d])))
            return 0;
    return 1;
}

/* Two templates lay their cells out alike (arrangements of the same
 * declared shape are the same processes in the same order). */
int tmpl_same(const SpTmpl *a, const SpTmpl *b)
{
    if (a == b)
        return 1;
    if (a->rank != b->rank || !procs_same(a->onto, b->onto))
        return 0;
    for (int d = 0; d < a->rank; d++)
        if (!dim_layout_same(a, d, b, d))
            return 0;
    return 1;
}

/* Two template dimensions distribute their cells alike: laid out alike on
 * the same arrangement. */
int tdim_equiv(const SpTmpl *a, int da, const SpTmpl *b, int db)
{
    if (a == b)
        return da == db;
    return a->onto == b->onto && dim_layout_same(a, da, b, db);
}
