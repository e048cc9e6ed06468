/* fi.c - the functional interpreter of hpfpredict (fi.h): storage, frames,
 * the statements of procedures it runs itself, the causes of unknown
 * values and their report, and its life. What the engine asks statement by
 * statement (fi_exec, fi_space, fi_refs, fi_eval) is in fi_exec.c.
 *
 * Design. The program is run with its sequential semantics on the SPMD IR:
 * every array is held whole with its declared bounds (the mapping plays no
 * part), subscripts are the global ones the lowering keeps in SpRef.sub.
 * Every element has a known flag: a variable never assigned, or read when
 * the input had no data, is unknown, and so is anything computed from it.
 * A value that is unknown carries a cause (the READ, or the declaration of
 * the variable never assigned), propagated through assignments, so that
 * fi_missing can name the variable the user must give with -D.
 *
 * A statement is evaluated once as a whole (fi_expr.c): the expression
 * tree is walked once with a vector of values per node, one per point of
 * the FORALL's iteration space; a mask compacts the points, an inline
 * reduction expands them by its trips. fi_space and fi_refs answer with
 * the same machinery, without storing anything.
 *
 * Frames: one per activation of a unit; a dummy argument bound to a
 * variable, an array or an element is a view of the actual's storage
 * (sequence association), a section or an expression is copied in (and a
 * section copied back out). Variables of the host are found through the
 * frame of the host's activation. SAVE variables and blank COMMON live
 * outside the frames. Functions called in expressions and the procedures
 * they call are run here, control flow included; CALL statements of the
 * engine's walk come through fi_enter/fi_leave. */
#include <config.h>

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fi_int.h"
#include "../runtime/hpfmap.h"

enum { MAX_DEPTH = 200 };        /* procedure calls evaluated by fi, nested */

/* ---- budget and messages ---- */

int fi_step(Fi *fi, long n)
{
    if (fi->stopped)
        return 0;
    fi->steps += n;
    if (fi->steps > fi->max_steps) {
        fi->stopped = 1;
        return 0;
    }
    return 1;
}

void fi_error_once(Fi *fi, const void *key, Loc loc, const char *fmt, ...)
{
    fi->errors++;
    if (ptrmap_get(&fi->reported, key))
        return;
    ptrmap_put(&fi->reported, key, (void *)1);
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(fi->d, DIAG_ERROR, loc, fmt, ap);
    va_end(ap);
}

Loc fi_loc(Fi *fi, const Node *e)
{
    return e && e->loc.line ? e->loc : fi->cur;
}

/* ---- what the declarations of a unit say ---- */

typedef struct {
    const Symbol *sym;
    const Node *init;             /* the entity's initial value */
    const Node *len;              /* CHARACTER length */
    int common;                   /* its COMMON place (Symbol.common), from 1; 0: none */
} VarInfo;

typedef struct {
    PtrVec vars;                  /* VarInfo: the unit's variables */
    const Symbol *result;         /* a function's result variable */
} UnitInfo;

static VarInfo *var_info(UnitInfo *ui, const Symbol *y)
{
    for (int i = 0; i < ui->vars.n; i++)
        if (((VarInfo *)ui->vars.v[i])->sym == y)
            return ui->vars.v[i];
    return NULL;
}

static UnitInfo *unit_info(Fi *fi, const SpUnit *u)
{
    UnitInfo *ui = ptrmap_get(&fi->units, u);
    if (ui)
        return ui;
    ui = arena_alloc(fi->a, sizeof *ui);
    ptrmap_put(&fi->units, u, ui);
    for (int i = 0; i < u->scope->symbols.n; i++) {
        const Symbol *y = u->scope->symbols.v[i];
        if (y->kind != SYM_VARIABLE)
            continue;
        VarInfo *vi = arena_alloc(fi->a, sizeof *vi);
        vi->sym = y;
        vec_push(fi->a, &ui->vars, vi);
    }
    const PtrVec *body = &u->unit->u.unit.body;
    for (int i = 0; i < body->n; i++) {
        const Node *n = body->v[i];
        if (n->kind == AST_TYPE_DECL) {
            for (int k = 0; k < n->u.decl.entities.n; k++) {
                const Node *en = n->u.decl.entities.v[k];
                VarInfo *vi = var_info(ui, en->u.entity.sym);
                if (!vi)
                    continue;
                vi->init = en->u.entity.init;
                vi->len = en->u.entity.len ? en->u.entity.len : n->u.decl.spec.len;
            }
        } else if (n->kind == AST_COMMON_STMT) {
            for (int k = 0; k < n->u.list.items.n; k++) {
                const Node *en = n->u.list.items.v[k];
                VarInfo *vi = var_info(ui, en->u.entity.sym);
                if (vi)
                    vi->common = en->u.entity.sym->common;   /* its place (sema) */
            }
        }
    }
    const Node *un = u->unit;
    if (un->u.unit.which == UNIT_FUNCTION)
        ui->result = scope_lookup_local(u->scope, un->u.unit.result ? un->u.unit.result
                                                                    : un->u.unit.id);
    return ui;
}

/* ---- storage ---- */

static int same_type_store(const Store *s, Type t)
{
    return s->t.base == t.base && s->t.kind == t.kind;
}

/* Zero-filled store data. A large block is mapped on its own: the pages a
 * run never touches cost nothing (from the heap, calloc clears them all).
 * Bit `bit` of s->mapped says which way it came. */
enum { STORE_MAP_MIN = 1 << 16 };

static void *store_zalloc(Store *s, int bit, size_t n, size_t size)
{
#ifdef MAP_ANONYMOUS
    if (n * size >= STORE_MAP_MIN) {
        void *p = mmap(NULL, n * size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
            s->mapped |= 1u << bit;
            return p;
        }
    }
#endif
    return calloc(n, size);        /* NULL: fi_store_alloc gives up */
}

/* What the stores of the process hold, against the machine's memory: the
 * functional interpreter holds every array whole (doc/limits.md). One
 * count for the process: its interpreters run one after another. */
static size_t held_bytes, memory_limit;

static size_t memory_bytes(void)
{
    if (memory_limit)
        return memory_limit;
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (size_t)pages * (size_t)size : SIZE_MAX;
}

void fi_limit_memory(size_t bytes)
{
    memory_limit = bytes;
}

/* Bytes an element takes: its value and its known flag. */
static size_t elem_bytes(Type t)
{
    return (t.base == TY_COMPLEX ? 2 * sizeof(double) : t.base == TY_CHARACTER ? sizeof(char *)
            : t.base == TY_REAL ? sizeof(double) : sizeof(long long)) + 1;
}

