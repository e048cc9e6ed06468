/* test_aag.c - the abstraction parse: AAU classes of the loop forms, the
 * FORALL sub-AAG of the paper's Figure 7, operation counts, clustering,
 * critical variables (with -D holding one), the communication table of
 * the Laplace example and the Graphviz output, on small programs compiled
 * from strings. Prints TAP; exits 1 when a check failed.
 *
 * With arguments it is a tool for reading the AAG of a file:
 *   test_aag [--dump-aag|--dump-saag|--dot] [-g N] [-D NAME]... FILE */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "spmd.h"
#include "aag.h"

#include "tap.h"

typedef struct {
    Arena *a;
    SrcFile *f;
    SpProgram *sp;
    Aag *g;
} Prog;

/* Compiles text (free form), lowers it and builds its AAG; 0 on errors. */
static int build(Prog *p, const char *text, const AagOptions *o)
{
    memset(p, 0, sizeof *p);
    p->f = srcfile_from_bytes("t.f90", text, strlen(text));
    p->a = arena_new("test");
    Diag d;
    diag_init(&d, stderr);
    Node *ast = frontend_compile(p->f, FORM_FREE, p->a, &d, NULL, 0);
    p->sp = ast ? spmd_lower(ast, p->a, &d) : NULL;
    if (!p->sp)
        return 0;
    p->g = aag_build(p->sp, o);
    return p->g != NULL;
}

static void release(Prog *p)
{
    aag_free(p->g);
    arena_free(p->a);
    srcfile_free(p->f);
}

/* The first AAU of a class at a source line (line 0: any line). */
static const Aau *find(const Aag *g, AauClass cls, int line)
{
    for (int i = 0; i < g->naau; i++)
        if (g->aau[i]->cls == cls && (!line || g->aau[i]->line == line))
            return g->aau[i];
    return NULL;
}

/* The first iterative AAU (any class) made from the statement at a line. */
static const Aau *find_iter(const Aag *g, int line, IterKind k)
{
    for (int i = 0; i < g->naau; i++) {
        const Aau *x = g->aau[i];
        if (x->cls >= AAU_ITERD && x->cls <= AAU_ITERND && x->line == line && x->iter == k)
            return x;
    }
    return NULL;
}

static const CritVar *crit(const Aag *g, const char *name)
{
    for (int i = 0; i < g->ncrit; i++)
        if (!strcmp(g->crit[i].name, name))
            return &g->crit[i];
    return NULL;
}

static double lib(const AauOps *o, const char *param)
{
    for (int i = 0; i < o->nlib; i++)
        if (!strcmp(o->lib[i].param, param))
            return o->lib[i].n;
    return 0;
}

static const AauAccess *acc(const AauOps *o, const char *var)
{
    for (int i = 0; i < o->nacc; i++)
        if (!strcmp(o->acc[i].var, var))
            return &o->acc[i];
    return NULL;
}

/* The text of a dump, in a heap buffer. */
static char *dump_text(void (*fn)(FILE *, const Aag *), const Aag *g)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    fn(m, g);
    fclose(m);
    return buf;
}

/* ---- the checks ---- */

static const char *const laplace =
    "program lap\n"                                                     /* 1 */
    "  implicit none\n"
    "  integer, parameter :: n = 16, maxit = 10\n"
    "  real(8), parameter :: tol = 1.0d-12\n"
    "  real(8), dimension(n, n) :: a, b, d\n"                           /* 5 */
    "  real(8) :: err\n"
    "  integer :: it\n"
    "!HPF$ PROCESSORS prc(2, 2)\n"
    "!HPF$ TEMPLATE t(n, n)\n"
    "!HPF$ DISTRIBUTE t(BLOCK, BLOCK) ONTO prc\n"                       /* 10 */
    "!HPF$ ALIGN a(i, j) WITH t(i, j)\n"
    "!HPF$ ALIGN b(i, j) WITH t(i, j)\n"
    "!HPF$ ALIGN d(i, j) WITH t(i, j)\n"
    "  a = 1.0d0\n"
    "  b = 0.0d0\n"                                                     /* 15 */
    "  do it = 1, maxit\n"
    "    forall (i = 2:n - 1, j = 2:n - 1) b(i, j) = 0.25d0*(a(i - 1, j) + a(i + 1, j) &\n"
    "        + a(i, j - 1) + a(i, j + 1))\n"
    "    d = abs(b - a)\n"
    "    err = maxval(d)\n"                                             /* 20 */
    "    a = b\n"
    "    if (err < tol) exit\n"
    "  end do\n"
    "  print *, sum(a)\n"
    "end program lap\n";

