/* aag_dump.c - the AAG and SAAG as stable text for golden tests and for
 * reading what the abstraction parse decided (hpfpredict --dump-aag,
 * --dump-saag), and as a Graphviz digraph (--dot). No pointers or
 * addresses are printed: AAUs by their preorder number, communications by
 * their row in the table. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "aag_int.h"
#include "../runtime/hpfrt.h"

static const char *const red_name[] = {"", "sum", "product", "max", "min", "and", "or"};
static const char *const comm_kind_name[] = {"overlap", "gather", "scatter", "bcast",
                                             "bcastio", "reduce", "barrier"};


static void expr(FILE *out, const Node *e)
{
    char *s = unparse_expr_string(e, aag_text_hook, NULL);
    fputs(s, out);
    free(s);
}

static void indent(FILE *out, int level)
{
    fprintf(out, "%*s", 2 * level, "");
}

static void ops_lines(FILE *out, const AauOps *o, int level)
{
    int any = o->calls > 0 || o->nlib > 0 || o->allocs > 0;
    for (int k = 0; k < OPC_N; k++)
        any |= o->op[k] != 0;
    if (any) {
        indent(out, level);
        fputs("ops:", out);
        for (int k = 0; k < OPC_N; k++)
            if (o->op[k])
                fprintf(out, " %s %g", opc_param[k] + 3, o->op[k]);
        for (int i = 0; i < o->nlib; i++)
            fprintf(out, " %s %g", o->lib[i].param, o->lib[i].n);
        if (o->calls)
            fprintf(out, " calls %g args %g", o->calls, o->args);
        if (o->allocs)
            fprintf(out, " allocs %g", o->allocs);
        fputc('\n', out);
    }
    if (o->nacc) {
        indent(out, level);
        fputs("access:", out);
        for (int i = 0; i < o->nacc; i++) {
            const AauAccess *a = &o->acc[i];
            fprintf(out, "%s %s", i ? ";" : "", a->var);
            if (a->loads)
                fprintf(out, " load %g", a->loads);
            if (a->stores)
                fprintf(out, " store %g", a->stores);
            if (a->scalar)
                fputs(" scalar", out);
            else
                fprintf(out, " stride %lld", a->stride);
        }
        fputc('\n', out);
    }
}

static const char *ctl_name(int k)
{
    switch (k) {
    case AST_EXIT: return "exit";
    case AST_CYCLE: return "cycle";
    case AST_GOTO: return "goto";
    case AST_RETURN: return "return";
    case AST_STOP: return "stop";
    case AST_CONTINUE: return "continue";
    default: return "?";
    }
}

static void flags_line(FILE *out, const Aau *x, int level)
{
    if (!x->critical && x->on == ON_ALL && !x->io && !x->pre && !x->ctl)
        return;
    indent(out, level);
    fputs("flags:", out);
    if (x->critical)
        fputs(" critical", out);
    if (x->pre)
        fputs(" pre", out);
    if (x->on == ON_IO)
        fputs(" on io", out);
    if (x->on == ON_OWNER && x->elem) {
        fputs(" on owner ", out);
        expr(out, x->elem);
    }
    if (x->io)
        fprintf(out, " io %d bytes", x->io_bytes);
    if (x->ctl) {
        fprintf(out, " ctl %s", ctl_name(x->ctl));
        if (x->ctl == AST_GOTO)
            fprintf(out, " %d", x->ctl_target);
    }
    fputc('\n', out);
}

static void iter_line(FILE *out, const Aau *x, int level)
{
    indent(out, level);
    switch (x->iter) {
    case ITER_DO: {
        const SpStmt *s = x->stmt;
        fputs("iter do ", out);
        expr(out, s->u.do_.var);
        fputs(" = ", out);
        expr(out, s->u.do_.lo);
        fputs(", ", out);
        expr(out, s->u.do_.hi);
        if (s->u.do_.st) {
            fputs(", ", out);
            expr(out, s->u.do_.st);
        }
        break;
    }
    case ITER_WHILE:
        fputs("iter while", out);
        if (x->while_cond) {
            fputc(' ', out);
            expr(out, x->while_cond);
        } else {
            fputs(" (no test)", out);
        }
        break;
    case ITER_FORALL: {
        const SpIndex *ix = &x->loop->idx[x->level];
        fprintf(out, "iter forall index %s = ", ix->var->name);
        expr(out, ix->lo);
        fputc(':', out);
        expr(out, ix->hi);
        fputc(':', out);
        expr(out, ix->st);
        fprintf(out, " level %d", x->level);
        if (ix->dist)
            fprintf(out, " owned %s dim %d", ix->arr->name, ix->dim + 1);
        break;
    }
    case ITER_RED:
        fprintf(out, "iter reduction %s %s < ", red_name[x->red->op], x->red->var->name);
        expr(out, x->red->n);
        break;
    case ITER_COPY:
        fputs("iter copy", out);
        break;
    }
    fputc('\n', out);
    if (x->varying) {
        indent(out, level);
        fputs("varying:", out);
        if (x->varying & AAG_VARY_INDEX)
            fputs(" index", out);
        if (x->varying & AAG_VARY_DEF)
            fputs(" def", out);
        if (x->varying & AAG_VARY_EXIT)
            fputs(" exit", out);
        if (x->varying & AAG_VARY_WHILE)
            fputs(" while", out);
        fputc('\n', out);
    }
}

/* What a communication does, in one line (the table row of the dump). */
static void comm_what(FILE *out, const CommEntry *e)
{
    fprintf(out, "%s", comm_kind_name[e->kind]);
    switch (e->kind) {
    case CM_OVERLAP:
        fprintf(out, " %s dim %d (below %d, above %d)", e->arr->name, e->dim + 1, e->below,
                e->above);
        break;
    case CM_GATHER:
        fprintf(out, " %s pattern %s round %d", e->arr->name, pattern_name[e->pat],
                e->g->round);
        break;
    case CM_SCATTER:
        fprintf(out, " %s pattern %s", e->arr->name, pattern_name[e->pat]);
        break;
    case CM_BCAST:
        fputc(' ', out);
        expr(out, e->elem);
        break;
    case CM_BCASTIO:
        fprintf(out, " %d item%s", e->io->u.io.reads.n, e->io->u.io.reads.n == 1 ? "" : "s");
        break;
    case CM_REDUCE:
        fprintf(out, " %s of %d %s", red_name[e->red_op], e->count, type_name(e->type));
        break;
    default:
        break;
    }
}