void fi_too_large(Fi *fi, const Store *s, Loc where)
{
    char n[64] = "more than 2^63 elements";
    if (s->n > 0)
        snprintf(n, sizeof n, "%ld elements (%.3g GB)", s->n,
                 (double)s->n * (double)elem_bytes(s->t) / 1e9);
    fi_error_once(fi, s, where, "the functional interpreter cannot hold '%s', of %s: it holds "
                  "every array whole, within %s (%.3g GB)", s->name, n,
                  memory_limit ? "its memory limit" : "the machine's memory",
                  (double)memory_bytes() / 1e9);
    fi->stopped = 2;
}

static void store_zfree(Store *s, int bit, void *p, size_t size)
{
#ifdef MAP_ANONYMOUS
    if (p && (s->mapped >> bit & 1)) {
        munmap(p, (size_t)(s->n ? s->n : 1) * size);
        return;
    }
#endif
    free(p);
}

int fi_store_alloc(Store *s)
{
    long n = 1;
    int over = 0;
    for (int d = 0; d < s->rank; d++)
        over |= __builtin_mul_overflow(n, s->ext[d] > 0 ? (long)s->ext[d] : 0, &n);
    size_t bytes;
    over |= __builtin_mul_overflow((size_t)(n > 0 ? n : 1), elem_bytes(s->t), &bytes);
    s->n = over ? -1 : n;
    s->mapped = 0;
    if (over || held_bytes + bytes > memory_bytes())
        return 0;
    size_t m = (size_t)(n ? n : 1);
    switch (s->t.base) {
    case TY_REAL:
        s->r = store_zalloc(s, 1, m, sizeof *s->r);
        break;
    case TY_COMPLEX:
        s->r = store_zalloc(s, 1, m, sizeof *s->r);
        s->im = store_zalloc(s, 2, m, sizeof *s->im);
        break;
    case TY_CHARACTER:
        s->s = calloc(m, sizeof *s->s);
        break;
    default:
        s->i = store_zalloc(s, 0, m, sizeof *s->i);
        break;
    }
    s->k = store_zalloc(s, 3, m, 1);    /* nothing known yet */
    int got = s->k && (s->t.base == TY_CHARACTER ? s->s != NULL : s->t.base == TY_COMPLEX
                       ? s->r && s->im : s->t.base == TY_REAL ? s->r != NULL : s->i != NULL);
    s->allocated = 1;
    if (!got) {                    /* what was allocated goes back */
        fi_store_release(s);
        s->n = n;
        return 0;
    }
    s->bytes = bytes;
    held_bytes += bytes;
    return 1;
}

void fi_store_release(Store *s)
{
    if (s->home != s)
        return;
    if (s->s)
        for (long p = 0; p < s->n; p++)
            free(s->s[p]);
    store_zfree(s, 0, s->i, sizeof *s->i);
    store_zfree(s, 1, s->r, sizeof *s->r);
    store_zfree(s, 2, s->im, sizeof *s->im);
    free(s->s);
    store_zfree(s, 3, s->k, 1);
    held_bytes -= s->bytes;
    s->bytes = 0;
    s->mapped = 0;
    s->i = NULL;
    s->r = s->im = NULL;
    s->s = NULL;
    s->k = NULL;
    s->allocated = 0;
}

static void store_free(Store *s)
{
    if (!s)
        return;
    fi_store_release(s);
    free(s);
}

static Store *store_new(Fi *fi, const char *name, const Symbol *y, Type t, int rank,
                        const long long *lo, const long long *ext)
{
    Vec probe = fv_new(t, 1);     /* the normalized type */
    Store *s = xcalloc(1, sizeof *s);
    s->name = name;
    s->sym = y;
    s->t = probe.t;
    fv_free(&probe);
    s->rank = rank;
    s->home = s;
    if (!lo)
        return s;                 /* allocatable: no storage yet */
    for (int d = 0; d < rank; d++) {
        s->lo[d] = lo[d];
        s->ext[d] = ext[d] > 0 ? ext[d] : 0;
    }
    if (!fi_store_alloc(s))
        fi_too_large(fi, s, y && y->decl ? y->decl->loc : fi->cur);
    return s;
}

/* A view of n elements of home's storage from element off on, with its
 * own bounds (a dummy argument). */
static Store *store_view(const char *name, const Symbol *y, Store *home, long off, int rank,
                         const long long *lo, const long long *ext)
{
    home = home->home;
    Store *s = xcalloc(1, sizeof *s);
    s->name = name;
    s->sym = y;
    s->t = home->t;
    s->rank = rank;
    s->home = home;
    long n = 1;
    for (int d = 0; d < rank; d++) {
        s->lo[d] = lo[d];
        s->ext[d] = ext[d] > 0 ? ext[d] : 0;
        n *= (long)s->ext[d];
    }
    if (off > home->n)
        off = home->n;
    s->n = n < home->n - off ? n : home->n - off;
    s->i = home->i ? home->i + off : NULL;
    s->r = home->r ? home->r + off : NULL;
    s->im = home->im ? home->im + off : NULL;
    s->s = home->s ? home->s + off : NULL;
    s->k = home->k ? home->k + off : NULL;
    s->allocated = 1;
    return s;
}

static int store_has_unknown(const Store *s)
{
    if (!s->allocated)
        return 0;
    for (long p = 0; p < s->n; p++)
        if (!s->k[p])
            return 1;
    return 0;
}

/* Element off of s = v[p] (v of s's type); ignored when s is held. */
void fi_put(Fi *fi, Store *s, long off, const Vec *v, long p, const Cause *cause)
{
    Store *h = s->home;
    if (h->held || off < 0 || off >= s->n)
        return;
    fi->version++;
    p = v->n == 1 ? 0 : p;
    if (!fv_known(v, p)) {
        s->k[off] = 0;
        h->cause = cause;
        h->cause_set = 1;
        return;
    }
    switch (s->t.base) {
    case TY_REAL:
        s->r[off] = v->r[p];
        break;
    case TY_COMPLEX:
        s->r[off] = v->r[p];
        s->im[off] = v->im[p];
        break;
    case TY_CHARACTER: {
        const char *x = v->s[p] ? v->s[p] : "";
        free(s->s[off]);
        if (h->charlen > 0) {
            /* assigned to a CHARACTER(len): truncated or blank-padded */
            size_t n = (size_t)h->charlen, l = strlen(x);
            s->s[off] = xmalloc(n + 1);
            memset(s->s[off], ' ', n);
            memcpy(s->s[off], x, l < n ? l : n);
            s->s[off][n] = 0;
        } else {
            s->s[off] = xstrdup(x);
        }
        break;
    }
    default:
        s->i[off] = v->i[p];
        break;
    }
    s->k[off] = 1;
}