static void laplace_checks(void)
{
    Prog p;
    if (!build(&p, laplace, NULL)) {
        check(0, "the Laplace program compiles");
        return;
    }
    const Aag *g = p.g;
    const Aau *r = g->root;
    const Aau *spawn = r && r->kids.n == 3 ? r->kids.v[1] : NULL;
    check(r && r->cls == AAU_SPAWN && r->id == 1 && spawn && spawn->cls == AAU_SPAWN
          && ((const Aau *)r->kids.v[0])->cls == AAU_START && spawn->id == 3
          && ((const Aau *)r->kids.v[0])->next == spawn && spawn->next == r->kids.v[2]
          && ((const Aau *)r->kids.v[2])->cls == AAU_END, "the root holds Start, Spawn, End");
    int ids_ok = 1;
    for (int i = 0; i < g->naau; i++)
        ids_ok &= g->aau[i]->id == i + 1;
    check(ids_ok, "AAU ids are their positions in g->aau");
    check(spawn && aag_unit_body(g, p.sp->units.v[0]) == &spawn->kids,
          "the main program's body is the Spawn's kids");

    /* the FORALL at line 17-18: two overlap exchanges of a, each a Seq then
       a Comm, then the nest (j outside, i inside) with the body Seq */
    const Aau *c1 = find(g, AAU_COMM, 17);
    int shape = c1 && c1->comm && c1->comm->kind == CM_OVERLAP && c1->next
                && c1->next->cls == AAU_SEQ && c1->next->next
                && c1->next->next->cls == AAU_COMM && c1->next->next->comm->kind == CM_OVERLAP;
    const Aau *pack = NULL;
    for (int i = 0; c1 && i < c1->parent->kids.n; i++)
        if (c1->parent->kids.v[i] == c1 && i > 0)
            pack = c1->parent->kids.v[i - 1];
    shape &= pack && pack->cls == AAU_SEQ && pack->loop == c1->loop;
    const Aau *nest = shape ? c1->next->next->next : NULL;
    shape &= nest && nest->cls == AAU_ITERD && nest->iter == ITER_FORALL
             && nest->level == 1 && nest->kids.n == 1;
    const Aau *in = shape ? nest->kids.v[0] : NULL;
    shape &= in && in->cls == AAU_ITERD && in->level == 0 && in->kids.n == 1
             && ((const Aau *)in->kids.v[0])->cls == AAU_SEQ;
    check(shape, "FORALL: (Seq, Comm) per overlap dimension, then an IterD nest, "
          "outermost index first");
    check(c1 && c1->comm->below == 1 && c1->comm->above == 1 && c1->comm->dim == 0
          && c1->comm->arr && !strcmp(c1->comm->arr->name, "a"),
          "overlap entry: array a, dimension 1, one ghost cell each side");
    if (in) {
        const Aau *body = in->kids.v[0];
        const AauAccess *aa = acc(&body->ops, "a"), *bb = acc(&body->ops, "b");
        check(body->ops.op[OPC_DADD] == 3 && body->ops.op[OPC_DMUL] == 1
              && aa && aa->loads == 4 && aa->stride == 8 && bb && bb->stores == 1
              && bb->stride == 8, "FORALL body: 3 dadd, 1 dmul, 4 loads of a and a store "
              "of b, stride 8");
    } else {
        check(0, "FORALL body Seq");
    }
    int loop_set = 1;
    for (int i = 0; i < g->naau; i++) {
        const Aau *x = g->aau[i];
        if (x->stmt && (x->stmt->kind == SP_FORALL || x->stmt->kind == SP_REDUCE))
            loop_set &= x->loop == x->stmt->u.loop;
    }
    check(loop_set, "every AAU of a FORALL's sub-AAG has its loop");

    /* the reduction of line 20: driver loop, then a SyncSeq reduce */
    const Aau *ss = find(g, AAU_SYNCSEQ, 20);
    check(ss && ss->comm && ss->comm->kind == CM_REDUCE && ss->comm->pat == PAT_REDUCE
          && ss->comm->count == 1 && ss->comm->red_op == 3 && ss->comm->type.base == TY_REAL,
          "maxval: a SyncSeq with a max reduce of one real(8)");

    /* the communication table: 2 overlaps (a, dims 1 and 2), the reduce of
       maxval and the one of sum in the PRINT */
    int kinds[8] = {0};
    for (int i = 0; i < g->ncomm; i++) {
        kinds[g->comm[i]->kind]++;
        if (g->comm[i]->id != i + 1 || g->comm[i]->aau->comm != g->comm[i])
            kinds[7]++;
    }
    check(g->ncomm == 4 && kinds[CM_OVERLAP] == 2 && kinds[CM_REDUCE] == 2 && !kinds[7],
          "communication table: 2 overlap rows and 2 reduce rows, ids in order");
    check(g->comm[0]->dst && g->comm[0]->dst->iter == ITER_FORALL && g->comm[0]->src
          && g->comm[0]->src->line == 21, "overlap edge: from a = b (line 21) to the nest");

    /* err decides the exit: critical, defined in the loop through a
       reduction; the loop is unrolled */
    const CritVar *e = crit(g, "err");
    check(e && e->line == 22 && e->in_loop && e->by_array && !e->held,
          "err: critical at line 22, in loop, by array");
    check(aag_is_critical(g, e ? e->sym : NULL, NULL) && crit(g, "d") && crit(g, "a"),
          "d and a feed err: critical too");
    const Aau *lp = find_iter(g, 16, ITER_DO);
    check(lp && lp->cls == AAU_ITERND && (lp->varying & AAG_VARY_INDEX)
          && (lp->varying & AAG_VARY_DEF) && (lp->varying & AAG_VARY_EXIT),
          "the convergence loop is IterND (index, def, exit)");
    const Aau *cd = find(g, AAU_CONDTD, 22);
    check(cd && cd->nbranch == 1 && cd->bcond[0] && cd->bbody[0].n == 1
          && ((const Aau *)cd->bbody[0].v[0])->ctl == AST_EXIT, "IF (err < tol) EXIT: "
          "a CondtD whose branch is a Seq with ctl EXIT");
    const Aau *se = find(g, AAU_SEQ, 20);
    int seq_crit = 0;
    for (int i = 0; i < g->naau; i++)
        if (g->aau[i]->line == 20 && g->aau[i]->cls == AAU_SEQ && g->aau[i]->label
            && !strncmp(g->aau[i]->label, "err =", 5))
            seq_crit = g->aau[i]->critical;
    check(se && seq_crit, "err = hpf_t1 is marked critical");

    char *dot = dump_text(aag_dot, g);
    int depth = 0, bad = 0, inq = 0;
    for (const char *s = dot; *s; s++) {
        if (*s == '\\' && inq && s[1]) {
            s++;
            continue;
        }
        if (*s == '"')
            inq = !inq;
        else if (!inq && *s == '{')
            depth++;
        else if (!inq && *s == '}')
            bad |= --depth < 0;
    }
    check(!strncmp(dot, "digraph", 7) && !depth && !bad && !inq && strstr(dot, "dashed"),
          "aag_dot: a digraph with balanced braces and quotes, dashed comm edges");
    free(dot);
    char *saag = dump_text(saag_dump, g);
    check(strstr(saag, "communication table:") && strstr(saag, "communication edges:")
          && strstr(saag, "grid neighbours along dim 1 (below 1, above 1)")
          && strstr(saag, "all <-> all (max)"), "saag_dump: table rows with partners");
    free(saag);
    release(&p);

    /* -D err: held, its definitions ignored; the loop keeps its
       communication but no longer varies */
    const char *held[] = {"err"};
    AagOptions o = {1, held, 1, 0};
    if (!build(&p, laplace, &o)) {
        check(0, "the Laplace program compiles (held)");
        return;
    }
    e = crit(p.g, "err");
    lp = find_iter(p.g, 16, ITER_DO);
    check(e && e->held && !crit(p.g, "d") && !crit(p.g, "hpf_t1"),
          "-D err: err held, d no longer critical");
    check(lp && lp->cls == AAU_ITERSYNC && !lp->varying, "-D err: the loop is IterSync");
    release(&p);
}

