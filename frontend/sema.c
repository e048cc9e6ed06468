/* sema.c - semantic analysis of program units: symbol tables, labels and
 * GOTO, statement checks (DO, FORALL index scoping, WHERE, I/O), program
 * units, modules and USE. Declarations and the HPF mapping directives are
 * in sema_decl.c, expressions in sema_expr.c. */
#include <config.h>

#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "sema_int.h"

static void check_body(Sema *s, PtrVec *body);
static void check_stmt(Sema *s, Node *n);

/* ---- labels and GOTO ---- */

typedef struct {
    int label;
    Node *stmt;
} LabelDef;

typedef struct {
    Sema *s;
    LabelDef *defs;
    int ndefs, cap;
} Labels;

static void add_label(Labels *L, int label, Node *n)
{
    for (int i = 0; i < L->ndefs; i++)
        if (L->defs[i].label == label) {
            diag_error(L->s->diag, n->loc, "label %d is defined twice", label);
            diag_note(L->s->diag, L->defs[i].stmt->loc, "first defined here");
        }
    if (L->ndefs == L->cap) {
        L->cap = L->cap ? L->cap * 2 : 16;
        L->defs = xrealloc(L->defs, (size_t)L->cap * sizeof *L->defs);
    }
    L->defs[L->ndefs++] = (LabelDef){label, n};
}

static int collect_labels(Node *n, void *ctx)
{
    Labels *L = ctx;
    if (!ast_is_stmt(n->kind) && n->kind != AST_IF_BRANCH && n->kind != AST_WHERE_BRANCH)
        return 0;
    if (n->label)
        add_label(L, n->label, n);
    ast_children(n, collect_labels, ctx);
    if (n->close_label)     /* END DO, END IF ...: after the construct's body */
        add_label(L, n->close_label, n);
    return 0;
}

/* The statement lists around a GOTO, innermost first, with the construct
 * each belongs to (NULL: the unit's body). */
typedef struct JumpScope {
    const PtrVec *list;
    const Node *owner;
    const struct JumpScope *up;
} JumpScope;

/* Whether a GOTO in sc may jump to label: a statement of its own list or
 * of a list around it, the END of a construct around it, or the statement
 * ending a DO loop around it (Fortran 95 8.2: no branch into a block).
 * Forward and backward alike: the SPMD program keeps the GOTO, and the
 * interpreters resume in the innermost list holding the label. */
static int jump_visible(const JumpScope *sc, int label)
{
    for (; sc; sc = sc->up) {
        for (int i = 0; i < sc->list->n; i++)
            if (((const Node *)sc->list->v[i])->label == label)
                return 1;
        const Node *o = sc->owner;
        if (o && (o->close_label == label
                  || ((o->kind == AST_DO || o->kind == AST_DO_WHILE)
                      && o->u.loop.end_label == label)))
            return 1;
    }
    return 0;
}

static void check_jumps(Labels *L, const PtrVec *list, const Node *owner, const JumpScope *up)
{
    JumpScope sc = {list, owner, up};
    for (int i = 0; i < list->n; i++) {
        Node *n = list->v[i];
        if (n->kind == AST_LOGICAL_IF)
            n = n->u.lif.stmt;
        switch (n->kind) {
        case AST_GOTO: {
            int target = n->u.jump.target, def = -1;
            for (int j = 0; j < L->ndefs && def < 0; j++)
                if (L->defs[j].label == target)
                    def = j;
            if (def < 0 && target)
                diag_error(L->s->diag, n->loc, "label %d is not defined in this program unit",
                           target);
            else if (def >= 0 && !jump_visible(&sc, target)) {
                diag_error(L->s->diag, n->loc, "GOTO %d jumps into a block (a DO loop, IF or "
                           "SELECT CASE construct the GOTO is not in), which Fortran forbids",
                           target);
                diag_note(L->s->diag, L->defs[def].stmt->loc, "label %d is here", target);
            }
            break;
        }
        case AST_DO: case AST_DO_WHILE:
            check_jumps(L, &n->u.loop.body, n, &sc);
            break;
        case AST_IF:
            for (int b = 0; b < n->u.cond.branches.n; b++)
                check_jumps(L, &((Node *)n->u.cond.branches.v[b])->u.branch.body, n, &sc);
            break;
        default:
            break;
        }
    }
}

static void check_labels(Sema *s, Node *unit)
{
    Labels L = {.s = s};
    for (int i = 0; i < unit->u.unit.body.n; i++)
        collect_labels(unit->u.unit.body.v[i], &L);
    check_jumps(&L, &unit->u.unit.body, NULL, NULL);
    free(L.defs);
}

/* ---- statements ---- */

static int is_spec(Node *n)
{
    switch (n->kind) {
    case AST_TYPE_DECL: case AST_PARAMETER_STMT: case AST_DIMENSION_STMT:
    case AST_ALLOCATABLE_STMT: case AST_SAVE_STMT: case AST_EXTERNAL_STMT:
    case AST_INTRINSIC_STMT: case AST_COMMON_STMT: case AST_IMPLICIT:
    case AST_PROCESSORS: case AST_TEMPLATE: case AST_DISTRIBUTE: case AST_ALIGN:
    case AST_DYNAMIC: case AST_INHERIT: case AST_PUBLIC_STMT: case AST_PRIVATE_STMT:
        return 1;
    default:
        return 0;
    }
}

static void scalar_logical(Sema *s, Node *e, const char *what)
{
    sema_expr(s, e);
    if (e->type.base == TY_ERROR)
        return;
    if (e->type.base != TY_LOGICAL || e->rank)
        diag_error(s->diag, e->loc, "%s must be a scalar logical expression, not %s%s", what,
                   e->rank ? "an array of " : "", type_name(e->type));
}

static void scalar_int(Sema *s, Node *e, const char *what)
{
    sema_expr(s, e);
    if (e->type.base == TY_ERROR)
        return;
    if (e->type.base != TY_INTEGER || e->rank)
        diag_error(s->diag, e->loc, "%s must be a scalar integer expression, not %s%s", what,
                   e->rank ? "an array of " : "", type_name(e->type));
}

static Symbol *variable_of(const Node *lhs)
{
    if (lhs->kind == AST_NAME)
        return lhs->u.name.sym;
    if (lhs->kind == AST_REF && (lhs->u.ref.what == REF_ELEMENT || lhs->u.ref.what == REF_SECTION))
        return lhs->u.ref.sym;
    return NULL;
}

static void check_lhs(Sema *s, Node *lhs, const char *what)
{
    sema_expr(s, lhs);
    if (lhs->type.base == TY_ERROR)
        return;
    if (lhs->kind == AST_REF && lhs->u.ref.what == REF_SUBSTRING) {
        diag_error(s->diag, lhs->loc, "cannot %s the substring '%s(...)': a substring on the "
                   "left is not supported in the HPF subset (assign the whole variable, "
                   "built with //)", what, lhs->u.ref.id);
        return;
    }
    Symbol *y = variable_of(lhs);
    if (lhs->kind == AST_INT_CONST || lhs->kind == AST_REAL_CONST ||
        lhs->kind == AST_LOGICAL_CONST || lhs->kind == AST_STRING_CONST) {
        diag_error(s->diag, lhs->loc, "cannot %s '%s': not a variable", what,
                   lhs->u.konst.text);
        return;
    }
    if (lhs->kind != AST_NAME && lhs->kind != AST_REF) {
        diag_error(s->diag, lhs->loc, "cannot %s an expression: a variable is needed", what);
        return;
    }
    if (!y || y->kind != SYM_VARIABLE) {
        const char *name = lhs->kind == AST_NAME ? lhs->u.name.id : lhs->u.ref.id;
        if (y && y->kind == SYM_PARAMETER)
            diag_error(s->diag, lhs->loc, "cannot %s PARAMETER '%s': it is a named constant",
                       what, name);
        else if (y && y->kind == SYM_INDEX)
            diag_error(s->diag, lhs->loc, "cannot %s '%s': it is a FORALL or implied-DO index",
                       what, name);
        else
            diag_error(s->diag, lhs->loc, "cannot %s '%s': not a variable", what, name);
        return;
    }
    y->assigned = 1;
}

