/* probe_synth.c - the synthetic probe's plan (hpfc --probe FILE; doc/probes.md):
 * the phases hpfpredict --save-phases found, each phase's representative
 * interval as the main program's statements it runs and how many times,
 * matched to the lowered program's statements. spmd_emit then writes a
 * program that runs only those statements, phase by phase, on generated
 * data, each block timed by libhpfrt (hpfrt_probe_again). */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sema.h"
#include "spmd.h"
#include "util.h"

/* The number after "key": between s and end, or def. */
static double num_after(const char *s, const char *end, const char *key, double def)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(s, pat);
    if (!p || (end && p >= end))
        return def;
    char *e;
    double v = strtod(p + strlen(pat), &e);
    return e == p + strlen(pat) ? def : v;
}

/* Whether hpfc's SPMD code of s is a region (hpfrt_region_begin), as the
 * interpretation counts them (interp/bbv.c, bbv_region_head). */
static int region_stmt(const SpStmt *s)
{
    switch (s->kind) {
    case SP_STORE: case SP_BCAST: return 1;
    case SP_FORALL: case SP_REDUCE: return !spmd_loop_empty(s->u.loop);
    default: return 0;
    }
}

/* The ord-th region statement of line in the list (walked in program
 * order, into loops and branches); *seen counts those of the line met.
 * *inner: the innermost DO it lies in (NULL: none). */
static const SpStmt *find_region(const PtrVec *l, int line, int ord, int *seen,
                                 const SpStmt **inner)
{
    for (int i = 0; i < l->n; i++) {
        const SpStmt *s = l->v[i], *r = NULL;
        if (region_stmt(s) && s->line == line && ++*seen == ord)
            return s;
        switch (s->kind) {
        case SP_DO:
            r = find_region(&s->u.do_.body, line, ord, seen, inner);
            if (r && !*inner)
                *inner = s;
            break;
        case SP_WHILE:
            if (!(r = find_region(&s->u.while_.pre, line, ord, seen, inner)))
                r = find_region(&s->u.while_.body, line, ord, seen, inner);
            break;
        case SP_IF:
            for (int b = 0; b < s->u.if_.branches.n && !r; b++) {
                const SpBranch *br = s->u.if_.branches.v[b];
                if (!(r = find_region(&br->pre, line, ord, seen, inner)))
                    r = find_region(&br->body, line, ord, seen, inner);
            }
            break;
        default: break;
        }
        if (r)
            return r;
    }
    return NULL;
}

/* An INTEGER scalar a statement reads that the synthetic probe does not
 * set: not one of its FORALL indices, nor in `known` (the phase's DO
 * variable, the set-up's assignments). */
typedef struct {
    const SpLoop *lp;
    const PtrVec *known;
    const Symbol *unknown;
} Uses;

static int uses_visit(Node *n, void *ctx)
{
    Uses *u = ctx;
    const Symbol *y = n->kind == AST_NAME ? n->u.name.sym : n->kind == AST_REF ? n->u.ref.sym : NULL;
    if (y && y->kind == SYM_VARIABLE && y->rank == 0 && y->type.base == TY_INTEGER) {
        int ok = 0;
        for (int k = 0; u->lp && k < u->lp->nidx && !ok; k++)
            ok = u->lp->idx[k].var == y;
        for (int k = 0; k < u->known->n && !ok; k++)
            ok = u->known->v[k] == y;
        if (!ok) {
            u->unknown = y;
            return 1;
        }
    }
    return ast_children(n, uses_visit, ctx);
}

/* Whether an expression is scalar arithmetic: constants, scalars and
 * intrinsic calls of them (no array, no procedure of the program's). */
static int plain_visit(Node *n, void *ctx)
{
    (void)ctx;
    if (n->kind == AST_REF && n->u.ref.what != REF_INTRINSIC)
        return 1;
    if (n->kind == AST_NAME && n->u.name.sym && n->u.name.sym->rank > 0)
        return 1;
    return ast_children(n, plain_visit, NULL);
}

int spmd_probe_setup_stmt(const SpStmt *s)
{
    if (s->kind != SP_SEQ || s->u.seq->kind != AST_ASSIGN)
        return 0;
    const Node *l = s->u.seq->u.assign.lhs;
    const Symbol *y = l->kind == AST_NAME ? l->u.name.sym : NULL;
    return y && y->kind == SYM_VARIABLE && y->rank == 0 &&
           !plain_visit(s->u.seq->u.assign.rhs, NULL);
}