static void class_checks(void)
{
    static const char *const text =
        "program cls\n"                                                 /* 1 */
        "  implicit none\n"
        "  integer, parameter :: n = 20\n"
        "  real(8), dimension(n) :: x, y\n"
        "  real(8) :: s, t, u\n"                                        /* 5 */
        "  integer :: i, k, m\n"
        "!HPF$ DISTRIBUTE (BLOCK) :: x, y\n"
        "  read *, m\n"
        "  s = 0.0d0; u = 0.0d0\n"
        "  do i = 1, m\n"                                               /* 10 */
        "    u = u + 1.5d0\n"
        "  end do\n"
        "  k = 0\n"
        "  do while (k < 5)\n"
        "    k = k + 1\n"                                               /* 15 */
        "  end do\n"
        "  x = 1.0d0\n"
        "  if (s > 2.0d0) then\n"
        "    t = sum(x)\n"
        "  else\n"                                                      /* 20 */
        "    t = 0.0d0\n"
        "  end if\n"
        "  where (x > 0.5d0) y = sqrt(x) + exp(x)\n"
        "  print *, s, t, u, k, y(1)\n"
        "end program cls\n";
    Prog p;
    if (!build(&p, text, NULL)) {
        check(0, "the class program compiles");
        return;
    }
    const Aag *g = p.g;
    const Aau *d1 = find_iter(g, 10, ITER_DO);
    check(d1 && d1->cls == AAU_ITERD && !d1->varying, "a DO with no communication: IterD");
    const Aau *w = find_iter(g, 14, ITER_WHILE);
    check(w && w->cls == AAU_ITERND && (w->varying & AAG_VARY_WHILE) && w->while_cond,
          "a DO WHILE: IterND (while)");
    const Aau *c = find(g, AAU_CONDTSYNC, 18);
    check(c && c->nbranch == 2 && c->bcond[0] && !c->bcond[1],
          "an IF with a reduction in a branch: CondtSync, then and else");
    const CritVar *m = crit(g, "m");
    check(m && m->line == 10 && !strcmp(m->why, "loop bound") && !m->in_loop,
          "m (read, a loop bound): critical");
    const Aau *rd = find(g, AAU_SEQ, 8);
    check(rd && rd->io && rd->on == ON_IO && rd->io_bytes == 4 && rd->critical && rd->next
          && rd->next->cls == AAU_COMM && rd->next->comm->kind == CM_BCASTIO,
          "READ m: a critical Seq on the I/O processor (4 bytes), then a bcastio Comm");
    /* the WHERE: a FORALL with a mask, the body under a CondtD */
    const Aau *cd = find(g, AAU_CONDTD, 23);
    const Aau *body = cd && cd->bbody[0].n ? cd->bbody[0].v[0] : NULL;
    check(cd && cd->mask && cd->nbranch == 1 && cd->bpre[0].n == 1
          && ((const Aau *)cd->bpre[0].v[0])->pre && body && body->cls == AAU_SEQ
          && cd->parent && cd->parent->iter == ITER_FORALL,
          "WHERE: a CondtD on the mask inside the IterD, the mask computed in its pre list");
    check(body && lib(&body->ops, "lib.sqrt") == 1 && lib(&body->ops, "lib.exp") == 1
          && body->ops.op[OPC_DADD] == 1, "sqrt(x) + exp(x): lib.sqrt 1, lib.exp 1, dadd 1");
    const Aau *msk = cd ? cd->bpre[0].v[0] : NULL;
    check(msk && msk->ops.op[OPC_CMP] == 1, "the mask x > 0.5d0: one compare");
    release(&p);
}

