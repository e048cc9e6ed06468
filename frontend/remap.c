/* remap.c - alternative data mappings of a program, for the comparison of
 * directives (the automatic directive selection of hpfpredict --compare):
 * the program's DISTRIBUTE directives are the degrees of freedom; arrays
 * ALIGNed with what they distribute follow. A mapping (Remap) is plain
 * data, made from a checked tree and applied to a fresh parse of the same
 * file, so that each alternative is checked and lowered like a program the
 * user wrote. doc/frontend.md ("Alternative mappings") states the rules. */
#include <config.h>

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../runtime/hpfmap.h"
#include "remap.h"

/* ---- the program's mapping: what can be varied ---- */

/* One DISTRIBUTE of the program, with the arrangement its ONTO names. */
typedef struct {
    RemapDist own;               /* procs unused here: see onto */
    const Node *unit;
    int has_onto;
    char onto[REMAP_NAME_MAX];
    int onto_rank;
    int onto_ext[MAX_RANK];      /* 0: NUMBER_OF_PROCESSORS() */
    int onto_const;              /* every extent a constant */
    long long ext[MAX_RANK];     /* the distributee's extents; 0: not known */
} Entry;

typedef struct {
    int n;
    Entry e[REMAP_MAX_DIST];
    PtrVec units;                /* the program units, numbered as RemapDist.unit */
    const char *why;             /* not NULL: the mapping cannot be varied, and why */
    int nal;                     /* the ALIGNs that can be varied */
    RemapAlign al[REMAP_MAX_ALIGN][REMAP_AL_KINDS];   /* [k][0]: as written; then
                                                         its variants */
    int nvar[REMAP_MAX_ALIGN];   /* alignments of ALIGN k, as written included */
} Space;

/* Units in the file's order, each followed by its internal subprograms:
 * the same numbering on the checked tree and on a fresh parse. */
static void list_units(PtrVec *units, const PtrVec *items)
{
    for (int i = 0; i < items->n; i++) {
        Node *u = items->v[i];
        vec_push(NULL, units, u);
        list_units(units, &u->u.unit.contains);
    }
}

static const char *unit_id(const Node *u)
{
    return u->u.unit.id ? u->u.unit.id : "";
}

static int copy_name(char *dst, const char *src)
{
    size_t n = strlen(src);
    if (n >= REMAP_NAME_MAX)
        return -1;
    memcpy(dst, src, n + 1);
    return 0;
}

static int is_nop(const Node *hi)
{
    return hi && hi->kind == AST_REF && !strcmp(hi->u.ref.id, "number_of_processors");
}

/* The entry of DISTRIBUTE n in unit u; a reason when it cannot be described. */
static const char *read_entry(Entry *e, const Node *u, int unit_no, const Node *n)
{
    memset(e, 0, sizeof *e);
    e->unit = u;
    e->own.unit = unit_no;
    if (copy_name(e->own.unit_name, unit_id(u)))
        return "a unit name is longer than 31 characters";
    if (n->u.dist.names.n > REMAP_MAX_NAMES)
        return "a DISTRIBUTE names more than 8 arrays";
    e->own.nnames = n->u.dist.names.n;
    for (int i = 0; i < e->own.nnames; i++) {
        const Node *nm = n->u.dist.names.v[i];
        if (copy_name(e->own.names[i], nm->u.name.id))
            return "a distributed name is longer than 31 characters";
    }
    e->own.attributed = n->u.dist.attributed;
    e->own.rank = n->u.dist.formats.n;
    const Symbol *t = e->own.nnames ? scope_lookup(u->u.unit.scope, e->own.names[0]) : NULL;
    for (int d = 0; t && d < e->own.rank && d < t->rank; d++)
        if (t->bounds_known[d] && t->hi[d] >= t->lo[d])
            e->ext[d] = t->hi[d] - t->lo[d] + 1;
    e->own.procs = -1;
    for (int d = 0; d < e->own.rank; d++) {
        const Node *f = n->u.dist.formats.v[d];
        e->own.fmt[d].fmt = f->u.distfmt.fmt;
        if (f->u.distfmt.arg && !cint(f->u.distfmt.arg, &e->own.fmt[d].k))
            return "a BLOCK(k) or CYCLIC(k) argument is not an integer constant";
        if (f->u.distfmt.fmt == DIST_CYCLIC && e->own.fmt[d].k == 1)
            e->own.fmt[d].k = 0;         /* CYCLIC(1) is CYCLIC */
    }
    if (!n->u.dist.onto)
        return NULL;
    e->has_onto = 1;
    if (copy_name(e->onto, n->u.dist.onto))
        return "a PROCESSORS name is longer than 31 characters";
    const Symbol *p = scope_lookup_local(u->u.unit.scope, n->u.dist.onto);
    if (!p || p->kind != SYM_PROCESSORS)
        return "an ONTO names no PROCESSORS arrangement";
    e->onto_rank = p->rank;
    e->onto_const = 1;
    for (int d = 0; d < p->rank; d++) {
        if (is_nop(p->dims[d]->u.dim.hi)) {
            e->onto_ext[d] = 0;
            e->onto_const = 0;
        } else if (p->bounds_known[d] && p->hi[d] - p->lo[d] + 1 >= 1
                   && p->hi[d] - p->lo[d] + 1 <= INT_MAX) {
            e->onto_ext[d] = (int)(p->hi[d] - p->lo[d] + 1);
        } else {
            return "a PROCESSORS extent is not a constant";
        }
    }
    return NULL;
}

static void read_aligns(Space *s);

/* Reads the DISTRIBUTE directives of every unit of a checked file, then
 * the ALIGNs that can be transposed. */
static void read_space(Space *s, const Node *file)
{
    memset(s, 0, sizeof *s);
    list_units(&s->units, &file->u.list.items);
    for (int i = 0; i < s->units.n && !s->why; i++) {
        const Node *u = s->units.v[i];
        const PtrVec *body = &u->u.unit.body;
        for (int j = 0; j < body->n && !s->why; j++) {
            const Node *n = body->v[j];
            if (n->kind != AST_DISTRIBUTE || n->u.dist.star == DIST_TRANSCRIPTIVE)
                continue;             /* DISTRIBUTE x *: the actual's, nothing to vary */
            if (s->n == REMAP_MAX_DIST) {
                s->why = "the program has more than 8 DISTRIBUTE directives";
                break;
            }
            s->why = read_entry(&s->e[s->n++], u, i, n);
        }
    }
    read_aligns(s);
}

/* A subscript that is a dummy's name alone; its name, or NULL. */
static const char *plain_name(const Node *x)
{
    if (x && x->kind == AST_REF && !x->u.ref.args.n)
        return x->u.ref.id;
    if (x && x->kind == AST_NAME)
        return x->u.name.id;
    return NULL;
}

/* The bounds of a symbol's dimensions, when every one is known. */
static int bounds_of(const Symbol *y, long long *lo, long long *hi)
{
    if (!y || y->rank < 1 || y->rank > MAX_RANK)
        return 0;
    for (int d = 0; d < y->rank; d++) {
        if (!y->bounds_known[d] || y->hi[d] < y->lo[d])
            return 0;
        lo[d] = y->lo[d];
        hi[d] = y->hi[d];
    }
    return 1;
}

/* The index of dummy name among the n written alignee subscripts, or -1. */
static int dummy_index(const RemapAlign *a, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (name && !strcmp(a->dummy[i], name))
            return i;
    return -1;
}

/* A target subscript as a RemapSub: a dummy, a dummy plus or minus a
 * constant (either order for a plus), a constant, '*'. 0: another form. */
static int read_sub(const RemapAlign *a, int nsrc, const Node *x, int from, RemapSub *t)
{
    *t = (RemapSub){.dummy = -1, .from = (signed char)from};
    if (x->kind == AST_STAR) {
        t->star = 1;
        return 1;
    }
    if (x->kind == AST_INT_CONST) {
        t->off = x->u.konst.ival;
        return 1;
    }
    int k = dummy_index(a, nsrc, plain_name(x));
    if (k >= 0) {
        t->dummy = (signed char)k;
        return 1;
    }
    if (x->kind != AST_BINARY || (x->u.binary.op != OP_ADD && x->u.binary.op != OP_SUB))
        return 0;
    const Node *l = x->u.binary.lhs, *r = x->u.binary.rhs;
    if (x->u.binary.op == OP_ADD && l->kind == AST_INT_CONST) {
        const Node *y = l;
        l = r;
        r = y;
    }
    k = dummy_index(a, nsrc, plain_name(l));
    if (k < 0 || r->kind != AST_INT_CONST)
        return 0;
    t->dummy = (signed char)k;
    t->off = x->u.binary.op == OP_ADD ? r->u.konst.ival : -r->u.konst.ival;
    return 1;
}

static int alignment_equal(const RemapAlignment *x, const RemapAlignment *y)
{
    if (x->nsrc != y->nsrc || x->ntgt != y->ntgt
        || memcmp(x->src, y->src, (size_t)x->nsrc * sizeof *x->src))
        return 0;
    for (int t = 0; t < x->ntgt; t++)
        if (x->tgt[t].dummy != y->tgt[t].dummy || x->tgt[t].star != y->tgt[t].star
            || x->tgt[t].off != y->tgt[t].off)
            return 0;
    return 1;
}

/* Whether alignment m of a places every element of an alignee with bounds
 * [alo, ahi] inside the target's bounds [tlo, thi]. */
static int alignment_fits(const RemapAlign *a, const RemapAlignment *m, const long long *alo,
                          const long long *ahi, const long long *tlo, const long long *thi)
{
    for (int t = 0; t < m->ntgt; t++) {
        const RemapSub *x = &m->tgt[t];
        if (x->star)
            continue;
        if (x->dummy < 0) {
            if (x->off < tlo[t] || x->off > thi[t])
                return 0;
            continue;
        }
        int p = 0;                /* the alignee dimension that carries the dummy */
        while (p < m->nsrc && m->src[p] != x->dummy)
            p++;
        if (p == m->nsrc)
            return 0;
        if (alo[p] + x->off < tlo[t] || ahi[p] + x->off > thi[t])
            return 0;
    }
    return 1;
}

/* The variants of ALIGN a (its written alignment set) that fit every
 * alignee: at most one of each kind, none the same as another. */
