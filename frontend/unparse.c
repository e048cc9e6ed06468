/* unparse.c - prints the AST back as normalized free-form Fortran (hpfc
 * --unparse): lowercase, indented, labelled DO loops as DO ... END DO,
 * directives as !HPF$ lines, the fewest parentheses that keep the tree. */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "ast.h"

/* gfortran refuses free-form lines over 132 characters; break well before. */
enum { LINE_LIMIT = 100, MAX_INDENT = 60, CONT_EXTRA = 4 };

typedef struct {
    int start, end;      /* a character constant: its quotes at start and end - 1 */
} Span;

typedef struct {
    int at;              /* offset in the text: the line may end before it */
    int depth;           /* parentheses open there */
} Break;

struct Unparse {
    FILE *out;
    UnparseHook hook;    /* prints some nodes itself (the SPMD emitter), or NULL */
    void *hook_ctx;
    StrBuf text;         /* the statement being printed, without indentation */
    int depth;           /* parentheses open at the end of text */
    Break *brk;          /* where a line may end, ascending */
    int nbrk, capbrk;
    Span *str;           /* the character constants in text */
    int nstr, capstr;
};

/* Operator precedence, high binds tighter (Fortran 95 7.2, table 7.7). */
enum { P_EQV = 1, P_OR, P_AND, P_NOT, P_REL, P_CONCAT, P_ADD, P_SIGN, P_MUL, P_POW,
       P_PRIMARY };

static const char *const base_names[] = {"", "integer", "real", "complex", "logical",
                                         "character", "error"};
static const char *const intent_names[] = {"", "in", "out", "inout"};
static const char *const unit_words[] = {"program", "subroutine", "function", "module"};

static void expr(Unparse *u, const Node *n);
static void stmt(Unparse *u, const Node *n, int level);
static void action(Unparse *u, const Node *n);

/* ---- output buffer ---- */

/* Text other than character constants: counts the parentheses, so that a
 * long line is broken where fewest are open. */
static void put(Unparse *u, const char *s)
{
    sb_puts(&u->text, s);
    for (; *s; s++)
        u->depth += *s == '(' ? 1 : *s == ')' ? -1 : 0;
}

/* A line may be broken here: between two tokens, never inside a name. */
static void mark(Unparse *u)
{
    if (u->nbrk == u->capbrk) {
        u->capbrk = u->capbrk ? 2 * u->capbrk : 64;
        u->brk = xrealloc(u->brk, (size_t)u->capbrk * sizeof *u->brk);
    }
    u->brk[u->nbrk++] = (Break){(int)u->text.len, u->depth};
}

static void put_string(Unparse *u, const char *text)
{
    if (u->nstr == u->capstr) {
        u->capstr = u->capstr ? 2 * u->capstr : 16;
        u->str = xrealloc(u->str, (size_t)u->capstr * sizeof *u->str);
    }
    int start = (int)u->text.len;
    sb_puts(&u->text, text);
    u->str[u->nstr++] = (Span){start, (int)u->text.len};
}

static void reset(Unparse *u)
{
    sb_clear(&u->text);
    u->depth = 0;
    u->nbrk = 0;
    u->nstr = 0;
}

static void indent(Unparse *u, int level, int label)
{
    int width = 2 * level < MAX_INDENT ? 2 * level : MAX_INDENT;
    int used = 0;
    if (label)
        used = fprintf(u->out, "%d ", label);
    for (; used < width; used++)
        fputc(' ', u->out);
}

/* Where in the character constant sp a line may end before offset p (the
 * continuation goes on with text[p]): not next to a quote, so a doubled
 * quote stays on one line. Returns -1 if nowhere after lo. */
static int string_break(const Unparse *u, const Span *sp, int p, int lo)
{
    const char *s = u->text.s;
    for (; p > lo && p > sp->start + 1; p--)
        if (p < sp->end - 1 && s[p] != s[sp->start] && s[p - 1] != s[sp->start])
            return p;
    return -1;
}

/* Where to end a line that starts at offset `start` and may hold `room`
 * characters before its '&': inside a constant too long for a line of its
 * own if one runs past the end, else at the break in the line's second half
 * with the fewest parentheses open, else at the last; -1 if there is none. */
