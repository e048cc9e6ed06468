/* sema_decl.c - what a program unit declares: type declarations and
 * their attributes, IMPLICIT, PARAMETER values, array bounds, and the HPF
 * mapping directives (HPF 1.0 chapter 3: PROCESSORS, TEMPLATE, DISTRIBUTE,
 * ALIGN, INHERIT, DYNAMIC). */
#include <config.h>

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sema_int.h"

/* ---- declarations ---- */

Type sema_spec_type(Sema *s, const TypeSpec *sp)
{
    Type t = {(unsigned char)sp->base, sp->base == TY_CHARACTER ? 1 : 4};
    if (sp->dbl)
        t.kind = 8;
    if (sp->kind) {
        long long k;
        sema_expr(s, sp->kind);
        if (!sema_int_const(s, sp->kind, &k) || (k != 4 && k != 8)) {
            diag_error(s->diag, sp->kind->loc, "kind must be the constant 4 or 8");
        } else {
            t.kind = (unsigned char)k;
        }
    }
    if (sp->star && sp->base != TY_CHARACTER) {
        int k = sp->star;
        if (sp->base == TY_COMPLEX)
            k /= 2;
        if (k != 4 && k != 8)
            diag_error(s->diag, sp->loc, "*%d is not a supported kind", sp->star);
        else
            t.kind = (unsigned char)k;
    }
    if (sp->len && sp->len->kind != AST_STAR) {
        sema_expr(s, sp->len);
        if (sp->len->type.base != TY_INTEGER && sp->len->type.base != TY_ERROR)
            diag_error(s->diag, sp->len->loc, "character length must be an integer");
    }
    return t;
}

Symbol *sema_declare(Sema *s, const char *name, Node *where)
{
    Symbol *e = scope_entry(s->scope, name);
    if (e && e->alias) {
        diag_error(s->diag, where->loc, "'%s' is accessible from module '%s' by USE: it cannot "
                   "be declared again here", name, e->alias->module ? e->alias->module->u.unit.id
                                                                     : "?");
        return NULL;
    }
    Symbol *y = scope_lookup_local(s->scope, name);
    if (!y)
        y = scope_add(s->arena, s->scope, name, SYM_VARIABLE, where);
    else if (y->kind == SYM_PROCESSORS || y->kind == SYM_TEMPLATE || y->kind == SYM_PROGRAM) {
        diag_error(s->diag, where->loc, "'%s' is already declared as a %s", name,
                   sym_kind_name(y->kind));
        return NULL;
    }
    return y;
}

/* A main program or a module: its arrays' bounds are constants. */
static int is_program(Sema *s)
{
    int w = s->scope->unit->u.unit.which;
    return w == UNIT_PROGRAM || w == UNIT_MODULE;
}

/* The elements of one array, template or processor arrangement: at most
 * 2^60 (MAX_ELEMENTS), so that its extents, its element offsets and its
 * size in bytes (16 bytes an element at most for the numeric types) fit in
 * 64 bits everywhere the compiler, the run time and the predictor compute
 * with them (doc/limits.md). An array over it is refused with its count;
 * its bounds are then taken as unknown, so that nothing computes with them. */
#define MAX_ELEMENTS (1LL << 60)

static void check_size(Sema *s, Symbol *y, Node *where)
{
    long long count = 1;
    int over = 0;
    for (int d = 0; d < y->rank; d++) {
        if (!y->bounds_known[d] || y->hi[d] < y->lo[d])
            continue;
        long long ext;
        if (__builtin_sub_overflow(y->hi[d], y->lo[d], &ext) || ext >= MAX_ELEMENTS
            || __builtin_mul_overflow(count, ext + 1, &count) || count > MAX_ELEMENTS)
            over = 1;
    }
    if (!over)
        return;
    diag_error(s->diag, where->loc, "'%s' has more than 2^60 elements, the limit of an array, "
               "template or processor arrangement", y->name);
    for (int d = 0; d < y->rank; d++)
        y->bounds_known[d] = 0;
}