static int align_variants(const Node *u, const RemapAlign *a, RemapAlign *out)
{
    long long tlo[MAX_RANK], thi[MAX_RANK];
    const Symbol *ty = scope_lookup(u->u.unit.scope, a->target);
    if (!bounds_of(ty, tlo, thi) || ty->rank != a->written.ntgt)
        return 0;
    int n = 0;
    out[n++] = *a;
    for (int kind = REMAP_AL_TRANSPOSED; kind < REMAP_AL_KINDS; kind++) {
        RemapAlignment m = a->written;
        int changed = 0, nd = 0, pos[2] = {0, 0};
        switch (kind) {
        case REMAP_AL_TRANSPOSED:
            for (int t = 0; t < m.ntgt; t++)
                if (m.tgt[t].dummy >= 0 && nd++ < 2)
                    pos[nd - 1] = t;
            if (nd == 2) {
                RemapSub x = m.tgt[pos[0]];
                m.tgt[pos[0]] = m.tgt[pos[1]];
                m.tgt[pos[1]] = x;
                changed = 1;
            }
            break;
        case REMAP_AL_COLLAPSED:
            if (m.nsrc == 2 && (!strcmp(a->dummy[0], "*")) != (!strcmp(a->dummy[1], "*"))) {
                m.src[0] = 1;
                m.src[1] = 0;
                changed = 1;
            }
            break;
        case REMAP_AL_IDENTITY:
            for (int t = 0; t < m.ntgt; t++)
                if (m.tgt[t].dummy >= 0 && m.tgt[t].off) {
                    m.tgt[t].off = 0;
                    m.tgt[t].from = -1;
                    changed = 1;
                }
            break;
        case REMAP_AL_ONE:
            for (int t = 0; t < m.ntgt; t++)
                if (m.tgt[t].star) {
                    m.tgt[t] = (RemapSub){.dummy = -1, .from = -1, .off = tlo[t]};
                    changed = 1;
                }
            break;
        default:                  /* REMAP_AL_REPLICATED */
            for (int t = 0; t < m.ntgt; t++)
                if (m.tgt[t].dummy < 0 && !m.tgt[t].star) {
                    m.tgt[t] = (RemapSub){.dummy = -1, .from = -1, .star = 1};
                    changed = 1;
                }
            break;
        }
        if (!changed)
            continue;
        int ok = 1;
        for (int k = 0; k < a->nnames && ok; k++) {
            long long alo[MAX_RANK], ahi[MAX_RANK];
            const Symbol *y = scope_lookup(u->u.unit.scope, a->names[k]);
            ok = bounds_of(y, alo, ahi) && y->rank == m.nsrc
                 && alignment_fits(a, &m, alo, ahi, tlo, thi);
        }
        for (int v = 0; v < n && ok; v++)
            ok = !alignment_equal(&m, &out[v].now);
        if (!ok)
            continue;
        out[n] = *a;
        out[n].now = m;
        out[n].kind = kind;
        n++;
    }
    return n;
}

/* ALIGN n of unit u (number unit_no) as a RemapAlign, when it can be
 * varied (remap.h); its variants in out (the written one first). Returns
 * their number, 0 when it cannot be. */
static int read_align(const Space *s, const Node *u, int unit_no, const Node *n, RemapAlign *out)
{
    const PtrVec *src = &n->u.align.src, *tgt = &n->u.align.tgt;
    if (n->u.align.names.n < 1 || n->u.align.names.n > REMAP_MAX_NAMES || src->n < 1
        || src->n > MAX_RANK || tgt->n < 1 || tgt->n > MAX_RANK || !n->u.align.target)
        return 0;
    int distributed = 0;
    for (int i = 0; i < s->n && !distributed; i++)
        for (int k = 0; k < s->e[i].own.nnames; k++)
            distributed |= s->e[i].own.unit == unit_no
                           && !strcmp(s->e[i].own.names[k], n->u.align.target);
    if (!distributed)
        return 0;
    RemapAlign a;
    memset(&a, 0, sizeof a);
    a.unit = unit_no;
    if (copy_name(a.unit_name, unit_id(u)) || copy_name(a.target, n->u.align.target))
        return 0;
    a.attributed = n->u.align.attributed;
    a.nnames = n->u.align.names.n;
    for (int k = 0; k < a.nnames; k++)
        if (copy_name(a.names[k], ((const Node *)n->u.align.names.v[k])->u.name.id))
            return 0;
    a.written.nsrc = src->n;
    for (int p = 0; p < src->n; p++) {
        const Node *x = src->v[p];
        const char *nm = x->kind == AST_STAR ? "*" : plain_name(x);
        if (!nm || copy_name(a.dummy[p], nm) || (*nm != '*' && dummy_index(&a, p, nm) >= 0))
            return 0;             /* a subscript of another form, or a dummy twice */
        a.written.src[p] = (signed char)p;
    }
    a.written.ntgt = tgt->n;
    unsigned used = 0;
    for (int t = 0; t < tgt->n; t++) {
        RemapSub *x = &a.written.tgt[t];
        if (!read_sub(&a, src->n, tgt->v[t], t, x))
            return 0;
        if (x->dummy >= 0) {
            if (!strcmp(a.dummy[x->dummy], "*") || (used & 1u << x->dummy))
                return 0;
            used |= 1u << x->dummy;
        }
    }
    a.now = a.written;
    int nv = align_variants(u, &a, out);
    return nv > 1 ? nv : 0;
}

static void read_aligns(Space *s)
{
    for (int i = 0; i < s->units.n && !s->why; i++) {
        const Node *u = s->units.v[i];
        const PtrVec *body = &u->u.unit.body;
        for (int j = 0; j < body->n && s->nal < REMAP_MAX_ALIGN; j++) {
            const Node *n = body->v[j];
            int nv = n->kind == AST_ALIGN ? read_align(s, u, i, n, s->al[s->nal]) : 0;
            if (nv)
                s->nvar[s->nal++] = nv;
        }
    }
}

static void free_space(Space *s)
{
    free(s->units.v);
}

/* ---- one choice per DISTRIBUTE, and the Remap it makes ---- */

typedef struct {
    RemapFmt fmt[MAX_RANK];
    int ngrid;                   /* distributed dimensions */
    int shape[MAX_RANK];         /* grid extents; 0: NUMBER_OF_PROCESSORS() */
    int dflt;                    /* no ONTO: the default 1-D arrangement */
} Choice;

static int ndist_of(const RemapFmt *f, int rank)
{
    int g = 0;
    for (int d = 0; d < rank; d++)
        g += f[d].fmt != DIST_STAR;
    return g;
}

static Choice own_choice(const Entry *e)
{
    Choice c;
    memset(&c, 0, sizeof c);
    memcpy(c.fmt, e->own.fmt, sizeof c.fmt);
    c.ngrid = ndist_of(e->own.fmt, e->own.rank);
    c.dflt = !e->has_onto;
    if (e->has_onto) {
        c.ngrid = e->onto_rank;          /* the same, in a checked program */
        memcpy(c.shape, e->onto_ext, sizeof c.shape);
    }
    return c;
}

/* The grid of `rank` extents (0: NUMBER_OF_PROCESSORS(); NULL: none
 * declared) as a run on np processes makes it: kept when the extents
 * multiply to np, else re-formed (runtime/hpfmap.c). Returns 1 when
 * re-formed. */
static int run_grid(int np, int rank, const int *declared, int *shape)
{
    long decl[MAX_RANK];
    for (int d = 0; d < rank && declared; d++)
        decl[d] = declared[d] > 0 ? declared[d] : (rank == 1 ? np : 0);
    return hpfmap_grid_shape(np > 0 ? np : 1, rank, declared ? decl : NULL, shape);
}

/* The grid a choice runs on, as the run re-forms it for np processes. */
static int effective_grid(const Choice *c, int np, int *shape)
{
    if (!c->ngrid)
        return 0;
    if (c->dflt && c->ngrid == 1) {
        shape[0] = np;
        return 1;
    }
    run_grid(np, c->ngrid, c->dflt ? NULL : c->shape, shape);
    return c->ngrid;
}

static int fmt_equal(const RemapFmt *a, const RemapFmt *b, int rank)
{
    for (int d = 0; d < rank; d++)
        if (a[d].fmt != b[d].fmt || a[d].k != b[d].k)
            return 0;
    return 1;
}

/* A format as the layout it makes of n elements over g processors, where n
 * is known: CYCLIC(1) is CYCLIC, CYCLIC(k) with k >= ceil(n/g) deals whole
 * blocks of k as BLOCK(k) does, and BLOCK(ceil(n/g)) is BLOCK. */
static RemapFmt layout_of(RemapFmt f, long long n, int g)
{
    if (f.fmt == DIST_CYCLIC && f.k == 1)
        f.k = 0;
    if (n <= 0 || g <= 0 || f.fmt == DIST_STAR || (!f.k && f.fmt == DIST_BLOCK))
        return f;
    long long b = (n + g - 1) / g;
    /* CYCLIC is CYCLIC(1): at one element a processor (b = 1), BLOCK */
    if (f.fmt == DIST_CYCLIC && (f.k ? f.k : 1) >= b) {
        f.fmt = DIST_BLOCK;
        f.k = f.k ? f.k : 1;
    }
    if (f.fmt == DIST_BLOCK && f.k == b)
        f.k = 0;
    return f;
}

/* The same layout of entry e's distributee on np processes. */
static int choice_equal(const Choice *a, const Choice *b, const Entry *e, int np)
{
    int sa[MAX_RANK], sb[MAX_RANK];
    int ga = effective_grid(a, np, sa), gb = effective_grid(b, np, sb);
    if (ga != gb || memcmp(sa, sb, (size_t)ga * sizeof *sa))
        return 0;
    for (int d = 0, gd = 0; d < e->own.rank; d++) {
        int g = a->fmt[d].fmt != DIST_STAR && gd < ga ? sa[gd] : 0;
        RemapFmt x = layout_of(a->fmt[d], e->ext[d], g), y = layout_of(b->fmt[d], e->ext[d], g);
        if (x.fmt != y.fmt || x.k != y.k)
            return 0;
        gd += a->fmt[d].fmt != DIST_STAR;
    }
    return 1;
}

/* A name the rewrite may declare in unit u: unknown there, in its host and
 * in its internal subprograms (which would otherwise see it by host
 * association in place of an implicit variable of theirs). */
static int name_free(const Node *u, const char *name)
{
    if (scope_lookup(u->u.unit.scope, name))
        return 0;
    for (int i = 0; i < u->u.unit.contains.n; i++) {
        const Node *c = u->u.unit.contains.v[i];
        if (scope_lookup_local(c->u.unit.scope, name))
            return 0;
    }
    return 1;
}

static int procs_named(const Remap *r, int unit, const char *name)
{
    for (int j = 0; j < r->nprocs; j++)
        if (r->procs[j].unit == unit && !strcmp(r->procs[j].name, name))
            return j;
    return -1;
}

/* Makes r from one choice per entry. The arrangement of an entry is the
 * program's ONTO arrangement, reshaped to the chosen grid, unless an
 * earlier entry reshaped it differently: then a new one, named after it
 * (p_2, p_3 ...), or p when the program gave no ONTO. Entries that choose
 * the same grid keep sharing one arrangement, so that the lowering still
 * sees their templates as aligned with each other. */
static void build(const Space *s, const Choice *ch, int np, Remap *r)
{
    char origin[REMAP_MAX_DIST][REMAP_NAME_MAX];
    memset(r, 0, sizeof *r);
    r->np = np > 0 ? np : 0;
    r->ndist = s->n;
    r->nalign = s->nal;
    for (int k = 0; k < s->nal; k++)
        r->align[k] = s->al[k][0];
    for (int i = 0; i < s->n; i++) {
        const Entry *e = &s->e[i];
        const Choice *c = &ch[i];
        RemapDist *rd = &r->dist[i];
        *rd = e->own;
        memcpy(rd->fmt, c->fmt, sizeof rd->fmt);
        rd->procs = -1;
        Choice own = own_choice(e);
        rd->changed = !fmt_equal(c->fmt, own.fmt, rd->rank) || c->dflt != own.dflt
                      || c->ngrid != own.ngrid
                      || memcmp(c->shape, own.shape, (size_t)c->ngrid * sizeof *c->shape);
        if (c->dflt || !c->ngrid)
            continue;
        const char *from = e->has_onto ? e->onto : "";
        int j;
        for (j = 0; j < r->nprocs; j++) {
            const RemapProcs *p = &r->procs[j];
            if (p->unit == rd->unit && !strcmp(origin[j], from) && p->rank == c->ngrid
                && !memcmp(p->ext, c->shape, (size_t)c->ngrid * sizeof *c->shape))
                break;
        }
        if (j == r->nprocs) {
            RemapProcs *p = &r->procs[r->nprocs];
            memset(p, 0, sizeof *p);
            p->unit = rd->unit;
            p->rank = c->ngrid;
            memcpy(p->ext, c->shape, sizeof p->ext);
            if (*from && procs_named(r, rd->unit, from) < 0) {
                strcpy(p->name, from);
                p->declared = 1;
            } else {
                const char *base = *from ? from : "p";
                for (int k = *from ? 2 : 1;; k++) {
                    char suffix[16] = "";
                    if (k > 1)
                        snprintf(suffix, sizeof suffix, "_%d", k);
                    size_t keep = strlen(base);
                    if (keep + strlen(suffix) >= REMAP_NAME_MAX)
                        keep = REMAP_NAME_MAX - 1 - strlen(suffix);
                    snprintf(p->name, sizeof p->name, "%.*s%s", (int)keep, base, suffix);
                    if (name_free(e->unit, p->name) && procs_named(r, rd->unit, p->name) < 0)
                        break;
                }
            }
            strcpy(origin[j], from);
            r->nprocs++;
        }
        rd->procs = j;
    }
}