void fi_put_all_unknown(Fi *fi, Store *s, const Cause *cause)
{
    Vec u = fv_unknown(s->t);
    for (long q = 0; q < s->n; q++)
        fi_put(fi, s, q, &u, 0, cause);
    fv_free(&u);
}

const FiDefine *fi_find_def(const Fi *fi, const char *name)
{
    for (int i = 0; i < fi->o.ndefs; i++)
        if (!strcmp(fi->o.defs[i].name, name))
            return &fi->o.defs[i];
    return NULL;
}

/* -D NAME=VALUE for a variable: every element holds the value. */
void fi_hold(Fi *fi, Store *s, const FiDefine *def)
{
    Vec v = fv_new(s->t, 1);
    s->home->held = 0;
    if (!def->value) {
        /* held unknown (--trips): its assignments ignored, and what it
           decides is not known */
        fv_set_unknown(&v, 0);
        for (long q = 0; q < s->n; q++)
            fi_put(fi, s, q, &v, 0, NULL);
        s->home->held = 1;
        fv_free(&v);
        return;
    }
    if (!fi_parse_literal(def->value, s->t, &v, 0)) {
        diag_error(fi->d, s->sym && s->sym->decl ? s->sym->decl->loc : fi->cur,
                   "-D %s=%s: not a valid %s value%s", def->name, def->value, type_name(s->t),
                   fi_literal_range(s->t));
        fv_free(&v);
        return;
    }
    for (long q = 0; q < s->n; q++)
        fi_put(fi, s, q, &v, 0, NULL);
    s->home->held = 1;
    fv_free(&v);
}

long long fi_frame_int(Fi *fi, Frame *fr, const Node *e, int *known)
{
    Ctx c;
    fi_ctx_init(&c, fr);
    Vec v = fi_ev(fi, &c, e);
    fv_convert(&v, T_I8);
    long long x = v.i[0];
    *known = fv_known(&v, 0);
    fv_free(&v);
    return x;
}

/* The declared bounds of y, evaluated in fr; 0 when one is not known. */
static int decl_bounds(Fi *fi, Frame *fr, const Symbol *y, long long *lo, long long *ext)
{
    int ok = 1;
    for (int d = 0; d < y->rank; d++) {
        const Node *dm = y->dims[d];
        if (y->bounds_known[d]) {
            lo[d] = y->lo[d];
            ext[d] = y->hi[d] - y->lo[d] + 1;
            continue;
        }
        int k1 = 1, k2 = 1;
        lo[d] = dm && dm->u.dim.lo ? fi_frame_int(fi, fr, dm->u.dim.lo, &k1) : 1;
        long long hi = dm && dm->u.dim.hi ? fi_frame_int(fi, fr, dm->u.dim.hi, &k2) : 0;
        if (!k1 || !k2 || !dm || !dm->u.dim.hi) {
            fi_missing(fi, dm && dm->u.dim.hi ? dm->u.dim.hi : dm, fi->cur_line,
                       "the bounds of an array");
            ok = 0;
            ext[d] = 0;
            continue;
        }
        ext[d] = hi - lo[d] + 1;
    }
    return ok;
}

/* The storage of variable y of frame fr's unit (or of an index or other
 * symbol of no unit), made on first use: SAVE variables of procedures and
 * blank COMMON outside the frame, initial values applied, -D held. */
static Store *var_new(Fi *fi, Frame *fr, const Symbol *y)
{
    /* a module's variable: one for the program, declared in the module */
    const SpUnit *home = fr->unit;
    for (int i = 0; y->module && i < fi->prog->units.n; i++)
        if (((const SpUnit *)fi->prog->units.v[i])->unit == y->module)
            home = fi->prog->units.v[i];
    VarInfo *vi = var_info(unit_info(fi, home), y);
    int persistent = y->module || (!fr->unit->main && (y->save || (vi && vi->init)));
    Store *s = NULL;
    if (vi && vi->common && vi->common <= fi->commons.n) {
        s = fi->commons.v[vi->common - 1];
        Vec probe = fv_new(y->type, 1);
        if (s && (!same_type_store(s, probe.t) || s->rank != y->rank))
            s = NULL;
        fv_free(&probe);
    } else if (persistent) {
        s = ptrmap_get(&fi->saved, y);
    }
    if (s) {
        ptrmap_put(&fr->vars, y, s);
        return s;
    }
    long long lo[MAX_RANK], ext[MAX_RANK];
    if (y->allocatable) {
        s = store_new(fi, y->name, y, y->type, y->rank, NULL, NULL);
        s->allocatable = 1;
    } else {
        decl_bounds(fi, fr, y, lo, ext);
        s = store_new(fi, y->name, y, y->type, y->rank, lo, ext);
    }
    if (vi && vi->len && vi->len->kind != AST_STAR) {
        int k;
        long long len = fi_frame_int(fi, fr, vi->len, &k);
        s->charlen = k && len > 0 ? (int)len : 0;
    }
    if (vi && vi->common) {
        while (fi->commons.n < vi->common)
            vec_push(NULL, &fi->commons, NULL);
        if (!fi->commons.v[vi->common - 1])
            fi->commons.v[vi->common - 1] = s;
        else
            vec_push(NULL, &fr->owned, s);
    } else if (persistent) {
        ptrmap_put(&fi->saved, y, s);
        vec_push(NULL, &fi->saved_list, s);
    } else {
        vec_push(NULL, &fr->owned, s);
    }
    ptrmap_put(&fr->vars, y, s);
    const FiDefine *def = y->dummy ? NULL : fi_find_def(fi, y->name);
    if (def && s->allocated) {
        fi_hold(fi, s, def);
    } else if (vi && vi->init && s->allocated) {
        /* the initial value: a scalar for every element, or one each */
        Ctx c;
        fi_ctx_init(&c, fr);
        int rank;
        long long e[MAX_RANK];
        Vec v = fi_array(fi, &c, vi->init, &rank, e);
        fv_convert(&v, s->t);
        for (long q = 0; q < s->n; q++)
            if (v.n == 1 || q < v.n)
                fi_put(fi, s, q, &v, v.n == 1 ? 0 : q, NULL);
        fv_free(&v);
    }
    return s;
}

Store *fi_var(Fi *fi, Frame *fr, const Symbol *y)
{
    Store *s = ptrmap_get(&fr->vars, y);
    if (s)
        return s;
    for (Frame *h = fr->host; h; h = h->host)
        if (scope_lookup_local(h->unit->scope, y->name) == y) {
            s = fi_var(fi, h, y);
            ptrmap_put(&fr->vars, y, s);
            return s;
        }
    return var_new(fi, fr, y);
}