/* Array bounds from DIM nodes: constant when they fold. */
void sema_set_dims(Sema *s, Symbol *y, PtrVec *dims, Node *where)
{
    if (!dims->n)
        return;
    if (y->rank) {
        diag_error(s->diag, where->loc, "the dimensions of '%s' are given twice", y->name);
        return;
    }
    if (dims->n > MAX_RANK) {
        diag_error(s->diag, where->loc, "array '%s' has rank %d, more than the maximum of %d",
                   y->name, dims->n, MAX_RANK);
        y->type = (Type){TY_ERROR, 0};
        return;
    }
    y->rank = dims->n;
    for (int d = 0; d < dims->n; d++) {
        Node *dm = dims->v[d];
        y->dims[d] = dm;
        long long lo = 1, hi = 0;
        int klo = 1, khi = 0;
        if (dm->u.dim.lo) {
            sema_expr(s, dm->u.dim.lo);
            klo = sema_int_const(s, dm->u.dim.lo, &lo);
        }
        if (dm->u.dim.hi) {
            sema_expr(s, dm->u.dim.hi);
            khi = sema_int_const(s, dm->u.dim.hi, &hi);
        }
        for (int k = 0; k < 2; k++) {
            Node *b = k ? dm->u.dim.hi : dm->u.dim.lo;
            if (b && b->type.base != TY_ERROR && (b->type.base != TY_INTEGER || b->rank))
                diag_error(s->diag, b->loc, "array bound must be a scalar integer");
        }
        if (dm->u.dim.form == DIM_EXPLICIT && (!klo || !khi) && is_program(s)
            && y->kind == SYM_VARIABLE)
            diag_error(s->diag, dm->loc, "bounds of array '%s' must be constant in a %s "
                       "(use ALLOCATABLE for run-time sizes)", y->name,
                       s->scope->unit->u.unit.which == UNIT_MODULE ? "module" : "main program");
        y->lo[d] = lo;
        y->hi[d] = hi;
        y->bounds_known[d] = dm->u.dim.form == DIM_EXPLICIT && klo && khi;
    }
    check_size(s, y, where);
}

void sema_check_dim_forms(Sema *s, Symbol *y, Node *where)
{
    for (int d = 0; d < y->rank; d++) {
        int form = y->dims[d]->u.dim.form;
        if (form == DIM_DEFERRED && !y->allocatable && !y->dummy)
            diag_error(s->diag, where->loc, "'%s' has deferred shape (:) but is neither "
                       "ALLOCATABLE nor a dummy argument", y->name);
        if (form == DIM_ASSUMED_SIZE && !y->dummy)
            diag_error(s->diag, where->loc, "'%s' has assumed size (*) but is not a dummy "
                       "argument", y->name);
    }
}

/* Whether the known value v can be converted to type t: within the range
 * of t's kind. */
static int fits(Value v, Type t)
{
    double r = v.type.base == TY_INTEGER ? (double)v.i : v.r;
    if (t.base == TY_INTEGER) {
        if (v.type.base == TY_INTEGER)
            return t.kind == 8 || (v.i >= INT32_MIN && v.i <= INT32_MAX);
        if (v.type.base == TY_REAL)
            return t.kind == 8 ? fabs(r) < 0x1p63 : fabs(r) < 0x1p31;
        return 1;
    }
    if (t.base == TY_REAL && (v.type.base == TY_INTEGER || v.type.base == TY_REAL))
        return t.kind == 8 || fabs(r) <= FLT_MAX;
    return 1;
}

static Value convert(Value v, Type t)
{
    if (!v.known)
        return v;
    if (t.base == TY_REAL && v.type.base == TY_INTEGER)
        v.r = (double)v.i;
    else if (t.base == TY_INTEGER && v.type.base == TY_REAL)
        v.i = (long long)v.r;
    v.type = t;
    return v;
}

/* A -D override, parsed as a Fortran constant of the PARAMETER's type. */
static int apply_define(Sema *s, Symbol *y, Node *where)
{
    for (int i = 0; i < s->ndefs; i++) {
        Define *d = &s->defs[i];
        if (strcmp(d->name, y->name) != 0)
            continue;
        d->used = 1;
        int ok = 0, range = 1;
        Value v = {1, y->type, 0, 0};
        if (y->type.base == TY_INTEGER) {
            char *end;
            errno = 0;
            v.i = strtoll(d->value, &end, 10);
            ok = end != d->value && !*end;
            range = errno != ERANGE &&
                    (y->type.kind == 8 || (v.i >= INT32_MIN && v.i <= INT32_MAX));
        } else if (y->type.base == TY_REAL) {
            char *buf = xstrdup(d->value), *end;
            for (char *c = buf; *c; c++)
                if (*c == 'd' || *c == 'D')
                    *c = 'e';
            v.r = strtod(buf, &end);
            ok = end != buf && !*end;
            range = isfinite(v.r) && (y->type.kind == 8 || fabs(v.r) <= FLT_MAX);
            free(buf);
        } else if (y->type.base == TY_LOGICAL) {
            v.i = str_ieq(d->value, ".true.") || str_ieq(d->value, "true");
            ok = v.i || str_ieq(d->value, ".false.") || str_ieq(d->value, "false");
        }
        if (!ok)
            diag_error(s->diag, where->loc, "-D %s=%s: not a valid %s value", d->name, d->value,
                       type_name(y->type));
        else if (!range)
            diag_error(s->diag, where->loc, "-D %s=%s: out of the range of %s", d->name,
                       d->value, type_name(y->type));
        else
            y->value = v;
        return 1;
    }
    return 0;
}

