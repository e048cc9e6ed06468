/* build.c - the construct builder: the grammar hands it one statement at a
 * time, and it keeps the stack of open program units and blocks (IF, DO,
 * FORALL, WHERE), appends each statement to the innermost open body, closes
 * label-terminated DO loops, and reports mismatched or missing ENDs naming
 * the construct they should close. */
#include <config.h>

#include <string.h>

#include "parser.h"
#include "parse.h"

static const char *construct_name(const Node *n)
{
    switch (n->kind) {
    case AST_IF: return n->u.cond.selector ? "SELECT CASE" : "IF";
    case AST_DO: case AST_DO_WHILE: return "DO";
    case AST_FORALL: return "FORALL";
    case AST_WHERE: return "WHERE";
    case AST_UNIT:
        return n->u.unit.which == UNIT_PROGRAM ? "PROGRAM"
             : n->u.unit.which == UNIT_SUBROUTINE ? "SUBROUTINE"
             : n->u.unit.which == UNIT_MODULE ? "MODULE" : "FUNCTION";
    default: return "?";
    }
}

static Construct *top(Parser *p)
{
    return p->nstack ? &p->stack[p->nstack - 1] : NULL;
}

static Node *current_unit(Parser *p)
{
    for (int i = p->nstack - 1; i >= 0; i--)
        if (p->stack[i].node->kind == AST_UNIT)
            return p->stack[i].node;
    return NULL;
}

/* "END DO expected (to close DO at line 12)" */
static void report_unclosed(Parser *p, const Construct *c, Loc where)
{
    const Node *n = c->node;
    if (n->kind == AST_UNIT && n->u.unit.id)
        diag_error(p->diag, where, "END %s expected (to close %s %s at line %d)",
                   construct_name(n), construct_name(n), n->u.unit.id, n->loc.line);
    else if (n->kind == AST_DO && n->u.loop.end_label)
        diag_error(p->diag, n->loc, "label %d, which ends this DO loop, is not defined before "
                   "line %d", n->u.loop.end_label, where.line);
    else
        diag_error(p->diag, where, "END %s expected (to close %s at line %d)",
                   construct_name(n), construct_name(n), n->loc.line);
}

static void pop(Parser *p)
{
    Construct *c = &p->stack[--p->nstack];
    Node *n = c->node;
    if (n->kind != AST_UNIT)
        return;
    if (n->u.unit.host)
        vec_push(p->arena, &n->u.unit.host->u.unit.contains, n);
    else
        vec_push(p->arena, &p->file_node->u.list.items, n);
}

static void push(Parser *p, Node *n, PtrVec *body)
{
    if (p->nstack == MAX_NEST) {
        diag_error(p->diag, n->loc, "constructs nested more than %d deep", MAX_NEST);
        return;
    }
    p->stack[p->nstack++] = (Construct){.node = n, .body = body};
}

/* A statement outside any unit starts a main program with no PROGRAM
 * statement, as Fortran allows. */
static void ensure_unit(Parser *p, Loc loc)
{
    if (p->nstack)
        return;
    Node *u = ast_new(p->arena, AST_UNIT, loc);
    u->u.unit.which = UNIT_PROGRAM;
    push(p, u, &u->u.unit.body);
}

/* Closes the DO loops that end at the statement labelled `label`. */
static void close_labelled(Parser *p, int label, Loc loc)
{
    for (;;) {
        int k = p->nstack - 1;
        while (k >= 0 && !(p->stack[k].node->kind != AST_UNIT
                           && (p->stack[k].node->kind == AST_DO
                               || p->stack[k].node->kind == AST_DO_WHILE)
                           && p->stack[k].node->u.loop.end_label == label))
            k--;
        if (k < 0 || p->stack[k].node->kind == AST_UNIT)
            return;
        for (int j = k + 1; j < p->nstack; j++)
            if (p->stack[j].node->kind == AST_UNIT)
                return;
        while (p->nstack - 1 > k) {
            report_unclosed(p, top(p), loc);
            pop(p);
        }
        top(p)->node->u.loop.end_loc = loc;
        pop(p);
    }
}