Store *fi_temp_by_id(Fi *fi, Frame *fr, int id)
{
    if (id < 1 || id > fr->ntemps)
        return NULL;
    if (!fr->temps[id]) {
        const SpTemp *t = fr->unit->temps.v[id - 1];
        char *name = arena_printf(fi->a, "%st%d", fi->prog->prefix, id);
        fr->temps[id] = store_new(fi, name, NULL, t->type, 0, (long long[1]){0}, NULL);
    }
    return fr->temps[id];
}

Store *fi_temp(Fi *fi, Frame *fr, const char *name)
{
    size_t n = strlen(fi->prog->prefix);
    if (strncmp(name, fi->prog->prefix, n) || name[n] != 't' || !name[n + 1])
        return NULL;
    char *end;
    long id = strtol(name + n + 1, &end, 10);
    return *end ? NULL : fi_temp_by_id(fi, fr, (int)id);
}

/* A replicated temporary array, allocated with its bounds when it is
 * first used without its SP_ALLOC. */
Store *fi_tarr_of(Fi *fi, Frame *fr, const SpArr *t, int alloc)
{
    Store *s = ptrmap_get(&fr->tarrs, t);
    if (!s) {
        s = store_new(fi, t->name, NULL, t->type, t->rank, NULL, NULL);
        ptrmap_put(&fr->tarrs, t, s);
        vec_push(NULL, &fr->owned, s);
    }
    if (alloc || !s->allocated) {
        long long lo[MAX_RANK], ext[MAX_RANK];
        int ok = 1;
        for (int d = 0; d < t->rank; d++) {
            int k1, k2;
            lo[d] = fi_frame_int(fi, fr, t->lo[d], &k1);
            ext[d] = fi_frame_int(fi, fr, t->hi[d], &k2) - lo[d] + 1;
            if (!k1 || !k2) {
                fi_missing(fi, k1 ? t->hi[d] : t->lo[d], fi->cur_line, "the size of an array");
                ok = 0;
            }
        }
        fi_store_release(s);
        if (ok) {
            for (int d = 0; d < t->rank; d++) {
                s->lo[d] = lo[d];
                s->ext[d] = ext[d] > 0 ? ext[d] : 0;
            }
            if (!fi_store_alloc(s))
                fi_too_large(fi, s, fi->cur);
        }
    }
    return s;
}

Store *fi_tarr(Fi *fi, Frame *fr, const Node *ref)
{
    const SpRef *r = ref->kind == AST_REF && ref->ir && ref->u.ref.what != REF_INTRINSIC
                     ? ref->ir : NULL;
    const SpArr *t = r && r->arr && !r->arr->sym ? r->arr : NULL;
    const char *id = ref->kind == AST_REF ? ref->u.ref.id : ref->u.name.id;
    for (int i = 0; !t && i < fr->unit->temp_arrs.n; i++) {
        const SpArr *a = fr->unit->temp_arrs.v[i];
        if (!strcmp(a->name, id))
            t = a;
    }
    return t ? fi_tarr_of(fi, fr, t, 0) : NULL;
}

Store *fi_ref_store(Fi *fi, Frame *fr, const Node *ref)
{
    const Symbol *y = ref->kind == AST_REF ? ref->u.ref.sym : ref->u.name.sym;
    if (y && (y->kind == SYM_VARIABLE || y->kind == SYM_INDEX))
        return fi_var(fi, fr, y);
    return y ? NULL : fi_tarr(fi, fr, ref);
}

/* ---- causes of unknown values ---- */

const Cause *fi_cause_of(Fi *fi, Store *s)
{
    Store *h = s->home;
    if (h->cause_set)
        return h->cause;
    if (!h->sym)
        return NULL;
    Cause *c = arena_alloc(fi->a, sizeof *c);
    c->name = h->sym->name;
    c->loc = h->sym->decl ? h->sym->decl->loc : fi->cur;
    h->cause = c;
    h->cause_set = 1;
    return c;
}

typedef struct {
    Fi *fi;
    Frame *fr;
    PtrVec *out;
} Causes;

static void add_cause(Causes *cs, Store *s)
{
    if (!s || !store_has_unknown(s))
        return;
    const Cause *c = fi_cause_of(cs->fi, s);
    for (int i = 0; c && i < cs->out->n; i++)
        if (cs->out->v[i] == c)
            return;
    if (c)
        vec_push(NULL, cs->out, (void *)c);
}

static int causes_visit(Node *e, void *ctx)
{
    Causes *cs = ctx;
    if (e->kind == AST_NAME) {
        const Symbol *y = e->u.name.sym;
        if (!y)
            add_cause(cs, fi_temp(cs->fi, cs->fr, e->u.name.id));
        else if (y->kind == SYM_VARIABLE)
            add_cause(cs, fi_var(cs->fi, cs->fr, y));
        return 0;
    }
    if (e->kind == AST_REF && e->u.ref.what == REF_INTRINSIC && e->ir) {
        const SpRed *sr = e->ir;
        causes_visit(sr->n, ctx);
        causes_visit(sr->body, ctx);
        if (sr->mask)
            causes_visit(sr->mask, ctx);
        return 0;
    }
    if (e->kind == AST_REF && (e->u.ref.what == REF_ELEMENT || e->u.ref.what == REF_SECTION))
        add_cause(cs, fi_ref_store(cs->fi, cs->fr, e));
    ast_children(e, causes_visit, ctx);
    return 0;
}

static void collect_causes(Fi *fi, Frame *fr, const Node *e, PtrVec *out)
{
    Causes cs = {fi, fr, out};
    if (e)
        causes_visit((Node *)e, &cs);
}

const Cause *fi_find_cause(Fi *fi, Frame *fr, const Node *e)
{
    PtrVec v = {0};
    collect_causes(fi, fr, e, &v);
    const Cause *c = v.n ? v.v[0] : NULL;
    free(v.v);
    return c;
}

/* ---- frames ---- */

static Frame *frame_new(Fi *fi, const SpUnit *u)
{
    Frame *f = xcalloc(1, sizeof *f);
    f->unit = u;
    f->ntemps = u->temps.n;
    f->temps = xcalloc((size_t)f->ntemps + 1, sizeof *f->temps);
    for (Frame *h = fi->top; h && u->host; h = h->caller)
        if (h->unit == u->host) {
            f->host = h;
            break;
        }
    return f;
}

/* The unit's own variables, made when the activation starts (Fortran
 * evaluates the bounds of automatic arrays then); dummies are bound first. */