static void aau_lines(FILE *out, const Aau *x, int level);

static void list_lines(FILE *out, const PtrVec *v, int level)
{
    for (int i = 0; i < v->n; i++)
        aau_lines(out, v->v[i], level);
}

static void aau_lines(FILE *out, const Aau *x, int level)
{
    indent(out, level);
    fprintf(out, "#%d %s", x->id, aau_class_name[x->cls]);
    if (x->line) {
        fprintf(out, " %d", x->line);
        if (x->line_end > x->line)
            fprintf(out, "-%d", x->line_end);
    }
    if (x->label && x->label[0])
        fprintf(out, " %s", x->label);
    fputc('\n', out);
    switch (x->cls) {
    case AAU_SEQ: case AAU_SYNCSEQ:
        ops_lines(out, &x->ops, level + 1);
        if (x->nparts > 1) {
            indent(out, level + 1);
            fprintf(out, "parts: %d (lines", x->nparts);
            for (int i = 0; i < x->nparts; i++)
                fprintf(out, " %d", x->parts[i].line);
            fputs(")\n", out);
        }
        break;
    case AAU_ITERD: case AAU_ITERSYNC: case AAU_ITERND:
        iter_line(out, x, level + 1);
        break;
    case AAU_CALL:
        indent(out, level + 1);
        if (x->callee) {
            const Node *u = x->callee->unit;
            fprintf(out, "callee %s\n", u->u.unit.id ? u->u.unit.id : "?");
        } else {
            fputs("callee (not in the file)\n", out);
        }
        break;
    default:
        break;
    }
    if (x->comm) {
        indent(out, level + 1);
        fprintf(out, "comm #%d ", x->comm->id);
        comm_what(out, x->comm);
        fputc('\n', out);
    }
    flags_line(out, x, level + 1);
    list_lines(out, &x->kids, level + 1);
    if (x->mask) {
        indent(out, level + 1);
        fputs("mask ", out);
        expr(out, x->mask);
        fputc('\n', out);
    }
    for (int b = 0; b < x->nbranch; b++) {
        indent(out, level + 1);
        if (x->bcond[b]) {
            fputs("branch ", out);
            expr(out, x->bcond[b]);
            fputc('\n', out);
        } else {
            fputs("branch else\n", out);
        }
        list_lines(out, &x->bpre[b], level + 2);
        list_lines(out, &x->bbody[b], level + 2);
    }
}

