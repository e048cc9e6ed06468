/* emit.c - writes the SPMD IR as Fortran that calls libhpfrt (hpfc -o):
 * F77-style loops over each processor's own iterations, no array syntax,
 * the original line numbers in comments; fixed form for .f, free form
 * otherwise. The run-time calls follow runtime/hpfrt.h. */
#include <config.h>

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"
#include "../runtime/hpfmap.h"
#include "../runtime/hpfrt.h"

/* A loop with a constant empty index range runs nothing: it is not
 * emitted (gfortran would warn about it). */
int spmd_loop_empty(const SpLoop *lp)
{
    for (int k = 0; k < lp->nidx; k++) {
        long long lo, hi, st;
        const SpIndex *ix = &lp->idx[k];
        if (cint(ix->lo, &lo) && cint(ix->hi, &hi) && cint(ix->st, &st)
            && hpfmap_trip(lo, hi, st) == 0)
            return 1;
    }
    return 0;
}

static int red_vars_visit(Node *n, void *ctx)
{
    PtrVec *v = ctx;
    if (n->kind == AST_REF && n->u.ref.what == REF_INTRINSIC && n->ir) {
        const SpRed *sr = n->ir;
        long long cn;
        if (!cint(sr->n, &cn) || cn > 0)
            vec_push(NULL, v, sr->var);
        red_vars_visit(sr->body, ctx);
        if (sr->mask)
            red_vars_visit(sr->mask, ctx);
        return 0;
    }
    ast_children(n, red_vars_visit, ctx);
    return 0;
}

/* What the unit's statements use, so that nothing unused is declared. */
static void scan_stmts(Emit *E, const PtrVec *v)
{
    for (int i = 0; i < v->n; i++) {
        const SpStmt *s = v->v[i];
        switch (s->kind) {
        case SP_FORALL: case SP_REDUCE: {
            const SpLoop *lp = s->u.loop;
            if (spmd_loop_empty(lp))
                break;
            for (int k = 0; k < lp->nidx; k++) {
                vec_push(NULL, &E->vused, lp->idx[k].var);
                if (lp->idx[k].dist)
                    E->lused[lp->idx[k].lp] |= spmd_seg_hoisted(lp, k) ? 3 : 1;
            }
            red_vars_visit(lp->rhs, &E->vused);
            if (lp->mask)
                red_vars_visit(lp->mask, &E->vused);
            const SpCtx *cs[] = {lp->ctx_iter, lp->ctx_guard, lp->ctx_mask};
            for (int k = 0; k < 3; k++)
                if (cs[k]->used)
                    E->cused[cs[k]->id] = 1;
            int direct = spmd_direct_one(lp);
            for (int k = 0; k < lp->gathers.n; k++) {
                E->cused[((SpGather *)lp->gathers.v[k])->ctx->id] = 1;
                vec_push(NULL, &E->gsites, lp->gathers.v[k]);
                if (direct)
                    vec_push(NULL, &E->dsites, lp->gathers.v[k]);
            }
            E->uses_n |= lp->lhs_temp || lp->scatter;
            break;
        }
        case SP_BCAST:
            E->uses_x = 1;
            break;
        case SP_DO:
            /* (a DO of the compiler's own: an interchanged reduction) */
            if (s->u.do_.var->kind == AST_NAME)
                vec_push(NULL, &E->vused, s->u.do_.var->u.name.sym);
            scan_stmts(E, &s->u.do_.body);
            break;
        case SP_WHILE:
            scan_stmts(E, &s->u.while_.pre);
            scan_stmts(E, &s->u.while_.body);
            break;
        case SP_IF:
            for (int k = 0; k < s->u.if_.branches.n; k++) {
                const SpBranch *b = s->u.if_.branches.v[k];
                scan_stmts(E, &b->pre);
                scan_stmts(E, &b->body);
            }
            break;
        default:
            break;
        }
    }
}

/* ---- lines ---- */

static int in_string_at(const char *s, int upto)
{
    char q = 0;
    for (int i = 0; i < upto; i++) {
        if (q) {
            if (s[i] == q)
                q = 0;
        } else if (s[i] == '\'' || s[i] == '"') {
            q = s[i];
        }
    }
    return q != 0;
}

/* Where to break text (length len) at or before limit: after a space or a
 * comma outside a character constant; else anywhere inside one. */
static int break_at(const char *s, int len, int limit)
{
    if (len <= limit)
        return len;
    for (int i = limit; i > limit / 3; i--)
        if ((s[i - 1] == ' ' || s[i - 1] == ',') && !in_string_at(s, i))
            return i;
    for (int i = limit; i > limit / 3; i--)
        if (in_string_at(s, i) && in_string_at(s, i - 1))
            return i;
    return limit;
}

static int goto_visit(Node *n, void *ctx)
{
    if (n->kind == AST_GOTO)
        vec_push(NULL, ctx, (void *)(long)n->u.jump.target);
    if (n->kind != AST_UNIT)
        ast_children(n, goto_visit, ctx);
    return 0;
}

/* The labels the GOTOs of lowered statements name (a loop made of a GOTO
 * back has lost it: a DO now). */
static void sp_gotos(const PtrVec *body, PtrVec *out)
{
    for (int i = 0; i < body->n; i++) {
        const SpStmt *s = body->v[i];
        switch (s->kind) {
        case SP_SEQ:
            goto_visit(s->u.seq, out);
            break;
        case SP_DO:
            sp_gotos(&s->u.do_.body, out);
            break;
        case SP_WHILE:
            sp_gotos(&s->u.while_.pre, out);
            sp_gotos(&s->u.while_.body, out);
            break;
        case SP_IF:
            for (int b = 0; b < s->u.if_.branches.n; b++) {
                const SpBranch *br = s->u.if_.branches.v[b];
                sp_gotos(&br->pre, out);
                sp_gotos(&br->body, out);
            }
            break;
        default:
            break;
        }
    }
}

/* Labels no GOTO names are dropped: a labelled DO became DO ... END DO. */
static int used_label(const Emit *E, int label)
{
    for (int i = 0; i < E->targets.n; i++)
        if ((long)E->targets.v[i] == label)
            return 1;
    return 0;
}

static void put_line(Emit *E, int label, const char *text)
{
    if (label && !used_label(E, label))
        label = 0;
    int ind = 2 * E->level < 30 ? 2 * E->level : 30;
    int len = (int)strlen(text);
    if (E->fixed) {
        char lab[8] = "";
        if (label)
            snprintf(lab, sizeof lab, "%d", label);
        int room = 72 - 6 - ind;
        int first = 1;
        while (len > 0 || first) {
            int n = break_at(text, len, room);
            if (first)
                fprintf(E->out, "%-5s %*s%.*s\n", lab, ind, "", n, text);
            else
                fprintf(E->out, "     &%*s%.*s\n", ind, "", n, text);
            text += n;
            len -= n;
            first = 0;
            /* a continued character constant goes on at column 7 */
            if (len > 0 && in_string_at(text - n, n))
                ind = 0;
        }
        return;
    }
    char lab[16] = "";
    if (label)
        snprintf(lab, sizeof lab, "%d ", label);
    int pad = ind - (int)strlen(lab) > 0 ? ind - (int)strlen(lab) : 0;
    int room = 100 - ind;
    int first = 1;
    while (len > 0 || first) {
        int n = len > room ? break_at(text, len, room) : len;
        if (first)
            fprintf(E->out, "%s%*s%.*s%s\n", lab, pad, "", n, text, len > n ? "&" : "");
        else
            fprintf(E->out, "%*s&%.*s%s\n", ind + 4, "", n, text, len > n ? "&" : "");
        text += n;
        len -= n;
        first = 0;
    }
}

void em_line(Emit *E, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    StrBuf b = {0};
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    put_line(E, 0, b.s ? b.s : "");
    sb_free(&b);
}

void em_directive(Emit *E, const char *text)
{
    fprintf(E->out, "!%s\n", text);
}

static void comment(Emit *E, const char *text)
{
    fprintf(E->out, "!%*s %s\n", E->fixed ? 5 : 2 * E->level, "", text);
}

/* ---- names ---- */

const char *em_tsuffix(Type t)
{
    switch (t.base) {
    case TY_INTEGER: return t.kind == 8 ? "i8" : "i4";
    case TY_REAL: return t.kind == 8 ? "r8" : "r4";
    case TY_COMPLEX: return t.kind == 8 ? "c8" : "c4";
    case TY_LOGICAL: return "l4";
    case TY_CHARACTER: return "ch";
    default: return "i4";
    }
}

static int esize(Type t)
{
    return t.base == TY_COMPLEX ? 2 * t.kind : t.kind ? t.kind : 4;
}

char *em_desc(Emit *E, const SpArr *a)
{
    static char buf[256];
    snprintf(buf, sizeof buf, "%sd_%s", E->p, a->name);
    return buf;
}