static void frame_locals(Fi *fi, Frame *f)
{
    UnitInfo *ui = unit_info(fi, f->unit);
    for (int i = 0; i < ui->vars.n; i++) {
        const VarInfo *vi = ui->vars.v[i];
        if (!vi->sym->dummy && !ptrmap_get(&f->vars, vi->sym))
            var_new(fi, f, vi->sym);
    }
}

typedef struct {
    Store *actual;
    long *off;                    /* off[q]: where dummy element q goes */
    long n;
    Store *dummy;
} CopyOut;

static void frame_free(Fi *fi, Frame *f)
{
    for (int i = 0; i < f->copyout.n; i++) {
        CopyOut *co = f->copyout.v[i];
        Vec v = fv_new(co->dummy->t, 1);
        for (long q = 0; q < co->n && q < co->dummy->n; q++) {
            fi_get(co->dummy, q, &v, 0);
            fi_put(fi, co->actual, co->off[q], &v, 0, co->dummy->home->cause);
        }
        fv_free(&v);
        free(co->off);
        free(co);
    }
    free(f->copyout.v);
    for (int i = 0; i < f->owned.n; i++)
        store_free(f->owned.v[i]);
    free(f->owned.v);
    for (int i = 0; i <= f->ntemps; i++)
        store_free(f->temps[i]);
    free(f->temps);
    ptrmap_free(&f->vars);
    ptrmap_free(&f->tarrs);
    free(f);
}

static const Node *actual_for(const Node *call, const Node *unit, int i)
{
    const Node *dn = unit->u.unit.args.v[i];
    for (int k = 0; k < call->u.ref.args.n; k++) {
        const Node *a = call->u.ref.args.v[k];
        if (a->kind == AST_KEYWORD_ARG) {
            if (dn->kind == AST_NAME && !strcmp(a->u.kwarg.id, dn->u.name.id))
                return a->u.kwarg.value;
        } else if (k == i) {
            return a;
        }
    }
    return NULL;
}

/* A dummy that takes a copy of the value (an expression, or an actual of
 * another type). */
static void bind_copy(Fi *fi, Frame *f, const Symbol *y, const Node *a, const Vec *v, int rank,
                      const long long *lo, const long long *ext)
{
    Store *s = store_new(fi, y->name, y, y->type, rank, lo, ext);
    Vec w = fv_new(v->t, v->n);
    for (long q = 0; q < v->n; q++) {
        if (!fv_known(v, q))
            fv_set_unknown(&w, q);
        else if (w.i)
            w.i[q] = v->i[q];
        if (w.r)
            w.r[q] = v->r[q];
        if (w.im)
            w.im[q] = v->im[q];
        if (w.s && v->s[q])
            w.s[q] = xstrdup(v->s[q]);
    }
    fv_convert(&w, s->t);
    if (w.n != 1 && s->n > w.n)    /* the elements past the actual's stay unknown */
        fi_error_once(fi, y, fi_loc(fi, a), "the dummy argument '%s' has %ld elements, "
                      "its actual argument %ld", y->name, s->n, w.n);
    for (long q = 0; q < s->n && (w.n == 1 || q < w.n); q++)
        fi_put(fi, s, q, &w, w.n == 1 ? 0 : q, NULL);
    fv_free(&w);
    vec_push(NULL, &f->owned, s);
    ptrmap_put(&f->vars, y, s);
}

/* Dummy y of the callee's frame f bound to the actual argument a,
 * evaluated in the caller's context cc (one point). */
static void bind_one(Fi *fi, Frame *f, const Symbol *y, const Node *a, Ctx *cc)
{
    Vec probe = fv_new(y->type, 1);
    Type yt = probe.t;
    fv_free(&probe);
    long long lo[MAX_RANK], ext[MAX_RANK];
    const Symbol *ay = a->kind == AST_NAME ? a->u.name.sym
                       : a->kind == AST_REF && a->u.ref.what != REF_FUNCTION
                         && a->u.ref.what != REF_INTRINSIC ? a->u.ref.sym : NULL;
    Store *as = NULL;
    if (a->kind == AST_NAME && !ay)
        as = fi_temp(fi, cc->fr, a->u.name.id);
    else if (ay && (ay->kind == SYM_VARIABLE || (ay->kind == SYM_INDEX && !fi_ctx_lookup(cc, ay))))
        as = fi_var(fi, cc->fr, ay);
    else if (a->kind == AST_REF && !ay && a->u.ref.what != REF_FUNCTION
             && a->u.ref.what != REF_INTRINSIC)
        as = fi_tarr(fi, cc->fr, a);
    if (as && !same_type_store(as, yt))
        as = NULL;
    if (!y->rank) {
        if (as && a->kind == AST_NAME && !as->rank) {
            ptrmap_put(&f->vars, y, as);
            return;
        }
        if (as && a->kind == AST_REF && !a->rank) {
            long *off = NULL, n;
            if (fi_offsets(fi, cc, a, as, &off, &n) && n == 1 && off[0] >= 0) {
                Store *v = store_view(y->name, y, as, off[0], 0, lo, ext);
                vec_push(NULL, &f->owned, v);
                ptrmap_put(&f->vars, y, v);
                free(off);
                return;
            }
            free(off);
        }
        Vec v = fi_ev(fi, cc, a);
        bind_copy(fi, f, y, a, &v, 0, lo, ext);
        fv_free(&v);
        return;
    }
    /* an array dummy: its bounds, the actual's shape where assumed */
    long long aext[MAX_RANK];
    int arank = fi_shape(fi, cc, a, aext);
    long avail = 1;
    for (int d = 0; d < arank; d++)
        avail *= aext[d] > 0 ? (long)aext[d] : 0;
    long off0 = 0;
    int whole = as && a->kind == AST_NAME && as->rank;
    int element = as && a->kind == AST_REF && !a->rank && as->rank;
    if (element) {
        long *off = NULL, n;
        if (fi_offsets(fi, cc, a, as, &off, &n) && n == 1 && off[0] >= 0)
            off0 = off[0];
        else
            element = 0;
        free(off);
        avail = as->n - off0;
    }
    long before = 1;
    for (int d = 0; d < y->rank; d++) {
        const Node *dm = y->dims[d];
        int k = 1;
        lo[d] = dm->u.dim.lo ? fi_frame_int(fi, f, dm->u.dim.lo, &k) : 1;
        if (dm->u.dim.form == DIM_DEFERRED) {
            ext[d] = d < arank ? aext[d] : 0;
        } else if (dm->u.dim.form == DIM_ASSUMED_SIZE) {
            ext[d] = before ? avail / before : 0;
        } else {
            int k2;
            ext[d] = fi_frame_int(fi, f, dm->u.dim.hi, &k2) - lo[d] + 1;
            k &= k2;
        }
        if (!k) {
            fi_missing(fi, dm->u.dim.hi ? dm->u.dim.hi : dm->u.dim.lo, fi->cur_line,
                       "the bounds of a dummy array");
            ext[d] = 0;
        }
        before *= ext[d] > 0 ? (long)ext[d] : 0;
    }
    if (whole || element) {
        Store *v = store_view(y->name, y, as, off0, y->rank, lo, ext);
        vec_push(NULL, &f->owned, v);
        ptrmap_put(&f->vars, y, v);
        return;
    }
    /* a section or an expression: copied in, and a section copied back */
    int rank;
    long long e[MAX_RANK];
    Vec v = fi_array(fi, cc, a, &rank, e);
    bind_copy(fi, f, y, a, &v, y->rank, lo, ext);
    fv_free(&v);
    Store *sec = a->kind == AST_REF && ay && ay->kind == SYM_VARIABLE ? fi_var(fi, cc->fr, ay) : NULL;
    long *off, n;
    if (sec && fi_offsets(fi, cc, a, sec, &off, &n)) {
        CopyOut *co = xcalloc(1, sizeof *co);
        co->actual = sec;
        co->off = off;
        co->n = n;
        co->dummy = ptrmap_get(&f->vars, y);
        vec_push(NULL, &f->copyout, co);
    }
}