static const char *unit_name(const SpUnit *u)
{
    return u && u->unit->u.unit.id ? u->unit->u.unit.id : "main";
}

void aag_dump(FILE *out, const Aag *g)
{
    fputs("aag:\n", out);
    aau_lines(out, g->root, 1);
    for (int i = 0; i < g->prog->units.n; i++) {
        const SpUnit *u = g->prog->units.v[i];
        if (u->main)
            continue;
        fprintf(out, "unit %s:\n", unit_name(u));
        list_lines(out, g->units.v[i], 1);
    }
    fputs("critical variables:\n", out);
    for (int i = 0; i < g->ncrit; i++) {
        const CritVar *c = &g->crit[i];
        fprintf(out, "  %s  line %d  %s", c->name, c->line, c->why);
        if (c->in_loop)
            fputs("  in loop", out);
        if (c->by_array)
            fputs("  by array", out);
        if (c->held)
            fputs("  held", out);
        if (c->unit && !c->unit->main)
            fprintf(out, "  unit %s", unit_name(c->unit));
        fputc('\n', out);
    }
}

/* Who takes part in a communication, symbolically. */
static void partners(FILE *out, const CommEntry *e)
{
    switch (e->kind) {
    case CM_OVERLAP:
        fprintf(out, "grid neighbours along dim %d (below %d, above %d)", e->dim + 1, e->below,
                e->above);
        break;
    case CM_GATHER:
        fputs(pattern_name[e->pat], out);
        break;
    case CM_SCATTER:
        fprintf(out, "owners of the targets (%s)", pattern_name[e->pat]);
        break;
    case CM_BCAST:
        fputs("owner of ", out);
        expr(out, e->elem);
        fputs(" -> all", out);
        break;
    case CM_BCASTIO:
        fputs("io -> all", out);
        break;
    case CM_REDUCE:
        fprintf(out, "all <-> all (%s)", red_name[e->red_op]);
        break;
    case CM_BARRIER:
        fputs("all", out);
        break;
    }
}

static void edge_end(FILE *out, const Aau *x, const char *none)
{
    if (x)
        fprintf(out, "#%d", x->id);
    else
        fputs(none, out);
}

void saag_dump(FILE *out, const Aag *g)
{
    aag_dump(out, g);
    fputs("communication table:\n", out);
    for (int i = 0; i < g->ncomm; i++) {
        const CommEntry *e = g->comm[i];
        fprintf(out, "  #%d aau #%d line %d %s %s ", e->id, e->aau->id, e->line,
                comm_kind_name[e->kind], pattern_name[e->pat]);
        if (e->kind == CM_BCAST)
            expr(out, e->elem);
        else if (e->arr)
            fputs(e->arr->name, out);
        else
            fputs("-", out);
        fprintf(out, " %d ", aag_type_size(e->type));
        partners(out, e);
        fputc('\n', out);
    }
    fputs("communication edges:\n", out);
    for (int i = 0; i < g->ncomm; i++) {
        const CommEntry *e = g->comm[i];
        fputs("  ", out);
        edge_end(out, e->src, "start");
        fprintf(out, " -> #%d -> ", e->aau->id);
        edge_end(out, e->dst, "end");
        fprintf(out, "  (comm #%d)\n", e->id);
    }
}