void sema_make_parameter(Sema *s, Symbol *y, Node *init, Node *where)
{
    if (y->kind == SYM_PARAMETER) {
        diag_error(s->diag, where->loc, "PARAMETER '%s' is defined twice", y->name);
        return;
    }
    if (y->rank) {
        diag_error(s->diag, where->loc, "array PARAMETER '%s' is not supported in the HPF subset",
                   y->name);
        return;
    }
    if (!y->typed) {
        if (s->scope->implicit_none) {
            diag_error(s->diag, where->loc, "PARAMETER '%s' has no type (IMPLICIT NONE is in "
                       "effect)", y->name);
            return;
        }
        y->type = s->scope->implicit[y->name[0] - 'a'];
    }
    y->kind = SYM_PARAMETER;
    if (!init) {
        diag_error(s->diag, where->loc, "PARAMETER '%s' needs a value", y->name);
        y->value = (Value){0};
        return;
    }
    sema_expr(s, init);
    if (init->type.base == TY_ERROR)
        return;
    int errors = s->diag->nerrors;
    Value v = sema_fold(s, init);
    int compatible = (is_numeric(y->type) && is_numeric(init->type))
                     || y->type.base == init->type.base;
    if (!compatible) {
        diag_error(s->diag, init->loc, "PARAMETER '%s' of type %s cannot take a %s value",
                   y->name, type_name(y->type), type_name(init->type));
        return;
    }
    if (!v.known && init->type.base != TY_CHARACTER) {
        if (s->diag->nerrors == errors)    /* else folding said why */
            diag_error(s->diag, init->loc, "value of PARAMETER '%s' is not a constant "
                       "expression", y->name);
        return;
    }
    if (v.known && !fits(v, y->type)) {
        diag_error(s->diag, init->loc, "value of PARAMETER '%s' is out of the range of %s",
                   y->name, type_name(y->type));
        return;
    }
    y->value = convert(v, y->type);
    apply_define(s, y, where);
}