/* The first element of the local array, for passing it to the run time. */
void em_first_elem(Emit *E, StrBuf *b, const SpArr *a)
{
    sb_printf(b, "%s(", a->name);
    for (int d = 0; d < a->rank; d++)
        sb_printf(b, "%slbound(%s, %d)", d ? ", " : "", a->name, d + 1);
    sb_puts(b, ")");
}

/* ---- expressions ---- */

static const SpIndex *loop_index(const Emit *E, int k)
{
    return &E->loop->idx[k];
}

static void passed_extra(Emit *E, StrBuf *b, const SpUnit *callee, const Node *call);

static int hook(Unparse *u, const Node *n, void *ctx);
static void put_int(Emit *E, Unparse *u, const Node *n);

/* SIZE, LBOUND or UBOUND of a dummy passed a mapped array (passing.c):
 * its bounds in the lowering (the global ones), not its local part's; the
 * extent of an assumed-shape dummy passed a mapped ALLOCATABLE array is
 * its descriptor's. In declarations of automatic arrays too. */
static int passed_inquiry(Emit *E, Unparse *u, const Node *n)
{
    const char *id = n->u.ref.id;
    int sz = !strcmp(id, "size"), lb = !strcmp(id, "lbound");
    if ((!sz && !lb && strcmp(id, "ubound")) || n->u.ref.args.n < 1)
        return 0;
    const Node *a = n->u.ref.args.v[0];
    const Node *dn = n->u.ref.args.n > 1 ? n->u.ref.args.v[1] : NULL;
    if (a->kind != AST_NAME || (dn && dn->kind == AST_KEYWORD_ARG))
        return 0;
    const SpArr *r = NULL;
    for (int i = 0; i < E->u->passed.n && !r; i++)
        if (((const SpArr *)E->u->passed.v[i])->sym == a->u.name.sym)
            r = E->u->passed.v[i];
    long long k = 0;
    if (!r || (dn && (dn->kind != AST_INT_CONST || (k = dn->u.konst.ival) < 1 || k > r->rank))
        || (!dn && !sz))
        return 0;
    StrBuf b = {0};
    for (int d = dn ? (int)k - 1 : 0; d < (dn ? (int)k : r->rank); d++) {
        if (d > (dn ? (int)k - 1 : 0))
            sb_puts(&b, " * ");
        char *lo = unparse_expr_string(r->lo[d], hook, E);
        if (sz && r->passed == 3) {
            sb_printf(&b, "hpfrt_extent(%s, %d)", em_desc(E, r), d + 1);
        } else if (lb) {
            sb_printf(&b, "(%s)", lo);
        } else {
            char *hi = unparse_expr_string(r->hi[d], hook, E);
            if (sz)
                sb_printf(&b, "(%s - (%s) + 1)", hi, lo);
            else
                sb_printf(&b, "(%s)", hi);
            free(hi);
        }
        free(lo);
    }
    unparse_put(u, b.s);
    sb_free(&b);
    return 1;
}

static int hook(Unparse *u, const Node *n, void *ctx)
{
    Emit *E = ctx;
    char buf[512];
    if (n->kind == AST_REF && (n->u.ref.what == REF_FUNCTION || n->u.ref.what == REF_INTRINSIC)
        && !n->ir && passed_inquiry(E, u, n))
        return 1;
    if (n->kind == AST_REF && n->u.ref.what == REF_FUNCTION) {
        /* a function given mapped arrays whole: their descriptors too */
        const SpUnit *callee = spmd_callee(E->prog, E->u, n);
        if (!callee || !callee->passed.n)
            return 0;
        unparse_put(u, n->u.ref.id);
        unparse_put(u, "(");
        for (int i = 0; i < n->u.ref.args.n; i++) {
            if (i)
                unparse_put(u, ", ");
            unparse_expr(u, n->u.ref.args.v[i]);
        }
        StrBuf b = {0};
        passed_extra(E, &b, callee, n);
        unparse_put(u, b.s ? b.s : "");
        sb_free(&b);
        unparse_put(u, ")");
        return 1;
    }
    if (n->kind == AST_REF && n->u.ref.what == REF_INTRINSIC && !n->ir
        && !strcmp(n->u.ref.id, "number_of_processors")) {
        unparse_put(u, "hpfrt_nprocs()");   /* in a directive's expression */
        return 1;
    }
    if (n->kind != AST_REF || !n->ir)
        return 0;
    if (n->u.ref.what == REF_INTRINSIC) {
        const SpRed *sr = n->ir;
        snprintf(buf, sizeof buf, "%st%d", E->p, sr->loc ? sr->pos : sr->acc);
        unparse_put(u, buf);
        return 1;
    }
    if (n->u.ref.what != REF_ELEMENT)
        return 0;
    const SpRef *r = n->ir;
    const SpArr *a = r->arr;
    switch (r->acc) {
    case ACC_TEMP:
        if (E->direct) {
            /* on one process: in place, at y*i + z of each subscript */
            unparse_put(u, a->name);
            unparse_put(u, "(");
            for (int d = 0; d < a->rank; d++) {
                snprintf(buf, sizeof buf, "%s%sy%d_%d*(", d ? ", " : "", E->p, r->g->buf, d + 1);
                unparse_put(u, buf);
                unparse_expr(u, r->sub[d]);
                snprintf(buf, sizeof buf, ") + %sz%d_%d", E->p, r->g->buf, d + 1);
                unparse_put(u, buf);
            }
            unparse_put(u, ")");
            return 1;
        }
        snprintf(buf, sizeof buf, "%st%d(%sc%d)", E->p, r->g->buf, E->p, r->g->ctx->id);
        unparse_put(u, buf);
        return 1;
    case ACC_LOCAL:
        unparse_put(u, a->name);
        unparse_put(u, "(");
        for (int d = 0; d < a->rank; d++) {
            if (d)
                unparse_put(u, ", ");
            if (r->lvar[d] >= 0) {
                const SpIndex *ix = loop_index(E, r->lvar[d]);
                if (r->delta[d])
                    snprintf(buf, sizeof buf, "%sl%d %c %lld", E->p, ix->lp,
                             r->delta[d] < 0 ? '-' : '+', r->delta[d] < 0 ? -r->delta[d]
                             : r->delta[d]);
                else
                    snprintf(buf, sizeof buf, "%sl%d", E->p, ix->lp);
                unparse_put(u, buf);
            } else if (r->lvar[d] == -2) {
                snprintf(buf, sizeof buf, "hpfrt_g2l(%s, %d, ", em_desc(E, a), d + 1);
                unparse_put(u, buf);
                put_int(E, u, r->sub[d]);
                unparse_put(u, ")");
            } else {
                unparse_expr(u, r->sub[d]);
            }
        }
        unparse_put(u, ")");
        return 1;
    case ACC_GLOBAL:
        if (a && !a->sym) {
            unparse_put(u, a->name);
            unparse_put(u, "(");
            for (int d = 0; d < n->u.ref.args.n; d++) {
                if (d)
                    unparse_put(u, ", ");
                unparse_expr(u, n->u.ref.args.v[d]);
            }
            unparse_put(u, ")");
            return 1;
        }
        return 0;
    default:
        return 0;
    }
}

char *em_ex(Emit *E, const Node *n)
{
    return unparse_expr_string(n, hook, E);
}

/* libhpfrt takes its bounds, extents, block sizes and subscripts as default
 * INTEGERs. An INTEGER(8) value goes through hpfrt_i4, which stops the
 * program with a message when the value does not fit (a plain conversion
 * would wrap silently); a constant that fits is written as it is. */
static int has_int8(Node *n, void *ctx)
{
    (void)ctx;
    if (n->type.base == TY_INTEGER && n->type.kind == 8)
        return 1;
    return ast_children(n, has_int8, NULL);
}

char *em_int(Emit *E, const Node *n)
{
    long long v;
    if (!n || !has_int8((Node *)n, NULL))
        return em_ex(E, n);
    StrBuf b = {0};
    if (cint(n, &v) && v >= INT_MIN && v <= INT_MAX) {
        sb_printf(&b, "%lld", v);
    } else {
        /* (int(.., 8): the lowering's own nodes around a part of kind 8,
           such as max(0, hi - lo + 1), may carry the default kind) */
        char *x = em_ex(E, n);
        sb_printf(&b, "hpfrt_i4(int(%s, 8))", x);
        free(x);
    }
    return b.s;
}

/* em_int's text, into an unparse in progress (the hook's subscripts). */
static void put_int(Emit *E, Unparse *u, const Node *n)
{
    char *x = em_int(E, n);
    unparse_put(u, x);
    free(x);
}

static void stmt_line(Emit *E, int label, const Node *n)
{
    char *s = unparse_stmt_string(n, hook, E);
    put_line(E, label, s);
    free(s);
}

/* ---- declarations ---- */

static int mapped(const Emit *E, const Symbol *y)
{
    for (int i = 0; i < E->u->arrs.n; i++)
        if (((SpArr *)E->u->arrs.v[i])->sym == y)
            return 1;
    return 0;
}

