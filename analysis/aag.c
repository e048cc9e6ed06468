/* aag.c - the abstraction parse of hpfpredict (Parashar & Hariri, sections
 * 2.2 and 4.2-4.3): the SPMD IR of every unit becomes a tree of
 * Application Abstraction Units (Start, a Spawn holding the node program,
 * End; each procedure's body once, for Call AAUs), a lowered FORALL the
 * paper's Figure 7 sub-AAG (communication level, then the computation
 * level as an iterative nest), with the communication table that makes it
 * the Synchronized AAG, Seq clustering, and the classes that depend on
 * communication and on the critical variables (aag_crit.c). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "aag_int.h"
#include "../runtime/hpfrt.h"

const char *const aau_class_name[AAU_NCLASS] = {
#define AAU_CLASS(name, text) text,
#include "aau.def"
#undef AAU_CLASS
};

const char *const opc_param[OPC_N] = {
    "op.iadd", "op.imul", "op.idiv", "op.fadd", "op.fmul", "op.fdiv",
    "op.dadd", "op.dmul", "op.ddiv", "op.itof", "op.ftoi", "op.cmp", "op.logical",
};

static const char *const red_name[] = {"", "sum", "product", "max", "min", "and", "or"};

enum { LABEL_MAX = 60 };

/* ---- AAUs ---- */

/* Labels are short: one line of a dump, one node of a graph. */
static const char *clip(Build *B, const char *s)
{
    if (strlen(s) <= LABEL_MAX)
        return s;
    return arena_printf(B->a, "%.*s...", LABEL_MAX - 3, s);
}

/* An AAU made from statement s (or none) of the unit being built; critical
 * when s defines a critical variable. */
static Aau *new_aau(Build *B, AauClass cls, const SpStmt *s, const char *label)
{
    Aau *x = arena_alloc(B->a, sizeof *x);
    x->cls = cls;
    x->unit = B->unit;
    x->stmt = s;
    if (s) {
        x->line = s->line;
        x->line_end = s->loc.eline > s->line ? s->loc.eline : s->line;
        x->critical = crit_stmt(B, s);
    }
    x->label = label ? clip(B, label) : "";
    x->on = ON_ALL;
    return x;
}

static void push(Build *B, PtrVec *v, Aau *x)
{
    vec_push(B->a, v, x);
}

/* x's row of the communication table (numbered with the AAUs). */
static CommEntry *new_comm(Build *B, Aau *x, CommKind k, Pattern p)
{
    CommEntry *e = arena_alloc(B->a, sizeof *e);
    e->aau = x;
    e->kind = k;
    e->pat = p;
    e->line = x->line;
    x->comm = e;
    return e;
}

/* A loop's step when constant, else 1 (for strides). */
static long long step_of(const Node *st)
{
    long long k;
    return st && cint(st, &k) && k ? k : 1;
}

static OpCtx op_ctx(Build *B, AauOps *ops, const Symbol *inner, long long step, PtrVec *calls)
{
    return (OpCtx){B, ops, inner, step, calls};
}

/* A Call AAU per reference to a procedure of the file, in the order they
 * run (arguments first). */
static void call_aaus(Build *B, const PtrVec *calls, const SpStmt *s, const SpLoop *lp,
                      PtrVec *out, int pre)
{
    for (int i = 0; i < calls->n; i++) {
        const Node *ref = calls->v[i];
        const SpUnit *u = aag_callee(B, ref);
        Aau *x = new_aau(B, AAU_CALL, s, arena_printf(B->a, "call %s", ref->u.ref.id));
        x->callee = u;
        x->call = ref;
        x->loop = lp;
        x->pre = pre;           /* the call's overhead is in the Seq's ops.calls */
        push(B, out, x);
    }
}

/* Call AAUs for the function references of an expression evaluated where
 * no Seq AAU holds it (bounds, conditions). */
static void expr_calls(Build *B, const Node *e, const SpStmt *s, PtrVec *out, int pre)
{
    if (!e)
        return;
    AauOps scratch = {0};
    PtrVec calls = {0};
    OpCtx c = op_ctx(B, &scratch, NULL, 1, &calls);
    ops_expr(&c, e);
    call_aaus(B, &calls, s, NULL, out, pre);
    free(calls.v);
}

/* The test of an IF branch or a DO WHILE: a Seq of its operations (when
 * it has any: a bare logical variable costs only the engine's test), then
 * the Calls of its function references; all in the pre list. */
static void cond_seq(Build *B, const Node *cond, const SpStmt *s, PtrVec *out)
{
    if (!cond)
        return;
    PtrVec calls = {0};
    AauOps ops = {0};
    OpCtx c = op_ctx(B, &ops, B->inner, B->inner_step, &calls);
    ops_expr(&c, cond);
    int any = ops.nlib > 0 || ops.calls > 0;
    for (int k = 0; k < OPC_N; k++)
        any |= ops.op[k] != 0;
    if (any) {
        Aau *x = new_aau(B, AAU_SEQ, s, arena_printf(B->a, "test %s", aag_expr_text(B, cond)));
        x->critical = 0;        /* a test defines nothing */
        x->ops = ops;
        x->pre = 1;
        push(B, out, x);
    }
    call_aaus(B, &calls, s, NULL, out, 1);
    free(calls.v);
}

/* Type conversion of an assignment's value to the left-hand side's type. */
static void assign_convert(AauOps *o, Type lhs, Type rhs)
{
    int li = lhs.base == TY_INTEGER, lf = lhs.base == TY_REAL || lhs.base == TY_COMPLEX;
    int ri = rhs.base == TY_INTEGER, rf = rhs.base == TY_REAL || rhs.base == TY_COMPLEX;
    if (li && rf)
        o->op[OPC_FTOI] += 1;
    else if (lf && ri)
        o->op[OPC_ITOF] += 1;
}

/* ---- scalar statements ---- */

static int has_user_call_visit(Node *n, void *ctx)
{
    Build *B = ctx;
    if (n->kind == AST_REF && aag_callee(B, n))
        return 1;
    return ast_children(n, has_user_call_visit, ctx);
}

/* An assignment with no call of the program's procedures: clustered. */
static int plain_seq(Build *B, const SpStmt *s)
{
    return s->kind == SP_SEQ && s->u.seq->kind == AST_ASSIGN
           && !has_user_call_visit(s->u.seq, B);
}

/* One assignment: its value, the store, the conversion between them. */
static void assign_ops(Build *B, const Node *n, AauOps *ops, PtrVec *calls)
{
    OpCtx c = op_ctx(B, ops, B->inner, B->inner_step, calls);
    ops_expr(&c, n->u.assign.rhs);
    ops_store(&c, n->u.assign.lhs);
    assign_convert(ops, n->u.assign.lhs->type, n->u.assign.rhs->type);
}

/* Statement s joins the cluster x (of at most cap parts). */
static void one_part(Build *B, Aau *x, const SpStmt *s, int cap)
{
    if (!x->parts)
        x->parts = arena_alloc(B->a, (size_t)cap * sizeof *x->parts);
    AauPart *p = &x->parts[x->nparts++];
    p->stmt = s;
    p->line = s->line;
    assign_ops(B, s->u.seq, &p->ops, NULL);
    ops_merge(B, &x->ops, &p->ops);
    int end = s->loc.eline > s->line ? s->loc.eline : s->line;
    if (end > x->line_end)
        x->line_end = end;
    x->critical |= crit_stmt(B, s);
}

/* The label of a control statement. */
static const char *ctl_text(Build *B, const Node *n)
{
    switch (n->kind) {
    case AST_GOTO: return arena_printf(B->a, "goto %d", n->u.jump.target);
    case AST_EXIT: return "exit";
    case AST_CYCLE: return "cycle";
    case AST_CONTINUE: return "continue";
    case AST_RETURN: return "return";
    default: return "stop";
    }
}

/* An ALLOCATE or DEALLOCATE of the arrays among items (a STAT= among them
 * is not one): a call of the allocator, and at an ALLOCATE each array's
 * allocation and its release (mem.alloc). A mapped ALLOCATABLE array among
 * mapped (SP_ALLOC, SP_DEALLOC; NULL: none) makes it critical: the
 * functional interpreter holds the array (procedures it is passed to bind
 * it, inquiries read its shape); so does a replicated temporary (a WHERE
 * mask), which the interpreter must size anew at each ALLOCATE. */