static int last_break(const Unparse *u, int start, int room, int cont_width)
{
    int limit = start + room;
    for (int i = 0; i < u->nstr; i++) {
        const Span *sp = &u->str[i];
        if (sp->end - sp->start + cont_width + 1 > LINE_LIMIT
            && sp->start < limit && limit < sp->end) {
            int p = string_break(u, sp, limit, start);
            if (p >= 0)
                return p;
        }
    }
    int best = -1, best_depth = 0, last = -1;
    for (int i = 0; i < u->nbrk && u->brk[i].at <= limit; i++) {
        const Break *b = &u->brk[i];
        if (b->at <= start)
            continue;
        last = b->at;
        if (b->at > start + room / 2 && (best < 0 || b->depth <= best_depth)) {
            best = b->at;
            best_depth = b->depth;
        }
    }
    return best >= 0 ? best : last;
}

/* The first place to end the line after `start`, for a line that cannot
 * be made short enough: better a long line than none. */
static int first_break(const Unparse *u, int start)
{
    for (int i = 0; i < u->nbrk; i++)
        if (u->brk[i].at > start)
            return u->brk[i].at;
    return -1;
}

/* Writes the statement in u->text at the nesting level, with its label,
 * continued with '&' where it is longer than LINE_LIMIT. */
static void flush(Unparse *u, int level, int label)
{
    int width = 2 * level < MAX_INDENT ? 2 * level : MAX_INDENT;
    int first_width = width;
    if (label) {
        char buf[16];
        int w = snprintf(buf, sizeof buf, "%d ", label);
        if (w > first_width)
            first_width = w;
    }
    int cont_width = width + CONT_EXTRA + 1;   /* the leading '&' included */
    const char *s = u->text.s ? u->text.s : "";
    int len = (int)u->text.len, start = 0;
    indent(u, level, label);
    for (int prefix = first_width;; prefix = cont_width) {
        if (prefix + len - start <= LINE_LIMIT)
            break;
        int p = last_break(u, start, LINE_LIMIT - prefix - 1, cont_width);
        if (p < 0)
            p = first_break(u, start);
        if (p < 0)
            break;
        fprintf(u->out, "%.*s&\n", p - start, s + start);
        start = p;
        for (int i = 0; i < cont_width - 1; i++)
            fputc(' ', u->out);
        fputc('&', u->out);
    }
    fprintf(u->out, "%s\n", s + start);
    reset(u);
}

/* Directives stay on one line: gfortran reads them as comments. */
static void flush_directive(Unparse *u, int level)
{
    indent(u, level, 0);
    fprintf(u->out, "!HPF$ %s\n", u->text.s ? u->text.s : "");
    reset(u);
}

static void line(Unparse *u, int level, int label, const char *text)
{
    put(u, text);
    flush(u, level, label);
}

/* ---- expressions ---- */

static int op_prec(Op op)
{
    switch (op) {
    case OP_POW: return P_POW;
    case OP_MUL: case OP_DIV: return P_MUL;
    case OP_NEG: case OP_PLUS: return P_SIGN;
    case OP_ADD: case OP_SUB: return P_ADD;
    case OP_CONCAT: return P_CONCAT;
    case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE: return P_REL;
    case OP_NOT: return P_NOT;
    case OP_AND: return P_AND;
    case OP_OR: return P_OR;
    case OP_EQV: case OP_NEQV: return P_EQV;
    default: return P_PRIMARY;
    }
}

static int prec(const Node *n)
{
    switch (n->kind) {
    case AST_BINARY: return op_prec(n->u.binary.op);
    case AST_UNARY: return op_prec(n->u.unary.op);
    case AST_INT_CONST: case AST_REAL_CONST:
        /* a folded constant may carry its sign */
        return n->u.konst.text[0] == '-' || n->u.konst.text[0] == '+' ? P_SIGN : P_PRIMARY;
    default: return P_PRIMARY;
    }
}

static void operand(Unparse *u, const Node *n, int parens)
{
    if (parens)
        put(u, "(");
    expr(u, n);
    if (parens)
        put(u, ")");
}

static void expr_list(Unparse *u, const PtrVec *v)
{
    for (int i = 0; i < v->n; i++) {
        if (i) {
            put(u, ", ");
            mark(u);
        }
        expr(u, v->v[i]);
    }
}

/* lhs op rhs: parentheses where the tree's nesting is not what precedence
 * and associativity give; no sign right after an operator (R706). */