static void ops_checks(void)
{
    static const char *const text =
        "program ops\n"
        "  implicit none\n"
        "  real(8) :: x, a, b, c, d\n"
        "  integer :: i, j, k, l, m\n"
        "  real :: r, q\n"                                              /* 5 */
        "  a = 1.0d0; b = 2.0d0; c = 3.0d0; d = 4.0d0\n"
        "  j = 1; k = 2; l = 3; m = 4\n"
        "  x = a*b + c/d\n"
        "  i = j*k + l/m\n"
        "  r = 2.0\n"                                                   /* 10 */
        "  q = r**3 + max(r, 1.0, 2.0) + real(i)\n"
        "  x = sqrt(a) + exp(b)\n"
        "  print *, x, i, q\n"
        "end program ops\n";
    Prog p;
    AagOptions o = {1, NULL, 0, 0};
    if (!build(&p, text, &o)) {
        check(0, "the ops program compiles");
        return;
    }
    const Aag *g = p.g;
    const Aau *x = find(g, AAU_SEQ, 8);
    check(x && x->ops.op[OPC_DADD] == 1 && x->ops.op[OPC_DMUL] == 1
          && x->ops.op[OPC_DDIV] == 1 && !x->ops.op[OPC_IADD], "x = a*b + c/d in real(8): "
          "dadd 1, dmul 1, ddiv 1");
    const AauAccess *ax = x ? acc(&x->ops, "a") : NULL, *xx = x ? acc(&x->ops, "x") : NULL;
    check(ax && ax->scalar && ax->loads == 1 && xx && xx->stores == 1,
          "scalars: loads and stores with scalar set");
    const Aau *y = find(g, AAU_SEQ, 9);
    check(y && y->ops.op[OPC_IADD] == 1 && y->ops.op[OPC_IMUL] == 1
          && y->ops.op[OPC_IDIV] == 1 && !y->ops.op[OPC_DADD], "i = j*k + l/m in integer: "
          "iadd 1, imul 1, idiv 1");
    const Aau *q = find(g, AAU_SEQ, 11);
    check(q && q->ops.op[OPC_FMUL] == 2 && q->ops.op[OPC_FADD] == 2
          && lib(&q->ops, "lib.max") == 2 && q->ops.op[OPC_ITOF] == 1 && !lib(&q->ops, "lib.pow"),
          "r**3 as 2 fmul, max of 3 as 2 lib.max, real(i) as itof");
    const Aau *s = find(g, AAU_SEQ, 12);
    check(s && lib(&s->ops, "lib.sqrt") == 1 && lib(&s->ops, "lib.exp") == 1,
          "sqrt and exp: one lib call each");
    release(&p);

    /* clustering: line 6 and 7 hold 8 assignments, then lines 8-12 */
    o.granularity = 3;
    if (!build(&p, text, &o)) {
        check(0, "the ops program compiles (granularity 3)");
        return;
    }
    const PtrVec *body = &((const Aau *)p.g->root->kids.v[1])->kids;
    const Aau *f = body->v[0];
    int nseq = 0, maxparts = 0;
    for (int i = 0; i < body->n; i++) {
        const Aau *k = body->v[i];
        nseq += k->cls == AAU_SEQ && !k->io;
        if (k->nparts > maxparts)
            maxparts = k->nparts;
    }
    check(f->nparts == 3 && f->ops.op[OPC_DADD] == 0 && nseq == 5 && maxparts == 3,
          "granularity 3: 13 assignments in 5 Seq AAUs of at most 3 parts");
    release(&p);
    o.granularity = 1;
    build(&p, text, &o);
    body = &((const Aau *)p.g->root->kids.v[1])->kids;
    nseq = 0;
    for (int i = 0; i < body->n; i++)
        nseq += ((const Aau *)body->v[i])->cls == AAU_SEQ && !((const Aau *)body->v[i])->io;
    check(nseq == 13 && ((const Aau *)body->v[0])->nparts == 1,
          "granularity 1: one Seq AAU per assignment");
    release(&p);
}