static Aau *alloc_aau(Build *B, const SpStmt *s, const char *label, int allocate,
                      const PtrVec *items, const PtrVec *mapped)
{
    Aau *x = new_aau(B, AAU_SEQ, s, label);
    x->ops.calls = 1;
    for (int i = 0; allocate && i < items->n; i++)
        x->ops.allocs += ((const Node *)items->v[i])->kind != AST_KEYWORD_ARG;
    for (int i = 0; mapped && i < mapped->n; i++) {
        const SpRef *ri = ((const Node *)mapped->v[i])->ir;
        if (ri && ri->arr && (ri->arr->at_alloc || !ri->arr->sym))
            x->critical = 1;
    }
    return x;
}

/* SP_SEQ that is not clustered: an assignment with calls (Seq, Calls), a
 * CALL, a control statement, ALLOCATE/DEALLOCATE. */
static void build_seq(Build *B, const SpStmt *s, PtrVec *out)
{
    const Node *n = s->u.seq;
    PtrVec calls = {0};
    switch (n->kind) {
    case AST_ASSIGN: {
        Aau *x = new_aau(B, AAU_SEQ, s, aag_stmt_text(B, n));
        x->parts = arena_alloc(B->a, sizeof *x->parts);
        x->parts[0].stmt = s;
        x->parts[0].line = s->line;
        assign_ops(B, n, &x->parts[0].ops, &calls);
        x->nparts = 1;
        ops_merge(B, &x->ops, &x->parts[0].ops);
        push(B, out, x);
        call_aaus(B, &calls, s, NULL, out, 0);
        break;
    }
    case AST_CALL: {
        const SpUnit *u = aag_callee(B, n);
        AauOps ops = {0};
        OpCtx c = op_ctx(B, &ops, B->inner, B->inner_step, &calls);
        for (int i = 0; i < n->u.ref.args.n; i++) {
            const Node *a = n->u.ref.args.v[i];
            if (a->kind == AST_KEYWORD_ARG)
                a = a->u.kwarg.value;
            if (a->kind != AST_NAME)        /* a variable goes by reference */
                ops_expr(&c, a);
        }
        if (u) {
            /* the arguments' own calls run first */
            call_aaus(B, &calls, s, NULL, out, 0);
            Aau *x = new_aau(B, AAU_CALL, s, arena_printf(B->a, "call %s", n->u.ref.id));
            x->callee = u;
            x->call = n;
            x->ops = ops;       /* the arguments computed; the call is the Call's */
            push(B, out, x);
        } else {
            /* an intrinsic or external subroutine: a library call */
            Aau *x = new_aau(B, AAU_SEQ, s, aag_stmt_text(B, n));
            x->ops = ops;
            ops_lib(B, &x->ops, arena_printf(B->a, "lib.%s", n->u.ref.id), 1);
            push(B, out, x);
            call_aaus(B, &calls, s, NULL, out, 0);
        }
        break;
    }
    case AST_EXIT: case AST_CYCLE: case AST_CONTINUE: case AST_GOTO: case AST_RETURN:
    case AST_STOP: {
        Aau *x = new_aau(B, AAU_SEQ, s, ctl_text(B, n));
        /* CONTINUE transfers no control: it is an empty Seq (a GOTO's
           target by its label, which the engine finds on the statement) */
        x->ctl = n->kind == AST_CONTINUE ? 0 : n->kind;
        if (n->kind == AST_GOTO)
            x->ctl_target = n->u.jump.target;
        push(B, out, x);
        break;
    }
    case AST_ALLOCATE: case AST_DEALLOCATE:
        /* the arrays that are not mapped (lower.c lower_alloc) */
        push(B, out, alloc_aau(B, s, aag_stmt_text(B, n), n->kind == AST_ALLOCATE,
                               &n->u.alloc.items, NULL));
        break;
    default:
        push(B, out, new_aau(B, AAU_SEQ, s, aag_stmt_text(B, n)));
        break;
    }
    free(calls.v);
}

/* SP_STORE: a Seq on the owners of the element, with their test. */
static void build_store(Build *B, const SpStmt *s, PtrVec *out)
{
    const Node *lhs = s->u.store.lhs;
    const SpRef *r = lhs->ir;
    PtrVec calls = {0};
    Aau *x = new_aau(B, AAU_SEQ, s, arena_printf(B->a, "%s = %s", aag_expr_text(B, lhs),
                                                 aag_expr_text(B, s->u.store.rhs)));
    x->on = ON_OWNER;
    x->elem = lhs;
    OpCtx c = op_ctx(B, &x->ops, B->inner, B->inner_step, &calls);
    ops_expr(&c, s->u.store.rhs);
    ops_store(&c, lhs);
    assign_convert(&x->ops, lhs->type, s->u.store.rhs->type);
    /* the owner test: hpfrt_mine per distributed dimension */
    int dist = 0;
    for (int d = 0; r && r->arr && d < r->arr->rank; d++)
        dist += r->arr->tdim[d] >= 0;
    ops_lib(B, &x->ops, dist ? "lib.hpfrt_mine" : "lib.hpfrt_present", dist ? dist : 1);
    if (dist > 1)
        x->ops.op[OPC_LOGICAL] += dist - 1;
    push(B, out, x);
    call_aaus(B, &calls, s, NULL, out, 0);
    free(calls.v);
}

/* SP_BCAST: a Comm from the element's owner to every processor. */
static void build_bcast(Build *B, const SpStmt *s, PtrVec *out)
{
    const Node *ref = s->u.bcast.ref;
    const SpRef *r = ref->ir;
    Aau *x = new_aau(B, AAU_COMM, s, arena_printf(B->a, "%s = %s",
                                                  aag_temp_name(B, s->u.bcast.temp),
                                                  aag_expr_text(B, ref)));
    OpCtx c = op_ctx(B, &x->ops, NULL, 1, NULL);
    for (int d = 0; d < ref->u.ref.args.n && d < MAX_RANK; d++)
        ops_expr(&c, r->sub[d]);    /* the global subscripts, sent along */
    CommEntry *e = new_comm(B, x, CM_BCAST, PAT_BCAST);
    e->elem = ref;
    e->arr = r->arr;
    e->type = ref->type;
    e->bytes = aag_type_size(ref->type);
    push(B, out, x);
}

/* Item it of x, of max items, sized only at run time (est: the AAG's
 * estimate of its bytes). */
static void io_dyn(Build *B, Aau *x, const Node *it, int est, int max)
{
    if (!x->io_dyn)
        x->io_dyn = arena_alloc(B->a, (size_t)max * sizeof *x->io_dyn);
    x->io_dyn[x->nio_dyn++] = (AauIoItem){it, est};
}

/* SP_IO: a Seq on the I/O processor with the bytes it moves; a READ's
 * values then go to every processor (a bcastio Comm). */