void sema_type_decl(Sema *s, Node *n)
{
    Type t = sema_spec_type(s, &n->u.decl.spec);
    int parameter = 0, allocatable = 0, intent = 0, save = 0, external = 0, intrinsic = 0;
    int optional = 0, access = 0;
    PtrVec *adims = NULL;
    for (int i = 0; i < n->u.decl.attrs.n; i++) {
        Node *a = n->u.decl.attrs.v[i];
        switch (a->u.attr.which) {
        case ATTR_PARAMETER: parameter = 1; break;
        case ATTR_DIMENSION: adims = &a->u.attr.dims; break;
        case ATTR_ALLOCATABLE: allocatable = 1; break;
        case ATTR_INTENT: intent = a->u.attr.intent; break;
        case ATTR_SAVE: save = 1; break;
        case ATTR_EXTERNAL: external = 1; break;
        case ATTR_INTRINSIC: intrinsic = 1; break;
        case ATTR_OPTIONAL: optional = 1; break;
        case ATTR_PUBLIC: access = ACCESS_PUBLIC; break;
        case ATTR_PRIVATE: access = ACCESS_PRIVATE; break;
        }
    }
    for (int i = 0; i < n->u.decl.entities.n; i++) {
        Node *en = n->u.decl.entities.v[i];
        Symbol *y = sema_declare(s, en->u.entity.id, en);
        if (!y)
            continue;
        en->u.entity.sym = y;
        if (y->typed) {
            diag_error(s->diag, en->loc, "'%s' has its type declared twice", y->name);
            continue;
        }
        y->typed = 1;
        y->type = t;
        y->allocatable |= allocatable;
        y->save |= save;
        y->external |= external;
        y->intrinsic |= intrinsic;
        if (intent) {
            if (!y->dummy)
                diag_error(s->diag, en->loc, "INTENT given for '%s', which is not a dummy "
                           "argument", y->name);
            y->intent = intent;
        }
        if (access && s->scope->unit->u.unit.which != UNIT_MODULE)
            diag_error(s->diag, en->loc, "PUBLIC and PRIVATE belong in a module");
        y->access = access;
        if (optional) {
            if (!y->dummy)
                diag_error(s->diag, en->loc, "OPTIONAL given for '%s', which is not a dummy "
                           "argument", y->name);
            y->optional = 1;
        }
        if (en->u.entity.len)
            sema_expr(s, en->u.entity.len);
        sema_set_dims(s, y, en->u.entity.dims.n ? &en->u.entity.dims : adims ? adims : &(PtrVec){0},
                 en);
        if (parameter) {
            sema_make_parameter(s, y, en->u.entity.init, en);
        } else if (en->u.entity.init) {
            Node *init = en->u.entity.init;
            sema_expr(s, init);
            int ctor = init->kind == AST_ARRAY_CTOR
                       || (init->kind == AST_REF && init->u.ref.what == REF_INTRINSIC
                           && !strcmp(init->u.ref.id, "reshape")
                           && ((Node *)init->u.ref.args.v[0])->kind == AST_ARRAY_CTOR);
            if (init->type.base != TY_ERROR && !sema_fold(s, init).known
                && !ctor && init->type.base != TY_CHARACTER)
                diag_error(s->diag, init->loc, "initial value of '%s' is not a constant "
                           "expression", y->name);
            y->save = 1;
        }
    }
}

void sema_implicit_stmt(Sema *s, Node *n)
{
    if (n->u.implicit.none) {
        s->scope->implicit_none = 1;
        for (int c = 0; c < 26; c++)
            s->scope->implicit[c] = (Type){TY_NONE, 0};
        return;
    }
    if (s->scope->implicit_none) {
        diag_error(s->diag, n->loc, "IMPLICIT rules after IMPLICIT NONE");
        return;
    }
    for (int i = 0; i < n->u.implicit.rules.n; i++) {
        Node *r = n->u.implicit.rules.v[i];
        Type t = sema_spec_type(s, &r->u.irule.spec);
        for (int c = 0; c < 26; c++)
            if (r->u.irule.letters[c])
                s->scope->implicit[c] = t;
    }
}

/* An integer expression of constants and NUMBER_OF_PROCESSORS() (known at
 * the start of the run): NUMBER_OF_PROCESSORS()/2. */
static int nprocs_expr(const Node *n)
{
    if (!n)
        return 0;
    switch (n->kind) {
    case AST_INT_CONST:
        return 1;
    case AST_NAME:
        return n->u.name.sym && n->u.name.sym->kind == SYM_PARAMETER;
    case AST_PAREN: case AST_UNARY:
        return nprocs_expr(n->u.unary.operand);
    case AST_BINARY:
        return n->u.binary.op != OP_POW && nprocs_expr(n->u.binary.lhs) &&
               nprocs_expr(n->u.binary.rhs);
    case AST_REF:
        if (n->u.ref.what == REF_INTRINSIC && !strcmp(n->u.ref.id, "number_of_processors"))
            return !n->u.ref.args.n;
        if (n->u.ref.what == REF_INTRINSIC && (!strcmp(n->u.ref.id, "max") ||
                                               !strcmp(n->u.ref.id, "min"))) {
            for (int i = 0; i < n->u.ref.args.n; i++)
                if (!nprocs_expr(n->u.ref.args.v[i]))
                    return 0;
            return 1;
        }
        return 0;
    default:
        return 0;
    }
}