static void append(Parser *p, Node *stmt)
{
    ensure_unit(p, stmt->loc);
    Construct *c = top(p);
    if (c->contains) {
        diag_error(p->diag, stmt->loc, "only internal subprograms may follow CONTAINS");
        return;
    }
    stmt->label = p->label;
    if (!c->body) {
        diag_error(p->diag, stmt->loc, "a statement between SELECT CASE and its first CASE");
        return;
    }
    vec_push(p->arena, c->body, stmt);
}

static void attach_independent(Parser *p, Node *stmt)
{
    if (!p->independent)
        return;
    if (p->indep_vars.n) {
        /* INDEPENDENT (i, j): the DO over a name of the list, then the DO
           directly inside it over the next one */
        const Node *v = stmt->kind == AST_DO ? stmt->u.loop.var : NULL;
        int k = 0;
        while (v && v->kind == AST_NAME && k < p->indep_vars.n &&
               strcmp(((const Node *)p->indep_vars.v[k])->u.name.id, v->u.name.id))
            k++;
        if (!v || v->kind != AST_NAME || k == p->indep_vars.n) {
            const Node *miss = p->indep_vars.v[0];
            diag_warning(p->diag, miss->loc, "INDEPENDENT (...): no DO over '%s' here; "
                         "the name is ignored", miss->u.name.id);
            p->indep_vars.n = 0;
            p->independent = NULL;
            return;
        }
        stmt->u.loop.independent = p->independent;
        p->indep_vars.v[k] = p->indep_vars.v[--p->indep_vars.n];
        /* the next DO of the nest gets an INDEPENDENT of its own */
        p->independent = p->indep_vars.n ? ast_new(p->arena, AST_INDEPENDENT, p->independent->loc)
                                         : NULL;
        return;
    }
    if (stmt->kind == AST_DO)
        stmt->u.loop.independent = p->independent;
    else if (stmt->kind == AST_FORALL)
        stmt->u.forall.independent = p->independent;
    else
        diag_error(p->diag, p->independent->loc,
                   "INDEPENDENT must be followed by a DO loop with loop control or a FORALL");
    p->independent = NULL;
}

void bld_add(Parser *p, Node *stmt)
{
    if (stmt->kind != AST_INDEPENDENT)
        attach_independent(p, stmt);
    append(p, stmt);
    if (p->label)
        close_labelled(p, p->label, stmt->loc);
}

void bld_independent_list(Parser *p, Node *dir, PtrVec vars)
{
    diag_warning(p->diag, dir->loc, "INDEPENDENT with a list of DO variables is not HPF: "
                 "taken as INDEPENDENT before each DO loop over them (write !HPF$ "
                 "INDEPENDENT before each DO)");
    bld_independent(p, dir);
    p->indep_vars.n = 0;
    for (int i = 0; i < vars.n; i++)
        vec_push(p->arena, &p->indep_vars, vars.v[i]);
}

void bld_independent(Parser *p, Node *dir)
{
    if (p->independent)
        diag_error(p->diag, p->independent->loc,
                   "INDEPENDENT must be followed by a DO loop with loop control or a FORALL");
    p->independent = dir;
}

void bld_open(Parser *p, Node *n)
{
    attach_independent(p, n);
    append(p, n);
    PtrVec *body;
    switch (n->kind) {
    case AST_IF: case AST_WHERE: {
        Node *b = n->u.cond.branches.v[0];
        body = &b->u.branch.body;
        break;
    }
    case AST_FORALL: body = &n->u.forall.body; break;
    default: body = &n->u.loop.body; break;
    }
    push(p, n, body);
}