static void build_io(Build *B, const SpStmt *s, PtrVec *out)
{
    const Node *io = s->u.io.stmt;
    Aau *x = new_aau(B, AAU_SEQ, s, aag_stmt_text(B, io));
    x->on = ON_IO;
    x->io = 1;
    int nitems = io->kind == AST_CALL ? 0 : io->u.io.items.n;
    PtrVec calls = {0};
    OpCtx c = op_ctx(B, &x->ops, NULL, 1, &calls);
    int bytes = 0;
    double elems = 0;
    /* what the I/O processor sets (READ items, an intrinsic subroutine's
       results), stored there */
    for (int i = 0; i < s->u.io.reads.n; i++) {
        const Node *it = s->u.io.reads.v[i];
        int sized = 1;
        int b = aag_io_bytes(B, it, &sized), el = aag_type_size(it->type);
        if (sized)
            bytes += b;
        else
            io_dyn(B, x, it, b, s->u.io.reads.n + nitems);
        elems += el > 0 ? (double)(b / el) : 1;
        if (it->kind == AST_REF && it->u.ref.what == REF_SECTION) {
            const SpRef *r = it->ir;
            ops_access(B, &x->ops, r && r->arr ? r->arr->name : it->u.ref.id,
                       r ? r->arr : NULL, NULL, 0, (double)(b / el), el, el, 0);
        } else {
            ops_store(&c, it);
        }
    }
    if (io->kind == AST_CALL) {
        /* an intrinsic subroutine: its inputs, the library's cost (lib.NAME
           in the SAG; RANDOM_NUMBER's per number), no formatted I/O */
        x->io = 0;
        for (int i = 0; i < io->u.ref.args.n; i++) {
            const Node *a = io->u.ref.args.v[i];
            if (!sema_intrinsic_sets(io, i))
                ops_expr(&c, a->kind == AST_KEYWORD_ARG ? a->u.kwarg.value : a);
        }
        ops_lib(B, &x->ops, arena_printf(B->a, "lib.%s", io->u.ref.id),
                strcmp(io->u.ref.id, "random_number") ? 1 : elems);
    } else if (io->kind != AST_READ) {
        for (int i = 0; i < io->u.io.items.n; i++) {
            const Node *it = io->u.io.items.v[i];
            int sized = 1, b = aag_io_bytes(B, it, &sized);
            if (sized)
                bytes += b;
            else
                io_dyn(B, x, it, b, s->u.io.reads.n + nitems);
            if (!it->rank && it->kind != AST_IMPLIED_DO)
                ops_expr(&c, it);
        }
    }
    x->io_bytes = bytes;
    push(B, out, x);
    call_aaus(B, &calls, s, NULL, out, 0);
    free(calls.v);
    if (s->u.io.reads.n) {
        Aau *y = new_aau(B, AAU_COMM, s, arena_printf(B->a, "broadcast %d item%s %s",
                                                      s->u.io.reads.n,
                                                      s->u.io.reads.n == 1 ? "" : "s",
                                                      io->kind == AST_CALL ? "set" : "read"));
        CommEntry *e = new_comm(B, y, CM_BCASTIO, PAT_BCAST);
        e->io = s;
        e->io_aau = x;
        e->type = ((const Node *)s->u.io.reads.v[0])->type;
        e->bytes = bytes;
        push(B, out, y);
    }
}

/* ---- lowered FORALLs and reductions (Figure 7) ---- */

typedef struct {
    Build *B;
    const SpStmt *s;
    const SpLoop *lp;
    int inner;                 /* the index run innermost (inner_index) */
} LoopB;

/* A cache line, for ranking loop orders before the machine is known. */
enum { REORDER_LINE = 32 };

/* The index the node compiler runs innermost. The emitter nests idx[0]
 * innermost (column-major order for a FORALL written in subscript order);
 * a compiler that nests them as written (-fforall-nest=written) the last.
 * With loop reordering (-floop-reorder, the interpretation parse's model
 * of the node compiler's loop interchange; legal since the iterations of a
 * FORALL are independent) it is the index whose consecutive values touch
 * the fewest cache lines over the statement's accesses; ties keep the
 * emitter's order. */
static int inner_index(Build *B, const SpLoop *lp)
{
    int nest = B->o->forall_written && lp->nidx > 1 ? lp->nidx - 1 : 0;
    if (!B->o->loop_reorder || lp->nidx < 2 || !lp->lhs || !lp->rhs)
        return nest;
    int best = 0;
    double best_lines = 0;
    for (int k = 0; k < lp->nidx; k++) {
        /* an index of one trip (a section's fixed subscript) or one the
           element stored does not vary with is no loop to run innermost */
        long long lo, hi;
        if (k && lp->idx[k].lo && lp->idx[k].hi && cint(lp->idx[k].lo, &lo) &&
            cint(lp->idx[k].hi, &hi) && lo == hi)
            continue;
        AauOps o = {0}, st = {0};
        OpCtx c = op_ctx(B, &st, lp->idx[k].var, step_of(lp->idx[k].st), NULL);
        if (k && !lp->lhs_temp && !lp->scatter) {
            ops_store(&c, lp->lhs);
            int moves = 0;
            for (int i = 0; i < st.nacc; i++)
                moves |= !st.acc[i].scalar && st.acc[i].stride != 0;
            if (!moves)
                continue;
        }
        c = op_ctx(B, &o, lp->idx[k].var, step_of(lp->idx[k].st), NULL);
        ops_expr(&c, lp->rhs);
        if (!lp->lhs_temp && !lp->scatter)
            ops_store(&c, lp->lhs);
        double lines = 0;
        for (int i = 0; i < o.nacc; i++) {
            const AauAccess *x = &o.acc[i];
            long long st = x->stride < 0 ? -x->stride : x->stride;
            if (!x->scalar)
                lines += (x->loads + x->stores) * (st < REORDER_LINE ? (double)st : REORDER_LINE);
        }
        if (k == 0 || lines < best_lines || (lines == best_lines && k == nest)) {
            best = k;
            best_lines = lines;
        }
    }
    return best;
}

/* An AAU of a loop's sub-AAG: every one knows its loop. */
static Aau *loop_aau(LoopB *L, AauClass cls, const char *label)
{
    Aau *x = new_aau(L->B, cls, L->s, label);
    x->loop = L->lp;
    return x;
}

static void build_red(LoopB *L, const SpRed *sr, PtrVec *out);

static void reds_of(LoopB *L, const Node *e, PtrVec *out);

static int reds_cb(Node *n, void *ctx)
{
    void **c = ctx;
    reds_of(c[0], n, c[1]);
    return 0;
}

/* The inline reductions of e, in the order the emitter runs them. */
static void reds_of(LoopB *L, const Node *e, PtrVec *out)
{
    if (!e)
        return;
    if (e->kind == AST_REF && e->u.ref.what == REF_INTRINSIC && e->ir) {
        build_red(L, e->ir, out);
        return;
    }
    void *c[2] = {L, out};
    ast_children((Node *)e, reds_cb, c);
}

/* A conditional on a mask: one branch, the mask computed in its pre list. */
static Aau *mask_condt(LoopB *L, const Node *mask, Aau *mask_seq, PtrVec *mask_reds)
{
    Build *B = L->B;
    Aau *x = loop_aau(L, AAU_CONDTD, "where");
    x->mask = mask;
    x->nbranch = 1;
    x->bcond = arena_alloc(B->a, sizeof *x->bcond);
    x->bpre = arena_alloc(B->a, sizeof *x->bpre);
    x->bbody = arena_alloc(B->a, sizeof *x->bbody);
    x->bcond[0] = mask;
    for (int i = 0; i < mask_reds->n; i++) {
        ((Aau *)mask_reds->v[i])->pre = 1;
        push(B, &x->bpre[0], mask_reds->v[i]);
    }
    mask_seq->pre = 1;
    push(B, &x->bpre[0], mask_seq);
    return x;
}

/* An inline reduction: an IterD over its positions; inside, its mask as a
 * CondtD, its own inline reductions, the Seq accumulating one value. */
static void build_red(LoopB *L, const SpRed *sr, PtrVec *out)
{
    Build *B = L->B;
    Aau *it = loop_aau(L, AAU_ITERD, arena_printf(B->a, "%s over %s", red_name[sr->op],
                                                  sr->var->name));
    it->iter = ITER_RED;
    it->red = sr;
    push(B, out, it);
    PtrVec calls = {0};
    Aau *body = loop_aau(L, AAU_SEQ, arena_printf(B->a, "%s %s", red_name[sr->op],
                                                  aag_expr_text(B, sr->body)));
    OpCtx c = op_ctx(B, &body->ops, sr->var, 1, &calls);
    ops_expr(&c, sr->body);
    Type at = sr->loc ? sr->body->type : sr->type;
    const char *acc = aag_temp_name(B, sr->acc);
    if (sr->loc) {
        /* the first extreme: a test of the position and one of the value */
        body->ops.op[OPC_CMP] += 2;
        body->ops.op[OPC_LOGICAL] += 1;
        ops_access(B, &body->ops, aag_temp_name(B, sr->pos), NULL, NULL, 1, 1, 0, 4, 1);
    } else {
        ops_combine(&body->ops, sr->op, at);
    }
    ops_access(B, &body->ops, acc, NULL, NULL, 1, 1, 0, aag_type_size(at), 1);
    PtrVec *where = &it->kids;
    /* a REAL sum, product, maximum or minimum into one accumulator: each
       element waits for the one before (as a FORALL's reduction, below) */
    int chain = !sr->loc && at.base != TY_INTEGER && sr->op <= HPFRT_MIN;
    if (chain && !sr->mask)
        body->chain = sr->op;
    if (sr->mask) {
        PtrVec mreds = {0}, mcalls = {0};
        reds_of(L, sr->mask, &mreds);
        Aau *ms = loop_aau(L, AAU_SEQ, arena_printf(B->a, "mask %s",
                                                    aag_expr_text(B, sr->mask)));
        if (chain)
            ms->chain = sr->op;
        OpCtx mc = op_ctx(B, &ms->ops, sr->var, 1, &mcalls);
        ops_expr(&mc, sr->mask);
        Aau *cd = mask_condt(L, sr->mask, ms, &mreds);
        call_aaus(B, &mcalls, L->s, L->lp, &cd->bpre[0], 1);
        free(mcalls.v);
        push(B, &it->kids, cd);
        where = &cd->bbody[0];
    }
    reds_of(L, sr->body, where);
    push(B, where, body);
    call_aaus(B, &calls, L->s, L->lp, where, 0);
    free(calls.v);
}

