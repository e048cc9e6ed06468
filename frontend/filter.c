/* filter.c - the token filter between the scanner and the grammar.
 * Fortran keywords are not reserved, so the scanner gives every word as a
 * NAME; this filter reads one whole statement, decides what kind of
 * statement it is (an assignment is recognised first: a name, subscripts,
 * then '='), and turns exactly the words that are keywords in that position
 * into keyword tokens. It also splits run-together keywords (ENDDO, ELSEIF),
 * joins split ones (GO TO, DOUBLE PRECISION), and refuses by name the
 * statements that lie outside the HPF subset, skipping the whole block of a
 * refused construct (MODULE ... END MODULE) so that one error is reported. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "parser.h"
#include "parse.h"

enum { T_SKIP = -1 };

static Token *tk(Parser *p, int i)
{
    return &p->toks[i < p->ntoks ? i : p->ntoks - 1];
}

static int word_is(Parser *p, int i, const char *w)
{
    Token *t = tk(p, i);
    return t->kind == T_NAME && strcmp(t->text, w) == 0;
}

static int is_end(Parser *p, int i)
{
    int k = tk(p, i)->kind;
    return k == T_EOS || k == 0;
}

/* Index of the ')' matching the '(' at i, or -1. */
static int match(Parser *p, int i)
{
    int depth = 0;
    for (int j = i; j < p->ntoks; j++) {
        int k = p->toks[j].kind;
        if (k == '(' || k == T_LCTOR)
            depth++;
        else if ((k == ')' || k == T_RCTOR) && --depth == 0)
            return j;
        else if (k == T_EOS || k == 0)
            return -1;
    }
    return -1;
}

/* Inserts a copy of token i after it (for ENDDO -> END DO). */
static void split(Parser *p, int i, int kind1, int kind2)
{
    if (p->ntoks == p->captoks) {
        p->captoks *= 2;
        p->toks = xrealloc(p->toks, (size_t)p->captoks * sizeof *p->toks);
    }
    memmove(&p->toks[i + 1], &p->toks[i], (size_t)(p->ntoks - i) * sizeof *p->toks);
    p->ntoks++;
    p->toks[i].kind = kind1;
    p->toks[i + 1].kind = kind2;
}

static void drop(Parser *p)
{
    p->ntoks = 0;
    p->next = 0;
}

/* Statements and attributes outside the subset, refused by name. A block
 * construct also names the word that ends it, to skip to its END. */
static const struct {
    const char *word, *what, *end;
} refused[] = {
    {"interface", "INTERFACE block", "interface"},
    {"equivalence", "EQUIVALENCE", NULL},
    {"entry", "ENTRY", NULL},
    {"namelist", "NAMELIST", NULL},
    {"include", "INCLUDE line", NULL},
    {"block", "BLOCK DATA", "block"},
    {"blockdata", "BLOCK DATA", "block"},
    {"pointer", "POINTER", NULL},
    {"target", "TARGET", NULL},
    {"optional", "OPTIONAL statement (use the OPTIONAL attribute)", NULL},
    {"sequence", "SEQUENCE", NULL},
    {"nullify", "NULLIFY", NULL},
    {"pause", "PAUSE", NULL},
    {"assign", "ASSIGN", NULL},
    {"inquire", "INQUIRE", NULL},
    {"rewind", "REWIND", NULL},
    {"backspace", "BACKSPACE", NULL},
    {"endfile", "ENDFILE", NULL},
    {"intent", "INTENT statement (use the INTENT attribute)", NULL},
};

static void refuse(Parser *p, int i, const char *what)
{
    diag_error(p->diag, tk(p, i)->loc, "%s is not supported in the HPF subset", what);
    drop(p);
}

static int refused_word(Parser *p, int i)
{
    const char *w = tk(p, i)->text;
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        if (strcmp(refused[k].word, w) != 0)
            continue;
        if (refused[k].end) {
            p->skip_until = refused[k].end;
            p->skip_loc = tk(p, i)->loc;
        }
        refuse(p, i, refused[k].what);
        return 1;
    }
    return 0;
}

/* FORMAT (spec), labelled: kept as the character format '(spec)' for the
 * unit (bld_formats), which the I/O statements naming its label use
 * (sema); the statement itself goes no further. The spec is the tokens'
 * text run together (format items need no blanks; a character constant
 * is one token, as written). A Hollerith item (5HHELLO) is refused. */