static void check_assign(Sema *s, Node *n, const Node *mask)
{
    Node *lhs = n->u.assign.lhs, *rhs = n->u.assign.rhs;
    check_lhs(s, lhs, "assign to");
    sema_expr(s, rhs);
    if (lhs->type.base == TY_ERROR || rhs->type.base == TY_ERROR)
        return;
    Type lt = lhs->type, rt = rhs->type;
    if (!(is_numeric(lt) && is_numeric(rt)) && lt.base != rt.base) {
        diag_error(s->diag, n->loc, "cannot assign a %s value to a %s variable", type_name(rt),
                   type_name(lt));
        return;
    }
    if (!lhs->rank && rhs->rank) {
        diag_error(s->diag, n->loc, "an array of rank %d is assigned to a scalar", rhs->rank);
        return;
    }
    if (lhs->rank && rhs->rank && lhs->rank != rhs->rank) {
        diag_error(s->diag, n->loc, "rank mismatch in array assignment: the left side has "
                   "rank %d, the right side rank %d", lhs->rank, rhs->rank);
        return;
    }
    if (lhs->rank && rhs->rank)
        for (int d = 0; d < lhs->rank; d++)
            if (lhs->extent[d] >= 0 && rhs->extent[d] >= 0 && lhs->extent[d] != rhs->extent[d]) {
                diag_error(s->diag, n->loc, "shapes do not conform in array assignment: extent "
                           "%lld on the left, %lld on the right (dimension %d)",
                           lhs->extent[d], rhs->extent[d], d + 1);
                return;
            }
    if (mask) {
        if (!lhs->rank)
            diag_error(s->diag, lhs->loc, "assignment in WHERE must be to an array");
        else if (mask->rank != lhs->rank)
            diag_error(s->diag, n->loc, "WHERE mask has rank %d, the assignment rank %d",
                       mask->rank, lhs->rank);
        else
            for (int d = 0; d < lhs->rank; d++)
                if (lhs->extent[d] >= 0 && mask->extent && mask->extent[d] >= 0
                    && lhs->extent[d] != mask->extent[d]) {
                    diag_error(s->diag, n->loc, "assignment does not conform with the WHERE "
                               "mask (extents %lld and %lld)", lhs->extent[d], mask->extent[d]);
                    break;
                }
    }
}

/* A FORALL bound may not use an index of its own header (F95 7.5.4.1). */
typedef struct {
    Sema *s;
    PtrVec *indices;
} SameHeader;

static int uses_own_index(Node *e, void *ctx)
{
    SameHeader *h = ctx;
    if (e->kind == AST_NAME)
        for (int i = 0; i < h->indices->n; i++) {
            Node *f = h->indices->v[i];
            if (!strcmp(f->u.findex.id, e->u.name.id)) {
                diag_error(h->s->diag, e->loc, "FORALL bound uses '%s', an index of the same "
                           "FORALL header", e->u.name.id);
                return 1;
            }
        }
    return ast_children(e, uses_own_index, ctx);
}

static void check_forall(Sema *s, Node *n)
{
    int mark = s->indices.n;
    PtrVec *ix = &n->u.forall.indices;
    if (ix->n > MAX_RANK) {
        diag_error(s->diag, ((Node *)ix->v[MAX_RANK])->loc, "a FORALL of %d indices: the "
                   "HPF subset takes %d at most (as many as an array has dimensions)", ix->n,
                   MAX_RANK);
        return;
    }
    for (int i = 0; i < ix->n; i++) {
        Node *f = ix->v[i];
        Node *b[3] = {f->u.findex.lo, f->u.findex.hi, f->u.findex.stride};
        for (int k = 0; k < 3; k++)
            if (b[k]) {
                /* bounds see the enclosing indices, not this header's */
                SameHeader h = {s, ix};
                if (uses_own_index(b[k], &h))
                    continue;
                int saved = s->indices.n;
                s->indices.n = mark;
                scalar_int(s, b[k], "FORALL bound");
                s->indices.n = saved;
            }
        const char *name = f->u.findex.id;
        for (int j = 0; j < s->indices.n; j++)
            if (!strcmp(((Symbol *)s->indices.v[j])->name, name)) {
                diag_error(s->diag, f->loc, j >= mark ? "FORALL index '%s' appears twice in "
                           "one header" : "FORALL index '%s' is already the index of an "
                           "enclosing FORALL", name);
                break;
            }
        Symbol *outer = scope_lookup(s->scope, name);
        Type t = outer ? outer->type
                 : s->scope->implicit_none ? (Type){TY_INTEGER, 4}
                                           : s->scope->implicit[name[0] - 'a'];
        if (outer && outer->kind != SYM_VARIABLE && outer->kind != SYM_INDEX)
            diag_error(s->diag, f->loc, "FORALL index '%s' must be a scalar integer variable "
                       "name, not a %s", name, sym_kind_name(outer->kind));
        else if (outer && outer->rank)
            diag_error(s->diag, f->loc, "FORALL index '%s' is an array", name);
        else if (t.base != TY_INTEGER && t.base != TY_ERROR)
            diag_error(s->diag, f->loc, "FORALL index '%s' must be integer, not %s", name,
                       type_name(t));
        Symbol *y = arena_alloc(s->arena, sizeof *y);
        y->name = name;
        y->kind = SYM_INDEX;
        y->type = (Type){TY_INTEGER, 4};
        f->u.findex.sym = y;
        vec_push(NULL, &s->indices, y);
    }
    if (n->u.forall.mask)
        scalar_logical(s, n->u.forall.mask, "FORALL mask");
    for (int i = 0; i < n->u.forall.body.n; i++) {
        Node *b = n->u.forall.body.v[i];
        if (b->kind != AST_ASSIGN && b->kind != AST_FORALL && b->kind != AST_WHERE) {
            diag_error(s->diag, b->loc, "only assignments, FORALL and WHERE may appear in a "
                       "FORALL body");
            continue;
        }
        check_stmt(s, b);
    }
    s->indices.n = mark;
}

static void check_where(Sema *s, Node *n)
{
    const Node *mask = NULL;
    for (int i = 0; i < n->u.cond.branches.n; i++) {
        Node *br = n->u.cond.branches.v[i];
        if (br->u.branch.cond) {
            Node *m = br->u.branch.cond;
            sema_expr(s, m);
            if (m->type.base != TY_ERROR && (m->type.base != TY_LOGICAL || !m->rank))
                diag_error(s->diag, m->loc, "WHERE mask must be a logical array, not %s%s",
                           m->rank ? "an array of " : "a scalar ", type_name(m->type));
            else if (mask && m->type.base != TY_ERROR)
                conform(s, mask, m, m->loc, "masks of WHERE and ELSEWHERE") ;
            if (!mask && m->type.base != TY_ERROR && m->rank)
                mask = m;
        }
        for (int j = 0; j < br->u.branch.body.n; j++) {
            Node *b = br->u.branch.body.v[j];
            if (b->kind == AST_ASSIGN)
                check_assign(s, b, mask);
            else
                diag_error(s->diag, b->loc, "only assignments may appear in a WHERE construct");
        }
    }
}

/* The FORMAT statement of the unit a format label names, as the character
 * format it stands for (a copy, at the label's place); NULL after an
 * error. */
static Node *format_of(Sema *s, Node *lab)
{
    const Node *u = s->scope->unit;
    for (int i = 0; u && i < u->u.unit.formats.n; i++) {
        const Node *f = u->u.unit.formats.v[i];
        if (f->label == lab->u.konst.ival) {
            Node *c = ast_new(s->arena, AST_STRING_CONST, lab->loc);
            c->u.konst = f->u.konst;
            c->type = f->type;
            return c;
        }
    }
    diag_error(s->diag, lab->loc, "format label %s: no FORMAT statement of this unit has "
               "that label", lab->u.konst.text);
    return NULL;
}

static int calls_function(Node *n, void *ctx)
{
    (void)ctx;
    if (n->kind == AST_REF && n->u.ref.what == REF_FUNCTION)
        return 1;
    return ast_children(n, calls_function, NULL);
}