static void binary(Unparse *u, const Node *n)
{
    Op op = n->u.binary.op;
    int p = op_prec(op);
    const Node *l = n->u.binary.lhs, *r = n->u.binary.rhs;
    int lp = prec(l), rp = prec(r);
    int lpar = lp < p || (lp == p && (op == OP_POW || p == P_REL));
    int rpar = rp < p || (rp == p && op != OP_POW) || (rp == P_SIGN && p >= P_ADD);
    operand(u, l, lpar);
    if (op == OP_POW || op == OP_MUL || op == OP_DIV) {
        put(u, op_spelling[op]);
    } else {
        put(u, " ");
        put(u, op_spelling[op]);
        put(u, " ");
    }
    mark(u);
    operand(u, r, rpar);
}

/* -x, +x, .not. x: the operand of a sign is a term (R705), that of .not. a
 * level-4 expression (R714); a second unary operator needs parentheses. */
static void unary(Unparse *u, const Node *n)
{
    Op op = n->u.unary.op;
    put(u, op_spelling[op]);
    if (op == OP_NOT)
        put(u, " ");
    operand(u, n->u.unary.operand, prec(n->u.unary.operand) <= op_prec(op));
}

static void opt_expr(Unparse *u, const Node *n)
{
    if (n)
        expr(u, n);
}

static void expr(Unparse *u, const Node *n)
{
    if (u->hook && u->hook(u, n, u->hook_ctx))
        return;
    switch (n->kind) {
    case AST_INT_CONST: case AST_REAL_CONST: case AST_LOGICAL_CONST:
        put(u, n->u.konst.text);
        break;
    case AST_STRING_CONST:
        put_string(u, n->u.konst.text);
        break;
    case AST_COMPLEX_CONST:
        put(u, "(");
        expr(u, n->u.binary.lhs);
        put(u, ", ");
        mark(u);
        expr(u, n->u.binary.rhs);
        put(u, ")");
        break;
    case AST_NAME:
        put(u, n->u.name.id);
        break;
    case AST_REF:
        put(u, n->u.ref.id);
        put(u, "(");
        expr_list(u, &n->u.ref.args);
        put(u, ")");
        break;
    case AST_BINARY:
        binary(u, n);
        break;
    case AST_UNARY:
        unary(u, n);
        break;
    case AST_PAREN:
        operand(u, n->u.unary.operand, 1);
        break;
    case AST_TRIPLET:
        opt_expr(u, n->u.triplet.lo);
        put(u, ":");
        opt_expr(u, n->u.triplet.hi);
        if (n->u.triplet.stride) {
            /* "::" would be read as one token, the double colon */
            put(u, n->u.triplet.hi ? ":" : " :");
            expr(u, n->u.triplet.stride);
        }
        break;
    case AST_KEYWORD_ARG:
        put(u, n->u.kwarg.id);
        put(u, "=");
        expr(u, n->u.kwarg.value);
        break;
    case AST_ARRAY_CTOR:
        put(u, "(/ ");
        expr_list(u, &n->u.list.items);
        put(u, " /)");
        break;
    case AST_IMPLIED_DO:
        put(u, "(");
        expr_list(u, &n->u.impdo.items);
        put(u, ", ");
        mark(u);
        expr(u, n->u.impdo.var);
        put(u, " = ");
        expr(u, n->u.impdo.lo);
        put(u, ", ");
        mark(u);
        expr(u, n->u.impdo.hi);
        if (n->u.impdo.step) {
            put(u, ", ");
            mark(u);
            expr(u, n->u.impdo.step);
        }
        put(u, ")");
        break;
    case AST_STAR:
        put(u, "*");
        break;
    default:
        fatal("ast_unparse: %s is not an expression", ast_kind_name[n->kind]);
    }
}

/* ---- declarations ---- */

/* A CHARACTER length after '*': CHARACTER*20, CHARACTER*(*), name*10. */
static void star_len(Unparse *u, const Node *len)
{
    put(u, "*");
    if (len->kind == AST_INT_CONST) {
        expr(u, len);
    } else {
        put(u, "(");
        expr(u, len);
        put(u, ")");
    }
}

