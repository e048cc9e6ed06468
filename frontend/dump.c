/* dump.c - the stable text dump of the AST (hpfc --dump-ast), one node a
 * line, children indented: kind, what the kind carries, the source span,
 * and after semantic analysis the type and shape of expressions. Golden
 * tests compare it, so change it only together with testsuite/ast. */
#include <config.h>

#include <stdio.h>

#include "ast.h"
#include "sema.h"

typedef struct {
    FILE *out;
    int indent;
} Dump;

static const char *base_name(TypeBase b)
{
    static const char *const names[] = {"", "integer", "real", "complex", "logical",
                                        "character", "error"};
    return names[b];
}

static void dump_spec(FILE *out, const TypeSpec *s)
{
    fprintf(out, " %s", s->dbl ? "doubleprecision" : base_name(s->base));
    if (s->star && !s->len)
        fprintf(out, "*%d", s->star);
}

static void dump_shape(FILE *out, const Node *n)
{
    if (!ast_is_expr(n->kind) || n->type.base == TY_NONE)
        return;
    fprintf(out, " : %s", type_name(n->type));
    if (n->rank) {
        fputc('[', out);
        for (int i = 0; i < n->rank; i++) {
            if (i)
                fputc(',', out);
            if (n->extent && n->extent[i] >= 0)
                fprintf(out, "%lld", n->extent[i]);
            else
                fputc('?', out);
        }
        fputc(']', out);
    }
}

static const char *const attr_names[] = {"parameter", "dimension", "allocatable", "intent",
                                         "save", "external", "intrinsic"};
static const char *const intent_names[] = {"", "in", "out", "inout"};
static const char *const unit_names[] = {"program", "subroutine", "function"};
static const char *const dist_names[] = {"block", "cyclic", "*"};
static const char *const dim_forms[] = {"explicit", "deferred", "assumed-size"};
static const char *const ref_names[] = {"", "element", "section", "function", "intrinsic"};

static int dump_node(Node *n, void *ctx);