/* A CASE condition of a LOGICAL selector: sel == v becomes sel .EQV. v;
 * a range is an error. */
static int logical_case(Sema *s, Node *c, const Node *sel)
{
    if (!c || c->kind != AST_BINARY)
        return 1;
    if (c->u.binary.lhs == sel && c->u.binary.op == OP_EQ) {
        c->u.binary.op = OP_EQV;
        return 1;
    }
    if (c->u.binary.lhs == sel) {
        diag_error(s->diag, c->loc, "a LOGICAL SELECT CASE has no ranges");
        return 0;
    }
    return logical_case(s, c->u.binary.lhs, sel) && logical_case(s, c->u.binary.rhs, sel);
}

/* The selector of a SELECT CASE (an IF chain comparing it, bld_case): a
 * scalar INTEGER, CHARACTER or LOGICAL expression that calls no function
 * (the chain evaluates it at each CASE); LOGICAL ones compare with .EQV.,
 * and have no ranges. 0 after an error. */
static int check_selector(Sema *s, Node *n)
{
    Node *sel = n->u.cond.selector;
    sema_expr(s, sel);
    if (sel->type.base == TY_ERROR)
        return 0;
    int b = sel->type.base, jump = n->u.cond.jump;
    static const char *const what[] = {"a SELECT CASE selector", "the expression of an "
                                       "arithmetic IF", "the index of a computed GOTO"};
    if (sel->rank || (jump == 0 && b != TY_INTEGER && b != TY_CHARACTER && b != TY_LOGICAL)
        || (jump == 1 && b != TY_INTEGER && b != TY_REAL) || (jump == 2 && b != TY_INTEGER)) {
        diag_error(s->diag, sel->loc, "%s is a scalar %s expression", what[jump],
                   jump == 0 ? "INTEGER, CHARACTER or LOGICAL" : jump == 1 ? "INTEGER or REAL"
                                                               : "INTEGER");
        return 0;
    }
    if (calls_function(sel, NULL)) {
        diag_error(s->diag, sel->loc, "the SPMD lowering evaluates %s at each of its tests: "
                   "one that references a function is not supported (assign it to a variable "
                   "first)", what[jump]);
        return 0;
    }
    for (int i = 0; b == TY_LOGICAL && i < n->u.cond.branches.n; i++)
        if (!logical_case(s, ((Node *)n->u.cond.branches.v[i])->u.branch.cond, sel))
            return 0;
    return 1;
}

static void check_io(Sema *s, Node *n)
{
    Node *fmt = n->u.io.fmt;
    if (fmt && fmt->kind == AST_INT_CONST) {
        Node *c = format_of(s, fmt);
        if (c)
            n->u.io.fmt = c;
    } else if (fmt && fmt->kind == AST_NAME) {
        sema_expr(s, fmt);
        if (fmt->type.base != TY_CHARACTER && fmt->type.base != TY_ERROR)
            diag_error(s->diag, fmt->loc, "format must be '*' or a character expression");
    }
    for (int i = 0; i < n->u.io.control.n; i++) {
        Node *c = n->u.io.control.v[i];
        Node *v = c->kind == AST_KEYWORD_ARG ? c->u.kwarg.value : c;
        if (v->kind == AST_STAR)
            continue;
        int fmtkw = c->kind == AST_KEYWORD_ARG && !strcmp(c->u.kwarg.id, "fmt");
        if (((i == 1 && c->kind != AST_KEYWORD_ARG) || fmtkw) && v->kind == AST_INT_CONST
            && (n->kind == AST_READ || n->kind == AST_WRITE)) {
            Node *f = format_of(s, v);
            if (f && fmtkw)
                c->u.kwarg.value = f;
            else if (f)
                n->u.io.control.v[i] = f;
            continue;
        }
        if (c->kind == AST_KEYWORD_ARG && (!strcmp(c->u.kwarg.id, "iostat")))
            check_lhs(s, v, "store IOSTAT in");
        else
            sema_expr(s, v);
    }
    for (int i = 0; i < n->u.io.items.n; i++) {
        Node *it = n->u.io.items.v[i];
        if (n->kind == AST_READ && it->kind != AST_IMPLIED_DO)
            check_lhs(s, it, "READ into");
        else
            sema_expr(s, it);
    }
}

/* The intrinsic subroutines of the subset (Fortran 95 13.14.24, 29, 89,
 * 90, 105): each argument's keyword, type (TY_NONE: integer or real),
 * rank (-1: any) and whether the call sets it. RANDOM_SEED takes one
 * argument or none. */
typedef struct {
    const char *name;
    int min, max;
    const char *kw[4];
    unsigned char base[4];
    signed char rank[4];
    unsigned char sets[4];
} IntrSub;

static const IntrSub intr_subs[] = {
    {"cpu_time", 1, 1, {"time"}, {TY_REAL}, {0}, {1}},
    {"system_clock", 0, 3, {"count", "count_rate", "count_max"},
     {TY_INTEGER, TY_NONE, TY_INTEGER}, {0, 0, 0}, {1, 1, 1}},
    {"date_and_time", 0, 4, {"date", "time", "zone", "values"},
     {TY_CHARACTER, TY_CHARACTER, TY_CHARACTER, TY_INTEGER}, {0, 0, 0, 1}, {1, 1, 1, 1}},
    {"random_number", 1, 1, {"harvest"}, {TY_REAL}, {-1}, {1}},
    {"random_seed", 0, 1, {"size", "put", "get"}, {TY_INTEGER, TY_INTEGER, TY_INTEGER},
     {0, 1, 1}, {1, 0, 1}},
};

static const IntrSub *intr_sub(const char *name)
{
    for (size_t i = 0; i < sizeof intr_subs / sizeof intr_subs[0]; i++)
        if (!strcmp(intr_subs[i].name, name))
            return &intr_subs[i];
    return NULL;
}

/* The position among the intrinsic's arguments of the i-th actual of
 * CALL n, or -1. */
static int intr_position(const IntrSub *is, const Node *n, int i)
{
    const Node *a = n->u.ref.args.v[i];
    if (a->kind != AST_KEYWORD_ARG)
        return i < 4 && is->kw[i] ? i : -1;
    for (int k = 0; k < 4 && is->kw[k]; k++)
        if (!strcmp(is->kw[k], a->u.kwarg.id))
            return k;
    return -1;
}

int sema_intrinsic_sets(const Node *n, int i)
{
    const IntrSub *is = intr_sub(n->u.ref.id);
    int k = is ? intr_position(is, n, i) : -1;
    return k >= 0 && is->sets[k];
}