void bld_else(Parser *p, AstKind branch_kind, Node *cond, Loc loc)
{
    AstKind want = branch_kind == AST_IF_BRANCH ? AST_IF : AST_WHERE;
    const char *what = branch_kind == AST_IF_BRANCH ? (cond ? "ELSE IF" : "ELSE")
                                                    : "ELSEWHERE";
    Construct *c = top(p);
    if (!c || c->node->kind != want || (want == AST_IF && c->node->u.cond.selector)) {
        if (c && c->node->kind != AST_UNIT)
            diag_error(p->diag, loc, "%s inside %s at line %d: END %s expected first",
                       what, construct_name(c->node), c->node->loc.line,
                       construct_name(c->node));
        else
            diag_error(p->diag, loc, "%s without %s", what,
                       want == AST_IF ? "a block IF" : "a WHERE construct");
        return;
    }
    if (c->has_else) {
        diag_error(p->diag, loc, "%s after the final ELSE%s of the %s at line %d", what,
                   want == AST_WHERE ? "WHERE" : "", construct_name(c->node),
                   c->node->loc.line);
        return;
    }
    Node *b = ast_new(p->arena, branch_kind, loc);
    b->label = p->label;
    b->u.branch.cond = cond;
    vec_push(p->arena, &c->node->u.cond.branches, b);
    c->body = &b->u.branch.body;
    if (!cond)
        c->has_else = 1;
}

/* SELECT CASE (selector): an IF construct whose branches CASE makes, each
 * condition the selector compared with the case values (the selector is
 * evaluated at each: sema refuses one that calls a function); CASE
 * DEFAULT is put last, as the ELSE, at END SELECT. */
void bld_select(Parser *p, Node *selector, Loc loc)
{
    Node *n = ast_new(p->arena, AST_IF, loc);
    n->u.cond.selector = selector;
    attach_independent(p, n);
    append(p, n);
    push(p, n, NULL);              /* statements wait for the first CASE */
}

static Node *bin(Parser *p, Op op, Node *l, Node *r, Loc loc)
{
    Node *b = ast_new(p->arena, AST_BINARY, loc);
    b->u.binary.op = op;
    b->u.binary.lhs = l;
    b->u.binary.rhs = r;
    b->depth = (l->depth > r->depth ? l->depth : r->depth) + 1;
    return b;
}

void bld_case(Parser *p, PtrVec values, int deflt, Loc loc)
{
    Construct *c = top(p);
    if (!c || c->node->kind != AST_IF || !c->node->u.cond.selector) {
        diag_error(p->diag, loc, "CASE outside a SELECT CASE construct");
        return;
    }
    Node *sel = c->node->u.cond.selector;
    Node *b = ast_new(p->arena, AST_IF_BRANCH, loc);
    b->label = p->label;
    if (deflt) {
        if (c->deflt)
            diag_error(p->diag, loc, "a second CASE DEFAULT in the SELECT CASE at line %d",
                       c->node->loc.line);
        c->deflt = b;
        c->body = &b->u.branch.body;
        return;
    }
    Node *cond = NULL;
    for (int i = 0; i < values.n; i++) {
        Node *v = values.v[i], *t = NULL;
        if (v->kind == AST_KEYWORD_ARG
            || (v->kind == AST_TRIPLET && (v->u.triplet.stride
                                           || (!v->u.triplet.lo && !v->u.triplet.hi)))) {
            diag_error(p->diag, v->loc, "a CASE value is a constant expression or a range "
                       "lo:, :hi or lo:hi");
            continue;
        }
        if (v->kind != AST_TRIPLET)
            t = bin(p, OP_EQ, sel, v, v->loc);
        if (v->kind == AST_TRIPLET && v->u.triplet.lo)
            t = bin(p, OP_GE, sel, v->u.triplet.lo, v->loc);
        if (v->kind == AST_TRIPLET && v->u.triplet.hi) {
            Node *h = bin(p, OP_LE, sel, v->u.triplet.hi, v->loc);
            t = t ? bin(p, OP_AND, t, h, v->loc) : h;
        }
        cond = cond ? bin(p, OP_OR, cond, t, v->loc) : t;
    }
    if (!cond)
        return;
    b->u.branch.cond = cond;
    vec_push(p->arena, &c->node->u.cond.branches, b);
    c->body = &b->u.branch.body;
}