static void format_stmt(Parser *p, int i)
{
    int close = match(p, i + 1);
    if (tk(p, 0)->kind != T_LABEL) {
        diag_error(p->diag, tk(p, i)->loc, "a FORMAT statement needs a label");
        drop(p);
        return;
    }
    if (close < 0 || !is_end(p, close + 1)) {
        diag_error(p->diag, tk(p, i)->loc, "FORMAT statement: '(' format items ')' expected");
        drop(p);
        return;
    }
    StrBuf b = {0};
    for (int j = i + 1; j <= close; j++) {
        Token *t = tk(p, j), *u = tk(p, j + 1);
        if (t->kind == T_INT && u->kind == T_NAME && (u->text[0] == 'h')
            && u->loc.line == t->loc.eline && u->loc.col == t->loc.ecol + 1) {
            diag_error(p->diag, t->loc, "Hollerith edit descriptor in a FORMAT is not "
                       "supported in the HPF subset (write the text as a character "
                       "constant, '...')");
            sb_free(&b);
            drop(p);
            return;
        }
        sb_puts(&b, t->text);
    }
    Node *f = ast_new(p->arena, AST_STRING_CONST, tk(p, i)->loc);
    f->label = atoi(tk(p, 0)->text);
    StrBuf q = {0};                 /* as a character constant: quotes doubled */
    sb_puts(&q, "'");
    for (const char *c = b.s; *c; c++)
        sb_printf(&q, *c == '\'' ? "''" : "%c", *c);
    sb_puts(&q, "'");
    f->u.konst.text = arena_strdup(p->arena, q.s);
    f->u.konst.str = arena_strdup(p->arena, b.s);
    f->type = (Type){TY_CHARACTER, 1};
    vec_push(p->arena, &p->formats, f);
    sb_free(&b);
    sb_free(&q);
    drop(p);
}

enum { MAX_DATA_VALUES = 1000000 };

static Node *data_name(Parser *p, const Token *t)
{
    Node *n = mk_expr(p, AST_NAME, t->loc);
    n->u.name.id = t->text;
    return n;
}

/* An object of a DATA set at *j: a name, or an implied DO (a(i), i = lo,
 * hi [, st]) of constants; NULL after an error. */
static Node *data_object(Parser *p, int *j)
{
    Token *t = tk(p, *j);
    if (t->kind == T_NAME && tk(p, *j + 1)->kind == '(') {
        diag_error(p->diag, t->loc, "a DATA object is a variable name or an implied DO (a(i), "
                   "i = lo, hi) over one array: an element or section like '%s(...)' is not "
                   "supported in the HPF subset", t->text);
        return NULL;
    }
    if (t->kind == T_NAME) {
        (*j)++;
        return data_name(p, t);
    }
    /* ( a ( i ) , i = lo , hi [, st] ) */
    int k = *j;
    if (tk(p, k)->kind != '(' || tk(p, k + 1)->kind != T_NAME || tk(p, k + 2)->kind != '('
        || tk(p, k + 3)->kind != T_NAME || tk(p, k + 4)->kind != ')' || tk(p, k + 5)->kind != ','
        || tk(p, k + 6)->kind != T_NAME || tk(p, k + 7)->kind != '='
        || strcmp(tk(p, k + 3)->text, tk(p, k + 6)->text)) {
        diag_error(p->diag, t->loc, "a DATA object is a variable name or an implied DO "
                   "(a(i), i = lo, hi) over one array (others are not supported in the HPF "
                   "subset)");
        return NULL;
    }
    Node *d = mk_expr(p, AST_IMPLIED_DO, t->loc);
    Node *r = mk_expr(p, AST_REF, tk(p, k + 1)->loc);
    r->u.ref.id = tk(p, k + 1)->text;
    vec_push(p->arena, &r->u.ref.args, data_name(p, tk(p, k + 3)));
    vec_push(p->arena, &d->u.impdo.items, r);
    d->u.impdo.var = data_name(p, tk(p, k + 6));
    Node **b[3] = {&d->u.impdo.lo, &d->u.impdo.hi, &d->u.impdo.step};
    k += 8;
    for (int m = 0; m < 3; m++) {
        int neg = tk(p, k)->kind == '-';
        k += neg || tk(p, k)->kind == '+';
        if (tk(p, k)->kind != T_INT && (tk(p, k)->kind != T_NAME || neg)) {
            diag_error(p->diag, tk(p, k)->loc, "the bounds of a DATA implied DO are integer "
                       "constants or named constants here");
            return NULL;
        }
        *b[m] = tk(p, k)->kind == T_NAME ? data_name(p, tk(p, k))
                : parse_konst(p, AST_INT_CONST, arena_printf(p->arena, "%s%s", neg ? "-" : "",
                                                                tk(p, k)->text), tk(p, k)->loc);
        k++;
        if (tk(p, k)->kind == ')' || m == 2)
            break;
        if (tk(p, k)->kind != ',') {
            diag_error(p->diag, tk(p, k)->loc, "',' or ')' expected in a DATA implied DO");
            return NULL;
        }
        k++;
    }
    if (tk(p, k)->kind != ')') {
        diag_error(p->diag, tk(p, k)->loc, "')' expected after a DATA implied DO");
        return NULL;
    }
    *j = k + 1;
    return d;
}