/* PROCESSORS and TEMPLATE: names with constant extents (HPF 1.0 3.6, 3.7). */
void sema_mapping_object(Sema *s, Node *n, SymKind kind)
{
    const char *what = kind == SYM_PROCESSORS ? "PROCESSORS" : "TEMPLATE";
    for (int i = 0; i < n->u.list.items.n; i++) {
        Node *en = n->u.list.items.v[i];
        if (scope_lookup_local(s->scope, en->u.entity.id)) {
            diag_error(s->diag, en->loc, "%s '%s': the name is already declared", what,
                       en->u.entity.id);
            continue;
        }
        Symbol *y = scope_add(s->arena, s->scope, en->u.entity.id, kind, en);
        en->u.entity.sym = y;
        y->typed = 1;
        y->type = (Type){TY_NONE, 0};
        if (kind == SYM_TEMPLATE && !en->u.entity.dims.n)
            diag_error(s->diag, en->loc, "TEMPLATE '%s' needs its extents", y->name);
        sema_set_dims(s, y, &en->u.entity.dims, en);
        for (int d = 0; d < y->rank; d++) {
            Node *dm = y->dims[d];
            if (dm->u.dim.form != DIM_EXPLICIT) {
                diag_error(s->diag, dm->loc, "%s '%s' needs explicit extents", what, y->name);
                continue;
            }
            Node *hi = dm->u.dim.hi;
            /* PROCESSORS p(NUMBER_OF_PROCESSORS()/2, 2): fixed at the start */
            int np_only = hi && nprocs_expr(hi);
            if (!y->bounds_known[d] && hi && hi->type.base != TY_ERROR && !np_only
                && (kind == SYM_PROCESSORS || is_program(s)))
                diag_error(s->diag, dm->loc, "%s extent of '%s' must be a constant expression",
                           what, y->name);
            if (y->bounds_known[d] && y->hi[d] < y->lo[d])
                diag_error(s->diag, dm->loc, "%s '%s' has an empty dimension", what, y->name);
        }
    }
}

/* ---- HPF mapping directives ---- */

Symbol *sema_mappable(Sema *s, const char *name, Loc loc, const char *directive)
{
    Symbol *y = scope_lookup_local(s->scope, name);
    if (!y) {
        diag_error(s->diag, loc, "%s: no TEMPLATE or array named '%s' is declared", directive,
                   name);
        return NULL;
    }
    if (y->kind != SYM_TEMPLATE && !(y->kind == SYM_VARIABLE && y->rank)) {
        diag_error(s->diag, loc, "%s: '%s' is a %s, not a TEMPLATE or an array", directive,
                   name, y->kind == SYM_VARIABLE ? "scalar" : sym_kind_name(y->kind));
        return NULL;
    }
    return y;
}

static const char *what_is(const Symbol *y)
{
    return y->kind == SYM_TEMPLATE ? "template" : "array";
}

static int mapped_twice(Sema *s, Symbol *y, Node *dir)
{
    Node *prev = y->align ? y->align : y->distribute;
    if (!prev)
        return 0;
    const char *a = prev->kind == AST_ALIGN ? "aligned" : "distributed";
    const char *b = dir->kind == AST_ALIGN ? "aligned" : "distributed";
    if (!strcmp(a, b))
        diag_error(s->diag, dir->loc, "'%s' is %s twice", y->name, a);
    else
        diag_error(s->diag, dir->loc, "'%s' is both aligned and distributed (an object is "
                   "mapped by one directive)", y->name);
    diag_note(s->diag, prev->loc, "'%s' was %s here", y->name, a);
    return 1;
}

/* REDISTRIBUTE x or REALIGN x: x must have been mapped that way in the
 * specification part (hpfc remaps from a known mapping), and be DYNAMIC
 * (HPF 1.0 requires it; a dialect left it out: taken as DYNAMIC, with a warning). */
static int remappable(Sema *s, Symbol *y, Node *nm, Node *dir)
{
    const char *what = dir->kind == AST_REDISTRIBUTE ? "REDISTRIBUTE" : "REALIGN";
    if (dir->kind == AST_REDISTRIBUTE && y->align) {
        diag_error(s->diag, nm->loc, "REDISTRIBUTE of '%s', which is aligned: redistribute "
                   "what it is aligned with, or REALIGN it", y->name);
        return 0;
    }
    if (dir->kind == AST_REALIGN && y->distribute) {
        diag_error(s->diag, nm->loc, "REALIGN of '%s', which is distributed: REDISTRIBUTE "
                   "it, or ALIGN it in the specification part", y->name);
        return 0;
    }
    if (y->kind == SYM_VARIABLE && !y->align && !y->distribute) {
        diag_error(s->diag, nm->loc, "%s of '%s', which has no %s in the specification part: "
                   "hpfc remaps from a declared mapping (give it one)", what, y->name,
                   dir->kind == AST_REDISTRIBUTE ? "DISTRIBUTE" : "ALIGN");
        return 0;
    }
    if (!y->dynamic) {
        diag_warning(s->diag, nm->loc, "'%s' is not declared DYNAMIC, which HPF requires "
                     "before %s: taken as DYNAMIC (write !HPF$ DYNAMIC %s)", y->name, what,
                     y->name);
        y->dynamic = 1;
    }
    return 1;
}

