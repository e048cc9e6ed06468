/* ast.c - node construction, kind names and the generic child walker.
 * The walker is the one place that knows every kind's children: passes call
 * it instead of keeping their own lists, so a new kind cannot be forgotten. */
#include "ast.h"

#include <stdio.h>
#include <string.h>

const char *const ast_kind_name[AST_KIND_COUNT] = {
#define AST_KIND(name, member, group) #name,
#include "ast.def"
#undef AST_KIND
};

enum { G_expr, G_stmt, G_decl, G_dir, G_part };
static const unsigned char kind_group[AST_KIND_COUNT] = {
#define AST_KIND(name, member, group) G_##group,
#include "ast.def"
#undef AST_KIND
};

const char *const op_spelling[OP_COUNT] = {
    [OP_NONE] = "?",
    [OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*", [OP_DIV] = "/",
    [OP_POW] = "**", [OP_CONCAT] = "//",
    [OP_EQ] = "==", [OP_NE] = "/=", [OP_LT] = "<", [OP_LE] = "<=",
    [OP_GT] = ">", [OP_GE] = ">=",
    [OP_AND] = ".and.", [OP_OR] = ".or.", [OP_EQV] = ".eqv.", [OP_NEQV] = ".neqv.",
    [OP_NOT] = ".not.", [OP_NEG] = "-", [OP_PLUS] = "+",
};

Node *ast_new(Arena *a, AstKind kind, Loc loc)
{
    Node *n = arena_alloc(a, sizeof *n);
    n->kind = kind;
    n->loc = loc;
    n->depth = 1;
    return n;
}

int ast_is_expr(AstKind k)
{
    return kind_group[k] == G_expr;
}

int ast_is_stmt(AstKind k)
{
    return kind_group[k] == G_stmt || kind_group[k] == G_decl || kind_group[k] == G_dir;
}

#define VISIT(c)                          \
    do {                                  \
        if ((c) && fn((c), ctx))          \
            return 1;                     \
    } while (0)

static int visit_list(const PtrVec *v, AstVisit fn, void *ctx)
{
    for (int i = 0; i < v->n; i++)
        VISIT((Node *)v->v[i]);
    return 0;
}

#define VISIT_LIST(l)                     \
    do {                                  \
        if (visit_list(&(l), fn, ctx))    \
            return 1;                     \
    } while (0)

static int visit_spec(TypeSpec *s, AstVisit fn, void *ctx)
{
    if (!s)
        return 0;
    VISIT(s->kind);
    VISIT(s->len);
    return 0;
}

/* The children of n, in source order (the order the visitors' diagnostics
 * and numberings follow). Kept as a switch rather than derived from
 * ast.def: what a kind visits is a list of fields of its union member, in
 * that order, which ast.def does not describe; a derived form would need a
 * second list of the same fields. The switch has no default, so -Wall (-Wswitch) names any kind
 * ast.def gains that is not listed here. */
int ast_children(Node *n, AstVisit fn, void *ctx)
{
    switch (n->kind) {
    case AST_INT_CONST: case AST_REAL_CONST: case AST_LOGICAL_CONST:
    case AST_STRING_CONST: case AST_NAME: case AST_STAR: case AST_CYCLE:
    case AST_EXIT: case AST_CONTINUE: case AST_GOTO: case AST_RETURN:
        return 0;
    case AST_COMPLEX_CONST: case AST_BINARY:
        VISIT(n->u.binary.lhs);
        VISIT(n->u.binary.rhs);
        return 0;
    case AST_REF: case AST_CALL:
        VISIT_LIST(n->u.ref.args);
        return 0;
    case AST_UNARY: case AST_PAREN: case AST_STOP:
        VISIT(n->u.unary.operand);
        return 0;
    case AST_TRIPLET:
        VISIT(n->u.triplet.lo);
        VISIT(n->u.triplet.hi);
        VISIT(n->u.triplet.stride);
        return 0;
    case AST_KEYWORD_ARG:
        VISIT(n->u.kwarg.value);
        return 0;
    case AST_USE_STMT:
        VISIT_LIST(n->u.use.items);
        return 0;
    case AST_ARRAY_CTOR: case AST_PARAMETER_STMT: case AST_DIMENSION_STMT:
    case AST_ALLOCATABLE_STMT: case AST_SAVE_STMT: case AST_EXTERNAL_STMT:
    case AST_INTRINSIC_STMT: case AST_COMMON_STMT: case AST_PROCESSORS:
    case AST_TEMPLATE: case AST_INDEPENDENT: case AST_DYNAMIC: case AST_INHERIT:
    case AST_PUBLIC_STMT: case AST_PRIVATE_STMT:
    case AST_SOURCE_FILE:
        VISIT_LIST(n->u.list.items);
        return 0;
    case AST_IMPLIED_DO:
        VISIT_LIST(n->u.impdo.items);
        VISIT(n->u.impdo.var);
        VISIT(n->u.impdo.lo);
        VISIT(n->u.impdo.hi);
        VISIT(n->u.impdo.step);
        return 0;
    case AST_ASSIGN:
        VISIT(n->u.assign.lhs);
        VISIT(n->u.assign.rhs);
        return 0;
    case AST_IF: case AST_WHERE:
        VISIT_LIST(n->u.cond.branches);
        return 0;
    case AST_IF_BRANCH: case AST_WHERE_BRANCH:
        VISIT(n->u.branch.cond);
        VISIT_LIST(n->u.branch.body);
        return 0;
    case AST_LOGICAL_IF:
        VISIT(n->u.lif.cond);
        VISIT(n->u.lif.stmt);
        return 0;
    case AST_DO: case AST_DO_WHILE:
        VISIT(n->u.loop.independent);
        VISIT(n->u.loop.var);
        VISIT(n->u.loop.lo);
        VISIT(n->u.loop.hi);
        VISIT(n->u.loop.step);
        VISIT(n->u.loop.cond);
        VISIT_LIST(n->u.loop.body);
        return 0;
    case AST_PRINT: case AST_WRITE: case AST_READ: case AST_OPEN: case AST_CLOSE:
        VISIT(n->u.io.fmt);
        VISIT_LIST(n->u.io.control);
        VISIT_LIST(n->u.io.items);
        return 0;
    case AST_FORALL:
        VISIT(n->u.forall.independent);
        VISIT_LIST(n->u.forall.indices);
        VISIT(n->u.forall.mask);
        VISIT_LIST(n->u.forall.body);
        return 0;
    case AST_FORALL_INDEX:
        VISIT(n->u.findex.lo);
        VISIT(n->u.findex.hi);
        VISIT(n->u.findex.stride);
        return 0;
    case AST_ALLOCATE: case AST_DEALLOCATE:
        VISIT_LIST(n->u.alloc.items);
        VISIT(n->u.alloc.stat);
        return 0;
    case AST_TYPE_DECL:
        if (visit_spec(&n->u.decl.spec, fn, ctx))
            return 1;
        VISIT_LIST(n->u.decl.attrs);
        VISIT_LIST(n->u.decl.entities);
        return 0;
    case AST_ATTR:
        VISIT_LIST(n->u.attr.dims);
        return 0;
    case AST_ENTITY:
        VISIT_LIST(n->u.entity.dims);
        VISIT(n->u.entity.len);
        VISIT(n->u.entity.init);
        return 0;
    case AST_DIM:
        VISIT(n->u.dim.lo);
        VISIT(n->u.dim.hi);
        return 0;
    case AST_IMPLICIT:
        VISIT_LIST(n->u.implicit.rules);
        return 0;
    case AST_IMPLICIT_RULE:
        return visit_spec(&n->u.irule.spec, fn, ctx);
    case AST_DISTRIBUTE: case AST_REDISTRIBUTE:
        VISIT_LIST(n->u.dist.names);
        VISIT_LIST(n->u.dist.formats);
        return 0;
    case AST_DIST_FORMAT:
        VISIT(n->u.distfmt.arg);
        return 0;
    case AST_ALIGN: case AST_REALIGN:
        VISIT_LIST(n->u.align.names);
        VISIT_LIST(n->u.align.src);
        VISIT_LIST(n->u.align.tgt);
        return 0;
    case AST_UNIT:
        VISIT_LIST(n->u.unit.args);
        if (visit_spec(n->u.unit.rtype, fn, ctx))
            return 1;
        VISIT_LIST(n->u.unit.body);
        VISIT_LIST(n->u.unit.contains);
        return 0;
    case AST_KIND_COUNT:
        break;
    }
    return 0;
}

const char *type_name(Type t)
{
    switch (t.base) {
    case TY_INTEGER: return t.kind == 8 ? "integer(8)" : "integer";
    case TY_REAL: return t.kind == 8 ? "real(8)" : "real";
    case TY_COMPLEX: return t.kind == 8 ? "complex(8)" : "complex";
    case TY_LOGICAL: return "logical";
    case TY_CHARACTER: return "character";
    case TY_ERROR: return "<error>";
    default: return "<none>";
    }
}

Node *ast_arg(const Node *call, int i, const char *kw)
{
    const PtrVec *v = &call->u.ref.args;
    for (int k = 0; k < v->n; k++) {
        Node *a = v->v[k];
        if (a->kind == AST_KEYWORD_ARG) {
            if (kw && !strcmp(a->u.kwarg.id, kw))
                return a->u.kwarg.value;
        } else if (k == i) {
            return a;
        }
    }
    return NULL;
}