/* Whether region statement r computes a temporary of another
 * statement's (an actual argument, an I/O item): made by that statement,
 * which the probe may not run. */
static int temp_of_hpfc(const SpProgram *sp, const SpUnit *main, const SpStmt *r)
{
    const Node *lhs = r->kind == SP_STORE ? r->u.store.lhs
                      : r->kind == SP_BCAST ? NULL : r->u.loop->lhs;
    const SpRef *lr = lhs ? lhs->ir : NULL;
    int temp = lr && lr->arr && !lr->arr->sym;
    for (int k = 0; lr && lr->arr && k < main->temp_arrs.n && !temp; k++)
        temp = main->temp_arrs.v[k] == lr->arr;
    const char *lid = lhs && lhs->kind == AST_REF ? lhs->u.ref.id : NULL;
    if (lid && sp->prefix && !strncmp(lid, sp->prefix, strlen(sp->prefix)))
        temp = 1;          /* a replicated temporary of hpfc's (hpf_wN) */
    return temp;
}

/* The first of the expressions n[0..m-1] that reads a scalar not known. */
static const Symbol *unknown_in(Node *const *n, int m, const SpLoop *lp, const PtrVec *known)
{
    Uses u = {lp, known, NULL};
    for (int i = 0; i < m && !u.unknown; i++)
        if (n[i])
            uses_visit(n[i], &u);
    return u.unknown;
}

static const Symbol *unknown_scalar(const SpStmt *s, const PtrVec *known)
{
    const SpLoop *lp = NULL;
    Node *n[3 + 3 * MAX_RANK] = {0};
    int m = 0;
    if (s->kind == SP_STORE) {
        n[m++] = s->u.store.lhs;
        n[m++] = s->u.store.rhs;
    } else if (s->kind == SP_BCAST) {
        n[m++] = s->u.bcast.ref;
    } else {
        lp = s->u.loop;
        n[m++] = lp->lhs;
        n[m++] = lp->rhs;
        n[m++] = lp->mask;
        for (int k = 0; k < lp->nidx && m + 3 <= (int)(sizeof n / sizeof *n); k++) {
            n[m++] = lp->idx[k].lo;
            n[m++] = lp->idx[k].hi;
            n[m++] = lp->idx[k].st;
        }
    }
    return unknown_in(n, m, lp, known);
}

/* Whether list l holds statement r, at any depth. */
static int holds(const PtrVec *l, const SpStmt *r)
{
    for (int i = 0; i < l->n; i++) {
        const SpStmt *s = l->v[i];
        if (s == r)
            return 1;
        switch (s->kind) {
        case SP_DO:
            if (holds(&s->u.do_.body, r))
                return 1;
            break;
        case SP_WHILE:
            if (holds(&s->u.while_.pre, r) || holds(&s->u.while_.body, r))
                return 1;
            break;
        case SP_IF:
            for (int b = 0; b < s->u.if_.branches.n; b++) {
                const SpBranch *br = s->u.if_.branches.v[b];
                if (holds(&br->pre, r) || holds(&br->body, r))
                    return 1;
            }
            break;
        default: break;
        }
    }
    return 0;
}

/* The innermost DO WHILE of list l that holds statement r (in its body),
 * and in *in the list it lies in; NULL when r is in none. */
static const SpStmt *inner_while(const PtrVec *l, const SpStmt *r, const PtrVec **in)
{
    for (int i = 0; i < l->n; i++) {
        const SpStmt *s = l->v[i], *w = NULL;
        switch (s->kind) {
        case SP_DO:
            if (holds(&s->u.do_.body, r))
                return inner_while(&s->u.do_.body, r, in);
            break;
        case SP_WHILE:
            if (holds(&s->u.while_.body, r)) {
                if (!(w = inner_while(&s->u.while_.body, r, in))) {
                    w = s;
                    *in = l;
                }
                return w;
            }
            break;
        case SP_IF:
            for (int b = 0; b < s->u.if_.branches.n; b++) {
                const SpBranch *br = s->u.if_.branches.v[b];
                if (holds(&br->body, r))
                    return inner_while(&br->body, r, in);
            }
            break;
        default: break;
        }
    }
    return NULL;
}

static int in_vec(const PtrVec *v, const void *p)
{
    for (int i = 0; i < v->n; i++)
        if (v->v[i] == p)
            return 1;
    return 0;
}