/* R502: INTEGER, REAL(8), REAL*8, DOUBLE PRECISION, CHARACTER(LEN=20) ... */
static void type_spec(Unparse *u, const TypeSpec *s)
{
    put(u, s->dbl ? "double precision" : base_names[s->base]);
    if (s->star && !s->len) {
        char buf[24];
        snprintf(buf, sizeof buf, "*%d", s->star);
        put(u, buf);
    } else if (s->len && s->star) {
        star_len(u, s->len);
    } else if (s->len) {
        put(u, "(len=");
        expr(u, s->len);
        put(u, ")");
    } else if (s->kind) {
        put(u, "(");
        expr(u, s->kind);
        put(u, ")");
    }
}

/* [lo:]hi, [lo]: or [lo:]* */
static void dim(Unparse *u, const Node *n)
{
    if (n->u.dim.lo) {
        expr(u, n->u.dim.lo);
        put(u, ":");
    } else if (n->u.dim.form == DIM_DEFERRED) {
        put(u, ":");
    }
    if (n->u.dim.form == DIM_ASSUMED_SIZE)
        put(u, "*");
    else if (n->u.dim.form == DIM_EXPLICIT)
        expr(u, n->u.dim.hi);
}

static void dims(Unparse *u, const PtrVec *v)
{
    if (!v->n)
        return;
    put(u, "(");
    for (int i = 0; i < v->n; i++) {
        if (i) {
            put(u, ", ");
            mark(u);
        }
        dim(u, v->v[i]);
    }
    put(u, ")");
}

/* name [(dims)] [*len] [= init] */
static void entity(Unparse *u, const Node *n)
{
    put(u, n->u.entity.id);
    dims(u, &n->u.entity.dims);
    if (n->u.entity.len)
        star_len(u, n->u.entity.len);
    if (n->u.entity.init) {
        put(u, " = ");
        mark(u);
        expr(u, n->u.entity.init);
    }
}

static void entities(Unparse *u, const PtrVec *v)
{
    for (int i = 0; i < v->n; i++) {
        if (i) {
            put(u, ", ");
            mark(u);
        }
        entity(u, v->v[i]);
    }
}

static void attr(Unparse *u, const Node *n)
{
    switch (n->u.attr.which) {
    case ATTR_PARAMETER: put(u, "parameter"); break;
    case ATTR_DIMENSION:
        put(u, "dimension");
        dims(u, &n->u.attr.dims);
        break;
    case ATTR_ALLOCATABLE: put(u, "allocatable"); break;
    case ATTR_INTENT:
        put(u, "intent(");
        put(u, intent_names[n->u.attr.intent]);
        put(u, ")");
        break;
    case ATTR_SAVE: put(u, "save"); break;
    case ATTR_EXTERNAL: put(u, "external"); break;
    case ATTR_INTRINSIC: put(u, "intrinsic"); break;
    case ATTR_OPTIONAL: put(u, "optional"); break;
    case ATTR_PUBLIC: put(u, "public"); break;
    case ATTR_PRIVATE: put(u, "private"); break;
    }
}

/* type, attrs :: entities -- "::" always, which every form allows */
static void type_decl(Unparse *u, const Node *n)
{
    type_spec(u, &n->u.decl.spec);
    for (int i = 0; i < n->u.decl.attrs.n; i++) {
        put(u, ", ");
        mark(u);
        attr(u, n->u.decl.attrs.v[i]);
    }
    put(u, " :: ");
    mark(u);
    entities(u, &n->u.decl.entities);
}

/* IMPLICIT type (a-h, o-z): the letters array back into ranges */
static void implicit(Unparse *u, const Node *n)
{
    put(u, "implicit ");
    if (n->u.implicit.none) {
        put(u, "none");
        return;
    }
    for (int i = 0; i < n->u.implicit.rules.n; i++) {
        const Node *r = n->u.implicit.rules.v[i];
        if (i) {
            put(u, ", ");
            mark(u);
        }
        type_spec(u, &r->u.irule.spec);
        put(u, " (");
        int first = 1;
        for (int c = 0; c < 26; c++) {
            if (!r->u.irule.letters[c])
                continue;
            int e = c;
            while (e + 1 < 26 && r->u.irule.letters[e + 1])
                e++;
            char buf[8];
            if (e > c)
                snprintf(buf, sizeof buf, "%s%c-%c", first ? "" : ", ", 'a' + c, 'a' + e);
            else
                snprintf(buf, sizeof buf, "%s%c", first ? "" : ", ", 'a' + c);
            put(u, buf);
            first = 0;
            c = e;
        }
        put(u, ")");
    }
}