/* A subscript of REALIGN, an argument of REDISTRIBUTE's BLOCK(k): the
 * lowering uses it wherever the new mapping holds, so it may name only
 * constants and align-dummies. */
static int names_constant(Node *e, void *ctx)
{
    (void)ctx;
    if (e->kind == AST_NAME && e->u.name.sym && e->u.name.sym->kind != SYM_PARAMETER
        && e->u.name.sym->kind != SYM_INDEX)
        return 1;
    if (e->kind == AST_REF)
        return 1;
    return ast_children(e, names_constant, ctx);
}

/* INHERIT x, DISTRIBUTE x * and DISTRIBUTE x *(...) describe dummies. */
int sema_inheriting(Sema *s, Node *nm, const char *what)
{
    Symbol *y = scope_lookup_local(s->scope, nm->u.name.id);
    if (!y || y->kind != SYM_VARIABLE || !y->rank || !y->dummy) {
        diag_error(s->diag, nm->loc, "%s: '%s' is not a dummy array argument", what,
                   nm->u.name.id);
        return 0;
    }
    nm->u.name.sym = y;
    if (y->inherit || y->align || y->distribute) {
        diag_error(s->diag, nm->loc, "'%s' is mapped twice (%s)", y->name, what);
        return 0;
    }
    y->inherit = 1;
    return 1;
}

void sema_distribute(Sema *s, Node *n)
{
    int exec = n->kind == AST_REDISTRIBUTE;
    PtrVec *fmts = &n->u.dist.formats;
    if (n->u.dist.star == DIST_TRANSCRIPTIVE) {
        sema_inheriting(s, n->u.dist.names.v[0], "DISTRIBUTE *");
        return;
    }
    int ndist = 0;
    if (!fmts->n && n->u.dist.names.n) {
        /* DISTRIBUTE t, as other compilers took it: BLOCK in every dimension */
        const Node *nm = n->u.dist.names.v[0];
        const Symbol *y = scope_lookup_local(s->scope, nm->u.name.id);
        for (int d = 0; y && d < y->rank; d++) {
            Node *f = ast_new(s->arena, AST_DIST_FORMAT, n->loc);
            f->u.distfmt.fmt = DIST_BLOCK;
            vec_push(s->arena, fmts, f);
        }
        diag_warning(s->diag, n->loc, "DISTRIBUTE without distribution formats is not HPF: "
                     "taken as BLOCK in every dimension (write DISTRIBUTE %s(BLOCK%s))",
                     nm->u.name.id, y && y->rank > 1 ? ", ..." : "");
    }
    for (int i = 0; i < fmts->n; i++) {
        Node *f = fmts->v[i];
        if (f->u.distfmt.fmt != DIST_STAR)
            ndist++;
        if (f->u.distfmt.arg) {
            long long k = 1;
            sema_expr(s, f->u.distfmt.arg);
            if (f->u.distfmt.arg->type.base != TY_ERROR
                && (!sema_int_const(s, f->u.distfmt.arg, &k) || k < 1)
                && !(k >= 1 && nprocs_expr(f->u.distfmt.arg)))
                diag_error(s->diag, f->u.distfmt.arg->loc, "%s argument must be a positive "
                           "integer constant (or an expression of NUMBER_OF_PROCESSORS())",
                           f->u.distfmt.fmt == DIST_BLOCK ? "BLOCK" : "CYCLIC");
        }
    }
    Symbol *p = NULL;
    if (n->u.dist.onto) {
        p = scope_lookup_local(s->scope, n->u.dist.onto);
        if (!p || p->kind != SYM_PROCESSORS) {
            diag_error(s->diag, n->u.dist.onto_loc, "ONTO '%s': no PROCESSORS arrangement of "
                       "that name", n->u.dist.onto);
            p = NULL;
        } else if (p->rank != ndist) {
            diag_error(s->diag, n->u.dist.onto_loc, "ONTO '%s' has rank %d, but the "
                       "distribution has %d distributed dimension%s", p->name, p->rank, ndist,
                       ndist == 1 ? "" : "s");
            p = NULL;
        }
    }
    /* without ONTO: the default arrangement of rank ndist (the lowering's) */
    for (int i = 0; i < n->u.dist.names.n; i++) {
        Node *nm = n->u.dist.names.v[i];
        Symbol *y = sema_mappable(s, nm->u.name.id, nm->loc, exec ? "REDISTRIBUTE" : "DISTRIBUTE");
        if (!y)
            continue;
        nm->u.name.sym = y;
        if (y->rank != fmts->n) {
            diag_error(s->diag, nm->loc, "%s gives %d format%s for %s '%s' of rank %d",
                       exec ? "REDISTRIBUTE" : "DISTRIBUTE", fmts->n, fmts->n == 1 ? "" : "s",
                       what_is(y), y->name, y->rank);
            continue;
        }
        if (exec ? !remappable(s, y, nm, n) : mapped_twice(s, y, n))
            continue;
        if (n->u.dist.star == DIST_DESCRIPTIVE && !y->dummy) {
            diag_error(s->diag, nm->loc, "DISTRIBUTE %s *(...) describes a dummy argument; "
                       "'%s' is not one", y->name, y->name);
            continue;
        }
        if (!exec)
            y->distribute = n;
        if (!p)
            continue;
        /* BLOCK(k) needs k * P >= N (HPF 1.0 3.3) */
        for (int d = 0, pd = 0; d < fmts->n; d++) {
            Node *f = fmts->v[d];
            if (f->u.distfmt.fmt == DIST_STAR)
                continue;
            long long k, np = p->bounds_known[pd] ? p->hi[pd] - p->lo[pd] + 1 : -1;
            pd++;
            if (f->u.distfmt.fmt == DIST_BLOCK && f->u.distfmt.arg
                && sema_int_const(s, f->u.distfmt.arg, &k) && np > 0 && y->bounds_known[d]) {
                long long extent = y->hi[d] - y->lo[d] + 1;
                if (k * np < extent)
                    diag_error(s->diag, f->loc, "BLOCK(%lld) is too small: %lld processors hold "
                               "%lld of the %lld elements of dimension %d of '%s'", k, np,
                               k * np, extent, d + 1, y->name);
            }
        }
    }
}