/* The overlap exchanges of a loop (lp->ovl, as emit.c makes them):
 * each a Seq for the index translation and packing of the boundary (a few
 * integer operations a call; the bytes are the Comm's), then the Comm. */
static void overlap_level(LoopB *L, PtrVec *out, PtrVec *entries)
{
    Build *B = L->B;
    const SpLoop *lp = L->lp;
    for (int i = 0; i < lp->novl; i++) {
        const SpOverlap *ov = &lp->ovl[i];
        const SpArr *arr = ov->arr;
        int d = ov->dim;
        Aau *p = loop_aau(L, AAU_SEQ, arena_printf(B->a, "pack %s dim %d", arr->name, d + 1));
        p->ops.op[OPC_IADD] = 2;
        p->ops.op[OPC_IMUL] = 1;
        push(B, out, p);
        Aau *x = loop_aau(L, AAU_COMM, arena_printf(B->a, "overlap %s dim %d", arr->name, d + 1));
        CommEntry *e = new_comm(B, x, CM_OVERLAP, PAT_OVERLAP);
        e->loop = lp;
        e->arr = arr;
        e->dim = d;
        e->below = (int)ov->below;
        e->above = (int)ov->above;
        e->ov = ov;
        e->type = arr->type;
        push(B, out, x);
        vec_push(NULL, entries, e);
    }
}

/* A pass over every point of the loop (the copy-back pass, and a
 * gather's inspector: ITER_COPY) holding the Seq kid (NULL: none). */
static Aau *pass_aau(LoopB *L, const char *label, Aau *kid)
{
    Aau *it = loop_aau(L, AAU_ITERD, label);
    it->iter = ITER_COPY;
    if (kid)
        push(L->B, &it->kids, kid);
    return it;
}

/* A Seq allocating n temporaries (and freeing them after the statement). */
static Aau *temps_aau(LoopB *L, int n)
{
    Aau *x = loop_aau(L, AAU_SEQ, arena_printf(L->B->a, "allocate %d temporar%s", n,
                                                n == 1 ? "y" : "ies"));
    x->ops.allocs = n;
    return x;
}

/* Gathers round by round, as emit_loop.c makes them: the inspector, a pass
 * over the loop's points counting them (its segments; the node compiler
 * turns the counting loop into its final count, so no Seq), the index
 * vector and the buffer of each gather allocated, a second pass recording
 * each gather's subscripts at every point (its Seq "inspect"), then the
 * executors. When every index vector of the round is invariant, or keyed
 * by scalars (spmd_gather_keys), the two passes run only while libhpfrt
 * has no schedule for them (kept_by). Where the loop reads its gathered
 * references in place on one processor (spmd_direct_one), none of it
 * runs there (multi_only). */
static void gather_level(LoopB *L, PtrVec *out, PtrVec *entries)
{
    Build *B = L->B;
    const SpLoop *lp = L->lp;
    const Symbol *inner = lp->nidx ? lp->idx[L->inner].var : NULL;
    long long step = lp->nidx ? step_of(lp->idx[L->inner].st) : 1;
    int multi = spmd_direct_one(lp);
    for (int round = 0; round < lp->nrounds; round++) {
        int n = 0;
        for (int i = 0; i < lp->gathers.n; i++)
            n += ((const SpGather *)lp->gathers.v[i])->round == round;
        if (!n)
            continue;
        Aau *count = pass_aau(L, "inspector: count the points", NULL);
        Aau *temps = temps_aau(L, 2 * n);
        count->multi_only = temps->multi_only = multi;
        count->multi_if = temps->multi_if = lp->direct_if;
        push(B, out, count);
        push(B, out, temps);
        Aau *rec = NULL;
        int all_inv = 1;
        for (int i = 0; i < lp->gathers.n; i++) {
            const SpGather *g = lp->gathers.v[i];
            if (g->round != round)
                continue;
            const char *ref = aag_expr_text(B, g->ref);
            Aau *p = loop_aau(L, AAU_SEQ, arena_printf(B->a, "inspect %s", ref));
            OpCtx c = op_ctx(B, &p->ops, inner, step, NULL);
            for (int d = 0; d < g->r->arr->rank; d++)
                ops_expr(&c, g->r->sub[d]);
            p->ops.op[OPC_IADD] += 1;
            ops_access(B, &p->ops, aag_temp_name(B, g->idx), NULL, NULL, 0, g->r->arr->rank,
                       4 * g->r->arr->rank, 4, 0);
            if (!rec) {
                rec = pass_aau(L, "inspector: record the subscripts", p);
                rec->multi_only = multi;
                rec->multi_if = lp->direct_if;
                push(B, out, rec);
            } else {
                push(B, &rec->kids, p);
            }
            all_inv &= spmd_gather_keys(lp, g->r, g->ctx, NULL) >= 0;
        }
        for (int i = 0; i < lp->gathers.n; i++) {
            const SpGather *g = lp->gathers.v[i];
            if (g->round != round)
                continue;
            Aau *x = loop_aau(L, AAU_COMM, arena_printf(B->a, "gather %s",
                                                        aag_expr_text(B, g->ref)));
            CommEntry *e = new_comm(B, x, CM_GATHER, g->pat);
            x->multi_only = multi;
            x->multi_if = lp->direct_if;
            if (all_inv && !count->kept_by)
                count->kept_by = rec->kept_by = e;
            e->loop = lp;
            e->g = g;
            e->arr = g->r->arr;
            e->type = g->ref->type;
            push(B, out, x);
            vec_push(NULL, entries, e);
        }
    }
}

/* The Seq of one iteration: the value, and where it goes. */
static Aau *body_seq(LoopB *L, PtrVec *calls)
{
    Build *B = L->B;
    const SpLoop *lp = L->lp;
    const Symbol *inner = lp->nidx ? lp->idx[L->inner].var : NULL;
    long long step = lp->nidx ? step_of(lp->idx[L->inner].st) : 1;
    const char *label = lp->lhs ? arena_printf(B->a, "%s = %s", aag_expr_text(B, lp->lhs),
                                               aag_expr_text(B, lp->rhs))
                                : arena_printf(B->a, "%s %s", red_name[lp->red_op],
                                               aag_expr_text(B, lp->rhs));
    Aau *x = loop_aau(L, AAU_SEQ, label);
    OpCtx c = op_ctx(B, &x->ops, inner, step, calls);
    ops_expr(&c, lp->rhs);
    if (lp->red_op) {
        const char *acc = aag_temp_name(B, lp->red_acc);
        if (lp->red_loc) {
            x->ops.op[OPC_CMP] += 2;
            x->ops.op[OPC_LOGICAL] += 1;
            ops_access(B, &x->ops, aag_temp_name(B, lp->red_pos), NULL, NULL, 0, 1, 0, 4, 1);
        } else {
            ops_combine(&x->ops, lp->red_op, lp->red_type);
        }
        ops_access(B, &x->ops, acc, NULL, NULL, 1, 1, 0, aag_type_size(lp->red_type), 1);
        return x;
    }
    int el = aag_type_size(lp->lhs->type);
    assign_convert(&x->ops, lp->lhs->type, lp->rhs->type);
    if (lp->scatter) {
        const SpRef *r = lp->lhs->ir;
        for (int d = 0; d < r->arr->rank; d++)
            ops_expr(&c, r->sub[d]);
        ops_access(B, &x->ops, aag_temp_name(B, lp->tidx), NULL, NULL, 0, r->arr->rank,
                   4 * r->arr->rank, 4, 0);
        ops_access(B, &x->ops, aag_temp_name(B, lp->tbuf), NULL, NULL, 0, 1, el, el, 0);
    } else if (lp->lhs_temp) {
        ops_access(B, &x->ops, aag_temp_name(B, lp->tbuf), NULL, NULL, 0, 1, el, el, 0);
    } else {
        ops_store(&c, lp->lhs);
    }
    return x;
}