static void bind_args(Fi *fi, Frame *f, const SpUnit *u, const Node *call, Ctx *cc)
{
    const Node *un = u->unit;
    /* scalars first: array bounds may use them */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < un->u.unit.args.n; i++) {
            const Node *dn = un->u.unit.args.v[i];
            const Symbol *y = dn->kind == AST_NAME ? dn->u.name.sym : NULL;
            if (!y || (y->rank > 0) != pass)
                continue;
            const Node *a = call ? actual_for(call, un, i) : NULL;
            if (a) {
                bind_one(fi, f, y, a, cc);
            } else {
                long long lo[MAX_RANK] = {0}, ext[MAX_RANK] = {0};
                Store *s = store_new(fi, y->name, y, y->type, y->rank, lo, ext);
                s->absent = 1;
                vec_push(NULL, &f->owned, s);
                ptrmap_put(&f->vars, y, s);
            }
        }
}

/* The alignment offsets of passed dummies whose actuals' are known at run
 * time only (SpArr.bvar): the actual's, evaluated where the call is. */
static void bind_betas(Fi *fi, Frame *f, const SpUnit *u, const Node *call, Ctx *cc)
{
    for (int i = 0; call && i < u->passed.n; i++) {
        const SpArr *r = u->passed.v[i];
        const Node *a = r->dummy <= call->u.ref.args.n ? call->u.ref.args.v[r->dummy - 1] : NULL;
        const SpRef *ir = a ? a->ir : NULL;
        for (int d = 0; ir && ir->arr && d < r->rank; d++) {
            if (!r->bvar[d])
                continue;
            Vec v = fi_ev(fi, cc, ir->arr->beta[d]);
            fv_convert(&v, (Type){TY_INTEGER, 4});
            fi_put(fi, fi_var(fi, f, r->bvar[d]), 0, &v, 0, NULL);
            fv_free(&v);
        }
    }
}

void fi_enter(Fi *fi, const SpUnit *unit, const Node *call)
{
    Ctx cc;
    fi_ctx_init(&cc, fi->top);
    Frame *f = frame_new(fi, unit);
    bind_args(fi, f, unit, call, &cc);
    frame_locals(fi, f);
    bind_betas(fi, f, unit, call, &cc);
    f->caller = fi->top;
    fi->top = f;
    fi->version++;
}

void fi_leave(Fi *fi)
{
    Frame *f = fi->top;
    if (f == fi->main)
        return;
    fi->top = f->caller;
    frame_free(fi, f);
    fi->version++;
}

/* ---- statements of the procedures fi runs itself ---- */

enum { FLOW_NEXT, FLOW_EXIT, FLOW_CYCLE, FLOW_GOTO, FLOW_RETURN, FLOW_STOP, FLOW_ERROR };

static int exec_list(Fi *fi, const PtrVec *v, int *label);

const SpUnit *fi_find_unit(Fi *fi, const SpUnit *from, const char *name)
{
    return spmd_unit_named(fi->prog, from, name);
}

/* A procedure of the file run to its end: a new frame, the dummies bound
 * in the caller's context c (one point), the body with its control flow;
 * out (functions) gets the result. 0 when it could not be run. */
int fi_call(Fi *fi, Ctx *c, const Node *call, const SpUnit *unit, Vec *out)
{
    if (fi->depth >= MAX_DEPTH) {
        fi_error_once(fi, unit, fi_loc(fi, call), "procedure calls nested more than %d deep: "
                      "the functional interpreter stops there", MAX_DEPTH);
        if (out)
            *out = fv_unknown(call->type);
        return 0;
    }
    Frame *saved_top = fi->top;
    fi->top = c->fr;
    Frame *f = frame_new(fi, unit);
    bind_args(fi, f, unit, call, c);
    frame_locals(fi, f);
    bind_betas(fi, f, unit, call, c);
    f->caller = fi->top;
    fi->top = f;
    fi->depth++;
    Loc saved_cur = fi->cur;
    int saved_line = fi->cur_line, label = 0;
    int flow = exec_list(fi, &unit->body, &label);
    fi->depth--;
    fi->cur = saved_cur;
    fi->cur_line = saved_line;
    int ok = flow != FLOW_ERROR && !fi->stopped;
    if (out) {
        const Symbol *r = unit_info(fi, unit)->result;
        Store *s = r ? fi_var(fi, f, r) : NULL;
        if (s && ok) {
            *out = fv_new(s->t, 1);
            fi_get(s, 0, out, 0);
        } else {
            *out = fv_unknown(s ? s->t : call->type);
        }
    }
    fi->top = saved_top;
    frame_free(fi, f);
    fi->version++;
    return ok;
}

static int call_stmt(Fi *fi, const Node *n)
{
    Ctx cc;
    fi_ctx_init(&cc, fi->top);
    const SpUnit *u = fi_find_unit(fi, fi->top->unit, n->u.ref.id);
    if (u)
        return fi_call(fi, &cc, n, u, NULL) ? FLOW_NEXT : FLOW_ERROR;
    fi_call_external(fi, &cc, n, (Type){TY_NONE, 0}, NULL);
    return fi->stopped ? FLOW_ERROR : FLOW_NEXT;
}