/* An align-subscript is affine in at most one align-dummy: a*I+b (HPF 1.0
 * 3.4). Returns 0 if not; *dummy is the dummy used, or NULL. */
static int affine(Node *e, Symbol **dummy)
{
    switch (e->kind) {
    case AST_INT_CONST:
        return 1;
    case AST_REF:         /* NUMBER_OF_PROCESSORS(): known when the run starts */
        return nprocs_expr(e);
    case AST_NAME: {
        Symbol *y = e->u.name.sym;
        if (y && y->kind == SYM_INDEX) {
            if (*dummy && *dummy != y)
                return 0;
            *dummy = y;
        }
        return 1;
    }
    case AST_PAREN:
        return affine(e->u.unary.operand, dummy);
    case AST_UNARY:
        return e->u.unary.op != OP_NOT && affine(e->u.unary.operand, dummy);
    case AST_BINARY: {
        Symbol *l = NULL, *r = NULL;
        if (!affine(e->u.binary.lhs, &l) || !affine(e->u.binary.rhs, &r))
            return 0;
        if (l && r && l != r)
            return 0;
        Op op = e->u.binary.op;
        if (op == OP_MUL && l && r)
            return 0;
        if ((op == OP_DIV || op == OP_POW) && r)
            return 0;
        if ((op == OP_DIV || op == OP_POW) && l)
            return 0;
        if (op != OP_ADD && op != OP_SUB && op != OP_MUL && op != OP_DIV && op != OP_POW)
            return 0;
        if (l || r) {
            if (*dummy && *dummy != (l ? l : r))
                return 0;
            *dummy = l ? l : r;
        }
        return 1;
    }
    default:
        return 0;
    }
}