/* DATA obj-list /value-list/ [[,] obj-list /value-list/]...: each set an
 * ASSIGN of its object (one per set) and an ARRAY_CTOR of its values, the
 * repeat counts r*c expanded, for the unit (bld_formats); sema makes them
 * the initial values of the variables. */
static void data_stmt(Parser *p, int i)
{
    int j = i + 1;
    PtrVec objs = {0};
    const char *err = NULL;
    while (!is_end(p, j) && !err) {
        objs.n = 0;
        for (;;) {
            Node *o = data_object(p, &j);
            if (!o)
                goto fail;         /* (said) */
            vec_push(NULL, &objs, o);
            if (tk(p, j)->kind != ',')
                break;
            j++;
        }
        if (tk(p, j)->kind != '/') {
            err = "'/' expected before the values of a DATA statement";
            break;
        }
        j++;
        Node *vals = mk_expr(p, AST_ARRAY_CTOR, tk(p, j)->loc);
        for (;;) {
            long long rep = 1;
            if (tk(p, j)->kind == T_INT && tk(p, j + 1)->kind == '*') {
                rep = atoll(tk(p, j)->text);
                j += 2;
            }
            int neg = tk(p, j)->kind == '-';
            j += neg || tk(p, j)->kind == '+';
            Token *t = tk(p, j);
            AstKind k = t->kind == T_INT ? AST_INT_CONST : t->kind == T_REAL ? AST_REAL_CONST
                        : t->kind == T_LOGICAL ? AST_LOGICAL_CONST
                        : t->kind == T_STRING ? AST_STRING_CONST : AST_NAME;
            if ((t->kind != T_NAME && k == AST_NAME) || (neg && k != AST_INT_CONST
                                                          && k != AST_REAL_CONST)
                || rep < 1 || rep + vals->u.list.items.n > MAX_DATA_VALUES) {
                diag_error(p->diag, t->loc, "a DATA value is [r*]c with c a constant or a "
                           "named constant (and r from 1 to %d values in all)",
                           MAX_DATA_VALUES);
                goto fail;
            }
            Node *v = k == AST_NAME ? data_name(p, t)
                      : parse_konst(p, k, neg ? arena_printf(p->arena, "-%s", t->text) : t->text,
                                    t->loc);
            for (long long r = 0; r < rep; r++)
                vec_push(p->arena, &vals->u.list.items, v);
            j++;
            if (tk(p, j)->kind != ',')
                break;
            j++;
        }
        if (tk(p, j)->kind != '/') {
            err = "'/' expected after the values of a DATA statement";
            break;
        }
        j++;
        Node *set = mk_expr(p, AST_ASSIGN, ((Node *)objs.v[0])->loc);
        set->u.assign.lhs = objs.v[0];
        if (objs.n > 1) {       /* the values go to the objects in turn (sema) */
            Node *l = mk_expr(p, AST_ARRAY_CTOR, ((Node *)objs.v[0])->loc);
            for (int o = 0; o < objs.n; o++)
                vec_push(p->arena, &l->u.list.items, objs.v[o]);
            set->u.assign.lhs = l;
        }
        set->u.assign.rhs = vals;
        vec_push(p->arena, &p->datas, set);
        if (tk(p, j)->kind == ',')
            j++;
    }
    if (err)
        diag_error(p->diag, tk(p, j)->loc, "%s", err);
fail:
    drop(p);
    free(objs.v);
}

/* USE module [, ONLY: [items]] or USE module, local => name, ...: the
 * node goes to the unit with its FORMATs and DATAs (bld_formats); sema
 * reads the module. An item is a name or local => name. */