/* Whether the node compiler can vectorize the innermost loop of a FORALL
 * whose body costs o (doc/validation.md, "Vectorized loops"): the loop
 * hpfc emits for a dimension that is not distributed has constant bounds
 * and step 1, and a compiler such as GCC at -O2 vectorizes it when its
 * trip count is a multiple of the vector's elements (known here from the
 * bounds; the engine checks it against the SAG's vector width); the
 * innermost level distributed, hpfc marks it for the vectorizer (vec_trips
 * -1: any trip count). Besides, every
 * array it touches is contiguous along the loop or invariant in it, and
 * nothing in it stops the vectorizer: no mask or guard (branches), no
 * gathered or scattered operand (indexed temporaries), no call other than
 * the intrinsics the vector unit has (ABS, MAX, MIN, SQRT, SIGN) and the
 * library functions that have vector variants (aag_vec_math: SQRT, EXP,
 * SIN, ...; x->vec_lib says which, and the engine takes the loop as
 * vectorized only where the SAG has their vec.lib.* costs), no
 * floating-point product. A
 * floating-point sum may not be reassociated without -ffast-math, so GCC
 * vectorizes it in order: the element's operations in vectors, the adds
 * one after another (the sum keeps its chain, red.sum). Sets x->vec_el and
 * x->vec_trips; returns whether it can. */
const char *const aag_vec_math[AAG_NVEC_MATH] = {
    "lib.sqrt", "lib.exp", "lib.log", "lib.log10", "lib.sin", "lib.cos", "lib.tan", "lib.atan",
    "lib.atan2", "lib.asin", "lib.acos", "lib.sinh", "lib.cosh", "lib.tanh", "lib.pow",
};

int aag_vec_math_index(const char *param)
{
    for (int i = 0; i < AAG_NVEC_MATH; i++) {
        size_t n = strlen(aag_vec_math[i]);
        if (!strncmp(param, aag_vec_math[i], n) && (param[n] == 0 || param[n] == '.'))
            return i;
    }
    return -1;
}

static int vectorizable(LoopB *L, Aau *x)
{
    static const char *const vlib[] = {"lib.abs", "lib.max", "lib.min", "lib.sqrt", "lib.sign"};
    const SpLoop *lp = L->lp;
    const AauOps *o = &x->ops;
    long long lo, hi;
    if (!lp->nidx || lp->mask || lp->nguard || lp->scatter || lp->lhs_temp || lp->gathers.n ||
        lp->red_loc || o->calls > 0)
        return 0;
    const SpIndex *ix = &lp->idx[L->inner];
    /* a distributed innermost level: hpfc's copy of the loop for segments
       of local stride 1, marked for the vectorizer (spmd_vector_loop),
       vectorized whatever its trip count (its few last iterations, fewer
       than a vector's elements, run scalar: not counted apart) */
    int dist = ix->dist && L->inner == 0 && spmd_vector_loop(lp);
    if (ix->dist && !dist)
        return 0;
    if (!dist && (step_of(ix->st) != 1 || !cint(ix->lo, &lo) || !cint(ix->hi, &hi) || hi < lo))
        return 0;
    if (lp->red_op == HPFRT_PRODUCT && lp->red_type.base != TY_INTEGER)
        return 0;
    unsigned need = 0;
    for (int i = 0; i < o->nlib; i++) {
        size_t k = 0;
        while (k < sizeof vlib / sizeof *vlib && strcmp(o->lib[i].param, vlib[k]))
            k++;
        if (k < sizeof vlib / sizeof *vlib)
            continue;
        int m = aag_vec_math_index(o->lib[i].param);
        if (m < 0)
            return 0;
        need |= 1u << m;
    }
    int widest = 0;
    for (int i = 0; i < o->nacc; i++) {
        const AauAccess *a = &o->acc[i];
        if (a->scalar || a->stride == 0)
            continue;
        if (a->stride != a->elsize || a->elsize <= 0)
            return 0;
        if (a->elsize > widest)
            widest = a->elsize;
    }
    if (!widest)
        return 0;
    x->vec_el = widest;
    x->vec_trips = dist ? -1 : hi - lo + 1;
    x->vec_lib = need;
    return 1;
}

/* SP_FORALL and SP_REDUCE: the communication level, the computation nest
 * (outermost index first: the emitter nests idx[0] innermost; with
 * -fforall-nest=written idx[0] is outermost), then the copy-back pass, the
 * scatter, or the combining of partial results. */
static void build_loop(Build *B, const SpStmt *s, PtrVec *out)
{
    const SpLoop *lp = s->u.loop;
    LoopB L = {B, s, lp, inner_index(B, lp)};
    const IdxRange *saved_ranges = B->ranges;
    IdxRange *rg = arena_alloc(B->a, (size_t)(lp->nidx ? lp->nidx : 1) * sizeof *rg);
    for (int k = 0; k < lp->nidx; k++) {
        rg[k] = (IdxRange){lp->idx[k].var, lp->idx[k].lo, lp->idx[k].hi, B->ranges};
        B->ranges = &rg[k];
    }
    PtrVec before = {0};
    overlap_level(&L, out, &before);
    gather_level(&L, out, &before);

    int ntemps = (lp->lhs_temp || lp->scatter) + lp->scatter + (lp->mask && lp->lhs_temp);
    if (ntemps)
        push(B, out, temps_aau(&L, ntemps));
    PtrVec *where = out;
    Aau *outer = NULL;
    int written = B->o->forall_written;
    for (int j = 0; j < lp->nidx; j++) {
        int k = written ? j : lp->nidx - 1 - j;
        const SpIndex *ix = &lp->idx[k];
        Aau *it = loop_aau(&L, AAU_ITERD, j == 0 && lp->lhs
                           ? arena_printf(B->a, "%s %s", lp->remap ? "remap" : "forall",
                                          aag_expr_text(B, lp->lhs))
                           : arena_printf(B->a, "%s %s", lp->red_op ? "reduce" : "forall",
                                          ix->var->name));
        it->iter = ITER_FORALL;
        it->level = k;
        it->nest_top = j == 0;
        it->nest_inner = j == lp->nidx - 1;
        push(B, where, it);
        where = &it->kids;
        if (!outer)
            outer = it;
    }
    const Symbol *inner = lp->nidx ? lp->idx[L.inner].var : NULL;
    long long step = lp->nidx ? step_of(lp->idx[L.inner].st) : 1;
    if (lp->nguard) {
        Aau *gs = loop_aau(&L, AAU_SEQ, "guard");
        OpCtx c = op_ctx(B, &gs->ops, inner, step, NULL);
        for (int g = 0; g < lp->nguard; g++)
            ops_expr(&c, lp->guard[g].sub);
        ops_lib(B, &gs->ops, "lib.hpfrt_mine", lp->nguard);
        gs->ops.op[OPC_LOGICAL] += lp->nguard - 1;
        push(B, where, gs);
    }
    PtrVec calls = {0};
    Aau *ms = NULL;
    if (lp->mask) {
        PtrVec mreds = {0};
        reds_of(&L, lp->mask, &mreds);
        ms = loop_aau(&L, AAU_SEQ, arena_printf(B->a, "mask %s",
                                                aag_expr_text(B, lp->mask)));
        OpCtx c = op_ctx(B, &ms->ops, inner, step, &calls);
        ops_expr(&c, lp->mask);
        if (lp->lhs_temp)       /* the mask is kept for the copy-back pass */
            ops_access(B, &ms->ops, aag_temp_name(B, lp->tmask), NULL, NULL, 0, 1, 4, 4, 0);
        Aau *cd = mask_condt(&L, lp->mask, ms, &mreds);
        call_aaus(B, &calls, s, lp, &cd->bpre[0], 1);
        calls.n = 0;
        push(B, where, cd);
        where = &cd->bbody[0];
    }
    reds_of(&L, lp->rhs, where);
    Aau *body = body_seq(&L, &calls);
    if (vectorizable(&L, body) && lp->nidx)
        for (Aau *it = outer; it; it = it->kids.n ? it->kids.v[0] : NULL)
            if (it->cls == AAU_ITERD && it->iter == ITER_FORALL && it->level == L.inner) {
                it->vec_el = body->vec_el;
                it->vec_trips = body->vec_trips;
                it->vec_lib = body->vec_lib;
                break;
            }
    if (lp->red_op && !lp->red_loc && lp->red_type.base != TY_INTEGER &&
        (!body->vec_el || lp->red_op == HPFRT_SUM) && lp->red_op <= HPFRT_MIN)
        (ms ? ms : body)->chain = lp->red_op;
    push(B, where, body);
    call_aaus(B, &calls, s, lp, where, 0);
    free(calls.v);
    for (int i = 0; i < before.n; i++)
        ((CommEntry *)before.v[i])->dst = outer;
    free(before.v);

    if (lp->lhs_temp) {
        Aau *it = loop_aau(&L, AAU_ITERD, arena_printf(B->a, "copy %s",
                                                       aag_expr_text(B, lp->lhs)));
        it->iter = ITER_COPY;
        Aau *cp = loop_aau(&L, AAU_SEQ, arena_printf(B->a, "%s = %s",
                                                     aag_expr_text(B, lp->lhs),
                                                     aag_temp_name(B, lp->tbuf)));
        int el = aag_type_size(lp->lhs->type);
        OpCtx c = op_ctx(B, &cp->ops, inner, step, NULL);
        ops_access(B, &cp->ops, aag_temp_name(B, lp->tbuf), NULL, NULL, 1, 0, el, el, 0);
        if (lp->mask) {
            ops_access(B, &cp->ops, aag_temp_name(B, lp->tmask), NULL, NULL, 1, 0, 4, 4, 0);
            cp->ops.op[OPC_LOGICAL] += 1;
        }
        ops_store(&c, lp->lhs);
        push(B, &it->kids, cp);
        push(B, out, it);
    }
    if (lp->scatter) {
        const SpRef *r = lp->lhs->ir;
        Aau *x = loop_aau(&L, AAU_COMM, arena_printf(B->a, "scatter %s", r->arr->name));
        CommEntry *e = new_comm(B, x, CM_SCATTER, PAT_INDIRECT);
        e->loop = lp;
        e->arr = r->arr;
        e->type = lp->lhs->type;
        push(B, out, x);
    }
    if (lp->red_op && lp->arr) {
        Aau *x = loop_aau(&L, AAU_SYNCSEQ, arena_printf(B->a, "reduce %s -> %s",
                                                        red_name[lp->red_op],
                                                        aag_temp_name(B, lp->red_acc)));
        CommEntry *e = new_comm(B, x, CM_REDUCE, PAT_REDUCE);
        e->loop = lp;
        e->red_op = lp->red_op;
        e->count = lp->red_loc ? 2 : 1;
        e->type = lp->red_type;
        e->bytes = e->count * aag_type_size(lp->red_type);
        push(B, out, x);
    }
    B->ranges = saved_ranges;
}