static void check_intrinsic_call(Sema *s, Node *n, const IntrSub *is)
{
    const PtrVec *args = &n->u.ref.args;
    n->u.ref.what = REF_INTRINSIC;
    if (args->n < is->min || args->n > is->max) {
        if (is->max == 1 && !is->min)
            diag_error(s->diag, n->loc, "intrinsic subroutine '%s' takes one argument or none, "
                       "%d given", is->name, args->n);
        else if (is->min == is->max)
            diag_error(s->diag, n->loc, "intrinsic subroutine '%s' takes %d argument%s, %d "
                       "given", is->name, is->min, is->min == 1 ? "" : "s", args->n);
        else
            diag_error(s->diag, n->loc, "intrinsic subroutine '%s' takes %d to %d arguments, "
                       "%d given", is->name, is->min, is->max, args->n);
        return;
    }
    int seen[4] = {0}, kw = 0;
    for (int i = 0; i < args->n; i++) {
        Node *a = args->v[i], *v = a->kind == AST_KEYWORD_ARG ? a->u.kwarg.value : a;
        int k = intr_position(is, n, i);
        if (a->kind != AST_KEYWORD_ARG && kw) {
            diag_error(s->diag, a->loc, "positional argument after a keyword argument");
            return;
        }
        kw |= a->kind == AST_KEYWORD_ARG;
        if (k < 0 || a->kind == AST_TRIPLET) {
            if (a->kind == AST_KEYWORD_ARG)
                diag_error(s->diag, a->u.kwarg.id_loc, "intrinsic subroutine '%s' has no "
                           "argument named '%s'", is->name, a->u.kwarg.id);
            else
                diag_error(s->diag, a->loc, "intrinsic subroutine '%s' takes %d argument%s",
                           is->name, is->max, is->max == 1 ? "" : "s");
            return;
        }
        if (seen[k]++) {
            diag_error(s->diag, a->loc, "argument '%s' of '%s' given twice", is->kw[k], is->name);
            return;
        }
        if (is->sets[k])
            check_lhs(s, v, is->name[0] == 'r' ? "store random numbers in"
                      : "store the time in");
        else
            sema_expr(s, v);
        if (v->type.base == TY_ERROR)
            continue;
        int tb = v->type.base, want = is->base[k];
        int ok = want == TY_NONE ? tb == TY_INTEGER || tb == TY_REAL : tb == want;
        if (want == TY_INTEGER && ok && v->type.kind != 4)
            ok = !strcmp(is->name, "system_clock");
        if (!ok || (is->rank[k] >= 0 && v->rank != is->rank[k])) {
            char want_s[48];
            snprintf(want_s, sizeof want_s, "%s%s",
                     want == TY_NONE ? "integer or real" : want == TY_INTEGER && is->name[0] == 'r'
                     ? "default integer" : type_name((Type){(unsigned char)want, 4}),
                     is->rank[k] == 1 ? " rank-1 array" : is->rank[k] == 0 ? " scalar" : "");
            diag_error(s->diag, v->loc, "argument '%s' of '%s' must be a%s %s, not %s%s",
                       is->kw[k], is->name, strchr("aeiou", want_s[0]) ? "n" : "", want_s,
                       v->rank ? "an array of " : "", type_name(v->type));
        }
    }
}

static void check_call(Sema *s, Node *n)
{
    const char *name = n->u.ref.id;
    Symbol *y = sema_lookup(s, name);
    Node *u = NULL;
    for (Scope *k = s->scope; k && !u; k = k->parent)
        for (int i = 0; k->unit && i < k->unit->u.unit.contains.n; i++) {
            Node *c = k->unit->u.unit.contains.v[i];
            if (!strcmp(c->u.unit.id, name))
                u = c;
        }
    if (y && y->module && y->unit && (y->kind == SYM_SUBROUTINE || y->kind == SYM_FUNCTION)) {
        u = y->unit;               /* a module procedure, by USE or in its module */
        n->u.ref.sym = y;
    }
    for (int i = 0; !u && i < s->file->u.list.items.n; i++) {
        Node *c = s->file->u.list.items.v[i];
        if (c->u.unit.id && !strcmp(c->u.unit.id, name) && c->u.unit.which != UNIT_MODULE)
            u = c;
    }
    if ((u == s->scope->unit || (y && y->kind == SYM_SUBROUTINE && y->unit == s->scope->unit))
        && !s->scope->unit->u.unit.recursive) {
        diag_error(s->diag, n->loc, "'%s' calls itself: declare it RECURSIVE (Fortran allows "
                   "recursion only then)", name);
        return;
    }
    if (u && u->u.unit.which != UNIT_SUBROUTINE) {
        diag_error(s->diag, n->loc, "'%s' is a %s, not a subroutine", name,
                   u->u.unit.which == UNIT_FUNCTION ? "function" : "program");
        return;
    }
    if (!u && y && y->kind != SYM_SUBROUTINE && !(y->kind == SYM_VARIABLE && y->external)) {
        diag_error(s->diag, n->loc, "CALL of '%s', which is a %s", name, sym_kind_name(y->kind));
        return;
    }
    const IntrSub *is = !u && !y ? intr_sub(name) : NULL;
    if (is) {
        check_intrinsic_call(s, n, is);
        return;
    }
    if (!u && !y && !strcmp(name, "mvbits")) {
        diag_error(s->diag, n->loc, "intrinsic subroutine '%s' is not supported in the HPF "
                   "subset", name);
        return;
    }
    sema_actuals(s, n, u);
    n->u.ref.what = REF_FUNCTION;
}

static void check_do(Sema *s, Node *n)
{
    if (n->kind == AST_DO) {
        Node *v = n->u.loop.var;
        check_lhs(s, v, "use as DO variable");
        if (v->type.base != TY_ERROR && (v->type.base != TY_INTEGER || v->rank)) {
            diag_error(s->diag, v->loc, "DO variable '%s' must be a scalar integer (a %s DO "
                       "variable is not supported)", v->u.name.id, type_name(v->type));
            sema_expr(s, n->u.loop.lo);
            sema_expr(s, n->u.loop.hi);
        } else {
            scalar_int(s, n->u.loop.lo, "DO loop bound");
            scalar_int(s, n->u.loop.hi, "DO loop bound");
        }
        if (n->u.loop.step) {
            long long k;
            scalar_int(s, n->u.loop.step, "DO loop step");
            if (sema_int_const(s, n->u.loop.step, &k) && k == 0)
                diag_error(s->diag, n->u.loop.step->loc, "DO loop step is zero");
        }
    } else if (n->u.loop.cond) {
        scalar_logical(s, n->u.loop.cond, "DO WHILE condition");
    }
    Node *ind = n->u.loop.independent;
    if (ind)
        for (int i = 0; i < ind->u.list.items.n; i++) {
            Node *v = ind->u.list.items.v[i];
            Symbol *y = sema_lookup(s, v->u.name.id);
            if (!y)
                y = sema_implicit(s, v->u.name.id, v);   /* typed implicitly, as in F77 */
            if (y->kind != SYM_VARIABLE)
                diag_error(s->diag, v->loc, "NEW variable '%s' is not a declared variable",
                           v->u.name.id);
            v->u.name.sym = y;
        }
    s->loop_depth++;
    check_body(s, &n->u.loop.body);
    s->loop_depth--;
}

static void check_alloc(Sema *s, Node *n)
{
    for (int i = 0; i < n->u.alloc.items.n; i++) {
        Node *it = n->u.alloc.items.v[i];
        if (it->kind == AST_KEYWORD_ARG) {
            if (strcmp(it->u.kwarg.id, "stat") != 0)
                diag_error(s->diag, it->loc, "only STAT= may follow the objects");
            else
                check_lhs(s, it->u.kwarg.value, "store STAT in");
            continue;
        }
        const char *name = it->kind == AST_NAME ? it->u.name.id
                           : it->kind == AST_REF ? it->u.ref.id : NULL;
        Symbol *y = name ? sema_lookup(s, name) : NULL;
        if (!y || !y->allocatable) {
            diag_error(s->diag, it->loc, "'%s' is not an ALLOCATABLE array", name ? name : "?");
            continue;
        }
        if (n->kind == AST_DEALLOCATE) {
            if (it->kind != AST_NAME)
                diag_error(s->diag, it->loc, "DEALLOCATE takes array names");
            it->type = y->type;
            if (it->kind == AST_NAME)
                it->u.name.sym = y;
            continue;
        }
        if (it->kind != AST_REF || it->u.ref.args.n != y->rank) {
            diag_error(s->diag, it->loc, "ALLOCATE of '%s' needs %d bound%s", name, y->rank,
                       y->rank == 1 ? "" : "s");
            continue;
        }
        it->u.ref.sym = y;
        it->u.ref.what = REF_SECTION;
        it->type = y->type;
        for (int d = 0; d < y->rank; d++) {
            Node *b = it->u.ref.args.v[d];
            if (b->kind == AST_TRIPLET) {
                if (!b->u.triplet.lo || !b->u.triplet.hi || b->u.triplet.stride)
                    diag_error(s->diag, b->loc, "ALLOCATE bounds are 'upper' or 'lower:upper'");
                if (b->u.triplet.lo)
                    scalar_int(s, b->u.triplet.lo, "ALLOCATE bound");
                if (b->u.triplet.hi)
                    scalar_int(s, b->u.triplet.hi, "ALLOCATE bound");
            } else {
                scalar_int(s, b, "ALLOCATE bound");
            }
        }
    }
}