/* A condition or bound of the callee's control flow: unknown stops it. */
static int control_int(Fi *fi, const Node *e, int line, const char *what, long long *v)
{
    int k;
    *v = fi_frame_int(fi, fi->top, e, &k);
    if (!k)
        fi_missing(fi, e, line, what);
    return k;
}

static void set_var(Fi *fi, const Node *var, long long v)
{
    if (var && var->kind == AST_NAME && var->u.name.sym)
        fi_set_int(fi, var->u.name.sym, v);
}

/* After a loop body: 1 to go on with the loop, 0 to leave it (*flow says
 * how). A GOTO to the loop's END DO label goes on. */
static int loop_flow(int *flow, int label, int end_label)
{
    if (*flow == FLOW_GOTO && end_label && label == end_label)
        *flow = FLOW_NEXT;
    if (*flow == FLOW_CYCLE)
        *flow = FLOW_NEXT;
    if (*flow == FLOW_EXIT) {
        *flow = FLOW_NEXT;
        return 0;
    }
    return *flow == FLOW_NEXT;
}

static int exec_stmt(Fi *fi, const SpStmt *s, int *label)
{
    if (!fi_step(fi, 1))
        return FLOW_ERROR;
    fi_at(fi, s);
    switch (s->kind) {
    case SP_SEQ:
        switch (s->u.seq->kind) {
        case AST_EXIT: return FLOW_EXIT;
        case AST_CYCLE: return FLOW_CYCLE;
        case AST_RETURN: return FLOW_RETURN;
        case AST_CONTINUE: return FLOW_NEXT;
        case AST_GOTO:
            *label = s->u.seq->u.jump.target;
            return FLOW_GOTO;
        case AST_CALL:
            return call_stmt(fi, s->u.seq);
        default:
            break;
        }
        return fi_exec(fi, s) < 0 ? FLOW_ERROR : FLOW_NEXT;
    case SP_DO: {
        long long lo, hi, st = 1;
        const char *what = "the bounds of a DO loop";
        if (!control_int(fi, s->u.do_.lo, s->line, what, &lo)
            || !control_int(fi, s->u.do_.hi, s->line, what, &hi)
            || (s->u.do_.st && !control_int(fi, s->u.do_.st, s->line, what, &st)))
            return FLOW_ERROR;
        if (!st) {
            fi_error_once(fi, s, s->loc, "DO loop with a zero step");
            return FLOW_ERROR;
        }
        long long trips = hpfmap_trip(lo, hi, st);
        int flow = FLOW_NEXT;
        for (long long t = 0; t < trips; t++) {
            set_var(fi, s->u.do_.var, lo + t * st);
            flow = exec_list(fi, &s->u.do_.body, label);
            if (!loop_flow(&flow, *label, s->u.do_.end_label))
                return flow;
        }
        set_var(fi, s->u.do_.var, lo + (trips > 0 ? trips : 0) * st);
        return FLOW_NEXT;
    }
    case SP_WHILE:
        for (;;) {
            int flow = exec_list(fi, &s->u.while_.pre, label);
            if (flow != FLOW_NEXT)
                return flow;
            if (s->u.while_.cond) {
                long long c;
                if (!control_int(fi, s->u.while_.cond, s->line,
                                 "the condition of a DO WHILE loop", &c))
                    return FLOW_ERROR;
                if (!c)
                    return FLOW_NEXT;
            }
            flow = exec_list(fi, &s->u.while_.body, label);
            if (!loop_flow(&flow, *label, s->u.while_.end_label))
                return flow;
            if (!fi_step(fi, 1))
                return FLOW_ERROR;
        }
    case SP_IF:
        for (int i = 0; i < s->u.if_.branches.n; i++) {
            const SpBranch *b = s->u.if_.branches.v[i];
            int flow = exec_list(fi, &b->pre, label);
            if (flow != FLOW_NEXT)
                return flow;
            long long c = 1;
            if (b->cond && !control_int(fi, b->cond, s->line, "the condition of an IF", &c))
                return FLOW_ERROR;
            if (c)
                return exec_list(fi, &b->body, label);
        }
        return FLOW_NEXT;
    case SP_STOP:
        return FLOW_STOP;
    case SP_RETURN:
        return FLOW_RETURN;
    default:
        return fi_exec(fi, s) < 0 ? FLOW_ERROR : FLOW_NEXT;
    }
}

static int exec_list(Fi *fi, const PtrVec *v, int *label)
{
    for (int i = 0; i < v->n; i++) {
        int flow = exec_stmt(fi, v->v[i], label);
        if (flow == FLOW_GOTO) {
            int j = 0;
            while (j < v->n && ((const SpStmt *)v->v[j])->label != *label)
                j++;
            if (j < v->n) {
                i = j - 1;
                continue;
            }
        }
        if (flow != FLOW_NEXT)
            return flow;
    }
    return FLOW_NEXT;
}

/* ---- missing values ---- */

typedef struct {
    const Cause *cause;
    int line;
    char *what;
    Loc loc;
} Missing;

static int first_loc_visit(Node *e, void *ctx)
{
    Loc *l = ctx;
    if (e->loc.line) {
        *l = e->loc;
        return 1;
    }
    return ast_children(e, first_loc_visit, ctx);
}

void fi_missing(Fi *fi, const Node *e, int line, const char *what)
{
    if (fi->stopped || !e)
        return;
    PtrVec causes = {0};
    collect_causes(fi, fi->top, e, &causes);
    Loc loc = {0};
    first_loc_visit((Node *)e, &loc);
    if (!causes.n && !fi->missing.n) {
        /* no variable of the program behind it (a FORALL index outside its
           loop's space): nothing the user can give, but said all the same
           (unless values already missing explain it: the extent of an array
           allocated with unknown bounds) */
        Missing *m = xcalloc(1, sizeof *m);
        m->line = line;
        m->what = xstrdup(what ? what : "the prediction");
        m->loc = loc.line ? loc : fi->cur;
        vec_push(NULL, &fi->missing, m);
    }
    for (int i = 0; i < causes.n; i++) {
        const Cause *c = causes.v[i];
        int seen = 0;
        for (int k = 0; k < fi->missing.n && !seen; k++)
            seen = ((Missing *)fi->missing.v[k])->cause == c;
        if (seen)
            continue;
        Missing *m = xcalloc(1, sizeof *m);
        m->cause = c;
        m->line = line;
        m->what = xstrdup(what ? what : "the prediction");
        m->loc = loc;
        vec_push(NULL, &fi->missing, m);
    }
    free(causes.v);
}