void bld_unit(Parser *p, int which, Token name, PtrVec args, const char *result,
              TypeSpec *rtype, Loc loc)
{
    Node *host = NULL;
    Construct *c = top(p);
    if (c && c->node->kind == AST_UNIT && c->contains && !c->node->u.unit.host) {
        if (which == UNIT_PROGRAM || which == UNIT_MODULE) {
            diag_error(p->diag, loc, "a %s cannot be an internal subprogram",
                       which == UNIT_MODULE ? "MODULE" : "PROGRAM");
            return;
        }
        host = c->node;
    } else if (c) {
        Node *u = current_unit(p);
        diag_error(p->diag, loc, "%s statement inside %s %s: END %s or CONTAINS expected first",
                   which == UNIT_PROGRAM ? "PROGRAM"
                   : which == UNIT_SUBROUTINE ? "SUBROUTINE"
                   : which == UNIT_MODULE ? "MODULE" : "FUNCTION",
                   construct_name(u), u->u.unit.id ? u->u.unit.id : "(main)",
                   construct_name(u));
        while (p->nstack)
            pop(p);
    }
    Node *u = ast_new(p->arena, AST_UNIT, loc);
    u->u.unit.which = which;
    u->u.unit.id = name.text;
    u->u.unit.args = args;
    u->u.unit.result = result;
    u->u.unit.rtype = rtype;
    u->u.unit.host = host;
    u->u.unit.recursive = p->recursive;
    p->recursive = 0;
    u->label = p->label;
    push(p, u, &u->u.unit.body);
}

void bld_contains(Parser *p, Loc loc)
{
    Construct *c = top(p);
    if (!c || c->node->kind != AST_UNIT) {
        if (c)
            report_unclosed(p, c, loc);
        else
            diag_error(p->diag, loc, "CONTAINS outside a program unit");
        return;
    }
    if (c->contains || c->node->u.unit.host) {
        diag_error(p->diag, loc, c->contains ? "second CONTAINS in %s %s"
                                             : "an internal subprogram (%s %s) cannot "
                                               "contain others",
                   construct_name(c->node), c->node->u.unit.id);
        return;
    }
    if (p->independent) {
        diag_error(p->diag, p->independent->loc,
                   "INDEPENDENT must be followed by a DO loop with loop control or a FORALL");
        p->independent = NULL;
    }
    c->contains = 1;
    bld_formats(p, c->node);
}

/* The FORMAT statements read since the last unit's were given, to unit
 * u (the filter reads them; a unit's end or CONTAINS takes them). */
void bld_formats(Parser *p, Node *u)
{
    for (int i = 0; i < p->formats.n; i++)
        vec_push(p->arena, &u->u.unit.formats, p->formats.v[i]);
    p->formats.n = 0;
    for (int i = 0; i < p->datas.n; i++)
        vec_push(p->arena, &u->u.unit.datas, p->datas.v[i]);
    p->datas.n = 0;
    for (int i = 0; i < p->uses.n; i++)
        vec_push(p->arena, &u->u.unit.uses, p->uses.v[i]);
    p->uses.n = 0;
}

static int end_kind_matches(int what, const Node *n)
{
    switch (what) {
    case KW_DO: return n->kind == AST_DO || n->kind == AST_DO_WHILE;
    case KW_IF: return n->kind == AST_IF && !n->u.cond.selector;
    case KW_FORALL: return n->kind == AST_FORALL;
    case KW_WHERE: return n->kind == AST_WHERE;
    case KW_SELECT: return n->kind == AST_IF && n->u.cond.selector;
    default: return n->kind == AST_UNIT;
    }
}

static const char *end_word(int what)
{
    switch (what) {
    case KW_DO: return "DO";
    case KW_IF: return "IF";
    case KW_FORALL: return "FORALL";
    case KW_WHERE: return "WHERE";
    case KW_PROGRAM: return "PROGRAM";
    case KW_SUBROUTINE: return "SUBROUTINE";
    case KW_FUNCTION: return "FUNCTION";
    case KW_MODULE: return "MODULE";
    default: return "";
    }
}