static void details(FILE *out, const Node *n)
{
    switch (n->kind) {
    case AST_INT_CONST: case AST_REAL_CONST: case AST_LOGICAL_CONST: case AST_STRING_CONST:
        fprintf(out, " %s", n->u.konst.text);
        break;
    case AST_NAME:
        fprintf(out, " %s", n->u.name.id);
        if (n->u.name.sym)
            fprintf(out, " (%s)", sym_kind_name(n->u.name.sym->kind));
        break;
    case AST_REF: case AST_CALL:
        fprintf(out, " %s", n->u.ref.id);
        if (n->u.ref.what)
            fprintf(out, " (%s)", ref_names[n->u.ref.what]);
        break;
    case AST_BINARY: case AST_UNARY:
        fprintf(out, " %s", op_spelling[n->kind == AST_BINARY ? n->u.binary.op : n->u.unary.op]);
        break;
    case AST_KEYWORD_ARG:
        fprintf(out, " %s", n->u.kwarg.id);
        break;
    case AST_TRIPLET:
        fprintf(out, " %s:%s:%s", n->u.triplet.lo ? "lo" : "", n->u.triplet.hi ? "hi" : "",
                n->u.triplet.stride ? "stride" : "");
        break;
    case AST_DO: case AST_DO_WHILE:
        if (n->u.loop.end_label)
            fprintf(out, " ends-at-label %d", n->u.loop.end_label);
        if (n->u.loop.step)
            fputs(" with-step", out);
        break;
    case AST_GOTO:
        fprintf(out, " %d", n->u.jump.target);
        break;
    case AST_FORALL:
        fputs(n->u.forall.construct ? " construct" : " statement", out);
        if (n->u.forall.mask)
            fputs(" masked", out);
        break;
    case AST_FORALL_INDEX:
        fprintf(out, " %s", n->u.findex.id);
        if (n->u.findex.stride)
            fputs(" with-stride", out);
        break;
    case AST_IF_BRANCH: case AST_WHERE_BRANCH:
        if (!n->u.branch.cond)
            fputs(" else", out);
        break;
    case AST_PRINT: case AST_READ: case AST_WRITE:
        if (n->u.io.short_form)
            fputs(" short-form", out);
        break;
    case AST_TYPE_DECL:
        dump_spec(out, &n->u.decl.spec);
        if (n->u.decl.colons)
            fputs(" ::", out);
        break;
    case AST_ATTR:
        fprintf(out, " %s", attr_names[n->u.attr.which]);
        if (n->u.attr.which == ATTR_INTENT)
            fprintf(out, "(%s)", intent_names[n->u.attr.intent]);
        break;
    case AST_ENTITY:
        fprintf(out, " %s", n->u.entity.id);
        if (n->u.entity.sym && n->u.entity.sym->rank)
            fprintf(out, " rank %d", n->u.entity.sym->rank);
        if (n->u.entity.sym && n->u.entity.sym->kind == SYM_PARAMETER
            && n->u.entity.sym->value.known) {
            const Value *v = &n->u.entity.sym->value;
            if (v->type.base == TY_INTEGER)
                fprintf(out, " = %lld", v->i);
            else if (v->type.base == TY_REAL)
                fprintf(out, " = %.17g", v->r);
            else if (v->type.base == TY_LOGICAL)
                fprintf(out, " = %s", v->i ? ".true." : ".false.");
        }
        break;
    case AST_DIM:
        fprintf(out, " %s", dim_forms[n->u.dim.form]);
        break;
    case AST_IMPLICIT:
        if (n->u.implicit.none)
            fputs(" none", out);
        break;
    case AST_IMPLICIT_RULE:
        dump_spec(out, &n->u.irule.spec);
        fputc(' ', out);
        for (int c = 0; c < 26; c++)
            if (n->u.irule.letters[c])
                fputc('a' + c, out);
        break;
    case AST_DISTRIBUTE: case AST_REDISTRIBUTE:
        if (n->u.dist.attributed)
            fputs(" attributed", out);
        if (n->u.dist.star)
            fputs(n->u.dist.star == DIST_DESCRIPTIVE ? " descriptive" : " transcriptive", out);
        if (n->u.dist.onto)
            fprintf(out, " onto %s", n->u.dist.onto);
        break;
    case AST_DIST_FORMAT:
        fprintf(out, " %s", dist_names[n->u.distfmt.fmt]);
        break;
    case AST_ALIGN: case AST_REALIGN:
        if (n->u.align.attributed)
            fputs(" attributed", out);
        fprintf(out, " with %s", n->u.align.target);
        break;
    case AST_UNIT:
        fprintf(out, " %s %s", unit_names[n->u.unit.which],
                n->u.unit.id ? n->u.unit.id : "(unnamed)");
        if (n->u.unit.rtype)
            dump_spec(out, n->u.unit.rtype);
        if (n->u.unit.result)
            fprintf(out, " result %s", n->u.unit.result);
        if (n->u.unit.host)
            fprintf(out, " internal-to %s", n->u.unit.host->u.unit.id);
        break;
    case AST_SOURCE_FILE:
        if (n->loc.file)
            fprintf(out, " %s", n->loc.file->name);
        break;
    default:
        break;
    }
}

static int dump_node(Node *n, void *ctx)
{
    Dump *d = ctx;
    for (int i = 0; i < d->indent; i++)
        fputs("  ", d->out);
    if (n->label)
        fprintf(d->out, "%d: ", n->label);
    fputs(ast_kind_name[n->kind], d->out);
    details(d->out, n);
    if (n->kind != AST_SOURCE_FILE)
        fprintf(d->out, " <%d:%d-%d:%d>", n->loc.line, n->loc.col, n->loc.eline, n->loc.ecol);
    dump_shape(d->out, n);
    fputc('\n', d->out);
    d->indent++;
    ast_children(n, dump_node, d);
    d->indent--;
    return 0;
}

void ast_dump(FILE *out, const Node *root)
{
    Dump d = {out, 0};
    dump_node((Node *)root, &d);
}