static void use_stmt(Parser *p, int i)
{
    Node *u = mk_expr(p, AST_USE_STMT, tk(p, i)->loc);
    int j = i + 1;
    const char *err = NULL;
    Loc at = tk(p, j)->loc;
    if (tk(p, j)->kind == ',') {
        err = "a module nature (USE, INTRINSIC ::) is not supported in the HPF subset";
        goto fail;
    }
    if (tk(p, j)->kind == T_DCOLON)
        j++;
    if (tk(p, j)->kind != T_NAME) {
        at = tk(p, j)->loc;
        err = "module name expected after USE";
        goto fail;
    }
    u->u.use.module = tk(p, j)->text;
    u->u.use.mod_loc = tk(p, j)->loc;
    j++;
    if (tk(p, j)->kind == ',' && word_is(p, j + 1, "only") && tk(p, j + 2)->kind == ':') {
        u->u.use.only = 1;
        j += 3;
    } else if (tk(p, j)->kind == ',') {
        j++;
    }
    while (!is_end(p, j)) {
        Token *a = tk(p, j);
        at = a->loc;
        if (a->kind != T_NAME) {
            err = "a name or 'local => name' expected in a USE statement";
            goto fail;
        }
        if (word_is(p, j, "operator") || word_is(p, j, "assignment")) {
            refuse(p, j, "a generic operator in USE");
            return;
        }
        Node *k = mk_expr(p, AST_KEYWORD_ARG, a->loc);
        k->u.kwarg.id = a->text;
        k->u.kwarg.id_loc = a->loc;
        Token *remote = a;
        j++;
        if (tk(p, j)->kind == T_ARROW) {
            remote = tk(p, j + 1);
            if (remote->kind != T_NAME) {
                at = remote->loc;
                err = "a name of the module expected after '=>'";
                goto fail;
            }
            j += 2;
        } else if (!u->u.use.only) {
            err = "'local => name' expected: without ONLY, a USE statement lists renames only";
            goto fail;
        }
        Node *r = mk_expr(p, AST_NAME, remote->loc);
        r->u.name.id = remote->text;
        k->u.kwarg.value = r;
        vec_push(p->arena, &u->u.use.items, k);
        if (tk(p, j)->kind == ',') {
            j++;
        } else if (!is_end(p, j)) {
            at = tk(p, j)->loc;
            err = "',' expected in a USE statement";
            goto fail;
        }
    }
    vec_push(p->arena, &p->uses, u);
fail:
    if (err)
        diag_error(p->diag, at, "%s", err);
    drop(p);
}

/* A type specifier at i: returns the index after it, or -1. */
static int typespec(Parser *p, int i)
{
    static const struct { const char *w; int kw; } types[] = {
        {"integer", KW_INTEGER}, {"real", KW_REAL}, {"logical", KW_LOGICAL},
        {"complex", KW_COMPLEX}, {"character", KW_CHARACTER},
        {"doubleprecision", KW_DOUBLE},
    };
    Token *t = tk(p, i);
    if (t->kind != T_NAME)
        return -1;
    int j = i + 1;
    if (word_is(p, i, "double") && word_is(p, i + 1, "precision")) {
        t->kind = KW_DOUBLE;
        tk(p, i + 1)->kind = T_SKIP;
        return i + 2;
    }
    size_t k;
    for (k = 0; k < sizeof types / sizeof types[0]; k++)
        if (strcmp(t->text, types[k].w) == 0)
            break;
    if (k == sizeof types / sizeof types[0])
        return -1;
    t->kind = types[k].kw;
    if (types[k].kw == KW_DOUBLE)
        return j;
    if (tk(p, j)->kind == '(') {
        int m = match(p, j);
        return m < 0 ? p->ntoks - 1 : m + 1;
    }
    if (tk(p, j)->kind == '*') {
        j++;
        if (tk(p, j)->kind == '(') {
            int m = match(p, j);
            return m < 0 ? p->ntoks - 1 : m + 1;
        }
        return j + 1;
    }
    return j;
}

static void function_rest(Parser *p, int i)
{
    /* i: the FUNCTION keyword; name and arguments follow, then RESULT(r) */
    int j = i + 2;
    if (tk(p, j)->kind == '(') {
        int m = match(p, j);
        if (m > 0 && word_is(p, m + 1, "result") && tk(p, m + 2)->kind == '(')
            tk(p, m + 1)->kind = KW_RESULT;
    }
}

static void classify(Parser *p, int i);

/* RECURSIVE before a procedure: noted for its unit (bld_unit). PURE,
 * ELEMENTAL: refused, and the rest of the statement read on, so the
 * procedure's body is still checked. */
static int refused_prefix(Parser *p, int j)
{
    static const char *const words[] = {"pure", "elemental"};
    if (word_is(p, j, "recursive")) {
        if (tk(p, j + 1)->kind != T_NAME) {
            diag_error(p->diag, tk(p, j)->loc, "SUBROUTINE or FUNCTION expected after "
                       "RECURSIVE");
            drop(p);
            return 1;
        }
        p->recursive = 1;
        tk(p, j)->kind = T_SKIP;
        classify(p, j + 1);
        return 1;
    }
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (word_is(p, j, words[k])) {
            diag_error(p->diag, tk(p, j)->loc, "%s procedures are not supported in the HPF "
                       "subset", k == 0 ? "PURE" : "ELEMENTAL");
            tk(p, j)->kind = T_SKIP;
            classify(p, j + 1);
            return 1;
        }
    return 0;
}

/* type [, attr]... [::] entities, or type FUNCTION name (args); j is the
 * index after the type specifier */