/* ---- enumeration ---- */

enum { ORDER_BLOCK, ORDER_STAR, ORDER_CYCLIC };   /* the order of formats in a list */

/* Ordered factorizations of n into exactly g factors of at least 2
 * (saturating at LONG_MAX). */
static long count_factorizations(int n, int g)
{
    if (g == 0)
        return n == 1;
    long total = 0;
    for (int f = 2; f <= n; f++)
        if (n % f == 0) {
            long c = count_factorizations(n / f, g - 1);
            total = total > LONG_MAX - c ? LONG_MAX : total + c;
        }
    return total;
}

typedef struct {
    Choice *v;
    int n, cap;
    long total;                  /* alternatives, counting those past cap */
} ChoiceList;

/* Whether one of the first n choices of l is the same layout as c. */
static int listed(const ChoiceList *l, int n, const Choice *c, const Entry *e, int np)
{
    for (int i = 0; i < n; i++)
        if (choice_equal(c, &l->v[i], e, np))
            return 1;
    return 0;
}

static void push_choice(ChoiceList *l, const Choice *c)
{
    if (l->n < l->cap)
        l->v[l->n++] = *c;
}

/* Every grid of g extents >= 2 with product n, in lexicographic order. */
static void each_grid(ChoiceList *l, Choice *c, int d, int n, const Choice *own, const Entry *e,
                      int np)
{
    if (l->n >= l->cap)
        return;
    if (d == c->ngrid) {
        if (n == 1 && !choice_equal(c, own, e, np))
            push_choice(l, c);
        return;
    }
    for (int f = 2; f <= n; f++)
        if (n % f == 0) {
            c->shape[d] = f;
            each_grid(l, c, d + 1, n / f, own, e, np);
        }
}

typedef struct {
    int code[MAX_RANK];          /* ORDER_* per dimension */
    int key;
} Combo;