static void mask_crit_checks(void)
{
    static const char *const text =
        "program msk\n"
        "  implicit none\n"
        "  integer, parameter :: n = 16\n"
        "  real(8), dimension(n) :: x, y\n"
        "  logical, dimension(n) :: ok\n"                               /* 5 */
        "  integer :: it\n"
        "!HPF$ DISTRIBUTE (BLOCK) :: x, y, ok\n"
        "  x = 1.0d0\n"
        "  do it = 1, 3\n"
        "    forall (i = 1:n) ok(i) = x(i) > 0.5d0\n"                   /* 10 */
        "    where (ok) y = x\n"
        "  end do\n"
        "  print *, sum(y)\n"
        "end program msk\n";
    Prog p;
    if (!build(&p, text, NULL)) {
        check(0, "the mask program compiles");
        return;
    }
    const CritVar *ok = crit(p.g, "ok"), *x = crit(p.g, "x");
    check(ok && !strcmp(ok->why, "mask") && ok->in_loop && ok->by_array,
          "a mask array defined by a FORALL in a loop: critical, in loop, by array");
    check(x && x->line == 10, "what the mask's FORALL reads: critical from its line");
    const Aau *f = find_iter(p.g, 10, ITER_FORALL);
    check(f && f->critical, "the FORALL defining the mask is marked critical");
    release(&p);
}