/* ---- control structures ---- */

static void build_list(Build *B, const PtrVec *stmts, PtrVec *out);

/* SP_DO: an iterative AAU (its class comes after building); the calls in
 * its bounds run before it. Scalar statements inside take their strides
 * from its variable. */
static void build_do(Build *B, const SpStmt *s, PtrVec *out)
{
    expr_calls(B, s->u.do_.lo, s, out, 0);
    expr_calls(B, s->u.do_.hi, s, out, 0);
    expr_calls(B, s->u.do_.st, s, out, 0);
    const char *text = arena_printf(B->a, "do %s = %s, %s%s%s", aag_expr_text(B, s->u.do_.var),
                                    aag_expr_text(B, s->u.do_.lo), aag_expr_text(B, s->u.do_.hi),
                                    s->u.do_.st ? ", " : "",
                                    s->u.do_.st ? aag_expr_text(B, s->u.do_.st) : "");
    Aau *x = new_aau(B, AAU_ITERD, s, text);
    x->critical = 0;            /* the engine sets the DO variable itself */
    x->iter = ITER_DO;
    push(B, out, x);
    const Symbol *saved = B->inner;
    long long saved_step = B->inner_step;
    B->inner = s->u.do_.var->kind == AST_NAME ? s->u.do_.var->u.name.sym : NULL;
    B->inner_step = step_of(s->u.do_.st);
    const IdxRange *saved_ranges = B->ranges;
    IdxRange rg = {B->inner, s->u.do_.lo, s->u.do_.hi, B->ranges};
    if (B->inner)
        B->ranges = &rg;
    build_list(B, &s->u.do_.body, &x->kids);
    B->ranges = saved_ranges;
    B->inner = saved;
    B->inner_step = saved_step;
    x->varying = crit_loop_vary(B, s);
    x->periodic = crit_loop_periodic(B, s);
    x->settles = crit_loop_settles(B, s);
}

/* SP_WHILE: IterND; what computes the test comes first, flagged pre. */
static void build_while(Build *B, const SpStmt *s, PtrVec *out)
{
    const Node *cond = s->u.while_.cond;
    Aau *x = new_aau(B, AAU_ITERND, s, cond ? arena_printf(B->a, "do while (%s)",
                                                           aag_expr_text(B, cond))
                                            : "do");
    x->critical = 0;
    x->iter = ITER_WHILE;
    x->while_cond = cond;
    push(B, out, x);
    const Symbol *saved = B->inner;
    B->inner = NULL;            /* no index: strides inside are not known */
    build_list(B, &s->u.while_.pre, &x->kids);
    cond_seq(B, cond, s, &x->kids);
    for (int i = 0; i < x->kids.n; i++)
        ((Aau *)x->kids.v[i])->pre = 1;
    build_list(B, &s->u.while_.body, &x->kids);
    B->inner = saved;
    x->varying = AAG_VARY_WHILE | crit_loop_vary(B, s);
}

/* SP_IF: a conditional, one branch per condition (ELSE last, no
 * condition), each with its pre list and its body. */
static void build_if(Build *B, const SpStmt *s, PtrVec *out)
{
    const PtrVec *br = &s->u.if_.branches;
    const SpBranch *b0 = br->n ? br->v[0] : NULL;
    Aau *x = new_aau(B, AAU_CONDTD, s, b0 && b0->cond
                     ? arena_printf(B->a, "if (%s)", aag_expr_text(B, b0->cond)) : "if");
    x->critical = 0;
    x->nbranch = br->n;
    x->bcond = arena_alloc(B->a, (size_t)(br->n ? br->n : 1) * sizeof *x->bcond);
    x->bpre = arena_alloc(B->a, (size_t)(br->n ? br->n : 1) * sizeof *x->bpre);
    x->bbody = arena_alloc(B->a, (size_t)(br->n ? br->n : 1) * sizeof *x->bbody);
    push(B, out, x);
    for (int i = 0; i < br->n; i++) {
        const SpBranch *b = br->v[i];
        x->bcond[i] = b->cond;
        build_list(B, &b->pre, &x->bpre[i]);
        cond_seq(B, b->cond, s, &x->bpre[i]);
        for (int k = 0; k < x->bpre[i].n; k++)
            ((Aau *)x->bpre[i].v[k])->pre = 1;
        build_list(B, &b->body, &x->bbody[i]);
    }
}

/* One statement's AAUs, appended to out; the first is the head, the last
 * the tail. */