/* ---- HPF directives ---- */

static void dist_format(Unparse *u, const Node *n)
{
    static const char *const names[] = {"block", "cyclic", "*"};
    put(u, names[n->u.distfmt.fmt]);
    if (n->u.distfmt.arg) {
        put(u, "(");
        expr(u, n->u.distfmt.arg);
        put(u, ")");
    }
}

/* [RE]DISTRIBUTE t(fmts) [ONTO p], or [RE]DISTRIBUTE (fmts) [ONTO p] :: names */
static void distribute(Unparse *u, const Node *n)
{
    put(u, n->kind == AST_REDISTRIBUTE ? "redistribute " : "distribute ");
    if (!n->u.dist.attributed)
        expr_list(u, &n->u.dist.names);
    if (n->u.dist.star == DIST_TRANSCRIPTIVE) {
        put(u, " *");
        return;
    }
    if (n->u.dist.star == DIST_DESCRIPTIVE)
        put(u, " *");
    put(u, "(");
    for (int i = 0; i < n->u.dist.formats.n; i++) {
        if (i)
            put(u, ", ");
        dist_format(u, n->u.dist.formats.v[i]);
    }
    put(u, ")");
    if (n->u.dist.onto) {
        put(u, " onto ");
        put(u, n->u.dist.onto);
    }
    if (n->u.dist.attributed) {
        put(u, " :: ");
        expr_list(u, &n->u.dist.names);
    }
}

/* An ALIGN subscript: a name, '*', ':' (a TRIPLET with no parts) or, on the
 * target side, an expression. */
static void align_subs(Unparse *u, const PtrVec *v)
{
    put(u, "(");
    expr_list(u, v);
    put(u, ")");
}

/* [RE]ALIGN a(src) WITH t[(tgt)], or [RE]ALIGN (src) WITH t[(tgt)] :: names */
static void align(Unparse *u, const Node *n)
{
    put(u, n->kind == AST_REALIGN ? "realign " : "align ");
    if (!n->u.align.attributed)
        expr_list(u, &n->u.align.names);
    align_subs(u, &n->u.align.src);
    put(u, " with ");
    put(u, n->u.align.target);
    if (n->u.align.tgt.n)
        align_subs(u, &n->u.align.tgt);
    if (n->u.align.attributed) {
        put(u, " :: ");
        expr_list(u, &n->u.align.names);
    }
}

static void independent(Unparse *u, const Node *n, int level)
{
    put(u, "independent");
    if (n->u.list.items.n) {
        put(u, ", new(");
        expr_list(u, &n->u.list.items);
        put(u, ")");
    }
    flush_directive(u, level);
}

static int is_directive(AstKind k)
{
    return k == AST_PROCESSORS || k == AST_TEMPLATE || k == AST_DISTRIBUTE
           || k == AST_ALIGN || k == AST_INDEPENDENT || k == AST_DYNAMIC || k == AST_INHERIT
           || k == AST_REDISTRIBUTE || k == AST_REALIGN;
}

static void directive(Unparse *u, const Node *n, int level)
{
    switch (n->kind) {
    case AST_PROCESSORS:
        put(u, "processors ");
        entities(u, &n->u.list.items);
        break;
    case AST_TEMPLATE:
        put(u, "template ");
        entities(u, &n->u.list.items);
        break;
    case AST_DISTRIBUTE: case AST_REDISTRIBUTE:
        distribute(u, n);
        break;
    case AST_ALIGN: case AST_REALIGN:
        align(u, n);
        break;
    case AST_DYNAMIC: case AST_INHERIT:
        put(u, n->kind == AST_DYNAMIC ? "dynamic " : "inherit ");
        expr_list(u, &n->u.list.items);
        break;
    case AST_INDEPENDENT:
        independent(u, n, level);
        return;
    default:
        break;
    }
    flush_directive(u, level);
}

/* ---- statements ---- */

/* (io control) or fmt, then the items */
static void io(Unparse *u, const char *word, const Node *n)
{
    put(u, word);
    put(u, " ");
    if (n->u.io.fmt) {
        expr(u, n->u.io.fmt);
        if (n->u.io.items.n) {
            put(u, ", ");
            mark(u);
            expr_list(u, &n->u.io.items);
        }
        return;
    }
    put(u, "(");
    expr_list(u, &n->u.io.control);
    put(u, ")");
    if (n->u.io.items.n) {
        put(u, " ");
        mark(u);
        expr_list(u, &n->u.io.items);
    }
}