static void call_checks(void)
{
    static const char *const text =
        "program cal\n"
        "  implicit none\n"
        "  real(8) :: s\n"
        "  integer :: n\n"
        "  n = 4\n"                                                     /* 5 */
        "  call work(n, s)\n"
        "  s = s + f(s)\n"
        "  print *, s\n"
        "contains\n"
        "  subroutine work(k, t)\n"                                     /* 10 */
        "    integer :: k, j\n"
        "    real(8) :: t\n"
        "    t = 0.0d0\n"
        "    do j = 1, k\n"
        "      t = t + 1.0d0\n"                                         /* 15 */
        "    end do\n"
        "  end subroutine work\n"
        "  real(8) function f(v)\n"
        "    real(8) :: v\n"
        "    f = 2.0d0*v\n"                                             /* 20 */
        "  end function f\n"
        "end program cal\n";
    Prog p;
    if (!build(&p, text, NULL)) {
        check(0, "the call program compiles");
        return;
    }
    const Aau *c = find(p.g, AAU_CALL, 6);
    const Aau *fc = find(p.g, AAU_CALL, 7);
    check(c && c->callee && !strcmp(c->callee->unit->u.unit.id, "work")
          && aag_unit_body(p.g, c->callee) && aag_unit_body(p.g, c->callee)->n == 2,
          "CALL work: a Call AAU whose callee's body has its own AAUs");
    check(fc && fc->callee && fc->call && fc->call->kind == AST_REF
          && find(p.g, AAU_SEQ, 7) && find(p.g, AAU_SEQ, 7)->ops.calls == 1
          && find(p.g, AAU_SEQ, 7)->next == fc, "f(s) in an expression: counted in the "
          "Seq, a Call AAU after it");
    const CritVar *n = crit(p.g, "n"), *k = crit(p.g, "k");
    check(k && n && !strcmp(n->why, "argument of work"),
          "a critical dummy (a loop bound) makes the actual critical at the call");
    release(&p);
}