static void check_stmt(Sema *s, Node *n)
{
    s->at = n->loc;
    switch (n->kind) {
    case AST_ASSIGN:
        check_assign(s, n, NULL);
        break;
    case AST_IF:
        if (n->u.cond.selector && !check_selector(s, n))
            break;
        for (int i = 0; i < n->u.cond.branches.n; i++) {
            Node *b = n->u.cond.branches.v[i];
            if (b->u.branch.cond)
                scalar_logical(s, b->u.branch.cond, "IF condition");
            check_body(s, &b->u.branch.body);
        }
        break;
    case AST_LOGICAL_IF:
        scalar_logical(s, n->u.lif.cond, "IF condition");
        check_stmt(s, n->u.lif.stmt);
        break;
    case AST_DO: case AST_DO_WHILE:
        check_do(s, n);
        break;
    case AST_CYCLE: case AST_EXIT:
        if (!s->loop_depth)
            diag_error(s->diag, n->loc, "%s outside a DO loop",
                       n->kind == AST_CYCLE ? "CYCLE" : "EXIT");
        break;
    case AST_CONTINUE: case AST_GOTO: case AST_RETURN:
        break;
    case AST_STOP:
        if (n->u.unary.operand)
            sema_expr(s, n->u.unary.operand);
        break;
    case AST_CALL:
        check_call(s, n);
        break;
    case AST_PRINT: case AST_WRITE: case AST_READ: case AST_OPEN: case AST_CLOSE:
        check_io(s, n);
        break;
    case AST_FORALL:
        check_forall(s, n);
        break;
    case AST_WHERE:
        check_where(s, n);
        break;
    case AST_ALLOCATE: case AST_DEALLOCATE:
        check_alloc(s, n);
        break;
    case AST_REDISTRIBUTE:
        sema_distribute(s, n);
        break;
    case AST_REALIGN:
        sema_align(s, n);
        break;
    default:
        if (is_spec(n))
            diag_error(s->diag, n->loc, "%s after the first executable statement",
                       n->kind == AST_PROCESSORS || n->kind == AST_TEMPLATE
                       || n->kind == AST_DISTRIBUTE || n->kind == AST_ALIGN
                       || n->kind == AST_DYNAMIC || n->kind == AST_INHERIT
                           ? "HPF specification directive" : "declaration");
        break;
    }
}

static void check_body(Sema *s, PtrVec *body)
{
    for (int i = 0; i < body->n; i++)
        check_stmt(s, body->v[i]);
}

/* ---- program units ---- */

static void spec_stmt(Sema *s, Node *n)
{
    switch (n->kind) {
    case AST_TYPE_DECL:
        sema_type_decl(s, n);
        break;
    case AST_IMPLICIT:
        sema_implicit_stmt(s, n);
        break;
    case AST_PARAMETER_STMT:
        for (int i = 0; i < n->u.list.items.n; i++) {
            Node *en = n->u.list.items.v[i];
            Symbol *y = sema_declare(s, en->u.entity.id, en);
            if (y) {
                en->u.entity.sym = y;
                sema_make_parameter(s, y, en->u.entity.init, en);
            }
        }
        break;
    case AST_DIMENSION_STMT: case AST_ALLOCATABLE_STMT: case AST_COMMON_STMT:
        for (int i = 0; i < n->u.list.items.n; i++) {
            Node *en = n->u.list.items.v[i];
            Symbol *y = sema_declare(s, en->u.entity.id, en);
            if (!y)
                continue;
            en->u.entity.sym = y;
            if (n->kind == AST_ALLOCATABLE_STMT)
                y->allocatable = 1;
            if (n->kind == AST_COMMON_STMT)
                y->common = 1;
            if (n->kind == AST_DIMENSION_STMT && !en->u.entity.dims.n)
                diag_error(s->diag, en->loc, "DIMENSION needs the extents of '%s'", y->name);
            sema_set_dims(s, y, &en->u.entity.dims, en);
        }
        break;
    case AST_SAVE_STMT: case AST_EXTERNAL_STMT: case AST_INTRINSIC_STMT:
        for (int i = 0; i < n->u.list.items.n; i++) {
            Node *nm = n->u.list.items.v[i];
            Symbol *y = sema_declare(s, nm->u.name.id, nm);
            if (!y)
                continue;
            nm->u.name.sym = y;
            if (n->kind == AST_SAVE_STMT)
                y->save = 1;
            else if (n->kind == AST_EXTERNAL_STMT)
                y->external = 1;
            else if (!is_intrinsic_name(y->name))
                diag_error(s->diag, nm->loc, "'%s' is not an intrinsic of the HPF subset", y->name);
            else
                y->intrinsic = 1;
        }
        break;
    case AST_PUBLIC_STMT: case AST_PRIVATE_STMT:
        /* the names: once the module's procedures are known (module_entities) */
        if (s->scope->unit->u.unit.which != UNIT_MODULE)
            diag_error(s->diag, n->loc, "a %s statement belongs in a module",
                       n->kind == AST_PUBLIC_STMT ? "PUBLIC" : "PRIVATE");
        else if (!n->u.list.items.n && n->kind == AST_PRIVATE_STMT)
            s->scope->default_private = 1;
        break;
    case AST_PROCESSORS:
        sema_mapping_object(s, n, SYM_PROCESSORS);
        break;
    case AST_TEMPLATE:
        sema_mapping_object(s, n, SYM_TEMPLATE);
        break;
    default:
        break;   /* DISTRIBUTE and ALIGN: after every declaration */
    }
}

/* A place of a COMMON block in the file: the variables at the same
 * position of the same block in every unit share it (storage association
 * by place: the same type and shape are required, as hpfc associates them
 * whole). */
typedef struct {
    const char *block;            /* NULL: blank COMMON */
    int pos, slot;
    const Symbol *first;          /* the first variable seen there */
    const Node *unit;
} CommonPlace;

static void common_places(Sema *s, Node *u)
{
    const PtrVec *body = &u->u.unit.body;
    PtrVec counts = {0};          /* const char * block, then (void *) position */
    for (int i = 0; i < body->n; i++) {
        const Node *n = body->v[i];
        if (n->kind != AST_COMMON_STMT)
            continue;
        const char *b = n->u.list.name;
        int k = 0;
        while (k < counts.n && !(counts.v[k] == b || (b && counts.v[k]
                                                     && !strcmp(counts.v[k], b))))
            k += 2;
        if (k == counts.n) {
            vec_push(NULL, &counts, (void *)b);
            vec_push(NULL, &counts, (void *)(intptr_t)0);
        }
        for (int e = 0; e < n->u.list.items.n; e++) {
            Node *en = n->u.list.items.v[e];
            Symbol *y = en->u.entity.sym;
            int pos = (int)(intptr_t)counts.v[k + 1] + 1;
            counts.v[k + 1] = (void *)(intptr_t)pos;
            if (!y)
                continue;
            CommonPlace *c = NULL;
            for (int j = 0; j < s->commons.n && !c; j++) {
                CommonPlace *x = s->commons.v[j];
                if (x->pos == pos && (x->block == b || (b && x->block && !strcmp(x->block, b))))
                    c = x;
            }
            if (!c) {
                c = arena_alloc(s->arena, sizeof *c);
                *c = (CommonPlace){b, pos, s->commons.n + 1, y, u};
                vec_push(s->arena, &s->commons, c);
            } else {
                const Symbol *f = c->first;
                int same = f->type.base == y->type.base && f->type.kind == y->type.kind
                           && f->rank == y->rank;
                for (int d = 0; same && d < y->rank; d++)
                    same = f->bounds_known[d] && y->bounds_known[d]
                           && f->hi[d] - f->lo[d] == y->hi[d] - y->lo[d];
                if (!same && c->unit != u)
                    diag_error(s->diag, en->loc, "'%s' is at place %d of COMMON %s%s%s, where "
                               "'%s' of %s is %s%s: hpfc associates COMMON variables whole, "
                               "by place (declare the same types and shapes in every unit)",
                               y->name, pos, b ? "/" : "(blank)", b ? b : "", b ? "/" : "",
                               f->name, c->unit->u.unit.id ? c->unit->u.unit.id : "the main "
                               "program", type_name(f->type), f->rank ? " array" : "");
            }
            y->common = c->slot;
        }
    }
    free(counts.v);
}