static void build_stmt(Build *B, const SpStmt *s, PtrVec *out)
{
    int first = out->n;
    switch (s->kind) {
    case SP_SEQ:
        build_seq(B, s, out);
        break;
    case SP_STORE:
        build_store(B, s, out);
        break;
    case SP_BCAST:
        build_bcast(B, s, out);
        break;
    case SP_FORALL: case SP_REDUCE:
        build_loop(B, s, out);
        break;
    case SP_DO:
        build_do(B, s, out);
        break;
    case SP_WHILE:
        build_while(B, s, out);
        break;
    case SP_IF:
        build_if(B, s, out);
        break;
    case SP_IO:
        build_io(B, s, out);
        break;
    case SP_ALLOC: case SP_DEALLOC: {
        const Node *ref = s->u.alloc.items.n ? s->u.alloc.items.v[0] : NULL;
        const SpRef *r = ref ? ref->ir : NULL;
        push(B, out, alloc_aau(B, s, arena_printf(B->a, "%s %s",
                                                  s->kind == SP_ALLOC ? "allocate" : "free",
                                                  r && r->arr ? r->arr->name : ""),
                               s->kind == SP_ALLOC, &s->u.alloc.items, &s->u.alloc.items));
        break;
    }
    case SP_STOP: {
        Aau *x = new_aau(B, AAU_SEQ, s, "stop");
        x->ctl = AST_STOP;
        push(B, out, x);
        break;
    }
    case SP_RETURN: {
        Aau *x = new_aau(B, AAU_SEQ, s, "return");
        x->ctl = AST_RETURN;
        push(B, out, x);
        break;
    }
    }
    if (out->n > first) {
        ((Aau *)out->v[first])->head = 1;
        ((Aau *)out->v[out->n - 1])->tail = 1;
    }
}

/* A statement list: consecutive plain assignments clustered into Seq AAUs
 * of up to `granularity` statements; a statement a GOTO jumps to starts a
 * new cluster. */
static void build_list(Build *B, const PtrVec *stmts, PtrVec *out)
{
    int gran = B->o->granularity > 1 ? B->o->granularity : 1;
    Aau *cluster = NULL;
    for (int i = 0; i < stmts->n; i++) {
        const SpStmt *s = stmts->v[i];
        if (!plain_seq(B, s)) {
            cluster = NULL;
            build_stmt(B, s, out);
            continue;
        }
        if (!cluster || cluster->nparts >= gran
            || (s->label && crit_label_targeted(B, B->unit, s->label))) {
            cluster = new_aau(B, AAU_SEQ, s, aag_stmt_text(B, s->u.seq));
            cluster->head = cluster->tail = 1;
            push(B, out, cluster);
        }
        one_part(B, cluster, s, gran);
    }
}

/* ---- after building: classes, numbering, the communication edges ---- */

/* The position of u in the program (and in g->units). */
static int unit_index(const Aag *g, const SpUnit *u)
{
    for (int i = 0; i < g->prog->units.n; i++)
        if (g->prog->units.v[i] == u)
            return i;
    return -1;
}

typedef struct {
    const Aag *g;
    const char *ucomm, *ucrit;
} Walk;

static int list_has(const Walk *W, const PtrVec *v, int crit);

/* Does x (transitively, through Calls) communicate / define critical
 * variables? */
static int aau_has(const Walk *W, const Aau *x, int crit)
{
    if (crit ? x->critical : (x->cls == AAU_COMM || x->cls == AAU_SYNC
                              || x->cls == AAU_SYNCSEQ))
        return 1;
    if (x->cls == AAU_CALL && x->callee) {
        int k = unit_index(W->g, x->callee);
        if (k >= 0 && (crit ? W->ucrit : W->ucomm)[k])
            return 1;
    }
    if (list_has(W, &x->kids, crit))
        return 1;
    for (int b = 0; b < x->nbranch; b++)
        if (list_has(W, &x->bpre[b], crit) || list_has(W, &x->bbody[b], crit))
            return 1;
    return 0;
}

static int list_has(const Walk *W, const PtrVec *v, int crit)
{
    for (int i = 0; i < v->n; i++)
        if (aau_has(W, v->v[i], crit))
            return 1;
    return 0;
}

static void mark_calls(const Walk *W, PtrVec *v);

/* A Call of a unit that defines critical variables is critical. */
static void mark_calls_aau(const Walk *W, Aau *x)
{
    if (x->cls == AAU_CALL && x->callee) {
        int k = unit_index(W->g, x->callee);
        if (k >= 0 && W->ucrit[k])
            x->critical = 1;
    }
    mark_calls(W, &x->kids);
    for (int b = 0; b < x->nbranch; b++) {
        mark_calls(W, &x->bpre[b]);
        mark_calls(W, &x->bbody[b]);
    }
}

static void mark_calls(const Walk *W, PtrVec *v)
{
    for (int i = 0; i < v->n; i++)
        mark_calls_aau(W, v->v[i]);
}

static void classify_list(const Walk *W, PtrVec *v);

/* Classes from what the bodies hold (post-order), and the lines a
 * compound AAU spans. */
static void classify(const Walk *W, Aau *x)
{
    classify_list(W, &x->kids);
    for (int b = 0; b < x->nbranch; b++) {
        classify_list(W, &x->bpre[b]);
        classify_list(W, &x->bbody[b]);
    }
    for (int i = 0; i < x->kids.n; i++) {
        const Aau *k = x->kids.v[i];
        if (k->line_end > x->line_end)
            x->line_end = k->line_end;
    }
    for (int b = 0; b < x->nbranch; b++)
        for (int i = 0; i < x->bbody[b].n; i++) {
            const Aau *k = x->bbody[b].v[i];
            if (k->line_end > x->line_end)
                x->line_end = k->line_end;
        }
    int comm = 0;
    if (x->cls >= AAU_ITERD && x->cls <= AAU_CONDTSYNC) {
        comm = list_has(W, &x->kids, 0);
        for (int b = 0; b < x->nbranch; b++)
            comm |= list_has(W, &x->bpre[b], 0) || list_has(W, &x->bbody[b], 0);
    }
    switch (x->cls) {
    case AAU_ITERD: case AAU_ITERSYNC: case AAU_ITERND:
        if (x->iter == ITER_DO || x->iter == ITER_WHILE) {
            if (list_has(W, &x->kids, 1))
                x->varying |= AAG_VARY_DEF;
            x->cls = x->varying ? AAU_ITERND : comm ? AAU_ITERSYNC : AAU_ITERD;
        } else {
            x->cls = comm ? AAU_ITERSYNC : AAU_ITERD;
        }
        break;
    case AAU_CONDTD: case AAU_CONDTSYNC:
        x->cls = comm ? AAU_CONDTSYNC : AAU_CONDTD;
        break;
    default:
        break;
    }
}

static void classify_list(const Walk *W, PtrVec *v)
{
    for (int i = 0; i < v->n; i++)
        classify(W, v->v[i]);
}

typedef struct {
    Build *B;
    PtrVec all, comms;          /* heap */
} Numbering;

static void number_list(Numbering *N, PtrVec *v, Aau *parent);

/* Preorder numbers, parents, the table's rows in the same order. */
static void number(Numbering *N, Aau *x, Aau *parent)
{
    vec_push(NULL, &N->all, x);
    x->id = N->all.n;
    x->parent = parent;
    if (x->comm) {
        vec_push(NULL, &N->comms, x->comm);
        x->comm->id = N->comms.n;
    }
    number_list(N, &x->kids, x);
    for (int b = 0; b < x->nbranch; b++) {
        number_list(N, &x->bpre[b], x);
        number_list(N, &x->bbody[b], x);
    }
}

static void number_list(Numbering *N, PtrVec *v, Aau *parent)
{
    for (int i = 0; i < v->n; i++) {
        Aau *x = v->v[i];
        x->next = i + 1 < v->n ? v->v[i + 1] : NULL;
        number(N, x, parent);
    }
}

/* Does a Seq or SyncSeq store (or load) var? */
static int touches(const Aau *x, const char *var, int store)
{
    if (!var || (x->cls != AAU_SEQ && x->cls != AAU_SYNCSEQ))
        return 0;
    for (int i = 0; i < x->ops.nacc; i++) {
        const AauAccess *a = &x->ops.acc[i];
        if (!strcmp(a->var, var) && (store ? a->stores : a->loads) > 0)
            return 1;
    }
    return 0;
}

/* The variable a communication moves, by the name accesses use. */
static const char *moved(Build *B, const CommEntry *e)
{
    switch (e->kind) {
    case CM_REDUCE:
        return aag_temp_name(B, e->loop->red_acc);
    case CM_BCAST:
        return aag_temp_name(B, e->aau->stmt->u.bcast.temp);
    case CM_BCASTIO: {
        const Node *it = e->io->u.io.reads.v[0];
        if (it->kind == AST_NAME)
            return it->u.name.sym ? it->u.name.sym->name : it->u.name.id;
        const SpRef *r = it->ir;
        return r && r->arr ? r->arr->name : it->kind == AST_REF ? it->u.ref.id : NULL;
    }
    default:
        return e->arr ? e->arr->name : NULL;
    }
}