static void forall_head(Unparse *u, const Node *n)
{
    put(u, "forall (");
    for (int i = 0; i < n->u.forall.indices.n; i++) {
        const Node *x = n->u.forall.indices.v[i];
        if (i) {
            put(u, ", ");
            mark(u);
        }
        put(u, x->u.findex.id);
        put(u, " = ");
        expr(u, x->u.findex.lo);
        put(u, ":");
        expr(u, x->u.findex.hi);
        if (x->u.findex.stride) {
            put(u, ":");
            expr(u, x->u.findex.stride);
        }
    }
    if (n->u.forall.mask) {
        put(u, ", ");
        mark(u);
        expr(u, n->u.forall.mask);
    }
    put(u, ")");
}

static void cond(Unparse *u, const char *word, const Node *c)
{
    put(u, word);
    put(u, " (");
    expr(u, c);
    put(u, ")");
}

static void alloc(Unparse *u, const char *word, const Node *n)
{
    put(u, word);
    put(u, "(");
    expr_list(u, &n->u.alloc.items);
    if (n->u.alloc.stat) {
        put(u, ", ");
        mark(u);
        put(u, "stat=");
        expr(u, n->u.alloc.stat);
    }
    put(u, ")");
}

/* A statement that fits on one logical line: action statements (those a
 * logical IF may hold) and declarations. */
static void action(Unparse *u, const Node *n)
{
    char buf[32];
    switch (n->kind) {
    case AST_ASSIGN:
        expr(u, n->u.assign.lhs);
        put(u, " = ");
        mark(u);
        expr(u, n->u.assign.rhs);
        break;
    case AST_LOGICAL_IF:
        cond(u, "if", n->u.lif.cond);
        put(u, " ");
        mark(u);
        action(u, n->u.lif.stmt);
        break;
    case AST_FORALL:       /* the statement form */
        forall_head(u, n);
        put(u, " ");
        mark(u);
        action(u, n->u.forall.body.v[0]);
        break;
    case AST_WHERE: {      /* the statement form */
        const Node *b = n->u.cond.branches.v[0];
        cond(u, "where", b->u.branch.cond);
        put(u, " ");
        mark(u);
        action(u, b->u.branch.body.v[0]);
        break;
    }
    case AST_CALL:
        put(u, "call ");
        put(u, n->u.ref.id);
        if (n->u.ref.args.n) {
            put(u, "(");
            expr_list(u, &n->u.ref.args);
            put(u, ")");
        }
        break;
    case AST_GOTO:
        snprintf(buf, sizeof buf, "go to %d", n->u.jump.target);
        put(u, buf);
        break;
    case AST_CONTINUE: put(u, "continue"); break;
    case AST_CYCLE: put(u, "cycle"); break;
    case AST_EXIT: put(u, "exit"); break;
    case AST_RETURN: put(u, "return"); break;
    case AST_STOP:
        put(u, "stop");
        if (n->u.unary.operand) {
            put(u, " ");
            expr(u, n->u.unary.operand);
        }
        break;
    case AST_PRINT: io(u, "print", n); break;
    case AST_WRITE: io(u, "write", n); break;
    case AST_READ: io(u, "read", n); break;
    case AST_OPEN: io(u, "open", n); break;
    case AST_CLOSE: io(u, "close", n); break;
    case AST_ALLOCATE: alloc(u, "allocate", n); break;
    case AST_DEALLOCATE: alloc(u, "deallocate", n); break;
    case AST_TYPE_DECL: type_decl(u, n); break;
    case AST_IMPLICIT: implicit(u, n); break;
    case AST_PARAMETER_STMT:
        put(u, "parameter (");
        entities(u, &n->u.list.items);
        put(u, ")");
        break;
    case AST_DIMENSION_STMT:
        put(u, "dimension ");
        entities(u, &n->u.list.items);
        break;
    case AST_ALLOCATABLE_STMT:
        put(u, "allocatable :: ");
        entities(u, &n->u.list.items);
        break;
    case AST_PUBLIC_STMT: case AST_PRIVATE_STMT:
        put(u, n->kind == AST_PUBLIC_STMT ? "public" : "private");
        if (n->u.list.items.n) {
            put(u, " :: ");
            expr_list(u, &n->u.list.items);
        }
        break;
    case AST_SAVE_STMT:
        put(u, "save");
        if (n->u.list.items.n) {
            put(u, " ");
            expr_list(u, &n->u.list.items);
        }
        break;
    case AST_EXTERNAL_STMT:
        put(u, "external ");
        expr_list(u, &n->u.list.items);
        break;
    case AST_INTRINSIC_STMT:
        put(u, "intrinsic ");
        expr_list(u, &n->u.list.items);
        break;
    case AST_COMMON_STMT:
        put(u, "common ");
        if (n->u.list.name) {
            put(u, "/");
            put(u, n->u.list.name);
            put(u, "/ ");
        }
        entities(u, &n->u.list.items);
        break;
    default:
        fatal("ast_unparse: %s is not a simple statement", ast_kind_name[n->kind]);
    }
}