/* f(x, y) = expr, f not an array and its arguments distinct names: a
 * statement function definition. */
static int stmt_function(Sema *s, const Node *n)
{
    if (n->kind != AST_ASSIGN || n->label || n->u.assign.lhs->kind != AST_REF)
        return 0;
    const Node *l = n->u.assign.lhs;
    const Symbol *y = scope_lookup(s->scope, l->u.ref.id);
    if (y && (y->rank || y->kind != SYM_VARIABLE || y->dummy))
        return 0;
    for (int i = 0; i < l->u.ref.args.n; i++) {
        const Node *a = l->u.ref.args.v[i];
        if (a->kind != AST_NAME)
            return 0;
        for (int k = 0; k < i; k++)
            if (!strcmp(((const Node *)l->u.ref.args.v[k])->u.name.id, a->u.name.id))
                return 0;
    }
    return 1;
}

/* y's entity in a type declaration statement of the unit, or NULL. */
static Node *typed_entity(Sema *s, const Symbol *y)
{
    const PtrVec *body = &s->scope->unit->u.unit.body;
    for (int i = 0; i < body->n; i++) {
        const Node *n = body->v[i];
        for (int k = 0; n->kind == AST_TYPE_DECL && k < n->u.decl.entities.n; k++)
            if (n->u.decl.entities.v[k] == y->decl)
                return y->decl;
    }
    return NULL;
}

/* A DATA set (filter.c): the initial value of its variable's declaration,
 * a constant or an array constructor of the values converted to its type,
 * which the SPMD program declares as such and the functional interpreter
 * starts from (DATA implies SAVE, as an initial value does). What cannot
 * be written so is refused by name. */
/* The elements a DATA object stands for, or -1 when that is not known
 * here (data_object says why). */
static long long data_count(Sema *s, Node *o)
{
    if (o->kind == AST_IMPLIED_DO) {
        long long lo, hi, st = 1;
        sema_expr(s, o->u.impdo.lo);
        sema_expr(s, o->u.impdo.hi);
        if (o->u.impdo.step)
            sema_expr(s, o->u.impdo.step);
        if (!sema_int_const(s, o->u.impdo.lo, &lo) || !sema_int_const(s, o->u.impdo.hi, &hi)
            || (o->u.impdo.step && !sema_int_const(s, o->u.impdo.step, &st)) || st == 0)
            return -1;
        return (hi - lo + st) / st > 0 ? (hi - lo + st) / st : 0;
    }
    Symbol *y = scope_lookup_local(s->scope, o->u.name.id);
    if (!y || y->kind != SYM_VARIABLE)
        return -1;
    long long n = 1;
    for (int d = 0; d < y->rank; d++) {
        if (!y->bounds_known[d])
            return -1;
        n *= y->hi[d] - y->lo[d] + 1;
    }
    return n;
}

static void data_object(Sema *s, Node *o, Node *vals);

/* A DATA set: its values go to its objects in turn, each taking as many
 * as it has elements (Fortran 95 5.2.10). */
static void data_set(Sema *s, Node *set)
{
    Node *o = set->u.assign.lhs, *vals = set->u.assign.rhs;
    if (o->kind != AST_ARRAY_CTOR) {
        data_object(s, o, vals);
        return;
    }
    int at = 0, nv = vals->u.list.items.n;
    for (int i = 0; i < o->u.list.items.n; i++) {
        Node *obj = o->u.list.items.v[i];
        long long n = data_count(s, obj);
        int last = i + 1 == o->u.list.items.n, unknown = n < 0;
        if (unknown || last)
            n = nv - at;       /* the rest: data_object checks the count, or says why not */
        if (n > nv - at) {
            diag_error(s->diag, vals->loc, "DATA gives %d value%s for %d objects, which have "
                       "more elements", nv, nv == 1 ? "" : "s", o->u.list.items.n);
            return;
        }
        Node *part = ast_new(s->arena, AST_ARRAY_CTOR, vals->loc);
        for (long long k = 0; k < n; k++)
            vec_push(s->arena, &part->u.list.items, vals->u.list.items.v[at + k]);
        at += (int)n;
        data_object(s, obj, part);
        if (unknown)
            return;
    }
}

static void data_object(Sema *s, Node *o, Node *vals)
{
    Node *nm = o->kind == AST_IMPLIED_DO ? o->u.impdo.items.v[0] : o;
    const char *id = nm->kind == AST_NAME ? nm->u.name.id : nm->u.ref.id;
    Symbol *y = scope_lookup_local(s->scope, id);
    const char *why = NULL;
    Node *en = y ? typed_entity(s, y) : NULL;
    if (!y || y->kind != SYM_VARIABLE || y->dummy || y->result)
        why = "it is not a variable of this unit";
    else if (y->distribute || y->align)
        why = "it is mapped (assign its values in the program)";
    else if (y->common || y->allocatable)
        why = y->common ? "it is in COMMON" : "it is ALLOCATABLE";
    else if (!en)
        why = "it has no type declaration statement (hpfc gives DATA as the initial value of "
              "its declaration: declare it)";
    else if (en->u.entity.init)
        why = "it has an initial value already";
    else if (y->rank && y->type.base == TY_CHARACTER)
        why = "it is a CHARACTER array";
    else if (y->rank > 1 && o->kind == AST_IMPLIED_DO)
        why = "an implied DO over an array of rank more than 1 (give the array by name: its "
              "values in array element order)";
    for (int d = 0; !why && d < y->rank; d++)
        if (!y->bounds_known[d])
            why = "its bounds are not constant";
    if (why) {
        diag_error(s->diag, o->loc, "DATA for '%s' is not supported in the HPF subset: %s", id,
                   why);
        return;
    }
    long long n = 1;
    for (int d = 0; d < y->rank; d++)
        n *= y->hi[d] - y->lo[d] + 1;
    if (o->kind == AST_IMPLIED_DO) {
        Node *sub = nm->u.ref.args.v[0];
        long long lo = 0, hi = 0, st = 1;
        sema_expr(s, o->u.impdo.lo);
        sema_expr(s, o->u.impdo.hi);
        if (o->u.impdo.step)
            sema_expr(s, o->u.impdo.step);
        if (!y->rank || !sema_int_const(s, o->u.impdo.lo, &lo)
            || !sema_int_const(s, o->u.impdo.hi, &hi)
            || (o->u.impdo.step && !sema_int_const(s, o->u.impdo.step, &st))
            || lo != y->lo[0] || hi != y->hi[0] || st != 1
            || strcmp(sub->u.name.id, o->u.impdo.var->u.name.id)) {
            diag_error(s->diag, o->loc, "DATA for '%s' is not supported in the HPF subset: an "
                       "implied DO that does not give the whole array in order", id);
            return;
        }
    }
    if (vals->u.list.items.n != n) {
        diag_error(s->diag, vals->loc, "DATA gives %d value%s for '%s', which has %lld "
                   "element%s", vals->u.list.items.n, vals->u.list.items.n == 1 ? "" : "s", id, n,
                   n == 1 ? "" : "s");
        return;
    }
    for (int i = 0; i < vals->u.list.items.n; i++) {
        Node *v = vals->u.list.items.v[i];
        sema_expr(s, v);
        if (v->type.base == TY_ERROR)
            return;
        if (v->type.base == y->type.base && (v->type.kind == y->type.kind
                                             || v->type.base == TY_CHARACTER))
            continue;
        int num = v->type.base != TY_LOGICAL && v->type.base != TY_CHARACTER
                  && y->type.base != TY_LOGICAL && y->type.base != TY_CHARACTER;
        if (!num || y->type.base == TY_COMPLEX) {
            diag_error(s->diag, v->loc, "a DATA value for '%s' must be %s, not %s", id,
                       type_name(y->type), type_name(v->type));
            return;
        }
        /* converted to the variable's type, as DATA converts */
        vals->u.list.items.v[i] = sema_convert(s, v, y->type);
    }
    Node *init = y->rank ? vals : vals->u.list.items.v[0];
    if (y->rank > 1) {
        /* RESHAPE ((/ values /), (/ extents /)): array element order */
        Node *shape = ast_new(s->arena, AST_ARRAY_CTOR, o->loc);
        for (int d = 0; d < y->rank; d++) {
            Node *k = ast_new(s->arena, AST_INT_CONST, o->loc);
            k->u.konst.ival = y->hi[d] - y->lo[d] + 1;
            k->u.konst.kind = 4;
            k->u.konst.text = arena_printf(s->arena, "%lld", k->u.konst.ival);
            vec_push(s->arena, &shape->u.list.items, k);
        }
        init = ast_new(s->arena, AST_REF, o->loc);
        init->u.ref.id = "reshape";
        vec_push(s->arena, &init->u.ref.args, vals);
        vec_push(s->arena, &init->u.ref.args, shape);
    }
    sema_expr(s, init);
    en->u.entity.init = init;
    y->save = 1;
}