static void type_decl(Parser *p, int j)
{
    if (word_is(p, j, "function")) {
        tk(p, j)->kind = KW_FUNCTION;
        function_rest(p, j);
        return;
    }
    if (refused_prefix(p, j))
        return;
    while (tk(p, j)->kind == ',') {
        j++;
        Token *a = tk(p, j);
        static const struct { const char *w; int kw; int group; } attrs[] = {
            {"parameter", KW_PARAMETER, 0}, {"dimension", KW_DIMENSION, 1},
            {"array", KW_DIMENSION, 1}, {"allocatable", KW_ALLOCATABLE, 0},
            {"intent", KW_INTENT, 1}, {"save", KW_SAVE, 0},
            {"external", KW_EXTERNAL, 0}, {"intrinsic", KW_INTRINSIC, 0},
            {"optional", KW_OPTIONAL, 0}, {"public", KW_PUBLIC, 0},
            {"private", KW_PRIVATE, 0},
        };
        size_t k;
        for (k = 0; k < sizeof attrs / sizeof attrs[0]; k++)
            if (a->kind == T_NAME && strcmp(a->text, attrs[k].w) == 0)
                break;
        if (k == sizeof attrs / sizeof attrs[0]) {
            if (a->kind == T_NAME && !refused_word(p, j))
                diag_error(p->diag, a->loc, "unknown attribute '%s'", a->text), drop(p);
            return;
        }
        a->kind = attrs[k].kw;
        j++;
        if (attrs[k].group && tk(p, j)->kind == '(') {
            int m = match(p, j);
            if (m < 0)
                return;
            j = m + 1;
        }
    }
}

static void end_stmt(Parser *p, int i)
{
    static const struct { const char *w; int kw; } ends[] = {
        {"program", KW_PROGRAM}, {"subroutine", KW_SUBROUTINE},
        {"function", KW_FUNCTION}, {"do", KW_DO}, {"if", KW_IF},
        {"forall", KW_FORALL}, {"where", KW_WHERE}, {"select", KW_SELECT},
        {"module", KW_MODULE},
    };
    tk(p, i)->kind = KW_END;
    Token *t = tk(p, i + 1);
    if (t->kind != T_NAME)
        return;
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++)
        if (strcmp(t->text, ends[k].w) == 0) {
            t->kind = ends[k].kw;
            return;
        }
    static const char *const refused_ends[] = {"type", "interface", "block"};
    for (size_t k = 0; k < sizeof refused_ends / sizeof refused_ends[0]; k++)
        if (strcmp(t->text, refused_ends[k]) == 0) {
            diag_error(p->diag, t->loc, "END %s without its construct", t->text);
            drop(p);
            return;
        }
}

/* IF (cond) THEN | IF (cond) action-statement */
static void if_rest(Parser *p, int i)
{
    if (tk(p, i + 1)->kind != '(')
        return;
    int m = match(p, i + 1);
    if (m < 0)
        return;
    if (word_is(p, m + 1, "then") && is_end(p, m + 2)) {
        tk(p, m + 1)->kind = KW_THEN;
    } else if (is_end(p, m + 1)) {
        /* IF (cond) alone: the THEN was forgotten; say so and read a block IF,
         * so that its END IF is not reported as well */
        Loc after = tk(p, m)->loc;
        after.col = after.ecol + 1;
        after.ecol = after.col;
        diag_error(p->diag, after, "THEN expected after the condition of a block IF");
        split(p, m, ')', KW_THEN);
        tk(p, m + 1)->loc = after;
    }
    else if (tk(p, m + 1)->kind == T_INT)
        ;                           /* an arithmetic IF: IF (e) 10, 20, 30 */
    else if (!is_end(p, m + 1))
        classify(p, m + 1);
}

static void paren_then_stmt(Parser *p, int i)
{
    if (tk(p, i + 1)->kind != '(')
        return;
    int m = match(p, i + 1);
    if (m > 0 && !is_end(p, m + 1))
        classify(p, m + 1);
}

static int is_assignment(Parser *p, int i)
{
    if (tk(p, i)->kind != T_NAME)
        return 0;
    int j = i + 1;
    while (tk(p, j)->kind == '(') {
        int m = match(p, j);
        if (m < 0)
            return 0;
        j = m + 1;
    }
    return tk(p, j)->kind == '=';
}