void sema_align(Sema *s, Node *n)
{
    int exec = n->kind == AST_REALIGN;
    PtrVec *src = &n->u.align.src, *tgt = &n->u.align.tgt;
    if (!src->n && n->u.align.names.n) {
        /* ALIGN WITH t :: a, b (HPF 1.0 leaves the source list out): each
           dimension of the alignees whole, (:, ...) */
        const Node *nm = n->u.align.names.v[0];
        const Symbol *y = scope_lookup_local(s->scope, nm->u.name.id);
        for (int d = 0; y && y->kind == SYM_VARIABLE && d < y->rank; d++)
            vec_push(s->arena, src, ast_new(s->arena, AST_TRIPLET, nm->loc));
        if (tgt->n && !src->n)
            diag_error(s->diag, n->loc, "ALIGN WITH without a source list needs an array");
    }
    Symbol *t = sema_mappable(s, n->u.align.target, n->u.align.target_loc,
                         exec ? "REALIGN WITH" : "ALIGN WITH");
    int ncolon_src = 0, ncolon_tgt = 0;

    /* the align-dummies are local to the directive, like FORALL indices */
    int mark = s->indices.n;
    for (int i = 0; i < src->n; i++) {
        Node *d = src->v[i];
        if (d->kind == AST_TRIPLET)
            ncolon_src++;
        if (d->kind != AST_NAME)
            continue;
        for (int j = mark; j < s->indices.n; j++)
            if (!strcmp(((Symbol *)s->indices.v[j])->name, d->u.name.id))
                diag_error(s->diag, d->loc, "align-dummy '%s' appears twice", d->u.name.id);
        Symbol *y = arena_alloc(s->arena, sizeof *y);
        y->name = d->u.name.id;
        y->kind = SYM_INDEX;
        y->type = (Type){TY_INTEGER, 4};
        d->u.name.sym = y;
        d->type = y->type;
        vec_push(NULL, &s->indices, y);
    }
    if (t && tgt->n && tgt->n != t->rank)
        diag_error(s->diag, n->u.align.target_loc, "ALIGN WITH %s '%s' of rank %d gives %d "
                   "subscript%s", what_is(t), t->name, t->rank, tgt->n, tgt->n == 1 ? "" : "s");
    Symbol *used[MAX_RANK * 2];
    int nused = 0;
    for (int i = 0; i < tgt->n; i++) {
        Node *e = tgt->v[i];
        if (e->kind == AST_STAR)
            continue;
        if (e->kind == AST_TRIPLET) {
            ncolon_tgt++;
            continue;
        }
        sema_expr(s, e);
        if (e->type.base == TY_ERROR)
            continue;
        Symbol *dummy = NULL;
        if (e->type.base != TY_INTEGER || e->rank || !affine(e, &dummy)) {
            diag_error(s->diag, e->loc, "align subscript must be an integer of the form "
                       "a*I+b in one align-dummy");
            continue;
        }
        if (exec && names_constant(e, NULL)) {
            diag_error(s->diag, e->loc, "a REALIGN subscript may use only constants and "
                       "the align-dummy (hpfc uses the alignment until the next REALIGN)");
            continue;
        }
        for (int j = 0; j < nused; j++)
            if (dummy && used[j] == dummy)
                diag_error(s->diag, e->loc, "align-dummy '%s' is used in two subscripts",
                           dummy->name);
        if (dummy && nused < MAX_RANK * 2)
            used[nused++] = dummy;
    }
    s->indices.n = mark;
    if (tgt->n && ncolon_src != ncolon_tgt)
        diag_error(s->diag, n->loc, "ALIGN has %d ':' in the source but %d in the target",
                   ncolon_src, ncolon_tgt);

    for (int i = 0; i < n->u.align.names.n; i++) {
        Node *nm = n->u.align.names.v[i];
        Symbol *y = scope_lookup_local(s->scope, nm->u.name.id);
        if (!y || y->kind != SYM_VARIABLE || !y->rank) {
            diag_error(s->diag, nm->loc, "ALIGN: '%s' is not a declared array", nm->u.name.id);
            continue;
        }
        nm->u.name.sym = y;
        if (src->n != y->rank) {
            diag_error(s->diag, nm->loc, "ALIGN gives %d source subscript%s for array '%s' of "
                       "rank %d", src->n, src->n == 1 ? "" : "s", y->name, y->rank);
            continue;
        }
        if (t && !tgt->n && t->rank != y->rank)
            diag_error(s->diag, n->u.align.target_loc, "ALIGN '%s' (rank %d) WITH '%s' (rank %d) "
                       "needs subscripts", y->name, y->rank, t->name, t->rank);
        if (t == y) {
            diag_error(s->diag, nm->loc, "array '%s' is aligned with itself", y->name);
            continue;
        }
        if (exec ? !remappable(s, y, nm, n) : mapped_twice(s, y, n))
            continue;
        if (!exec)
            y->align = n;
    }
}