static void forall_checks(void)
{
    static const char *const text =
        "program frm\n"
        "  implicit none\n"
        "  integer, parameter :: n = 12\n"
        "  real(8), dimension(n, n) :: a\n"
        "  real(8), dimension(n) :: r, x, y\n"                         /* 5 */
        "  integer, dimension(n) :: ix\n"
        "!HPF$ DISTRIBUTE (BLOCK, *) :: a\n"
        "!HPF$ DISTRIBUTE (BLOCK) :: r, x, ix\n"
        "!HPF$ DISTRIBUTE (CYCLIC) :: y\n"
        "  a = 1.0d0\n"                                                /* 10 */
        "  x = 2.0d0\n"
        "  forall (i = 1:n) ix(i) = n + 1 - i\n"
        "  forall (i = 1:n) r(i) = sum(a(i, :), mask=a(i, :) > 0.0d0)\n"
        "  forall (i = 1:n) y(i) = x(ix(i))\n"
        "  forall (i = 2:n) x(i) = x(i - 1)\n"                         /* 15 */
        "  forall (i = 1:n) y(ix(i)) = x(i)\n"
        "  print *, sum(r), sum(y), sum(x)\n"
        "end program frm\n";
    Prog p;
    if (!build(&p, text, NULL)) {
        check(0, "the FORALL program compiles");
        return;
    }
    const Aag *g = p.g;
    const Aau *red = find_iter(g, 13, ITER_RED);
    const Aau *rc = red && red->kids.n == 1 ? red->kids.v[0] : NULL;
    const Aau *rb = rc && rc->cls == AAU_CONDTD && rc->nbranch == 1 && rc->bbody[0].n == 1
                    ? rc->bbody[0].v[0] : NULL;
    const AauAccess *ra = rb ? acc(&rb->ops, "a") : NULL;
    check(red && red->cls == AAU_ITERD && red->red && red->parent->iter == ITER_FORALL
          && rc && rc->mask && rb && rb->ops.op[OPC_DADD] == 1 && ra && ra->stride == 96,
          "inline SUM with MASK=: an IterD (reduction) in the nest, a CondtD inside, its "
          "Seq reading a(i, 1 + k) with stride 12*8");
    const Aau *g1 = find(g, AAU_COMM, 14);
    /* round 1's inspector after round 0's Comm: the counting pass, the
       allocation of the index vector and the buffer, the recording pass
       (its Seq inside), then the Comm */
    const Aau *cnt = g1 ? g1->next : NULL, *al = cnt ? cnt->next : NULL;
    const Aau *rp = al ? al->next : NULL, *g2 = rp ? rp->next : NULL;
    check(g1 && g1->comm->kind == CM_GATHER && g1->comm->g->round == 0
          && g1->comm->pat == PAT_REMAP && cnt && cnt->cls == AAU_ITERD
          && cnt->iter == ITER_COPY && cnt->kids.n == 0 && al && al->cls == AAU_SEQ
          && al->ops.allocs == 2 && rp && rp->cls == AAU_ITERD && rp->iter == ITER_COPY
          && rp->kids.n == 1 && ((const Aau *)rp->kids.v[0])->cls == AAU_SEQ && g2 && g2->comm
          && g2->comm->kind == CM_GATHER && g2->comm->g->round == 1
          && g2->comm->pat == PAT_INDIRECT,
          "gathers in round order: (counting pass, allocation, recording pass, Comm) for ix "
          "(remap), then for x (indirect)");
    const Aau *cp = find_iter(g, 15, ITER_COPY);
    check(cp && cp->cls == AAU_ITERD && cp->tail && cp->kids.n == 1 && cp->loop
          && cp->loop->lhs_temp, "a FORALL reading its own left-hand side: a copy IterD last");
    const Aau *sc = find(g, AAU_COMM, 16);
    check(sc && sc->comm->kind == CM_SCATTER && sc->comm->pat == PAT_INDIRECT && sc->tail
          && !strcmp(sc->comm->arr->name, "y") && sc->comm->src
          && sc->comm->src->iter == 0 && sc->comm->src->cls == AAU_SEQ,
          "a scatter: a Comm after the nest, fed by the nest's body");
    const CritVar *ix = crit(g, "ix");
    check(ix && !strcmp(ix->why, "gather index") && crit(g, "a")
          && !strcmp(crit(g, "a")->why, "mask"), "gather subscripts and masks are critical uses");
    release(&p);
}