static Symbol *entity_sym(const SpUnit *u, const Node *en)
{
    if (en->kind == AST_ENTITY)
        return en->u.entity.sym ? en->u.entity.sym : scope_lookup_local(u->scope, en->u.entity.id);
    if (en->kind == AST_NAME)
        return scope_lookup_local(u->scope, en->u.name.id);
    if (en->kind == AST_REF)
        return scope_lookup_local(u->scope, en->u.ref.id);
    return NULL;
}

static const char *type_text(Type t)
{
    switch (t.base) {
    case TY_INTEGER: return t.kind == 8 ? "integer(8)" : "integer";
    case TY_REAL: return t.kind == 8 ? "real(8)" : "real";
    case TY_COMPLEX: return t.kind == 8 ? "complex(8)" : "complex";
    case TY_LOGICAL: return "logical";
    default: return "integer";
    }
}

/* The declaration of a function's result: a CHARACTER one as the
 * function's prefix spells it (with its length), or as the declaration in
 * its body does (a length of its own: CHARACTER*5 :: F*8); the others by
 * their type. */
static void result_decl(Emit *E, const Node *f, const Symbol *r, const char *name)
{
    const TypeSpec *spec = f->u.unit.rtype;
    const Node *len = NULL;
    for (int i = 0; r->type.base == TY_CHARACTER && !spec && i < f->u.unit.body.n; i++) {
        const Node *d = f->u.unit.body.v[i];
        for (int k = 0; d->kind == AST_TYPE_DECL && k < d->u.decl.entities.n; k++) {
            const Node *en = d->u.decl.entities.v[k];
            if (en->kind == AST_ENTITY && !strcmp(en->u.entity.id, r->name)) {
                spec = &d->u.decl.spec;
                len = en->u.entity.len;
            }
        }
    }
    if (r->type.base != TY_CHARACTER || !spec || spec->base != TY_CHARACTER) {
        em_line(E, "%s :: %s", type_text(r->type), name);
    } else if (len) {
        char *l = unparse_expr_string(len, hook, E);
        em_line(E, "character(len=%s) :: %s", l, name);
        free(l);
    } else {
        char *ts = unparse_type_string(spec, hook, E);
        em_line(E, "%s :: %s", ts, name);
        free(ts);
    }
}

/* The value of a PARAMETER as a constant node (text in a static buffer
 * per call site is not enough: each node gets its own). */
static int param_value(Node *n, const Symbol *y)
{
    static char texts[64][48];
    static int next;
    const Value *v = &y->value;
    if (!v->known)
        return 0;
    char *t = texts[next++ % 64];
    memset(n, 0, sizeof *n);
    n->type = y->type;
    switch (y->type.base) {
    case TY_INTEGER:
        n->kind = AST_INT_CONST;
        snprintf(t, 48, y->type.kind == 8 ? "%lld_8" : "%lld", v->i);
        break;
    case TY_LOGICAL:
        n->kind = AST_LOGICAL_CONST;
        snprintf(t, 48, "%s", v->i ? ".true." : ".false.");
        break;
    case TY_REAL: {
        n->kind = AST_REAL_CONST;
        snprintf(t, 48, y->type.kind == 8 ? "%.17e" : "%.9e", v->r);
        char *e = strchr(t, 'e');
        if (e && y->type.kind == 8)
            *e = 'd';
        break;
    }
    default:
        return 0;
    }
    n->u.konst.text = t;
    return 1;
}

static void decl_list(Emit *E, const char *type, StrBuf *names)
{
    if (names->len)
        em_line(E, "%s :: %s", type, names->s);
    sb_clear(names);
}