static void body(Unparse *u, const PtrVec *v, int level)
{
    for (int i = 0; i < v->n; i++)
        stmt(u, v->v[i], level);
}

/* DO var = lo, hi [, step], DO WHILE (c) or DO; a loop that ended at a
 * label holds its labelled last statement, so END DO follows it. */
static void loop(Unparse *u, const Node *n, int level)
{
    if (n->u.loop.independent)
        independent(u, n->u.loop.independent, level);
    put(u, "do");
    if (n->kind == AST_DO) {
        put(u, " ");
        expr(u, n->u.loop.var);
        put(u, " = ");
        expr(u, n->u.loop.lo);
        put(u, ", ");
        mark(u);
        expr(u, n->u.loop.hi);
        if (n->u.loop.step) {
            put(u, ", ");
            mark(u);
            expr(u, n->u.loop.step);
        }
    } else if (n->u.loop.cond) {
        put(u, " ");
        cond(u, "while", n->u.loop.cond);
    }
    flush(u, level, n->label);
    body(u, &n->u.loop.body, level + 1);
    line(u, level, n->close_label, "end do");
}

static void if_construct(Unparse *u, const Node *n, int level)
{
    for (int i = 0; i < n->u.cond.branches.n; i++) {
        const Node *b = n->u.cond.branches.v[i];
        if (b->u.branch.cond) {
            cond(u, i ? "else if" : "if", b->u.branch.cond);
            put(u, " then");
        } else {
            put(u, "else");
        }
        flush(u, level, i ? b->label : n->label);
        body(u, &b->u.branch.body, level + 1);
    }
    line(u, level, n->close_label, "end if");
}

static void where_construct(Unparse *u, const Node *n, int level)
{
    for (int i = 0; i < n->u.cond.branches.n; i++) {
        const Node *b = n->u.cond.branches.v[i];
        if (b->u.branch.cond)
            cond(u, i ? "elsewhere" : "where", b->u.branch.cond);
        else
            put(u, "elsewhere");
        flush(u, level, i ? b->label : n->label);
        body(u, &b->u.branch.body, level + 1);
    }
    line(u, level, n->close_label, "end where");
}

/* A WHERE read from a WHERE statement: END WHERE never set its end. */
static int where_stmt_form(const Node *n)
{
    if (n->u.cond.end_loc.line || n->u.cond.branches.n != 1)
        return 0;
    const Node *b = n->u.cond.branches.v[0];
    return b->u.branch.body.n == 1 && !((const Node *)b->u.branch.body.v[0])->label;
}

static void stmt(Unparse *u, const Node *n, int level)
{
    if (is_directive(n->kind)) {
        directive(u, n, level);
        return;
    }
    switch (n->kind) {
    case AST_IF:
        if_construct(u, n, level);
        return;
    case AST_DO: case AST_DO_WHILE:
        loop(u, n, level);
        return;
    case AST_FORALL:
        if (n->u.forall.independent)
            independent(u, n->u.forall.independent, level);
        if (!n->u.forall.construct && n->u.forall.body.n == 1)
            break;
        forall_head(u, n);
        flush(u, level, n->label);
        body(u, &n->u.forall.body, level + 1);
        line(u, level, n->close_label, "end forall");
        return;
    case AST_WHERE:
        if (where_stmt_form(n))
            break;
        where_construct(u, n, level);
        return;
    default:
        break;
    }
    action(u, n);
    flush(u, level, n->label);
}

