/* lower_goto.c - a block of statements lowered, where a loop made of IF
 * and GOTO (a label, then IF (c) GOTO label or GOTO label at the end of
 * the same block) becomes a DO loop with an EXIT, so that both
 * interpreters see a loop (doc/lowering.md). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "lower_int.h"

/* ---- loops made of IF and GOTO ---- */

typedef struct {
    int label, n;
} GotoCount;

static int count_gotos(Node *n, void *ctx)
{
    GotoCount *c = ctx;
    if (n->kind == AST_GOTO && n->u.jump.target == c->label)
        c->n++;
    if (!ast_is_stmt(n->kind) && n->kind != AST_IF_BRANCH)
        return 0;
    return ast_children(n, count_gotos, ctx);
}

static int gotos_to(PtrVec *list, int from, int to, int label)
{
    GotoCount c = {label, 0};
    for (int i = from; i < to; i++)
        count_gotos(list->v[i], &c);
    return c.n;
}

/* An EXIT or CYCLE that is not inside a DO loop of its own. */
static int loose_exit(Node *n, void *ctx)
{
    if (n->kind == AST_EXIT || n->kind == AST_CYCLE)
        return 1;
    if (n->kind == AST_DO || n->kind == AST_DO_WHILE
        || (!ast_is_stmt(n->kind) && n->kind != AST_IF_BRANCH))
        return 0;
    return ast_children(n, loose_exit, ctx);
}

/* The GOTO closing a loop: GOTO label, or IF (c) GOTO label. */
static Node *back_jump(Node *n, int label)
{
    Node *g = n->kind == AST_LOGICAL_IF ? n->u.lif.stmt : n;
    return g->kind == AST_GOTO && g->u.jump.target == label ? g : NULL;
}

/* A loop made of a label on statement i of list and a GOTO back to it at
 * the statement j that closes it, the last such in the list (F77's DO
 * WHILE: "10 ... IF (c) GOTO 10"): j, or -1 when there is none or it
 * cannot be a DO loop, because a GOTO from outside jumps into the
 * statements after the label, an EXIT or CYCLE among them would then
 * leave the new loop instead of theirs, or the unit remaps arrays (whose
 * mapping each jump keeps, dynamic.c). Other GOTOs back to the label
 * stay: they leave the loop for its top, which starts it again. */
static int goto_loop(Lower *L, PtrVec *list, int i)
{
    Node *n = list->v[i];
    if (!n->label || L->dyn)
        return -1;
    int j = -1;
    for (int k = i + 1; k < list->n; k++)
        if (back_jump(list->v[k], n->label))
            j = k;
    if (j < 0)
        return -1;
    PtrVec *body = &L->u->unit->u.unit.body;
    for (int k = i; k <= j; k++) {
        Node *m = list->v[k];
        if (k < j && loose_exit(m, NULL))
            return -1;
        if (k > i && m->label) {
            /* every GOTO to it lies in the loop */
            GotoCount all = {m->label, 0};
            for (int u = 0; u < body->n; u++)
                count_gotos(body->v[u], &all);
            if (all.n != gotos_to(list, i, j + 1, m->label))
                return -1;
        }
    }
    return j;
}

/* Statements i..j of list as such a loop: DO, the statements i..j-1, then
 * IF (.NOT. c) EXIT (nothing for a plain GOTO), END DO, the label on the
 * DO. The abstraction parse makes it an IterND whose trip count the
 * functional interpreter finds, as for a DO WHILE. */
static void lower_goto_loop(Lower *L, PtrVec *list, int i, int j, PtrVec *out)
{
    Node *first = list->v[i], *last = list->v[j];
    L->line = first->loc.line;
    L->loc = first->loc;
    SpStmt *w = new_stmt(L, SP_WHILE);
    w->label = first->label;
    Node *top = arena_alloc(L->a, sizeof *top);
    *top = *first;
    top->label = 0;
    lower_stmt(L, top, &w->u.while_.body);
    for (int k = i + 1; k < j; k++)
        if (ast_is_stmt(((Node *)list->v[k])->kind))
            lower_stmt(L, list->v[k], &w->u.while_.body);
    if (last->kind == AST_LOGICAL_IF) {
        Node *x = ast_new(L->a, AST_EXIT, last->u.lif.stmt->loc);
        Node *c = ast_new(L->a, AST_LOGICAL_IF, last->loc);
        *c = *last;
        c->u.lif.stmt = x;
        Node *p = ast_new(L->a, AST_PAREN, last->u.lif.cond->loc);
        p->u.unary.operand = last->u.lif.cond;
        p->type = last->u.lif.cond->type;
        Node *nt = ast_new(L->a, AST_UNARY, last->u.lif.cond->loc);
        nt->u.unary.op = OP_NOT;
        nt->u.unary.operand = p;
        nt->type = p->type;
        c->u.lif.cond = nt;
        lower_stmt(L, c, &w->u.while_.body);
    } else if (last->label) {
        Node *c = ast_new(L->a, AST_CONTINUE, last->loc);
        c->label = last->label;
        lower_stmt(L, c, &w->u.while_.body);
    }
    add_stmt(L, out, w);
}

void lower_stmts(Lower *L, PtrVec *src, PtrVec *out)
{
    for (int i = 0; i < src->n; i++) {
        Node *n = src->v[i];
        if (!ast_is_stmt(n->kind))
            continue;
        int j = goto_loop(L, src, i);
        if (j >= 0) {
            lower_goto_loop(L, src, i, j, out);
            i = j;
            continue;
        }
        lower_stmt(L, n, out);
    }
}