/* ---- modules ---- */

/* A MODULE: declarations only; its variables live as long as the program
 * (SAVE, as Fortran 2008 has it), and its procedures are entities of it,
 * which USE makes accessible like the rest. */
static void module_entities(Sema *s, Node *m, int first_exec)
{
    PtrVec *body = &m->u.unit.body;
    if (first_exec < body->n)
        diag_error(s->diag, ((Node *)body->v[first_exec])->loc, "an executable statement in "
                   "MODULE %s: a module holds declarations and procedures only", m->u.unit.id);
    Scope *sc = m->u.unit.scope;
    for (int i = 0; i < m->u.unit.contains.n; i++) {
        Node *c = m->u.unit.contains.v[i];
        if (scope_entry(sc, c->u.unit.id)) {
            diag_error(s->diag, c->loc, "'%s' is declared in MODULE %s and is one of its "
                       "procedures too", c->u.unit.id, m->u.unit.id);
            continue;
        }
        Symbol *y = scope_add(s->arena, sc, c->u.unit.id, c->u.unit.which == UNIT_FUNCTION
                              ? SYM_FUNCTION : SYM_SUBROUTINE, c);
        y->unit = c;
    }
    for (int i = 0; i < sc->symbols.n; i++) {
        Symbol *y = sc->symbols.v[i];
        if (y->kind == SYM_PROGRAM)
            continue;
        y->module = m;
        if (y->kind == SYM_VARIABLE)
            y->save = 1;
    }
    for (int i = 0; i < first_exec; i++) {
        const Node *n = body->v[i];
        if (n->kind != AST_PUBLIC_STMT && n->kind != AST_PRIVATE_STMT)
            continue;
        for (int k = 0; k < n->u.list.items.n; k++) {
            const Node *nm = n->u.list.items.v[k];
            Symbol *e = scope_entry(sc, nm->u.name.id);
            if (!e || e->kind == SYM_PROGRAM)
                diag_error(s->diag, nm->loc, "'%s' in %s is not an entity of module '%s'",
                           nm->u.name.id, n->kind == AST_PUBLIC_STMT ? "PUBLIC" : "PRIVATE",
                           m->u.unit.id);
            else
                e->access = n->kind == AST_PUBLIC_STMT ? ACCESS_PUBLIC : ACCESS_PRIVATE;
        }
    }
}

/* Whether a module's scope entry (its own symbol, or one it has by USE) is
 * given by USE of the module. */
static int exported(const Scope *ms, const Symbol *e)
{
    return e->access ? e->access == ACCESS_PUBLIC : !ms->default_private;
}

/* local stands for target here, by USE at; the same entity may come
 * twice (two USEs of one module). */
static void use_alias(Sema *s, const char *local, Symbol *target, Node *at)
{
    Symbol *e = scope_entry(s->scope, local);
    if (e && (e == target || e->alias == target))
        return;
    if (e && e->alias) {
        e->ambiguous = target->module ? target->module->u.unit.id : "?";
        return;
    }
    if (e) {
        diag_error(s->diag, at->loc, "'%s' by USE of module '%s' is already declared here",
                   local, target->module ? target->module->u.unit.id : "?");
        return;
    }
    scope_add_alias(s->arena, s->scope, local, target, at);
}

/* USE m [, ONLY: ...] [, local => name ...]: m must be a MODULE of the
 * file before this unit (hpfc reads one file, in order). Its entities are
 * its own declarations and procedures and what it uses itself. */
static void use_module(Sema *s, Node *use)
{
    const char *name = use->u.use.module;
    Node *m = NULL;
    PtrVec *units = &s->file->u.list.items;
    for (int i = 0; i < units->n && !m; i++) {
        Node *v = units->v[i];
        if (v->u.unit.which == UNIT_MODULE && !strcmp(v->u.unit.id, name))
            m = v;
    }
    if (!m || !m->u.unit.scope || m == s->scope->unit) {
        s->scope->use_failed = 1;
        diag_error(s->diag, use->u.use.mod_loc, !m ? "module '%s' is not defined in this file "
                   "(hpfc reads one file: put the module in it, before its use)"
                   : m == s->scope->unit ? "module '%s' cannot use itself"
                   : "module '%s' is used before it is defined (put it first in the file)",
                   name);
        return;
    }
    Scope *ms = m->u.unit.scope;
    const PtrVec *items = &use->u.use.items;
    for (int i = 0; i < items->n; i++) {
        Node *k = items->v[i];
        Node *r = k->u.kwarg.value;
        Symbol *y = scope_lookup_local(ms, r->u.name.id);
        if (!y || y->kind == SYM_PROGRAM) {
            diag_error(s->diag, r->loc, "'%s' is not an entity of module '%s'", r->u.name.id,
                       name);
            s->scope->use_failed = 1;     /* (no cascade where it is used) */
            continue;
        }
        if (!exported(ms, scope_entry(ms, r->u.name.id)))   /* said; then taken as given */
            diag_error(s->diag, r->loc, "'%s' is PRIVATE in module '%s'", r->u.name.id, name);
        r->u.name.sym = y;
        if (strcmp(k->u.kwarg.id, y->name) && (y->distribute || y->align || y->dynamic)) {
            diag_error(s->diag, k->loc, "the mapped array '%s' of module '%s' cannot be "
                       "renamed by USE: the SPMD program names its local part and descriptor "
                       "after the module's name (use it as '%s')", y->name, name, y->name);
        }
        use_alias(s, k->u.kwarg.id, y, k);
    }
    if (use->u.use.only)
        return;
    for (int pass = 0; pass < 2; pass++) {
        const PtrVec *v = pass ? &ms->aliases : &ms->symbols;
        for (int i = 0; i < v->n; i++) {
            Symbol *e = v->v[i], *y = e->alias ? e->alias : e;
            if (y->kind == SYM_PROGRAM || !exported(ms, e))
                continue;
            int renamed = 0;
            for (int k = 0; k < items->n && !renamed; k++)
                renamed = !strcmp(((Node *)((Node *)items->v[k])->u.kwarg.value)->u.name.id,
                                  e->name);
            if (!renamed)
                use_alias(s, e->name, y, use);
        }
    }
}