static int cmp_combo(const void *a, const void *b)
{
    const Combo *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

/* The choices of one entry: its own first, then every format of {BLOCK,
 * '*', CYCLIC} per dimension with at least one distributed, on every grid
 * of np with extents of at least 2 (an extent of 1 is the same layout as
 * '*' in that dimension, which is a choice of its own). Formats with fewer
 * CYCLIC dimensions come first, then in the order BLOCK, '*', CYCLIC from
 * the first dimension on: (BLOCK,BLOCK), (BLOCK,*), (*,BLOCK), ... */
static void entry_choices(const Entry *e, int np, ChoiceList *l)
{
    int rank = e->own.rank;
    Choice own = own_choice(e);
    push_choice(l, &own);
    l->total = 0;
    int ncombo = 1;
    for (int d = 0; d < rank; d++)
        ncombo *= 3;
    Combo *combos = xcalloc((size_t)ncombo, sizeof *combos);
    for (int i = 0; i < ncombo; i++) {
        int x = i, ncyc = 0;
        for (int d = rank - 1; d >= 0; d--) {
            combos[i].code[d] = x % 3;
            ncyc += x % 3 == ORDER_CYCLIC;
            x /= 3;
        }
        combos[i].key = ncyc * ncombo + i;
    }
    qsort(combos, (size_t)ncombo, sizeof *combos, cmp_combo);
    int own_counted = 0;
    for (int i = 0; i < ncombo; i++) {
        Choice c;
        memset(&c, 0, sizeof c);
        for (int d = 0; d < rank; d++) {
            static const int fmt_of[] = {DIST_BLOCK, DIST_STAR, DIST_CYCLIC};
            c.fmt[d].fmt = fmt_of[combos[i].code[d]];
            c.ngrid += c.fmt[d].fmt != DIST_STAR;
        }
        if (!c.ngrid)
            continue;
        long count = count_factorizations(np, c.ngrid);
        l->total = l->total > LONG_MAX - count ? LONG_MAX : l->total + count;
        if (c.ngrid == 1) {
            /* a 1-D grid stays the program's NUMBER_OF_PROCESSORS() or
             * default arrangement where it had one: the same grid on np */
            c.dflt = !e->has_onto;
            c.shape[0] = e->has_onto && e->onto_rank == 1 && !e->onto_ext[0] ? 0 : np;
            if (choice_equal(&c, &own, e, np))
                own_counted = 1;
            else
                push_choice(l, &c);
        } else {
            each_grid(l, &c, 0, np, &own, e, np);
            /* the own grid is skipped by each_grid; did it fall in here? */
            if (fmt_equal(c.fmt, own.fmt, rank) && own.ngrid == c.ngrid) {
                int sh[MAX_RANK], g = effective_grid(&own, np, sh), prod = 1, ok = 1;
                for (int d = 0; d < g; d++) {
                    prod *= sh[d];
                    ok &= sh[d] >= 2;
                }
                if (ok && prod == np)
                    own_counted = 1;
            }
        }
    }
    if (own_counted)
        l->total--;
    free(combos);
}

typedef struct {
    const Space *s;
    ChoiceList *lists;
    int np;
    Remap *out;
    int n, cap;
    int idx[REMAP_MAX_DIST];
} Joint;

/* Tuples of choice indices with `changes` entries off their own choice
 * (index 0) and indices summing to `left`, over entries i.. . The caller
 * asks for one changed entry, then two, ..., and within that count for
 * growing sums, so what the cap keeps is every entry's alternatives alone,
 * then pairs of changes, and so on, nearest to the program first. */
static void each_tuple(Joint *J, int i, int changes, int left)
{
    if (J->n >= J->cap)
        return;
    const Space *s = J->s;
    if (i == s->n) {
        if (left || changes)
            return;
        Choice ch[REMAP_MAX_DIST];
        for (int k = 0; k < s->n; k++)
            ch[k] = J->lists[k].v[J->idx[k]];
        build(s, ch, J->np, &J->out[J->n++]);
        return;
    }
    int room = 0, slots = 0;             /* what entries after i can take */
    for (int k = i + 1; k < s->n; k++)
        if (J->lists[k].n > 1) {
            room += J->lists[k].n - 1;
            slots++;
        }
    for (int x = 0; x < J->lists[i].n && x <= left; x++) {
        int c = changes - (x > 0);
        if (c < 0 || c > slots || left - x > room || left - x < c)
            continue;
        J->idx[i] = x;
        each_tuple(J, i + 1, c, left - x);
    }
}

int remap_own(const Node *file, int np, Remap *r)
{
    Space s;
    read_space(&s, file);
    int rc = 0;
    if (s.why) {
        memset(r, 0, sizeof *r);
        r->np = np > 0 ? np : 0;
        rc = -1;
    } else {
        Choice ch[REMAP_MAX_DIST];
        for (int i = 0; i < s.n; i++)
            ch[i] = own_choice(&s.e[i]);
        build(&s, ch, np, r);
    }
    r->own = 1;
    free_space(&s);
    return rc;
}

int remap_candidates(const Node *file, int np, Remap **out, long *total)
{
    Space s;
    read_space(&s, file);
    Remap *v = xcalloc(REMAP_MAX_CANDIDATES, sizeof *v);
    remap_own(file, np, &v[0]);
    int n = 1;
    long all = 1;
    if (!s.why && s.n && np >= 2) {
        ChoiceList lists[REMAP_MAX_DIST];
        int maxsum = 0;
        for (int i = 0; i < s.n; i++) {
            lists[i] = (ChoiceList){xcalloc(REMAP_MAX_CANDIDATES, sizeof(Choice)), 0,
                                    REMAP_MAX_CANDIDATES, 0};
            entry_choices(&s.e[i], np, &lists[i]);
            long c = lists[i].total + 1;
            all = all > LONG_MAX / c ? LONG_MAX : all * c;
            maxsum += lists[i].n - 1;
        }
        Joint J = {&s, lists, np, v, 1, REMAP_MAX_CANDIDATES, {0}};
        for (int changes = 1; changes <= s.n && J.n < J.cap; changes++)
            for (int sum = changes; sum <= maxsum && J.n < J.cap; sum++)
                each_tuple(&J, 0, changes, sum);
        n = J.n;
        for (int i = 0; i < s.n; i++)
            free(lists[i].v);
    }
    free_space(&s);
    if (total)
        *total = all;
    *out = v;
    return n;
}

/* ---- the search space: the choices with BLOCK(k) and CYCLIC(k) ---- */

enum {
    SPACE_CAP = 4096,            /* choices of one DISTRIBUTE kept */
    SPACE_CYCLIC_K = 4,          /* CYCLIC(k) block sizes tried per dimension */
    SPACE_BLOCK_K = 2            /* BLOCK(k) block sizes tried per dimension */
};

struct RemapSpace {
    Space s;
    int np;
    ChoiceList lists[REMAP_MAX_DIST];
    int plain[REMAP_MAX_DIST];   /* the choices of remap_candidates' list come first */
};

/* The block sizes worth trying for a dimension of n elements over g
 * processors, whose BLOCK blocks hold b = ceil(n/g): for CYCLIC(k),
 * 2 <= k < b (k >= b is a BLOCK(k) layout), for BLOCK(k), b < k < n (k = b
 * is BLOCK; k >= n puts everything on one processor; k > b makes k g >= n,
 * as HPF requires of BLOCK(k)); the powers of two
 * first, then the divisors of n, smallest first, at most max of them. */
static int k_values(long long n, int g, int cyclic, long long *out, int max)
{
    if (n <= 0 || g < 2)
        return 0;
    long long b = (n + g - 1) / g, lo = cyclic ? 2 : b + 1, hi = cyclic ? b - 1 : n - 1;
    int m = 0;
    for (long long k = 2; k <= hi && m < max; k *= 2)
        if (k >= lo)
            out[m++] = k;
    for (long long k = lo; k <= hi && m < max && k <= 1000000; k++) {
        if (n % k || !(k & (k - 1)))
            continue;             /* not a divisor, or a power of two (above) */
        out[m++] = k;
    }
    return m;
}

/* Adds to l the choices that give c's BLOCK and CYCLIC dimensions block
 * sizes from k_values, each a layout not yet in l. */
static void k_variants(ChoiceList *l, const Choice *c, const Entry *e, int np)
{
    int rank = e->own.rank, sh[MAX_RANK], g = effective_grid(c, np, sh), prod = 1;
    for (int d = 0; d < g; d++)
        prod *= sh[d];
    if (prod != np)
        return;                   /* a grid of fewer processors, as written: kept as it is */
    long long ks[MAX_RANK][1 + SPACE_CYCLIC_K];
    int nk[MAX_RANK];
    for (int d = 0, gd = 0; d < rank; d++) {
        nk[d] = 1;
        ks[d][0] = c->fmt[d].k;
        if (c->fmt[d].fmt == DIST_STAR || c->fmt[d].k || gd >= g)
            continue;
        int cyc = c->fmt[d].fmt == DIST_CYCLIC;
        nk[d] += k_values(e->ext[d], sh[gd], cyc, &ks[d][1],
                          cyc ? SPACE_CYCLIC_K : SPACE_BLOCK_K);
        gd++;
    }
    int at[MAX_RANK] = {0};
    for (;;) {
        int d = 0;
        while (d < rank && ++at[d] == nk[d])
            at[d++] = 0;
        if (d == rank)
            return;               /* every combination visited (all-0: c itself) */
        Choice v = *c;
        for (int x = 0; x < rank; x++)
            v.fmt[x].k = ks[x][at[x]];
        for (int x = 0; x < g && !v.dflt; x++)
            if (v.shape[x] > 0)
                v.shape[x] = sh[x];   /* a re-formed grid, declared as it runs */
        if (!listed(l, l->n, &v, e, np))
            push_choice(l, &v);
    }
}

RemapSpace *remap_space_new(const Node *file, int np)
{
    RemapSpace *S = xcalloc(1, sizeof *S);
    S->np = np;
    read_space(&S->s, file);
    if (S->s.why)
        S->s.n = 0;
    for (int i = 0; i < S->s.n; i++) {
        ChoiceList *l = &S->lists[i];
        *l = (ChoiceList){xcalloc(SPACE_CAP, sizeof(Choice)), 0, SPACE_CAP, 0};
        if (np < 2) {             /* one processor: the program's own choice only */
            Choice own = own_choice(&S->s.e[i]);
            push_choice(l, &own);
            S->plain[i] = l->total = 1;
            continue;
        }
        l->cap = REMAP_MAX_CANDIDATES;
        entry_choices(&S->s.e[i], np, l);
        l->cap = SPACE_CAP;
        /* formats that make one layout here (CYCLIC and BLOCK at one
           element a processor) are one choice: the first kept */
        int kept = 1;
        for (int c = 1; c < l->n; c++)
            if (!listed(l, kept, &l->v[c], &S->s.e[i], np))
                l->v[kept++] = l->v[c];
        l->n = kept;
        int plain = S->plain[i] = l->n;
        for (int c = 0; c < plain; c++)
            k_variants(l, &l->v[c], &S->s.e[i], np);
        l->total = l->n;
    }
    return S;
}

void remap_space_free(RemapSpace *S)
{
    if (!S)
        return;
    for (int i = 0; i < S->s.n; i++)
        free(S->lists[i].v);
    free_space(&S->s);
    free(S);
}

int remap_space_groups(const RemapSpace *S)
{
    return S->s.n + S->s.nal;
}

int remap_space_dist_groups(const RemapSpace *S)
{
    return S->s.n;
}

int remap_space_choices(const RemapSpace *S, int group)
{
    return group < S->s.n ? S->lists[group].n : S->s.nvar[group - S->s.n];
}

/* The most elements of n that one of g processors holds under f. */
static long long most_held(RemapFmt f, long long n, int g)
{
    if (f.fmt == DIST_STAR || g < 2)
        return n;
    if (f.fmt == DIST_BLOCK) {
        long long b = f.k ? f.k : (n + g - 1) / g;
        return b < n ? b : n;
    }
    long long k = f.k ? f.k : 1, blocks = (n + k - 1) / k, per = (blocks + g - 1) / g;
    return per * k < n ? per * k : n;
}

double remap_space_share(const RemapSpace *S, int group, int choice)
{
    if (group >= S->s.n)
        return 1;                 /* an ALIGN: its DISTRIBUTE's share decides */
    const Entry *e = &S->s.e[group];
    const Choice *c = &S->lists[group].v[choice];
    int sh[MAX_RANK], g = effective_grid(c, S->np, sh);
    double share = 1;
    for (int d = 0, gd = 0; d < e->own.rank; d++) {
        if (c->fmt[d].fmt == DIST_STAR)
            continue;
        int p = gd < g ? sh[gd++] : 1;
        if (e->ext[d] > 0)
            share *= (double)most_held(c->fmt[d], e->ext[d], p) / (double)e->ext[d];
        else
            share /= p;           /* not known: as if balanced */
    }
    return share;
}

int remap_space_relation(const RemapSpace *S, int group, int a, int b)
{
    if (group >= S->s.n)
        return a == b ? REMAP_SAME_FORMATS | REMAP_SAME_GRID : 0;
    const Choice *x = &S->lists[group].v[a], *y = &S->lists[group].v[b];
    const Entry *e = &S->s.e[group];
    int rel = REMAP_SAME_FORMATS;
    for (int d = 0; d < e->own.rank; d++)
        if (x->fmt[d].fmt != y->fmt[d].fmt)
            rel = 0;
    int sx[MAX_RANK], sy[MAX_RANK];
    int gx = effective_grid(x, S->np, sx), gy = effective_grid(y, S->np, sy);
    if (gx == gy && !memcmp(sx, sy, (size_t)gx * sizeof *sx))
        rel |= REMAP_SAME_GRID;
    return rel;
}

int remap_space_align_kind(const RemapSpace *S, int group, int choice)
{
    return group < S->s.n ? 0 : S->s.al[group - S->s.n][choice].kind;
}

int remap_space_align_peers(const RemapSpace *S, int g, int h)
{
    if (g < S->s.n || h < S->s.n)
        return 0;
    const RemapAlign *x = &S->s.al[g - S->s.n][0], *y = &S->s.al[h - S->s.n][0];
    return x->unit == y->unit && !strcmp(x->target, y->target);
}

int remap_space_plain(const RemapSpace *S, int group, int choice)
{
    return group >= S->s.n || choice < S->plain[group];
}

int remap_space_default_grid(const RemapSpace *S, int group, int choice)
{
    if (group >= S->s.n)
        return 1;
    const Choice *c = &S->lists[group].v[choice];
    int sh[MAX_RANK], def[MAX_RANK];
    int g = effective_grid(c, S->np, sh);
    if (g < 2)
        return 1;
    hpfmap_grid_shape(S->np, g, NULL, def);
    return !memcmp(sh, def, (size_t)g * sizeof *sh);
}

void remap_space_make(const RemapSpace *S, const int *choice, Remap *r)
{
    Choice ch[REMAP_MAX_DIST];
    for (int i = 0; i < S->s.n; i++)
        ch[i] = S->lists[i].v[choice[i]];
    build(&S->s, ch, S->np, r);
    int own = 1;
    for (int i = 0; i < S->s.n + S->s.nal; i++)
        own &= choice[i] == 0;
    for (int k = 0; k < S->s.nal; k++)
        r->align[k] = S->s.al[k][choice[S->s.n + k]];
    r->own = own;
}

/* ---- equality ---- */

static int dist_grid(const Remap *r, const RemapDist *rd, int np, int *shape)
{
    if (rd->procs < 0) {
        if (!ndist_of(rd->fmt, rd->rank))
            return 0;
        shape[0] = np;
        return 1;
    }
    const RemapProcs *p = &r->procs[rd->procs];
    run_grid(np, p->rank, p->ext, shape);
    return p->rank;
}

/* Whether r aligns unit's name as al does (as written where r does not
 * vary that ALIGN). */
static int aligns_as(const Remap *r, const RemapAlign *al)
{
    for (int i = 0; i < r->nalign; i++)
        if (r->align[i].unit == al->unit && !strcmp(r->align[i].names[0], al->names[0]))
            return alignment_equal(&r->align[i].now, &al->now);
    return !al->kind;
}

int remap_equal(const Remap *a, const Remap *b)
{
    int np = a->np ? a->np : b->np;
    if (a->ndist != b->ndist)
        return 0;
    for (int i = 0; i < a->nalign; i++)
        if (!aligns_as(b, &a->align[i]))
            return 0;
    for (int i = 0; i < b->nalign; i++)
        if (!aligns_as(a, &b->align[i]))
            return 0;
    for (int i = 0; i < a->ndist; i++) {
        const RemapDist *x = &a->dist[i], *y = &b->dist[i];
        if (x->unit != y->unit || strcmp(x->names[0], y->names[0]) || x->rank != y->rank
            || !fmt_equal(x->fmt, y->fmt, x->rank))
            return 0;
        int sx[MAX_RANK], sy[MAX_RANK];
        int gx = dist_grid(a, x, np, sx), gy = dist_grid(b, y, np, sy);
        if (gx != gy || memcmp(sx, sy, (size_t)gx * sizeof *sx))
            return 0;
    }
    return 1;
}

/* ---- printing ---- */

static void put_fmt(StrBuf *b, const RemapFmt *f)
{
    switch (f->fmt) {
    case DIST_BLOCK: sb_puts(b, "BLOCK"); break;
    case DIST_CYCLIC: sb_puts(b, "CYCLIC"); break;
    default: sb_puts(b, "*"); return;
    }
    if (f->k)
        sb_printf(b, "(%lld)", f->k);
}

static void put_fmts(StrBuf *b, const RemapDist *rd, const char *sep)
{
    sb_putc(b, '(');
    for (int d = 0; d < rd->rank; d++) {
        if (d)
            sb_puts(b, sep);
        put_fmt(b, &rd->fmt[d]);
    }
    sb_putc(b, ')');
}

static void put_names_of(StrBuf *b, const char (*names)[REMAP_NAME_MAX], int n, const char *sep)
{
    for (int i = 0; i < n; i++) {
        if (i)
            sb_puts(b, sep);
        sb_puts(b, names[i]);
    }
}

static void put_names(StrBuf *b, const RemapDist *rd, const char *sep)
{
    put_names_of(b, rd->names, rd->nnames, sep);
}

static int several_units(const Remap *r)
{
    for (int i = 1; i < r->ndist; i++)
        if (r->dist[i].unit != r->dist[0].unit)
            return 1;
    return 0;
}

/* "(i,*) WITH t(i+1,1)": an alignment's text, with sep between the
 * subscripts. */
static void put_alignment(StrBuf *b, const RemapAlign *al, const RemapAlignment *m,
                          const char *sep)
{
    sb_putc(b, '(');
    for (int p = 0; p < m->nsrc; p++)
        sb_printf(b, "%s%s", p ? sep : "", al->dummy[m->src[p]]);
    sb_printf(b, ") WITH %s(", al->target);
    for (int t = 0; t < m->ntgt; t++) {
        const RemapSub *x = &m->tgt[t];
        if (t)
            sb_puts(b, sep);
        if (x->star)
            sb_putc(b, '*');
        else if (x->dummy < 0)
            sb_printf(b, "%lld", x->off);
        else if (!x->off)
            sb_puts(b, al->dummy[x->dummy]);
        else
            sb_printf(b, "%s%+lld", al->dummy[x->dummy], x->off);
    }
    sb_putc(b, ')');
}

/* An ALIGN as r has it: "a(i,j) WITH t(j,i)" (style 0, labels) or the
 * directive's text after ALIGN, "a(i, j) WITH t(j, i)" or
 * "(i, j) WITH t(j, i) :: a, b" (style 1). */
static void put_align(StrBuf *b, const RemapAlign *al, int style)
{
    const char *sep = style ? ", " : ",";
    if (!(style && al->attributed))
        put_names_of(b, al->names, al->nnames, sep);
    put_alignment(b, al, &al->now, sep);
    if (style && al->attributed) {
        sb_puts(b, " :: ");
        put_names_of(b, al->names, al->nnames, ", ");
    }
}

static void put_label(StrBuf *b, const Remap *r)
{
    if (!r->ndist) {
        sb_puts(b, "as written");
        return;
    }
    int units = several_units(r);
    for (int i = 0; i < r->ndist; i++) {
        const RemapDist *rd = &r->dist[i];
        if (i)
            sb_puts(b, "; ");
        if (units && *rd->unit_name)
            sb_printf(b, "%s:", rd->unit_name);
        put_names(b, rd, ",");
        put_fmts(b, rd, ",");
        if (rd->procs < 0)
            continue;
        const RemapProcs *p = &r->procs[rd->procs];
        int shape[MAX_RANK], fixed = 1;
        for (int d = 0; d < p->rank; d++)
            fixed &= p->ext[d] > 0;
        int known = r->np && (p->rank > 1 || fixed), reformed = 0;
        if (known)
            reformed = run_grid(r->np, p->rank, p->ext, shape) && fixed;
        sb_printf(b, " on %s(", p->name);
        for (int d = 0; d < p->rank; d++) {
            if (d)
                sb_putc(b, ',');
            if (known)
                sb_printf(b, "%d", shape[d]);     /* as the run forms it */
            else if (p->ext[d])
                sb_printf(b, "%d", p->ext[d]);
            else if (r->np)
                sb_printf(b, "%d", r->np);
            else
                sb_puts(b, "NP");
        }
        sb_putc(b, ')');
        if (reformed) {
            sb_puts(b, " re-formed from (");
            for (int d = 0; d < p->rank; d++)
                sb_printf(b, d ? ",%d" : "%d", p->ext[d]);
            sb_putc(b, ')');
        }
    }
    for (int i = 0; i < r->nalign; i++) {
        const RemapAlign *al = &r->align[i];
        if (!al->kind)
            continue;
        sb_puts(b, "; ");
        if (units && *al->unit_name)
            sb_printf(b, "%s:", al->unit_name);
        put_align(b, al, 0);
    }
}

static void put_directives(StrBuf *b, const Remap *r)
{
    if (!r->ndist) {
        sb_puts(b, "! the mapping as written in the program\n");
        return;
    }
    int units = several_units(r);
    for (int i = 0; i < r->ndist; i++) {
        const RemapDist *rd = &r->dist[i];
        int first_of_unit = 1;
        for (int k = 0; k < i; k++)
            if (r->dist[k].unit == rd->unit)
                first_of_unit = 0;
        if (!first_of_unit)
            continue;
        if (units)
            sb_printf(b, "! in %s\n", *rd->unit_name ? rd->unit_name : "the main program");
        for (int j = 0; j < r->nprocs; j++) {
            const RemapProcs *p = &r->procs[j];
            if (p->unit != rd->unit)
                continue;
            sb_printf(b, "!HPF$ PROCESSORS %s(", p->name);
            for (int d = 0; d < p->rank; d++) {
                if (d)
                    sb_puts(b, ", ");
                if (p->ext[d])
                    sb_printf(b, "%d", p->ext[d]);
                else
                    sb_puts(b, "NUMBER_OF_PROCESSORS()");
            }
            sb_puts(b, ")\n");
        }
        for (int k = i; k < r->ndist; k++) {
            const RemapDist *x = &r->dist[k];
            if (x->unit != rd->unit)
                continue;
            sb_puts(b, "!HPF$ DISTRIBUTE ");
            if (!x->attributed) {
                put_names(b, x, ", ");
                put_fmts(b, x, ", ");
            } else {
                put_fmts(b, x, ", ");
            }
            if (x->procs >= 0)
                sb_printf(b, " ONTO %s", r->procs[x->procs].name);
            if (x->attributed) {
                sb_puts(b, " :: ");
                put_names(b, x, ", ");
            }
            sb_putc(b, '\n');
        }
        for (int k = 0; k < r->nalign; k++)
            if (r->align[k].kind && r->align[k].unit == rd->unit) {
                sb_puts(b, "!HPF$ ALIGN ");
                put_align(b, &r->align[k], 1);
                sb_putc(b, '\n');
            }
    }
}

/* The entries that differ from the program, each with its grid, so that
 * the spec does not depend on the np it is read with; a 1-D grid of
 * NUMBER_OF_PROCESSORS() or the default arrangement has none, and
 * remap_parse keeps those. */
/* The start of a spec's item: "; " after another, "UNIT:" where the
 * mapping spans units, "NAME=". */
static void spec_head(StrBuf *b, int units, const char *unit_name, const char *name)
{
    if (b->len)
        sb_puts(b, "; ");
    if (units && *unit_name)
        sb_printf(b, "%s:", unit_name);
    sb_printf(b, "%s=", name);
}

static void put_spec(StrBuf *b, const Remap *r)
{
    int units = several_units(r);
    for (int i = 0; i < r->ndist; i++) {
        const RemapDist *rd = &r->dist[i];
        if (!rd->changed)
            continue;
        spec_head(b, units, rd->unit_name, rd->names[0]);
        for (int d = 0; d < rd->rank; d++) {
            if (d)
                sb_putc(b, ',');
            put_fmt(b, &rd->fmt[d]);
        }
        if (rd->procs < 0)
            continue;
        const RemapProcs *p = &r->procs[rd->procs];
        int open = 0;
        for (int d = 0; d < p->rank; d++)
            open |= !p->ext[d];
        if (open && (p->rank == 1 || !r->np))
            continue;
        for (int d = 0; d < p->rank; d++)
            sb_printf(b, "%c%d", d ? 'x' : '@', p->ext[d] ? p->ext[d] : r->np);
    }
    for (int i = 0; i < r->nalign; i++) {
        const RemapAlign *al = &r->align[i];
        if (!al->kind)
            continue;
        spec_head(b, units, al->unit_name, al->names[0]);
        if (al->kind == REMAP_AL_TRANSPOSED)
            sb_puts(b, "TRANSPOSED");
        else
            put_alignment(b, al, &al->now, ",");
    }
}

char *remap_string(const Remap *r, int style)
{
    StrBuf b = {0};
    if (style == REMAP_DIRECTIVES)
        put_directives(&b, r);
    else if (style == REMAP_SPEC)
        put_spec(&b, r);
    else
        put_label(&b, r);
    return b.s ? b.s : xstrdup("");
}

void remap_print(FILE *out, const Remap *r, int style)
{
    char *s = remap_string(r, style);
    fputs(s, out);
    free(s);
}

/* ---- a user's choice ---- */

typedef struct {
    const char *p;               /* the next character */
    char *err;
    size_t errlen;
} Spec;

static int spec_error(Spec *S, const char *fmt, ...) HPF_PRINTF(2, 3);
static int spec_error(Spec *S, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (S->errlen)
        vsnprintf(S->err, S->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static void blanks(Spec *S)
{
    while (*S->p == ' ' || *S->p == '\t')
        S->p++;
}

/* A name, lower-cased into buf; 0 when there is none. */
static int spec_name(Spec *S, char *buf, size_t len)
{
    blanks(S);
    size_t n = 0;
    if (!isalpha((unsigned char)*S->p))
        return 0;
    while (isalnum((unsigned char)*S->p) || *S->p == '_') {
        if (n + 1 < len)
            buf[n] = (char)tolower((unsigned char)*S->p);
        n++;
        S->p++;
    }
    buf[n + 1 < len ? n : len - 1] = '\0';
    return n + 1 < len ? 1 : -1;
}

static int spec_int(Spec *S, long long *v)
{
    blanks(S);
    if (!isdigit((unsigned char)*S->p))
        return 0;
    char *end;
    *v = strtoll(S->p, &end, 10);
    S->p = end;
    return 1;
}

static int spec_fmt(Spec *S, const char *what, RemapFmt *f)
{
    char word[REMAP_NAME_MAX];
    blanks(S);
    memset(f, 0, sizeof *f);
    if (*S->p == '*') {
        S->p++;
        f->fmt = DIST_STAR;
        return 0;
    }
    const char *start = S->p;
    int rc = spec_name(S, word, sizeof word);
    if (rc > 0 && !strcmp(word, "block"))
        f->fmt = DIST_BLOCK;
    else if (rc > 0 && !strcmp(word, "cyclic"))
        f->fmt = DIST_CYCLIC;
    else if (rc == 0 && !*start)
        return spec_error(S, "a format is missing for '%s'", what);
    else
        return spec_error(S, "unknown format '%.*s' for '%s' (BLOCK, BLOCK(k), CYCLIC, "
                          "CYCLIC(k) or *)", rc ? (int)(S->p - start) : 1, start, what);
    blanks(S);
    if (*S->p != '(')
        return 0;
    S->p++;
    long long k;
    const char *arg = S->p;
    if (!spec_int(S, &k) || k < 1 || k > INT_MAX || (blanks(S), *S->p != ')')) {
        const char *close = strchr(arg, ')');
        return spec_error(S, "the argument of %s(k) for '%s' must be a positive integer, "
                          "not '%.*s'", f->fmt == DIST_BLOCK ? "BLOCK" : "CYCLIC", what,
                          close ? (int)(close - arg) : (int)strlen(arg), arg);
    }
    S->p++;
    if (!(f->fmt == DIST_CYCLIC && k == 1))
        f->k = k;
    return 0;
}

/* The entry spec names: NAME, or UNIT:NAME; a message when none or several. */
static int find_entry(Spec *S, const Space *s, const char *unit, int has_unit, const char *name)
{
    int found = -1;
    for (int i = 0; i < s->n; i++) {
        const RemapDist *o = &s->e[i].own;
        if (has_unit && strcmp(o->unit_name, unit))
            continue;
        for (int k = 0; k < o->nnames; k++)
            if (!strcmp(o->names[k], name)) {
                if (found >= 0)
                    return spec_error(S, "'%s' is distributed in more than one unit: write "
                                      "UNIT:%s", name, name);
                found = i;
            }
    }
    if (found >= 0)
        return found;
    /* why not: say what the name is, if the program has it */
    for (int i = 0; i < s->units.n; i++) {
        const Node *u = s->units.v[i];
        if (has_unit && strcmp(unit_id(u), unit))
            continue;
        const Symbol *y = scope_lookup_local(u->u.unit.scope, name);
        if (!y)
            continue;
        if (y->align)
            return spec_error(S, "'%s' is aligned with '%s': remap '%s' instead", name,
                              y->align->u.align.target, y->align->u.align.target);
        if (y->kind == SYM_TEMPLATE)
            return spec_error(S, "TEMPLATE '%s' is not distributed (only what a DISTRIBUTE "
                              "maps can be remapped)", name);
        if (y->kind == SYM_VARIABLE && y->rank)
            return spec_error(S, "array '%s' is not distributed (only what a DISTRIBUTE "
                              "maps can be remapped)", name);
    }
    StrBuf known = {0};
    for (int i = 0; i < s->n; i++)
        for (int k = 0; k < s->e[i].own.nnames; k++)
            sb_printf(&known, "%s%s", known.len ? ", " : "", s->e[i].own.names[k]);
    if (has_unit)
        spec_error(S, "no DISTRIBUTE of unit '%s' maps '%s' (distributed: %s)", unit, name,
                   known.s ? known.s : "nothing");
    else
        spec_error(S, "no DISTRIBUTE in the program maps '%s' (distributed: %s)", name,
                   known.s ? known.s : "nothing");
    sb_free(&known);
    return -1;
}

/* The grid of a choice given without one: see remap.h. */
static int default_grid(Spec *S, const Entry *e, int np, Choice *c, const char *what)
{
    if (c->ngrid == 0)
        return 0;
    int base_prod = 1;
    for (int d = 0; d < e->onto_rank; d++)
        base_prod = e->onto_ext[d] && base_prod <= INT_MAX / e->onto_ext[d]
                    ? base_prod * e->onto_ext[d] : 0;
    int known = e->has_onto && e->onto_const && base_prod > 0;
    if (c->ngrid == 1) {
        if (!e->has_onto)
            c->dflt = 1;
        else if (e->onto_rank == 1 && !e->onto_ext[0])
            c->shape[0] = 0;
        else
            c->shape[0] = np > 0 ? np : known ? base_prod : 0;
        return 0;
    }
    int n = np > 0 ? np : known ? base_prod : 0;
    if (!n) {
        char eg[64] = "2";
        for (int d = 1; d < c->ngrid && strlen(eg) + 2 < sizeof eg; d++)
            strcat(eg, "x2");
        return spec_error(S, "'%s' has %d distributed dimensions: give the grid, as in "
                          "'%s=...@%s'", what, c->ngrid, what, eg);
    }
    run_grid(n, c->ngrid, e->onto_rank == c->ngrid ? e->onto_ext : NULL, c->shape);
    return 0;
}

/* Text without blanks, in lower case, into out (size n). */
static void squeeze(const char *p, size_t len, char *out, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < len && k + 1 < n; i++)
        if (p[i] != ' ' && p[i] != '\t')
            out[k++] = (char)tolower((unsigned char)p[i]);
    out[k] = '\0';
}

/* ALIGNEE=TRANSPOSED or ALIGNEE=(...) WITH t(...), S->p past the '=': the
 * variant of the ALIGN of that name in s (and unit) that the text names,
 * into pick[k] (the variant's index plus one). */
static int spec_align(Spec *S, const Space *s, const char *unit, int has_unit,
                      const char *name, int transposed, int *pick)
{
    int found = -1;
    for (int k = 0; k < s->nal; k++) {
        const RemapAlign *a = &s->al[k][0];
        if (has_unit && strcmp(a->unit_name, unit))
            continue;
        for (int x = 0; x < a->nnames; x++)
            if (!strcmp(a->names[x], name)) {
                if (found >= 0)
                    return spec_error(S, "'%s' is aligned in more than one unit: write "
                                      "UNIT:%s", name, name);
                found = k;
            }
    }
    const char *text = S->p;
    size_t len = strcspn(text, ";");
    if (found < 0)
        return spec_error(S, "'%s=%.*s': '%s' has no ALIGN that can be varied (its target "
                          "distributed by a DISTRIBUTE of its unit; each target subscript "
                          "a dummy, a dummy plus or minus a constant, a constant or '*'; "
                          "the extents known; a variant that fits)", name,
                          transposed ? 10 : (int)len, transposed ? "TRANSPOSED" : text, name);
    if (pick[found])
        return spec_error(S, "'%s' is given twice", name);
    char want[256];
    squeeze(text, len, want, sizeof want);
    StrBuf all = {0};
    for (int v = 0; v < s->nvar[found]; v++) {
        const RemapAlign *a = &s->al[found][v];
        StrBuf b = {0};
        put_alignment(&b, a, &a->now, ",");
        char have[256];
        squeeze(b.s, b.len, have, sizeof have);
        if (transposed ? a->kind == REMAP_AL_TRANSPOSED : !strcmp(have, want)) {
            sb_free(&b);
            sb_free(&all);
            pick[found] = v + 1;
            if (!transposed)
                S->p = text + len;
            return 0;
        }
        sb_printf(&all, "%s%s", all.len ? "; " : "", b.s);
        sb_free(&b);
    }
    if (transposed)
        spec_error(S, "'%s=TRANSPOSED': the ALIGN of '%s' cannot be transposed (two dummy "
                   "subscripts of its target, extents that fit either way); its alignments: "
                   "%s", name, name, all.s);
    else
        spec_error(S, "'%s=%.*s': not an alignment the ALIGN of '%s' can take; its "
                   "alignments: %s", name, (int)len, text, name, all.s);
    sb_free(&all);
    return -1;
}

/* The word w (lower case, n letters) at S->p, as a whole word; S->p moved
 * past it. */
static int spec_word(Spec *S, const char *w, size_t n)
{
    const char *p = S->p;
    while (*p == ' ' || *p == '\t')
        p++;
    if (strncasecmp(p, w, n) || isalnum((unsigned char)p[n]) || p[n] == '_')
        return 0;
    S->p = p + n;
    return 1;
}

/* An alignment's text at S->p: ( ... ) WITH, before the next ';'. */
static int alignment_text(const Spec *S)
{
    size_t len = strcspn(S->p, ";");
    for (size_t i = 0; i + 4 <= len; i++)
        if (!strncasecmp(S->p + i, "with", 4) && (i == 0 || !isalnum((unsigned char)S->p[i - 1]))
            && (i + 4 == len || !isalnum((unsigned char)S->p[i + 4])))
            return 1;
    return 0;
}

static int spec_item(Spec *S, const Space *s, int np, Choice *ch, int *given, int *pick)
{
    char unit[REMAP_NAME_MAX] = "", name[REMAP_NAME_MAX];
    int has_unit = 0;
    const char *start = (blanks(S), S->p);
    int rc = spec_name(S, name, sizeof name);
    if (rc < 0)
        return spec_error(S, "name too long in '%s'", start);
    if (!rc)
        return spec_error(S, "a template or array name expected at '%s'", start);
    blanks(S);
    if (*S->p == ':') {
        S->p++;
        strcpy(unit, name);
        has_unit = 1;
        const char *at = (blanks(S), S->p);
        rc = spec_name(S, name, sizeof name);
        if (rc <= 0)
            return spec_error(S, "a template or array name expected after '%s:' at '%s'",
                              unit, at);
        blanks(S);
    }
    if (*S->p == '=') {
        const char *at = S->p++;
        if (spec_word(S, "transposed", 10))
            return spec_align(S, s, unit, has_unit, name, 1, pick);
        if (alignment_text(S))
            return spec_align(S, s, unit, has_unit, name, 0, pick);
        S->p = at;
    }
    int i = find_entry(S, s, unit, has_unit, name);
    if (i < 0)
        return -1;
    if (given[i])
        return spec_error(S, "'%s' is given twice", name);
    given[i] = 1;
    const Entry *e = &s->e[i];
    int paren = 0;
    if (*S->p == '=') {
        S->p++;
        blanks(S);
        if (*S->p == '(') {
            S->p++;
            paren = 1;
        }
    } else if (*S->p == '(') {
        S->p++;
        paren = 1;
    } else {
        return spec_error(S, "'=' expected after '%s'", name);
    }
    Choice c;
    memset(&c, 0, sizeof c);
    int nf = 0;
    for (;;) {
        RemapFmt f;
        if (spec_fmt(S, name, &f))
            return -1;
        if (nf < MAX_RANK)
            c.fmt[nf] = f;
        nf++;
        blanks(S);
        if (*S->p != ',')
            break;
        S->p++;
    }
    if (paren) {
        if (*S->p != ')')
            return spec_error(S, "')' expected after the formats of '%s'", name);
        S->p++;
        blanks(S);
    }
    if (nf != e->own.rank)
        return spec_error(S, "'%s' has rank %d: give %d format%s, not %d", name,
                          e->own.rank, e->own.rank, e->own.rank == 1 ? "" : "s", nf);
    c.ngrid = ndist_of(c.fmt, nf);
    if (*S->p == '@') {
        S->p++;
        const char *g = S->p;
        int ng = 0;
        long long prod = 1;
        for (;;) {
            long long x;
            if (!spec_int(S, &x) || x < 1 || x > INT_MAX)
                return spec_error(S, "bad grid '%s' for '%s': extents of at least 1, "
                                  "as in 2x2", g, name);
            if (ng < MAX_RANK)
                c.shape[ng] = (int)x;
            ng++;
            prod = prod > INT_MAX ? prod : prod * x;
            blanks(S);
            if (*S->p != 'x' && *S->p != 'X')
                break;
            S->p++;
        }
        if (ng != c.ngrid)
            return spec_error(S, "the grid of '%s' has %d extent%s, but it has %d distributed "
                              "dimension%s", name, ng, ng == 1 ? "" : "s", c.ngrid,
                              c.ngrid == 1 ? "" : "s");
        if (np > 0 && prod != np)
            return spec_error(S, "the grid of '%s' has %lld processors, not %d", name, prod, np);
    } else if (default_grid(S, e, np, &c, name)) {
        return -1;
    }
    ch[i] = c;
    return 0;
}

int remap_parse(const Node *file, const char *spec, int np, Remap *r, char *err, size_t errlen)
{
    Spec S = {spec, err, errlen};
    Space s;
    read_space(&s, file);
    int rc = 0;
    if (err && errlen)
        err[0] = '\0';
    if (s.why) {
        rc = spec_error(&S, "the mapping of this program cannot be changed: %s", s.why);
    } else if (!s.n) {
        rc = spec_error(&S, "the program has no DISTRIBUTE directive: nothing to remap");
    } else {
        Choice ch[REMAP_MAX_DIST];
        int given[REMAP_MAX_DIST] = {0}, pick[REMAP_MAX_ALIGN] = {0};
        for (int i = 0; i < s.n; i++)
            ch[i] = own_choice(&s.e[i]);
        int items = 0;
        for (;;) {
            blanks(&S);
            if (!*S.p)
                break;
            if (*S.p == ';') {
                S.p++;
                continue;
            }
            if (spec_item(&S, &s, np, ch, given, pick)) {
                rc = -1;
                break;
            }
            items++;
            blanks(&S);
            if (*S.p && *S.p != ';') {
                rc = spec_error(&S, "unexpected '%s' (items are separated by ';')", S.p);
                break;
            }
        }
        if (!rc) {
            build(&s, ch, np, r);
            for (int k = 0; k < s.nal; k++)
                r->align[k] = s.al[k][pick[k] ? pick[k] - 1 : 0];
            r->own = !items;
        }
    }
    free_space(&s);
    return rc;
}

/* ---- the rewrite ---- */

static Node *int_node(Arena *a, long long v, Loc loc)
{
    Node *n = ast_new(a, AST_INT_CONST, loc);
    n->u.konst.text = arena_printf(a, "%lld", v);
    n->u.konst.ival = v;
    n->u.konst.kind = 4;
    return n;
}

static PtrVec dims_of(Arena *a, const RemapProcs *p, Loc loc)
{
    PtrVec dims = {0};
    for (int d = 0; d < p->rank; d++) {
        Node *dm = ast_new(a, AST_DIM, loc);
        dm->u.dim.form = DIM_EXPLICIT;
        if (p->ext[d]) {
            dm->u.dim.hi = int_node(a, p->ext[d], loc);
        } else {
            Node *ref = ast_new(a, AST_REF, loc);
            ref->u.ref.id = "number_of_processors";
            dm->u.dim.hi = ref;
        }
        vec_push(a, &dims, dm);
    }
    return dims;
}

/* The DISTRIBUTE (kind AST_DISTRIBUTE) or ALIGN (AST_ALIGN) of unit u that
 * names name. */
static Node *find_directive(Node *u, AstKind kind, const char *name)
{
    PtrVec *body = &u->u.unit.body;
    for (int j = 0; j < body->n; j++) {
        Node *n = body->v[j];
        if (n->kind != kind)
            continue;
        const PtrVec *names = kind == AST_ALIGN ? &n->u.align.names : &n->u.dist.names;
        for (int k = 0; k < names->n; k++) {
            const Node *nm = names->v[k];
            if (!strcmp(nm->u.name.id, name))
                return n;
        }
    }
    return NULL;
}

static Node *find_distribute(Node *u, const char *name)
{
    return find_directive(u, AST_DISTRIBUTE, name);
}

static Node *find_align(Node *u, const char *name)
{
    return find_directive(u, AST_ALIGN, name);
}

static Node *find_processors(Node *u, const char *name)
{
    PtrVec *body = &u->u.unit.body;
    for (int j = 0; j < body->n; j++) {
        Node *n = body->v[j];
        if (n->kind != AST_PROCESSORS)
            continue;
        for (int k = 0; k < n->u.list.items.n; k++) {
            Node *en = n->u.list.items.v[k];
            if (!strcmp(en->u.entity.id, name))
                return en;
        }
    }
    return NULL;
}

/* The dummy k's name node in ALIGN n's written target subscripts. */
static Node *dummy_node(const Node *n, const RemapAlign *al, int k)
{
    for (int t = 0; t < al->written.ntgt; t++)
        if (al->written.tgt[t].dummy == k) {
            Node *x = n->u.align.tgt.v[t];
            if (x->kind != AST_BINARY)
                return x;
            return x->u.binary.lhs->kind == AST_INT_CONST ? x->u.binary.rhs : x->u.binary.lhs;
        }
    return NULL;
}

/* ALIGN n (as written, al->written) rewritten to al->now: the written
 * nodes where they are kept, new ones where not. */
static void align_apply(Node *n, const RemapAlign *al, Arena *a)
{
    PtrVec src = {0}, tgt = {0};
    for (int p = 0; p < al->now.nsrc; p++)
        vec_push(a, &src, n->u.align.src.v[al->now.src[p]]);
    for (int t = 0; t < al->now.ntgt; t++) {
        const RemapSub *x = &al->now.tgt[t];
        Node *y;
        if (x->from >= 0)
            y = n->u.align.tgt.v[x->from];
        else if (x->star)
            y = ast_new(a, AST_STAR, n->loc);
        else if (x->dummy < 0)
            y = int_node(a, x->off, n->loc);
        else
            y = dummy_node(n, al, x->dummy);   /* its offset dropped */
        vec_push(a, &tgt, y);
    }
    n->u.align.src = src;
    n->u.align.tgt = tgt;
}

int remap_apply(Node *file, const Remap *r, Arena *a, Diag *d)
{
    if (!r || r->own)
        return 0;
    int before = d->nerrors;
    if (r->ndist < 0 || r->ndist > REMAP_MAX_DIST || r->nprocs < 0 || r->nprocs > REMAP_MAX_DIST) {
        diag_error(d, (Loc){file->loc.file, 0, 0, 0, 0}, "the mapping to apply is malformed");
        return d->nerrors - before;
    }
    Loc nowhere = {file->loc.file, 0, 0, 0, 0};
    PtrVec units = {0};
    list_units(&units, &file->u.list.items);
    Node *first_use[REMAP_MAX_DIST] = {0};   /* per arrangement: the first DISTRIBUTE onto it */
    for (int i = 0; i < r->ndist; i++) {
        const RemapDist *rd = &r->dist[i];
        Node *u = rd->unit >= 0 && rd->unit < units.n ? units.v[rd->unit] : NULL;
        if (!u || strcmp(unit_id(u), rd->unit_name)) {
            diag_error(d, nowhere, "the mapping to apply is for another program: it has no "
                       "unit '%s'", rd->unit_name);
            continue;
        }
        Node *n = find_distribute(u, rd->names[0]);
        if (!n) {
            diag_error(d, u->loc, "the mapping to apply distributes '%s', which no DISTRIBUTE "
                       "of this unit maps", rd->names[0]);
            continue;
        }
        /* new nodes take the directive's place: diagnostics point there */
        PtrVec fmts = {0};
        for (int k = 0; k < rd->rank; k++) {
            Node *f = ast_new(a, AST_DIST_FORMAT, n->loc);
            f->u.distfmt.fmt = rd->fmt[k].fmt;
            if (rd->fmt[k].k)
                f->u.distfmt.arg = int_node(a, rd->fmt[k].k, n->loc);
            vec_push(a, &fmts, f);
        }
        n->u.dist.formats = fmts;
        n->u.dist.onto = NULL;
        if (rd->procs >= 0 && rd->procs < r->nprocs) {
            n->u.dist.onto = arena_strdup(a, r->procs[rd->procs].name);
            n->u.dist.onto_loc = n->loc;
            if (!first_use[rd->procs])
                first_use[rd->procs] = n;
        }
    }
    for (int i = 0; i < r->nalign && i < REMAP_MAX_ALIGN; i++) {
        const RemapAlign *al = &r->align[i];
        Node *u = al->unit >= 0 && al->unit < units.n ? units.v[al->unit] : NULL;
        if (!al->kind || !u)
            continue;
        Node *n = find_align(u, al->names[0]);
        if (!n || n->u.align.src.n != al->written.nsrc || n->u.align.tgt.n != al->written.ntgt
            || al->now.nsrc != al->written.nsrc || al->now.ntgt != al->written.ntgt) {
            diag_error(d, u->loc, "the mapping to apply changes the ALIGN of '%s', which "
                       "this unit does not have", al->names[0]);
            continue;
        }
        align_apply(n, al, a);
    }
    for (int j = 0; j < r->nprocs; j++) {
        const RemapProcs *p = &r->procs[j];
        Node *u = p->unit >= 0 && p->unit < units.n ? units.v[p->unit] : NULL;
        if (!u || !first_use[j])
            continue;                    /* reported above, or not used */
        if (p->declared) {
            Node *en = find_processors(u, p->name);
            if (!en) {
                diag_error(d, first_use[j]->loc, "the mapping to apply reshapes PROCESSORS "
                           "'%s', which this unit does not declare", p->name);
                continue;
            }
            en->u.entity.dims = dims_of(a, p, en->loc);
            continue;
        }
        /* a new arrangement, declared right before its first DISTRIBUTE */
        Loc loc = first_use[j]->loc;
        Node *en = ast_new(a, AST_ENTITY, loc);
        en->u.entity.id = arena_strdup(a, p->name);
        en->u.entity.dims = dims_of(a, p, loc);
        Node *dir = ast_new(a, AST_PROCESSORS, loc);
        vec_push(a, &dir->u.list.items, en);
        PtrVec *body = &u->u.unit.body;
        int at = 0;
        while (at < body->n && body->v[at] != first_use[j])
            at++;
        vec_push(a, body, dir);
        memmove(&body->v[at + 1], &body->v[at], (size_t)(body->n - 1 - at) * sizeof *body->v);
        body->v[at] = dir;
    }
    free(units.v);
    return d->nerrors - before;
}

/* ---- the program's source under a mapping (hpfc --auto-map) ---- */

/* The characters of line l of f (not NUL-terminated) and their count,
 * without the line break. */
static const char *line_text(const SrcFile *f, int l, size_t *len)
{
    size_t a = f->line_off[l], b = l < f->nlines ? f->line_off[l + 1] : f->len;
    while (b > a && (f->text[b - 1] == '\n' || f->text[b - 1] == '\r'))
        b--;
    *len = b - a;
    return f->text + a;
}

/* Where the word w (lower case) begins in the line, case-insensitive: the
 * directive's sentinel is what comes before it. -1: not there. */
static long word_at(const char *s, size_t len, const char *w)
{
    size_t n = strlen(w);
    for (size_t i = 0; i + n <= len; i++) {
        size_t k = 0;
        while (k < n && tolower((unsigned char)s[i + k]) == w[k])
            k++;
        if (k == n)
            return (long)i;
    }
    return -1;
}

/* The extents the program declared for arrangement `name` of unit u, as
 * RemapProcs.ext counts them (0: NUMBER_OF_PROCESSORS()); -1 when it is not
 * a PROCESSORS of u with constant extents. */
static int declared_ext(const Node *u, const char *name, int *ext)
{
    const Symbol *p = scope_lookup_local(u->u.unit.scope, name);
    if (!p || p->kind != SYM_PROCESSORS)
        return -1;
    for (int d = 0; d < p->rank; d++) {
        if (is_nop(p->dims[d]->u.dim.hi))
            ext[d] = 0;
        else if (p->bounds_known[d])
            ext[d] = (int)(p->hi[d] - p->lo[d] + 1);
        else
            return -1;
    }
    return p->rank;
}

static int src_error(char *err, size_t errlen, const char *fmt, ...) HPF_PRINTF(3, 4);
static int src_error(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

void remap_put_comment(StrBuf *b, const char *text, int fixed)
{
    for (const char *c = text; *c;) {
        size_t k = strcspn(c, "\n");
        sb_printf(b, "%s %.*s\n", fixed ? "C" : "!", (int)k, c);
        c += k + (c[k] == '\n');
    }
}

/* s in one case, upper or lower. */
static void set_case(char *s, int upper)
{
    for (; *s; s++)
        *s = (char)(upper ? toupper((unsigned char)*s) : tolower((unsigned char)*s));
}

/* The length of text's longest line where it passes column 72, else 0. */
static size_t past_72(const char *text)
{
    size_t most = 0;
    for (const char *c = text; *c;) {
        size_t k = strcspn(c, "\n");
        if (k > 72 && k > most)
            most = k;
        c += k + (c[k] == '\n');
    }
    return most;
}

/* Lines to insert before line `before` of the source (its numbering). */
typedef struct {
    int before;
    char *text;                  /* whole lines, each ending in a line break (heap) */
} Insert;

static char *source_under(const SrcFile *f, const Node *file, const Remap *r, int fixed,
                          const char *comment, const Insert *ins, int nins, char *err,
                          size_t errlen)
{
    PtrVec units = {0};
    list_units(&units, &file->u.list.items);
    /* per line: the text that replaces it (NULL: kept; "" for the lines
       after the first of a replaced directive) */
    char **repl = xcalloc((size_t)f->nlines + 2, sizeof *repl);
    char names[REMAP_MAX_DIST][REMAP_NAME_MAX];     /* each arrangement's name in the output */
    int declared[REMAP_MAX_DIST] = {0}, status = 0, first = 0;
    for (int j = 0; j < r->nprocs; j++) {
        const RemapProcs *p = &r->procs[j];
        const Node *u = p->unit < units.n ? units.v[p->unit] : NULL;
        strcpy(names[j], p->name);
        int ext[MAX_RANK], rank = u && p->declared ? declared_ext(u, p->name, ext) : -1;
        if (rank == p->rank && !memcmp(ext, p->ext, (size_t)rank * sizeof *ext)) {
            declared[j] = 1;      /* the program's own, unchanged: nothing to declare */
            continue;
        }
        if (p->declared) {        /* reshaped: a new one beside the program's, which stays */
            for (int k = 2;; k++) {
                snprintf(names[j], sizeof names[j], "%.18s_m%d", p->name, k);
                int taken = u && !name_free(u, names[j]);
                for (int x = 0; x < j && !taken; x++)
                    taken = r->procs[x].unit == p->unit && !strcmp(names[x], names[j]);
                if (!taken)
                    break;
            }
        }
    }
    for (int i = 0; i < r->ndist && !status; i++) {
        const RemapDist *rd = &r->dist[i];
        if (!rd->changed)
            continue;
        Node *u = rd->unit < units.n ? units.v[rd->unit] : NULL;
        const Node *n = u ? find_distribute(u, rd->names[0]) : NULL;
        if (!n || n->loc.line < 1 || n->loc.line > f->nlines) {
            status = src_error(err, errlen, "the DISTRIBUTE of '%s' is not found in the source",
                               rd->names[0]);
            break;
        }
        int l0 = n->loc.line, l1 = n->loc.eline >= l0 ? n->loc.eline : l0;
        for (int k = 0; k < r->ndist; k++) {
            const RemapDist *o = &r->dist[k];
            const Node *m = k != i && o->unit == rd->unit ? find_distribute(u, o->names[0]) : NULL;
            if (m && m != n && m->loc.line <= l1 && m->loc.eline >= l0) {
                status = src_error(err, errlen, "line %d holds the DISTRIBUTE of '%s' and of "
                                   "'%s': write each on a line of its own", l0, rd->names[0],
                                   o->names[0]);
                break;
            }
        }
        if (status)
            break;
        size_t len;
        const char *s = line_text(f, l0, &len);
        long at = word_at(s, len, "distribute");
        if (at < 0) {
            status = src_error(err, errlen, "line %d: the DISTRIBUTE keyword of '%s' is not on "
                               "the directive's first line", l0, rd->names[0]);
            break;
        }
        int upper = isupper((unsigned char)s[at]);
        StrBuf b = {0};
        if (!first && comment)
            remap_put_comment(&b, comment, fixed);
        first = 1;
        size_t dir_start = b.len;
        if (rd->procs >= 0 && !declared[rd->procs]) {
            const RemapProcs *p = &r->procs[rd->procs];
            sb_printf(&b, "%.*s%s %s(", (int)at, s, upper ? "PROCESSORS" : "processors",
                      names[rd->procs]);
            for (int d = 0; d < p->rank; d++) {
                if (d)
                    sb_puts(&b, ", ");
                if (p->ext[d])
                    sb_printf(&b, "%d", p->ext[d]);
                else
                    sb_puts(&b, upper ? "NUMBER_OF_PROCESSORS()" : "number_of_processors()");
            }
            sb_puts(&b, ")\n");
            declared[rd->procs] = 1;
        }
        sb_printf(&b, "%.*s%s ", (int)at, s, upper ? "DISTRIBUTE" : "distribute");
        if (!rd->attributed) {
            put_names(&b, rd, ", ");
            put_fmts(&b, rd, ", ");
        } else {
            put_fmts(&b, rd, ", ");
        }
        if (rd->procs >= 0)
            sb_printf(&b, " %s %s", upper ? "ONTO" : "onto", names[rd->procs]);
        if (rd->attributed) {
            sb_puts(&b, " :: ");
            put_names(&b, rd, ", ");
        }
        sb_putc(&b, '\n');
        if (upper)                /* the directive's spelling: upper case throughout */
            set_case(b.s + dir_start, 1);
        size_t wide = fixed ? past_72(b.s + dir_start) : 0;
        if (wide)
            status = src_error(err, errlen, "the directive for '%s' would be %zu columns "
                               "long, past column 72 of fixed form", rd->names[0], wide);
        free(repl[l0]);
        repl[l0] = b.s;
        for (int l = l0 + 1; l <= l1; l++) {
            free(repl[l]);
            repl[l] = xstrdup("");
        }
    }
    for (int i = 0; i < r->nalign && !status; i++) {
        const RemapAlign *al = &r->align[i];
        Node *u = al->kind && al->unit < units.n ? units.v[al->unit] : NULL;
        if (!u)
            continue;
        const Node *n = find_align(u, al->names[0]);
        if (!n || n->loc.line < 1 || n->loc.line > f->nlines) {
            status = src_error(err, errlen, "the ALIGN of '%s' is not found in the source",
                               al->names[0]);
            break;
        }
        int l0 = n->loc.line, l1 = n->loc.eline >= l0 ? n->loc.eline : l0;
        size_t len;
        const char *s = line_text(f, l0, &len);
        long at = word_at(s, len, "align");
        if (at < 0 || repl[l0]) {
            status = src_error(err, errlen, "line %d: the ALIGN of '%s' %s", l0, al->names[0],
                               at < 0 ? "does not begin on the directive's first line"
                                      : "shares its line with another directive changed");
            break;
        }
        StrBuf b = {0};
        if (!first && comment)
            remap_put_comment(&b, comment, fixed);
        first = 1;
        size_t dir_start = b.len;
        sb_printf(&b, "%.*sALIGN ", (int)at, s);
        put_align(&b, al, 1);
        sb_putc(&b, '\n');
        set_case(b.s + dir_start + at, isupper((unsigned char)s[at]));
        size_t wide = fixed ? past_72(b.s + dir_start) : 0;
        if (wide)
            status = src_error(err, errlen, "the ALIGN of '%s' would be %zu columns long, past "
                               "column 72 of fixed form", al->names[0], wide);
        repl[l0] = b.s;
        for (int l = l0 + 1; l <= l1; l++)
            repl[l] = xstrdup("");
    }
    char *out = NULL;
    if (!status) {
        StrBuf o = {0};
        for (int l = 1; l <= f->nlines; l++) {
            size_t len;
            const char *s = line_text(f, l, &len);
            for (int k = 0; k < nins; k++)
                if (ins[k].before == l)
                    sb_puts(&o, ins[k].text);
            if (l == f->nlines && !len && f->len && f->text[f->len - 1] == '\n')
                break;            /* the empty line after the last line break */
            if (repl[l])
                sb_puts(&o, repl[l]);
            else
                sb_printf(&o, "%.*s\n", (int)len, s);
        }
        if (o.len && f->len && f->text[f->len - 1] != '\n')
            o.s[--o.len] = 0;     /* no line break at the end, as in the program */
        out = o.s ? o.s : xstrdup("");
    }
    for (int l = 0; l <= f->nlines + 1; l++)
        free(repl[l]);
    free(repl);
    free(units.v);
    return out;
}

char *remap_source(const SrcFile *f, const Node *file, const Remap *r, int fixed,
                   const char *comment, char *err, size_t errlen)
{
    return source_under(f, file, r, fixed, comment, NULL, 0, err, errlen);
}

/* Whether unit u declares name DYNAMIC already. */
static int is_dynamic(const Node *u, const char *name)
{
    const PtrVec *body = &u->u.unit.body;
    for (int j = 0; j < body->n; j++) {
        const Node *n = body->v[j];
        if (n->kind != AST_DYNAMIC)
            continue;
        for (int k = 0; k < n->u.list.items.n; k++) {
            const Node *nm = n->u.list.items.v[k];
            if (nm->kind == AST_NAME && !strcmp(nm->u.name.id, name))
                return 1;
        }
    }
    return 0;
}

char *remap_phased_source(const SrcFile *f, const Node *file, const Remap *const *maps,
                          const int *first_line, int nphase, int fixed, const char *comment,
                          char *err, size_t errlen)
{
    const Remap *r0 = maps[0];
    if (r0->ndist != 1) {
        src_error(err, errlen, "the program has %d DISTRIBUTE directives: phases are tried with "
                  "one", r0->ndist);
        return NULL;
    }
    const RemapDist *rd = &r0->dist[0];
    PtrVec units = {0};
    list_units(&units, &file->u.list.items);
    Node *u = rd->unit < units.n ? units.v[rd->unit] : NULL;
    const Node *n = u ? find_distribute(u, rd->names[0]) : NULL;
    char *out = NULL;
    if (!u || u->u.unit.which != UNIT_PROGRAM || !n) {
        src_error(err, errlen, "the DISTRIBUTE of '%s' is not in the main program", rd->names[0]);
        goto done;
    }
    if (rd->attributed || rd->nnames != 1) {
        src_error(err, errlen, "the DISTRIBUTE of '%s' maps several arrays: phases are tried with "
                  "a DISTRIBUTE of one template or array", rd->names[0]);
        goto done;
    }
    size_t len;
    const char *s = line_text(f, n->loc.line, &len);
    long at = word_at(s, len, "distribute");
    if (at < 0) {
        src_error(err, errlen, "line %d: the DISTRIBUTE keyword is not on the directive's first "
                  "line", n->loc.line);
        goto done;
    }
    int upper = isupper((unsigned char)s[at]);
    Insert ins[REMAP_MAX_DIST + 3];
    int nins = 0;
    StrBuf decl = {0};            /* after the DISTRIBUTE: DYNAMIC, the arrangements */
    if (!is_dynamic(u, rd->names[0]))
        sb_printf(&decl, "%.*sDYNAMIC %s\n", (int)at, s, rd->names[0]);
    char pname[REMAP_MAX_DIST][REMAP_NAME_MAX];
    int npn = 0;
    const Remap *prev = r0;
    for (int k = 1; k < nphase && k <= REMAP_MAX_DIST; k++) {
        const Remap *m = maps[k];
        if (remap_equal(m, prev))
            continue;             /* the same mapping as the phase before: nothing to do */
        prev = m;
        const RemapDist *md = &m->dist[0];
        StrBuf b = {0};
        sb_printf(&b, "%.*sREDISTRIBUTE %s", (int)at, s, md->names[0]);
        put_fmts(&b, md, ", ");
        if (md->procs >= 0) {
            const RemapProcs *p = &m->procs[md->procs];
            int ext[MAX_RANK], rank = p->declared ? declared_ext(u, p->name, ext) : -1;
            char name[REMAP_NAME_MAX];
            if (rank == p->rank && !memcmp(ext, p->ext, (size_t)rank * sizeof *ext)) {
                strcpy(name, p->name);
            } else {
                for (int x = 2;; x++) {
                    snprintf(name, sizeof name, "%.18s_r%d", p->name, x);
                    int taken = !name_free(u, name);
                    for (int y = 0; y < npn && !taken; y++)
                        taken = !strcmp(pname[y], name);
                    if (!taken)
                        break;
                }
                strcpy(pname[npn++], name);
                sb_printf(&decl, "%.*sPROCESSORS %s(", (int)at, s, name);
                for (int d = 0; d < p->rank; d++) {
                    if (d)
                        sb_puts(&decl, ", ");
                    if (p->ext[d])
                        sb_printf(&decl, "%d", p->ext[d]);
                    else
                        sb_puts(&decl, "NUMBER_OF_PROCESSORS()");
                }
                sb_puts(&decl, ")\n");
            }
            sb_printf(&b, " ONTO %s", name);
        }
        sb_putc(&b, '\n');
        ins[nins++] = (Insert){first_line[k], b.s};
    }
    if (nins == 0) {
        src_error(err, errlen, "every phase has the same mapping");
        sb_free(&decl);
        goto done;
    }
    ins[nins++] = (Insert){(n->loc.eline >= n->loc.line ? n->loc.eline : n->loc.line) + 1,
                           decl.s ? decl.s : xstrdup("")};
    for (int k = 0; k < nins; k++) {
        char *t = ins[k].text;
        set_case(t, upper);
        /* the sentinel as written: the case change above touched it */
        for (char *c = t; *c;) {
            memcpy(c, s, (size_t)at);
            c += strcspn(c, "\n");
            c += *c == '\n';
        }
        size_t wide = fixed ? past_72(t) : 0;
        if (wide) {
            src_error(err, errlen, "a directive would be %zu columns long, past column 72 of "
                      "fixed form", wide);
            goto free_ins;
        }
    }
    /* the comment before the declarations (ins[] is kept in order: last
       before the same line comes first, so it goes to the front) */
    if (comment) {
        StrBuf c = {0};
        remap_put_comment(&c, comment, fixed);
        memmove(&ins[1], &ins[0], (size_t)nins * sizeof *ins);
        ins[0] = (Insert){ins[nins].before, c.s ? c.s : xstrdup("")};
        nins++;
    }
    out = source_under(f, file, r0, fixed, NULL, ins, nins, err, errlen);
free_ins:
    for (int k = 0; k < nins; k++)
        free(ins[k].text);
done:
    free(units.v);
    return out;
}