/* examples/laplace_bb.f90 as shipped: its communication table. */
static void example_checks(void)
{
    const char *srcdir = getenv("srcdir");
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/laplace_bb.f90", srcdir ? srcdir : ".");
    char *err = NULL;
    SrcFile *f = srcfile_read(path, &err);
    if (!f) {
        printf("# %s: %s\n", path, err);
        free(err);
        check(0, "examples/laplace_bb.f90 is readable");
        return;
    }
    Prog p;
    char *text = xstrdup(f->text);
    srcfile_free(f);
    int ok = build(&p, text, NULL);
    free(text);
    if (!ok) {
        check(0, "examples/laplace_bb.f90 compiles");
        return;
    }
    const Aag *g = p.g;
    int over = 0, red = 0;
    for (int i = 0; i < g->ncomm; i++) {
        const CommEntry *e = g->comm[i];
        over += e->kind == CM_OVERLAP && !strcmp(e->arr->name, "a") && e->below == 1
                && e->above == 1 && e->line == 46;
        red += e->kind == CM_REDUCE;
    }
    check(g->ncomm == 4 && over == 2 && red == 2 && g->comm[2]->line == 48
          && g->comm[3]->line == 53, "laplace_bb: overlaps of a along both dimensions (line 46), "
          "the maxval and the sum reductions");
    const Aau *lp = find_iter(g, 44, ITER_DO);
    check(lp && lp->cls == AAU_ITERND && crit(g, "err") && crit(g, "err")->by_array,
          "laplace_bb: the iteration loop is IterND through err");
    release(&p);
}

/* ---- the dump tool ---- */

static int tool(int argc, char **argv)
{
    void (*fn)(FILE *, const Aag *) = aag_dump;
    AagOptions o = {1, NULL, 0, 0};
    const char *held[64];
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--dump-aag"))
            fn = aag_dump;
        else if (!strcmp(argv[i], "--dump-saag"))
            fn = saag_dump;
        else if (!strcmp(argv[i], "--dot"))
            fn = aag_dot;
        else if (!strcmp(argv[i], "-g") && i + 1 < argc)
            o.granularity = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-D") && i + 1 < argc && o.nheld < 64)
            held[o.nheld++] = argv[++i];
        else
            path = argv[i];
    }
    o.held = held;
    char *err = NULL;
    SrcFile *f = path ? srcfile_read(path, &err) : NULL;
    if (!f) {
        fprintf(stderr, "test_aag: cannot read '%s': %s\n", path ? path : "", err ? err : "");
        free(err);
        return 1;
    }
    Arena *a = arena_new("tool");
    Diag d;
    diag_init(&d, stderr);
    Node *ast = frontend_compile(f, src_form_of(path), a, &d, NULL, 0);
    SpProgram *sp = ast ? spmd_lower(ast, a, &d) : NULL;
    int rc = 1;
    if (sp) {
        Aag *g = aag_build(sp, &o);
        fn(stdout, g);
        aag_free(g);
        rc = 0;
    }
    arena_free(a);
    srcfile_free(f);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        return tool(argc, argv);
    laplace_checks();
    class_checks();
    ops_checks();
    mask_crit_checks();
    call_checks();
    forall_checks();
    example_checks();
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}