static void check_unit(Sema *s, Node *u, Scope *host)
{
    Scope *sc = scope_new(s->arena, host, u);
    if (host) {
        sc->implicit_none = host->implicit_none;
        memcpy(sc->implicit, host->implicit, sizeof sc->implicit);
    }
    u->u.unit.scope = sc;
    Scope *saved = s->scope;
    s->scope = sc;

    if (u->u.unit.id) {
        int w = u->u.unit.which;
        SymKind k = w == UNIT_PROGRAM || w == UNIT_MODULE ? SYM_PROGRAM
                    : w == UNIT_SUBROUTINE ? SYM_SUBROUTINE : SYM_FUNCTION;
        const char *result = u->u.unit.result;
        if (u->u.unit.which == UNIT_FUNCTION && !result) {
            Symbol *r = scope_add(s->arena, sc, u->u.unit.id, SYM_VARIABLE, u);
            r->result = 1;
            r->unit = u;
        } else {
            Symbol *self = scope_add(s->arena, sc, u->u.unit.id, k, u);
            self->unit = u;
            if (result) {
                if (!strcmp(result, u->u.unit.id))
                    diag_error(s->diag, u->loc, "RESULT name must differ from the function name");
                Symbol *r = scope_add(s->arena, sc, result, SYM_VARIABLE, u);
                r->result = 1;
            }
        }
        if (u->u.unit.rtype) {
            Symbol *r = scope_lookup_local(sc, result ? result : u->u.unit.id);
            r->type = sema_spec_type(s, u->u.unit.rtype);
            r->typed = 1;
        }
    }
    for (int i = 0; i < u->u.unit.args.n; i++) {
        Node *a = u->u.unit.args.v[i];
        if (scope_lookup_local(sc, a->u.name.id)) {
            diag_error(s->diag, a->loc, "dummy argument '%s' appears twice or names the "
                       "procedure", a->u.name.id);
            continue;
        }
        Symbol *y = scope_add(s->arena, sc, a->u.name.id, SYM_VARIABLE, a);
        y->dummy = i + 1;
        a->u.name.sym = y;
    }

    for (int i = 0; i < u->u.unit.uses.n; i++)
        use_module(s, u->u.unit.uses.v[i]);

    /* the specification part, then the mapping directives, then the rest */
    PtrVec *body = &u->u.unit.body;
    int first_exec = body->n;
    for (int i = 0; i < body->n; i++)
        if (!is_spec(body->v[i])) {
            first_exec = i;
            break;
        }
    for (int i = 0; i < first_exec; i++)
        spec_stmt(s, body->v[i]);
    /* names declared only by DIMENSION, dummies, results: implicit types now */
    for (int i = 0; i < sc->symbols.n; i++) {
        Symbol *y = sc->symbols.v[i];
        if (y->typed || y->kind != SYM_VARIABLE)
            continue;
        Type t = sc->implicit[y->name[0] - 'a'];
        if (t.base == TY_NONE && y->external && !y->rank)
            continue;     /* an EXTERNAL subroutine needs no type; a function reference
                             says so (sema_expr.c) */
        if (t.base == TY_NONE) {
            diag_error(s->diag, y->decl->loc, "'%s' has no type (IMPLICIT NONE is in effect)",
                       y->name);
            t = (Type){TY_ERROR, 0};
        }
        y->type = t;
        y->typed = 1;
    }
    for (int i = 0; i < sc->symbols.n; i++) {
        Symbol *y = sc->symbols.v[i];
        if (y->rank && y->kind == SYM_VARIABLE)
            sema_check_dim_forms(s, y, y->decl);
    }
    common_places(s, u);
    for (int i = 0; i < first_exec; i++) {
        Node *n = body->v[i];
        if (n->kind == AST_DISTRIBUTE)
            sema_distribute(s, n);
        else if (n->kind == AST_ALIGN)
            sema_align(s, n);
        else if (n->kind == AST_INHERIT)
            for (int k = 0; k < n->u.list.items.n; k++)
                sema_inheriting(s, n->u.list.items.v[k], "INHERIT");
        else if (n->kind == AST_DYNAMIC)
            for (int k = 0; k < n->u.list.items.n; k++) {
                Node *nm = n->u.list.items.v[k];
                Symbol *y = sema_mappable(s, nm->u.name.id, nm->loc, "DYNAMIC");
                if (y)
                    y->dynamic = 1, nm->u.name.sym = y;
            }
    }
    for (int i = 0; i < u->u.unit.datas.n; i++)
        data_set(s, u->u.unit.datas.v[i]);
    /* statement functions: f(x, y) = expr before the first executable
       statement, f no array; taken out of the body, expanded where
       referenced (sema_expr.c) */
    PtrVec saved_fns = s->stmtfns;
    s->stmtfns = (PtrVec){0};
    while (first_exec < body->n && stmt_function(s, body->v[first_exec])) {
        vec_push(s->arena, &s->stmtfns, body->v[first_exec]);
        for (int k = first_exec; k + 1 < body->n; k++)
            body->v[k] = body->v[k + 1];
        body->n--;
    }
    if (u->u.unit.which == UNIT_MODULE)
        module_entities(s, u, first_exec);
    for (int i = first_exec; i < body->n; i++)
        check_stmt(s, body->v[i]);
    s->stmtfns = saved_fns;
    check_labels(s, u);

    for (int i = 0; i < u->u.unit.contains.n; i++)
        check_unit(s, u->u.unit.contains.v[i], sc);
    s->scope = saved;
}

/* Whether unit to is reached from unit from by the calls, with the index
 * in s->calls of the call of from that starts the way in *first (seen: the
 * units seen). */
static int reaches(const Sema *s, const Node *from, const Node *to, PtrVec *seen, int *first)
{
    for (int i = 0; i + 2 < s->calls.n; i += 3) {
        const Node *callee = s->calls.v[i + 1];
        if (s->calls.v[i + 2] != from)
            continue;
        int was = 0;
        for (int k = 0; k < seen->n && !was; k++)
            was = seen->v[k] == callee;
        if (was)
            continue;
        vec_push(NULL, seen, (void *)callee);
        if (callee == to || reaches(s, callee, to, seen, NULL)) {
            if (first)
                *first = i;
            return 1;
        }
    }
    return 0;
}

/* Fortran allows a procedure to be invoked while it is active only when it
 * is RECURSIVE (F95 12.5.2.1): a procedure that calls itself through
 * others must say so too. (Calling itself directly is refused where the
 * call is checked.) The depth of the search is bounded by the number of
 * units of the file. */
static void check_recursion(Sema *s)
{
    PtrVec done = {0};
    for (int i = 0; i + 2 < s->calls.n; i += 3) {
        Node *u = s->calls.v[i + 2];
        int was = u->u.unit.recursive;
        for (int k = 0; k < done.n && !was; k++)
            was = done.v[k] == u;
        if (was)
            continue;
        vec_push(NULL, &done, u);
        PtrVec seen = {0};
        int first;
        if (reaches(s, u, u, &seen, &first)) {
            const Node *call = s->calls.v[first], *callee = s->calls.v[first + 1];
            diag_error(s->diag, call->loc, "'%s' calls itself through '%s': declare it "
                       "RECURSIVE (Fortran allows recursion only then)", u->u.unit.id,
                       callee->u.unit.id);
        }
        free(seen.v);
    }
    free(done.v);
}

const char *define_add(Define **defs, int *ndefs, char *arg)
{
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1])
        return "-D expects NAME=VALUE, not '%s'";
    *eq = '\0';
    for (char *s = arg; *s; s++)
        if (*s >= 'A' && *s <= 'Z')
            *s = (char)(*s - 'A' + 'a');
    for (int i = 0; i < *ndefs; i++)
        if (!strcmp((*defs)[i].name, arg)) {
            *eq = '=';
            return "-D '%s': that name is given twice (for several values, one -D with a "
                   "list: -D n=64,128)";
        }
    *defs = xrealloc(*defs, (size_t)(*ndefs + 1) * sizeof **defs);
    (*defs)[(*ndefs)++] = (Define){arg, eq + 1, 0};
    return NULL;
}

int sema_check(Node *file, Arena *a, Diag *d, Define *defs, int ndefs)
{
    int before = d->nerrors;
    Sema s = {.arena = a, .diag = d, .file = file, .defs = defs, .ndefs = ndefs};
    PtrVec *units = &file->u.list.items;
    int programs = 0;
    for (int i = 0; i < units->n; i++) {
        Node *u = units->v[i];
        if (u->u.unit.which == UNIT_PROGRAM && ++programs == 2)
            diag_error(d, u->loc, "a second main program in one file");
        for (int j = 0; j < i; j++) {
            Node *v = units->v[j];
            if (u->u.unit.id && v->u.unit.id && !strcmp(u->u.unit.id, v->u.unit.id))
                diag_error(d, u->loc, "program unit '%s' is defined twice", u->u.unit.id);
        }
    }
    for (int i = 0; i < units->n; i++)
        check_unit(&s, units->v[i], NULL);
    for (int i = 0; i + 2 < s.calls.n; i += 3)
        sema_match_actuals(&s, s.calls.v[i], s.calls.v[i + 1]);
    check_recursion(&s);
    free(s.calls.v);
    free(s.indices.v);
    return d->nerrors - before;
}