static void add_name(StrBuf *b, const char *fmt, ...) HPF_PRINTF(2, 3);
static void add_name(StrBuf *b, const char *fmt, ...)
{
    if (b->len)
        sb_puts(b, ", ");
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

/* The integers passed with mapped dummies, first after IMPLICIT: the
 * declarations of automatic arrays may ask their bounds (passed_inquiry). */
static int passed_decls(Emit *E)
{
    const SpUnit *u = E->u;
    StrBuf names = {0};
    int extent = 0;
    for (int i = 0; i < u->passed.n; i++) {
        const SpArr *r = u->passed.v[i];
        add_name(&names, "%s", em_desc(E, r));
        for (int d = 0; d < r->rank; d++)
            add_name(&names, "%s%s_l%d, %s%s_h%d", E->p, r->name, d + 1, E->p, r->name, d + 1);
        extent |= r->passed == 3;
    }
    decl_list(E, "integer", &names);
    sb_free(&names);
    if (extent) {
        /* PURE: it sizes automatic arrays (a specification function) */
        em_line(E, "interface");
        em_line(E, "  pure integer function hpfrt_extent(ha, d)");
        em_line(E, "    integer, intent(in) :: ha, d");
        em_line(E, "  end function hpfrt_extent");
        em_line(E, "end interface");
    }
    return 1;
}

/* Whether statement k of a synthetic probe's phase is the first of those
 * a DO WHILE run whole holds (synthetic_body). */
static int first_while(const SpProbePhase *q, int k)
{
    const SpStmt *w = q->wraps.v[k];
    if (!w || w->kind != SP_WHILE)
        return 0;
    for (int j = 0; j < k; j++)
        if (q->wraps.v[j] == w)
            return 0;
    return 1;
}

static void rt_externals(Emit *E)
{
    em_line(E, "integer, external :: hpfrt_nprocs, hpfrt_ioproc, hpfrt_lo, hpfrt_hi, hpfrt_beta");
    em_line(E, "integer, external :: hpfrt_nseg, hpfrt_ntrip, hpfrt_mine, hpfrt_g2l");
    em_line(E, "integer, external :: hpfrt_present, hpfrt_primary, hpfrt_i4, hpfrt_kept");
    em_line(E, "integer, external :: hpfrt_probe_next");
    if (E->prog->probe && E->u->main) {
        em_line(E, "integer, external :: hpfrt_probe_again");
        /* the counter of the blocks' loops, where a statement runs more
           than once (synthetic_body) */
        int loops = 0, whiles = 0, dos = 0;
        for (int i = 0; i < E->prog->probe->phases.n; i++) {
            const SpProbePhase *q = E->prog->probe->phases.v[i];
            for (int k = 0; k < q->counts.n; k++) {
                const SpStmt *w = q->wraps.v[k];
                loops |= *(const double *)q->counts.v[k] >= 1.5 || w;
                whiles += first_while(q, k);
                dos |= w && w->kind == SP_DO;
            }
        }
        if (loops)
            em_line(E, "integer :: %sprb", E->p);
        if (dos)                /* the trips of a DO run around statements */
            em_line(E, "integer :: %sprj", E->p);
        if (whiles)             /* the trips of each DO WHILE run whole */
            em_line(E, "integer :: %sprw(%d)", E->p, whiles);
    }
}

/* Whether a module lays out mapped data, which its init routine does. */
static int module_maps(const SpUnit *m)
{
    return m->procs.n || m->tmpls.n || m->arrs.n;
}

/* hpfc's names in module m that the units using it need: its mapped
 * data's handles and descriptors, its procedures' clones. */
static void module_names(Emit *E, const SpUnit *m, StrBuf *names)
{
    for (int k = 0; k < m->procs.n; k++)
        add_name(names, "%sp_%s", E->p, ((SpProcs *)m->procs.v[k])->name);
    for (int k = 0; k < m->tmpls.n; k++)
        add_name(names, "%su_%s", E->p, ((SpTmpl *)m->tmpls.v[k])->name);
    for (int k = 0; k < m->arrs.n; k++)
        add_name(names, "%s", em_desc(E, m->arrs.v[k]));
    for (int k = 0; k < E->prog->units.n; k++) {
        const SpUnit *c = E->prog->units.v[k];
        if (c->clone_of && c->host == m)
            add_name(names, "%s", c->name);
    }
}

/* The unit's USE statements as written, and for a module with mapped
 * arrays that it takes ONLY some of, a second one for hpfc's names of
 * them (descriptors, templates). */
static void uses(Emit *E, const Node *n)
{
    for (int i = 0; i < n->u.unit.uses.n; i++) {
        const Node *us = n->u.unit.uses.v[i];
        StrBuf b = {0};
        sb_printf(&b, "use %s", us->u.use.module);
        if (us->u.use.only)
            sb_puts(&b, ", only:");
        for (int k = 0; k < us->u.use.items.n; k++) {
            const Node *it = us->u.use.items.v[k];
            const char *remote = it->u.kwarg.value->u.name.id;
            if (!strcmp(it->u.kwarg.id, remote))
                sb_printf(&b, "%s %s", k ? "," : "", remote);
            else
                sb_printf(&b, "%s %s => %s", k || !us->u.use.only ? "," : "", it->u.kwarg.id,
                          remote);
        }
        put_line(E, 0, b.s);
        sb_free(&b);
        const SpUnit *m = NULL;
        for (int k = 0; k < E->prog->units.n && !m; k++) {
            const SpUnit *c = E->prog->units.v[k];
            if (c->unit->u.unit.which == UNIT_MODULE
                && !strcmp(c->unit->u.unit.id, us->u.use.module))
                m = c;
        }
        if (!m || !us->u.use.only)
            continue;
        StrBuf names = {0};
        module_names(E, m, &names);
        if (names.s && names.s[0])
            em_line(E, "use %s, only: %s", us->u.use.module, names.s);
        sb_free(&names);
    }
}

static void declarations(Emit *E)
{
    const SpUnit *u = E->u;
    PtrVec *body = &u->unit->u.unit.body;
    int early = 0;
    for (int i = 0; i < body->n; i++) {
        Node *n = body->v[i];
        if (!early && (n->kind == AST_TYPE_DECL || n->kind == AST_DIMENSION_STMT
                       || n->kind == AST_PARAMETER_STMT || n->kind == AST_ALLOCATABLE_STMT
                       || n->kind == AST_SAVE_STMT || n->kind == AST_EXTERNAL_STMT
                       || n->kind == AST_INTRINSIC_STMT || n->kind == AST_COMMON_STMT))
            early = passed_decls(E);
        switch (n->kind) {
        case AST_PROCESSORS: case AST_TEMPLATE: case AST_DISTRIBUTE: case AST_ALIGN:
        case AST_INDEPENDENT: case AST_DYNAMIC: case AST_INHERIT:
            continue;
        case AST_TYPE_DECL: case AST_DIMENSION_STMT: case AST_PARAMETER_STMT: {
            Node c = *n;
            PtrVec *src = n->kind == AST_TYPE_DECL ? &n->u.decl.entities : &n->u.list.items;
            PtrVec keep = {0};
            Node ents[64], vals[64];
            int ne = 0;
            for (int k = 0; k < src->n; k++) {
                Symbol *y = entity_sym(u, src->v[k]);
                Node *en = src->v[k];
                if (y && mapped(E, y))
                    continue;
                /* a PARAMETER gets its value, which -D may have changed */
                if (y && y->kind == SYM_PARAMETER && en->kind == AST_ENTITY
                    && en->u.entity.init && ne < 64 && param_value(&vals[ne], y)) {
                    ents[ne] = *en;
                    ents[ne].u.entity.init = &vals[ne];
                    en = &ents[ne++];
                }
                vec_push(NULL, &keep, en);
            }
            if (keep.n) {
                if (n->kind == AST_TYPE_DECL)
                    c.u.decl.entities = keep;
                else
                    c.u.list.items = keep;
                stmt_line(E, 0, &c);
            }
            free(keep.v);
            continue;
        }
        case AST_IMPLICIT: case AST_ALLOCATABLE_STMT:
        case AST_SAVE_STMT: case AST_EXTERNAL_STMT: case AST_INTRINSIC_STMT:
        case AST_PUBLIC_STMT: case AST_PRIVATE_STMT:
        case AST_COMMON_STMT:
            stmt_line(E, 0, n);
            continue;
        default:
            continue;      /* executable */
        }
    }
    if (!early)
        passed_decls(E);
    /* the clones of external functions it calls (passing.c), typed as
     * the functions */
    for (int i = 0; i < u->fclones.n; i++) {
        const SpUnit *c = u->fclones.v[i];
        if (c->host && c->host->unit->u.unit.which == UNIT_MODULE)
            continue;              /* a module's: by USE */
        const Node *f = c->unit;
        const Symbol *r = scope_lookup_local(c->scope, f->u.unit.result ? f->u.unit.result
                                                                         : f->u.unit.id);
        if (r)
            result_decl(E, f, r, c->name);
    }
    /* mapped arrays (local parts) and replicated temporaries, allocated at
     * run time */
    for (int i = 0; i < u->arrs.n + u->temp_arrs.n; i++) {
        const SpArr *a = i < u->arrs.n ? u->arrs.v[i] : u->temp_arrs.v[i - u->arrs.n];
        if (a->passed)
            continue;
        StrBuf b = {0};
        sb_printf(&b, "%s, allocatable :: %s(", type_text(a->type), a->name);
        for (int d = 0; d < a->rank; d++)
            sb_puts(&b, d ? ", :" : ":");
        sb_puts(&b, ")");
        put_line(E, 0, b.s);
        sb_free(&b);
    }
    StrBuf names = {0};
    for (int i = 0; i < u->procs.n; i++)
        add_name(&names, "%sp_%s", E->p, ((SpProcs *)u->procs.v[i])->name);
    for (int i = 0; i < u->tmpls.n; i++)
        add_name(&names, "%su_%s", E->p, ((SpTmpl *)u->tmpls.v[i])->name);
    for (int i = 0; i < u->arrs.n; i++)
        if (!((const SpArr *)u->arrs.v[i])->passed)
            add_name(&names, "%s", em_desc(E, u->arrs.v[i]));
    for (int i = 0; i < u->hidden.n; i++)
        add_name(&names, "%s", ((Symbol *)u->hidden.v[i])->name);
    decl_list(E, "integer", &names);
    /* a passed dummy: the caller's local part, its bounds passed too */
    for (int i = 0; i < u->passed.n; i++) {
        const SpArr *r = u->passed.v[i];
        StrBuf b = {0};
        sb_printf(&b, "%s :: %s(", type_text(r->type), r->name);
        for (int d = 0; d < r->rank; d++)
            sb_printf(&b, "%s%s%s_l%d:%s%s_h%d", d ? ", " : "", E->p, r->name, d + 1, E->p,
                      r->name, d + 1);
        sb_puts(&b, ")");
        put_line(E, 0, b.s);
        sb_free(&b);
    }
    for (int i = 0; i < u->index_syms.n; i++) {
        int used = 0;
        for (int k = 0; k < E->vused.n && !used; k++)
            used = E->vused.v[k] == u->index_syms.v[i];
        for (int k = 0; k < i && used; k++)
            used = u->index_syms.v[k] != u->index_syms.v[i];
        if (used)
            add_name(&names, "%s", ((Symbol *)u->index_syms.v[i])->name);
    }
    decl_list(E, "integer", &names);
    for (int k = 1; k <= u->nloopvars; k++)
        if (E->lused[k])
            add_name(&names, "%sh%d, %ss%d, %sf%d, %se%d, %sk%d, %sl%d, %sm%d", E->p, k, E->p, k,
                 E->p, k, E->p, k, E->p, k, E->p, k, E->p, k);
    decl_list(E, "integer", &names);
    for (int k = 1; k <= u->nloopvars; k++)
        if (E->lused[k] & 2)
            add_name(&names, "%sq%d(:)", E->p, k);
    decl_list(E, "integer, allocatable", &names);
    for (int k = 1; k <= u->ncounters; k++)
        if (E->cused[k])
            add_name(&names, "%sc%d", E->p, k);
    decl_list(E, "integer", &names);
    /* the gathers' schedule handles, kept from call to call */
    for (int k = 0; k < E->gsites.n; k++)
        add_name(&names, "%sg%d = 0", E->p, ((const SpGather *)E->gsites.v[k])->buf);
    decl_list(E, "integer, save", &names);
    /* the local index of a gathered reference read in place on one process */
    for (int k = 0; k < E->dsites.n; k++) {
        const SpGather *g = E->dsites.v[k];
        for (int d = 0; d < g->r->arr->rank; d++)
            add_name(&names, "%sy%d_%d, %sz%d_%d", E->p, g->buf, d + 1, E->p, g->buf, d + 1);
    }
    decl_list(E, "integer", &names);
    if (E->uses_x)
        em_line(E, "integer %sx(%d)", E->p, MAX_RANK);
    if (E->uses_n)
        em_line(E, "integer %sn", E->p);
    for (int i = 0; i < u->temps.n; i++) {
        const SpTemp *t = u->temps.v[i];
        em_line(E, "%s%s :: %st%d%s", type_text(t->type), t->rank ? ", allocatable" : "", E->p,
             t->id, t->rank == 2 ? "(:, :)" : t->rank == 1 ? "(:)" : "");
    }
    sb_free(&names);
    if (u->unit->u.unit.which != UNIT_MODULE)   /* (a USE would bring them twice) */
        rt_externals(E);
}

/* ---- the data mapping at run time ---- */

/* The local part of a mapped array, its bounds from its descriptor. */
static void alloc_local(Emit *E, const SpArr *a)
{
    const char *h = em_desc(E, a);
    StrBuf b = {0};
    sb_printf(&b, "allocate(%s(", a->name);
    for (int d = 0; d < a->rank; d++)
        sb_printf(&b, "%shpfrt_lo(%s, %d):hpfrt_hi(%s, %d)", d ? ", " : "", h, d + 1, h, d + 1);
    sb_puts(&b, "))");
    put_line(E, 0, b.s);
    sb_free(&b);
}

static void emit_tmpl(Emit *E, const SpTmpl *t)
{
    em_line(E, "call hpfrt_tmpl_new(%su_%s, %d, '%s')", E->p, t->name, t->rank, t->name);
    for (int d = 0; d < t->rank; d++) {
        char *lo = em_int(E, t->lo[d]), *hi = em_int(E, t->hi[d]), *k;
        long long kv, lv, hv;
        if (t->k[d] && cint(t->k[d], &kv) && cint(t->lo[d], &lv) && cint(t->hi[d], &hv)
            && hv >= lv && kv > hv - lv + 1) {
            /* a block larger than the template holds all of it, as one of
               the template's extent does (hpfmap_dim_init takes it so too):
               a block size of any kind that the run time can take */
            StrBuf b = {0};
            sb_printf(&b, "%lld", hv - lv + 1);
            k = b.s;
        } else {
            k = t->k[d] ? em_int(E, t->k[d]) : xstrdup("0");
        }
        em_line(E, "call hpfrt_tmpl_dim(%su_%s, %d, %s, %s, %d, %s)", E->p, t->name, d + 1, lo,
             hi, t->fmt[d], k);
        free(lo);
        free(hi);
        free(k);
        if (t->glo[d] || t->ghi[d])
            em_line(E, "call hpfrt_tmpl_ghost(%su_%s, %d, %d, %d)", E->p, t->name, d + 1,
                    t->glo[d], t->ghi[d]);
    }
    if (t->onto)
        em_line(E, "call hpfrt_tmpl_commit(%su_%s, %sp_%s)", E->p, t->name, E->p, t->onto->name);
    else
        em_line(E, "call hpfrt_tmpl_commit(%su_%s, 0)", E->p, t->name);
}

/* A mapped array's descriptor. */
static void emit_arr(Emit *E, const SpArr *a)
{
    char hd[256];
    snprintf(hd, sizeof hd, "%s", em_desc(E, a));
    em_line(E, "call hpfrt_arr_new(%s, %su_%s, %d, %d, '%s')", hd, E->p, a->tmpl->name, a->rank,
         esize(a->type), a->at_alloc ? a->sym->name : a->name);
    for (int d = 0; d < a->rank; d++) {
        char *lo = em_int(E, a->lo[d]), *hi = em_int(E, a->hi[d]);
        char *al = a->tdim[d] >= 0 ? em_int(E, a->alpha[d]) : xstrdup("1");
        char *be = a->tdim[d] >= 0 ? em_int(E, a->beta[d]) : xstrdup("0");
        em_line(E, "call hpfrt_arr_dim(%s, %d, %s, %s, %d, %s, %s, %d, %d)", hd, d + 1, lo, hi,
             a->tdim[d] + 1, al, be, a->glo[d], a->ghi[d]);
        free(lo);
        free(hi);
        free(al);
        free(be);
    }
    for (int te = 0; te < a->tmpl->rank; te++)
        if (a->fix[te]) {
            char *c = em_int(E, a->fix[te]);
            em_line(E, "call hpfrt_arr_fix(%s, %d, %s)", hd, te + 1, c);
            free(c);
        }
    em_line(E, "call hpfrt_arr_commit(%s)", hd);
}

/* The mapping at the unit's start: what an ALLOCATE lays out waits for it
 * (its descriptor 0 until then). */
static void mapping(Emit *E)
{
    const SpUnit *u = E->u;
    for (int i = 0; i < u->procs.n; i++) {
        const SpProcs *p = u->procs.v[i];
        em_line(E, "call hpfrt_procs_new(%sp_%s, %d, '%s')", E->p, p->name, p->rank, p->name);
        for (int d = 0; d < p->rank; d++) {
            char *x = p->ext[d] ? em_int(E, p->ext[d]) : xstrdup("0");
            em_line(E, "call hpfrt_procs_dim(%sp_%s, %d, %s)", E->p, p->name, d + 1, x);
            free(x);
        }
        em_line(E, "call hpfrt_procs_commit(%sp_%s)", E->p, p->name);
    }
    for (int i = 0; i < u->tmpls.n; i++) {
        const SpTmpl *t = u->tmpls.v[i];
        if (t->at_alloc)
            em_line(E, "%su_%s = 0", E->p, t->name);
        else
            emit_tmpl(E, t);
    }
    for (int i = 0; i < u->arrs.n; i++) {
        const SpArr *a = u->arrs.v[i];
        if (a->passed) {
            /* the caller's: its descriptor must have come along */
            em_line(E, "call hpfrt_arr_check(%s, %d)", em_desc(E, a), a->rank);
            for (int d = 0; d < a->rank; d++)
                if (a->bvar[d])
                    em_line(E, "%s = hpfrt_beta(%s, %d)", a->bvar[d]->name, em_desc(E, a), d + 1);
            for (int d = 0; a->passed >= 2 && d < a->rank; d++) {
                char *lo = em_int(E, a->lo[d]), *hi = em_int(E, a->hi[d]);
                em_line(E, "call hpfrt_arr_bounds(%s, %d, %s, %s)", em_desc(E, a), d + 1, lo, hi);
                free(lo);
                free(hi);
            }
            continue;
        }
        if (a->at_alloc) {
            em_line(E, "%s = 0", em_desc(E, a));
            int remapped = 0;
            for (int k = 0; k < u->arrs.n && !remapped; k++)
                remapped = u->arrs.v[k] != a && ((const SpArr *)u->arrs.v[k])->sym == a->sym;
            if (remapped) {
                /* allocated and freed under run-time conditions (remaps only
                   while allocated): its bounds defined on every path, or
                   gfortran -Wall warns they may be used undefined */
                StrBuf b = {0};
                sb_printf(&b, "allocate(%s(", a->name);
                for (int d = 0; d < a->rank; d++)
                    sb_puts(&b, d ? ", 0" : "0");
                sb_printf(&b, "))");
                put_line(E, 0, b.s);
                em_line(E, "deallocate(%s)", a->name);
                sb_free(&b);
            }
            continue;
        }
        emit_arr(E, a);
        if (!a->version)
            alloc_local(E, a);     /* the other versions: when a remap needs them */
    }
}

/* ---- statements ---- */

static void emit_stmts(Emit *E, const PtrVec *v);

static void source_comment(Emit *E, const SpStmt *s)
{
    if (!s->line || s->line == E->last_line)
        return;
    E->last_line = s->line;
    const SrcFile *f = s->loc.file;
    if (!f || s->line > f->nlines) {
        char buf[32];
        snprintf(buf, sizeof buf, "line %d", s->line);
        comment(E, buf);
        return;
    }
    const char *t = f->text + f->line_off[s->line];
    int n = 0;
    while (t[n] && t[n] != '\n' && t[n] != '\r')
        n++;
    while (n && (*t == ' ' || *t == '\t')) {
        t++;
        n--;
    }
    if (n > 60)
        n = 60;
    char buf[96];
    snprintf(buf, sizeof buf, "line %d: %.*s", s->line, n, t);
    comment(E, buf);
}

static void element_test(Emit *E, StrBuf *b, const Node *lhs)
{
    const SpRef *r = lhs->ir;
    int any = 0;
    for (int d = 0; d < r->arr->rank; d++) {
        if (r->arr->tdim[d] < 0)
            continue;
        char *s = em_int(E, r->sub[d]);
        sb_printf(b, "%shpfrt_mine(%s, %d, %s) .eq. 1", any ? " .and. " : "", em_desc(E, r->arr),
                  d + 1, s);
        free(s);
        any = 1;
    }
    if (!any)
        sb_printf(b, "hpfrt_present(%s) .eq. 1", em_desc(E, r->arr));
}

static void free_descriptors(Emit *E)
{
    if (E->u->main)
        return;
    for (int i = 0; i < E->u->arrs.n; i++) {
        const SpArr *a = E->u->arrs.v[i];
        if (a->passed)
            continue;
        if (a->at_alloc)
            em_line(E, "if (%s /= 0) call hpfrt_arr_free(%s)", em_desc(E, a), em_desc(E, a));
        else
            em_line(E, "call hpfrt_arr_free(%s)", em_desc(E, a));
    }
    /* and its templates and arrangements, made anew at each entry (or
       ALLOCATE) */
    for (int i = 0; i < E->u->tmpls.n; i++) {
        const SpTmpl *t = E->u->tmpls.v[i];
        if (t->at_alloc)
            em_line(E, "if (%su_%s /= 0) call hpfrt_tmpl_free(%su_%s)", E->p, t->name, E->p,
                 t->name);
        else
            em_line(E, "call hpfrt_tmpl_free(%su_%s)", E->p, t->name);
    }
    for (int i = 0; i < E->u->procs.n; i++)
        em_line(E, "call hpfrt_procs_free(%sp_%s)", E->p, ((SpProcs *)E->u->procs.v[i])->name);
}

/* The names of a passed dummy's extra arguments: its descriptor, then the
 * lower and upper local bound of each dimension. */
static void passed_args(Emit *E, StrBuf *b, const SpArr *r)
{
    sb_printf(b, ", %s", em_desc(E, r));
    for (int d = 0; d < r->rank; d++)
        sb_printf(b, ", %s%s_l%d, %s%s_h%d", E->p, r->name, d + 1, E->p, r->name, d + 1);
}

/* After a call's arguments: for each mapped array passed whole, its
 * descriptor and its local bounds (passing.c). */
static void passed_extra(Emit *E, StrBuf *b, const SpUnit *callee, const Node *call)
{
    for (int i = 0; i < callee->passed.n; i++) {
        const SpArr *r = callee->passed.v[i];
        const Node *a = r->dummy <= call->u.ref.args.n ? call->u.ref.args.v[r->dummy - 1] : NULL;
        const SpRef *ir = a ? a->ir : NULL;
        if (!ir || !ir->arr)
            continue;               /* the lowering refused it */
        const SpArr *x = ir->arr;
        sb_printf(b, ", %s", em_desc(E, x));
        for (int d = 0; d < x->rank; d++)
            sb_printf(b, ", lbound(%s, %d), ubound(%s, %d)", x->name, d + 1, x->name, d + 1);
    }
}

/* A CALL: a whole mapped array passed comes with its descriptor and its
 * local bounds (passing.c). */
static void emit_call(Emit *E, const Node *call)
{
    const SpUnit *callee = spmd_callee(E->prog, E->u, call);
    if (!callee || !callee->passed.n) {
        stmt_line(E, 0, call);
        return;
    }
    char *c = unparse_stmt_string(call, hook, E);
    size_t n = strlen(c);
    StrBuf b = {0};
    if (n && c[n - 1] == ')')
        c[n - 1] = 0;
    sb_puts(&b, c);
    if (!strchr(c, '('))
        sb_puts(&b, "(");
    passed_extra(E, &b, callee, call);
    sb_puts(&b, ")");
    put_line(E, 0, b.s);
    sb_free(&b);
    free(c);
}

/* A DO loop of the main program's own statements: after each iteration a
 * software probe may leave it (hpfrt_probe_next, doc/probes.md). At the
 * end of the body, so that every variable the body sets is set as the
 * compiler sees it; a CYCLE passing it only leaves the loop later. */
static void probe_exit(Emit *E, const SpStmt *s)
{
    if (!E->u->main)
        return;
    for (int i = 0; i < E->u->body.n; i++)
        if (E->u->body.v[i] == s) {
            em_line(E, "if (hpfrt_probe_next(%d) /= 0) exit", s->line);
            return;
        }
}

static void emit_stmt(Emit *E, const SpStmt *s)
{
    source_comment(E, s);
    if (s->label && used_label(E, s->label))
        put_line(E, s->label, "continue");
    switch (s->kind) {
    case SP_SEQ:
        if (s->u.seq->kind == AST_CALL)
            emit_call(E, s->u.seq);
        else
            stmt_line(E, 0, s->u.seq);
        break;
    case SP_STORE: {
        StrBuf b = {0};
        element_test(E, &b, s->u.store.lhs);
        em_line(E, "call hpfrt_region_begin(%d)", s->line);
        em_line(E, "if (%s) then", b.s);
        sb_free(&b);
        E->level++;
        char *l = em_ex(E, s->u.store.lhs), *v = em_ex(E, s->u.store.rhs);
        em_line(E, "%s = %s", l, v);
        free(l);
        free(v);
        E->level--;
        em_line(E, "end if");
        em_line(E, "call hpfrt_region_end(%d)", s->line);
        break;
    }
    case SP_FORALL: case SP_REDUCE:
        emit_loop(E, s);
        break;
    case SP_BCAST: {
        const Node *ref = s->u.bcast.ref;
        const SpRef *r = ref->ir;
        em_line(E, "call hpfrt_region_begin(%d)", s->line);
        for (int d = 0; d < r->arr->rank; d++) {
            char *x = em_int(E, r->sub[d]);
            em_line(E, "%sx(%d) = %s", E->p, d + 1, x);
            free(x);
        }
        StrBuf b = {0};
        em_first_elem(E, &b, r->arr);
        em_line(E, "call hpfrt_bcast_%s(%s, %s, %sx(1), %st%d)", em_tsuffix(r->arr->type),
             em_desc(E, r->arr), b.s, E->p, E->p, s->u.bcast.temp);
        sb_free(&b);
        em_line(E, "call hpfrt_region_end(%d)", s->line);
        break;
    }
    case SP_DO: {
        char *lo = em_ex(E, s->u.do_.lo), *hi = em_ex(E, s->u.do_.hi);
        char *st = s->u.do_.st ? em_ex(E, s->u.do_.st) : NULL;
        char *v = em_ex(E, s->u.do_.var);
        if (st)
            em_line(E, "do %s = %s, %s, %s", v, lo, hi, st);
        else
            em_line(E, "do %s = %s, %s", v, lo, hi);
        free(lo);
        free(hi);
        free(st);
        free(v);
        E->level++;
        emit_stmts(E, &s->u.do_.body);
        probe_exit(E, s);
        E->level--;
        put_line(E, s->u.do_.end_label, "end do");
        break;
    }
    case SP_WHILE:
        if (!s->u.while_.cond) {
            em_line(E, "do");
        } else if (!s->u.while_.pre.n) {
            char *c = em_ex(E, s->u.while_.cond);
            em_line(E, "do while (%s)", c);
            free(c);
        } else {
            em_line(E, "do");
            E->level++;
            emit_stmts(E, &s->u.while_.pre);
            char *c = em_ex(E, s->u.while_.cond);
            em_line(E, "if (.not. (%s)) exit", c);
            free(c);
            E->level--;
        }
        E->level++;
        emit_stmts(E, &s->u.while_.body);
        probe_exit(E, s);
        E->level--;
        put_line(E, s->u.while_.end_label, "end do");
        break;
    case SP_IF: {
        int opened = 0;
        for (int i = 0; i < s->u.if_.branches.n; i++) {
            const SpBranch *b = s->u.if_.branches.v[i];
            if (!b->cond) {
                em_line(E, "else");
            } else if (i == 0 || b->pre.n) {
                if (i) {
                    em_line(E, "else");
                    E->level++;
                }
                emit_stmts(E, &b->pre);
                char *c = em_ex(E, b->cond);
                em_line(E, "if (%s) then", c);
                free(c);
                opened++;
            } else {
                char *c = em_ex(E, b->cond);
                em_line(E, "else if (%s) then", c);
                free(c);
            }
            E->level++;
            emit_stmts(E, &b->body);
            E->level--;
        }
        while (opened--) {
            em_line(E, "end if");
            if (opened)
                E->level--;
        }
        break;
    }
    case SP_IO: {
        const Node *io = s->u.io.stmt;
        em_line(E, "if (hpfrt_ioproc() .eq. 1) then");
        E->level++;
        stmt_line(E, 0, io);
        E->level--;
        em_line(E, "end if");
        for (int i = 0; i < s->u.io.reads.n; i++) {
            const Node *v = s->u.io.reads.v[i];
            const SpRef *r = v->kind == AST_REF ? v->ir : NULL;
            if (r && r->arr && !r->arr->sym) {
                StrBuf b = {0};
                em_first_elem(E, &b, r->arr);
                em_line(E, "call hpfrt_bcastio_%s(%s, size(%s))", em_tsuffix(v->type), b.s, r->arr->name);
                sb_free(&b);
            } else if (v->kind == AST_NAME && v->u.name.sym && v->u.name.sym->rank) {
                Symbol *y = v->u.name.sym;
                StrBuf b = {0};
                sb_printf(&b, "%s(", y->name);
                for (int d = 0; d < y->rank; d++)
                    sb_printf(&b, "%slbound(%s, %d)", d ? ", " : "", y->name, d + 1);
                sb_puts(&b, ")");
                em_line(E, "call hpfrt_bcastio_%s(%s, size(%s))", em_tsuffix(v->type), b.s, y->name);
                sb_free(&b);
            } else {
                char *x = em_ex(E, v);
                em_line(E, "call hpfrt_bcastio_%s(%s, 1)", em_tsuffix(v->type), x);
                free(x);
            }
        }
        break;
    }
    case SP_ALLOC: case SP_DEALLOC:
        for (int i = 0; i < s->u.alloc.items.n; i++) {
            const Node *ref = s->u.alloc.items.v[i];
            const SpRef *r = ref->ir;
            const SpArr *a = r->arr;
            if (s->kind == SP_DEALLOC) {
                em_line(E, "deallocate(%s)", a->name);
                if (a->at_alloc) {
                    em_line(E, "call hpfrt_arr_free(%s)", em_desc(E, a));
                    em_line(E, "%s = 0", em_desc(E, a));
                    if (a->tmpl->at_alloc && a->tmpl->array == a->sym)
                        em_line(E, "call hpfrt_tmpl_free(%su_%s)", E->p, a->tmpl->name);
                }
                continue;
            }
            if (a->at_alloc && a->tmpl->at_alloc && a->tmpl->array == a->sym)
                emit_tmpl(E, a->tmpl);         /* distributed directly: its own template */
            else if (a->at_alloc && a->tmpl->at_alloc)
                em_line(E, "if (%su_%s == 0) call hpfrt_abort('''%s'' is allocated before "
                     "''%s'', which it is aligned with')", E->p, a->tmpl->name, a->sym->name,
                     a->tmpl->name);
            if (a->at_alloc)
                emit_arr(E, a);
            if (a->tmpl) {
                alloc_local(E, a);
                continue;
            }
            StrBuf b = {0};
            sb_printf(&b, "allocate(%s(", a->name);
            for (int d = 0; d < a->rank; d++) {
                char *h = em_ex(E, a->hi[d]);
                sb_printf(&b, "%smax(1, %s)", d ? ", " : "", h);
                free(h);
            }
            sb_puts(&b, "))");
            put_line(E, 0, b.s);
            sb_free(&b);
        }
        break;
    case SP_STOP: {
        free_descriptors(E);
        em_line(E, "call hpfrt_finalize()");
        if (s->u.stop.code) {
            char *c = em_ex(E, s->u.stop.code);
            em_line(E, "if (hpfrt_ioproc() .eq. 1) stop %s", c);
            free(c);
        }
        em_line(E, "stop");
        break;
    }
    case SP_RETURN:
        free_descriptors(E);
        em_line(E, "return");
        break;
    }
}

/* generated data: a variable set to 1 (.true. for LOGICAL; CHARACTER
   left), when it has storage here (not ALLOCATABLE, not a PARAMETER) */
static void generated_value(Emit *E, const char *name, Type t)
{
    if (t.base == TY_LOGICAL)
        em_line(E, "%s = .true.", name);
    else if (t.base != TY_CHARACTER)
        em_line(E, "%s = 1", name);
}

/* The trips of DO w, nested in a phase's DO, as Fortran (heap). */
static char *do_trips(Emit *E, const SpStmt *w)
{
    char *lo = em_ex(E, w->u.do_.lo), *hi = em_ex(E, w->u.do_.hi);
    char *st = w->u.do_.st ? em_ex(E, w->u.do_.st) : xstrdup("1");
    StrBuf t = {0};
    sb_printf(&t, "max(0, ((%s) - (%s) + (%s))/(%s))", hi, lo, st, st);
    free(lo);
    free(hi);
    free(st);
    return t.s;
}

/* The scalar assignments before DO WHILE w among the statements in. */
static void while_prelude(Emit *E, const PtrVec *in, const SpStmt *w)
{
    for (int i = 0; i < in->n && in->v[i] != w; i++)
        if (spmd_probe_setup_stmt(in->v[i]))
            emit_stmt(E, in->v[i]);
}

/* hpfc --probe: the main program's body replaced by its phases'
 * statements (doc/probes.md): the arrays and the REAL and COMPLEX scalars
 * set to generated values; the set-up before the first DO (its scalar
 * assignments, the statements that set arrays from what is known: no
 * calls, no I/O); then each phase's statements, as many
 * times as its representative interval runs them, in a block libhpfrt
 * repeats and times (hpfrt_probe_again: a first pass that sizes the
 * repetitions, then enough of them to last HPFRT_PROBE_MIN). */
static void synthetic_body(Emit *E)
{
    const SpProbe *pr = E->prog->probe;
    const SpUnit *u = E->u;
    int nwhile = 0;           /* the DO WHILEs run whole so far */
    comment(E, "synthetic probe: generated data");
    em_line(E, "call hpfrt_probe_synth('%s', %d)", pr->fingerprint, pr->np);
    for (int i = 0; i < u->arrs.n; i++) {
        const SpArr *a = u->arrs.v[i];
        if (a->sym && !a->allocatable && !a->version)
            generated_value(E, a->name, a->type);
    }
    PtrVec *body = &u->unit->u.unit.body;
    for (int i = 0; i < body->n; i++) {
        const Node *n = body->v[i];
        if (n->kind != AST_TYPE_DECL)
            continue;
        for (int k = 0; k < n->u.decl.entities.n; k++) {
            const Symbol *y = entity_sym(u, n->u.decl.entities.v[k]);
            if (!y || y->kind != SYM_VARIABLE || y->allocatable || mapped(E, y) || y->common ||
                (y->rank == 0 && y->type.base != TY_REAL && y->type.base != TY_COMPLEX))
                continue;
            generated_value(E, y->name, y->type);
        }
    }
    /* hpfc's scalar temporaries: a statement the probe runs may read one
       that a statement it does not run sets (the parts of a line) */
    for (int i = 0; i < u->temps.n; i++) {
        const SpTemp *t = u->temps.v[i];
        if (!t->rank) {
            char name[64];
            snprintf(name, sizeof name, "%st%d", E->p, t->id);
            generated_value(E, name, t->type);
        }
    }
    comment(E, "synthetic probe: the set-up");
    for (int i = 0; i < pr->setup.n; i++)
        emit_stmt(E, pr->setup.v[i]);
    for (int i = 0; i < pr->phases.n; i++) {
        const SpProbePhase *q = pr->phases.v[i];
        char buf[160];
        snprintf(buf, sizeof buf, "synthetic probe: phase %d", q->phase);
        comment(E, buf);
        E->last_line = 0;
        for (int k = 0; q->top_line && k < u->body.n; k++) {
            const SpStmt *s = u->body.v[k];
            if (s->kind == SP_DO && s->line == q->top_line && s->u.do_.var) {
                char *v = em_ex(E, s->u.do_.var), *lo = em_ex(E, s->u.do_.lo);
                char *st = s->u.do_.st ? em_ex(E, s->u.do_.st) : NULL;
                em_line(E, "%s = %s + (%lld)*(%s)", v, lo, q->top_iter - 1, st ? st : "1");
                free(v);
                free(lo);
                free(st);
            }
        }
        /* the executions the interval makes; libhpfrt scales the block's
           time to them from the region entries the block made */
        double want = 0;
        long long c0 = -1;
        int same = 1;
        for (int k = 0; k < q->stmts.n; k++) {
            double c = *(const double *)q->counts.v[k];
            long long r = c < 1 ? 1 : (long long)(c + 0.5);
            want += c;
            if (q->wraps.v[k] || (c0 >= 0 && r != c0))
                same = 0;
            c0 = r;
        }
        if (!q->stmts.n) {
            /* its work is in procedures or scalar code: not timed, its time
               estimated from the others' (a row of -1) */
            em_line(E, "call hpfrt_probe_unmeasured(%d, %.17gd0, %.17gd0)", q->phase, q->rep_work,
                    q->phase_work);
            continue;
        }
        /* the trips of the DO WHILEs run whole, counted before the block:
           their preludes, then their conditions and assignments alone */
        int w0 = nwhile;
        for (int k = 0; k < q->stmts.n; k++) {
            if (!first_while(q, k))
                continue;
            const SpStmt *w = q->wraps.v[k];
            nwhile++;
            while_prelude(E, q->wrap_in.v[k], w);
            em_line(E, "%sprw(%d) = 0", E->p, nwhile);
            char *c = em_ex(E, w->u.while_.cond);
            em_line(E, "do while (%s)", c);
            free(c);
            E->level++;
            for (int j = 0; j < w->u.while_.body.n; j++)
                if (spmd_probe_setup_stmt(w->u.while_.body.v[j]))
                    emit_stmt(E, w->u.while_.body.v[j]);
            em_line(E, "%sprw(%d) = %sprw(%d) + 1", E->p, nwhile, E->p, nwhile);
            E->level--;
            em_line(E, "end do");
        }
        em_line(E, "do while (hpfrt_probe_again(%d, %.17gd0, %.17gd0, %.17gd0) /= 0)", q->phase,
                q->rep_work, q->phase_work, want);
        E->level++;
        /* one loop when every statement runs as often, else one each */
        for (int k = 0; k < q->stmts.n; k++) {
            double c = *(const double *)q->counts.v[k];
            const SpStmt *w = q->wraps.v[k];
            if (w && w->kind == SP_WHILE) {
                /* a DO WHILE run whole after its prelude, entered as many
                   times as its statements' executions over its trips' */
                if (!first_while(q, k))
                    continue;
                double cs = 0;
                int nreg = 0;
                for (int j = k; j < q->stmts.n; j++)
                    if (q->wraps.v[j] == w) {
                        cs += *(const double *)q->counts.v[j];
                        nreg++;
                    }
                w0++;
                em_line(E, "do %sprb = 1, max(1, nint(%.17gd0/dble(%d*max(1, %sprw(%d)))))", E->p,
                        cs, nreg, E->p, w0);
                E->level++;
                while_prelude(E, q->wrap_in.v[k], w);
                emit_stmt(E, w);
                E->level--;
                em_line(E, "end do");
                continue;
            }
            if (w) {
                /* statements in a DO of the phase's DO that read its
                   variable: the DO run whole around them (those of one DO
                   with one count together), entered executions / trips
                   times */
                int k1 = k;
                while (k1 + 1 < q->stmts.n && q->wraps.v[k1 + 1] == w &&
                       *(const double *)q->counts.v[k1 + 1] == c)
                    k1++;
                char *v = em_ex(E, w->u.do_.var), *lo = em_ex(E, w->u.do_.lo);
                char *st = w->u.do_.st ? em_ex(E, w->u.do_.st) : xstrdup("1");
                char *t = do_trips(E, w);
                em_line(E, "do %sprb = 1, max(1, nint(%.17gd0/dble(max(1, %s))))", E->p, c, t);
                E->level++;
                /* a DO of more trips than the executions: its first ones */
                em_line(E, "do %sprj = 1, min(%s, %lld)", E->p, t, c < 1 ? 1 : (long long)(c + 0.5));
                free(t);
                E->level++;
                em_line(E, "%s = %s + (%sprj - 1)*(%s)", v, lo, E->p, st);
                for (int j = k; j <= k1; j++)
                    emit_stmt(E, q->stmts.v[j]);
                E->level--;
                em_line(E, "end do");
                E->level--;
                em_line(E, "end do");
                free(v);
                free(lo);
                free(st);
                k = k1;
                continue;
            }
            long long r = same ? c0 : c < 1 ? 1 : (long long)(c + 0.5);
            int open = r > 1 && (!same || k == 0), close = r > 1 && (!same || k == q->stmts.n - 1);
            if (open) {
                em_line(E, "do %sprb = 1, %lld", E->p, r);
                E->level++;
            }
            emit_stmt(E, q->stmts.v[k]);
            if (close) {
                E->level--;
                em_line(E, "end do");
            }
        }
        E->level--;
        em_line(E, "end do");
    }
}

static void emit_stmts(Emit *E, const PtrVec *v)
{
    for (int i = 0; i < v->n; i++)
        emit_stmt(E, v->v[i]);
}

static const char *const unit_words[] = {"program", "subroutine", "function", "module"};

static void emit_unit(Emit *E, const SpUnit *u)
{
    const Node *n = u->unit;
    E->u = u;
    E->last_line = 0;
    char *saved_cused = E->cused, *saved_lused = E->lused;
    PtrVec saved_vused = E->vused, saved_gsites = E->gsites, saved_dsites = E->dsites;
    int saved_x = E->uses_x, saved_n = E->uses_n;
    E->cused = xcalloc((size_t)u->ncounters + 2, 1);
    E->lused = xcalloc((size_t)u->nloopvars + 2, 1);
    E->vused = (PtrVec){0};
    E->gsites = (PtrVec){0};
    E->dsites = (PtrVec){0};
    E->uses_x = E->uses_n = 0;
    scan_stmts(E, &u->body);
    PtrVec saved_targets = E->targets;
    E->targets = (PtrVec){0};
    sp_gotos(&u->body, &E->targets);
    StrBuf b = {0};
    int which = n->u.unit.which;
    if (n->u.unit.recursive)
        sb_puts(&b, "recursive ");
    sb_printf(&b, "%s %s", unit_words[which], u->name ? u->name : "main");
    if (which != UNIT_PROGRAM && which != UNIT_MODULE) {
        sb_puts(&b, "(");
        for (int i = 0; i < n->u.unit.args.n; i++) {
            const Node *a = n->u.unit.args.v[i];
            sb_printf(&b, "%s%s", i ? ", " : "", a->kind == AST_NAME ? a->u.name.id : "*");
        }
        for (int i = 0; i < u->passed.n; i++)
            passed_args(E, &b, u->passed.v[i]);
        sb_puts(&b, ")");
        if (n->u.unit.result)
            sb_printf(&b, " result(%s)", n->u.unit.result);
        else if (which == UNIT_FUNCTION && u->clone_of)
            sb_printf(&b, " result(%s)", n->u.unit.id);   /* as the body names it */
    }
    put_line(E, 0, b.s);
    sb_free(&b);
    E->level++;
    uses(E, n);
    declarations(E);
    if (which == UNIT_MODULE && u->scope->default_private) {
        /* hpfc's names of the module, which its users need */
        StrBuf names = {0};
        module_names(E, u, &names);
        if (module_maps(u))
            add_name(&names, "%sminit_%s", E->p, n->u.unit.id);
        if (names.s && names.s[0])
            em_line(E, "public :: %s", names.s);
        sb_free(&names);
    }
    if (which == UNIT_FUNCTION && n->u.unit.rtype) {
        const Symbol *r = scope_lookup_local(u->scope, n->u.unit.result ? n->u.unit.result
                                                                         : n->u.unit.id);
        if (r)
            result_decl(E, n, r, r->name);
    }
    if (u->main) {
        comment(E, "start the run time and lay out the mapped arrays");
        em_line(E, "call hpfrt_init()");
        /* one call a value: a line of fixed form holds it */
        for (const char *v = E->prog->values; v && *v;) {
            size_t n = strcspn(v, " ");
            if (n <= 40)
                em_line(E, "call hpfrt_values('%.*s')", (int)n, v);
            v += n + (v[n] == ' ');
        }
        for (int k = 0; k < E->prog->units.n; k++) {
            const SpUnit *m = E->prog->units.v[k];
            if (m->unit->u.unit.which == UNIT_MODULE && module_maps(m))
                em_line(E, "call %sxinit_%s()", E->p, m->unit->u.unit.id);
        }
    }
    if (which != UNIT_MODULE) {
        mapping(E);
        if (u->main && E->prog->probe)
            synthetic_body(E);
        else
            emit_stmts(E, &u->body);
        free_descriptors(E);
    }
    if (u->main)
        em_line(E, "call hpfrt_finalize()");
    E->level--;
    int minit = which == UNIT_MODULE && module_maps(u);
    if (n->u.unit.contains.n || minit) {
        em_line(E, "contains");
        if (minit) {
            /* its mapped data laid out when the run starts: a procedure of
               the module (its names may be PRIVATE), which the main program
               calls through hpf_xinit_m after hpfrt_init */
            E->level++;
            em_line(E, "subroutine %sminit_%s()", E->p, n->u.unit.id);
            E->level++;
            rt_externals(E);
            mapping(E);
            E->level--;
            em_line(E, "end subroutine %sminit_%s", E->p, n->u.unit.id);
            E->level--;
        }
        for (int i = 0; i < n->u.unit.contains.n; i++)
            for (int k = 0; k < E->prog->units.n; k++) {
                const SpUnit *c = E->prog->units.v[k];
                const SpUnit *b = c->clone_of ? c->clone_of : c;
                if (b->unit == n->u.unit.contains.v[i] && c->host == u) {
                    E->level++;
                    emit_unit(E, c);
                    E->level--;
                    E->u = u;
                }
            }
    }
    em_line(E, "end %s %s", unit_words[which], u->name ? u->name : "main");
    if (minit) {
        fputc('\n', E->out);
        em_line(E, "subroutine %sxinit_%s()", E->p, n->u.unit.id);
        E->level++;
        em_line(E, "use %s, only: %sminit_%s", n->u.unit.id, E->p, n->u.unit.id);
        em_line(E, "call %sminit_%s()", E->p, n->u.unit.id);
        E->level--;
        em_line(E, "end subroutine %sxinit_%s", E->p, n->u.unit.id);
    }
    free(E->targets.v);
    E->targets = saved_targets;
    free(E->cused);
    E->cused = saved_cused;
    free(E->lused);
    E->lused = saved_lused;
    free(E->vused.v);
    E->vused = saved_vused;
    free(E->gsites.v);
    E->gsites = saved_gsites;
    free(E->dsites.v);
    E->dsites = saved_dsites;
    E->uses_x = saved_x;
    E->uses_n = saved_n;
}

int spmd_emit(FILE *out, const SpProgram *p, int fixed, const char *srcname)
{
    Emit E = {0};
    E.out = out;
    E.fixed = fixed;
    E.prog = p;
    E.p = p->prefix;
    fprintf(out, "! Generated by hpfc %s from %s: SPMD Fortran calling libhpfrt.\n",
            PACKAGE_VERSION, srcname);
    fprintf(out, "! Comments give the source lines; names starting '%s' are hpfc's.\n", E.p);
    for (int i = 0; i < p->units.n; i++) {
        const SpUnit *u = p->units.v[i];
        if (u->internal)
            continue;
        if (i)
            fputc('\n', out);
        emit_unit(&E, u);
    }
    return ferror(out) ? -1 : 0;
}