/* Whether an expression reads a variable other than the INTEGER scalars
 * in known (a DO WHILE's condition: what decides its trips). */
static int other_visit(Node *n, void *ctx)
{
    const PtrVec *known = ctx;
    const Symbol *y = n->kind == AST_NAME ? n->u.name.sym : n->kind == AST_REF ? n->u.ref.sym : NULL;
    if (y && y->kind == SYM_VARIABLE &&
        (y->rank || y->type.base != TY_INTEGER || !in_vec(known, y)))
        return 1;
    return ast_children(n, other_visit, ctx);
}

/* A DO WHILE w, among the statements in, that the synthetic probe can run
 * whole, its trips counted before the block (emit.c, synthetic_body): its
 * condition is
 * scalar INTEGER arithmetic; its body is scalar assignments and regions;
 * what they read is known, set by the assignments before w in the same
 * body (its prelude, run before it), or set earlier in the same trip. A
 * variable w assigns that a trip reads before assigning it, or its
 * condition reads, must be set by the prelude. NULL when it can, else the
 * reason (static text). */
static const char *while_runs(const PtrVec *in, const SpStmt *w, const PtrVec *known0, Arena *a)
{
    if (!w->u.while_.cond || w->u.while_.pre.n)
        return "its condition is not scalar arithmetic";
    const PtrVec *body = &w->u.while_.body;
    PtrVec set = {0}, known = {0};
    for (int i = 0; i < body->n; i++) {
        const SpStmt *t = body->v[i];
        if (spmd_probe_setup_stmt(t))
            vec_push(a, &set, t->u.seq->u.assign.lhs->u.name.sym);
        else if (!region_stmt(t))
            return "its body has statements other than assignments";
    }
    /* the prelude: what the assignments before w set, from what is known */
    for (int i = 0; i < known0->n; i++)
        if (!in_vec(&set, known0->v[i]))
            vec_push(a, &known, known0->v[i]);
    for (int i = 0; i < in->n && in->v[i] != w; i++) {
        const SpStmt *t = in->v[i];
        if (spmd_probe_setup_stmt(t) &&
            !unknown_in(&t->u.seq->u.assign.rhs, 1, NULL, &known))
            vec_push(a, &known, t->u.seq->u.assign.lhs->u.name.sym);
    }
    Node *c = w->u.while_.cond;
    if (plain_visit(c, NULL) || other_visit(c, &known))
        return "its condition reads what its prelude does not set";
    for (int i = 0; i < body->n; i++) {
        const SpStmt *t = body->v[i];
        if (spmd_probe_setup_stmt(t)) {
            if (unknown_in(&t->u.seq->u.assign.rhs, 1, NULL, &known))
                return "a value it reads is not set before";
            vec_push(a, &known, t->u.seq->u.assign.lhs->u.name.sym);
        } else if (unknown_scalar(t, &known)) {
            return "a value it reads is not set before";
        }
    }
    return NULL;
}