void fi_missing_space(Fi *fi, const SpLoop *loop, int line)
{
    PtrVec causes = {0};
    if (loop->mask)
        collect_causes(fi, fi->top, loop->mask, &causes);
    if (!causes.n)
        fi_missing(fi, loop->idx[0].hi, line, "a FORALL bound");
    if (loop->mask)
        fi_missing(fi, loop->mask, line, "a mask");
    free(causes.v);
}

int fi_report(Fi *fi, Diag *d)
{
    int n = 0;
    for (int i = 0; i < fi->missing.n; i++) {
        Missing *m = fi->missing.v[i];
        const Cause *c = m->cause;
        if (!c) {
            diag_error(d, m->loc, "%s at line %d cannot be computed by the functional "
                       "interpreter: it varies with a FORALL index, which hpfpredict does not "
                       "support there", m->what, m->line);
            free(m->what);
            free(m);
            n++;
            continue;
        }
        char at[32] = "";
        if (m->line)
            snprintf(at, sizeof at, " at line %d", m->line);
        diag_error(d, m->loc.line ? m->loc : c->loc, "value of '%s' needed for %s%s is "
                   "not known; give it with -D %s=VALUE%s", c->name, m->what,
                   at, c->name, c->by ? "" : " or --input FILE");
        if (c->by)
            diag_note(d, c->loc, "'%s' is set by %s at line %d: a value the predictor "
                      "takes as an unknown input", c->name, c->by, c->line);
        else if (c->line)
            diag_note(d, c->loc, "'%s' is read at line %d, and the input has no data for it",
                      c->name, c->line);
        else
            diag_note(d, c->loc, "'%s' is never given a value", c->name);
        free(m->what);
        free(m);
        n++;
    }
    fi->missing.n = 0;
    if (fi->stopped == 1) {
        diag_error(d, fi->cur, "functional interpretation stopped after %lld steps; raise "
                   "--max-steps or give the values with -D", fi->steps);
        n++;
    }
    return n;
}

int fi_nmissing(const Fi *fi)
{
    return fi->missing.n;
}

int fi_stopped(const Fi *fi)
{
    return fi->stopped;
}

int fi_spend(Fi *fi, long long steps)
{
    if (fi->stopped || steps > fi->max_steps - fi->steps)
        return 0;
    fi->steps += steps;
    return 1;
}

int fi_charge(Fi *fi, long long steps)
{
    return fi_step(fi, steps > LONG_MAX ? LONG_MAX : (long)steps);
}

long long fi_steps(const Fi *fi)
{
    return fi->steps;
}

/* ---- life ---- */

/* A -D name that is neither a PARAMETER (sema applied those) nor a
 * variable of any unit is probably a mistake. */
static void check_defines(Fi *fi)
{
    const PtrVec *us = &fi->prog->units;
    for (int i = 0; i < fi->o.ndefs; i++) {
        const char *name = fi->o.defs[i].name;
        int found = 0;
        for (int k = 0; k < us->n && !found; k++) {
            const Symbol *y = scope_lookup_local(((const SpUnit *)us->v[k])->scope, name);
            found = y && (y->kind == SYM_VARIABLE || y->kind == SYM_PARAMETER);
        }
        if (!found) {
            Loc l = {0};
            if (us->n)
                l.file = ((const SpUnit *)us->v[0])->unit->loc.file;
            diag_warning(fi->d, l, "-D %s: no PARAMETER or variable of that name", name);
        }
    }
}

Fi *fi_new(const FiOptions *o, Diag *d)
{
    Fi *fi = xcalloc(1, sizeof *fi);
    fi->o = *o;
    fi->d = d;
    fi->prog = o->prog;
    fi->a = arena_new("fi");
    fi->max_steps = o->max_steps > 0 ? o->max_steps : 1000000000LL;
    fi->nprocs = 1;
    if (!fi_ffi_open(fi) || (o->input && !fi_input_load(fi, o->input))) {
        fi_free(fi);
        return NULL;
    }
    check_defines(fi);
    const SpUnit *main = NULL;
    for (int i = 0; i < fi->prog->units.n && !main; i++)
        if (((const SpUnit *)fi->prog->units.v[i])->main)
            main = fi->prog->units.v[i];
    if (!main && fi->prog->units.n)
        main = fi->prog->units.v[0];
    if (!main) {
        diag_error(d, (Loc){0}, "no program unit to interpret");
        fi_free(fi);
        return NULL;
    }
    fi->main = frame_new(fi, main);
    fi->top = fi->main;
    fi->cur = main->unit->loc;
    frame_locals(fi, fi->main);
    return fi;
}

int fi_run(Fi *fi, void (*visit)(void *arg, const SpStmt *s), void *arg)
{
    fi->visit = visit;
    fi->visit_arg = arg;
    int label = 0;
    int flow = exec_list(fi, &fi->main->unit->body, &label);
    fi->visit = NULL;
    return flow == FLOW_ERROR || fi->stopped ? -1 : 0;
}

void fi_free(Fi *fi)
{
    if (!fi)
        return;
    while (fi->top && fi->top != fi->main)
        fi_leave(fi);
    if (fi->main)
        frame_free(fi, fi->main);
    for (int i = 0; i < fi->saved_list.n; i++)
        store_free(fi->saved_list.v[i]);
    free(fi->saved_list.v);
    ptrmap_free(&fi->saved);
    for (int i = 0; i < fi->commons.n; i++)
        store_free(fi->commons.v[i]);
    free(fi->commons.v);
    ptrmap_free(&fi->reported);
    for (int i = 0; i < fi->reported_names.n; i++)
        free(fi->reported_names.v[i]);
    free(fi->reported_names.v);
    ptrmap_free(&fi->units);
    for (int i = 0; i < fi->missing.n; i++) {
        free(((Missing *)fi->missing.v[i])->what);
        free(fi->missing.v[i]);
    }
    free(fi->missing.v);
    free(fi->in);
    ptrmap_free(&fi->reads);
    for (int i = 0; i < fi->retired.n; i++)
        free(fi->retired.v[i]);
    free(fi->retired.v);
    fi_ffi_free(fi);
    for (int k = 0; k < fi->space.nidx; k++)
        free(fi->space.idx[k]);
    fv_free(&fi->space.mask);
    for (int k = 0; k < MAX_RANK + MAX_RANK; k++)
        free(fi->sp_idx[k]);
    free(fi->sp_mask);
    free(fi->rf_point);
    for (int d = 0; d < MAX_RANK; d++)
        free(fi->rf_sub[d]);
    free(fi->eval_str);
    arena_free(fi->a);
    free(fi);
}