/* ---- program units ---- */

static void unit(Unparse *u, const Node *n, int level)
{
    int which = n->u.unit.which;
    if (n->u.unit.id) {
        if (which == UNIT_FUNCTION && n->u.unit.rtype) {
            type_spec(u, n->u.unit.rtype);
            put(u, " ");
        }
        if (n->u.unit.recursive)
            put(u, "recursive ");
        put(u, unit_words[which]);
        put(u, " ");
        put(u, n->u.unit.id);
        if (which == UNIT_FUNCTION || (which != UNIT_MODULE && n->u.unit.args.n)) {
            put(u, "(");
            expr_list(u, &n->u.unit.args);
            put(u, ")");
        }
        if (n->u.unit.result) {
            put(u, " result(");
            put(u, n->u.unit.result);
            put(u, ")");
        }
        flush(u, level, 0);
    }
    for (int i = 0; i < n->u.unit.uses.n; i++) {
        const Node *us = n->u.unit.uses.v[i];
        put(u, "use ");
        put(u, us->u.use.module);
        if (us->u.use.only)
            put(u, ", only:");
        for (int k = 0; k < us->u.use.items.n; k++) {
            const Node *it = us->u.use.items.v[k];
            const char *remote = it->u.kwarg.value->u.name.id;
            put(u, k || !us->u.use.only ? ", " : " ");
            if (strcmp(it->u.kwarg.id, remote)) {
                put(u, it->u.kwarg.id);
                put(u, " => ");
            }
            put(u, remote);
        }
        flush(u, level + 1, 0);
    }
    body(u, &n->u.unit.body, level + 1);
    if (n->u.unit.contains.n) {
        line(u, level, 0, "contains");
        for (int i = 0; i < n->u.unit.contains.n; i++) {
            if (i)
                fputc('\n', u->out);
            unit(u, n->u.unit.contains.v[i], level + 1);
        }
    }
    if (n->u.unit.id) {
        put(u, "end ");
        put(u, unit_words[which]);
        put(u, " ");
        put(u, n->u.unit.id);
        flush(u, level, 0);
    } else {
        line(u, level, 0, "end");
    }
}

void ast_unparse(FILE *out, const Node *root)
{
    Unparse u = {.out = out};
    if (root->kind == AST_SOURCE_FILE) {
        for (int i = 0; i < root->u.list.items.n; i++) {
            if (i)
                fputc('\n', out);
            unit(&u, root->u.list.items.v[i], 0);
        }
    } else if (root->kind == AST_UNIT) {
        unit(&u, root, 0);
    } else if (ast_is_expr(root->kind)) {
        expr(&u, root);
        flush(&u, 0, 0);
    } else {
        stmt(&u, root, 0);
    }
    sb_free(&u.text);
    free(u.brk);
    free(u.str);
}

/* ---- expressions for other printers ---- */

void unparse_put(Unparse *u, const char *s)
{
    put(u, s);
}

void unparse_expr(Unparse *u, const Node *n)
{
    expr(u, n);
}

static void expr_v(Unparse *u, const void *n) { expr(u, n); }
static void action_v(Unparse *u, const void *n) { action(u, n); }
static void type_spec_v(Unparse *u, const void *s) { type_spec(u, s); }

/* Prints n with fn (expr, action, type_spec) into a string of its own
 * (heap). */
static char *to_string(const void *n, UnparseHook hook, void *ctx,
                       void (*fn)(Unparse *, const void *))
{
    Unparse u = {0};
    u.hook = hook;
    u.hook_ctx = ctx;
    fn(&u, n);
    free(u.brk);
    free(u.str);
    if (!u.text.s)
        return xstrdup("");
    return u.text.s;
}

char *unparse_expr_string(const Node *n, UnparseHook hook, void *ctx)
{
    return to_string(n, hook, ctx, expr_v);
}

char *unparse_type_string(const TypeSpec *s, UnparseHook hook, void *ctx)
{
    return to_string(s, hook, ctx, type_spec_v);
}

/* A declaration or action statement as one line of text (no label, no
 * indentation, no continuation): the SPMD emitter lays it out itself. */
char *unparse_stmt_string(const Node *n, UnparseHook hook, void *ctx)
{
    return to_string(n, hook, ctx, action_v);
}