static const struct { const char *w; int kw; } simple_kw[] = {
    {"program", KW_PROGRAM}, {"subroutine", KW_SUBROUTINE},
    {"contains", KW_CONTAINS}, {"parameter", KW_PARAMETER},
    {"dimension", KW_DIMENSION}, {"allocatable", KW_ALLOCATABLE},
    {"save", KW_SAVE}, {"external", KW_EXTERNAL}, {"intrinsic", KW_INTRINSIC},
    {"common", KW_COMMON}, {"continue", KW_CONTINUE}, {"cycle", KW_CYCLE},
    {"exit", KW_EXIT}, {"stop", KW_STOP}, {"return", KW_RETURN},
    {"call", KW_CALL}, {"print", KW_PRINT}, {"write", KW_WRITE},
    {"read", KW_READ}, {"open", KW_OPEN}, {"close", KW_CLOSE},
    {"allocate", KW_ALLOCATE}, {"deallocate", KW_DEALLOCATE},
    {"public", KW_PUBLIC}, {"private", KW_PRIVATE},
};

static void classify(Parser *p, int i)
{
    Token *t = tk(p, i);
    if (t->kind != T_NAME || is_assignment(p, i))
        return;
    const char *w = t->text;
    if (refused_prefix(p, i))
        return;

    if (tk(p, i + 1)->kind == ':' && !is_end(p, i + 2)) {
        refuse(p, i, "a named construct");
        return;
    }
    for (size_t k = 0; k < sizeof simple_kw / sizeof simple_kw[0]; k++)
        if (strcmp(w, simple_kw[k].w) == 0) {
            t->kind = simple_kw[k].kw;
            return;
        }
    if (strcmp(w, "implicit") == 0) {
        t->kind = KW_IMPLICIT;
        if (word_is(p, i + 1, "none")) {
            tk(p, i + 1)->kind = KW_NONE;
            return;
        }
        for (int j = i + 1; !is_end(p, j);) {
            int word = j, after = typespec(p, j);
            if (after < 0)
                return;
            j = after;
            if (tk(p, word)->kind != KW_DOUBLE && tk(p, word + 1)->kind == '(') {
                if (tk(p, after)->kind == '(')
                    tk(p, word + 1)->kind = T_KINDLP;   /* REAL(8) (A-H) */
                else
                    j = word + 1;                      /* REAL (A-H) */
            }
            if (tk(p, j)->kind != '(')
                return;
            int m = match(p, j);
            if (m < 0 || tk(p, m + 1)->kind != ',')
                return;
            j = m + 2;
        }
        return;
    }
    if (strcmp(w, "goto") == 0 || (strcmp(w, "go") == 0 && word_is(p, i + 1, "to"))) {
        t->kind = KW_GOTO;
        if (strcmp(w, "go") == 0)
            tk(p, i + 1)->kind = T_SKIP;
        int j = strcmp(w, "go") == 0 ? i + 2 : i + 1;
        if (tk(p, j)->kind == T_NAME)
            refuse(p, i, "assigned GOTO");
        return;
    }
    if (strcmp(w, "function") == 0) {
        t->kind = KW_FUNCTION;
        function_rest(p, i);
        return;
    }
    int after = typespec(p, i);
    if (after >= 0) {
        type_decl(p, after);
        return;
    }
    if (strcmp(w, "type") == 0) {
        if (tk(p, i + 1)->kind == '(') {
            refuse(p, i, "a derived type");
        } else {
            p->skip_until = "type";
            p->skip_loc = t->loc;
            refuse(p, i, "a derived type definition (TYPE)");
        }
        return;
    }
    if (strcmp(w, "end") == 0) {
        end_stmt(p, i);
        return;
    }
    static const struct { const char *w; int kw; } ends[] = {
        {"endif", KW_IF}, {"enddo", KW_DO}, {"endprogram", KW_PROGRAM},
        {"endsubroutine", KW_SUBROUTINE}, {"endfunction", KW_FUNCTION},
        {"endforall", KW_FORALL}, {"endwhere", KW_WHERE}, {"endselect", KW_SELECT},
        {"endmodule", KW_MODULE},
    };
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++)
        if (strcmp(w, ends[k].w) == 0) {
            split(p, i, KW_END, ends[k].kw);
            return;
        }
    if (strcmp(w, "if") == 0) {
        t->kind = KW_IF;
        if_rest(p, i);
        return;
    }
    if (strcmp(w, "elseif") == 0) {
        split(p, i, KW_ELSE, KW_IF);
        if_rest(p, i + 1);
        return;
    }
    if (strcmp(w, "elsewhere") == 0) {
        split(p, i, KW_ELSE, KW_WHERE);
        return;
    }
    if (strcmp(w, "else") == 0) {
        t->kind = KW_ELSE;
        if (word_is(p, i + 1, "if")) {
            tk(p, i + 1)->kind = KW_IF;
            if_rest(p, i + 1);
        } else if (word_is(p, i + 1, "where")) {
            tk(p, i + 1)->kind = KW_WHERE;
        }
        return;
    }
    if (strcmp(w, "do") == 0) {
        t->kind = KW_DO;
        int j = i + 1;
        if (tk(p, j)->kind == T_INT)
            j++;
        if (tk(p, j)->kind == ',')
            j++;
        if (word_is(p, j, "while") && tk(p, j + 1)->kind == '(')
            tk(p, j)->kind = KW_WHILE;
        return;
    }
    if (strcmp(w, "forall") == 0 || strcmp(w, "where") == 0) {
        t->kind = w[0] == 'f' ? KW_FORALL : KW_WHERE;
        paren_then_stmt(p, i);
        return;
    }
    if ((strcmp(w, "select") == 0 && word_is(p, i + 1, "case"))
        || strcmp(w, "selectcase") == 0) {
        if (w[6])
            split(p, i, KW_SELECT, KW_CASE);
        else
            t->kind = KW_SELECT, tk(p, i + 1)->kind = KW_CASE;
        return;
    }
    if (strcmp(w, "case") == 0 || strcmp(w, "casedefault") == 0) {
        if (w[4])
            split(p, i, KW_CASE, KW_DEFAULT);
        else if (t->kind = KW_CASE, word_is(p, i + 1, "default"))
            tk(p, i + 1)->kind = KW_DEFAULT;
        return;
    }
    if (strcmp(w, "format") == 0 && tk(p, i + 1)->kind == '(') {
        format_stmt(p, i);
        return;
    }
    if (strcmp(w, "data") == 0 && (tk(p, i + 1)->kind == T_NAME || tk(p, i + 1)->kind == '(')) {
        data_stmt(p, i);
        return;
    }
    if (strcmp(w, "module") == 0 && tk(p, i + 1)->kind == T_NAME) {
        if (word_is(p, i + 1, "procedure") && !is_end(p, i + 2)) {
            refuse(p, i, "MODULE PROCEDURE (generic interfaces)");
            return;
        }
        t->kind = KW_MODULE;
        return;
    }
    if (strcmp(w, "use") == 0 && (tk(p, i + 1)->kind == T_NAME || tk(p, i + 1)->kind == ',')) {
        use_stmt(p, i);
        return;
    }
    if (refused_word(p, i))
        return;
    diag_error(p->diag, t->loc, "unknown statement: '%s' is not a statement keyword, "
               "and no '=' follows for an assignment", w);
    drop(p);
}