/* ---- Graphviz ---- */

static void dot_string(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        if ((unsigned char)*s >= ' ')
            fputc(*s, out);
    }
}

static int compound(const Aau *x)
{
    return x->cls == AAU_SPAWN || (x->cls >= AAU_ITERD && x->cls <= AAU_CONDTSYNC)
           || x->cls == AAU_CALL;
}

static void dot_nodes(FILE *out, const Aag *g)
{
    for (int i = 0; i < g->naau; i++) {
        const Aau *x = g->aau[i];
        fprintf(out, "  a%d [label=\"%s\\nline %d", x->id, aau_class_name[x->cls], x->line);
        if (x->line_end > x->line)
            fprintf(out, "-%d", x->line_end);
        fputs("\\n", out);
        dot_string(out, x->label ? x->label : "");
        fprintf(out, "\", shape=%s", compound(x) ? "ellipse" : "box");
        if (x->cls == AAU_COMM || x->cls == AAU_SYNC || x->cls == AAU_SYNCSEQ)
            fputs(", style=filled, fillcolor=lightgrey", out);
        else if (x->critical)
            fputs(", color=orange", out);
        fputs("];\n", out);
    }
}

static void dot_list(FILE *out, const Aau *parent, const PtrVec *v, const char *label)
{
    for (int i = 0; i < v->n; i++) {
        const Aau *x = v->v[i];
        if (parent) {
            fprintf(out, "  a%d -> a%d", parent->id, x->id);
            if (label && i == 0)
                fprintf(out, " [label=\"%s\"]", label);
            fputs(";\n", out);
        }
        if (x->next)
            fprintf(out, "  a%d -> a%d [style=dotted, arrowhead=open];\n", x->id, x->next->id);
    }
}

void aag_dot(FILE *out, const Aag *g)
{
    fputs("digraph saag {\n", out);
    fputs("  node [fontname=\"Helvetica\", fontsize=10];\n", out);
    fputs("  edge [fontname=\"Helvetica\", fontsize=9];\n", out);
    dot_nodes(out, g);
    /* control edges (parent to child) and sequence edges (dotted) */
    for (int i = 0; i < g->prog->units.n; i++)
        if (!((const SpUnit *)g->prog->units.v[i])->main)
            dot_list(out, NULL, g->units.v[i], NULL);
    for (int i = 0; i < g->naau; i++) {
        const Aau *x = g->aau[i];
        dot_list(out, x, &x->kids, NULL);
        for (int b = 0; b < x->nbranch; b++) {
            char lab[32];
            if (x->bcond[b])
                snprintf(lab, sizeof lab, "branch %d", b + 1);
            else
                snprintf(lab, sizeof lab, "else");
            dot_list(out, x, &x->bpre[b], lab);
            dot_list(out, x, &x->bbody[b], x->bpre[b].n ? NULL : lab);
        }
        if (x->cls == AAU_CALL && x->callee) {
            const PtrVec *body = aag_unit_body(g, x->callee);
            if (body && body->n)
                fprintf(out, "  a%d -> a%d [style=dotted, color=blue, label=\"call\"];\n",
                        x->id, ((const Aau *)body->v[0])->id);
        }
    }
    /* communication edges */
    for (int i = 0; i < g->ncomm; i++) {
        const CommEntry *e = g->comm[i];
        if (e->src)
            fprintf(out, "  a%d -> a%d [style=dashed, color=red];\n", e->src->id, e->aau->id);
        if (e->dst)
            fprintf(out, "  a%d -> a%d [style=dashed, color=red];\n", e->aau->id, e->dst->id);
    }
    fputs("}\n", out);
}