void bld_end(Parser *p, int what, const char *name, Loc loc)
{
    Construct *c = top(p);
    if (!c) {
        diag_error(p->diag, loc, "END%s%s without a program unit", what ? " " : "",
                   end_word(what));
        return;
    }
    int is_unit_end = what == 0 || what == KW_PROGRAM || what == KW_SUBROUTINE
                      || what == KW_FUNCTION || what == KW_MODULE;
    if (!is_unit_end) {
        if (!end_kind_matches(what, c->node)) {
            /* close the construct only if it is open further out */
            int k = p->nstack - 1;
            while (k >= 0 && p->stack[k].node->kind != AST_UNIT
                   && !end_kind_matches(what, p->stack[k].node))
                k--;
            if (c->node->kind == AST_UNIT) {
                diag_error(p->diag, loc, "END %s without an open %s construct",
                           end_word(what), end_word(what));
                return;
            }
            if (k < 0 || p->stack[k].node->kind == AST_UNIT) {
                /* END IF where a DO is open: say what was expected, and let
                 * the END close the open construct so that one error is given */
                report_unclosed(p, c, loc);
                pop(p);
                return;
            }
            while (p->nstack - 1 > k) {
                report_unclosed(p, top(p), loc);
                pop(p);
            }
            c = top(p);
        }
        Node *n = c->node;
        if (n->kind == AST_IF && n->u.cond.selector) {
            if (c->deflt && !n->u.cond.branches.n) {
                /* only CASE DEFAULT: its statements run */
                Node *t = ast_new(p->arena, AST_LOGICAL_CONST, c->deflt->loc);
                t->u.konst.ival = 1;
                t->u.konst.text = ".true.";
                t->u.konst.kind = 4;
                c->deflt->u.branch.cond = t;
            }
            if (c->deflt)
                vec_push(p->arena, &n->u.cond.branches, c->deflt);
            if (!n->u.cond.branches.n)
                diag_error(p->diag, n->loc, "SELECT CASE without a CASE is not supported in "
                           "the HPF subset");
        }
        if ((n->kind == AST_DO || n->kind == AST_DO_WHILE) && n->u.loop.end_label
            && n->u.loop.end_label != p->label) {
            diag_error(p->diag, loc, "this DO loop ends at the statement labelled %d, "
                       "not at an END DO", n->u.loop.end_label);
        }
        n->close_label = p->label;
        if (n->kind == AST_DO || n->kind == AST_DO_WHILE)
            n->u.loop.end_loc = loc;
        else if (n->kind == AST_FORALL)
            n->u.forall.end_loc = loc;
        else
            n->u.cond.end_loc = loc;
        if (name)
            diag_error(p->diag, loc, "named constructs are not supported in the HPF subset");
        pop(p);
        if (p->label)
            close_labelled(p, p->label, loc);
        return;
    }

    while (c->node->kind != AST_UNIT) {
        report_unclosed(p, c, loc);
        pop(p);
        c = top(p);
    }
    Node *u = c->node;
    bld_formats(p, u);
    if (what && !(what == KW_PROGRAM && u->u.unit.which == UNIT_PROGRAM)
        && !(what == KW_SUBROUTINE && u->u.unit.which == UNIT_SUBROUTINE)
        && !(what == KW_FUNCTION && u->u.unit.which == UNIT_FUNCTION)
        && !(what == KW_MODULE && u->u.unit.which == UNIT_MODULE)) {
        diag_error(p->diag, loc, "END %s does not match %s %s at line %d", end_word(what),
                   construct_name(u), u->u.unit.id ? u->u.unit.id : "(main)", u->loc.line);
    } else if (name && u->u.unit.id && strcmp(name, u->u.unit.id) != 0) {
        diag_error(p->diag, loc, "END %s %s does not match %s %s at line %d",
                   construct_name(u), name, construct_name(u), u->u.unit.id, u->loc.line);
    } else if (name && !u->u.unit.id) {
        diag_error(p->diag, loc, "END PROGRAM %s for a main program without a PROGRAM statement",
                   name);
    } else if (u->u.unit.host && !what) {
        diag_error(p->diag, loc, "an internal %s must end with END %s",
                   construct_name(u), construct_name(u));
    }
    if (p->independent) {
        diag_error(p->diag, p->independent->loc,
                   "INDEPENDENT must be followed by a DO loop with loop control or a FORALL");
        p->independent = NULL;
    }
    u->u.unit.end_loc = loc;
    pop(p);
}

void bld_finish(Parser *p)
{
    if (p->independent) {
        diag_error(p->diag, p->independent->loc,
                   "INDEPENDENT must be followed by a DO loop with loop control or a FORALL");
        p->independent = NULL;
    }
    while (p->nstack) {
        report_unclosed(p, top(p), p->eof_loc);
        pop(p);
    }
}