static void classify_directive(Parser *p, int i)
{
    static const struct { const char *w; int kw; } dirs[] = {
        {"processors", KW_PROCESSORS}, {"template", KW_TEMPLATE},
        {"distribute", KW_DISTRIBUTE}, {"align", KW_ALIGN},
        {"independent", KW_INDEPENDENT}, {"dynamic", KW_DYNAMIC},
        {"redistribute", KW_REDISTRIBUTE}, {"realign", KW_REALIGN},
        {"inherit", KW_INHERIT},
    };
    static const char *const refused_dirs[] = {
        "sequence", "nosequence",
        "pure", "extrinsic", "local", "subset",
    };
    Token *t = tk(p, i);
    if (t->kind != T_NAME) {
        diag_error(p->diag, t->loc, "HPF directive name expected after !HPF$");
        drop(p);
        return;
    }
    size_t k;
    for (k = 0; k < sizeof dirs / sizeof dirs[0]; k++)
        if (strcmp(t->text, dirs[k].w) == 0)
            break;
    if (k == sizeof dirs / sizeof dirs[0]) {
        for (size_t r = 0; r < sizeof refused_dirs / sizeof refused_dirs[0]; r++)
            if (strcmp(t->text, refused_dirs[r]) == 0) {
                char what[64];
                snprintf(what, sizeof what, "the %s directive", t->text);
                for (char *c = what + 4; *c && *c != ' '; c++)
                    *c = (char)(*c - 'a' + 'A');
                refuse(p, i, what);
                return;
            }
        diag_error(p->diag, t->loc, "unknown HPF directive '%s'", t->text);
        drop(p);
        return;
    }
    t->kind = dirs[k].kw;
    if (t->kind != KW_INDEPENDENT && tk(p, i + 1)->kind == ',') {
        refuse(p, i, "the combined-directive form (directive, attribute ::)");
        return;
    }
    int depth = 0;
    for (int j = i + 1; !is_end(p, j); j++) {
        Token *u = tk(p, j);
        if (u->kind == '(' || u->kind == T_LCTOR)
            depth++;
        else if (u->kind == ')' || u->kind == T_RCTOR)
            depth--;
        else if (depth == 0 && (t->kind == KW_DISTRIBUTE || t->kind == KW_REDISTRIBUTE)
                 && word_is(p, j, "onto"))
            u->kind = KW_ONTO;
        else if (depth == 0 && (t->kind == KW_ALIGN || t->kind == KW_REALIGN)
                 && word_is(p, j, "with"))
            u->kind = KW_WITH;
        else if (depth == 0 && t->kind == KW_INDEPENDENT && word_is(p, j, "new")
                 && tk(p, j - 1)->kind == ',')
            u->kind = KW_NEW;
    }
}