int spmd_probe_read(SpProgram *sp, const char *path, Arena *a, char *err, size_t errlen)
{
    size_t len;
    int why;
    char *text = file_read_all(path, &len, &why);
    if (!text) {
        snprintf(err, errlen, "cannot read '%s': %s", path, file_error(why));
        return -1;
    }
    SpUnit *main = NULL;
    for (int i = 0; i < sp->units.n; i++)
        if (((SpUnit *)sp->units.v[i])->main)
            main = sp->units.v[i];
    const char *ph = strstr(text, "\"phases\": [");
    const char *stop = ph ? strstr(ph, "\"membership\"") : NULL;
    const char *pr = strstr(text, "\"probe\": {");
    const char *fp = pr ? strstr(pr, "\"fingerprint\": \"") : NULL;
    int bad = 0;
    if (!main) {
        snprintf(err, errlen, "the program has no main program to probe");
        bad = 1;
    } else if (!ph || !stop || !fp) {
        snprintf(err, errlen, "'%s' is not a phases file of hpfpredict --save-phases", path);
        bad = 1;
    }
    /* ALLOCATABLE arrays: their sizes come from the program's run, which
       the synthetic probe does not make */
    const PtrVec *decls = main ? &main->unit->u.unit.body : NULL;
    for (int i = 0; !bad && decls && i < decls->n; i++) {
        const Node *n = decls->v[i];
        const char *name = NULL;
        if (n->kind == AST_ALLOCATABLE_STMT && n->u.list.items.n) {
            const Node *x = n->u.list.items.v[0];
            name = x->kind == AST_ENTITY ? x->u.entity.id : "";
        } else if (n->kind == AST_TYPE_DECL)
            for (int k = 0; k < n->u.decl.entities.n && !name; k++) {
                const Node *x = n->u.decl.entities.v[k];
                const Symbol *y = x->kind == AST_ENTITY
                                  ? (x->u.entity.sym ? x->u.entity.sym
                                                     : scope_lookup_local(main->scope, x->u.entity.id))
                                  : NULL;
                if (y && y->allocatable)
                    name = y->name;
            }
        if (name) {
            snprintf(err, errlen, "the main program has ALLOCATABLE arrays ('%s', line %d): "
                     "the synthetic probe does not make their sizes; probe the program itself "
                     "(HPFRT_PROBE)", name, n->loc.line);
            bad = 1;
        }
    }
    /* mappings REDISTRIBUTE or REALIGN make: the probe does not run them */
    for (int i = 0; !bad && main && i < main->arrs.n; i++) {
        const SpArr *x = main->arrs.v[i];
        if (x->version > 0 && x->sym) {
            snprintf(err, errlen, "the main program remaps '%s' (REDISTRIBUTE or REALIGN): the "
                     "synthetic probe does not make its mappings; probe the program itself "
                     "(HPFRT_PROBE)", x->sym->name);
            bad = 1;
        }
    }
    SpProbe *p = arena_alloc(a, sizeof *p);
    memset(p, 0, sizeof *p);
    if (!bad) {
        fp += strlen("\"fingerprint\": \"");
        size_t k = strcspn(fp, "\"");
        p->fingerprint = arena_strndup(a, fp, k < 64 ? k : 64);
        p->np = (int)num_after(pr, NULL, "np", 0);
    }
    /* the set-up, before the main program's first DO loop: its scalar
       assignments, and the statements that set its arrays from what they
       know (the program's own initial data, over the generated values) */
    PtrVec set = {0};
    for (int k = 0; !bad && k < main->body.n; k++) {
        const SpStmt *t = main->body.v[k];
        if (t->kind == SP_DO || t->kind == SP_WHILE)
            break;
        if (spmd_probe_setup_stmt(t)) {
            vec_push(a, &p->setup, (void *)t);
            vec_push(a, &set, t->u.seq->u.assign.lhs->u.name.sym);
        } else if (region_stmt(t) && !temp_of_hpfc(sp, main, t) && !unknown_scalar(t, &set)) {
            vec_push(a, &p->setup, (void *)t);
        }
    }
    for (const char *s = ph; !bad && (s = strstr(s + 1, "{\"phase\": ")) && s < stop;) {
        const char *e = strstr(s + 1, "{\"phase\": ");
        if (!e || e > stop)
            e = stop;
        SpProbePhase *q = arena_alloc(a, sizeof *q);
        memset(q, 0, sizeof *q);
        q->phase = (int)num_after(s, e, "phase", 0);
        q->rep_work = num_after(s, e, "rep_operations", 0);
        q->phase_work = num_after(s, e, "operations", 0);
        q->top_line = (int)num_after(s, e, "top_do_line", 0);
        q->top_iter = (long long)num_after(s, e, "top_do_iteration", 0);
        const char *st = strstr(s, "\"statements\": [");
        if (!st || st > e || q->phase < 1 || !(q->rep_work > 0)) {
            snprintf(err, errlen, "'%s': phase %d has no statements: write the phases again "
                     "with this version of hpfpredict --save-phases", path, q->phase);
            bad = 1;
            break;
        }
        st += strlen("\"statements\": [");
        while (!bad && *st == '[') {
            char *x;
            long line = strtol(st + 1, &x, 10);
            long ord = *x == ',' ? strtol(x + 1, &x, 10) : 0;
            double n = *x == ',' ? strtod(x + 1, &x) : -1;
            if (*x != ']' || line < 1 || ord < 1 || !(n > 0)) {
                snprintf(err, errlen, "'%s': phase %d: a statement is not [line, which, "
                         "executions]", path, q->phase);
                bad = 1;
                break;
            }
            int seen = 0;
            const SpStmt *inner = NULL, *wrap = NULL, *loop = NULL;
            const SpStmt *r = find_region(&main->body, (int)line, (int)ord, &seen, &inner);
            if (!r) {
                snprintf(err, errlen, "'%s': phase %d: no statement of line %ld in this "
                         "program's main program (the phases of another program?)", path,
                         q->phase, line);
                bad = 1;
                break;
            }
            /* what the block will know: the phase's DO variable, the
               set-up's assignments (emit.c, synthetic_body) */
            PtrVec known = {0};
            for (int k = 0; k < main->body.n; k++) {
                const SpStmt *t = main->body.v[k];
                if (t->kind == SP_DO && t->line == q->top_line && t->u.do_.var &&
                    t->u.do_.var->kind == AST_NAME)
                    vec_push(a, &known, t->u.do_.var->u.name.sym);
            }
            for (int k = 0; k < set.n; k++)
                vec_push(a, &known, set.v[k]);
            if (temp_of_hpfc(sp, main, r)) {
                snprintf(err, errlen, "phase %d: the statement of line %ld computes a "
                         "temporary of hpfc's (an actual argument or an output item), which "
                         "the synthetic probe does not allocate; probe the program itself "
                         "(HPFRT_PROBE)", q->phase, line);
                bad = 1;
                break;
            }
            /* a statement of a DO WHILE of the phase's DO: that DO WHILE
               run whole, where the probe can */
            const PtrVec *in = NULL;
            const char *why = NULL;
            loop = inner_while(&main->body, r, &in);
            if (loop && !(why = while_runs(in, loop, &known, a)))
                wrap = loop;
            const Symbol *y = wrap ? NULL : unknown_scalar(r, &known);
            /* the variable of a DO nested in the phase's DO, whose bounds
               are known: that DO is run whole around the statement */
            if (y && inner && inner->line != q->top_line && inner->u.do_.var &&
                inner->u.do_.var->kind == AST_NAME && inner->u.do_.var->u.name.sym == y) {
                Node *b[3] = {inner->u.do_.lo, inner->u.do_.hi, inner->u.do_.st};
                if (!unknown_in(b, 3, NULL, &known)) {
                    vec_push(a, &known, (void *)y);
                    y = unknown_scalar(r, &known);
                    wrap = inner;
                }
            }
            if (y && why) {
                snprintf(err, errlen, "phase %d: the statement of line %ld reads '%s', set in "
                         "the run; the DO WHILE of line %d it lies in is not run whole (%s); "
                         "probe the program itself (HPFRT_PROBE)", q->phase, line, y->name,
                         loop->line, why);
                bad = 1;
                break;
            }
            if (y) {
                snprintf(err, errlen, "phase %d: the statement of line %ld reads '%s', whose "
                         "value the synthetic probe does not know (it is set in the program's "
                         "run); probe the program itself (HPFRT_PROBE)", q->phase, line,
                         y->name);
                bad = 1;
                break;
            }
            vec_push(a, &q->stmts, (void *)r);
            vec_push(a, &q->wraps, (void *)wrap);
            vec_push(a, &q->wrap_in, wrap == loop ? (void *)in : NULL);
            double *c = arena_alloc(a, sizeof *c);
            *c = n;
            vec_push(a, &q->counts, c);
            st = x + 1;
            while (*st == ',' || *st == ' ' || *st == '\n')
                st++;
        }
        /* a DO WHILE run whole runs all its regions: each must be one the
           interval runs */
        for (int k = 0; !bad && k < q->stmts.n; k++) {
            const SpStmt *w = q->wraps.v[k];
            if (!w || w->kind != SP_WHILE)
                continue;
            for (int j = 0; j < w->u.while_.body.n && !bad; j++) {
                const SpStmt *t = w->u.while_.body.v[j];
                if (region_stmt(t) && !in_vec(&q->stmts, t)) {
                    snprintf(err, errlen, "phase %d: the DO WHILE of line %d runs the statement "
                             "of line %d, which the phase's interval does not run; probe the "
                             "program itself (HPFRT_PROBE)", q->phase, w->line, t->line);
                    bad = 1;
                }
            }
        }
        if (!bad)
            vec_push(a, &p->phases, q);
    }
    if (!bad && !p->phases.n) {
        snprintf(err, errlen, "'%s' has no phases", path);
        bad = 1;
    }
    free(text);
    if (bad)
        return -1;
    sp->probe = p;
    return 0;
}