/* The innermost DO or DO WHILE holding x, or NULL. */
static const Aau *enclosing_loop(const Aau *x)
{
    for (x = x->parent; x; x = x->parent)
        if (x->cls >= AAU_ITERD && x->cls <= AAU_ITERND
            && (x->iter == ITER_DO || x->iter == ITER_WHILE))
            return x;
    return NULL;
}

/* The largest id in x's subtree. */
static int last_id(const Aau *x)
{
    int m = x->id;
    if (x->kids.n)
        m = last_id(x->kids.v[x->kids.n - 1]);
    for (int b = 0; b < x->nbranch; b++) {
        const PtrVec *v = x->bbody[b].n ? &x->bbody[b] : &x->bpre[b];
        if (v->n) {
            int k = last_id(v->v[v->n - 1]);
            if (k > m)
                m = k;
        }
    }
    return m;
}

/* The writer of var that the data a Comm sends comes from: the last one
 * before it in program order; inside a loop, failing one earlier in the
 * body, the last one of the body (the previous iteration's); then outwards. */
static Aau *producer(const PtrVec *all, const Aau *c, const char *var)
{
    const Aau *from = c;
    for (const Aau *L = enclosing_loop(c);; L = enclosing_loop(L)) {
        int lo = L ? L->id : 0;
        for (int k = from->id - 1; k > lo; k--) {
            Aau *y = all->v[k - 1];
            if (y->unit == c->unit && touches(y, var, 1))
                return y;
        }
        if (!L)
            return NULL;
        for (int k = last_id(L); k > c->id; k--) {
            Aau *y = all->v[k - 1];
            if (touches(y, var, 1))
                return y;
        }
        from = L;
    }
}

/* The SAAG's communication edges, kept simple: the data comes from the
 * AAU producer() finds (NULL: the start); it goes to the loop's
 * computation nest for what a loop fetches before it, else to the first
 * later AAU of the unit that reads it, or the next one. */
static void comm_edges(Build *B, const PtrVec *all)
{
    Aag *g = B->g;
    for (int i = 0; i < g->ncomm; i++) {
        CommEntry *e = g->comm[i];
        const Aau *c = e->aau;
        const char *src = e->kind == CM_REDUCE || e->kind == CM_BCASTIO ? moved(B, e)
                          : e->kind == CM_SCATTER ? aag_temp_name(B, e->loop->tbuf)
                          : e->arr ? e->arr->name : NULL;
        e->src = producer(all, c, src);
        if (e->dst)
            continue;
        const char *dst = e->kind == CM_SCATTER ? e->arr->name : moved(B, e);
        for (int k = c->id; k < all->n && !e->dst; k++) {
            Aau *y = all->v[k];
            if (y->unit == c->unit && touches(y, dst, 0))
                e->dst = y;
        }
        if (!e->dst)
            e->dst = c->next;
    }
}

/* The abstraction parse: the units' AAUs, the classes that depend on
 * communication and critical variables, ids, the communication table and
 * its edges. Everything lives in the graph's arena. */
Aag *aag_build(const SpProgram *p, const AagOptions *o)
{
    static const AagOptions none = {0};
    if (!o)
        o = &none;
    Arena *a = arena_new("aag");
    Aag *g = arena_alloc(a, sizeof *g);
    g->prog = p;
    g->arena = a;
    Build B = {g, a, p, o, NULL, NULL, NULL, 1, NULL};
    crit_analyze(&B);

    const SpUnit *mainu = NULL;
    for (int i = 0; i < p->units.n && !mainu; i++)
        if (((const SpUnit *)p->units.v[i])->main)
            mainu = p->units.v[i];
    B.unit = mainu;
    const Node *mn = mainu ? mainu->unit : NULL;
    const char *pname = mn && mn->u.unit.id ? mn->u.unit.id : "main";
    /* the application: Start, the node program every processor runs, End */
    Aau *root = new_aau(&B, AAU_SPAWN, NULL, arena_printf(a, "program %s", pname));
    Aau *start = new_aau(&B, AAU_START, NULL, "start");
    Aau *spawn = new_aau(&B, AAU_SPAWN, NULL, arena_printf(a, "node program %s", pname));
    Aau *end = new_aau(&B, AAU_END, NULL, "end");
    if (mn) {
        root->line = start->line = spawn->line = mn->loc.line;
        root->line_end = spawn->line_end = end->line = end->line_end = mn->u.unit.end_loc.line;
        start->line_end = start->line;
    }
    g->root = root;
    push(&B, &root->kids, start);
    push(&B, &root->kids, spawn);
    push(&B, &root->kids, end);

    int nu = p->units.n;
    for (int i = 0; i < nu; i++) {
        const SpUnit *u = p->units.v[i];
        PtrVec *body = u == mainu ? &spawn->kids : arena_alloc(a, sizeof *body);
        B.unit = u;
        B.inner = NULL;
        B.inner_step = 1;
        B.ranges = NULL;
        build_list(&B, &u->body, body);
        vec_push(a, &g->units, body);
    }

    /* which units communicate, which define critical variables (through
       the units they call: a fixed point, procedures may recurse) */
    char *ucomm = xcalloc((size_t)nu + 1, 1), *ucrit = xcalloc((size_t)nu + 1, 1);
    Walk W = {g, ucomm, ucrit};
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < nu; i++) {
            const PtrVec *body = g->units.v[i];
            if (!ucomm[i] && list_has(&W, body, 0))
                ucomm[i] = changed = 1;
            if (!ucrit[i] && list_has(&W, body, 1))
                ucrit[i] = changed = 1;
        }
    }
    for (int i = 0; i < nu; i++) {
        mark_calls(&W, g->units.v[i]);
        classify_list(&W, g->units.v[i]);
    }
    if (spawn->kids.n) {
        const Aau *last = spawn->kids.v[spawn->kids.n - 1];
        if (last->line_end > spawn->line_end)
            spawn->line_end = last->line_end;
    }
    free(ucomm);
    free(ucrit);

    /* preorder numbers: the node program, then each procedure's body */
    Numbering N = {&B, {0}, {0}};
    number(&N, root, NULL);
    for (int i = 0; i < nu; i++)
        if (p->units.v[i] != mainu)
            number_list(&N, g->units.v[i], NULL);
    g->naau = N.all.n;
    g->aau = arena_alloc(a, (size_t)(N.all.n ? N.all.n : 1) * sizeof *g->aau);
    memcpy(g->aau, N.all.v, (size_t)N.all.n * sizeof *g->aau);
    g->ncomm = N.comms.n;
    g->comm = arena_alloc(a, (size_t)(N.comms.n ? N.comms.n : 1) * sizeof *g->comm);
    if (N.comms.n)
        memcpy(g->comm, N.comms.v, (size_t)N.comms.n * sizeof *g->comm);
    comm_edges(&B, &N.all);
    /* the home Call of each callee: the first by id */
    for (int i = 0; i < g->naau; i++) {
        Aau *x = g->aau[i];
        if (x->cls != AAU_CALL || !x->callee)
            continue;
        for (int k = 0; k < i && !x->home; k++)
            if (g->aau[k]->cls == AAU_CALL && g->aau[k]->callee == x->callee)
                x->home = g->aau[k];
        if (!x->home) {
            x->home = x;
            x->body = aag_unit_body(g, x->callee);
        }
    }
    free(N.all.v);
    free(N.comms.v);
    crit_free(&B);
    return g;
}

void aag_free(Aag *g)
{
    if (g)
        arena_free(g->arena);
}

const PtrVec *aag_unit_body(const Aag *g, const SpUnit *u)
{
    int k = unit_index(g, u);
    return k >= 0 && k < g->units.n ? g->units.v[k] : NULL;
}

int aag_is_critical(const Aag *g, const Symbol *sym, const char *name)
{
    for (int i = 0; i < g->ncrit; i++) {
        const CritVar *c = &g->crit[i];
        if (sym ? c->sym == sym : (!c->sym && name && !strcmp(c->name, name)))
            return 1;
    }
    return 0;
}