/* Reads the tokens of the next statement into p->toks. */
static void read_statement(Parser *p)
{
    int before = p->diag->nerrors + p->diag->suppressed;
    p->ntoks = p->next = 0;
    p->scan_failed = 0;
    for (;;) {
        if (p->ntoks + 2 >= p->captoks) {
            p->captoks = p->captoks ? p->captoks * 2 : 64;
            p->toks = xrealloc(p->toks, (size_t)p->captoks * sizeof *p->toks);
        }
        Token *t = &p->toks[p->ntoks++];
        scan_next(p->scanner, t);
        if (p->diag->nerrors + p->diag->suppressed != before)
            p->scan_failed = 1;
        if (t->kind == 0) {
            p->at_eof = 1;
            p->eof_loc = t->loc;
            if (p->ntoks == 1)
                p->ntoks = 0;
            else
                t->kind = T_EOS;
            return;
        }
        if (t->kind == T_EOS)
            return;
    }
}

/* Nesting deeper than MAX_PAREN is refused here, before the parser's
 * stack or any recursive pass could suffer from it. */
static int too_deep(Parser *p)
{
    int depth = 0;
    for (int j = 0; j < p->ntoks; j++) {
        int k = p->toks[j].kind;
        if (k == '(' || k == T_LCTOR) {
            if (++depth > MAX_PAREN) {
                diag_error(p->diag, p->toks[j].loc,
                           "parentheses nested more than %d deep", MAX_PAREN);
                return 1;
            }
        } else if (k == ')' || k == T_RCTOR) {
            depth--;
        }
    }
    return 0;
}

static void skip_refused_block(Parser *p)
{
    int i = tk(p, 0)->kind == T_INT ? 1 : 0;
    const char *w = tk(p, i)->text;
    size_t n = strlen(p->skip_until);
    int ends = tk(p, i)->kind == T_NAME
               && ((strcmp(w, "end") == 0 && word_is(p, i + 1, p->skip_until))
                   || (strncmp(w, "end", 3) == 0 && strncmp(w + 3, p->skip_until, n) == 0
                       && (!w[3 + n] || strcmp(w + 3 + n, "case") == 0
                           || strcmp(w + 3 + n, "data") == 0)));
    if (!ends && tk(p, i)->kind == T_NAME && strcmp(w, "end") == 0 && is_end(p, i + 1)
        && (strcmp(p->skip_until, "module") == 0 || strcmp(p->skip_until, "block") == 0))
        ends = 1;   /* a plain END closes these too */
    if (ends)
        p->skip_until = NULL;
    drop(p);
}

int filter_next(Parser *p, Token *out)
{
    for (;;) {
        while (p->next < p->ntoks) {
            Token *t = &p->toks[p->next++];
            if (t->kind != T_SKIP) {
                *out = *t;
                return out->kind;
            }
        }
        if (p->at_eof) {
            if (p->skip_until) {
                diag_error(p->diag, p->skip_loc, "END %s expected before the end of the file",
                           p->skip_until);
                p->skip_until = NULL;
            }
            *out = (Token){.kind = 0, .loc = p->eof_loc, .text = ""};
            return 0;
        }
        read_statement(p);
        if (p->ntoks <= 1)
            continue;   /* end of file, or an empty statement */
        if (diag_too_many(p->diag)) {
            p->at_eof = 1;
            drop(p);
            continue;
        }
        if (p->skip_until) {
            skip_refused_block(p);
            continue;
        }
        if (too_deep(p)) {
            drop(p);
            continue;
        }
        Token *first = &p->toks[0];
        if (first->kind == T_DIRECTIVE) {
            classify_directive(p, 1);
            continue;
        }
        int i = 0;
        if (first->kind == T_INT) {
            first->kind = T_LABEL;
            i = 1;
            if (is_end(p, 1)) {
                diag_error(p->diag, first->loc, "statement label '%s' with no statement",
                           first->text);
                drop(p);
                continue;
            }
        }
        int arrow = -1;    /* '=>' outside USE: a pointer assignment */
        for (int j = i; j < p->ntoks && arrow < 0; j++)
            if (p->toks[j].kind == T_ARROW && !word_is(p, i, "use"))
                arrow = j;
        if (arrow >= 0) {
            diag_error(p->diag, p->toks[arrow].loc, "pointer assignment '=>' is not supported "
                       "in the HPF subset");
            drop(p);
            continue;
        }
        classify(p, i);
    }
}
