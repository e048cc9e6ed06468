/* spmd_dump.c - hpfc --dump-spmd: the SPMD IR as stable text for golden
 * tests and for reading what the lowering decided (doc/spmd.md). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "spmd.h"
#include "../runtime/hpfmap.h"
#include "../runtime/hpfrt.h"

static const char *const fmt_name[] = {"*", "block", "block", "cyclic"};
static const char *const op_name[] = {"", "sum", "product", "max", "min", "and", "or"};

typedef struct {
    FILE *out;
    const SpLoop *loop;
} Dump;

static int hook(Unparse *u, const Node *n, void *ctx)
{
    (void)ctx;
    char buf[96];
    if (n->kind != AST_REF || !n->ir)
        return 0;
    if (n->u.ref.what == REF_INTRINSIC) {
        const SpRed *sr = n->ir;
        snprintf(buf, sizeof buf, "%s[%s over %s < ", n->u.ref.id, op_name[sr->op], sr->var->name);
        unparse_put(u, buf);
        unparse_expr(u, sr->n);
        unparse_put(u, ": ");
        unparse_expr(u, sr->body);
        if (sr->mask) {
            unparse_put(u, " where ");
            unparse_expr(u, sr->mask);
        }
        unparse_put(u, "]");
        return 1;
    }
    if (n->u.ref.what != REF_ELEMENT)
        return 0;
    const SpRef *r = n->ir;
    unparse_put(u, n->u.ref.id);
    unparse_put(u, "(");
    for (int d = 0; d < n->u.ref.args.n; d++) {
        if (d)
            unparse_put(u, ", ");
        unparse_expr(u, r->sub[d] ? r->sub[d] : n->u.ref.args.v[d]);
    }
    unparse_put(u, ")");
    switch (r->acc) {
    case ACC_LOCAL: {
        int shifted = 0;
        for (int d = 0; d < MAX_RANK; d++)
            shifted |= r->delta[d] != 0;
        unparse_put(u, shifted ? "{overlap}" : "{local}");
        break;
    }
    case ACC_TEMP:
        snprintf(buf, sizeof buf, "{gather %s round %d}", pattern_name[r->g->pat], r->g->round);
        unparse_put(u, buf);
        break;
    case ACC_SCATTER:
        unparse_put(u, "{scatter}");
        break;
    default:
        break;
    }
    return 1;
}

static void expr(Dump *D, const Node *n)
{
    char *s = unparse_expr_string(n, hook, D);
    fputs(s, D->out);
    free(s);
}

static void indent(Dump *D, int level)
{
    fprintf(D->out, "%*s", 2 * level, "");
}

static void stmts(Dump *D, const PtrVec *v, int level);

static void loop(Dump *D, const SpStmt *s, int level)
{
    const SpLoop *lp = s->u.loop;
    D->loop = lp;
    indent(D, level);
    if (lp->red_op)
        fprintf(D->out, "reduce %s -> t%d%s%s\n", op_name[lp->red_op], lp->red_acc,
                lp->arr ? " driver " : " (replicated)", lp->arr ? lp->arr->name : "");
    else
        fprintf(D->out, "forall%s%s%s%s\n", lp->lhs_temp ? " (through a temporary)" : "",
                lp->scatter ? " (scatter, driver " : "", lp->scatter ? lp->arr->name : "",
                lp->scatter ? ")" : "");
    for (int k = 0; k < lp->nidx; k++) {
        const SpIndex *ix = &lp->idx[k];
        indent(D, level + 1);
        fprintf(D->out, "index %s = ", ix->var->name);
        expr(D, ix->lo);
        fputs(":", D->out);
        expr(D, ix->hi);
        fputs(":", D->out);
        expr(D, ix->st);
        if (ix->dist) {
            fprintf(D->out, "  owned: %s dim %d subscript %lld*%s + ", ix->arr->name, ix->dim + 1,
                    ix->a_const, ix->var->name);
            expr(D, ix->b);
        }
        fputc('\n', D->out);
    }
    for (int g = 0; g < lp->nguard; g++) {
        indent(D, level + 1);
        fprintf(D->out, "guard %s dim %d holds ", lp->arr->name, lp->guard[g].dim + 1);
        expr(D, lp->guard[g].sub);
        fputc('\n', D->out);
    }
    for (int i = 0; i < lp->novl; i++) {
        const SpOverlap *o = &lp->ovl[i];
        indent(D, level + 1);
        fprintf(D->out, "comm overlap %s dim %d ghosts %lld below %lld above", o->arr->name,
                o->dim + 1, o->below, o->above);
        int box = 0;
        for (int e = 0; e < o->arr->rank; e++)
            box |= o->lo[e] != NULL;
        for (int e = 0; box && e < o->arr->rank; e++) {
            fputs(e ? ", " : " box ", D->out);
            if (!o->lo[e]) {
                fputc(':', D->out);
                continue;
            }
            expr(D, o->lo[e]);
            fputc(':', D->out);
            expr(D, o->hi[e]);
        }
        for (int e = 0; e < o->arr->rank; e++)
            if (e != o->dim && (o->ext[e][0] || o->ext[e][1]))
                fprintf(D->out, " reach dim %d %d below %d above", e + 1, o->ext[e][0],
                        o->ext[e][1]);
        fputc('\n', D->out);
    }
    for (int i = 0; i < lp->gathers.n; i++) {
        const SpGather *g = lp->gathers.v[i];
        indent(D, level + 1);
        fprintf(D->out, "comm gather %s pattern %s round %d: ", g->r->arr->name,
                pattern_name[g->pat], g->round);
        expr(D, g->ref);
        fputc('\n', D->out);
    }
    if (lp->mask) {
        indent(D, level + 1);
        fputs("mask ", D->out);
        expr(D, lp->mask);
        fputc('\n', D->out);
    }
    indent(D, level + 1);
    if (lp->lhs) {
        expr(D, lp->lhs);
        fputs(" = ", D->out);
    } else {
        fputs("value ", D->out);
    }
    expr(D, lp->rhs);
    fputc('\n', D->out);
    if (lp->red_op && lp->arr) {
        indent(D, level + 1);
        fprintf(D->out, "comm reduce %s\n", op_name[lp->red_op]);
    }
    if (lp->scatter) {
        indent(D, level + 1);
        fprintf(D->out, "comm scatter %s pattern indirect\n",
                ((const SpRef *)lp->lhs->ir)->arr->name);
    }
    if (lp->apart) {
        indent(D, level + 1);
        fputs("in place on one process", D->out);
        if (lp->direct_if) {
            fputs(" when ", D->out);
            expr(D, lp->direct_if);
        }
        fputc('\n', D->out);
    }
}

static void stmt(Dump *D, const SpStmt *s, int level)
{
    indent(D, level);
    fprintf(D->out, "line %d", s->line);
    if (s->label)
        fprintf(D->out, " label %d", s->label);
    fputc('\n', D->out);
    level++;
    switch (s->kind) {
    case SP_SEQ: {
        char *t = unparse_stmt_string(s->u.seq, hook, D);
        indent(D, level);
        fprintf(D->out, "seq %s\n", t);
        free(t);
        break;
    }
    case SP_STORE:
        indent(D, level);
        fputs("store ", D->out);
        expr(D, s->u.store.lhs);
        fputs(" = ", D->out);
        expr(D, s->u.store.rhs);
        fputs("  (owners only)\n", D->out);
        break;
    case SP_FORALL: case SP_REDUCE:
        loop(D, s, level);
        break;
    case SP_BCAST:
        indent(D, level);
        fprintf(D->out, "comm broadcast t%d = ", s->u.bcast.temp);
        expr(D, s->u.bcast.ref);
        fputc('\n', D->out);
        break;
    case SP_DO:
        indent(D, level);
        fputs("do ", D->out);
        expr(D, s->u.do_.var);
        fputs(" = ", D->out);
        expr(D, s->u.do_.lo);
        fputs(", ", D->out);
        expr(D, s->u.do_.hi);
        if (s->u.do_.st) {
            fputs(", ", D->out);
            expr(D, s->u.do_.st);
        }
        fputc('\n', D->out);
        stmts(D, &s->u.do_.body, level + 1);
        break;
    case SP_WHILE:
        indent(D, level);
        fputs("do while", D->out);
        if (s->u.while_.cond) {
            fputs(" ", D->out);
            expr(D, s->u.while_.cond);
        }
        fputc('\n', D->out);
        if (s->u.while_.pre.n) {
            indent(D, level + 1);
            fputs("before each test:\n", D->out);
            stmts(D, &s->u.while_.pre, level + 2);
        }
        stmts(D, &s->u.while_.body, level + 1);
        break;
    case SP_IF:
        for (int i = 0; i < s->u.if_.branches.n; i++) {
            const SpBranch *b = s->u.if_.branches.v[i];
            if (b->pre.n)
                stmts(D, &b->pre, level);
            indent(D, level);
            if (b->cond) {
                fputs(i ? "else if " : "if ", D->out);
                expr(D, b->cond);
                fputc('\n', D->out);
            } else {
                fputs("else\n", D->out);
            }
            stmts(D, &b->body, level + 1);
        }
        break;
    case SP_IO: {
        char *t = unparse_stmt_string(s->u.io.stmt, hook, D);
        indent(D, level);
        fprintf(D->out, "io (I/O processor) %s\n", t);
        free(t);
        if (s->u.io.reads.n) {
            indent(D, level);
            fprintf(D->out, "comm broadcast of %d item%s read\n", s->u.io.reads.n,
                    s->u.io.reads.n == 1 ? "" : "s");
        }
        break;
    }
    case SP_ALLOC: case SP_DEALLOC:
        for (int i = 0; i < s->u.alloc.items.n; i++) {
            const Node *ref = s->u.alloc.items.v[i];
            const SpRef *r = ref->ir;
            indent(D, level);
            fprintf(D->out, "%s %s %s\n", s->kind == SP_ALLOC ? "allocate" : "free",
                    r->arr->tmpl ? "the local part of" : "replicated temporary", r->arr->name);
        }
        break;
    case SP_STOP:
        indent(D, level);
        fputs("stop\n", D->out);
        break;
    case SP_RETURN:
        indent(D, level);
        fputs("return\n", D->out);
        break;
    }
}

static void stmts(Dump *D, const PtrVec *v, int level)
{
    for (int i = 0; i < v->n; i++)
        stmt(D, v->v[i], level);
}

void spmd_dump(FILE *out, const SpProgram *p)
{
    Dump D = {out, NULL};
    for (int i = 0; i < p->units.n; i++) {
        const SpUnit *u = p->units.v[i];
        const Node *n = u->unit;
        if (u->clone_of)
            fprintf(out, "unit %s (clone %s)\n", n->u.unit.id, u->name);
        else
            fprintf(out, "unit %s\n", n->u.unit.id ? n->u.unit.id : "main");
        for (int k = 0; k < u->procs.n; k++) {
            const SpProcs *pr = u->procs.v[k];
            fprintf(out, "  processors %s(", pr->name);
            for (int d = 0; d < pr->rank; d++) {
                if (d)
                    fputs(", ", out);
                if (pr->ext[d])
                    expr(&D, pr->ext[d]);
                else
                    fputs("number_of_processors()", out);
            }
            fputs(")\n", out);
        }
        for (int k = 0; k < u->tmpls.n; k++) {
            const SpTmpl *t = u->tmpls.v[k];
            fprintf(out, "  template %s(", t->name);
            for (int d = 0; d < t->rank; d++) {
                if (d)
                    fputs(", ", out);
                expr(&D, t->lo[d]);
                fputs(":", out);
                expr(&D, t->hi[d]);
                fprintf(out, " %s", fmt_name[t->fmt[d]]);
                if (t->k[d]) {
                    fputs("(", out);
                    expr(&D, t->k[d]);
                    fputs(")", out);
                }
                if (t->gdim[d] >= 0)
                    fprintf(out, " grid %d", t->gdim[d] + 1);
                if (t->glo[d] || t->ghi[d])
                    fprintf(out, " areas %d:%d", t->glo[d], t->ghi[d]);
            }
            fprintf(out, ") onto %s\n", t->onto ? t->onto->name : "(default 1-D)");
        }
        for (int k = 0; k < u->arrs.n; k++) {
            const SpArr *a = u->arrs.v[k];
            fprintf(out, "  array %s on %s:", a->name, a->tmpl->name);
            for (int d = 0; d < a->rank; d++) {
                fprintf(out, " [%d ", d + 1);
                if (a->tdim[d] < 0) {
                    fputs("local", out);
                } else {
                    fprintf(out, "-> %d cell ", a->tdim[d] + 1);
                    expr(&D, a->alpha[d]);
                    fputs("*i + ", out);
                    expr(&D, a->beta[d]);
                    if (a->glo[d] || a->ghi[d])
                        fprintf(out, " ghosts %d:%d", a->glo[d], a->ghi[d]);
                }
                fputs("]", out);
            }
            for (int te = 0; te < a->tmpl->rank; te++) {
                int aligned = 0;
                for (int d = 0; d < a->rank; d++)
                    aligned |= a->tdim[d] == te;
                if (aligned || a->tmpl->fmt[te] == HPFMAP_STAR)
                    continue;
                if (a->fix[te]) {
                    fprintf(out, " [template %d at ", te + 1);
                    expr(&D, a->fix[te]);
                    fputs("]", out);
                } else {
                    fprintf(out, " [replicated along template %d]", te + 1);
                }
            }
            fputc('\n', out);
        }
        stmts(&D, &u->body, 1);
    }
}
